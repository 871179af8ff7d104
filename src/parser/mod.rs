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
}

impl Parsed {
    /// What a line with no words (sure) or with no valid form (confidence 0) parses to.
    pub fn noop(confidence: f32) -> Self {
        Parsed { lf: LogicalForm::new(DialogueType::Noop), confidence, choices: Vec::new() }
    }
}

/// Anything that turns chat into a logical form.
pub trait Parser {
    /// Parses raw chat (normalised inside). Always returns a form that passes `validate` for the
    /// normalised text.
    fn parse(&self, text: &str) -> Parsed;
    /// Parses many lines, each as [`Parser::parse`] would; a parser that can decode several at once
    /// does (validation while training parses hundreds).
    fn parse_batch(&self, texts: &[String]) -> Vec<Parsed> {
        texts.iter().map(|t| self.parse(t)).collect()
    }
    /// The words the parser has learned (its input vocabulary), for correcting typos towards
    /// them; empty when it has none.
    fn vocabulary(&self) -> Vec<String> {
        Vec::new()
    }
}

/// File names inside a model directory.
pub const CONFIG_FILE: &str = "config.json";
pub const TOKENIZER_FILE: &str = "tokenizer.json";
pub const WEIGHTS_FILE: &str = "model.safetensors";
/// The sub-directory holding the pretrained word-features model, for models that use one.
pub const FEATURES_DIR: &str = "features";
/// The sub-directory holding an ensemble's other networks, one directory each (config, tokenizer,
/// weights; the features model is shared), read in name order.
pub const PARTNERS_DIR: &str = "partners";

/// What `config.json` holds besides the weights: network sizes, output tokens and the grammar.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelMeta {
    pub model: Config,
    pub out_tokens: Vec<String>,
    pub grammar: Grammar,
}

/// Another network that decodes alongside the parser's own (see [`decode::Ensemble`]): trained
/// apart, so it has its own word vocabulary, but with the same output tokens, grammar and word
/// features.
pub struct Partner {
    pub net: Seq2Seq,
    pub words: WordVocab,
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
}

/// The shipped ensemble's other networks (`models/parser/partners/NN/`); see
/// `models/parser/CARD.md`. `tests/parser.rs` checks that the embedded model decodes exactly as
/// `models/parser/` loaded from its files does, so a partner left out here fails it.
const SHIPPED_PARTNERS: &[ShippedPartner] = &[ShippedPartner {
    config: include_bytes!("../../models/parser/partners/01/config.json"),
    tokenizer: include_bytes!("../../models/parser/partners/01/tokenizer.json"),
    weights: include_bytes!("../../models/parser/partners/01/model.safetensors"),
}];

/// The shipped pretrained word-features model's three files (`config.json`, `tokenizer.json`,
/// `model.safetensors`): the first three layers of all-MiniLM-L6-v2, pruned and int8.
const SHIPPED_FEATURES: [&[u8]; 3] = [
    include_bytes!("../../models/parser/features/config.json"),
    include_bytes!("../../models/parser/features/tokenizer.json"),
    include_bytes!("../../models/parser/features/model.safetensors"),
];

/// Writes the shipped word-features model into `dir` (created if missing), for training networks
/// that read it without needing the repository's `models/` folder.
pub fn write_shipped_features(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(ParserError::io(dir))?;
    let names = [pretrained::CONFIG_FILE, pretrained::TOKENIZER_FILE, pretrained::WEIGHTS_FILE];
    for (name, bytes) in names.into_iter().zip(SHIPPED_FEATURES) {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(ParserError::io(&path))?;
    }
    Ok(())
}

