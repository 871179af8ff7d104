//! `craftmate play`: the embedded world in a terminal.
//!
//! You are a player standing next to the bot. Lines you type are chat; lines starting with `/`
//! are commands for you (move, look, edit, inspect, save). A [`Session`] holds the world and the
//! bot and turns input lines into output lines, so the same code serves the interactive terminal
//! (ticking in real time) and piped input (each line runs until the bot is idle), which is how
//! the tests drive it. With a web view attached ([`Session::attach_web`]) the page sees every
//! tick and speaks as the same player.

pub mod commands;
pub mod map;

use crate::agent::Bot;
use crate::safety::gate;
use crate::world::embedded::{EmbeddedWorld, Preset, WorldStore};
use crate::world::{Look, Vec3, World};
use commands::Command;

/// Ticks a piped line may run before the next line is read (5 minutes of game time).
pub const MAX_TICKS_PER_LINE: u64 = 6000;

/// What the session wants from its caller after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Session {
    world: EmbeddedWorld,
    bot: Box<dyn Bot>,
    make_bot: Box<dyn FnMut() -> Box<dyn Bot>>,
    player: String,
    /// Chat-log mark ([`EmbeddedWorld::chat_end`]) up to which bot lines were already shown.
    shown: usize,
    colour: bool,
    /// Where the world is kept between runs (`--memory`), saved every tick.
    store: Option<WorldStore>,
    /// The tick the kept world was at when this run started, if there was one.
    resumed_at: Option<u64>,
    /// Whether a failed save was already reported (once is enough).
    save_failed: bool,
    /// The web view watching this session, and how much of the chat log it was given.
    web: Option<(crate::web::Watcher, usize)>,
}

impl Session {
    /// A flat world with the bot at the origin and `player` three blocks east of it, facing it.
    pub fn new(player: &str, make_bot: Box<dyn FnMut() -> Box<dyn Bot>>, colour: bool) -> Session {
        Session::kept(player, make_bot, colour, None, Preset::Flat).expect("a session without a store cannot fail")
    }

    /// A session whose world is kept in `store`: the world saved there if there is one (the
    /// player is put back where they were, or beside the bot), else a new world of `preset`.
    pub fn kept(
        player: &str,
        mut make_bot: Box<dyn FnMut() -> Box<dyn Bot>>,
        colour: bool,
        store: Option<WorldStore>,
        preset: Preset,
    ) -> Result<Session, crate::world::embedded::StoreError> {
        let saved = match &store {
            Some(s) => s.load()?,
            None => None,
        };
        let resumed_at = saved.as_ref().map(|w| w.tick());
        // The bot on dry land near the origin (the origin itself in a flat world).
        let mut world = saved.unwrap_or_else(|| EmbeddedWorld::new(preset, "craftmate", preset.dry_spot_near(0, 0)));
        if world.player(player).is_none() {
            let a = world.agent_pos();
            // Three blocks east of the bot, on the ground there, facing it; the bot looks the
            // same way, so its "forward", "left" and "back" are the player's until it turns.
            let p = world.preset().dry_spot_near(a.x + 3, a.z);
            world.add_player(player, Vec3::new(p.x as f64 + 0.5, p.y as f64, p.z as f64 + 0.5), Look::new(90.0, 0.0));
            world.set_look(Look::new(90.0, 0.0));
        }
        let bot = make_bot();
        let mut session = Session {
            world,
            bot,
            make_bot,
            player: player.to_string(),
            shown: 0,
            colour,
            store,
            resumed_at,
            save_failed: false,
            web: None,
        };
        if let Some(store) = &mut session.store {
            WorldStore::mark_all(&mut session.world);
            store.save(&mut session.world)?;
        }
        Ok(session)
    }

    pub fn world(&self) -> &EmbeddedWorld {
        &self.world
    }

    /// The greeting printed at start.
    pub fn banner(&self) -> Vec<String> {
        let first = match self.resumed_at {
            Some(tick) => format!("craftmate play: you are {} in the world kept from last time (tick {tick}), with the bot (craftmate).", self.player),
            None => match self.world.preset() {
                Preset::Natural { seed } => format!("craftmate play: you are {} in a natural world (seed {seed}), next to the bot (craftmate).", self.player),
                _ => format!("craftmate play: you are {} in a flat world, next to the bot (craftmate).", self.player),
            },
        };
        vec![first, "Talk to it in plain words (\"build a red cube\", \"come here\"); /help lists commands.".into()]
    }

