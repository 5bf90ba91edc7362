//! Rows of the status table in docs/status.md that no other test covers: layouts that overlap, buffers that
//! alias, lengths that overflow or exceed the device, objects of another context, for both C APIs. The last
//! test checks that every row of the table names a test that exists.

mod common;

use common::{
    check, context_ptr, nrmse, queue_ptr, random_complex, reference_fft, tolerance, Case, DeviceData, Dir, Prec, ENV,
};
use fftx::api::clfft::*;
use fftx::api::fftx::fftxResult_t::*;
use fftx::api::fftx::*;
use num_complex::Complex64;
use ocl::ffi::{cl_command_queue, cl_mem};
use std::ffi::c_void;
use std::ptr;
use std::sync::Barrier;

const INVALID_CONTEXT: clfftStatus = -34;
const INVALID_BUFFER_SIZE: clfftStatus = -61;
const FORWARD: clfftDirection = -1;

fn create(lengths: &[usize]) -> clfftPlanHandle {
    let mut plan = 0;
    check(
        unsafe { clfftCreateDefaultPlan(&mut plan, context_ptr(), lengths.len() as clfftDim, lengths.as_ptr()) },
        "create",
    );
    plan
}

fn destroy(mut plan: clfftPlanHandle) {
    check(unsafe { clfftDestroyPlan(&mut plan) }, "destroy");
}

fn bake_on(plan: clfftPlanHandle, mut queue: cl_command_queue) -> clfftStatus {
    unsafe { clfftBakePlan(plan, 1, &mut queue, None, ptr::null_mut()) }
}

fn bake(plan: clfftPlanHandle) -> clfftStatus {
    bake_on(plan, queue_ptr())
}

fn set_strides(plan: clfftPlanHandle, input: &[usize], output: &[usize]) {
    let (mut i, mut o) = (input.to_vec(), output.to_vec());
    unsafe {
        check(clfftSetPlanInStride(plan, i.len() as clfftDim, i.as_mut_ptr()), "in strides");
        check(clfftSetPlanOutStride(plan, o.len() as clfftDim, o.as_mut_ptr()), "out strides");
    }
}

/// Enqueues a forward transform on `queue`, waits for it when it runs, and returns the status.
fn enqueue_on(
    plan: clfftPlanHandle,
    mut queue: cl_command_queue,
    mut input: [cl_mem; 2],
    mut output: [cl_mem; 2],
    tmp: cl_mem,
) -> clfftStatus {
    let mut event = ptr::null_mut();
    let status = unsafe {
        clfftEnqueueTransform(
            plan,
            FORWARD,
            1,
            &mut queue,
            0,
            ptr::null(),
            &mut event,
            input.as_mut_ptr(),
            output.as_mut_ptr(),
            tmp,
        )
    };
    if status == CLFFT_SUCCESS {
        let event = unsafe { ocl::core::Event::from_raw_create_ptr(event) };
        ocl::core::wait_for_event(&event).expect("wait for the transform");
    }
    status
}

fn enqueue(plan: clfftPlanHandle, input: [cl_mem; 2], output: [cl_mem; 2], tmp: cl_mem) -> clfftStatus {
    enqueue_on(plan, queue_ptr(), input, output, tmp)
}

const NONE: [cl_mem; 2] = [ptr::null_mut(); 2];

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

#[test]
fn lengths_whose_product_overflows() {
    let mut plan = 0;
    let huge = [1usize << 32, 1 << 32];
    assert_eq!(unsafe { clfftCreateDefaultPlan(&mut plan, context_ptr(), 2, huge.as_ptr()) }, CLFFT_INVALID_ARG_VALUE);
    let plan = create(&[16]);
    assert_eq!(unsafe { clfftSetPlanLength(plan, 2, huge.as_ptr()) }, CLFFT_INVALID_ARG_VALUE);
    destroy(plan);
}

