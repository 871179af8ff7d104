//! Tests of the store itself: persistence across restarts, migrations, refusing bad files,
//! and the plain lookups the interpreter calls (triples, tasks, chats, schematics, objects).

use rusqlite::Connection;
use serde_json::json;

use super::fixture::*;
use super::*;
use crate::logical_form::Filters;
use crate::perception::Perception;
use crate::world::{Block, Pos, Vec3};

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn a_fresh_memory_has_the_current_schema() {
    let m = Memory::in_memory().unwrap();
    assert_eq!(m.schema_version().unwrap(), SCHEMA_VERSION);
    assert!(m.path().is_none());
    assert!(m.counts().unwrap().is_empty());
}

#[test]
fn a_restarted_bot_still_knows_objects_tags_tasks_and_that() {
    let dir = temp();
    let path = dir.path().join("memory.db");
    let mut fx = Fixture::new();
    let (house, tower, task);
    {
        let mut m = Memory::open(&path).unwrap();
        let mut p = Perception::new();
        p.update(&fx.world, &mut m).unwrap();
        house = m.object_at(HOUSE).unwrap().unwrap();
        tower = m.object_at(RED_TOWER).unwrap().unwrap();
        m.name(house, "alice's house").unwrap();
        m.tag(tower, "wobbly").unwrap();
        m.attend(house, 42).unwrap();
        let t = m.record_task(NewTask::new("BUILD", "building a wall")).unwrap();
        m.update_task(t, TaskState::Running).unwrap();
        task = t;
        m.save_schematic("hut", &[(Pos::new(0, 0, 0), block("oak_planks"))]).unwrap();
    }
    // The world goes on while the bot is down: the tower grows by one block.
    fx.world.set_block_by(RED_TOWER.up(6), block("red_wool"), crate::world::Actor::Player("alice".into()));
    let mut m = Memory::open(&path).unwrap();
    let mut p = Perception::new();
    p.update(&fx.world, &mut m).unwrap();
    assert_eq!(m.object_at(HOUSE).unwrap(), Some(house), "same id after the restart");
    assert_eq!(m.object_at(RED_TOWER.up(6)).unwrap(), Some(tower), "the grown tower kept its id");
    assert_eq!(m.values_of(tower, "has_tag").unwrap(), vec!["wobbly"]);
    assert_eq!(m.values_of(tower, "has_height").unwrap(), vec!["7"]);
    let that: Filters = serde_json::from_value(json!({"contains_coreference": "yes"})).unwrap();
    assert_eq!(m.query(&that, &QueryContext::new("destroy that")).unwrap().ids(), vec![house]);
    let names: Filters = serde_json::from_value(json!({"where_clause": {"AND": [
        {"pred_text": "has_name", "obj_text": [0, [2, 4]]}]}})).unwrap();
    assert_eq!(m.query(&names, &QueryContext::new("go to alice's house")).unwrap().ids(), vec![house]);
    let running = m.tasks_in_state(TaskState::Running).unwrap();
    assert_eq!(running.len(), 1);
    assert_eq!((running[0].id, running[0].description.as_str()), (task, "building a wall"));
    assert!(m.schematic_by_name("huts").unwrap().is_some());
}

