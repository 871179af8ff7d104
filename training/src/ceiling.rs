//! How high exact match can go on an annotated file: the annotators' own consistency, measured on
//! the same held-out split the parser is scored on.
//!
//! Exact match asks a parser to write each held-out form exactly as its annotator did. When the
//! annotators themselves write different forms for commands that mean the same thing, no parser
//! that reads only the chat can match them all, however it is trained. This module measures that
//! from the data alone, with no model:
//!
//! - **Repeated texts**: rows with the same text; how often their forms agree.
//! - **Seen trees**: held-out rows whose tree (the form with every span hidden) occurs in the
//!   training split at all. A row whose tree training never shows must be composed from parts.
//! - **Name twins**: a held-out row and a training row with the same words but one, where that
//!   word is inside a `has_name` span in both ("build a box" / "build a tent"). Swapping one
//!   object's name changes nothing else a parser should write, so the twins' forms should agree.
//!   The row counts as reachable when its own form is the most common one among its twins' (ties
//!   count for it, so the estimate errs high). This is the easiest generalisation the data asks
//!   for; a parser that copies its twins perfectly scores exactly this on these rows.
//!   Measured again with only the twins from the row's own annotation batch voting, as if the
//!   parser were told the batch (the file's conventions drift between batches).
//!
//! `craftmate-lab data-ceiling` prints the report, and with `--parser` the parser's exact match on the
//! same rows beside it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use craftmate::parser::linearize::as_span;
use craftmate::training::data::{Example, Origin};
use craftmate::training::eval::{Tally, skeleton, without_text_spans};

/// Row numbers where the released file's annotation batches start after the first (the cuts the
/// model card's tables use).
pub const BATCH_CUTS: [usize; 4] = [6000, 7000, 8000, 9000];

/// The measures of the module doc, for one split.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub training_rows: usize,
    pub validation_rows: usize,
    /// Pairs of rows (anywhere in the file) with the same lower-cased text: agreeing forms.
    pub repeats: Tally,
    /// Held-out rows whose tree occurs in the training split.
    pub seen_tree: Tally,
    /// The same, with `text_span` keys left out of both trees.
    pub seen_tree_ignoring_text_spans: Tally,
    /// For each held-out row (in order): whether its tree occurs in the training split.
    pub tree_seen: Vec<bool>,
    /// Held-out rows with a name twin in training: the row's form is its twins' most common.
    pub twins: Tally,
    /// The same, with `text_span` keys left out of every form.
    pub twins_ignoring_text_spans: Tally,
    /// Held-out rows with a name twin from their own batch: only those twins vote.
    pub twins_same_batch: Tally,
    /// [`Report::twins`] by the held-out row's batch (`a0`, `a1`, … see [`batch`]).
    pub twins_by_batch: BTreeMap<String, Tally>,
    /// For each held-out row (in order): whether it has a training twin, and whether its twins'
    /// vote gives its form. Lets a caller score a parser on the same rows.
    pub twin_votes: Vec<Option<bool>>,
    /// The held-out rows whose twins' vote gives another form than their own, in order: the
    /// examples behind [`Report::twins`]'s misses.
    pub disagreements: Vec<Disagreement>,
}

/// A held-out row whose annotator wrote another form than most of its name twins.
#[derive(Debug, Clone)]
pub struct Disagreement {
    /// The held-out row (index into the `valid` rows given to [`measure`]).
    pub row: usize,
    /// The twins' most common form.
    pub majority: Value,
    /// How many twins wrote it, of how many.
    pub votes: usize,
    pub twins: usize,
    /// One twin that wrote it, and its row in the annotation file (when it comes from one).
    pub twin_text: String,
    pub twin_row: Option<usize>,
}

/// Measures `train` against `valid` (a split of the same file; see [`craftmate::training::data::split`]).
pub fn measure(train: &[Example], valid: &[Example]) -> Report {
    let mut report = Report { training_rows: train.len(), validation_rows: valid.len(), ..Default::default() };
    report.repeats = repeats(train.iter().chain(valid));

    let trees: BTreeSet<String> = train.iter().map(|e| skeleton(&e.json).to_string()).collect();
    let trees_plain: BTreeSet<String> =
        train.iter().map(|e| skeleton(&without_text_spans(&e.json)).to_string()).collect();
    let twins = TwinIndex::new(train);
    for (i, row) in valid.iter().enumerate() {
        let seen = trees.contains(&skeleton(&row.json).to_string());
        report.seen_tree.add(seen);
        report.tree_seen.push(seen);
        report
            .seen_tree_ignoring_text_spans
            .add(trees_plain.contains(&skeleton(&without_text_spans(&row.json)).to_string()));

        let found = twins.of(row);
        if found.is_empty() {
            report.twin_votes.push(None);
            continue;
        }
        let hit = wins_vote(&row.json, found.iter().map(|t| &t.json));
        report.twins.add(hit);
        report.twin_votes.push(Some(hit));
        if !hit
            && let Some(&(majority, votes)) = counted(found.iter().map(|t| &t.json)).first()
            && let Some(twin) = found.iter().find(|t| t.json == *majority)
        {
            report.disagreements.push(Disagreement {
                row: i,
                majority: majority.clone(),
                votes,
                twins: found.len(),
                twin_text: twin.text(),
                twin_row: twin.origin.annotated_row(),
            });
        }
        report.twins_by_batch.entry(batch(row)).or_default().add(hit);
        report.twins_ignoring_text_spans.add(wins_vote(
            &without_text_spans(&row.json),
            found.iter().map(|t| without_text_spans(&t.json)).collect::<Vec<_>>().iter(),
        ));
        let same: Vec<&Example> = found.iter().copied().filter(|t| batch(t) == batch(row)).collect();
        if !same.is_empty() {
            report.twins_same_batch.add(wins_vote(&row.json, same.iter().map(|t| &t.json)));
        }
    }
    report
}

