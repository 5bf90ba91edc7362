//! The cuFFT-style C API (`fftx.h`), called exactly as a C program would: every transform type and rank on
//! host and device memory, in place and out of place, cuFFT's advanced layout, work areas, streams, the
//! statuses of bad input, and the out-of-core path on budgets small enough to need many slabs.

mod common;

use common::{nrmse, random_complex, reference_fft, tolerance, Dir, Prec};
use fftx::api::fftx::fftxResult_t::*;
use fftx::api::fftx::*;
use fftx::plan::cufft::HostData;
use fftx::plan::outofcore::{self, DeviceBudget, Streamed};
use fftx::plan::Direction;
use fftx::runtime::cl::{enqueue_copy, read_buffer, RawEvent};
use fftx::runtime::devmem::{context_of, default_stream};
use fftx::runtime::{Buffer, Context, Event, Queue};
use fftx::types::{Precision, TransformKind};
use num_complex::Complex64;
use std::ffi::c_void;
use std::ptr;

fn ok(result: fftxResult, what: &str) {
    assert_eq!(result, FFTX_SUCCESS, "{what}");
}

/// Host values of one precision, as raw bytes the C API takes.
#[derive(Clone)]
enum Values {
    Single(Vec<f32>),
    Double(Vec<f64>),
}

impl Values {
    fn new(reals: &[f64], precision: Prec) -> Values {
        match precision {
            Prec::Single => Values::Single(reals.iter().map(|&v| v as f32).collect()),
            Prec::Double => Values::Double(reals.to_vec()),
        }
    }

    fn zeros(count: usize, precision: Prec) -> Values {
        Values::new(&vec![0.0; count], precision)
    }

    fn ptr(&mut self) -> *mut c_void {
        match self {
            Values::Single(v) => v.as_mut_ptr().cast(),
            Values::Double(v) => v.as_mut_ptr().cast(),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Values::Single(v) => v.len() * 4,
            Values::Double(v) => v.len() * 8,
        }
    }

    fn reals(&self) -> Vec<f64> {
        match self {
            Values::Single(v) => v.iter().map(|&x| x as f64).collect(),
            Values::Double(v) => v.clone(),
        }
    }

    fn complex(&self) -> Vec<Complex64> {
        self.reals().chunks_exact(2).map(|c| Complex64::new(c[0], c[1])).collect()
    }
}

fn interleave(values: &[Complex64]) -> Vec<f64> {
    values.iter().flat_map(|c| [c.re, c.im]).collect()
}

fn complex_type(precision: Prec) -> fftxType {
    match precision {
        Prec::Single => fftxType_t::FFTX_C2C as fftxType,
        Prec::Double => fftxType_t::FFTX_Z2Z as fftxType,
    }
}

/// Makes a basic-layout plan for row-major sizes `n`.
fn plan_for(n: &[usize], fft_type: fftxType, batch: usize) -> fftxHandle {
    let mut plan = 0;
    let mut sizes: Vec<i32> = n.iter().map(|&v| v as i32).collect();
    let status = unsafe {
        match n.len() {
            1 => fftxPlan1d(&mut plan, sizes[0], fft_type, batch as i32),
            2 if batch == 1 => fftxPlan2d(&mut plan, sizes[0], sizes[1], fft_type),
            3 if batch == 1 => fftxPlan3d(&mut plan, sizes[0], sizes[1], sizes[2], fft_type),
            _ => fftxPlanMany(
                &mut plan,
                n.len() as i32,
                sizes.as_mut_ptr(),
                ptr::null_mut(),
                0,
                0,
                ptr::null_mut(),
                0,
                0,
                fft_type,
                batch as i32,
            ),
        }
    };
    ok(status, &format!("plan {n:?} type {fft_type:#x} batch {batch}"));
    plan
}

unsafe fn exec_complex(
    plan: fftxHandle,
    precision: Prec,
    input: *mut c_void,
    output: *mut c_void,
    dir: i32,
) -> fftxResult {
    match precision {
        Prec::Single => fftxExecC2C(plan, input.cast(), output.cast(), dir),
        Prec::Double => fftxExecZ2Z(plan, input.cast(), output.cast(), dir),
    }
}

/// The row-major reference of a batch of transforms of sizes `n`, each `n` values apart.
fn reference_batch(x: &[Complex64], n: &[usize], batch: usize, dir: Dir) -> Vec<Complex64> {
    let lengths: Vec<usize> = n.iter().rev().copied().collect();
    let size: usize = n.iter().product();
    (0..batch).flat_map(|b| reference_fft(&x[b * size..(b + 1) * size], &lengths, dir)).collect()
}

#[test]
fn complex_transforms_of_every_rank_on_host_memory() {
    for (n, batch, precision) in [
        (&[64][..], 3, Prec::Single),
        (&[12, 20][..], 1, Prec::Single),
        (&[4, 6, 10][..], 1, Prec::Double),
        (&[256][..], 2, Prec::Double),
        (&[8, 9][..], 2, Prec::Single),
    ] {
        let size: usize = n.iter().product::<usize>() * batch;
        let x = random_complex(size, 7);
        let plan = plan_for(n, complex_type(precision), batch);
        let mut input = Values::new(&interleave(&x), precision);
        let mut output = Values::zeros(2 * size, precision);
        ok(unsafe { exec_complex(plan, precision, input.ptr(), output.ptr(), FFTX_FORWARD) }, "forward");
        let want = reference_batch(&x, n, batch, Dir::Forward);
        let error = nrmse(&output.complex(), &want);
        assert!(error < tolerance(precision), "{n:?} x {batch} {precision:?}: forward error {error:e}");
        assert_eq!(input.complex(), Values::new(&interleave(&x), precision).complex(), "input kept");

        // The inverse is unnormalised: forward then inverse gives the input times the size.
        ok(unsafe { exec_complex(plan, precision, output.ptr(), output.ptr(), FFTX_INVERSE) }, "inverse");
        let scaled: Vec<Complex64> = x.iter().map(|v| v * n.iter().product::<usize>() as f64).collect();
        let error = nrmse(&output.complex(), &scaled);
        assert!(error < 4.0 * tolerance(precision), "{n:?} {precision:?}: round trip error {error:e}");
        ok(fftxDestroy(plan), "destroy");
    }
}

/// The two-step form, `fftxCreate` then `fftxMakePlan2d` or `fftxMakePlanMany`, runs the same transforms as
/// the one-call plans and reports the work size its estimate gave.
#[test]
fn made_plans_transform_like_one_call_plans() {
    for (n, batch, precision) in [(&[12, 10][..], 1, Prec::Double), (&[6, 4, 5][..], 3, Prec::Single)] {
        let size: usize = n.iter().product::<usize>() * batch;
        let mut sizes: Vec<i32> = n.iter().map(|&v| v as i32).collect();
        let fft_type = complex_type(precision);
        let (mut plan, mut estimate, mut work) = (0, usize::MAX, usize::MAX);
        ok(unsafe { fftxCreate(&mut plan) }, "create");
        let (estimated, made) = unsafe {
            if n.len() == 2 && batch == 1 {
                (
                    fftxEstimate2d(sizes[0], sizes[1], fft_type, &mut estimate),
                    fftxMakePlan2d(plan, sizes[0], sizes[1], fft_type, &mut work),
                )
            } else {
                let rank = n.len() as i32;
                let null = ptr::null_mut();
                (
                    fftxEstimateMany(
                        rank,
                        sizes.as_mut_ptr(),
                        null,
                        1,
                        1,
                        null,
                        1,
                        1,
                        fft_type,
                        batch as i32,
                        &mut estimate,
                    ),
                    fftxMakePlanMany(
                        plan,
                        rank,
                        sizes.as_mut_ptr(),
                        null,
                        1,
                        1,
                        null,
                        1,
                        1,
                        fft_type,
                        batch as i32,
                        &mut work,
                    ),
                )
            }
        };
        ok(estimated, "estimate");
        ok(made, &format!("make {n:?} x {batch}"));
        assert_eq!(work, estimate, "{n:?} x {batch}: work size");
        let x = random_complex(size, 11);
        let mut input = Values::new(&interleave(&x), precision);
        let mut output = Values::zeros(2 * size, precision);
        ok(unsafe { exec_complex(plan, precision, input.ptr(), output.ptr(), FFTX_FORWARD) }, "forward");
        let error = nrmse(&output.complex(), &reference_batch(&x, n, batch, Dir::Forward));
        assert!(error < tolerance(precision), "{n:?} x {batch} {precision:?}: forward error {error:e}");
        ok(fftxDestroy(plan), "destroy");
    }
}

