-- craftmate memory, schema version 1 (historic; kept so the migration path is tested).
--
-- Version 1 stored triples without confidence, source or a normalized match key, and tasks
-- without a description. `migrate.rs` turns such a file into the current version.

CREATE TABLE memories (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT    NOT NULL,
    created_tick  INTEGER NOT NULL,
    updated_tick  INTEGER NOT NULL,
    attended_tick INTEGER
);

CREATE TABLE reference_objects (
    id        INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    ref_type  TEXT    NOT NULL,
    x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL,
    min_x INTEGER NOT NULL, min_y INTEGER NOT NULL, min_z INTEGER NOT NULL,
    max_x INTEGER NOT NULL, max_y INTEGER NOT NULL, max_z INTEGER NOT NULL,
    yaw   REAL, pitch REAL,
    voxels    INTEGER NOT NULL DEFAULT 0,
    entity_id INTEGER,
    player    TEXT
);

CREATE TABLE object_blocks (
    object_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL,
    block TEXT NOT NULL,
    PRIMARY KEY (object_id, x, y, z)
) WITHOUT ROWID;

CREATE TABLE triples (
    id       INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    subj     INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    pred     TEXT    NOT NULL,
    obj      INTEGER REFERENCES memories(id) ON DELETE CASCADE,
    obj_text TEXT
);
CREATE INDEX triples_subject ON triples(subj, pred);

CREATE TABLE chats (
    id      INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    speaker TEXT    NOT NULL,
    text    TEXT    NOT NULL,
    tick    INTEGER NOT NULL
);

CREATE TABLE tasks (
    id            INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    action        TEXT    NOT NULL,
    state         TEXT    NOT NULL,
    logical_form  TEXT,
    parent        INTEGER REFERENCES memories(id) ON DELETE SET NULL,
    created_tick  INTEGER NOT NULL,
    finished_tick INTEGER
);

CREATE TABLE schematics (
    id     INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    blocks TEXT NOT NULL
);
