//! Transformer building blocks written with plain tensor ops so every one has a gradient on CPU:
//! layer norm, multi-head attention (with a key/value cache for step-by-step decoding), the
//! feed-forward block, a projection that can be frozen for fast inference, and a seeded dropout
//! (candle's own dropout draws from an unseeded RNG, which would make training runs differ).
//!
//! Frozen for inference, each block also runs on plain rows of numbers (`forward_rows`,
//! `attend_rows`, …): a decoding step's tensors are so small that loops over slices beat tensor
//! operations, each of which allocates and dispatches.

use std::cell::RefCell;

use candle_core::{D, Module, Result, Tensor};
use candle_nn::{Linear, VarBuilder};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::fused;

/// Training-time randomness: dropout probability and a seeded generator.
pub struct Dropout {
    pub p: f32,
    rng: RefCell<StdRng>,
}

impl Dropout {
    pub fn new(p: f32, seed: u64) -> Self {
        Dropout { p, rng: RefCell::new(StdRng::seed_from_u64(seed)) }
    }

    /// Zeroes each value with probability `p` and rescales the rest (inverted dropout).
    pub fn apply(&self, x: &Tensor) -> Result<Tensor> {
        if self.p <= 0.0 {
            return Ok(x.clone());
        }
        let keep = 1.0 / (1.0 - self.p);
        // Whole random words filled at once, each compared with p scaled to the u32 range: one
        // call to the generator per batch instead of one float conversion per value.
        let mut bits = vec![0u32; x.elem_count()];
        self.rng.borrow_mut().fill(&mut bits[..]);
        let cut = (self.p as f64 * u32::MAX as f64) as u32;
        let mask: Vec<f32> = bits.iter().map(|&r| if r < cut { 0.0 } else { keep }).collect();
        let mask = Tensor::from_vec(mask, x.shape(), x.device())?;
        if fused::applies(x) { fused::mul_constant(x, mask) } else { x.mul(&mask) }
    }

    /// A uniform draw, for word dropout in batching.
    pub fn draw(&self) -> f32 {
        self.rng.borrow_mut().random::<f32>()
    }
}

/// Applies dropout when training.
pub fn drop(x: Tensor, dropout: Option<&Dropout>) -> Result<Tensor> {
    match dropout {
        Some(d) => d.apply(&x),
        None => Ok(x),
    }
}

/// A linear projection (candle's `Linear`, same parameters and initialisation) that can be
/// frozen for inference.
///
/// `Linear` multiplies by its weight transposed in place, a strided view that the matrix-product
/// kernel repacks on every call; for the decoder's one- or two-row steps that repacking costs more
/// than the product (12 µs instead of 3 for a 2×128 by 128×256 product on this machine). Frozen,
/// the layer keeps a contiguous transposed copy instead. Training never freezes: the optimiser
/// updates the weight itself, and a copy would go stale.
pub struct Dense {
    inner: Linear,
    transposed: Option<Tensor>,
    /// Once frozen: the transposed weight (input × output, row-major) and the bias read out, for
    /// [`small_product`].
    rows: Option<(Vec<f32>, Option<Vec<f32>>)>,
}

/// Row counts up to which a frozen projection multiplies with [`small_product`] rather than the
/// matrix-product kernel: decoding steps (one row a hypothesis) and short commands' encoder passes.
const SMALL_ROWS: usize = 32;

