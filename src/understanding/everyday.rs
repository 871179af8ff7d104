//! Everyday lines: "ok carry on", "hold on a sec", "what are you doing right now", "nice work,
//! thanks!". Players wrap short commands in small words the exact-match table does not hold;
//! peeling those off (at either end, never inside) leaves the core line the table knows.
//!
//! Questions about how to do something ("how do I make a furnace") are told apart here too: they
//! are asked of the bot, not commands to it, so they must never start a build.
//!
//! The words are the lexicon's: `[openings]` and `[closings]` (peeled off), `[command_starts]`,
//! `[rewrites]` (unusual verbs), `[praise]`, `[how_to]` and the questions about what was built.

use crate::lexicon::{Class, Texts, lexicon};

/// Is this normalized line said to the bot — a command or a question about what it does —
/// rather than chit-chat? True for lines the exact table knows (or knows the core of) and for
/// lines that start with a command verb or ask what the bot is doing. Chit-chat examples for
/// training leave such lines out, so the parser is never taught that "what are you doing right
/// now" or "hold on" is small talk.
pub fn is_for_the_bot(normalized: &str, exact: &super::exact::ExactTable) -> bool {
    let known = |t: &str| exact.lookup(t).is_some_and(|lf| lf.dialogue_type != crate::logical_form::DialogueType::Noop);
    let first = normalized.split_whitespace().next().unwrap_or("");
    known(normalized)
        || core(normalized).is_some_and(|c| known(&c))
        || lexicon().is(Class::CommandStart, first)
        || normalized.starts_with("what are you doing")
        || normalized.starts_with("what are you building")
}

/// Unusual verbs at the start of each step replaced by the ones the parser knows (`[rewrites]`):
/// "lay down a floor" → "build a floor", "get rid of the cube" → "destroy the cube"; and
/// phrases said in other words anywhere (`[anywhere]`): "where i'm looking" → "there".
pub fn plain_verbs(normalized: &str) -> String {
    let words: Vec<&str> = normalized.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        // A step starts the line, or follows a joining word or a small opening ("yo slap down …").
        // A connector of several words ("after that") ends right before it too.
        let after_connector = || (2..=4).any(|n| i >= n && lexicon().phrase_at(Class::Connector, &words, i - n) == Some(n));
        let starts_step = i == 0 || lexicon().is(Class::RewriteAfter, words[i - 1]) || lexicon().is(Class::Opening, words[i - 1]) || lexicon().is(Class::Filler, words[i - 1]) || after_connector();
        // A rewrite that drops words ("wait no" → "") never drops the whole rest of a line.
        let rewrite = starts_step
            .then(|| lexicon().text_at(Texts::Rewrite, &words, i))
            .flatten()
            .filter(|(to, n)| !to.is_empty() || i + n < words.len())
            .or_else(|| lexicon().text_at(Texts::Anywhere, &words, i));
        // "go southwest *about* 10 blocks": the number is all a step needs.
        let number = |w: &str| w.parse::<f64>().is_ok() || lexicon().value(crate::lexicon::Values::Number, w).is_some();
        // "i 'd like 12 iron ingots": the "like" of a want is no "about".
        let wants = || (0..i).any(|j| lexicon().phrase_at(Class::Want, &words, j) == Some(i + 1 - j));
        let rough = lexicon().is(Class::Approximately, words[i])
            && words.get(i + 1).is_some_and(|w| number(w))
            && (i == 0 || !lexicon().is(Class::QuestionOpening, words[i - 1]))
            && !wants();
        // "go south for 20 blocks": the "for" of a walk's length, after its direction.
        let lx = lexicon();
        let direction = |w: &str| lx.compass(w).is_some() || lx.relative(w).is_some();
        let next_number = || words.get(i + 1).is_some_and(|w| number(w) || lx.is(Class::Approximately, w));
        let lasting = words[i] == "for" && i > 0 && direction(words[i - 1]) && next_number();
        // "a *really* tall tower": only a stronger "tall".
        let intensifier = lx.is(Class::Intensifier, words[i]) && words.get(i + 1).is_some_and(|w| lx.size(w).is_some() || lx.dimension(w).is_some());
        match rewrite {
            _ if rough || lasting || intensifier => i += 1,
            Some((to, n)) => {
                out.extend(to.split(' ').filter(|w| !w.is_empty()));
                i += n;
            }
            None => {
                out.push(words[i]);
                i += 1;
            }
        }
    }
    let mut text = out.join(" ");
    // Words that add nothing to a dig ("dig a hole *in the ground*").
    for p in lexicon().words(Class::EmptyPhrase) {
        if text.starts_with("dig ") || text.contains(" dig ") {
            text = text.replace(&format!(" {p}"), "");
        }
    }
    text
}

