//! The dialogue: every chat line goes through the [`manager`]. After the chat gate
//! ([`crate::safety::gate`]), it lets an open question take the line ([`waiting`], read by
//! [`answers`]), gets a logical form (the [`exact`] table first, then the parser), and routes it
//! by dialogue type; [`say`] holds the lines the bot says on its own, and [`about_me`] answers
//! questions about the bot from its own facts (never the language model); [`address`] leaves out
//! the bot's own name where it only addresses the bot ("hey Helper, come here"). A line is handled in a
//! [`context`]: who said it, the world, memory and the task stack. [`last`] keeps what the bot
//! made of the last line, for the web view; [`lessons`] keeps what players taught it; [`steps`] keeps the rest of a line of several
//! steps, each interpreted when it starts; `several` answers several questions asked in one line; [`thinking`] holds small talk the language model is
//! working on, one request per player.

pub mod about_me;
pub mod address;
pub mod answers;
pub mod context;
pub mod last;
pub mod lessons;
pub mod manager;
pub mod say;
mod several;
pub mod steps;
pub mod thinking;
pub mod waiting;
