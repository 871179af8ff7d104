//! Names players gave ("wilbur", "sparkles"): any word can be one, but the parser has seen few of
//! them as names, and a word it does not know as one makes it unsure of the whole line ("what is
//! wilbur" reads at 0.09). So a name the bot knows is also read in the place of a name the parser
//! knows well (the lexicon's `[stand_in_name]`), and put back in the words the form's spans
//! index: the form is the parser's, the name the player's. The surer reading wins.

use super::{Reading, Understanding};
use crate::lexicon::{Class, lexicon};

impl Understanding {
    /// Reads the prepared line with every word `is_name` calls a name, and the parser does not
    /// know, read as the stand-in name; `None` when there is no such word (read it as it is).
    pub fn read_with_names(&self, prepared: &str, is_name: impl Fn(&str) -> bool) -> Option<Reading> {
        let stand_in = lexicon().words(Class::StandInName).first()?.clone();
        let mut names = Vec::new();
        let swapped: Vec<String> = prepared
            .split_whitespace()
            .map(|w| {
                // A word of the lexicon (a shape, a colour, "home") stays: the parser knows it
                // in its place. Any other name is read as the stand-in.
                if w != stand_in && !lexicon().knows(w) && is_name(w) {
                    names.push(w.to_string());
                    stand_in.clone()
                } else {
                    w.to_string()
                }
            })
            .collect();
        if names.is_empty() {
            return None;
        }
        let mut reading = self.read_best(&swapped.join(" "), &swapped.join(" "))?;
        // The stand-ins back to the names, in order (a reading may have dropped words around
        // them, never reordered them).
        let mut names = names.into_iter();
        let words: Vec<String> = reading.text.split_whitespace().map(|w| if w == stand_in { names.next().unwrap_or_else(|| w.to_string()) } else { w.to_string() }).collect();
        reading.text = words.join(" ");
        Some(reading)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::{DialogueType, LogicalForm, validate_json};
    use crate::parser::{Parsed, Parser};

    /// A parser that knows only the stand-in as a name: sure of "what is <stand-in>", unsure of
    /// anything else.
    struct KnowsBob;

    impl Parser for KnowsBob {
        fn parse(&self, text: &str) -> Parsed {
            let sure = text.split_whitespace().any(|w| w == "bob");
            let json = r#"{"dialogue_type": "GET_MEMORY", "filters": {"output": {"attribute": "NAME"}, "where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}}"#;
            let lf = validate_json(text, json).unwrap_or_else(|_| LogicalForm::new(DialogueType::Noop));
            Parsed { lf, confidence: if sure { 0.99 } else { 0.09 }, choices: Vec::new() }
        }
        fn vocabulary(&self) -> Vec<String> {
            ["what", "is", "bob", "go", "to"].map(String::from).to_vec()
        }
    }

    #[test]
    fn a_name_the_parser_never_saw_is_read_as_one_it_knows() {
        let u = Understanding::new(Some(Box::new(KnowsBob)));
        let r = u.read_with_names("what is wilbur", |w| w == "wilbur").expect("read with the stand-in");
        assert_eq!((r.text.as_str(), r.confidence > 0.9), ("what is wilbur", true));
        assert!(u.read_with_names("what is wilbur", |_| false).is_none(), "not a name: read as it is");
        assert!(u.read_with_names("what is bob", |_| true).is_none(), "the stand-in itself stays");
        assert!(u.read_with_names("what is tower", |_| true).is_none(), "a word of the lexicon stays");
    }
}
