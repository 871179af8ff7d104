//! "paint the tower red", "make it black", "turn that cube into glass", "change the colour of
//! the wall to blue": a thing already there given another colour or material. The annotations
//! have no such action, so the parser never learned one; a line that is exactly such a request
//! is read here into `PAINT` (the thing, and a schematic whose filters say its new look), and
//! the generated corpus's `paint.txt` teaches the parser the same forms. Its words are the
//! lexicon's: `[verbs]` (paint), `[paint_changes]` (make, turn), `[paint_leads]` (to, into),
//! the colours and the materials.

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{
    Action, ActionType, Coreference, Filters, LogicalForm, Predicate, ReferenceObject, ReferenceObjectArg, Schematic, Span, Triple,
    WhereClause, WhereItem,
};

/// The form for a line that only asks to paint a thing, if it is one.
pub fn read(text: &str) -> Option<LogicalForm> {
    let w: Vec<String> = text.split_whitespace().map(String::from).collect();
    let lx = lexicon();
    let verb = w.first()?;
    let paints = lx.verb(verb) == Some(ActionType::Paint);
    if !paints && !lx.is(Class::PaintChange, verb) {
        return None;
    }
    // The new look: the colour and material words that end the line, after a lead word if any.
    let mut look = w.len();
    // A colour may be two words ("light blue").
    let colour_at = |k: usize| lx.meaning_at(crate::lexicon::Group::Colour, &w, k).map(|(_, n)| n);
    loop {
        if look > 2 && colour_at(look - 2) == Some(2) {
            look -= 2;
        } else if look > 1 && describes(&w[look - 1]) {
            look -= 1;
        } else {
            break;
        }
    }
    if look == w.len() {
        return None;
    }
    // The lead before the look: "into", "out of" (`[paint_leads]`, phrases too).
    let lead = lx.phrases(Class::PaintLead).iter().map(Vec::len).filter(|&n| n < look).find(|&n| lx.phrase_at(Class::PaintLead, &w[..look], look - n) == Some(n));
    let thing_end = look - lead.unwrap_or(0);
    if thing_end <= 1 {
        return None;
    }
    let thing = thing(&w, whole(&w, 1..thing_end))?;
    // "make a red cube" is a build: only "paint" may take a thing not yet named ("paint a
    // cube red" means one that is there); "make", "turn" need one that is ("it", "the cube"),
    // a name with a lead to its new look ("make sunny out of glass"), or one bare word with
    // the look after it ("make box white": a build would say "make a white box").
    let bare = thing_end == 2 && !lx.is(Class::Determiner, &w[1]) && !lx.is(Class::Indefinite, &w[1]) && lx.number(&w, 1).is_none();
    if !paints && !definite(&w[1]) && !bare && !(lead.is_some() && !lx.is(Class::Indefinite, &w[1])) {
        return None;
    }
    let said = Span::new(look, w.len() - 1);
    // Each colour word, and each run of material words as one ("stone bricks").
    let mut items: Vec<WhereItem> = Vec::new();
    let mut k = look;
    while k < w.len() {
        let (p, end) = if let Some(n) = colour_at(k) {
            (Predicate::HasColour, k + n - 1)
        } else {
            (Predicate::HasBlockType, (k..w.len()).take_while(|&j| colour_at(j).is_none()).last().unwrap_or(k))
        };
        items.push(WhereItem::Triple(Triple::new(p, Span::new(k, end))));
        k = end + 1;
    }
    let filters = Filters { where_clause: Some(WhereClause::And(items)), ..Filters::default() };
    let paint = Action {
        reference_object: Some(ReferenceObjectArg::Object(Box::new(thing))),
        schematic: Some(Schematic { filters: Some(filters), text_span: Some(said) }),
        ..Action::new(ActionType::Paint)
    };
    super::checked(text, LogicalForm::command(vec![paint]))
}

/// "build a wall and paint it black": a step the parser read as some other action (it has no
/// `PAINT`) that reads as a painting is one. Returns whether the action changed.
pub fn repair(action: &mut Action, tokens: &[String], step: std::ops::Range<usize>) -> bool {
    if action.action_type == ActionType::Paint || step.end > tokens.len() {
        return false;
    }
    let Some(lf) = read(&tokens[step.clone()].join(" ")) else { return false };
    let Some(paint) = lf.actions().first() else { return false };
    let Some(moved) = crate::logical_form::map_spans(paint, |s| Some(Span::new(s.start + step.start, s.end + step.start))) else { return false };
    *action = moved;
    true
}

/// A colour or material word ("red", "glass", "oak").
fn describes(w: &str) -> bool {
    let lx = lexicon();
    lx.colour(w).is_some() || lx.material(w).is_some()
}

/// "it", "that", "the cube", "my house": a word that points at a thing already there ("a",
/// "some" are a new one).
pub(super) fn definite(w: &str) -> bool {
    let lx = lexicon();
    let article = lx.is(Class::Article, w) && !lx.is(Class::Indefinite, w);
    lx.is(Class::Pointing, w) || lx.is(Class::Possessive, w) || article
}

