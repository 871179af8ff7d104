//! Naming lines the parser often misses: "name this tower bob", "let's call the red tower the
//! lighthouse", "that's the tower of doom", "remember this place as home". The name is
//! everything after the thing named, so a name of several words stays whole. (Whether "this"
//! is a thing or the spot the player stands on is the interpreter's call: "this place", "this
//! spot" name a place.)

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{
    Coreference, DialogueType, Filters, LogicalForm, MemoryData, MemoryType, Predicate, Span, Triple, Upsert, WhereClause, WhereItem,
};
use crate::world::blocks::canonical_colour;

/// An article or "as" before a name ("call it *the* castle", "remember this *as* home").
fn is_name_lead(w: &str) -> bool {
    lexicon().is(Class::Article, w) || w == "as"
}

/// The form for a line that names a thing, if it is one. The words are the lexicon's:
/// `[naming_openings]`, `[pointing]`, `[call_verbs]`, `[remember_verbs]`, `[place_words]`.
pub fn read(text: &str) -> Option<LogicalForm> {
    let lx = lexicon();
    let w: Vec<&str> = text.split_whitespace().collect();
    let at = |k: usize| w.get(k).copied().unwrap_or("");
    let mut i = 0;
    while i < w.len() && lx.is(Class::NamingOpening, w[i]) {
        i += 1;
    }
    let pointing = lx.is(Class::Pointing, at(i + 1));
    let (filters, name_start) = if let Some(n) = lx.phrase_at(Class::RenameWords, &w, i) {
        // "rename rocky to boulder", "rename it as bob", "rename the red cube to ruby": the thing
        // runs to "to" or "as", the new name after it.
        let to = (i + n..w.len()).find(|k| matches!(w[*k], "to" | "as"))?;
        let thing = i + n..to;
        if thing.is_empty() {
            return None;
        }
        let one_pointing = thing.len() == 1 && lx.is(Class::Pointing, w[thing.start]);
        let start = thing.start + usize::from(lx.is(Class::Article, w[thing.start]) && thing.len() > 1);
        (if one_pointing { this() } else { described(&w, start..to) }, to + 1)
    } else if i == 0 && lx.is(Class::Pointing, at(i)) && matches!(at(i + 1), "'s" | "is") {
        // "that's the tower of doom", "this is my house"
        (this(), i + 2)
    } else if let Some(is) = said_is(&w, i) {
        // "that glass thing is the window", "this tower is called bob": the one pointed at; when
        // the words between name a shape ("that blue ball"), the one they describe.
        let name_at = is + 1 + usize::from(lx.is(Class::NamingVerb, at(is + 1)));
        let shape = crate::schematics::is_known_shape(w[is - 1]) && !lx.is(Class::GenericThing, w[is - 1]) || lx.is(Class::Article, w[i]) && coloured_one(&w[i + 1..is]);
        (if shape { Filters { contains_coreference: Some(Coreference::Yes), ..described(&w, i + 1..is) } } else { this() }, name_at)
    } else if let Some(n) = lx.phrase_at(Class::NameIs, &w, i).filter(|_| lx.is(Class::Pointing, at(i)) || at(i) == "its") {
        // "its name is skreeb", "it 's called bob": the one pointed at.
        (this(), i + n)
    } else if let Some((thing, name_at)) = the_thing_is(&w, i) {
        // "the red cube's name is fred", "the green tower, its name is spike"
        (described(&w, thing), name_at)
    } else if lx.is(Class::RememberVerb, at(i)) && pointing && lx.is(Class::PlaceWord, at(i + 2)) {
        // "remember this place as home", "mark this spot as base", "save this location as camp"
        (this(), i + 3)
    } else if lx.is(Class::CallVerb, at(i)) && pointing {
        // "name this tower bob", "name this one casa": a shape word (or "one") after "this" is
        // the thing, not the name.
        let thing = |x: &str| crate::schematics::is_known_shape(x) || lx.is(Class::GenericThing, x) || lx.is(Class::Container, x);
        let skip = usize::from(w.len() > i + 3 && thing(w[i + 2]));
        (this(), i + 2 + skip)
    } else if lx.is(Class::CallVerb, at(i)) && at(i + 1) == "the" {
        // "call the red tower the lighthouse": the thing runs to the next "the"/"as"; with
        // neither, to its shape word ("call the blue tower lighthouse").
        let (end, lead) = match (i + 2..w.len()).find(|k| is_name_lead(w[*k])) {
            Some(end) => (end, 1),
            // "call the blue one frosty": a word for no particular thing ends it as well.
            None => ((i + 2..w.len()).find(|k| crate::schematics::is_known_shape(w[*k]) || matches!(w[*k], "one" | "thing"))? + 1, 0),
        };
        let thing = i + 2..end;
        if thing.is_empty() || end + lead >= w.len() {
            return None;
        }
        (described(&w, thing), end)
    } else {
        return None;
    };
    let mut start = name_start;
    while start < w.len() && is_name_lead(w[start]) {
        start += 1;
    }
    // "that is my house": the parser reads whose it is, which this rule does not.
    if lx.is(Class::Possessive, at(start)) {
        return None;
    }
    if start >= w.len() || w.len() - start > 5 || w[start..].iter().any(|x| lx.is(Class::NameBreaker, x)) {
        return None;
    }
    let tag = Triple::new(Predicate::HasTag, Span::new(start, w.len() - 1));
    let upsert = Upsert { memory_data: MemoryData { memory_type: MemoryType::Triple, triples: Some(vec![tag]), reward_value: None } };
    let form = LogicalForm { filters: Some(filters), upsert: Some(upsert), ..LogicalForm::new(DialogueType::PutMemory) };
    super::checked(text, form)
}

