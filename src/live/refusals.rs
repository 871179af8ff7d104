//! Block changes the server refused. Further changes at a refused spot (and, after a burst of
//! refusals, near it) fail at once for a while with the reason, so a task reports the refusal
//! instead of retrying in a storm.

use crate::world::{ActionError, Pos};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// Changes at a refused spot fail for this many ticks.
pub(super) const REFUSED_TICKS: u64 = 600;
/// This many refusals within [`BURST_TICKS`] make changes near them fail too.
const BURST_REFUSALS: usize = 3;
pub(super) const BURST_TICKS: u64 = 100;
const BURST_RADIUS: i32 = 8;
/// Refusals remembered for bursts.
const RECENT: usize = 64;

#[derive(Default)]
pub(super) struct Refusals {
    /// The tick of the last refusal at each spot.
    refused: FxHashMap<Pos, u64>,
    recent: VecDeque<(u64, Pos)>,
}

impl Refusals {
    /// The server refused a change at `pos` at `tick`.
    pub(super) fn note(&mut self, tick: u64, pos: Pos) {
        self.refused.insert(pos, tick);
        self.recent.push_back((tick, pos));
        while self.recent.len() > RECENT {
            self.recent.pop_front();
        }
    }

    /// Changes at `p` fail for a while after the server refused one there (or, after a burst of
    /// refusals, one nearby).
    pub(super) fn check(&mut self, tick: u64, p: Pos) -> Result<(), ActionError> {
        self.refused.retain(|_, t| tick.saturating_sub(*t) < REFUSED_TICKS);
        while self.recent.front().is_some_and(|(t, _)| tick.saturating_sub(*t) >= BURST_TICKS) {
            self.recent.pop_front();
        }
        let burst =
            self.recent.len() >= BURST_REFUSALS && self.recent.iter().any(|(_, q)| q.chebyshev(p) <= BURST_RADIUS);
        if self.refused.contains_key(&p) || burst {
            return Err(ActionError::Refused(format!("I'm not allowed to change the block at {p}")));
        }
        Ok(())
    }
}
