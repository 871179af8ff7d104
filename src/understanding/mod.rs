//! Understanding: from a chat line to the logical form to act on, keeping every detail the player
//! said.
//!
//! The neural [`parser`](crate::parser) is one step of several:
//! 1. **Prepare** the line: the annotations' word convention, "4x4x4" as "4 x 4 x 4", and typos
//!    fixed ([`spelling`]): "bulid a red cueb" → "build a red cube".
//! 2. **Known lines** answer at once: the [`exact`] table, then the same table for the line's core
//!    with the small words around it peeled off ([`everyday`]): "ok carry on" is "carry on".
//!    A how-to question ("how do I make a furnace") is chit-chat, never a command; a request for
//!    an item ("give me 10 oak logs"), a name ("name this tower bob") or a new colour ("paint
//!    the tower red") is read by rule ([`giving`], [`naming`], [`paint`]).
//! 3. **The parser** reads the rest. A line of several steps ("… then come back to me") whose form
//!    lost a step is read step by step and the steps joined ([`sequence`]).
//! 4. **Measures** said with their words ("20 long and 5 high", "10 by 3", "3 deep") are written
//!    into the form ([`measures`]), so a size is never swapped or dropped on the way; a colour or
//!    material the form left out is added back ([`details`]).
//!
//! What the player taught the bot (a corrected line) is looked up by the dialogue, in memory,
//! between steps 1 and 2.

pub mod asking;
mod confidence;
pub mod coordinates;
pub mod coreference;
pub mod details;
pub mod distance;
pub mod everyday;
pub mod exact;
pub mod giving;
pub mod jobs;
pub mod latest;
pub mod measures;
pub mod names;
pub mod naming;
pub mod place_name;
pub mod paint;
mod prepare;
pub mod relation;
pub mod rules;
pub mod sequence;
pub mod several;
pub mod spelling;
pub mod step;
pub mod superlative;

use confidence::{FromWords, confidence_without};
use exact::ExactTable;
use prepare::{normalized, rewritten};
use rules::{Rule, on};
use spelling::Speller;

use crate::logical_form::{Action, ActionType, DialogueType, LogicalForm, Span, tokenize};
use crate::parser::Parser;

/// Where a form came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A form given with the line (a scenario's `lf`).
    Given,
    /// The exact-match table (the whole line, or its core), or a rule.
    Known,
    /// A question about how to do something: chit-chat.
    HowTo,
    /// The neural parser, on the whole line.
    Parser,
    /// The neural parser, step by step, the steps joined.
    Steps,
    /// Something the player taught the bot.
    Taught,
    /// A question about what the bot has done ("have you built a house?"): answered from its
    /// history, never acted on.
    DidYou,
    /// "what did we build today?": answered from the objects builds made.
    WhatBuilt,
    /// "what did i ask you to do before this?": answered from the task history.
    AskedMe,
}

/// A reading of `text`, with no typo fixed yet.
fn reading(text: &str, lf: LogicalForm, confidence: f32, source: Source) -> Reading {
    Reading { text: text.to_string(), lf, confidence, source, fixes: Vec::new() }
}

/// The speller that only writes out chat shorthand, for the line read with no typo fixed.
static SHORTHAND: std::sync::OnceLock<Speller> = std::sync::OnceLock::new();

/// How sure the parser must be of a request's core (the line without openings, politeness
/// and a reason) to take it as a command over a whole line that read as chit-chat.
const CORE_OVER_CHAT: f32 = 0.5;

/// A line as understood.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The line the form's spans index: normalized, typos fixed (for a known core: the core).
    pub text: String,
    pub lf: LogicalForm,
    pub confidence: f32,
    pub source: Source,
    /// Typos fixed on the way, `(typed, meant)`.
    pub fixes: Vec<(String, String)>,
}

/// The known lines, the parser and the speller.
pub struct Understanding {
    pub exact: ExactTable,
    pub parser: Option<Box<dyn Parser>>,
    speller: Speller,
}

/// `form` if it keeps the contract for `text` (spans inside the words, keys that belong
/// together): a rule's typed form is checked once, here, before anyone acts on it.
fn checked(text: &str, form: LogicalForm) -> Option<LogicalForm> {
    crate::logical_form::validate(text, &form).ok().map(|()| form)
}

