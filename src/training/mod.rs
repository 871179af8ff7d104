//! Training and evaluating the neural parser: data loading and splitting ([`data`]), the templated
//! command generator ([`templates`]), the training loop ([`trainer`]) and the benchmark ([`eval`]).

pub mod data;
pub mod eval;
pub mod templates;
pub mod trainer;
