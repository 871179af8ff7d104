//! `craftmate train --data FILE --out DIR`: train the parser on annotated commands (split by unique
//! text), NOOP chit-chat and templated commands; prints progress, per-epoch validation and a final
//! report, and writes the best model to DIR. `craftmate average-models` averages fine-tuned runs.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use craftmate::training::{data, eval, swaps, templates, trainer};

pub struct Args<'a> {
    pub data: &'a Path,
    pub out: &'a Path,
    pub noop_data: Option<&'a Path>,
    pub noop: usize,
    pub templated: usize,
    pub templates_dir: &'a Path,
    /// How many annotated rows to copy with span words swapped (`training::swaps`).
    pub word_swaps: usize,
    pub valid_fraction: f64,
    /// Seed of the train/validation split (apart from the training seed in `options`).
    pub split_seed: u64,
    pub resume: bool,
    /// Fine-tune the model in this directory instead of starting from random weights.
    pub init: Option<&'a Path>,
    pub options: trainer::Options,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::keep_freed_memory();
    let rows = data::load_annotated(args.data).with_context(|| format!("reading {}", args.data.display()))?;
    let (mut train, valid) = data::split(rows, args.valid_fraction, args.split_seed);
    println!(
        "annotated: {} training rows, {} validation rows (split by unique text, split seed {})",
        train.len(),
        valid.len(),
        args.split_seed
    );
    let noop_path = args.noop_data.map(Path::to_path_buf).unwrap_or_else(|| args.data.with_file_name("noop_chat.txt"));
    if args.noop > 0 && noop_path.exists() {
        let noop = data::load_noop(&noop_path, args.noop, args.options.seed)?;
        println!("noop chat: {} examples from {}", noop.len(), noop_path.display());
        train.extend(noop);
    }
    if args.templated > 0 {
        let generated = templates::generate_from_dir(args.templates_dir, args.templated, args.options.seed)
            .with_context(|| format!("templates in {}", args.templates_dir.display()))?;
        println!("templated: {} examples from {}", generated.len(), args.templates_dir.display());
        train.extend(generated);
    }
    if args.word_swaps > 0 {
        // Made from the annotated training rows only (not the NOOP lines or the templates).
        let (swapped, report) = swaps::word_swaps(&train, args.word_swaps, args.options.seed);
        // Made without looking at the validation rows, a swap can still say what one of them says:
        // count those, so a score can be read knowing it.
        let held_out: std::collections::BTreeSet<String> = valid.iter().map(data::Example::text).collect();
        let unique: std::collections::BTreeSet<String> = swapped.iter().map(data::Example::text).collect();
        println!(
            "word swaps: {} rows, {} different texts ({} of them also validation texts), from {} annotated rows \
             with a span word to swap in {} places",
            report.made,
            unique.len(),
            unique.iter().filter(|t| held_out.contains(*t)).count(),
            report.rows,
            report.places
        );
        for ex in swapped.iter().take(3) {
            println!("  e.g. {}", ex.text());
        }
        train.extend(swapped);
    }
    let start = match (args.init, args.resume) {
        (Some(dir), false) => trainer::Start::From(dir),
        (Some(_), true) => anyhow::bail!("--init and --resume exclude each other"),
        (None, true) => trainer::Start::Resume,
        (None, false) => trainer::Start::Fresh,
    };
    let (parser, report) = trainer::train(&train, &valid, &args.options, Some(args.out), start)?;
    let _ = parser;
    if report.paused {
        // The final report waits for the run's end.
        println!(
            "paused after epoch {} of {} in {:.0}s (best epoch so far {}, {:.2}% on the validated rows); run the \
             same command with --resume (without --pause-after, or a later one) to go on",
            report.epochs_run, args.options.epochs, report.seconds, report.best_epoch, report.best_valid_exact
        );
        return Ok(ExitCode::SUCCESS);
    }
    let best = craftmate::parser::NeuralParser::load_dir(args.out)?;
    let final_eval = eval::evaluate(&best, &valid);
    std::fs::write(
        args.out.join("train_report.json"),
        serde_json::to_string_pretty(&serde_json::json!({
            "report": report, "options": args.options, "templated": args.templated, "noop": args.noop,
            "word_swaps": args.word_swaps,
            "valid_exact_match": final_eval.overall.percent(),
        }))?,
    )?;
    println!(
        "done in {:.0}s: {} epochs, best epoch {}, {} training examples; validation exact match {:.2}% ({}/{}); model in {}",
        report.seconds,
        report.epochs_run,
        report.best_epoch,
        report.train_examples,
        final_eval.overall.percent(),
        final_eval.overall.correct,
        final_eval.overall.total,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `craftmate average-models --out DIR A B …`: the mean of fine-tuned runs' weights as a model.
pub fn average(models: &[std::path::PathBuf], out: &Path) -> anyhow::Result<ExitCode> {
    craftmate::training::average::average_models(models, out)?;
    println!(
        "averaged {} models into {}; score it with `craftmate eval-parser --model {}`",
        models.len(),
        out.display(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `craftmate ensemble-models --out DIR A B …`: separately trained networks as one model that
/// decodes with all of them voting.
pub fn ensemble(models: &[std::path::PathBuf], out: &Path) -> anyhow::Result<ExitCode> {
    craftmate::training::ensemble::ensemble_models(models, out)?;
    println!(
        "put {} networks together in {}; score it with `craftmate eval-parser --model {}` (each member adds an \
         encoder and a decoder to every parse: check `craftmate bench parser --model {}` too)",
        models.len(),
        out.display(),
        out.display(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `craftmate checkpoint-model --out DIR RUN`: a training run's last epoch as a model directory.
pub fn checkpoint_model(run: &Path, out: &Path) -> anyhow::Result<ExitCode> {
    let last = craftmate::training::checkpoint_model::checkpoint_model(run, out)?;
    let of = if last.planned_epochs > 0 { format!(" of {}", last.planned_epochs) } else { String::new() };
    let kept = match last.best_epoch {
        0 => "no epoch scored above 0 %, so it kept none".to_string(),
        best if best == last.epoch => format!("the same epoch as its best model in {}", run.display()),
        best => format!("{} keeps epoch {best}'s, its best on validation", run.display()),
    };
    let parts = [(last.averaged, "averaged weights"), (last.tuned_features, "tuned word features")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, what)| *what)
        .collect::<Vec<_>>();
    let with = if parts.is_empty() { String::new() } else { format!(" ({})", parts.join(", ")) };
    println!(
        "wrote epoch {}{of}{with} to {} ({kept}); score it with `craftmate eval-parser --model {}`",
        last.epoch,
        out.display(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `craftmate half-model --out DIR MODEL`: a copy of a model with f16 network weights.
pub fn half(model: &Path, out: &Path) -> anyhow::Result<ExitCode> {
    let halved = craftmate::training::half::half_model(model, out)?;
    println!(
        "wrote {} with {} network(s) in f16: {:.1} MB of weights, was {:.1} MB; score it with `craftmate eval-parser \
         --model {}` before it replaces {}",
        out.display(),
        halved.networks,
        halved.bytes_after as f64 / 1e6,
        halved.bytes_before as f64 / 1e6,
        out.display(),
        model.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `craftmate pack-features`: a pruned, int8 copy of a BERT model for the parser's word features.
/// Its vocabulary keeps the pieces of the annotated training split (same split as `train`) and of
/// the other corpora's lines.
pub fn pack_features(
    from: &Path,
    annotated: &Path,
    corpora: &[std::path::PathBuf],
    min_count: usize,
    layers: Option<usize>,
    out: &Path,
) -> anyhow::Result<ExitCode> {
    let rows = data::load_annotated(annotated).with_context(|| format!("reading {}", annotated.display()))?;
    let (train, _) = data::split(rows, 0.1, 42);
    let mut lines: Vec<String> = train.iter().map(|ex| ex.text()).collect();
    for path in corpora {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        lines.extend(text.lines().map(str::to_string));
    }
    let report = craftmate::parser::pretrained::pack(from, lines.iter().map(String::as_str), min_count, layers, out)
        .with_context(|| format!("packing {}", from.display()))?;
    println!(
        "packed {} into {}: {} of {} word pieces kept, {} layers, {:.1} MB",
        from.display(),
        out.display(),
        report.pieces_kept,
        report.pieces_before,
        report.layers,
        report.bytes as f64 / 1e6
    );
    Ok(ExitCode::SUCCESS)
}
