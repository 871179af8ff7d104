//! Perception on the fixture world: identity through growth, splits, merges and destruction;
//! holes; entities; incremental updates; a change record that goes backwards.

use crate::memory::fixture::*;
use crate::memory::{Memory, MemoryKind};
use crate::perception::{Perception, PerceptionConfig};
use crate::world::embedded::EmbeddedWorld;
use crate::world::{Actor, BBox, Block, Look, Pos, Vec3, World};

fn alice() -> Actor {
    Actor::Player("alice".into())
}

fn shapes(fx: &Fixture, id: i64) -> Vec<String> {
    fx.memory.values_of(id, "has_shape").unwrap()
}

#[test]
fn the_fixture_is_perceived() {
    let fx = Fixture::new();
    let objects = fx.memory.objects_of_kind(MemoryKind::BlockObject).unwrap();
    assert_eq!(objects.len(), 7, "3 towers, 2 cubes, a house, a wall");
    assert!(shapes(&fx, fx.id_at(YELLOW_CUBE)).contains(&"cube".to_string()));
    assert!(shapes(&fx, fx.id_at(HOUSE)).contains(&"house".to_string()));
    assert!(shapes(&fx, fx.id_at(WALL)).contains(&"wall".to_string()));
    assert_eq!(fx.memory.values_of(fx.id_at(YELLOW_CUBE), "has_colour").unwrap(), vec!["yellow"]);
    assert_eq!(fx.memory.objects_of_kind(MemoryKind::Hole).unwrap().len(), 1);
    assert_eq!(fx.memory.objects_of_kind(MemoryKind::Mob).unwrap().len(), 4);
    assert_eq!(fx.memory.objects_of_kind(MemoryKind::Player).unwrap().len(), 2);
    assert_eq!(fx.memory.objects_of_kind(MemoryKind::SelfAgent).unwrap().len(), 1);
}

#[test]
fn a_growing_tower_keeps_its_id_and_name() {
    let mut fx = Fixture::new();
    let tower = fx.id_at(BLUE_TOWER);
    fx.memory.name(tower, "bluey").unwrap();
    for y in 10..=14 {
        fx.world.set_block_by(Pos::new(5, y, -6), block("blue_wool"), alice());
        let report = fx.perceive();
        assert!(!report.scanned, "later updates read the change record only");
        assert_eq!(report.changed, vec![tower]);
    }
    assert_eq!(fx.id_at(Pos::new(5, 14, -6)), tower);
    assert_eq!(fx.memory.values_of(tower, "has_name").unwrap(), vec!["bluey"]);
    assert_eq!(fx.memory.values_of(tower, "has_height").unwrap(), vec!["10"]);
    assert_eq!(fx.memory.values_of(tower, "has_size").unwrap(), vec!["big"]);
    assert_eq!(fx.memory.block_object(tower).unwrap().unwrap().blocks.len(), 10);
}

#[test]
fn a_split_keeps_the_id_on_the_largest_part() {
    let mut fx = Fixture::new();
    let wall = fx.id_at(WALL); // x 0..=6
    fx.memory.name(wall, "great wall").unwrap();
    // Cut out the column at x = 2: parts of 2 and 4 columns.
    for y in 5..=7 {
        fx.world.set_block_by(Pos::new(2, y, -15), Block::AIR, alice());
    }
    let report = fx.perceive();
    assert_eq!(report.created.len(), 1);
    let small = report.created[0];
    assert_eq!(fx.id_at(Pos::new(6, 5, -15)), wall);
    assert_eq!(fx.id_at(Pos::new(0, 5, -15)), small);
    assert_eq!(fx.memory.values_of(wall, "has_name").unwrap(), vec!["great wall"]);
    assert!(fx.memory.values_of(small, "has_name").unwrap().is_empty());
    assert_eq!(fx.memory.object(wall).unwrap().unwrap().voxels, 12);
    assert_eq!(fx.memory.object(small).unwrap().unwrap().voxels, 6);
}