/// Default beam width: a beam of 2 scores a little above greedy decoding (wider beams rank short
/// forms too high; figures in `models/parser/CARD.md`). Hypotheses are decoded as one batch, so it
/// costs little more than greedy (`craftmate bench parser`). A beam of [`FALLBACK_BEAM`] runs only
/// when the first decoding yields no form that validates.
pub const DEFAULT_BEAM: usize = 2;
/// Beam width tried when the first decoding yields nothing valid.
pub const FALLBACK_BEAM: usize = 4;

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
        Ok(NeuralParser {
            net,
            words: WordVocab::from_bytes(tokenizer)?,
            partners: Vec::new(),
            out: OutVocab::new(meta.out_tokens),
            grammar: meta.grammar,
            features,
            device,
            beam_width: DEFAULT_BEAM,
        })
    }

    /// Adds a network that decodes alongside this one (an ensemble member) from its three model
    /// files' contents; an error unless it writes the same output tokens and reads word features
    /// of the same length. This parser's grammar constrains what they decode together.
    pub fn add_partner(&mut self, config: &[u8], tokenizer: &[u8], weights: Vec<u8>) -> Result<()> {
        let meta: ModelMeta = serde_json::from_slice(config)?;
        if meta.out_tokens != self.out.tokens {
            return Err(ParserError::Data(
                "an ensemble member must have the same output tokens as the first network".into(),
            ));
        }
        if meta.model.word_features != self.net.cfg.word_features || meta.model.max_tokens != self.net.cfg.max_tokens
        {
            return Err(ParserError::Data(
                "an ensemble member must read word features of the same length and write forms of the same length"
                    .into(),
            ));
        }
        let vb = VarBuilder::from_buffered_safetensors(weights, model::DTYPE, &self.device)?;
        let mut net = Seq2Seq::load(meta.model, vb)?;
        net.freeze()?;
        self.partners.push(Partner { net, words: WordVocab::from_bytes(tokenizer)? });
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
        let features = match meta.model.word_features {
            0 => None,
            _ => Some(WordFeatures::load_dir(&dir.join(FEATURES_DIR), &device)?),
        };
        let mut parser = Self::from_bytes(
            &config,
            &read(dir.join(TOKENIZER_FILE))?,
            read(dir.join(WEIGHTS_FILE))?,
            features,
            device.clone(),
        )?;
        for d in partner_dirs(dir)? {
            parser.add_partner(&read(d.join(CONFIG_FILE))?, &read(d.join(TOKENIZER_FILE))?, read(d.join(WEIGHTS_FILE))?)?;
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
        const FEATURES: [&[u8]; 3] = SHIPPED_FEATURES;
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
            parser.add_partner(partner.config, partner.tokenizer, partner.weights.to_vec())?;
        }
        Ok(parser)
    }

    /// Every network, the parser's own first, with its word vocabulary.
    fn members(&self) -> impl Iterator<Item = (&Seq2Seq, &WordVocab)> {
        std::iter::once((&self.net, &self.words)).chain(self.partners.iter().map(|p| (&p.net, &p.words)))
    }

    /// Encodes normalised words (at least one; cut to the model's limit) for each network, the
    /// parser's own first; the pretrained word features are computed once for all the networks.
    pub fn encode(&self, words: &[String]) -> Result<Vec<Encoded>> {
        self.encode_batch(&[words])
    }

    /// [`NeuralParser::encode`] for several inputs at once: row r of each encoding is `rows[r]`,
    /// padded to the longest.
    pub fn encode_batch(&self, rows: &[&[String]]) -> Result<Vec<Encoded>> {
        let limit = self.net.cfg.max_words;
        let rows: Vec<&[String]> = rows.iter().map(|words| &words[..words.len().min(limit)]).collect();
        let shared = self.features.as_ref().map(|f| f.features(&rows)).transpose()?;
        self.members()
            .map(|(net, vocab)| {
                let (ids, tri, lengths) = input_tensors(vocab, net.cfg.trigram_buckets, &rows, None, &self.device)?;
                Ok(net.encode(&ids, &tri, &lengths, shared.as_ref(), None)?)
            })
            .collect()
    }

    /// Every network with its encoding of one input (from [`NeuralParser::encode`]), ready to decode.
    pub fn ensemble<'a>(&'a self, encodings: &'a [Encoded]) -> decode::Ensemble<'a> {
        decode::Ensemble::new(self.members().map(|(net, _)| net).zip(encodings).collect())
    }

    /// The most probable of the `finished` sequences that survives the strict parse and validation
    /// against the normalised `words`.
    fn first_valid(words: &[String], finished: Vec<decode::Decoded>) -> Option<Parsed> {
        let text = words.join(" ");
        finished.into_iter().find_map(|mut decoded| {
            decode::Choice::orders_are_certain(&mut decoded.choices);
            let value = linearize::delinearize(&decoded.tokens, &decoded.spans)?;
            let lf = LogicalForm::from_json_value(&value).ok()?;
            logical_form::validate(&text, &lf).ok()?;
            let confidence = decoded.choices.iter().map(|c| c.log_prob).sum::<f32>().exp();
            Some(Parsed { lf, confidence, choices: decoded.choices })
        })
    }

    /// The full pipeline on normalised words; `None` when no valid form came out.
    fn try_parse(&self, words: &[String]) -> Option<Parsed> {
        let n = words.len().min(self.net.cfg.max_words);
        let encodings = self.encode(words).ok()?;
        let nets = self.ensemble(&encodings);
        let first = if self.beam_width <= 1 {
            decode::greedy(&nets, &self.out, &self.grammar, n).ok()?.into_iter().collect()
        } else {
            decode::beam(&nets, &self.out, &self.grammar, n, self.beam_width).ok()?
        };
        Self::first_valid(words, first).or_else(|| self.wider(words, &nets))
    }

    /// Nothing valid from the first decoding: a wider beam before giving up (NOOP, confidence 0).
    fn wider(&self, words: &[String], nets: &decode::Ensemble) -> Option<Parsed> {
        if self.beam_width >= FALLBACK_BEAM {
            return None;
        }
        let n = words.len().min(self.net.cfg.max_words);
        Self::first_valid(words, decode::beam(nets, &self.out, &self.grammar, n, FALLBACK_BEAM).ok()?)
    }

    /// Greedy parses of many normalised inputs (each non-empty), decoded side by side; an input
    /// with no valid greedy form gets the wider beam alone, as in [`NeuralParser::try_parse`].
    fn try_parse_batch(&self, inputs: &[Vec<String>]) -> Result<Vec<Option<Parsed>>> {
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        let rows: Vec<&[String]> = inputs.iter().map(Vec::as_slice).collect();
        let encodings = self.encode_batch(&rows)?;
        let nets = self.ensemble(&encodings);
        let limit = self.net.cfg.max_words;
        let lengths: Vec<usize> = inputs.iter().map(|w| w.len().min(limit)).collect();
        let decoded = decode::greedy_batch(&nets, &self.out, &self.grammar, &lengths)?;
        Ok(inputs
            .iter()
            .zip(decoded)
            .map(|(words, d)| {
                Self::first_valid(words, d.into_iter().collect()).or_else(|| {
                    let alone = self.encode(words).ok()?;
                    self.wider(words, &self.ensemble(&alone))
                })
            })
            .collect())
    }
}

