//! Semantics of the clFFT API, checked against what clFFT 2.12 does (its accessors.cpp, plan.cpp and
//! repo.cpp): defaults, accessors, bake state, copies, plan validation at bake, status codes of misuse,
//! queues and events, and destroy racing enqueue.

mod common;
use common::*;
use fftx::api::clfft::*;
use fftx::api::fftx::fftxGetLastErrorMessage;
use num_complex::Complex64;
use ocl::core::{EventInfo, EventInfoResult};
use std::ptr;
use std::sync::Barrier;

// clFFT's enum values, as a C caller passes them.
const SINGLE: clfftPrecision = 1;
const DOUBLE: clfftPrecision = 2;
const COMPLEX_INTERLEAVED: clfftLayout = 1;
const COMPLEX_PLANAR: clfftLayout = 2;
const FORWARD: clfftDirection = -1;
const BACKWARD: clfftDirection = 1;
const INPLACE: clfftResultLocation = 1;
const OUTOFPLACE: clfftResultLocation = 2;
const NOTRANSPOSE: clfftResultTransposed = 1;
const TRANSPOSED: clfftResultTransposed = 2;
const INVALID_OPERATION: clfftStatus = -59;
const INVALID_EVENT_WAIT_LIST: clfftStatus = -57;
const INVALID_BUFFER_SIZE: clfftStatus = -61;

fn create(lengths: &[usize]) -> clfftPlanHandle {
    let mut plan = 0;
    let status =
        unsafe { clfftCreateDefaultPlan(&mut plan, context_ptr(), lengths.len() as clfftDim, lengths.as_ptr()) };
    check(status, "create");
    plan
}

fn destroy(mut plan: clfftPlanHandle) {
    check(unsafe { clfftDestroyPlan(&mut plan) }, "destroy");
}

fn bake(plan: clfftPlanHandle) -> clfftStatus {
    let mut queue = queue_ptr();
    unsafe { clfftBakePlan(plan, 1, &mut queue, None, ptr::null_mut()) }
}

/// clfftGetTmpBufSize's status: CLFFT_INVALID_OPERATION until the plan is baked.
fn tmp_size_status(plan: clfftPlanHandle) -> clfftStatus {
    let mut bytes = 0;
    unsafe { clfftGetTmpBufSize(plan, &mut bytes) }
}

fn lengths(plan: clfftPlanHandle, dim: clfftDim) -> (clfftStatus, Vec<usize>) {
    let mut v = vec![0; 3];
    let status = unsafe { clfftGetPlanLength(plan, dim, v.as_mut_ptr()) };
    v.truncate(dim.max(0) as usize);
    (status, v)
}

fn strides(plan: clfftPlanHandle, dim: clfftDim) -> (Vec<usize>, Vec<usize>) {
    let (mut input, mut output) = (vec![0; dim as usize], vec![0; dim as usize]);
    unsafe {
        check(clfftGetPlanInStride(plan, dim, input.as_mut_ptr()), "in stride");
        check(clfftGetPlanOutStride(plan, dim, output.as_mut_ptr()), "out stride");
    }
    (input, output)
}

fn precision(plan: clfftPlanHandle) -> clfftPrecision {
    let mut p = 0;
    check(unsafe { clfftGetPlanPrecision(plan, &mut p) }, "precision");
    p
}

fn scale(plan: clfftPlanHandle, dir: clfftDirection) -> f32 {
    let mut s = 0.0;
    check(unsafe { clfftGetPlanScale(plan, dir, &mut s) }, "scale");
    s
}

fn batch(plan: clfftPlanHandle) -> usize {
    let mut b = 0;
    check(unsafe { clfftGetPlanBatchSize(plan, &mut b) }, "batch");
    b
}

fn dim(plan: clfftPlanHandle) -> (clfftDim, u32) {
    let (mut d, mut size) = (0, 0);
    check(unsafe { clfftGetPlanDim(plan, &mut d, &mut size) }, "dim");
    (d, size)
}

fn distances(plan: clfftPlanHandle) -> (usize, usize) {
    let (mut i, mut o) = (0, 0);
    check(unsafe { clfftGetPlanDistance(plan, &mut i, &mut o) }, "distance");
    (i, o)
}

