//! The LLM module end to end: a mock OpenAI-compatible server on 127.0.0.1, and a real small GGUF
//! model (SmolLM2-135M-Instruct) when `CRAFTMATE_TEST_GGUF` names it (`.ci/run` fetches it; without
//! it the model tests print `SKIPPED: ...` to the terminal and return).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use craftmate::safety::disallowed::Disallowed;
use craftmate::llm::{
    self, Chat, ChatRequest, FALLBACK_DISALLOWED, FALLBACK_ERROR, FALLBACK_SLOW, GgufChat, GgufOptions, Grounding,
    LlmConfig, MAX_REPLY_CHARS, OpenAiChat, OpenAiOptions, Outcome, messages_for,
};
use craftmate::logical_form::validate_json;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// A mock OpenAI-compatible server.

/// What the mock received.
#[derive(Debug, Clone)]
struct Received {
    request_line: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Received {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("the request body is JSON")
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// How the mock answers one request.
enum Answer {
    /// 200 with this body.
    Body(String),
    /// This status and body.
    Status(u16, String),
    /// Sleep, then answer.
    After(Duration, Box<Answer>),
}

struct Mock {
    base_url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Mock {
    /// Serves every request with `answer`, each connection on its own thread.
    fn start(answer: impl Fn(&Received) -> Answer + Send + Sync + 'static) -> Mock {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let answer = Arc::new(answer);
        let log = received.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (answer, log) = (answer.clone(), log.clone());
                std::thread::spawn(move || {
                    let _ = handle(stream, answer.as_ref(), &log);
                });
            }
        });
        Mock { base_url, received }
    }

    /// Always the same assistant message.
    fn saying(content: &str) -> Mock {
        let body = completion(content);
        Mock::start(move |_| Answer::Body(body.clone()))
    }

    fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    fn chat(&self) -> OpenAiChat {
        let mut options = OpenAiOptions::new(self.base_url.clone(), "test-model");
        options.api_key = Some("secret-key".into());
        OpenAiChat::new(options).unwrap()
    }
}

fn handle(stream: TcpStream, answer: &dyn Fn(&Received) -> Answer, log: &Mutex<Vec<Received>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let received = Received {
        request_line: request_line.trim_end().to_string(),
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    log.lock().unwrap().push(received.clone());
    let mut answer = answer(&received);
    let mut stream = stream;
    loop {
        match answer {
            Answer::After(delay, then) => {
                std::thread::sleep(delay);
                answer = *then;
            }
            Answer::Body(body) => return respond(&mut stream, 200, &body),
            Answer::Status(status, body) => return respond(&mut stream, status, &body),
        }
    }
}

fn respond(stream: &mut TcpStream, status: u16, body: &str) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status} Whatever\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    stream.flush()
}

/// An OpenAI chat-completion body with this assistant message.
fn completion(content: &str) -> String {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 12, "total_tokens": 112}
    })
    .to_string()
}

fn grounding() -> Grounding {
    Grounding {
        bot_name: "Robo".into(),
        doing: Some("building a red tower".into()),
        nearby: vec!["a house called \"home\"".into(), "a cow named Daisy".into()],
        players: vec!["alice".into(), "bob".into()],
        recent_chat: vec![("alice".into(), "hi Robo".into()), ("Robo".into(), "Hello alice!".into())],
    }
}

fn disallowed() -> Disallowed {
    Disallowed::default_list()
}

const LIMIT: Duration = Duration::from_secs(5);

// ---------------------------------------------------------------------------------------------
// The OpenAI-compatible backend against the mock.

