//! The natural world: seeded hills, lakes and beaches, oak, birch and spruce trees, grass and
//! flowers, and stone down to bedrock with coal, iron, gold and diamond ore at the depths
//! Minecraft puts them (deepslate below y = 0). Players ask a companion to chop, mine and farm;
//! a flat world has nothing for that.
//!
//! Terrain is a pure function of the seed and the position, so it is never stored: what nobody
//! changed is read from here (the world stores only edited sections, see `sections.rs`). The
//! costly part, the height of each column and where trees stand, is made once per 16×16 chunk
//! the first time anything there is read, and kept ([`Terrain::chunks`]), so the world grows
//! chunk by chunk as the bot and the players move.

use std::sync::{Arc, OnceLock, RwLock};

use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
use rustc_hash::FxHashMap;

use crate::world::rules::MIN_Y;
use crate::world::{Block, Pos};

/// Water fills every column whose ground lies below this height (Minecraft's sea level).
pub const SEA_LEVEL: i32 = 62;
/// Below this height stone is deepslate, as in Minecraft.
const DEEPSLATE_BELOW: i32 = 0;
/// Dirt under the grass before the stone starts.
const DIRT_DEPTH: i32 = 3;
const CHUNK: i32 = 16;

/// What grows in a column, chosen once per chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wood {
    Oak,
    Birch,
    Spruce,
}

impl Wood {
    fn log(self) -> Block {
        block(match self {
            Wood::Oak => "oak_log",
            Wood::Birch => "birch_log",
            Wood::Spruce => "spruce_log",
        })
    }
    fn leaves(self) -> Block {
        block(match self {
            Wood::Oak => "oak_leaves",
            Wood::Birch => "birch_leaves",
            Wood::Spruce => "spruce_leaves",
        })
    }
}

/// A tree: its trunk's column, the grass block it grows from and how tall its trunk is.
#[derive(Clone, Copy, Debug)]
struct Tree {
    x: i32,
    z: i32,
    ground: i32,
    trunk: i32,
    wood: Wood,
}

impl Tree {
    /// The tree's block at `p`, if `p` is part of it.
    fn at(&self, p: Pos) -> Option<Block> {
        let (dx, dz, dy) = ((p.x - self.x).abs(), (p.z - self.z).abs(), p.y - self.ground);
        let top = self.trunk;
        if dx == 0 && dz == 0 && (1..=top).contains(&dy) {
            return Some(self.wood.log());
        }
        let radius = match self.wood {
            // A cone: wide at the bottom of the crown, a point above the trunk.
            Wood::Spruce => match top + 1 - dy {
                0 => 0,
                1 | 3 => 1,
                2 | 4 | 5 => 2,
                _ => return None,
            },
            // Two wide layers below the top, two narrow ones at and above it.
            _ => match dy - top {
                -2 | -1 => 2,
                0 | 1 => 1,
                _ => return None,
            },
        };
        // Corners of the wide layers are cut off, so the crown looks round.
        let inside = dx.max(dz) <= radius && !(radius == 2 && dx == 2 && dz == 2);
        inside.then(|| self.wood.leaves())
    }
}

/// One chunk's columns: ground heights and the trees rooted in it.
struct Chunk {
    heights: [i16; (CHUNK * CHUNK) as usize],
    trees: Vec<Tree>,
}

/// A seeded natural world's terrain.
pub struct Terrain {
    seed: u32,
    hills: FastNoiseLite,
    forest: FastNoiseLite,
    chunks: RwLock<FxHashMap<(i32, i32), Arc<Chunk>>>,
}

/// The terrain of `seed`, made once per process and shared by every world of that seed.
pub fn terrain(seed: u32) -> Arc<Terrain> {
    static ALL: OnceLock<RwLock<FxHashMap<u32, Arc<Terrain>>>> = OnceLock::new();
    let all = ALL.get_or_init(Default::default);
    if let Some(t) = all.read().unwrap_or_else(|e| e.into_inner()).get(&seed) {
        return t.clone();
    }
    all.write().unwrap_or_else(|e| e.into_inner()).entry(seed).or_insert_with(|| Arc::new(Terrain::new(seed))).clone()
}

