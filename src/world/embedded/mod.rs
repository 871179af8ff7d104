//! The embedded voxel world: a deterministic, in-process stand-in for a Minecraft server.
//!
//! Tests, scenarios and the `play` REPL drive it tick by tick, so every run is reproducible.
//! Storage is sparse: terrain comes from a [`Preset`] on demand, and only 16×16×16 sections that
//! somebody edited are kept, as 2-byte block handles. A build of a few hundred thousand blocks
//! takes a few megabytes. Every edit goes through [`EmbeddedWorld::set_block_by`], which appends
//! to the change record that perception and undo read.
//!
//! The actions follow [`super::rules`], the rules the live world and the planner use too: blocks
//! are placed against a neighbouring block and within reach of the eyes, nobody can place a block
//! inside a body, bedrock cannot be broken, and the agent walks (one block up at a time, falling
//! when unsupported, swimming in water).

pub mod natural;
mod preset;
mod sections;
mod store;
#[cfg(test)]
mod tests;
mod things;

pub use natural::SEA_LEVEL;
pub use preset::Preset;
pub use store::{StoreError, WorldStore};
pub use things::GROW_ODDS;

use super::rules;
use super::types::normalize_yaw;
use super::*;
use rustc_hash::FxHashMap;
use sections::{SECTION, Section, SectionKey, block_from_index, section_key};
use serde::{Deserialize, Serialize};

/// The most of a player's line the world keeps, in UTF-16 units (see [`EmbeddedWorld::player_says`]).
pub const HEARD_LINE_UNITS: usize = 1000;

/// A player in the embedded world (the REPL's user, or a scenario's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub pos: Vec3,
    pub look: Look,
    /// What the player carries: items handed over or picked up (creative: nothing else fills it).
    pub inventory: Inventory,
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

/// The whole world state. Cloning it is a snapshot (scenarios compare snapshots).
#[derive(Clone, Serialize, Deserialize)]
pub struct EmbeddedWorld {
    preset: Preset,
    seed: u64,
    tick: u64,
    #[serde(with = "sections::saved")]
    sections: FxHashMap<SectionKey, Section>,
    agent_name: String,
    agent_pos: Pos,
    agent_look: Look,
    players: Vec<Player>,
    mobs: Vec<Mob>,
    next_mob_id: u64,
    /// What the bot carries, chests' contents, items lying about, crops.
    #[serde(default)]
    things: things::Things,
    /// The newest chat lines; `chat_dropped` older ones were let go (see [`record::KEEP_CHAT`]).
    chat: Vec<ChatLine>,
    #[serde(default)]
    chat_dropped: usize,
    /// Index into `chat` of the first line the agent has not taken yet.
    chat_cursor: usize,
    /// The newest block changes; `changes_dropped` older ones were let go (see
    /// [`record::KEEP_CHANGES`]). Readers hold cursors counted from the first change ever.
    changes: Vec<BlockChange>,
    #[serde(default)]
    changes_dropped: usize,
    /// Items handed over, as pickups by their receivers (not saved: they matter while a give is
    /// under way).
    #[serde(skip)]
    pickups: Vec<Pickup>,
    #[serde(skip)]
    pickups_dropped: usize,
    /// Sections edited since a [`WorldStore`] last saved them.
    #[serde(skip)]
    dirty: rustc_hash::FxHashSet<SectionKey>,
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
            things: Default::default(),
            chat: Vec::new(),
            chat_dropped: 0,
            chat_cursor: 0,
            changes: Vec::new(),
            changes_dropped: 0,
            pickups: Vec::new(),
            pickups_dropped: 0,
            dirty: Default::default(),
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
        let section = self.sections.entry(key).or_insert_with(|| Section::from_preset(key, preset));
        section.blocks[i] = block.index();
        self.dirty.insert(key);
        self.changes.push(BlockChange { tick: self.tick, pos: p, before, after: block, by });
        self.things_after_change(p, before, block);
        self.changes_dropped += record::trim(&mut self.changes, record::KEEP_CHANGES);
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
            None => self.players.push(Player { name: name.to_string(), pos, look, inventory: Inventory::default() }),
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

    /// A player speaks: the agent will see it on its next `take_chats`. At most
    /// [`HEARD_LINE_UNITS`] of the line are kept: twice the chat gate's bound, so an overlong line
    /// is still heard as too long, while a flood of them cannot fill the log.
    pub fn player_says(&mut self, name: &str, text: &str) {
        let text = crate::safety::text::capped(text, HEARD_LINE_UNITS);
        self.chat.push(ChatLine { tick: self.tick, speaker: name.to_string(), text: text.to_string(), from_agent: false });
        self.trim_chat();
    }

    fn trim_chat(&mut self) {
        let cut = record::trim(&mut self.chat, record::KEEP_CHAT);
        self.chat_dropped += cut;
        self.chat_cursor = self.chat_cursor.saturating_sub(cut);
    }

    /// The chat log kept, oldest first (the newest [`record::KEEP_CHAT`] lines at least).
    pub fn chat_log(&self) -> &[ChatLine] {
        &self.chat
    }

    /// How many chat lines were ever said: a mark for [`EmbeddedWorld::chat_since`].
    pub fn chat_end(&self) -> usize {
        self.chat_dropped + self.chat.len()
    }

    /// The lines said since `mark` (an earlier [`EmbeddedWorld::chat_end`]), those still kept.
    pub fn chat_since(&self, mark: usize) -> &[ChatLine] {
        record::since(&self.chat, self.chat_dropped, mark).0
    }

