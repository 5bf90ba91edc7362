//! The exported transposes with GPU-shaped kernels forced (tiles through local memory and barriers), on
//! whatever device is present (see `transpose_cases`).

mod common;
mod transpose_cases;

common::env_before_main!("FFTX_TUNE", "profile=gpu");

#[test]
fn squares_in_place() {
    transpose_cases::squares_in_place();
}

#[test]
fn the_largest_square() {
    transpose_cases::the_largest_square();
}

#[test]
fn rectangles_one_to_k_in_place() {
    transpose_cases::rectangles_one_to_k_in_place();
}

#[test]
fn other_rectangles_in_place_are_not_implemented() {
    transpose_cases::other_rectangles_in_place_are_not_implemented();
}

#[test]
fn out_of_place_any_shape() {
    transpose_cases::out_of_place_any_shape();
}
