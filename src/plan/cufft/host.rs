//! Executions on host memory: where it lies on a device whose memory is the host's; elsewhere through
//! staging buffers on the device, in parts of the batch, or streamed in slabs when the data does not fit the
//! device.

use crate::error::{fail, ErrorKind, Result};
use crate::plan::outofcore::HostData;
use crate::plan::outofcore::{self, DeviceBudget, Streamed};
use crate::plan::{Baked, Direction, Plan};
use crate::runtime::cl::{read_buffer, write_buffer, RawMem};
use crate::runtime::devmem::context_of;
use crate::runtime::lent::LentBuffer;
use crate::runtime::working::{self, WorkingBuffer};
use crate::runtime::{device_info, Buffer, Context, DeviceInfo, DeviceKind, Event, Queue};

use super::{too_large, CuPlan, Shape};

/// Device buffers kept from one execution to the next, and the last command that used them; retired when
/// dropped.
#[derive(Default)]
pub(super) struct Staging {
    pub(super) buffers: Vec<WorkingBuffer>,
    pub(super) last_use: Option<Event>,
}

impl Staging {
    /// Buffer `index`, of at least `bytes` bytes: the one kept there, or a new one where there is none yet or
    /// it is smaller (the smaller one is retired). Buffers below `index` must exist.
    pub(super) fn at_least(
        &mut self,
        context: &Context,
        kind: DeviceKind,
        index: usize,
        bytes: usize,
    ) -> Result<&Buffer> {
        if self.buffers.get(index).map_or(true, |b| b.size().map_or(true, |s| s < bytes)) {
            let buffer = WorkingBuffer::new(context, kind, bytes)?;
            if index < self.buffers.len() {
                let outgrown = std::mem::replace(&mut self.buffers[index], buffer);
                working::retire([outgrown], self.last_use.as_ref());
            } else {
                self.buffers.push(buffer);
            }
        }
        Ok(&self.buffers[index])
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        working::retire(self.buffers.drain(..), self.last_use.as_ref());
    }
}

/// Host data above this size runs where it lies on a plan asked for no scratch: scratch as large as the data
/// would double the footprint. Below it the plan's scratch, at most as large, is the smaller cost
/// (docs/tuning.md, "Host data without scratch").
const LEAN_ABOVE_BYTES: usize = 64 << 20;

/// The failure where host slices are shorter than the shape's extents, which the API layer checked.
fn too_short() -> crate::error::Error {
    crate::error::Error::new(ErrorKind::Bugcheck, "host slices shorter than the transform's extents")
}

impl CuPlan {
    /// Transforms host memory: where it lies on a device whose memory is the host's; elsewhere copied to the
    /// device, transformed and copied back; where the device cannot hold the data, in parts of the batch that
    /// it can hold, or else streamed through it in slabs. Returns when the result is in host memory.
    pub fn execute_host(&mut self, direction: Direction, data: HostData) -> Result<()> {
        let direction = self.direction(direction)?;
        let in_place = matches!(data, HostData::InPlace(_));
        let shape = self.shape()?.clone();
        let queue = self.queue()?;
        if self.fenced {
            // Host data waits for nothing on the device, but the plan's own buffers may still be in use by
            // device executions enqueued before.
            queue.finish()?;
        }
        let device = device_info(queue.device()?)?;
        if device.host_unified && shape.lies_within(&device, in_place) {
            match self.execute_where_it_lies(&queue, direction, data)? {
                None => return Ok(()),
                // A plan that writes its input cannot be given the caller's read-only input.
                Some(untouched) => return self.execute_staged(&queue, &device, direction, shape.batch, untouched),
            }
        }
        let tmp_bytes = self.variants[in_place as usize].as_ref().and_then(|p| p.baked()).map_or(0, |b| b.tmp_bytes());
        if shape.fits(&device, in_place, tmp_bytes) {
            return self.execute_staged(&queue, &device, direction, shape.batch, data);
        }
        if let Some(part) = self.batch_part_that_fits(&queue, &device, in_place)? {
            return self.execute_in_parts(&queue, &device, direction, part, data);
        }
        if shape.streams(&device) {
            let context = context_of(&queue)?;
            let second = Queue::create(&context, queue.device()?, false)?;
            // Slabs follow each other through the first queue's order; the stream was finished above.
            let queue = if self.fenced { Queue::create(&context, queue.device()?, false)? } else { queue };
            let budget = DeviceBudget::for_slabs(&device);
            let job = Streamed {
                n: shape.n.clone(),
                batch: shape.batch,
                kind: shape.fft_type.kind(),
                precision: shape.fft_type.precision(),
                direction,
                scale: 1.0,
                data,
            };
            return outofcore::run(&context, &[queue, second], budget, job);
        }
        fail(
            ErrorKind::OutOfResources,
            format!(
                "the data ({} bytes) does not fit {} and only transforms in the basic layout stream through the \
                 device in slabs (in 1D of a complex length that is not prime, in 2D and 3D whose columns down \
                 the first axis fit the device)",
                shape.staging_sizes(in_place).iter().sum::<usize>(),
                device.name
            ),
        )
    }

