//! 2D and 3D transforms, axis by axis. The host data of each transform is n0 planes; a plane holds the
//! inner axes (all but the first), whole:
//! - plane pass: each slab of `rows` planes is copied to the device, transformed along the inner axes (the
//!   real axis among them for R2C and C2R) and copied back;
//! - column pass: each slab of `width` columns of the complex data (the n0 values at one place of every
//!   plane) is copied to the device as a rectangle, transformed down its columns and copied back.
//!
//! R2C runs the plane pass first, into the output, then the column pass there; C2R the column pass first,
//! into a host scratch (the input stays as it was) or in place, then the plane pass into the output. A plane
//! must fit the device.

use super::{host_scratch, largest_divisor_at_most, slab_settings, DeviceBudget, HostData, SlabBuffers, Streamed};
use crate::codegen::Precision;
use crate::error::{fail, ErrorKind, Result};
use crate::log::Topic;
use crate::plan::{Direction, Layout, Plan, Settings};
use crate::planner::{packed_strides, TransformKind};
use crate::runtime::transfer::{HostStream, Rect};
use crate::runtime::{Context, Queue};

/// Runs `job`, a 2D or 3D transform.
pub(super) fn run(context: &Context, queues: &[Queue; 2], budget: DeviceBudget, job: Streamed) -> Result<()> {
    let Streamed { n, batch, kind, precision, direction, scale, mut data } = job;
    let in_place = matches!(data, HostData::InPlace(_));
    let planes = Planes::of(&n, kind, precision, in_place);
    let (in_bytes, out_bytes) = (batch * n[0] * planes.in_bytes, batch * n[0] * planes.out_bytes);
    if data.input().len() < in_bytes || data.output().len() < out_bytes {
        return fail(ErrorKind::Bugcheck, "out-of-core host slices shorter than the transform");
    }
    let slabs = AxisSlabs::fit(context, &queues[0], budget, &n, batch, &planes)?;
    crate::log!(
        Topic::Plan,
        "out-of-core {n:?} x {batch}: slabs of {} planes, then of {} columns of {}",
        slabs.rows,
        slabs.width,
        n[0]
    );
    let mut streamer = AxisStreamer {
        buffers: SlabBuffers::new(context, &queues[0], slabs.first_bytes, slabs.second_bytes, slabs.tmp_bytes)?,
        slabs,
        planes,
        n0: n[0],
        batch,
    };
    match (kind, &mut data) {
        (TransformKind::C2R, HostData::Separate(input, output)) => {
            let mut scratch = host_scratch(in_bytes)?;
            streamer.columns(direction, 1.0, HostStream::new(&queues[..], input, &mut scratch))?;
            streamer.planes(direction, scale, HostStream::new(&queues[..], &scratch, output))?;
        }
        (TransformKind::C2R, HostData::InPlace(data)) => {
            streamer.columns(direction, 1.0, HostStream::in_place(&queues[..], data))?;
            streamer.planes(direction, scale, HostStream::in_place(&queues[..], data))?;
        }
        _ => {
            streamer.planes(direction, 1.0, data.stream(&queues[..]))?;
            streamer.columns(direction, scale, HostStream::in_place(&queues[..], data.output()))?;
        }
    }
    streamer.buffers.retire();
    Ok(())
}

/// A plane's layout on either side, and the settings of a batch of planes.
#[derive(Debug, Clone)]
struct Planes {
    kind: TransformKind,
    precision: Precision,
    /// The inner axes, fastest first.
    lengths: Vec<usize>,
    /// Values a row along the fastest axis: complex (or Hermitian) on the complex side, reals on the real one.
    complex_row: usize,
    real_row: usize,
    /// Bytes a plane on either side.
    in_bytes: usize,
    out_bytes: usize,
    /// Complex values a plane on the complex side: the columns of the column pass.
    complex_values: usize,
}

impl Planes {
    fn of(n: &[usize], kind: TransformKind, precision: Precision, in_place: bool) -> Planes {
        let lengths: Vec<usize> = n[1..].iter().rev().copied().collect();
        let last = lengths[0];
        let (complex_row, real_row) = match kind {
            TransformKind::C2C => (last, last),
            _ => (last / 2 + 1, if in_place { 2 * (last / 2 + 1) } else { last }),
        };
        let others: usize = lengths[1..].iter().product();
        let complex_values = complex_row * others;
        let complex_bytes = complex_values * precision.complex_bytes();
        let real_bytes = real_row * others * precision.real_bytes();
        let (in_bytes, out_bytes) = match kind {
            TransformKind::C2C => (complex_bytes, complex_bytes),
            TransformKind::R2C => (real_bytes, complex_bytes),
            TransformKind::C2R => (complex_bytes, real_bytes),
        };
        Planes { kind, precision, lengths, complex_row, real_row, in_bytes, out_bytes, complex_values }
    }

    /// `rows` planes, packed on either side, out of place on the device, unscaled.
    fn settings(&self, context: &Context, rows: usize) -> Settings {
        let mut settings = Settings::new(context.clone(), &self.lengths);
        let side = |row: usize| {
            let mut dims = self.lengths.clone();
            dims[0] = row;
            (packed_strides(&dims), dims.iter().product::<usize>())
        };
        let (complex, real) = (side(self.complex_row), side(self.real_row));
        let ((in_strides, in_dist), (out_strides, out_dist), layouts) = match self.kind {
            TransformKind::C2C => (complex.clone(), complex, (Layout::ComplexInterleaved, Layout::ComplexInterleaved)),
            TransformKind::R2C => (real, complex, (Layout::Real, Layout::HermitianInterleaved)),
            TransformKind::C2R => (complex, real, (Layout::HermitianInterleaved, Layout::Real)),
        };
        (settings.in_strides, settings.in_dist, settings.out_strides, settings.out_dist) =
            (in_strides, in_dist, out_strides, out_dist);
        (settings.in_layout, settings.out_layout) = layouts;
        settings.batch = rows;
        settings.precision = self.precision;
        settings.in_place = false;
        settings
    }
}

