//! Pretrained word features: a small frozen BERT (all-MiniLM-L6-v2, Apache-2.0) reads the chat and
//! gives every data-style word a contextual vector — the mean of its word pieces' last hidden
//! states — which the parser's encoder adds to its own word vectors through a learned projection.
//!
//! Why: 9,000 annotated commands cannot teach that "construct" is like "build" or that "crimson" is
//! a colour; a model pretrained on a billion sentences already knows. Why frozen: back-propagating
//! through 22 M parameters is out of reach of a 2-core CPU, but computing the features once per
//! training sentence is cheap (under a minute for 16,000 sentences), so training stays as fast.
//!
//! Packed form (made by `craftmate-lab pack-features`): the word-piece vocabulary pruned to the
//! pieces a corpus of chat uses plus every single character (so any word still splits into known
//! pieces), and every matrix stored as int8 with one scale per row (about 4× smaller than f32). At load the matrices become
//! 8-bit blocks again for the products ([`QuantBert`]), which is what makes the features affordable
//! per parse. The shipped parser uses the first three layers (`models/parser/features/`, 10.5 MB,
//! about 3.5 ms a parse on one core); speed and accuracy figures: `models/parser/CARD.md`.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config as BertConfig};
use tokenizers::Tokenizer;

use super::error::{ParserError, Result};
use super::layers::{layer_norm_rows, map_rows, softmax_rows};

/// File names inside a word-features directory (the same names a Hugging Face model folder uses,
/// so [`WordFeatures::load_dir`] also reads the unpacked original).
pub const CONFIG_FILE: &str = "config.json";
pub const TOKENIZER_FILE: &str = "tokenizer.json";
pub const WEIGHTS_FILE: &str = "model.safetensors";

/// Suffixes of an int8 matrix: the values (stored as u8, offset by 128) and one f32 scale per row.
const Q8: &str = ".q8";
const SCALE: &str = ".scale";

/// Longest input in word pieces (the tokenizer truncates; words past it get zero features).
const MAX_PIECES: usize = 128;

/// The frozen BERT and its tokenizer.
pub struct WordFeatures {
    bert: QuantBert,
    tokenizer: Tokenizer,
    /// Length of each word's feature vector (the BERT's hidden size).
    pub dim: usize,
    device: Device,
}

fn tokenizer_error(e: impl std::fmt::Display) -> ParserError {
    ParserError::Tokenizer(e.to_string())
}

/// The word-piece tokenizer from its file, set up for chat: rows are padded by us (the original
/// file pads every input to 128 pieces) and cut at [`MAX_PIECES`].
fn chat_tokenizer(bytes: &[u8]) -> Result<Tokenizer> {
    let mut tokenizer = Tokenizer::from_bytes(bytes).map_err(tokenizer_error)?;
    tokenizer.with_padding(None);
    tokenizer
        .with_truncation(Some(tokenizers::TruncationParams { max_length: MAX_PIECES, ..Default::default() }))
        .map_err(tokenizer_error)?;
    Ok(tokenizer)
}

impl WordFeatures {
    /// Builds the features model from the three files' contents; the weights may be plain
    /// (f32/f16) or packed (int8 rows with scales).
    pub fn from_bytes(config: &[u8], tokenizer: &[u8], weights: &[u8], device: &Device) -> Result<Self> {
        Unpacked::from_bytes(config.to_vec(), tokenizer.to_vec(), weights, device)?.word_features(device)
    }

    /// Loads a directory holding `config.json`, `tokenizer.json` and `model.safetensors`.
    pub fn load_dir(dir: &Path, device: &Device) -> Result<Self> {
        Unpacked::load_dir(dir, device)?.word_features(device)
    }

    /// Features of a batch of word rows: (B, S, dim) with S the longest row; padding positions and
    /// words that produced no word piece are zero.
    pub fn features(&self, rows: &[&[String]]) -> Result<Tensor> {
        let pieces = self.pieces(rows)?;
        let hidden = self.bert.forward(&pieces.ids, &pieces.attention)?;
        Ok(pieces.pool.matmul(&hidden)?)
    }

