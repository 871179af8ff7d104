//! `craftmate play` (the default): talk to the bot in the embedded world from a terminal.
//!
//! On a terminal the world ticks in real time (20 per second) and replies appear as they happen;
//! with piped input each line runs until the bot is idle before the next is read (unless a
//! `/tick N` after it says how long to wait), so a script of lines gives the same transcript
//! every time (the tests rely on it). With `--web` the world
//! always ticks in real time, and the page (see `craftmate::web`) is a second way in: closing
//! standard input then leaves the page running until Ctrl-C.

use craftmate::agent::Bot;
use craftmate::agent::assistant::Assistant;
use craftmate::memory::Memory;
use craftmate::play::{Flow, MAX_TICKS_PER_LINE, Session};
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Your player name.
    #[arg(long, default_value = "player")]
    pub name: String,
    /// No ANSI colours in /map.
    #[arg(long)]
    pub no_colour: bool,
    /// Keep the bot's memory in this SQLite file (created if missing) so it survives restarts.
    #[arg(long)]
    pub memory: Option<PathBuf>,
    /// Settings: `[llm]` for small talk, `[rules]` for what the owner allows (default: ./craftmate.toml when it exists).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Serve the web view (the world in 3D, chat, what the bot understood, tasks, memory) at
    /// ADDR (default 127.0.0.1:8080). Any address other than loopback needs the token printed
    /// at start.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = craftmate::web::DEFAULT_ADDR)]
    pub web: Option<String>,
    /// The world to start in: `natural` (hills, water, trees, ore underground), `flat` or
    /// `empty`. A world kept in --memory comes back as it was.
    #[arg(long, default_value = "natural")]
    pub world: String,
    /// The natural world's seed (default: a new one each start, printed in the greeting).
    #[arg(long)]
    pub seed: Option<u32>,
}

impl Default for PlayArgs {
    fn default() -> PlayArgs {
        PlayArgs { name: "player".into(), no_colour: false, memory: None, config: None, web: None, world: "natural".into(), seed: None }
    }
}

pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let (name, no_colour, memory, config) = (&args.name, args.no_colour, args.memory.as_deref(), args.config.as_deref());
    let llm = super::load_llm(config)?;
    let rules = super::load_rules(config)?;
    let interactive = std::io::stdin().is_terminal();
    let colour = !no_colour && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // Fail early and clearly on a bad memory file, before the session starts.
    let memory = memory.map(|p| p.to_path_buf());
    if let Some(p) = &memory {
        super::open_memory(p)?;
    }
    let memory_path = memory.clone();
    let make_bot: Box<dyn FnMut() -> Box<dyn Bot>> = Box::new(move || {
        let mem = match &memory {
            Some(p) => Memory::open(p),
            None => Memory::in_memory(),
        };
        match mem {
            Ok(mut m) => {
                m.set_retention(rules.retention());
                let mut a = Assistant::new(m, super::parser());
                a.dialogue.llm = llm.clone();
                a.dialogue.rules = rules;
                Box::new(a) as Box<dyn Bot>
            }
            Err(e) => {
                eprintln!("error: memory: {e}; the bot will only listen");
                Box::new(craftmate::agent::Listener::default())
            }
        }
    });
    // The world is kept in the memory file too, so a restart finds what was built.
    let store = match &memory_path {
        Some(p) => Some(
            craftmate::world::embedded::WorldStore::open(p)
                .map_err(|e| anyhow::anyhow!("cannot keep the world in {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        (now.as_nanos() % 1_000_000) as u32
    });
    let preset = craftmate::world::embedded::Preset::parse(&args.world, seed)
        .ok_or_else(|| anyhow::anyhow!("--world {}: no such world (natural, flat or empty)", args.world))?;
    let mut session = Session::kept(name, make_bot, colour, store, preset)?;
    let web = match &args.web {
        Some(addr) => {
            let identity = craftmate::web::Identity { bot: "craftmate".into(), you: name.clone(), mode: "play" };
            let web = craftmate::web::start(addr, identity)?;
            let url = web.url();
            session.attach_web(web.watcher);
            Some(url)
        }
        None => None,
    };
    let mut out = std::io::stdout().lock();
    for line in session.banner() {
        writeln!(out, "{line}")?;
    }
    if let Some(url) = &web {
        writeln!(out, "web view: {url}")?;
        out.flush()?;
    }
    if interactive || web.is_some() {
        run_live(&mut session, &mut out, web.is_some())
    } else {
        run_piped(&mut session, &mut out)
    }
}

/// The longest input line kept whole; the chat gate refuses far shorter ones, this only bounds
/// what a pasted file or a stuck key can make the bot hold.
const MAX_LINE_BYTES: u64 = 64 * 1024;

/// Lines of input as text. Bytes that are not UTF-8 are replaced, never an error that ends the
/// session; a line longer than [`MAX_LINE_BYTES`] keeps only its start (the gate then says it is
/// too long). Ends at the end of input (or a read error).
fn input_lines(mut input: impl BufRead) -> impl Iterator<Item = String> {
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        let n = (&mut input).take(MAX_LINE_BYTES).read_until(b'\n', &mut buf).ok()?;
        if n == 0 {
            return None;
        }
        if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
            // Skip the rest of the overlong line.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let m = (&mut input).take(MAX_LINE_BYTES).read_until(b'\n', &mut rest).ok()?;
                if m == 0 || rest.last() == Some(&b'\n') {
                    break;
                }
            }
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        Some(String::from_utf8_lossy(&buf).into_owned())
    })
}

