//! `craftmate export-learned --memory FILE [--out ROWS]`: the lines players taught the bot (a
//! "did you mean?" answered yes, or amended) as `text|json` rows, the released data's format, so
//! `craftmate train --init models/parser --data ROWS` can fine-tune on them.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use craftmate::logical_form::validate_json;
use craftmate::memory::Memory;

pub fn run(memory: &Path, out: Option<&Path>) -> anyhow::Result<ExitCode> {
    if !memory.exists() {
        anyhow::bail!("{} does not exist", memory.display());
    }
    let m = Memory::open(memory).with_context(|| format!("opening {}", memory.display()))?;
    let mut rows = String::new();
    let mut skipped = 0;
    for l in m.all_learned()? {
        // Only forms that still pass the contract for their text are written.
        match validate_json(&l.text, &l.form) {
            Ok(lf) => rows.push_str(&format!("{}|{}\n", l.text, lf.to_json_value())),
            Err(_) => skipped += 1,
        }
    }
    let n = rows.lines().count();
    match out {
        Some(path) => {
            std::fs::write(path, &rows).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("{n} taught lines written to {}", path.display());
        }
        None => print!("{rows}"),
    }
    if skipped > 0 {
        eprintln!("{skipped} taught lines left out: their forms no longer validate");
    }
    Ok(ExitCode::SUCCESS)
}
