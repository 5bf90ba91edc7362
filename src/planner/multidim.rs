//! Multi-dimensional transforms as 1D jobs along each axis. Each leaf reads and writes the same positions
//! of its transforms, so axis passes after the first run in place.
//!
//! C2C and R2C start with axis 0 (for R2C the real axis, which turns real input into the Hermitian half)
//! and continue in place on the output. C2R runs the complex axes first, on scratch unless the plan is in
//! place (the caller's input stays intact), and ends with the real axis.

use super::{real, Axis, BufRef, Ctx, Job, LogicalDim, Node, TransformKind};
use crate::error::Result;

pub(super) fn plan(ctx: &mut Ctx) -> Result<Node> {
    let problem = ctx.problem;
    let dims = problem.lengths.len();
    let kind = problem.kind;
    let complex_axes: Vec<usize> = if kind == TransformKind::C2C { (0..dims).collect() } else { (1..dims).collect() };
    let mut children = Vec::with_capacity(dims);
    let mut current = BufRef::Input;
    if kind == TransformKind::R2C {
        children.push(real::r2c(ctx, batch_dims(ctx, 0, current), current, BufRef::Output)?);
        current = BufRef::Output;
    }
    for &axis in &complex_axes {
        // C2R keeps the Hermitian data in scratch (or in place) until the real axis writes the output.
        let dst = match (kind, current) {
            (TransformKind::C2R, BufRef::Input) if !problem.in_place => ctx.free_tmp(&[]),
            (TransformKind::C2R, _) => current,
            _ => BufRef::Output,
        };
        let n = problem.lengths[axis];
        let fft = LogicalDim::along(Axis::Dim(axis), n, 1, 1);
        children.push(ctx.plan_job(Job::complex(fft, batch_dims(ctx, axis, current), current, dst))?);
        current = dst;
    }
    if kind == TransformKind::C2R {
        children.push(real::c2r(ctx, batch_dims(ctx, 0, current), current, BufRef::Output)?);
    }
    if children.len() == 1 {
        Ok(children.remove(0))
    } else {
        Ok(Node::MultiDim { lengths: problem.lengths.clone(), batch: problem.batch, children })
    }
}

/// Every axis but `axis`, plus the batch, innermost first by stride in `src`. Axis 0 of complex data
/// holds the Hermitian half when the transform is real.
fn batch_dims(ctx: &Ctx, axis: usize, src: BufRef) -> Vec<LogicalDim> {
    let problem = ctx.problem;
    let lengths = if axis == 0 { problem.lengths.clone() } else { problem.complex_lengths() };
    let layout = problem.layout(src);
    let mut batch: Vec<LogicalDim> = (0..lengths.len())
        .filter(|&b| b != axis)
        .map(|b| LogicalDim::along(Axis::Dim(b), lengths[b], 1, 1))
        .chain([LogicalDim::along(Axis::Batch, problem.batch, 1, 1)])
        .filter(|d| d.count > 1)
        .collect();
    batch.sort_by_key(|d| layout.stride(d.in_axis));
    batch
}
