//! What players taught the bot: a "did you mean?" answered yes, or answered no and then amended,
//! is kept in memory under the line as understanding prepares it (normalized, typos fixed) — the
//! one key both for keeping and for looking up — so the same line is understood at once next
//! time, after a restart too.
//!
//! Only what was done is learned: an amendment the bot could not read, or a command it then
//! refused or could not carry out, is never kept (it asks again instead). Players can ask what
//! it learned ("what have you learned?", "so what did u learn from me") and take their lessons
//! back ("forget what I taught you", "wipe everything i taught ya"); the words for both are the
//! lexicon's `[lesson_words]` and `[forget_words]`.

use super::context::Context;
use super::last::Outcome;
use super::manager::DialogueManager;
use super::waiting::Waiting;
use crate::lexicon::{Class, lexicon};
use crate::logical_form::{DialogueType, LogicalForm};
use crate::understanding::Reading as Understood;

/// The most lessons listed in one answer (the rest are counted).
const LISTED: usize = 5;

impl DialogueManager {
    /// "What should I change?" was answered with `line`: the whole command again, or the part to
    /// change ("20 long and 5 high", "a blue one"), read together with the guessed line `chat`.
    /// The amended command runs; when it was done it is remembered under `key`. When it cannot
    /// be read or done, or is the very guess the player said no to, nothing is learned and the
    /// question stays open (`again`). Asked again, a whole new command about another thing
    /// ("build a small red cube" after a guessed tower) is the player moving on: it runs, and
    /// nothing is learned.
    pub(super) fn amend(&mut self, cx: &mut Context, key: &str, chat: &str, guessed: &LogicalForm, line: &str, again: bool) -> Vec<String> {
        let (said, _) = self.understanding.prepare(line);
        // "i wanted a tower made of gold": the words that lead a correction go.
        let prepared = super::waiting::without_leads(&said);
        let led = prepared != said;
        // "a blue one": the thing is the one guessed ("a blue tower").
        let prepared = with_the_guessed_thing(&prepared, guessed, chat);
        let command = |r: &Understood| r.lf.dialogue_type == DialogueType::HumanGiveCommand && r.confidence >= self.guess_confidence;
        let action = guessed.actions().first().map(|a| a.action_type);
        let same_action = |r: &Understood| command(r) && r.lf.actions().first().map(|a| a.action_type) == action;
        let alone = self.understanding.read_prepared(&prepared);
        // A command of its own opens with its verb ("build a small red cube"); "tower please"
        // is the thing to build instead.
        let first = prepared.split_whitespace().next().unwrap_or("");
        let own_verb = lexicon().verb(first).is_some() || lexicon().is(Class::CommandStart, first);
        if again && !led && own_verb && let Some(r) = alone.as_ref().filter(|r| command(r) && thing(&r.lf, &r.text) != thing(guessed, chat)) {
            return self.command(cx, &r.text.clone(), &r.lf.clone(), None);
        }
        // The amendment alone, then as what the guess did ("a tower made of gold" as "build a
        // tower made of gold"), then read together with the guessed line ("20 long").
        let verb = action.and_then(|a| lexicon().words_for(crate::lexicon::Group::Verb, &a.as_str().to_lowercase()).first().cloned());
        let amended = alone
            .filter(same_action)
            .or_else(|| verb.and_then(|v| self.understanding.read_prepared(&format!("{v} {prepared}"))).filter(same_action))
            // Read with the guessed line, the amendment's words must count: else it is the
            // guess the player just said no to.
            .or_else(|| {
                let chat_words = crate::logical_form::tokenize(chat).len();
                let uses_amendment = |r: &Understood| {
                    let covered = crate::logical_form::covered(&r.lf, crate::logical_form::Spans::Pointed);
                    covered.iter().any(|k| *k >= chat_words)
                };
                self.understanding.read_prepared(&format!("{chat} {prepared}")).filter(|r| command(r) && uses_amendment(r))
            })
            // The same form over the guessed line's words is the guess itself.
            .filter(|r| !(r.text.starts_with(chat) && r.lf.to_json_value() == guessed.to_json_value()));
        let ask_again = |dm: &mut DialogueManager, cx: &Context| {
            let waiting = Waiting::Amend { key: key.to_string(), chat: chat.to_string(), lf: guessed.clone(), again: true };
            dm.questions.ask(cx.speaker, cx.now(), waiting);
        };
        let Some(r) = amended else {
            ask_again(self, cx);
            return vec!["Sorry, I still don't get it. Could you say the whole command again?".into()];
        };
        let mut replies = self.command(cx, &r.text, &r.lf, None);
        let done = self.last.as_ref().is_some_and(|l| l.outcome == Outcome::ActedOn);
        if !done {
            // Never learn what failed: the next try may be the right one.
            if self.last.as_ref().is_some_and(|l| l.outcome == Outcome::NotDone) {
                ask_again(self, cx);
                replies.push("So I won't remember that for next time. What should I do instead?".into());
            }
            return replies;
        }
        if self.learn(cx, key, &r.text, &r.lf) {
            // Said as what the bot is now doing ("building a cobblestone wall, 6 long"), else in
            // the words that amended it.
            let meant = cx.tasks.current().unwrap_or_else(|| format!("\"{}\"", r.text));
            replies.push(format!("Got it; next time \"{key}\" means {meant}."));
        }
        replies
    }

