//! The embedded voxel world: a deterministic, in-process stand-in for a Minecraft server.
//!
//! Tests, scenarios and the `play` REPL drive it tick by tick, so every run is reproducible.
//! Storage is sparse: terrain comes from a [`Preset`] on demand, and only 16×16×16 sections that
//! somebody edited are kept, as 2-byte block handles. A build of a few hundred thousand blocks
//! takes a few megabytes. Every edit goes through [`EmbeddedWorld::set_block_by`], which appends
//! to the change record that perception and undo read.
//!
//! Rules follow creative-mode Minecraft closely enough that plans made here also work on a real
//! server: blocks are placed against a neighbouring block and within reach of the eyes, nobody can
//! place a block inside a body, bedrock cannot be broken, and the agent walks (one block up at a
//! time, falling when unsupported, swimming in water).

use super::types::{EYE_HEIGHT, normalize_yaw};
use super::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// How far from its eyes the agent can place or break a block (creative-mode interaction range).
pub const REACH: f64 = 5.0;
/// The lowest and highest block rows of the world, as in Minecraft.
pub const MIN_Y: i32 = -64;
pub const MAX_Y: i32 = 319;

const SECTION: i32 = 16;
const SECTION_VOLUME: usize = (SECTION * SECTION * SECTION) as usize;

/// Which terrain fills the world where nobody built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Bedrock at y=0, dirt at y=1..=3, grass_block at y=4, air above and below; unbounded in x/z.
    #[default]
    Flat,
    /// Nothing but air.
    Empty,
}

impl Preset {
    /// The terrain block at `p` before anybody changed anything.
    pub fn block_at(self, p: Pos) -> Block {
        match self {
            Preset::Empty => Block::AIR,
            Preset::Flat => flat_terrain()[match p.y {
                0 => 0,
                1..=3 => 1,
                4 => 2,
                _ => 3,
            }],
        }
    }

    /// The y of the first air block above the ground (where a player's feet rest).
    pub fn surface_y(self) -> i32 {
        match self {
            Preset::Flat => 5,
            Preset::Empty => 0,
        }
    }

    pub fn parse(name: &str) -> Option<Preset> {
        match name {
            "flat" => Some(Preset::Flat),
            "empty" => Some(Preset::Empty),
            _ => None,
        }
    }
}

fn flat_terrain() -> &'static [Block; 4] {
    static T: std::sync::OnceLock<[Block; 4]> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let b = |n| Block::from_name(n).expect("terrain blocks are in the registry");
        [b("bedrock"), b("dirt"), b("grass_block"), Block::AIR]
    })
}

/// One edited 16³ section: block handles indexed by `(y * 16 + z) * 16 + x` within the section.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Section {
    blocks: Vec<u16>,
}

type SectionKey = (i32, i32, i32);

fn section_key(p: Pos) -> (SectionKey, usize) {
    let key = (p.x.div_euclid(SECTION), p.y.div_euclid(SECTION), p.z.div_euclid(SECTION));
    let (lx, ly, lz) = (p.x.rem_euclid(SECTION), p.y.rem_euclid(SECTION), p.z.rem_euclid(SECTION));
    (key, ((ly * SECTION + lz) * SECTION + lx) as usize)
}

/// A player in the embedded world (the REPL's user, or a scenario's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub pos: Vec3,
    pub look: Look,
    /// Items the agent handed over (creative: nothing else fills it).
    pub inventory: Vec<(String, u32)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mob {
    pub id: u64,
    pub kind: String,
    pub pos: Vec3,
}

/// A line of chat as the world heard it (players and the agent alike).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatLine {
    pub tick: u64,
    pub speaker: String,
    pub text: String,
    pub from_agent: bool,
}

