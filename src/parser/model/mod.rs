//! The network: a small transformer encoder over words and a transformer decoder that writes the
//! linearised form, with two pointer heads that pick a span's first and last word.
//!
//! Encoder input per word = word embedding + sum of its hashed character-trigram embeddings +
//! position embedding. Decoder input per step = output-token embedding + position embedding and,
//! for a `<span>` token, a projection of the encoder states of the span's first and last words, so
//! what follows a span can depend on which words it covered (e.g. `has_colour` after "red").
//! Pointer heads score every encoder position against the decoder state that emits `<span>`.

use candle_core::{D, DType, Device, Module, Result, Tensor};
use candle_nn::{Embedding, VarBuilder, embedding};
use serde::{Deserialize, Serialize};

mod cache;

pub use cache::{DecoderCache, LayerCache, RowCache};

use super::fused;
use super::layers::{Attention, Dense, Dropout, FeedForward, LayerNorm, drop, log_softmax_rows};

/// Sizes of the network.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    pub d_model: usize,
    pub heads: usize,
    pub d_ff: usize,
    pub encoder_layers: usize,
    pub decoder_layers: usize,
    pub word_vocab: usize,
    pub trigram_buckets: usize,
    pub out_vocab: usize,
    /// Longest input (words beyond it are cut off) and longest output (tokens).
    pub max_words: usize,
    pub max_tokens: usize,
    /// Length of the pretrained word features added to the encoder input (0: none; see
    /// [`pretrained`](super::pretrained)). Older models have no such field and read as 0.
    #[serde(default)]
    pub word_features: usize,
}

/// Additive mask value for positions that must not be attended to.
pub const NEG: f64 = -1e9;

struct EncoderLayer {
    norm1: LayerNorm,
    attn: Attention,
    norm2: LayerNorm,
    ff: FeedForward,
}

impl EncoderLayer {
    fn load(cfg: &Config, vb: VarBuilder) -> Result<Self> {
        Ok(EncoderLayer {
            norm1: LayerNorm::load(cfg.d_model, vb.pp("norm1"))?,
            attn: Attention::load(cfg.d_model, cfg.heads, vb.pp("attn"))?,
            norm2: LayerNorm::load(cfg.d_model, vb.pp("norm2"))?,
            ff: FeedForward::load(cfg.d_model, cfg.d_ff, vb.pp("ff"))?,
        })
    }

    fn forward(&self, x: &Tensor, mask: &Tensor, dropout: Option<&Dropout>) -> Result<Tensor> {
        let h = self.norm1.forward(x)?;
        let x = (x + drop(self.attn.self_attend(&h, Some(mask))?, dropout)?)?;
        let h = self.norm2.forward(&x)?;
        &x + drop(self.ff.forward(&h, dropout)?, dropout)?
    }
}

struct DecoderLayer {
    norm1: LayerNorm,
    self_attn: Attention,
    norm2: LayerNorm,
    cross_attn: Attention,
    norm3: LayerNorm,
    ff: FeedForward,
}

impl DecoderLayer {
    fn load(cfg: &Config, vb: VarBuilder) -> Result<Self> {
        Ok(DecoderLayer {
            norm1: LayerNorm::load(cfg.d_model, vb.pp("norm1"))?,
            self_attn: Attention::load(cfg.d_model, cfg.heads, vb.pp("self_attn"))?,
            norm2: LayerNorm::load(cfg.d_model, vb.pp("norm2"))?,
            cross_attn: Attention::load(cfg.d_model, cfg.heads, vb.pp("cross_attn"))?,
            norm3: LayerNorm::load(cfg.d_model, vb.pp("norm3"))?,
            ff: FeedForward::load(cfg.d_model, cfg.d_ff, vb.pp("ff"))?,
        })
    }

