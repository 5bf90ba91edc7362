//! FFTW 3 loaded with dlopen: the CPU baseline (all cores, FFTW_MEASURE, out-of-place; for `--host`, in place
//! with FFTW_ESTIMATE) and, in long double precision, the reference every implementation is checked against.
//! A reference in the precision it checks would grade FFTW double against itself: where both plans pick the
//! same algorithm its RMSE is ~1e-17 and every other library looks 30x worse than it is.

use crate::cases::{Case, Kind};
use crate::dl::Library;
use crate::measure::{Contestant, Failure, Planned};
use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
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
/// fftw_plan_many_dft_r2c and fftw_plan_many_dft_c2r share this signature.
type PlanManyRealDft = unsafe extern "C" fn(
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
    plan_many_dft_r2c: PlanManyRealDft,
    plan_many_dft_c2r: PlanManyRealDft,
    execute: unsafe extern "C" fn(Plan),
    destroy_plan: unsafe extern "C" fn(Plan),
    malloc: unsafe extern "C" fn(usize) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    import_wisdom_from_filename: unsafe extern "C" fn(*const c_char) -> c_int,
    export_wisdom_to_filename: unsafe extern "C" fn(*const c_char) -> c_int,
    forget_wisdom: unsafe extern "C" fn(),
}

/// The real type of one FFTW library.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Element {
    F32,
    F64,
    /// x86-64 `long double`: the x87 80-bit format stored in 16 bytes.
    LongDouble,
}

impl Element {
    fn bytes(self) -> usize {
        match self {
            Element::F32 => 4,
            Element::F64 => 8,
            Element::LongDouble => 16,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Element::F32 => "single",
            Element::F64 => "double",
            Element::LongDouble => "long double",
        }
    }

    /// The name FFTW gives this library's system wisdom under /etc/fftw.
    fn wisdom_file(self) -> &'static str {
        match self {
            Element::F32 => "wisdomf",
            Element::F64 => "wisdom",
            Element::LongDouble => "wisdoml",
        }
    }
}

pub struct Fftw {
    api: Api,
    element: Element,
    threads: usize,
    /// The file each new plan's wisdom is written back to (`keep_wisdom_in`).
    wisdom: Option<PathBuf>,
}

