//! Any bytes as a System One answer body: one typed answer that keeps the contract, or a
//! typed failure, per question. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| decisions::fuzzing::systemone(data));
