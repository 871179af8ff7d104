//! Stories of memory files that arrive with something odd beside them: a killed bot's log, another
//! program's log, a log without its file, missing tables, a read-only folder, a live connection.

use std::path::{Path, PathBuf};

use rusqlite::Connection;

use super::error::Untouched;
use super::{Memory, MemoryError};

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The bytes of a file, or `None` when there is none: compared whole, before and after.
fn bytes(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

fn wal(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}-wal", path.display()))
}

/// A memory that was written and closed cleanly (no log beside it), with one chat line.
fn healthy(path: &Path) {
    let mut m = Memory::open(path).unwrap();
    m.record_chat("alice", "build a tower", 1).unwrap();
    drop(m);
    assert!(!wal(path).exists(), "a clean close folds the log into the file");
}

/// What a `kill -9` leaves: the file and its log with committed work not yet in the file. Made by
/// copying both while a connection is open (the copies have no locks on them, as after a kill).
fn killed_with(path: &Path, lines: &[&str]) {
    let live = path.with_extension("live");
    let mut m = Memory::open(&live).unwrap();
    for (i, line) in lines.iter().enumerate() {
        m.record_chat("alice", line, i as u64).unwrap();
    }
    std::fs::copy(&live, path).unwrap();
    std::fs::copy(wal(&live), wal(path)).unwrap();
    drop(m);
}

#[test]
fn a_killed_bots_log_is_applied_on_a_copy_and_the_original_bytes_are_kept() {
    let dir = temp();
    let path = dir.path().join("memory.db");
    killed_with(&path, &["build a red cube", "call it bob"]);
    let (file_before, log_before) = (bytes(&path), bytes(&wal(&path)));
    assert!(log_before.as_ref().is_some_and(|l| l.len() > 32), "the log holds frames");

    let m = Memory::open(&path).unwrap();
    let texts: Vec<String> = m.recent_chats(10, None).unwrap().into_iter().map(|c| c.text).collect();
    assert!(texts.contains(&"call it bob".to_string()), "nothing committed is lost: {texts:?}");
    let kept = m.recovered_from().expect("the recovery is reported").to_path_buf();
    assert_eq!(kept, dir.path().join("memory.db.recovery.bak"));
    assert_eq!(bytes(&kept), file_before, "the original file is kept byte for byte");
    assert_eq!(bytes(&wal(&kept)), log_before, "and its log beside it");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.contains("recovery-check"))
        .collect();
    assert!(leftovers.is_empty(), "the checked copy became the file: {leftovers:?}");
}

#[test]
fn another_programs_log_beside_a_healthy_memory_is_refused_and_both_stay_as_they_were() {
    let dir = temp();
    let path = dir.path().join("memory.db");
    healthy(&path);
    // Another program's database in WAL mode, its log copied while it is open.
    let other = dir.path().join("notes.db");
    let c = Connection::open(&other).unwrap();
    c.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).unwrap();
    c.execute_batch("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('not a memory');").unwrap();
    std::fs::copy(wal(&other), wal(&path)).unwrap();
    let (file_before, log_before) = (bytes(&path), bytes(&wal(&path)));

    let err = Memory::open(&path).err().expect("refused");
    assert!(matches!(err, MemoryError::ForeignLog { untouched: Untouched::Yes, .. }), "{err}");
    let said = err.to_string();
    assert!(said.contains("does not belong") && said.contains("another program") && said.contains("left untouched"), "{said}");
    assert_eq!(bytes(&path), file_before, "the memory file is unchanged");
    assert_eq!(bytes(&wal(&path)), log_before, "the log is unchanged");
    assert!(!dir.path().join("memory.db.recovery.bak").exists(), "nothing was replaced");
}

#[test]
fn a_log_without_its_database_is_refused_and_never_deleted() {
    let dir = temp();
    let source = dir.path().join("source.db");
    killed_with(&source, &["dig a hole"]);
    let log = bytes(&wal(&source)).unwrap();

    // The file is missing.
    let missing = dir.path().join("moved.db");
    std::fs::write(wal(&missing), &log).unwrap();
    let err = Memory::open(&missing).err().expect("refused");
    assert!(matches!(err, MemoryError::LogWithoutDatabase { .. }), "{err}");
    assert!(err.to_string().contains("missing or empty"), "{err}");
    assert_eq!(bytes(&wal(&missing)), Some(log.clone()), "the log is kept");
    assert!(!missing.exists(), "no empty database is made in its place");

    // The file is there but empty.
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    std::fs::write(wal(&empty), &log).unwrap();
    assert!(matches!(Memory::open(&empty), Err(MemoryError::LogWithoutDatabase { .. })));
    assert_eq!(bytes(&wal(&empty)), Some(log));
    assert_eq!(bytes(&empty), Some(Vec::new()));
}

