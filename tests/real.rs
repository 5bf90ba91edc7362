//! Real-to-complex and complex-to-real transforms against a double-precision reference.

mod common;
use common::*;
use fftx::api::clfft::*;
use fftx::planner::packed_strides;
use num_complex::Complex64;

fn assert_accurate(case: RealCase) {
    let rmse = case.run();
    let tol = tolerance(case.precision);
    assert!(rmse <= tol, "rmse {rmse:.3e} > {tol:.0e} for {case:?}");
}

#[test]
fn one_dimensional_even_and_odd() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            for n in [1, 2, 3, 4, 5, 7, 8, 11, 13, 14, 22, 26, 30, 44, 64, 81, 1000, 1024, 2187, 4096, 8192] {
                assert_accurate(RealCase::new(&[n], dir).batch(3).precision(p));
            }
        }
    }
}

#[test]
fn long_real_axes_use_edge_passes() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            assert_accurate(RealCase::new(&[1 << 14], dir).precision(p));
            assert_accurate(RealCase::new(&[3 * 5 * 7 * 11 * 13], dir).precision(p).batch(2));
            assert_accurate(RealCase::new(&[1 << 20], dir).precision(p));
        }
    }
    // The edge pass reads and writes vectors on unit strides, element by element otherwise; planar too.
    for dir in [RealDir::R2C, RealDir::C2R] {
        assert_accurate(RealCase::new(&[1 << 14], dir).batch(2).spread(2));
        assert_accurate(RealCase::new(&[2 * 4099], dir).planar());
    }
}

/// Halves of 8 x (up to 4096) points with enough transforms run as one kernel on CPUs, a DFT across the
/// lanes fused into the four-step's long pass: on its load for R2C (whose post-process then runs across the
/// lanes of the store), on its store for C2R (whose pre-process runs across the lanes of the load). Both
/// precisions, planar, redundant imaginary parts; in place and spread rows run two passes again.
#[test]
fn halves_of_eight_parts_in_one_kernel() {
    let batch = 24;
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            assert_accurate(RealCase::new(&[1 << 14], dir).batch(batch).precision(p));
            assert_accurate(RealCase::new(&[3 << 12], dir).batch(batch).precision(p).planar());
        }
        assert_accurate(RealCase::new(&[1 << 14], RealDir::C2R).batch(batch).precision(p).perturbed());
    }
    for dir in [RealDir::R2C, RealDir::C2R] {
        assert_accurate(RealCase::new(&[1 << 14], dir).batch(batch).in_place());
        assert_accurate(RealCase::new(&[1 << 14], dir).batch(batch).spread(2));
    }
}

/// Halves longer than 8 x 4096 points: R2C pairs the columns of the four-step's last pass with their
/// mirrors (two runs of four columns per slot, the slots of a row in order), in a pair leaf of up to 2048
/// points in single and 1024 in double: packed rows off the cache-line grid, on it (one transform), planar,
/// in place, 2D, a row of 3 x 8 columns; and where rows are strided, the post-process pass instead.
/// R2C rows of n/2 + 1 values and C2R rows of n reals whose half is not a multiple of 8 values, back to
/// back, which a slot of 8 transforms stores as one block of whole vectors: a batch that ends in a part slot,
/// double, in place (padded rows, stored row by row), planar, and 2D rows (8 to a plane) across planes.
/// The R2C post-process there computes each value with its mirror, in blocks of 8 from the lower half of
/// the half length H and one at a time for the rest: H = 128 (whole blocks), 125 (odd), 20 (a block and
/// two), 3 (no block).
#[test]
fn real_rows_back_to_back_store_as_one_block() {
    let r2c = |lengths: &[usize]| RealCase::new(lengths, RealDir::R2C);
    let c2r = |lengths: &[usize]| RealCase::new(lengths, RealDir::C2R);
    for p in [Prec::Single, Prec::Double] {
        for n in [256, 250, 40, 6] {
            assert_accurate(r2c(&[n]).batch(19).precision(p));
        }
        assert_accurate(r2c(&[1000]).batch(16).precision(p));
        assert_accurate(c2r(&[1000]).batch(19).precision(p));
        assert_accurate(c2r(&[100]).batch(16).precision(p).perturbed());
    }
    assert_accurate(r2c(&[256]).batch(9).in_place());
    assert_accurate(r2c(&[256, 8]).batch(3).precision(Prec::Double));
    assert_accurate(c2r(&[1000]).batch(9).in_place());
    assert_accurate(c2r(&[100]).batch(8).planar());
    assert_accurate(c2r(&[1000, 16]).batch(3).precision(Prec::Double));
}

