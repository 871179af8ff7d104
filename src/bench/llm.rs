//! Small-talk speed with an in-process GGUF model (`craftmate bench llm --model FILE.gguf`), on
//! one CPU thread, with the weights packed (as in the file) and unpacked to f32 (the default for
//! small models, see `llm::gguf`).
//!
//! The request is what the bot sends in play: the grounded system prompt (who is here, what the
//! bot is doing, what is nearby, the last lines of chat) and a player's line, answered greedily
//! with at most 40 tokens.
//!
//! - `llm_{packed,unpacked}_prompt_tokens` and `_prompt_ms`: reading the prompt.
//! - `_first_token_ms`: from the request to the first answer token (prompt plus one step).
//! - `_reply_ms`: the whole answer; `_decode_tokens_per_s`: the answer's tokens a second.
//! - `_next_prompt_ms`, `_next_first_token_ms`, `_next_reply_ms`: the seventh request of a
//!   conversation (the same grounding, one more line of chat each time), when the model reads
//!   only what its prompt does not share with a start it read before.

use super::Figure;
use crate::llm::{Chat, ChatRequest, GgufChat, GgufOptions, Grounding, LlmError, messages_for};
use std::path::Path;
use std::time::{Duration, Instant};

fn grounding() -> Grounding {
    Grounding {
        bot_name: "craftmate".into(),
        doing: Some("building a red tower at (4, 5, 2)".into()),
        nearby: vec!["the red cube at (-5, 5, -2)".into(), "the sun temple at (1, 5, -9)".into(), "bob at (-10, 5, -2)".into()],
        players: vec!["alice".into(), "bob".into()],
        // lexicon: chat lines a benchmark sends (test data), not word knowledge.
        recent_chat: vec![
            ("alice".into(), "build a red cube".into()),
            ("craftmate".into(), "Okay, building a red cube, 5 by 5 by 5, at (-5, 5, -2).".into()),
            ("bob".into(), "call the tower bob".into()),
            ("craftmate".into(), "Got it: the blue tower is bob.".into()),
        ],
    }
}

pub fn run(model: &Path) -> Result<Vec<Figure>, LlmError> {
    let mut out = Vec::new();
    for (label, unpack_up_to) in [("packed", 0), ("unpacked", crate::llm::gguf::UNPACK_UP_TO)] {
        let options = GgufOptions { temperature: 0.0, max_tokens: 40, unpack_up_to, ..GgufOptions::new(model) };
        let chat = GgufChat::load(options)?;
        let request = ChatRequest {
            messages: messages_for(&grounding(), "what do you like to build around here?"),
            max_tokens: Some(40),
            deadline: Instant::now() + Duration::from_secs(300),
        };
        let start = Instant::now();
        let c = chat.complete(&request)?;
        let reply = start.elapsed();
        let prompt = c.prompt_time.unwrap_or_default();
        let tokens = c.generated_tokens.unwrap_or(0).max(1) as f64;
        let per_token = c.generation_time.as_secs_f64() / tokens;
        let ms = |d: f64| (d * 1e4).round() / 10.0;
        out.push(Figure::new(format!("llm_{label}_prompt_tokens"), c.prompt_tokens.unwrap_or(0) as f64, "tokens"));
        out.push(Figure::new(format!("llm_{label}_prompt_ms"), ms(prompt.as_secs_f64()), "ms"));
        out.push(Figure::new(format!("llm_{label}_first_token_ms"), ms(prompt.as_secs_f64() + per_token), "ms"));
        out.push(Figure::new(format!("llm_{label}_reply_ms"), ms(reply.as_secs_f64()), "ms"));
        out.push(Figure::new(format!("llm_{label}_decode_tokens_per_s"), (10.0 / per_token).round() / 10.0, "tokens/s"));
        // Play goes on: each next line comes with the same grounding and one more line of chat.
        // The start that prompts share (persona, rules, facts) is read once, not every time.
        let mut g = grounding();
        let mut next = None;
        for line in [
            "what is a creeper?",
            "how do I make a furnace?",
            "nice, thanks! what should we build next?",
            "do you like the red cube?",
            "what is your favourite block?",
            "haha ok, see you later",
        ] {
            g.recent_chat.push(("alice".into(), line.into()));
            let request =
                ChatRequest { messages: messages_for(&g, line), max_tokens: Some(40), deadline: Instant::now() + Duration::from_secs(300) };
            let start = Instant::now();
            let c = chat.complete(&request)?;
            next = Some((c, start.elapsed()));
        }
        if let Some((c, reply)) = next {
            let prompt = c.prompt_time.unwrap_or_default().as_secs_f64();
            let per_token = c.generation_time.as_secs_f64() / c.generated_tokens.unwrap_or(0).max(1) as f64;
            out.push(Figure::new(format!("llm_{label}_next_prompt_ms"), ms(prompt), "ms"));
            out.push(Figure::new(format!("llm_{label}_next_first_token_ms"), ms(prompt + per_token), "ms"));
            out.push(Figure::new(format!("llm_{label}_next_reply_ms"), ms(reply.as_secs_f64()), "ms"));
            out.push(Figure::new(format!("llm_{label}_next_reply_tokens"), c.generated_tokens.unwrap_or(0) as f64, "tokens"));
        }
    }
    Ok(out)
}