#[test]
fn a_file_whose_tables_differ_from_its_version_is_refused() {
    let dir = temp();
    let path = dir.path().join("memory.db");
    healthy(&path);
    Connection::open(&path).unwrap().execute_batch("DROP TABLE chats; DROP TABLE plans;").unwrap();
    let before = bytes(&path);
    let err = Memory::open(&path).err().expect("refused");
    assert!(matches!(err, MemoryError::SchemaMismatch { .. }), "{err}");
    assert!(err.to_string().contains("table chats is missing"), "{err}");
    assert_eq!(bytes(&path), before);

    // A column dropped is as wrong as a table.
    let path = dir.path().join("columns.db");
    healthy(&path);
    Connection::open(&path).unwrap().execute_batch("ALTER TABLE tasks DROP COLUMN description;").unwrap();
    let err = Memory::open(&path).err().expect("refused");
    assert!(err.to_string().contains("table tasks has no column description"), "{err}");

    // An older version is judged by the tables that version had: a v5 file has no lessons keyed
    // by speaker yet, and is migrated, not refused.
    let path = dir.path().join("v5.db");
    healthy(&path);
    Connection::open(&path)
        .unwrap()
        .execute_batch(
            "DROP TABLE learned;
             CREATE TABLE learned (key TEXT PRIMARY KEY, text TEXT NOT NULL, form TEXT NOT NULL, speaker TEXT NOT NULL, tick INTEGER NOT NULL);
             PRAGMA user_version = 5;",
        )
        .unwrap();
    assert_eq!(Memory::open(&path).unwrap().schema_version().unwrap(), super::SCHEMA_VERSION);
}

#[test]
fn the_embedded_worlds_tables_beside_the_memory_are_its_own() {
    let dir = temp();
    let path = dir.path().join("memory.db");
    healthy(&path);
    drop(crate::world::embedded::WorldStore::open(&path).unwrap());
    assert!(Memory::open(&path).is_ok(), "the world's tables are allowed in a memory file");
}

#[test]
fn a_log_in_use_by_a_running_bot_is_not_taken_for_a_leftover() {
    let dir = temp();
    let path = dir.path().join("memory.db");
    let world = crate::world::embedded::WorldStore::open(&path).unwrap();
    let mut first = Memory::open(&path).unwrap();
    first.record_chat("alice", "build a wall", 1).unwrap();
    assert!(bytes(&wal(&path)).is_some_and(|l| l.len() > 32), "the running bot's log holds frames");

    // A second bot on the same file (as `play` opens it again) reads the live log; no recovery.
    let second = Memory::open(&path).unwrap();
    assert_eq!(second.recovered_from(), None);
    assert!(!dir.path().join("memory.db.recovery.bak").exists());
    assert_eq!(second.recent_chats(5, None).unwrap().len(), 1);
    drop(second);

    // The checks opened no descriptor of their own on the file: this process still holds the
    // locks of its running connections, so both keep working.
    let shm = PathBuf::from(format!("{}-shm", path.display()));
    let id = super::file::file_id(&shm).unwrap();
    let locks = std::fs::read_to_string("/proc/locks").unwrap();
    assert!(locks.lines().any(|l| super::file::lock_on(l, id)), "the WAL index is still locked");
    first.record_chat("alice", "and a door", 2).unwrap();
    drop(world);
}

#[test]
fn a_file_in_a_read_only_folder_gets_its_own_message() {
    let dir = temp();
    let folder = dir.path().join("ro");
    std::fs::create_dir(&folder).unwrap();
    let path = folder.join("memory.db");
    healthy(&path);
    // Root may write anywhere a mode allows nobody to; an immutable folder stops root too.
    let locked = |on: bool| {
        let flag = if on { "+i" } else { "-i" };
        std::process::Command::new("chattr").arg(flag).arg(&folder).status().is_ok_and(|s| s.success())
    };
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
    let is_root = unsafe { libc::geteuid() } == 0;
    if is_root && !locked(true) {
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("SKIPPED: chattr +i is not available here, and root can write any folder");
        return;
    }
    let result = Memory::open(&path);
    if is_root {
        locked(false);
    }
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    let err = result.err().expect("refused");
    assert!(matches!(err, MemoryError::FolderReadOnly { .. }), "{err}");
    assert!(err.to_string().contains("folder") && !err.to_string().contains("damaged"), "{err}");
}
