//! craftmate: an offline Minecraft assistant.
//!
//! The design — the flow, the two contracts (the logical form and the World trait), the modules
//! and the dialogue as it is — is in `docs/DESIGN.md` at the repository root. The crate mirrors
//! that flow, one module per box: chat → [`agent`] (the tick loop) → [`dialogue`] (after the
//! chat gate in [`safety`]) → [`understanding`] (typos, known lines, the neural [`parser`],
//! sequences, measures, and each step's typed form) → [`logical_form`] → [`interpreter`] →
//! [`tasks`] →
//! [`world`], with [`perception`] writing what the bot sees into [`memory`] (a SQLite triple
//! store) and [`schematics`] generating the shapes the bot builds. [`llm`] (optional) answers
//! chit-chat with a local language model, safely. [`live`] is the World over a real server
//! (azalea). [`web`] serves a page to watch and talk to the bot. Only the [`world`]
//! implementations know whether Minecraft is real. Every word list the modules read chat with
//! lives once in `data/lexicon.toml`, loaded by [`lexicon`].

pub mod agent;
pub mod bench;
pub mod dialogue;
pub mod interpreter;
pub mod lexicon;
pub mod live;
pub mod llm;
pub mod logical_form;
pub mod memory;
pub mod parser;
pub mod perception;
pub mod play;
pub mod safety;
pub mod scenario;
pub mod schematics;
pub mod tasks;
pub mod training;
pub mod understanding;
pub mod web;
pub mod world;