    /// Teleport the agent (set-up and REPL only; tasks move with `step_to`).
    pub fn set_agent_pos(&mut self, p: Pos) {
        self.agent_pos = p;
    }

    // ---------- time ----------

    /// Advance one tick: time moves on, unsupported bodies fall one block, crops grow and
    /// players pick up what lies at their feet.
    pub fn advance(&mut self) {
        self.tick += 1;
        self.things_tick();
        let p = self.agent_pos;
        if !self.supported(p) && p.y > rules::MIN_Y {
            self.agent_pos = p.down(1);
        }
        for i in 0..self.mobs.len() {
            let at = self.mobs[i].pos.block();
            if !self.supported(at) && at.y > rules::MIN_Y {
                self.mobs[i].pos.y -= 1.0;
            }
        }
    }

    /// Does a body with feet at `p` stand on something (or float in a liquid)?
    pub fn supported(&self, p: Pos) -> bool {
        rules::supported(p, |q| self.block_at(q))
    }

    /// Feet blocks of the players' bodies (the agent's is checked on its own).
    fn bodies(&self) -> Vec<Pos> {
        self.players.iter().map(|pl| pl.pos.block()).collect()
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

    fn made_by_world(&self, p: Pos) -> bool {
        let b = self.block_at(p);
        // What the preset put there and nobody replaced: a wild tree's logs.
        b.is_natural() || (!b.is_air() && b == self.preset.block_at(p))
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
        let (new, next) = record::since(&self.changes, self.changes_dropped, cursor);
        (new.to_vec(), next)
    }

    fn pickups_since(&self, cursor: usize) -> (Vec<Pickup>, usize) {
        let (new, next) = record::since(&self.pickups, self.pickups_dropped, cursor);
        (new.to_vec(), next)
    }

    fn step_to(&mut self, to: Pos) -> Result<(), ActionError> {
        rules::check_step(self.agent_pos, to, rules::HEIGHT, |p| self.block_at(p))?;
        self.agent_pos = to;
        Ok(())
    }

    fn place_block(&mut self, p: Pos, block: Block) -> Result<(), ActionError> {
        rules::check_place(p, block, self.agent_pos, &self.bodies(), rules::HEIGHT, |q| self.block_at(q))?;
        self.set_block_by(p, block, Actor::Agent);
        Ok(())
    }

    fn break_block(&mut self, p: Pos) -> Result<(), ActionError> {
        rules::check_break(p, self.agent_pos, rules::HEIGHT, |q| self.block_at(q))?;
        self.set_block_by(p, Block::AIR, Actor::Agent);
        Ok(())
    }

    fn set_look(&mut self, look: Look) {
        self.agent_look = Look::new(normalize_yaw(look.yaw), look.pitch);
    }

    fn spawn_mob(&mut self, kind: &str, p: Vec3) -> Result<(), ActionError> {
        let kind = rules::normalize_id(kind);
        if !rules::is_mob(&kind) {
            return Err(ActionError::UnknownMob(kind));
        }
        let at = p.block();
        if !rules::in_height(at.y, rules::HEIGHT) {
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
        if self.player(player).is_none() {
            return Err(ActionError::UnknownPlayer(player.to_string()));
        }
        // What the bot carries goes first, creative supply makes up the rest.
        let item = self.supply(item, count)?;
        let tick = self.tick;
        let p = self.player_mut(player).expect("checked above");
        // Handed straight into the inventory: the receiver has it at once.
        let pickup = Pickup { tick, by: p.name.clone(), item: item.clone(), count };
        p.inventory.add(&item, count);
        self.record_pickup(pickup);
        Ok(())
    }

    fn items(&self) -> Vec<ItemInfo> {
        self.things.lying.clone()
    }

    fn carried(&self) -> Inventory {
        self.things.carried.clone()
    }

    fn inventory_of(&self, player: &str) -> Option<Inventory> {
        self.player(player).map(|p| p.inventory.clone())
    }

    fn container(&self, p: Pos) -> Option<Inventory> {
        rules::is_container(self.block_at(p)).then(|| self.things.containers.get(&p).cloned().unwrap_or_default())
    }

    fn crop_age(&self, p: Pos) -> Option<u8> {
        (self.block_at(p).name() == "wheat").then(|| self.things.crops.get(&p).copied().unwrap_or(rules::RIPE))
    }

    fn keep_item(&mut self, item: &str, count: u32) -> Result<(), ActionError> {
        self.things_keep(item, count)
    }

    fn pick_up(&mut self, id: u64) -> Result<u32, ActionError> {
        self.things_pick_up(id)
    }

    fn use_carried(&mut self, item: &str, count: u32) -> u32 {
        self.things.carried.take(item, count)
    }

    fn drop_item(&mut self, item: &str, count: u32, at: Vec3) -> Result<(), ActionError> {
        self.things_drop(item, count, at)
    }

    fn put_in_container(&mut self, p: Pos, item: &str, count: u32) -> Result<(), ActionError> {
        self.things_put(p, item, count)
    }

    fn take_from_container(&mut self, p: Pos, item: &str, count: u32) -> Result<u32, ActionError> {
        self.things_take(p, item, count)
    }

    fn say(&mut self, text: &str) {
        let speaker = self.agent_name.clone();
        self.chat.push(ChatLine { tick: self.tick, speaker, text: text.to_string(), from_agent: true });
        self.trim_chat();
    }
}

