//! The OpenAI-compatible HTTP backend: `POST {base}/v1/chat/completions`.
//!
//! llama.cpp's `llama-server`, Ollama, LM Studio and vLLM all serve this endpoint. The request runs
//! on a worker thread with a blocking client ([`ureq`]); [`OpenAiChat::complete`] waits for it only
//! until the request's deadline, and the client's own timeout ends the worker soon after.
//! Plain `http://` works out of the box; `https://` needs the crate's `tls` feature.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Chat, ChatRequest, Completion, LlmError};

/// The most bytes of an HTTP answer read (a chat completion is a few KB).
pub const MAX_RESPONSE_BYTES: u64 = 1 << 20;

/// Settings for [`OpenAiChat`].
#[derive(Debug, Clone, PartialEq)]
pub struct OpenAiOptions {
    /// Server root, e.g. `http://localhost:11434` (Ollama) or `http://localhost:8080` (llama.cpp);
    /// a trailing `/v1` is accepted too.
    pub base_url: String,
    /// The model name the server knows, e.g. `llama3.2`.
    pub model: String,
    /// Sent as `Authorization: Bearer ...` when set.
    pub api_key: Option<String>,
    pub max_tokens: u32,
    pub temperature: f64,
    pub seed: Option<u64>,
}

impl OpenAiOptions {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> OpenAiOptions {
        OpenAiOptions {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            max_tokens: 80,
            temperature: 0.3,
            seed: None,
        }
    }
}

/// A chat backend talking to an OpenAI-compatible server.
pub struct OpenAiChat {
    options: OpenAiOptions,
    url: String,
    agent: ureq::Agent,
}