    /// The word pieces of a batch of word rows, padded, with the matrix that pools them back into
    /// words: what the BERT reads.
    pub fn pieces(&self, rows: &[&[String]]) -> Result<Pieces> {
        let s = rows.iter().map(|r| r.len()).max().unwrap_or(1).max(1);
        let encodings = rows
            .iter()
            .map(|row| {
                let words: Vec<&str> = row.iter().map(String::as_str).collect();
                self.tokenizer.encode(words, true).map_err(tokenizer_error)
            })
            .collect::<Result<Vec<_>>>()?;
        let p = encodings.iter().map(|e| e.get_ids().len()).max().unwrap_or(1).max(1);
        let b = rows.len();
        let mut ids = vec![0u32; b * p];
        let mut attention = vec![0u32; b * p];
        // Pooling matrix (B, S, P): row j averages the pieces of word j.
        let mut pool = vec![0f32; b * s * p];
        for (r, enc) in encodings.iter().enumerate() {
            let mut counts = vec![0usize; s];
            for (i, (&id, word)) in enc.get_ids().iter().zip(enc.get_word_ids()).enumerate() {
                ids[r * p + i] = id;
                attention[r * p + i] = 1;
                if let Some(w) = word.map(|w| w as usize).filter(|&w| w < s) {
                    counts[w] += 1;
                    pool[(r * s + w) * p + i] = 1.0;
                }
            }
            for (w, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 1) {
                for v in &mut pool[(r * s + w) * p..(r * s + w + 1) * p] {
                    *v /= n as f32;
                }
            }
        }
        Ok(Pieces {
            ids: Tensor::from_vec(ids, (b, p), &self.device)?,
            attention: Tensor::from_vec(attention, (b, p), &self.device)?,
            pool: Tensor::from_vec(pool, (b, s, p), &self.device)?,
        })
    }
}

/// A batch of chat lines as word pieces (see [`WordFeatures::pieces`]).
pub struct Pieces {
    /// Piece ids (B, P), zero-padded.
    pub ids: Tensor,
    /// 1 for a piece, 0 for padding (B, P).
    pub attention: Tensor,
    /// (B, S, P): the hidden states of word j's pieces averaged, as a product.
    pub pool: Tensor,
}

/// A features directory read as plain f32 tensors (packed matrices expanded, names without the
/// `bert.` prefix) with its two other files' contents: the starting point for fine-tuning.
pub struct Unpacked {
    pub config: BertConfig,
    pub config_json: Vec<u8>,
    pub tokenizer_json: Vec<u8>,
    pub tensors: HashMap<String, Tensor>,
}

impl Unpacked {
    /// The three files' contents; the weights may be plain (f32/f16) or packed (int8 rows with
    /// scales).
    pub fn from_bytes(config_json: Vec<u8>, tokenizer_json: Vec<u8>, weights: &[u8], device: &Device) -> Result<Self> {
        Self::from_stored(config_json, tokenizer_json, candle_core::safetensors::load_buffer(weights, device)?)
    }

    /// The same from the weights file's tensors as stored (packed or plain).
    pub fn from_stored(config_json: Vec<u8>, tokenizer_json: Vec<u8>, stored: HashMap<String, Tensor>) -> Result<Self> {
        let tensors = dequantize(stored)?
            .into_iter()
            .map(|(name, t)| (name.strip_prefix("bert.").map(str::to_string).unwrap_or(name), t))
            .collect();
        Ok(Unpacked { config: serde_json::from_slice(&config_json)?, config_json, tokenizer_json, tensors })
    }

