//! Reading a scenario file into checked, typed steps.
//!
//! Everything that can be wrong with a file is found here, before anything runs: unknown fields,
//! unknown block ids or colours, steps of no kind or of two kinds, fields that do not belong to
//! their step, bad regexes, `by` naming nobody. Each error names the file and the field.

use super::format::*;
use crate::logical_form::{LogicalForm, normalize, validate_json};
use crate::world::blocks::canonical_colour;
use crate::world::embedded::Preset;
use crate::world::rules::MOB_KINDS;
use crate::world::{BBox, Block, Look, Pos};
use regex::Regex;
use std::path::{Path, PathBuf};

/// The default limit for each `run` step, in ticks.
pub const DEFAULT_MAX_TICKS: u64 = 6000;
/// The most ticks a scenario may ask to run at once (`max_ticks`, `run = N`): about 14 hours
/// of game time, far more than any test needs and few enough to finish.
pub const MAX_RUN_TICKS: u64 = 1_000_000;
/// The widest `radius` a step may search (blocks): its box, 201 blocks a side, stays within
/// [`MAX_REGION_BLOCKS`], as every cell of it is looked at.
pub const MAX_RADIUS: f64 = 100.0;
/// The most blocks a `region` may hold.
pub const MAX_REGION_BLOCKS: u64 = 10_000_000;
/// The most ticks all the `run` steps of a file may add up to (an `idle` run counts as
/// `max_ticks`): each step's own bound is no bound if a file may repeat it without end.
pub const MAX_TOTAL_TICKS: u64 = 2_000_000;
/// The most cells all the `blocks` steps of a file may count together.
pub const MAX_TOTAL_COUNTED: u64 = 100_000_000;
/// The most blocks the `[[blocks]]` boxes may place together.
pub const MAX_PLACED_BLOCKS: u64 = 10_000_000;
/// The most `[[mobs]]` a file may start with.
pub const MAX_MOBS: usize = 1000;
/// The largest scenario file read: the suite's largest is a few kilobytes.
pub const MAX_FILE_BYTES: u64 = 4 << 20;
/// The most steps a file may have: each `say` is a line through understanding (milliseconds),
/// so this many stay well under a few minutes.
pub const MAX_STEPS: usize = 10_000;
/// The most actions one step's `lf` may hold: a chat line means a few, the annotations at most
/// a handful; every action becomes a step of its own.
pub const MAX_ACTIONS: usize = 64;

/// A malformed scenario file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", file.display())]
pub struct ScenarioError {
    pub file: PathBuf,
    pub message: String,
}

/// Which bot a scenario runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BotKind {
    #[default]
    Assistant,
    Listener,
}

#[derive(Debug)]
pub struct Scenario {
    pub bot: BotKind,
    pub path: PathBuf,
    pub name: String,
    pub tags: Vec<String>,
    pub max_ticks: u64,
    pub preset: Preset,
    pub seed: u64,
    pub agent_name: String,
    pub agent_pos: Pos,
    pub agent_look: Look,
    pub players: Vec<(String, Pos, Look)>,
    pub blocks: Vec<(BBox, Block)>,
    pub mobs: Vec<(String, Pos)>,
    /// Items carried and in chests, and crops' growth, at the start.
    pub stock: super::items::Stock,
    pub steps: Vec<Step>,
    pub expected_failure: Option<(usize, Option<Regex>)>,
}

#[derive(Debug, Clone)]
pub enum Step {
    /// `lf` is boxed: a logical form is large, the other steps are small.
    Say { by: String, text: String, lf: Option<Box<LogicalForm>> },
    Player { name: String, pos: Option<Pos>, look: Option<Look> },
    Run(RunUntil),
    Expect(Expect),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RunUntil {
    Idle,
    Ticks(u64),
}

/// Who or where distances are measured from.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Player(String),
    Agent,
    Pos(Pos),
}

