//! cuFFT semantics over plan-layer plans: transform types, row-major sizes, cuFFT's advanced layout
//! (`inembed`/`onembed`), unnormalised inverses, work areas, streams, and execution on device memory or on
//! host memory (in one go, or streamed in slabs when it does not fit the device).

pub use super::outofcore::HostData;
use super::outofcore::{self, DeviceBudget, Streamed};
use super::registry::{Shared, CUFFT_PLANS};
use super::{Baked, Direction, Layout, Plan, Settings};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::planner;
use crate::planner::tuning::{Target, Tuning};
use crate::runtime::cl::{enqueue_barrier, enqueue_copy, read_buffer, write_buffer, RawContext, RawEvent, RawMem};
use crate::runtime::devmem::{context_of, default_stream, DeviceRegion};
use crate::runtime::transfer::sub_buffer;
use crate::runtime::working::{self, WorkingBuffer};
use crate::runtime::{device_info, Buffer, Context, DeviceInfo, DeviceKind, Event, Queue};
use crate::types::{Precision, TransformKind};
use std::sync::Arc;

/// cuFFT's transform types, with cuFFT's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FftType {
    R2C = 0x2a,
    C2R = 0x2c,
    C2C = 0x29,
    D2Z = 0x6a,
    Z2D = 0x6c,
    Z2Z = 0x69,
}

impl FftType {
    pub fn from_raw(value: i32) -> Option<FftType> {
        Some(match value {
            0x2a => FftType::R2C,
            0x2c => FftType::C2R,
            0x29 => FftType::C2C,
            0x6a => FftType::D2Z,
            0x6c => FftType::Z2D,
            0x69 => FftType::Z2Z,
            _ => return None,
        })
    }

    pub fn precision(self) -> Precision {
        match self {
            FftType::R2C | FftType::C2R | FftType::C2C => Precision::Single,
            FftType::D2Z | FftType::Z2D | FftType::Z2Z => Precision::Double,
        }
    }

    pub fn kind(self) -> TransformKind {
        match self {
            FftType::R2C | FftType::D2Z => TransformKind::R2C,
            FftType::C2R | FftType::Z2D => TransformKind::C2R,
            FftType::C2C | FftType::Z2Z => TransformKind::C2C,
        }
    }

    /// Bytes of one input and one output element.
    fn units(self) -> (usize, usize) {
        let (real, complex) = (self.precision().real_bytes(), self.precision().complex_bytes());
        match self.kind() {
            TransformKind::C2C => (complex, complex),
            TransformKind::R2C => (real, complex),
            TransformKind::C2R => (complex, real),
        }
    }
}

/// One side of cuFFT's advanced layout: storage sizes (row-major; the first is never used), the stride
/// between elements, and the distance between batch entries, in elements of that side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embed {
    pub dims: Vec<usize>,
    pub stride: usize,
    pub dist: usize,
}

impl Embed {
    fn packed(dims: Vec<usize>) -> Embed {
        let dist = dims.iter().product();
        Embed { dims, stride: 1, dist }
    }

    /// Strides per axis, fastest first, as plan settings take them: cuFFT places element (x0, .., xr-1) of
    /// batch entry b at b * dist + stride * ((x0 * dims[1] + x1) * dims[2] + ..). A stride past the address
    /// space saturates, so that `extent` overflows and `validate` refuses it, unless its axis has one element.
    fn strides(&self) -> Vec<usize> {
        let mut strides = Vec::with_capacity(self.dims.len());
        let mut s = self.stride;
        for &d in self.dims.iter().rev() {
            strides.push(s);
            s = s.saturating_mul(d);
        }
        strides
    }
}

/// What a cuFFT plan transforms: sizes (row-major, last fastest), type, batch and layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub n: Vec<usize>,
    pub fft_type: FftType,
    pub batch: usize,
    /// `inembed`/`onembed` with their strides and distances; `None` is cuFFT's basic (packed) layout.
    pub advanced: Option<(Embed, Embed)>,
    /// The planner's overrides: the plan's (`fftxSetTuning`) once it is made.
    pub tuning: Tuning,
}

