//! Four-step (Bailey): a job of length n = rows * columns as two passes over global memory.
//!
//! With n = n1 + rows * n2 on input and k = k2 + columns * k1 on output:
//! 1. for each n1, an FFT of length `columns` over n2, times w_n^(n1 k2), written to scratch at the
//!    input position n1 + rows * k2 (the lanes run along n1, so reads and writes are contiguous);
//! 2. for each k2, an FFT of length `rows` over n1 of the scratch row, written to k2 + columns * k1.
//!
//! Either pass may be split again. A twiddle the job itself must apply to its output is carried into
//! pass 2, re-expressed in pass 2's coordinates.

use super::{factor, leaf, Ctx, Job, LogicalDim, Node};
use crate::codegen::stockham::PostTwiddle;
use crate::error::{fail, ErrorKind, Result};

pub(super) fn plan(ctx: &mut Ctx, job: Job) -> Result<Node> {
    let n = job.fft.count;
    let max_rows = leaf::max_leaf(ctx.device, ctx.problem.precision);
    let Some((rows, columns)) = factor::four_step_split(n, max_rows) else {
        return fail(ErrorKind::NotImplemented, format!("length {n} cannot be split for a four-step"));
    };
    plan_split(ctx, job, rows, columns)
}

/// The four-step with a chosen split (`rows * columns == job.fft.count`).
pub(super) fn plan_split(ctx: &mut Ctx, job: Job, rows: usize, columns: usize) -> Result<Node> {
    let n = job.fft.count;
    let scratch = ctx.free_tmp(&[job.src, job.dst]);
    let f = job.fft;

    let mut col_batch = vec![LogicalDim { count: rows, ..f }];
    col_batch.extend(job.batch.iter().copied());
    let columns_fft = LogicalDim { count: columns, in_mul: f.in_mul * rows, out_mul: f.out_mul * rows, ..f };
    let columns_job = Job {
        post_twiddle: Some(PostTwiddle { modulus: n, c_dim: 0, k_mul: 1, base_muls: vec![] }),
        in_side: job.in_side,
        ..Job::complex(columns_fft, col_batch, job.src, scratch)
    };

    // Scratch is addressed like the destination, so pass 2 reads every dimension with output axes and
    // multipliers.
    let mut row_batch =
        vec![LogicalDim { count: columns, in_axis: f.out_axis, in_mul: f.out_mul * rows, out_mul: f.out_mul, ..f }];
    row_batch.extend(job.batch.iter().map(|d| LogicalDim { in_axis: d.out_axis, in_mul: d.out_mul, ..*d }));
    // Outer twiddle: e = c[C] (sum m_d c[d] + kmul k_job) with k_job = k2 + columns k1 and k2 the new
    // dimension 0, so every old dimension shifts up by one.
    let post_twiddle = job.post_twiddle.map(|pt| {
        let mut base_muls = vec![pt.k_mul % pt.modulus];
        base_muls.extend(pt.base_muls.iter().copied());
        PostTwiddle {
            modulus: pt.modulus,
            c_dim: pt.c_dim + 1,
            k_mul: (pt.k_mul % pt.modulus) * (columns % pt.modulus) % pt.modulus,
            base_muls,
        }
    });
    let rows_fft =
        LogicalDim { count: rows, in_axis: f.out_axis, in_mul: f.out_mul, out_mul: f.out_mul * columns, ..f };
    let rows_job = Job { post_twiddle, out_side: job.out_side, ..Job::complex(rows_fft, row_batch, scratch, job.dst) };

    let children = vec![ctx.plan_job(columns_job)?, ctx.plan_job(rows_job)?];
    Ok(Node::FourStep { n, rows, columns, children })
}
