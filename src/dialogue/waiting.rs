//! The questions the bot asked and waits on, as one state machine.
//!
//! A player is either asked nothing or asked exactly one of three questions ([`Waiting`]):
//! which one? / are you sure? / did you mean? Their next line moves the state ([`Asked::answer`]):
//!
//! - **which one?** — a choice (by its words, its order, a name it was given, or looking at it)
//!   runs the command again with it; "no" drops it ("Okay, never mind."); a new command drops it
//!   ("Okay, forget my question.") and runs; a question back is answered and the question stays
//!   open; anything else asks again.
//! - **are you sure?** — "yes" carries out the plans; "no" drops them ("Okay, I won't."); a new
//!   command counts as no ("I'll take that as a no."); any other line is taken on its own and
//!   the question stays open.
//! - **did you mean?** — a short "yes" carries out the guessed plans and the bot remembers what
//!   the line meant; a short "no" asks "What should I change?"; "never mind" drops it; "stop" (which must still stop)
//!   and a new command drop it; any other line is taken on its own and the question stays open.
//! - **what should I change?** — the next line amends the guess ("20 long and 5 high", or the
//!   whole command again) and the amended command runs and is remembered; "never mind" drops it;
//!   "stop" is taken on its own; a question is answered and the bot goes on waiting.
//!
//! Questions belong to one player, so another player's line never answers them, and a question
//! left unanswered for [`ANSWER_TICKS`] is dropped with a polite line ([`Questions::expire`]).
//! The machine only decides; the dialogue manager acts on the [`Next`] step it returns.

use super::answers::{choose, only_an_answer, yes_no};
use crate::interpreter::actions::Plan;
use crate::interpreter::problem::Choice;
use crate::lexicon::{Class, lexicon};
use crate::logical_form::{DialogueType, LogicalForm};
use crate::memory::MemoryId;

/// How long the bot waits for an answer (30 seconds of game time).
pub const ANSWER_TICKS: u64 = 600;

/// The question, with the command it holds back.
#[derive(Debug)]
pub enum Waiting {
    /// "Which one: …?" — the answer picks a choice and the command runs again with it.
    Which { chat: String, lf: LogicalForm, choices: Vec<Choice> },
    /// "Are you sure? (yes/no)" — yes carries out the plans.
    Confirm { chat: String, lf: LogicalForm, plans: Vec<Plan> },
    /// "Did you mean: …? (yes/no)" about an unsure parse — yes carries out the plans; any other
    /// line is taken as a new one. `key` is the line as lessons are kept and looked up (the
    /// prepared line); `chat` the words the form's spans index.
    Guess { key: String, chat: String, lf: LogicalForm, plans: Vec<Plan> },
    /// "What should I change?" after a "no" to a guess — the next line amends it. `again`: asked
    /// once more after an amendment that could not be read or done.
    Amend { key: String, chat: String, lf: LogicalForm, again: bool },
    /// "I was building the wall when we stopped — shall I finish it?" after a restart: yes builds
    /// what is left of `object`, no leaves it as it is.
    Finish { object: MemoryId, plans: Vec<Plan> },
}

/// A question asked of one player at a tick.
#[derive(Debug)]
pub struct Asked {
    pub speaker: String,
    pub asked_tick: u64,
    pub waiting: Waiting,
}

/// What the machine needs to know about a line beyond its words, asked only when needed (it
/// may look at memory and the world, or run the parser).
pub trait Reading {
    /// The choice the line names by a given name or tag, or points at.
    fn choice_in_world(&mut self, choices: &[Choice]) -> Option<usize>;
    /// The line's dialogue type on its own, if it is understood at all.
    fn dialogue_type(&mut self) -> Option<DialogueType>;
}

