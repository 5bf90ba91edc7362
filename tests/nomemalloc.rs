//! The no-allocation mode (`CLFFT_REQUEST_LIB_NOMEMALLOC`, or `fftxSetPlanNoMemAlloc` per plan): long
//! transforms of length a * b * a run in place on the caller's buffers, report no scratch, and match the
//! f64 reference as tightly as the default path; other transforms fall back to scratch, as in clFFT.

mod common;
use common::*;
use fftx::api::clfft::*;
use fftx::api::transpose::{fftxGetPlanNoMemAlloc, fftxSetPlanNoMemAlloc};
use fftx::planner::kernel_shape;
use fftx::planner::tuning::Target;
use std::ptr;

fn checked(case: Case) {
    let rmse = case.run();
    assert!(rmse <= tolerance(case.precision), "rmse {rmse:.3e} for {case:?}");
}

/// Runs the tests here one at a time: one sets `CLFFT_REQUEST_LIB_NOMEMALLOC`, and setting a variable while
/// another thread's PoCL reads the environment can crash getenv.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    GLOBAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every case builds its own kernels (about a second each on PoCL), so each size here stands for a shape of
/// split: 2^17 = 64 x 32 x 64, 2^20 = 1024 x 1024, 3^9 = 27 x 27 x 27, 3^10 = 243 x 243, 5^7 = 25 x 125 x 25,
/// 10^5 = 50 x 40 x 50. Deeper splits run in `tests/deep.rs`.
#[test]
fn powers_of_two_three_five_and_ten() {
    let _serial = serial();
    for n in [1 << 17, 1 << 20, 3usize.pow(9), 3usize.pow(10), 5usize.pow(7), 10usize.pow(5)] {
        checked(Case::new(&[n]).in_place().no_mem_alloc(true));
    }
}

#[test]
fn both_precisions_directions_layouts_and_placements() {
    let _serial = serial();
    checked(Case::new(&[1 << 16]).in_place().no_mem_alloc(true));
    checked(Case::new(&[1 << 15]).in_place().backward().no_mem_alloc(true));
    checked(Case::new(&[6000 * 6]).no_mem_alloc(true));
    checked(Case::new(&[1 << 14]).batch(2).planar(false, true).backward().no_mem_alloc(true));
    // Double precision plans the same steps; 2^24 runs in tests/large.rs.
    checked(Case::new(&[3 << 14]).double().batch(3).in_place().planar(true, true).no_mem_alloc(true));
}

/// 44100 = 210 x 210, 8640 = 12 x 60 x 12, 40898 = 13 x 242 x 13.
#[test]
fn mixed_lengths_with_a_square_factor() {
    let _serial = serial();
    for n in [44100, 12 * 12 * 12 * 5, 2 * 121 * 169] {
        checked(Case::new(&[n]).in_place().no_mem_alloc(true));
    }
}

/// Lengths with a prime factor above 13: Bluestein's whole convolution in one kernel (289 = 17^2, 4097 =
/// 17 x 241), or as the passes of an in-place split (17408 = 32 x 17 x 32, 17^2 x 2^12 = 1088 x 1088).
/// 4097's convolution (9216 points) fits one kernel in PoCL's 1 MiB of local memory but not in a GPU's
/// 48 KiB; there the request gives way to scratch, as for any length without the a * b * a form, and the
/// prime 1031 (a convolution of 2304 points) stands in for it.
#[test]
fn lengths_with_large_prime_factors() {
    let _serial = serial();
    let device = fftx::runtime::device_info(ENV.device.as_core().as_raw() as _).expect("device facts");
    let target = Target::new(&device, fftx::api::default_tuning());
    let one_kernel = |n| kernel_shape::fits_bluestein_in_one_kernel(n, &target, fftx::types::Precision::Single);
    let long = if one_kernel(4097) {
        4097
    } else {
        let (status, tmp) = bake(4097, Some(true));
        assert_eq!((status, tmp), bake(4097, Some(false)), "4097 falls back to the default plan");
        assert!(tmp > 0, "4097 takes scratch where its convolution does not fit one kernel");
        assert!(one_kernel(1031), "1031's convolution fits one kernel");
        1031
    };
    for (n, p) in [(289, Prec::Double), (long, Prec::Single), (17 * 1024, Prec::Single), (289 << 12, Prec::Single)] {
        let case = Case::new(&[n]).precision(p).in_place().no_mem_alloc(true);
        let rmse = case.run();
        assert!(rmse <= bluestein_tolerance(p), "rmse {rmse:.3e} for {case:?}");
    }
}