/// Builds a version-1 file the way the first craftmate wrote it.
fn write_v1(path: &std::path::Path) {
    let c = Connection::open(path).unwrap();
    c.execute_batch(SCHEMA_V1_SQL).unwrap();
    c.execute_batch(&format!("PRAGMA application_id = {}; PRAGMA user_version = 1;", store::APPLICATION_ID)).unwrap();
    c.execute_batch(
        "INSERT INTO memories (id, kind, created_tick, updated_tick, attended_tick) VALUES
             (1, 'block_object', 10, 10, 30), (2, 'triple', 11, 11, NULL), (3, 'task', 12, 20, NULL),
             (4, 'schematic', 13, 13, NULL), (5, 'triple', 14, 14, NULL);
         INSERT INTO reference_objects (id, ref_type, x, y, z, min_x, min_y, min_z, max_x, max_y, max_z, voxels)
             VALUES (1, 'block_object', 0.5, 5.5, 0.5, 0, 5, 0, 0, 6, 0, 2);
         INSERT INTO object_blocks (object_id, x, y, z, block) VALUES (1, 0, 5, 0, 'red_wool'), (1, 0, 6, 0, 'red_wool');
         INSERT INTO triples (id, subj, pred, obj, obj_text) VALUES (2, 1, 'has_name', NULL, 'Houses'),
             (5, 1, 'has_colour', NULL, 'Grey');
         INSERT INTO tasks (id, action, state, logical_form, parent, created_tick, finished_tick)
             VALUES (3, 'BUILD', 'done', '{\"action_type\": \"BUILD\"}', NULL, 12, 20);
         INSERT INTO schematics (id, name, blocks) VALUES (4, 'Towers', '[[0,0,0,\"red_wool\"]]');",
    )
    .unwrap();
}