/// What the player's line does.
#[derive(Debug)]
pub enum Next {
    /// Carry out the held-back plans; `confirmed` when the player said yes to "are you sure?".
    Carry { chat: String, lf: LogicalForm, plans: Vec<Plan>, confirmed: bool },
    /// Carry out a guess the player said yes to, and remember under `key` what the line meant.
    Learn { key: String, chat: String, lf: LogicalForm, plans: Vec<Plan> },
    /// The line amends the guessed command `lf` for `chat`: read it (or `said`, the amendment
    /// after a "no" in the same line), act on it, and (if it was done) remember it under `key`.
    Amend { key: String, chat: String, lf: LogicalForm, said: Option<String>, again: bool },
    /// Finish building `object` with these plans, or (`None`) leave it as it is.
    Finish { object: MemoryId, plans: Option<Vec<Plan>> },
    /// Run the command again, preferring the chosen memory.
    Retry { chat: String, lf: LogicalForm, prefer: MemoryId },
    /// Say this; the line is used up.
    Say(String),
    /// The line is not an answer: handle it on its own, after saying `note` if any.
    New { note: Option<&'static str> },
}

/// A step of the machine: what to do, and the question still open afterwards, if any.
#[derive(Debug)]
pub struct Step {
    pub next: Next,
    pub still: Option<Asked>,
}

impl Asked {
    /// The transition for the asked player's line (`words`, tokenized) at tick `now`.
    pub fn answer(self, words: &[String], line: &mut dyn Reading, now: u64) -> Step {
        let done = |next| Step { next, still: None };
        let Asked { speaker, asked_tick, waiting } = self;
        match waiting {
            Waiting::Confirm { chat, lf, plans } => match yes_no(words) {
                Some(true) => done(Next::Carry { chat, lf, plans, confirmed: true }),
                Some(false) => done(Next::Say("Okay, I won't.".into())),
                // A new command moves on; anything else is taken on its own and the question
                // stays open.
                None if line.dialogue_type() == Some(DialogueType::HumanGiveCommand) => done(Next::New { note: Some("I'll take that as a no.") }),
                None => Step { next: Next::New { note: None }, still: Some(Asked { speaker, asked_tick, waiting: Waiting::Confirm { chat, lf, plans } }) },
            },
            // Only a short answer counts ("yes", "no thanks"), and "stop" keeps its own meaning:
            // it must still halt whatever is running.
            Waiting::Guess { key, chat, lf, plans } => {
                let short = (words.len() <= 3 || only_an_answer(words)) && words.first().is_some_and(|w| w != "stop");
                if lexicon().is(Class::Cancel, &words.join(" ")) || no_then_cancel(words) {
                    return done(Next::Say("Okay, never mind.".into()));
                }
                // "nope, i meant build a gold tower": the no and the amendment in one line.
                if let Some(said) = (!short).then(|| no_then(words)).flatten() {
                    return done(Next::Amend { key, chat, lf, said: Some(said), again: false });
                }
                match if short { yes_no(words) } else { None } {
                    Some(true) => done(Next::Learn { key, chat, lf, plans }),
                    Some(false) => Step {
                        next: Next::Say("Sorry, I got that wrong. What should I change?".into()),
                        still: Some(Asked { speaker, asked_tick: now, waiting: Waiting::Amend { key, chat, lf, again: false } }),
                    },
                    // "stop" halts what runs and drops the guess, and so does a new command (the
                    // player moved on); any other line is taken on its own, and the guess stays
                    // open for a yes or no.
                    None if words.first().is_some_and(|w| w == "stop") => done(Next::New { note: None }),
                    None if line.dialogue_type() == Some(DialogueType::HumanGiveCommand) => done(Next::New { note: None }),
                    None => Step { next: Next::New { note: None }, still: Some(Asked { speaker, asked_tick, waiting: Waiting::Guess { key, chat, lf, plans } }) },
                }
            }
            Waiting::Finish { object, plans } => match yes_no(words) {
                Some(true) => done(Next::Finish { object, plans: Some(plans) }),
                Some(false) => done(Next::Finish { object, plans: None }),
                // The plan stays in memory: the question comes back after the next restart.
                None => done(Next::New { note: Some("I'll leave it for now.") }),
            },
            Waiting::Amend { key, chat, lf, again } => {
                let dropped = lexicon().is(Class::Cancel, &words.join(" ")) || (words.len() <= 2 && yes_no(words) == Some(false));
                if dropped {
                    done(Next::Say("Okay, never mind.".into()))
                } else if words.first().is_some_and(|w| w == "stop") {
                    done(Next::New { note: None })
                } else if matches!(line.dialogue_type(), Some(DialogueType::GetMemory | DialogueType::GetCapabilities | DialogueType::BotCapabilities)) {
                    // A question is no correction: it is answered, and the bot still waits.
                    Step { next: Next::New { note: None }, still: Some(Asked { speaker, asked_tick, waiting: Waiting::Amend { key, chat, lf, again } }) }
                } else {
                    done(Next::Amend { key, chat, lf, said: None, again })
                }
            }
            Waiting::Which { chat, lf, choices } => which(Asked { speaker, asked_tick, waiting: Waiting::Which { chat, lf, choices } }, words, line, now),
        }
    }
}

/// The amendment after a "no" that opens the line ("nope i meant a gold tower" → "a gold
/// tower"); `None` when the line does not open with one, or "stop"/"cancel" follows it (those
/// keep their own meaning).
fn no_then(words: &[String]) -> Option<String> {
    let lx = lexicon();
    let mut at = lx.phrase_at(Class::No, words, 0)?;
    while let Some(n) = [Class::CorrectionLead, Class::Filler, Class::Politeness].into_iter().find_map(|c| lx.phrase_at(c, words, at)) {
        at += n;
    }
    let rest = words.get(at..).filter(|r| !r.is_empty())?;
    let cancels = lx.phrase_at(Class::No, rest, 0).is_some() || lx.is(Class::Cancel, &rest.join(" "));
    (!cancels).then(|| rest.join(" "))
}

/// The "which one?" arm of [`Asked::answer`] (`asked` holds a [`Waiting::Which`]).
fn which(asked: Asked, words: &[String], line: &mut dyn Reading, now: u64) -> Step {
    let done = |next| Step { next, still: None };
    let Asked { speaker, asked_tick, waiting: Waiting::Which { chat, lf, choices } } = asked else {
        unreachable!("which() is only called with a Which question")
    };
    // "build a small lime sphere": a command of its own, opening with its verb, is no answer
    // even when a word of it ("small") would pick a choice.
    let lx = lexicon();
    let verb = words.first().is_some_and(|w| lx.verb(w).is_some() || lx.is(Class::CommandStart, w));
    if verb && line.dialogue_type() == Some(DialogueType::HumanGiveCommand) {
        return done(Next::New { note: Some("Okay, forget my question.") });
    }
    if let Some(k) = choose(words, &choices).or_else(|| line.choice_in_world(&choices)) {
        return done(Next::Retry { chat, lf, prefer: choices[k].id });
    }
    if yes_no(words) == Some(false) {
        return done(Next::Say("Okay, never mind.".into()));
    }
    match line.dialogue_type() {
        Some(DialogueType::HumanGiveCommand) => done(Next::New { note: Some("Okay, forget my question.") }),
        // A question back ("what is that?", "what can you do?") is answered, and the bot keeps
        // waiting for the choice.
        Some(DialogueType::GetMemory | DialogueType::GetCapabilities | DialogueType::BotCapabilities) => {
            Step { next: Next::New { note: None }, still: Some(Asked { speaker, asked_tick, waiting: Waiting::Which { chat, lf, choices } }) }
        }
        _ => {
            let labels: Vec<&str> = choices.iter().map(|c| c.label.as_str()).collect();
            let again = format!("Sorry, which one? {}", labels.join(" or "));
            Step { next: Next::Say(again), still: Some(Asked { speaker, asked_tick: now, waiting: Waiting::Which { chat, lf, choices } }) }
        }
    }
}

/// "nah nvm", "no forget it": a no, then words that drop the question.
fn no_then_cancel(words: &[String]) -> bool {
    let lx = lexicon();
    lx.phrase_at(Class::No, words, 0).is_some_and(|n| n < words.len() && lx.is(Class::Cancel, &words[n..].join(" ")))
}

/// An amendment without the words that lead it ("i wanted a tower of gold" → "a tower of
/// gold"); the line as it is when nothing would be left.
pub(super) fn without_leads(prepared: &str) -> String {
    let lx = lexicon();
    let words: Vec<&str> = prepared.split_whitespace().collect();
    let mut at = 0;
    while let Some(n) = [Class::CorrectionLead, Class::Filler, Class::Politeness].into_iter().find_map(|c| lx.phrase_at(c, &words, at)) {
        at += n;
    }
    if at >= words.len() { prepared.to_string() } else { words[at..].join(" ") }
}

/// Every open question, at most one a player.
#[derive(Debug, Default)]
pub struct Questions {
    open: Vec<Asked>,
}

impl Questions {
    /// Ask `speaker` a question at tick `now`.
    /// A new question replaces one still open for the same player.
    pub fn ask(&mut self, speaker: &str, now: u64, waiting: Waiting) {
        self.open.retain(|a| a.speaker != speaker);
        self.reopen(Asked { speaker: speaker.to_string(), asked_tick: now, waiting });
    }

