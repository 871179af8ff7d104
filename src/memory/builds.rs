//! What the bot builds keeps what it was asked to be.
//!
//! Perception alone sees connected blocks and guesses shapes, so a wall could come back as "the
//! red tower" and stairs built against a tower swallowed it into one "structure". Instead, when a
//! build starts the object it makes is *reserved*: a block object whose name, colour and material
//! are the words the player used (stored as `told`, so perception's guesses never replace them),
//! marked `built_for` the player who asked (its `created_tick` says when), with a *plan* — the cells
//! the build means to place. Perception gives the bot's blocks on planned cells to that object,
//! keeps it out of connectivity merges and splits (it is the task's blocks, not a connected
//! component), and no longer guesses its shape. When the build ends the plan is dropped; a plan
//! still there after a restart is a build that was cut off, which the bot offers to finish.

use rusqlite::params;

use super::error::Result;
use super::objects::{bbox_of, centroid, read_cells};
use super::store::Memory;
use super::triples::NewTriple;
use super::types::{MemoryId, MemoryKind, Source};
use crate::world::{Block, Pos};

/// Marks an object a build made; its text is the player it was built for.
pub const BUILT_FOR: &str = "built_for";

/// What a build is asked to make, in the player's words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Made {
    /// What it is: "wall", "dome", "house".
    pub name: String,
    pub colour: Option<String>,
    /// A material the player named: "stone bricks", "glass".
    pub block_type: Option<String>,
    /// Who asked for it.
    pub speaker: String,
}

impl Memory {
    /// Reserves the object a build will make: its row (placed where the plan is, with no blocks
    /// yet), what it was asked to be, and its plan. It is what "that" means next.
    pub fn reserve_build(&mut self, made: &Made, plan: &[(Pos, Block)]) -> Result<MemoryId> {
        let tick = self.tick();
        self.batch(|m| {
            let id = m.planned_object(plan, tick)?;
            if !made.name.trim().is_empty() {
                m.add_triple(NewTriple::text(id, "has_name", made.name.trim()).source(Source::Told))?;
            }
            if let Some(c) = made.colour.as_deref().filter(|c| !c.trim().is_empty()) {
                m.add_triple(NewTriple::text(id, "has_colour", c.trim()).source(Source::Told))?;
            }
            if let Some(b) = made.block_type.as_deref().filter(|b| !b.trim().is_empty()) {
                m.add_triple(NewTriple::text(id, "has_block_type", b.trim()).source(Source::Told))?;
            }
            m.add_triple(NewTriple::text(id, BUILT_FOR, &made.speaker).source(Source::Inferred))?;
            m.set_plan(id, plan)?;
            m.attend(id, tick)?;
            Ok(id)
        })
    }

    /// A new block object placed where `plan` will put its blocks, with none yet.
    fn planned_object(&mut self, plan: &[(Pos, Block)], tick: u64) -> Result<MemoryId> {
        let id = self.new_memory(MemoryKind::BlockObject, tick)?;
        let cells = plan.iter().filter(|(_, b)| !b.is_air()).map(|(p, _)| *p);
        let bbox = bbox_of(cells.clone()).unwrap_or(crate::world::BBox::new(Pos::default(), Pos::default()));
        self.insert_object_row(id, MemoryKind::BlockObject, centroid(cells), bbox, 0)?;
        Ok(id)
    }

    /// Replaces what is left to build of `id` (finishing a build that was cut off).
    pub fn set_plan(&mut self, id: MemoryId, plan: &[(Pos, Block)]) -> Result<()> {
        self.batch(|m| {
            m.conn.prepare_cached("DELETE FROM plans WHERE object_id = ?1")?.execute([id])?;
            let mut insert =
                m.conn.prepare_cached("INSERT OR REPLACE INTO plans (object_id, x, y, z, block) VALUES (?1, ?2, ?3, ?4, ?5)")?;
            for (p, b) in plan.iter().filter(|(_, b)| !b.is_air()) {
                insert.execute(params![id, p.x, p.y, p.z, b.name()])?;
            }
            Ok(())
        })?;
        self.plans_changed += 1;
        Ok(())
    }

    /// The build of `id` is over (done, failed or cancelled): its plan goes, and so does the
    /// object if not one block of it was placed.
    pub fn finish_plan(&mut self, id: MemoryId) -> Result<()> {
        self.conn.prepare_cached("DELETE FROM plans WHERE object_id = ?1")?.execute([id])?;
        let blocks: i64 =
            self.conn.prepare_cached("SELECT COUNT(*) FROM object_blocks WHERE object_id = ?1")?.query_row([id], |r| r.get(0))?;
        if blocks == 0 {
            self.forget(id)?;
        }
        self.plans_changed += 1;
        Ok(())
    }