/// Slab sizes that fit the budget, the two baked slab plans and the buffers they need per queue.
struct AxisSlabs {
    /// Planes a plane slab (divides the batch's planes).
    rows: usize,
    /// Columns a column slab (divides a plane's complex values).
    width: usize,
    planes: Plan,
    columns: Plan,
    /// A plane slab's input or a column slab; a plane slab's output; either plan's scratch.
    first_bytes: usize,
    second_bytes: usize,
    tmp_bytes: usize,
}

impl AxisSlabs {
    /// Halves the slabs until two queues' buffers and scratch fit the budget.
    fn fit(
        context: &Context,
        queue: &Queue,
        budget: DeviceBudget,
        n: &[usize],
        batch: usize,
        planes: &Planes,
    ) -> Result<AxisSlabs> {
        let elem = planes.precision.complex_bytes();
        let plane = planes.in_bytes.max(planes.out_bytes);
        let mut bytes = budget.max_buffer.min(budget.total / 6);
        loop {
            if bytes < plane || bytes < n[0] * elem {
                return fail(
                    ErrorKind::OutOfResources,
                    format!(
                        "the device cannot hold one plane ({plane} bytes) or one column of {} values (budget {} \
                         bytes, {} per buffer)",
                        n[0], budget.total, budget.max_buffer
                    ),
                );
            }
            let rows = largest_divisor_at_most(batch * n[0], bytes / plane);
            let width = largest_divisor_at_most(planes.complex_values, bytes / (n[0] * elem));
            let mut plane_plan = Plan::new(planes.settings(context, rows));
            let mut columns = Plan::new(slab_settings(context, n[0], width, planes.precision, (width, 1), (width, 1)));
            columns.settings_mut().in_place = true;
            let tmp_bytes = plane_plan.bake(queue)?.tmp_bytes().max(columns.bake(queue)?.tmp_bytes());
            let first_bytes = (rows * planes.in_bytes).max(n[0] * width * elem);
            let second_bytes = rows * planes.out_bytes;
            let largest = first_bytes.max(second_bytes).max(tmp_bytes);
            if 2 * (first_bytes + second_bytes + tmp_bytes) <= budget.total && largest <= budget.max_buffer {
                return Ok(AxisSlabs {
                    rows,
                    width,
                    planes: plane_plan,
                    columns,
                    first_bytes,
                    second_bytes,
                    tmp_bytes,
                });
            }
            bytes /= 2;
        }
    }
}

/// The slabs' plans and device buffers.
struct AxisStreamer {
    slabs: AxisSlabs,
    planes: Planes,
    n0: usize,
    batch: usize,
    buffers: SlabBuffers,
}

impl AxisStreamer {
    /// The plane pass over every plane of the batch, from the stream's source to its target.
    fn planes(&mut self, direction: Direction, scale: f64, stream: HostStream) -> Result<()> {
        let AxisStreamer { slabs, planes, buffers, .. } = self;
        let (rows, all) = (slabs.rows, self.batch * self.n0);
        let plan = slabs.planes.baked_mut().expect("baked by AxisSlabs::fit");
        for (s, plane0) in (0..all).step_by(rows).enumerate() {
            let q = s % 2;
            let source = Rect::run(plane0 * planes.in_bytes, 0, rows * planes.in_bytes);
            let target = Rect::run(plane0 * planes.out_bytes, 0, rows * planes.out_bytes);
            let (first, second) = (&buffers.first[q], &buffers.second[q]);
            let loaded = stream.upload(q, first, source, &[])?;
            let queue = stream.queue(q);
            let transformed = plan.enqueue(
                direction,
                scale,
                queue,
                &[loaded.raw()],
                &[first.raw()],
                &[second.raw()],
                buffers.tmp(q),
            )?;
            stream.download(q, second, target, &[transformed.raw()])?;
        }
        stream.finish()
    }

    /// The column pass over the complex data of every transform of the batch, from the stream's source to
    /// the same places of its target.
    fn columns(&mut self, direction: Direction, scale: f64, stream: HostStream) -> Result<()> {
        let AxisStreamer { slabs, planes, buffers, .. } = self;
        let plan = slabs.columns.baked_mut().expect("baked by AxisSlabs::fit");
        let (width, values, elem) = (slabs.width, planes.complex_values, planes.precision.complex_bytes());
        let (n0, batch) = (self.n0, self.batch);
        let slab_starts = (0..batch).flat_map(|b| (0..values).step_by(width).map(move |c| b * n0 * values + c));
        for (s, start) in slab_starts.enumerate() {
            let q = s % 2;
            let rect = Rect::packed(start * elem, values * elem, width * elem, n0);
            let first = &buffers.first[q];
            let loaded = stream.upload(q, first, rect, &[])?;
            let transformed =
                plan.enqueue(direction, scale, stream.queue(q), &[loaded.raw()], &[first.raw()], &[], buffers.tmp(q))?;
            stream.download(q, first, rect, &[transformed.raw()])?;
        }
        stream.finish()
    }
}
