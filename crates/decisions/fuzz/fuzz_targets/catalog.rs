//! Any text as a catalog: repeated keys are found and the contract validator answers, never
//! panicking, against a calibrated and an uncalibrated provider.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = decisions::json::duplicate_keys(text);
    if let Ok(doc) = decisions::json::Document::parse(text) {
        for name in ["jev", "openrouter", "none"] {
            if let Some(d) = decisions::builtin(name) {
                let _ = decisions::validate_catalog(&doc.value, &d);
            }
        }
    }
});
