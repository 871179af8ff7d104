//! COLLECT: "chop down that tree", "get me 20 oak logs" said as "collect", "mine the coal near
//! me", "find me some diamonds", "harvest the wheat", "mine 16 stone starting from 10 60 5".
//!
//! The thing's words name a kind of resource (the lexicon's `[resources]`): wood, an ore by its
//! metal, stone, wheat, dirt or sand. The bot looks around where it was asked (the speaker, or
//! the place said) for the nearest of it — a tree, an ore vein with a safe staircase down to
//! it, ripe wheat — and gathers it; with "for me" it hands over what was asked for.

use crate::interpreter::context::Turn;
use crate::interpreter::finding::{self, around, blocks_near};
use crate::interpreter::location::{self, Purpose};
use crate::interpreter::problem::{Problem, Result};
use crate::interpreter::recipe::Recipe;
use crate::lexicon::{Group, lexicon};
use crate::logical_form::{Action, FixedReference};
use crate::tasks::{Delivery, Gather as GatherTask, Limits, Task, TaskError, TaskKind, Times};
use crate::world::rules::{self, RIPE};
use crate::world::Pos;

use super::{Plan, push};

/// How far around the place asked the bot looks for trees, crops and surface blocks.
const LOOK_AROUND: i32 = 32;
/// How far sideways it looks for ore (it looks all the way down).
const ORE_AROUND: i32 = 24;
/// Surface blocks or stone taken when no count is said.
const DEFAULT_BLOCKS: usize = 16;
/// Trees chopped for "some trees" or "trees" with no number.
const SOME_TREES: usize = 3;
/// The most ore veins one command digs to.
const MAX_VEINS: usize = 4;
/// How far from the first vein another may be and still be dug from the same staircase.
const VEIN_REACH: i32 = 3;

/// Break `wanted` (and `way`) and keep what they give; hand it over when `delivery` says.
#[derive(Debug, Clone, PartialEq)]
pub struct Gather {
    pub wanted: Vec<Pos>,
    pub way: Vec<Pos>,
    /// More veins after the first, each (ore, its own stairs), dug in turn.
    pub more: Vec<(Vec<Pos>, Vec<Pos>)>,
    pub replant: Vec<Pos>,
    pub label: String,
    /// How it will go, said when it starts ("50 blocks down, by a staircase").
    pub how: Option<String>,
    pub delivery: Option<Delivery>,
    /// Crops not ripe yet: wait for them, then harvest.
    pub ripen: bool,
}

