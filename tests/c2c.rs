//! Complex-to-complex accuracy against a double-precision reference, through the clFFT C API.

mod common;
use common::*;

fn assert_accurate(case: Case) {
    let rmse = case.run();
    let tol = tolerance(case.precision);
    assert!(rmse <= tol, "rmse {rmse:.3e} > {tol:.0e} for {case:?}");
}

#[test]
fn every_radix_and_mixed_lengths() {
    for p in [Prec::Single, Prec::Double] {
        // 20, 160 = 8 x 20 and 500 = 20 x 5 x 5 take radix 20 in double on CPUs.
        for n in [1, 2, 3, 4, 5, 7, 8, 11, 13, 16, 20, 160, 500, 2 * 3 * 5 * 7 * 11 * 13, 1000, 2187] {
            assert_accurate(Case::new(&[n]).batch(3).precision(p));
        }
    }
}

/// Four-steps whose first pass has a row count that is not a multiple of the CPU lanes (16807 = 7 x 2401,
/// 14641 = 11 x 1331): a slot's lanes then end one row and start the next, each with its own twiddles.
#[test]
fn four_steps_with_rows_across_slots() {
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[16807]).batch(3).precision(p));
        assert_accurate(Case::new(&[14641]).batch(2).precision(p).backward());
    }
}

/// Four-steps of 8 rows, which CPUs run as one kernel whose lanes hold the 8 interleaved parts of a
/// transform and end with a DFT across them: both directions, in place, planar, and with output elements
/// two apart (two passes again).
#[test]
fn four_steps_of_eight_rows_in_one_kernel() {
    // Enough transforms that the first pass of 8 rows has work for every thread.
    let batch = 24;
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[1 << 14]).batch(batch).precision(p));
        assert_accurate(Case::new(&[1 << 14]).batch(batch).precision(p).in_place().backward());
        assert_accurate(Case::new(&[3 << 13]).batch(batch).precision(p).planar(true, true).backward());
        let strided = Case::new(&[1 << 13]).batch(batch).precision(p).strides(&[1], &[2]);
        assert_accurate(strided.dists(1 << 13, 1 << 14));
    }
}

/// Four-steps of 7 and 5 rows, which CPUs run as one kernel with lanes idle: rows whose length is not a
/// multiple of the 8 lanes (675, 2401 and 1215 leave tails of 3, 1 and 7 for the DFT across the lanes),
/// both directions, in place and planar.
#[test]
fn four_steps_of_seven_and_five_rows_in_one_kernel() {
    let batch = 17;
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[7 * 675]).batch(batch).precision(p));
        assert_accurate(Case::new(&[7 * 675]).batch(batch).precision(p).in_place().backward());
        assert_accurate(Case::new(&[7 * 2401]).batch(batch).precision(p).planar(true, false));
        assert_accurate(Case::new(&[5 * 1215]).batch(batch).precision(p).backward());
    }
}

#[test]
fn powers_of_two_to_a_million() {
    for p in [Prec::Single, Prec::Double] {
        for log in [6, 9, 10, 12, 13, 16, 20] {
            assert_accurate(Case::new(&[1 << log]).precision(p));
        }
    }
}

#[test]
fn backward_with_default_scale() {
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[360]).batch(5).precision(p).backward());
        assert_accurate(Case::new(&[1 << 14]).precision(p).backward());
    }
}

#[test]
fn in_place_and_out_of_place() {
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[1024]).batch(9).precision(p).in_place());
        assert_accurate(Case::new(&[1 << 15]).batch(2).precision(p).in_place());
        assert_accurate(Case::new(&[1 << 15]).batch(2).precision(p));
    }
}

#[test]
fn multi_dimensional_non_square() {
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[6, 10, 14]).precision(p));
        assert_accurate(Case::new(&[1024, 3]).precision(p).batch(2));
        assert_accurate(Case::new(&[3, 1024]).precision(p).in_place());
        assert_accurate(Case::new(&[64, 64, 64]).precision(p).backward());
        assert_accurate(Case::new(&[8, 1, 5]).precision(p));
    }
}

