//! Grammar-constrained decoding (greedy or a beam): at each step only tokens the [`Grammar`]
//! allows are considered, spans are the best (start ≤ end) pair of word pointers, and the
//! log-probabilities of the choices (renormalised over the allowed ones) that change what the bot
//! does become the confidence. The log-probabilities come from one network or from an
//! [`Ensemble`] of networks that vote at every step.

use candle_core::Result;

use super::grammar::{Grammar, State};
use super::linearize::{BOS, EOS, SPAN};
use super::model::{DecoderCache, Encoded, Seq2Seq};
use super::vocab::OutVocab;
use crate::logical_form::Span;

/// A decoded sequence: tokens, spans, the summed log-probability of every choice (for ranking),
/// and the log-probability of each choice that changes what the bot does (for the confidence):
/// tokens the grammar forces are no choice, and neither is a `text_span` — whether the annotators
/// would have written one, and where its edges fall, never changes the action — nor a
/// `dialogue_target` (whom a command was addressed to: the bot acts on it either way).
#[derive(Debug, Clone, Default)]
pub struct Decoded {
    pub tokens: Vec<String>,
    pub spans: Vec<Span>,
    pub log_prob: f32,
    pub choices: Vec<Choice>,
}

/// One decision that changes what the bot does, kept so a low confidence can be explained
/// (`craftmate parse --explain`, `eval-parser --dump`): which token or words were chosen, and how
/// sure the model was.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Choice {
    /// The output token chosen (`k:location`, `v:BUILD`, …), or `<span>` for a span's words.
    pub token: String,
    /// For a span, the first and last word it picked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<(usize, usize)>,
    pub log_prob: f32,
    /// The likeliest token not chosen (`None` for spans): what the doubt was between.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rival: Option<String>,
}

/// What a choice decided, for understanding to set aside the choices it read from the words
/// instead (measures, a place): the parser's output tokens are named here and nowhere else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum About {
    /// A measure, colour or material predicate, or a bracket that decided how many triples.
    Measure,
    /// A location: its keys, its directions, its reference to the speaker or agent.
    Location,
    /// A ranking: the selector, its measure and which end wins.
    Ranking,
    /// Anything else: the action, the thing, a span's words.
    Other,
}

/// Tokens whose choice is about a measure (see [`About::Measure`]).
const MEASURE_TOKENS: &[&str] = &[
    "v:has_width", "v:has_height", "v:has_length", "v:has_depth", "v:has_thickness", "v:has_radius", "v:has_size", "v:has_colour",
    "v:has_block_type", "{", "}", "[", "]",
];

/// Tokens whose choice is about a location (see [`About::Location`]).
const LOCATION_TOKENS: &[&str] = &[
    "k:location", "k:reference_object", "k:special_reference", "k:relative_direction", "k:steps", "k:fixed_value", "k:contains_coreference",
    "k:has_measure", "k:text_span", "v:SPEAKER", "v:AGENT", "v:FRONT", "v:BACK", "v:LEFT", "v:RIGHT", "v:UP", "v:DOWN", "v:AWAY", "v:NEAR",
    "v:INSIDE", "v:BETWEEN", "v:OUTSIDE", "v:AROUND", "v:yes",
];

/// Tokens whose choice is about a ranking (see [`About::Ranking`]).
const RANKING_TOKENS: &[&str] = &[
    "k:selector", "k:return_quantity", "k:argval", "k:polarity", "k:quantity", "k:attribute", "v:MIN", "v:MAX", "v:HEIGHT", "v:LOCATION",
    "v:SIZE", "v:WIDTH",
];

/// Tokens that say which action a command is (the actions a mob's words may be read as).
const ACTION_TOKENS: &[&str] = &["v:BUILD", "v:SPAWN", "v:OTHERACTION", "v:GET", "v:MOVE", "v:FILL", "v:DIG"];

