//! Lines players taught the bot: when a "did you mean?" is answered yes, or amended, the line
//! and the form it turned out to mean are kept, so the same line is understood at once next time
//! ("if I correct it once, it should remember"), and `craftmate export-learned` can hand them to
//! training as `text|json` rows. A lesson belongs to the player who taught it: the same words
//! may mean one thing for alice and another for bob, and only the owner's choice to share
//! lessons lets one player's lesson answer another's words.

use rusqlite::{OptionalExtension, params};

use super::error::Result;
use super::store::{Memory, tick_rust, tick_sql};

/// A taught line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learned {
    /// The line as the player said it, prepared for reading (normalized, typos fixed).
    pub key: String,
    /// The words the form's spans index: the key itself, or the line that amended it.
    pub text: String,
    /// The logical form, as JSON.
    pub form: String,
    pub speaker: String,
    pub tick: u64,
}

impl Memory {
    /// Remembers that, for `speaker`, `key` means `form` (whose spans index `text`); a later
    /// lesson of theirs replaces it.
    pub fn learn(&mut self, key: &str, text: &str, form: &str, speaker: &str, tick: u64) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO learned (key, text, form, speaker, tick) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(speaker, key) DO UPDATE SET text = ?2, form = ?3, tick = ?5",
            )?
            .execute(params![key, text, form, speaker, tick_sql(tick)])?;
        Ok(())
    }

    /// What `key` was taught to mean: by `speaker` alone, or (`None`: lessons are shared) by
    /// anyone, the latest lesson winning.
    pub fn learned(&self, key: &str, speaker: Option<&str>) -> Result<Option<Learned>> {
        let sql = match speaker {
            Some(_) => "SELECT key, text, form, speaker, tick FROM learned WHERE key = ?1 AND speaker = ?2",
            None => "SELECT key, text, form, speaker, tick FROM learned WHERE key = ?1 AND ?2 IS NULL ORDER BY tick DESC LIMIT 1",
        };
        Ok(self.conn.prepare_cached(sql)?.query_row(params![key, speaker], row).optional()?)
    }

    /// Forgets every line `speaker` taught; returns how many there were.
    pub fn forget_learned(&mut self, speaker: &str) -> Result<usize> {
        Ok(self.conn.prepare_cached("DELETE FROM learned WHERE speaker = ?1")?.execute(params![speaker])?)
    }

    /// The lines `speaker` taught, oldest first.
    pub fn learned_by(&self, speaker: &str) -> Result<Vec<Learned>> {
        let mut stmt = self.conn.prepare_cached("SELECT key, text, form, speaker, tick FROM learned WHERE speaker = ?1 ORDER BY tick, key")?;
        let rows = stmt.query_map(params![speaker], row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every taught line, oldest first.
    pub fn all_learned(&self) -> Result<Vec<Learned>> {
        let mut stmt = self.conn.prepare_cached("SELECT key, text, form, speaker, tick FROM learned ORDER BY tick, key")?;
        let rows = stmt.query_map([], row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

fn row(r: &rusqlite::Row) -> rusqlite::Result<Learned> {
    Ok(Learned { key: r.get(0)?, text: r.get(1)?, form: r.get(2)?, speaker: r.get(3)?, tick: tick_rust(r.get(4)?) })
}

#[cfg(test)]
mod tests {
    use crate::memory::Memory;

    #[test]
    fn a_lesson_is_kept_and_a_later_one_replaces_it() {
        let mut m = Memory::in_memory().unwrap();
        assert_eq!(m.learned("build a wall", Some("alice")).unwrap(), None);
        m.learn("build a wall", "build a wall", "{\"a\": 1}", "alice", 5).unwrap();
        m.learn("build a wall", "build a wall 20 long", "{\"a\": 2}", "alice", 9).unwrap();
        let l = m.learned("build a wall", Some("alice")).unwrap().expect("taught");
        assert_eq!((l.text.as_str(), l.form.as_str(), l.speaker.as_str(), l.tick), ("build a wall 20 long", "{\"a\": 2}", "alice", 9));
        assert_eq!(m.all_learned().unwrap().len(), 1);
        // Forgetting takes back only that player's lessons.
        m.learn("dig here", "dig a hole here", "{\"a\": 3}", "bob", 10).unwrap();
        assert_eq!(m.forget_learned("alice").unwrap(), 1);
        assert_eq!(m.forget_learned("alice").unwrap(), 0);
        assert_eq!(m.all_learned().unwrap().iter().map(|l| l.key.as_str()).collect::<Vec<_>>(), ["dig here"]);
    }

    #[test]
    fn a_lesson_is_the_teachers_own_unless_lessons_are_shared() {
        let mut m = Memory::in_memory().unwrap();
        m.learn("make it so", "dig a hole here", "{\"by\": \"mallory\"}", "mallory", 5).unwrap();
        assert_eq!(m.learned("make it so", Some("alice")).unwrap(), None, "mallory's lesson is not alice's");
        assert!(m.learned("make it so", Some("mallory")).unwrap().is_some());
        m.learn("make it so", "build a tower", "{\"by\": \"alice\"}", "alice", 9).unwrap();
        assert_eq!(m.learned("make it so", Some("mallory")).unwrap().unwrap().form, "{\"by\": \"mallory\"}");
        // Shared: the latest lesson, whoever taught it.
        assert_eq!(m.learned("make it so", None).unwrap().unwrap().speaker, "alice");
        assert_eq!(m.learned_by("mallory").unwrap().len(), 1);
    }
}
