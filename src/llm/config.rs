//! The `[llm]` table of `craftmate.toml`: which backend, where, and how.
//!
//! ```toml
//! [llm]
//! backend = "openai"                  # or "gguf"
//! base_url = "http://localhost:11434" # openai: the server root (Ollama here)
//! model = "llama3.2"                  # openai: the model name the server knows
//! # api_key = "..."                   # or api_key_env = "OPENAI_API_KEY"
//! # gguf_path = "models/SmolLM2-135M-Instruct.Q4_1.gguf"  # gguf: relative to this file
//! timeout_ms = 8000
//! max_tokens = 80
//! temperature = 0.3
//! seed = 42
//! # threads = 2                     # gguf: CPU threads (default: half the cores, at most 4)
//! ```
//!
//! Unknown keys in `[llm]` are errors naming the key; other tables of the file belong to other
//! parts of the bot and are ignored here.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::{Chat, GgufChat, GgufOptions, LlmError, OpenAiChat, OpenAiOptions};

/// Which backend answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// An OpenAI-compatible HTTP server (llama.cpp, Ollama, LM Studio, vLLM).
    #[serde(rename = "openai")]
    OpenAi,
    /// A GGUF file run in-process.
    Gguf,
}

/// LLM settings.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmConfig {
    pub backend: BackendKind,
    /// openai: the server root, e.g. `http://localhost:11434`.
    #[serde(default)]
    pub base_url: Option<String>,
    /// openai: the model name, e.g. `llama3.2`.
    #[serde(default)]
    pub model: Option<String>,
    /// openai: the API key (most local servers need none).
    #[serde(default)]
    pub api_key: Option<String>,
    /// openai: the environment variable holding the API key.
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// gguf: the model file (relative paths are relative to the config file).
    #[serde(default)]
    pub gguf_path: Option<PathBuf>,
    /// The most time one answer may take, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// The most tokens in one answer.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
    /// 0 is greedy decoding; at most 2.
    #[serde(default = "default_temperature")]
    pub temperature: f64,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// gguf: CPU threads (default: half the cores, at most 4); see [`super::gguf::init_cpu_threads`].
    #[serde(default)]
    pub threads: Option<usize>,
    /// gguf: unpack the weights to f32 when they take at most this many MiB (default 768; 0
    /// keeps them packed): prompts are read about nine times faster, for four bytes a weight.
    #[serde(default)]
    pub unpack_mb: Option<u64>,
}

fn default_timeout_ms() -> u64 {
    8000
}
fn default_max_tokens() -> u32 {
    80
}
fn default_temperature() -> f64 {
    0.3
}
fn default_seed() -> u64 {
    42
}

/// The file as far as this module cares: its `[llm]` table.
#[derive(Deserialize)]
struct ConfigFile {
    #[serde(default)]
    llm: Option<LlmConfig>,
}

impl LlmConfig {
    /// An OpenAI-compatible server with default settings.
    pub fn openai(base_url: impl Into<String>, model: impl Into<String>) -> LlmConfig {
        LlmConfig {
            base_url: Some(base_url.into()),
            model: Some(model.into()),
            ..LlmConfig::defaults(BackendKind::OpenAi)
        }
    }

    /// A GGUF file with default settings.
    pub fn gguf(path: impl Into<PathBuf>) -> LlmConfig {
        LlmConfig { gguf_path: Some(path.into()), ..LlmConfig::defaults(BackendKind::Gguf) }
    }

    fn defaults(backend: BackendKind) -> LlmConfig {
        LlmConfig {
            backend,
            base_url: None,
            model: None,
            api_key: None,
            api_key_env: None,
            gguf_path: None,
            timeout_ms: default_timeout_ms(),
            max_tokens: default_max_tokens(),
            temperature: default_temperature(),
            seed: default_seed(),
            threads: None,
            unpack_mb: None,
        }
    }

