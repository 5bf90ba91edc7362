//! 2D and 3D transforms, axis by axis. The host data of each transform is n0 planes; a plane holds the
//! inner axes (all but the first), whole:
//! - plane pass: each slab of `rows` planes is copied to the device, transformed along the inner axes (the
//!   real axis among them for R2C and C2R) and copied back. Planes larger than the device stream as a batch
//!   of transforms of their own, of one rank less;
//! - column pass: each slab of `width` columns of the complex data (the n0 values at one place of every
//!   plane) is copied to the device as a rectangle, transformed down its columns and copied back.
//!
//! R2C runs the plane pass first, into the output, then the column pass there; C2R the column pass first,
//! into a host scratch (the input stays as it was) or in place, then the plane pass into the output. Each
//! pass has the device's budget to itself. A column must fit the device.

use super::{
    column_slab_settings, column_too_large, host_scratch, largest_divisor_at_most, line, DeviceBudget, HostData,
    SlabBuffers, Streamed,
};
use crate::error::{fail, ErrorKind, Result};
use crate::log::Topic;
use crate::plan::{Baked, Direction, Layout, Settings};
use crate::planner::packed_strides;
use crate::runtime::transfer::{HostStream, Rect};
use crate::runtime::{Context, Queue};
use crate::types::{Precision, TransformKind};

/// Runs `job`, a 2D or 3D transform.
pub(super) fn run(context: &Context, queues: &[Queue; 2], budget: DeviceBudget, job: Streamed) -> Result<()> {
    let Streamed { n, batch, kind, precision, direction, scale, data } = job;
    let axes = Axes { context, queues, budget, n, batch, kind, precision, direction };
    axes.run(scale, AxesData::Host(data))
}

/// The data of a transform axis by axis: the caller's, or a C2R's host scratch, which it may overwrite.
enum AxesData<'a> {
    Host(HostData<'a>),
    Scratch(&'a mut [u8], &'a mut [u8]),
}

impl<'a> AxesData<'a> {
    fn input(&self) -> &[u8] {
        match self {
            AxesData::Host(data) => data.input(),
            AxesData::Scratch(input, _) => input,
        }
    }

    fn output(&mut self) -> &mut [u8] {
        match self {
            AxesData::Host(data) => data.output(),
            AxesData::Scratch(_, output) => output,
        }
    }

    fn reborrow(&mut self) -> AxesData<'_> {
        match self {
            AxesData::Host(data) => AxesData::Host(data.reborrow()),
            AxesData::Scratch(input, output) => AxesData::Scratch(input, output),
        }
    }

    /// As the caller's data: the scratch as an input kept.
    fn into_host(self) -> HostData<'a> {
        match self {
            AxesData::Host(data) => data,
            AxesData::Scratch(input, output) => HostData::Separate(input, output),
        }
    }
}

/// A 2D or 3D transform (or a batch of them) and where it runs.
struct Axes<'c> {
    context: &'c Context,
    queues: &'c [Queue; 2],
    budget: DeviceBudget,
    n: Vec<usize>,
    batch: usize,
    kind: TransformKind,
    precision: Precision,
    direction: Direction,
}

