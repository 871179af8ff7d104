//! Stage 1, the condition: a where clause (AND/OR/NOT of triples and comparators) compiled to one
//! SQL expression over the candidate's memory id.
//!
//! Each triple becomes "the candidate has a triple with this predicate whose key is one of these
//! keys": `m.id IN (SELECT subj FROM triples WHERE pred IN (…) AND obj_key IN (…))`, answered from
//! the `(pred, obj_key, subj)` index. What the keys and predicates are depends on the predicate:
//!
//! - `has_name` / `has_tag` (and predicates the bot has no special meaning for, like
//!   `has_orientation`): names, tags and perceived shapes, by lemma — "houses" finds a house, "box"
//!   a cube. A name that is a colour or size word also matches those ("the red one"). A name of
//!   several words matches as a whole, or word by word (the last word as a name, the others as any
//!   attribute: "red tower" is a tower that is red).
//! - `has_colour`: canonical colours ("grey" → gray); `has_size`: size classes ("large" → big,
//!   and big also finds huge, or the word as a tag); `has_block_type`: block ids containing the words ("wool").
//! - `has_height`, `has_width`, … with a number: the object's measured extent, or a told value.
//! - `{"fixed_value": "SELF"}` is the agent, `SPEAKER` the speaker, `CURRENTLY_RUNNING` a running
//!   task. A triple's `obj`/`subj` filters run as nested queries (memories related to those).
//!
//! Comparators compare an attribute of the candidate (HEIGHT, SIZE, X…) with a number.
//! `NOT [a, b]` means none of a, b holds. An empty AND holds; an empty OR does not.

use rusqlite::types::Value as SqlValue;

use super::super::error::Result;
use super::super::store::Memory;
use super::super::types::MemoryId;
use super::candidates::{Condition, Source};
use super::names::{
    NUMERIC_PREDICATES, block_types_matching, colour_key, name_key, number_in, number_key, size_class,
    size_matches, stored_key,
};
use super::Resolved;
use crate::logical_form::{
    Attribute, AttributeName, ComparisonType, Comparator, Filters, FixedText, Operand, Output, Predicate,
    TextValue, Triple, WhereClause, WhereItem,
};
use crate::world::blocks::canonical_colour;

/// Predicates that name a thing: matched together for has_name and has_tag.
const NAMING: &[&str] = &["has_name", "has_tag", "has_shape"];

/// Compiles the filters' where clause for `source` (`1` when there is none).
///
/// Speed matters here (a query must stay well under a millisecond over 10,000 objects), and
/// SQLite pays about a microsecond per correlated sub-query, so the common case is done
/// differently: the *simple* conditions of a top-level AND — one predicate/key lookup each, like
/// "has colour red" and "has name tower" — are read as id lists straight off the
/// `(pred, obj_key, subj)` index (a range scan costs a few nanoseconds a row) and intersected
/// here; the result drives the candidate fetch. Anything else (OR, NOT, comparators, measures,
/// fixed values) stays SQL: as `m.id IN (…)` when it has to produce the candidates, and as a
/// correlated `EXISTS` when it only checks candidates found otherwise.
pub fn compile(memory: &Memory, filters: &Filters, source: Source, env: &Resolved, depth: usize) -> Result<Condition> {
    let mut top: Vec<&WhereItem> = Vec::new();
    let mut rest: Vec<&WhereClause> = Vec::new();
    match &filters.where_clause {
        Some(WhereClause::And(items)) => top.extend(items.iter()),
        Some(other) => rest.push(other),
        None => {}
    }
    let mut extra_triples: Vec<&Triple> = Vec::new();
    if let Some(selector) = filters.selector.as_ref().and_then(|s| s.as_selector()) {
        // A noisy form puts triples or a clause inside the selector; they still constrain.
        if let Some(clause) = &selector.where_clause {
            rest.push(clause);
        }
        extra_triples.extend(selector.triples.iter().flatten());
    }
    // Split the top-level AND into simple lookups and the rest.
    let mut lookups: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut complex: Vec<&WhereItem> = Vec::new();
    for item in top {
        let mut probe =
            Builder { memory, env, source, depth, params: Vec::new(), mode: Mode::In, specs: Vec::new(), probe: true };
        let sql = probe.item(item)?;
        match (sql.trim_start_matches('(').trim_end_matches(')'), probe.specs.as_slice()) {
            (PROBE_MARK, [spec]) => lookups.push(spec.clone()),
            _ => complex.push(item),
        }
    }
    let ids = if lookups.is_empty() { None } else { Some(intersect(memory, &lookups)?) };
    let mut builder = Builder { memory, env, source, depth, params: Vec::new(), mode: Mode::In, specs: Vec::new(), probe: false };
    if ids.is_some() {
        builder.mode = Mode::Exists;
    }
    let mut parts = Vec::new();
    for item in complex {
        parts.push(builder.item(item)?);
        builder.mode = Mode::Exists;
    }
    for clause in rest {
        parts.push(builder.clause(clause)?);
        builder.mode = Mode::Exists;
    }
    for triple in extra_triples {
        parts.push(builder.triple(triple)?);
        builder.mode = Mode::Exists;
    }
    let sql = if parts.is_empty() { "1".to_string() } else { parts.join(" AND ") };
    Ok(Condition { sql, params: builder.params, ids })
}

