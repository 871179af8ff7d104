//! Benchmarks that report figures (name, value, unit), run in release builds by ignored tests.
//! Each submodule measures one part of the bot.

pub mod memory;

/// One measured figure.
pub struct Figure {
    pub name: String,
    pub value: f64,
    pub unit: String,
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} {}", self.name, self.value, self.unit)
    }
}