#[test]
fn a_merge_keeps_the_older_id_and_both_names() {
    let mut fx = Fixture::new();
    let older = fx.id_at(RED_TOWER); // (5, 5..=10, 5)
    fx.world.fill_by(BBox::new(Pos::new(9, 5, 5), Pos::new(9, 8, 5)), block("red_wool"), alice());
    fx.perceive();
    let newer = fx.id_at(Pos::new(9, 5, 5));
    assert!(newer > older);
    fx.memory.name(older, "left tower").unwrap();
    fx.memory.tag(newer, "right tower").unwrap();
    fx.memory.attend(newer, 99).unwrap();
    fx.world.fill_by(BBox::new(Pos::new(6, 8, 5), Pos::new(8, 8, 5)), block("red_wool"), alice());
    let report = fx.perceive();
    assert_eq!(report.merged, vec![(newer, older)]);
    assert_eq!(fx.id_at(Pos::new(9, 5, 5)), older);
    assert_eq!(fx.memory.kind_of(newer).unwrap(), None);
    assert_eq!(fx.memory.values_of(older, "has_name").unwrap(), vec!["left tower"]);
    assert_eq!(fx.memory.values_of(older, "has_tag").unwrap(), vec!["right tower"]);
    assert_eq!(fx.memory.info(older).unwrap().unwrap().attended_tick, Some(99), "\"that\" follows the merge");
}

#[test]
fn an_object_destroyed_completely_is_forgotten() {
    let mut fx = Fixture::new();
    let cube = fx.id_at(GREEN_CUBE);
    fx.memory.name(cube, "greeny").unwrap();
    // Break it one block per tick, as the agent would.
    for p in BBox::new(Pos::new(-12, 5, -12), Pos::new(-11, 6, -11)).iter() {
        fx.world.set_block_by(p, Block::AIR, Actor::Agent);
        fx.perceive();
    }
    assert_eq!(fx.memory.kind_of(cube).unwrap(), None);
    assert!(fx.memory.objects_with_name("greeny").unwrap().is_empty());
    assert_eq!(fx.memory.object_at(GREEN_CUBE).unwrap(), None);
}

#[test]
fn repainting_updates_colours_but_not_identity() {
    let mut fx = Fixture::new();
    let cube = fx.id_at(YELLOW_CUBE);
    fx.world.fill_by(BBox::new(Pos::new(12, 5, -2), Pos::new(14, 7, 0)), block("purple_concrete"), alice());
    let report = fx.perceive();
    assert_eq!(report.changed, vec![cube]);
    assert_eq!(fx.memory.values_of(cube, "has_colour").unwrap(), vec!["purple"]);
    assert_eq!(fx.memory.values_of(cube, "has_block_type").unwrap(), vec!["purple_concrete"]);
}

#[test]
fn natural_blocks_count_when_a_player_places_them() {
    let mut fx = Fixture::new();
    fx.world.fill_by(BBox::new(Pos::new(-15, 5, -5), Pos::new(-15, 8, -5)), block("dirt"), alice());
    fx.perceive();
    let pillar = fx.id_at(Pos::new(-15, 5, -5));
    assert!(shapes(&fx, pillar).contains(&"tower".to_string()));
    assert_eq!(fx.memory.values_of(pillar, "has_colour").unwrap(), vec!["brown"]);
}

#[test]
fn holes_appear_grow_and_are_filled() {
    let mut fx = Fixture::new();
    let hole = fx.id_at(HOLE);
    assert_eq!(fx.memory.object(hole).unwrap().unwrap().voxels, 8);
    assert!(fx.memory.values_of(hole, "has_block_type").unwrap().contains(&"dirt".to_string()));
    // Digging next to it makes it bigger.
    fx.world.set_block_by(Pos::new(10, 4, -8), Block::AIR, Actor::Agent);
    fx.perceive();
    assert_eq!(fx.id_at(Pos::new(10, 4, -8)), hole);
    assert_eq!(fx.memory.object(hole).unwrap().unwrap().voxels, 9);
    // Filling it in removes it.
    for p in BBox::new(Pos::new(8, 3, -8), Pos::new(10, 4, -7)).iter() {
        fx.world.set_block_by(p, block("dirt"), Actor::Agent);
    }
    let report = fx.perceive();
    assert_eq!(report.destroyed, vec![hole]);
    assert_eq!(fx.memory.kind_of(hole).unwrap(), None);
    // Dirt the agent placed counts as built (only the world's own terrain is natural).
    assert!(fx.memory.object_at(Pos::new(8, 3, -8)).unwrap().is_some());
}