/// cuFFT's numeric values, which programs compiled against cuFFT-style code rely on.
#[test]
fn statuses_and_types_have_cuffts_values() {
    let statuses = [
        (FFTX_SUCCESS, 0),
        (FFTX_INVALID_PLAN, 1),
        (FFTX_ALLOC_FAILED, 2),
        (FFTX_INVALID_TYPE, 3),
        (FFTX_INVALID_VALUE, 4),
        (FFTX_INTERNAL_ERROR, 5),
        (FFTX_EXEC_FAILED, 6),
        (FFTX_SETUP_FAILED, 7),
        (FFTX_INVALID_SIZE, 8),
        (FFTX_UNALIGNED_DATA, 9),
        (FFTX_INVALID_DEVICE, 11),
        (FFTX_NO_WORKSPACE, 13),
        (FFTX_NOT_IMPLEMENTED, 14),
        (FFTX_NOT_SUPPORTED, 16),
    ];
    for (status, value) in statuses {
        assert_eq!(status as i32, value, "{status:?}");
    }
    use fftxType_t::*;
    let types =
        [(FFTX_R2C, 0x2a), (FFTX_C2R, 0x2c), (FFTX_C2C, 0x29), (FFTX_D2Z, 0x6a), (FFTX_Z2D, 0x6c), (FFTX_Z2Z, 0x69)];
    for (fft_type, value) in types {
        assert_eq!(fft_type as i32, value, "{fft_type:?}");
    }
    assert_eq!((FFTX_FORWARD, FFTX_INVERSE), (-1, 1));
}

/// Real input of a batch, in a row layout with rows `pitch` reals apart (n[last] used of each).
fn real_rows(values: &[f64], n: &[usize], batch: usize, pitch: usize) -> Vec<f64> {
    let last = *n.last().unwrap();
    let rows = n[..n.len() - 1].iter().product::<usize>() * batch;
    let mut out = vec![0.0; rows * pitch];
    for r in 0..rows {
        out[r * pitch..r * pitch + last].copy_from_slice(&values[r * last..(r + 1) * last]);
    }
    out
}

#[test]
fn real_transforms_in_and_out_of_place() {
    use fftxType_t::*;
    for (n, batch, precision) in
        [(&[30][..], 2, Prec::Single), (&[6, 16][..], 1, Prec::Double), (&[4, 5, 12][..], 1, Prec::Single)]
    {
        let (r2c, c2r) = match precision {
            Prec::Single => (FFTX_R2C as fftxType, FFTX_C2R as fftxType),
            Prec::Double => (FFTX_D2Z as fftxType, FFTX_Z2D as fftxType),
        };
        let last = *n.last().unwrap();
        let half = last / 2 + 1;
        let rows = n[..n.len() - 1].iter().product::<usize>() * batch;
        let size = rows * last;
        let x: Vec<f64> = random_complex(size, 3).iter().map(|c| c.re).collect();
        let full =
            reference_batch(&x.iter().map(|&v| Complex64::new(v, 0.0)).collect::<Vec<_>>(), n, batch, Dir::Forward);
        let want: Vec<Complex64> = (0..rows).flat_map(|r| full[r * last..r * last + half].to_vec()).collect();
        let forward = plan_for(n, r2c, batch);
        let inverse = plan_for(n, c2r, batch);
        for in_place in [false, true] {
            let pitch = if in_place { 2 * half } else { last };
            let mut input = Values::new(&real_rows(&x, n, batch, pitch), precision);
            let mut spectrum = Values::zeros(2 * rows * half, precision);
            let out = if in_place { input.ptr() } else { spectrum.ptr() };
            let status = unsafe {
                match precision {
                    Prec::Single => fftxExecR2C(forward, input.ptr().cast(), out.cast()),
                    Prec::Double => fftxExecD2Z(forward, input.ptr().cast(), out.cast()),
                }
            };
            ok(status, "forward real");
            let got = if in_place { input.complex() } else { spectrum.complex() };
            let error = nrmse(&got, &want);
            assert!(error < tolerance(precision), "{n:?} {precision:?} in place {in_place}: R2C error {error:e}");

            let mut spectrum = if in_place { input.clone() } else { spectrum };
            let mut back = Values::zeros(rows * pitch, precision);
            let out = if in_place { spectrum.ptr() } else { back.ptr() };
            let status = unsafe {
                match precision {
                    Prec::Single => fftxExecC2R(inverse, spectrum.ptr().cast(), out.cast()),
                    Prec::Double => fftxExecZ2D(inverse, spectrum.ptr().cast(), out.cast()),
                }
            };
            ok(status, "inverse real");
            let got = if in_place { spectrum.reals() } else { back.reals() };
            let got: Vec<Complex64> = (0..rows)
                .flat_map(|r| got[r * pitch..r * pitch + last].to_vec())
                .map(|v| Complex64::new(v, 0.0))
                .collect();
            let scaled: Vec<Complex64> =
                x.iter().map(|&v| Complex64::new(v * n.iter().product::<usize>() as f64, 0.0)).collect();
            let error = nrmse(&got, &scaled);
            assert!(error < 4.0 * tolerance(precision), "{n:?} {precision:?} in place {in_place}: C2R error {error:e}");
        }
        ok(fftxDestroy(forward), "destroy");
        ok(fftxDestroy(inverse), "destroy");
    }
}

fn malloc(bytes: usize) -> *mut c_void {
    let mut p = ptr::null_mut();
    ok(unsafe { fftxMalloc(&mut p, bytes) }, "fftxMalloc");
    p
}

fn copy(dst: *mut c_void, src: *const c_void, bytes: usize, kind: fftxMemcpyKind_t) {
    ok(unsafe { fftxMemcpy(dst, src, bytes, kind as fftxMemcpyKind) }, "fftxMemcpy");
}

/// fftxMalloc gives shared virtual memory where the device has it: the pointer is the memory's own address,
/// so a transform's result reads back through the pointer itself (mapped, as OpenCL 2.0 asks). On
/// the other form (a reserved handle, which devices without SVM get) transforms run the same.
#[test]
fn device_memory_is_shared_virtual_memory_where_the_device_has_it() {
    use fftxMemcpyKind_t::*;
    extern "C" {
        fn clEnqueueSVMMap(
            queue: ocl::ffi::cl_command_queue,
            blocking: u32,
            flags: u64,
            svm: *mut c_void,
            size: usize,
            waits: u32,
            wait_list: *const c_void,
            event: *mut c_void,
        ) -> i32;
        fn clEnqueueSVMUnmap(
            queue: ocl::ffi::cl_command_queue,
            svm: *mut c_void,
            waits: u32,
            wait_list: *const c_void,
            event: *mut c_void,
        ) -> i32;
    }
    let stream = default_stream().expect("the default stream");
    println!("default device has SVM buffers: {}", stream.svm_buffers);
    let n = 64;
    let x = random_complex(n, 5);
    let want = reference_batch(&x, &[n], 1, Dir::Forward);
    let plan = plan_for(&[n], complex_type(Prec::Single), 1);
    let mut input = Values::new(&interleave(&x), Prec::Single);
    let handle = fftx::runtime::devmem::allocate(&stream.context, n * 8, false).expect("a reserved handle");
    let refusals = fftx::runtime::devmem::svm_refusals();
    let allocated = malloc(n * 8);
    let shared = fftx::runtime::devmem::is_shared(allocated as usize).expect("device memory");
    // A driver may refuse an SVM allocation (NVIDIA's refused some sizes): fftxMalloc then reserves a handle.
    if fftx::runtime::devmem::svm_refusals() == refusals {
        assert_eq!(shared, stream.svm_buffers);
    } else {
        // This refusal or another thread's: either form may have come back.
        assert!(stream.svm_buffers, "an SVM refusal on a device without SVM");
    }
    assert_eq!(fftx::runtime::devmem::is_shared(handle), Some(false));
    for (device, shared) in [(allocated, shared), (handle as *mut c_void, false)] {
        copy(device, input.ptr(), n * 8, FFTX_MEMCPY_HOST_TO_DEVICE);
        ok(unsafe { fftxExecC2C(plan, device.cast(), device.cast(), FFTX_FORWARD) }, "exec in place");
        let mut result = Values::zeros(2 * n, Prec::Single);
        copy(result.ptr(), device, n * 8, FFTX_MEMCPY_DEVICE_TO_HOST);
        let error = nrmse(&result.complex(), &want);
        assert!(error < tolerance(Prec::Single), "shared {shared}: error {error:e}");
        if shared {
            let queue = stream.queue.raw();
            let null = ptr::null_mut();
            // CL_MAP_READ, blocking.
            assert_eq!(unsafe { clEnqueueSVMMap(queue, 1, 1, device, n * 8, 0, ptr::null(), null) }, 0, "map");
            let seen: Vec<f32> = unsafe { std::slice::from_raw_parts(device as *const f32, 2 * n) }.to_vec();
            assert_eq!(unsafe { clEnqueueSVMUnmap(queue, device, 0, ptr::null(), null) }, 0, "unmap");
            queue_finish(&stream.queue);
            assert_eq!(Values::Single(seen).complex(), result.complex(), "the pointer holds the result");
        }
        ok(fftxFree(device), "free");
    }
    ok(fftxDestroy(plan), "destroy");
}

