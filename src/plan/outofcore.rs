//! Host-memory 1D complex transforms larger than the device: the four-step streamed through the device in
//! slabs (DESIGN.md, out-of-core).
//!
//! With n = n1 * n2, the host data is a matrix of n2 rows and n1 columns (element (r, c) at c + n1 r):
//! 1. column pass: each slab of `width` columns is copied to the device as a rectangle, transformed down its
//!    columns (length n2), multiplied by w_n^(c k2), and copied back to the same rectangle of a host scratch;
//! 2. row pass: each slab of `height` scratch rows is transformed along its rows (length n1), written on the
//!    device transposed, and copied to the output as the rectangle of columns k2 + n2 k1 it owns.
//!
//! Slabs alternate between two queues, each with buffers of its own, so one queue's copies overlap the
//! other's kernels. Rectangle copies do the gathering and scattering; the host packs nothing.

use super::{Direction, Plan, Settings};
use crate::codegen::slab_twiddle::SlabTwiddle;
use crate::codegen::Precision;
use crate::error::{fail, ErrorKind, Result};
use crate::log::Topic;
use crate::planner::factor;
use crate::runtime::cl::RawEvent;
use crate::runtime::transfer::{HostStream, Rect};
use crate::runtime::working::{self, WorkingBuffer};
use crate::runtime::{cache, device_info, Arg, Buffer, Context, Kernel, Queue};

/// How much device memory the slabs may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceBudget {
    /// The largest single buffer.
    pub max_buffer: usize,
    /// All buffers together.
    pub total: usize,
}

/// Host memory handed to an execution: one buffer transformed in place, or separate input and output.
pub enum HostData<'a> {
    InPlace(&'a mut [u8]),
    Separate(&'a [u8], &'a mut [u8]),
}

impl HostData<'_> {
    fn input(&self) -> &[u8] {
        match self {
            HostData::InPlace(data) => data,
            HostData::Separate(input, _) => input,
        }
    }

    fn output(&mut self) -> &mut [u8] {
        match self {
            HostData::InPlace(data) => data,
            HostData::Separate(_, output) => output,
        }
    }
}

/// One transform (or a batch of them, `n` complex values apart) of `n` points in host memory, interleaved
/// and packed.
pub struct Streamed<'a> {
    pub n: usize,
    pub batch: usize,
    pub precision: Precision,
    pub direction: Direction,
    pub scale: f64,
    pub data: HostData<'a>,
}

/// Splits `n` into n1 * n2 as close to sqrt(n) as possible, n2 >= n1 (n2 is the column length, which
/// the column pass holds whole on the device). `None` when `n` is prime.
pub fn split(n: usize) -> Option<(usize, usize)> {
    let root = (n as f64).sqrt() as usize;
    let n1 = factor::divisors(n).into_iter().filter(|&d| d > 1 && d <= root).max()?;
    Some((n1, n / n1))
}

/// The largest divisor of `n` no larger than `limit` (at least 1).
fn largest_divisor_at_most(n: usize, limit: usize) -> usize {
    factor::divisors(n).into_iter().filter(|&d| d <= limit).max().unwrap_or(1)
}