/// Mob ids the embedded world accepts (the usual passive, neutral and hostile mobs).
pub const MOB_KINDS: &[&str] = &[
    "pig", "cow", "sheep", "chicken", "horse", "donkey", "mule", "llama", "rabbit", "wolf", "cat",
    "ocelot", "fox", "parrot", "bee", "goat", "panda", "polar_bear", "turtle", "frog", "axolotl",
    "camel", "armadillo", "sniffer", "mooshroom", "villager", "iron_golem", "snow_golem", "squid",
    "dolphin", "cod", "salmon", "zombie", "skeleton", "creeper", "spider", "enderman", "slime",
    "witch", "pillager", "bat",
];

/// Item ids (besides every block id) that can be handed to a player.
pub const ITEM_KINDS: &[&str] = &[
    "diamond_sword", "iron_sword", "wooden_sword", "stone_sword", "golden_sword", "netherite_sword",
    "diamond_pickaxe", "iron_pickaxe", "wooden_pickaxe", "stone_pickaxe", "diamond_axe", "iron_axe",
    "diamond_shovel", "iron_shovel", "bow", "arrow", "crossbow", "shield", "trident", "fishing_rod",
    "bread", "apple", "golden_apple", "cooked_beef", "cooked_porkchop", "carrot", "potato", "cake",
    "cookie", "diamond", "emerald", "iron_ingot", "gold_ingot", "coal", "stick", "string",
    "feather", "flint_and_steel", "bucket", "water_bucket", "torch", "map", "compass", "clock",
    "book", "saddle", "lead", "name_tag", "ender_pearl", "elytra", "firework_rocket",
    "diamond_helmet", "diamond_chestplate", "diamond_leggings", "diamond_boots", "iron_helmet",
    "iron_chestplate", "iron_leggings", "iron_boots", "egg", "snowball", "bone", "wheat", "sugar",
];

/// The whole world state. Cloning it is a snapshot (scenarios compare snapshots).
#[derive(Clone, Serialize, Deserialize)]
pub struct EmbeddedWorld {
    preset: Preset,
    seed: u64,
    tick: u64,
    #[serde(with = "sections_serde")]
    sections: FxHashMap<SectionKey, Section>,
    agent_name: String,
    agent_pos: Pos,
    agent_look: Look,
    players: Vec<Player>,
    mobs: Vec<Mob>,
    next_mob_id: u64,
    chat: Vec<ChatLine>,
    /// Index into `chat` of the first line the agent has not taken yet.
    chat_cursor: usize,
    changes: Vec<BlockChange>,
}

impl EmbeddedWorld {
    /// A world of the given preset with the agent standing at `agent_pos`.
    pub fn new(preset: Preset, agent_name: &str, agent_pos: Pos) -> Self {
        EmbeddedWorld {
            preset,
            seed: 0,
            tick: 0,
            sections: FxHashMap::default(),
            agent_name: agent_name.to_string(),
            agent_pos,
            agent_look: Look::default(),
            players: Vec::new(),
            mobs: Vec::new(),
            next_mob_id: 1,
            chat: Vec::new(),
            chat_cursor: 0,
            changes: Vec::new(),
        }
    }

    /// A flat world with the agent on the grass at the origin.
    pub fn flat() -> Self {
        EmbeddedWorld::new(Preset::Flat, "craftmate", Pos::new(0, 5, 0))
    }

