//! Filters → answers: how the logical form's `filters` node is run against the memory.
//!
//! A query goes through fixed stages, one file each:
//! 1. `candidates.rs`: the `memory_type` picks a table (objects, tasks, chats, triples) and the
//!    `where_clause` (`where_clause.rs`) becomes id lookups plus one SQL condition, so the triple
//!    index does the matching ("red" AND "tower" are two index range reads, not a scan);
//! 2. `location.rs`: `filters.location` and `selector.location` keep the candidates in the right
//!    place ("the cube left of me"), and `contains_coreference` resolves "that"/"this";
//! 3. `selector.rs`: ALL, RANDOM, ordinals and argmax/argmin pick among what is left;
//! 4. `output.rs`: the memories themselves, a count, or an attribute of each (NAME, COLOUR…);
//!
//! and [`names`] holds the word rules (lemmas, synonyms, colours, sizes, numbers) both stored
//! triples and queries use.
//!
//! Spans in the filters index the words of the chat, so the [`QueryContext`] carries the chat's
//! tokens, along with who is speaking, where they stand and look, and where the agent is.
//! Anything the context leaves out (the speaker's position, the agent's) is read from what
//! perception last stored.

pub(crate) mod candidates;
pub(crate) mod location;
pub mod names;
pub(crate) mod output;
pub(crate) mod selector;
pub(crate) mod where_clause;

#[cfg(test)]
mod tests;

use crate::logical_form::{Filters, MemoryType, tokenize};
use crate::world::{BBox, Look, Pos, Vec3};

use super::error::Result;
use super::store::Memory;
use super::types::{MemoryId, MemoryKind};

pub use location::NEAR_RADIUS;
pub use output::Value;

/// Who is asking, from where, about which words. Build it with the chainable setters:
///
/// ```
/// use craftmate::memory::QueryContext;
/// use craftmate::world::{Look, Vec3};
/// let ctx = QueryContext::new("destroy the red tower closest to me")
///     .speaker("alice", Vec3::new(0.5, 5.0, 0.5), Look::default())
///     .at_tick(100);
/// assert_eq!(ctx.tokens[2], "red");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryContext {
    /// The chat's words, as [`tokenize()`] splits them: spans index these.
    pub tokens: Vec<String>,
    /// The speaker's name (a player memory of that name gives position and look when the
    /// fields below are not set).
    pub speaker: Option<String>,
    pub speaker_pos: Option<Vec3>,
    pub speaker_look: Option<Look>,
    /// The block the speaker looks at ("that", SPEAKER_LOOK), found by the caller's ray cast.
    pub speaker_look_target: Option<Pos>,
    pub agent_pos: Option<Vec3>,
    pub agent_look: Option<Look>,
    /// The current game tick (CURRENT_TIME, and nothing else).
    pub tick: u64,
    /// Seed of RANDOM selection: the same seed picks the same memories.
    pub seed: u64,
    /// Memories already picked ("another one": `same: DISALLOWED` leaves them out).
    pub exclude: Vec<MemoryId>,
}

impl QueryContext {
    /// A context for a raw chat line (tokenized the way spans count words).
    pub fn new(chat: &str) -> QueryContext {
        QueryContext { tokens: tokenize(chat), ..QueryContext::default() }
    }

    /// A context for already tokenized words.
    pub fn from_tokens(tokens: Vec<String>) -> QueryContext {
        QueryContext { tokens, ..QueryContext::default() }
    }

    pub fn speaker(mut self, name: &str, pos: Vec3, look: Look) -> QueryContext {
        self.speaker = Some(name.to_string());
        self.speaker_pos = Some(pos);
        self.speaker_look = Some(look);
        self
    }

    /// Only the speaker's name: position and look come from memory.
    pub fn speaker_named(mut self, name: &str) -> QueryContext {
        self.speaker = Some(name.to_string());
        self
    }

    pub fn looking_at(mut self, target: Pos) -> QueryContext {
        self.speaker_look_target = Some(target);
        self
    }

    pub fn agent(mut self, pos: Vec3, look: Look) -> QueryContext {
        self.agent_pos = Some(pos);
        self.agent_look = Some(look);
        self
    }

    pub fn at_tick(mut self, tick: u64) -> QueryContext {
        self.tick = tick;
        self
    }

    pub fn with_seed(mut self, seed: u64) -> QueryContext {
        self.seed = seed;
        self
    }

    pub fn excluding(mut self, ids: &[MemoryId]) -> QueryContext {
        self.exclude.extend_from_slice(ids);
        self
    }
}