#[test]
fn normal_answer_and_the_request_the_server_sees() {
    let mock = Mock::saying("I love building castles with tall towers!");
    let chat = mock.chat();
    let r = llm::reply_detailed(&chat, &grounding(), &disallowed(), "what do you like to build?", LIMIT);
    assert_eq!(r.text, "I love building castles with tall towers!");
    assert_eq!(r.outcome, Outcome::Answered);
    assert_eq!(r.completion.as_ref().unwrap().generated_tokens, Some(12));

    let received = mock.received();
    assert_eq!(received.len(), 1);
    let req = &received[0];
    assert_eq!(req.request_line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(req.header("authorization"), Some("Bearer secret-key"));
    assert!(req.header("content-type").unwrap().starts_with("application/json"));
    let body = req.json();
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["stream"], false);
    assert!(body["max_tokens"].as_u64().unwrap() > 0);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    let system = messages[0]["content"].as_str().unwrap();
    for fact in ["Robo", "building a red tower", "a house called \"home\"", "a cow named Daisy", "alice", "bob"] {
        assert!(system.contains(fact), "the system prompt lacks {fact:?}: {system}");
    }
    assert!(system.contains("alice: hi Robo") && system.contains("Robo: Hello alice!"), "{system}");
    assert!(system.contains("not sure"), "the prompt must ask for honesty: {system}");
    assert_eq!(messages[1]["role"], "user");
    assert_eq!(messages[1]["content"], "what do you like to build?");
}

