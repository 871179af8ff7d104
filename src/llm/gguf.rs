//! The in-process backend: a quantized GGUF model run by candle on the CPU.
//!
//! Supported architectures (`general.architecture`): `llama` (SmolLM2, Llama 3.x, TinyLlama-style
//! files with a byte-level BPE vocabulary), `qwen2` (Qwen2/2.5) and `qwen3`. The tokenizer comes from
//! the file's metadata ([`GgufTokenizer`]).
//!
//! The model lives on a worker thread that answers one request at a time. [`GgufChat::complete`]
//! hands the prompt to the worker and waits only until the request's deadline; the worker checks the
//! deadline before every token and drops requests whose deadline has passed, so a slow model never
//! piles up work. When time runs out mid-answer, the complete sentences so far are the answer (none:
//! [`LlmError::Timeout`]). Sampling is greedy at temperature 0, else temperature sampling with a seed, with a
//! mild repeat penalty; generation stops at the end-of-turn token or after `max_tokens`.
//!
//! A small model's weights are unpacked from their quantized blocks when it loads (see
//! [`GgufOptions::unpack_up_to`]): candle multiplies plain f32 weights with blocked matrix
//! products, which read a whole prompt at once about nine times faster on one core than its
//! quantized kernels, which go one row at a time (SmolLM2-135M: 204 prompt tokens in 0.6 s
//! instead of 5.6 s). The price is memory — four bytes a weight — so bigger models stay packed.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use candle_core::quantized::gguf_file;
use candle_core::{Device, Tensor};
use candle_transformers::generation::LogitsProcessor;
use candle_transformers::models::{quantized_llama, quantized_qwen2, quantized_qwen3};

use super::gguf_tokenizer::GgufTokenizer;
use super::{Chat, ChatRequest, Completion, LlmError};

/// Settings for [`GgufChat`].
#[derive(Debug, Clone, PartialEq)]
pub struct GgufOptions {
    pub path: PathBuf,
    pub max_tokens: u32,
    /// 0 is greedy decoding.
    pub temperature: f64,
    pub seed: u64,
    /// Penalty for repeating one of the last [`REPEAT_WINDOW`] tokens (1.0 is none).
    pub repeat_penalty: f32,
    /// Unpack the weights to f32 when that takes at most this many bytes (0: never).
    pub unpack_up_to: u64,
}

/// The default [`GgufOptions::unpack_up_to`]: 768 MiB, room for models up to about 200M weights.
pub const UNPACK_UP_TO: u64 = 768 << 20;

/// How many recent tokens the repeat penalty looks at.
pub const REPEAT_WINDOW: usize = 64;

impl GgufOptions {
    pub fn new(path: impl Into<PathBuf>) -> GgufOptions {
        GgufOptions { path: path.into(), max_tokens: 80, temperature: 0.3, seed: 42, repeat_penalty: 1.1, unpack_up_to: UNPACK_UP_TO }
    }
}

/// The CPU threads [`init_cpu_threads`] picks by default: half the cores (the game and the bot's
/// other work need the rest), at most 4 (a small model's decoding is bound by memory, not cores).
pub fn default_cpu_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / 2).clamp(1, 4)
}

/// Sets how many CPU threads candle's kernels use (the `CANDLE_NUM_THREADS` variable, read once
/// when candle first computes) unless the variable is already set; returns the count in effect.
///
/// It matters: candle's worker threads spin while they wait for each other, so more threads than
/// free cores makes generation many times slower (SmolLM2-135M on a busy 2-core machine: 46
/// tokens/s with 1 thread, 2 tokens/s with 2).
///
/// # Safety
/// It sets an environment variable: call it before the program starts any other thread (at the
/// top of `main`), as [`std::env::set_var`] requires.
pub unsafe fn init_cpu_threads(threads: Option<usize>) -> usize {
    if let Some(n) = std::env::var("CANDLE_NUM_THREADS").ok().and_then(|v| v.trim().parse().ok()) {
        return n;
    }
    let n = threads.unwrap_or_else(default_cpu_threads).max(1);
    // SAFETY: the caller guarantees no other thread is running.
    unsafe { std::env::set_var("CANDLE_NUM_THREADS", n.to_string()) };
    n
}

/// The architectures candle runs from GGUF here.
enum Weights {
    Llama(quantized_llama::ModelWeights),
    Qwen2(quantized_qwen2::ModelWeights),
    Qwen3(quantized_qwen3::ModelWeights),
}

impl Weights {
    fn forward(&mut self, input: &Tensor, position: usize) -> candle_core::Result<Tensor> {
        match self {
            Weights::Llama(m) => m.forward(input, position),
            Weights::Qwen2(m) => m.forward(input, position),
            Weights::Qwen3(m) => m.forward(input, position),
        }
    }

