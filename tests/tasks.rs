//! Integration tests of the task system on the embedded flat world (bedrock y=0, dirt 1..=3,
//! grass 4, agent at (0, 5, 0)), driven the way the agent drives it: each tick the world
//! advances, then the stack steps once.

use craftmate::tasks::*;
use craftmate::world::embedded::EmbeddedWorld;
use craftmate::world::{Actor, BBox, Block, Look, Pos, Vec3, World};

fn b(name: &str) -> Block {
    Block::from_name(name).unwrap()
}

fn limits() -> Limits {
    Limits::default()
}

/// Tick until the stack is idle; returns the ticks used (panics past the budget).
fn run(w: &mut EmbeddedWorld, s: &mut TaskStack, budget: u64) -> u64 {
    for t in 1..=budget {
        w.advance();
        s.tick(w);
        if s.is_idle() {
            return t;
        }
    }
    panic!("not idle after {budget} ticks: doing {:?} / {:?}", s.current(), s.current_step());
}

fn last_outcome(s: &TaskStack) -> (TaskState, String) {
    let r = s.history().last().expect("a finished task");
    (r.state, r.outcome.clone().unwrap_or_default())
}

fn push(s: &mut TaskStack, t: impl Task + 'static) -> TaskId {
    s.push(Box::new(t), TaskMeta::from_speaker("alice"))
}

/// The flat world with exactly these blocks set: what a finished build must look like.
fn expected_with(blocks: &[(Pos, Block)]) -> EmbeddedWorld {
    let mut e = EmbeddedWorld::flat();
    for &(p, bl) in blocks {
        e.set_block_by(p, bl, Actor::World);
    }
    e
}

fn assert_same(w: &EmbeddedWorld, e: &EmbeddedWorld) {
    if let Some((p, want, got)) = w.same_blocks(e) {
        panic!("world differs at {p}: expected {want}, found {got}");
    }
}

fn cube(min: Pos, size: i32, block: Block) -> Vec<(Pos, Block)> {
    BBox::new(min, min + Pos::new(size - 1, size - 1, size - 1)).iter().map(|p| (p, block)).collect()
}

// ---------------------------------------------------------------- moving

#[test]
fn move_around_a_wall_and_up_a_step() {
    let mut w = EmbeddedWorld::flat();
    w.fill_by(BBox::new(Pos::new(3, 5, -6), Pos::new(3, 7, 6)), b("stone"), Actor::World);
    w.set_block_by(Pos::new(7, 5, 0), b("stone"), Actor::World);
    let mut s = TaskStack::default();
    push(&mut s, Move::to(Pos::new(7, 6, 0)));
    let ticks = run(&mut w, &mut s, 200);
    assert_eq!(w.agent_pos(), Pos::new(7, 6, 0));
    assert_eq!(last_outcome(&s).0, TaskState::Done);
    assert!(ticks > 12, "walked around, not through: {ticks}");
}

#[test]
fn impossible_goal_fails_fast_with_a_reason() {
    let mut w = EmbeddedWorld::flat();
    let goal = Pos::new(15, 5, 0);
    w.fill_by(BBox::around(goal.up(1), 2), b("stone"), Actor::World);
    w.fill_by(BBox::new(goal, goal.up(1)), Block::AIR, Actor::World);
    let mut s = TaskStack::default();
    push(&mut s, Move::to(goal));
    let t = std::time::Instant::now();
    let ticks = run(&mut w, &mut s, 5);
    assert!(ticks <= 2 && t.elapsed().as_secs() < 5);
    let (state, msg) = last_outcome(&s);
    assert_eq!(state, TaskState::Failed);
    assert_eq!(msg, "I can't find a way to (15, 5, 0): the path is walled off");
    assert_eq!(w.agent_pos(), Pos::new(0, 5, 0));
}

#[test]
fn come_here_and_follow() {
    let mut w = EmbeddedWorld::flat();
    w.add_player("alice", Vec3::new(10.5, 5.0, 4.5), Look::default());
    let mut s = TaskStack::default();
    push(&mut s, Move::come_here(Pos::new(10, 5, 4)));
    run(&mut w, &mut s, 100);
    assert!(w.agent_pos().chebyshev(Pos::new(10, 5, 4)) <= 2);
    assert_eq!(last_outcome(&s).1, "Here I am.");

    push(&mut s, Follow::player("alice"));
    for i in 0..300 {
        if i % 30 == 0 {
            let x = 10.5 + (i / 30) as f64 * 2.0;
            w.player_mut("alice").unwrap().pos = Vec3::new(x, 5.0, 4.5);
        }
        w.advance();
        s.tick(&mut w);
    }
    assert!(!s.is_idle(), "follow never ends by itself");
    assert!(w.agent_pos().chebyshev(Pos::new(28, 5, 4)) <= 2, "{}", w.agent_pos());
    s.stop();
    assert!(s.is_idle());
}

// ---------------------------------------------------------------- building

