//! The REPL's slash commands: move and turn yourself, edit and inspect the world, save and load.
//!
//! Anything typed without a leading `/` is chat for the bot; these commands are for the player
//! at the keyboard and never reach the bot.

use crate::world::{Actor, BBox, Block, Look, Pos, Vec3};

/// Largest box `/fill` edits at once.
pub const MAX_FILL: u64 = 200_000;

#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Tp(Coord, Coord, Coord),
    Look(f32, f32),
    LookAt(Coord, Coord, Coord),
    SetBlock(Coord, Coord, Coord, String),
    Fill([Coord; 3], [Coord; 3], String),
    Map(i32),
    Stack,
    Memory,
    Save(String),
    Load(String),
    Tick(u64),
    Where,
    Help,
    Quit,
}

/// A coordinate as typed: absolute (`12`) or relative to you (`~`, `~3`, `~-2`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Coord {
    Abs(i32),
    Rel(i32),
}

impl Coord {
    fn parse(s: &str) -> Result<Coord, String> {
        let bad = || format!("{s:?} is not a coordinate (use a whole number, or ~ / ~N for relative)");
        match s.strip_prefix('~') {
            Some("") => Ok(Coord::Rel(0)),
            Some(rest) => rest.parse().map(Coord::Rel).map_err(|_| bad()),
            None => s.parse().map(Coord::Abs).map_err(|_| bad()),
        }
    }

    pub fn resolve(self, base: i32) -> i32 {
        match self {
            Coord::Abs(v) => v,
            Coord::Rel(d) => base.saturating_add(d),
        }
    }
}

pub const HELP: &[&str] = &[
    "Type anything without a slash to talk to the bot. Commands:",
    "  /tp X Y Z             move yourself (~ for relative, e.g. /tp ~2 ~ ~)",
    "  /look YAW PITCH       turn (yaw 0 = south, 90 = west; pitch 90 = down)",
    "  /lookat X Y Z         look at a block",
    "  /setblock X Y Z ID    place a block (e.g. red_wool, air)",
    "  /fill X Y Z X Y Z ID  fill a box",
    "  /map [RADIUS]         top-down view around you (@ = bot, P = you)",
    "  /stack                the bot's tasks",
    "  /memory               what the bot remembers",
    "  /where                positions of you and the bot",
    "  /tick [N]             let N ticks pass (default 20 = one second)",
    "  /save FILE, /load FILE  save or load the world",
    "  /help, /quit",
];

fn coords(args: &[&str]) -> Result<[Coord; 3], String> {
    Ok([Coord::parse(args[0])?, Coord::parse(args[1])?, Coord::parse(args[2])?])
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("{s:?} is not a valid {what}"))
}

/// Parse a line that starts with `/`.
pub fn parse(line: &str) -> Result<Command, String> {
    let mut words = line.trim().trim_start_matches('/').split_whitespace();
    let name = words.next().unwrap_or("").to_lowercase();
    let args: Vec<&str> = words.collect();
    let need = |n: usize, usage: &str| if args.len() == n { Ok(()) } else { Err(format!("usage: {usage}")) };
    // lexicon: slash-command names, not word knowledge.
    match name.as_str() {
        "tp" | "teleport" => {
            need(3, "/tp X Y Z")?;
            let [x, y, z] = coords(&args)?;
            Ok(Command::Tp(x, y, z))
        }
        "look" => {
            need(2, "/look YAW PITCH")?;
            Ok(Command::Look(number(args[0], "yaw")?, number(args[1], "pitch")?))
        }
        "lookat" => {
            need(3, "/lookat X Y Z")?;
            let [x, y, z] = coords(&args)?;
            Ok(Command::LookAt(x, y, z))
        }
        "setblock" => {
            need(4, "/setblock X Y Z BLOCK")?;
            let [x, y, z] = coords(&args)?;
            Ok(Command::SetBlock(x, y, z, args[3].to_string()))
        }
        "fill" => {
            need(7, "/fill X1 Y1 Z1 X2 Y2 Z2 BLOCK")?;
            Ok(Command::Fill(coords(&args[0..3])?, coords(&args[3..6])?, args[6].to_string()))
        }
        "map" => match args.as_slice() {
            [] => Ok(Command::Map(10)),
            [r] => Ok(Command::Map(number(r, "radius")?)),
            _ => Err("usage: /map [RADIUS]".into()),
        },
        "stack" | "tasks" => Ok(Command::Stack),
        "memory" | "mem" => Ok(Command::Memory),
        "where" | "pos" => Ok(Command::Where),
        "tick" | "wait" => match args.as_slice() {
            [] => Ok(Command::Tick(20)),
            [n] => Ok(Command::Tick(number::<u64>(n, "tick count")?.min(72_000))),
            _ => Err("usage: /tick [N]".into()),
        },
        "save" => {
            need(1, "/save FILE")?;
            Ok(Command::Save(args[0].to_string()))
        }
        "load" => {
            need(1, "/load FILE")?;
            Ok(Command::Load(args[0].to_string()))
        }
        "help" | "?" => Ok(Command::Help),
        "quit" | "exit" | "q" => Ok(Command::Quit),
        "" => Err("an empty command; /help lists them".into()),
        other => Err(format!("unknown command /{other}; /help lists them")),
    }
}

