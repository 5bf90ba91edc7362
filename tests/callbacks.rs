//! clFFT's callbacks (`clfftSetPlanCallback`): a pre-callback computes each input element from the user's
//! input and user data, a post-callback receives each result and stores what it likes. Every case checks the
//! result against the double-precision reference of the transform the callbacks define, for each element
//! kind (real, interleaved, planar), both precisions, in and out of place, with local memory, and the
//! argument checks, the compile error at bake and the user-data buffer's lifetime.

mod common;

use common::*;
use fftx::api::clfft::*;
use num_complex::Complex64;
use std::ffi::CString;
use std::ptr;

// clFFT.h's values.
const CLFFT_FORWARD: clfftDirection = -1;
const CLFFT_BACKWARD: clfftDirection = 1;
const CLFFT_COMPLEX_PLANAR: clfftLayout = 2;
const CLFFT_HERMITIAN_INTERLEAVED: clfftLayout = 3;
const CLFFT_REAL: clfftLayout = 5;

/// Device copies of `planes` (reals, interleaved complex values or planar parts) in `precision`.
fn upload(planes: Vec<Vec<f64>>, precision: Prec) -> DevicePlanes {
    DevicePlanes::upload(&HostPlanes(planes), precision == Prec::Double)
}

fn interleave(values: &[Complex64]) -> Vec<f64> {
    values.iter().flat_map(|c| [c.re, c.im]).collect()
}

/// Positive weights, one per offset: what the callbacks multiply by.
/// Asserts that `output` holds the forward transform of `x` scaled element by element by `w`, as the
/// `pre_scaled` callback computes it.
fn assert_pre_scaled(output: &DevicePlanes, x: &[Complex64], w: &[f64], precision: Prec) {
    let n = x.len();
    let scaled: Vec<Complex64> = x.iter().zip(w).map(|(v, w)| v * w).collect();
    let want = reference_fft(&scaled, &[n], Dir::Forward);
    let got = output.download();
    let got: Vec<Complex64> = (0..n).map(|k| got.complex(false, k)).collect();
    let error = nrmse(&got, &want);
    assert!(error <= tolerance(precision), "rmse {error:.3e}");
}

fn weights(n: usize, seed: u64) -> Vec<f64> {
    random_complex(n, seed).iter().map(|c| 1.5 + c.re).collect()
}

fn create(lengths: &[usize], precision: Prec) -> clfftPlanHandle {
    let mut plan = 0;
    let status =
        unsafe { clfftCreateDefaultPlan(&mut plan, context_ptr(), lengths.len() as clfftDim, lengths.as_ptr()) };
    check(status, "create");
    check(clfftSetPlanPrecision(plan, if precision == Prec::Double { 2 } else { 1 }), "precision");
    plan
}

fn set_callback(
    plan: clfftPlanHandle,
    name: &str,
    code: &str,
    local: i32,
    kind: i32,
    data: Option<&DevicePlanes>,
) -> i32 {
    let (name, code) = (CString::new(name).unwrap(), CString::new(code).unwrap());
    let mut mem = data.map_or(ptr::null_mut(), |d| d.mems()[0]);
    unsafe { clfftSetPlanCallback(plan, name.as_ptr(), code.as_ptr(), local, kind, &mut mem, data.is_some() as i32) }
}

fn bake(plan: clfftPlanHandle) -> i32 {
    let mut queue = queue_ptr();
    unsafe { clfftBakePlan(plan, 1, &mut queue, None, ptr::null_mut()) }
}

fn run(plan: clfftPlanHandle, dir: clfftDirection, input: &DevicePlanes, output: Option<&DevicePlanes>) {
    enqueue_and_wait(plan, dir, input.mems(), output.map(|o| o.mems()));
}

fn destroy(mut plan: clfftPlanHandle) {
    check(unsafe { clfftDestroyPlan(&mut plan) }, "destroy");
}

