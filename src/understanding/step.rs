//! From a line's form to its steps: each action of a command with its own words and the typed
//! [`Details`] read from them, so that "build a tower here, then walk 10 blocks east" builds the
//! tower where the player points and walks east afterwards — the build never sees "east".
//!
//! The words of a step are the line's words between its connectors ([`super::sequence`]); the
//! action's spans are moved to count from the step's first word. An action whose spans reach
//! outside its step (the parser read one step's word into another) keeps the whole line.

use std::ops::Range;

use super::sequence;
use crate::lexicon::{Class, Group, lexicon};
use crate::logical_form::{
    Action, Amount, DanceName, Deixis, Details, DialogueType, Heading, LogicalForm, SaidOffset, Span, Spans, StepForm, covered, map_spans,
    tokenize,
};

/// One step of a line: its form (one action, or a naming) and its words with their details.
#[derive(Debug, Clone)]
pub struct Step {
    pub lf: LogicalForm,
    pub form: StepForm,
}

impl Step {
    /// A whole line as one step (a question, a naming, a one-action command).
    pub fn whole(text: &str, lf: LogicalForm) -> Step {
        Step::new(lf, &tokenize(text))
    }

    /// A step of `words`: its form, with the words asking for the most recent thing written as
    /// the form's own selector ([`super::latest`]), and the details of its words.
    fn new(mut lf: LogicalForm, words: &[String]) -> Step {
        super::latest::mark(&mut lf, words);
        Step { lf, form: form_of(words) }
    }
}

/// The typed form of a step's text: its words and what the lexicon reads in them.
pub fn form(text: &str) -> StepForm {
    form_of(&tokenize(text))
}

/// The steps of a command, in order; any other form is one step. A step the command's form has
/// no action for that names something ("… and call it bob") becomes a naming step.
pub fn split(text: &str, lf: &LogicalForm) -> Vec<Step> {
    split_with(text, lf, super::naming::read)
}

/// [`split`], with the steps the form has no action for read by `naming` (a naming form, or
/// `None`).
pub fn split_with(text: &str, lf: &LogicalForm, naming: impl Fn(&str) -> Option<LogicalForm>) -> Vec<Step> {
    if lf.dialogue_type != DialogueType::HumanGiveCommand || lf.actions().is_empty() {
        return vec![Step::whole(text, lf.clone())];
    }
    let tokens = tokenize(text);
    let ranges = sequence::steps(&tokens);
    let actions = lf.actions();
    let n = actions.len();
    let mut steps: Vec<(usize, Step)> = Vec::new();
    let mut used = vec![false; ranges.len()];
    for (i, action) in actions.iter().enumerate() {
        let form = LogicalForm { remove_condition: lf.remove_condition.clone(), ..LogicalForm::command(vec![action.clone()]) };
        let local = step_index(action, i, &ranges, n).and_then(|k| {
            // A step without a verb borrowed the one before, standing on the connector's place.
            let r = &ranges[k];
            let wider = r.start.saturating_sub(1)..r.end;
            [r.clone(), wider].into_iter().find_map(|r| local_form(&form, &tokens, &r)).map(|s| (k, s))
        });
        match local {
            Some((k, step)) => {
                used[k] = true;
                steps.push((k, step));
            }
            // Spans across steps: this action keeps the whole line's words.
            None => match super::checked(text, form) {
                Some(lf) => steps.push((usize::MAX, Step::new(lf, &tokens))),
                None => return vec![Step::whole(text, lf.clone())],
            },
        }
    }
    if steps.iter().all(|(k, _)| *k != usize::MAX) {
        for (k, r) in ranges.iter().enumerate().filter(|(k, _)| !used[*k]) {
            let words = &tokens[r.clone()];
            if let Some(named) = naming(&words.join(" ")).filter(|f| matches!(f.dialogue_type, DialogueType::PutMemory | DialogueType::GetMemory)) {
                steps.push((k, Step::new(named, words)));
            }
        }
        steps.sort_by_key(|(k, _)| *k);
    }
    steps.into_iter().map(|(_, s)| s).collect()
}

