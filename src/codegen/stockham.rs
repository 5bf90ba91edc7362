//! The Stockham leaf: a batch of FFTs along one axis in a single kernel (`kernels/stockham.cl`).

use super::twiddle::{stockham_offsets, stockham_table, two_level_table};
use super::{Defines, KernelSource, Precision, BUTTERFLIES_CL, COMMON_CL, LANES_CL, STOCKHAM_CL};

/// Radices with a hand-written butterfly in `kernels/butterflies.cl`.
pub const RADICES: [usize; 9] = [2, 3, 4, 5, 7, 8, 11, 13, 16];

/// One batch dimension of a leaf: how many transforms, and the distance between neighbours in the input
/// and the output, in complex elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchDim {
    pub count: usize,
    pub in_stride: usize,
    pub out_stride: usize,
}

/// Output element k of a transform with batch coordinates c is multiplied by w_modulus^e,
/// e = c[c_dim] * (sum_d base_muls[d] c[d] + k_mul k). A plain four-step column pass has c_dim 0, k_mul 1 and
/// no base; nested decompositions carry their outer twiddle down to the pass that writes the final index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostTwiddle {
    pub modulus: usize,
    pub c_dim: usize,
    pub k_mul: usize,
    pub base_muls: Vec<usize>,
}

/// Everything that specialises one Stockham kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockhamKernel {
    pub precision: Precision,
    pub n: usize,
    /// Radix of each pass, first pass first; their product is `n`.
    pub radices: Vec<usize>,
    /// Transforms carried side by side in the lanes of one work-item (VW).
    pub lanes: usize,
    /// Work-items cooperating on one slot of `lanes` transforms (P).
    pub items_per_slot: usize,
    /// Slots per work-group (T).
    pub slots_per_group: usize,
    /// One local padding vector every 2^pad_shift vectors, against cache-set conflicts.
    pub pad_shift: Option<u32>,
    pub in_stride: usize,
    pub out_stride: usize,
    /// Batch dimensions, innermost first: dimension 0 maps to neighbouring lanes.
    pub batch: Vec<BatchDim>,
    pub in_planar: bool,
    pub out_planar: bool,
    /// Four-step twiddle applied to each output element.
    pub post_twiddle: Option<PostTwiddle>,
    /// Offsets may exceed 2^32 elements.
    pub wide_index: bool,
}

const MODE_GATHER: u8 = 0;
const MODE_ROWS: u8 = 1;
const MODE_COLS: u8 = 2;
const NO_PAD: u32 = 30;

impl StockhamKernel {
    pub fn transforms(&self) -> usize {
        self.batch.iter().map(|d| d.count).product()
    }

    /// Global and local work sizes: x spans the work-items of a slot, y the slots.
    pub fn work_size(&self) -> ([usize; 2], [usize; 2]) {
        let slots = self.transforms().div_ceil(self.lanes);
        let t = self.slots_per_group;
        ([self.items_per_slot, slots.div_ceil(t) * t], [self.items_per_slot, t])
    }

    /// Local memory for a transform of `n` points: two ping-pong buffers of padded vectors.
    pub fn local_bytes(n: usize, lanes: usize, slots: usize, pad_shift: Option<u32>, precision: Precision) -> usize {
        let padded = n + (n >> pad_shift.unwrap_or(NO_PAD)) + 1;
        2 * slots * padded * lanes * precision.complex_bytes()
    }

    fn mode(&self, stride: usize, batch0_stride: Option<usize>) -> u8 {
        if self.lanes > 1 && stride == 1 {
            MODE_ROWS
        } else if self.lanes > 1 && batch0_stride == Some(1) {
            MODE_COLS
        } else {
            MODE_GATHER
        }
    }

