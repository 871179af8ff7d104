//! The learning-rate schedule every training run follows.

/// The learning-rate schedule: a linear warm-up over half an epoch (at most 400 steps) to the
/// peak, then a linear decay to 10 % of it at the run's last step. It depends on the run's
/// length, so a resumed run given more epochs finds its rate moved (see [`resume_note`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Schedule {
    pub(crate) peak: f64,
    pub(crate) warmup: usize,
    pub(crate) total_steps: usize,
}

impl Schedule {
    pub(crate) fn new(peak: f64, batches_per_epoch: usize, epochs: usize) -> Self {
        Schedule {
            peak,
            warmup: (batches_per_epoch / 2).clamp(1, 400),
            total_steps: (batches_per_epoch * epochs).max(1),
        }
    }

    pub(crate) fn lr(&self, step: usize) -> f64 {
        if step < self.warmup {
            self.peak * (step + 1) as f64 / self.warmup as f64
        } else {
            let decayed = (step - self.warmup) as f64 / (self.total_steps.saturating_sub(self.warmup)).max(1) as f64;
            self.peak * (1.0 - 0.9 * decayed).max(0.1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_warms_up_to_its_peak_then_decays_to_a_tenth() {
        let s = Schedule::new(1e-3, 100, 10);
        assert_eq!(s.warmup, 50);
        assert!((s.lr(0) - 1e-3 / 50.0).abs() < 1e-12);
        assert!((s.lr(49) - 1e-3).abs() < 1e-12);
        assert!((s.lr(999) - 1e-4).abs() < 1e-6);
        let rates: Vec<f64> = (50..1000).map(|step| s.lr(step)).collect();
        assert!(rates.windows(2).all(|w| w[1] <= w[0]));
        // Steps past the plan stay at the floor rather than going negative.
        assert_eq!(s.lr(5000), 1e-4);
    }
}