/// The sorted, distinct subjects with a triple `pred ∈ preds`, `obj_key ∈ keys`.
fn read_lookup(memory: &Memory, preds: &[String], keys: &[String]) -> Result<Vec<MemoryId>> {
    let marks = |from: usize, n: usize| (from..from + n).map(|k| format!("?{k}")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "SELECT subj FROM triples WHERE pred IN ({}) AND obj_key IN ({})",
        marks(1, preds.len()),
        marks(1 + preds.len(), keys.len())
    );
    let mut stmt = memory.conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(preds.iter().chain(keys.iter())), |r| r.get(0))?;
    let mut ids: Vec<MemoryId> = rows.collect::<rusqlite::Result<_>>()?;
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

/// What a probing [`Builder`] writes for a lookup, to recognise items that are nothing else.
const PROBE_MARK: &str = "\u{1}lookup\u{1}";

/// The subjects matching every lookup, sorted. Lists come from the memory's lookup cache or the
/// covering index, and are intersected smallest-first; an empty list stops early.
fn intersect(memory: &Memory, lookups: &[(Vec<String>, Vec<String>)]) -> Result<Vec<MemoryId>> {
    let mut lists: Vec<std::rc::Rc<Vec<MemoryId>>> = Vec::with_capacity(lookups.len());
    for lookup in lookups {
        let ids = match memory.lookups.get(lookup) {
            Some(ids) => ids,
            None => {
                let ids = std::rc::Rc::new(read_lookup(memory, &lookup.0, &lookup.1)?);
                memory.lookups.put(lookup.clone(), ids.clone());
                ids
            }
        };
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        lists.push(ids);
    }
    lists.sort_by_key(|l| l.len());
    let mut iter = lists.into_iter();
    let mut acc: Vec<MemoryId> = iter.next().map(|l| l.as_ref().clone()).unwrap_or_default();
    for list in iter {
        acc.retain(|id| list.binary_search(id).is_ok());
        if acc.is_empty() {
            break;
        }
    }
    Ok(acc)
}

/// How a "has this triple" condition is written (see [`compile`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `m.id IN (SELECT subj …)`: produces candidates.
    In,
    /// `EXISTS (SELECT 1 … WHERE subj = m.id …)`: checks one candidate.
    Exists,
}

struct Builder<'a, 'e> {
    memory: &'a Memory,
    env: &'a Resolved<'e>,
    source: Source,
    depth: usize,
    params: Vec<SqlValue>,
    mode: Mode,
    /// Every (predicates, keys) lookup written so far (how [`compile`] tells simple items).
    specs: Vec<(Vec<String>, Vec<String>)>,
    /// Only collecting `specs`: nested queries are not run.
    probe: bool,
}

impl Builder<'_, '_> {
    /// Adds a parameter and returns its placeholder.
    fn param(&mut self, v: impl Into<SqlValue>) -> String {
        self.params.push(v.into());
        format!("?{}", self.params.len())
    }

