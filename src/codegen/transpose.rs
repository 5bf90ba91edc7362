//! Transpose kernels (`kernels/transpose*.cl`): in-place squares, out-of-place tiles, and in-place cycles of
//! blocks. Shapes and strides are runtime `params`; only the precision, the layouts, the lane count and
//! whether rows are contiguous are compiled in, so one program serves every size.

use super::callback::FusedCallbacks;
use super::stockham::{kind_code, layout_params, BatchDim, ElementKind};
use super::{Defines, KernelSource, Reach, ACCESS_CL, COMMON_CL, LANES_CL, LAYOUT_CL};
use crate::types::Precision;

const TRANSPOSE_CL: &str = include_str!("../../kernels/transpose.cl");
const SQUARE_CL: &str = include_str!("../../kernels/transpose_square.cl");
const TILED_CL: &str = include_str!("../../kernels/transpose_tiled.cl");
const CYCLES_CL: &str = include_str!("../../kernels/transpose_cycles.cl");

/// Side of the tiles GPU-shaped transposes move through local memory.
pub const TILE: usize = 16;
/// Work-items per work-group of a GPU-shaped cycle walk, each carrying one element of the block.
const CYCLE_GROUP: usize = 64;

/// What a transpose kernel does. Strides are in complex elements (reals per plane for planar data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransposeOp {
    /// In place: element (i, j) of every `size` x `size` square, at i * row_stride + j * col_stride, trades
    /// places with element (j, i).
    Square { size: usize, row_stride: usize, col_stride: usize },
    /// Out of place: output (j, i), at j * out_row_stride + i * out_col_stride, gets input (i, j), at
    /// i * in_row_stride + j * in_col_stride, for every `rows` x `cols` input matrix.
    Tiled {
        rows: usize,
        cols: usize,
        in_row_stride: usize,
        in_col_stride: usize,
        out_row_stride: usize,
        out_col_stride: usize,
    },
    /// In place: transposes a `rows` x `cols` matrix of blocks, each of `block` elements `elem_stride` apart,
    /// block b starting at b * block_stride, by moving whole blocks along the cycles of that permutation.
    BlockCycles { rows: usize, cols: usize, block: usize, block_stride: usize, elem_stride: usize },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransposeKernel {
    pub precision: Precision,
    pub op: TransposeOp,
    /// Where the matrices are: input and output strides of each batch dimension.
    pub batch: Vec<BatchDim>,
    pub in_planar: bool,
    pub out_planar: bool,
    /// Values per row of a register block: > 1 is the CPU shape (explicit SIMD, no local memory), 1 the GPU
    /// shape (TILE x TILE work-groups through local memory).
    pub lanes: usize,
    /// Offsets may exceed 2^32 elements.
    pub wide_index: bool,
    /// A user's callbacks run in this kernel's loads and stores (access.cl).
    pub callbacks: FusedCallbacks,
}

impl TransposeKernel {
    pub fn matrices(&self) -> usize {
        self.batch.iter().map(|d| d.count).product()
    }

    fn block(&self) -> usize {
        if self.lanes > 1 {
            self.lanes
        } else {
            TILE
        }
    }

    /// Element strides along a matrix row on the input and the output side.
    fn row_element_strides(&self) -> (usize, usize) {
        match self.op {
            TransposeOp::Square { col_stride, .. } => (col_stride, col_stride),
            TransposeOp::Tiled { in_col_stride, out_col_stride, .. } => (in_col_stride, out_col_stride),
            TransposeOp::BlockCycles { elem_stride, .. } => (elem_stride, elem_stride),
        }
    }

    /// The last position (from each matrix's base) the kernel touches on the input and the output side.
    fn last_positions(&self) -> (usize, usize) {
        match self.op {
            TransposeOp::Square { size, row_stride, col_stride } => {
                let last = (size - 1) * (row_stride + col_stride);
                (last, last)
            }
            TransposeOp::Tiled { rows, cols, in_row_stride, in_col_stride, out_row_stride, out_col_stride } => (
                (rows - 1) * in_row_stride + (cols - 1) * in_col_stride,
                (cols - 1) * out_row_stride + (rows - 1) * out_col_stride,
            ),
            TransposeOp::BlockCycles { rows, cols, block, block_stride, elem_stride } => {
                let last = (rows * cols - 1) * block_stride + (block - 1) * elem_stride;
                (last, last)
            }
        }
    }