impl Fftw {
    /// Opens libfftw3f, libfftw3 or libfftw3l with its _threads companion and enables threads.
    pub fn load(element: Element, threads: usize) -> Result<Self, String> {
        if element == Element::LongDouble && !cfg!(target_arch = "x86_64") {
            return Err("long double is only read as the x87 80-bit format".into());
        }
        let (base, prefix) = match element {
            Element::F32 => ("libfftw3f", "fftwf"),
            Element::F64 => ("libfftw3", "fftw"),
            Element::LongDouble => ("libfftw3l", "fftwl"),
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
                plan_many_dft_c2r: core.function(&name("plan_many_dft_c2r"))?,
                execute: core.function(&name("execute"))?,
                destroy_plan: core.function(&name("destroy_plan"))?,
                malloc: core.function(&name("malloc"))?,
                free: core.function(&name("free"))?,
                import_wisdom_from_filename: core.function(&name("import_wisdom_from_filename"))?,
                export_wisdom_to_filename: core.function(&name("export_wisdom_to_filename"))?,
                forget_wisdom: core.function(&name("forget_wisdom"))?,
            }
        };
        Ok(Fftw { api, element, threads, wisdom: None })
    }

    /// Reads this library's wisdom in `folder` (`Element::wisdom_file`), if there is any, and from now on
    /// writes each plan's wisdom back to it. Returns what it found, for the run's header. A file FFTW cannot
    /// read is measured afresh and replaced.
    pub fn keep_wisdom_in(&mut self, folder: &Path) -> Result<String, String> {
        let file = folder.join(self.element.wisdom_file());
        let found = if file.exists() {
            if unsafe { (self.api.import_wisdom_from_filename)(c_path(&file)?.as_ptr()) } != 0 {
                format!("{} read", file.display())
            } else {
                // Whatever part of it FFTW took in is not to be trusted either.
                unsafe { (self.api.forget_wisdom)() };
                format!("{} unreadable: measuring afresh and replacing it", file.display())
            }
        } else {
            format!("{} new", file.display())
        };
        self.save_wisdom(&file)?;
        self.wisdom = Some(file);
        Ok(format!("fftw {} wisdom: {found}", self.element.name()))
    }

    /// Writes the library's wisdom to `file` through a file beside it, so that a run stopped mid-write
    /// leaves the old wisdom whole.
    fn save_wisdom(&self, file: &Path) -> Result<(), String> {
        let partial = file.with_extension("partial");
        if unsafe { (self.api.export_wisdom_to_filename)(c_path(&partial)?.as_ptr()) } == 0 {
            return Err(format!("FFTW could not write wisdom to {}", partial.display()));
        }
        std::fs::rename(&partial, file).map_err(|e| format!("{} -> {}: {e}", partial.display(), file.display()))
    }

    fn array(&self, reals: usize) -> Result<Array<'_>, String> {
        let bytes = reals * self.element.bytes();
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
        // r2c and c2r take the same arguments: the distances already count each side in its own type.
        let plan_real = |plan_many: PlanManyRealDft| unsafe {
            plan_many(
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
            )
        };
        let plan = match case.kind {
            Kind::C2c => unsafe {
                (self.api.plan_many_dft)(
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
                )
            },
            Kind::R2c => plan_real(self.api.plan_many_dft_r2c),
            Kind::C2r => plan_real(self.api.plan_many_dft_c2r),
        };
        if plan.is_null() {
            return Err(Failure::NotAvailable("FFTW returned no plan".into()));
        }
        Ok(plan)
    }

    /// Plans with FFTW_MEASURE (timed: the plan time) an out-of-place transform of `input`.
    pub fn contestant<'a>(&'a self, case: &Case, input: &'a [f64]) -> Result<Planned<'a>, Failure> {
        let source = self.array(case.input_reals()).map_err(Failure::Error)?;
        let destination = self.array(case.output_reals()).map_err(Failure::Error)?;
        let start = Instant::now();
        let plan = self.plan(case, &source, &destination, FFTW_MEASURE)?;
        let plan_ms = start.elapsed().as_secs_f64() * 1e3;
        if let Some(file) = &self.wisdom {
            // The measurement stands without it; only a later run would plan this case again.
            if let Err(e) = self.save_wisdom(file) {
                eprintln!("fftw {}: wisdom not saved ({e})", self.element.name());
            }
        }
        // FFTW_MEASURE scribbles over the arrays while planning, so the input goes in afterwards. A c2r plan
        // also overwrites its input when it runs (FFTW_DESTROY_INPUT is its default: FFTW_PRESERVE_INPUT costs
        // speed in 1D and has no algorithm in 2D and 3D), so there the input goes in again, untimed, before
        // every run.
        source.write(input);
        let restore_every_run = case.kind == Kind::C2r;
        let run = Execution { fftw: self, plan, source, destination, input, restore_every_run };
        Ok(Planned::new(run, Some(plan_ms)))
    }

    /// The transform of `input` with an FFTW_ESTIMATE plan: the reference, when this is the long double library.
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

/// An in-place 1D forward complex transform of `n` points on an fftw_malloc'ed array of `n` interleaved
/// complex values, planned with FFTW_ESTIMATE: FFTW_MEASURE on 2^29 points measures for longer than the
/// transforms it would then time. The array stays as the caller leaves it: planning does not write to it.
pub struct InPlace<'a> {
    fftw: &'a Fftw,
    plan: Plan,
    array: Array<'a>,
}

impl Fftw {
    pub fn in_place_1d(&self, n: usize) -> Result<InPlace<'_>, String> {
        let length = c_int::try_from(n).map_err(|_| format!("{n} points: more than FFTW's int holds"))?;
        let array = self.array(2 * n)?;
        unsafe { (self.api.plan_with_nthreads)(self.threads as c_int) };
        let plan = unsafe {
            (self.api.plan_many_dft)(
                1,
                &length,
                1,
                array.ptr,
                std::ptr::null(),
                1,
                length,
                array.ptr,
                std::ptr::null(),
                1,
                length,
                FFTW_FORWARD,
                FFTW_ESTIMATE,
            )
        };
        if plan.is_null() {
            return Err("FFTW returned no plan".into());
        }
        Ok(InPlace { fftw: self, plan, array })
    }
}

