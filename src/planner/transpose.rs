//! Transposes as plan steps: the exported transpose API's plans, and the in-place digit swap that ends a
//! four-step run without scratch (`fourstep.rs`).
//!
//! In place, a square is one kernel (tile pairs swapped). An N x kN or kN x N matrix is k in-place N x N
//! squares and one permutation of blocks of N contiguous values (docs/algorithms.md, "In-place transposes"):
//! - N x kN: square j holds columns jN..jN+N-1 (rows kN apart); once each is transposed, block c k + j of
//!   the buffer holds row jN + c of the result, so the blocks move as an N x k matrix is transposed;
//! - kN x N: square j is rows jN..jN+N-1 (contiguous); once each is transposed, block j N + c holds row
//!   c k + j of the result, so the blocks move as a k x N matrix is transposed.

use super::tuning::{Target, Tuning};
use super::{kernel_shape, needs_wide_index, Axis, BufRef, Ctx, ExecPlan, LogicalDim, Node, Side};
use crate::codegen::stockham::BatchDim;
use crate::codegen::transpose::{TransposeKernel, TransposeOp};
use crate::codegen::KernelSpec;
use crate::error::{fail, ErrorKind, Result};
use crate::types::Precision;

/// Lanes of a CPU-shaped transpose: rows of 8 values, one vector each.
const CPU_LANES: usize = 8;

/// `batch` packed `rows` x `cols` matrices of complex values, transposed as the exported API asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TransposeProblem {
    pub precision: Precision,
    pub rows: usize,
    pub cols: usize,
    pub batch: usize,
    pub planar: bool,
    pub in_place: bool,
    pub tuning: Tuning,
}

impl TransposeProblem {
    /// Bytes of each plane of the whole batch (the one buffer of interleaved data, either plane of planar
    /// data); fails on a zero size and on sizes whose product overflows.
    pub fn plane_bytes(&self) -> Result<usize> {
        let TransposeProblem { precision, rows, cols, batch, planar, .. } = *self;
        if rows == 0 || cols == 0 || batch == 0 {
            return fail(ErrorKind::InvalidArgValue, "rows, columns and batch must be at least 1");
        }
        let unit = if planar { precision.real_bytes() } else { precision.complex_bytes() };
        rows.checked_mul(cols)
            .and_then(|m| m.checked_mul(batch))
            .and_then(|e| e.checked_mul(unit))
            .filter(|&bytes| bytes <= isize::MAX as usize)
            .map_or_else(
                || {
                    fail(
                        ErrorKind::InvalidArgValue,
                        format!("{batch} matrices of {rows} x {cols} overflow the address space"),
                    )
                },
                Ok,
            )
    }
}

/// Fails with `NotImplemented` unless a `rows` x `cols` matrix transposes in place: a square, or one side a
/// multiple of the other (a vector included).
pub fn transposable_in_place(rows: usize, cols: usize) -> Result<()> {
    if rows % cols == 0 || cols % rows == 0 {
        return Ok(());
    }
    fail(
        ErrorKind::NotImplemented,
        format!("an in-place transpose needs a square or one side a multiple of the other, not {rows} x {cols}"),
    )
}

fn lanes(device: &Target) -> usize {
    if kernel_shape::is_cpu(device) {
        CPU_LANES
    } else {
        1
    }
}

/// The steps of a transpose for the exported API.
pub fn plan(problem: &TransposeProblem, device: &Target) -> Result<ExecPlan> {
    problem.plane_bytes()?;
    let TransposeProblem { precision, rows, cols, batch, planar, in_place, .. } = *problem;
    let matrix = rows * cols;
    let kernel = |op: TransposeOp, dims: &[(usize, usize)]| {
        let placed: Vec<BatchDim> = dims
            .iter()
            .chain([&(batch, matrix)])
            .filter(|&&(count, _)| count > 1)
            .map(|&(count, stride)| BatchDim { count, in_stride: stride, out_stride: stride })
            .collect();
        let mut k = TransposeKernel {
            precision,
            op,
            batch: placed,
            in_planar: planar,
            out_planar: planar,
            lanes: lanes(device),
            wide_index: false,
            callbacks: Default::default(),
        };
        k.wide_index = needs_wide_index([(k.reach_in(), 0), (k.reach_out(), 0)]);
        k
    };
    if in_place {
        transposable_in_place(rows, cols)?;
    }
    let steps: Vec<TransposeKernel> = if !in_place {
        vec![kernel(
            TransposeOp::Tiled {
                rows,
                cols,
                in_row_stride: cols,
                in_col_stride: 1,
                out_row_stride: rows,
                out_col_stride: 1,
            },
            &[],
        )]
    } else if rows == 1 || cols == 1 {
        // A vector's transpose has its values where they were.
        Vec::new()
    } else if rows == cols {
        vec![kernel(TransposeOp::Square { size: rows, row_stride: cols, col_stride: 1 }, &[])]
    } else if cols % rows == 0 {
        let (n, k) = (rows, cols / rows);
        vec![
            kernel(TransposeOp::Square { size: n, row_stride: cols, col_stride: 1 }, &[(k, n)]),
            kernel(TransposeOp::BlockCycles { rows: n, cols: k, block: n, block_stride: n, elem_stride: 1 }, &[]),
        ]
    } else {
        // rows % cols == 0: `transposable_in_place` admitted no other shape.
        let (n, k) = (cols, rows / cols);
        vec![
            kernel(TransposeOp::Square { size: n, row_stride: n, col_stride: 1 }, &[(k, n * n)]),
            kernel(TransposeOp::BlockCycles { rows: k, cols: n, block: n, block_stride: n, elem_stride: 1 }, &[]),
        ]
    };
    let (src, dst) = if in_place { (BufRef::Input, BufRef::Input) } else { (BufRef::Input, BufRef::Output) };
    let mut plan_steps = Vec::new();
    let mut children = Vec::new();
    for k in steps {
        children.push(Node::Leaf { step: plan_steps.len(), kind: "Transpose", summary: describe(&k, src, dst) });
        plan_steps.push(super::Step { kernel: KernelSpec::Transpose(k), src, dst });
    }
    let tree = Node::Transpose { rows, cols, batch, in_place, children };
    Ok(ExecPlan { tree, steps: plan_steps, tmp_regions: 0, region_elements: 0, chunks: super::chunks::Chunks::ONE })
}

