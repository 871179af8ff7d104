//! The semantic parser: chat text → [`LogicalForm`] with a confidence.

use crate::logical_form::LogicalForm;

/// A parse: the logical form and how sure the parser is (0–1; the probability the model gives to
/// the whole form, so long or unusual forms score lower).
#[derive(Debug, Clone)]
pub struct Parsed {
    pub lf: LogicalForm,
    pub confidence: f32,
}

/// Anything that turns chat into a logical form.
pub trait Parser {
    /// Parses raw chat (normalised inside). Always returns a form that passes `validate` for the
    /// normalised text.
    fn parse(&self, text: &str) -> Parsed;
}
