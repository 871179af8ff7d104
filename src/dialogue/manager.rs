//! The dialogue manager: every chat line goes through [`DialogueManager::handle`].
//!
//! 1. Disallowed words get a polite refusal and nothing else.
//! 2. A question the bot asked this player (which one? are you sure?) takes the answer.
//! 3. Otherwise a logical form comes from, in order: a scenario's `lf` override, the exact-match
//!    table, the parser. Too little confidence counts as chit-chat, never as a command.
//! 4. The form is routed by dialogue type: commands to the interpreter, questions to memory,
//!    naming and feedback to memory updates, capabilities and chit-chat to canned lines.

use super::disallowed::Disallowed;
use super::exact::ExactTable;
use super::pending::{self, ANSWER_TICKS, Pending, Waiting};
use super::say;
use crate::interpreter::actions::{self, Plan};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Choice, Problem};
use crate::interpreter::recipe::Recipe;
use crate::interpreter::{naming, questions};
use crate::logical_form::{DialogueType, LogicalForm, normalize, tokenize};
use crate::memory::Memory;
use crate::parser::Parser;
use crate::schematics;
use crate::tasks::{Repeat, Task, TaskError, TaskMeta, TaskStack, Times};
use crate::world::World;

/// Longest chat the bot tries to understand; longer lines get a polite request to be brief.
pub const MAX_CHAT_CHARS: usize = 500;

/// Default confidence for acting on a parse at once, and for asking it back as a guess.
pub const ACT_CONFIDENCE: f32 = 0.5;
pub const GUESS_CONFIDENCE: f32 = 0.15;

pub struct DialogueManager {
    pub disallowed: Disallowed,
    pub exact: ExactTable,
    pub parser: Option<Box<dyn Parser>>,
    /// Parses less sure than this are not acted on straight away.
    pub min_confidence: f32,
    /// Commands at least this sure (but below `min_confidence`) are offered back as a guess,
    /// "Did you mean: building a red cube? (yes/no)"; less sure ones count as chit-chat.
    pub guess_confidence: f32,
    pub limits: schematics::Limits,
    /// The optional language model for small talk, and how long it may think.
    pub llm: Option<(std::sync::Arc<dyn crate::llm::Chat>, std::time::Duration)>,
    overrides: Vec<(String, String, LogicalForm)>,
    pending: Vec<Pending>,
    /// Small-talk answers the language model is still working on (they never block the tick).
    thinking: Vec<crate::llm::PendingReply>,
}

impl DialogueManager {
    pub fn new(parser: Option<Box<dyn Parser>>) -> DialogueManager {
        DialogueManager {
            disallowed: Disallowed::default_list(),
            exact: ExactTable::default_table(),
            parser,
            min_confidence: ACT_CONFIDENCE,
            guess_confidence: GUESS_CONFIDENCE,
            limits: schematics::Limits::default(),
            llm: None,
            overrides: Vec::new(),
            pending: Vec::new(),
            thinking: Vec::new(),
        }
    }

    /// Use `lf` when `speaker` says `text` (scenario `lf` steps).
    pub fn expect_parse(&mut self, speaker: &str, text: &str, lf: LogicalForm) {
        self.overrides.push((speaker.to_string(), normalize(text), lf));
    }

    /// Is a language-model answer still being worked on?
    pub fn is_thinking(&self) -> bool {
        !self.thinking.is_empty()
    }