#[test]
fn layouts_whose_extent_overflows() {
    let plan = create(&[16]);
    check(clfftSetPlanBatchSize(plan, 1 << 40), "batch");
    check(clfftSetPlanDistance(plan, 1 << 40, 16), "distance");
    check(clfftSetResultLocation(plan, 2), "out of place");
    assert_eq!(bake(plan), CLFFT_INVALID_ARG_VALUE);
    destroy(plan);
}

#[test]
fn data_beyond_the_device_allocation_limit() {
    // 2^50 complex values: more than any device allocates in one buffer.
    let plan = create(&[1 << 20, 1 << 20, 1 << 10]);
    assert_eq!(bake(plan), INVALID_BUFFER_SIZE);
    destroy(plan);
}

#[test]
fn outputs_that_overlap_themselves() {
    let plan = create(&[4, 4]);
    check(clfftSetResultLocation(plan, 2), "out of place");
    set_strides(plan, &[1, 4], &[1, 2]);
    assert_eq!(bake(plan), CLFFT_INVALID_PLAN, "rows overlapping rows");
    set_strides(plan, &[1, 4], &[1, 4]);
    check(clfftSetPlanBatchSize(plan, 2), "batch");
    check(clfftSetPlanDistance(plan, 16, 15), "distance");
    assert_eq!(bake(plan), CLFFT_INVALID_PLAN, "a batch overlapping the one before");
    check(clfftSetResultLocation(plan, 1), "in place");
    check(clfftSetPlanDistance(plan, 15, 15), "distance");
    set_strides(plan, &[1, 4], &[1, 4]);
    assert_eq!(bake(plan), CLFFT_INVALID_PLAN, "in place");
    destroy(plan);
    // Interleaved batches (stride = batch, distance 1) do not overlap and transform correctly.
    let rmse = Case::new(&[16]).batch(4).strides(&[4], &[4]).dists(1, 1).in_place().run();
    assert!(rmse <= tolerance(Prec::Single), "interleaved batches: rmse {rmse:e}");
}

/// The error of the forward transform of `x`'s first 64 values, as `got` holds it from `at`.
fn error_of_64(got: &[Complex64], at: usize, x: &[Complex64]) -> f64 {
    let want = reference_fft(&x[..64], &[64], Dir::Forward);
    nrmse(&got[at..at + 64], &want)
}

#[test]
fn out_of_place_buffers_that_overlap_transform_as_clfft_does() {
    let plan = create(&[64]);
    check(clfftSetResultLocation(plan, 2), "out of place");
    let x = random_complex(192, 3);
    // One buffer as input and output: the transform runs in place.
    let data = DeviceData::upload(&x, Prec::Single, false);
    let whole = data.mems()[0];
    check(enqueue(plan, [whole; 2], [whole; 2], ptr::null_mut()), "one buffer");
    assert!(error_of_64(&data.download(), 0, &x) <= tolerance(Prec::Single), "one buffer");
    // Overlapping sub-buffers: the transform reads a copy of the input.
    let data = DeviceData::upload(&x, Prec::Single, false);
    let whole = data.mems()[0];
    let (first, overlapping) = (sub_buffer(whole, 0, 512), sub_buffer(whole, 256, 512));
    let [a, b] = [first.as_ptr(), overlapping.as_ptr()];
    check(enqueue(plan, [a; 2], [b; 2], ptr::null_mut()), "overlapping sub-buffers");
    assert!(error_of_64(&data.download(), 32, &x) <= tolerance(Prec::Single), "overlapping sub-buffers");
    // Disjoint parts of one buffer.
    let data = DeviceData::upload(&x, Prec::Single, false);
    let whole = data.mems()[0];
    let (first, after) = (sub_buffer(whole, 0, 512), sub_buffer(whole, 1024, 512));
    check(enqueue(plan, [first.as_ptr(); 2], [after.as_ptr(); 2], ptr::null_mut()), "disjoint sub-buffers");
    assert!(error_of_64(&data.download(), 128, &x) <= tolerance(Prec::Single), "disjoint sub-buffers");
    destroy(plan);
}

