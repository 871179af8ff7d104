//! Numbers as players type them: digits ("12", "-3", "2.5"), words ("ten", "twenty five",
//! "twenty-five", "a hundred and five") and the vague quantities chat is full of ("a couple",
//! "a few", "a dozen", "a stack"). The one number reader: the words and their values are the
//! lexicon's (`[numbers]`, `[number_scales]`, `[number_multiples]`, `[quantities]`).
//!
//! Values saturate instead of overflowing: an absurd number must become a polite refusal later,
//! never a crash here.

use super::{Class, Lexicon, Values};

/// Largest magnitude kept; anything bigger is refused downstream anyway.
pub(crate) const CAP: i64 = 1_000_000_000_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    /// 0–9 (and "single").
    Unit(i64),
    /// 10–19.
    Teen(i64),
    /// 20, 30, … 90.
    Tens(i64),
    /// "twenty-five", one hyphenated word.
    Compound(i64),
    /// A scale below a thousand ("hundred"): multiplies what came since the last one.
    Hundred(i64),
    /// A scale of a thousand or more: closes a group.
    Big(i64),
    /// "dozen", "stack": multiplies the number before.
    Multiple(i64),
}

fn word(lx: &Lexicon, w: &str) -> Option<Word> {
    if let Some(v) = lx.value(Values::Number, w) {
        let v = v as i64;
        return Some(match v {
            0..=9 => Word::Unit(v),
            10..=19 => Word::Teen(v),
            _ => Word::Tens(v),
        });
    }
    if let Some(v) = lx.value(Values::Scale, w) {
        let v = v as i64;
        return Some(if v < 1000 { Word::Hundred(v) } else { Word::Big(v) });
    }
    if let Some(v) = lx.value(Values::Multiple, w) {
        return Some(Word::Multiple(v as i64));
    }
    let (tens, unit) = w.split_once('-')?;
    match (word(lx, tens)?, word(lx, unit)?) {
        (Word::Tens(t), Word::Unit(u)) if u > 0 => Some(Word::Compound(t + u)),
        _ => None,
    }
}

/// A token written in digits: "12", "-3", "+4", "2.5" (rounded), "1,000".
fn digits(t: &str) -> Option<i64> {
    let t = t.replace(',', "");
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(&t)),
    };
    if body.is_empty() || !body.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let value = if body.chars().all(|c| c.is_ascii_digit()) {
        // Too many digits to fit is simply "very large".
        body.parse::<i64>().unwrap_or(CAP).min(CAP)
    } else {
        let f: f64 = body.parse().ok()?;
        if !f.is_finite() {
            return None;
        }
        f.round().min(CAP as f64) as i64
    };
    Some(if negative { -value } else { value })
}

/// Number words from `words[i]` on, greedily, as one number ("two hundred and five" = 205,
/// "twenty five" = 25). Stops at the first word that cannot continue the number, so "five three"
/// is 5 followed by something else. Returns the value and how many words it used.
fn number_words<S: AsRef<str>>(lx: &Lexicon, words: &[S], i: usize) -> Option<(i64, usize)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Last {
        Nothing,
        Unit,
        Teen,
        Tens,
        Scale,
    }
    let (mut total, mut current, mut last, mut used) = (0i64, 0i64, Last::Nothing, 0usize);
    let mut j = i;
    while let Some(t) = words.get(j).map(AsRef::as_ref) {
        match (word(lx, t), last) {
            (Some(Word::Unit(u)), Last::Nothing | Last::Tens | Last::Scale) => {
                current += u;
                last = Last::Unit;
            }
            (Some(Word::Compound(v)), Last::Nothing | Last::Scale) => {
                current += v;
                last = Last::Unit;
            }
            (Some(Word::Teen(v) | Word::Tens(v)), Last::Nothing | Last::Scale) => {
                current += v;
                last = if v < 20 { Last::Teen } else { Last::Tens };
            }
            (Some(Word::Hundred(h)), _) if current % h != 0 || last == Last::Nothing => {
                // "hundred" multiplies what came since the last hundred ("two hundred"), or is
                // 100 on its own ("a hundred").
                let below = current % h;
                current = current - below + below.max(1) * h;
                last = Last::Scale;
            }
            (Some(Word::Big(v)), _) => {
                total = total.saturating_add(current.max(1).saturating_mul(v)).min(CAP);
                current = 0;
                last = Last::Scale;
            }
            (Some(Word::Multiple(m)), _) => {
                current = current.max(1).saturating_mul(m).min(CAP);
                last = Last::Scale;
            }
            (None, Last::Scale) if t == "and" && words.get(j + 1).and_then(|n| word(lx, n.as_ref())).is_some() => {}
            _ => break,
        }
        j += 1;
        if t != "and" {
            used = j - i;
        }
    }
    (used > 0).then(|| ((total + current).min(CAP), used))
}

/// The number that starts at `words[i]`, if one does, and how many words it spans.
pub(super) fn read<S: AsRef<str>>(lx: &Lexicon, words: &[S], i: usize) -> Option<(i64, usize)> {
    let t = words.get(i)?.as_ref();
    if let Some(v) = digits(t) {
        // "2 stacks", "3 dozen": a counting word multiplies the digits before it.
        return Some(match words.get(i + 1).and_then(|w| word(lx, &w.as_ref().to_lowercase())) {
            Some(Word::Multiple(m)) => (v.saturating_mul(m).min(CAP), 2),
            _ => (v, 1),
        });
    }
    let t = t.to_lowercase();
    if lx.is(Class::Negative, &t) {
        return read(lx, words, i + 1).map(|(v, n)| (-v, n + 1));
    }
    // "a couple (of)", "a few", "half a stack"; "a couple (of) stacks" multiplies.
    if let Some((v, n)) = lx.value_at(Values::Quantity, words, i) {
        let of = usize::from(words.get(i + n).is_some_and(|w| w.as_ref() == "of"));
        let v = v as i64;
        return Some(match words.get(i + n + of).and_then(|w| word(lx, &w.as_ref().to_lowercase())) {
            Some(Word::Multiple(m)) => (v.saturating_mul(m).min(CAP), n + of + 1),
            _ => (v, n + of),
        });
    }
    // "a hundred", "a dozen", "a stack"
    if lx.is(Class::Indefinite, &t) {
        let next = words.get(i + 1).and_then(|w| word(lx, w.as_ref()));
        return match next {
            Some(Word::Hundred(_) | Word::Big(_) | Word::Multiple(_)) => {
                number_words(lx, words, i + 1).map(|(v, n)| (v, n + 1))
            }
            _ => None,
        };
    }
    number_words(lx, words, i)
}

/// The position an ordinal names: "third" → 3, "3rd" → 3.
pub(super) fn ordinal(lx: &Lexicon, word: &str) -> Option<i64> {
    let w = word.trim().to_lowercase();
    if let Some(v) = lx.value(Values::Ordinal, &w) {
        return Some(v as i64);
    }
    lx.words(Class::OrdinalSuffix)
        .iter()
        .find_map(|s| w.strip_suffix(s.as_str()))
        .and_then(|d| d.parse::<u32>().ok())
        .map(i64::from)
}