/// The words of a request without the politeness and small words around it ("could you …
/// for me please"); `None` when there are none, or nothing would be left.
fn core_range(tokens: &[String]) -> Option<std::ops::Range<usize>> {
    use crate::lexicon::Class;
    let lx = crate::lexicon::lexicon();
    let (mut a, mut b) = (0, tokens.len());
    loop {
        let before = (a, b);
        if let Some(n) = [Class::Request, Class::Opening, Class::Politeness, Class::Filler].into_iter().find_map(|c| lx.phrase_at(c, &tokens[..b], a))
            && a + n < b
        {
            a += n;
        }
        let ends = |n: usize| b >= a + n + 1 && [Class::Closing, Class::Politeness].into_iter().any(|c| lx.phrase_at(c, &tokens[..b], b - n) == Some(n));
        if let Some(n) = (1..=4).rev().find(|n| ends(*n)) {
            b -= n;
        }
        // "… because I'm building", "… its getting dark": the reason is not part of the request.
        if let Some(k) = (a + 2..b).find(|&k| lx.is(Class::Reason, &tokens[k]) || lx.phrase_at(Class::ReasonTail, &tokens[..b], k) == Some(b - k)) {
            b = k;
        }
        if (a, b) == before {
            break;
        }
    }
    ((a, b) != (0, tokens.len())).then_some(a..b)
}

impl Understanding {
    pub fn new(parser: Option<Box<dyn Parser>>) -> Understanding {
        let exact = ExactTable::default_table();
        let speller = match parser.as_ref().map(|p| p.vocabulary()).filter(|v| !v.is_empty()) {
            Some(mut vocabulary) => {
                vocabulary.extend(exact.words());
                Speller::new(vocabulary)
            }
            None => Speller::shorthand_only(),
        };
        Understanding { exact, parser, speller }
    }

    /// Step 1: the line in the annotations' convention, with measures split and typos fixed.
    pub fn prepare(&self, chat: &str) -> (String, Vec<(String, String)>) {
        if !on(Rule::Spelling) {
            return (self.prepare_unfixed(chat), Vec::new());
        }
        let fixed = self.speller.correct(&normalized(chat));
        (rewritten(&fixed.text), fixed.fixes)
    }

    /// The line as prepared but with no typo fixed (shorthand is still written out): a fix can
    /// be wrong ("juggle" is not "jungle"), so [`Understanding::read_best`] reads both.
    pub fn prepare_unfixed(&self, chat: &str) -> String {
        // Shorthand ("u", "whatd", "outta") is no guess: it is written out here too.
        let shorthand = SHORTHAND.get_or_init(Speller::shorthand_only);
        rewritten(&shorthand.correct(&normalized(chat)).text)
    }

    /// Steps 2–4 for the line with its typos fixed (`fixed`) and without (`unfixed`): the fixed
    /// reading unless it loses a command the unfixed one has, or is less sure of the same kind.
    /// The reading leaves with the words asking for the most recent thing written as the form's
    /// selector ([`latest::mark`]), and without a stop after its other steps
    /// ([`sequence::drop_trailing_stops`]).
    pub fn read_best(&self, fixed: &str, unfixed: &str) -> Option<Reading> {
        let mut best = self.choose_best(fixed, unfixed)?;
        latest::mark(&mut best.lf, &tokenize(&best.text));
        sequence::drop_trailing_stops(&mut best.lf);
        Some(best)
    }

    fn choose_best(&self, fixed: &str, unfixed: &str) -> Option<Reading> {
        let with = self.read_prepared(fixed);
        if fixed == unfixed {
            return with;
        }
        let without = self.read_prepared(unfixed);
        let command = |r: &Option<Reading>| r.as_ref().is_some_and(|r| r.lf.dialogue_type == DialogueType::HumanGiveCommand);
        let naming = |r: &Option<Reading>| r.as_ref().is_some_and(|r| r.lf.dialogue_type == DialogueType::PutMemory);
        match (&with, &without) {
            // A name is any word, never a typo for a known one ("that red tower is zork now").
            _ if naming(&with) && naming(&without) => without,
            (Some(w), _) if w.source == Source::Known => with,
            (_, Some(_)) if command(&without) && !command(&with) => without,
            (Some(w), Some(o)) if command(&with) == command(&without) && o.confidence > w.confidence => without,
            _ => with,
        }
    }