    pub fn preset(&self) -> Preset {
        self.preset
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    // ---------- blocks ----------

    /// Set a block as `by` did it, recording the change. Returns the block that was there.
    /// No rules apply: this is how players, scenario set-up and `/setblock` edit the world.
    pub fn set_block_by(&mut self, p: Pos, block: Block, by: Actor) -> Block {
        let before = self.block_at(p);
        if before == block {
            return before;
        }
        let preset = self.preset;
        let (key, i) = section_key(p);
        let section = self.sections.entry(key).or_insert_with(|| {
            // Materialise the section from the preset so untouched cells keep their terrain.
            let origin = Pos::new(key.0 * SECTION, key.1 * SECTION, key.2 * SECTION);
            let blocks = (0..SECTION_VOLUME)
                .map(|i| {
                    let i = i as i32;
                    let d = Pos::new(i % SECTION, i / (SECTION * SECTION), (i / SECTION) % SECTION);
                    preset.block_at(origin + d).index()
                })
                .collect();
            Section { blocks }
        });
        section.blocks[i] = block.index();
        self.changes.push(BlockChange { tick: self.tick, pos: p, before, after: block, by });
        before
    }

    /// Fill an inclusive box with one block as `by`; returns how many blocks changed.
    pub fn fill_by(&mut self, bbox: BBox, block: Block, by: Actor) -> usize {
        bbox.iter().filter(|&p| self.set_block_by(p, block, by.clone()) != block).count()
    }

    /// The terrain the preset puts at `p` (what "placed" is measured against).
    pub fn terrain_at(&self, p: Pos) -> Block {
        self.preset.block_at(p)
    }

    /// Is `p` different from the preset terrain and not air (a block somebody placed)?
    pub fn is_placed(&self, p: Pos) -> bool {
        let b = self.block_at(p);
        !b.is_air() && b != self.terrain_at(p)
    }

    /// Number of edited sections kept in memory (for benchmarks and the memory figure).
    pub fn stored_sections(&self) -> usize {
        self.sections.len()
    }

    /// Do two worlds have the same blocks everywhere? (Scenarios' `unchanged` check.)
    /// Only edited sections can differ, so only those are compared.
    pub fn same_blocks(&self, other: &EmbeddedWorld) -> Option<(Pos, Block, Block)> {
        let keys = self.sections.keys().chain(other.sections.keys());
        for &key in keys {
            let origin = Pos::new(key.0 * SECTION, key.1 * SECTION, key.2 * SECTION);
            let bbox = BBox::new(origin, origin + Pos::new(SECTION - 1, SECTION - 1, SECTION - 1));
            if self.sections.get(&key) == other.sections.get(&key) {
                continue;
            }
            for p in bbox.iter() {
                let (a, b) = (other.block_at(p), self.block_at(p));
                if a != b {
                    return Some((p, a, b));
                }
            }
        }
        None
    }

    // ---------- players, mobs, chat ----------

    /// Add a player (or move an existing one there).
    pub fn add_player(&mut self, name: &str, pos: Vec3, look: Look) {
        match self.players.iter_mut().find(|p| p.name == name) {
            Some(p) => {
                p.pos = pos;
                p.look = look;
            }
            None => self.players.push(Player { name: name.to_string(), pos, look, inventory: Vec::new() }),
        }
    }

    pub fn player(&self, name: &str) -> Option<&Player> {
        self.players.iter().find(|p| p.name == name)
    }

    pub fn player_mut(&mut self, name: &str) -> Option<&mut Player> {
        self.players.iter_mut().find(|p| p.name == name)
    }

    /// Mobs as stored (with ids).
    pub fn mob_list(&self) -> &[Mob] {
        &self.mobs
    }

    /// A player speaks: the agent will see it on its next `take_chats`.
    pub fn player_says(&mut self, name: &str, text: &str) {
        self.chat.push(ChatLine { tick: self.tick, speaker: name.to_string(), text: text.to_string(), from_agent: false });
    }

    /// The whole chat log, oldest first.
    pub fn chat_log(&self) -> &[ChatLine] {
        &self.chat
    }

    /// Teleport the agent (set-up and REPL only; tasks move with `step_to`).
    pub fn set_agent_pos(&mut self, p: Pos) {
        self.agent_pos = p;
    }

    // ---------- time ----------

    /// Advance one tick: time moves on and unsupported bodies fall one block.
    pub fn advance(&mut self) {
        self.tick += 1;
        let p = self.agent_pos;
        if !self.supported(p) && p.y > MIN_Y {
            self.agent_pos = p.down(1);
        }
        for i in 0..self.mobs.len() {
            let at = self.mobs[i].pos.block();
            if !self.supported(at) && at.y > MIN_Y {
                self.mobs[i].pos.y -= 1.0;
            }
        }
    }

    /// Does a body with feet at `p` stand on something (or float in a liquid)?
    pub fn supported(&self, p: Pos) -> bool {
        self.block_at(p.down(1)).is_solid() || self.block_at(p).is_liquid()
    }

    fn has_room(&self, feet: Pos) -> bool {
        !self.block_at(feet).is_solid() && !self.block_at(feet.up(1)).is_solid()
    }

    fn agent_eye(&self) -> Vec3 {
        let f = self.agent_pos.feet();
        Vec3::new(f.x, f.y + EYE_HEIGHT, f.z)
    }

    /// Distance from the agent's eyes to the nearest point of block `p`.
    pub fn reach_distance(&self, p: Pos) -> f64 {
        let e = self.agent_eye();
        let clamp = |v: f64, lo: i32| v.clamp(lo as f64, lo as f64 + 1.0);
        e.distance(Vec3::new(clamp(e.x, p.x), clamp(e.y, p.y), clamp(e.z, p.z)))
    }

    fn check_reach(&self, p: Pos) -> Result<(), ActionError> {
        if !(MIN_Y..=MAX_Y).contains(&p.y) {
            return Err(ActionError::OutOfWorld(p));
        }
        if self.reach_distance(p) > REACH {
            return Err(ActionError::OutOfReach(p));
        }
        Ok(())
    }

    /// Positions occupied by bodies (agent and players: feet and head blocks).
    fn body_at(&self, p: Pos) -> bool {
        let occupies = |feet: Pos| p == feet || p == feet.up(1);
        occupies(self.agent_pos) || self.players.iter().any(|pl| occupies(pl.pos.block()))
    }
}

impl World for EmbeddedWorld {
    fn tick(&self) -> u64 {
        self.tick
    }