#[test]
fn planar_planes_that_overlap() {
    let plan = create(&[64]);
    check(clfftSetLayout(plan, 2, 2), "planar");
    let planes = DeviceData::upload(&random_complex(64, 5), Prec::Single, true);
    let [re, _] = planes.mems();
    assert_eq!(enqueue(plan, [re, re], NONE, ptr::null_mut()), CLFFT_INVALID_ARG_VALUE, "in place");
    check(clfftSetResultLocation(plan, 2), "out of place");
    let output = DeviceData::upload(&random_complex(64, 6), Prec::Single, true);
    let [out_re, _] = output.mems();
    assert_eq!(enqueue(plan, planes.mems(), [out_re, out_re], ptr::null_mut()), CLFFT_INVALID_ARG_VALUE);
    destroy(plan);
}

#[test]
fn scratch_that_overlaps_the_data() {
    // Long enough for two passes through scratch memory on the CPU, in place (out of place, the CPU plan
    // keeps its intermediate in the output).
    let n = 8192;
    let plan = create(&[n]);
    check(bake(plan), "bake");
    let mut bytes = 0;
    check(unsafe { clfftGetTmpBufSize(plan, &mut bytes) }, "scratch size");
    assert!(bytes > 0);
    let data = DeviceData::upload(&random_complex(n.max(bytes / 8), 7), Prec::Single, false);
    let status = enqueue(plan, data.mems(), NONE, data.mems()[0]);
    assert_eq!(status, CLFFT_INVALID_ARG_VALUE);
    destroy(plan);
}

#[test]
fn queues_and_buffers_of_another_context() {
    let other = ocl::Context::builder().devices(ENV.device).build().expect("a second context");
    let other_queue = ocl::Queue::new(&other, ENV.device, None).expect("its queue");
    let plan = create(&[64]);
    assert_eq!(bake_on(plan, other_queue.as_core().as_ptr()), INVALID_CONTEXT, "bake");
    check(bake(plan), "bake on the plan's context");
    let data = DeviceData::upload(&random_complex(64, 9), Prec::Single, false);
    assert_eq!(enqueue_on(plan, other_queue.as_core().as_ptr(), data.mems(), NONE, ptr::null_mut()), INVALID_CONTEXT);
    // Buffers of another context go to the kernels as they are, as clFFT passes them
    // (`c-tests/clfft_calling_patterns.c::buffers_of_another_context`): on one device the transform runs.
    let x = random_complex(64, 9);
    let values: Vec<f32> = x.iter().flat_map(|c| [c.re as f32, c.im as f32]).collect();
    let foreign = ocl::Buffer::<f32>::builder()
        .queue(other_queue.clone())
        .flags(ocl::flags::MEM_READ_WRITE | ocl::flags::MEM_COPY_HOST_PTR)
        .len(128)
        .copy_host_slice(&values)
        .build()
        .expect("a buffer of the other context");
    check(enqueue(plan, [foreign.as_core().as_ptr(); 2], NONE, ptr::null_mut()), "buffers of another context");
    let mut result = vec![0f32; 128];
    foreign.read(&mut result).enq().expect("read the result");
    let got: Vec<Complex64> = result.chunks_exact(2).map(|c| Complex64::new(c[0].into(), c[1].into())).collect();
    let error = nrmse(&got, &reference_fft(&x, &[64], Dir::Forward));
    assert!(error <= tolerance(Prec::Single), "rmse {error:.3e}");
    destroy(plan);
    // An out-of-place real plan given one buffer of another context as input and output, its rows of 64 reals
    // apart from its rows of 33 complex values: the transform reads a copy of the input, which a kernel makes.
    let plan = create(&[64]);
    check(clfftSetLayout(plan, 5, 3), "real to Hermitian");
    check(clfftSetResultLocation(plan, 2), "out of place");
    check(clfftSetPlanBatchSize(plan, 3), "batch");
    check(clfftSetPlanDistance(plan, 64, 33), "distances");
    let reals: Vec<f32> = random_complex(192, 17).iter().map(|c| c.re as f32).chain([0.0; 6]).collect();
    let shared = ocl::Buffer::<f32>::builder()
        .queue(other_queue.clone())
        .flags(ocl::flags::MEM_READ_WRITE | ocl::flags::MEM_COPY_HOST_PTR)
        .len(reals.len())
        .copy_host_slice(&reals)
        .build()
        .expect("a buffer of the other context");
    let mem = shared.as_core().as_ptr();
    check(enqueue(plan, [mem; 2], [mem; 2], ptr::null_mut()), "one buffer of another context as input and output");
    let mut result = vec![0f32; reals.len()];
    shared.read(&mut result).enq().expect("read the result");
    let got: Vec<Complex64> = result.chunks_exact(2).map(|c| Complex64::new(c[0].into(), c[1].into())).collect();
    let want: Vec<Complex64> = reals[..192]
        .chunks_exact(64)
        .flat_map(|row| {
            let row: Vec<Complex64> = row.iter().map(|&v| Complex64::new(v.into(), 0.0)).collect();
            reference_fft(&row, &[64], Dir::Forward)[..33].to_vec()
        })
        .collect();
    let error = nrmse(&got[..99], &want);
    assert!(error <= tolerance(Prec::Single), "rmse {error:.3e} with a copy of the input");
    destroy(plan);
}

