//! Fine-tuning the pretrained word features: the BERT's layers trained together with the parser
//! instead of frozen (`craftmate train --tune-features LR`).
//!
//! Why: frozen, the BERT gives every word the vector its own pretraining taught it; trained with
//! the parser, its layers can bend those vectors towards what a command needs (which words name a
//! block type, where a location phrase ends). CraftAssist's parser gained about ten points from
//! fine-tuning its pretrained encoder. Only the layers are trained: the word-piece embeddings are
//! most of the weights and the chat lines reach a fraction of their rows, so they stay as packed,
//! and the features directory keeps its size.
//!
//! Cost: the BERT runs forward and backward in every step (the frozen features are computed once
//! per sentence, [`super::trainer`]'s cache), several times the parser's own work on a CPU. The
//! layers train in f32 and are saved as int8 rows, the packed form parse time reads.
//!
//! Measured (session 25, `models/parser/CARD.md`): two 20-epoch networks from scratch scored
//! 2.3 and 3.1 points more than frozen-features controls of the same seeds (46.27 against
//! 44.02 %, 45.97 against 42.90 %), at 0.8–0.9 s a step on one thread against 0.2 s.

use std::path::Path;

use candle_core::{D, DType, Device, Module, Tensor, Var};
use candle_nn::{ParamsAdamW, VarBuilder, VarMap};

use super::adamw::AdamW;

use crate::parser::layers::{Dense, LayerNorm};
use crate::parser::pretrained::{Pieces, Unpacked, WordFeatures};
use crate::parser::{ParserError, Result, fused};

/// One post-norm BERT layer (the layout [`crate::parser::pretrained`] runs frozen), built from the
/// parser's own trainable layers.
struct Layer {
    query: Dense,
    key: Dense,
    value: Dense,
    attn_out: Dense,
    attn_norm: LayerNorm,
    up: Dense,
    down: Dense,
    out_norm: LayerNorm,
}

/// The features model with trainable layers, its optimizer and the frozen rest.
pub struct TunedFeatures {
    /// Every tensor of the model; the layers' entries are refreshed from the variables by
    /// [`TunedFeatures::snapshot`].
    model: Unpacked,
    /// The trained variables, under the model's own tensor names.
    varmap: VarMap,
    embedding_norm: LayerNorm,
    layers: Vec<Layer>,
    optimizer: AdamW,
    /// The BERT's peak learning rate (the schedule scales it with the parser's).
    peak_lr: f64,
}

/// Names of the tensors that train: everything inside the encoder layers.
fn trains(name: &str) -> bool {
    name.starts_with("encoder.layer.")
}

impl TunedFeatures {
    /// Makes the layers of `model` trainable, starting from their values, trained by AdamW with
    /// peak learning rate `lr`.
    pub fn new(model: Unpacked, lr: f64) -> Result<Self> {
        let varmap = VarMap::new();
        {
            let mut vars = varmap.data().lock().map_err(|_| ParserError::Data("variable map poisoned".into()))?;
            for (name, t) in model.tensors.iter().filter(|(name, _)| trains(name)) {
                vars.insert(name.clone(), Var::from_tensor(t)?);
            }
        }
        // The layers take their variables from the map (every name is there already, so nothing
        // is initialised afresh); the embeddings' norm reads the frozen tensors.
        let device = model.tensors.values().next().map_or(Device::Cpu, |t| t.device().clone());
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
        let cfg = &model.config;
        let (h, eps) = (cfg.hidden_size, cfg.layer_norm_eps as f32);
        let layers = (0..cfg.num_hidden_layers)
            .map(|i| {
                let vb = vb.pp(format!("encoder.layer.{i}"));
                Ok(Layer {
                    query: Dense::load(h, h, vb.pp("attention.self.query"))?,
                    key: Dense::load(h, h, vb.pp("attention.self.key"))?,
                    value: Dense::load(h, h, vb.pp("attention.self.value"))?,
                    attn_out: Dense::load(h, h, vb.pp("attention.output.dense"))?,
                    attn_norm: LayerNorm::load_eps(h, eps, vb.pp("attention.output.LayerNorm"))?,
                    up: Dense::load(h, cfg.intermediate_size, vb.pp("intermediate.dense"))?,
                    down: Dense::load(cfg.intermediate_size, h, vb.pp("output.dense"))?,
                    out_norm: LayerNorm::load_eps(h, eps, vb.pp("output.LayerNorm"))?,
                })
            })
            .collect::<Result<_>>()?;
        let frozen = VarBuilder::from_tensors(model.tensors.clone(), DType::F32, &device);
        let embedding_norm = LayerNorm::load_eps(h, eps, frozen.pp("embeddings.LayerNorm"))?;
        let params = ParamsAdamW { lr, weight_decay: 0.01, ..Default::default() };
        let optimizer = AdamW::new(&varmap, params)?;
        Ok(TunedFeatures { model, varmap, embedding_norm, layers, optimizer, peak_lr: lr })
    }

