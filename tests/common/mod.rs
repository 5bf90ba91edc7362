//! Shared test harness: one OpenCL context, transforms driven through the clFFT C API exactly as a C
//! program would, and a double-precision reference (rustfft in f64, applied along each axis; lengths with a
//! prime factor above 1024 through an exactly reduced Bluestein over rustfft's powers of two).
#![allow(dead_code)]

use fftx::api::clfft::*;
use num_complex::Complex64;
use ocl::{flags, Buffer, Context, Device, Platform, Queue};
use once_cell::sync::Lazy;
use rustfft::FftPlanner;
use std::ptr;
use std::sync::Mutex;

pub struct Env {
    pub context: Context,
    pub queue: Queue,
    pub device: Device,
}

/// Sets what every test binary wants in its environment before `main` starts a thread: `set_var` while
/// another thread reads the environment from C (PoCL calls getenv as it builds programs) can crash glibc's
/// getenv, as a run of `fftx_api` did when one test set these while the others baked. Compiled kernels are
/// cached under `target/` so repeated runs skip compilation, a compiler warning in a kernel fails the
/// test that builds it, and so does a builtin `kernels/builtins.cl` does not declare.
#[used]
#[link_section = ".init_array"]
static SET_TEST_ENV: extern "C" fn() = set_test_env;

extern "C" fn set_test_env() {
    if std::env::var_os("FFTX_CACHE_DIR").is_none() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target").join("fftx-test-cache");
        std::env::set_var("FFTX_CACHE_DIR", dir);
    }
    let options = std::env::var("FFTX_BUILD_OPTIONS").unwrap_or_default();
    std::env::set_var("FFTX_BUILD_OPTIONS", format!("-Werror {options}").trim_end());
    if std::env::var_os("FFTX_OWN_BUILTINS").is_none() {
        std::env::set_var("FFTX_OWN_BUILTINS", "strict");
    }
}

/// The shared context.
pub static ENV: Lazy<Env> = Lazy::new(|| {
    let platform = Platform::default();
    let device = Device::first(platform).expect("an OpenCL device (install pocl-opencl-icd)");
    let context = Context::builder().platform(platform).devices(device).build().expect("context");
    let queue = Queue::new(&context, device, None).expect("queue");
    Env { context, queue, device }
});

pub fn context_ptr() -> ocl::ffi::cl_context {
    ENV.context.as_core().as_ptr()
}

pub fn queue_ptr() -> ocl::ffi::cl_command_queue {
    ENV.queue.as_core().as_ptr()
}

/// Serialises tests that must observe global state (teardown, cache statistics).
pub static GLOBAL: Mutex<()> = Mutex::new(());

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prec {
    Single,
    Double,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Forward,
    Backward,
}

/// One complex-to-complex transform to run and check.
#[derive(Debug, Clone)]
pub struct Case {
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub precision: Prec,
    pub in_planar: bool,
    pub out_planar: bool,
    pub in_place: bool,
    pub in_strides: Option<Vec<usize>>,
    pub out_strides: Option<Vec<usize>>,
    pub in_dist: Option<usize>,
    pub out_dist: Option<usize>,
    pub direction: Dir,
    pub transposed: bool,
    /// The plan's own no-allocation mode (`fftxSetPlanNoMemAlloc`); when on, the run also checks that the
    /// plan reports no scratch.
    pub no_mem_alloc: Option<bool>,
    /// The plan's tuning (`fftxClfftSetPlanTuning`); `None` keeps `FFTX_TUNE`'s.
    pub tuning: Option<&'static str>,
}

impl Case {
    pub fn new(lengths: &[usize]) -> Case {
        Case {
            lengths: lengths.to_vec(),
            batch: 1,
            precision: Prec::Single,
            in_planar: false,
            out_planar: false,
            in_place: false,
            in_strides: None,
            out_strides: None,
            in_dist: None,
            out_dist: None,
            direction: Dir::Forward,
            transposed: false,
            no_mem_alloc: None,
            tuning: None,
        }
    }
    pub fn batch(mut self, b: usize) -> Self {
        self.batch = b;
        self
    }
    pub fn double(mut self) -> Self {
        self.precision = Prec::Double;
        self
    }
    pub fn precision(mut self, p: Prec) -> Self {
        self.precision = p;
        self
    }
    pub fn backward(mut self) -> Self {
        self.direction = Dir::Backward;
        self
    }
    pub fn in_place(mut self) -> Self {
        self.in_place = true;
        self
    }
    pub fn planar(mut self, input: bool, output: bool) -> Self {
        self.in_planar = input;
        self.out_planar = output;
        self
    }
    pub fn strides(mut self, input: &[usize], output: &[usize]) -> Self {
        self.in_strides = Some(input.to_vec());
        self.out_strides = Some(output.to_vec());
        self
    }
    pub fn dists(mut self, input: usize, output: usize) -> Self {
        self.in_dist = Some(input);
        self.out_dist = Some(output);
        self
    }
    pub fn transposed(mut self) -> Self {
        self.transposed = true;
        self
    }
    pub fn tuning(mut self, spec: &'static str) -> Self {
        self.tuning = Some(spec);
        self
    }
    pub fn no_mem_alloc(mut self, on: bool) -> Self {
        self.no_mem_alloc = Some(on);
        self
    }

