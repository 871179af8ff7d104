//! One test per filters construct, on the fixture world (`memory::fixture`): towers, cubes, a
//! house, a wall, a hole, alice and bob, pigs, a cow and a chicken.

use serde_json::{Value as Json, json};

use crate::logical_form::{Filters, tokenize};
use crate::memory::fixture::*;
use crate::memory::{Answer, MemoryKind, NewTask, QueryResult, TaskState, Value};
use crate::world::Pos;

/// The span of `phrase` inside `chat`, as JSON.
fn span(chat: &str, phrase: &str) -> Json {
    let words = tokenize(chat);
    let want = tokenize(phrase);
    let i = (0..words.len()).find(|&i| words[i..].starts_with(&want)).unwrap_or_else(|| panic!("{phrase:?} not in {chat:?}"));
    json!([0, [i, i + want.len() - 1]])
}

fn ask(fx: &Fixture, chat: &str, filters: Json) -> QueryResult {
    let f: Filters = serde_json::from_value(filters).expect("filters parse");
    fx.memory.query(&f, &fx.ctx(chat)).expect("query")
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort();
    v
}

fn named(chat: &str, name: &str) -> Json {
    json!({"AND": [{"pred_text": "has_name", "obj_text": span(chat, name)}]})
}

#[test]
fn has_name_matches_shapes_by_lemma() {
    let fx = Fixture::new();
    let chat = "destroy all the towers";
    let r = ask(&fx, chat, json!({"where_clause": named(chat, "towers"), "selector": {"return_quantity": "ALL"}}));
    let towers = sorted(vec![fx.id_at(RED_TOWER), fx.id_at(TALL_RED_TOWER), fx.id_at(BLUE_TOWER)]);
    assert_eq!(sorted(r.ids()), towers);
    // "boxes" finds the cubes (synonym), and "houses" the house.
    let chat = "where are the boxes";
    let r = ask(&fx, chat, json!({"where_clause": named(chat, "boxes")}));
    assert_eq!(sorted(r.ids()), sorted(vec![fx.id_at(YELLOW_CUBE), fx.id_at(GREEN_CUBE)]));
    let chat = "go to one of the houses";
    assert_eq!(ask(&fx, chat, json!({"where_clause": named(chat, "houses")})).ids(), vec![fx.id_at(HOUSE)]);
}

#[test]
fn has_name_matches_given_names_and_mob_kinds() {
    let mut fx = Fixture::new();
    let house = fx.id_at(HOUSE);
    fx.memory.name(house, "alice's castle").unwrap();
    let chat = "go to alice's castle";
    assert_eq!(ask(&fx, chat, json!({"where_clause": named(chat, "alice 's castle")})).ids(), vec![house]);
    let chat = "kill the pigs";
    let r = ask(&fx, chat, json!({"where_clause": named(chat, "pigs")}));
    assert_eq!(r.hits.len(), 2);
    assert!(r.hits.iter().all(|h| h.kind == MemoryKind::Mob));
}

#[test]
fn has_colour_with_canonical_colours() {
    let fx = Fixture::new();
    let chat = "destroy the red tower";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [
        {"pred_text": "has_colour", "obj_text": span(chat, "red")},
        {"pred_text": "has_name", "obj_text": span(chat, "tower")}]}}));
    assert_eq!(sorted(r.ids()), sorted(vec![fx.id_at(RED_TOWER), fx.id_at(TALL_RED_TOWER)]));
    let chat = "the grey wall";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": span(chat, "grey")}]}}));
    assert_eq!(r.ids(), vec![fx.id_at(WALL)]);
}

#[test]
fn multiword_name_falls_back_to_attributes() {
    let fx = Fixture::new();
    let chat = "go to the yellow cube";
    let r = ask(&fx, chat, json!({"where_clause": named(chat, "yellow cube")}));
    assert_eq!(r.ids(), vec![fx.id_at(YELLOW_CUBE)]);
}

#[test]
fn has_block_type_matches_block_words() {
    let fx = Fixture::new();
    let chat = "destroy everything made of wool";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [{"pred_text": "has_block_type", "obj_text": span(chat, "wool")}]}}));
    let wool = sorted(vec![fx.id_at(RED_TOWER), fx.id_at(TALL_RED_TOWER), fx.id_at(BLUE_TOWER), fx.id_at(GREEN_CUBE)]);
    assert_eq!(sorted(r.ids()), wool);
    let chat = "the oak planks thing";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [{"pred_text": "has_block_type", "obj_text": span(chat, "oak planks")}]}}));
    assert_eq!(r.ids(), vec![fx.id_at(HOUSE)]);
}

