//! The GPU code path (work-items cooperating through local memory and barriers), run on whatever device is
//! present by the plans' tuning (`profile=gpu`, kernels of at most 64 points so that four-steps nest): with
//! one transform per slot, the planner's GPU choice, and with four transforms per slot in vector lanes
//! (`gpu_lanes=4`), which makes each work-item's loads and stores along columns whole 32-byte runs (see
//! `kernel_shape::leaf`).

mod common;

use common::*;

const ONE_PER_SLOT: &str = "profile=gpu;max_leaf=64";
const FOUR_LANES: &str = "profile=gpu;max_leaf=64;gpu_lanes=4";

/// Leaves, four-steps three levels deep with nested twiddles, planar and in-place layouts, 2D and a plane.
fn complex(tuning: &'static str) {
    for p in [Prec::Single, Prec::Double] {
        for case in [
            Case::new(&[60]).tuning(tuning).batch(7).precision(p),
            Case::new(&[64]).tuning(tuning).batch(3).precision(p).planar(true, false).backward(),
            // 4096 = 64 x 64 and 3 * 2^12 = 48 x 256 -> 48 x (16 x 16): three levels, nested twiddles.
            Case::new(&[4096]).tuning(tuning).batch(2).precision(p),
            Case::new(&[3 << 12]).tuning(tuning).precision(p).in_place(),
            Case::new(&[12, 200]).tuning(tuning).batch(2).precision(p).backward(),
            // A 8 x 6 plane in one work-group, then the third axis.
            Case::new(&[8, 6, 3]).tuning(tuning).batch(2).precision(p),
        ] {
            let rmse = case.run();
            assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {case:?}");
        }
    }
}

/// Real transforms with their fused stages, Bluestein and Rader.
fn real_and_bluestein(tuning: &'static str) {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            // Fused real stages, odd leaves running pairs of transforms as one complex FFT (45 x 5: R2C pairs
            // with a shared middle transform, C2R one by one; 15 x 6: both in pairs along axis 1), (256 >
            // max_leaf) the edge passes around a four-step, (243, odd) R2C pairs through scratch, and axes 1
            // and 2 of 10 x 6 x 4 as one plane of points 6 apart.
            for case in [
                RealCase::new(&[48], dir).tuning(tuning).batch(3).precision(p),
                RealCase::new(&[45], dir).tuning(tuning).batch(5).precision(p),
                RealCase::new(&[15, 6], dir).tuning(tuning).precision(p),
                RealCase::new(&[256], dir).tuning(tuning).precision(p).in_place(),
                RealCase::new(&[10, 12], dir).tuning(tuning).precision(p).planar(),
                RealCase::new(&[243], dir).tuning(tuning).batch(3).precision(p),
                RealCase::new(&[10, 6, 4], dir).tuning(tuning).batch(2).precision(p),
            ] {
                let rmse = case.run();
                assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {case:?}");
            }
        }
        // Bluestein fused into leaves (m = 36 <= 64), Rader (130 = 2 * 5 * 13) and Bluestein fused into
        // four-step passes (138 = 2 * 3 * 23, m = 288).
        for case in [
            Case::new(&[17]).tuning(tuning).batch(5).precision(p),
            Case::new(&[131]).tuning(tuning).batch(3).precision(p).backward(),
            Case::new(&[139]).tuning(tuning).precision(p).backward(),
        ] {
            let rmse = case.run();
            assert!(rmse <= bluestein_tolerance(p), "rmse {rmse:.3e} for {case:?}");
        }
    }
}

#[test]
fn gpu_shaped_kernels_and_deep_four_step() {
    complex(ONE_PER_SLOT);
}

#[test]
fn gpu_shaped_real_and_bluestein() {
    real_and_bluestein(ONE_PER_SLOT);
}

#[test]
fn gpu_lanes_complex() {
    complex(FOUR_LANES);
}

#[test]
fn gpu_lanes_real_and_bluestein() {
    real_and_bluestein(FOUR_LANES);
}