    /// Handle one typed line. Chat goes to the bot, whose dialogue passes it through the chat
    /// gate ([`gate`]); commands run at once; a blank line is nothing. Output lines are returned
    /// (the bot's replies appear through [`Session::tick`]).
    pub fn input(&mut self, line: &str) -> (Flow, Vec<String>) {
        let line = line.trim_end_matches(['\r', '\n']);
        if gate::is_blank(line) {
            return (Flow::Continue, Vec::new());
        }
        if line.trim_start().starts_with('/') {
            return match commands::parse(line) {
                Ok(cmd) => self.run_command(cmd),
                Err(e) => (Flow::Continue, vec![format!("* {e}")]),
            };
        }
        self.world.player_says(&self.player, line);
        (Flow::Continue, Vec::new())
    }

    /// Lets a web view watch every tick; what its page types is said by this session's player.
    pub fn attach_web(&mut self, watcher: crate::web::Watcher) {
        self.web = Some((watcher, self.world.chat_end()));
    }

    /// What the page sent since the last tick: its chat is said as the player (and echoed
    /// here, so the terminal shows the whole conversation); its buttons stop and resume.
    fn page_inputs(&mut self) -> Vec<String> {
        use crate::agent::inspect::Control;
        use crate::web::PageInput;
        let Some((web, _)) = &mut self.web else { return Vec::new() };
        let mut out = Vec::new();
        for input in web.take_inputs() {
            let control = match input {
                PageInput::Say { text } if text.trim_start().starts_with('/') => {
                    web.note("commands like /tp are typed in the terminal; the page only chats");
                    continue;
                }
                PageInput::Say { text } => {
                    if !gate::is_blank(&text) {
                        out.push(format!("<{}> {text}", self.player));
                        self.world.player_says(&self.player, &text);
                    }
                    continue;
                }
                PageInput::Stop => Control::Stop,
                PageInput::Resume => Control::Resume,
            };
            let said = self.bot.control(control);
            web.note(&said);
            out.push(format!("* (from the page) {said}"));
        }
        out
    }

    /// Hands the web view this tick: the world, the bot, the new chat, the time it took.
    fn publish(&mut self, took: std::time::Duration) {
        let Some((web, shown)) = &mut self.web else { return };
        let chat = self.world.chat_since(*shown)
            .iter()
            .map(|l| crate::web::message::ChatLine { who: l.speaker.clone(), text: l.text.clone(), bot: l.from_agent, refused: false })
            .collect();
        *shown = self.world.chat_end();
        web.publish(&self.world, self.bot.as_ref(), chat, took);
    }

    /// Advance the world and the bot by one tick; returns the bot's new chat lines.
    pub fn tick(&mut self) -> Vec<String> {
        let mut lines = self.page_inputs();
        let started = std::time::Instant::now();
        self.world.advance();
        self.bot.tick(&mut self.world);
        let took = started.elapsed();
        lines.extend(self.new_bot_lines());
        if let Some(store) = &mut self.store
            && let Err(e) = store.save(&mut self.world)
            && !std::mem::replace(&mut self.save_failed, true)
        {
            lines.push(format!("* the world could not be saved: {e}"));
        }
        self.publish(took);
        lines
    }

    /// Tick until the bot is idle (at least once, at most `max` ticks), collecting its lines.
    pub fn run_until_idle(&mut self, max: u64) -> Vec<String> {
        let mut out = Vec::new();
        for _ in 0..max.max(1) {
            out.extend(self.tick());
            if self.bot.is_idle() {
                break;
            }
        }
        // A language model answers in wall-clock time, not game time: wait for it (it has its
        // own hard limit, so this ends).
        let start = std::time::Instant::now();
        while self.bot.is_thinking() && start.elapsed() < std::time::Duration::from_secs(120) {
            std::thread::sleep(std::time::Duration::from_millis(10));
            out.extend(self.tick());
        }
        out
    }

    pub fn bot_is_idle(&self) -> bool {
        self.bot.is_idle()
    }

    fn new_bot_lines(&mut self) -> Vec<String> {
        let lines = self.world.chat_since(self.shown)
            .iter()
            .filter(|l| l.from_agent)
            .map(|l| format!("<{}> {}", l.speaker, l.text))
            .collect();
        self.shown = self.world.chat_end();
        lines
    }

    fn me(&self) -> (Vec3, Look) {
        self.world.player(&self.player).map(|p| (p.pos, p.look)).unwrap_or_default()
    }