#[test]
fn has_size_and_measures() {
    let fx = Fixture::new();
    let chat = "the big tower";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [
        {"pred_text": "has_size", "obj_text": span(chat, "big")},
        {"pred_text": "has_name", "obj_text": span(chat, "tower")}]}}));
    assert_eq!(r.ids(), vec![fx.id_at(TALL_RED_TOWER)], "height 9 is big, 6 and 5 are medium");
    let chat = "the tower that is nine blocks high";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [{"pred_text": "has_height", "obj_text": span(chat, "nine")}]}}));
    assert_eq!(r.ids(), vec![fx.id_at(TALL_RED_TOWER)]);
}

#[test]
fn has_tag_told_by_a_player() {
    let mut fx = Fixture::new();
    let wall = fx.id_at(WALL);
    fx.memory.tag(wall, "ugly").unwrap();
    let chat = "destroy the ugly thing";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [{"pred_text": "has_tag", "obj_text": span(chat, "ugly")}]}}));
    assert_eq!(r.ids(), vec![wall]);
}

#[test]
fn a_size_word_also_finds_what_a_player_tagged_with_it() {
    let mut fx = Fixture::new();
    let chat = "the tiny tower";
    let tiny = json!({"where_clause": {"AND": [
        {"pred_text": "has_size", "obj_text": span(chat, "tiny")},
        {"pred_text": "has_name", "obj_text": span(chat, "tower")}]}});
    assert!(ask(&fx, chat, tiny.clone()).ids().is_empty(), "no tower is tiny by measure");
    let blue = fx.id_at(BLUE_TOWER);
    fx.memory.tag(blue, "tiny").unwrap();
    assert_eq!(ask(&fx, chat, tiny).ids(), vec![blue]);
}

#[test]
fn or_and_not() {
    let fx = Fixture::new();
    let chat = "red or blue";
    let r = ask(&fx, chat, json!({"where_clause": {"OR": [
        {"pred_text": "has_colour", "obj_text": span(chat, "red")},
        {"pred_text": "has_colour", "obj_text": span(chat, "blue")}]}}));
    assert_eq!(r.hits.len(), 3);
    let chat = "the tower that is not red";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [
        {"pred_text": "has_name", "obj_text": span(chat, "tower")},
        {"NOT": [{"pred_text": "has_colour", "obj_text": span(chat, "red")}]}]}}));
    assert_eq!(r.ids(), vec![fx.id_at(BLUE_TOWER)]);
}

#[test]
fn comparators_on_attributes() {
    let fx = Fixture::new();
    let chat = "towers taller than 5";
    let r = ask(&fx, chat, json!({"where_clause": {"AND": [
        {"pred_text": "has_name", "obj_text": span(chat, "towers")},
        {"comparison_type": "GREATER_THAN",
         "input_left": {"filters": {"output": {"attribute": "HEIGHT"}}},
         "input_right": {"value": span(chat, "5")}}]}}));
    assert_eq!(sorted(r.ids()), sorted(vec![fx.id_at(RED_TOWER), fx.id_at(TALL_RED_TOWER)]));
}

#[test]
fn memory_type_agent_and_self() {
    let fx = Fixture::new();
    let r = ask(&fx, "where are you", json!({"output": {"attribute": "LOCATION"}, "memory_type": "REFERENCE_OBJECT",
        "where_clause": {"AND": [{"pred_text": "has_tag", "obj_text": {"fixed_value": "SELF"}}]}}));
    assert_eq!(r.hits.len(), 1);
    assert_eq!(r.hits[0].kind, MemoryKind::SelfAgent);
    assert_eq!(r.answer, Answer::Values(vec![Value::Position(Pos::new(0, 5, 0).feet())]));
    let r = ask(&fx, "what is your name", json!({"output": {"attribute": "NAME"}, "memory_type": "AGENT"}));
    assert_eq!(r.answer, Answer::Values(vec![Value::Text("craftmate".into())]));
}

#[test]
fn speaker_fixed_value() {
    let fx = Fixture::new();
    let r = ask(&fx, "where am i", json!({"output": {"attribute": "LOCATION"},
        "where_clause": {"AND": [{"pred_text": "has_tag", "obj_text": {"fixed_value": "SPEAKER"}}]}}));
    assert_eq!(r.answer, Answer::Values(vec![Value::Position(crate::world::Vec3::new(0.5, 5.0, 2.5))]));
}

