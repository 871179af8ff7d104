//! `craftmate connect HOST[:PORT]`: the bot joins a real Minecraft server and plays there.
//!
//! The same assistant as in `play` ticks 20 times a second over a [`LiveWorld`] instead of the
//! embedded world. This loop only drives: it syncs the live world, ticks the bot while the world
//! is ready, and prints what happens — connection news on stderr, the chat transcript and the
//! `joined … in N s` line (the login time) on stdout. Reconnecting, pacing chat and access
//! control live in `craftmate::live`. With `--web` the page is the operator's console: it
//! watches the bot, and what is typed there the bot hears from the operator (never sent to the
//! server).

use anyhow::Context;
use craftmate::agent::Bot;
use craftmate::agent::assistant::Assistant;
use craftmate::live::access::Access;
use craftmate::live::reconnect::Backoff;
use craftmate::live::{LiveConfig, LiveWorld, Notice};
use craftmate::memory::Memory;
use std::io::Write;
use std::path::PathBuf;
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
    /// Only these players may command the bot: comma-separated names, matched exactly, or
    /// UUIDs (matched against signed chat). Default: everyone. On an offline-mode server a name
    /// is not proof of who someone is (anyone may join under any name).
    #[arg(long, value_name = "NAME|UUID,...")]
    pub allow: Option<String>,
    /// Believe server messages of the form `<name> text` as chat from `name` (some servers and
    /// plugins send all chat that way). Only where players cannot make the server print such a
    /// line themselves.
    #[arg(long)]
    pub system_chat: bool,
    /// Keep the bot's memory in this SQLite file (created if missing) so it survives restarts.
    #[arg(long)]
    pub memory: Option<PathBuf>,
    /// Settings: `[llm]` for small talk, `[rules]` for what the owner allows (default: ./craftmate.toml when it exists).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Log in with a Microsoft account; --name is then the account's e-mail (the login is cached
    /// under it) and the in-game name comes from the account.
    #[cfg(feature = "microsoft")]
    #[arg(long)]
    pub microsoft: bool,
    /// The view distance the bot tells the server, in chunks (2 to 32). The server sends terrain
    /// within the smaller of this and its own view distance; the default is more than most servers
    /// allow, so theirs decides.
    #[arg(long, default_value_t = craftmate::live::DEFAULT_VIEW_DISTANCE, value_parser = clap::value_parser!(u8).range(2..=32))]
    pub view_distance: u8,
    /// Failed attempts in a row after which the bot stops reconnecting.
    #[arg(long, default_value_t = 20)]
    pub max_retries: u32,
    /// Longest wait between two attempts, in seconds (the waits double from 1 s up to this).
    #[arg(long, default_value_t = 30)]
    pub max_retry_wait: u64,
    /// Serve the web view, the operator's console, at ADDR (default 127.0.0.1:8080). Any
    /// address other than loopback needs the token printed at start.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = craftmate::web::DEFAULT_ADDR)]
    pub web: Option<String>,
    /// The name the web console speaks as; the bot obeys it like an allowed player (use your
    /// own player name to make "come here" mean you).
    #[arg(long, default_value = "operator")]
    pub operator: String,
}

pub fn run(args: &ConnectArgs) -> anyhow::Result<ExitCode> {
    let mut access = match &args.allow {
        Some(list) => Access::parse(list).context("--allow")?,
        None => Access::everyone(),
    };
    access.trust_system_chat = args.system_chat;
    let llm = super::load_llm(args.config.as_deref())?;
    let rules = super::load_rules(args.config.as_deref())?;
    let mut memory = match &args.memory {
        Some(p) => super::open_memory(p)?,
        None => Memory::in_memory()?,
    };
    memory.set_retention(rules.retention());
    // The server counts from 0 for every new client; the memory's history goes on from its last tick.
    let resume_at = memory.last_tick()?;
    let mut bot = Assistant::new(memory, super::parser());
    bot.dialogue.llm = llm;
    bot.dialogue.rules = rules;

    match access.names() {
        None => eprintln!("warning: every player on the server can command the bot (use --allow NAME,... to restrict)"),
        Some(names) => eprintln!("only {} can command the bot", names.join(", ")),
    }
    let mut config = LiveConfig::offline(&args.address, &args.name);
    config.access = access;
    config.view_distance = args.view_distance;
    config.backoff =
        Backoff::new(Duration::from_secs(1), Duration::from_secs(args.max_retry_wait.max(1)), args.max_retries);
    #[cfg(feature = "microsoft")]
    {
        config.microsoft = args.microsoft;
    }
    let account = if config.microsoft { "a Microsoft account" } else { "an offline account" };
    eprintln!("connecting to {} as {} ({account})", args.address, args.name);
    let mut world = LiveWorld::connect(config)?;
    world.resume_at(resume_at);
    let mut web = match &args.web {
        Some(addr) => {
            let identity = craftmate::web::Identity { bot: args.name.clone(), you: args.operator.clone(), mode: "connect" };
            let web = craftmate::web::start(addr, identity)?;
            println!("web view (operator console, speaking as {}): {}", args.operator, web.url());
            let mut watcher = web.watcher;
            // Chunks load without a change record: look at the drawn box again now and then.
            watcher.rescan_every(100);
            Some(watcher)
        }
        None => None,
    };

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
                    if let Some(web) = &mut web {
                        web.world_replaced();
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
        if let Some(web) = &mut web {
            console(web, &mut world, &mut bot, &args.operator);
        }
        let started = Instant::now();
        if world.is_ready() {
            bot.tick(&mut world);
        }
        let took = started.elapsed();
        let mut chat = Vec::new();
        for line in world.take_transcript() {
            let note = if line.refused { "  (not allowed to command the bot)" } else { "" };
            writeln!(out, "<{}> {}{note}", line.speaker, line.text)?;
            let bot_said = line.speaker == args.name;
            chat.push(craftmate::web::message::ChatLine { who: line.speaker, text: line.text, bot: bot_said, refused: line.refused });
        }
        if let Some(web) = &mut web {
            web.publish(&world, &bot, chat, took);
        }
        out.flush()?;
        super::wait_for_tick(&mut next, tick);
    }
}

/// What the operator's console sent: chat the bot hears from the operator (a line starting with
/// `/` is refused: the console never sends commands to the server), stop and resume.
fn console(web: &mut craftmate::web::Watcher, world: &mut LiveWorld, bot: &mut Assistant, operator: &str) {
    use craftmate::agent::inspect::Control;
    use craftmate::web::PageInput;
    for input in web.take_inputs() {
        match input {
            PageInput::Say { text } if text.trim_start().starts_with('/') => {
                web.note("lines starting with / are never sent to the server from the console")
            }
            PageInput::Say { text } if craftmate::safety::gate::is_blank(&text) => {}
            PageInput::Say { text } => world.console_says(operator, &text),
            PageInput::Stop => web.note(&bot.control(Control::Stop)),
            PageInput::Resume => web.note(&bot.control(Control::Resume)),
        }
    }
}