/// A C2R pre-process fuses into a rows load of whole vectors: each block of the lower half loads with its
/// mirror block, and the middle elements, whose blocks would overlap, load as any rows do. Halves of 7 (no
/// block), 15 (blocks only), 22 and 500 (blocks and a gathered middle), 39 (a middle of one whole vector);
/// in place and planar.
#[test]
fn c2r_pre_process_fuses_into_the_rows_load() {
    let c2r = |lengths: &[usize]| RealCase::new(lengths, RealDir::C2R);
    for p in [Prec::Single, Prec::Double] {
        for n in [14, 30, 44, 78, 1000] {
            assert_accurate(c2r(&[n]).batch(19).precision(p));
        }
    }
    assert_accurate(c2r(&[1000]).batch(9).in_place().precision(Prec::Double));
    assert_accurate(c2r(&[78]).batch(16).planar().precision(Prec::Double));
}

#[test]
fn long_r2c_pairs_columns_with_their_mirrors() {
    let r2c = |lengths: &[usize]| RealCase::new(lengths, RealDir::R2C);
    for n in [1 << 17, 2 * 46080] {
        assert_accurate(r2c(&[n]).batch(3));
        assert_accurate(r2c(&[n]).precision(Prec::Double));
    }
    // Single precision pairs 2^18 as 2048 x 64, with 16 lanes; double 2^17 as 1024 x 64, with 8.
    assert_accurate(r2c(&[1 << 18]).batch(2).planar());
    assert_accurate(r2c(&[1 << 18]).batch(2).in_place());
    assert_accurate(r2c(&[1 << 18, 3]));
    assert_accurate(r2c(&[1 << 18]).batch(2));
    assert_accurate(r2c(&[1 << 18]).spread(2));
    assert_accurate(r2c(&[1 << 17]).batch(3).precision(Prec::Double));
    assert_accurate(r2c(&[1 << 17]).batch(2).planar().precision(Prec::Double));
    assert_accurate(r2c(&[1 << 17]).batch(2).spread(2).precision(Prec::Double));
}

/// Column pairs whose stores stream (8 MiB of output or more) over transforms that start off the vector
/// grid assemble whole lines from neighbouring groups' half vectors: every shift of the grid (packed rows of
/// n/2 + 1 values, and distances two values off it), rows of one work-item and of several (2^19 double on
/// two compute units), 16 single lanes. So do the back-to-back rows of an R2C across the lanes (2^14).
/// Nothing lands outside the outputs (`RealCase::run`).
#[test]
fn streaming_r2c_stores_whole_lines_off_the_grid() {
    let r2c = |n: usize| RealCase::new(&[n], RealDir::R2C);
    assert_accurate(r2c(1 << 14).batch(64).precision(Prec::Double));
    assert_accurate(r2c(1 << 14).batch(128).layout_of(&[1], 1 << 14, &[1], (1 << 13) + 2));
    assert_accurate(r2c(1 << 16).batch(16).precision(Prec::Double));
    assert_accurate(r2c(1 << 16).batch(16).precision(Prec::Double).layout_of(&[1], 1 << 16, &[1], (1 << 15) + 2));
    assert_accurate(r2c(1 << 19).batch(3).precision(Prec::Double));
    assert_accurate(r2c(1 << 18).batch(8));
    assert_accurate(r2c(1 << 18).batch(8).layout_of(&[1], 1 << 18, &[1], (1 << 17) + 3));
}

