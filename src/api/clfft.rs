//! The clFFT 2.12 C API, binary-compatible with `clFFT.h`: same names, enum values, struct layout and
//! status codes. Pointers come from C callers, who must pass null or valid pointers of the documented sizes:
//! each function's `# Safety` says which, as `clFFT.h` documents them.
#![allow(non_camel_case_types, non_snake_case)]

use super::{c_array, c_array_mut, c_str, guard, load, non_null, out_param, store};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::plan::{check_lengths, library, registry, Callback, Direction, Layout, Plan, Settings};
use crate::runtime::cl::{RawEvent, RawMem};
use crate::runtime::{Buffer, Context, Queue};
use crate::types::Precision;
use ocl::core::ffi::{cl_command_queue, cl_context, cl_event, cl_float, cl_mem, cl_uint, cl_ulong};
use std::ffi::{c_char, c_int, c_void, CStr};

pub type clfftStatus = c_int;
pub type clfftPlanHandle = usize;
pub type clfftDim = c_int;
pub type clfftLayout = c_int;
pub type clfftPrecision = c_int;
pub type clfftDirection = c_int;
pub type clfftResultLocation = c_int;
pub type clfftResultTransposed = c_int;
pub type clfftCallbackType = c_int;
pub const PRECALLBACK: clfftCallbackType = 0;
pub const POSTCALLBACK: clfftCallbackType = 1;
pub type clfftBakeNotify = Option<unsafe extern "C" fn(clfftPlanHandle, *mut c_void)>;

#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct clfftSetupData {
    pub major: cl_uint,
    pub minor: cl_uint,
    pub patch: cl_uint,
    pub debugFlags: cl_ulong,
}

pub const CLFFT_SUCCESS: clfftStatus = 0;
pub const CLFFT_BUGCHECK: clfftStatus = 4096;
pub const CLFFT_NOTIMPLEMENTED: clfftStatus = 4097;
pub const CLFFT_TRANSPOSED_NOTIMPLEMENTED: clfftStatus = 4098;
pub const CLFFT_INVALID_PLAN: clfftStatus = 4102;
pub const CLFFT_DEVICE_NO_DOUBLE: clfftStatus = 4103;
pub const CLFFT_DEVICE_MISMATCH: clfftStatus = 4104;
pub const CLFFT_INVALID_ARG_VALUE: clfftStatus = -50;
pub const CLFFT_INVALID_ARG_INDEX: clfftStatus = -49;
pub const CLFFT_INVALID_HOST_PTR: clfftStatus = -37;

pub const VERSION: (cl_uint, cl_uint, cl_uint) = (2, 12, 2);

const CLFFT_SINGLE: c_int = 1;
const CLFFT_DOUBLE: c_int = 2;
const CLFFT_SINGLE_FAST: c_int = 3;
const CLFFT_DOUBLE_FAST: c_int = 4;
const CLFFT_FORWARD: c_int = -1;
const CLFFT_BACKWARD: c_int = 1;
const ENDDIRECTION: c_int = 2;
const CLFFT_INPLACE: c_int = 1;
const CLFFT_OUTOFPLACE: c_int = 2;
const CLFFT_NOTRANSPOSE: c_int = 1;
const CLFFT_TRANSPOSED: c_int = 2;

/// The clFFT status for an error kind.
pub fn status_of(kind: ErrorKind) -> clfftStatus {
    match kind {
        ErrorKind::InvalidPlan => CLFFT_INVALID_PLAN,
        ErrorKind::InvalidArgValue | ErrorKind::InvalidSize | ErrorKind::InvalidType => CLFFT_INVALID_ARG_VALUE,
        ErrorKind::NoWorkspace => -59,
        ErrorKind::InvalidHostPtr => CLFFT_INVALID_HOST_PTR,
        ErrorKind::InvalidContext => -34,
        ErrorKind::InvalidCommandQueue => -36,
        ErrorKind::InvalidMemObject => -38,
        ErrorKind::InvalidBufferSize => -61,
        ErrorKind::InvalidOperation => -59,
        ErrorKind::InvalidEventWaitList => -57,
        ErrorKind::NotImplemented => CLFFT_NOTIMPLEMENTED,
        ErrorKind::TransposedNotImplemented => CLFFT_TRANSPOSED_NOTIMPLEMENTED,
        ErrorKind::DeviceNoDouble => CLFFT_DEVICE_NO_DOUBLE,
        ErrorKind::DeviceMismatch => CLFFT_DEVICE_MISMATCH,
        ErrorKind::OutOfResources => -5,
        ErrorKind::OutOfHostMemory => -6,
        ErrorKind::MemObjectAllocationFailure => -4,
        ErrorKind::BuildProgramFailure => -11,
        ErrorKind::Bugcheck => CLFFT_BUGCHECK,
        ErrorKind::OpenCl(code) => code,
    }
}

pub(super) fn run(name: &str, body: impl FnOnce() -> Result<()>) -> clfftStatus {
    match guard(name, body) {
        Ok(()) => CLFFT_SUCCESS,
        Err(e) => status_of(e.kind),
    }
}

