//! Two parsers compared row by row on the same rows: how many each gets right that the other gets
//! wrong, and whether that difference could be chance (McNemar's exact test).
//!
//! Overall accuracies hide how much two models disagree. Two networks trained from different seeds
//! typically trade 15–25 validation rows each way, so a model that scores five rows higher may be
//! no better at all. McNemar's test looks only at the rows where exactly one of the two is right: if
//! both models were equally good, each such row would be equally likely to fall on either side, so
//! the count on one side is binomial with p = ½. The exact two-sided p-value is the chance of a
//! split at least as lopsided as the one seen. Small p (say under 0.05): the difference is
//! unlikely to be chance. Large p: the rows cannot tell the two models apart.
//!
//! Both models' parses come from `craftmate eval-parser --dump` files (one JSON object a line,
//! with at least `text` and `correct`), so any earlier run can be the baseline:
//! `craftmate-lab compare NEW.jsonl OLD.jsonl`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

use craftmate::parser::{ParserError, Result};

/// How two parsers fared on the same rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Comparison {
    pub both: usize,
    /// Right here, wrong in the other.
    pub only_this: usize,
    /// Right in the other, wrong here.
    pub only_other: usize,
    pub neither: usize,
}

impl Comparison {
    /// Compares two runs over the same rows in the same order (each a text and whether it was
    /// parsed right); an error if the rows differ, since then the counts would mean nothing.
    pub fn of(this: &[(String, bool)], other: &[(String, bool)]) -> Result<Self> {
        same_rows(this.iter().map(|(text, _)| text.as_str()), other)?;
        let mut c = Comparison::default();
        for ((_, here), (_, there)) in this.iter().zip(other) {
            match (here, there) {
                (true, true) => c.both += 1,
                (true, false) => c.only_this += 1,
                (false, true) => c.only_other += 1,
                (false, false) => c.neither += 1,
            }
        }
        Ok(c)
    }

    pub fn rows(&self) -> usize {
        self.both + self.only_this + self.only_other + self.neither
    }

    /// McNemar's exact two-sided p-value: the chance, were both parsers equally good, that the
    /// rows only one of them gets right split at least this unevenly. 1 when they never disagree.
    pub fn p_value(&self) -> f64 {
        let n = self.only_this + self.only_other;
        let k = self.only_this.min(self.only_other);
        // P(X ≤ k) for X ~ Binomial(n, ½), summed in log space: 2⁻ⁿ underflows past n ≈ 1,070.
        let mut log_pmf = -(n as f64) * std::f64::consts::LN_2;
        let mut tail = 0.0;
        for i in 0..=k {
            tail += log_pmf.exp();
            log_pmf += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
        }
        (2.0 * tail).min(1.0)
    }
}

/// Checks that `texts` are the rows of run `other`, in its order: an error naming the first
/// difference (or the counts) if not. `eval-parser --against` checks before it evaluates.
pub fn same_rows<'a>(texts: impl ExactSizeIterator<Item = &'a str>, other: &[(String, bool)]) -> Result<()> {
    if texts.len() != other.len() {
        return Err(ParserError::Data(format!(
            "the runs scored different rows ({} here, {} there): compare runs over the same split, --skip and --limit",
            texts.len(),
            other.len()
        )));
    }
    for (i, (text, (text_there, _))) in texts.zip(other).enumerate() {
        if text != text_there {
            return Err(ParserError::Data(format!(
                "row {} differs ({text:?} here, {text_there:?} there): compare runs over the same rows",
                i + 1
            )));
        }
    }
    Ok(())
}

/// The rows of an `eval-parser --dump` file: each parse's text and whether it was right.
pub fn read_dump(path: &Path) -> Result<Vec<(String, bool)>> {
    let text = std::fs::read_to_string(path).map_err(|source| ParserError::Io { path: path.into(), source })?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let bad =
                || ParserError::Data(format!("{} line {}: not an eval-parser --dump record", path.display(), i + 1));
            let record: serde_json::Value = serde_json::from_str(line).map_err(|_| bad())?;
            match (record.get("text").and_then(|t| t.as_str()), record.get("correct").and_then(|c| c.as_bool())) {
                (Some(text), Some(correct)) => Ok((text.to_string(), correct)),
                _ => Err(bad()),
            }
        })
        .collect()
}

