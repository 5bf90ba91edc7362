//! The GPU code path (one transform per slot, work-items cooperating through local memory and barriers)
//! and deep decompositions, run on whatever device is present by forcing the planner's choices.

mod common;
mod gpu_cases;

common::env_before_main!("FFTX_TUNE", "profile=gpu;max_leaf=64");

#[test]
fn gpu_shaped_kernels_and_deep_four_step() {
    gpu_cases::complex();
}

#[test]
fn gpu_shaped_real_and_bluestein() {
    gpu_cases::real_and_bluestein();
}