/// A single-precision callback's code for `double` plans: the types and the names of the vector parts.
fn typed(code: &str, precision: Prec) -> String {
    match precision {
        Prec::Single => code.to_string(),
        Prec::Double => code.replace("float", "double"),
    }
}

const PRE_SCALED: &str = "float2 pre_scaled(__global void *input, uint offset, __global void *userdata) {
    return ((__global float2 *)input)[offset] * ((__global float *)userdata)[offset];
}";
const POST_SCALED: &str =
    "void post_scaled(__global void *output, uint offset, __global void *userdata, float2 value) {
    ((__global float2 *)output)[offset] = value * ((__global float *)userdata)[offset];
}";

#[test]
fn complex_interleaved_pre_and_post_callbacks_scale_each_element_by_its_user_data() {
    // 32 transforms of 2^16 single points (16 MiB) run in two chunks of the batch (`planner::chunks`): the
    // callbacks of each chunk count offsets from the start of the user's buffers.
    let cases = [(24, 2, Prec::Single), (24, 2, Prec::Double), (1 << 16, 32, Prec::Single)];
    for (n, batch, precision) in cases {
        let x = random_complex(n * batch, 1);
        let (pre_w, post_w) = (weights(n * batch, 2), weights(n * batch, 3));
        let plan = create(&[n], precision);
        check(clfftSetResultLocation(plan, 2), "out of place");
        check(clfftSetPlanBatchSize(plan, batch), "batch");
        let (pre_data, post_data) = (upload(vec![pre_w.clone()], precision), upload(vec![post_w.clone()], precision));
        check(set_callback(plan, "pre_scaled", &typed(PRE_SCALED, precision), 0, PRECALLBACK, Some(&pre_data)), "pre");
        check(
            set_callback(plan, "post_scaled", &typed(POST_SCALED, precision), 0, POSTCALLBACK, Some(&post_data)),
            "post",
        );
        let input = upload(vec![interleave(&x)], precision);
        let output = upload(vec![vec![0.0; 2 * n * batch]], precision);
        run(plan, CLFFT_FORWARD, &input, Some(&output));
        let got = output.download();
        let mut want = Vec::new();
        for b in 0..batch {
            let scaled: Vec<Complex64> = (0..n).map(|k| x[b * n + k] * pre_w[b * n + k]).collect();
            want.extend(reference_fft(&scaled, &[n], Dir::Forward));
        }
        let want: Vec<Complex64> = want.iter().zip(&post_w).map(|(v, w)| v * w).collect();
        let got: Vec<Complex64> = (0..n * batch).map(|k| got.complex(false, k)).collect();
        let error = nrmse(&got, &want);
        assert!(error <= tolerance(precision), "{precision:?}: rmse {error:.3e}");
        // The user's input is read, never written.
        let kept = input.download();
        assert_eq!(kept.0[0].len(), 2 * n * batch);
        let kept: Vec<Complex64> = (0..n * batch).map(|k| kept.complex(false, k)).collect();
        assert!(nrmse(&kept, &x) <= tolerance(precision));
        destroy(plan);
    }
}

