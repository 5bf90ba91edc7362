//! 10,000 create/bake/destroy cycles through each C API leave the resident set where it was (growth under
//! 10 MB): nothing a plan holds outlives it, the scratch of plans that ran included. A test binary of its own,
//! so no other test moves the figure.

mod common;

use common::{check, context_ptr, queue_ptr, ENV};
use fftx::api::clfft::*;
use fftx::api::fftx::fftxResult_t::*;
use fftx::api::fftx::*;
use fftx::api::transpose::fftxTransposeInPlace;
use std::ptr;
use std::time::Instant;

const CYCLES: usize = 10_000;
const LIMIT_BYTES: i64 = 10 << 20;
/// Each test measures with the other one idle.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A size in /proc/self/status (`VmRSS:`, `VmHWM:`), in bytes.
fn status_bytes(field: &str) -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: i64 = status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect(field);
    kib * 1024
}

/// The resident set of this process.
fn resident_bytes() -> i64 {
    status_bytes("VmRSS:")
}

/// Runs `cycle(i)` `warm` times (caches and allocator pools fill), then `cycles` times, and returns the
/// growth of the resident set over the measured cycles.
fn growth(what: &str, warm: usize, cycles: usize, cycle: impl Fn(usize)) -> i64 {
    (0..warm).for_each(&cycle);
    let before = resident_bytes();
    let started = Instant::now();
    (0..cycles).for_each(&cycle);
    let grown = resident_bytes() - before;
    println!(
        "{what}: {cycles} create/bake/destroy cycles in {:.1} s, resident set {:.1} MB -> {:.1} MB ({:+.2} MB)",
        started.elapsed().as_secs_f64(),
        before as f64 / 1e6,
        (before + grown) as f64 / 1e6,
        grown as f64 / 1e6
    );
    grown
}

#[test]
fn create_bake_destroy_cycles_keep_the_resident_set_flat() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    once_cell::sync::Lazy::force(&ENV);
    // One-kernel, two-pass and multi-dimensional plans, in turn.
    let shapes: [&[usize]; 3] = [&[64], &[8192], &[12, 10]];
    let clfft = growth("clFFT API", 200, CYCLES, |i| {
        let lengths = shapes[i % shapes.len()];
        let mut plan = 0;
        let mut queue = queue_ptr();
        unsafe {
            check(
                clfftCreateDefaultPlan(&mut plan, context_ptr(), lengths.len() as clfftDim, lengths.as_ptr()),
                "create",
            );
            check(clfftBakePlan(plan, 1, &mut queue, None, ptr::null_mut()), "bake");
            check(clfftDestroyPlan(&mut plan), "destroy");
        }
    });
    let fftx = growth("cuFFT-style API", 200, CYCLES, |i| {
        let n = [64, 8192, 120][i % 3];
        let mut plan = 0;
        assert_eq!(unsafe { fftxPlan1d(&mut plan, n, fftxType_t::FFTX_C2C as fftxType, 1) }, FFTX_SUCCESS);
        assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
    });
    assert!(clfft < LIMIT_BYTES, "the clFFT API grew the resident set by {clfft} bytes");
    assert!(fftx < LIMIT_BYTES, "the cuFFT-style API grew the resident set by {fftx} bytes");
}

#[test]
fn plans_that_ran_give_back_their_scratch() {
    // 2^20 points take 8 MiB of scratch, which a plan allocates when it first runs, and 8 MiB for each of the
    // input and output it stages host data in: 160 cycles that each leaked them would grow the resident set
    // by 4 GB. On a CPU they are host pages that go back to the system once the plan's last command has
    // completed, not when the runtime gets round to destroying the buffers (PoCL 3.1 did so only later: two
    // of them were still held now and then, +16.9 MB, before fftx gave their pages back itself). The output
    // vector is made once: the C allocator keeps freed 8 MiB blocks resident for reuse.
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    once_cell::sync::Lazy::force(&ENV);
    let n = 1 << 20;
    let input = vec![fftxComplex { x: 1.0, y: 0.0 }; n];
    let output = std::cell::RefCell::new(vec![fftxComplex::default(); n]);
    let grown = growth("cuFFT-style API, run once", 40, 160, |_| {
        let mut output = output.borrow_mut();
        let mut plan = 0;
        assert_eq!(unsafe { fftxPlan1d(&mut plan, n as i32, fftxType_t::FFTX_C2C as fftxType, 1) }, FFTX_SUCCESS);
        let status = unsafe { fftxExecC2C(plan, input.as_ptr() as *mut _, output.as_mut_ptr(), FFTX_FORWARD) };
        assert_eq!(status, FFTX_SUCCESS);
        assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
        // All ones: the whole spectrum is the DC value n.
        assert_eq!((output[0].x, output[0].y, output[1].x, output[n - 1].y), (n as f32, 0.0, 0.0, 0.0));
    });
    assert!(grown < LIMIT_BYTES, "plans that ran grew the resident set by {grown} bytes");
}