/// `x` (rows × input) times `weight_t` (input × output, row-major), plus `bias`. Each output row
/// starts at the bias and adds `x[i]` times weight row `i` for every input `i`: contiguous,
/// independent multiply-adds over the outputs, which the compiler turns into vector instructions.
/// For a handful of rows this beats the general kernel, whose packing and dispatch cost more than
/// the arithmetic.
///
/// The weights are read once for all rows (four weight rows at a time, in cache while every row
/// uses them): a decoder layer's weights outgrow the fastest caches, so a beam's hypotheses cost
/// little more than one.
pub fn small_product(x: &[f32], weight_t: &[f32], bias: Option<&[f32]>, input: usize) -> Vec<f32> {
    let input = input.max(1);
    let output = (weight_t.len() / input).max(1);
    let rows = x.len() / input;
    let mut out = match bias {
        Some(b) => b.repeat(rows),
        None => vec![0f32; rows * output],
    };
    let groups = weight_t.chunks_exact(4 * output);
    let rest = groups.remainder();
    for (g, w) in groups.enumerate() {
        let (w0, w) = w.split_at(output);
        let (w1, w) = w.split_at(output);
        let (w2, w3) = w.split_at(output);
        for (row, acc) in x.chunks_exact(input).zip(out.chunks_exact_mut(output)) {
            let x = &row[4 * g..4 * g + 4];
            for ((((o, a), b), c), e) in acc.iter_mut().zip(w0).zip(w1).zip(w2).zip(w3) {
                *o = x[3].mul_add(*e, x[2].mul_add(*c, x[1].mul_add(*b, x[0].mul_add(*a, *o))));
            }
        }
    }
    // The last inputs when their count is not a multiple of four.
    let first = input - rest.len() / output;
    for (i, w) in rest.chunks_exact(output).enumerate() {
        for (row, acc) in x.chunks_exact(input).zip(out.chunks_exact_mut(output)) {
            let xi = row[first + i];
            for (o, &wj) in acc.iter_mut().zip(w) {
                *o = xi.mul_add(wj, *o);
            }
        }
    }
    out
}

impl Dense {
    /// A projection with a bias.
    pub fn load(input: usize, output: usize, vb: VarBuilder) -> Result<Self> {
        Ok(Dense { inner: candle_nn::linear(input, output, vb)?, transposed: None, rows: None })
    }

    /// A projection without a bias.
    pub fn load_no_bias(input: usize, output: usize, vb: VarBuilder) -> Result<Self> {
        Ok(Dense { inner: candle_nn::linear_no_bias(input, output, vb)?, transposed: None, rows: None })
    }

    /// Keeps the transposed weight contiguous from now on (for inference only, see above).
    pub fn freeze(&mut self) -> Result<()> {
        self.transposed = Some(self.inner.weight().t()?.contiguous()?);
        let bias = self.inner.bias().map(|b| b.to_vec1()).transpose()?;
        self.rows = Some((self.inner.weight().t()?.flatten_all()?.to_vec1()?, bias));
        Ok(())
    }
}

impl Dense {
    /// The trainable projection: candle's `Linear`, but on the CPU the bias is added with
    /// [`fused::add_repeated`], whose gradient sums rows in one pass.
    fn forward_trainable(&self, x: &Tensor) -> Result<Tensor> {
        let Some(bias) = self.inner.bias().filter(|_| fused::applies(x)) else { return self.inner.forward(x) };
        let weight = self.inner.weight();
        let (output, input) = weight.dims2()?;
        let mut shape = x.dims().to_vec();
        if let Some(last) = shape.last_mut() {
            *last = output;
        }
        let y = x.reshape((x.elem_count() / input.max(1), input))?.matmul(&weight.t()?)?;
        fused::add_repeated(&y, bias)?.reshape(shape)
    }

    /// A frozen projection of `x` (rows × input, flat) on plain rows (see [`small_product`]).
    pub fn forward_rows(&self, x: &[f32]) -> Result<Vec<f32>> {
        let Some((w, b)) = &self.rows else { return Err(not_frozen()) };
        Ok(small_product(x, w, b.as_deref(), self.inner.weight().dim(1)?))
    }
}

fn not_frozen() -> candle_core::Error {
    candle_core::Error::Msg("a row-by-row forward needs a frozen layer (inference only)".into())
}