/// Tokens that write how many things a command is about (a count said in the words: "4 pillars").
const COUNT_TOKENS: &[&str] = &["k:remove_condition", "v:RUN_COUNT", "k:selector", "k:ordinal", "k:return_quantity", "v:RANDOM", "k:same", "v:ALLOWED", "v:DISALLOWED"];

impl Choice {
    /// Did the choice decide how a count is written (whichever way it went: "where_clause"
    /// against "selector" is whether the count becomes a selector)?
    pub fn counts(&self) -> bool {
        COUNT_TOKENS.contains(&self.token.as_str()) || self.rival.as_deref().is_some_and(|r| COUNT_TOKENS.contains(&r))
    }

    /// Did the choice decide whether a thing is found by its triples or by a selector
    /// ("k:where_clause" against "k:selector", either way)?
    pub fn filters_or_selector(&self) -> bool {
        let either = |t: &str| t == "k:where_clause" || t == "k:selector";
        either(&self.token) && self.rival.as_deref().is_some_and(either)
    }

    /// Did the choice end a thing's filters where a where clause could have followed?
    pub fn ends_filters(&self) -> bool {
        self.token == "}" && self.rival.as_deref() == Some("k:where_clause")
    }

    /// Did the choice decide whether a list of triples goes on ("{" against "]", either way)?
    pub fn another_triple(&self) -> bool {
        let bracket = |t: &str| t == "{" || t == "]";
        bracket(&self.token) && self.rival.as_deref().is_some_and(bracket)
    }

    /// Did the choice decide between spawning a thing and another action (the action type, or
    /// where its object is written)? Once a mob is read from the words, the action is a spawn.
    pub fn spawns(&self) -> bool {
        let pair = |a: &str, b: &str| [a, b].contains(&self.token.as_str()) && self.rival.as_deref().is_some_and(|r| [a, b].contains(&r));
        let action = |t: &str| ACTION_TOKENS.contains(&t);
        action(&self.token) && self.rival.as_deref().is_some_and(action) || pair("k:schematic", "k:reference_object")
    }

    /// Did the choice decide between building a thing and another action with it (or between
    /// writing it as a schematic and as an object), either way? Once a building verb and a block
    /// that is no mob are read from the words ("place a gold block"), nothing else could be meant.
    pub fn builds_over_another_action(&self) -> bool {
        let rival = self.rival.as_deref();
        let pair = |a: &str, b: &str| self.token == a && rival == Some(b) || self.token == b && rival == Some(a);
        let action = |t: &str| ACTION_TOKENS.contains(&t);
        // Either way round: a build chosen over another action, or another action (a spawn of
        // torches) over the build the words say.
        (self.token == "v:BUILD" && rival.is_some_and(action)) || (action(&self.token) && rival == Some("v:BUILD")) || pair("k:schematic", "k:reference_object")
    }

    /// Would the rival have written a place ("k:location" against the "k:schematic" chosen)?
    pub fn rival_places(&self) -> bool {
        self.rival.as_deref().is_some_and(|r| LOCATION_TOKENS.contains(&r))
    }

    /// What the choice decided.
    pub fn about(&self) -> About {
        if MEASURE_TOKENS.contains(&self.token.as_str()) {
            About::Measure
        } else if LOCATION_TOKENS.contains(&self.token.as_str()) {
            About::Location
        } else if RANKING_TOKENS.contains(&self.token.as_str()) {
            About::Ranking
        } else {
            About::Other
        }
    }

    /// A thing's triples are an AND: their order changes nothing. Where the network chose one
    /// predicate against another that the same form writes later ("tiny red cubes": `has_colour`
    /// or `has_size` first), the choice was only of an order, and is certain.
    pub fn orders_are_certain(choices: &mut [Choice]) {
        for i in 0..choices.len() {
            let (head, tail) = choices.split_at_mut(i + 1);
            let c = &mut head[i];
            let predicate = |t: &str| t.starts_with("v:has_");
            let Some(rival) = c.rival.as_deref().filter(|r| predicate(r) && predicate(&c.token)) else { continue };
            if tail.iter().any(|o| o.token == rival) {
                c.log_prob = 0.0;
            }
        }
    }

