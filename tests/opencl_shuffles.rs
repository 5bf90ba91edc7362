//! Kernels built with `-DOPENCL_SHUFFLES`, which takes OpenCL's shuffle2 and shuffle where clang's
//! __builtin_shufflevector would serve (lanes.cl): the path of compilers without the builtin, reached here
//! on PoCL. The cases cover the register transposes of rows (4, 8 and 16 lanes), 64-point (and 256 single
//! point) transforms in registers with the mirrors of their twin split and merge, packed twin rows (R2C
//! single 1000), the DFT across the lanes of a four-step of 7 rows (4725), the real stages across the lanes
//! of a long even axis (16384), and 2D real transforms whose column lanes cross from one transform into the
//! next (28 x 64).

mod common;
use common::*;

#[test]
fn transforms_through_opencl_shuffles() {
    // Set before the first plan, by this binary's only test thread.
    let options = std::env::var("FFTX_BUILD_OPTIONS").unwrap_or_default();
    std::env::set_var("FFTX_BUILD_OPTIONS", format!("{options} -DOPENCL_SHUFFLES"));
    for p in [Prec::Single, Prec::Double] {
        for case in [
            Case::new(&[64]).batch(16).precision(p),
            Case::new(&[256]).batch(17).precision(p),
            Case::new(&[1000]).batch(9).precision(p).backward(),
            Case::new(&[7 * 675]).batch(17).precision(p),
            Case::new(&[28, 64]).batch(3).precision(p),
        ] {
            let rmse = case.run();
            assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {case:?}");
        }
        for dir in [RealDir::R2C, RealDir::C2R] {
            for case in [
                RealCase::new(&[64], dir).batch(16).precision(p),
                RealCase::new(&[256], dir).batch(35).precision(p),
                RealCase::new(&[1000], dir).batch(16).precision(p),
                RealCase::new(&[1 << 14], dir).batch(3).precision(p),
                RealCase::new(&[28, 64], dir).batch(5).precision(p),
            ] {
                let rmse = case.run();
                assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {case:?}");
            }
        }
    }
}