impl Module for Dense {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let Some(wt) = &self.transposed else { return self.forward_trainable(x) };
        // One 2-D product over every leading dimension, then the leading shape back.
        let dims = x.dims();
        let (input, output) = wt.dims2()?;
        let mut shape = dims.to_vec();
        if let Some(last) = shape.last_mut() {
            *last = output;
        }
        let rows = x.elem_count() / input.max(1);
        if let (Some((w, b)), true) = (&self.rows, rows <= SMALL_ROWS && x.device().is_cpu()) {
            let y = small_product(&x.flatten_all()?.to_vec1()?, w, b.as_deref(), input);
            return Tensor::from_vec(y, shape, x.device());
        }
        let y = x.reshape((rows, input))?.matmul(wt)?;
        let y = match self.inner.bias() {
            Some(bias) => y.broadcast_add(bias)?,
            None => y,
        };
        y.reshape(shape)
    }
}

/// The rows of `x` along its last dimension, read out (a copy), mapped by `f` one row at a time
/// and put back in the same shape.
///
/// For inference on the small tensors of a decoding step: one pass over a few hundred numbers
/// beats a chain of tensor ops (each allocates, and broadcasting ones walk strided indices), and
/// candle's fused CPU kernels hand even a single row over to the thread pool (about 15 µs here).
pub fn map_rows(x: &Tensor, f: impl Fn(&[f32], &mut [f32])) -> Result<Tensor> {
    let d = x.dim(D::Minus1)?;
    let data = x.flatten_all()?.to_vec1::<f32>()?;
    let mut out = vec![0f32; data.len()];
    for (row, dst) in data.chunks_exact(d.max(1)).zip(out.chunks_exact_mut(d.max(1))) {
        f(row, dst);
    }
    Tensor::from_vec(out, x.shape(), x.device())
}

/// Layer normalisation of each row (inference; see [`map_rows`]).
pub fn layer_norm_rows(x: &Tensor, weight: &[f32], bias: &[f32], eps: f32) -> Result<Tensor> {
    map_rows(x, |row, dst| layer_norm_row(row, dst, weight, bias, eps))
}

/// Layer normalisation of one row into `dst`.
fn layer_norm_row(row: &[f32], dst: &mut [f32], weight: &[f32], bias: &[f32], eps: f32) {
    let n = row.len() as f32;
    let mean = row.iter().sum::<f32>() / n;
    let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
    let inv = 1.0 / (var + eps).sqrt();
    for (((o, v), w), b) in dst.iter_mut().zip(row).zip(weight).zip(bias) {
        *o = (v - mean) * inv * w + b;
    }
}

/// Softmax of one row in place.
fn softmax_in_place(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in row.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in row.iter_mut() {
        *v /= sum;
    }
}

/// Log-softmax of each `width`-long row of `x`: one vector per row.
pub fn log_softmax_rows(x: &[f32], width: usize) -> Vec<Vec<f32>> {
    x.chunks_exact(width.max(1))
        .map(|row| {
            let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let log_sum = row.iter().map(|v| (v - max).exp()).sum::<f32>().ln() + max;
            row.iter().map(|v| v - log_sum).collect()
        })
        .collect()
}

/// Softmax of each row (inference; see [`map_rows`]).
pub fn softmax_rows(x: &Tensor) -> Result<Tensor> {
    map_rows(x, |row, dst| {
        dst.copy_from_slice(row);
        softmax_in_place(dst);
    })
}

/// Layer normalisation over the last dimension.
pub struct LayerNorm {
    weight: Tensor,
    bias: Tensor,
    /// Added to the variance before its square root.
    eps: f32,
    /// The weight and bias read out, once frozen for inference.
    frozen: Option<(Vec<f32>, Vec<f32>)>,
}

/// The parser's own layer norms' `eps`.
const LAYER_NORM_EPS: f32 = 1e-5;

impl LayerNorm {
    pub fn load(dim: usize, vb: VarBuilder) -> Result<Self> {
        Self::load_eps(dim, LAYER_NORM_EPS, vb)
    }

