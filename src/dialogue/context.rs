//! What one chat line is handled in: who said it, the world (read-only), memory and the task
//! stack. The dialogue manager takes it whole instead of threading four borrows through every
//! step; the interpreter gets its own view of it, a [`Turn`], per command.

use crate::interpreter::context::Turn;
use crate::memory::Memory;
use crate::tasks::TaskStack;
use crate::world::World;

pub struct Context<'a> {
    pub speaker: &'a str,
    pub world: &'a dyn World,
    pub memory: &'a mut Memory,
    pub tasks: &'a mut TaskStack,
}

impl<'a> Context<'a> {
    pub fn new(speaker: &'a str, world: &'a dyn World, memory: &'a mut Memory, tasks: &'a mut TaskStack) -> Context<'a> {
        Context { speaker, world, memory, tasks }
    }

    /// The interpreter's view of the speaker saying `text` now.
    pub fn turn(&mut self, text: &str) -> Turn<'_> {
        Turn::new(self.speaker, crate::understanding::step::form(text), self.world, self.memory)
    }

    /// The world's tick.
    pub fn now(&self) -> u64 {
        self.world.tick()
    }
}
