//! Host-memory transforms larger than the device, streamed through it in slabs (docs/algorithms.md, "Out-of-core transforms"):
//! 1D ones as a four-step (`line`), 2D and 3D ones axis by axis (`axes`).
//!
//! Slabs alternate between two queues, each with buffers of its own, so one queue's copies overlap the
//! other's kernels. Rectangle copies do the gathering and scattering; the host packs nothing.

mod axes;
mod line;

pub use line::split;

use super::{Direction, Settings};
use crate::error::{fail, ErrorKind, Result};
use crate::planner::factor;
use crate::runtime::cl::RawMem;
use crate::runtime::transfer::HostStream;
use crate::runtime::working::{self, available_host_memory, WorkingBuffer};
use crate::runtime::{device_info, Context, DeviceInfo, DeviceKind, Queue};
use crate::types::{Precision, TransformKind};

/// How much device memory the slabs may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceBudget {
    /// The largest single buffer.
    pub max_buffer: usize,
    /// All buffers together.
    pub total: usize,
}

/// The most a slab buffer takes on a CPU device, whose buffers are host memory beside the data streamed: as
/// large slabs gain nothing there, the slabs take at most 1.5 GiB.
const CPU_SLAB_BYTES: usize = 256 << 20;

impl DeviceBudget {
    /// What the slabs may take of `device`.
    pub fn for_slabs(device: &DeviceInfo) -> DeviceBudget {
        let (max_buffer, total) = (device.max_alloc_bytes as usize, device.global_mem_bytes as usize);
        match device.kind {
            DeviceKind::Cpu => {
                DeviceBudget { max_buffer: max_buffer.min(CPU_SLAB_BYTES), total: total.min(6 * CPU_SLAB_BYTES) }
            }
            _ => DeviceBudget { max_buffer, total },
        }
    }

    /// The most bytes a slab transformed in place, with scratch, on each of two queues may take: a column
    /// slab of the axis-by-axis path.
    fn column_bytes(&self) -> usize {
        self.max_buffer.min(self.total / 4)
    }

    /// The most bytes a slab with an input, an output and scratch on each of two queues may take: a plane
    /// slab, or either slab of the 1D four-step.
    fn plane_bytes(&self) -> usize {
        self.max_buffer.min(self.total / 6)
    }
}

/// Whether a transform of sizes `n` (row-major) streams within `budget`: in 1D, one whose complex length
/// splits into rows and columns, a column fitting; in 2D and 3D, one whose columns down the first axis fit,
/// and whose planes fit or stream on their own.
pub fn streams(n: &[usize], kind: TransformKind, precision: Precision, budget: DeviceBudget) -> bool {
    let elem = precision.complex_bytes();
    match n {
        [] => false,
        &[n] => {
            line::split(line::complex_length(n, kind)).is_some_and(|(_, column)| column * elem <= budget.plane_bytes())
        }
        [n0, middle @ .., last] => {
            // A plane's complex side is its larger: Hermitian rows take as many bytes as padded real ones.
            let row = if kind == TransformKind::C2C { *last } else { last / 2 + 1 };
            let plane = middle.iter().product::<usize>() * row * elem;
            n0 * elem <= budget.column_bytes()
                && (plane <= budget.plane_bytes() || streams(&n[1..], kind, precision, budget))
        }
    }
}

