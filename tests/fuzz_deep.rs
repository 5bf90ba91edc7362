//! Fuzzing of both C APIs (see `fuzz_cases`) with the single-kernel length capped at 16, so that small
//! lengths take the multi-pass paths, and CPU batches in chunks of at most 16 KiB (`planner::chunks`), so
//! that batches of them run in chunks.

mod common;
mod fuzz_cases;

fn force_small_cpu_kernels() {
    // Both tests want the same overrides, set before their first plan.
    std::env::set_var("FFTX_TUNE", "profile=cpu;max_leaf=16;chunk=16384");
}

#[test]
fn clfft_call_sequences() {
    force_small_cpu_kernels();
    fuzz_cases::clfft_call_sequences();
}

#[test]
fn fftx_call_sequences() {
    force_small_cpu_kernels();
    fuzz_cases::fftx_call_sequences();
}
