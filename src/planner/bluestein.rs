//! Bluestein's algorithm (chirp-z) for lengths with a prime factor above 13.
//!
//! n points become a cyclic convolution of length m >= 2n - 1 (m smooth, see `factor::bluestein_length`),
//! run in scratch laid out per transform (element j of transform t at t * m + j): a chirp-in pass, an
//! m-point FFT, a pointwise product with the precomputed spectrum of the chirp, a second m-point FFT, and a
//! chirp-out pass (`codegen::bluestein` has the maths). Every step is a forward transform; the conjugations
//! that turn the second FFT into an inverse one ride on the elementwise steps. Those steps fuse into the two
//! FFTs as factors on load and on store: into their leaves when one kernel holds m points, otherwise into the
//! first and last passes of their four-steps, which also read only the n inputs and write only the outputs
//! asked for. When one kernel holds m points, the whole convolution runs in one leaf: the two FFTs with the
//! spectrum product between them in local memory, no scratch, one pass over memory.

use super::scratch::TransformScratch;
use super::{Ctx, Job, LogicalDim, Node};
use crate::codegen::bluestein::{Factor, IndexedFactor};
use crate::error::{fail, ErrorKind, Result};
use crate::planner::{factor, kernel_shape};

/// Two FFTs of m points: (chirp-in, FFT, conj(spectrum)) into scratch, then (FFT, conj, chirp) out of it; or
/// all of it in one leaf, which may also carry the job's four-step twiddle.
pub(super) fn plan(ctx: &mut Ctx, job: Job) -> Result<Node> {
    if job.load_factor.is_some() || job.store_factor.is_some() {
        return fail(ErrorKind::Bugcheck, "a Bluestein job carrying a factor");
    }
    let n = job.fft.count;
    let m = factor::bluestein_length(n);
    if fits_one_kernel(ctx, n) {
        let convolution = Job {
            fft: LogicalDim { count: m, ..job.fft },
            in_count: n,
            load_factor: Some(IndexedFactor::direct(Factor::Chirp { n, len: n })),
            mid_factor: Some(Factor::ChirpSpectrum { n, m }),
            store_factor: Some(IndexedFactor::direct(Factor::Chirp { n, len: job.out_count })),
            ..job
        };
        let child = ctx.leaf(convolution)?;
        return Ok(Node::Bluestein { n, m, children: vec![child] });
    }
    if job.post_twiddle.is_some() {
        return fail(ErrorKind::Bugcheck, "a Bluestein job through scratch carrying a twiddle");
    }
    let scratch = TransformScratch::new(ctx, &job, m);
    let first = Job {
        in_count: n,
        load_factor: Some(IndexedFactor::direct(Factor::Chirp { n, len: n })),
        store_factor: Some(IndexedFactor::direct(Factor::ChirpSpectrum { n, m })),
        ..scratch.fill(&job, m)
    };
    let second = Job {
        out_count: job.out_count,
        store_factor: Some(IndexedFactor::direct(Factor::Chirp { n, len: job.out_count })),
        ..scratch.drain(&job, m)
    };
    let children = vec![fft(ctx, first)?, fft(ctx, second)?];
    Ok(Node::Bluestein { n, m, children })
}

/// One leaf when a kernel holds m points, even past the length where plain transforms split.
fn fft(ctx: &mut Ctx, job: Job) -> Result<Node> {
    if kernel_shape::fits_in_one_kernel(job.fft.count, ctx.device, ctx.problem.precision) {
        ctx.leaf(job)
    } else {
        ctx.plan_job(job)
    }
}

/// True when one kernel holds the whole convolution of an n-point Bluestein transform.
pub(super) fn fits_one_kernel(ctx: &Ctx, n: usize) -> bool {
    kernel_shape::fits_bluestein_in_one_kernel(n, ctx.device, ctx.problem.precision)
}