impl Shape {
    /// Rank 1 to 3, sizes and batch of at least 1, an advanced layout that holds the data, no overflow.
    pub fn validate(&self) -> Result<()> {
        let rank = self.n.len();
        if !(1..=3).contains(&rank) {
            return fail(ErrorKind::InvalidSize, format!("rank {rank} is not 1, 2 or 3"));
        }
        if self.n.contains(&0) || self.batch == 0 {
            return fail(ErrorKind::InvalidSize, "a size or the batch is zero");
        }
        let total = self.n.iter().chain([&self.batch]).try_fold(1usize, |a, &b| a.checked_mul(b));
        if total.and_then(|t| t.checked_mul(16)).is_none() {
            return fail(ErrorKind::InvalidSize, "the sizes and batch overflow the address space");
        }
        if let Some((input, output)) = &self.advanced {
            let (in_logical, out_logical) = self.logical();
            for (embed, logical, side) in [(input, &in_logical, "inembed"), (output, &out_logical, "onembed")] {
                if embed.dims.len() != rank {
                    return fail(ErrorKind::Bugcheck, format!("{side} has {} sizes for rank {rank}", embed.dims.len()));
                }
                if embed.stride == 0 || (self.batch > 1 && embed.dist == 0) {
                    return fail(ErrorKind::InvalidArgValue, format!("a stride or distance of {side} is zero"));
                }
                if let Some(i) = (1..rank).find(|&i| embed.dims[i] < logical[i]) {
                    return fail(
                        ErrorKind::InvalidArgValue,
                        format!(
                            "{side}[{i}] = {} is smaller than the {} values it must hold",
                            embed.dims[i], logical[i]
                        ),
                    );
                }
                let extent = self.extent(embed, logical);
                if extent.is_none() {
                    return fail(ErrorKind::InvalidSize, format!("the {side} layout overflows the address space"));
                }
            }
            let (strides, lengths): (Vec<usize>, Vec<usize>) =
                (output.strides(), out_logical.iter().rev().copied().collect());
            if !super::disjoint(&lengths, &strides, output.dist, self.batch) {
                return fail(
                    ErrorKind::InvalidArgValue,
                    format!(
                        "onembed {:?}, ostride {} and odist {} place two results at one position",
                        output.dims, output.stride, output.dist
                    ),
                );
            }
        }
        Ok(())
    }

    /// The sizes of the input and output data: a complex side of a real transform keeps n / 2 + 1 values
    /// along the last dimension.
    fn logical(&self) -> (Vec<usize>, Vec<usize>) {
        let real = self.n.clone();
        let mut complex = self.n.clone();
        if let Some(last) = complex.last_mut() {
            if self.fft_type.kind().is_real() {
                *last = *last / 2 + 1;
            }
        }
        match self.fft_type.kind() {
            TransformKind::C2C => (real.clone(), real),
            TransformKind::R2C => (real, complex),
            TransformKind::C2R => (complex, real),
        }
    }

    /// The input and output layouts for a transform in place or not. cuFFT's basic layout packs both
    /// sides, except that in place the real rows are padded to the 2 (n / 2 + 1) values of the complex rows
    /// they share storage with.
    fn embeds(&self, in_place: bool) -> (Embed, Embed) {
        if let Some((input, output)) = &self.advanced {
            return (input.clone(), output.clone());
        }
        let (input, output) = self.logical();
        let pad = |mut dims: Vec<usize>| {
            if in_place {
                if let Some(last) = dims.last_mut() {
                    *last = 2 * (self.n[self.n.len() - 1] / 2 + 1);
                }
            }
            Embed::packed(dims)
        };
        match self.fft_type.kind() {
            TransformKind::C2C => (Embed::packed(input), Embed::packed(output)),
            TransformKind::R2C => (pad(input), Embed::packed(output)),
            TransformKind::C2R => (Embed::packed(input), pad(output)),
        }
    }

    /// Elements from the first to one past the last that `embed` reaches over `logical` sizes.
    fn extent(&self, embed: &Embed, logical: &[usize]) -> Option<usize> {
        let strides = embed.strides();
        let mut last = (self.batch - 1).checked_mul(embed.dist)?;
        for (l, s) in logical.iter().rev().zip(&strides) {
            last = last.checked_add((l - 1).checked_mul(*s)?)?;
        }
        last.checked_add(1)
    }

    /// Bytes the input and the output reach.
    pub fn extents(&self, in_place: bool) -> (usize, usize) {
        let (input, output) = self.embeds(in_place);
        let (in_logical, out_logical) = self.logical();
        let (in_unit, out_unit) = self.fft_type.units();
        let reach = |e: &Embed, l: &[usize], unit: usize| self.extent(e, l).unwrap_or(usize::MAX).saturating_mul(unit);
        (reach(&input, &in_logical, in_unit), reach(&output, &out_logical, out_unit))
    }

    /// The device buffers a host execution stages its data in: one in place, input and output otherwise.
    fn staging_sizes(&self, in_place: bool) -> Vec<usize> {
        let (in_bytes, out_bytes) = self.extents(in_place);
        if in_place {
            vec![in_bytes.max(out_bytes)]
        } else {
            vec![in_bytes, out_bytes]
        }
    }

