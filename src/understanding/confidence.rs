//! How sure understanding is of a parse once some of it was read from the words: the parser's
//! confidence is the product of its choices, and the choices about what the words settled
//! (measures, the place, a ranking) no longer count against it.

/// What step 4 read from the words rather than took from the parser, so the parser's
/// confidence about it no longer counts.
#[derive(Debug, Default)]
pub(super) struct FromWords {
    /// The words of the measures.
    pub measured: Vec<usize>,
    /// The place.
    pub located: bool,
    /// A ranking ("the closest", "the tallest").
    pub ranked: bool,
    /// A build's one colour or material, whichever the form calls it ([`super::details::said_plainly`]).
    pub described: bool,
    /// The words of things described as one run ("the yellow cube"): where the parser put the
    /// name's first word ([`super::details::described_things`]).
    pub named: Vec<usize>,
    /// The words of a count of things to build ("*4* pillars"): how the form writes a count
    /// (its selector) was settled by them.
    pub counted: Vec<usize>,
    /// A mob named as what is made ("make 3 pigs"): the action is a spawn whatever the verb, so
    /// the parser's doubt between building and spawning it no longer counts.
    pub spawned: bool,
    /// A building verb and a block that is no mob, as what is built ("place a gold block"): the
    /// parser's doubt whether to do something else with it no longer counts.
    pub block_built: bool,
    /// The words of a colour or material the parser left out or read into a measure, written
    /// into the form from the words ([`super::details::repair`]): where it ended the thing's
    /// triples, or spanned those words, the words settled it.
    pub detailed: Vec<usize>,
    /// The words asking for the most recent thing ("the *last* tower",
    /// [`super::latest::words`]): whether the form holds them as a tag or a selector,
    /// and in how many triples, was settled by them.
    pub latest: Vec<usize>,
    /// Every thing the form leaves without a where clause is one pointing word ("fill *it*
    /// with gravel"): there were no words to write one from, so ending its filters is no doubt.
    pub pointed: bool,
}

impl FromWords {
    pub fn any(&self) -> bool {
        !self.measured.is_empty() || self.located || self.ranked || self.described || !self.named.is_empty() || !self.counted.is_empty() || self.spawned || self.block_built || !self.detailed.is_empty() || !self.latest.is_empty() || self.pointed
    }
}

/// Is the choice a span over only these words?
fn over(c: &crate::parser::decode::Choice, words: &[usize]) -> bool {
    c.words.is_some_and(|(a, b)| (a..=b).all(|k| words.contains(&k)))
}

/// The parser's confidence without its choices about measures, once the measures were read
/// from the words instead: the measure predicates, spans over measured words, and the brackets
/// that decided how many triples there are.
pub(super) fn confidence_without(choices: &[crate::parser::decode::Choice], read: &FromWords) -> f32 {
    use crate::parser::decode::About;
    // The predicate the parser gave a span over measured words goes with the span: a triple is
    // decoded as its predicate, then its span's words.
    // So does a predicate over a count's words ("a *pair* of spheres" as a tag), which the
    // count rule cuts from the form.
    let paired = |i: usize, words: &[usize]| {
        choices[i].token.starts_with("v:has_") && choices[i + 1..].iter().find(|o| o.words.is_some()).is_some_and(|o| over(o, words))
    };
    // A measure's span that ran into a colour or material the words gave its own triple.
    let measured: Vec<usize> = read.measured.iter().chain(&read.detailed).copied().collect();
    let with_span: Vec<bool> = (0..choices.len()).map(|i| paired(i, &measured) || paired(i, &read.counted) || paired(i, &read.latest)).collect();
    let log: f32 = choices
        .iter()
        .zip(with_span)
        .filter(|(_, paired)| !paired)
        .map(|(c, _)| c)
        // Measures were read from the words whenever anything was but a plain colour or material.
        .filter(|c| c.about() != About::Measure || !(read.located || read.ranked || !read.measured.is_empty()))
        // When the location or a ranking was read from the words too, the parser's choices about
        // it go as well.
        .filter(|c| !(read.located && (c.about() == About::Location || c.rival_places())))
        .filter(|c| !(read.ranked && c.about() == About::Ranking))
        .filter(|c| !(read.described && matches!(c.token.as_str(), "v:has_colour" | "v:has_block_type")))
        .filter(|c| !over(c, &measured))
        .filter(|c| read.detailed.is_empty() || !c.another_triple())
        .filter(|c| c.words.is_none_or(|(a, b)| !(a..=b).all(|k| read.named.contains(&k))))
        // With the count read, whether the thing has one more triple was a doubt about the
        // count's words ("a pair of glass towers": "pair" as a tag or not).
        .filter(|c| read.counted.is_empty() || !c.counts() && !c.another_triple() && !over(c, &read.counted))
        .filter(|c| read.latest.is_empty() || !(over(c, &read.latest) || c.another_triple() || c.filters_or_selector()))
        .filter(|c| !(read.pointed && c.ends_filters()))
        .filter(|c| !(read.spawned && c.spawns()))
        .filter(|c| !(read.block_built && c.builds_over_another_action()))
        .map(|c| c.log_prob)
        .sum();
    log.exp()
}
