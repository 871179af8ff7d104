//! Step 1 of understanding: the chat line in the annotations' convention before anything reads
//! it — coordinates with axis names as three numbers, steps said after commas joined with
//! "then", "4x4x4" split into its numbers, and the lexicon's rewrites applied. Each is a rule
//! with a switch ([`super::rules`]).

use super::everyday;
use super::rules::{Rule, on};
use crate::lexicon::{Class, lexicon};
use crate::logical_form::normalize;

/// "x=10 y=5 z=-5", "x: 10, y: 5, z: -5": coordinates with their axis names, as the three numbers
/// the annotations write.
fn plain_coordinates(chat: &str) -> String {
    static XYZ: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bx\s*[=:]?\s*(-?\d+)\s*,?\s*y\s*[=:]?\s*(-?\d+)\s*,?\s*z\s*[=:]?\s*(-?\d+)").expect("a valid pattern")
    });
    XYZ.replace_all(chat, "$1 $2 $3").into_owned()
}

/// "4x4x4" and "10×3" as separate words, the way the measures and the parser read them.
fn split_times(normalized: &str) -> String {
    let times = |w: &str| {
        let parts: Vec<&str> = w.split(['x', '×']).collect();
        parts.len() >= 2 && parts.iter().all(|p| !p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit()))
    };
    normalized
        .split_whitespace()
        .map(|w| if times(w) { w.split(['x', '×']).collect::<Vec<_>>().join(" x ") } else { w.to_string() })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Steps said as sentences or after commas ("spawn a cow, build a tower", "dig here. then come
/// back") joined with "then", which survives normalizing (punctuation does not).
fn steps_by_punctuation(chat: &str) -> String {
    static STEP: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        let verbs = crate::lexicon::lexicon().words(crate::lexicon::Class::StepVerb).iter().map(|w| regex::escape(w)).collect::<Vec<_>>().join("|");
        // After a comma, "a"/"an"/"another" starts a step too, borrowing the verb before ("build a
        // blue cube here, a red one on top of it"); "a red, blue and green tower" stays one.
        let articles = crate::lexicon::lexicon().words(crate::lexicon::Class::Indefinite).iter().map(|w| regex::escape(w)).collect::<Vec<_>>().join("|");
        // "build a pink cube, its name is bubblegum": a naming after a comma is a step too.
        let named = crate::lexicon::lexicon().words(crate::lexicon::Class::NameIs).iter().filter(|w| w.starts_with("it")).map(|w| regex::escape(w).replace(" '", r"\s*'").replace(' ', r"\s+")).collect::<Vec<_>>().join("|");
        regex::Regex::new(&format!(r"(?i)\s*(?:[,;.!]\s+(?:and\s+)?(?:(?:then|now|also)\s+)?({verbs})|[,;]\s+(?:and\s+)?(?:then\s+)?({articles}|another|{named}))\b")).expect("a valid pattern")
    });
    // Only after a step of its own: "hey bot, build a cube" is one step.
    let mut out = String::new();
    let mut last = 0;
    // Where the step before this one starts: its verb may be the previous match's.
    let mut step_start = 0;
    for m in STEP.captures_iter(chat) {
        let (Some(whole), Some(verb)) = (m.get(0), m.get(1).or_else(|| m.get(2))) else { continue };
        let before = &chat[last..whole.start()];
        let lx = crate::lexicon::lexicon();
        // A step before (with a verb of its own, or borrowed: "…, then a blue cube on top of
        // it, then a green one") makes this one a step too.
        // "that thing is called mossy, now make it purple": a naming is a step too.
        let verb_or_naming = |w: &str| lx.is(crate::lexicon::Class::StepVerb, w) || lx.is(crate::lexicon::Class::NamingVerb, w);
        let has_verb = step_start > 0 || chat[..whole.start()].split(|c: char| !c.is_alphanumeric()).any(|w| verb_or_naming(&w.to_lowercase()));
        // "the blue one is gus, paint gus green": a thing given a name is a step too.
        let clause: Vec<String> = chat[..whole.start()].split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
        let opens_with_thing = clause.first().is_some_and(|w| lx.is(crate::lexicon::Class::Determiner, w) || lx.is(crate::lexicon::Class::Pointing, w));
        let has_verb = has_verb || opens_with_thing && lx.any_in(crate::lexicon::Class::DescribedIs, &clause);
        // "call this '; drop table memories": a name runs to the end of the line, whatever it says.
        let naming = chat[step_start..whole.start()].split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).is_some_and(|w| lx.is(crate::lexicon::Class::CallVerb, &w.to_lowercase()));
        if naming {
            continue;
        }
        out.push_str(before);
        if has_verb {
            out.push_str(" then ");
            out.push_str(verb.as_str());
        } else {
            // Only the mark goes: a "then" said after it stays ("head north, then stop …").
            out.push(' ');
            out.push_str(whole.as_str().trim_start_matches(|c: char| c.is_whitespace() || ",;.!".contains(c)));
        }
        last = whole.end();
        if has_verb {
            step_start = verb.start();
        }
    }
    out.push_str(&chat[last..]);
    out
}

