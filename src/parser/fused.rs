//! Fused CPU operations with hand-written gradients, for training speed.
//!
//! candle differentiates each small operation a layer is built of, and on the CPU some of those
//! gradients cost far more than their arithmetic:
//! - a layer norm is nine operations (mean, subtract, square, mean, add, root, divide, scale,
//!   shift), each with its own gradient buffers;
//! - a broadcast addition (a bias, a table of position vectors) is differentiated by summing the
//!   gradient over the leading dimensions, one index division per element;
//! - a product with a constant mask (dropout) also computes the mask's gradient, which nothing
//!   reads, and so does an additive attention mask.
//!
//! A profile of a training step put those at a third of its time. The ops here compute the same
//! values in one pass each and return only the gradients that are needed. They take contiguous
//! f32 tensors on the CPU; the layers keep candle's plain operations on other devices, so a GPU
//! build trains as before.

use candle_core::{CpuStorage, CustomOp1, CustomOp2, CustomOp3, Error, Layout, Result, Shape, Storage, Tensor};

/// Whether the fused ops apply to `x` (they are CPU-only).
pub fn applies(x: &Tensor) -> bool {
    x.device().is_cpu() && x.dtype() == candle_core::DType::F32
}

/// Layer normalisation of each row of `x` (last dimension), scaled by `weight` and shifted by
/// `bias` (both as long as a row).
pub fn layer_norm(x: &Tensor, weight: &Tensor, bias: &Tensor, eps: f32) -> Result<Tensor> {
    x.contiguous()?.apply_op3(weight, bias, LayerNorm { eps })
}

/// `x + table`, where `table`'s shape is the trailing dimensions of `x`'s (a bias row, or a
/// (T, D) table of position vectors added to every sequence of a batch).
pub fn add_repeated(x: &Tensor, table: &Tensor) -> Result<Tensor> {
    let (tail, whole) = (table.dims(), x.dims());
    if tail.len() > whole.len() || whole[whole.len() - tail.len()..] != *tail {
        return Err(Error::Msg(format!("add_repeated: {:?} does not end with {:?}", whole, tail)));
    }
    x.contiguous()?.apply_op2(&table.contiguous()?, AddRepeated)
}

/// `x * mask` for a constant `mask` of the same shape (dropout): no gradient for the mask.
pub fn mul_constant(x: &Tensor, mask: Tensor) -> Result<Tensor> {
    if x.dims() != mask.dims() {
        return Err(Error::Msg(format!("mul_constant: {:?} and {:?}", x.dims(), mask.dims())));
    }
    x.contiguous()?.apply_op1(MulConstant { mask: mask.contiguous()? })
}

/// `x + mask` for a constant additive `mask` of the same rank whose dimensions are each 1 or
/// `x`'s, the last one `x`'s (attention masks): no gradient for the mask.
pub fn add_constant(x: &Tensor, mask: &Tensor) -> Result<Tensor> {
    let (xd, md) = (x.dims(), mask.dims());
    let fits = xd.len() == md.len() && xd.last() == md.last() && xd.iter().zip(md).all(|(&a, &b)| b == a || b == 1);
    if !fits {
        return Err(Error::Msg(format!("add_constant: a {:?} mask for {:?}", md, xd)));
    }
    x.contiguous()?.apply_op1(AddConstant { mask: mask.contiguous()? })
}

/// The contiguous f32 data of a CPU storage.
fn slice<'a>(storage: &'a CpuStorage, layout: &Layout) -> Result<&'a [f32]> {
    let CpuStorage::F32(data) = storage else { return Err(Error::Msg("fused ops take f32 tensors".into())) };
    let (start, end) =
        layout.contiguous_offsets().ok_or_else(|| Error::Msg("fused ops take contiguous tensors".into()))?;
    Ok(&data[start..end])
}

/// Runs `f` on a tensor's data (made contiguous first when it is not).
fn with_data<R>(t: &Tensor, f: impl FnOnce(&[f32]) -> Result<R>) -> Result<R> {
    let t = t.contiguous()?;
    let (storage, layout) = t.storage_and_layout();
    match &*storage {
        Storage::Cpu(cpu) => f(slice(cpu, layout)?),
        _ => Err(Error::Msg("fused ops run on the CPU only".into())),
    }
}

/// The sum of the `width`-long chunks of `data`: the gradient of something repeated along the
/// leading dimensions.
fn sum_chunks(data: &[f32], width: usize) -> Vec<f32> {
    let mut acc = vec![0f32; width];
    for chunk in data.chunks_exact(width.max(1)) {
        acc.iter_mut().zip(chunk).for_each(|(a, g)| *a += g);
    }
    acc
}

struct LayerNorm {
    eps: f32,
}

/// Mean and 1/standard deviation of a row.
fn moments(row: &[f32], eps: f32) -> (f32, f32) {
    let n = row.len() as f32;
    let mean = row.iter().sum::<f32>() / n;
    let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
    (mean, 1.0 / (var + eps).sqrt())
}