#[test]
fn build_a_3x3x3_cube() {
    let mut w = EmbeddedWorld::flat();
    let blocks = cube(Pos::new(3, 5, 2), 3, b("red_wool"));
    let mut s = TaskStack::default();
    let id = push(&mut s, Build::new(blocks.clone(), "a red cube", &limits()).unwrap());
    assert_eq!(s.current().unwrap(), "building a red cube at (3, 5, 2)");
    run(&mut w, &mut s, 400);
    assert_eq!(last_outcome(&s), (TaskState::Done, "I finished building a red cube.".into()));
    assert_same(&w, &expected_with(&blocks));
    let rec = s.record(id).unwrap();
    assert_eq!(rec.changes.len(), 27);
    let ev: Vec<_> = s.drain_events().into_iter().map(|e| e.event).collect();
    assert_eq!(ev.first(), Some(&TaskEventKind::Started));
    assert!(matches!(ev.last(), Some(TaskEventKind::Finished(_))));
}

#[test]
fn build_a_hollow_box() {
    let mut w = EmbeddedWorld::flat();
    let bb = BBox::new(Pos::new(4, 5, -2), Pos::new(8, 9, 2));
    let blocks: Vec<_> = bb
        .iter()
        .filter(|p| [p.x == 4, p.x == 8, p.y == 5, p.y == 9, p.z == -2, p.z == 2].iter().any(|x| *x))
        .map(|p| (p, b("oak_planks")))
        .collect();
    let mut s = TaskStack::default();
    push(&mut s, Build::new(blocks.clone(), "a box", &limits()).unwrap());
    run(&mut w, &mut s, 2000);
    assert_eq!(last_outcome(&s).0, TaskState::Done, "{:?}", last_outcome(&s));
    assert_same(&w, &expected_with(&blocks));
    assert!(!bb.contains(w.agent_pos()), "not sealed inside its own box");
}

#[test]
fn build_a_20_high_tower_with_a_scaffold_pillar() {
    let mut w = EmbeddedWorld::flat();
    let blocks: Vec<_> = (5..25).map(|y| (Pos::new(3, y, 1), b("stone_bricks"))).collect();
    let mut s = TaskStack::default();
    let id = push(&mut s, Build::new(blocks.clone(), "a tower", &limits()).unwrap());
    run(&mut w, &mut s, 2000);
    assert_eq!(last_outcome(&s).0, TaskState::Done, "{:?}", last_outcome(&s));
    assert_same(&w, &expected_with(&blocks));
    let scaffold = limits().scaffold;
    assert!(s.record(id).unwrap().changes.iter().any(|c| c.after == scaffold), "climbed on scaffold");
    assert!(w.agent_pos().y <= 8, "came back down: {}", w.agent_pos());
}

/// An arch whose blocks touch only by their edges: every block above the first needs a
/// temporary support, which must be gone afterwards.
#[test]
fn build_a_diagonal_arch_with_temporary_supports() {
    let mut w = EmbeddedWorld::flat();
    let mut blocks = Vec::new();
    for i in 0..4 {
        blocks.push((Pos::new(2 + i, 5 + i, 3), b("bricks")));
        blocks.push((Pos::new(10 - i, 5 + i, 3), b("bricks")));
    }
    blocks.push((Pos::new(6, 9, 3), b("bricks")));
    // and a part floating in the air
    blocks.push((Pos::new(14, 10, 3), b("gold_block")));
    let mut s = TaskStack::default();
    let id = push(&mut s, Build::new(blocks.clone(), "an arch", &limits()).unwrap());
    run(&mut w, &mut s, 2000);
    assert_eq!(last_outcome(&s).0, TaskState::Done, "{:?}", last_outcome(&s));
    assert_same(&w, &expected_with(&blocks));
    let scaffold = limits().scaffold;
    let used = s.record(id).unwrap().changes.iter().filter(|c| c.after == scaffold).count();
    assert!(used >= 8, "supports were needed ({used})");
}

fn sphere(c: Pos, r: f64, hollow: bool, block: Block) -> Vec<(Pos, Block)> {
    let ri = r.ceil() as i32;
    BBox::around(c, ri)
        .iter()
        .filter(|p| {
            let d = (((p.x - c.x).pow(2) + (p.y - c.y).pow(2) + (p.z - c.z).pow(2)) as f64).sqrt();
            d <= r + 0.5 && (!hollow || d > r - 0.5)
        })
        .map(|p| (p, block))
        .collect()
}

#[test]
fn build_a_hollow_sphere_of_radius_7() {
    let mut w = EmbeddedWorld::flat();
    let blocks = sphere(Pos::new(12, 12, 0), 7.0, true, b("glass"));
    let mut s = TaskStack::default();
    push(&mut s, Build::new(blocks.clone(), "a glass sphere", &limits()).unwrap());
    let ticks = run(&mut w, &mut s, 60_000);
    assert_eq!(last_outcome(&s).0, TaskState::Done, "{:?}", last_outcome(&s));
    assert_same(&w, &expected_with(&blocks));
    eprintln!("hollow sphere: {} blocks in {ticks} ticks", blocks.len());
    assert!(w.agent_pos().distance(Pos::new(12, 12, 0)) > 7.0, "not sealed inside: {}", w.agent_pos());
}

