//! The dialogue manager: every chat line goes through [`DialogueManager::handle`].
//!
//! 1. The chat gate ([`crate::safety::gate`]) answers empty, overlong and disallowed lines.
//! 2. A question the bot asked this player (which one? are you sure? did you mean?) takes the
//!    line first: the state machine in [`super::waiting`] says what it does.
//! 3. Otherwise a logical form comes from, in order: a scenario's `lf` override, what the player
//!    taught the bot (a "did you mean?" answered yes or amended, kept in memory), and
//!    [`crate::understanding`] (typos, known lines, the parser, sequences, measures). Too little
//!    confidence counts as chit-chat, never as a command; some confidence makes a "did you mean?"
//!    question that says everything the bot would do.
//! 4. The form is routed by dialogue type: commands to the interpreter (whose plans
//!    [`crate::interpreter::execute`] carries out), questions to memory, naming and feedback to
//!    memory updates, capabilities and chit-chat to canned lines or the language model.

use super::answers::{looked_choice, named_choice, placed_choice, ranked_choice};
use super::context::Context;
use super::last::{LastLine, Outcome};
use super::thinking::{Job, Thinking};
use super::say;
use super::steps::PendingLine;
use super::waiting::{Asked, Next, Questions, Reading, Waiting};
use crate::interpreter::actions::{self, Plan};
use crate::interpreter::context::Turn;
use crate::interpreter::execute::{Executed, describe_plans, execute};
use crate::interpreter::problem::Choice;
use crate::interpreter::{naming, questions};
use crate::logical_form::{DialogueType, LogicalForm, normalize, tokenize, validate_json};
use crate::memory::Memory;
use crate::parser::Parser;
use crate::understanding::step::{self, Step};
use crate::understanding::{Reading as Understood, Source, Understanding};
use crate::safety::gate::{ChatGate, Screened};
use crate::schematics;
use crate::tasks::TaskMeta;
use std::collections::VecDeque;

/// Default confidence for acting on a parse at once, and for asking it back as a guess.
pub const ACT_CONFIDENCE: f32 = 0.6;
pub const GUESS_CONFIDENCE: f32 = 0.15;

/// What an answer to an open question made of the line.
enum Taken {
    /// The answer settled the line: what to say.
    Settled(Vec<String>),
    /// The line is a new one after all; say this first, if anything.
    New(Option<String>),
}

pub struct DialogueManager {
    /// The checks every line passes first.
    pub gate: ChatGate,
    /// From chat to a logical form: known lines, typos, the parser, sequences, measures.
    pub understanding: Understanding,
    /// Parses less sure than this are not acted on straight away.
    pub min_confidence: f32,
    /// Commands at least this sure (but below `min_confidence`) are offered back as a guess,
    /// "Did you mean: building a red cube? (yes/no)"; less sure ones count as chit-chat.
    pub guess_confidence: f32,
    pub limits: schematics::Limits,
    /// The optional language model for small talk, and how long it may think.
    pub llm: Option<(std::sync::Arc<dyn crate::llm::Chat>, std::time::Duration)>,
    /// What the server owner decided for everyone (lessons shared or each player's own).
    pub rules: crate::safety::owner::OwnerRules,
    overrides: Vec<(String, String, LogicalForm)>,
    pub(super) questions: Questions,
    /// Small-talk answers the language model is working on (they never block the tick).
    thinking: Thinking,
    /// What the bot made of the last line (for the web view).
    pub last: Option<LastLine>,
    lines_handled: u64,
    /// Lines of several steps still going on, one per player ([`super::steps`]).
    pub(super) pending: Vec<PendingLine>,
}

impl DialogueManager {
    pub fn new(parser: Option<Box<dyn Parser>>) -> DialogueManager {
        DialogueManager {
            gate: ChatGate::default(),
            understanding: Understanding::new(parser),
            min_confidence: ACT_CONFIDENCE,
            guess_confidence: GUESS_CONFIDENCE,
            limits: schematics::Limits::default(),
            llm: None,
            rules: Default::default(),
            overrides: Vec::new(),
            questions: Questions::default(),
            thinking: Thinking::default(),
            last: None,
            lines_handled: 0,
            pending: Vec::new(),
        }
    }

