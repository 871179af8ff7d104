//! `craftmate scenario PATH...`: run scenario files in the embedded world.

use craftmate::agent::assistant::Assistant;
use craftmate::agent::{Bot, Listener};
use craftmate::scenario::BotKind;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], json: bool) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut make_bot = |kind: BotKind| -> Box<dyn Bot> {
        match kind {
            BotKind::Listener => Box::new(Listener::default()),
            BotKind::Assistant => match Assistant::in_memory(super::parser()) {
                Ok(a) => Box::new(a),
                Err(e) => {
                    tracing::error!("cannot open memory: {e}; this scenario runs with a listener");
                    Box::new(Listener::default())
                }
            },
        }
    };
    let (_, failed) = craftmate::scenario::run_all(paths, json, &mut make_bot, &mut out)?;
    Ok(if failed > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
