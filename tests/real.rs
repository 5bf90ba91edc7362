//! Real-to-complex and complex-to-real transforms against a double-precision reference.

mod common;
use common::*;

fn assert_accurate(case: RealCase) {
    let rmse = case.run();
    let tol = tolerance(case.precision);
    assert!(rmse <= tol, "rmse {rmse:.3e} > {tol:.0e} for {case:?}");
}

#[test]
fn one_dimensional_even_and_odd() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            for n in [1, 2, 3, 4, 5, 8, 13, 30, 64, 81, 1000, 1024, 2187, 4096, 8192] {
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
    // The inverse: along a batch dimension of even count, transforms t and t + count / 2 merge into one
    // complex FFT whose real and imaginary parts are the two outputs; an odd count (3) runs one by one.
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(4).precision(p));
        assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(2).precision(p).perturbed());
    }
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(3));
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(4).in_place());
    assert_accurate(RealCase::new(&[16807], RealDir::C2R).batch(2).spread(2));
    assert_accurate(RealCase::new(&[16807, 2], RealDir::C2R).precision(Prec::Double).planar());
    assert_accurate(RealCase::new(&[16807, 3], RealDir::C2R).batch(2));
    assert_accurate(RealCase::new(&[20011], RealDir::C2R).batch(6));
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
    }
}
