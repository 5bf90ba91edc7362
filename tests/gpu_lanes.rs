//! The GPU code path with four transforms per slot in vector lanes (`FFTX_TUNE=gpu_lanes=4`), which makes
//! each work-item's loads and stores along columns whole 32-byte runs; see `leaf::shape`.

mod common;
mod gpu_cases;

common::env_before_main!("FFTX_TUNE", "profile=gpu;max_leaf=64;gpu_lanes=4");

#[test]
fn gpu_lanes_complex() {
    gpu_cases::complex();
}

#[test]
fn gpu_lanes_real_and_bluestein() {
    gpu_cases::real_and_bluestein();
}
