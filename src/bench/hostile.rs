//! The hostile-chat run: many seeded lines of what a griefer or a broken client sends — junk,
//! control and bidi characters, lines of thousands of words, slash commands, endless "call that
//! …" names, absurd numbers — end to end through `play`'s session, with the shipped parser.
//!
//! It shows that chat cannot grow the bot without bound: resident memory is sampled every
//! thousand lines and its growth over the second half of the run is the figure to watch (the
//! first half holds the warm-up: the parser, caches, the memory's first pages). A panic or a
//! line that never returns fails the run; the slowest line is reported.

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::Figure;
use super::soak::{rss_mb, slope};
use crate::agent::Bot;
use crate::agent::assistant::Assistant;
use crate::memory::Memory;
use crate::parser::Parser;
use crate::play::Session;

/// Lines between two samples of resident memory.
pub const SAMPLE_EVERY: u64 = 1000;
/// Ticks the bot gets after each line: enough to hear and answer it, too few to finish a build.
const TICKS_PER_LINE: u64 = 2;

/// One sample of the run.
#[derive(Debug, Clone)]
pub struct Sample {
    pub lines: u64,
    pub rss_mb: f64,
    pub slowest_ms: f64,
}

/// Hostile line number `i` of the run seeded `seed`: the same seed gives the same lines.
pub fn line(rng: &mut StdRng, i: u64) -> String {
    // lexicon: hostile test data the bench sends as chat, not words the bot reads.
    const WORDS: [&str; 8] = ["build", "the", "asdf", "tower", "ÿ", "🙂", "DROP TABLE", "%s%n"];
    let word = |rng: &mut StdRng| WORDS[rng.random_range(0..WORDS.len())];
    match rng.random_range(0..8) {
        // Junk characters of any kind, controls and bidi overrides among them.
        0 => (0..rng.random_range(1..80)).map(|_| char::from_u32(rng.random_range(1..0x3000)).unwrap_or('?')).collect(),
        1 => format!("\u{202e}build\u{1b}[31m a \u{200b}red\u{0} cube\u{2066} {i}"),
        // Lines of thousands of words.
        2 => (0..rng.random_range(500..3000)).map(|_| word(rng)).collect::<Vec<_>>().join(" "),
        // Slash commands with odd arguments (never /load: it reads files).
        3 => match rng.random_range(0..3) {
            0 => format!("/tp {} {} {}", rng.random::<i32>(), rng.random::<i32>(), rng.random::<i32>()),
            1 => format!("/setblock 1 {} 1 stone", rng.random::<i64>()),
            _ => "/fill -30000000 -64 -30000000 30000000 319 30000000 tnt".into(),
        },
        // Names without end: each "call that" adds one.
        4 => format!("call that thing{i}"),
        5 => format!("build a cube of size {}", rng.random::<u64>()),
        6 => format!("what is that? {}", "?".repeat(rng.random_range(1..200))),
        _ => (0..rng.random_range(1..40)).map(|_| word(rng)).collect::<Vec<_>>().join(" "),
    }
}

/// Sends `lines` hostile lines (seed `seed`) through a `play` session, calling `report` every
/// [`SAMPLE_EVERY`] lines.
pub fn run(
    lines: u64,
    seed: u64,
    make_parser: impl Fn() -> Option<Box<dyn Parser>> + 'static,
    mut report: impl FnMut(&Sample),
) -> Vec<Figure> {
    let make_bot: Box<dyn FnMut() -> Box<dyn Bot>> = Box::new(move || {
        Box::new(Assistant::new(Memory::in_memory().expect("a memory in RAM"), make_parser()))
    });
    let mut session = Session::new("mallory", make_bot, false);
    let mut rng = StdRng::seed_from_u64(seed);
    let start = Instant::now();
    let (mut samples, mut slowest_ms, mut window_slowest) = (Vec::new(), 0.0f64, 0.0f64);
    for i in 0..lines {
        let text = line(&mut rng, i);
        let t = Instant::now();
        let _ = session.input(&text);
        for _ in 0..TICKS_PER_LINE {
            session.tick();
        }
        // Whatever the lines started is stopped now and then, as a player would.
        if i % 50 == 49 {
            let _ = session.input("stop");
            session.tick();
        }
        window_slowest = window_slowest.max(t.elapsed().as_secs_f64() * 1000.0);
        if (i + 1) % SAMPLE_EVERY == 0 || i + 1 == lines {
            let s = Sample { lines: i + 1, rss_mb: rss_mb(), slowest_ms: window_slowest };
            report(&s);
            slowest_ms = slowest_ms.max(window_slowest);
            window_slowest = 0.0;
            samples.push(s);
        }
    }
    let late: Vec<&Sample> = samples.iter().skip(samples.len() / 2).collect();
    let xs: Vec<f64> = late.iter().map(|s| s.lines as f64 / 10_000.0).collect();
    let growth = slope(&xs, &late.iter().map(|s| s.rss_mb).collect::<Vec<_>>());
    // lexicon: units in a report the bot prints, not words it reads.
    vec![
        Figure::new("hostile_lines", lines as f64, "lines"),
        Figure::new("hostile_seconds", start.elapsed().as_secs_f64(), "s"),
        Figure::new("hostile_rss_first_sample_mb", samples.first().map_or(0.0, |s| s.rss_mb), "MB"),
        Figure::new("hostile_rss_last_sample_mb", samples.last().map_or(0.0, |s| s.rss_mb), "MB"),
        Figure::new("hostile_rss_growth_second_half_mb_per_10k_lines", growth, "MB"),
        Figure::new("hostile_slowest_line_ms", slowest_ms, "ms"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_sends_the_same_hostile_lines_of_every_kind() {
        let take = |seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            (0..200).map(|i| line(&mut rng, i)).collect::<Vec<_>>()
        };
        let lines = take(7);
        assert_eq!(lines, take(7));
        assert_ne!(lines, take(8));
        assert!(lines.iter().any(|l| l.split(' ').count() > 500), "lines of thousands of words");
        assert!(lines.iter().any(|l| l.starts_with('/')), "slash commands");
        assert!(lines.iter().any(|l| l.starts_with("call that")), "names");
    }

    #[test]
    fn a_short_hostile_run_samples_and_survives() {
        let mut seen = Vec::new();
        let figures = run(120, 1, || None, |s| seen.push(s.clone()));
        assert_eq!(seen.last().map(|s| s.lines), Some(120));
        assert!(figures.iter().any(|f| f.name == "hostile_rss_growth_second_half_mb_per_10k_lines"));
    }
}
