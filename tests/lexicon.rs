//! No word list is written in code: every list of words the bot reads chat with lives in
//! `data/lexicon.toml` (issue 43). This test scans every `.rs` file under `src/` (test modules
//! and test files left out) for
//!
//! - an array or slice literal holding three or more string literals that are lower-case words or
//!   phrases (`["north", "south", "east"]`, `&[("one", 1), ("two", 2), …]`),
//! - `matches!(…, "a" | "b" | "c")` with three or more such words,
//! - a `match` whose arm patterns hold three or more such words.
//!
//! A list may stay in code only with a comment `// lexicon: <why it is not word knowledge>` on
//! its first line or the line above (game ids, file names, output vocabulary, test data). Files
//! still being migrated by hand are listed in [`PENDING`]: their lists are counted and shown but
//! do not fail the test; remove a file from it once its lists are gone.
//!
//! `LEXICON_SCAN_ROOT=some/src cargo test --test lexicon -- --nocapture` scans another tree (to
//! count the lists an older checkout had).

use std::path::{Path, PathBuf};

// lexicon: file paths (prefixes) still being migrated, not words.
const PENDING: &[&str] = &[];

/// The fewest word literals that make a list.
const AT_LEAST: usize = 3;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    Ident(String),
    Punct(char),
}

/// A token and the line (1-based) it starts on.
type Token = (Tok, usize);

struct Lexed {
    tokens: Vec<Token>,
    /// Lines carrying a `// lexicon:` comment.
    allowed_lines: Vec<usize>,
}