#[test]
fn sub_buffers_smaller_than_the_plan_reaches() {
    let plan = create(&[64]);
    let data = DeviceData::upload(&random_complex(128, 10), Prec::Single, false);
    let short = sub_buffer(data.mems()[0], 512, 504);
    assert_eq!(enqueue(plan, [short.as_ptr(); 2], NONE, ptr::null_mut()), INVALID_BUFFER_SIZE);
    let fits = sub_buffer(data.mems()[0], 512, 512);
    check(enqueue(plan, [fits.as_ptr(); 2], NONE, ptr::null_mut()), "a sub-buffer that fits");
    destroy(plan);
}

#[test]
fn zero_strides_and_distances() {
    let plan = create(&[16, 4]);
    // Zero input strides and distances read one value many times (c2c::zero_input_strides_and_distances);
    // zero output strides and distances would write many results to one place.
    set_strides(plan, &[0, 16], &[0, 16]);
    assert_eq!(bake(plan), CLFFT_INVALID_ARG_VALUE, "stride");
    set_strides(plan, &[1, 16], &[1, 16]);
    check(clfftSetPlanBatchSize(plan, 2), "batch");
    check(clfftSetResultLocation(plan, 2), "out of place");
    check(clfftSetPlanDistance(plan, 64, 0), "distance");
    assert_eq!(bake(plan), CLFFT_INVALID_ARG_VALUE, "distance");
    destroy(plan);
}

