//! `craftmate check-data FILE`: check annotated commands against the logical-form contract.

use anyhow::Context;
use std::path::Path;
use std::process::ExitCode;

pub fn run(file: &Path) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let summary = craftmate::logical_form::check::check_file(file, &mut out)
        .with_context(|| format!("checking {}", file.display()))?;
    Ok(if summary.errors > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