    /// Keep a question open (one the machine handed back in [`Step::still`]).
    pub fn reopen(&mut self, asked: Asked) {
        self.open.push(asked);
    }

    /// The question `speaker` was asked, taken out to be answered.
    pub fn take(&mut self, speaker: &str) -> Option<Asked> {
        let i = self.open.iter().position(|a| a.speaker == speaker)?;
        Some(self.open.remove(i))
    }

    /// Is the bot waiting for an answer from anyone?
    pub fn is_waiting(&self) -> bool {
        !self.open.is_empty()
    }

    /// Questions left unanswered too long are dropped: a polite line for each.
    pub fn expire(&mut self, now: u64) -> Vec<String> {
        let (expired, kept): (Vec<Asked>, Vec<Asked>) = self.open.drain(..).partition(|a| now.saturating_sub(a.asked_tick) > ANSWER_TICKS);
        self.open = kept;
        expired.into_iter().map(|a| format!("{}, never mind my question; I'll leave it for now.", a.speaker)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::{tokenize, validate_json};

    /// A line as the manager would read it: a fixed world choice and dialogue type, counting
    /// how often each was asked.
    #[derive(Default)]
    struct Fake {
        in_world: Option<usize>,
        reads_as: Option<DialogueType>,
        asked: usize,
    }

    impl Reading for Fake {
        fn choice_in_world(&mut self, _: &[Choice]) -> Option<usize> {
            self.asked += 1;
            self.in_world
        }
        fn dialogue_type(&mut self) -> Option<DialogueType> {
            self.asked += 1;
            self.reads_as
        }
    }

    fn lf() -> LogicalForm {
        validate_json("stop", r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "STOP"}]}"#).unwrap()
    }