/// "spawn six sheep around here please, my farm needs them": after a "please" and a mark, words
/// with no verb of a step are the player's remark, not part of the request; they go.
fn remark_after_please(chat: &str) -> String {
    static PLEASE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        let polite = lexicon().words(Class::Politeness).iter().map(|w| regex::escape(w)).collect::<Vec<_>>().join("|");
        regex::Regex::new(&format!(r"(?i)\b(?:{polite})\s*[,;.!]+\s+([^?]+)$")).expect("a valid pattern")
    });
    let Some(remark) = PLEASE.captures(chat).and_then(|c| c.get(1)) else { return chat.to_string() };
    let lx = lexicon();
    let words: Vec<String> = remark.as_str().split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    // "height 2, length 8" after a "pls" is more of the request: numbers, what describes a
    // thing, a place ("next to the tower", "north of here") and a naming ("it's called bob")
    // are never a remark.
    let request = words.iter().enumerate().any(|(i, w)| {
        lx.is(Class::StepVerb, w)
            || lx.is(Class::Connector, w)
            || lx.is(Class::NamingVerb, w)
            || lx.describes(w)
            || lx.dimension(w).is_some()
            || lx.compass(w).is_some()
            || lx.number(&[w.as_str()], 0).is_some()
            || lx.relation_at(&words, i).is_some()
            || lx.phrase_at(Class::NameIs, &words, i).is_some()
    });
    if request || words.len() < 2 { chat.to_string() } else { chat[..remark.start()].to_string() }
}

/// The chat normalized: coordinates with axis names and steps after punctuation first (they need
/// the marks), then "4x4x4" split.
pub(super) fn normalized(chat: &str) -> String {
    // An ellipsis typed between two words ("a red wall...like 10 long") is a pause between them,
    // not part of either.
    // "spawn...a...sheep": every pause, one after another.
    static DOTS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| regex::Regex::new(r"(\w)\.{2,}").expect("a valid pattern"));
    let mut line = DOTS.replace_all(chat, "$1 ").into_owned();
    // "a house (a small one) please": an aside in brackets is said between commas.
    if line.contains('(') {
        line = line.replace('(', ", ").replace(')', ",");
    }
    // "!!1!": a shout typed with the shift key let go, no number.
    static SHOUT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| regex::Regex::new(r"!+1[1!]*").expect("a valid pattern"));
    line = SHOUT.replace_all(&line, "!").into_owned();
    line = hyphens_between_words(&line);
    if on(Rule::AxisNames) {
        line = plain_coordinates(&line);
    }
    if on(Rule::StepPunctuation) {
        line = remark_after_please(&line);
        line = steps_by_punctuation(&line);
    }
    let line = normalize(&line);
    let line = if on(Rule::ChangeOfMind) { after_change_of_mind(&line) } else { line };
    if on(Rule::SplitTimes) { split_times(&line) } else { line }
}

