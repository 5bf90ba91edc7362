//! The double-precision reference: rustfft in f64 along each axis, an exactly reduced Bluestein for lengths
//! with a prime factor above 1024, random data, the error measure and the tolerances.

use super::*;
use num_complex::Complex64;
use rustfft::FftPlanner;

/// Deterministic pseudo-random complex values in [-1, 1).
pub fn random_complex(n: usize, seed: u64) -> Vec<Complex64> {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    (0..n).map(|_| Complex64::new(next(), next())).collect()
}

/// The positions of the elements of a multi-dimensional array at `offset` with `strides`, in packed order.
pub fn positions<'a>(lengths: &'a [usize], strides: &'a [usize], offset: usize) -> impl Iterator<Item = usize> + 'a {
    let total: usize = lengths.iter().product();
    (0..total).map(move |mut i| {
        let mut pos = offset;
        for (l, s) in lengths.iter().zip(strides) {
            pos += (i % l) * s;
            i /= l;
        }
        pos
    })
}

/// The packed multi-dimensional array at `offset` with `strides`.
pub fn gather<T: Copy>(data: &[T], lengths: &[usize], strides: &[usize], offset: usize) -> Vec<T> {
    positions(lengths, strides, offset).map(|pos| data[pos]).collect()
}

/// Normalized RMSE of `got` against `want`.
pub fn nrmse(got: &[Complex64], want: &[Complex64]) -> f64 {
    assert_eq!(got.len(), want.len());
    let err: f64 = got.iter().zip(want).map(|(a, b)| (a - b).norm_sqr()).sum();
    let norm: f64 = want.iter().map(|b| b.norm_sqr()).sum();
    (err / norm.max(f64::MIN_POSITIVE)).sqrt()
}

/// Unnormalised multi-dimensional DFT of a packed array (fastest axis first), in f64.
pub fn reference_fft(x: &[Complex64], lengths: &[usize], dir: Dir) -> Vec<Complex64> {
    let mut data = x.to_vec();
    let mut planner = FftPlanner::<f64>::new();
    let mut stride = 1;
    for &n in lengths {
        let bluestein = (largest_prime_factor(n) > BLUESTEIN_REFERENCE_ABOVE)
            .then(|| ReferenceBluestein::new(n, dir, &mut planner));
        let fft = bluestein.is_none().then(|| match dir {
            Dir::Forward => planner.plan_fft_forward(n),
            Dir::Backward => planner.plan_fft_inverse(n),
        });
        let transform = |line: &mut [Complex64]| match (&bluestein, &fft) {
            (Some(bluestein), _) => bluestein.process(line),
            (None, Some(fft)) => fft.process(line),
            (None, None) => unreachable!("one of the two is planned"),
        };
        let outer = data.len() / (n * stride);
        let mut line = vec![Complex64::new(0.0, 0.0); n];
        for o in 0..outer {
            for s in 0..stride {
                let base = o * n * stride + s;
                for (k, v) in line.iter_mut().enumerate() {
                    *v = data[base + k * stride];
                }
                transform(&mut line);
                for (k, v) in line.iter().enumerate() {
                    data[base + k * stride] = *v;
                }
            }
        }
        stride *= n;
    }
    data
}

/// rustfft reaches primes above this through Rader and Bluestein nested in each other, with unreduced chirps:
/// at 4099 and 999983 its own error in f64 is 1.1e-15 and 1.8e-15. Below it rustfft is the better reference
/// (exact butterflies to 31, Rader over smooth lengths), as the Bluestein reference errs by up to 7e-16.
const BLUESTEIN_REFERENCE_ABOVE: usize = 1024;

/// The unnormalised 1D DFT of `x` by the exactly reduced Bluestein the reference uses for long primes.
pub fn bluestein_reference(x: &[Complex64], dir: Dir) -> Vec<Complex64> {
    let mut line = x.to_vec();
    ReferenceBluestein::new(x.len(), dir, &mut FftPlanner::new()).process(&mut line);
    line
}

fn largest_prime_factor(mut n: usize) -> usize {
    let mut largest = 1;
    let mut p = 2;
    while p * p <= n {
        while n % p == 0 {
            largest = p;
            n /= p;
        }
        p += 1;
    }
    largest.max(n)
}

/// Bluestein's DFT with the chirp's argument reduced in integers (j^2 mod 2n) and power-of-two
/// convolutions: the reference for lengths whose rustfft plan nests Rader and Bluestein with unreduced
/// chirps, which at n = 999983 errs by 1.8e-15 itself (FFTW in long double measures fftx at 7e-16 there).
struct ReferenceBluestein {
    chirp: Vec<Complex64>,
    kernel_spectrum: Vec<Complex64>,
    forward: std::sync::Arc<dyn rustfft::Fft<f64>>,
    inverse: std::sync::Arc<dyn rustfft::Fft<f64>>,
}

impl ReferenceBluestein {
    fn new(n: usize, dir: Dir, planner: &mut FftPlanner<f64>) -> Self {
        let m = (2 * n - 1).next_power_of_two();
        let sign = if dir == Dir::Forward { -1.0 } else { 1.0 };
        let chirp: Vec<Complex64> = (0..n as u128)
            .map(|j| {
                let reduced = (j * j % (2 * n as u128)) as f64;
                Complex64::from_polar(1.0, sign * std::f64::consts::PI * reduced / n as f64)
            })
            .collect();
        let mut kernel = vec![Complex64::new(0.0, 0.0); m];
        for (j, c) in chirp.iter().enumerate() {
            kernel[j] = c.conj();
            kernel[(m - j) % m] = c.conj();
        }
        let forward = planner.plan_fft_forward(m);
        forward.process(&mut kernel);
        ReferenceBluestein { chirp, kernel_spectrum: kernel, forward, inverse: planner.plan_fft_inverse(m) }
    }

    fn process(&self, line: &mut [Complex64]) {
        let m = self.kernel_spectrum.len();
        let mut work = vec![Complex64::new(0.0, 0.0); m];
        for ((w, x), c) in work.iter_mut().zip(line.iter()).zip(&self.chirp) {
            *w = x * c;
        }
        self.forward.process(&mut work);
        for (w, k) in work.iter_mut().zip(&self.kernel_spectrum) {
            *w *= k / m as f64;
        }
        self.inverse.process(&mut work);
        for ((y, w), c) in line.iter_mut().zip(&work).zip(&self.chirp) {
            *y = w * c;
        }
    }
}

/// The accuracy asked of Bluestein (lengths with a prime factor above 13): 5e-7 single, 2e-15 double.
pub fn bluestein_tolerance(p: Prec) -> f64 {
    match p {
        Prec::Single => 5e-7,
        Prec::Double => 2e-15,
    }
}

/// Tolerance on the normalized RMSE for a precision.
pub fn tolerance(p: Prec) -> f64 {
    match p {
        Prec::Single => 3e-7,
        Prec::Double => 1e-15,
    }
}
