//! Playing a scenario: set up the embedded world, feed the steps to a bot, judge expectations.
//!
//! Judging uses only in-world evidence (blocks, positions, mobs, chat), never the bot's insides,
//! so the same scenarios hold whatever the bot's internals become.

use super::load::{BlockMatch, Expect, Region, RunUntil, Scenario, Step, Target};
use crate::agent::Bot;
use crate::world::embedded::EmbeddedWorld;
use crate::world::{Actor, BBox, Pos, Vec3, World};
use serde::Serialize;
use std::collections::HashMap;

/// How one scenario went.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub name: String,
    pub file: String,
    pub passed: bool,
    /// The step that failed (0-based), if any.
    pub failed_step: Option<usize>,
    /// The expectation word of the failed step (`blocks`, `chat`, …) or `setup`.
    pub failed_expect: Option<String>,
    /// What was seen, for a failure; for an expected failure, the failure that was expected.
    pub reason: Option<String>,
    /// Game ticks run in total.
    pub ticks: u64,
    /// The scenario was marked to fail and did fail where expected.
    pub expected_failure: bool,
}

/// Where a run stopped: at a failing step, or at the end.
struct Stop {
    step: Option<usize>,
    expect: String,
    reason: String,
}

/// Run `s` with `bot` and judge it (expected failures included).
pub fn run(s: &Scenario, bot: &mut dyn Bot) -> Outcome {
    let mut world = EmbeddedWorld::new(s.preset, &s.agent_name, s.agent_pos);
    let (stop, ticks) = play(s, bot, &mut world);
    let mut o = Outcome {
        name: s.name.clone(),
        file: s.path.display().to_string(),
        passed: stop.is_none(),
        failed_step: stop.as_ref().and_then(|x| x.step),
        failed_expect: stop.as_ref().map(|x| x.expect.clone()),
        reason: stop.map(|x| x.reason),
        ticks,
        expected_failure: false,
    };
    if let Some((step, re)) = &s.expected_failure {
        let reason_ok = |r: &str| re.as_ref().is_none_or(|re| re.is_match(r));
        match (o.failed_step, o.reason.clone()) {
            (Some(f), Some(r)) if f == *step && reason_ok(&r) => {
                o.passed = true;
                o.expected_failure = true;
            }
            (Some(_), Some(r)) => {
                o.reason = Some(format!("{r} (this scenario is expected to fail at step {step}{})", match re {
                    Some(re) => format!(" with a reason matching {:?}", re.as_str()),
                    None => String::new(),
                }));
            }
            _ => {
                o.passed = false;
                o.failed_step = Some(*step);
                o.failed_expect = Some(expect_word(&s.steps[*step]));
                o.reason = Some("expected this step to fail, but the scenario passed".into());
            }
        }
    }
    o
}

fn expect_word(step: &Step) -> String {
    match step {
        Step::Expect(e) => e.word().to_string(),
        Step::Say { .. } => "say".into(),
        Step::Player { .. } => "player".into(),
        Step::Run(_) => "run".into(),
    }
}

fn play(s: &Scenario, bot: &mut dyn Bot, world: &mut EmbeddedWorld) -> (Option<Stop>, u64) {
    world.set_seed(s.seed);
    world.set_look(s.agent_look);
    for (name, pos, look) in &s.players {
        world.add_player(name, pos.feet(), *look);
    }
    // Pre-placed blocks are built "as if a player did it": they go through the change record,
    // so the bot perceives them like any other build.
    let builder = s.players.first().map(|(n, _, _)| Actor::Player(n.clone())).unwrap_or(Actor::World);
    for (bbox, block) in &s.blocks {
        world.fill_by(*bbox, *block, builder.clone());
    }
    super::items::set_up(&s.stock, world);
    for (kind, pos) in &s.mobs {
        if let Err(e) = world.spawn_mob(kind, pos.feet()) {
            return (Some(Stop { step: None, expect: "setup".into(), reason: format!("cannot spawn {kind} at {pos}: {e}") }), 0);
        }
    }

    let wanted_snapshots: Vec<usize> =
        s.steps.iter().filter_map(|st| if let Step::Expect(Expect::Unchanged { since }) = st { Some(*since) } else { None }).collect();
    let mut snapshots: HashMap<usize, EmbeddedWorld> = HashMap::new();
    let mut ticks = 0u64;
    // Index in the chat log just after the most recent `say`.
    let mut said_mark = 0usize;

    for (i, step) in s.steps.iter().enumerate() {
        if wanted_snapshots.contains(&i) {
            snapshots.insert(i, world.clone());
        }
        match step {
            Step::Say { by, text, lf } => {
                if let Some(lf) = lf {
                    bot.expect_parse(by, text, lf.as_ref().clone());
                }
                world.player_says(by, text);
                said_mark = world.chat_end();
            }
            Step::Player { name, pos, look } => {
                if let Some(p) = world.player_mut(name) {
                    if let Some(pos) = pos {
                        p.pos = pos.feet();
                    }
                    if let Some(look) = look {
                        p.look = *look;
                    }
                }
            }
            Step::Run(until) => {
                let limit = match until {
                    RunUntil::Idle => s.max_ticks.max(1),
                    RunUntil::Ticks(n) => *n,
                };
                // `idle` always runs at least one tick, so the bot gets to read new chat.
                for _ in 0..limit {
                    world.advance();
                    bot.tick(world);
                    ticks += 1;
                    if *until == RunUntil::Idle && bot.is_idle() {
                        break;
                    }
                }
            }
            Step::Expect(e) => {
                if let Err(reason) = judge(e, world, said_mark, &snapshots) {
                    return (Some(Stop { step: Some(i), expect: e.word().into(), reason }), ticks);
                }
            }
        }
    }
    (None, ticks)
}

