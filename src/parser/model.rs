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

use super::layers::{Attention, Dense, Dropout, FeedForward, LayerNorm, drop};

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

/// Per-layer cache for step-by-step decoding: self-attention keys/values so far and the
/// cross-attention keys/values of the encoder output (computed once).
#[derive(Clone)]
pub struct LayerCache {
    self_kv: Option<(Tensor, Tensor)>,
    cross_kv: (Tensor, Tensor),
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
            cfg,
        })
    }

    /// Prepares the network for inference only: every projection keeps its weight transposed and
    /// contiguous (see [`Dense`]), which makes decoding steps faster. A frozen network must not be
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
        let mut x = self.word_emb.forward(words)?.add(&tri)?.broadcast_add(&self.word_pos.forward(&positions)?)?;
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
        self.tok_emb.forward(tokens)?.broadcast_add(&self.tok_pos.forward(&positions)?)
    }

    /// Pointer scores of decoder states `h` (B, T, D) against encoder states: (B, T, S) each.
    fn pointers(&self, h: &Tensor, enc: &Encoded) -> Result<(Tensor, Tensor)> {
        let keys_t = enc.states.transpose(1, 2)?.contiguous()?;
        let scale = 1.0 / (self.cfg.d_model as f64).sqrt();
        // Padding words get -1e9 so they are never picked.
        let mask = enc.mask.squeeze(1)?;
        let start = (self.start_q.forward(h)?.matmul(&keys_t)? * scale)?.broadcast_add(&mask)?;
        let end = (self.end_q.forward(h)?.matmul(&keys_t)? * scale)?.broadcast_add(&mask)?;
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

    /// Starts step-by-step decoding for a single encoded input.
    pub fn start_cache(&self, enc: &Encoded) -> Result<Vec<LayerCache>> {
        self.decoder
            .iter()
            .map(|layer| Ok(LayerCache { self_kv: None, cross_kv: layer.cross_attn.keys_values(&enc.states)? }))
            .collect()
    }

    /// Feeds one token at `position` (with its span, if it is `<span>`) and returns the decoder state
    /// (1, 1, D) that predicts what comes next.
    pub fn step(
        &self,
        enc: &Encoded,
        cache: &mut [LayerCache],
        token: u32,
        span: Option<(usize, usize)>,
        position: usize,
    ) -> Result<Tensor> {
        self.step_batch(enc, cache, &[(token, span)], position)
    }

    /// Feeds one token to each of k hypotheses at the same `position` (beam search) and returns
    /// their decoder states (k, 1, D). The caches must hold k rows (see [`Seq2Seq::reorder`]):
    /// one batched step costs about as much as a single one, where k separate steps cost k times.
    pub fn step_batch(
        &self,
        enc: &Encoded,
        cache: &mut [LayerCache],
        inputs: &[(u32, Option<(usize, usize)>)],
        position: usize,
    ) -> Result<Tensor> {
        let dev = enc.states.device();
        let k = inputs.len();
        let tokens: Vec<u32> = inputs.iter().map(|(t, _)| *t).collect();
        let tokens = Tensor::from_vec(tokens, (k, 1), dev)?;
        // Most steps feed no span: their input is the token embedding alone.
        let mut y = if inputs.iter().any(|(_, s)| s.is_some()) {
            let words: Vec<u32> =
                inputs.iter().flat_map(|(_, s)| s.map_or([0, 0], |(a, z)| [a as u32, z as u32])).collect();
            let mask: Vec<f32> = inputs.iter().map(|(_, s)| if s.is_some() { 1.0 } else { 0.0 }).collect();
            let span_words = Tensor::from_vec(words, (k, 1, 2), dev)?;
            let span_mask = Tensor::from_vec(mask, (k, 1, 1), dev)?;
            self.embed_inputs(enc, &tokens, &span_words, &span_mask, position)?
        } else {
            self.embed_tokens(&tokens, position)?
        };
        for (layer, c) in self.decoder.iter().zip(cache.iter_mut()) {
            y = layer.step(&y, c, &enc.mask)?;
        }
        self.dec_norm.forward(&y)
    }

    /// Keeps cache row `parents[i]` as row i: the hypotheses that survive a beam step, each
    /// continuing from its parent's history.
    pub fn reorder(cache: &mut [LayerCache], parents: &[u32]) -> Result<()> {
        let dev = cache.first().map(|c| c.cross_kv.0.device().clone()).unwrap_or(candle_core::Device::Cpu);
        let index = Tensor::new(parents, &dev)?;
        let k = parents.len();
        for c in cache.iter_mut() {
            if let Some((sk, sv)) = c.self_kv.take() {
                // Every row kept in place (each hypothesis extended by one token): nothing to move.
                let unchanged = sk.dim(0)? == k && parents.iter().enumerate().all(|(i, &p)| p as usize == i);
                c.self_kv =
                    Some(if unchanged { (sk, sv) } else { (sk.index_select(&index, 0)?, sv.index_select(&index, 0)?) });
            }
            // The encoder's keys and values are the same for every hypothesis.
            let (ck, cv) = &c.cross_kv;
            if ck.dim(0)? != k {
                let first = |t: &Tensor| -> Result<Tensor> {
                    let dims = t.dims();
                    t.narrow(0, 0, 1)?.broadcast_as((k, dims[1], dims[2], dims[3]))?.contiguous()
                };
                c.cross_kv = (first(ck)?, first(cv)?);
            }
        }
        Ok(())
    }

    /// Next-token log-probabilities (V) from a decoder state.
    pub fn token_log_probs(&self, h: &Tensor) -> Result<Vec<f32>> {
        candle_nn::ops::log_softmax(&self.out.forward(h)?, D::Minus1)?.flatten_all()?.to_vec1()
    }

    /// Next-token log-probabilities of k decoder states (k, 1, D): one (V) row each.
    pub fn token_log_probs_batch(&self, h: &Tensor) -> Result<Vec<Vec<f32>>> {
        candle_nn::ops::log_softmax(&self.out.forward(h)?, D::Minus1)?.squeeze(1)?.to_vec2()
    }

    /// Start and end pointer log-probabilities over the words (S each) from a decoder state.
    pub fn span_log_probs(&self, h: &Tensor, enc: &Encoded) -> Result<(Vec<f32>, Vec<f32>)> {
        let (start, end) = self.pointers(h, enc)?;
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

    #[test]
    fn a_frozen_network_computes_what_the_trainable_one_computes() {
        // Two networks on the same random weights; one frozen for inference (transposed weights,
        // row-by-row norms and softmax) must encode, step and point the same, to rounding.
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DTYPE, &Device::Cpu);
        let trainable = Seq2Seq::load(tiny_config(), vb.clone()).unwrap();
        let mut frozen = Seq2Seq::load(tiny_config(), vb).unwrap();
        frozen.freeze().unwrap();

        let dev = Device::Cpu;
        let words = Tensor::new(&[[3u32, 7, 1, 0]], &dev).unwrap();
        let trigrams = Tensor::new(&[[[1u32, 2], [3, 4], [5, 6], [0, 0]]], &dev).unwrap();
        let features = Tensor::randn(0f32, 1.0, (1, 4, 6), &dev).unwrap();
        let encode = |net: &Seq2Seq| net.encode(&words, &trigrams, &[3], Some(&features), None).unwrap();
        let (enc_a, enc_b) = (encode(&trainable), encode(&frozen));
        assert!(max_difference(&enc_a.states, &enc_b.states) < 1e-5);

        let (mut cache_a, mut cache_b) = (trainable.start_cache(&enc_a).unwrap(), frozen.start_cache(&enc_b).unwrap());
        // A token, a span over words 0..1, another token: both input paths of a step.
        for (position, (token, span)) in [(1u32, None), (3, Some((0, 1))), (5, None)].into_iter().enumerate() {
            let h_a = trainable.step(&enc_a, &mut cache_a, token, span, position).unwrap();
            let h_b = frozen.step(&enc_b, &mut cache_b, token, span, position).unwrap();
            assert!(max_difference(&h_a, &h_b) < 1e-5, "step {position}");
            let (lp_a, lp_b) = (trainable.token_log_probs(&h_a).unwrap(), frozen.token_log_probs(&h_b).unwrap());
            assert!(lp_a.iter().zip(&lp_b).all(|(a, b)| (a - b).abs() < 1e-4));
            let (sa, sb) =
                (trainable.span_log_probs(&h_a, &enc_a).unwrap(), frozen.span_log_probs(&h_b, &enc_b).unwrap());
            assert!(sa.0.iter().zip(&sb.0).chain(sa.1.iter().zip(&sb.1)).all(|(a, b)| (a - b).abs() < 1e-4));
        }
    }
}
