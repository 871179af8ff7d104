//! The dialogue manager: every chat line goes through [`DialogueManager::handle`].
//!
//! 1. The chat gate ([`crate::safety::gate`]) answers empty, overlong and disallowed lines.
//! 2. A question the bot asked this player (which one? are you sure? did you mean?) takes the
//!    line first: the state machine in [`super::waiting`] says what it does.
//! 3. Otherwise a logical form comes from, in order: a scenario's `lf` override, the exact-match
//!    table, the parser. Too little confidence counts as chit-chat, never as a command; some
//!    confidence makes a "did you mean?" question.
//! 4. The form is routed by dialogue type: commands to the interpreter (whose plans
//!    [`crate::interpreter::execute`] carries out), questions to memory, naming and feedback to
//!    memory updates, capabilities and chit-chat to canned lines or the language model.

use super::answers::{looked_choice, named_choice};
use super::context::Context;
use super::exact::ExactTable;
use super::say;
use super::waiting::{Next, Questions, Reading, Waiting};
use crate::interpreter::actions::{self, Plan};
use crate::interpreter::context::Turn;
use crate::interpreter::execute::{Executed, describe_plans, execute};
use crate::interpreter::problem::{Choice, Problem};
use crate::interpreter::{naming, questions};
use crate::logical_form::{DialogueType, LogicalForm, normalize, tokenize};
use crate::memory::MemoryId;
use crate::parser::Parser;
use crate::safety::gate::{ChatGate, Screened};
use crate::schematics;
use crate::tasks::TaskMeta;

/// Default confidence for acting on a parse at once, and for asking it back as a guess.
pub const ACT_CONFIDENCE: f32 = 0.5;
pub const GUESS_CONFIDENCE: f32 = 0.15;

pub struct DialogueManager {
    /// The checks every line passes first.
    pub gate: ChatGate,
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
    questions: Questions,
    /// Small-talk answers the language model is still working on (they never block the tick).
    thinking: Vec<crate::llm::PendingReply>,
}