    /// The features of a batch (B, S, H), differentiable in the layers' weights.
    pub fn forward(&self, pieces: &Pieces) -> Result<Tensor> {
        let get = |name: &str| {
            self.model.tensors.get(name).ok_or_else(|| ParserError::Data(format!("the features model has no {name}")))
        };
        let cfg = &self.model.config;
        let (b, p) = pieces.ids.dims2()?;
        let h = cfg.hidden_size;
        let heads = cfg.num_attention_heads;
        let dh = h / heads;
        let word = get("embeddings.word_embeddings.weight")?;
        let x = word.index_select(&pieces.ids.flatten_all()?, 0)?.reshape((b, p, h))?;
        let x = x
            .broadcast_add(&get("embeddings.position_embeddings.weight")?.narrow(0, 0, p)?)?
            .broadcast_add(&get("embeddings.token_type_embeddings.weight")?.narrow(0, 0, 1)?)?;
        let mut x = self.embedding_norm.forward(&x)?;
        // Padding pieces are never attended to.
        let mask = ((pieces.attention.to_dtype(DType::F32)? - 1.0)? * 1e9)?.reshape((b, 1, 1, p))?;
        let scale = 1.0 / (dh as f64).sqrt();
        let split = |t: Tensor| -> Result<Tensor> { Ok(t.reshape((b, p, heads, dh))?.transpose(1, 2)?.contiguous()?) };
        for layer in &self.layers {
            let q = split(layer.query.forward(&x)?)?;
            let k = split(layer.key.forward(&x)?)?;
            let v = split(layer.value.forward(&x)?)?;
            let scores = (q.matmul(&k.t()?)? * scale)?;
            let scores = if fused::applies(&scores) {
                fused::add_constant(&scores, &mask)?
            } else {
                scores.broadcast_add(&mask)?
            };
            let probs = candle_nn::ops::softmax(&scores, D::Minus1)?;
            let ctx = probs.matmul(&v)?.transpose(1, 2)?.reshape((b, p, h))?;
            x = layer.attn_norm.forward(&(layer.attn_out.forward(&ctx)? + &x)?)?;
            let up = layer.up.forward(&x)?.gelu_erf()?;
            x = layer.out_norm.forward(&(layer.down.forward(&up)? + &x)?)?;
        }
        Ok(pieces.pool.matmul(&x)?)
    }

    /// One optimizer step on the layers from the gradients of the parser's loss, at the schedule's
    /// `fraction` of the peak learning rate.
    pub fn step(&mut self, grads: &candle_core::backprop::GradStore, fraction: f64) -> Result<()> {
        self.optimizer.set_learning_rate(self.peak_lr * fraction);
        self.optimizer.step(grads)
    }

    /// Copies the trained layers' current values into the model's tensors.
    fn snapshot(&mut self) -> Result<()> {
        let vars = self.varmap.data().lock().map_err(|_| ParserError::Data("variable map poisoned".into()))?;
        for (name, var) in vars.iter() {
            self.model.tensors.insert(name.clone(), var.as_tensor().detach().copy()?);
        }
        Ok(())
    }

    /// The features model as it is now, with parse time's 8-bit products (for validation).
    pub fn word_features(&mut self, device: &Device) -> Result<WordFeatures> {
        self.snapshot()?;
        self.model.word_features(device)
    }

    /// Writes the features model as it is now, packed, to `dir` (a model's `features/`).
    pub fn save_packed(&mut self, dir: &Path) -> Result<()> {
        self.snapshot()?;
        self.model.save_packed(dir)
    }

    /// Writes the trained layers in f32 (a resumable checkpoint).
    pub fn save_layers(&self, path: &Path) -> Result<()> {
        Ok(self.varmap.save(path)?)
    }

    /// Writes the layers' optimizer state (the rest of a resumable checkpoint).
    pub fn save_optimizer(&self, path: &Path) -> Result<()> {
        self.optimizer.save(path)
    }

