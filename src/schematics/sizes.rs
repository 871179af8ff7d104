//! Size words and default dimensions.
//!
//! Players rarely give numbers: they say "a big tower" or "a tiny tall house". Size words set one
//! base *scale* for the whole request, and shape-specific words stretch single axes:
//!
//! | word(s)                                   | effect                          |
//! |-------------------------------------------|---------------------------------|
//! | tiny, mini, miniature                     | scale 2                         |
//! | small, little                             | scale 3                         |
//! | medium, normal, regular (and no word)     | scale 5                         |
//! | big, large                                | scale 7                         |
//! | huge, giant, gigantic, massive, enormous… | scale 11                        |
//! | tall, high / short, low, flat             | height ×2 / ÷2                  |
//! | wide, broad, fat / thin, narrow, skinny   | width ×2 / ÷2                   |
//! | long                                      | length ×2                       |
//! | thick                                     | thickness ×2                    |
//!
//! The last scale word wins; stretch words add up ("tall tall" is ×4) and never shrink a measure
//! below one block. Each shape family turns the scale into its own proportions (a default tower is
//! taller than a default cube; see each file under `shapes/`).
//!
//! Numbers always override words: an explicit height is used as is, even next to "tall". A bare
//! `size` (or `radius`, read as the diameter 2r+1) sets the family's main measure (a cube's edge,
//! a sphere's diameter, a tower's height, a wall's length).

use super::{SchematicError, ShapeRequest};
use crate::lexicon::{Group, lexicon};

/// The scale used when the player gives no size word.
pub const DEFAULT_SCALE: i64 = 5;

/// The base scale a size word names, if it is one. The words are the lexicon's `[sizes]`; a
/// word that also stretches a measure ("tall", "short") stretches it instead.
fn scale_word(w: &str) -> Option<i64> {
    if stretch_word(w).is_some() {
        return None;
    }
    // lexicon: the size classes (the keys of [sizes]) and their scales, not words.
    Some(match lexicon().size(w)? {
        "tiny" => 2,
        "small" => 3,
        "big" => 7,
        "huge" => 11,
        _ => DEFAULT_SCALE,
    })
}

/// The axis a stretch word (the lexicon's `[stretch]`) acts on, and in which direction.
fn stretch_word(w: &str) -> Option<(Axis, i32)> {
    // lexicon: the stretches (the keys of [stretch]), not words.
    Some(match lexicon().meaning(Group::Stretch, w)? {
        "taller" => (Axis::Height, 1),
        "shorter" => (Axis::Height, -1),
        "wider" => (Axis::Width, 1),
        "thinner" => (Axis::Width, -1),
        "longer" => (Axis::Length, 1),
        "thicker" => (Axis::Thickness, 1),
        _ => return None,
    })
}

/// Whether `word` is a size word this module understands (for the parser's vocabulary).
pub fn is_size_word(word: &str) -> bool {
    let w = word.trim().to_lowercase();
    scale_word(&w).is_some() || stretch_word(&w).is_some()
}

/// A measurable direction of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Axis {
    /// The family's main measure, as a bare number ("size 7", "a 7 cube").
    Size,
    /// Read as a diameter, 2r+1: a radius-3 circle is 7 across, centred on one block.
    Radius,
    Width,
    Height,
    /// `length`, or `depth` when no length was said.
    Length,
    Thickness,
}

/// A resolved measure, and whether it is exactly what the player said. Minimums are enforced
/// differently: a word-derived measure that is too small is quietly raised ("a tiny house" is
/// still a house), a number that is too small is an error the player should hear about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Measure {
    pub value: i64,
    pub explicit: bool,
}

impl Measure {
    pub(crate) fn implied(value: i64) -> Measure {
        Measure { value: value.max(1), explicit: false }
    }

    /// A measure derived from this one (a tower's width from its height): no longer what the
    /// player said.
    pub(crate) fn map(self, f: impl FnOnce(i64) -> i64) -> Measure {
        Measure::implied(f(self.value))
    }

    /// The value, at least `min`: raised if implied, refused if the player asked for less.
    pub(crate) fn at_least(self, min: i64, shape: &str, dimension: &str) -> Result<i64, SchematicError> {
        if self.value >= min {
            Ok(self.value)
        } else if self.explicit {
            Err(SchematicError::BadSize(format!("{shape} needs to be at least {min} blocks {dimension}")))
        } else {
            Ok(min)
        }
    }
}

/// Multiplies by 2^steps (halves for negative steps), never below 1 and without overflow.
fn stretch(value: i64, steps: i32) -> i64 {
    let steps = steps.clamp(-16, 16);
    let v = if steps >= 0 { value.saturating_mul(1 << steps) } else { value >> (-steps) };
    v.max(1)
}

/// A request's sizes, read once: the validated numbers plus the scale and stretches of its words.
pub(crate) struct Sizing<'a> {
    req: &'a ShapeRequest,
    scale: i64,
    stretches: [(Axis, i32); 4],
}