    /// Use `lf` when `speaker` says `text` (scenario `lf` steps).
    pub fn expect_parse(&mut self, speaker: &str, text: &str, lf: LogicalForm) {
        self.overrides.push((speaker.to_string(), normalize(text), lf));
    }

    /// Is a language-model answer still being worked on?
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_thinking()
    }

    /// Asks `speaker` a question of the bot's own (said by the caller), kept open like any other.
    pub fn ask(&mut self, speaker: &str, now: u64, waiting: Waiting) {
        self.questions.ask(speaker, now, waiting);
    }

    /// Is the bot waiting for an answer from anyone?
    pub fn is_waiting(&self) -> bool {
        self.questions.is_waiting()
    }

    /// Lines that are due without new chat: the language model's answers that are ready (or
    /// past their limit: a polite line), and questions left unanswered too long, dropped.
    pub fn tick(&mut self, now: u64) -> Vec<String> {
        let mut lines = self.thinking.poll();
        lines.extend(self.questions.expire(now));
        lines
    }

    /// Notes what was done with the line being handled (a later note wins).
    pub(super) fn note(&mut self, outcome: Outcome) {
        if let Some(last) = &mut self.last {
            last.outcome = outcome;
        }
    }

    /// Handle one chat line said in `cx`; returns what to say.
    pub fn handle(&mut self, cx: &mut Context, chat: &str) -> Vec<String> {
        self.lines_handled += 1;
        self.last = Some(LastLine::new(self.lines_handled, cx.speaker, chat, cx.now()));
        // "hey Helper, come here": the bot's own name only addresses it.
        let unaddressed = super::address::unaddressed(chat, cx.world.agent_name());
        let chat = unaddressed.as_str();
        let text = match self.gate.screen(chat) {
            Screened::Pass(text) => text,
            Screened::Reply(line) => {
                self.note(Outcome::Screened);
                return vec![line];
            }
        };
        let mut replies = Vec::new();
        if let Some(asked) = self.questions.take(cx.speaker) {
            match self.answer(cx, asked, &text) {
                Taken::Settled(replies) => return replies,
                Taken::New(note) => replies.extend(note),
            }
        }
        let prepared = self.prepare(cx.memory, chat).0;
        if let Some(answer) = self.lessons(cx, &prepared) {
            replies.push(answer);
            return replies;
        }
        // "where are you and what are you doing": each question answered in turn.
        if let Some(parts) = self.several_questions(cx, chat) {
            return parts.iter().fold(replies, |mut r, part| {
                r.extend(self.handle(cx, part));
                r
            });
        }
        // The line as typed: its punctuation still tells steps apart ("spawn a cow, build a tower").
        let started = std::time::Instant::now();
        let reading = self.understand(cx.speaker, cx.memory, chat);
        if let (Some(r), Some(last)) = (&reading, &mut self.last) {
            last.read(&r.text, &r.lf, r.confidence, r.source, &r.fixes, started.elapsed());
        }
        let Some(reading) = reading else {
            // No parser loaded and not a known line: answer as chit-chat, which points to help.
            replies.extend(self.small_talk(cx, &text));
            return replies;
        };
        let Understood { text, lf, confidence, source, .. } = reading;
        tracing::debug!(%text, ?source, confidence, form = %lf.to_json_string(), "understood");
        if let Some(answer) = self.from_history(cx, source, &text) {
            replies.push(answer);
            return replies;
        }
        // A question changes nothing in the world: an unsure one is answered (an odd answer is
        // cheap), a command needs the full confidence.
        let needed = if lf.dialogue_type == DialogueType::GetMemory { self.guess_confidence } else { self.min_confidence };
        if confidence < needed && lf.dialogue_type != DialogueType::Noop {
            if let Some(question) = self.guess(cx, chat, &text, &lf, confidence) {
                self.note(Outcome::AskedBack);
                replies.push(question);
                return replies;
            }
            // An unsure reading of something the bot cannot do at all is still said plainly.
            if lf.dialogue_type == DialogueType::HumanGiveCommand
                && lf.actions().iter().all(|a| a.action_type == crate::logical_form::ActionType::OtherAction)
            {
                self.note(Outcome::NotDone);
                replies.push("I don't know how to do that yet.".into());
                return replies;
            }
            tracing::debug!(confidence, "parse too unsure; treating as chit-chat");
            self.note(Outcome::SmallTalk);
            // Small talk it knows is answered as such; anything else is said to be unclear once.
            replies.push(say::small_talk(&text).unwrap_or_else(|| {
                "I'm not sure what you mean. Try \"build a red tower\", or ask \"what can you do\".".into()
            }));
            return replies;
        }
        replies.extend(self.route(cx, &text, &lf));
        // A number, colour or compass word the form does not use is said, never dropped in silence.
        if lf.dialogue_type == DialogueType::HumanGiveCommand && matches!(source, Source::Parser | Source::Steps) {
            let missed = crate::understanding::details::unused(&lf, &tokenize(&text));
            if !missed.is_empty() {
                replies.push(format!("(I didn't get what you meant by \"{}\".)", missed.join(" ")));
            }
        }
        replies
    }

    /// The speaker's open question, answered by this line: settled (what to say), or the line
    /// is a new one after all (with what to say first, if anything).
    fn answer(&mut self, cx: &mut Context, asked: Asked, text: &str) -> Taken {
        self.note(Outcome::Answer);
        let words = tokenize(text);
        let now = cx.now();
        let step = asked.answer(&words, &mut Heard { dm: self, cx, text, words: &words }, now);
        let still_open = step.still.is_some();
        if let Some(still) = step.still {
            self.questions.reopen(still);
        }
        // A line held by this question goes on after a yes or a choice; otherwise it is dropped.
        if !still_open && !matches!(step.next, Next::Carry { .. } | Next::Learn { .. } | Next::Retry { .. }) {
            self.drop_held(cx.speaker);
        }
        match step.next {
            Next::Carry { chat, lf, plans, confirmed } => Taken::Settled(self.execute(cx, plans, &chat, &lf, confirmed)),
            Next::Learn { key, chat, lf, plans } => {
                self.learn(cx, &key, &chat, &lf);
                Taken::Settled(self.execute(cx, plans, &chat, &lf, false))
            }
            Next::Amend { key, chat, lf, said, again } => Taken::Settled(self.amend(cx, &key, &chat, &lf, said.as_deref().unwrap_or(text), again)),
            Next::Retry { chat, lf, prefer } => Taken::Settled(self.step_again(cx, &chat, &lf, prefer)),
            Next::Finish { object: _, plans: Some(plans) } => {
                self.note(Outcome::ActedOn);
                let meta = TaskMeta { speaker: Some(cx.speaker.to_string()), chat: Some(text.to_string()), ..TaskMeta::default() };
                Taken::Settled(match execute(plans, meta, cx.world, cx.tasks, cx.memory, true) {
                    Executed::Done(replies, _) => replies,
                    Executed::Ask { question, .. } => vec![question],
                })
            }
            Next::Finish { object, plans: None } => {
                if let Err(e) = cx.memory.finish_plan(object) {
                    tracing::warn!("could not drop the plan of {object}: {e}");
                }
                Taken::Settled(vec!["Okay, I'll leave it as it is.".into()])
            }
            Next::Say(line) => Taken::Settled(vec![line]),
            Next::New { note } => {
                self.note(Outcome::Reading);
                Taken::New(note.map(String::from))
            }
        }
    }

    /// A question about the bot's own doings, answered from its history ("did you build a
    /// house?", "what did I ask you before this?", "what have you built?"), or a how-to question
    /// when no language model is there to answer it.
    fn from_history(&mut self, cx: &mut Context, source: Source, text: &str) -> Option<String> {
        let answer = match source {
            Source::HowTo if self.llm.is_none() => say::how_to(),
            Source::DidYou => super::about_me::did_you(text, cx.tasks),
            Source::AskedMe => super::about_me::asked_me(text, cx.speaker, cx.tasks, cx.memory),
            Source::WhatBuilt => questions::built_so_far(cx.memory, questions::Built::from(&step::form(text).details)),
            _ => return None,
        };
        self.note(Outcome::Answered);
        Some(answer)
    }

    /// For a command the parser is unsure of (but not hopeless about), what the bot would do,
    /// asked back as a yes/no question, the plans waiting on the answer. `None` when the guess is
    /// too weak, is not a command, or would do nothing the player could recognise.
    fn guess(&mut self, cx: &mut Context, chat: &str, text: &str, lf: &LogicalForm, confidence: f32) -> Option<String> {
        if confidence < self.guess_confidence || lf.dialogue_type != DialogueType::HumanGiveCommand {
            return None;
        }
        // The first step as it would be done now; the later ones in the player's words (they are
        // interpreted when they start).
        let mut steps: VecDeque<Step> = self.understanding.steps(text, lf).into();
        // A line that starts by naming something ("call the tower lighthouse then …") is held
        // whole: on yes it goes on from its first step.
        let (plans, mut what) = if steps.front()?.lf.dialogue_type != DialogueType::HumanGiveCommand {
            (Vec::new(), Vec::new())
        } else {
            let first = steps.pop_front()?;
            let mut turn = Turn::new(cx.speaker, first.form.clone(), cx.world, cx.memory);
            turn.rules = self.rules;
            let plans = actions::command(&mut turn, &first.lf, &self.limits).ok()?;
            let what = describe_plans(&plans, cx.speaker)?;
            (plans, vec![what])
        };
        what.extend(steps.iter().map(|s| format!("\"{}\"", s.form.words.join(" "))));
        let what = what.join(", then ");
        // Lessons are kept under the line as it is prepared, the key they are looked up by.
        let key = self.prepare(cx.memory, chat).0;
        self.questions.ask(cx.speaker, cx.now(), Waiting::Guess { key, chat: text.to_string(), lf: lf.clone(), plans });
        // Only a line held by an earlier question gives way: a line still going on keeps its
        // steps while the player asks something else.
        self.pending.retain(|p| !(p.speaker == cx.speaker && p.held));
        if !steps.is_empty() {
            self.pending.push(PendingLine { speaker: cx.speaker.to_string(), chat: text.to_string(), steps, waiting: Vec::new(), held: true, antecedent: None });
        }
        Some(format!("Not sure I got that. Did you mean: {what}? (yes/no)"))
    }

    /// The line prepared for reading (the key lessons are kept under), its typo fixes, and the
    /// line prepared with no fix. A name players gave ("frosty") is a word the bot knows, never
    /// a typo for another: a line with one keeps its words.
    pub(super) fn prepare(&self, memory: &Memory, chat: &str) -> (String, Vec<(String, String)>, String) {
        let (prepared, fixes) = self.understanding.prepare(chat);
        let unfixed = self.understanding.prepare_unfixed(chat);
        if fixes.iter().any(|(from, _)| memory.is_word_of_a_name(from).unwrap_or(false)) {
            return (unfixed.clone(), Vec::new(), unfixed);
        }
        (prepared, fixes, unfixed)
    }

    /// A logical form for the chat: a scenario's override, what the player taught, then
    /// [`Understanding`].
    pub(super) fn understand(&self, speaker: &str, memory: &Memory, chat: &str) -> Option<Understood> {
        let normalized = normalize(chat);
        if let Some((_, _, lf)) = self.overrides.iter().rev().find(|(s, t, _)| s == speaker && *t == normalized) {
            return Some(Understood { text: normalized, lf: lf.clone(), confidence: 1.0, source: Source::Given, fixes: Vec::new() });
        }
        let (prepared, fixes, unfixed) = self.prepare(memory, chat);
        // A lesson is the teacher's own unless the owner shares lessons.
        let teacher = (!self.rules.share_lessons).then_some(speaker);
        if let Ok(Some(taught)) = memory.learned(&prepared, teacher)
            && let Ok(lf) = validate_json(&taught.text, &taught.form)
        {
            return Some(Understood { text: taught.text, lf, confidence: 1.0, source: Source::Taught, fixes });
        }
        let is_name = |w: &str| memory.objects_with_name(w).is_ok_and(|ids| !ids.is_empty());
        let direct = self.understanding.read_best(&prepared, &unfixed);
        let named = self.understanding.read_with_names(&prepared, is_name);
        let surer = match (direct, named) {
            // Chit-chat is never the better reading of a line that names a known thing.
            (Some(d), Some(n)) => {
                let chat = |r: &Understood| r.lf.dialogue_type == DialogueType::Noop;
                let named_wins = match (chat(&d), chat(&n)) {
                    (true, false) => true,
                    (false, true) => false,
                    _ => n.confidence > d.confidence,
                };
                Some(if named_wins { n } else { d })
            }
            (d, n) => d.or(n),
        };
        let surer = surer.map(|r| Understood { fixes, ..r });
        self.request_after_remark(speaker, memory, chat, surer)
    }

    fn route(&mut self, cx: &mut Context, text: &str, lf: &LogicalForm) -> Vec<String> {
        match lf.dialogue_type {
            DialogueType::HumanGiveCommand => self.command(cx, text, lf, None),
            // Open questions ("what do you like to build?", "how are you?") are annotated as
            // GET_MEMORY without filters: nothing in memory answers them, so they are small talk
            // when the bot has something to say (about itself, a known line, the model's answer).
            DialogueType::GetMemory
                if lf.filters.is_none() && (self.llm.is_some() || about_me(cx, text).is_some() || say::small_talk(text).is_some()) =>
            {
                self.small_talk(cx, text)
            }
            DialogueType::GetMemory => {
                self.note(Outcome::Answered);
                let answer = questions::answer(&mut Turn::new(cx.speaker, step::form(text), cx.world, cx.memory), lf, cx.tasks);
                vec![answer]
            }
            DialogueType::PutMemory => {
                self.note(Outcome::Remembered);
                let last = cx.tasks.history().last().map(|r| r.description.clone());
                match naming::update(&mut cx.turn(text), lf, last.as_deref()) {
                    naming::Updated::Said(said) => vec![said],
                    naming::Updated::Which { question, choices } => {
                        self.questions.ask(cx.speaker, cx.now(), Waiting::Which { chat: text.to_string(), lf: lf.clone(), choices });
                        vec![question]
                    }
                }
            }
            DialogueType::GetCapabilities | DialogueType::BotCapabilities => {
                self.note(Outcome::Answered);
                vec![say::capabilities(lf)]
            }
            _ => self.small_talk(cx, text),
        }
    }

    /// Chat that is not a command: a question about the bot is answered from its own facts;
    /// other lines go to the language model when one is configured (answered on a later tick,
    /// grounded in memory), else get a canned line.
    fn small_talk(&mut self, cx: &Context, text: &str) -> Vec<String> {
        if let Some(answer) = about_me(cx, text) {
            self.note(Outcome::Answered);
            return vec![answer];
        }
        self.note(Outcome::SmallTalk);
        let Some((chat, limit)) = &self.llm else { return vec![say::chit_chat(text)] };
        let (world, memory) = (cx.world, &*cx.memory);
        let mut recent: Vec<(String, String)> =
            memory.recent_chats(6, None).unwrap_or_default().into_iter().map(|c| (c.speaker, c.text)).collect();
        recent.reverse();
        let nearby = memory
            .objects_of_kind(crate::memory::MemoryKind::BlockObject)
            .unwrap_or_default()
            .into_iter()
            .filter(|o| o.pos.distance(world.agent_pos().feet()) < 32.0)
            .take(8)
            .map(|o| format!("{} at {}", crate::interpreter::describe::the(memory, o.id), o.bbox.min))
            .collect();
        let grounding = crate::llm::Grounding {
            bot_name: world.agent_name().to_string(),
            doing: cx.tasks.current(),
            nearby,
            players: world.players().into_iter().map(|p| p.name).collect(),
            recent_chat: recent,
        };
        let job = Job { chat: chat.clone(), grounding, disallowed: self.gate.disallowed.clone(), text: text.to_string(), limit: *limit };
        self.thinking.ask(cx.speaker, job);
        Vec::new()
    }

    /// Carry out plans; a yes/no question the executor asks first is kept open.
    fn execute(&mut self, cx: &mut Context, plans: Vec<Plan>, text: &str, lf: &LogicalForm, confirmed: bool) -> Vec<String> {
        let meta = TaskMeta { speaker: Some(cx.speaker.to_string()), chat: Some(text.to_string()), logical_form: Some(lf.to_json_value()), ..TaskMeta::default() };
        match execute(plans, meta, cx.world, cx.tasks, cx.memory, confirmed) {
            Executed::Done(replies, pushed) => {
                self.note(Outcome::ActedOn);
                self.release(cx.speaker, pushed);
                replies
            }
            Executed::Ask { question, plans } => {
                self.note(Outcome::AskedBack);
                self.questions.ask(cx.speaker, cx.now(), Waiting::Confirm { chat: text.to_string(), lf: lf.clone(), plans });
                vec![question]
            }
        }
    }
}

