//! Small talk the language model is working on, so that a player cannot make it work on many
//! lines at once: at most one request per player is with the model; a line that comes while
//! one is being answered waits, and a newer line replaces the one waiting (the player moved
//! on). Answers are polled from the tick loop and never block it.

use crate::llm::{Chat, Grounding, PendingReply, spawn_reply};
use crate::safety::disallowed::Disallowed;
use std::sync::Arc;
use std::time::Duration;

/// One line for the model, with what it needs to answer.
pub struct Job {
    pub chat: Arc<dyn Chat>,
    pub grounding: Grounding,
    pub disallowed: Disallowed,
    pub text: String,
    pub limit: Duration,
}

impl Job {
    fn start(self) -> PendingReply {
        spawn_reply(self.chat, self.grounding, self.disallowed, self.text, self.limit)
    }
}

#[derive(Default)]
pub struct Thinking {
    /// Replies asked for, by speaker (kept until answered and the model is done with them).
    running: Vec<(String, PendingReply)>,
    /// The line waiting for each speaker whose request is still with the model.
    waiting: Vec<(String, Job)>,
}

impl Thinking {
    /// Asks the model to answer `speaker`'s line now, or as soon as their last request is done.
    pub fn ask(&mut self, speaker: &str, job: Job) {
        if self.busy(speaker) {
            self.waiting.retain(|(s, _)| s != speaker);
            self.waiting.push((speaker.to_string(), job));
        } else {
            self.running.push((speaker.to_string(), job.start()));
        }
    }

    /// A request of `speaker`'s is unanswered, or the model is still working on one (its
    /// deadline may have answered for it).
    fn busy(&self, speaker: &str) -> bool {
        self.running.iter().any(|(s, p)| s == speaker && (!p.is_finished() || p.is_working()))
    }

    /// Answers that are ready (or past their limit: a polite line); waiting lines start when
    /// their speaker's last request is done.
    pub fn poll(&mut self) -> Vec<String> {
        let lines: Vec<String> = self.running.iter_mut().filter_map(|(_, p)| p.poll()).collect();
        self.running.retain(|(_, p)| !p.is_finished() || p.is_working());
        let waiting = std::mem::take(&mut self.waiting);
        for (speaker, job) in waiting {
            self.ask(&speaker, job);
        }
        lines
    }