impl Recipe for Gather {
    fn kind(&self) -> TaskKind {
        TaskKind::Gather
    }
    fn task(&self, limits: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        let extra: usize = self.more.iter().map(|(o, w)| o.len() + w.len()).sum();
        limits.check_blocks(self.wanted.len() + self.way.len() + extra, "gather")?;
        let mut g = GatherTask::new(self.wanted.clone(), self.way.clone(), self.label.clone(), limits)?.replanting(self.replant.clone());
        for (ore, way) in &self.more {
            g = g.then_also(ore.clone(), way.clone());
        }
        if let Some(d) = &self.delivery {
            g = g.delivering(d.clone());
        }
        if self.ripen {
            g = g.once_ripe();
        }
        Ok(Box::new(g))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// What the player's words ask to gather.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// Trees, of one wood or any.
    Wood(Option<String>),
    /// An ore by its metal ("coal"), or any ore.
    Ore(Option<String>),
    Stone,
    Wheat,
    /// A surface block (dirt, sand).
    Surface(&'static str),
}

fn kind_of(words: &[String]) -> Option<Kind> {
    let lx = lexicon();
    let meaning = (0..words.len()).find_map(|i| lx.meaning_at(Group::Resource, words, i).map(|(m, _)| m))?;
    // lexicon: the `[resources]` kinds and Minecraft block ids (game knowledge), not words.
    Some(match meaning {
        // "oak wood", "birch planks": logs of that wood.
        "wood" => Kind::Wood(rules::item_id(words).and_then(|id| rules::recipes::wood_of(&id).map(|w| format!("{w}_log")))),
        "ore" => Kind::Ore(None),
        "stone" => Kind::Stone,
        "wheat" => Kind::Wheat,
        "dirt" => Kind::Surface("dirt"),
        "sand" => Kind::Surface("sand"),
        metal => Kind::Ore(Some(metal.to_string())),
    })
}

pub(super) fn collect(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I gather?"))?;
    let words = r.text_span.map(|s| turn.words(s)).unwrap_or_default();
    // "plant some wheat … harvest it when its ready": "it" is the field the step before planted.
    // Said on a line of its own, "it" is the wheat growing by the speaker.
    let pointing = words.iter().all(|w| lexicon().is(crate::lexicon::Class::Pointing, w));
    let planted = pointing
        && match turn.antecedent.as_ref() {
            Some(a) => a.cells.iter().any(|p| turn.world.block_at(*p).name() == "wheat"),
            None => !blocks_near(turn.world, around(turn.speaker_block(), LOOK_AROUND / 2, 6, 6), turn.speaker_block(), |n| n == "wheat").is_empty(),
        };
    let kind = match kind_of(&words) {
        Some(k) => k,
        None if planted => Kind::Wheat,
        None => return Err(Problem::say(format!("I can mine ore and stone, chop trees and harvest wheat, but I don't know how to gather \"{}\".", words.join(" ")))),
    };
    let count = made_for(&words).or_else(|| super::number(&words).map(|n| n.clamp(1, 9 * 64) as usize));
    let centre = match &a.location {
        Some(l) => location::resolve(turn, l, Purpose::Move)?.pos,
        None if planted => turn.antecedent.as_ref().and_then(|x| x.spot()).unwrap_or_else(|| turn.speaker_block()),
        // "go to the farm and harvest the wheat": where the walk ended.
        None if turn.antecedent.as_ref().is_some_and(|x| x.walked) => turn.agent_pos(),
        None => turn.speaker_block(),
    };
    let tree_word = words.iter().find(|w| lexicon().is(crate::lexicon::Class::TreeWord, w));
    let counts_trees = matches!(kind, Kind::Wood(_)) && tree_word.is_some();
    let for_speaker = a.receiver.as_ref().and_then(|e| e.reference_object.as_ref()).is_some_and(|r| r.fixed_reference() == Some(FixedReference::Speaker));
    let (mut g, items) = match kind {
        // "chop 3 trees": the number counts trees; "some trees", a few.
        Kind::Wood(wood) if let Some(tree) = tree_word => {
            let plural = tree.ends_with('s');
            wood_plan(turn, centre, wood, None, count.or(plural.then_some(SOME_TREES)))?
        }
        Kind::Wood(wood) => wood_plan(turn, centre, wood, count, None)?,
        Kind::Ore(metal) => ore_plan(turn, centre, metal, count)?,
        Kind::Stone => stone_plan(turn, centre, count.unwrap_or(DEFAULT_BLOCKS))?,
        Kind::Wheat => wheat_plan(turn, centre, count)?,
        Kind::Surface(block) => surface_plan(turn, centre, block, count.unwrap_or(DEFAULT_BLOCKS))?,
    };
    if for_speaker {
        // A count of trees is no count of items: all the logs are handed over.
        let at_most = count.filter(|_| !counts_trees).map(|n| n as u32);
        g.delivery = Some(Delivery { player: turn.speaker.clone(), items, at_most });
    }
    let label = match &g.how {
        Some(how) => format!("gathering {} ({how})", g.label),
        None => format!("gathering {}", g.label),
    };
    Ok(push(g, Times::Count(1), label))
}

/// "wheat for 2 bread": as much as the things it is for need (6 wheat).
fn made_for(words: &[String]) -> Option<usize> {
    let at = words.iter().position(|w| w == "for")?;
    let what = &words[..at];
    let item = rules::recipes::craftable(&words[at + 1..])?;
    let n = super::number(&words[at + 1..]).unwrap_or(1).max(1) as u32;
    let recipe = rules::recipes::recipes(&item).into_iter().next()?;
    let gathered = rules::item_id(what);
    let need = recipe.needs.iter().find(|(i, _)| gathered.as_deref().is_none_or(|g| g == i)).map(|(_, k)| *k)?;
    Some((n.div_ceil(recipe.makes) * need) as usize)
}

fn gather(wanted: Vec<Pos>, way: Vec<Pos>, label: String) -> Gather {
    Gather { wanted, way, more: Vec::new(), replant: Vec::new(), label, how: None, delivery: None, ripen: false }
}

/// Trees nearest the place (the one the speaker points at first), enough for `count` logs, or
/// as many trees as asked.
fn wood_plan(turn: &Turn, centre: Pos, wood: Option<String>, count: Option<usize>, trees_asked: Option<usize>) -> Result<(Gather, Vec<String>)> {
    let pointed = turn.look_hit.map(|h| h.block).filter(|p| {
        let n = turn.world.block_at(*p);
        n.name().ends_with("_log") || n.name().ends_with("_leaves")
    });
    let trees = finding::trees_near(turn.world, centre, LOOK_AROUND, wood.as_deref(), pointed);
    let Some(first) = trees.first() else {
        let what = wood.map(|w| lexicon().display_name(&w).to_string()).unwrap_or_else(|| "tree".into());
        return Err(Problem::say(format!("I don't see any {what} within {LOOK_AROUND} blocks of here.")));
    };
    let (mut logs, mut leaves, mut n) = (Vec::new(), Vec::new(), 0);
    for t in &trees {
        logs.extend(t.logs.iter().copied());
        leaves.extend(t.leaves.iter().copied());
        n += 1;
        let enough = match trees_asked {
            Some(t) => n >= t,
            None => count.is_none_or(|c| logs.len() >= c),
        };
        if enough {
            break;
        }
    }
    let name = lexicon().display_name(first.wood.trim_end_matches("_log")).to_string();
    let label = if n == 1 { format!("the {name} tree at {}", first.logs[0]) } else { format!("{n} trees near {centre}") };
    let items: Vec<String> = trees.iter().take(n).map(|t| t.wood.clone()).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    Ok((gather(logs, leaves, label), items))
}

/// Does block `name` count as ore of `metal` (any ore without one)?
fn is_ore_of(name: &str, metal: Option<&str>) -> bool {
    let Some(base) = name.strip_suffix("_ore") else { return false };
    let base = base.strip_prefix("deepslate_").unwrap_or(base);
    metal.is_none_or(|m| base == m)
}

/// The nearest vein of the ore with a safe staircase down to it.
fn ore_plan(turn: &Turn, centre: Pos, metal: Option<String>, count: Option<usize>) -> Result<(Gather, Vec<String>)> {
    let world = turn.world;
    let depth = centre.y - rules::MIN_Y;
    let candidates = blocks_near(world, around(centre, ORE_AROUND, depth, 8), centre, |n| is_ore_of(n, metal.as_deref()));
    let what = metal.clone().map(|m| format!("{m} ore")).unwrap_or_else(|| "ore".into());
    if candidates.is_empty() {
        return Err(Problem::say(format!("There's no {what} within {ORE_AROUND} blocks of here, all the way down.")));
    }
    let from = turn.agent_pos();
    // Veins nearest first, each with its own safe staircase, until there is enough ore: one
    // within reach of the first vein's foot shares its stairs; one farther gets stairs of its
    // own, kept clear of every staircase before it, and is dug after them.
    let wanted = count.unwrap_or(1);
    let mut veins: Vec<(Vec<Pos>, Vec<Pos>)> = Vec::new();
    let taken = |veins: &[(Vec<Pos>, Vec<Pos>)], p: &Pos| veins.iter().any(|(o, w)| o.contains(p) || w.contains(p));
    for p in candidates.iter().take(48) {
        if taken(&veins, p) {
            continue;
        }
        let Some(vein) = finding::vein_with_stairs(world, *p, from, wanted.max(8)) else { continue };
        match veins.first_mut() {
            Some((first, way)) if p.chebyshev(first[0]) <= VEIN_REACH => {
                way.extend(finding::headroom(world, &vein.ore));
                first.extend(vein.ore);
            }
            Some(_) => {
                let near = |q: &Pos| veins.iter().any(|(o, w)| o.iter().chain(w).any(|c| c.chebyshev(*q) <= 1));
                if vein.stairs.iter().chain(&vein.ore).any(near) {
                    continue;
                }
                veins.push((vein.ore, vein.stairs));
            }
            None => veins.push((vein.ore, vein.stairs)),
        }
        let found: usize = veins.iter().map(|(o, _)| o.len()).sum();
        if found >= wanted || veins.len() >= MAX_VEINS {
            break;
        }
    }
    let Some(first) = veins.first().map(|(o, _)| o[0]) else {
        return Err(Problem::say(format!("I found {what} at {}, but every way down is next to water or lava, so I won't dig there.", candidates[0])));
    };
    let mut rest = veins.split_off(1);
    let (ore, mut stairs) = veins.pop().expect("the first vein");
    stairs.retain(|s| !ore.contains(s));
    for (o, w) in &mut rest {
        w.retain(|s| !o.contains(s));
    }
    let all = ore.len() + rest.iter().map(|(o, _)| o.len()).sum::<usize>();
    let kind = world.block_at(first);
    let items: Vec<String> = rules::drops(kind, false).into_iter().map(|(i, _)| i.to_string()).collect();
    let below = centre.y - first.y;
    let name = lexicon().display_name(kind.name()).to_string();
    let label = if rest.is_empty() { format!("the {name} at {first}") } else { format!("{all} {name} in {} veins near {first}", rest.len() + 1) };
    let mut g = gather(ore, stairs, label);
    g.more = rest;
    g.how = Some(format!("{} blocks down, by a staircase", below.max(0)));
    Ok((g, items))
}

/// Stone under the place: a staircase down to the first stone, and the stone around its foot.
fn stone_plan(turn: &Turn, centre: Pos, count: usize) -> Result<(Gather, Vec<String>)> {
    let world = turn.world;
    // Stone lying open near the place (a pile of cobblestone, a rock face): taken as it is.
    // lexicon: Minecraft block ids (game knowledge), not words.
    let open = |n: &str| matches!(n, "stone" | "cobblestone" | "deepslate" | "cobbled_deepslate");
    let exposed: Vec<Pos> = blocks_near(world, around(centre, 5, 2, 4), centre, open)
        .into_iter()
        .filter(|p| p.faces().iter().any(|n| !world.block_at(*n).is_solid()))
        .collect();
    if exposed.len() >= count.min(4) {
        let pile: Vec<Pos> = blocks_near(world, around(centre, 5, 2, 4), centre, open).into_iter().take(count).collect();
        let label = format!("{} stone near {centre}", pile.len());
        return Ok((gather(pile, Vec::new(), label), vec!["cobblestone".into(), "cobbled_deepslate".into()]));
    }
    let stone = blocks_near(world, around(centre, 8, 40, 4), centre, |n| n == "stone" || n == "cobblestone" || n == "deepslate");
    let from = turn.agent_pos();
    let vein = stone.iter().take(24).find_map(|p| finding::vein_with_stairs(world, *p, from, count));
    let Some(vein) = vein else {
        return Err(Problem::say("I can't find stone I could dig to safely near here.".to_string()));
    };
    let label = format!("{count} stone at {}", vein.ore[0]);
    Ok((gather(vein.ore, vein.stairs, label), vec!["cobblestone".into(), "cobbled_deepslate".into()]))
}

/// Ripe wheat near the place, planted again once harvested.
fn wheat_plan(turn: &Turn, centre: Pos, count: Option<usize>) -> Result<(Gather, Vec<String>)> {
    let world = turn.world;
    let crops = blocks_near(world, around(centre, LOOK_AROUND / 2, 6, 6), centre, |n| n == "wheat");
    let ripe: Vec<Pos> = crops.iter().copied().filter(|p| world.crop_age(*p) == Some(RIPE)).take(count.unwrap_or(usize::MAX)).collect();
    if crops.is_empty() {
        return Err(Problem::say("I don't see any wheat near here. Say \"plant seeds here\" to start a field."));
    }
    // None ripe yet ("plant seeds here then harvest the wheat when it's ready"): wait for it.
    if ripe.is_empty() {
        let growing: Vec<Pos> = crops.iter().copied().take(count.unwrap_or(usize::MAX)).collect();
        let mut g = gather(growing.clone(), Vec::new(), format!("the {} wheat plants", growing.len()));
        g.replant = growing;
        g.ripen = true;
        g.how = Some("once it's ripe: wheat takes about half a minute".into());
        return Ok((g, vec!["wheat".into()]));
    }
    let unripe = crops.len() - ripe.len();
    let label = match count {
        None if unripe > 0 => format!("{} ripe wheat ({unripe} more not ripe yet: ask again in a little while)", ripe.len()),
        _ => format!("{} ripe wheat", ripe.len()),
    };
    let mut g = gather(ripe.clone(), Vec::new(), label);
    g.replant = ripe;
    Ok((g, vec!["wheat".into()]))
}

/// Blocks of dirt or sand from the surface near the place.
fn surface_plan(turn: &Turn, centre: Pos, block: &str, count: usize) -> Result<(Gather, Vec<String>)> {
    let world = turn.world;
    // lexicon: Minecraft block ids (game knowledge): grass blocks give dirt.
    let matches = |n: &str| n == block || (block == "dirt" && n == "grass_block");
    let cells: Vec<Pos> = blocks_near(world, around(centre, 6, 4, 3), centre, matches)
        .into_iter()
        .filter(|p| !world.block_at(p.up(1)).is_solid() && world.made_by_world(*p))
        .take(count)
        .collect();
    if cells.is_empty() {
        return Err(Problem::say(format!("I don't see any {block} on the ground near here.")));
    }
    let label = format!("{} {block}", cells.len());
    Ok((gather(cells, Vec::new(), label), vec![block.to_string()]))
}
