//! The typed form of one step: what understanding hands the interpreter for "build a tower here"
//! in "build a tower here, then walk 10 blocks east".
//!
//! A line of several steps is cut into steps by understanding; each step carries its own words
//! (the spans of its logical form index these and nothing else) and the [`Details`] read from
//! them with the lexicon: the compass word, a distance said with a direction, "inside", "on
//! top", "me", the dance asked for. Below understanding nothing reads chat: a step never sees
//! another step's words, and the interpreter asks these typed fields instead of searching text.

use super::span::Span;
use super::vocab::RelativeDirection;
use crate::lexicon::Compass;

/// One step as the interpreter reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepForm {
    /// The step's own words, normalized; its logical form's spans index these.
    pub words: Vec<String>,
    pub details: Details,
}

impl StepForm {
    /// The words a span covers (none when it does not fit).
    pub fn span_words(&self, span: Span) -> Vec<String> {
        span.words(&self.words).to_vec()
    }
}

/// Which way a said distance goes: a compass heading, or a direction in the speaker's frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heading {
    Compass(Compass),
    Relative(RelativeDirection),
}

/// A distance said with its direction: "10 blocks north", "5 to my right".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaidOffset {
    pub blocks: i32,
    pub heading: Heading,
}

/// "here" (where the speaker is) or "there" (where they point).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deixis {
    Here,
    There,
}

/// A dance asked for by name ("spin anticlockwise", "do a little jump", "nod").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DanceName {
    /// "do a little dance": no move named; the bot spins.
    Dance,
    Spin { clockwise: bool },
    Jump,
    Nod,
    ShakeHead,
    Circle { clockwise: bool },
}

/// How many, said without a number: "some cows" (3), "a couple of pigs" (2), "pigs" (2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    Some,
    Couple,
    Plural,
}

/// What understanding read from a step's words, for the parts of a command the logical form has
/// no key for (or the parser often leaves out).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Details {
    /// "here" or "there" said in the step.
    pub deixis: Option<Deixis>,
    /// "inside", "into": in, not beside.
    pub inside: bool,
    /// "on top", "the top of": up on it.
    pub on_top: bool,
    /// A compass word anywhere in the step ("face north", "build it north of me").
    pub compass: Option<Compass>,
    /// A distance with its direction ("10 blocks east").
    pub offset: Option<SaidOffset>,
    /// "left", "anticlockwise", "counterclockwise": a turn to the left.
    pub turn_left: bool,
    /// "up": a look upwards.
    pub up: bool,
    /// "me"/"us": the speaker receives it.
    pub to_speaker: bool,
    /// "how many": a count is asked for.
    pub counting: bool,
    /// "big", "size", "long": every measure is asked for, not just the height.
    pub asks_size: bool,
    /// "how many blocks (did you use for …)": the blocks a thing has, not how many things.
    pub counts_blocks: bool,
    /// "last", "latest": only the most recent one is asked about.
    pub latest: bool,
    /// "first", "earliest": only the oldest one is asked about.
    pub earliest: bool,
    /// A named dance.
    pub dance: Option<DanceName>,
    /// "this spot", "this place", "here": a naming that names a place, not a thing.
    pub names_place: bool,
    /// "thanks", "thank you".
    pub thanked: bool,
    /// "rename", "change the name of": a new name replaces the ones given before.
    pub renames: bool,
    /// "facing me": a build turned to face the speaker, wherever it stands.
    pub faces_speaker: bool,
    /// "make it 20 high" on its own: new measures for the thing talked about, not a new build.
    pub resizes: bool,
    /// How many without a number.
    pub amount: Option<Amount>,
}
