//! Who may command the bot on a server (`--allow alice,bob`).
//!
//! On a shared server not every player should be able to make the bot build or destroy. With an
//! allow-list, chat from anyone else never reaches the dialogue manager; they get one polite
//! refusal (at most one per player per [`Access::REFUSE_EVERY_TICKS`], so a chatty player does
//! not make the bot spam). Without one every player may command the bot, which the CLI prints as
//! a warning at start. Minecraft names are matched without regard to case, as the game does.

use std::collections::HashMap;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AccessError {
    #[error("{0:?} is not a Minecraft player name (1 to 16 letters, digits or underscores)")]
    BadName(String),
    #[error("the allow-list is empty")]
    Empty,
}

#[derive(Debug, Clone, Default)]
pub struct Access {
    /// Lower-cased names, or `None` for everyone.
    allowed: Option<Vec<String>>,
    /// When each refused player was last answered (agent ticks).
    refused_at: HashMap<String, u64>,
}

impl Access {
    /// Ticks between two refusals said to the same player (one minute).
    pub const REFUSE_EVERY_TICKS: u64 = 1200;

    /// Every player may command the bot.
    pub fn everyone() -> Access {
        Access::default()
    }

    /// Only these players may; names are checked.
    pub fn only<S: AsRef<str>>(names: &[S]) -> Result<Access, AccessError> {
        let mut allowed = Vec::new();
        for n in names {
            let n = n.as_ref().trim();
            if !super::chat::is_player_name(n) {
                return Err(AccessError::BadName(n.to_string()));
            }
            allowed.push(n.to_lowercase());
        }
        if allowed.is_empty() {
            return Err(AccessError::Empty);
        }
        allowed.sort();
        allowed.dedup();
        Ok(Access { allowed: Some(allowed), refused_at: HashMap::new() })
    }

    /// `alice,bob` (spaces allowed around names).
    pub fn parse(list: &str) -> Result<Access, AccessError> {
        let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
        Access::only(&names)
    }

    pub fn is_everyone(&self) -> bool {
        self.allowed.is_none()
    }

    /// The allowed names (lower-cased), if restricted.
    pub fn names(&self) -> Option<&[String]> {
        self.allowed.as_deref()
    }

    pub fn allows(&self, player: &str) -> bool {
        match &self.allowed {
            None => true,
            Some(names) => names.iter().any(|n| n.eq_ignore_ascii_case(player)),
        }
    }

    /// What to tell `player`, who is not allowed, at agent tick `tick`; `None` when they were
    /// told recently.
    pub fn refusal(&mut self, player: &str, tick: u64) -> Option<String> {
        let key = player.to_lowercase();
        if let Some(&last) = self.refused_at.get(&key)
            && tick.saturating_sub(last) < Self::REFUSE_EVERY_TICKS
        {
            return None;
        }
        self.refused_at.insert(key, tick);
        Some(format!("Sorry {player}, I only take requests from the players I was told to help."))
    }
}

/// The allow-list is the chat gate's answer to who may command the bot.
impl crate::safety::gate::Admission for Access {
    fn allows(&self, speaker: &str) -> bool {
        Access::allows(self, speaker)
    }
    fn refusal(&mut self, speaker: &str, tick: u64) -> Option<String> {
        Access::refusal(self, speaker, tick)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_by_default() {
        let a = Access::everyone();
        assert!(a.is_everyone() && a.allows("anybody") && a.names().is_none());
    }

    #[test]
    fn a_list_is_case_insensitive_and_checked() {
        let a = Access::parse(" alice, Bob ,,").unwrap();
        assert_eq!(a.names(), Some(&["alice".to_string(), "bob".to_string()][..]));
        assert!(a.allows("Alice") && a.allows("BOB") && !a.allows("mallory") && !a.allows("alic"));
        assert_eq!(Access::parse("alice,no way").unwrap_err(), AccessError::BadName("no way".into()));
        assert_eq!(Access::parse(" , ").unwrap_err(), AccessError::Empty);
        assert!(Access::parse("a_very_long_name_17").is_err());
    }

    #[test]
    fn refusals_are_rate_limited_per_player() {
        let mut a = Access::parse("alice").unwrap();
        let first = a.refusal("mallory", 100).unwrap();
        assert!(first.contains("mallory") && first.starts_with("Sorry"), "{first}");
        assert_eq!(a.refusal("Mallory", 200), None, "same player, too soon");
        assert!(a.refusal("eve", 200).is_some(), "another player");
        assert!(a.refusal("mallory", 100 + Access::REFUSE_EVERY_TICKS).is_some());
    }
}
