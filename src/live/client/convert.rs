//! Azalea's types as ours and back: positions, vectors, faces, and the client's entities (players,
//! mobs, items lying around) as the tick's [`Snapshot`].

use super::actions::feet;
use crate::live::blocks;
use crate::live::bridge::{Seq, Snapshot};
use crate::live::placement::Face;
use crate::world::{Look, MobInfo, PlayerInfo, Pos, Vec3};

use azalea::core::direction::Direction;
use azalea::core::game_type::GameMode;
use azalea::ecs::prelude::{
    Entity, Has, Without,
};
use azalea::ecs::world::World as Ecs;
use azalea::entity::metadata::{AbstractLiving, Player};
use azalea::entity::{
    Dead, EntityKindComponent, EntityUuid, LoadedBy, LocalEntity, LookDirection, Position,
};
use azalea::local_player::{LocalGameMode, TabList};
use azalea::player::GameProfileComponent;
// The `Resource` derive names `bevy_ecs`; azalea re-exports it as `ecs`.
use azalea::BlockPos;

/// What the client sees now.
pub(super) fn snapshot(world: &mut Ecs, me: Entity, applied: Seq) -> Snapshot {
    let mut others = world.query_filtered::<(
        &Position,
        &EntityKindComponent,
        &EntityUuid,
        Option<&LookDirection>,
        Option<&GameProfileComponent>,
        &LoadedBy,
        &azalea::core::entity_id::MinecraftEntityId,
        Has<Player>,
        Has<AbstractLiving>,
        Has<Dead>,
    ), Without<LocalEntity>>();
    let items = super::items::seen(world, me);
    let world: &Ecs = world;
    let pos = feet(world, me);
    let look = world.get::<LookDirection>(me).map(|d| Look::new(d.y_rot(), d.x_rot())).unwrap_or_default();
    let creative = world.get::<LocalGameMode>(me).is_some_and(|g| g.current == GameMode::Creative);
    let tab = world.get::<TabList>(me);
    let mut players = Vec::new();
    let mut mobs = Vec::new();
    for (p, kind, uuid, dir, profile, loaded_by, id, is_player, living, dead) in others.iter(world) {
        if !loaded_by.contains(&me) || dead {
            continue;
        }
        let at = Vec3::new(p.x, p.y, p.z);
        let look = dir.map(|d| Look::new(d.y_rot(), d.x_rot())).unwrap_or_default();
        if is_player {
            let name = profile
                .map(|g| g.name.clone())
                .or_else(|| tab.and_then(|t| t.get(&**uuid)).map(|i| i.profile.name.clone()));
            if let Some(name) = name {
                players.push(PlayerInfo { name, pos: at, look });
            }
        } else if living {
            mobs.push(MobInfo { id: id.0 as u64, kind: blocks::entity_id(**kind).to_string(), pos: at });
        }
    }
    players.sort_by(|a, b| a.name.cmp(&b.name));
    mobs.sort_by_key(|m| m.id);
    Snapshot { applied, pos, look, creative, players, mobs, items }
}

pub(super) fn block_pos(p: Pos) -> BlockPos {
    BlockPos::new(p.x, p.y, p.z)
}

pub(super) fn azalea_vec(v: Vec3) -> azalea::Vec3 {
    azalea::Vec3::new(v.x, v.y, v.z)
}

pub(super) fn direction(face: Face) -> Direction {
    match face {
        Face::Down => Direction::Down,
        Face::Up => Direction::Up,
        Face::North => Direction::North,
        Face::South => Direction::South,
        Face::West => Direction::West,
        Face::East => Direction::East,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_map_to_minecraft_directions() {
        assert_eq!(direction(Face::North), Direction::North);
        assert_eq!(direction(Face::East), Direction::East);
        assert_eq!(direction(Face::Up), Direction::Up);
    }
}