/// The form of one action over the words of `range` alone, if its spans all fall there.
fn local_form(form: &LogicalForm, tokens: &[String], range: &Range<usize>) -> Option<Step> {
    let words = &tokens[range.clone()];
    let inside = |s: Span| (s.start >= range.start && s.end < range.end).then(|| Some(Span::new(s.start - range.start, s.end.checked_sub(range.start)?))).flatten();
    let lf = super::checked(&words.join(" "), map_spans(form, inside)?)?;
    Some(Step::new(lf, words))
}

fn form_of(words: &[String]) -> StepForm {
    StepForm { words: words.to_vec(), details: details(words) }
}

/// The step of action `i` of `n`: the one at its place when the line has a step per action,
/// else the step its spans fall in; `None` when they fall in several.
fn step_index(action: &Action, i: usize, ranges: &[Range<usize>], n: usize) -> Option<usize> {
    if ranges.len() == n {
        return Some(i);
    }
    let mut words = covered(action, Spans::Pointed);
    words.extend(covered(action, Spans::Phrases));
    let (Some(lo), Some(hi)) = (words.iter().min(), words.iter().max()) else {
        return (n == 1 && ranges.len() == 1).then_some(0);
    };
    ranges.iter().position(|r| r.contains(lo) && r.contains(hi))
}

/// What the lexicon reads in a step's words.
pub fn details(words: &[String]) -> Details {
    let lx = lexicon();
    let has = |c: Class| lx.any_in(c, words);
    let deixis = if has(Class::Here) {
        Some(Deixis::Here)
    } else if has(Class::There) {
        Some(Deixis::There)
    } else {
        None
    };
    let quantity = (0..words.len()).find_map(|i| lx.value_at(crate::lexicon::Values::Quantity, words, i)).map(|(v, _)| v);
    let amount = if has(Class::Several) && quantity.is_none_or(|v| v >= 3.0) {
        Some(Amount::Some)
    } else if quantity == Some(2.0) {
        Some(Amount::Couple)
    } else if words.last().is_some_and(|w| w.len() > 3 && w.ends_with('s') && !lx.is(Class::NotPlural, w)) {
        Some(Amount::Plural)
    } else {
        None
    };
    // "call this spot home", "call here home": a place, not a thing.
    let this = |w: &str| lx.is(Class::Pointing, w) || lx.is(Class::Possessive, w);
    let names_place = words.windows(2).any(|w| this(&w[0]) && lx.is(Class::PlaceWord, &w[1]))
        || (has(Class::Here) && !words.iter().any(|w| lx.is(Class::Pointing, w)));
    Details {
        deixis,
        inside: has(Class::Inside) || words.iter().any(|w| w == "into"),
        on_top: has(Class::Top),
        compass: words.iter().find_map(|w| lx.compass(w)),
        offset: said_offset(words),
        turn_left: has(Class::Anticlockwise),
        up: has(Class::Up),
        to_speaker: has(Class::Me),
        counting: has(Class::Counting),
        asks_size: has(Class::SizeWords),
        counts_blocks: has(Class::BlockCount),
        latest: has(Class::Latest),
        earliest: has(Class::Earliest),
        dance: dance(words),
        names_place,
        thanked: words.iter().any(|w| w.starts_with("thank")),
        renames: (0..words.len()).any(|i| lx.phrase_at(Class::RenameWords, words, i).is_some()),
        faces_speaker: lx.any_in(Class::FacingMe, words),
        resizes: super::measures::read_more_of_it(&words.join(" ")).is_some(),
        amount,
    }
}

/// "10 blocks north", "5 to my right", "3 steps forward": a number, then units and small words,
/// then a direction.
fn said_offset(words: &[String]) -> Option<SaidOffset> {
    let lx = lexicon();
    for i in 0..words.len() {
        let Ok(n) = words[i].parse::<i32>() else { continue };
        let mut j = i + 1;
        while words.get(j).is_some_and(|w| lx.unit(w).is_some() || lx.is(Class::DirectionGlue, w)) {
            j += 1;
        }
        let Some(w) = words.get(j) else { continue };
        let heading = lx.compass(w).map(Heading::Compass).or_else(|| lx.relative(w).map(Heading::Relative));
        if let Some(heading) = heading
            && (1..=1000).contains(&n)
        {
            return Some(SaidOffset { blocks: n, heading });
        }
    }
    // "walk east 20": a compass word, then the number.
    words.windows(2).find_map(|w| {
        let c = lx.compass(&w[0])?;
        let n = w[1].parse::<i32>().ok().filter(|n| (1..=1000).contains(n))?;
        Some(SaidOffset { blocks: n, heading: Heading::Compass(c) })
    })
}