/// Runs `job` on the device of `queues` (two queues of one context), within `budget`.
pub fn run(context: &Context, queues: &[Queue; 2], budget: DeviceBudget, job: Streamed) -> Result<()> {
    let started = std::time::Instant::now();
    let Streamed { n, batch, precision, direction, scale, mut data } = job;
    let elem = precision.complex_bytes();
    if data.input().len() < n * batch * elem || data.output().len() < n * batch * elem {
        return fail(ErrorKind::Bugcheck, "out-of-core host slices shorter than the transform");
    }
    let Some((n1, n2)) = split(n) else {
        return fail(
            ErrorKind::NotImplemented,
            format!("length {n} is prime: it cannot stream through the device in slabs"),
        );
    };
    let device = device_info(queues[0].device()?)?;
    let slabs = Slabs::fit(context, &queues[0], budget, n1, n2, precision)?;
    crate::log!(
        Topic::Plan,
        "out-of-core {n} = {n1} x {n2}: column slabs of {} columns, row slabs of {} rows, {} bytes per buffer",
        slabs.width,
        slabs.height,
        slabs.buffer_bytes
    );
    let twiddle = SlabTwiddle { n, precision };
    let source = twiddle.source();
    let program = cache::program(context, &device, source.text())?;
    // The transform runs now: its kernel's disk-cache write must not compile alongside it.
    cache::wait_for_writes();
    let kernel = Kernel::create(&program, source.entry)?;
    let (low, high) = twiddle.tables();
    let low = upload_table(context, &low, precision)?;
    let high = upload_table(context, &high, precision)?;

    let per_queue = |bytes: usize| -> Result<[WorkingBuffer; 2]> {
        Ok([
            WorkingBuffer::new(context, device.kind, bytes.max(1))?,
            WorkingBuffer::new(context, device.kind, bytes.max(1))?,
        ])
    };
    let first = per_queue(slabs.buffer_bytes)?;
    let second = per_queue(slabs.buffer_bytes)?;
    let tmp = per_queue(slabs.tmp_bytes)?;
    let mut columns_plan = slabs.columns;
    let mut rows_plan = slabs.rows;
    let columns = columns_plan.baked_mut().expect("baked by Slabs::fit");
    let rows = rows_plan.baked_mut().expect("baked by Slabs::fit");
    let tmp_of = |q: usize| (slabs.tmp_bytes > 0).then(|| tmp[q].raw());
    let sign = if direction == Direction::Backward { -1.0 } else { 1.0 };
    let real = |v: f64| match precision {
        Precision::Single => Arg::F32(v as f32),
        Precision::Double => Arg::F64(v),
    };
    let lanes = 64;

    let mut scratch = vec![0u8; n * elem];
    for b in 0..batch {
        let range = b * n * elem..(b + 1) * n * elem;
        // In place, the column pass only reads the data and the row pass only writes it.
        let stream = HostStream::new(queues, &data.input()[range.clone()], &mut scratch);
        for (s, column0) in (0..n1).step_by(slabs.width).enumerate() {
            let q = s % 2;
            let rect = Rect {
                host_offset: column0 * elem,
                host_pitch: n1 * elem,
                buffer_offset: 0,
                buffer_pitch: slabs.width * elem,
                width: slabs.width * elem,
                rows: n2,
            };
            let loaded = stream.upload(q, &first[q], rect, &[])?;
            let transformed =
                columns.enqueue(direction, 1.0, stream.queue(q), &[loaded.raw()], &[first[q].raw()], &[], tmp_of(q))?;
            for (k, arg) in [
                Arg::Mem(first[q].raw()),
                Arg::Mem(low.raw()),
                Arg::Mem(high.raw()),
                Arg::U64(column0 as u64),
                Arg::U32(slabs.width as u32),
                real(sign),
            ]
            .into_iter()
            .enumerate()
            {
                kernel.set_arg(k as u32, arg)?;
            }
            let wait: [RawEvent; 1] = [transformed.raw()];
            let twiddled =
                kernel.enqueue(stream.queue(q).raw(), [slabs.width.div_ceil(lanes) * lanes, n2], [lanes, 1], &wait)?;
            stream.download(q, &first[q], rect, &[twiddled.raw()])?;
        }
        stream.finish()?;

        let stream = HostStream::new(queues, &scratch, &mut data.output()[range]);
        for (s, row0) in (0..n2).step_by(slabs.height).enumerate() {
            let q = s % 2;
            let rows_in = Rect {
                host_offset: row0 * n1 * elem,
                host_pitch: n1 * elem,
                buffer_offset: 0,
                buffer_pitch: n1 * elem,
                width: n1 * elem,
                rows: slabs.height,
            };
            let loaded = stream.upload(q, &first[q], rows_in, &[])?;
            let transformed = rows.enqueue(
                direction,
                scale,
                stream.queue(q),
                &[loaded.raw()],
                &[first[q].raw()],
                &[second[q].raw()],
                tmp_of(q),
            )?;
            let columns_out = Rect {
                host_offset: row0 * elem,
                host_pitch: n2 * elem,
                buffer_offset: 0,
                buffer_pitch: slabs.height * elem,
                width: slabs.height * elem,
                rows: n1,
            };
            stream.download(q, &second[q], columns_out, &[transformed.raw()])?;
        }
        stream.finish()?;
    }
    // Both streams finished: no command uses the slabs any more.
    working::retire(first.into_iter().chain(second).chain(tmp), None);
    crate::log!(Topic::Info, "out-of-core transform of {n} x {batch} in {:.3} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Slab sizes that fit the budget, and the two baked slab plans.
struct Slabs {
    /// Columns per column slab (divides n1).
    width: usize,
    /// Rows per row slab (divides n2).
    height: usize,
    buffer_bytes: usize,
    tmp_bytes: usize,
    columns: Plan,
    rows: Plan,
}

impl Slabs {
    /// Halves the slab size until two queues' buffers and scratch fit the budget.
    fn fit(
        context: &Context,
        queue: &Queue,
        budget: DeviceBudget,
        n1: usize,
        n2: usize,
        precision: Precision,
    ) -> Result<Slabs> {
        let elem = precision.complex_bytes();
        let mut elements = (budget.max_buffer / elem).min(budget.total / (6 * elem));
        loop {
            if elements < n2 {
                return fail(
                    ErrorKind::OutOfResources,
                    format!(
                        "the device cannot hold one column of {n2} values (budget {} bytes, {} per buffer)",
                        budget.total, budget.max_buffer
                    ),
                );
            }
            let width = largest_divisor_at_most(n1, elements / n2);
            let height = largest_divisor_at_most(n2, elements / n1);
            let mut columns = Plan::new(slab_settings(context, n2, width, precision, (width, 1), (width, 1)));
            columns.settings_mut().in_place = true;
            let mut rows = Plan::new(slab_settings(context, n1, height, precision, (1, n1), (height, 1)));
            let tmp_bytes = columns.bake(queue)?.tmp_bytes().max(rows.bake(queue)?.tmp_bytes());
            let buffer_bytes = (width * n2).max(height * n1) * elem;
            if 2 * (2 * buffer_bytes + tmp_bytes) <= budget.total && tmp_bytes <= budget.max_buffer {
                return Ok(Slabs { width, height, buffer_bytes, tmp_bytes, columns, rows });
            }
            elements /= 2;
        }
    }
}

/// A batch of `batch` transforms of length `n`, (stride, distance) on either side, out of place, unscaled
/// (the scale is given at enqueue).
fn slab_settings(
    context: &Context,
    n: usize,
    batch: usize,
    precision: Precision,
    input: (usize, usize),
    output: (usize, usize),
) -> Settings {
    let mut settings = Settings::new(context.clone(), &[n]);
    settings.in_strides = vec![input.0];
    settings.in_dist = input.1;
    settings.out_strides = vec![output.0];
    settings.out_dist = output.1;
    settings.batch = batch;
    settings.precision = precision;
    settings.in_place = false;
    settings
}

fn upload_table(context: &Context, table: &[(f64, f64)], precision: Precision) -> Result<Buffer> {
    match precision {
        Precision::Single => {
            Buffer::with_data(context, &table.iter().flat_map(|&(re, im)| [re as f32, im as f32]).collect::<Vec<_>>())
        }
        Precision::Double => {
            Buffer::with_data(context, &table.iter().flat_map(|&(re, im)| [re, im]).collect::<Vec<_>>())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_near_the_square_root() {
        assert_eq!(split(1 << 27), Some((1 << 13, 1 << 14)));
        assert_eq!(split(1000), Some((25, 40)));
        assert_eq!(split(6), Some((2, 3)));
        assert_eq!(split(13), None);
    }
}
