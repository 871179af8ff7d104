//! Blocks as azalea holds them, seen as the bot names them.
//!
//! The bot reads blocks straight from the chunks the azalea client has loaded — no copy, no
//! scan beyond them: [`BlockView`] is a read-only handle on the client's world, taken for a
//! moment per question (each read takes the world's lock once and lets it go, so the game tick
//! never waits long on the bot). A block the client has not loaded reads as unknown (`None`),
//! which the World implementation reports as air, as the trait says.
//!
//! Block states become registry [`Block`]s by their block id (`red_wool`, any orientation or
//! waterlogging); ids the registry does not list are interned on first sight. The other way,
//! a block, item, spawn egg or entity id becomes azalea's registry value by name.

use crate::world::{BBox, Block, Pos};
use azalea::block::BlockState;
use azalea::core::position::{ChunkBlockPos, ChunkPos};
use azalea::registry::builtin::{BlockKind, EntityKind, ItemKind};
use parking_lot::RwLock;
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

/// The registry block for a block state (cached per state id).
pub fn block_of(state: BlockState) -> Block {
    static TABLE: OnceLock<Vec<AtomicU32>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..=BlockState::MAX_STATE as usize).map(|_| AtomicU32::new(0)).collect());
    let slot = &table[state.id() as usize];
    // 0 means "not looked up yet"; otherwise the block's registry index + 1.
    match slot.load(Ordering::Relaxed) {
        0 => {
            let block = block_of_kind(state.as_block_kind());
            slot.store(block.index() as u32 + 1, Ordering::Relaxed);
            block
        }
        i => Block::from_index((i - 1) as u16).unwrap_or(Block::AIR),
    }
}

fn block_of_kind(kind: BlockKind) -> Block {
    match id(kind.to_str()) {
        // Kinds of air are air.
        "air" | "cave_air" | "void_air" => Block::AIR,
        name => Block::intern(name),
    }
}

/// `minecraft:red_wool` → `red_wool`.
pub fn id(name: &str) -> &str {
    name.strip_prefix("minecraft:").unwrap_or(name)
}

/// The default state of a registry block, if azalea knows its id.
pub fn state_of(block: Block) -> Option<BlockState> {
    if block.is_air() {
        return Some(BlockState::AIR);
    }
    BlockKind::from_str(block.name()).ok().map(BlockState::from)
}

/// The item with this id (`red_wool`, `diamond_sword`, `pig_spawn_egg`).
pub fn item(name: &str) -> Option<ItemKind> {
    ItemKind::from_str(id(name)).ok().filter(|i| *i != ItemKind::Air)
}

/// The spawn egg that makes a `mob`, when both the mob and its egg exist.
pub fn spawn_egg(mob: &str) -> Option<ItemKind> {
    EntityKind::from_str(id(mob)).ok()?;
    item(&format!("{}_spawn_egg", id(mob)))
}

/// An entity kind's id without prefix (`pig`).
pub fn entity_id(kind: EntityKind) -> &'static str {
    id(kind.to_str())
}

/// A read-only view of the blocks the client has loaded.
#[derive(Clone)]
pub struct BlockView {
    world: Arc<RwLock<azalea::world::World>>,
}

impl std::fmt::Debug for BlockView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BlockView")
    }
}

impl BlockView {
    pub fn new(world: Arc<RwLock<azalea::world::World>>) -> BlockView {
        BlockView { world }
    }

    /// The lowest and highest block rows of the world (inclusive).
    pub fn height_range(&self) -> (i32, i32) {
        let w = self.world.read();
        let min = w.chunks.min_y();
        (min, min + w.chunks.height() as i32 - 1)
    }

    /// The block at `p`, or `None` where the client has no chunk (or outside the world).
    pub fn block_at(&self, p: Pos) -> Option<Block> {
        let state = self.world.read().chunks.get_block_state(azalea::BlockPos::new(p.x, p.y, p.z))?;
        Some(block_of(state))
    }

