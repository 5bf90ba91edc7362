//! One pass over memory computing each output element from one or two input elements and a table
//! (`kernels/elementwise.cl`): the real stage of real transforms too long for one Stockham kernel,
//! the split of two real transforms run as one complex one, and Rader's permutations and product.

use super::callback::FusedCallbacks;
use super::rader;
use super::stockham::{kind_code, layout_params, BatchDim, ElementKind};
use super::twiddle::{split_table, split_table_shape};
use super::{Defines, KernelSource, Reach, ACCESS_CL, COMMON_CL, ELEMENTWISE_CL, LANES_CL, LAYOUT_CL, REAL_CL};
use crate::types::Precision;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementwiseOp {
    /// Z_0..Z_n-1 -> X_0..X_n (even R2C of length 2n).
    R2cPost,
    /// Keep the first n/2 + 1 of n complex values (odd R2C).
    Truncate,
    /// X_0..X_n -> Z'_0..Z'_n-1 (even C2R of length 2n).
    C2rPre,
    /// X_0..X_n/2 -> X_0..X_n-1 by Hermitian symmetry (odd C2R).
    Expand,
    /// Two real transforms of odd length n run as one complex one z = x + i y: X_k = (Z_k + conj(Z_n-k)) / 2
    /// to the transform's output and Y_k = (Z_k - conj(Z_n-k)) / 2i to the one `twin_out` further, for
    /// k <= n / 2; lone transforms (`lone_dim`: whose twin another pair writes) store X only.
    TwinSplit { twin_out: usize },
    /// The inverse of `TwinSplit` for two odd C2R transforms: the Hermitian halves X (of the transform) and
    /// Y (`twin_in` further), each extended by symmetry, -> Z_k = X_k + i Y_k for k < n, so that one
    /// complex transform yields x + i y. Backward only (C2R always is): see the kernel.
    TwinMerge { twin_in: usize },
    /// Rader (prime n, generator `root`): a_p = x_(g^p) for p < n - 1, then x_0 at n - 1.
    RaderGather { root: usize },
    /// Rader: conj(A_k) conj(C_k / (n - 1)) for k < n - 1, C the spectrum of the roots, keeping A_0 at n.
    RaderProduct { root: usize },
    /// Rader: X_(g^-q) = x_0 + conj(z_q) and X_0 = x_0 + A_0, for the first `count` outputs.
    RaderScatter { root: usize, count: usize },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementwiseKernel {
    pub precision: Precision,
    pub op: ElementwiseOp,
    /// The transform length (complex length for the real stages).
    pub n: usize,
    pub in_stride: usize,
    pub out_stride: usize,
    pub batch: Vec<BatchDim>,
    pub in_kind: ElementKind,
    pub out_kind: ElementKind,
    pub in_planar: bool,
    pub out_planar: bool,
    pub wide_index: bool,
    /// Consecutive output elements per work-item: many on CPUs, where the loop over them vectorizes and
    /// the transform's position is found once; one on GPUs, whose neighbouring work-items coalesce.
    pub per_item: usize,
    /// Pairs of odd real transforms with an odd count: the transforms at coordinate 0 of this batch dimension
    /// store no twin (`TwinSplit`'s Y, or the twin half of real pairs far apart on output): another pair
    /// stores it as its own.
    pub lone_dim: Option<usize>,
    /// A user's callbacks run in this pass's loads and stores (access.cl).
    pub callbacks: FusedCallbacks,
}

const GROUP: usize = 64;
/// Lanes of the paired real stages (`PAIRED` in the kernel).
const PAIR_LANES: usize = 8;

impl ElementwiseKernel {
    pub fn transforms(&self) -> usize {
        self.batch.iter().map(|d| d.count).product()
    }

    /// True when a real stage or twin op runs its outputs as vector chunks paired with their mirrors: on
    /// CPUs (many elements per work-item), for complex data at unit stride on both sides, when at least one
    /// chunk fits below n / 2. Each input is then read once rather than twice, in whole vectors
    /// (docs/tuning.md, "Paired elementwise stages").
    fn paired(&self) -> bool {
        matches!(
            self.op,
            ElementwiseOp::R2cPost
                | ElementwiseOp::C2rPre
                | ElementwiseOp::TwinSplit { .. }
                | ElementwiseOp::TwinMerge { .. }
        ) && self.per_item >= PAIR_LANES
            && self.in_kind == ElementKind::Complex
            && self.out_kind == ElementKind::Complex
            && (self.in_stride, self.out_stride) == (1, 1)
            && self.chunks() > 0
    }

    /// Chunks of `PAIR_LANES` outputs k >= `PAIR_LANES` whose mirrors n - k all lie above them.
    fn chunks(&self) -> usize {
        (self.n / 2 / PAIR_LANES).saturating_sub(1)
    }

    /// Elements read and written per transform.
    pub fn element_counts(&self) -> (usize, usize) {
        let n = self.n;
        match self.op {
            ElementwiseOp::R2cPost => (n, n + 1),
            ElementwiseOp::Truncate => (n / 2 + 1, n / 2 + 1),
            ElementwiseOp::C2rPre => (n + 1, n),
            ElementwiseOp::Expand => (n / 2 + 1, n),
            ElementwiseOp::TwinSplit { .. } => (n, n / 2 + 1),
            ElementwiseOp::TwinMerge { .. } => (n / 2 + 1, n),
            ElementwiseOp::RaderGather { .. } => (n, n),
            ElementwiseOp::RaderProduct { .. } => (n - 1, n + 1),
            ElementwiseOp::RaderScatter { count, .. } => (n + 1, count),
        }
    }

    /// The elements the work-items run through: output elements, except for Rader's product (whose last
    /// output is A_0, written with A_0's product) and scatter (which runs over its n - 1 inputs).
    fn loop_count(&self) -> usize {
        match self.op {
            ElementwiseOp::RaderProduct { .. } | ElementwiseOp::RaderScatter { .. } => self.n - 1,
            _ => self.element_counts().1,
        }
    }

    pub fn reach_in(&self) -> Reach {
        let own = Reach::of(
            self.element_counts().0,
            self.in_stride,
            &self.batch,
            |d| d.in_stride,
            self.in_kind,
            self.in_planar,
        );
        Reach { positions: own.positions + self.twin_offsets().0, ..own }
    }

    pub fn reach_out(&self) -> Reach {
        let own = Reach::of(
            self.element_counts().1,
            self.out_stride,
            &self.batch,
            |d| d.out_stride,
            self.out_kind,
            self.out_planar,
        );
        Reach { positions: own.positions + self.twin_offsets().1, ..own }
    }

    /// How much further than its own transform a twin op reads (merge) and writes (split).
    fn twin_offsets(&self) -> (usize, usize) {
        match self.op {
            ElementwiseOp::TwinMerge { twin_in } => (twin_in, 0),
            ElementwiseOp::TwinSplit { twin_out, .. } => (0, twin_out),
            _ => (0, 0),
        }
    }

    /// One work-item per `per_item` output elements (x) and transform (y); paired, per `per_item` outputs
    /// below n / 2 and their mirrors.
    pub fn work_size(&self) -> ([usize; 2], [usize; 2]) {
        let items = if self.paired() {
            self.chunks().div_ceil(self.per_item / PAIR_LANES)
        } else {
            self.loop_count().div_ceil(self.per_item)
        };
        let group = GROUP.min(items.next_power_of_two());
        ([items.div_ceil(group) * group, self.transforms()], [group, 1])
    }

    pub fn source(&self) -> KernelSource {
        let mut d = Defines::default();
        if self.precision == Precision::Double {
            d.set("FFTX_DOUBLE", 1);
        }
        let op = match self.op {
            ElementwiseOp::R2cPost => 1,
            ElementwiseOp::Truncate => 2,
            ElementwiseOp::C2rPre => 3,
            ElementwiseOp::Expand => 4,
            ElementwiseOp::RaderGather { .. } => 5,
            ElementwiseOp::RaderProduct { .. } => 6,
            ElementwiseOp::RaderScatter { .. } => 7,
            ElementwiseOp::TwinSplit { .. } => 8,
            ElementwiseOp::TwinMerge { .. } => 9,
        };
        let paired = self.paired();
        d.set("VW", if paired { PAIR_LANES } else { 1 })
            .set("IDX", if self.wide_index { "ulong" } else { "uint" })
            .set("N", self.n)
            .set("NBATCH", self.batch.len())
            .flag("IN_PLANAR", self.in_planar)
            .flag("OUT_PLANAR", self.out_planar)
            .set("IN_KIND", kind_code(self.in_kind))
            .set("OUT_KIND", kind_code(self.out_kind))
            .set("OUT_COUNT", self.element_counts().1)
            .set("LOOP_COUNT", self.loop_count())
            .set("RT_OFF", 0)
            .set("PER_ITEM", self.per_item)
            .set("OP", op)
            .flag("PAIRED", paired);
        if paired {
            d.set("CHUNKS", self.chunks()).set("CHUNKS_PER_ITEM", self.per_item / PAIR_LANES);
        }
        match self.op {
            ElementwiseOp::R2cPost | ElementwiseOp::C2rPre => {
                d.set("RT_SHIFT", split_table_shape(self.n + 1).0);
            }
            ElementwiseOp::TwinSplit { twin_out } => {
                d.set("TWIN_OUT", twin_out);
            }
            ElementwiseOp::TwinMerge { twin_in } => {
                d.set("TWIN_IN", twin_in);
            }
            _ => {}
        }
        if let Some(dim) = self.lone_dim {
            d.set("LONE_DIM", dim);
        }
        self.callbacks.define(&mut d);
        let program = d.program(&[COMMON_CL, LANES_CL, ACCESS_CL, LAYOUT_CL, REAL_CL, ELEMENTWISE_CL]);
        self.callbacks.ahead_of("fftx_elementwise", program, self.precision)
    }

    pub fn params(&self) -> Vec<u64> {
        layout_params(self.in_stride, self.out_stride, self.in_kind, self.out_kind, &self.batch, None)
    }

    /// The table the op reads, computed in double.
    pub fn twiddles(&self) -> Vec<(f64, f64)> {
        let n = self.n;
        match self.op {
            ElementwiseOp::R2cPost | ElementwiseOp::C2rPre => split_table(n + 1, 2 * n as u64),
            ElementwiseOp::Truncate
            | ElementwiseOp::Expand
            | ElementwiseOp::TwinSplit { .. }
            | ElementwiseOp::TwinMerge { .. } => Vec::new(),
            ElementwiseOp::RaderProduct { root } => rader::spectrum(n, root),
            ElementwiseOp::RaderGather { root } => rader::positions(n, root),
            ElementwiseOp::RaderScatter { root, .. } => rader::positions(n, rader::inverse(root, n)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Precision;

    fn real_stage(n: usize, per_item: usize) -> ElementwiseKernel {
        ElementwiseKernel {
            precision: Precision::Single,
            op: ElementwiseOp::R2cPost,
            n,
            in_stride: 1,
            out_stride: 1,
            batch: vec![BatchDim { count: 3, in_stride: n, out_stride: n + 1 }],
            in_kind: ElementKind::Complex,
            out_kind: ElementKind::Complex,
            in_planar: false,
            out_planar: false,
            wide_index: false,
            per_item,
            lone_dim: None,
            callbacks: Default::default(),
        }
    }

    #[test]
    fn cpu_real_stages_pair_vector_chunks_with_their_mirrors() {
        // 32768 / 2 / 8 - 1 = 2047 chunks, 8 to a work-item.
        let k = real_stage(32768, 64);
        assert!(k.paired());
        assert_eq!(k.work_size(), ([256, 3], [64, 1]));
        assert!(k.source().source.contains("#define CHUNKS 2047"));
        // Too short for a chunk below n / 2, one element per GPU work-item, a real side or a stride: element
        // by element.
        assert!(!real_stage(31, 64).paired());
        assert!(real_stage(32, 64).paired());
        assert!(!real_stage(32768, 1).paired());
        assert!(!ElementwiseKernel { out_kind: ElementKind::Real, ..real_stage(32768, 64) }.paired());
        assert!(!ElementwiseKernel { out_stride: 2, ..real_stage(32768, 64) }.paired());
        assert_eq!(real_stage(32768, 1).work_size(), ([32832, 3], [64, 1]));
        // The twin split and merge of odd lengths pair k with n - k the same way.
        for op in [ElementwiseOp::TwinSplit { twin_out: 3 * 16807 }, ElementwiseOp::TwinMerge { twin_in: 3 * 8404 }] {
            let twins = ElementwiseKernel { op, ..real_stage(16807, 64) };
            assert!(twins.paired());
            assert!(twins.source().source.contains("#define CHUNKS 1049"));
        }
    }
}