    /// Is the bot waiting for an answer from anyone?
    pub fn is_waiting(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Questions left unanswered too long are dropped, politely.
    pub fn tick(&mut self, now: u64) -> Vec<String> {
        // Answers from the language model that are ready (or past their limit: a polite line).
        let mut lines: Vec<String> = self.thinking.iter_mut().filter_map(|p| p.poll()).collect();
        self.thinking.retain(|p| !p.is_finished());
        lines.extend(self.expire(now));
        lines
    }

    fn expire(&mut self, now: u64) -> Vec<String> {
        let (expired, kept): (Vec<Pending>, Vec<Pending>) = self.pending.drain(..).partition(|p| now.saturating_sub(p.asked_tick) > ANSWER_TICKS);
        self.pending = kept;
        expired.into_iter().map(|p| format!("{}, never mind my question; I'll leave it for now.", p.speaker)).collect()
    }

    /// Handle one chat line; returns what to say.
    pub fn handle(&mut self, speaker: &str, chat: &str, world: &dyn World, memory: &mut Memory, tasks: &mut TaskStack) -> Vec<String> {
        let text = normalize(chat);
        if text.is_empty() {
            return vec!["Did you want something? Try \"what can you do\".".into()];
        }
        if chat.chars().count() > MAX_CHAT_CHARS {
            return vec!["That's a lot to take in! Could you say it in a few words?".into()];
        }
        if self.disallowed.contains(&text) {
            return vec![say::refusal(&text)];
        }
        let mut replies = Vec::new();
        if let Some(i) = self.pending.iter().position(|p| p.speaker == speaker) {
            let p = self.pending.remove(i);
            let words = tokenize(&text);
            match p.waiting {
                Waiting::Confirm { chat, lf, plans } => match pending::yes_no(&words) {
                    Some(true) => return self.execute(plans, speaker, &chat, &lf, world, tasks, true),
                    Some(false) => return vec!["Okay, I won't.".into()],
                    None => replies.push("I'll take that as a no.".into()),
                },
                // A guess the player did not answer is dropped: the new line is taken on its own.
                // Only a short answer counts ("yes", "no thanks"), and "stop" keeps its own
                // meaning: it must still halt whatever is running.
                Waiting::Guess { chat, lf, plans } => {
                    let answer = if words.len() <= 3 && words.first().is_some_and(|w| w != "stop") { pending::yes_no(&words) } else { None };
                    match answer {
                        Some(true) => return self.execute(plans, speaker, &chat, &lf, world, tasks, false),
                        Some(false) => return vec!["Sorry, I got that wrong. Could you say it another way?".into()],
                        None => {}
                    }
                }
                Waiting::Which { chat, lf, choices } => match pending::choose(&words, &choices)
                    .or_else(|| named_choice(&words, &choices, memory))
                    .or_else(|| looked_choice(speaker, &text, &choices, world, memory))
                {
                    Some(k) => {
                        let mut turn = Turn::new(speaker, &chat, world, memory);
                        turn.prefer = Some(choices[k].id);
                        return self.command(turn, &chat, &lf, tasks);
                    }
                    None if pending::yes_no(&words) == Some(false) => return vec!["Okay, never mind.".into()],
                    None if self.understand(speaker, &text).is_some_and(|(lf, _)| lf.dialogue_type == DialogueType::HumanGiveCommand) => {
                        replies.push("Okay, forget my question.".into());
                    }
                    // A question back ("what is that?", "what can you do?") is answered, and the
                    // bot keeps waiting for the choice.
                    None if self.understand(speaker, &text).is_some_and(|(lf, _)| {
                        matches!(lf.dialogue_type, DialogueType::GetMemory | DialogueType::GetCapabilities | DialogueType::BotCapabilities)
                    }) =>
                    {
                        self.pending.push(Pending { speaker: speaker.to_string(), asked_tick: p.asked_tick, waiting: Waiting::Which { chat, lf, choices } });
                    }
                    None => {
                        let labels: Vec<String> = choices.iter().map(|c| c.label.clone()).collect();
                        let again = format!("Sorry, which one? {}", labels.join(" or "));
                        self.pending.push(Pending { speaker: speaker.to_string(), asked_tick: world.tick(), waiting: Waiting::Which { chat, lf, choices } });
                        return vec![again];
                    }
                },
            }
        }
        let Some((lf, confidence)) = self.understand(speaker, &text) else {
            // No parser loaded and not a known line: answer as chit-chat, which points to help.
            replies.extend(self.small_talk(speaker, &text, world, memory, tasks));
            return replies;
        };
        if confidence < self.min_confidence && lf.dialogue_type != DialogueType::Noop {
            if let Some(question) = self.guess(speaker, &text, &lf, confidence, world, memory) {
                replies.extend(question);
                return replies;
            }
            tracing::debug!(confidence, "parse too unsure; treating as chit-chat");
            replies.push(format!("I'm not sure what you mean. {}", say::chit_chat(&text)));
            return replies;
        }
        replies.extend(self.route(speaker, &text, &lf, world, memory, tasks));
        replies
    }

    /// For a command the parser is unsure of (but not hopeless about), what the bot would do,
    /// asked back as a yes/no question, the plans waiting on the answer. `None` when the guess is
    /// too weak, is not a command, or would do nothing the player could recognise.
    fn guess(
        &mut self,
        speaker: &str,
        text: &str,
        lf: &LogicalForm,
        confidence: f32,
        world: &dyn World,
        memory: &mut Memory,
    ) -> Option<Vec<String>> {
        if confidence < self.guess_confidence || lf.dialogue_type != DialogueType::HumanGiveCommand {
            return None;
        }
        let mut turn = Turn::new(speaker, text, world, memory);
        let plans = actions::command(&mut turn, lf, &self.limits).ok()?;
        let what = describe_plans(&plans, speaker)?;
        self.pending.push(Pending {
            speaker: speaker.to_string(),
            asked_tick: world.tick(),
            waiting: Waiting::Guess { chat: text.to_string(), lf: lf.clone(), plans },
        });
        Some(vec![format!("Not sure I got that. Did you mean: {what}? (yes/no)")])
    }

    /// A logical form for the chat: override, exact table, then the parser.
    fn understand(&self, speaker: &str, text: &str) -> Option<(LogicalForm, f32)> {
        if let Some((_, _, lf)) = self.overrides.iter().rev().find(|(s, t, _)| s == speaker && t == text) {
            return Some((lf.clone(), 1.0));
        }
        if let Some(lf) = self.exact.lookup(text) {
            return Some((lf.clone(), 1.0));
        }
        self.parser.as_ref().map(|p| {
            let parsed = p.parse(text);
            (parsed.lf, parsed.confidence)
        })
    }

    fn route(&mut self, speaker: &str, text: &str, lf: &LogicalForm, world: &dyn World, memory: &mut Memory, tasks: &mut TaskStack) -> Vec<String> {
        match lf.dialogue_type {
            DialogueType::HumanGiveCommand => {
                let turn = Turn::new(speaker, text, world, memory);
                self.command(turn, text, lf, tasks)
            }
            // Open questions ("what do you like to build?") are annotated as GET_MEMORY without
            // filters: nothing in memory answers them, so they are small talk.
            DialogueType::GetMemory if lf.filters.is_none() && self.llm.is_some() => self.small_talk(speaker, text, world, memory, tasks),
            DialogueType::GetMemory => {
                let mut turn = Turn::new(speaker, text, world, memory);
                vec![questions::answer(&mut turn, lf, tasks)]
            }
            DialogueType::PutMemory => {
                let last = tasks.history().last().map(|r| r.description.clone());
                let mut turn = Turn::new(speaker, text, world, memory);
                vec![naming::update(&mut turn, lf, last.as_deref())]
            }
            DialogueType::GetCapabilities | DialogueType::BotCapabilities => vec![say::capabilities(lf)],
            _ => self.small_talk(speaker, text, world, memory, tasks),
        }
    }

    /// Chat that is not a command: the language model when one is configured (answered on a
    /// later tick, grounded in memory), else a canned line.
    fn small_talk(&mut self, speaker: &str, text: &str, world: &dyn World, memory: &Memory, tasks: &TaskStack) -> Vec<String> {
        let Some((chat, limit)) = &self.llm else { return vec![say::chit_chat(text)] };
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
            doing: tasks.current(),
            nearby,
            players: world.players().into_iter().map(|p| p.name).collect(),
            recent_chat: recent,
        };
        let _ = speaker;
        self.thinking.push(crate::llm::spawn_reply(chat.clone(), grounding, self.disallowed.clone(), text.to_string(), *limit));
        Vec::new()
    }

