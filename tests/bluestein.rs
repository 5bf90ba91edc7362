//! Lengths with a prime factor above 13 (Bluestein, and Rader for primes p with smooth p - 1 too long for
//! Bluestein to fuse), against a double-precision reference.

mod common;
use common::*;

fn assert_accurate(case: Case, tol: f64) {
    let rmse = case.run();
    assert!(rmse <= tol, "rmse {rmse:.3e} > {tol:.0e} for {case:?}");
}

#[test]
fn primes_up_to_a_thousand() {
    for p in [Prec::Single, Prec::Double] {
        for n in [17, 19, 23, 29, 31, 37, 61, 97, 101, 149, 251, 257, 509, 673, 1009] {
            assert_accurate(Case::new(&[n]).batch(3).precision(p), bluestein_tolerance(p));
        }
    }
}

#[test]
fn large_primes_and_composites() {
    for p in [Prec::Single, Prec::Double] {
        for n in [4097, 17 * 1024, 65537] {
            assert_accurate(Case::new(&[n]).precision(p), bluestein_tolerance(p));
        }
    }
}

/// From about a thousand points to a million, a prime's error grows by no more than 1.5 times what a
/// power of two's does (measured: 1.0x single, 0.6x double). 1000003 is also held to the accuracy asked.
#[test]
fn error_grows_with_length_no_faster_than_for_powers_of_two() {
    for p in [Prec::Single, Prec::Double] {
        let error = |n: usize| Case::new(&[n]).precision(p).run();
        let (small_prime, large_prime) = (error(1009), error(1_000_003));
        let (small_smooth, large_smooth) = (error(1024), error(1 << 20));
        println!("{p:?}: 1009 {small_prime:.2e}, 1000003 {large_prime:.2e}; 1024 {small_smooth:.2e}, 2^20 {large_smooth:.2e}");
        assert!(large_prime <= bluestein_tolerance(p), "1000003: rmse {large_prime:.3e}");
        let (prime_growth, smooth_growth) = (large_prime / small_prime, large_smooth / small_smooth);
        assert!(
            prime_growth <= 1.5 * smooth_growth,
            "{p:?}: primes grow {prime_growth:.2}x, powers of two {smooth_growth:.2}x"
        );
    }
}

/// The reference for lengths with prime factors above 1024 (Bluestein with exact chirps) matches rustfft
/// where rustfft computes the prime directly.
#[test]
fn the_long_prime_reference_matches_rustfft_on_short_primes() {
    for n in [17, 19, 23, 29, 31] {
        for dir in [Dir::Forward, Dir::Backward] {
            let x = random_complex(3 * n, n as u64);
            let mut want = x.clone();
            let mut planner = rustfft::FftPlanner::<f64>::new();
            let fft = if dir == Dir::Forward { planner.plan_fft_forward(n) } else { planner.plan_fft_inverse(n) };
            fft.process(&mut want);
            let got: Vec<_> = x.chunks(n).flat_map(|line| bluestein_reference(line, dir)).collect();
            let error = nrmse(&got, &want);
            assert!(error < 1e-15, "{n} {dir:?}: {error:.3e}");
        }
    }
}

#[test]
fn both_directions_layouts_and_batches() {
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[127]).batch(9).precision(p).backward(), bluestein_tolerance(p));
        assert_accurate(Case::new(&[89]).batch(4).precision(p).in_place(), bluestein_tolerance(p));
        assert_accurate(Case::new(&[53]).batch(5).precision(p).planar(true, false), bluestein_tolerance(p));
        assert_accurate(
            Case::new(&[41]).batch(3).precision(p).strides(&[3], &[2]).dists(131, 90),
            bluestein_tolerance(p),
        );
    }
}

#[test]
fn prime_edges_in_two_and_three_dimensions() {
    for p in [Prec::Single, Prec::Double] {
        assert_accurate(Case::new(&[17, 19]).precision(p), bluestein_tolerance(p));
        assert_accurate(Case::new(&[31, 16]).batch(2).precision(p).backward(), bluestein_tolerance(p));
        assert_accurate(Case::new(&[7, 23, 5]).precision(p), bluestein_tolerance(p));
    }
}

#[test]
fn real_transforms_of_prime_lengths() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            for n in [17, 101, 2 * 31, 4099] {
                let case = RealCase::new(&[n], dir).batch(2).precision(p);
                let rmse = case.run();
                assert!(rmse <= bluestein_tolerance(p), "rmse {rmse:.3e} for {case:?}");
            }
            let case = RealCase::new(&[13, 17], dir).precision(p);
            let rmse = case.run();
            assert!(rmse <= bluestein_tolerance(p), "rmse {rmse:.3e} for {case:?}");
        }
    }
}

/// Odd real lengths with a prime above 13 and a factor from 5 to 16 (255 = 15 x 17, 85 = 5 x 17, 345 = 15 x
/// 23), with enough transforms to pair them in one kernel: the parts across the lanes must leave a smooth
/// long pass, or the pairs take the convolution (all four once came out wrong).
#[test]
fn real_twins_of_lengths_with_a_large_prime() {
    for p in [Prec::Single, Prec::Double] {
        for dir in [RealDir::R2C, RealDir::C2R] {
            for (lengths, batch) in [(&[255][..], 32), (&[85], 32), (&[345], 40), (&[255, 64], 3)] {
                let case = RealCase::new(lengths, dir).batch(batch).precision(p);
                let rmse = case.run();
                assert!(rmse <= bluestein_tolerance(p), "rmse {rmse:.3e} for {case:?}");
            }
        }
    }
}

#[test]
fn rader_primes_in_every_direction_layout_and_shape() {
    // 65537 = 2^16 + 1, 40961 = 5 * 2^13 + 1 and (double) 12289 = 3 * 2^12 + 1 run through Rader.
    for p in [Prec::Single, Prec::Double] {
        let tol = bluestein_tolerance(p);
        assert_accurate(Case::new(&[65537]).batch(3).precision(p).backward().in_place(), tol);
        assert_accurate(Case::new(&[40961]).batch(2).precision(p).planar(true, false), tol);
        assert_accurate(Case::new(&[12289]).batch(2).precision(p).strides(&[2], &[1]).dists(2 * 12289, 12289), tol);
        assert_accurate(Case::new(&[65537, 2]).precision(p), tol);
        // Three real transforms: the pairs share the middle one, which Rader's scatter stores once.
        for dir in [RealDir::R2C, RealDir::C2R] {
            let case = RealCase::new(&[65537], dir).batch(3).precision(p);
            let rmse = case.run();
            assert!(rmse <= tol, "rmse {rmse:.3e} for {case:?}");
        }
    }
}

#[test]
fn long_convolutions_in_batches_and_real_transforms() {
    // 20011 (20010 = 2 * 3 * 5 * 23 * 29, no Rader) convolves at 40960 points, beyond one kernel: the chirps
    // ride on four-step passes, and batched outputs sit closer together than the convolution.
    assert_accurate(Case::new(&[20011]).batch(3).in_place(), bluestein_tolerance(Prec::Single));
    assert_accurate(Case::new(&[3, 20011]).double().backward(), bluestein_tolerance(Prec::Double));
    for (n, dir, p, batch) in [(40022, RealDir::R2C, Prec::Double, 2), (20011, RealDir::C2R, Prec::Single, 3)] {
        let case = RealCase::new(&[n], dir).batch(batch).precision(p);
        let rmse = case.run();
        assert!(rmse <= bluestein_tolerance(p), "rmse {rmse:.3e} for {case:?}");
    }
}