    /// Reads a features directory (packed or the original).
    pub fn load_dir(dir: &Path, device: &Device) -> Result<Self> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|source| ParserError::Io { path, source })
        };
        Self::from_bytes(read(CONFIG_FILE)?, read(TOKENIZER_FILE)?, &read(WEIGHTS_FILE)?, device)
    }

    /// The features model these tensors make, with the 8-bit products of parse time.
    pub fn word_features(&self, device: &Device) -> Result<WordFeatures> {
        let tokenizer = chat_tokenizer(&self.tokenizer_json)?;
        let bert = QuantBert::load(&self.tensors, &self.config, true)?;
        Ok(WordFeatures { bert, tokenizer, dim: self.config.hidden_size, device: device.clone() })
    }

    /// Writes the three files, every matrix as int8 rows (the packed form).
    pub fn save_packed(&self, out: &Path) -> Result<()> {
        let mut packed = HashMap::new();
        for (name, tensor) in &self.tensors {
            if tensor.rank() == 2 {
                let (q, scale) = quantize_rows(tensor)?;
                packed.insert(format!("{name}{Q8}"), q);
                packed.insert(format!("{name}{SCALE}"), scale);
            } else {
                packed.insert(name.clone(), tensor.to_dtype(DType::F32)?);
            }
        }
        std::fs::create_dir_all(out).map_err(|source| ParserError::Io { path: out.into(), source })?;
        let write = |name: &str, bytes: &[u8]| {
            let path = out.join(name);
            std::fs::write(&path, bytes).map_err(|source| ParserError::Io { path, source })
        };
        write(CONFIG_FILE, &self.config_json)?;
        write(TOKENIZER_FILE, &self.tokenizer_json)?;
        candle_core::safetensors::save(&packed, out.join(WEIGHTS_FILE))?;
        Ok(())
    }
}

/// A BERT encoder for inference whose big matrices are 8-bit blocks (GGML's Q8_0): with a dozen
/// word pieces per chat line, a float matrix product spends its time reading the weights, and
/// 8-bit weights are read four times faster (`craftmate bench parser`, six layers, one core:
/// 9.7 ms a parse in f32, 5.5 ms in 8 bits, the same 412 of 979 validation parses right).
/// Same computation as the reference BERT (post-norm layers, GELU, absolute positions).
struct QuantBert {
    word: Tensor,
    position: Tensor,
    token_type: Tensor,
    emb_norm: RowNorm,
    layers: Vec<QuantLayer>,
    heads: usize,
}

/// A matrix product with 8-bit weights plus a float bias.
struct QLinear {
    weight: candle_core::quantized::QMatMul,
    bias: Tensor,
}

struct QuantLayer {
    /// The query, key and value projections as one matrix (their rows stacked): one product,
    /// and the input quantized once for it, instead of three.
    qkv: QLinear,
    attn_out: QLinear,
    attn_norm: RowNorm,
    up: QLinear,
    down: QLinear,
    out_norm: RowNorm,
}

/// A layer norm computed row by row ([`layer_norm_rows`]): candle's fused kernel hands every call
/// to the thread pool, which costs more than the arithmetic for a dozen word pieces.
struct RowNorm {
    weight: Vec<f32>,
    bias: Vec<f32>,
    eps: f32,
}

impl RowNorm {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        Ok(layer_norm_rows(x, &self.weight, &self.bias, self.eps)?)
    }
}

/// The error function, to about 1e-7 (Abramowitz and Stegun, formula 7.1.26): the exact GELU
/// that BERT uses, without the slow library `erf`.
fn erf(x: f32) -> f32 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t * (0.254_829_6 + t * (-0.284_496_74 + t * (1.421_413_7 + t * (-1.453_152 + t * 1.061_405_4))));
    (1.0 - poly * (-x * x).exp()).copysign(x)
}

/// GELU, x·Φ(x), element by element.
fn gelu(x: &Tensor) -> Result<Tensor> {
    Ok(map_rows(x, |row, dst| {
        for (o, v) in dst.iter_mut().zip(row) {
            *o = 0.5 * v * (1.0 + erf(v * std::f32::consts::FRAC_1_SQRT_2));
        }
    })?)
}