/// Runs `f` on the plan behind `handle`, holding its lock.
fn with_plan<T>(handle: clfftPlanHandle, f: impl FnOnce(&mut Plan) -> Result<T>) -> Result<T> {
    let shared = registry::CLFFT_PLANS.get(handle)?;
    let mut plan = registry::lock(&shared);
    f(&mut plan)
}

fn dim_count(dim: clfftDim) -> Result<usize> {
    match dim {
        1..=3 => Ok(dim as usize),
        _ => fail(ErrorKind::NotImplemented, format!("dimension {dim} is not CLFFT_1D, CLFFT_2D or CLFFT_3D")),
    }
}

/// Reads `dim` values from a caller's array.
///
/// # Safety
/// `ptr` is null or points to `dim` values when `dim` is 1, 2 or 3.
unsafe fn read_array(ptr: *const usize, dim: clfftDim, what: &str) -> Result<Vec<usize>> {
    non_null(ptr, what)?;
    let n = dim_count(dim)?;
    // SAFETY: checked non-null above; the caller's contract gives `n` (= `dim`) values.
    Ok(unsafe { c_array(ptr, n) }.to_vec())
}

/// Writes the first `dim` values of `values` to a caller's array.
///
/// # Safety
/// `ptr` is null or points to room for `dim` values when `dim` is 1, 2 or 3.
unsafe fn write_array(ptr: *mut usize, dim: clfftDim, values: &[usize], what: &str) -> Result<()> {
    non_null(ptr, what)?;
    let n = dim_count(dim)?;
    if values.len() < n {
        return fail(ErrorKind::OpenCl(CLFFT_INVALID_ARG_INDEX), format!("the plan holds {} {what}", values.len()));
    }
    // SAFETY: checked non-null above; the caller's contract gives room for `n` (= `dim`) values.
    unsafe { c_array_mut(ptr, n) }.copy_from_slice(&values[..n]);
    Ok(())
}

/// # Safety
/// `context` is null or an OpenCL context.
unsafe fn retain_context(context: cl_context) -> Result<Context> {
    if context.is_null() {
        return fail(ErrorKind::InvalidContext, "null context");
    }
    // SAFETY: checked non-null above; the caller passes a context.
    unsafe { Context::retained(context) }
        .map_err(|e| Error::new(ErrorKind::InvalidContext, format!("invalid context: {e}")))
}

/// The queue a bake or enqueue runs on: the first of `queues`. A count of 0 still names the first queue, as in
/// clFFT, whose header calls 0 queues valid for a bake.
///
/// # Safety
/// `queues` is null or points to a command queue or null.
unsafe fn first_queue(queues: *const cl_command_queue) -> Result<Queue> {
    // SAFETY: the caller passes null or a pointer to a queue.
    let queue = unsafe { load(queues) }.unwrap_or(std::ptr::null_mut());
    if queue.is_null() {
        return fail(ErrorKind::InvalidCommandQueue, "no command queue given");
    }
    // SAFETY: checked non-null above; the caller passes a command queue.
    unsafe { Queue::retained(queue) }
        .map_err(|e| Error::new(ErrorKind::InvalidCommandQueue, format!("invalid queue: {e}")))
}

/// The first queue of `queues` (required), and those of the next `count - 1` that are valid queues.
///
/// # Safety
/// `queues` is null or points to `count` command queues (at least one).
unsafe fn queue_array(queues: *const cl_command_queue, count: cl_uint) -> Result<Vec<Queue>> {
    // SAFETY: the caller passes null or a pointer to a queue.
    let mut array = vec![unsafe { first_queue(queues) }?];
    for i in 1..count as usize {
        // SAFETY: the caller passes `count` queues; the first was read above, so `queues` is not null.
        let raw = unsafe { queues.add(i).read() };
        if raw.is_null() {
            continue;
        }
        // SAFETY: checked non-null; the caller passes command queues.
        match unsafe { Queue::retained(raw) } {
            Ok(queue) => array.push(queue),
            Err(e) => crate::log!(crate::log::Topic::Info, "queue {i} of the array is ignored: {e}"),
        }
    }
    Ok(array)
}

/// `queues` less those past the first that belong to another context than `plan`'s.
fn of_the_plans_context(plan: &crate::plan::Plan, mut queues: Vec<Queue>) -> Result<Vec<Queue>> {
    let context = plan.settings().context.raw();
    let first = queues.remove(0);
    let mut kept = vec![first];
    for queue in queues {
        if queue.context()? == context {
            kept.push(queue);
        }
    }
    Ok(kept)
}

/// # Safety
/// `setupData` is null or points to a writable `clfftSetupData`.
#[no_mangle]
pub unsafe extern "C" fn clfftInitSetupData(setupData: *mut clfftSetupData) -> clfftStatus {
    run("clfftInitSetupData", || {
        let data = clfftSetupData { major: VERSION.0, minor: VERSION.1, patch: VERSION.2, debugFlags: 0 };
        // SAFETY: the caller passes null or a writable `clfftSetupData`.
        unsafe { out_param(setupData, "setupData", || Ok(data)) }
    })
}

