//! The cuFFT-style C API (`include/fftx.h`, generated from this file by cbindgen): cuFFT 12's functions,
//! types and values with the `fftx` prefix, `cudaStream_t` replaced by `cl_command_queue`. Pointers come from
//! C callers, who must pass null or valid pointers of the documented sizes; a data pointer is device memory
//! when it lies inside an `fftxMalloc` allocation and host memory otherwise. Each function's `# Safety`
//! says which pointers it takes; the header carries the same text.
#![allow(non_camel_case_types, non_snake_case)]

use super::{c_array, c_array_mut, guard, store};
use crate::error::{fail, ErrorKind, Result};
use crate::plan::cufft::{self, CuPlan, Embed, FftType, HostData, Shape};
use crate::plan::{registry, Direction};
use crate::runtime::cl::{enqueue_copy, read_buffer, write_buffer};
use crate::runtime::devmem::{self, default_stream};
use crate::runtime::Queue;
use ocl::core::ffi::cl_command_queue;
use std::ffi::{c_char, c_int, c_longlong, c_void, CStr};

/// A plan handle.
pub type fftxHandle = c_int;
/// A transform type: one of the `fftxType_t` values.
pub type fftxType = c_int;
/// A copy direction for `fftxMemcpy`: one of the `fftxMemcpyKind_t` values.
pub type fftxMemcpyKind = c_int;
pub type fftxReal = f32;
pub type fftxDoubleReal = f64;

/// A single-precision complex value.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct fftxComplex {
    pub x: f32,
    pub y: f32,
}

/// A double-precision complex value.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct fftxDoubleComplex {
    pub x: f64,
    pub y: f64,
}

/// Status of every call, with cuFFT's values.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum fftxResult_t {
    FFTX_SUCCESS = 0,
    FFTX_INVALID_PLAN = 1,
    FFTX_ALLOC_FAILED = 2,
    FFTX_INVALID_TYPE = 3,
    FFTX_INVALID_VALUE = 4,
    FFTX_INTERNAL_ERROR = 5,
    FFTX_EXEC_FAILED = 6,
    FFTX_SETUP_FAILED = 7,
    FFTX_INVALID_SIZE = 8,
    FFTX_UNALIGNED_DATA = 9,
    FFTX_INVALID_DEVICE = 11,
    FFTX_NO_WORKSPACE = 13,
    FFTX_NOT_IMPLEMENTED = 14,
    FFTX_NOT_SUPPORTED = 16,
}
pub type fftxResult = fftxResult_t;
use fftxResult_t::*;

/// Transform types, with cuFFT's values.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum fftxType_t {
    /// Single-precision real to complex.
    FFTX_R2C = 0x2a,
    /// Single-precision complex to real.
    FFTX_C2R = 0x2c,
    /// Single-precision complex to complex.
    FFTX_C2C = 0x29,
    /// Double-precision real to complex.
    FFTX_D2Z = 0x6a,
    /// Double-precision complex to real.
    FFTX_Z2D = 0x6c,
    /// Double-precision complex to complex.
    FFTX_Z2Z = 0x69,
}

/// Copy directions for `fftxMemcpy`, with `cudaMemcpyKind`'s values.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum fftxMemcpyKind_t {
    FFTX_MEMCPY_HOST_TO_DEVICE = 1,
    FFTX_MEMCPY_DEVICE_TO_HOST = 2,
    FFTX_MEMCPY_DEVICE_TO_DEVICE = 3,
}

pub const FFTX_FORWARD: c_int = -1;
pub const FFTX_INVERSE: c_int = 1;
/// The library version as `fftxGetVersion` reports it: major * 1000 + minor * 100 + patch.
pub const FFTX_VERSION: c_int = 100;

/// The status for a failure. `fallback` is what an OpenCL error means in this call: a setup or an
/// execution failure.
pub(crate) fn result_of(kind: ErrorKind, fallback: fftxResult) -> fftxResult {
    match kind {
        ErrorKind::InvalidPlan => FFTX_INVALID_PLAN,
        ErrorKind::InvalidSize => FFTX_INVALID_SIZE,
        ErrorKind::InvalidType => FFTX_INVALID_TYPE,
        ErrorKind::NoWorkspace => FFTX_NO_WORKSPACE,
        ErrorKind::InvalidArgValue
        | ErrorKind::InvalidHostPtr
        | ErrorKind::InvalidBufferSize
        | ErrorKind::InvalidMemObject
        | ErrorKind::InvalidOperation
        | ErrorKind::InvalidEventWaitList => FFTX_INVALID_VALUE,
        ErrorKind::InvalidContext
        | ErrorKind::InvalidCommandQueue
        | ErrorKind::DeviceMismatch
        | ErrorKind::DeviceNoDouble
        | ErrorKind::OpenCl(-1 | -33) => FFTX_INVALID_DEVICE,
        ErrorKind::OutOfResources | ErrorKind::OutOfHostMemory | ErrorKind::MemObjectAllocationFailure => {
            FFTX_ALLOC_FAILED
        }
        ErrorKind::BuildProgramFailure => FFTX_SETUP_FAILED,
        ErrorKind::NotImplemented | ErrorKind::TransposedNotImplemented => FFTX_NOT_SUPPORTED,
        ErrorKind::Bugcheck => FFTX_INTERNAL_ERROR,
        ErrorKind::OpenCl(_) => fallback,
    }
}

