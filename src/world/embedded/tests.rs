//! The embedded world's own behaviour: terrain, the change record, the rules as it applies them,
//! gravity, chat, mobs, items, storage and saving.

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
    assert_eq!(w.player("alice").unwrap().inventory.items().len(), 2);
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

#[test]
fn reach_and_footing_are_the_rules() {
    let mut w = EmbeddedWorld::flat();
    let red = b("red_wool");
    for p in [Pos::new(3, 11, 0), Pos::new(4, 9, 2), Pos::new(0, 1, 0), Pos::new(-5, 5, 0)] {
        let too_far = rules::reach_distance(w.agent_pos(), p) > rules::REACH;
        assert_eq!(matches!(w.place_block(p, red), Err(ActionError::OutOfReach(_))), too_far, "{p:?}");
    }
    assert!(w.supported(Pos::new(0, 5, 0)) && !w.supported(Pos::new(0, 7, 0)));
}

#[test]
fn a_long_session_keeps_chat_and_changes_bounded() {
    use crate::world::record::{KEEP_CHANGES, KEEP_CHAT};
    let mut w = EmbeddedWorld::flat();
    let mut cursor = 0;
    let stone = Block::from_name("stone").unwrap();
    for i in 0..(2 * KEEP_CHANGES + 10) as i32 {
        w.set_block_by(Pos::new(i % 1000, 10 + i / 1000 % 2, i / 2000), stone, Actor::World);
        if i % 5000 == 0 {
            let (new, next) = w.changes_since(cursor);
            assert_eq!(next - cursor, new.len(), "a reader that keeps up misses nothing");
            cursor = next;
        }
    }
    let (all, end) = w.changes_since(0);
    assert!(all.len() < 2 * KEEP_CHANGES, "{} changes kept", all.len());
    assert_eq!(end, 2 * KEEP_CHANGES + 10, "cursors count every change ever");
    for i in 0..2 * KEEP_CHAT + 3 {
        w.player_says("alice", &format!("line {i}"));
    }
    assert!(w.chat_log().len() < 2 * KEEP_CHAT);
    assert_eq!(w.chat_end(), 2 * KEEP_CHAT + 3);
    assert_eq!(w.chat_since(w.chat_end() - 1)[0].text, format!("line {}", 2 * KEEP_CHAT + 2));
    assert_eq!(w.take_chats().len(), w.chat_log().len(), "the agent hears the lines kept");
}