    /// A layer norm with another `eps` (a pretrained model's own, e.g. BERT's 1e-12).
    pub fn load_eps(dim: usize, eps: f32, vb: VarBuilder) -> Result<Self> {
        Ok(LayerNorm {
            weight: vb.get_with_hints(dim, "weight", candle_nn::Init::Const(1.0))?,
            bias: vb.get_with_hints(dim, "bias", candle_nn::Init::Const(0.0))?,
            eps,
            frozen: None,
        })
    }

    /// Normalises row by row from now on (inference only: a trained weight would go stale).
    pub fn freeze(&mut self) -> Result<()> {
        self.frozen = Some((self.weight.to_vec1()?, self.bias.to_vec1()?));
        Ok(())
    }
}

impl LayerNorm {
    /// Frozen only: each `dim`-long row of `x` normalised.
    pub fn forward_rows(&self, x: &[f32]) -> Result<Vec<f32>> {
        let Some((w, b)) = &self.frozen else { return Err(not_frozen()) };
        let mut out = vec![0f32; x.len()];
        for (row, dst) in x.chunks_exact(w.len().max(1)).zip(out.chunks_exact_mut(w.len().max(1))) {
            layer_norm_row(row, dst, w, b, self.eps);
        }
        Ok(out)
    }
}

impl Module for LayerNorm {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        if let (Some((w, b)), true) = (&self.frozen, x.device().is_cpu()) {
            return layer_norm_rows(x, w, b, self.eps);
        }
        if fused::applies(x) {
            return fused::layer_norm(x, &self.weight, &self.bias, self.eps);
        }
        let mean = x.mean_keepdim(D::Minus1)?;
        let centred = x.broadcast_sub(&mean)?;
        let var = centred.sqr()?.mean_keepdim(D::Minus1)?;
        let normed = centred.broadcast_div(&(var + self.eps as f64)?.sqrt()?)?;
        normed.broadcast_mul(&self.weight)?.broadcast_add(&self.bias)
    }
}

/// Multi-head attention; queries from one sequence, keys and values from another (or the same).
/// Projections have no bias: summing bias gradients over every position is slow on CPU and the
/// layer norms already provide the offsets.
pub struct Attention {
    q: Dense,
    k: Dense,
    v: Dense,
    o: Dense,
    heads: usize,
    head_dim: usize,
    /// Once frozen for inference: the query, key and value weights side by side (D, 3·D), so
    /// self-attention projects in one product instead of three; and softmax row by row.
    fused_qkv: Option<Dense>,
}

impl Attention {
    pub fn load(dim: usize, heads: usize, vb: VarBuilder) -> Result<Self> {
        Ok(Attention {
            q: Dense::load_no_bias(dim, dim, vb.pp("q"))?,
            k: Dense::load_no_bias(dim, dim, vb.pp("k"))?,
            v: Dense::load_no_bias(dim, dim, vb.pp("v"))?,
            o: Dense::load_no_bias(dim, dim, vb.pp("o"))?,
            heads,
            head_dim: dim / heads,
            fused_qkv: None,
        })
    }

    pub fn freeze(&mut self) -> Result<()> {
        for p in [&mut self.q, &mut self.k, &mut self.v, &mut self.o] {
            p.freeze()?;
        }
        let w = |p: &Dense| p.inner.weight().clone();
        let qkv = Tensor::cat(&[&w(&self.q), &w(&self.k), &w(&self.v)], 0)?;
        let mut fused = Dense { inner: Linear::new(qkv, None), transposed: None, rows: None };
        fused.freeze()?;
        self.fused_qkv = Some(fused);
        Ok(())
    }

    /// (B, T, D) → (B, H, T, D/H).
    fn split(&self, x: &Tensor) -> Result<Tensor> {
        let (b, t, _) = x.dims3()?;
        x.reshape((b, t, self.heads, self.head_dim))?.transpose(1, 2)?.contiguous()
    }