#[test]
fn base_url_with_v1_and_config_backend() {
    let mock = Mock::saying("Hello there!");
    let config = LlmConfig::openai(format!("{}/v1/", mock.base_url), "llama3.2");
    let chat = llm::backend(&config).unwrap();
    assert_eq!(llm::reply(chat.as_ref(), &grounding(), &disallowed(), "hi", LIMIT), "Hello there!");
    let req = &mock.received()[0];
    assert_eq!(req.request_line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(req.header("authorization"), None);
    assert_eq!(req.json()["model"], "llama3.2");
    assert_eq!(req.json()["seed"], 42);
}

#[test]
fn timeout_gives_the_fallback_within_the_limit() {
    let body = completion("Too late!");
    let mock = Mock::start(move |_| Answer::After(Duration::from_secs(3), Box::new(Answer::Body(body.clone()))));
    let limit = Duration::from_millis(400);
    let start = Instant::now();
    let r = llm::reply_detailed(&mock.chat(), &grounding(), &disallowed(), "hello?", limit);
    let took = start.elapsed();
    assert_eq!(r.text, FALLBACK_SLOW);
    assert_eq!(r.outcome, Outcome::TimedOut);
    assert!(took >= limit - Duration::from_millis(50), "gave up early: {took:?}");
    assert!(took < limit + Duration::from_millis(300), "took {took:?} for a {limit:?} limit");
}

#[test]
fn slow_answer_under_the_limit_is_accepted() {
    let body = completion("Worth the wait.");
    let mock = Mock::start(move |_| Answer::After(Duration::from_millis(400), Box::new(Answer::Body(body.clone()))));
    let start = Instant::now();
    let r = llm::reply(&mock.chat(), &grounding(), &disallowed(), "hello?", Duration::from_secs(3));
    assert_eq!(r, "Worth the wait.");
    assert!(start.elapsed() >= Duration::from_millis(400));
}

#[test]
fn http_errors_give_the_fallback() {
    let cases: Vec<(&str, Answer)> = vec![
        ("500", Answer::Status(500, "{\"error\": \"boom\"}".into())),
        ("404", Answer::Status(404, "not found".into())),
        ("garbage body", Answer::Body("<html>definitely not json".into())),
        ("truncated JSON", Answer::Body(completion("cut")[..20].to_string())),
        ("no choices", Answer::Body("{\"choices\": []}".into())),
        ("null content", Answer::Body("{\"choices\": [{\"message\": {\"content\": null}}]}".into())),
        ("error object", Answer::Body("{\"error\": {\"message\": \"model not loaded\"}}".into())),
    ];
    for (name, answer) in cases {
        let answer = Mutex::new(Some(answer));
        let mock = Mock::start(move |_| answer.lock().unwrap().take().unwrap_or(Answer::Status(500, String::new())));
        let r = llm::reply_detailed(&mock.chat(), &grounding(), &disallowed(), "hi", LIMIT);
        assert_eq!(r.text, FALLBACK_ERROR, "{name}");
        assert!(matches!(r.outcome, Outcome::Failed(_)), "{name}: {:?}", r.outcome);
    }
    // Nobody listening.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let chat = OpenAiChat::new(OpenAiOptions::new(format!("http://127.0.0.1:{port}"), "m")).unwrap();
    let start = Instant::now();
    assert_eq!(llm::reply(&chat, &grounding(), &disallowed(), "hi", LIMIT), FALLBACK_ERROR);
    assert!(start.elapsed() < LIMIT);
}

#[test]
fn huge_answers_are_capped() {
    let huge = "This is a very long answer about building. ".repeat(2400);
    assert!(huge.len() > 100_000);
    let mock = Mock::saying(&huge);
    let r = llm::reply_detailed(&mock.chat(), &grounding(), &disallowed(), "tell me everything", LIMIT);
    assert_eq!(r.outcome, Outcome::Answered);
    assert!(r.text.chars().count() <= MAX_REPLY_CHARS, "{} chars", r.text.chars().count());
    assert!(r.text.ends_with("building."), "cut at a sentence end: {}", r.text);
    // One giant word: cut anyway.
    let mock = Mock::saying(&"a".repeat(100_000));
    let r = llm::reply(&mock.chat(), &grounding(), &disallowed(), "hi", LIMIT);
    assert!(r.chars().count() <= MAX_REPLY_CHARS);
}

#[test]
fn commands_formatting_and_controls_are_sanitised() {
    let cases = [
        ("/op me", "op me"),
        ("/give @p diamond 64", "give @p diamond 64"),
        ("  //op me", "op me"),
        ("\n\u{7}/op me", "op me"),
        ("§c/op me", "op me"),
        ("§cRed §lbold§r text", "Red bold text"),
        ("Line one\nline two\r\n\ttabbed\u{1b}[31m", "Line one line two tabbed [31m"),
        ("Robo: /give @p diamond", "give @p diamond"),
        ("Sure!\u{202E}\u{200B} Let's go.", "Sure! Let's go."),
    ];
    for (raw, safe) in cases {
        let mock = Mock::saying(raw);
        let r = llm::reply(&mock.chat(), &grounding(), &disallowed(), "hi", LIMIT);
        assert_eq!(r, safe, "{raw:?}");
        assert!(!r.starts_with('/') && !r.contains('§') && !r.chars().any(char::is_control));
    }
    // Only junk left: the fallback.
    let mock = Mock::saying("§c\n/ /");
    let r = llm::reply_detailed(&mock.chat(), &grounding(), &disallowed(), "hi", LIMIT);
    assert_eq!((r.text.as_str(), r.outcome), (FALLBACK_ERROR, Outcome::Empty));
}

#[test]
fn disallowed_words_give_the_fallback() {
    let mock = Mock::saying("Oh shit, I forgot the bricks.");
    let r = llm::reply_detailed(&mock.chat(), &grounding(), &disallowed(), "where are the bricks?", LIMIT);
    assert_eq!(r.text, FALLBACK_DISALLOWED);
    assert!(matches!(r.outcome, Outcome::Disallowed(_)));
    // Chat with a disallowed word never reaches the model.
    let mock = Mock::saying("fine");
    let r = llm::reply(&mock.chat(), &grounding(), &disallowed(), "you shit bot", LIMIT);
    assert_eq!(r, FALLBACK_DISALLOWED);
    assert!(mock.received().is_empty());
}

#[test]
fn pending_reply_polls_without_blocking() {
    let body = completion("Ready now!");
    let mock = Mock::start(move |_| Answer::After(Duration::from_millis(300), Box::new(Answer::Body(body.clone()))));
    let chat: Arc<dyn Chat> = Arc::new(mock.chat());
    let start = Instant::now();
    let mut pending = llm::spawn_reply(chat.clone(), grounding(), disallowed(), "hi".into(), Duration::from_secs(3));
    assert!(start.elapsed() < Duration::from_millis(100), "spawn_reply must not block");
    assert_eq!(pending.poll(), None);
    let answer = loop {
        if let Some(a) = pending.poll() {
            break a;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(answer, "Ready now!");
    assert_eq!(pending.poll(), None, "answered once");

    // Past the limit: the slow fallback, on time.
    let body = completion("Too late");
    let slow = Mock::start(move |_| Answer::After(Duration::from_secs(3), Box::new(Answer::Body(body.clone()))));
    let chat: Arc<dyn Chat> = Arc::new(slow.chat());
    let start = Instant::now();
    let pending = llm::spawn_reply(chat, grounding(), disallowed(), "hi".into(), Duration::from_millis(300));
    assert_eq!(pending.wait(), FALLBACK_SLOW);
    assert!(start.elapsed() < Duration::from_millis(600), "{:?}", start.elapsed());
}

#[test]
fn logical_form_proposals_are_validated() {
    let valid = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": [0, [3, 3]], "filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}}}]}"#;
    let mock = Mock::saying(&format!("```json\n{valid}\n```"));
    let lf = llm::propose_logical_form(&mock.chat(), "Please build a pyramid!", LIMIT).expect("a valid proposal");
    assert_eq!(lf, validate_json("please build a pyramid", valid).unwrap());
    // The prompt: few-shot examples and the numbered words of the normalized command.
    let body = mock.received()[0].json();
    let messages = body["messages"].as_array().unwrap();
    assert!(messages.len() > 4);
    let last = messages.last().unwrap()["content"].as_str().unwrap();
    assert!(last.contains("please build a pyramid") && last.contains("3:pyramid"), "{last}");

    // Spans past the end of the command.
    let bad_span = valid.replace("[3, 3]", "[7, 9]");
    let mock = Mock::saying(&bad_span);
    assert_eq!(llm::propose_logical_form(&mock.chat(), "please build a pyramid", LIMIT), None);
    // Unknown action type, prose, NOOP, errors, timeouts.
    for junk in [
        valid.replace("BUILD", "TELEPORT"),
        "I think you want a pyramid.".to_string(),
        "{\"dialogue_type\": \"NOOP\"}".to_string(),
        "{{{{".to_string(),
    ] {
        let mock = Mock::saying(&junk);
        assert_eq!(llm::propose_logical_form(&mock.chat(), "please build a pyramid", LIMIT), None, "{junk}");
    }
    let mock = Mock::start(|_| Answer::Status(500, String::new()));
    assert_eq!(llm::propose_logical_form(&mock.chat(), "please build a pyramid", LIMIT), None);
    let body = completion(valid);
    let mock = Mock::start(move |_| Answer::After(Duration::from_secs(3), Box::new(Answer::Body(body.clone()))));
    let start = Instant::now();
    assert_eq!(llm::propose_logical_form(&mock.chat(), "please build a pyramid", Duration::from_millis(200)), None);
    assert!(start.elapsed() < Duration::from_millis(500));
}