    /// Is the chunk holding `p` loaded?
    pub fn is_loaded(&self, p: Pos) -> bool {
        self.world.read().chunks.get(&ChunkPos::new(p.x.div_euclid(16), p.z.div_euclid(16))).is_some()
    }

    /// How many of the chunks within `radius` chunks of `p` are loaded, of how many.
    pub fn loaded_around(&self, p: Pos, radius: i32) -> (usize, usize) {
        let w = self.world.read();
        let (cx, cz) = (p.x.div_euclid(16), p.z.div_euclid(16));
        let mut loaded = 0;
        let mut total = 0;
        for x in cx - radius..=cx + radius {
            for z in cz - radius..=cz + radius {
                total += 1;
                if w.chunks.get(&ChunkPos::new(x, z)).is_some() {
                    loaded += 1;
                }
            }
        }
        (loaded, total)
    }

    /// Every non-air block in `bbox` (inclusive) that lies in a loaded chunk.
    pub fn blocks_in(&self, bbox: BBox) -> Vec<(Pos, Block)> {
        let w = self.world.read();
        let min_y = w.chunks.min_y();
        let max_y = min_y + w.chunks.height() as i32 - 1;
        let (y0, y1) = (bbox.min.y.max(min_y), bbox.max.y.min(max_y));
        let mut out = Vec::new();
        if y0 > y1 {
            return out;
        }
        for cx in bbox.min.x.div_euclid(16)..=bbox.max.x.div_euclid(16) {
            for cz in bbox.min.z.div_euclid(16)..=bbox.max.z.div_euclid(16) {
                let Some(chunk) = w.chunks.get(&ChunkPos::new(cx, cz)) else { continue };
                let chunk = chunk.read();
                let (x0, x1) = (bbox.min.x.max(cx * 16), bbox.max.x.min(cx * 16 + 15));
                let (z0, z1) = (bbox.min.z.max(cz * 16), bbox.max.z.min(cz * 16 + 15));
                for y in y0..=y1 {
                    for z in z0..=z1 {
                        for x in x0..=x1 {
                            let local = ChunkBlockPos::new(x.rem_euclid(16) as u8, y, z.rem_euclid(16) as u8);
                            if let Some(state) = chunk.get_block_state(&local, min_y)
                                && !state.is_air()
                            {
                                let b = block_of(state);
                                if !b.is_air() {
                                    out.push((Pos::new(x, y, z), b));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_and_blocks_by_id() {
        let red = Block::from_name("red_wool").unwrap();
        let state = state_of(red).unwrap();
        assert_eq!(block_of(state), red);
        assert_eq!(block_of(state), red, "cached the second time");
        assert_eq!(block_of(BlockState::AIR), Block::AIR);
        assert_eq!(block_of(BlockState::from(BlockKind::CaveAir)), Block::AIR);
        assert_eq!(state_of(Block::AIR), Some(BlockState::AIR));
        // Any state of a block kind is that block.
        let log = BlockState::from(BlockKind::OakLog);
        let other_axis = BlockState::try_from(log.id() + 1).unwrap();
        assert_eq!(block_of(log), block_of(other_axis));
        assert_eq!(block_of(log).name(), "oak_log");
        // A block the registry does not list is interned under its own id.
        let rail = block_of(BlockState::from(BlockKind::ActivatorRail));
        assert_eq!(rail.name(), "activator_rail");
    }

    #[test]
    fn items_eggs_and_entities() {
        assert_eq!(item("red_wool"), Some(ItemKind::RedWool));
        assert_eq!(item("minecraft:diamond_sword"), Some(ItemKind::DiamondSword));
        assert_eq!(item("air"), None);
        assert_eq!(item("no_such_thing"), None);
        assert_eq!(spawn_egg("pig"), Some(ItemKind::PigSpawnEgg));
        assert_eq!(spawn_egg("minecraft:iron_golem"), Some(ItemKind::IronGolemSpawnEgg));
        assert_eq!(spawn_egg("dragon_of_doom"), None);
        assert_eq!(entity_id(EntityKind::Pig), "pig");
    }
}
