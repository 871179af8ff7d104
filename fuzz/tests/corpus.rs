//! Every committed fuzz input, replayed through its target, then a short seeded random run of
//! mutations of them: the fuzz targets as ordinary tests, with no libFuzzer build.
//!
//! `CRAFTMATE_FUZZ_SEED` picks the random run's seed (printed, to replay a failure) and
//! `CRAFTMATE_FUZZ_SECONDS` its length per target (default 8 s).

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use craftmate_fuzz::TARGETS;
use craftmate_fuzz::mutate::Mutator;

/// The longest input the random run makes (libFuzzer's default `-max_len` is 4096).
const MAX_LEN: usize = 4096;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files.into_iter().map(|p| (p.clone(), std::fs::read(&p).expect("a corpus file reads"))).collect()
}

/// Runs `input` through `target`; a failure is reported with `what` produced it.
fn replay(target: fn(&[u8]), input: &[u8], what: impl FnOnce() -> String) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| target(input))) {
        eprintln!("failed on {}: {:?}", what(), String::from_utf8_lossy(input));
        resume_unwind(panic);
    }
}

fn corpus_then_random(name: &str) {
    let target = TARGETS.iter().find(|(n, _)| *n == name).expect("a target").1;
    let inputs = corpus(name);
    assert!(inputs.len() >= 10, "the {name} corpus has {} inputs", inputs.len());
    let start = Instant::now();
    for (path, input) in &inputs {
        replay(target, input, || path.display().to_string());
    }
    let replayed = start.elapsed();

    let seed = std::env::var("CRAFTMATE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED_C0DE);
    let seconds = std::env::var("CRAFTMATE_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(8.0);
    let mut m = Mutator::new(seed);
    let start = Instant::now();
    let mut runs = 0u64;
    while start.elapsed() < Duration::from_secs_f64(seconds) {
        let input = &inputs[m.below(inputs.len())].1;
        let other = &inputs[m.below(inputs.len())].1;
        let mutated = m.mutate(input, other, MAX_LEN);
        replay(target, &mutated, || format!("random input {runs} of seed {seed}"));
        runs += 1;
    }
    println!(
        "{name}: {} committed inputs in {:.1} s, then {runs} random inputs in {:.1} s (seed {seed})",
        inputs.len(),
        replayed.as_secs_f64(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn chat_lines() {
    corpus_then_random("chat");
}

#[test]
fn logical_forms() {
    corpus_then_random("logical_form");
}

#[test]
fn scenario_files() {
    corpus_then_random("scenario");
}

#[test]
fn outgoing_and_system_chat() {
    corpus_then_random("live_chat");
}
