//! Deep decompositions (see `deep_cases`) with CPU-shaped kernels forced.

mod common;
mod deep_cases;

common::env_before_main!("FFTX_TUNE", "profile=cpu;max_leaf=16");

#[test]
fn with_scratch() {
    deep_cases::with_scratch();
}

#[test]
fn without_scratch() {
    deep_cases::without_scratch();
}

#[test]
fn real_axes_around_three_passes() {
    deep_cases::real_axes_around_three_passes();
}

#[test]
fn bluestein_in_passes() {
    deep_cases::bluestein_in_passes();
}
