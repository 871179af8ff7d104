//! `craftmate eval-parser [--model DIR] --data FILE [--all] [--skip N] [--limit N] [--dump FILE]`:
//! the parser benchmark. On the annotated file it scores the held-out validation split (the same
//! seeded split training uses); latency is measured on one thread, per parse, normalisation and
//! decoding included. Two `--dump`s can be compared row by row with `craftmate-lab compare`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use craftmate::dialogue::manager::{ACT_CONFIDENCE as ACT, GUESS_CONFIDENCE as GUESS};
use craftmate::logical_form::tokenize;
use craftmate::scenario::load;
use craftmate::training::{data, eval};

// The command's options (its help text is the `EvalParser` command's doc in main.rs).
#[derive(clap::Args)]
pub struct Args {
    /// Model directory (default: the model shipped in the binary).
    #[arg(long)]
    pub model: Option<PathBuf>,
    #[arg(long, default_value = "../shared/data/annotated.txt")]
    pub data: PathBuf,
    /// Evaluate every row instead of the held-out validation split.
    #[arg(long)]
    pub all: bool,
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    #[arg(long, default_value_t = 0.1)]
    pub valid_fraction: f64,
    /// Skip the first N rows: training's `--valid-limit N` picks its best epoch on them, so the
    /// rows after are the ones no training decision has seen.
    #[arg(long, default_value_t = 0)]
    pub skip: usize,
    /// Evaluate at most this many rows.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Beam width for decoding (1 = greedy; default: the parser's).
    #[arg(long)]
    pub beam: Option<usize>,
    /// Score the parser on the `say` lines (with an `lf`) of these scenario files or folders
    /// instead of --data, e.g. `--scenarios tests/scenarios`.
    #[arg(long, num_args = 1..)]
    pub scenarios: Vec<PathBuf>,
    /// Write every parse here, one JSON object a line: text, correct, error kind, confidence
    /// (and each decoder choice: token, span words, log-probability), gold and predicted forms.
    #[arg(long)]
    pub dump: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let parser = super::load_parser(args.model.as_deref(), args.beam)?;
    let mut rows = if !args.scenarios.is_empty() {
        let rows = scenario_rows(&args.scenarios)?;
        println!("evaluating the {} distinct say/lf pairs of the scenarios", rows.len());
        rows
    } else {
        annotated_rows(&args)?
    };
    rows.drain(..args.skip.min(rows.len()));
    if let Some(limit) = args.limit {
        rows.truncate(limit);
    }
    let report = eval::evaluate(&parser, &rows);
    if let Some(path) = &args.dump {
        let mut out = String::new();
        for record in &report.records {
            out.push_str(&serde_json::to_string(record)?);
            out.push('\n');
        }
        std::fs::write(path, out).with_context(|| format!("writing {}", path.display()))?;
        println!("{} parses written to {}", report.records.len(), path.display());
    }
    println!("\nper dialogue type:");
    for (name, t) in &report.by_dialogue {
        println!("  {name:<22} {:6.2}% ({}/{})", t.percent(), t.correct, t.total);
    }
    println!("per action type (rows whose gold form has the action):");
    for (name, t) in &report.by_action {
        println!("  {name:<22} {:6.2}% ({}/{})", t.percent(), t.correct, t.total);
    }
    println!("most frequent errors:");
    let mut errors: Vec<_> = report.errors.iter().collect();
    errors.sort_by(|a, b| b.1.cmp(a.1));
    for (kind, n) in errors {
        println!("  {n:6}  {kind}");
    }
    // How far the confidence can be trusted: per band, how often the parse is right. The
    // dialogue acts at once from ACT up, asks back from GUESS up, and treats the rest as chit-chat.
    println!("reliability (confidence band: parses, exactly right, right ignoring text_span):");
    for b in report.reliability(eval::BANDS) {
        let pct = |n: usize| if b.parses == 0 { 0.0 } else { 100.0 * n as f64 / b.parses as f64 };
        let high = if b.high.is_finite() { format!("{:.3})", b.high) } else { "1]".into() };
        let role = if b.low >= ACT { "act" } else if b.low >= GUESS { "ask back" } else { "chit-chat" };
        println!(
            "  [{:.3}, {high:<7} {role:<9} {:5} parses  {:6.2}% exact  {:6.2}% ignoring text_span",
            b.low,
            b.parses,
            pct(b.exact),
            pct(b.ignoring_text_spans)
        );
    }
    // lexicon: labels in a report the bot prints, not words it reads.
    for (name, lo, hi) in [("act", ACT, f32::INFINITY), ("ask back", GUESS, ACT), ("chit-chat", f32::NEG_INFINITY, GUESS)] {
        let band: Vec<_> = report.records.iter().filter(|r| r.confidence >= lo && r.confidence < hi).collect();
        let right = band.iter().filter(|r| r.correct).count();
        let spans = band.iter().filter(|r| r.correct_ignoring_text_spans).count();
        let pct = |n: usize| if band.is_empty() { 0.0 } else { 100.0 * n as f64 / band.len() as f64 };
        println!("  {name:<10} {:5} parses  {:6.2}% exact  {:6.2}% ignoring text_span", band.len(), pct(right), pct(spans));
    }
    let spans = report.ignoring_text_spans;
    println!(
        "exact match ignoring text_span keys (whose use drifts through the annotations): {:.2}% ({}/{})",
        spans.percent(),
        spans.correct,
        spans.total
    );
    println!("latency p50: {:.2} ms, p99: {:.2} ms", report.latency(0.5), report.latency(0.99));
    print_clean_rows(&args, &report);
    println!("exact match: {:.2}% ({}/{})", report.overall.percent(), report.overall.correct, report.overall.total);
    Ok(ExitCode::SUCCESS)
}