    /// Transforms host data where it lies, through buffers over the caller's memory, on a device whose memory
    /// is the host's: the footprint is the data and the plan's scratch. Data larger than `LEAN_ABOVE_BYTES`
    /// runs on a plan asked for no scratch. Returns the data untouched where the plan, out of place, would
    /// write its input.
    fn execute_where_it_lies<'d>(
        &mut self,
        queue: &Queue,
        direction: Direction,
        data: HostData<'d>,
    ) -> Result<Option<HostData<'d>>> {
        let in_place = matches!(data, HostData::InPlace(_));
        let (in_bytes, out_bytes) = self.shape()?.extents(in_place);
        let context = context_of(queue)?;
        let baked = if in_bytes.max(out_bytes) > LEAN_ABOVE_BYTES {
            self.lean_variant(queue, in_place)?
        } else {
            self.variant(queue, in_place)?
        };
        match data {
            HostData::InPlace(data) => {
                let bytes = in_bytes.max(out_bytes);
                let buffer = LentBuffer::read_write(&context, queue, data.get_mut(..bytes).ok_or_else(too_short)?)?;
                let done = baked.enqueue(direction, 1.0, queue, &[], &[buffer.raw()], &[], None)?;
                buffer.settle(&done)?;
            }
            HostData::Separate(input, output) if !baked.writes_input() => {
                let source = LentBuffer::read_only(&context, queue, input.get(..in_bytes).ok_or_else(too_short)?)?;
                let target =
                    LentBuffer::read_write(&context, queue, output.get_mut(..out_bytes).ok_or_else(too_short)?)?;
                let done = baked.enqueue(direction, 1.0, queue, &[], &[source.raw()], &[target.raw()], None)?;
                target.settle(&done)?;
            }
            untouched => return Ok(Some(untouched)),
        }
        crate::log!(
            crate::log::Topic::Info,
            "host data transformed where it lies, with {} bytes of scratch",
            baked.tmp_bytes()
        );
        Ok(None)
    }

    /// The most transforms of the batch whose data and scratch fit `device` at once, in the basic layout;
    /// `None` where even one does not.
    fn batch_part_that_fits(&mut self, queue: &Queue, device: &DeviceInfo, in_place: bool) -> Result<Option<usize>> {
        let shape = self.shape()?.clone();
        if shape.advanced.is_some() || shape.batch < 2 {
            return Ok(None);
        }
        let one = Shape { batch: 1, ..shape.clone() }.staging_sizes(in_place);
        let (largest, per_transform) = (one.iter().max().copied().unwrap_or(1), one.iter().sum::<usize>());
        let mut part = (device.max_alloc_bytes as usize / largest.max(1))
            .min(device.global_mem_bytes as usize / per_transform.max(1))
            .min(shape.batch - 1);
        while part > 0 {
            // A part whose scratch the device cannot hold fails to bake: a smaller part may fit.
            match self.part_variant(queue, in_place, part) {
                Ok(plan) => {
                    let tmp_bytes = plan.tmp_bytes();
                    if (Shape { batch: part, ..shape.clone() }).fits(device, in_place, tmp_bytes) {
                        return Ok(Some(part));
                    }
                }
                Err(e) if too_large(e.kind) => {}
                Err(e) => return Err(e),
            }
            part /= 2;
        }
        Ok(None)
    }

    /// The batch in parts of `part` transforms (the last one what is left), each run as `execute_staged`.
    fn execute_in_parts(
        &mut self,
        queue: &Queue,
        device: &DeviceInfo,
        direction: Direction,
        part: usize,
        mut data: HostData,
    ) -> Result<()> {
        let shape = self.shape()?.clone();
        let in_place = matches!(data, HostData::InPlace(_));
        let (in_bytes, out_bytes) = Shape { batch: 1, ..shape.clone() }.extents(in_place);
        crate::log!(crate::log::Topic::Plan, "host data of {} transforms in parts of {part}", shape.batch);
        for first in (0..shape.batch).step_by(part) {
            let count = part.min(shape.batch - first);
            let data = data.part(first * in_bytes, count * in_bytes, first * out_bytes, count * out_bytes)?;
            self.execute_staged(queue, device, direction, count, data)?;
        }
        Ok(())
    }

    /// The plan for `batch` transforms of the shape, in place or not: the whole batch's, or a part's.
    fn part_variant(&mut self, queue: &Queue, in_place: bool, batch: usize) -> Result<&mut Baked> {
        let shape = self.shape()?.clone();
        if batch == shape.batch {
            return self.variant(queue, in_place);
        }
        let index = match self.part_variants.iter().position(|(p, b, _)| (*p, *b) == (in_place, batch)) {
            Some(index) => index,
            None => {
                let part = Shape { batch, ..shape };
                self.part_variants.push((in_place, batch, Plan::new(part.settings(context_of(queue)?, in_place))));
                self.part_variants.len() - 1
            }
        };
        self.part_variants[index].2.bake(queue)
    }

    /// `batch` transforms of host data (the whole batch or a part of it) copied to the plan's staging buffers,
    /// transformed there and copied back.
    fn execute_staged(
        &mut self,
        queue: &Queue,
        device: &DeviceInfo,
        direction: Direction,
        batch: usize,
        data: HostData,
    ) -> Result<()> {
        let in_place = matches!(data, HostData::InPlace(_));
        let shape = Shape { batch, ..self.shape()?.clone() };
        let (in_bytes, out_bytes) = shape.extents(in_place);
        self.stage(&context_of(queue)?, device.kind, &shape.staging_sizes(in_place))?;
        let staging: Vec<RawMem> = self.staging.buffers.iter().map(|b| b.raw()).collect();
        let baked = self.part_variant(queue, in_place, batch)?;
        let (transformed, read) = match data {
            HostData::InPlace(data) => {
                write_buffer(queue.raw(), staging[0], 0, &data[..in_bytes])?;
                let transformed = baked.enqueue(direction, 1.0, queue, &[], &[staging[0]], &[], None)?;
                let read = read_buffer(queue.raw(), staging[0], 0, &mut data[..out_bytes], &[transformed.raw()]);
                (transformed, read)
            }
            HostData::Separate(input, output) => {
                write_buffer(queue.raw(), staging[0], 0, &input[..in_bytes])?;
                // The transform writes only its values; what lies between them must come back unchanged.
                if shape.output_has_gaps(false) {
                    write_buffer(queue.raw(), staging[1], 0, &output[..out_bytes])?;
                }
                let transformed = baked.enqueue(direction, 1.0, queue, &[], &[staging[0]], &[staging[1]], None)?;
                let read = read_buffer(queue.raw(), staging[1], 0, &mut output[..out_bytes], &[transformed.raw()]);
                (transformed, read)
            }
        };
        // The read blocked until after the transform: only the transform's event may still stand for the staging.
        self.staging.last_use = Some(transformed);
        read
    }

    /// Device buffers of at least `sizes` bytes for host executions, kept from one execution to the next.
    fn stage(&mut self, context: &Context, kind: DeviceKind, sizes: &[usize]) -> Result<()> {
        for (index, &bytes) in sizes.iter().enumerate() {
            self.staging.at_least(context, kind, index, bytes)?;
        }
        Ok(())
    }
}