    pub fn reach_in(&self) -> Reach {
        let last = self.last_positions().0 + self.batch.iter().map(|d| (d.count - 1) * d.in_stride).sum::<usize>();
        Reach { positions: last + 1, kind: ElementKind::Complex, planar: self.in_planar }
    }

    pub fn reach_out(&self) -> Reach {
        let last = self.last_positions().1 + self.batch.iter().map(|d| (d.count - 1) * d.out_stride).sum::<usize>();
        Reach { positions: last + 1, kind: ElementKind::Complex, planar: self.out_planar }
    }

    /// Global and local work sizes (see each kernel's header).
    pub fn work_size(&self) -> ([usize; 2], [usize; 2]) {
        let b = self.block();
        let matrices = self.matrices();
        let cpu = self.lanes > 1;
        match self.op {
            TransposeOp::Square { size, .. } => {
                let blocks = size.div_ceil(b);
                let pairs = blocks * (blocks + 1) / 2;
                if cpu {
                    ([pairs, matrices], [1, 1])
                } else {
                    ([pairs * TILE, matrices * TILE], [TILE, TILE])
                }
            }
            TransposeOp::Tiled { rows, cols, .. } => {
                let (row_blocks, col_blocks) = (rows.div_ceil(b), cols.div_ceil(b));
                if cpu {
                    ([col_blocks, row_blocks * matrices], [1, 1])
                } else {
                    ([col_blocks * TILE, row_blocks * matrices * TILE], [TILE, TILE])
                }
            }
            TransposeOp::BlockCycles { rows, cols, block, .. } => {
                let cycles = block_cycles(rows, cols).0.len() - 1;
                let group = if cpu { 1 } else { CYCLE_GROUP };
                let slices = block.div_ceil(self.lanes);
                ([slices.div_ceil(group) * group, cycles * matrices], [group, 1])
            }
        }
    }

    pub fn source(&self) -> KernelSource {
        let mut d = Defines::default();
        if self.precision == Precision::Double {
            d.set("FFTX_DOUBLE", 1);
        }
        let (in_es, out_es) = self.row_element_strides();
        let mode = |stride: usize| if self.lanes > 1 && stride == 1 { "MODE_ROWS" } else { "MODE_GATHER" };
        let kind = kind_code(ElementKind::Complex);
        d.set("VW", self.lanes)
            .set("IDX", if self.wide_index { "ulong" } else { "uint" })
            .set("TILE", TILE)
            .set("GROUP_X", if self.lanes > 1 { 1 } else { CYCLE_GROUP })
            .set("NBATCH", self.batch.len())
            .flag("IN_PLANAR", self.in_planar)
            .flag("OUT_PLANAR", self.out_planar)
            .set("IN_KIND", kind)
            .set("OUT_KIND", kind)
            .set("IN_MODE", mode(in_es))
            .set("OUT_MODE", mode(out_es));
        let (entry, kernel) = match self.op {
            TransposeOp::Square { .. } => ("fftx_transpose_square", SQUARE_CL),
            TransposeOp::Tiled { .. } => ("fftx_transpose_tiled", TILED_CL),
            TransposeOp::BlockCycles { .. } => ("fftx_transpose_cycles", CYCLES_CL),
        };
        self.callbacks.define(&mut d);
        let program = d.program(&[COMMON_CL, LANES_CL, ACCESS_CL, LAYOUT_CL, TRANSPOSE_CL, kernel]);
        self.callbacks.ahead_of(entry, program, self.precision)
    }

    /// The layout.cl header, then the kernel's own entries (`TP(i)` in the kernels).
    pub fn params(&self) -> Vec<u64> {
        let (in_es, out_es) = self.row_element_strides();
        let mut p = layout_params(in_es, out_es, ElementKind::Complex, ElementKind::Complex, &self.batch, None);
        match self.op {
            TransposeOp::Square { size, row_stride, .. } => p.extend([size as u64, row_stride as u64]),
            TransposeOp::Tiled { rows, cols, in_row_stride, out_row_stride, .. } => {
                p.extend([rows as u64, cols as u64, in_row_stride as u64, out_row_stride as u64])
            }
            TransposeOp::BlockCycles { rows, cols, block, block_stride, .. } => {
                let (starts, members) = block_cycles(rows, cols);
                p.extend([block as u64, block_stride as u64, (starts.len() - 1) as u64]);
                p.extend(starts);
                p.extend(members);
            }
        }
        p
    }

