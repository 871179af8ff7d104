//! Checking a memory file before anything writes to it.
//!
//! Players restore backups, copy files between machines and kill bots; a file can arrive with a
//! stale write-ahead log (`-wal`) or rollback journal (`-journal`) beside it, possibly one that
//! belongs to some other database. SQLite applies such a log the moment a file is opened for
//! writing, before any check could run — so nothing here ever opens the real file for writing:
//!
//! - The file alone is read `immutable` (SQLite neither writes it nor looks at any log).
//! - A log left behind (nobody holds a lock on it) is applied to a **copy** in the same folder,
//!   and the copy is checked: craftmate's id, a version it understands, integrity, and the exact
//!   tables and columns that version names. Only a good copy replaces the file, and the original
//!   file and log are kept beside it first (see [`Checked::recovered`]).
//! - A log in use by a running connection — this process's own embedded world, say — is live
//!   data, not a leftover: it is read through an ordinary connection, as SQLite intends.
//! - A log with no database (missing or empty file) is refused and never deleted: it may be all
//!   that is left of a file someone moved.
//! - A refusal says the file was "left untouched" only when its size and modification time and
//!   those of its logs are what they were before the checks.
//!
//! Whether a log is in use is read from `/proc/locks` and never by opening the file: closing any
//! descriptor of a file drops every POSIX lock this process holds on it, which would silently
//! unlock the embedded world's own connection.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::error::{MemoryError, Result, Untouched};
use super::store::{APPLICATION_ID, SCHEMA_VERSION};

/// Tables of the embedded world, which keeps its blocks in the same file as the memory.
const WORLD_TABLES: &[&str] = &["world_state", "world_sections"];

/// What a look at an existing file found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileState {
    /// No file, or a 0-byte one: a new memory is made.
    New,
    /// A valid SQLite file with no tables (e.g. created by `touch` and opened once).
    Empty,
    /// A craftmate memory with this schema version (never newer than this build's).
    Version(u32),
}

/// The outcome of [`check`].
#[derive(Debug)]
pub(crate) struct Checked {
    pub state: FileState,
    /// Where the original file was kept when a leftover log was applied (its log lies beside it
    /// under the same name plus `-wal` or `-journal`).
    pub recovered: Option<PathBuf>,
}

/// Looks at `path` (and any log beside it) without changing it, recovering a leftover log on a
/// copy. Errors name what is wrong; every refusal leaves the file and its logs as they were.
pub(crate) fn check(path: &Path) -> Result<Checked> {
    let logs = Logs::of(path);
    let len = match std::fs::metadata(path) {
        Ok(meta) => Some(meta.len()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e.into()),
    };
    writable_folder(path)?;
    if len.unwrap_or(0) == 0 {
        if let Some(log) = logs.with_content() {
            return Err(MemoryError::LogWithoutDatabase { path: path.to_path_buf(), log });
        }
        return Ok(Checked { state: FileState::New, recovered: None });
    }
    writable_file(path)?;
    let before = Snapshot::take(path, &logs);
    let outcome = match logs.with_content() {
        None => inspect(path, Opening::Immutable).map(|state| Checked { state, recovered: None }),
        Some(_) if logs.in_use(path) => inspect(path, Opening::Shared).map(|state| Checked { state, recovered: None }),
        Some(log) => recover(path, &log),
    };
    // A refusal promises nothing changed; say so only when it is true.
    outcome.map_err(|e| e.with_untouched(Snapshot::take(path, &logs) == before))
}

/// How the file is read for [`inspect`].
#[derive(Clone, Copy)]
enum Opening {
    /// The file alone, as it is on disk: no log applied, nothing written.
    Immutable,
    /// An ordinary connection: for files whose log another connection is using, and for copies.
    Shared,
}

/// What a file is: its id, version, integrity and schema, as a state or a refusal.
fn inspect(path: &Path, opening: Opening) -> Result<FileState> {
    let corrupt = |detail: String| MemoryError::Corrupt { path: path.to_path_buf(), detail, untouched: Untouched::Yes };
    let conn = match opening {
        Opening::Immutable => Connection::open_with_flags(
            format!("file:{}?immutable=1", uri_path(path)),
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        ),
        Opening::Shared => {
            Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        }
    }
    .map_err(|e| corrupt(e.to_string()))?;
    let pragma = |name: &str| -> Result<i64> {
        conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get::<_, i64>(0)).map_err(|e| corrupt(e.to_string()))
    };
    let app_id = pragma("application_id")?;
    let version = pragma("user_version")?;
    let check: String =
        conn.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(|e| corrupt(e.to_string()))?;
    if check != "ok" {
        return Err(corrupt(format!("integrity check: {check}")));
    }
    let found = columns_of(&conn).map_err(|e| corrupt(e.to_string()))?;
    if app_id as i32 != APPLICATION_ID {
        return if app_id == 0 && found.is_empty() {
            Ok(FileState::Empty)
        } else {
            Err(MemoryError::Foreign { path: path.to_path_buf(), untouched: Untouched::Yes })
        };
    }
    let version = version.clamp(0, u32::MAX as i64) as u32;
    if version == 0 {
        return Err(corrupt("it is marked as a craftmate memory but has no schema version".into()));
    }
    if version > SCHEMA_VERSION {
        return Err(MemoryError::TooNew {
            path: path.to_path_buf(),
            found: version,
            supported: SCHEMA_VERSION,
            untouched: Untouched::Yes,
        });
    }
    let expected = expected_columns(version).map_err(MemoryError::Invalid)?;
    if let Some(detail) = schema_difference(&expected, &found, version) {
        return Err(MemoryError::SchemaMismatch { path: path.to_path_buf(), detail, untouched: Untouched::Yes });
    }
    Ok(FileState::Version(version))
}

