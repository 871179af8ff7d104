//! The logical-form contract checked against the shared annotations.
//!
//! The data file lives outside the repository (`../shared/data/annotated.txt` from the crate root)
//! and is never copied in. CI always has it, so a missing file fails these tests.

use std::path::{Path, PathBuf};

use craftmate::logical_form::{ErrorKind, LogicalForm, Span, check_file, load_rows, normalize, tokenize, validate};

const DATA_ROWS: usize = 9757;

fn data_path() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/annotated.txt");
    assert!(path.exists(), "shared data file missing: {} (the tests need it)", path.display());
    path
}

#[test]
fn every_row_round_trips() {
    let rows = load_rows(&data_path()).expect("data file loads");
    assert_eq!(rows.len(), DATA_ROWS);
    let mut failures = Vec::new();
    for row in &rows {
        let original: serde_json::Value = serde_json::from_str(&row.json).expect("row JSON parses");
        match LogicalForm::from_json_str(&row.json) {
            Ok(form) => {
                if form.to_json_value() != original {
                    failures.push(format!("line {}: value changed", row.line));
                }
                let reparsed: serde_json::Value = serde_json::from_str(&form.to_json_string()).unwrap();
                if reparsed != original {
                    failures.push(format!("line {}: string form changed", row.line));
                }
            }
            Err(error) => failures.push(format!("line {}: {error}", row.line)),
        }
    }
    assert!(failures.is_empty(), "{} failures, first: {:?}", failures.len(), &failures[..failures.len().min(5)]);
}

#[test]
fn every_row_validates_against_its_text() {
    for row in load_rows(&data_path()).unwrap() {
        let form = LogicalForm::from_json_str(&row.json).unwrap();
        if let Err(errors) = validate(&row.text, &form) {
            panic!("line {}: {}", row.line, errors[0]);
        }
    }
}

#[test]
fn check_file_passes_the_shared_data() {
    let mut report = Vec::new();
    let summary = check_file(&data_path(), &mut report).unwrap();
    let report = String::from_utf8(report).unwrap();
    assert_eq!((summary.rows, summary.bad_rows, summary.errors), (DATA_ROWS, 0, 0), "{report}");
    assert_eq!(report, format!("checked {DATA_ROWS} rows, 0 errors\n"));
}

#[test]
fn check_file_reports_bad_rows_with_line_numbers() {
    let fixture = [
        r#"please build one zorp|{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": [0, [3, 3]]}}]}"#,
        "",
        r#"please build one zorp|{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": [0, [3, 6]]}}]}"#,
        r#"r17|fixture sideways|{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"relative_direction": "SIDEWAYS"}}]}"#,
        "just text",
        r#"fixture hello|{"dialogue_type": "NOOP", "colour": "red"}"#,
        r#"fixture stop|{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "STOP", "target_action_type": [0, [3, 1]]}, {"action_type": "MOVE", "location": [0, [0, 4]]}]}"#,
        r#"fixture hi|{"dialogue_type": "NOOP""#,
    ];
    let dir = std::env::temp_dir().join(format!("craftmate-lf-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fixture.txt");
    std::fs::write(&path, fixture.join("\n")).unwrap();

    let mut report = Vec::new();
    let summary = check_file(&path, &mut report).unwrap();
    let report = String::from_utf8(report).unwrap();
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(summary.rows, 7);
    assert_eq!(summary.bad_rows, 6);
    assert_eq!(summary.errors, 7);
    assert_eq!(
        lines,
        [
            "line 3: action_sequence[0].schematic.text_span: span [0, [3, 6]] is out of range for a text of 4 words",
            "line 4: action_sequence[0].location.relative_direction: unknown variant \"SIDEWAYS\"",
            "line 5: no `|{` separating the text from the JSON",
            "line 6: unknown field \"colour\"",
            "line 7: action_sequence[0].target_action_type: span [0, [3, 1]] starts after it ends; \
             action_sequence[1].location: span [0, [0, 4]] is out of range for a text of 2 words",
            lines[5],
            "checked 7 rows, 7 errors",
        ],
        "{report}"
    );
    assert!(lines[5].starts_with("line 8: malformed JSON"), "{report}");

    // The loader refuses the line without JSON, naming it.
    let error = load_rows(&path).unwrap_err().to_string();
    assert!(error.ends_with("fixture.txt:5: no `|{` separating the text from the JSON"), "{error}");
    let missing = check_file(&dir.join("absent.txt"), &mut Vec::new()).unwrap_err().to_string();
    assert!(missing.starts_with("cannot read ") && missing.contains("absent.txt"), "{missing}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tokenizer_is_idempotent_on_the_data() {
    let rows = load_rows(&data_path()).unwrap();
    let exceptions: Vec<&str> =
        rows.iter().map(|row| row.text.as_str()).filter(|text| normalize(text) != *text).collect();
    let share = 1.0 - exceptions.len() as f64 / rows.len() as f64;
    eprintln!(
        "tokenizer: {} of {} data texts change under normalize ({:.2} % unchanged), e.g. {:?}",
        exceptions.len(),
        rows.len(),
        share * 100.0,
        &exceptions[..exceptions.len().min(5)]
    );
    assert!(share >= 0.995, "only {:.2} % of texts are stable", share * 100.0);
}

#[test]
fn spans_read_words_of_the_normalized_chat() {
    let tokens = tokenize("Please don't build the RED house, ok?");
    assert_eq!(tokens, ["please", "do", "n't", "build", "the", "red", "house", "ok"]);
    assert_eq!(Span::new(5, 6).text(&tokens), "red house");
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
        "schematic": {"text_span": [0, [5, 6]]}}]}"#;
    let form = LogicalForm::from_json_str(json).unwrap();
    assert!(validate(&tokens.join(" "), &form).is_ok());
    let errors = validate("build house", &form).unwrap_err();
    assert!(matches!(errors[0].kind, ErrorKind::SpanOutOfRange { n_words: 2, .. }));
}

#[test]
fn parse_errors_carry_the_json_path() {
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE",
        "location": {"relative_direction": "SIDEWAYS"}}]}"#;
    let error = LogicalForm::from_json_str(json).unwrap_err();
    assert_eq!(error.path(), "action_sequence[0].location.relative_direction");
    assert_eq!(error.to_string(), "action_sequence[0].location.relative_direction: unknown variant \"SIDEWAYS\"");
}

#[test]
fn mangled_rows_never_panic() {
    use craftmate::logical_form::validate_json;
    let rows = load_rows(&data_path()).unwrap();
    let mut rejected = 0;
    for row in rows.iter().step_by(40) {
        let json = &row.json;
        let step = json.len() / 12 + 1;
        for at in (0..json.len()).step_by(step).filter(|&at| json.is_char_boundary(at)) {
            let next = json[at..].chars().next().map_or(at, |c| at + c.len_utf8());
            // Truncate, drop one character, and swap one character for a digit / a sign / a quote.
            let mut variants = vec![json[..at].to_string(), format!("{}{}", &json[..at], &json[next..])];
            for replacement in ["7", "-", "\"", "{}", "[0, [9, 1]]"] {
                variants.push(format!("{}{}{}", &json[..at], replacement, &json[next..]));
            }
            for variant in &variants {
                if validate_json(&row.text, variant).is_err() {
                    rejected += 1;
                }
            }
            let _ = tokenize(&format!("{}{}", row.text, &json[..at]));
        }
    }
    assert!(rejected > 1000, "mangling should mostly produce rejected forms, got {rejected}");
}
