//! Which lengths the mixed-radix engine takes, and how it factors them.

use crate::codegen::radix::{self, RadixKind, RadixSite, RADIX_TABLE};

/// The primes with a butterfly (`codegen::radix::RADIX_TABLE`).
fn primes() -> impl Iterator<Item = usize> {
    std::iter::once(2).chain(radix::odd_primes())
}

/// True when every prime factor of `n` has a butterfly (2, 3, 5, 7, 11, 13).
pub fn is_smooth(mut n: usize) -> bool {
    if n == 0 {
        return false;
    }
    for p in primes() {
        while n % p == 0 {
            n /= p;
        }
    }
    n == 1
}

/// The largest power-of-two radix with a butterfly.
pub const LARGEST_TWO_RADIX: usize = 16;

/// Pass radices for a smooth `n`: powers of two in as many passes of radix `site.max_two` (16 or 8) as
/// possible, then the odd primes, largest first; then each fused radix of `RADIX_TABLE` taken at `site` runs
/// its two parts' passes as one (pairs of 3s as radix 9, and on CPUs in double a 4 and a 5 as radix 20).
/// Only radices from `RADIX_TABLE` appear; n = 1 gives no pass.
pub fn radices(mut n: usize, site: RadixSite) -> Vec<usize> {
    let max_two = site.max_two;
    debug_assert!(is_smooth(n) && matches!(max_two, 8 | LARGEST_TWO_RADIX));
    let mut twos = 0;
    while n % 2 == 0 {
        n /= 2;
        twos += 1;
    }
    let bits = max_two.trailing_zeros() as usize;
    let mut out = vec![max_two; twos / bits];
    match twos % bits {
        0 => {}
        // 2^(bits q + 1) ends on two passes (16 * 2 as 8 * 4, 8 * 2 as 4 * 4) rather than on a radix-2 pass
        1 if !out.is_empty() => {
            out.pop();
            let high = bits / 2 + 1;
            out.extend([1 << high, 1 << (bits + 1 - high)]);
        }
        rest => out.push(1 << rest),
    }
    // Odd primes run as passes of their own: radix 25 and the coprime radices 10 and 15 (Good-Thomas) do not
    // pay as a rule (docs/tuning.md, "Radices 25, 10 and 15").
    for p in radix::odd_primes() {
        while n % p == 0 {
            n /= p;
            out.push(p);
        }
    }
    for row in RADIX_TABLE.iter().filter(|row| row.taken.at(site)) {
        if let RadixKind::Fused { a, b } = row.kind {
            while fuse(&mut out, a, b, row.radix) {}
        }
    }
    debug_assert!(out.iter().all(|&r| radix::has_butterfly(r)));
    out
}

/// Runs the first pass of radix `a` and another of radix `b` as one pass of radix `fused`, in the place of
/// the `a` pass; false when the passes hold no such pair.
fn fuse(passes: &mut Vec<usize>, a: usize, b: usize, fused: usize) -> bool {
    let Some(first) = passes.iter().position(|&r| r == a) else { return false };
    let Some(second) = passes.iter().enumerate().position(|(i, &r)| r == b && i != first) else { return false };
    passes[first] = fused;
    passes.remove(second);
    true
}

/// The part of `n` made of primes with a butterfly (2, 3, 5, 7, 11, 13).
pub fn smooth_part(mut n: usize) -> usize {
    let mut part = 1;
    for p in primes() {
        while n % p == 0 {
            n /= p;
            part *= p;
        }
    }
    part
}

/// The convolution length for Bluestein's algorithm on `n` points: the cheapest 2^a 3^b 5^c 7^d that is at
/// least 2n - 1, weighing each length by its size times an effective log2 in which odd radices cost more
/// per level than radix 2 (their butterflies need more arithmetic per point).
pub fn bluestein_length(n: usize) -> usize {
    let target = (2 * n).saturating_sub(1).max(1);
    let cost = |m: usize| {
        let mut rest = m;
        let mut levels = 0.0;
        for (p, weight) in [(2usize, 1.0f64), (3, 1.25), (5, 1.4), (7, 1.6)] {
            while rest % p == 0 {
                rest /= p;
                levels += weight * (p as f64).log2();
            }
        }
        m as f64 * levels.max(1.0)
    };
    let mut best = target.next_power_of_two();
    let mut p7 = 1;
    while p7 < 2 * target {
        let mut p5 = p7;
        while p5 < 2 * target {
            let mut p3 = p5;
            while p3 < 2 * target {
                let mut m = p3;
                while m < target {
                    m *= 2;
                }
                if cost(m) < cost(best) {
                    best = m;
                }
                p3 *= 3;
            }
            p5 *= 5;
        }
        p7 *= 7;
    }
    best
}

/// Divisors of `n`, ascending.
pub fn divisors(n: usize) -> Vec<usize> {
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut d = 1;
    while d * d <= n {
        if n % d == 0 {
            small.push(d);
            if d * d != n {
                large.push(n / d);
            }
        }
        d += 1;
    }
    small.extend(large.into_iter().rev());
    small
}