/// Halves of few long rows (64 x 2048 points in single, blocks of 8 rows) or of many (1024 x 128 and
/// 1024 x 256 in double, 1024 x 512, blocks of 16): C2R pre-processes in the four-step's first pass, which
/// loads row blocks in pairs with their mirrors. Packed rows off the cache-line grid, double, planar, in
/// place, 2D, redundant imaginary parts of the DC and Nyquist values; strided rows run the pre-process as a
/// pass of its own.
#[test]
fn long_c2r_pairs_rows_with_their_mirrors() {
    let c2r = |lengths: &[usize]| RealCase::new(lengths, RealDir::C2R);
    assert_accurate(c2r(&[1 << 18]).batch(3));
    assert_accurate(c2r(&[1 << 18]).batch(2).precision(Prec::Double));
    assert_accurate(c2r(&[1 << 19]).precision(Prec::Double));
    assert_accurate(c2r(&[1 << 18]).batch(2).planar());
    assert_accurate(c2r(&[1 << 18]).batch(2).in_place());
    assert_accurate(c2r(&[1 << 18, 2]));
    assert_accurate(c2r(&[1 << 18]).batch(2).perturbed());
    assert_accurate(c2r(&[1 << 18]).batch(2).spread(2));
    assert_accurate(c2r(&[1 << 20]).batch(2));
    assert_accurate(c2r(&[1 << 20]).planar().perturbed());
    assert_accurate(c2r(&[1 << 19]).batch(3).in_place().precision(Prec::Double));
    assert_accurate(c2r(&[1 << 19, 2]).perturbed().precision(Prec::Double));
}

#[test]
fn odd_leaves_run_transforms_in_twins() {
    // One kernel loads x and y and transforms x + i y along any batch of two or more (an odd count shares
    // its middle transform between two pairs, except in place, where an odd count runs one by one); in 2D
    // and 3D along an outer axis; planar, strided, in place. In double the passes run in place: R2C splits
    // the spectra from their digit-reversed positions, C2R loads the second spectrum mirrored beside the
    // first (with redundant imaginary parts that it must ignore).
    assert_accurate(RealCase::new(&[3125], RealDir::R2C).batch(5).precision(Prec::Double));
    assert_accurate(RealCase::new(&[3125], RealDir::C2R).batch(5).precision(Prec::Double).perturbed());
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            for (n, batch) in [(3, 2), (15, 4), (81, 5), (2187, 2)] {
                assert_accurate(RealCase::new(&[n], dir).batch(batch).precision(p));
            }
            assert_accurate(RealCase::new(&[25, 6], dir).precision(p).planar());
            assert_accurate(RealCase::new(&[9, 3, 4], dir).precision(p).batch(2));
            assert_accurate(RealCase::new(&[45], dir).precision(p).batch(4).spread(3));
            for batch in [2, 3] {
                assert_accurate(RealCase::new(&[63], dir).precision(p).batch(batch).in_place());
            }
        }
    }
}

/// Even R2C lengths from 500 points, powers of two aside, pair their transforms as odd lengths do (CPUs),
/// splitting the two spectra as they store: packed rows of 8 transforms (a batch ending in a part slot),
/// streaming from 8 MiB of output (2100 transforms), a lone twin (odd counts, 2D along the outer axis), in
/// place, planar and spread rows; double runs its passes in place.
#[test]
fn even_r2c_lengths_pair_their_transforms() {
    let r2c = |lengths: &[usize]| RealCase::new(lengths, RealDir::R2C);
    for p in [Prec::Single, Prec::Double] {
        for batch in [16, 19] {
            assert_accurate(r2c(&[1000]).batch(batch).precision(p));
        }
        assert_accurate(r2c(&[1000]).batch(4).precision(p).in_place());
        assert_accurate(r2c(&[1000]).batch(5).precision(p).planar());
        assert_accurate(r2c(&[1000, 3]).precision(p));
        assert_accurate(r2c(&[600]).batch(4).precision(p).spread(2));
    }
    assert_accurate(r2c(&[1000]).batch(2100));
    assert_accurate(r2c(&[1536]).batch(19));
    assert_accurate(r2c(&[3000]).batch(8));
}