/// `bytes` of zeroed host memory, or an error where the system has not that much available: a failure then
/// is a status for the caller, where an allocation beyond the memory would end the process.
fn host_scratch(bytes: usize) -> Result<Vec<u8>> {
    let mut scratch = Vec::new();
    let available = available_host_memory();
    if available.is_some_and(|a| bytes > a) || scratch.try_reserve_exact(bytes).is_err() {
        return fail(
            ErrorKind::OutOfHostMemory,
            format!(
                "the out-of-core transform needs {bytes} bytes of host scratch; the system has {} available",
                available.map_or("less".to_string(), |a| a.to_string())
            ),
        );
    }
    scratch.resize(bytes, 0);
    Ok(scratch)
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

    fn reborrow(&mut self) -> HostData<'_> {
        match self {
            HostData::InPlace(data) => HostData::InPlace(data),
            HostData::Separate(input, output) => HostData::Separate(input, output),
        }
    }

    /// `in_bytes` of the input from `input` and `out_bytes` of the output from `output` (the same offset in
    /// place, where the part spans the larger of the two).
    pub(crate) fn part(
        &mut self,
        input: usize,
        in_bytes: usize,
        output: usize,
        out_bytes: usize,
    ) -> Result<HostData<'_>> {
        let part = match self {
            HostData::InPlace(data) if input == output => {
                data.get_mut(input..input + in_bytes.max(out_bytes)).map(HostData::InPlace)
            }
            HostData::InPlace(_) => None,
            HostData::Separate(source, target) => source
                .get(input..input + in_bytes)
                .zip(target.get_mut(output..output + out_bytes))
                .map(|(source, target)| HostData::Separate(source, target)),
        };
        part.map_or_else(too_short, Ok)
    }

    /// `bytes` of the output from `at`.
    fn output_part(&mut self, at: usize, bytes: usize) -> Result<&mut [u8]> {
        self.output().get_mut(at..at + bytes).map_or_else(too_short, Ok)
    }

    fn stream<'a>(&'a mut self, queues: &'a [Queue]) -> HostStream<'a> {
        match self {
            HostData::InPlace(data) => HostStream::in_place(queues, data),
            HostData::Separate(input, output) => HostStream::new(queues, input, output),
        }
    }
}

fn too_short<T>() -> Result<T> {
    fail(ErrorKind::Bugcheck, "out-of-core host slices shorter than the transform")
}

/// One transform (or a batch of them) of sizes `n` (row-major, as cuFFT's) in host memory, packed: complex
/// values interleaved, or for R2C and C2R real values on one side (rows padded to 2 (n_last / 2 + 1) in
/// place, as cuFFT's) and n_last / 2 + 1 Hermitian values a row on the other.
pub struct Streamed<'a> {
    pub n: Vec<usize>,
    pub batch: usize,
    pub kind: TransformKind,
    pub precision: Precision,
    pub direction: Direction,
    pub scale: f64,
    pub data: HostData<'a>,
}

/// Each queue's device buffers: a slab's input, its output and the slab plans' scratch.
struct SlabBuffers {
    first: [WorkingBuffer; 2],
    second: [WorkingBuffer; 2],
    tmp: [WorkingBuffer; 2],
    tmp_bytes: usize,
}

impl SlabBuffers {
    fn new(context: &Context, queue: &Queue, first: usize, second: usize, tmp_bytes: usize) -> Result<SlabBuffers> {
        let kind = device_info(queue.device()?)?.kind;
        let per_queue = |bytes: usize| -> Result<[WorkingBuffer; 2]> {
            Ok([WorkingBuffer::new(context, kind, bytes.max(1))?, WorkingBuffer::new(context, kind, bytes.max(1))?])
        };
        Ok(SlabBuffers { first: per_queue(first)?, second: per_queue(second)?, tmp: per_queue(tmp_bytes)?, tmp_bytes })
    }

    /// Queue `q`'s scratch for the slab plans, where they need any.
    fn tmp(&self, q: usize) -> Option<RawMem> {
        (self.tmp_bytes > 0).then(|| self.tmp[q].raw())
    }

    /// Hands the buffers back once both queues are done with them.
    fn retire(self) {
        working::retire(self.first.into_iter().chain(self.second).chain(self.tmp), None);
    }
}

