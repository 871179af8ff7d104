//! What each [`Command`] turns into, done like a creative-mode player:
//! - **Placing**: the block's item goes into hotbar slot 0 with the creative-slot packet (only
//!   when it changes), slot 0 is selected, the bot looks at the middle of the clicked face and
//!   sends the use-item-on packet for the neighbour it clicks. The block is also put into the
//!   client's own world at once (as vanilla clients predict), and the prediction is checked
//!   against the server's block update: a different block back means the server refused.
//! - **Breaking**: the start-destroy action, which breaks at once in creative.
//! - **Moving**: one step is one block. The body is put in the middle of the next block and the
//!   position packet sent in the same tick, before any click that follows (a pillar step places
//!   the block under the feet right after). A step straight up is lifted a little, like the top
//!   of a jump, so that block does not touch the body. Gravity is azalea's physics: after a step
//!   off an edge the body falls as it would for a player. At most one step a tick (20 blocks a
//!   second) is within a creative player's flying speed and vanilla's movement checks.
//! - **Mobs** come from spawn eggs used on the block below; **items** are handed over by putting
//!   them in hotbar slot 1 and throwing them one by one towards the player's feet; `items.rs`
//!   follows them to whoever picks them up.
//! - **Chests** are opened with a click and used over the next ticks (`chests.rs`).

use super::convert::{azalea_vec, block_pos, direction};
use super::plugin::{LiveState, Prediction};
use crate::live::blocks;
use crate::live::bridge::Command;
use crate::live::placement::{self, Face};
use crate::world::{Block, Look, Pos, Vec3, rules};

use azalea::core::direction::Direction;
use azalea::ecs::prelude::Entity;
use azalea::ecs::world::World as Ecs;
use azalea::entity::{
    LastSentPosition, LookDirection,
    Physics, Position,
};
use azalea::interact::BlockStatePredictionHandler;
use azalea::local_player::WorldHolder;
use azalea::movement::LastSentLookDirection;
use azalea::packet::game::SendGamePacketEvent;
use azalea::physics::collision::BlockWithShape;
use azalea::protocol::common::movements::MoveFlags;
use azalea::protocol::packets::Packet;
use azalea::protocol::packets::game::s_interact::InteractionHand;
use azalea::protocol::packets::game::s_player_action::Action;
use azalea::protocol::packets::game::s_use_item_on::BlockHit;
use azalea::protocol::packets::game::{
    ServerboundGamePacket, ServerboundMovePlayerPos, ServerboundMovePlayerRot, ServerboundPlayerAction,
    ServerboundSetCarriedItem, ServerboundSetCreativeModeSlot, ServerboundSwing, ServerboundUseItemOn,
};
use azalea::registry::builtin::ItemKind;
// The `Resource` derive names `bevy_ecs`; azalea re-exports it as `ecs`.
use azalea::BlockPos;
use azalea_inventory::ItemStack;

/// Chat lines waiting for the pacer beyond this are dropped (oldest first).
pub(super) const MAX_WAITING_LINES: usize = 64;
/// The hotbar slot blocks and eggs are held in, and the one items are handed over from.
pub(super) const BUILD_SLOT: u16 = 0;
pub(super) const GIVE_SLOT: u16 = 1;
/// Inventory-menu index of hotbar slot 0.
pub(super) const HOTBAR_MENU_START: u16 = 36;

/// Clicks the held item on a block face (placing a block, using a spawn egg), then swings the arm
/// as a vanilla client does.
pub(super) fn use_item_on(world: &mut Ecs, me: Entity, on: Pos, face: Direction, cursor: Vec3) {
    let seq = next_seq(world, me);
    let block_hit = BlockHit {
        block_pos: block_pos(on),
        direction: face,
        location: azalea_vec(cursor),
        inside: false,
        world_border: false,
    };
    send(world, me, ServerboundUseItemOn { hand: InteractionHand::MainHand, block_hit, seq });
    send(world, me, ServerboundSwing { hand: InteractionHand::MainHand });
}

