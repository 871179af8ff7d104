//! Unit tests for [`super`]: one or more cases per [`ErrorKind`], checked through `validate_json`.

use super::*;

/// Validates `json` against `text` and returns the rendered errors (empty when valid).
fn errors(text: &str, json: &str) -> Vec<String> {
    match validate_json(text, json) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

fn kinds(text: &str, json: &str) -> Vec<ErrorKind> {
    validate_json(text, json).err().unwrap_or_default().into_iter().map(|e| e.kind).collect()
}

const BUILD_CUBE: &str = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
    "schematic": {"text_span": [0, [3, 3]], "filters": {"where_clause": {"AND": [
    {"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}}}]}"#;

#[test]
fn accepts_a_valid_form() {
    assert_eq!(errors("please build one zorp", BUILD_CUBE), Vec::<String>::new());
}

#[test]
fn span_out_of_range() {
    assert_eq!(
        errors("build zorp", BUILD_CUBE),
        [
            "action_sequence[0].schematic.text_span: span [0, [3, 3]] is out of range for a text of 2 words",
            "action_sequence[0].schematic.filters.where_clause.AND[0].obj_text: span [0, [3, 3]] is out of range for a text of 2 words",
        ]
    );
}

#[test]
fn reversed_span_and_wrong_sentence() {
    let json = BUILD_CUBE.replace("\"text_span\": [0, [3, 3]]", "\"text_span\": [0, [5, 2]]");
    assert_eq!(
        errors("please build one zorp", &json),
        ["action_sequence[0].schematic.text_span: span [0, [5, 2]] starts after it ends"]
    );
    let json = BUILD_CUBE.replace("\"text_span\": [0, [3, 3]]", "\"text_span\": [1, [3, 3]]");
    assert_eq!(
        kinds("please build one zorp", &json),
        [ErrorKind::BadSpan { span: Span { sentence: 1, start: 3, end: 3 }, problem: SpanProblem::Sentence(1) }]
    );
}

#[test]
fn unknown_value_has_path_and_expected_values() {
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE",
        "location": {"relative_direction": "SIDEWAYS"}}]}"#;
    let errs = validate_json("move sideways", json).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].to_string(), "action_sequence[0].location.relative_direction: unknown variant \"SIDEWAYS\"");
    let ErrorKind::UnknownValue { expected, .. } = &errs[0].kind else { panic!("{:?}", errs[0]) };
    assert!(expected.iter().any(|value| value == "BETWEEN"));
}

#[test]
fn unknown_value_inside_shape_dispatched_and_where_items() {
    let json = r#"{"dialogue_type": "GET_MEMORY", "filters": {"output": "EVERYTHING"}}"#;
    assert_eq!(errors("what", json), ["filters.output: unknown variant \"EVERYTHING\""]);
    let json = BUILD_CUBE.replace("has_name", "has_shape");
    assert_eq!(
        errors("please build one zorp", &json),
        ["action_sequence[0].schematic.filters.where_clause.AND[0].pred_text: unknown variant \"has_shape\""]
    );
}

#[test]
fn unknown_field() {
    let json = BUILD_CUBE.replace("\"text_span\"", "\"text_spam\"");
    let errs = validate_json("please build one zorp", &json).unwrap_err();
    assert!(matches!(&errs[0].kind, ErrorKind::UnknownField { field, .. } if field == "text_spam"), "{errs:?}");
    assert_eq!(errs[0].to_string(), "action_sequence[0].schematic: unknown field \"text_spam\"");
    // Inside a where-clause item (read key by key) the path is the item's.
    let json = BUILD_CUBE.replace("\"pred_text\"", "\"predicate\"");
    assert_eq!(
        errors("please build one zorp", &json),
        ["action_sequence[0].schematic.filters.where_clause.AND[0]: unknown field \"predicate\""]
    );
}

#[test]
fn missing_field() {
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"location": {}}]}"#;
    assert_eq!(errors("fixture go", json), ["action_sequence[0]: missing field \"action_type\""]);
    assert_eq!(kinds("fixture words", "{}"), [ErrorKind::MissingField { field: "dialogue_type".into() }]);
}

