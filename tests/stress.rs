//! Eight threads create, bake, enqueue and destroy plans at once, on one shared queue and on queues of their
//! own, through both C APIs, and also enqueue plans they share; every transform is checked against the
//! reference. More than 10,000 checked transforms in all.

mod common;

use common::{check, context_ptr, queue_ptr, random_complex, reference_fft, tolerance, DeviceData, Dir, Prec, ENV};
use fftx::api::clfft::*;
use fftx::api::fftx::fftxResult_t::*;
use fftx::api::fftx::*;
use num_complex::Complex64;
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::Instant;

const THREADS: usize = 8;
/// Plans each thread makes, and transforms it runs on each.
const PLANS_PER_THREAD: usize = 150;
const TRANSFORMS_PER_PLAN: usize = 10;

static CALLS: AtomicU64 = AtomicU64::new(0);
static CHECKED: AtomicU64 = AtomicU64::new(0);

fn call(status: i32, what: &str) {
    CALLS.fetch_add(1, Ordering::Relaxed);
    check(status, what);
}

/// The shapes the threads cycle through: lengths, batch, double precision, in place.
const SHAPES: [(&[usize], usize, bool, bool); 6] = [
    (&[16], 4, false, true),
    (&[60], 2, true, false),
    (&[8, 12], 1, false, false),
    (&[64], 3, false, false),
    (&[5, 4, 3], 1, true, true),
    (&[128], 1, false, true),
];

/// Checks a batch of forward transforms of `lengths` (one after another in `input` and `output`).
fn assert_transformed(input: &[Complex64], output: &[Complex64], lengths: &[usize], precision: Prec) {
    let n: usize = lengths.iter().product();
    let want: Vec<Complex64> = input.chunks(n).flat_map(|x| reference_fft(x, lengths, Dir::Forward)).collect();
    let err: f64 = output.iter().zip(&want).map(|(g, w)| (g - w).norm_sqr()).sum();
    let norm: f64 = want.iter().map(|w| w.norm_sqr()).sum();
    let rmse = (err / norm).sqrt();
    assert!(rmse <= tolerance(precision), "{lengths:?}: rmse {rmse:e}");
    CHECKED.fetch_add(1, Ordering::Relaxed);
}

/// Enqueues a forward transform of `plan` on `queue` from `input` (to `output` out of place) and waits.
fn transform(
    plan: clfftPlanHandle,
    mut queue: ocl::ffi::cl_command_queue,
    input: &DeviceData,
    output: Option<&DeviceData>,
) {
    let mut ins = input.mems();
    let mut outs = output.map_or([ptr::null_mut(); 2], |o| o.mems());
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
            ins.as_mut_ptr(),
            outs.as_mut_ptr(),
            ptr::null_mut(),
        )
    };
    call(status, "enqueue");
    ocl::core::wait_for_event(&unsafe { ocl::core::Event::from_raw_create_ptr(event) }).expect("wait");
}

/// One clFFT thread: plans of every shape made, baked, run and destroyed on `queue`, and the shared plan run
/// between them.
fn clfft_worker(thread: usize, queue: ocl::ffi::cl_command_queue, shared: clfftPlanHandle) {
    for round in 0..PLANS_PER_THREAD {
        let (lengths, batch, double, in_place) = SHAPES[(thread + round) % SHAPES.len()];
        let precision = if double { Prec::Double } else { Prec::Single };
        let mut plan = 0;
        call(
            unsafe { clfftCreateDefaultPlan(&mut plan, context_ptr(), lengths.len() as clfftDim, lengths.as_ptr()) },
            "create",
        );
        call(clfftSetPlanPrecision(plan, if double { 2 } else { 1 }), "precision");
        call(clfftSetPlanBatchSize(plan, batch), "batch");
        call(clfftSetResultLocation(plan, if in_place { 1 } else { 2 }), "placeness");
        let mut q = queue;
        call(unsafe { clfftBakePlan(plan, 1, &mut q, None, ptr::null_mut()) }, "bake");
        let count = lengths.iter().product::<usize>() * batch;
        for k in 0..TRANSFORMS_PER_PLAN {
            let x = random_complex(count, (thread * 1000 + round * 10 + k) as u64);
            let input = DeviceData::upload(&x, precision, false);
            let output = (!in_place).then(|| DeviceData::upload(&vec![Complex64::default(); count], precision, false));
            transform(plan, queue, &input, output.as_ref());
            assert_transformed(&x, &output.as_ref().unwrap_or(&input).download(), lengths, precision);
        }
        call(unsafe { clfftDestroyPlan(&mut plan) }, "destroy");

        let x = random_complex(64, (thread * 1000 + round) as u64);
        let data = DeviceData::upload(&x, Prec::Single, false);
        transform(shared, queue, &data, None);
        assert_transformed(&x, &data.download(), &[64], Prec::Single);
    }
}

