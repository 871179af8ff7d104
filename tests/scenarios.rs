//! The scenarios under `tests/scenarios/` run through the real binary. The behaviour suites
//! (harness self-tests, actions, dialogue) must all pass, and so must the conversation suite as
//! said (no `lf` hints); the player phrasings
//! (`tests/scenarios/phrasings/`, no `lf` hints: every line goes through the whole understanding
//! path) must pass at least as often as recorded with the shipped model.

use std::process::Command;

#[test]
fn every_scenario_passes() {
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(["scenario", "tests/scenarios/harness", "tests/scenarios/actions", "tests/scenarios/dialogue"])
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

/// What players said that broke a conversation (`tests/scenarios/conversation/`: lessons,
/// answers to the bot's own questions, cancel words, counts, far walks, the questions players
/// ask), each as said, through the shipped parser: every one must pass.
#[test]
fn every_conversation_scenario_passes_as_said() {
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(["scenario", "--say-only", "tests/scenarios/conversation"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the craftmate binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let failures: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert!(failures.is_empty(), "failing conversation scenarios:\n{}", failures.join("\n"));
    let last = stdout.lines().last().unwrap_or_default();
    let passed = match last.split_whitespace().collect::<Vec<_>>().as_slice() {
        [n, "passed,", "0", "failed"] => n.parse::<usize>().ok(),
        _ => None,
    };
    assert!(passed.is_some_and(|n| n >= 20), "expected the whole suite, got {last:?}\n{stdout}");
}

/// The scenarios again with their `lf` hints ignored (`--say-only`): every line goes through the
/// shipped parser, so this is the parser's end-to-end score. Not every scenario passes that way yet
/// (see models/parser/CARD.md); the count may fall at most one below the one recorded with the model
/// (a scenario whose parse sits right at a confidence threshold may tip on another machine).
#[test]
fn say_only_scenarios_pass_at_least_the_shipped_models_record() {
    let scores: serde_json::Value =
        serde_json::from_str(include_str!("../models/parser/scores.json")).expect("scores.json is JSON");
    let recorded = scores["say_only_scenarios_passed"].as_u64().expect("scores.json records say_only_scenarios_passed");
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(["scenario", "--say-only", "tests/scenarios/actions", "tests/scenarios/dialogue"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the craftmate binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let passed = match last.split_whitespace().collect::<Vec<_>>().as_slice() {
        [n, "passed,", _, "failed"] => n.parse::<u64>().ok(),
        _ => None,
    };
    let Some(passed) = passed else { panic!("no closing line, got {last:?}\n{stdout}") };
    assert!(passed + 1 >= recorded, "say-only: {passed} scenarios passed, the shipped model recorded {recorded}\n{stdout}");
}

/// How players really talk (`tests/scenarios/phrasings/`): sizes, typos, sequences, pauses,
/// praise, questions. The pass count may fall at most two below the one recorded with the model
/// (a parse right at a confidence threshold may tip on another machine), and must stay at 90 %.
#[test]
fn player_phrasings_pass_at_least_the_recorded_count() {
    let scores: serde_json::Value =
        serde_json::from_str(include_str!("../models/parser/scores.json")).expect("scores.json is JSON");
    let recorded = scores["phrasings_passed"].as_u64().expect("scores.json records phrasings_passed");
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(["scenario", "--say-only", "tests/scenarios/phrasings"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the craftmate binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let (passed, failed) = match last.split_whitespace().collect::<Vec<_>>().as_slice() {
        [n, "passed,", m, "failed"] => (n.parse::<u64>().ok(), m.parse::<u64>().ok()),
        _ => (None, None),
    };
    let (Some(passed), Some(failed)) = (passed, failed) else { panic!("no closing line, got {last:?}\n{stdout}") };
    assert!(passed + failed >= 150, "the suite has at least 150 phrasings: {stdout}");
    assert!(passed + 2 >= recorded, "phrasings: {passed} passed, the shipped model recorded {recorded}\n{stdout}");
    assert!(passed * 10 >= (passed + failed) * 9, "phrasings: {passed} of {} passed, under 90 %\n{stdout}", passed + failed);
}
