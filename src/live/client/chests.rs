//! Chests on a server, used as a player uses them: click the chest, wait for its window, move
//! items with clicks, close it, and report what it holds.
//!
//! A chest job spans several game ticks (the window comes back from the server), so it is state
//! of its own in [`LiveState`]; while it runs, the agent's later commands wait behind it.
//! - **Putting** (creative): the items go into hotbar slot 1 with the creative-slot packet and
//!   are shift-clicked into the chest, a stack at a time.
//! - **Taking**: a chest stack is picked up; all of it is put into an empty slot of the bot's
//!   own inventory, or, for fewer, one at a time with right clicks and the rest put back.
//!
//! Every click goes through azalea's own click handling, which works it out on the client's copy
//! of the window and tells the server which slots changed, as vanilla clients do; what the chest
//! holds afterwards is read from that copy.

use super::actions::{GIVE_SLOT, HOTBAR_MENU_START, eye, look_to, send, use_item_on};
use super::plugin::LiveState;
use crate::live::blocks;
use crate::live::bridge::{ChestMove, ClientEvent, Seq};
use crate::live::placement;
use crate::world::{Look, Pos};

use azalea::ecs::prelude::Entity;
use azalea::ecs::world::World as Ecs;
use azalea::entity::inventory::Inventory;
use azalea::inventory::{CloseContainerEvent, ContainerClickEvent};
use azalea::protocol::packets::game::ServerboundSetCreativeModeSlot;
use azalea_inventory::ItemStack;
use azalea_inventory::operations::{ClickOperation, PickupClick, QuickMoveClick};
use std::sync::mpsc::Sender;

/// A window that has not opened this many ticks after the click never will.
const OPEN_TICKS: u64 = 40;
/// A chest's window: its 27 slots, then the bot's 27 main-inventory slots, then the hotbar.
const CHEST_SLOTS: u16 = 27;
const MENU_HOTBAR_START: u16 = CHEST_SLOTS + 27;
const MENU_SLOTS: u16 = MENU_HOTBAR_START + 9;

/// A chest being used.
#[derive(Debug)]
pub(super) struct ChestJob {
    pos: Pos,
    moves: Vec<ChestMove>,
    clicked_at: u64,
    /// The tick its window was first seen open (its contents arrive with it).
    opened_at: Option<u64>,
}

impl ChestJob {
    pub(super) fn pos(&self) -> Pos {
        self.pos
    }
}

/// Click the chest at `pos` to open it; the job goes on in [`advance`].
pub(super) fn start(world: &mut Ecs, me: Entity, state: &mut LiveState, seq: Seq, pos: Pos, moves: Vec<ChestMove>) {
    let face = placement::facing_face(pos, eye(world, me));
    let cursor = placement::face_centre(pos, face);
    look_to(world, me, Look::towards(eye(world, me), cursor));
    use_item_on(world, me, pos, super::convert::direction(face), cursor);
    tracing::debug!(seq, %pos, ?moves, "opening a chest");
    state.chest = Some(ChestJob { pos, moves, clicked_at: state.tick, opened_at: None });
}

/// One tick of the chest job: wait for the window, then make the moves, report and close.
/// Returns whether a job is still running (later commands wait).
pub(super) fn advance(world: &mut Ecs, me: Entity, state: &mut LiveState, events: &Sender<ClientEvent>) -> bool {
    let Some(job) = state.chest.as_mut() else { return false };
    let open = world.get::<Inventory>(me).is_some_and(|inv| inv.id != 0 && inv.container_menu.is_some());
    match job.opened_at {
        None if open => {
            job.opened_at = Some(state.tick);
            return true;
        }
        None if state.tick.saturating_sub(job.clicked_at) < OPEN_TICKS => return true,
        None => {
            tracing::warn!(pos = %job.pos, "the chest's window never opened");
            let _ = events.send(ClientEvent::ChestSeen { pos: job.pos, items: None });
            state.chest = None;
            return false;
        }
        Some(_) => {}
    }
    let Some(job) = state.chest.take() else { return false };
    let id = world.get::<Inventory>(me).map_or(0, |inv| inv.id);
    for m in &job.moves {
        match m {
            ChestMove::Put { item, count } => put(world, me, id, item, *count),
            ChestMove::Take { item, count } => take(world, me, id, item, *count),
        }
    }
    let items = world.get::<Inventory>(me).and_then(|inv| inv.container_menu.as_ref().map(|m| holds(&m.slots())));
    let _ = events.send(ClientEvent::ChestSeen { pos: job.pos, items });
    world.trigger(CloseContainerEvent { entity: me, id });
    false
}

