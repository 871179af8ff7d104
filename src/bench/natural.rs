//! The natural world's costs, reported with `bench tasks`:
//!
//! - `natural_chunk_ms`: making one 16×16 chunk's columns (ground heights and trees) the first
//!   time anything there is read; mean over 256 chunks of a fresh seed.
//! - `natural_section_us`: reading every block of one 16³ section at the surface (trees, grass,
//!   water) once its chunk is made, as perception and the web view do; mean.
//! - `natural_512_kb`: what the chunks of a 512×512 explored area keep (heights and trees).
//! - `natural_start_ms`: a new natural world with the bot and a player put on dry land, and the
//!   web view's first box of blocks read around them (what `craftmate play` does before the first
//!   line; loading the parser is extra).
//! - `crops_tick_us`: one world tick while a 15×15 wheat field (224 crops) grows, minus a tick
//!   of the same world without it: what growing crops add to every tick; mean over 2,000 ticks.

use super::Figure;
use crate::world::embedded::{EmbeddedWorld, Preset, natural};
use crate::world::{Pos, World};
use std::time::Instant;

pub fn run() -> Vec<Figure> {
    // lexicon: figure names and units in a report the bot prints, not words it reads.
    vec![
        Figure::new("natural_chunk_ms", chunk_ms(), "ms"),
        Figure::new("natural_section_us", section_us(), "us"),
        Figure::new("natural_512_kb", explored_kb(), "kB"),
        Figure::new("natural_start_ms", start_ms(), "ms"),
        Figure::new("crops_tick_us", crops_tick_us(), "us"),
    ]
}

fn chunk_ms() -> f64 {
    let t = natural::terrain(9001);
    let started = Instant::now();
    for i in 0..256 {
        t.ground(i % 16 * 16, i / 16 * 16);
    }
    started.elapsed().as_secs_f64() * 1e3 / 256.0
}

fn section_us() -> f64 {
    let t = natural::terrain(9002);
    let mut n = 0u32;
    let mut air = 0u32;
    let started = Instant::now();
    for s in 0..32 {
        let (x0, z0) = (s * 16, 0);
        let y0 = t.ground(x0 + 8, z0 + 8) - 4;
        for y in y0..y0 + 16 {
            for z in z0..z0 + 16 {
                for x in x0..x0 + 16 {
                    air += u32::from(t.block_at(Pos::new(x, y, z)).is_air());
                    n += 1;
                }
            }
        }
    }
    let us = started.elapsed().as_secs_f64() * 1e6 / 32.0;
    std::hint::black_box((n, air));
    us
}

fn explored_kb() -> f64 {
    let t = natural::terrain(9003);
    for cx in 0..32 {
        for cz in 0..32 {
            t.ground(cx * 16, cz * 16);
        }
    }
    t.kept_bytes() as f64 / 1024.0
}

fn start_ms() -> f64 {
    let started = Instant::now();
    let preset = Preset::Natural { seed: 9004 };
    let mut world = EmbeddedWorld::new(preset, "craftmate", preset.dry_spot_near(0, 0));
    let a = world.agent_pos();
    let p = preset.dry_spot_near(a.x + 3, a.z);
    world.add_player("alice", crate::world::Vec3::new(p.x as f64 + 0.5, p.y as f64, p.z as f64 + 0.5), crate::world::Look::default());
    let surface = crate::web::surface::Surface::scan(&world, crate::web::surface::Surface::area_around(world.agent_pos()));
    std::hint::black_box(surface.len());
    started.elapsed().as_secs_f64() * 1e3
}

/// Mean microseconds a tick takes in `world` over `ticks` ticks.
fn tick_us(world: &mut EmbeddedWorld, ticks: u32) -> f64 {
    let started = Instant::now();
    for _ in 0..ticks {
        world.advance();
    }
    started.elapsed().as_secs_f64() * 1e6 / f64::from(ticks)
}

fn crops_tick_us() -> f64 {
    let block = |n: &str| crate::world::Block::from_name(n).expect("a known block");
    let mut bare = EmbeddedWorld::flat();
    let mut field = EmbeddedWorld::flat();
    for x in -7..=7 {
        for z in -7..=7 {
            if (x, z) != (0, 0) {
                field.set_block_by(Pos::new(x, 4, z), block("farmland"), crate::world::Actor::World);
                field.set_block_by(Pos::new(x, 5, z), block("wheat"), crate::world::Actor::World);
            }
        }
    }
    let (without, with) = (tick_us(&mut bare, 2000), tick_us(&mut field, 2000));
    (with - without).max(0.0)
}
