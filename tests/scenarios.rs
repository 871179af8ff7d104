//! The scenarios under `tests/scenarios/` run through the real binary. The behaviour suites
//! (harness self-tests, actions, dialogue) must all pass, and so must the conversation suite as
//! said (no `lf` hints); the player phrasings
//! (`tests/scenarios/phrasings/`, no `lf` hints: every line goes through the whole understanding
//! path) must pass at least as often as recorded with the shipped model.

use std::process::Command;

/// A suite as the runner reports it: what it printed and its closing counts.
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
    passed: u64,
    failed: u64,
}

impl Run {
    /// Runs `craftmate scenario ARGS…` from the repository root and reads its closing line,
    /// `N passed, M failed`.
    fn of(args: &[&str]) -> Run {
        let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
            .arg("scenario")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("the craftmate binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let last = stdout.lines().last().unwrap_or_default().to_string();
        let counts = match last.split_whitespace().collect::<Vec<_>>().as_slice() {
            [n, "passed,", m, "failed"] => n.parse().ok().zip(m.parse().ok()),
            _ => None,
        };
        let Some((passed, failed)) = counts else { panic!("no closing line `N passed, M failed`, got {last:?}\n{stdout}\n{stderr}") };
        Run { stdout, stderr, code: out.status.code(), passed, failed }
    }

    fn failures(&self) -> Vec<&str> {
        self.stdout.lines().filter(|l| l.starts_with("FAIL")).collect()
    }
}

fn recorded(key: &str) -> u64 {
    let scores: serde_json::Value =
        serde_json::from_str(include_str!("../models/parser/scores.json")).expect("scores.json is JSON");
    scores[key].as_u64().unwrap_or_else(|| panic!("scores.json records {key}"))
}

#[test]
fn every_scenario_passes() {
    let run = Run::of(&["tests/scenarios/harness", "tests/scenarios/actions", "tests/scenarios/dialogue", "tests/scenarios/natural", "tests/scenarios/companion"]);
    assert!(run.failures().is_empty(), "failing scenarios:\n{}\n\nstderr:\n{}", run.failures().join("\n"), run.stderr);
    assert_eq!(run.code, Some(0), "exit status\nstdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert!(run.failed == 0 && run.passed >= 12, "expected the whole suite to pass\n{}", run.stdout);
}

/// The 44 tasks of MineNPC-Task (`tests/scenarios/minenpc/`), each as the README's table says:
/// a ✅ row passes and a ✗ row fails, so the table can never claim what the bot does not do (a
/// ✗ that starts passing must become a ✅). At least 35 of the 44 pass.
#[test]
fn minenpc_tasks_are_as_the_readme_table_says() {
    let readme = std::fs::read_to_string("README.md").expect("the README");
    let table: Vec<(String, bool)> = readme
        .lines()
        .filter_map(|l| {
            let file = l.split("](tests/scenarios/minenpc/").nth(1)?.split(')').next()?;
            Some((format!("tests/scenarios/minenpc/{file}"), l.trim_end().ends_with("✅ |")))
        })
        .collect();
    assert_eq!(table.len(), 44, "the README's MineNPC-Task table has a row for each of the 44 tasks");
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(["scenario", "--json", "tests/scenarios/minenpc"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the craftmate binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut wrong = Vec::new();
    for line in stdout.lines().filter(|l| l.starts_with('{')) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON verdict");
        let (file, passed) = (v["file"].as_str().unwrap_or_default(), v["passed"].as_bool().unwrap_or(false));
        match table.iter().find(|(f, _)| f == file) {
            Some((_, said)) if *said != passed => wrong.push(format!("{file}: the README says {}, it {}: {}", if *said { "✅" } else { "✗" }, if passed { "passes" } else { "fails" }, v["reason"])),
            Some(_) => {}
            None => wrong.push(format!("{file}: not in the README's table")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(table.iter().filter(|(_, ok)| *ok).count() >= 35, "at least 35 of the 44 tasks are done");
}

/// What players said that broke a conversation (`tests/scenarios/conversation/`: lessons,
/// answers to the bot's own questions, cancel words, counts, far walks, the questions players
/// ask), each as said, through the shipped parser: every one must pass.
#[test]
fn every_conversation_scenario_passes_as_said() {
    let run = Run::of(&["--say-only", "tests/scenarios/conversation"]);
    assert!(run.failures().is_empty(), "failing conversation scenarios:\n{}", run.failures().join("\n"));
    assert!(run.failed == 0 && run.passed >= 20, "expected the whole suite\n{}", run.stdout);
}

/// The scenarios again with their `lf` hints ignored (`--say-only`): every line goes through the
/// shipped parser, so this is the parser's end-to-end score. Not every scenario passes that way yet
/// (see models/parser/CARD.md); the count may fall at most one below the one recorded with the model
/// (a scenario whose parse sits right at a confidence threshold may tip on another machine).
#[test]
fn say_only_scenarios_pass_at_least_the_shipped_models_record() {
    let recorded = recorded("say_only_scenarios_passed");
    let run = Run::of(&["--say-only", "tests/scenarios/actions", "tests/scenarios/dialogue"]);
    assert!(run.passed + 1 >= recorded, "say-only: {} scenarios passed, the shipped model recorded {recorded}\n{}", run.passed, run.stdout);
}

/// How players really talk (`tests/scenarios/phrasings/dev/`): sizes, typos, sequences, pauses,
/// praise, questions — the half we tune on. The pass count may fall at most two below the one
/// recorded with the model (a parse right at a confidence threshold may tip on another machine),
/// and must stay at 90 %.
#[test]
fn player_phrasings_we_tune_on_pass_at_least_the_recorded_count() {
    let recorded = recorded("phrasings_dev_passed");
    let run = Run::of(&["--say-only", "tests/scenarios/phrasings/dev"]);
    let (passed, failed, stdout) = (run.passed, run.failed, &run.stdout);
    assert!(passed + failed >= 150, "the dev half has at least 150 phrasings: {stdout}");
    assert!(passed + 2 >= recorded, "phrasings: {passed} passed, the shipped model recorded {recorded}\n{stdout}");
    assert!(passed * 10 >= (passed + failed) * 9, "phrasings: {passed} of {} passed, under 90 %\n{stdout}", passed + failed);
}

/// The other half (`tests/scenarios/phrasings/test/`) is reported, never tuned on: this test says
/// how many passed and keeps the figure from sliding, but does not name the lines that failed, so
/// nobody fixes the bot for them one by one (the README quotes this share).
#[test]
fn player_phrasings_held_out_pass_at_90_percent_and_are_not_listed() {
    let recorded = recorded("phrasings_test_passed");
    let run = Run::of(&["--say-only", "tests/scenarios/phrasings/test"]);
    let (passed, failed) = (run.passed, run.failed);
    assert!(passed + failed >= 150, "the test half has at least 150 phrasings, ran {}", passed + failed);
    assert!(passed + 2 >= recorded, "held-out phrasings: {passed} passed, the shipped model recorded {recorded}");
    assert!(passed * 10 >= (passed + failed) * 9, "held-out phrasings: {passed} of {} passed, under 90 %", passed + failed);
}