fn layouts(plan: clfftPlanHandle) -> (clfftLayout, clfftLayout) {
    let (mut i, mut o) = (0, 0);
    check(unsafe { clfftGetLayout(plan, &mut i, &mut o) }, "layout");
    (i, o)
}

fn placeness(plan: clfftPlanHandle) -> clfftResultLocation {
    let mut p = 0;
    check(unsafe { clfftGetResultLocation(plan, &mut p) }, "placeness");
    p
}

fn transposed(plan: clfftPlanHandle) -> clfftResultTransposed {
    let mut t = 0;
    check(unsafe { clfftGetPlanTransposeResult(plan, &mut t) }, "transposed");
    t
}

fn context(plan: clfftPlanHandle) -> ocl::ffi::cl_context {
    let mut c = ptr::null_mut();
    check(unsafe { clfftGetPlanContext(plan, &mut c) }, "context");
    c
}

/// Every setting a plan has, as its getters report them.
#[derive(Debug, PartialEq)]
struct Snapshot {
    dim: (clfftDim, u32),
    lengths: Vec<usize>,
    strides: (Vec<usize>, Vec<usize>),
    distances: (usize, usize),
    precision: clfftPrecision,
    layouts: (clfftLayout, clfftLayout),
    placeness: clfftResultLocation,
    batch: usize,
    scales: (f32, f32),
    transposed: clfftResultTransposed,
}

fn snapshot(plan: clfftPlanHandle) -> Snapshot {
    let dim = dim(plan);
    Snapshot {
        dim,
        lengths: lengths(plan, dim.0).1,
        strides: strides(plan, dim.0),
        distances: distances(plan),
        precision: precision(plan),
        layouts: layouts(plan),
        placeness: placeness(plan),
        batch: batch(plan),
        scales: (scale(plan, FORWARD), scale(plan, BACKWARD)),
        transposed: transposed(plan),
    }
}

type Planes = [ocl::ffi::cl_mem; 2];
const NO_BUFFERS: Planes = [ptr::null_mut(); 2];
const NO_WAIT: (u32, *const ocl::ffi::cl_event) = (0, ptr::null());

/// Enqueues a forward transform of `plan` on `queues` (the first runs it) after the given wait list, filling
/// `events`; `tmp` may be null.
fn enqueue(
    plan: clfftPlanHandle,
    queues: &mut [ocl::ffi::cl_command_queue],
    wait: (u32, *const ocl::ffi::cl_event),
    events: &mut [ocl::ffi::cl_event],
    mut input: Planes,
    mut output: Planes,
    tmp: ocl::ffi::cl_mem,
) -> clfftStatus {
    let out_events = if events.is_empty() { ptr::null_mut() } else { events.as_mut_ptr() };
    unsafe {
        clfftEnqueueTransform(
            plan,
            FORWARD,
            queues.len() as u32,
            queues.as_mut_ptr(),
            wait.0,
            wait.1,
            out_events,
            input.as_mut_ptr(),
            output.as_mut_ptr(),
            tmp,
        )
    }
}

/// Waits for and releases an event the library returned.
fn finish(event: ocl::ffi::cl_event) -> ocl::core::Event {
    assert!(!event.is_null(), "no event returned");
    let event = unsafe { ocl::core::Event::from_raw_create_ptr(event) };
    ocl::core::wait_for_event(&event).expect("wait for the returned event");
    event
}

/// Asserts that `output` holds forward transforms of length `n` of each of the `output.len() / n` rows of
/// `input`.
fn assert_forward_transforms(input: &[Complex64], output: &[Complex64], n: usize) {
    for (row, (x, got)) in input.chunks(n).zip(output.chunks(n)).enumerate() {
        let want = reference_fft(x, &[n], Dir::Forward);
        let err: f64 = got.iter().zip(&want).map(|(g, w)| (g - w).norm_sqr()).sum();
        let norm: f64 = want.iter().map(|w| w.norm_sqr()).sum();
        let rmse = (err / norm).sqrt();
        assert!(rmse <= tolerance(Prec::Single), "row {row}: rmse {rmse:.3e}");
    }
}