    /// Remembers that the prepared line `key` means `lf` (whose spans index `text`).
    pub(super) fn learn(&self, cx: &mut Context, key: &str, text: &str, lf: &LogicalForm) -> bool {
        let now = cx.now();
        match cx.memory.learn(key, text, &lf.to_json_value().to_string(), cx.speaker, now) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!("could not remember what \"{key}\" means: {e}");
                false
            }
        }
    }

    /// "What have you learned?" and "forget what I taught you", answered; `None` for any other
    /// line (`prepared`: the line as understanding prepares it).
    pub(super) fn lessons(&mut self, cx: &mut Context, prepared: &str) -> Option<String> {
        let asked = about_lessons(prepared)?;
        if asked == Lessons::Forget {
            self.note(Outcome::Remembered);
            return Some(match cx.memory.forget_learned(cx.speaker) {
                Ok(0) => "You haven't taught me anything to forget.".into(),
                Ok(1) => "Okay, I forgot the one thing you taught me.".into(),
                Ok(n) => format!("Okay, I forgot the {n} things you taught me."),
                Err(e) => {
                    tracing::warn!("could not forget lessons: {e}");
                    "Sorry, my memory failed me there.".into()
                }
            });
        }
        self.note(Outcome::Answered);
        // A player hears their own lessons; everyone's when the owner shares them.
        let taught = if self.rules.share_lessons { cx.memory.all_learned() } else { cx.memory.learned_by(cx.speaker) }.unwrap_or_default();
        let said: Vec<String> = taught.iter().rev().take(LISTED).map(|l| format!("\"{}\" means \"{}\"", l.key, l.text)).collect();
        Some(match taught.len() {
            0 if !self.rules.share_lessons => "You haven't taught me anything yet. When I ask \"did you mean …?\", a yes or a correction teaches me.".into(),
            0 => "Nobody has taught me anything yet. When I ask \"did you mean …?\", a yes or a correction teaches me.".into(),
            n if n <= LISTED => format!("I learned that {}.", said.join("; ")),
            n => format!("I learned {n} things; the latest: {}.", said.join("; ")),
        })
    }
}

/// The words that name what the first action of `lf` is about (its schematic's or object's
/// name), in `text`: "tower" for "build a red tower".
fn thing(lf: &LogicalForm, text: &str) -> Vec<String> {
    let words = crate::logical_form::tokenize(text);
    let Some(a) = lf.actions().first() else { return Vec::new() };
    let filters = a.schematic.as_ref().and_then(|s| s.filters.as_ref()).or_else(|| a.reference_object.as_ref().and_then(|r| r.as_object()).and_then(|r| r.filters.as_ref()));
    filters
        .into_iter()
        .flat_map(|f| f.triples())
        .filter(|t| t.pred_text == crate::logical_form::Predicate::HasName)
        .filter_map(|t| t.obj_span())
        .flat_map(|s| s.words(&words).to_vec())
        .collect()
}

/// "a blue one" amending a guessed tower: "a blue tower". The amendment as it is when it names
/// a shape of its own, or no generic word stands in for one.
fn with_the_guessed_thing(prepared: &str, guessed: &LogicalForm, chat: &str) -> String {
    let lx = lexicon();
    let words: Vec<&str> = prepared.split_whitespace().collect();
    let named = thing(guessed, chat);
    if named.is_empty() || words.iter().any(|w| crate::schematics::is_known_shape(w) && !lx.is(Class::GenericThing, w)) {
        return prepared.to_string();
    }
    // lexicon: "one" is the generic noun a player puts for the thing ("a blue one"), of `[generic_things]`.
    match words.iter().rposition(|w| *w == "one" || *w == "ones") {
        Some(k) => words[..k].iter().copied().chain(named.iter().map(String::as_str)).chain(words[k + 1..].iter().copied()).collect::<Vec<_>>().join(" "),
        None => prepared.to_string(),
    }
}