/// One cuFFT-style thread: plans made, run on host memory and destroyed, on the default stream or on
/// `stream`.
fn fftx_worker(thread: usize, stream: Option<ocl::ffi::cl_command_queue>) {
    for round in 0..PLANS_PER_THREAD {
        let (lengths, batch, _, in_place) = SHAPES[(thread + round) % SHAPES.len()];
        let n: Vec<i32> = lengths.iter().rev().map(|&l| l as i32).collect();
        let mut plan = 0;
        let mut sizes = n.clone();
        let status = unsafe {
            fftxPlanMany(
                &mut plan,
                n.len() as i32,
                sizes.as_mut_ptr(),
                ptr::null_mut(),
                0,
                0,
                ptr::null_mut(),
                0,
                0,
                fftxType_t::FFTX_C2C as fftxType,
                batch as i32,
            )
        };
        CALLS.fetch_add(1, Ordering::Relaxed);
        assert_eq!(status, FFTX_SUCCESS, "plan");
        if let Some(queue) = stream {
            CALLS.fetch_add(1, Ordering::Relaxed);
            assert_eq!(unsafe { fftxSetStream(plan, queue) }, FFTX_SUCCESS, "stream");
        }
        let count = lengths.iter().product::<usize>() * batch;
        for k in 0..TRANSFORMS_PER_PLAN {
            let x = random_complex(count, (thread * 1000 + round * 10 + k) as u64);
            let mut input: Vec<fftxComplex> =
                x.iter().map(|c| fftxComplex { x: c.re as f32, y: c.im as f32 }).collect();
            let mut output = vec![fftxComplex::default(); count];
            let out = if in_place { input.as_mut_ptr() } else { output.as_mut_ptr() };
            CALLS.fetch_add(1, Ordering::Relaxed);
            assert_eq!(unsafe { fftxExecC2C(plan, input.as_mut_ptr(), out, FFTX_FORWARD) }, FFTX_SUCCESS, "exec");
            let got = if in_place { &input } else { &output };
            let got: Vec<Complex64> = got.iter().map(|c| Complex64::new(c.x as f64, c.y as f64)).collect();
            assert_transformed(&x, &got, lengths, Prec::Single);
        }
        CALLS.fetch_add(1, Ordering::Relaxed);
        assert_eq!(fftxDestroy(plan), FFTX_SUCCESS, "destroy");
    }
}

#[test]
fn eight_threads_on_shared_and_separate_queues() {
    let own_queues: Vec<ocl::Queue> =
        (0..THREADS).map(|_| ocl::Queue::new(&ENV.context, ENV.device, None).expect("a queue")).collect();
    let length = 64usize;
    let mut shared = 0;
    call(unsafe { clfftCreateDefaultPlan(&mut shared, context_ptr(), 1, &length) }, "create the shared plan");
    let started = Instant::now();
    let start = Barrier::new(THREADS);
    std::thread::scope(|scope| {
        for (thread, own) in own_queues.iter().enumerate() {
            let start = &start;
            scope.spawn(move || {
                let own = own.as_core().as_ptr();
                start.wait();
                match thread {
                    // Three threads on the shared queue, three on queues of their own.
                    0..=2 => clfft_worker(thread, queue_ptr(), shared),
                    3..=5 => clfft_worker(thread, own, shared),
                    6 => fftx_worker(thread, None),
                    _ => fftx_worker(thread, Some(own)),
                }
            });
        }
    });
    call(unsafe { clfftDestroyPlan(&mut shared) }, "destroy the shared plan");
    let (calls, checked) = (CALLS.load(Ordering::Relaxed), CHECKED.load(Ordering::Relaxed));
    println!(
        "stress: {calls} API calls and {checked} transforms checked on {THREADS} threads in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(checked >= 10_000, "only {checked} transforms checked");
}