impl Axes<'_> {
    fn run(&self, scale: f64, mut data: AxesData) -> Result<()> {
        let queues = &self.queues[..];
        let in_place = matches!(data, AxesData::Host(HostData::InPlace(_)));
        let planes = Planes::of(&self.n, self.kind, self.precision, in_place);
        let transforms = self.batch * self.n[0];
        let (in_bytes, out_bytes) = (transforms * planes.in_bytes, transforms * planes.out_bytes);
        if data.input().len() < in_bytes || data.output().len() < out_bytes {
            return fail(ErrorKind::Bugcheck, "out-of-core host slices shorter than the transform");
        }
        // Baked first: a column too large for the device fails before either pass writes anything.
        let columns = ColumnSlabs::fit(self.context, &queues[0], self.budget, self.n[0], &planes)?;
        match (self.kind, data) {
            (TransformKind::C2R, AxesData::Host(HostData::Separate(input, output))) => {
                let mut scratch = host_scratch(in_bytes)?;
                self.columns(&planes, columns, 1.0, HostStream::new(queues, input, &mut scratch))?;
                self.planes(&planes, scale, AxesData::Scratch(&mut scratch, output))
            }
            (TransformKind::C2R, AxesData::Scratch(input, output)) => {
                self.columns(&planes, columns, 1.0, HostStream::in_place(queues, input))?;
                self.planes(&planes, scale, AxesData::Scratch(input, output))
            }
            (TransformKind::C2R, AxesData::Host(HostData::InPlace(data))) => {
                self.columns(&planes, columns, 1.0, HostStream::in_place(queues, data))?;
                self.planes(&planes, scale, AxesData::Host(HostData::InPlace(data)))
            }
            (_, mut data) => {
                self.planes(&planes, 1.0, data.reborrow())?;
                self.columns(&planes, columns, scale, HostStream::in_place(queues, data.output()))
            }
        }
    }

    /// The plane pass over every plane of the batch, from the data's input to its output.
    fn planes(&self, planes: &Planes, scale: f64, data: AxesData) -> Result<()> {
        let all = self.batch * self.n[0];
        let Some(mut slabs) = PlaneSlabs::fit(self.context, &self.queues[0], self.budget, all, planes)? else {
            return self.planes_on_their_own(scale, data);
        };
        crate::log!(Topic::Plan, "out-of-core {:?} x {}: slabs of {} planes", self.n, self.batch, slabs.rows);
        let buffers =
            SlabBuffers::new(self.context, &self.queues[0], slabs.first_bytes, slabs.second_bytes, slabs.tmp_bytes)?;
        let plan = &mut slabs.plan;
        let mut data = data.into_host();
        let stream = data.stream(&self.queues[..]);
        for (s, plane0) in (0..all).step_by(slabs.rows).enumerate() {
            let q = s % 2;
            let source = Rect::run(plane0 * planes.in_bytes, 0, slabs.rows * planes.in_bytes);
            let target = Rect::run(plane0 * planes.out_bytes, 0, slabs.rows * planes.out_bytes);
            let (first, second) = (&buffers.first[q], &buffers.second[q]);
            let loaded = stream.upload(q, first, source, &[])?;
            let queue = stream.queue(q);
            let transformed = plan.enqueue(
                self.direction,
                scale,
                queue,
                &[loaded.raw()],
                &[first.raw()],
                &[second.raw()],
                buffers.tmp(q),
            )?;
            stream.download(q, second, target, &[transformed.raw()])?;
        }
        stream.finish()?;
        buffers.retire();
        Ok(())
    }

    /// Planes larger than the device: a batch of transforms of their own, along the inner axes.
    fn planes_on_their_own(&self, scale: f64, data: AxesData) -> Result<()> {
        crate::log!(Topic::Plan, "out-of-core {:?} x {}: each plane streams on its own", self.n, self.batch);
        let (n, batch) = (self.n[1..].to_vec(), self.batch * self.n[0]);
        if n.len() > 1 {
            let inner = Axes { n, batch, ..*self };
            return inner.run(scale, data);
        }
        let (kind, precision, direction) = (self.kind, self.precision, self.direction);
        let job = Streamed { n, batch, kind, precision, direction, scale, data: data.into_host() };
        line::run(self.context, self.queues, self.budget, job)
    }

    /// The column pass over the complex data of every transform of the batch, from the stream's source to
    /// the same places of its target.
    fn columns(&self, planes: &Planes, mut slabs: ColumnSlabs, scale: f64, stream: HostStream) -> Result<()> {
        let (n0, batch, width) = (self.n[0], self.batch, slabs.width);
        crate::log!(Topic::Plan, "out-of-core {:?} x {batch}: slabs of {width} columns of {n0}", self.n);
        let buffers = SlabBuffers::new(self.context, &self.queues[0], slabs.bytes, 0, slabs.tmp_bytes)?;
        let plan = &mut slabs.plan;
        let (values, elem) = (planes.complex_values, planes.precision.complex_bytes());
        let slab_starts = (0..batch).flat_map(|b| (0..values).step_by(width).map(move |c| b * n0 * values + c));
        for (s, start) in slab_starts.enumerate() {
            let q = s % 2;
            let rect = Rect::packed(start * elem, values * elem, width * elem, n0);
            let first = &buffers.first[q];
            let loaded = stream.upload(q, first, rect, &[])?;
            let transformed = plan.enqueue(
                self.direction,
                scale,
                stream.queue(q),
                &[loaded.raw()],
                &[first.raw()],
                &[],
                buffers.tmp(q),
            )?;
            stream.download(q, first, rect, &[transformed.raw()])?;
        }
        stream.finish()?;
        buffers.retire();
        Ok(())
    }
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