    fn packed(&self) -> Vec<usize> {
        let mut s = Vec::new();
        let mut p = 1;
        for &l in &self.lengths {
            s.push(p);
            p *= l;
        }
        s
    }

    fn layout(&self) -> (Vec<usize>, usize, Vec<usize>, usize) {
        let total: usize = self.lengths.iter().product();
        let is = self.in_strides.clone().unwrap_or_else(|| self.packed());
        let mut default_out = self.packed();
        if self.transposed && !self.in_place {
            // The transposed result of a 2D plan is a lengths[1] x lengths[0] array.
            default_out = vec![1, self.lengths[1]];
        }
        let os = self.out_strides.clone().unwrap_or(default_out);
        (is, self.in_dist.unwrap_or(total), os, self.out_dist.unwrap_or(total))
    }

    /// Runs the transform through the C API and returns the normalized RMSE against the f64 reference.
    pub fn run(&self) -> f64 {
        let (rmse, _) = self.run_with_input(None);
        rmse
    }

    /// Runs the case; `input` overrides the random input. Returns (rmse, output as read back).
    pub fn run_with_input(&self, input: Option<&[Complex64]>) -> (f64, Vec<Complex64>) {
        let (is, idist, os, odist) = self.layout();
        let extent = |strides: &[usize], dist: usize| {
            self.lengths.iter().zip(strides).map(|(l, s)| (l - 1) * s).sum::<usize>() + (self.batch - 1) * dist + 1
        };
        let mut out_positions = os.clone();
        if self.transposed {
            out_positions.swap(0, 1);
            if self.in_place {
                // In place (packed data only), the result is the packed transpose, as clFFT leaves it.
                out_positions = vec![self.lengths[1], 1];
            }
        }
        let in_len = extent(&is, idist);
        let out_len = if self.in_place { in_len } else { extent(&out_positions, odist) };
        let host: Vec<Complex64> = match input {
            Some(v) => v.to_vec(),
            None => random_complex(in_len, 42 + self.lengths.iter().sum::<usize>() as u64),
        };
        assert_eq!(host.len(), in_len);

        let input_bufs = DeviceData::upload(&host, self.precision, self.in_planar);
        let output_bufs = if self.in_place {
            None
        } else {
            Some(DeviceData::upload(
                &vec![Complex64::new(f64::NAN, f64::NAN); out_len],
                self.precision,
                self.out_planar,
            ))
        };

        let mut plan: clfftPlanHandle = 0;
        unsafe {
            let dim = self.lengths.len() as i32;
            check(clfftCreateDefaultPlan(&mut plan, context_ptr(), dim, self.lengths.as_ptr()), "create");
            set_tuning(plan, self.tuning);
            check(clfftSetPlanPrecision(plan, if self.precision == Prec::Double { 2 } else { 1 }), "precision");
            check(
                clfftSetLayout(plan, if self.in_planar { 2 } else { 1 }, if self.out_planar { 2 } else { 1 }),
                "layout",
            );
            check(clfftSetResultLocation(plan, if self.in_place { 1 } else { 2 }), "placeness");
            check(clfftSetPlanBatchSize(plan, self.batch), "batch");
            let mut is_mut = is.clone();
            let mut os_mut = os.clone();
            check(clfftSetPlanInStride(plan, dim, is_mut.as_mut_ptr()), "instride");
            check(clfftSetPlanOutStride(plan, dim, os_mut.as_mut_ptr()), "outstride");
            check(clfftSetPlanDistance(plan, idist, odist), "dist");
            if self.transposed {
                check(clfftSetPlanTransposeResult(plan, 2), "transposed");
            }
            if let Some(on) = self.no_mem_alloc {
                check(fftx::api::transpose::fftxSetPlanNoMemAlloc(plan, on as i32), "no-allocation mode");
            }
            let mut q = queue_ptr();
            check(clfftBakePlan(plan, 1, &mut q, None, ptr::null_mut()), "bake");
            if self.no_mem_alloc == Some(true) {
                let mut tmp = usize::MAX;
                check(clfftGetTmpBufSize(plan, &mut tmp), "tmp size");
                assert_eq!(tmp, 0, "scratch reported in the no-allocation mode");
            }
            let dir = if self.direction == Dir::Forward { -1 } else { 1 };
            run_and_destroy(plan, dir, &input_bufs, output_bufs.as_ref());
        }
        let result = output_bufs.as_ref().unwrap_or(&input_bufs).download();

        let out_lengths = self.lengths.clone();
        let total: usize = self.lengths.iter().product();
        let mut err = 0.0;
        let mut norm = 0.0;
        for b in 0..self.batch {
            let x = gather(&host, &self.lengths, &is, b * idist);
            let mut reference = reference_fft(&x, &self.lengths, self.direction);
            if self.direction == Dir::Backward {
                reference.iter_mut().for_each(|v| *v /= total as f64);
            }
            let got = gather(&result, &out_lengths, &out_positions, b * odist);
            for (g, r) in got.iter().zip(&reference) {
                err += (g - r).norm_sqr();
                norm += r.norm_sqr();
            }
        }
        ((err / norm.max(f64::MIN_POSITIVE)).sqrt(), result)
    }
}

