//! Other bodies' positions after a teleport. A server moves an entity either by a small delta
//! (relative to the position it last sent, the *base* both sides keep) or, for a long move, by
//! an absolute position: the teleport-entity packet (what flying-squid and plugins send for moves
//! over 8 blocks and `/tp`) or the position sync. Azalea 0.16 sets the base on a position sync
//! but not on a teleport, so every delta after a teleport lands relative to the spot before it:
//! a player who teleported and then took a step was seen at the old spot plus the step. Vanilla
//! sets the base on both; [`rebase_teleported`] does it after azalea has read the frame's packets,
//! replaying the deltas that came after a teleport in the same frame from the teleport's spot.

use azalea::core::delta::PositionDelta8;
use azalea::core::entity_id::MinecraftEntityId;
use azalea::ecs::prelude::{Entity, MessageReader, Query, With, Without};
use azalea::entity::indexing::EntityIdIndex;
use azalea::entity::vec_delta_codec::VecDeltaCodec;
use azalea::entity::{LocalEntity, Physics, Position};
use azalea::packet::game::ReceiveGamePacketEvent;
use azalea::protocol::packets::game::ClientboundGamePacket;
use azalea::Vec3;
use std::collections::HashMap;

/// What a body teleported this frame needs once azalea has applied the frame's packets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Rebase {
    /// Put it here and count later deltas from here: the teleport's spot plus the deltas after it.
    To(Vec3),
    /// Count later deltas from where azalea put it (a teleport relative to the old position,
    /// which azalea applied rightly; only deltas in the same frame after it cannot be replayed).
    Here,
}

/// Follows one frame's packets in order and says, for each body teleported in it and not synced
/// since, where it really is.
#[derive(Default)]
pub(super) struct Replay {
    bodies: HashMap<MinecraftEntityId, Rebase>,
}

impl Replay {
    pub(super) fn packet(&mut self, packet: &ClientboundGamePacket) {
        match packet {
            ClientboundGamePacket::TeleportEntity(p) => {
                let r = &p.relative;
                let rebase = if r.x || r.y || r.z { Rebase::Here } else { Rebase::To(p.change.pos) };
                self.bodies.insert(p.id, rebase);
            }
            // Azalea sets the base itself for these.
            ClientboundGamePacket::EntityPositionSync(p) => {
                self.bodies.remove(&p.id);
            }
            ClientboundGamePacket::MoveEntityPos(p) => self.moved(p.entity_id, &p.delta),
            ClientboundGamePacket::MoveEntityPosRot(p) => self.moved(p.entity_id, &p.delta),
            ClientboundGamePacket::RemoveEntities(p) => {
                for id in &p.entity_ids {
                    self.bodies.remove(id);
                }
            }
            _ => {}
        }
    }

    /// A delta after a teleport: from the teleport's spot, as the server meant it.
    fn moved(&mut self, id: MinecraftEntityId, delta: &PositionDelta8) {
        if let Some(Rebase::To(at)) = self.bodies.get_mut(&id) {
            *at = VecDeltaCodec::new(*at).decode(delta);
        }
    }

    pub(super) fn finish(self) -> impl Iterator<Item = (MinecraftEntityId, Rebase)> {
        self.bodies.into_iter()
    }
}

/// After azalea has read the frame's packets: bodies teleported in them are put where the
/// server said, and their later deltas counted from there.
pub(super) fn rebase_teleported(
    mut packets: MessageReader<ReceiveGamePacketEvent>,
    clients: Query<&EntityIdIndex, With<LocalEntity>>,
    mut bodies: Query<(&mut Position, &mut Physics), Without<LocalEntity>>,
) {
    let mut replays: HashMap<Entity, Replay> = HashMap::new();
    for ev in packets.read() {
        replays.entry(ev.entity).or_default().packet(&ev.packet);
    }
    for (client, replay) in replays {
        let Ok(index) = clients.get(client) else { continue };
        for (id, rebase) in replay.finish() {
            let Some(body) = index.get_by_minecraft_entity(id) else { continue };
            let Ok((mut pos, mut physics)) = bodies.get_mut(body) else { continue };
            let at = match rebase {
                Rebase::To(at) => at,
                Rebase::Here => **pos,
            };
            if **pos != at {
                tracing::debug!(entity = id.0, from = ?**pos, to = ?at, "a teleported body's later moves, counted from the teleport");
                **pos = at;
            }
            physics.vec_delta_codec.set_base(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use azalea::entity::LookDirection;
    use azalea::protocol::common::movements::{PositionMoveRotation, RelativeMovements};
    use azalea::protocol::packets::game::c_entity_position_sync::ClientboundEntityPositionSync;
    use azalea::protocol::packets::game::c_move_entity_pos::ClientboundMoveEntityPos;
    use azalea::protocol::packets::game::c_teleport_entity::ClientboundTeleportEntity;

    const ID: MinecraftEntityId = MinecraftEntityId(7);

    fn teleport(pos: Vec3, relative: bool) -> ClientboundGamePacket {
        let relative = if relative { RelativeMovements::all_relative() } else { RelativeMovements::all_absolute() };
        let change = PositionMoveRotation { pos, delta: Vec3::ZERO, look_direction: LookDirection::default() };
        ClientboundGamePacket::TeleportEntity(ClientboundTeleportEntity { id: ID, change, relative, on_ground: true })
    }

    /// A delta of `blocks` along x (deltas count 1/4096 of a block).
    fn step_x(blocks: f64) -> ClientboundGamePacket {
        let delta = PositionDelta8 { xa: (blocks * 4096.0) as i16, ya: 0, za: 0 };
        ClientboundGamePacket::MoveEntityPos(ClientboundMoveEntityPos { entity_id: ID, delta, on_ground: true })
    }

    fn replay(packets: &[ClientboundGamePacket]) -> Vec<(MinecraftEntityId, Rebase)> {
        let mut r = Replay::default();
        packets.iter().for_each(|p| r.packet(p));
        r.finish().collect()
    }

    #[test]
    fn deltas_after_a_teleport_count_from_the_teleport() {
        let far = Vec3::new(8.5, 5.0, 28.5);
        assert_eq!(replay(&[teleport(far, false)]), vec![(ID, Rebase::To(far))]);
        let moved = replay(&[step_x(1.0), teleport(far, false), step_x(2.0), step_x(0.5)]);
        assert_eq!(moved, vec![(ID, Rebase::To(Vec3::new(11.0, 5.0, 28.5)))]);
        // Relative teleports azalea applies rightly; only the base is left to set.
        assert_eq!(replay(&[teleport(Vec3::new(20.0, 0.0, 0.0), true)]), vec![(ID, Rebase::Here)]);
        // Deltas alone, or a position sync after the teleport: azalea is right already.
        assert!(replay(&[step_x(1.0)]).is_empty());
        let values = PositionMoveRotation { pos: far, delta: Vec3::ZERO, look_direction: LookDirection::default() };
        let sync = ClientboundGamePacket::EntityPositionSync(ClientboundEntityPositionSync { id: ID, values, on_ground: true });
        assert!(replay(&[teleport(far, false), sync]).is_empty());
    }
}
