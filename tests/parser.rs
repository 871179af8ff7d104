//! Parser tests: data loading and splitting, a tiny model's loss falling, decoding that always
//! validates (random and garbage input), and the shipped model holding its recorded score. (Over
//! 600 lines: the training tests share the tiny network's helpers, so they stay together.)

use std::path::Path;

use craftmate::logical_form::{normalize, validate};
use craftmate::parser::{NeuralParser, Parser};
use craftmate::training::data::{Example, Origin};
use craftmate::training::{average, checkpoint, data, eval, templates, trainer};

const ANNOTATED: &str = "../shared/data/annotated.txt";

fn shared_data() -> Option<&'static Path> {
    let path = Path::new(ANNOTATED);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipping: {ANNOTATED} not found");
        None
    }
}

#[test]
fn annotated_rows_load_and_split_by_unique_text() {
    let Some(path) = shared_data() else { return };
    let rows = data::load_annotated(path).unwrap();
    assert!(rows.len() > 9000, "{} rows", rows.len());
    let (train, valid) = data::split(rows.clone(), 0.1, 42);
    assert_eq!(train.len() + valid.len(), rows.len());
    let train_texts: std::collections::HashSet<String> = train.iter().map(|e| e.text()).collect();
    assert!(valid.iter().all(|e| !train_texts.contains(&e.text())));
    let (_, again) = data::split(rows, 0.1, 42);
    assert_eq!(valid.len(), again.len());
}

/// A network small enough to train in seconds in a test.
fn tiny_options() -> trainer::Options {
    trainer::Options {
        d_model: 32,
        heads: 2,
        d_ff: 64,
        encoder_layers: 1,
        decoder_layers: 1,
        trigram_buckets: 256,
        batch_size: 16,
        lr: 3e-3,
        dropout: 0.0,
        progress: false,
        ..Default::default()
    }
}

#[test]
fn a_tiny_model_trains_and_its_loss_falls() {
    let examples = templates::generate_from_dir(Path::new("data/templates"), 96, 3).unwrap();
    assert_eq!(examples.len(), 96);
    let opts = trainer::Options { epochs: 10, max_steps: Some(30), ..tiny_options() };
    let (parser, report) = trainer::train(&examples, &[], &opts, None, trainer::Start::Fresh).unwrap();
    let losses = &report.step_losses;
    let first: f32 = losses[..5].iter().sum::<f32>() / 5.0;
    let last: f32 = losses[losses.len() - 5..].iter().sum::<f32>() / 5.0;
    assert!(last < first * 0.7, "loss {first} -> {last}");
    // Even a barely trained model returns forms that validate.
    for ex in examples.iter().take(10) {
        let parsed = parser.parse(&ex.text());
        assert!(validate(&ex.text(), &parsed.lf).is_ok());
    }
}

/// The weights in a model directory's file `name`, flattened, by variable name.
fn weights(dir: &Path, name: &str) -> std::collections::BTreeMap<String, Vec<f32>> {
    let tensors = candle_core::safetensors::load(dir.join(name), &candle_core::Device::Cpu).unwrap();
    tensors.into_iter().map(|(k, t)| (k, t.flatten_all().unwrap().to_vec1::<f32>().unwrap())).collect()
}

#[test]
fn without_validation_rows_the_last_epoch_is_kept() {
    let examples = templates::generate_from_dir(Path::new("data/templates"), 32, 4).unwrap();
    let opts = trainer::Options { epochs: 3, ..tiny_options() };
    let dir = tempfile::tempdir().unwrap();
    let (_, report) = trainer::train(&examples, &[], &opts, Some(dir.path()), trainer::Start::Fresh).unwrap();
    assert_eq!(report.best_epoch, 3);
    assert_eq!(weights(dir.path(), "model.safetensors"), weights(dir.path(), "checkpoint.safetensors"));
}

/// Validating every 2nd epoch scores epochs 2, 4 and the last (5), and only those can be the best.
#[test]
fn validation_every_few_epochs_scores_those_epochs_and_the_last() {
    let examples = templates::generate_from_dir(Path::new("data/templates"), 32, 4).unwrap();
    let opts = trainer::Options { epochs: 5, valid_every: 2, ..tiny_options() };
    let (_, report) = trainer::train(&examples, &examples[..4], &opts, None, trainer::Start::Fresh).unwrap();
    assert_eq!(report.epoch_valid.len(), 3, "{:?}", report.epoch_valid);
    assert!([2, 4, 5].contains(&report.best_epoch), "best epoch {}", report.best_epoch);
}