#[test]
fn build_a_solid_sphere_of_radius_7() {
    let mut w = EmbeddedWorld::flat();
    let blocks = sphere(Pos::new(12, 12, 0), 7.0, false, b("white_concrete"));
    let mut s = TaskStack::default();
    push(&mut s, Build::new(blocks.clone(), "a white ball", &limits()).unwrap());
    let ticks = run(&mut w, &mut s, 60_000);
    assert_eq!(last_outcome(&s).0, TaskState::Done, "{:?}", last_outcome(&s));
    assert_same(&w, &expected_with(&blocks));
    eprintln!("solid sphere: {} blocks in {ticks} ticks", blocks.len());
}

#[test]
fn copy_an_object_elsewhere() {
    let mut w = EmbeddedWorld::flat();
    let original: Vec<_> = BBox::new(Pos::new(2, 5, 2), Pos::new(3, 7, 3))
        .iter()
        .map(|p| (p, if p.y == 7 { b("gold_block") } else { b("blue_wool") }))
        .collect();
    for &(p, bl) in &original {
        w.set_block_by(p, bl, Actor::Player("alice".into()));
    }
    // The interpreter reads the object's blocks and shifts them: a copy is a build.
    let shift = Pos::new(0, 0, 8);
    let copy: Vec<_> = original.iter().map(|&(p, bl)| (p + shift, bl)).collect();
    let mut s = TaskStack::default();
    push(&mut s, Build::new(copy.clone(), "a copy of the tower", &limits()).unwrap());
    run(&mut w, &mut s, 500);
    assert_eq!(last_outcome(&s).0, TaskState::Done);
    let all: Vec<_> = original.iter().chain(copy.iter()).copied().collect();
    assert_same(&w, &expected_with(&all));
}

#[test]
fn a_player_in_the_way_is_waited_for() {
    let mut w = EmbeddedWorld::flat();
    w.add_player("bob", Vec3::new(4.5, 5.0, 0.5), Look::default());
    let blocks = vec![(Pos::new(4, 5, 0), b("red_wool")), (Pos::new(4, 6, 0), b("red_wool"))];
    let mut s = TaskStack::default();
    push(&mut s, Build::new(blocks.clone(), "a post", &limits()).unwrap());
    for _ in 0..40 {
        w.advance();
        s.tick(&mut w);
    }
    assert!(w.block_at(Pos::new(4, 5, 0)).is_air(), "never builds inside a player");
    let notes: Vec<_> = s
        .drain_events()
        .into_iter()
        .filter_map(|e| match e.event {
            TaskEventKind::Note(n) => Some(n),
            _ => None,
        })
        .collect();
    assert_eq!(notes, vec!["bob, could you step aside? I need to put a block at (4, 5, 0).".to_string()]);
    w.player_mut("bob").unwrap().pos = Vec3::new(8.5, 5.0, 3.5);
    run(&mut w, &mut s, 200);
    assert_same(&w, &expected_with(&blocks));
}

#[test]
fn limits_refuse_a_20000_block_build() {
    let blocks: Vec<_> = BBox::new(Pos::new(0, 5, 0), Pos::new(99, 6, 99)).iter().map(|p| (p, b("stone"))).collect();
    assert_eq!(blocks.len(), 20_000);
    let err = Build::new(blocks, "a slab", &limits()).err().unwrap();
    assert_eq!(err.to_string(), "that is 20000 blocks, and I only handle up to 10000 blocks in one go");
    assert!(Build::new(vec![(Pos::new(0, 400, 0), b("stone"))], "x", &limits()).is_err());
}

// ---------------------------------------------------------------- destroying, digging, filling

#[test]
fn destroy_an_object() {
    let mut w = EmbeddedWorld::flat();
    let thing = cube(Pos::new(3, 5, 3), 3, b("cobblestone"));
    for &(p, bl) in &thing {
        w.set_block_by(p, bl, Actor::World);
    }
    let before_grass = w.block_at(Pos::new(3, 4, 3));
    let mut s = TaskStack::default();
    push(&mut s, Destroy::new(thing.iter().map(|t| t.0).collect(), "the cube", &limits()).unwrap());
    run(&mut w, &mut s, 500);
    assert_eq!(last_outcome(&s), (TaskState::Done, "I destroyed the cube.".into()));
    assert!(thing.iter().all(|(p, _)| w.block_at(*p).is_air()));
    assert_eq!(w.block_at(Pos::new(3, 4, 3)), before_grass);
    assert_same(&w, &EmbeddedWorld::flat());
}