/// 64 points (and 256 single points with 16-lane float vectors) run in registers as one complex FFT of two
/// transforms, x + i y, like odd lengths: odd counts (the middle transform in two pairs), partial slots, in
/// place, planar, along an outer axis of 2D, with redundant imaginary parts; from 8 MiB of output, where a
/// vector is a whole line (256 single, 64 double), C2R streams its stores (an odd count's lone transform
/// too), and so does R2C, its rows carried onto the vector grid: pair counts whose second spectrum starts
/// off the grid and whose last slot is a part one, even and odd (a lone twin).
#[test]
fn square_lengths_pair_in_registers() {
    for (n, p) in [(64, Prec::Single), (64, Prec::Double), (256, Prec::Single)] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            for batch in [2, 3, 17, 34] {
                assert_accurate(RealCase::new(&[n], dir).batch(batch).precision(p));
            }
            assert_accurate(RealCase::new(&[n], dir).batch(4).precision(p).in_place());
            assert_accurate(RealCase::new(&[n], dir).batch(5).precision(p).planar());
            assert_accurate(RealCase::new(&[n, 3], dir).batch(2).precision(p));
            assert_accurate(RealCase::new(&[n, 5], dir).precision(p).in_place());
        }
        assert_accurate(RealCase::new(&[n], RealDir::C2R).batch(3).precision(p).perturbed());
        let real_bytes = if p == Prec::Single { 4 } else { 8 };
        let streaming = (8 << 20) / (n * real_bytes) + 1;
        assert_accurate(RealCase::new(&[n], RealDir::C2R).batch(streaming).precision(p));
        let pairs = ((8 << 20) / ((n / 2 + 1) * 2 * real_bytes) / 32 + 1) * 16 + 5;
        for batch in [2 * pairs, 2 * pairs + 1] {
            assert_accurate(RealCase::new(&[n], RealDir::R2C).batch(batch).precision(p));
        }
    }
}

#[test]
fn odd_r2c_runs_transforms_in_twins() {
    // Past one kernel an odd R2C runs transform t and t + count / 2 as one complex FFT: an odd count (3, 5)
    // shares its middle transform between two pairs, an even one (4, in place) does not, and in 2D the
    // pairs run along axis 1. 20011 takes Bluestein inside the pairs.
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(RealCase::new(&[16807], RealDir::R2C).batch(3).precision(p));
    }
    assert_accurate(RealCase::new(&[16807], RealDir::R2C).batch(4).in_place());
    assert_accurate(RealCase::new(&[16807, 3], RealDir::R2C).precision(Prec::Double).planar());
    assert_accurate(RealCase::new(&[20011], RealDir::R2C).batch(5));
}

#[test]
fn odd_c2r_runs_transforms_in_twins() {
    // The inverse: transforms t and t + count / 2 merge into one complex FFT whose real and imaginary parts
    // are the two outputs; with an odd count (3) the middle transform is in two pairs, and the pass that
    // stores the outputs leaves it out of the first.
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(4).precision(p));
        assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(2).precision(p).perturbed());
    }
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(3));
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(4).in_place());
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(2).spread(2));
    assert_accurate(RealCase::new(&[16807, 2], RealDir::C2R).precision(Prec::Double).planar());
    assert_accurate(RealCase::new(&[16807, 3], RealDir::C2R).batch(2));
    // An odd count along axis 1, whose coordinate the four-step's last pass tracks; in place.
    assert_accurate(RealCase::new(&[16807, 3], RealDir::C2R).precision(Prec::Double));
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(5).in_place());
    assert_accurate(RealCase::new(&[20011], RealDir::C2R).batch(6));
    // 17 twins (one the middle transform) fill the lanes of 16807 = 7 x 2401 as one kernel, which merges
    // them across the lanes as it loads and whose rows store the two outputs apart; likewise 15625 = 5 x
    // 3125 in five lanes. In place an even count does (34), an odd one merges through scratch (33).
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(33).precision(p));
    }
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(33).precision(Prec::Double).planar().perturbed());
    assert_accurate(RealCase::new(&[15625], RealDir::C2R).batch(33));
    assert_accurate(RealCase::new(&[15625], RealDir::C2R).batch(33).precision(Prec::Double));
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(34).in_place());
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(33).in_place());
    // R2C pairs the same way, split on that kernel's store.
    assert_accurate(RealCase::new(&[16807], RealDir::R2C).batch(33));
    assert_accurate(RealCase::new(&[16807], RealDir::R2C).batch(33).precision(Prec::Double).planar());
    assert_accurate(RealCase::new(&[15625], RealDir::R2C).batch(33));
    assert_accurate(RealCase::new(&[16807], RealDir::R2C).batch(34).in_place());
}