    /// True when the output layout leaves gaps between the values a transform writes.
    fn output_has_gaps(&self, in_place: bool) -> bool {
        let (_, output) = self.embeds(in_place);
        let (_, logical) = self.logical();
        self.extent(&output, &logical) != Some(logical.iter().product::<usize>() * self.batch)
    }

    /// The plan settings (clFFT semantics: fastest axis first, explicit layouts, scales) of this shape.
    pub fn settings(&self, context: Context, in_place: bool) -> Settings {
        let lengths: Vec<usize> = self.n.iter().rev().copied().collect();
        let (input, output) = self.embeds(in_place);
        let mut settings = Settings::new(context, &lengths);
        settings.in_strides = input.strides();
        settings.out_strides = output.strides();
        settings.in_dist = input.dist;
        settings.out_dist = output.dist;
        (settings.in_layout, settings.out_layout) = match self.fft_type.kind() {
            TransformKind::C2C => (Layout::ComplexInterleaved, Layout::ComplexInterleaved),
            TransformKind::R2C => (Layout::Real, Layout::HermitianInterleaved),
            TransformKind::C2R => (Layout::HermitianInterleaved, Layout::Real),
        };
        settings.precision = self.fft_type.precision();
        settings.in_place = in_place;
        settings.batch = self.batch;
        // cuFFT's transforms are unnormalised both ways.
        settings.forward_scale = 1.0;
        settings.backward_scale = 1.0;
        settings.tuning = self.tuning;
        settings
    }

    /// A transform in the basic layout that the out-of-core path streams through `device`.
    fn streams(&self, device: &DeviceInfo) -> bool {
        let (kind, precision) = (self.fft_type.kind(), self.fft_type.precision());
        self.advanced.is_none() && outofcore::streams(&self.n, kind, precision, DeviceBudget::for_slabs(device))
    }

    /// The basic layout, and one transform's data fits `device`: a batch too large for it runs in parts.
    fn one_transform_fits(&self, device: &DeviceInfo) -> bool {
        let one = Shape { batch: 1, ..self.clone() };
        self.advanced.is_none() && one.fits(device, false, 0) && one.fits(device, true, 0)
    }

    /// The data of an execution, in place or not, and `tmp_bytes` of scratch fit `device`.
    fn fits(&self, device: &DeviceInfo, in_place: bool, tmp_bytes: usize) -> bool {
        let buffers = self.staging_sizes(in_place);
        buffers.iter().all(|&b| b as u64 <= device.max_alloc_bytes)
            && buffers.iter().sum::<usize>().saturating_add(tmp_bytes) as u64 <= device.global_mem_bytes
    }

    /// Scratch bytes a device execution needs on `device`, in place or not (0 where that way is impossible).
    fn work_bytes(&self, context: &Context, device: &DeviceInfo) -> usize {
        [false, true]
            .into_iter()
            .filter_map(|in_place| {
                let problem = self.settings(context.clone(), in_place).problem().ok()?;
                let exec = planner::plan(&problem, &Target::new(device, self.tuning)).ok()?;
                Some(exec.tmp_elements() * problem.precision.complex_bytes())
            })
            .max()
            .unwrap_or(0)
    }
}

/// Scratch bytes `shape` would need on the default device, without making a plan (cuFFT's estimates).
pub fn estimate_work_bytes(shape: &Shape) -> Result<usize> {
    shape.validate()?;
    let stream = default_stream()?;
    let device = device_info(stream.queue.device()?)?;
    Ok(shape.work_bytes(&stream.context, &device))
}

/// A cuFFT-style plan: a shape once made, the queue it runs on, the plan-layer plans baked for it (out of
/// place and in place), the caller's work area, and device buffers kept for host-memory executions.
pub struct CuPlan {
    shape: Option<Shape>,
    /// The planner's overrides its shape takes when it is made.
    tuning: Tuning,
    /// The caller's queue from `fftxSetStream`; `None` runs on the default stream.
    stream: Option<Queue>,
    /// The stream is an out-of-order queue: a transform fences itself with barriers, so that it runs after
    /// the commands enqueued before it and those enqueued after it wait for it, as on a CUDA stream.
    fenced: bool,
    /// Baked plans, indexed by `in_place as usize`.
    variants: [Option<Plan>; 2],
    /// Baked plans for parts of the batch, where host data runs in parts: (in place, batch, plan).
    part_variants: Vec<(bool, usize, Plan)>,
    work_area: Option<DeviceRegion>,
    auto_allocation: bool,
    /// Device buffers for host executions.
    staging: Staging,
    /// Device buffers standing in for regions of device executions at offsets the device makes no
    /// sub-buffers at.
    region_staging: Staging,
}

