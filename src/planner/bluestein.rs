//! Bluestein's algorithm (chirp-z) for lengths with a prime factor above 13.
//!
//! n points become a cyclic convolution of length m >= 2n - 1 (m smooth, see `factor::bluestein_length`),
//! run in scratch laid out per transform (element j of transform t at t * m + j): a chirp-in pass, an
//! m-point FFT, a pointwise product with the precomputed spectrum of the chirp, a second m-point FFT, and a
//! chirp-out pass (`codegen::bluestein` has the maths). Every step is a forward transform; the conjugations
//! that turn the second FFT into an inverse one ride on the elementwise passes. When one kernel holds m
//! points, the elementwise passes fuse into the two FFT leaves (a factor on load and on store): two passes
//! over memory in all.

use super::scratch::TransformScratch;
use super::{Ctx, Job, Node};
use crate::codegen::bluestein::Factor;
use crate::codegen::elementwise::ElementwiseOp;
use crate::error::{fail, ErrorKind, Result};
use crate::planner::{factor, leaf};

pub(super) fn plan(ctx: &mut Ctx, job: Job) -> Result<Node> {
    if job.post_twiddle.is_some() {
        return fail(ErrorKind::Bugcheck, "a Bluestein job carrying a four-step twiddle");
    }
    let n = job.fft.count;
    let m = factor::bluestein_length(n);
    let scratch = TransformScratch::new(ctx, &job, m);
    if leaf::fits_in_one_kernel(m, ctx.device, ctx.problem.precision) {
        return fused(ctx, job, m, &scratch);
    }
    let children = vec![
        ctx.elementwise(ElementwiseOp::ChirpIn { m }, scratch.fill(&job, n))?,
        ctx.plan_job(scratch.inside(m))?,
        ctx.elementwise(ElementwiseOp::SpectrumProduct { m }, scratch.inside(n))?,
        ctx.plan_job(scratch.inside(m))?,
        ctx.elementwise(ElementwiseOp::ChirpOut { count: job.out_count }, scratch.drain(&job, n))?,
    ];
    Ok(Node::Bluestein { n, m, children })
}

/// Two leaves: (chirp-in, FFT, conj(spectrum)) into scratch, then (FFT, conj, chirp) out of it.
fn fused(ctx: &mut Ctx, job: Job, m: usize, scratch: &TransformScratch) -> Result<Node> {
    let n = job.fft.count;
    let first = Job {
        in_count: n,
        load_factor: Some(Factor::Chirp { n, len: n }),
        store_factor: Some(Factor::ChirpSpectrum { n, m }),
        ..scratch.fill(&job, m)
    };
    let second = Job {
        out_count: job.out_count,
        store_factor: Some(Factor::Chirp { n, len: job.out_count }),
        ..scratch.drain(&job, m)
    };
    let children = vec![ctx.leaf(first)?, ctx.leaf(second)?];
    Ok(Node::Bluestein { n, m, children })
}