// ---------------------------------------------------------------------------------------------
// The in-process backend with a real small model.

/// The test model, or `None` after printing SKIPPED straight to the terminal (not captured).
fn test_gguf(test: &str) -> Option<PathBuf> {
    match std::env::var_os("CRAFTMATE_TEST_GGUF") {
        Some(path) => {
            let path = PathBuf::from(path);
            assert!(path.is_file(), "CRAFTMATE_TEST_GGUF={} does not exist", path.display());
            Some(path)
        }
        None => {
            assert!(
                std::env::var_os("CRAFTMATE_REQUIRE_GGUF").is_none(),
                "CRAFTMATE_REQUIRE_GGUF is set but CRAFTMATE_TEST_GGUF is not"
            );
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED: {test}: CRAFTMATE_TEST_GGUF is not set (run .ci/run to fetch SmolLM2-135M-Instruct) ***\n"
            );
            None
        }
    }
}

/// The model, loaded once for all tests (greedy, 16 tokens).
fn smollm(test: &str) -> Option<&'static GgufChat> {
    static MODEL: OnceLock<Option<GgufChat>> = OnceLock::new();
    let path = test_gguf(test)?;
    MODEL
        .get_or_init(|| {
            let options = GgufOptions { max_tokens: 16, temperature: 0.0, ..GgufOptions::new(path) };
            Some(GgufChat::load(options).expect("loading the test GGUF"))
        })
        .as_ref()
}