/// "hey-build a glass wall-10 long": a hyphen typed for a space. It joins two words the lexicon
/// knows, or a word and a number; a name's hyphen ("zorp-1", "mega-tower" where "mega" is no
/// word of ours) and a minus sign ("5 -30") stay.
fn hyphens_between_words(chat: &str) -> String {
    static HYPHEN: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"([A-Za-z]+)-([A-Za-z]+|\d+)\b").expect("a valid pattern"));
    let lx = lexicon();
    let known = |w: &str| lx.knows(&w.to_lowercase()) || lx.verb(&w.to_lowercase()).is_some() || crate::schematics::is_known_shape(&w.to_lowercase());
    HYPHEN
        .replace_all(chat, |c: &regex::Captures| {
            let (a, b) = (&c[1], &c[2]);
            let number = b.bytes().all(|x| x.is_ascii_digit());
            if known(a) && (number || known(b)) { format!("{a} {b}") } else { c[0].to_string() }
        })
        .into_owned()
}

/// "turn the tower into stone bricks... actually no, make it sandstone": the player changed
/// their mind in the line (`[change_of_mind]`); what follows the last change, less the step
/// word the comma became, is the request.
fn after_change_of_mind(line: &str) -> String {
    let lx = lexicon();
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(mut k) = (1..words.len()).rev().find_map(|i| lx.phrase_at(Class::ChangeOfMind, &words, i).map(|n| i + n).filter(|&e| e < words.len())) else {
        return line.to_string();
    };
    if let Some(n) = lx.phrase_at(Class::Connector, &words, k).filter(|n| k + n < words.len()) {
        k += n;
    }
    let request = lx.verb(words[k]).is_some() || lx.is(Class::CommandStart, words[k]);
    if request { words[k..].join(" ") } else { line.to_string() }
}

/// "on top of that big blue one": a pointing word before a thing's description is "the". The
/// parser saw "that" mostly alone ("on top of that"), pointing at what was just talked about,
/// and reads the description after it poorly (0.44 for "that blue one", 0.92 for "the blue
/// one"). "that cube" and "that" alone stay: they may mean the thing looked at.
fn pointing_at_a_description(text: &str) -> String {
    let lx = lexicon();
    let words: Vec<&str> = text.split_whitespace().collect();
    let noun = |w: &str| lx.is(Class::GenericThing, w) && !lx.is(Class::Pointing, w) || crate::schematics::is_known_shape(w);
    let described = |i: usize| {
        let j = (i + 1..words.len()).find(|&j| !lx.describes(words[j])).unwrap_or(words.len());
        j > i + 1 && words.get(j).is_some_and(|w| noun(w))
    };
    let out: Vec<&str> = words.iter().enumerate().map(|(i, w)| if matches!(lx.phrase_at(Class::Pointing, &words, i), Some(1)) && *w != "it" && described(i) { "the" } else { w }).collect();
    out.join(" ")
}

/// "the pyramid you just made" is "the last pyramid": a thing said with the words that the bot
/// made it (`[just_made]`) is the latest such thing. The parser rarely saw the words after the
/// thing, and read them as part of its name.
fn just_made(text: &str) -> String {
    let lx = lexicon();
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((at, n)) = (1..words.len()).find_map(|i| lx.phrase_at(Class::JustMade, &words, i).map(|n| (i, n))) else { return text.to_string() };
    let rest = &words[at + n..];
    // "destroy what you just built": the last thing.
    if at >= 2 && words[at - 1] == "what" && lx.verb(words[at - 2]).is_some() {
        // lexicon: the words written for the parser (what it reads best), not words read from chat
        return [&words[..at - 1], &["the", "last", "thing"][..], rest].concat().join(" ");
    }
    // The thing's first word: "the" or a pointing word up to four words before.
    let Some(the) = (at.saturating_sub(4)..at).rev().find(|&k| words[k] == "the" || matches!(lx.phrase_at(Class::Pointing, &words, k), Some(1)) && words[k] != "it") else {
        return text.to_string();
    };
    // "what was the last thing you built" is a question the lexicon knows as it is.
    // So is "the first thing you built", and "the biggest tower you made" ranks another way.
    let ranked = |w: &str| lx.is(Class::Latest, w) || lx.is(Class::Earliest, w) || lx.value(crate::lexicon::Values::Ordinal, w).is_some() || lx.meaning(crate::lexicon::Group::Superlative, w).is_some();
    // "destroy the towers you built" is all of them, not the last one; "both of
    // the things you just made" counts the last ones.
    let counted = (the.saturating_sub(3)..the).any(|k| lx.number(&words, k).is_some());
    let plural = lx.singular(words[at - 1]).is_some() && !counted;
    if at - the < 2 || (the + 1..at).any(|k| ranked(words[k])) {
        return text.to_string();
    }
    if plural {
        // lexicon: the words written for the parser (what it reads best), not words read from chat
        return [&words[..the], &["all"][..], &words[the..at], rest].concat().join(" ");
    }
    [&words[..the], &["the", "last"][..], &words[the + 1..at], rest].concat().join(" ")
}