    /// Parses the `[llm]` table of a config file's text; `Ok(None)` when the file has none.
    /// Errors name the field (`llm.temperature: ...`).
    pub fn from_toml_str(text: &str) -> Result<Option<LlmConfig>, LlmError> {
        let deserializer = toml::Deserializer::new(text);
        let file: ConfigFile = serde_path_to_error::deserialize(deserializer).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let message = inner.message().trim().to_string();
            let line = inner.span().and_then(|s| text.get(..s.start)).map(|before| before.matches('\n').count() + 1);
            let message = match line {
                Some(line) => format!("{message} (line {line})"),
                None => message,
            };
            let field = if path == "." || path.is_empty() { "llm".to_string() } else { path };
            LlmError::Config { field, message }
        })?;
        match file.llm {
            Some(config) => {
                config.validate()?;
                Ok(Some(config))
            }
            None => Ok(None),
        }
    }

    /// Reads `[llm]` from the file at `path`; a file without it is an error.
    /// A relative `gguf_path` is resolved against the file's folder.
    pub fn load(path: impl AsRef<Path>) -> Result<LlmConfig, LlmError> {
        let path = path.as_ref();
        LlmConfig::load_optional(path)?
            .ok_or_else(|| LlmError::File { path: path.display().to_string(), message: "no [llm] table".into() })
    }

    /// Like [`LlmConfig::load`], but `Ok(None)` when the file has no `[llm]` table (no LLM set up).
    pub fn load_optional(path: impl AsRef<Path>) -> Result<Option<LlmConfig>, LlmError> {
        let path = path.as_ref();
        let file_error = |message: String| LlmError::File { path: path.display().to_string(), message };
        let text = std::fs::read_to_string(path).map_err(|e| file_error(e.to_string()))?;
        let mut config = LlmConfig::from_toml_str(&text).map_err(|e| match e {
            LlmError::Config { field, message } => file_error(format!("{field}: {message}")),
            e => e,
        })?;
        if let Some(config) = &mut config
            && let Some(gguf) = &config.gguf_path
            && gguf.is_relative()
            && let Some(dir) = path.parent()
        {
            config.gguf_path = Some(dir.join(gguf));
        }
        Ok(config)
    }

    /// Checks the settings the chosen backend needs and the ranges of numbers.
    pub fn validate(&self) -> Result<(), LlmError> {
        let err = |field: &str, message: &str| Err(LlmError::config(&format!("llm.{field}"), message));
        let blank = |v: &Option<String>| v.as_deref().is_none_or(|s| s.trim().is_empty());
        match self.backend {
            BackendKind::OpenAi => {
                if blank(&self.base_url) {
                    return err("base_url", "required when backend = \"openai\" (e.g. \"http://localhost:11434\")");
                }
                super::openai::completions_url(self.base_url.as_deref().unwrap_or_default())?;
                if blank(&self.model) {
                    return err("model", "required when backend = \"openai\" (e.g. \"llama3.2\")");
                }
                if self.api_key.is_some() && self.api_key_env.is_some() {
                    return err("api_key_env", "set either api_key or api_key_env, not both");
                }
            }
            BackendKind::Gguf => {
                if self.gguf_path.as_ref().is_none_or(|p| p.as_os_str().is_empty()) {
                    return err("gguf_path", "required when backend = \"gguf\"");
                }
            }
        }
        if self.timeout_ms == 0 || self.timeout_ms > 600_000 {
            return err("timeout_ms", "must be between 1 and 600000");
        }
        if self.max_tokens == 0 || self.max_tokens > 4096 {
            return err("max_tokens", "must be between 1 and 4096");
        }
        if self.threads.is_some_and(|n| n == 0 || n > 256) {
            return err("threads", "must be between 1 and 256");
        }
        if !(0.0..=2.0).contains(&self.temperature) {
            return err("temperature", "must be between 0 and 2");
        }
        Ok(())
    }

    /// The time limit for one answer.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    /// The API key: `api_key`, or the variable `api_key_env` names (which must then be set).
    pub fn resolve_api_key(&self) -> Result<Option<String>, LlmError> {
        if let Some(key) = &self.api_key {
            return Ok(Some(key.clone()));
        }
        match &self.api_key_env {
            Some(var) => match std::env::var(var) {
                Ok(key) if !key.trim().is_empty() => Ok(Some(key.trim().to_string())),
                _ => Err(LlmError::config("llm.api_key_env", format!("the environment variable {var} is not set"))),
            },
            None => Ok(None),
        }
    }
}

