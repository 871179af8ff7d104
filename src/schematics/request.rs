//! What a player asked for, as the interpreter hands it over: a shape word plus whatever colour,
//! material, size words and numbers came with it.
//!
//! Also reads the numbers out of a phrase ([`ShapeRequest::parse_dimensions`]), because the
//! phrasings are many ("5 by 3", "5x3x2", "ten blocks tall", "width 4", "a radius of three") and
//! belong with the fields they fill.
//!
//! Conventions for "A by B (by C)": A is the width (x, east–west), B the length (z, north–south),
//! C the height (y). Footprint first, height last, as players describe rooms and houses
//! ("a 10 by 10 by 5 house"). Shapes that stand up (walls, arches, triangles) read the pair their
//! own way; see their files.

use super::numbers::read_number;
use crate::lexicon::{Class, Dimension, lexicon};
use serde::{Deserialize, Serialize};

/// A request for a shape. Only `name` is required; every other field is what the player said, if
/// they said it, and `None`/empty lets the shape choose.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShapeRequest {
    /// The shape word as the player said it: "cube", "cubes", "ball", "stairs", "hollow dome"…
    pub name: String,
    /// A colour word ("red", "light blue", "grey").
    pub colour: Option<String>,
    /// A material word ("stone", "wooden", "bricks") or a block id ("oak_planks").
    pub block_type: Option<String>,
    /// Size words ("big", "tall", "thin"); see the `sizes` module for their meaning.
    pub size_words: Vec<String>,
    /// The main measure (a cube's edge, a sphere's diameter, a tower's height).
    pub size: Option<i32>,
    /// Radius; shapes read it as the diameter 2r+1.
    pub radius: Option<i32>,
    /// Extent along x.
    pub width: Option<i32>,
    /// Extent along y.
    pub height: Option<i32>,
    /// Extent along z (or the run of a wall, line or bridge).
    pub length: Option<i32>,
    /// Used as the length when no length is given.
    pub depth: Option<i32>,
    /// Wall, shell, ring or floor thickness.
    pub thickness: Option<i32>,
    /// `Some(true)` for "hollow", `Some(false)` for "solid"; `None` lets the shape choose.
    pub hollow: Option<bool>,
    /// How many of it: a count said before a plural ("2 blue houses", "a couple of red
    /// cubes"); the builds stand side by side. Not part of the shape.
    pub count: Option<i32>,
}

/// The numbers found in a phrase, by what they measure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dimensions {
    pub size: Option<i32>,
    pub radius: Option<i32>,
    pub width: Option<i32>,
    pub height: Option<i32>,
    pub length: Option<i32>,
    pub depth: Option<i32>,
    pub thickness: Option<i32>,
}

/// Which field a number goes into: the measure a word names.
type Field = Dimension;

/// Words naming a measure (the lexicon's `[dimensions]`), usable before the number ("width 4",
/// "radius of 3") or after it ("4 wide", "10 blocks tall", "3 radius").
fn axis_word(w: &str) -> Option<Field> {
    lexicon().dimension(w)
}

/// Axis words that can come before their number: nouns only ("width 4", `[measure_nouns]`), since
/// an adjective before a number ("wide 4") is not how people talk and would steal numbers meant
/// for later.
fn leading_axis_word(w: &str) -> Option<Field> {
    lexicon().is(Class::MeasureNoun, w).then(|| axis_word(w)).flatten()
}

/// Units between a number and what it measures: "10 *blocks* tall" (`[units]`).
fn is_unit(w: &str) -> bool {
    lexicon().unit(w).is_some()
}

/// Words between a measure noun and its number: "a radius *of* 3" (`[measure_glue]`).
fn is_filler(w: &str) -> bool {
    lexicon().is(Class::MeasureGlue, w)
}

/// "5 *by* 3", "4 *x* 4" (`[by]`).
fn is_by(w: &str) -> bool {
    lexicon().is(Class::By, w)
}

/// Lower-cased tokens, with "5x3x2" split into "5 x 3 x 2", "twenty-five" and "10-block" split at
/// the hyphen, and punctuation around words removed. A leading minus on a number is kept.
fn tokens(words: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for word in words.iter().flat_map(|w| w.split_whitespace()) {
        let w = word.to_lowercase();
        let w =
            w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '-' || c == '+' || c == '×' || c == '*'));
        for (k, part) in w.split('-').enumerate() {
            // "-5": the empty piece before the hyphen marks a minus sign on the next piece.
            if part.is_empty() {
                continue;
            }
            let negative = k == 1 && w.starts_with('-') && part.starts_with(|c: char| c.is_ascii_digit());
            let part = if negative { format!("-{part}") } else { part.to_string() };
            out.extend(split_times(&part));
        }
    }
    out
}