/// The core of a normalized line with the small words around it peeled off ("ok carry on" →
/// "carry on"); `None` when nothing was peeled or nothing would be left.
pub fn core(normalized: &str) -> Option<String> {
    cores(normalized).pop()
}

/// Each line left as the small words around it come off one by one, the core last: "um never
/// mind that" → "never mind that", "that" (a known line may hide inside a longer peel).
pub fn cores(normalized: &str) -> Vec<String> {
    let mut words: Vec<&str> = normalized.split_whitespace().collect();
    let mut stages: Vec<String> = Vec::new();
    let mut closings: Vec<&Vec<String>> = lexicon().phrases(Class::Closing).iter().collect();
    closings.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let lx = lexicon();
    let next_starts = |w: &str| [Class::CommandStart, Class::StepVerb, Class::CallVerb, Class::Opening].into_iter().any(|c| lx.is(c, w));
    loop {
        let len = words.len();
        for phrase in &closings {
            let n = phrase.len();
            if words.len() > n && words[words.len() - n..].iter().zip(phrase.iter()).all(|(w, p)| w == p) {
                words.truncate(words.len() - n);
                stages.push(words.join(" "));
            }
        }
        // Small openings, fillers and the polite frame of a request ("ok", "hmm", "can you");
        // praise before a new request ("nice!! call it casa", "awesome now build a wall"); the
        // bot called before a command ("you come here", "you there dig a hole").
        let opening = [Class::Opening, Class::Request, Class::Filler].into_iter().find_map(|c| lx.phrase_at(c, &words, 0)).filter(|n| words.len() > *n);
        let praise = (words.len() > 1 && lx.is(Class::Praise, words[0]) && next_starts(words[1])).then_some(1);
        let address = lx.phrase_at(Class::Address, &words, 0).filter(|n| words.get(*n).is_some_and(|w| next_starts(w)));
        if let Some(n) = opening.or(praise).or(address) {
            words.drain(..n);
            stages.push(words.join(" "));
        }
        if words.len() == len {
            break;
        }
    }
    stages
}

/// "awesome, that looks great", "well done buddy", "you're the best": only praise words (at
/// least one) and the small words around them.
pub fn is_praise(normalized: &str) -> bool {
    let words: Vec<&str> = normalized.split_whitespace().collect();
    let praise = |w: &str| lexicon().is(Class::Praise, w);
    words.iter().any(|w| praise(w)) && words.iter().all(|w| praise(w) || lexicon().is(Class::PraiseCompany, w))
}

/// "have you built a house?", "did you dig the hole": a question about what the bot did.
pub fn is_did_you(normalized: &str) -> bool {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    let words: Vec<&str> = text.split_whitespace().collect();
    lexicon().phrase_at(Class::DidYou, &words, 0) == Some(2) && words.get(2).is_some_and(|w| lexicon().is(Class::DidYouWords, w))
}

