//! The command line as a user meets it: real processes, real files, exit codes.

use std::io::Write;
use std::process::Command;

fn craftmate(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_data_accepts_the_whole_released_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/annotated.txt");
    assert!(std::path::Path::new(path).exists(), "the shared data must be beside the repository: {path}");
    let (code, out, _) = craftmate(&["check-data", path]);
    assert_eq!(out.lines().last(), Some("checked 9757 rows, 0 errors"));
    assert_eq!(code, 0);
}

#[test]
fn check_data_reports_bad_rows_and_exits_1() {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    writeln!(f, "build a box|{{\"dialogue_type\": \"HUMAN_GIVE_COMMAND\", \"action_sequence\": [{{\"action_type\": \"BUILD\"}}]}}").unwrap();
    writeln!(f, "7|build a box|{{\"dialogue_type\": \"HUMAN_GIVE_COMMAND\", \"action_sequence\": [{{\"action_type\": \"BUILD\", \"schematic\": {{\"text_span\": [0, [5, 2]]}}}}]}}").unwrap();
    writeln!(f, "hello|{{\"dialogue_type\": \"SMALLTALK\"}}").unwrap();
    let (code, out, _) = craftmate(&["check-data", f.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("line 2:") && out.contains("[0, [5, 2]]"), "{out}");
    assert!(out.contains("line 3:") && out.contains("SMALLTALK"), "{out}");
    assert!(!out.contains("line 1:"), "BUILD with neither schematic nor reference object is allowed: {out}");
    assert!(out.lines().last().unwrap().starts_with("checked 3 rows, "));
}

#[test]
fn a_report_piped_into_a_reader_that_has_gone_ends_without_a_panic() {
    // `craftmate parse ... | head -0`: the reader is gone before the first line is written.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .args(["parse", "build a red tower"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "101 is a panic's exit code: {err}");
    // The same command with a reader prints the form.
    let (code, out, _) = craftmate(&["parse", "build a red tower"]);
    assert_eq!(code, 0);
    assert!(out.contains("BUILD") && out.contains("confidence:"), "{out}");
}

#[test]
fn check_data_on_a_missing_file_is_a_clear_error() {
    let (code, _, err) = craftmate(&["check-data", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.txt"), "{err}");
}

#[test]
fn data_ceiling_measures_the_annotators_consistency_on_the_held_out_split() {
    // The released file and the training split are fixed, so are these counts: 215 held-out rows
    // have a name twin in training, and for 168 of them the twins' most common form is their own.
    let (code, out, err) = craftmate(&["data-ceiling", "--examples", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("../shared/data/annotated.txt: 8778 training rows, 979 held-out rows"), "{out}");
    assert!(out.contains("their forms agree in 98.91% (271/274) of pairs"), "{out}");
    assert!(out.contains("as annotated                                 84.27% (825/979)"), "{out}");
    assert!(out.contains("only twins from the row's own batch vote     88.70% (157/177)"), "{out}");
    assert!(!out.contains("the parser's exact match"), "the parser runs only with --parser: {out}");
    // The 47 misses, two of them shown with a twin that wrote the majority's form.
    assert!(
        out.contains("held-out rows whose twins wrote another form (2 of 47; rows of the file counted from 0):"),
        "{out}"
    );
    assert!(out.contains("\"build another stair\" (row 1584): "), "{out}");
    assert!(out.contains("2 of its 3 twins wrote, e.g. \"build another cube\" (row 2123): "), "{out}");
    assert_eq!(
        out.lines().last(),
        Some(
            "name-twin ceiling: 78.14% (168/215) of held-out rows with a twin get their own form from their twins' vote"
        )
    );
}

#[test]
fn data_ceiling_with_the_parser_scores_it_on_the_same_rows() {
    // Ten commands, half held out: whichever half that is, every group line is printed and the
    // closing line puts the parser beside the ceiling.
    let mut f = tempfile::NamedTempFile::new().unwrap();
    let form = |n: usize| {
        format!(
            r#"{{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{{"action_type": "BUILD", "schematic": {{"filters": {{"where_clause": {{"AND": [{{"pred_text": "has_name", "obj_text": [0, [{n}, {n}]]}}]}}}}}}}}]}}"#
        )
    };
    for word in ["cube", "tower", "wall", "house", "bridge"] {
        writeln!(f, "build a {word}|{}", form(2)).unwrap();
        writeln!(f, "please build {word}|{}", form(2)).unwrap();
    }
    let (code, out, err) =
        craftmate(&["data-ceiling", "--data", f.path().to_str().unwrap(), "--valid-fraction", "0.5", "--parser"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": 5 training rows, 5 held-out rows"), "{out}");
    assert!(out.contains("rows with the same text: none") && !out.contains("(0/0)"), "{out}");
    for line in
        ["all held-out rows", "rows whose tree no training row has", "rows with name twins", "where it does not"]
    {
        assert!(out.contains(line), "{line}: {out}");
    }
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("name-twin ceiling: ") && last.ends_with("of the same rows)"), "{out}");
}

#[test]
fn data_ceiling_refuses_a_missing_file_and_a_fraction_out_of_range() {
    let (code, _, err) = craftmate(&["data-ceiling", "--data", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.txt"), "{err}");
    let (code, _, err) = craftmate(&["data-ceiling", "--valid-fraction", "1.5"]);
    assert_eq!(code, 2);
    assert!(err.contains("--valid-fraction must be above 0 and below 1"), "{err}");
}

#[test]
fn no_subcommand_starts_the_play_repl_and_help_lists_subcommands() {
    let (code, out, _) = craftmate(&[]);
    assert_eq!(code, 0, "with no input the REPL greets and ends");
    assert!(out.starts_with("craftmate play:"), "{out}");
    let (code, out, _) = craftmate(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("check-data") && out.contains("scenario") && out.contains("play"));
}

#[test]
fn half_model_copies_the_shipped_model_and_never_overwrites() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("half");
    let out_arg = out.to_str().unwrap();
    let (code, said, err) = craftmate(&["half-model", "--out", out_arg, "models/parser"]);
    assert_eq!(code, 0, "{err}");
    assert!(said.contains("2 network(s) in f16") && said.contains("eval-parser --model"), "{said}");
    assert!(out.join("partners/01/model.safetensors").is_file() && out.join("features/model.safetensors").is_file());
    let (code, _, err) = craftmate(&["half-model", "--out", out_arg, "models/parser"]);
    assert_ne!(code, 0);
    assert!(err.contains("already exists"), "{err}");
    let (code, _, err) = craftmate(&["half-model", "--out", tmp.path().join("x").to_str().unwrap(), "no/such/model"]);
    assert_ne!(code, 0);
    assert!(err.contains("no/such/model") && err.contains("not a parser model directory"), "{err}");
}

#[test]
fn eval_parser_scores_the_scenario_phrasings_and_dumps_every_parse() {
    let dump = tempfile::NamedTempFile::new().unwrap();
    let (code, out, err) = craftmate(&[
        "eval-parser",
        "--scenarios",
        "tests/scenarios/actions",
        "--limit",
        "6",
        "--dump",
        dump.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("evaluating the ") && out.contains("say/lf pairs of the scenarios"), "{out}");
    assert!(out.contains("confidence bands"), "{out}");
    assert!(out.contains("exact match ignoring text_span keys"), "{out}");
    let last: Vec<&str> = out.lines().rev().take(2).collect();
    assert!(last[0].starts_with("exact match: ") && last[0].ends_with("/6)"), "{out}");
    assert!(last[1].starts_with("latency p50: "), "{out}");
    // One JSON object per parse, with what a calibration study needs.
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(dump.path()).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 6);
    for l in &lines {
        assert!(l["text"].is_string() && l["correct"].is_boolean() && l["confidence"].is_number(), "{l}");
        assert!(l["gold"]["dialogue_type"].is_string() && l["predicted"]["dialogue_type"].is_string(), "{l}");
    }
    // --skip drops rows from the front, before --limit: rows 3–6 of the same list.
    let skipped = tempfile::NamedTempFile::new().unwrap();
    let (code, out, err) = craftmate(&[
        "eval-parser",
        "--scenarios",
        "tests/scenarios/actions",
        "--skip",
        "2",
        "--limit",
        "4",
        "--dump",
        skipped.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().last().unwrap().ends_with("/4)"), "{out}");
    let texts: Vec<serde_json::Value> = std::fs::read_to_string(skipped.path())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["text"].clone())
        .collect();
    let expected: Vec<serde_json::Value> = lines[2..].iter().map(|l| l["text"].clone()).collect();
    assert_eq!(texts, expected);
}

#[test]
fn eval_parser_against_an_earlier_dump_counts_the_rows_each_got_right() {
    let args = |extra: &[&str]| {
        let mut a = vec!["eval-parser", "--scenarios", "tests/scenarios/actions", "--limit", "6"];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |a: Vec<String>| craftmate(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("now.jsonl");
    let (code, _, err) = run(args(&["--dump", dump.to_str().unwrap()]));
    assert_eq!(code, 0, "{err}");
    // A made-up earlier run that got right exactly the rows this one got wrong.
    let records: Vec<serde_json::Value> =
        std::fs::read_to_string(&dump).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let right = records.iter().filter(|r| r["correct"] == true).count();
    let flipped: String = records
        .iter()
        .map(|r| format!("{}\n", serde_json::json!({"text": r["text"], "correct": r["correct"] != true})))
        .collect();
    let earlier = dir.path().join("earlier.jsonl");
    std::fs::write(&earlier, flipped).unwrap();
    let (code, out, err) = run(args(&["--against", earlier.to_str().unwrap()]));
    assert_eq!(code, 0, "{err}");
    let expect = format!("(6 rows): right in both 0, only here {right}, only there {}, in neither 0", 6 - right);
    assert!(out.contains(&expect), "{expect}\n{out}");
    assert!(out.contains("McNemar exact p = "), "{out}");
    assert!(out.lines().last().unwrap().starts_with("exact match: "), "the closing lines stay last: {out}");
    // Against itself: no row won or lost.
    let (_, out, _) = run(args(&["--against", dump.to_str().unwrap()]));
    assert!(out.contains("only here 0, only there 0") && out.contains("p = 1.000"), "{out}");
    // Other rows, or not a dump at all: a clear error, not numbers that mean nothing.
    let (code, out, err) = run(args(&["--skip", "1", "--against", dump.to_str().unwrap()]));
    assert_ne!(code, 0);
    assert!(err.contains("row 1 differs"), "{err}");
    assert!(!out.contains("per dialogue type"), "checked before the evaluation: {out}");
    std::fs::write(&earlier, "exact match: 50%\n").unwrap();
    let (code, out, err) = run(args(&["--against", earlier.to_str().unwrap()]));
    assert_ne!(code, 0);
    assert!(err.contains("not an eval-parser --dump record") && !out.contains("exact match"), "{err}");
}

#[test]
fn train_pauses_after_the_asked_epoch_and_resume_finishes_the_run() {
    // Forty templated commands written as a released `text|json` file: a run of seconds.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("commands.txt");
    let rows =
        craftmate::training::templates::generate_from_dir(std::path::Path::new("data/templates"), 40, 3).unwrap();
    let lines: Vec<String> = rows.iter().map(|ex| format!("{}|{}", ex.text(), ex.json)).collect();
    std::fs::write(&data, lines.join("\n")).unwrap();
    let out = dir.path().join("model");
    let (data, out) = (data.to_str().unwrap(), out.to_str().unwrap());
    let run_in = |out: &str, more: &[&str]| {
        let mut args = vec!["train", "--data", data, "--out", out, "--noop", "0", "--epochs", "3", "--d-model", "32"];
        args.extend_from_slice(more);
        craftmate(&args)
    };
    let run = |more: &[&str]| run_in(out, more);

    // --resume with no checkpoint yet starts a new run, and says so.
    let (code, stdout, stderr) = run(&["--pause-after", "1", "--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("nothing to resume"), "a --resume with no checkpoint should say so: {stderr}");
    assert!(stdout.contains("paused after epoch 1 of 3"), "{stdout}");
    assert!(stdout.contains("--resume"), "the pause should say how to go on: {stdout}");
    assert!(!stdout.contains("done in"), "{stdout}");
    assert!(std::path::Path::new(out).join("optimizer.safetensors").exists());

    // Forgetting --resume would start over and overwrite the checkpoint: refused, nothing touched.
    let checkpoint = std::fs::read(std::path::Path::new(out).join("checkpoint.safetensors")).unwrap();
    let (code, _, stderr) = run(&[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("1 of 3 epochs trained") && stderr.contains("--resume continues it"), "{stderr}");
    assert_eq!(std::fs::read(std::path::Path::new(out).join("checkpoint.safetensors")).unwrap(), checkpoint);

    // The paused run's last epoch, written out as a model of its own, parses.
    let last = dir.path().join("last");
    let (code, stdout, stderr) = craftmate(&["checkpoint-model", "--out", last.to_str().unwrap(), out]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("wrote epoch 1 of 3") && stdout.contains("eval-parser --model"), "{stdout}");
    let (code, stdout, stderr) = craftmate(&["parse", "--model", last.to_str().unwrap(), "build a red cube"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("dialogue_type"), "{stdout}");

    // A checkpoint from before the optimizer's state was saved still resumes, with a warning.
    let old = dir.path().join("old");
    std::fs::create_dir(&old).unwrap();
    for entry in std::fs::read_dir(out).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() && !path.ends_with("optimizer.safetensors") {
            std::fs::copy(&path, old.join(path.file_name().unwrap())).unwrap();
        }
    }
    let (code, stdout, stderr) = run_in(old.to_str().unwrap(), &["--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("no optimizer state"), "{stderr}");
    assert!(stdout.contains("done in"), "{stdout}");

    let (code, stdout, stderr) = run(&["--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("done in") && stdout.contains("3 epochs"), "{stdout}");
    assert!(!stderr.contains("no optimizer state"), "the optimizer's state was not picked up: {stderr}");
}
