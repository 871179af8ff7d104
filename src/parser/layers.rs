//! Transformer building blocks written with plain tensor ops so every one has a gradient on CPU:
//! layer norm, multi-head attention (with a key/value cache for step-by-step decoding), the
//! feed-forward block, and a seeded dropout (candle's own dropout draws from an unseeded RNG, which
//! would make training runs differ).

use std::cell::RefCell;

use candle_core::{D, Module, Result, Tensor};
use candle_nn::{Linear, VarBuilder, linear_no_bias as linear};
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

/// Layer normalisation over the last dimension.
pub struct LayerNorm {
    weight: Tensor,
    bias: Tensor,
}

impl LayerNorm {
    pub fn load(dim: usize, vb: VarBuilder) -> Result<Self> {
        Ok(LayerNorm {
            weight: vb.get_with_hints(dim, "weight", candle_nn::Init::Const(1.0))?,
            bias: vb.get_with_hints(dim, "bias", candle_nn::Init::Const(0.0))?,
        })
    }
}

impl Module for LayerNorm {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let mean = x.mean_keepdim(D::Minus1)?;
        let centred = x.broadcast_sub(&mean)?;
        let var = centred.sqr()?.mean_keepdim(D::Minus1)?;
        let normed = centred.broadcast_div(&(var + 1e-5)?.sqrt()?)?;
        normed.broadcast_mul(&self.weight)?.broadcast_add(&self.bias)
    }
}

/// Multi-head attention; queries from one sequence, keys and values from another (or the same).
/// Projections have no bias: summing bias gradients over every position is slow on CPU and the
/// layer norms already provide the offsets.
pub struct Attention {
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    heads: usize,
    head_dim: usize,
}

impl Attention {
    pub fn load(dim: usize, heads: usize, vb: VarBuilder) -> Result<Self> {
        Ok(Attention {
            q: linear(dim, dim, vb.pp("q"))?,
            k: linear(dim, dim, vb.pp("k"))?,
            v: linear(dim, dim, vb.pp("v"))?,
            o: linear(dim, dim, vb.pp("o"))?,
            heads,
            head_dim: dim / heads,
        })
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

    /// Attends from `x` to precomputed keys/values; `mask` is additive and broadcasts to
    /// (B, H, Tq, Tk).
    pub fn attend(&self, x: &Tensor, keys: &Tensor, values: &Tensor, mask: Option<&Tensor>) -> Result<Tensor> {
        let (b, t, d) = x.dims3()?;
        let q = self.split(&self.q.forward(x)?)?;
        let mut scores = (q.matmul(&keys.t()?)? * (1.0 / (self.head_dim as f64).sqrt()))?;
        if let Some(mask) = mask {
            scores = scores.broadcast_add(mask)?;
        }
        let probs = candle_nn::ops::softmax(&scores, D::Minus1)?;
        let out = probs.matmul(values)?.transpose(1, 2)?.reshape((b, t, d))?;
        self.o.forward(&out)
    }

    pub fn forward(&self, x: &Tensor, memory: &Tensor, mask: Option<&Tensor>) -> Result<Tensor> {
        let (k, v) = self.keys_values(memory)?;
        self.attend(x, &k, &v, mask)
    }
}

/// Position-wise feed-forward block with a ReLU (cheap on CPU).
pub struct FeedForward {
    up: Linear,
    down: Linear,
}

impl FeedForward {
    pub fn load(dim: usize, hidden: usize, vb: VarBuilder) -> Result<Self> {
        Ok(FeedForward { up: linear(dim, hidden, vb.pp("up"))?, down: linear(hidden, dim, vb.pp("down"))? })
    }

    pub fn forward(&self, x: &Tensor, dropout: Option<&Dropout>) -> Result<Tensor> {
        let h = drop(self.up.forward(x)?.relu()?, dropout)?;
        self.down.forward(&h)
    }
}
