//! `craftmate-lab rules`: what each hand-written rule of understanding still adds over the
//! parser. Every suite runs once as shipped and once per rule with that rule switched off
//! (`craftmate scenario --say-only --rules-off RULE`); a rule whose absence costs no scenario in
//! any suite is one the model has made unnecessary.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::Context;
use craftmate::understanding::rules::Rule;

#[derive(clap::Args)]
pub struct Args {
    /// The craftmate binary to run (a release build).
    #[arg(long, default_value = "target/release/craftmate")]
    pub craftmate: PathBuf,
    /// Scenario folders, each counted on its own.
    #[arg(long, num_args = 1.., default_values = ["tests/scenarios/phrasings/dev", "tests/scenarios/conversation", "tests/scenarios/actions", "tests/scenarios/dialogue"])]
    pub suites: Vec<PathBuf>,
    /// Parser model directory (default: the one shipped in the binary).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Measure only these rules (default: every one).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
}

/// Scenarios passed in `suite` with `off` switched off.
fn passed(args: &Args, suite: &Path, off: Option<Rule>) -> anyhow::Result<usize> {
    let craftmate = &args.craftmate;
    let mut command = Command::new(craftmate);
    command.args(["scenario", "--say-only"]).arg(suite);
    if let Some(model) = &args.model {
        command.arg("--model").arg(model);
    }
    if let Some(rule) = off {
        command.arg("--rules-off").arg(rule.name());
    }
    let out = command.output().with_context(|| format!("running {}", craftmate.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().rev().find(|l| l.contains(" passed, ")).with_context(|| format!("no tally from {}: {stdout}", suite.display()))?;
    last.split_whitespace().next().and_then(|n| n.parse().ok()).with_context(|| format!("no count in {last:?}"))
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let rules: Vec<Rule> = if args.only.is_empty() {
        Rule::ALL.to_vec()
    } else {
        args.only.iter().map(|n| Rule::named(n).with_context(|| format!("no rule called {n}"))).collect::<anyhow::Result<_>>()?
    };
    let names: Vec<String> = args.suites.iter().map(|s| s.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())).collect();
    let with: Vec<usize> = args.suites.iter().map(|s| passed(args, s, None)).collect::<anyhow::Result<_>>()?;
    println!("| rule | {} | verdict |", names.join(" | "));
    println!("|---|{}---|", "---:|".repeat(names.len()));
    println!("| (all rules on) | {} | |", with.iter().map(usize::to_string).collect::<Vec<_>>().join(" | "));
    for rule in rules {
        let without: Vec<usize> = args.suites.iter().map(|s| passed(args, s, Some(rule))).collect::<anyhow::Result<_>>()?;
        let lost: usize = with.iter().zip(&without).map(|(w, o)| w.saturating_sub(*o)).sum();
        let cells: Vec<String> = with.iter().zip(&without).map(|(w, o)| if o == w { o.to_string() } else { format!("{o} ({:+})", *o as i64 - *w as i64) }).collect();
        let verdict = if lost == 0 { "unneeded" } else { "kept" };
        println!("| {} | {} | {verdict} |", rule.name(), cells.join(" | "));
    }
    Ok(ExitCode::SUCCESS)
}
