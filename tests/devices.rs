//! Plans on a context of two devices. A plan baked for one device and enqueued on a queue of the other answers
//! CLFFT_DEVICE_MISMATCH; a batch enqueued on queues of both spreads over the two and computes what one
//! computes. PoCL shows two CPU devices when `POCL_DEVICES` asks for two; this file runs in a process of its
//! own, so it can ask before anything starts OpenCL.

use fftx::api::clfft::*;
use ocl::ffi::cl_command_queue;
use ocl::{Buffer, Context, Device, Platform, Queue};
use std::ptr;

#[test]
fn enqueue_on_another_device_of_the_plans_context() {
    let TwoDevices { context, queues } = &*TWO;
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

/// PoCL's platform with two CPU devices (`POCL_DEVICES`), a context over both and a queue on each: set up
/// once, before anything else starts OpenCL.
struct TwoDevices {
    context: Context,
    queues: Vec<Queue>,
}

static TWO: once_cell::sync::Lazy<TwoDevices> = once_cell::sync::Lazy::new(|| {
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
    let queues = devices[..2].iter().map(|&d| Queue::new(&context, d, None).expect("queue")).collect();
    TwoDevices { context, queues }
});

/// A clFFT transform of `lengths` x `batch` in `precision` (1 single, 2 double), layouts `layouts` (clFFT's
/// values), in place or not, run on the queues `on` of the two; returns the output's reals (both planes of a
/// planar output, one after the other) and the shares the batch ran in.
#[allow(clippy::too_many_arguments)]
fn run_on<T: ocl::OclPrm + From<i8>>(
    lengths: &[usize],
    batch: usize,
    precision: clfftPrecision,
    layouts: (clfftLayout, clfftLayout),
    in_place: bool,
    input: &[T],
    output_len: usize,
    on: &[usize],
) -> (Vec<T>, Vec<(usize, usize)>) {
    let two = &*TWO;
    let planar = |l: clfftLayout| l == 2 || l == 4;
    let planes = |l: clfftLayout, values: &[T]| -> Vec<Buffer<T>> {
        let n = if planar(l) { 2 } else { 1 };
        let per = values.len() / n;
        (0..n)
            .map(|k| {
                Buffer::<T>::builder()
                    .queue(two.queues[0].clone())
                    .len(per)
                    .copy_host_slice(&values[k * per..(k + 1) * per])
                    .build()
                    .expect("buffer")
            })
            .collect()
    };
    let inputs = planes(layouts.0, input);
    let outputs = if in_place { Vec::new() } else { planes(layouts.1, &vec![T::from(0); output_len]) };
    let mut plan = 0;
    let mut queues: Vec<ocl::ffi::cl_command_queue> = on.iter().map(|&q| two.queues[q].as_core().as_ptr()).collect();
    let mut events = vec![ptr::null_mut(); queues.len()];
    let mut ins: Vec<_> = inputs.iter().map(|b| b.as_core().as_ptr()).collect();
    let mut outs: Vec<_> = outputs.iter().map(|b| b.as_core().as_ptr()).collect();
    unsafe {
        let ok = |status, what: &str| assert_eq!(status, CLFFT_SUCCESS, "{what}");
        let context = two.context.as_ptr();
        ok(clfftCreateDefaultPlan(&mut plan, context, lengths.len() as clfftDim, lengths.as_ptr()), "create");
        ok(clfftSetPlanPrecision(plan, precision), "precision");
        ok(clfftSetLayout(plan, layouts.0, layouts.1), "layout");
        ok(clfftSetResultLocation(plan, if in_place { 1 } else { 2 }), "placement");
        ok(clfftSetPlanBatchSize(plan, batch), "batch");
        // Packed transforms, one after another: each layout's values per transform.
        let per_transform = |layout: clfftLayout, reals: usize| reals / batch / if layout == 5 { 1 } else { 2 };
        let in_dist = per_transform(layouts.0, input.len());
        let out_dist = if in_place { in_dist } else { per_transform(layouts.1, output_len) };
        ok(clfftSetPlanDistance(plan, in_dist, out_dist), "distances");
        ok(clfftBakePlan(plan, queues.len() as u32, queues.as_mut_ptr(), None, ptr::null_mut()), "bake");
        let status = clfftEnqueueTransform(
            plan,
            -1,
            queues.len() as u32,
            queues.as_mut_ptr(),
            0,
            ptr::null(),
            events.as_mut_ptr(),
            ins.as_mut_ptr(),
            if in_place { ptr::null_mut() } else { outs.as_mut_ptr() },
            ptr::null_mut(),
        );
        ok(status, "enqueue");
    }
    // Every queue's event completes with the whole transform; the reads below go through the first queue,
    // in order after it, without waiting for the events.
    for event in events {
        assert!(!event.is_null(), "an event for every queue");
        unsafe { ocl::core::Event::from_raw_create_ptr(event) };
    }
    let shares =
        fftx::plan::registry::lock(&fftx::plan::registry::CLFFT_PLANS.get(plan).expect("plan")).spread_shares();
    assert_eq!(unsafe { clfftDestroyPlan(&mut plan) }, CLFFT_SUCCESS);
    let mut result = Vec::new();
    for buffer in if in_place { &inputs } else { &outputs } {
        let mut values = vec![T::from(0); buffer.len()];
        buffer.read(&mut values).queue(&two.queues[0]).enq().expect("read");
        result.extend(values);
    }
    (result, shares)
}

fn normalized_rmse<T: Copy + Into<f64>>(got: &[T], want: &[T]) -> f64 {
    let (mut err, mut norm) = (0.0, 0.0);
    for (&g, &w) in got.iter().zip(want) {
        let (g, w): (f64, f64) = (g.into(), w.into());
        err += (g - w) * (g - w);
        norm += w * w;
    }
    (err / norm.max(f64::MIN_POSITIVE)).sqrt()
}

/// Values in [-1, 1).
fn values<T: From<f32>>(count: usize, seed: u32) -> Vec<T> {
    let mut state = seed.max(1);
    (0..count)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            T::from((state >> 8) as f32 / (1 << 24) as f32 * 2.0 - 1.0)
        })
        .collect()
}