impl<'a> Sizing<'a> {
    /// Reads the size words and checks every number the player gave is at least 1.
    pub(crate) fn new(req: &'a ShapeRequest) -> Result<Sizing<'a>, SchematicError> {
        // lexicon: words the bot says in an error message, not words it reads.
        let named = [
            ("size", req.size, "big"),
            ("radius", req.radius, "in radius"),
            ("width", req.width, "wide"),
            ("height", req.height, "high"),
            ("length", req.length, "long"),
            ("depth", req.depth, "deep"),
            ("thickness", req.thickness, "thick"),
        ];
        for (_, value, adjective) in named {
            if let Some(v) = value
                && v < 1
            {
                return Err(SchematicError::BadSize(format!(
                    "I can't build something {v} blocks {adjective}; sizes start at 1"
                )));
            }
        }
        let mut scale = DEFAULT_SCALE;
        let mut stretches: [(Axis, i32); 4] =
            [(Axis::Height, 0), (Axis::Width, 0), (Axis::Length, 0), (Axis::Thickness, 0)];
        for w in &req.size_words {
            let w = w.trim().to_lowercase();
            if let Some(s) = scale_word(&w) {
                scale = s;
            } else if let Some((axis, step)) = stretch_word(&w) {
                for (a, n) in stretches.iter_mut() {
                    if *a == axis {
                        *n = n.saturating_add(step);
                    }
                }
            }
        }
        Ok(Sizing { req, scale, stretches })
    }

    /// The scale the size words set (5 without any).
    #[cfg(test)]
    pub(crate) fn scale(&self) -> i64 {
        self.scale
    }

    /// The number the player gave for `axis`, if any (a radius as its diameter).
    pub(crate) fn explicit(&self, axis: Axis) -> Option<i64> {
        let r = self.req;
        let v = match axis {
            Axis::Size => r.size,
            Axis::Radius => return r.radius.map(|v| 2 * i64::from(v) + 1),
            Axis::Width => r.width,
            Axis::Height => r.height,
            Axis::Length => r.length.or(r.depth),
            Axis::Thickness => r.thickness,
        };
        v.map(i64::from)
    }

    /// The family's main measure: the first of `axes` the player gave a number for, else
    /// `default(scale)`.
    pub(crate) fn main(&self, axes: &[Axis], default: impl FnOnce(i64) -> i64) -> Measure {
        match axes.iter().find_map(|a| self.explicit(*a)) {
            Some(v) => Measure { value: v, explicit: true },
            None => Measure::implied(default(self.scale)),
        }
    }

    /// The measure along `axis`: the player's number, else `base` stretched by the words for
    /// that axis.
    pub(crate) fn axis(&self, axis: Axis, base: Measure) -> Measure {
        if let Some(v) = self.explicit(axis) {
            return Measure { value: v, explicit: true };
        }
        let steps = self.stretches.iter().find(|(a, _)| *a == axis).map_or(0, |(_, n)| *n);
        if steps == 0 { base } else { Measure::implied(stretch(base.value, steps)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> ShapeRequest {
        ShapeRequest::new("cube").with_size_words(w)
    }

    #[test]
    fn scale_words() {
        let scale = |w: &[&str]| Sizing::new(&words(w)).unwrap().scale();
        assert_eq!(scale(&[]), 5);
        assert_eq!(scale(&["tiny"]), 2);
        assert_eq!(scale(&["small"]), 3);
        assert_eq!(scale(&["Big"]), 7);
        assert_eq!(scale(&["huge"]), 11);
        assert_eq!(scale(&["giant"]), 11);
        assert_eq!(scale(&["small", "huge"]), 11);
        assert_eq!(scale(&["sparkly"]), 5);
        assert!(is_size_word("tall") && is_size_word("Massive") && !is_size_word("red"));
    }

    #[test]
    fn stretch_words_and_numbers() {
        let req = words(&["tall", "thin"]);
        let s = Sizing::new(&req).unwrap();
        let base = Measure::implied(5);
        assert_eq!(s.axis(Axis::Height, base).value, 10);
        assert_eq!(s.axis(Axis::Width, base).value, 2);
        assert_eq!(s.axis(Axis::Length, base).value, 5);
        let req = words(&["short"]).with_height(9);
        let s = Sizing::new(&req).unwrap();
        assert_eq!(s.axis(Axis::Height, base), Measure { value: 9, explicit: true });
        let req = words(&["short", "short", "short", "short"]);
        assert_eq!(Sizing::new(&req).unwrap().axis(Axis::Height, base).value, 1);
    }

    #[test]
    fn main_measure_and_radius() {
        let req = ShapeRequest::new("sphere").with_radius(3);
        let s = Sizing::new(&req).unwrap();
        assert_eq!(s.main(&[Axis::Size, Axis::Radius], |sc| sc).value, 7);
        let req = ShapeRequest::new("sphere");
        let s = Sizing::new(&req).unwrap();
        assert_eq!(s.main(&[Axis::Size, Axis::Radius], |sc| sc + 2), Measure::implied(7));
        let req = ShapeRequest::new("wall").with_radius(i32::MAX);
        assert_eq!(Sizing::new(&req).unwrap().explicit(Axis::Radius), Some(2 * i32::MAX as i64 + 1));
    }

    #[test]
    fn zero_and_negative_numbers_are_refused() {
        for req in [
            ShapeRequest::new("cube").with_size(0),
            ShapeRequest::new("cube").with_width(-4),
            ShapeRequest::new("cube").with_radius(0),
            ShapeRequest::new("cube").with_thickness(i32::MIN),
        ] {
            assert!(matches!(Sizing::new(&req), Err(SchematicError::BadSize(_))), "{req:?}");
        }
    }

    #[test]
    fn minimums() {
        assert_eq!(Measure::implied(2).at_least(5, "a house", "wide"), Ok(5));
        let said = Measure { value: 2, explicit: true };
        assert_eq!(
            said.at_least(5, "a house", "wide"),
            Err(SchematicError::BadSize("a house needs to be at least 5 blocks wide".into()))
        );
    }
}