#[test]
fn dig_default_and_given_size() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let dig = Dig::new(Pos::new(4, 4, 0), DigSize::default(), &limits()).unwrap();
    assert_eq!(dig.describe(), "digging a 2x2x2 hole at (4, 4, 0)");
    push(&mut s, dig);
    run(&mut w, &mut s, 300);
    assert_eq!(last_outcome(&s), (TaskState::Done, "I dug a 2x2x2 hole.".into()));
    let hole = BBox::new(Pos::new(4, 3, 0), Pos::new(5, 4, 1));
    assert!(hole.iter().all(|p| w.block_at(p).is_air()));
    assert_eq!(w.block_at(Pos::new(4, 2, 0)).name(), "dirt");

    push(&mut s, Dig::new(Pos::new(-6, 4, 0), DigSize::new(3, 4, 3), &limits()).unwrap());
    run(&mut w, &mut s, 500);
    let hole2 = BBox::new(Pos::new(-7, 2, -1), Pos::new(-5, 4, 2));
    assert_eq!(hole2.volume(), 36);
    assert!(hole2.iter().all(|p| w.block_at(p).is_air()));
    let mut e = EmbeddedWorld::flat();
    e.fill_by(hole, Block::AIR, Actor::World);
    e.fill_by(hole2, Block::AIR, Actor::World);
    assert_same(&w, &e);
}

#[test]
fn digging_through_bedrock_is_refused_up_front() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let dig = Dig::new(Pos::new(0, 2, 0), DigSize::new(2, 2, 4), &limits()).unwrap();
    let err = s.push_checked(Box::new(dig), TaskMeta::default(), &w).unwrap_err();
    assert_eq!(err.to_string(), "I can't dig that deep: there is bedrock at (0, 0, 0)");
    assert!(s.is_idle() && s.history().is_empty());
    // Pushed without the check, it fails on its first tick with the same reason, digging nothing.
    push(&mut s, Dig::new(Pos::new(0, 2, 0), DigSize::new(2, 2, 4), &limits()).unwrap());
    run(&mut w, &mut s, 3);
    assert_eq!(last_outcome(&s).1, err.to_string());
    assert_same(&w, &EmbeddedWorld::flat());
    assert!(matches!(Dig::new(Pos::new(0, -62, 0), DigSize::new(1, 1, 5), &limits()), Err(TaskError::OutsideWorld(_))));
}

#[test]
fn fill_a_dug_hole() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    push(&mut s, Dig::new(Pos::new(3, 4, 3), DigSize::new(3, 3, 3), &limits()).unwrap());
    run(&mut w, &mut s, 500);
    let hole = BBox::new(Pos::new(2, 2, 2), Pos::new(4, 4, 4));
    assert!(hole.iter().all(|p| w.block_at(p).is_air()));
    // Stand in the hole: the fill must climb out on its own blocks.
    w.set_agent_pos(Pos::new(3, 2, 3));
    push(&mut s, Fill::new(hole.iter().collect(), b("cobblestone"), &limits()).unwrap());
    run(&mut w, &mut s, 500);
    assert_eq!(last_outcome(&s), (TaskState::Done, "I filled the hole with cobblestone.".into()));
    assert!(hole.iter().all(|p| w.block_at(p).name() == "cobblestone"));
    assert!(w.agent_pos().y >= 5);
}

// ---------------------------------------------------------------- spawn, dance, get

#[test]
fn spawn_a_pig_over_there() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    push(&mut s, Spawn::new("pig", Pos::new(12, 5, 0)));
    run(&mut w, &mut s, 100);
    assert_eq!(last_outcome(&s), (TaskState::Done, "I spawned a pig.".into()));
    assert_eq!(w.mobs().len(), 1);
    assert_eq!(w.mobs()[0].pos.block(), Pos::new(12, 5, 0));
    push(&mut s, Spawn::new("dragonfly", Pos::new(1, 5, 0)));
    run(&mut w, &mut s, 10);
    assert_eq!(last_outcome(&s), (TaskState::Failed, "I don't know a mob called \"dragonfly\"".into()));
}

