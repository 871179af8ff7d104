//! Plain data the World trait exchanges: looks, players, mobs, chat lines, block changes, and the
//! reasons an action can fail.

use super::{Block, Pos, Vec3};
use serde::{Deserialize, Serialize};

/// Where an entity looks, in degrees, Minecraft convention: yaw 0 = south (+z), 90 = west (−x),
/// 180 = north, 270 (or −90) = east; pitch −90 = straight up, +90 = straight down.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Look {
    pub yaw: f32,
    pub pitch: f32,
}

impl Look {
    pub fn new(yaw: f32, pitch: f32) -> Self {
        Look { yaw: normalize_yaw(yaw), pitch: pitch.clamp(-90.0, 90.0) }
    }

    /// The unit vector this look points along.
    pub fn direction(&self) -> Vec3 {
        let (yaw, pitch) = (self.yaw.to_radians() as f64, self.pitch.to_radians() as f64);
        Vec3::new(-yaw.sin() * pitch.cos(), -pitch.sin(), yaw.cos() * pitch.cos())
    }

    /// The look from `from` towards `to`.
    pub fn towards(from: Vec3, to: Vec3) -> Look {
        let (dx, dy, dz) = (to.x - from.x, to.y - from.y, to.z - from.z);
        let horizontal = (dx * dx + dz * dz).sqrt();
        let yaw = (-dx).atan2(dz).to_degrees() as f32;
        let pitch = (-dy).atan2(horizontal).to_degrees() as f32;
        Look::new(yaw, pitch)
    }
}

/// Yaw into [0, 360).
pub fn normalize_yaw(yaw: f32) -> f32 {
    let y = yaw.rem_euclid(360.0);
    if y >= 360.0 { 0.0 } else { y }
}

/// Eye height above the feet, in blocks (a standing player).
pub const EYE_HEIGHT: f64 = 1.62;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub name: String,
    /// Feet position.
    pub pos: Vec3,
    pub look: Look,
}

impl PlayerInfo {
    pub fn eye(&self) -> Vec3 {
        Vec3::new(self.pos.x, self.pos.y + EYE_HEIGHT, self.pos.z)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MobInfo {
    /// Stable within one world (entity id).
    pub id: u64,
    /// Minecraft entity id without prefix: `pig`, `cow`, `sheep`…
    pub kind: String,
    pub pos: Vec3,
}

/// An item lying in the world (dropped or thrown), as the agent sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemInfo {
    /// Stable while it lies there (entity id).
    pub id: u64,
    /// Item id without prefix (`apple`); empty when the world does not say what it is.
    pub item: String,
    pub count: u32,
    pub pos: Vec3,
}

/// Someone took items into their inventory: a player picking up what lay near them, or the
/// agent itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pickup {
    pub tick: u64,
    /// The player's name, or the agent's own.
    pub by: String,
    /// Item id without prefix; empty when the world does not say.
    pub item: String,
    pub count: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub tick: u64,
    pub speaker: String,
    pub text: String,
}

/// Who changed a block.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Actor {
    /// The bot itself.
    Agent,
    /// A player, by name.
    Player(String),
    /// World generation, scenario set-up, or an unknown cause (a live server's update).
    World,
}

/// One entry of the block-change record: perception and undo are built on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockChange {
    pub tick: u64,
    pub pos: Pos,
    pub before: Block,
    pub after: Block,
    pub by: Actor,
}

/// Why an action did not happen. The message is meant for players, so it reads as a sentence.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ActionError {
    #[error("{0} is out of reach")]
    OutOfReach(Pos),
    #[error("{0} is not next to where I stand")]
    NotAdjacent(Pos),
    #[error("there is no room for me at {0}")]
    Blocked(Pos),
    #[error("I cannot jump from here to {0}")]
    NoFooting(Pos),
    #[error("someone is standing at {0}")]
    Occupied(Pos),
    #[error("{0} is outside the world")]
    OutOfWorld(Pos),
    #[error("the block at {0} cannot be broken")]
    Unbreakable(Pos),
    #[error("there is nothing to break at {0}")]
    NothingThere(Pos),
    #[error("I don't know a mob called {0:?}")]
    UnknownMob(String),
    #[error("I don't know an item called {0:?}")]
    UnknownItem(String),
    #[error("there is no player called {0:?} here")]
    UnknownPlayer(String),
    #[error("the server refused: {0}")]
    Refused(String),
    #[error("there is no chest at {0}")]
    NoContainer(Pos),
    #[error("I have no {0} to give")]
    NoneToGive(String),
    #[error("{0} cannot be done in this world yet")]
    Unsupported(&'static str),
}
