//! `craftmate-lab`: research tools beside the product. Nothing here is needed to play, serve, retrain
//! or evaluate the shipped parser (`craftmate train` and `craftmate eval-parser` do that); these
//! help decide what to try next. One command, one file:
//!
//! - [`data_ceiling`] (with [`ceiling`]): how consistent the annotations are, so how high exact
//!   match can go for any parser that reads only the chat;
//! - [`compare`]: two models' `eval-parser --dump`s compared row by row (McNemar's exact test);
//! - [`pack`]: a BERT model folder packed as the parser's pretrained word features;
//! - [`models`]: the recipe's model-making steps one at a time (a run's last epoch, weight
//!   averages, ensembles, f16 copies);
//! - [`rules`]: what each hand-written rule of understanding still adds over the parser;
//! - [`habits`]: how the annotators' `text_span` habit changes through the file, and a parser's
//!   exact match block by block.
//!
//! Experiments that were tried and not shipped are recorded in `models/parser/CARD.md`, not kept
//! as code.

mod ceiling;
mod compare;
mod data_ceiling;
mod habits;
mod models;
mod pack;
mod rules;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "craftmate-lab", version, about = "Research tools beside craftmate's parser")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// How high exact match can go on an annotated file: how often the annotators wrote the same
    /// form for the same text, for the same text with one object's name changed, and whether the
    /// held-out rows' trees occur in training at all (`--parser`: the parser's score beside them).
    DataCeiling(data_ceiling::Args),
    /// Compare two `craftmate eval-parser --dump` files of the same rows: rows only one model gets
    /// right, and McNemar's exact p-value for the difference.
    Compare {
        /// The dump of the model under study.
        this: PathBuf,
        /// The baseline's dump.
        other: PathBuf,
    },
    /// Make the small pretrained word-features model the parser can use from a BERT model folder:
    /// vocabulary pruned to the given chat corpora, first layers only, int8 matrices.
    PackFeatures(pack::Args),
    /// Average the weights of versions of one parser into a new model directory ("model soup").
    AverageModels {
        /// Output model directory.
        #[arg(long)]
        out: PathBuf,
        /// Two or more model directories of the same network (same sizes, output tokens and word
        /// vocabulary).
        #[arg(required = true, num_args = 2.., value_name = "DIR")]
        models: Vec<PathBuf>,
    },
    /// Put separately trained parsers together as one model directory whose networks all vote at
    /// every decoding step.
    EnsembleModels {
        /// Output model directory.
        #[arg(long)]
        out: PathBuf,
        /// Two or more model directories with the same output tokens and word features.
        #[arg(required = true, num_args = 2.., value_name = "DIR")]
        models: Vec<PathBuf>,
    },
    /// Write a training run's last checkpoint as a model directory (`train --out` keeps the best
    /// epoch's model, this the last epoch's).
    CheckpointModel {
        /// Output model directory (new, or empty).
        #[arg(long)]
        out: PathBuf,
        /// The training run's directory (`craftmate train --single --out`).
        #[arg(value_name = "RUN")]
        run: PathBuf,
    },
    /// How the annotators' habit of writing `text_span` changes through the annotated file, block
    /// by block, with each given `eval-parser --dump`'s exact match on the held-out rows of each
    /// block (the late blocks write no spans, which the parser is not taught to copy).
    Habits(habits::Args),
    /// Run scenario suites with each rule of understanding switched off in turn: the scenarios
    /// each rule still wins over the parser alone (a markdown table).
    Rules(rules::Args),
    /// Copy a parser model directory with its networks' weights stored as 16-bit floats.
    HalfModel {
        /// Output model directory (new, or empty).
        #[arg(long)]
        out: PathBuf,
        /// The model directory to copy (a single network or an ensemble).
        #[arg(value_name = "DIR")]
        model: PathBuf,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    // Parser scores come with latencies measured on one thread, as `craftmate eval-parser` does;
    // candle and gemm read this before their first use.
    if matches!(cli.command, Command::DataCeiling(_)) && std::env::var_os("RAYON_NUM_THREADS").is_none() {
        // SAFETY: set before any other thread exists.
        unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
    }
    match cli.command {
        Command::DataCeiling(args) => data_ceiling::run(args),
        Command::Compare { this, other } => compare::run(&this, &other),
        Command::PackFeatures(args) => pack::run(&args),
        Command::AverageModels { out, models } => models::average(&models, &out),
        Command::EnsembleModels { out, models } => models::ensemble(&models, &out),
        Command::CheckpointModel { out, run } => models::checkpoint_model(&run, &out),
        Command::HalfModel { out, model } => models::half(&model, &out),
        Command::Rules(args) => rules::run(&args),
        Command::Habits(args) => habits::run(&args),
    }
}
