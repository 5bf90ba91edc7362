//! Deep decompositions (see `deep_cases`) with GPU-shaped kernels forced, their four-step twiddles formed as
//! for moduli above 2^32 (`wide_twiddle`: a GPU could hold such a transform in its memory; `deep_cpu` takes
//! the usual form).

mod common;
mod deep_cases;

common::env_before_main!("FFTX_TUNE", "profile=gpu;max_leaf=16;wide_twiddle=on");

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
