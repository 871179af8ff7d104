//! A training run's checkpoint: what is written after every epoch so that a run stopped at any
//! moment (Ctrl-C, a closed laptop, a full disk) can resume exactly where it stopped, and what a
//! resumed run tells its user when it was given other settings than the run it continues.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::schedule::Schedule;
use super::trainer::Start;
use crate::parser::{ParserError, Result};

/// The network's weights after the last epoch, in f32 (`model.safetensors` holds the best epoch's).
pub const CHECKPOINT_WEIGHTS: &str = "checkpoint.safetensors";
/// The run's progress after the last epoch: epochs trained, losses, validation scores, settings.
pub const CHECKPOINT_STATE: &str = "checkpoint.json";
/// The optimizer's moments and step count after the last epoch ([`AdamW::save`]).
pub const OPTIMIZER_STATE: &str = "optimizer.safetensors";

/// Resume point written after every epoch.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Checkpoint {
    pub(crate) epoch: usize,
    pub(crate) best_valid_exact: f64,
    pub(crate) best_epoch: usize,
    pub(crate) bad_epochs: usize,
    pub(crate) epoch_losses: Vec<f32>,
    #[serde(default)]
    pub(crate) epoch_valid: Vec<f64>,
    /// The schedule the run was written under (0 in checkpoints from before these were kept), so
    /// a resumed run can tell when `--epochs` or `--lr` changed its learning rate.
    #[serde(default)]
    pub(crate) planned_epochs: usize,
    #[serde(default)]
    pub(crate) planned_lr: f64,
    /// The run's [`Options`] when the checkpoint was written (absent in older checkpoints), so a
    /// resumed run can say which of its settings differ.
    #[serde(default)]
    pub(crate) settings: Option<serde_json::Value>,
}

/// What a resumed run should tell its user about the schedule: nothing when it goes on as the
/// checkpoint planned; a note when the checkpoint already ran every asked-for epoch, or when a
/// new `--epochs` or `--lr` moves the learning rate (a longer run raises it again: a warm
/// restart, not the single schedule a run of that length from scratch would follow).
pub(crate) fn resume_note(state: &Checkpoint, epochs: usize, peak: f64, batches_per_epoch: usize) -> Option<String> {
    if state.epoch >= epochs {
        return Some(format!(
            "the checkpoint has already trained {} epochs and --epochs is {epochs}: nothing left to train \
             (ask for more epochs to go on)",
            state.epoch
        ));
    }
    let same_plan = state.planned_epochs == epochs && state.planned_lr == peak;
    if state.planned_epochs == 0 || same_plan {
        return None;
    }
    let step = state.epoch * batches_per_epoch;
    let was = Schedule::new(state.planned_lr, batches_per_epoch, state.planned_epochs).lr(step.saturating_sub(1));
    let now = Schedule::new(peak, batches_per_epoch, epochs).lr(step);
    let plan = format!(
        "this run was planned for {} epoch{} at lr {:.1e} and goes on for {epochs} at lr {peak:.1e}",
        state.planned_epochs,
        if state.planned_epochs == 1 { "" } else { "s" },
        state.planned_lr,
    );
    Some(if (now - was).abs() <= 1e-3 * was {
        format!("{plan}: the rest of its learning-rate schedule ({now:.2e} at epoch {}) changes", state.epoch + 1)
    } else {
        format!(
            "{plan}: the learning rate moves from {was:.2e} to {now:.2e} at epoch {}{}",
            state.epoch + 1,
            if now > was { " (a warm restart, not the schedule of a run this long from scratch)" } else { "" }
        )
    })
}

/// Settings a resumed run may change without becoming another run: the schedule's (see
/// [`resume_note`]), and when to stop, pause, validate and show progress.
// lexicon: JSON keys of a checkpoint file.
const FREE_ON_RESUME: &[&str] = &["epochs", "lr", "patience", "valid_limit", "progress", "max_steps", "pause_after"];

/// The settings (`Options` as JSON) a resumed run changes from those its checkpoint was written
/// with, as `seed 42 → 13`: each makes the rest of the run differ from the one it continues
/// (another seed draws other batches and dropout; another dropout or feature setting trains
/// another network).
pub(crate) fn changed_settings(saved: &serde_json::Value, now: &serde_json::Value) -> Vec<String> {
    let (Some(saved), Some(now)) = (saved.as_object(), now.as_object()) else { return Vec::new() };
    now.iter()
        .filter(|(key, _)| !FREE_ON_RESUME.contains(&key.as_str()))
        .filter_map(|(key, value)| {
            // A setting the checkpoint's version did not have yet cannot be compared.
            let was = saved.get(key)?;
            (was != value).then(|| format!("{key} {} → {}", show(was), show(value)))
        })
        .collect()
}

/// A setting's value as a user typed it: an f32 option (dropout 0.1) reads back from JSON as the
/// nearest f64 (0.10000000149011612), so a value that is an f32 is shown as one.
fn show(value: &serde_json::Value) -> String {
    match value.as_f64() {
        Some(v) if value.is_f64() && (v as f32) as f64 == v => (v as f32).to_string(),
        _ => value.to_string(),
    }
}

