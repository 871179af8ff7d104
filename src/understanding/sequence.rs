//! Sequences: "build a green cube here then come back to me", "dig a hole and after that fill
//! it". The parser often writes only the first step of a long line; here the line is cut at its
//! connecting words, each part is read on its own, and the parts' actions are joined in order
//! into one form over the whole line (their spans moved to where each part starts).

use std::ops::Range;

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{Action, ActionType, DialogueType, LogicalForm, Predicate, WhereItem};

/// Does the "and" at `i` start a new step: "and come here", "and a blue one", "and 2 cows" (but
/// not "and 3 high", a measure)?
fn and_starts_step(tokens: &[String], i: usize) -> bool {
    let lx = lexicon();
    let next = |k: usize| tokens.get(i + k).map(String::as_str).unwrap_or("");
    if lx.is(Class::StepVerb, next(1)) {
        return true;
    }
    let measure = |w: &str| lx.dimension(w).is_some() || lx.is(Class::By, w);
    // "… and two sheep": a number (in digits or words) that counts, not one that measures.
    let number = crate::schematics::numbers::read_number(tokens, i + 1).map(|(_, n)| n);
    let counted = number.is_some_and(|n| {
        let after = |k: usize| tokens.get(i + n + k).map(String::as_str).unwrap_or("");
        !measure(after(1)) && !(lx.unit(after(1)).is_some() && measure(after(2)))
    });
    counted || lx.is(Class::Indefinite, next(1)) || next(1) == "another"
}

/// Does this step start with a verb of its own (else it borrows the step before's: "build a red
/// wall, then a blue tower", "go north 25 blocks then east 10")?
pub fn has_verb(step: &[String]) -> bool {
    let lx = lexicon();
    let borrows = |w: &str| lx.is(Class::Determiner, w) || w == "another" || lx.compass(w).is_some();
    let number = crate::schematics::numbers::read_number(step, 0).is_some();
    step.first().is_some_and(|w| lx.is(Class::StepVerb, w) || !(borrows(w) || number))
}

/// The word ranges of the steps in `tokens`: one range for a line with no connector.
pub fn steps(tokens: &[String]) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < tokens.len() {
        // "… craft sticks and give me them": handing over what the step made, to the line's
        // end, belongs to that step.
        if lexicon().phrase_at(Class::Delivery, tokens, i).is_some_and(|n| i + n == tokens.len() && i > start) {
            break;
        }
        // A number is one ("a hundred and five", "a stack and a half"): no step ends inside it.
        if let Some((_, n)) = crate::schematics::numbers::read_number(tokens, i).filter(|(_, n)| *n > 2) {
            i += n;
            continue;
        }
        // The longest connector at `i` ("and then" over "then"), or an "and" before a new step.
        let len = lexicon().phrase_at(Class::Connector, tokens, i).or_else(|| (tokens[i] == "and" && and_starts_step(tokens, i)).then_some(1));
        match len {
            // A connector with words on both sides ends a step.
            Some(n) if i > start && i + n < tokens.len() => {
                ranges.push(start..i);
                i += n;
                // "… and after that finally come here": connectors in a row are one.
                while let Some(m) = lexicon().phrase_at(Class::Connector, tokens, i).filter(|m| i + m < tokens.len()) {
                    i += m;
                }
                start = i;
            }
            _ => i += 1,
        }
    }
    ranges.push(start..tokens.len());
    ranges
}

/// The step of `steps` holding word `index` (the last one when past the end).
pub fn step_of(steps: &[Range<usize>], index: usize) -> Option<Range<usize>> {
    steps.iter().find(|r| r.contains(&index)).cloned().or_else(|| steps.last().cloned())
}

/// Joins the commands read from each step (`(first word of the step, its form)`) into one form
/// over `text`; `None` unless every step is a command and the joined form is valid.
pub fn join(text: &str, parts: &[(usize, LogicalForm)]) -> Option<LogicalForm> {
    let tokens = crate::logical_form::tokenize(text);
    let mut actions: Vec<Action> = Vec::new();
    for (offset, lf) in parts {
        if lf.dialogue_type != DialogueType::HumanGiveCommand {
            return None;
        }
        let step: Vec<Action> = lf.action_sequence.as_ref()?.iter().map(|a| crate::logical_form::shifted(a, *offset)).collect();
        if let ([change], Some(built)) = (step.as_slice(), actions.last_mut())
            && (changes_what_was_built(&tokens, *offset, change) || paints_them(&tokens, built, change) || describes_it_again(&tokens, built, change))
            && let (Some(thing), Some(new)) = (built.schematic.as_mut().filter(|_| built.action_type == ActionType::Build), change.schematic.as_ref())
        {
            // What the step says replaces what the build said of the same kind ("3 high" for
            // the height it had).
            let said: Vec<WhereItem> = new.and_items().into_iter().filter(|i| !names_nothing(i, &tokens)).collect();
            let mut items: Vec<WhereItem> = thing.and_items().into_iter().filter(|i| kind(i).is_none_or(|k| !said.iter().any(|n| kind(n) == Some(k.clone())))).collect();
            items.extend(said);
            thing.set_and_items(items);
            // "… make it 2 high, right in front of me": the place said with it is the build's.
            if built.location.is_none() {
                built.location = change.location.clone();
            }
            continue;
        }
        actions.extend(step);
    }
    super::checked(text, LogicalForm::command(actions))
}