/// # Safety
/// `setupData` is null or points to a `clfftSetupData`.
#[no_mangle]
pub unsafe extern "C" fn clfftSetup(setupData: *const clfftSetupData) -> clfftStatus {
    run("clfftSetup", || {
        // SAFETY: the caller passes null or a readable `clfftSetupData`.
        let flags = unsafe { load(setupData) }.map_or(0, |data| data.debugFlags);
        library::setup(flags);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn clfftTeardown() -> clfftStatus {
    run("clfftTeardown", || {
        library::teardown();
        Ok(())
    })
}

/// # Safety
/// `major`, `minor` and `patch` are each null or point to a writable `cl_uint`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetVersion(major: *mut cl_uint, minor: *mut cl_uint, patch: *mut cl_uint) -> clfftStatus {
    run("clfftGetVersion", || {
        non_null(major, "major")?;
        non_null(minor, "minor")?;
        non_null(patch, "patch")?;
        // SAFETY: each checked non-null above; the caller passes writable `cl_uint`s.
        unsafe {
            store(major, VERSION.0);
            store(minor, VERSION.1);
            store(patch, VERSION.2);
        }
        Ok(())
    })
}

/// # Safety
/// `plHandle` is null or points to a writable handle; `clLengths` is null or points to `dim` lengths;
/// `context` is null or an OpenCL context.
#[no_mangle]
pub unsafe extern "C" fn clfftCreateDefaultPlan(
    plHandle: *mut clfftPlanHandle,
    context: cl_context,
    dim: clfftDim,
    clLengths: *const usize,
) -> clfftStatus {
    run("clfftCreateDefaultPlan", || {
        non_null(plHandle, "plHandle")?;
        // SAFETY: the caller passes null or `dim` lengths.
        let lengths = unsafe { read_array(clLengths, dim, "clLengths") }?;
        check_lengths(&lengths)?;
        // SAFETY: the caller passes null or a context.
        let context = unsafe { retain_context(context) }?;
        let settings = Settings { tuning: super::default_tuning(), ..Settings::new(context, &lengths) };
        let handle = registry::CLFFT_PLANS.insert_with(|handle| Plan::new(settings).with_handle(handle))?;
        // SAFETY: checked non-null above; the caller passes a writable handle.
        unsafe { store(plHandle, handle) };
        Ok(())
    })
}

/// # Safety
/// `out_plHandle` is null or points to a writable handle; `new_context` is null or an OpenCL context.
#[no_mangle]
pub unsafe extern "C" fn clfftCopyPlan(
    out_plHandle: *mut clfftPlanHandle,
    new_context: cl_context,
    in_plHandle: clfftPlanHandle,
) -> clfftStatus {
    run("clfftCopyPlan", || {
        non_null(out_plHandle, "out_plHandle")?;
        let mut settings = with_plan(in_plHandle, |p| Ok(p.settings().clone()))?;
        // SAFETY: the caller passes null or a context.
        let context = unsafe { retain_context(new_context) }?;
        let has_userdata = [&settings.pre_callback, &settings.post_callback]
            .into_iter()
            .any(|c| c.as_ref().is_some_and(|c| c.userdata.is_some()));
        if has_userdata && context.raw() != settings.context.raw() {
            return fail(
                ErrorKind::InvalidContext,
                "a callback's user-data buffer belongs to the plan's context, not the new one",
            );
        }
        settings.context = context;
        let handle = registry::CLFFT_PLANS.insert_with(|handle| Plan::new(settings).with_handle(handle))?;
        // SAFETY: checked non-null above; the caller passes a writable handle.
        unsafe { store(out_plHandle, handle) };
        Ok(())
    })
}

/// Bakes for the first queue, and where `numQueues` queues hold several devices of the plan's context, for
/// the batch's share of each (`plan::spread`). Entries past the first that are null or of another context
/// are ignored, as clFFT ignores all but the first.
///
/// # Safety
/// `commQueueFFT` is null or points to `numQueues` command queues (at least one); `pfn_notify`, if given, may
/// be called with the plan and `user_data`.
#[no_mangle]
pub unsafe extern "C" fn clfftBakePlan(
    plHandle: clfftPlanHandle,
    numQueues: cl_uint,
    commQueueFFT: *mut cl_command_queue,
    pfn_notify: clfftBakeNotify,
    user_data: *mut c_void,
) -> clfftStatus {
    let status = run("clfftBakePlan", || {
        // SAFETY: the caller passes null or a pointer to `numQueues` queues.
        let queues = unsafe { queue_array(commQueueFFT, numQueues) }?;
        with_plan(plHandle, |p| {
            let queues = of_the_plans_context(p, queues)?;
            p.bake_on(&queues)
        })
    });
    if status == CLFFT_SUCCESS {
        if let Some(notify) = pfn_notify {
            // SAFETY: the caller passes a callback that takes the plan and its `user_data`.
            unsafe { notify(plHandle, user_data) };
        }
    }
    status
}

/// # Safety
/// `plHandle` is null or points to a readable and writable handle.
#[no_mangle]
pub unsafe extern "C" fn clfftDestroyPlan(plHandle: *mut clfftPlanHandle) -> clfftStatus {
    run("clfftDestroyPlan", || {
        non_null(plHandle, "plHandle")?;
        // SAFETY: checked non-null above; the caller passes a readable handle.
        let handle = unsafe { *plHandle };
        registry::CLFFT_PLANS.remove(handle)?;
        // clFFT clears the caller's handle so that it cannot be used again by mistake.
        // SAFETY: checked non-null above; the caller passes a writable handle.
        unsafe { store(plHandle, 0) };
        Ok(())
    })
}

/// # Safety
/// `context` is null or points to a writable `cl_context`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanContext(plHandle: clfftPlanHandle, context: *mut cl_context) -> clfftStatus {
    run("clfftGetPlanContext", || {
        let value = || with_plan(plHandle, |p| Ok(p.settings().context.raw()));
        // SAFETY: the caller passes null or a writable `cl_context`.
        unsafe { out_param(context, "context", value) }
    })
}

/// # Safety
/// `precision` is null or points to a writable `clfftPrecision`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanPrecision(
    plHandle: clfftPlanHandle,
    precision: *mut clfftPrecision,
) -> clfftStatus {
    run("clfftGetPlanPrecision", || {
        let value = || {
            with_plan(plHandle, |p| {
                Ok(match p.settings().precision {
                    Precision::Single => CLFFT_SINGLE,
                    Precision::Double => CLFFT_DOUBLE,
                })
            })
        };
        // SAFETY: the caller passes null or a writable `clfftPrecision`.
        unsafe { out_param(precision, "precision", value) }
    })
}