    fn token(token: &str, log_prob: f32, rival: Option<&str>) -> Self {
        Choice { token: token.to_string(), words: None, log_prob, rival: rival.map(str::to_string) }
    }

    fn span(span: Span, log_prob: f32) -> Self {
        Choice { token: SPAN.to_string(), words: Some((span.start, span.end)), log_prob, rival: None }
    }
}

/// The networks that decode together, each with its encoding of the input: one network, or several
/// trained apart (other seeds, their own word vocabularies) sharing output tokens and grammar.
/// At every step each member scores the next token (and a span's words) and the members' log-
/// probabilities are averaged: the geometric mean of their distributions, which the decoder then
/// renormalises over what the grammar allows. Independently trained networks err differently, so
/// their vote is right more often than any one of them.
pub struct Ensemble<'a> {
    members: Vec<(&'a Seq2Seq, &'a Encoded)>,
}

/// One decoder cache per member (see [`Seq2Seq::start_cache`]).
pub type Caches = Vec<DecoderCache>;

impl<'a> Ensemble<'a> {
    /// The members (at least one; the first sets the output length limit).
    pub fn new(members: Vec<(&'a Seq2Seq, &'a Encoded)>) -> Self {
        Ensemble { members }
    }

    /// A single network.
    pub fn single(model: &'a Seq2Seq, enc: &'a Encoded) -> Self {
        Ensemble { members: vec![(model, enc)] }
    }

    fn max_tokens(&self) -> usize {
        self.members.first().map_or(0, |(m, _)| m.cfg.max_tokens)
    }

    /// Fresh decoder caches, one per member.
    pub fn start(&self) -> Result<Caches> {
        self.members.iter().map(|(m, enc)| m.start_cache(enc)).collect()
    }

    /// One batched step of every member: their decoder states (k rows of D numbers each).
    pub fn step(
        &self,
        caches: &mut Caches,
        inputs: &[(u32, Option<(usize, usize)>)],
        position: usize,
    ) -> Result<Vec<Vec<f32>>> {
        self.members.iter().zip(caches.iter_mut()).map(|((m, enc), c)| m.step_batch(enc, c, inputs, position)).collect()
    }

    /// The members' next-token log-probabilities, averaged: one row per hypothesis.
    pub fn token_log_probs(&self, states: &[Vec<f32>]) -> Result<Vec<Vec<f32>>> {
        let mut rows: Option<Vec<Vec<f32>>> = None;
        for ((m, _), h) in self.members.iter().zip(states) {
            let member = m.token_log_probs_batch(h)?;
            rows = Some(match rows {
                None => member,
                Some(mut sum) => {
                    for (row, add) in sum.iter_mut().zip(member) {
                        row.iter_mut().zip(add).for_each(|(a, b)| *a += b);
                    }
                    sum
                }
            });
        }
        let n = self.members.len().max(1) as f32;
        let mut rows = rows.unwrap_or_default();
        if n > 1.0 {
            rows.iter_mut().flatten().for_each(|v| *v /= n);
        }
        Ok(rows)
    }

    /// Hypothesis `hyp`'s start and end pointer log-probabilities over the words of row `row` of
    /// the encoded batch, averaged.
    pub fn span_log_probs(&self, states: &[Vec<f32>], hyp: usize, row: usize) -> Result<(Vec<f32>, Vec<f32>)> {
        let mut sum: Option<(Vec<f32>, Vec<f32>)> = None;
        for ((m, enc), h) in self.members.iter().zip(states) {
            let d = m.cfg.d_model;
            let h =
                h.get(hyp * d..(hyp + 1) * d).ok_or_else(|| candle_core::Error::Msg(format!("no hypothesis {hyp}")))?;
            let (start, end) = m.span_log_probs(h, enc, row)?;
            sum = Some(match sum {
                None => (start, end),
                Some((mut s, mut e)) => {
                    s.iter_mut().zip(start).for_each(|(a, b)| *a += b);
                    e.iter_mut().zip(end).for_each(|(a, b)| *a += b);
                    (s, e)
                }
            });
        }
        let n = self.members.len().max(1) as f32;
        let (mut s, mut e) = sum.unwrap_or_default();
        if n > 1.0 {
            s.iter_mut().chain(e.iter_mut()).for_each(|v| *v /= n);
        }
        Ok((s, e))
    }

