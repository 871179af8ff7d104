//! Chat lines from a player, through everything the bot does with them.
//!
//! The input is text (invalid UTF-8 replaced, as `play` reads it), one chat line per line, at
//! most [`MAX_LINES`]. Alice says each in turn; the bot, with the shipped parser, answers and
//! acts in the [`Sandbox`](crate::sandbox::Sandbox), whose checks then run.

use std::rc::Rc;

use craftmate::parser::{NeuralParser, Parsed, Parser};

use crate::sandbox::Sandbox;

/// The most lines one input says.
pub const MAX_LINES: usize = 3;

thread_local! {
    /// Loaded once: the shipped parser takes about a second to load and never changes.
    static PARSER: Rc<NeuralParser> = Rc::new(NeuralParser::shipped().expect("the shipped parser loads"));
}

/// The one loaded parser, lent to each new bot.
struct Shared(Rc<NeuralParser>);

impl Parser for Shared {
    fn parse(&self, text: &str) -> Parsed {
        self.0.parse(text)
    }

    fn vocabulary(&self) -> Vec<String> {
        self.0.vocabulary()
    }
}

pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let parser = PARSER.with(Rc::clone);
    let mut sandbox = Sandbox::new(Some(Box::new(Shared(parser))));
    for line in text.split('\n').take(MAX_LINES) {
        sandbox.say("alice", line);
    }
}