    fn forward(
        &self,
        y: &Tensor,
        memory: &Tensor,
        causal: &Tensor,
        memory_mask: &Tensor,
        dropout: Option<&Dropout>,
    ) -> Result<Tensor> {
        let h = self.norm1.forward(y)?;
        let y = (y + drop(self.self_attn.self_attend(&h, Some(causal))?, dropout)?)?;
        let h = self.norm2.forward(&y)?;
        let y = (&y + drop(self.cross_attn.forward(&h, memory, Some(memory_mask))?, dropout)?)?;
        let h = self.norm3.forward(&y)?;
        &y + drop(self.ff.forward(&h, dropout)?, dropout)?
    }

    /// One decoding step for (k, 1, D) inputs, one per hypothesis, extending the cache.
    fn step(&self, y: &Tensor, cache: &mut LayerCache, memory_mask: &Tensor) -> Result<Tensor> {
        let h = self.norm1.forward(y)?;
        let (q, k, v) = self.self_attn.queries_keys_values(&h)?;
        let (k, v) = match cache.self_kv.take() {
            Some((pk, pv)) => (Tensor::cat(&[&pk, &k], 2)?, Tensor::cat(&[&pv, &v], 2)?),
            None => (k, v),
        };
        let y = (y + self.self_attn.attend_heads(&q, &k, &v, None)?)?;
        cache.self_kv = Some((k, v));
        let h = self.norm2.forward(&y)?;
        let (ck, cv) = &cache.cross_kv;
        let y = (&y + self.cross_attn.attend(&h, ck, cv, Some(memory_mask))?)?;
        let h = self.norm3.forward(&y)?;
        &y + self.ff.forward(&h, None)?
    }

    /// [`DecoderLayer::step`] on plain rows: `y` holds one D-wide row per hypothesis, row i
    /// continuing cache row i.
    fn step_rows(&self, y: &mut [f32], cache: &mut RowCache, d: usize) -> Result<()> {
        if cache.self_keys.len() * d != y.len() {
            return Err(candle_core::Error::Msg("a decoding step needs one cache row per hypothesis".into()));
        }
        let qkv = self.self_attn.queries_keys_values_rows(&self.norm1.forward_rows(y)?)?;
        let mut attended = Vec::with_capacity(y.len());
        for ((row, keys), values) in qkv.chunks_exact(3 * d).zip(&mut cache.self_keys).zip(&mut cache.self_values) {
            keys.extend_from_slice(&row[d..2 * d]);
            values.extend_from_slice(&row[2 * d..]);
            attended.extend(self.self_attn.mix_rows(&row[..d], keys, values));
        }
        add_into(y, &self.self_attn.project_rows(&attended)?);
        let queries = self.cross_attn.queries_rows(&self.norm2.forward_rows(y)?)?;
        add_into(y, &self.cross_attn.attend_rows(&queries, &cache.cross_keys, &cache.cross_values)?);
        add_into(y, &self.ff.forward_rows(&self.norm3.forward_rows(y)?)?);
        Ok(())
    }
}

/// `x` (B, T, D) plus the position vectors `positions` (T, D) of every sequence.
fn add_positions(x: &Tensor, positions: &Tensor) -> Result<Tensor> {
    if fused::applies(x) { fused::add_repeated(x, positions) } else { x.broadcast_add(positions) }
}

/// `y += x`, elementwise.
fn add_into(y: &mut [f32], x: &[f32]) {
    y.iter_mut().zip(x).for_each(|(a, b)| *a += b);
}

/// The whole parser network.
pub struct Seq2Seq {
    pub cfg: Config,
    word_emb: Embedding,
    trigram_emb: Embedding,
    word_pos: Embedding,
    /// Projection of the pretrained word features into the model's width (when it has them).
    feat_proj: Option<Dense>,
    encoder: Vec<EncoderLayer>,
    enc_norm: LayerNorm,
    tok_emb: Embedding,
    tok_pos: Embedding,
    span_in: Dense,
    decoder: Vec<DecoderLayer>,
    dec_norm: LayerNorm,
    out: Dense,
    start_q: Dense,
    end_q: Dense,
    /// Once frozen on the CPU: the output-token and position embedding tables read out, and with
    /// them decoding on plain rows (see [`DecoderCache`]).
    row_tables: Option<(Vec<f32>, Vec<f32>)>,
}