impl Parser for NeuralParser {
    fn vocabulary(&self) -> Vec<String> {
        self.words.words()
    }

    fn parse(&self, text: &str) -> Parsed {
        let words = logical_form::tokenize(text);
        if words.is_empty() {
            return Parsed::noop(1.0);
        }
        self.try_parse(&words).unwrap_or_else(|| {
            tracing::debug!(text, "no valid parse; falling back to NOOP");
            Parsed::noop(0.0)
        })
    }

    /// Greedy decoding (a beam of 1) runs the lines side by side, a batch at a time; a wider beam
    /// parses them one by one.
    fn parse_batch(&self, texts: &[String]) -> Vec<Parsed> {
        if self.beam_width > 1 {
            return texts.iter().map(|t| self.parse(t)).collect();
        }
        let words: Vec<Vec<String>> = texts.iter().map(|t| logical_form::tokenize(t)).collect();
        let inputs: Vec<Vec<String>> = words.iter().filter(|w| !w.is_empty()).cloned().collect();
        let mut parsed = match self.try_parse_batch(&inputs) {
            Ok(parsed) => parsed.into_iter(),
            Err(e) => {
                tracing::warn!("batched parsing failed ({e}); parsing line by line");
                return texts.iter().map(|t| self.parse(t)).collect();
            }
        };
        let mut next = || parsed.next().flatten().unwrap_or_else(|| Parsed::noop(0.0));
        words.iter().map(|w| if w.is_empty() { Parsed::noop(1.0) } else { next() }).collect()
    }
}