impl QLinear {
    fn load(t: &HashMap<String, Tensor>, name: &str, quantize: bool) -> Result<Self> {
        Self::load_stacked(t, &[name], quantize)
    }

    /// The products of several linear layers of one input as one: their weights' rows stacked, so
    /// the outputs come side by side in that order. Q8_0 quantizes each row on its own, so each
    /// output is exactly what its own layer gives.
    fn load_stacked(t: &HashMap<String, Tensor>, names: &[&str], quantize: bool) -> Result<Self> {
        use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
        let part = |what: &str| -> Result<Tensor> {
            let parts = names.iter().map(|name| get(t, &format!("{name}.{what}"))).collect::<Result<Vec<_>>>()?;
            Ok(if parts.len() == 1 { parts[0].clone() } else { Tensor::cat(&parts, 0)? })
        };
        let (weight, bias) = (part("weight")?, part("bias")?);
        // Q8_0 needs rows that split into blocks of 32; other shapes stay in f32.
        let weight = if quantize && weight.dim(1)? % 32 == 0 {
            QMatMul::from_qtensor(QTensor::quantize(&weight, GgmlDType::Q8_0)?)?
        } else {
            QMatMul::Tensor(weight)
        };
        Ok(QLinear { weight, bias })
    }

    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        use candle_core::Module;
        Ok(self.weight.forward(x)?.broadcast_add(&self.bias)?)
    }
}

fn get(t: &HashMap<String, Tensor>, name: &str) -> Result<Tensor> {
    t.get(name)
        .or_else(|| t.get(&format!("bert.{name}")))
        .cloned()
        .ok_or_else(|| ParserError::Data(format!("the BERT has no {name}")))
}

fn layer_norm(t: &HashMap<String, Tensor>, name: &str, eps: f64) -> Result<RowNorm> {
    Ok(RowNorm {
        weight: get(t, &format!("{name}.weight"))?.to_vec1()?,
        bias: get(t, &format!("{name}.bias"))?.to_vec1()?,
        eps: eps as f32,
    })
}