/// A sentence naming a status, for messages: "FFTX_INVALID_PLAN: ...". Any value is accepted: one that is
/// no `fftxResult` gives a sentence that says so. The string is static.
#[no_mangle]
pub extern "C" fn fftxGetErrorString(result: c_int) -> *const c_char {
    let text: &'static CStr = match result {
        0 => c"FFTX_SUCCESS: the call succeeded",
        1 => c"FFTX_INVALID_PLAN: an unknown or destroyed plan, or a call the plan's state does not allow",
        2 => c"FFTX_ALLOC_FAILED: device or host memory could not be allocated",
        3 => c"FFTX_INVALID_TYPE: an unknown transform type, or an exec function of another type than the plan's",
        4 => c"FFTX_INVALID_VALUE: an argument outside its allowed values",
        5 => c"FFTX_INTERNAL_ERROR: an internal error in fftx",
        6 => c"FFTX_EXEC_FAILED: the transform could not be launched on the device",
        7 => c"FFTX_SETUP_FAILED: the device could not be set up, or a kernel failed to compile",
        8 => c"FFTX_INVALID_SIZE: a size, rank or batch out of range",
        9 => c"FFTX_UNALIGNED_DATA: data not aligned as the transform needs",
        11 => c"FFTX_INVALID_DEVICE: the device cannot run this plan, or memory of another context",
        13 => c"FFTX_NO_WORKSPACE: the plan needs a work area and none was given",
        14 => c"FFTX_NOT_IMPLEMENTED: not implemented",
        16 => c"FFTX_NOT_SUPPORTED: not supported",
        _ => c"not an fftxResult",
    };
    text.as_ptr()
}

/// The message of the calling thread's latest failed fftx call, of either API, with the words
/// `FFTX_LOG=error` prints: the function's name, then why it failed. An empty string before any failure. The
/// pointer stays valid until the thread's next failed call.
#[no_mangle]
pub extern "C" fn fftxGetLastErrorMessage() -> *const c_char {
    super::last_error_message()
}

fn run(name: &str, fallback: fftxResult, body: impl FnOnce() -> Result<()>) -> fftxResult {
    match guard(name, body) {
        Ok(()) => FFTX_SUCCESS,
        Err(e) => result_of(e.kind, fallback),
    }
}

fn invalid<T>(what: impl Into<String>) -> Result<T> {
    fail(ErrorKind::InvalidArgValue, what)
}

fn with_plan<T>(handle: fftxHandle, f: impl FnOnce(&mut CuPlan) -> Result<T>) -> Result<T> {
    let shared = cufft::get(handle)?;
    let mut plan = registry::lock(&shared);
    f(&mut plan)
}

fn fft_type(value: fftxType) -> Result<FftType> {
    FftType::from_raw(value)
        .ok_or_else(|| crate::Error::new(ErrorKind::InvalidType, format!("{value:#x} is not an fftxType")))
}

/// A size, batch or stride from C: positive, as `what` says.
fn positive(value: i64, what: &str) -> Result<usize> {
    if value <= 0 {
        let kind = if what.contains("stride") || what.contains("dist") {
            ErrorKind::InvalidArgValue
        } else {
            ErrorKind::InvalidSize
        };
        return fail(kind, format!("{what} is {value}; it must be positive"));
    }
    usize::try_from(value).or_else(|_| fail(ErrorKind::InvalidSize, format!("{what} {value} is too large")))
}

/// Computes a result and writes it through the caller's `ptr`, which must not be null (checked first).
///
/// # Safety
/// `ptr` is null or valid for writing a `T`.
unsafe fn write_out<T: Copy>(ptr: *mut T, what: &str, value: impl FnOnce() -> Result<T>) -> Result<()> {
    if ptr.is_null() {
        return invalid(format!("{what} is null"));
    }
    let value = value()?;
    // SAFETY: checked non-null above; the caller's contract makes it writable.
    unsafe { store(ptr, value) };
    Ok(())
}

/// Reads `rank` values from a C array.
///
/// # Safety
/// `ptr` is null or points to `rank` values.
unsafe fn read_sizes<T: Copy + Into<i64>>(ptr: *const T, rank: usize, what: &str) -> Result<Vec<i64>> {
    if ptr.is_null() {
        return invalid(format!("{what} is null"));
    }
    // SAFETY: checked non-null above; the caller's contract gives `rank` values.
    Ok(unsafe { c_array(ptr, rank) }.iter().map(|&v| v.into()).collect())
}