impl OpenAiChat {
    pub fn new(options: OpenAiOptions) -> Result<OpenAiChat, LlmError> {
        let url = completions_url(&options.base_url)?;
        if options.model.trim().is_empty() {
            return Err(LlmError::config("llm.model", "the model name is empty"));
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            // Status codes are read, not turned into errors, so the body can be reported.
            .http_status_as_error(false)
            .user_agent(concat!("craftmate/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Ok(OpenAiChat { options, url, agent })
    }

    /// The endpoint requests go to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The JSON body for `request`.
    pub fn request_body(&self, request: &ChatRequest) -> Value {
        let messages: Vec<Value> =
            request.messages.iter().map(|m| json!({"role": m.role.as_str(), "content": m.content})).collect();
        let mut body = json!({
            "model": self.options.model,
            "messages": messages,
            "max_tokens": request.max_tokens.unwrap_or(self.options.max_tokens),
            "temperature": self.options.temperature,
            "stream": false,
        });
        if let Some(seed) = self.options.seed {
            body["seed"] = json!(seed);
        }
        body
    }
}

/// `{base}/v1/chat/completions`, accepting bases with or without `/v1` and trailing slashes.
pub fn completions_url(base_url: &str) -> Result<String, LlmError> {
    let base = base_url.trim().trim_end_matches('/');
    if !(base.starts_with("http://") || base.starts_with("https://")) {
        return Err(LlmError::config("llm.base_url", format!("{base_url:?} is not an http:// or https:// URL")));
    }
    if base.starts_with("https://") && !cfg!(feature = "tls") {
        return Err(LlmError::config(
            "llm.base_url",
            "https:// needs craftmate built with `--features tls` (local servers speak plain http://)",
        ));
    }
    if base.ends_with("/chat/completions") {
        return Ok(base.to_string());
    }
    if base.ends_with("/v1") {
        Ok(format!("{base}/chat/completions"))
    } else {
        Ok(format!("{base}/v1/chat/completions"))
    }
}

impl Chat for OpenAiChat {
    fn describe(&self) -> String {
        format!("openai {} at {}", self.options.model, self.url)
    }

    fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        let remaining = request.remaining();
        if remaining.is_zero() {
            return Err(LlmError::Timeout);
        }
        let body = self.request_body(request).to_string();
        let agent = self.agent.clone();
        let url = self.url.clone();
        let api_key = self.options.api_key.clone();
        let start = Instant::now();
        let (sender, receiver) = mpsc::channel();
        std::thread::Builder::new()
            .name("llm-http".into())
            .spawn(move || {
                let _ = sender.send(post(&agent, &url, api_key.as_deref(), body, remaining));
            })
            .map_err(|e| LlmError::Http(format!("cannot start the request thread: {e}")))?;
        let text = match receiver.recv_timeout(remaining) {
            Ok(result) => result?,
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(LlmError::Timeout),
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(LlmError::Http("the request thread died".into())),
        };
        let mut completion = parse_response(&text)?;
        completion.generation_time = start.elapsed();
        Ok(completion)
    }
}

/// One blocking POST; the body text of a 2xx answer.
fn post(
    agent: &ureq::Agent,
    url: &str,
    api_key: Option<&str>,
    body: String,
    timeout: Duration,
) -> Result<String, LlmError> {
    let mut request = agent.post(url).header("Content-Type", "application/json");
    if let Some(key) = api_key {
        request = request.header("Authorization", format!("Bearer {key}"));
    }
    let request = request.config().timeout_global(Some(timeout)).build();
    let mut response = request.send(body).map_err(|e| match e {
        ureq::Error::Timeout(_) => LlmError::Timeout,
        e => LlmError::Http(e.to_string()),
    })?;
    let status = response.status().as_u16();
    let text =
        response.body_mut().with_config().limit(MAX_RESPONSE_BYTES).lossy_utf8(true).read_to_string().map_err(|e| {
            match e {
                ureq::Error::Timeout(_) => LlmError::Timeout,
                ureq::Error::BodyExceedsLimit(_) => {
                    LlmError::BadResponse(format!("more than {MAX_RESPONSE_BYTES} bytes"))
                }
                e => LlmError::Http(e.to_string()),
            }
        })?;
    if !(200..300).contains(&status) {
        let body: String = text.chars().take(200).collect();
        return Err(LlmError::Status { status, body });
    }
    Ok(text)
}

/// The assistant message and token counts from a chat-completion answer.
pub fn parse_response(text: &str) -> Result<Completion, LlmError> {
    let value: Value = serde_json::from_str(text).map_err(|e| LlmError::BadResponse(format!("not JSON: {e}")))?;
    if let Some(error) = value.get("error") {
        return Err(LlmError::BadResponse(format!("server error: {error}")));
    }
    let choice = value.get("choices").and_then(|c| c.get(0));
    let message =
        choice.and_then(|c| c.get("message")).ok_or_else(|| LlmError::BadResponse("no choices[0].message".into()))?;
    let choice = choice.unwrap_or(&Value::Null);
    let content = message
        .get("content")
        .and_then(Value::as_str)
        .ok_or_else(|| LlmError::BadResponse("choices[0].message.content is not a string".into()))?;
    let usage = |key: &str| value.get("usage").and_then(|u| u.get(key)).and_then(Value::as_u64).map(|n| n as usize);
    Ok(Completion {
        text: content.to_string(),
        prompt_tokens: usage("prompt_tokens"),
        generated_tokens: usage("completion_tokens"),
        prompt_time: None,
        generation_time: Duration::ZERO,
        truncated: choice.get("finish_reason").and_then(Value::as_str) == Some("length"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(completions_url("http://localhost:11434").unwrap(), "http://localhost:11434/v1/chat/completions");
        assert_eq!(completions_url("http://localhost:1234/v1/").unwrap(), "http://localhost:1234/v1/chat/completions");
        assert_eq!(completions_url("http://h:8080/v1/chat/completions").unwrap(), "http://h:8080/v1/chat/completions");
        let e = completions_url("localhost:11434").unwrap_err().to_string();
        assert!(e.starts_with("llm.base_url:"), "{e}");
    }

    #[test]
    fn responses() {
        let ok = r#"{"choices":[{"message":{"role":"assistant","content":"Hi!"}}],"usage":{"prompt_tokens":5,"completion_tokens":2}}"#;
        let c = parse_response(ok).unwrap();
        assert_eq!(c.text, "Hi!");
        assert_eq!((c.prompt_tokens, c.generated_tokens), (Some(5), Some(2)));
        assert!(!c.truncated);
        let cut = r#"{"choices":[{"message":{"content":"Hi, I"},"finish_reason":"length"}]}"#;
        assert!(parse_response(cut).unwrap().truncated);
        assert!(parse_response("<html>").is_err());
        assert!(parse_response(r#"{"choices":[]}"#).is_err());
        assert!(parse_response(r#"{"choices":[{"message":{"content":null}}]}"#).is_err());
        assert!(parse_response(r#"{"error":{"message":"model not found"}}"#).is_err());
    }
}