/// `craftmate-lab compare THIS OTHER`: prints the four counts and McNemar's p-value of two dumps
/// of the same rows.
pub fn run(this: &Path, other: &Path) -> anyhow::Result<ExitCode> {
    let read = |path: &Path| read_dump(path).with_context(|| format!("reading {}", path.display()));
    let (mine, theirs) = (read(this)?, read(other)?);
    let c = Comparison::of(&mine, &theirs).with_context(|| format!("comparing with {}", other.display()))?;
    println!(
        "{} against {} ({} rows): right in both {}, only here {}, only there {}, in neither {}",
        this.display(),
        other.display(),
        c.rows(),
        c.both,
        c.only_this,
        c.only_other,
        c.neither
    );
    let gap = c.only_this as i64 - c.only_other as i64;
    println!(
        "  {gap:+} rows; McNemar exact p = {:.3} ({})",
        c.p_value(),
        if c.p_value() < 0.05 { "unlikely to be chance" } else { "these rows cannot tell the two apart" }
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(marks: &[bool]) -> Vec<(String, bool)> {
        marks.iter().enumerate().map(|(i, &ok)| (format!("row {i}"), ok)).collect()
    }

    #[test]
    fn rows_are_counted_by_who_got_them_right() {
        let this = rows(&[true, true, false, false, true]);
        let other = rows(&[true, false, true, false, false]);
        let c = Comparison::of(&this, &other).unwrap();
        assert_eq!(c, Comparison { both: 1, only_this: 2, only_other: 1, neither: 1 });
        assert_eq!(c.rows(), 5);
        let err = Comparison::of(&this, &other[..4]).unwrap_err().to_string();
        assert!(err.contains("different rows"), "{err}");
        let mut moved = other.clone();
        moved[2].0 = "another text".into();
        let err = Comparison::of(&this, &moved).unwrap_err().to_string();
        assert!(err.contains("row 3 differs"), "{err}");
    }

    #[test]
    fn the_p_value_is_mcnemars_exact_test() {
        let p = |only_this, only_other| Comparison { only_this, only_other, ..Default::default() }.p_value();
        // Textbook values: 2·P(X ≤ 1) for n = 10 is 2·11/1024; for 1 against 5, 2·7/64.
        assert!((p(1, 9) - 22.0 / 1024.0).abs() < 1e-12);
        assert!((p(5, 1) - 14.0 / 64.0).abs() < 1e-12);
        assert_eq!(p(0, 0), 1.0, "never disagreeing says nothing");
        assert_eq!(p(7, 7), 1.0);
        // Seed noise: 21 rows gained and 16 lost is no evidence; 40 against 10 is.
        assert!(p(21, 16) > 0.5, "{}", p(21, 16));
        assert!(p(40, 10) < 1e-4, "{}", p(40, 10));
        // Large counts stay finite where 2^-n underflows.
        let big = p(600, 700);
        assert!(big > 0.0 && big < 0.01, "{big}");
        assert_eq!(p(650, 650), 1.0);
    }

    #[test]
    fn a_dump_is_read_back_and_a_stray_line_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dump.jsonl");
        std::fs::write(
            &path,
            "{\"text\":\"build a cube\",\"correct\":true,\"confidence\":0.9}\n\n{\"text\":\"hi\",\"correct\":false}\n",
        )
        .unwrap();
        assert_eq!(read_dump(&path).unwrap(), vec![("build a cube".into(), true), ("hi".into(), false)]);
        std::fs::write(&path, "{\"text\":\"build a cube\",\"correct\":true}\nexact match: 50%\n").unwrap();
        let err = read_dump(&path).unwrap_err().to_string();
        assert!(err.contains("line 2: not an eval-parser --dump record"), "{err}");
    }
}
