//! The scenario runner: small, reproducible play sessions judged from in-world evidence.
//!
//! The file format is a public interface, specified in `SCENARIOS.md`: `format.rs` reads it,
//! `load.rs` checks it, `run.rs` plays it in the embedded world, `report.rs` prints verdicts.

pub mod format;
pub mod items;
pub mod load;
pub mod report;
pub mod run;

pub use load::{BotKind, Scenario, ScenarioError, collect_files, load, load_str};
pub use run::{Outcome, run};

use crate::agent::Bot;
use std::io::Write;
use std::path::PathBuf;

/// Run every scenario under `inputs` with a fresh bot each, printing verdict lines (or JSON
/// objects) to `out` as they finish. A malformed file counts as a failure and its error, naming
/// the file and the field, is printed too. Returns (passed, failed).
pub fn run_all(
    inputs: &[PathBuf],
    json: bool,
    make_bot: &mut dyn FnMut(BotKind) -> Box<dyn Bot>,
    out: &mut dyn Write,
) -> std::io::Result<(usize, usize)> {
    let files = match collect_files(inputs) {
        Ok(f) => f,
        Err(e) => {
            writeln!(out, "error: {e}")?;
            return Ok((0, 1));
        }
    };
    let (mut passed, mut failed) = (0, 0);
    for file in files {
        let outcome = match load(&file) {
            Ok(s) => run(&s, make_bot(s.bot).as_mut()),
            Err(e) => {
                failed += 1;
                if json {
                    let v = serde_json::json!({"name": file.display().to_string(), "file": file.display().to_string(),
                        "passed": false, "failed_step": null, "reason": format!("malformed scenario: {}", e.message), "ticks": 0});
                    writeln!(out, "{v}")?;
                } else {
                    writeln!(out, "FAIL {}: malformed scenario: {}", file.display(), e.message)?;
                }
                continue;
            }
        };
        if outcome.passed {
            passed += 1;
        } else {
            failed += 1;
        }
        if json {
            writeln!(out, "{}", report::json(&outcome))?;
        } else {
            writeln!(out, "{}", report::line(&outcome))?;
        }
    }
    if !json {
        writeln!(out, "{}", report::closing(passed, failed))?;
    }
    Ok((passed, failed))
}
