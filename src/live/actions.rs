//! The World trait over the live world: what the agent perceives, read from the client's view and
//! the bot's own predictions, and what each action turns into. Every action is checked first
//! with [`rules`] (the same rules as the embedded world), then sent to the client as a numbered
//! [`Command`], and shows in this view at once as a prediction.

use super::bridge::Command;
use super::{LiveWorld, Line, blocks, chat, placement};
use crate::world::{
    ActionError, BBox, Block, BlockChange, ChatMessage, ItemInfo, Look, MobInfo, Pickup, PlayerInfo, Pos, Vec3, World,
    rules,
};

impl World for LiveWorld {
    fn tick(&self) -> u64 {
        self.tick
    }

    fn block_at(&self, p: Pos) -> Block {
        if let Some((b, _)) = self.predicted.pending.get(&p) {
            return *b;
        }
        self.seen.view.as_ref().and_then(|v| v.block_at(p)).unwrap_or(Block::AIR)
    }

    fn is_known(&self, p: Pos) -> bool {
        self.predicted.pending.contains_key(&p) || self.seen.view.as_ref().is_some_and(|v| v.is_loaded(p))
    }

    fn blocks_in(&self, bbox: BBox) -> Vec<(Pos, Block)> {
        let mut out = match &self.seen.view {
            Some(v) => v.blocks_in(bbox),
            None => Vec::new(),
        };
        if !self.predicted.pending.is_empty() {
            let inside = |p: &Pos| {
                (bbox.min.x..=bbox.max.x).contains(&p.x)
                    && (bbox.min.y..=bbox.max.y).contains(&p.y)
                    && (bbox.min.z..=bbox.max.z).contains(&p.z)
            };
            out.retain(|(p, _)| !self.predicted.pending.contains_key(p));
            out.extend(self.predicted.pending.iter().filter(|(p, (b, _))| inside(p) && !b.is_air()).map(|(p, (b, _))| (*p, *b)));
        }
        out
    }

    fn players(&self) -> Vec<PlayerInfo> {
        self.seen.snapshot.players.clone()
    }

    fn mobs(&self) -> Vec<MobInfo> {
        self.seen.snapshot.mobs.clone()
    }

    fn items(&self) -> Vec<ItemInfo> {
        self.seen.snapshot.items.clone()
    }

    fn pickups_since(&self, cursor: usize) -> (Vec<Pickup>, usize) {
        let (new, next) = crate::world::record::since(&self.log.pickups, self.log.pickups_dropped, cursor);
        (new.to_vec(), next)
    }

    fn agent_name(&self) -> &str {
        &self.name
    }

    fn agent_pos(&self) -> Pos {
        match self.predicted.moved {
            Some((p, _)) => p,
            // Feet resting on a block are at a whole y; a hair up keeps rounding from putting
            // them inside the block below.
            None => Vec3::new(self.seen.snapshot.pos.x, self.seen.snapshot.pos.y + 1e-3, self.seen.snapshot.pos.z).block(),
        }
    }

    fn agent_look(&self) -> Look {
        self.predicted.looked.map(|(l, _)| l).unwrap_or(self.seen.snapshot.look)
    }

    fn take_chats(&mut self) -> Vec<ChatMessage> {
        std::mem::take(&mut self.log.chats)
    }

    fn changes_since(&self, cursor: usize) -> (Vec<BlockChange>, usize) {
        let (new, next) = crate::world::record::since(&self.log.changes, self.log.changes_dropped, cursor);
        (new.to_vec(), next)
    }

    fn step_to(&mut self, to: Pos) -> Result<(), ActionError> {
        self.connected()?;
        let from = self.agent_pos();
        rules::check_step(from, to, self.seen.height, |p| self.block_at(p))?;
        self.loaded(to)?;
        let feet = placement::step_target(from, to);
        let seq = self.send(|seq| Command::Step { seq, feet });
        self.predicted.moved = Some((to, seq));
        Ok(())
    }