/// cuFFT's `PlanMany` arguments as a shape: `n` row-major; the advanced layout unless `inembed` or `onembed`
/// is null (then cuFFT ignores every stride and distance and packs the data).
///
/// # Safety
/// `n`, `inembed` and `onembed` are each null or point to `rank` values.
#[allow(clippy::too_many_arguments)]
unsafe fn many_shape<T: Copy + Into<i64>>(
    rank: c_int,
    n: *const T,
    inembed: *const T,
    istride: T,
    idist: T,
    onembed: *const T,
    ostride: T,
    odist: T,
    r#type: fftxType,
    batch: T,
) -> Result<Shape> {
    let [istride, idist, ostride, odist, batch] = [istride, idist, ostride, odist, batch].map(Into::into);
    if !(1..=3).contains(&rank) {
        return fail(ErrorKind::InvalidSize, format!("rank {rank} is not 1, 2 or 3"));
    }
    let rank = rank as usize;
    // SAFETY: the caller passes null or `rank` sizes.
    let sizes =
        unsafe { read_sizes(n, rank, "n") }?.into_iter().map(|v| positive(v, "a size")).collect::<Result<Vec<_>>>()?;
    let fft_type = fft_type(r#type)?;
    let batch = positive(batch, "batch")?;
    let advanced = if inembed.is_null() || onembed.is_null() {
        None
    } else {
        let embed = |dims: *const T, stride: i64, dist: i64, side: &str| -> Result<Embed> {
            // SAFETY: the caller passes null or `rank` sizes for either side.
            let mut dims = unsafe { read_sizes(dims, rank, side) }?;
            // cuFFT never reads the first storage size; it may hold anything.
            dims[0] = 1;
            Ok(Embed {
                dims: dims.into_iter().map(|v| positive(v, side)).collect::<Result<_>>()?,
                stride: positive(stride, &format!("the {side} stride"))?,
                // One transform has no distance, so unequal idist and odist must not make an in-place plan's
                // two layouts differ.
                dist: if batch == 1 { 0 } else { positive(dist, &format!("the {side} dist"))? },
            })
        };
        Some((embed(inembed, istride, idist, "inembed")?, embed(onembed, ostride, odist, "onembed")?))
    };
    Ok(Shape { n: sizes, fft_type, batch, advanced, tuning: super::default_tuning() })
}

fn basic_shape(n: &[c_int], r#type: fftxType, batch: c_int) -> Result<Shape> {
    Ok(Shape {
        n: n.iter().map(|&v| positive(v.into(), "a size")).collect::<Result<_>>()?,
        fft_type: fft_type(r#type)?,
        batch: positive(batch.into(), "batch")?,
        advanced: None,
        tuning: super::default_tuning(),
    })
}

/// Creates an empty plan handle, to be made with one of the `fftxMakePlan` functions.
///
/// # Safety
/// `handle` is NULL or points to a writable `fftxHandle`.
#[no_mangle]
pub unsafe extern "C" fn fftxCreate(handle: *mut fftxHandle) -> fftxResult {
    run("fftxCreate", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `handle`.
        unsafe { write_out(handle, "handle", || cufft::insert(CuPlan::new(super::default_tuning()))) }
    })
}

/// Destroys a plan and everything it holds. A destroyed handle is never reused.
#[no_mangle]
pub extern "C" fn fftxDestroy(plan: fftxHandle) -> fftxResult {
    run("fftxDestroy", FFTX_INTERNAL_ERROR, || cufft::remove(plan).map(|_| ()))
}

/// Makes `plan` for `shape` and writes the work area size unless `work_size` is null.
///
/// # Safety
/// `work_size` is null or valid for writing a `size_t`.
unsafe fn make(plan: fftxHandle, shape: Result<Shape>, work_size: *mut usize) -> Result<()> {
    let shape = shape?;
    let bytes = with_plan(plan, |p| p.make(shape))?;
    // SAFETY: the caller passes null (skipped) or a writable `size_t`.
    unsafe { store(work_size, bytes) };
    Ok(())
}

/// Creates a handle and makes it for `shape`; on failure the handle is destroyed and `plan` left alone.
///
/// # Safety
/// `plan` is null or valid for writing an `fftxHandle`.
unsafe fn create_and_make(plan: *mut fftxHandle, shape: Result<Shape>) -> Result<()> {
    if plan.is_null() {
        return invalid("plan is null");
    }
    let shape = shape?;
    let handle = cufft::insert(CuPlan::new(super::default_tuning()))?;
    match with_plan(handle, |p| p.make(shape)) {
        Ok(_) => {
            // SAFETY: checked non-null above; the caller's contract makes it writable.
            unsafe { store(plan, handle) };
            Ok(())
        }
        Err(e) => {
            cufft::remove(handle)?;
            Err(e)
        }
    }
}

/// Creates and makes a plan for `batch` 1D transforms of `nx` points.
///
/// # Safety
/// `plan` is NULL or points to a writable `fftxHandle`.
#[no_mangle]
pub unsafe extern "C" fn fftxPlan1d(plan: *mut fftxHandle, nx: c_int, r#type: fftxType, batch: c_int) -> fftxResult {
    run("fftxPlan1d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `plan`.
        unsafe { create_and_make(plan, basic_shape(&[nx], r#type, batch)) }
    })
}

/// Creates and makes a plan for a 2D transform of `nx` x `ny` (row-major: `ny` varies fastest).
///
/// # Safety
/// `plan` is NULL or points to a writable `fftxHandle`.
#[no_mangle]
pub unsafe extern "C" fn fftxPlan2d(plan: *mut fftxHandle, nx: c_int, ny: c_int, r#type: fftxType) -> fftxResult {
    run("fftxPlan2d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `plan`.
        unsafe { create_and_make(plan, basic_shape(&[nx, ny], r#type, 1)) }
    })
}

/// Creates and makes a plan for a 3D transform of `nx` x `ny` x `nz` (row-major: `nz` varies fastest).
///
/// # Safety
/// `plan` is NULL or points to a writable `fftxHandle`.
#[no_mangle]
pub unsafe extern "C" fn fftxPlan3d(
    plan: *mut fftxHandle,
    nx: c_int,
    ny: c_int,
    nz: c_int,
    r#type: fftxType,
) -> fftxResult {
    run("fftxPlan3d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `plan`.
        unsafe { create_and_make(plan, basic_shape(&[nx, ny, nz], r#type, 1)) }
    })
}

/// Creates and makes a plan for `batch` transforms of rank 1 to 3 in cuFFT's advanced layout: element
/// `x` of batch entry `b` lies at `b * idist + istride * (x[0] * inembed[1] * .. + x[rank - 1])` (likewise for the
/// output); when `inembed` or `onembed` is NULL the data is packed and strides and distances are ignored.
///
/// # Safety
/// `plan` is NULL or points to a writable `fftxHandle`;
/// `n`, `inembed` and `onembed` are each NULL or point to `rank` values.
#[no_mangle]
pub unsafe extern "C" fn fftxPlanMany(
    plan: *mut fftxHandle,
    rank: c_int,
    n: *mut c_int,
    inembed: *mut c_int,
    istride: c_int,
    idist: c_int,
    onembed: *mut c_int,
    ostride: c_int,
    odist: c_int,
    r#type: fftxType,
    batch: c_int,
) -> fftxResult {
    run("fftxPlanMany", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or `rank` values in each of `n`, `inembed` and `onembed`.
        let shape = unsafe { many_shape(rank, n, inembed, istride, idist, onembed, ostride, odist, r#type, batch) };
        // SAFETY: the caller passes null or a writable `plan`.
        unsafe { create_and_make(plan, shape) }
    })
}

/// Makes a created plan; `*workSize` receives the bytes of work area a device execution needs.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxMakePlan1d(
    plan: fftxHandle,
    nx: c_int,
    r#type: fftxType,
    batch: c_int,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxMakePlan1d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { make(plan, basic_shape(&[nx], r#type, batch), workSize) }
    })
}

/// Makes a created plan for a 2D transform; see `fftxPlan2d`.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxMakePlan2d(
    plan: fftxHandle,
    nx: c_int,
    ny: c_int,
    r#type: fftxType,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxMakePlan2d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { make(plan, basic_shape(&[nx, ny], r#type, 1), workSize) }
    })
}

/// Makes a created plan for a 3D transform; see `fftxPlan3d`.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxMakePlan3d(
    plan: fftxHandle,
    nx: c_int,
    ny: c_int,
    nz: c_int,
    r#type: fftxType,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxMakePlan3d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { make(plan, basic_shape(&[nx, ny, nz], r#type, 1), workSize) }
    })
}

/// Makes a created plan in the advanced layout; see `fftxPlanMany`.
///
/// # Safety
/// `n`, `inembed` and `onembed` are each NULL or point to `rank` values;
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxMakePlanMany(
    plan: fftxHandle,
    rank: c_int,
    n: *mut c_int,
    inembed: *mut c_int,
    istride: c_int,
    idist: c_int,
    onembed: *mut c_int,
    ostride: c_int,
    odist: c_int,
    r#type: fftxType,
    batch: c_int,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxMakePlanMany", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or `rank` values in each of `n`, `inembed` and `onembed`.
        let shape = unsafe { many_shape(rank, n, inembed, istride, idist, onembed, ostride, odist, r#type, batch) };
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { make(plan, shape, workSize) }
    })
}

/// `fftxMakePlanMany` with 64-bit sizes, strides, distances and batch.
///
/// # Safety
/// `n`, `inembed` and `onembed` are each NULL or point to `rank` values;
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxMakePlanMany64(
    plan: fftxHandle,
    rank: c_int,
    n: *mut c_longlong,
    inembed: *mut c_longlong,
    istride: c_longlong,
    idist: c_longlong,
    onembed: *mut c_longlong,
    ostride: c_longlong,
    odist: c_longlong,
    r#type: fftxType,
    batch: c_longlong,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxMakePlanMany64", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or `rank` values in each of `n`, `inembed` and `onembed`.
        let shape = unsafe { many_shape(rank, n, inembed, istride, idist, onembed, ostride, odist, r#type, batch) };
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { make(plan, shape, workSize) }
    })
}

/// Writes the work area size of `shape`, on `plan`'s device when a plan is given, else the default device.
///
/// # Safety
/// `work_size` is null or valid for writing a `size_t`.
unsafe fn size_of(plan: Option<fftxHandle>, shape: Result<Shape>, work_size: *mut usize) -> Result<()> {
    if work_size.is_null() {
        return invalid("workSize is null");
    }
    let shape = shape?;
    let bytes = match plan {
        Some(handle) => with_plan(handle, |p| p.work_bytes_for(&shape))?,
        None => cufft::estimate_work_bytes(&shape)?,
    };
    // SAFETY: checked non-null above; the caller's contract makes it writable.
    unsafe { store(work_size, bytes) };
    Ok(())
}

/// The work area bytes a plan would need on the default device, without making one.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxEstimate1d(nx: c_int, r#type: fftxType, batch: c_int, workSize: *mut usize) -> fftxResult {
    run("fftxEstimate1d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { size_of(None, basic_shape(&[nx], r#type, batch), workSize) }
    })
}

