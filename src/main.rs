//! The `craftmate` command line: a thin layer that wires the library's modules together.
//! Errors end here as `anyhow` reports; everything below uses typed errors.

mod cli;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "craftmate", version, about = "An offline Minecraft assistant you talk to in chat")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Talk to the bot in the embedded world (the default). Lines are chat; /help lists commands.
    Play(cli::play::PlayArgs),
    /// Check a `text|json` (or `id|text|json`) file of annotated commands against the
    /// logical-form contract; prints per-row errors and `checked N rows, M errors`.
    CheckData {
        /// The file to check, e.g. ../shared/data/annotated.txt
        file: PathBuf,
    },
    /// Print benchmark figures (`name: value unit` lines); use a release build.
    Bench {
        #[arg(value_enum)]
        area: cli::bench::Area,
        /// Model directory for `bench parser` (default: the model shipped in the binary); the
        /// GGUF file for `bench llm`.
        #[arg(long)]
        model: Option<PathBuf>,
        /// How long `bench soak` plays (default 60).
        #[arg(long)]
        minutes: Option<f64>,
        /// How many lines `bench hostile` sends (default 100000).
        #[arg(long)]
        lines: Option<u64>,
    },
    /// Run scenario files (see SCENARIOS.md) in the embedded world; prints PASS/FAIL lines and
    /// `N passed, M failed`; exits 1 if any failed.
    Scenario {
        /// Scenario files or directories (searched recursively for *.toml).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// One JSON object per scenario instead of text lines.
        #[arg(long)]
        json: bool,
        /// Ignore the steps' `lf` forms: every chat line goes through the parser (end-to-end check
        /// of the parser on the scenarios).
        #[arg(long)]
        say_only: bool,
        /// Parser model directory (default: the model shipped in the binary).
        #[arg(long)]
        model: Option<PathBuf>,
        /// Switch these rules of understanding off (comma-separated; `craftmate-lab rules` measures
        /// what each adds over the parser).
        #[arg(long, value_delimiter = ',', value_name = "RULES")]
        rules_off: Vec<String>,
    },
    /// Train the semantic parser the way the shipped one was made (every network, combined, f16)
    /// and print its score on the held-out split; `--single` trains one network.
    Train(cli::train::Args),
    /// Benchmark the parser: exact match overall / per type, error kinds, latency.
    EvalParser(cli::eval_parser::Args),
    /// Write the lines players taught the bot (kept in a `--memory` file) as `text|json` rows, for
    /// `train --init models/parser --data ROWS`.
    ExportLearned {
        /// The bot's memory file (as given to `play --memory` or `connect --memory`).
        #[arg(long)]
        memory: PathBuf,
        /// Write the rows here instead of to standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Parse one chat line: prints the logical form the bot would act on (as JSON), where it came
    /// from and the confidence; `--raw` for the network alone.
    Parse {
        text: String,
        /// Model directory (default: the model shipped in the binary).
        #[arg(long)]
        model: Option<PathBuf>,
        /// Beam width for decoding (1 = greedy; default: the parser's).
        #[arg(long)]
        beam: Option<usize>,
        /// Also list the decisions behind the confidence (each token or span the model chose
        /// freely, with its probability), least sure first: why a line was asked back.
        #[arg(long)]
        explain: bool,
        /// The network alone, without the rest of the understanding path (typos, known lines,
        /// sequences, measures).
        #[arg(long)]
        raw: bool,
        /// Switch these rules of understanding off (comma-separated; `craftmate-lab rules` measures
        /// what each adds over the parser).
        #[arg(long, value_delimiter = ',', value_name = "RULES")]
        rules_off: Vec<String>,
    },
    /// One answer from the configured language model (see craftmate.example.toml), made safe for
    /// chat; GGUF models print tokens/s to stderr.
    Chat(cli::chat::ChatArgs),
    /// Join a Minecraft 26.1 server (creative mode, offline accounts) and help the players there.
    Connect(cli::connect::ConnectArgs),
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let command = cli.command.unwrap_or_else(|| Command::Play(cli::play::PlayArgs::default()));
    if !matches!(command, Command::Play(_) | Command::Chat(_) | Command::Connect(_)) {
        cli::end_quietly_on_closed_pipe();
    }
    // Parser scores come with latencies measured on one thread; candle and gemm read this before
    // their first use.
    if matches!(command, Command::EvalParser(_))
        && std::env::var_os("RAYON_NUM_THREADS").is_none()
    {
        // SAFETY: set before any other thread exists.
        unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
    }
    match command {
        Command::Play(args) => cli::play::run(&args),
        Command::Bench { area, model, minutes, lines } => {
            let one_core = matches!(
                area,
                cli::bench::Area::Parser | cli::bench::Area::Training | cli::bench::Area::Llm | cli::bench::Area::Soak | cli::bench::Area::Hostile
            );
            if one_core && std::env::var_os("RAYON_NUM_THREADS").is_none() {
                // One core, as the latency target says and as training runs; candle and gemm
                // read this at first use.
                // SAFETY: set before any other thread exists.
                unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
            }
            cli::bench::run(area, model.as_deref(), minutes, lines)
        }
        Command::CheckData { file } => cli::check_data::run(&file),
        Command::Scenario { paths, json, say_only, model, rules_off } => {
            switch_off(&rules_off)?;
            cli::scenario::run(&paths, json, say_only, model.as_deref())
        }
        Command::Train(args) => cli::train::run(args),
        Command::EvalParser(args) => cli::eval_parser::run(args),
        Command::ExportLearned { memory, out } => cli::export_learned::run(&memory, out.as_deref()),
        Command::Parse { text, model, beam, explain, raw, rules_off } => {
            switch_off(&rules_off)?;
            cli::parse::run(&text, model.as_deref(), beam, explain, raw)
        }
        Command::Chat(args) => cli::chat::run(&args),
        Command::Connect(args) => cli::connect::run(&args),
    }
}

/// Switches the named rules of understanding off before any line is read.
fn switch_off(rules: &[String]) -> anyhow::Result<()> {
    if rules.is_empty() {
        return Ok(());
    }
    craftmate::understanding::rules::switch_off(rules).map_err(anyhow::Error::msg)
}
