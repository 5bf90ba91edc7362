//! Decompositions three and four levels deep, exercised with small sizes by capping the single-kernel
//! length at 16 (tuning `max_leaf=16`): four-steps, three-pass splits whose middle pass is split again
//! (through scratch, or in place without it), carried twiddles, real transforms around them, batches,
//! strides, layouts and both directions, each with CPU-shaped and with GPU-shaped kernels.
//!
//! The GPU-shaped plans form their four-step twiddles as for moduli above 2^32 (`wide_twiddle`: a GPU could
//! hold such a transform in its memory). That form's long multiplication runs only for products past 2^64,
//! which no length a test holds makes: here it builds, and its one-product shortcut runs.

mod common;

use common::*;

const CPU_SHAPE: &str = "profile=cpu;max_leaf=16";
const GPU_SHAPE: &str = "profile=gpu;max_leaf=16;wide_twiddle=on";

fn checked(case: Case) {
    let rmse = case.run();
    assert!(rmse <= tolerance(case.precision), "rmse {rmse:.3e} for {case:?}");
}

/// 1024 = 16 x 4 x 16; 2187 = 9 x 27 x 9 with 27 = 9 x 3 in its own scratch; 2^14 = 16 x 64 x 16 with
/// 64 = 16 x 4; 300 = 15 x 2 x 10. Every case builds its own kernels (PoCL takes about a second each), so
/// double precision runs one case: the plans are the same.
fn with_scratch(tuning: &'static str) {
    for n in [1024, 2187, 1 << 14, 300] {
        checked(Case::new(&[n]).tuning(tuning));
    }
    checked(Case::new(&[2187]).tuning(tuning).double());
    checked(Case::new(&[1024]).tuning(tuning).batch(3).in_place().backward());
    checked(Case::new(&[2187]).tuning(tuning).batch(2).planar(true, false));
    checked(Case::new(&[300, 6]).tuning(tuning).in_place().planar(true, true));
    checked(Case::new(&[5, 1 << 12]).tuning(tuning).backward());
    checked(Case::new(&[1 << 12]).tuning(tuning).strides(&[3], &[2]).dists(3 << 12, 1 << 13).batch(2));
}

/// 4096 = 16 x 16 x 16; 2^16 = 16 x 256 x 16 with 256 = 16 x 1 x 16 in place again; 40898 = 13 x 242 x 13
/// with 242 = 11 x 2 x 11.
fn without_scratch(tuning: &'static str) {
    for n in [4096, 1 << 16, 2 * 121 * 169] {
        checked(Case::new(&[n]).tuning(tuning).in_place().no_mem_alloc(true));
    }
    checked(Case::new(&[1 << 16]).tuning(tuning).double().in_place().no_mem_alloc(true));
    checked(Case::new(&[4096]).tuning(tuning).batch(3).in_place().backward().no_mem_alloc(true));
    checked(Case::new(&[729]).tuning(tuning).batch(2).planar(false, true).no_mem_alloc(true));
    checked(Case::new(&[1 << 12, 3]).tuning(tuning).in_place().planar(true, true).no_mem_alloc(true));
    checked(Case::new(&[7, 4096]).tuning(tuning).in_place().backward().no_mem_alloc(true));
}

/// Long real axes: a complex three-pass of half the length through scratch. R2C pairs the columns k3 + c k2
/// of the last pass with their mirrors there (1024 = 16 x 16 x 4 in single, 2048 = 16 x 16 x 8 in double),
/// or runs an edge pass of its own: runs of four columns crossing k2 (1536 = 16 x 16 x 6), double rows off
/// the cache-line grid (three packed rows of 1025 values). C2R pre-processes in the first pass, whose 256
/// rows it loads in pairs of blocks with their mirrors.
fn real_axes_around_three_passes(tuning: &'static str) {
    let cases = [(2048, 2, Prec::Single), (4096, 1, Prec::Double), (3072, 1, Prec::Double), (2048, 3, Prec::Double)];
    for dir in [RealDir::R2C, RealDir::C2R] {
        for (n, batch, p) in cases {
            let rmse = RealCase::new(&[n], dir).tuning(tuning).batch(batch).precision(p).run();
            assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {n} x {batch} {p:?} {dir:?}");
        }
    }
}

/// Bluestein fused into the first and last passes of its four-steps, which read only the n inputs and write
/// only the n outputs: primes p with p - 1 not smooth (no Rader), 47 -> 96 = 12 x 8, 83 -> 192 in two
/// passes, 167 -> 384 = 16 x 2 x 12 in three; batches (whose outputs sit closer than the convolution length), strides,
/// layouts and 2D.
fn bluestein_in_passes(tuning: &'static str) {
    checked(Case::new(&[47]).tuning(tuning));
    checked(Case::new(&[47]).tuning(tuning).batch(3));
    checked(Case::new(&[83]).tuning(tuning).batch(2).backward().planar(true, false));
    checked(Case::new(&[167]).tuning(tuning).batch(3).strides(&[2], &[3]).dists(400, 600));
    checked(Case::new(&[47, 6]).tuning(tuning).in_place());
}

#[test]
fn with_scratch_cpu_shape() {
    with_scratch(CPU_SHAPE);
}

#[test]
fn with_scratch_gpu_shape() {
    with_scratch(GPU_SHAPE);
}

#[test]
fn without_scratch_cpu_shape() {
    without_scratch(CPU_SHAPE);
}

#[test]
fn without_scratch_gpu_shape() {
    without_scratch(GPU_SHAPE);
}

#[test]
fn real_axes_around_three_passes_cpu_shape() {
    real_axes_around_three_passes(CPU_SHAPE);
}

#[test]
fn real_axes_around_three_passes_gpu_shape() {
    real_axes_around_three_passes(GPU_SHAPE);
}

#[test]
fn bluestein_in_passes_cpu_shape() {
    bluestein_in_passes(CPU_SHAPE);
}

#[test]
fn bluestein_in_passes_gpu_shape() {
    bluestein_in_passes(GPU_SHAPE);
}
