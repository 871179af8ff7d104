//! Get and give: go to an object or player ("get the cube", "come to the house" style), and hand
//! a player an item ("give me a sword").
//!
//! The embedded world has no dropped items to pick up, so Get means walking up to the thing;
//! Give walks up to the player when their position is known, then uses `World::give_item`.

use super::movement::Move;
use super::{Step, Task, TaskContext, TaskKind};
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

/// Hand `count` of `item` to `player`, walking up to them first when `near` is given.
pub struct Give {
    player: String,
    item: String,
    count: u32,
    near: Option<Pos>,
}

impl Give {
    pub fn new(player: impl Into<String>, item: impl Into<String>, count: u32) -> Give {
        Give { player: player.into(), item: item.into(), count: count.max(1), near: None }
    }

    /// Walk to within 2 blocks of the player's position first.
    pub fn walking_to(mut self, player_pos: Pos) -> Give {
        self.near = Some(player_pos);
        self
    }
}

impl Task for Give {
    fn kind(&self) -> TaskKind {
        TaskKind::Get
    }

    fn describe(&self) -> String {
        format!("giving {} {} to {}", self.count, self.item.replace('_', " "), self.player)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        if let Some(p) = self.near.take() {
            return Step::Push(Box::new(Move::near(p, 2).labelled(format!("walking over to {}", self.player))));
        }
        match ctx.world.give_item(&self.player, &self.item, self.count) {
            Ok(()) => {
                Step::Done(format!("Here you go, {}: {} {}.", self.player, self.count, self.item.replace('_', " ")))
            }
            Err(e) => Step::Failed(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::run_task;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Look, Vec3};

    #[test]
    fn give_without_walking() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(1.5, 5.0, 0.5), Look::default());
        let out = run_task(&mut w, Give::new("alice", "bread", 2), 5);
        assert_eq!(out, (TaskState::Done, "Here you go, alice: 2 bread.".into()));
        let out = run_task(&mut w, Give::new("alice", "unobtainium", 1), 5);
        assert_eq!(out, (TaskState::Failed, "I don't know an item called \"unobtainium\"".into()));
    }
}
