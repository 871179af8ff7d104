//! libFuzzer entry point for [`craftmate_fuzz::live_chat`]: `cargo fuzz run --features libfuzzer live_chat`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| craftmate_fuzz::live_chat::run(data));