/// "build a tower named rex": a thing built and named in one step, said as the two steps the
/// rest of understanding reads ("build a tower and call it rex"). Only after a shape in a step
/// whose verb builds; the name runs to the step's end ("… named rex then go to it").
pub fn named_when_built(text: &str) -> Option<String> {
    let lx = lexicon();
    let w: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    let steps = super::sequence::steps(&w);
    for step in &steps {
        let builds = w[step.clone()].iter().find(|x| !lx.is(Class::Opening, x)).is_some_and(|v| lx.verb(v) == Some(crate::logical_form::ActionType::Build));
        let named = (step.start + 2..step.end.saturating_sub(1))
            .filter(|&k| crate::schematics::is_known_shape(&w[k - 1]))
            .find_map(|k| lx.text_at(crate::lexicon::Texts::Named, &w[..step.end], k).filter(|(_, n)| k + n < step.end).map(|(to, n)| (k, to, n)));
        if let (true, Some((k, to, n))) = (builds, named) {
            let mut out = w[..k].to_vec();
            out.extend(to.split(' ').map(String::from));
            out.extend(w[k + n..].iter().cloned());
            return Some(out.join(" "));
        }
    }
    None
}

/// Where "is" stands in "that glass thing is the window" / "this tower is called bob" / "that
/// blue ball is blobby" (from `i`): a pointing word, one to three words of what it is, "is",
/// then an article or a naming verb, or one last word the lexicon does not know after a shape
/// ("blobby") — "that tower is tall" and "that house is ugly" say how it is, not what it is
/// called (`[judgements]`). After "the" only the new word counts ("the yellow ball is sunny").
fn said_is(w: &[&str], i: usize) -> Option<usize> {
    let lx = lexicon();
    // "the yellow ball is sunny": with "the", only a new word after a shape is a name.
    let pointing = lx.is(Class::Pointing, w.get(i)?);
    let the = lx.is(Class::Article, w[i]) && !lx.is(Class::Indefinite, w[i]);
    if !pointing && !the {
        return None;
    }
    let is = (i + 2..=i + 4).find(|k| w.get(*k) == Some(&"is"))?;
    let said = &w[i + 1..is];
    let plain = |x: &&str| !lx.is(Class::NameBreaker, x) && !lx.is(Class::Possessive, x) && !lx.is(Class::Article, x);
    let next = w.get(is + 1)?;
    let led = lx.is(Class::Article, next) || lx.is(Class::NamingVerb, next);
    let new_word = is + 2 == w.len()
        && (said.last().is_some_and(|s| crate::schematics::is_known_shape(s)) || coloured_one(said))
        && !lx.knows(next)
        && !lx.is(Class::Judgement, next)
        && next.chars().all(|c| c.is_alphanumeric() || c == '_');
    (said.iter().all(plain) && (led && pointing || new_word)).then_some(is)
}

/// "the blue one", "that gold thing": a word for no particular thing after its colour or
/// material.
fn coloured_one(said: &[&str]) -> bool {
    let lx = lexicon();
    let (Some(last), rest) = (said.last(), &said[..said.len().saturating_sub(1)]) else { return false };
    lx.is(Class::GenericThing, last) && rest.iter().any(|x| canonical_colour(x).is_some() || lx.material(x).is_some())
}

/// "the red cube 's name is fred", "that tower 's name is spire", "my house is called home"
/// (from `i`): an article, a pointing or possessive word, one to three words ending in a shape,
/// then the words of `[name_is]`; the thing's words and where the name starts.
fn the_thing_is(w: &[&str], i: usize) -> Option<(std::ops::Range<usize>, usize)> {
    let lx = lexicon();
    let first = w.get(i)?;
    if ![Class::Article, Class::Pointing, Class::Possessive].into_iter().any(|c| lx.is(c, first)) {
        return None;
    }
    let (end, n) = (i + 2..=i + 4).find_map(|k| lx.phrase_at(Class::NameIs, w, k).map(|n| (k, n)))?;
    let shape = crate::schematics::is_known_shape(w[end - 1]) && !lx.is(Class::GenericThing, w[end - 1]);
    // "the gold thing": a thing said by its colour or material.
    let coloured = lx.is(Class::GenericThing, w[end - 1]) && w[i + 1..end - 1].iter().any(|x| canonical_colour(x).is_some() || lx.material(x).is_some());
    (shape || coloured).then_some((i + 1..end, end + n))
}