fn columns(c: &Connection, table: &str) -> Vec<String> {
    let mut stmt = c.prepare(&format!("SELECT name FROM pragma_table_info('{table}') ORDER BY name")).unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

#[test]
fn a_version_1_file_is_migrated_and_backed_up() {
    let dir = temp();
    let path = dir.path().join("old.db");
    write_v1(&path);
    let m = Memory::open(&path).unwrap();
    assert_eq!(m.schema_version().unwrap(), SCHEMA_VERSION);
    assert!(m.all_learned().unwrap().is_empty(), "the v3 table of taught lines exists");
    assert!(dir.path().join("old.db.v1.bak").exists(), "the v1 file is kept beside the new one");
    // Keys were computed: "Houses" matches house, "Grey" the colour gray.
    assert_eq!(m.objects_with_name("house").unwrap(), vec![1]);
    let f: Filters = serde_json::from_value(json!({"where_clause": {"AND": [
        {"pred_text": "has_colour", "obj_text": [0, [1, 1]]}]}})).unwrap();
    assert_eq!(m.query(&f, &QueryContext::new("the gray one")).unwrap().ids(), vec![1]);
    let t = m.task(3).unwrap().unwrap();
    assert_eq!((t.description.as_str(), t.state, t.finished_tick), ("build", TaskState::Done, Some(20)));
    assert_eq!(t.logical_form, Some(json!({"action_type": "BUILD"})));
    assert_eq!(m.schematic_by_name("tower").unwrap().unwrap().blocks.len(), 1);
    assert_eq!(m.triples_of(1).unwrap()[0].source, Source::Told);
    assert_eq!(m.info(1).unwrap().unwrap().attended_tick, Some(30));
    // The migrated tables have exactly the columns of a fresh file.
    let fresh_path = dir.path().join("fresh.db");
    drop(Memory::open(&fresh_path).unwrap());
    let (old, fresh) = (Connection::open(&path).unwrap(), Connection::open(&fresh_path).unwrap());
    for table in ["memories", "reference_objects", "object_blocks", "triples", "chats", "tasks", "schematics", "learned", "plans"] {
        assert_eq!(columns(&old, table), columns(&fresh, table), "{table}");
    }
    // And the migrated file behaves: forgetting the object removes its triples' memory rows.
    drop(old);
    let mut m = Memory::open(&path).unwrap();
    assert!(m.forget(1).unwrap());
    assert_eq!(m.kind_of(2).unwrap(), None);
}

/// A version-5 file kept one lesson a line, whoever taught it: each becomes its teacher's own.
#[test]
fn a_version_5_files_lessons_become_their_teachers_own() {
    let dir = temp();
    let path = dir.path().join("v5.db");
    drop(Memory::open(&path).unwrap());
    let c = Connection::open(&path).unwrap();
    c.execute_batch(
        "DROP TABLE learned;
         CREATE TABLE learned (key TEXT PRIMARY KEY, text TEXT NOT NULL, form TEXT NOT NULL, speaker TEXT NOT NULL, tick INTEGER NOT NULL);
         INSERT INTO learned VALUES ('cube', 'tower please', '{}', 'alice', 7);
         PRAGMA user_version = 5;",
    )
    .unwrap();
    drop(c);
    let mut m = Memory::open(&path).unwrap();
    assert_eq!(m.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(m.learned("cube", Some("alice")).unwrap().map(|l| l.text), Some("tower please".into()));
    assert_eq!(m.learned("cube", Some("bob")).unwrap(), None);
    m.learn("cube", "dig here", "{}", "bob", 9).unwrap();
    assert_eq!(m.all_learned().unwrap().len(), 2, "bob's lesson sits beside alice's");
}

#[test]
fn a_corrupt_file_is_refused_and_left_untouched() {
    let dir = temp();
    let path = dir.path().join("memory.db");
    let garbage: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&path, &garbage).unwrap();
    let err = Memory::open(&path).err().expect("refused");
    assert!(matches!(err, MemoryError::Corrupt { .. }), "{err}");
    assert!(err.to_string().contains("damaged"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), garbage);

    // A real memory file with its middle overwritten.
    let path = dir.path().join("damaged.db");
    {
        let mut m = Memory::open(&path).unwrap();
        for i in 0..300 {
            m.record_chat("alice", &format!("line {i} with some padding to fill pages"), i).unwrap();
        }
    }
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    for b in &mut bytes[mid..mid + 3000] {
        *b = 0xAB;
    }
    std::fs::write(&path, &bytes).unwrap();
    let err = Memory::open(&path).err().expect("refused");
    assert!(matches!(err, MemoryError::Corrupt { .. }), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn foreign_and_newer_files_are_refused() {
    let dir = temp();
    let foreign = dir.path().join("other.db");
    Connection::open(&foreign).unwrap().execute_batch("CREATE TABLE notes (t TEXT)").unwrap();
    let before = std::fs::read(&foreign).unwrap();
    assert!(matches!(Memory::open(&foreign), Err(MemoryError::Foreign { .. })));
    assert_eq!(std::fs::read(&foreign).unwrap(), before);

    let newer = dir.path().join("newer.db");
    drop(Memory::open(&newer).unwrap());
    Connection::open(&newer).unwrap().execute_batch("PRAGMA user_version = 9").unwrap();
    let before = std::fs::read(&newer).unwrap();
    let err = Memory::open(&newer).err().expect("refused");
    assert!(matches!(err, MemoryError::TooNew { found: 9, supported: SCHEMA_VERSION, .. }), "{err}");
    assert!(err.to_string().contains("newer"), "{err}");
    assert_eq!(std::fs::read(&newer).unwrap(), before);
}

#[test]
fn triples_about_anything_including_triples() {
    let mut m = Memory::in_memory().unwrap();
    let a = m.add_block_object(&[(Pos::new(0, 5, 0), block("red_wool"))]).unwrap();
    let b = m.add_block_object(&[(Pos::new(9, 5, 0), block("blue_wool"))]).unwrap();
    let named = m.name(a, "shed").unwrap();
    assert_eq!(m.name(a, "shed").unwrap(), named, "the same fact is stored once");
    let rel = m.add_triple(NewTriple::memory(a, "next_to", b)).unwrap();
    // A fact about a fact: who said it.
    let about = m.add_triple(NewTriple::text(rel, "said_by", "alice").source(Source::Told).confidence(0.8)).unwrap();
    assert_eq!(m.triples_about(b).unwrap()[0].id, rel);
    assert_eq!(m.triples_of(rel).unwrap()[0].id, about);
    assert!((m.triples_of(rel).unwrap()[0].confidence - 0.8).abs() < 1e-9);
    // Forgetting `b` removes the relation, and with it the fact about the relation.
    assert!(m.forget(b).unwrap());
    assert_eq!(m.kind_of(rel).unwrap(), None);
    assert_eq!(m.kind_of(about).unwrap(), None);
    assert_eq!(m.triples_of(a).unwrap().len(), 1);
    assert!(matches!(m.add_triple(NewTriple::text(999, "has_name", "x")), Err(MemoryError::NotFound(999))));
    assert!(matches!(m.add_triple(NewTriple::text(a, "has_name", "x").confidence(2.0)), Err(MemoryError::Invalid(_))));
    assert!(matches!(m.add_triple(NewTriple::text(a, "has_name", "  ")), Err(MemoryError::Invalid(_))));
    assert!(m.remove_triple(named).unwrap());
    assert!(matches!(m.remove_triple(a), Err(MemoryError::WrongKind { .. })));
}

#[test]
fn tasks_chats_and_schematics() {
    let mut m = Memory::in_memory().unwrap();
    m.set_tick(5);
    let parent = m
        .record_task(NewTask { logical_form: Some(json!({"action_type": "BUILD"})), ..NewTask::new("BUILD", "building a house") })
        .unwrap();
    let child = m.record_task(NewTask { parent: Some(parent), ..NewTask::new("MOVE", "walking there") }).unwrap();
    m.set_tick(9);
    m.update_task(child, TaskState::Done).unwrap();
    let last = m.last_tasks(5).unwrap();
    assert_eq!(last.iter().map(|t| t.id).collect::<Vec<_>>(), vec![child, parent]);
    assert_eq!((last[0].parent, last[0].finished_tick, last[0].created_tick), (Some(parent), Some(9), 5));
    assert_eq!(last[1].logical_form, Some(json!({"action_type": "BUILD"})));
    assert!(matches!(m.update_task(4242, TaskState::Done), Err(MemoryError::NotFound(_))));
    assert!(m.record_task(NewTask { parent: Some(4242), ..NewTask::new("MOVE", "") }).is_err());

    m.record_chat("alice", "build a house", 3).unwrap();
    m.record_chat("bob", "hi", 4).unwrap();
    let chats = m.recent_chats(10, Some("alice")).unwrap();
    assert_eq!((chats.len(), chats[0].text.as_str()), (1, "build a house"));
    assert_eq!(m.recent_chats(1, None).unwrap()[0].speaker, "bob");

    let blocks = [(Pos::new(0, 0, 0), block("stone_bricks")), (Pos::new(0, 1, 0), Block::intern("memory_test_mystery_block"))];
    m.save_schematic("stone tower", &blocks).unwrap();
    let s = m.schematic_by_name("Stone Towers").unwrap().unwrap();
    assert_eq!((s.name.as_str(), s.blocks.clone()), ("stone tower", blocks.to_vec()));
    assert!(m.schematic_by_name("castle").unwrap().is_none());
    assert_eq!(m.schematic_names().unwrap(), vec!["stone tower"]);
}

#[test]
fn object_lookups() {
    let fx = Fixture::new();
    let m = &fx.memory;
    let tower = fx.id_at(RED_TOWER);
    let obj = m.block_object(tower).unwrap().unwrap();
    assert_eq!(obj.blocks.len(), 6);
    assert_eq!(obj.bbox.size(), [1, 6, 1]);
    assert!(m.objects_with_name("towers").unwrap().contains(&tower));
    let (closest, d) = m.closest_object_to(Vec3::new(5.5, 12.0, 5.5), &[MemoryKind::BlockObject]).unwrap().unwrap();
    assert_eq!(closest, tower);
    assert!(d < 1.5);
    let alice = m.player_id("alice").unwrap().unwrap();
    assert_eq!(m.object(alice).unwrap().unwrap().kind, MemoryKind::Player);
    assert!(m.self_id().unwrap().is_some());
    assert!(matches!(m.block_object(alice), Err(MemoryError::WrongKind { .. })));
}

#[test]
fn named_locations() {
    let mut m = Memory::in_memory().unwrap();
    let home = m.add_location("home", Pos::new(10, 5, 10)).unwrap();
    let f: Filters = serde_json::from_value(json!({"output": {"attribute": "LOCATION"},
        "where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}})).unwrap();
    let r = m.query(&f, &QueryContext::new("go to home")).unwrap();
    assert_eq!(r.ids(), vec![home]);
    assert_eq!(r.answer, Answer::Values(vec![Value::Position(Pos::new(10, 5, 10).center())]));
}

#[test]
fn a_failed_batch_leaves_nothing_behind() {
    let mut m = Memory::in_memory().unwrap();
    let out: Result<(), MemoryError> = m.batch(|m| {
        m.record_chat("alice", "one", 1)?;
        Err(MemoryError::Invalid("stop".into()))
    });
    assert!(out.is_err());
    assert!(m.recent_chats(10, None).unwrap().is_empty());
    m.record_chat("alice", "two", 2).unwrap();
    assert_eq!(m.recent_chats(10, None).unwrap().len(), 1);
}

/// A tick's writes land together: another reader of the file sees none of them until the tick
/// ends, then all of them.
#[test]
fn a_ticks_writes_are_committed_together_at_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.db");
    let mut m = Memory::open(&file).unwrap();
    let other = Memory::open(&file).unwrap();
    m.begin_tick().unwrap();
    m.add_location("home", Pos::new(1, 5, 1)).unwrap();
    m.add_location("base", Pos::new(9, 5, 9)).unwrap();
    assert!(other.objects_of_kind(MemoryKind::Location).unwrap().is_empty(), "nothing is visible mid-tick");
    m.end_tick().unwrap();
    assert_eq!(other.objects_of_kind(MemoryKind::Location).unwrap().len(), 2, "both at once after it");
    // A batch that fails inside a tick takes back only its own part.
    m.begin_tick().unwrap();
    let failed: Result<(), _> = m.batch(|m| {
        m.add_location("gone", Pos::new(0, 5, 0))?;
        Err(crate::memory::MemoryError::Invalid("no".into()))
    });
    assert!(failed.is_err());
    m.add_location("kept", Pos::new(2, 5, 2)).unwrap();
    m.end_tick().unwrap();
    let names: Vec<String> = other
        .objects_of_kind(MemoryKind::Location)
        .unwrap()
        .into_iter()
        .flat_map(|o| other.values_of(o.id, "has_name").unwrap())
        .collect();
    assert!(names.contains(&"kept".to_string()) && !names.contains(&"gone".to_string()), "{names:?}");
}

#[test]
fn every_foreign_key_has_an_index() {
    // Deleting a memory looks up every row that refers to it; a reference without an index is a
    // scan of its whole table per delete, which slows a long session down as that table grows.
    let dir = temp();
    let path = dir.path().join("memory.db");
    drop(Memory::open(&path).unwrap());
    let c = Connection::open(&path).unwrap();
    let strings = |sql: &str| -> Vec<String> {
        let mut stmt = c.prepare(sql).unwrap();
        stmt.query_map([], |r| r.get::<_, String>(0)).unwrap().map(Result::unwrap).collect()
    };
    let mut checked = 0;
    for table in strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
        // Columns an index (or the rowid primary key) starts with.
        let mut leading = strings(&format!("SELECT name FROM pragma_table_info('{table}') WHERE pk = 1"));
        for index in strings(&format!("SELECT name FROM pragma_index_list('{table}')")) {
            leading.extend(strings(&format!("SELECT name FROM pragma_index_info('{index}') WHERE seqno = 0")));
        }
        for column in strings(&format!("SELECT \"from\" FROM pragma_foreign_key_list('{table}')")) {
            assert!(leading.contains(&column), "{table}.{column} refers to another row without an index");
            checked += 1;
        }
    }
    assert!(checked >= 8, "the memory's references were found ({checked})");
}

#[test]
fn the_last_tick_is_the_latest_anything_was_stamped_with() {
    let mut m = Memory::in_memory().unwrap();
    assert_eq!(m.last_tick().unwrap(), 0, "a new memory");
    m.record_chat("alice", "hi", 40).unwrap();
    m.set_tick(25);
    let t = m.record_task(crate::memory::NewTask::new("BUILD", "building")).unwrap();
    assert_eq!(m.last_tick().unwrap(), 40);
    m.set_tick(90);
    m.update_task(t, crate::memory::TaskState::Done).unwrap();
    assert_eq!(m.last_tick().unwrap(), 90);
}