#[test]
fn callbacks_in_place_without_scratch_run_in_the_plans_passes_and_its_transpose() {
    // 2^16 in place without scratch: two Stockham passes and a square transpose in the one buffer. The
    // pre-callback reads the user's input in the first pass only, and the transpose's stores call the
    // post-callback.
    let n = 1 << 16;
    let x = random_complex(n, 4);
    let (pre_w, post_w) = (weights(n, 5), weights(n, 6));
    let plan = create(&[n], Prec::Single);
    check(fftx::api::transpose::fftxSetPlanNoMemAlloc(plan, 1), "no-allocation mode");
    let (pre_data, post_data) = (upload(vec![pre_w.clone()], Prec::Single), upload(vec![post_w.clone()], Prec::Single));
    check(set_callback(plan, "pre_scaled", PRE_SCALED, 0, PRECALLBACK, Some(&pre_data)), "pre");
    check(set_callback(plan, "post_scaled", POST_SCALED, 0, POSTCALLBACK, Some(&post_data)), "post");
    check(bake(plan), "bake");
    let mut tmp = usize::MAX;
    check(unsafe { clfftGetTmpBufSize(plan, &mut tmp) }, "tmp size");
    assert_eq!(tmp, 0);
    let data = upload(vec![interleave(&x)], Prec::Single);
    run(plan, CLFFT_BACKWARD, &data, None);
    let scaled: Vec<Complex64> = x.iter().zip(&pre_w).map(|(v, w)| v * w).collect();
    let want: Vec<Complex64> =
        reference_fft(&scaled, &[n], Dir::Backward).iter().zip(&post_w).map(|(v, w)| v * w / n as f64).collect();
    let result = data.download();
    let got: Vec<Complex64> = (0..n).map(|k| result.complex(false, k)).collect();
    let error = nrmse(&got, &want);
    assert!(error <= tolerance(Prec::Single), "rmse {error:.3e}");
    destroy(plan);
}

#[test]
fn planar_callbacks_in_place_with_local_memory_and_no_user_data() {
    // 2D 8 x 6 in double precision, in place on planar data; the pre-callback passes its weight through
    // local memory, the post-callback conjugates and needs no user data.
    let precision = Prec::Double;
    let (lengths, total) = ([8usize, 6], 48);
    let x = random_complex(total, 4);
    let pre_w = weights(total, 5);
    let plan = create(&lengths, precision);
    check(clfftSetLayout(plan, CLFFT_COMPLEX_PLANAR, CLFFT_COMPLEX_PLANAR), "layout");
    let pre = "double2 pre_local(__global void *re, __global void *im, uint offset, __global void *userdata,
                                 __local void *localmem) {
        __local double *slot = (__local double *)localmem + get_local_id(0);
        *slot = ((__global double *)userdata)[offset];
        return (double2)(((__global double *)re)[offset], ((__global double *)im)[offset]) * *slot;
    }";
    let post = "void post_conjugate(__global void *re, __global void *im, uint offset, __global void *userdata,
                                    double value_re, double value_im) {
        ((__global double *)re)[offset] = value_re;
        ((__global double *)im)[offset] = -value_im;
    }";
    let pre_data = upload(vec![pre_w.clone()], precision);
    check(set_callback(plan, "pre_local", pre, 64 * 8, PRECALLBACK, Some(&pre_data)), "pre");
    check(set_callback(plan, "post_conjugate", post, 0, POSTCALLBACK, None), "post");
    let data = upload(vec![x.iter().map(|c| c.re).collect(), x.iter().map(|c| c.im).collect()], precision);
    run(plan, CLFFT_BACKWARD, &data, None);
    let scaled: Vec<Complex64> = x.iter().zip(&pre_w).map(|(v, w)| v * w).collect();
    let want: Vec<Complex64> =
        reference_fft(&scaled, &lengths, Dir::Backward).iter().map(|v| (v / total as f64).conj()).collect();
    let got = data.download();
    let got: Vec<Complex64> = (0..total).map(|k| got.complex(true, k)).collect();
    let error = nrmse(&got, &want);
    assert!(error <= tolerance(precision), "rmse {error:.3e}");
    destroy(plan);
}

