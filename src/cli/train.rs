//! `craftmate train --data FILE --out DIR`: make the parser the way the shipped one was made.
//!
//! With no other flag it runs the whole recipe ([`craftmate::training::recipe`]): every network
//! as its own process (one core each, as many at once as there are cores, up to one per network),
//! then combining them (kept epochs, ensemble, f16) into `DIR/model`, then the evaluation on the
//! held-out split. Stopped at any point, the same command resumes each network from its last
//! checkpoint. `--single` trains one network with the options given (fine-tuning with `--init`,
//! resuming with `--resume`, pausing with `--pause-after`): the recipe's processes run that way.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use craftmate::training::recipe::{self, Layout, Network};
use craftmate::training::{checkpoint, corpus, data, eval, trainer};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

// The command's options (its help text is the `Train` command's doc in main.rs).
#[derive(clap::Args)]
pub struct Args {
    /// Annotated commands (`text|json` or `id|text|json`), split by unique text.
    #[arg(long, default_value = "../shared/data/annotated.txt")]
    pub data: PathBuf,
    /// Output directory: the recipe's networks, the finished model in DIR/model; with --single,
    /// the model itself.
    #[arg(long)]
    pub out: PathBuf,
    /// Chit-chat lines used as NOOP examples (default: noop_chat.txt beside --data).
    #[arg(long)]
    pub noop_data: Option<PathBuf>,
    /// Template directory.
    #[arg(long, default_value = "data/templates")]
    pub templates: PathBuf,
    /// Train nothing: write the recipe's generated corpus to --out as `text|json` rows and print
    /// the share of each phrasing class.
    #[arg(long)]
    pub corpus_only: bool,
    /// Train one network with the options below instead of the recipe.
    #[arg(long)]
    pub single: bool,
    /// How many chit-chat lines to sample as NOOP examples (recipe: 3000).
    #[arg(long)]
    pub noop: Option<usize>,
    /// How many templated commands to generate and mix in (recipe: 4000; --single: 0).
    #[arg(long)]
    pub templated: Option<usize>,
    /// Epochs (recipe: each network's own, 60 and 50; give fewer for a quick trial run).
    #[arg(long)]
    pub epochs: Option<usize>,
    /// How many networks train at once (default: one per core, at most one per network).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub single_options: SingleOptions,
}