/// "what did we build today?", "what have you built so far", "what did you make": a question
/// about what the bot has built, answered from the objects builds made.
pub fn is_what_built(normalized: &str) -> bool {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    let words: Vec<&str> = text.split_whitespace().collect();
    lexicon().phrase_at(Class::WhatBuilt, &words, 0).is_some()
        && words.iter().any(|w| lexicon().is(Class::BuiltVerb, w))
        && words.iter().all(|w| lexicon().is(Class::WhatBuiltWords, w))
}

/// "what did i ask you to do before this", "what was my last command": a question about what
/// the player asked for, answered from the task history.
pub fn is_asked_me(normalized: &str) -> bool {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    let words: Vec<&str> = text.split_whitespace().collect();
    lexicon().phrase_at(Class::AskedMe, &words, 0).is_some() && words.len() <= 10
}

/// "hang on stop for a sec", "woah woah hold up", "thats enough, cancel pls", "wait dont": a
/// line made only of stop words (`[stop_words]`) and the small words around them (`[stop_tails]`,
/// fillers, politeness, openings, closings, a "no"). "don't stop" (a negation right before another
/// stop word) is no stop. A comment may follow the stop ("… thats way too big", `[stop_comments]`).
pub fn is_stop(normalized: &str) -> bool {
    let lx = lexicon();
    let words: Vec<&str> = normalized.split_whitespace().collect();
    let mut stops: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if let Some(n) = lx.phrase_at(Class::StopWord, &words, i) {
            stops.push((i, n));
            i += n;
            continue;
        }
        // "hold on a sec thats way too big": what follows a stop is the player's comment.
        if !stops.is_empty() && lx.phrase_at(Class::StopComment, &words, i).is_some() {
            break;
        }
        let small = [Class::StopTail, Class::Filler, Class::Politeness, Class::Opening, Class::Closing, Class::No, Class::Request];
        match small.into_iter().find_map(|c| lx.phrase_at(c, &words, i)) {
            Some(n) => i += n,
            None => return false,
        }
    }
    // lexicon: the negations among `[stop_words]`, which turn the stop word after them around.
    let negation = |(k, n): (usize, usize)| matches!(words[k..k + n].join(" ").as_str(), "don't" | "dont" | "do n't");
    let turned = stops.windows(2).any(|w| negation(w[0]) && w[0].0 + w[0].1 == w[1].0);
    !stops.is_empty() && !turned
}

