//! `craftmate-lab habits [--data FILE] [--block N] [DUMP …]`: how the annotators' habit of
//! writing `text_span` changes through the annotated file, and how a parser's exact match on
//! held-out rows follows it.
//!
//! The file is ordered by annotation batch. The early batches give a thing, a schematic and a
//! location their `text_span` most of the time; from about row 6,200 locations almost never have
//! one, and from about row 8,600 nothing does. A parser learns the early habit (most rows, and
//! the one the interpreter reads: it names things by their spans), so exact match on the late
//! rows, which are most of held-out rows 501–979, measures that habit as much as understanding.
//! The table per block of rows makes that visible; each `eval-parser --dump` given adds its
//! exact match (and exact match ignoring `text_span`) on the held-out rows of each block.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use serde_json::Value;

// The command's options (its help text is the `Habits` command's doc in main.rs).
#[derive(clap::Args)]
pub struct Args {
    /// Annotated commands (`text|json` or `id|text|json`), in file order.
    #[arg(long, default_value = "../shared/data/annotated.txt")]
    pub data: PathBuf,
    /// Rows a block.
    #[arg(long, default_value_t = 1000)]
    pub block: usize,
    /// `craftmate eval-parser --dump` files whose exact match to show per block.
    #[arg(value_name = "DUMP")]
    pub dumps: Vec<PathBuf>,
}

/// The keys whose `text_span` habit is counted.
const KEYS: [&str; 3] = ["reference_object", "schematic", "location"];

/// Whether each object under one of [`KEYS`] has a `text_span`, anywhere in `form`.
fn spans(form: &Value, out: &mut Vec<(usize, bool)>) {
    match form {
        Value::Object(map) => {
            for (key, value) in map {
                if let (Some(k), Value::Object(inner)) = (KEYS.iter().position(|k| k == key), value) {
                    out.push((k, inner.contains_key("text_span")));
                }
                spans(value, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| spans(v, out)),
        _ => {}
    }
}

/// Per block: how many objects of each key, and how many with a `text_span`.
type Block = [(usize, usize); 3];

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.block > 0, "--block must be at least 1");
    let rows = craftmate::logical_form::load_rows(&args.data).with_context(|| format!("reading {}", args.data.display()))?;
    let n_blocks = rows.len().div_ceil(args.block);
    let mut blocks: Vec<Block> = vec![[(0, 0); 3]; n_blocks];
    // A held-out row's block is where its text first occurs (the split is by unique text).
    let mut first: HashMap<String, usize> = HashMap::new();
    for (i, row) in rows.iter().enumerate() {
        first.entry(row.text.to_lowercase()).or_insert(i / args.block);
        let form: Value = serde_json::from_str(&row.json).with_context(|| format!("line {}", row.line))?;
        let mut found = Vec::new();
        spans(&form, &mut found);
        for (k, has) in found {
            blocks[i / args.block][k].0 += 1;
            blocks[i / args.block][k].1 += usize::from(has);
        }
    }
    let dumps: Vec<Vec<[usize; 3]>> = args.dumps.iter().map(|d| per_block(d, &first, n_blocks)).collect::<anyhow::Result<_>>()?;
    print!("| rows | with text_span: thing | schematic | location |");
    args.dumps.iter().for_each(|d| print!(" {}: held out, exact, ignoring text_span |", d.display()));
    println!();
    println!("|---|---:|---:|---:|{}", "---:|".repeat(args.dumps.len()));
    for (b, block) in blocks.iter().enumerate() {
        let share = |(n, with): (usize, usize)| if n == 0 { "–".to_string() } else { format!("{:.0} %", 100.0 * with as f64 / n as f64) };
        let end = ((b + 1) * args.block).min(rows.len());
        print!("| {}–{} | {} | {} | {} |", b * args.block + 1, end, share(block[0]), share(block[1]), share(block[2]));
        for dump in &dumps {
            let [n, exact, ignoring] = dump[b];
            let pct = |k: usize| if n == 0 { "–".to_string() } else { format!("{:.0} %", 100.0 * k as f64 / n as f64) };
            print!(" {n}, {}, {} |", pct(exact), pct(ignoring));
        }
        println!();
    }
    Ok(ExitCode::SUCCESS)
}

/// A dump's rows per block: how many, exactly right, right ignoring `text_span`.
fn per_block(dump: &Path, first: &HashMap<String, usize>, n_blocks: usize) -> anyhow::Result<Vec<[usize; 3]>> {
    let text = std::fs::read_to_string(dump).with_context(|| format!("reading {}", dump.display()))?;
    let mut out = vec![[0usize; 3]; n_blocks];
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).with_context(|| format!("{} line {}", dump.display(), i + 1))?;
        let said = record["text"].as_str().unwrap_or_default().to_lowercase();
        let Some(&b) = first.get(&said) else { anyhow::bail!("{} line {}: {said:?} is not in the annotated file", dump.display(), i + 1) };
        out[b][0] += 1;
        out[b][1] += usize::from(record["correct"].as_bool().unwrap_or(false));
        out[b][2] += usize::from(record["correct_ignoring_text_spans"].as_bool().unwrap_or(false));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_thing_schematic_and_location_is_counted_with_or_without_its_span() {
        let form: Value = serde_json::from_str(
            r#"{"action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": [0, [2, 2]]},
                "location": {"reference_object": {"filters": {}}, "relative_direction": "UP"}}]}"#,
        )
        .unwrap();
        let mut found = Vec::new();
        spans(&form, &mut found);
        found.sort();
        assert_eq!(found, [(0, false), (1, true), (2, false)]);
    }
}
