//! Figures for memory and perception: how long perception takes to absorb a burst of building,
//! how long a typical filters query takes over a large memory, and how big that memory is.
//!
//! Run in release: `cargo test --release --lib bench::memory -- --ignored --nocapture`.
//!
//! - `perception_update_1000_blocks_ms`: one perception update right after 1000 blocks were
//!   placed (20 towers and 8 walls), median of 5 runs.
//! - `perception_idle_update_ms`: an update where only a player moved (the per-tick cost).
//! - `filter_query_10k_memories_ms`: "destroy the red tower closest to me" over 10,000 block
//!   objects with perceived colours, shapes, sizes and block types (the target is ≤ 1 ms),
//!   mean of 200 queries with the lookup cache emptied before each (the cost right after
//!   perception changed something); `filter_query_10k_memories_cached_ms` is the same query
//!   repeated with the cache warm.
//! - `memory_10k_objects_mb`: the database holding those objects, their cells and triples.
//! - `restart_10k_objects_ms`: `play --memory` starting again on a file that holds those 10,000
//!   objects and the world they stand in: opening the memory, loading the kept world and the
//!   first perception update (which reloads every remembered cell and looks around), median
//!   of 3; `memory_file_10k_objects_mb` is that file's size (memory and world together).
//! - `tick_build_in_ram_us_mean` / `tick_build_file_us_mean` (and `_p99`): one whole tick of
//!   `play` — the world, the bot and, with a file, the world saved — while the bot builds a red
//!   cube, with the memory in RAM and in a file (`play --memory`): what the file's one
//!   transaction a tick, and the world's save, cost.

use std::time::Instant;

use rustc_hash::FxHashMap;

use super::Figure;
use crate::logical_form::{Filters, tokenize};
use crate::memory::{Memory, MemoryKind, QueryContext};
use crate::perception::{Perception, PerceptionConfig, attributes};
use crate::world::embedded::EmbeddedWorld;
use crate::world::{Actor, BBox, Block, Look, Pos, Vec3};