/// What the chest part of a window holds, by item, in slot order.
fn holds(slots: &[ItemStack]) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for s in slots.iter().take(CHEST_SLOTS as usize).filter(|s| !s.is_empty()) {
        let id = blocks::id(s.kind().to_str()).to_string();
        let n = s.count().max(0) as u32;
        match out.iter_mut().find(|(i, _)| *i == id) {
            Some((_, have)) => *have += n,
            None => out.push((id, n)),
        }
    }
    out
}

fn click(world: &mut Ecs, me: Entity, window_id: i32, operation: ClickOperation) {
    world.trigger(ContainerClickEvent { entity: me, window_id, operation });
}

fn slot(world: &Ecs, me: Entity, i: u16) -> ItemStack {
    world
        .get::<Inventory>(me)
        .and_then(|inv| inv.container_menu.as_ref().and_then(|m| m.slot(i as usize).cloned()))
        .unwrap_or_default()
}

/// Creative supply into hotbar slot 1, then shift-clicked into the chest, a stack at a time.
fn put(world: &mut Ecs, me: Entity, window_id: i32, item: &str, count: u32) {
    let Some(kind) = blocks::item(item) else { return };
    let from = MENU_HOTBAR_START + GIVE_SLOT;
    let mut left = count;
    while left > 0 {
        let n = left.min(64);
        let stack = ItemStack::new(kind, n as i32);
        send(world, me, ServerboundSetCreativeModeSlot { slot_num: HOTBAR_MENU_START + GIVE_SLOT, item_stack: stack.clone() });
        // The server puts it in the window's slot too; the client's copy must show it before the
        // click is worked out on it.
        if let Some(mut inv) = world.get_mut::<Inventory>(me)
            && let Some(s) = inv.container_menu.as_mut().and_then(|m| m.slot_mut(from as usize))
        {
            *s = stack;
        }
        click(world, me, window_id, ClickOperation::QuickMove(QuickMoveClick::Left { slot: from }));
        if !slot(world, me, from).is_empty() {
            tracing::warn!(item, "the chest is full");
            return;
        }
        left -= n;
    }
}

/// Chest stacks of `item` into the bot's own slots until `count` are taken (or none are left).
fn take(world: &mut Ecs, me: Entity, window_id: i32, item: &str, count: u32) {
    let mut left = count;
    for i in 0..CHEST_SLOTS {
        if left == 0 {
            return;
        }
        let s = slot(world, me, i);
        if s.is_empty() || blocks::id(s.kind().to_str()) != item {
            continue;
        }
        let Some(empty) = (CHEST_SLOTS..MENU_SLOTS).find(|j| slot(world, me, *j).is_empty()) else {
            tracing::warn!(item, "the bot's inventory is full");
            return;
        };
        let n = s.count().max(0) as u32;
        click(world, me, window_id, ClickOperation::Pickup(PickupClick::Left { slot: Some(i) }));
        if n <= left {
            click(world, me, window_id, ClickOperation::Pickup(PickupClick::Left { slot: Some(empty) }));
            left -= n;
        } else {
            for _ in 0..left {
                click(world, me, window_id, ClickOperation::Pickup(PickupClick::Right { slot: Some(empty) }));
            }
            click(world, me, window_id, ClickOperation::Pickup(PickupClick::Left { slot: Some(i) }));
            left = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use azalea::registry::builtin::ItemKind;

    #[test]
    fn a_window_s_chest_part_is_summed_by_item() {
        let mut slots = vec![ItemStack::Empty; MENU_SLOTS as usize];
        slots[0] = ItemStack::new(ItemKind::Cobblestone, 64);
        slots[5] = ItemStack::new(ItemKind::Cobblestone, 3);
        slots[6] = ItemStack::new(ItemKind::Bread, 2);
        // The bot's own slots are not the chest's.
        slots[30] = ItemStack::new(ItemKind::Apple, 9);
        assert_eq!(holds(&slots), vec![("cobblestone".to_string(), 67), ("bread".to_string(), 2)]);
    }
}
