//! The dialogue manager: every chat line goes through here. It filters disallowed words, gets a
//! logical form (exact-match table first, then the parser), and routes it to a dialogue object;
//! a dialogue stack keeps multi-turn exchanges (clarifying questions, yes/no confirmations).

pub mod disallowed;
pub mod exact;
pub mod manager;
pub mod pending;
pub mod say;
