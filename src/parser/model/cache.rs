//! Step-by-step decoding: the decoder's cache of what it has read so far (self-attention keys and
//! values per position, the encoder's keys and values computed once), as tensors for a trainable
//! network or plain rows for a frozen one on the CPU, and the steps that extend it, one hypothesis
//! or a beam's worth at a time. As tensors, the hypotheses may read different inputs of one
//! encoded batch (validation decodes hundreds of lines side by side: one step for all of them
//! costs little more than a step for one, where the step's fixed cost dominates, on a GPU above all).

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
    /// The layers' caches and, per hypothesis, the row of the encoded batch it reads.
    Tensors {
        layers: Vec<LayerCache>,
        rows: Vec<u32>,
    },
    /// The layers' caches and the encoder states of the words (one D-wide row per word).
    Rows {
        layers: Vec<RowCache>,
        states: Vec<f32>,
    },
}

impl Seq2Seq {
    /// Starts step-by-step decoding: one hypothesis per row of the encoded batch. Plain rows serve
    /// a single input only, so a batch of several is decoded as tensors even by a frozen network.
    pub fn start_cache(&self, enc: &Encoded) -> Result<DecoderCache> {
        let batch = enc.states.dim(0)?;
        if self.row_tables.is_none() || batch > 1 {
            let layers = self
                .decoder
                .iter()
                .map(|layer| Ok(LayerCache { self_kv: None, cross_kv: layer.cross_attn.keys_values(&enc.states)? }));
            let rows = (0..batch as u32).collect();
            return Ok(DecoderCache::Tensors { layers: layers.collect::<Result<_>>()?, rows });
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
            DecoderCache::Tensors { layers, rows } => {
                self.step_tensors(enc, layers, rows, inputs, position)?.flatten_all()?.to_vec1()
            }
            DecoderCache::Rows { layers, states } => self.step_rows(layers, states, inputs, position),
        }
    }

    fn step_tensors(
        &self,
        enc: &Encoded,
        cache: &mut [LayerCache],
        rows: &[u32],
        inputs: &[(u32, Option<(usize, usize)>)],
        position: usize,
    ) -> Result<Tensor> {
        let dev = enc.states.device();
        let k = inputs.len();
        if rows.len() != k {
            return Err(candle_core::Error::Msg("a decoding step needs one cache row per hypothesis".into()));
        }
        let tokens: Vec<u32> = inputs.iter().map(|(t, _)| *t).collect();
        let tokens = Tensor::from_vec(tokens, (k, 1), dev)?;
        // Each hypothesis's padding mask; one input's mask serves every hypothesis as it is.
        let batched = enc.states.dim(0)? > 1;
        let mask = if batched { enc.mask.index_select(&Tensor::new(rows, dev)?, 0)? } else { enc.mask.clone() };
        // Most steps feed no span: their input is the token embedding alone.
        let mut y = if inputs.iter().any(|(_, s)| s.is_some()) {
            // Span words index the (B·S, D) encoder states: row r's words start at r·S.
            let s = enc.states.dim(1)? as u32;
            let words: Vec<u32> = inputs
                .iter()
                .zip(rows)
                .flat_map(|((_, span), &r)| span.map_or([0, 0], |(a, z)| [r * s + a as u32, r * s + z as u32]))
                .collect();
            let mask: Vec<f32> = inputs.iter().map(|(_, s)| if s.is_some() { 1.0 } else { 0.0 }).collect();
            let span_words = Tensor::from_vec(words, (k, 1, 2), dev)?;
            let span_mask = Tensor::from_vec(mask, (k, 1, 1), dev)?;
            self.embed_inputs(enc, &tokens, &span_words, &span_mask, position)?
        } else {
            self.embed_tokens(&tokens, position)?
        };
        for (layer, c) in self.decoder.iter().zip(cache.iter_mut()) {
            y = layer.step(&y, c, &mask)?;
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
            DecoderCache::Tensors { layers, rows } => {
                let missing = || candle_core::Error::Msg("reorder: no such hypothesis".into());
                let kept: Vec<u32> =
                    parents.iter().map(|&p| rows.get(p as usize).copied().ok_or_else(missing)).collect::<Result<_>>()?;
                // The encoder's keys and values follow their hypotheses when these read different
                // inputs, or when the beam changes size.
                let cross_moves = kept != *rows;
                *rows = kept;
                Self::reorder_tensors(layers, parents, in_place, cross_moves)
            }
        }
    }

    fn reorder_tensors(
        cache: &mut [LayerCache],
        parents: &[u32],
        in_place: impl Fn(usize) -> bool,
        cross_moves: bool,
    ) -> Result<()> {
        let dev = cache.first().map(|c| c.cross_kv.0.device().clone()).unwrap_or(candle_core::Device::Cpu);
        let index = Tensor::new(parents, &dev)?;
        for c in cache.iter_mut() {
            if let Some((sk, sv)) = c.self_kv.take() {
                c.self_kv = Some(if in_place(sk.dim(0)?) {
                    (sk, sv)
                } else {
                    (sk.index_select(&index, 0)?, sv.index_select(&index, 0)?)
                });
            }
            let (ck, cv) = &c.cross_kv;
            if cross_moves {
                c.cross_kv = (ck.index_select(&index, 0)?, cv.index_select(&index, 0)?);
            }
        }
        Ok(())
    }
}