#[test]
fn fine_tuning_starts_from_a_saved_model_and_grows_its_output_vocabulary() {
    let examples = templates::generate_from_dir(Path::new("data/templates"), 64, 5).unwrap();
    let opts = trainer::Options { epochs: 4, ..tiny_options() };
    let base = tempfile::tempdir().unwrap();
    trainer::train(&examples, &examples[..8], &opts, Some(base.path()), trainer::Start::Fresh).unwrap();
    let before = NeuralParser::load_dir(base.path()).unwrap();
    // New material: an unseen word (fine: [UNK] + trigrams), a valid form with a value the model
    // never had (its output vocabulary grows) and an invalid form (dropped, not a crash).
    let mut more = examples.clone();
    more.push(Example {
        words: vec!["build".into(), "a".into(), "zigurat".into()],
        json: serde_json::json!({"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "schematic": {"text_span": [0, [2, 2]]}}]}),
        origin: Origin::Other,
    });
    more.push(Example {
        words: ["when", "was", "that", "made"].map(String::from).to_vec(),
        json: serde_json::json!({"dialogue_type": "GET_MEMORY",
            "filters": {"contains_coreference": "yes", "output": {"attribute": "BORN_TIME"}}}),
        origin: Origin::Other,
    });
    more.push(Example {
        words: vec!["hello".into()],
        json: serde_json::json!({"dialogue_type": "NO_SUCH_TYPE"}),
        origin: Origin::Other,
    });
    assert!(!before.out.tokens.contains(&"v:BORN_TIME".to_string()));
    let tuned_dir = tempfile::tempdir().unwrap();
    let tune = trainer::Options { epochs: 1, lr: 1e-3, ..opts };
    let (tuned, report) =
        trainer::train(&more, &[], &tune, Some(tuned_dir.path()), trainer::Start::From(base.path())).unwrap();
    assert_eq!(report.train_examples, examples.len() + 2, "the invalid form is dropped");
    assert_eq!(tuned.words.size, before.words.size);
    // The old output tokens keep their ids; the new value is appended, and the saved model loads.
    assert!(tuned.out.tokens.starts_with(&before.out.tokens));
    assert_eq!(&tuned.out.tokens[before.out.len()..], ["v:BORN_TIME"]);
    let reloaded = NeuralParser::load_dir(tuned_dir.path()).unwrap();
    assert_eq!(reloaded.out.tokens, tuned.out.tokens);
    // Training went on from the saved weights: the first fine-tuning losses are already low.
    let (_, fresh) = trainer::train(&more, &[], &tune, None, trainer::Start::Fresh).unwrap();
    assert!(report.step_losses[0] < fresh.step_losses[0], "{} vs {}", report.step_losses[0], fresh.step_losses[0]);
}

/// A tiny random BERT standing in for MiniLM (the features model reads it unpacked as well).
fn tiny_features() -> tempfile::TempDir {
    let features = tempfile::tempdir().unwrap();
    craftmate::parser::pretrained::write_tiny_bert(features.path()).unwrap();
    features
}

#[test]
fn pretrained_features_join_a_trained_model_switched_off_and_travel_with_it() {
    let features = tiny_features();
    let examples = templates::generate_from_dir(Path::new("data/templates"), 48, 11).unwrap();
    let base = tempfile::tempdir().unwrap();
    let opts = trainer::Options { epochs: 2, ..tiny_options() };
    trainer::train(&examples, &[], &opts, Some(base.path()), trainer::Start::Fresh).unwrap();
    let before = NeuralParser::load_dir(base.path()).unwrap();
    assert!(before.features.is_none());
    // One epoch at learning rate 0: the new projection starts at zero, so nothing may change.
    let tuned = tempfile::tempdir().unwrap();
    let add = trainer::Options { epochs: 1, lr: 0.0, features: Some(features.path().into()), ..opts };
    trainer::train(&examples, &examples[..4], &add, Some(tuned.path()), trainer::Start::From(base.path())).unwrap();
    let after = NeuralParser::load_dir(tuned.path()).unwrap();
    assert_eq!(after.features.as_ref().map(|f| f.dim), Some(32), "the features are saved beside the network");
    assert_eq!(after.net.cfg.word_features, 32);
    for ex in examples.iter().take(12) {
        let (a, b) = (before.parse(&ex.text()), after.parse(&ex.text()));
        assert_eq!(a.lf.to_json_value(), b.lf.to_json_value(), "{}", ex.text());
        assert!((a.confidence - b.confidence).abs() < 1e-4, "{}", ex.text());
    }
    // With a learning rate the projection leaves zero: gradients reach it through the encoder.
    let learn = tempfile::tempdir().unwrap();
    let opts = trainer::Options { epochs: 1, lr: 3e-3, features: Some(features.path().into()), ..tiny_options() };
    trainer::train(&examples, &examples[..4], &opts, Some(learn.path()), trainer::Start::From(base.path())).unwrap();
    let weights =
        candle_core::safetensors::load(learn.path().join("model.safetensors"), &candle_core::Device::Cpu).unwrap();
    let moved = weights["feat_proj.weight"].abs().unwrap().sum_all().unwrap().to_scalar::<f32>().unwrap();
    assert!(moved > 0.0, "the feature projection never trained");
    // Averaging two versions trained with features keeps the features beside the mean.
    let soup = tempfile::tempdir().unwrap();
    average::average_models(&[tuned.path().into(), learn.path().into()], soup.path()).unwrap();
    assert_eq!(NeuralParser::load_dir(soup.path()).unwrap().features.map(|f| f.dim), Some(32));
    // A model that needs features refuses to load without them, with a reason.
    std::fs::remove_dir_all(tuned.path().join("features")).unwrap();
    let err = NeuralParser::load_dir(tuned.path()).err().expect("loads without its features").to_string();
    assert!(err.contains("features"), "{err}");
}

/// The largest difference between two sets of weights with the same names.
fn largest_gap(
    a: &std::collections::BTreeMap<String, Vec<f32>>,
    b: &std::collections::BTreeMap<String, Vec<f32>>,
) -> f32 {
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    a.values().zip(b.values()).flat_map(|(x, y)| x.iter().zip(y).map(|(p, q)| (p - q).abs())).fold(0.0, f32::max)
}

#[test]
fn a_paused_run_resumed_ends_with_the_weights_of_a_run_that_never_stopped() {
    let features = tiny_features();
    let examples = templates::generate_from_dir(Path::new("data/templates"), 48, 9).unwrap();
    // Dropout, word dropout and word features: every kind of state a checkpoint must carry.
    let opts =
        trainer::Options { epochs: 3, dropout: 0.1, features: Some(features.path().into()), ..tiny_options() };
    let valid = &examples[..4];
    let straight = tempfile::tempdir().unwrap();
    let (_, report) = trainer::train(&examples, valid, &opts, Some(straight.path()), trainer::Start::Fresh).unwrap();
    assert!(!report.paused);

    // The same run in two parts: paused after its first epoch, then resumed to its end.
    let run_in_parts = |drop_optimizer: bool| {
        let dir = tempfile::tempdir().unwrap();
        let first = trainer::Options { pause_after: Some(1), ..opts.clone() };
        let (_, report) = trainer::train(&examples, valid, &first, Some(dir.path()), trainer::Start::Fresh).unwrap();
        assert!(report.paused);
        assert_eq!(report.epochs_run, 1);
        assert!(!dir.path().join("checkpoint.safetensors.partial").exists(), "a half-written checkpoint was left");
        if drop_optimizer {
            std::fs::remove_file(dir.path().join(checkpoint::OPTIMIZER_STATE)).unwrap();
        }
        let (_, report) = trainer::train(&examples, valid, &opts, Some(dir.path()), trainer::Start::Resume).unwrap();
        assert!(!report.paused);
        assert_eq!(report.epochs_run, 3);
        assert_eq!(report.epoch_losses.len(), 3);
        dir
    };
    let resumed = run_in_parts(false);
    let file = "checkpoint.safetensors";
    let gap = largest_gap(&weights(straight.path(), file), &weights(resumed.path(), file));
    assert!(gap <= 1e-6, "{file}: the resumed run drifted from the one that never stopped by {gap}");
    // Resumed without the optimizer's state (as checkpoints were before it was saved): the moments
    // restart from zero and the weights go elsewhere, which is what the state is for.
    let restarted = run_in_parts(true);
    let gap = largest_gap(
        &weights(straight.path(), "checkpoint.safetensors"),
        &weights(restarted.path(), "checkpoint.safetensors"),
    );
    assert!(gap > 1e-4, "restarting the optimizer changed nothing ({gap}): this test could not fail");
}

/// Two tiny networks of one epoch in `root`/a and `root`/b (seeds 1 and 2, no validation rows),
/// reading one tiny features model, on templated commands drawn with `examples_seed`.
fn two_runs(root: &Path, examples_seed: u64) -> (std::path::PathBuf, std::path::PathBuf) {
    let features = tiny_features();
    let examples = templates::generate_from_dir(Path::new("data/templates"), 48, examples_seed).unwrap();
    let (a, b) = (root.join("a"), root.join("b"));
    for (dir, seed) in [(&a, 1), (&b, 2)] {
        let opts = trainer::Options { epochs: 1, seed, features: Some(features.path().into()), ..tiny_options() };
        trainer::train(&examples, &[], &opts, Some(dir), trainer::Start::Fresh).unwrap();
    }
    (a, b)
}

#[test]
fn a_runs_last_checkpoint_becomes_a_model_of_its_own() {
    use craftmate::training::checkpoint_model::checkpoint_model;
    let tmp = tempfile::tempdir().unwrap();
    // With no validation rows a run's last epoch is also its best.
    let (run, other) = two_runs(tmp.path(), 5);
    let reference = NeuralParser::load_dir(&run).unwrap();
    // As if an earlier epoch had scored best: the run's kept model is another one now.
    std::fs::copy(other.join("model.safetensors"), run.join("model.safetensors")).unwrap();
    let swapped = NeuralParser::load_dir(&run).unwrap();

    let last = tmp.path().join("last");
    let written = checkpoint_model(&run, &last).unwrap();
    assert_eq!((written.epoch, written.planned_epochs, written.best_epoch), (1, 1, 1));
    assert_eq!(weights(&last, "model.safetensors"), weights(&run, "checkpoint.safetensors"));
    // The checkpoint's network, not the kept one, makes its first step.
    let parser = NeuralParser::load_dir(&last).unwrap();
    for text in ["build a red cube here", "dig a hole until you hit stone"] {
        let (got, want, kept) = (first_step(&parser, text), first_step(&reference, text), first_step(&swapped, text));
        let gap = got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(gap < 1e-4, "{text}: {gap} from the run's own last epoch");
        assert!(got.iter().zip(&kept).any(|(a, b)| (a - b).abs() > 1e-3), "{text}: this test could not fail");
    }

    // Refused: an existing model directory, and a directory that holds no checkpoint.
    let err = checkpoint_model(&run, &last).unwrap_err().to_string();
    assert!(err.contains("already exists"), "{err}");
    let err = checkpoint_model(&last, &tmp.path().join("x")).unwrap_err().to_string();
    assert!(err.contains("no training checkpoint"), "{err}");
    assert!(!tmp.path().join("x").exists(), "nothing is written for a refused export");
}

/// Two tiny models fine-tuned from one base with different seeds, in `root`/a and `root`/b.
fn two_fine_tuned_runs(root: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let examples = templates::generate_from_dir(Path::new("data/templates"), 48, 7).unwrap();
    let opts = trainer::Options { epochs: 2, ..tiny_options() };
    let base = root.join("base");
    trainer::train(&examples, &[], &opts, Some(&base), trainer::Start::Fresh).unwrap();
    let (a, b) = (root.join("a"), root.join("b"));
    for (dir, seed) in [(&a, 1), (&b, 2)] {
        let tune = trainer::Options { epochs: 1, seed, ..opts.clone() };
        trainer::train(&examples, &[], &tune, Some(dir), trainer::Start::From(&base)).unwrap();
    }
    (a, b)
}

#[test]
fn averaged_weights_are_the_mean_of_the_runs_and_load_as_a_parser() {
    use candle_core::{Device, safetensors};
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = two_fine_tuned_runs(tmp.path());
    let soup = tmp.path().join("soup");
    average::average_models(&[a.clone(), b.clone()], &soup).unwrap();
    let load = |d: &Path| safetensors::load(d.join("model.safetensors"), &Device::Cpu).unwrap();
    let (wa, wb, mean) = (load(&a), load(&b), load(&soup));
    assert_eq!(mean.len(), wa.len());
    for (name, m) in &mean {
        let expect = ((&wa[name] + &wb[name]).unwrap() / 2.0).unwrap();
        let diff =
            (m - &expect).unwrap().abs().unwrap().flatten_all().unwrap().max(0).unwrap().to_scalar::<f32>().unwrap();
        assert!(diff < 1e-6, "{name}: max difference {diff} from the mean");
    }
    let flat = |t: &candle_core::Tensor| t.flatten_all().unwrap().to_vec1::<f32>().unwrap();
    assert!(wa.iter().any(|(name, t)| flat(t) != flat(&wb[name])), "the two runs should differ");
    let parser = NeuralParser::load_dir(&soup).unwrap();
    let parsed = parser.parse("build a red cube");
    assert!(validate("build a red cube", &parsed.lf).is_ok());
}

#[test]
fn averaging_refuses_models_that_are_not_versions_of_one_model() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, _) = two_fine_tuned_runs(tmp.path());
    let examples = templates::generate_from_dir(Path::new("data/templates"), 16, 9).unwrap();
    let other = tmp.path().join("other");
    let wider = trainer::Options { epochs: 1, d_model: 48, ..tiny_options() };
    trainer::train(&examples, &[], &wider, Some(&other), trainer::Start::Fresh).unwrap();
    let err = average::average_models(&[a.clone(), other], &tmp.path().join("x")).unwrap_err().to_string();
    assert!(err.contains("differ in their sizes"), "{err}");
    let err = average::average_models(&[a], &tmp.path().join("x")).unwrap_err().to_string();
    assert!(err.contains("at least two"), "{err}");
    assert!(!tmp.path().join("x").exists(), "nothing is written for a refused average");
}

