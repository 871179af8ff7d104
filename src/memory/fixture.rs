//! A small world for tests: towers, cubes, a house, a wall, a hole, players and mobs, perceived
//! into a fresh memory. Filter tests ask questions about it; perception tests edit it.

use crate::memory::{Memory, MemoryId, QueryContext};
use crate::perception::{Perception, PerceptionConfig};
use crate::world::embedded::EmbeddedWorld;
use crate::world::{Actor, BBox, Block, Look, Pos, Vec3, World};

pub struct Fixture {
    pub world: EmbeddedWorld,
    pub memory: Memory,
    pub perception: Perception,
}

pub fn block(name: &str) -> Block {
    Block::from_name(name).expect("fixture blocks exist")
}

/// Landmarks: a cell of each structure, to find its id.
pub const RED_TOWER: Pos = Pos::new(5, 5, 5); // red wool, 1×6×1, near alice
pub const TALL_RED_TOWER: Pos = Pos::new(-8, 5, 3); // red wool, 1×9×1
pub const BLUE_TOWER: Pos = Pos::new(5, 5, -6); // blue wool, 1×5×1
pub const YELLOW_CUBE: Pos = Pos::new(12, 5, -2); // yellow concrete, 3×3×3
pub const GREEN_CUBE: Pos = Pos::new(-12, 5, -12); // green wool, 2×2×2
pub const HOUSE: Pos = Pos::new(-6, 5, 10); // oak planks, hollow 5×4×5 with a door
pub const WALL: Pos = Pos::new(0, 5, -15); // cobblestone, 7×3×1
pub const HOLE: Pos = Pos::new(8, 4, -8); // 2×2×2 dug by alice

impl Fixture {
    pub fn new() -> Fixture {
        let mut world = EmbeddedWorld::flat();
        let set = Actor::World;
        let fill = |w: &mut EmbeddedWorld, a: Pos, b: Pos, name: &str| {
            w.fill_by(BBox::new(a, b), block(name), set.clone());
        };
        fill(&mut world, Pos::new(5, 5, 5), Pos::new(5, 10, 5), "red_wool");
        fill(&mut world, Pos::new(-8, 5, 3), Pos::new(-8, 13, 3), "red_wool");
        fill(&mut world, Pos::new(5, 5, -6), Pos::new(5, 9, -6), "blue_wool");
        fill(&mut world, Pos::new(12, 5, -2), Pos::new(14, 7, 0), "yellow_concrete");
        fill(&mut world, Pos::new(-12, 5, -12), Pos::new(-11, 6, -11), "green_wool");
        fill(&mut world, Pos::new(0, 5, -15), Pos::new(6, 7, -15), "cobblestone");
        // The house: walls and roof of oak planks, a door on the south side.
        let house = BBox::new(Pos::new(-6, 5, 10), Pos::new(-2, 8, 14));
        for p in house.iter() {
            let wall = p.x == -6 || p.x == -2 || p.z == 10 || p.z == 14 || p.y == 8;
            let door = p.x == -4 && p.z == 14 && p.y <= 6;
            if wall && !door {
                world.set_block_by(p, block("oak_planks"), set.clone());
            }
        }
        world.advance();
        // A hole dug by a player.
        for p in BBox::new(Pos::new(8, 3, -8), Pos::new(9, 4, -7)).iter() {
            world.set_block_by(p, Block::AIR, Actor::Player("alice".into()));
        }
        world.add_player("alice", Vec3::new(0.5, 5.0, 2.5), Look::new(0.0, 0.0));
        world.add_player("bob", Vec3::new(20.5, 5.0, 20.5), Look::new(90.0, 0.0));
        world.spawn_mob("pig", Vec3::new(3.5, 5.0, -3.5)).expect("pig");
        world.spawn_mob("cow", Vec3::new(-3.5, 5.0, 3.5)).expect("cow");
        world.spawn_mob("pig", Vec3::new(15.5, 5.0, 15.5)).expect("pig");
        world.spawn_mob("chicken", Vec3::new(-4.5, 5.0, 12.5)).expect("chicken in the house");
        world.advance();
        let mut memory = Memory::in_memory().expect("memory");
        let mut perception = Perception::with_config(PerceptionConfig { scan_radius: 24, scan_below: 6, scan_above: 16 });
        perception.update(&world, &mut memory).expect("perceive");
        Fixture { world, memory, perception }
    }

    /// The id of the object holding cell `p`.
    pub fn id_at(&self, p: Pos) -> MemoryId {
        self.memory.object_at(p).expect("query").unwrap_or_else(|| panic!("no object at {p}"))
    }

    /// Perceive again after editing the world.
    pub fn perceive(&mut self) -> crate::perception::PerceptionReport {
        self.world.advance();
        self.perception.update(&self.world, &mut self.memory).expect("perceive")
    }

    /// A query context for `chat` said by alice (position and look come from memory).
    pub fn ctx(&self, chat: &str) -> QueryContext {
        QueryContext::new(chat).speaker_named("alice").at_tick(self.world.tick())
    }
}
