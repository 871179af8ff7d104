//! Get and give: go to an object or player ("get the cube", "come to the house" style), and hand
//! a player an item ("give me a sword").
//!
//! The embedded world has no dropped items to pick up, so Get means walking up to the thing.
//! Give walks up beside the player when their position is known, hands the items over with
//! `World::give_item` and judges by the world's pickups what the player received: a world may
//! throw the stack rather than hand it, and a thrown stack may lie where nobody takes it, or
//! land at the bot's own feet. After a throw the bot steps back, so it is not the one nearest.

use super::movement::Move;
use super::{ChildOutcome, Step, Task, TaskContext, TaskKind};
use crate::lexicon::lexicon;
use crate::world::Pos;

/// Walk up to a thing (within one block of `at`).
pub struct Get {
    at: Pos,
    label: String,
    walked: bool,
}

impl Get {
    pub fn new(at: Pos, label: impl Into<String>) -> Get {
        Get { at, label: label.into(), walked: false }
    }
}

impl Task for Get {
    fn kind(&self) -> TaskKind {
        TaskKind::Get
    }

    fn describe(&self) -> String {
        format!("going to get {}", self.label)
    }

    fn step(&mut self, _ctx: &mut TaskContext) -> Step {
        if !self.walked {
            self.walked = true;
            return Step::Push(Box::new(Move::near(self.at, 1).labelled(self.describe())));
        }
        Step::Done(format!("I got to {}.", self.label))
    }
}

/// Hand `count` of `item` to `player`, walking up to them first when `near` is given, and say
/// what they really received: the world's pickups after the throw are what counts.
pub struct Give {
    player: String,
    item: String,
    count: u32,
    near: Option<Pos>,
    /// Where the pickup record stood when the items left the bot's hands.
    cursor: Option<usize>,
    /// Where the bot stepped back to (so the items are not its own to pick up again).
    stepped_back: Option<Pos>,
    /// Ticks waited since the throw.
    waited: u32,
    /// Items of the kind were seen lying around since the throw.
    seen_lying: bool,
}

/// How long a thrown stack may take to be picked up, in ticks (a server's pickup delay and a
/// moment for the player to step over).
const TAKE_WAIT_TICKS: u32 = 200;
/// With nothing to be seen at all, how long before saying so.
const NOTHING_WAIT_TICKS: u32 = 60;
/// Items this near the bot count as just thrown by it.
const NEAR_ME: f64 = 3.0;
/// Ticks to wait for the thrown items to show before stepping back anyway.
const SETTLE_TICKS: u32 = 20;
/// How far the bot steps back after throwing, in blocks (it ends at least two blocks from where
/// it threw).
const STEP_BACK: f64 = 3.0;

/// What the pickups since the throw add up to.
#[derive(Debug, Default)]
struct Received {
    by_player: u32,
    by_me: u32,
}

impl Give {
    pub fn new(player: impl Into<String>, item: impl Into<String>, count: u32) -> Give {
        Give {
            player: player.into(),
            item: item.into(),
            count: count.max(1),
            near: None,
            cursor: None,
            stepped_back: None,
            waited: 0,
            seen_lying: false,
        }
    }

    /// Walk to right beside the player's position first.
    pub fn walking_to(mut self, player_pos: Pos) -> Give {
        self.near = Some(player_pos);
        self
    }

    fn what(&self) -> String {
        lexicon().counted(self.count, &lexicon().display_name(&self.item))
    }

    fn received(&self, ctx: &TaskContext, cursor: usize) -> Received {
        let me = ctx.world.agent_name().to_string();
        let mut r = Received::default();
        for p in ctx.world.pickups_since(cursor).0 {
            if p.item != self.item {
                continue;
            }
            if p.by.eq_ignore_ascii_case(&self.player) {
                r.by_player += p.count;
            } else if p.by.eq_ignore_ascii_case(&me) {
                r.by_me += p.count;
            }
        }
        r
    }

    /// A spot a few blocks further from the player than the bot stands (where it threw from),
    /// so the bot is not the one nearest to what it threw.
    fn back_off(&self, ctx: &TaskContext) -> Option<Pos> {
        let player = ctx.world.players().into_iter().find(|p| p.name.eq_ignore_ascii_case(&self.player))?;
        let me = ctx.world.agent_pos();
        let (dx, dz) = (me.feet().x - player.pos.x, me.feet().z - player.pos.z);
        let longest = dx.abs().max(dz.abs());
        let (dx, dz) = if longest < 0.3 { (1.0, 0.0) } else { (dx / longest, dz / longest) };
        // STEP_BACK blocks along the longer axis; the walk may stop a block short of it.
        let step = |d: f64| (d * STEP_BACK).round() as i32;
        Some(Pos::new(me.x + step(dx), me.y, me.z + step(dz)))
    }