fn target_pos(t: &Target, w: &EmbeddedWorld) -> Result<Vec3, String> {
    match t {
        Target::Agent => Ok(w.agent_pos().feet()),
        Target::Pos(p) => Ok(p.feet()),
        Target::Player(n) => w.player(n).map(|p| p.pos).ok_or_else(|| format!("player {n:?} is gone")),
    }
}

fn target_name(t: &Target) -> String {
    match t {
        Target::Agent => "the agent".into(),
        Target::Pos(p) => p.to_string(),
        Target::Player(n) => n.clone(),
    }
}

fn describe(what: BlockMatch) -> String {
    match what {
        BlockMatch::Block(b) => format!("{b} blocks"),
        BlockMatch::Colour(c) => format!("{c} blocks"),
        BlockMatch::Air => "air blocks".into(),
        BlockMatch::Placed => "placed blocks".into(),
    }
}

fn matches_block(w: &EmbeddedWorld, p: Pos, what: BlockMatch) -> bool {
    let b = w.block_at(p);
    match what {
        BlockMatch::Block(x) => b == x,
        BlockMatch::Colour(c) => !b.is_air() && b.colour() == Some(c),
        BlockMatch::Air => b.is_air(),
        BlockMatch::Placed => w.is_placed(p),
    }
}

/// The bot's chat lines since the most recent `say`.
fn bot_lines(w: &EmbeddedWorld, mark: usize) -> Vec<&str> {
    w.chat_since(mark).iter().filter(|l| l.from_agent).map(|l| l.text.as_str()).collect()
}

fn quote_lines(lines: &[&str]) -> String {
    if lines.is_empty() {
        return "the bot said nothing".into();
    }
    let shown: Vec<String> = lines.iter().take(5).map(|l| format!("{l:?}")).collect();
    let more = if lines.len() > 5 { format!(" and {} more", lines.len() - 5) } else { String::new() };
    format!("the bot said {}{more}", shown.join(", "))
}

fn judge(e: &Expect, w: &EmbeddedWorld, said_mark: usize, snapshots: &HashMap<usize, EmbeddedWorld>) -> Result<(), String> {
    match e {
        Expect::Blocks { region, what, op, count } => {
            let (seen, place) = match region {
                Region::Box(b) => (b.iter().filter(|&p| matches_block(w, p, *what)).count() as u64, format!("in {} to {}", b.min, b.max)),
                Region::Near { who, radius } => {
                    let c = target_pos(who, w)?;
                    let r = radius.ceil() as i32;
                    let bbox = BBox::around(c.block(), r);
                    let n = bbox.iter().filter(|&p| p.center().distance(c) <= *radius && matches_block(w, p, *what)).count();
                    (n as u64, format!("within {radius} of {}", target_name(who)))
                }
            };
            if op.holds(seen, *count) {
                Ok(())
            } else {
                Err(format!("found {seen} {} {place}, expected {} {count}", describe(*what), op.symbol()))
            }
        }
        Expect::Block { at, what } => {
            if matches_block(w, *at, *what) {
                Ok(())
            } else {
                let wanted = match what {
                    BlockMatch::Block(b) => b.to_string(),
                    BlockMatch::Colour(c) => format!("a {c} block"),
                    BlockMatch::Air => "air".into(),
                    BlockMatch::Placed => "a placed block".into(),
                };
                Err(format!("found {} at {at}, expected {wanted}", w.block_at(*at)))
            }
        }
        Expect::AgentNear { target, within } => {
            let t = target_pos(target, w)?;
            let d = w.agent_pos().feet().distance(t);
            if d <= *within {
                Ok(())
            } else {
                Err(format!("the agent is at {}, {d:.1} blocks from {}, expected within {within}", w.agent_pos(), target_name(target)))
            }
        }
        Expect::Chat(re) => {
            let lines = bot_lines(w, said_mark);
            if lines.iter().any(|l| re.is_match(l)) {
                Ok(())
            } else {
                Err(format!("nothing matched {:?}: {}", re.as_str(), quote_lines(&lines)))
            }
        }
        Expect::NoChat(re) => {
            let lines = bot_lines(w, said_mark);
            match lines.iter().find(|l| re.is_match(l)) {
                None => Ok(()),
                Some(l) => Err(format!("the bot said {l:?}, which matches {:?}", re.as_str())),
            }
        }
        Expect::Unchanged { since } => {
            let before = snapshots.get(since).ok_or_else(|| format!("no snapshot of step {since}"))?;
            match w.same_blocks(before) {
                None => Ok(()),
                Some((p, was, now)) => Err(format!("the block at {p} is {now}, it was {was} before step {since}")),
            }
        }
        Expect::Mobs { kind, near, region, op, count } => {
            let centre = near.as_ref().map(|(t, r)| target_pos(t, w).map(|c| (c, *r))).transpose()?;
            let seen = w
                .mob_list()
                .iter()
                .filter(|m| kind.as_ref().is_none_or(|k| m.kind == *k))
                .filter(|m| centre.is_none_or(|(c, r)| m.pos.distance(c) <= r))
                .filter(|m| region.is_none_or(|b| b.contains(m.pos.block())))
                .count() as u64;
            if op.holds(seen, *count) {
                Ok(())
            } else {
                let what = kind.clone().unwrap_or_else(|| "mob".into());
                let place = match (near, region) {
                    (Some((t, r)), _) => format!(" within {r} of {}", target_name(t)),
                    (None, Some(b)) => format!(" in {} to {}", b.min, b.max),
                    (None, None) => String::new(),
                };
                Err(format!("found {seen} {what}{place}, expected {} {count}", op.symbol()))
            }
        }
        Expect::Items { holder, item, op, count } => super::items::judge(w, holder, item, *op, *count),
    }
}