    /// What players and builds said about `id` — names, tags, colour, material, who it was built
    /// for — as (predicate, text, source), not perception's guesses: what a thing taken down
    /// keeps, so that putting it back brings back the thing and not only its blocks.
    pub fn said_about(&self, id: MemoryId) -> Result<Vec<(String, String, String)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT pred, obj_text, source FROM triples
             WHERE subj = ?1 AND obj_text IS NOT NULL AND source <> 'perceived' ORDER BY id",
        )?;
        let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Brings back a thing taken down (an undone destroy) as a reserved build: a new object with
    /// what was said about it ([`Memory::said_about`]) and its blocks as the plan, so the blocks
    /// put back are its blocks. `None` when some of those cells belong to an object still known
    /// (it was not all taken down, and keeps its own name).
    /// It keeps the tick it was first made at (`since`), so it keeps its place among the things
    /// built ("the first thing you built").
    pub fn revive(&mut self, said: &[(String, String, String)], plan: &[(Pos, Block)], since: u64) -> Result<Option<MemoryId>> {
        for (p, _) in plan {
            if self.object_at(*p)?.is_some() {
                return Ok(None);
            }
        }
        let tick = self.tick();
        self.batch(|m| {
            let id = m.planned_object(plan, since.min(tick))?;
            for (pred, text, source) in said {
                m.add_triple(NewTriple::text(id, pred, text).source(Source::parse(source).unwrap_or(Source::Told)))?;
            }
            m.set_plan(id, plan)?;
            m.attend(id, tick)?;
            Ok(Some(id))
        })
    }

    /// Every planned cell: (object, position, block).
    pub fn plans(&self) -> Result<Vec<(MemoryId, Pos, Block)>> {
        let mut stmt = self.conn.prepare_cached("SELECT object_id, x, y, z, block FROM plans ORDER BY object_id, y, x, z")?;
        read_cells(&mut stmt, [])
    }

    /// A counter that moves whenever a plan is made, changed or dropped (perception reloads the
    /// planned cells when it does). It lives in this process only.
    pub fn plans_version(&self) -> u64 {
        self.plans_changed
    }

    /// The objects builds made, oldest first.
    pub fn built_objects(&self) -> Result<Vec<MemoryId>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT DISTINCT t.subj, m.created_tick FROM triples t JOIN reference_objects o ON o.id = t.subj
             JOIN memories m ON m.id = t.subj WHERE t.pred = ?1 ORDER BY m.created_tick, t.subj",
        )?;
        let rows = stmt.query_map([BUILT_FOR], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Objects whose build was cut off: each with the cells of its plan.
    pub fn unfinished_builds(&self) -> Result<Vec<(MemoryId, Vec<(Pos, Block)>)>> {
        let mut out: Vec<(MemoryId, Vec<(Pos, Block)>)> = Vec::new();
        for (id, p, b) in self.plans()? {
            match out.last_mut() {
                Some((last, cells)) if *last == id => cells.push((p, b)),
                _ => out.push((id, vec![(p, b)])),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall() -> Vec<(Pos, Block)> {
        (0..3).map(|x| (Pos::new(x, 5, 0), Block::from_name("red_wool").unwrap())).collect()
    }

    #[test]
    fn a_reserved_build_carries_its_name_and_plan_until_it_ends() {
        let mut m = Memory::in_memory().unwrap();
        let made = Made { name: "wall".into(), colour: Some("red".into()), block_type: None, speaker: "alice".into() };
        let v = m.plans_version();
        let id = m.reserve_build(&made, &wall()).unwrap();
        assert!(m.plans_version() > v);
        assert_eq!(m.values_of(id, "has_name").unwrap(), ["wall"]);
        assert_eq!(m.values_of(id, BUILT_FOR).unwrap(), ["alice"]);
        assert_eq!(m.built_objects().unwrap(), [id]);
        assert_eq!(m.unfinished_builds().unwrap(), [(id, wall())]);
        assert_eq!(m.last_attended(&[]).unwrap(), Some(id), "what it starts building is \"that\"");
        // Nothing was placed: ending the build forgets the empty reservation.
        m.finish_plan(id).unwrap();
        assert!(m.plans().unwrap().is_empty());
        assert!(m.kind_of(id).unwrap().is_none());
    }

    #[test]
    fn a_thing_taken_down_comes_back_with_what_was_said_about_it() {
        let mut m = Memory::in_memory().unwrap();
        let made = Made { name: "wall".into(), colour: Some("red".into()), block_type: None, speaker: "alice".into() };
        let id = m.reserve_build(&made, &wall()).unwrap();
        m.add_triple(NewTriple::text(id, "has_tag", "ruby").source(Source::Told)).unwrap();
        m.add_triple(NewTriple::text(id, "has_shape", "cuboid").source(Source::Perceived)).unwrap();
        let said = m.said_about(id).unwrap();
        assert!(said.iter().all(|(pred, _, _)| pred != "has_shape"), "perception's guesses are not kept: {said:?}");
        for (p, b) in wall() {
            m.put_cell(id, p, b).unwrap();
        }
        // Its blocks still belong to it: nothing is brought back beside it.
        assert_eq!(m.revive(&said, &wall(), 0).unwrap(), None);
        m.set_tick(50);
        let other = m.reserve_build(&Made { name: "tower".into(), ..made.clone() }, &[(Pos::new(9, 5, 9), Block::from_name("stone").unwrap())]).unwrap();
        let since = m.info(id).unwrap().unwrap().created_tick;
        m.forget(id).unwrap();
        m.set_tick(90);
        let back = m.revive(&said, &wall(), since).unwrap().expect("brought back");
        assert_eq!(m.built_objects().unwrap(), [back, other], "it keeps its place among the things built");
        assert_eq!(m.values_of(back, "has_tag").unwrap(), ["ruby"]);
        assert_eq!(m.values_of(back, BUILT_FOR).unwrap(), ["alice"]);
        assert!(m.unfinished_builds().unwrap().contains(&(back, wall())), "its blocks are its plan while they go back");
    }
}