/// The meanings of the lexicon's `[dances]`, the first said winning: a move named wins over the
/// word "dance" ("dance around me" is a circle), a spin over the "around" said with it ("spin
/// around").
const DANCE_RANK: [&str; 6] = ["spin", "jump", "nod", "shake", "circle", "dance"]; // lexicon: the meanings of [dances], ranked

/// A dance named in the words ("spin anticlockwise", "do a jump", "walk in a circle").
fn dance(words: &[String]) -> Option<DanceName> {
    let lx = lexicon();
    let clockwise = !lx.any_in(Class::Anticlockwise, words);
    let said: Vec<&str> = (0..words.len()).filter_map(|i| lx.meaning_at(Group::Dance, words, i)).map(|(m, _)| m).collect();
    DANCE_RANK.into_iter().find(|m| said.contains(m)).and_then(|m| dance_named(m, clockwise))
}

/// The move a `[dances]` meaning stands for.
fn dance_named(meaning: &str, clockwise: bool) -> Option<DanceName> {
    // lexicon: the meanings of [dances], each to its move (a test checks every one has one)
    Some(match meaning {
        "spin" => DanceName::Spin { clockwise },
        "circle" => DanceName::Circle { clockwise },
        "jump" => DanceName::Jump,
        "nod" => DanceName::Nod,
        "shake" => DanceName::ShakeHead,
        "dance" => DanceName::Dance,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::validate_json;
    use crate::lexicon::Compass;
    use crate::logical_form::{ActionType, RelativeDirection};

    #[test]
    fn each_step_reads_only_its_own_words() {
        let text = "build a tower here then walk 10 blocks east";
        let lf = validate_json(
            text,
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [
                {"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}},
                 "location": {"contains_coreference": "yes", "text_span": [0, [3, 3]]}},
                {"action_type": "MOVE", "location": {"relative_direction": "FRONT", "steps": [0, [6, 6]], "text_span": [0, [6, 8]]}}]}"#,
        )
        .unwrap();
        let steps = split(text, &lf);
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[0].form.words.join(" "), "build a tower here");
        assert_eq!(steps[0].form.details.offset, None, "the build never sees the walk's \"east\"");
        assert_eq!(steps[0].form.details.deixis, Some(Deixis::Here));
        assert_eq!(steps[1].form.words.join(" "), "walk 10 blocks east");
        assert_eq!(steps[1].form.details.offset, Some(SaidOffset { blocks: 10, heading: Heading::Compass(Compass::East) }));
        assert_eq!(steps[1].lf.actions()[0].action_type, ActionType::Move);
        let json = steps[1].lf.to_json_value().to_string();
        assert!(json.contains("[0,[1,1]]") && json.contains("[0,[1,3]]"), "spans count from the step's first word: {json}");
    }

    #[test]
    fn every_dance_of_the_lexicon_is_a_move() {
        for (m, _) in lexicon().meanings(Group::Dance) {
            assert!(dance_named(m, true).is_some() && DANCE_RANK.contains(&m), "[dances] {m}");
        }
        assert_eq!(details(&tokenize("spin around")).dance, Some(DanceName::Spin { clockwise: true }));
        assert_eq!(details(&tokenize("dance around me")).dance, Some(DanceName::Circle { clockwise: true }));
        assert_eq!(details(&tokenize("do a little dance")).dance, Some(DanceName::Dance));
    }

    #[test]
    fn details_are_typed_values_from_the_lexicon() {
        let d = details(&tokenize("go inside the house"));
        assert!(d.inside && !d.on_top);
        let d = details(&tokenize("spin anticlockwise"));
        assert_eq!(d.dance, Some(DanceName::Spin { clockwise: false }));
        assert!(d.turn_left);
        let d = details(&tokenize("build it 5 blocks to my left"));
        assert_eq!(d.offset, Some(SaidOffset { blocks: 5, heading: Heading::Relative(RelativeDirection::Left) }));
        assert!(details(&tokenize("how many towers are there")).counting);
        assert!(details(&tokenize("call this spot home")).names_place);
        assert!(!details(&tokenize("call this tower bob")).names_place);
    }
}