    /// Sets the trained layers from a checkpoint written by [`TunedFeatures::save_layers`],
    /// and the optimizer's state when `optimizer` is given (else its moments start from zero).
    pub fn load_checkpoint(&mut self, path: &Path, optimizer: Option<&Path>) -> Result<()> {
        self.varmap.load(path)?;
        if let Some(optimizer) = optimizer {
            self.optimizer.load(optimizer)?;
        }
        self.snapshot()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::pretrained::{self, WEIGHTS_FILE};
    use candle_nn::VarBuilder;
    use candle_transformers::models::bert::BertModel;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    /// A tiny random BERT (the original, unpacked layout) and two rows of chat as its pieces.
    fn tiny() -> (tempfile::TempDir, Pieces) {
        let dir = tempfile::tempdir().unwrap();
        pretrained::write_tiny_bert(dir.path()).unwrap();
        let frozen = Unpacked::load_dir(dir.path(), &Device::Cpu).unwrap().word_features(&Device::Cpu).unwrap();
        let pieces = frozen.pieces(&[&words("build a red cube"), &words("build cars")]).unwrap();
        (dir, pieces)
    }

    fn relative_error(got: &Tensor, want: &Tensor) -> f32 {
        let sq = |t: &Tensor| t.sqr().unwrap().sum_all().unwrap().to_scalar::<f32>().unwrap();
        (sq(&(got - want).unwrap()) / sq(want)).sqrt()
    }

    #[test]
    fn untrained_the_tuned_features_are_the_reference_berts() {
        let (dir, pieces) = tiny();
        let model = Unpacked::load_dir(dir.path(), &Device::Cpu).unwrap();
        let reference =
            BertModel::load(VarBuilder::from_tensors(model.tensors.clone(), DType::F32, &Device::Cpu), &model.config)
                .unwrap();
        let hidden =
            reference.forward(&pieces.ids, &pieces.ids.zeros_like().unwrap(), Some(&pieces.attention)).unwrap();
        let want = pieces.pool.matmul(&hidden).unwrap();
        let mut tuned = TunedFeatures::new(model, 1e-3).unwrap();
        let got = tuned.forward(&pieces).unwrap();
        assert_eq!(got.dims(), &[2, 4, 32]);
        let exact = relative_error(&got, &want);
        assert!(exact < 1e-4, "differs from the reference BERT by {exact}");
        // What validation reads (8-bit products) is the same features to a few percent.
        let frozen = tuned.word_features(&Device::Cpu).unwrap();
        let q8 = relative_error(&frozen.features(&[&words("build a red cube"), &words("build cars")]).unwrap(), &want);
        assert!(q8 < 0.05, "8-bit features differ by {q8}");
    }

    #[test]
    fn steps_train_the_layers_only_and_saving_keeps_what_they_learned() {
        let (dir, pieces) = tiny();
        let mut tuned = TunedFeatures::new(Unpacked::load_dir(dir.path(), &Device::Cpu).unwrap(), 1e-2).unwrap();
        // Any loss of the features will do: pull them towards zero.
        let loss = |t: &TunedFeatures| t.forward(&pieces).unwrap().sqr().unwrap().mean_all().unwrap();
        let before = loss(&tuned).to_scalar::<f32>().unwrap();
        for _ in 0..5 {
            let grads = loss(&tuned).backward().unwrap();
            tuned.step(&grads, 1.0).unwrap();
        }
        let after = loss(&tuned).to_scalar::<f32>().unwrap();
        assert!(after < before * 0.9, "loss {before} -> {after}");
        // A zero fraction of the learning rate leaves everything where it is (AdamW's decay too).
        let grads = loss(&tuned).backward().unwrap();
        tuned.step(&grads, 0.0).unwrap();
        assert!((loss(&tuned).to_scalar::<f32>().unwrap() - after).abs() <= after * 1e-6);

        // Packed and read back as parse time reads it: the learned features, not the original's.
        let out = tempfile::tempdir().unwrap();
        tuned.save_packed(out.path()).unwrap();
        let rows = [words("build a red cube"), words("build cars")];
        let rows: Vec<&[String]> = rows.iter().map(Vec::as_slice).collect();
        let saved = WordFeatures::load_dir(out.path(), &Device::Cpu).unwrap().features(&rows).unwrap();
        let original = WordFeatures::load_dir(dir.path(), &Device::Cpu).unwrap().features(&rows).unwrap();
        let now = tuned.forward(&pieces).unwrap();
        // Read back with 8-bit products they differ from the f32 ones by 1–7 % (the tiny model's
        // weights are drawn at random, and tuning's outliers coarsen each row's int8 scale), while
        // the untuned original is about 100 % away: 15 % tells the two apart with room either way.
        let packed_error = relative_error(&saved, &now);
        assert!(packed_error < 0.15, "the saved features are not the tuned ones ({packed_error})");
        assert!(relative_error(&original, &now) > 0.1, "tuning changed nothing");
        // The word-piece embeddings are not trained.
        let load = |d: &Path| candle_core::safetensors::load(d.join(WEIGHTS_FILE), &Device::Cpu).unwrap();
        let (a, b) = (load(dir.path()), load(out.path()));
        let embeddings = Unpacked::load_dir(out.path(), &Device::Cpu).unwrap().tensors;
        let name = "embeddings.word_embeddings.weight";
        assert!(relative_error(&embeddings[name], &a[name]) < 0.01);
        assert!(b.contains_key("encoder.layer.0.attention.self.query.weight.q8"), "saved unpacked");

        // A checkpoint restores the layers exactly, and with the optimizer's state the next step too.
        let (ckpt, opt) = (out.path().join("tuned.safetensors"), out.path().join("tuned.optimizer.safetensors"));
        tuned.save_layers(&ckpt).unwrap();
        tuned.save_optimizer(&opt).unwrap();
        let mut again = TunedFeatures::new(Unpacked::load_dir(dir.path(), &Device::Cpu).unwrap(), 1e-2).unwrap();
        again.load_checkpoint(&ckpt, Some(&opt)).unwrap();
        assert!(relative_error(&again.forward(&pieces).unwrap(), &now) < 1e-6);
        for t in [&mut tuned, &mut again] {
            let grads = loss(t).backward().unwrap();
            t.step(&grads, 1.0).unwrap();
        }
        assert!(relative_error(&again.forward(&pieces).unwrap(), &tuned.forward(&pieces).unwrap()) < 1e-6);
    }
}
