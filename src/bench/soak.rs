//! The soak run: an hour (or `--minutes N`) of scripted play, sampled every minute, to show
//! that nothing grows without bound and that no tick stalls as the session ages.
//!
//! It is `craftmate play --memory FILE` driven by a script instead of a person: the shipped
//! parser, the memory and the world kept in a file saved every tick. A player, alice, walks
//! between four spots and says, in a loop: builds (colours and shapes vary), names, questions,
//! stops and resumes, undos, digs and fills, destroys, spawns, dances, `/tp` and `/setblock`,
//! and garbage (typos, emoji, control characters, a very long line). Each line waits for the
//! bot to be idle (at most [`MAX_WAIT`] ticks); ticks run back to back, so an hour of wall time
//! is many hours of game time.
//!
//! Every minute: the process's resident memory, the memory file's size (with its WAL), ticks
//! and tick time (p50, p99, max), lines said. At the end: the growth of resident memory from
//! the second half of the run (least squares, MB per hour), and the worst minute's tick p99.

use std::time::{Duration, Instant};

use super::Figure;
use crate::agent::Bot;
use crate::agent::assistant::Assistant;
use crate::memory::Memory;
use crate::parser::Parser;
use crate::play::Session;
use crate::world::embedded::WorldStore;

/// The most ticks one line waits for the bot to be idle.
pub const MAX_WAIT: u64 = 4000;

/// One minute of the run.
#[derive(Debug, Clone)]
pub struct Sample {
    pub minute: u32,
    pub rss_mb: f64,
    pub file_mb: f64,
    pub ticks: u64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
    pub lines: u64,
}

/// The lines of cycle `i` of the script, each with whether to wait for the bot to be idle
/// before the next (a line said mid-task interrupts it, as "stop" should).
///
/// A cycle leaves the world as it found it (what it builds it destroys or undoes), so what
/// grows over the run is only what should: the history in the memory file.
pub fn script(i: usize) -> Vec<(String, bool)> {
    // lexicon: dye colours the soak test puts in its chat (test data).
    const COLOURS: [&str; 6] = ["red", "blue", "yellow", "green", "white", "orange"];
    // lexicon: shapes the soak test puts in its chat (test data).
    const SHAPES: [&str; 4] = ["cube", "tower", "wall", "pyramid"];
    const SPOTS: [(i32, i32); 4] = [(0, 0), (24, 0), (24, 24), (0, 24)];
    let c = COLOURS[i % COLOURS.len()];
    let shape = SHAPES[i % SHAPES.len()];
    let (x, z) = SPOTS[i % SPOTS.len()];
    let name = format!("thing{}", i % 7);
    let wait = |l: String| (l, true);
    // lexicon: chat lines the soak test sends (test data).
    let mut lines = vec![
        wait(format!("/tp {} 5 {}", x + 3, z)),
        wait(format!("build a {c} {shape}")),
        wait(format!("call it {name}")),
        wait("what did you build?".into()),
        wait(format!("what colour is {name}")),
        ("build a small stone house".into(), false),
        ("what are you doing".into(), false),
        ("stop".into(), false),
        wait("resume".into()),
        wait("undo that".into()),
        wait("dig a hole".into()),
        wait("fill that hole".into()),
        wait(format!("destroy {name}")),
        wait(format!("/setblock {} 5 {} oak_planks", x + 6, z + 2)),
        wait(format!("/setblock {} 5 {} air", x + 6, z + 2)),
        wait("spawn a pig".into()),
        wait("come here".into()),
        wait("dance".into()),
        wait("who are you?".into()),
        wait("biuld a red cueb".into()),
        wait("undo".into()),
    ];
    // Garbage, one kind per cycle.
    lines.push(wait(match i % 4 {
        0 => "asdf qwer zxcv".into(),
        1 => "🙂🙂 \u{202e}evil\u{1b}[31m \u{200b}".into(),
        2 => "build ".repeat(400),
        _ => "the the the the".into(),
    }));
    lines
}

/// Ticks a line that does not wait for idle gets before the next line.
const NO_WAIT_TICKS: u64 = 40;

/// Resident memory of this process, in MB (Linux; 0 elsewhere).
pub fn rss_mb() -> f64 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<f64>().ok()))
        .unwrap_or(0.0);
    pages * 4096.0 / 1e6
}

fn file_mb(path: &std::path::Path) -> f64 {
    let size = |p: std::path::PathBuf| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let wal = path.with_extension("db-wal");
    (size(path.to_path_buf()) + size(wal)) as f64 / 1e6
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() { 0.0 } else { sorted[((sorted.len() - 1) as f64 * q).round() as usize] }
}

/// Least-squares slope of `ys` over `xs`.
pub fn slope(xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len() as f64;
    if xs.len() < 2 {
        return 0.0;
    }
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let num: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let den: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    if den == 0.0 { 0.0 } else { num / den }
}

