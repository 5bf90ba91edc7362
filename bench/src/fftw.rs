//! FFTW 3 loaded with dlopen: the CPU baseline (all cores, FFTW_MEASURE, out-of-place) and, in double
//! precision, the reference every implementation is checked against.

use crate::cases::{Case, Kind, Precision};
use crate::dl::Library;
use crate::measure::{Failure, Measurement, Timing};
use std::ffi::{c_int, c_uint, c_void};
use std::time::Instant;

type Plan = *mut c_void;
const FFTW_FORWARD: c_int = -1;
const FFTW_MEASURE: c_uint = 0;
const FFTW_ESTIMATE: c_uint = 1 << 6;

type PlanManyDft = unsafe extern "C" fn(
    c_int,
    *const c_int,
    c_int,
    *mut c_void,
    *const c_int,
    c_int,
    c_int,
    *mut c_void,
    *const c_int,
    c_int,
    c_int,
    c_int,
    c_uint,
) -> Plan;
type PlanManyDftR2c = unsafe extern "C" fn(
    c_int,
    *const c_int,
    c_int,
    *mut c_void,
    *const c_int,
    c_int,
    c_int,
    *mut c_void,
    *const c_int,
    c_int,
    c_int,
    c_uint,
) -> Plan;

struct Api {
    plan_with_nthreads: unsafe extern "C" fn(c_int),
    plan_many_dft: PlanManyDft,
    plan_many_dft_r2c: PlanManyDftR2c,
    execute: unsafe extern "C" fn(Plan),
    destroy_plan: unsafe extern "C" fn(Plan),
    malloc: unsafe extern "C" fn(usize) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
}

pub struct Fftw {
    api: Api,
    precision: Precision,
    threads: usize,
}

impl Fftw {
    /// Opens libfftw3f (single) or libfftw3 (double) with its _threads companion and enables threads.
    pub fn load(precision: Precision, threads: usize) -> Result<Self, String> {
        let (base, prefix) = match precision {
            Precision::Single => ("libfftw3f", "fftwf"),
            Precision::Double => ("libfftw3", "fftw"),
        };
        let core = Library::open(&format!("{base}.so.3"))?;
        let threaded = Library::open(&format!("{base}_threads.so.3"))?;
        let name = |f: &str| format!("{prefix}_{f}");
        let api = unsafe {
            let init_threads: unsafe extern "C" fn() -> c_int = threaded.function(&name("init_threads"))?;
            if init_threads() == 0 {
                return Err(format!("{}() failed", name("init_threads")));
            }
            Api {
                plan_with_nthreads: threaded.function(&name("plan_with_nthreads"))?,
                plan_many_dft: core.function(&name("plan_many_dft"))?,
                plan_many_dft_r2c: core.function(&name("plan_many_dft_r2c"))?,
                execute: core.function(&name("execute"))?,
                destroy_plan: core.function(&name("destroy_plan"))?,
                malloc: core.function(&name("malloc"))?,
                free: core.function(&name("free"))?,
            }
        };
        Ok(Fftw { api, precision, threads })
    }

