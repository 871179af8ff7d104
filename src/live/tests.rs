//! The live world without a server: the tests play the client's side through the two channels,
//! over a small azalea world of flat ground, and check what the agent sees and what is sent —
//! readiness, predictions, refusals, access, chat, reconnecting.

use super::blocks::BlockView;
use super::bridge::{ClientEvent, Command, Seq, Snapshot};
use super::refusals::{BURST_TICKS, REFUSED_TICKS};
use super::state::CENTRE_COOLDOWN;
use super::*;
use crate::world::{ActionError, Actor, BBox, Look, PlayerInfo, Vec3, World};
use azalea::BlockPos;
use azalea::core::position::ChunkPos;
use azalea::world::Chunk;
use parking_lot::RwLock;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

fn block(name: &str) -> Block {
    Block::from_name(name).unwrap()
}

fn red() -> Block {
    block("red_wool")
}

struct Harness {
    world: LiveWorld,
    commands: Receiver<Command>,
    events: Sender<ClientEvent>,
    blocks: Arc<RwLock<azalea::world::World>>,
    /// The chunks (the world only holds them weakly, as azalea's client does).
    _chunks: Vec<Arc<RwLock<Chunk>>>,
    applied: Seq,
}

impl Harness {
    /// Loaded chunks −2..=2 around the origin, grass at y=4 (feet rest at y=5).
    fn new(access: Access) -> Harness {
        let (cmd_tx, commands) = channel();
        let (events, ev_rx) = channel();
        let world = LiveWorld::over("Helper".into(), access, cmd_tx, ev_rx);
        let mut w = azalea::world::World::default();
        let mut chunks = Vec::new();
        for cx in -2..=2 {
            for cz in -2..=2 {
                chunks.push(w.chunks.upsert(ChunkPos::new(cx, cz), Chunk::default()));
            }
        }
        let grass = blocks::state_of(block("grass_block")).unwrap();
        for x in -32..48 {
            for z in -32..48 {
                w.chunks.set_block_state(BlockPos::new(x, 4, z), grass);
            }
        }
        Harness { world, commands, events, blocks: Arc::new(RwLock::new(w)), _chunks: chunks, applied: 0 }
    }

    fn snapshot(&mut self, feet: Vec3) {
        let alice = PlayerInfo { name: "alice".into(), pos: Vec3::new(3.5, 5.0, 0.5), look: Look::new(90.0, 0.0) };
        let s = Snapshot {
            applied: self.applied,
            pos: feet,
            look: Look::default(),
            creative: true,
            players: vec![alice],
            mobs: Vec::new(),
            items: Vec::new(),
        };
        self.events.send(ClientEvent::Snapshot(s)).unwrap();
    }

    /// The client joins and sends its first snapshot (the bot at (0, 5, 0)).
    fn join(&mut self) -> Vec<Notice> {
        let view = BlockView::new(self.blocks.clone());
        self.events
            .send(ClientEvent::Joined { name: "Helper".into(), after: Duration::from_millis(500), view, attempt: 1 })
            .unwrap();
        self.snapshot(Vec3::new(0.5, 5.0, 0.5));
        self.world.sync()
    }

    fn sent(&mut self) -> Vec<Command> {
        self.commands.try_iter().collect()
    }

