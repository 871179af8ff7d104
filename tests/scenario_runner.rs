//! The scenario harness judged on its own: a scripted bot acts, and every kind of expectation is
//! shown to pass when it should and to fail, with a useful reason, when it should not.

use craftmate::agent::Bot;
use craftmate::logical_form::LogicalForm;
use craftmate::scenario::{self, load, run};
use craftmate::world::{Block, Pos, World};
use std::io::Write;
use std::path::PathBuf;

/// Places a red block at (2,5,2) and says "done" when told "build"; walks one step east when told
/// "move"; stays busy for `busy_ticks` after each order; can be told to never become idle.
#[derive(Default)]
struct Scripted {
    busy: u64,
    busy_ticks: u64,
    never_idle: bool,
    forms: Vec<LogicalForm>,
}

impl Bot for Scripted {
    fn tick(&mut self, world: &mut dyn World) {
        for chat in world.take_chats() {
            match chat.text.as_str() {
                "build" => {
                    world.place_block(Pos::new(2, 5, 2), Block::from_name("red_wool").unwrap()).unwrap();
                    world.say("done, I built it");
                }
                "move" => {
                    let p = world.agent_pos();
                    world.step_to(Pos::new(p.x + 1, p.y, p.z)).unwrap();
                }
                other => world.say(&format!("I heard {other}")),
            }
            self.busy = self.busy_ticks;
        }
        self.busy = self.busy.saturating_sub(1);
    }

    fn is_idle(&self) -> bool {
        !self.never_idle && self.busy == 0
    }

    fn expect_parse(&mut self, _speaker: &str, _text: &str, lf: LogicalForm) {
        self.forms.push(lf);
    }
}

fn write(dir: &tempfile::TempDir, name: &str, body: &str) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::File::create(&p).unwrap().write_all(body.as_bytes()).unwrap();
    p
}

const HEAD: &str = "name = \"t\"\n[[players]]\nname = \"alice\"\npos = [4, 5, 0]\n";

fn run_text(body: &str, bot: &mut Scripted) -> scenario::Outcome {
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "s.toml", &format!("{HEAD}{body}"));
    run(&load(&p).unwrap(), bot)
}

#[test]
fn a_bot_that_builds_passes_block_chat_and_fails_unchanged() {
    let body = r#"
[[steps]]
say = "build"
[[steps]]
run = "idle"
[[steps]]
expect = "block"
at = [2, 5, 2]
block = "red_wool"
[[steps]]
expect = "chat"
matches = "(?i)done"
[[steps]]
expect = "no_chat"
matches = "(?i)error"
[[steps]]
expect = "blocks"
near = "agent"
radius = 4
block = "placed"
count = 1
[[steps]]
expect = "unchanged"
since = 0
"#;
    let o = run_text(body, &mut Scripted::default());
    assert!(!o.passed);
    assert_eq!(o.failed_step, Some(6));
    assert_eq!(o.failed_expect.as_deref(), Some("unchanged"));
    let reason = o.reason.unwrap();
    assert!(reason.contains("(2, 5, 2) is red_wool, it was air before step 0"), "{reason}");
}

#[test]
fn chat_is_judged_since_the_latest_say_only() {
    let body = r#"
[[steps]]
say = "build"
[[steps]]
run = 3
[[steps]]
say = "hello"
[[steps]]
run = 3
[[steps]]
expect = "chat"
matches = "heard hello"
[[steps]]
expect = "chat"
matches = "done"
"#;
    let o = run_text(body, &mut Scripted::default());
    assert_eq!(o.failed_step, Some(5), "{o:?}");
    assert!(o.reason.unwrap().contains("\"I heard hello\""));
}

#[test]
fn no_chat_fails_when_the_bot_says_the_forbidden_thing() {
    let o = run_text("[[steps]]\nsay = \"oops\"\n[[steps]]\nrun = 1\n[[steps]]\nexpect = \"no_chat\"\nmatches = \"heard\"\n", &mut Scripted::default());
    assert_eq!(o.failed_step, Some(2));
    assert!(o.reason.unwrap().contains("I heard oops"));
}

