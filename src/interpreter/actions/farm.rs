//! PLANT: "plant seeds here", "make a 9 by 9 wheat farm with water in the middle". A square
//! field centred where the player says (or points), tilled to farmland, with water in the
//! middle (wheat beside water grows, as in Minecraft) and wheat on the rest.

use crate::interpreter::context::Turn;
use crate::interpreter::location::{self, Purpose};
use crate::interpreter::problem::{Problem, Result};
use crate::interpreter::recipe::Recipe;
use crate::logical_form::Action;
use crate::tasks::{Limits, Plant as PlantTask, Task, TaskError, TaskKind, Times};
use crate::world::Pos;

use super::{Plan, push};

/// The side of a field when none is said.
const DEFAULT_SIDE: i32 = 5;
/// The largest side of one field.
const MAX_SIDE: i32 = 15;

#[derive(Debug, Clone, PartialEq)]
pub struct Plant {
    pub ground: Vec<Pos>,
    pub water: Vec<Pos>,
    pub label: String,
}

impl Recipe for Plant {
    fn kind(&self) -> TaskKind {
        TaskKind::Farm
    }
    fn task(&self, limits: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(PlantTask::new(self.ground.clone(), self.water.clone(), self.label.clone(), limits)?))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Soil a field can be tilled in.
fn soil(name: &str) -> bool {
    // lexicon: Minecraft block ids (game knowledge), not words.
    matches!(name, "grass_block" | "dirt" | "farmland" | "coarse_dirt" | "podzol" | "rooted_dirt" | "dirt_path")
}

/// The grass or dirt under a `wide` × `long` field centred on `centre`, each column's top.
fn soil_under(turn: &Turn, centre: Pos, wide: i32, long: i32) -> Vec<Pos> {
    let mut ground = Vec::new();
    for dx in -(wide / 2)..wide - wide / 2 {
        for dz in -(long / 2)..long - long / 2 {
            let (x, z) = (centre.x + dx, centre.z + dz);
            let y = location::ground(turn.world, x, z, centre.y) - 1;
            let p = Pos::new(x, y, z);
            if soil(turn.world.block_at(p).name()) && !turn.world.block_at(p.up(1)).is_solid() {
                ground.push(p);
            }
        }
    }
    ground
}

pub(super) fn plant(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let centre: Pos = location::place_or_default(turn, a.location.as_ref(), Purpose::Place)?.pos;
    // The side: the largest measure said ("9 by 9"), else a small field.
    let words = a.schematic.as_ref().and_then(|s| s.text_span).map(|s| turn.words(s)).unwrap_or_default();
    let measured: Vec<i64> = (0..words.len()).filter_map(|i| crate::schematics::numbers::read_number(&words, i).map(|(v, _)| v)).collect();
    let said_side = a.schematic.as_ref().and_then(|s| s.filters.as_ref()).map(|f| {
        f.triples().iter().filter_map(|t| t.obj_span()).filter_map(|s| super::number(&turn.words(s))).max()
    });
    let said = said_side.flatten().or(measured.iter().copied().max());
    // "plant more seeds": farmland already tilled and bare nearby is sown first.
    if said.is_none() {
        let bare: Vec<Pos> = crate::interpreter::finding::blocks_near(turn.world, crate::interpreter::finding::around(centre, 8, 4, 4), centre, |n| n == "farmland")
            .into_iter()
            .filter(|p| turn.world.block_at(p.up(1)).is_air())
            .collect();
        if !bare.is_empty() {
            let label = format!("the {} bare farmland near {centre}", bare.len());
            let doing = format!("sowing {label}");
            return Ok(push(Plant { ground: bare, water: Vec::new(), label }, Times::Count(1), doing));
        }
    }
    // "3 by 7": both sides; one number is a square.
    let (wide, long) = match measured.as_slice() {
        [a, b, ..] => (*a as i32, *b as i32),
        _ => {
            let side = said.map(|n| n as i32).unwrap_or(DEFAULT_SIDE);
            (side, side)
        }
    };
    if !(1..=MAX_SIDE).contains(&wide) || !(1..=MAX_SIDE).contains(&long) {
        return Err(Problem::say(format!("A field can be 1 to {MAX_SIDE} blocks on a side; {wide} by {long} is too big for one go.")));
    }
    // Never over the speaker's feet: the field moves on ahead of them until they stand clear.
    let mut centre = centre;
    let me = turn.speaker_block();
    let ahead = crate::interpreter::directions::forward(turn.speaker_look);
    let covers = |c: Pos| (c.x - wide / 2..c.x + wide - wide / 2).contains(&me.x) && (c.z - long / 2..c.z + long - long / 2).contains(&me.z);
    for _ in 0..MAX_SIDE {
        if !covers(centre) {
            break;
        }
        centre = centre + Pos::new(ahead.x, 0, ahead.z);
    }
    let enough = |g: &Vec<Pos>| g.len() * 2 >= (wide * long) as usize;
    let mut ground = soil_under(turn, centre, wide, long);
    // Not soil there (sand, stone, a pond): the other sides of the speaker, nearest first.
    if !enough(&ground) {
        let (ox, oz) = (wide / 2 + 2, long / 2 + 2);
        let sides = [Pos::new(ox, 0, 0), Pos::new(-ox, 0, 0), Pos::new(0, 0, oz), Pos::new(0, 0, -oz)];
        if let Some((c, g)) = sides.iter().map(|d| me + *d).map(|c| (c, soil_under(turn, c, wide, long))).find(|(_, g)| enough(g)) {
            centre = c;
            ground = g;
        }
    }
    if !enough(&ground) {
        let top = location::ground(turn.world, centre.x, centre.z, centre.y) - 1;
        let there = crate::lexicon::lexicon().display_name(turn.world.block_at(Pos::new(centre.x, top, centre.z)).name());
        return Err(Problem::say(format!("The ground around here is {there}, not soil I can till; try on grass or dirt.")));
    }
    let middle = Pos::new(centre.x, location::ground(turn.world, centre.x, centre.z, centre.y) - 1, centre.z);
    let water = if wide.min(long) >= 3 && ground.contains(&middle) { vec![middle] } else { Vec::new() };
    let label = format!("a {wide} by {long} wheat field at {}", Pos::new(centre.x, middle.y + 1, centre.z));
    let doing = format!("planting {label}");
    Ok(push(Plant { ground, water, label }, Times::Count(1), doing))
}
