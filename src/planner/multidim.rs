//! Multi-dimensional transforms as 1D jobs along each axis: the first reads the input and writes the
//! output, the others work in place on the output. Each leaf reads and writes the same positions of its
//! transforms, so in-place axis passes are safe.

use super::{Axis, BufRef, Ctx, Job, LogicalDim, Node};
use crate::error::Result;

pub(super) fn plan(ctx: &mut Ctx) -> Result<Node> {
    let problem = ctx.problem;
    let dims = problem.lengths.len();
    let mut children = Vec::with_capacity(dims);
    for axis in 0..dims {
        let src = if axis == 0 { BufRef::Input } else { BufRef::Output };
        let src_layout = problem.layout(src);
        let mut batch: Vec<LogicalDim> = (0..dims)
            .filter(|&b| b != axis)
            .map(|b| LogicalDim {
                count: problem.lengths[b],
                axis: Axis::Dim(b),
                in_mul: 1,
                out_mul: 1,
            })
            .chain([LogicalDim {
                count: problem.batch,
                axis: Axis::Batch,
                in_mul: 1,
                out_mul: 1,
            }])
            .filter(|d| d.count > 1)
            .collect();
        // The innermost batch dimension becomes the lane dimension: prefer the one closest in memory.
        batch.sort_by_key(|d| src_layout.stride(d.axis));
        let job = Job {
            fft: LogicalDim {
                count: problem.lengths[axis],
                axis: Axis::Dim(axis),
                in_mul: 1,
                out_mul: 1,
            },
            batch,
            post_twiddle: None,
            src,
            dst: BufRef::Output,
        };
        children.push(ctx.plan_job(job)?);
    }
    if dims == 1 {
        Ok(children.remove(0))
    } else {
        Ok(Node::MultiDim {
            lengths: problem.lengths.clone(),
            batch: problem.batch,
            children,
        })
    }
}
