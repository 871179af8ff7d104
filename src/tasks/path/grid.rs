//! The planner's block cache: the cells inside the search box, read from the world once each,
//! with the movement facts of [`crate::world::rules::standing`] (room for a body, something to
//! stand on) worked out once per cell. Reading through it is what keeps a 64³ search within a
//! few milliseconds.

use crate::world::{BBox, Block, Pos, World};
use rustc_hash::{FxHashMap, FxHashSet};

// Cell flags in the cache.
const LOADED: u8 = 1;
const SOLID: u8 = 2; // blocks the body
const LIQUID: u8 = 4; // water: floats the body
pub(super) const AIR: u8 = 8;
pub(super) const SCAFFOLD: u8 = 16; // our own scaffold, may be broken to come down
const OUTSIDE: u8 = 32; // beyond the search box: treated as a wall that supports nothing
// Not seen: a live server has not sent the terrain there (`World::is_known`). Unknown is not
// air: the search treats it as the edge of the box, and says it met it.
const UNKNOWN: u8 = 64;

/// What a block kind means for walking.
fn kind_flags(b: Block) -> u8 {
    LOADED
        | if b.is_air() {
            AIR
        } else if b.is_liquid() {
            // Lava is a liquid nobody should walk into: make it a wall.
            if b.name() == "water" { LIQUID } else { SOLID }
        } else if b.is_solid() {
            SOLID
        } else {
            0
        }
}

// Derived facts about a cell as a feet position, cached in the cell's high byte.
const ROOM_KNOWN: u16 = 1 << 8;
const ROOM: u16 = 1 << 9; // feet and head cells both free
const STAND_KNOWN: u16 = 1 << 10;
const STAND: u16 = 1 << 11; // something to stand on, or water to float in

/// A lazily filled dense cache of the cells inside the search box: block flags in the low
/// byte, and whether the cell has room for a body / something to stand on in the high byte.
pub(super) struct Grid<'w> {
    world: &'w dyn World,
    scaffold: &'w FxHashSet<Pos>,
    min: Pos,
    size: [i32; 3],
    cells: Vec<u16>,
    /// Flags per block kind (by registry index), worked out on first sight.
    kinds: FxHashMap<u16, u8>,
    /// A cell the world has not seen was read.
    pub(super) met_unknown: bool,
}

impl<'w> Grid<'w> {
    pub(super) fn new(world: &'w dyn World, scaffold: &'w FxHashSet<Pos>, bbox: BBox) -> Self {
        let size = bbox.size();
        let n = size.iter().map(|&s| s.max(0) as usize).product();
        Grid { world, scaffold, min: bbox.min, size, cells: vec![0; n], kinds: FxHashMap::default(), met_unknown: false }
    }

    pub(super) fn index(&self, p: Pos) -> Option<usize> {
        let (x, y, z) = (p.x - self.min.x, p.y - self.min.y, p.z - self.min.z);
        if x < 0 || y < 0 || z < 0 || x >= self.size[0] || y >= self.size[1] || z >= self.size[2] {
            return None;
        }
        // y varies fastest: a body's feet, head and floor share a cache line.
        Some(((x * self.size[2] + z) * self.size[1] + y) as usize)
    }

    pub(super) fn flags(&mut self, p: Pos) -> u8 {
        let Some(i) = self.index(p) else { return OUTSIDE | SOLID };
        let f = self.cells[i];
        if f != 0 {
            return f as u8;
        }
        let b = self.world.block_at(p);
        // Terrain not sent yet reads as air: only air needs asking.
        let mut f = if b.is_air() && !self.world.is_known(p) {
            UNKNOWN | OUTSIDE | SOLID
        } else {
            *self.kinds.entry(b.index()).or_insert_with(|| kind_flags(b))
        };
        if self.scaffold.contains(&p) {
            f |= SCAFFOLD;
        }
        self.met_unknown |= f & UNKNOWN != 0;
        self.cells[i] = f as u16;
        f
    }

    /// Has the world not seen `p` (see [`UNKNOWN`])?
    pub(super) fn unknown(&mut self, p: Pos) -> bool {
        self.flags(p) & UNKNOWN != 0
    }

    /// A derived fact (`known` bit, `value` bit) about `p`, computed once by `compute`.
    pub(super) fn derived(&mut self, p: Pos, known: u16, value: u16, compute: fn(&mut Self, Pos) -> bool) -> bool {
        let Some(i) = self.index(p) else { return compute(self, p) };
        let c = self.cells[i];
        if c & known != 0 {
            return c & value != 0;
        }
        let v = compute(self, p);
        self.cells[i] |= known | if v { value } else { 0 };
        v
    }

    pub(super) fn solid(&mut self, p: Pos) -> bool {
        self.flags(p) & SOLID != 0
    }

    /// Something to stand on (a real solid block, not the edge of the search box).
    pub(super) fn floor(&mut self, p: Pos) -> bool {
        self.flags(p) & (SOLID | OUTSIDE) == SOLID
    }

    pub(super) fn liquid(&mut self, p: Pos) -> bool {
        self.flags(p) & LIQUID != 0
    }

    pub(super) fn room(&mut self, feet: Pos) -> bool {
        self.derived(feet, ROOM_KNOWN, ROOM, |g, p| !g.solid(p) && !g.solid(p.up(1)))
    }

    pub(super) fn standable(&mut self, feet: Pos) -> bool {
        self.derived(feet, STAND_KNOWN, STAND, |g, p| g.floor(p.down(1)) || g.liquid(p))
    }
}
