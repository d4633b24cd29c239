//! Any bytes as a chat-completions body: a distribution over exactly the enum, or a typed
//! failure, for a choice, a score and a noul. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| decisions::fuzzing::chat(data));
