//! The closed meanings some lexicon groups map words to: compass directions and measure
//! dimensions. Their names are the keys of `[compass]` and `[dimensions]` in
//! `data/lexicon.toml` (the words for them are there, not here).

/// A compass direction, in Minecraft's frame: north is −z, south +z, east +x, west −x.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compass {
    North,
    South,
    East,
    West,
    NorthEast,
    NorthWest,
    SouthEast,
    SouthWest,
}

impl Compass {
    pub const ALL: [Compass; 8] = [
        Compass::North,
        Compass::South,
        Compass::East,
        Compass::West,
        Compass::NorthEast,
        Compass::NorthWest,
        Compass::SouthEast,
        Compass::SouthWest,
    ];

    /// Its key in `[compass]`, and the word answers use.
    pub fn name(self) -> &'static str {
        match self {
            Compass::North => "north",
            Compass::South => "south",
            Compass::East => "east",
            Compass::West => "west",
            Compass::NorthEast => "northeast",
            Compass::NorthWest => "northwest",
            Compass::SouthEast => "southeast",
            Compass::SouthWest => "southwest",
        }
    }

    pub(super) fn named(name: &str) -> Option<Compass> {
        Compass::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The unit step, `(dx, dz)`: one block along each axis it names (a diagonal moves on both).
    pub fn offset(self) -> (i32, i32) {
        match self {
            Compass::North => (0, -1),
            Compass::South => (0, 1),
            Compass::East => (1, 0),
            Compass::West => (-1, 0),
            Compass::NorthEast => (1, -1),
            Compass::NorthWest => (-1, -1),
            Compass::SouthEast => (1, 1),
            Compass::SouthWest => (-1, 1),
        }
    }

    /// Minecraft's yaw facing this way, in degrees: south 0, west 90, north 180, east −90.
    pub fn yaw(self) -> f32 {
        match self {
            Compass::South => 0.0,
            Compass::SouthWest => 45.0,
            Compass::West => 90.0,
            Compass::NorthWest => 135.0,
            Compass::North => 180.0,
            Compass::NorthEast => -135.0,
            Compass::East => -90.0,
            Compass::SouthEast => -45.0,
        }
    }
}

/// What a measure word measures ("tall" → Height).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dimension {
    Length,
    Height,
    Width,
    Depth,
    Thickness,
    Radius,
    /// The shape's main measure (a cube's edge, a sphere's diameter).
    Size,
}

impl Dimension {
    pub const ALL: [Dimension; 7] = [
        Dimension::Length,
        Dimension::Height,
        Dimension::Width,
        Dimension::Depth,
        Dimension::Thickness,
        Dimension::Radius,
        Dimension::Size,
    ];

    /// Its key in `[dimensions]`.
    pub fn name(self) -> &'static str {
        match self {
            Dimension::Length => "length",
            Dimension::Height => "height",
            Dimension::Width => "width",
            Dimension::Depth => "depth",
            Dimension::Thickness => "thickness",
            Dimension::Radius => "radius",
            Dimension::Size => "size",
        }
    }

    pub(super) fn named(name: &str) -> Option<Dimension> {
        Dimension::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The logical form's predicate for this measure (`has_height`).
    pub fn predicate(self) -> crate::logical_form::Predicate {
        use crate::logical_form::Predicate;
        match self {
            Dimension::Length => Predicate::HasLength,
            Dimension::Height => Predicate::HasHeight,
            Dimension::Width => Predicate::HasWidth,
            Dimension::Depth => Predicate::HasDepth,
            Dimension::Thickness => Predicate::HasThickness,
            Dimension::Radius => Predicate::HasRadius,
            Dimension::Size => Predicate::HasSize,
        }
    }
}