/// Past 2 MiB per transform a CPU runs the last axis out of place from scratch into the output.
#[test]
fn uncached_multi_dimensional_out_of_place() {
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[1024, 384]).precision(p).batch(2));
        assert_accurate(Case::new(&[96, 64, 80]).precision(p).backward().planar(false, true));
    }
}

/// Axes 0 and 1 of packed data in one kernel, a plane per transform: rows and columns of different
/// radices (primes among them), with a third axis and batches, in place, planar, both directions.
#[test]
fn planes_of_two_axes_in_one_kernel() {
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[64, 64]).batch(5).precision(p));
        assert_accurate(Case::new(&[13, 11, 6]).precision(p).backward());
        assert_accurate(Case::new(&[7, 9]).batch(33).precision(p).in_place());
        assert_accurate(Case::new(&[16, 5, 4]).batch(3).precision(p).planar(true, false));
        assert_accurate(Case::new(&[1024, 4]).batch(2).precision(p).planar(true, true).in_place().backward());
    }
    // Planes longer than one kernel's usual limit, enough of them to fill the lanes (single precision on PoCL).
    assert_accurate(Case::new(&[128, 96, 3]).batch(22));
    assert_accurate(Case::new(&[100, 100]).batch(64).in_place().backward());
}

#[test]
fn planar_and_interleaved_in_every_combination() {
    for p in [Prec::Single, Prec::Double] {
        for (i, o) in [(true, true), (true, false), (false, true)] {
            assert_accurate(Case::new(&[240]).batch(7).precision(p).planar(i, o));
            assert_accurate(Case::new(&[12, 20]).batch(2).precision(p).planar(i, o).backward());
        }
        assert_accurate(Case::new(&[128]).batch(4).precision(p).planar(true, true).in_place());
    }
}

#[test]
fn strided_and_padded_layouts() {
    // Every element three apart on input, two apart on output, with padded batch distances.
    assert_accurate(Case::new(&[100]).batch(6).strides(&[3], &[2]).dists(307, 211));
    // Transforms interleaved with each other: element stride = batch, distance 1.
    assert_accurate(Case::new(&[64]).batch(5).strides(&[5], &[5]).dists(1, 1));
    // 2D with padded rows on input and output.
    assert_accurate(Case::new(&[30, 7]).batch(3).strides(&[1, 33], &[1, 31]).dists(33 * 7 + 4, 31 * 7));
    // 3D with permuted strides.
    assert_accurate(Case::new(&[4, 5, 6]).strides(&[30, 6, 1], &[1, 4, 20]).double());
    // In place with padding.
    assert_accurate(Case::new(&[48, 10]).batch(2).strides(&[1, 50], &[1, 50]).dists(520, 520).in_place());
}

/// Zero input strides and distances read one value for a whole axis or batch, as clFFT does; with both
/// distances zero every transform writes the same result to the same place, which one transform does.
#[test]
fn zero_input_strides_and_distances() {
    assert_accurate(Case::new(&[64]).batch(3).strides(&[0], &[1]).dists(1, 64));
    assert_accurate(Case::new(&[1 << 16]).batch(2).strides(&[1], &[1]).dists(0, 1 << 16));
    assert_accurate(Case::new(&[32, 16]).batch(2).strides(&[1, 0], &[1, 32]).dists(32, 512).double());
    assert_accurate(Case::new(&[100]).batch(4).dists(0, 0));
}

