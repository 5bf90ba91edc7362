//! 1D transforms: the four-step streamed through the device in slabs.
//!
//! With n = n1 * n2, the host data is a matrix of n2 rows and n1 columns (element (r, c) at c + n1 r):
//! 1. column pass: each slab of `width` columns is copied to the device as a rectangle, transformed down its
//!    columns (length n2), multiplied by w_n^(c k2), and copied back to the same rectangle of a host scratch;
//! 2. row pass: each slab of `height` scratch rows is transformed along its rows (length n1), written on the
//!    device transposed, and copied to the output as the rectangle of columns k2 + n2 k1 it owns.
//!
//! A real transform of even length n runs as the n/2-point complex transform of its reals taken in pairs
//! (`kernels/real.cl`), with one more streamed pass that combines each value k with its mirror n/2 - k:
//! after the complex transform for R2C, before it for C2R. That pass copies a run of values and the run of
//! their mirrors into one buffer per slab. One of odd length runs as the n-point complex transform of its
//! reals widened on the host (R2C), or of its spectrum extended by symmetry to all n values (C2R).

use super::{
    column_slab_settings, column_too_large, host_scratch, largest_divisor_at_most, slab_settings, DeviceBudget,
    HostData, SlabBuffers, Streamed,
};
use crate::codegen::slab_twiddle::SlabTwiddle;
use crate::error::{fail, ErrorKind, Result};
use crate::log::Topic;
use crate::plan::{Baked, Direction};
use crate::planner::factor;
use crate::runtime::cl::RawEvent;
use crate::runtime::transfer::{HostStream, Rect};
use crate::runtime::{cache, device_info, Arg, Buffer, Context, Kernel, Queue};
use crate::types::{Precision, TransformKind};

/// Splits `n` into n1 * n2 as close to sqrt(n) as possible, n2 >= n1 (n2 is the column length, which
/// the column pass holds whole on the device). `None` when `n` is prime.
pub fn split(n: usize) -> Option<(usize, usize)> {
    let root = (n as f64).sqrt() as usize;
    let n1 = factor::divisors(n).into_iter().filter(|&d| d > 1 && d <= root).max()?;
    Some((n1, n / n1))
}

/// The length of the complex transform a 1D transform of length `n` streams as: half of an even real length
/// (its reals taken in pairs), else `n` (an odd real length's reals widened).
pub(super) fn complex_length(n: usize, kind: TransformKind) -> usize {
    if kind.is_real() && n % 2 == 0 {
        n / 2
    } else {
        n
    }
}

/// Runs `job`, a 1D transform, on the device of `queues` (two queues of one context), within `budget`.
pub(super) fn run(context: &Context, queues: &[Queue; 2], budget: DeviceBudget, job: Streamed) -> Result<()> {
    let Streamed { n, batch, kind, precision, direction, scale, mut data } = job;
    let n = n[0];
    let elem = precision.complex_bytes();
    let in_place = matches!(data, HostData::InPlace(_));
    let odd_real = kind.is_real() && n % 2 == 1;
    // The bytes of one transform's reals (unpadded) and of its Hermitian values.
    let (real, hermitian) = (n * precision.real_bytes(), (n / 2 + 1) * elem);
    // The bytes from one transform to the next on either side.
    let padded = if in_place { hermitian } else { real };
    let (in_dist, out_dist) = match kind {
        TransformKind::C2C => (n * elem, n * elem),
        TransformKind::R2C => (padded, hermitian),
        TransformKind::C2R => (hermitian, padded),
    };
    let twiddle =
        if complex_length(n, kind) == n { SlabTwiddle::complex(n, precision) } else { SlabTwiddle::real(n, precision) };
    let mut streamer = Streamer::new(context, queues, budget, twiddle)?;
    // An odd real transform's n complex values, widened from the reals or extended from the spectrum.
    let mut widened = if odd_real { host_scratch(n * elem)? } else { Vec::new() };
    let complex = twiddle.m * elem;
    for b in 0..batch {
        let (input, output) = (b * in_dist, b * out_dist);
        match kind {
            TransformKind::C2C => streamer.complex(direction, scale, data.part(input, complex, output, complex)?)?,
            TransformKind::R2C if odd_real => {
                let mut part = data.part(input, real, output, hermitian)?;
                widen_reals(part.input(), precision, &mut widened);
                streamer.complex(direction, scale, HostData::InPlace(&mut widened))?;
                part.output()[..hermitian].copy_from_slice(&widened[..hermitian]);
            }
            TransformKind::C2R if odd_real => {
                let mut part = data.part(input, hermitian, output, real)?;
                extend_hermitian(part.input(), precision, &mut widened);
                streamer.complex(direction, scale, HostData::InPlace(&mut widened))?;
                real_parts(&widened, precision, &mut part.output()[..real]);
            }
            TransformKind::R2C => {
                streamer.complex(direction, 1.0, data.part(input, complex, output, complex)?)?;
                let spectrum = data.output_part(output, hermitian)?;
                streamer.hermitian(direction, scale / 2.0, HostData::InPlace(spectrum))?;
            }
            TransformKind::C2R => {
                streamer.hermitian(direction, 1.0, data.part(input, hermitian, output, complex)?)?;
                let pairs = data.output_part(output, complex)?;
                streamer.complex(direction, scale, HostData::InPlace(pairs))?;
            }
        }
    }
    streamer.buffers.retire();
    Ok(())
}