/// Builds the configured backend (loading the model file for `gguf`).
pub fn backend(config: &LlmConfig) -> Result<Box<dyn Chat>, LlmError> {
    config.validate()?;
    match config.backend {
        BackendKind::OpenAi => {
            let options = OpenAiOptions {
                base_url: config.base_url.clone().unwrap_or_default(),
                model: config.model.clone().unwrap_or_default(),
                api_key: config.resolve_api_key()?,
                max_tokens: config.max_tokens,
                temperature: config.temperature,
                seed: Some(config.seed),
            };
            Ok(Box::new(OpenAiChat::new(options)?))
        }
        BackendKind::Gguf => {
            let options = GgufOptions {
                max_tokens: config.max_tokens,
                temperature: config.temperature,
                seed: config.seed,
                unpack_up_to: config.unpack_mb.map_or(super::gguf::UNPACK_UP_TO, |mb| mb.saturating_mul(1 << 20)),
                ..GgufOptions::new(config.gguf_path.clone().unwrap_or_default())
            };
            Ok(Box::new(GgufChat::load(options)?))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        LlmConfig::from_toml_str(text).unwrap_err().to_string()
    }

    #[test]
    fn parses_both_backends() {
        let c = LlmConfig::from_toml_str(
            "[llm]\nbackend = \"openai\"\nbase_url = \"http://localhost:11434\"\nmodel = \"llama3.2\"\n\n[other]\nx = 1\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(c, LlmConfig::openai("http://localhost:11434", "llama3.2"));
        let c =
            LlmConfig::from_toml_str("[llm]\nbackend = \"gguf\"\ngguf_path = \"m.gguf\"\ntemperature = 0\nseed = 7\n")
                .unwrap()
                .unwrap();
        assert_eq!((c.backend, c.temperature, c.seed), (BackendKind::Gguf, 0.0, 7));
        assert_eq!(c.timeout(), Duration::from_millis(8000));
        assert_eq!(LlmConfig::from_toml_str("[bot]\nname = \"x\"\n").unwrap(), None);
        assert_eq!(LlmConfig::from_toml_str("").unwrap(), None);
    }

    #[test]
    fn errors_name_the_field() {
        let e = error("[llm]\nbackend = \"gguf\"\ngguf_path = \"m\"\ntemprature = 0.5\n");
        assert!(e.starts_with("llm") && e.contains("temprature") && e.contains("unknown field"), "{e}");
        assert!(e.ends_with("(line 4)"), "{e}");
        let e = error("[llm]\nbackend = \"chatgpt\"\n");
        assert!(e.starts_with("llm.backend:") && e.contains("chatgpt"), "{e}");
        let e = error("[llm]\nbackend = \"gguf\"\ngguf_path = \"m\"\ntimeout_ms = \"soon\"\n");
        assert!(e.starts_with("llm.timeout_ms:"), "{e}");
        let e = error("[llm]\nbackend = \"openai\"\nmodel = \"x\"\n");
        assert!(e.starts_with("llm.base_url:"), "{e}");
        let e = error("[llm]\nbackend = \"openai\"\nbase_url = \"http://h\"\n");
        assert!(e.starts_with("llm.model:"), "{e}");
        let e = error("[llm]\nbackend = \"openai\"\nbase_url = \"ftp://h\"\nmodel = \"m\"\n");
        assert!(e.starts_with("llm.base_url:"), "{e}");
        let e = error("[llm]\nbackend = \"gguf\"\n");
        assert!(e.starts_with("llm.gguf_path:"), "{e}");
        let e = error("[llm]\nbackend = \"gguf\"\ngguf_path = \"m\"\ntemperature = 3.0\n");
        assert!(e.starts_with("llm.temperature:"), "{e}");
        let e = error("[llm]\nbackend = \"gguf\"\ngguf_path = \"m\"\nmax_tokens = 0\n");
        assert!(e.starts_with("llm.max_tokens:"), "{e}");
        let e = error("[llm]\nmodel = \"m\"\n");
        assert!(e.contains("backend"), "{e}");
        let e = error("[llm\n");
        assert!(!e.is_empty());
    }

    #[test]
    fn api_key_from_env() {
        let mut c = LlmConfig::openai("http://h", "m");
        assert_eq!(c.resolve_api_key().unwrap(), None);
        c.api_key_env = Some("CRAFTMATE_TEST_SURELY_UNSET_VAR".into());
        let e = c.resolve_api_key().unwrap_err().to_string();
        assert!(e.starts_with("llm.api_key_env:") && e.contains("CRAFTMATE_TEST_SURELY_UNSET_VAR"), "{e}");
        c.api_key = Some("k".into());
        assert!(c.validate().unwrap_err().to_string().starts_with("llm.api_key_env:"));
    }

    #[test]
    fn relative_gguf_paths() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("craftmate.toml");
        std::fs::write(&path, "[llm]\nbackend = \"gguf\"\ngguf_path = \"models/m.gguf\"\n").unwrap();
        let c = LlmConfig::load(&path).unwrap();
        assert_eq!(c.gguf_path.unwrap(), dir.path().join("models/m.gguf"));
        std::fs::write(&path, "[bot]\n").unwrap();
        assert!(LlmConfig::load(&path).unwrap_err().to_string().contains("no [llm] table"));
        assert_eq!(LlmConfig::load_optional(&path).unwrap(), None);
        std::fs::write(&path, "[llm]\nbackend = \"gguf\"\ngguf_path = \"m\"\nbogus = 1\n").unwrap();
        let e = LlmConfig::load(&path).unwrap_err().to_string();
        assert!(e.contains("craftmate.toml: llm") && e.contains("bogus"), "{e}");
    }
}