/// CPU leaves in double precision run their passes in place in one local buffer (decimation in frequency,
/// the output read in digit-reversed order), which gives 4096 points 8 lanes: powers of 16 and mixed
/// radices, a part slot, both directions, planar, in place, transforms interleaved along columns.
#[test]
fn double_leaves_with_passes_in_place() {
    for n in [4096, 4000, 4095, 3125] {
        assert_accurate(Case::new(&[n]).batch(11).double());
    }
    assert_accurate(Case::new(&[4096]).batch(9).double().backward());
    assert_accurate(Case::new(&[4096]).batch(8).double().planar(true, false));
    assert_accurate(Case::new(&[4096]).batch(8).double().planar(true, true).in_place());
    assert_accurate(Case::new(&[4000]).batch(3).double().in_place());
    assert_accurate(Case::new(&[4096]).batch(16).strides(&[16], &[16]).dists(1, 1).double());
    assert_accurate(Case::new(&[4095, 2]).batch(2).double().backward());
}

#[test]
fn large_batches_of_small_transforms() {
    assert_accurate(Case::new(&[16]).batch(1001));
    assert_accurate(Case::new(&[6]).batch(4099).double());
    // 8 MiB out of place, which CPUs store with streaming stores, along rows and along columns.
    assert_accurate(Case::new(&[64]).batch(1 << 14));
    assert_accurate(Case::new(&[64]).batch(1 << 14).strides(&[1 << 14], &[1 << 14]).dists(1, 1));
}

/// 64 points (and 256 single points on a device with 16-lane float vectors) run in registers, one
/// transform at a time (8 rows of 8, 16 of 16): partial slots, both directions, planar sides, in place,
/// rows off a vector boundary, and rows of a 2D transform with a batch dimension between them.
#[test]
fn square_lengths_in_registers() {
    for (n, p) in [(64, Prec::Single), (64, Prec::Double), (256, Prec::Single)] {
        assert_accurate(Case::new(&[n]).batch(13).precision(p));
        assert_accurate(Case::new(&[n]).batch(9).precision(p).backward().planar(true, false));
        assert_accurate(Case::new(&[n]).batch(19).precision(p).planar(false, true));
        assert_accurate(Case::new(&[n]).batch(12).precision(p).planar(true, true).in_place().backward());
        assert_accurate(Case::new(&[n]).batch(16).precision(p).in_place());
        assert_accurate(Case::new(&[n]).batch(10).precision(p).dists(n + 3, n + 1));
        assert_accurate(
            Case::new(&[n, 3]).batch(4).precision(p).strides(&[1, n + 6], &[1, n + 2]).dists(3 * n + 23, 3 * n + 8),
        );
    }
}

#[test]
fn transposed_2d_result() {
    assert_accurate(Case::new(&[16, 12]).transposed());
    assert_accurate(Case::new(&[20, 20]).batch(2).transposed().double());
}

/// In place, as clFFT does for 2D powers of two: the transform, then the packed transpose over its input
/// (squares, and one side a multiple of the other, in both directions).
#[test]
fn transposed_2d_result_in_place() {
    assert_accurate(Case::new(&[64, 128]).in_place().transposed());
    assert_accurate(Case::new(&[36, 12]).batch(3).in_place().transposed().backward());
    assert_accurate(Case::new(&[20, 20]).batch(2).in_place().transposed().double().planar(true, true));
    assert_accurate(Case::new(&[48, 16]).in_place().transposed().no_mem_alloc(true));
}

#[test]
fn forward_then_backward_returns_the_input() {
    for p in [Prec::Single, Prec::Double] {
        let lengths = [60, 21];
        let forward = Case::new(&lengths).batch(2).precision(p);
        let input = random_complex(60 * 21 * 2, 7);
        let (_, spectrum) = forward.run_with_input(Some(&input));
        let (_, back) = Case::new(&lengths).batch(2).precision(p).backward().run_with_input(Some(&spectrum));
        let err: f64 = back.iter().zip(&input).map(|(a, b)| (a - b).norm_sqr()).sum::<f64>().sqrt();
        let norm: f64 = input.iter().map(|v| v.norm_sqr()).sum::<f64>().sqrt();
        assert!(err / norm <= 2.0 * tolerance(p), "round trip error {:.3e}", err / norm);
    }
}