/// Encoder output plus its additive padding mask (B, 1, 1, S).
pub struct Encoded {
    pub states: Tensor,
    pub mask: Tensor,
}

/// Teacher-forced decoder outputs: token logits (B, T, V) and pointer logits (B, T, S).
pub struct DecoderOut {
    pub logits: Tensor,
    pub start: Tensor,
    pub end: Tensor,
}

impl Seq2Seq {
    pub fn load(cfg: Config, vb: VarBuilder) -> Result<Self> {
        let d = cfg.d_model;
        let encoder = (0..cfg.encoder_layers)
            .map(|i| EncoderLayer::load(&cfg, vb.pp(format!("enc.{i}"))))
            .collect::<Result<_>>()?;
        let decoder = (0..cfg.decoder_layers)
            .map(|i| DecoderLayer::load(&cfg, vb.pp(format!("dec.{i}"))))
            .collect::<Result<_>>()?;
        Ok(Seq2Seq {
            word_emb: embedding(cfg.word_vocab, d, vb.pp("word_emb"))?,
            trigram_emb: embedding(cfg.trigram_buckets, d, vb.pp("trigram_emb"))?,
            word_pos: embedding(cfg.max_words, d, vb.pp("word_pos"))?,
            feat_proj: match cfg.word_features {
                0 => None,
                f => Some(Dense::load(f, d, vb.pp("feat_proj"))?),
            },
            encoder,
            enc_norm: LayerNorm::load(d, vb.pp("enc_norm"))?,
            tok_emb: embedding(cfg.out_vocab, d, vb.pp("tok_emb"))?,
            tok_pos: embedding(cfg.max_tokens + 1, d, vb.pp("tok_pos"))?,
            span_in: Dense::load(d, d, vb.pp("span_in"))?,
            decoder,
            dec_norm: LayerNorm::load(d, vb.pp("dec_norm"))?,
            out: Dense::load(d, cfg.out_vocab, vb.pp("out"))?,
            start_q: Dense::load(d, d, vb.pp("start_q"))?,
            end_q: Dense::load(d, d, vb.pp("end_q"))?,
            row_tables: None,
            cfg,
        })
    }

    /// Prepares the network for inference only: every projection keeps its weight transposed and
    /// contiguous (see [`Dense`]), and on the CPU decoding runs on plain rows (see
    /// [`DecoderCache`]), both much faster for decoding steps. A frozen network must not be
    /// trained further.
    pub fn freeze(&mut self) -> Result<()> {
        for layer in &mut self.encoder {
            layer.norm1.freeze()?;
            layer.attn.freeze()?;
            layer.norm2.freeze()?;
            layer.ff.freeze()?;
        }
        for layer in &mut self.decoder {
            layer.norm1.freeze()?;
            layer.self_attn.freeze()?;
            layer.norm2.freeze()?;
            layer.cross_attn.freeze()?;
            layer.norm3.freeze()?;
            layer.ff.freeze()?;
        }
        self.enc_norm.freeze()?;
        self.dec_norm.freeze()?;
        for p in [&mut self.span_in, &mut self.out, &mut self.start_q, &mut self.end_q] {
            p.freeze()?;
        }
        if let Some(p) = &mut self.feat_proj {
            p.freeze()?;
        }
        if self.tok_emb.embeddings().device().is_cpu() {
            let table = |e: &Embedding| e.embeddings().flatten_all()?.to_vec1::<f32>();
            self.row_tables = Some((table(&self.tok_emb)?, table(&self.tok_pos)?));
        }
        Ok(())
    }