/// Applies a leftover log to a copy of the file and the log; a good copy replaces the file after
/// the original bytes are kept beside it.
fn recover(path: &Path, log: &Path) -> Result<Checked> {
    let alone = inspect(path, Opening::Immutable);
    let copy = numbered(&format!("{}.recovery-check", path.display()));
    let copy_log = PathBuf::from(format!("{}{}", copy.display(), log_suffix(path, log)));
    let applied = (|| -> Result<FileState> {
        std::fs::copy(path, &copy)?;
        std::fs::copy(log, &copy_log)?;
        {
            // Opening the copy for writing applies its log; a checkpoint folds it into the copy.
            let conn = Connection::open(&copy)?;
            conn.query_row("PRAGMA schema_version", [], |_| Ok(()))?;
            conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        }
        inspect(&copy, Opening::Shared)
    })();
    let state = match applied {
        Ok(state) => state,
        Err(e) => {
            remove_copy(&copy);
            return Err(match alone {
                // The file is fine on its own: the log is what does not fit.
                Ok(_) => MemoryError::ForeignLog {
                    path: path.to_path_buf(),
                    log: log.to_path_buf(),
                    detail: what_it_makes(&e),
                    untouched: Untouched::Yes,
                },
                Err(own) => own,
            });
        }
    };
    let backup = numbered(&format!("{}.recovery.bak", path.display()));
    let backup_log = PathBuf::from(format!("{}{}", backup.display(), log_suffix(path, log)));
    std::fs::rename(path, &backup)?;
    if let Err(e) = std::fs::rename(log, &backup_log).and_then(|_| std::fs::rename(&copy, path)) {
        // Put everything back as it was before saying what failed.
        let _ = std::fs::rename(&backup_log, log);
        let _ = std::fs::rename(&backup, path);
        remove_copy(&copy);
        return Err(e.into());
    }
    remove_copy(&copy);
    // The index of the log just moved away describes frames that are no longer there.
    let _ = std::fs::remove_file(format!("{}-shm", path.display()));
    Ok(Checked { state, recovered: Some(backup) })
}

/// What a log applied to a copy turned it into, in a few words.
fn what_it_makes(e: &MemoryError) -> String {
    match e {
        MemoryError::Foreign { .. } => "a database of another program".into(),
        MemoryError::Corrupt { detail, .. } => format!("a damaged file: {detail}"),
        MemoryError::TooNew { found, .. } => format!("a memory of schema version {found}, newer than this craftmate"),
        MemoryError::SchemaMismatch { detail, .. } => format!("a memory whose {detail}"),
        other => other.to_string(),
    }
}

/// Removes a recovery copy and whatever SQLite left beside it.
fn remove_copy(copy: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", copy.display()));
    }
}

/// `-wal` or `-journal`: the part of `log`'s name after the file's own.
fn log_suffix<'a>(path: &Path, log: &'a Path) -> &'a str {
    let (file, log) = (path.as_os_str().len(), log.to_str().unwrap_or_default());
    log.get(file..).unwrap_or("-wal")
}

/// `base`, or `base.1`, `base.2`… — the first name not taken (with or without a log beside it).
fn numbered(base: &str) -> PathBuf {
    let taken = |p: &str| ["", "-wal", "-journal"].iter().any(|s| Path::new(&format!("{p}{s}")).exists());
    let mut candidate = base.to_string();
    let mut n = 1;
    while taken(&candidate) {
        candidate = format!("{base}.{n}");
        n += 1;
    }
    PathBuf::from(candidate)
}

/// A path as the path part of an SQLite `file:` URI (`%`, `?` and `#` escaped).
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3f"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    out
}

/// The file's folder must take new files: SQLite keeps its log and index beside the file.
fn writable_folder(path: &Path) -> Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !folder.exists() {
        return Err(MemoryError::Io(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("the folder {} does not exist", folder.display()),
        )));
    }
    access_denied(&folder).map_or(Ok(()), |detail| {
        Err(MemoryError::FolderReadOnly { path: path.to_path_buf(), folder, detail })
    })
}

