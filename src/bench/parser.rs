//! Parser speed, split into its stages: the pretrained word features (when the model has them),
//! the whole encoder (every network's, for an ensemble), and a full parse with greedy and with the
//! default beam decoding. Measured on a fixed set of everyday commands of every length, so runs
//! are comparable and need no data files.
//! Run with one thread (the CLI sets `RAYON_NUM_THREADS=1`): the latency target is for one core.

use std::time::Instant;

use super::Figure;
use crate::logical_form;
use crate::parser::{NeuralParser, Parser};

/// Commands of every length and kind, from two words to a long run-on.
// lexicon: chat lines a benchmark parses (test data), not word knowledge.
const LINES: &[&str] = &[
    "come here",
    "stop",
    "undo that",
    "build a red cube",
    "destroy that",
    "dig a hole",
    "follow me",
    "what are you doing",
    "spawn a pig",
    "where is the house",
    "build a tower here",
    "go to the blue house",
    "make a big stone wall",
    "fill that hole with sand",
    "dance 3 times",
    "turn left",
    "this is a castle",
    "how many red cubes are there",
    "dig a hole until you hit stone",
    "build a wooden wall 8 long and 4 high at 0 5 10",
    "move to the left of the tower",
    "build a small pyramid next to the big tree",
    "destroy every cube to my right",
    "go between the house and the tower",
    "please build a large glass dome on top of the hill over there",
    "can you make me a little house out of oak planks near the lake",
    "copy the tower you just built and put it behind me",
    "dig a 5 by 5 hole in front of you then fill it with water",
    "i want you to build a huge castle with four towers and a big gate right here next to me",
    "hey bot can you please go over to that red building and destroy the roof then come back to me",
];

/// Runs every line (by index into [`LINES`]) `rounds` times through `f`; returns (p50, p99) in
/// milliseconds.
fn time(rounds: usize, mut f: impl FnMut(usize)) -> (f64, f64) {
    for i in 0..LINES.len() {
        f(i); // warm-up
    }
    let mut ms: Vec<f64> = Vec::with_capacity(LINES.len() * rounds);
    for _ in 0..rounds {
        for i in 0..LINES.len() {
            let t0 = Instant::now();
            f(i);
            ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        }
    }
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// Figures for `parser` (its beam width is the "default" one measured).
pub fn run(parser: &mut NeuralParser, rounds: usize) -> Vec<Figure> {
    let mut figures = Vec::new();
    let words: Vec<Vec<String>> = LINES.iter().map(|l| logical_form::tokenize(l)).collect();
    if let Some(features) = &parser.features {
        let (p50, p99) = time(rounds, |i| {
            let _ = features.features(&[&words[i]]);
        });
        figures.push(Figure::new("word_features_p50_ms", p50, "ms"));
        figures.push(Figure::new("word_features_p99_ms", p99, "ms"));
    }
    let (p50, p99) = time(rounds, |i| {
        let _ = parser.encode(&words[i]);
    });
    figures.push(Figure::new("encode_p50_ms", p50, "ms"));
    figures.push(Figure::new("encode_p99_ms", p99, "ms"));
    let default_beam = parser.beam_width;
    for (name, width) in [("greedy", 1), ("default_beam", default_beam)] {
        parser.beam_width = width;
        let (p50, p99) = time(rounds, |i| {
            let _ = parser.parse(LINES[i]);
        });
        figures.push(Figure::new(format!("parse_{name}_p50_ms"), p50, "ms"));
        figures.push(Figure::new(format!("parse_{name}_p99_ms"), p99, "ms"));
    }
    parser.beam_width = default_beam;
    figures.push(Figure::new("default_beam_width", default_beam as f64, ""));
    // Each network of an ensemble adds an encoder and a decoder to every parse.
    figures.push(Figure::new("networks", (1 + parser.partners.len()) as f64, ""));
    figures
}
