//! Scenario files, through the loader; those it accepts are played briefly with a bot that
//! only listens, so the runner's set-up and judging see every shape of file the loader lets by.
//!
//! The loader's own bounds (ticks, radius, region sizes) make every accepted file finish; the
//! fuzzer's time limit would call a loader that let an endless one by a hang. The run here is
//! shortened further ([`MAX_TICKS`], [`MAX_CELLS`]) only so that each input is quick.

use std::path::Path;

use craftmate::agent::Listener;
use craftmate::scenario::load::{Expect, RunUntil, Step};
use craftmate::scenario::{Scenario, load_str, run as play};

/// Ticks of the whole run at most.
pub const MAX_TICKS: u64 = 200;
/// Blocks placed and cells counted at most, over the whole run.
pub const MAX_CELLS: u64 = 200_000;

pub fn run(data: &[u8]) {
    // The loader reads files as UTF-8 text; other bytes are refused before it.
    let Ok(text) = std::str::from_utf8(data) else { return };
    match load_str(Path::new("fuzz.toml"), text) {
        Err(e) => {
            assert!(!e.message.trim().is_empty(), "an error without a message");
            assert!(e.to_string().contains("fuzz.toml"), "the error does not name the file: {e}");
        }
        Ok(mut s) => {
            if shorten(&mut s) {
                let outcome = play(&s, &mut Listener::default());
                assert!(outcome.ticks <= MAX_TICKS, "ran {} ticks", outcome.ticks);
            }
        }
    }
}

/// Cuts every run down to [`MAX_TICKS`] in all; false when the file counts or places more
/// than [`MAX_CELLS`] (those are left to the loader's bounds, checked by its tests).
fn shorten(s: &mut Scenario) -> bool {
    let mut cells = s.blocks.iter().fold(0u64, |n, (b, _)| n.saturating_add(b.volume()));
    let mut left = MAX_TICKS;
    s.max_ticks = s.max_ticks.min(MAX_TICKS);
    for step in &mut s.steps {
        match step {
            Step::Run(until) => {
                let want = match until {
                    RunUntil::Idle => s.max_ticks.max(1),
                    RunUntil::Ticks(n) => *n,
                };
                let take = want.min(left);
                left -= take;
                *until = RunUntil::Ticks(take);
            }
            Step::Expect(Expect::Blocks { region, .. }) => cells = cells.saturating_add(region.cells()),
            _ => {}
        }
    }
    cells <= MAX_CELLS
}