#[test]
fn defaults_are_clffts() {
    for lengths in [vec![64], vec![12, 10], vec![4, 6, 5]] {
        let plan = create(&lengths);
        let total: usize = lengths.iter().product();
        let packed: Vec<usize> = lengths.iter().scan(1, |s, &l| Some(std::mem::replace(s, *s * l))).collect();
        let d = lengths.len() as clfftDim;
        assert_eq!(
            snapshot(plan),
            Snapshot {
                dim: (d, d as u32),
                lengths: lengths.clone(),
                strides: (packed.clone(), packed),
                distances: (total, total),
                precision: SINGLE,
                layouts: (COMPLEX_INTERLEAVED, COMPLEX_INTERLEAVED),
                placeness: INPLACE,
                batch: 1,
                scales: (1.0, (1.0 / total as f64) as f32),
                transposed: NOTRANSPOSE,
            }
        );
        assert_eq!(context(plan), context_ptr());
        assert_eq!(tmp_size_status(plan), INVALID_OPERATION, "a new plan is not baked");
        destroy(plan);
    }
}

#[test]
fn every_get_set_pair_round_trips() {
    let plan = create(&[16, 8]);
    let (mut is, mut os) = (vec![2, 40], vec![1, 17]);
    let new_lengths = [6, 10, 3];
    unsafe {
        check(clfftSetPlanPrecision(plan, DOUBLE), "precision");
        check(clfftSetPlanScale(plan, FORWARD, 0.25), "forward scale");
        check(clfftSetPlanScale(plan, BACKWARD, 3.5), "backward scale");
        check(clfftSetPlanBatchSize(plan, 7), "batch");
        check(clfftSetPlanInStride(plan, 2, is.as_mut_ptr()), "in stride");
        check(clfftSetPlanOutStride(plan, 2, os.as_mut_ptr()), "out stride");
        check(clfftSetPlanDistance(plan, 400, 150), "distance");
        check(clfftSetLayout(plan, COMPLEX_PLANAR, COMPLEX_INTERLEAVED), "layout");
        check(clfftSetResultLocation(plan, OUTOFPLACE), "placeness");
        check(clfftSetPlanTransposeResult(plan, TRANSPOSED), "transposed");
    }
    assert_eq!(
        snapshot(plan),
        Snapshot {
            dim: (2, 2),
            lengths: vec![16, 8],
            strides: (is.clone(), os.clone()),
            distances: (400, 150),
            precision: DOUBLE,
            layouts: (COMPLEX_PLANAR, COMPLEX_INTERLEAVED),
            placeness: OUTOFPLACE,
            batch: 7,
            scales: (0.25, 3.5),
            transposed: TRANSPOSED,
        }
    );

    // Lengths and dimension: a 3D length sets the dimension; a dimension resizes lengths and strides.
    check(unsafe { clfftSetPlanLength(plan, 3, new_lengths.as_ptr()) }, "length");
    assert_eq!(dim(plan), (3, 3));
    assert_eq!(lengths(plan, 3), (CLFFT_SUCCESS, new_lengths.to_vec()));
    check(clfftSetPlanDim(plan, 1), "dim 1");
    assert_eq!(dim(plan), (1, 1));
    assert_eq!(lengths(plan, 1), (CLFFT_SUCCESS, vec![6]));
    assert_eq!(strides(plan, 1), (vec![2], vec![1]));
    check(clfftSetPlanDim(plan, 2), "dim 2");
    assert_eq!(lengths(plan, 2), (CLFFT_SUCCESS, vec![6, 1]));

    // The other values of each enum round-trip too.
    check(clfftSetPlanPrecision(plan, SINGLE), "precision");
    check(clfftSetLayout(plan, COMPLEX_INTERLEAVED, COMPLEX_PLANAR), "layout");
    check(clfftSetResultLocation(plan, INPLACE), "placeness");
    check(clfftSetPlanTransposeResult(plan, NOTRANSPOSE), "transposed");
    assert_eq!(precision(plan), SINGLE);
    assert_eq!(layouts(plan), (COMPLEX_INTERLEAVED, COMPLEX_PLANAR));
    assert_eq!(placeness(plan), INPLACE);
    assert_eq!(transposed(plan), NOTRANSPOSE);
    destroy(plan);
}

