//! The exported transposes with the kernels shaped for the device and with GPU shapes forced (see
//! `transpose_cases`), and their argument checks.

mod common;
mod transpose_cases;

use common::{check, queue_ptr, random_complex, DeviceData, Prec, ENV};
use fftx::api::clfft::{CLFFT_INVALID_ARG_VALUE, CLFFT_INVALID_HOST_PTR, CLFFT_NOTIMPLEMENTED, CLFFT_SUCCESS};
use fftx::api::transpose::{fftxTransposeInPlace, fftxTransposeOutOfPlace};
use ocl::ffi::{cl_command_queue, cl_event, cl_mem};
use std::ptr;

/// Tiles through local memory and barriers, on whatever device is present.
const GPU_SHAPE: Option<&str> = Some("profile=gpu");

#[test]
fn squares_in_place() {
    transpose_cases::squares_in_place(None);
}

#[test]
fn squares_in_place_gpu_shape() {
    transpose_cases::squares_in_place(GPU_SHAPE);
}

#[test]
fn the_largest_square() {
    transpose_cases::the_largest_square(None);
}

#[test]
fn the_largest_square_gpu_shape() {
    transpose_cases::the_largest_square(GPU_SHAPE);
}

#[test]
fn rectangles_one_to_k_in_place() {
    transpose_cases::rectangles_one_to_k_in_place(None);
}

#[test]
fn rectangles_one_to_k_in_place_gpu_shape() {
    transpose_cases::rectangles_one_to_k_in_place(GPU_SHAPE);
}

#[test]
fn other_rectangles_in_place_are_not_implemented() {
    transpose_cases::other_rectangles_in_place_are_not_implemented(None);
}

#[test]
fn other_rectangles_in_place_are_not_implemented_gpu_shape() {
    transpose_cases::other_rectangles_in_place_are_not_implemented(GPU_SHAPE);
}

#[test]
fn out_of_place_any_shape() {
    transpose_cases::out_of_place_any_shape(None);
}

#[test]
fn out_of_place_any_shape_gpu_shape() {
    transpose_cases::out_of_place_any_shape(GPU_SHAPE);
}

/// Calls `fftxTransposeInPlace` (`output` empty) or `fftxTransposeOutOfPlace` and returns its status; an
/// event it returns is released.
#[allow(clippy::too_many_arguments)]
fn call(
    queue: cl_command_queue,
    input: &mut [cl_mem],
    output: &mut [cl_mem],
    (rows, cols, batch): (usize, usize, usize),
    precision: i32,
    layout: i32,
    wait: (u32, *const cl_event),
) -> i32 {
    let mut event = ptr::null_mut();
    let list = |b: &mut [cl_mem]| if b.is_empty() { ptr::null_mut() } else { b.as_mut_ptr() };
    let status = unsafe {
        if output.is_empty() {
            fftxTransposeInPlace(queue, list(input), rows, cols, batch, precision, layout, wait.0, wait.1, &mut event)
        } else {
            let (i, o) = (list(input), list(output));
            fftxTransposeOutOfPlace(queue, i, o, rows, cols, batch, precision, layout, wait.0, wait.1, &mut event)
        }
    };
    if status == CLFFT_SUCCESS {
        unsafe { ocl::core::wait_for_event(&ocl::core::Event::from_raw_create_ptr(event)).expect("wait") };
    }
    status
}