    fn block_at(&self, p: Pos) -> Block {
        let (key, i) = section_key(p);
        match self.sections.get(&key) {
            Some(s) => block_from_index(s.blocks[i]),
            None => self.preset.block_at(p),
        }
    }

    fn blocks_in(&self, bbox: BBox) -> Vec<(Pos, Block)> {
        let mut out = Vec::new();
        for p in bbox.iter() {
            let b = self.block_at(p);
            if !b.is_air() {
                out.push((p, b));
            }
        }
        out
    }

    fn players(&self) -> Vec<PlayerInfo> {
        self.players.iter().map(|p| PlayerInfo { name: p.name.clone(), pos: p.pos, look: p.look }).collect()
    }

    fn mobs(&self) -> Vec<MobInfo> {
        self.mobs.iter().map(|m| MobInfo { id: m.id, kind: m.kind.clone(), pos: m.pos }).collect()
    }

    fn agent_name(&self) -> &str {
        &self.agent_name
    }

    fn agent_pos(&self) -> Pos {
        self.agent_pos
    }

    fn agent_look(&self) -> Look {
        self.agent_look
    }

    fn take_chats(&mut self) -> Vec<ChatMessage> {
        let new = self.chat[self.chat_cursor..]
            .iter()
            .filter(|l| !l.from_agent)
            .map(|l| ChatMessage { tick: l.tick, speaker: l.speaker.clone(), text: l.text.clone() })
            .collect();
        self.chat_cursor = self.chat.len();
        new
    }

    fn changes_since(&self, cursor: usize) -> (Vec<BlockChange>, usize) {
        let from = cursor.min(self.changes.len());
        (self.changes[from..].to_vec(), self.changes.len())
    }

