//! Every hand-written rule on the way from chat to a form, by name, and a switch to turn any of
//! them off.
//!
//! A rule earns its place only while the parser cannot do its job: once the network has learned
//! what a rule knows (from the generated corpus, [`crate::training::corpus`]), the rule is dead
//! weight that can disagree with the model. `craftmate scenario --rules-off NAME …` runs a suite
//! with a rule switched off, and `craftmate-lab rules` does so for every rule in turn and prints
//! what each still adds. The switch is set once, before the first line is read.

use std::sync::OnceLock;

/// One rule of understanding; [`Rule::name`] is how the command line says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// "x=10 y=5 z=-5" as three numbers (`plain_coordinates`).
    AxisNames,
    /// Steps said after commas or full stops joined with "then" (`steps_by_punctuation`).
    StepPunctuation,
    /// "4x4x4" as "4 x 4 x 4" (`split_times`).
    SplitTimes,
    /// "… actually no, make it sandstone": only what follows a change of mind
    /// (`after_change_of_mind`).
    ChangeOfMind,
    /// Typos fixed against the parser's vocabulary ([`super::spelling`]).
    Spelling,
    /// The lexicon's `[rewrites]` and `[anywhere]` phrases ([`super::everyday::plain_verbs`]).
    Rewrites,
    /// A known line's core without the small words around it ([`super::everyday::core`]).
    KnownCore,
    /// Stop words anywhere in a short line ([`super::everyday::is_stop`]).
    Stop,
    /// Praise ([`super::everyday::is_praise`]).
    Praise,
    /// Item requests ("give me 10 oak logs", [`super::giving::read`]).
    Giving,
    /// Spawning mobs with a count ([`super::giving::read_spawn`]).
    Spawning,
    /// Namings ("call the tower bob", [`super::naming::read`]).
    Naming,
    /// Rankings ("destroy the biggest cube", [`super::superlative::read`]).
    Superlative,
    /// Questions ("how big is frosty", [`super::asking::read`]).
    Asking,
    /// Questions about what the bot built or was asked (answered from its history).
    History,
    /// How-to questions are chit-chat ([`super::everyday::is_how_to`]).
    HowTo,
    /// A pointing relation ("next to it") cut out and written in (`read_pointing`).
    Pointing,
    /// Only things to build ("two blue spheres pls") read as "build …".
    OnlyThings,
    /// The parse of a request's core when it is surer than the whole line's (`parse_core`).
    Core,
    /// A line of several steps read step by step ([`super::sequence`]).
    Steps,
    /// Several questions in one line, each answered ([`super::several`]).
    SeveralQuestions,
    /// A request after a remark read alone when the whole line is chit-chat
    /// ([`super::several::request_after_remark`]).
    RequestAfterRemark,
    /// The repairs of a parsed form from its words: spawn counts, colours and materials,
    /// rankings, coordinates, distances, relations, counts and measures.
    SpawnRepair,
    Details,
    RankingRepair,
    Coordinates,
    /// "… at build_spot": a named place after "at" ([`super::place_name`]).
    PlaceName,
    Distance,
    Relation,
    Count,
    Measures,
    /// Companion jobs read whole ("mine some coal for me", [`super::jobs::read`]).
    Jobs,
    /// A parsed action said with a job's verb retyped ([`super::jobs::repair`]).
    JobRepair,
    /// A thing given a new colour or material ("paint the tower red", [`super::paint::read`]).
    Paint,
}

impl Rule {
    pub const ALL: [Rule; 34] = [
        Rule::AxisNames,
        Rule::StepPunctuation,
        Rule::SplitTimes,
        Rule::ChangeOfMind,
        Rule::Spelling,
        Rule::Rewrites,
        Rule::KnownCore,
        Rule::Stop,
        Rule::Praise,
        Rule::Giving,
        Rule::Spawning,
        Rule::Naming,
        Rule::Superlative,
        Rule::Asking,
        Rule::History,
        Rule::HowTo,
        Rule::Pointing,
        Rule::OnlyThings,
        Rule::Core,
        Rule::Steps,
        Rule::SeveralQuestions,
        Rule::RequestAfterRemark,
        Rule::SpawnRepair,
        Rule::Details,
        Rule::RankingRepair,
        Rule::Coordinates,
        Rule::PlaceName,
        Rule::Distance,
        Rule::Relation,
        Rule::Count,
        Rule::Measures,
        Rule::Jobs,
        Rule::JobRepair,
        Rule::Paint,
    ];

    /// The rule's name on the command line: its variant in kebab case.
    pub fn name(self) -> String {
        let mut out = String::new();
        for (i, c) in format!("{self:?}").chars().enumerate() {
            if c.is_uppercase() && i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    /// The rule called `name`.
    pub fn named(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }
}

static OFF: OnceLock<Vec<Rule>> = OnceLock::new();

/// Switches the named rules off for the rest of the process; an unknown name is an error that
/// lists the known ones. Must come before the first line is read (later it has no effect, and
/// says so).
pub fn switch_off(names: &[String]) -> Result<(), String> {
    let rules = names
        .iter()
        .map(|n| Rule::named(n).ok_or_else(|| format!("no rule called {n:?}; the rules: {}", known())))
        .collect::<Result<Vec<_>, _>>()?;
    OFF.set(rules).map_err(|_| "the rules were already in use; switch them off first".to_string())
}

/// Every rule's name, comma-separated.
pub fn known() -> String {
    Rule::ALL.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
}

/// Is `rule` in use (not switched off)?
pub fn on(rule: Rule) -> bool {
    !OFF.get_or_init(Vec::new).contains(&rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_name_that_finds_it() {
        for rule in Rule::ALL {
            assert_eq!(Rule::named(&rule.name()), Some(rule));
        }
        assert_eq!(Rule::HowTo.name(), "how-to");
        assert!(switch_off(&["no-such-rule".into()]).unwrap_err().contains("known-core"));
    }
}
