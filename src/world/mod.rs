//! The World contract: everything the agent can perceive and do.
//!
//! Two implementations exist (or will): [`embedded::EmbeddedWorld`], a deterministic voxel world
//! that tests and the REPL tick by hand, and the live one over azalea. Code above this module only
//! ever talks to `dyn World`, so it cannot tell the two apart.
//!
//! Conventions follow Minecraft: x east, y up, z south; yaw 0 faces +z (south), 90 faces −x (west);
//! pitch +90 looks straight down. The game is in creative mode: any block may be placed and any
//! item handed out; what the bot *carries* ([`items`]) is what it gathered or took from a chest.

pub mod blocks;
pub mod embedded;
#[cfg(test)]
pub mod fog;
pub mod geometry;
pub mod items;
pub mod raycast;
pub mod record;
pub mod rules;
pub mod types;

pub use blocks::{Block, BlockInfo};
pub use geometry::{BBox, Pos, Vec3};
pub use items::Inventory;
pub use types::{
    Actor, ActionError, BlockChange, ChatMessage, ItemInfo, Look, MobInfo, Pickup, PlayerInfo,
};

/// What the agent perceives of the world and what it can do in it.
///
/// Actions are single, small steps (one block, one step): tasks compose them over many ticks.
/// Each action either takes effect at once or returns an [`ActionError`] saying why it could not.
pub trait World {
    // ---- perception ----

    /// The current game tick (20 per second). Strictly increases as the world advances.
    fn tick(&self) -> u64;
    /// The block at `p`; air outside loaded or generated terrain.
    fn block_at(&self, p: Pos) -> Block;
    /// Every non-air block inside `bbox` (inclusive), in no particular order.
    fn blocks_in(&self, bbox: BBox) -> Vec<(Pos, Block)>;
    /// All players the agent can see, with position and look.
    fn players(&self) -> Vec<PlayerInfo>;
    /// All mobs the agent can see.
    fn mobs(&self) -> Vec<MobInfo>;
    /// The agent's own name.
    fn agent_name(&self) -> &str;
    /// The agent's feet position (block coordinates of the block its feet are in).
    fn agent_pos(&self) -> Pos;
    /// The agent's look direction.
    fn agent_look(&self) -> Look;
    /// Chat from players that arrived since the previous call (the agent's own lines excluded).
    fn take_chats(&mut self) -> Vec<ChatMessage>;
    /// Block changes recorded after position `cursor` of the change log, and the new cursor.
    /// Perception and undo read this instead of rescanning the world.
    fn changes_since(&self, cursor: usize) -> (Vec<BlockChange>, usize);
    /// Items lying in the world near the agent (dropped, thrown), as far as it can see them. A
    /// world that hands items over directly has none.
    fn items(&self) -> Vec<ItemInfo> {
        Vec::new()
    }
    /// Pickups recorded after position `cursor` of the pickup record, and the new cursor (a
    /// cursor past the end gives nothing and the end). What a player really received after
    /// [`World::give_item`] shows here, whoever took it.
    fn pickups_since(&self, _cursor: usize) -> (Vec<Pickup>, usize) {
        (Vec::new(), 0)
    }
    /// Whether the world can tell what is at `p` now. A live server sends terrain only around the
    /// bot: [`World::block_at`] says air where it has not, and unknown is not air — a remembered
    /// thing out there is not gone. Worlds that hold all their terrain know every cell.
    fn is_known(&self, _p: Pos) -> bool {
        true
    }

    /// Was the block at `p` put there by the world itself (a tree of the natural terrain), not
    /// by anyone? Perception never takes such blocks for something built. Default: only natural
    /// blocks are (a live server cannot tell a wild tree from a log cabin).
    fn made_by_world(&self, p: Pos) -> bool {
        self.block_at(p).is_natural()
    }

    // ---- items, chests and crops (worlds that lack them say so) ----

