//! Any text as a project's config.json: it loads or is malformed, and any descriptor in it
//! validates or is refused, never panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let config = decisions::parse_config(text, "config.json".into());
    for name in ["jev", "openrouter", "generic", "acme"] {
        if let Ok(d) = decisions::descriptor_for(name, &config) {
            let _ = decisions::validate_descriptor(&d);
        }
    }
});
