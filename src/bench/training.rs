//! Training speed: the time of one optimizer step (forward, backward and update of a batch) for
//! the default network, on templated commands, so a change to the layers or the training loop
//! can be measured without a 40-minute run. Frozen word features are left out: they are computed
//! once per sentence before the first step (`craftmate train` prints how long that took). Run
//! with one thread (the CLI sets `RAYON_NUM_THREADS=1`), as training runs are.
//!
//! Then validation, as training runs it between epochs: the trained network parses held-back
//! templated commands greedily, once line by line and once in batches (lines decoded side by
//! side, [`eval::batch_for`]), and the bench reports both times per line and how many parses agree.

use std::path::Path;

use super::Figure;
use crate::parser::ParserError;
use crate::training::{eval, templates, trainer};

/// How many templated commands the bench trains on, and how many steps it times.
const EXAMPLES: usize = 2_000;
const STEPS: usize = 40;
/// How many commands validation parses.
const VALID: usize = 512;

/// Trains the default network for [`STEPS`] batches of commands drawn from the templates in
/// `templates_dir` and reports the mean step time; the batch size is the default one.
pub fn run(templates_dir: &Path) -> Result<Vec<Figure>, ParserError> {
    run_with(templates_dir, EXAMPLES, STEPS, VALID)
}

fn run_with(templates_dir: &Path, examples: usize, steps: usize, valid: usize) -> Result<Vec<Figure>, ParserError> {
    let examples = templates::generate_from_dir(templates_dir, examples, 42)?;
    let held_back = templates::generate_from_dir(templates_dir, valid, 43)?;
    let opts = trainer::Options { epochs: 1, max_steps: Some(steps), progress: false, ..Default::default() };
    let (parser, report) = trainer::train(&examples, &[], &opts, None, trainer::Start::Fresh)?;
    let steps = report.step_losses.len().max(1) as f64;
    let started = std::time::Instant::now();
    let alone = eval::evaluate(&parser, &held_back);
    let alone_ms = started.elapsed().as_secs_f64() * 1000.0;
    let started = std::time::Instant::now();
    let batched = eval::evaluate_in_batches(&parser, &held_back, eval::batch_for(&parser.device));
    let batched_ms = started.elapsed().as_secs_f64() * 1000.0;
    let agree = alone.records.iter().zip(&batched.records).filter(|(a, b)| a.predicted == b.predicted).count();
    let lines = held_back.len().max(1) as f64;
    // lexicon: labels in a report the bot prints, not words it reads.
    Ok(vec![
        Figure::new("train_examples", report.train_examples as f64, "commands"),
        Figure::new("train_batch", opts.batch_size as f64, "commands"),
        Figure::new("train_step_ms", report.step_seconds / steps * 1000.0, "ms"),
        Figure::new(
            "train_commands_per_s",
            steps * opts.batch_size as f64 / report.step_seconds.max(1e-9),
            "commands/s",
        ),
        Figure::new("valid_lines", held_back.len() as f64, "commands"),
        Figure::new("valid_line_by_line_ms", alone_ms / lines, "ms/line"),
        Figure::new("valid_batched_ms", batched_ms / lines, "ms/line"),
        Figure::new("valid_batched_same_parse", 100.0 * agree as f64 / lines, "%"),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_training_bench_times_the_steps_it_ran() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/templates");
        let figures = run_with(&dir, 200, 2, 20).unwrap();
        let get = |name: &str| figures.iter().find(|f| f.name == name).map(|f| f.value).unwrap();
        assert!((1.0..=200.0).contains(&get("train_examples")));
        assert!(get("train_step_ms") > 0.0);
        // commands/s is the batch over the step time.
        let expected = 64.0 / (get("train_step_ms") / 1000.0);
        assert!((get("train_commands_per_s") - expected).abs() < 1e-6 * expected);
        assert_eq!(get("valid_lines"), 20.0);
        assert!(get("valid_batched_ms") > 0.0 && get("valid_line_by_line_ms") > 0.0);
        assert!((0.0..=100.0).contains(&get("valid_batched_same_parse")));
        assert!(run_with(Path::new("no/such/dir"), 10, 1, 1).is_err());
    }
}
