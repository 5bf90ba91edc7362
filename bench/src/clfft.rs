//! One table of clFFT 2.12 API function pointers, filled by dlsym from either libfftx.so or libclFFT.so.2, so
//! both libraries are driven through the identical code path.

use crate::cases::{Case, Kind, Precision};
use crate::dl::Library;
use crate::measure::Failure;
use crate::opencl::Cl;
use cl_sys::{cl_command_queue, cl_context, cl_event, cl_mem, cl_uint};
use std::ffi::{c_int, c_void};
use std::ptr;

type Status = c_int;
type PlanHandle = usize;
type BakeNotify = Option<unsafe extern "C" fn(PlanHandle, *mut c_void)>;

#[repr(C)]
struct SetupData {
    major: cl_uint,
    minor: cl_uint,
    patch: cl_uint,
    debug_flags: u64,
}

const CLFFT_SUCCESS: Status = 0;
const CLFFT_NOTIMPLEMENTED: Status = 4097;
const CLFFT_TRANSPOSED_NOTIMPLEMENTED: Status = 4098;
const CLFFT_SINGLE: c_int = 1;
const CLFFT_DOUBLE: c_int = 2;
const CLFFT_COMPLEX_INTERLEAVED: c_int = 1;
const CLFFT_HERMITIAN_INTERLEAVED: c_int = 3;
const CLFFT_REAL: c_int = 5;
const CLFFT_INPLACE: c_int = 1;
const CLFFT_OUTOFPLACE: c_int = 2;
const CLFFT_FORWARD: c_int = -1;
const CLFFT_BACKWARD: c_int = 1;

#[derive(Clone, Copy)]
struct Api {
    setup: unsafe extern "C" fn(*const SetupData) -> Status,
    teardown: unsafe extern "C" fn() -> Status,
    get_version: unsafe extern "C" fn(*mut cl_uint, *mut cl_uint, *mut cl_uint) -> Status,
    create_default_plan: unsafe extern "C" fn(*mut PlanHandle, cl_context, c_int, *const usize) -> Status,
    set_plan_precision: unsafe extern "C" fn(PlanHandle, c_int) -> Status,
    set_plan_scale: unsafe extern "C" fn(PlanHandle, c_int, f32) -> Status,
    set_layout: unsafe extern "C" fn(PlanHandle, c_int, c_int) -> Status,
    set_result_location: unsafe extern "C" fn(PlanHandle, c_int) -> Status,
    set_plan_batch_size: unsafe extern "C" fn(PlanHandle, usize) -> Status,
    set_plan_in_stride: unsafe extern "C" fn(PlanHandle, c_int, *mut usize) -> Status,
    set_plan_out_stride: unsafe extern "C" fn(PlanHandle, c_int, *mut usize) -> Status,
    set_plan_distance: unsafe extern "C" fn(PlanHandle, usize, usize) -> Status,
    bake_plan: unsafe extern "C" fn(PlanHandle, cl_uint, *mut cl_command_queue, BakeNotify, *mut c_void) -> Status,
    get_tmp_buf_size: unsafe extern "C" fn(PlanHandle, *mut usize) -> Status,
    #[allow(clippy::type_complexity)]
    enqueue_transform: unsafe extern "C" fn(
        PlanHandle,
        c_int,
        cl_uint,
        *mut cl_command_queue,
        cl_uint,
        *const cl_event,
        *mut cl_event,
        *mut cl_mem,
        *mut cl_mem,
        cl_mem,
    ) -> Status,
    destroy_plan: unsafe extern "C" fn(*mut PlanHandle) -> Status,
}

impl Api {
    fn load(library: &Library) -> Result<Self, String> {
        unsafe {
            Ok(Api {
                setup: library.function("clfftSetup")?,
                teardown: library.function("clfftTeardown")?,
                get_version: library.function("clfftGetVersion")?,
                create_default_plan: library.function("clfftCreateDefaultPlan")?,
                set_plan_precision: library.function("clfftSetPlanPrecision")?,
                set_plan_scale: library.function("clfftSetPlanScale")?,
                set_layout: library.function("clfftSetLayout")?,
                set_result_location: library.function("clfftSetResultLocation")?,
                set_plan_batch_size: library.function("clfftSetPlanBatchSize")?,
                set_plan_in_stride: library.function("clfftSetPlanInStride")?,
                set_plan_out_stride: library.function("clfftSetPlanOutStride")?,
                set_plan_distance: library.function("clfftSetPlanDistance")?,
                bake_plan: library.function("clfftBakePlan")?,
                get_tmp_buf_size: library.function("clfftGetTmpBufSize")?,
                enqueue_transform: library.function("clfftEnqueueTransform")?,
                destroy_plan: library.function("clfftDestroyPlan")?,
            })
        }
    }
}

