//! fftx's own C functions beside the clFFT API: in-place and out-of-place transposes of complex matrices,
//! and the per-plan switch of the no-allocation mode (`CLFFT_REQUEST_LIB_NOMEMALLOC`), which runs on them.
//!
//! These declarations belong in `include/fftx.h`: the cbindgen configuration that generates that header
//! must parse this file as well as `fftx.rs`. Every function returns a clfftStatus value (`CLFFT_SUCCESS`,
//! 0, on success; the codes of `clFFT.h` otherwise) as a plain `int`, takes clFFT's precision and layout
//! values, and never lets a panic cross the boundary. Pointers come from C callers, who must pass null or
//! valid pointers of the documented sizes, as each function's `# Safety` says.
#![allow(non_snake_case)]

use super::clfft::run;
use super::{c_array, non_null, out_param, store};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::plan::transpose::enqueue;
use crate::plan::{registry, Layout};
use crate::planner::transpose::TransposeProblem;
use crate::planner::tuning::Tuning;
use crate::runtime::cl::{RawEvent, RawMem};
use crate::runtime::{Context, Queue};
use crate::types::Precision;
use ocl::core::ffi::{cl_command_queue, cl_event, cl_mem, cl_uint};
use std::ffi::c_int;

fn precision_of(value: c_int) -> Result<Precision> {
    match value {
        1 => Ok(Precision::Single),
        2 => Ok(Precision::Double),
        3 | 4 => fail(ErrorKind::NotImplemented, "CLFFT_SINGLE_FAST and CLFFT_DOUBLE_FAST are not implemented"),
        _ => fail(ErrorKind::InvalidArgValue, format!("precision {value} is neither CLFFT_SINGLE nor CLFFT_DOUBLE")),
    }
}

fn planar_of(value: c_int) -> Result<bool> {
    match Layout::from_raw(value) {
        Some(Layout::ComplexInterleaved) => Ok(false),
        Some(Layout::ComplexPlanar) => Ok(true),
        _ => fail(
            ErrorKind::InvalidArgValue,
            format!("layout {value} is neither CLFFT_COMPLEX_INTERLEAVED nor CLFFT_COMPLEX_PLANAR"),
        ),
    }
}

/// The queue, its context, the wait list and the problem, checked.
///
/// # Safety
/// `queue` is null or a command queue; `waitEvents` points to `numWaitEvents` events, or is null when that is 0.
#[allow(clippy::too_many_arguments)]
unsafe fn prepare<'a>(
    queue: cl_command_queue,
    rows: usize,
    cols: usize,
    batch: usize,
    precision: c_int,
    layout: c_int,
    in_place: bool,
    tuning: Tuning,
    numWaitEvents: cl_uint,
    waitEvents: *const cl_event,
) -> Result<(Queue, Context, TransposeProblem, &'a [RawEvent])> {
    let problem = TransposeProblem {
        precision: precision_of(precision)?,
        rows,
        cols,
        batch,
        planar: planar_of(layout)?,
        in_place,
        tuning,
    };
    problem.plane_bytes()?;
    // SAFETY: the caller passes null (an error) or a command queue.
    let queue = unsafe { Queue::retained(queue) }
        .map_err(|e| Error::new(ErrorKind::InvalidCommandQueue, format!("invalid queue: {e}")))?;
    // SAFETY: the context of a queue we hold a reference to.
    let context = unsafe { Context::retained(queue.context()?) }
        .map_err(|e| Error::new(ErrorKind::InvalidContext, format!("the queue's context: {e}")))?;
    if numWaitEvents > 0 && waitEvents.is_null() {
        return fail(ErrorKind::InvalidEventWaitList, "numWaitEvents > 0 with a null waitEvents");
    }
    // SAFETY: non-null unless the count is 0 (checked above); the caller passes `numWaitEvents` events.
    let wait: &[RawEvent] = unsafe { c_array(waitEvents, numWaitEvents as usize) };
    Ok((queue, context, problem, wait))
}

/// The one or two buffers of a layout from a caller's array.
///
/// # Safety
/// `list` is null or points to two buffers when `planar`, else one.
unsafe fn planes<'a>(list: *mut cl_mem, planar: bool, what: &str) -> Result<&'a [RawMem]> {
    non_null(list, what)?;
    // SAFETY: checked non-null above; the caller passes a buffer per plane.
    Ok(unsafe { c_array(list, if planar { 2 } else { 1 }) })
}