    /// Encodes words: `words` (B, S) u32, `trigrams` (B, S, K) u32, `lengths` per row, and the
    /// pretrained word features (B, S, F) when the model uses them.
    pub fn encode(
        &self,
        words: &Tensor,
        trigrams: &Tensor,
        lengths: &[usize],
        features: Option<&Tensor>,
        dropout: Option<&Dropout>,
    ) -> Result<Encoded> {
        let (b, s) = words.dims2()?;
        let dev = words.device();
        let positions = Tensor::arange(0u32, s as u32, dev)?;
        // Sum each word's trigram vectors as a batched (1×K)·(K×D) product: far faster on CPU
        // than a reduction over a middle axis, forwards and backwards.
        let k = trigrams.dim(2)?;
        let tri = self.trigram_emb.forward(&trigrams.flatten_all()?)?.reshape((b * s, k, self.cfg.d_model))?;
        let ones = Tensor::ones((b * s, 1, k), tri.dtype(), dev)?;
        let tri = ones.matmul(&tri)?.reshape((b, s, self.cfg.d_model))?;
        let mut x = add_positions(&self.word_emb.forward(words)?.add(&tri)?, &self.word_pos.forward(&positions)?)?;
        if let (Some(proj), Some(features)) = (&self.feat_proj, features) {
            x = x.add(&proj.forward(features)?)?;
        }
        let mut x = drop(x, dropout)?;
        let mask: Vec<f32> =
            lengths.iter().flat_map(|&n| (0..s).map(move |j| if j < n { 0.0 } else { NEG as f32 })).collect();
        let mask = Tensor::from_vec(mask, (b, 1, 1, s), dev)?;
        for layer in &self.encoder {
            x = layer.forward(&x, &mask, dropout)?;
        }
        Ok(Encoded { states: self.enc_norm.forward(&x)?, mask })
    }

    /// Decoder input embeddings: `tokens` (B, T); `span_words` (B, T, 2) flat row indices into the
    /// (B·S, D) encoder states of each `<span>` input's first and last word (0 elsewhere);
    /// `span_mask` (B, T, 1) is 1 at `<span>` inputs.
    fn embed_inputs(
        &self,
        enc: &Encoded,
        tokens: &Tensor,
        span_words: &Tensor,
        span_mask: &Tensor,
        offset: usize,
    ) -> Result<Tensor> {
        let (b, t) = tokens.dims2()?;
        let d = self.cfg.d_model;
        let flat = enc.states.reshape(((), d))?;
        let picked = flat.index_select(&span_words.flatten_all()?, 0)?.reshape((b, t, 2, d))?.sum(2)?;
        let span_vec = self.span_in.forward(&picked)?.broadcast_mul(span_mask)?;
        self.embed_tokens(tokens, offset)?.add(&span_vec)
    }

    /// Output-token plus position embeddings of `tokens` (B, T) from position `offset`: the whole
    /// decoder input where no input is a `<span>`.
    fn embed_tokens(&self, tokens: &Tensor, offset: usize) -> Result<Tensor> {
        let t = tokens.dim(1)?;
        let positions = Tensor::arange(offset as u32, (offset + t) as u32, tokens.device())?;
        add_positions(&self.tok_emb.forward(tokens)?, &self.tok_pos.forward(&positions)?)
    }

    /// Pointer scores of decoder states `h` (B, T, D) against encoder states: (B, T, S) each.
    fn pointers(&self, h: &Tensor, enc: &Encoded) -> Result<(Tensor, Tensor)> {
        let keys_t = enc.states.transpose(1, 2)?.contiguous()?;
        let scale = 1.0 / (self.cfg.d_model as f64).sqrt();
        // Padding words get -1e9 so they are never picked.
        let mask = enc.mask.squeeze(1)?;
        let masked = |scores: Tensor| {
            if fused::applies(&scores) { fused::add_constant(&scores, &mask) } else { scores.broadcast_add(&mask) }
        };
        let start = masked((self.start_q.forward(h)?.matmul(&keys_t)? * scale)?)?;
        let end = masked((self.end_q.forward(h)?.matmul(&keys_t)? * scale)?)?;
        Ok((start, end))
    }