    pub fn twiddles(&self) -> Vec<(f64, f64)> {
        Vec::new()
    }
}

/// The cycles of the permutation that transposes a `rows` x `cols` matrix (element r * cols + c moves to
/// c * rows + r): where each cycle starts in the member list (one more entry closes the last), and the
/// members, each followed by the place its data moves to. Elements that stay put are cycles of one.
pub fn block_cycles(rows: usize, cols: usize) -> (Vec<u64>, Vec<u64>) {
    let total = rows * cols;
    let mut seen = vec![false; total];
    let mut starts = Vec::new();
    let mut members = Vec::with_capacity(total);
    for first in 0..total {
        if seen[first] {
            continue;
        }
        starts.push(members.len() as u64);
        let mut x = first;
        while !seen[x] {
            seen[x] = true;
            members.push(x as u64);
            x = (x % cols) * rows + x / cols;
        }
    }
    starts.push(members.len() as u64);
    (starts, members)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Precision;

    /// Applies the cycles the way the kernel does: the data of each member moves to the next.
    fn apply(rows: usize, cols: usize, data: &[usize]) -> Vec<usize> {
        let (starts, members) = block_cycles(rows, cols);
        let mut out = data.to_vec();
        for c in 0..starts.len() - 1 {
            let cycle = &members[starts[c] as usize..starts[c + 1] as usize];
            for (q, &m) in cycle.iter().enumerate() {
                out[cycle[(q + 1) % cycle.len()] as usize] = data[m as usize];
            }
        }
        out
    }

    #[test]
    fn cycles_transpose_the_block_matrix() {
        for (rows, cols) in [(1, 1), (1, 7), (4, 8), (8, 4), (3, 5), (6, 6), (64, 10), (10, 64)] {
            let data: Vec<usize> = (0..rows * cols).collect();
            let moved = apply(rows, cols, &data);
            for r in 0..rows {
                for c in 0..cols {
                    assert_eq!(moved[c * rows + r], data[r * cols + c], "{rows}x{cols} ({r}, {c})");
                }
            }
            let (starts, members) = block_cycles(rows, cols);
            assert_eq!(members.len(), rows * cols);
            assert_eq!(*starts.last().unwrap() as usize, rows * cols);
        }
    }

    #[test]
    fn the_design_example_has_two_cycles_of_three() {
        // docs/algorithms.md: a 4 x 8 matrix as two 4 x 4 squares leaves blocks of 4 to permute as a 4 x 2 block
        // matrix, with cycles (1, 4, 2) and (3, 5, 6).
        let (starts, members) = block_cycles(4, 2);
        let cycles: Vec<&[u64]> = starts.windows(2).map(|w| &members[w[0] as usize..w[1] as usize]).collect();
        assert_eq!(cycles, vec![&[0][..], &[1, 4, 2], &[3, 5, 6], &[7]]);
    }

    #[test]
    fn work_sizes_cover_every_block() {
        let kernel = |op, lanes| TransposeKernel {
            precision: Precision::Single,
            op,
            batch: vec![BatchDim { count: 3, in_stride: 1000, out_stride: 1000 }],
            in_planar: false,
            out_planar: false,
            lanes,
            wide_index: false,
            callbacks: Default::default(),
        };
        let square = TransposeOp::Square { size: 17, row_stride: 17, col_stride: 1 };
        // 17 = 3 blocks of 8 (two pairs per row of blocks above the diagonal plus the diagonal: 6 pairs).
        assert_eq!(kernel(square.clone(), 8).work_size(), ([6, 3], [1, 1]));
        assert_eq!(kernel(square, 1).work_size(), ([3 * TILE, 3 * TILE], [TILE, TILE]));
        let tiled = TransposeOp::Tiled {
            rows: 5,
            cols: 20,
            in_row_stride: 20,
            in_col_stride: 1,
            out_row_stride: 5,
            out_col_stride: 1,
        };
        assert_eq!(kernel(tiled, 8).work_size(), ([3, 3], [1, 1]));
        let cycles = TransposeOp::BlockCycles { rows: 4, cols: 2, block: 100, block_stride: 100, elem_stride: 1 };
        assert_eq!(kernel(cycles.clone(), 8).work_size(), ([13, 12], [1, 1]));
        assert_eq!(kernel(cycles, 1).work_size(), ([128, 12], [CYCLE_GROUP, 1]));
    }
}
