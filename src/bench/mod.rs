//! Benchmarks behind `craftmate bench …`: each area returns a list of [`Figure`]s, measured on
//! the embedded world so runs are repeatable. Run them in release mode; debug numbers mean
//! little.

pub mod hostile;
pub mod llm;
pub mod memory;
pub mod natural;
pub mod parser;
pub mod soak;
pub mod tasks;
pub mod training;
pub mod web;

/// One measured number.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub name: String,
    pub value: f64,
    pub unit: String,
}

impl Figure {
    pub fn new(name: impl Into<String>, value: f64, unit: impl Into<String>) -> Self {
        Figure { name: name.into(), value, unit: unit.into() }
    }
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Small numbers keep a few decimals, big ones and counts are rounded.
        if self.value.abs() >= 100.0 || self.value.fract() == 0.0 {
            write!(f, "{}: {:.0} {}", self.name, self.value, self.unit)
        } else {
            write!(f, "{}: {:.3} {}", self.name, self.value, self.unit)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_print_as_name_value_unit() {
        assert_eq!(Figure::new("astar_64_cubed_ms", 1.23456, "ms").to_string(), "astar_64_cubed_ms: 1.235 ms");
        assert_eq!(
            Figure::new("build_blocks_per_s", 12345.6, "blocks/s").to_string(),
            "build_blocks_per_s: 12346 blocks/s"
        );
        assert_eq!(Figure::new("train_batch", 64.0, "commands").to_string(), "train_batch: 64 commands");
    }
}