/// Device buffers kept from one execution to the next, and the last command that used them; retired when
/// dropped.
#[derive(Default)]
struct Staging {
    buffers: Vec<WorkingBuffer>,
    last_use: Option<Event>,
}

impl Staging {
    /// Buffer `index`, of at least `bytes` bytes: the one kept there, or a new one where there is none yet or
    /// it is smaller (the smaller one is retired). Buffers below `index` must exist.
    fn at_least(&mut self, context: &Context, kind: DeviceKind, index: usize, bytes: usize) -> Result<&Buffer> {
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

impl CuPlan {
    pub fn new(tuning: Tuning) -> CuPlan {
        CuPlan {
            shape: None,
            tuning,
            stream: None,
            fenced: false,
            variants: [None, None],
            part_variants: Vec::new(),
            work_area: None,
            auto_allocation: true,
            staging: Staging::default(),
            region_staging: Staging::default(),
        }
    }

    pub fn shape(&self) -> Result<&Shape> {
        self.shape.as_ref().ok_or_else(|| Error::new(ErrorKind::InvalidPlan, "the plan has not been made yet"))
    }

    fn queue(&self) -> Result<Queue> {
        match &self.stream {
            Some(queue) => Ok(queue.clone()),
            None => Ok(default_stream()?.queue.clone()),
        }
    }

    /// Sets the planner's overrides, before the plan is made.
    pub fn set_tuning(&mut self, tuning: Tuning) -> Result<()> {
        if self.shape.is_some() {
            return fail(ErrorKind::InvalidPlan, "the plan is already made; set its tuning before fftxMakePlan");
        }
        self.tuning = tuning;
        Ok(())
    }

    /// Sets the shape and bakes the out-of-place plan; returns the work area size in bytes.
    pub fn make(&mut self, shape: Shape) -> Result<usize> {
        if self.shape.is_some() {
            return fail(ErrorKind::InvalidPlan, "the plan is already made; create a new handle for another shape");
        }
        let shape = Shape { tuning: self.tuning, ..shape };
        shape.validate()?;
        let queue = self.queue()?;
        let context = context_of(&queue)?;
        let device = device_info(queue.device()?)?;
        let mut plan = Plan::new(shape.settings(context.clone(), false));
        // A shape too large for the device still streams from host memory; only the device path needs a bake.
        match plan.bake(&queue) {
            Ok(_) => self.variants[0] = Some(plan),
            Err(e) => match (too_large(e.kind), shape.streams(&device) || shape.one_transform_fits(&device)) {
                (true, true) => crate::log!(
                    crate::log::Topic::Info,
                    "no device plan ({}); host executions will run in parts or stream through the device",
                    e.message
                ),
                (true, false) if e.kind == ErrorKind::InvalidBufferSize => {
                    return fail(ErrorKind::InvalidSize, e.message)
                }
                _ => return Err(e),
            },
        }
        let work = shape.work_bytes(&context, &device);
        self.shape = Some(shape);
        Ok(work)
    }

    /// Work area bytes a device execution needs.
    pub fn work_bytes(&self) -> Result<usize> {
        self.work_bytes_for(self.shape()?)
    }

    /// Work area bytes a device execution of `shape` would need on this plan's device.
    pub fn work_bytes_for(&self, shape: &Shape) -> Result<usize> {
        shape.validate()?;
        let queue = self.queue()?;
        let device = device_info(queue.device()?)?;
        Ok(shape.work_bytes(&context_of(&queue)?, &device))
    }

    /// Binds the plan to `queue` (or back to the default stream); plans baked for another context are
    /// dropped and baked again on next use.
    pub fn set_stream(&mut self, queue: Option<Queue>) -> Result<()> {
        let old = self.queue()?;
        let new = match &queue {
            Some(q) => q.clone(),
            None => default_stream()?.queue.clone(),
        };
        if old.context()? != new.context()? || old.device()? != new.device()? {
            self.variants = [None, None];
            self.staging = Staging::default();
            self.region_staging = Staging::default();
        }
        self.fenced = match &queue {
            Some(q) => !q.in_order()?,
            None => false,
        };
        self.stream = queue;
        Ok(())
    }

    pub fn set_work_area(&mut self, area: DeviceRegion) {
        self.work_area = Some(area);
    }

    pub fn set_auto_allocation(&mut self, on: bool) {
        self.auto_allocation = on;
    }

    /// The baked plan for this placement, baked on `queue` on first use.
    fn variant(&mut self, queue: &Queue, in_place: bool) -> Result<&mut Baked> {
        let settings = self.shape()?.settings(context_of(queue)?, in_place);
        self.variants[in_place as usize].get_or_insert_with(|| Plan::new(settings)).bake(queue)
    }

    /// The direction a transform of this plan runs in: given for complex transforms, fixed for real ones.
    fn direction(&self, asked: Direction) -> Result<Direction> {
        Ok(match self.shape()?.fft_type.kind() {
            TransformKind::C2C => asked,
            TransformKind::R2C => Direction::Forward,
            TransformKind::C2R => Direction::Backward,
        })
    }

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

    /// Transforms host memory: copied to the device, transformed and copied back; where the device cannot
    /// hold the data, in parts of the batch that it can hold, or else streamed through it in slabs. Returns
    /// when the result is in host memory.
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

/// A failure that says the device cannot hold what was asked of it.
fn too_large(kind: ErrorKind) -> bool {
    matches!(kind, ErrorKind::OutOfResources | ErrorKind::MemObjectAllocationFailure | ErrorKind::InvalidBufferSize)
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

/// Registers a plan; its handle is an int counting up from 1, never reused (`registry`).
pub fn insert(plan: CuPlan) -> Result<i32> {
    Ok(CUFFT_PLANS.insert_with(|_| plan)? as i32)
}

pub fn get(handle: i32) -> Result<Shared<CuPlan>> {
    CUFFT_PLANS.get(usize::try_from(handle).unwrap_or(0))
}

pub fn remove(handle: i32) -> Result<Shared<CuPlan>> {
    CUFFT_PLANS.remove(usize::try_from(handle).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Precision;

    fn shape(n: &[usize], fft_type: FftType, batch: usize) -> Shape {
        Shape { n: n.to_vec(), fft_type, batch, advanced: None, tuning: Tuning::default() }
    }

    #[test]
    fn advanced_layout_follows_cufft_formula() {
        // Element (x, y) of batch b at b * idist + istride * (x * inembed[1] + y).
        let embed = Embed { dims: vec![99, 10], stride: 3, dist: 1000 };
        assert_eq!(embed.strides(), vec![3, 30]);
        let embed = Embed { dims: vec![0, 6, 5], stride: 2, dist: 0 };
        assert_eq!(embed.strides(), vec![2, 10, 60]);
    }

    #[test]
    fn basic_layouts_pack_and_pad_real_rows_in_place() {
        let s = shape(&[4, 6], FftType::R2C, 2);
        assert_eq!(s.embeds(false), (Embed::packed(vec![4, 6]), Embed::packed(vec![4, 4])));
        assert_eq!(s.embeds(true), (Embed::packed(vec![4, 8]), Embed::packed(vec![4, 4])));
        assert_eq!(s.extents(false), (4 * 6 * 2 * 4, 4 * 4 * 2 * 8));
        let s = shape(&[5], FftType::Z2D, 1);
        assert_eq!(s.embeds(true), (Embed::packed(vec![3]), Embed::packed(vec![6])));
        assert_eq!(s.extents(true), (3 * 16, 5 * 8));
    }

    #[test]
    fn settings_reverse_sizes_and_leave_inverses_unscaled() {
        let s = shape(&[3, 4, 5], FftType::Z2Z, 7);
        let settings = s.settings(default_stream().unwrap().context.clone(), false);
        assert_eq!(settings.lengths, vec![5, 4, 3]);
        assert_eq!(settings.in_strides, vec![1, 5, 20]);
        assert_eq!(settings.in_dist, 60);
        assert_eq!(settings.precision, Precision::Double);
        assert_eq!(settings.backward_scale, 1.0);
    }

    #[test]
    fn validation_rejects_bad_shapes() {
        assert_eq!(shape(&[], FftType::C2C, 1).validate().unwrap_err().kind, ErrorKind::InvalidSize);
        assert_eq!(shape(&[4, 0], FftType::C2C, 1).validate().unwrap_err().kind, ErrorKind::InvalidSize);
        assert_eq!(shape(&[4], FftType::C2C, 0).validate().unwrap_err().kind, ErrorKind::InvalidSize);
        assert_eq!(shape(&[usize::MAX / 2, 4], FftType::C2C, 1).validate().unwrap_err().kind, ErrorKind::InvalidSize);
        let mut s = shape(&[4, 8], FftType::R2C, 1);
        s.advanced =
            Some((Embed { dims: vec![4, 8], stride: 1, dist: 32 }, Embed { dims: vec![4, 4], stride: 1, dist: 16 }));
        assert_eq!(s.validate().unwrap_err().kind, ErrorKind::InvalidArgValue);
    }
}
