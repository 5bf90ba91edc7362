//! Deep decompositions (see `deep_cases`) with GPU-shaped kernels forced, their four-step twiddles formed as
//! for moduli above 2^32 (`wide_twiddle`: a GPU could hold such a transform in its memory; `deep_cpu` takes
//! the usual form). That form's long multiplication runs only for products past 2^64, which no length a
//! test holds makes: here it builds, and its one-product shortcut runs.

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
