//! The `craftmate` command line: a thin layer that wires the library's modules together.

fn main() -> anyhow::Result<()> {
    Ok(())
}