#[test]
fn multi_dimensional() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            assert_accurate(RealCase::new(&[16, 12], dir).precision(p).batch(2));
            assert_accurate(RealCase::new(&[15, 8], dir).precision(p));
            assert_accurate(RealCase::new(&[6, 10, 14], dir).precision(p));
            assert_accurate(RealCase::new(&[7, 9, 4], dir).precision(p).batch(2));
        }
    }
}

/// A multi-dimensional C2R keeps its Hermitian data in scratch with the batch run on after axis 0: a column
/// slot's lanes that end one transform's rows and start the next store as whole vectors there (15 columns x
/// 5 transforms, a last part slot), in 2D and 3D, planar, spread rows, redundant imaginary parts and odd rows.
#[test]
fn c2r_column_lanes_store_across_transforms() {
    let c2r = |lengths: &[usize]| RealCase::new(lengths, RealDir::C2R);
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(c2r(&[28, 64]).batch(5).precision(p));
        assert_accurate(c2r(&[14, 64, 3]).batch(3).precision(p).perturbed());
        assert_accurate(c2r(&[28, 64]).batch(5).precision(p).planar());
    }
    assert_accurate(c2r(&[28, 64]).batch(5).spread(2));
    assert_accurate(c2r(&[27, 64]).batch(5));
}

/// A C2R's first column pass streams its stores into scratch (8 MiB or more) even where the Hermitian columns are
/// no whole number of slots: 1025 and 513 columns, whose last slot stores lane by lane.
#[test]
fn c2r_columns_stream_with_a_ragged_last_slot() {
    assert_accurate(RealCase::new(&[2048, 1024], RealDir::C2R));
    assert_accurate(RealCase::new(&[1024, 1024], RealDir::C2R).precision(Prec::Double));
}

#[test]
fn column_lanes_load_across_transforms() {
    // R2C's column pass runs in place on the output: at 15 columns a transform most slots of 8 or 16 lanes
    // end one transform's columns and start the next's, and load them as two runs of neighbours.
    let r2c = |lengths: &[usize]| RealCase::new(lengths, RealDir::R2C);
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(r2c(&[28, 64]).batch(5).precision(p));
        assert_accurate(r2c(&[28, 64]).batch(3).precision(p).in_place());
        assert_accurate(r2c(&[28, 64]).batch(5).precision(p).planar());
    }
    assert_accurate(r2c(&[27, 64]).batch(5).spread(2));
}

#[test]
fn padded_in_place_layout() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            assert_accurate(RealCase::new(&[256], dir).precision(p).batch(5).in_place());
            assert_accurate(RealCase::new(&[99], dir).precision(p).batch(2).in_place());
            assert_accurate(RealCase::new(&[32, 24], dir).precision(p).in_place());
            assert_accurate(RealCase::new(&[10, 6, 5], dir).precision(p).in_place());
        }
    }
}

#[test]
fn planar_hermitian() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            assert_accurate(RealCase::new(&[120], dir).precision(p).batch(4).planar());
            assert_accurate(RealCase::new(&[9, 20], dir).precision(p).planar());
        }
    }
}

#[test]
fn c2r_ignores_the_redundant_imaginary_parts() {
    for p in [Prec::Single, Prec::Double] {
        for n in [64, 63, 1 << 14] {
            assert_accurate(RealCase::new(&[n], RealDir::C2R).precision(p).batch(2).perturbed());
        }
        // The DC and Nyquist of the first row of a plane or volume too.
        assert_accurate(RealCase::new(&[16, 6], RealDir::C2R).precision(p).perturbed());
        assert_accurate(RealCase::new(&[9, 4, 5], RealDir::C2R).precision(p).batch(2).perturbed());
    }
}

/// Padded rows, planes and distances, different on each side, in 1D, 2D and 3D, both Hermitian layouts.
#[test]
fn strided_and_padded_layouts() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            // 1D: reals every third value, Hermitian values every other, distances past the end.
            assert_accurate(RealCase::new(&[40], dir).precision(p).batch(3).layout_of(&[3], 130, &[2], 45));
            // 2D: rows of 12 reals padded to 16, 7 Hermitian values padded to 9.
            assert_accurate(RealCase::new(&[12, 5], dir).precision(p).batch(2).layout_of(&[1, 16], 90, &[1, 9], 50));
            // 3D, planar: the rows along the slowest stride on the real side.
            let case = RealCase::new(&[10, 3, 4], dir).precision(p).planar();
            assert_accurate(case.layout_of(&[16, 1, 4], 160, &[1, 7, 23], 100));
        }
    }
}

