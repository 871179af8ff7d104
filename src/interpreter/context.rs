//! One chat turn as the interpreter sees it: who spoke, their words, where they stand and look,
//! and access to the world (read-only) and memory. Every resolution step takes a `Turn`.

use crate::logical_form::{Span, normalize, tokenize};
use crate::memory::{Memory, QueryContext};
use crate::world::raycast::{self, Hit};
use crate::world::types::EYE_HEIGHT;
use crate::world::{Look, Pos, Vec3, World};

/// How far a look reaches when a player says "that" or "there".
pub const LOOK_RANGE: f64 = 64.0;

pub struct Turn<'a> {
    pub speaker: String,
    /// The normalized chat; spans index `tokens`.
    pub text: String,
    pub tokens: Vec<String>,
    pub world: &'a dyn World,
    pub memory: &'a mut Memory,
    pub speaker_pos: Vec3,
    pub speaker_look: Look,
    /// The block the speaker looks at, if any within [`LOOK_RANGE`].
    pub look_hit: Option<Hit>,
    pub tick: u64,
    /// The answer to a "which one?" question: pick this memory when it is among the matches.
    pub prefer: Option<crate::memory::MemoryId>,
    /// Boxes that will be built: by builds still going on (their plans in memory), and by
    /// earlier actions of the same command ("a red cube, then a blue cube"). New builds keep
    /// clear of them, not just of the blocks already up.
    pub planned: Vec<crate::world::BBox>,
}

impl<'a> Turn<'a> {
    /// A turn for `speaker` saying `chat`. A speaker the world does not show (a console, a
    /// player out of sight) is treated as standing where the agent is.
    pub fn new(speaker: &str, chat: &str, world: &'a dyn World, memory: &'a mut Memory) -> Turn<'a> {
        let text = normalize(chat);
        let tokens = tokenize(&text);
        let me = world.players().into_iter().find(|p| p.name == speaker);
        let (speaker_pos, speaker_look) = match &me {
            Some(p) => (p.pos, p.look),
            None => (world.agent_pos().feet(), world.agent_look()),
        };
        let eye = Vec3::new(speaker_pos.x, speaker_pos.y + EYE_HEIGHT, speaker_pos.z);
        let look_hit = raycast::first_block(world, eye, speaker_look, LOOK_RANGE);
        let planned = builds_in_progress(memory);
        Turn { speaker: speaker.to_string(), text, tokens, world, memory, speaker_pos, speaker_look, look_hit, tick: world.tick(), prefer: None, planned }
    }

    pub fn words(&self, span: Span) -> Vec<String> {
        span.words(&self.tokens).to_vec()
    }

    pub fn text_of(&self, span: Span) -> String {
        self.words(span).join(" ")
    }

    /// The article the player put just before a span ("call this *the* castle" when the span
    /// covers only "castle", as the annotations usually do), for saying names back in their words.
    pub fn article_before(&self, span: Span) -> Option<&str> {
        let i = span.start.checked_sub(1)?;
        self.tokens.get(i).map(String::as_str).filter(|w| matches!(*w, "the" | "a" | "an"))
    }

    pub fn agent_pos(&self) -> Pos {
        self.world.agent_pos()
    }

    /// The speaker's feet block.
    pub fn speaker_block(&self) -> Pos {
        self.speaker_pos.block()
    }

    /// The memory query context for this turn.
    pub fn query_ctx(&self) -> QueryContext {
        let mut ctx = QueryContext::from_tokens(self.tokens.clone())
            .speaker(&self.speaker, self.speaker_pos, self.speaker_look)
            .agent(self.world.agent_pos().feet(), self.world.agent_look())
            .at_tick(self.tick)
            .with_seed(self.tick);
        if let Some(hit) = self.look_hit {
            ctx = ctx.looking_at(hit.block);
        }
        ctx
    }

    /// Does the chat contain this word?
    pub fn has_word(&self, w: &str) -> bool {
        self.tokens.iter().any(|t| t == w)
    }
}

/// The box of each build whose plan is still in memory (it is being built, or was cut off).
fn builds_in_progress(memory: &Memory) -> Vec<crate::world::BBox> {
    let mut boxes: std::collections::BTreeMap<crate::memory::MemoryId, crate::world::BBox> = Default::default();
    for (id, p, _) in memory.plans().unwrap_or_default() {
        let cell = crate::world::BBox::new(p, p);
        boxes.entry(id).and_modify(|b| *b = b.union(&cell)).or_insert(cell);
    }
    boxes.into_values().collect()
}