#[test]
fn any_setting_after_bake_undoes_the_bake() {
    let plan = create(&[64]);
    let length = [64];
    // Each setter, called with the value the plan already has: clFFT drops the bake all the same.
    let setters: [(&str, &dyn Fn() -> clfftStatus); 11] = [
        ("precision", &|| clfftSetPlanPrecision(plan, SINGLE)),
        ("scale", &|| clfftSetPlanScale(plan, FORWARD, 1.0)),
        ("batch", &|| clfftSetPlanBatchSize(plan, 1)),
        ("dim", &|| clfftSetPlanDim(plan, 1)),
        ("length", &|| unsafe { clfftSetPlanLength(plan, 1, length.as_ptr()) }),
        ("in stride", &|| unsafe { clfftSetPlanInStride(plan, 1, [1].as_mut_ptr()) }),
        ("out stride", &|| unsafe { clfftSetPlanOutStride(plan, 1, [1].as_mut_ptr()) }),
        ("distance", &|| clfftSetPlanDistance(plan, 64, 64)),
        ("layout", &|| clfftSetLayout(plan, COMPLEX_INTERLEAVED, COMPLEX_INTERLEAVED)),
        ("placeness", &|| clfftSetResultLocation(plan, INPLACE)),
        ("transposed", &|| clfftSetPlanTransposeResult(plan, NOTRANSPOSE)),
    ];
    for (name, set) in setters {
        check(bake(plan), "bake");
        check(tmp_size_status(plan), "tmp size after bake");
        check(set(), name);
        assert_eq!(tmp_size_status(plan), INVALID_OPERATION, "{name} left the plan baked");
    }
    // A rejected value changes nothing, so the bake stays.
    check(bake(plan), "bake");
    assert_eq!(clfftSetResultLocation(plan, 3), CLFFT_INVALID_ARG_VALUE);
    check(tmp_size_status(plan), "tmp size after a rejected setting");
    destroy(plan);
}

#[test]
fn enqueue_bakes_an_unbaked_plan() {
    let plan = create(&[64]);
    check(clfftSetPlanBatchSize(plan, 3), "batch");
    let input = random_complex(64 * 3, 11);
    let data = DeviceData::upload(&input, Prec::Single, false);
    let mut event = [ptr::null_mut()];
    check(enqueue(plan, &mut [queue_ptr()], NO_WAIT, &mut event, data.mems(), NO_BUFFERS, ptr::null_mut()), "enqueue");
    finish(event[0]);
    check(tmp_size_status(plan), "tmp size after enqueue");
    assert_forward_transforms(&input, &data.download(), 64);
    destroy(plan);
}

#[test]
fn copy_plan_copies_every_setting_but_not_the_bake() {
    let plan = create(&[12, 10]);
    let (mut is, mut os) = (vec![1, 13], vec![1, 12]);
    unsafe {
        check(clfftSetPlanPrecision(plan, DOUBLE), "precision");
        check(clfftSetPlanScale(plan, BACKWARD, 0.5), "scale");
        check(clfftSetPlanBatchSize(plan, 2), "batch");
        check(clfftSetPlanInStride(plan, 2, is.as_mut_ptr()), "in stride");
        check(clfftSetPlanOutStride(plan, 2, os.as_mut_ptr()), "out stride");
        check(clfftSetPlanDistance(plan, 140, 120), "distance");
        check(clfftSetLayout(plan, COMPLEX_INTERLEAVED, COMPLEX_PLANAR), "layout");
        check(clfftSetResultLocation(plan, OUTOFPLACE), "placeness");
    }
    check(bake(plan), "bake");
    let mut copy = 0;
    check(unsafe { clfftCopyPlan(&mut copy, context_ptr(), plan) }, "copy");
    assert_ne!(copy, plan);
    assert_eq!(snapshot(copy), snapshot(plan));
    assert_eq!(context(copy), context_ptr());
    assert_eq!(tmp_size_status(copy), INVALID_OPERATION, "the copy is not baked");
    check(tmp_size_status(plan), "the original stays baked");
    // The two are independent.
    check(clfftSetPlanBatchSize(copy, 5), "batch of the copy");
    assert_eq!(batch(plan), 2);
    destroy(copy);
    destroy(plan);
}

