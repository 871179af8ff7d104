//! Players, mobs and the agent itself as reference objects, kept where they are.
//!
//! Each tick every visible entity is sighted; a row is written only when an entity is new or
//! has moved or turned since the last write, so a crowd standing still costs nothing. Mobs that
//! are no longer in the world are forgotten; players who leave are kept with their last known
//! place ("where was bob?").

use rustc_hash::{FxHashMap, FxHashSet};

use crate::memory::{EntitySighting, Memory, MemoryError, MemoryId, MemoryKind};
use crate::world::{Look, Vec3, World};

/// Who an entity is, across ticks.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Agent,
    Player(String),
    Mob(u64),
}

/// What was last written for each entity.
#[derive(Debug, Default)]
pub struct EntityCache {
    written: FxHashMap<Key, (MemoryId, Vec3, Option<Look>)>,
}

impl EntityCache {
    /// Starts from the entities memory already has (after a restart, mobs keep their memories if
    /// the world still has them).
    pub fn load(memory: &Memory) -> Result<EntityCache, MemoryError> {
        let mut written = FxHashMap::default();
        for kind in [MemoryKind::SelfAgent, MemoryKind::Player, MemoryKind::Mob] {
            for o in memory.objects_of_kind(kind)? {
                let key = match (kind, o.entity_id, o.player.clone()) {
                    (MemoryKind::SelfAgent, _, _) => Key::Agent,
                    (MemoryKind::Player, _, Some(name)) => Key::Player(name),
                    (MemoryKind::Mob, Some(e), _) => Key::Mob(e),
                    _ => continue,
                };
                written.insert(key, (o.id, o.pos, o.look));
            }
        }
        Ok(EntityCache { written })
    }

    /// Sights every entity; returns how many rows were written.
    pub fn update(&mut self, world: &dyn World, memory: &mut Memory) -> Result<usize, MemoryError> {
        let mut sightings = Vec::new();
        let name = world.agent_name().to_string();
        sightings.push((
            Key::Agent,
            EntitySighting {
                kind: MemoryKind::SelfAgent,
                entity_id: None,
                player: Some(name.clone()),
                name,
                pos: world.agent_pos().feet(),
                look: Some(world.agent_look()),
            },
        ));
        for p in world.players() {
            sightings.push((
                Key::Player(p.name.clone()),
                EntitySighting {
                    kind: MemoryKind::Player,
                    entity_id: None,
                    player: Some(p.name.clone()),
                    name: p.name,
                    pos: p.pos,
                    look: Some(p.look),
                },
            ));
        }
        for m in world.mobs() {
            sightings.push((
                Key::Mob(m.id),
                EntitySighting { kind: MemoryKind::Mob, entity_id: Some(m.id), player: None, name: m.kind, pos: m.pos, look: None },
            ));
        }
        let mut written = 0;
        let mut seen_mobs = FxHashSet::default();
        for (key, s) in sightings {
            if let Key::Mob(e) = key {
                seen_mobs.insert(e);
            }
            if let Some((_, pos, look)) = self.written.get(&key)
                && *pos == s.pos
                && *look == s.look
            {
                continue;
            }
            let (id, _) = memory.sight_entity(&s)?;
            self.written.insert(key, (id, s.pos, s.look));
            written += 1;
        }
        let gone: Vec<(Key, MemoryId)> = self
            .written
            .iter()
            .filter_map(|(k, (id, _, _))| match k {
                Key::Mob(e) if !seen_mobs.contains(e) => Some((k.clone(), *id)),
                _ => None,
            })
            .collect();
        for (key, id) in gone {
            memory.forget(id)?;
            self.written.remove(&key);
        }
        Ok(written)
    }
}