fn queue_finish(queue: &Queue) {
    queue.finish().expect("clFinish");
}

#[test]
fn device_memory_at_any_offset() {
    use fftxMemcpyKind_t::*;
    let n = 96;
    let batch = 2;
    let x = random_complex(n * batch, 11);
    let want = reference_batch(&x, &[n], batch, Dir::Forward);
    let plan = plan_for(&[n], complex_type(Prec::Single), batch);
    let bytes = n * batch * 8;
    let mut input = Values::new(&interleave(&x), Prec::Single);
    // Offsets: none (the allocation itself), 128 bytes (a sub-buffer) and 8 or 24 bytes (staged through a
    // copy): the plan keeps its staging buffers, so the later cases take the ones the earlier ones left.
    for (in_offset, out_offset) in [(0, 0), (128, 256), (8, 24), (0, 24), (8, 0), (8, 24)] {
        let area = malloc(2 * bytes + 1024);
        let device_in = unsafe { area.cast::<u8>().add(in_offset) }.cast::<c_void>();
        let device_out = unsafe { area.cast::<u8>().add(bytes + 512 + out_offset) }.cast::<c_void>();
        copy(device_in, input.ptr(), bytes, FFTX_MEMCPY_HOST_TO_DEVICE);
        ok(unsafe { fftxExecC2C(plan, device_in.cast(), device_out.cast(), FFTX_FORWARD) }, "exec out of place");
        let mut result = Values::zeros(2 * n * batch, Prec::Single);
        copy(result.ptr(), device_out, bytes, FFTX_MEMCPY_DEVICE_TO_HOST);
        let error = nrmse(&result.complex(), &want);
        assert!(error < tolerance(Prec::Single), "offsets {in_offset}/{out_offset}: error {error:e}");

        ok(unsafe { fftxExecC2C(plan, device_in.cast(), device_in.cast(), FFTX_FORWARD) }, "exec in place");
        let other = malloc(bytes);
        copy(other, device_in, bytes, FFTX_MEMCPY_DEVICE_TO_DEVICE);
        copy(result.ptr(), other, bytes, FFTX_MEMCPY_DEVICE_TO_HOST);
        let error = nrmse(&result.complex(), &want);
        assert!(error < tolerance(Prec::Single), "in place at {in_offset}: error {error:e}");
        ok(fftxFree(other), "free");
        ok(fftxFree(area), "free");
    }
    ok(fftxDestroy(plan), "destroy");
}

#[test]
fn advanced_layout_follows_cufft_formula() {
    // 2D C2C of 6 x 5 per batch entry, input element (x, y) of batch b at b * idist + istride * (x * inembed[1]
    // + y), output likewise; the gaps of the output must come back untouched.
    let (nx, ny, batch) = (6usize, 5usize, 2usize);
    let (inembed, istride, idist) = ([0, 7], 2usize, 100usize);
    let (onembed, ostride, odist) = ([0, 6], 1usize, 40usize);
    let x = random_complex(nx * ny * batch, 5);
    let mut host_in = vec![Complex64::new(9.0, 9.0); batch * idist];
    for b in 0..batch {
        for i in 0..nx {
            for j in 0..ny {
                host_in[b * idist + istride * (i * inembed[1] + j)] = x[b * nx * ny + i * ny + j];
            }
        }
    }
    let sentinel = Complex64::new(-3.0, 4.0);
    for precision in [Prec::Single, Prec::Double] {
        let mut plan = 0;
        let (mut n, mut ie, mut oe) = ([nx as i32, ny as i32], inembed.map(|v| v as i32), onembed.map(|v| v as i32));
        let status = unsafe {
            fftxPlanMany(
                &mut plan,
                2,
                n.as_mut_ptr(),
                ie.as_mut_ptr(),
                istride as i32,
                idist as i32,
                oe.as_mut_ptr(),
                ostride as i32,
                odist as i32,
                complex_type(precision),
                batch as i32,
            )
        };
        ok(status, "fftxPlanMany");
        let mut input = Values::new(&interleave(&host_in), precision);
        let mut output = Values::new(&interleave(&vec![sentinel; batch * odist]), precision);
        ok(unsafe { exec_complex(plan, precision, input.ptr(), output.ptr(), FFTX_FORWARD) }, "exec");
        let got = output.complex();
        let want = reference_batch(&x, &[nx, ny], batch, Dir::Forward);
        let mut picked = Vec::new();
        let mut written = vec![false; got.len()];
        for b in 0..batch {
            for i in 0..nx {
                for j in 0..ny {
                    let at = b * odist + ostride * (i * onembed[1] + j);
                    picked.push(got[at]);
                    written[at] = true;
                }
            }
        }
        let error = nrmse(&picked, &want);
        assert!(error < tolerance(precision), "{precision:?}: error {error:e}");
        let gaps_kept = got.iter().zip(&written).filter(|(_, w)| !**w).all(|(v, _)| *v == sentinel);
        assert!(gaps_kept, "{precision:?}: a value between the output elements changed");
        ok(fftxDestroy(plan), "destroy");
    }

    // One transform has no distance: in place, idist and odist may differ.
    let n = 64;
    let x = random_complex(n, 6);
    let mut plan = 0;
    let (mut sizes, mut ie, mut oe) = ([n as i32], [n as i32], [n as i32]);
    let status = unsafe {
        fftxPlanMany(
            &mut plan,
            1,
            sizes.as_mut_ptr(),
            ie.as_mut_ptr(),
            1,
            n as i32,
            oe.as_mut_ptr(),
            1,
            0,
            complex_type(Prec::Double),
            1,
        )
    };
    ok(status, "fftxPlanMany of one transform");
    let mut data = Values::new(&interleave(&x), Prec::Double);
    ok(unsafe { fftxExecZ2Z(plan, data.ptr().cast(), data.ptr().cast(), FFTX_FORWARD) }, "in place");
    assert!(nrmse(&data.complex(), &reference_fft(&x, &[n], Dir::Forward)) < tolerance(Prec::Double));
    ok(fftxDestroy(plan), "destroy");
}