#[test]
fn gguf_tokenizer_round_trips_special_tokens_or_skipped() {
    let Some(model) = smollm("gguf_tokenizer_round_trips_special_tokens_or_skipped") else { return };
    let t = model.tokenizer();
    let im_start = t.tokenizer.token_to_id("<|im_start|>").unwrap();
    let im_end = t.tokenizer.token_to_id("<|im_end|>").unwrap();
    assert_eq!((im_start, im_end), (1, 2));
    assert!(t.stop_ids.contains(&im_end));
    let text = "<|im_start|>user\nHow do I make a furnace?<|im_end|>\n<|im_start|>assistant\n";
    let ids = t.encode(text).unwrap();
    assert_eq!(ids[0], im_start);
    assert_eq!(ids.iter().filter(|&&i| i == im_start).count(), 2);
    assert_eq!(ids.iter().filter(|&&i| i == im_end).count(), 1);
    assert_eq!(t.decode(&ids, false).unwrap(), text);
    // Byte-level BPE: spaces as Ġ, whole words as single tokens, digits one by one (smollm).
    let ids = t.encode("Hello world 123").unwrap();
    let pieces: Vec<String> = ids.iter().map(|&i| t.tokenizer.id_to_token(i).unwrap()).collect();
    assert_eq!(pieces, ["Hello", "Ġworld", "Ġ", "1", "2", "3"]);
    let unicode = "Größe: 5 × 3 — ok 🙂";
    assert_eq!(t.decode(&t.encode(unicode).unwrap(), false).unwrap(), unicode);
}

#[test]
fn gguf_smollm2_replies_or_skipped() {
    let Some(model) = smollm("gguf_smollm2_replies_or_skipped") else { return };
    let limit = Duration::from_secs(60);
    let start = Instant::now();
    let r = llm::reply_detailed(model, &grounding(), &disallowed(), "How do I make a furnace?", limit);
    let took = start.elapsed();
    let c = r.completion.as_ref().expect("a completion");
    let _ = writeln!(
        std::io::stderr(),
        "SmolLM2 reply in {took:?}: {:?} ({} prompt tokens in {:?}, {} tokens in {:?})",
        r.text,
        c.prompt_tokens.unwrap(),
        c.prompt_time.unwrap(),
        c.generated_tokens.unwrap(),
        c.generation_time
    );
    assert!(matches!(r.outcome, Outcome::Answered | Outcome::Disallowed(_)), "{:?}", r.outcome);
    assert!(!r.text.trim().is_empty());
    assert!(r.text.chars().count() <= MAX_REPLY_CHARS);
    assert!(!r.text.starts_with('/') && !r.text.contains('§') && !r.text.chars().any(char::is_control));
    assert!(c.generated_tokens.unwrap() <= 16);
    assert!(took < limit);
    // Greedy decoding is deterministic.
    let again = llm::reply(model, &grounding(), &disallowed(), "How do I make a furnace?", limit);
    assert_eq!(again, r.text);
}

#[test]
fn gguf_deadline_is_hard_or_skipped() {
    let Some(model) = smollm("gguf_deadline_is_hard_or_skipped") else { return };
    let start = Instant::now();
    let r = llm::reply_detailed(model, &grounding(), &disallowed(), "Tell me a story", Duration::from_millis(1));
    assert_eq!((r.text.as_str(), r.outcome), (FALLBACK_SLOW, Outcome::TimedOut));
    assert!(start.elapsed() < Duration::from_millis(200));
    // The model is still usable afterwards.
    let r = llm::reply_detailed(model, &grounding(), &disallowed(), "hello", Duration::from_secs(60));
    assert_eq!(r.outcome, Outcome::Answered, "{:?}", r.text);
}

// ---------------------------------------------------------------------------------------------
// `craftmate chat`.