impl InPlace<'_> {
    /// The array's first byte.
    pub fn data(&self) -> *mut u8 {
        self.array.ptr.cast()
    }

    pub fn execute(&self) {
        unsafe { (self.fftw.api.execute)(self.plan) };
    }
}

impl Drop for InPlace<'_> {
    fn drop(&mut self) {
        unsafe { (self.fftw.api.destroy_plan)(self.plan) };
    }
}

fn c_path(path: &Path) -> Result<CString, String> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| format!("{}: a path with a NUL byte", path.display()))
}

/// A planned out-of-place transform and its arrays.
struct Execution<'a> {
    fftw: &'a Fftw,
    plan: Plan,
    source: Array<'a>,
    destination: Array<'a>,
    input: &'a [f64],
    restore_every_run: bool,
}

impl Contestant for Execution<'_> {
    fn run(&mut self) -> Result<f64, Failure> {
        if self.restore_every_run {
            self.source.write(self.input);
        }
        let start = Instant::now();
        unsafe { (self.fftw.api.execute)(self.plan) };
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    fn output(&mut self) -> Result<Option<Vec<f64>>, Failure> {
        Ok(Some(self.destination.read()))
    }
}

impl Drop for Execution<'_> {
    fn drop(&mut self) {
        unsafe { (self.fftw.api.destroy_plan)(self.plan) };
    }
}

/// An fftw_malloc'ed array of `reals` values of the library's real type.
struct Array<'a> {
    fftw: &'a Fftw,
    ptr: *mut c_void,
    reals: usize,
}

impl Array<'_> {
    fn write(&self, values: &[f64]) {
        let n = values.len().min(self.reals);
        match self.fftw.element {
            Element::F32 => {
                let target = unsafe { std::slice::from_raw_parts_mut(self.ptr.cast::<f32>(), n) };
                for (t, &v) in target.iter_mut().zip(values) {
                    *t = v as f32;
                }
            }
            Element::F64 => {
                let target = unsafe { std::slice::from_raw_parts_mut(self.ptr.cast::<f64>(), n) };
                target.copy_from_slice(&values[..n]);
            }
            Element::LongDouble => {
                let target = unsafe { std::slice::from_raw_parts_mut(self.ptr.cast::<[u8; 16]>(), n) };
                for (t, &v) in target.iter_mut().zip(values) {
                    *t = x87::widen(v);
                }
            }
        }
    }

    fn read(&self) -> Vec<f64> {
        match self.fftw.element {
            Element::F32 => unsafe { std::slice::from_raw_parts(self.ptr.cast::<f32>(), self.reals) }
                .iter()
                .map(|&v| v as f64)
                .collect(),
            Element::F64 => unsafe { std::slice::from_raw_parts(self.ptr.cast::<f64>(), self.reals) }.to_vec(),
            Element::LongDouble => unsafe { std::slice::from_raw_parts(self.ptr.cast::<[u8; 16]>(), self.reals) }
                .iter()
                .map(x87::narrow)
                .collect(),
        }
    }
}

impl Drop for Array<'_> {
    fn drop(&mut self) {
        unsafe { (self.fftw.api.free)(self.ptr) };
    }
}

/// Conversions between f64 and the x87 80-bit extended format (64-bit significand with an explicit integer bit,
/// 15-bit exponent biased by 16383), which Rust has no type for.
mod x87 {
    const BIAS: i32 = 16383;
    const INTEGER_BIT: u64 = 1 << 63;

