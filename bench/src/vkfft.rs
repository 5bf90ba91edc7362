//! VkFFT's OpenCL backend through the C shim in `shim/vkfft_shim.c` (built only when vkFFT.h is installed).

use crate::cases::{Case, Kind, Precision};
use crate::measure::{CaseBuffers, Failure};
use crate::opencl::{Cl, Device};
use cl_sys::{cl_command_queue, cl_context, cl_device_id, cl_mem};
use std::ffi::{c_int, c_void};

#[repr(C)]
struct Desc {
    device: cl_device_id,
    context: cl_context,
    queue: cl_command_queue,
    input: cl_mem,
    output: cl_mem,
    dims: u64,
    lengths: [u64; 3],
    batch: u64,
    double_precision: c_int,
    real_to_complex: c_int,
    complex_to_real: c_int,
}

extern "C" {
    fn fftx_vkfft_create(desc: *const Desc, plan: *mut *mut c_void) -> c_int;
    fn fftx_vkfft_enqueue(plan: *mut c_void) -> c_int;
    fn fftx_vkfft_destroy(plan: *mut c_void);
}

/// VkFFTResult codes that mean "this length or layout is not supported".
fn is_unsupported(code: c_int) -> bool {
    (3001..=3005).contains(&code)
}

pub struct VkfftPlan {
    handle: *mut c_void,
}

impl VkfftPlan {
    /// initializeVkFFT for an out-of-place transform from the case's input to its output buffer: forward, or
    /// for c2r VkFFT's unnormalized R2C-mode inverse.
    pub fn new(device: &Device, cl: &Cl, case: &Case, buffers: &CaseBuffers) -> Result<Self, Failure> {
        let Some(output) = &buffers.output else {
            return Err(Failure::NotAvailable("the benchmark drives VkFFT out-of-place only".into()));
        };
        let mut lengths = [1u64; 3];
        for (slot, &length) in lengths.iter_mut().zip(&case.lengths) {
            *slot = length as u64;
        }
        let desc = Desc {
            device: device.id,
            context: cl.context,
            queue: cl.queue,
            input: buffers.input.mem,
            output: output.mem,
            dims: case.lengths.len() as u64,
            lengths,
            batch: case.batch as u64,
            double_precision: (case.precision == Precision::Double) as c_int,
            real_to_complex: (case.kind == Kind::R2c) as c_int,
            complex_to_real: (case.kind == Kind::C2r) as c_int,
        };
        let mut handle = std::ptr::null_mut();
        let code = unsafe { fftx_vkfft_create(&desc, &mut handle) };
        match code {
            0 => Ok(VkfftPlan { handle }),
            c if is_unsupported(c) => Err(Failure::NotAvailable(format!("initializeVkFFT: VkFFTResult {c}"))),
            c => Err(Failure::Error(format!("initializeVkFFT: VkFFTResult {c}"))),
        }
    }

    pub fn enqueue(&self) -> Result<(), Failure> {
        match unsafe { fftx_vkfft_enqueue(self.handle) } {
            0 => Ok(()),
            c => Err(Failure::Error(format!("VkFFTAppend: VkFFTResult {c}"))),
        }
    }
}

impl Drop for VkfftPlan {
    fn drop(&mut self) {
        unsafe { fftx_vkfft_destroy(self.handle) };
    }
}