    /// Teacher-forced decoding of whole target sequences (training).
    pub fn decode_train(
        &self,
        enc: &Encoded,
        tokens: &Tensor,
        span_words: &Tensor,
        span_mask: &Tensor,
        dropout: Option<&Dropout>,
    ) -> Result<DecoderOut> {
        let (_, t) = tokens.dims2()?;
        let mut y = drop(self.embed_inputs(enc, tokens, span_words, span_mask, 0)?, dropout)?;
        let causal: Vec<f32> =
            (0..t).flat_map(|i| (0..t).map(move |j| if j <= i { 0.0 } else { NEG as f32 })).collect();
        let causal = Tensor::from_vec(causal, (1, 1, t, t), tokens.device())?;
        for layer in &self.decoder {
            y = layer.forward(&y, &enc.states, &causal, &enc.mask, dropout)?;
        }
        let h = self.dec_norm.forward(&y)?;
        let (start, end) = self.pointers(&h, enc)?;
        Ok(DecoderOut { logits: self.out.forward(&h)?, start, end })
    }

    /// Next-token log-probabilities (V) from a decoder state (D).
    pub fn token_log_probs(&self, h: &[f32]) -> Result<Vec<f32>> {
        Ok(self.token_log_probs_batch(h)?.into_iter().next().unwrap_or_default())
    }

    /// Next-token log-probabilities of k decoder states (k rows of D): one (V) row each.
    pub fn token_log_probs_batch(&self, h: &[f32]) -> Result<Vec<Vec<f32>>> {
        if self.row_tables.is_some() {
            return Ok(log_softmax_rows(&self.out.forward_rows(h)?, self.cfg.out_vocab));
        }
        let h = self.state_tensor(h)?;
        candle_nn::ops::log_softmax(&self.out.forward(&h)?, D::Minus1)?.squeeze(1)?.to_vec2()
    }

    /// Decoder states as a (k, 1, D) tensor on the network's device.
    fn state_tensor(&self, h: &[f32]) -> Result<Tensor> {
        let d = self.cfg.d_model;
        Tensor::from_slice(h, (h.len() / d.max(1), 1, d), self.tok_emb.embeddings().device())
    }

    /// Start and end pointer log-probabilities over the words (S each) of row `row` of the encoded
    /// batch, from one decoder state (D).
    pub fn span_log_probs(&self, h: &[f32], enc: &Encoded, row: usize) -> Result<(Vec<f32>, Vec<f32>)> {
        let h = self.state_tensor(h)?;
        let (start, end) = if enc.states.dim(0)? > 1 {
            let one = Encoded { states: enc.states.narrow(0, row, 1)?, mask: enc.mask.narrow(0, row, 1)? };
            self.pointers(&h, &one)?
        } else {
            self.pointers(&h, enc)?
        };
        let start = candle_nn::ops::log_softmax(&start, D::Minus1)?;
        let end = candle_nn::ops::log_softmax(&end, D::Minus1)?;
        Ok((start.flatten_all()?.to_vec1()?, end.flatten_all()?.to_vec1()?))
    }
}

/// The device to run on: the first CUDA GPU when built with `cuda` and one exists, else the CPU.
pub fn default_device() -> Device {
    #[cfg(feature = "cuda")]
    if let Ok(dev) = Device::new_cuda(0) {
        return dev;
    }
    Device::Cpu
}

/// The weights' dtype (kept in f32: the model is small).
pub const DTYPE: DType = DType::F32;

#[cfg(test)]
mod tests {
    use candle_nn::VarMap;

    use super::*;

    fn tiny_config() -> Config {
        Config {
            d_model: 16,
            heads: 2,
            d_ff: 32,
            encoder_layers: 1,
            decoder_layers: 2,
            word_vocab: 20,
            trigram_buckets: 32,
            out_vocab: 12,
            max_words: 8,
            max_tokens: 10,
            word_features: 6,
        }
    }

    fn max_difference(a: &Tensor, b: &Tensor) -> f32 {
        (a - b).unwrap().abs().unwrap().flatten_all().unwrap().max(0).unwrap().to_scalar().unwrap()
    }

