//! Transformer building blocks written with plain tensor ops so every one has a gradient on CPU:
//! layer norm, multi-head attention (with a key/value cache for step-by-step decoding), the
//! feed-forward block, a projection that can be frozen for fast inference, and a seeded dropout
//! (candle's own dropout draws from an unseeded RNG, which would make training runs differ).

use std::cell::RefCell;

use candle_core::{D, Module, Result, Tensor};
use candle_nn::{Linear, VarBuilder};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

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
        let mut rng = self.rng.borrow_mut();
        let mask: Vec<f32> =
            (0..x.elem_count()).map(|_| if rng.random::<f32>() < self.p { 0.0 } else { keep }).collect();
        x.mul(&Tensor::from_vec(mask, x.shape(), x.device())?)
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
}

impl Dense {
    /// A projection with a bias.
    pub fn load(input: usize, output: usize, vb: VarBuilder) -> Result<Self> {
        Ok(Dense { inner: candle_nn::linear(input, output, vb)?, transposed: None })
    }

    /// A projection without a bias.
    pub fn load_no_bias(input: usize, output: usize, vb: VarBuilder) -> Result<Self> {
        Ok(Dense { inner: candle_nn::linear_no_bias(input, output, vb)?, transposed: None })
    }

    /// Keeps the transposed weight contiguous from now on (for inference only, see above).
    pub fn freeze(&mut self) -> Result<()> {
        self.transposed = Some(self.inner.weight().t()?.contiguous()?);
        Ok(())
    }
}

impl Module for Dense {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let Some(wt) = &self.transposed else { return self.inner.forward(x) };
        // One 2-D product over every leading dimension, then the leading shape back.
        let dims = x.dims();
        let (input, output) = wt.dims2()?;
        let mut shape = dims.to_vec();
        if let Some(last) = shape.last_mut() {
            *last = output;
        }
        let rows = x.elem_count() / input.max(1);
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
    map_rows(x, |row, dst| {
        let n = row.len() as f32;
        let mean = row.iter().sum::<f32>() / n;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
        let inv = 1.0 / (var + eps).sqrt();
        for (((o, v), w), b) in dst.iter_mut().zip(row).zip(weight).zip(bias) {
            *o = (v - mean) * inv * w + b;
        }
    })
}

/// Softmax of each row (inference; see [`map_rows`]).
pub fn softmax_rows(x: &Tensor) -> Result<Tensor> {
    map_rows(x, |row, dst| {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0;
        for (o, v) in dst.iter_mut().zip(row) {
            *o = (v - max).exp();
            sum += *o;
        }
        for o in dst.iter_mut() {
            *o /= sum;
        }
    })
}

/// Layer normalisation over the last dimension.
pub struct LayerNorm {
    weight: Tensor,
    bias: Tensor,
    /// The weight and bias read out, once frozen for inference.
    frozen: Option<(Vec<f32>, Vec<f32>)>,
}

/// Added to the variance before its square root.
const LAYER_NORM_EPS: f32 = 1e-5;

impl LayerNorm {
    pub fn load(dim: usize, vb: VarBuilder) -> Result<Self> {
        Ok(LayerNorm {
            weight: vb.get_with_hints(dim, "weight", candle_nn::Init::Const(1.0))?,
            bias: vb.get_with_hints(dim, "bias", candle_nn::Init::Const(0.0))?,
            frozen: None,
        })
    }

    /// Normalises row by row from now on (inference only: a trained weight would go stale).
    pub fn freeze(&mut self) -> Result<()> {
        self.frozen = Some((self.weight.to_vec1()?, self.bias.to_vec1()?));
        Ok(())
    }
}

impl Module for LayerNorm {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        if let (Some((w, b)), true) = (&self.frozen, x.device().is_cpu()) {
            return layer_norm_rows(x, w, b, LAYER_NORM_EPS);
        }
        let mean = x.mean_keepdim(D::Minus1)?;
        let centred = x.broadcast_sub(&mean)?;
        let var = centred.sqr()?.mean_keepdim(D::Minus1)?;
        let normed = centred.broadcast_div(&(var + LAYER_NORM_EPS as f64)?.sqrt()?)?;
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
    fused_qkv: Option<Tensor>,
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
        let t = |p: &Dense| p.inner.weight().t();
        self.fused_qkv = Some(Tensor::cat(&[&t(&self.q)?, &t(&self.k)?, &t(&self.v)?], 1)?.contiguous()?);
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
        let (b, t, d) = x.dims3()?;
        let all = x.reshape((b * t, d))?.matmul(qkv)?;
        let part = |i: usize| self.split(&all.narrow(1, i * d, d)?.reshape((b, t, d))?);
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
            scores = scores.broadcast_add(mask)?;
        }
        let probs = if self.fused_qkv.is_some() && scores.device().is_cpu() {
            softmax_rows(&scores)?
        } else {
            candle_nn::ops::softmax(&scores, D::Minus1)?
        };
        let out = probs.matmul(values)?.transpose(1, 2)?.reshape((b, t, self.heads * self.head_dim))?;
        self.o.forward(&out)
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

    pub fn forward(&self, x: &Tensor, dropout: Option<&Dropout>) -> Result<Tensor> {
        let h = drop(self.up.forward(x)?.relu()?, dropout)?;
        self.down.forward(&h)
    }
}