/// Enqueues `plan` (baking it if needed) on the shared queue, waits for it and destroys it.
pub fn run_and_destroy(mut plan: clfftPlanHandle, dir: i32, input: &DeviceData, output: Option<&DeviceData>) {
    enqueue_and_wait(plan, dir, input.mems(), output.map(|o| o.mems()));
    check(unsafe { clfftDestroyPlan(&mut plan) }, "destroy");
}

/// Enqueues `plan` on the shared queue from the planes `ins` into `outs` (none in place) and waits for it.
pub fn enqueue_and_wait(
    plan: clfftPlanHandle,
    dir: i32,
    mut ins: [ocl::ffi::cl_mem; 2],
    outs: Option<[ocl::ffi::cl_mem; 2]>,
) {
    let mut q = queue_ptr();
    let mut outs = outs.unwrap_or([ptr::null_mut(); 2]);
    let mut event = ptr::null_mut();
    unsafe {
        check(
            clfftEnqueueTransform(
                plan,
                dir,
                1,
                &mut q,
                0,
                ptr::null(),
                &mut event,
                ins.as_mut_ptr(),
                outs.as_mut_ptr(),
                ptr::null_mut(),
            ),
            "enqueue",
        );
        ocl::core::wait_for_event(&ocl::core::Event::from_raw_create_ptr(event)).expect("wait");
    }
}

/// Sets `plan`'s tuning where the case names one.
pub fn set_tuning(plan: clfftPlanHandle, tuning: Option<&str>) {
    if let Some(spec) = tuning {
        let spec = std::ffi::CString::new(spec).expect("a tuning spec without NUL");
        check(unsafe { fftxClfftSetPlanTuning(plan, spec.as_ptr()) }, "tuning");
    }
}

pub fn check(status: i32, what: &str) {
    assert_eq!(status, CLFFT_SUCCESS, "{what} returned {status}");
}

/// Device copies of complex data: one interleaved buffer or two planar ones, in either precision.
pub enum DeviceData {
    F32(Vec<Buffer<f32>>, bool),
    F64(Vec<Buffer<f64>>, bool),
}

impl DeviceData {
    pub fn upload(data: &[Complex64], precision: Prec, planar: bool) -> DeviceData {
        fn make<T: ocl::OclPrm>(data: Vec<T>) -> Buffer<T> {
            Buffer::builder()
                .queue(ENV.queue.clone())
                .flags(flags::MEM_READ_WRITE)
                .len(data.len().max(1))
                .copy_host_slice(&data)
                .build()
                .expect("buffer")
        }
        let planes = |conv: &dyn Fn(f64) -> f64| -> Vec<Vec<f64>> {
            if planar {
                vec![data.iter().map(|c| conv(c.re)).collect(), data.iter().map(|c| conv(c.im)).collect()]
            } else {
                vec![data.iter().flat_map(|c| [conv(c.re), conv(c.im)]).collect()]
            }
        };
        match precision {
            Prec::Single => DeviceData::F32(
                planes(&|v| v).into_iter().map(|p| make(p.into_iter().map(|v| v as f32).collect())).collect(),
                planar,
            ),
            Prec::Double => DeviceData::F64(planes(&|v| v).into_iter().map(make).collect(), planar),
        }
    }

