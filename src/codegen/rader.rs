//! Rader's algorithm for a prime n: with g a generator of the multiplicative group mod n,
//! X_(g^-q) = x_0 + sum_p x_(g^p) w_n^(g^(p-q)), a cyclic convolution of length n - 1 of a_p = x_(g^p) with
//! c_r = w_n^(g^-r); and X_0 = x_0 + sum_p a_p. This module has the number theory and the spectrum of c.

use super::twiddle::{mul_mod, SplitRoots};
use num_complex::Complex64;

fn pow_mod(mut base: u64, mut exp: u64, n: u64) -> u64 {
    let mut result = 1 % n;
    base %= n;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, base, n);
        }
        base = mul_mod(base, base, n);
        exp >>= 1;
    }
    result
}

/// True when n is prime (trial division: plans are baked rarely and n fits a device buffer).
pub fn is_prime(n: usize) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

/// The smallest generator of the multiplicative group modulo the prime `n`.
pub fn primitive_root(n: usize) -> usize {
    let order = n as u64 - 1;
    let mut primes = Vec::new();
    let mut rest = order;
    let mut d = 2;
    while d * d <= rest {
        if rest % d == 0 {
            primes.push(d);
            while rest % d == 0 {
                rest /= d;
            }
        }
        d += 1;
    }
    if rest > 1 {
        primes.push(rest);
    }
    (1..n as u64)
        .find(|&g| primes.iter().all(|&p| pow_mod(g, order / p, n as u64) != 1))
        .expect("a prime has a primitive root") as usize
}

/// g^-1 mod the prime n.
pub fn inverse(g: usize, n: usize) -> usize {
    pow_mod(g as u64, n as u64 - 2, n as u64) as usize
}

/// root^k mod n for k < n - 1, two to a table entry: the kernels read the table as REALs, which hold
/// positions exactly below 2^24 in single precision (the planner's limit for Rader).
pub fn positions(n: usize, root: usize) -> Vec<(f64, f64)> {
    let mut power = 1u64;
    let mut flat = Vec::with_capacity(n);
    for _ in 0..n - 1 {
        flat.push(power as f64);
        power = mul_mod(power, root as u64, n as u64);
    }
    flat.resize(flat.len().next_multiple_of(2), 0.0);
    flat.chunks_exact(2).map(|c| (c[0], c[1])).collect()
}

/// conj(FFT_(n-1)(c) / (n - 1)) for c_r = w_n^(g^-r), in double: the factor of the pointwise product that
/// turns the second forward FFT into the inverse one (as Bluestein's spectrum does).
pub fn spectrum(n: usize, g: usize) -> Vec<(f64, f64)> {
    let len = n - 1;
    let g_inv = inverse(g, n) as u64;
    let roots = SplitRoots::new(n);
    let mut c = Vec::with_capacity(len);
    let mut power = 1u64;
    for _ in 0..len {
        let (re, im) = roots.root(power as usize);
        c.push(Complex64::new(re, im));
        power = mul_mod(power, g_inv, n as u64);
    }
    rustfft::FftPlanner::<f64>::new().plan_fft_forward(len).process(&mut c);
    c.iter().map(|v| (v.re / len as f64, -v.im / len as f64)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::twiddle::unit_root;

    #[test]
    fn primitive_roots_generate_every_residue() {
        for n in [3usize, 5, 17, 97, 257, 65537] {
            let g = primitive_root(n);
            let mut seen = vec![false; n];
            let mut power = 1;
            for _ in 0..n - 1 {
                seen[power] = true;
                power = power * g % n;
            }
            assert!(seen[1..].iter().all(|&s| s), "n={n} g={g}");
            assert_eq!(g * inverse(g, n) % n, 1);
        }
        assert_eq!(primitive_root(65537), 3);
    }

    #[test]
    fn primes_are_recognised() {
        let primes: Vec<usize> = (0..40).filter(|&n| is_prime(n)).collect();
        assert_eq!(primes, [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]);
        assert!(is_prime(65537) && is_prime(1_000_003) && !is_prime(4097));
    }

    #[test]
    fn convolution_through_the_spectrum_is_the_dft() {
        // X_(g^-q) - x_0 = conj(FFT(conj(FFT(a) * C / L)))_q: the identity the kernels run.
        let n = 17;
        let g = primitive_root(n);
        let x: Vec<Complex64> = (0..n).map(|j| Complex64::new((j * j % 7) as f64, j as f64 * 0.5 - 3.0)).collect();
        let mut a: Vec<Complex64> = (0..n - 1).map(|p| x[pow_mod(g as u64, p as u64, n as u64) as usize]).collect();
        let mut planner = rustfft::FftPlanner::<f64>::new();
        let fft = planner.plan_fft_forward(n - 1);
        fft.process(&mut a);
        let d = spectrum(n, g);
        let mut z: Vec<Complex64> = a.iter().zip(&d).map(|(a, d)| a.conj() * Complex64::new(d.0, d.1)).collect();
        fft.process(&mut z);
        let g_inv = inverse(g, n) as u64;
        for (q, zq) in z.iter().enumerate() {
            let k = pow_mod(g_inv, q as u64, n as u64) as usize;
            let direct: Complex64 = (0..n)
                .map(|j| {
                    let (re, im) = unit_root((j * k) as u64, n as u64);
                    x[j] * Complex64::new(re, im)
                })
                .sum();
            assert!((x[0] + zq.conj() - direct).norm() < 1e-12, "q={q}");
        }
    }
}