#[derive(Debug, Clone)]
pub enum Region {
    Box(BBox),
    Near { who: Target, radius: f64 },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BlockMatch {
    Block(Block),
    Colour(&'static str),
    Air,
    Placed,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    Eq,
    Ge,
    Le,
    Gt,
    Lt,
}

impl Op {
    fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "==" => Op::Eq,
            ">=" => Op::Ge,
            "<=" => Op::Le,
            ">" => Op::Gt,
            "<" => Op::Lt,
            _ => return None,
        })
    }

    pub fn holds(self, seen: u64, wanted: u64) -> bool {
        match self {
            Op::Eq => seen == wanted,
            Op::Ge => seen >= wanted,
            Op::Le => seen <= wanted,
            Op::Gt => seen > wanted,
            Op::Lt => seen < wanted,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ge => ">=",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Lt => "<",
        }
    }
}

#[derive(Debug, Clone)]
pub enum Expect {
    Blocks { region: Region, what: BlockMatch, op: Op, count: u64 },
    Block { at: Pos, what: BlockMatch },
    AgentNear { target: Target, within: f64 },
    Chat(Regex),
    NoChat(Regex),
    Unchanged { since: usize },
    /// `near` with a radius, or a `region` box (a craftmate addition), or anywhere.
    Mobs { kind: Option<String>, near: Option<(Target, f64)>, region: Option<BBox>, op: Op, count: u64 },
    /// Items a player, the bot, a chest or the ground holds (a craftmate addition).
    Items { holder: super::items::Holder, item: Option<String>, op: Op, count: u64 },
}

impl Expect {
    /// The `expect = "…"` word, for output lines.
    pub fn word(&self) -> &'static str {
        match self {
            Expect::Blocks { .. } => "blocks",
            Expect::Block { .. } => "block",
            Expect::AgentNear { .. } => "agent_near",
            Expect::Chat(_) => "chat",
            Expect::NoChat(_) => "no_chat",
            Expect::Unchanged { .. } => "unchanged",
            Expect::Mobs { .. } => "mobs",
            Expect::Items { .. } => "items",
        }
    }
}

fn look(a: [f32; 2]) -> Look {
    Look::new(a[0], a[1])
}

/// Read and check one scenario file.
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    use std::io::Read;
    let err = |message: String| ScenarioError { file: path.to_path_buf(), message };
    let file = std::fs::File::open(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| err(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(err(format!("larger than a scenario file may be ({} MB)", MAX_FILE_BYTES >> 20)));
    }
    let text = String::from_utf8(bytes).map_err(|_| err("cannot read: not UTF-8 text".into()))?;
    load_str(path, &text)
}

