//! What a server owner decides for everyone the bot serves, from the `[rules]` table of
//! `craftmate.toml`. Each rule is off by default, the safer choice; the owner turns it on.
//!
//! ```toml
//! [rules]
//! # A line one player taught ("no, I meant …") also answers the same words from everyone else.
//! share_lessons = false
//! # TNT, lava, fire, creepers, withers … may be built, handed out or spawned.
//! allow_dangerous = false
//! # How much history the memory keeps: the newest chat lines and finished tasks.
//! keep_chat_lines = 5000
//! keep_finished_tasks = 5000
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::memory::Retention;

/// The owner's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwnerRules {
    /// A lesson a player taught changes what the same words mean for every player, not only for
    /// them. Off: one player must not change what another's words mean.
    #[serde(default)]
    pub share_lessons: bool,
    /// Blocks, items and mobs that burn, blow up or destroy (`world::rules::DANGEROUS`) may be
    /// built, handed out or spawned. Off: anyone allowed to command the bot could grief with it.
    #[serde(default)]
    pub allow_dangerous: bool,
    /// The newest chat lines the memory keeps; older ones are forgotten.
    #[serde(default = "keep_chat_lines")]
    pub keep_chat_lines: u64,
    /// The newest finished tasks the memory keeps; running tasks are always kept.
    #[serde(default = "keep_finished_tasks")]
    pub keep_finished_tasks: u64,
}

fn keep_chat_lines() -> u64 {
    Retention::CHAT_LINES
}

fn keep_finished_tasks() -> u64 {
    Retention::FINISHED_TASKS
}

impl Default for OwnerRules {
    fn default() -> OwnerRules {
        OwnerRules {
            share_lessons: false,
            allow_dangerous: false,
            keep_chat_lines: keep_chat_lines(),
            keep_finished_tasks: keep_finished_tasks(),
        }
    }
}

impl OwnerRules {
    /// How much history the memory keeps under these rules.
    pub fn retention(&self) -> Retention {
        Retention { chat_lines: self.keep_chat_lines, finished_tasks: self.keep_finished_tasks }
    }

    /// Why `id` is refused here, or `None` when it may be used.
    pub fn refuses(&self, id: &str) -> Option<String> {
        (!self.allow_dangerous && crate::world::rules::is_dangerous(id)).then(|| {
            format!("Sorry, no {} here: the owner of this server hasn't allowed things that burn or blow up.", id.replace('_', " "))
        })
    }
}

/// A config file whose `[rules]` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("{path}: {message}")]
    File { path: String, message: String },
    #[error("rules.{field}: {message}")]
    Field { field: String, message: String },
}

/// The file as far as this module cares: its `[rules]` table.
#[derive(Deserialize)]
struct ConfigFile {
    #[serde(default)]
    rules: OwnerRules,
}

impl OwnerRules {
    /// The `[rules]` of a config file's text; the defaults when it has none. Errors name the
    /// field (`rules.share_lessons: invalid type …`).
    pub fn from_toml_str(text: &str) -> Result<OwnerRules, RulesError> {
        let file: ConfigFile = serde_path_to_error::deserialize(toml::Deserializer::new(text)).map_err(|e| {
            let field = e.path().to_string().trim_start_matches("rules.").to_string();
            RulesError::Field { field, message: e.into_inner().message().trim().to_string() }
        })?;
        Ok(file.rules)
    }

    /// The `[rules]` of the file at `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<OwnerRules, RulesError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| RulesError::File { path: path.display().to_string(), message: e.to_string() })?;
        OwnerRules::from_toml_str(&text).map_err(|e| RulesError::File { path: path.display().to_string(), message: e.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_off_unless_the_owner_turns_them_on() {
        assert_eq!(OwnerRules::from_toml_str("").unwrap(), OwnerRules::default());
        assert_eq!(OwnerRules::from_toml_str("[llm]\nbackend = \"openai\"\n").unwrap(), OwnerRules::default());
        assert!(OwnerRules::from_toml_str("[rules]\nshare_lessons = true\n").unwrap().share_lessons);
        let open = OwnerRules::from_toml_str("[rules]\nallow_dangerous = true\n").unwrap();
        assert_eq!((open.refuses("tnt"), OwnerRules::default().refuses("stone")), (None, None));
        assert!(OwnerRules::default().refuses("tnt").unwrap().starts_with("Sorry, no tnt here"));
        let e = OwnerRules::from_toml_str("[rules]\nshare_lesson = true\n").unwrap_err().to_string();
        assert!(e.contains("share_lesson"), "{e}");
        let e = OwnerRules::from_toml_str("[rules]\nshare_lessons = \"yes\"\n").unwrap_err().to_string();
        assert!(e.contains("rules.share_lessons"), "{e}");
    }

    #[test]
    fn the_owner_sets_how_much_history_is_kept() {
        assert_eq!(OwnerRules::default().retention(), Retention::default());
        let rules = OwnerRules::from_toml_str("[rules]\nkeep_chat_lines = 200\nkeep_finished_tasks = 50\n").unwrap();
        assert_eq!(rules.retention(), Retention { chat_lines: 200, finished_tasks: 50 });
        let e = OwnerRules::from_toml_str("[rules]\nkeep_chat_lines = -1\n").unwrap_err().to_string();
        assert!(e.contains("keep_chat_lines"), "{e}");
    }

    #[test]
    fn the_example_config_reads_with_every_rule_off() {
        let example = include_str!("../../craftmate.example.toml");
        assert_eq!(OwnerRules::from_toml_str(example).unwrap(), OwnerRules::default());
        assert!(crate::llm::LlmConfig::from_toml_str(example).unwrap().is_some());
    }
}