pub(super) fn carry_out(world: &mut Ecs, me: Entity, state: &mut LiveState, cmd: Command) {
    match cmd {
        Command::Step { feet, .. } => step(world, me, feet),
        Command::Look { look, .. } => look_to(world, me, look),
        Command::Place { pos, block, against, .. } => {
            let (Some(item), Some(face)) = (blocks::item(block.name()), Face::between(against, pos)) else {
                tracing::warn!(%pos, block = block.name(), "cannot place: no item or no face");
                return;
            };
            hold(world, me, state, item);
            let cursor = placement::face_centre(against, face);
            look_to(world, me, Look::towards(eye(world, me), cursor));
            predict(world, me, state, pos, block);
            use_item_on(world, me, against, direction(face), cursor);
        }
        Command::Break { pos, .. } => {
            let face = placement::facing_face(pos, eye(world, me));
            look_to(world, me, Look::towards(eye(world, me), placement::face_centre(pos, face)));
            predict(world, me, state, pos, Block::AIR);
            let seq = next_seq(world, me);
            send(
                world,
                me,
                ServerboundPlayerAction {
                    action: Action::StartDestroyBlock,
                    pos: block_pos(pos),
                    direction: direction(face),
                    seq,
                },
            );
            send(world, me, ServerboundSwing { hand: InteractionHand::MainHand });
        }
        Command::Spawn { egg, on, .. } => {
            let Some(item) = blocks::item(&egg) else { return };
            hold(world, me, state, item);
            let cursor = placement::face_centre(on, Face::Up);
            look_to(world, me, Look::towards(eye(world, me), cursor));
            use_item_on(world, me, on, Direction::Up, cursor);
        }
        Command::Give { item, count, towards, .. } => give(world, me, state, &item, count, towards),
        Command::Chest { seq, pos, moves } => super::chests::start(world, me, state, seq, pos, moves),
        Command::Say(line) => {
            if state.says.len() >= MAX_WAITING_LINES {
                tracing::warn!("too much chat waiting; dropping a line");
                state.says.pop_front();
            }
            state.says.push_back(line);
        }
    }
}

/// Throw `count` of `item` towards `towards`, from hotbar slot 1, one item at a time.
fn give(world: &mut Ecs, me: Entity, state: &mut LiveState, item: &str, count: u32, towards: Vec3) {
    let Some(kind) = blocks::item(item) else { return };
    let count = count.clamp(1, 64);
    look_to(world, me, Look::towards(eye(world, me), towards));
    send(
        world,
        me,
        ServerboundSetCreativeModeSlot {
            slot_num: HOTBAR_MENU_START + GIVE_SLOT,
            item_stack: ItemStack::new(kind, count as i32),
        },
    );
    send(world, me, ServerboundSetCarriedItem { slot: GIVE_SLOT });
    // One at a time: each item its own entity, so a server that hands a player one item
    // per entity picked up still hands over all of them.
    for _ in 0..count {
        send(
            world,
            me,
            ServerboundPlayerAction {
                action: Action::DropItem,
                pos: BlockPos::new(0, 0, 0),
                direction: Direction::Down,
                seq: 0,
            },
        );
    }
    // Slot 1 stays selected for now: a server that handles the drops after the packets
    // that follow them (flying-squid) would drop from the build slot. The next block or
    // egg selects slot 0 again.
    state.selected = false;
    let at = feet(world, me);
    super::items::note_throw(world, item, count, at);
}

pub(super) fn send(world: &mut Ecs, me: Entity, packet: impl Packet<ServerboundGamePacket>) {
    world.trigger(SendGamePacketEvent::new(me, packet));
}

/// Put `item` in the build slot (creative) and select that slot, sending only what changed.
pub(super) fn hold(world: &mut Ecs, me: Entity, state: &mut LiveState, item: ItemKind) {
    if state.held != Some(item) {
        send(
            world,
            me,
            ServerboundSetCreativeModeSlot {
                slot_num: HOTBAR_MENU_START + BUILD_SLOT,
                item_stack: ItemStack::new(item, 1),
            },
        );
        state.held = Some(item);
    }
    if !state.selected {
        send(world, me, ServerboundSetCarriedItem { slot: BUILD_SLOT });
        state.selected = true;
    }
}