#[test]
fn a_context_per_job_leaves_the_resident_set_flat() {
    // An application that makes a context for each job, plans, transforms, transposes and releases it all:
    // the programs and transposes fftx caches per context must not keep each released context alive (about
    // 1 MB a context if they did). The allocator's arenas take about 200 cycles to reach their working set when
    // other processes load the machine (+5 to +8 MB over those cycles, flat after), so the warm-up is that long.
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    once_cell::sync::Lazy::force(&ENV);
    let n = 4096;
    let grown = growth("a context per job", 200, 400, |_| {
        let context = ocl::Context::builder().devices(ENV.device).build().expect("context");
        let queue = ocl::Queue::new(&context, ENV.device, None).expect("queue");
        let buffer =
            ocl::Buffer::<f32>::builder().queue(queue.clone()).len(2 * n).fill_val(1.0).build().expect("buffer");
        let (mut queue_raw, mut mem) = (queue.as_core().as_ptr(), buffer.as_core().as_ptr());
        let mut plan = 0;
        // 1D, in place, forward; single precision, interleaved (clFFT.h's values).
        let (one_d, in_place, forward, single, interleaved) = (1, 1, -1, 1, 1);
        unsafe {
            check(clfftCreateDefaultPlan(&mut plan, context.as_core().as_ptr(), one_d, [n].as_ptr()), "create");
            check(clfftSetResultLocation(plan, in_place), "in place");
            check(clfftBakePlan(plan, 1, &mut queue_raw, None, ptr::null_mut()), "bake");
            let status = clfftEnqueueTransform(
                plan,
                forward,
                1,
                &mut queue_raw,
                0,
                ptr::null(),
                ptr::null_mut(),
                &mut mem,
                ptr::null_mut(),
                ptr::null_mut(),
            );
            check(status, "run");
            let status = fftxTransposeInPlace(
                queue_raw,
                &mut mem,
                64,
                64,
                1,
                single,
                interleaved,
                0,
                ptr::null(),
                ptr::null_mut(),
            );
            check(status, "transpose");
            check(clfftDestroyPlan(&mut plan), "destroy");
        }
        queue.finish().expect("finish");
        // The spectrum of all ones (real and imaginary) is n + n i at 0, which the square transpose keeps there.
        let mut first = [0f32; 4];
        buffer.read(&mut first[..]).enq().expect("read");
        assert_eq!(first, [n as f32, n as f32, 0.0, 0.0]);
    });
    assert!(grown < LIMIT_BYTES, "a context per job grew the resident set by {grown} bytes");
}

/// The peak resident set of this process.
fn peak_bytes() -> i64 {
    status_bytes("VmHWM:")
}

/// What a host transform of `N` points may take beside its arrays: a tenth of the data, and 64 MiB of tables,
/// kernels and runtime.
const N: usize = 1 << 26;
fn footprint_bound(data: i64) -> i64 {
    data / 10 + (64 << 20)
}