/// A batch of zero, which clFFT accepts, runs nothing: the plan bakes, needs no scratch, and its enqueue gives an
/// event and leaves the buffers as they were (clFFT writes one transform or garbage into the output on some
/// plans: `c-tests/clfft_calling_patterns.c::batch_zero_64x64`).
#[test]
fn a_batch_of_zero_runs_nothing() {
    let plan = create(&[16, 4]);
    check(clfftSetResultLocation(plan, 2), "out of place");
    check(clfftSetPlanBatchSize(plan, 0), "batch");
    let mut batch = 1;
    check(unsafe { clfftGetPlanBatchSize(plan, &mut batch) }, "get batch");
    assert_eq!(batch, 0);
    check(bake(plan), "bake");
    let mut tmp = 1;
    check(unsafe { clfftGetTmpBufSize(plan, &mut tmp) }, "tmp size");
    assert_eq!(tmp, 0, "scratch for no transform");
    let x = random_complex(64, 16);
    let filler = vec![Complex64::new(12345.0, -12345.0); 64];
    let (input, output) =
        (DeviceData::upload(&x, Prec::Single, false), DeviceData::upload(&filler, Prec::Single, false));
    check(enqueue(plan, input.mems(), output.mems(), ptr::null_mut()), "enqueue");
    assert_eq!(output.download(), filler, "the output of no transform");
    assert_eq!(input.download(), DeviceData::upload(&x, Prec::Single, false).download(), "the input");
    check(clfftSetPlanBatchSize(plan, 2), "batch");
    let twice: Vec<Complex64> = x.iter().chain(&x).copied().collect();
    let (input, output) =
        (DeviceData::upload(&twice, Prec::Single, false), DeviceData::upload(&twice, Prec::Single, false));
    check(enqueue(plan, input.mems(), output.mems(), ptr::null_mut()), "enqueue a batch of 2 again");
    let want = reference_fft(&x, &[16, 4], Dir::Forward);
    let error = nrmse(&output.download()[64..], &want);
    assert!(error <= tolerance(Prec::Single), "rmse {error:.3e}");
    destroy(plan);
}

#[test]
fn in_place_real_rows_apart_transform_through_a_copy() {
    let plan = create(&[16, 4]);
    check(clfftSetLayout(plan, 5, 3), "real to Hermitian");
    // Packed real rows of 16 do not coincide with the complex rows of 9 that share their storage: clFFT
    // transforms them, and so does fftx, from a copy of the input.
    set_strides(plan, &[1, 16], &[1, 9]);
    check(clfftSetPlanDistance(plan, 64, 36), "distance");
    let x: Vec<Complex64> = random_complex(72, 11).iter().map(|c| Complex64::new(c.re, 0.0)).collect();
    let data = DeviceData::upload_real(&x, Prec::Single);
    let [mem, _] = data.mems();
    check(enqueue(plan, [mem; 2], NONE, ptr::null_mut()), "packed rows in place");
    let got: Vec<Complex64> =
        data.download_real().chunks_exact(2).map(|c| Complex64::new(c[0], c[1])).take(36).collect();
    let full = reference_fft(&x[..64], &[16, 4], Dir::Forward);
    let want: Vec<Complex64> = (0..4).flat_map(|row| full[16 * row..16 * row + 9].to_vec()).collect();
    assert!(nrmse(&got, &want) <= tolerance(Prec::Single), "packed rows in place");
    check(clfftSetLayout(plan, 5, 4), "real to planar Hermitian");
    assert_eq!(bake(plan), CLFFT_INVALID_PLAN, "planar Hermitian in place");
    destroy(plan);
}

#[test]
fn missing_buffers() {
    let plan = create(&[64]);
    check(clfftSetResultLocation(plan, 2), "out of place");
    let data = DeviceData::upload(&random_complex(64, 12), Prec::Single, false);
    assert_eq!(enqueue(plan, data.mems(), NONE, ptr::null_mut()), CLFFT_INVALID_ARG_VALUE, "no output");
    check(clfftSetLayout(plan, 2, 1), "planar input");
    let [re, _] = data.mems();
    assert_eq!(enqueue(plan, [re, ptr::null_mut()], data.mems(), ptr::null_mut()), CLFFT_INVALID_ARG_VALUE);
    destroy(plan);
}

// ----------------------------------------------------------------------------------------------------------
// The cuFFT-style API

const C2C: fftxType = fftxType_t::FFTX_C2C as fftxType;

/// PoCL 3 can crash when one thread initialises its devices (the first clGetDeviceIDs of the clFFT tests'
/// context) while another asks a device for its extensions (the default stream of the cuFFT-style API), so
/// the shared context comes first.
fn start_opencl() {
    once_cell::sync::Lazy::force(&ENV);
}