/// The words of the whole thing when `w[range]` names a part of it: "the house walls", "the
/// house's walls", "the walls of the house" (`[painted_parts]`, `[part_links]`). Painting a thing
/// changes what its parts are, so the thing is what is painted.
fn whole(w: &[String], range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let lx = lexicon();
    let part = |k: usize| lx.is(Class::PaintedPart, &w[k]);
    let link = |k: usize| lx.is(Class::PartLink, &w[k]);
    // "the walls of the house": a part, its link, then the thing.
    let first = range.start + usize::from(lx.is(Class::Article, &w[range.start]));
    if first + 2 < range.end && part(first) && link(first + 1) {
        return first + 2..range.end;
    }
    // "the house walls", "the house 's walls": the thing, then its part ("some walls" are walls).
    let last = range.end - 1;
    if last > first && part(last) && definite(&w[range.start]) {
        let end = if last - 1 > first && link(last - 1) { last - 1 } else { last };
        return range.start..end;
    }
    range
}

/// The thing in `w[range]`: "it" and "that" point at it; "the red cube" names it (its last word)
/// and describes it (the colour and material words before).
fn thing(w: &[String], range: std::ops::Range<usize>) -> Option<ReferenceObject> {
    let lx = lexicon();
    let said = Span::new(range.start, range.end - 1);
    let words = &w[range.clone()];
    if words.len() == 1 && lx.is(Class::Pointing, &words[0]) {
        let filters = Filters { contains_coreference: Some(Coreference::Yes), ..Filters::default() };
        return Some(ReferenceObject { filters: Some(filters), text_span: Some(said), ..ReferenceObject::default() });
    }
    let start = range.start + usize::from(definite(&w[range.start]) || lx.is(Class::Article, &w[range.start]));
    let name = range.end - 1;
    if start > name || describes(&w[name]) || lx.is(Class::Pointing, &w[name]) {
        return None;
    }
    let mut items = vec![WhereItem::Triple(Triple::new(Predicate::HasName, Span::word(name)))];
    for k in start..name {
        let p = if lx.colour(&w[k]).is_some() {
            Predicate::HasColour
        } else if lx.material(&w[k]).is_some() {
            Predicate::HasBlockType
        } else if lx.size(&w[k]).is_some() {
            // "the tall tower"; "big tim" too, read as one name when no big "tim" is found.
            Predicate::HasSize
        } else {
            return None;
        };
        items.push(WhereItem::Triple(Triple::new(p, Span::word(k))));
    }
    let filters = Filters { where_clause: Some(WhereClause::And(items)), ..Filters::default() };
    Some(ReferenceObject { filters: Some(filters), text_span: Some(said), ..ReferenceObject::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(line: &str) -> String {
        read(line).unwrap_or_else(|| panic!("{line}")).to_json_value().to_string()
    }

    #[test]
    fn painting_reads_the_thing_and_its_new_look() {
        let lf = json("paint the tower red");
        assert!(lf.contains(r#""action_type":"PAINT""#), "{lf}");
        assert!(lf.contains(r#""obj_text":[0,[2,2]],"pred_text":"has_name""#), "{lf}");
        assert!(lf.contains(r#""obj_text":[0,[3,3]],"pred_text":"has_colour""#), "{lf}");
        let lf = json("make it black");
        assert!(lf.contains(r#""contains_coreference":"yes""#), "{lf}");
        let lf = json("make box white");
        assert!(lf.contains(r#""obj_text":[0,[1,1]],"pred_text":"has_name""#), "a bare name: {lf}");
        let lf = json("make sunny out of glass");
        assert!(lf.contains(r#""obj_text":[0,[1,1]],"pred_text":"has_name""#), "a name: {lf}");
        let lf = json("turn the house into stone bricks");
        assert!(lf.contains(r#""obj_text":[0,[4,5]],"pred_text":"has_block_type""#), "one material of two words: {lf}");
        for line in ["make the house walls white", "paint the house 's walls white", "paint the walls of the house white"] {
            let lf = json(line);
            let house = line.split(' ').position(|w| w == "house").unwrap();
            assert!(lf.contains(&format!(r#""obj_text":[0,[{house},{house}]],"pred_text":"has_name""#)), "the house, not its walls: {lf}");
        }
        let lf = json("turn the red cube into glass");
        assert!(lf.contains(r#""obj_text":[0,[5,5]],"pred_text":"has_block_type""#), "{lf}");
        assert!(lf.contains(r#""obj_text":[0,[2,2]],"pred_text":"has_colour""#), "the thing is the red cube: {lf}");
    }

    #[test]
    fn a_build_or_a_change_of_size_is_no_painting() {
        for line in ["make a red cube", "make it bigger", "make the tower taller", "paint", "make red", "build a blue house", "turn left", "make a cube out of glass", "make two red", "make a pyramid out of sandstone", "make some walls out of glass"] {
            assert!(read(line).is_none(), "{line}");
        }
    }
}
