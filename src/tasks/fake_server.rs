//! For the task tests: the embedded world acting like a server that does not always do what it
//! is asked — spawn eggs that make no mob, items thrown that lie on the ground, are picked up
//! later, or are taken back by the bot itself — so the tests can check that tasks report what
//! the world shows, not what they asked for.

use crate::tasks::{TaskMeta, TaskStack, TaskState, Task};
use crate::world::embedded::EmbeddedWorld;
use crate::world::*;

/// What becomes of items the bot hands over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hand {
    /// Received at once (as the embedded world does).
    Direct,
    /// Thrown; the receiver picks them up this many ticks later.
    Later(u64),
    /// Thrown; they lie near the receiver and nobody takes them.
    Lying,
    /// Thrown; the bot picks them up again itself, this many ticks later.
    Mine(u64),
    /// Nothing comes out at all.
    Nothing,
}

/// An item lying around: entity id, item, count, where, the tick it lands in someone's hands, who.
type Lying = (u64, String, u32, Vec3, Option<u64>, String);

pub struct FakeServer {
    pub world: EmbeddedWorld,
    /// How many more spawns make a mob (`None`: all of them).
    pub spawns: Option<u32>,
    pub hand: Hand,
    lying: Vec<Lying>,
    pickups: Vec<Pickup>,
    next_id: u64,
}

impl FakeServer {
    pub fn new(world: EmbeddedWorld) -> FakeServer {
        FakeServer { world, spawns: None, hand: Hand::Direct, lying: Vec::new(), pickups: Vec::new(), next_id: 1000 }
    }

    /// One tick: the world's, then any pickups due.
    pub fn advance(&mut self) {
        self.world.advance();
        let now = self.world.tick();
        let (due, rest): (Vec<_>, Vec<_>) = self.lying.drain(..).partition(|l| l.4.is_some_and(|t| t <= now));
        self.lying = rest;
        for (_, item, count, _, _, by) in due {
            self.pickups.push(Pickup { tick: now, by, item, count });
        }
    }

    /// Run one task as a command until it ends (at most `budget` ticks).
    pub fn run(&mut self, task: impl Task + 'static, budget: u32) -> (TaskState, String) {
        let mut s = TaskStack::default();
        let id = s.push(Box::new(task), TaskMeta::default());
        for _ in 0..budget {
            self.advance();
            s.tick(self);
            if s.is_idle() {
                break;
            }
        }
        let r = s.record(id).expect("the task's record");
        (r.state, r.outcome.clone().unwrap_or_default())
    }
}

impl World for FakeServer {
    fn tick(&self) -> u64 {
        self.world.tick()
    }
    fn block_at(&self, p: Pos) -> Block {
        self.world.block_at(p)
    }
    fn blocks_in(&self, bbox: BBox) -> Vec<(Pos, Block)> {
        self.world.blocks_in(bbox)
    }
    fn players(&self) -> Vec<PlayerInfo> {
        self.world.players()
    }
    fn mobs(&self) -> Vec<MobInfo> {
        self.world.mobs()
    }
    fn items(&self) -> Vec<ItemInfo> {
        let info = |(id, item, count, pos, ..): &Lying| ItemInfo { id: *id, item: item.clone(), count: *count, pos: *pos };
        self.lying.iter().map(info).collect()
    }
    fn pickups_since(&self, cursor: usize) -> (Vec<Pickup>, usize) {
        let (new, next) = record::since(&self.pickups, 0, cursor);
        (new.to_vec(), next)
    }
    fn agent_name(&self) -> &str {
        self.world.agent_name()
    }
    fn agent_pos(&self) -> Pos {
        self.world.agent_pos()
    }
    fn agent_look(&self) -> Look {
        self.world.agent_look()
    }
    fn take_chats(&mut self) -> Vec<ChatMessage> {
        self.world.take_chats()
    }
    fn changes_since(&self, cursor: usize) -> (Vec<BlockChange>, usize) {
        self.world.changes_since(cursor)
    }
    fn step_to(&mut self, to: Pos) -> Result<(), ActionError> {
        self.world.step_to(to)
    }
    fn place_block(&mut self, p: Pos, block: Block) -> Result<(), ActionError> {
        self.world.place_block(p, block)
    }
    fn break_block(&mut self, p: Pos) -> Result<(), ActionError> {
        self.world.break_block(p)
    }
    fn set_look(&mut self, look: Look) {
        self.world.set_look(look)
    }
    fn spawn_mob(&mut self, kind: &str, p: Vec3) -> Result<(), ActionError> {
        match &mut self.spawns {
            Some(0) => Ok(()),
            Some(n) => {
                *n -= 1;
                self.world.spawn_mob(kind, p)
            }
            None => self.world.spawn_mob(kind, p),
        }
    }
    fn give_item(&mut self, player: &str, item: &str, count: u32) -> Result<(), ActionError> {
        let at = self.world.players().into_iter().find(|p| p.name == player).map(|p| p.pos);
        let Some(at) = at.filter(|_| self.hand != Hand::Direct) else {
            let (_, before) = self.world.pickups_since(usize::MAX);
            self.world.give_item(player, item, count)?;
            self.pickups.extend(self.world.pickups_since(before).0);
            return Ok(());
        };
        let now = self.world.tick();
        let me = self.world.agent_name().to_string();
        let (when, who) = match self.hand {
            Hand::Later(t) => (Some(now + t), player.to_string()),
            Hand::Mine(t) => (Some(now + t), me),
            Hand::Lying => (None, String::new()),
            Hand::Direct | Hand::Nothing => return Ok(()),
        };
        self.next_id += 1;
        self.lying.push((self.next_id, item.to_string(), count, at, when, who));
        Ok(())
    }
    fn say(&mut self, text: &str) {
        self.world.say(text)
    }
}