#[test]
fn malformed_json_and_shapes() {
    assert!(matches!(kinds("fixture words", "{not json")[..], [ErrorKind::Malformed { .. }]));
    assert!(matches!(kinds("fixture words", "[1, 2]")[..], [ErrorKind::Malformed { .. }]));
    // A span where an object belongs, a negative index, a null for an optional key.
    let cases = [
        r#"{"dialogue_type": "GET_MEMORY", "filters": [0, [0, 0]]}"#,
        r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "STOP", "target_action_type": [0, [-1, 0]]}]}"#,
        r#"{"dialogue_type": "NOOP", "filters": null}"#,
    ];
    for json in cases {
        assert!(matches!(kinds("hi there", json)[..], [ErrorKind::Malformed { .. }]), "{json}");
    }
    assert_eq!(
        errors("fixture words", r#"{"dialogue_type": "NOOP", "filters": null}"#),
        ["filters: null is not a valid value here"]
    );
}

#[test]
fn empty_sequence() {
    assert_eq!(kinds("fixture go", r#"{"dialogue_type": "HUMAN_GIVE_COMMAND"}"#), [ErrorKind::EmptySequence]);
    assert_eq!(
        errors("fixture go", r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": []}"#),
        ["action_sequence: HUMAN_GIVE_COMMAND needs at least one action in action_sequence"]
    );
}

#[test]
fn missing_child() {
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE",
        "location": {"relative_direction": "BETWEEN", "reference_object_2": {}}}]}"#;
    assert_eq!(
        errors("go between", json),
        ["action_sequence[0].location: relative_direction BETWEEN needs reference_object_1"]
    );
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "remove_condition": {"condition_type": "COMPARATOR"},
        "action_sequence": [{"action_type": "DANCE", "dance_type": {"look_turn": {}}}]}"#;
    assert_eq!(
        kinds("dance", json),
        [
            ErrorKind::MissingChild {
                owner: "look_turn".into(),
                child: "yaw, pitch, yaw_pitch, relative_yaw, relative_pitch or location".into()
            },
            ErrorKind::MissingChild { owner: "condition_type COMPARATOR".into(), child: "condition".into() },
        ]
    );
    let json = r#"{"dialogue_type": "PUT_MEMORY", "upsert": {"memory_data": {"memory_type": "TRIPLE"}}}"#;
    assert_eq!(errors("tag it", json), ["upsert.memory_data: memory_type TRIPLE needs triples"]);
}

#[test]
fn misplaced() {
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DESTROY",
        "schematic": {}}]}"#;
    assert_eq!(
        errors("destroy", json),
        ["action_sequence[0].schematic: schematic is not allowed with action_type DESTROY"]
    );
    let json = r#"{"dialogue_type": "NOOP", "action_sequence": [{"action_type": "STOP"}]}"#;
    assert_eq!(
        kinds("fixture words", json),
        [ErrorKind::Misplaced { field: "action_sequence".into(), context: "with dialogue_type NOOP".into() }]
    );
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE",
        "location": {"relative_direction": "LEFT", "reference_object_1": {}}}]}"#;
    assert_eq!(
        errors("fixture go left", json),
        [
            "action_sequence[0].location.reference_object_1: reference_object_1 is not allowed without relative_direction BETWEEN"
        ]
    );
}

#[test]
fn conflict_and_bad_angle() {
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE",
        "location": {"reference_object": {"special_reference": {"fixed_value": "AGENT", "coordinates_span": [0, [0, 0]]}}}}]}"#;
    assert_eq!(
        errors("fixture go", json),
        [
            "action_sequence[0].location.reference_object.special_reference: only one of fixed_value, coordinates_span may be given"
        ]
    );
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DANCE",
        "dance_type": {"body_turn": {"relative_yaw": {"angle": "left"}}}}]}"#;
    assert_eq!(
        errors("turn left", json),
        ["action_sequence[0].dance_type.body_turn.relative_yaw.angle: \"left\" is not a number of degrees"]
    );
}

#[test]
fn collects_every_error() {
    let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [
        {"action_type": "STOP", "target_action_type": [0, [3, 1]]},
        {"action_type": "MOVE", "location": [0, [0, 9]]}]}"#;
    assert_eq!(kinds("stop and go", json).len(), 2);
}
