//! Shared test harness: one OpenCL context, transforms driven through the clFFT C API exactly as a C
//! program would, and a double-precision reference (rustfft in f64, applied along each axis; lengths with a
//! prime factor above 1024 through an exactly reduced Bluestein over rustfft's powers of two).
#![allow(dead_code)]

mod complex_case;
mod device_data;
mod real_case;
mod reference;

// Each test binary uses some of these.
#[allow(unused_imports)]
pub use {
    complex_case::Case,
    device_data::{DeviceData, DevicePlanes, HostPlanes},
    real_case::{RealCase, RealDir},
    reference::*,
};

use fftx::api::clfft::*;
use ocl::{Context, Device, Platform, Queue};
use once_cell::sync::Lazy;
use std::ptr;
use std::sync::Mutex;

pub struct Env {
    pub context: Context,
    pub queue: Queue,
    pub device: Device,
}

/// Sets what every test binary wants in its environment before `main` starts a thread: `set_var` while
/// another thread reads the environment from C (PoCL calls getenv as it builds programs) can crash glibc's
/// getenv, as a run of `fftx_api` did when one test set these while the others baked. Compiled kernels are
/// cached under `target/` so repeated runs skip compilation, a compiler warning in a kernel fails the
/// test that builds it, and so does a builtin `kernels/builtins.cl` does not declare.
#[used]
#[link_section = ".init_array"]
static SET_TEST_ENV: extern "C" fn() = set_test_env;

extern "C" fn set_test_env() {
    if std::env::var_os("FFTX_CACHE_DIR").is_none() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("fftx-test-cache");
        std::env::set_var("FFTX_CACHE_DIR", dir);
    }
    let options = std::env::var("FFTX_BUILD_OPTIONS").unwrap_or_default();
    std::env::set_var("FFTX_BUILD_OPTIONS", format!("-Werror {options}").trim_end());
    if std::env::var_os("FFTX_OWN_BUILTINS").is_none() {
        std::env::set_var("FFTX_OWN_BUILTINS", "strict");
    }
}

/// The shared context.
pub static ENV: Lazy<Env> = Lazy::new(|| {
    let platform = Platform::default();
    let device = Device::first(platform).expect("an OpenCL device (install pocl-opencl-icd)");
    let context = Context::builder().platform(platform).devices(device).build().expect("context");
    let queue = Queue::new(&context, device, None).expect("queue");
    Env { context, queue, device }
});

pub fn context_ptr() -> ocl::ffi::cl_context {
    ENV.context.as_core().as_ptr()
}

pub fn queue_ptr() -> ocl::ffi::cl_command_queue {
    ENV.queue.as_core().as_ptr()
}

/// Serialises tests that must observe global state (teardown, cache statistics).
pub static GLOBAL: Mutex<()> = Mutex::new(());

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prec {
    Single,
    Double,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Forward,
    Backward,
}

/// Enqueues `plan` (baking it if needed) on the shared queue, waits for it and destroys it.
pub fn run_and_destroy(mut plan: clfftPlanHandle, dir: i32, input: &DeviceData, output: Option<&DeviceData>) {
    enqueue_and_wait(plan, dir, input.mems(), output.map(|o| o.mems()));
    check(unsafe { clfftDestroyPlan(&mut plan) }, "destroy");
}

/// Enqueues `plan` on the shared queue from the planes `ins` into `outs` (none in place) and waits for it.
pub fn enqueue_and_wait(
    plan: clfftPlanHandle,
    dir: i32,
    mut ins: [ocl::ffi::cl_mem; 2],
    outs: Option<[ocl::ffi::cl_mem; 2]>,
) {
    let mut q = queue_ptr();
    let mut outs = outs.unwrap_or([ptr::null_mut(); 2]);
    let mut event = ptr::null_mut();
    unsafe {
        check(
            clfftEnqueueTransform(
                plan,
                dir,
                1,
                &mut q,
                0,
                ptr::null(),
                &mut event,
                ins.as_mut_ptr(),
                outs.as_mut_ptr(),
                ptr::null_mut(),
            ),
            "enqueue",
        );
        ocl::core::wait_for_event(&ocl::core::Event::from_raw_create_ptr(event)).expect("wait");
    }
}

/// Sets `plan`'s tuning where the case names one.
pub fn set_tuning(plan: clfftPlanHandle, tuning: Option<&str>) {
    if let Some(spec) = tuning {
        let spec = std::ffi::CString::new(spec).expect("a tuning spec without NUL");
        check(unsafe { fftxClfftSetPlanTuning(plan, spec.as_ptr()) }, "tuning");
    }
}

pub fn check(status: i32, what: &str) {
    assert_eq!(status, CLFFT_SUCCESS, "{what} returned {status}");
}
