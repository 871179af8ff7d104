//! Gather: break given blocks and keep what they give — chop a tree, mine an ore vein down a
//! staircase, harvest ripe wheat (and plant it again) — then, when asked, hand it to a player.
//!
//! The interpreter chooses the blocks (the tree, the vein and the stairs to it, the ripe
//! crops); this task only breaks them with the shared edit engine, which walks and climbs
//! where needed, and counts the drops of each block it broke ([`rules::drops`]): stone gives
//! cobblestone, coal ore coal. What was kept shows in [`World::carried`]; a world that cannot
//! keep items (a creative server drops nothing) still gets the count said, and the hand-over
//! then comes from creative supply.

use super::edit::{Edit, EditStep};
use super::{ChildOutcome, Limits, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::rules::{self, RIPE};
use crate::world::{BBox, Block, Inventory, Pos};
use rustc_hash::FxHashSet;

/// Who the gathered items go to, and which of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    pub player: String,
    /// Item ids to hand over (those asked for); the rest stays with the bot.
    pub items: Vec<String>,
    /// Hand over at most this many of each (a count the player asked for).
    pub at_most: Option<u32>,
}

/// The longest wait for crops to ripen: two minutes (wheat takes about half a minute).
pub const RIPEN_TICKS: u32 = 2400;

enum Phase {
    /// Waiting for the crops to ripen (ticks waited so far).
    Ripening(u32),
    Breaking,
    Replanting,
    Delivering(Vec<(String, u32)>),
    Finished,
}

pub struct Gather {
    label: String,
    edit: Edit,
    /// Later stages, each its own dig (another ore vein down its own staircase), done in turn.
    stages: std::collections::VecDeque<Vec<Pos>>,
    /// The blocks asked for (the ore, the logs, the crops), not the way to them.
    wanted: FxHashSet<Pos>,
    /// Crops to plant again once harvested.
    replant: Vec<Pos>,
    deliver: Option<Delivery>,
    /// How many of the command's changes were counted already.
    counted: usize,
    got: Inventory,
    /// Drops of the wanted blocks alone (what the player asked for).
    got_wanted: Inventory,
    phase: Phase,
}

impl Gather {
    /// Break `wanted` (and `way`, the blocks in the way: stairs down to an ore) and keep what
    /// they give; `label` names it for chat ("the coal ore").
    pub fn new(wanted: Vec<Pos>, way: Vec<Pos>, label: impl Into<String>, limits: &Limits) -> Result<Gather, TaskError> {
        limits.check_blocks(wanted.len() + way.len(), "gather")?;
        super::limits::check_in_world(&wanted)?;
        let targets = way.iter().chain(&wanted).map(|p| (*p, Block::AIR)).collect();
        Ok(Gather {
            label: label.into(),
            edit: Edit::new(targets),
            stages: Default::default(),
            wanted: wanted.into_iter().collect(),
            replant: Vec::new(),
            deliver: None,
            counted: 0,
            got: Inventory::default(),
            got_wanted: Inventory::default(),
            phase: Phase::Breaking,
        })
    }

    /// Then also break `wanted` and `way`, once everything before is done (a second vein, down
    /// its own stairs: the bot finishes one staircase before it starts the next).
    pub fn then_also(mut self, wanted: Vec<Pos>, way: Vec<Pos>) -> Gather {
        self.stages.push_back(way.into_iter().chain(wanted.iter().copied()).collect());
        self.wanted.extend(wanted);
        self
    }

    /// Wait for the wanted crops to ripen first (at most [`RIPEN_TICKS`]); any still unripe
    /// then are left standing.
    pub fn once_ripe(mut self) -> Gather {
        self.phase = Phase::Ripening(0);
        self
    }

    /// Plant a crop again where each of `cells` was harvested.
    pub fn replanting(mut self, cells: Vec<Pos>) -> Gather {
        self.replant = cells;
        self
    }

    /// Hand the gathered items to a player at the end.
    pub fn delivering(mut self, to: Delivery) -> Gather {
        self.deliver = Some(to);
        self
    }