#[test]
fn advanced_layout_of_a_real_transform_with_64_bit_sizes() {
    // Batched 1D R2C of 10 points: input every 3rd real, entries 40 apart; output packed, entries 8 apart.
    let (n, batch) = (10usize, 3usize);
    let x: Vec<f64> = random_complex(n * batch, 2).iter().map(|c| c.re).collect();
    let mut host = vec![0.0f32; 40 * batch];
    for b in 0..batch {
        for i in 0..n {
            host[b * 40 + 3 * i] = x[b * n + i] as f32;
        }
    }
    let mut plan = 0;
    ok(unsafe { fftxCreate(&mut plan) }, "create");
    let (mut sizes, mut ie, mut oe) = ([n as i64], [0i64], [0i64]);
    let mut work = usize::MAX;
    let status = unsafe {
        fftxMakePlanMany64(
            plan,
            1,
            sizes.as_mut_ptr(),
            ie.as_mut_ptr(),
            3,
            40,
            oe.as_mut_ptr(),
            1,
            8,
            fftxType_t::FFTX_R2C as fftxType,
            batch as i64,
            &mut work,
        )
    };
    ok(status, "fftxMakePlanMany64");
    assert_ne!(work, usize::MAX, "the work size is written");
    let mut out = vec![fftxComplex::default(); 8 * batch];
    ok(unsafe { fftxExecR2C(plan, host.as_mut_ptr(), out.as_mut_ptr()) }, "exec");
    for b in 0..batch {
        let line: Vec<Complex64> = x[b * n..(b + 1) * n].iter().map(|&v| Complex64::new(v, 0.0)).collect();
        let want = &reference_fft(&line, &[n], Dir::Forward)[..n / 2 + 1];
        let got: Vec<Complex64> =
            out[b * 8..b * 8 + n / 2 + 1].iter().map(|c| Complex64::new(c.x as f64, c.y as f64)).collect();
        let error = nrmse(&got, want);
        assert!(error < tolerance(Prec::Single), "batch entry {b}: error {error:e}");
    }
    ok(fftxDestroy(plan), "destroy");
}

#[test]
fn work_areas_and_automatic_allocation() {
    // Long enough for a four-step on any device, which needs scratch.
    let n = 1 << 16;
    let mut plan = 0;
    ok(unsafe { fftxCreate(&mut plan) }, "create");
    let mut estimated = 0;
    ok(unsafe { fftxEstimate1d(n as i32, complex_type(Prec::Single), 1, &mut estimated) }, "estimate");
    let mut before = 0;
    ok(unsafe { fftxGetSize1d(plan, n as i32, complex_type(Prec::Single), 1, &mut before) }, "get size 1d");
    let mut work = 0;
    ok(fftxSetAutoAllocation(plan, 0), "auto allocation off");
    ok(unsafe { fftxMakePlan1d(plan, n as i32, complex_type(Prec::Single), 1, &mut work) }, "make");
    let mut after = 0;
    ok(unsafe { fftxGetSize(plan, &mut after) }, "get size");
    assert!(work > 0, "a {n}-point transform needs scratch");
    assert_eq!((estimated, before, after), (work, work, work));

    let x = random_complex(n, 9);
    let mut input = Values::new(&interleave(&x), Prec::Single);
    let data = malloc(n * 8);
    copy(data, input.ptr(), n * 8, fftxMemcpyKind_t::FFTX_MEMCPY_HOST_TO_DEVICE);
    assert_eq!(unsafe { fftxExecC2C(plan, data.cast(), data.cast(), FFTX_FORWARD) }, FFTX_NO_WORKSPACE);
    let area = malloc(work);
    // Work areas at an offset no sub-buffer starts at: with room to start at the next one, and without (then
    // a staging buffer stands in).
    let roomy = malloc(work + 1024);
    let tight = malloc(work + 8);
    for (what, at) in [("the allocation", area), ("an offset with room", roomy), ("an offset without room", tight)] {
        let at = if at == area { at } else { unsafe { at.cast::<u8>().add(8) }.cast::<c_void>() };
        copy(data, input.ptr(), n * 8, fftxMemcpyKind_t::FFTX_MEMCPY_HOST_TO_DEVICE);
        ok(fftxSetWorkArea(plan, at), "set work area");
        ok(unsafe { fftxExecC2C(plan, data.cast(), data.cast(), FFTX_FORWARD) }, "exec with work area");
        let mut result = Values::zeros(2 * n, Prec::Single);
        copy(result.ptr(), data, n * 8, fftxMemcpyKind_t::FFTX_MEMCPY_DEVICE_TO_HOST);
        let error = nrmse(&result.complex(), &reference_fft(&x, &[n], Dir::Forward));
        assert!(error < tolerance(Prec::Single), "work area at {what}: error {error:e}");
    }
    // Host memory needs no work area from the caller.
    let mut output = Values::zeros(2 * n, Prec::Single);
    ok(unsafe { fftxExecC2C(plan, input.ptr().cast(), output.ptr().cast(), FFTX_FORWARD) }, "host exec");
    assert!(nrmse(&output.complex(), &reference_fft(&x, &[n], Dir::Forward)) < tolerance(Prec::Single));
    for p in [data, area, roomy, tight] {
        ok(fftxFree(p), "free");
    }
    ok(fftxDestroy(plan), "destroy");
}

#[test]
fn estimates_match_the_sizes_of_made_plans() {
    let many = |rank: i32, n: &mut [i32], batch: i32, work: &mut usize| unsafe {
        fftxEstimateMany(
            rank,
            n.as_mut_ptr(),
            ptr::null_mut(),
            1,
            1,
            ptr::null_mut(),
            1,
            1,
            complex_type(Prec::Double),
            batch,
            work,
        )
    };
    let mut estimates = [usize::MAX; 4];
    ok(unsafe { fftxEstimate2d(16, 24, fftxType_t::FFTX_R2C as fftxType, &mut estimates[0]) }, "estimate 2d");
    ok(unsafe { fftxEstimate3d(4, 8, 6, fftxType_t::FFTX_Z2D as fftxType, &mut estimates[1]) }, "estimate 3d");
    ok(many(2, &mut [10, 12], 3, &mut estimates[2]), "estimate many");
    let mut plan = 0;
    ok(unsafe { fftxCreate(&mut plan) }, "create");
    ok(unsafe { fftxGetSize2d(plan, 16, 24, fftxType_t::FFTX_R2C as fftxType, &mut estimates[3]) }, "size 2d");
    assert_eq!(estimates[0], estimates[3]);
    let mut sizes = [0usize; 3];
    ok(unsafe { fftxGetSize3d(plan, 4, 8, 6, fftxType_t::FFTX_Z2D as fftxType, &mut sizes[0]) }, "size 3d");
    let mut n = [10, 12];
    let status = unsafe {
        fftxGetSizeMany(
            plan,
            2,
            n.as_mut_ptr(),
            ptr::null_mut(),
            1,
            1,
            ptr::null_mut(),
            1,
            1,
            complex_type(Prec::Double),
            3,
            &mut sizes[1],
        )
    };
    ok(status, "size many");
    let mut n64 = [10i64, 12];
    let status = unsafe {
        fftxGetSizeMany64(
            plan,
            2,
            n64.as_mut_ptr(),
            ptr::null_mut(),
            1,
            1,
            ptr::null_mut(),
            1,
            1,
            complex_type(Prec::Double),
            3,
            &mut sizes[2],
        )
    };
    ok(status, "size many 64");
    assert_eq!([sizes[0], sizes[1], sizes[2]], [estimates[1], estimates[2], estimates[2]]);
    let mut made = usize::MAX;
    ok(unsafe { fftxMakePlan3d(plan, 4, 8, 6, fftxType_t::FFTX_Z2D as fftxType, &mut made) }, "make 3d");
    assert_eq!(made, estimates[1]);
    let mut version = 0;
    ok(unsafe { fftxGetVersion(&mut version) }, "version");
    assert_eq!(version, FFTX_VERSION);
    ok(fftxDestroy(plan), "destroy");
}