    /// After the throw: done when the player has it all, else wait (stepping back once), and
    /// in the end say what happened.
    fn judge(&mut self, ctx: &mut TaskContext, cursor: usize) -> Step {
        let got = self.received(ctx, cursor);
        if got.by_player >= self.count {
            return Step::Done(format!("Here you go, {}: {}.", self.player, self.what()));
        }
        let here = ctx.world.agent_pos().feet();
        let lying: Vec<_> = ctx.world.items().into_iter().filter(|i| i.item == self.item).collect();
        self.seen_lying |= !lying.is_empty();
        self.waited += 1;
        // Step back once the items are out (a server may drop them where the bot stands when it
        // gets round to it: leaving before would take them along), or after a while regardless.
        let by_me: u32 = lying.iter().filter(|i| i.pos.distance(here) <= NEAR_ME).map(|i| i.count).sum();
        let out = by_me + got.by_player + got.by_me >= self.count || self.waited >= SETTLE_TICKS;
        if self.stepped_back.is_none()
            && out
            && let Some(to) = self.back_off(ctx)
        {
            self.stepped_back = Some(to);
            return Step::Push(Box::new(Move::near(to, 1).labelled(format!("stepping back from {}", self.player))));
        }
        let anything = self.seen_lying || got.by_player > 0 || got.by_me > 0;
        let limit = if anything { TAKE_WAIT_TICKS } else { NOTHING_WAIT_TICKS };
        if self.waited < limit {
            return Step::Continue;
        }
        let (what, who) = (self.what(), &self.player);
        match got {
            Received { by_player: n, .. } if n > 0 => Step::Done(format!(
                "{who}, you picked up only {n} of the {what} I threw you."
            )),
            Received { by_me: n, .. } if n > 0 => {
                Step::Failed(format!("I threw you {what}, {who}, but they landed by me and I picked them up again."))
            }
            _ if self.seen_lying => {
                let what = format!("I threw you {what}, {who}, but you didn't pick them up");
                Step::Failed(format!("{what}; they're on the ground near you."))
            }
            _ => Step::Failed(format!("I tried to give you {what}, {who}, but nothing came out of my hands.")),
        }
    }
}

impl Task for Give {
    fn kind(&self) -> TaskKind {
        TaskKind::Get
    }

    fn describe(&self) -> String {
        format!("giving {} to {}", self.what(), self.player)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        if let Some(p) = self.near.take() {
            return Step::Push(Box::new(Move::near(p, 1).labelled(format!("walking over to {}", self.player))));
        }
        if let Some(cursor) = self.cursor {
            return self.judge(ctx, cursor);
        }
        let (_, cursor) = ctx.world.pickups_since(usize::MAX);
        if let Err(e) = ctx.world.give_item(&self.player, &self.item, self.count) {
            return Step::Failed(e.to_string());
        }
        self.cursor = Some(cursor);
        self.judge(ctx, cursor)
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        match outcome {
            // Stepping back is a courtesy: from where it stands the items may still reach them.
            ChildOutcome::Failed(_) if self.stepped_back.is_some() => None,
            ChildOutcome::Failed(reason) => Some(Step::Failed(reason)),
            ChildOutcome::Done(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::fake_server::{FakeServer, Hand};
    use crate::tasks::testing::run_task;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Look, Vec3, World};

    #[test]
    fn give_without_walking() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(1.5, 5.0, 0.5), Look::default());
        let out = run_task(&mut w, Give::new("alice", "bread", 2), 5);
        assert_eq!(out, (TaskState::Done, "Here you go, alice: 2 bread.".into()));
        let out = run_task(&mut w, Give::new("alice", "unobtainium", 1), 5);
        assert_eq!(out, (TaskState::Failed, "I don't know an item called \"unobtainium\"".into()));
        let out = run_task(&mut w, Give::new("alice", "torch", 10), 5);
        assert_eq!(out, (TaskState::Done, "Here you go, alice: 10 torches.".into()));
        let out = run_task(&mut w, Give::new("alice", "apple", 5), 5);
        assert_eq!(out, (TaskState::Done, "Here you go, alice: 5 apples.".into()));
        assert_eq!(w.agent_pos(), Pos::new(0, 5, 0), "handed over at once: no stepping back");
    }

    fn thrown(hand: Hand) -> (TaskState, String, FakeServer) {
        let mut w = FakeServer::new(EmbeddedWorld::flat());
        w.world.add_player("alice", Vec3::new(4.5, 5.0, 0.5), Look::default());
        w.hand = hand;
        let (state, said) = w.run(Give::new("alice", "apple", 5).walking_to(Pos::new(4, 5, 0)), 600);
        (state, said, w)
    }

    #[test]
    fn a_thrown_stack_counts_once_the_player_has_it() {
        let (state, said, w) = thrown(Hand::Later(40));
        assert_eq!((state, said.as_str()), (TaskState::Done, "Here you go, alice: 5 apples."));
        let back = w.agent_pos().feet().distance(Vec3::new(4.5, 5.0, 0.5));
        assert!(back >= 2.0, "stepped back after throwing, to {}", w.agent_pos());
    }

    #[test]
    fn says_what_became_of_a_stack_nobody_received() {
        let (state, said, _) = thrown(Hand::Lying);
        assert_eq!(state, TaskState::Failed);
        assert_eq!(said, "I threw you 5 apples, alice, but you didn't pick them up; they're on the ground near you.");
        let (_, said, _) = thrown(Hand::Mine(5));
        assert_eq!(said, "I threw you 5 apples, alice, but they landed by me and I picked them up again.");
        let (_, said, _) = thrown(Hand::Nothing);
        assert_eq!(said, "I tried to give you 5 apples, alice, but nothing came out of my hands.");
    }
}
