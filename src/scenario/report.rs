//! How outcomes are printed: `PASS name` / `FAIL name: step i (expect): reason` lines and a closing
//! `N passed, M failed` line, or one JSON object per scenario with `--json`.

use super::run::Outcome;

/// The one-line verdict for a scenario.
pub fn line(o: &Outcome) -> String {
    if o.passed {
        match (&o.reason, o.expected_failure) {
            (Some(r), true) => format!("PASS {} (failed as expected at step {}: {r})", o.name, o.failed_step.unwrap_or(0)),
            _ => format!("PASS {}", o.name),
        }
    } else {
        let reason = o.reason.as_deref().unwrap_or("failed");
        match o.failed_step {
            Some(i) => format!("FAIL {}: step {i} ({}): {reason}", o.name, o.failed_expect.as_deref().unwrap_or("?")),
            None => format!("FAIL {}: {} : {reason}", o.name, o.failed_expect.as_deref().unwrap_or("setup")),
        }
    }
}

/// The `--json` object for a scenario: name, passed, failed_step, reason, ticks (and a little more).
pub fn json(o: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "name": o.name,
        "file": o.file,
        "passed": o.passed,
        "failed_step": o.failed_step,
        "expect": o.failed_expect,
        "reason": o.reason,
        "ticks": o.ticks,
        "expected_failure": o.expected_failure,
    })
}

/// The closing line.
pub fn closing(passed: usize, failed: usize) -> String {
    format!("{passed} passed, {failed} failed")
}