#[test]
fn real_to_complex_callbacks_take_real_input_and_give_complex_results() {
    // 211 pairs its transforms as one complex FFT each (Bluestein), whose split pass stores the results; the
    // third transform is its own pair's twin (a lone one).
    for (n, precision) in [(16, Prec::Single), (15, Prec::Single), (16, Prec::Double), (211, Prec::Single)] {
        let batch = 3;
        let half = n / 2 + 1;
        let x: Vec<f64> = random_complex(n * batch, 6).iter().map(|c| c.re).collect();
        let (pre_w, post_w) = (weights(n * batch, 7), weights(half * batch, 8));
        let plan = create(&[n], precision);
        check(clfftSetLayout(plan, CLFFT_REAL, CLFFT_HERMITIAN_INTERLEAVED), "layout");
        check(clfftSetResultLocation(plan, 2), "out of place");
        check(clfftSetPlanBatchSize(plan, batch), "batch");
        check(clfftSetPlanDistance(plan, n, half), "distances");
        let pre = "float pre_real(__global void *input, uint offset, __global void *userdata) {
            return ((__global float *)input)[offset] * ((__global float *)userdata)[offset];
        }";
        let (pre_data, post_data) = (upload(vec![pre_w.clone()], precision), upload(vec![post_w.clone()], precision));
        check(set_callback(plan, "pre_real", &typed(pre, precision), 0, PRECALLBACK, Some(&pre_data)), "pre");
        check(
            set_callback(plan, "post_scaled", &typed(POST_SCALED, precision), 0, POSTCALLBACK, Some(&post_data)),
            "post",
        );
        let input = upload(vec![x.clone()], precision);
        let output = upload(vec![vec![0.0; 2 * half * batch]], precision);
        run(plan, CLFFT_FORWARD, &input, Some(&output));
        let mut want = Vec::new();
        for b in 0..batch {
            let scaled: Vec<Complex64> = (0..n).map(|k| Complex64::new(x[b * n + k] * pre_w[b * n + k], 0.0)).collect();
            want.extend_from_slice(&reference_fft(&scaled, &[n], Dir::Forward)[..half]);
        }
        let want: Vec<Complex64> = want.iter().zip(&post_w).map(|(v, w)| v * w).collect();
        let got = output.download();
        let got: Vec<Complex64> = (0..half * batch).map(|k| got.complex(false, k)).collect();
        let error = nrmse(&got, &want);
        assert!(error <= tolerance(precision), "{n} {precision:?}: rmse {error:.3e}");
        destroy(plan);
    }
}

#[test]
fn complex_to_real_callbacks_in_place_on_padded_rows() {
    // 211: a merge pass reads the pairs of transforms that one complex FFT each then runs (Bluestein).
    for n in [16, 211] {
        complex_to_real_callbacks_in_place(n, 3, Prec::Double);
    }
}

fn complex_to_real_callbacks_in_place(n: usize, batch: usize, precision: Prec) {
    let half = n / 2 + 1;
    // The half spectra of real signals, in rows of `half` complex values (2 half reals each).
    let signals: Vec<Complex64> = random_complex(n * batch, 9).iter().map(|c| Complex64::new(c.re, 0.0)).collect();
    let spectra: Vec<Complex64> = (0..batch)
        .flat_map(|b| reference_fft(&signals[b * n..(b + 1) * n], &[n], Dir::Forward)[..half].to_vec())
        .collect();
    let (pre_w, post_w) = (weights(half * batch, 10), weights(2 * half * batch, 11));
    let plan = create(&[n], precision);
    check(clfftSetLayout(plan, CLFFT_HERMITIAN_INTERLEAVED, CLFFT_REAL), "layout");
    check(clfftSetPlanBatchSize(plan, batch), "batch");
    let mut in_strides = [1usize];
    let mut out_strides = [1usize];
    unsafe {
        check(clfftSetPlanInStride(plan, 1, in_strides.as_mut_ptr()), "in strides");
        check(clfftSetPlanOutStride(plan, 1, out_strides.as_mut_ptr()), "out strides");
    }
    check(clfftSetPlanDistance(plan, half, 2 * half), "distances");
    let post = "void post_real(__global void *output, uint offset, __global void *userdata, double value) {
        ((__global double *)output)[offset] = value * ((__global double *)userdata)[offset];
    }";
    let (pre_data, post_data) = (upload(vec![pre_w.clone()], precision), upload(vec![post_w.clone()], precision));
    check(set_callback(plan, "pre_scaled", &typed(PRE_SCALED, precision), 0, PRECALLBACK, Some(&pre_data)), "pre");
    check(set_callback(plan, "post_real", post, 0, POSTCALLBACK, Some(&post_data)), "post");
    let data = upload(vec![interleave(&spectra)], precision);
    run(plan, CLFFT_BACKWARD, &data, None);
    let got = &data.download().0[0];
    for b in 0..batch {
        // The weights are real, so the scaled half spectrum is still that of a real signal.
        let mut full = vec![Complex64::default(); n];
        for k in 0..half {
            full[k] = spectra[b * half + k] * pre_w[b * half + k];
            full[(n - k) % n] = full[k].conj();
        }
        let want: Vec<Complex64> = reference_fft(&full, &[n], Dir::Backward)
            .iter()
            .enumerate()
            .map(|(i, v)| Complex64::new(v.re / n as f64 * post_w[b * 2 * half + i], 0.0))
            .collect();
        let row: Vec<Complex64> = (0..n).map(|i| Complex64::new(got[b * 2 * half + i], 0.0)).collect();
        let error = nrmse(&row, &want);
        assert!(error <= tolerance(precision), "{n}, transform {b}: rmse {error:.3e}");
    }
    destroy(plan);
}