    /// Count the drops of the blocks broken since the last look, and keep them.
    fn keep_new_drops(&mut self, ctx: &mut TaskContext) {
        let fresh: Vec<_> = ctx.changes()[self.counted..].iter().filter(|c| c.after.is_air() && !c.before.is_air()).copied().collect();
        self.counted = ctx.changes().len();
        for c in fresh {
            let wanted = self.wanted.contains(&c.pos);
            // Only ripe crops were chosen, so a wanted crop was ripe when broken.
            for (item, n) in rules::drops(c.before, wanted && c.before.name() == "wheat") {
                self.got.add(item, n);
                if wanted {
                    self.got_wanted.add(item, n);
                }
                // A world that cannot keep items still counts them.
                let _ = ctx.world.keep_item(item, n);
            }
        }
    }

    fn said(&self, inv: &Inventory) -> String {
        super::items::said(inv.items())
    }

    fn next_delivery(&mut self, ctx: &TaskContext) -> Step {
        let Phase::Delivering(queue) = &mut self.phase else { return Step::Continue };
        let to = self.deliver.as_ref().map(|d| d.player.clone());
        match super::items::next_give(queue, &to, ctx) {
            Some(step) => step,
            None => {
                self.phase = Phase::Finished;
                Step::Continue
            }
        }
    }

    fn finish(&self) -> Step {
        let kept = self.said(&self.got);
        if self.got_wanted.is_empty() && self.got.is_empty() {
            return Step::Done(format!("There was nothing left of {} to gather.", self.label));
        }
        match &self.deliver {
            Some(_) if self.got_wanted.is_empty() => Step::Done(format!("I got {kept} from {}, but none of what you asked for.", self.label)),
            Some(_) => Step::Done(format!("I got {kept} from {} and handed you what you asked for.", self.label)),
            None => Step::Done(format!("I got {kept} from {}. Say \"give me\" and what you want of it.", self.label)),
        }
    }
}

impl Task for Gather {
    fn kind(&self) -> TaskKind {
        TaskKind::Gather
    }

    fn yields(&self) -> Vec<String> {
        self.got_wanted.items().iter().map(|(i, _)| i.clone()).collect()
    }

    fn describe(&self) -> String {
        match self.phase {
            Phase::Ripening(_) => format!("waiting for {} to ripen", self.label),
            _ => format!("gathering {}", self.label),
        }
    }

    fn progress(&self) -> Option<(usize, usize)> {
        // Waiting for crops is no lack of progress.
        (!matches!(self.phase, Phase::Ripening(_))).then(|| self.edit.progress())
    }

