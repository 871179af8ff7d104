//! For tests: the embedded world as a live server shows it — terrain only up to an edge, the rest
//! unknown (air to `block_at`, not `is_known`). Perception and the walker are tested on it: a
//! remembered thing out of sight is not gone, a walk goes on as terrain arrives.

use super::embedded::EmbeddedWorld;
use super::*;

/// The embedded world as a live server shows it: terrain only up to `edge` blocks east of
/// where the agent stands (`follow`: the server sends more as it walks) or of x = 0.
pub struct Fog {
    pub world: EmbeddedWorld,
    pub edge: i32,
    pub follow: bool,
}

impl World for Fog {
    fn tick(&self) -> u64 {
        self.world.tick()
    }
    fn block_at(&self, p: Pos) -> Block {
        if self.is_known(p) { self.world.block_at(p) } else { Block::AIR }
    }
    fn blocks_in(&self, bbox: BBox) -> Vec<(Pos, Block)> {
        self.world.blocks_in(bbox).into_iter().filter(|(p, _)| self.is_known(*p)).collect()
    }
    fn players(&self) -> Vec<PlayerInfo> {
        self.world.players()
    }
    fn mobs(&self) -> Vec<MobInfo> {
        self.world.mobs()
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
    fn is_known(&self, p: Pos) -> bool {
        p.x <= self.edge + if self.follow { self.world.agent_pos().x } else { 0 }
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
        self.world.spawn_mob(kind, p)
    }
    fn give_item(&mut self, player: &str, item: &str, count: u32) -> Result<(), ActionError> {
        self.world.give_item(player, item, count)
    }
    fn say(&mut self, text: &str) {
        self.world.say(text)
    }
}