    /// Step 2: a line read without the parser — a known line of the data file (or its core
    /// without the small words around it), praise, the rules' closed patterns, and questions
    /// about the bot's own doings.
    fn read_known(&self, text: &str) -> Option<Reading> {
        if let Some(lf) = self.exact.lookup(text) {
            return Some(self.measured(reading(text, lf.clone(), 1.0, Source::Known)).0);
        }
        if on(Rule::KnownCore)
            && let Some((core, lf)) = everyday::cores(text).into_iter().find_map(|c| self.exact.lookup(&c).map(|lf| (c, lf)))
        {
            return Some(reading(&core, lf.clone(), 1.0, Source::Known));
        }
        if on(Rule::Stop)
            && everyday::is_stop(text)
            && let Some(lf) = self.exact.lookup("stop")
        {
            return Some(reading(text, lf.clone(), 1.0, Source::Known));
        }
        if on(Rule::Praise)
            && everyday::is_praise(text)
            && let Some(lf) = self.exact.lookup("good job")
        {
            return Some(reading("good job", lf.clone(), 1.0, Source::Known));
        }
        // A job said with its tool or its stages ("take a pickaxe and get me 10 coal", "turn
        // the logs into planks, then into stairs") is one request, though it reads as steps.
        if on(Rule::Jobs)
            && let Some(lf) = jobs::read_whole(text)
        {
            return Some(reading(text, lf, 1.0, Source::Known));
        }
        // The rules read one step; a line of several is read step by step (`read_prepared`).
        let one_step = sequence::steps(&tokenize(text)).len() == 1;
        // The rules read the line, or else its core without the small words around it ("and
        // where is alice" is "where is alice"); a reading of the core is the core's words.
        let rules = |t: &str| {
            let rule = |r: Rule, read: fn(&str) -> Option<LogicalForm>| if on(r) { read(t) } else { None };
            rule(Rule::Jobs, jobs::read)
                .or_else(|| rule(Rule::Giving, giving::read))
                .or_else(|| rule(Rule::Spawning, giving::read_spawn))
                .or_else(|| rule(Rule::Paint, paint::read))
                .or_else(|| rule(Rule::Naming, naming::read))
                .or_else(|| rule(Rule::Superlative, superlative::read))
                .or_else(|| rule(Rule::Asking, asking::read))
                .or_else(|| rule(Rule::Measures, measures::read_more_of_it))
        };
        if one_step
            && let Some((t, lf)) = rules(text)
                .map(|lf| (text.to_string(), lf))
                .or_else(|| everyday::core(text).filter(|_| on(Rule::KnownCore)).and_then(|c| rules(&c).map(|lf| (c, lf))))
        {
            return Some(reading(&t, lf, 1.0, Source::Known));
        }
        // Questions about the bot's own doings, answered from its history.
        if on(Rule::History) {
            if everyday::is_what_built(text) {
                return Some(reading(text, LogicalForm::new(DialogueType::GetMemory), 1.0, Source::WhatBuilt));
            }
            if everyday::is_asked_me(text) {
                return Some(reading(text, LogicalForm::new(DialogueType::Noop), 1.0, Source::AskedMe));
            }
            if everyday::is_did_you(text) {
                return Some(reading(text, LogicalForm::new(DialogueType::Noop), 1.0, Source::DidYou));
            }
        }
        if on(Rule::HowTo) && everyday::is_how_to(text) {
            return Some(reading(text, LogicalForm::new(DialogueType::Noop), 1.0, Source::HowTo));
        }
        None
    }

