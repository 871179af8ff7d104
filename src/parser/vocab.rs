//! Input and output vocabularies.
//!
//! Input words go through a `tokenizers` word-level tokenizer (one id per data word, so encoder
//! positions *are* word indices and span pointers need no subword mapping), plus hashed character
//! trigrams per word, so unseen words ("zigurat", "-157") still get a meaningful vector.
//! Output tokens are the structural tokens of [`linearize`](super::linearize).

use std::collections::HashMap;

use tokenizers::Tokenizer;
use tokenizers::models::wordlevel::WordLevel;
use tokenizers::pre_tokenizers::whitespace::WhitespaceSplit;

use super::error::{ParserError, Result};
use super::linearize::{BOS, EOS, PAD};

pub const UNK: &str = "[UNK]";
pub const WORD_PAD: &str = "[PAD]";
/// Trigram bucket 0 is padding; real trigrams hash into 1..n_buckets.
pub const TRIGRAMS_PER_WORD: usize = 12;

/// Words → ids through a `tokenizers` word-level model.
pub struct WordVocab {
    tokenizer: Tokenizer,
    pub size: usize,
    pub unk: u32,
}

impl WordVocab {
    /// Builds the vocabulary from word counts, keeping words seen at least `min_count` times.
    pub fn build(counts: &HashMap<String, usize>, min_count: usize) -> Result<Self> {
        let mut words: Vec<&String> = counts.iter().filter(|(_, c)| **c >= min_count).map(|(w, _)| w).collect();
        words.sort();
        let mut vocab: Vec<(String, u32)> = vec![(WORD_PAD.into(), 0), (UNK.into(), 1)];
        vocab.extend(words.into_iter().enumerate().map(|(i, w)| (w.clone(), i as u32 + 2)));
        let model = WordLevel::builder()
            .vocab(vocab.into_iter().collect())
            .unk_token(UNK.into())
            .build()
            .map_err(|e| ParserError::Tokenizer(e.to_string()))?;
        let mut tokenizer = Tokenizer::new(model);
        tokenizer.with_pre_tokenizer(Some(WhitespaceSplit));
        Self::from_tokenizer(tokenizer)
    }

    /// Loads a saved `tokenizer.json`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let tokenizer = Tokenizer::from_bytes(bytes).map_err(|e| ParserError::Tokenizer(e.to_string()))?;
        Self::from_tokenizer(tokenizer)
    }

    fn from_tokenizer(tokenizer: Tokenizer) -> Result<Self> {
        let size = tokenizer.get_vocab_size(true);
        let unk = tokenizer.token_to_id(UNK).ok_or_else(|| ParserError::Tokenizer("no [UNK] token".into()))?;
        Ok(WordVocab { tokenizer, size, unk })
    }

    /// Every word in the vocabulary (the padding and unknown markers left out).
    pub fn words(&self) -> Vec<String> {
        self.tokenizer.get_vocab(true).into_keys().filter(|w| w != UNK && w != WORD_PAD).collect()
    }

    /// The tokenizer as JSON text, for saving.
    pub fn to_json(&self) -> Result<String> {
        self.tokenizer.to_string(false).map_err(|e| ParserError::Tokenizer(e.to_string()))
    }

    /// Ids of already-normalized words (one id per word).
    pub fn encode(&self, words: &[String]) -> Vec<u32> {
        // The pre-tokenizer splits on whitespace exactly like the data, so ids line up with words;
        // a per-word lookup keeps that guarantee even for odd input.
        words.iter().map(|w| self.tokenizer.token_to_id(w).unwrap_or(self.unk)).collect()
    }
}

/// Hashed character trigrams of a word with boundary marks, `TRIGRAMS_PER_WORD` buckets (0-padded).
pub fn trigrams(word: &str, n_buckets: usize) -> [u32; TRIGRAMS_PER_WORD] {
    let chars: Vec<char> = std::iter::once('<').chain(word.chars()).chain(std::iter::once('>')).collect();
    let mut out = [0u32; TRIGRAMS_PER_WORD];
    for (slot, window) in out.iter_mut().zip(chars.windows(3)) {
        // FNV-1a: stable across platforms and releases, unlike the std hasher.
        let mut h: u32 = 0x811c_9dc5;
        for c in window {
            for b in (*c as u32).to_le_bytes() {
                h = (h ^ b as u32).wrapping_mul(0x0100_0193);
            }
        }
        *slot = 1 + h % (n_buckets as u32 - 1);
    }
    out
}

/// Output tokens ⇄ ids.
#[derive(Debug, Clone)]
pub struct OutVocab {
    pub tokens: Vec<String>,
    index: HashMap<String, u32>,
}

impl OutVocab {
    pub fn new(mut tokens: Vec<String>) -> Self {
        for special in [EOS, BOS, PAD] {
            if !tokens.iter().any(|t| t == special) {
                tokens.insert(0, special.to_string());
            }
        }
        let index = tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        OutVocab { tokens, index }
    }

    pub fn id(&self, token: &str) -> Option<u32> {
        self.index.get(token).copied()
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
}
