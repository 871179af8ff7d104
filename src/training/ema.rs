//! A running average of the weights while a network trains (an exponential moving average).
//!
//! Late in a run every step pulls the weights a little towards its own batch, so they wander
//! around a good region of the loss instead of settling in it; the average of the recent steps'
//! weights sits nearer the middle of that region and usually generalises better than the weights
//! of any one step (Polyak averaging). The mean of a run's best and last epochs, which
//! `average-models` makes, is a two-point version of the same idea; this one costs a pass over the
//! weights a step and needs no extra runs. The trainer validates the averaged weights beside the
//! trained ones and saves whichever it is asked to keep.

use std::path::Path;

use candle_core::{Tensor, Var};
use candle_nn::VarMap;

use crate::parser::{ParserError, Result};

/// The average of a network's weights over its training steps, recent steps weighing most.
pub struct WeightAverage {
    /// How much of the average each step keeps (0.999: about the last thousand steps count).
    decay: f64,
    /// Updates so far, for the warm-up of the decay (see [`WeightAverage::decay_now`]).
    updates: u64,
    /// Every variable with its averaged value, by name.
    vars: Vec<(String, Var, Tensor)>,
}

impl WeightAverage {
    /// Starts the average at the network's current weights, as if `updates` steps had been
    /// averaged already (a resumed run passes its step count, then [`WeightAverage::load`]s).
    pub fn new(varmap: &VarMap, decay: f64, updates: u64) -> Result<Self> {
        if !(0.0..1.0).contains(&decay) {
            return Err(ParserError::Data(format!("the averaging decay must be in [0, 1), not {decay}")));
        }
        let data = varmap.data().lock().map_err(|_| ParserError::Data("variable map poisoned".into()))?;
        let mut vars: Vec<(String, Var, Tensor)> = data
            .iter()
            .map(|(name, var)| Ok((name.clone(), var.clone(), var.as_tensor().detach().copy()?)))
            .collect::<candle_core::Result<_>>()?;
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(WeightAverage { decay, updates, vars })
    }

    /// The decay of the next update. It starts small and grows to `decay` ((1 + t) / (10 + t)
    /// after t updates), so the random first weights fade from the average within a few dozen steps
    /// instead of a few thousand.
    pub fn decay_now(&self) -> f64 {
        let t = self.updates as f64;
        self.decay.min((1.0 + t) / (10.0 + t))
    }

    /// Folds the current weights in: average ← d · average + (1 − d) · weights.
    pub fn update(&mut self) -> Result<()> {
        let d = self.decay_now();
        for (_, var, avg) in &mut self.vars {
            // Detached, so the average never joins the autograd graph of the next step.
            let w = var.as_tensor().detach();
            *avg = (avg.affine(d, 0.0)? + w.affine(1.0 - d, 0.0)?)?.detach();
        }
        self.updates += 1;
        Ok(())
    }

    /// Runs `f` with the averaged weights in the network, then puts the trained weights back
    /// (also when `f` fails), so training goes on exactly where it was.
    pub fn with_averaged<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let trained: Vec<Tensor> =
            self.vars.iter().map(|(_, var, _)| var.as_tensor().detach().copy()).collect::<candle_core::Result<_>>()?;
        for (_, var, avg) in &self.vars {
            var.set(avg)?;
        }
        let out = f();
        for ((_, var, _), w) in self.vars.iter().zip(&trained) {
            var.set(w)?;
        }
        out
    }

    /// Writes the averaged weights (the same names as the network's own weights file).
    pub fn save(&self, path: &Path) -> Result<()> {
        let tensors: std::collections::HashMap<String, Tensor> =
            self.vars.iter().map(|(name, _, avg)| (name.clone(), avg.clone())).collect();
        candle_core::safetensors::save(&tensors, path)?;
        Ok(())
    }

    /// Reads averaged weights written by [`WeightAverage::save`] (a resumed run's average).
    pub fn load(&mut self, path: &Path) -> Result<()> {
        let device = self.vars.first().map(|(_, v, _)| v.device().clone()).unwrap_or(candle_core::Device::Cpu);
        let mut saved = candle_core::safetensors::load(path, &device)?;
        for (name, var, avg) in &mut self.vars {
            let t = saved
                .remove(name.as_str())
                .ok_or_else(|| ParserError::Data(format!("{}: no averaged weights named {name}", path.display())))?;
            if t.dims() != var.dims() {
                return Err(ParserError::Data(format!("{}: {name} has another shape", path.display())));
            }
            *avg = t;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};

    fn one_var(value: f32) -> (VarMap, Var) {
        let varmap = VarMap::new();
        let var = Var::from_tensor(&Tensor::new(&[value], &Device::Cpu).unwrap()).unwrap();
        varmap.data().lock().unwrap().insert("w".into(), var.clone());
        (varmap, var)
    }

    fn avg_value(avg: &WeightAverage) -> f32 {
        avg.vars[0].2.to_vec1::<f32>().unwrap()[0]
    }

    /// Trains the one weight to `value` (as an optimizer step would).
    fn set(var: &Var, value: f32) {
        var.set(&Tensor::new(&[value], &Device::Cpu).unwrap()).unwrap();
    }

    /// The one weight as the network sees it.
    fn value(var: &Var) -> f32 {
        var.as_tensor().to_vec1::<f32>().unwrap()[0]
    }

    #[test]
    fn the_average_follows_the_weights_with_a_warming_decay() {
        let (varmap, var) = one_var(0.0);
        let mut avg = WeightAverage::new(&varmap, 0.99, 0).unwrap();
        // First update: decay min(0.99, 1/10) = 0.1, so the average moves 90 % of the way.
        assert!((avg.decay_now() - 0.1).abs() < 1e-12);
        set(&var, 10.0);
        avg.update().unwrap();
        assert!((avg_value(&avg) - 9.0).abs() < 1e-5, "{}", avg_value(&avg));
        // Much later the decay is the one asked for.
        let late = WeightAverage::new(&varmap, 0.99, 10_000).unwrap();
        assert!((late.decay_now() - 0.99).abs() < 1e-12);
    }

    #[test]
    fn averaged_weights_are_lent_to_the_network_and_given_back() {
        let (varmap, var) = one_var(1.0);
        let mut avg = WeightAverage::new(&varmap, 0.5, 1000).unwrap();
        set(&var, 3.0);
        avg.update().unwrap();
        let seen = avg.with_averaged(|| Ok(value(&var))).unwrap();
        assert_eq!(seen, 2.0, "the mean of 1 and 3 inside");
        assert_eq!(value(&var), 3.0, "the trained weight back after");
        // Also after a failure inside.
        let err = avg.with_averaged(|| -> Result<()> { Err(ParserError::Data("boom".into())) });
        assert!(err.is_err());
        assert_eq!(value(&var), 3.0);
    }

    #[test]
    fn a_saved_average_loads_back_and_a_bad_decay_is_refused() {
        let (varmap, var) = one_var(4.0);
        let mut avg = WeightAverage::new(&varmap, 0.9, 100).unwrap();
        set(&var, 0.0);
        avg.update().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("avg.safetensors");
        avg.save(&path).unwrap();
        let mut again = WeightAverage::new(&varmap, 0.9, 101).unwrap();
        assert_eq!(avg_value(&again), 0.0);
        again.load(&path).unwrap();
        assert!((avg_value(&again) - 3.6).abs() < 1e-5);
        assert_eq!(again.vars[0].2.dtype(), DType::F32);
        assert!(WeightAverage::new(&varmap, 1.0, 0).is_err());
    }
}
