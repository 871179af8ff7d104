//! What travels over the page's WebSocket, as JSON text frames.
//!
//! To the page, [`Update`]s tagged by `"t"`: a page that connects gets a full set (hello, every
//! drawn block, entities, the chat so far, the last line understood, tasks, memory) and then
//! only what changed, as it changes. From the page, [`PageInput`]: a chat line, or stop/resume.

use crate::agent::inspect::{MemoryView, TaskLine};
use crate::dialogue::last::LastLine;
use crate::world::Pos;
use serde::{Deserialize, Serialize};

/// A body in the view: the bot, a player or a mob, feet position and facing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Body {
    /// A player's name, or a mob's kind ("pig").
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub z: f64,
    /// Degrees, Minecraft's convention (0 faces south, +z).
    pub yaw: f32,
}

impl Body {
    /// Positions rounded to a hundredth of a block, so a body that did not move compares equal.
    pub fn new(name: &str, x: f64, y: f64, z: f64, yaw: f32) -> Body {
        let r = |v: f64| (v * 100.0).round() / 100.0;
        Body { name: name.to_string(), x: r(x), y: r(y), z: r(z), yaw: yaw.round() }
    }
}

/// One line of the chat transcript.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChatLine {
    pub who: String,
    pub text: String,
    /// Said by the bot.
    pub bot: bool,
    /// Heard from a player who may not command the bot (a live server's `--allow`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
}

/// A drawn block: `[x, y, z, colour]`, the colour as in [`super::palette`].
pub type Cell = (i32, i32, i32, u32);

pub fn cell(p: Pos, colour: u32) -> Cell {
    (p.x, p.y, p.z, colour)
}

/// A message to the page.
#[derive(Debug, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Update<'a> {
    /// First message on a connection: who is who.
    Hello {
        bot: &'a str,
        /// Whom the page speaks as.
        you: &'a str,
        /// "play" (the embedded world) or "connect" (a live server).
        mode: &'a str,
        tick: u64,
    },
    /// Drawn blocks: `reset` replaces everything (with the box drawn), else cells are added
    /// or recoloured (`set`) and removed (`clear`).
    Blocks {
        reset: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        area: Option<[[i32; 3]; 2]>,
        set: Vec<Cell>,
        clear: Vec<[i32; 3]>,
    },
    Entities { bot: &'a Body, players: &'a [Body], mobs: &'a [Body] },
    Chat { lines: &'a [ChatLine] },
    Understood { line: &'a LastLine },
    Tasks { stack: &'a [TaskLine] },
    Memory { view: &'a MemoryView },
    /// Once a second: the game tick, the bot's mean tick time over that second, pages watching.
    Status { tick: u64, tick_ms: f64, pages: usize },
    /// A reply to something the page did that is not chat ("paused: building a red cube").
    Note { text: &'a str },
}

impl Update<'_> {
    pub fn json(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"t\":\"note\",\"text\":\"{e}\"}}"))
    }
}

/// A message from the page.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum PageInput {
    /// A chat line typed into the page.
    Say { text: String },
    /// The stop button: pause the running command.
    Stop,
    /// The resume button.
    Resume,
}

/// The longest message a page may send (a chat line is far shorter; the chat gate has its own
/// limit on top).
pub const MAX_INPUT_BYTES: usize = 4096;

impl PageInput {
    /// Reads a message from the page; anything else is an error in words.
    pub fn parse(text: &str) -> Result<PageInput, String> {
        if text.len() > MAX_INPUT_BYTES {
            return Err(format!("message too long ({} bytes; at most {MAX_INPUT_BYTES})", text.len()));
        }
        serde_json::from_str(text).map_err(|e| format!("not a message this page sends: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_messages_are_read_and_junk_is_refused_in_words() {
        assert_eq!(PageInput::parse(r#"{"t":"say","text":"build a red cube"}"#), Ok(PageInput::Say { text: "build a red cube".into() }));
        assert_eq!(PageInput::parse(r#"{"t":"stop"}"#), Ok(PageInput::Stop));
        assert!(PageInput::parse("hello").unwrap_err().contains("not a message"));
        assert!(PageInput::parse(r#"{"t":"rm -rf"}"#).is_err());
        let long = format!(r#"{{"t":"say","text":"{}"}}"#, "a".repeat(5000));
        assert!(PageInput::parse(&long).unwrap_err().contains("too long"));
    }

    #[test]
    fn updates_are_tagged_json() {
        let body = Body::new("craftmate", 0.5, 5.0, 0.5, 90.0);
        let json = Update::Entities { bot: &body, players: &[], mobs: &[] }.json();
        assert!(json.starts_with(r#"{"t":"entities","bot":{"name":"craftmate","x":0.5"#), "{json}");
        let json = Update::Blocks { reset: false, area: None, set: vec![(1, 2, 3, 0xb02e26)], clear: vec![] }.json();
        assert_eq!(json, r#"{"t":"blocks","reset":false,"set":[[1,2,3,11546150]],"clear":[]}"#);
    }
}