    fn command(&mut self, mut turn: Turn, text: &str, lf: &LogicalForm, tasks: &mut TaskStack) -> Vec<String> {
        let speaker = turn.speaker.clone();
        let world = turn.world;
        match actions::command(&mut turn, lf, &self.limits) {
            Ok(plans) => self.execute(plans, &speaker, text, lf, world, tasks, false),
            Err(Problem::Say(s)) => vec![s],
            Err(Problem::Which { question, choices }) => {
                self.pending.push(Pending {
                    speaker,
                    asked_tick: world.tick(),
                    waiting: Waiting::Which { chat: text.to_string(), lf: lf.clone(), choices },
                });
                vec![question]
            }
        }
    }

    /// Carry out plans in order (a yes/no question first when one asks for it).
    #[allow(clippy::too_many_arguments)]
    fn execute(
        &mut self,
        plans: Vec<Plan>,
        speaker: &str,
        text: &str,
        lf: &LogicalForm,
        world: &dyn World,
        tasks: &mut TaskStack,
        confirmed: bool,
    ) -> Vec<String> {
        // Undoing a big build takes a lot down: ask first.
        if !confirmed {
            for p in &plans {
                if let Plan::Undo(kind) = p
                    && let Some(r) = tasks.last_undoable(*kind).filter(|r| r.changes.len() > actions::CONFIRM_BLOCKS)
                {
                    let question = format!("Undo {}? That changes {} blocks. (yes/no)", r.description, r.changes.len());
                    self.pending.push(Pending {
                        speaker: speaker.to_string(),
                        asked_tick: world.tick(),
                        waiting: Waiting::Confirm { chat: text.to_string(), lf: lf.clone(), plans },
                    });
                    return vec![question];
                }
            }
        }
        // A confirmation anywhere holds back the whole command until the player answers.
        if let Some(i) = plans.iter().position(|p| matches!(p, Plan::Confirm { .. })) {
            let mut plans = plans;
            let Plan::Confirm { question, plans: inner } = plans.remove(i) else { unreachable!() };
            plans.splice(i..i, inner);
            self.pending.push(Pending { speaker: speaker.to_string(), asked_tick: world.tick(), waiting: Waiting::Confirm { chat: text.to_string(), lf: lf.clone(), plans } });
            return vec![question];
        }
        let meta = TaskMeta { speaker: Some(speaker.to_string()), chat: Some(text.to_string()), logical_form: Some(lf.to_json_value()) };
        let mut replies = Vec::new();
        // Tasks are pushed last-first so the first action runs first.
        let mut to_push: Vec<(Box<dyn Task>, String)> = Vec::new();
        for plan in plans {
            match plan {
                Plan::Push { recipe, times, label } => match make_task(&recipe, &times, &label, tasks.limits()) {
                    Ok(task) => to_push.push((task, acknowledge(&recipe, &times, &label, speaker))),
                    Err(e) => replies.push(e.to_string()),
                },
                Plan::Stop => replies.push(match tasks.stop() {
                    Some(_) => match tasks.paused() {
                        Some(d) => format!("Okay, I stopped {d}. Say \"resume\" to go on."),
                        None => "Okay, I stopped.".into(),
                    },
                    None => "I'm not doing anything right now.".into(),
                }),
                Plan::Resume => replies.push(match tasks.resume() {
                    Some(_) => format!("Resuming: {}.", tasks.current().unwrap_or_else(|| "my work".into())),
                    None => "There's nothing to resume.".into(),
                }),
                Plan::Undo(kind) => {
                    let Some(record) = tasks.last_undoable(kind) else {
                        replies.push("There's nothing for me to undo.".into());
                        continue;
                    };
                    let (id, description, n) = (record.id, record.description.clone(), record.changes.len());
                    match tasks.undo(id, meta.clone()) {
                        Ok(_) => replies.push(format!("Okay, undoing {description} ({n} block changes).")),
                        Err(e) => replies.push(e.to_string()),
                    }
                }
                Plan::Say(s) => replies.push(s),
                Plan::Confirm { .. } => {}
            }
        }
        for (task, ack) in to_push.into_iter().rev() {
            match tasks.push_checked(task, meta.clone(), world) {
                Ok(_) => replies.insert(0, ack),
                Err(e) => replies.push(e.to_string()),
            }
        }
        replies
    }
}