    fn array(&self, reals: usize) -> Result<Array<'_>, String> {
        let bytes = reals * self.precision.real_bytes();
        let ptr = unsafe { (self.api.malloc)(bytes) };
        if ptr.is_null() {
            return Err(format!("fftw_malloc of {} MiB failed", bytes >> 20));
        }
        Ok(Array { fftw: self, ptr, reals })
    }

    fn plan(&self, case: &Case, input: &Array, output: &Array, flags: c_uint) -> Result<Plan, Failure> {
        // FFTW's arrays are row-major: the fastest dimension comes last.
        let n: Vec<c_int> = case.lengths.iter().rev().map(|&l| l as c_int).collect();
        let rank = n.len() as c_int;
        let (_, input_distance) = case.input_layout();
        let (_, output_distance) = case.output_layout();
        unsafe { (self.api.plan_with_nthreads)(self.threads as c_int) };
        let plan = unsafe {
            match case.kind {
                Kind::C2c => (self.api.plan_many_dft)(
                    rank,
                    n.as_ptr(),
                    case.batch as c_int,
                    input.ptr,
                    std::ptr::null(),
                    1,
                    input_distance as c_int,
                    output.ptr,
                    std::ptr::null(),
                    1,
                    output_distance as c_int,
                    FFTW_FORWARD,
                    flags,
                ),
                Kind::R2c => (self.api.plan_many_dft_r2c)(
                    rank,
                    n.as_ptr(),
                    case.batch as c_int,
                    input.ptr,
                    std::ptr::null(),
                    1,
                    input_distance as c_int,
                    output.ptr,
                    std::ptr::null(),
                    1,
                    output_distance as c_int,
                    flags,
                ),
            }
        };
        if plan.is_null() {
            return Err(Failure::NotAvailable("FFTW returned no plan".into()));
        }
        Ok(plan)
    }

    /// Plans with FFTW_MEASURE (timed: the plan time), then times out-of-place executions.
    pub fn measure(&self, case: &Case, input: &[f64], timing: &Timing) -> Result<Measurement, Failure> {
        let source = self.array(case.input_reals()).map_err(Failure::Error)?;
        let destination = self.array(case.output_reals()).map_err(Failure::Error)?;
        let start = Instant::now();
        let plan = self.plan(case, &source, &destination, FFTW_MEASURE)?;
        let plan_ms = start.elapsed().as_secs_f64() * 1e3;
        // FFTW_MEASURE scribbles over the arrays while planning, so the input goes in afterwards.
        source.write(input);
        let mut times_ms = Vec::with_capacity(timing.runs);
        for run in 0..timing.warmups + timing.runs {
            let start = Instant::now();
            unsafe { (self.api.execute)(plan) };
            if run >= timing.warmups {
                times_ms.push(start.elapsed().as_secs_f64() * 1e3);
            }
        }
        unsafe { (self.api.destroy_plan)(plan) };
        Ok(Measurement { plan_ms: Some(plan_ms), times_ms, output: Some(destination.read()), ..Measurement::default() })
    }

    /// The transform of `input` with an FFTW_ESTIMATE plan: the reference, when this is the double library.
    pub fn transform(&self, case: &Case, input: &[f64]) -> Result<Vec<f64>, String> {
        let source = self.array(case.input_reals())?;
        let destination = self.array(case.output_reals())?;
        let plan = self.plan(case, &source, &destination, FFTW_ESTIMATE).map_err(|f| f.to_string())?;
        source.write(input);
        unsafe {
            (self.api.execute)(plan);
            (self.api.destroy_plan)(plan);
        }
        Ok(destination.read())
    }
}

/// An fftw_malloc'ed array of `reals` values of the library's precision.
struct Array<'a> {
    fftw: &'a Fftw,
    ptr: *mut c_void,
    reals: usize,
}

impl Array<'_> {
    fn write(&self, values: &[f64]) {
        let n = values.len().min(self.reals);
        match self.fftw.precision {
            Precision::Single => {
                let target = unsafe { std::slice::from_raw_parts_mut(self.ptr.cast::<f32>(), n) };
                for (t, &v) in target.iter_mut().zip(values) {
                    *t = v as f32;
                }
            }
            Precision::Double => {
                let target = unsafe { std::slice::from_raw_parts_mut(self.ptr.cast::<f64>(), n) };
                target.copy_from_slice(&values[..n]);
            }
        }
    }

    fn read(&self) -> Vec<f64> {
        match self.fftw.precision {
            Precision::Single => unsafe { std::slice::from_raw_parts(self.ptr.cast::<f32>(), self.reals) }
                .iter()
                .map(|&v| v as f64)
                .collect(),
            Precision::Double => unsafe { std::slice::from_raw_parts(self.ptr.cast::<f64>(), self.reals) }.to_vec(),
        }
    }
}

impl Drop for Array<'_> {
    fn drop(&mut self) {
        unsafe { (self.fftw.api.free)(self.ptr) };
    }
}
