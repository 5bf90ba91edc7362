//! Batches run in chunks of transforms (`planner::chunks`), each chunk through every pass before the next,
//! its buffers shifted to its first transform. A 16 KiB budget with 64-point kernels
//! (the plans' tuning `max_leaf=64;chunk=16384`) makes small multi-pass cases run in chunks: complex and real, both
//! precisions, in and out of place, planar, padded distances, 2D and batches that divide only into single
//! transforms (the planner's unit tests check that these cases chunk).

mod common;

use common::*;

/// Kernels of at most 64 points, batches in chunks of at most 16 KiB.
const CHUNKED: &str = "max_leaf=64;chunk=16384";

fn checked(case: Case) {
    let rmse = case.run();
    assert!(rmse <= tolerance(case.precision), "rmse {rmse:.3e} for {case:?}");
}

#[test]
fn complex_chunks() {
    checked(Case::new(&[1024]).tuning(CHUNKED).batch(6));
    checked(Case::new(&[1024]).tuning(CHUNKED).batch(6).double().in_place().backward());
    checked(Case::new(&[1024]).tuning(CHUNKED).batch(4).planar(true, true).dists(1100, 1030));
    checked(Case::new(&[32, 32]).tuning(CHUNKED).batch(3));
}

#[test]
fn real_chunks() {
    for dir in [RealDir::R2C, RealDir::C2R] {
        for (n, batch, p) in [(2048, 6, Prec::Single), (1024, 3, Prec::Double)] {
            let rmse = RealCase::new(&[n], dir).tuning(CHUNKED).batch(batch).precision(p).run();
            assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {n} x {batch} {p:?} {dir:?}");
        }
        let cases = [
            RealCase::new(&[2048], dir).tuning(CHUNKED).batch(6).in_place(),
            RealCase::new(&[2048], dir).tuning(CHUNKED).batch(4).planar(),
            RealCase::new(&[64, 32], dir).tuning(CHUNKED).batch(4),
        ];
        for case in cases {
            let rmse = case.run();
            assert!(rmse <= tolerance(Prec::Single), "rmse {rmse:.3e} for {dir:?}");
        }
    }
}
