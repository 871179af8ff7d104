//! AdamW with a state that can be saved and loaded, so a paused training run resumes exactly.
//!
//! AdamW moves each weight by its gradient's running mean divided by the root of its running mean
//! square (the two "moments"), both corrected for starting at zero, and decays the weight a little.
//! Those moments are most of what the optimizer knows about the run: candle-nn's `AdamW` keeps them
//! private, so a run resumed from a checkpoint used to start them from zero again, and its first
//! steps after the pause were the rough, nearly sign-of-the-gradient steps of a fresh start. Here
//! the moments and the step count are tensors by variable name: [`AdamW::save`] writes them beside
//! the weights and [`AdamW::load`] puts them back, so a long run (four hours a network with tuned
//! features on this CPU) can be trained in parts (`craftmate train --pause-after N`, then
//! `--resume`) and end with the weights of one uninterrupted run.
//!
//! The update is candle-nn's, operation for operation, so a run from scratch trains exactly as it
//! did before this optimizer replaced it (a unit test compares the two).

use std::collections::HashMap;
use std::path::Path;

use candle_core::backprop::GradStore;
use candle_core::{Device, Tensor, Var};
use candle_nn::{ParamsAdamW, VarMap};

use crate::parser::{ParserError, Result};

/// The name of the step count in a saved state (moments are `m.NAME` and `v.NAME`).
const STEP: &str = "step";

/// One variable with its two moment estimates.
struct Slot {
    name: String,
    var: Var,
    /// The running mean of the gradient.
    m: Tensor,
    /// The running mean of the squared gradient.
    v: Tensor,
}

/// AdamW over the variables of a [`VarMap`], with savable moments.
pub struct AdamW {
    /// By name, so a saved state lines up with the variables whatever the map's order.
    slots: Vec<Slot>,
    /// Steps taken so far (the moments' bias correction depends on it).
    step: usize,
    params: ParamsAdamW,
}

impl AdamW {
    /// An optimizer for every float variable of `varmap` as it is now, moments at zero.
    pub fn new(varmap: &VarMap, params: ParamsAdamW) -> Result<Self> {
        let data = varmap.data().lock().map_err(|_| ParserError::Data("variable map poisoned".into()))?;
        let mut slots = data
            .iter()
            .filter(|(_, var)| var.dtype().is_float())
            .map(|(name, var)| {
                let zeros = var.as_tensor().zeros_like()?;
                Ok(Slot { name: name.clone(), var: var.clone(), m: zeros.clone(), v: zeros })
            })
            .collect::<Result<Vec<_>>>()?;
        slots.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(AdamW { slots, step: 0, params })
    }

    pub fn learning_rate(&self) -> f64 {
        self.params.lr
    }

    pub fn set_learning_rate(&mut self, lr: f64) {
        self.params.lr = lr;
    }

    /// Steps taken so far.
    pub fn steps(&self) -> usize {
        self.step
    }

    /// One update from `grads`; variables without a gradient are left alone (their moments too).
    pub fn step(&mut self, grads: &GradStore) -> Result<()> {
        self.step += 1;
        let ParamsAdamW { lr, beta1, beta2, eps, weight_decay } = self.params;
        let scale_m = 1.0 / (1.0 - beta1.powi(self.step as i32));
        let scale_v = 1.0 / (1.0 - beta2.powi(self.step as i32));
        for slot in &mut self.slots {
            let Some(g) = grads.get(slot.var.as_tensor()) else { continue };
            let m = ((&slot.m * beta1)? + (g * (1.0 - beta1))?)?;
            let v = ((&slot.v * beta2)? + (g.sqr()? * (1.0 - beta2))?)?;
            let decayed = (slot.var.as_tensor() * (1.0 - lr * weight_decay))?;
            let adjusted = ((&m * scale_m)? / ((&v * scale_v)?.sqrt()? + eps)?)?;
            slot.var.set(&(decayed - (adjusted * lr)?)?)?;
            // Detached: the moments must not hold on to this step's autograd graph.
            (slot.m, slot.v) = (m.detach(), v.detach());
        }
        Ok(())
    }