    fn reorder(caches: &mut Caches, parents: &[u32]) -> Result<()> {
        caches.iter_mut().try_for_each(|c| Seq2Seq::reorder(c, parents))
    }
}

/// The key whose presence and span are bookkeeping (see [`Decoded`]).
const TEXT_SPAN_KEY: &str = "k:text_span";
/// The key whose presence and value are bookkeeping (see [`Decoded`]).
const DIALOGUE_TARGET_KEY: &str = "k:dialogue_target";

/// Whether writing `token` after `previous` changes nothing the bot does (see [`Decoded`]).
fn bookkeeping(token: &str, previous: Option<&String>) -> bool {
    token == TEXT_SPAN_KEY || token == DIALOGUE_TARGET_KEY || previous.is_some_and(|p| p == DIALOGUE_TARGET_KEY)
}

/// The log of the share the bookkeeping keys hold among the scored choices (token, renormalised
/// log-probability); `None` when none of them was allowed.
fn bookkeeping_share<'a>(scored: impl Iterator<Item = (&'a str, f32)>) -> Option<f32> {
    let shares: Vec<f32> = scored.filter(|(t, _)| *t == TEXT_SPAN_KEY || *t == DIALOGUE_TARGET_KEY).map(|(_, lp)| lp).collect();
    (!shares.is_empty()).then(|| log_sum_exp(shares.iter().copied()))
}

/// A token choice's log-probability with the bookkeeping keys taken out of the running: `chosen`
/// and `share` (theirs, [`bookkeeping_share`]) are log-probabilities renormalised over the allowed
/// tokens. Choosing bookkeeping is certain.
fn behaviour_log_prob(token: &str, previous: Option<&String>, chosen: f32, share: Option<f32>) -> f32 {
    match share {
        _ if bookkeeping(token, previous) => 0.0,
        Some(ts) => (chosen - (1.0 - ts.exp()).max(1e-6).ln()).min(0.0),
        None => chosen,
    }
}

fn log_sum_exp(values: impl Iterator<Item = f32> + Clone) -> f32 {
    let max = values.clone().fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() {
        return max;
    }
    max + values.map(|v| (v - max).exp()).sum::<f32>().ln()
}

/// The best span over `n` words: argmax of start[i] + end[j] with i ≤ j, and its log-probability
/// renormalised over all valid pairs.
fn best_span(start: &[f32], end: &[f32], n: usize) -> (Span, f32) {
    let mut best = (Span::new(0, 0), f32::NEG_INFINITY);
    let mut all = Vec::with_capacity(n * (n + 1) / 2);
    for (i, s) in start.iter().take(n).enumerate() {
        for (j, e) in end.iter().enumerate().take(n).skip(i) {
            let score = s + e;
            all.push(score);
            if score > best.1 {
                best = (Span::new(i, j), score);
            }
        }
    }
    let norm = log_sum_exp(all.iter().copied());
    (best.0, best.1 - norm)
}

/// Decodes one encoded input of `n_words` words; `None` if the grammar dead-ends or the output
/// grows past the model's limit.
pub fn greedy(nets: &Ensemble, vocab: &OutVocab, grammar: &Grammar, n_words: usize) -> Result<Option<Decoded>> {
    Ok(greedy_batch(nets, vocab, grammar, &[n_words])?.pop().flatten())
}