/// "go north 30 blocks, then stop and wait for me there": a stop after the line's other steps
/// stops nothing they do (each ends by itself), so it goes; a stop first ("stop and come here")
/// stays. Returns whether one went.
pub fn drop_trailing_stops(lf: &mut LogicalForm) -> bool {
    let Some(actions) = lf.action_sequence.as_mut() else { return false };
    let n = actions.len();
    let first_other = actions.iter().position(|a| a.action_type != ActionType::Stop);
    if let Some(k) = first_other {
        let mut i = 0;
        actions.retain(|a| {
            i += 1;
            i - 1 <= k || a.action_type != ActionType::Stop
        });
    }
    actions.len() < n
}

/// What kind of detail an item says: its predicate.
fn kind(i: &WhereItem) -> Option<Predicate> {
    match i {
        WhereItem::Triple(t) => Some(t.pred_text.clone()),
        _ => None,
    }
}

/// Is `i` a name whose every word is `ok`?
fn name_over(i: &WhereItem, tokens: &[String], ok: impl Fn(&str) -> bool) -> bool {
    matches!(i, WhereItem::Triple(t) if t.pred_text == Predicate::HasName && t.obj_span().is_some_and(|s| s.words(tokens).iter().all(|w| ok(w))))
}

/// A name that names nothing new: "it", "that", "one" ("make it 3 high", "a stone one").
fn names_nothing(i: &WhereItem, tokens: &[String]) -> bool {
    name_over(i, tokens, |w| lexicon().is(Class::Pointing, w) || lexicon().is(Class::GenericThing, w))
}

/// "build two cubes and paint *them* orange": several things just built, painted as a whole, are
/// built in that colour (a painting is of one thing).
fn paints_them(tokens: &[String], built: &Action, change: &Action) -> bool {
    let several = built.schematic.as_ref().and_then(|s| s.filters.as_ref()).is_some_and(|f| f.selector.is_some());
    let them = change.reference_object.as_ref().and_then(|r| r.as_object()).and_then(|r| r.text_span).is_some_and(|s| {
        s.words(tokens).iter().all(|w| lexicon().is(Class::PointingMany, w))
    });
    change.action_type == ActionType::Paint && several && them
}

/// "build a wall, *a stone one*, 8 long": a step that names the thing "one" and only adds what
/// the build before did not say (no place, no count, no kind of detail it had) describes that
/// build again. "a red cube, a blue one" says a colour twice: a second thing.
fn describes_it_again(tokens: &[String], built: &Action, change: &Action) -> bool {
    let (Some(thing), Some(new)) = (built.schematic.as_ref(), change.schematic.as_ref()) else { return false };
    let items = new.and_items();
    // "a stone *one*": a name that is the generic "one" (not "it": that points at a thing).
    let one = |i: &WhereItem| name_over(i, tokens, |w| lexicon().is(Class::GenericThing, w) && !lexicon().is(Class::Pointing, w));
    let had: Vec<Predicate> = thing.and_items().iter().filter_map(kind).collect();
    let adds_only = items.iter().filter(|i| !one(i)).all(|i| kind(i).is_some_and(|k| k != Predicate::HasName && !had.contains(&k)));
    let counted = new.filters.as_ref().is_some_and(|f| f.selector.is_some());
    change.action_type == ActionType::Build && built.action_type == ActionType::Build && items.iter().any(one) && adds_only && items.len() > 1 && change.location.is_none() && !counted
}