/// Splits `n` as `rows * columns` for a four-step: both factors as close to sqrt(n) as possible while
/// `rows <= max_rows`; `columns` may exceed the limit, in which case it is split again.
pub fn four_step_split(n: usize, max_rows: usize) -> Option<(usize, usize)> {
    let candidates: Vec<usize> = divisors(n).into_iter().filter(|&d| d > 1 && d < n && d <= max_rows).collect();
    let root = (n as f64).sqrt();
    candidates
        .iter()
        .copied()
        .filter(|&d| d as f64 >= root)
        .min()
        .or_else(|| candidates.iter().copied().max())
        .map(|rows| (rows, n / rows))
}

/// Splits `n` as `rows * columns` with both at most `max_leaf` and at least `min_rows` rows, as unevenly
/// as possible: the fewest rows that leave whole vectors of `lanes` transforms to both passes (each pass
/// runs its lanes along the other's length), else the fewest rows. None when no split qualifies.
pub fn lopsided_split(n: usize, max_leaf: usize, lanes: usize, min_rows: usize) -> Option<(usize, usize)> {
    divisors(n)
        .into_iter()
        .filter(|&rows| rows > 1 && rows < n && rows >= min_rows && rows <= max_leaf && n / rows <= max_leaf)
        .min_by_key(|&rows| (rows % lanes != 0 || (n / rows) % lanes != 0, rows))
        .map(|rows| (rows, n / rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Precision;

    /// A leaf whose largest power-of-two radix is `max_two`, on a CPU in double precision or elsewhere.
    fn at(max_two: usize, cpu_double: bool) -> RadixSite {
        let precision = if cpu_double { Precision::Double } else { Precision::Single };
        RadixSite { cpu: cpu_double, precision, max_two }
    }

    #[test]
    fn smooth_lengths() {
        assert!(is_smooth(1));
        assert!(is_smooth(2 * 3 * 5 * 7 * 11 * 13));
        assert!(!is_smooth(17));
        assert!(!is_smooth(0));
    }

    #[test]
    fn radices_multiply_back() {
        for n in [1, 2, 8, 32, 64, 100, 500, 512, 1024, 2048, 1000, 2187, 30030, 1 << 20] {
            for max_two in [8, 16] {
                for cpu_double in [false, true] {
                    let r = radices(n, at(max_two, cpu_double));
                    assert_eq!(r.iter().product::<usize>(), n, "{n}: {r:?}");
                }
            }
        }
        assert_eq!(radices(4096, at(8, false)), vec![8, 8, 8, 8]);
        assert_eq!(radices(1024, at(8, false)), vec![8, 8, 4, 4]);
        assert_eq!(radices(2048, at(8, false)), vec![8, 8, 8, 4]);
        assert_eq!(radices(2, at(8, false)), vec![2]);
        assert_eq!(radices(512, at(16, false)), vec![16, 8, 4]);
        assert_eq!(radices(2, at(16, false)), vec![2]);
        assert_eq!(radices(2187, at(16, false)), vec![9, 9, 9, 3]);
        assert_eq!(radices(18 * 125, at(16, false)), vec![2, 5, 5, 5, 9]);
        assert_eq!(radices(500, at(16, true)), vec![20, 5, 5]);
        assert_eq!(radices(1024, at(8, true)), vec![8, 8, 4, 4]);
        assert_eq!(radices(160, at(16, true)), vec![8, 20]);
        assert_eq!(radices(4 * 9, at(16, true)), vec![4, 9]);
    }

    #[test]
    fn smooth_parts() {
        assert_eq!(smooth_part(17 * 1024), 1024);
        assert_eq!(smooth_part(4097), 1);
        assert_eq!(smooth_part(2 * 3 * 17 * 19), 6);
        assert_eq!(smooth_part(1), 1);
    }

    #[test]
    fn bluestein_lengths_are_smooth_and_just_long_enough() {
        assert_eq!(bluestein_length(17), 36);
        assert_eq!(bluestein_length(4097), 9216);
        assert_eq!(bluestein_length(1), 1);
        assert_eq!(bluestein_length(2), 3);
        for n in [17, 149, 4097, 65537, 1_000_003] {
            let m = bluestein_length(n);
            assert!(m >= 2 * n - 1 && is_smooth(m), "{n} -> {m}");
            assert!(m < 2 * (2 * n - 1), "{n} -> {m}");
        }
    }

    #[test]
    fn splits_near_the_square_root() {
        assert_eq!(four_step_split(1 << 20, 4096), Some((1024, 1024)));
        assert_eq!(four_step_split(1 << 21, 4096), Some((2048, 1024)));
        assert_eq!(four_step_split(1 << 27, 4096), Some((4096, 32768)));
        assert_eq!(four_step_split(13, 4096), None);
    }

    #[test]
    fn lopsided_splits_prefer_whole_vectors_then_few_rows() {
        assert_eq!(lopsided_split(1 << 16, 4096, 8, 1), Some((16, 4096)));
        assert_eq!(lopsided_split(61440, 4096, 8, 1), Some((16, 3840)));
        assert_eq!(lopsided_split(16807, 4096, 8, 1), Some((7, 2401)));
        assert_eq!(lopsided_split(1 << 25, 4096, 8, 1), None);
        assert_eq!(lopsided_split(1 << 16, 4096, 8, 100), Some((128, 512)));
        assert_eq!(lopsided_split(16807, 4096, 8, 100), Some((343, 49)));
        assert_eq!(lopsided_split(1 << 16, 4096, 8, 8192), None);
    }
}