/// Piped input is a script: each chat line runs until the bot is idle, so the transcript is the
/// same every time, unless the script says how long to wait instead: a chat line followed by
/// `/tick N` (or `/wait N`) gets only those ticks, so the next line ("stop", "what are you
/// doing?") is read while the bot is still at work. A program that feeds lines over time is
/// never waited on: the next line counts only if it is there within [`LOOK_AHEAD`].
fn run_piped(session: &mut Session, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    // Reading blocks, so a thread reads and this loop looks ahead without waiting on a writer.
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in input_lines(std::io::stdin().lock()) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut ahead: Option<String> = None;
    while let Some(line) = ahead.take().or_else(|| rx.recv().ok()) {
        let is_chat = !craftmate::safety::gate::is_blank(&line) && !line.trim_start().starts_with('/');
        let (flow, lines) = session.input(&line);
        for l in lines {
            writeln!(out, "{l}")?;
        }
        if is_chat {
            ahead = rx.recv_timeout(LOOK_AHEAD).ok();
            let timed = ahead.as_deref().is_some_and(|next| {
                let next = next.trim_start();
                next.starts_with("/tick") || next.starts_with("/wait")
            });
            let ticks = if timed { 1 } else { MAX_TICKS_PER_LINE };
            for l in session.run_until_idle(ticks) {
                writeln!(out, "{l}")?;
            }
        }
        out.flush()?;
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// How long a piped chat line waits for the line after it, to see whether it is a `/tick`.
const LOOK_AHEAD: Duration = Duration::from_millis(50);

/// Real time: 20 ticks a second, typed lines taken between ticks. With a web view, the end of
/// standard input only stops reading it: the page goes on until Ctrl-C or /quit.
fn run_live(session: &mut Session, out: &mut impl Write, web: bool) -> anyhow::Result<ExitCode> {
    // Reading stdin blocks, so a thread reads and the game loop polls a channel between ticks.
    let (tx, rx) = mpsc::channel::<Option<String>>();
    std::thread::spawn(move || {
        for line in input_lines(std::io::stdin().lock()) {
            if tx.send(Some(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(None);
    });
    let tick = Duration::from_millis(50);
    let mut next = Instant::now();
    loop {
        while let Ok(msg) = rx.try_recv() {
            let Some(line) = msg else {
                if web {
                    continue;
                }
                return Ok(ExitCode::SUCCESS);
            };
            let (flow, lines) = session.input(&line);
            for l in lines {
                writeln!(out, "{l}")?;
            }
            if flow == Flow::Quit {
                return Ok(ExitCode::SUCCESS);
            }
        }
        for l in session.tick() {
            writeln!(out, "{l}")?;
        }
        out.flush()?;
        super::wait_for_tick(&mut next, tick);
    }
}
