//! Handlers for the `craftmate` subcommands, one file each. They live beside `main.rs` (in the
//! binary, not the library) because they are the edge: `anyhow` errors and printing happen here.

pub mod bench;
pub mod chat;
pub mod check_data;
pub mod connect;
pub mod eval_parser;
pub mod parse;
pub mod play;
pub mod scenario;
pub mod train;

use std::path::Path;

use anyhow::Context;
use craftmate::parser::NeuralParser;

/// The parser in `dir`, or the one shipped in the binary.
pub fn load_parser(dir: Option<&Path>, beam: Option<usize>) -> anyhow::Result<NeuralParser> {
    let mut parser = match dir {
        Some(dir) => NeuralParser::load_dir(dir).with_context(|| format!("loading the model in {}", dir.display()))?,
        None => NeuralParser::shipped().context("loading the shipped model")?,
    };
    if let Some(width) = beam {
        parser.beam_width = width.max(1);
    }
    Ok(parser)
}

/// The parser the bot uses: the shipped model. If it cannot load (it always should), the bot
/// still understands the exact-match table and says so in the log.
pub fn parser() -> Option<Box<dyn craftmate::parser::Parser>> {
    match NeuralParser::shipped() {
        Ok(p) => Some(Box::new(p)),
        Err(e) => {
            tracing::error!("the shipped parser did not load: {e}; only exact-match commands work");
            None
        }
    }
}

/// Sleeps until the next game tick of a real-time loop (`play`, `connect`) started at `next`.
/// A loop that fell behind starts counting again from now instead of catching up in a burst.
pub fn wait_for_tick(next: &mut std::time::Instant, tick: std::time::Duration) {
    *next += tick;
    let now = std::time::Instant::now();
    if *next > now {
        std::thread::sleep(*next - now);
    } else {
        *next = now;
    }
}
