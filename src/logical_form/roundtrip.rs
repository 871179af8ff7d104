//! Finding where a JSON value and its typed re-serialization disagree.
//!
//! Serde accepts a few inputs that the typed form cannot write back: `null` for an optional key
//! (read as "absent"), an array in place of a struct (read positionally). Comparing the input with the
//! re-serialized form catches all such cases at once; this module names the first place they differ.

use serde_json::Value;

/// The path and a description of the first difference, or `None` if the values are equal.
pub(crate) fn first_difference(input: &Value, typed: &Value) -> Option<(String, String)> {
    if input == typed {
        return None;
    }
    let mut path = String::new();
    let message = walk(input, typed, &mut path);
    Some((path, message))
}

/// Descends while both sides have the same container shape; `path` ends at the difference.
fn walk(input: &Value, typed: &Value, path: &mut String) -> String {
    match (input, typed) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                match b.get(key) {
                    Some(other) if other == value => continue,
                    Some(other) => {
                        push_key(path, key);
                        return walk(value, other, path);
                    }
                    None => {
                        push_key(path, key);
                        return format!("{} is not a valid value here", brief(value));
                    }
                }
            }
            match b.keys().find(|key| !a.contains_key(*key)) {
                Some(key) => {
                    push_key(path, key);
                    "key appears only in the typed form".to_string()
                }
                None => "values differ".to_string(),
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                if x != y {
                    path.push_str(&format!("[{index}]"));
                    return walk(x, y, path);
                }
            }
            "values differ".to_string()
        }
        _ => format!("expected {}, found {}", kind(typed), brief(input)),
    }
}

fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
}

/// "an object", "an array", ... for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A short rendering of a value: scalars in full, containers by kind.
fn brief(value: &Value) -> String {
    match value {
        Value::Array(_) | Value::Object(_) => kind(value).to_string(),
        scalar => scalar.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_values_have_no_difference() {
        assert_eq!(first_difference(&json!({"a": [1, 2]}), &json!({"a": [1, 2]})), None);
    }

    #[test]
    fn names_the_first_difference() {
        let (path, message) = first_difference(&json!({"a": {"b": null}}), &json!({"a": {}})).unwrap();
        assert_eq!(path, "a.b");
        assert_eq!(message, "null is not a valid value here");
        let (path, message) = first_difference(&json!({"a": [1, [2]]}), &json!({"a": [1, {"x": 2}]})).unwrap();
        assert_eq!(path, "a[1]");
        assert_eq!(message, "expected an object, found an array");
    }
}
