//! Handlers for the `craftmate` subcommands, one file each. They live beside `main.rs` (in the
//! binary, not the library) because they are the edge: `anyhow` errors and printing happen here.

pub mod bench;
pub mod chat;
pub mod check_data;
pub mod play;
pub mod scenario;

/// The parser the bot uses: none until a trained model ships (the exact-match table still works).
pub fn parser() -> Option<Box<dyn craftmate::parser::Parser>> {
    None
}