/// "The castle", "my house": the choice whose given names or tags the answer uses, when the
/// labels (colour and shape) cannot tell them apart.
fn named_choice(words: &[String], choices: &[Choice], memory: &Memory) -> Option<usize> {
    use crate::memory::query::names::word_key;
    const FILLER: &[&str] = &["the", "a", "an", "one", "that", "this", "it", "please", "i", "mean", "meant", "is", "'s"];
    let keys: Vec<String> = words.iter().filter(|w| !FILLER.contains(&w.as_str())).map(|w| word_key(w)).collect();
    if keys.is_empty() {
        return None;
    }
    let scores: Vec<usize> = choices
        .iter()
        .map(|c| {
            let told: Vec<String> = ["has_name", "has_tag"]
                .iter()
                .flat_map(|p| memory.values_of(c.id, p).unwrap_or_default())
                .flat_map(|v| tokenize(&v))
                .map(|w| word_key(&w))
                .collect();
            keys.iter().filter(|k| told.contains(k)).count()
        })
        .collect();
    let best = *scores.iter().max()?;
    (best > 0 && scores.iter().filter(|s| **s == best).count() == 1).then(|| scores.iter().position(|s| *s == best)).flatten()
}

/// "That one" / "this one": the choice the speaker is looking at, if any.
fn looked_choice(speaker: &str, text: &str, choices: &[Choice], world: &dyn World, memory: &mut Memory) -> Option<usize> {
    let words = tokenize(text);
    let pointing = words.iter().any(|w| matches!(w.as_str(), "that" | "this" | "it" | "there" | "here"));
    if !pointing || words.len() > 4 {
        return None;
    }
    let turn = Turn::new(speaker, text, world, memory);
    let id = turn.memory.object_at(turn.look_hit?.block).ok().flatten()?;
    choices.iter().position(|c| c.id == id)
}