/// Runs test `name` again in a child process of its own, whose peak resident set is the test's alone, after
/// `warm` has run here (the same transform): compiling kernels takes memory of its own, which a cold disk cache would add to the
/// child's peak.
fn in_a_child(name: &str, warm: impl FnOnce()) -> bool {
    if std::env::var("FFTX_FOOTPRINT_CHILD").is_ok() {
        return false;
    }
    // The warm-up's arrays and kernels would move the resident set the other tests here measure.
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    warm();
    fftx::runtime::cache::wait_for_writes();
    let exe = std::env::current_exe().expect("the test binary");
    let output = std::process::Command::new(exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("FFTX_FOOTPRINT_CHILD", "1")
        .output()
        .expect("the test binary runs");
    print!("{}", String::from_utf8_lossy(&output.stdout));
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{name} in a child process: {}", output.status);
    true
}

/// `N` values, each page written, so that the arrays are resident before the baseline: zeros from the
/// allocator would be pages not yet touched.
fn resident_zeros() -> Vec<fftxComplex> {
    let mut values = Vec::with_capacity(N);
    values.resize(N, fftxComplex { x: -0.0, y: -0.0 });
    values
}

/// Transforms a delta at 1 of `N` points on host memory, `input` into `output` (the same array in place),
/// and checks sampled bins against the analytic e^(-2 pi i k / N).
fn transform_a_delta(input: &mut [fftxComplex], output: Option<&mut [fftxComplex]>) {
    input.fill(fftxComplex::default());
    input[1] = fftxComplex { x: 1.0, y: 0.0 };
    let mut plan = 0;
    assert_eq!(unsafe { fftxPlan1d(&mut plan, N as i32, fftxType_t::FFTX_C2C as fftxType, 1) }, FFTX_SUCCESS);
    let target = match output {
        Some(output) => output.as_mut_ptr(),
        None => input.as_mut_ptr(),
    };
    assert_eq!(unsafe { fftxExecC2C(plan, input.as_mut_ptr(), target, FFTX_FORWARD) }, FFTX_SUCCESS);
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
    // SAFETY: `target` is one of the two arrays of N values, alive here, and no other reference is used now.
    let result = unsafe { std::slice::from_raw_parts(target, N) };
    for k in (0..N).step_by(N / 4096 + 7) {
        let angle = -2.0 * std::f64::consts::PI * k as f64 / N as f64;
        let (re, im) = (result[k].x as f64, result[k].y as f64);
        let error = (re - angle.cos()).hypot(im - angle.sin());
        assert!(error < 1e-5, "bin {k}: ({re}, {im}), error {error}");
    }
}

/// Prints and checks the growth of the peak resident set over `baseline` (taken with the arrays resident)
/// against the data's `bytes`.
fn check_footprint(what: &str, baseline: i64, bytes: i64) {
    let grown = peak_bytes() - baseline;
    println!(
        "{what}: the peak resident set grew by {:.1} MB beside {:.1} MB of data, bound {:.1} MB",
        grown as f64 / 1e6,
        bytes as f64 / 1e6,
        footprint_bound(bytes) as f64 / 1e6
    );
    assert!(grown <= footprint_bound(bytes), "{what} grew the peak resident set by {grown} bytes");
}

fn in_place() -> (i64, i64) {
    let mut data = resident_zeros();
    let baseline = peak_bytes();
    transform_a_delta(&mut data, None);
    (baseline, std::mem::size_of_val(&data[..]) as i64)
}

fn out_of_place() -> (i64, i64) {
    let (mut input, mut output) = (resident_zeros(), resident_zeros());
    let baseline = peak_bytes();
    transform_a_delta(&mut input, Some(&mut output));
    (baseline, std::mem::size_of_val(&input[..]) as i64)
}

#[test]
fn a_host_transform_in_place_takes_little_beside_its_data() {
    // 2^26 points (512 MiB) transformed in place on host memory: on a device whose memory is the host's, the
    // kernels work on the array where it lies, with a plan that needs no scratch.
    if !in_a_child("a_host_transform_in_place_takes_little_beside_its_data", || {
        in_place();
    }) {
        once_cell::sync::Lazy::force(&ENV);
        let (baseline, bytes) = in_place();
        check_footprint("2^26 single in place", baseline, bytes);
    }
}

#[test]
fn a_host_transform_out_of_place_takes_little_beside_its_two_arrays() {
    if !in_a_child("a_host_transform_out_of_place_takes_little_beside_its_two_arrays", || {
        out_of_place();
    }) {
        once_cell::sync::Lazy::force(&ENV);
        let (baseline, bytes) = out_of_place();
        check_footprint("2^26 single out of place", baseline, bytes);
    }
}