/// The work area bytes of a 2D plan on the default device.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxEstimate2d(nx: c_int, ny: c_int, r#type: fftxType, workSize: *mut usize) -> fftxResult {
    run("fftxEstimate2d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { size_of(None, basic_shape(&[nx, ny], r#type, 1), workSize) }
    })
}

/// The work area bytes of a 3D plan on the default device.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxEstimate3d(
    nx: c_int,
    ny: c_int,
    nz: c_int,
    r#type: fftxType,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxEstimate3d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { size_of(None, basic_shape(&[nx, ny, nz], r#type, 1), workSize) }
    })
}

/// The work area bytes of an advanced-layout plan on the default device.
///
/// # Safety
/// `n`, `inembed` and `onembed` are each NULL or point to `rank` values;
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxEstimateMany(
    rank: c_int,
    n: *mut c_int,
    inembed: *mut c_int,
    istride: c_int,
    idist: c_int,
    onembed: *mut c_int,
    ostride: c_int,
    odist: c_int,
    r#type: fftxType,
    batch: c_int,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxEstimateMany", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or `rank` values in each of `n`, `inembed` and `onembed`.
        let shape = unsafe { many_shape(rank, n, inembed, istride, idist, onembed, ostride, odist, r#type, batch) };
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { size_of(None, shape, workSize) }
    })
}