/// "two blue spheres pls", "a big red cube", "a 7 wide 2 tall wall of oak planks", "tower 20
/// blocks high": a line that only names things to build (counts, sizes, colours, materials and
/// measures, then a shape, then perhaps its material; or the shape, then its measures) is a
/// request to build them, as "build …". `None` unless the core of the line is exactly that.
pub fn only_things(normalized: &str) -> Option<String> {
    let lx = lexicon();
    // "brick wall pls, height 2, length 8": a "please" between the thing and its measures.
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    let text = text.split_whitespace().filter(|w| !lx.is(Class::Politeness, w)).collect::<Vec<_>>().join(" ");
    let words: Vec<&str> = text.split_whitespace().collect();
    let describes = |w: &&str| {
        lx.is(Class::Indefinite, w)
            || lx.describes(w)
            || lx.value(crate::lexicon::Values::Number, w).is_some()
            || w.parse::<u32>().is_ok()
    };
    let measure = |w: &&str| describes(w) || lx.unit(w).is_some() || lx.dimension(w).is_some() || lx.is(Class::By, w) || lx.is(Class::MeasureGlue, w);
    let shape = words.iter().position(|w| crate::schematics::is_known_shape(w) && !lx.is(Class::GenericThing, w))?;
    // "… on top of it", "… next to me", "… here": where it goes, last, is the build's to read.
    let place = (shape + 1..words.len())
        .find(|&k| {
            lx.pointing_relation_at(&words, k).is_some() || [Class::Here, Class::There, Class::PlaceStart].iter().any(|c| lx.is(*c, words[k]))
        })
        .unwrap_or(words.len());
    let (before, after) = (&words[..shape], &words[shape + 1..place]);
    // "… of oak planks", "… made out of gold": what it is made of, last.
    let made_of = (0..after.len()).find_map(|k| lx.phrase_at(Class::MaterialLead, after, k).map(|n| (k, n)));
    // "sphere of white wool, radius 4": measures may follow the material too.
    let (measures, material) = match made_of {
        Some((k, n)) => {
            let rest = &after[k + n..];
            let m = rest.iter().position(|w| !lx.describes(w)).unwrap_or(rest.len());
            (after[..k].iter().chain(&rest[m..]).copied().collect::<Vec<&str>>(), &rest[..m])
        }
        None => (after.to_vec(), &[][..]),
    };
    let made = made_of.is_none() || !material.is_empty();
    // "the tower" points at one that is there; a lone "tower" may answer something else.
    // "the red cube", "my tower" point at one that is there.
    let pointed = before.iter().any(|w| lx.is(Class::Determiner, w) && !lx.is(Class::Indefinite, w));
    let described_first = !before.is_empty() && !pointed && before.iter().all(measure) && before.iter().any(describes);
    // "tower, 15 high, 3 wide, blue", "pyramid 9 wide": the shape first, with at least one number.
    let a = |w: &[&str]| w.iter().all(|x| lx.is(Class::Indefinite, x));
    let measured_after = a(before) && measures.iter().any(|w| w.parse::<u32>().is_ok());
    // "3 wide and 14 long": measures joined by "and" are measures still.
    let measures_and = |w: &&str| measure(w) || *w == "and";
    (made && measures.iter().all(measures_and) && (described_first || measured_after)).then(|| format!("build {text}"))
}

/// A line that names only what it wants, read as the request it is: "two blue spheres pls"
/// ("build …"), "i need cobble, get me a stack" (the request with the item in it), "i want a
/// wall that is 3 high" ("build …").
pub fn asked_in_other_words(normalized: &str) -> Option<String> {
    only_things(normalized).or_else(|| needed_items(normalized)).or_else(|| wanted_things(normalized)).or_else(|| wished_look(normalized))
}

/// "snowy should be pink now", "the tower needs to be glass": a thing already there, a wish
/// (`[paint_wishes]`) and only colours and materials after it, as "make snowy pink". The thing
/// is pointed at ("the tower", "it"), or one word the lexicon does not know: a name ("i
/// should be …" is about the speaker).
pub fn wished_look(normalized: &str) -> Option<String> {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    let words: Vec<&str> = text.split_whitespace().collect();
    let lx = lexicon();
    let (k, n) = (1..words.len()).find_map(|k| lx.phrase_at(Class::PaintWish, &words, k).map(|n| (k, n)))?;
    let (thing, look) = (&words[..k], &words[k + n..]);
    let pointed = super::paint::definite(thing[0]);
    let name = thing.len() == 1 && !lx.knows(thing[0]);
    let looks = !look.is_empty() && look.iter().all(|w| lx.colour(w).is_some() || lx.describes(w));
    ((pointed || name) && looks).then(|| format!("make {} {}", thing.join(" "), look.join(" ")))
}