#[test]
fn in_place_plans_need_equal_input_and_output_strides_and_distances() {
    let plan = create(&[16, 4]);
    let (mut wide, mut packed) = (vec![1, 20], vec![1, 16]);
    unsafe {
        check(clfftSetPlanInStride(plan, 2, wide.as_mut_ptr()), "in stride");
        check(clfftSetPlanOutStride(plan, 2, packed.as_mut_ptr()), "out stride");
    }
    assert_eq!(bake(plan), CLFFT_INVALID_PLAN);
    // Out of place, the same strides are fine.
    check(clfftSetResultLocation(plan, OUTOFPLACE), "placeness");
    check(clfftSetPlanDistance(plan, 80, 64), "distance");
    check(bake(plan), "bake out of place");
    // In place with equal strides but different distances fails again.
    check(unsafe { clfftSetPlanInStride(plan, 2, packed.as_mut_ptr()) }, "in stride");
    check(clfftSetResultLocation(plan, INPLACE), "placeness");
    assert_eq!(bake(plan), CLFFT_INVALID_PLAN);
    check(clfftSetPlanDistance(plan, 64, 64), "distance");
    check(bake(plan), "bake in place");
    destroy(plan);
}

/// clFFT takes a transposed result only with the packed strides of the plan's lengths ([1, N0], its default)
/// and writes the packed N1 x N0 transpose; fftx does the same whether the strides are left or set so, and
/// its own transposed strides ([1, N1]) give that array too.
#[test]
fn transposed_results_with_clffts_strides_are_the_packed_transpose() {
    for (n0, n1) in [(16, 12), (12, 16), (8, 8)] {
        let x = random_complex(n0 * n1, 11);
        let spectrum = reference_fft(&x, &[n0, n1], Dir::Forward);
        let want: Vec<Complex64> = (0..n0 * n1).map(|at| spectrum[(at % n1) * n0 + at / n1]).collect();
        for out_strides in [None, Some([1, n0]), Some([1, n1])] {
            let plan = create(&[n0, n1]);
            check(clfftSetResultLocation(plan, OUTOFPLACE), "placeness");
            check(clfftSetPlanTransposeResult(plan, TRANSPOSED), "transposed");
            if let Some(mut strides) = out_strides {
                check(unsafe { clfftSetPlanOutStride(plan, 2, strides.as_mut_ptr()) }, "out strides");
            }
            check(bake(plan), "bake");
            let input = DeviceData::upload(&x, Prec::Single, false);
            let output = DeviceData::upload(&vec![Complex64::new(f64::NAN, f64::NAN); n0 * n1], Prec::Single, false);
            run_and_destroy(plan, FORWARD, &input, Some(&output));
            let rmse = nrmse(&output.download(), &want);
            assert!(rmse < tolerance(Prec::Single), "{n0} x {n1}, out strides {out_strides:?}: rmse {rmse:e}");
        }
    }
}

#[test]
fn transposed_results_exist_only_for_2d() {
    for lengths in [vec![64], vec![4, 6, 5]] {
        let plan = create(&lengths);
        check(clfftSetResultLocation(plan, OUTOFPLACE), "placeness");
        check(clfftSetPlanTransposeResult(plan, TRANSPOSED), "transposed");
        assert_eq!(bake(plan), CLFFT_TRANSPOSED_NOTIMPLEMENTED, "{lengths:?}");
        destroy(plan);
    }
}

/// In place, the result is transposed over the input: packed data only (clFFT's condition too), in a shape
/// the in-place transposes take (a square, or one side a multiple of the other).
#[test]
fn in_place_transposed_results_need_packed_data_and_a_transposable_shape() {
    let refused = |lengths: [usize; 2], strides: Option<[usize; 2]>| {
        let plan = create(&lengths);
        check(clfftSetResultLocation(plan, INPLACE), "placeness");
        check(clfftSetPlanTransposeResult(plan, TRANSPOSED), "transposed");
        if let Some(mut s) = strides {
            check(unsafe { clfftSetPlanInStride(plan, 2, s.as_mut_ptr()) }, "in strides");
            check(unsafe { clfftSetPlanOutStride(plan, 2, s.as_mut_ptr()) }, "out strides");
        }
        assert_eq!(bake(plan), CLFFT_TRANSPOSED_NOTIMPLEMENTED, "{lengths:?} strides {strides:?}");
        destroy(plan);
    };
    refused([12, 8], None);
    refused([8, 8], Some([1, 10]));
    refused([8, 8], Some([2, 16]));
}

