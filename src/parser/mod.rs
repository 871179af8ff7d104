//! The semantic parser: chat text → [`LogicalForm`] with a confidence.
//!
//! [`NeuralParser`] is a small transformer encoder–decoder ([`model`]) that writes the form as
//! structural tokens ([`linearize`]) under a grammar read from the training forms ([`grammar`]),
//! with spans chosen by word pointers, so it can copy words it never saw. Every result is checked
//! with the strict [`LogicalForm`] parse and [`validate`](crate::logical_form::validate); if that
//! fails the answer is NOOP with confidence 0 — parsing never fails and never panics.
//!
//! The trained model ships inside the binary ([`NeuralParser::shipped`]); `--model DIR` loads
//! another one saved by `craftmate train` ([`NeuralParser::load_dir`]).

pub mod decode;
pub mod error;
pub mod fused;
pub mod grammar;
pub mod layers;
pub mod linearize;
pub mod model;
pub mod pretrained;
pub mod vocab;

use std::path::{Path, PathBuf};

use candle_core::{Device, Tensor};
use candle_nn::VarBuilder;
use serde::{Deserialize, Serialize};

pub use error::{ParserError, Result};
use grammar::Grammar;
use model::{Config, Encoded, Seq2Seq};
use pretrained::WordFeatures;
use vocab::{OutVocab, TRIGRAMS_PER_WORD, WordVocab};

use crate::logical_form::{self, DialogueType, LogicalForm};

/// A parse: the logical form and how sure the parser is (0–1: the probability the model gives to
/// every choice in the form that changes what the bot does, so long or unusual forms score lower),
/// with those choices (empty for parses that did not come from the network).
#[derive(Debug, Clone)]
pub struct Parsed {
    pub lf: LogicalForm,
    pub confidence: f32,
    pub choices: Vec<decode::Choice>,
    /// The annotation style the network wrote the form in, for a network trained with styles
    /// (`style:a0` …; see [`crate::training::trainer::Options::styles`]): no part of the form.
    pub style: Option<String>,
}

/// Anything that turns chat into a logical form.
pub trait Parser {
    /// Parses raw chat (normalised inside). Always returns a form that passes `validate` for the
    /// normalised text.
    fn parse(&self, text: &str) -> Parsed;
}

/// File names inside a model directory.
pub const CONFIG_FILE: &str = "config.json";
pub const TOKENIZER_FILE: &str = "tokenizer.json";
pub const WEIGHTS_FILE: &str = "model.safetensors";
/// The sub-directory holding the pretrained word-features model, for models that use one.
pub const FEATURES_DIR: &str = "features";
/// The sub-directory holding an ensemble's other networks, one directory each (config, tokenizer,
/// weights; the features model is shared), read in name order. A partner trained with features
/// of its own (tuned, `train --tune-features`) has a `features/` holding only the weights file of
/// the tensors that differ from the first network's features model.
pub const PARTNERS_DIR: &str = "partners";

/// What `config.json` holds besides the weights: network sizes, output tokens and the grammar.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelMeta {
    pub model: Config,
    pub out_tokens: Vec<String>,
    pub grammar: Grammar,
}

/// Another network that decodes alongside the parser's own (see [`decode::Ensemble`]): trained
/// apart, so it has its own word vocabulary, but with the same output tokens and grammar.
pub struct Partner {
    pub net: Seq2Seq,
    pub words: WordVocab,
    /// Its own word features, when they differ from the first network's (each network tuned its
    /// own); `None` reads the first network's.
    pub features: Option<WordFeatures>,
}

/// The neural parser: network, vocabularies and grammar.
pub struct NeuralParser {
    pub net: Seq2Seq,
    pub words: WordVocab,
    /// Networks that vote with `net` at every decoding step (none for a single model).
    pub partners: Vec<Partner>,
    pub out: OutVocab,
    pub grammar: Grammar,
    /// The frozen pretrained word features, when the network was trained with them.
    pub features: Option<WordFeatures>,
    pub device: Device,
    /// Beam width for decoding (1 = greedy).
    pub beam_width: usize,
    /// For a network trained with styles: how many of the most probable styles get a beam of
    /// their own (see [`decode::beam_by_style`]); 1 follows the single most probable style.
    pub styles_decoded: usize,
}

