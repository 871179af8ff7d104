//! The small world a fuzzed bot plays in, and what must hold after every input.
//!
//! A flat world with two players and two things they built (a red cube, a stone tower), so
//! references such as "the red cube" or "that tower" find something. The bot gets a bounded
//! number of ticks after each line: enough to start any task and take its first steps.

use craftmate::agent::Bot;
use craftmate::agent::assistant::Assistant;
use craftmate::parser::Parser;
use craftmate::safety::text::{clean_line, is_unsafe_char};
use craftmate::world::embedded::EmbeddedWorld;
use craftmate::world::{Actor, BBox, Block, Look, Pos, Vec3};

/// Ticks the bot gets after each line (it stops earlier when it is idle).
pub const TICKS_PER_LINE: usize = 80;
/// The most mobs any sequence of commands may leave standing (spawns stop at 60 nearby).
pub const MAX_MOBS: usize = 80;

pub struct Sandbox {
    pub world: EmbeddedWorld,
    pub bot: Assistant,
}

impl Sandbox {
    pub fn new(parser: Option<Box<dyn Parser>>) -> Sandbox {
        let mut world = EmbeddedWorld::flat();
        world.add_player("alice", Vec3::new(3.5, 5.0, 0.5), Look::new(90.0, 0.0));
        world.add_player("bob", Vec3::new(-6.5, 5.0, 4.5), Look::default());
        let alice = Actor::Player("alice".into());
        let block = |name| Block::from_name(name).expect("a registry block");
        world.fill_by(BBox::new(Pos::new(6, 5, -1), Pos::new(8, 7, 1)), block("red_wool"), alice.clone());
        world.fill_by(BBox::new(Pos::new(-4, 5, -6), Pos::new(-4, 10, -6)), block("stone"), alice);
        let bot = Assistant::in_memory(parser).expect("an in-memory memory opens");
        Sandbox { world, bot }
    }

    /// `speaker` says `line`; the bot gets up to [`TICKS_PER_LINE`] ticks; then the checks.
    pub fn say(&mut self, speaker: &str, line: &str) {
        self.world.player_says(speaker, line);
        self.run(TICKS_PER_LINE);
    }

    /// Up to `ticks` ticks (at least one), stopping once the bot has nothing left to do.
    pub fn run(&mut self, ticks: usize) {
        for _ in 0..ticks.max(1) {
            self.world.advance();
            self.bot.tick(&mut self.world);
            if self.bot.is_idle() && !self.bot.is_thinking() {
                break;
            }
        }
        self.check();
    }

    /// What holds whatever was said: every line the bot said is clean, and mobs stay bounded.
    pub fn check(&self) {
        for line in self.world.chat_log().iter().filter(|l| l.from_agent) {
            assert!(!line.text.is_empty(), "the bot said an empty line");
            assert!(!line.text.chars().any(is_unsafe_char), "the bot said an unsafe character: {:?}", line.text);
            assert_eq!(clean_line(&line.text), line.text, "the bot said an uncleaned line");
        }
        let mobs = self.world.mob_list().len();
        assert!(mobs <= MAX_MOBS, "{mobs} mobs stand in the world");
    }
}