    fn place_block(&mut self, p: Pos, block: Block) -> Result<(), ActionError> {
        self.connected()?;
        if block.is_air() {
            return self.break_block(p);
        }
        let agent = self.agent_pos();
        rules::check_place(p, block, agent, &self.body_positions(), self.seen.height, |q| self.block_at(q))?;
        self.loaded(p)?;
        self.check_refused(p)?;
        if blocks::item(block.name()).is_none() {
            return Err(ActionError::UnknownItem(block.name().to_string()));
        }
        let eye = rules::eye_of(agent.feet());
        let Some((against, _)) = placement::click_for(p, eye, |n| rules::clickable(self.block_at(n))) else {
            return Err(ActionError::NoFooting(p));
        };
        let before = self.block_at(p);
        let seq = self.send(|seq| Command::Place { seq, pos: p, block, against });
        self.predicted.pending.insert(p, (block, seq));
        self.record(p, before, block);
        Ok(())
    }

    fn break_block(&mut self, p: Pos) -> Result<(), ActionError> {
        self.connected()?;
        rules::check_break(p, self.agent_pos(), self.seen.height, |q| self.block_at(q))?;
        self.loaded(p)?;
        self.check_refused(p)?;
        let before = self.block_at(p);
        let seq = self.send(|seq| Command::Break { seq, pos: p });
        self.predicted.pending.insert(p, (Block::AIR, seq));
        self.record(p, before, Block::AIR);
        Ok(())
    }

    fn set_look(&mut self, look: Look) {
        let look = Look::new(look.yaw, look.pitch);
        if self.connection.ready {
            let seq = self.send(|seq| Command::Look { seq, look });
            self.predicted.looked = Some((look, seq));
        }
    }

    fn spawn_mob(&mut self, kind: &str, p: Vec3) -> Result<(), ActionError> {
        let kind = rules::normalize_id(kind);
        let Some(egg) = blocks::spawn_egg(&kind) else { return Err(ActionError::UnknownMob(kind)) };
        self.connected()?;
        let at = p.block();
        if !rules::in_height(at.y, self.seen.height) {
            return Err(ActionError::OutOfWorld(at));
        }
        if self.block_at(at).is_solid() {
            return Err(ActionError::Blocked(at));
        }
        // The egg is used on the block below the spot, like a player would.
        let on = at.down(1);
        if !rules::clickable(self.block_at(on)) {
            return Err(ActionError::NoFooting(at));
        }
        if rules::reach_distance(self.agent_pos(), on) > rules::REACH {
            return Err(ActionError::OutOfReach(at));
        }
        self.loaded(on)?;
        let egg = blocks::id(egg.to_str()).to_string();
        self.send(|seq| Command::Spawn { seq, egg, on });
        Ok(())
    }

    fn give_item(&mut self, player: &str, item: &str, count: u32) -> Result<(), ActionError> {
        let item = rules::normalize_id(item);
        let item = blocks::id(&item).to_string();
        if blocks::item(&item).is_none() {
            return Err(ActionError::UnknownItem(item));
        }
        self.connected()?;
        let Some(target) = self.seen.snapshot.players.iter().find(|p| p.name.eq_ignore_ascii_case(player)) else {
            return Err(ActionError::UnknownPlayer(player.to_string()));
        };
        // Thrown at the feet, from close by: items fly a block or two, and must land by them.
        let towards = target.pos;
        if target.eye().distance(rules::eye_of(self.agent_pos().feet())) > 6.0 {
            return Err(ActionError::OutOfReach(target.pos.block()));
        }
        let mut left = count.max(1);
        while left > 0 {
            let n = left.min(64);
            let item = item.clone();
            self.send(|seq| Command::Give { seq, item, count: n, towards });
            left -= n;
        }
        Ok(())
    }

    fn container(&self, p: Pos) -> Option<crate::world::items::Inventory> {
        self.chest_contents(p)
    }

    fn look_inside(&mut self, p: Pos) -> Result<Option<crate::world::items::Inventory>, ActionError> {
        self.look_into_chest(p)
    }

    fn put_in_container(&mut self, p: Pos, item: &str, count: u32) -> Result<(), ActionError> {
        self.put_into_chest(p, item, count)
    }

    fn take_from_container(&mut self, p: Pos, item: &str, count: u32) -> Result<u32, ActionError> {
        self.take_out_of_chest(p, item, count)
    }

    fn say(&mut self, text: &str) {
        for line in chat::outgoing(text) {
            self.log.transcript.push(Line { speaker: self.name.clone(), text: line.clone(), refused: false });
            let _ = self.link.commands.send(Command::Say(line));
        }
    }
}