#[test]
fn agent_near_follows_the_agent() {
    let body = "[[steps]]\nsay = \"move\"\n[[steps]]\nrun = 1\n[[steps]]\nexpect = \"agent_near\"\ntarget = [1, 5, 0]\nwithin = 0.1\n";
    assert!(run_text(body, &mut Scripted::default()).passed);
}

#[test]
fn run_idle_stops_when_idle_and_at_max_ticks() {
    let body = "[[steps]]\nsay = \"hi\"\n[[steps]]\nrun = \"idle\"\n";
    let o = run_text(body, &mut Scripted { busy_ticks: 30, ..Default::default() });
    assert!(o.passed);
    assert_eq!(o.ticks, 30);
    let o = run_text(body, &mut Scripted { never_idle: true, ..Default::default() });
    assert_eq!(o.ticks, 6000, "default limit");
    let dir = tempfile::tempdir().unwrap();
    let p = write(&dir, "m.toml", &format!("max_ticks = 77\n{HEAD}{body}"));
    let o = run(&load(&p).unwrap(), &mut Scripted { never_idle: true, ..Default::default() });
    assert_eq!(o.ticks, 77);
}

#[test]
fn lf_steps_hand_the_form_to_the_bot() {
    let mut bot = Scripted::default();
    let body = "[[steps]]\nsay = \"build\"\nlf = '{\"dialogue_type\": \"NOOP\"}'\n[[steps]]\nrun = 1\n";
    assert!(run_text(body, &mut bot).passed);
    assert_eq!(bot.forms.len(), 1);
    assert_eq!(bot.forms[0].to_json_value(), serde_json::json!({"dialogue_type": "NOOP"}));
}

#[test]
fn expected_failures_pass_only_when_they_fail_where_expected() {
    let dir = tempfile::tempdir().unwrap();
    let at = |step: usize| format!("expected_failure = {{ step = {step} }}\n{HEAD}[[steps]]\nexpect = \"block\"\nat = [0, 4, 0]\nblock = \"air\"\n[[steps]]\nexpect = \"block\"\nat = [0, 4, 0]\nblock = \"air\"\n");
    let o = run(&load(&write(&dir, "a.toml", &at(0))).unwrap(), &mut Scripted::default());
    assert!(o.passed && o.expected_failure);
    let o = run(&load(&write(&dir, "b.toml", &at(1))).unwrap(), &mut Scripted::default());
    assert!(!o.passed, "failed at step 0 instead of 1");
    assert!(o.reason.unwrap().contains("expected to fail at step 1"));
    let ok = format!("expected_failure = {{ step = 0 }}\n{HEAD}[[steps]]\nexpect = \"block\"\nat = [0, 4, 0]\nblock = \"grass_block\"\n");
    let o = run(&load(&write(&dir, "c.toml", &ok)).unwrap(), &mut Scripted::default());
    assert!(!o.passed);
    assert_eq!(o.reason.as_deref(), Some("expected this step to fail, but the scenario passed"));
}