/// The options of one network (`--single`); the recipe sets its own.
#[derive(clap::Args)]
pub struct SingleOptions {
    #[arg(long, default_value_t = 64)]
    pub batch_size: usize,
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// Seed for everything random in training: initial weights, shuffling, dropout (and the data
    /// drawn, unless --data-seed says otherwise).
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Seed of the NOOP sample and the templated commands (default: --seed). Networks that will
    /// vote together in an ensemble must see the same data: they need the same output tokens.
    #[arg(long)]
    pub data_seed: Option<u64>,
    /// Seed of the train/validation split, kept apart from --seed so a run with another seed
    /// never trains on the rows other runs were validated on.
    #[arg(long, default_value_t = 42)]
    pub split_seed: u64,
    #[arg(long, default_value_t = 4)]
    pub patience: usize,
    #[arg(long, default_value_t = 128)]
    pub d_model: usize,
    #[arg(long, default_value_t = 2)]
    pub layers: usize,
    /// Dropout on every sublayer's output and on the embeddings.
    #[arg(long, default_value_t = 0.1)]
    pub dropout: f32,
    /// Chance of hiding a training word as `[UNK]`, so the character trigrams learn to stand in.
    #[arg(long, default_value_t = 0.1)]
    pub word_dropout: f32,
    /// Fraction of unique texts held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub valid_fraction: f64,
    /// Validate on at most this many rows per epoch (the final report uses all).
    #[arg(long)]
    pub valid_limit: Option<usize>,
    /// Validate after every N epochs (and after the last).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub valid_every: usize,
    /// Continue from the checkpoint in --out (weights, optimizer state and schedule: give the
    /// same options as the run it continues).
    #[arg(long)]
    pub resume: bool,
    /// Stop after this epoch of the --epochs schedule, leaving the checkpoint for --resume.
    #[arg(long, value_name = "EPOCH")]
    pub pause_after: Option<usize>,
    /// Fine-tune this model directory (its weights, word vocabulary and sizes; new output tokens
    /// are appended) instead of starting from random weights.
    #[arg(long, value_name = "DIR")]
    pub init: Option<PathBuf>,
    /// Pretrained word features from this directory (with --init they start switched off and
    /// training learns how much to use them).
    #[arg(long, value_name = "DIR")]
    pub features: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::keep_freed_memory();
    let single = &args.single_options;
    // Fine-tuning (`--init models/parser --data ROWS`) trains one network.
    let single_run = args.single || single.init.is_some();
    if !single_run && (single.resume || single.pause_after.is_some()) {
        anyhow::bail!("--resume and --pause-after train one network: add --single");
    }
    if args.corpus_only {
        let file = &args.out;
        let generated = corpus::generate(&args.templates, args.templated.unwrap_or(recipe::TEMPLATED), recipe::DATA_SEED)
            .with_context(|| format!("templates in {}", args.templates.display()))?;
        print!("{}", generated.shares());
        std::fs::write(file, generated.rows()).with_context(|| format!("writing {}", file.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    if single_run { run_single(&args) } else { run_recipe(&args) }
}

/// The annotated rows split as every run splits them, with the NOOP and templated examples added
/// to the training side.
fn training_data(
    args: &Args,
    noop: usize,
    templated: usize,
    seed: u64,
) -> anyhow::Result<(Vec<data::Example>, Vec<data::Example>)> {
    let rows = data::load_annotated(&args.data).with_context(|| format!("reading {}", args.data.display()))?;
    let split_seed = args.single_options.split_seed;
    let (mut train, valid) = data::split(rows, args.single_options.valid_fraction, split_seed);
    println!(
        "annotated: {} training rows, {} validation rows (split by unique text, split seed {split_seed})",
        train.len(),
        valid.len(),
    );
    let noop_path = args.noop_data.clone().unwrap_or_else(|| args.data.with_file_name("noop_chat.txt"));
    if noop > 0 && noop_path.exists() {
        let lines = data::load_noop(&noop_path, noop, seed)?;
        println!("noop chat: {} examples from {}", lines.len(), noop_path.display());
        train.extend(lines);
    }
    if templated > 0 {
        let generated = corpus::generate(&args.templates, templated, seed)
            .with_context(|| format!("templates in {}", args.templates.display()))?;
        print!("{}", generated.shares());
        train.extend(generated.examples);
    }
    Ok((train, valid))
}

/// One network, as the options say; the best epoch's model and the checkpoint go to --out.
fn run_single(args: &Args) -> anyhow::Result<ExitCode> {
    let o = &args.single_options;
    let options = trainer::Options {
        epochs: args.epochs.unwrap_or(30),
        batch_size: o.batch_size,
        lr: o.lr,
        seed: o.seed,
        patience: o.patience,
        d_model: o.d_model,
        d_ff: o.d_model * 2,
        encoder_layers: o.layers,
        decoder_layers: o.layers,
        dropout: o.dropout,
        word_dropout: o.word_dropout,
        valid_limit: o.valid_limit,
        valid_every: o.valid_every,
        features: o.features.clone(),
        pause_after: o.pause_after,
        ..Default::default()
    };
    let (noop, templated) = (args.noop.unwrap_or(recipe::NOOP_LINES), args.templated.unwrap_or(0));
    let (train, valid) = training_data(args, noop, templated, o.data_seed.unwrap_or(options.seed))?;
    let start = match (&o.init, o.resume) {
        (Some(dir), false) => trainer::Start::From(dir),
        (Some(_), true) => anyhow::bail!("--init and --resume exclude each other"),
        (None, true) => trainer::Start::Resume,
        (None, false) => trainer::Start::Fresh,
    };
    let (_, report) = trainer::train(&train, &valid, &options, Some(&args.out), start)?;
    if report.paused {
        // The final report waits for the run's end.
        println!(
            "paused after epoch {} of {} in {:.0}s (best epoch so far {}, {:.2}% on the validated rows); run the \
             same command with --resume (without --pause-after, or a later one) to go on",
            report.epochs_run, options.epochs, report.seconds, report.best_epoch, report.best_valid_exact
        );
        return Ok(ExitCode::SUCCESS);
    }
    let best = craftmate::parser::NeuralParser::load_dir(&args.out)?;
    let final_eval = eval::evaluate(&best, &valid);
    std::fs::write(
        args.out.join("train_report.json"),
        serde_json::to_string_pretty(&serde_json::json!({
            "report": report, "options": options, "templated": templated, "noop": noop,
            "valid_exact_match": final_eval.overall.percent(),
        }))?,
    )?;
    println!(
        "done in {:.0}s: {} epochs, best epoch {}, {} training examples; validation exact match {:.2}% ({}/{}); model in {}",
        report.seconds,
        report.epochs_run,
        report.best_epoch,
        report.train_examples,
        final_eval.overall.percent(),
        final_eval.overall.correct,
        final_eval.overall.total,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The recipe's networks, with `--epochs` applied for a trial run.
fn networks(args: &Args) -> Vec<Network> {
    recipe::NETWORKS.iter().map(|n| Network { epochs: args.epochs.unwrap_or(n.epochs), ..*n }).collect()
}

/// The whole recipe: networks in parallel processes, then combining and the evaluation.
fn run_recipe(args: &Args) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    // Checked here, before an hour of training could end in a missing file.
    let rows = data::load_annotated(&args.data).with_context(|| format!("reading {}", args.data.display()))?;
    let (_, valid) = data::split(rows, args.single_options.valid_fraction, args.single_options.split_seed);
    let templated = args.templated.unwrap_or(recipe::TEMPLATED);
    if templated > 0 {
        let generated = corpus::generate(&args.templates, templated, recipe::DATA_SEED)
            .with_context(|| format!("templates in {} (run from the repository root)", args.templates.display()))?;
        print!("{}", generated.shares());
    }
    let layout = Layout::new(&args.out);
    craftmate::parser::write_shipped_features(&layout.features())?;
    let networks = networks(args);
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    println!(
        "training {} networks in {} ({} at a time, one core each; logs in {}/networks/*/train.log)",
        networks.len(),
        args.out.display(),
        jobs.min(networks.len()),
        args.out.display()
    );
    train_networks(args, &layout, &networks, jobs, templated)?;
    println!("combining: kept epochs, ensemble, f16 weights");
    let model = recipe::combine(&layout, &networks)?;
    let parser = craftmate::parser::NeuralParser::load_dir(&model)?;
    let report = eval::evaluate(&parser, &valid);
    let shipped = craftmate::parser::NeuralParser::shipped()?;
    let shipped_report = eval::evaluate(&shipped, &valid);
    println!(
        "done in {:.0} min: {}, exact match on the {} held-out rows (no epoch was chosen on any of them):",
        started.elapsed().as_secs_f64() / 60.0,
        model.display(),
        valid.len(),
    );
    let clean = craftmate::training::recipe::VALID_LIMIT..valid.len();
    for (name, r) in [("this model", &report), ("the shipped model", &shipped_report)] {
        let rest = r.rows(clean.clone());
        let rows = if clean.is_empty() {
            String::new()
        } else {
            format!("; rows {}-{} {:.2}% ({}/{})", clean.start + 1, clean.end, rest.percent(), rest.correct, rest.total)
        };
        println!("  {name:<18} whole split {:.2}% ({}/{}){rows}", r.overall.percent(), r.overall.correct, r.overall.total);
    }
    println!(
        "to ship it: copy {dir}'s files over models/parser/ (its partners/ too) and run `cargo test` (see \
         training/README.md)",
        dir = model.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The command line of one network's process: this binary's `train --single` with the recipe's
/// options for it, resuming when its directory already holds a checkpoint.
fn network_command(args: &Args, layout: &Layout, network: &Network, templated: usize) -> anyhow::Result<Command> {
    let dir = layout.network(network);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let options = recipe::options(network, &layout.features());
    let mut command = Command::new(std::env::current_exe().context("finding this program")?);
    command
        .arg("train")
        .arg("--single")
        .arg("--data")
        .arg(&args.data)
        .arg("--out")
        .arg(&dir)
        .arg("--templates")
        .arg(&args.templates)
        .args(["--templated", &templated.to_string()])
        .args(["--noop", &args.noop.unwrap_or(recipe::NOOP_LINES).to_string()])
        .args(["--epochs", &options.epochs.to_string()])
        .args(["--seed", &options.seed.to_string()])
        .args(["--data-seed", &recipe::DATA_SEED.to_string()])
        .args(["--patience", &options.patience.to_string()])
        .args(["--split-seed", &args.single_options.split_seed.to_string()])
        .args(["--valid-fraction", &args.single_options.valid_fraction.to_string()])
        .arg("--features")
        .arg(layout.features());
    if let Some(limit) = options.valid_limit {
        command.args(["--valid-limit", &limit.to_string()]);
    }
    command.args(["--valid-every", &options.valid_every.to_string()]);
    if let Some(noop) = &args.noop_data {
        command.arg("--noop-data").arg(noop);
    }
    if dir.join(checkpoint::CHECKPOINT_STATE).exists() {
        command.arg("--resume");
    }
    let log = std::fs::File::create(dir.join("train.log")).with_context(|| format!("creating {}/train.log", dir.display()))?;
    command.env("RAYON_NUM_THREADS", "1").stdin(Stdio::null()).stdout(log.try_clone()?).stderr(log);
    Ok(command)
}

/// How many epochs a network's run has finished, read from its checkpoint.
fn epochs_done(dir: &Path) -> u64 {
    std::fs::read_to_string(dir.join(checkpoint::CHECKPOINT_STATE))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|state| state["epoch"].as_u64())
        .unwrap_or(0)
}

/// Runs every network's process, `jobs` at a time, with a progress bar each (epochs done, read
/// from its checkpoint); an error names the network that failed and its log.
fn train_networks(args: &Args, layout: &Layout, networks: &[Network], jobs: usize, templated: usize) -> anyhow::Result<()> {
    let bars = MultiProgress::new();
    let style = ProgressStyle::with_template("network {prefix} [{bar:30}] epoch {pos}/{len} {msg} ({elapsed})")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    let mut waiting: Vec<(&Network, ProgressBar)> = networks
        .iter()
        .map(|n| {
            let bar = bars.add(ProgressBar::new(n.epochs as u64));
            bar.set_style(style.clone());
            bar.set_prefix(n.name);
            bar.set_position(epochs_done(&layout.network(n)));
            bar.set_message("waiting");
            (n, bar)
        })
        .collect();
    waiting.reverse();
    let mut running: Vec<(&Network, ProgressBar, Child)> = Vec::new();
    loop {
        while running.len() < jobs
            && let Some((network, bar)) = waiting.pop()
        {
            let child = network_command(args, layout, network, templated)?
                .spawn()
                .with_context(|| format!("starting network {}", network.name))?;
            bar.set_message("training");
            running.push((network, bar, child));
        }
        if running.is_empty() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_secs(2));
        let mut still = Vec::new();
        let mut failed = None;
        for (network, bar, mut child) in running {
            let dir = layout.network(network);
            bar.set_position(epochs_done(&dir));
            match child.try_wait()? {
                None => still.push((network, bar, child)),
                Some(status) if status.success() => bar.finish_with_message("done"),
                Some(status) => {
                    bar.abandon_with_message("failed");
                    failed = Some(format!("network {} failed ({status}); see {}/train.log", network.name, dir.display()));
                }
            }
        }
        if let Some(why) = failed {
            for (_, bar, mut other) in still {
                let _ = other.kill();
                let _ = other.wait();
                bar.abandon_with_message("stopped");
            }
            anyhow::bail!("{why}. The same command resumes every network from its last checkpoint");
        }
        running = still;
    }
}