    /// `value` exactly (every f64 is representable).
    pub fn widen(value: f64) -> [u8; 16] {
        let bits = value.to_bits();
        let sign = ((bits >> 63) as u16) << 15;
        let exponent = ((bits >> 52) & 0x7ff) as i32;
        let fraction = bits & ((1 << 52) - 1);
        let (biased, significand) = match (exponent, fraction) {
            (0, 0) => (0, 0),
            // A subnormal f64 is a normal extended value: shift its leading one up to the integer bit.
            (0, _) => {
                let shift = fraction.leading_zeros() as i32;
                (BIAS - 1074 - shift + 63, fraction << shift)
            }
            (0x7ff, _) => (0x7fff, INTEGER_BIT | fraction << 11),
            _ => (exponent - 1023 + BIAS, INTEGER_BIT | fraction << 11),
        };
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&significand.to_le_bytes());
        bytes[8..10].copy_from_slice(&(sign | biased as u16).to_le_bytes());
        bytes
    }

    /// `bytes` rounded to the nearest f64 (ties to even), as a hardware conversion would.
    pub fn narrow(bytes: &[u8; 16]) -> f64 {
        let significand = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        let sign_exponent = u16::from_le_bytes([bytes[8], bytes[9]]);
        let negative = sign_exponent & 0x8000 != 0;
        let biased = (sign_exponent & 0x7fff) as i32;
        let magnitude = if biased == 0x7fff {
            if significand << 1 == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        } else {
            // The u64 -> f64 cast rounds to nearest even; scaling by a power of two is then exact unless the
            // result leaves f64's normal range, which FFT outputs of unit-scale data never approach.
            let exponent = if biased == 0 { 1 - BIAS } else { biased - BIAS };
            scale(significand as f64, exponent - 63)
        };
        if negative {
            -magnitude
        } else {
            magnitude
        }
    }

    /// `x * 2^power`, in steps that each stay inside f64's normal exponent range.
    fn scale(mut x: f64, mut power: i32) -> f64 {
        while power != 0 {
            let step = power.clamp(-1000, 1000);
            x *= f64::from_bits(((step + 1023) as u64) << 52);
            power -= step;
        }
        x
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn every_kind_of_f64_survives_the_round_trip() {
            let values = [0.0, -0.0, 1.0, -1.5, 0.1, 1e300, -3e-300, 5e-324, 2.2e-308, f64::MAX, f64::INFINITY];
            for v in values {
                assert_eq!(narrow(&widen(v)).to_bits(), v.to_bits(), "{v:e}");
            }
            assert!(narrow(&widen(f64::NAN)).is_nan());
        }

        #[test]
        fn one_is_stored_as_the_x87_format_says() {
            let bytes = widen(1.0);
            assert_eq!(u64::from_le_bytes(bytes[..8].try_into().unwrap()), INTEGER_BIT);
            assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), BIAS as u16);
        }

        #[test]
        fn extra_significand_bits_round_to_nearest_even() {
            // 1 + 2^-53 lies halfway between 1 and 1 + 2^-52: ties go to the even neighbour, 1.
            let halfway = |low: u64| {
                let mut bytes = widen(1.0);
                bytes[..8].copy_from_slice(&(INTEGER_BIT | low).to_le_bytes());
                narrow(&bytes)
            };
            assert_eq!(halfway(1 << 10), 1.0);
            assert_eq!(halfway((1 << 10) + 1), 1.0 + f64::EPSILON);
            // 1 + 3 * 2^-53 is halfway between two odd-even neighbours and rounds up to 1 + 2^-51.
            assert_eq!(halfway(3 << 10), 1.0 + 2.0 * f64::EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::Precision;

    /// FFTW double is a prerequisite of the bench (scripts/prerequisites.sh installs it).
    fn fftw_double() -> Fftw {
        Fftw::load(Element::F64, 1).unwrap_or_else(|e| panic!("FFTW double: {e}"))
    }

    #[test]
    fn wisdom_is_written_after_each_plan_read_back_and_replaced_when_unreadable() {
        let folder = std::env::temp_dir().join(format!("fftx-bench-wisdom-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join("wisdom");
        let is_wisdom = |file: &Path| std::fs::read_to_string(file).unwrap().starts_with("(fftw-3");

        let mut fftw = fftw_double();
        assert!(fftw.keep_wisdom_in(&folder).unwrap().ends_with(" new"));
        assert!(is_wisdom(&file));
        let before = std::fs::metadata(&file).unwrap().len();
        let case = Case { kind: Kind::C2c, precision: Precision::Double, lengths: vec![48], batch: 3, in_place: false };
        let input = vec![0.5; case.input_reals()];
        drop(fftw.contestant(&case, &input).unwrap());
        assert!(std::fs::metadata(&file).unwrap().len() > before, "the measured plan's wisdom was not saved");

        assert!(fftw_double().keep_wisdom_in(&folder).unwrap().ends_with(" read"));
        std::fs::write(&file, "not wisdom").unwrap();
        assert!(fftw_double().keep_wisdom_in(&folder).unwrap().contains("unreadable"));
        assert!(is_wisdom(&file), "the unreadable file was not replaced");
        assert!(!file.with_extension("partial").exists());
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