#[test]
fn lengths_and_strides_beyond_the_plans_dimension() {
    let plan = create(&[16, 4]);
    let mut values = [0usize; 3];
    assert_eq!(lengths(plan, 3).0, CLFFT_INVALID_ARG_INDEX);
    unsafe {
        assert_eq!(clfftGetPlanInStride(plan, 3, values.as_mut_ptr()), CLFFT_INVALID_ARG_INDEX);
        assert_eq!(clfftGetPlanOutStride(plan, 3, values.as_mut_ptr()), CLFFT_INVALID_ARG_INDEX);
    }
    // Fewer dimensions than the plan has are fine: the first ones.
    assert_eq!(lengths(plan, 1), (CLFFT_SUCCESS, vec![16]));
    destroy(plan);
}

#[test]
fn destroy_clears_the_handle_and_a_second_destroy_fails() {
    let mut plan = create(&[64]);
    let stale = plan;
    check(unsafe { clfftDestroyPlan(&mut plan) }, "destroy");
    assert_eq!(plan, 0);
    let mut again = stale;
    assert_eq!(unsafe { clfftDestroyPlan(&mut again) }, CLFFT_INVALID_PLAN);
    assert_eq!(unsafe { clfftDestroyPlan(&mut plan) }, CLFFT_INVALID_PLAN);
    assert_eq!(clfftSetPlanBatchSize(stale, 2), CLFFT_INVALID_PLAN);
}

#[test]
fn wait_count_without_a_list_is_an_invalid_wait_list() {
    let plan = create(&[64]);
    let data = DeviceData::upload(&random_complex(64, 3), Prec::Single, false);
    let status = enqueue(plan, &mut [queue_ptr()], (1, ptr::null()), &mut [], data.mems(), NO_BUFFERS, ptr::null_mut());
    assert_eq!(status, INVALID_EVENT_WAIT_LIST);
    destroy(plan);
}

#[test]
fn buffers_smaller_than_the_plan_reaches_are_rejected() {
    let plan = create(&[64]);
    check(clfftSetPlanBatchSize(plan, 2), "batch");
    check(clfftSetResultLocation(plan, OUTOFPLACE), "placeness");
    check(clfftSetLayout(plan, COMPLEX_PLANAR, COMPLEX_INTERLEAVED), "layout");
    let zeros = |n| vec![Complex64::new(0.0, 0.0); n];
    let (input, output) =
        (DeviceData::upload(&zeros(128), Prec::Single, true), DeviceData::upload(&zeros(128), Prec::Single, false));
    let (short_input, short_output) =
        (DeviceData::upload(&zeros(127), Prec::Single, true), DeviceData::upload(&zeros(127), Prec::Single, false));
    let queue = &mut [queue_ptr()];
    let short_imaginary = [input.mems()[0], short_input.mems()[1]];
    for (what, input, output) in [
        ("input", short_input.mems(), output.mems()),
        ("output", input.mems(), short_output.mems()),
        ("imaginary plane", short_imaginary, output.mems()),
    ] {
        assert_eq!(
            enqueue(plan, queue, NO_WAIT, &mut [], input, output, ptr::null_mut()),
            INVALID_BUFFER_SIZE,
            "short {what}"
        );
    }
    let mut event = [ptr::null_mut()];
    check(enqueue(plan, queue, NO_WAIT, &mut event, input.mems(), output.mems(), ptr::null_mut()), "enqueue");
    finish(event[0]);
    destroy(plan);
}

#[test]
fn several_queues_run_on_the_first_and_every_entry_gets_an_event() {
    let plan = create(&[64]);
    check(clfftSetPlanBatchSize(plan, 2), "batch");
    let second = ocl::Queue::new(&ENV.context, ENV.device, None).expect("second queue");
    let input = random_complex(128, 5);
    let data = DeviceData::upload(&input, Prec::Single, false);
    let mut queues = [queue_ptr(), second.as_core().as_ptr()];
    let mut events = [ptr::null_mut(); 2];
    check(enqueue(plan, &mut queues, NO_WAIT, &mut events, data.mems(), NO_BUFFERS, ptr::null_mut()), "enqueue");
    for event in events {
        let event = finish(event);
        match ocl::core::get_event_info(&event, EventInfo::CommandQueue) {
            Ok(EventInfoResult::CommandQueue(queue)) => assert_eq!(queue.as_ptr(), queue_ptr()),
            other => panic!("no command queue for the event: {other:?}"),
        }
    }
    assert_forward_transforms(&input, &data.download(), 64);
    destroy(plan);
}