fn status_name(status: Status) -> String {
    let name = match status {
        CLFFT_NOTIMPLEMENTED => "CLFFT_NOTIMPLEMENTED",
        CLFFT_TRANSPOSED_NOTIMPLEMENTED => "CLFFT_TRANSPOSED_NOTIMPLEMENTED",
        4096 => "CLFFT_BUGCHECK",
        4099 => "CLFFT_FILE_NOT_FOUND",
        4100 => "CLFFT_FILE_CREATE_FAILURE",
        4101 => "CLFFT_VERSION_MISMATCH",
        4102 => "CLFFT_INVALID_PLAN",
        4103 => "CLFFT_DEVICE_NO_DOUBLE",
        4104 => "CLFFT_DEVICE_MISMATCH",
        -4 => "CL_MEM_OBJECT_ALLOCATION_FAILURE",
        -5 => "CL_OUT_OF_RESOURCES",
        -6 => "CL_OUT_OF_HOST_MEMORY",
        -11 => "CL_BUILD_PROGRAM_FAILURE",
        -30 => "CL_INVALID_VALUE",
        -38 => "CL_INVALID_MEM_OBJECT",
        -50 => "CLFFT_INVALID_ARG_VALUE",
        -61 => "CL_INVALID_BUFFER_SIZE",
        _ => return format!("status {status}"),
    };
    format!("{name} ({status})")
}

/// A status as a benchmark outcome: a refusal ("not implemented", "no double") is "n/a", anything else an
/// error.
fn checked(status: Status, call: &str) -> Result<(), Failure> {
    match status {
        CLFFT_SUCCESS => Ok(()),
        CLFFT_NOTIMPLEMENTED | CLFFT_TRANSPOSED_NOTIMPLEMENTED | 4103 => {
            Err(Failure::NotAvailable(format!("{call}: {}", status_name(status))))
        }
        _ => Err(Failure::Error(format!("{call}: {}", status_name(status)))),
    }
}

/// A clFFT-API library: fftx or clFFT.
pub struct Clfft {
    api: Api,
    pub version: (cl_uint, cl_uint, cl_uint),
    pub path: String,
}

impl Clfft {
    /// Opens the library and runs clfftSetup.
    pub fn load(path: &str) -> Result<Self, String> {
        let library = Library::open(path)?;
        let api = Api::load(&library)?;
        let (mut major, mut minor, mut patch) = (0, 0, 0);
        unsafe { (api.get_version)(&mut major, &mut minor, &mut patch) };
        let clfft = Clfft { api, version: (major, minor, patch), path: library.path.clone() };
        clfft.setup()?;
        Ok(clfft)
    }

    /// clfftSetup, which is where both libraries read their environment (`CLFFT_REQUEST_LIB_NOMEMALLOC`).
    pub fn setup(&self) -> Result<(), String> {
        // clfftInitSetupData is an inline function of clFFT.h, not an exported symbol: fill it in as it does.
        let data = SetupData { major: self.version.0, minor: self.version.1, patch: self.version.2, debug_flags: 0 };
        let status = unsafe { (self.api.setup)(&data) };
        checked(status, "clfftSetup").map_err(|f| f.to_string())
    }

    /// clfftTeardown then clfftSetup: makes the library read its environment again. Every plan must be gone.
    pub fn restart(&self) -> Result<(), String> {
        let status = unsafe { (self.api.teardown)() };
        checked(status, "clfftTeardown").map_err(|f| f.to_string())?;
        self.setup()
    }

    pub fn teardown(&self) {
        unsafe { (self.api.teardown)() };
    }

