//! Scratch laid out per transform (element j of transform t at t * stride + j), where Bluestein's and
//! Rader's convolutions run: the jobs that bring a job's input in, work inside, and take the result out.

use super::{Axis, BufRef, Ctx, Job, LogicalDim};

pub(super) struct TransformScratch {
    buffer: BufRef,
    /// The job's batch dimensions as raw strides of the scratch.
    batch: Vec<LogicalDim>,
}

impl TransformScratch {
    /// `stride` elements for every transform of `job`, in a region that is neither of its buffers.
    pub fn new(ctx: &mut Ctx, job: &Job, stride: usize) -> TransformScratch {
        ctx.need_region(stride * job.transforms());
        let buffer = ctx.free_tmp(&[job.src, job.dst]);
        let mut batch = Vec::with_capacity(job.batch.len());
        let mut step = stride;
        for d in &job.batch {
            batch.push(LogicalDim::along(Axis::Raw, d.count, step, step));
            step *= d.count;
        }
        TransformScratch { buffer, batch }
    }

    /// A complex job of `count` points from the scratch to itself.
    pub fn inside(&self, count: usize) -> Job {
        Job::complex(LogicalDim::along(Axis::Raw, count, 1, 1), self.batch.clone(), self.buffer, self.buffer)
    }

    /// `count` points of each transform of `job`, read from its source and written to the scratch.
    pub fn fill(&self, job: &Job, count: usize) -> Job {
        let into = |d: &LogicalDim, r: &LogicalDim| LogicalDim { out_axis: Axis::Raw, out_mul: r.out_mul, ..*d };
        let fft = into(&LogicalDim { count, ..job.fft }, &LogicalDim::along(Axis::Raw, count, 1, 1));
        let batch = job.batch.iter().zip(&self.batch).map(|(d, r)| into(d, r)).collect();
        Job { in_side: job.in_side, ..Job::complex(fft, batch, job.src, self.buffer) }
    }

    /// `count` points of each transform, read from the scratch and written to `job`'s destination.
    pub fn drain(&self, job: &Job, count: usize) -> Job {
        let from = |d: &LogicalDim, r: &LogicalDim| LogicalDim { in_axis: Axis::Raw, in_mul: r.in_mul, ..*d };
        let fft = from(&LogicalDim { count, ..job.fft }, &LogicalDim::along(Axis::Raw, count, 1, 1));
        let batch = job.batch.iter().zip(&self.batch).map(|(d, r)| from(d, r)).collect();
        Job { out_side: job.out_side, ..Job::complex(fft, batch, self.buffer, job.dst) }
    }
}