    /// A copy that shares the weights (reference-counted tensors) and holds the key/value cache
    /// as it is now: the model having read a prompt's start. `None` for qwen2, whose candle
    /// model cannot be copied.
    fn snapshot(&self) -> Option<Weights> {
        match self {
            Weights::Llama(m) => Some(Weights::Llama(m.clone())),
            Weights::Qwen2(_) => None,
            Weights::Qwen3(m) => Some(Weights::Qwen3(m.clone())),
        }
    }

    fn can_snapshot(&self) -> bool {
        !matches!(self, Weights::Qwen2(_))
    }

    fn clear_kv_cache(&mut self) {
        match self {
            Weights::Llama(m) => m.clear_kv_cache(),
            Weights::Qwen2(m) => m.clear_kv_cache(),
            Weights::Qwen3(m) => m.clear_kv_cache(),
        }
    }
}

/// The model's weights from `content`, and its context length.
fn build<R: std::io::Read + std::io::Seek>(
    architecture: &str,
    content: gguf_file::Content,
    reader: &mut R,
    device: &Device,
    file_context: usize,
) -> Result<(Weights, usize), LlmError> {
    Ok(match architecture {
        "llama" => {
            let w = quantized_llama::ModelWeights::from_gguf(content, reader, device)?;
            // candle's llama precomputes rotary tables for MAX_SEQ_LEN positions.
            (Weights::Llama(w), file_context.min(quantized_llama::MAX_SEQ_LEN))
        }
        "qwen2" => (Weights::Qwen2(quantized_qwen2::ModelWeights::from_gguf(content, reader, device)?), file_context),
        _ => (Weights::Qwen3(quantized_qwen3::ModelWeights::from_gguf(content, reader, device)?), file_context),
    })
}

/// The file's tensors unpacked from their quantized blocks and stored as f16, in memory, with a
/// table of contents pointing into it. candle turns f16 weights into plain f32 matrices when the
/// model is built from it (half the transient memory of storing f32 here).
fn unpacked_f16(content: gguf_file::Content, file: &mut File) -> Result<(gguf_file::Content, std::io::Cursor<Vec<u8>>), LlmError> {
    use candle_core::quantized::{GgmlDType, QTensor};
    let mut data: Vec<u8> = Vec::new();
    let mut infos = std::collections::HashMap::new();
    for (name, info) in &content.tensor_infos {
        let packed = info.read(file, content.tensor_data_offset, &Device::Cpu)?;
        let values = packed.dequantize(&Device::Cpu)?;
        let half = QTensor::quantize(&values, GgmlDType::F16)?;
        let offset = data.len() as u64;
        data.extend_from_slice(&half.data()?);
        infos.insert(name.clone(), gguf_file::TensorInfo { ggml_dtype: GgmlDType::F16, shape: info.shape.clone(), offset });
    }
    let unpacked = gguf_file::Content { magic: content.magic, metadata: content.metadata, tensor_infos: infos, tensor_data_offset: 0 };
    Ok((unpacked, std::io::Cursor::new(data)))
}

/// What the file says about the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    pub architecture: String,
    pub name: Option<String>,
    /// The longest prompt plus answer, in tokens.
    pub context_length: usize,
    pub load_time: Duration,
    /// The weights were unpacked to f32 (fast prompts, more memory).
    pub unpacked: bool,
    /// How many weights the model has, counted from its tensors' shapes.
    pub weights: u64,
}

/// A loaded model, its tokenizer and settings: everything the worker needs.
struct Model {
    weights: Weights,
    tokenizer: GgufTokenizer,
    options: GgufOptions,
    context_length: usize,
    device: Device,
    /// The last prompt, and the model having read the start it shared with the one before.
    read: Read,
}

/// What the worker keeps of earlier prompts. Prompts in play share a long start (the persona, the
/// rules, the facts that did not change): the model's state after reading it is kept, so the
/// next prompt reads only what comes after.
///
/// A few states are kept, at different lengths: the recent chat at the end of a prompt moves
/// on with every line, so the next prompt may share less than the last kept start but still the
/// persona and the facts before it.
#[derive(Default)]
struct Read {
    last_prompt: Vec<u32>,
    /// The model after reading each prefix (with its key/value cache), ready to read on; oldest
    /// first, at most [`KEPT_STATES`].
    kept: Vec<(Vec<u32>, Weights)>,
}

/// How many read prompt starts are kept (each holds its key/value cache: for SmolLM2-135M and a
/// 300-token start, about 14 MB).
const KEPT_STATES: usize = 4;