/// The in-place swap of two digits of a job's output index: for every combination of the `batch` dimensions,
/// the values at positions i * row + j * col (i, j < `size`, both multipliers of `axis` in `buffer`) trade
/// places with those at j * row + i * col.
pub(super) fn swap_digits(
    ctx: &mut Ctx,
    buffer: BufRef,
    axis: Axis,
    size: usize,
    (row_mul, col_mul): (usize, usize),
    batch: &[LogicalDim],
) -> Node {
    let dims: Vec<(Axis, usize)> =
        [(axis, row_mul)].into_iter().chain(batch.iter().map(|d| (d.out_axis, d.out_mul))).collect();
    let resolved = ctx.resolve(buffer, Side::Complex, (axis, col_mul), &dims);
    let kernel = TransposeKernel {
        precision: ctx.problem.precision,
        op: TransposeOp::Square { size, row_stride: resolved.batch[0], col_stride: resolved.fft },
        batch: batch
            .iter()
            .zip(&resolved.batch[1..])
            .filter(|(d, _)| d.count > 1)
            .map(|(d, &stride)| BatchDim { count: d.count, in_stride: stride, out_stride: stride })
            .collect(),
        in_planar: resolved.planar,
        out_planar: resolved.planar,
        lanes: lanes(ctx.device),
        wide_index: false,
        callbacks: Default::default(),
    };
    let kernel =
        TransposeKernel { wide_index: ctx.wide((buffer, buffer), [kernel.reach_in(), kernel.reach_out()]), ..kernel };
    let summary = describe(&kernel, buffer, buffer);
    ctx.push(KernelSpec::Transpose(kernel), buffer, buffer, summary)
}

fn describe(k: &TransposeKernel, src: BufRef, dst: BufRef) -> String {
    let batch: Vec<String> = k.batch.iter().map(|d| format!("{}@{}/{}", d.count, d.in_stride, d.out_stride)).collect();
    let op = match &k.op {
        TransposeOp::Square { size, row_stride, col_stride } => {
            format!("square {size}x{size} strides {row_stride}/{col_stride}")
        }
        TransposeOp::Tiled { rows, cols, .. } => format!("tiled {rows}x{cols}"),
        TransposeOp::BlockCycles { rows, cols, block, .. } => {
            format!("cycles of a {rows}x{cols} block matrix, blocks of {block}")
        }
    };
    format!("{op} lanes={} batch [{}] {src:?}->{dst:?}", k.lanes, batch.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::test_device::{cpu, target};
    use crate::types::Precision;

    fn problem(rows: usize, cols: usize, in_place: bool) -> TransposeProblem {
        TransposeProblem {
            precision: Precision::Single,
            rows,
            cols,
            batch: 2,
            planar: false,
            in_place,
            tuning: Tuning::default(),
        }
    }

    fn ops(p: &TransposeProblem) -> Vec<TransposeOp> {
        plan(p, &target(&cpu()))
            .unwrap()
            .steps
            .into_iter()
            .map(|s| match s.kernel {
                KernelSpec::Transpose(k) => k.op,
                other => panic!("not a transpose: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn rectangles_are_squares_then_block_cycles() {
        assert_eq!(
            ops(&problem(4, 12, true)),
            vec![
                TransposeOp::Square { size: 4, row_stride: 12, col_stride: 1 },
                TransposeOp::BlockCycles { rows: 4, cols: 3, block: 4, block_stride: 4, elem_stride: 1 },
            ]
        );
        assert_eq!(
            ops(&problem(12, 4, true)),
            vec![
                TransposeOp::Square { size: 4, row_stride: 4, col_stride: 1 },
                TransposeOp::BlockCycles { rows: 3, cols: 4, block: 4, block_stride: 4, elem_stride: 1 },
            ]
        );
        assert_eq!(ops(&problem(5, 5, true)), vec![TransposeOp::Square { size: 5, row_stride: 5, col_stride: 1 }]);
        assert!(matches!(ops(&problem(6, 4, false))[..], [TransposeOp::Tiled { rows: 6, cols: 4, .. }]));
    }

    #[test]
    fn vectors_in_place_move_nothing() {
        assert_eq!(ops(&problem(1, 7, true)), vec![]);
        assert_eq!(ops(&problem(7, 1, true)), vec![]);
        assert_eq!(ops(&problem(1, 1, true)), vec![]);
    }

    #[test]
    fn zero_and_overflowing_sizes_are_refused() {
        for (rows, cols) in [(0, 4), (4, 0), (1 << 40, 1 << 40), (1 << 31, 1 << 31)] {
            let err = plan(&problem(rows, cols, true), &target(&cpu())).unwrap_err();
            assert_eq!(err.kind, ErrorKind::InvalidArgValue, "{rows} x {cols}");
        }
    }

    #[test]
    fn other_shapes_in_place_are_refused() {
        let err = plan(&problem(6, 4, true), &target(&cpu())).unwrap_err();
        assert_eq!(err.kind, ErrorKind::NotImplemented);
    }
}
