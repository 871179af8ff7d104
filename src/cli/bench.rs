//! `craftmate bench AREA`: print measured figures, one `name: value unit` line each.
//! Speed targets live here rather than in timed tests, because shared machines are noisy.

use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Area {
    /// Perception updates, filter queries over 10k memories, memory footprint.
    Memory,
    /// A* path planning, building speed, task-stack tick cost.
    Tasks,
    /// Parse latency on one thread, stage by stage (word features, encoder, greedy and beam).
    Parser,
}

pub fn run(area: Area, model: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    if cfg!(debug_assertions) {
        eprintln!("note: this is a debug build; run `cargo run --release -- bench …` for real figures");
    }
    let figures = match area {
        Area::Memory => craftmate::bench::memory::run(),
        Area::Tasks => craftmate::bench::tasks::run(),
        Area::Parser => {
            let mut parser = super::load_parser(model, None)?;
            craftmate::bench::parser::run(&mut parser, 10)
        }
    };
    for f in figures {
        println!("{f}");
    }
    Ok(ExitCode::SUCCESS)
}
