//! Fuzzing of both C APIs (see `fuzz_cases`) with the planner's own choices.

mod common;
mod fuzz_cases;

#[test]
fn clfft_call_sequences() {
    fuzz_cases::clfft_call_sequences();
}

#[test]
fn fftx_call_sequences() {
    fuzz_cases::fftx_call_sequences();
}
