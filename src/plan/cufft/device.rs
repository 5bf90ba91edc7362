//! Executions on device memory: the caller's regions bound to buffers the plan can take.

use crate::error::{fail, ErrorKind, Result};
use crate::plan::Direction;
use crate::runtime::cl::{enqueue_barrier, enqueue_copy, RawContext, RawEvent, RawMem};
use crate::runtime::devmem::{context_of, DeviceRegion};
use crate::runtime::transfer::sub_buffer;
use crate::runtime::{device_info, Buffer, DeviceInfo, Event, Queue};
use std::sync::Arc;

use super::host::Staging;
use super::CuPlan;

impl CuPlan {
    /// Transforms device memory. The work is enqueued on the plan's queue and runs asynchronously.
    pub fn execute_device(
        &mut self,
        direction: Direction,
        input: DeviceRegion,
        output: Option<DeviceRegion>,
    ) -> Result<()> {
        let direction = self.direction(direction)?;
        let in_place = output.is_none();
        let (in_bytes, out_bytes) = self.shape()?.extents(in_place);
        let queue = self.queue()?;
        let auto_allocation = self.auto_allocation;
        let work_area = self.work_area.clone();
        if let Some(output) = &output {
            let same = output.buffer.raw() == input.buffer.raw();
            if same && input.offset < output.offset + out_bytes && output.offset < input.offset + in_bytes {
                return fail(ErrorKind::InvalidArgValue, "the input and output overlap without being the same pointer");
            }
        }
        // Memory of another context fails before a bake for this queue, which could not use it anyway.
        let context = queue.context()?;
        check_context(&input, context, "input")?;
        if let Some(output) = &output {
            check_context(output, context, "output")?;
        }
        let output_has_gaps = self.shape()?.output_has_gaps(false);
        let tmp_bytes = self.variant(&queue, in_place)?.tmp_bytes();
        if self.fenced {
            enqueue_barrier(queue.raw())?;
        }
        let mut binder = Binder {
            queue: &queue,
            device: device_info(queue.device()?)?,
            staging: &mut self.region_staging,
            staged: 0,
        };
        let input_bytes = if in_place { in_bytes.max(out_bytes) } else { in_bytes };
        let input = binder.bind(input, input_bytes, Contents::Copied, "input")?;
        let output = match output {
            // The transform writes only its values; what lies between them must come back unchanged.
            Some(region) => {
                let contents = if output_has_gaps { Contents::Copied } else { Contents::Written };
                Some(binder.bind(region, out_bytes, contents, "output")?)
            }
            None => None,
        };
        let tmp = match (tmp_bytes, work_area) {
            (0, _) => None,
            (_, Some(area)) => {
                check_context(&area, context, "work area")?;
                Some(binder.bind(area, tmp_bytes, Contents::Scratch, "work area")?)
            }
            (_, None) if !auto_allocation => {
                return fail(
                    ErrorKind::NoWorkspace,
                    format!("the plan needs a {tmp_bytes}-byte work area and automatic allocation is off"),
                )
            }
            (_, None) => None,
        };
        let staged = binder.staged > 0;
        let wait: Vec<RawEvent> = self.region_staging.last_use.iter().filter(|_| staged).map(|e| e.raw()).collect();
        let outputs: Vec<RawMem> = output.iter().map(|b| b.buffer.raw()).collect();
        let baked = self.variant(&queue, in_place)?;
        let transformed = baked.enqueue(
            direction,
            1.0,
            &queue,
            &wait,
            &[input.buffer.raw()],
            &outputs,
            tmp.as_ref().map(|t| t.buffer.raw()),
        )?;
        let written_back = match &output {
            Some(bound) => bound.write_back(&queue, &transformed)?,
            None => input.write_back(&queue, &transformed)?,
        };
        if staged {
            self.region_staging.last_use = Some(written_back.unwrap_or(transformed));
        }
        if self.fenced {
            enqueue_barrier(queue.raw())?;
        }
        queue.flush()
    }
}

/// What a transform needs of a region it is given.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Contents {
    /// Its values: a staging copy starts as a copy of it.
    Copied,
    /// Nothing; the transform writes every byte the caller reads.
    Written,
    /// Scratch: neither its values nor its place matter.
    Scratch,
}

/// Fails when `region` lies in another context than `context`.
fn check_context(region: &DeviceRegion, context: RawContext, what: &str) -> Result<()> {
    if Buffer::context_of_raw(region.buffer.raw())? != context {
        return fail(ErrorKind::InvalidContext, format!("the {what} was allocated in another context than the plan's"));
    }
    Ok(())
}

/// Binds the device regions of one execution to buffers the plan can take.
struct Binder<'a> {
    queue: &'a Queue,
    device: Arc<DeviceInfo>,
    staging: &'a mut Staging,
    /// Staging buffers taken so far.
    staged: usize,
}

impl Binder<'_> {
    /// `bytes` bytes of `region` as a buffer of their own: the allocation itself at offset 0, a sub-buffer at
    /// an aligned offset (for scratch, the first aligned offset with room), or otherwise a staging buffer kept
    /// by the plan (a copy of the region's values where they matter), which goes back after the transform.
    fn bind(&mut self, region: DeviceRegion, bytes: usize, contents: Contents, what: &str) -> Result<Bound> {
        if region.available < bytes {
            return fail(
                ErrorKind::InvalidBufferSize,
                format!(
                    "the {what} reaches {bytes} bytes; its device allocation holds {} from there",
                    region.available
                ),
            );
        }
        if region.offset == 0 {
            return Ok(Bound { buffer: region.buffer, copied_from: None, bytes });
        }
        let alignment = self.device.sub_buffer_align;
        let skip = match contents {
            Contents::Scratch => region.offset.next_multiple_of(alignment) - region.offset,
            Contents::Copied | Contents::Written => 0,
        };
        if (region.offset + skip) % alignment == 0 && region.available - bytes >= skip {
            let buffer = sub_buffer(&region.buffer, region.offset + skip, bytes)?;
            return Ok(Bound { buffer, copied_from: None, bytes });
        }
        let index = self.staged;
        let staged = self.staging.at_least(&context_of(self.queue)?, self.device.kind, index, bytes)?.clone();
        self.staged += 1;
        if contents == Contents::Copied {
            // After whatever used the staging last (on this queue or the plan's queue before).
            let wait: Vec<RawEvent> = self.staging.last_use.iter().map(|e| e.raw()).collect();
            let copied =
                enqueue_copy(self.queue.raw(), region.buffer.raw(), staged.raw(), region.offset, 0, bytes, &wait)?;
            self.staging.last_use = Some(copied);
        }
        let copied_from = (contents != Contents::Scratch).then_some(region);
        Ok(Bound { buffer: staged, copied_from, bytes })
    }
}

/// A device region bound for one execution, and where its staging copy, if any, goes back to.
struct Bound {
    buffer: Buffer,
    copied_from: Option<DeviceRegion>,
    bytes: usize,
}

impl Bound {
    /// Copies a staged result back to where it belongs once `transformed` completes; returns the copy's event.
    fn write_back(&self, queue: &Queue, transformed: &Event) -> Result<Option<Event>> {
        self.copied_from
            .as_ref()
            .map(|region| {
                let wait = [transformed.raw()];
                enqueue_copy(queue.raw(), self.buffer.raw(), region.buffer.raw(), 0, region.offset, self.bytes, &wait)
            })
            .transpose()
    }
}