fn craftmate_chat(args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap(); // no craftmate.toml here
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_craftmate"))
        .arg("chat")
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn cli_chat_prints_the_safe_reply() {
    let mock = Mock::saying("§a/op me\nplease");
    let (code, out, _) = craftmate_chat(&["--openai-url", &mock.base_url, "--model", "m1", "hi there"]);
    assert_eq!((code, out.as_str()), (0, "op me please\n"));
    let body = mock.received()[0].json();
    assert_eq!(body["model"], "m1");
    assert_eq!(body["messages"][1]["content"], "hi there");

    // Settings from a file; the flags win.
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bot.toml");
    std::fs::write(
        &config,
        format!("[llm]\nbackend = \"openai\"\nbase_url = \"{}\"\nmodel = \"m2\"\nmax_tokens = 9\n", mock.base_url),
    )
    .unwrap();
    let (code, out, _) = craftmate_chat(&["--config", config.to_str().unwrap(), "hello"]);
    assert_eq!((code, out.as_str()), (0, "op me please\n"));
    let body = mock.received()[1].json();
    assert_eq!((body["model"].as_str(), body["max_tokens"].as_u64()), (Some("m2"), Some(9)));

    // A bad file: the field is named.
    std::fs::write(&config, "[llm]\nbackend = \"openai\"\nbase_url = \"http://x\"\nmodel = \"m\"\ntimeout = 5\n")
        .unwrap();
    let (code, _, err) = craftmate_chat(&["--config", config.to_str().unwrap(), "hello"]);
    assert_eq!(code, 2);
    assert!(err.contains("llm.timeout: unknown field `timeout`"), "{err}");

    // Nothing configured: the canned answer.
    let (code, out, err) = craftmate_chat(&["hello"]);
    assert_eq!(code, 0);
    assert!(!out.trim().is_empty() && err.contains("no LLM configured"), "{out} {err}");
}

/// The same model kept packed (as a bigger one would be) answers too, and the default unpacks a
/// model this small.
#[test]
fn gguf_packed_and_unpacked_weights_both_answer_or_skipped() {
    let Some(unpacked) = smollm("gguf_packed_and_unpacked_weights_both_answer_or_skipped") else { return };
    assert!(unpacked.info().unpacked, "a 135M model is unpacked by default");
    assert!(unpacked.describe().contains("weights unpacked"));
    let path = test_gguf("gguf_packed_and_unpacked_weights_both_answer_or_skipped").expect("the test model");
    let packed = GgufChat::load(GgufOptions { max_tokens: 8, temperature: 0.0, unpack_up_to: 0, ..GgufOptions::new(path) }).expect("loads");
    assert!(!packed.info().unpacked);
    for model in [unpacked, &packed] {
        let r = llm::reply_detailed(model, &grounding(), &disallowed(), "what do you like to build?", Duration::from_secs(60));
        assert!(matches!(r.outcome, Outcome::Answered | Outcome::Disallowed(_)), "{}: {:?}", model.describe(), r.outcome);
        let c = r.completion.as_ref().expect("a completion");
        assert!(c.prompt_tokens.unwrap_or(0) > 50, "the grounded prompt was read");
    }
}

#[test]
fn gguf_reading_on_from_a_kept_prompt_start_answers_the_same_or_skipped() {
    // In play, prompts share a long start (persona, rules, unchanged facts); the model keeps its
    // state after that start and reads only the rest. The answer must be the one a model that
    // read the whole prompt gives.
    let test = "gguf_reading_on_from_a_kept_prompt_start_answers_the_same_or_skipped";
    let Some(path) = test_gguf(test) else { return };
    let load = || GgufChat::load(GgufOptions { max_tokens: 12, temperature: 0.0, ..GgufOptions::new(&path) }).expect("the test GGUF");
    let ask = |chat: &GgufChat, g: &Grounding, text: &str| {
        let request = ChatRequest { messages: messages_for(g, text), max_tokens: Some(12), deadline: Instant::now() + Duration::from_secs(120) };
        chat.complete(&request).expect("an answer")
    };
    let warm = load();
    let mut g = grounding();
    ask(&warm, &g, "hi there");
    g.recent_chat.push(("alice".into(), "hi there".into()));
    ask(&warm, &g, "what is a creeper?");
    g.recent_chat.push(("alice".into(), "what is a creeper?".into()));
    let read_on = ask(&warm, &g, "how do I make a furnace?");
    let whole = ask(&load(), &g, "how do I make a furnace?");
    assert!(!whole.text.trim().is_empty());
    assert_eq!(read_on.text, whole.text, "the same answer, with the prompt's start kept or read again");
    assert_eq!(read_on.prompt_tokens, whole.prompt_tokens);
}
