//! The out-of-core passes' kernels (`kernels/slab_twiddle.cl`): the four-step's twiddle multiply and the
//! real transforms' Hermitian combination, their program text and their two tables of roots.

use super::twiddle::unit_root;
use super::{Defines, KernelSource};
use crate::types::Precision;

/// Unit roots as (re, im) pairs.
pub type Roots = Vec<(f64, f64)>;

const SLAB_TWIDDLE_CL: &str = include_str!("../../kernels/slab_twiddle.cl");

/// The kernels for complex transforms of length `m` and, where `n` is 2 `m`, real transforms of length `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlabTwiddle {
    /// The order of the tables' roots: `m`, or the real length 2 `m`.
    pub n: usize,
    pub m: usize,
    pub precision: Precision,
}

impl SlabTwiddle {
    pub const ENTRY: &'static str = "slab_twiddle";
    pub const HERMITIAN_ENTRY: &'static str = "slab_hermitian";

    /// The kernels of an `n`-point complex transform.
    pub fn complex(n: usize, precision: Precision) -> SlabTwiddle {
        SlabTwiddle { n, m: n, precision }
    }

    /// The kernels of an `n`-point real transform (`n` even), through an `n / 2`-point complex one.
    pub fn real(n: usize, precision: Precision) -> SlabTwiddle {
        SlabTwiddle { n, m: n / 2, precision }
    }

    /// Entries of the low table: about sqrt(n), so both tables stay small.
    pub fn split(&self) -> usize {
        ((self.n as f64).sqrt().ceil() as usize).max(1)
    }

    pub fn source(&self) -> KernelSource {
        let mut defines = Defines::default();
        defines
            .set("N", format!("{}UL", self.n))
            .set("M", format!("{}UL", self.m))
            .set("SPLIT", format!("{}UL", self.split()));
        if self.precision == Precision::Double {
            defines.set("FFTX_DOUBLE", 1);
        }
        KernelSource::own(Self::ENTRY, defines.program(&[SLAB_TWIDDLE_CL]))
    }

    /// w_n^e for e < split, and w_n^(split h) for h <= n / split: computed in double for either precision.
    pub fn tables(&self) -> (Roots, Roots) {
        let n = self.n as u64;
        let split = self.split() as u64;
        let low = (0..split).map(|e| unit_root(e, n)).collect();
        let high = (0..=n / split).map(|h| unit_root(h * split, n)).collect();
        (low, high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Precision;

    #[test]
    fn tables_multiply_to_every_root() {
        let kernel = SlabTwiddle::complex(1000, Precision::Single);
        let (low, high) = kernel.tables();
        let split = kernel.split();
        for e in [0, 1, 31, 32, 500, 999] {
            let (a, b) = (low[e % split], high[e / split]);
            let product = (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0);
            let exact = unit_root(e as u64, 1000);
            assert!((product.0 - exact.0).abs() < 1e-15 && (product.1 - exact.1).abs() < 1e-15, "e = {e}");
        }
    }
}
