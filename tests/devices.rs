//! A plan baked for one device of a context and enqueued on a queue of another answers
//! CLFFT_DEVICE_MISMATCH. PoCL shows two CPU devices when `POCL_DEVICES` asks for two; this file runs in a
//! process of its own, so it can ask before anything starts OpenCL.

use fftx::api::clfft::*;
use ocl::ffi::cl_command_queue;
use ocl::{Buffer, Context, Device, Platform, Queue};
use std::ptr;

#[test]
fn enqueue_on_another_device_of_the_plans_context() {
    std::env::set_var("POCL_DEVICES", "pthread pthread");
    if std::env::var_os("FFTX_CACHE_DIR").is_none() {
        std::env::set_var("FFTX_CACHE_DIR", concat!(env!("CARGO_MANIFEST_DIR"), "/target/fftx-test-cache"));
    }
    let platform = Platform::list()
        .into_iter()
        .find(|p| p.name().is_ok_and(|n| n.contains("Portable Computing Language")))
        .expect("PoCL (pocl-opencl-icd)");
    let devices = Device::list_all(platform).expect("devices");
    assert!(devices.len() >= 2, "POCL_DEVICES asked PoCL for two devices, got {}", devices.len());
    let context = Context::builder().platform(platform).devices(&devices[..2]).build().expect("context");
    let queues: Vec<Queue> = devices[..2].iter().map(|&d| Queue::new(&context, d, None).expect("queue")).collect();
    let buffer = Buffer::<f32>::builder().queue(queues[0].clone()).len(128).fill_val(1.0).build().expect("buffer");

    let length = 64usize;
    let mut plan = 0;
    let mut baked_on: cl_command_queue = queues[0].as_core().as_ptr();
    unsafe {
        assert_eq!(clfftCreateDefaultPlan(&mut plan, context.as_ptr(), 1, &length), CLFFT_SUCCESS);
        assert_eq!(clfftBakePlan(plan, 1, &mut baked_on, None, ptr::null_mut()), CLFFT_SUCCESS);
    }
    let enqueue = |queue: &Queue| {
        let mut queue = queue.as_core().as_ptr();
        let mut buffers = [buffer.as_core().as_ptr(), ptr::null_mut()];
        let mut event = ptr::null_mut();
        let status = unsafe {
            clfftEnqueueTransform(
                plan,
                -1,
                1,
                &mut queue,
                0,
                ptr::null(),
                &mut event,
                buffers.as_mut_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        if status == CLFFT_SUCCESS {
            ocl::core::wait_for_event(&unsafe { ocl::core::Event::from_raw_create_ptr(event) }).expect("wait");
        }
        status
    };
    assert_eq!(enqueue(&queues[1]), CLFFT_DEVICE_MISMATCH);
    assert_eq!(enqueue(&queues[0]), CLFFT_SUCCESS);
    assert_eq!(unsafe { clfftDestroyPlan(&mut plan) }, CLFFT_SUCCESS);
}
