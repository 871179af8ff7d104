//! `craftmate connect HOST[:PORT]`: the bot joins a real Minecraft server and plays there.
//!
//! The same assistant as in `play` ticks 20 times a second over a [`LiveWorld`] instead of the
//! embedded world. This loop only drives: it syncs the live world, ticks the bot while the world
//! is ready, and prints what happens — connection news on stderr, the chat transcript and the
//! `joined … in N s` line (the login time) on stdout. Reconnecting, pacing chat and access
//! control live in `craftmate::live`.

use anyhow::Context;
use craftmate::agent::Bot;
use craftmate::agent::assistant::Assistant;
use craftmate::live::access::Access;
use craftmate::live::reconnect::Backoff;
use craftmate::live::{LiveConfig, LiveWorld, Notice};
use craftmate::memory::Memory;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct ConnectArgs {
    /// The server: `host` or `host:port` (port 25565 by default). It must run in offline mode
    /// (`online-mode=false`) unless the bot logs in with --microsoft.
    pub address: String,
    /// The bot's player name.
    #[arg(long, default_value = "craftmate")]
    pub name: String,
    /// Only these players may command the bot (comma-separated names). Default: everyone.
    #[arg(long, value_name = "NAME,...")]
    pub allow: Option<String>,
    /// Keep the bot's memory in this SQLite file (created if missing) so it survives restarts.
    #[arg(long)]
    pub memory: Option<PathBuf>,
    /// LLM settings for small talk (default: ./craftmate.toml when it exists).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Log in with a Microsoft account; --name is then the account's e-mail (the login is cached
    /// under it) and the in-game name comes from the account.
    #[cfg(feature = "microsoft")]
    #[arg(long)]
    pub microsoft: bool,
    /// Failed attempts in a row after which the bot stops reconnecting.
    #[arg(long, default_value_t = 20)]
    pub max_retries: u32,
    /// Longest wait between two attempts, in seconds (the waits double from 1 s up to this).
    #[arg(long, default_value_t = 30)]
    pub max_retry_wait: u64,
}

pub fn run(args: &ConnectArgs) -> anyhow::Result<ExitCode> {
    let access = match &args.allow {
        Some(list) => Access::parse(list).context("--allow")?,
        None => Access::everyone(),
    };
    let llm = load_llm(args.config.as_deref())?;
    let memory = match &args.memory {
        Some(p) => Memory::open(p).map_err(|e| anyhow::anyhow!("cannot use memory file {}: {e}", p.display()))?,
        None => Memory::in_memory()?,
    };
    let mut bot = Assistant::new(memory, super::parser());
    bot.dialogue.llm = llm;

    match access.names() {
        None => eprintln!("warning: every player on the server can command the bot (use --allow NAME,... to restrict)"),
        Some(names) => eprintln!("only {} can command the bot", names.join(", ")),
    }
    let mut config = LiveConfig::offline(&args.address, &args.name);
    config.access = access;
    config.backoff =
        Backoff::new(Duration::from_secs(1), Duration::from_secs(args.max_retry_wait.max(1)), args.max_retries);
    #[cfg(feature = "microsoft")]
    {
        config.microsoft = args.microsoft;
    }
    let account = if config.microsoft { "a Microsoft account" } else { "an offline account" };
    eprintln!("connecting to {} as {} ({account})", args.address, args.name);
    let mut world = LiveWorld::connect(config)?;

    let mut out = std::io::stdout().lock();
    let tick = Duration::from_millis(50);
    let mut next = Instant::now();
    loop {
        for notice in world.sync() {
            match notice {
                Notice::Ready { name, login, ready, attempt, reconnected } => {
                    let again = if reconnected { "rejoined" } else { "joined" };
                    writeln!(
                        out,
                        "{again} {} as {name} in {:.2} s (logged in after {:.2} s, attempt {attempt})",
                        args.address,
                        ready.as_secs_f64(),
                        login.as_secs_f64()
                    )?;
                    if reconnected {
                        // The world may have changed while the bot was away: look again.
                        bot.perception.request_rescan();
                    }
                }
                Notice::Disconnected { reason } => eprintln!("disconnected: {reason}"),
                Notice::Reconnecting { attempt, of, delay } => {
                    eprintln!("reconnecting in {:.0} s (attempt {attempt} of {of})", delay.as_secs_f64())
                }
                Notice::GaveUp { reason } => {
                    eprintln!("error: {reason}");
                    return Ok(ExitCode::from(1));
                }
                Notice::Refused { pos, wanted, got } => {
                    eprintln!("the server did not let the bot put {} at {pos} (it is {})", wanted.name(), got.name())
                }
                Notice::NotCreative => eprintln!(
                    "warning: {} is not in creative mode, so it cannot place blocks (an operator can run /gamemode creative {})",
                    args.name, args.name
                ),
            }
        }
        if world.is_ready() {
            bot.tick(&mut world);
        }
        for line in world.take_transcript() {
            let note = if line.refused { "  (not allowed to command the bot)" } else { "" };
            writeln!(out, "<{}> {}{note}", line.speaker, line.text)?;
        }
        out.flush()?;
        super::wait_for_tick(&mut next, tick);
    }
}

/// The optional language model for small talk: --config FILE, else ./craftmate.toml if present.
fn load_llm(config: Option<&Path>) -> anyhow::Result<Option<(std::sync::Arc<dyn craftmate::llm::Chat>, Duration)>> {
    let cfg = match config {
        Some(p) => craftmate::llm::LlmConfig::load_optional(p)?,
        None if Path::new("craftmate.toml").exists() => craftmate::llm::LlmConfig::load_optional("craftmate.toml")?,
        None => None,
    };
    Ok(match cfg {
        Some(cfg) => {
            let chat: std::sync::Arc<dyn craftmate::llm::Chat> = std::sync::Arc::from(craftmate::llm::backend(&cfg)?);
            eprintln!("small talk goes to {}", chat.describe());
            Some((chat, cfg.timeout()))
        }
        None => None,
    })
}
