//! Transforms through the GPU code path (work-items cooperating through local memory and barriers), forced
//! on any device with `FFTX_TUNE=profile=gpu`. `gpu_shape.rs` runs them with one transform per slot, the
//! planner's GPU choice, and `gpu_lanes.rs` with four transforms per slot in vector lanes (`gpu_lanes=4`).

use super::common::*;

/// Leaves, four-steps three levels deep with nested twiddles, planar and in-place layouts, 2D and a plane.
pub fn complex() {
    for p in [Prec::Single, Prec::Double] {
        for case in [
            Case::new(&[60]).batch(7).precision(p),
            Case::new(&[64]).batch(3).precision(p).planar(true, false).backward(),
            // 4096 = 64 x 64 and 3 * 2^12 = 48 x 256 -> 48 x (16 x 16): three levels, nested twiddles.
            Case::new(&[4096]).batch(2).precision(p),
            Case::new(&[3 << 12]).precision(p).in_place(),
            Case::new(&[12, 200]).batch(2).precision(p).backward(),
            // A 8 x 6 plane in one work-group, then the third axis.
            Case::new(&[8, 6, 3]).batch(2).precision(p),
        ] {
            let rmse = case.run();
            assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {case:?}");
        }
    }
}

/// Real transforms with their fused stages, Bluestein and Rader.
pub fn real_and_bluestein() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            // Fused real stages, odd leaves running pairs of transforms as one complex FFT (45 x 5: R2C pairs
            // with a shared middle transform, C2R one by one; 15 x 6: both in pairs along axis 1), (256 >
            // max_leaf) the edge passes around a four-step, (243, odd) R2C pairs through scratch, and axes 1
            // and 2 of 10 x 6 x 4 as one plane of points 6 apart.
            for case in [
                RealCase::new(&[48], dir).batch(3).precision(p),
                RealCase::new(&[45], dir).batch(5).precision(p),
                RealCase::new(&[15, 6], dir).precision(p),
                RealCase::new(&[256], dir).precision(p).in_place(),
                RealCase::new(&[10, 12], dir).precision(p).planar(),
                RealCase::new(&[243], dir).batch(3).precision(p),
                RealCase::new(&[10, 6, 4], dir).batch(2).precision(p),
            ] {
                let rmse = case.run();
                assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {case:?}");
            }
        }
        // Bluestein fused into leaves (m = 36 <= 64), Rader (130 = 2 * 5 * 13) and Bluestein fused into
        // four-step passes (138 = 2 * 3 * 23, m = 288).
        for case in [
            Case::new(&[17]).batch(5).precision(p),
            Case::new(&[131]).batch(3).precision(p).backward(),
            Case::new(&[139]).precision(p).backward(),
        ] {
            let rmse = case.run();
            assert!(rmse <= bluestein_tolerance(p), "rmse {rmse:.3e} for {case:?}");
        }
    }
}
