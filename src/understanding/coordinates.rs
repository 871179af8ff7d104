//! "build me a red cube over there at 10 5 5": coordinates typed into a command are the place,
//! whatever else the line points with. The parser sometimes reads "over there at 10 5 5" as a
//! pointing word with the numbers in its span and drops the numbers; three numbers after "at"
//! are never anything but a place, so the rule writes them in.

use std::ops::Range;

use crate::logical_form::{Action, ActionType, Location, ReferenceObject, Span, SpecialReference, SpecialReferenceObject};

/// Writes "at X Y Z" said in the step into the action's location when the form lost it.
/// Returns whether the form changed.
pub fn repair(action: &mut Action, tokens: &[String], step: Range<usize>) -> bool {
    if !matches!(action.action_type, ActionType::Build | ActionType::Move | ActionType::Dig | ActionType::Spawn | ActionType::Fill) {
        return false;
    }
    let end = step.end.min(tokens.len());
    let number = |k: usize| tokens.get(k).is_some_and(|w| w.parse::<i32>().is_ok());
    // lexicon: "at" before three numbers is the game's own way of writing a place, not English.
    let Some(at) = (step.start..end.saturating_sub(3)).rev().find(|&k| tokens[k] == "at" && (1..=3).all(|i| number(k + i)) && !number(k + 4)) else {
        return false;
    };
    let numbers = Span::new(at + 1, at + 3);
    let has_them = action.location.as_ref().and_then(|l| l.as_location()).and_then(|l| l.reference_object.as_deref()).is_some_and(|r| {
        matches!(&r.special_reference, Some(SpecialReference::Object(o)) if o.coordinates_span == Some(numbers))
    });
    if has_them {
        return false;
    }
    let at_them = SpecialReferenceObject { fixed_value: None, coordinates_span: Some(numbers) };
    let thing = ReferenceObject { special_reference: Some(SpecialReference::Object(at_them)), ..ReferenceObject::default() };
    action.set_location(Location { reference_object: Some(Box::new(thing)), text_span: Some(numbers), ..Location::default() });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_numbers_after_at_are_the_place() {
        let tokens: Vec<String> = "build me a red cube over there at 10 5 5".split(' ').map(String::from).collect();
        let mut build = Action::new(ActionType::Build);
        build.set_location(Location { contains_coreference: Some(crate::logical_form::Coreference::Yes), text_span: Some(Span::new(8, 10)), ..Location::default() });
        assert!(repair(&mut build, &tokens, 0..tokens.len()));
        let json = serde_json::to_string(&build).unwrap();
        assert!(json.contains(r#""coordinates_span":[0,[8,10]]"#), "{json}");
        assert!(!repair(&mut build, &tokens, 0..tokens.len()), "already there");
        let tokens: Vec<String> = "dig at 10 5".split(' ').map(String::from).collect();
        assert!(!repair(&mut Action::new(ActionType::Dig), &tokens, 0..tokens.len()), "two numbers are no place");
    }
}