    /// Keys and values of `x`, split into heads (what a cache stores).
    pub fn keys_values(&self, x: &Tensor) -> Result<(Tensor, Tensor)> {
        Ok((self.split(&self.k.forward(x)?)?, self.split(&self.v.forward(x)?)?))
    }

    /// Queries, keys and values of `x` (for self-attention), split into heads.
    pub fn queries_keys_values(&self, x: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
        let Some(qkv) = &self.fused_qkv else {
            let (k, v) = self.keys_values(x)?;
            return Ok((self.split(&self.q.forward(x)?)?, k, v));
        };
        let d = x.dim(2)?;
        let all = qkv.forward(x)?;
        let part = |i: usize| self.split(&all.narrow(2, i * d, d)?);
        Ok((part(0)?, part(1)?, part(2)?))
    }

    /// Attends from `x` to precomputed keys/values; `mask` is additive and broadcasts to
    /// (B, H, Tq, Tk).
    pub fn attend(&self, x: &Tensor, keys: &Tensor, values: &Tensor, mask: Option<&Tensor>) -> Result<Tensor> {
        self.attend_heads(&self.split(&self.q.forward(x)?)?, keys, values, mask)
    }

    /// Attends from queries already split into heads (B, H, Tq, D/H).
    pub fn attend_heads(&self, q: &Tensor, keys: &Tensor, values: &Tensor, mask: Option<&Tensor>) -> Result<Tensor> {
        let (b, _, t, _) = q.dims4()?;
        let mut scores = (q.matmul(&keys.t()?)? * (1.0 / (self.head_dim as f64).sqrt()))?;
        if let Some(mask) = mask {
            scores = if fused::applies(&scores) {
                fused::add_constant(&scores, mask)?
            } else {
                scores.broadcast_add(mask)?
            };
        }
        let probs = if self.fused_qkv.is_some() && scores.device().is_cpu() {
            softmax_rows(&scores)?
        } else {
            candle_nn::ops::softmax(&scores, D::Minus1)?
        };
        let out = probs.matmul(values)?.transpose(1, 2)?.reshape((b, t, self.heads * self.head_dim))?;
        self.o.forward(&out)
    }

    /// Frozen only, on plain rows (D wide, flat): each row's query, key and value side by side
    /// (3·D wide).
    pub fn queries_keys_values_rows(&self, x: &[f32]) -> Result<Vec<f32>> {
        self.fused_qkv.as_ref().ok_or_else(not_frozen)?.forward_rows(x)
    }

    /// Frozen only: the keys and the values of rows `x`.
    pub fn keys_values_rows(&self, x: &[f32]) -> Result<(Vec<f32>, Vec<f32>)> {
        Ok((self.k.forward_rows(x)?, self.v.forward_rows(x)?))
    }

    /// Frozen only: the queries of rows `x`.
    pub fn queries_rows(&self, x: &[f32]) -> Result<Vec<f32>> {
        self.q.forward_rows(x)
    }

    /// Frozen only: every query row (heads side by side) attends to the same `keys` and `values`
    /// (one D-wide row per position), then the output projection.
    pub fn attend_rows(&self, queries: &[f32], keys: &[f32], values: &[f32]) -> Result<Vec<f32>> {
        self.project_rows(&self.mix_rows(queries, keys, values))
    }

    /// Frozen only: the output projection of mixed values (see [`Attention::mix_rows`]).
    pub fn project_rows(&self, mixed: &[f32]) -> Result<Vec<f32>> {
        self.o.forward_rows(mixed)
    }