/// Each malformed file is refused with an error that names the file and the field.
#[test]
fn malformed_files_name_the_file_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str)] = &[
        ("[[steps]]\nexpect = \"block\"\nat = [0, 4, 0]\ncolr = \"red\"\n", "unknown field `colr`"),
        ("[[steps]]\nexpect = \"block\"\nat = [0, 4, 0]\nblock = \"red_woll\"\n", "unknown block id \"red_woll\""),
        ("[[steps]]\nexpect = \"block\"\nat = [0, 4, 0]\ncolour = \"reddish\"\n", "\"reddish\" is not a colour"),
        ("[[steps]]\nsay = \"hi\"\nrun = 3\n", "only one of"),
        ("[[steps]]\nsay = \"hi\"\nby = \"zed\"\n", "field `by`: no player called \"zed\""),
        ("[[steps]]\nsay = \"hi\"\ncount = 3\n", "field `count` does not belong to a say step"),
        ("[[steps]]\nexpect = \"chat\"\nmatches = \"(unclosed\"\n", "field `matches`: bad regex"),
        ("[[steps]]\nexpect = \"unchanged\"\nsince = 0\n", "does not come before"),
        ("[[steps]]\nexpect = \"smells\"\n", "unknown expectation \"smells\""),
        ("[[steps]]\nexpect = \"blocks\"\nblock = \"air\"\ncount = 1\n", "needs `region` or `near`"),
        ("[[steps]]\nsay = \"hi\"\nlf = '{not json'\n", "field `lf`: not a valid logical form for \"hi\""),
        ("[[steps]]\nsay = \"build it\"\nlf = '{\"dialogue_type\": \"HUMAN_GIVE_COMMAND\", \"action_sequence\": [{\"action_type\": \"BUILD\", \"schematic\": {\"text_span\": [0, [1, 4]]}}]}'\n", "out of range"),
        ("[[steps]]\nsay = \"hi\"\nlf = '{\"dialogue_type\": \"CHITCHAT\"}'\n", "unknown variant"),
        ("[[steps]]\nrun = \"forever\"\n", "neither \"idle\" nor a number"),
        ("[[steps]]\nexpect = \"mobs\"\nkind = \"dragonfly\"\ncount = 1\n", "unknown mob \"dragonfly\""),
        ("[world]\npreset = \"amplified\"\n", "field `world.preset`: unknown preset"),
        ("[[steps]\n", "invalid table header"),
        ("[[steps]]\nrun = = 3\n", "(line 6, column 7)"),
        ("[[blocks]]\nfrom = [0, 5]\nblock = \"stone\"\n", "field `blocks[0].from`"),
        ("[[steps]]\nexpect = \"blocks\"\nregion = { from = [0,0,0], to = [1,1,1], size = 3 }\nblock = \"air\"\ncount = 1\n", "unknown field `size`"),
        // Sizes and counts that would never finish, or wrap around, are refused up front.
        ("[[blocks]]\nfrom = [-2147483648, 5, 0]\nto = [2147483647, 5, 0]\nblock = \"stone\"\n", "box of 4294967296 blocks is too large"),
        ("[[steps]]\nrun = 9223372036854775807\n", "more than a scenario may run"),
        ("[[steps]]\nexpect = \"mobs\"\nnear = \"agent\"\nradius = inf\nop = \"==\"\ncount = 0\n", "field `radius`: inf is not a distance"),
        // Bounds per step are no bounds if a file repeats the step: the file's total is bounded too.
        ("[[steps]]\nrun = 1000000\n[[steps]]\nrun = 1000000\n[[steps]]\nrun = 1000000\n", "the runs add up to 3000000 ticks"),
        ("[[blocks]]\nfrom = [0, 0, 0]\nto = [1999, 2999, 0]\nblock = \"stone\"\n[[blocks]]\nfrom = [0, 0, 1]\nto = [1999, 2999, 1]\nblock = \"stone\"\n", "the boxes hold 12000000 blocks in all"),
        // A radius is searched cell by cell: 1000 would be 8 billion cells.
        ("[[steps]]\nexpect = \"blocks\"\nnear = \"agent\"\nradius = 1000\nblock = \"air\"\ncount = 1\n", "field `radius`: 1000 is not a distance from 0 to 100"),
        ("[[steps]]\nexpect = \"blocks\"\nregion = { from = [-2147483648, 0, -2147483648], to = [2147483647, 0, 2147483647] }\nblock = \"air\"\ncount = 1\n", "more than a step may count"),
    ];
    // Steps and the actions of one `lf` are counted too: 5,000 dances in one form, or more say
    // steps than a run can get through, are refused before anything runs.
    let dance = r#"{"action_type": "DANCE"}"#;
    let many_dances = format!(
        "[[steps]]\nsay = \"dance\"\nlf = '{{\"dialogue_type\": \"HUMAN_GIVE_COMMAND\", \"action_sequence\": [{}]}}'\n",
        vec![dance; 5000].join(", ")
    );
    let many_says = "[[steps]]\nsay = \"hi\"\n".repeat(10_001);
    let huge = format!("# {}\n", "x".repeat(5 << 20));
    let bounded: Vec<(&str, &str)> = vec![
        (&many_dances, "5000 actions, more than one line may ask for (64)"),
        (&many_says, "10001 steps, more than a scenario may have (10000)"),
        (&huge, "larger than a scenario file may be (4 MB)"),
    ];
    for (i, (body, wanted)) in cases.iter().copied().chain(bounded).enumerate() {
        let name = format!("bad{i}.toml");
        let p = write(&dir, &name, &format!("{HEAD}{body}"));
        let err = load(&p).expect_err(body).to_string();
        assert!(err.contains(&name), "case {i}: error does not name the file: {err}");
        assert!(err.contains(wanted), "case {i}: expected {wanted:?} in: {err}");
    }
    let p = write(&dir, "noname.toml", "[[steps]]\nrun = 1\n");
    assert!(load(&p).unwrap_err().to_string().contains("missing field `name`"));
}

