//! Half-size model files: a parser model directory copied with its networks' weights stored as
//! 16-bit floats (f16) instead of 32-bit ones.
//!
//! A network trains in f32, but parsing needs far fewer digits than that: f16 keeps about three
//! significant digits, and a weight rounded there moves the network's log-probabilities by much
//! less than the margins its decisions are made by. Stored in f16, each network's file is half
//! the size; the parser widens the weights back to f32 as it loads them, so it computes exactly
//! as before, only from rounded weights, and parses just as fast. This is what leaves the shipped
//! two-network ensemble room under the 25 MB budget.
//!
//! Only the networks' `model.safetensors` files change (the first network's and each partner's in
//! `partners/`). The pretrained word features in `features/` are already int8 with a scale per
//! row and are copied as they are, like every other file.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};

use super::model_dir::{ensure_new, write_checked};
use crate::parser::{ParserError, Result, WEIGHTS_FILE, partner_dirs};

/// What [`half_model`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Halved {
    /// How many networks' weight files were rewritten.
    pub networks: usize,
    /// Their bytes before and after.
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// Copies the model directory `dir` to `out` with every network's f32 weights stored as f16; other
/// files, and tensors of any other type, are copied as they are. The result is loaded once before
/// this returns, and `out` is removed if it would not load, so a broken model is never left
/// behind. `out` must not exist yet, or be empty: nothing already there is overwritten.
pub fn half_model(dir: &Path, out: &Path) -> Result<Halved> {
    let weights = dir.join(WEIGHTS_FILE);
    if !weights.is_file() {
        return Err(ParserError::Data(format!(
            "{} is not a parser model directory (no {WEIGHTS_FILE})",
            dir.display()
        )));
    }
    // Also refuses `out` = `dir`: check the copy before it replaces the original.
    ensure_new(out, "the half-size model")?;
    // The networks, as paths relative to `dir`: the first network's own, then each partner's.
    let mut networks = vec![PathBuf::new()];
    networks.extend(partner_dirs(dir)?.into_iter().filter_map(|p| p.strip_prefix(dir).ok().map(Path::to_path_buf)));
    // Listed before anything is written, so an `out` inside `dir` is not copied into itself.
    let files = files_under(dir, Path::new(""))?;
    write_checked(out, || {
        for file in &files {
            let to = out.join(file);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(ParserError::io(parent))?;
            }
            std::fs::copy(dir.join(file), &to).map_err(ParserError::io(&to))?;
        }
        let mut halved = Halved { networks: 0, bytes_before: 0, bytes_after: 0 };
        for network in &networks {
            let (from, to) = (dir.join(network).join(WEIGHTS_FILE), out.join(network).join(WEIGHTS_FILE));
            halved.bytes_before += std::fs::metadata(&from).map_err(ParserError::io(&from))?.len();
            let tensors = candle_core::safetensors::load(&from, &Device::Cpu)?
                .into_iter()
                .map(|(name, t)| Ok((name.clone(), halve(t, &from, &name)?)))
                .collect::<Result<std::collections::HashMap<_, _>>>()?;
            candle_core::safetensors::save(&tensors, &to)?;
            halved.bytes_after += std::fs::metadata(&to).map_err(ParserError::io(&to))?.len();
            halved.networks += 1;
        }
        Ok(halved)
    })
}

/// The largest finite f16 value: a weight beyond it would become infinite.
const F16_MAX: f32 = 65504.0;

/// Tensor `name` of weights file `file` as f16 if it is f32, else as it is; an error for a value
/// beyond f16's range.
fn halve(t: Tensor, file: &Path, name: &str) -> Result<Tensor> {
    if t.dtype() != DType::F32 {
        return Ok(t);
    }
    if t.abs()?.flatten_all()?.max(0)?.to_scalar::<f32>()? > F16_MAX {
        return Err(ParserError::Data(format!("{}: {name} has weights too large for f16", file.display())));
    }
    Ok(t.to_dtype(DType::F16)?)
}

/// The files under `dir`/`rel`, as paths relative to `dir`.
fn files_under(dir: &Path, rel: &Path) -> Result<Vec<PathBuf>> {
    let here = dir.join(rel);
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&here).map_err(ParserError::io(&here))? {
        let path = rel.join(entry.map_err(ParserError::io(&here))?.file_name());
        if dir.join(&path).is_dir() {
            files.extend(files_under(dir, &path)?);
        } else {
            files.push(path);
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_weights_become_f16_and_too_large_ones_are_refused() {
        let dev = Device::Cpu;
        let t = Tensor::new(&[0.5f32, -1.25, 3.0e-4, 60000.0], &dev).unwrap();
        let h = halve(t, Path::new("m"), "w").unwrap();
        assert_eq!(h.dtype(), DType::F16);
        let back = h.to_dtype(DType::F32).unwrap().to_vec1::<f32>().unwrap();
        assert_eq!(&back[..2], &[0.5, -1.25], "exact in f16");
        assert!((back[2] - 3.0e-4).abs() < 3.0e-4 * 1e-3, "{}", back[2]);
        let ids = Tensor::new(&[1u32, 2], &dev).unwrap();
        assert_eq!(halve(ids, Path::new("m"), "ids").unwrap().dtype(), DType::U32, "only f32 is halved");
        let big = Tensor::new(&[1.0f32, -7.0e4], &dev).unwrap();
        let err = halve(big, Path::new("m/model.safetensors"), "emb").unwrap_err().to_string();
        assert!(err.contains("emb has weights too large for f16"), "{err}");
    }
}