    /// `(?a, ?b, …)` for a list of texts.
    fn list(&mut self, items: &[String]) -> String {
        let marks: Vec<String> = items.iter().map(|i| self.param(i.clone())).collect();
        format!("({})", marks.join(", "))
    }

    fn clause(&mut self, clause: &WhereClause) -> Result<String> {
        let items: Vec<String> = clause.items().iter().map(|i| self.item(i)).collect::<Result<_>>()?;
        Ok(match clause {
            WhereClause::And(_) if items.is_empty() => "1".into(),
            WhereClause::And(_) => format!("({})", items.join(" AND ")),
            WhereClause::Or(_) if items.is_empty() => "0".into(),
            WhereClause::Or(_) => format!("({})", items.join(" OR ")),
            WhereClause::Not(_) if items.is_empty() => "1".into(),
            WhereClause::Not(_) => format!("(NOT ({}))", items.join(" OR ")),
        })
    }

    fn item(&mut self, item: &WhereItem) -> Result<String> {
        match item {
            WhereItem::Triple(t) => self.triple(t),
            WhereItem::Clause(c) => self.clause(c),
            WhereItem::Comparator(c) => Ok(self.comparator(c)),
        }
    }

    /// Candidates having a triple `pred ∈ preds` whose key is one of `keys`.
    fn has(&mut self, preds: &[&str], keys: &[String]) -> String {
        if keys.is_empty() {
            return "0".into();
        }
        let preds: Vec<String> = preds.iter().map(|p| p.to_string()).collect();
        self.specs.push((preds.clone(), keys.to_vec()));
        if self.probe {
            return PROBE_MARK.to_string();
        }
        let preds = self.list(&preds);
        let keys = self.list(keys);
        match self.mode {
            Mode::In => format!("m.id IN (SELECT subj FROM triples WHERE pred IN {preds} AND obj_key IN {keys})"),
            Mode::Exists => format!(
                "EXISTS (SELECT 1 FROM triples x WHERE x.subj = m.id AND x.pred IN {preds} AND x.obj_key IN {keys})"
            ),
        }
    }

    fn triple(&mut self, t: &Triple) -> Result<String> {
        let pred = t.pred_text.as_str();
        // Related memories: "the house next to the tower" style triples with nested filters.
        if self.probe && (t.obj.is_some() || t.subj.is_some() || t.subj_text.is_some()) {
            // Related-memory triples are never chosen to drive; no need to run their queries.
            self.specs.push((Vec::new(), Vec::new()));
            self.specs.push((Vec::new(), Vec::new()));
            return Ok("1".into());
        }
        if let Some(obj) = &t.obj {
            let ids = self.memory.query_resolved(obj, self.env, self.depth + 1)?.ids();
            let pred = self.param(pred.to_string());
            let ids = self.id_list(&ids);
            return Ok(format!("m.id IN (SELECT subj FROM triples WHERE pred = {pred} AND obj IN {ids})"));
        }
        if let Some(subj) = &t.subj {
            let ids = self.memory.query_resolved(subj, self.env, self.depth + 1)?.ids();
            let pred = self.param(pred.to_string());
            let ids = self.id_list(&ids);
            return Ok(format!("m.id IN (SELECT obj FROM triples WHERE pred = {pred} AND subj IN {ids})"));
        }
        if let Some(TextValue::Span(span)) = &t.subj_text {
            let words = self.env.words(*span);
            let naming: Vec<String> = NAMING.iter().map(|p| p.to_string()).collect();
            let naming = self.list(&naming);
            let key = self.param(name_key(&words.join(" ")));
            let pred = self.param(pred.to_string());
            return Ok(format!(
                "m.id IN (SELECT obj FROM triples WHERE pred = {pred} AND subj IN \
                 (SELECT subj FROM triples WHERE pred IN {naming} AND obj_key = {key}))"
            ));
        }
        match &t.obj_text {
            None => Ok("1".into()),
            Some(TextValue::Fixed(fixed)) => Ok(self.fixed(fixed.fixed_value)),
            Some(TextValue::Span(span)) => {
                let words = self.env.words(*span);
                if words.is_empty() {
                    // A span outside the chat says nothing we can check.
                    return Ok("1".into());
                }
                Ok(self.text_triple(t.pred_text, &words))
            }
        }
    }