/// Runs the soak for `minutes`, calling `report` with each minute's sample as it ends.
pub fn run(
    minutes: f64,
    make_parser: impl Fn() -> Option<Box<dyn Parser>> + 'static,
    mut report: impl FnMut(&Sample),
) -> std::io::Result<Vec<Figure>> {
    let dir = std::env::temp_dir().join(format!("craftmate-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("soak.db");
    let memory_path = path.clone();
    let make_bot: Box<dyn FnMut() -> Box<dyn Bot>> = Box::new(move || {
        let memory = Memory::open(&memory_path).unwrap_or_else(|e| panic!("the soak's memory file: {e}"));
        Box::new(Assistant::new(memory, make_parser()))
    });
    // As `play --memory` does: the memory file first, then the world kept beside it.
    drop(Memory::open(&path).map_err(std::io::Error::other)?);
    let store = WorldStore::open(&path).map_err(std::io::Error::other)?;
    let mut session = Session::kept("alice", make_bot, false, Some(store), crate::world::embedded::Preset::Flat).map_err(std::io::Error::other)?;

    let start = Instant::now();
    let end = start + Duration::from_secs_f64(minutes * 60.0);
    let mut samples: Vec<Sample> = Vec::new();
    let mut minute_start = Instant::now();
    let mut times: Vec<f64> = Vec::new();
    let mut all_p99 = Vec::new();
    let (mut lines, mut total_lines, mut total_ticks) = (0u64, 0u64, 0u64);
    let mut cycle = 0usize;
    'run: loop {
        for (line, wait) in script(cycle) {
            let _ = session.input(&line);
            lines += 1;
            // Wait for the bot: at least one tick, then until it is idle.
            for n in 0..if wait { MAX_WAIT } else { NO_WAIT_TICKS } {
                let t = Instant::now();
                session.tick();
                times.push(t.elapsed().as_secs_f64() * 1e6);
                if wait && n > 0 && session.bot_is_idle() {
                    break;
                }
            }
            if minute_start.elapsed() >= Duration::from_secs(60) || Instant::now() >= end {
                times.sort_by(f64::total_cmp);
                let s = Sample {
                    minute: samples.len() as u32 + 1,
                    rss_mb: rss_mb(),
                    file_mb: file_mb(&path),
                    ticks: times.len() as u64,
                    p50_us: quantile(&times, 0.5),
                    p99_us: quantile(&times, 0.99),
                    max_us: times.last().copied().unwrap_or(0.0),
                    lines,
                };
                report(&s);
                total_ticks += s.ticks;
                total_lines += lines;
                all_p99.push(s.p99_us);
                samples.push(s);
                times.clear();
                lines = 0;
                minute_start = Instant::now();
                if Instant::now() >= end {
                    break 'run;
                }
            }
        }
        cycle += 1;
    }
    drop(session);
    let _ = std::fs::remove_dir_all(&dir);

    // Growth over the second half: the first minutes hold the warm-up (the parser, caches).
    let late: Vec<&Sample> = samples.iter().skip(samples.len() / 2).collect();
    let xs: Vec<f64> = late.iter().map(|s| s.minute as f64 / 60.0).collect();
    let rss_slope = slope(&xs, &late.iter().map(|s| s.rss_mb).collect::<Vec<_>>());
    let file_slope = slope(&xs, &late.iter().map(|s| s.file_mb).collect::<Vec<_>>());
    let first = samples.first().cloned();
    let last = samples.last().cloned();
    // lexicon: units in a report the bot prints, not words it reads.
    Ok(vec![
        Figure::new("soak_minutes", samples.len() as f64, "min"),
        Figure::new("soak_cycles", cycle as f64, "cycles"),
        Figure::new("soak_lines", total_lines as f64, "lines"),
        Figure::new("soak_ticks", total_ticks as f64, "ticks"),
        Figure::new("soak_rss_first_minute_mb", first.as_ref().map_or(0.0, |s| s.rss_mb), "MB"),
        Figure::new("soak_rss_last_minute_mb", last.as_ref().map_or(0.0, |s| s.rss_mb), "MB"),
        Figure::new("soak_rss_growth_second_half_mb_per_h", rss_slope, "MB/h"),
        Figure::new("soak_file_last_minute_mb", last.as_ref().map_or(0.0, |s| s.file_mb), "MB"),
        Figure::new("soak_file_growth_second_half_mb_per_h", file_slope, "MB/h"),
        Figure::new("soak_tick_p99_worst_minute_ms", all_p99.iter().copied().fold(0.0, f64::max) / 1000.0, "ms"),
        Figure::new("soak_tick_max_ms", samples.iter().map(|s| s.max_us).fold(0.0, f64::max) / 1000.0, "ms"),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slope_of_a_line_is_its_growth() {
        assert!((slope(&[0.0, 1.0, 2.0], &[5.0, 7.0, 9.0]) - 2.0).abs() < 1e-9);
        assert_eq!(slope(&[1.0], &[3.0]), 0.0);
    }

    #[test]
    fn the_script_varies_and_holds_garbage() {
        let a = script(0);
        let b = script(1);
        assert_ne!(a, b);
        assert!(a.iter().any(|(l, _)| l.starts_with("/tp")) && a.iter().any(|(l, _)| l.starts_with("build a")));
        assert!(a.iter().any(|(l, wait)| l == "stop" && !wait), "stop comes mid-task");
        assert!(script(2).iter().any(|(l, _)| l.len() > 2000), "a very long line");
    }

    #[test]
    fn a_short_soak_samples_and_cleans_up() {
        let mut seen = Vec::new();
        let figures = run(0.02, || None, |s| seen.push(s.clone())).unwrap();
        assert!(!seen.is_empty());
        assert!(seen[0].ticks > 0 && seen[0].rss_mb > 0.0, "{:?}", seen[0]);
        assert!(figures.iter().any(|f| f.name == "soak_tick_p99_worst_minute_ms"));
    }
}