    /// Steps 2–4 for a prepared line; `None` when the line is not known and there is no parser.
    pub fn read_prepared(&self, text: &str) -> Option<Reading> {
        if let Some(r) = self.read_known(text) {
            return Some(r);
        }
        let parser = self.parser.as_ref()?;
        if on(Rule::Pointing)
            && let Some(r) = self.read_pointing(text)
        {
            return Some(r);
        }
        if on(Rule::OnlyThings)
            && let Some(asked) = everyday::asked_in_other_words(text)
        {
            return self.read_prepared(&asked);
        }
        let parsed = self.parse_core(text, parser.parse(text));
        let choices = parsed.choices;
        let mut best = reading(text, parsed.lf, parsed.confidence, Source::Parser);
        let tokens = tokenize(text);
        let steps = sequence::steps(&tokens);
        let commands = if best.lf.dialogue_type == DialogueType::HumanGiveCommand { best.lf.actions().len() } else { 0 };
        // Several steps: each read on its own, kept when the whole line lost a step or was
        // less sure than its least sure step.
        if on(Rule::Steps) && steps.len() > 1 && commands <= steps.len() {
            let mut parts = Vec::new();
            let mut confidence = 1.0f32;
            let mut verb: Option<String> = None;
            let mut named = 0;
            for r in &steps {
                let words = &tokens[r.clone()];
                // A step without a verb borrows the one before ("build a red wall, then a blue
                // tower"); its words then start one later.
                let (step, offset) = match &verb {
                    Some(v) if !sequence::has_verb(words) && r.start > 0 => (format!("{v} {}", words.join(" ")), r.start.saturating_sub(v.split_whitespace().count())),
                    _ => (words.join(" "), r.start),
                };
                if sequence::has_verb(words) {
                    // "could you spawn four cows and two sheep": the verb after the polite frame.
                    let lx = crate::lexicon::lexicon();
                    // "i need four diamonds and two iron ingots": a request's whole opening.
                    let opening = lx.phrase_at(crate::lexicon::Class::GiveOpening, words, 0).filter(|&n| n > 1).map(|n| words[..n].join(" "));
                    verb = opening.or_else(|| words.iter().find(|w| lx.is(crate::lexicon::Class::StepVerb, w)).or(words.first()).cloned());
                }
                // Each step is read as a line of its own: the known lines and rules, the parser,
                // and the repairs, with the confidence they leave.
                let Some(r) = self.read_prepared(&step) else { break };
                // "… and call it bob": a naming step, which the steps of the form get back
                // (`step::split`); the command's form holds only the actions.
                // A naming or a question about what was just done ("… then tell me how tall it
                // is") is a step of its own, which `steps` gets back.
                if r.lf.dialogue_type == DialogueType::PutMemory || (r.lf.dialogue_type == DialogueType::GetMemory && r.lf.filters.is_some()) {
                    confidence = confidence.min(r.confidence);
                    named += 1;
                    continue;
                }
                confidence = confidence.min(r.confidence);
                // A known core ("could you spawn four cows" → "spawn four cows") has spans over
                // the core: they move to where the core's words stand in the step.
                let (all, core) = (tokenize(&step), tokenize(&r.text));
                let Some(at) = (0..=all.len().saturating_sub(core.len())).find(|&p| all[p..].starts_with(&core)) else { break };
                parts.push((offset + at, r.lf));
            }
            if parts.len() + named == steps.len()
                && let Some(joined) = sequence::join(text, &parts)
                && (commands < parts.len() || confidence > best.confidence)
            {
                best = reading(text, joined, confidence, Source::Steps);
            }
        }
        // Steps were repaired one by one.
        let (mut best, read) = if best.source == Source::Steps { (best, FromWords::default()) } else { self.measured(best) };
        if best.source == Source::Parser && read.any() && !choices.is_empty() {
            best.confidence = confidence_without(&choices, &read);
        }
        Some(best)
    }