/// Runs `job` on the device of `queues` (two queues of one context), within `budget`.
pub fn run(context: &Context, queues: &[Queue; 2], budget: DeviceBudget, job: Streamed) -> Result<()> {
    let expected = match job.kind {
        TransformKind::C2C => job.direction,
        TransformKind::R2C => Direction::Forward,
        TransformKind::C2R => Direction::Backward,
    };
    if job.direction != expected {
        return fail(ErrorKind::Bugcheck, format!("a streamed {:?} asked to run {:?}", job.kind, job.direction));
    }
    let started = std::time::Instant::now();
    let (kind, n, batch) = (job.kind, job.n.clone(), job.batch);
    match n.len() {
        1 => line::run(context, queues, budget, job)?,
        2 | 3 => axes::run(context, queues, budget, job)?,
        rank => return fail(ErrorKind::Bugcheck, format!("a streamed transform of rank {rank}")),
    }
    let seconds = started.elapsed().as_secs_f64();
    crate::log!(crate::log::Topic::Info, "out-of-core {kind:?} transform of {n:?} x {batch} in {seconds:.3} s");
    Ok(())
}

/// The largest divisor of `n` no larger than `limit` (at least 1).
fn largest_divisor_at_most(n: usize, limit: usize) -> usize {
    factor::divisors(n).into_iter().filter(|&d| d <= limit).max().unwrap_or(1)
}

/// The plan of a column slab: `width` columns of `n` values, one after another in each row, transformed in
/// place down the columns.
fn column_slab_settings(context: &Context, n: usize, width: usize, precision: Precision) -> Settings {
    Settings { in_place: true, ..slab_settings(context, n, width, precision, (width, 1), (width, 1)) }
}

/// The failure where the device cannot hold one column of `n` values.
fn column_too_large<T>(n: usize, budget: DeviceBudget) -> Result<T> {
    fail(
        ErrorKind::OutOfResources,
        format!(
            "the device cannot hold one column of {n} values (budget {} bytes, {} per buffer)",
            budget.total, budget.max_buffer
        ),
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::test_device;
    use crate::types::{Precision, TransformKind};

    #[test]
    fn slabs_take_little_of_a_cpu_device_and_all_of_a_gpu() {
        let cpu = DeviceBudget::for_slabs(&test_device::cpu());
        assert_eq!(cpu, DeviceBudget { max_buffer: CPU_SLAB_BYTES, total: 6 * CPU_SLAB_BYTES });
        let gpu = test_device::gpu();
        let whole = DeviceBudget { max_buffer: gpu.max_alloc_bytes as usize, total: gpu.global_mem_bytes as usize };
        assert_eq!(DeviceBudget::for_slabs(&gpu), whole);
    }

    #[test]
    fn what_streams_through_a_cpu_device() {
        let (budget, single) = (DeviceBudget::for_slabs(&test_device::cpu()), Precision::Single);
        let streams = |n: &[usize], kind| streams(n, kind, single, budget);
        assert!(streams(&[1 << 27], TransformKind::C2C));
        assert!(streams(&[71_744_535], TransformKind::R2C), "odd, composite");
        assert!(!streams(&[13], TransformKind::C2C), "prime");
        assert!(!streams(&[26], TransformKind::R2C), "a prime half");
        // Columns of 2^26 values take 512 MiB; slabs take 256 MiB at most.
        assert!(!streams(&[1 << 26, 4], TransformKind::C2C));
        assert!(streams(&[4, 1 << 26], TransformKind::C2C), "rows of 2^26 values, each streamed");
        assert!(streams(&[2, 8192, 8192], TransformKind::C2R), "planes, each streamed");
        assert!(streams(&[4, 16, 33_554_393], TransformKind::C2C), "planes of prime rows that fit");
        assert!(!streams(&[4, 33_554_467 * 2], TransformKind::R2C), "rows past the device with a prime half");
    }

    #[test]
    fn host_scratch_beyond_the_memory_is_an_error() {
        assert_eq!(host_scratch(1 << 20).unwrap().len(), 1 << 20);
        assert_eq!(host_scratch(usize::MAX / 2).unwrap_err().kind, ErrorKind::OutOfHostMemory);
    }
}