/// A post-callback receives each result where the transform leaves it, and an in-place transposed result
/// moves every one afterwards: the bake refuses the pair.
#[test]
fn a_post_callback_with_an_in_place_transposed_result_is_refused() {
    let plan = create(&[8, 8], Prec::Single);
    check(clfftSetPlanTransposeResult(plan, 2), "transposed");
    let post_data = upload(vec![weights(64, 6)], Prec::Single);
    check(set_callback(plan, "post_scaled", POST_SCALED, 0, POSTCALLBACK, Some(&post_data)), "post");
    assert_eq!(bake(plan), CLFFT_TRANSPOSED_NOTIMPLEMENTED);
    destroy(plan);
}

#[test]
fn callback_arguments_are_checked_and_a_callback_that_does_not_compile_fails_the_bake() {
    let plan = create(&[8], Prec::Single);
    let data = upload(vec![vec![1.0; 16]], Prec::Single);
    let name = CString::new("f").unwrap();
    let code = CString::new("float2 f(__global void *in, uint k, __global void *u) { return 0; }").unwrap();
    unsafe {
        let mut mems = data.mems();
        assert_eq!(
            clfftSetPlanCallback(plan, ptr::null(), code.as_ptr(), 0, PRECALLBACK, ptr::null_mut(), 0),
            CLFFT_INVALID_ARG_VALUE
        );
        assert_eq!(
            clfftSetPlanCallback(plan, name.as_ptr(), ptr::null(), 0, PRECALLBACK, ptr::null_mut(), 0),
            CLFFT_INVALID_ARG_VALUE
        );
        assert_eq!(
            clfftSetPlanCallback(plan, name.as_ptr(), code.as_ptr(), 0, 2, ptr::null_mut(), 0),
            CLFFT_INVALID_ARG_VALUE
        );
        assert_eq!(
            clfftSetPlanCallback(plan, name.as_ptr(), code.as_ptr(), 0, PRECALLBACK, mems.as_mut_ptr(), -1),
            CLFFT_INVALID_ARG_VALUE
        );
        assert_eq!(
            clfftSetPlanCallback(plan, name.as_ptr(), code.as_ptr(), 0, PRECALLBACK, mems.as_mut_ptr(), 2),
            CLFFT_NOTIMPLEMENTED
        );
        assert_eq!(
            clfftSetPlanCallback(0xdead, name.as_ptr(), code.as_ptr(), 0, PRECALLBACK, ptr::null_mut(), 0),
            CLFFT_INVALID_PLAN
        );
    }
    // A typo in the user's code reaches the caller at bake as clBuildProgram's status.
    check(
        set_callback(
            plan,
            "broken",
            "float2 broken(__global void *in, uint k, __global void *u) { return }",
            0,
            PRECALLBACK,
            None,
        ),
        "set",
    );
    assert_eq!(bake(plan), -11, "CL_BUILD_PROGRAM_FAILURE");
    // More local memory than the device has fails the bake too.
    check(set_callback(plan, "f", code.to_str().unwrap(), i32::MAX, PRECALLBACK, None), "set");
    assert_eq!(bake(plan), CLFFT_INVALID_ARG_VALUE);
    // Registering again replaces the callback.
    check(set_callback(plan, "f", code.to_str().unwrap(), 0, PRECALLBACK, None), "set");
    check(bake(plan), "bake");
    destroy(plan);
}

