//! One step as the interpreter sees it: who spoke, the step's typed form (its words, which the
//! logical form's spans index, and the details understanding read), where the speaker stands and
//! looks *now*, what earlier steps of the same line left behind, and access to the world
//! (read-only) and memory. Every resolution step takes a `Turn`. It holds no chat: a step of
//! "build a tower, then walk 10 blocks east" never sees the other step's words.

use crate::logical_form::{Details, Span, StepForm};
use crate::memory::{Memory, MemoryId, QueryContext};
use crate::world::raycast::{self, Hit};
use crate::world::types::EYE_HEIGHT;
use crate::world::{Look, Pos, Vec3, World};

/// How far a look reaches when a player says "that" or "there".
pub const LOOK_RANGE: f64 = 64.0;

/// What an earlier step of the same line made, destroyed, dug or went to: "it", "that",
/// "there", "in its place" and "on top of it" in a later step mean this.
#[derive(Debug, Clone, PartialEq)]
pub struct Antecedent {
    /// The thing the step made or acted on, while memory still knows it.
    pub object: Option<MemoryId>,
    /// The cells the step changed (placed, broke), or the one it ended on (a walk).
    pub cells: Vec<Pos>,
    /// The cells it emptied, with the block that was there (what a dig dug out).
    pub dug: Vec<(Pos, crate::world::Block)>,
    /// The animal it spawned (the world's entity id), until memory has it as `object`.
    pub mob: Option<u64>,
    /// The shape the step made or acted on ("cube" for "destroying the green cube"), for "a
    /// yellow one" in the next step, also once the thing is gone.
    pub shape: Option<String>,
    /// The step was a walk: it changed nothing and ended where the bot stands.
    pub walked: bool,
    /// The items a gathering step was after and got ("it" in "… then put it in the chest").
    pub yields: Vec<String>,
}

impl Antecedent {
    /// The box around the cells.
    pub fn bbox(&self) -> Option<crate::world::BBox> {
        let first = *self.cells.first()?;
        Some(self.cells.iter().fold(crate::world::BBox::new(first, first), |b, p| b.union(&crate::world::BBox::new(*p, *p))))
    }

    /// Where a thing put "there" stands: the middle of the cells, at their lowest level.
    pub fn spot(&self) -> Option<Pos> {
        let b = self.bbox()?;
        Some(Pos::new((b.min.x + b.max.x).div_euclid(2), b.min.y, (b.min.z + b.max.z).div_euclid(2)))
    }
}

pub struct Turn<'a> {
    pub speaker: String,
    /// The step's words and details.
    form: StepForm,
    /// What the step before this one in the same line left behind.
    pub antecedent: Option<Antecedent>,
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
    /// What the player should hear about how the step was read ("I put it 4 blocks east …").
    pub notes: Vec<String>,
    /// What the server owner allows (dangerous blocks, items and mobs).
    pub rules: crate::safety::owner::OwnerRules,
}

impl<'a> Turn<'a> {
    /// Refuses a plan that would use a block, item or mob the owner has not allowed.
    pub fn allowed(&self, ids: impl IntoIterator<Item = impl AsRef<str>>) -> Result<(), super::problem::Problem> {
        match ids.into_iter().find_map(|id| self.rules.refuses(id.as_ref())) {
            Some(why) => Err(super::problem::Problem::say(why)),
            None => Ok(()),
        }
    }

    /// [`Turn::allowed`] for words a player said: each word, and all of them as one id
    /// ("flint and steel" → `flint_and_steel`).
    pub fn allowed_words(&self, words: &[String]) -> Result<(), super::problem::Problem> {
        self.allowed(words.iter().cloned().chain([words.join("_")]))
    }

    /// A turn for `speaker` carrying out the step `form`, as the world is now. A speaker the
    /// world does not show (a console, a player out of sight) is treated as standing where the
    /// agent is.
    pub fn new(speaker: &str, form: StepForm, world: &'a dyn World, memory: &'a mut Memory) -> Turn<'a> {
        let me = world.players().into_iter().find(|p| p.name == speaker);
        let (speaker_pos, speaker_look) = match &me {
            Some(p) => (p.pos, p.look),
            None => (world.agent_pos().feet(), world.agent_look()),
        };
        let eye = Vec3::new(speaker_pos.x, speaker_pos.y + EYE_HEIGHT, speaker_pos.z);
        let look_hit = raycast::first_block(world, eye, speaker_look, LOOK_RANGE);
        let planned = builds_in_progress(memory);
        Turn { speaker: speaker.to_string(), form, antecedent: None, world, memory, speaker_pos, speaker_look, look_hit, tick: world.tick(), prefer: None, planned, notes: Vec::new(), rules: Default::default() }
    }

    /// The words a span of the step's form covers.
    pub fn words(&self, span: Span) -> Vec<String> {
        self.form.span_words(span)
    }

    /// What understanding read in the step.
    pub fn details(&self) -> &Details {
        &self.form.details
    }

    /// All the step's words, which its spans index (for saying a thing back in the player's
    /// words, and for memory queries that resolve spans).
    pub fn form_words(&self) -> &[String] {
        &self.form.words
    }

    pub fn text_of(&self, span: Span) -> String {
        self.words(span).join(" ")
    }

    /// The article the player put just before a span ("call this *the* castle" when the span
    /// covers only "castle", as the annotations usually do), for saying names back in their words.
    pub fn article_before(&self, span: Span) -> Option<&str> {
        let i = span.start.checked_sub(1)?;
        self.form.words.get(i).map(String::as_str).filter(|w| crate::lexicon::lexicon().is(crate::lexicon::Class::Article, w))
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
        let mut ctx = QueryContext::from_tokens(self.form.words.clone())
            .speaker(&self.speaker, self.speaker_pos, self.speaker_look)
            .agent(self.world.agent_pos().feet(), self.world.agent_look())
            .at_tick(self.tick)
            .with_seed(self.tick);
        if let Some(hit) = self.look_hit {
            ctx = ctx.looking_at(hit.block);
        }
        ctx
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