/// Show the change in the client's world at once, and remember it to check the server's answer.
pub(super) fn predict(world: &mut Ecs, me: Entity, state: &mut LiveState, pos: Pos, block: Block) {
    let Some(holder) = world.get::<WorldHolder>(me) else { return };
    let shared = holder.shared.read();
    let was = shared.get_block_state(block_pos(pos)).unwrap_or_default();
    if let Some(s) = blocks::state_of(block) {
        shared.set_block_state(block_pos(pos), s);
    }
    let tick = state.tick;
    // An older prediction for the same place keeps what was there before it, and waits for
    // its answer too.
    let (was, earlier) = match state.predictions.remove(&pos) {
        Some(mut older) => {
            older.earlier.push(older.wanted);
            (older.was, older.earlier)
        }
        None => (was, Vec::new()),
    };
    state.predictions.insert(pos, Prediction { wanted: block, earlier, was, tick });
}

/// The next block-change sequence number (the server acknowledges them).
pub(super) fn next_seq(world: &mut Ecs, me: Entity) -> u32 {
    world.get_mut::<BlockStatePredictionHandler>(me).map(|mut h| h.start_predicting()).unwrap_or(0)
}

pub(super) fn feet(world: &Ecs, me: Entity) -> Vec3 {
    world.get::<Position>(me).map(|p| Vec3::new(p.x, p.y, p.z)).unwrap_or_default()
}

pub(super) fn eye(world: &Ecs, me: Entity) -> Vec3 {
    rules::eye_of(feet(world, me))
}

/// Put the feet at `to` and tell the server now, so clicks that follow in this tick are judged
/// from there.
pub(super) fn step(world: &mut Ecs, me: Entity, to: Vec3) {
    let target = azalea_vec(to);
    let grounded = standing_on_something(world, me, to);
    if let Some(mut p) = world.get_mut::<Position>(me) {
        *p = Position::new(target);
    }
    if let Some(mut ph) = world.get_mut::<Physics>(me) {
        ph.velocity = azalea::Vec3::ZERO;
        ph.fall_distance = 0.0;
        ph.set_on_ground(grounded);
    }
    send(
        world,
        me,
        ServerboundMovePlayerPos { pos: target, flags: MoveFlags { on_ground: grounded, horizontal_collision: false } },
    );
    if let Some(mut last) = world.get_mut::<LastSentPosition>(me) {
        **last = target;
    }
}

pub(super) fn standing_on_something(world: &Ecs, me: Entity, feet: Vec3) -> bool {
    if feet.y.fract().abs() > 1e-6 {
        return false;
    }
    let below = Pos::new(feet.x.floor() as i32, feet.y as i32 - 1, feet.z.floor() as i32);
    world
        .get::<WorldHolder>(me)
        .and_then(|h| h.shared.read().get_block_state(block_pos(below)))
        .is_some_and(|s| !s.is_collision_shape_empty())
}

/// Turn to `look` and tell the server now (clicks that follow are made looking there).
pub(super) fn look_to(world: &mut Ecs, me: Entity, look: Look) {
    let direction = LookDirection::new(look.yaw, look.pitch);
    if let Some(mut d) = world.get_mut::<LookDirection>(me) {
        *d = direction;
    }
    let on_ground = world.get::<Physics>(me).is_some_and(|p| p.on_ground());
    send(
        world,
        me,
        ServerboundMovePlayerRot {
            look_direction: direction,
            flags: MoveFlags { on_ground, horizontal_collision: false },
        },
    );
    if let Some(mut last) = world.get_mut::<LastSentLookDirection>(me) {
        last.y_rot = direction.y_rot();
        last.x_rot = direction.x_rot();
    }
}