#[test]
fn mobs_and_players_move_and_mobs_leave() {
    let mut fx = Fixture::new();
    let alice = fx.memory.player_id("alice").unwrap().unwrap();
    fx.world.add_player("alice", Vec3::new(7.5, 5.0, 7.5), Look::new(180.0, 10.0));
    let report = fx.perceive();
    assert_eq!(report.entities_written, 1, "only alice moved");
    let o = fx.memory.object(alice).unwrap().unwrap();
    assert_eq!(o.pos, Vec3::new(7.5, 5.0, 7.5));
    assert_eq!(o.look, Some(Look::new(180.0, 10.0)));
    let report = fx.perceive();
    assert_eq!(report.entities_written, 0, "nothing moved");
    // A mob falls (spawned in the air) and is followed; a player who joins is added.
    fx.world.spawn_mob("sheep", Vec3::new(2.5, 8.0, 2.5)).unwrap();
    fx.world.add_player("carol", Vec3::new(1.5, 5.0, 1.5), Look::default());
    fx.perceive();
    let sheep = fx.memory.objects_with_name("sheep").unwrap();
    assert_eq!(sheep.len(), 1);
    let y0 = fx.memory.object(sheep[0]).unwrap().unwrap().pos.y;
    fx.perceive();
    assert!(fx.memory.object(sheep[0]).unwrap().unwrap().pos.y < y0);
    assert!(fx.memory.player_id("carol").unwrap().is_some());
    // The agent's own position follows it.
    fx.world.set_agent_pos(Pos::new(1, 5, 1));
    fx.perceive();
    let me = fx.memory.self_id().unwrap().unwrap();
    assert_eq!(fx.memory.object(me).unwrap().unwrap().pos, Pos::new(1, 5, 1).feet());
    // Mobs that are gone from the world are forgotten.
    let mut world = EmbeddedWorld::flat();
    world.add_player("alice", Vec3::new(0.5, 5.0, 0.5), Look::default());
    fx.perception.update(&world, &mut fx.memory).unwrap();
    assert!(fx.memory.objects_of_kind(MemoryKind::Mob).unwrap().is_empty());
}

#[test]
fn a_cursor_going_backwards_rescans() {
    let mut fx = Fixture::new();
    let tower = fx.id_at(RED_TOWER);
    // Reconnect to a world whose record starts over: only the red tower and a new cube exist.
    let mut fresh = EmbeddedWorld::flat();
    fresh.fill_by(BBox::new(Pos::new(5, 5, 5), Pos::new(5, 10, 5)), block("red_wool"), Actor::World);
    fresh.fill_by(BBox::new(Pos::new(-3, 5, -3), Pos::new(-2, 6, -2)), block("lime_wool"), Actor::World);
    let report = fx.perception.update(&fresh, &mut fx.memory).unwrap();
    assert!(report.scanned);
    assert_eq!(fx.memory.object_at(RED_TOWER).unwrap(), Some(tower), "what is still there keeps its id");
    assert_eq!(fx.memory.object_at(YELLOW_CUBE).unwrap(), None, "what is gone is forgotten");
    assert_eq!(fx.memory.object_at(HOLE).unwrap(), None, "the hole is not there any more");
    assert!(fx.memory.object_at(Pos::new(-3, 5, -3)).unwrap().is_some());
}

