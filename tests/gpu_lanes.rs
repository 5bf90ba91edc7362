//! The GPU code path with four transforms per slot in vector lanes (`FFTX_TUNE=gpu_lanes=4`), which makes
//! each work-item's loads and stores along columns whole 32-byte runs; see `leaf::shape`.

mod common;
mod gpu_cases;

fn force_gpu_shapes_with_lanes() {
    // Set before the first plan in this test binary; every test here wants the same overrides.
    std::env::set_var("FFTX_TUNE", "profile=gpu;max_leaf=64;gpu_lanes=4");
}

#[test]
fn gpu_lanes_complex() {
    force_gpu_shapes_with_lanes();
    gpu_cases::complex();
}

#[test]
fn gpu_lanes_real_and_bluestein() {
    force_gpu_shapes_with_lanes();
    gpu_cases::real_and_bluestein();
}