    fn region(&self) -> Option<BBox> {
        self.edit.bbox()
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        loop {
            match &self.phase {
                Phase::Ripening(waited) => {
                    let unripe: Vec<Pos> = self.wanted.iter().copied().filter(|p| ctx.world.crop_age(*p).is_some_and(|a| a < RIPE)).collect();
                    if !unripe.is_empty() && *waited < RIPEN_TICKS {
                        self.phase = Phase::Ripening(waited + 1);
                        return Step::Continue;
                    }
                    if !unripe.is_empty() {
                        self.wanted.retain(|p| !unripe.contains(p));
                        self.replant.retain(|p| !unripe.contains(p));
                        let mut cells: Vec<Pos> = self.wanted.iter().copied().collect();
                        cells.sort_by_key(|p| (p.y, p.x, p.z));
                        self.edit = Edit::new(cells.into_iter().map(|p| (p, Block::AIR)).collect());
                    }
                    self.phase = Phase::Breaking;
                }
                Phase::Breaking => {
                    let step = self.edit.step(ctx);
                    self.keep_new_drops(ctx);
                    match step {
                        EditStep::Step(s) => return s,
                        EditStep::Finished if !self.stages.is_empty() => {
                            let next = self.stages.pop_front().unwrap_or_default();
                            self.edit = Edit::new(next.into_iter().map(|p| (p, Block::AIR)).collect());
                        }
                        EditStep::Finished if !self.replant.is_empty() => {
                            let seeds = self.replant.iter().map(|p| (*p, Block::from_name("wheat").expect("a known block"))).collect();
                            self.edit = Edit::new(seeds);
                            self.phase = Phase::Replanting;
                        }
                        EditStep::Finished => self.phase = self.delivery_queue(),
                    }
                }
                Phase::Replanting => match self.edit.step(ctx) {
                    EditStep::Step(s) => return s,
                    EditStep::Finished => {
                        let planted = self.replant.iter().filter(|p| ctx.world.crop_age(**p).is_some_and(|a| a < RIPE)).count() as u32;
                        // Planting uses a seed each (from what it carries, when it has them).
                        ctx.world.use_carried("wheat_seeds", planted);
                        self.got.take("wheat_seeds", planted);
                        self.phase = self.delivery_queue();
                    }
                },
                Phase::Delivering(_) => return self.next_delivery(ctx),
                Phase::Finished => return self.finish(),
            }
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        match self.phase {
            Phase::Delivering(_) => match outcome {
                ChildOutcome::Done(_) => None,
                ChildOutcome::Failed(why) => Some(Step::Failed(format!("I gathered {} but couldn't hand it over: {why}", self.said(&self.got)))),
            },
            _ => self.edit.child_finished(outcome),
        }
    }
}

impl Gather {
    /// What to hand over: the asked-for items gathered, up to the asked count.
    fn delivery_queue(&self) -> Phase {
        let Some(to) = &self.deliver else { return Phase::Finished };
        let queue: Vec<(String, u32)> = to
            .items
            .iter()
            .filter_map(|i| {
                let n = self.got.count(i).min(to.at_most.unwrap_or(u32::MAX));
                (n > 0).then(|| (i.clone(), n))
            })
            .rev()
            .collect();
        Phase::Delivering(queue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::run_task;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, Look, Vec3, World};

    fn b(n: &str) -> Block {
        Block::from_name(n).unwrap()
    }

    #[test]
    fn chopping_a_tree_keeps_its_logs_and_hands_them_over() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(-3.5, 5.0, 0.5), Look::default());
        let logs: Vec<Pos> = (5..9).map(|y| Pos::new(4, y, 0)).collect();
        for p in &logs {
            w.set_block_by(*p, b("oak_log"), Actor::World);
        }
        let leaves = vec![Pos::new(5, 8, 0), Pos::new(3, 8, 0)];
        for p in &leaves {
            w.set_block_by(*p, b("oak_leaves"), Actor::World);
        }
        let to = Delivery { player: "alice".into(), items: vec!["oak_log".into()], at_most: None };
        let g = Gather::new(logs.clone(), leaves, "the oak tree", &Limits::default()).unwrap().delivering(to);
        let (state, said) = run_task(&mut w, g, 3000);
        assert_eq!(state, TaskState::Done, "{said}");
        assert!(logs.iter().all(|p| w.block_at(*p).is_air()));
        assert_eq!(w.inventory_of("alice").unwrap().count("oak_log"), 4, "{said}");
        assert_eq!(w.carried().count("oak_log"), 0, "handed over what it kept");
    }

    #[test]
    fn harvesting_ripe_wheat_keeps_wheat_and_plants_it_again() {
        let mut w = EmbeddedWorld::flat();
        let cells: Vec<Pos> = (2..5).map(|x| Pos::new(x, 5, 2)).collect();
        for p in &cells {
            w.set_block_by(p.down(1), b("farmland"), Actor::World);
            w.set_block_by(*p, b("wheat"), Actor::World);
            w.set_crop_age(*p, RIPE);
        }
        let g = Gather::new(cells.clone(), vec![], "the wheat", &Limits::default()).unwrap().replanting(cells.clone());
        let (state, said) = run_task(&mut w, g, 3000);
        assert_eq!(state, TaskState::Done, "{said}");
        assert_eq!(w.carried().count("wheat"), 3, "{said}");
        assert!(cells.iter().all(|p| w.crop_age(*p).is_some_and(|a| a < RIPE)), "planted again");
    }
}