    fn said(&mut self) -> Vec<String> {
        self.sent()
            .into_iter()
            .filter_map(|c| match c {
                Command::Say(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    fn set(&mut self, p: Pos, b: Block) {
        self.blocks.read().set_block_state(BlockPos::new(p.x, p.y, p.z), blocks::state_of(b).unwrap());
    }
}

#[test]
fn nothing_is_done_before_the_bot_is_in_the_world() {
    let mut h = Harness::new(Access::everyone());
    assert!(!h.world.is_ready());
    assert!(matches!(h.world.place_block(Pos::new(2, 5, 0), red()), Err(ActionError::Refused(_))));
    assert!(matches!(h.world.step_to(Pos::new(1, 5, 0)), Err(ActionError::Refused(_))));
    assert!(h.sent().is_empty());
    let notices = h.join();
    assert!(matches!(notices.as_slice(), [Notice::Ready { reconnected: false, attempt: 1, .. }]), "{notices:?}");
    assert!(h.world.is_ready());
    assert_eq!(h.world.agent_pos(), Pos::new(0, 5, 0));
    assert_eq!(h.world.players()[0].name, "alice");
    assert_eq!(h.world.block_at(Pos::new(5, 4, 5)).name(), "grass_block");
    assert_eq!(h.world.block_at(Pos::new(500, 4, 5)), Block::AIR, "not loaded reads as air");
}

#[test]
fn own_changes_show_at_once_and_go_out_in_order() {
    let mut h = Harness::new(Access::everyone());
    h.join();
    let p = Pos::new(2, 5, 0);
    h.world.place_block(p, red()).unwrap();
    assert_eq!(h.world.block_at(p), red());
    assert!(h.world.blocks_in(BBox::new(p, p)).contains(&(p, red())));
    h.world.step_to(Pos::new(1, 5, 0)).unwrap();
    assert_eq!(h.world.agent_pos(), Pos::new(1, 5, 0), "the step shows before the client reports it");
    h.world.set_look(Look::new(-90.0, 10.0));
    assert_eq!(h.world.agent_look(), Look::new(270.0, 10.0));
    assert_eq!(
        h.sent(),
        vec![
            Command::Place { seq: 1, pos: p, block: red(), against: Pos::new(2, 4, 0) },
            Command::Step { seq: 2, feet: Vec3::new(1.5, 5.0, 0.5) },
            Command::Look { seq: 3, look: Look::new(270.0, 10.0) },
        ]
    );
    let (changes, cursor) = h.world.changes_since(0);
    assert_eq!(cursor, 1);
    assert_eq!(
        (changes[0].pos, changes[0].before, changes[0].after, &changes[0].by),
        (p, Block::AIR, red(), &Actor::Agent)
    );

    // Until the client reports the commands carried out, the predictions stand; after, its world
    // and snapshots are the truth.
    h.applied = 1;
    h.snapshot(Vec3::new(0.5, 5.0, 0.5));
    h.world.sync();
    assert_eq!(h.world.block_at(p), Block::AIR, "carried out, but the world does not show it (yet)");
    assert_eq!(h.world.agent_pos(), Pos::new(1, 5, 0), "the step is still on its way");
    h.set(p, red());
    h.applied = 3;
    h.snapshot(Vec3::new(1.5, 5.0, 0.5));
    h.world.sync();
    assert_eq!((h.world.block_at(p), h.world.agent_pos()), (red(), Pos::new(1, 5, 0)));
    assert_eq!(h.world.agent_look(), Look::default(), "the snapshot's look");
}

/// The server spawns players at block corners (and teleports or pushes them anywhere): a bot
/// standing off the middle of its block steps to the middle, so what tasks see (one block under
/// the feet) is what holds the body up.
#[test]
fn a_bot_off_the_middle_of_its_block_steps_to_the_middle() {
    let mut h = Harness::new(Access::everyone());
    h.join();
    assert!(h.sent().is_empty(), "in the middle already");
    // On a corner: the body stands on four blocks.
    h.snapshot(Vec3::new(1.0, 5.0, 0.0));
    h.world.sync();
    assert_eq!(h.sent(), vec![Command::Step { seq: 1, feet: Vec3::new(1.5, 5.0, 0.5) }]);
    assert_eq!(h.world.agent_pos(), Pos::new(1, 5, 0));
    // Until the client has carried the step out, nothing more is sent.
    h.snapshot(Vec3::new(1.0, 5.0, 0.0));
    h.world.sync();
    assert!(h.sent().is_empty());
    h.applied = 1;
    h.snapshot(Vec3::new(1.5, 5.0, 0.5));
    h.world.sync();
    assert!(h.sent().is_empty());
    // Pushed off again at once: it waits a moment first, so a push does not make it fidget.
    h.snapshot(Vec3::new(1.95, 5.0, 0.5));
    h.world.sync();
    assert!(h.sent().is_empty());
    for _ in 0..CENTRE_COOLDOWN {
        h.snapshot(Vec3::new(1.95, 5.0, 0.5));
        h.world.sync();
    }
    assert_eq!(h.sent(), vec![Command::Step { seq: 2, feet: Vec3::new(1.5, 5.0, 0.5) }]);
    h.applied = 2;
    // Not while falling or jumping (the feet between two rows), nor where its block is solid.
    for _ in 0..=CENTRE_COOLDOWN {
        h.snapshot(Vec3::new(3.9, 6.4, 0.5));
        h.world.sync();
    }
    h.set(Pos::new(5, 5, 0), red());
    for _ in 0..=CENTRE_COOLDOWN {
        h.snapshot(Vec3::new(5.9, 5.0, 0.5));
        h.world.sync();
    }
    assert!(h.sent().is_empty());
}

#[test]
fn checks_before_sending() {
    let mut h = Harness::new(Access::everyone());
    h.join();
    let r = red();
    assert_eq!(h.world.place_block(Pos::new(0, 400, 0), r), Err(ActionError::OutOfWorld(Pos::new(0, 400, 0))));
    assert_eq!(h.world.place_block(Pos::new(1, 8, 0), r), Err(ActionError::NoFooting(Pos::new(1, 8, 0))));
    assert_eq!(h.world.place_block(Pos::new(12, 5, 0), r), Err(ActionError::OutOfReach(Pos::new(12, 5, 0))));
    assert_eq!(h.world.place_block(Pos::new(3, 6, 0), r), Err(ActionError::Occupied(Pos::new(3, 6, 0))), "alice");
    assert_eq!(h.world.step_to(Pos::new(2, 5, 0)), Err(ActionError::NotAdjacent(Pos::new(2, 5, 0))));
    assert_eq!(h.world.break_block(Pos::new(1, 5, 0)), Err(ActionError::NothingThere(Pos::new(1, 5, 0))));
    assert_eq!(
        h.world.spawn_mob("dragon of doom", Vec3::new(2.5, 5.0, 0.5)),
        Err(ActionError::UnknownMob("dragon_of_doom".into()))
    );
    assert_eq!(h.world.give_item("bob", "apple", 1), Err(ActionError::UnknownPlayer("bob".into())));
    assert_eq!(h.world.give_item("alice", "no such thing", 1), Err(ActionError::UnknownItem("no_such_thing".into())));
    assert!(h.sent().is_empty(), "nothing refused here reaches the server");

    h.world.spawn_mob("Pig", Vec3::new(2.5, 5.0, 0.5)).unwrap();
    h.world.give_item("alice", "diamond_sword", 70).unwrap();
    let sent = h.sent();
    assert_eq!(sent[0], Command::Spawn { seq: 1, egg: "pig_spawn_egg".into(), on: Pos::new(2, 4, 0) });
    let given: Vec<u32> = sent[1..]
        .iter()
        .map(|c| match c {
            Command::Give { item, count, .. } if item == "diamond_sword" => *count,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(given, vec![64, 6], "one stack at a time");
}

/// The server's take-item packets become the world's pickups: a player's by name, the bot's own
/// under its name, a collector the client cannot name not at all.
#[test]
fn pickups_the_server_announces_are_the_worlds_pickups() {
    let mut h = Harness::new(Access::everyone());
    h.join();
    let (_, start) = h.world.pickups_since(usize::MAX);
    let picked = |by: Option<&str>, by_me: bool| ClientEvent::PickedUp {
        by: by.map(String::from),
        by_me,
        item: Some("apple".into()),
        count: 1,
    };
    h.events.send(picked(Some("alice"), false)).unwrap();
    h.events.send(picked(None, true)).unwrap();
    h.events.send(picked(None, false)).unwrap();
    h.world.sync();
    let (got, _) = h.world.pickups_since(start);
    let by: Vec<(&str, &str, u32)> = got.iter().map(|p| (p.by.as_str(), p.item.as_str(), p.count)).collect();
    assert_eq!(by, vec![("alice", "apple", 1), ("Helper", "apple", 1)]);
}

#[test]
fn a_refused_spot_fails_at_once_and_a_burst_closes_the_area() {
    let mut h = Harness::new(Access::everyone());
    h.join();
    let (a, b, c) = (Pos::new(2, 5, 0), Pos::new(2, 5, 1), Pos::new(2, 5, 2));
    h.world.place_block(a, red()).unwrap();
    // The server put the air back.
    h.events.send(ClientEvent::BlockChanged { pos: a, before: red(), after: Block::AIR }).unwrap();
    h.events.send(ClientEvent::Refused { pos: a, wanted: red(), got: Block::AIR }).unwrap();
    h.applied = 1;
    h.snapshot(Vec3::new(0.5, 5.0, 0.5));
    let notices = h.world.sync();
    assert!(notices.contains(&Notice::Refused { pos: a, wanted: red(), got: Block::AIR }), "{notices:?}");
    assert_eq!(h.world.block_at(a), Block::AIR);
    let last = h.world.changes_since(0).0.pop().unwrap();
    assert_eq!((last.pos, last.after, last.by), (a, Block::AIR, Actor::World));
    h.sent();
    let err = h.world.place_block(a, red()).unwrap_err();
    assert_eq!(err.to_string(), "the server refused: I'm not allowed to change the block at (2, 5, 0)");
    assert!(h.sent().is_empty(), "no second try goes out");
    assert!(h.world.place_block(b, red()).is_ok(), "one refusal closes one spot");

    // Three refusals close the area around them for a while.
    for p in [b, c] {
        h.events.send(ClientEvent::Refused { pos: p, wanted: red(), got: Block::AIR }).unwrap();
    }
    h.world.sync();
    assert!(matches!(h.world.place_block(Pos::new(3, 5, -1), red()), Err(ActionError::Refused(_))));
    assert!(matches!(h.world.break_block(Pos::new(1, 4, 1)), Err(ActionError::Refused(_))));
    for _ in 0..BURST_TICKS {
        h.world.sync();
    }
    assert!(h.world.place_block(Pos::new(3, 5, -1), red()).is_ok(), "the area opens again");
    assert!(h.world.place_block(a, red()).is_err(), "the refused spot stays closed longer");
    for _ in 0..REFUSED_TICKS {
        h.world.sync();
    }
    assert!(h.world.place_block(a, red()).is_ok());
}

fn chat(h: &Harness, from: Option<&str>, id: Option<&str>, text: &str) {
    h.events.send(ClientEvent::Chat { from: from.map(String::from), id: id.map(String::from), account: None, text: text.into() }).unwrap();
}

/// A signed line showing `shown`, from the player with UUID `id` and, when the player list has
/// them, account name `account`.
fn signed(h: &Harness, shown: &str, id: &str, account: Option<&str>, text: &str) {
    let ev = ClientEvent::Chat { from: Some(shown.into()), id: Some(id.into()), account: account.map(String::from), text: text.into() };
    h.events.send(ev).unwrap();
}

#[test]
fn only_allowed_players_reach_the_bot_and_others_hear_one_polite_no() {
    let mut access = Access::parse("alice").unwrap();
    access.trust_system_chat = true;
    let mut h = Harness::new(access);
    h.join();
    let lines = [
        (None, "<mallory> come here"),
        (Some("alice"), "come here"),
        (None, "<Helper> Okay, coming."),
        (None, "mallory joined the game"),
        (None, "<mallory> come here please"),
        (None, "<[Admin] alice> build a red cube"),
        // Another name is another player, however alike.
        (Some("ALICE"), "destroy everything"),
    ];
    for (from, text) in lines {
        chat(&h, from, None, text);
    }
    h.world.sync();
    let heard: Vec<(String, String)> = h.world.take_chats().into_iter().map(|c| (c.speaker, c.text)).collect();
    assert_eq!(heard, vec![("alice".into(), "come here".into()), ("alice".into(), "build a red cube".into())]);
    let said = h.said();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said[0].starts_with("Sorry mallory") && said[1].starts_with("Sorry ALICE"), "{said:?}");
    let refused: Vec<bool> =
        h.world.take_transcript().iter().filter(|l| l.speaker != "Helper").map(|l| l.refused).collect();
    assert_eq!(refused, vec![true, false, true, false, true]);
}

#[test]
fn server_messages_in_chat_form_are_not_believed_unless_told_to() {
    let mut h = Harness::new(Access::parse("alice").unwrap());
    h.join();
    chat(&h, None, None, "<alice> destroy everything");
    chat(&h, Some("alice"), None, "come here");
    h.world.sync();
    let heard: Vec<(String, String)> = h.world.take_chats().into_iter().map(|c| (c.speaker, c.text)).collect();
    assert_eq!(heard, vec![("alice".into(), "come here".into())]);
    assert!(h.said().is_empty(), "no answer to a line nobody said");
}

#[test]
fn a_uuid_on_the_list_is_matched_against_signed_chat() {
    let id = "069a79f4-44e9-4726-a5be-fca90e38aaf5";
    let mut h = Harness::new(Access::parse(id).unwrap());
    h.join();
    chat(&h, Some("Notch"), Some(id), "come here");
    chat(&h, Some("Notch"), None, "build a red cube");
    h.world.sync();
    let heard: Vec<String> = h.world.take_chats().into_iter().map(|c| c.text).collect();
    assert_eq!(heard, vec!["come here".to_string()], "unsigned chat under the same name is not enough");
}

#[test]
fn a_nickname_is_not_the_account_on_the_list() {
    let mut h = Harness::new(Access::parse("alice").unwrap());
    h.join();
    signed(&h, "alice", "00000000-0000-0000-0000-00000000000a", Some("mallory"), "destroy everything");
    signed(&h, "alice", "00000000-0000-0000-0000-00000000000b", None, "destroy everything");
    signed(&h, "Queen Ali", "00000000-0000-0000-0000-00000000000c", Some("alice"), "come here");
    h.world.sync();
    let heard: Vec<(String, String)> = h.world.take_chats().into_iter().map(|c| (c.speaker, c.text)).collect();
    assert_eq!(heard, vec![("alice".into(), "come here".into())], "only the account counts");
    let said = h.said();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said[0].starts_with("Sorry mallory") && said[1].starts_with("Sorry alice"), "{said:?}");
    let lines: Vec<(String, bool)> = h.world.take_transcript().into_iter().filter(|l| l.speaker != "Helper").map(|l| (l.speaker, l.refused)).collect();
    assert_eq!(lines, vec![("mallory".into(), true), ("alice".into(), true), ("alice".into(), false)]);
}

#[test]
fn answers_are_split_and_never_commands() {
    let mut h = Harness::new(Access::everyone());
    h.join();
    let long = format!("/op me {}", "word ".repeat(100));
    h.world.say(&long);
    let said = h.said();
    assert_eq!(said.len(), 2, "506 characters in two lines: {said:?}");
    assert!(said.iter().all(|l| crate::safety::text::utf16_len(l) <= chat::MAX_CHAT_CHARS && !l.starts_with('/')), "{said:?}");
    assert!(said[0].starts_with("op me word"));
}

#[test]
fn a_lost_connection_stops_the_bot_until_it_is_back() {
    let mut h = Harness::new(Access::everyone());
    h.join();
    h.events.send(ClientEvent::Disconnected { reason: "Server closed".into() }).unwrap();
    h.events.send(ClientEvent::Reconnecting { attempt: 1, of: 20, delay: Duration::from_secs(1) }).unwrap();
    let notices = h.world.sync();
    assert_eq!(
        notices,
        vec![
            Notice::Disconnected { reason: "Server closed".into() },
            Notice::Reconnecting { attempt: 1, of: 20, delay: Duration::from_secs(1) }
        ]
    );
    assert!(!h.world.is_ready());
    assert!(matches!(h.world.place_block(Pos::new(2, 5, 0), red()), Err(ActionError::Refused(_))));
    let notices = h.join();
    assert!(matches!(notices.as_slice(), [Notice::Ready { reconnected: true, .. }]), "{notices:?}");
    assert!(h.world.place_block(Pos::new(2, 5, 0), red()).is_ok());
    h.events.send(ClientEvent::GaveUp { reason: "gave up after 20 failed attempts".into() }).unwrap();
    h.world.sync();
    assert!(h.world.gave_up() && !h.world.is_ready());
}

/// A chest on a server is known from the bot's last look inside: a look is asked for and
/// answered by the client's report; a take works on what that look saw, and the report after a
/// put is what shows the items arrived.
#[test]
fn a_chest_is_known_from_the_last_look_inside() {
    use super::bridge::ChestMove;
    let mut h = Harness::new(Access::everyone());
    h.join();
    let chest = Pos::new(2, 5, 0);
    h.set(chest, block("chest"));
    assert_eq!(h.world.container(chest), None, "never looked into");
    assert_eq!(h.world.look_inside(Pos::new(2, 5, 1)), Err(ActionError::NoContainer(Pos::new(2, 5, 1))));
    assert_eq!(h.world.take_from_container(chest, "cobblestone", 3).map_err(|_| ()), Err(()), "nothing to take before a look");

    assert_eq!(h.world.look_inside(chest), Ok(None));
    assert_eq!(h.world.look_inside(chest), Ok(None), "one look asked, still waiting");
    assert_eq!(h.sent(), vec![Command::Chest { seq: 1, pos: chest, moves: vec![] }]);
    h.events.send(ClientEvent::ChestSeen { pos: chest, items: Some(vec![("cobblestone".into(), 5)]) }).unwrap();
    h.world.sync();
    assert_eq!(h.world.look_inside(chest).unwrap().map(|inv| inv.count("cobblestone")), Some(5));

    assert_eq!(h.world.take_from_container(chest, "cobblestone", 9), Ok(5), "as many as it saw");
    assert_eq!(h.sent(), vec![Command::Chest { seq: 2, pos: chest, moves: vec![ChestMove::Take { item: "cobblestone".into(), count: 5 }] }]);
    h.world.put_in_container(chest, "apple", 2).unwrap();
    assert_eq!(h.world.look_inside(chest), Ok(None), "the put's report is still to come");
    h.events.send(ClientEvent::ChestSeen { pos: chest, items: Some(vec![("apple".into(), 2)]) }).unwrap();
    h.world.sync();
    assert_eq!(h.world.container(chest).map(|inv| inv.count("apple")), Some(2));

    // A window that never opened: the look waiting for it fails, with the reason.
    h.world.put_in_container(chest, "apple", 1).unwrap();
    h.events.send(ClientEvent::ChestSeen { pos: chest, items: None }).unwrap();
    h.world.sync();
    assert!(matches!(h.world.look_inside(chest), Err(ActionError::Refused(why)) if why.contains("would not open")));
}