    /// SELF, SPEAKER, CURRENTLY_RUNNING.
    fn fixed(&mut self, value: FixedText) -> String {
        match value {
            FixedText::SelfRef | FixedText::Agent => match self.env.self_id {
                Some(id) => format!("m.id = {}", self.param(id)),
                None => "0".into(),
            },
            FixedText::Speaker => match self.env.speaker_id {
                Some(id) => format!("m.id = {}", self.param(id)),
                None => "0".into(),
            },
            FixedText::CurrentlyRunning => match self.source {
                Source::Tasks => "k.state = 'running'".into(),
                _ => "0".into(),
            },
        }
    }

    fn text_triple(&mut self, pred: Predicate, words: &[String]) -> String {
        let text = words.join(" ");
        match pred {
            Predicate::HasColour => {
                let mut keys = vec![colour_key(&text)];
                keys.extend(words.iter().filter_map(|w| canonical_colour(w)).map(str::to_string));
                dedup(&mut keys);
                self.has(&["has_colour"], &keys)
            }
            Predicate::HasBlockType => {
                let mut keys: Vec<String> = block_types_matching(&text).into_iter().map(str::to_string).collect();
                keys.push(stored_key("has_block_type", &text));
                dedup(&mut keys);
                self.has(&["has_block_type"], &keys)
            }
            Predicate::HasSize => {
                let mut keys: Vec<String> =
                    words.iter().flat_map(|w| size_matches(w)).map(str::to_string).collect();
                dedup(&mut keys);
                if keys.is_empty() {
                    // Not a size word ("the 5x5 one"): treat it as a tag.
                    return self.naming(words, &[]);
                }
                // A size word can also be a tag the player gave ("tag the tower as tall", then
                // "the tall thing"): a perceived size class or that tag.
                let size = self.has(&["has_size"], &keys);
                let tagged = self.has(&["has_tag"], &[name_key(&text)]);
                format!("({size} OR {tagged})")
            }
            Predicate::HasName | Predicate::HasTag => self.naming(words, &[]),
            p if NUMERIC_PREDICATES.contains(&p.as_str()) => match number_in(words) {
                Some(n) => self.measure(p.as_str(), n),
                None => self.naming(words, &[p.as_str()]),
            },
            other => self.naming(words, &[other.as_str()]),
        }
    }

    /// Names, tags and shapes (plus `extra` predicates), with the fallbacks of the module docs.
    fn naming(&mut self, words: &[String], extra: &[&str]) -> String {
        let mut preds: Vec<&str> = NAMING.to_vec();
        preds.extend_from_slice(extra);
        let whole = name_key(&words.join(" "));
        let mut options = vec![self.has(&preds, std::slice::from_ref(&whole))];
        // Tasks are named by what they do ("what are you building" → BUILD).
        if self.source == Source::Tasks {
            let p = self.param(whole.clone());
            options.push(format!("lower(k.action) = {p}"));
        }
        if let [word] = words {
            if let Some(colour) = canonical_colour(word) {
                options.push(self.has(&["has_colour"], &[colour.to_string()]));
            }
            if size_class(word).is_some() {
                let keys: Vec<String> = size_matches(word).into_iter().map(str::to_string).collect();
                options.push(self.has(&["has_size"], &keys));
            }
        }
        let content: Vec<&String> = words.iter().filter(|w| !name_key(w).is_empty()).collect();
        if content.len() >= 2 {
            let (last, rest) = content.split_last().expect("two or more words");
            let mut all = vec![self.has(&preds, &[name_key(last)])];
            for w in rest {
                all.push(self.any_attribute(w));
            }
            options.push(format!("({})", all.join(" AND ")));
        }
        format!("({})", options.join(" OR "))
    }

    /// A single descriptive word as any attribute: a name, tag, shape, colour, size or block type.
    fn any_attribute(&mut self, word: &str) -> String {
        let mut keys = vec![name_key(word)];
        if let Some(c) = canonical_colour(word) {
            keys.push(c.to_string());
        }
        keys.extend(size_matches(word).into_iter().map(str::to_string));
        keys.extend(block_types_matching(word).into_iter().map(str::to_string));
        dedup(&mut keys);
        self.has(&["has_name", "has_tag", "has_shape", "has_colour", "has_size", "has_block_type"], &keys)
    }