fn figure(name: &str, value: f64, unit: &str) -> Figure {
    Figure { name: name.to_string(), value: (value * 1000.0).round() / 1000.0, unit: unit.to_string() }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs every memory benchmark.
pub fn run() -> Vec<Figure> {
    let mut out = perception_figures();
    out.extend(query_figures());
    out.extend(restart_figures());
    out.extend(tick_figures());
    out
}

/// Ticks of a build with the memory in RAM, then in a file with the world kept beside it.
fn tick_figures() -> Vec<Figure> {
    use crate::agent::Bot;
    use crate::world::embedded::WorldStore;
    let dir = std::env::temp_dir().join(format!("craftmate-bench-tick-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut out = Vec::new();
    for (label, file) in [("in_ram", false), ("file", true)] {
        let path = dir.join("tick.db");
        let _ = std::fs::remove_file(&path);
        let mut world = EmbeddedWorld::flat();
        world.add_player("alice", Vec3::new(3.5, 5.0, 0.5), Look::new(90.0, 0.0));
        let memory = if file { Memory::open(&path) } else { Memory::in_memory() }.expect("memory");
        let mut store = file.then(|| WorldStore::open(&path).expect("world store"));
        let mut bot = crate::agent::assistant::Assistant::new(memory, None);
        let text = "build a red cube";
        let lf = crate::logical_form::validate_json(
            text,
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}, {"pred_text": "has_colour", "obj_text": [0, [2, 2]]}]}}}}]}"#,
        )
        .expect("a valid form");
        bot.expect_parse("alice", text, lf);
        world.player_says("alice", text);
        let mut times = Vec::new();
        for _ in 0..3000 {
            let start = Instant::now();
            world.advance();
            bot.tick(&mut world);
            if let Some(s) = &mut store {
                s.save(&mut world).expect("the world is saved");
            }
            times.push(start.elapsed().as_secs_f64() * 1e6);
            if bot.is_idle() && times.len() > 20 {
                break;
            }
        }
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let p99 = sorted[((sorted.len() - 1) as f64 * 0.99) as usize];
        out.push(figure(&format!("tick_build_{label}_us_mean"), mean, "us"));
        out.push(figure(&format!("tick_build_{label}_us_p99"), p99, "us"));
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// The restart of a bot whose file holds 10,000 objects and their world.
fn restart_figures() -> Vec<Figure> {
    use crate::world::embedded::WorldStore;
    let dir = std::env::temp_dir().join(format!("craftmate-bench-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("bot.db");
    let _ = std::fs::remove_file(&path);
    {
        let mut memory = Memory::open(&path).expect("memory file");
        let cells = populate(&mut memory, 10_000);
        let mut world = EmbeddedWorld::flat();
        world.add_player("alice", Vec3::new(3.5, 5.0, 0.5), Look::new(90.0, 0.0));
        for (p, b) in cells {
            world.set_block_by(p, b, Actor::Agent);
        }
        let mut store = WorldStore::open(&path).expect("world store");
        store.save(&mut world).expect("save");
    }
    let mut times = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let mut memory = Memory::open(&path).expect("reopen");
        let world = WorldStore::open(&path).expect("world store").load().expect("load").expect("a kept world");
        let report = Perception::new().update(&world, &mut memory).expect("first update");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(report.destroyed.is_empty(), "every remembered object is still in the kept world");
    }
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    let _ = std::fs::remove_dir_all(&dir);
    vec![figure("restart_10k_objects_ms", median(times), "ms"), figure("memory_file_10k_objects_mb", size, "MB")]
}

fn perception_figures() -> Vec<Figure> {
    let stone = Block::from_name("stone_bricks").expect("registry block");
    let red = Block::from_name("red_wool").expect("registry block");
    let mut burst = Vec::new();
    let mut idle = Vec::new();
    for _ in 0..5 {
        let mut world = EmbeddedWorld::flat();
        world.add_player("alice", Vec3::new(0.5, 5.0, 0.5), Look::default());
        let mut memory = Memory::in_memory().expect("memory");
        let mut perception = Perception::with_config(PerceptionConfig::default());
        perception.update(&world, &mut memory).expect("first update");
        let alice = Actor::Player("alice".into());
        for i in 0..20 {
            let (x, z) = (-20 + 2 * (i % 10), if i < 10 { -10 } else { -14 });
            world.fill_by(BBox::new(Pos::new(x, 5, z), Pos::new(x, 14, z)), red, alice.clone());
        }
        for i in 0..8 {
            let z = 4 * i;
            world.fill_by(BBox::new(Pos::new(2, 5, z), Pos::new(11, 14, z)), stone, alice.clone());
        }
        world.advance();
        let t = Instant::now();
        let report = perception.update(&world, &mut memory).expect("update");
        burst.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(report.block_changes, 1000);
        assert_eq!(report.created.len(), 28);
        world.add_player("alice", Vec3::new(1.5, 5.0, 0.5), Look::new(45.0, 0.0));
        world.advance();
        let t = Instant::now();
        perception.update(&world, &mut memory).expect("idle update");
        idle.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    vec![
        figure("perception_update_1000_blocks_ms", median(burst), "ms"),
        figure("perception_idle_update_ms", median(idle), "ms"),
    ]
}

/// A memory with `n` block objects spread over a large area: towers, cubes, walls and floors in
/// 16 colours, each with the facts perception would store.
pub fn populated_memory(n: usize) -> Memory {
    let mut memory = Memory::in_memory().expect("memory");
    populate(&mut memory, n);
    memory
}

/// Writes [`populated_memory`]'s objects into `memory`; returns their cells.
fn populate(memory: &mut Memory, n: usize) -> Vec<(Pos, Block)> {
    let mut all = Vec::new();
    let colours = crate::world::blocks::DYE_COLOURS;
    let mut seed: u64 = 0x5eed;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    memory
        .batch(|m| {
            for i in 0..n {
                let origin = Pos::new((i % 100) as i32 * 10 - 500, 5, (i / 100) as i32 * 10 - 500);
                let block = Block::from_name(&format!("{}_wool", colours[next() % 16])).expect("wool");
                let cells: Vec<Pos> = match next() % 4 {
                    0 => (0..8).map(|y| origin.up(y)).collect(),
                    1 => BBox::new(origin, origin + Pos::new(1, 1, 1)).iter().collect(),
                    2 => BBox::new(origin, origin + Pos::new(3, 1, 0)).iter().collect(),
                    _ => BBox::new(origin, origin + Pos::new(2, 0, 2)).iter().collect(),
                };
                let map: FxHashMap<Pos, Block> = cells.iter().map(|p| (*p, block)).collect();
                let cells: Vec<(Pos, Block)> = map.iter().map(|(p, b)| (*p, *b)).collect();
                let id = m.add_cells(MemoryKind::BlockObject, &cells)?;
                let s = attributes::block_object(&map).expect("non-empty");
                m.set_object_extent(id, s.pos, s.bbox, s.voxels)?;
                m.set_perceived(id, &s.facts)?;
                all.extend(cells);
            }
            Ok(())
        })
        .expect("populate");
    all
}

fn query_figures() -> Vec<Figure> {
    let memory = populated_memory(10_000);
    let chat = "destroy the red tower closest to me";
    assert_eq!(tokenize(chat)[2], "red");
    let filters: Filters = serde_json::from_value(serde_json::json!({
        "where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": [0, [2, 2]]},
                                 {"pred_text": "has_name", "obj_text": [0, [3, 3]]}]},
        "selector": {"return_quantity": {"argval": {"polarity": "MIN", "quantity": {"attribute": {"linear_extent":
            {"source": {"reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}}}}}}},
            "ordinal": {"fixed_value": "FIRST"}}
    }))
    .expect("filters");
    let ctx = QueryContext::new(chat).speaker("alice", Vec3::new(3.5, 5.0, -7.5), Look::default());
    for _ in 0..20 {
        let r = memory.query(&filters, &ctx).expect("query");
        assert_eq!(r.hits.len(), 1);
    }
    let rounds = 200;
    // Cold: as if triples had just changed (perception saw a block placed), so every id list is
    // read from the index.
    let t = Instant::now();
    for _ in 0..rounds {
        memory.lookups.clear();
        std::hint::black_box(memory.query(&filters, &ctx).expect("query"));
    }
    let cold = t.elapsed().as_secs_f64() * 1000.0 / rounds as f64;
    // Warm: the same lists again (several references resolved in one tick).
    let t = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(memory.query(&filters, &ctx).expect("query"));
    }
    let warm = t.elapsed().as_secs_f64() * 1000.0 / rounds as f64;
    let bytes = memory.size_bytes().expect("size");
    vec![
        figure("filter_query_10k_memories_ms", cold, "ms"),
        figure("filter_query_10k_memories_cached_ms", warm, "ms"),
        figure("memory_10k_objects_mb", bytes as f64 / 1_000_000.0, "MB"),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    #[ignore = "benchmark: run in release with --ignored"]
    fn memory_figures() {
        for f in super::run() {
            println!("{f}");
        }
    }

    #[test]
    fn a_small_populated_memory_answers() {
        let m = super::populated_memory(50);
        assert_eq!(m.objects_of_kind(crate::memory::MemoryKind::BlockObject).unwrap().len(), 50);
    }
}