fn block(name: &str) -> Block {
    Block::from_name(name).expect("natural terrain blocks are in the registry")
}

/// A well-mixed 64-bit hash of the seed and up to three coordinates (splitmix64's finaliser):
/// the same place always gets the same roll, and neighbours get unrelated ones.
fn roll(seed: u32, salt: u64, x: i32, y: i32, z: i32) -> u64 {
    let mut h = u64::from(seed) ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for v in [x, y, z] {
        h = (h ^ (v as u32 as u64)).wrapping_add(0x9e37_79b9_7f4a_7c15);
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
    }
    h
}

/// A roll as a number in [0, 1).
fn chance(seed: u32, salt: u64, x: i32, y: i32, z: i32) -> f64 {
    (roll(seed, salt, x, y, z) >> 11) as f64 / (1u64 << 53) as f64
}

/// The ores, the heights they occur between, and how likely a 2×2×2 cell there holds a vein.
// lexicon: block ids and Minecraft's ore depths (game knowledge), not words.
const ORES: [(&str, &str, i32, i32, f64); 4] = [
    ("diamond_ore", "deepslate_diamond_ore", MIN_Y, 16, 0.004),
    ("gold_ore", "deepslate_gold_ore", MIN_Y, 32, 0.005),
    ("iron_ore", "deepslate_iron_ore", -24, 72, 0.012),
    ("coal_ore", "deepslate_coal_ore", 0, 128, 0.02),
];

impl Terrain {
    fn new(seed: u32) -> Terrain {
        let noise = |salt: i32, frequency: f32, octaves: i32| {
            let mut n = FastNoiseLite::with_seed(seed as i32 ^ salt);
            n.set_noise_type(Some(NoiseType::OpenSimplex2));
            n.set_fractal_type(Some(FractalType::FBm));
            n.set_fractal_octaves(Some(octaves));
            n.set_frequency(Some(frequency));
            n
        };
        Terrain { seed, hills: noise(0, 0.006, 4), forest: noise(0x5eed, 0.02, 1), chunks: RwLock::new(FxHashMap::default()) }
    }

    /// The ground height (the top solid block) of a column, before trees.
    fn height(&self, x: i32, z: i32) -> i32 {
        let n = self.hills.get_noise_2d(x as f32, z as f32);
        // Mostly gentle land a few blocks above the sea, some lakes, and hills where the noise
        // is high (its square makes them rarer and steeper).
        let lift = if n > 0.0 { n * n * 48.0 } else { n * 14.0 };
        SEA_LEVEL + 3 + lift.round() as i32
    }

    /// The chunk holding column (x, z), made on first use.
    fn chunk(&self, cx: i32, cz: i32) -> Arc<Chunk> {
        if let Some(c) = self.chunks.read().unwrap_or_else(|e| e.into_inner()).get(&(cx, cz)) {
            return c.clone();
        }
        let made = Arc::new(self.make_chunk(cx, cz));
        self.chunks.write().unwrap_or_else(|e| e.into_inner()).entry((cx, cz)).or_insert(made).clone()
    }