#[test]
fn destroy_racing_enqueue_never_crashes() {
    let data = DeviceData::upload(&random_complex(64 * 4, 9), Prec::Single, false);
    for round in 0..20 {
        let plan = create(&[64]);
        check(clfftSetPlanBatchSize(plan, 4), "batch");
        check(bake(plan), "bake");
        let start = Barrier::new(2);
        std::thread::scope(|scope| {
            let enqueuer = scope.spawn(|| {
                start.wait();
                let mut statuses = Vec::new();
                loop {
                    let mut event = [ptr::null_mut()];
                    let status = enqueue(
                        plan,
                        &mut [queue_ptr()],
                        NO_WAIT,
                        &mut event,
                        data.mems(),
                        NO_BUFFERS,
                        ptr::null_mut(),
                    );
                    statuses.push(status);
                    if status != CLFFT_SUCCESS {
                        return statuses;
                    }
                    // Released unwaited, so that transforms are still queued when the plan goes.
                    assert!(!event[0].is_null(), "no event returned");
                    drop(unsafe { ocl::core::Event::from_raw_create_ptr(event[0]) });
                }
            });
            start.wait();
            let mut handle = plan;
            // Let a few enqueues through in some rounds, none in others.
            std::thread::sleep(std::time::Duration::from_micros(round * 100));
            check(unsafe { clfftDestroyPlan(&mut handle) }, "destroy");
            let statuses = enqueuer.join().expect("the enqueuing thread");
            let (last, before) = statuses.split_last().expect("at least one enqueue");
            assert_eq!(*last, CLFFT_INVALID_PLAN, "round {round}");
            assert!(before.iter().all(|&s| s == CLFFT_SUCCESS), "round {round}: {statuses:?}");
        });
        // What was queued before the destroy still runs to completion.
        ENV.queue.finish().expect("finish the queued transforms");
    }
}

#[test]
fn concurrent_destroys_of_one_plan_succeed_once() {
    for _ in 0..20 {
        let plan = create(&[64]);
        let start = Barrier::new(2);
        let statuses: Vec<clfftStatus> = std::thread::scope(|scope| {
            let racers: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        let mut handle = plan;
                        start.wait();
                        unsafe { clfftDestroyPlan(&mut handle) }
                    })
                })
                .collect();
            racers.into_iter().map(|r| r.join().expect("destroying thread")).collect()
        });
        assert_eq!(statuses.iter().filter(|&&s| s == CLFFT_SUCCESS).count(), 1, "{statuses:?}");
        assert!(statuses.contains(&CLFFT_INVALID_PLAN), "{statuses:?}");
    }
}

#[test]
fn a_scratch_buffer_of_the_reported_size_is_used() {
    // Above the CPU's one-kernel limit and in place, so the transform runs in two passes through scratch
    // memory (out of place, the CPU plan keeps its intermediate in the output instead).
    let n = 8192;
    let plan = create(&[n]);
    check(clfftSetResultLocation(plan, INPLACE), "placeness");
    check(bake(plan), "bake");
    let mut bytes = 0;
    check(unsafe { clfftGetTmpBufSize(plan, &mut bytes) }, "tmp size");
    let complex_bytes = 8;
    assert!(bytes >= n * complex_bytes, "{bytes} bytes of scratch for {n} points");

    let input = random_complex(n, 13);
    let data = DeviceData::upload(&input, Prec::Single, false);
    let poison = vec![Complex64::new(f64::NAN, f64::NAN); bytes / complex_bytes];
    let tmp = DeviceData::upload(&poison, Prec::Single, false);
    let short_tmp = DeviceData::upload(&poison[1..], Prec::Single, false);
    let queue = &mut [queue_ptr()];
    assert_eq!(
        enqueue(plan, queue, NO_WAIT, &mut [], data.mems(), NO_BUFFERS, short_tmp.mems()[0]),
        INVALID_BUFFER_SIZE
    );
    let mut event = [ptr::null_mut()];
    check(enqueue(plan, queue, NO_WAIT, &mut event, data.mems(), NO_BUFFERS, tmp.mems()[0]), "enqueue");
    finish(event[0]);
    assert_forward_transforms(&input, &data.download(), n);
    assert!(tmp.download().iter().any(|v| !v.re.is_nan()), "the plan did not work in the caller's scratch buffer");
    destroy(plan);
}