/// Plane slabs that fit the budget, their baked plan and the buffers it needs per queue.
struct PlaneSlabs {
    /// Planes a slab (divides the batch's planes).
    rows: usize,
    plan: Baked,
    /// A slab's input, its output and the plan's scratch.
    first_bytes: usize,
    second_bytes: usize,
    tmp_bytes: usize,
}

impl PlaneSlabs {
    /// Halves the slabs until two queues' buffers and scratch fit the budget; `None` where not even one plane
    /// does.
    fn fit(
        context: &Context,
        queue: &Queue,
        budget: DeviceBudget,
        all: usize,
        planes: &Planes,
    ) -> Result<Option<PlaneSlabs>> {
        let plane = planes.in_bytes.max(planes.out_bytes);
        let mut bytes = budget.plane_bytes();
        while bytes >= plane {
            let rows = largest_divisor_at_most(all, bytes / plane);
            let plan = Baked::new(&planes.settings(context, rows), queue)?;
            let tmp_bytes = plan.tmp_bytes();
            let (first_bytes, second_bytes) = (rows * planes.in_bytes, rows * planes.out_bytes);
            let largest = first_bytes.max(second_bytes).max(tmp_bytes);
            if 2 * (first_bytes + second_bytes + tmp_bytes) <= budget.total && largest <= budget.max_buffer {
                return Ok(Some(PlaneSlabs { rows, plan, first_bytes, second_bytes, tmp_bytes }));
            }
            bytes /= 2;
        }
        Ok(None)
    }
}

/// Column slabs that fit the budget, their baked plan and the buffers it needs per queue.
struct ColumnSlabs {
    /// Columns a slab (divides a plane's complex values).
    width: usize,
    plan: Baked,
    /// A slab, transformed in place, and the plan's scratch.
    bytes: usize,
    tmp_bytes: usize,
}

impl ColumnSlabs {
    /// Halves the slabs until two queues' buffers and scratch fit the budget.
    fn fit(context: &Context, queue: &Queue, budget: DeviceBudget, n0: usize, planes: &Planes) -> Result<ColumnSlabs> {
        let column = n0 * planes.precision.complex_bytes();
        let mut bytes = budget.column_bytes();
        loop {
            if bytes < column {
                return column_too_large(n0, budget);
            }
            let width = largest_divisor_at_most(planes.complex_values, bytes / column);
            let plan = Baked::new(&column_slab_settings(context, n0, width, planes.precision), queue)?;
            let tmp_bytes = plan.tmp_bytes();
            let slab = width * column;
            if 2 * (slab + tmp_bytes) <= budget.total && slab.max(tmp_bytes) <= budget.max_buffer {
                return Ok(ColumnSlabs { width, plan, bytes: slab, tmp_bytes });
            }
            bytes /= 2;
        }
    }
}