#[no_mangle]
pub extern "C" fn clfftSetPlanPrecision(plHandle: clfftPlanHandle, precision: clfftPrecision) -> clfftStatus {
    run("clfftSetPlanPrecision", || {
        let value = match precision {
            CLFFT_SINGLE => Precision::Single,
            CLFFT_DOUBLE => Precision::Double,
            // clFFT declares the fast variants but rejects them.
            CLFFT_SINGLE_FAST | CLFFT_DOUBLE_FAST => {
                return fail(
                    ErrorKind::NotImplemented,
                    format!("precision {precision} (a fast variant) is not supported"),
                )
            }
            _ => return fail(ErrorKind::InvalidArgValue, format!("precision {precision} is not a clfftPrecision")),
        };
        with_plan(plHandle, |p| {
            p.settings_mut().precision = value;
            Ok(())
        })
    })
}

/// The scale a direction names, as clFFT reads it: `CLFFT_FORWARD` (-1) the forward one, any other value below
/// `ENDDIRECTION` the backward one.
fn scale_direction(dir: clfftDirection) -> Result<Direction> {
    match dir {
        CLFFT_FORWARD => Ok(Direction::Forward),
        d if d < ENDDIRECTION => Ok(Direction::Backward),
        _ => fail(ErrorKind::InvalidArgValue, format!("direction {dir} is past ENDDIRECTION")),
    }
}

fn direction(dir: clfftDirection) -> Result<Direction> {
    match dir {
        CLFFT_FORWARD => Ok(Direction::Forward),
        CLFFT_BACKWARD => Ok(Direction::Backward),
        _ => fail(ErrorKind::InvalidArgValue, format!("direction {dir} is neither CLFFT_FORWARD nor CLFFT_BACKWARD")),
    }
}

/// # Safety
/// `scale` is null or points to a writable `cl_float`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanScale(
    plHandle: clfftPlanHandle,
    dir: clfftDirection,
    scale: *mut cl_float,
) -> clfftStatus {
    run("clfftGetPlanScale", || {
        let value = || {
            let d = scale_direction(dir)?;
            with_plan(plHandle, |p| Ok(p.settings().scale(d) as cl_float))
        };
        // SAFETY: the caller passes null or a writable `cl_float`.
        unsafe { out_param(scale, "scale", value) }
    })
}

#[no_mangle]
pub extern "C" fn clfftSetPlanScale(plHandle: clfftPlanHandle, dir: clfftDirection, scale: cl_float) -> clfftStatus {
    run("clfftSetPlanScale", || {
        let d = scale_direction(dir)?;
        with_plan(plHandle, |p| {
            let s = p.settings_mut();
            match d {
                Direction::Forward => s.forward_scale = scale as f64,
                Direction::Backward => s.backward_scale = scale as f64,
            }
            Ok(())
        })
    })
}

/// # Safety
/// `batchSize` is null or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanBatchSize(plHandle: clfftPlanHandle, batchSize: *mut usize) -> clfftStatus {
    run("clfftGetPlanBatchSize", || {
        let value = || with_plan(plHandle, |p| Ok(p.settings().batch));
        // SAFETY: the caller passes null or a writable `size_t`.
        unsafe { out_param(batchSize, "batchSize", value) }
    })
}