#[test]
fn memory_type_tasks_currently_running() {
    let mut fx = Fixture::new();
    let t = fx.memory.record_task(NewTask::new("BUILD", "building a red tower")).unwrap();
    fx.memory.update_task(t, TaskState::Running).unwrap();
    let done = fx.memory.record_task(NewTask::new("MOVE", "walking to the house")).unwrap();
    fx.memory.update_task(done, TaskState::Done).unwrap();
    let r = ask(&fx, "what are you doing", json!({"output": {"attribute": "NAME"}, "memory_type": "TASKS",
        "where_clause": {"AND": [{"pred_text": "has_tag", "obj_text": {"fixed_value": "CURRENTLY_RUNNING"}}]}}));
    assert_eq!(r.ids(), vec![t]);
    assert_eq!(r.answer, Answer::Values(vec![Value::Text("building a red tower".into())]));
}

#[test]
fn output_count() {
    let fx = Fixture::new();
    let chat = "how many towers are there";
    let r = ask(&fx, chat, json!({"output": "COUNT", "where_clause": named(chat, "towers")}));
    assert_eq!(r.answer, Answer::Count(3));
}

#[test]
fn selector_random_is_deterministic_and_counts() {
    let fx = Fixture::new();
    let chat = "destroy two towers";
    let filters = json!({"where_clause": named(chat, "towers"),
        "selector": {"return_quantity": "RANDOM", "ordinal": span(chat, "two"), "same": "DISALLOWED"}});
    let f: Filters = serde_json::from_value(filters).unwrap();
    let a = fx.memory.query(&f, &fx.ctx(chat).with_seed(7)).unwrap();
    let b = fx.memory.query(&f, &fx.ctx(chat).with_seed(7)).unwrap();
    assert_eq!(a.hits.len(), 2);
    assert_eq!(a.ids(), b.ids());
    assert_ne!(a.ids()[0], a.ids()[1], "DISALLOWED never picks one twice");
    let picks: std::collections::HashSet<Vec<i64>> =
        (0..20).map(|s| fx.memory.query(&f, &fx.ctx(chat).with_seed(s)).unwrap().ids()).collect();
    assert!(picks.len() > 1, "different seeds pick differently");
}

