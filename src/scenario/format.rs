//! The scenario file format (`SCENARIOS.md`), as strict serde types.
//!
//! Every table denies unknown fields, so a typo (`colr = "red"`) is an error naming the field
//! rather than a silently ignored line. Steps are read as one flat table and checked per kind in
//! `load.rs`, because TOML has no tag to tell a `say` step from an `expect` step.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub name: String,
    #[serde(default)]
    pub tags: Vec<String>,
    pub max_ticks: Option<u64>,
    #[serde(default)]
    pub world: WorldSpec,
    #[serde(default)]
    pub agent: AgentSpec,
    #[serde(default)]
    pub players: Vec<PlayerSpec>,
    #[serde(default)]
    pub blocks: Vec<BlocksSpec>,
    #[serde(default)]
    pub mobs: Vec<MobSpec>,
    #[serde(default)]
    pub steps: Vec<StepSpec>,
    /// craftmate addition: which bot plays: "assistant" (default) or "listener" (hears chat,
    /// never acts: for testing the harness itself).
    pub bot: Option<String>,
    /// craftmate addition: this scenario is meant to fail at `step` (harness self-tests).
    pub expected_failure: Option<ExpectedFailure>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct WorldSpec {
    pub preset: Option<String>,
    pub seed: Option<u64>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AgentSpec {
    pub pos: Option<[i32; 3]>,
    /// craftmate addition: [yaw, pitch].
    pub look: Option<[f32; 2]>,
    /// craftmate addition: the bot's name in chat (default `craftmate`).
    pub name: Option<String>,
    /// craftmate addition: what the bot carries at the start.
    #[serde(default)]
    pub items: Vec<(String, u32)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    pub name: String,
    pub pos: [i32; 3],
    pub look: Option<[f32; 2]>,
    /// craftmate addition: what the player carries at the start.
    #[serde(default)]
    pub items: Vec<(String, u32)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlocksSpec {
    pub from: [i32; 3],
    pub to: Option<[i32; 3]>,
    pub block: String,
    /// craftmate addition: what a chest (or barrel) holds.
    #[serde(default)]
    pub items: Vec<(String, u32)>,
    /// craftmate addition: a crop's growth, 0 to 7 (ripe).
    pub age: Option<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MobSpec {
    pub kind: String,
    pub pos: [i32; 3],
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedFailure {
    /// 0-based index of the step that must fail.
    pub step: usize,
    /// Optional regex the failure reason must match.
    pub reason: Option<String>,
}

/// `run = "idle"` or `run = 40`.
#[derive(Debug, Deserialize, Clone)]
#[serde(untagged)]
pub enum RunSpec {
    Ticks(u64),
    Word(String),
}

/// `target = "alice"` or `target = [x, y, z]`.
#[derive(Debug, Deserialize, Clone)]
#[serde(untagged)]
pub enum TargetSpec {
    Name(String),
    Pos([i32; 3]),
}

#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RegionSpec {
    pub from: [i32; 3],
    pub to: [i32; 3],
}

/// One `[[steps]]` table, every field optional; `load.rs` decides which kind it is.
#[derive(Debug, Deserialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct StepSpec {
    pub say: Option<String>,
    pub by: Option<String>,
    pub lf: Option<String>,
    pub player: Option<String>,
    pub pos: Option<[i32; 3]>,
    pub look: Option<[f32; 2]>,
    pub run: Option<RunSpec>,
    pub expect: Option<String>,
    pub region: Option<RegionSpec>,
    pub near: Option<String>,
    pub radius: Option<f64>,
    pub block: Option<String>,
    pub colour: Option<String>,
    pub op: Option<String>,
    pub count: Option<u64>,
    pub at: Option<[i32; 3]>,
    pub target: Option<TargetSpec>,
    pub within: Option<f64>,
    pub matches: Option<String>,
    pub since: Option<usize>,
    pub kind: Option<String>,
    /// craftmate addition (`items`): whose items — a player, "agent", "ground", or a chest's [x, y, z].
    pub holder: Option<TargetSpec>,
    /// craftmate addition (`items`): which item (default: all).
    pub item: Option<String>,
}

impl StepSpec {
    /// Names of the fields this table sets (for "field X does not belong here" errors).
    pub fn fields_set(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        macro_rules! set {
            ($($f:ident),*) => { $( if self.$f.is_some() { v.push(stringify!($f)); } )* };
        }
        set!(say, by, lf, player, pos, look, run, expect, region, near, radius, block, colour, op, count, at, target, within, matches, since, kind, holder, item);
        v
    }
}
