//! Items the bot throws and who picks them up, as the server shows it.
//!
//! Handing a player something on a server means throwing it: the items become item entities
//! near the bot, and whoever the server lets pick them up takes them (its take-item packet names
//! the collector; the entity then goes). To say what really happened the client:
//! - remembers each throw ([`note_throw`]) and takes the item entities that appear near it in
//!   the next seconds for the thrown ones ([`seen`]) — some servers never say which item an
//!   item entity holds, so the throw is what names it;
//! - reads the take-item packets ([`capture_pickups`]) and reports each as a
//!   [`ClientEvent::PickedUp`]: by whom (a player, or the bot itself), what, how many. By the
//!   time the packet is read the entity may be gone, so what each entity held is kept here.

use super::plugin::Link;
use crate::live::blocks;
use crate::live::bridge::ClientEvent;
use crate::world::{ItemInfo, Vec3};

use azalea::core::entity_id::MinecraftEntityId;
use azalea::ecs::prelude::{Entity, Has, MessageReader, Query, Res, ResMut, Resource, With};
use azalea::ecs::world::World as Ecs;
use azalea::entity::metadata::ItemItem;
use azalea::entity::{EntityKindComponent, LoadedBy, LocalEntity, Position};
use azalea::local_player::TabList;
use azalea::packet::game::ReceiveGamePacketEvent;
use azalea::player::GameProfileComponent;
use azalea::protocol::packets::game::ClientboundGamePacket;
use azalea::registry::builtin::EntityKind;
// The `Resource` derive names `bevy_ecs`; azalea re-exports it as `ecs`.
use azalea::ecs as bevy_ecs;
use std::collections::HashMap;

/// Item entities appearing this long after a throw (in game ticks) can be the thrown ones.
const THROW_TICKS: u64 = 40;
/// ... and this near where the bot stood when it threw.
const THROW_RADIUS: f64 = 6.0;

/// One throw not yet fully seen as item entities.
struct Throw {
    item: String,
    /// Item entities still expected (one per item: the bot drops them one at a time).
    left: u32,
    at: Vec3,
    tick: u64,
}

/// The bot's throws and the item entities known to be its own.
#[derive(Resource, Default)]
pub(super) struct Throws {
    tick: u64,
    recent: Vec<Throw>,
    /// Item entities seen so far (any), with what they hold as far as known.
    known: HashMap<i32, (String, u32)>,
}

/// Remember a throw of `count` single items, from `at`.
pub(super) fn note_throw(world: &mut Ecs, item: &str, count: u32, at: Vec3) {
    let mut throws = world.get_resource_or_insert_with(Throws::default);
    let tick = throws.tick;
    throws.recent.push(Throw { item: item.to_string(), left: count, at, tick });
}

/// The item entities the client sees now, named by their metadata or, when the server sends
/// none, by the throw they came from. Called once a game tick.
pub(super) fn seen(world: &mut Ecs, me: Entity) -> Vec<ItemInfo> {
    let mut query =
        world.query::<(&MinecraftEntityId, &EntityKindComponent, &Position, &LoadedBy, Option<&ItemItem>)>();
    let found: Vec<(i32, Vec3, Option<(String, u32)>)> = query
        .iter(world)
        .filter(|(_, kind, _, loaded_by, _)| ***kind == EntityKind::Item && loaded_by.contains(&me))
        .map(|(id, _, p, _, stack)| {
            let held = stack
                .filter(|s| !s.is_empty())
                .map(|s| (blocks::id(s.kind().to_str()).to_string(), s.count().max(1) as u32));
            (id.0, Vec3::new(p.x, p.y, p.z), held)
        })
        .collect();
    let mut throws = world.get_resource_or_insert_with(Throws::default);
    throws.tick += 1;
    let now = throws.tick;
    throws.recent.retain(|t| t.left > 0 && now.saturating_sub(t.tick) <= THROW_TICKS);
    let mut out = Vec::with_capacity(found.len());
    for (id, pos, held) in found {
        if !throws.known.contains_key(&id) || (held.is_some() && throws.known[&id].0.is_empty()) {
            let named = held.clone().or_else(|| {
                let t = throws.recent.iter_mut().find(|t| t.left > 0 && t.at.distance(pos) <= THROW_RADIUS)?;
                t.left -= 1;
                Some((t.item.clone(), 1))
            });
            throws.known.insert(id, named.unwrap_or_default());
        }
        if let Some((item, n)) = held {
            throws.known.insert(id, (item, n));
        }
        let (item, count) = throws.known[&id].clone();
        out.push(ItemInfo { id: id as u64, item, count: count.max(1), pos });
    }
    // Entities gone for good are forgotten once no pickup can name them any more.
    let alive: Vec<i32> = out.iter().map(|i| i.id as i32).collect();
    if throws.known.len() > 4 * alive.len() + 256 {
        throws.known.retain(|id, _| alive.contains(id));
    }
    out
}

/// The server's take-item packets, as pickups: the collector by name (or the bot), the item
/// the entity held, and how many (the packet's count, else what the entity held).
pub(super) fn capture_pickups(
    mut packets: MessageReader<ReceiveGamePacketEvent>,
    entities: Query<(&MinecraftEntityId, Option<&GameProfileComponent>, &azalea::entity::EntityUuid, Has<LocalEntity>)>,
    tabs: Query<&TabList, With<LocalEntity>>,
    throws: Option<ResMut<Throws>>,
    link: Option<Res<Link>>,
) {
    let (Some(link), Some(mut throws)) = (link, throws) else { return };
    for ev in packets.read() {
        let ClientboundGamePacket::TakeItemEntity(p) = ev.packet.as_ref() else { continue };
        let collector = entities.iter().find(|(id, ..)| **id == p.player_id);
        let by_me = collector.is_some_and(|(_, _, _, local)| local);
        let by = collector.and_then(|(_, profile, uuid, _)| {
            let listed = || tabs.iter().find_map(|t| t.get(&**uuid)).map(|i| i.profile.name.clone());
            profile.map(|g| g.name.clone()).or_else(listed)
        });
        let held = throws.known.remove(&(p.item_id as i32));
        let item = held.as_ref().map(|(i, _)| i.clone()).filter(|i| !i.is_empty());
        let count = if p.amount > 0 { p.amount } else { held.map_or(1, |(_, n)| n.max(1)) };
        let _ = link.events.send(ClientEvent::PickedUp { by, by_me, item, count });
    }
}
