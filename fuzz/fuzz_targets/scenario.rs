//! libFuzzer entry point for [`craftmate_fuzz::scenario`]: `cargo fuzz run --features libfuzzer scenario`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| craftmate_fuzz::scenario::run(data));