/// C2R(R2C(x)) is x: two clFFT plans, the backward one scaling by 1/N as clFFT's default does.
#[test]
fn c2r_of_r2c_returns_the_input() {
    for p in [Prec::Single, Prec::Double] {
        for (lengths, batch) in [(&[1000][..], 3), (&[63][..], 2), (&[12, 10][..], 1), (&[6, 5, 8][..], 2)] {
            let total: usize = lengths.iter().product();
            let mut herm = lengths.to_vec();
            herm[0] = herm[0] / 2 + 1;
            let herm_total: usize = herm.iter().product();
            let x: Vec<Complex64> =
                random_complex(total * batch, 9).iter().map(|v| Complex64::new(v.re, 0.0)).collect();
            let reals = DeviceData::upload_real(&x, p);
            let spectrum = DeviceData::upload(&vec![Complex64::new(f64::NAN, 0.0); herm_total * batch], p, false);
            let back = DeviceData::upload_real(&vec![Complex64::new(f64::NAN, 0.0); total * batch], p);
            for (dir, from, to, layouts, dists) in [
                (RealDir::R2C, &reals, &spectrum, (5, 3), (total, herm_total)),
                (RealDir::C2R, &spectrum, &back, (3, 5), (herm_total, total)),
            ] {
                let mut plan: clfftPlanHandle = 0;
                unsafe {
                    let dim = lengths.len() as i32;
                    check(clfftCreateDefaultPlan(&mut plan, context_ptr(), dim, lengths.as_ptr()), "create");
                    check(clfftSetPlanPrecision(plan, if p == Prec::Double { 2 } else { 1 }), "precision");
                    check(clfftSetLayout(plan, layouts.0, layouts.1), "layout");
                    check(clfftSetResultLocation(plan, 2), "out of place");
                    check(clfftSetPlanBatchSize(plan, batch), "batch");
                    let (mut is, mut os) = match dir {
                        RealDir::R2C => (packed_strides(lengths), packed_strides(&herm)),
                        RealDir::C2R => (packed_strides(&herm), packed_strides(lengths)),
                    };
                    check(clfftSetPlanInStride(plan, dim, is.as_mut_ptr()), "instride");
                    check(clfftSetPlanOutStride(plan, dim, os.as_mut_ptr()), "outstride");
                    check(clfftSetPlanDistance(plan, dists.0, dists.1), "dist");
                }
                run_and_destroy(plan, if dir == RealDir::R2C { -1 } else { 1 }, from, Some(to));
            }
            let got = back.download_real();
            let want = reals.download_real();
            let err: f64 = got.iter().zip(&want).map(|(a, b)| (a - b) * (a - b)).sum();
            let norm: f64 = want.iter().map(|b| b * b).sum();
            let rmse = (err / norm).sqrt();
            assert!(rmse <= 2.0 * tolerance(p), "{lengths:?} x {batch} {p:?}: round trip rmse {rmse:.3e}");
        }
    }
}

/// An even length whose half is 8 x (one kernel) runs, on CPUs, as a four-step whose long pass pre- or
/// post-processes across its lanes: factors 3 and 5, an odd batch, the padded in-place layout, planar
/// Hermitian data, a real axis that is not contiguous, and the first axis of a plane.
#[test]
fn long_even_axes_carry_the_stage_across_the_lanes() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            assert_accurate(RealCase::new(&[61440], dir).precision(p).batch(3));
            assert_accurate(RealCase::new(&[1 << 14], dir).precision(p).batch(3).in_place());
            assert_accurate(RealCase::new(&[1 << 14], dir).precision(p).planar());
        }
    }
    for dir in [RealDir::R2C, RealDir::C2R] {
        assert_accurate(RealCase::new(&[1 << 14], dir).batch(2).layout_of(&[3], 3 << 14, &[2], 2 << 14));
        assert_accurate(RealCase::new(&[1 << 14, 3], dir));
    }
}