    fn close(a: &[f32], b: &[f32], tolerance: f32) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < tolerance)
    }

    #[test]
    fn a_frozen_network_computes_what_the_trainable_one_computes() {
        // Two networks on the same random weights; one frozen for inference (transposed weights,
        // row-by-row norms and softmax, decoding on plain rows) must encode, step, point and
        // follow a beam the same, to rounding.
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DTYPE, &Device::Cpu);
        let trainable = Seq2Seq::load(tiny_config(), vb.clone()).unwrap();
        let mut frozen = Seq2Seq::load(tiny_config(), vb).unwrap();
        frozen.freeze().unwrap();

        let dev = Device::Cpu;
        // Three words and a padding slot, which neither may attend to.
        let words = Tensor::new(&[[3u32, 7, 1, 0]], &dev).unwrap();
        let trigrams = Tensor::new(&[[[1u32, 2], [3, 4], [5, 6], [0, 0]]], &dev).unwrap();
        let features = Tensor::randn(0f32, 1.0, (1, 4, 6), &dev).unwrap();
        let encode = |net: &Seq2Seq| net.encode(&words, &trigrams, &[3], Some(&features), None).unwrap();
        let (enc_a, enc_b) = (encode(&trainable), encode(&frozen));
        assert!(max_difference(&enc_a.states, &enc_b.states) < 1e-5);

        let (mut cache_a, mut cache_b) = (trainable.start_cache(&enc_a).unwrap(), frozen.start_cache(&enc_b).unwrap());
        assert!(matches!(cache_a, DecoderCache::Tensors { .. }) && matches!(cache_b, DecoderCache::Rows { .. }));
        // A token, a span over words 0..1, another token: both input paths of a step.
        for (position, (token, span)) in [(1u32, None), (3, Some((0, 1))), (5, None)].into_iter().enumerate() {
            let h_a = trainable.step(&enc_a, &mut cache_a, token, span, position).unwrap();
            let h_b = frozen.step(&enc_b, &mut cache_b, token, span, position).unwrap();
            assert!(close(&h_a, &h_b, 1e-5), "step {position}");
            let (lp_a, lp_b) = (trainable.token_log_probs(&h_a).unwrap(), frozen.token_log_probs(&h_b).unwrap());
            assert!(close(&lp_a, &lp_b, 1e-4));
            let (sa, sb) =
                (trainable.span_log_probs(&h_a, &enc_a, 0).unwrap(), frozen.span_log_probs(&h_b, &enc_b, 0).unwrap());
            assert!(close(&sa.0, &sb.0, 1e-4) && close(&sa.1, &sb.1, 1e-4));
        }

        // A beam: the one hypothesis splits in two, the second (with a span) continues twice.
        for (position, (parents, inputs)) in [
            (vec![0u32, 0], vec![(2u32, None), (3, Some((1, 2)))]),
            (vec![1, 1], vec![(4, None), (6, None)]),
            (vec![0, 1], vec![(7, None), (8, Some((2, 2)))]),
        ]
        .into_iter()
        .enumerate()
        {
            Seq2Seq::reorder(&mut cache_a, &parents).unwrap();
            Seq2Seq::reorder(&mut cache_b, &parents).unwrap();
            let h_a = trainable.step_batch(&enc_a, &mut cache_a, &inputs, 3 + position).unwrap();
            let h_b = frozen.step_batch(&enc_b, &mut cache_b, &inputs, 3 + position).unwrap();
            assert_eq!(h_a.len(), 2 * 16);
            assert!(close(&h_a, &h_b, 1e-5), "beam step {position}");
            let (lp_a, lp_b) =
                (trainable.token_log_probs_batch(&h_a).unwrap(), frozen.token_log_probs_batch(&h_b).unwrap());
            assert!(lp_a.len() == 2 && lp_a.iter().zip(&lp_b).all(|(a, b)| close(a, b, 1e-4)));
        }
        // A step whose rows do not match the cache is an error, not a wrong answer.
        assert!(frozen.step_batch(&enc_b, &mut cache_b, &[(1, None)], 6).is_err());
    }
}
