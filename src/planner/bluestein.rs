//! Bluestein's algorithm (chirp-z) for lengths with a prime factor above 13.
//!
//! n points become a cyclic convolution of length m >= 2n - 1 (m smooth, see `factor::bluestein_length`),
//! run in scratch laid out per transform (element j of transform t at t * m + j): a chirp-in pass, an
//! m-point FFT, a pointwise product with the precomputed spectrum of the chirp, a second m-point FFT, and a
//! chirp-out pass (`codegen::bluestein` has the maths). Every step is a forward transform; the conjugations
//! that turn the second FFT into an inverse one ride on the elementwise passes. When one kernel holds m
//! points, the elementwise passes fuse into the two FFT leaves (a factor on load and on store): two passes
//! over memory in all.

use super::{Axis, BufRef, Ctx, Job, LogicalDim, Node, Resolved, Side};
use crate::codegen::bluestein::{ChirpKernel, ChirpOp, Factor};
use crate::codegen::stockham::BatchDim;
use crate::codegen::KernelSpec;
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
    let scratch_side = ctx.resolve(scratch, Side::Complex, (Axis::Raw, 1), &raw_strides(&raw));
    let input = ctx.resolve(
        job.src,
        job.in_side,
        (job.fft.in_axis, job.fft.in_mul),
        &job.batch.iter().map(|d| (d.in_axis, d.in_mul)).collect::<Vec<_>>(),
    );
    let output = ctx.resolve(
        job.dst,
        job.out_side,
        (job.fft.out_axis, job.fft.out_mul),
        &job.batch.iter().map(|d| (d.out_axis, d.out_mul)).collect::<Vec<_>>(),
    );
    let counts: Vec<usize> = job.batch.iter().map(|d| d.count).collect();

    let mut children = Vec::with_capacity(5);
    let chirp_in = chirp(ctx, ChirpOp::In, n, m, job.out_count, &input, &scratch_side, &counts);
    children.push(push(ctx, chirp_in, job.src, scratch));
    children.push(ctx.plan_job(Job::complex(raw_fft, raw.clone(), scratch, scratch))?);
    let pointwise = chirp(ctx, ChirpOp::Pointwise, n, m, job.out_count, &scratch_side, &scratch_side, &counts);
    children.push(push(ctx, pointwise, scratch, scratch));
    children.push(ctx.plan_job(Job::complex(raw_fft, raw, scratch, scratch))?);
    let chirp_out = chirp(ctx, ChirpOp::Out, n, m, job.out_count, &scratch_side, &output, &counts);
    children.push(push(ctx, chirp_out, scratch, job.dst));
    Ok(Node::Bluestein { n, m, children })
}

/// Two leaves: (chirp-in, FFT, conj(spectrum)) into scratch, then (FFT, conj, chirp) out of it.
fn fused(ctx: &mut Ctx, job: Job, m: usize, scratch: BufRef, raw_fft: LogicalDim, raw: &[LogicalDim]) -> Result<Node> {
    let n = job.fft.count;
    let into_scratch = |d: &LogicalDim, r: &LogicalDim| LogicalDim { out_axis: Axis::Raw, out_mul: r.out_mul, ..*d };
    let from_scratch = |d: &LogicalDim, r: &LogicalDim| LogicalDim { in_axis: Axis::Raw, in_mul: r.in_mul, ..*d };
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

fn raw_strides(raw: &[LogicalDim]) -> Vec<(Axis, usize)> {
    raw.iter().map(|d| (Axis::Raw, d.in_mul)).collect()
}

#[allow(clippy::too_many_arguments)]
fn chirp(
    ctx: &Ctx,
    op: ChirpOp,
    n: usize,
    m: usize,
    out_count: usize,
    input: &Resolved,
    output: &Resolved,
    counts: &[usize],
) -> ChirpKernel {
    let batch: Vec<BatchDim> = counts
        .iter()
        .enumerate()
        .map(|(i, &count)| BatchDim { count, in_stride: input.batch[i], out_stride: output.batch[i] })
        .collect();
    ChirpKernel {
        precision: ctx.problem.precision,
        op,
        n,
        m,
        out_count,
        in_stride: input.fft,
        out_stride: output.fft,
        batch,
        in_kind: input.kind,
        out_kind: output.kind,
        in_planar: input.planar,
        out_planar: output.planar,
        wide_index: (m * counts.iter().product::<usize>()).max(ctx.region_elements) * 2 * (ctx.tmp_regions + 1)
            >= i32::MAX as usize,
    }
}

fn push(ctx: &mut Ctx, kernel: ChirpKernel, src: BufRef, dst: BufRef) -> Node {
    let summary =
        format!("{:?} n={} m={} transforms={} {src:?}->{dst:?}", kernel.op, kernel.n, kernel.m, kernel.transforms());
    ctx.push(KernelSpec::Chirp(kernel), src, dst, summary)
}
