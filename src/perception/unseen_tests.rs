//! A restarted bot on a server that has sent only the terrain around it: what it remembers out
//! there is not taken for gone (unknown is not air), and is checked once the terrain arrives. And
//! a server that comes back fresh mid-build: the build's object keeps its name and its blocks.

use crate::memory::fixture::*;
use crate::memory::{Memory, MemoryKind};
use crate::perception::Perception;
use crate::world::embedded::EmbeddedWorld;
use crate::world::fog::Fog;
use crate::world::*;

/// A bot that knew the fixture restarts (fresh perception, same memory) seeing only x ≤ `edge`;
/// the world has just been loaded, so its change record is empty.
fn restarted(fx: Fixture, edge: i32) -> (Fog, Memory, Perception) {
    let Fixture { world, memory, .. } = fx;
    let mut fog = Fog { world: reloaded(world), edge, follow: false };
    let mut memory = memory;
    let mut perception = Perception::new();
    fog.world.advance();
    perception.update(&fog, &mut memory).unwrap();
    (fog, memory, perception)
}

/// The same blocks in a new world value: a restart reads the world from disk, without the record.
fn reloaded(world: EmbeddedWorld) -> EmbeddedWorld {
    let mut fresh = EmbeddedWorld::flat();
    for (p, b) in world.blocks_in(BBox::new(Pos::new(-40, 0, -40), Pos::new(40, 30, 40))) {
        if b != fresh.block_at(p) {
            fresh.set_block_by(p, b, Actor::World);
        }
    }
    let (_, end) = fresh.changes_since(0);
    assert!(end > 0);
    fresh
}

#[test]
fn a_far_thing_the_world_cannot_show_yet_is_not_forgotten() {
    let mut fx = Fixture::new();
    let cube = fx.id_at(YELLOW_CUBE); // x 12..=14, y 5..=7
    fx.memory.name(cube, "sunny").unwrap();
    // While the bot was away, someone took the cube's top layer off.
    for x in 12..=14 {
        for z in -2..=0 {
            fx.world.set_block_by(Pos::new(x, 7, z), Block::AIR, Actor::World);
        }
    }
    let (mut fog, mut memory, mut perception) = restarted(fx, 8);
    assert_eq!(memory.objects_with_name("sunny").unwrap(), vec![cube], "unknown is not air");
    assert_eq!(memory.block_object(cube).unwrap().unwrap().blocks.len(), 27, "nothing is known of it yet");

    // The bot comes nearer and the terrain there arrives: now it sees what is left.
    fog.edge = 100;
    for _ in 0..=super::RECHECK_EVERY {
        fog.world.advance();
        perception.update(&fog, &mut memory).unwrap();
    }
    assert_eq!(memory.block_object(cube).unwrap().unwrap().blocks.len(), 18, "checked once seen");
    assert_eq!(memory.objects_with_name("sunny").unwrap(), vec![cube], "the same thing, still named");
    assert_eq!(memory.objects_of_kind(MemoryKind::BlockObject).unwrap().len(), 7);
}

#[test]
fn a_build_emptied_by_a_fresh_world_keeps_its_name_and_gets_its_blocks() {
    let mut fx = Fixture::new();
    let plan: Vec<(Pos, Block)> = (0..3).map(|x| (Pos::new(x, 5, 20), block("red_wool"))).collect();
    let made = crate::memory::Made { name: "wall".into(), colour: Some("red".into()), speaker: "alice".into(), ..Default::default() };
    let wall = fx.memory.reserve_build(&made, &plan).unwrap();
    fx.memory.name(wall, "redwood").unwrap();
    for (p, b) in &plan[..2] {
        fx.world.set_block_by(*p, *b, Actor::Agent);
    }
    fx.perceive();
    assert_eq!(fx.memory.block_object(wall).unwrap().unwrap().blocks.len(), 2);

    // The server restarts with a fresh world: the record starts over and the two blocks are gone.
    let mut fresh = EmbeddedWorld::flat();
    fresh.advance();
    let report = fx.perception.update(&fresh, &mut fx.memory).unwrap();
    assert!(report.scanned && !report.destroyed.contains(&wall), "a running build's object stays");
    assert_eq!(fx.memory.objects_with_name("redwood").unwrap(), vec![wall]);

    // The build goes on in the new world: every block joins the same object, nothing fails.
    for (p, b) in &plan {
        fresh.set_block_by(*p, *b, Actor::Agent);
        fresh.advance();
        fx.perception.update(&fresh, &mut fx.memory).expect("no constraint fails");
    }
    assert_eq!(fx.memory.block_object(wall).unwrap().unwrap().blocks.len(), 3);
    assert_eq!(fx.memory.objects_with_name("redwood").unwrap(), vec![wall], "the name is kept");

    // Once the build is over, an object that was emptied again is gone.
    for (p, _) in &plan {
        fresh.set_block_by(*p, Block::AIR, Actor::World);
    }
    fresh.advance();
    fx.memory.finish_plan(wall).unwrap();
    fx.perception.update(&fresh, &mut fx.memory).unwrap();
    assert!(fx.memory.objects_with_name("redwood").unwrap().is_empty());
}