/// One decoding step from the start of the form: the next-token and span log-probabilities of the
/// whole ensemble (these tiny networks rarely finish a form, so tests compare steps).
fn first_step(parser: &NeuralParser, text: &str) -> Vec<f32> {
    let words = craftmate::logical_form::tokenize(text);
    let encodings = parser.encode(&words).unwrap();
    let nets = parser.ensemble(&encodings);
    let mut caches = nets.start().unwrap();
    let bos = parser.out.id(craftmate::parser::linearize::BOS).unwrap();
    let states = nets.step(&mut caches, &[(bos, None)], 0).unwrap();
    let (start, end) = nets.span_log_probs(&states, 0, 0).unwrap();
    let tokens = nets.token_log_probs(&states).unwrap().remove(0);
    tokens.into_iter().chain(start).chain(end).collect()
}

#[test]
fn an_ensemble_decodes_with_the_mean_of_its_networks_log_probabilities() {
    use craftmate::training::ensemble::ensemble_models;
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = two_fine_tuned_runs(tmp.path());
    let (twins, pair) = (tmp.path().join("twins"), tmp.path().join("pair"));
    ensemble_models(&[a.clone(), a.clone()], &twins).unwrap();
    ensemble_models(&[a.clone(), b.clone()], &pair).unwrap();
    let alone = NeuralParser::load_dir(&a).unwrap();
    let twins = NeuralParser::load_dir(&twins).unwrap();
    let pair = NeuralParser::load_dir(&pair).unwrap();
    assert_eq!((twins.partners.len(), pair.partners.len()), (1, 1));

    // An output directory that holds files is refused, the model's own included: nothing in it is
    // overwritten or removed.
    let notes = tmp.path().join("notes");
    std::fs::create_dir_all(&notes).unwrap();
    std::fs::write(notes.join("todo.txt"), "keep me").unwrap();
    for out in [&tmp.path().join("twins"), &a, &notes] {
        let err = ensemble_models(&[a.clone(), b.clone()], out).unwrap_err().to_string();
        assert!(err.contains("already exists"), "{err}");
    }
    assert_eq!(std::fs::read_to_string(notes.join("todo.txt")).unwrap(), "keep me");
    assert!(NeuralParser::load_dir(&a).unwrap().partners.is_empty());
    assert_eq!(NeuralParser::load_dir(&tmp.path().join("twins")).unwrap().partners.len(), 1);

    let texts = ["build a red cube here", "go to the blue house", "dig a hole 3 by 3", "what are you doing"];
    for parser in [&alone, &twins, &pair] {
        for text in texts {
            assert!(validate(&normalize(text), &parser.parse(text).lf).is_ok(), "{text:?}");
        }
    }
    let other = NeuralParser::load_dir(&b).unwrap();
    let mut differs = false;
    for text in texts {
        let (x, y, z, w) =
            (first_step(&alone, text), first_step(&twins, text), first_step(&pair, text), first_step(&other, text));
        assert_eq!((x.len(), y.len(), z.len()), (w.len(), w.len(), w.len()), "{text}");
        for i in 0..x.len() {
            // A network with itself is itself; two networks give the mean of their log-probabilities.
            assert!((x[i] - y[i]).abs() < 1e-4, "{text}: {} vs {}", x[i], y[i]);
            assert!((z[i] - (x[i] + w[i]) / 2.0).abs() < 1e-3, "{text}: {} vs mean of {} and {}", z[i], x[i], w[i]);
            differs |= (z[i] - x[i]).abs() > 1e-3;
        }
    }
    assert!(differs, "the second network changed nothing");
}