    /// The parse of the line's core when it is surer than the whole line's ("could you dig a
    /// hole for me please" read as "dig a hole"), its spans and choices moved to count in the
    /// whole line. Politeness never changes what a request asks; the parser saw it rarely.
    fn parse_core(&self, text: &str, whole: crate::parser::Parsed) -> crate::parser::Parsed {
        let tokens = tokenize(text);
        let Some(core) = core_range(&tokens).filter(|_| on(Rule::Core)) else { return whole };
        let Some(parser) = self.parser.as_ref() else { return whole };
        let core_text = tokens[core.clone()].join(" ");
        let mut p = parser.parse(&core_text);
        // Both readings are judged as they will be acted on: without the parser's doubts about
        // what the words say plainly ("go 15 blocks south *i guess*": the distance).
        let (sure, whole_sure) = (self.sureness(&core_text, &p), self.sureness(text, &whole));
        // A core that opens with a command verb ("yo bro *make me a shelter* real quick its
        // getting dark") is a command even when the whole line looked like chit-chat.
        let commands = tokens.get(core.start).is_some_and(|w| crate::lexicon::lexicon().is(crate::lexicon::Class::CommandStart, w));
        let over_chat = whole.lf.dialogue_type == DialogueType::Noop && commands && sure >= CORE_OVER_CHAT;
        // A question or a naming under small words ("and where is alice", "ok so whats ruby
        // made of"): the words around it never make it chit-chat.
        let asks = matches!(p.lf.dialogue_type, DialogueType::GetMemory | DialogueType::PutMemory)
            && sure >= CORE_OVER_CHAT
            && (whole.lf.dialogue_type == DialogueType::Noop
                || whole.lf.actions().iter().all(|a| a.action_type == ActionType::OtherAction) && !whole.lf.actions().is_empty()
                || (whole.lf.dialogue_type == p.lf.dialogue_type && sure > whole_sure));
        if !asks && ((sure <= whole_sure && !over_chat) || p.lf.dialogue_type != DialogueType::HumanGiveCommand) {
            return whole;
        }
        let Some(lf) = checked(text, crate::logical_form::shifted(&p.lf, core.start)) else { return whole };
        p.lf = lf;
        for c in &mut p.choices {
            c.words = c.words.map(|(a, b)| (a + core.start, b + core.start));
        }
        p
    }

    /// How sure a parse is once what the words say plainly was read from them (step 4): the
    /// confidence the line would be acted on with.
    fn sureness(&self, text: &str, parsed: &crate::parser::Parsed) -> f32 {
        let (_, read) = self.measured(reading(text, parsed.lf.clone(), parsed.confidence, Source::Parser));
        if read.any() && !parsed.choices.is_empty() { confidence_without(&parsed.choices, &read) } else { parsed.confidence }
    }

    /// A one-step command with a pointing relation ("build a green pillar next to it", "put a red
    /// cube in its place"): the parser reads the line without those words, and the location they
    /// say is written in. `None` unless the rest reads as one action that takes such a place.
    fn read_pointing(&self, text: &str) -> Option<Reading> {
        let tokens = tokenize(text);
        if sequence::steps(&tokens).len() > 1 {
            return None;
        }
        let lx = crate::lexicon::lexicon();
        let (cut, location) = coreference::cut(&tokens, |w| lx.verb(w).or(lx.is(crate::lexicon::Class::StepVerb, w).then_some(ActionType::Build)))?;
        // A walk has nothing but its place: "go over to it", "go stand on top of it".
        let first = tokens.iter().find(|w| !lx.is(crate::lexicon::Class::Opening, w))?;
        if location.reference_object.is_some() && lx.verb(first) == Some(ActionType::Move) {
            let mut walk = Action::new(ActionType::Move);
            walk.set_location(location);
            let lf = checked(text, LogicalForm::command(vec![walk]))?;
            return Some(Reading { text: text.to_string(), lf, confidence: 1.0, source: Source::Known, fixes: Vec::new() });
        }
        let rest: Vec<&str> = tokens.iter().enumerate().filter(|(k, _)| !cut.contains(k)).map(|(_, w)| w.as_str()).collect();
        let rest = rest.join(" ");
        let parsed = self.parse_core(&rest, self.parser.as_ref()?.parse(&rest));
        let kind = parsed.lf.actions().first().map(|a| a.action_type);
        if parsed.lf.dialogue_type != DialogueType::HumanGiveCommand
            || parsed.lf.actions().len() != 1
            || !matches!(kind, Some(ActionType::Build | ActionType::Move | ActionType::Dig | ActionType::Spawn))
        {
            return None;
        }
        // The words cut out go back: the spans after them move on.
        let put_back = |i: usize| if i >= cut.start { i + cut.len() } else { i };
        let mut action = crate::logical_form::map_spans(&parsed.lf.actions()[0], |s| Some(Span::new(put_back(s.start), put_back(s.end))))?;
        action.set_location(location);
        let lf = checked(text, LogicalForm::command(vec![action]))?;
        let (mut r, from) = self.measured(Reading { text: text.to_string(), lf, confidence: parsed.confidence, source: Source::Parser, fixes: Vec::new() });
        // The place came from the words, and so do colours and materials (`details`) and a mob
        // spawned: the parser's confidence is about the rest. (Its choices' spans count in the
        // line without the place, so what was read at word positions is not set aside.)
        let read = FromWords { located: true, spawned: from.spawned, block_built: from.block_built, ..FromWords::default() };
        r.confidence = if parsed.choices.is_empty() { parsed.confidence } else { confidence_without(&parsed.choices, &read) };
        Some(r)
    }