#[test]
fn selector_argval_closest_to_speaker() {
    let fx = Fixture::new();
    let chat = "destroy the red tower closest to me";
    let r = ask(&fx, chat, json!({
        "where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": span(chat, "red")},
                                 {"pred_text": "has_name", "obj_text": span(chat, "tower")}]},
        "selector": {"return_quantity": {"argval": {"polarity": "MIN", "quantity": {"attribute": {"linear_extent":
            {"source": {"reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}}}}}}},
            "ordinal": {"fixed_value": "FIRST"}}}));
    assert_eq!(r.ids(), vec![fx.id_at(RED_TOWER)]);
}

#[test]
fn selector_argval_height_and_ordinal() {
    let fx = Fixture::new();
    let chat = "go to the tallest tower";
    let tallest = json!({"where_clause": named(chat, "tower"),
        "selector": {"return_quantity": {"argval": {"polarity": "MAX", "quantity": {"attribute": "HEIGHT"}}},
                     "ordinal": {"fixed_value": "FIRST"}}});
    assert_eq!(ask(&fx, chat, tallest).ids(), vec![fx.id_at(TALL_RED_TOWER)]);
    let chat = "go to the second tallest tower";
    let second = json!({"where_clause": named(chat, "tower"),
        "selector": {"return_quantity": {"argval": {"polarity": "MAX", "quantity": {"attribute": "HEIGHT"}}},
                     "ordinal": span(chat, "second")}});
    assert_eq!(ask(&fx, chat, second).ids(), vec![fx.id_at(RED_TOWER)]);
}

#[test]
fn selector_argval_coordinates_and_time() {
    let mut fx = Fixture::new();
    let chat = "the easternmost tower";
    let east = json!({"where_clause": named(chat, "tower"),
        "selector": {"return_quantity": {"argval": {"polarity": "MAX", "quantity": {"attribute": "X"}}}}});
    let r = ask(&fx, chat, east);
    assert!(r.ids() == vec![fx.id_at(RED_TOWER)] || r.ids() == vec![fx.id_at(BLUE_TOWER)]);
    // A newer tower is the newest by BORN_TIME.
    fx.world.fill_by(
        crate::world::BBox::new(Pos::new(-15, 5, 15), Pos::new(-15, 9, 15)),
        block("white_wool"),
        crate::world::Actor::Player("alice".into()),
    );
    fx.world.advance();
    fx.perceive();
    let chat = "the newest tower";
    let newest = json!({"where_clause": named(chat, "tower"),
        "selector": {"return_quantity": {"argval": {"polarity": "MAX", "quantity": {"attribute": "BORN_TIME"}}}}});
    assert_eq!(ask(&fx, chat, newest).ids(), vec![fx.id_at(Pos::new(-15, 5, 15))]);
}

#[test]
fn selector_ordinal_alone_and_same_disallowed() {
    let fx = Fixture::new();
    let chat = "the second tower";
    let r = ask(&fx, chat, json!({"where_clause": named(chat, "tower"), "selector": {"ordinal": span(chat, "second")}}));
    assert_eq!(r.hits.len(), 1);
    let all = ask(&fx, chat, json!({"where_clause": named(chat, "tower")}));
    assert_eq!(r.ids()[0], all.ids()[1], "the second in the default order (nearest first)");
    assert_eq!(all.ids()[0], fx.id_at(RED_TOWER), "nearest to alice first");
    // "another tower": the one already picked is left out.
    let chat = "another tower";
    let f: Filters = serde_json::from_value(json!({"where_clause": named(chat, "tower"),
        "selector": {"return_quantity": "RANDOM", "same": "DISALLOWED"}})).unwrap();
    let first = fx.id_at(RED_TOWER);
    let r = fx.memory.query(&f, &fx.ctx(chat).excluding(&[first])).unwrap();
    assert_eq!(r.hits.len(), 1);
    assert_ne!(r.ids()[0], first);
}

#[test]
fn selector_location_near_and_direction() {
    let fx = Fixture::new();
    let chat = "the towers near me";
    let near = json!({"where_clause": named(chat, "towers"), "selector": {"location": {"relative_direction": "NEAR",
        "reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}}}});
    assert_eq!(ask(&fx, chat, near).hits.len(), 3, "all towers are within 10 blocks of alice");
    let chat = "the cube near me";
    let near = json!({"where_clause": named(chat, "cube"), "selector": {"location": {"relative_direction": "NEAR",
        "reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}}}});
    assert!(ask(&fx, chat, near).is_empty(), "both cubes are farther than 10 blocks");
    let chat = "the pig near you";
    let near = json!({"where_clause": named(chat, "pig"), "selector": {"location": {"relative_direction": "NEAR",
        "reference_object": {"special_reference": {"fixed_value": "AGENT"}}}}});
    assert_eq!(ask(&fx, chat, near).hits.len(), 1, "one pig of two is near the agent");
    // alice looks south (+z): the tall red tower at x=-8 is on her right (facing +z, right is −x).
    let chat = "the tower to my right";
    let right = json!({"where_clause": named(chat, "tower"), "selector": {"location": {"relative_direction": "RIGHT",
        "reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}}}});
    assert_eq!(ask(&fx, chat, right).ids(), vec![fx.id_at(TALL_RED_TOWER)]);
    let chat = "the tower behind me";
    let back = json!({"where_clause": named(chat, "tower"), "selector": {"location": {"relative_direction": "BACK",
        "reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}}}});
    assert_eq!(ask(&fx, chat, back).ids(), vec![fx.id_at(BLUE_TOWER)]);
}

#[test]
fn location_inside_another_object() {
    let fx = Fixture::new();
    let chat = "the chicken in the house";
    let r = ask(&fx, chat, json!({"where_clause": named(chat, "chicken"), "selector": {"location": {"relative_direction": "INSIDE",
        "reference_object": {"filters": {"where_clause": named(chat, "house")}}}}}));
    assert_eq!(r.hits.len(), 1);
    assert_eq!(r.hits[0].kind, MemoryKind::Mob);
    let chat = "the pig in the house";
    let r = ask(&fx, chat, json!({"where_clause": named(chat, "pig"), "selector": {"location": {"relative_direction": "INSIDE",
        "reference_object": {"filters": {"where_clause": named(chat, "house")}}}}}));
    assert!(r.is_empty());
}

#[test]
fn location_at_coordinates() {
    let fx = Fixture::new();
    let chat = "the cube near 13 6 -1";
    let r = ask(&fx, chat, json!({"where_clause": named(chat, "cube"), "selector": {"location": {
        "reference_object": {"special_reference": {"coordinates_span": span(chat, "13 6 -1")}}}}}));
    assert_eq!(r.ids(), vec![fx.id_at(YELLOW_CUBE)]);
}

#[test]
fn coreference_prefers_look_then_attention() {
    let mut fx = Fixture::new();
    let chat = "destroy that";
    let f: Filters = serde_json::from_value(json!({"contains_coreference": "yes"})).unwrap();
    // What alice looks at.
    let r = fx.memory.query(&f, &fx.ctx(chat).looking_at(Pos::new(5, 9, 5))).unwrap();
    assert_eq!(r.ids(), vec![fx.id_at(RED_TOWER)]);
    // Without a look: what was talked about last.
    let wall = fx.id_at(WALL);
    fx.memory.attend(wall, 50).unwrap();
    let r = fx.memory.query(&f, &fx.ctx(chat)).unwrap();
    assert_eq!(r.ids(), vec![wall]);
    // "that tower": the where clause still applies.
    let chat = "destroy that tower";
    let f: Filters = serde_json::from_value(json!({"contains_coreference": "yes", "where_clause": named(chat, "tower")})).unwrap();
    let r = fx.memory.query(&f, &fx.ctx(chat)).unwrap();
    assert_eq!(r.ids(), vec![fx.id_at(RED_TOWER)], "nearest tower when none was attended");
}

#[test]
fn outputs_name_colour_height_size_tag_block_type() {
    let mut fx = Fixture::new();
    let house = fx.id_at(HOUSE);
    fx.memory.name(house, "cottage").unwrap();
    fx.memory.tag(house, "cozy").unwrap();
    let chat = "what is that";
    let attr = |a: &str| {
        let r = ask(&fx, chat, json!({"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": span(chat, "that")}]},
            "output": {"attribute": a}}));
        let _ = &r;
        r
    };
    // "that" is no name: nothing matches.
    assert!(attr("NAME").is_empty());
    let chat = "what is the cottage";
    let get = |a: &str| -> Value {
        let r = ask(&fx, chat, json!({"where_clause": named(chat, "cottage"), "output": {"attribute": a}}));
        match r.answer {
            Answer::Values(v) => v.into_iter().next().unwrap(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(get("NAME"), Value::Text("cottage".into()));
    assert_eq!(get("COLOUR"), Value::Text("brown".into()));
    assert_eq!(get("HEIGHT"), Value::Number(4.0));
    assert_eq!(get("SIZE"), Value::Text("medium".into()));
    assert_eq!(get("BLOCK_TYPE"), Value::Text("oak_planks".into()));
    assert_eq!(get("TAG"), Value::Texts(vec!["cozy".into(), "cottage".into()]));
    assert!(matches!(get("LOCATION"), Value::Position(_)));
    assert!(matches!(get("BORN_TIME"), Value::Number(_)));
}

#[test]
fn holes_are_found() {
    let fx = Fixture::new();
    let chat = "fill that hole";
    let r = ask(&fx, chat, json!({"contains_coreference": "yes", "where_clause": named(chat, "hole")}));
    assert_eq!(r.ids(), vec![fx.id_at(HOLE)]);
    assert_eq!(r.hits[0].kind, MemoryKind::Hole);
}

#[test]
fn malformed_forms_never_fail() {
    let fx = Fixture::new();
    // Spans past the end of the chat, empty clauses, unknown words, odd selectors.
    for filters in [
        json!({"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [40, 45]]}]}}),
        json!({"where_clause": {"OR": []}}),
        json!({"where_clause": {"NOT": []}}),
        json!({"selector": "ALL"}),
        json!({"selector": {"location": "OTHER"}}),
        json!({"selector": {"return_quantity": {"argval": {"polarity": "MIN", "quantity": {"attribute": {}}}}}}),
        json!({"memory_type": "REWARD"}),
        json!({"special": {"fixed_value": "THIS"}}),
        json!({"output": {"attribute": "RUN_COUNT"}}),
    ] {
        ask(&fx, "hello there", filters);
    }
}

#[test]
fn cached_lookups_follow_every_write() {
    let mut fx = Fixture::new();
    let wall = fx.id_at(WALL);
    let chat = "destroy the shed";
    let f: Filters = serde_json::from_value(json!({"where_clause": named(chat, "shed")})).unwrap();
    let ctx = fx.ctx(chat);
    assert!(fx.memory.query(&f, &ctx).unwrap().is_empty());
    // Named inside a batch that fails: seen inside, gone after the rollback.
    let inside = fx.memory.batch(|m| {
        m.name(wall, "shed")?;
        let seen = m.query(&f, &ctx)?.ids();
        Err::<(), _>(crate::memory::MemoryError::Invalid(format!("{seen:?}")))
    });
    assert!(inside.unwrap_err().to_string().contains(&format!("[{wall}]")));
    assert!(fx.memory.query(&f, &ctx).unwrap().is_empty());
    fx.memory.name(wall, "shed").unwrap();
    assert_eq!(fx.memory.query(&f, &ctx).unwrap().ids(), vec![wall]);
    fx.memory.forget(wall).unwrap();
    assert!(fx.memory.query(&f, &ctx).unwrap().is_empty());
}