/// The directories of an ensemble's other networks in model directory `dir` (`partners/NN/`), in
/// the order they vote; none for a single network.
pub fn partner_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let partners = dir.join(PARTNERS_DIR);
    if !partners.is_dir() {
        return Ok(Vec::new());
    }
    let entries = std::fs::read_dir(&partners).map_err(|source| ParserError::Io { path: partners.clone(), source })?;
    let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
    dirs.sort();
    Ok(dirs)
}

/// One of the shipped ensemble's other networks, embedded like the first.
struct ShippedPartner {
    config: &'static [u8],
    tokenizer: &'static [u8],
    weights: &'static [u8],
    /// `partners/NN/features/model.safetensors` for a network with features of its own (the
    /// tensors that differ from the first network's features model); `None` shares the first's.
    features: Option<&'static [u8]>,
}

/// The shipped ensemble's other networks (`models/parser/partners/NN/`); see
/// `models/parser/CARD.md`. `tests/parser.rs` checks that the embedded model decodes exactly as
/// `models/parser/` loaded from its files does, so a partner left out here, or its features, fails it.
const SHIPPED_PARTNERS: &[ShippedPartner] = &[ShippedPartner {
    config: include_bytes!("../../models/parser/partners/01/config.json"),
    tokenizer: include_bytes!("../../models/parser/partners/01/tokenizer.json"),
    weights: include_bytes!("../../models/parser/partners/01/model.safetensors"),
    features: None,
}];

/// Default beam width. A beam of 2 scored best for the session-13 model (41.3 % vs 40.3 % greedy,
/// 41.2 % for 3 and 4; wider beams rank short forms too high); for the session-15 model (with word
/// features) it is 46.78 % against 46.27 % greedy, and for the shipped two-network ensemble 50.66 %
/// against 50.26 %. Hypotheses are decoded as one batch, so the ensemble's beam costs p50 8.3–9.1 ms
/// on one core against greedy's 6.1–6.9 ms (`craftmate bench parser`). A beam of [`FALLBACK_BEAM`]
/// runs only when the first decoding yields no form that validates.
pub const DEFAULT_BEAM: usize = 2;
/// Beam width tried when the first decoding yields nothing valid.
pub const FALLBACK_BEAM: usize = 4;
/// How many styles a network trained with styles decodes in (see [`NeuralParser::styles_decoded`]),
/// each greedily by default. Session 23's two-network styled ensemble: 49.44 % following the one most
/// probable style, 49.74 % following three (p50 8.8 ms on one core; with a beam of 2 in each, the
/// same 49.74 % at 13.4 ms), 50.15 % following all seven (13.3 ms).
pub const DEFAULT_STYLES: usize = 3;

/// Tensors for a batch of inputs: word ids (B, S), trigram ids (B, S, K), lengths.
pub fn input_tensors(
    words: &WordVocab,
    buckets: usize,
    rows: &[&[String]],
    unk_mask: Option<&dyn Fn() -> bool>,
    device: &Device,
) -> candle_core::Result<(Tensor, Tensor, Vec<usize>)> {
    let s = rows.iter().map(|r| r.len()).max().unwrap_or(1).max(1);
    let mut ids = Vec::with_capacity(rows.len() * s);
    let mut tri = Vec::with_capacity(rows.len() * s * TRIGRAMS_PER_WORD);
    for row in rows {
        let encoded = words.encode(row);
        for j in 0..s {
            match row.get(j).zip(encoded.get(j)) {
                Some((word, &id)) => {
                    let drop_word = unk_mask.is_some_and(|f| f());
                    ids.push(if drop_word { words.unk } else { id });
                    tri.extend(vocab::trigrams(word, buckets));
                }
                None => {
                    ids.push(0);
                    tri.extend([0u32; TRIGRAMS_PER_WORD]);
                }
            }
        }
    }
    let b = rows.len();
    Ok((
        Tensor::from_vec(ids, (b, s), device)?,
        Tensor::from_vec(tri, (b, s, TRIGRAMS_PER_WORD), device)?,
        rows.iter().map(|r| r.len()).collect(),
    ))
}