#[test]
fn an_ensemble_refuses_members_that_write_other_tokens() {
    use craftmate::training::ensemble::ensemble_models;
    let tmp = tempfile::tempdir().unwrap();
    let (a, _) = two_fine_tuned_runs(tmp.path());
    // A model trained on different commands knows different output tokens.
    let examples = templates::generate_from_dir(Path::new("data/templates"), 6, 3).unwrap();
    let other = tmp.path().join("other");
    trainer::train(
        &examples,
        &[],
        &trainer::Options { epochs: 1, ..tiny_options() },
        Some(&other),
        trainer::Start::Fresh,
    )
    .unwrap();
    let err = ensemble_models(&[a.clone(), other], &tmp.path().join("x")).unwrap_err().to_string();
    assert!(err.contains("output tokens"), "{err}");
    let err = ensemble_models(&[a], &tmp.path().join("x")).unwrap_err().to_string();
    assert!(err.contains("at least two"), "{err}");
    assert!(!tmp.path().join("x").exists(), "nothing is written for a refused ensemble");
}

#[test]
fn a_half_size_model_is_half_the_bytes_and_decodes_like_the_original() {
    use candle_core::{DType, Device, safetensors};
    use craftmate::training::{ensemble::ensemble_models, half::half_model};
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = two_fine_tuned_runs(tmp.path());
    let (pair, half) = (tmp.path().join("pair"), tmp.path().join("half"));
    ensemble_models(&[a.clone(), b.clone()], &pair).unwrap();
    let halved = half_model(&pair, &half).unwrap();
    assert_eq!(halved.networks, 2, "the first network and its partner");
    assert!(halved.bytes_after * 100 < halved.bytes_before * 55, "{halved:?}");
    for network in [half.clone(), half.join("partners/01")] {
        let weights = safetensors::load(network.join("model.safetensors"), &Device::Cpu).unwrap();
        assert!(weights.values().all(|t| t.dtype() == DType::F16), "{}", network.display());
        for name in ["config.json", "tokenizer.json"] {
            let rel = network.strip_prefix(&half).unwrap().join(name);
            assert_eq!(std::fs::read(half.join(&rel)).unwrap(), std::fs::read(pair.join(&rel)).unwrap(), "{rel:?}");
        }
    }
    // Rounded weights, the same decisions: every log-probability of the first step within f16's
    // rounding, and the same forms.
    let (full, small) = (NeuralParser::load_dir(&pair).unwrap(), NeuralParser::load_dir(&half).unwrap());
    for text in ["build a red cube here", "go to the blue house", "dig a hole 3 by 3", "what are you doing"] {
        let (x, y) = (first_step(&full, text), first_step(&small, text));
        let worst = x.iter().zip(&y).map(|(p, q)| (p - q).abs()).fold(0.0f32, f32::max);
        assert!(worst < 0.02, "{text}: log-probabilities moved by {worst}");
        assert_eq!(full.parse(text).lf, small.parse(text).lf, "{text}");
    }
    // A half-size model is a model like any other: fine-tuned from and averaged in f32.
    let tuned = tmp.path().join("tuned");
    let examples = templates::generate_from_dir(Path::new("data/templates"), 16, 5).unwrap();
    let opts = trainer::Options { epochs: 1, ..tiny_options() };
    trainer::train(&examples, &[], &opts, Some(&tuned), trainer::Start::From(&half)).unwrap();
    let (ha, hb) = (tmp.path().join("ha"), tmp.path().join("hb"));
    half_model(&a, &ha).unwrap();
    half_model(&b, &hb).unwrap();
    average::average_models(&[ha, hb], &tmp.path().join("soup")).unwrap();
    let soup = safetensors::load(tmp.path().join("soup/model.safetensors"), &Device::Cpu).unwrap();
    assert!(soup.values().all(|t| t.dtype() == DType::F32));
    // Nothing is overwritten, and a folder without a network is not a model.
    let err = half_model(&pair, &half).unwrap_err().to_string();
    assert!(err.contains("already exists"), "{err}");
    assert!(NeuralParser::load_dir(&half).is_ok(), "the refused copy left the earlier one alone");
    // A copy inside the original holds the original's files once, not itself.
    let inside = pair.join("half");
    assert_eq!(half_model(&pair, &inside).unwrap(), halved);
    assert!(inside.join("partners/01/model.safetensors").is_file() && !inside.join("half").exists());
    let err = half_model(tmp.path(), &tmp.path().join("x")).unwrap_err().to_string();
    assert!(err.contains("not a parser model directory"), "{err}");
    assert!(!tmp.path().join("x").exists());
}