fn plan_1d(n: i32, batch: i32) -> fftxHandle {
    start_opencl();
    let mut plan = 0;
    assert_eq!(unsafe { fftxPlan1d(&mut plan, n, C2C, batch) }, FFTX_SUCCESS);
    plan
}

fn malloc(bytes: usize) -> *mut c_void {
    let mut p = ptr::null_mut();
    assert_eq!(unsafe { fftxMalloc(&mut p, bytes) }, FFTX_SUCCESS);
    p
}

/// `fftxPlanMany` for 1D C2C transforms of `n` points in the advanced layout.
fn plan_many(n: i32, stride: (i32, i32), dist: (i32, i32), batch: i32) -> (fftxResult, fftxHandle) {
    start_opencl();
    let mut plan = 0;
    let (mut sizes, mut inembed, mut onembed) = ([n], [n], [n]);
    let status = unsafe {
        fftxPlanMany(
            &mut plan,
            1,
            sizes.as_mut_ptr(),
            inembed.as_mut_ptr(),
            stride.0,
            dist.0,
            onembed.as_mut_ptr(),
            stride.1,
            dist.1,
            C2C,
            batch,
        )
    };
    (status, plan)
}

#[test]
fn fftx_output_layouts_that_overlap_themselves() {
    assert_eq!(plan_many(16, (1, 1), (16, 8), 2).0, FFTX_INVALID_VALUE, "odist inside a transform");
    assert_eq!(plan_many(16, (1, 2), (16, 1), 4).0, FFTX_INVALID_VALUE, "ostride 2 under 4 interleaved batches");
    let (status, plan) = plan_many(16, (4, 4), (1, 1), 4);
    assert_eq!(status, FFTX_SUCCESS, "4 interleaved batches");
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
}

#[test]
fn fftx_embed_strides_that_overflow() {
    // Element strides of 2^20, 2^60 and 2^100: the last is past the address space.
    start_opencl();
    let mut plan = 0;
    assert_eq!(unsafe { fftxCreate(&mut plan) }, FFTX_SUCCESS);
    let (mut n, mut embed, mut work) = ([2i64, 2, 2], [1i64, 1 << 40, 1 << 40], 0);
    let status = unsafe {
        fftxMakePlanMany64(
            plan,
            3,
            n.as_mut_ptr(),
            embed.as_mut_ptr(),
            1 << 20,
            1,
            embed.as_mut_ptr(),
            1 << 20,
            1,
            C2C,
            1,
            &mut work,
        )
    };
    assert_eq!(status, FFTX_INVALID_SIZE);
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
}

#[test]
fn fftx_in_place_with_two_layouts() {
    let (status, plan) = plan_many(16, (1, 2), (16, 32), 1);
    assert_eq!(status, FFTX_SUCCESS, "out of place they are fine");
    let mut data = vec![fftxComplex::default(); 32];
    let d = data.as_mut_ptr();
    assert_eq!(unsafe { fftxExecC2C(plan, d, d, FFTX_FORWARD) }, FFTX_INVALID_PLAN);
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
}

#[test]
fn fftx_device_buffers_that_overlap() {
    let plan = plan_1d(64, 1);
    let device = malloc(4 * 64 * 8);
    let (input, output) = (device, unsafe { device.cast::<u8>().add(256) }.cast::<fftxComplex>());
    assert_eq!(unsafe { fftxExecC2C(plan, input.cast(), output, FFTX_FORWARD) }, FFTX_INVALID_VALUE);
    let apart = unsafe { device.cast::<u8>().add(512) }.cast::<fftxComplex>();
    assert_eq!(unsafe { fftxExecC2C(plan, input.cast(), apart, FFTX_FORWARD) }, FFTX_SUCCESS);
    assert_eq!(fftxFree(device), FFTX_SUCCESS);
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
}

