//! Bluestein's algorithm (chirp-z) for lengths with a prime factor above 13.
//!
//! n points become a cyclic convolution of length m >= 2n - 1 (m smooth, see `factor::bluestein_length`),
//! run in scratch laid out per transform (element j of transform t at t * m + j): a chirp-in pass, an
//! m-point FFT, a pointwise product with the precomputed spectrum of the chirp, a second m-point FFT, and a
//! chirp-out pass (`codegen::bluestein` has the maths). Every step is a forward transform; the conjugations
//! that turn the second FFT into an inverse one ride on the elementwise passes. When one kernel holds m
//! points, the elementwise passes fuse into the two FFT leaves (a factor on load and on store): two passes
//! over memory in all.

use super::{Axis, BufRef, Ctx, Job, LogicalDim, Node};
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
    let transforms: usize = job.batch.iter().map(|d| d.count).product();
    ctx.need_region(m * transforms);
    let scratch = ctx.free_tmp(&[job.src, job.dst]);

    // Scratch holds transform t at t * m: the job's batch dimensions become raw strides.
    let mut raw = Vec::with_capacity(job.batch.len());
    let mut stride = m;
    for d in &job.batch {
        raw.push(LogicalDim::along(Axis::Raw, d.count, stride, stride));
        stride *= d.count;
    }
    let raw_fft = LogicalDim::along(Axis::Raw, m, 1, 1);
    if leaf::fits_in_one_kernel(m, ctx.device, ctx.problem.precision) {
        return fused(ctx, job, m, scratch, raw_fft, &raw);
    }
    let in_scratch = |fft: LogicalDim| Job::complex(fft, raw.clone(), scratch, scratch);
    let chirp_in = Job {
        in_side: job.in_side,
        ..Job::complex(
            into_scratch(&job.fft, &raw_fft),
            job.batch.iter().zip(&raw).map(|(d, r)| into_scratch(d, r)).collect(),
            job.src,
            scratch,
        )
    };
    let chirp_out = Job {
        out_side: job.out_side,
        ..Job::complex(
            from_scratch(&job.fft, &raw_fft),
            job.batch.iter().zip(&raw).map(|(d, r)| from_scratch(d, r)).collect(),
            scratch,
            job.dst,
        )
    };
    let children = vec![
        ctx.elementwise(ElementwiseOp::ChirpIn { m }, chirp_in)?,
        ctx.plan_job(in_scratch(raw_fft))?,
        ctx.elementwise(ElementwiseOp::SpectrumProduct { m }, in_scratch(LogicalDim { count: n, ..raw_fft }))?,
        ctx.plan_job(in_scratch(raw_fft))?,
        ctx.elementwise(ElementwiseOp::ChirpOut { count: job.out_count }, chirp_out)?,
    ];
    Ok(Node::Bluestein { n, m, children })
}

/// `d` writing to scratch the way `r` does.
fn into_scratch(d: &LogicalDim, r: &LogicalDim) -> LogicalDim {
    LogicalDim { out_axis: Axis::Raw, out_mul: r.out_mul, ..*d }
}

/// `d` reading from scratch the way `r` does.
fn from_scratch(d: &LogicalDim, r: &LogicalDim) -> LogicalDim {
    LogicalDim { in_axis: Axis::Raw, in_mul: r.in_mul, ..*d }
}

/// Two leaves: (chirp-in, FFT, conj(spectrum)) into scratch, then (FFT, conj, chirp) out of it.
fn fused(ctx: &mut Ctx, job: Job, m: usize, scratch: BufRef, raw_fft: LogicalDim, raw: &[LogicalDim]) -> Result<Node> {
    let n = job.fft.count;
    let first = Job {
        in_side: job.in_side,
        in_count: n,
        load_factor: Some(Factor::Chirp { n, len: n }),
        store_factor: Some(Factor::ChirpSpectrum { n, m }),
        ..Job::complex(
            into_scratch(&LogicalDim { count: m, ..job.fft }, &raw_fft),
            job.batch.iter().zip(raw).map(|(d, r)| into_scratch(d, r)).collect(),
            job.src,
            scratch,
        )
    };
    let second = Job {
        out_side: job.out_side,
        out_count: job.out_count,
        store_factor: Some(Factor::Chirp { n, len: job.out_count }),
        ..Job::complex(
            from_scratch(&LogicalDim { count: m, ..job.fft }, &raw_fft),
            job.batch.iter().zip(raw).map(|(d, r)| from_scratch(d, r)).collect(),
            scratch,
            job.dst,
        )
    };
    let children = vec![ctx.leaf(first)?, ctx.leaf(second)?];
    Ok(Node::Bluestein { n, m, children })
}
