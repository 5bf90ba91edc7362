//! cuFFT semantics over plan-layer plans: transform types, row-major sizes, cuFFT's advanced layout
//! (`inembed`/`onembed`), unnormalised inverses, work areas, streams, and execution on device memory or on
//! host memory (in one go, or streamed in slabs when it does not fit the device).

mod device;
mod host;
mod shape;

pub use super::outofcore::HostData;
use super::registry::{Shared, CUFFT_PLANS};
use super::{Baked, Direction, Plan, Settings};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::planner::tuning::Tuning;
use crate::runtime::devmem::{context_of, default_stream, DeviceRegion};
use crate::runtime::{device_info, Queue};
use crate::types::TransformKind;
use host::Staging;
pub use shape::{estimate_work_bytes, Embed, FftType, Shape};

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
    /// Plans asked to run without scratch, for large host data where it lies, indexed as `variants`.
    lean_variants: [Option<Plan>; 2],
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

impl CuPlan {
    pub fn new(tuning: Tuning) -> CuPlan {
        CuPlan {
            shape: None,
            tuning,
            stream: None,
            fenced: false,
            variants: [None, None],
            lean_variants: [None, None],
            part_variants: Vec::new(),
            work_area: None,
            auto_allocation: true,
            staging: Staging::default(),
            region_staging: Staging::default(),
        }
    }

    pub fn shape(&self) -> Result<&Shape> {
        self.shape.as_ref().ok_or_else(not_made)
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
            self.lean_variants = [None, None];
            self.part_variants.clear();
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
        let shape = self.shape.as_ref().ok_or_else(not_made)?;
        let plan = match &mut self.variants[in_place as usize] {
            Some(plan) => plan,
            // Settings and the queue's context only for the first execution of this placement.
            slot @ None => slot.insert(Plan::new(shape.settings(context_of(queue)?, in_place))),
        };
        plan.bake(queue)
    }

    /// The plan for this placement that asks for no scratch (the planner falls back to scratch where it
    /// cannot do without), baked on `queue` on first use.
    fn lean_variant(&mut self, queue: &Queue, in_place: bool) -> Result<&mut Baked> {
        let shape = self.shape.as_ref().ok_or_else(not_made)?;
        let plan = match &mut self.lean_variants[in_place as usize] {
            Some(plan) => plan,
            slot @ None => {
                let settings = Settings { no_mem_alloc: Some(true), ..shape.settings(context_of(queue)?, in_place) };
                slot.insert(Plan::new(settings))
            }
        };
        plan.bake(queue)
    }

    /// The direction a transform of this plan runs in: given for complex transforms, fixed for real ones.
    fn direction(&self, asked: Direction) -> Result<Direction> {
        Ok(match self.shape()?.fft_type.kind() {
            TransformKind::C2C => asked,
            TransformKind::R2C => Direction::Forward,
            TransformKind::C2R => Direction::Backward,
        })
    }
}

/// The failure of a call that needs the plan made first.
fn not_made() -> Error {
    Error::new(ErrorKind::InvalidPlan, "the plan has not been made yet")
}

/// A failure that says the device cannot hold what was asked of it.
fn too_large(kind: ErrorKind) -> bool {
    matches!(kind, ErrorKind::OutOfResources | ErrorKind::MemObjectAllocationFailure | ErrorKind::InvalidBufferSize)
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