/// The thing `w[thing]` describes: its last word is its name, its colour and material words
/// its colours and block types.
fn described(w: &[&str], thing: std::ops::Range<usize>) -> Filters {
    let lx = lexicon();
    let mut triples: Vec<WhereItem> = thing
        .clone()
        .filter_map(|k| match () {
            _ if canonical_colour(w[k]).is_some() => Some(Triple::new(Predicate::HasColour, Span::word(k))),
            _ if lx.material(w[k]).is_some() => Some(Triple::new(Predicate::HasBlockType, Span::word(k))),
            _ => None,
        })
        .map(WhereItem::Triple)
        .collect();
    triples.push(WhereItem::Triple(Triple::new(Predicate::HasName, Span::word(thing.end - 1))));
    Filters { where_clause: Some(WhereClause::And(triples)), ..Filters::default() }
}

/// What "this", "it" or "that" points at.
fn this() -> Filters {
    Filters { contains_coreference: Some(Coreference::Yes), ..Filters::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rename_names_the_thing_before_to_and_the_new_name_after() {
        let lf = read("rename rocky to boulder").expect("a rename");
        let json = lf.to_json_value().to_string();
        assert!(json.contains(r#""filters":{"where_clause":{"AND":[{"obj_text":[0,[1,1]],"pred_text":"has_name"}]}}"#), "{json}");
        assert_eq!(tag("rename rocky to boulder").as_deref(), Some("boulder"));
        assert_eq!(tag("rename it to rex").as_deref(), Some("rex"));
    }

    #[test]
    fn a_thing_named_without_the_or_as_ends_at_its_shape() {
        assert_eq!(tag("call the blue tower lighthouse").as_deref(), Some("lighthouse"));
        assert_eq!(tag("call the red cube big red").as_deref(), Some("big red"));
    }

    fn tag(text: &str) -> Option<String> {
        let lf = read(text)?;
        let v = lf.to_json_value();
        let span = v.pointer("/upsert/memory_data/triples/0/obj_text/1")?.as_array()?.clone();
        let words: Vec<&str> = text.split(' ').collect();
        Some(words[span[0].as_u64()? as usize..=span[1].as_u64()? as usize].join(" "))
    }

    #[test]
    fn names_of_one_or_more_words_stay_whole() {
        assert_eq!(tag("name this tower bob").as_deref(), Some("bob"));
        assert_eq!(tag("let 's call the red tower the lighthouse").as_deref(), Some("lighthouse"));
        assert_eq!(tag("that 's the tower of doom").as_deref(), Some("tower of doom"));
        assert_eq!(tag("call it the pumpkin box").as_deref(), Some("pumpkin box"));
        assert_eq!(tag("that 's what i want and then some"), None);
        assert_eq!(tag("call me later"), None);
        assert_eq!(tag("that is my house"), None);
        assert_eq!(tag("that glass thing is the window").as_deref(), Some("window"));
        assert_eq!(tag("this tower is called bob").as_deref(), Some("bob"));
        assert_eq!(tag("that tower is tall"), None);
        assert_eq!(tag("that blue ball is blobby").as_deref(), Some("blobby"));
        assert_eq!(tag("that house is ugly"), None);
        assert_eq!(tag("that house is ugly lol"), None);
        assert_eq!(tag("the red cube 's name is fred").as_deref(), Some("fred"));
        assert_eq!(tag("ok the green tower its name is spike").as_deref(), Some("spike"));
        assert_eq!(tag("the blue house is called home sweet home").as_deref(), Some("home sweet home"));
        assert_eq!(tag("the tower is tall"), None);
        assert_eq!(tag("the gold thing is now called goldie").as_deref(), Some("goldie"));
        assert_eq!(tag("i wanna call the pyramid goldie").as_deref(), Some("goldie"));
        assert_eq!(tag("its name is skreeb").as_deref(), Some("skreeb"));
        assert_eq!(tag("i 'm gonna name this one casa").as_deref(), Some("casa"));
        assert_eq!(tag("that tower is my house"), None);
    }

    #[test]
    fn a_name_given_in_a_build_is_a_step_of_its_own() {
        assert_eq!(named_when_built("build a tower named rex").as_deref(), Some("build a tower and call it rex"));
        assert_eq!(named_when_built("ok make a red cube called big red then come here").as_deref(), Some("ok make a red cube and call it big red then come here"));
        assert_eq!(named_when_built("go to the tower named rex"), None);
        assert_eq!(named_when_built("build a tower named"), None);
        assert_eq!(named_when_built("build a tower here"), None);
    }

    #[test]
    fn a_place_is_named_by_the_words_after_it() {
        assert_eq!(tag("remember this place as home").as_deref(), Some("home"));
        assert_eq!(tag("mark this spot as the base").as_deref(), Some("base"));
        assert_eq!(tag("call this spot home").as_deref(), Some("home"));
        assert_eq!(tag("remember this"), None);
    }
}
