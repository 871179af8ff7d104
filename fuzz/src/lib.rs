//! Fuzz targets for craftmate, as plain functions of bytes.
//!
//! Each target feeds its input through one path of the product and panics when something that
//! must hold for every input does not (a panic inside the product counts the same):
//!
//! - [`chat`]: chat lines → chat gate → dialogue (shipped parser) → interpreter → tasks, on the
//!   embedded world.
//! - [`logical_form`]: logical forms grown from the grammar of our own templates, valid and
//!   near-valid → validate → interpreter → tasks.
//! - [`scenario`]: scenario files → the loader → a short run with a listening bot.
//! - [`live_chat`]: any text → the outgoing chat splitter and cleaner, and the reader of
//!   `<name> message` system chat.
//!
//! Every target bounds its own work (lines, ticks, blocks counted), so one input takes well under
//! a second: a slower one is a hang, and libFuzzer's `-timeout` reports it.
//!
//! Layout: [`sandbox`] is the small world the bot is fuzzed in; [`mutate`] is the seeded
//! mutator of the short random run that `cargo test` makes (`tests/corpus.rs`), which also
//! replays every committed input under `corpus/<target>/`. `fuzz_targets/` holds the libFuzzer
//! entry points for `cargo fuzz` (see README.md).

pub mod chat;
pub mod live_chat;
pub mod logical_form;
pub mod mutate;
pub mod sandbox;
pub mod scenario;

/// Every target by name (the name of its `corpus/` folder and of its `cargo fuzz` binary).
pub const TARGETS: &[(&str, fn(&[u8]))] =
    &[("chat", chat::run), ("logical_form", logical_form::run), ("scenario", scenario::run), ("live_chat", live_chat::run)];