    /// `has_height 5`: the measured extent (for things with a box) or a told value.
    fn measure(&mut self, pred: &str, n: f64) -> String {
        let told = self.has(&[pred], &[number_key(n)]);
        let extent = match (self.source.is_spatial(), extent_sql(pred)) {
            (true, Some(expr)) => {
                let p = self.param(n);
                format!(" OR ({expr}) = {p}")
            }
            _ => String::new(),
        };
        format!("({told}{extent})")
    }

    fn id_list(&mut self, ids: &[i64]) -> String {
        if ids.is_empty() {
            return "(NULL)".into();
        }
        let marks: Vec<String> = ids.iter().map(|i| self.param(*i)).collect();
        format!("({})", marks.join(", "))
    }

    /// `HEIGHT > 5`-style comparisons. A side that cannot be measured makes the comparator hold
    /// vacuously (noisy forms must not empty the answer).
    fn comparator(&mut self, c: &Comparator) -> String {
        let (Some(left), Some(right)) = (self.operand(&c.input_left), self.operand(&c.input_right)) else {
            return "1".into();
        };
        match c.comparison_type {
            ComparisonType::Equal => format!("({left}) = ({right})"),
            ComparisonType::NotEqual => format!("({left}) <> ({right})"),
            ComparisonType::GreaterThan => format!("({left}) > ({right})"),
            ComparisonType::LessThan => format!("({left}) < ({right})"),
            ComparisonType::GreaterThanEqual => format!("({left}) >= ({right})"),
            ComparisonType::LessThanEqual => format!("({left}) <= ({right})"),
            ComparisonType::CloseTo => format!("abs(({left}) - ({right})) <= 1"),
            ComparisonType::ModEqual | ComparisonType::ModClose => "1".into(),
        }
    }

    /// An operand as SQL: a number from the chat, or an attribute of the candidate.
    fn operand(&mut self, op: &Operand) -> Option<String> {
        if let Some(span) = op.value {
            let n = number_in(&self.env.words(span))?;
            return Some(self.param(n));
        }
        let filters = op.filters.as_ref()?;
        let Some(Output::Attribute(out)) = &filters.output else { return None };
        let Attribute::Name(name) = &out.attribute else { return None };
        attribute_sql(*name, self.source, self.env.ctx.tick)
    }
}

/// The SQL of an object's measured extent for a numeric predicate.
fn extent_sql(pred: &str) -> Option<&'static str> {
    Some(match pred {
        "has_height" => "o.max_y - o.min_y + 1",
        "has_width" | "has_length" => "max(o.max_x - o.min_x, o.max_z - o.min_z) + 1",
        "has_depth" | "has_thickness" => "min(o.max_x - o.min_x, o.max_z - o.min_z) + 1",
        "has_radius" => "(max(o.max_x - o.min_x, o.max_y - o.min_y, o.max_z - o.min_z) + 1) / 2",
        _ => return None,
    })
}

/// The SQL of a numeric attribute of a candidate.
pub fn attribute_sql(name: AttributeName, source: Source, tick: u64) -> Option<String> {
    let spatial = source.is_spatial();
    Some(match name {
        AttributeName::Height if spatial => "o.max_y - o.min_y + 1".into(),
        AttributeName::Width if spatial => "max(o.max_x - o.min_x, o.max_z - o.min_z) + 1".into(),
        AttributeName::Size | AttributeName::VoxelCount if spatial => "o.voxels".into(),
        AttributeName::X if spatial => "o.x".into(),
        AttributeName::Y if spatial => "o.y".into(),
        AttributeName::Z if spatial => "o.z".into(),
        AttributeName::BornTime | AttributeName::CreateTime => "m.created_tick".into(),
        AttributeName::ModifyTime => "m.updated_tick".into(),
        AttributeName::CurrentTime => format!("{}", tick.min(i64::MAX as u64)),
        _ => return None,
    })
}

fn dedup(keys: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    keys.retain(|k| !k.is_empty() && seen.insert(k.clone()));
}