/// The work area bytes a plan would need on the device of a created plan.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetSize1d(
    handle: fftxHandle,
    nx: c_int,
    r#type: fftxType,
    batch: c_int,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxGetSize1d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { size_of(Some(handle), basic_shape(&[nx], r#type, batch), workSize) }
    })
}

/// The work area bytes of a 2D plan on the device of a created plan.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetSize2d(
    handle: fftxHandle,
    nx: c_int,
    ny: c_int,
    r#type: fftxType,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxGetSize2d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { size_of(Some(handle), basic_shape(&[nx, ny], r#type, 1), workSize) }
    })
}

/// The work area bytes of a 3D plan on the device of a created plan.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetSize3d(
    handle: fftxHandle,
    nx: c_int,
    ny: c_int,
    nz: c_int,
    r#type: fftxType,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxGetSize3d", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { size_of(Some(handle), basic_shape(&[nx, ny, nz], r#type, 1), workSize) }
    })
}

/// The work area bytes of an advanced-layout plan on the device of a created plan.
///
/// # Safety
/// `n`, `inembed` and `onembed` are each NULL or point to `rank` values;
/// `workArea` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetSizeMany(
    handle: fftxHandle,
    rank: c_int,
    n: *mut c_int,
    inembed: *mut c_int,
    istride: c_int,
    idist: c_int,
    onembed: *mut c_int,
    ostride: c_int,
    odist: c_int,
    r#type: fftxType,
    batch: c_int,
    workArea: *mut usize,
) -> fftxResult {
    run("fftxGetSizeMany", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or `rank` values in each of `n`, `inembed` and `onembed`.
        let shape = unsafe { many_shape(rank, n, inembed, istride, idist, onembed, ostride, odist, r#type, batch) };
        // SAFETY: the caller passes null or a writable `workArea`.
        unsafe { size_of(Some(handle), shape, workArea) }
    })
}

/// `fftxGetSizeMany` with 64-bit sizes, strides, distances and batch.
///
/// # Safety
/// `n`, `inembed` and `onembed` are each NULL or point to `rank` values;
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetSizeMany64(
    plan: fftxHandle,
    rank: c_int,
    n: *mut c_longlong,
    inembed: *mut c_longlong,
    istride: c_longlong,
    idist: c_longlong,
    onembed: *mut c_longlong,
    ostride: c_longlong,
    odist: c_longlong,
    r#type: fftxType,
    batch: c_longlong,
    workSize: *mut usize,
) -> fftxResult {
    run("fftxGetSizeMany64", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or `rank` values in each of `n`, `inembed` and `onembed`.
        let shape = unsafe { many_shape(rank, n, inembed, istride, idist, onembed, ostride, odist, r#type, batch) };
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { size_of(Some(plan), shape, workSize) }
    })
}

/// The work area bytes a made plan needs for device executions.
///
/// # Safety
/// `workSize` is NULL or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetSize(handle: fftxHandle, workSize: *mut usize) -> fftxResult {
    run("fftxGetSize", FFTX_SETUP_FAILED, || {
        // SAFETY: the caller passes null or a writable `workSize`.
        unsafe { write_out(workSize, "workSize", || with_plan(handle, |p| p.work_bytes())) }
    })
}

/// Gives a plan device memory (from `fftxMalloc`, at least `fftxGetSize` bytes) to use as its work area.
#[no_mangle]
pub extern "C" fn fftxSetWorkArea(plan: fftxHandle, workArea: *mut c_void) -> fftxResult {
    run("fftxSetWorkArea", FFTX_INTERNAL_ERROR, || {
        let area = devmem::region(workArea as usize, "workArea")?;
        with_plan(plan, |p| {
            p.set_work_area(area);
            Ok(())
        })
    })
}

/// With 0, the plan allocates no work area itself: device executions then need `fftxSetWorkArea`.
#[no_mangle]
pub extern "C" fn fftxSetAutoAllocation(plan: fftxHandle, autoAllocate: c_int) -> fftxResult {
    run("fftxSetAutoAllocation", FFTX_INTERNAL_ERROR, || {
        with_plan(plan, |p| {
            p.set_auto_allocation(autoAllocate != 0);
            Ok(())
        })
    })
}

/// Sets the planner's overrides for `plan`, between `fftxCreate` and its `fftxMakePlan` call, in
/// `FFTX_TUNE`'s syntax (`docs/environment.md`: `"profile=gpu;max_leaf=64"` plans as for a GPU with kernels
/// of at most 64 points). NULL restores `FFTX_TUNE`'s; `""` overrides nothing. `FFTX_INVALID_VALUE` for an
/// item fftx does not know, `FFTX_INVALID_PLAN` once the plan is made.
///
/// # Safety
/// `spec` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn fftxSetTuning(plan: fftxHandle, spec: *const c_char) -> fftxResult {
    run("fftxSetTuning", FFTX_INVALID_VALUE, || {
        // SAFETY: the caller passes null or a NUL-terminated string.
        let tuning = unsafe { super::read_tuning(spec) }?;
        with_plan(plan, |p| p.set_tuning(tuning))
    })
}

