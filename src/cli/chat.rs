//! `craftmate chat "text"`: one safe answer from the configured language model.
//!
//! Settings come from `--config FILE` (or `./craftmate.toml` when it exists), then the flags
//! override them: `--gguf PATH` runs a GGUF file in-process, `--openai-url URL --model NAME` asks an
//! OpenAI-compatible server. With no LLM configured it prints the canned chit-chat answer.
//! The answer goes to stdout; timings (and tokens/s for GGUF) go to stderr.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use craftmate::safety::disallowed::Disallowed;
use craftmate::llm::{self, BackendKind, Grounding, LlmConfig, Outcome};

#[derive(clap::Args)]
pub struct ChatArgs {
    /// What the player says.
    pub text: String,
    /// The config file with an [llm] table (default: ./craftmate.toml when it exists).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Run this GGUF model file in-process.
    #[arg(long, conflicts_with = "openai_url")]
    pub gguf: Option<PathBuf>,
    /// An OpenAI-compatible server, e.g. http://localhost:11434 (Ollama).
    #[arg(long, requires = "model")]
    pub openai_url: Option<String>,
    /// The model name for --openai-url, e.g. llama3.2.
    #[arg(long)]
    pub model: Option<String>,
    /// Time limit for the answer in milliseconds.
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    #[arg(long)]
    pub max_tokens: Option<u32>,
    #[arg(long)]
    pub temperature: Option<f64>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// CPU threads for --gguf (default: half the cores, at most 4; CANDLE_NUM_THREADS wins).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The bot's name in the prompt.
    #[arg(long, default_value = "craftmate")]
    pub name: String,
    /// Also ask the model for a logical form of the text and print it if it validates.
    #[arg(long)]
    pub propose: bool,
}

/// The settings: the config file, then the flags.
fn settings(args: &ChatArgs) -> anyhow::Result<Option<LlmConfig>> {
    let mut config = match &args.config {
        Some(path) => Some(LlmConfig::load(path)?),
        None => {
            let default = PathBuf::from("craftmate.toml");
            if default.exists() { LlmConfig::load_optional(&default)? } else { None }
        }
    };
    if let Some(path) = &args.gguf {
        let mut c = config.take().unwrap_or_else(|| LlmConfig::gguf(path));
        c.backend = BackendKind::Gguf;
        c.gguf_path = Some(path.clone());
        config = Some(c);
    }
    if let Some(url) = &args.openai_url {
        let mut c = config.take().unwrap_or_else(|| LlmConfig::openai(url.clone(), ""));
        c.backend = BackendKind::OpenAi;
        c.base_url = Some(url.clone());
        config = Some(c);
    }
    if let Some(c) = &mut config {
        if let Some(model) = &args.model {
            c.model = Some(model.clone());
        }
        if let Some(v) = args.timeout_ms {
            c.timeout_ms = v;
        }
        if let Some(v) = args.max_tokens {
            c.max_tokens = v;
        }
        if let Some(v) = args.temperature {
            c.temperature = v;
        }
        if let Some(v) = args.seed {
            c.seed = v;
        }
        if let Some(v) = args.threads {
            c.threads = Some(v);
        }
        c.validate()?;
    }
    Ok(config)
}

pub fn run(args: &ChatArgs) -> anyhow::Result<ExitCode> {
    let Some(config) = settings(args)? else {
        eprintln!("no LLM configured (--gguf, --openai-url or an [llm] table in craftmate.toml): canned answer");
        println!("{}", craftmate::dialogue::say::chit_chat(&args.text));
        return Ok(ExitCode::SUCCESS);
    };
    if config.backend == BackendKind::Gguf {
        // SAFETY: nothing before this point in `craftmate chat` starts a thread.
        let threads = unsafe { llm::gguf::init_cpu_threads(config.threads) };
        eprintln!("gguf: {threads} CPU thread(s)");
    }
    let load_start = Instant::now();
    let chat = llm::backend(&config).context("starting the LLM backend")?;
    eprintln!("{} ready in {:.2} s", chat.describe(), load_start.elapsed().as_secs_f64());
    let grounding = Grounding::named(args.name.clone());
    let disallowed = Disallowed::default_list();
    let reply = llm::reply_detailed(chat.as_ref(), &grounding, &disallowed, &args.text, config.timeout());
    println!("{}", reply.text);
    match &reply.outcome {
        Outcome::Answered => {}
        outcome => eprintln!("fallback: {outcome:?}"),
    }
    if let Some(c) = &reply.completion {
        let mut line = format!("answered in {:.2} s", reply.elapsed.as_secs_f64());
        if let Some(p) = c.prompt_tokens {
            line.push_str(&format!(", {p} prompt tokens"));
            if let Some(t) = c.prompt_time {
                line.push_str(&format!(" in {:.2} s", t.as_secs_f64()));
            }
        }
        if let Some(n) = c.generated_tokens {
            line.push_str(&format!(", {n} tokens generated in {:.2} s", c.generation_time.as_secs_f64()));
        }
        if config.backend == BackendKind::Gguf
            && let Some(tps) = c.tokens_per_second()
        {
            line.push_str(&format!(" ({tps:.1} tokens/s)"));
        }
        eprintln!("{line}");
    }
    if args.propose {
        let limit = config.timeout().max(Duration::from_secs(10));
        match llm::propose_logical_form(chat.as_ref(), &args.text, limit) {
            Some(lf) => println!("{}", lf.to_json_string()),
            None => eprintln!("no valid logical form proposed"),
        }
    }
    Ok(ExitCode::SUCCESS)
}