/// The annotation batch an example comes from: `a0` before the first cut, `a1` after it, …;
/// `chat`, `tpl` and `other` for examples that are not annotated rows.
pub fn batch(example: &Example) -> String {
    match example.origin {
        Origin::Annotated(row) => format!("a{}", BATCH_CUTS.iter().filter(|&&cut| row >= cut).count()),
        Origin::Chat => "chat".into(),
        Origin::Templated => "tpl".into(),
        Origin::Other => "other".into(),
    }
}

/// Every pair of rows with the same text, and whether their forms agree.
fn repeats<'a>(rows: impl Iterator<Item = &'a Example>) -> Tally {
    let mut by_text: HashMap<String, Vec<&Value>> = HashMap::new();
    for row in rows {
        by_text.entry(row.text()).or_default().push(&row.json);
    }
    let mut tally = Tally::default();
    for forms in by_text.values() {
        for (i, a) in forms.iter().enumerate() {
            for b in &forms[i + 1..] {
                tally.add(a == b);
            }
        }
    }
    tally
}

/// Whether `form` is (one of) the most common among `votes`. Forms are compared as values (key
/// order ignored).
fn wins_vote<'a>(form: &Value, votes: impl Iterator<Item = &'a Value>) -> bool {
    let counts = counted(votes);
    let best = counts.first().map_or(0, |&(_, n)| n);
    counts.iter().any(|&(v, n)| n == best && v == form)
}

/// The distinct forms among `votes` with how many times each occurs, most common first (ties in
/// the order first seen).
fn counted<'a>(votes: impl Iterator<Item = &'a Value>) -> Vec<(&'a Value, usize)> {
    let mut counts: Vec<(&Value, usize)> = Vec::new();
    for vote in votes {
        match counts.iter_mut().find(|(v, _)| *v == vote) {
            Some((_, n)) => *n += 1,
            None => counts.push((vote, 1)),
        }
    }
    counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    counts
}

