//! `craftmate play` (the default): talk to the bot in the embedded world from a terminal.
//!
//! On a terminal the world ticks in real time (20 per second) and replies appear as they happen;
//! with piped input each line runs until the bot is idle before the next is read, so a script of
//! lines gives the same transcript every time (the tests rely on it).

use craftmate::agent::Bot;
use craftmate::agent::assistant::Assistant;
use craftmate::memory::Memory;
use craftmate::play::{Flow, MAX_TICKS_PER_LINE, Session};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub fn run(
    name: &str,
    no_colour: bool,
    memory: Option<&std::path::Path>,
    config: Option<&std::path::Path>,
) -> anyhow::Result<ExitCode> {
    // The optional language model for small talk: --config FILE, else ./craftmate.toml if present.
    let llm = match config {
        Some(p) => craftmate::llm::LlmConfig::load_optional(p)?,
        None if std::path::Path::new("craftmate.toml").exists() => {
            craftmate::llm::LlmConfig::load_optional("craftmate.toml")?
        }
        None => None,
    };
    let llm = match llm {
        Some(cfg) => {
            let chat: std::sync::Arc<dyn craftmate::llm::Chat> = std::sync::Arc::from(craftmate::llm::backend(&cfg)?);
            eprintln!("small talk goes to {}", chat.describe());
            Some((chat, cfg.timeout()))
        }
        None => None,
    };
    let interactive = std::io::stdin().is_terminal();
    let colour = !no_colour && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // Fail early and clearly on a bad memory file, before the session starts.
    let memory = memory.map(|p| p.to_path_buf());
    if let Some(p) = &memory {
        Memory::open(p).map_err(|e| anyhow::anyhow!("cannot use memory file {}: {e}", p.display()))?;
    }
    let memory_path = memory.clone();
    let make_bot: Box<dyn FnMut() -> Box<dyn Bot>> = Box::new(move || {
        let mem = match &memory {
            Some(p) => Memory::open(p),
            None => Memory::in_memory(),
        };
        match mem {
            Ok(m) => {
                let mut a = Assistant::new(m, super::parser());
                a.dialogue.llm = llm.clone();
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
    let mut session = Session::kept(name, make_bot, colour, store)?;
    let mut out = std::io::stdout().lock();
    for line in session.banner() {
        writeln!(out, "{line}")?;
    }
    if interactive { run_live(&mut session, &mut out) } else { run_piped(&mut session, &mut out) }
}

fn run_piped(session: &mut Session, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let is_chat = !craftmate::safety::gate::is_blank(&line) && !line.trim_start().starts_with('/');
        let (flow, lines) = session.input(&line);
        for l in lines {
            writeln!(out, "{l}")?;
        }
        if is_chat {
            for l in session.run_until_idle(MAX_TICKS_PER_LINE) {
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

fn run_live(session: &mut Session, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    // Reading stdin blocks, so a thread reads and the game loop polls a channel between ticks.
    let (tx, rx) = mpsc::channel::<Option<String>>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            if tx.send(line.ok()).is_err() {
                return;
            }
        }
        let _ = tx.send(None);
    });
    let tick = Duration::from_millis(50);
    let mut next = Instant::now();
    loop {
        while let Ok(msg) = rx.try_recv() {
            let Some(line) = msg else { return Ok(ExitCode::SUCCESS) };
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
