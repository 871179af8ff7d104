//! Numbers as players type them: digits ("12", "-3", "2.5"), words ("ten", "twenty five",
//! "a hundred and five") and the vague quantities chat is full of ("a couple", "a few", "a dozen").
//!
//! Values saturate instead of overflowing: an absurd number must become a polite refusal later,
//! never a crash here.

/// Largest magnitude kept; anything bigger is refused downstream anyway.
const CAP: i64 = 1_000_000_000_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    Unit(i64),
    Teen(i64),
    Tens(i64),
    Hundred,
    Thousand,
    Dozen,
}

#[rustfmt::skip]
const UNITS: [&str; 10] = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
#[rustfmt::skip]
const TEENS: [&str; 10] = [
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
];
const TENS: [&str; 8] = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

fn word(w: &str) -> Option<Word> {
    if let Some(i) = UNITS.iter().position(|u| *u == w) {
        return Some(Word::Unit(i as i64));
    }
    if let Some(i) = TEENS.iter().position(|u| *u == w) {
        return Some(Word::Teen(10 + i as i64));
    }
    if let Some(i) = TENS.iter().position(|u| *u == w) {
        return Some(Word::Tens(20 + 10 * i as i64));
    }
    match w {
        "hundred" => Some(Word::Hundred),
        "thousand" => Some(Word::Thousand),
        "dozen" => Some(Word::Dozen),
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

/// Number words from `tokens[i]` on, greedily, as one number ("two hundred and five" = 205,
/// "twenty five" = 25). Stops at the first word that cannot continue the number, so "five three"
/// is 5 followed by something else. Returns the value and how many tokens it used.
fn number_words(tokens: &[String], i: usize) -> Option<(i64, usize)> {
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
    while let Some(t) = tokens.get(j) {
        let next = word(t);
        match (next, last) {
            (Some(Word::Unit(u)), Last::Nothing | Last::Tens | Last::Scale) => {
                current += u;
                last = Last::Unit;
            }
            (Some(Word::Teen(v) | Word::Tens(v)), Last::Nothing | Last::Scale) => {
                current += v;
                last = if v < 20 { Last::Teen } else { Last::Tens };
            }
            (Some(Word::Hundred), _) if current % 100 != 0 || last == Last::Nothing => {
                // "hundred" multiplies what came since the last hundred ("two hundred"), or is
                // 100 on its own ("a hundred").
                let below = current % 100;
                current = current - below + below.max(1) * 100;
                last = Last::Scale;
            }
            (Some(Word::Thousand), _) => {
                total = total.saturating_add(current.max(1).saturating_mul(1000)).min(CAP);
                current = 0;
                last = Last::Scale;
            }
            (Some(Word::Dozen), _) => {
                current = current.max(1).saturating_mul(12).min(CAP);
                last = Last::Scale;
            }
            (None, Last::Scale) if t == "and" && tokens.get(j + 1).and_then(|n| word(n)).is_some() => {}
            _ => break,
        }
        j += 1;
        if t != "and" {
            used = j - i;
        }
    }
    (used > 0).then(|| ((total + current).min(CAP), used))
}

/// Reads the number that starts at `tokens[i]` (already lower-case), if one does, and how many
/// tokens it spans. Handles digits, number words, "minus …", "a couple (of)", "a few", "a dozen",
/// "a hundred".
pub fn read_number(tokens: &[String], i: usize) -> Option<(i64, usize)> {
    let t = tokens.get(i)?.as_str();
    if let Some(v) = digits(t) {
        return Some((v, 1));
    }
    let of = |k: usize| usize::from(tokens.get(k).is_some_and(|w| w == "of"));
    match t {
        "minus" | "negative" => read_number(tokens, i + 1).map(|(v, n)| (-v, n + 1)),
        "couple" | "pair" => Some((2, 1 + of(i + 1))),
        "few" => Some((3, 1 + of(i + 1))),
        "a" | "an" => match tokens.get(i + 1).map(String::as_str) {
            Some("couple" | "pair") => Some((2, 2 + of(i + 2))),
            Some("few") => Some((3, 2 + of(i + 2))),
            Some("hundred" | "thousand" | "dozen") => number_words(tokens, i + 1).map(|(v, n)| (v, n + 1)),
            _ => None,
        },
        _ => number_words(tokens, i),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(i64, usize)> {
        let tokens: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        read_number(&tokens, 0)
    }

    #[test]
    fn digits_and_words() {
        assert_eq!(read("12 wide"), Some((12, 1)));
        assert_eq!(read("-3"), Some((-3, 1)));
        assert_eq!(read("2.5"), Some((3, 1)));
        assert_eq!(read("1,000"), Some((1000, 1)));
        assert_eq!(read("ten blocks"), Some((10, 1)));
        assert_eq!(read("zero"), Some((0, 1)));
        assert_eq!(read("twenty five high"), Some((25, 2)));
        assert_eq!(read("twenty"), Some((20, 1)));
        assert_eq!(read("two hundred and five"), Some((205, 4)));
        assert_eq!(read("a hundred"), Some((100, 2)));
        assert_eq!(read("one hundred twenty"), Some((120, 3)));
        assert_eq!(read("three thousand"), Some((3000, 2)));
        assert_eq!(read("minus five"), Some((-5, 2)));
    }

    #[test]
    fn vague_quantities() {
        assert_eq!(read("a couple of blocks"), Some((2, 3)));
        assert_eq!(read("a few"), Some((3, 2)));
        assert_eq!(read("a dozen"), Some((12, 2)));
        assert_eq!(read("two dozen"), Some((24, 2)));
    }

    #[test]
    fn not_numbers_and_stops() {
        assert_eq!(read("a"), None);
        assert_eq!(read("a tower"), None);
        assert_eq!(read("wide"), None);
        assert_eq!(read("five three"), Some((5, 1)));
        assert_eq!(read("twenty and"), Some((20, 1)));
        assert_eq!(read("-"), None);
        assert_eq!(read("99999999999999999999999"), Some((CAP, 1)));
    }
}