#[test]
fn streams_bind_plans_to_the_callers_queue() {
    // The caller's context and queue, made through the default stream's device rather than the tests' shared
    // context: PoCL 3 can crash, or find no device, when two threads first initialise it at once, and the
    // other tests here start the default stream (see tests/status.rs's start_opencl).
    let stream = default_stream().unwrap();
    let device = stream.queue.device().unwrap();
    let callers_context = Context::create(device).unwrap();
    let callers_queue = Queue::create(&callers_context, device, false).unwrap();
    let own_queue = callers_queue.raw();
    let n = 40;
    let x = random_complex(n, 4);
    let want = reference_fft(&x, &[n], Dir::Forward);
    let plan = plan_for(&[n], complex_type(Prec::Double), 1);
    ok(unsafe { fftxSetStream(plan, own_queue) }, "set stream");
    let mut input = Values::new(&interleave(&x), Prec::Double);
    let mut output = Values::zeros(2 * n, Prec::Double);
    ok(unsafe { fftxExecZ2Z(plan, input.ptr().cast(), output.ptr().cast(), FFTX_FORWARD) }, "host exec on stream");
    assert!(nrmse(&output.complex(), &want) < tolerance(Prec::Double));

    // Device memory lives in the default stream's context, which the caller's queue does not share.
    let data = malloc(n * 16);
    assert_ne!(context_of(&callers_queue).unwrap().raw(), stream.context.raw());
    assert_eq!(unsafe { fftxExecZ2Z(plan, data.cast(), data.cast(), FFTX_FORWARD) }, FFTX_INVALID_DEVICE);
    // That comes first, before the plan is baked for the queue: here also before the in-place check that
    // input stride 2 and output stride 1 would fail.
    let mut strided = 0;
    let (mut four, mut embed) = ([4i32], [4i32]);
    let status = unsafe {
        fftxPlanMany(
            &mut strided,
            1,
            four.as_mut_ptr(),
            embed.as_mut_ptr(),
            2,
            8,
            embed.as_mut_ptr(),
            1,
            4,
            complex_type(Prec::Single),
            1,
        )
    };
    ok(status, "strided plan");
    ok(unsafe { fftxSetStream(strided, own_queue) }, "set stream of the strided plan");
    assert_eq!(unsafe { fftxExecC2C(strided, data.cast(), data.cast(), FFTX_FORWARD) }, FFTX_INVALID_DEVICE);
    ok(fftxDestroy(strided), "destroy the strided plan");
    ok(unsafe { fftxSetStream(plan, ptr::null_mut()) }, "back to the default stream");
    copy(data, input.ptr(), n * 16, fftxMemcpyKind_t::FFTX_MEMCPY_HOST_TO_DEVICE);
    ok(unsafe { fftxExecZ2Z(plan, data.cast(), data.cast(), FFTX_FORWARD) }, "device exec");
    copy(output.ptr(), data, n * 16, fftxMemcpyKind_t::FFTX_MEMCPY_DEVICE_TO_HOST);
    assert!(nrmse(&output.complex(), &want) < tolerance(Prec::Double));

    // A queue the caller makes in the default stream's context runs plans on that memory.
    let mut raw_default = ptr::null_mut();
    ok(unsafe { fftxGetDefaultStream(&mut raw_default) }, "default stream");
    let default = unsafe { Queue::retained(raw_default) }.unwrap();
    let default_context = context_of(&default).unwrap();
    assert_eq!(default_context.raw(), default_stream().unwrap().context.raw());
    let sibling = Queue::create(&default_context, default.device().unwrap(), false).unwrap();
    ok(unsafe { fftxSetStream(plan, sibling.raw()) }, "a stream of the default context");
    copy(data, input.ptr(), n * 16, fftxMemcpyKind_t::FFTX_MEMCPY_HOST_TO_DEVICE);
    ok(unsafe { fftxExecZ2Z(plan, data.cast(), data.cast(), FFTX_FORWARD) }, "device exec on the caller's queue");
    // fftxMemcpy follows the default stream only.
    queue_finish(&sibling);
    output = Values::zeros(2 * n, Prec::Double);
    copy(output.ptr(), data, n * 16, fftxMemcpyKind_t::FFTX_MEMCPY_DEVICE_TO_HOST);
    assert!(nrmse(&output.complex(), &want) < tolerance(Prec::Double));

    ok(fftxFree(data), "free");
    ok(fftxDestroy(plan), "destroy");
}

/// An out-of-order queue in the default stream's context, made as an application would.
fn out_of_order_stream() -> Queue {
    let mut raw_default = ptr::null_mut();
    ok(unsafe { fftxGetDefaultStream(&mut raw_default) }, "default stream");
    let default = unsafe { Queue::retained(raw_default) }.unwrap();
    let mut err = 0;
    let raw = unsafe {
        #[allow(deprecated)]
        ocl::core::ffi::clCreateCommandQueue(
            context_of(&default).unwrap().raw(),
            default.device().unwrap(),
            ocl::core::ffi::CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
            &mut err,
        )
    };
    assert_eq!(err, 0, "an out-of-order queue");
    unsafe { Queue::from_created(raw) }
}

/// The caller's own copy of `bytes` bytes on `queue` after the events in `wait`, between device memory from
/// fftxMalloc and a buffer of the caller's (at offset 0), in either direction; returns its event.
fn callers_copy(
    queue: &Queue,
    device: *mut c_void,
    other: &Buffer,
    to_device: bool,
    bytes: usize,
    wait: &[RawEvent],
) -> Event {
    let region = fftx::runtime::devmem::region(device as usize, "device").expect("device memory");
    let (theirs, ours) = ((region.buffer.raw(), region.offset), (other.raw(), 0));
    let ((src, src_offset), (dst, dst_offset)) = if to_device { (ours, theirs) } else { (theirs, ours) };
    enqueue_copy(queue.raw(), src, dst, src_offset, dst_offset, bytes, wait).expect("the caller's copy")
}