impl CustomOp3 for LayerNorm {
    fn name(&self) -> &'static str {
        "fused-layer-norm"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
        s3: &CpuStorage,
        l3: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let (x, w, b) = (slice(s1, l1)?, slice(s2, l2)?, slice(s3, l3)?);
        let d = w.len();
        if d == 0 || b.len() != d || x.len() % d != 0 {
            return Err(Error::Msg("fused layer norm: the weight and bias must be as long as a row".into()));
        }
        let mut out = vec![0f32; x.len()];
        for (row, dst) in x.chunks_exact(d).zip(out.chunks_exact_mut(d)) {
            let (mean, inv) = moments(row, self.eps);
            for (((o, v), w), b) in dst.iter_mut().zip(row).zip(w).zip(b) {
                *o = (v - mean) * inv * w + b;
            }
        }
        Ok((CpuStorage::F32(out), l1.shape().clone()))
    }

    /// With x̂ the normalised row and g = grad·weight: dx = inv·(g − mean(g) − x̂·mean(g·x̂)),
    /// dweight = Σ grad·x̂, dbias = Σ grad over the rows.
    fn bwd(
        &self,
        x: &Tensor,
        weight: &Tensor,
        _bias: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>, Option<Tensor>)> {
        let (dx, dw, db) = with_data(x, |x| {
            with_data(weight, |w| {
                with_data(grad, |grad| {
                    let d = w.len();
                    let (mut dx, mut dw, mut db) = (vec![0f32; x.len()], vec![0f32; d], vec![0f32; d]);
                    let mut xhat = vec![0f32; d];
                    let mut g = vec![0f32; d];
                    for ((row, gr), dst) in x.chunks_exact(d).zip(grad.chunks_exact(d)).zip(dx.chunks_exact_mut(d)) {
                        let (mean, inv) = moments(row, self.eps);
                        let (mut g_mean, mut gx_mean) = (0f32, 0f32);
                        for j in 0..d {
                            xhat[j] = (row[j] - mean) * inv;
                            g[j] = gr[j] * w[j];
                            g_mean += g[j];
                            gx_mean += g[j] * xhat[j];
                            dw[j] += gr[j] * xhat[j];
                            db[j] += gr[j];
                        }
                        let (g_mean, gx_mean) = (g_mean / d as f32, gx_mean / d as f32);
                        for j in 0..d {
                            dst[j] = inv * (g[j] - g_mean - xhat[j] * gx_mean);
                        }
                    }
                    Ok((dx, dw, db))
                })
            })
        })?;
        let dev = x.device();
        Ok((
            Some(Tensor::from_vec(dx, x.shape(), dev)?),
            Some(Tensor::from_vec(dw, weight.shape(), dev)?),
            Some(Tensor::from_vec(db, weight.shape(), dev)?),
        ))
    }
}

struct AddRepeated;

impl CustomOp2 for AddRepeated {
    fn name(&self) -> &'static str {
        "fused-add-repeated"
    }

    fn cpu_fwd(&self, s1: &CpuStorage, l1: &Layout, s2: &CpuStorage, l2: &Layout) -> Result<(CpuStorage, Shape)> {
        let (x, table) = (slice(s1, l1)?, slice(s2, l2)?);
        let mut out = x.to_vec();
        for chunk in out.chunks_exact_mut(table.len().max(1)) {
            chunk.iter_mut().zip(table).for_each(|(o, t)| *o += t);
        }
        Ok((CpuStorage::F32(out), l1.shape().clone()))
    }

    fn bwd(
        &self,
        _x: &Tensor,
        table: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>)> {
        let sums = with_data(grad, |g| Ok(sum_chunks(g, table.elem_count())))?;
        Ok((Some(grad.clone()), Some(Tensor::from_vec(sums, table.shape(), table.device())?)))
    }
}

struct MulConstant {
    mask: Tensor,
}

impl CustomOp1 for MulConstant {
    fn name(&self) -> &'static str {
        "fused-mul-constant"
    }

    fn cpu_fwd(&self, storage: &CpuStorage, layout: &Layout) -> Result<(CpuStorage, Shape)> {
        let x = slice(storage, layout)?;
        let out = with_data(&self.mask, |m| Ok(x.iter().zip(m).map(|(a, b)| a * b).collect::<Vec<f32>>()))?;
        Ok((CpuStorage::F32(out), layout.shape().clone()))
    }

    fn bwd(&self, _x: &Tensor, _res: &Tensor, grad: &Tensor) -> Result<Option<Tensor>> {
        Ok(Some(grad.mul(&self.mask)?))
    }
}

struct AddConstant {
    mask: Tensor,
}

