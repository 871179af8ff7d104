//! Who may command the bot on a server (`--allow alice,bob`).
//!
//! On a shared server not every player should be able to make the bot build or destroy. With an
//! allow-list, chat from anyone else never reaches the dialogue manager; they get one polite
//! refusal (at most one per player per [`Access::REFUSE_EVERY_TICKS`], so a chatty player does
//! not make the bot spam). Without one every player may command the bot, which the CLI prints as
//! a warning at start.
//!
//! An entry is a player's name, matched exactly ("ALICE" is not "alice"), or a player's UUID,
//! matched against the UUID the server sends with signed player chat. With signed chat a name
//! entry is matched against the sender's *account* name (their UUID looked up in the player
//! list), never against the name the message shows, which a nickname plugin may set to anything;
//! a signed line whose sender is not in the player list can only match a UUID entry
//! ([`Access::by_uuid_only`]). A name is only as good as the server's login: on an offline-mode
//! server anyone can join under any name, so there the list keeps out the careless, not the
//! malicious (use an online-mode server, or its whitelist).
//!
//! Some servers send all chat as server messages of the form `<alice> hi`, which anyone who can
//! make the server print a line can imitate; such lines are believed only when
//! [`Access::trust_system_chat`] is on (`--system-chat`).

use std::collections::HashMap;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AccessError {
    #[error("{0:?} is not a Minecraft player name (1 to 16 letters, digits or underscores)")]
    BadName(String),
    #[error("the allow-list is empty")]
    Empty,
}

/// One entry of the allow-list.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Entry {
    /// A player name, exactly as it must appear.
    Name(String),
    /// A player UUID, lower-case with hyphens.
    Uuid(String),
}

#[derive(Debug, Clone, Default)]
pub struct Access {
    /// The entries, or `None` for everyone.
    allowed: Option<Vec<Entry>>,
    /// When each refused player was last answered (agent ticks).
    refused_at: HashMap<String, u64>,
    /// Take `<name> text` server messages as chat from `name`.
    pub trust_system_chat: bool,
}

/// `0123abcd-…` (36 characters) or 32 hex digits, as the lower-case hyphenated form.
fn uuid(text: &str) -> Option<String> {
    let hex: String = text.chars().filter(|c| *c != '-').collect();
    let shape_ok = (text.len() == 36 && text.chars().enumerate().all(|(i, c)| (c == '-') == matches!(i, 8 | 13 | 18 | 23)))
        || text.len() == 32;
    if !shape_ok || hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let h = hex.to_ascii_lowercase();
    Some(format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32]))
}

impl Access {
    /// Ticks between two refusals said to the same player (one minute).
    pub const REFUSE_EVERY_TICKS: u64 = 1200;

    /// Every player may command the bot.
    pub fn everyone() -> Access {
        Access::default()
    }

    /// Only these players may: each a name (checked) or a UUID.
    pub fn only<S: AsRef<str>>(names: &[S]) -> Result<Access, AccessError> {
        let mut allowed = Vec::new();
        for n in names {
            let n = n.as_ref().trim();
            if let Some(u) = uuid(n) {
                allowed.push(Entry::Uuid(u));
                continue;
            }
            if !super::chat::is_player_name(n) {
                return Err(AccessError::BadName(n.to_string()));
            }
            allowed.push(Entry::Name(n.to_string()));
        }
        if allowed.is_empty() {
            return Err(AccessError::Empty);
        }
        allowed.sort();
        allowed.dedup();
        Ok(Access { allowed: Some(allowed), ..Access::default() })
    }

    /// `alice,bob,0123abcd-…` (spaces allowed around entries).
    pub fn parse(list: &str) -> Result<Access, AccessError> {
        let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
        Access::only(&names)
    }

    pub fn is_everyone(&self) -> bool {
        self.allowed.is_none()
    }

    /// The allowed names and UUIDs, as given (UUIDs normalised), if restricted.
    pub fn names(&self) -> Option<Vec<String>> {
        let entries = self.allowed.as_ref()?;
        Some(entries.iter().map(|e| match e { Entry::Name(n) | Entry::Uuid(n) => n.clone() }).collect())
    }

    /// Whether `player` (with the UUID the server sent, if any) may command the bot: the exact
    /// name, or the UUID, is on the list.
    pub fn allows(&self, player: &str, id: Option<&str>) -> bool {
        self.matches(Some(player), id)
    }

    /// Whether an entry matches: a name entry only `name` (when there is one to trust), a UUID
    /// entry only `id`.
    fn matches(&self, name: Option<&str>, id: Option<&str>) -> bool {
        let id = id.and_then(uuid);
        match &self.allowed {
            None => true,
            Some(entries) => entries.iter().any(|e| match e {
                Entry::Name(n) => name == Some(n.as_str()),
                Entry::Uuid(u) => id.as_deref() == Some(u.as_str()),
            }),
        }
    }