#[test]
fn a_thousand_changes_in_one_update() {
    let mut world = EmbeddedWorld::flat();
    let mut memory = Memory::in_memory().unwrap();
    let mut p = Perception::with_config(PerceptionConfig { scan_radius: 8, scan_below: 2, scan_above: 8 });
    p.update(&world, &mut memory).unwrap();
    // Ten 10×10 floors stacked with gaps: ten objects, then joined by a pillar into one.
    for layer in 0..10 {
        let y = 5 + 2 * layer;
        world.fill_by(BBox::new(Pos::new(0, y, 0), Pos::new(9, y, 9)), block("stone_bricks"), alice());
    }
    world.advance();
    let report = p.update(&world, &mut memory).unwrap();
    assert_eq!((report.block_changes, report.created.len()), (1000, 10));
    for y in 6..=23 {
        world.set_block_by(Pos::new(20, y, 20), block("stone_bricks"), alice());
    }
    for layer in 0..9 {
        world.set_block_by(Pos::new(10, 6 + 2 * layer, 10), block("stone_bricks"), alice());
    }
    world.advance();
    let report = p.update(&world, &mut memory).unwrap();
    assert_eq!(report.merged.len(), 9);
    assert_eq!(memory.objects_of_kind(MemoryKind::BlockObject).unwrap().len(), 2, "the stack and the lone pillar");
}

#[test]
fn what_the_agent_builds_or_digs_becomes_the_last_attended_thing() {
    let mut fx = Fixture::new();
    let kinds = [MemoryKind::BlockObject, MemoryKind::Hole];
    // A player building something does not make it "it".
    fx.world.set_block_by(Pos::new(20, 5, 0), block("red_wool"), alice());
    fx.perceive();
    assert_eq!(fx.memory.last_attended(&kinds).unwrap(), None);
    // The agent building does: "build a cube", then "destroy it".
    for p in BBox::new(Pos::new(-20, 5, 0), Pos::new(-19, 6, 1)).iter() {
        fx.world.set_block_by(p, block("lime_wool"), Actor::Agent);
    }
    fx.perceive();
    let cube = fx.id_at(Pos::new(-20, 5, 0));
    assert_eq!(fx.memory.last_attended(&kinds).unwrap(), Some(cube));
    // What players talk about afterwards wins, even while the agent keeps adding to its build.
    let tower = fx.id_at(RED_TOWER);
    fx.memory.attend(tower, fx.world.tick() + 1).unwrap();
    fx.world.advance();
    fx.world.set_block_by(Pos::new(-20, 7, 0), block("lime_wool"), Actor::Agent);
    fx.perceive();
    assert_eq!(fx.id_at(Pos::new(-20, 7, 0)), cube, "the cube grew");
    assert_eq!(fx.memory.last_attended(&kinds).unwrap(), Some(tower));
    // Then digging: "dig a hole", then "fill it".
    fx.world.set_block_by(Pos::new(-20, 4, 8), Block::AIR, Actor::Agent);
    fx.perceive();
    let hole = fx.id_at(Pos::new(-20, 4, 8));
    assert_ne!(hole, cube);
    assert_eq!(fx.memory.last_attended(&kinds).unwrap(), Some(hole));
}

#[test]
fn a_scaffold_the_agent_takes_away_is_not_a_hole() {
    let mut fx = Fixture::new();
    let kinds = [MemoryKind::BlockObject, MemoryKind::Hole];
    let holes = |fx: &Fixture| fx.memory.objects_of_kind(MemoryKind::Hole).unwrap().len();
    assert_eq!(holes(&fx), 1, "alice's hole");
    // The agent builds a cube, standing on a dirt pillar beside it (its scaffold)...
    for p in BBox::new(Pos::new(-20, 5, 0), Pos::new(-18, 7, 2)).iter() {
        fx.world.set_block_by(p, block("lime_wool"), Actor::Agent);
    }
    let pillar = BBox::new(Pos::new(-22, 5, 0), Pos::new(-22, 7, 0));
    for p in pillar.iter() {
        fx.world.set_block_by(p, block("dirt"), Actor::Agent);
    }
    fx.perceive();
    let cube = fx.id_at(Pos::new(-20, 5, 0));
    // ...then takes the scaffold down, a later update...
    for p in pillar.iter() {
        fx.world.set_block_by(p, Block::AIR, Actor::Agent);
    }
    fx.perceive();
    // ...and a block placed and taken away again within one update.
    let step = Pos::new(-22, 5, 2);
    fx.world.set_block_by(step, block("dirt"), Actor::Agent);
    fx.world.set_block_by(step, Block::AIR, Actor::Agent);
    fx.perceive();
    assert_eq!(holes(&fx), 1, "no hole in mid-air where the scaffold stood");
    assert_eq!(fx.memory.object_at(Pos::new(-22, 6, 0)).unwrap(), None);
    assert_eq!(fx.memory.last_attended(&kinds).unwrap(), Some(cube), "\"that\" is still the cube");

    // A restarted bot reading the same change record agrees.
    let mut memory = Memory::in_memory().unwrap();
    Perception::new().update(&fx.world, &mut memory).unwrap();
    assert_eq!(memory.objects_of_kind(MemoryKind::Hole).unwrap().len(), 1);
    assert_eq!(memory.object_at(Pos::new(-22, 6, 0)).unwrap(), None);

    // Digging into the ground under it is still digging.
    fx.world.set_block_by(Pos::new(-22, 4, 0), Block::AIR, Actor::Agent);
    fx.perceive();
    let hole = fx.id_at(Pos::new(-22, 4, 0));
    assert_eq!(holes(&fx), 2);
    assert_eq!(fx.memory.last_attended(&kinds).unwrap(), Some(hole));
}