#[test]
fn dance_turns_spins_jumps_and_circles() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    push(&mut s, Dance::turn(Turn::Relative { yaw: 90.0, pitch: 0.0 }));
    run(&mut w, &mut s, 5);
    assert_eq!(w.agent_look().yaw, 90.0);
    push(&mut s, Dance::turn_head(Turn::Absolute { yaw: Some(180.0), pitch: Some(30.0) }));
    run(&mut w, &mut s, 5);
    assert_eq!((w.agent_look().yaw, w.agent_look().pitch), (180.0, 30.0));
    push(&mut s, Dance::look_at(Vec3::new(-10.5, 6.62, 0.5)));
    run(&mut w, &mut s, 5);
    assert!((w.agent_look().yaw - 90.0).abs() < 0.01, "west is yaw 90");

    // A spin goes all the way round (8 turns of 45°) and ends facing the same way.
    push(&mut s, Dance::spin(true));
    let mut yaws = Vec::new();
    for _ in 0..20 {
        w.advance();
        s.tick(&mut w);
        yaws.push(w.agent_look().yaw);
        if s.is_idle() {
            break;
        }
    }
    assert_eq!(yaws.len(), 8);
    assert_eq!(yaws[0], 135.0, "clockwise: yaw increases");
    assert_eq!(*yaws.last().unwrap(), 90.0);

    push(&mut s, Dance::jump());
    let mut heights = Vec::new();
    for _ in 0..10 {
        w.advance();
        s.tick(&mut w);
        heights.push(w.agent_pos().y);
        if s.is_idle() {
            break;
        }
    }
    assert!(heights.contains(&6) && *heights.last().unwrap() == 5, "{heights:?}");

    push(&mut s, Dance::nod());
    run(&mut w, &mut s, 10);
    push(&mut s, Dance::circle(Pos::new(5, 5, 0), 2, false));
    run(&mut w, &mut s, 200);
    assert_eq!(last_outcome(&s).0, TaskState::Done);
    assert!(w.agent_pos().chebyshev(Pos::new(5, 5, 0)) <= 3);
}

#[test]
fn get_to_a_thing_and_give_an_item() {
    let mut w = EmbeddedWorld::flat();
    w.add_player("alice", Vec3::new(-8.5, 5.0, 3.5), Look::default());
    let mut s = TaskStack::default();
    push(&mut s, Get::new(Pos::new(9, 5, 9), "the cube"));
    run(&mut w, &mut s, 100);
    assert!(w.agent_pos().chebyshev(Pos::new(9, 5, 9)) <= 1);
    assert_eq!(last_outcome(&s).1, "I got to the cube.");
    push(&mut s, Give::new("alice", "diamond_sword", 1).walking_to(Pos::new(-9, 5, 3)));
    run(&mut w, &mut s, 100);
    assert_eq!(w.player("alice").unwrap().inventory, vec![("diamond_sword".to_string(), 1)]);
    assert!(w.agent_pos().chebyshev(Pos::new(-9, 5, 3)) <= 2);
}

// ---------------------------------------------------------------- the stack

#[test]
fn a_build_interrupted_by_a_move_resumes_and_completes() {
    let mut w = EmbeddedWorld::flat();
    let blocks = cube(Pos::new(3, 5, 2), 3, b("lime_wool"));
    let mut s = TaskStack::default();
    let build = push(&mut s, Build::new(blocks.clone(), "a lime cube", &limits()).unwrap());
    for _ in 0..8 {
        w.advance();
        s.tick(&mut w);
    }
    let placed_before = s.record(build).unwrap().changes.len();
    assert!(placed_before > 0);
    let walk = push(&mut s, Move::to(Pos::new(-6, 5, -6)));
    assert_eq!(s.current().unwrap(), "walking to (-6, 5, -6)");
    run(&mut w, &mut s, 400);
    assert_same(&w, &expected_with(&blocks));
    let kinds: Vec<_> = s.drain_events().into_iter().map(|e| (e.id, e.event)).collect();
    let pos = |id, ev: &TaskEventKind| {
        kinds.iter().position(|k| k.0 == id && std::mem::discriminant(&k.1) == std::mem::discriminant(ev)).unwrap()
    };
    assert!(pos(build, &TaskEventKind::Interrupted) < pos(walk, &TaskEventKind::Finished(String::new())));
    assert!(pos(walk, &TaskEventKind::Finished(String::new())) < pos(build, &TaskEventKind::Resumed));
    assert!(pos(build, &TaskEventKind::Resumed) < pos(build, &TaskEventKind::Finished(String::new())));
    assert_eq!(s.history().iter().map(|r| r.id).collect::<Vec<_>>(), vec![walk, build]);
}

#[test]
fn stop_then_resume() {
    let mut w = EmbeddedWorld::flat();
    let blocks = cube(Pos::new(3, 5, 2), 3, b("blue_wool"));
    let mut s = TaskStack::default();
    let id = push(&mut s, Build::new(blocks.clone(), "a blue cube", &limits()).unwrap());
    for _ in 0..6 {
        w.advance();
        s.tick(&mut w);
    }
    assert_eq!(s.stop(), Some(id));
    assert!(s.is_idle() && s.current().is_none());
    assert_eq!(s.paused().unwrap(), "building a blue cube at (3, 5, 2)");
    let n = s.record(id).unwrap().changes.len();
    for _ in 0..50 {
        w.advance();
        s.tick(&mut w);
    }
    assert_eq!(s.record(id).unwrap().changes.len(), n, "a stopped task does nothing");
    assert_eq!(s.resume(), Some(id));
    run(&mut w, &mut s, 400);
    assert_same(&w, &expected_with(&blocks));
    let ev: Vec<_> = s.drain_events().into_iter().map(|e| e.event).collect();
    assert!(ev.contains(&TaskEventKind::Paused) && ev.contains(&TaskEventKind::Resumed));
}

