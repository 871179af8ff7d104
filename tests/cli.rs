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
fn no_subcommand_starts_the_play_repl_and_help_lists_subcommands() {
    let (code, out, _) = craftmate(&[]);
    assert_eq!(code, 0, "with no input the REPL greets and ends");
    assert!(out.starts_with("craftmate play:"), "{out}");
    let (code, out, _) = craftmate(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("check-data") && out.contains("scenario") && out.contains("play"));
    // Only the product's commands: the research tools are craftmate-lab's.
    for lab in ["data-ceiling", "half-model", "ensemble-models", "average-models", "checkpoint-model", "pack-features"] {
        assert!(!out.contains(lab), "{lab} in the product's help: {out}");
    }
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
    // The reliability table: per confidence band, how often the parse is right.
    assert!(out.contains("reliability (confidence band: parses, exactly right, right ignoring text_span)"), "{out}");
    assert!(out.contains("[0.995, 1]") && out.contains("% ignoring text_span"), "{out}");
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

/// `n` templated commands (drawn with `seed`) written in `dir` as a released `text|json` file.
fn commands_file(dir: &std::path::Path, n: usize, seed: u64) -> std::path::PathBuf {
    let data = dir.join("commands.txt");
    let rows = craftmate::training::templates::generate_from_dir(std::path::Path::new("data/templates"), n, seed).unwrap();
    let lines: Vec<String> = rows.iter().map(|ex| format!("{}|{}", ex.text(), ex.json)).collect();
    std::fs::write(&data, lines.join("\n")).unwrap();
    data
}

#[test]
fn train_pauses_after_the_asked_epoch_and_resume_finishes_the_run() {
    // Forty templated commands written as a released `text|json` file: a run of seconds.
    let dir = tempfile::tempdir().unwrap();
    let data = commands_file(dir.path(), 40, 3);
    let out = dir.path().join("model");
    let (data, out) = (data.to_str().unwrap(), out.to_str().unwrap());
    let run_in = |out: &str, more: &[&str]| {
        let mut args =
            vec!["train", "--single", "--data", data, "--out", out, "--noop", "0", "--epochs", "3", "--d-model", "32"];
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
    let epoch = craftmate::training::checkpoint_model::checkpoint_model(std::path::Path::new(out), &last).unwrap();
    assert_eq!((epoch.epoch, epoch.planned_epochs), (1, 3));
    let (code, stdout, stderr) = craftmate(&["parse", "--raw", "--model", last.to_str().unwrap(), "build a red cube"]);
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

#[test]
fn train_runs_the_whole_recipe_and_scores_the_combined_model() {
    // The recipe's two networks for one epoch each on a small file: a run of seconds that goes
    // through every step the shipped model went through (processes, kept epochs, ensemble, f16).
    let dir = tempfile::tempdir().unwrap();
    let data = commands_file(dir.path(), 60, 5);
    let out = dir.path().join("run");
    let args = [
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "1",
        "--templated",
        "30",
        "--noop",
        "0",
    ];
    let (code, stdout, stderr) = craftmate(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("training 2 networks"), "{stdout}");
    let done = stdout.lines().find(|l| l.starts_with("done in ")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(done.contains("exact match"), "{done}");
    assert!(stdout.contains("this model") && stdout.contains("the shipped model") && stdout.contains("whole split"), "{stdout}");
    // The finished model is an ensemble of the two networks in f16, with the features it reads.
    let model = out.join("model");
    assert!(model.join("partners/01/model.safetensors").is_file() && model.join("features/model.safetensors").is_file());
    let weights = candle_core::safetensors::load(model.join("model.safetensors"), &candle_core::Device::Cpu).unwrap();
    assert!(weights.values().all(|t| t.dtype() == candle_core::DType::F16), "stored as f16");
    let (code, stdout, stderr) = craftmate(&["parse", "--raw", "--model", model.to_str().unwrap(), "build a red cube"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("dialogue_type"), "{stdout}");
    // Run again, it resumes each network from its checkpoint (nothing left to train) and combines anew.
    let (code, stdout, stderr) = craftmate(&args);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let log = std::fs::read_to_string(out.join("networks/a/train.log")).unwrap();
    assert!(log.contains("nothing left to train"), "{log}");
    // One-network options belong to --single.
    let (code, _, stderr) = craftmate(&["train", "--out", out.to_str().unwrap(), "--resume"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--single"), "{stderr}");
}

#[test]
fn export_learned_writes_what_players_taught_as_training_rows() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.db");
    {
        let mut m = craftmate::memory::Memory::open(&file).unwrap();
        let form = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}}}]}"#;
        m.learn("build a castel", "build a tower", form, "alice", 7).unwrap();
    }
    let (code, out, err) = craftmate(&["export-learned", "--memory", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 1, "{out}");
    assert!(rows[0].starts_with("build a tower|{") && rows[0].contains("\"has_name\""), "{out}");
    // The rows are the released data's format: check-data accepts them.
    let rows_file = dir.path().join("rows.txt");
    let (code, _, err) = craftmate(&["export-learned", "--memory", file.to_str().unwrap(), "--out", rows_file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = craftmate(&["check-data", rows_file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("checked 1 rows, 0 errors"), "{out}");
    // A missing file is a clear error, not a new empty memory.
    let (code, _, err) = craftmate(&["export-learned", "--memory", dir.path().join("none.db").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("does not exist"), "{err}");
}
