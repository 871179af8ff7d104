//! Step-by-step decoding: the decoder's cache of what it has read so far (self-attention keys and
//! values per position, the encoder's keys and values computed once), as tensors for a trainable
//! network or plain rows for a frozen one on the CPU, and the steps that extend it, one hypothesis
//! or a beam's worth at a time.

use candle_core::{Result, Tensor};

use super::*;

/// Per-layer cache for step-by-step decoding: self-attention keys/values so far and the
/// cross-attention keys/values of the encoder output (computed once).
#[derive(Clone)]
pub struct LayerCache {
    pub(super) self_kv: Option<(Tensor, Tensor)>,
    pub(super) cross_kv: (Tensor, Tensor),
}

/// The same cache as plain rows, for a frozen network on the CPU: each hypothesis's self-attention
/// keys and values so far (one D-wide row per position), and the encoder's keys and values (shared).
#[derive(Clone)]
pub struct RowCache {
    pub(super) self_keys: Vec<Vec<f32>>,
    pub(super) self_values: Vec<Vec<f32>>,
    pub(super) cross_keys: Vec<f32>,
    pub(super) cross_values: Vec<f32>,
}

/// A decoding's state: tensors for a network that is still trainable (or on a GPU), plain rows for
/// a frozen one on the CPU, where a step's few hundred numbers are faster in loops than in tensor
/// operations (each allocates and dispatches, which costs more than its arithmetic).
pub enum DecoderCache {
    Tensors(Vec<LayerCache>),
    /// The layers' caches and the encoder states of the words (one D-wide row per word).
    Rows {
        layers: Vec<RowCache>,
        states: Vec<f32>,
    },
}

impl Seq2Seq {
    /// Starts step-by-step decoding for a single encoded input.
    pub fn start_cache(&self, enc: &Encoded) -> Result<DecoderCache> {
        if self.row_tables.is_none() {
            let layers = self
                .decoder
                .iter()
                .map(|layer| Ok(LayerCache { self_kv: None, cross_kv: layer.cross_attn.keys_values(&enc.states)? }));
            return Ok(DecoderCache::Tensors(layers.collect::<Result<_>>()?));
        }
        // The words' rows, padding left out (its mask entries are not 0).
        let words = enc.mask.flatten_all()?.to_vec1::<f32>()?.iter().take_while(|&&m| m == 0.0).count();
        let d = self.cfg.d_model;
        let states = enc.states.flatten_all()?.to_vec1::<f32>()?;
        let states = states[..(words * d).min(states.len())].to_vec();
        let layers = self.decoder.iter().map(|layer| {
            let (cross_keys, cross_values) = layer.cross_attn.keys_values_rows(&states)?;
            Ok(RowCache { self_keys: vec![Vec::new()], self_values: vec![Vec::new()], cross_keys, cross_values })
        });
        Ok(DecoderCache::Rows { layers: layers.collect::<Result<_>>()?, states })
    }

    /// Feeds one token at `position` (with its span, if it is `<span>`) and returns the decoder state
    /// (D numbers) that predicts what comes next.
    pub fn step(
        &self,
        enc: &Encoded,
        cache: &mut DecoderCache,
        token: u32,
        span: Option<(usize, usize)>,
        position: usize,
    ) -> Result<Vec<f32>> {
        self.step_batch(enc, cache, &[(token, span)], position)
    }

    /// Feeds one token to each of k hypotheses at the same `position` (beam search) and returns
    /// their decoder states, k rows of D numbers one after another. The cache must hold k rows
    /// (see [`Seq2Seq::reorder`]): one batched step costs about as much as a single one, where k
    /// separate steps cost k times.
    pub fn step_batch(
        &self,
        enc: &Encoded,
        cache: &mut DecoderCache,
        inputs: &[(u32, Option<(usize, usize)>)],
        position: usize,
    ) -> Result<Vec<f32>> {
        match cache {
            DecoderCache::Tensors(layers) => self.step_tensors(enc, layers, inputs, position)?.flatten_all()?.to_vec1(),
            DecoderCache::Rows { layers, states } => self.step_rows(layers, states, inputs, position),
        }
    }

    fn step_tensors(
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

    /// [`Seq2Seq::step_tensors`] on plain rows (a frozen network on the CPU).
    fn step_rows(
        &self,
        layers: &mut [RowCache],
        states: &[f32],
        inputs: &[(u32, Option<(usize, usize)>)],
        position: usize,
    ) -> Result<Vec<f32>> {
        let Some((tok_emb, tok_pos)) = &self.row_tables else {
            return Err(candle_core::Error::Msg("decoding on rows needs a frozen network".into()));
        };
        let d = self.cfg.d_model;
        let row = |table: &[f32], i: usize| table.get(i * d..(i + 1) * d).map(<[f32]>::to_vec);
        let out_of_range = || candle_core::Error::Msg(format!("decoder input out of range at position {position}"));
        let mut y = Vec::with_capacity(inputs.len() * d);
        for &(token, span) in inputs {
            let mut x = row(tok_emb, token as usize).ok_or_else(out_of_range)?;
            add_into(&mut x, &row(tok_pos, position).ok_or_else(out_of_range)?);
            // A `<span>` input adds the projection of its first and last words' states.
            if let Some((first, last)) = span {
                let mut picked = row(states, first).ok_or_else(out_of_range)?;
                add_into(&mut picked, &row(states, last).ok_or_else(out_of_range)?);
                add_into(&mut x, &self.span_in.forward_rows(&picked)?);
            }
            y.extend(x);
        }
        for (layer, cache) in self.decoder.iter().zip(layers.iter_mut()) {
            layer.step_rows(&mut y, cache, d)?;
        }
        self.dec_norm.forward_rows(&y)
    }

    /// Keeps cache row `parents[i]` as row i: the hypotheses that survive a beam step, each
    /// continuing from its parent's history.
    pub fn reorder(cache: &mut DecoderCache, parents: &[u32]) -> Result<()> {
        // Every row kept in place (each hypothesis extended by one token): nothing to move.
        let in_place = |rows: usize| rows == parents.len() && parents.iter().enumerate().all(|(i, &p)| p as usize == i);
        match cache {
            DecoderCache::Rows { layers, .. } => {
                for c in layers.iter_mut().filter(|c| !in_place(c.self_keys.len())) {
                    let pick = |rows: &[Vec<f32>]| -> Result<Vec<Vec<f32>>> {
                        let missing = || candle_core::Error::Msg("reorder: no such hypothesis".into());
                        parents.iter().map(|&p| rows.get(p as usize).cloned().ok_or_else(missing)).collect()
                    };
                    c.self_keys = pick(&c.self_keys)?;
                    c.self_values = pick(&c.self_values)?;
                }
                Ok(())
            }
            DecoderCache::Tensors(layers) => Self::reorder_tensors(layers, parents, in_place),
        }
    }

    fn reorder_tensors(cache: &mut [LayerCache], parents: &[u32], in_place: impl Fn(usize) -> bool) -> Result<()> {
        let dev = cache.first().map(|c| c.cross_kv.0.device().clone()).unwrap_or(candle_core::Device::Cpu);
        let index = Tensor::new(parents, &dev)?;
        let k = parents.len();
        for c in cache.iter_mut() {
            if let Some((sk, sv)) = c.self_kv.take() {
                c.self_kv = Some(if in_place(sk.dim(0)?) {
                    (sk, sv)
                } else {
                    (sk.index_select(&index, 0)?, sv.index_select(&index, 0)?)
                });
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
}
