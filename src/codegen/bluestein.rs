//! The elementwise passes of Bluestein's algorithm (`kernels/bluestein.cl`) and their tables.

use super::stockham::{kind_code, layout_params, BatchDim, ElementKind};
use super::twiddle::unit_root;
use super::{Defines, KernelSource, Precision, Reach, ACCESS_CL, BLUESTEIN_CL, COMMON_CL, LAYOUT_CL};
use num_complex::Complex64;

/// An elementwise factor a Stockham leaf applies on load (a multiply) or on store (conjugate, then
/// multiply): Bluestein fused into the FFTs of its convolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Factor {
    /// c_j = w_n^(j^2/2) for j < len.
    Chirp { n: usize, len: usize },
    /// conj(FFT_m(b) / m) for the chirp b of length n padded to m.
    ChirpSpectrum { n: usize, m: usize },
}

impl Factor {
    pub fn len(&self) -> usize {
        match *self {
            Factor::Chirp { len, .. } => len,
            Factor::ChirpSpectrum { m, .. } => m,
        }
    }

    pub fn table(&self) -> Vec<(f64, f64)> {
        match *self {
            Factor::Chirp { n, len } => (0..len).map(|j| chirp(j, n)).collect(),
            Factor::ChirpSpectrum { n, m } => chirp_spectrum(n, m),
        }
    }
}

/// conj(FFT_m(b) / m) where b_j = conj(c_j) for |j| < n (indices mod m), zero elsewhere; in double.
fn chirp_spectrum(n: usize, m: usize) -> Vec<(f64, f64)> {
    let mut b = vec![Complex64::new(0.0, 0.0); m];
    for j in 0..n {
        let (re, im) = chirp(j, n);
        b[j] = Complex64::new(re, -im);
        if j > 0 {
            b[m - j] = b[j];
        }
    }
    rustfft::FftPlanner::<f64>::new().plan_fft_forward(m).process(&mut b);
    b.iter().map(|v| (v.re / m as f64, -v.im / m as f64)).collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChirpOp {
    /// x_m c_m for m < n, zero up to the convolution length.
    In,
    /// conj(A_m) conj(B_m) with B = FFT_m(b) / m.
    Pointwise,
    /// conj(z_k) c_k for the first `out_count` k.
    Out,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChirpKernel {
    pub precision: Precision,
    pub op: ChirpOp,
    /// The transform length.
    pub n: usize,
    /// The convolution length (smooth, >= 2n - 1).
    pub m: usize,
    /// Elements written per transform by `Out` (n, or fewer for a truncated real output).
    pub out_count: usize,
    pub in_stride: usize,
    pub out_stride: usize,
    pub batch: Vec<BatchDim>,
    pub in_kind: ElementKind,
    pub out_kind: ElementKind,
    pub in_planar: bool,
    pub out_planar: bool,
    pub wide_index: bool,
}

const GROUP: usize = 64;

/// c_j = exp(-pi i j^2 / n), with j^2 reduced modulo 2n in integers so that no precision is lost for large j.
fn chirp(j: usize, n: usize) -> (f64, f64) {
    let square = (j as u128 * j as u128 % (2 * n as u128)) as u64;
    unit_root(square, 2 * n as u64)
}

impl ChirpKernel {
    pub fn transforms(&self) -> usize {
        self.batch.iter().map(|d| d.count).product()
    }

    fn written(&self) -> usize {
        match self.op {
            ChirpOp::In | ChirpOp::Pointwise => self.m,
            ChirpOp::Out => self.out_count,
        }
    }

    fn read(&self) -> usize {
        match self.op {
            ChirpOp::In => self.n,
            ChirpOp::Pointwise => self.m,
            ChirpOp::Out => self.out_count,
        }
    }

    pub fn reach_in(&self) -> Reach {
        Reach::of(self.read(), self.in_stride, &self.batch, |d| d.in_stride, self.in_kind, self.in_planar)
    }

    pub fn reach_out(&self) -> Reach {
        Reach::of(self.written(), self.out_stride, &self.batch, |d| d.out_stride, self.out_kind, self.out_planar)
    }

    /// One work-item per element (x) and transform (y).
    pub fn work_size(&self) -> ([usize; 2], [usize; 2]) {
        let group = GROUP.min(self.written().next_power_of_two());
        ([self.written().div_ceil(group) * group, self.transforms()], [group, 1])
    }

    pub fn source(&self) -> KernelSource {
        let mut d = Defines::default();
        if self.precision == Precision::Double {
            d.set("FFTX_DOUBLE", 1);
        }
        let (op, table_len) = match self.op {
            ChirpOp::In => (1, self.n),
            ChirpOp::Pointwise => (2, self.m),
            ChirpOp::Out => (3, self.n),
        };
        d.set("VW", 1)
            .set("IDX", if self.wide_index { "ulong" } else { "uint" })
            .set("N", self.n)
            .set("NBATCH", self.batch.len())
            .flag("IN_PLANAR", self.in_planar)
            .flag("OUT_PLANAR", self.out_planar)
            .set("IN_KIND", kind_code(self.in_kind))
            .set("OUT_KIND", kind_code(self.out_kind))
            .set("OUT_COUNT", self.written())
            .set("TABLE_LEN", table_len)
            .set("CHIRP", op);
        KernelSource {
            entry: "fftx_chirp",
            source: d.program(&[COMMON_CL, ACCESS_CL, LAYOUT_CL, BLUESTEIN_CL]),
            options: String::new(),
        }
    }

    pub fn params(&self) -> Vec<u64> {
        layout_params(self.in_stride, self.out_stride, self.in_kind, self.out_kind, &self.batch, None)
    }

    /// The chirp c_0..c_n-1, or conj(FFT_m(b) / m) for the pointwise product, computed in double.
    pub fn twiddles(&self) -> Vec<(f64, f64)> {
        match self.op {
            ChirpOp::In | ChirpOp::Out => Factor::Chirp { n: self.n, len: self.n }.table(),
            ChirpOp::Pointwise => Factor::ChirpSpectrum { n: self.n, m: self.m }.table(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