    /// The steps of a line as read: [`step::split`], with a step the command's form has no
    /// action for read as a line of its own ("… then call it bob", "call the tower lighthouse
    /// then …", "… and paint it black": an action only a rule reads).
    pub fn steps(&self, text: &str, lf: &LogicalForm) -> Vec<step::Step> {
        step::split_with(text, lf, |words| {
            self.read_prepared(words).map(|r| r.lf).filter(|f| {
                f.dialogue_type == DialogueType::PutMemory
                    || (f.dialogue_type == DialogueType::GetMemory && f.filters.is_some())
                    || f.actions().iter().any(|a| a.action_type == ActionType::Paint)
            })
        })
    }

    /// The whole path for one chat line.
    pub fn read(&self, chat: &str) -> Option<Reading> {
        let (text, fixes) = self.prepare(chat);
        let unfixed = self.prepare_unfixed(chat);
        self.read_best(&text, &unfixed).map(|r| Reading { fixes, ..r })
    }

    /// Step 4: measures said in each step written into its action's schematic; with what was
    /// read from the words rather than taken from the parser.
    fn measured(&self, mut r: Reading) -> (Reading, FromWords) {
        let mut covered = Vec::new();
        if r.lf.dialogue_type != DialogueType::HumanGiveCommand {
            return (r, FromWords::default());
        }
        let tokens = tokenize(&r.text);
        let steps = sequence::steps(&tokens);
        let mut lf = r.lf.clone();
        let Some(actions) = lf.action_sequence.as_mut() else { return (r, FromWords::default()) };
        let n = actions.len();
        let mut changed = false;
        let mut read = FromWords::default();
        for (i, action) in actions.iter_mut().enumerate() {
            let step = if steps.len() == n { steps[i].clone() } else if steps.len() == 1 { 0..tokens.len() } else { continue };
            if on(Rule::SpawnRepair) {
                changed |= giving::repair_spawn(action, &tokens);
                read.spawned |= giving::spawns_a_mob(action, &tokens);
                if let Some(words) = giving::builds_a_block(action, &tokens, step.clone()) {
                    read.block_built = true;
                    read.detailed.extend(words);
                }
            }
            changed |= on(Rule::JobRepair) && jobs::repair(action, &tokens, step.clone());
            changed |= on(Rule::Paint) && paint::repair(action, &tokens, step.clone());
            if on(Rule::Details) {
                let (wrote, words) = details::repair(action, &tokens, step.clone());
                changed |= wrote;
                read.detailed.extend(words);
                changed |= details::undo_names_a_thing(action, &tokens);
                let down = details::put_down(action, &tokens);
                changed |= down;
                read.located |= down;
                read.described |= details::said_plainly(action, &tokens);
                read.latest.extend(latest::words(action, &tokens));
                read.pointed |= details::only_pointed(action, &tokens);
            }
            // The ranking and the name it ranks are read from the words ("the closest green
            // tower"): the parser's doubts about them no longer count.
            let rank = if on(Rule::RankingRepair) { superlative::repair(action, &tokens, step.clone()) } else { Vec::new() };
            changed |= !rank.is_empty();
            read.ranked |= !rank.is_empty();
            covered.extend(rank);
            let typed = on(Rule::Coordinates) && coordinates::repair(action, &tokens, step.clone());
            let typed = typed || on(Rule::PlaceName) && place_name::repair(action, &tokens, step.clone());
            let moved = if on(Rule::Distance) { distance::repair(action, &tokens, step.clone()) } else { Vec::new() };
            let related = on(Rule::Relation) && relation::repair(action, &tokens, step.clone());
            // A pointing relation ("on top of it") was written before the parse (`read_pointing`).
            changed |= typed || !moved.is_empty() || related;
            read.located |= typed || !moved.is_empty() || related;
            covered.extend(moved);
            if on(Rule::Count) {
                let (wrote, words) = measures::count(action, &tokens, step.clone());
                changed |= wrote;
                read.counted.extend(words);
            }
            let found = if on(Rule::Measures) { measures::repair(action, &tokens, step) } else { Vec::new() };
            changed |= !found.is_empty();
            // A span over a measure's glue ("with sides of 7") is as much the measure's.
            covered.extend(found.into_iter().flat_map(|m| m.words.chain(m.glue)));
        }
        // With the place written, a repeat the parser read from its distance goes.
        changed |= on(Rule::Count) && measures::repeat_from_distance(&mut lf);
        // "4 long and 3 wide": the "and" between two measures is theirs too.
        let joins: Vec<usize> = (1..tokens.len().saturating_sub(1)).filter(|&k| tokens[k] == "and" && covered.contains(&(k - 1)) && covered.contains(&(k + 1))).collect();
        covered.extend(joins);
        if changed {
            match crate::logical_form::validate(&r.text, &lf) {
                Ok(()) => r.lf = lf,
                Err(e) => {
                    tracing::debug!(?e, "measures left out: the repaired form did not validate");
                    return (r, FromWords::default());
                }
            }
        }
        let named = if on(Rule::Details) { r.lf.actions().iter().flat_map(details::described_things).collect() } else { Vec::new() };
        (r, FromWords { measured: covered, named, ..read })
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_lines_and_their_cores_need_no_parser() {
        let u = Understanding::new(None);
        let r = u.read("OK, carry on!").expect("known");
        assert_eq!((r.text.as_str(), r.source), ("carry on", Source::Known));
        assert_eq!(r.lf.actions()[0].action_type, crate::logical_form::ActionType::Resume);
        let r = u.read("hold on a sec").expect("known");
        assert_eq!(r.lf.actions()[0].action_type, crate::logical_form::ActionType::Stop);
        let r = u.read("what are you doing right now?").expect("known");
        assert_eq!(r.lf.dialogue_type, DialogueType::GetMemory);
        let r = u.read("how do I make a furnace").expect("a how-to question");
        assert_eq!((r.lf.dialogue_type, r.source), (DialogueType::Noop, Source::HowTo));
        assert!(u.read("build a castle").is_none(), "no parser, not known");
    }

    /// A parser that knows some words and reads every line as chit-chat.
    struct Words;

    impl crate::parser::Parser for Words {
        fn parse(&self, _: &str) -> crate::parser::Parsed {
            crate::parser::Parsed { lf: LogicalForm::new(DialogueType::Noop), confidence: 1.0, choices: Vec::new() }
        }
        fn vocabulary(&self) -> Vec<String> {
            ["carry", "on", "right", "now", "what", "are", "you", "doing", "that", "red", "tower", "is", "fork"].iter().map(|w| w.to_string()).collect()
        }
    }

    #[test]
    fn typos_are_fixed_before_the_table() {
        let u = Understanding::new(Some(Box::new(Words)));
        let r = u.read("cary on").expect("known after the fix");
        assert_eq!(r.lf.actions()[0].action_type, crate::logical_form::ActionType::Resume);
        assert_eq!(r.fixes, vec![("cary".to_string(), "carry".to_string())]);
        // A name is the player's word, never a typo for one the parser knows.
        let r = u.read("that red tower is zork now").expect("a naming");
        assert_eq!(r.lf.dialogue_type, DialogueType::PutMemory);
        assert!(r.text.contains("zork"), "{}", r.text);
        // With no parser, only shorthand is expanded: ordinary words are never "fixed".
        let u = Understanding::new(None);
        assert_eq!(u.prepare("what r u doing right now").0, "what are you doing right now");
    }
}
