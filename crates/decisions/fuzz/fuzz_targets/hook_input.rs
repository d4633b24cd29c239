//! Any bytes as an agent's hook input, for each agent: a shell call or a reason, with every
//! text quoted from the agent clipped, so an event line stays small. Never a panic.
#![no_main]

use decisions::agent::{Agent, NAME_MAX, read_call};
use libfuzzer_sys::fuzz_target;


fuzz_target!(|data: &[u8]| {
    let redactor = decisions::Redactor::default();
    for agent in [Agent::ClaudeCode, Agent::Codex, Agent::Gemini] {
        let read = read_call(agent, data, &redactor);
        if let Err(reason) = &read.call {
            // As an event writes it: at most 6 bytes a character once JSON escapes it.
            let written = serde_json::to_string(reason).unwrap_or_default();
            assert!(written.len() <= 6 * NAME_MAX + 64, "{written}");
        }
        assert!(read.session.is_none_or(|s| s.chars().count() <= 8));
    }
});
