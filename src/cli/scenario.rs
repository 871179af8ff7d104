//! `craftmate scenario PATH...`: run scenario files in the embedded world.

use craftmate::agent::{Bot, Listener};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], json: bool) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut make_bot = || Box::new(Listener::default()) as Box<dyn Bot>;
    let (_, failed) = craftmate::scenario::run_all(paths, json, &mut make_bot, &mut out)?;
    Ok(if failed > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