#[test]
fn fftx_malloc_beyond_the_largest_allocation() {
    for bytes in [usize::MAX, 1 << 50] {
        let mut p = ptr::null_mut();
        assert_eq!(unsafe { fftxMalloc(&mut p, bytes) }, FFTX_ALLOC_FAILED, "{bytes} bytes");
        assert!(p.is_null());
    }
}

#[test]
fn fftx_exec_on_freed_device_memory() {
    let plan = plan_1d(4096, 4);
    let (a, b) = (malloc(4096 * 4 * 8), malloc(4096 * 4 * 8));
    assert_eq!(unsafe { fftxExecC2C(plan, a.cast(), b.cast(), FFTX_FORWARD) }, FFTX_SUCCESS);
    assert_eq!(fftxFree(a.cast()), FFTX_SUCCESS);
    assert_eq!(fftxFree(b.cast()), FFTX_SUCCESS);
    // Freed memory is neither device memory nor host memory: refused, never read or written.
    assert_eq!(unsafe { fftxExecC2C(plan, a.cast(), b.cast(), FFTX_FORWARD) }, FFTX_INVALID_VALUE, "out of place");
    assert_eq!(unsafe { fftxExecC2C(plan, a.cast(), a.cast(), FFTX_INVERSE) }, FFTX_INVALID_VALUE, "in place");
    let inside = unsafe { a.cast::<u8>().add(4096) }.cast::<fftxComplex>();
    assert_eq!(unsafe { fftxExecC2C(plan, inside, inside, FFTX_INVERSE) }, FFTX_INVALID_VALUE, "inside");
    let message = unsafe { std::ffi::CStr::from_ptr(fftxGetLastErrorMessage()) }.to_string_lossy().into_owned();
    assert!(message.contains("freed with fftxFree"), "{message}");
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
}

#[test]
fn fftx_shapes_beyond_the_device() {
    // Larger than the device allocates (PoCL's largest buffer follows the memory free when it starts: 4-8 GiB
    // on this machine), in a shape that does not stream: the advanced layout (2^30 points with a stride of 2,
    // 16 GB), 2D columns longer than a slab (2^28 x 64, 128 GiB), and 1D lengths whose complex transform is
    // prime (2^31 - 1 points in single, 17 GB; the D2Z of twice the prime 1_073_741_789, which runs as a
    // complex transform of that length: 17 GB of reals).
    assert_eq!(plan_many(1 << 30, (2, 1), (1 << 31, 1 << 30), 1).0, FFTX_INVALID_SIZE, "advanced layout");
    let mut plan = 0;
    let d2z = fftxType_t::FFTX_D2Z as fftxType;
    assert_eq!(unsafe { fftxPlan1d(&mut plan, i32::MAX, C2C, 1) }, FFTX_INVALID_SIZE, "prime C2C");
    assert_eq!(unsafe { fftxPlan1d(&mut plan, 2_147_483_578, d2z, 1) }, FFTX_INVALID_SIZE, "prime half");
    // Columns of 2^28 values (2 GiB in single), which no slab holds.
    assert_eq!(unsafe { fftxPlan2d(&mut plan, 1 << 28, 64, C2C) }, FFTX_INVALID_SIZE, "columns too long");
    // These stream: their plans are made for host executions.
    assert_eq!(unsafe { fftxPlan3d(&mut plan, 2048, 2048, 2048, C2C) }, FFTX_SUCCESS, "2^33 points in 3D");
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
    for (n, what) in [(1 << 30, "2^30 reals"), (1_162_261_467, "3^19 reals, odd")] {
        assert_eq!(unsafe { fftxPlan1d(&mut plan, n, d2z, 1) }, FFTX_SUCCESS, "{what}");
        assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
    }
}

