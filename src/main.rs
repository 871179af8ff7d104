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
    Play {
        /// Your player name.
        #[arg(long, default_value = "player")]
        name: String,
        /// No ANSI colours in /map.
        #[arg(long)]
        no_colour: bool,
        /// Keep the bot's memory in this SQLite file (created if missing) so it survives restarts.
        #[arg(long)]
        memory: Option<PathBuf>,
    },
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
    },
    /// One answer from the configured language model (see craftmate.example.toml), made safe for
    /// chat; GGUF models print tokens/s to stderr.
    Chat(cli::chat::ChatArgs),
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
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
    let command = cli.command.unwrap_or(Command::Play { name: "player".into(), no_colour: false, memory: None });
    match command {
        Command::Play { name, no_colour, memory } => cli::play::run(&name, no_colour, memory.as_deref()),
        Command::Bench { area } => cli::bench::run(area),
        Command::CheckData { file } => cli::check_data::run(&file),
        Command::Scenario { paths, json } => cli::scenario::run(&paths, json),
        Command::Chat(args) => cli::chat::run(&args),
    }
}
