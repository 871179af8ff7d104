//! Dances and turns: DANCE's `dance_type` ("turn left", "look at me", "point at the tower", "do the
//! wiggle").
//!
//! `look_turn` moves the head, `body_turn` the body; either gives an absolute `yaw`/`pitch` (spans
//! holding numbers), a relative angle, or a `location` to face. `point` points at a location. A named
//! dance ("do the macarena") is a `filters` search over known dances.

use serde::{Deserialize, Serialize};

use super::filters::Filters;
use super::location::Location;
use super::span::Span;

/// What kind of movement a DANCE (or a turn) is.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DanceType {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub look_turn: Option<Turn>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_turn: Option<Turn>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<Point>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filters: Option<Filters>,
}

/// A head or body turn. Exactly one way of saying where to turn is expected.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// Absolute yaw in degrees, as words ("face 148").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yaw: Option<Span>,
    /// schema: absolute pitch in degrees, as words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pitch: Option<Span>,
    /// schema: "yaw pitch" as two numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yaw_pitch: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_yaw: Option<Angle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_pitch: Option<Angle>,
    /// Turn to face this location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Box<Location>>,
}

/// Point at a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub location: Box<Location>,
}

/// A relative angle: words of the chat ("turn 45 degrees"), or a literal number of degrees as
/// `{"fixed_value": "90"}` / `{"angle": "-90"}` (the annotations use both spellings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Angle {
    Span(Span),
    Literal(AngleLiteral),
}

by_shape!(Angle, "a span, {\"fixed_value\": degrees} or {\"angle\": degrees}" {
    seq => Span,
    map => Literal,
});

/// The literal form of [`Angle`]; exactly one field is expected (checked by validation).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AngleLiteral {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angle: Option<String>,
}

impl AngleLiteral {
    /// The literal text, whichever key holds it.
    pub fn text(&self) -> Option<&str> {
        self.fixed_value.as_deref().or(self.angle.as_deref())
    }

    /// The angle in degrees, if the text is a number ("-90" → -90.0).
    pub fn degrees(&self) -> Option<f64> {
        self.text()?.trim().parse::<f64>().ok().filter(|d| d.is_finite())
    }
}