#[test]
fn fftx_work_area_too_small() {
    let n = 1 << 16;
    let plan = plan_1d(n, 1);
    let mut work = 0;
    assert_eq!(unsafe { fftxGetSize(plan, &mut work) }, FFTX_SUCCESS);
    assert!(work > 0, "a {n}-point transform needs scratch");
    let data = malloc(n as usize * 8);
    let area = malloc(8);
    assert_eq!(fftxSetAutoAllocation(plan, 0), FFTX_SUCCESS);
    assert_eq!(fftxSetWorkArea(plan, area), FFTX_SUCCESS);
    assert_eq!(unsafe { fftxExecC2C(plan, data.cast(), data.cast(), FFTX_FORWARD) }, FFTX_INVALID_VALUE);
    for p in [data, area] {
        assert_eq!(fftxFree(p), FFTX_SUCCESS);
    }
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
}

#[test]
fn fftx_exec_racing_destroy() {
    let n = 256;
    let x = random_complex(n, 11);
    let want = reference_fft(&x, &[n], Dir::Forward);
    let input: Vec<fftxComplex> = x.iter().map(|c| fftxComplex { x: c.re as f32, y: c.im as f32 }).collect();
    for round in 0..20u64 {
        let plan = plan_1d(n as i32, 1);
        let start = Barrier::new(2);
        std::thread::scope(|scope| {
            let executor = scope.spawn(|| {
                start.wait();
                let mut statuses = Vec::new();
                loop {
                    let mut output = vec![fftxComplex::default(); n];
                    let status =
                        unsafe { fftxExecC2C(plan, input.as_ptr().cast_mut(), output.as_mut_ptr(), FFTX_FORWARD) };
                    statuses.push(status);
                    if status != FFTX_SUCCESS {
                        return statuses;
                    }
                    let got: Vec<Complex64> = output.iter().map(|c| Complex64::new(c.x as f64, c.y as f64)).collect();
                    let err: f64 = got.iter().zip(&want).map(|(g, w)| (g - w).norm_sqr()).sum();
                    let norm: f64 = want.iter().map(|w| w.norm_sqr()).sum();
                    assert!((err / norm).sqrt() <= tolerance(Prec::Single), "round {round}: a wrong result");
                }
            });
            start.wait();
            std::thread::sleep(std::time::Duration::from_micros(round * 200));
            assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
            let statuses = executor.join().expect("the executing thread");
            let (last, before) = statuses.split_last().expect("at least one exec");
            assert_eq!(*last, FFTX_INVALID_PLAN, "round {round}");
            assert!(before.iter().all(|&s| s == FFTX_SUCCESS), "round {round}: {statuses:?}");
        });
    }
}

// ----------------------------------------------------------------------------------------------------------
// The table itself

/// Every row of docs/status.md ends in a `file::test` cell naming a test that exists: a `fn` in a Rust test
/// or source file, or a function of a C test.
#[test]
fn every_row_of_the_status_table_names_a_test() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = std::fs::read_to_string(root.join("docs/status.md")).expect("docs/status.md");
    let mut rows = 0;
    for line in table.lines().filter(|l| l.starts_with('|') && !l.starts_with("|--") && !l.starts_with("| Case")) {
        // The fourth column names the test; the clFFT table's fifth says what clFFT does.
        let cell = line.trim_matches('|').split('|').nth(3).expect("a test column").trim();
        let cell = cell.trim_matches('`');
        let (file, test) = cell.split_once("::").unwrap_or_else(|| panic!("no file::test in row: {line}"));
        let source = std::fs::read_to_string(root.join(file)).unwrap_or_else(|_| panic!("{file} of row: {line}"));
        let defined = if file.ends_with(".rs") {
            source.contains(&format!("fn {test}("))
        } else {
            source.lines().any(|l| !l.starts_with(' ') && l.contains(&format!(" {test}(")))
        };
        assert!(defined, "{file} defines no test {test} (row: {line})");
        rows += 1;
    }
    assert!(rows >= 50, "only {rows} rows in docs/status.md");
}
