//! Bluestein's tables: the chirp and the spectrum of the padded chirp, fused into the FFTs of the
//! convolution as load and store factors (of leaves, or of the first and last passes of four-steps).

use super::twiddle::SplitRoots;
use num_complex::Complex64;
use once_cell::sync::Lazy;
use std::sync::{Arc, Mutex};

/// An elementwise factor a Stockham leaf applies on load (a multiply) or on store (conjugate, then
/// multiply): Bluestein fused into the FFTs of its convolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Factor {
    /// c_j = w_n^(j^2/2) for j < len.
    Chirp { n: usize, len: usize },
    /// conj(FFT_m(b) / m) for the chirp b of length n padded to m.
    ChirpSpectrum { n: usize, m: usize },
}

/// A factor as one kernel applies it: element k of the transform with batch coordinates c takes table entry
/// j = k_mul k + sum_d dim_muls[d] c[d]. Elements with j >= limit lie past the end of the sequence the
/// factor belongs to: on load they are zero and not read, on store they are not written. A four-step
/// carries its job's factor into its first pass (load) and last pass (store) this way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedFactor {
    pub factor: Factor,
    pub k_mul: usize,
    pub dim_muls: Vec<usize>,
    pub limit: usize,
}

impl IndexedFactor {
    /// Entry k for element k, over the whole table.
    pub fn direct(factor: Factor) -> IndexedFactor {
        IndexedFactor { factor, k_mul: 1, dim_muls: Vec::new(), limit: factor.table_len() }
    }

    /// True when some of `count` elements of a transform in a batch of `dim_counts` reach past the limit.
    pub fn needs_guard(&self, count: usize, dim_counts: &[usize]) -> bool {
        let last = self.k_mul * (count.max(1) - 1)
            + self.dim_muls.iter().zip(dim_counts).map(|(m, c)| m * (c.max(&1) - 1)).sum::<usize>();
        last >= self.limit
    }
}

impl Factor {
    pub fn table_len(&self) -> usize {
        match *self {
            Factor::Chirp { len, .. } => len,
            Factor::ChirpSpectrum { m, .. } => m,
        }
    }

    pub fn table(&self) -> Table {
        recent_or_make(*self, || match *self {
            // A shorter chirp (a store factor keeping fewer outputs) is the start of the whole one.
            Factor::Chirp { n, len } if len < n => Factor::Chirp { n, len: n }.table()[..len].to_vec(),
            Factor::Chirp { n, .. } => chirps(n),
            Factor::ChirpSpectrum { n, m } => chirp_spectrum(n, m),
        })
    }
}

/// A factor's entries (re, im), shared.
pub type Table = Arc<Vec<(f64, f64)>>;

/// Tables made lately, oldest first. A Bluestein bake needs the chirp three times (load factor, store factor
/// and inside the spectrum), and baking the same length again (another batch or placement) needs them all:
/// n = 1000003 spent 200 ms of a warm bake remaking them. Bounded, so that long lengths do not pin theirs.
static RECENT: Lazy<Mutex<Vec<(Factor, Table)>>> = Lazy::new(|| Mutex::new(Vec::new()));
const RECENT_BYTES: usize = 64 << 20;

/// Drops the kept tables (clfftTeardown).
pub fn forget_recent_tables() {
    RECENT.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

fn recent_or_make(factor: Factor, make: impl FnOnce() -> Vec<(f64, f64)>) -> Table {
    let lock = || RECENT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, table)) = lock().iter().find(|(f, _)| *f == factor) {
        return table.clone();
    }
    // Made without the lock: two bakes of the same length at once may both make it, and both get it right.
    let table = Arc::new(make());
    let bytes = |t: &Vec<(f64, f64)>| t.len() * std::mem::size_of::<(f64, f64)>();
    if bytes(&table) <= RECENT_BYTES {
        let mut recent = lock();
        recent.retain(|(f, _)| *f != factor);
        recent.push((factor, table.clone()));
        while recent.iter().map(|(_, t)| bytes(t)).sum::<usize>() > RECENT_BYTES {
            recent.remove(0);
        }
    }
    table
}