/// What a line about lessons asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lessons {
    /// "what have you learned?"
    List,
    /// "forget what I taught you"
    Forget,
}

/// Whether the prepared line asks for the lessons or takes them back.
pub(super) fn about_lessons(prepared: &str) -> Option<Lessons> {
    let lx = lexicon();
    let line = crate::understanding::everyday::core(prepared).unwrap_or_else(|| prepared.to_string());
    let words: Vec<&str> = line.split_whitespace().collect();
    if !lx.any_in(Class::LessonWord, &words) {
        return None;
    }
    if lx.any_in(Class::ForgetWord, &words) {
        return Some(Lessons::Forget);
    }
    // A question ("so what did u learn", "what stuff did i teach you"), not a lesson itself.
    words.iter().take(3).any(|w| lx.is(Class::QuestionOpening, w)).then_some(Lessons::List)
}

#[cfg(test)]
mod tests {
    use super::super::manager::tests::unsure;
    use super::*;
    use crate::memory::Memory;

    #[test]
    fn a_corrected_guess_is_learned_kept_in_the_memory_file_and_used_next_time() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.db");
        let (f, mut tasks, mut dm) = unsure(0.3);
        let mut memory = Memory::open(&file).unwrap();
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "cube");
        assert!(r[0].starts_with("Not sure I got that. Did you mean: building a cube"), "{r:?}");
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "no");
        assert_eq!(r, ["Sorry, I got that wrong. What should I change?"]);
        // The amendment is acted on, and remembered for the line the guess was about.
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "tower please");
        assert!(r.iter().any(|l| l.starts_with("Okay, building a tower")), "{r:?}");
        assert!(r.iter().any(|l| l.contains("next time \"cube\" means building a tower")), "{r:?}");
        drop(memory);
        // A restart: a new manager and the memory file opened again. The same line is now
        // understood at once, as the tower, with no question.
        let (_, mut tasks, mut dm) = unsure(0.3);
        let mut memory = Memory::open(&file).unwrap();
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "cube");
        assert!(r.iter().any(|l| l.starts_with("Okay, building a tower")), "{r:?}");
        assert!(!dm.is_waiting());
        let taught = memory.all_learned().unwrap();
        assert_eq!((taught.len(), taught[0].key.as_str(), taught[0].text.as_str()), (1, "cube", "tower please"));
        // An amendment that cannot be done is not learned, and the question stays open.
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "pyramid");
        assert!(r[0].starts_with("Not sure"), "{r:?}");
        dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "no");
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "glorp");
        assert!(r.iter().any(|l| l.contains("won't remember that")), "{r:?}");
        assert!(dm.is_waiting() && memory.learned("pyramid", None).unwrap().is_none());
        dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "never mind");
        // A yes to a guess is remembered as it was.
        let r = dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "wall");
        assert!(r[0].starts_with("Not sure"), "{r:?}");
        dm.handle(&mut Context::new("alice", &f.world, &mut memory, &mut tasks), "yes");
        assert_eq!(memory.learned("wall", None).unwrap().map(|l| l.text), Some("wall".to_string()));
    }

    /// mallory answers "no" to a guess and supplies "dig a hole here": alice's same words are
    /// not changed by it, unless the owner shares lessons.
    #[test]
    fn one_players_lesson_does_not_change_what_anothers_words_mean() {
        let (f, mut tasks, mut dm) = unsure(0.3);
        let mut memory = Memory::in_memory().unwrap();
        let mut say = |dm: &mut DialogueManager, who: &str, line: &str| dm.handle(&mut Context::new(who, &f.world, &mut memory, &mut tasks), line);
        assert!(say(&mut dm, "mallory", "cube")[0].starts_with("Not sure"));
        say(&mut dm, "mallory", "no");
        let r = say(&mut dm, "mallory", "tower please");
        assert!(r.iter().any(|l| l.contains("next time \"cube\" means building a tower")), "{r:?}");
        let r = say(&mut dm, "alice", "cube");
        assert!(r[0].starts_with("Not sure I got that. Did you mean: building a cube"), "alice's words keep their meaning: {r:?}");
        say(&mut dm, "alice", "never mind");
        let r = say(&mut dm, "alice", "what have you learned");
        assert!(r[0].starts_with("You haven't taught me anything"), "{r:?}");
        // Shared by the owner: mallory's lesson answers alice too.
        dm.rules.share_lessons = true;
        let r = say(&mut dm, "alice", "cube");
        assert!(r.iter().any(|l| l.starts_with("Okay, building a tower")), "{r:?}");
    }
}