#[test]
fn undo_a_build_and_a_dig_restores_the_world_exactly() {
    let mut w = EmbeddedWorld::flat();
    let pristine = w.clone();
    let mut s = TaskStack::default();
    // A tower (with scaffold) plus a cube, then a dig: undo them one by one.
    let mut blocks: Vec<_> = (5..18).map(|y| (Pos::new(6, y, 0), b("stone_bricks"))).collect();
    blocks.extend(cube(Pos::new(8, 5, 0), 2, b("red_wool")));
    push(&mut s, Build::new(blocks.clone(), "a tower", &limits()).unwrap());
    run(&mut w, &mut s, 2000);
    assert_same(&w, &expected_with(&blocks));
    let after_build = w.clone();
    push(&mut s, Dig::new(Pos::new(-4, 4, -4), DigSize::new(3, 3, 3), &limits()).unwrap());
    run(&mut w, &mut s, 500);

    assert_eq!(s.last_undoable(None).unwrap().kind, TaskKind::Dig);
    s.undo_last(None, TaskMeta::default()).unwrap();
    run(&mut w, &mut s, 1000);
    let (state, msg) = last_outcome(&s);
    assert_eq!(state, TaskState::Done, "{msg}");
    assert!(msg.starts_with("I undid digging a 3x3x3 hole at (-4, 4, -4): 27 blocks put back."), "{msg}");
    assert_same(&w, &after_build);

    s.undo_last(Some(TaskKind::Build), TaskMeta::default()).unwrap();
    run(&mut w, &mut s, 3000);
    assert_eq!(last_outcome(&s).0, TaskState::Done, "{:?}", last_outcome(&s));
    assert_same(&w, &pristine);
    assert!(s.last_undoable(None).is_none(), "both undone");
    assert!(matches!(s.undo_last(None, TaskMeta::default()), Err(TaskError::NothingToUndo)));
}

#[test]
fn undo_skips_blocks_changed_since() {
    let mut w = EmbeddedWorld::flat();
    let blocks = cube(Pos::new(3, 5, 2), 2, b("red_wool"));
    let mut s = TaskStack::default();
    push(&mut s, Build::new(blocks, "a cube", &limits()).unwrap());
    run(&mut w, &mut s, 300);
    w.set_block_by(Pos::new(3, 6, 2), b("gold_block"), Actor::Player("alice".into()));
    s.undo_last(None, TaskMeta::default()).unwrap();
    run(&mut w, &mut s, 300);
    let msg = last_outcome(&s).1;
    assert!(msg.ends_with("7 blocks taken down. I left 1 block alone because it was changed since."), "{msg}");
    assert_eq!(w.block_at(Pos::new(3, 6, 2)).name(), "gold_block");
}

#[test]
fn repeat_three_times() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let factory: TaskFactory = Box::new(|i, _| {
        let p = Pos::new(2 + 2 * i as i32, 5, 3);
        Ok(Box::new(Build::new(vec![(p, b("red_wool"))], "a block", &Limits::default())?))
    });
    let id = push(&mut s, Repeat::new(TaskKind::Build, "placing a block", Times::Count(3), factory));
    run(&mut w, &mut s, 300);
    assert_eq!(last_outcome(&s), (TaskState::Done, "Done, 3 times.".into()));
    let placed: Vec<_> = (0..5).filter(|i| w.block_at(Pos::new(2 + 2 * i, 5, 3)).name() == "red_wool").collect();
    assert_eq!(placed, vec![0, 1, 2]);
    assert_eq!(s.record(id).unwrap().changes.len(), 3, "the rounds' changes belong to the loop");
}

#[test]
fn dig_until_adjacent_to_stone() {
    let mut w = EmbeddedWorld::flat();
    // Stone under the dirt: y=1 is stone, dirt at 2..=3, grass at 4.
    w.fill_by(BBox::new(Pos::new(-10, 1, -10), Pos::new(10, 1, 10)), b("stone"), Actor::World);
    let top = Pos::new(3, 4, 3);
    let factory: TaskFactory = Box::new(move |i, _| {
        let layer = top.down(i as i32);
        Ok(Box::new(Dig::new(layer, DigSize::new(2, 2, 1), &Limits::default())?))
    });
    let until = Times::Until(Condition::AdjacentToBlockType(b("stone")));
    let mut s = TaskStack::default();
    push(&mut s, Repeat::new(TaskKind::Dig, "digging down", until, factory));
    run(&mut w, &mut s, 500);
    assert_eq!(last_outcome(&s), (TaskState::Done, "Done, after 3 rounds.".into()));
    let hole = BBox::new(Pos::new(3, 2, 3), Pos::new(4, 4, 4));
    assert!(hole.iter().all(|p| w.block_at(p).is_air()));
    assert!(BBox::new(Pos::new(3, 1, 3), Pos::new(4, 1, 4)).iter().all(|p| w.block_at(p).name() == "stone"));
    // Without stone, the loop ends at bedrock with a reason.
    let mut w = EmbeddedWorld::flat();
    let factory: TaskFactory =
        Box::new(move |i, _| Ok(Box::new(Dig::new(top.down(i as i32), DigSize::new(2, 2, 1), &Limits::default())?)));
    push(
        &mut s,
        Repeat::new(TaskKind::Dig, "digging down", Times::Until(Condition::AdjacentToBlockType(b("stone"))), factory),
    );
    run(&mut w, &mut s, 500);
    assert_eq!(
        last_outcome(&s),
        (TaskState::Failed, "I stopped after 4 rounds: I can't dig that deep: there is bedrock at (3, 0, 3)".into())
    );
}