    fn step_to(&mut self, to: Pos) -> Result<(), ActionError> {
        let from = self.agent_pos;
        if from.chebyshev(to) != 1 {
            return Err(ActionError::NotAdjacent(to));
        }
        if !(MIN_Y..=MAX_Y).contains(&to.y) {
            return Err(ActionError::OutOfWorld(to));
        }
        if !self.has_room(to) {
            return Err(ActionError::Blocked(to));
        }
        // Going up needs something to jump from (or water to swim in), and headroom above the
        // current position for the jump.
        if to.y > from.y && (!self.supported(from) || self.block_at(from.up(2)).is_solid()) {
            return Err(ActionError::NoFooting(to));
        }
        // A diagonal step must not squeeze between two solid corners.
        if to.x != from.x && to.z != from.z {
            let side_a = Pos::new(to.x, from.y.max(to.y), from.z);
            let side_b = Pos::new(from.x, from.y.max(to.y), to.z);
            if !self.has_room(side_a) && !self.has_room(side_b) {
                return Err(ActionError::Blocked(to));
            }
        }
        self.agent_pos = to;
        Ok(())
    }

    fn place_block(&mut self, p: Pos, block: Block) -> Result<(), ActionError> {
        self.check_reach(p)?;
        let here = self.block_at(p);
        let replaceable = here.is_air() || here.is_liquid() || !here.is_solid() && here.is_natural();
        if !replaceable {
            return Err(ActionError::Blocked(p));
        }
        if block.is_solid() && self.body_at(p) {
            return Err(ActionError::Occupied(p));
        }
        // Like a player, the agent places a block against the face of a neighbouring one.
        let against = p.faces().iter().any(|&n| {
            let b = self.block_at(n);
            !b.is_air() && !b.is_liquid()
        });
        if !against {
            return Err(ActionError::NoFooting(p));
        }
        self.set_block_by(p, block, Actor::Agent);
        Ok(())
    }

    fn break_block(&mut self, p: Pos) -> Result<(), ActionError> {
        self.check_reach(p)?;
        let here = self.block_at(p);
        if here.is_air() || here.is_liquid() {
            return Err(ActionError::NothingThere(p));
        }
        if here.name() == "bedrock" {
            return Err(ActionError::Unbreakable(p));
        }
        self.set_block_by(p, Block::AIR, Actor::Agent);
        Ok(())
    }

    fn set_look(&mut self, look: Look) {
        self.agent_look = Look::new(normalize_yaw(look.yaw), look.pitch);
    }

    fn spawn_mob(&mut self, kind: &str, p: Vec3) -> Result<(), ActionError> {
        let kind = kind.trim().to_lowercase().replace(' ', "_");
        if !MOB_KINDS.contains(&kind.as_str()) {
            return Err(ActionError::UnknownMob(kind));
        }
        let at = p.block();
        if !(MIN_Y..=MAX_Y).contains(&at.y) {
            return Err(ActionError::OutOfWorld(at));
        }
        if self.block_at(at).is_solid() {
            return Err(ActionError::Blocked(at));
        }
        self.mobs.push(Mob { id: self.next_mob_id, kind, pos: p });
        self.next_mob_id += 1;
        Ok(())
    }

    fn give_item(&mut self, player: &str, item: &str, count: u32) -> Result<(), ActionError> {
        let item = item.trim().to_lowercase().replace(' ', "_");
        let item = item.strip_prefix("minecraft:").unwrap_or(&item).to_string();
        if !ITEM_KINDS.contains(&item.as_str()) && Block::from_name(&item).is_none_or(|b| b.is_air()) {
            return Err(ActionError::UnknownItem(item));
        }
        let p = self.player_mut(player).ok_or_else(|| ActionError::UnknownPlayer(player.to_string()))?;
        match p.inventory.iter_mut().find(|(i, _)| *i == item) {
            Some((_, n)) => *n += count,
            None => p.inventory.push((item, count)),
        }
        Ok(())
    }