/// Every argument is checked before anything runs, and each misuse gets the status docs/status.md gives it.
#[test]
fn bad_arguments_get_statuses() {
    const INVALID_CONTEXT: i32 = -34;
    const INVALID_COMMAND_QUEUE: i32 = -36;
    const INVALID_EVENT_WAIT_LIST: i32 = -57;
    const INVALID_BUFFER_SIZE: i32 = -61;
    let data = DeviceData::upload(&random_complex(64 * 64, 1), Prec::Single, false);
    let planes = DeviceData::upload(&random_complex(64 * 64, 2), Prec::Single, true);
    let [one, _] = data.mems();
    let [re, im] = planes.mems();
    let q = queue_ptr();
    let none = (0, ptr::null());
    let square = (64, 64, 1);
    check(call(q, &mut [one], &mut [], square, 1, 1, none), "a good call");

    assert_eq!(call(ptr::null_mut(), &mut [one], &mut [], square, 1, 1, none), INVALID_COMMAND_QUEUE);
    assert_eq!(call(q, &mut [], &mut [], square, 1, 1, none), CLFFT_INVALID_HOST_PTR, "null buffer list");
    assert_eq!(call(q, &mut [one], &mut [], square, 1, 1, (1, ptr::null())), INVALID_EVENT_WAIT_LIST);
    for shape in [(0, 64, 1), (64, 0, 1), (64, 64, 0), (1 << 32, 1 << 32, 1), (1 << 20, 1 << 20, 1 << 30)] {
        assert_eq!(call(q, &mut [one], &mut [], shape, 1, 1, none), CLFFT_INVALID_ARG_VALUE, "{shape:?}");
    }
    for precision in [0, 5, -1] {
        assert_eq!(call(q, &mut [one], &mut [], square, precision, 1, none), CLFFT_INVALID_ARG_VALUE);
    }
    assert_eq!(call(q, &mut [one], &mut [], square, 3, 1, none), CLFFT_NOTIMPLEMENTED, "CLFFT_SINGLE_FAST");
    for layout in [0, 3, 5, 6] {
        assert_eq!(call(q, &mut [one], &mut [], square, 1, layout, none), CLFFT_INVALID_ARG_VALUE, "{layout}");
    }
    assert_eq!(call(q, &mut [one], &mut [], (64, 128, 1), 1, 1, none), INVALID_BUFFER_SIZE, "short buffer");
    check(call(q, &mut [one], &mut [], (32, 64, 1), 2, 1, none), "half as many doubles");
    assert_eq!(call(q, &mut [one], &mut [], square, 2, 1, none), INVALID_BUFFER_SIZE, "short for doubles");
    let beyond = ENV.device.info(ocl::enums::DeviceInfo::MaxMemAllocSize).expect("the allocation limit");
    let beyond = beyond.to_string().parse::<usize>().expect("a size") / 8 + 1;
    assert_eq!(call(q, &mut [one], &mut [], (1, beyond, 1), 1, 1, none), INVALID_BUFFER_SIZE, "beyond the device");

    assert_eq!(call(q, &mut [re, ptr::null_mut()], &mut [], square, 1, 2, none), CLFFT_INVALID_ARG_VALUE);
    assert_eq!(call(q, &mut [re, re], &mut [], square, 1, 2, none), CLFFT_INVALID_ARG_VALUE, "one plane twice");
    check(call(q, &mut [re, im], &mut [], square, 1, 2, none), "planar");

    let mut output = [ptr::null_mut()];
    assert_eq!(call(q, &mut [one], &mut output, square, 1, 1, none), CLFFT_INVALID_ARG_VALUE, "null output");
    assert_eq!(call(q, &mut [one], &mut [one], square, 1, 1, none), CLFFT_INVALID_ARG_VALUE, "output is input");
    let (low, high) = (sub_buffer(one, 0, 8192), sub_buffer(one, 4096, 8192));
    let (low, high) = (low.as_ptr(), high.as_ptr());
    assert_eq!(call(q, &mut [low], &mut [high], (32, 32, 1), 1, 1, none), CLFFT_INVALID_ARG_VALUE, "overlap");
    let apart = sub_buffer(one, 8192, 8192);
    check(call(q, &mut [low], &mut [apart.as_ptr()], (32, 32, 1), 1, 1, none), "disjoint sub-buffers");
    assert_eq!(call(q, &mut [re, im], &mut [im, one], square, 1, 2, none), CLFFT_INVALID_ARG_VALUE, "planes");

    let other = ocl::Context::builder().devices(ENV.device).build().expect("a second context");
    let other_queue = ocl::Queue::new(&other, ENV.device, None).expect("its queue");
    let foreign = ocl::Buffer::<f32>::builder().context(&other).len(2 * 64 * 64).build().expect("a buffer");
    let foreign = foreign.as_core().as_ptr();
    assert_eq!(call(other_queue.as_core().as_ptr(), &mut [one], &mut [], square, 1, 1, none), INVALID_CONTEXT);
    assert_eq!(call(q, &mut [foreign], &mut [], square, 1, 1, none), INVALID_CONTEXT, "a foreign buffer");
    assert_eq!(call(q, &mut [one], &mut [foreign], square, 1, 1, none), INVALID_CONTEXT, "a foreign output");
}

/// A sub-buffer of `bytes` bytes at `offset` in `parent`.
fn sub_buffer(parent: cl_mem, offset: usize, bytes: usize) -> ocl::core::Mem {
    let parent = unsafe { ocl::core::Mem::from_raw_copied_ptr(parent) };
    ocl::core::create_sub_buffer::<f32>(
        &parent,
        ocl::flags::MEM_READ_WRITE,
        &ocl::core::BufferRegion::new(offset / 4, bytes / 4),
    )
    .expect("sub-buffer")
}
