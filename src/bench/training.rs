//! Training speed: the time of one optimizer step (forward, backward and update of a batch) for
//! the default network, on templated commands, so a change to the layers or the training loop
//! can be measured without a 40-minute run. Frozen word features are left out: they are computed
//! once per sentence before the first step (`craftmate train` prints how long that took). Run
//! with one thread (the CLI sets `RAYON_NUM_THREADS=1`), as training runs are.

use std::path::Path;

use super::Figure;
use crate::parser::ParserError;
use crate::training::{templates, trainer};

/// How many templated commands the bench trains on, and how many steps it times.
const EXAMPLES: usize = 2_000;
const STEPS: usize = 40;

/// Trains the default network for [`STEPS`] batches of commands drawn from the templates in
/// `templates_dir` and reports the mean step time; the batch size is the default one.
pub fn run(templates_dir: &Path) -> Result<Vec<Figure>, ParserError> {
    run_with(templates_dir, EXAMPLES, STEPS)
}

fn run_with(templates_dir: &Path, examples: usize, steps: usize) -> Result<Vec<Figure>, ParserError> {
    let examples = templates::generate_from_dir(templates_dir, examples, 42)?;
    let opts = trainer::Options { epochs: 1, max_steps: Some(steps), progress: false, ..Default::default() };
    let (_, report) = trainer::train(&examples, &[], &opts, None, trainer::Start::Fresh)?;
    let steps = report.step_losses.len().max(1) as f64;
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
}