/// Check the scenario `text`, as if read from `path` (which names it in errors and reports).
pub fn load_str(path: &Path, text: &str) -> Result<Scenario, ScenarioError> {
    let err = |message: String| ScenarioError { file: path.to_path_buf(), message };
    let de = toml::Deserializer::new(text);
    let file: ScenarioFile = serde_path_to_error::deserialize(de).map_err(|e| {
        let at = e.path().to_string();
        let inner = e.into_inner();
        // Where in the file, as "line L, column C", when TOML knows.
        let place = inner.span().map(|s| {
            let before = &text[..s.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!(" (line {line}, column {column})")
        });
        let message = format!("{}{}", inner.message().trim(), place.unwrap_or_default());
        if at == "." { err(message) } else { err(format!("field `{at}`: {message}")) }
    })?;
    check(path, file).map_err(err)
}

fn check(path: &Path, f: ScenarioFile) -> Result<Scenario, String> {
    if f.name.trim().is_empty() {
        return Err("field `name` is empty".into());
    }
    // A natural world is made from the scenario's seed (only its low 32 bits count).
    let seed = f.world.seed.unwrap_or(0) as u32;
    let preset = match &f.world.preset {
        None => Preset::Flat,
        Some(p) => Preset::parse(p, seed).ok_or_else(|| format!("field `world.preset`: unknown preset {p:?} (known: flat, empty, natural)"))?,
    };
    // In a natural world nobody knows the ground's height by heart: a position in the ground
    // stands on it.
    let on_ground = |p: Pos| if matches!(preset, Preset::Natural { .. }) { Pos::new(p.x, p.y.max(preset.surface_at(p.x, p.z)), p.z) } else { p };
    let agent_pos = f.agent.pos.map(|p| on_ground(Pos::from(p))).unwrap_or_else(|| preset.dry_spot_near(0, 0));
    let mut stock = super::items::Stock { agent: super::items::checked(&f.agent.items, "agent.items")?, ..Default::default() };
    let mut players = Vec::new();
    for (i, p) in f.players.iter().enumerate() {
        if p.name.trim().is_empty() || players.iter().any(|(n, _, _)| *n == p.name) {
            return Err(format!("field `players[{i}].name`: empty or repeated name {:?}", p.name));
        }
        players.push((p.name.clone(), on_ground(Pos::from(p.pos)), p.look.map(look).unwrap_or_default()));
        if !p.items.is_empty() {
            stock.players.push((p.name.clone(), super::items::checked(&p.items, &format!("players[{i}].items"))?));
        }
    }
    let mut blocks = Vec::new();
    for (i, b) in f.blocks.iter().enumerate() {
        let block = if b.block == "air" {
            Block::AIR
        } else {
            Block::from_name(&b.block).ok_or_else(|| format!("field `blocks[{i}].block`: unknown block id {:?}", b.block))?
        };
        let bbox = BBox::new(Pos::from(b.from), Pos::from(b.to.unwrap_or(b.from)));
        if bbox.volume() > MAX_PLACED_BLOCKS {
            return Err(format!("field `blocks[{i}]`: box of {} blocks is too large", bbox.volume()));
        }
        stock.add_blocks(i, b, bbox, block)?;
        blocks.push((bbox, block));
    }
    let placed = blocks.iter().fold(0u64, |n, (b, _)| n.saturating_add(b.volume()));
    if placed > MAX_PLACED_BLOCKS {
        return Err(format!("field `blocks`: the boxes hold {placed} blocks in all, more than a scenario may place ({MAX_PLACED_BLOCKS})"));
    }
    if f.mobs.len() > MAX_MOBS {
        return Err(format!("field `mobs`: {} mobs, more than a scenario may start with ({MAX_MOBS})", f.mobs.len()));
    }
    let mut mobs = Vec::new();
    for (i, m) in f.mobs.iter().enumerate() {
        if !MOB_KINDS.contains(&m.kind.as_str()) {
            return Err(format!("field `mobs[{i}].kind`: unknown mob {:?}", m.kind));
        }
        mobs.push((m.kind.clone(), on_ground(Pos::from(m.pos))));
    }
    if f.steps.len() > MAX_STEPS {
        return Err(format!("field `steps`: {} steps, more than a scenario may have ({MAX_STEPS})", f.steps.len()));
    }
    let names: Vec<&str> = players.iter().map(|(n, _, _)| n.as_str()).collect();
    let mut steps = Vec::new();
    for (i, s) in f.steps.iter().enumerate() {
        let step = check_step(i, s, &names).map_err(|m| format!("step {i}: {m}"))?;
        steps.push(step);
    }
    let max_ticks = ticks_at_most(f.max_ticks.unwrap_or(DEFAULT_MAX_TICKS), "max_ticks")?;
    let (ticks, counted) = work_of(&steps, max_ticks);
    if ticks > MAX_TOTAL_TICKS {
        return Err(format!("field `steps`: the runs add up to {ticks} ticks, more than a scenario may run ({MAX_TOTAL_TICKS})"));
    }
    if counted > MAX_TOTAL_COUNTED {
        return Err(format!("field `steps`: the steps count {counted} blocks in all, more than a scenario may count ({MAX_TOTAL_COUNTED})"));
    }
    let expected_failure = match f.expected_failure {
        None => None,
        Some(e) => {
            if e.step >= steps.len() {
                return Err(format!("field `expected_failure.step`: there is no step {}", e.step));
            }
            let re = e.reason.as_deref().map(regex_of).transpose().map_err(|m| format!("field `expected_failure.reason`: {m}"))?;
            Some((e.step, re))
        }
    };
    let bot = match f.bot.as_deref() {
        None | Some("assistant") => BotKind::Assistant,
        Some("listener") => BotKind::Listener,
        Some(other) => return Err(format!("field `bot`: unknown bot {other:?} (known: assistant, listener)")),
    };
    Ok(Scenario {
        bot,
        path: path.to_path_buf(),
        name: f.name,
        tags: f.tags,
        max_ticks,
        preset,
        seed: f.world.seed.unwrap_or(0),
        agent_name: f.agent.name.unwrap_or_else(|| "craftmate".into()),
        agent_pos,
        agent_look: f.agent.look.map(look).unwrap_or_default(),
        players,
        blocks,
        mobs,
        stock,
        steps,
        expected_failure,
    })
}

fn regex_of(s: &str) -> Result<Regex, String> {
    Regex::new(s).map_err(|e| format!("bad regex {s:?}: {e}"))
}

/// Only `allowed` fields may be set on a step of this kind.
fn only(s: &StepSpec, kind: &str, allowed: &[&str]) -> Result<(), String> {
    match s.fields_set().into_iter().find(|f| !allowed.contains(f)) {
        Some(f) => Err(format!("field `{f}` does not belong to a {kind} step (allowed: {})", allowed.join(", "))),
        None => Ok(()),
    }
}

fn need<T: Clone>(v: &Option<T>, field: &str, kind: &str) -> Result<T, String> {
    v.clone().ok_or_else(|| format!("a {kind} step needs `{field}`"))
}

fn ticks_at_most(n: u64, field: &str) -> Result<u64, String> {
    if n > MAX_RUN_TICKS {
        return Err(format!("field `{field}`: {n} ticks is more than a scenario may run ({MAX_RUN_TICKS})"));
    }
    Ok(n)
}

/// A `radius`: a finite number from 0 to [`MAX_RADIUS`].
fn radius_of(v: &Option<f64>, kind: &str) -> Result<f64, String> {
    let r = need(v, "radius", kind)?;
    if !r.is_finite() || !(0.0..=MAX_RADIUS).contains(&r) {
        return Err(format!("field `radius`: {r} is not a distance from 0 to {MAX_RADIUS}"));
    }
    Ok(r)
}

fn target_of(name: &str, players: &[&str]) -> Result<Target, String> {
    if name == "agent" {
        Ok(Target::Agent)
    } else if players.contains(&name) {
        Ok(Target::Player(name.to_string()))
    } else {
        Err(format!("no player called {name:?} (players: {})", players.join(", ")))
    }
}

fn block_match(s: &StepSpec, kind: &str) -> Result<BlockMatch, String> {
    match (&s.block, &s.colour) {
        (Some(_), Some(_)) => Err(format!("a {kind} step takes `block` or `colour`, not both")),
        (None, None) => Err(format!("a {kind} step needs `block` or `colour`")),
        (Some(b), None) => match b.as_str() {
            "air" => Ok(BlockMatch::Air),
            "placed" => Ok(BlockMatch::Placed),
            id => Block::from_name(id).map(BlockMatch::Block).ok_or_else(|| format!("field `block`: unknown block id {id:?}")),
        },
        (None, Some(c)) => canonical_colour(c).map(BlockMatch::Colour).ok_or_else(|| format!("field `colour`: {c:?} is not a colour")),
    }
}

fn op_of(s: &StepSpec) -> Result<Op, String> {
    match &s.op {
        None => Ok(Op::Eq),
        Some(o) => Op::parse(o).ok_or_else(|| format!("field `op`: {o:?} is not one of == >= <= > <")),
    }
}

/// The most ticks the steps may run, and the cells their `blocks` expectations look at.
fn work_of(steps: &[Step], max_ticks: u64) -> (u64, u64) {
    let (mut ticks, mut cells) = (0u64, 0u64);
    for step in steps {
        match step {
            Step::Run(RunUntil::Ticks(n)) => ticks = ticks.saturating_add(*n),
            Step::Run(RunUntil::Idle) => ticks = ticks.saturating_add(max_ticks.max(1)),
            Step::Expect(Expect::Blocks { region, .. }) => cells = cells.saturating_add(region.cells()),
            _ => {}
        }
    }
    (ticks, cells)
}

impl Region {
    /// The cells looked at to judge this region: a `near` region is searched through its box.
    pub fn cells(&self) -> u64 {
        match self {
            Region::Box(b) => b.volume(),
            Region::Near { radius, .. } => (2 * radius.ceil() as u64 + 1).saturating_pow(3),
        }
    }
}

fn check_step(i: usize, s: &StepSpec, players: &[&str]) -> Result<Step, String> {
    let kinds = [s.say.is_some(), s.player.is_some(), s.run.is_some(), s.expect.is_some()];
    match kinds.iter().filter(|k| **k).count() {
        0 => return Err("a step needs one of `say`, `player`, `run` or `expect`".into()),
        1 => {}
        _ => return Err("a step takes only one of `say`, `player`, `run` or `expect`".into()),
    }
    if let Some(text) = &s.say {
        // lexicon: scenario file keys.
        only(s, "say", &["say", "by", "lf"])?;
        let by = match &s.by {
            Some(b) if players.contains(&b.as_str()) => b.clone(),
            Some(b) => return Err(format!("field `by`: no player called {b:?}")),
            None => players.first().map(|p| p.to_string()).ok_or("a say step needs a player: add a [[players]] table")?,
        };
        let lf = match &s.lf {
            None => None,
            // The form must fit the chat it stands for: its spans index the normalized `say` text.
            Some(j) => Some(validate_json(&normalize(text), j).map_err(|errors| {
                let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                format!("field `lf`: not a valid logical form for {text:?}: {}", all.join("; "))
            })?),
        };
        if let Some(n) = lf.as_ref().map(|f| f.actions().len()).filter(|n| *n > MAX_ACTIONS) {
            return Err(format!("field `lf`: {n} actions, more than one line may ask for ({MAX_ACTIONS})"));
        }
        return Ok(Step::Say { by, text: text.clone(), lf: lf.map(Box::new) });
    }
    if let Some(name) = &s.player {
        // lexicon: scenario file keys.
        only(s, "player", &["player", "pos", "look"])?;
        if !players.contains(&name.as_str()) {
            return Err(format!("field `player`: no player called {name:?}"));
        }
        if s.pos.is_none() && s.look.is_none() {
            return Err("a player step needs `pos` or `look`".into());
        }
        return Ok(Step::Player { name: name.clone(), pos: s.pos.map(Pos::from), look: s.look.map(look) });
    }
    if let Some(run) = &s.run {
        only(s, "run", &["run"])?;
        return match run {
            RunSpec::Ticks(n) => Ok(Step::Run(RunUntil::Ticks(ticks_at_most(*n, "run")?))),
            RunSpec::Word(w) if w == "idle" => Ok(Step::Run(RunUntil::Idle)),
            RunSpec::Word(w) => Err(format!("field `run`: {w:?} is neither \"idle\" nor a number of ticks")),
        };
    }
    let kind = s.expect.as_deref().unwrap_or_default();
    // lexicon: scenario file keys.
    let expect = match kind {
        "blocks" => {
            // lexicon: scenario file keys.
            only(s, "blocks", &["expect", "region", "near", "radius", "block", "colour", "op", "count"])?;
            let region = match (&s.region, &s.near) {
                (Some(r), None) => {
                    if s.radius.is_some() {
                        return Err("field `radius` goes with `near`, not `region`".into());
                    }
                    let b = BBox::new(Pos::from(r.from), Pos::from(r.to));
                    if b.volume() > MAX_REGION_BLOCKS {
                        return Err(format!("field `region`: a box of {} blocks is more than a step may count ({MAX_REGION_BLOCKS})", b.volume()));
                    }
                    Region::Box(b)
                }
                (None, Some(n)) => Region::Near { who: target_of(n, players)?, radius: radius_of(&s.radius, "blocks")? },
                _ => return Err("a blocks step needs `region` or `near` (with `radius`), one of them".into()),
            };
            Expect::Blocks { region, what: block_match(s, "blocks")?, op: op_of(s)?, count: need(&s.count, "count", "blocks")? }
        }
        "block" => {
            // lexicon: scenario file keys.
            only(s, "block", &["expect", "at", "block", "colour"])?;
            Expect::Block { at: Pos::from(need(&s.at, "at", "block")?), what: block_match(s, "block")? }
        }
        "agent_near" => {
            // lexicon: scenario file keys.
            only(s, "agent_near", &["expect", "target", "within"])?;
            let target = match need(&s.target, "target", "agent_near")? {
                TargetSpec::Name(n) => target_of(&n, players)?,
                TargetSpec::Pos(p) => Target::Pos(Pos::from(p)),
            };
            Expect::AgentNear { target, within: need(&s.within, "within", "agent_near")? }
        }
        "chat" | "no_chat" => {
            only(s, kind, &["expect", "matches"])?;
            let re = regex_of(&need(&s.matches, "matches", kind)?).map_err(|m| format!("field `matches`: {m}"))?;
            if kind == "chat" { Expect::Chat(re) } else { Expect::NoChat(re) }
        }
        "unchanged" => {
            only(s, "unchanged", &["expect", "since"])?;
            let since = need(&s.since, "since", "unchanged")?;
            if since >= i {
                return Err(format!("field `since`: step {since} does not come before this step"));
            }
            Expect::Unchanged { since }
        }
        "mobs" => {
            // lexicon: scenario file keys.
            only(s, "mobs", &["expect", "kind", "near", "radius", "region", "op", "count"])?;
            if let Some(k) = &s.kind
                && !MOB_KINDS.contains(&k.as_str())
            {
                return Err(format!("field `kind`: unknown mob {k:?}"));
            }
            let near = match &s.near {
                Some(n) => Some((target_of(n, players)?, radius_of(&s.radius, "mobs")?)),
                None if s.radius.is_some() => return Err("field `radius` needs `near`".into()),
                None => None,
            };
            if near.is_some() && s.region.is_some() {
                return Err("a mobs step takes `near` or `region`, not both".into());
            }
            let region = s.region.as_ref().map(|r| BBox::new(Pos::from(r.from), Pos::from(r.to)));
            Expect::Mobs { kind: s.kind.clone(), near, region, op: op_of(s)?, count: need(&s.count, "count", "mobs")? }
        }
        "items" => {
            // lexicon: scenario file keys.
            only(s, "items", &["expect", "holder", "item", "op", "count"])?;
            super::items::expect(s, players, op_of(s)?, need(&s.count, "count", "items")?)?
        }
        other => {
            return Err(format!(
                "field `expect`: unknown expectation {other:?} (known: blocks, block, agent_near, chat, no_chat, unchanged, mobs, items)"
            ));
        }
    };
    Ok(Step::Expect(expect))
}

/// Every `.toml` file under the given files and directories (directories recursively), sorted.
/// A folder reached twice (a symbolic link back up the tree, or to a folder already listed) is
/// listed once: a link loop ends instead of recursing forever.
pub fn collect_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, ScenarioError> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for input in inputs {
        if input.is_dir() {
            walk(input, &mut out, &mut seen).map_err(|e| ScenarioError { file: input.clone(), message: format!("cannot list: {e}") })?;
        } else if input.exists() {
            out.push(input.clone());
        } else {
            return Err(ScenarioError { file: input.clone(), message: "no such file or directory".into() });
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, seen: &mut std::collections::HashSet<PathBuf>) -> std::io::Result<()> {
    if !seen.insert(std::fs::canonicalize(dir)?) {
        return Ok(());
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out, seen)?;
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
    Ok(())
}
