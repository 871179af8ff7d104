//! The bot's own name said as an address is not part of what a line asks: "hey Helper, come
//! here please" asks to come here, not to walk to something called Helper. The name is taken
//! out at the start of a line (after openings such as "hey", which the lexicon lists) or at its
//! end (after a comma, a "please" or "thanks", or in a command), before anything reads the line.
//! Only the dialogue manager knows the bot's name (from the world), so this is done there.

use crate::lexicon::{Class, lexicon};

/// `chat` without the bot's name where it only addresses the bot. A line that is nothing but the
/// name (and openings) is left as it is: the name is then all there is to answer.
pub fn unaddressed(chat: &str, name: &str) -> String {
    let words: Vec<&str> = chat.split_whitespace().collect();
    let is_name = |w: &str| !name.is_empty() && bare(w).trim_start_matches('@').eq_ignore_ascii_case(name);
    let lx = lexicon();
    let small = |w: &str| {
        let w = bare(w).to_lowercase();
        lx.is(Class::Opening, &w) || lx.is(Class::Greeting, &w)
    };
    let mut keep: Vec<bool> = vec![true; words.len()];
    // At the start, after any openings: "hey Helper, …", "Helper: …".
    if let Some(i) = words.iter().position(|w| !small(w))
        && is_name(words[i])
        && i + 1 < words.len()
    {
        keep[i] = false;
    }
    // At the end: "…, Helper", "… please Helper", "come here Helper".
    let last = words.len().saturating_sub(1);
    if words.len() >= 2 && keep[last] && is_name(words[last]) {
        let before = words[last - 1];
        let closing = {
            let w = bare(before).to_lowercase();
            lx.is(Class::Politeness, &w) || lx.is(Class::Closing, &w) || lx.is(Class::Greeting, &w)
        };
        let first = words.iter().zip(&keep).find(|(w, k)| **k && !small(w)).map(|(w, _)| bare(w).to_lowercase());
        let command = first.is_some_and(|w| lx.verb(&w).is_some());
        if before.ends_with(',') || closing || command {
            keep[last] = false;
        }
    }
    if keep.iter().all(|k| *k) || keep.iter().zip(&words).all(|(k, w)| !k || small(w)) {
        return chat.to_string();
    }
    let kept: Vec<&str> = words.iter().zip(&keep).filter(|(_, k)| **k).map(|(w, _)| *w).collect();
    // A comma left hanging at the end ("come here," once "Helper" went) goes too.
    kept.join(" ").trim_end_matches(',').to_string()
}

/// A word without the punctuation around it.
fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '@')
}

#[cfg(test)]
mod tests {
    use super::unaddressed;
    use crate::dialogue::context::Context;
    use crate::dialogue::manager::DialogueManager;
    use crate::memory::Memory;
    use crate::tasks::TaskStack;
    use crate::world::embedded::{EmbeddedWorld, Preset};
    use crate::world::{Look, Pos, Vec3};

    /// The whole way: a bot called Helper hears "hey Helper, come here please" and comes.
    #[test]
    fn hey_helper_come_here_comes_to_the_speaker() {
        let mut w = EmbeddedWorld::new(Preset::Flat, "Helper", Pos::new(0, 5, 0));
        w.add_player("alice", Vec3::new(8.5, 5.0, 0.5), Look::default());
        let (mut memory, mut tasks) = (Memory::in_memory().unwrap(), TaskStack::default());
        let mut dm = DialogueManager::new(None);
        let said = dm.handle(&mut Context::new("alice", &w, &mut memory, &mut tasks), "hey Helper, come here please");
        assert_eq!(said, vec!["Okay, coming.".to_string()]);
        assert_eq!(tasks.current().as_deref(), Some("coming to you"));
    }

    #[test]
    fn the_bots_name_as_an_address_is_left_out() {
        assert_eq!(unaddressed("hey Helper, come here please", "Helper"), "hey come here please");
        assert_eq!(unaddressed("Helper come here", "Helper"), "come here");
        assert_eq!(unaddressed("@helper: build a red cube", "Helper"), "build a red cube");
        assert_eq!(unaddressed("come here, Helper", "Helper"), "come here");
        assert_eq!(unaddressed("thanks Helper", "Helper"), "thanks");
        assert_eq!(unaddressed("build a tower please Helper!", "Helper"), "build a tower please");
    }

    #[test]
    fn the_name_elsewhere_stays() {
        assert_eq!(unaddressed("Helper", "Helper"), "Helper");
        assert_eq!(unaddressed("hey Helper", "Helper"), "hey Helper");
        assert_eq!(unaddressed("who is Helper", "Helper"), "who is Helper");
        assert_eq!(unaddressed("come here please", "Helper"), "come here please");
        assert_eq!(unaddressed("call the tower helperton", "Helper"), "call the tower helperton");
    }
}