/// One memory a query selected.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub id: MemoryId,
    pub kind: MemoryKind,
    /// Where it is, for things in the world.
    pub pos: Option<Vec3>,
    pub bbox: Option<BBox>,
}

/// What the filters' `output` asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The memories themselves (`MEMORY`, or no output given): see [`QueryResult::hits`].
    Memories,
    /// `COUNT`: how many memories were selected.
    Count(usize),
    /// An attribute: one value per hit, in the same order.
    Values(Vec<Value>),
}

/// The selected memories, in order of preference, and the answer to the output.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryResult {
    pub hits: Vec<Hit>,
    pub answer: Answer,
}

impl QueryResult {
    pub fn ids(&self) -> Vec<MemoryId> {
        self.hits.iter().map(|h| h.id).collect()
    }

    /// The best match.
    pub fn first(&self) -> Option<MemoryId> {
        self.hits.first().map(|h| h.id)
    }

    pub fn is_empty(&self) -> bool {
        self.hits.is_empty()
    }

    fn empty() -> QueryResult {
        QueryResult { hits: Vec::new(), answer: Answer::Memories }
    }
}

/// The context with everything filled in that memory can supply.
#[derive(Debug, Clone)]
pub(crate) struct Resolved<'a> {
    pub ctx: &'a QueryContext,
    pub speaker_id: Option<MemoryId>,
    pub speaker_pos: Option<Vec3>,
    pub speaker_look: Look,
    pub self_id: Option<MemoryId>,
    pub agent_pos: Option<Vec3>,
    pub agent_look: Look,
}

impl Resolved<'_> {
    /// Where distances are measured from when nothing else is said: the speaker, else the agent.
    pub fn viewer(&self) -> Option<Vec3> {
        self.speaker_pos.or(self.agent_pos)
    }

    /// The words of a span of the chat.
    pub fn words(&self, span: crate::logical_form::Span) -> Vec<String> {
        span.words(&self.ctx.tokens).to_vec()
    }
}

impl Memory {
    /// Runs a logical form's filters. See the module docs for the stages.
    pub fn query(&self, filters: &Filters, ctx: &QueryContext) -> Result<QueryResult> {
        let env = self.resolve_context(ctx)?;
        self.query_resolved(filters, &env, 0)
    }

    fn resolve_context<'a>(&self, ctx: &'a QueryContext) -> Result<Resolved<'a>> {
        let speaker_id = match &ctx.speaker {
            Some(name) => self.player_id(name)?,
            None => None,
        };
        let speaker_obj = match speaker_id {
            Some(id) => self.object(id)?,
            None => None,
        };
        let self_id = self.self_id()?;
        let self_obj = match self_id {
            Some(id) => self.object(id)?,
            None => None,
        };
        Ok(Resolved {
            ctx,
            speaker_id,
            speaker_pos: ctx.speaker_pos.or(speaker_obj.as_ref().map(|o| o.pos)),
            speaker_look: ctx.speaker_look.or(speaker_obj.as_ref().and_then(|o| o.look)).unwrap_or_default(),
            self_id,
            agent_pos: ctx.agent_pos.or(self_obj.as_ref().map(|o| o.pos)),
            agent_look: ctx.agent_look.or(self_obj.as_ref().and_then(|o| o.look)).unwrap_or_default(),
        })
    }

    /// Nested filters (a location's reference object, a triple's `obj`) recurse through here;
    /// `depth` stops a pathological form from recursing forever.
    pub(crate) fn query_resolved(&self, filters: &Filters, env: &Resolved, depth: usize) -> Result<QueryResult> {
        if depth > 8 {
            return Ok(QueryResult::empty());
        }
        // `special: THIS` is the task being defined, which only the interpreter knows.
        if filters.special.is_some() {
            return Ok(QueryResult::empty());
        }
        let source = match filters.memory_type {
            None | Some(MemoryType::ReferenceObject) => candidates::Source::Objects,
            Some(MemoryType::Agent) => candidates::Source::Agent,
            Some(MemoryType::Tasks) => candidates::Source::Tasks,
            Some(MemoryType::Chat) => candidates::Source::Chats,
            Some(MemoryType::Triple) => candidates::Source::Triples,
            Some(MemoryType::Reward) | Some(MemoryType::Set) => return Ok(QueryResult::empty()),
        };
        let condition = where_clause::compile(self, filters, source, env, depth)?;
        let mut found = candidates::fetch(self, source, &condition)?;
        found = location::apply(self, filters, found, env, depth)?;
        let picked = selector::select(self, filters, found, env, depth)?;
        output::answer(self, filters, picked, env, depth)
    }
}