/// Transposes `batch` packed `rows` x `cols` complex matrices in place: on return (once `outEvent`
/// completes) each holds the `cols` x `rows` transpose, row-major, where the matrix was.
///
/// `layout` is 1 (`CLFFT_COMPLEX_INTERLEAVED`: `buffers` holds one buffer) or 2 (`CLFFT_COMPLEX_PLANAR`: two,
/// real parts then imaginary parts, not overlapping); matrix b starts at element b * rows * cols.
/// `precision` is 1 (`CLFFT_SINGLE`) or 2 (`CLFFT_DOUBLE`). Squares, vectors, and rectangles whose longer
/// side is a multiple of the shorter (N x kN, kN x N) are supported; other shapes return
/// `CLFFT_NOTIMPLEMENTED` (4097). A rectangle is k in-place squares and then a permutation of blocks of N
/// values along cycles computed on the host. The only device memory allocated holds the kernels' parameters
/// and, for a rectangle, its cycles (at most 16 bytes per row of the longer side); both are kept for the
/// next call with the same shape. The transpose waits for the `numWaitEvents` events of `waitEvents`;
/// `outEvent` may be null, otherwise it receives an event the caller releases. Returns 0 (`CLFFT_SUCCESS`)
/// or a clfftStatus / OpenCL error code: see docs/status.md.
///
/// # Safety
/// `queue` is NULL or an OpenCL command queue; `buffers` is NULL or points to one buffer (two when planar);
/// `waitEvents` points to `numWaitEvents` events, or is NULL when that is 0; `outEvent` is NULL or points to
/// a writable `cl_event`.
#[no_mangle]
pub unsafe extern "C" fn fftxTransposeInPlace(
    queue: cl_command_queue,
    buffers: *mut cl_mem,
    rows: usize,
    cols: usize,
    batch: usize,
    precision: c_int,
    layout: c_int,
    numWaitEvents: cl_uint,
    waitEvents: *const cl_event,
    outEvent: *mut cl_event,
) -> c_int {
    // SAFETY: the caller passes the pointers this function's contract names.
    unsafe {
        transpose_in_place(
            None,
            queue,
            buffers,
            rows,
            cols,
            batch,
            precision,
            layout,
            numWaitEvents,
            waitEvents,
            outEvent,
        )
    }
}

/// `fftxTransposeInPlace` with the planner's overrides `tuning` (`None`: `FFTX_TUNE`'s), for Rust callers.
///
/// # Safety
/// As for `fftxTransposeInPlace`.
#[allow(clippy::too_many_arguments)]
pub unsafe fn transpose_in_place(
    tuning: Option<Tuning>,
    queue: cl_command_queue,
    buffers: *mut cl_mem,
    rows: usize,
    cols: usize,
    batch: usize,
    precision: c_int,
    layout: c_int,
    numWaitEvents: cl_uint,
    waitEvents: *const cl_event,
    outEvent: *mut cl_event,
) -> c_int {
    run("fftxTransposeInPlace", || {
        let tuning = tuning.unwrap_or_else(super::default_tuning);
        // SAFETY: the caller passes null or a queue, and `numWaitEvents` events.
        let (queue, context, problem, wait) =
            unsafe { prepare(queue, rows, cols, batch, precision, layout, true, tuning, numWaitEvents, waitEvents) }?;
        // SAFETY: the caller passes null or a buffer per plane.
        let data = unsafe { planes(buffers, problem.planar, "buffers") }?;
        let event = enqueue(&context, &queue, &problem, data, data, wait)?;
        // SAFETY: the caller passes null (skipped) or a writable event.
        unsafe { store(outEvent, event.into_raw()) };
        Ok(())
    })
}

/// Transposes `batch` packed `rows` x `cols` complex matrices of `input` into `cols` x `rows` matrices of
/// `output` (any shape), tile by tile. The arguments are those of `fftxTransposeInPlace`, with separate input
/// and output buffer arrays of the same layout, which must not overlap; the input is left as it was.
/// Returns 0 (`CLFFT_SUCCESS`) or a clfftStatus / OpenCL error code: see docs/status.md.
///
/// # Safety
/// As for `fftxTransposeInPlace`, with `input` and `output` each NULL or pointing to one buffer (two when
/// planar).
#[no_mangle]
pub unsafe extern "C" fn fftxTransposeOutOfPlace(
    queue: cl_command_queue,
    input: *mut cl_mem,
    output: *mut cl_mem,
    rows: usize,
    cols: usize,
    batch: usize,
    precision: c_int,
    layout: c_int,
    numWaitEvents: cl_uint,
    waitEvents: *const cl_event,
    outEvent: *mut cl_event,
) -> c_int {
    // SAFETY: the caller passes the pointers this function's contract names.
    unsafe {
        transpose_out_of_place(
            None,
            queue,
            input,
            output,
            rows,
            cols,
            batch,
            precision,
            layout,
            numWaitEvents,
            waitEvents,
            outEvent,
        )
    }
}