/// A file that cannot be written is refused: a bot that silently saves nothing would lose what
/// players teach it.
fn writable_file(path: &Path) -> Result<()> {
    access_denied(path).map_or(Ok(()), |detail| Err(MemoryError::ReadOnly { path: path.to_path_buf(), detail }))
}

/// Why `path` cannot be written, asked with `access(2)`: no descriptor is opened (see the module
/// docs on locks). `None` when it can.
fn access_denied(path: &Path) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c_path` is a valid NUL-terminated string that lives across the call.
    let rc = unsafe { libc::access(c_path.as_ptr(), libc::W_OK) };
    (rc != 0).then(|| std::io::Error::last_os_error().to_string())
}

/// The logs SQLite may keep beside a database file.
struct Logs {
    wal: PathBuf,
    journal: PathBuf,
    shm: PathBuf,
}

impl Logs {
    fn of(path: &Path) -> Logs {
        let with = |suffix: &str| PathBuf::from(format!("{}{suffix}", path.display()));
        Logs { wal: with("-wal"), journal: with("-journal"), shm: with("-shm") }
    }

    /// The log that holds changes not yet in the file, if any: a `-wal` with frames (more than its
    /// 32-byte header) or a non-empty `-journal`.
    fn with_content(&self) -> Option<PathBuf> {
        let len = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        if len(&self.wal) > 32 {
            Some(self.wal.clone())
        } else if len(&self.journal) > 0 {
            Some(self.journal.clone())
        } else {
            None
        }
    }

    /// Whether any process (this one included) holds a lock on the file or its WAL index: a
    /// running connection, whose log is live.
    fn in_use(&self, path: &Path) -> bool {
        let Ok(locks) = std::fs::read_to_string("/proc/locks") else { return false };
        [path, self.shm.as_path()].iter().filter_map(|p| file_id(p)).any(|id| locks.lines().any(|l| lock_on(l, id)))
    }
}

/// (major, minor, inode) of a file, as `/proc/locks` names it.
pub(crate) fn file_id(path: &Path) -> Option<(u32, u32, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    let dev = meta.dev();
    Some((libc::major(dev), libc::minor(dev), meta.ino()))
}

/// Whether a `/proc/locks` line (`1: POSIX ADVISORY READ 123 fd:01:4567 128 128`) is a lock on
/// the file `id`.
pub(crate) fn lock_on(line: &str, (major, minor, inode): (u32, u32, u64)) -> bool {
    line.split_whitespace().any(|field| {
        let parts: Vec<&str> = field.split(':').collect();
        let [maj, min, ino] = parts[..] else { return false };
        u32::from_str_radix(maj, 16) == Ok(major)
            && u32::from_str_radix(min, 16) == Ok(minor)
            && ino.parse::<u64>() == Ok(inode)
    })
}

/// Size and modification time of the file and its logs: what "untouched" is judged by.
#[derive(PartialEq, Eq)]
struct Snapshot(Vec<Option<(u64, std::time::SystemTime)>>);

impl Snapshot {
    fn take(path: &Path, logs: &Logs) -> Snapshot {
        let one = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.len(), m.modified().unwrap_or(std::time::UNIX_EPOCH)));
        Snapshot(vec![one(path), one(&logs.wal), one(&logs.journal)])
    }
}

/// Table → column names, for every table but SQLite's own and the embedded world's.
type Columns = BTreeMap<String, BTreeSet<String>>;

fn columns_of(conn: &Connection) -> rusqlite::Result<Columns> {
    let mut stmt = conn.prepare(
        "SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
    )?;
    let mut out = Columns::new();
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    for row in rows {
        let (table, column) = row?;
        if !WORLD_TABLES.contains(&table.as_str()) {
            out.entry(table).or_default().insert(column);
        }
    }
    Ok(out)
}

/// The tables and columns a memory of `version` has: the first schema, migrated step by step.
fn expected_columns(version: u32) -> Result<Columns, String> {
    let mut conn = Connection::open_in_memory().map_err(|e| e.to_string())?;
    if version == SCHEMA_VERSION {
        conn.execute_batch(super::SCHEMA_SQL).map_err(|e| e.to_string())?;
    } else {
        conn.execute_batch(super::SCHEMA_V1_SQL).map_err(|e| e.to_string())?;
        super::migrate::upgrade_to(&mut conn, 1, version)?;
    }
    columns_of(&conn).map_err(|e| e.to_string())
}

/// How `found` differs from what a memory of `version` has, in words; `None` when it does not.
fn schema_difference(expected: &Columns, found: &Columns, version: u32) -> Option<String> {
    for (table, columns) in expected {
        let Some(have) = found.get(table) else { return Some(format!("table {table} is missing")) };
        if let Some(c) = columns.difference(have).next() {
            return Some(format!("table {table} has no column {c}"));
        }
        if let Some(c) = have.difference(columns).next() {
            return Some(format!("table {table} has a column {c} that version {version} does not have"));
        }
    }
    found
        .keys()
        .find(|t| !expected.contains_key(*t))
        .map(|t| format!("it has a table {t} that version {version} does not have"))
}
