//! Twiddle factors, computed in double with exact argument reduction.

use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_4};

/// exp(-2 pi i e / n) as (re, im).
///
/// The exponent is reduced modulo n in integers, then folded into the first octant, so the angle handed to
/// sin/cos is at most pi/4 and carries only the rounding of one division and one product.
pub fn unit_root(e: u64, n: u64) -> (f64, f64) {
    debug_assert!(n > 0);
    let m = (e % n) as u128;
    let n = n as u128;
    let octant = (8 * m / n) as u32; // 0..=7
    let r = 8 * m - octant as u128 * n; // position inside the octant, in units of 1/(8n) turns
    if r == 0 {
        // Octant boundaries are exact: (cos, sin) of octant * pi/4.
        let h = FRAC_1_SQRT_2;
        let (c, s) =
            [(1.0, 0.0), (h, h), (0.0, 1.0), (-h, h), (-1.0, 0.0), (-h, -h), (0.0, -1.0), (h, -h)][octant as usize];
        return (c, -s);
    }
    let phi = FRAC_PI_4 * (r as f64 / n as f64);
    let psi = FRAC_PI_4 * ((n - r) as f64 / n as f64);
    // (cos theta, sin theta) for theta = 2 pi m / n = (pi/4) (octant + r/n)
    let (c, s) = match octant {
        0 => (phi.cos(), phi.sin()),
        1 => (psi.sin(), psi.cos()),
        2 => (-phi.sin(), phi.cos()),
        3 => (-psi.cos(), psi.sin()),
        4 => (-phi.cos(), -phi.sin()),
        5 => (-psi.sin(), -psi.cos()),
        6 => (phi.sin(), -phi.cos()),
        _ => (psi.cos(), -psi.sin()),
    };
    (c, -s)
}

/// (a * b) mod n without overflow.
pub fn mul_mod(a: u64, b: u64, n: u64) -> u64 {
    (a as u128 * b as u128 % n as u128) as u64
}

/// Two-level table for w_n^e with e < count: `lo[e & (2^shift - 1)] * hi[e >> shift]`, O(sqrt count) entries
/// where a direct table would need `count`. Returns (shift, lo, hi) sizes.
pub fn split_table_shape(count: usize) -> (u32, usize, usize) {
    let shift = (count as f64).sqrt().log2().ceil() as u32;
    let lo = 1usize << shift;
    (shift, lo, count.div_ceil(lo))
}

/// The entries of `split_table_shape(count)` for roots of order n: the low table, then the high one.
pub fn split_table(count: usize, n: u64) -> Vec<(f64, f64)> {
    let (shift, lo, hi) = split_table_shape(count);
    (0..lo as u64).map(|e| unit_root(e, n)).chain((0..hi as u64).map(|h| unit_root(h << shift, n))).collect()
}

/// w_n^e for any e < n from a two-level table built once: a product of two entries (one rounding more than
/// `unit_root`) instead of a sin/cos pair per root.
pub struct SplitRoots {
    shift: u32,
    table: Vec<(f64, f64)>,
}

impl SplitRoots {
    pub fn new(n: usize) -> SplitRoots {
        SplitRoots { shift: split_table_shape(n).0, table: split_table(n, n as u64) }
    }

    pub fn root(&self, e: usize) -> (f64, f64) {
        let lo_len = 1 << self.shift;
        let (a, b) = (self.table[e & (lo_len - 1)], self.table[lo_len + (e >> self.shift)]);
        (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
    }
}

/// Stockham pass twiddles: for each pass of radix R and span L, entries w_L^(j k) for j in 1..R, k < L/R,
/// laid out j-major so that consecutive butterflies read consecutive entries.
///
/// With `plane_n0` (two axes in one kernel, the first passes spanning the n0 points of a row), a pass past
/// span n0 combines, for each row frequency k mod n0, the columns' transforms: its entry is
/// w_(L/n0)^(j floor(k/n0)), the 1D twiddle without its cross factor w_L^(j (k mod n0)).
pub fn stockham_table(radices: &[usize], plane_n0: Option<usize>) -> Vec<(f64, f64)> {
    let mut table = Vec::new();
    let mut span = 1usize;
    for &radix in radices {
        span *= radix;
        let stride = span / radix;
        let n0 = plane_n0.filter(|&n0| span > n0).unwrap_or(1);
        for j in 1..radix {
            for k in 0..stride {
                table.push(unit_root((j * (k / n0)) as u64, (span / n0) as u64));
            }
        }
    }
    table
}

/// Offsets of each pass's entries in `stockham_table`.
pub fn stockham_offsets(radices: &[usize]) -> Vec<usize> {
    let mut offsets = Vec::with_capacity(radices.len());
    let (mut offset, mut span) = (0usize, 1usize);
    for &radix in radices {
        offsets.push(offset);
        span *= radix;
        offset += (radix - 1) * (span / radix);
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_roots_are_exact_on_octant_boundaries() {
        assert_eq!(unit_root(0, 7), (1.0, -0.0));
        assert_eq!(unit_root(4, 16), (0.0, -1.0));
        assert_eq!(unit_root(8, 16), (-1.0, -0.0));
        assert_eq!(unit_root(12, 16), (0.0, 1.0));
        assert_eq!(unit_root(17, 16), unit_root(1, 16));
        let (c, s) = unit_root(2, 16);
        assert_eq!((c, -s), (std::f64::consts::FRAC_1_SQRT_2, std::f64::consts::FRAC_1_SQRT_2));
        // Inside an octant the angle carries one rounding: within an ulp of the true value.
        assert!((unit_root(1, 3).0 + 0.5).abs() <= f64::EPSILON / 2.0);
    }

    #[test]
    fn plane_passes_past_the_rows_are_the_column_table_once_per_row_frequency() {
        let rows = stockham_table(&[4, 2], None);
        let columns = stockham_table(&[3, 5], None);
        let plane = stockham_table(&[4, 2, 3, 5], Some(8));
        assert_eq!(plane[..rows.len()], rows[..]);
        let repeated: Vec<_> = columns.iter().flat_map(|&w| std::iter::repeat(w).take(8)).collect();
        assert_eq!(plane[rows.len()..], repeated[..]);
    }

    #[test]
    fn unit_roots_match_the_definition() {
        for n in [1u64, 2, 3, 5, 12, 1000, 1 << 20, 1_000_003] {
            for e in [0u64, 1, n / 3, n / 2, n - 1, 2 * n + 5] {
                let theta = -2.0 * std::f64::consts::PI * ((e % n) as f64) / n as f64;
                let (c, s) = unit_root(e, n);
                assert!((c - theta.cos()).abs() < 1e-15 && (s - theta.sin()).abs() < 1e-15, "e={e} n={n}");
            }
        }
    }
}
