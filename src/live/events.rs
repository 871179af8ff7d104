//! What the client reports, taken in by the live world: joining, snapshots, chat, the server's
//! block changes and refusals, pickups of items, what chests hold, and news of the connection.

use super::bridge::ClientEvent;
use super::state::Joined;
use super::{LiveWorld, Line, Notice, chat};
use crate::safety::gate::{self, Admitted};
use crate::world::{Actor, BlockChange, ChatMessage, Pickup, World, record};
use std::time::Instant;

impl LiveWorld {
    /// One event from the client, into the world's state (and a notice for the driver if it is
    /// news).
    pub(super) fn take_event(&mut self, ev: ClientEvent, notices: &mut Vec<Notice>) {
        match ev {
            ClientEvent::Joined { name, after, view, attempt } => {
                self.seen.height = view.height_range();
                self.seen.view = Some(view);
                self.connection.joined = Some(Joined { name, login: after, at: Instant::now(), attempt });
                self.connection.ready = false;
                self.seen.has_snapshot = false;
                self.predicted.clear();
            }
            ClientEvent::WorldChanged { view } => {
                self.seen.height = view.height_range();
                self.seen.view = Some(view);
                self.predicted.pending.clear();
            }
            ClientEvent::Snapshot(s) => {
                let applied = s.applied;
                self.seen.snapshot = s;
                self.seen.has_snapshot = true;
                self.predicted.settle(applied);
                if !self.seen.snapshot.creative && self.connection.ready && !self.connection.warned_creative {
                    self.connection.warned_creative = true;
                    notices.push(Notice::NotCreative);
                }
            }
            ClientEvent::Chat { from, id, account, text } => self.hear(from, id, account, text),
            ClientEvent::BlockChanged { pos, before, after } => {
                self.log.change(BlockChange { tick: self.tick, pos, before, after, by: Actor::World });
            }
            ClientEvent::PickedUp { by, by_me, item, count } => {
                let by = if by_me { Some(self.name.clone()) } else { by };
                // Someone the client cannot name took it: nobody the bot could tell about.
                let Some(by) = by else { return };
                let pickup = Pickup { tick: self.tick, by, item: item.unwrap_or_default(), count };
                tracing::debug!(?pickup, "picked up");
                self.log.pickups.push(pickup);
                self.log.pickups_dropped += record::trim(&mut self.log.pickups, record::KEEP_PICKUPS);
            }
            ClientEvent::ChestSeen { pos, items } => self.chest_seen(pos, items),
            ClientEvent::Refused { pos, wanted, got } => {
                tracing::info!(%pos, wanted = wanted.name(), got = got.name(), "the server refused a block change");
                self.refusals.note(self.tick, pos);
                notices.push(Notice::Refused { pos, wanted, got });
            }
            ClientEvent::Disconnected { reason } => {
                self.connection.ready = false;
                self.connection.joined = None;
                notices.push(Notice::Disconnected { reason });
            }
            ClientEvent::Reconnecting { attempt, of, delay } => {
                notices.push(Notice::Reconnecting { attempt, of, delay })
            }
            ClientEvent::GaveUp { reason } => {
                self.connection.ready = false;
                self.connection.joined = None;
                self.connection.gave_up = true;
                notices.push(Notice::GaveUp { reason });
            }
        }
    }

    /// A chat line from the server: find the speaker, drop our own lines, and let only allowed
    /// players through. Signed chat (`id` set) is from its sender's account, whatever name the
    /// message shows; when the account is unknown the shown name stands in for replies, but only
    /// a UUID on the list can admit the line. A server message of the form `<alice> hi` counts
    /// as alice's chat only when the operator said to believe such lines (`--system-chat`): the
    /// first one is reported either way, so a server that sends all chat like that is not met
    /// with silence.
    fn hear(&mut self, from: Option<String>, id: Option<String>, account: Option<String>, text: String) {
        let signed_by_stranger = id.is_some() && account.is_none();
        let (speaker, text) = match (account.filter(|_| id.is_some()), from) {
            (Some(account), _) => (account, text),
            (None, Some(name)) if !name.is_empty() => (name, text),
            _ => match chat::parse_system(&text) {
                Some(pair) if self.access.trust_system_chat => pair,
                Some((name, _)) => {
                    if !std::mem::replace(&mut self.warned_system_chat, true) {
                        tracing::warn!(
                            "the server sent chat from {name} as a server message (\"<{name}> …\"); such lines are not taken as commands unless craftmate connect is started with --system-chat"
                        );
                    }
                    return;
                }
                None => {
                    tracing::debug!("server message: {text}");
                    return;
                }
            },
        };
        if speaker.eq_ignore_ascii_case(&self.name) {
            return;
        }
        let admitted = if signed_by_stranger {
            gate::admit(&mut self.access.by_uuid_only(), &speaker, id.as_deref(), self.tick)
        } else {
            gate::admit(&mut self.access, &speaker, id.as_deref(), self.tick)
        };
        self.log.transcript.push(Line { speaker: speaker.clone(), text: text.clone(), refused: admitted != Admitted::Yes });
        match admitted {
            Admitted::Yes => self.log.chats.push(ChatMessage { tick: self.tick, speaker, text }),
            Admitted::No(Some(line)) => self.say(&line),
            Admitted::No(None) => {}
        }
    }
}