/// Word positions inside a `has_name` triple's `obj_text` span, anywhere in the form.
pub fn name_positions(form: &Value) -> BTreeSet<usize> {
    fn walk(value: &Value, out: &mut BTreeSet<usize>) {
        match value {
            Value::Object(map) => {
                if map.get("pred_text").and_then(Value::as_str) == Some("has_name")
                    && let Some(span) = map.get("obj_text").and_then(as_span)
                {
                    out.extend(span.start..=span.end);
                }
                map.values().for_each(|v| walk(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    walk(form, &mut out);
    out
}

/// Training rows by (position, text with that word hidden), for the positions inside a name.
struct TwinIndex<'a> {
    by_masked: HashMap<(usize, String), Vec<&'a Example>>,
}

impl<'a> TwinIndex<'a> {
    fn new(rows: &'a [Example]) -> Self {
        let mut by_masked: HashMap<(usize, String), Vec<&'a Example>> = HashMap::new();
        for row in rows {
            for at in name_positions(&row.json) {
                if let Some(key) = masked(&row.words, at) {
                    by_masked.entry(key).or_default().push(row);
                }
            }
        }
        TwinIndex { by_masked }
    }

    /// The rows that differ from `row` in exactly one word, inside a name in both forms.
    fn of(&self, row: &Example) -> Vec<&'a Example> {
        let mut out = Vec::new();
        for at in name_positions(&row.json) {
            let Some(key) = masked(&row.words, at) else { continue };
            let twins = self.by_masked.get(&key).into_iter().flatten();
            // Same text would be the same row (the split keeps a text on one side).
            out.extend(twins.filter(|t| t.words[at] != row.words[at]));
        }
        out
    }
}

/// The words with word `at` replaced by a marker, with `at`; `None` when `at` is past the end (a
/// malformed span).
fn masked(words: &[String], at: usize) -> Option<(usize, String)> {
    if at >= words.len() {
        return None;
    }
    let mut out: Vec<&str> = words.iter().map(String::as_str).collect();
    out[at] = "\u{1}";
    Some((at, out.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: usize, text: &str, json: &str) -> Example {
        Example {
            words: text.split(' ').map(str::to_string).collect(),
            json: serde_json::from_str(json).unwrap(),
            origin: Origin::Annotated(n),
        }
    }

    /// "build a WORD", with or without the schematic's text span.
    fn build(n: usize, word: &str, with_span: bool) -> Example {
        let span = if with_span { r#""text_span": [0, [2, 2]], "# } else { "" };
        row(
            n,
            &format!("build a {word}"),
            &format!(
                r#"{{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{{"action_type": "BUILD",
                "schematic": {{{span}"filters": {{"where_clause": {{"AND": [{{"pred_text": "has_name",
                "obj_text": [0, [2, 2]]}}]}}}}}}}}]}}"#
            ),
        )
    }

    #[test]
    fn name_positions_cover_every_has_name_span_and_nothing_else() {
        let form = row(
            0,
            "put the red cube near the tall tree",
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "location": {"relative_direction": "NEAR", "reference_object": {"filters": {"where_clause":
            {"AND": [{"pred_text": "has_name", "obj_text": [0, [6, 7]]}]}}}},
            "schematic": {"text_span": [0, [2, 3]], "filters": {"where_clause": {"AND": [
            {"pred_text": "has_name", "obj_text": [0, [3, 3]]}, {"pred_text": "has_colour", "obj_text": [0, [2, 2]]}]}}}}]}"#,
        );
        assert_eq!(name_positions(&form.json).into_iter().collect::<Vec<_>>(), vec![3, 6, 7]);
    }

    #[test]
    fn a_twin_differs_in_one_name_word_only() {
        let train = [
            build(1, "tent", true),
            build(2, "hut", true),
            // "red" is not inside a name here, so "build a red" is no twin of "build a box".
            row(3, "build a red", r#"{"dialogue_type": "NOOP"}"#),
        ];
        let index = TwinIndex::new(&train);
        let twins: Vec<String> = index.of(&build(0, "box", true)).iter().map(|t| t.text()).collect();
        assert_eq!(twins, ["build a tent", "build a hut"]);
        // A row whose name word sits elsewhere has none.
        assert!(
            index
                .of(&row(
                    4,
                    "dig a box",
                    r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DIG"}]}"#
                ))
                .is_empty()
        );
    }

    #[test]
    fn twins_vote_and_disagreeing_annotators_lower_the_ceiling() {
        // Training: three "build a X" rows, two written with a text span (early batch), one without
        // (row 8500, a late batch).
        let train = vec![build(10, "tent", true), build(11, "hut", true), build(8500, "tower", false)];
        let valid = vec![
            build(20, "box", true),                                 // as the majority wrote it
            build(8600, "bed", false),  // as its own batch wrote it, not as the majority did
            build(30, "zigurat", true), // one more early row
            row(40, "hello there", r#"{"dialogue_type": "NOOP"}"#), // no twin, tree never seen
        ];
        let report = measure(&train, &valid);
        assert_eq!((report.twins.correct, report.twins.total), (2, 3));
        // Ignoring text spans every twin agrees.
        assert_eq!((report.twins_ignoring_text_spans.correct, report.twins_ignoring_text_spans.total), (3, 3));
        // Told the batch, the late row's lone same-batch twin gives its form.
        assert_eq!((report.twins_same_batch.correct, report.twins_same_batch.total), (3, 3));
        assert_eq!(report.twin_votes, [Some(true), Some(false), Some(true), None]);
        // The miss, with the form most twins wrote and one of them.
        let [miss] = report.disagreements.as_slice() else { panic!("{:?}", report.disagreements) };
        assert_eq!((miss.row, miss.votes, miss.twins), (1, 2, 3));
        assert_eq!(miss.majority, build(0, "x", true).json);
        assert_eq!((miss.twin_text.as_str(), miss.twin_row), ("build a tent", Some(10)));
        let late = &report.twins_by_batch["a3"];
        assert_eq!((late.correct, late.total), (0, 1));
        // Trees: the NOOP tree is not in training; the others are.
        assert_eq!((report.seen_tree.correct, report.seen_tree.total), (3, 4));
        assert_eq!(report.tree_seen, [true, true, true, false]);
    }

    #[test]
    fn a_tie_counts_for_the_row_so_the_ceiling_errs_high() {
        let train = vec![build(1, "tent", true), build(8500, "tower", false)];
        let report = measure(&train, &[build(2, "box", false)]);
        assert_eq!((report.twins.correct, report.twins.total), (1, 1));
    }

    #[test]
    fn repeated_texts_count_pairs_that_agree() {
        let rows = [build(1, "box", true), build(2, "box", true), build(3, "box", false), build(4, "hut", true)];
        // Three pairs of "build a box"; one agrees.
        let tally = repeats(rows.iter());
        assert_eq!((tally.correct, tally.total), (1, 3));
    }
}