#[test]
fn decoding_is_valid_for_random_and_garbage_input() {
    let parser = NeuralParser::shipped().unwrap();
    let long = (0..500).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
    let inputs = [
        "",
        "   ",
        "🧱🔥🎉 😀",
        "build a zigurat",
        "asdkjh qwe zxc 123 -45.5 ??? !!!",
        "don't STOP, that's it.",
        long.as_str(),
        "the the the the the the the the the the the the the the the the the the the the",
        "build a red cube at 10 20 30 and then destroy the tower three times",
    ];
    for text in inputs {
        let parsed = parser.parse(text);
        assert!(validate(&normalize(text), &parsed.lf).is_ok(), "{text:?}");
        assert!((0.0..=1.0).contains(&parsed.confidence), "{text:?}: {}", parsed.confidence);
    }
}

#[test]
fn a_beam_of_one_decodes_exactly_like_greedy_and_wider_beams_stay_valid() {
    use craftmate::parser::decode;
    let parser = NeuralParser::shipped().unwrap();
    for text in ["build a red cube here", "go to the blue house", "dig a hole until you hit stone", "hello there"] {
        let words = craftmate::logical_form::tokenize(text);
        let enc = parser.encode(&words).unwrap();
        let nets = decode::Ensemble::single(&parser.net, &enc[0]);
        let greedy = decode::greedy(&nets, &parser.out, &parser.grammar, words.len()).unwrap().unwrap();
        let beam = decode::beam(&nets, &parser.out, &parser.grammar, words.len(), 1).unwrap();
        assert_eq!(beam[0].tokens, greedy.tokens, "{text}");
        assert_eq!(beam[0].spans, greedy.spans, "{text}");
        assert!((beam[0].log_prob - greedy.log_prob).abs() < 1e-3, "{text}");
        // Wider beams decode their hypotheses as one batch: every finished form is well formed.
        for width in [2, 4] {
            let finished = decode::beam(&nets, &parser.out, &parser.grammar, words.len(), width).unwrap();
            assert!(!finished.is_empty(), "{text}: nothing finished with a beam of {width}");
            for d in finished {
                assert!(craftmate::parser::linearize::delinearize(&d.tokens, &d.spans).is_some(), "{text}");
            }
        }
    }
}