fn craftmate(args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_craftmate")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn cli_runs_the_harness_suite() {
    let (code, out) = craftmate(&["scenario", "tests/scenarios/harness"]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 11, "at least 10 scenarios and a closing line: {out}");
    assert!(lines[..lines.len() - 1].iter().all(|l| l.starts_with("PASS ")), "{out}");
    assert!(out.contains("(failed as expected at step"), "self-tests fail as expected: {out}");
    let closing = lines.last().unwrap();
    assert_eq!(*closing, format!("{} passed, 0 failed", lines.len() - 1));
}

#[test]
fn cli_reports_failures_and_malformed_files_with_exit_status_1() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir, "a_fails.toml", "name = \"grass is air\"\n[[steps]]\nexpect = \"block\"\nat = [1, 4, 1]\nblock = \"air\"\n");
    write(&dir, "b_passes.toml", "name = \"grass is grass\"\n[[steps]]\nexpect = \"block\"\nat = [1, 4, 1]\nblock = \"grass_block\"\n");
    write(&dir, "c_bad.toml", "name = \"bad\"\nmax_tick = 5\n");
    let d = dir.path().to_str().unwrap();
    let (code, out) = craftmate(&["scenario", d]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "FAIL grass is air: step 0 (block): found grass_block at (1, 4, 1), expected air");
    assert_eq!(lines[1], "PASS grass is grass");
    assert!(lines[2].starts_with("FAIL ") && lines[2].contains("c_bad.toml") && lines[2].contains("unknown field `max_tick`"), "{}", lines[2]);
    assert_eq!(lines[3], "1 passed, 2 failed");

    let (code, out) = craftmate(&["scenario", "--json", d]);
    assert_eq!(code, 1);
    let objs: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objs.len(), 3);
    assert_eq!(objs[0]["name"], "grass is air");
    assert_eq!(objs[0]["passed"], false);
    assert_eq!(objs[0]["failed_step"], 0);
    assert!(objs[0]["reason"].as_str().unwrap().contains("expected air"));
    assert!(objs[0]["ticks"].is_u64());
    assert_eq!(objs[1]["passed"], true);

    let (code, _) = craftmate(&["scenario", "no/such/dir"]);
    assert_eq!(code, 1);
}

/// A folder with a symbolic link back to itself is listed once, not walked forever.
#[cfg(unix)]
#[test]
fn a_link_loop_in_a_scenario_folder_ends() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("more");
    std::fs::create_dir(&inner).unwrap();
    std::fs::write(dir.path().join("a.toml"), "name = \"a\"\n").unwrap();
    std::fs::write(inner.join("b.toml"), "name = \"b\"\n").unwrap();
    std::os::unix::fs::symlink(dir.path(), inner.join("back_up")).unwrap();
    std::os::unix::fs::symlink(&inner, dir.path().join("again")).unwrap();
    let files = craftmate::scenario::collect_files(&[dir.path().to_path_buf()]).unwrap();
    let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["a.toml", "b.toml"], "{files:?}");
}
