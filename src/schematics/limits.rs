//! How much the bot agrees to build in one go.
//!
//! A limit protects both the bot (memory, time spent placing) and the world (a typo like "radius
//! 1000" should not bury a village). It is checked against an estimate before any block is
//! generated, and again while generating, so an oversized request costs nothing.

use serde::{Deserialize, Serialize};

/// The most blocks one schematic may hold unless configured otherwise.
pub const DEFAULT_MAX_BLOCKS: usize = 10_000;

/// Limits on what [`generate`](super::generate) will produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Largest number of blocks in one schematic.
    pub max_blocks: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_blocks: DEFAULT_MAX_BLOCKS }
    }
}