    fn run_command(&mut self, cmd: Command) -> (Flow, Vec<String>) {
        let (pos, _) = self.me();
        let base = commands::base_of(pos);
        let name = self.player.clone();
        let say = |s: String| (Flow::Continue, vec![format!("* {s}")]);
        match cmd {
            Command::Tp(x, y, z) => {
                let p = commands::resolve([x, y, z], base);
                if let Some(me) = self.world.player_mut(&name) {
                    me.pos = p.feet();
                }
                say(format!("you are at {p}"))
            }
            Command::Look(yaw, pitch) => {
                let look = Look::new(yaw, pitch);
                if let Some(me) = self.world.player_mut(&name) {
                    me.look = look;
                }
                say(format!("you look at yaw {:.0}, pitch {:.0}", look.yaw, look.pitch))
            }
            Command::LookAt(x, y, z) => {
                let target = commands::resolve([x, y, z], base);
                let eye = Vec3::new(pos.x, pos.y + crate::world::types::EYE_HEIGHT, pos.z);
                let look = commands::look_at(eye, target);
                if let Some(me) = self.world.player_mut(&name) {
                    me.look = look;
                }
                say(format!("you look at {target}"))
            }
            Command::SetBlock(x, y, z, id) => match commands::block_arg(&id) {
                Ok(b) => match commands::in_world(commands::resolve([x, y, z], base)) {
                    Ok(p) => {
                        self.world.set_block_by(p, b, commands::actor(&name));
                        say(format!("set {p} to {b}"))
                    }
                    Err(e) => say(e),
                },
                Err(e) => say(e),
            },
            Command::Fill(a, b, id) => {
                let block = match commands::block_arg(&id) {
                    Ok(b) => b,
                    Err(e) => return say(e),
                };
                match commands::fill_box(commands::resolve(a, base), commands::resolve(b, base)) {
                    Ok(bbox) => {
                        let n = self.world.fill_by(bbox, block, commands::actor(&name));
                        say(format!("filled {n} blocks with {block}"))
                    }
                    Err(e) => say(e),
                }
            }
            Command::Map(r) => {
                let mut markers = vec![(self.world.agent_pos(), '@')];
                for p in self.world.players() {
                    let c = if p.name == name { 'P' } else { p.name.chars().next().unwrap_or('p').to_ascii_uppercase() };
                    markers.push((p.pos.block(), c));
                }
                (Flow::Continue, map::render(&self.world, base, r, &markers, self.colour))
            }
            Command::Stack => {
                let tasks = self.bot.describe_tasks();
                if tasks.is_empty() { say("the bot has nothing to do".into()) } else { (Flow::Continue, tasks.into_iter().map(|t| format!("* {t}")).collect()) }
            }
            Command::Memory => {
                let mem = self.bot.describe_memory();
                if mem.is_empty() { say("the bot remembers nothing yet".into()) } else { (Flow::Continue, mem.into_iter().map(|t| format!("* {t}")).collect()) }
            }
            Command::Where => {
                let a = self.world.agent_pos();
                say(format!("you are at {base}, the bot is at {a} ({:.1} blocks away)", pos.distance(a.feet())))
            }
            Command::Tick(n) => {
                let mut out: Vec<String> = Vec::new();
                for _ in 0..n {
                    out.extend(self.tick());
                }
                out.push(format!("* {n} ticks passed"));
                (Flow::Continue, out)
            }
            Command::Save(file) => match serde_json::to_vec(&self.world).map_err(|e| e.to_string()).and_then(|bytes| std::fs::write(&file, bytes).map_err(|e| e.to_string())) {
                Ok(()) => say(format!("saved the world to {file}")),
                Err(e) => say(format!("could not save to {file}: {e}")),
            },
            Command::Load(file) => {
                let loaded = commands::read_world_file(&file).and_then(|b| serde_json::from_slice::<EmbeddedWorld>(&b).map_err(|e| format!("not a saved world: {e}")));
                match loaded {
                    Ok(mut w) => {
                        if w.player(&name).is_none() {
                            w.add_player(&name, w.agent_pos().feet(), Look::default());
                        }
                        // Skip chat already in the loaded log: it is history, not news.
                        let _ = w.take_chats();
                        self.shown = w.chat_end();
                        if let Some((web, shown)) = &mut self.web {
                            *shown = self.shown;
                            web.world_replaced();
                        }
                        self.world = w;
                        // A kept world is now this one.
                        WorldStore::mark_all(&mut self.world);
                        self.bot = (self.make_bot)();
                        say(format!("loaded the world from {file}"))
                    }
                    Err(e) => say(format!("could not load {file}: {e}")),
                }
            }
            Command::Help => (Flow::Continue, commands::HELP.iter().map(|s| s.to_string()).collect()),
            Command::Quit => (Flow::Quit, vec!["* bye".into()]),
        }
    }
}