    pub fn mems(&self) -> [ocl::ffi::cl_mem; 2] {
        let ptrs: Vec<_> = match self {
            DeviceData::F32(b, _) => b.iter().map(|b| b.as_core().as_ptr()).collect(),
            DeviceData::F64(b, _) => b.iter().map(|b| b.as_core().as_ptr()).collect(),
        };
        [ptrs[0], *ptrs.get(1).unwrap_or(&ptrs[0])]
    }

    pub fn download(&self) -> Vec<Complex64> {
        let (planes, planar): (Vec<Vec<f64>>, bool) = match self {
            DeviceData::F32(b, p) => (b.iter().map(read_plane).collect(), *p),
            DeviceData::F64(b, p) => (b.iter().map(read_plane).collect(), *p),
        };
        if planar {
            planes[0].iter().zip(&planes[1]).map(|(&re, &im)| Complex64::new(re, im)).collect()
        } else {
            planes[0].chunks_exact(2).map(|c| Complex64::new(c[0], c[1])).collect()
        }
    }
}

/// Deterministic pseudo-random complex values in [-1, 1).
pub fn random_complex(n: usize, seed: u64) -> Vec<Complex64> {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    (0..n).map(|_| Complex64::new(next(), next())).collect()
}

/// The positions of the elements of a multi-dimensional array at `offset` with `strides`, in packed order.
pub fn positions<'a>(lengths: &'a [usize], strides: &'a [usize], offset: usize) -> impl Iterator<Item = usize> + 'a {
    let total: usize = lengths.iter().product();
    (0..total).map(move |mut i| {
        let mut pos = offset;
        for (l, s) in lengths.iter().zip(strides) {
            pos += (i % l) * s;
            i /= l;
        }
        pos
    })
}

/// The packed multi-dimensional array at `offset` with `strides`.
pub fn gather<T: Copy>(data: &[T], lengths: &[usize], strides: &[usize], offset: usize) -> Vec<T> {
    positions(lengths, strides, offset).map(|pos| data[pos]).collect()
}

/// Normalized RMSE of `got` against `want`.
pub fn nrmse(got: &[Complex64], want: &[Complex64]) -> f64 {
    assert_eq!(got.len(), want.len());
    let err: f64 = got.iter().zip(want).map(|(a, b)| (a - b).norm_sqr()).sum();
    let norm: f64 = want.iter().map(|b| b.norm_sqr()).sum();
    (err / norm.max(f64::MIN_POSITIVE)).sqrt()
}

/// Unnormalised multi-dimensional DFT of a packed array (fastest axis first), in f64.
pub fn reference_fft(x: &[Complex64], lengths: &[usize], dir: Dir) -> Vec<Complex64> {
    let mut data = x.to_vec();
    let mut planner = FftPlanner::<f64>::new();
    let mut stride = 1;
    for &n in lengths {
        let bluestein = (largest_prime_factor(n) > BLUESTEIN_REFERENCE_ABOVE)
            .then(|| ReferenceBluestein::new(n, dir, &mut planner));
        let fft = bluestein.is_none().then(|| match dir {
            Dir::Forward => planner.plan_fft_forward(n),
            Dir::Backward => planner.plan_fft_inverse(n),
        });
        let transform = |line: &mut [Complex64]| match (&bluestein, &fft) {
            (Some(bluestein), _) => bluestein.process(line),
            (None, Some(fft)) => fft.process(line),
            (None, None) => unreachable!("one of the two is planned"),
        };
        let outer = data.len() / (n * stride);
        let mut line = vec![Complex64::new(0.0, 0.0); n];
        for o in 0..outer {
            for s in 0..stride {
                let base = o * n * stride + s;
                for (k, v) in line.iter_mut().enumerate() {
                    *v = data[base + k * stride];
                }
                transform(&mut line);
                for (k, v) in line.iter().enumerate() {
                    data[base + k * stride] = *v;
                }
            }
        }
        stride *= n;
    }
    data
}

/// rustfft reaches primes above this through Rader and Bluestein nested in each other, with unreduced chirps:
/// at 4099 and 999983 its own error in f64 is 1.1e-15 and 1.8e-15. Below it rustfft is the better reference
/// (exact butterflies to 31, Rader over smooth lengths), as the Bluestein reference errs by up to 7e-16.
const BLUESTEIN_REFERENCE_ABOVE: usize = 1024;

