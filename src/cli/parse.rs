//! `craftmate parse "chat"`: print the logical form the parser reads from one chat line, and its
//! confidence.

use std::path::Path;
use std::process::ExitCode;

use craftmate::parser::Parser;

pub fn run(text: &str, model: Option<&Path>, beam: Option<usize>) -> anyhow::Result<ExitCode> {
    let parser = super::load_parser(model, beam)?;
    let parsed = parser.parse(text);
    println!("{}", serde_json::to_string_pretty(&parsed.lf.to_json_value())?);
    println!("confidence: {:.3}", parsed.confidence);
    Ok(ExitCode::SUCCESS)
}
