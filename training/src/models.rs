//! The model-making steps of the shipped recipe one at a time, for experiments with other
//! combinations: `craftmate train` runs them all in its own order
//! ([`craftmate::training::recipe`]). Each writes a new model directory that loads, or nothing.

use std::path::Path;
use std::process::ExitCode;

/// `craftmate-lab average-models --out DIR A B …`: the mean of fine-tuned runs' weights as a model.
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

/// `craftmate-lab ensemble-models --out DIR A B …`: separately trained networks as one model that
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

/// `craftmate-lab checkpoint-model --out DIR RUN`: a training run's last epoch as a model directory.
pub fn checkpoint_model(run: &Path, out: &Path) -> anyhow::Result<ExitCode> {
    let last = craftmate::training::checkpoint_model::checkpoint_model(run, out)?;
    let of = if last.planned_epochs > 0 { format!(" of {}", last.planned_epochs) } else { String::new() };
    let kept = match last.best_epoch {
        0 => "no epoch scored above 0 %, so it kept none".to_string(),
        best if best == last.epoch => format!("the same epoch as its best model in {}", run.display()),
        best => format!("{} keeps epoch {best}'s, its best on validation", run.display()),
    };
    println!(
        "wrote epoch {}{of} to {} ({kept}); score it with `craftmate eval-parser --model {}`",
        last.epoch,
        out.display(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `craftmate-lab half-model --out DIR MODEL`: a copy of a model with f16 network weights.
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