/// Decodes every row of an encoded batch greedily, side by side: row r has `n_words[r]` words
/// and gets what [`greedy`] would give it alone, to rounding. All live rows take one batched step
/// per position, and a row leaves the batch when it finishes or dead-ends (`None`).
pub fn greedy_batch(
    nets: &Ensemble,
    vocab: &OutVocab,
    grammar: &Grammar,
    n_words: &[usize],
) -> Result<Vec<Option<Decoded>>> {
    let mut results: Vec<Option<Decoded>> = vec![None; n_words.len()];
    let Some(bos) = vocab.id(BOS) else { return Ok(results) };
    let mut live: Vec<Hypothesis> = (0..n_words.len()).map(|row| Hypothesis::start(row, grammar, bos)).collect();
    let mut caches = nets.start()?;
    for position in 0..nets.max_tokens() {
        let Step { states, allowed, logits } = Step::take(nets, &mut caches, vocab, &live, position)?;
        let lines = live.len();
        let mut kept = Vec::with_capacity(lines);
        for (i, (mut line, allowed)) in std::mem::take(&mut live).into_iter().zip(allowed).enumerate() {
            let Some((id, token)) = choose(&mut line.out, &allowed, logits.get(i)) else { continue };
            if token == EOS {
                results[line.row] = Some(std::mem::take(&mut line.out));
                continue;
            }
            let span = if token == SPAN {
                let (start, end) = nets.span_log_probs(&states, i, line.row)?;
                Some(best_span(&start, &end, n_words[line.row]))
            } else {
                None
            };
            line.push(id, token, span);
            live.push(line);
            kept.push(i as u32);
        }
        if live.is_empty() {
            break;
        }
        if kept.len() < lines {
            Ensemble::reorder(&mut caches, &kept)?;
        }
    }
    Ok(results)
}

/// The greedy choice among the `allowed` tokens, scored by `logits` (the line's next-token
/// log-probabilities) and recorded in `out`; a token the grammar forces is no choice. `None`
/// when nothing is allowed or the scores are missing.
fn choose(out: &mut Decoded, allowed: &[(u32, String)], logits: Option<&Vec<f32>>) -> Option<(u32, String)> {
    match allowed {
        [] => None,
        [only] => Some(only.clone()),
        _ => {
            let logits = logits.filter(|l| !l.is_empty())?;
            let norm = log_sum_exp(allowed.iter().map(|(id, _)| logits[*id as usize]));
            let best = allowed.iter().max_by(|a, b| logits[a.0 as usize].total_cmp(&logits[b.0 as usize]))?.clone();
            let rival = allowed.iter().filter(|a| a.0 != best.0).max_by(|a, b| logits[a.0 as usize].total_cmp(&logits[b.0 as usize]));
            let lp = logits[best.0 as usize] - norm;
            let share = bookkeeping_share(allowed.iter().map(|(id, t)| (t.as_str(), logits[*id as usize] - norm)));
            out.log_prob += lp;
            out.choices.push(Choice::token(&best.1, behaviour_log_prob(&best.1, out.tokens.last(), lp, share), rival.map(|r| r.1.as_str())));
            Some(best)
        }
    }
}

/// A partial form being decoded: which row of the encoded batch it reads, the grammar's state, the
/// form so far and the next input. Its decoder cache is row `i` of the shared batched cache when it
/// is the i-th live one.
#[derive(Clone)]
struct Hypothesis<'g> {
    row: usize,
    state: State<'g>,
    out: Decoded,
    input: u32,
    input_span: Option<(usize, usize)>,
}

impl<'g> Hypothesis<'g> {
    fn start(row: usize, grammar: &'g Grammar, bos: u32) -> Self {
        Hypothesis { row, state: State::new(grammar), out: Decoded::default(), input: bos, input_span: None }
    }

    /// Appends token `id` (`token`), and for a `<span>` the words chosen with their log-probability:
    /// the span of a `text_span` key is bookkeeping, no choice (see [`Decoded`]).
    fn push(&mut self, id: u32, token: String, span: Option<(Span, f32)>) {
        self.input_span = None;
        if let Some((span, lp)) = span {
            self.out.log_prob += lp;
            if self.out.tokens.last().is_none_or(|t| t != TEXT_SPAN_KEY) {
                self.out.choices.push(Choice::span(span, lp));
            }
            self.out.spans.push(span);
            self.input_span = Some((span.start, span.end));
        }
        self.state.push(&token);
        self.out.tokens.push(token);
        self.input = id;
    }
}

