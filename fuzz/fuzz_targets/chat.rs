//! libFuzzer entry point for [`craftmate_fuzz::chat`]: `cargo fuzz run --features libfuzzer chat`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| craftmate_fuzz::chat::run(data));
