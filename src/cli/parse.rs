//! `craftmate parse "chat"`: print the logical form the bot reads from one chat line — through
//! the whole understanding path (typos, known lines, the parser, sequences, measures), or the
//! network alone with `--raw` — and its confidence; `--explain` lists the network's decisions
//! that confidence is made of, so a researcher can see which one made the bot ask back.

use std::path::Path;
use std::process::ExitCode;

use craftmate::logical_form::tokenize;
use craftmate::parser::Parser;
use craftmate::parser::decode::Choice;
use craftmate::understanding::Understanding;

pub fn run(text: &str, model: Option<&Path>, beam: Option<usize>, explain: bool, raw: bool) -> anyhow::Result<ExitCode> {
    let parser = super::load_parser(model, beam)?;
    if !raw {
        let parsed = parser.parse(text);
        let understanding = Understanding::new(Some(Box::new(parser)));
        if let Some(r) = understanding.read(text) {
            println!("{}", serde_json::to_string_pretty(&r.lf.to_json_value())?);
            println!("read as: {:?}", r.text);
            println!("from: {:?}{}", r.source, if r.fixes.is_empty() { String::new() } else { format!(", typos fixed: {:?}", r.fixes) });
            println!("confidence: {:.3}", r.confidence);
            if explain {
                println!("the network alone on the line as typed (confidence {:.3}):", parsed.confidence);
                print!("{}", explanation(&tokenize(text), &parsed.choices));
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let parsed = parser.parse(text);
    println!("{}", serde_json::to_string_pretty(&parsed.lf.to_json_value())?);
    println!("confidence: {:.3}", parsed.confidence);
    if explain {
        print!("{}", explanation(&tokenize(text), &parsed.choices));
    }
    Ok(ExitCode::SUCCESS)
}
/// The choices, least sure first (ties in decoding order), one a line: probability, then the
/// token (and, when unsure, the likeliest token against it) or the quoted words of a span.
fn explanation(words: &[String], choices: &[Choice]) -> String {
    if choices.is_empty() {
        return "no decoder choices (an exact-match or fallback parse)\n".to_string();
    }
    let mut order: Vec<&Choice> = choices.iter().collect();
    order.sort_by(|a, b| a.log_prob.total_cmp(&b.log_prob));
    let mut out = format!("{} choices, least sure first:\n", choices.len());
    for c in order {
        let what = match c.words {
            Some((a, b)) => {
                let picked = words.get(a..=b.min(words.len().saturating_sub(1))).unwrap_or_default().join(" ");
                format!("span {a}..{b} \"{picked}\"")
            }
            None => match &c.rival {
                // The doubt is worth seeing only where there was one.
                Some(r) if c.log_prob.exp() < 0.99 => format!("{} (against {r})", c.token),
                _ => c.token.clone(),
            },
        };
        out.push_str(&format!("  {:>6.3}  {what}\n", c.log_prob.exp()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_sure_choice_comes_first_and_spans_show_their_words() {
        let words = tokenize("build a red cube");
        let choices = [
            Choice { token: "v:BUILD".into(), words: None, log_prob: 0.9f32.ln(), rival: None },
            Choice { token: "<span>".into(), words: Some((2, 3)), log_prob: 0.5f32.ln(), rival: None },
        ];
        let text = explanation(&words, &choices);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "2 choices, least sure first:");
        assert!(lines[1].contains("0.500") && lines[1].contains("span 2..3 \"red cube\""), "{text}");
        assert!(lines[2].contains("0.900") && lines[2].contains("v:BUILD"), "{text}");
        // A span past the words (a malformed choice) prints without panicking.
        let odd = [Choice { token: "<span>".into(), words: Some((7, 9)), log_prob: 0.0, rival: None }];
        assert!(explanation(&words, &odd).contains("span 7..9 \"\""));
        assert!(explanation(&words, &[]).contains("no decoder choices"));
    }
}