impl CustomOp1 for AddConstant {
    fn name(&self) -> &'static str {
        "fused-add-constant"
    }

    fn cpu_fwd(&self, storage: &CpuStorage, layout: &Layout) -> Result<(CpuStorage, Shape)> {
        let x = slice(storage, layout)?;
        let (xd, md) = (layout.dims(), self.mask.dims());
        let width = xd.last().copied().unwrap_or(1).max(1);
        let mut out = x.to_vec();
        with_data(&self.mask, |mask| {
            for (r, row) in out.chunks_exact_mut(width).enumerate() {
                // The mask row under x's row r: its index along each leading dimension, 0 where
                // the mask has a single entry.
                let (mut rest, mut offset, mut stride) = (r, 0, width);
                for (&n, &m) in xd.iter().zip(md).rev().skip(1) {
                    if m != 1 {
                        offset += (rest % n) * stride;
                    }
                    rest /= n;
                    stride *= m;
                }
                row.iter_mut().zip(&mask[offset..offset + width]).for_each(|(o, m)| *o += m);
            }
            Ok(())
        })?;
        Ok((CpuStorage::F32(out), layout.shape().clone()))
    }

    fn bwd(&self, _x: &Tensor, _res: &Tensor, grad: &Tensor) -> Result<Option<Tensor>> {
        Ok(Some(grad.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{D, Device, Var};

    fn random(shape: &[usize], seed: u64) -> Tensor {
        let n: usize = shape.iter().product();
        // A fixed, varied sequence (no RNG needed): values in about [-2, 2].
        let data: Vec<f32> =
            (0..n).map(|i| (((i as u64 * 7919 + seed * 104729) % 1000) as f32 / 250.0) - 2.0).collect();
        Tensor::from_vec(data, shape, &Device::Cpu).unwrap()
    }

    fn close(a: &Tensor, b: &Tensor) {
        let diff = (a - b).unwrap().abs().unwrap().flatten_all().unwrap().max(0).unwrap().to_scalar::<f32>().unwrap();
        assert!(diff < 1e-4, "max difference {diff}");
    }

    /// The plain layer norm the fused one replaces.
    fn plain_layer_norm(x: &Tensor, w: &Tensor, b: &Tensor, eps: f64) -> Tensor {
        let mean = x.mean_keepdim(D::Minus1).unwrap();
        let centred = x.broadcast_sub(&mean).unwrap();
        let var = centred.sqr().unwrap().mean_keepdim(D::Minus1).unwrap();
        let normed = centred.broadcast_div(&(var + eps).unwrap().sqrt().unwrap()).unwrap();
        normed.broadcast_mul(w).unwrap().broadcast_add(b).unwrap()
    }

    /// Checks `fused` against `plain` on the values and on the gradients of every input, under a
    /// loss that weighs each output differently (so every gradient entry matters).
    fn same_values_and_gradients(
        inputs: &[Tensor],
        plain: impl Fn(&[Tensor]) -> Tensor,
        fused: impl Fn(&[Tensor]) -> Tensor,
    ) {
        let vars: Vec<Var> = inputs.iter().map(|t| Var::from_tensor(t).unwrap()).collect();
        let ts: Vec<Tensor> = vars.iter().map(|v| v.as_tensor().clone()).collect();
        let (p, f) = (plain(&ts), fused(&ts));
        close(&p, &f);
        let weights = random(p.dims(), 3);
        let gp = (&p * &weights).unwrap().sum_all().unwrap().backward().unwrap();
        let gf = (&f * &weights).unwrap().sum_all().unwrap().backward().unwrap();
        for t in &ts {
            close(gp.get(t).unwrap(), gf.get(t).unwrap());
        }
    }

    #[test]
    fn the_fused_layer_norm_matches_the_plain_one_and_its_gradients() {
        let inputs = [random(&[2, 3, 8], 1), random(&[8], 2), random(&[8], 4)];
        same_values_and_gradients(
            &inputs,
            |t| plain_layer_norm(&t[0], &t[1], &t[2], 1e-5),
            |t| layer_norm(&t[0], &t[1], &t[2], 1e-5).unwrap(),
        );
    }

    #[test]
    fn a_repeated_table_adds_like_a_broadcast_and_sums_its_gradient() {
        for table in [vec![5], vec![4, 5]] {
            let inputs = [random(&[3, 4, 5], 1), random(&table, 2)];
            same_values_and_gradients(
                &inputs,
                |t| t[0].broadcast_add(&t[1]).unwrap(),
                |t| add_repeated(&t[0], &t[1]).unwrap(),
            );
        }
        assert!(add_repeated(&random(&[3, 4, 5], 1), &random(&[4], 2)).is_err());
    }

    #[test]
    fn constant_masks_act_like_plain_products_and_sums() {
        let mask = random(&[3, 4, 5], 9);
        let inputs = [random(&[3, 4, 5], 1)];
        same_values_and_gradients(
            &inputs,
            |t| t[0].mul(&mask).unwrap(),
            |t| mul_constant(&t[0], mask.clone()).unwrap(),
        );
        for shape in [[3, 1, 1, 5], [1, 1, 4, 5], [3, 1, 4, 5], [3, 2, 4, 5]] {
            let mask = random(&shape, 5);
            let inputs = [random(&[3, 2, 4, 5], 1)];
            same_values_and_gradients(
                &inputs,
                |t| t[0].broadcast_add(&mask).unwrap(),
                |t| add_constant(&t[0], &mask).unwrap(),
            );
        }
        assert!(add_constant(&random(&[3, 2, 4, 5], 1), &random(&[3, 1, 1, 4], 2)).is_err());
        assert!(mul_constant(&random(&[3, 4], 1), random(&[4, 3], 2)).is_err());
    }
}