impl NeuralParser {
    /// Builds a parser from the three model files' contents and, for a network trained with
    /// pretrained word features, the features model (an error if it is missing or the wrong size).
    pub fn from_bytes(
        config: &[u8],
        tokenizer: &[u8],
        weights: Vec<u8>,
        features: Option<WordFeatures>,
        device: Device,
    ) -> Result<Self> {
        let meta: ModelMeta = serde_json::from_slice(config)?;
        let wanted = meta.model.word_features;
        let features = match (wanted, features) {
            (0, _) => None,
            (n, Some(f)) if f.dim == n => Some(f),
            (n, f) => {
                return Err(ParserError::Data(format!(
                    "the network needs {n}-long pretrained word features, {}",
                    f.map_or("none were given".to_string(), |f| format!("the features model gives {}", f.dim))
                )));
            }
        };
        let vb = VarBuilder::from_buffered_safetensors(weights, model::DTYPE, &device)?;
        let mut net = Seq2Seq::load(meta.model, vb)?;
        net.freeze()?;
        // A network trained with styles decodes greedily in each of its most probable styles:
        // as accurate as a beam of 2 in each, at the cost of one beam of DEFAULT_STYLES.
        let beam_width = if meta.grammar.styles.is_empty() { DEFAULT_BEAM } else { 1 };
        Ok(NeuralParser {
            net,
            words: WordVocab::from_bytes(tokenizer)?,
            partners: Vec::new(),
            out: OutVocab::new(meta.out_tokens),
            grammar: meta.grammar,
            features,
            device,
            beam_width,
            styles_decoded: DEFAULT_STYLES,
        })
    }

    /// Adds a network that decodes alongside this one (an ensemble member) from its three model
    /// files' contents and, when it reads word features of its own, those; an error unless it
    /// writes the same output tokens and reads word features of the same length. This parser's
    /// grammar constrains what they decode together.
    pub fn add_partner(
        &mut self,
        config: &[u8],
        tokenizer: &[u8],
        weights: Vec<u8>,
        features: Option<WordFeatures>,
    ) -> Result<()> {
        let meta: ModelMeta = serde_json::from_slice(config)?;
        if meta.out_tokens != self.out.tokens {
            return Err(ParserError::Data(
                "an ensemble member must have the same output tokens as the first network".into(),
            ));
        }
        let own_dim = features.as_ref().map(|f| f.dim);
        if meta.model.word_features != self.net.cfg.word_features
            || own_dim.is_some_and(|d| d != meta.model.word_features)
            || meta.model.max_tokens != self.net.cfg.max_tokens
        {
            return Err(ParserError::Data(
                "an ensemble member must read word features of the same length and write forms of the same length"
                    .into(),
            ));
        }
        let vb = VarBuilder::from_buffered_safetensors(weights, model::DTYPE, &self.device)?;
        let mut net = Seq2Seq::load(meta.model, vb)?;
        net.freeze()?;
        self.partners.push(Partner { net, words: WordVocab::from_bytes(tokenizer)?, features });
        Ok(())
    }