/// How many tokens two prompts share at their start.
fn shared_start(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// One request for the worker.
struct Job {
    prompt: Vec<u32>,
    max_tokens: usize,
    deadline: Instant,
    cancelled: Arc<AtomicBool>,
    answer: Sender<Result<Completion, LlmError>>,
}

/// A chat backend running a GGUF model in-process.
pub struct GgufChat {
    jobs: Mutex<Sender<Job>>,
    tokenizer: GgufTokenizer,
    info: ModelInfo,
    max_tokens: u32,
}

impl GgufChat {
    /// Loads the model (seconds for a small one) and starts its worker thread.
    pub fn load(options: GgufOptions) -> Result<GgufChat, LlmError> {
        let start = Instant::now();
        let path = options.path.clone();
        let file_error = |message: String| LlmError::File { path: path.display().to_string(), message };
        let mut file = File::open(&path).map_err(|e| file_error(e.to_string()))?;
        let content = gguf_file::Content::read(&mut file).map_err(|e| file_error(format!("not a GGUF file: {e}")))?;
        let tokenizer = GgufTokenizer::from_metadata(&content.metadata)?;
        let get_str = |k: &str| content.metadata.get(k).and_then(|v| v.to_string().ok()).cloned();
        let architecture = get_str("general.architecture").unwrap_or_default();
        let name = get_str("general.name");
        let get_len = |k: &str| content.metadata.get(k).and_then(|v| v.to_u32().ok()).map(|v| v as usize);
        let file_context = get_len(&format!("{architecture}.context_length")).unwrap_or(2048);
        let device = Device::Cpu;
        if !matches!(architecture.as_str(), "llama" | "qwen2" | "qwen3") {
            return Err(file_error(format!("architecture {architecture:?} is not supported (llama, qwen2 and qwen3 are)")));
        }
        let weights_count: u64 = content.tensor_infos.values().map(|t| t.shape.elem_count() as u64).sum();
        let unpacked = weights_count.saturating_mul(4) <= options.unpack_up_to;
        let (weights, context_length) = if unpacked {
            let (content, mut reader) = unpacked_f16(content, &mut file)?;
            build(&architecture, content, &mut reader, &device, file_context)?
        } else {
            build(&architecture, content, &mut file, &device, file_context)?
        };
        let info = ModelInfo { architecture, name, context_length, load_time: start.elapsed(), unpacked, weights: weights_count };
        let max_tokens = options.max_tokens;
        let model = Model { weights, tokenizer: tokenizer.clone(), options, context_length, device, read: Read::default() };
        let (sender, receiver) = mpsc::channel();
        std::thread::Builder::new()
            .name("llm-gguf".into())
            .spawn(move || worker(model, receiver))
            .map_err(|e| LlmError::Model(format!("cannot start the model thread: {e}")))?;
        Ok(GgufChat { jobs: Mutex::new(sender), tokenizer, info, max_tokens })
    }

    /// Loads the model at `path` with default settings.
    pub fn load_path(path: impl AsRef<Path>) -> Result<GgufChat, LlmError> {
        GgufChat::load(GgufOptions::new(path.as_ref()))
    }

    pub fn tokenizer(&self) -> &GgufTokenizer {
        &self.tokenizer
    }

    pub fn info(&self) -> &ModelInfo {
        &self.info
    }
}

impl Chat for GgufChat {
    fn describe(&self) -> String {
        let name = self.info.name.as_deref().unwrap_or("model");
        let weights = if self.info.unpacked { "weights unpacked" } else { "weights packed" };
        format!("gguf {name} ({}, {weights})", self.info.architecture)
    }

    fn is_small(&self) -> bool {
        self.info.weights < super::SMALL_WEIGHTS
    }

    fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        if request.remaining().is_zero() {
            return Err(LlmError::Timeout);
        }
        let text = self.tokenizer.format_chat(&request.messages);
        let prompt = self.tokenizer.encode(&text)?;
        let max_tokens = request.max_tokens.unwrap_or(self.max_tokens).max(1) as usize;
        if prompt.len() + max_tokens > self.info.context_length {
            return Err(LlmError::Model(format!(
                "prompt of {} tokens plus {max_tokens} to generate exceeds the context of {}",
                prompt.len(),
                self.info.context_length
            )));
        }
        let cancelled = Arc::new(AtomicBool::new(false));
        let (answer, receiver) = mpsc::channel();
        let job = Job { prompt, max_tokens, deadline: request.deadline, cancelled: cancelled.clone(), answer };
        self.jobs
            .lock()
            .map_err(|_| LlmError::Model("the model thread is gone".into()))?
            .send(job)
            .map_err(|_| LlmError::Model("the model thread is gone".into()))?;
        match receiver.recv_timeout(request.remaining()) {
            Ok(result) => result,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                cancelled.store(true, Ordering::Relaxed);
                Err(LlmError::Timeout)
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(LlmError::Model("the model thread stopped".into())),
        }
    }
}