/// The unnormalised 1D DFT of `x` by the exactly reduced Bluestein the reference uses for long primes.
pub fn bluestein_reference(x: &[Complex64], dir: Dir) -> Vec<Complex64> {
    let mut line = x.to_vec();
    ReferenceBluestein::new(x.len(), dir, &mut FftPlanner::new()).process(&mut line);
    line
}

fn largest_prime_factor(mut n: usize) -> usize {
    let mut largest = 1;
    let mut p = 2;
    while p * p <= n {
        while n % p == 0 {
            largest = p;
            n /= p;
        }
        p += 1;
    }
    largest.max(n)
}

/// Bluestein's DFT with the chirp's argument reduced in integers (j^2 mod 2n) and power-of-two
/// convolutions: the reference for lengths whose rustfft plan nests Rader and Bluestein with unreduced
/// chirps, which at n = 999983 errs by 1.8e-15 itself (FFTW in long double measures fftx at 7e-16 there).
struct ReferenceBluestein {
    chirp: Vec<Complex64>,
    kernel_spectrum: Vec<Complex64>,
    forward: std::sync::Arc<dyn rustfft::Fft<f64>>,
    inverse: std::sync::Arc<dyn rustfft::Fft<f64>>,
}

impl ReferenceBluestein {
    fn new(n: usize, dir: Dir, planner: &mut FftPlanner<f64>) -> Self {
        let m = (2 * n - 1).next_power_of_two();
        let sign = if dir == Dir::Forward { -1.0 } else { 1.0 };
        let chirp: Vec<Complex64> = (0..n as u128)
            .map(|j| {
                let reduced = (j * j % (2 * n as u128)) as f64;
                Complex64::from_polar(1.0, sign * std::f64::consts::PI * reduced / n as f64)
            })
            .collect();
        let mut kernel = vec![Complex64::new(0.0, 0.0); m];
        for (j, c) in chirp.iter().enumerate() {
            kernel[j] = c.conj();
            kernel[(m - j) % m] = c.conj();
        }
        let forward = planner.plan_fft_forward(m);
        forward.process(&mut kernel);
        ReferenceBluestein { chirp, kernel_spectrum: kernel, forward, inverse: planner.plan_fft_inverse(m) }
    }

    fn process(&self, line: &mut [Complex64]) {
        let m = self.kernel_spectrum.len();
        let mut work = vec![Complex64::new(0.0, 0.0); m];
        for ((w, x), c) in work.iter_mut().zip(line.iter()).zip(&self.chirp) {
            *w = x * c;
        }
        self.forward.process(&mut work);
        for (w, k) in work.iter_mut().zip(&self.kernel_spectrum) {
            *w *= k / m as f64;
        }
        self.inverse.process(&mut work);
        for ((y, w), c) in line.iter_mut().zip(&work).zip(&self.chirp) {
            *y = w * c;
        }
    }
}

/// The accuracy asked of Bluestein (lengths with a prime factor above 13): 5e-7 single, 2e-15 double.
pub fn bluestein_tolerance(p: Prec) -> f64 {
    match p {
        Prec::Single => 5e-7,
        Prec::Double => 2e-15,
    }
}