/// A new run (from scratch or fine-tuning) into a directory that holds a run's checkpoint would
/// overwrite it at its first epoch: hours of training lost to a forgotten `--resume`. Refused with
/// what to do instead.
pub(crate) fn refuse_to_overwrite_a_checkpoint(out: Option<&Path>, start: Start) -> Result<()> {
    let Some(dir) = out else { return Ok(()) };
    let path = dir.join(CHECKPOINT_STATE);
    if matches!(start, Start::Resume) || !path.exists() {
        return Ok(());
    }
    let state = std::fs::read_to_string(&path).ok().and_then(|text| serde_json::from_str::<Checkpoint>(&text).ok());
    let trained = match state {
        Some(state) if state.planned_epochs > 0 => {
            format!(" ({} of {} epochs trained)", state.epoch, state.planned_epochs)
        }
        Some(state) => format!(" ({} epochs trained)", state.epoch),
        None => String::new(),
    };
    Err(ParserError::Data(format!(
        "{} holds the checkpoint of another run{trained}: --resume continues it; to train a new run there, \
         delete {} first, or choose another --out",
        dir.display(),
        path.display()
    )))
}

/// Writes one checkpoint file to the path it is given.
pub(crate) type Writer<'a> = Box<dyn FnOnce(&Path) -> Result<()> + 'a>;

pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|source| ParserError::Io { path: path.into(), source })
}

/// Writes a checkpoint's files so that a run stopped at any moment (Ctrl-C, a closed laptop, a
/// full disk) leaves a whole checkpoint to resume from, this epoch's or the last one's: every file
/// is written under a `.partial` name first, and only when all are written are they renamed over
/// the old ones, the state that names the epoch last.
pub(crate) fn write_together(dir: &Path, files: Vec<(&str, Writer)>) -> Result<()> {
    let partial = |name: &str| dir.join(format!("{name}.partial"));
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    for (name, write) in files {
        write(&partial(name))?;
    }
    for name in names {
        let to = dir.join(name);
        std::fs::rename(partial(name), &to).map_err(|source| ParserError::Io { path: to, source })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::trainer::Options;

    fn checkpoint(epoch: usize, planned_epochs: usize, planned_lr: f64) -> Checkpoint {
        Checkpoint {
            epoch,
            best_valid_exact: 50.0,
            best_epoch: epoch,
            bad_epochs: 0,
            epoch_losses: vec![0.1; epoch],
            epoch_valid: vec![],
            planned_epochs,
            planned_lr,
            settings: None,
        }
    }

    #[test]
    fn a_resumed_run_names_the_settings_it_changes_but_not_the_free_ones() {
        let saved = serde_json::to_value(Options { seed: 42, ..Default::default() }).unwrap();
        let same =
            Options { seed: 42, epochs: 60, lr: 3e-4, patience: 100, pause_after: Some(30), ..Default::default() };
        assert!(changed_settings(&saved, &serde_json::to_value(same).unwrap()).is_empty());
        let other = Options { seed: 13, dropout: 0.2, features: Some("feat".into()), ..Default::default() };
        let changed = changed_settings(&saved, &serde_json::to_value(other).unwrap());
        assert_eq!(changed.len(), 3, "{changed:?}");
        assert!(changed.contains(&"seed 42 → 13".to_string()), "{changed:?}");
        assert!(changed.contains(&"dropout 0.1 → 0.2".to_string()), "{changed:?}");
        assert!(changed.iter().any(|c| c.starts_with("features null → ")), "{changed:?}");
        // A setting the checkpoint's version lacked is not a change.
        let mut old = saved.clone();
        old.as_object_mut().unwrap().remove("features");
        let changed = changed_settings(
            &old,
            &serde_json::to_value(Options { features: Some("feat".into()), ..Default::default() }).unwrap(),
        );
        assert!(changed.is_empty(), "{changed:?}");
    }

    #[test]
    fn a_resumed_run_is_told_when_its_schedule_moves() {
        // The same plan, or a checkpoint from before plans were kept: nothing to say.
        assert_eq!(resume_note(&checkpoint(20, 40, 1e-3), 40, 1e-3, 247), None);
        assert_eq!(resume_note(&checkpoint(20, 0, 0.0), 40, 1e-3, 247), None);
        // Twenty epochs planned, forty asked: the decayed rate rises again at epoch 21.
        let note = resume_note(&checkpoint(20, 20, 1e-3), 40, 1e-3, 247).unwrap();
        assert!(note.contains("planned for 20 epochs") && note.contains("goes on for 40"), "{note}");
        assert!(
            note.contains("1.00e-4 to 5.56e-4") && note.contains("epoch 21") && note.contains("warm restart"),
            "{note}"
        );
        // A lower peak on the same plan lowers the rate: no restart.
        let note = resume_note(&checkpoint(10, 20, 1e-3), 20, 1e-4, 247).unwrap();
        assert!(!note.contains("warm restart"), "{note}");
        // A plan changed where the rate happens not to move (the end of the warm-up).
        let note = resume_note(&checkpoint(1, 1, 1e-3), 3, 1e-3, 1).unwrap();
        assert!(note.contains("planned for 1 epoch at") && note.contains("rest of its"), "{note}");
        // Every asked-for epoch already ran.
        let note = resume_note(&checkpoint(20, 20, 1e-3), 20, 1e-3, 247).unwrap();
        assert!(note.contains("nothing left to train"), "{note}");
    }
}