fn event_status(event: &Event) -> i32 {
    let mut status = 0i32;
    let code = unsafe {
        ocl::ffi::clGetEventInfo(
            event.raw(),
            ocl::ffi::CL_EVENT_COMMAND_EXECUTION_STATUS,
            std::mem::size_of::<i32>(),
            (&mut status as *mut i32).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!(code, 0, "clGetEventInfo");
    status
}

#[test]
fn out_of_order_queues_serve_as_streams() {
    // The caller's upload waits on a gate it opens only after the transform and its own download are
    // enqueued with no events between them: only fftx's barriers keep the three in stream order. Offsets:
    // the allocation itself, and 8 or 24 bytes (staged through copies to and from the plan's buffers).
    let stream = out_of_order_stream();
    let context = context_of(&stream).unwrap();
    let (n, batch) = (96, 2);
    let bytes = n * batch * 8;
    let x = random_complex(n * batch, 21);
    let want = reference_batch(&x, &[n], batch, Dir::Forward);
    let plan = plan_for(&[n], complex_type(Prec::Single), batch);
    ok(unsafe { fftxSetStream(plan, stream.raw()) }, "an out-of-order queue as the stream");
    let values: Vec<f32> = interleave(&x).iter().map(|&v| v as f32).collect();
    let source = Buffer::with_data(&context, &values).unwrap();
    let sink = Buffer::create(&context, bytes).unwrap();
    for (in_offset, out_offset, in_place) in [(0, 0, false), (8, 24, false), (0, 0, true), (8, 8, true)] {
        let area = malloc(2 * bytes + 1024);
        let device_in = unsafe { area.cast::<u8>().add(in_offset) }.cast::<c_void>();
        let device_out =
            if in_place { device_in } else { unsafe { area.cast::<u8>().add(bytes + 512 + out_offset) }.cast() };
        let mut err = 0;
        let gate = unsafe { ocl::ffi::clCreateUserEvent(context.raw(), &mut err) };
        assert_eq!(err, 0, "clCreateUserEvent");
        let _uploaded = callers_copy(&stream, device_in, &source, true, bytes, &[gate]);
        ok(unsafe { fftxExecC2C(plan, device_in.cast(), device_out.cast(), FFTX_FORWARD) }, "exec on the stream");
        let downloaded = callers_copy(&stream, device_out, &sink, false, bytes, &[]);
        stream.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        let what = format!("offsets {in_offset}/{out_offset}, in place {in_place}");
        assert_ne!(event_status(&downloaded), ocl::ffi::CL_COMPLETE, "{what}: the copy ran before the gate opened");
        assert_eq!(unsafe { ocl::ffi::clSetUserEventStatus(gate, ocl::ffi::CL_COMPLETE) }, 0, "open the gate");
        downloaded.wait().unwrap();
        unsafe { ocl::ffi::clReleaseEvent(gate) };
        let mut result = vec![0f32; 2 * n * batch];
        read_buffer(stream.raw(), sink.raw(), 0, &mut result, &[]).unwrap();
        let error = nrmse(&Values::Single(result).complex(), &want);
        assert!(error < tolerance(Prec::Single), "{what}: error {error:e}");
        ok(fftxFree(area), "free");
    }
    ok(fftxDestroy(plan), "destroy");

    // Host memory: the transform returns with the result, read back only once the transform's kernels (two
    // passes here, some milliseconds) have run.
    let (n, batch) = (1 << 16, 4);
    let x = random_complex(n * batch, 22);
    let want = reference_batch(&x, &[n], batch, Dir::Forward);
    let plan = plan_for(&[n], complex_type(Prec::Single), batch);
    ok(unsafe { fftxSetStream(plan, stream.raw()) }, "an out-of-order queue as the stream");
    let mut input = Values::new(&interleave(&x), Prec::Single);
    let mut output = Values::zeros(2 * n * batch, Prec::Single);
    ok(unsafe { fftxExecC2C(plan, input.ptr().cast(), output.ptr().cast(), FFTX_FORWARD) }, "host exec");
    let error = nrmse(&output.complex(), &want);
    assert!(error < tolerance(Prec::Single), "host memory: error {error:e}");
    ok(fftxDestroy(plan), "destroy");
}

#[test]
fn bad_input_gets_cufft_statuses() {
    use fftxMemcpyKind_t::*;
    let c2c = complex_type(Prec::Single);
    let mut plan = 0;
    let mut work = 0;
    let mut host = [fftxComplex::default(); 16];
    let h = host.as_mut_ptr();
    let cases: Vec<(&str, fftxResult, fftxResult)> = unsafe {
        vec![
            ("create into null", fftxCreate(ptr::null_mut()), FFTX_INVALID_VALUE),
            ("default stream into null", fftxGetDefaultStream(ptr::null_mut()), FFTX_INVALID_VALUE),
            ("plan into null", fftxPlan1d(ptr::null_mut(), 16, c2c, 1), FFTX_INVALID_VALUE),
            ("size zero", fftxPlan1d(&mut plan, 0, c2c, 1), FFTX_INVALID_SIZE),
            ("negative size", fftxPlan2d(&mut plan, 4, -4, c2c), FFTX_INVALID_SIZE),
            ("batch zero", fftxPlan1d(&mut plan, 16, c2c, 0), FFTX_INVALID_SIZE),
            ("unknown type", fftxPlan1d(&mut plan, 16, 0x33, 1), FFTX_INVALID_TYPE),
            (
                "rank 4",
                fftxPlanMany(
                    &mut plan,
                    4,
                    [2, 2, 2, 2].as_mut_ptr(),
                    ptr::null_mut(),
                    1,
                    1,
                    ptr::null_mut(),
                    1,
                    1,
                    c2c,
                    1,
                ),
                FFTX_INVALID_SIZE,
            ),
            (
                "null sizes",
                fftxPlanMany(&mut plan, 1, ptr::null_mut(), ptr::null_mut(), 1, 1, ptr::null_mut(), 1, 1, c2c, 1),
                FFTX_INVALID_VALUE,
            ),
            (
                "zero stride",
                fftxPlanMany(
                    &mut plan,
                    1,
                    [16].as_mut_ptr(),
                    [16].as_mut_ptr(),
                    0,
                    16,
                    [16].as_mut_ptr(),
                    1,
                    16,
                    c2c,
                    2,
                ),
                FFTX_INVALID_VALUE,
            ),
            (
                "embed too small",
                fftxPlanMany(
                    &mut plan,
                    2,
                    [4, 8].as_mut_ptr(),
                    [4, 6].as_mut_ptr(),
                    1,
                    64,
                    [4, 8].as_mut_ptr(),
                    1,
                    64,
                    c2c,
                    2,
                ),
                FFTX_INVALID_VALUE,
            ),
            ("overflowing sizes", fftxPlan3d(&mut plan, i32::MAX, i32::MAX, i32::MAX, c2c), FFTX_INVALID_SIZE),
            ("estimate into null", fftxEstimate1d(16, c2c, 1, ptr::null_mut()), FFTX_INVALID_VALUE),
            ("unknown handle", fftxExecC2C(987_654, h, h, FFTX_FORWARD), FFTX_INVALID_PLAN),
            ("destroy unknown", fftxDestroy(-5), FFTX_INVALID_PLAN),
            ("size of unknown", fftxGetSize(987_654, &mut work), FFTX_INVALID_PLAN),
            ("stream of unknown", fftxSetStream(987_654, ptr::null_mut()), FFTX_INVALID_PLAN),
            ("version into null", fftxGetVersion(ptr::null_mut()), FFTX_INVALID_VALUE),
            ("malloc into null", fftxMalloc(ptr::null_mut(), 16), FFTX_INVALID_VALUE),
            ("malloc zero", fftxMalloc(&mut ptr::null_mut(), 0), FFTX_INVALID_VALUE),
            ("free host memory", fftxFree(h.cast()), FFTX_INVALID_VALUE),
            ("free null", fftxFree(ptr::null_mut()), FFTX_SUCCESS),
            (
                "copy host to host",
                fftxMemcpy(h.cast(), h.cast(), 8, FFTX_MEMCPY_HOST_TO_DEVICE as i32),
                FFTX_INVALID_VALUE,
            ),
            ("copy of unknown kind", fftxMemcpy(h.cast(), h.cast(), 8, 0), FFTX_INVALID_VALUE),
            ("work area in host memory", fftxSetWorkArea(1, h.cast()), FFTX_INVALID_VALUE),
        ]
    };
    for (what, got, want) in cases {
        assert_eq!(got, want, "{what}");
    }

    let plan = plan_for(&[16], c2c, 1);
    let device = malloc(256);
    let cases: Vec<(&str, fftxResult, fftxResult)> = unsafe {
        vec![
            ("make twice", fftxMakePlan1d(plan, 16, c2c, 1, &mut work), FFTX_INVALID_PLAN),
            ("bad direction", fftxExecC2C(plan, h, h, 0), FFTX_INVALID_VALUE),
            ("null input", fftxExecC2C(plan, ptr::null_mut(), h, FFTX_FORWARD), FFTX_INVALID_VALUE),
            ("exec of another type", fftxExecZ2Z(plan, h.cast(), h.cast(), FFTX_FORWARD), FFTX_INVALID_TYPE),
            ("real exec on a complex plan", fftxExecR2C(plan, h.cast(), h), FFTX_INVALID_TYPE),
            ("overlapping host buffers", fftxExecC2C(plan, h, h.add(1), FFTX_FORWARD), FFTX_INVALID_VALUE),
            ("device and host mixed", fftxExecC2C(plan, device.cast(), h, FFTX_FORWARD), FFTX_INVALID_VALUE),
            (
                "device memory too small",
                fftxExecC2C(
                    plan,
                    device.cast::<u8>().add(200).cast(),
                    device.cast::<u8>().add(200).cast(),
                    FFTX_FORWARD,
                ),
                FFTX_INVALID_VALUE,
            ),
            (
                "copy past an allocation",
                fftxMemcpy(device, h.cast(), 257, FFTX_MEMCPY_HOST_TO_DEVICE as i32),
                FFTX_INVALID_VALUE,
            ),
            ("free inside an allocation", fftxFree(device.cast::<u8>().add(8).cast()), FFTX_INVALID_VALUE),
        ]
    };
    for (what, got, want) in cases {
        assert_eq!(got, want, "{what}");
    }
    let mut unmade = 0;
    ok(unsafe { fftxCreate(&mut unmade) }, "create");
    assert_eq!(unsafe { fftxExecC2C(unmade, h, h, FFTX_FORWARD) }, FFTX_INVALID_PLAN, "exec before make");
    assert_eq!(unsafe { fftxGetSize(unmade, &mut work) }, FFTX_INVALID_PLAN, "size before make");
    ok(fftxFree(device), "free");
    assert_eq!(fftxFree(device), FFTX_INVALID_VALUE, "double free");
    for handle in [plan, unmade] {
        ok(fftxDestroy(handle), "destroy");
        assert_eq!(fftxDestroy(handle), FFTX_INVALID_PLAN, "double destroy");
        assert_eq!(unsafe { fftxExecC2C(handle, h, h, FFTX_FORWARD) }, FFTX_INVALID_PLAN, "exec after destroy");
    }
}

/// Runs the out-of-core path directly with a device budget that forces many slabs; checks the result where
/// the run succeeds, and returns the run's status.
fn streamed(
    n: &[usize],
    batch: usize,
    precision: Precision,
    direction: Direction,
    scale: f64,
    in_place: bool,
    budget: DeviceBudget,
) -> fftx::Result<()> {
    let stream = default_stream().unwrap();
    let second = Queue::create(&stream.context, stream.queue.device().unwrap(), false).unwrap();
    let size: usize = n.iter().product();
    let x = random_complex(size * batch, size as u64);
    let prec = if precision == Precision::Single { Prec::Single } else { Prec::Double };
    let mut input = Values::new(&interleave(&x), prec);
    let mut output = Values::zeros(2 * size * batch, prec);
    let data = host_data(&mut input, &mut output, in_place);
    let job = Streamed { n: n.to_vec(), batch, kind: TransformKind::C2C, precision, direction, scale, data };
    outofcore::run(&stream.context, &[stream.queue.clone(), second], budget, job)?;
    let dir = if direction == Direction::Forward { Dir::Forward } else { Dir::Backward };
    let want: Vec<Complex64> = reference_batch(&x, n, batch, dir).iter().map(|v| v * scale).collect();
    let got = if in_place { input.complex() } else { output.complex() };
    let error = nrmse(&got, &want);
    assert!(
        error < tolerance(prec),
        "n = {n:?} x {batch} {precision:?} {direction:?} in place {in_place}: error {error:e}"
    );
    if !in_place {
        assert_eq!(input.complex(), Values::new(&interleave(&x), prec).complex(), "the input is kept");
    }
    Ok(())
}

#[test]
fn out_of_core_streams_in_many_slabs() {
    let small = |columns: usize| DeviceBudget { max_buffer: columns * 16 * 8, total: 6 * columns * 16 * 8 };
    // 4096 = 64 x 64: four columns (or rows) a slab, 16 slabs a pass.
    streamed(&[4096], 2, Precision::Single, Direction::Forward, 1.0, false, small(4 * 64 / 16)).unwrap();
    // 1680 = 40 x 42 (factors 2, 3, 5, 7), double, backward, scaled, in place.
    streamed(&[1680], 1, Precision::Double, Direction::Backward, 1.0 / 1680.0, true, small(8 * 42 / 16)).unwrap();
    // 486 = 18 x 27: slabs that do not divide the budget evenly.
    streamed(&[486], 3, Precision::Single, Direction::Backward, 1.0, true, small(5 * 27 / 16)).unwrap();
    // Planes, then columns: a 2D and a 3D transform, a few planes or columns a slab.
    streamed(&[48, 40], 2, Precision::Single, Direction::Forward, 1.0, false, small(3 * 40 / 16)).unwrap();
    streamed(&[12, 10, 14], 1, Precision::Double, Direction::Backward, 1.0 / 1680.0, true, small(2 * 140 / 8)).unwrap();
    // Planes larger than the device: each streams on its own, as a 2D transform or a 1D four-step.
    let bytes = |max_buffer: usize| DeviceBudget { max_buffer, total: 6 * max_buffer };
    streamed(&[12, 10, 14], 2, Precision::Double, Direction::Forward, 1.0, false, bytes(1600)).unwrap();
    streamed(&[6, 4096], 1, Precision::Single, Direction::Backward, 1.0 / 24576.0, true, bytes(8192)).unwrap();
}

/// Host memory as the out-of-core path takes it.
fn host_data<'a>(input: &'a mut Values, output: &'a mut Values, in_place: bool) -> HostData<'a> {
    let (in_bytes, out_bytes) = (input.bytes(), output.bytes());
    let (in_ptr, out_ptr) = (input.ptr().cast::<u8>(), output.ptr().cast::<u8>());
    unsafe {
        if in_place {
            HostData::InPlace(std::slice::from_raw_parts_mut(in_ptr, in_bytes))
        } else {
            HostData::Separate(
                std::slice::from_raw_parts(in_ptr, in_bytes),
                std::slice::from_raw_parts_mut(out_ptr, out_bytes),
            )
        }
    }
}

/// Streams an R2C of sizes `n` through the out-of-core path within `budget`, then the C2R of the reference
/// spectrum, scaled by 1/N; both checked against rustfft. In 1D the spectrum's redundant imaginary parts (of
/// the value 0, and of n / 2 where n is even) are made nonzero, which a C2R ignores. In place, the real rows are padded to 2 (n_last / 2 + 1) values, as
/// cuFFT lays them out.
fn streamed_real(n: &[usize], batch: usize, prec: Prec, in_place: bool, budget: DeviceBudget) -> fftx::Result<()> {
    let stream = default_stream().unwrap();
    let queues = [stream.queue.clone(), Queue::create(&stream.context, stream.queue.device().unwrap(), false).unwrap()];
    let precision = if prec == Prec::Single { Precision::Single } else { Precision::Double };
    let (size, last) = (n.iter().product::<usize>(), n[n.len() - 1]);
    // Rows along the last axis, all transforms together.
    let lines = size / last * batch;
    let h = last / 2 + 1;
    let row = if in_place { 2 * h } else { last };
    let x: Vec<f64> = random_complex(size * batch, size as u64 + 1).iter().map(|c| c.re).collect();
    let signal: Vec<Complex64> = x.iter().map(|&v| Complex64::new(v, 0.0)).collect();
    let full = reference_batch(&signal, n, batch, Dir::Forward);
    let spectra: Vec<Complex64> = (0..lines).flat_map(|l| full[l * last..l * last + h].to_vec()).collect();
    let rows = |values: &[f64], width: usize, pitch: usize| -> Vec<f64> {
        (0..lines).flat_map(|l| values[l * pitch..l * pitch + width].to_vec()).collect()
    };
    let padded = |values: &[f64], width: usize| -> Vec<f64> {
        (0..lines * row).map(|i| if i % row < width { values[i / row * width + i % row] } else { 0.0 }).collect()
    };
    let what = |kind| format!("{kind} n = {n:?} x {batch} {prec:?} in place {in_place}");

    let mut input = Values::new(&padded(&x, last), prec);
    let mut output = Values::zeros(2 * h * lines, prec);
    let data = host_data(&mut input, &mut output, in_place);
    let (kind, direction) = (TransformKind::R2C, Direction::Forward);
    let forward = Streamed { n: n.to_vec(), batch, kind, precision, direction, scale: 1.0, data };
    outofcore::run(&stream.context, &queues, budget, forward)?;
    let got = if in_place { input.complex() } else { output.complex() };
    let error = nrmse(&got, &spectra);
    assert!(error < tolerance(prec), "{}: error {error:e}", what("R2C"));
    if !in_place {
        assert_eq!(input.reals(), Values::new(&x, prec).reals(), "{}: the input is kept", what("R2C"));
    }

    let mut hermitian = spectra.clone();
    if n.len() == 1 {
        for b in 0..batch {
            hermitian[b * h].im = 0.5;
            if last % 2 == 0 {
                hermitian[b * h + h - 1].im = -0.25;
            }
        }
    }
    let mut input = Values::new(&interleave(&hermitian), prec);
    let mut output = Values::zeros(lines * row, prec);
    let data = host_data(&mut input, &mut output, in_place);
    let (kind, direction, scale) = (TransformKind::C2R, Direction::Backward, 1.0 / size as f64);
    let backward = Streamed { n: n.to_vec(), batch, kind, precision, direction, scale, data };
    outofcore::run(&stream.context, &queues, budget, backward)?;
    let got = if in_place { input.reals() } else { output.reals() };
    let as_complex = |v: Vec<f64>| -> Vec<Complex64> { v.into_iter().map(|r| Complex64::new(r, 0.0)).collect() };
    let error = nrmse(&as_complex(rows(&got, last, row)), &as_complex(x.clone()));
    assert!(error < tolerance(prec), "{}: error {error:e}", what("C2R"));
    Ok(())
}

#[test]
fn real_transforms_stream_out_of_core() {
    let small = |values: usize| DeviceBudget { max_buffer: values * 16, total: 6 * values * 16 };
    // Halves of 2048 = 32 x 64 and 486 = 18 x 27, many slabs and mirror runs a pass, in and out of place.
    streamed_real(&[4096], 2, Prec::Single, false, small(4 * 64 / 2)).unwrap();
    streamed_real(&[4096], 3, Prec::Double, true, small(4 * 64)).unwrap();
    streamed_real(&[972], 1, Prec::Single, true, small(5 * 27 / 2)).unwrap();
    // An odd half, 675 = 25 x 27: no value pairs with itself; runs that do not divide the 337 pairs.
    streamed_real(&[1350], 2, Prec::Double, false, small(7 * 27)).unwrap();
    // Odd lengths, as complex transforms of 945 = 27 x 35 and 675 = 25 x 27 values, in and out of place.
    streamed_real(&[945], 2, Prec::Single, false, small(4 * 35 / 2)).unwrap();
    streamed_real(&[675], 3, Prec::Double, true, small(6 * 27)).unwrap();
    // Planes, then columns (C2R: columns, then planes), even and odd real axes, in and out of place.
    streamed_real(&[40, 48], 2, Prec::Single, false, small(2 * 48)).unwrap();
    streamed_real(&[30, 25], 1, Prec::Double, true, small(30 * 2)).unwrap();
    streamed_real(&[6, 10, 16], 2, Prec::Single, true, small(2 * 160)).unwrap();
    streamed_real(&[8, 6, 15], 1, Prec::Double, false, small(6 * 8 * 6)).unwrap();
    // Planes larger than the device, each streamed on its own: as 2D transforms (C2R's in the host scratch
    // of the column pass, or in place), and as 1D ones of even and odd length.
    let bytes = |max_buffer: usize| DeviceBudget { max_buffer, total: 6 * max_buffer };
    streamed_real(&[6, 10, 16], 2, Prec::Single, false, bytes(512)).unwrap();
    streamed_real(&[8, 6, 15], 1, Prec::Double, true, bytes(512)).unwrap();
    streamed_real(&[4, 4096], 1, Prec::Single, false, bytes(4096)).unwrap();
    streamed_real(&[3, 945], 2, Prec::Double, true, bytes(4096)).unwrap();
}

/// Random shapes, kinds, precisions and budgets: a shape streams (its result checked) exactly where
/// `outofcore::streams` says it does; elsewhere the run fails with a status.
#[test]
fn out_of_core_streams_what_it_says_it_streams() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as usize % below
    };
    const LENGTHS: [usize; 12] = [4, 6, 8, 9, 10, 12, 13, 15, 16, 25, 27, 64];
    let (mut ran, mut refused) = (0, 0);
    for case in 0..24 {
        let rank = 1 + next(3);
        let n: Vec<usize> = (0..rank).map(|_| LENGTHS[next(LENGTHS.len())] * if rank == 1 { 16 } else { 1 }).collect();
        let kind = [TransformKind::C2C, TransformKind::R2C][next(2)];
        let prec = [Prec::Single, Prec::Double][next(2)];
        let precision = if prec == Prec::Single { Precision::Single } else { Precision::Double };
        let (batch, in_place) = (1 + next(2), next(2) == 1);
        let max_buffer = 64 << next(9);
        let budget = DeviceBudget { max_buffer, total: [4, 6, 16][next(3)] * max_buffer };
        let promised = outofcore::streams(&n, kind, precision, budget);
        let what = format!("case {case}: {kind:?} {n:?} x {batch} {prec:?} in place {in_place}, {budget:?}");
        let result = match kind {
            TransformKind::C2C => streamed(&n, batch, precision, Direction::Forward, 1.0, in_place, budget),
            _ => streamed_real(&n, batch, prec, in_place, budget),
        };
        match result {
            Ok(()) => assert!(promised, "{what}: streamed where streams() said it would not"),
            Err(e) => {
                assert!(!promised, "{what}: streams() said it would stream, but: {e}");
                let expected = [fftx::ErrorKind::OutOfResources, fftx::ErrorKind::NotImplemented];
                assert!(expected.contains(&e.kind), "{what}: {e}");
            }
        }
        if promised {
            ran += 1;
        } else {
            refused += 1;
        }
    }
    println!("out-of-core: {ran} random shapes streamed, {refused} refused");
    assert!(ran >= 8 && refused >= 4, "{ran} streamed, {refused} refused: too few of either");
}

