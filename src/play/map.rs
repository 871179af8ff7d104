//! `/map`: a top-down view of the area around the player, one cell per block column.
//!
//! Each cell shows the highest non-air block in a window of heights around the player, so a
//! tower and a hole both show up. With colour on, placed blocks are drawn in their colour (ANSI
//! 256-colour backgrounds); without it, a letter stands for the colour and a legend follows.

use crate::world::{Block, Pos, World};

/// ANSI 256-colour code for each dye colour word.
fn ansi(colour: &str) -> u8 {
    // lexicon: dye colour ids and their terminal colours (block-id parts).
    match colour {
        "white" => 255,
        "orange" => 208,
        "magenta" => 170,
        "light_blue" => 117,
        "yellow" => 226,
        "lime" => 118,
        "pink" => 218,
        "gray" => 243,
        "light_gray" => 250,
        "cyan" => 37,
        "purple" => 92,
        "blue" => 27,
        "brown" => 94,
        "green" => 28,
        "red" => 160,
        "black" => 234,
        _ => 244,
    }
}

/// The letter used without colour: lower-case for terrain, upper-case for placed blocks.
fn letter(b: Block) -> char {
    // lexicon: block ids.
    match b.name() {
        "grass_block" => ',',
        "water" => '~',
        "lava" => '^',
        "bedrock" => '_',
        _ if b.is_natural() => '.',
        // lexicon: dye colour ids (block-id parts).
        _ => match b.colour() {
            Some("light_blue") => 'L',
            Some("light_gray") => 'S',
            Some("black") => 'K',
            Some("magenta") => 'M',
            Some("pink") => 'I',
            Some(c) => c.chars().next().unwrap_or('#').to_ascii_uppercase(),
            None => '#',
        },
    }
}

/// Render the area within `radius` of `centre` (north at the top, east to the right).
/// `markers` are (position, char) drawn on top: the agent, players.
pub fn render(world: &dyn World, centre: Pos, radius: i32, markers: &[(Pos, char)], colour: bool) -> Vec<String> {
    let radius = radius.clamp(2, 40);
    let (lo, hi) = (centre.y - 12, centre.y + 20);
    let mut lines = Vec::new();
    let mut seen_letters = std::collections::BTreeSet::new();
    for z in centre.z - radius..=centre.z + radius {
        let mut row = String::new();
        for x in centre.x - radius..=centre.x + radius {
            if let Some((_, c)) = markers.iter().find(|(p, _)| p.x == x && p.z == z) {
                row.push_str(&if colour { format!("\x1b[1m{c}{c}\x1b[0m") } else { c.to_string() });
                continue;
            }
            let top = (lo..=hi).rev().map(|y| world.block_at(Pos::new(x, y, z))).find(|b| !b.is_air());
            match top {
                None => row.push_str(if colour { "  " } else { " " }),
                Some(b) if colour => {
                    let shade = if b.is_natural() && b.name() != "water" { 236 } else { ansi(b.colour().unwrap_or("")) };
                    row.push_str(&format!("\x1b[48;5;{shade}m  \x1b[0m"));
                }
                Some(b) => {
                    let l = letter(b);
                    if l.is_ascii_uppercase() {
                        seen_letters.insert((l, b.colour().unwrap_or("colourless")));
                    }
                    row.push(l);
                }
            }
        }
        lines.push(row);
    }
    if !colour {
        let legend: Vec<String> = seen_letters.iter().map(|(l, c)| format!("{l}={c}")).collect();
        let mut key = "legend: @=bot P=you ,=grass .=terrain ~=water".to_string();
        if !legend.is_empty() {
            key.push(' ');
            key.push_str(&legend.join(" "));
        }
        lines.push(key);
    }
    lines
}