/// Runs the transform on the first queue alone and on both, and checks that both devices took a share
/// and that the results agree: exactly where the shares run the kernels of the whole batch, and within the
/// precision's rounding (`tolerance`) where a share's smaller batch plans other kernels.
#[allow(clippy::too_many_arguments)]
fn spread_matches_one_device<T: ocl::OclPrm + From<i8> + From<f32> + Into<f64>>(
    lengths: &[usize],
    batch: usize,
    precision: clfftPrecision,
    layouts: (clfftLayout, clfftLayout),
    in_place: bool,
    input_len: usize,
    output_len: usize,
    tolerance: f64,
) {
    let input: Vec<T> = values(input_len, lengths.iter().product::<usize>() as u32 + batch as u32);
    let (alone, none) = run_on(lengths, batch, precision, layouts, in_place, &input, output_len, &[0]);
    assert!(none.is_empty(), "one queue spreads nothing");
    let (spread, shares) = run_on(lengths, batch, precision, layouts, in_place, &input, output_len, &[0, 1]);
    assert_eq!(shares.len(), 2, "{lengths:?} x {batch}: both devices take a share ({shares:?})");
    assert_eq!(shares.iter().map(|s| s.1).sum::<usize>(), batch);
    let error = normalized_rmse(&spread, &alone);
    println!("{lengths:?} x {batch} in place {in_place}: shares {shares:?}, normalized RMSE {error:.1e}");
    assert!(error <= tolerance, "{lengths:?} x {batch}: the spread result differs by {error:.1e}");
}

#[test]
fn a_batch_spreads_over_the_devices_of_the_queues() {
    // (lengths, batch, precision, layouts, in place, input reals, output reals)
    let (interleaved, planar, hermitian, real) = (1, 2, 3, 5);
    spread_matches_one_device::<f32>(
        &[1024],
        64,
        1,
        (interleaved, interleaved),
        false,
        2 * 1024 * 64,
        2 * 1024 * 64,
        1e-7,
    );
    spread_matches_one_device::<f32>(&[48, 64], 10, 1, (interleaved, interleaved), true, 2 * 48 * 64 * 10, 0, 1e-6);
    spread_matches_one_device::<f32>(&[256], 16, 1, (planar, planar), false, 2 * 256 * 16, 2 * 256 * 16, 1e-6);
    spread_matches_one_device::<f32>(&[1000], 33, 1, (real, hermitian), false, 1000 * 33, 2 * 501 * 33, 1e-6);
    spread_matches_one_device::<f64>(&[128], 9, 2, (hermitian, real), false, 2 * 65 * 9, 128 * 9, 1e-14);
    spread_matches_one_device::<f64>(
        &[16, 16, 16],
        4,
        2,
        (interleaved, interleaved),
        false,
        2 * 4096 * 4,
        2 * 4096 * 4,
        1e-15,
    );
}