/// Tolerance on the normalized RMSE for a precision.
pub fn tolerance(p: Prec) -> f64 {
    match p {
        Prec::Single => 3e-7,
        Prec::Double => 1e-15,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RealDir {
    R2C,
    C2R,
}

/// One real transform to run and check. The real side uses real units for strides and distances, the
/// Hermitian side complex units, as clFFT does.
#[derive(Debug, Clone)]
pub struct RealCase {
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub precision: Prec,
    pub dir: RealDir,
    pub hermitian_planar: bool,
    pub in_place: bool,
    /// Imaginary parts added to the C2R input where Hermitian symmetry makes them redundant (1D only).
    pub perturb_redundant: bool,
    /// Every stride and distance of an out-of-place case times this (gaps between the elements).
    pub spread: usize,
    /// Out of place: (real strides, real distance, Hermitian strides, Hermitian distance) instead of packed.
    pub custom_layout: Option<(Vec<usize>, usize, Vec<usize>, usize)>,
    /// The plan's tuning (`fftxClfftSetPlanTuning`); `None` keeps `FFTX_TUNE`'s.
    pub tuning: Option<&'static str>,
}

impl RealCase {
    pub fn new(lengths: &[usize], dir: RealDir) -> RealCase {
        RealCase {
            lengths: lengths.to_vec(),
            batch: 1,
            precision: Prec::Single,
            dir,
            hermitian_planar: false,
            in_place: false,
            perturb_redundant: false,
            spread: 1,
            tuning: None,
            custom_layout: None,
        }
    }
    pub fn batch(mut self, b: usize) -> Self {
        self.batch = b;
        self
    }
    pub fn precision(mut self, p: Prec) -> Self {
        self.precision = p;
        self
    }
    pub fn planar(mut self) -> Self {
        self.hermitian_planar = true;
        self
    }
    pub fn in_place(mut self) -> Self {
        self.in_place = true;
        self
    }
    pub fn perturbed(mut self) -> Self {
        self.perturb_redundant = true;
        self
    }
    pub fn tuning(mut self, spec: &'static str) -> Self {
        self.tuning = Some(spec);
        self
    }
    pub fn spread(mut self, factor: usize) -> Self {
        self.spread = factor;
        self
    }
    /// Out-of-place strides and distances: reals on the real side, complex values on the Hermitian side.
    pub fn layout_of(
        mut self,
        real_strides: &[usize],
        real_dist: usize,
        herm_strides: &[usize],
        herm_dist: usize,
    ) -> Self {
        self.custom_layout = Some((real_strides.to_vec(), real_dist, herm_strides.to_vec(), herm_dist));
        self
    }

    fn herm_lengths(&self) -> Vec<usize> {
        let mut h = self.lengths.clone();
        h[0] = h[0] / 2 + 1;
        h
    }

    /// (real strides, real distance, Hermitian strides, Hermitian distance): packed (times `spread`), or
    /// padded rows of 2 (n/2 + 1) reals in place.
    fn layout(&self) -> (Vec<usize>, usize, Vec<usize>, usize) {
        if let Some(custom) = &self.custom_layout {
            assert!(!self.in_place, "custom layouts are out of place");
            return custom.clone();
        }
        let herm = self.herm_lengths();
        let packed = |l: &[usize]| (fftx::planner::packed_strides(l), l.iter().product::<usize>());
        let (hs, hd) = packed(&herm);
        if self.in_place {
            let rs: Vec<usize> = hs.iter().enumerate().map(|(i, &s)| if i == 0 { 1 } else { 2 * s }).collect();
            (rs, 2 * hd, hs, hd)
        } else {
            let (rs, rd) = packed(&self.lengths);
            let spread = |s: Vec<usize>| s.into_iter().map(|x| x * self.spread).collect();
            (spread(rs), rd * self.spread, spread(hs), hd * self.spread)
        }
    }

    /// Runs the case and returns the normalized RMSE against the f64 reference.
    pub fn run(&self) -> f64 {
        let (rs, rd, hs, hd) = self.layout();
        let herm = self.herm_lengths();
        let n_real: usize = self.lengths.iter().product();
        let dim = self.lengths.len() as i32;
        let real_len = rd * self.batch;
        let herm_len = hd * self.batch;
        // Real data x and its Hermitian half X (f64 reference).
        let x: Vec<f64> = random_complex(real_len, 5 + n_real as u64).iter().map(|c| c.re).collect();
        let mut spectrum = vec![Complex64::new(0.0, 0.0); herm_len];
        let mut reals = vec![0.0; real_len];
        for b in 0..self.batch {
            let packed: Vec<Complex64> =
                gather(&x, &self.lengths, &rs, b * rd).into_iter().map(|v| Complex64::new(v, 0.0)).collect();
            let full = reference_fft(&packed, &self.lengths, Dir::Forward);
            for (i, v) in full.iter().enumerate() {
                let k0 = i % self.lengths[0];
                if k0 < herm[0] {
                    let mut rest = i / self.lengths[0];
                    let mut pos = b * hd + k0 * hs[0];
                    for (l, s) in self.lengths[1..].iter().zip(&hs[1..]) {
                        pos += (rest % l) * s;
                        rest /= l;
                    }
                    spectrum[pos] = *v;
                }
            }
            for (i, v) in packed.iter().enumerate() {
                let mut rest = i;
                let mut pos = b * rd;
                for (l, s) in self.lengths.iter().zip(&rs) {
                    pos += (rest % l) * s;
                    rest /= l;
                }
                reals[pos] = v.re;
            }
        }
        let mut c2r_input = spectrum.clone();
        if self.perturb_redundant && self.dir == RealDir::C2R {
            for b in 0..self.batch {
                c2r_input[b * hd].im += 0.75;
                if self.lengths[0] % 2 == 0 {
                    c2r_input[b * hd + (herm[0] - 1) * hs[0]].im -= 0.5;
                }
            }
        }
        let real_data: Vec<Complex64> = reals.iter().map(|&r| Complex64::new(r, 0.0)).collect();
        let (input_host, in_real) = match self.dir {
            RealDir::R2C => (real_data.clone(), true),
            RealDir::C2R => (c2r_input, false),
        };
        let upload = |data: &[Complex64], real: bool, len: usize| {
            let mut padded = data.to_vec();
            padded.resize(len, Complex64::new(0.0, 0.0));
            if real {
                DeviceData::upload_real(&padded, self.precision)
            } else {
                DeviceData::upload(&padded, self.precision, self.hermitian_planar)
            }
        };
        // In place, one buffer holds max(real, complex) storage.
        let storage = real_len.max(2 * herm_len);
        let input_bufs = if self.in_place {
            if in_real {
                upload(&input_host, true, storage)
            } else {
                let mut as_reals = vec![Complex64::new(0.0, 0.0); storage];
                for (i, v) in input_host.iter().enumerate() {
                    as_reals[2 * i] = Complex64::new(v.re, 0.0);
                    as_reals[2 * i + 1] = Complex64::new(v.im, 0.0);
                }
                DeviceData::upload_real(&as_reals, self.precision)
            }
        } else {
            upload(&input_host, in_real, input_host.len())
        };
        let output_bufs = (!self.in_place).then(|| match self.dir {
            RealDir::R2C => DeviceData::upload(
                &vec![Complex64::new(f64::NAN, 0.0); herm_len],
                self.precision,
                self.hermitian_planar,
            ),
            RealDir::C2R => DeviceData::upload_real(&vec![Complex64::new(f64::NAN, 0.0); real_len], self.precision),
        });

        let herm_layout = if self.hermitian_planar { 4 } else { 3 };
        let (in_layout, out_layout, mut is, mut os, idist, odist) = match self.dir {
            RealDir::R2C => (5, herm_layout, rs.clone(), hs.clone(), rd, hd),
            RealDir::C2R => (herm_layout, 5, hs.clone(), rs.clone(), hd, rd),
        };
        let mut plan: clfftPlanHandle = 0;
        unsafe {
            check(clfftCreateDefaultPlan(&mut plan, context_ptr(), dim, self.lengths.as_ptr()), "create");
            set_tuning(plan, self.tuning);
            check(clfftSetPlanPrecision(plan, if self.precision == Prec::Double { 2 } else { 1 }), "precision");
            check(clfftSetLayout(plan, in_layout, out_layout), "layout");
            check(clfftSetResultLocation(plan, if self.in_place { 1 } else { 2 }), "placeness");
            check(clfftSetPlanBatchSize(plan, self.batch), "batch");
            check(clfftSetPlanInStride(plan, dim, is.as_mut_ptr()), "instride");
            check(clfftSetPlanOutStride(plan, dim, os.as_mut_ptr()), "outstride");
            check(clfftSetPlanDistance(plan, idist, odist), "dist");
            // The direction argument is ignored for real transforms, as in clFFT.
            run_and_destroy(plan, 1, &input_bufs, output_bufs.as_ref());
        }
        let result = output_bufs.as_ref().unwrap_or(&input_bufs);
        let (mut err, mut norm) = (0.0, 0.0);
        match self.dir {
            RealDir::R2C => {
                let got: Vec<Complex64> = if self.in_place {
                    result.download_real().chunks_exact(2).map(|c| Complex64::new(c[0], c[1])).collect()
                } else {
                    result.download()
                };
                let mut written = vec![false; got.len()];
                for b in 0..self.batch {
                    let g = gather(&got, &herm, &hs, b * hd);
                    let r = gather(&spectrum, &herm, &hs, b * hd);
                    for (a, c) in g.iter().zip(&r) {
                        err += (a - c).norm_sqr();
                        norm += c.norm_sqr();
                    }
                    positions(&herm, &hs, b * hd).for_each(|pos| written[pos] = true);
                }
                // Out of place, the gaps between the outputs keep the NaN they were filled with.
                if !self.in_place {
                    let stray = got.iter().zip(&written).position(|(v, &w)| !w && !v.re.is_nan());
                    assert!(stray.is_none(), "wrote position {stray:?} outside the outputs of {self:?}");
                }
            }
            RealDir::C2R => {
                let got = result.download_real();
                for b in 0..self.batch {
                    let g = gather(&got, &self.lengths, &rs, b * rd);
                    let r = gather(&reals, &self.lengths, &rs, b * rd);
                    for (a, c) in g.iter().zip(&r) {
                        err += (a - c) * (a - c);
                        norm += c * c;
                    }
                }
            }
        }
        (err / norm.max(f64::MIN_POSITIVE)).sqrt()
    }
}

impl DeviceData {
    /// A buffer of reals (the real parts of `data`).
    pub fn upload_real(data: &[Complex64], precision: Prec) -> DeviceData {
        let reals: Vec<Complex64> = data.to_vec();
        match Self::upload(&reals, precision, true) {
            DeviceData::F32(mut b, _) => {
                b.truncate(1);
                DeviceData::F32(b, true)
            }
            DeviceData::F64(mut b, _) => {
                b.truncate(1);
                DeviceData::F64(b, true)
            }
        }
    }

    /// The first plane as reals.
    pub fn download_real(&self) -> Vec<f64> {
        match self {
            DeviceData::F32(b, _) => read_plane(&b[0]),
            DeviceData::F64(b, _) => read_plane(&b[0]),
        }
    }
}

/// A whole device buffer, widened to f64.
fn read_plane<T: ocl::OclPrm + Into<f64>>(b: &Buffer<T>) -> Vec<f64> {
    let mut v = vec![T::default(); b.len()];
    b.read(&mut v).enq().expect("read");
    v.into_iter().map(Into::into).collect()
}

/// Host storage of one side of a transform: one or two planes of scalars (interleaved complex values, reals,
/// or the two planes of planar data).
#[derive(Clone)]
pub struct HostPlanes(pub Vec<Vec<f64>>);

impl HostPlanes {
    pub fn complex(&self, planar: bool, at: usize) -> Complex64 {
        if planar {
            Complex64::new(self.0[0][at], self.0[1][at])
        } else {
            Complex64::new(self.0[0][2 * at], self.0[0][2 * at + 1])
        }
    }

    pub fn set_complex(&mut self, planar: bool, at: usize, v: Complex64) {
        if planar {
            self.0[0][at] = v.re;
            self.0[1][at] = v.im;
        } else {
            self.0[0][2 * at] = v.re;
            self.0[0][2 * at + 1] = v.im;
        }
    }
}

/// Device copies of host planes in a plan's precision.
pub struct DevicePlanes {
    mems: Vec<ocl::core::Mem>,
    lengths: Vec<usize>,
    double: bool,
}

impl DevicePlanes {
    pub fn upload(planes: &HostPlanes, double: bool) -> DevicePlanes {
        let queue = ENV.queue.as_core();
        let buffers = planes
            .0
            .iter()
            .map(|p| unsafe {
                let mem = if double {
                    ocl::core::create_buffer(
                        ENV.context.as_core(),
                        flags::MEM_READ_WRITE | flags::MEM_COPY_HOST_PTR,
                        p.len(),
                        Some(p),
                    )
                } else {
                    let single: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                    ocl::core::create_buffer(
                        ENV.context.as_core(),
                        flags::MEM_READ_WRITE | flags::MEM_COPY_HOST_PTR,
                        single.len(),
                        Some(&single),
                    )
                };
                mem.expect("create a buffer")
            })
            .collect();
        ocl::core::finish(queue).expect("finish");
        DevicePlanes { mems: buffers, lengths: planes.0.iter().map(Vec::len).collect(), double }
    }

    /// What the device holds now, as uploaded.
    pub fn download(&self) -> HostPlanes {
        let (queue, double) = (ENV.queue.as_core(), self.double);
        HostPlanes(
            self.mems
                .iter()
                .zip(&self.lengths)
                .map(|(mem, &n)| {
                    if double {
                        read_back::<f64>(queue, mem, n)
                    } else {
                        read_back::<f32>(queue, mem, n).into_iter().map(f64::from).collect()
                    }
                })
                .collect(),
        )
    }

    pub fn mems(&self) -> [ocl::ffi::cl_mem; 2] {
        let first = self.mems[0].as_ptr();
        [first, self.mems.get(1).map_or(first, |m| m.as_ptr())]
    }
}

/// `n` values of `T` from the start of `mem`, read blocking.
fn read_back<T: ocl::OclPrm>(queue: &ocl::core::CommandQueue, mem: &ocl::core::Mem, n: usize) -> Vec<T> {
    let mut values = vec![T::default(); n];
    unsafe {
        ocl::core::enqueue_read_buffer(
            queue,
            mem,
            true,
            0,
            &mut values,
            None::<ocl::core::Event>,
            None::<&mut ocl::core::Event>,
        )
    }
    .expect("read");
    values
}