/// c_j = exp(-pi i j^2 / n) for j < n, with j^2 reduced modulo 2n in integers so that no precision
/// is lost for large j. j^2 mod 2n advances by 2j + 1, and each root is the product of two entries of a
/// two-level table: one rounding more than a direct root, but no sin/cos per entry (baking n = 10^6 spent
/// 100 ms on them).
fn chirps(n: usize) -> Vec<(f64, f64)> {
    let order = 2 * n;
    let roots = SplitRoots::new(order);
    let mut square = 0usize;
    let mut out = Vec::with_capacity(n);
    for j in 0..n {
        out.push(roots.root(square));
        // (j + 1)^2 = j^2 + 2j + 1 with 2j + 1 < 2n: one subtraction reduces it.
        square += 2 * j + 1;
        if square >= order {
            square -= order;
        }
    }
    out
}

/// conj(FFT_m(b) / m) where b_j = conj(c_j) for |j| < n (indices mod m), zero elsewhere; in double.
fn chirp_spectrum(n: usize, m: usize) -> Vec<(f64, f64)> {
    let mut b = vec![Complex64::new(0.0, 0.0); m];
    let chirp = Factor::Chirp { n, len: n }.table();
    for (j, &(re, im)) in chirp.iter().enumerate() {
        b[j] = Complex64::new(re, -im);
        if j > 0 {
            b[m - j] = b[j];
        }
    }
    rustfft::FftPlanner::<f64>::new().plan_fft_forward(m).process(&mut b);
    b.iter().map(|v| (v.re / m as f64, -v.im / m as f64)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::twiddle::unit_root;

    /// c_j = exp(-pi i j^2 / n), with j^2 reduced modulo 2n in integers so that no precision is lost for large j.
    fn chirp(j: usize, n: usize) -> (f64, f64) {
        let square = (j as u128 * j as u128 % (2 * n as u128)) as u64;
        unit_root(square, 2 * n as u64)
    }

    #[test]
    fn chirp_reduction_is_exact_for_large_indices() {
        // j^2 for j near 2^40 overflows u64 arithmetic without the u128 reduction.
        let n = 1_000_003;
        let j = (1usize << 40) + 12345;
        let reduced = j % (2 * n);
        assert_eq!(chirp(j, n), chirp(reduced, n));
        let theta = -std::f64::consts::PI * ((reduced * reduced) % (2 * n)) as f64 / n as f64;
        let (c, s) = chirp(j, n);
        assert!((c - theta.cos()).abs() < 1e-12 && (s - theta.sin()).abs() < 1e-12);
    }

    #[test]
    fn recent_tables_are_shared_and_bounded() {
        let chirp = Factor::Chirp { n: 1009, len: 1009 };
        assert!(Arc::ptr_eq(&chirp.table(), &chirp.table()));
        // Three chirps of 2.1M entries (34 MB each) cannot all stay.
        for n in [2_100_000, 2_100_001, 2_100_002] {
            assert_eq!(Factor::Chirp { n, len: n }.table().len(), n);
        }
        let recent = RECENT.lock().unwrap_or_else(|e| e.into_inner());
        let kept: usize = recent.iter().map(|(_, t)| t.len() * 16).sum();
        assert!(kept <= RECENT_BYTES, "{kept} bytes kept");
        assert!(recent.iter().any(|(f, _)| *f == Factor::Chirp { n: 2_100_002, len: 2_100_002 }));
    }

    #[test]
    fn incremental_chirps_match_the_direct_ones() {
        for (n, len) in [(17, 17), (1_000_003, 1_000_003), (12, 5)] {
            let table = Factor::Chirp { n, len }.table();
            assert_eq!(table.len(), len);
            for j in [0, 1, 2, len / 2, len - 1] {
                let (a, b) = (table[j], chirp(j, n));
                assert!((a.0 - b.0).abs() < 1e-15 && (a.1 - b.1).abs() < 1e-15, "n={n} j={j}");
            }
        }
    }
}
