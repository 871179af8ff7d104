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
    /// An hour (`--minutes N`) of scripted play with the memory in a file: resident memory,
    /// file size and tick time every minute, and their growth.
    Soak,
    /// Hostile chat end to end through `play` (`--lines N`, default 100000): junk, control
    /// characters, huge lines, slash commands, endless names; resident memory every thousand
    /// lines and its growth.
    Hostile,
    /// Training speed on one thread: one optimizer step of the default network, and one with the
    /// shipped word features tuned (run from the repository root: it trains on the templates in
    /// data/templates).
    Training,
}

pub fn run(area: Area, model: Option<&std::path::Path>, minutes: Option<f64>, lines: Option<u64>) -> anyhow::Result<ExitCode> {
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
        Area::Soak => soak(model, minutes.unwrap_or(60.0))?,
        Area::Hostile => hostile(model, lines.unwrap_or(100_000))?,
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

/// The soak run with a line a minute as it goes and a bar for the time left.
fn soak(model: Option<&std::path::Path>, minutes: f64) -> anyhow::Result<Vec<craftmate::bench::Figure>> {
    anyhow::ensure!(minutes.is_finite() && minutes > 0.0, "--minutes must be a positive number");
    let model = model.map(std::path::Path::to_path_buf);
    let make_parser = move || super::load_parser(model.as_deref(), None).ok().map(|p| Box::new(p) as Box<dyn craftmate::parser::Parser>);
    let bar = indicatif::ProgressBar::new((minutes * 60.0).round() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("soak {bar:30} {elapsed_precise} of {msg}").expect("a valid template"),
    );
    bar.set_message(format!("{minutes} min"));
    let ticker = {
        let bar = bar.clone();
        std::thread::spawn(move || {
            while !bar.is_finished() {
                bar.set_position(bar.elapsed().as_secs());
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
        })
    };
    // The table is the result: on stdout, whether or not the bar is shown.
    bar.suspend(|| println!("minute  rss_mb  file_mb    ticks  p50_us  p99_us   max_ms  lines"));
    let figures = craftmate::bench::soak::run(minutes, make_parser, |s| {
        let line = format!(
            "{:>6}  {:>6.1}  {:>7.2}  {:>7}  {:>6.0}  {:>6.0}  {:>7.1}  {:>5}",
            s.minute,
            s.rss_mb,
            s.file_mb,
            s.ticks,
            s.p50_us,
            s.p99_us,
            s.max_us / 1000.0,
            s.lines
        );
        bar.suspend(|| println!("{line}"));
    })?;
    bar.finish_and_clear();
    let _ = ticker.join();
    Ok(figures)
}

/// The hostile-chat run with a line every thousand chat lines and a bar for the lines left.
fn hostile(model: Option<&std::path::Path>, lines: u64) -> anyhow::Result<Vec<craftmate::bench::Figure>> {
    anyhow::ensure!(lines > 0, "--lines must be at least 1");
    let model = model.map(std::path::Path::to_path_buf);
    let make_parser = move || super::load_parser(model.as_deref(), None).ok().map(|p| Box::new(p) as Box<dyn craftmate::parser::Parser>);
    let bar = indicatif::ProgressBar::new(lines);
    bar.set_style(
        indicatif::ProgressStyle::with_template("hostile {bar:30} {pos}/{len} lines {elapsed_precise}").expect("a valid template"),
    );
    bar.suspend(|| println!("  lines  rss_mb  slowest_ms"));
    let figures = craftmate::bench::hostile::run(lines, 44, make_parser, |s| {
        bar.set_position(s.lines);
        bar.suspend(|| println!("{:>7}  {:>6.1}  {:>10.1}", s.lines, s.rss_mb, s.slowest_ms));
    });
    bar.finish_and_clear();
    Ok(figures)
}