/// A block id as typed (`air` included), or a clear error.
pub fn block_arg(id: &str) -> Result<Block, String> {
    if id == "air" {
        return Ok(Block::AIR);
    }
    Block::from_name(id).ok_or_else(|| format!("unknown block {id:?} (try red_wool, stone, oak_planks…)"))
}

/// Player's block position, used as the base of relative coordinates.
pub fn base_of(pos: Vec3) -> Pos {
    pos.block()
}

pub fn resolve(c: [Coord; 3], base: Pos) -> Pos {
    Pos::new(c[0].resolve(base.x), c[1].resolve(base.y), c[2].resolve(base.z))
}

/// `p` if it is a block of the world (rows −64 to 319, inside the world border).
pub fn in_world(p: Pos) -> Result<Pos, String> {
    use crate::world::rules::{MAX_Y, MIN_Y, WORLD_BORDER, in_world};
    if in_world(p) {
        Ok(p)
    } else {
        Err(format!("{p} is outside the world (y from {MIN_Y} to {MAX_Y}, x and z within {WORLD_BORDER} of 0)"))
    }
}

pub fn fill_box(a: Pos, b: Pos) -> Result<BBox, String> {
    let bbox = BBox::new(in_world(a)?, in_world(b)?);
    if bbox.volume() > MAX_FILL {
        return Err(format!("that box has {} blocks; /fill edits at most {MAX_FILL}", bbox.volume()));
    }
    Ok(bbox)
}

/// Who the player's edits are recorded as.
pub fn actor(player: &str) -> Actor {
    Actor::Player(player.to_string())
}

/// The largest file `/load` reads: a saved world of a long session is a few megabytes; a file
/// far larger (or one that never ends, like `/dev/zero`) is refused before it is read.
pub const MAX_WORLD_FILE: u64 = 256 << 20;

/// The bytes of a saved world at `file`, refused when it is no plain file or too large.
pub fn read_world_file(file: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let f = std::fs::File::open(file).map_err(|e| e.to_string())?;
    let meta = f.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("that is not a file".into());
    }
    if meta.len() > MAX_WORLD_FILE {
        return Err(format!("it has {} MB; a saved world has at most {} MB", meta.len() >> 20, MAX_WORLD_FILE >> 20));
    }
    // Read no more than the limit even if the file grows meanwhile.
    let mut bytes = Vec::new();
    f.take(MAX_WORLD_FILE + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_WORLD_FILE {
        return Err(format!("it is larger than {} MB", MAX_WORLD_FILE >> 20));
    }
    Ok(bytes)
}

pub fn look_at(from: Vec3, to: Pos) -> Look {
    Look::towards(from, to.center())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_and_relative_coordinates() {
        assert_eq!(parse("/tp 1 ~ ~-3"), Ok(Command::Tp(Coord::Abs(1), Coord::Rel(0), Coord::Rel(-3))));
        assert_eq!(parse("/look 90 10.5"), Ok(Command::Look(90.0, 10.5)));
        assert_eq!(parse("/map"), Ok(Command::Map(10)));
        assert_eq!(parse("/QUIT"), Ok(Command::Quit));
        assert!(parse("/tp 1 2").unwrap_err().contains("usage"));
        assert!(parse("/tp a b c").unwrap_err().contains("not a coordinate"));
        assert!(parse("/dance").unwrap_err().contains("unknown command /dance"));
        assert_eq!(Coord::Rel(2).resolve(5), 7);
        assert!(block_arg("red_woll").is_err());
        assert!(fill_box(Pos::new(0, 0, 0), Pos::new(1000, 10, 1000)).is_err());
    }

    #[test]
    fn edits_stay_inside_the_world() {
        assert!(in_world(Pos::new(0, 319, 0)).is_ok() && in_world(Pos::new(0, -64, 0)).is_ok());
        let e = in_world(Pos::new(0, 100_000, 0)).unwrap_err();
        assert!(e.contains("outside the world (y from -64 to 319"), "{e}");
        assert!(fill_box(Pos::new(0, 5, 0), Pos::new(0, 400, 0)).is_err());
    }

    #[test]
    fn only_a_saved_world_sized_file_is_loaded() {
        assert_eq!(read_world_file("/dev/zero").unwrap_err(), "that is not a file");
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.json");
        std::fs::File::create(&big).unwrap().set_len(MAX_WORLD_FILE + 1).unwrap();
        let e = read_world_file(big.to_str().unwrap()).unwrap_err();
        assert!(e.contains("a saved world has at most 256 MB"), "{e}");
        let small = dir.path().join("small.json");
        std::fs::write(&small, b"{}").unwrap();
        assert_eq!(read_world_file(small.to_str().unwrap()).unwrap(), b"{}");
    }
}
