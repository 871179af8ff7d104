//! Training speed: the time of one optimizer step (forward, backward and update of a batch) for
//! the default network, on templated commands, so a change to the layers or the training loop
//! can be measured without a 40-minute run. Frozen word features are left out: they are computed
//! once per sentence before the first step (`craftmate train` prints how long that took). Tuned
//! ones (`train --tune-features`) run forward and backward in every step, so their step is timed
//! too, with the shipped features model. Run with one thread (the CLI sets
//! `RAYON_NUM_THREADS=1`), as training runs are.

use std::path::Path;

use super::Figure;
use crate::parser::ParserError;
use crate::training::{templates, trainer};

/// How many templated commands the bench trains on, and how many steps it times.
const EXAMPLES: usize = 2_000;
const STEPS: usize = 40;

/// Trains the default network for [`STEPS`] batches of commands drawn from the templates in
/// `templates_dir` and reports the mean step time; the batch size is the default one. With a
/// features model (`features`, when it exists), also the step time with its layers tuned.
pub fn run(templates_dir: &Path, features: &Path) -> Result<Vec<Figure>, ParserError> {
    let mut figures = run_with(templates_dir, EXAMPLES, STEPS)?;
    if features.exists() {
        figures.push(tuned_step(templates_dir, features, EXAMPLES, STEPS / 4)?);
    }
    Ok(figures)
}

/// The mean step time with the features model's layers trained too (fewer steps: each is slower).
fn tuned_step(templates_dir: &Path, features: &Path, examples: usize, steps: usize) -> Result<Figure, ParserError> {
    let examples = templates::generate_from_dir(templates_dir, examples, 42)?;
    let opts = trainer::Options {
        epochs: 1,
        max_steps: Some(steps),
        progress: false,
        features: Some(features.into()),
        tune_features: Some(3e-5),
        ..Default::default()
    };
    let (_, report) = trainer::train(&examples, &[], &opts, None, trainer::Start::Fresh)?;
    let steps = report.step_losses.len().max(1) as f64;
    Ok(Figure::new("train_step_tuned_features_ms", report.step_seconds / steps * 1000.0, "ms"))
}

fn run_with(templates_dir: &Path, examples: usize, steps: usize) -> Result<Vec<Figure>, ParserError> {
    let examples = templates::generate_from_dir(templates_dir, examples, 42)?;
    let opts = trainer::Options { epochs: 1, max_steps: Some(steps), progress: false, ..Default::default() };
    let (_, report) = trainer::train(&examples, &[], &opts, None, trainer::Start::Fresh)?;
    let steps = report.step_losses.len().max(1) as f64;
    Ok(vec![
        Figure::new("train_examples", report.train_examples as f64, "commands"),
        Figure::new("train_batch", opts.batch_size as f64, "commands"),
        Figure::new("train_step_ms", report.step_seconds / steps * 1000.0, "ms"),
        Figure::new(
            "train_commands_per_s",
            steps * opts.batch_size as f64 / report.step_seconds.max(1e-9),
            "commands/s",
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_training_bench_times_the_steps_it_ran() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/templates");
        let figures = run_with(&dir, 200, 2).unwrap();
        let get = |name: &str| figures.iter().find(|f| f.name == name).map(|f| f.value).unwrap();
        assert!((1.0..=200.0).contains(&get("train_examples")));
        assert!(get("train_step_ms") > 0.0);
        // commands/s is the batch over the step time.
        let expected = 64.0 / (get("train_step_ms") / 1000.0);
        assert!((get("train_commands_per_s") - expected).abs() < 1e-6 * expected);
        assert!(run_with(Path::new("no/such/dir"), 10, 1).is_err());
    }

    #[test]
    fn the_tuned_step_is_timed_with_the_features_model_given() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let bert = tempfile::tempdir().unwrap();
        crate::parser::pretrained::write_tiny_bert(bert.path()).unwrap();
        let figure = tuned_step(&root.join("data/templates"), bert.path(), 100, 1).unwrap();
        assert_eq!(figure.name, "train_step_tuned_features_ms");
        assert!(figure.value > 0.0);
        assert!(tuned_step(&root.join("data/templates"), Path::new("no/such/dir"), 10, 1).is_err());
    }
}