/// The task for a recipe, looped as asked.
fn make_task(recipe: &Recipe, times: &Times, label: &str, limits: &crate::tasks::Limits) -> Result<Box<dyn Task>, TaskError> {
    match times {
        Times::Count(1) => recipe.task(limits, 0),
        t => {
            let r = recipe.clone();
            let l = limits.clone();
            // Check the first round now, so a bad request fails at once rather than in the loop.
            recipe.task(limits, 0)?;
            Ok(Box::new(Repeat::new(recipe.kind(), label.to_string(), t.clone(), Box::new(move |round, _| r.task(&l, round)))))
        }
    }
}

fn acknowledge(recipe: &Recipe, times: &Times, label: &str, speaker: &str) -> String {
    format!("Okay, {}.", doing(recipe, times, label, speaker))
}

/// What a task does, as a phrase: "building a red cube (3 times)".
fn doing(recipe: &Recipe, times: &Times, label: &str, speaker: &str) -> String {
    let what = match recipe {
        Recipe::Build { .. } => format!("building {label}"),
        Recipe::Dig { .. } => format!("digging {label}"),
        Recipe::Follow(who) if who == speaker => "following you. Say \"stop\" when you want me to stop".into(),
        Recipe::ComeHere(_) => "coming".into(),
        _ => label.to_string(),
    };
    let how = match times {
        Times::Count(1) => String::new(),
        Times::Count(n) => format!(" ({n} times)"),
        Times::Forever => " until you say stop".into(),
        Times::Until(_) => " until I get there".into(),
    };
    format!("{what}{how}")
}