    fn make_chunk(&self, cx: i32, cz: i32) -> Chunk {
        let mut heights = [0i16; (CHUNK * CHUNK) as usize];
        for (i, h) in heights.iter_mut().enumerate() {
            let (x, z) = (cx * CHUNK + i as i32 % CHUNK, cz * CHUNK + i as i32 / CHUNK);
            *h = self.height(x, z) as i16;
        }
        // Forests where the forest noise is high, a lone tree now and then elsewhere; each tree
        // on dry grass, 2 blocks or more from the chunk's edge (so its crown stays in the chunk).
        let (mx, mz) = (cx * CHUNK + CHUNK / 2, cz * CHUNK + CHUNK / 2);
        let density = self.forest.get_noise_2d(mx as f32, mz as f32);
        let tries = if density > 0.3 { 6 } else if density > 0.0 { 2 } else { 1 };
        let mut trees: Vec<Tree> = Vec::new();
        for t in 0..tries {
            let r = roll(self.seed, 11, cx, t, cz);
            let (lx, lz) = (2 + (r % 12) as i32, 2 + ((r >> 8) % 12) as i32);
            let ground = i32::from(heights[(lz * CHUNK + lx) as usize]);
            let (x, z) = (cx * CHUNK + lx, cz * CHUNK + lz);
            let lone = tries == 1 && (r >> 16) % 4 != 0;
            if lone || ground <= SEA_LEVEL + 1 || trees.iter().any(|o| (o.x - x).abs() < 4 && (o.z - z).abs() < 4) {
                continue;
            }
            let wood = match (r >> 24) % 10 {
                0..=5 => Wood::Oak,
                6 | 7 => Wood::Birch,
                _ => Wood::Spruce,
            };
            let trunk = 4 + ((r >> 32) % 3) as i32 + i32::from(wood == Wood::Spruce);
            trees.push(Tree { x, z, ground, trunk, wood });
        }
        Chunk { heights, trees }
    }

    /// The ground height of column (x, z): its top solid block (water may stand above it).
    pub fn ground(&self, x: i32, z: i32) -> i32 {
        let c = self.chunk(x.div_euclid(CHUNK), z.div_euclid(CHUNK));
        i32::from(c.heights[(z.rem_euclid(CHUNK) * CHUNK + x.rem_euclid(CHUNK)) as usize])
    }

    /// Where a player's feet rest in column (x, z): on the ground, or on the water.
    pub fn surface(&self, x: i32, z: i32) -> i32 {
        self.ground(x, z).max(SEA_LEVEL) + 1
    }

    /// The terrain block at `p`.
    pub fn block_at(&self, p: Pos) -> Block {
        if p.y <= MIN_Y {
            return if p.y == MIN_Y { block("bedrock") } else { Block::AIR };
        }
        let ground = self.ground(p.x, p.z);
        let beach = ground <= SEA_LEVEL + 1;
        if p.y > ground {
            if p.y <= SEA_LEVEL {
                return block("water");
            }
            return self.above_ground(p, ground, beach);
        }
        if p.y == ground {
            return block(if ground < SEA_LEVEL - 2 { "gravel" } else if beach { "sand" } else { "grass_block" });
        }
        if p.y > ground - DIRT_DEPTH - 1 {
            return block(if beach { "sand" } else { "dirt" });
        }
        self.rock(p)
    }

    /// Trees, grass and flowers above dry ground.
    fn above_ground(&self, p: Pos, ground: i32, beach: bool) -> Block {
        // A crown reaches 2 blocks from its trunk and trunks keep 2 from the chunk's edge: only
        // this chunk's trees can reach `p`.
        if let Some(b) = self.chunk(p.x.div_euclid(CHUNK), p.z.div_euclid(CHUNK)).trees.iter().find_map(|t| t.at(p)) {
            return b;
        }
        if p.y == ground + 1 && !beach {
            let r = chance(self.seed, 23, p.x, 0, p.z);
            // lexicon: block ids of what grows on grass (game knowledge), not words.
            return match r {
                r if r < 0.12 => block("short_grass"),
                r if r < 0.135 => block("poppy"),
                r if r < 0.15 => block("dandelion"),
                _ => Block::AIR,
            };
        }
        Block::AIR
    }

    /// Stone (deepslate deep down) with ore in small veins at each ore's depths.
    fn rock(&self, p: Pos) -> Block {
        let deep = p.y < DEEPSLATE_BELOW;
        let (vx, vy, vz) = (p.x.div_euclid(2), p.y.div_euclid(2), p.z.div_euclid(2));
        for (k, &(ore, deep_ore, low, high, odds)) in ORES.iter().enumerate() {
            if (low..=high).contains(&p.y) && chance(self.seed, 31 + k as u64, vx, vy, vz) < odds {
                // Most of a vein's cell is ore, the rest stone.
                if chance(self.seed, 41, p.x, p.y, p.z) < 0.6 {
                    return block(if deep { deep_ore } else { ore });
                }
            }
        }
        block(if deep { "deepslate" } else { "stone" })
    }