    /// An answer is still to come.
    pub fn is_thinking(&self) -> bool {
        self.running.iter().any(|(_, p)| !p.is_finished()) || !self.waiting.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialogue::context::Context;
    use crate::dialogue::manager::DialogueManager;
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

    /// A dialogue manager with the fake model, and a world where alice stands.
    fn with_fake_model() -> (Arc<Fake>, DialogueManager, EmbeddedWorld) {
        let fake = Arc::new(Fake(Mutex::new(Vec::new())));
        let mut dm = DialogueManager::new(None);
        dm.llm = Some((fake.clone() as Arc<dyn Chat>, Duration::from_secs(5)));
        let mut world = EmbeddedWorld::flat();
        world.add_player("alice", Vec3::new(3.5, 5.0, 0.5), Look::default());
        (fake, dm, world)
    }

    #[test]
    fn small_talk_goes_to_the_model_without_blocking_and_comes_back_safe() {
        let (fake, mut dm, world) = with_fake_model();
        let (mut memory, mut tasks) = (Memory::in_memory().unwrap(), TaskStack::default());
        // Not a known command and no parser: small talk, answered later, not now.
        let now = dm.handle(&mut Context::new("alice", &world, &mut memory, &mut tasks), "tell me about creepers");
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

    #[test]
    fn questions_about_the_bot_never_reach_the_model() {
        let (fake, mut dm, world) = with_fake_model();
        let (mut memory, mut tasks) = (Memory::in_memory().unwrap(), TaskStack::default());
        for q in ["who are you?", "are you chatgpt?", "what do you like to build?", "where are you", "who made you"] {
            let now = dm.handle(&mut Context::new("alice", &world, &mut memory, &mut tasks), q);
            assert_eq!(now.len(), 1, "{q:?} is answered at once: {now:?}");
            assert!(!dm.is_thinking(), "{q:?} went to the model");
        }
        assert!(fake.0.lock().unwrap().is_empty(), "the model was asked about the bot");
        dm.handle(&mut Context::new("alice", &world, &mut memory, &mut tasks), "tell me about creepers");
        assert!(dm.is_thinking(), "other small talk still goes to the model");
    }

    #[test]
    fn questions_about_what_is_in_the_world_are_answered_from_memory_not_the_model() {
        use crate::memory::fixture::{Fixture, block};
        use crate::world::{Actor, BBox, Pos};
        let (fake, mut dm, _) = with_fake_model();
        let mut f = Fixture::new();
        f.world.fill_by(BBox::new(Pos::new(3, 5, -10), Pos::new(4, 6, -9)), block("diamond_block"), Actor::World);
        f.perceive();
        let mut tasks = TaskStack::default();
        for (q, answer) in [
            ("are there diamonds around here?", "is at"),
            ("yo is there any diamonds round here", "is at"),
            ("is there a house somewhere around", "house is at"),
            ("is there any iron nearby", "I don't know of any iron."),
            ("where can i find iron", "I don't know of any iron."),
            ("u see any lava near us", "I don't know of any lava."),
            ("are there any emeralds around here", "I don't know of any emerald."),
        ] {
            let now = dm.handle(&mut Context::new("alice", &f.world, &mut f.memory, &mut tasks), q);
            assert!(now.len() == 1 && now[0].contains(answer), "{q:?}: {now:?}");
            assert!(!dm.is_thinking(), "{q:?} went to the model");
        }
        assert!(fake.0.lock().unwrap().is_empty(), "the model was asked about the world");
    }

    /// A slow model that counts how many requests it works on at once.
    #[derive(Default)]
    struct Slow {
        now: std::sync::atomic::AtomicUsize,
        most: std::sync::atomic::AtomicUsize,
        asked: Mutex<Vec<String>>,
    }

    impl Chat for Slow {
        fn describe(&self) -> String {
            "slow".into()
        }
        fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
            use std::sync::atomic::Ordering::SeqCst;
            let n = self.now.fetch_add(1, SeqCst) + 1;
            self.most.fetch_max(n, SeqCst);
            let line = request.messages.last().map(|m| m.content.clone()).unwrap_or_default();
            self.asked.lock().unwrap().push(line.clone());
            std::thread::sleep(Duration::from_millis(150));
            self.now.fetch_sub(1, SeqCst);
            Ok(Completion { text: format!("About {line}: nice."), prompt_tokens: None, generated_tokens: None, prompt_time: None, generation_time: Duration::from_millis(150), truncated: false })
        }
    }

    #[test]
    fn one_request_per_player_at_a_time_and_the_newest_line_waits() {
        let slow = Arc::new(Slow::default());
        let mut thinking = Thinking::default();
        let job = |text: &str| Job {
            chat: slow.clone() as Arc<dyn Chat>,
            grounding: Grounding::default(),
            disallowed: Disallowed::default(),
            text: text.to_string(),
            limit: Duration::from_secs(5),
        };
        for i in 0..40 {
            thinking.ask("alice", job(&format!("line {i}")));
        }
        thinking.ask("bob", job("hello from bob"));
        let mut said = Vec::new();
        let start = std::time::Instant::now();
        while thinking.is_thinking() && start.elapsed() < Duration::from_secs(10) {
            said.extend(thinking.poll());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(slow.most.load(std::sync::atomic::Ordering::SeqCst), 2, "one for alice and one for bob at most");
        let asked = slow.asked.lock().unwrap().clone();
        assert_eq!(asked.len(), 3, "alice's first line, her newest, and bob's: {asked:?}");
        assert!(asked.iter().any(|l| l.contains("line 0")) && asked.iter().any(|l| l.contains("line 39")), "{asked:?}");
        assert_eq!(said.len(), 3, "{said:?}");
    }
}