#[test]
fn out_of_core_reports_what_cannot_stream() {
    let stream = default_stream().unwrap();
    let second = Queue::create(&stream.context, stream.queue.device().unwrap(), false).unwrap();
    let mut data = vec![0u8; 13 * 8];
    let job = |data| Streamed {
        n: vec![13],
        batch: 1,
        kind: TransformKind::C2C,
        precision: Precision::Single,
        direction: Direction::Forward,
        scale: 1.0,
        data,
    };
    let budget = DeviceBudget { max_buffer: 1 << 20, total: 1 << 22 };
    let queues = [stream.queue.clone(), second];
    let prime = outofcore::run(&stream.context, &queues, budget, job(HostData::InPlace(&mut data)));
    assert_eq!(prime.unwrap_err().kind, fftx::ErrorKind::NotImplemented);
    let mut data = vec![0u8; 4096 * 8];
    let tiny = DeviceBudget { max_buffer: 256, total: 1024 };
    let line = Streamed { n: vec![4096], ..job(HostData::InPlace(&mut data)) };
    assert_eq!(outofcore::run(&stream.context, &queues, tiny, line).unwrap_err().kind, fftx::ErrorKind::OutOfResources);
    // A column of 64 values (512 bytes) does not fit a 256-byte buffer.
    let mut data = vec![0u8; 4096 * 8];
    let plane = Streamed { n: vec![64, 64], ..job(HostData::InPlace(&mut data)) };
    assert_eq!(
        outofcore::run(&stream.context, &queues, tiny, plane).unwrap_err().kind,
        fftx::ErrorKind::OutOfResources
    );
    // A real transform of odd prime length runs as a complex transform of that length, and of even length as
    // one of half that length: prime too for 26.
    for n in [13, 26] {
        let mut data = vec![0u8; (n / 2 + 1) * 8];
        let real = Streamed {
            n: vec![n],
            batch: 1,
            kind: TransformKind::R2C,
            precision: Precision::Single,
            direction: Direction::Forward,
            scale: 1.0,
            data: HostData::InPlace(&mut data),
        };
        assert_eq!(
            outofcore::run(&stream.context, &queues, budget, real).unwrap_err().kind,
            fftx::ErrorKind::NotImplemented,
            "real length {n}"
        );
    }
}