/// "5x3x2" → ["5", "x", "3", "x", "2"]; anything else unchanged.
fn split_times(t: &str) -> Vec<String> {
    let pieces: Vec<&str> = t.split(['x', '×', '*']).collect();
    let numeric = |p: &str| {
        !p.is_empty() && p.trim_start_matches('-').chars().all(|c| c.is_ascii_digit() || c == ',' || c == '.')
    };
    if pieces.len() >= 2 && pieces.iter().all(|p| numeric(p)) {
        let mut out = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            if i > 0 {
                out.push("x".to_string());
            }
            out.push(p.to_string());
        }
        out
    } else {
        vec![t.to_string()]
    }
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

impl Dimensions {
    fn set(&mut self, field: Field, value: i64) {
        let v = Some(clamp_i32(value));
        match field {
            Field::Size => self.size = v,
            Field::Radius => self.radius = v,
            Field::Width => self.width = v,
            Field::Height => self.height = v,
            Field::Length => self.length = v,
            Field::Depth => self.depth = v,
            Field::Thickness => self.thickness = v,
        }
    }

    /// Whether no number was found.
    pub fn is_empty(&self) -> bool {
        *self == Dimensions::default()
    }
}

impl ShapeRequest {
    /// A request for the shape `name`, with everything else left to the shape.
    pub fn new(name: impl Into<String>) -> ShapeRequest {
        ShapeRequest { name: name.into(), ..ShapeRequest::default() }
    }

    pub fn with_colour(mut self, colour: impl Into<String>) -> Self {
        self.colour = Some(colour.into());
        self
    }

    pub fn with_material(mut self, material: impl Into<String>) -> Self {
        self.block_type = Some(material.into());
        self
    }

    pub fn with_size_words(mut self, words: &[&str]) -> Self {
        self.size_words.extend(words.iter().map(|w| w.to_string()));
        self
    }

    pub fn with_size(mut self, size: i32) -> Self {
        self.size = Some(size);
        self
    }

    pub fn with_radius(mut self, radius: i32) -> Self {
        self.radius = Some(radius);
        self
    }

    pub fn with_width(mut self, width: i32) -> Self {
        self.width = Some(width);
        self
    }

    pub fn with_height(mut self, height: i32) -> Self {
        self.height = Some(height);
        self
    }

    pub fn with_length(mut self, length: i32) -> Self {
        self.length = Some(length);
        self
    }

    pub fn with_thickness(mut self, thickness: i32) -> Self {
        self.thickness = Some(thickness);
        self
    }

    pub fn with_hollow(mut self, hollow: bool) -> Self {
        self.hollow = Some(hollow);
        self
    }

    /// Copies in every measure `dims` found, keeping the request's own where `dims` has none.
    pub fn with_dimensions(mut self, dims: Dimensions) -> Self {
        self.size = dims.size.or(self.size);
        self.radius = dims.radius.or(self.radius);
        self.width = dims.width.or(self.width);
        self.height = dims.height.or(self.height);
        self.length = dims.length.or(self.length);
        self.depth = dims.depth.or(self.depth);
        self.thickness = dims.thickness.or(self.thickness);
        self
    }

    /// Fills only the measures the request lacks from `dims` (the request's own numbers win).
    pub fn or_dimensions(mut self, dims: Dimensions) -> Self {
        self.size = self.size.or(dims.size);
        self.radius = self.radius.or(dims.radius);
        self.width = self.width.or(dims.width);
        self.height = self.height.or(dims.height);
        self.length = self.length.or(dims.length);
        self.depth = self.depth.or(dims.depth);
        self.thickness = self.thickness.or(dims.thickness);
        self
    }