    fn asked(waiting: Waiting) -> Asked {
        Asked { speaker: "alice".into(), asked_tick: 10, waiting }
    }

    fn which() -> Asked {
        let choices = vec![Choice { label: "the red tower".into(), id: 7 }, Choice { label: "the blue tower".into(), id: 8 }];
        asked(Waiting::Which { chat: "destroy the tower".into(), lf: lf(), choices })
    }

    fn confirm() -> Asked {
        asked(Waiting::Confirm { chat: "undo".into(), lf: lf(), plans: vec![Plan::Stop] })
    }

    fn guess() -> Asked {
        asked(Waiting::Guess { key: "cube".into(), chat: "cube".into(), lf: lf(), plans: vec![Plan::Stop] })
    }

    fn step(a: Asked, line: &str, reading: &mut Fake) -> Step {
        a.answer(&tokenize(line), reading, 50)
    }

    #[test]
    fn are_you_sure_yes_no_and_anything_else() {
        let s = step(confirm(), "yes please", &mut Fake::default());
        assert!(matches!(s.next, Next::Carry { confirmed: true, .. }) && s.still.is_none(), "{s:?}");
        let s = step(confirm(), "no", &mut Fake::default());
        assert!(matches!(s.next, Next::Say(ref l) if l == "Okay, I won't."), "{s:?}");
        // Everyday forms of yes and no.
        for (line, yes) in [("ya", true), ("yep", true), ("sure", true), ("go ahead", true), ("nah", false), ("nope", false)] {
            let s = step(confirm(), line, &mut Fake::default());
            assert_eq!(matches!(s.next, Next::Carry { .. }), yes, "{line}: {s:?}");
        }
        // A new command counts as no and is then taken on its own.
        let s = step(confirm(), "build a house", &mut Fake { reads_as: Some(DialogueType::HumanGiveCommand), ..Fake::default() });
        assert!(matches!(s.next, Next::New { note: Some("I'll take that as a no.") }) && s.still.is_none(), "{s:?}");
        // Any other line is taken on its own; the question stays open, from when it was asked.
        let s = step(confirm(), "where are you", &mut Fake { reads_as: Some(DialogueType::GetMemory), ..Fake::default() });
        assert!(matches!(s.next, Next::New { note: None }), "{s:?}");
        assert!(matches!(s.still, Some(Asked { asked_tick: 10, waiting: Waiting::Confirm { .. }, .. })), "{:?}", s.still);
    }

