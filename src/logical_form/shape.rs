//! Values that take more than one JSON shape, told apart by that shape alone.
//!
//! The annotations often let one key hold different kinds of JSON: `"location"` is usually an object
//! but sometimes a bare span, `"selector"` is an object or the string `"ALL"`, `"obj_text"` is a span
//! or `{"fixed_value": ...}`. Serde's `#[serde(untagged)]` could read these, but on failure it only
//! says "data did not match any variant", losing the path and the real cause. [`by_shape!`] instead
//! looks at the JSON type first (array, object or string) and hands the value to exactly one variant,
//! so an error deep inside keeps its precise path (`...location.relative_direction: unknown variant`).
//!
//! [`Fixed`] is the `{"fixed_value": X}` wrapper that several of those alternatives use.

use serde::{Deserialize, Serialize};

/// `{"fixed_value": value}`: a closed or literal value standing where a span could have been.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixed<T> {
    pub fixed_value: T,
}

impl<T> Fixed<T> {
    pub fn new(fixed_value: T) -> Self {
        Fixed { fixed_value }
    }
}

/// Implements `Serialize` and `Deserialize` for an enum of one-field variants, choosing the variant by
/// the JSON shape: `seq` (array), `map` (object) or `str` (string). Each shape may appear once.
///
/// ```text
/// by_shape!(LocationArg, "a location object or a span" { map => Location, seq => Span });
/// ```
macro_rules! by_shape {
    ($ty:ident, $expecting:literal { $($shape:ident => $variant:ident),+ $(,)? }) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    $($ty::$variant(inner) => serde::Serialize::serialize(inner, serializer),)+
                }
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct ShapeVisitor;
                impl<'de> serde::de::Visitor<'de> for ShapeVisitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str($expecting)
                    }
                    $(by_shape!(@visit $ty, $shape, $variant);)+
                }
                deserializer.deserialize_any(ShapeVisitor)
            }
        }
    };

    // Arrays: replay the (path-tracking) sequence into the variant's own deserializer.
    (@visit $ty:ident, seq, $variant:ident) => {
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<$ty, A::Error> {
            let inner = serde::de::value::SeqAccessDeserializer::new(seq);
            serde::Deserialize::deserialize(inner).map($ty::$variant)
        }
    };
    // Objects: the same with the map, so `deny_unknown_fields` and field paths still apply.
    (@visit $ty:ident, map, $variant:ident) => {
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<$ty, A::Error> {
            let inner = serde::de::value::MapAccessDeserializer::new(map);
            serde::Deserialize::deserialize(inner).map($ty::$variant)
        }
    };
    // Strings: parse as a unit enum, which yields serde's usual "unknown variant" error.
    (@visit $ty:ident, str, $variant:ident) => {
        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<$ty, E> {
            let inner = serde::de::IntoDeserializer::<E>::into_deserializer(text);
            serde::Deserialize::deserialize(inner).map($ty::$variant)
        }
    };
}