/// Runs the plan on `stream` (its context and device) from now on; NULL returns it to the default stream.
/// Device memory from `fftxMalloc` lives in the default stream's context (`fftxGetDefaultStream`), so device
/// executions need a stream of that context. An out-of-order queue serves as a CUDA stream too: a transform
/// on it starts after the commands enqueued before it, and those enqueued after it wait for it (barriers).
///
/// # Safety
/// `stream` is NULL or an OpenCL command queue.
#[no_mangle]
pub unsafe extern "C" fn fftxSetStream(plan: fftxHandle, stream: cl_command_queue) -> fftxResult {
    run("fftxSetStream", FFTX_INVALID_DEVICE, || {
        // SAFETY: checked non-null here; the caller passes a command queue.
        let queue = if stream.is_null() { None } else { Some(unsafe { Queue::retained(stream) }?) };
        with_plan(plan, |p| p.set_stream(queue))
    })
}

/// Writes the default stream: the queue plans run on without `fftxSetStream`, and whose context holds the
/// memory of `fftxMalloc`. fftx keeps it until the process ends; the caller does not release it. Queues the
/// caller makes in its context (`clGetCommandQueueInfo(CL_QUEUE_CONTEXT)`) can run plans on that memory.
///
/// # Safety
/// `stream` is NULL or points to a writable `cl_command_queue`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetDefaultStream(stream: *mut cl_command_queue) -> fftxResult {
    run("fftxGetDefaultStream", FFTX_INVALID_DEVICE, || {
        // SAFETY: the caller passes null or a writable `stream`.
        unsafe { write_out(stream, "stream", || Ok(default_stream()?.queue.raw())) }
    })
}

/// Writes `FFTX_VERSION`.
///
/// # Safety
/// `version` is NULL or points to a writable `int`.
#[no_mangle]
pub unsafe extern "C" fn fftxGetVersion(version: *mut c_int) -> fftxResult {
    run("fftxGetVersion", FFTX_INTERNAL_ERROR, || {
        // SAFETY: the caller passes null or a writable `version`.
        unsafe { write_out(version, "version", || Ok(FFTX_VERSION)) }
    })
}

