//! The exported transposes with GPU-shaped kernels forced (tiles through local memory and barriers), on
//! whatever device is present (see `transpose_cases`).

mod common;
mod transpose_cases;

fn force_gpu_shapes() {
    // Every test here wants the same override, set before its first transpose is planned.
    std::env::set_var("FFTX_TUNE", "profile=gpu");
}

#[test]
fn squares_in_place() {
    force_gpu_shapes();
    transpose_cases::squares_in_place();
}

#[test]
fn the_largest_square() {
    force_gpu_shapes();
    transpose_cases::the_largest_square();
}

#[test]
fn rectangles_one_to_k_in_place() {
    force_gpu_shapes();
    transpose_cases::rectangles_one_to_k_in_place();
}

#[test]
fn other_rectangles_in_place_are_not_implemented() {
    force_gpu_shapes();
    transpose_cases::other_rectangles_in_place_are_not_implemented();
}

#[test]
fn out_of_place_any_shape() {
    force_gpu_shapes();
    transpose_cases::out_of_place_any_shape();
}