/// Answers jobs one at a time until the backend is dropped.
fn worker(mut model: Model, jobs: Receiver<Job>) {
    while let Ok(job) = jobs.recv() {
        if job.cancelled.load(Ordering::Relaxed) || Instant::now() >= job.deadline {
            let _ = job.answer.send(Err(LlmError::Timeout));
            continue;
        }
        let result = generate(&mut model, &job);
        let _ = job.answer.send(result);
    }
}

/// Reads `prompt` into `model.weights` and returns the logits of its last token. The start it
/// shares with the kept state is not read again; the start it shares with the last prompt is
/// kept for the next one (at least one token is always read, for the logits).
fn read_prompt(model: &mut Model, prompt: &[u32]) -> Result<Tensor, LlmError> {
    let read = &mut model.read;
    let mut at = 0;
    let longest = read.kept.iter().filter(|(prefix, _)| prefix.len() < prompt.len() && prompt.starts_with(prefix)).max_by_key(|(p, _)| p.len());
    match longest {
        Some((prefix, kept)) => {
            model.weights = kept.snapshot().expect("a kept model can be copied again");
            at = prefix.len();
        }
        None => model.weights.clear_kv_cache(),
    }
    let weights = &mut model.weights;
    let keep = shared_start(prompt, &read.last_prompt).min(prompt.len() - 1);
    if keep > at + KEEP_AT_LEAST && weights.can_snapshot() {
        let input = Tensor::new(&prompt[at..keep], &model.device)?.unsqueeze(0)?;
        weights.forward(&input, at)?;
        at = keep;
        if let Some(w) = weights.snapshot() {
            read.kept.push((prompt[..keep].to_vec(), w));
            if read.kept.len() > KEPT_STATES {
                read.kept.remove(0);
            }
        }
    }
    tracing::debug!(from = at, read = prompt.len() - at, "gguf prompt: the rest read");
    let input = Tensor::new(&prompt[at..], &model.device)?.unsqueeze(0)?;
    let logits = weights.forward(&input, at)?;
    read.last_prompt = prompt.to_vec();
    Ok(logits)
}

/// A shared start shorter than this past the kept one is not worth a snapshot.
const KEEP_AT_LEAST: usize = 16;

/// Greedy or seeded sampling from `job.prompt` until an end-of-turn token, `max_tokens` or the deadline.
fn generate(model: &mut Model, job: &Job) -> Result<Completion, LlmError> {
    let start = Instant::now();
    let mut logits = read_prompt(model, &job.prompt)?;
    let prompt_time = start.elapsed();
    let Model { weights, tokenizer, options, context_length, device, .. } = model;
    // Stop a little before the deadline so a partial answer still reaches the waiting caller.
    let budget = job.deadline.saturating_duration_since(Instant::now());
    let soft_deadline = job.deadline - (budget / 10).min(Duration::from_millis(100));
    let late = || job.cancelled.load(Ordering::Relaxed) || Instant::now() >= soft_deadline;
    let temperature = (options.temperature > 0.0).then_some(options.temperature);
    let mut sampler = LogitsProcessor::new(options.seed, temperature, None);
    let mut context: Vec<u32> = job.prompt.clone();
    let mut generated: Vec<u32> = Vec::new();

    let gen_start = Instant::now();
    let mut truncated = false;
    loop {
        if late() {
            // Out of time: the complete sentences so far are still an answer.
            let text = tokenizer.decode(&generated, true)?;
            let Some(end) = super::sanitize::sentence_ends(&text).last() else { return Err(LlmError::Timeout) };
            return Ok(Completion {
                text: text[..end].to_string(),
                prompt_tokens: Some(job.prompt.len()),
                generated_tokens: Some(generated.len()),
                prompt_time: Some(prompt_time),
                generation_time: gen_start.elapsed(),
                truncated: false,
            });
        }
        let mut l = logits.squeeze(0)?.to_dtype(candle_core::DType::F32)?;
        if options.repeat_penalty != 1.0 {
            let window = &context[context.len().saturating_sub(REPEAT_WINDOW)..];
            l = candle_transformers::utils::apply_repeat_penalty(&l, options.repeat_penalty, window)?;
        }
        let next = sampler.sample(&l)?;
        if tokenizer.stop_ids.contains(&next) {
            break;
        }
        generated.push(next);
        context.push(next);
        if generated.len() >= job.max_tokens || context.len() >= *context_length {
            truncated = true;
            break;
        }
        let input = Tensor::new(&[next], device)?.unsqueeze(0)?;
        logits = weights.forward(&input, context.len() - 1)?;
    }
    let text = tokenizer.decode(&generated, true)?;
    Ok(Completion {
        text,
        prompt_tokens: Some(job.prompt.len()),
        generated_tokens: Some(generated.len()),
        prompt_time: Some(prompt_time),
        generation_time: gen_start.elapsed(),
        truncated,
    })
}