/// "knock greg down" is "knock down greg": the particle of a verb of two words
/// (`[split_verbs]`) said after the thing moves back beside its verb, where the rewrites know
/// the pair ("knock down" is "destroy"). The thing is up to four words, and the particle ends
/// the step.
fn particle_back(text: &str) -> String {
    let lx = lexicon();
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let ends_step = |k: usize, w: &[&str]| k == w.len() || w[k] == "and" || lx.phrase_at(Class::Connector, w, k).is_some() || lx.phrase_at(Class::Closing, w, k).is_some();
    for i in 0..words.len() {
        let starts = i == 0 || words[i - 1] == "and" || lx.is(Class::Connector, words[i - 1]) || lx.is(Class::Opening, words[i - 1]);
        let Some(particle) = starts.then(|| lx.words(Class::SplitVerb).iter().find_map(|p| p.split_once(' ').filter(|(v, _)| *v == words[i]).map(|(_, p)| p))).flatten() else {
            continue;
        };
        let Some(j) = (i + 2..=(i + 5).min(words.len().saturating_sub(1))).find(|&j| words[j] == particle && ends_step(j + 1, &words)) else { continue };
        if words[i + 1] == particle || words[i + 1..j].iter().any(|w| lx.verb(w).is_some()) {
            continue;
        }
        let p = words.remove(j);
        words.insert(i + 1, p);
    }
    words.join(" ")
}

/// "a wall beside the red tower, on the side facing me": a relation that names no side
/// (`[any_side]`) with the side toward the speaker said after the thing (`[side_facing_me]`) is
/// "in front of" the thing, the side the speaker sees.
fn side_facing_me(text: &str) -> String {
    let lx = lexicon();
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((at, n)) = (1..words.len()).find_map(|i| lx.phrase_at(Class::SideFacingMe, &words, i).map(|n| (i, n))) else { return text.to_string() };
    // The relation is in this step (no connector or verb between), and a thing follows it
    // ("by the tower", not the "by" of "5 by 3").
    let same_step = (0..at).rev().take_while(|&k| words[k] != "and" && lx.phrase_at(Class::Connector, &words, k).is_none() && lx.verb(words[k]).is_none());
    let thing_at = |k: usize| words.get(k).is_some_and(|w| *w == "the" || lx.phrase_at(Class::Pointing, &words, k).is_some());
    let Some((rel, m)) = same_step.filter_map(|k| lx.phrase_at(Class::AnySide, &words, k).map(|m| (k, m))).find(|&(k, m)| thing_at(k + m)) else { return text.to_string() };
    // lexicon: the words written for the parser (what it reads best), not words read from chat
    [&words[..rel], &["in", "front", "of"][..], &words[rel + m..at], &words[at + n..]].concat().join(" ")
}