    /// Reads the measures out of a phrase, given as words ("a 5 by 3 platform" →
    /// `["a", "5", "by", "3", "platform"]`; tokens may also hold several words).
    ///
    /// - "A by B", "AxB", "A x B": width A, length B; a third number is the height.
    /// - a number then (units then) a measure word: "10 high", "10 blocks tall", "4 wide",
    ///   "3 thick", "8 long", "6 deep", "3 blocks in radius", "12 steps" (a size).
    /// - a measure noun then (fillers then) a number: "width 4", "radius 3", "a radius of three",
    ///   "size 7", "diameter 9" (a size).
    /// - any other number is the size: "ten", "a couple" (2), "a few" (3), "a dozen" (12).
    ///
    /// Numbers may be digits or words up to the thousands ("twenty five"). Nothing is validated
    /// here: a zero or negative number is passed on for [`generate`](super::generate) to refuse
    /// with a clear message.
    pub fn parse_dimensions(words: &[&str]) -> Dimensions {
        let t = tokens(words);
        let mut dims = Dimensions::default();
        let mut pending: Option<Field> = None;
        let skip_units = |mut j: usize| {
            while t.get(j).is_some_and(|w| is_unit(w)) {
                j += 1;
            }
            j
        };
        let mut i = 0;
        while i < t.len() {
            let Some((value, used)) = read_number(&t, i) else {
                if let Some(field) = leading_axis_word(&t[i]) {
                    pending = Some(field);
                } else if !is_filler(&t[i]) {
                    pending = None;
                }
                i += 1;
                continue;
            };
            let mut j = i + used;
            // "A by B (by C)": a chain of numbers joined by "by"/"x".
            let mut chain = vec![value];
            loop {
                let k = skip_units(j);
                if t.get(k).is_some_and(|w| is_by(w))
                    && let Some((v, n)) = read_number(&t, k + 1)
                {
                    chain.push(v);
                    j = k + 1 + n;
                    continue;
                }
                break;
            }
            if chain.len() >= 2 {
                dims.set(Field::Width, chain[0]);
                dims.set(Field::Length, chain[1]);
                if let Some(h) = chain.get(2) {
                    dims.set(Field::Height, *h);
                }
                pending = None;
                i = j;
                continue;
            }
            if let Some(field) = pending.take() {
                dims.set(field, value);
                i = j;
                continue;
            }
            let mut k = skip_units(j);
            if t.get(k).is_some_and(|w| w == "in") && t.get(k + 1).and_then(|w| axis_word(w)).is_some() {
                k += 1;
            }
            if let Some(field) = t.get(k).and_then(|w| axis_word(w)) {
                dims.set(field, value);
                i = k + 1;
                continue;
            }
            if dims.size.is_none() {
                dims.set(Field::Size, value);
            }
            i = j;
        }
        dims
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Dimensions {
        let words: Vec<&str> = text.split_whitespace().collect();
        ShapeRequest::parse_dimensions(&words)
    }

    fn dims(size: Option<i32>, width: Option<i32>, height: Option<i32>, length: Option<i32>) -> Dimensions {
        Dimensions { size, width, height, length, ..Dimensions::default() }
    }

    #[test]
    fn by_and_times() {
        assert_eq!(parse("a 5 by 3 platform"), dims(None, Some(5), None, Some(3)));
        assert_eq!(parse("5x3x2"), dims(None, Some(5), Some(2), Some(3)));
        assert_eq!(parse("5 x 3"), dims(None, Some(5), None, Some(3)));
        assert_eq!(parse("ten by twenty five by 4"), dims(None, Some(10), Some(4), Some(25)));
        assert_eq!(parse("5 blocks by 3 blocks"), dims(None, Some(5), None, Some(3)));
    }

    #[test]
    fn measure_after_the_number() {
        assert_eq!(parse("10 high"), dims(None, None, Some(10), None));
        assert_eq!(parse("a tower 10 blocks tall"), dims(None, None, Some(10), None));
        assert_eq!(parse("4 wide and 8 long"), dims(None, Some(4), None, Some(8)));
        assert_eq!(parse("a ten-block-tall wall").height, Some(10));
        assert_eq!(parse("3 thick").thickness, Some(3));
        assert_eq!(parse("6 deep").depth, Some(6));
        assert_eq!(parse("3 blocks in radius").radius, Some(3));
        assert_eq!(parse("stairs with 12 steps").size, Some(12));
    }

    #[test]
    fn measure_before_the_number() {
        assert_eq!(parse("width 4"), dims(None, Some(4), None, None));
        assert_eq!(parse("radius 3").radius, Some(3));
        assert_eq!(parse("with a radius of three").radius, Some(3));
        assert_eq!(parse("size 7"), dims(Some(7), None, None, None));
        assert_eq!(parse("width 4 height 5"), dims(None, Some(4), Some(5), None));
        assert_eq!(parse("diameter: 9").size, Some(9));
        assert_eq!(parse("size 5 by 3"), dims(None, Some(5), None, Some(3)));
    }

    #[test]
    fn bare_and_vague_numbers() {
        assert_eq!(parse("ten"), dims(Some(10), None, None, None));
        assert_eq!(parse("a couple of blocks"), dims(Some(2), None, None, None));
        assert_eq!(parse("a few"), dims(Some(3), None, None, None));
        assert_eq!(parse("a dozen"), dims(Some(12), None, None, None));
        assert_eq!(parse("twenty five").size, Some(25));
        assert_eq!(parse("a cube of 3 please").size, Some(3));
        assert_eq!(parse("a big red cube"), Dimensions::default());
        assert!(parse("build a house").is_empty());
    }

    #[test]
    fn bad_numbers_pass_through() {
        assert_eq!(parse("-5 wide").width, Some(-5));
        assert_eq!(parse("0").size, Some(0));
        assert_eq!(parse("99999999999 high").height, Some(i32::MAX));
        assert_eq!(parse("minus three").size, Some(-3));
    }

    #[test]
    fn punctuation_and_case() {
        assert_eq!(parse("Make it 5 Wide, 3 long."), dims(None, Some(5), None, Some(3)));
        assert_eq!(parse("(7x7)"), dims(None, Some(7), None, Some(7)));
    }

    #[test]
    fn dimensions_fill_a_request() {
        let req = ShapeRequest::new("wall").with_height(2).with_dimensions(parse("10 long"));
        assert_eq!((req.length, req.height), (Some(10), Some(2)));
    }
}