/// "build a wall, *make it 3 high*, then paint it orange": a step that makes "it" (the thing
/// the step before builds) something, with no name of its own, says more of that build.
fn changes_what_was_built(tokens: &[String], offset: usize, change: &Action) -> bool {
    let lx = lexicon();
    let made = tokens.get(offset).is_some_and(|w| lx.verb(w) == Some(ActionType::Build)) && tokens.get(offset + 1).is_some_and(|w| lx.is(Class::Pointing, w));
    let items = change.schematic.as_ref().map(|s| s.and_items()).unwrap_or_default();
    // A name over "it" itself names nothing new.
    let unnamed = !items.is_empty() && items.iter().all(|i| kind(i).is_some_and(|k| k != Predicate::HasName) || name_over(i, tokens, |w| lx.is(Class::Pointing, w)));
    made && unnamed && change.action_type == ActionType::Build
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::validate_json;
    use crate::logical_form::tokenize;

    #[test]
    fn connectors_in_a_row_are_one() {
        assert_eq!(cut("build a wall and after that finally come here"), vec!["build a wall", "come here"]);
    }

    #[test]
    fn a_stop_after_the_other_steps_goes_and_one_before_them_stays() {
        let form = |types: &[&str]| {
            let actions: Vec<String> = types.iter().map(|t| format!("{{\"action_type\": \"{t}\"}}")).collect();
            crate::logical_form::LogicalForm::from_json_str(&format!("{{\"dialogue_type\": \"HUMAN_GIVE_COMMAND\", \"action_sequence\": [{}]}}", actions.join(","))).expect("a form")
        };
        let mut lf = form(&["MOVE", "STOP"]);
        assert!(drop_trailing_stops(&mut lf));
        assert_eq!(lf.actions().len(), 1);
        let mut lf = form(&["STOP", "MOVE"]);
        assert!(!drop_trailing_stops(&mut lf));
        let mut lf = form(&["STOP"]);
        assert!(!drop_trailing_stops(&mut lf));
    }

    #[test]
    fn handing_over_at_the_end_belongs_to_the_step_before() {
        assert_eq!(cut("chop a tree then craft sticks and give me them"), vec!["chop a tree", "craft sticks and give me them"]);
    }

    fn cut(text: &str) -> Vec<String> {
        let t = tokenize(text);
        steps(&t).into_iter().map(|r| t[r].join(" ")).collect()
    }

    #[test]
    fn lines_are_cut_at_their_connecting_words() {
        assert_eq!(cut("build a green cube here then come back to me"), ["build a green cube here", "come back to me"]);
        assert_eq!(cut("dig a hole and after that fill it"), ["dig a hole", "fill it"]);
        assert_eq!(cut("build a cube and come here"), ["build a cube", "come here"]);
        assert_eq!(cut("build a red and blue tower"), ["build a red and blue tower"]);
        assert_eq!(cut("and then"), ["and then"]);
        assert_eq!(cut("build a tower then"), ["build a tower then"]);
        assert_eq!(cut("come here, then dance, and then go to 1 2 3"), ["come here", "dance", "go to 1 2 3"]);
        assert_eq!(cut("spawn 2 pigs and 2 cows"), ["spawn 2 pigs", "2 cows"]);
        assert_eq!(cut("spawn four cows and two sheep"), ["spawn four cows", "two sheep"]);
        assert_eq!(cut("build a wall five long and three high"), ["build a wall five long and three high"]);
        assert_eq!(cut("make a yellow cube and a purple cube"), ["make a yellow cube", "a purple cube"]);
        assert_eq!(cut("build a wall 5 long and 3 high"), ["build a wall 5 long and 3 high"]);
        assert_eq!(cut("build a wall 5 blocks long and 3 blocks high"), ["build a wall 5 blocks long and 3 blocks high"]);
        assert_eq!(cut("give me a stack and a half of sand and come here"), ["give me a stack and a half of sand", "come here"]);
    }

    #[test]
    fn forms_are_joined_with_their_spans_moved() {
        let text = "dig a hole then come here";
        let dig = validate_json(
            "dig a hole",
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DIG", "schematic": {"text_span": [0, [2, 2]]}}]}"#,
        )
        .unwrap();
        let come = validate_json(
            "come here",
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"contains_coreference": "yes", "text_span": [0, [1, 1]]}}]}"#,
        )
        .unwrap();
        let joined = join(text, &[(0, dig.clone()), (4, come)]).expect("joined");
        assert_eq!(joined.actions().len(), 2);
        let json = joined.to_json_value().to_string();
        assert!(json.contains("[0,[5,5]]"), "{json}");
        let chat = validate_json("hi", r#"{"dialogue_type": "NOOP"}"#).unwrap();
        assert!(join(text, &[(0, dig), (4, chat)]).is_none());
    }
}