/// Runs `plan` from `idata` to `odata` (in place when equal), checking that the plan is of type `expected`.
///
/// # Safety
/// As `fftxExecC2C`'s contract says of `idata` and `odata`.
unsafe fn execute(
    plan: fftxHandle,
    idata: *mut c_void,
    odata: *mut c_void,
    direction: c_int,
    expected: FftType,
) -> Result<()> {
    let direction = match direction {
        FFTX_FORWARD => Direction::Forward,
        FFTX_INVERSE => Direction::Backward,
        other => return invalid(format!("direction {other} is neither FFTX_FORWARD nor FFTX_INVERSE")),
    };
    if idata.is_null() || odata.is_null() {
        return invalid("a data pointer is null");
    }
    with_plan(plan, |p| {
        let fft_type = p.shape()?.fft_type;
        if fft_type != expected {
            return fail(ErrorKind::InvalidType, format!("this Exec function does not run {fft_type:?} plans"));
        }
        let in_place = idata == odata;
        let (input, output) = (devmem::lookup(idata as usize), devmem::lookup(odata as usize));
        for (pointer, what) in [(idata, "the input"), (odata, "the output")] {
            if devmem::freed(pointer as usize) {
                return invalid(format!("{what} ({pointer:p}) points into device memory freed with fftxFree"));
            }
        }
        match (input, output) {
            (Some(input), _) if in_place => p.execute_device(direction, input, None),
            (Some(input), Some(output)) => p.execute_device(direction, input, Some(output)),
            (None, None) => {
                let (in_bytes, out_bytes) = p.shape()?.extents(in_place);
                if in_place {
                    // SAFETY: checked non-null above; host data in place holds the larger extent (the caller's
                    // contract).
                    let data = unsafe { c_array_mut(idata.cast::<u8>(), in_bytes.max(out_bytes)) };
                    return p.execute_host(direction, HostData::InPlace(data));
                }
                let (i, o) = (idata as usize, odata as usize);
                if i < o + out_bytes && o < i + in_bytes {
                    return invalid("the input and output overlap without being the same pointer");
                }
                // SAFETY: checked non-null and not overlapping above; the caller passes host data of the plan's
                // input and output extents.
                let (input, output) =
                    unsafe { (c_array(idata.cast::<u8>(), in_bytes), c_array_mut(odata.cast::<u8>(), out_bytes)) };
                p.execute_host(direction, HostData::Separate(input, output))
            }
            _ => invalid("one data pointer is device memory and the other is not"),
        }
    })
}

/// Single-precision complex transform, `direction` `FFTX_FORWARD` or `FFTX_INVERSE` (unnormalised). In place
/// when `idata == odata`. Device memory runs asynchronously on the plan's stream. Host memory is transformed
/// where it lies on a device whose memory is the host's (a CPU, an integrated GPU), else copied through the
/// device (when too large for it, in parts of the batch that it holds, or else streamed in slabs: in the
/// basic layout, where a 1D complex length is not prime and 2D and 3D columns down the first axis fit); the
/// call returns with the result in place.
///
/// # Safety
/// `idata` and `odata` are each NULL, device memory from `fftxMalloc`, or host memory that holds the
/// plan's whole input (`idata`) or output (`odata`) and that nothing else touches during the call; in place,
/// `idata` holds the larger of the two.
#[no_mangle]
pub unsafe extern "C" fn fftxExecC2C(
    plan: fftxHandle,
    idata: *mut fftxComplex,
    odata: *mut fftxComplex,
    direction: c_int,
) -> fftxResult {
    run("fftxExecC2C", FFTX_EXEC_FAILED, || {
        // SAFETY: the caller passes `idata` and `odata` as `fftxExecC2C`'s contract says.
        unsafe { execute(plan, idata.cast(), odata.cast(), direction, FftType::C2C) }
    })
}

/// Single-precision real-to-complex forward transform; see `fftxExecC2C` for memory and placement.
///
/// # Safety
/// As for `fftxExecC2C`.
#[no_mangle]
pub unsafe extern "C" fn fftxExecR2C(plan: fftxHandle, idata: *mut fftxReal, odata: *mut fftxComplex) -> fftxResult {
    run("fftxExecR2C", FFTX_EXEC_FAILED, || {
        // SAFETY: the caller passes `idata` and `odata` as `fftxExecC2C`'s contract says.
        unsafe { execute(plan, idata.cast(), odata.cast(), FFTX_FORWARD, FftType::R2C) }
    })
}

/// Single-precision complex-to-real inverse transform (unnormalised); see `fftxExecC2C`.
///
/// # Safety
/// As for `fftxExecC2C`.
#[no_mangle]
pub unsafe extern "C" fn fftxExecC2R(plan: fftxHandle, idata: *mut fftxComplex, odata: *mut fftxReal) -> fftxResult {
    run("fftxExecC2R", FFTX_EXEC_FAILED, || {
        // SAFETY: the caller passes `idata` and `odata` as `fftxExecC2C`'s contract says.
        unsafe { execute(plan, idata.cast(), odata.cast(), FFTX_INVERSE, FftType::C2R) }
    })
}

/// Double-precision complex transform; see `fftxExecC2C`.
///
/// # Safety
/// As for `fftxExecC2C`.
#[no_mangle]
pub unsafe extern "C" fn fftxExecZ2Z(
    plan: fftxHandle,
    idata: *mut fftxDoubleComplex,
    odata: *mut fftxDoubleComplex,
    direction: c_int,
) -> fftxResult {
    run("fftxExecZ2Z", FFTX_EXEC_FAILED, || {
        // SAFETY: the caller passes `idata` and `odata` as `fftxExecC2C`'s contract says.
        unsafe { execute(plan, idata.cast(), odata.cast(), direction, FftType::Z2Z) }
    })
}

/// Double-precision real-to-complex forward transform; see `fftxExecC2C`.
///
/// # Safety
/// As for `fftxExecC2C`.
#[no_mangle]
pub unsafe extern "C" fn fftxExecD2Z(
    plan: fftxHandle,
    idata: *mut fftxDoubleReal,
    odata: *mut fftxDoubleComplex,
) -> fftxResult {
    run("fftxExecD2Z", FFTX_EXEC_FAILED, || {
        // SAFETY: the caller passes `idata` and `odata` as `fftxExecC2C`'s contract says.
        unsafe { execute(plan, idata.cast(), odata.cast(), FFTX_FORWARD, FftType::D2Z) }
    })
}