/// A line that may answer a question, read as the state machine asks: by memory and the
/// world for a choice, by understanding it on its own for its dialogue type.
struct Heard<'h, 'c> {
    dm: &'h DialogueManager,
    cx: &'h mut Context<'c>,
    text: &'h str,
    words: &'h [String],
}

impl Reading for Heard<'_, '_> {
    fn choice_in_world(&mut self, choices: &[Choice]) -> Option<usize> {
        let at = self.cx.world.players().into_iter().find(|p| p.name == self.cx.speaker).map(|p| p.pos);
        named_choice(self.words, choices, self.cx.memory)
            .or_else(|| placed_choice(self.words, choices, self.cx.memory))
            .or_else(|| ranked_choice(self.words, choices, self.cx.memory, at))
            .or_else(|| looked_choice(self.cx.speaker, self.text, choices, self.cx.world, self.cx.memory))
    }

    fn dialogue_type(&mut self) -> Option<DialogueType> {
        // "what have you learned?" is a question about memory whatever the parser makes of it.
        if super::lessons::about_lessons(&self.dm.prepare(self.cx.memory, self.text).0).is_some() {
            return Some(DialogueType::GetMemory);
        }
        self.dm.understand(self.cx.speaker, self.cx.memory, self.text).map(|r| r.lf.dialogue_type)
    }
}