/// The slab plans, kernels and device buffers of one streamed length, for any number of transforms.
struct Streamer<'q> {
    queues: &'q [Queue; 2],
    twiddle: SlabTwiddle,
    slabs: Slabs,
    twiddle_kernel: Kernel,
    hermitian_kernel: Kernel,
    low: Buffer,
    high: Buffer,
    buffers: SlabBuffers,
    /// The host matrix between the column and the row pass.
    scratch: Vec<u8>,
}

/// Work-items per work-group of the slab kernels.
const LANES: usize = 64;

impl<'q> Streamer<'q> {
    fn new(context: &Context, queues: &'q [Queue; 2], budget: DeviceBudget, twiddle: SlabTwiddle) -> Result<Self> {
        let (m, precision) = (twiddle.m, twiddle.precision);
        let Some((n1, n2)) = split(m) else {
            return fail(
                ErrorKind::NotImplemented,
                format!("length {m} is prime: it cannot stream through the device in slabs"),
            );
        };
        let device = device_info(queues[0].device()?)?;
        let slabs = Slabs::fit(context, &queues[0], budget, n1, n2, precision)?;
        crate::log!(
            Topic::Plan,
            "out-of-core {m} = {n1} x {n2}: column slabs of {} columns, row slabs of {} rows, {} bytes per buffer",
            slabs.width,
            slabs.height,
            slabs.buffer_bytes
        );
        let source = twiddle.source();
        let program = cache::program(context, &device, source.text())?;
        // The transform runs now: its kernels' disk-cache write must not compile alongside it.
        cache::wait_for_writes();
        let twiddle_kernel = Kernel::create(&program, source.entry)?;
        let hermitian_kernel = Kernel::create(&program, SlabTwiddle::HERMITIAN_ENTRY)?;
        let (low, high) = twiddle.tables();
        Ok(Streamer {
            queues,
            twiddle,
            low: upload_table(context, &low, precision)?,
            high: upload_table(context, &high, precision)?,
            buffers: SlabBuffers::new(context, &queues[0], slabs.buffer_bytes, slabs.buffer_bytes, slabs.tmp_bytes)?,
            scratch: host_scratch(m * precision.complex_bytes())?,
            slabs,
            twiddle_kernel,
            hermitian_kernel,
        })
    }

    fn set_args(kernel: &Kernel, args: Vec<Arg>) -> Result<()> {
        args.into_iter().enumerate().try_for_each(|(k, arg)| kernel.set_arg(k as u32, arg))
    }