/// "make it tall, like 15 blocks": a measure word said before its number (after the rewrites
/// dropped the "like") goes after it, where the measures read it ("make it 15 blocks tall").
/// Only when the number has no measure word of its own ("10 long and 3 high" stays).
fn measure_word_first(text: &str) -> String {
    let lx = lexicon();
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let mut i = 0;
    while i + 1 < words.len() {
        let number = lx.number(&words, i + 1).map(|(_, n)| n);
        // A noun ("height 2") comes before its number by right (`[measure_nouns]`).
        let adjective = lx.dimension(words[i]).is_some() && !lx.is(Class::MeasureNoun, words[i]);
        if let (true, Some(n)) = (adjective, number) {
            let mut end = i + 1 + n;
            while words.get(end).is_some_and(|w| lx.unit(w).is_some()) {
                end += 1;
            }
            let own = words.get(end).is_some_and(|w| lx.dimension(w).is_some() || lx.is(Class::By, w));
            if !own && (i == 0 || lx.dimension(words[i - 1]).is_none()) {
                let dim = words.remove(i);
                words.insert(end - 1, dim);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    words.join(" ")
}

/// "build a 4x4x4 cube purple": a colour said right after the shape of a new thing (one "a"
/// or a count introduces) is its colour; it goes before the shape, where the parser reads it.
/// A thing already there ("make the cube purple") is a painting, and keeps its words.
fn colour_after_shape(text: &str) -> String {
    let lx = lexicon();
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let Some(verb) = words.iter().position(|w| lx.verb(w).is_some()) else { return text.to_string() };
    if lx.verb(words[verb]) != Some(crate::logical_form::ActionType::Build) {
        return text.to_string();
    }
    let Some(shape) = (verb + 1..words.len().saturating_sub(1)).find(|&i| lx.shape(&lx.lemma(words[i])).is_some()) else { return text.to_string() };
    let new_thing = (verb + 1..shape).any(|k| lx.is(Class::Indefinite, words[k]) || lx.number(&words, k).is_some());
    let coloured = (verb + 1..shape).any(|k| lx.colour(words[k]).is_some());
    let after = words.get(shape + 2).copied();
    // "a cube red wool" or "a cube green and blue": more than one colour word, left as said.
    let alone = after.is_none_or(|w| lx.colour(w).is_none() && lx.shape(w).is_none() && lx.material(w).is_none());
    if new_thing && !coloured && lx.colour(words[shape + 1]).is_some() && alone {
        let colour = words.remove(shape + 1);
        words.insert(shape, colour);
    }
    words.join(" ")
}

/// "undo the wall but leave the cube", "destroy the tower but keep the house": after an undo,
/// a destroy or a painting, a clause at the line's end that only spares another thing
/// (`[spare]`, then a thing) says nothing to do; it goes.
fn spares_the_rest(text: &str) -> String {
    use crate::logical_form::ActionType::{Destroy, Paint, Undo};
    let lx = lexicon();
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(verb) = words.iter().position(|w| lx.verb(w).is_some()) else { return text.to_string() };
    if !matches!(lx.verb(words[verb]), Some(Undo | Destroy | Paint)) {
        return text.to_string();
    }
    let spared = (verb + 2..words.len()).find_map(|i| lx.phrase_at(Class::Spare, &words, i).map(|n| (i, n)));
    let Some((at, n)) = spared else { return text.to_string() };
    // Only a thing follows: no verb of another step.
    let thing = words.get(at + n).is_some_and(|w| lx.is(Class::Determiner, w) || lx.is(Class::Pointing, w) || lx.is(Class::Possessive, w));
    if !thing || words[at + n..].iter().any(|w| lx.verb(w).is_some()) {
        return text.to_string();
    }
    words[..at].join(" ")
}

/// The lexicon's rewrites applied ([`everyday::plain_verbs`]), and a name given in a build said
/// as a naming step of its own ([`super::naming::named_when_built`]).
pub(super) fn rewritten(text: &str) -> String {
    // In this order: the rewrites need a particle back beside its verb, and the later steps
    // read the plain verbs.
    const REWRITES: [fn(&str) -> String; 8] =
        [particle_back, side_facing_me, everyday::plain_verbs, colour_after_shape, measure_word_first, pointing_at_a_description, just_made, spares_the_rest];
    let text = if on(Rule::Rewrites) { REWRITES.iter().fold(text.to_string(), |t, rewrite| rewrite(&t)) } else { text.to_string() };
    if on(Rule::Naming) { super::naming::named_when_built(&text).unwrap_or(text) } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_colour_after_a_new_things_shape_goes_before_it() {
        assert_eq!(colour_after_shape("build a 4 x 4 x 4 cube purple next to me"), "build a 4 x 4 x 4 purple cube next to me");
        assert_eq!(colour_after_shape("build 2 towers red"), "build 2 red towers");
        // A thing already there is painted; a colour said before stays.
        assert_eq!(colour_after_shape("make the cube purple"), "make the cube purple");
        assert_eq!(colour_after_shape("build a red cube blue"), "build a red cube blue");
    }

    #[test]
    fn sparing_another_thing_says_nothing_to_do() {
        assert_eq!(spares_the_rest("undo the wall but leave the cube"), "undo the wall");
        assert_eq!(spares_the_rest("destroy the red tower but keep the blue one"), "destroy the red tower");
        // Another step, or no undo, destroy or painting: kept.
        assert_eq!(spares_the_rest("destroy the tower but leave the cube and build a wall"), "destroy the tower but leave the cube and build a wall");
        assert_eq!(spares_the_rest("build a wall and leave the door open"), "build a wall and leave the door open");
    }

    #[test]
    fn a_change_of_mind_leaves_what_follows() {
        assert_eq!(normalized("turn the tower into stone bricks... actually no, make it sandstone"), "make it sandstone");
        assert_eq!(normalized("build a red cube, scratch that, dig a hole"), "dig a hole");
        let half = normalized("build a red cube, actually no, a blue one");
        assert!(half.starts_with("build a red cube"), "no request follows: left to the dialogue: {half}");
    }

    #[test]
    fn a_remark_after_please_is_no_part_of_the_request() {
        assert_eq!(remark_after_please("spawn six sheep around here please, my farm needs them").trim(), "spawn six sheep around here please,");
        assert_eq!(remark_after_please("build a wall please, then dig a hole"), "build a wall please, then dig a hole");
        assert_eq!(remark_after_please("thanks, build a wall"), "thanks, build a wall");
        assert_eq!(remark_after_please("brick wall pls, height 2, length 8"), "brick wall pls, height 2, length 8");
        // A place or a naming after the "please" is the request's own.
        assert_eq!(remark_after_please("build a wall please, next to the tower"), "build a wall please, next to the tower");
        assert_eq!(remark_after_please("build a wall please, north of here"), "build a wall please, north of here");
        assert_eq!(remark_after_please("build a tower please, it's called bob"), "build a tower please, it's called bob");
    }

    #[test]
    fn a_measure_word_before_its_number_goes_after_it() {
        assert_eq!(measure_word_first("make it tall 15 blocks"), "make it 15 blocks tall");
        assert_eq!(measure_word_first("a wall long 10 and high 3"), "a wall 10 long and 3 high");
        assert_eq!(measure_word_first("a wall 10 long and 3 high"), "a wall 10 long and 3 high");
        assert_eq!(measure_word_first("height 2 length 8"), "height 2 length 8");
        assert_eq!(measure_word_first("a cube wide 3"), "a cube 3 wide");
    }

    #[test]
    fn the_side_facing_the_speaker_is_the_front() {
        assert_eq!(side_facing_me("build a small stone wall right beside that red tower on the side facing me"), "build a small stone wall right in front of that red tower");
        assert_eq!(side_facing_me("put a torch next to the door on my side"), "put a torch in front of the door");
        assert_eq!(side_facing_me("build a wall on my side"), "build a wall on my side");
    }

    #[test]
    fn a_particle_after_the_thing_goes_back_to_its_verb() {
        assert_eq!(particle_back("knock greg down"), "knock down greg");
        assert_eq!(particle_back("tear the big red tower down please"), "tear down the big red tower please");
        assert_eq!(particle_back("knock down greg"), "knock down greg");
        assert_eq!(particle_back("build a wall and knock it down"), "build a wall and knock down it");
        assert_eq!(particle_back("go down"), "go down");
    }

    #[test]
    fn a_thing_the_bot_just_made_is_the_last_one() {
        assert_eq!(just_made("how many blocks are in that pyramid you just made"), "how many blocks are in the last pyramid");
        assert_eq!(just_made("destroy the red tower that you built"), "destroy the last red tower");
        assert_eq!(just_made("destroy what you just built"), "destroy the last thing");
        assert_eq!(just_made("what was the last thing you built"), "what was the last thing you built");
        assert_eq!(just_made("what was the first thing you built"), "what was the first thing you built");
        assert_eq!(just_made("what did you build"), "what did you build");
        assert_eq!(just_made("show me what you made"), "show me what you made");
        // A plural is every such thing.
        assert_eq!(just_made("destroy the towers you built"), "destroy all the towers");
        assert_eq!(just_made("undo both of the things you just made"), "undo both of the last things");
    }

    #[test]
    fn a_pointing_word_before_a_description_is_the() {
        assert_eq!(pointing_at_a_description("put a glass cube on top of that big blue one"), "put a glass cube on top of the big blue one");
        assert_eq!(pointing_at_a_description("paint those red towers green"), "paint the red towers green");
        for same in ["put a cube on top of that", "destroy that cube", "make that blue", "call it big bob"] {
            assert_eq!(pointing_at_a_description(same), same);
        }
    }

    #[test]
    fn a_hyphen_between_known_words_is_a_space() {
        assert_eq!(hyphens_between_words("hey-build a glass wall-10 long"), "hey build a glass wall 10 long");
        assert_eq!(hyphens_between_words("a lime-green dome at 30 5 -30"), "a lime green dome at 30 5 -30");
        assert_eq!(hyphens_between_words("call it zorp-1"), "call it zorp-1");
    }

    #[test]
    fn a_shout_is_no_number() {
        assert_eq!(normalized("give me 5 emeralds!!1!"), normalized("give me 5 emeralds!"));
        assert!(normalized("build 1 tower!").contains('1'));
    }

    #[test]
    fn punctuation_between_steps_becomes_then() {
        assert_eq!(steps_by_punctuation("spawn a cow, build a tower and then come to me"), "spawn a cow then build a tower and then come to me");
        assert_eq!(steps_by_punctuation("Dig a hole. Then come back!"), "Dig a hole then come back!");
        assert_eq!(steps_by_punctuation("build a red, blue and green tower"), "build a red, blue and green tower");
        assert_eq!(
            steps_by_punctuation("build a blue cube here, a red one on top of it and a green one on top of that"),
            "build a blue cube here then a red one on top of it and a green one on top of that"
        );
        assert_eq!(
            steps_by_punctuation("build a red cube here, then a blue cube on top of it, then a green cube on top of that"),
            "build a red cube here then a blue cube on top of it then a green cube on top of that"
        );
        assert_eq!(steps_by_punctuation("go to 41.5 64 3"), "go to 41.5 64 3");
        assert_eq!(steps_by_punctuation("hey bot, build a blue cube"), "hey bot build a blue cube");
        assert_eq!(steps_by_punctuation("build a pink cube, its name is bubblegum"), "build a pink cube then its name is bubblegum");
        assert_eq!(
            steps_by_punctuation("dig a hole at 8 4 8, fill it with water, then build a glass wall next to it"),
            "dig a hole at 8 4 8 then fill it with water then build a glass wall next to it"
        );
    }

    #[test]
    fn coordinates_with_axis_names_are_plain_numbers() {
        assert_eq!(plain_coordinates("build a red cube at x=10 y=5 z=-5"), "build a red cube at 10 5 -5");
        assert_eq!(plain_coordinates("go to X: 3, Y: 64, Z: -2"), "go to 3 64 -2");
        assert_eq!(plain_coordinates("a 4 x 4 x 4 cube"), "a 4 x 4 x 4 cube");
    }

    #[test]
    fn measures_written_together_are_split() {
        assert_eq!(split_times("a 4x4x4 cube"), "a 4 x 4 x 4 cube");
        assert_eq!(split_times("a 10×3 wall"), "a 10 x 3 wall");
        assert_eq!(split_times("an xbox x 3"), "an xbox x 3");
    }
}
