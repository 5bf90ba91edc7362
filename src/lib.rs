//! fftx: a fast OpenCL FFT library.
//!
//! `libfftx.so` is a binary drop-in for clFFT 2.12 (`api::clfft`). The layers follow data one way:
//! `api -> plan -> planner -> codegen -> runtime`. `unsafe` lives only in `api` and `runtime`.

#![deny(unsafe_op_in_unsafe_fn)]

pub mod api;
pub mod codegen;
pub mod error;
pub mod log;
pub mod plan;
pub mod planner;
pub mod runtime;
pub mod types;

pub use error::{Error, ErrorKind, Result};