    /// The list as the gate sees it for a signed line whose account name is unknown: the name it
    /// shows proves nothing, so only a UUID entry can let it through.
    pub fn by_uuid_only(&mut self) -> UuidOnly<'_> {
        UuidOnly(self)
    }

    /// What to tell `player`, who is not allowed, at agent tick `tick`; `None` when they were
    /// told recently.
    pub fn refusal(&mut self, player: &str, tick: u64) -> Option<String> {
        let key = player.to_string();
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
    fn allows(&self, speaker: &str, id: Option<&str>) -> bool {
        Access::allows(self, speaker, id)
    }
    fn refusal(&mut self, speaker: &str, tick: u64) -> Option<String> {
        Access::refusal(self, speaker, tick)
    }
}

/// [`Access`] with its name entries ignored (see [`Access::by_uuid_only`]); refusals and their
/// rate limit are the list's own.
pub struct UuidOnly<'a>(&'a mut Access);

impl crate::safety::gate::Admission for UuidOnly<'_> {
    fn allows(&self, _shown: &str, id: Option<&str>) -> bool {
        self.0.matches(None, id)
    }
    fn refusal(&mut self, speaker: &str, tick: u64) -> Option<String> {
        self.0.refusal(speaker, tick)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_by_default() {
        let a = Access::everyone();
        assert!(a.is_everyone() && a.allows("anybody", None) && a.names().is_none());
        assert!(!a.trust_system_chat, "server messages in chat form are not believed by default");
    }

    #[test]
    fn a_list_matches_names_exactly_and_is_checked() {
        let a = Access::parse(" alice, Bob ,,").unwrap();
        assert_eq!(a.names(), Some(vec!["Bob".to_string(), "alice".to_string()]));
        assert!(a.allows("alice", None) && a.allows("Bob", None));
        assert!(!a.allows("ALICE", None) && !a.allows("bob", None), "another name is another player");
        assert!(!a.allows("mallory", None) && !a.allows("alic", None));
        assert_eq!(Access::parse("alice,no way").unwrap_err(), AccessError::BadName("no way".into()));
        assert_eq!(Access::parse(" , ").unwrap_err(), AccessError::Empty);
        assert!(Access::parse("a_very_long_name_17").is_err());
    }

    #[test]
    fn a_uuid_on_the_list_matches_the_uuid_the_server_sends_whatever_the_name() {
        let a = Access::parse("069A79F4-44E9-4726-A5BE-FCA90E38AAF5").unwrap();
        assert_eq!(a.names(), Some(vec!["069a79f4-44e9-4726-a5be-fca90e38aaf5".to_string()]));
        assert!(a.allows("Notch", Some("069a79f4-44e9-4726-a5be-fca90e38aaf5")));
        assert!(a.allows("renamed", Some("069a79f444e94726a5befca90e38aaf5")));
        assert!(!a.allows("Notch", None), "no UUID from the server: the name alone does not do");
        assert!(!a.allows("Notch", Some("00000000-0000-0000-0000-000000000000")));
        assert_eq!(uuid("not-a-uuid"), None);
        assert_eq!(uuid("069a79f4-44e9-4726-a5be-fca90e38aaf"), None);
    }

    #[test]
    fn without_a_trusted_name_only_a_uuid_entry_matches() {
        use crate::safety::gate::Admission;
        let id = "069a79f4-44e9-4726-a5be-fca90e38aaf5";
        let mut a = Access::parse(&format!("alice,{id}")).unwrap();
        assert!(!a.by_uuid_only().allows("alice", None), "the shown name is not matched");
        assert!(!a.by_uuid_only().allows("alice", Some("00000000-0000-0000-0000-000000000000")));
        assert!(a.by_uuid_only().allows("anyone", Some(id)));
        assert!(Access::everyone().by_uuid_only().allows("anyone", None), "no list: everyone");
    }

    #[test]
    fn refusals_are_rate_limited_per_player() {
        let mut a = Access::parse("alice").unwrap();
        let first = a.refusal("mallory", 100).unwrap();
        assert!(first.contains("mallory") && first.starts_with("Sorry"), "{first}");
        assert_eq!(a.refusal("mallory", 200), None, "same player, too soon");
        assert!(a.refusal("Mallory", 200).is_some(), "another name is another player");
        assert!(a.refusal("eve", 200).is_some(), "another player");
        assert!(a.refusal("mallory", 100 + Access::REFUSE_EVERY_TICKS).is_some());
    }
}