/// "i want a wall that is 3 high", "can i have a lime green dome at 30 5 -30", "how about a
/// glass tower", "a staircase would be nice": a want (`[wants]`, or `[want_ends]` after the thing)
/// and a thing the bot can build, described only by counts, sizes, colours
/// and materials before its shape, is a request to build it, as "build …". Other wants ("i
/// want a cookie") stay what they are.
pub fn wanted_things(normalized: &str) -> Option<String> {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    let words: Vec<&str> = text.split_whitespace().collect();
    let lx = lexicon();
    // "a staircase would be nice", "a dome would look sick right here": the want after the
    // thing; otherwise before it ("how about a glass tower").
    let rest: Vec<&str> = match (1..words.len()).find_map(|k| lx.phrase_at(Class::WantEnd, &words, k).map(|n| (k, n))) {
        Some((k, n)) => words[..k].iter().chain(&words[k + n..]).copied().collect(),
        None => words[lx.phrase_at(Class::Want, &words, 0)?..].to_vec(),
    };
    // "a", "an", "some": a new thing; "the", "that", "my" point at one that is there.
    let new_thing = |w: &str| lx.is(Class::Indefinite, w) || (lx.is(Class::Determiner, w) && ![Class::Article, Class::Pointing, Class::Possessive].iter().any(|c| lx.is(*c, w)));
    // "a few", "a couple of": how many, not what.
    let new_thing = |w: &str| new_thing(w) || lx.is(Class::QuantityWord, w) && !lx.is(Class::Determiner, w) && !crate::schematics::is_known_shape(w);
    // "five": how many, as a digit would be.
    let new_thing = |w: &str| new_thing(w) || lx.number(&[w], 0).is_some();
    // Sizes may come first too: "a 3 x 3 x 3 glass cube".
    let measure = |w: &str| w.parse::<u32>().is_ok() || lx.is(Class::By, w) || lx.unit(w).is_some() || lx.dimension(w).is_some();
    let shape = rest.iter().position(|w| !(new_thing(w) || lx.describes(w) || measure(w)))?;
    let thing = rest[shape];
    // "i want a few cows near me": a mob wanted is spawned.
    if shape > 0 && crate::world::rules::mob_kind(&[thing.to_string()]).is_some() {
        return Some(format!("spawn {}", rest.join(" ")));
    }
    (shape > 0 && crate::schematics::is_known_shape(thing) && !lx.is(Class::GenericThing, thing)).then(|| format!("build {}", rest.join(" ")))
}

/// "i need cobble, get me a stack", "i need spruce wood can u get some", "u got any diamonds?
/// gimme 3": an item wanted (a `[wants]` or `[have_any]` opening), then a request that leaves it out, ending in a count or a pronoun. Read
/// as the request with the item in it, for the player: "get me a stack of cobble", "can you get
/// some spruce wood for me".
pub fn needed_items(normalized: &str) -> Option<String> {
    let words: Vec<&str> = normalized.split_whitespace().collect();
    let lx = lexicon();
    let start = lx.phrase_at(Class::Want, &words, 0).or_else(|| lx.phrase_at(Class::HaveAny, &words, 0))?;
    let k = (start + 1..words.len()).find(|&k| lx.phrase_at(Class::Request, &words, k).is_some() || lx.is(Class::StepVerb, words[k]))?;
    let item: Vec<String> = words[start..k].iter().map(|w| w.to_string()).collect();
    crate::world::rules::item_id(&item)?;
    let (last, request) = words[k..].split_last()?;
    let item = item.join(" ");
    let asked = if lx.is(Class::Pointing, last) {
        format!("{} {item}", request.join(" "))
    } else if lx.is(Class::Determiner, last) || lx.is(Class::Indefinite, last) || last.parse::<u32>().is_ok() {
        format!("{} {last} {item}", request.join(" "))
    } else if lx.is(Class::QuantityWord, last) {
        format!("{} {last} of {item}", request.join(" "))
    } else {
        return None;
    };
    // The player wants it: gathered, it is handed over.
    let for_them = words[k..].iter().any(|w| lx.is(Class::Me, w));
    Some(if for_them { asked } else { format!("{asked} for me") })
}

