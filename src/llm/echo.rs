//! Dropping what a small language model says that is not an answer: its instructions repeated
//! back. Small models (SmolLM2-135M and the like) often echo the system prompt ("You are a special
//! helper bot inside a Minecraft world.") or write stage directions ("(make it up)", "*waves*",
//! "[smiles]"); a companion that says its rules aloud breaks the game for everyone (Mindcraft
//! #96 shows the same failure).
//!
//! So, before the reply is cleaned for chat: bracketed asides and `*actions*` are cut out, and
//! a sentence is dropped when it shares a run of [`ECHO_WORDS`] words with the prompt, or
//! speaks of the bot in the prompt's second person ("You are … bot …", the lexicon's
//! `[bot_words]`).

/// A run of this many words in a row, the same in a sentence and in the prompt, makes the
/// sentence an echo: four words of plain chat rarely line up with the prompt's by chance.
pub const ECHO_WORDS: usize = 4;

/// `raw` without stage directions and without the sentences that echo `prompt`.
pub fn without_echo(raw: &str, prompt: &str) -> String {
    let text = without_asides(raw);
    let prompt_words = words(prompt);
    let runs: std::collections::HashSet<&[String]> = prompt_words.windows(ECHO_WORDS).collect();
    let mut kept = Vec::new();
    for sentence in sentences(&text) {
        let w = words(sentence);
        let echoes = w.windows(ECHO_WORDS).any(|run| runs.contains(run));
        let self_talk = w.first().is_some_and(|f| f == "you")
            && w.get(1).is_some_and(|s| s == "are")
            && w.iter().any(|x| crate::lexicon::lexicon().is(crate::lexicon::Class::BotWords, x));
        if !echoes && !self_talk {
            kept.push(sentence.trim());
        }
    }
    kept.join(" ")
}

/// The text with its closed `( … )`, `[ … ]` and `* … *` asides cut out; an opening mark with
/// no closing one is plain text.
fn without_asides(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['(', '[', '*']) {
        let open = rest[at..].chars().next().unwrap_or('(');
        let close = match open {
            '(' => ')',
            '[' => ']',
            _ => '*',
        };
        match rest[at + 1..].find(close) {
            Some(len) => {
                out.push_str(&rest[..at]);
                rest = &rest[at + 1 + len + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// Sentences, each with its end marks ("..." and "?!" end one sentence).
fn sentences(text: &str) -> Vec<&str> {
    let end = |c: char| matches!(c, '.' | '!' | '?' | '…');
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if end(c) && !chars.peek().is_some_and(|&(_, n)| end(n)) {
            let stop = i + c.len_utf8();
            out.push(&text[start..stop]);
            start = stop;
        }
    }
    if !text[start..].trim().is_empty() {
        out.push(&text[start..]);
    }
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

/// Lowercase words, letters and digits only.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROMPT: &str = "You are craftmate, a friendly helper bot inside a Minecraft world, chatting with players in game chat. \
        Only the facts below are known about this world. If asked about anything else in this world, say that you are not sure; never make it up.";

    #[test]
    fn instructions_and_stage_directions_are_dropped() {
        // What SmolLM2-135M said, from the reproductions.
        assert_eq!(without_echo("What to build next... (make it up) I'm not sure… (tell it a story…) (leave it like that)", PROMPT), "What to build next... I'm not sure…");
        assert_eq!(without_echo("You are a special helper bot inside a Minecraft world. Let's build!", PROMPT), "Let's build!");
        assert_eq!(without_echo("Sure! Only the facts below are known about this world.", PROMPT), "Sure!");
        assert_eq!(without_echo("*waves* Hi there! [smiles]", PROMPT), "Hi there!");
        assert_eq!(without_echo("a [ with no end", PROMPT), "a [ with no end");
    }

    #[test]
    fn a_plain_answer_is_kept() {
        let answer = "A furnace takes eight cobblestone. You are doing great!";
        assert_eq!(without_echo(answer, PROMPT), answer);
        assert_eq!(without_echo("", PROMPT), "");
    }
}