    /// What the bot carries: what it gathered or took out of a chest, in the order it came.
    fn carried(&self) -> Inventory {
        Inventory::default()
    }
    /// What a player carries, when the world can tell.
    fn inventory_of(&self, _player: &str) -> Option<Inventory> {
        None
    }
    /// What the container (chest, barrel) at `p` holds; `None` when there is none, or when the
    /// world cannot see inside it yet (a server shows a chest only to whoever opens it: see
    /// [`World::look_inside`]).
    fn container(&self, _p: Pos) -> Option<Inventory> {
        None
    }
    /// How grown the crop at `p` is, 0 (just planted) to [`rules::RIPE`]; `None` for no crop.
    /// A world that cannot tell calls every crop ripe.
    fn crop_age(&self, p: Pos) -> Option<u8> {
        (self.block_at(p).name() == "wheat").then_some(rules::RIPE)
    }

    // ---- actions ----

    /// Move the agent's feet to `to`, which must be adjacent (each axis differs by at most one)
    /// and have room for its body (feet and head not solid).
    fn step_to(&mut self, to: Pos) -> Result<(), ActionError>;
    /// Place `block` at `p` (creative: any block), within reach and not inside a body.
    fn place_block(&mut self, p: Pos, block: Block) -> Result<(), ActionError>;
    /// Break the block at `p`, within reach. Bedrock cannot be broken.
    fn break_block(&mut self, p: Pos) -> Result<(), ActionError>;
    /// Turn body and head to `look`.
    fn set_look(&mut self, look: Look);
    /// Spawn a mob of `kind` (a Minecraft entity id such as `pig`) at `p`.
    fn spawn_mob(&mut self, kind: &str, p: Vec3) -> Result<(), ActionError>;
    /// Hand an item (a Minecraft item id such as `diamond_sword`) to the named player: given at
    /// once, or thrown towards them. What they received shows in [`World::pickups_since`].
    fn give_item(&mut self, player: &str, item: &str, count: u32) -> Result<(), ActionError>;
    /// Say a line in public chat.
    fn say(&mut self, text: &str);
    /// Keep `count` of `item` that breaking a block let loose (the bot picks up what it mines,
    /// chops and harvests).
    fn keep_item(&mut self, _item: &str, _count: u32) -> Result<(), ActionError> {
        Err(ActionError::Unsupported("keeping items"))
    }
    /// Pick up the lying item `id` (see [`World::items`]) within reach of its feet; returns how
    /// many it took.
    fn pick_up(&mut self, _id: u64) -> Result<u32, ActionError> {
        Err(ActionError::Unsupported("picking items up"))
    }
    /// Use up to `count` of `item` the bot carries (crafting); returns how many it had.
    fn use_carried(&mut self, _item: &str, _count: u32) -> u32 {
        0
    }
    /// Drop `count` of `item` at `at`, within reach: what the bot carries first, creative
    /// supply for the rest.
    fn drop_item(&mut self, _item: &str, _count: u32, _at: Vec3) -> Result<(), ActionError> {
        Err(ActionError::Unsupported("dropping items"))
    }
    /// Look into the container at `p`, within reach: what it holds, or `Ok(None)` while the
    /// world is still finding out (call again next tick).
    fn look_inside(&mut self, p: Pos) -> Result<Option<Inventory>, ActionError> {
        self.container(p).map(Some).ok_or(ActionError::NoContainer(p))
    }
    /// Put `count` of `item` into the container at `p`, within reach (what the bot carries
    /// first, creative supply for the rest).
    fn put_in_container(&mut self, p: Pos, _item: &str, _count: u32) -> Result<(), ActionError> {
        Err(ActionError::NoContainer(p))
    }
    /// Take up to `count` of `item` out of the container at `p`, within reach, into what the
    /// bot carries; returns how many it took.
    fn take_from_container(&mut self, p: Pos, _item: &str, _count: u32) -> Result<u32, ActionError> {
        Err(ActionError::NoContainer(p))
    }
}