#[test]
fn a_task_made_of_sub_tasks_five_deep_runs() {
    // A loop of loops: the innermost spins; the stack unwinds when all are done.
    fn nest(depth: u32) -> Box<dyn Task> {
        if depth == 1 {
            return Box::new(Dance::spin(false));
        }
        Box::new(Repeat::new(TaskKind::Loop, "loop", Times::Count(1), Box::new(move |_, _| Ok(nest(depth - 1)))))
    }
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    s.push(nest(5), TaskMeta::default());
    for _ in 0..5 {
        w.advance();
        s.tick(&mut w);
    }
    assert_eq!(s.current_step().unwrap(), "spinning anticlockwise");
    run(&mut w, &mut s, 100);
    assert_eq!(last_outcome(&s).0, TaskState::Done);
}

// ---------------------------------------------------------------- odd requests

#[test]
fn a_build_beyond_one_walk_is_walked_to_in_legs() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    push(&mut s, Build::new(vec![(Pos::new(300, 5, 0), b("stone"))], "a marker", &limits()).unwrap());
    run(&mut w, &mut s, 2000);
    let (state, msg) = last_outcome(&s);
    assert_eq!(state, TaskState::Done, "{msg}");
    assert_eq!(w.block_at(Pos::new(300, 5, 0)), b("stone"));
}

#[test]
fn odd_requests_never_panic_and_always_end() {
    let l = limits();
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let far = Pos::new(i32::MAX, i32::MIN, i32::MAX);
    push(&mut s, Move::to(far));
    push(&mut s, Move::near(Pos::new(3, 5, 3), -7));
    push(&mut s, Move::come_here(Pos::new(0, 400, 0)));
    push(&mut s, Spawn::new("pig", Pos::new(0, 400, 0)));
    push(&mut s, Spawn::new("", Pos::new(2, 5, 2)).times(0));
    push(&mut s, Dance::circle(far, 99, true));
    push(&mut s, Dance::turn(Turn::Relative { yaw: f32::NAN, pitch: f32::INFINITY }));
    push(&mut s, Give::new("nobody", "diamond_sword", 0));
    push(&mut s, Get::new(far, "the edge of the world"));
    push(&mut s, Follow::player("ghost"));
    let dup = vec![(Pos::new(2, 5, 2), b("stone")), (Pos::new(2, 5, 2), Block::AIR), (Pos::new(2, 4, 2), Block::AIR)];
    push(&mut s, Build::new(dup, "an odd thing", &l).unwrap());
    push(&mut s, Destroy::new(vec![Pos::new(5, 0, 5), Pos::new(5, 1, 5)], "bedrock", &l).unwrap());
    for _ in 0..2000 {
        w.advance();
        s.tick(&mut w);
        if s.is_idle() {
            break;
        }
    }
    assert!(s.is_idle(), "still doing {:?}", s.current());
    assert_eq!(s.history().len(), 12);
    assert!(s.history().iter().all(|r| r.outcome.as_ref().is_some_and(|m| !m.is_empty())));
    assert_eq!(w.block_at(Pos::new(5, 0, 5)).name(), "bedrock");

    assert!(Dig::new(Pos::new(0, 4, 0), DigSize::new(0, 2, 2), &l).is_err());
    assert!(Dig::new(Pos::new(0, 4, 0), DigSize::new(i32::MAX, i32::MAX, i32::MAX), &l).is_err());
    assert!(Dig::new(far, DigSize::default(), &l).is_err());
    assert!(Fill::new(vec![Pos::new(0, 5, 0)], Block::AIR, &l).is_err());
    assert!(Build::new(vec![], "nothing", &l).is_err());
    assert!(Build::new(vec![(far, b("stone"))], "x", &l).is_err());
    let mut empty = TaskStack::default();
    assert_eq!((empty.stop(), empty.resume(), empty.cancel()), (None, None, None));
    assert!(empty.undo_last(None, TaskMeta::default()).is_err());
    empty.tick(&mut w);
    assert!(empty.is_idle() && empty.current().is_none());
}