/// On the whole held-out split, the rows past the first `VALID_LIMIT`, on which no recipe ever
/// chose an epoch (the recipe keeps every network's last epoch; earlier ones chose the best on the
/// first 500): the figure the model's choice could not flatter.
fn print_clean_rows(args: &Args, report: &eval::Report) {
    let whole_split = args.scenarios.is_empty() && !args.all && args.skip == 0 && args.limit.is_none();
    let first = craftmate::training::recipe::VALID_LIMIT;
    if whole_split && report.records.len() > first {
        let clean = report.rows(first..report.records.len());
        println!(
            "exact match on rows {}-{} (never used to choose an epoch): {:.2}% ({}/{})",
            first + 1,
            report.records.len(),
            clean.percent(),
            clean.correct,
            clean.total
        );
    }
}

/// The annotated file's held-out validation split (the split training uses), or every row.
fn annotated_rows(args: &Args) -> anyhow::Result<Vec<data::Example>> {
    let rows = data::load_annotated(&args.data).with_context(|| format!("reading {}", args.data.display()))?;
    let is_annotated = args.data.file_name().is_some_and(|n| n == "annotated.txt");
    Ok(if is_annotated && !args.all {
        let (_, valid) = data::split(rows, args.valid_fraction, args.seed);
        println!(
            "evaluating the held-out validation split of {} ({} rows; seed {}, {:.0}% of unique texts; --all for every row)",
            args.data.display(),
            valid.len(),
            args.seed,
            args.valid_fraction * 100.0
        );
        valid
    } else {
        println!("evaluating every row of {} ({} rows)", args.data.display(), rows.len());
        rows
    })
}

/// The scenarios' chat lines that carry an `lf` hint, as examples (each distinct pair once): how
/// well the parser reads the phrasings the behaviour tests use.
fn scenario_rows(paths: &[PathBuf]) -> anyhow::Result<Vec<data::Example>> {
    let mut seen = std::collections::BTreeSet::new();
    let mut rows = Vec::new();
    for file in load::collect_files(paths)? {
        let scenario = load::load(&file)?;
        for step in scenario.steps {
            if let load::Step::Say { text, lf: Some(lf), .. } = step {
                let json = lf.to_json_value();
                if seen.insert((text.clone(), json.to_string())) {
                    rows.push(data::Example { words: tokenize(&text), json, origin: data::Origin::Other });
                }
            }
        }
    }
    Ok(rows)
}