    #[test]
    fn did_you_mean_yes_no_and_a_new_line() {
        let s = step(guess(), "yes", &mut Fake::default());
        assert!(matches!(s.next, Next::Learn { .. }), "{s:?}");
        let s = step(guess(), "no thanks", &mut Fake::default());
        assert!(matches!(s.next, Next::Say(ref l) if l == "Sorry, I got that wrong. What should I change?"), "{s:?}");
        let amend = s.still.expect("waiting for the change");
        assert!(matches!(amend.waiting, Waiting::Amend { .. }));
        let s = amend.answer(&tokenize("20 long and 5 high"), &mut Fake::default(), 60);
        assert!(matches!(s.next, Next::Amend { ref chat, .. } if chat == "cube") && s.still.is_none(), "{s:?}");
        let never = asked(Waiting::Amend { key: "cube".into(), chat: "cube".into(), lf: lf(), again: false });
        assert!(matches!(step(never, "never mind", &mut Fake::default()).next, Next::Say(ref l) if l == "Okay, never mind."));
        // A longer line is new even if it starts like an answer: a question back keeps the guess
        // open, a new command drops it; "stop" keeps its meaning and drops the guess.
        let s = step(guess(), "what can you do", &mut Fake { reads_as: Some(DialogueType::GetCapabilities), ..Fake::default() });
        assert!(matches!(s.next, Next::New { note: None }) && s.still.is_some(), "{s:?}");
        for line in ["yes build a red cube now", "tower with a door"] {
            let s = step(guess(), line, &mut Fake { reads_as: Some(DialogueType::HumanGiveCommand), ..Fake::default() });
            assert!(matches!(s.next, Next::New { note: None }) && s.still.is_none(), "{line}: {s:?}");
        }
        let s = step(guess(), "stop", &mut Fake::default());
        assert!(matches!(s.next, Next::New { note: None }) && s.still.is_none(), "{s:?}");
    }