/// Plans as one phrase ("building a red cube, then going to (1, 5, 2)"); `None` when a plan is
/// only something to say.
fn describe_plans(plans: &[Plan], speaker: &str) -> Option<String> {
    let mut parts = Vec::new();
    for plan in plans {
        parts.push(match plan {
            Plan::Push { recipe, times, label } => doing(recipe, times, label, speaker),
            Plan::Stop => "stopping".into(),
            Plan::Resume => "going on with what I stopped".into(),
            Plan::Undo(_) => "undoing my last change".into(),
            Plan::Confirm { plans, .. } => describe_plans(plans, speaker)?,
            Plan::Say(_) => return None,
        });
    }
    (!parts.is_empty()).then(|| parts.join(", then "))
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn unsure(confidence: f32) -> (Fixture, TaskStack, DialogueManager) {
        (Fixture::new(), TaskStack::default(), DialogueManager::new(Some(Box::new(Unsure(confidence)))))
    }

    #[test]
    fn an_unsure_command_is_asked_back_and_yes_carries_it_out() {
        let (mut f, mut tasks, mut dm) = unsure(0.3);
        let r = dm.handle("alice", "cube", &f.world, &mut f.memory, &mut tasks);
        assert!(r.len() == 1 && r[0].starts_with("Not sure I got that. Did you mean: building a") && r[0].ends_with("(yes/no)"), "{r:?}");
        assert!(tasks.current().is_none(), "nothing happens before the answer");
        // Another player's "yes" is not an answer.
        dm.handle("bob", "yes", &f.world, &mut f.memory, &mut tasks);
        assert!(tasks.current().is_none());
        let r = dm.handle("alice", "yes", &f.world, &mut f.memory, &mut tasks);
        assert!(r.iter().any(|l| l.starts_with("Okay, building")), "{r:?}");
        assert!(tasks.current().is_some());
    }

    #[test]
    fn an_unsure_guess_is_dropped_by_no_or_by_a_new_line_and_stop_still_stops() {
        let (mut f, mut tasks, mut dm) = unsure(0.3);
        dm.handle("alice", "cube", &f.world, &mut f.memory, &mut tasks);
        let r = dm.handle("alice", "no", &f.world, &mut f.memory, &mut tasks);
        assert_eq!(r, vec!["Sorry, I got that wrong. Could you say it another way?".to_string()]);
        assert!(!dm.is_waiting() && tasks.current().is_none());
        // A new line instead of an answer is understood on its own (here: asked back again).
        dm.handle("alice", "cube", &f.world, &mut f.memory, &mut tasks);
        let r = dm.handle("alice", "tower with a door", &f.world, &mut f.memory, &mut tasks);
        assert!(r[0].starts_with("Not sure I got that"), "{r:?}");
        // "stop" is never taken as the answer "no": it reaches the task stack.
        dm.expect_parse("alice", "stop", validate_json("stop", r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "STOP"}]}"#).unwrap());
        let r = dm.handle("alice", "stop", &f.world, &mut f.memory, &mut tasks);
        assert!(r[0].contains("not doing anything"), "{r:?}");
    }

    #[test]
    fn a_hopeless_parse_is_chit_chat_and_a_sure_one_acts_at_once() {
        let (mut f, mut tasks, mut dm) = unsure(0.05);
        let r = dm.handle("alice", "cube", &f.world, &mut f.memory, &mut tasks);
        assert!(r[0].starts_with("I'm not sure what you mean"), "{r:?}");
        assert!(!dm.is_waiting());
        let (_, _, mut dm) = unsure(0.9);
        let r = dm.handle("alice", "cube", &f.world, &mut f.memory, &mut tasks);
        assert!(r[0].starts_with("Okay, building"), "{r:?}");
    }

    #[test]
    fn a_question_back_is_answered_and_the_which_one_stays() {
        let mut f = Fixture::new();
        let (mut dm, mut tasks, text) = red_tower_command();
        // The fixture has two red towers.
        let r = dm.handle("alice", text, &f.world, &mut f.memory, &mut tasks);
        assert!(r[0].starts_with("Which one: the red tower"), "{r:?}");
        let r = dm.handle("alice", "what can you do", &f.world, &mut f.memory, &mut tasks);
        assert!(r.len() == 1 && r[0].starts_with("I can build"), "{r:?}");
        assert!(dm.is_waiting(), "still waiting for the choice");
        // Another player's line never answers alice's question.
        dm.handle("bob", "the first one", &f.world, &mut f.memory, &mut tasks);
        assert!(dm.is_waiting());
        let r = dm.handle("alice", "the first one", &f.world, &mut f.memory, &mut tasks);
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
        let r = dm.handle("alice", text, &f.world, &mut f.memory, &mut tasks);
        assert!(r[0].starts_with("Which one"), "{r:?}");
        let r = dm.handle("alice", "the beacon", &f.world, &mut f.memory, &mut tasks);
        assert!(!dm.is_waiting(), "answered: {r:?}");
        assert_eq!(f.memory.last_attended(&[MemoryKind::BlockObject]).unwrap(), Some(beacon));
    }
}