#[test]
fn the_confidence_is_the_product_of_the_choices_it_lists() {
    let parser = NeuralParser::shipped().unwrap();
    for text in ["build a red cube here", "dig a hole until you hit stone", "destroy the tallest tower"] {
        let parsed = parser.parse(text);
        let words = craftmate::logical_form::tokenize(text);
        assert!(!parsed.choices.is_empty(), "{text}");
        let product = parsed.choices.iter().map(|c| c.log_prob).sum::<f32>().exp();
        assert!((product - parsed.confidence).abs() < 1e-5, "{text}: {product} vs {}", parsed.confidence);
        for c in &parsed.choices {
            assert!(c.log_prob <= 0.0, "{text}: {c:?}");
            if let Some((a, b)) = c.words {
                assert!(a <= b && b < words.len(), "{text}: span {a}..{b} of {} words", words.len());
                assert_eq!(c.token, "<span>");
            }
        }
    }
}

#[test]
fn unseen_words_are_copied_as_spans() {
    let parser = NeuralParser::shipped().unwrap();
    let parsed = parser.parse("build a zigurat");
    let json = parsed.lf.to_json_string();
    assert!(json.contains("BUILD"), "{json}");
    assert!(json.contains("[2,2]"), "{json}");
}

/// Everything the binary embeds from `models/` (network, vocabulary, word-features model) must
/// stay within the 25 MB budget players download.
#[test]
fn the_shipped_models_fit_in_25_mb() {
    fn size(dir: &Path) -> u64 {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| if p.is_dir() { size(&p) } else { p.metadata().unwrap().len() })
            .sum()
    }
    let total = size(Path::new("models"));
    // 25 MB read strictly (decimal megabytes, not MiB).
    assert!(total <= 25_000_000, "models/ holds {:.2} MB", total as f64 / 1e6);
    // A network trained with word features finds them inside the binary.
    let parser = NeuralParser::shipped().unwrap();
    assert_eq!(parser.features.as_ref().map_or(0, |f| f.dim), parser.net.cfg.word_features);
    // Every network in models/parser/partners/ is embedded and votes.
    let partners = std::fs::read_dir("models/parser/partners")
        .map_or(0, |d| d.filter(|e| e.as_ref().unwrap().path().is_dir()).count());
    assert_eq!(parser.partners.len(), partners);
    // The embedded model is the one in models/parser/, file for file (a partner's own features
    // too): both take exactly the same first decoding step.
    let from_files = NeuralParser::load_dir(Path::new("models/parser")).unwrap();
    for text in ["build a red cube here", "what are you doing"] {
        assert_eq!(first_step(&parser, text), first_step(&from_files, text), "{text}");
    }
}