#[test]
fn an_agent_at_the_edge_of_the_coordinates_perceives_in_time() {
    // The scan box around an agent at x = 2³¹−1 once wrapped to a world-wide box and never
    // finished; it must be the ordinary box, cut at the edge.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let edge = Pos::new(i32::MAX, 5, i32::MIN);
        let mut world = EmbeddedWorld::new(crate::world::embedded::Preset::Flat, "craftmate", edge);
        world.add_player("alice", Vec3::new(i32::MAX as f64 - 3.5, 5.0, i32::MIN as f64 + 2.5), Look::default());
        for y in 5..=8 {
            world.set_block_by(Pos::new(i32::MAX, y, i32::MIN), Block::from_name("red_wool").unwrap(), alice());
            world.set_block_by(Pos::new(i32::MAX - 1, y, i32::MIN), Block::from_name("red_wool").unwrap(), alice());
        }
        let mut memory = Memory::in_memory().unwrap();
        let mut perception = Perception::new();
        let first = perception.update(&world, &mut memory).unwrap();
        world.set_block_by(Pos::new(i32::MAX, 9, i32::MIN), Block::from_name("red_wool").unwrap(), alice());
        perception.update(&world, &mut memory).unwrap();
        let objects = memory.objects_of_kind(MemoryKind::BlockObject).unwrap();
        tx.send((first.scanned, objects.len())).unwrap();
    });
    let (scanned, objects) = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("perception finishes at the edge");
    assert!(scanned, "the first update looks around");
    assert_eq!(objects, 1, "the red tower at the edge is one object");
}

#[test]
fn wild_trees_are_terrain_but_a_log_someone_places_is_built() {
    // A natural world's trees are the world's, not things anybody built: none is remembered.
    let preset = crate::world::embedded::Preset::Natural { seed: 5 };
    let at = preset.dry_spot_near(0, 0);
    let mut world = EmbeddedWorld::new(preset, "craftmate", at);
    world.add_player("alice", Vec3::new(at.x as f64 + 3.5, at.y as f64, at.z as f64 + 0.5), Look::default());
    let logs = world.blocks_in(crate::world::BBox::new(Pos::new(at.x - 24, at.y - 10, at.z - 24), Pos::new(at.x + 24, at.y + 20, at.z + 24)));
    assert!(logs.iter().any(|(_, b)| b.name().ends_with("_log")), "a tree within sight of the start");
    let mut memory = Memory::in_memory().unwrap();
    let mut perception = Perception::new();
    perception.update(&world, &mut memory).unwrap();
    assert_eq!(memory.objects_of_kind(MemoryKind::BlockObject).unwrap().len(), 0, "no tree is a built thing");
    // A log a player puts down is.
    let up = Pos::new(at.x + 2, at.y + 3, at.z);
    for y in 0..3 {
        world.set_block_by(Pos::new(up.x, up.y + y, up.z), Block::from_name("oak_log").unwrap(), alice());
    }
    perception.update(&world, &mut memory).unwrap();
    assert_eq!(memory.objects_of_kind(MemoryKind::BlockObject).unwrap().len(), 1, "the player's log pillar");
}
