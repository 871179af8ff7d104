-- craftmate memory, schema version 4 (the current one).
--
-- Every memory has a row in `memories`; the other tables add what a kind needs. Ids never repeat
-- (AUTOINCREMENT), so a stale reference ("that", a task's target) can never land on a new thing.
-- Deleting a memory cascades to its blocks, its task row and every triple that mentions it.

CREATE TABLE memories (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    -- block_object | hole | mob | player | self | location | triple | chat | task | schematic
    kind          TEXT    NOT NULL,
    created_tick  INTEGER NOT NULL,
    updated_tick  INTEGER NOT NULL,
    -- when a player last referred to it: "that" means the most recently attended memory
    attended_tick INTEGER
);
CREATE INDEX memories_kind ON memories(kind);
CREATE INDEX memories_attended ON memories(attended_tick) WHERE attended_tick IS NOT NULL;

-- Things in the world that words can point at.
CREATE TABLE reference_objects (
    id        INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    ref_type  TEXT    NOT NULL,          -- same values as memories.kind for objects
    -- position: the centre of a block object or hole, the feet of a player or mob
    x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL,
    -- inclusive bounding box, in blocks
    min_x INTEGER NOT NULL, min_y INTEGER NOT NULL, min_z INTEGER NOT NULL,
    max_x INTEGER NOT NULL, max_y INTEGER NOT NULL, max_z INTEGER NOT NULL,
    yaw   REAL, pitch REAL,              -- entities only
    voxels    INTEGER NOT NULL DEFAULT 0,
    entity_id INTEGER,                   -- a mob's id in the world
    player    TEXT                       -- a player's (or the agent's own) name
);
CREATE INDEX reference_objects_type ON reference_objects(ref_type);
CREATE UNIQUE INDEX reference_objects_entity ON reference_objects(entity_id) WHERE entity_id IS NOT NULL;
CREATE INDEX reference_objects_player ON reference_objects(player) WHERE player IS NOT NULL;

-- The blocks of block objects, and the dug-out cells of holes (`block` is then what was there).
CREATE TABLE object_blocks (
    object_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL,
    block TEXT NOT NULL,
    PRIMARY KEY (object_id, x, y, z)
) WITHOUT ROWID;
CREATE INDEX object_blocks_at ON object_blocks(x, y, z);

-- The triple store. A triple is a memory too, so it can be the subject or object of another.
-- The object is either another memory (`obj`) or text (`obj_text`); `obj_key` is the text's
-- normalized form (lemmas, canonical colours) that queries match against.
CREATE TABLE triples (
    id         INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    subj       INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    pred       TEXT    NOT NULL,
    obj        INTEGER REFERENCES memories(id) ON DELETE CASCADE,
    obj_text   TEXT,
    obj_key    TEXT,
    confidence REAL    NOT NULL DEFAULT 1.0,
    source     TEXT    NOT NULL CHECK (source IN ('told', 'perceived', 'inferred')),
    CHECK ((obj IS NULL) <> (obj_text IS NULL))
);
CREATE INDEX triples_subject ON triples(subj, pred, obj_key);
CREATE INDEX triples_match ON triples(pred, obj_key, subj);
CREATE INDEX triples_object ON triples(obj) WHERE obj IS NOT NULL;
-- A triple's own `memories` row goes when the triple goes (also when a cascade removed it).
CREATE TRIGGER triples_forget AFTER DELETE ON triples BEGIN
    DELETE FROM memories WHERE id = OLD.id;
END;

CREATE TABLE chats (
    id      INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    speaker TEXT    NOT NULL,
    text    TEXT    NOT NULL,
    tick    INTEGER NOT NULL
);
CREATE INDEX chats_tick ON chats(tick);

CREATE TABLE tasks (
    id            INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    action        TEXT    NOT NULL,      -- BUILD, MOVE, ...
    state         TEXT    NOT NULL,      -- pending | running | paused | done | failed | cancelled
    logical_form  TEXT,                  -- the action's logical form, as JSON
    parent        INTEGER REFERENCES memories(id) ON DELETE SET NULL,
    description   TEXT    NOT NULL DEFAULT '',
    created_tick  INTEGER NOT NULL,
    finished_tick INTEGER
);
CREATE INDEX tasks_state ON tasks(state);
-- Deleting any memory looks up the tasks it was the parent of.
CREATE INDEX tasks_parent ON tasks(parent);

CREATE TABLE schematics (
    id     INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    name_key TEXT NOT NULL,              -- lemma form of the name, for "build two houses"
    blocks TEXT NOT NULL                 -- JSON: [[x, y, z, "block_id"], ...] relative to the origin
);
CREATE INDEX schematics_name ON schematics(name_key);

-- What players taught the bot: a chat line (as prepared for reading: normalized, typos fixed)
-- and the logical form it turned out to mean, after a "did you mean?" was answered yes or amended.
-- `text` is the line the form's spans index (the key itself, or the amended line). A lesson
-- belongs to the player who taught it: each player has their own for the same words.
CREATE TABLE learned (
    key     TEXT    NOT NULL,
    text    TEXT    NOT NULL,
    form    TEXT    NOT NULL,
    speaker TEXT    NOT NULL,
    tick    INTEGER NOT NULL,
    PRIMARY KEY (speaker, key)
) WITHOUT ROWID;
CREATE INDEX learned_key ON learned(key, tick);

-- The cells a build still means to place for the object it makes (see memory/builds.rs): while
-- the build runs, perception gives every block the bot places on one of these cells to that
-- object, whatever it touches; after a restart, what is left of a plan is offered to finish.
CREATE TABLE plans (
    object_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL,
    block TEXT NOT NULL,
    PRIMARY KEY (object_id, x, y, z)
) WITHOUT ROWID;
