//! Deep decompositions (see `deep_cases`) with CPU-shaped kernels forced.

mod common;
mod deep_cases;

fn force_small_cpu_kernels() {
    // Every test here wants the same overrides, set before its first plan.
    std::env::set_var("FFTX_TUNE", "profile=cpu;max_leaf=16");
}

#[test]
fn with_scratch() {
    force_small_cpu_kernels();
    deep_cases::with_scratch();
}

#[test]
fn without_scratch() {
    force_small_cpu_kernels();
    deep_cases::without_scratch();
}

#[test]
fn real_axes_around_three_passes() {
    force_small_cpu_kernels();
    deep_cases::real_axes_around_three_passes();
}

#[test]
fn bluestein_in_passes() {
    force_small_cpu_kernels();
    deep_cases::bluestein_in_passes();
}