/// One batched decoder step of the live hypotheses: their states, the tokens the grammar allows
/// each, and the next-token log-probabilities (left empty when every hypothesis is forced: a forced
/// token needs no output layer).
struct Step {
    states: Vec<Vec<f32>>,
    allowed: Vec<Vec<(u32, String)>>,
    logits: Vec<Vec<f32>>,
}

impl Step {
    fn take(
        nets: &Ensemble,
        caches: &mut Caches,
        vocab: &OutVocab,
        live: &[Hypothesis],
        position: usize,
    ) -> Result<Self> {
        let inputs: Vec<(u32, Option<(usize, usize)>)> = live.iter().map(|h| (h.input, h.input_span)).collect();
        let states = nets.step(caches, &inputs, position)?;
        let allowed: Vec<Vec<(u32, String)>> = live
            .iter()
            .map(|h| h.state.allowed().into_iter().filter_map(|t| vocab.id(&t).map(|id| (id, t))).collect())
            .collect();
        let logits = if allowed.iter().any(|a| a.len() > 1) { nets.token_log_probs(&states)? } else { vec![] };
        Ok(Step { states, allowed, logits })
    }
}

/// Beam search under the grammar: keeps the `width` most probable partial forms; returns finished
/// sequences, most probable first (the caller takes the first that validates). Width 1 is greedy.
/// The live hypotheses are decoded together, one batched step per position.
pub fn beam(
    nets: &Ensemble,
    vocab: &OutVocab,
    grammar: &Grammar,
    n_words: usize,
    width: usize,
) -> Result<Vec<Decoded>> {
    let Some(bos) = vocab.id(BOS) else { return Ok(Vec::new()) };
    let mut live = vec![Hypothesis::start(0, grammar, bos)];
    let mut caches = nets.start()?;
    let mut finished: Vec<Decoded> = Vec::new();
    for position in 0..nets.max_tokens() {
        let Step { states, allowed, logits } = Step::take(nets, &mut caches, vocab, &live, position)?;
        // Candidates: (parent row, hypothesis).
        let mut candidates: Vec<(u32, Hypothesis)> = Vec::new();
        for (i, (hyp, allowed)) in live.iter().zip(allowed).enumerate() {
            if allowed.is_empty() {
                continue;
            }
            let forced = allowed.len() == 1;
            let scored: Vec<(u32, String, f32)> = if forced {
                allowed.into_iter().map(|(id, t)| (id, t, 0.0)).collect()
            } else {
                let Some(row) = logits.get(i) else { continue };
                let norm = log_sum_exp(allowed.iter().map(|(id, _)| row[*id as usize]));
                let mut ranked: Vec<_> = allowed.into_iter().map(|(id, t)| (id, t, row[id as usize] - norm)).collect();
                ranked.sort_by(|a, b| b.2.total_cmp(&a.2));
                ranked
            };
            let share = bookkeeping_share(scored.iter().map(|(_, t, lp)| (t.as_str(), *lp)));
            let mut pointers = None;
            // Each kept token's rival is the best of the others: the first, or the second for the first.
            let rivals: Vec<Option<String>> = (0..scored.len().min(width)).map(|k| scored.get(usize::from(k == 0)).map(|r| r.1.clone())).collect();
            for ((id, token, lp), rival) in scored.into_iter().take(width).zip(rivals) {
                let mut next = hyp.clone();
                next.out.log_prob += lp;
                if !forced {
                    next.out.choices.push(Choice::token(&token, behaviour_log_prob(&token, hyp.out.tokens.last(), lp, share), rival.as_deref()));
                }
                if token == EOS {
                    finished.push(next.out);
                    continue;
                }
                let span = if token == SPAN {
                    if pointers.is_none() {
                        pointers = Some(nets.span_log_probs(&states, i, 0)?);
                    }
                    let (start, end) = pointers.as_ref().map(|(s, e)| (s.as_slice(), e.as_slice())).unwrap_or_default();
                    Some(best_span(start, end, n_words))
                } else {
                    None
                };
                next.push(id, token, span);
                candidates.push((i as u32, next));
            }
        }
        candidates.sort_by(|a, b| b.1.out.log_prob.total_cmp(&a.1.out.log_prob));
        // The beam keeps its `width` best; log-probabilities only fall, so once `width` forms have
        // finished and the best of them beats every live one, the search is done.
        let best_finished = finished.iter().map(|d| d.log_prob).fold(f32::NEG_INFINITY, f32::max);
        if finished.len() >= width && candidates.first().is_some_and(|(_, h)| h.out.log_prob < best_finished) {
            candidates.clear();
        }
        candidates.truncate(width);
        if candidates.is_empty() {
            break;
        }
        let parents: Vec<u32> = candidates.iter().map(|(p, _)| *p).collect();
        Ensemble::reorder(&mut caches, &parents)?;
        live = candidates.into_iter().map(|(_, h)| h).collect();
    }
    // Rank by log-probability per token: raw sums favour forms that stop early.
    let per_token = |d: &Decoded| d.log_prob / (d.tokens.len() + d.spans.len()).max(1) as f32;
    finished.sort_by(|a, b| per_token(b).total_cmp(&per_token(a)));
    Ok(finished)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_span_choice_never_lowers_the_confidence() {
        // Choosing `text_span` is bookkeeping: certain.
        assert_eq!(behaviour_log_prob(TEXT_SPAN_KEY, None, 0.4f32.ln(), Some(0.4f32.ln())), 0.0);
        // Another key chosen at 0.3 while text_span had 0.6: 0.3 of the 0.4 left, i.e. 0.75.
        let lp = behaviour_log_prob("k:schematic", None, 0.3f32.ln(), Some(0.6f32.ln()));
        assert!((lp.exp() - 0.75).abs() < 1e-5, "{}", lp.exp());
        // No text_span among the choices: unchanged.
        assert_eq!(behaviour_log_prob("v:BUILD", None, 0.5f32.ln(), None), 0.5f32.ln());
        // Whom a command was addressed to changes nothing either: the key and its value.
        assert_eq!(behaviour_log_prob(DIALOGUE_TARGET_KEY, None, 0.36f32.ln(), Some(0.36f32.ln())), 0.0);
        let key = DIALOGUE_TARGET_KEY.to_string();
        assert_eq!(behaviour_log_prob("v:AGENT", Some(&key), 0.5f32.ln(), None), 0.0);
        // Both keys allowed: the share of each is taken out.
        let share = bookkeeping_share([(TEXT_SPAN_KEY, 0.2f32.ln()), (DIALOGUE_TARGET_KEY, 0.3f32.ln()), ("k:location", 0.5f32.ln())].into_iter());
        let lp = behaviour_log_prob("k:location", None, 0.5f32.ln(), share);
        assert!((lp.exp() - 1.0).abs() < 1e-5, "{}", lp.exp());
    }

    #[test]
    fn the_order_of_a_things_triples_is_no_doubt() {
        let half = 0.5f32.ln();
        // "tiny red cubes": colour against size first, and the size comes next: certain.
        let mut choices = vec![
            Choice::token("v:has_colour", half, Some("v:has_size")),
            Choice::span(Span::word(3), 0.0),
            Choice::token("v:has_size", half, Some("v:has_name")),
        ];
        Choice::orders_are_certain(&mut choices);
        assert_eq!(choices[0].log_prob, 0.0);
        // The size against the name, and no name follows: a real doubt.
        assert_eq!(choices[2].log_prob, half);
        // A rival that is no predicate, or one that never comes: unchanged.
        let mut choices = vec![Choice::token("v:has_colour", half, Some("v:has_block_type")), Choice::token("k:location", half, Some("k:schematic"))];
        Choice::orders_are_certain(&mut choices);
        assert_eq!((choices[0].log_prob, choices[1].log_prob), (half, half));
    }
}