/// A batch of zero transforms is accepted, as clFFT accepts it: the plan bakes as one of one transform and its
/// enqueue runs nothing (`Plan::enqueue`).
#[no_mangle]
pub extern "C" fn clfftSetPlanBatchSize(plHandle: clfftPlanHandle, batchSize: usize) -> clfftStatus {
    run("clfftSetPlanBatchSize", || {
        with_plan(plHandle, |p| {
            p.settings_mut().batch = batchSize;
            Ok(())
        })
    })
}

/// # Safety
/// `dim` and `size` are each null or point to a writable value of their type.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanDim(
    plHandle: clfftPlanHandle,
    dim: *mut clfftDim,
    size: *mut cl_uint,
) -> clfftStatus {
    run("clfftGetPlanDim", || {
        non_null(dim, "dim")?;
        let d = with_plan(plHandle, |p| Ok(p.settings().dim()))?;
        // SAFETY: `dim` checked non-null above; the caller passes null or writable pointers, and `store` skips
        // a null `size`.
        unsafe {
            store(dim, d as clfftDim);
            store(size, d as cl_uint);
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn clfftSetPlanDim(plHandle: clfftPlanHandle, dim: clfftDim) -> clfftStatus {
    run("clfftSetPlanDim", || {
        let d = dim_count(dim)?;
        with_plan(plHandle, |p| {
            p.settings_mut().set_dim(d);
            Ok(())
        })
    })
}

/// # Safety
/// `clLengths` is null or points to room for `dim` values.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanLength(
    plHandle: clfftPlanHandle,
    dim: clfftDim,
    clLengths: *mut usize,
) -> clfftStatus {
    run("clfftGetPlanLength", || {
        let lengths = with_plan(plHandle, |p| Ok(p.settings().lengths.clone()))?;
        // SAFETY: the caller passes null or room for `dim` values.
        unsafe { write_array(clLengths, dim, &lengths, "lengths") }
    })
}

/// # Safety
/// `clLengths` is null or points to `dim` values.
#[no_mangle]
pub unsafe extern "C" fn clfftSetPlanLength(
    plHandle: clfftPlanHandle,
    dim: clfftDim,
    clLengths: *const usize,
) -> clfftStatus {
    run("clfftSetPlanLength", || {
        // SAFETY: the caller passes null or `dim` lengths.
        let lengths = unsafe { read_array(clLengths, dim, "clLengths") }?;
        check_lengths(&lengths)?;
        with_plan(plHandle, |p| {
            p.settings_mut().lengths = lengths;
            Ok(())
        })
    })
}

/// # Safety
/// `clStrides` is null or points to room for `dim` values.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanInStride(
    plHandle: clfftPlanHandle,
    dim: clfftDim,
    clStrides: *mut usize,
) -> clfftStatus {
    run("clfftGetPlanInStride", || {
        let strides = with_plan(plHandle, |p| Ok(p.settings().in_strides.clone()))?;
        // SAFETY: the caller passes null or room for `dim` values.
        unsafe { write_array(clStrides, dim, &strides, "input strides") }
    })
}

/// # Safety
/// `clStrides` is null or points to `dim` values.
#[no_mangle]
pub unsafe extern "C" fn clfftSetPlanInStride(
    plHandle: clfftPlanHandle,
    dim: clfftDim,
    clStrides: *mut usize,
) -> clfftStatus {
    run("clfftSetPlanInStride", || {
        // SAFETY: the caller passes null or `dim` strides.
        let strides = unsafe { read_array(clStrides, dim, "clStrides") }?;
        with_plan(plHandle, |p| {
            p.settings_mut().in_strides = strides;
            Ok(())
        })
    })
}

/// # Safety
/// `clStrides` is null or points to room for `dim` values.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanOutStride(
    plHandle: clfftPlanHandle,
    dim: clfftDim,
    clStrides: *mut usize,
) -> clfftStatus {
    run("clfftGetPlanOutStride", || {
        let strides = with_plan(plHandle, |p| Ok(p.settings().out_strides.clone()))?;
        // SAFETY: the caller passes null or room for `dim` values.
        unsafe { write_array(clStrides, dim, &strides, "output strides") }
    })
}

/// # Safety
/// `clStrides` is null or points to `dim` values.
#[no_mangle]
pub unsafe extern "C" fn clfftSetPlanOutStride(
    plHandle: clfftPlanHandle,
    dim: clfftDim,
    clStrides: *mut usize,
) -> clfftStatus {
    run("clfftSetPlanOutStride", || {
        // SAFETY: the caller passes null or `dim` strides.
        let strides = unsafe { read_array(clStrides, dim, "clStrides") }?;
        with_plan(plHandle, |p| {
            p.settings_mut().out_strides = strides;
            Ok(())
        })
    })
}

/// # Safety
/// `iDist` and `oDist` are each null or point to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanDistance(
    plHandle: clfftPlanHandle,
    iDist: *mut usize,
    oDist: *mut usize,
) -> clfftStatus {
    run("clfftGetPlanDistance", || {
        non_null(iDist, "iDist")?;
        non_null(oDist, "oDist")?;
        let (i, o) = with_plan(plHandle, |p| Ok((p.settings().in_dist, p.settings().out_dist)))?;
        // SAFETY: both checked non-null above; the caller passes writable `size_t`s.
        unsafe {
            store(iDist, i);
            store(oDist, o);
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn clfftSetPlanDistance(plHandle: clfftPlanHandle, iDist: usize, oDist: usize) -> clfftStatus {
    run("clfftSetPlanDistance", || {
        with_plan(plHandle, |p| {
            let s = p.settings_mut();
            (s.in_dist, s.out_dist) = (iDist, oDist);
            Ok(())
        })
    })
}

/// # Safety
/// `iLayout` and `oLayout` are each null or point to a writable `clfftLayout`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetLayout(
    plHandle: clfftPlanHandle,
    iLayout: *mut clfftLayout,
    oLayout: *mut clfftLayout,
) -> clfftStatus {
    run("clfftGetLayout", || {
        non_null(iLayout, "iLayout")?;
        non_null(oLayout, "oLayout")?;
        let (i, o) = with_plan(plHandle, |p| Ok((p.settings().in_layout, p.settings().out_layout)))?;
        // SAFETY: both checked non-null above; the caller passes writable `clfftLayout`s.
        unsafe {
            store(iLayout, i as clfftLayout);
            store(oLayout, o as clfftLayout);
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn clfftSetLayout(plHandle: clfftPlanHandle, iLayout: clfftLayout, oLayout: clfftLayout) -> clfftStatus {
    run("clfftSetLayout", || {
        let (Some(i), Some(o)) = (Layout::from_raw(iLayout), Layout::from_raw(oLayout)) else {
            return fail(ErrorKind::InvalidArgValue, format!("layouts {iLayout}/{oLayout} are not clfftLayout values"));
        };
        use Layout::*;
        let allowed = match i {
            ComplexInterleaved | ComplexPlanar => matches!(o, ComplexInterleaved | ComplexPlanar),
            HermitianInterleaved | HermitianPlanar => o == Real,
            Real => matches!(o, HermitianInterleaved | HermitianPlanar),
        };
        if !allowed {
            return fail(ErrorKind::NotImplemented, format!("no transform goes from layout {i:?} to {o:?}"));
        }
        with_plan(plHandle, |p| {
            let s = p.settings_mut();
            (s.in_layout, s.out_layout) = (i, o);
            Ok(())
        })
    })
}

/// # Safety
/// `placeness` is null or points to a writable `clfftResultLocation`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetResultLocation(
    plHandle: clfftPlanHandle,
    placeness: *mut clfftResultLocation,
) -> clfftStatus {
    run("clfftGetResultLocation", || {
        let value =
            || with_plan(plHandle, |p| Ok(if p.settings().in_place { CLFFT_INPLACE } else { CLFFT_OUTOFPLACE }));
        // SAFETY: the caller passes null or a writable `clfftResultLocation`.
        unsafe { out_param(placeness, "placeness", value) }
    })
}

#[no_mangle]
pub extern "C" fn clfftSetResultLocation(plHandle: clfftPlanHandle, placeness: clfftResultLocation) -> clfftStatus {
    run("clfftSetResultLocation", || {
        let in_place = match placeness {
            CLFFT_INPLACE => true,
            CLFFT_OUTOFPLACE => false,
            _ => {
                return fail(ErrorKind::InvalidArgValue, format!("placeness {placeness} is not a clfftResultLocation"))
            }
        };
        with_plan(plHandle, |p| {
            p.settings_mut().in_place = in_place;
            Ok(())
        })
    })
}

/// # Safety
/// `transposed` is null or points to a writable `clfftResultTransposed`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetPlanTransposeResult(
    plHandle: clfftPlanHandle,
    transposed: *mut clfftResultTransposed,
) -> clfftStatus {
    run("clfftGetPlanTransposeResult", || {
        let value =
            || with_plan(plHandle, |p| Ok(if p.settings().transposed { CLFFT_TRANSPOSED } else { CLFFT_NOTRANSPOSE }));
        // SAFETY: the caller passes null or a writable `clfftResultTransposed`.
        unsafe { out_param(transposed, "transposed", value) }
    })
}

#[no_mangle]
pub extern "C" fn clfftSetPlanTransposeResult(
    plHandle: clfftPlanHandle,
    transposed: clfftResultTransposed,
) -> clfftStatus {
    run("clfftSetPlanTransposeResult", || {
        let t = match transposed {
            CLFFT_NOTRANSPOSE => false,
            CLFFT_TRANSPOSED => true,
            _ => return fail(ErrorKind::InvalidArgValue, format!("{transposed} is not a clfftResultTransposed")),
        };
        with_plan(plHandle, |p| {
            p.settings_mut().transposed = t;
            Ok(())
        })
    })
}

/// # Safety
/// `buffersize` is null or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn clfftGetTmpBufSize(plHandle: clfftPlanHandle, buffersize: *mut usize) -> clfftStatus {
    run("clfftGetTmpBufSize", || {
        let value = || {
            with_plan(plHandle, |p| match p.baked() {
                Some(_) if p.settings().batch == 0 => Ok(0),
                Some(b) => Ok(b.tmp_bytes()),
                None => fail(ErrorKind::InvalidOperation, "the plan is not baked yet"),
            })
        };
        // SAFETY: the caller passes null or a writable `size_t`.
        unsafe { out_param(buffersize, "buffersize", value) }
    })
}

/// Registers a pre-callback (`callbackType` 0), which computes each input element, or a post-callback (1),
/// which receives each result, as clFFT defines them; the plan runs it in its kernels' loads or stores, or in
/// a pass of its own (`plan::exec`). The name and code are copied and the user-data buffer retained. Takes
/// effect at the next bake, which reports a callback that does not compile.
///
/// # Safety
/// `funcName` and `funcString` are each null or a NUL-terminated string; `userdata` is null or points to a
/// buffer (`cl_mem`) or null.
#[no_mangle]
pub unsafe extern "C" fn clfftSetPlanCallback(
    plHandle: clfftPlanHandle,
    funcName: *const c_char,
    funcString: *const c_char,
    localMemSize: c_int,
    callbackType: clfftCallbackType,
    userdata: *mut cl_mem,
    numUserdataBuffers: c_int,
) -> clfftStatus {
    run("clfftSetPlanCallback", || {
        let text = |p: *const c_char, what: &str| -> Result<String> {
            if p.is_null() {
                return fail(ErrorKind::InvalidArgValue, format!("the callback's {what} is null"));
            }
            // SAFETY: checked non-null above; the caller passes NUL-terminated strings.
            match unsafe { c_str(p) }.to_str() {
                Ok(s) => Ok(s.to_string()),
                Err(_) => fail(ErrorKind::InvalidArgValue, format!("the callback's {what} is not UTF-8")),
            }
        };
        let (function, code) = (text(funcName, "function name")?, text(funcString, "code")?);
        if numUserdataBuffers < 0 {
            return fail(ErrorKind::InvalidArgValue, format!("numUserdataBuffers is {numUserdataBuffers}"));
        }
        if numUserdataBuffers > 1 {
            return fail(ErrorKind::NotImplemented, "a callback takes one user-data buffer, as in clFFT");
        }
        if callbackType != PRECALLBACK && callbackType != POSTCALLBACK {
            return fail(
                ErrorKind::InvalidArgValue,
                format!("callbackType {callbackType} is neither PRECALLBACK (0) nor POSTCALLBACK (1)"),
            );
        }
        // clFFT takes the buffer whenever the pointer is given, whatever the count.
        // SAFETY: the caller passes null or a pointer to a buffer.
        let raw = unsafe { load(userdata) }.unwrap_or(std::ptr::null_mut());
        with_plan(plHandle, |plan| {
            // A buffer of another context is passed to the kernels as it is, as clFFT passes it.
            // SAFETY: checked non-null here; the caller passes a buffer.
            let userdata = if raw.is_null() { None } else { Some(unsafe { Buffer::retained(raw) }?) };
            let callback = Some(Callback { function, code, local_bytes: localMemSize.max(0) as usize, userdata });
            if callbackType == PRECALLBACK {
                plan.settings_mut().pre_callback = callback;
            } else {
                plan.settings_mut().post_callback = callback;
            }
            Ok(())
        })
    })
}

/// Runs the transform on the first queue, or where the `numQueuesAndEvents` queues hold several devices of
/// the plan's context, spreads the batch over them (`clfftBakePlan`); each queue's event completes with the
/// whole transform.
///
/// # Safety
/// `commQueues` is null or points to `numQueuesAndEvents` command queues (at least one); `waitEvents` points to
/// `numWaitEvents` events (or is null when that is 0); `inputBuffers` is null or points to one buffer (two for
/// a planar input layout), `outputBuffers` likewise for the output layout unless the plan is in place;
/// `outEvents` is null or points to room for `numQueuesAndEvents` events, at least one.
#[no_mangle]
pub unsafe extern "C" fn clfftEnqueueTransform(
    plHandle: clfftPlanHandle,
    dir: clfftDirection,
    numQueuesAndEvents: cl_uint,
    commQueues: *mut cl_command_queue,
    numWaitEvents: cl_uint,
    waitEvents: *const cl_event,
    outEvents: *mut cl_event,
    inputBuffers: *mut cl_mem,
    outputBuffers: *mut cl_mem,
    tmpBuffer: cl_mem,
) -> clfftStatus {
    run("clfftEnqueueTransform", || {
        // SAFETY: the caller passes null or a pointer to `numQueuesAndEvents` queues.
        let queues = unsafe { queue_array(commQueues, numQueuesAndEvents) }?;
        if numWaitEvents > 0 && waitEvents.is_null() {
            return fail(ErrorKind::InvalidEventWaitList, "numWaitEvents > 0 with a null waitEvents");
        }
        // SAFETY: non-null unless the count is 0 (checked above); the caller passes `numWaitEvents` events.
        let wait: &[RawEvent] = unsafe { c_array(waitEvents, numWaitEvents as usize) };
        if inputBuffers.is_null() {
            return fail(ErrorKind::InvalidArgValue, "inputBuffers is null");
        }
        let events = with_plan(plHandle, |p| {
            let in_place = p.settings().in_place;
            let planes = if p.settings().in_layout.is_planar() { 2 } else { 1 };
            // SAFETY: checked non-null above; the caller passes a buffer per plane of the input layout.
            let input: &[RawMem] = unsafe { c_array(inputBuffers, planes) };
            let output: &[RawMem] = if in_place {
                &[]
            } else if outputBuffers.is_null() {
                return fail(ErrorKind::InvalidArgValue, "outputBuffers is null for an out-of-place plan");
            } else {
                let planes = if p.settings().out_layout.is_planar() { 2 } else { 1 };
                // SAFETY: checked non-null above; the caller passes a buffer per plane of the output layout.
                unsafe { c_array(outputBuffers, planes) }
            };
            // As in clFFT, real transforms run in the direction their layouts decide, whatever `dir` says
            // (clFFT's own tests pass ENDDIRECTION).
            let real = p.settings().kind().is_ok_and(|k| k.is_real());
            let d = if real { p.settings().effective_direction(Direction::Forward) } else { direction(dir)? };
            let queues = of_the_plans_context(p, queues)?;
            let tmp = (!tmpBuffer.is_null()).then_some(tmpBuffer);
            let events = p.enqueue_on(d, &queues, wait, input, output, tmp)?;
            // Ignored queues get the first queue's event.
            Ok((0..numQueuesAndEvents.max(1) as usize)
                .map(|i| events.get(i).unwrap_or(&events[0]).clone())
                .collect::<Vec<_>>())
        })?;
        if !outEvents.is_null() {
            // clFFT writes the first event whatever the count.
            for (i, event) in events.into_iter().enumerate() {
                // SAFETY: checked non-null above; the caller passes room for this many events.
                unsafe { outEvents.add(i).write(event.into_raw()) };
            }
        }
        Ok(())
    })
}

/// fftx's extension to the clFFT API (`clFFT_fftx.h`): sets the planner's overrides for `plHandle`, in
/// `FFTX_TUNE`'s syntax (`docs/environment.md`); a null `spec` restores `FFTX_TUNE`'s, an empty one
/// overrides nothing. Like any setting, it un-bakes the plan.
///
/// # Safety
/// `spec` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn fftxClfftSetPlanTuning(plHandle: clfftPlanHandle, spec: *const c_char) -> clfftStatus {
    run("fftxClfftSetPlanTuning", || {
        // SAFETY: the caller passes null or a NUL-terminated string.
        let tuning = unsafe { super::read_tuning(spec) }?;
        with_plan(plHandle, |p| {
            p.settings_mut().tuning = tuning;
            Ok(())
        })
    })
}

/// fftx's extension to the clFFT API (`clFFT_fftx.h`): a sentence naming a clFFT status, or the OpenCL error
/// of that number. Any value is accepted; the string is static.
#[no_mangle]
pub extern "C" fn fftxClfftGetErrorString(status: clfftStatus) -> *const c_char {
    let text: &'static CStr = match status {
        CLFFT_SUCCESS => c"CLFFT_SUCCESS: the call succeeded",
        CLFFT_BUGCHECK => c"CLFFT_BUGCHECK: an internal error in fftx",
        CLFFT_NOTIMPLEMENTED => c"CLFFT_NOTIMPLEMENTED: not implemented",
        CLFFT_TRANSPOSED_NOTIMPLEMENTED => {
            c"CLFFT_TRANSPOSED_NOTIMPLEMENTED: this transposed result is not implemented"
        }
        4099 => c"CLFFT_FILE_NOT_FOUND: a file was not found",
        4100 => c"CLFFT_FILE_CREATE_FAILURE: a file could not be created",
        4101 => c"CLFFT_VERSION_MISMATCH: a version mismatch",
        CLFFT_INVALID_PLAN => {
            c"CLFFT_INVALID_PLAN: an unknown or destroyed plan, or settings that contradict each other"
        }
        CLFFT_DEVICE_NO_DOUBLE => c"CLFFT_DEVICE_NO_DOUBLE: the device has no double precision",
        CLFFT_DEVICE_MISMATCH => c"CLFFT_DEVICE_MISMATCH: the queue's device is not the one the plan was baked for",
        4105 => c"CLFFT_ENDSTATUS: not a status",
        code => return crate::error::cl_status_sentence(code).as_ptr(),
    };
    text.as_ptr()
}
