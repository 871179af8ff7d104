//! `craftmate scenario PATH...`: run scenario files in the embedded world.
//!
//! `--say-only` drops the scenarios' `lf` hints so every line goes through the parser: the same
//! behaviour checks then measure the parser end to end. `--model DIR` runs them with another model.

use craftmate::agent::assistant::Assistant;
use craftmate::agent::{Bot, Listener};
use craftmate::logical_form::LogicalForm;
use craftmate::scenario::BotKind;
use craftmate::world::World;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A bot that never takes a scenario's logical form for a line: it has to parse what it hears.
struct SayOnly(Box<dyn Bot>);

impl Bot for SayOnly {
    fn tick(&mut self, world: &mut dyn World) {
        self.0.tick(world)
    }
    fn is_idle(&self) -> bool {
        self.0.is_idle()
    }
    fn expect_parse(&mut self, _speaker: &str, _text: &str, _lf: LogicalForm) {}
    fn is_thinking(&self) -> bool {
        self.0.is_thinking()
    }
    fn describe_tasks(&self) -> Vec<String> {
        self.0.describe_tasks()
    }
    fn describe_memory(&self) -> Vec<String> {
        self.0.describe_memory()
    }
}

pub fn run(paths: &[PathBuf], json: bool, say_only: bool, model: Option<&Path>) -> anyhow::Result<ExitCode> {
    // Load a model given on the command line once, up front, so a bad directory is one clear error.
    let model_dir = match model {
        Some(dir) => {
            super::load_parser(Some(dir), None)?;
            Some(dir)
        }
        None => None,
    };
    let parser = || -> Option<Box<dyn craftmate::parser::Parser>> {
        match model_dir {
            Some(dir) => {
                super::load_parser(Some(dir), None).ok().map(|p| Box::new(p) as Box<dyn craftmate::parser::Parser>)
            }
            None => super::parser(),
        }
    };
    let mut out = std::io::stdout().lock();
    let mut make_bot = |kind: BotKind| -> Box<dyn Bot> {
        let bot: Box<dyn Bot> = match kind {
            BotKind::Listener => Box::new(Listener::default()),
            BotKind::Assistant => match Assistant::in_memory(parser()) {
                Ok(a) => Box::new(a),
                Err(e) => {
                    tracing::error!("cannot open memory: {e}; this scenario runs with a listener");
                    Box::new(Listener::default())
                }
            },
        };
        if say_only { Box::new(SayOnly(bot)) } else { bot }
    };
    let (_, failed) = craftmate::scenario::run_all(paths, json, &mut make_bot, &mut out)?;
    Ok(if failed > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