/// `fftxSetTuning` sets a plan's planner overrides between `fftxCreate` and the make; the plan transforms
/// correctly with them. An item fftx does not know is refused, and so is a tuning after the make.
#[test]
fn a_plans_tuning_is_set_before_the_make() {
    let n = 1024;
    let mut plan = 0;
    ok(unsafe { fftxCreate(&mut plan) }, "create");
    for bad in [c"colour=blue", c"chunk=-1"] {
        assert_eq!(unsafe { fftxSetTuning(plan, bad.as_ptr()) }, FFTX_INVALID_VALUE, "{bad:?}");
        let message = unsafe { std::ffi::CStr::from_ptr(fftxGetLastErrorMessage()) }.to_string_lossy().into_owned();
        assert!(message.contains(bad.to_str().unwrap()), "{message}");
    }
    ok(unsafe { fftxSetTuning(plan, c"profile=gpu;max_leaf=16".as_ptr()) }, "tuning");
    let mut work = 0;
    ok(unsafe { fftxMakePlan1d(plan, n as i32, fftxType_t::FFTX_Z2Z as fftxType, 2, &mut work) }, "make");
    assert_eq!(unsafe { fftxSetTuning(plan, c"".as_ptr()) }, FFTX_INVALID_PLAN, "after the make");
    let x = random_complex(2 * n, 11);
    let mut data: Vec<fftxDoubleComplex> = x.iter().map(|c| fftxDoubleComplex { x: c.re, y: c.im }).collect();
    ok(unsafe { fftxExecZ2Z(plan, data.as_mut_ptr(), data.as_mut_ptr(), FFTX_FORWARD) }, "exec");
    let got: Vec<Complex64> = data.iter().map(|c| Complex64::new(c.x, c.y)).collect();
    let want: Vec<Complex64> = x.chunks(n).flat_map(|t| reference_fft(t, &[n], Dir::Forward)).collect();
    let rmse = nrmse(&got, &want);
    assert!(rmse <= tolerance(Prec::Double), "rmse {rmse:.3e}");
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
}
