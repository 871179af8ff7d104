//! Handlers for the `craftmate` subcommands, one file each. They live beside `main.rs` (in the
//! binary, not the library) because they are the edge: `anyhow` errors and printing happen here.

pub mod bench;
pub mod chat;
pub mod check_data;
pub mod connect;
pub mod eval_parser;
pub mod export_learned;
pub mod parse;
pub mod play;
pub mod scenario;
pub mod train;

use std::path::Path;

use anyhow::Context;
use craftmate::parser::NeuralParser;

/// The parser in `dir`, or the one shipped in the binary.
pub fn load_parser(dir: Option<&Path>, beam: Option<usize>) -> anyhow::Result<NeuralParser> {
    let mut parser = match dir {
        Some(dir) => NeuralParser::load_dir(dir).with_context(|| format!("loading the model in {}", dir.display()))?,
        None => NeuralParser::shipped().context("loading the shipped model")?,
    };
    if let Some(width) = beam {
        parser.beam_width = width.max(1);
    }
    Ok(parser)
}

/// The parser the bot uses: the shipped model. If it cannot load (it always should), the bot
/// still understands the exact-match table and says so in the log.
pub fn parser() -> Option<Box<dyn craftmate::parser::Parser>> {
    match NeuralParser::shipped() {
        Ok(p) => Some(Box::new(p)),
        Err(e) => {
            tracing::error!("the shipped parser did not load: {e}; only exact-match commands work");
            None
        }
    }
}

/// Sleeps until the next game tick of a real-time loop (`play`, `connect`) started at `next`.
/// A loop that fell behind starts counting again from now instead of catching up in a burst.
pub fn wait_for_tick(next: &mut std::time::Instant, tick: std::time::Duration) {
    *next += tick;
    let now = std::time::Instant::now();
    if *next > now {
        std::thread::sleep(*next - now);
    } else {
        *next = now;
    }
}

/// Asks glibc's allocator to keep freed memory for reuse instead of handing it back to the kernel.
///
/// A training step allocates and frees thousands of tensor buffers, many of them megabytes. By
/// default glibc serves big buffers with fresh `mmap`s and trims the heap whenever its top is
/// free, so nearly every buffer is new memory the kernel must fault in and zero page by page
/// (a third of a step's time in a profile). With these settings the same pages are reused:
/// 0.42 → 0.26 s a training step on one thread here (before the ops of `parser::fused`), same
/// results. Other platforms' allocators are left as they are.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator thresholds; called before training allocates.
    unsafe {
        // Buffers up to 32 MiB (glibc's maximum) come from the heap, which grows 64 MiB at a
        // time and keeps up to 1 GiB of free top mapped.
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

/// Lets a report command end quietly when its reader goes away (`craftmate eval-parser | head`).
///
/// Rust ignores SIGPIPE, so `println!` into a closed pipe panics with "failed printing to
/// stdout". The commands that only print reports get the Unix default back: the process ends at
/// once, as `cat` or `grep` would. Not for the network commands, where a closed socket must be an
/// error to handle, nor for play, which saves its memory on the way out.
pub fn end_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: restores the default disposition of one signal, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The owner's `[rules]`: from --config FILE, else ./craftmate.toml if present, else the defaults.
pub fn load_rules(config: Option<&std::path::Path>) -> anyhow::Result<craftmate::safety::owner::OwnerRules> {
    use craftmate::safety::owner::OwnerRules;
    Ok(match config {
        Some(p) => OwnerRules::load(p)?,
        None if std::path::Path::new("craftmate.toml").exists() => OwnerRules::load("craftmate.toml")?,
        None => OwnerRules::default(),
    })
}

/// The optional language model for small talk: --config FILE, else ./craftmate.toml if present.
pub fn load_llm(config: Option<&std::path::Path>) -> anyhow::Result<Option<(std::sync::Arc<dyn craftmate::llm::Chat>, std::time::Duration)>> {
    let cfg = match config {
        Some(p) => craftmate::llm::LlmConfig::load_optional(p)?,
        None if std::path::Path::new("craftmate.toml").exists() => craftmate::llm::LlmConfig::load_optional("craftmate.toml")?,
        None => None,
    };
    Ok(match cfg {
        Some(cfg) => {
            let chat: std::sync::Arc<dyn craftmate::llm::Chat> = std::sync::Arc::from(craftmate::llm::backend(&cfg)?);
            eprintln!("small talk goes to {}", chat.describe());
            Some((chat, cfg.timeout()))
        }
        None => None,
    })
}

/// Opens the memory file of `play` and `connect`, saying where the original bytes were kept when
/// a log a stopped bot left had to be applied first.
pub fn open_memory(path: &std::path::Path) -> anyhow::Result<craftmate::memory::Memory> {
    let memory = craftmate::memory::Memory::open(path)
        .map_err(|e| anyhow::anyhow!("cannot use memory file {}: {e}", path.display()))?;
    if let Some(kept) = memory.recovered_from() {
        let log = ["-wal", "-journal"]
            .iter()
            .map(|suffix| format!("{}{suffix}", kept.display()))
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or_default();
        eprintln!(
            "note: the memory file was recovered from the log a stopped bot left beside it; \
             the original file and log are kept as {} and {log}",
            kept.display()
        );
    }
    Ok(memory)
}
