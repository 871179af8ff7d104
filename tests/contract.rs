//! The typed form is the only contract below understanding: nothing in `src/interpreter` or
//! `src/tasks` reads chat text. A step's interpreter sees its typed form (its own words through
//! the form's spans, and the details understanding read); a task sees typed values only. This
//! test fails when code there tokenizes, normalizes or searches a chat line again (test modules
//! aside: they build forms from text on purpose).

use std::path::{Path, PathBuf};

/// What reading chat looks like in code.
const CHAT_READS: &[&str] = &["tokenize(", "normalize(", "has_word(", ".tokens", "turn.text", ".chat_text"]; // lexicon: code patterns, not words

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Does `code` contain `pattern` as a whole name (`turn.text`, not `turn.text_of`, which reads
/// the words of a span of the step's form)?
fn reads_chat(code: &str, pattern: &str) -> bool {
    code.match_indices(pattern).any(|(i, _)| {
        let after = code[i + pattern.len()..].chars().next();
        pattern.ends_with('(') || !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The lines of `text` before its test module, with their numbers.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().take_while(|(_, l)| !l.trim_start().starts_with("#[cfg(test)]")).map(|(i, l)| (i + 1, l))
}

#[test]
fn nothing_below_understanding_reads_the_chat() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/interpreter", "src/tasks"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20, "the interpreter and the tasks were found");
    let mut reads = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (n, line) in code_lines(&text) {
            let code = line.split("//").next().unwrap_or("");
            if let Some(p) = CHAT_READS.iter().find(|p| reads_chat(code, p)) {
                reads.push(format!("{}:{n}: {p}  {}", file.strip_prefix(root).unwrap_or(file).display(), line.trim()));
            }
        }
    }
    assert!(reads.is_empty(), "chat read below understanding (use the step's typed form):\n{}", reads.join("\n"));
}

#[test]
fn the_scan_sees_a_chat_read_and_skips_test_modules() {
    let text = "fn f(turn: &Turn) -> bool {\n    turn.has_word(\"east\")\n}\n#[cfg(test)]\nmod tests { fn g() { tokenize(\"x\"); } }\n";
    let hits: Vec<usize> = code_lines(text).filter(|(_, l)| CHAT_READS.iter().any(|p| reads_chat(l, p))).map(|(n, _)| n).collect();
    assert_eq!(hits, [2]);
    assert!(!reads_chat("turn.text_of(span)", "turn.text"), "a span's words are the form's");
    assert!(reads_chat("let t = turn.text;", "turn.text"));
}
