//! Fuzzing of both C APIs (see `fuzz_cases`) with the single-kernel length capped at 16, so that small
//! lengths take the multi-pass paths, and CPU batches in chunks of at most 16 KiB (`planner::chunks`), so
//! that batches of them run in chunks.

mod common;
mod fuzz_cases;

common::env_before_main!("FFTX_TUNE", "profile=cpu;max_leaf=16;chunk=16384");

#[test]
fn clfft_call_sequences() {
    fuzz_cases::clfft_call_sequences();
}

#[test]
fn fftx_call_sequences() {
    fuzz_cases::fftx_call_sequences();
}