#[test]
fn the_shipped_model_keeps_its_recorded_score_on_a_validation_sample() {
    let Some(path) = shared_data() else { return };
    let scores: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("models/parser/scores.json").unwrap()).unwrap();
    let rows = scores["test_sample_rows"].as_u64().unwrap() as usize;
    let recorded = scores["test_sample_exact_match"].as_f64().unwrap();
    let (_, valid) = data::split(data::load_annotated(path).unwrap(), 0.1, 42);
    let parser = NeuralParser::shipped().unwrap();
    let report = eval::evaluate(&parser, &valid[..rows.min(valid.len())]);
    let score = report.overall.percent();
    assert!(score >= recorded - 2.0, "exact match {score:.2}% < recorded {recorded:.2}% - 2");
}

#[test]
fn every_shipped_template_yields_valid_forms() {
    let mut slots = templates::builtin_slots();
    templates::parse_slots(&std::fs::read_to_string("data/templates/slots.txt").unwrap(), &mut slots);
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(5);
    let mut never = Vec::new();
    for entry in std::fs::read_dir("data/templates").unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap() == "slots.txt" || path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        for line in
            std::fs::read_to_string(&path).unwrap().lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let template = templates::parse_template(line).unwrap();
            if !(0..20).any(|_| templates::expand(&template, &slots, &mut rng).is_some()) {
                let why = templates::why_invalid(&template, &slots, &mut rng).unwrap_or_default();
                never.push(format!("{}: {line}\n    {why}", path.display()));
            }
        }
    }
    assert!(never.is_empty(), "templates that never validate:\n{}", never.join("\n"));
}
