//! The real-transform edge pass (`kernels/edge.cl`) for real lengths too long for a fused Stockham leaf.

use super::stockham::{kind_code, layout_params, BatchDim, ElementKind};
use super::twiddle::unit_root;
use super::{Defines, KernelSource, Precision, Reach, ACCESS_CL, COMMON_CL, EDGE_CL, LAYOUT_CL, REAL_CL};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeOp {
    /// Z_0..Z_n-1 -> X_0..X_n (even R2C of length 2n).
    R2cPost,
    /// Keep the first n/2 + 1 of n complex values (odd R2C).
    Truncate,
    /// X_0..X_n -> Z'_0..Z'_n-1 (even C2R of length 2n).
    C2rPre,
    /// X_0..X_n/2 -> X_0..X_n-1 by Hermitian symmetry (odd C2R).
    Expand,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeKernel {
    pub precision: Precision,
    pub op: EdgeOp,
    /// The complex length of the transform the edge pass feeds or follows.
    pub n: usize,
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

impl EdgeKernel {
    pub fn transforms(&self) -> usize {
        self.batch.iter().map(|d| d.count).product()
    }

    pub fn out_count(&self) -> usize {
        match self.op {
            EdgeOp::R2cPost => self.n + 1,
            EdgeOp::Truncate => self.n / 2 + 1,
            EdgeOp::C2rPre | EdgeOp::Expand => self.n,
        }
    }

    /// Input elements read per transform.
    fn in_count(&self) -> usize {
        match self.op {
            EdgeOp::R2cPost => self.n,
            EdgeOp::Truncate => self.n / 2 + 1,
            EdgeOp::C2rPre => self.n + 1,
            EdgeOp::Expand => self.n / 2 + 1,
        }
    }

    pub fn reach_in(&self) -> Reach {
        Reach::of(self.in_count(), self.in_stride, &self.batch, |d| d.in_stride, self.in_kind, self.in_planar)
    }

    pub fn reach_out(&self) -> Reach {
        Reach::of(self.out_count(), self.out_stride, &self.batch, |d| d.out_stride, self.out_kind, self.out_planar)
    }

    /// One work-item per output element (x) and transform (y).
    pub fn work_size(&self) -> ([usize; 2], [usize; 2]) {
        let group = GROUP.min(self.out_count().next_power_of_two());
        ([self.out_count().div_ceil(group) * group, self.transforms()], [group, 1])
    }

    pub fn source(&self) -> KernelSource {
        let mut d = Defines::default();
        if self.precision == Precision::Double {
            d.set("FFTX_DOUBLE", 1);
        }
        d.set("VW", 1)
            .set("IDX", if self.wide_index { "ulong" } else { "uint" })
            .set("N", self.n)
            .set("NBATCH", self.batch.len())
            .flag("IN_PLANAR", self.in_planar)
            .flag("OUT_PLANAR", self.out_planar)
            .set("IN_KIND", kind_code(self.in_kind))
            .set("OUT_KIND", kind_code(self.out_kind))
            .set("OUT_COUNT", self.out_count())
            .set("RT_OFF", 0)
            .set(
                "EDGE",
                match self.op {
                    EdgeOp::R2cPost => 1,
                    EdgeOp::Truncate => 2,
                    EdgeOp::C2rPre => 3,
                    EdgeOp::Expand => 4,
                },
            );
        KernelSource {
            entry: "fftx_real_edge",
            source: d.program(&[COMMON_CL, ACCESS_CL, LAYOUT_CL, REAL_CL, EDGE_CL]),
            options: String::new(),
        }
    }

    pub fn params(&self) -> Vec<u64> {
        layout_params(self.in_stride, self.out_stride, self.in_kind, self.out_kind, &self.batch, None)
    }

    /// The roots w_2n^k, k = 0..n, for the pre/post-process.
    pub fn twiddles(&self) -> Vec<(f64, f64)> {
        match self.op {
            EdgeOp::R2cPost | EdgeOp::C2rPre => (0..=self.n as u64).map(|k| unit_root(k, 2 * self.n as u64)).collect(),
            EdgeOp::Truncate | EdgeOp::Expand => Vec::new(),
        }
    }
}