#[test]
fn history_records_carry_the_callers_logical_form() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let lf = serde_json::json!({"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DANCE"}]});
    let meta = TaskMeta { speaker: Some("alice".into()), chat: Some("spin".into()), logical_form: Some(lf.clone()), ..TaskMeta::default() };
    let id = s.push(Box::new(Dance::spin(true)), meta);
    run(&mut w, &mut s, 20);
    let r = s.record(id).unwrap();
    assert_eq!((r.kind, r.state, r.meta.logical_form.as_ref()), (TaskKind::Dance, TaskState::Done, Some(&lf)));
    assert!(r.finished_tick.unwrap() > r.created_tick);
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["kind"], "DANCE");
    // A cancelled command is history too.
    push(&mut s, Move::to(Pos::new(20, 5, 0)));
    w.advance();
    s.tick(&mut w);
    s.cancel();
    assert_eq!(s.history().last().unwrap().state, TaskState::Stopped);
}

#[test]
fn a_failing_build_takes_its_scaffold_down_before_saying_why() {
    let mut w = EmbeddedWorld::flat();
    // A tall tower, and a block far out of walking range: the build climbs, builds the tower,
    // gives up on the far block, and comes back down leaving no scaffold behind.
    // The far block is on a stone pillar inside a closed bedrock cage, 6 blocks from every wall
    // and from the roof: out of reach however the bot comes.
    let mut blocks: Vec<_> = (5..16).map(|y| (Pos::new(3, y, 0), b("stone_bricks"))).collect();
    blocks.push((Pos::new(3, 16, 300), b("stone_bricks")));
    let cage = |w: &mut EmbeddedWorld| {
        w.fill_by(BBox::new(Pos::new(-3, 5, 294), Pos::new(9, 22, 306)), b("bedrock"), Actor::World);
        w.fill_by(BBox::new(Pos::new(-2, 5, 295), Pos::new(8, 21, 305)), Block::AIR, Actor::World);
        w.fill_by(BBox::new(Pos::new(3, 5, 300), Pos::new(3, 15, 300)), b("stone"), Actor::World);
    };
    cage(&mut w);
    let mut expected = expected_with(&blocks[..11]);
    cage(&mut expected);
    let mut s = TaskStack::default();
    push(&mut s, Build::new(blocks.clone(), "two things", &limits()).unwrap());
    run(&mut w, &mut s, 3000);
    let (state, msg) = last_outcome(&s);
    assert_eq!(state, TaskState::Failed);
    assert!(msg.starts_with("I can't get close enough to (3, 16, 300) to put a block there: "), "{msg}");
    assert_same(&w, &expected);
}

#[test]
fn a_part_floating_high_up_gets_a_support_column_that_is_removed() {
    let mut w = EmbeddedWorld::flat();
    let blocks = vec![(Pos::new(4, 30, 2), b("gold_block")), (Pos::new(5, 30, 2), b("gold_block"))];
    let mut s = TaskStack::default();
    push(&mut s, Build::new(blocks.clone(), "a floating platform", &limits()).unwrap());
    run(&mut w, &mut s, 3000);
    assert_eq!(last_outcome(&s).0, TaskState::Done, "{:?}", last_outcome(&s));
    assert_same(&w, &expected_with(&blocks));
}

#[test]
fn comes_out_of_the_shaft_it_dug_and_down_from_what_it_built() {
    let mut w = EmbeddedWorld::flat();
    w.fill_by(BBox::new(Pos::new(-4, -12, -4), Pos::new(8, 3, 8)), b("dirt"), Actor::World);
    w.fill_by(BBox::new(Pos::new(-4, -13, -4), Pos::new(8, -13, 8)), b("stone"), Actor::World);
    let top = Pos::new(2, 4, 2);
    let factory: TaskFactory =
        Box::new(move |i, _| Ok(Box::new(Dig::new(top.down(i as i32), DigSize::new(2, 2, 1), &Limits::default())?)));
    let mut s = TaskStack::default();
    push(
        &mut s,
        Repeat::new(TaskKind::Dig, "digging down", Times::Until(Condition::AdjacentToBlockType(b("stone"))), factory),
    );
    run(&mut w, &mut s, 2000);
    assert_eq!(last_outcome(&s), (TaskState::Done, "Done, after 17 rounds.".into()));
    assert!(w.agent_pos().y < 0, "down in the shaft: {}", w.agent_pos());
    push(&mut s, Move::come_here(Pos::new(9, 5, 9)));
    run(&mut w, &mut s, 500);
    assert_eq!(last_outcome(&s), (TaskState::Done, "Here I am.".into()));

    // On top of a 10-high cube, "come here" jumps down (creative mode: no fall damage).
    let mut w = EmbeddedWorld::flat();
    w.fill_by(BBox::new(Pos::new(0, 5, 0), Pos::new(3, 14, 3)), b("stone"), Actor::World);
    w.set_agent_pos(Pos::new(1, 15, 1));
    push(&mut s, Move::come_here(Pos::new(10, 5, 10)));
    run(&mut w, &mut s, 100);
    assert_eq!(last_outcome(&s), (TaskState::Done, "Here I am.".into()));
}