    pub fn source(&self) -> KernelSource {
        let mut d = Defines::default();
        if self.precision == Precision::Double {
            d.set("FFTX_DOUBLE", 1);
        }
        d.set("VW", self.lanes)
            .set("IDX", if self.wide_index { "ulong" } else { "uint" })
            .set("N", self.n)
            .set("NPASS", self.radices.len())
            .set("P", self.items_per_slot)
            .set("T", self.slots_per_group)
            .set("LPAD", self.pad_shift.unwrap_or(NO_PAD))
            .set("BATCH", format!("{}u", self.transforms()))
            .set("NBATCH", self.batch.len())
            .set("IN_STRIDE", format!("{}u", self.in_stride))
            .set("OUT_STRIDE", format!("{}u", self.out_stride))
            .flag("IN_PLANAR", self.in_planar)
            .flag("OUT_PLANAR", self.out_planar)
            .set(
                "IN_MODE",
                self.mode(self.in_stride, self.batch.first().map(|b| b.in_stride)),
            )
            .set(
                "OUT_MODE",
                self.mode(self.out_stride, self.batch.first().map(|b| b.out_stride)),
            );
        let offsets = stockham_offsets(&self.radices);
        let mut span = 1;
        for (q, (&radix, &offset)) in self.radices.iter().zip(&offsets).enumerate() {
            span *= radix;
            d.set(&format!("PR{}", q + 1), radix)
                .set(&format!("PL{}", q + 1), span)
                .set(&format!("PO{}", q + 1), offset);
        }
        for (i, dim) in self.batch.iter().enumerate() {
            d.set(&format!("BC{i}"), format!("{}u", dim.count))
                .set(&format!("IS{i}"), format!("{}u", dim.in_stride))
                .set(&format!("OS{i}"), format!("{}u", dim.out_stride));
        }
        match &self.post_twiddle {
            Some(pt) => {
                let (lo, _) = two_level_table_shape(pt.modulus);
                let muls: Vec<String> = (0..self.batch.len())
                    .map(|d| format!("{}ul", pt.base_muls.get(d).copied().unwrap_or(0) % pt.modulus))
                    .collect();
                d.flag("POST_TW", true)
                    .set("PT_N", format!("{}ul", pt.modulus))
                    .set("PT_LO", format!("{lo}u"))
                    .set("PT_OFF", stockham_table_len(&self.radices))
                    .set("PT_C", pt.c_dim)
                    .set("PT_KMUL", format!("{}ul", pt.k_mul % pt.modulus))
                    .set("PT_MS", muls.join(", "));
            }
            None => {
                d.flag("POST_TW", false);
            }
        }
        KernelSource {
            entry: "fftx_stockham",
            source: d.program(&[COMMON_CL, LANES_CL, BUTTERFLIES_CL, STOCKHAM_CL]),
            options: String::new(),
        }
    }

    /// The table the kernel reads: pass twiddles, then the four-step table if any.
    pub fn twiddles(&self) -> Vec<(f64, f64)> {
        let mut table = stockham_table(&self.radices);
        if let Some(pt) = &self.post_twiddle {
            table.extend(two_level_table(pt.modulus).1);
        }
        table
    }
}

fn stockham_table_len(radices: &[usize]) -> usize {
    let mut span = 1;
    radices
        .iter()
        .map(|&r| {
            span *= r;
            (r - 1) * (span / r)
        })
        .sum()
}

fn two_level_table_shape(total: usize) -> (usize, usize) {
    let lo = (total as f64).sqrt().ceil() as usize;
    (lo, total.div_ceil(lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(n: usize, radices: Vec<usize>) -> StockhamKernel {
        StockhamKernel {
            precision: Precision::Single,
            n,
            radices,
            lanes: 8,
            items_per_slot: 1,
            slots_per_group: 1,
            pad_shift: None,
            in_stride: 1,
            out_stride: 1,
            batch: vec![BatchDim {
                count: 10,
                in_stride: n,
                out_stride: n,
            }],
            in_planar: false,
            out_planar: false,
            post_twiddle: Some(PostTwiddle {
                modulus: 4 * n,
                c_dim: 0,
                k_mul: 1,
                base_muls: vec![],
            }),
            wide_index: false,
        }
    }

    #[test]
    fn table_layout_matches_the_defines() {
        let k = kernel(64, vec![16, 4]);
        let table = k.twiddles();
        assert_eq!(stockham_table_len(&k.radices), 3 * 16);
        let (lo, hi) = two_level_table_shape(256);
        assert_eq!(table.len(), 48 + lo + hi);
        assert!(k.source().source.contains("#define PT_OFF 48"));
    }

    #[test]
    fn work_size_rounds_slots_up() {
        let mut k = kernel(64, vec![16, 4]);
        k.slots_per_group = 4;
        assert_eq!(k.work_size(), ([1, 4], [1, 4]));
    }
}