    /// Loads a model directory written by `craftmate train` (with its `features/` sub-directory
    /// when the network uses pretrained word features, and the networks in `partners/` when it is
    /// an ensemble).
    pub fn load_dir(dir: &Path) -> Result<Self> {
        let read = |path: PathBuf| std::fs::read(&path).map_err(|source| ParserError::Io { path, source });
        let config = read(dir.join(CONFIG_FILE))?;
        let meta: ModelMeta = serde_json::from_slice(&config)?;
        let device = model::default_device();
        // The features model's three files, read once: the first network's features, and the
        // base of every partner's own.
        let base = match meta.model.word_features {
            0 => None,
            _ => {
                let files = dir.join(FEATURES_DIR);
                let [config, tokenizer, weights] =
                    [pretrained::CONFIG_FILE, pretrained::TOKENIZER_FILE, pretrained::WEIGHTS_FILE];
                Some([read(files.join(config))?, read(files.join(tokenizer))?, read(files.join(weights))?])
            }
        };
        let features = base.as_ref().map(|[c, t, w]| WordFeatures::from_bytes(c, t, w, &device)).transpose()?;
        let mut parser = Self::from_bytes(
            &config,
            &read(dir.join(TOKENIZER_FILE))?,
            read(dir.join(WEIGHTS_FILE))?,
            features,
            device.clone(),
        )?;
        for d in partner_dirs(dir)? {
            // Its own features: the first network's features model with the partner's tensors.
            let changed = d.join(FEATURES_DIR).join(pretrained::WEIGHTS_FILE);
            let features = match &base {
                Some([c, t, w]) if changed.is_file() => {
                    Some(WordFeatures::from_bytes_changed(c, t, w, &read(changed)?, &device)?)
                }
                _ => None,
            };
            parser.add_partner(
                &read(d.join(CONFIG_FILE))?,
                &read(d.join(TOKENIZER_FILE))?,
                read(d.join(WEIGHTS_FILE))?,
                features,
            )?;
        }
        Ok(parser)
    }

    /// The model shipped inside the binary, with its pretrained word-features model (3 BERT layers,
    /// pruned and int8; see `models/parser/CARD.md`), which is built only when the network was
    /// trained with it, and the other networks of its ensemble.
    pub fn shipped() -> Result<Self> {
        const CONFIG: &[u8] = include_bytes!("../../models/parser/config.json");
        let meta: ModelMeta = serde_json::from_slice(CONFIG)?;
        let device = model::default_device();
        const FEATURES: [&[u8]; 3] = [
            include_bytes!("../../models/parser/features/config.json"),
            include_bytes!("../../models/parser/features/tokenizer.json"),
            include_bytes!("../../models/parser/features/model.safetensors"),
        ];
        let features = match meta.model.word_features {
            0 => None,
            _ => Some(WordFeatures::from_bytes(FEATURES[0], FEATURES[1], FEATURES[2], &device)?),
        };
        let mut parser = Self::from_bytes(
            CONFIG,
            include_bytes!("../../models/parser/tokenizer.json"),
            include_bytes!("../../models/parser/model.safetensors").to_vec(),
            features,
            device.clone(),
        )?;
        for partner in SHIPPED_PARTNERS {
            let features = partner
                .features
                .map(|changed| {
                    WordFeatures::from_bytes_changed(FEATURES[0], FEATURES[1], FEATURES[2], changed, &device)
                })
                .transpose()?;
            parser.add_partner(partner.config, partner.tokenizer, partner.weights.to_vec(), features)?;
        }
        Ok(parser)
    }

    /// Every network, the parser's own first, with its word vocabulary and its own word features
    /// (`None`: the first network's).
    fn members(&self) -> impl Iterator<Item = (&Seq2Seq, &WordVocab, Option<&WordFeatures>)> {
        std::iter::once((&self.net, &self.words, None))
            .chain(self.partners.iter().map(|p| (&p.net, &p.words, p.features.as_ref())))
    }

