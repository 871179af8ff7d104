//! Lines players taught the bot: when a "did you mean?" is answered yes, or amended, the line
//! and the form it turned out to mean are kept, so the same line is understood at once next time
//! ("if I correct it once, it should remember"), and `craftmate export-learned` can hand them to
//! training as `text|json` rows.

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
    /// Remembers that `key` means `form` (whose spans index `text`); a later lesson replaces it.
    pub fn learn(&mut self, key: &str, text: &str, form: &str, speaker: &str, tick: u64) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO learned (key, text, form, speaker, tick) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(key) DO UPDATE SET text = ?2, form = ?3, speaker = ?4, tick = ?5",
            )?
            .execute(params![key, text, form, speaker, tick_sql(tick)])?;
        Ok(())
    }

    /// What `key` was taught to mean, if anything.
    pub fn learned(&self, key: &str) -> Result<Option<Learned>> {
        Ok(self
            .conn
            .prepare_cached("SELECT key, text, form, speaker, tick FROM learned WHERE key = ?1")?
            .query_row(params![key], row)
            .optional()?)
    }

    /// Forgets every line `speaker` taught; returns how many there were.
    pub fn forget_learned(&mut self, speaker: &str) -> Result<usize> {
        Ok(self.conn.prepare_cached("DELETE FROM learned WHERE speaker = ?1")?.execute(params![speaker])?)
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
        assert_eq!(m.learned("build a wall").unwrap(), None);
        m.learn("build a wall", "build a wall", "{\"a\": 1}", "alice", 5).unwrap();
        m.learn("build a wall", "build a wall 20 long", "{\"a\": 2}", "bob", 9).unwrap();
        let l = m.learned("build a wall").unwrap().expect("taught");
        assert_eq!((l.text.as_str(), l.form.as_str(), l.speaker.as_str(), l.tick), ("build a wall 20 long", "{\"a\": 2}", "bob", 9));
        assert_eq!(m.all_learned().unwrap().len(), 1);
        // Forgetting takes back only that player's lessons.
        m.learn("dig here", "dig a hole here", "{\"a\": 3}", "alice", 10).unwrap();
        assert_eq!(m.forget_learned("bob").unwrap(), 1);
        assert_eq!(m.forget_learned("bob").unwrap(), 0);
        assert_eq!(m.all_learned().unwrap().iter().map(|l| l.key.as_str()).collect::<Vec<_>>(), ["dig here"]);
    }
}