impl DialogueManager {
    pub fn new(parser: Option<Box<dyn Parser>>) -> DialogueManager {
        DialogueManager {
            gate: ChatGate::default(),
            exact: ExactTable::default_table(),
            parser,
            min_confidence: ACT_CONFIDENCE,
            guess_confidence: GUESS_CONFIDENCE,
            limits: schematics::Limits::default(),
            llm: None,
            overrides: Vec::new(),
            questions: Questions::default(),
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
        self.questions.is_waiting()
    }

    /// Lines that are due without new chat: the language model's answers that are ready (or
    /// past their limit: a polite line), and questions left unanswered too long, dropped.
    pub fn tick(&mut self, now: u64) -> Vec<String> {
        let mut lines: Vec<String> = self.thinking.iter_mut().filter_map(|p| p.poll()).collect();
        self.thinking.retain(|p| !p.is_finished());
        lines.extend(self.questions.expire(now));
        lines
    }

    /// Handle one chat line said in `cx`; returns what to say.
    pub fn handle(&mut self, cx: &mut Context, chat: &str) -> Vec<String> {
        let text = match self.gate.screen(chat) {
            Screened::Pass(text) => text,
            Screened::Reply(line) => return vec![line],
        };
        let mut replies = Vec::new();
        if let Some(asked) = self.questions.take(cx.speaker) {
            let words = tokenize(&text);
            let now = cx.now();
            let step = asked.answer(&words, &mut Heard { dm: self, cx, text: &text, words: &words }, now);
            if let Some(still) = step.still {
                self.questions.reopen(still);
            }
            match step.next {
                Next::Carry { chat, lf, plans, confirmed } => return self.execute(cx, plans, &chat, &lf, confirmed),
                Next::Retry { chat, lf, prefer } => return self.command(cx, &chat, &lf, Some(prefer)),
                Next::Say(line) => return vec![line],
                Next::New { note } => replies.extend(note.map(String::from)),
            }
        }
        let Some((lf, confidence)) = self.understand(cx.speaker, &text) else {
            // No parser loaded and not a known line: answer as chit-chat, which points to help.
            replies.extend(self.small_talk(cx, &text));
            return replies;
        };
        if confidence < self.min_confidence && lf.dialogue_type != DialogueType::Noop {
            if let Some(question) = self.guess(cx, &text, &lf, confidence) {
                replies.push(question);
                return replies;
            }
            tracing::debug!(confidence, "parse too unsure; treating as chit-chat");
            replies.push(format!("I'm not sure what you mean. {}", say::chit_chat(&text)));
            return replies;
        }
        replies.extend(self.route(cx, &text, &lf));
        replies
    }

    /// For a command the parser is unsure of (but not hopeless about), what the bot would do,
    /// asked back as a yes/no question, the plans waiting on the answer. `None` when the guess is
    /// too weak, is not a command, or would do nothing the player could recognise.
    fn guess(&mut self, cx: &mut Context, text: &str, lf: &LogicalForm, confidence: f32) -> Option<String> {
        if confidence < self.guess_confidence || lf.dialogue_type != DialogueType::HumanGiveCommand {
            return None;
        }
        let plans = actions::command(&mut cx.turn(text), lf, &self.limits).ok()?;
        let what = describe_plans(&plans, cx.speaker)?;
        self.questions.ask(cx.speaker, cx.now(), Waiting::Guess { chat: text.to_string(), lf: lf.clone(), plans });
        Some(format!("Not sure I got that. Did you mean: {what}? (yes/no)"))
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

    fn route(&mut self, cx: &mut Context, text: &str, lf: &LogicalForm) -> Vec<String> {
        match lf.dialogue_type {
            DialogueType::HumanGiveCommand => self.command(cx, text, lf, None),
            // Open questions ("what do you like to build?") are annotated as GET_MEMORY without
            // filters: nothing in memory answers them, so they are small talk.
            DialogueType::GetMemory if lf.filters.is_none() && self.llm.is_some() => self.small_talk(cx, text),
            DialogueType::GetMemory => {
                let answer = questions::answer(&mut Turn::new(cx.speaker, text, cx.world, cx.memory), lf, cx.tasks);
                vec![answer]
            }
            DialogueType::PutMemory => {
                let last = cx.tasks.history().last().map(|r| r.description.clone());
                vec![naming::update(&mut cx.turn(text), lf, last.as_deref())]
            }
            DialogueType::GetCapabilities | DialogueType::BotCapabilities => vec![say::capabilities(lf)],
            _ => self.small_talk(cx, text),
        }
    }

    /// Chat that is not a command: the language model when one is configured (answered on a
    /// later tick, grounded in memory), else a canned line.
    fn small_talk(&mut self, cx: &Context, text: &str) -> Vec<String> {
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
        self.thinking.push(crate::llm::spawn_reply(chat.clone(), grounding, self.gate.disallowed.clone(), text.to_string(), *limit));
        Vec::new()
    }

    /// Interpret a command (`prefer`: the answer to a "which one?") and carry it out, or ask.
    fn command(&mut self, cx: &mut Context, text: &str, lf: &LogicalForm, prefer: Option<MemoryId>) -> Vec<String> {
        let planned = {
            let mut turn = cx.turn(text);
            turn.prefer = prefer;
            actions::command(&mut turn, lf, &self.limits)
        };
        match planned {
            Ok(plans) => self.execute(cx, plans, text, lf, false),
            Err(Problem::Say(s)) => vec![s],
            Err(Problem::Which { question, choices }) => {
                self.questions.ask(cx.speaker, cx.now(), Waiting::Which { chat: text.to_string(), lf: lf.clone(), choices });
                vec![question]
            }
        }
    }

    /// Carry out plans; a yes/no question the executor asks first is kept open.
    fn execute(&mut self, cx: &mut Context, plans: Vec<Plan>, text: &str, lf: &LogicalForm, confirmed: bool) -> Vec<String> {
        let meta = TaskMeta { speaker: Some(cx.speaker.to_string()), chat: Some(text.to_string()), logical_form: Some(lf.to_json_value()) };
        match execute(plans, meta, cx.world, cx.tasks, confirmed) {
            Executed::Done(replies) => replies,
            Executed::Ask { question, plans } => {
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
        named_choice(self.words, choices, self.cx.memory)
            .or_else(|| looked_choice(self.cx.speaker, self.text, choices, self.cx.world, self.cx.memory))
    }

    fn dialogue_type(&mut self) -> Option<DialogueType> {
        self.dm.understand(self.cx.speaker, self.text).map(|(lf, _)| lf.dialogue_type)
    }
}

#[cfg(test)]
mod tests {
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
    fn unsure(confidence: f32) -> (Fixture, TaskStack, DialogueManager) {
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
        assert_eq!(r, vec!["Sorry, I got that wrong. Could you say it another way?".to_string()]);
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

#[cfg(test)]
mod llm_tests {
    use super::*;
    use crate::memory::Memory;
    use crate::tasks::TaskStack;
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
        let now = dm.handle(&mut Context::new("alice", &world, &mut memory, &mut tasks), "what do you like to build");
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
        let r = dm.handle(&mut Context::new("alice", &world, &mut memory, &mut tasks), "come here");
        assert!(r.iter().any(|l| l.contains("coming")), "{r:?}");
        assert!(!dm.is_thinking());
    }

}