    /// "nope, i meant build a gold tower": the no and what was meant in one line amend the guess
    /// at once, and are learned like an amendment after "What should I change?".
    #[test]
    fn a_no_with_what_was_meant_amends_in_one_line() {
        for (line, said) in [("nope i meant build a gold tower", "build a gold tower"), ("nah i wanted a tower made of gold", "a tower made of gold")] {
            let s = step(guess(), line, &mut Fake::default());
            assert!(matches!(s.next, Next::Amend { said: Some(ref w), .. } if w == said) && s.still.is_none(), "{line}: {s:?}");
        }
        // "no stop" still stops, and "nah forget it" drops the guess.
        for line in ["no stop that now please", "nah forget it"] {
            let s = step(guess(), line, &mut Fake { reads_as: Some(DialogueType::HumanGiveCommand), ..Fake::default() });
            assert!(!matches!(s.next, Next::Amend { .. }), "{line}: {s:?}");
        }
    }

    #[test]
    fn which_one_is_answered_by_words_or_by_the_world() {
        let mut r = Fake::default();
        let s = step(which(), "the blue one", &mut r);
        assert!(matches!(s.next, Next::Retry { prefer: 8, .. }) && s.still.is_none(), "{s:?}");
        assert_eq!(r.asked, 0, "the words were enough: the world is not asked");
        let s = step(which(), "that one", &mut Fake { in_world: Some(0), ..Fake::default() });
        assert!(matches!(s.next, Next::Retry { prefer: 7, .. }), "{s:?}");
    }

    #[test]
    fn which_one_no_a_new_command_and_a_question_back() {
        let s = step(which(), "never mind", &mut Fake::default());
        assert!(matches!(s.next, Next::Say(ref l) if l == "Okay, never mind."), "{s:?}");
        let s = step(which(), "come here", &mut Fake { reads_as: Some(DialogueType::HumanGiveCommand), ..Fake::default() });
        assert!(matches!(s.next, Next::New { note: Some("Okay, forget my question.") }) && s.still.is_none(), "{s:?}");
        // A question back is answered on its own and the question stays, from when it was asked.
        let s = step(which(), "what can you do", &mut Fake { reads_as: Some(DialogueType::GetCapabilities), ..Fake::default() });
        assert!(matches!(s.next, Next::New { note: None }), "{s:?}");
        assert!(matches!(s.still, Some(Asked { asked_tick: 10, waiting: Waiting::Which { .. }, .. })), "{:?}", s.still);
    }

    #[test]
    fn which_one_asks_again_after_an_unclear_line() {
        let s = step(which(), "hmm", &mut Fake { reads_as: Some(DialogueType::Noop), ..Fake::default() });
        assert!(matches!(s.next, Next::Say(ref l) if l == "Sorry, which one? the red tower or the blue tower"), "{s:?}");
        assert!(matches!(s.still, Some(Asked { asked_tick: 50, .. })), "asked again now: {:?}", s.still);
    }

    #[test]
    fn questions_belong_to_one_player_and_time_out() {
        let mut q = Questions::default();
        q.ask("alice", 100, Waiting::Guess { key: "cube".into(), chat: "cube".into(), lf: lf(), plans: Vec::new() });
        assert!(q.is_waiting());
        assert!(q.take("bob").is_none(), "another player's line is no answer");
        assert!(q.expire(100 + ANSWER_TICKS).is_empty(), "not yet");
        assert_eq!(q.expire(101 + ANSWER_TICKS), vec!["alice, never mind my question; I'll leave it for now.".to_string()]);
        assert!(!q.is_waiting() && q.take("alice").is_none());
        q.ask("alice", 0, Waiting::Guess { key: "cube".into(), chat: "cube".into(), lf: lf(), plans: Vec::new() });
        // A second question to the same player replaces the first.
        q.ask("alice", 5, Waiting::Amend { key: "cube".into(), chat: "cube".into(), lf: lf(), again: false });
        assert_eq!(q.take("alice").map(|a| a.asked_tick), Some(5));
        assert!(!q.is_waiting(), "taken out to be answered");
    }
}