    /// Writes the moments and the step count to `path` (safetensors).
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut tensors = HashMap::new();
        for slot in &self.slots {
            tensors.insert(format!("m.{}", slot.name), slot.m.clone());
            tensors.insert(format!("v.{}", slot.name), slot.v.clone());
        }
        tensors.insert(STEP.to_string(), Tensor::new(self.step as i64, &Device::Cpu)?);
        Ok(candle_core::safetensors::save(&tensors, path)?)
    }

    /// Puts back a state written by [`AdamW::save`] for the same variables. Refuses one that lacks
    /// a variable or gives it another shape (it belongs to another network), changing nothing.
    pub fn load(&mut self, path: &Path) -> Result<()> {
        let device = self.slots.first().map_or(Device::Cpu, |s| s.var.device().clone());
        let mut saved = candle_core::safetensors::load(path, &device)?;
        let bad = |what: String| ParserError::Data(format!("{}: {what}", path.display()));
        let step = saved.remove(STEP).ok_or_else(|| bad("no step count".into()))?.to_scalar::<i64>()?;
        let mut moments = Vec::with_capacity(self.slots.len());
        for slot in &self.slots {
            let mut take = |key: String| {
                let t = saved.remove(&key).ok_or_else(|| bad(format!("no {key}")))?;
                if t.shape() != slot.var.shape() {
                    return Err(bad(format!("{key} is {:?}, the variable {:?}", t.shape(), slot.var.shape())));
                }
                Ok(t.to_dtype(slot.var.dtype())?)
            };
            moments.push((take(format!("m.{}", slot.name))?, take(format!("v.{}", slot.name))?));
        }
        if let Some(extra) = saved.keys().next() {
            return Err(bad(format!("{extra} is not a variable of this network")));
        }
        for (slot, (m, v)) in self.slots.iter_mut().zip(moments) {
            (slot.m, slot.v) = (m, v);
        }
        self.step = usize::try_from(step).map_err(|_| bad(format!("step count {step}")))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::DType;
    use candle_nn::{Init, Optimizer};

    fn params() -> ParamsAdamW {
        ParamsAdamW { lr: 0.05, weight_decay: 0.01, ..Default::default() }
    }

    /// Two variables with seeded values, in a fresh map.
    fn varmap() -> VarMap {
        let map = VarMap::new();
        let w = Tensor::new(&[[0.5f32, -1.0, 2.0], [0.1, 0.3, -0.7]], &Device::Cpu).unwrap();
        map.data().lock().unwrap().insert("w".into(), Var::from_tensor(&w).unwrap());
        let b = Tensor::new(&[0.2f32, -0.4], &Device::Cpu).unwrap();
        map.data().lock().unwrap().insert("b".into(), Var::from_tensor(&b).unwrap());
        map
    }

    /// A loss whose gradient changes with the weights: sum((w·x + b − y)²) for a batch that depends
    /// on the step, so the moments carry real history.
    fn grads(map: &VarMap, step: usize) -> GradStore {
        let data = map.data().lock().unwrap();
        let (w, b) = (data["w"].as_tensor(), data["b"].as_tensor());
        let x = Tensor::new(&[1.0f32, step as f32 * 0.3 - 1.0, 0.5], &Device::Cpu).unwrap().reshape((3, 1)).unwrap();
        let y = Tensor::new(&[1.0f32, -2.0], &Device::Cpu).unwrap();
        let out = w.matmul(&x).unwrap().squeeze(1).unwrap();
        let loss = (out + b).unwrap().sub(&y).unwrap().sqr().unwrap().sum_all().unwrap();
        loss.backward().unwrap()
    }

    fn values(map: &VarMap) -> Vec<f32> {
        let data = map.data().lock().unwrap();
        ["b", "w"].iter().flat_map(|k| data[*k].as_tensor().flatten_all().unwrap().to_vec1::<f32>().unwrap()).collect()
    }

    #[test]
    fn it_updates_exactly_as_candles_adamw() {
        let (ours, theirs) = (varmap(), varmap());
        let mut a = AdamW::new(&ours, params()).unwrap();
        let mut b = candle_nn::AdamW::new(theirs.all_vars(), params()).unwrap();
        for step in 0..6 {
            a.step(&grads(&ours, step)).unwrap();
            b.step(&grads(&theirs, step)).unwrap();
        }
        assert_eq!(values(&ours), values(&theirs));
        assert_eq!(a.steps(), 6);
    }

    #[test]
    fn a_saved_state_resumes_the_same_steps_and_a_missing_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("optimizer.safetensors");
        let straight = varmap();
        let mut opt = AdamW::new(&straight, params()).unwrap();
        for step in 0..3 {
            opt.step(&grads(&straight, step)).unwrap();
        }
        opt.save(&path).unwrap();
        let paused = varmap();
        for (name, var) in paused.data().lock().unwrap().iter() {
            var.set(straight.data().lock().unwrap()[name].as_tensor()).unwrap();
        }
        for step in 3..6 {
            opt.step(&grads(&straight, step)).unwrap();
        }

        // Resumed from the saved state: the same weights as the run that never stopped.
        let restarted = varmap();
        for (name, var) in restarted.data().lock().unwrap().iter() {
            var.set(paused.data().lock().unwrap()[name].as_tensor()).unwrap();
        }
        let mut resumed = AdamW::new(&paused, params()).unwrap();
        resumed.load(&path).unwrap();
        assert_eq!(resumed.steps(), 3);
        for step in 3..6 {
            resumed.step(&grads(&paused, step)).unwrap();
        }
        assert_eq!(values(&paused), values(&straight));

        // Moments from zero (the old resume): the same weights, three steps later, differ.
        let mut fresh = AdamW::new(&restarted, params()).unwrap();
        for step in 3..6 {
            fresh.step(&grads(&restarted, step)).unwrap();
        }
        let gap = values(&restarted).iter().zip(values(&straight)).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(gap > 1e-3, "a fresh optimizer should take other steps (gap {gap})");
    }

    #[test]
    fn a_state_for_other_variables_is_refused_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("optimizer.safetensors");
        let other = VarMap::new();
        other.get((3, 2), "w", Init::Const(1.0), DType::F32, &Device::Cpu).unwrap();
        other.get(2, "b", Init::Const(1.0), DType::F32, &Device::Cpu).unwrap();
        let mut theirs = AdamW::new(&other, params()).unwrap();
        theirs.step(&grads_for_other(&other)).unwrap();
        theirs.save(&path).unwrap();

        let map = varmap();
        let mut opt = AdamW::new(&map, params()).unwrap();
        let err = opt.load(&path).unwrap_err().to_string();
        assert!(err.contains("m.w") || err.contains("v.w"), "{err}");
        assert_eq!(opt.steps(), 0);

        // Missing variables are named too.
        let lone = VarMap::new();
        lone.get(2, "b", Init::Const(1.0), DType::F32, &Device::Cpu).unwrap();
        AdamW::new(&lone, params()).unwrap().save(&path).unwrap();
        let err = opt.load(&path).unwrap_err().to_string();
        assert!(err.contains("no m.w"), "{err}");
        std::fs::write(&path, b"not safetensors").unwrap();
        assert!(opt.load(&path).is_err());
    }

    fn grads_for_other(map: &VarMap) -> GradStore {
        let data = map.data().lock().unwrap();
        let loss = (data["w"].as_tensor().sqr().unwrap().sum_all().unwrap() + data["b"].as_tensor().sum_all().unwrap())
            .unwrap();
        loss.backward().unwrap()
    }
}
