//! Every scenario under `tests/scenarios/` (harness self-tests, actions, dialogue, …) run through
//! the real binary, as `craftmate scenario tests/scenarios/` runs them: all must pass.

use std::process::Command;

#[test]
fn every_scenario_passes() {
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(["scenario", "tests/scenarios/"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the craftmate binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let failures: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(failures.is_empty(), "failing scenarios:\n{}\n\nstderr:\n{stderr}", failures.join("\n"));
    assert_eq!(out.status.code(), Some(0), "exit status\nstdout:\n{stdout}\nstderr:\n{stderr}");

    let last = stdout.lines().last().unwrap_or_default();
    let counts: Vec<&str> = last.split_whitespace().collect();
    let (passed, failed) = match counts.as_slice() {
        [n, "passed,", m, "failed"] => (n.parse::<usize>().ok(), m.parse::<usize>().ok()),
        _ => (None, None),
    };
    let (Some(passed), Some(0)) = (passed, failed) else {
        panic!("the closing line should read `N passed, 0 failed`, got {last:?}\n{stdout}");
    };
    assert!(passed >= 12, "only {passed} scenarios ran; expected the whole suite\n{stdout}");
}
