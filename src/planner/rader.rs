//! Rader's algorithm for a prime n whose n - 1 is smooth: the n - 1 non-zero inputs, permuted by powers of a
//! generator g, make a cyclic convolution of length n - 1 (`codegen::rader` has the maths). It runs in
//! scratch laid out per transform (stride n + 1: the convolution, then x_0 and A_0) as a gather pass, an
//! (n - 1)-point FFT, a pointwise product with the precomputed spectrum, a second FFT and a scatter pass.
//! Every FFT is a forward one, as in Bluestein's. Used where it beats Bluestein: when Bluestein's
//! convolution, at least 2n - 1 long, no longer fits one kernel (then both take five passes, and Rader's
//! are half as long).

use super::{Axis, Ctx, Job, LogicalDim, Node};
use crate::codegen::elementwise::ElementwiseOp;
use crate::codegen::rader;
use crate::codegen::Precision;
use crate::error::Result;
use crate::planner::{factor, leaf};

/// True when Rader should run `job` (n prime, n - 1 smooth, Bluestein's convolution too long to fuse).
pub(super) fn suits(ctx: &Ctx, job: &Job) -> bool {
    let n = job.fft.count;
    // The permutation tables hold positions as REALs: exact below 2^24 in single precision.
    let exact = if ctx.problem.precision == Precision::Single { 1 << 24 } else { 1 << 31 };
    leaf::rader_allowed()
        && job.post_twiddle.is_none()
        && n < exact
        && rader::is_prime(n)
        && factor::is_smooth(n - 1)
        && !leaf::fits_in_one_kernel(factor::bluestein_length(n), ctx.device, ctx.problem.precision)
}

pub(super) fn plan(ctx: &mut Ctx, job: Job) -> Result<Node> {
    let n = job.fft.count;
    let root = rader::primitive_root(n);
    let stride = n + 1;
    let transforms: usize = job.batch.iter().map(|d| d.count).product();
    ctx.need_region(stride * transforms);
    let scratch = ctx.free_tmp(&[job.src, job.dst]);

    // Scratch holds transform t at t * (n + 1): the job's batch dimensions become raw strides.
    let mut raw = Vec::with_capacity(job.batch.len());
    let mut step = stride;
    for d in &job.batch {
        raw.push(LogicalDim::along(Axis::Raw, d.count, step, step));
        step *= d.count;
    }
    let raw_of = |count| LogicalDim::along(Axis::Raw, count, 1, 1);
    let in_scratch = |count| Job::complex(raw_of(count), raw.clone(), scratch, scratch);
    let gather = Job {
        in_side: job.in_side,
        ..Job::complex(
            LogicalDim { out_axis: Axis::Raw, out_mul: 1, ..job.fft },
            job.batch
                .iter()
                .zip(&raw)
                .map(|(d, r)| LogicalDim { out_axis: Axis::Raw, out_mul: r.out_mul, ..*d })
                .collect(),
            job.src,
            scratch,
        )
    };
    let scatter = Job {
        out_side: job.out_side,
        ..Job::complex(
            LogicalDim { in_axis: Axis::Raw, in_mul: 1, ..job.fft },
            job.batch
                .iter()
                .zip(&raw)
                .map(|(d, r)| LogicalDim { in_axis: Axis::Raw, in_mul: r.in_mul, ..*d })
                .collect(),
            scratch,
            job.dst,
        )
    };
    let children = vec![
        ctx.elementwise(ElementwiseOp::RaderGather { root }, gather)?,
        ctx.plan_job(in_scratch(n - 1))?,
        ctx.elementwise(ElementwiseOp::RaderProduct { root }, in_scratch(n))?,
        ctx.plan_job(in_scratch(n - 1))?,
        ctx.elementwise(
            ElementwiseOp::RaderScatter { root_inv: rader::inverse(root, n), count: job.out_count },
            scatter,
        )?,
    ];
    Ok(Node::Rader { n, root, children })
}