    /// What the chunks made so far keep, in bytes (for the memory figure).
    pub fn kept_bytes(&self) -> usize {
        let chunks = self.chunks.read().unwrap_or_else(|e| e.into_inner());
        let entry = std::mem::size_of::<((i32, i32), Arc<Chunk>)>() + std::mem::size_of::<Chunk>();
        chunks.values().map(|c| entry + c.trees.capacity() * std::mem::size_of::<Tree>()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_makes_the_same_world_and_another_seed_another() {
        let (a, b, c) = (Terrain::new(7), Terrain::new(7), Terrain::new(8));
        let columns: Vec<(i32, i32)> = (0..40).map(|i| (i * 37 - 600, i * 53 - 900)).collect();
        assert!(columns.iter().all(|&(x, z)| a.ground(x, z) == b.ground(x, z)));
        assert!(columns.iter().any(|&(x, z)| a.ground(x, z) != c.ground(x, z)));
    }

    #[test]
    fn layers_go_grass_dirt_stone_deepslate_bedrock_with_water_below_the_sea() {
        let t = Terrain::new(3);
        let mut dry = 0;
        let mut wet = 0;
        for i in 0..400 {
            let (x, z) = (i * 17 % 700 - 350, i * 29 % 900 - 450);
            let g = t.ground(x, z);
            assert_eq!(t.block_at(Pos::new(x, MIN_Y, z)).name(), "bedrock");
            assert!(["deepslate"].contains(&t.block_at(Pos::new(x, -10, z)).name()) || t.block_at(Pos::new(x, -10, z)).name().ends_with("_ore"));
            if g > SEA_LEVEL + 1 {
                dry += 1;
                assert_eq!(t.block_at(Pos::new(x, g, z)).name(), "grass_block");
                assert_eq!(t.block_at(Pos::new(x, g - 1, z)).name(), "dirt");
            } else if g < SEA_LEVEL {
                wet += 1;
                assert_eq!(t.block_at(Pos::new(x, SEA_LEVEL, z)).name(), "water");
                assert_eq!(t.surface(x, z), SEA_LEVEL + 1);
            }
        }
        assert!(dry > 100 && wet > 0, "land and water both: {dry} dry, {wet} wet");
    }

    #[test]
    fn ores_lie_at_their_depths_and_trees_stand_on_grass() {
        let t = Terrain::new(5);
        let mut found: FxHashMap<&str, (i32, i32)> = FxHashMap::default();
        for x in -40..40 {
            for z in -40..40 {
                for y in (MIN_Y + 1..t.ground(x, z) - DIRT_DEPTH - 1).step_by(3) {
                    let b = t.block_at(Pos::new(x, y, z));
                    if b.name().ends_with("_ore") {
                        let e = found.entry(b.name()).or_insert((y, y));
                        *e = (e.0.min(y), e.1.max(y));
                    }
                }
            }
        }
        for (ore, &(_, high)) in &found {
            let limit = ORES.iter().find(|o| o.0 == *ore || o.1 == *ore).map(|o| o.3).unwrap();
            assert!(high <= limit, "{ore} up to {high}, above {limit}");
        }
        assert!(found.contains_key("deepslate_diamond_ore") && found.contains_key("coal_ore"), "{found:?}");
        let trees: Vec<Tree> = (-8..8).flat_map(|cx| (-8..8).map(move |cz| (cx, cz))).flat_map(|(cx, cz)| t.chunk(cx, cz).trees.clone()).collect();
        assert!(trees.len() > 10, "{} trees", trees.len());
        for tree in trees {
            assert_eq!(t.block_at(Pos::new(tree.x, tree.ground, tree.z)).name(), "grass_block");
            assert!(t.block_at(Pos::new(tree.x, tree.ground + 1, tree.z)).name().ends_with("_log"));
        }
    }
}