impl QuantBert {
    /// The encoder from named tensors; `quantize` false keeps every matrix in f32 (tests).
    fn load(t: &HashMap<String, Tensor>, cfg: &BertConfig, quantize: bool) -> Result<Self> {
        let eps = cfg.layer_norm_eps;
        let layers = (0..cfg.num_hidden_layers)
            .map(|i| {
                let p = format!("encoder.layer.{i}");
                let lin = |n: &str| QLinear::load(t, &format!("{p}.{n}"), quantize);
                Ok(QuantLayer {
                    qkv: QLinear::load_stacked(
                        t,
                        // lexicon: tensor names in a model file.
                        &["query", "key", "value"]
                            .map(|n| format!("{p}.attention.self.{n}"))
                            .each_ref()
                            .map(String::as_str),
                        quantize,
                    )?,
                    attn_out: lin("attention.output.dense")?,
                    attn_norm: layer_norm(t, &format!("{p}.attention.output.LayerNorm"), eps)?,
                    up: lin("intermediate.dense")?,
                    down: lin("output.dense")?,
                    out_norm: layer_norm(t, &format!("{p}.output.LayerNorm"), eps)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(QuantBert {
            word: get(t, "embeddings.word_embeddings.weight")?,
            position: get(t, "embeddings.position_embeddings.weight")?,
            token_type: get(t, "embeddings.token_type_embeddings.weight")?,
            emb_norm: layer_norm(t, "embeddings.LayerNorm", eps)?,
            layers,
            heads: cfg.num_attention_heads,
        })
    }

    /// Last hidden states (B, P, H) of piece ids (B, P) with a 0/1 attention mask (B, P).
    fn forward(&self, ids: &Tensor, attention: &Tensor) -> Result<Tensor> {
        let (b, p) = ids.dims2()?;
        let h = self.word.dim(1)?;
        let dh = h / self.heads;
        let x = self.word.index_select(&ids.flatten_all()?, 0)?.reshape((b, p, h))?;
        let x = x.broadcast_add(&self.position.narrow(0, 0, p)?)?.broadcast_add(&self.token_type.narrow(0, 0, 1)?)?;
        let mut x = self.emb_norm.forward(&x)?;
        // Padding pieces are never attended to.
        let mask = ((attention.to_dtype(DType::F32)? - 1.0)? * 1e9)?.reshape((b, 1, 1, p))?;
        let scale = 1.0 / (dh as f64).sqrt();
        for layer in &self.layers {
            let split =
                |t: Tensor| -> Result<Tensor> { Ok(t.reshape((b, p, self.heads, dh))?.transpose(1, 2)?.contiguous()?) };
            let qkv = layer.qkv.forward(&x)?;
            let q = split(qkv.narrow(2, 0, h)?.contiguous()?)?;
            let k = split(qkv.narrow(2, h, h)?.contiguous()?)?;
            let v = split(qkv.narrow(2, 2 * h, h)?.contiguous()?)?;
            let scores = (q.matmul(&k.t()?)? * scale)?.broadcast_add(&mask)?;
            let probs = softmax_rows(&scores)?;
            let ctx = probs.matmul(&v)?.transpose(1, 2)?.reshape((b, p, h))?;
            x = layer.attn_norm.forward(&(layer.attn_out.forward(&ctx)? + &x)?)?;
            let up = gelu(&layer.up.forward(&x)?)?;
            x = layer.out_norm.forward(&(layer.down.forward(&up)? + &x)?)?;
        }
        Ok(x)
    }
}

/// Turns packed int8 matrices back into f32; other tensors become f32 as they are.
fn dequantize(mut tensors: HashMap<String, Tensor>) -> Result<HashMap<String, Tensor>> {
    let names: Vec<String> = tensors.keys().filter(|n| n.ends_with(Q8)).cloned().collect();
    for name in names {
        let base = &name[..name.len() - Q8.len()];
        let q = tensors.remove(&name).expect("listed above");
        let scale = tensors
            .remove(&format!("{base}{SCALE}"))
            .ok_or_else(|| ParserError::Data(format!("packed matrix {base} has no scales")))?;
        let values = (q.to_dtype(DType::F32)? - 128.0)?;
        let values = values.broadcast_mul(&scale.to_dtype(DType::F32)?.unsqueeze(1)?)?;
        tensors.insert(base.to_string(), values);
    }
    for tensor in tensors.values_mut() {
        if tensor.dtype() != DType::F32 {
            *tensor = tensor.to_dtype(DType::F32)?;
        }
    }
    Ok(tensors)
}

/// One matrix as int8 rows: (values offset by 128 as u8, one scale per row).
fn quantize_rows(matrix: &Tensor) -> Result<(Tensor, Tensor)> {
    let m = matrix.to_dtype(DType::F32)?;
    let (rows, cols) = m.dims2()?;
    let data = m.flatten_all()?.to_vec1::<f32>()?;
    let mut q = Vec::with_capacity(rows * cols);
    let mut scales = Vec::with_capacity(rows);
    for row in data.chunks(cols) {
        let max = row.iter().fold(0f32, |a, v| a.max(v.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        scales.push(scale);
        q.extend(row.iter().map(|v| ((v / scale).round().clamp(-127.0, 127.0) + 128.0) as u8));
    }
    let device = matrix.device();
    Ok((Tensor::from_vec(q, (rows, cols), device)?, Tensor::from_vec(scales, rows, device)?))
}

/// The word pieces of [`write_tiny_bert`]'s vocabulary, in id order.
// lexicon: word pieces of a test model's vocabulary (test data).
pub const TINY_PIECES: &[&str] = &[
    "[PAD]",
    "[unused0]",
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "[MASK]",
    "a",
    "b",
    "c",
    "d",
    "e",
    "r",
    "##a",
    "##b",
    "##c",
    "##d",
    "##e",
    "##r",
    "build",
    "red",
    "cube",
    "##s",
    "tower",
    "zebra",
    "car",
];

/// Writes a randomly initialised two-layer BERT (hidden size 32, the 25 pieces of
/// [`TINY_PIECES`]) as a model folder: a stand-in for MiniLM in tests, and a way to try the
/// features pipeline end to end without downloading anything.
pub fn write_tiny_bert(dir: &Path) -> Result<()> {
    use candle_nn::VarMap;
    use tokenizers::models::wordpiece::WordPiece;
    use tokenizers::normalizers::BertNormalizer;
    use tokenizers::pre_tokenizers::bert::BertPreTokenizer;
    use tokenizers::processors::template::TemplateProcessing;

    let vocab: ahash::AHashMap<String, u32> =
        TINY_PIECES.iter().enumerate().map(|(i, p)| (p.to_string(), i as u32)).collect();
    let model = WordPiece::builder().vocab(vocab).unk_token("[UNK]".into()).build().map_err(tokenizer_error)?;
    let mut tokenizer = Tokenizer::new(model);
    tokenizer.with_normalizer(Some(BertNormalizer::default())).map_err(tokenizer_error)?;
    tokenizer.with_pre_tokenizer(Some(BertPreTokenizer));
    let template = TemplateProcessing::builder()
        .try_single("[CLS] $A [SEP]")
        .map_err(tokenizer_error)?
        .special_tokens(vec![("[CLS]", 3), ("[SEP]", 4)])
        .build()
        .map_err(tokenizer_error)?;
    tokenizer.with_post_processor(Some(template));
    std::fs::create_dir_all(dir).map_err(|source| ParserError::Io { path: dir.into(), source })?;
    tokenizer.save(dir.join(TOKENIZER_FILE), false).map_err(tokenizer_error)?;
    let config = serde_json::json!({
        "vocab_size": TINY_PIECES.len(), "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2,
        "intermediate_size": 64, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
        "max_position_embeddings": 64, "type_vocab_size": 2, "initializer_range": 0.02,
        "layer_norm_eps": 1e-12, "pad_token_id": 0, "model_type": "bert"
    });
    let path = dir.join(CONFIG_FILE);
    std::fs::write(&path, config.to_string()).map_err(|source| ParserError::Io { path, source })?;
    let varmap = VarMap::new();
    let cfg: BertConfig = serde_json::from_value(config)?;
    BertModel::load(VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu), &cfg)?;
    varmap.save(dir.join(WEIGHTS_FILE))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_bert(dir: &Path) {
        write_tiny_bert(dir).unwrap();
    }

    #[test]
    fn the_error_function_matches_its_table_values() {
        // erf at a few points, to ten places (any table of the error function), compared in f64.
        for (x, want) in
            [(0.0, 0.0), (0.1, 0.1124629160f64), (0.5, 0.5204998778), (1.0, 0.8427007929), (2.0, 0.9953222650)]
        {
            assert!((f64::from(erf(x)) - want).abs() < 3e-7, "erf({x}) = {}, not {want}", erf(x));
            assert!((f64::from(erf(-x)) + want).abs() < 3e-7, "erf is odd");
        }
        assert_eq!(erf(10.0), 1.0);
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_8_bit_encoder_computes_what_the_reference_bert_computes() {
        let dir = tempfile::tempdir().unwrap();
        tiny_bert(dir.path());
        let read = |n: &str| std::fs::read(dir.path().join(n)).unwrap();
        let cfg: BertConfig = serde_json::from_slice(&read(CONFIG_FILE)).unwrap();
        let weights = candle_core::safetensors::load_buffer(&read(WEIGHTS_FILE), &Device::Cpu).unwrap();
        let reference =
            BertModel::load(VarBuilder::from_tensors(weights.clone(), DType::F32, &Device::Cpu), &cfg).unwrap();
        // Two rows, the second padded: padding must not change what the real pieces see.
        let ids = Tensor::new(&[[3u32, 18, 6, 19, 20, 4], [3, 22, 4, 0, 0, 0]], &Device::Cpu).unwrap();
        let mask = Tensor::new(&[[1u32, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0]], &Device::Cpu).unwrap();
        let want = reference.forward(&ids, &ids.zeros_like().unwrap(), Some(&mask)).unwrap();
        // Relative RMS error of our encoder's real pieces against the reference's.
        let error = |quantize: bool| {
            let got = QuantBert::load(&weights, &cfg, quantize).unwrap().forward(&ids, &mask).unwrap();
            let rows = [(0, 6), (1, 3)].map(|(r, n)| {
                let pick = |t: &Tensor| t.get(r).unwrap().narrow(0, 0, n).unwrap();
                (pick(&want), pick(&got))
            });
            let sq = |t: &Tensor| t.sqr().unwrap().sum_all().unwrap().to_scalar::<f32>().unwrap();
            let diff: f32 = rows.iter().map(|(w, g)| sq(&(w - g).unwrap())).sum();
            let size: f32 = rows.iter().map(|(w, _)| sq(w)).sum();
            (diff / size).sqrt()
        };
        // Same architecture: in f32 the two agree to rounding.
        let exact = error(false);
        assert!(exact < 1e-4, "f32 encoder differs from the reference by {exact}");
        // 8-bit weights and activations: a few percent.
        let q8 = error(true);
        assert!(q8 < 0.05, "8-bit encoder differs from the reference by {q8}");
    }

    #[test]
    fn int8_rows_come_back_within_half_a_step() {
        let m = Tensor::new(&[[0.5f32, -1.0, 0.25], [0.0, 0.0, 0.0], [3.0, 2.0, -0.001]], &Device::Cpu).unwrap();
        let (q, scale) = quantize_rows(&m).unwrap();
        let back = dequantize(HashMap::from([("w.q8".to_string(), q), ("w.scale".to_string(), scale.clone())]))
            .unwrap()
            .remove("w")
            .unwrap();
        let err = (back - &m).unwrap().abs().unwrap().to_vec2::<f32>().unwrap();
        let scale = scale.to_vec1::<f32>().unwrap();
        for (row, s) in err.iter().zip(&scale) {
            assert!(row.iter().all(|e| *e <= s / 2.0 + 1e-7), "{row:?} vs step {s}");
        }
    }

    #[test]
    fn a_word_gets_the_mean_of_its_pieces_and_padding_gets_zeros() {
        let dir = tempfile::tempdir().unwrap();
        tiny_bert(dir.path());
        let f = WordFeatures::load_dir(dir.path(), &Device::Cpu).unwrap();
        let (short, long) = (words("build cars"), words("build a red cube"));
        let batch = f.features(&[&short, &long]).unwrap();
        assert_eq!(batch.dims(), &[2, 4, 32]);
        // "cars" is car ##s: its vector is the mean of those two pieces' hidden states.
        let ids = Tensor::new(&[[3u32, 18, 24, 21, 4]], &Device::Cpu).unwrap();
        let hidden = f.bert.forward(&ids, &ids.ones_like().unwrap()).unwrap().get(0).unwrap();
        let expected = hidden.narrow(0, 2, 2).unwrap().mean(0).unwrap();
        let got = batch.get(0).unwrap().get(1).unwrap();
        let diff = (got - expected).unwrap().abs().unwrap().max(0).unwrap().to_scalar::<f32>().unwrap();
        assert!(diff < 1e-4, "pooled differs by {diff}");
        let pad = batch.get(0).unwrap().narrow(0, 2, 2).unwrap().abs().unwrap().sum_all().unwrap();
        assert_eq!(pad.to_scalar::<f32>().unwrap(), 0.0);
        // A row's features do not depend on what else is in the batch.
        let alone = f.features(&[&long]).unwrap().get(0).unwrap();
        let diff = (alone - batch.get(1).unwrap()).unwrap().abs().unwrap().max_all().unwrap();
        assert!(diff.to_scalar::<f32>().unwrap() < 1e-4);
    }
}