    fn say(&mut self, text: &str) {
        let speaker = self.agent_name.clone();
        self.chat.push(ChatLine { tick: self.tick, speaker, text: text.to_string(), from_agent: true });
    }
}

fn block_from_index(i: u16) -> Block {
    // Sections only ever hold indices of registry blocks, so this cannot miss.
    Block::from_index(i).unwrap_or(Block::AIR)
}

/// Saved worlds store sections with a palette of block names, so a save stays readable when the
/// registry's order changes between versions.
mod sections_serde {
    use super::{Block, Section, SectionKey};
    use rustc_hash::FxHashMap;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Saved {
        key: SectionKey,
        palette: Vec<Block>,
        blocks: Vec<u16>,
    }

    pub fn serialize<S: Serializer>(m: &FxHashMap<SectionKey, Section>, s: S) -> Result<S::Ok, S::Error> {
        let mut keys: Vec<_> = m.keys().copied().collect();
        keys.sort();
        let saved: Vec<Saved> = keys
            .into_iter()
            .map(|key| {
                let mut palette: Vec<u16> = Vec::new();
                let blocks = m[&key]
                    .blocks
                    .iter()
                    .map(|b| match palette.iter().position(|p| p == b) {
                        Some(i) => i as u16,
                        None => {
                            palette.push(*b);
                            (palette.len() - 1) as u16
                        }
                    })
                    .collect();
                let palette = palette.into_iter().map(super::block_from_index).collect();
                Saved { key, palette, blocks }
            })
            .collect();
        saved.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<FxHashMap<SectionKey, Section>, D::Error> {
        use serde::de::Error;
        let saved: Vec<Saved> = Vec::deserialize(d)?;
        let mut out = FxHashMap::default();
        for s in saved {
            if s.blocks.len() != super::SECTION_VOLUME {
                return Err(D::Error::custom(format!("section {:?} has {} blocks", s.key, s.blocks.len())));
            }
            let blocks = s
                .blocks
                .iter()
                .map(|&i| s.palette.get(i as usize).map(|b| b.index()))
                .collect::<Option<Vec<u16>>>()
                .ok_or_else(|| D::Error::custom(format!("section {:?} refers past its palette", s.key)))?;
            out.insert(s.key, Section { blocks });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(name: &str) -> Block {
        Block::from_name(name).unwrap()
    }

    #[test]
    fn flat_preset_layers() {
        let w = EmbeddedWorld::flat();
        assert_eq!(w.block_at(Pos::new(100, 0, -7)).name(), "bedrock");
        assert_eq!(w.block_at(Pos::new(3, 2, 3)).name(), "dirt");
        assert_eq!(w.block_at(Pos::new(-9999, 4, 12345)).name(), "grass_block");
        assert!(w.block_at(Pos::new(0, 5, 0)).is_air());
        assert!(w.block_at(Pos::new(0, -1, 0)).is_air());
        assert_eq!(w.stored_sections(), 0, "reading never materialises sections");
    }

    #[test]
    fn edits_are_recorded_with_before_and_after() {
        let mut w = EmbeddedWorld::flat();
        w.set_block_by(Pos::new(1, 5, 1), b("red_wool"), Actor::Player("alice".into()));
        w.advance();
        w.place_block(Pos::new(1, 6, 1), b("blue_wool")).unwrap();
        w.break_block(Pos::new(2, 4, 2)).unwrap();
        let (changes, cursor) = w.changes_since(0);
        assert_eq!(cursor, 3);
        assert_eq!(changes[0].by, Actor::Player("alice".into()));
        assert_eq!((changes[1].tick, changes[1].by.clone()), (1, Actor::Agent));
        assert_eq!((changes[2].before.name(), changes[2].after), ("grass_block", Block::AIR));
        assert!(w.changes_since(cursor).0.is_empty());
        // Terrain inside a touched section is kept.
        assert_eq!(w.block_at(Pos::new(3, 4, 3)).name(), "grass_block");
        assert!(w.is_placed(Pos::new(1, 5, 1)) && !w.is_placed(Pos::new(3, 4, 3)));
    }

    #[test]
    fn placing_follows_creative_rules() {
        let mut w = EmbeddedWorld::flat();
        let red = b("red_wool");
        assert_eq!(w.place_block(Pos::new(9, 5, 0), red), Err(ActionError::OutOfReach(Pos::new(9, 5, 0))));
        assert_eq!(w.place_block(Pos::new(0, 5, 0), red), Err(ActionError::Occupied(Pos::new(0, 5, 0))));
        assert_eq!(w.place_block(Pos::new(2, 8, 0), red), Err(ActionError::NoFooting(Pos::new(2, 8, 0))));
        assert_eq!(w.place_block(Pos::new(2, 4, 0), red), Err(ActionError::Blocked(Pos::new(2, 4, 0))));
        assert!(w.place_block(Pos::new(2, 5, 0), red).is_ok());
        assert!(w.place_block(Pos::new(2, 6, 0), red).is_ok(), "placed against the block below");
        assert_eq!(w.place_block(Pos::new(0, 1000, 0), red), Err(ActionError::OutOfWorld(Pos::new(0, 1000, 0))));
        w.add_player("alice", Vec3::new(1.5, 5.0, 1.5), Look::default());
        assert_eq!(w.place_block(Pos::new(1, 6, 1), red), Err(ActionError::Occupied(Pos::new(1, 6, 1))));
    }

    #[test]
    fn breaking() {
        let mut w = EmbeddedWorld::flat();
        assert_eq!(w.break_block(Pos::new(1, 5, 0)), Err(ActionError::NothingThere(Pos::new(1, 5, 0))));
        assert!(w.break_block(Pos::new(1, 4, 0)).is_ok());
        for y in (1..4).rev() {
            w.break_block(Pos::new(1, y, 0)).unwrap();
        }
        w.set_agent_pos(Pos::new(1, 1, 0));
        assert_eq!(w.break_block(Pos::new(1, 0, 0)), Err(ActionError::Unbreakable(Pos::new(1, 0, 0))));
    }

    #[test]
    fn walking_climbing_and_falling() {
        let mut w = EmbeddedWorld::flat();
        assert_eq!(w.step_to(Pos::new(2, 5, 0)), Err(ActionError::NotAdjacent(Pos::new(2, 5, 0))));
        w.step_to(Pos::new(1, 5, 1)).unwrap();
        assert_eq!(w.agent_pos(), Pos::new(1, 5, 1));
        // A one-block step up.
        w.set_block_by(Pos::new(2, 5, 1), b("stone"), Actor::World);
        assert_eq!(w.step_to(Pos::new(2, 5, 1)), Err(ActionError::Blocked(Pos::new(2, 5, 1))));
        w.step_to(Pos::new(2, 6, 1)).unwrap();
        // Off the edge: gravity brings the agent down over the next ticks.
        w.step_to(Pos::new(3, 6, 1)).unwrap();
        assert_eq!(w.step_to(Pos::new(4, 7, 1)), Err(ActionError::NoFooting(Pos::new(4, 7, 1))));
        w.advance();
        assert_eq!(w.agent_pos(), Pos::new(3, 5, 1));
        w.advance();
        assert_eq!(w.agent_pos(), Pos::new(3, 5, 1));
    }

    #[test]
    fn swimming_up_out_of_water() {
        let mut w = EmbeddedWorld::flat();
        let water = b("water");
        w.fill_by(BBox::new(Pos::new(0, 2, 0), Pos::new(0, 4, 0)), water, Actor::World);
        w.set_agent_pos(Pos::new(0, 2, 0));
        w.advance();
        assert_eq!(w.agent_pos(), Pos::new(0, 2, 0), "water holds the agent up");
        w.step_to(Pos::new(0, 3, 0)).unwrap();
        w.step_to(Pos::new(0, 4, 0)).unwrap();
        w.step_to(Pos::new(1, 5, 0)).unwrap();
        w.advance();
        assert_eq!(w.agent_pos(), Pos::new(1, 5, 0));
    }

    #[test]
    fn chat_mobs_and_items() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(3.5, 5.0, 0.5), Look::new(90.0, 0.0));
        w.player_says("alice", "hello");
        w.say("hi alice");
        let chats = w.take_chats();
        assert_eq!(chats.len(), 1, "the agent does not hear itself");
        assert_eq!(chats[0].text, "hello");
        assert!(w.take_chats().is_empty());
        assert_eq!(w.chat_log().len(), 2);

        assert!(w.spawn_mob("pig", Vec3::new(5.5, 9.0, 5.5)).is_ok());
        assert!(matches!(w.spawn_mob("dragonfly", Vec3::new(5.5, 5.0, 5.5)), Err(ActionError::UnknownMob(_))));
        for _ in 0..10 {
            w.advance();
        }
        assert_eq!(w.mobs()[0].pos.block(), Pos::new(5, 5, 5), "mobs fall to the ground");

        w.give_item("alice", "diamond_sword", 1).unwrap();
        w.give_item("alice", "red_wool", 3).unwrap();
        assert_eq!(w.player("alice").unwrap().inventory.len(), 2);
        assert!(matches!(w.give_item("bob", "apple", 1), Err(ActionError::UnknownPlayer(_))));
        assert!(matches!(w.give_item("alice", "sword of doom", 1), Err(ActionError::UnknownItem(_))));
    }

    #[test]
    fn looks() {
        let mut w = EmbeddedWorld::flat();
        w.set_look(Look::new(-90.0, 120.0));
        assert_eq!(w.agent_look(), Look { yaw: 270.0, pitch: 90.0 });
        let d = Look::new(0.0, 0.0).direction();
        assert!((d.z - 1.0).abs() < 1e-6, "yaw 0 faces south (+z)");
        let d = Look::new(90.0, 0.0).direction();
        assert!((d.x + 1.0).abs() < 1e-6, "yaw 90 faces west (-x)");
        let l = Look::towards(Vec3::new(0.0, 0.0, 0.0), Vec3::new(-5.0, 0.0, 0.0));
        assert!((l.yaw - 90.0).abs() < 1e-4);
    }

    #[test]
    fn a_few_hundred_thousand_blocks_stay_small_and_compare_fast() {
        let mut w = EmbeddedWorld::flat();
        let before = w.clone();
        let n = w.fill_by(BBox::new(Pos::new(0, 5, 0), Pos::new(99, 34, 99)), b("stone_bricks"), Actor::World);
        assert_eq!(n, 300_000);
        // 7×3×7 sections of 8 KiB each: a few hundred KiB for 300k blocks.
        assert!(w.stored_sections() <= 7 * 3 * 7);
        assert_eq!(w.blocks_in(BBox::new(Pos::new(0, 5, 0), Pos::new(9, 14, 9))).len(), 1000);
        assert!(w.same_blocks(&before).is_some());
        assert!(w.same_blocks(&w.clone()).is_none());
    }

    #[test]
    fn save_and_load_round_trip() {
        let mut w = EmbeddedWorld::flat();
        w.set_block_by(Pos::new(-20, 7, 33), b("lime_concrete"), Actor::World);
        w.add_player("alice", Vec3::new(1.5, 5.0, 2.5), Look::new(10.0, 20.0));
        let json = serde_json::to_string(&w).unwrap();
        let back: EmbeddedWorld = serde_json::from_str(&json).unwrap();
        assert!(back.same_blocks(&w).is_none());
        assert_eq!(back.block_at(Pos::new(-20, 7, 33)).name(), "lime_concrete");
        assert_eq!(back.player("alice"), w.player("alice"));
    }
}