/// Double-precision complex-to-real inverse transform (unnormalised); see `fftxExecC2C`.
///
/// # Safety
/// As for `fftxExecC2C`.
#[no_mangle]
pub unsafe extern "C" fn fftxExecZ2D(
    plan: fftxHandle,
    idata: *mut fftxDoubleComplex,
    odata: *mut fftxDoubleReal,
) -> fftxResult {
    run("fftxExecZ2D", FFTX_EXEC_FAILED, || {
        // SAFETY: the caller passes `idata` and `odata` as `fftxExecC2C`'s contract says.
        unsafe { execute(plan, idata.cast(), odata.cast(), FFTX_INVERSE, FftType::Z2D) }
    })
}

/// Allocates `bytes` of device memory in the default stream's context (shared virtual memory where the
/// device has it); `*ptr` receives its address. More than the device allocates at once is `FFTX_ALLOC_FAILED`,
/// as in cuFFT's `cudaMalloc`.
///
/// # Safety
/// `ptr` is NULL or points to a writable `void *`.
#[no_mangle]
pub unsafe extern "C" fn fftxMalloc(ptr: *mut *mut c_void, bytes: usize) -> fftxResult {
    run("fftxMalloc", FFTX_ALLOC_FAILED, || {
        // SAFETY: the caller passes null or a writable `ptr`.
        unsafe {
            write_out(ptr, "ptr", || {
                let stream = default_stream()?;
                let largest = crate::runtime::device_info(stream.queue.device()?)?.max_alloc_bytes;
                if bytes as u64 > largest {
                    return fail(
                        ErrorKind::MemObjectAllocationFailure,
                        format!("{bytes} bytes exceed the device's largest allocation, {largest} bytes"),
                    );
                }
                Ok(devmem::allocate(&stream.context, bytes, stream.svm_buffers)? as *mut c_void)
            })
        }
    })
}

/// Frees memory from `fftxMalloc`; null is accepted and does nothing.
#[no_mangle]
pub extern "C" fn fftxFree(ptr: *mut c_void) -> fftxResult {
    run("fftxFree", FFTX_INTERNAL_ERROR, || if ptr.is_null() { Ok(()) } else { devmem::free(ptr as usize) })
}

/// Copies `bytes` bytes and returns when they are in place, after all work on the default stream.
///
/// # Safety
/// `dst` and `src` are each NULL, device memory from `fftxMalloc`, or host memory of `bytes` bytes, as
/// `kind` says; host memory at `dst` is writable.
#[no_mangle]
pub unsafe extern "C" fn fftxMemcpy(
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    kind: fftxMemcpyKind,
) -> fftxResult {
    run("fftxMemcpy", FFTX_EXEC_FAILED, || {
        if dst.is_null() || src.is_null() {
            return invalid("a pointer is null");
        }
        if bytes == 0 {
            return Ok(());
        }
        let reach = |region: &devmem::DeviceRegion, what: &str| {
            if region.available < bytes {
                return invalid(format!(
                    "the {what} allocation holds {} bytes from there, not {bytes}",
                    region.available
                ));
            }
            Ok(())
        };
        let queue = &default_stream()?.queue;
        const HOST_TO_DEVICE: c_int = fftxMemcpyKind_t::FFTX_MEMCPY_HOST_TO_DEVICE as c_int;
        const DEVICE_TO_HOST: c_int = fftxMemcpyKind_t::FFTX_MEMCPY_DEVICE_TO_HOST as c_int;
        const DEVICE_TO_DEVICE: c_int = fftxMemcpyKind_t::FFTX_MEMCPY_DEVICE_TO_DEVICE as c_int;
        match kind {
            HOST_TO_DEVICE => {
                let target = devmem::region(dst as usize, "dst")?;
                reach(&target, "dst")?;
                // SAFETY: checked non-null above; the caller passes `bytes` bytes of host memory at `src`.
                let source = unsafe { c_array(src.cast::<u8>(), bytes) };
                write_buffer(queue.raw(), target.buffer.raw(), target.offset, source)
            }
            DEVICE_TO_HOST => {
                let source = devmem::region(src as usize, "src")?;
                reach(&source, "src")?;
                // SAFETY: checked non-null above; the caller passes `bytes` writable bytes of host memory at `dst`.
                let target = unsafe { c_array_mut(dst.cast::<u8>(), bytes) };
                read_buffer(queue.raw(), source.buffer.raw(), source.offset, target, &[])
            }
            DEVICE_TO_DEVICE => {
                let (source, target) = (devmem::region(src as usize, "src")?, devmem::region(dst as usize, "dst")?);
                reach(&source, "src")?;
                reach(&target, "dst")?;
                let copy = enqueue_copy(
                    queue.raw(),
                    source.buffer.raw(),
                    target.buffer.raw(),
                    source.offset,
                    target.offset,
                    bytes,
                    &[],
                )?;
                copy.wait()
            }
            other => invalid(format!("{other} is not an fftxMemcpyKind")),
        }
    })
}