    /// Every query row's mix of `values`, head by head, weighted by the softmax of its scaled dot
    /// products with `keys` (one D-wide row per position): attention before the output projection.
    pub fn mix_rows(&self, queries: &[f32], keys: &[f32], values: &[f32]) -> Vec<f32> {
        let d = self.heads * self.head_dim;
        let scale = 1.0 / (self.head_dim as f32).sqrt();
        let mut mixed = vec![0f32; queries.len()];
        let mut weights = vec![0f32; keys.len() / d.max(1)];
        for (q, out) in queries.chunks_exact(d.max(1)).zip(mixed.chunks_exact_mut(d.max(1))) {
            for h in 0..self.heads {
                let part = h * self.head_dim..(h + 1) * self.head_dim;
                for (w, key) in weights.iter_mut().zip(keys.chunks_exact(d)) {
                    *w = q[part.clone()].iter().zip(&key[part.clone()]).map(|(a, b)| a * b).sum::<f32>() * scale;
                }
                softmax_in_place(&mut weights);
                for (&w, value) in weights.iter().zip(values.chunks_exact(d)) {
                    for (o, v) in out[part.clone()].iter_mut().zip(&value[part.clone()]) {
                        *o = w.mul_add(*v, *o);
                    }
                }
            }
        }
        mixed
    }

    pub fn forward(&self, x: &Tensor, memory: &Tensor, mask: Option<&Tensor>) -> Result<Tensor> {
        let (k, v) = self.keys_values(memory)?;
        self.attend(x, &k, &v, mask)
    }

    /// Self-attention of `x`.
    pub fn self_attend(&self, x: &Tensor, mask: Option<&Tensor>) -> Result<Tensor> {
        let (q, k, v) = self.queries_keys_values(x)?;
        self.attend_heads(&q, &k, &v, mask)
    }
}

/// Position-wise feed-forward block with a ReLU (cheap on CPU).
pub struct FeedForward {
    up: Dense,
    down: Dense,
}

impl FeedForward {
    pub fn load(dim: usize, hidden: usize, vb: VarBuilder) -> Result<Self> {
        Ok(FeedForward {
            up: Dense::load_no_bias(dim, hidden, vb.pp("up"))?,
            down: Dense::load_no_bias(hidden, dim, vb.pp("down"))?,
        })
    }

    pub fn freeze(&mut self) -> Result<()> {
        self.up.freeze()?;
        self.down.freeze()
    }

    /// Frozen only, on plain rows.
    pub fn forward_rows(&self, x: &[f32]) -> Result<Vec<f32>> {
        let mut h = self.up.forward_rows(x)?;
        h.iter_mut().for_each(|v| *v = v.max(0.0));
        self.down.forward_rows(&h)
    }

    pub fn forward(&self, x: &Tensor, dropout: Option<&Dropout>) -> Result<Tensor> {
        let h = drop(self.up.forward(x)?.relu()?, dropout)?;
        self.down.forward(&h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_product_is_the_matrix_product() {
        // Input widths with and without a multiple of four, one row and several.
        for (rows, input, output) in [(1, 8, 5), (3, 7, 4), (2, 1, 3), (5, 13, 9)] {
            let x: Vec<f32> = (0..rows * input).map(|i| ((i * 7 % 11) as f32 - 5.0) / 3.0).collect();
            let w: Vec<f32> = (0..input * output).map(|i| ((i * 5 % 13) as f32 - 6.0) / 4.0).collect();
            let bias: Vec<f32> = (0..output).map(|j| j as f32 / 2.0).collect();
            let got = small_product(&x, &w, Some(&bias), input);
            for r in 0..rows {
                for j in 0..output {
                    let want: f32 = bias[j] + (0..input).map(|i| x[r * input + i] * w[i * output + j]).sum::<f32>();
                    assert!((got[r * output + j] - want).abs() < 1e-4, "{rows}×{input}×{output} at ({r}, {j})");
                }
            }
            assert_eq!(small_product(&x, &w, None, input).len(), rows * output);
        }
    }

    #[test]
    fn log_softmax_rows_sum_to_one() {
        let rows = log_softmax_rows(&[1.0, 2.0, 3.0, -1e9, 0.0, 0.0], 3);
        assert_eq!(rows.len(), 2);
        for row in rows {
            assert!((row.iter().map(|v| v.exp()).sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }
}
