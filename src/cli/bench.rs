//! `craftmate bench AREA`: print measured figures, one `name: value unit` line each.
//! Speed targets live here rather than in timed tests, because shared machines are noisy.

use std::process::ExitCode;

use anyhow::Context;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Area {
    /// Perception updates, filter queries over 10k memories, memory footprint.
    Memory,
    /// A* path planning, building speed, task-stack tick cost.
    Tasks,
    /// Parse latency on one thread, stage by stage (word features, encoder, greedy and beam).
    Parser,
    /// Small talk with an in-process GGUF model on one thread (`--model FILE.gguf`): prompt
    /// reading, first token and whole reply, weights packed and unpacked.
    Llm,
    /// The web view: the delay from a block change to a page, tick time with and without a
    /// page, bytes to an idle page.
    Web,
    /// Training speed on one thread: one optimizer step of the default network, and one with the
    /// shipped word features tuned (run from the repository root: it trains on the templates in
    /// data/templates).
    Training,
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
        Area::Llm => {
            let Some(model) = model else {
                anyhow::bail!("bench llm needs --model FILE.gguf (e.g. SmolLM2-135M-Instruct.Q4_1.gguf)");
            };
            // SAFETY: set before candle starts any thread.
            unsafe { craftmate::llm::gguf::init_cpu_threads(Some(1)) };
            craftmate::bench::llm::run(model)?
        }
        Area::Web => {
            let model = model.map(std::path::Path::to_path_buf);
            craftmate::bench::web::run(move || super::load_parser(model.as_deref(), None).ok().map(|p| Box::new(p) as Box<dyn craftmate::parser::Parser>))
        }
        Area::Training => {
            super::keep_freed_memory();
            let dir = std::path::Path::new("data/templates");
            craftmate::bench::training::run(dir).with_context(|| {
                format!("training on the templates in {} (run this from the repository root)", dir.display())
            })?
        }
    };
    for f in figures {
        println!("{f}");
    }
    Ok(ExitCode::SUCCESS)
}
