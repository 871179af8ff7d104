//! Several things said in one line. Questions: "where are you and what are you doing", "how far
//! is the red tower? how tall is it?" — players ask two things at once; each is read and
//! answered on its own, in order, so the second is never lost. A remark before a request: "ngl
//! that wall is ugly, tear it down" — the request is the last sentence. Only the cut is made
//! here (at a question mark, or at a joining word such as "and" before a word that opens a
//! question; at the last mark between sentences); whether every part really is a question, or
//! the last one a request, is the dialogue's to check, with each part's reading.

use super::rules::{Rule, on};
use crate::lexicon::{Class, lexicon};
use crate::logical_form::normalize;

/// The parts of `chat` when it reads as several questions: two or more, each opening with a
/// question word (`[question_openings]`); `None` otherwise.
pub fn questions(chat: &str) -> Option<Vec<String>> {
    if !on(Rule::SeveralQuestions) {
        return None;
    }
    let lx = lexicon();
    // A question opens with a question word, after any greeting or filler ("hey where r u").
    let opens = |part: &[&str]| {
        let mut k = 0;
        while let Some(n) = [Class::Greeting, Class::Opening, Class::Filler].into_iter().find_map(|c| lx.phrase_at(c, part, k)) {
            k += n;
        }
        part.get(k).is_some_and(|w| lx.is(Class::QuestionOpening, w)).then_some(k)
    };
    let mut parts: Vec<String> = Vec::new();
    for piece in chat.split('?') {
        let text = normalize(piece);
        let words: Vec<&str> = text.split_whitespace().collect();
        // "… and how tall is it", "… also what is it made of": a new question starts after a
        // joining word (`[question_joints]`).
        let mut start = 0;
        let mut k = 1;
        while k < words.len() {
            match lx.phrase_at(Class::QuestionJoint, &words, k) {
                Some(n) if opens(&words[k + n..]).is_some() => {
                    parts.push(words[start..k].join(" "));
                    start = k + n;
                    k += n;
                }
                _ => k += 1,
            }
        }
        if start < words.len() {
            parts.push(words[start..].join(" "));
        }
    }
    // Each question without the greeting before it: "hey" is no part of "where r u".
    let asked: Option<Vec<String>> = parts
        .iter()
        .map(|p| {
            let words: Vec<&str> = p.split_whitespace().collect();
            opens(&words).map(|k| words[k..].join(" "))
        })
        .collect();
    asked.filter(|a| a.len() > 1)
}

/// The last sentence of `chat` when it opens (after any small opening) with a verb that starts
/// a step, and something was said before it: "ngl that wall is ugly, tear it down" → "tear it
/// down". `prepare` is understanding's step 1, so shorthand counts ("gimme 3" opens with
/// "give").
pub fn request_after_remark<'a>(chat: &'a str, prepare: impl Fn(&str) -> String, is_name: impl Fn(&str) -> bool) -> Option<(&'a str, String)> {
    if !on(Rule::RequestAfterRemark) {
        return None;
    }
    let lx = lexicon();
    let cut = chat.trim_end_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace()).rfind([',', '.', '?', '!', ';'])?;
    let (before, last) = (&chat[..cut], chat[cut + 1..].trim());
    if normalize(before).is_empty() || last.is_empty() {
        return None;
    }
    let prepared = prepare(last);
    let words: Vec<&str> = prepared.split_whitespace().collect();
    let mut k = 0;
    while let Some(n) = [Class::Opening, Class::Request, Class::Filler, Class::Politeness].into_iter().find_map(|c| lx.phrase_at(c, &words, k)) {
        k += n;
    }
    // "(would you) mind digging a hole for me?": a request may open with the verb's other forms.
    let verb = |w: &str| lx.is(Class::StepVerb, w) || lx.is(Class::CommandStart, w) || lx.verb(w).is_some();
    if !words.get(k).is_some_and(|w| verb(w)) {
        return None;
    }
    // "hmm sunny looks ugly, can you turn it black": "it" is the one thing the remark names.
    let named: Vec<String> = normalize(before).split_whitespace().filter(|w| is_name(w)).map(String::from).collect();
    let mut said: Vec<String> = normalize(last).split_whitespace().map(String::from).collect();
    let back = said.iter().position(|w| lx.is(Class::PointingBack, w));
    match (named.as_slice(), back) {
        ([name], Some(i)) if !said.contains(name) => {
            said[i] = name.clone();
            Some((before, said.join(" ")))
        }
        _ => Some((before, last.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_questions_are_cut_at_and_or_a_question_mark() {
        assert_eq!(questions("where are you and what are you doing").unwrap(), ["where are you", "what are you doing"]);
        assert_eq!(questions("How far is the red tower? how tall is it?").unwrap(), ["how far is the red tower", "how tall is it"]);
        assert_eq!(questions("hey where r u? r u busy?").unwrap(), ["where r u", "r u busy"]);
        // One question, or a question and a command, is not cut.
        assert_eq!(questions("what is the red tower and the blue tower made of"), None);
        assert_eq!(questions("where are you"), None);
        assert_eq!(questions("build a tower and where are you"), None);
    }

    #[test]
    fn a_request_after_a_remark_is_the_last_sentence() {
        let same = |t: &str| normalize(t);
        let last = |chat: &str| request_after_remark(chat, same, |_| false).map(|(_, l)| l);
        assert_eq!(last("ngl that wall is ugly, tear it down").as_deref(), Some("tear it down"));
        assert_eq!(last("i'm bored. ok now build a red tower!!").as_deref(), Some("ok now build a red tower!!"));
        // Spaces after the request are no part of either side.
        assert_eq!(request_after_remark("ugh, build ñ     ", same, |_| false), Some(("ugh", "build ñ".to_string())));
        assert_eq!(last("that wall is ugly"), None);
        assert_eq!(last("nice, thanks"), None);
        assert_eq!(last(", build a tower"), None);
        // The one thing the remark names is the request's "it".
        let sunny = |w: &str| w == "sunny";
        assert_eq!(request_after_remark("hmm sunny looks ugly, can you turn it black", same, sunny).map(|(_, l)| l).as_deref(), Some("can you turn sunny black"));
    }
}
