//! Rader's algorithm for a prime n whose n - 1 is smooth: the n - 1 non-zero inputs, permuted by powers of a
//! generator g, make a cyclic convolution of length n - 1 (`codegen::rader` has the maths). It runs in
//! scratch laid out per transform (stride n + 1: the convolution, then x_0 and A_0) as a gather pass, an
//! (n - 1)-point FFT, a pointwise product with the precomputed spectrum, a second FFT and a scatter pass.
//! Every FFT is a forward one, as in Bluestein's. Used where it beats Bluestein: when Bluestein's
//! convolution, at least 2n - 1 long, no longer fits one kernel (then both take five passes, and Rader's
//! are half as long).

use super::scratch::TransformScratch;
use super::{Ctx, Job, Node};
use crate::codegen::elementwise::ElementwiseOp;
use crate::codegen::rader;
use crate::error::Result;
use crate::planner::{factor, kernel_shape};
use crate::types::Precision;

/// True when Rader should run `job` (n prime, n - 1 smooth, Bluestein's convolution too long to fuse).
pub(super) fn suits(ctx: &Ctx, job: &Job) -> bool {
    let n = job.fft.count;
    // The permutation tables hold positions as REALs: exact below 2^24 in single precision.
    let exact = if ctx.problem.precision == Precision::Single { 1 << 24 } else { 1 << 31 };
    !ctx.device.tuning.no_rader
        && job.post_twiddle.is_none()
        && n < exact
        && rader::is_prime(n)
        && factor::is_smooth(n - 1)
        && !kernel_shape::fits_in_one_kernel(factor::bluestein_length(n), ctx.device, ctx.problem.precision)
}

pub(super) fn plan(ctx: &mut Ctx, job: Job) -> Result<Node> {
    let n = job.fft.count;
    let root = rader::primitive_root(n);
    // Per transform: the n - 1 points of the convolution, then x_0 and A_0.
    let scratch = TransformScratch::new(ctx, &job, n + 1);
    let children = vec![
        ctx.elementwise(ElementwiseOp::RaderGather { root }, scratch.fill(&job, n))?,
        ctx.plan_job(scratch.inside(n - 1))?,
        ctx.elementwise(ElementwiseOp::RaderProduct { root }, scratch.inside(n))?,
        ctx.plan_job(scratch.inside(n - 1))?,
        ctx.elementwise(ElementwiseOp::RaderScatter { root, count: job.out_count }, scratch.drain(&job, n))?,
    ];
    Ok(Node::Rader { n, root, children })
}