    /// One complex transform of the streamed length, scaled by `scale`.
    fn complex(&mut self, direction: Direction, scale: f64, mut data: HostData) -> Result<()> {
        let Streamer { queues, slabs, buffers, scratch, .. } = self;
        let (first, second) = (&buffers.first, &buffers.second);
        let (n1, n2, elem) = (slabs.n1, slabs.n2, self.twiddle.precision.complex_bytes());
        let (columns, rows) = (&mut slabs.columns, &mut slabs.rows);
        let sign = if direction == Direction::Backward { -1.0 } else { 1.0 };

        // In place, the column pass only reads the data and the row pass only writes it.
        let stream = HostStream::new(&queues[..], data.input(), scratch);
        for (s, column0) in (0..n1).step_by(slabs.width).enumerate() {
            let q = s % 2;
            let rect = Rect::packed(column0 * elem, n1 * elem, slabs.width * elem, n2);
            let loaded = stream.upload(q, &first[q], rect, &[])?;
            let transformed = columns.enqueue(
                direction,
                1.0,
                stream.queue(q),
                &[loaded.raw()],
                &[first[q].raw()],
                &[],
                buffers.tmp(q),
            )?;
            let args = vec![
                Arg::Mem(first[q].raw()),
                Arg::Mem(self.low.raw()),
                Arg::Mem(self.high.raw()),
                Arg::U64(column0 as u64),
                Arg::U32(slabs.width as u32),
                real_arg(self.twiddle.precision, sign),
            ];
            Self::set_args(&self.twiddle_kernel, args)?;
            let wait: [RawEvent; 1] = [transformed.raw()];
            let twiddled = self.twiddle_kernel.enqueue(
                stream.queue(q).raw(),
                [slabs.width.div_ceil(LANES) * LANES, n2],
                [LANES, 1],
                &wait,
            )?;
            stream.download(q, &first[q], rect, &[twiddled.raw()])?;
        }
        stream.finish()?;

        let stream = HostStream::new(&queues[..], scratch, data.output());
        for (s, row0) in (0..n2).step_by(slabs.height).enumerate() {
            let q = s % 2;
            let rows_in = Rect::packed(row0 * n1 * elem, n1 * elem, n1 * elem, slabs.height);
            let loaded = stream.upload(q, &first[q], rows_in, &[])?;
            let transformed = rows.enqueue(
                direction,
                scale,
                stream.queue(q),
                &[loaded.raw()],
                &[first[q].raw()],
                &[second[q].raw()],
                buffers.tmp(q),
            )?;
            let columns_out = Rect::packed(row0 * elem, n2 * elem, slabs.height * elem, n1);
            stream.download(q, &second[q], columns_out, &[transformed.raw()])?;
        }
        stream.finish()
    }

    /// The real transform's combination of each value k of an m-point spectrum with its mirror m - k
    /// (`slab_hermitian` in `kernels/slab_twiddle.cl`), times `s`: R2C's post-process forward (the input's
    /// m values become the output's m + 1), C2R's pre-process backward (m + 1 become m).
    fn hermitian(&mut self, direction: Direction, s: f64, mut data: HostData) -> Result<()> {
        let (m, precision) = (self.twiddle.m, self.twiddle.precision);
        let elem = precision.complex_bytes();
        // k = 0 pairs with itself (R2C) or with the value m (C2R), which no mirror run holds: on the host.
        let zero = load(data.input(), 0, precision);
        if direction == Direction::Forward {
            store(data.output(), 0, precision, (2.0 * s * (zero.0 + zero.1), 0.0));
            store(data.output(), m, precision, (2.0 * s * (zero.0 - zero.1), 0.0));
        } else {
            // The imaginary parts of the values 0 and m are redundant for Hermitian data, and ignored.
            let last = load(data.input(), m, precision).0;
            store(data.output(), 0, precision, (s * (zero.0 + last), s * (zero.0 - last)));
        }
        let sign = if direction == Direction::Forward { 1.0 } else { -1.0 };
        let run = self.slabs.buffer_bytes / (2 * elem);
        let half = m / 2;
        let stream = data.stream(&self.queues[..]);
        for (index, k0) in (1..=half).step_by(run).enumerate() {
            let q = index % 2;
            let count = run.min(half + 1 - k0);
            let values = Rect::run(k0 * elem, 0, count * elem);
            let mirrors = Rect::run((m + 1 - k0 - count) * elem, count * elem, count * elem);
            let buffer = &self.buffers.first[q];
            let loaded = [stream.upload(q, buffer, values, &[])?, stream.upload(q, buffer, mirrors, &[])?];
            let args = vec![
                Arg::Mem(buffer.raw()),
                Arg::Mem(self.low.raw()),
                Arg::Mem(self.high.raw()),
                Arg::U64(k0 as u64),
                Arg::U32(count as u32),
                real_arg(precision, sign),
                real_arg(precision, s),
            ];
            Self::set_args(&self.hermitian_kernel, args)?;
            let wait: Vec<RawEvent> = loaded.iter().map(|e| e.raw()).collect();
            let combined = self.hermitian_kernel.enqueue(
                stream.queue(q).raw(),
                [count.div_ceil(LANES) * LANES, 1],
                [LANES, 1],
                &wait,
            )?;
            for rect in [values, mirrors] {
                stream.download(q, buffer, rect, &[combined.raw()])?;
            }
        }
        stream.finish()
    }
}