/// `fftxTransposeOutOfPlace` with the planner's overrides `tuning` (`None`: `FFTX_TUNE`'s), for Rust callers.
///
/// # Safety
/// As for `fftxTransposeOutOfPlace`.
#[allow(clippy::too_many_arguments)]
pub unsafe fn transpose_out_of_place(
    tuning: Option<Tuning>,
    queue: cl_command_queue,
    input: *mut cl_mem,
    output: *mut cl_mem,
    rows: usize,
    cols: usize,
    batch: usize,
    precision: c_int,
    layout: c_int,
    numWaitEvents: cl_uint,
    waitEvents: *const cl_event,
    outEvent: *mut cl_event,
) -> c_int {
    run("fftxTransposeOutOfPlace", || {
        let tuning = tuning.unwrap_or_else(super::default_tuning);
        // SAFETY: the caller passes null or a queue, and `numWaitEvents` events.
        let (queue, context, problem, wait) =
            unsafe { prepare(queue, rows, cols, batch, precision, layout, false, tuning, numWaitEvents, waitEvents) }?;
        // SAFETY: the caller passes null or a buffer per plane for each side.
        let (from, to) =
            unsafe { (planes(input, problem.planar, "input")?, planes(output, problem.planar, "output")?) };
        let event = enqueue(&context, &queue, &problem, from, to, wait)?;
        // SAFETY: the caller passes null (skipped) or a writable event.
        unsafe { store(outEvent, event.into_raw()) };
        Ok(())
    })
}

/// Requests the no-allocation mode for one clFFT plan (`plHandle`, a clfftPlanHandle) with `enable` = 1,
/// or the ordinary mode with 0, whatever `CLFFT_REQUEST_LIB_NOMEMALLOC` said at `clfftSetup`. In that mode
/// a long 1D complex transform of length N1 x N2 with N2 = k N1 (k >= 1, N1 at most one kernel long) runs
/// on the caller's buffers with in-place transposes, and `clfftGetTmpBufSize` reports 0. As in clFFT the mode is a request: a transform that cannot run without scratch (no such
/// split, a long real or Bluestein axis) bakes as usual and reports its scratch. Takes effect at the next
/// bake. Returns 0 (`CLFFT_SUCCESS`), `CLFFT_INVALID_PLAN` (4102) or `CLFFT_INVALID_ARG_VALUE` (-50).
#[no_mangle]
pub extern "C" fn fftxSetPlanNoMemAlloc(plHandle: usize, enable: c_int) -> c_int {
    run("fftxSetPlanNoMemAlloc", || {
        let on = match enable {
            0 => false,
            1 => true,
            _ => return fail(ErrorKind::InvalidArgValue, format!("enable is {enable}, not 0 or 1")),
        };
        let shared = registry::CLFFT_PLANS.get(plHandle)?;
        registry::lock(&shared).settings_mut().no_mem_alloc = Some(on);
        Ok(())
    })
}

/// Writes 1 to `*enabled` when plan `plHandle` would be baked in the no-allocation mode (its own setting,
/// or else the library's from `CLFFT_REQUEST_LIB_NOMEMALLOC` at `clfftSetup`), 0 otherwise. Returns 0
/// (`CLFFT_SUCCESS`), `CLFFT_INVALID_PLAN` (4102) or `CLFFT_INVALID_HOST_PTR` (-37).
///
/// # Safety
/// `enabled` is NULL or points to a writable `int`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetPlanNoMemAlloc(plHandle: usize, enabled: *mut c_int) -> c_int {
    run("fftxGetPlanNoMemAlloc", || {
        let value = || {
            let shared = registry::CLFFT_PLANS.get(plHandle)?;
            let own = registry::lock(&shared).settings().no_mem_alloc;
            Ok(own.unwrap_or_else(crate::plan::library::no_mem_alloc) as c_int)
        };
        // SAFETY: the caller passes null or a writable `int`.
        unsafe { out_param(enabled, "enabled", value) }
    })
}
