//! Training and evaluating the neural parser.
//!
//! - Data: loading and splitting the annotated commands ([`data`]); the generated [`corpus`]:
//!   our templates expanded ([`templates`]) and written again as players type ([`variants`]).
//! - One network: the training loop ([`trainer`]) with what it prepares before the first step
//!   ([`prepare`]), its loss ([`loss`]), learning-rate [`schedule`], resumable optimizer
//!   ([`adamw`]), checkpoints ([`checkpoint`]) and saved models ([`save`]).
//! - Combining networks: a run's last epoch as a model ([`checkpoint_model`]), weight averaging
//!   ([`average`]), ensembles ([`ensemble`]), half-size (f16) copies ([`half`]), the checks every
//!   new model directory gets ([`model_dir`]); the shipped [`recipe`] puts them together.
//! - The benchmark ([`eval`]).
//!
//! Research tools that are not part of making the shipped model (how consistent the annotations
//! are, comparing two models row by row, packing a BERT as word features) live in the
//! `craftmate-lab` package under `training/`.

pub mod adamw;
pub mod average;
pub mod checkpoint;
pub mod checkpoint_model;
pub mod corpus;
pub mod data;
pub mod ensemble;
pub mod eval;
pub mod half;
pub mod loss;
pub mod model_dir;
pub mod prepare;
pub mod recipe;
pub mod save;
pub mod schedule;
pub mod templates;
pub mod trainer;
pub mod variants;
