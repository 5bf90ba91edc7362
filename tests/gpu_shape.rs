//! The GPU code path (one transform per slot, work-items cooperating through local memory and barriers)
//! and deep decompositions, run on whatever device is present by forcing the planner's choices.

mod common;
mod gpu_cases;

fn force_gpu_shapes() {
    // Set before the first plan in this test binary; every test here wants the same overrides.
    std::env::set_var("FFTX_TUNE", "profile=gpu;max_leaf=64");
}

#[test]
fn gpu_shaped_kernels_and_deep_four_step() {
    force_gpu_shapes();
    gpu_cases::complex();
}

#[test]
fn gpu_shaped_real_and_bluestein() {
    force_gpu_shapes();
    gpu_cases::real_and_bluestein();
}