    /// Creates and bakes a plan for `case` in `cl`'s context, with packed strides and distances set
    /// explicitly so both libraries see the same description. A c2r plan gets a backward scale of 1 instead of
    /// clFFT's default 1/N, so that it computes the same unnormalized sum as FFTW and VkFFT.
    pub fn plan(&self, cl: &Cl, case: &Case) -> Result<ClfftPlan<'_>, Failure> {
        let api = &self.api;
        let dims = case.lengths.len() as c_int;
        let mut handle: PlanHandle = 0;
        checked(
            unsafe { (api.create_default_plan)(&mut handle, cl.context, dims, case.lengths.as_ptr()) },
            "clfftCreateDefaultPlan",
        )?;
        let direction = if case.kind == Kind::C2r { CLFFT_BACKWARD } else { CLFFT_FORWARD };
        let plan = ClfftPlan { api, handle, direction };
        let precision = match case.precision {
            Precision::Single => CLFFT_SINGLE,
            Precision::Double => CLFFT_DOUBLE,
        };
        let (input_layout, output_layout) = match case.kind {
            Kind::C2c => (CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED),
            Kind::R2c => (CLFFT_REAL, CLFFT_HERMITIAN_INTERLEAVED),
            Kind::C2r => (CLFFT_HERMITIAN_INTERLEAVED, CLFFT_REAL),
        };
        let placement = if case.in_place { CLFFT_INPLACE } else { CLFFT_OUTOFPLACE };
        let (mut in_strides, in_distance) = case.input_layout();
        let (mut out_strides, out_distance) = case.output_layout();
        let mut queue = cl.queue;
        unsafe {
            checked((api.set_plan_precision)(handle, precision), "clfftSetPlanPrecision")?;
            checked((api.set_layout)(handle, input_layout, output_layout), "clfftSetLayout")?;
            checked((api.set_result_location)(handle, placement), "clfftSetResultLocation")?;
            checked((api.set_plan_batch_size)(handle, case.batch), "clfftSetPlanBatchSize")?;
            checked((api.set_plan_in_stride)(handle, dims, in_strides.as_mut_ptr()), "clfftSetPlanInStride")?;
            checked((api.set_plan_out_stride)(handle, dims, out_strides.as_mut_ptr()), "clfftSetPlanOutStride")?;
            checked((api.set_plan_distance)(handle, in_distance, out_distance), "clfftSetPlanDistance")?;
            if direction == CLFFT_BACKWARD {
                checked((api.set_plan_scale)(handle, CLFFT_BACKWARD, 1.0), "clfftSetPlanScale")?;
            }
            checked((api.bake_plan)(handle, 1, &mut queue, None, ptr::null_mut()), "clfftBakePlan")?;
        }
        Ok(plan)
    }
}

pub struct ClfftPlan<'a> {
    api: &'a Api,
    handle: PlanHandle,
    /// Backward for c2r, forward for the others.
    direction: c_int,
}

impl ClfftPlan<'_> {
    /// Enqueues one transform; the library allocates any scratch it needs (no tmpBuffer given).
    pub fn enqueue(&self, cl: &Cl, input: cl_mem, output: Option<cl_mem>) -> Result<(), Failure> {
        let mut queue = cl.queue;
        let mut input = input;
        let mut output = output.unwrap_or(ptr::null_mut());
        let output_ptr: *mut cl_mem = if output.is_null() { ptr::null_mut() } else { &mut output };
        let status = unsafe {
            (self.api.enqueue_transform)(
                self.handle,
                self.direction,
                1,
                &mut queue,
                0,
                ptr::null(),
                ptr::null_mut(),
                &mut input,
                output_ptr,
                ptr::null_mut(),
            )
        };
        checked(status, "clfftEnqueueTransform")
    }

    /// The scratch the library allocates for this plan, by clfftGetTmpBufSize.
    pub fn tmp_bytes(&self) -> Option<usize> {
        let mut bytes = 0;
        let status = unsafe { (self.api.get_tmp_buf_size)(self.handle, &mut bytes) };
        (status == CLFFT_SUCCESS).then_some(bytes)
    }
}

impl Drop for ClfftPlan<'_> {
    fn drop(&mut self) {
        unsafe { (self.api.destroy_plan)(&mut self.handle) };
    }
}