/// The answer to `text` if it asks about the bot itself.
fn about_me(cx: &Context, text: &str) -> Option<String> {
    let me = super::about_me::Me { name: cx.world.agent_name(), doing: cx.tasks.current(), at: cx.world.agent_pos() };
    super::about_me::answer(text, &me)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::tasks::TaskStack;
    use crate::logical_form::validate_json;
    use crate::memory::fixture::Fixture;

    /// A manager primed to read "destroy the red tower" (the fixture has two red towers).
    fn red_tower_command() -> (DialogueManager, TaskStack, &'static str) {
        let mut dm = DialogueManager::new(None);
        let text = "destroy the red tower";
        let lf = validate_json(
            text,
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DESTROY", "reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": [0, [2, 2]]}, {"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}}}]}"#,
        )
        .expect("valid");
        dm.expect_parse("alice", text, lf);
        (dm, TaskStack::default(), text)
    }

    /// A parser that reads every line as "build a <first word>" with a fixed confidence.
    struct Unsure(f32);

    impl Parser for Unsure {
        fn parse(&self, text: &str) -> crate::parser::Parsed {
            let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
                "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [0, 0]]}]}}}}]}"#;
            let lf = validate_json(text, json).expect("valid for any one-word-or-longer text");
            crate::parser::Parsed { lf, confidence: self.0, choices: Vec::new() }
        }
    }

    /// A world, an empty task stack, and a manager whose parser is always this sure.
    /// A manager whose parser reads every line as a command, this sure of it.
    pub(in crate::dialogue) fn unsure(confidence: f32) -> (Fixture, TaskStack, DialogueManager) {
        (Fixture::new(), TaskStack::default(), DialogueManager::new(Some(Box::new(Unsure(confidence)))))
    }

    #[test]
    fn an_unsure_command_is_asked_back_and_yes_carries_it_out() {
        let (mut f, mut tasks, mut dm) = unsure(0.3);
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "cube");
        assert!(r.len() == 1 && r[0].starts_with("Not sure I got that. Did you mean: building a") && r[0].ends_with("(yes/no)"), "{r:?}");
        assert!(tasks.current().is_none(), "nothing happens before the answer");
        // Another player's "yes" is not an answer.
        dm.handle(&mut Context::new("bob", &f.world, &mut f.memory, &mut tasks), "yes");
        assert!(tasks.current().is_none());
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "yes");
        assert!(r.iter().any(|l| l.starts_with("Okay, building")), "{r:?}");
        assert!(tasks.current().is_some());
    }

    #[test]
    fn an_unsure_guess_is_dropped_by_no_or_by_a_new_line_and_stop_still_stops() {
        let (mut f, mut tasks, mut dm) = unsure(0.3);
        dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "cube");
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "no");
        assert_eq!(r, vec!["Sorry, I got that wrong. What should I change?".to_string()]);
        assert!(dm.is_waiting() && tasks.current().is_none());
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "never mind");
        assert_eq!(r, vec!["Okay, never mind.".to_string()]);
        assert!(!dm.is_waiting() && tasks.current().is_none());
        // A new line instead of an answer is understood on its own (here: asked back again).
        dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "cube");
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "tower with a door");
        assert!(r[0].starts_with("Not sure I got that"), "{r:?}");
        // "stop" is never taken as the answer "no": it reaches the task stack.
        dm.expect_parse("alice", "stop", validate_json("stop", r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "STOP"}]}"#).unwrap());
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "stop");
        assert!(r[0].contains("not doing anything"), "{r:?}");
    }

    #[test]
    fn a_hopeless_parse_is_chit_chat_and_a_sure_one_acts_at_once() {
        let (mut f, mut tasks, mut dm) = unsure(0.05);
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "cube");
        assert!(r[0].starts_with("I'm not sure what you mean"), "{r:?}");
        assert_eq!(r[0].matches("not sure").count(), 1, "said once: {r:?}");
        assert!(!dm.is_waiting());
        let (_, _, mut dm) = unsure(0.9);
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "cube");
        assert!(r[0].starts_with("Okay, building"), "{r:?}");
    }

    #[test]
    fn a_question_back_is_answered_and_the_which_one_stays() {
        let mut f = Fixture::new();
        let (mut dm, mut tasks, text) = red_tower_command();
        // The fixture has two red towers.
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), text);
        assert!(r[0].starts_with("Which one: the red tower"), "{r:?}");
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "what can you do");
        assert!(r.len() == 1 && r[0].starts_with("I can build"), "{r:?}");
        assert!(dm.is_waiting(), "still waiting for the choice");
        // Another player's line never answers alice's question.
        dm.handle(&mut Context::new("bob", &f.world, &mut f.memory, &mut tasks), "the first one");
        assert!(dm.is_waiting());
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "the first one");
        assert!(!dm.is_waiting());
        assert!(r[0].starts_with("Okay"), "{r:?}");
    }

    #[test]
    fn a_which_one_is_answered_by_a_tag_the_player_gave() {
        use crate::memory::fixture::TALL_RED_TOWER;
        use crate::memory::{MemoryKind, NewTriple};
        let mut f = Fixture::new();
        let beacon = f.id_at(TALL_RED_TOWER);
        f.memory.add_triple(NewTriple::text(beacon, "has_tag", "beacon")).unwrap();
        let (mut dm, mut tasks, text) = red_tower_command();
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), text);
        assert!(r[0].starts_with("Which one"), "{r:?}");
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), "the beacon");
        assert!(!dm.is_waiting(), "answered: {r:?}");
        assert_eq!(f.memory.last_attended(&[MemoryKind::BlockObject]).unwrap(), Some(beacon));
    }
}
