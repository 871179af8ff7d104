//! `craftmate-lab data-ceiling [--data FILE] [--parser] [--model DIR]`: how consistent the annotations
//! of the held-out split are with the training split's, i.e. how high exact match can go for a
//! parser that reads only the chat (see [`crate::ceiling`]). With `--parser`, the
//! parser's exact match on the same groups of rows, so a score can be read against its ceiling;
//! with `--examples N`, the rows whose twins disagree with them, to read.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use craftmate::parser::NeuralParser;

use crate::ceiling::{self, Report};
use craftmate::training::data::{self, Example};
use craftmate::training::eval::{self, Tally};

// The command's options (its help text is the `DataCeiling` command's doc in main.rs).
#[derive(clap::Args)]
pub struct Args {
    /// Annotated commands (`text|json` or `id|text|json`), split as `train` splits them.
    #[arg(long, default_value = "../shared/data/annotated.txt")]
    pub data: PathBuf,
    /// Seed of the train/validation split (`train --split-seed`, `eval-parser --seed`).
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Fraction of unique texts held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub valid_fraction: f64,
    /// Also parse the held-out rows and print the parser's exact match on each group.
    #[arg(long)]
    pub parser: bool,
    /// Model directory for --parser (default: the model shipped in the binary).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Also print up to N held-out rows whose twins wrote another form, with the form most of
    /// them wrote and one of those twins: the disagreements behind the ceiling, to read.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub examples: usize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !(args.valid_fraction > 0.0 && args.valid_fraction < 1.0) {
        anyhow::bail!("--valid-fraction must be above 0 and below 1 (got {})", args.valid_fraction);
    }
    let rows = data::load_annotated(&args.data).with_context(|| format!("reading {}", args.data.display()))?;
    let (train, valid) = data::split(rows, args.valid_fraction, args.seed);
    if train.is_empty() || valid.is_empty() {
        anyhow::bail!(
            "{} has too few distinct texts to split ({} training, {} held-out rows)",
            args.data.display(),
            train.len(),
            valid.len()
        );
    }
    let report = ceiling::measure(&train, &valid);
    println!(
        "{}: {} training rows, {} held-out rows (split seed {}, {:.0}% of unique texts, as `train` splits them)",
        args.data.display(),
        report.training_rows,
        report.validation_rows,
        args.seed,
        args.valid_fraction * 100.0
    );
    print_data(&report);
    print_disagreements(&report, &valid, args.examples);

    // The parser's exact match on the rows with twins, to read against their ceiling.
    let parser_on_twins = if args.parser {
        let parser = match &args.model {
            Some(dir) => NeuralParser::load_dir(dir).with_context(|| format!("loading the model in {}", dir.display()))?,
            None => NeuralParser::shipped().context("loading the shipped model")?,
        };
        let scored = eval::evaluate(&parser, &valid);
        let correct: Vec<bool> = scored.records.iter().map(|r| r.correct).collect();
        Some(print_parser(&report, &correct))
    } else {
        None
    };

    let beside = parser_on_twins.map(|t| format!(" (the parser: {} of the same rows)", share(&t))).unwrap_or_default();
    if report.twins.total == 0 {
        println!("name-twin ceiling: none of the {} held-out rows has a name twin in training{beside}", valid.len());
    } else {
        println!(
            "name-twin ceiling: {} of held-out rows with a twin get their own form from their twins' vote{beside}",
            share(&report.twins)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `12.34% (n/N)`, or `no rows` for an empty group.
fn share(t: &Tally) -> String {
    if t.total == 0 { "no rows".into() } else { format!("{:.2}% ({}/{})", t.percent(), t.correct, t.total) }
}

fn print_data(report: &Report) {
    if report.repeats.total == 0 {
        println!("rows with the same text: none");
    } else {
        println!("rows with the same text: their forms agree in {} of pairs", share(&report.repeats));
    }
    println!("held-out rows whose tree (spans hidden) some training row has:");
    println!("  {:<44} {}", "as annotated", share(&report.seen_tree));
    println!("  {:<44} {}", "text_span keys left out", share(&report.seen_tree_ignoring_text_spans));
    let with_twins = report.twins.total;
    println!(
        "name twins: {with_twins} held-out rows have a training row with the same words but one object name \
         (\"build a box\" / \"build a tent\");"
    );
    println!("the row's form is its twins' most common one (ties count for the row):");
    println!("  {:<44} {}", "all twins vote", share(&report.twins));
    println!("  {:<44} {}", "text_span keys left out", share(&report.twins_ignoring_text_spans));
    println!("  {:<44} {}", "only twins from the row's own batch vote", share(&report.twins_same_batch));
    for (batch, tally) in &report.twins_by_batch {
        println!("  {:<44} {}", format!("rows of batch {batch}, all twins vote"), share(tally));
    }
}

/// Prints the parser's exact match on each group of rows; returns it on the rows with twins.
fn print_parser(report: &Report, correct: &[bool]) -> Tally {
    let mut all = Tally::default();
    let mut with_twins = Tally::default();
    let mut vote_right = Tally::default();
    let mut vote_wrong = Tally::default();
    let mut tree_unseen = Tally::default();
    let mut seen_no_twins = Tally::default();
    for ((ok, vote), seen) in correct.iter().zip(&report.twin_votes).zip(&report.tree_seen) {
        all.add(*ok);
        if !seen {
            tree_unseen.add(*ok);
        } else if vote.is_none() {
            seen_no_twins.add(*ok);
        }
        if let Some(vote) = vote {
            with_twins.add(*ok);
            if *vote { vote_right.add(*ok) } else { vote_wrong.add(*ok) }
        }
    }
    println!("the parser's exact match on the same rows:");
    println!("  {:<44} {}", "all held-out rows", share(&all));
    println!("  {:<44} {}", "rows whose tree no training row has", share(&tree_unseen));
    println!("  {:<44} {}", "rows whose tree training has, without twins", share(&seen_no_twins));
    println!("  {:<44} {}", "rows with name twins", share(&with_twins));
    println!("  {:<44} {}", "  where the twins' vote gives the row's form", share(&vote_right));
    println!("  {:<44} {}", "  where it does not", share(&vote_wrong));
    with_twins
}

/// The first `n` rows whose twins' vote misses their form: the row and its form, then the form
/// most of its twins wrote and one of them. Row numbers count from 0 in the annotation file.
fn print_disagreements(report: &Report, valid: &[Example], n: usize) {
    if n == 0 {
        return;
    }
    let shown = report.disagreements.len().min(n);
    println!(
        "held-out rows whose twins wrote another form ({shown} of {}; rows of the file counted from 0):",
        report.disagreements.len()
    );
    for d in report.disagreements.iter().take(n) {
        let row = &valid[d.row];
        let at =
            |origin: Option<usize>| origin.map(|n| format!("row {n}")).unwrap_or_else(|| "not from the file".into());
        println!("  \"{}\" ({}): {}", row.text(), at(row.origin.annotated_row()), row.json);
        println!(
            "    {} of its {} twins wrote, e.g. \"{}\" ({}): {}",
            d.votes,
            d.twins,
            d.twin_text,
            at(d.twin_row),
            d.majority
        );
    }
}
