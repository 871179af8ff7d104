//! Training and evaluating the neural parser: data loading and splitting ([`data`]), the templated
//! command generator ([`templates`]), more rows made from the annotated ones by swapping span
//! words ([`swaps`]), the training loop ([`trainer`]) with its running average of the weights
//! ([`ema`]), its resumable optimizer ([`adamw`]) and its fine-tuning of the pretrained word
//! features ([`tune`]), a run's last epoch as a model ([`checkpoint_model`]), weight averaging of
//! fine-tuned runs ([`average`]), ensembles of separate runs ([`ensemble`]), half-size (f16)
//! copies of trained models ([`half`]), the checks every new model directory gets
//! ([`model_dir`]), the benchmark ([`eval`]), how high exact match can go on the data itself
//! ([`ceiling`]) and row-by-row comparisons of two models' results ([`compare`]).

pub mod adamw;
pub mod average;
pub mod ceiling;
pub mod checkpoint_model;
pub mod compare;
pub mod data;
pub mod ema;
pub mod ensemble;
pub mod eval;
pub mod half;
pub mod model_dir;
pub mod swaps;
pub mod templates;
pub mod trainer;
pub mod tune;