/// `widened` (n complex values) made from the first n reals of `reals`, with zero imaginary parts.
fn widen_reals(reals: &[u8], precision: Precision, widened: &mut [u8]) {
    let size = precision.real_bytes();
    for (pair, real) in widened.chunks_exact_mut(2 * size).zip(reals.chunks_exact(size)) {
        pair[..size].copy_from_slice(real);
        pair[size..].fill(0);
    }
}

/// `widened` (n complex values, n odd) made from the first n / 2 + 1 values of a Hermitian spectrum: value
/// n - k is the conjugate of value k. Value 0's imaginary part is redundant, and taken as zero.
fn extend_hermitian(spectrum: &[u8], precision: Precision, widened: &mut [u8]) {
    let n = widened.len() / precision.complex_bytes();
    let zero = load(spectrum, 0, precision);
    store(widened, 0, precision, (zero.0, 0.0));
    for k in 1..=n / 2 {
        let (re, im) = load(spectrum, k, precision);
        store(widened, k, precision, (re, im));
        store(widened, n - k, precision, (re, -im));
    }
}

/// The real parts of the complex values `values`, one per real of `reals`.
fn real_parts(values: &[u8], precision: Precision, reals: &mut [u8]) {
    let size = precision.real_bytes();
    for (real, pair) in reals.chunks_exact_mut(size).zip(values.chunks_exact(2 * size)) {
        real.copy_from_slice(&pair[..size]);
    }
}

/// A real kernel argument in `precision`.
fn real_arg(precision: Precision, v: f64) -> Arg {
    match precision {
        Precision::Single => Arg::F32(v as f32),
        Precision::Double => Arg::F64(v),
    }
}

/// The complex value `index` of host memory holding values of `precision`.
fn load(bytes: &[u8], index: usize, precision: Precision) -> (f64, f64) {
    let size = precision.real_bytes();
    let at = |i: usize| {
        let b = &bytes[i * size..(i + 1) * size];
        match precision {
            Precision::Single => f32::from_ne_bytes(b.try_into().expect("4 bytes")) as f64,
            Precision::Double => f64::from_ne_bytes(b.try_into().expect("8 bytes")),
        }
    };
    (at(2 * index), at(2 * index + 1))
}

fn store(bytes: &mut [u8], index: usize, precision: Precision, value: (f64, f64)) {
    let size = precision.real_bytes();
    for (i, v) in [(2 * index, value.0), (2 * index + 1, value.1)] {
        let b = &mut bytes[i * size..(i + 1) * size];
        match precision {
            Precision::Single => b.copy_from_slice(&(v as f32).to_ne_bytes()),
            Precision::Double => b.copy_from_slice(&v.to_ne_bytes()),
        }
    }
}

/// Slab sizes that fit the budget, and the two baked slab plans.
struct Slabs {
    /// The columns and rows of the matrix.
    n1: usize,
    n2: usize,
    /// Columns per column slab (divides n1).
    width: usize,
    /// Rows per row slab (divides n2).
    height: usize,
    buffer_bytes: usize,
    tmp_bytes: usize,
    columns: Baked,
    rows: Baked,
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
        let mut elements = budget.plane_bytes() / elem;
        loop {
            if elements < n2 {
                return column_too_large(n2, budget);
            }
            let width = largest_divisor_at_most(n1, elements / n2);
            let height = largest_divisor_at_most(n2, elements / n1);
            let columns = Baked::new(&column_slab_settings(context, n2, width, precision), queue)?;
            let rows = Baked::new(&slab_settings(context, n1, height, precision, (1, n1), (height, 1)), queue)?;
            let tmp_bytes = columns.tmp_bytes().max(rows.tmp_bytes());
            let buffer_bytes = (width * n2).max(height * n1) * elem;
            if 2 * (2 * buffer_bytes + tmp_bytes) <= budget.total && tmp_bytes <= budget.max_buffer {
                return Ok(Slabs { n1, n2, width, height, buffer_bytes, tmp_bytes, columns, rows });
            }
            elements /= 2;
        }
    }
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