#[test]
fn a_plan_destroyed_before_its_transform_ran_still_transforms() {
    // The transform waits on an event the application has not completed yet when the plan goes. The plan's
    // own scratch (8 MiB here, in place) must stay usable until the transform has completed: fftx gives its
    // pages back only then.
    let n = 1 << 20;
    let plan = create(&[n]);
    check(clfftSetResultLocation(plan, INPLACE), "placeness");
    check(bake(plan), "bake");
    let mut bytes = 0;
    check(unsafe { clfftGetTmpBufSize(plan, &mut bytes) }, "tmp size");
    assert!(bytes >= 8 * n, "{bytes} bytes of scratch for {n} points");
    let input = random_complex(n, 17);
    let data = DeviceData::upload(&input, Prec::Single, false);
    let mut err = 0;
    let gate = unsafe { ocl::ffi::clCreateUserEvent(context_ptr(), &mut err) };
    assert_eq!(err, 0, "clCreateUserEvent");
    let mut event = [ptr::null_mut()];
    check(
        enqueue(plan, &mut [queue_ptr()], (1, &gate), &mut event, data.mems(), NO_BUFFERS, ptr::null_mut()),
        "enqueue",
    );
    destroy(plan);
    assert_eq!(unsafe { ocl::ffi::clSetUserEventStatus(gate, ocl::ffi::CL_COMPLETE) }, 0, "clSetUserEventStatus");
    finish(event[0]);
    unsafe { ocl::ffi::clReleaseEvent(gate) };
    assert_forward_transforms(&input, &data.download(), n);
}

/// `fftxClfftSetPlanTuning` (`clFFT_fftx.h`) sets one plan's planner overrides in `FFTX_TUNE`'s syntax: the
/// plan un-bakes, bakes again with them, and still transforms correctly; an item fftx does not know is refused
/// and named in the message.
#[test]
fn a_plans_tuning_unbakes_it_and_unknown_items_are_refused() {
    let plan = create(&[1024]);
    check(bake(plan), "bake");
    let tmp_bytes = |plan| {
        let mut bytes = 0;
        check(unsafe { clfftGetTmpBufSize(plan, &mut bytes) }, "tmp size");
        bytes
    };
    assert_eq!(tmp_bytes(plan), 0, "1024 points in place take one kernel");
    check(unsafe { fftxClfftSetPlanTuning(plan, c"max_leaf=16".as_ptr()) }, "tuning");
    assert_eq!(tmp_size_status(plan), INVALID_OPERATION, "a new tuning un-bakes the plan");
    check(bake(plan), "bake with kernels of at most 16 points");
    assert!(tmp_bytes(plan) > 0, "1024 = 16 x 4 x 16 in place runs through scratch");
    destroy(plan);

    let rmse = Case::new(&[1024]).batch(2).in_place().tuning("max_leaf=16").run();
    assert!(rmse <= tolerance(Prec::Single), "rmse {rmse:.3e}");

    let plan = create(&[64]);
    for bad in [c"colour=blue", c"max_leaf=1", c"gpu_lanes=3", c"profile"] {
        assert_eq!(unsafe { fftxClfftSetPlanTuning(plan, bad.as_ptr()) }, CLFFT_INVALID_ARG_VALUE, "{bad:?}");
        let message = unsafe { std::ffi::CStr::from_ptr(fftxGetLastErrorMessage()) }.to_string_lossy().into_owned();
        assert!(message.contains(bad.to_str().unwrap()), "{message}");
    }
    check(unsafe { fftxClfftSetPlanTuning(plan, ptr::null()) }, "FFTX_TUNE's tuning");
    assert_eq!(unsafe { fftxClfftSetPlanTuning(plan + 1000, c"".as_ptr()) }, CLFFT_INVALID_PLAN);
    destroy(plan);
}