/// A user-data buffer of another context than the plan's goes to the kernels as it is, as clFFT passes it
/// (`c-tests/clfft_calling_patterns.c::callback_user_data_of_another_context`): on one device the callback reads it.
#[test]
fn a_user_data_buffer_of_another_context_is_read() {
    let (n, precision) = (32, Prec::Single);
    let x = random_complex(n, 14);
    let w = weights(n, 15);
    let elsewhere = ocl::Context::builder().devices(ENV.device).build().expect("a second context");
    let foreign = ocl::Buffer::<f32>::builder()
        .context(&elsewhere)
        .flags(ocl::flags::MEM_READ_WRITE | ocl::flags::MEM_COPY_HOST_PTR)
        .len(n)
        .copy_host_slice(&w.iter().map(|&v| v as f32).collect::<Vec<_>>())
        .build()
        .expect("a buffer of the second context");
    let plan = create(&[n], precision);
    check(clfftSetResultLocation(plan, 2), "out of place");
    let (name, code) = (CString::new("pre_scaled").unwrap(), CString::new(PRE_SCALED).unwrap());
    let mut mem = foreign.as_core().as_ptr();
    check(
        unsafe { clfftSetPlanCallback(plan, name.as_ptr(), code.as_ptr(), 0, PRECALLBACK, &mut mem, 1) },
        "a user-data buffer of another context",
    );
    let input = upload(vec![interleave(&x)], precision);
    let output = upload(vec![vec![0.0; 2 * n]], precision);
    run(plan, CLFFT_FORWARD, &input, Some(&output));
    assert_pre_scaled(&output, &x, &w, precision);
    destroy(plan);
}

#[test]
fn the_plan_keeps_its_user_data_and_copies_share_the_callbacks() {
    let (n, precision) = (32, Prec::Single);
    let x = random_complex(n, 12);
    let w = weights(n, 13);
    let plan = create(&[n], precision);
    check(clfftSetResultLocation(plan, 2), "out of place");
    {
        // The caller releases its user-data buffer right away; the plan holds its own reference. The buffer
        // count is 0: clFFT takes the buffer whenever the pointer is given.
        let pre_data = upload(vec![w.clone()], precision);
        let (name, code) = (CString::new("pre_scaled").unwrap(), CString::new(PRE_SCALED).unwrap());
        let mut mem = pre_data.mems()[0];
        let status = unsafe { clfftSetPlanCallback(plan, name.as_ptr(), code.as_ptr(), 0, PRECALLBACK, &mut mem, 0) };
        check(status, "pre");
    }
    // The user-data buffer belongs to the plan's context: a copy into another context is refused.
    let other = ocl::Context::builder().devices(ENV.device).build().expect("a second context");
    let mut elsewhere = 0;
    let status = unsafe { clfftCopyPlan(&mut elsewhere, other.as_core().as_ptr(), plan) };
    assert_eq!(status, -34, "CL_INVALID_CONTEXT for a copy into another context with a user-data buffer");
    let mut copy = 0;
    check(unsafe { clfftCopyPlan(&mut copy, context_ptr(), plan) }, "copy");
    destroy(plan);
    let input = upload(vec![interleave(&x)], precision);
    let output = upload(vec![vec![0.0; 2 * n]], precision);
    run(copy, CLFFT_FORWARD, &input, Some(&output));
    assert_pre_scaled(&output, &x, &w, precision);
    destroy(copy);
}