/// "how do I make a furnace", "what's the recipe for a bed": a question about how to do
/// something, not a command.
pub fn is_how_to(normalized: &str) -> bool {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    let words: Vec<&str> = text.split_whitespace().collect();
    lexicon().phrase_at(Class::HowTo, &words, 0).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_needed_is_put_into_the_request_that_leaves_it_out() {
        assert_eq!(needed_items("i need cobble get me a stack").as_deref(), Some("get me a stack of cobble"));
        assert_eq!(needed_items("i need spruce wood can you get some").as_deref(), Some("can you get some spruce wood for me"));
        assert_eq!(needed_items("i need cobble mine like 30").as_deref(), Some("mine like 30 cobble for me"));
        assert_eq!(needed_items("you got any diamonds give me 3").as_deref(), Some("give me 3 diamonds"));
        assert_eq!(needed_items("i need you to build a wall"), None, "no item");
        assert_eq!(needed_items("i need cobble get me some bread"), None, "the request names its own thing");
    }

    #[test]
    fn stop_words_stop_however_they_are_wrapped() {
        for line in ["hang on stop for a sec", "woah woah hold up", "thats enough cancel please", "wait do n't", "ok stop stop", "hold it right there", "ok thats enough you can stop now thanks"] {
            assert!(is_stop(line), "{line}");
        }
        assert_eq!(core("nice call it casa").as_deref(), Some("call it casa"));
        assert_eq!(core("awesome now build a wall").as_deref(), Some("build a wall"));
        assert_eq!(core("nice tower"), None);
        for line in ["do n't stop", "stop building the tower", "wait what", "hold the door", "build a tower"] {
            assert!(!is_stop(line), "{line}");
        }
    }

    #[test]
    fn a_want_or_a_bare_thing_to_build_is_a_build_and_other_lines_are_not() {
        assert_eq!(wanted_things("i want a wall that is 3 high").as_deref(), Some("build a wall that is 3 high"));
        assert_eq!(wanted_things("can i have 2 big red cubes here").as_deref(), Some("build 2 big red cubes here"));
        assert_eq!(wanted_things("i want a cookie"), None);
        assert_eq!(wanted_things("i want a few cows near me").as_deref(), Some("spawn a few cows near me"));
        assert_eq!(wanted_things("i want a couple of red cubes").as_deref(), Some("build a couple of red cubes"));
        assert_eq!(wanted_things("how about a glass tower 6 high").as_deref(), Some("build a glass tower 6 high"));
        assert_eq!(wanted_things("a staircase would be nice lol").as_deref(), Some("build a staircase"));
        assert_eq!(wanted_things("hmm maybe some stairs up to 8 high").as_deref(), Some("build some stairs up to 8 high"));
        assert_eq!(wanted_things("i want the tower"), None);
        assert_eq!(only_things("tower 15 high 3 wide blue").as_deref(), Some("build tower 15 high 3 wide blue"));
        assert_eq!(only_things("pyramid 9 wide").as_deref(), Some("build pyramid 9 wide"));
        assert_eq!(only_things("tower of london"), None);
        assert_eq!(only_things("a 7 wide 2 tall wall of oak planks").as_deref(), Some("build a 7 wide 2 tall wall of oak planks"));
        assert_eq!(only_things("two big red cubes").as_deref(), Some("build two big red cubes"));
        assert_eq!(only_things("a tower made out of gold").as_deref(), Some("build a tower made out of gold"));
        assert_eq!(only_things("a red cube is nice"), None);
        assert_eq!(only_things("the tower 10 high"), None);
        assert_eq!(only_things("a tower of"), None);
        assert_eq!(only_things("a red cube on top of it").as_deref(), Some("build a red cube on top of it"));
        assert_eq!(only_things("2 blue towers next to me").as_deref(), Some("build 2 blue towers next to me"));
        assert_eq!(only_things("the red cube on top of it"), None);
        assert_eq!(wanted_things("a dome would look sick right here").as_deref(), Some("build a dome right here"));
        assert_eq!(wanted_things("some stairs going up would be nice").as_deref(), Some("build some stairs going up"));
        assert_eq!(wanted_things("i want a 3 x 3 x 3 glass cube").as_deref(), Some("build a 3 x 3 x 3 glass cube"));
        assert_eq!(wanted_things("i want to go home"), None);
        assert_eq!(wanted_things("i need a 3 tall 10 long brick wall").as_deref(), Some("build a 3 tall 10 long brick wall"));
    }

    #[test]
    fn questions_about_what_was_built() {
        assert!(is_what_built("what did we build today ?"));
        assert!(is_what_built("what have you built so far"));
        assert!(!is_what_built("what did you build the tower from"));
        assert!(!is_what_built("build a tower"));
    }

    #[test]
    fn small_words_are_peeled_from_both_ends() {
        assert_eq!(core("ok carry on").as_deref(), Some("carry on"));
        assert_eq!(core("hold on a sec").as_deref(), Some("hold on"));
        assert_eq!(core("what are you doing right now").as_deref(), Some("what are you doing"));
        assert_eq!(core("nice work thanks").as_deref(), Some("nice work"));
        assert_eq!(core("okay please stop now").as_deref(), Some("stop"));
        assert_eq!(core("come here"), None);
        // Never down to nothing.
        assert_eq!(core("thanks"), None);
        assert_eq!(core("ok ok"), Some("ok".into()));
    }

    #[test]
    fn lines_for_the_bot_are_told_from_chit_chat() {
        let exact = super::super::exact::ExactTable::default_table();
        for line in ["what are you doing right now", "hold on", "wait a minute", "stop it", "ok carry on", "nice work"] {
            assert!(is_for_the_bot(line, &exact), "{line}");
        }
        for line in ["i love pizza", "what a nice day", "you 're funny"] {
            assert!(!is_for_the_bot(line, &exact), "{line}");
        }
    }

    #[test]
    fn praise_is_told_from_commands_and_questions() {
        for line in ["awesome that looks great", "well done buddy", "you 're the best", "perfect exactly what i wanted", "nice job on the house"] {
            assert!(is_praise(line) || line.contains(" on "), "{line}");
        }
        for line in ["build a great tower", "what is the best tower", "good", "that is wrong"] {
            assert_eq!(is_praise(line), line == "good", "{line}");
        }
    }

    #[test]
    fn unusual_verbs_become_ones_the_parser_knows() {
        assert_eq!(plain_verbs("lay down a 20 by 20 floor of stone"), "build a 20 by 20 floor of stone");
        assert_eq!(plain_verbs("get rid of the blue cube"), "destroy the blue cube");
        // An intensifier before a size word goes; elsewhere it stays.
        assert_eq!(plain_verbs("i need a really tall tower"), "i need a tall tower");
        assert_eq!(plain_verbs("build a pretty big house"), "build a big house");
        assert_eq!(plain_verbs("build a pretty house"), "build a pretty house");
        assert_eq!(plain_verbs("build a wall after that knock it down"), "build a wall after that destroy it");
        assert_eq!(plain_verbs("go south for 20 blocks"), "go south 20 blocks");
        assert_eq!(plain_verbs("go south for me"), "go south for me");
        assert_eq!(plain_verbs("dig a hole then cover up the hole"), "dig a hole then fill the hole");
        assert_eq!(plain_verbs("i will remove nothing"), "i will remove nothing");
        assert_eq!(plain_verbs("head southwest about 10 blocks"), "go southwest 10 blocks");
        assert_eq!(plain_verbs("go up north like twenty blocks"), "go up north twenty blocks");
        assert_eq!(plain_verbs("what about 3 towers"), "what about 3 towers");
        assert_eq!(plain_verbs("walk around the house"), "walk around the house");
    }

    #[test]
    fn how_to_questions_are_not_commands() {
        assert!(is_how_to("how do i make a furnace"));
        assert!(is_how_to("hey how do you craft a bed"));
        assert!(is_how_to("what 's the recipe for a cake"));
        assert!(!is_how_to("make a furnace"));
        assert!(!is_how_to("how tall is the tower"));
        assert!(!is_how_to("show me how big it is"));
    }
}
