//! What may come in and what may go out, below every layer that talks: the disallowed-words
//! list ([`disallowed`]), the chat gate ([`gate`]) every incoming line passes, and the cleaning
//! ([`text`]) every outgoing line passes; and what a server owner decides for everyone
//! ([`owner`]).
//!
//! It depends only on [`crate::logical_form`]'s tokenizer, so the World implementations (a live
//! server's allow-list), the language model's sanitizer and the dialogue can all use it without
//! importing one another.

pub mod disallowed;
pub mod gate;
pub mod owner;
pub mod text;