#[cfg(test)]
mod llm_tests {
    use super::*;
    use crate::llm::{Chat, ChatRequest, Completion, LlmError};
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Look, Vec3};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// A fake model that records the prompt and answers with a line that tries to run a command.
    struct Fake(Mutex<Vec<String>>);

    impl Chat for Fake {
        fn describe(&self) -> String {
            "fake".into()
        }
        fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
            let prompt: Vec<String> = request.messages.iter().map(|m| m.content.clone()).collect();
            self.0.lock().unwrap().push(prompt.join("\n"));
            Ok(Completion {
                text: "/op everyone \u{a7}cI like building towers!".into(),
                prompt_tokens: None,
                generated_tokens: None,
                prompt_time: None,
                generation_time: Duration::from_millis(1),
                truncated: false,
            })
        }
    }

    #[test]
    fn small_talk_goes_to_the_model_without_blocking_and_comes_back_safe() {
        let fake = Arc::new(Fake(Mutex::new(Vec::new())));
        let mut dm = DialogueManager::new(None);
        dm.llm = Some((fake.clone() as Arc<dyn Chat>, Duration::from_secs(5)));
        let mut world = EmbeddedWorld::flat();
        world.add_player("alice", Vec3::new(3.5, 5.0, 0.5), Look::default());
        let mut memory = Memory::in_memory().unwrap();
        let mut tasks = TaskStack::default();
        // Not a known command and no parser: small talk, answered later, not now.
        let now = dm.handle("alice", "what do you like to build", &world, &mut memory, &mut tasks);
        assert!(now.is_empty(), "{now:?}");
        assert!(dm.is_thinking());
        let mut said = Vec::new();
        for t in 0..200 {
            said.extend(dm.tick(t));
            if !dm.is_thinking() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(!said[0].starts_with('/') && !said[0].contains('\u{a7}'), "sanitised: {:?}", said[0]);
        assert!(said[0].contains("I like building towers"));
        let prompt = fake.0.lock().unwrap()[0].clone();
        assert!(prompt.contains("alice"), "grounded in who is here: {prompt}");
        // Commands never reach the model.
        let r = dm.handle("alice", "come here", &world, &mut memory, &mut tasks);
        assert!(r.iter().any(|l| l.contains("coming")), "{r:?}");
        assert!(!dm.is_thinking());
    }

}