/// Splits Rust source into string literals, identifiers and punctuation; comments are dropped
/// but `// lexicon:` ones are remembered by line.
fn lex(src: &str) -> Lexed {
    let c: Vec<char> = src.chars().collect();
    let (mut i, mut line) = (0, 1);
    let mut tokens = Vec::new();
    let mut allowed_lines = Vec::new();
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'/') {
            let end = c[i..].iter().position(|&x| x == '\n').map_or(c.len(), |p| i + p);
            let text: String = c[i..end].iter().collect();
            if text.trim_start_matches('/').trim_start().starts_with("lexicon:") {
                allowed_lines.push(line);
            }
            i = end;
        } else if ch == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if ch == '"' || (matches!(ch, 'r' | 'b') && raw_string_start(&c, i).is_some()) {
            let start_line = line;
            let (text, end) = string_literal(&c, i);
            line += c[i..end].iter().filter(|&&x| x == '\n').count();
            tokens.push((Tok::Str(text), start_line));
            i = end;
        } else if ch == '\'' {
            // A char literal ('a', '\n', '\'') or a lifetime ('a).
            if c.get(i + 1) == Some(&'\\') {
                let close = c[i + 2..].iter().position(|&x| x == '\'').map_or(c.len(), |p| i + 2 + p);
                i = close + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            tokens.push((Tok::Ident(c[start..i].iter().collect()), line));
        } else {
            tokens.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    Lexed { tokens, allowed_lines }
}

/// For `r"…"`, `r#"…"#`, `b"…"`, `br"…"`: the number of `#`s, if a string starts at `i`.
fn raw_string_start(c: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if c.get(j) == Some(&'b') {
        j += 1;
    }
    if c.get(j) == Some(&'r') {
        j += 1;
        let hashes = c[j..].iter().take_while(|&&x| x == '#').count();
        return (c.get(j + hashes) == Some(&'"')).then_some(hashes);
    }
    (j > i && c.get(j) == Some(&'"')).then_some(0)
}

/// The text of the string literal starting at `i` and the index just past it.
fn string_literal(c: &[char], i: usize) -> (String, usize) {
    let raw = c[i] != '"' && c[i..].iter().take(2).any(|&x| x == 'r');
    let hashes = if c[i] == '"' { 0 } else { raw_string_start(c, i).unwrap_or(0) };
    let mut j = c[i..].iter().position(|&x| x == '"').map_or(c.len(), |p| i + p) + 1;
    let mut text = String::new();
    while j < c.len() {
        if raw {
            if c[j] == '"' && c[j + 1..].iter().take(hashes).filter(|&&x| x == '#').count() == hashes {
                return (text, j + 1 + hashes);
            }
        } else if c[j] == '\\' {
            text.push(c[j]);
            if let Some(&n) = c.get(j + 1) {
                text.push(n);
            }
            j += 2;
            continue;
        } else if c[j] == '"' {
            return (text, j + 1);
        }
        text.push(c[j]);
        j += 1;
    }
    (text, c.len())
}

/// A lower-case word or phrase: `^[a-z][a-z' -]*$`.
fn is_word(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars().all(|c| c.is_ascii_lowercase() || matches!(c, '\'' | ' ' | '-'))
}

/// Drops `#[cfg(test)] mod … { … }` blocks.
fn without_test_modules(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let attr = [
            Tok::Punct('#'),
            Tok::Punct('['),
            Tok::Ident("cfg".into()),
            Tok::Punct('('),
            Tok::Ident("test".into()),
            Tok::Punct(')'),
            Tok::Punct(']'),
        ];
        if tokens.len() >= i + attr.len() && tokens[i..i + attr.len()].iter().map(|t| &t.0).eq(attr.iter()) {
            let mut j = i + attr.len();
            if tokens.get(j).is_some_and(|t| t.0 == Tok::Ident("pub".into())) {
                j += 1;
            }
            if tokens.get(j).is_some_and(|t| t.0 == Tok::Ident("mod".into())) {
                if let Some(open) = (j..tokens.len()).find(|&k| matches!(tokens[k].0, Tok::Punct('{' | ';'))) {
                    i = if tokens[open].0 == Tok::Punct(';') { open + 1 } else { closing(&tokens, open) + 1 };
                    continue;
                }
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// The index of the bracket closing the one at `open`.
fn closing(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0i32;
    for (k, (t, _)) in tokens.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    tokens.len().saturating_sub(1)
}

/// A word list found in code.
#[derive(Debug, Clone)]
struct Found {
    file: String,
    line: usize,
    words: Vec<String>,
    allowed: bool,
}

fn words_in(tokens: &[Token]) -> Vec<(String, usize)> {
    tokens
        .iter()
        .filter_map(|(t, l)| if let Tok::Str(s) = t { is_word(s).then(|| (s.clone(), *l)) } else { None })
        .collect()
}

/// Word literals in the arm patterns of the match block `{ … }` at `open`.
fn match_patterns(tokens: &[Token], open: usize) -> Vec<(String, usize)> {
    let close = closing(tokens, open);
    let mut found = Vec::new();
    let mut k = open + 1;
    while k < close {
        // The pattern: up to `=>` at this level.
        let start = k;
        let mut depth = 0i32;
        while k < close
            && !(depth == 0
                && tokens[k].0 == Tok::Punct('=')
                && tokens.get(k + 1).is_some_and(|t| t.0 == Tok::Punct('>')))
        {
            match tokens[k].0 {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => depth -= 1,
                _ => {}
            }
            k += 1;
        }
        // Guards (`if …`) are not patterns.
        let guard = (start..k).find(|&g| tokens[g].0 == Tok::Ident("if".into())).unwrap_or(k);
        found.extend(words_in(&tokens[start..guard]));
        k += 2;
        // The body: a block, or an expression up to `,` at this level.
        let mut depth = 0i32;
        while k < close {
            match tokens[k].0 {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    depth -= 1;
                    let next = tokens.get(k + 1).map(|t| &t.0);
                    let continues = matches!(next, Some(Tok::Punct(',' | '.' | '?' | ')' | ']')))
                        || next == Some(&Tok::Ident("else".into()));
                    if depth == 0 && tokens[k].0 == Tok::Punct('}') && !continues {
                        k += 1;
                        break;
                    }
                }
                Tok::Punct(',') if depth == 0 => {
                    k += 1;
                    break;
                }
                _ => {}
            }
            k += 1;
        }
    }
    found
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "in" | "return"
            | "break"
            | "match"
            | "if"
            | "else"
            | "for"
            | "while"
            | "let"
            | "mut"
            | "const"
            | "static"
            | "move"
    )
}

/// The word lists in one file's tokens.
fn lists(file: &str, lexed: &Lexed) -> Vec<Found> {
    let tokens = without_test_modules(lexed.tokens.clone());
    let mut out = Vec::new();
    let mut push = |start_line: usize, words: Vec<(String, usize)>| {
        if words.len() >= AT_LEAST {
            let last = words[0].1;
            let allowed = lexed.allowed_lines.iter().any(|&l| l + 1 >= start_line && l <= last);
            out.push(Found {
                file: file.to_string(),
                line: start_line,
                words: words.into_iter().map(|w| w.0).collect(),
                allowed,
            });
        }
    };
    let mut i = 0;
    while i < tokens.len() {
        let (t, line) = &tokens[i];
        let prev = i.checked_sub(1).map(|p| &tokens[p].0);
        match t {
            Tok::Punct('[') => {
                let index = matches!(prev, Some(Tok::Punct(')' | ']' | '#')))
                    || matches!(prev, Some(Tok::Ident(p)) if !is_keyword(p));
                if !index {
                    let close = closing(&tokens, i);
                    let words = words_in(&tokens[i..close]);
                    if words.len() >= AT_LEAST {
                        push(*line, words);
                        i = close + 1;
                        continue;
                    }
                }
            }
            Tok::Ident(name) if name == "matches" && tokens.get(i + 1).is_some_and(|t| t.0 == Tok::Punct('!')) => {
                if let Some(open) = tokens.get(i + 2).filter(|t| t.0 == Tok::Punct('(')).map(|_| i + 2) {
                    let close = closing(&tokens, open);
                    let mut depth = 0;
                    let comma = (open + 1..close).find(|&k| {
                        match tokens[k].0 {
                            Tok::Punct('(' | '[' | '{') => depth += 1,
                            Tok::Punct(')' | ']' | '}') => depth -= 1,
                            _ => {}
                        }
                        depth == 0 && tokens[k].0 == Tok::Punct(',')
                    });
                    if let Some(comma) = comma {
                        push(*line, words_in(&tokens[comma..close]));
                    }
                }
            }
            Tok::Ident(name) if name == "match" => {
                let mut depth = 0;
                let open = (i + 1..tokens.len()).find(|&k| {
                    match tokens[k].0 {
                        Tok::Punct('(' | '[') => depth += 1,
                        Tok::Punct(')' | ']') => depth -= 1,
                        _ => {}
                    }
                    depth == 0 && tokens[k].0 == Tok::Punct('{')
                });
                if let Some(open) = open {
                    push(*line, match_patterns(&tokens, open));
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name != "tests.rs" && !name.ends_with("_tests.rs") {
                out.push(p);
            }
        }
    }
}

fn scan(root: &Path) -> Vec<Found> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let mut found = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(&f).expect("a readable source file");
        let rel = format!("src/{}", f.strip_prefix(root).unwrap_or(&f).display());
        found.extend(lists(&rel, &lex(&src)));
    }
    found
}

#[test]
fn no_word_lists_in_code() {
    let root = std::env::var("LEXICON_SCAN_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let found = scan(&root);
    let pending = |f: &Found| PENDING.iter().any(|p| f.file.starts_with(p));
    let (allowed, rest): (Vec<&Found>, Vec<&Found>) = found.iter().partition(|f| f.allowed);
    let (waiting, failing): (Vec<&Found>, Vec<&Found>) = rest.into_iter().partition(|f| pending(f));
    println!(
        "word lists in code: {} ({} allowed by a `// lexicon:` comment, {} in files being migrated, {} not allowed)",
        found.len(),
        allowed.len(),
        waiting.len(),
        failing.len()
    );
    let show = |f: &&Found| format!("  {}:{} {:?}", f.file, f.line, &f.words[..f.words.len().min(6)]);
    if !waiting.is_empty() {
        println!("in files being migrated (PENDING):\n{}", waiting.iter().map(show).collect::<Vec<_>>().join("\n"));
    }
    assert!(
        failing.is_empty(),
        "word lists written in code: move them to data/lexicon.toml (or say why not with `// lexicon: …` above):\n{}",
        failing.iter().map(show).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_scanner_finds_lists_and_respects_comments() {
    let src = r#"
const A: &[&str] = &["north", "south", "east"];
// lexicon: block ids
const B: &[&str] = &["stone", "dirt", "sand"];
fn f(w: &str) -> bool { matches!(w, "a" | "b" | "c") || v["key"] == 1 }
fn g(w: &str) -> i32 { match w { "one" => 1, "two" | "three" => { 2 } _ if w == "zz" => 0, _ => 3 } }
const C: &[(&str, i32)] = &[("x_y", 1), ("has_name", 2), ("Upper", 3)];
#[cfg(test)]
mod tests { const D: &[&str] = &["left", "right", "up"]; }
"#;
    let found = lists("x.rs", &lex(src));
    let lines: Vec<(usize, bool)> = found.iter().map(|f| (f.line, f.allowed)).collect();
    assert_eq!(lines, vec![(2, false), (4, true), (5, false), (6, false)], "{found:?}");
    assert_eq!(found[3].words, ["one", "two", "three"]);
}
