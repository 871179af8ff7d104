//! The training loss of one batch: teacher-forced token cross-entropy, plus cross-entropies of
//! the start and end word pointers of every span.

use candle_core::Tensor;

use super::prepare::Prepared;
use crate::parser::layers::Dropout;
use crate::parser::linearize::{BOS, EOS, PAD, SPAN};
use crate::parser::{NeuralParser, Result, input_tensors};

/// One batch's loss: token cross-entropy plus start and end pointer cross-entropies.
pub(crate) fn batch_loss(
    parser: &NeuralParser,
    batch: &[&Prepared],
    features: Option<&Tensor>,
    dropout: &Dropout,
    word_dropout: f32,
) -> Result<Tensor> {
    let dev = &parser.device;
    let pad = parser.out.id(PAD).unwrap_or(0);
    let bos = parser.out.id(BOS).unwrap_or(0);
    let eos = parser.out.id(EOS).unwrap_or(0);
    let span_id = parser.out.id(SPAN).unwrap_or(0);
    let rows: Vec<&[String]> = batch.iter().map(|p| p.words.as_slice()).collect();
    let unk = || dropout.draw() < word_dropout;
    let (ids, tri, lengths) = input_tensors(&parser.words, parser.net.cfg.trigram_buckets, &rows, Some(&unk), dev)?;
    let enc = parser.net.encode(&ids, &tri, &lengths, features, Some(dropout))?;
    let s = ids.dims2()?.1;
    let t = batch.iter().map(|p| p.tokens.len() + 1).max().unwrap_or(1);
    let (mut inputs, mut targets, mut span_words, mut span_mask) = (vec![], vec![], vec![], vec![]);
    let (mut tok_rows, mut tok_targets, mut ptr_rows, mut starts, mut ends) = (vec![], vec![], vec![], vec![], vec![]);
    for (b, p) in batch.iter().enumerate() {
        let seq: Vec<u32> = std::iter::once(bos).chain(p.tokens.iter().copied()).chain(std::iter::once(eos)).collect();
        let mut next_span = 0;
        let mut input_span = None;
        for i in 0..t {
            let input = seq.get(i).copied().unwrap_or(pad);
            let target = seq.get(i + 1).copied().unwrap_or(pad);
            inputs.push(input);
            targets.push(target);
            let (a, z) = input_span.take().unwrap_or((0, 0));
            span_words.extend([(b * s + a) as u32, (b * s + z) as u32]);
            span_mask.push(if input == span_id && i > 0 { 1f32 } else { 0.0 });
            if target != pad {
                tok_rows.push((b * t + i) as u32);
                tok_targets.push(target);
            }
            if target == span_id && i + 1 < seq.len() {
                let (a, z) = p.spans[next_span];
                next_span += 1;
                ptr_rows.push((b * t + i) as u32);
                starts.push(a as u32);
                ends.push(z as u32);
                input_span = Some((a, z));
            }
        }
    }
    let bsz = batch.len();
    let inputs = Tensor::from_vec(inputs, (bsz, t), dev)?;
    let span_words = Tensor::from_vec(span_words, (bsz, t, 2), dev)?;
    let span_mask = Tensor::from_vec(span_mask, (bsz, t, 1), dev)?;
    let out = parser.net.decode_train(&enc, &inputs, &span_words, &span_mask, Some(dropout))?;
    let _ = targets;
    let v = parser.out.len();
    let tok_rows = Tensor::new(tok_rows.as_slice(), dev)?;
    let logits = out.logits.reshape((bsz * t, v))?.index_select(&tok_rows, 0)?;
    let mut loss = candle_nn::loss::cross_entropy(&logits, &Tensor::new(tok_targets.as_slice(), dev)?)?;
    if !ptr_rows.is_empty() {
        let ptr_rows = Tensor::new(ptr_rows.as_slice(), dev)?;
        let start = out.start.reshape((bsz * t, s))?.index_select(&ptr_rows, 0)?;
        let end = out.end.reshape((bsz * t, s))?.index_select(&ptr_rows, 0)?;
        loss = (loss + candle_nn::loss::cross_entropy(&start, &Tensor::new(starts.as_slice(), dev)?)?)?;
        loss = (loss + candle_nn::loss::cross_entropy(&end, &Tensor::new(ends.as_slice(), dev)?)?)?;
    }
    Ok(loss)
}

