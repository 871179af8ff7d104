//! The research tools as a researcher meets them: real processes, the released data, exit codes.
//! They run from the repository root, as the product's commands do.

use std::io::Write;
use std::path::Path;
use std::process::Command;

fn lab(args: &[&str]) -> (i32, String, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_craftmate-lab")).args(args).current_dir(root).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn data_ceiling_measures_the_annotators_consistency_on_the_held_out_split() {
    // The released file and the training split are fixed, so are these counts: 215 held-out rows
    // have a name twin in training, and for 168 of them the twins' most common form is their own.
    let (code, out, err) = lab(&["data-ceiling", "--examples", "2"]);
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
        lab(&["data-ceiling", "--data", f.path().to_str().unwrap(), "--valid-fraction", "0.5", "--parser"]);
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
    let (code, _, err) = lab(&["data-ceiling", "--data", "no/such/file.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.txt"), "{err}");
    let (code, _, err) = lab(&["data-ceiling", "--valid-fraction", "1.5"]);
    assert_eq!(code, 2);
    assert!(err.contains("--valid-fraction must be above 0 and below 1"), "{err}");
}


#[test]
fn half_model_copies_the_shipped_model_and_never_overwrites() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("half");
    let out_arg = out.to_str().unwrap();
    let (code, said, err) = lab(&["half-model", "--out", out_arg, "models/parser"]);
    assert_eq!(code, 0, "{err}");
    assert!(said.contains("2 network(s) in f16") && said.contains("eval-parser --model"), "{said}");
    assert!(out.join("partners/01/model.safetensors").is_file() && out.join("features/model.safetensors").is_file());
    let (code, _, err) = lab(&["half-model", "--out", out_arg, "models/parser"]);
    assert_ne!(code, 0);
    assert!(err.contains("already exists"), "{err}");
    let (code, _, err) = lab(&["half-model", "--out", tmp.path().join("x").to_str().unwrap(), "no/such/model"]);
    assert_ne!(code, 0);
    assert!(err.contains("no/such/model") && err.contains("not a parser model directory"), "{err}");
}



#[test]
fn compare_counts_the_rows_each_dump_got_right() {
    let dir = tempfile::tempdir().unwrap();
    let dump = |name: &str, marks: &[bool]| {
        let path = dir.path().join(name);
        let lines: String = marks
            .iter()
            .enumerate()
            .map(|(i, ok)| format!("{}\n", serde_json::json!({"text": format!("row {i}"), "correct": ok, "confidence": 0.5})))
            .collect();
        std::fs::write(&path, lines).unwrap();
        path.to_str().unwrap().to_string()
    };
    let now = dump("now.jsonl", &[true, true, false, false, true, true]);
    // An earlier run that got right exactly the rows this one got wrong.
    let earlier = dump("earlier.jsonl", &[false, false, true, true, false, false]);
    let (code, out, err) = lab(&["compare", &now, &earlier]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(6 rows): right in both 0, only here 4, only there 2, in neither 0"), "{out}");
    assert!(out.contains("McNemar exact p = "), "{out}");
    // Against itself: no row won or lost.
    let (_, out, _) = lab(&["compare", &now, &now]);
    assert!(out.contains("only here 0, only there 0") && out.contains("p = 1.000"), "{out}");
    // Other rows, or not a dump at all: a clear error, not numbers that mean nothing.
    let fewer = dump("fewer.jsonl", &[true, true]);
    let (code, _, err) = lab(&["compare", &now, &fewer]);
    assert_ne!(code, 0);
    assert!(err.contains("different rows"), "{err}");
    std::fs::write(&earlier, "exact match: 50%\n").unwrap();
    let (code, _, err) = lab(&["compare", &now, &earlier]);
    assert_ne!(code, 0);
    assert!(err.contains("not an eval-parser --dump record"), "{err}");
}