#[test]
fn multidimensional_with_a_long_axis() {
    let _serial = serial();
    checked(Case::new(&[1 << 14, 3]).in_place().no_mem_alloc(true));
    checked(Case::new(&[5, 1 << 14]).in_place().backward().no_mem_alloc(true));
}

/// Bakes an in-place 1D single plan of length `n` with the plan's own mode and returns the bake status
/// and the scratch it reports.
fn bake(n: usize, on: Option<bool>) -> (i32, usize) {
    let mut plan: clfftPlanHandle = 0;
    let mut tmp = usize::MAX;
    unsafe {
        check(clfftCreateDefaultPlan(&mut plan, context_ptr(), 1, &n), "create");
        if let Some(on) = on {
            check(fftxSetPlanNoMemAlloc(plan, on as i32), "set");
        }
        let mut q = queue_ptr();
        let status = clfftBakePlan(plan, 1, &mut q, None, ptr::null_mut());
        if status == CLFFT_SUCCESS {
            check(clfftGetTmpBufSize(plan, &mut tmp), "tmp size");
        }
        check(clfftDestroyPlan(&mut plan), "destroy");
        (status, tmp)
    }
}

#[test]
fn lengths_without_a_split_fall_back_to_scratch() {
    let _serial = serial();
    // 2 * 3 * 5 * 7 * 11 * 13 has no square factor but 1, so, as in clFFT, the request gives way to scratch.
    let odd = 2 * 3 * 5 * 7 * 11 * 13;
    let (status, tmp) = bake(odd, Some(true));
    assert_eq!((status, tmp), bake(odd, Some(false)));
    assert!(tmp > 0, "{odd} points need scratch");
    let (status, tmp) = bake(1 << 18, Some(true));
    assert_eq!((status, tmp), (CLFFT_SUCCESS, 0));
    assert!(bake(1 << 18, Some(false)).1 > 0, "the default path keeps its scratch");
}

#[test]
fn the_environment_variable_is_read_at_setup_and_the_plan_setting_wins() {
    let _serial = serial();
    let mode = |plan: clfftPlanHandle| {
        let mut on = -1;
        check(unsafe { fftxGetPlanNoMemAlloc(plan, &mut on) }, "get");
        on
    };
    let mut plan: clfftPlanHandle = 0;
    let n = 1usize << 18;
    unsafe {
        check(clfftCreateDefaultPlan(&mut plan, context_ptr(), 1, &n), "create");
        std::env::set_var("CLFFT_REQUEST_LIB_NOMEMALLOC", "1");
        check(clfftSetup(ptr::null()), "setup");
        assert_eq!(mode(plan), 1);
        assert_eq!(bake(n, None), (CLFFT_SUCCESS, 0));
        check(fftxSetPlanNoMemAlloc(plan, 0), "set");
        assert_eq!(mode(plan), 0);
        assert!(bake(n, Some(false)).1 > 0);
        std::env::set_var("CLFFT_REQUEST_LIB_NOMEMALLOC", "0");
        check(clfftSetup(ptr::null()), "setup");
        assert!(bake(n, None).1 > 0, "0 leaves the mode off");
        std::env::remove_var("CLFFT_REQUEST_LIB_NOMEMALLOC");
        check(clfftSetup(ptr::null()), "setup");
        assert!(bake(n, None).1 > 0);
        assert_eq!(fftxSetPlanNoMemAlloc(plan, 2), CLFFT_INVALID_ARG_VALUE);
        assert_eq!(fftxGetPlanNoMemAlloc(plan, ptr::null_mut()), CLFFT_INVALID_HOST_PTR);
        check(clfftDestroyPlan(&mut plan), "destroy");
        assert_eq!(fftxSetPlanNoMemAlloc(plan, 1), CLFFT_INVALID_PLAN);
        assert_eq!(fftxGetPlanNoMemAlloc(plan, &mut 0), CLFFT_INVALID_PLAN);
    }
}