    /// Encodes normalised words (at least one; cut to the model's limit) for each network, the
    /// parser's own first; the first network's pretrained word features are computed once for
    /// all the networks that share them.
    pub fn encode(&self, words: &[String]) -> Result<Vec<Encoded>> {
        let words = &words[..words.len().min(self.net.cfg.max_words)];
        let shared = self.features.as_ref().map(|f| f.features(&[words])).transpose()?;
        self.members()
            .map(|(net, vocab, own)| {
                let (ids, tri, lengths) = input_tensors(vocab, net.cfg.trigram_buckets, &[words], None, &self.device)?;
                let own = own.map(|f| f.features(&[words])).transpose()?;
                Ok(net.encode(&ids, &tri, &lengths, own.as_ref().or(shared.as_ref()), None)?)
            })
            .collect()
    }

    /// Every network with its encoding of one input (from [`NeuralParser::encode`]), ready to decode.
    pub fn ensemble<'a>(&'a self, encodings: &'a [Encoded]) -> decode::Ensemble<'a> {
        decode::Ensemble::new(self.members().map(|(net, _, _)| net).zip(encodings).collect())
    }

    /// Decodes in the annotation style `style` only (`style:a0`, …), for a network trained with
    /// styles: the benchmark can then score each style on its own batch of rows, and a user can
    /// choose the conventions forms are written in (the first batches wrote the most text spans).
    pub fn keep_style(&mut self, style: &str) -> Result<()> {
        if !self.grammar.styles.contains(style) {
            let known: Vec<&str> = self.grammar.styles.iter().map(String::as_str).collect();
            return Err(ParserError::Data(if known.is_empty() {
                format!("this model was trained without styles, so it has no {style}")
            } else {
                format!("no style {style}; this model knows {}", known.join(", "))
            }));
        }
        self.grammar.styles.retain(|s| s == style);
        Ok(())
    }

    /// The full pipeline on normalised words; `None` when no valid form came out.
    fn try_parse(&self, words: &[String]) -> Option<Parsed> {
        let n = words.len().min(self.net.cfg.max_words);
        let encodings = self.encode(words).ok()?;
        let nets = self.ensemble(&encodings);
        let text = words.join(" ");
        // The most probable sequence that survives the strict parse and validation wins.
        let first_valid = |finished: Vec<decode::Decoded>| {
            finished.into_iter().find_map(|decoded| {
                let value = linearize::delinearize(&decoded.tokens, &decoded.spans)?;
                let lf = LogicalForm::from_json_value(&value).ok()?;
                logical_form::validate(&text, &lf).ok()?;
                let confidence = decoded.choices.iter().map(|c| c.log_prob).sum::<f32>().exp();
                let style = decoded.tokens.first().filter(|t| linearize::is_style(t)).cloned();
                Some(Parsed { lf, confidence, choices: decoded.choices, style })
            })
        };
        let by_style = self.styles_decoded > 1 && !self.grammar.styles.is_empty();
        let first = if self.beam_width <= 1 && !by_style {
            decode::greedy(&nets, &self.out, &self.grammar, n).ok()?.into_iter().collect()
        } else {
            let (width, styles) = (self.beam_width.max(1), self.styles_decoded);
            decode::beam_by_style(&nets, &self.out, &self.grammar, n, width, styles).ok()?
        };
        if let Some(parsed) = first_valid(first) {
            return Some(parsed);
        }
        // Nothing valid: a wider beam before giving up (NOOP, confidence 0).
        if self.beam_width >= FALLBACK_BEAM {
            return None;
        }
        first_valid(decode::beam(&nets, &self.out, &self.grammar, n, FALLBACK_BEAM).ok()?)
    }
}

impl Parser for NeuralParser {
    fn parse(&self, text: &str) -> Parsed {
        let words = logical_form::tokenize(text);
        if words.is_empty() {
            return Parsed {
                lf: LogicalForm::new(DialogueType::Noop),
                confidence: 1.0,
                choices: Vec::new(),
                style: None,
            };
        }
        self.try_parse(&words).unwrap_or_else(|| {
            tracing::debug!(text, "no valid parse; falling back to NOOP");
            Parsed { lf: LogicalForm::new(DialogueType::Noop), confidence: 0.0, choices: Vec::new(), style: None }
        })
    }
}
