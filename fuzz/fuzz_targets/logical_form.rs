//! libFuzzer entry point for [`craftmate_fuzz::logical_form`]: `cargo fuzz run --features libfuzzer logical_form`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| craftmate_fuzz::logical_form::run(data));
