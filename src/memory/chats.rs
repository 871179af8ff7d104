//! Chat lines as they arrive, so the bot can answer "what did I just say" and later parts of a
//! dialogue can look back at earlier turns.

use rusqlite::params;

use super::error::{MemoryError, Result};
use super::store::{Memory, tick_rust, tick_sql};
use super::types::{MemoryId, MemoryKind};

/// A stored chat line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRecord {
    pub id: MemoryId,
    pub speaker: String,
    pub text: String,
    pub tick: u64,
}

impl Memory {
    /// Stores a chat line heard at `tick`, at most one chat message of it
    /// ([`crate::safety::text::capped_chat`]); the oldest lines beyond the retention go
    /// ([`super::retention`]).
    pub fn record_chat(&mut self, speaker: &str, text: &str, tick: u64) -> Result<MemoryId> {
        if speaker.trim().is_empty() {
            return Err(MemoryError::Invalid("a chat line needs a speaker".into()));
        }
        let text = crate::safety::text::capped_chat(text);
        let speaker = crate::safety::text::capped_chat(speaker);
        self.wrote_history()?;
        self.batch(|m| {
            let id = m.new_memory(MemoryKind::Chat, tick)?;
            m.conn
                .prepare_cached("INSERT INTO chats (id, speaker, text, tick) VALUES (?1, ?2, ?3, ?4)")?
                .execute(params![id, speaker, text, tick_sql(tick)])?;
            Ok(id)
        })
    }

    /// The last `n` chat lines (of `speaker`, or of anyone), newest first.
    pub fn recent_chats(&self, n: usize, speaker: Option<&str>) -> Result<Vec<ChatRecord>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, speaker, text, tick FROM chats WHERE ?1 IS NULL OR speaker = ?1
             ORDER BY tick DESC, id DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![speaker, n.min(i64::MAX as usize) as i64], |r| {
            Ok(ChatRecord { id: r.get(0)?, speaker: r.get(1)?, text: r.get(2)?, tick: tick_rust(r.get(3)?) })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
