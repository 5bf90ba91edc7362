//! fftx-bench: runs the same transforms through fftx, clFFT, VkFFT, FFTW and a device buffer copy in one
//! process, and reports plan times, run times, GFLOPS, accuracy and ratios. See bench/README.md.

mod args;
mod cases;
mod clfft;
mod data;
mod dl;
mod fftw;
mod host;
mod machine;
mod measure;
mod opencl;
mod plot;
mod report;
#[cfg(vkfft)]
mod vkfft;

use args::{Contender, Options, USAGE};
use cases::{Case, Kind, Precision};
use clfft::Clfft;
use fftw::{Element, Fftw};
use measure::{time_device, CaseBuffers, Contestant, Copy, Failure, Planned, Timing};
use opencl::{Cl, Device};
use report::{Outcome, Row, Stats};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

const NOMEMALLOC_VAR: &str = "CLFFT_REQUEST_LIB_NOMEMALLOC";

/// The run's description: printed, and kept for the results folder's meta.txt.
static HEADER: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// `println!` that also keeps the line for meta.txt.
macro_rules! header {
    ($($arg:tt)*) => {{
        let line = format!($($arg)*);
        println!("{line}");
        HEADER.lock().unwrap_or_else(|e| e.into_inner()).push(line);
    }};
}

fn main() {
    let options = match args::parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("fftx-bench: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&options) {
        eprintln!("fftx-bench: {e}");
        std::process::exit(1);
    }
}

/// This program again, as a child process that `var` tells what to do (the VkFFT probe, the compiler floor).
fn child_of_this_program(var: &str) -> Result<std::process::Command, String> {
    let program = std::env::current_exe().map_err(|e| format!("no path to this program: {e}"))?;
    let mut child = std::process::Command::new(program);
    child.env(var, "1");
    Ok(child)
}

/// `dir` and its parents, created if missing.
fn make_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
}

/// Set in the child process of `ColdCaches::compiler_floor`.
const FLOOR_VAR: &str = "FFTX_BENCH_COMPILER_FLOOR";

/// Fresh, empty cache folders for `--cold`, removed when the run ends.
struct ColdCaches {
    root: PathBuf,
}

impl ColdCaches {
    /// Must run before the first OpenCL call: PoCL reads POCL_CACHE_DIR when the platform initialises.
    fn install() -> Result<Self, String> {
        let stamp = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
        let root = std::env::temp_dir().join(format!("fftx-bench-cold-{}-{stamp}", std::process::id()));
        for (var, sub) in [("FFTX_CACHE_DIR", "fftx"), ("POCL_CACHE_DIR", "pocl")] {
            let dir = root.join(sub);
            make_dir(&dir)?;
            std::env::set_var(var, &dir);
        }
        Ok(ColdCaches { root })
    }

    /// What the driver alone takes to build a one-line kernel in a fresh process with an empty kernel cache:
    /// the process's first build (the compiler's start-up) and one more. No cold bake can take less, and this
    /// process's own first build must stay cold, so a child process measures it.
    fn compiler_floor(&self) -> Result<String, String> {
        let pocl_cache = self.root.join("pocl-floor");
        make_dir(&pocl_cache)?;
        let output = child_of_this_program(FLOOR_VAR)?
            .env("POCL_CACHE_DIR", &pocl_cache)
            .output()
            .map_err(|e| format!("cannot start the child process: {e}"))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        match stdout.lines().find(|line| line.starts_with("compiler floor")) {
            Some(line) if output.status.success() => Ok(line.to_string()),
            _ => Err(format!("the child process failed: {}", String::from_utf8_lossy(&output.stderr).trim())),
        }
    }
}

/// The child's side of `ColdCaches::compiler_floor`: two different one-line kernels, built one after the other.
fn print_compiler_floor() -> Result<(), String> {
    let device = opencl::select_device(&std::env::var("FFTX_DEVICE").unwrap_or_default())?;
    let cl = Cl::new(&device)?;
    let source = |k: u32| format!("kernel void scale{k}(global float *x) {{ x[get_global_id(0)] *= {k}.0f; }}");
    let first = cl.build_ms(&device, &source(2), c"")?;
    let next = cl.build_ms(&device, &source(3), c"")?;
    // As fftx builds its own code on PoCL: the builtin it calls declared, clang's opencl-c.h skipped by its
    // include guard.
    let declared = format!("size_t __attribute__((overloadable, const)) get_global_id(uint);\n{}", source(4));
    let own = match device.platform_name.as_str() {
        "Portable Computing Language" => format!(
            ", {:.0} ms with its builtin declared instead of the whole builtin header",
            cl.build_ms(&device, &declared, c"-D_OPENCL_H_")?
        ),
        _ => String::new(),
    };
    println!(
        "compiler floor: a one-line kernel in a fresh process, empty kernel cache: first build {first:.0} ms \
         (the compiler's start-up), next {next:.0} ms{own}"
    );
    Ok(())
}

impl Drop for ColdCaches {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Everything a run shares: the device, the main context, and the loaded implementations.
struct Bench {
    device: Device,
    cl: Cl,
    timing: Timing,
    fftx: Option<Clfft>,
    clfft: Option<Clfft>,
    vkfft: bool,
    fftw_single: Option<Fftw>,
    fftw_double: Option<Fftw>,
    /// The library that computes the reference outputs: FFTW long double, else FFTW double.
    reference: Option<Fftw>,
    /// Cases during which other processes kept the machine busy, with how many cores they took.
    suspect_cases: RefCell<Vec<(String, f64)>>,
}

fn run(options: &Options) -> Result<(), String> {
    if std::env::var_os(FLOOR_VAR).is_some() {
        return print_compiler_floor();
    }
    if std::env::var_os(host::ROW_VAR).is_some() {
        return host::child(options);
    }
    if options.host.is_some() {
        return run_host(options);
    }
    let cold = if options.cold { Some(ColdCaches::install()?) } else { None };
    // clFFT latches this variable at clfftSetup and never clears it, so the run controls it itself.
    if let Some(value) = std::env::var_os(NOMEMALLOC_VAR) {
        println!("note: unsetting {NOMEMALLOC_VAR}={value:?} so clFFT starts in its default mode; see --nomemalloc");
        std::env::remove_var(NOMEMALLOC_VAR);
    }

    let device = opencl::select_device(&std::env::var("FFTX_DEVICE").unwrap_or_default())?;
    let cl = Cl::new(&device)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    header!("device: {}", device.describe());
    header!("machine: {threads} cores, {}", load_average());
    header!("caches: {}", cache_description(cold.is_some()));
    if let Some(cold) = &cold {
        match cold.compiler_floor() {
            Ok(floor) => header!("{floor}"),
            Err(e) => println!("compiler floor: not measured ({e})"),
        }
    }

    let fftx = if options.wants(Contender::Fftx) { load_fftx(options) } else { None };
    let clfft = if options.wants(Contender::Clfft) {
        match Clfft::load(&options.clfft_lib) {
            Ok(lib) => {
                let (major, minor, patch) = lib.version;
                header!("clfft: {} (clFFT {major}.{minor}.{patch})", lib.path);
                Some(lib)
            }
            Err(e) => {
                header!("clfft: unavailable, skipped ({e})");
                None
            }
        }
    } else {
        None
    };
    let vkfft = options.wants(Contender::Vkfft) && !options.nomemalloc && vkfft_available();
    let load_fftw = |element: Element| match Fftw::load(element, threads) {
        Ok(fftw) => Some(fftw),
        Err(e) => {
            header!("fftw {}: unavailable ({e})", element.name());
            None
        }
    };
    let wants_fftw = |precision: Precision| options.wants(Contender::Fftw) && options.precisions.contains(&precision);
    let mut fftw_single = if wants_fftw(Precision::Single) { load_fftw(Element::F32) } else { None };
    let mut fftw_double = if wants_fftw(Precision::Double) { load_fftw(Element::F64) } else { None };
    if let Some(folder) = &options.fftw_wisdom {
        let folder = folder.join(machine::cpu_key());
        std::fs::create_dir_all(&folder).map_err(|e| format!("--fftw-wisdom {}: {e}", folder.display()))?;
        for fftw in [&mut fftw_single, &mut fftw_double].into_iter().flatten() {
            println!("{}", fftw.keep_wisdom_in(&folder)?);
        }
    }
    // The reference loads whatever --only says; without long double it falls back to double.
    let (reference, reference_name) = match load_fftw(Element::LongDouble) {
        Some(fftw) => (Some(fftw), "FFTW long double"),
        None => match load_fftw(Element::F64) {
            Some(fftw) => (Some(fftw), "FFTW double (FFTW's own double RMSE then measures nothing)"),
            None => {
                println!("no FFTW long double or double: results cannot be checked (RMSE column empty)");
                (None, "none")
            }
        },
    };
    header!("fftw: {threads} threads, FFTW_MEASURE, out-of-place; reference: {reference_name}, FFTW_ESTIMATE");
    let timing = Timing::new(options.runs);
    println!(
        "timing: median and min of {} runs in {} turns alternating between the implementations, each turn after \
         {} warm-up run(s) ({} in the first); wall clock around enqueue + clFinish",
        timing.runs,
        timing.rounds,
        timing.warmups,
        timing.warmups + 1
    );

    let bench = Bench {
        device,
        cl,
        timing,
        fftx,
        clfft,
        vkfft,
        fftw_single,
        fftw_double,
        reference,
        suspect_cases: RefCell::new(Vec::new()),
    };
    let run_start = machine::Counters::now();
    let rows = if options.nomemalloc {
        run_nomemalloc(&bench, options)?
    } else {
        let shapes = options.shapes.clone().unwrap_or_else(|| {
            if options.quick {
                cases::quick_shapes()
            } else {
                cases::standard_shapes()
            }
        });
        let shapes: Vec<Vec<usize>> = shapes.into_iter().filter(|s| options.dims.contains(&s.len())).collect();
        let mut cases = cases::build(&shapes, &options.kinds, &options.precisions, false);
        if options.shapes.is_none() {
            cases.retain(cases::in_standard_table);
        }
        let mut rows = Vec::new();
        for case in &cases {
            rows.extend(run_case(&bench, options, case, "", None));
        }
        rows
    };

    println!("\nmachine at the end: {}", load_average());
    print!("{}", other_load_report(run_start, &bench.suspect_cases.borrow()));
    println!("\nGFLOPS by case (ratios are throughput ratios; x copy = time / copy time):");
    print!("{}", report::summary(&rows));
    if options.nomemalloc {
        print!("{}", scratch_table(&rows));
    }
    for lib in [&bench.fftx, &bench.clfft].into_iter().flatten() {
        lib.teardown();
    }
    write_results(options, &rows, &bench.device)
}

/// Other work on the machine skews every timing, so the report says how busy it was.
fn load_average() -> String {
    match std::fs::read_to_string("/proc/loadavg") {
        Ok(text) => format!("load average {}", text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")),
        Err(_) => "load average unknown".into(),
    }
}

/// What other processes took of the machine over the whole run, and the cases whose timings they made suspect.
fn other_load_report(run_start: Option<machine::Counters>, suspect_cases: &[(String, f64)]) -> String {
    let Some(cores) = machine::others_busy_cores_since(run_start) else {
        return "other processes: unknown (no /proc counters)\n".into();
    };
    let mut out = format!("other processes kept {cores:.2} cores busy on average during the run\n");
    if !suspect_cases.is_empty() {
        let _ = writeln!(
            out,
            "WARNING: timings of {} case(s) are suspect: other processes kept more than {} cores busy during them:",
            suspect_cases.len(),
            machine::SUSPECT_CORES
        );
        for (label, cores) in suspect_cases {
            let _ = writeln!(out, "  {label}: {cores:.2} cores");
        }
    }
    out
}

fn cache_description(cold: bool) -> String {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| "(default)".into());
    format!(
        "{}FFTX_CACHE_DIR={} POCL_CACHE_DIR={}",
        if cold { "cold, " } else { "" },
        var("FFTX_CACHE_DIR"),
        var("POCL_CACHE_DIR")
    )
}

#[cfg(vkfft)]
fn vkfft_available() -> bool {
    header!("vkfft: header-only VkFFT, OpenCL backend (VKFFT_BACKEND=3)");
    true
}

#[cfg(not(vkfft))]
fn vkfft_available() -> bool {
    header!("vkfft: VkFFT unavailable (no /usr/include/vkFFT.h when this program was built)");
    false
}

/// The libfftx.so to load: `--fftx-lib`, else `$FFTX_BENCH_LIB`, else the one beside this program (with a
/// warning when the library sources are newer than it).
fn fftx_path(options: &Options) -> Result<PathBuf, String> {
    if let Some(path) = options.fftx_lib.clone().or_else(|| std::env::var("FFTX_BENCH_LIB").ok()) {
        return Ok(PathBuf::from(path));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate this program ({e}); give --fftx-lib"))?;
    let path = exe.with_file_name("libfftx.so");
    warn_if_stale(&path);
    Ok(path)
}

fn load_fftx(options: &Options) -> Option<Clfft> {
    let path = match fftx_path(options) {
        Ok(path) => path,
        Err(e) => {
            println!("fftx: {e}");
            return None;
        }
    };
    match Clfft::load(&path.to_string_lossy()) {
        Ok(lib) => {
            let (major, minor, patch) = lib.version;
            header!("fftx: {} (clFFT API {major}.{minor}.{patch})", lib.path);
            Some(lib)
        }
        Err(e) => {
            println!("fftx: cannot load {} ({e}); build it with `cargo build --release`", path.display());
            None
        }
    }
}

/// The bench does not depend on the library crate (that would link its clfft* symbols into this program),
/// so cargo does not rebuild libfftx.so for it: say so when the sources are newer than the library.
fn warn_if_stale(library: &Path) {
    let Ok(built) = std::fs::metadata(library).and_then(|m| m.modified()) else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let newest = ["src", "kernels"].iter().filter_map(|dir| newest_modification(&root.join(dir))).max();
    if newest.is_some_and(|newest| newest > built) {
        println!("warning: {} is older than the library sources; run `cargo build --release` first", library.display());
    }
}

fn newest_modification(dir: &Path) -> Option<SystemTime> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let meta = entry.metadata().ok()?;
            if meta.is_dir() {
                newest_modification(&entry.path())
            } else {
                meta.modified().ok()
            }
        })
        .max()
}

/// The input, the reference output and the device buffers of one case.
struct Prepared {
    input: Vec<f64>,
    reference: Option<Vec<f64>>,
    buffers: CaseBuffers,
}

fn prepare(bench: &Bench, case: &Case) -> Result<Prepared, String> {
    let input = data::input(case);
    let reference = match &bench.reference {
        Some(fftw) => Some(fftw.transform(case, &input)?),
        None => None,
    };
    let buffers = CaseBuffers::new(&bench.cl, case, &data::to_bytes(&input, case.precision))?;
    Ok(Prepared { input, reference, buffers })
}

/// Every selected implementation on one case. `suffix` tags the rows of a second mode ("+nomemalloc"), which
/// reuses the copy time measured in the first (`known_copy_ms`) instead of measuring it again. Warns when
/// other processes kept the machine busy meanwhile.
fn run_case(bench: &Bench, options: &Options, case: &Case, suffix: &str, known_copy_ms: Option<f64>) -> Vec<Row> {
    let start = machine::Counters::now();
    let rows = run_case_unwatched(bench, options, case, suffix, known_copy_ms);
    let others = machine::others_busy_cores_since(start);
    if let Some(cores) = others.filter(|&cores| cores > machine::SUSPECT_CORES) {
        println!("  WARNING: other processes kept {cores:.2} cores busy during this case: its timings are suspect");
        bench.suspect_cases.borrow_mut().push((format!("{}{suffix}", case.label()), cores));
    }
    rows
}

fn run_case_unwatched(
    bench: &Bench,
    options: &Options,
    case: &Case,
    suffix: &str,
    known_copy_ms: Option<f64>,
) -> Vec<Row> {
    println!("{}", report::case_header(case));
    let prepared = match prepare(bench, case) {
        Ok(prepared) => prepared,
        Err(e) => {
            println!("  skipped: {e}");
            return Vec::new();
        }
    };
    // A real case times fftx's complex transform of the same size run for run with it (`Planned::partner`).
    let complex = (case.kind != Kind::C2c && suffix.is_empty() && bench.fftx.is_some())
        .then(|| Case { kind: Kind::C2c, ..case.clone() })
        .and_then(|complex| {
            match CaseBuffers::new(&bench.cl, &complex, &data::to_bytes(&data::input(&complex), complex.precision)) {
                Ok(buffers) => Some((complex, buffers)),
                Err(e) => {
                    println!("  no c2c of this size alongside: {e}");
                    None
                }
            }
        });
    let mut planned: Vec<(&str, Result<Planned, Failure>)> = Vec::new();
    let cl = &bench.cl;
    let measures_copy = options.wants(Contender::Copy) && suffix.is_empty();
    if measures_copy {
        let copy = Copy { cl, buffers: &prepared.buffers };
        planned.push(("copy", Ok(Planned::new(copy, None))));
    }
    if let Some(fftx) = &bench.fftx {
        let mut planned_fftx = plan_clfft_api(bench, fftx, case, &prepared.buffers, true);
        if let (Ok(planned_fftx), Some((complex, buffers))) = (&mut planned_fftx, &complex) {
            match plan_clfft_api(bench, fftx, complex, buffers, false) {
                Ok(twin) => planned_fftx.partner = Some(twin.contestant),
                Err(failure) => println!("  {COMPLEX_TWIN}: {failure}"),
            }
        }
        planned.push(("fftx", planned_fftx));
    }
    if let Some(clfft) = &bench.clfft {
        planned.push(("clfft", plan_clfft_api(bench, clfft, case, &prepared.buffers, false)));
    }
    if bench.vkfft {
        planned.push(("vkfft", plan_vkfft(bench, case, &prepared)));
    }
    if options.wants(Contender::Fftw) && !case.in_place {
        let fftw = match case.precision {
            Precision::Single => &bench.fftw_single,
            Precision::Double => &bench.fftw_double,
        };
        if let Some(fftw) = fftw {
            planned.push(("fftw", fftw.contestant(case, &prepared.input)));
        }
    }
    let (names, planned): (Vec<&str>, Vec<_>) = planned.into_iter().unzip();
    let measurements = measure::interleave(planned, &bench.timing);
    let copy_ms = match (measures_copy, measurements.first()) {
        (true, Some(Ok(copy))) => Some(measure::median(&copy.times_ms)),
        _ => known_copy_ms,
    };
    let mut rows = Vec::new();
    for (name, result) in names.into_iter().zip(measurements) {
        let outcome = match result {
            Ok(measurement) => {
                let rmse = match (&measurement.output, &prepared.reference) {
                    (Some(output), Some(reference)) => Some(data::relative_rmse(output, reference)),
                    _ => None,
                };
                let c2c_median_ms = match &measurement.partner_times_ms {
                    Some(Ok(times)) if !times.is_empty() => {
                        let ms = measure::median(times);
                        println!("  {COMPLEX_TWIN}: median {ms:.3} ms");
                        Some(ms)
                    }
                    Some(Err(failure)) => {
                        println!("  {COMPLEX_TWIN}: {failure}");
                        None
                    }
                    _ => None,
                };
                Outcome::Measured(Stats { c2c_median_ms, ..Stats::new(&measurement, rmse) })
            }
            Err(failure) => Outcome::Failed(failure),
        };
        let copy_ms = if name == "copy" { None } else { copy_ms };
        let row = Row { implementation: format!("{name}{suffix}"), case: case.clone(), outcome, copy_ms };
        println!("{}", report::case_line(&row));
        rows.push(row);
    }
    rows
}

fn read_result(cl: &Cl, case: &Case, buffers: &CaseBuffers) -> Result<Vec<f64>, Failure> {
    let bytes = cl.read(buffers.result(), case.output_bytes()).map_err(Failure::Error)?;
    Ok(data::from_bytes(&bytes, case.precision))
}

/// Bakes in fresh contexts whose median is the warm bake time: one sample alone can catch a burst of load
/// from elsewhere on the machine.
const WARM_BAKES: usize = 3;

/// fftx's complex transform run alongside a real case (no row of its own).
const COMPLEX_TWIN: &str = "fftx c2c of this size";

/// fftx or clFFT, planned through the same function table. With `warm_bake`, the plan is baked again in
/// fresh contexts, where only the on-disk program cache can help. The plan runs once first: fftx writes the
/// programs a bake built to that cache in the background, and its first launch waits for those writes, so
/// that the warm bakes find them on disk as a later process would rather than wait for the writer.
fn plan_clfft_api<'a>(
    bench: &'a Bench,
    lib: &'a Clfft,
    case: &'a Case,
    buffers: &'a CaseBuffers,
    warm_bake: bool,
) -> Result<Planned<'a>, Failure> {
    let start = Instant::now();
    let plan = lib.plan(&bench.cl, case)?;
    let plan_ms = start.elapsed().as_secs_f64() * 1e3;
    let warm_plan_ms = if warm_bake {
        let output = buffers.output.as_ref().map(|b| b.mem);
        plan.enqueue(&bench.cl, buffers.input.mem, output)?;
        bench.cl.finish().map_err(Failure::Error)?;
        let mut times = Vec::with_capacity(WARM_BAKES);
        for _ in 0..WARM_BAKES {
            let fresh = Cl::new(&bench.device).map_err(Failure::Error)?;
            let start = Instant::now();
            drop(lib.plan(&fresh, case)?);
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        Some(measure::median(&times))
    } else {
        None
    };
    let tmp_bytes = plan.tmp_bytes();
    let (cl, output) = (&bench.cl, buffers.output.as_ref().map(|b| b.mem));
    let contestant = OnDevice { cl, case, buffers, enqueue: move || plan.enqueue(cl, buffers.input.mem, output) };
    Ok(Planned { warm_plan_ms, tmp_bytes, ..Planned::new(contestant, Some(plan_ms)) })
}

/// A baked fftx, clFFT or VkFFT plan on the case's buffers, which `enqueue` runs.
struct OnDevice<'a, E: FnMut() -> Result<(), Failure>> {
    cl: &'a Cl,
    case: &'a Case,
    buffers: &'a CaseBuffers,
    enqueue: E,
}

impl<E: FnMut() -> Result<(), Failure>> Contestant for OnDevice<'_, E> {
    fn run(&mut self) -> Result<f64, Failure> {
        time_device(self.cl, self.buffers, &mut self.enqueue)
    }

    fn prepare_checked_turn(&mut self) -> Result<(), Failure> {
        self.buffers.reset(self.cl).map_err(Failure::Error)
    }

    fn output(&mut self) -> Result<Option<Vec<f64>>, Failure> {
        read_result(self.cl, self.case, self.buffers).map(Some)
    }
}

#[cfg(vkfft)]
fn plan_vkfft<'a>(bench: &'a Bench, case: &'a Case, prepared: &'a Prepared) -> Result<Planned<'a>, Failure> {
    vkfft_survives(case)?;
    let (cl, buffers) = (&bench.cl, &prepared.buffers);
    let start = Instant::now();
    let plan = vkfft::VkfftPlan::new(&bench.device, cl, case, buffers)?;
    let plan_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(Planned::new(OnDevice { cl, case, buffers, enqueue: move || plan.enqueue() }, Some(plan_ms)))
}

/// Set in the child process of `vkfft_survives`.
#[cfg(vkfft)]
const PROBE_VAR: &str = "FFTX_BENCH_VKFFT_PROBE";

/// VkFFT runs in this process, where a crash in one of its kernels (PoCL runs them as native code) would end
/// the whole run: each case runs once first in a child process, and a case that kills the child is reported
/// as a failure instead of being run here.
#[cfg(vkfft)]
fn vkfft_survives(case: &Case) -> Result<(), Failure> {
    use std::os::unix::process::ExitStatusExt;
    if std::env::var_os(PROBE_VAR).is_some() {
        return Ok(());
    }
    let out = std::env::temp_dir().join(format!("fftx-bench-vkfft-probe-{}", std::process::id()));
    let size = case.size_label();
    let status = child_of_this_program(PROBE_VAR)
        .map_err(Failure::Error)?
        .args(["--sizes", &size, "--precision", case.precision.name(), "--kind", case.kind.name()])
        .args(["--only", "vkfft", "--runs", "1", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| Failure::Error(format!("cannot start the VkFFT probe: {e}")))?;
    let _ = std::fs::remove_dir_all(&out);
    match status.signal() {
        Some(signal) => Err(Failure::Error(format!("VkFFT crashed this case in a probe process (signal {signal})"))),
        None => Ok(()),
    }
}

#[cfg(not(vkfft))]
fn plan_vkfft<'a>(_: &'a Bench, _: &'a Case, _: &'a Prepared) -> Result<Planned<'a>, Failure> {
    Err(Failure::NotAvailable("VkFFT unavailable".into()))
}

/// In-place 1D c2c at large sizes for fftx and clFFT: first in each library's default mode, then with
/// CLFFT_REQUEST_LIB_NOMEMALLOC=1. clFFT reads the variable in clfftSetup and only ever switches the mode on,
/// so the default mode must come first; teardown + setup makes both libraries read it again.
fn run_nomemalloc(bench: &Bench, options: &Options) -> Result<Vec<Row>, String> {
    let shapes = options.shapes.clone().unwrap_or_else(cases::nomemalloc_shapes);
    let cases = cases::build(&shapes, &[Kind::C2c], &options.precisions, true);
    let mut rows = Vec::new();
    println!("\n== default mode ({NOMEMALLOC_VAR} unset at clfftSetup)");
    for case in &cases {
        rows.extend(run_case(bench, options, case, "", None));
    }
    let copy_ms = |case: &Case| {
        rows.iter().find(|r| &r.case == case && r.implementation == "copy").and_then(|r| Some(r.stats()?.median_ms))
    };
    let copy_times: Vec<Option<f64>> = cases.iter().map(copy_ms).collect();
    std::env::set_var(NOMEMALLOC_VAR, "1");
    for lib in [&bench.fftx, &bench.clfft].into_iter().flatten() {
        lib.restart()?;
    }
    println!("\n== {NOMEMALLOC_VAR}=1, after clfftTeardown + clfftSetup");
    for (case, copy_ms) in cases.iter().zip(copy_times) {
        rows.extend(run_case(bench, options, case, "+nomemalloc", copy_ms));
    }
    Ok(rows)
}

/// Scratch each library reports (clfftGetTmpBufSize) per mode: the evidence of what the variable changed.
fn scratch_table(rows: &[Row]) -> String {
    let names = ["fftx", "fftx+nomemalloc", "clfft", "clfft+nomemalloc"];
    let mut out = String::from("\nscratch by clfftGetTmpBufSize, MiB:\n");
    out.push_str(&format!("{:<28}", "case"));
    for name in names {
        out.push_str(&format!(" {name:>17}"));
    }
    out.push('\n');
    let mut seen: Vec<&Case> = Vec::new();
    for row in rows {
        if seen.contains(&&row.case) {
            continue;
        }
        seen.push(&row.case);
        out.push_str(&format!("{:<28}", row.case.label()));
        for name in names {
            let cell = rows
                .iter()
                .find(|r| r.case == row.case && r.implementation == name)
                .and_then(|r| r.stats()?.tmp_bytes)
                .map(|b| format!("{:.1}", b as f64 / (1 << 20) as f64))
                .unwrap_or_else(|| "-".into());
            out.push_str(&format!(" {cell:>17}"));
        }
        out.push('\n');
    }
    out
}

/// The run's own folder, `<out>/<date>-<device>` (with `-<name>` unless the name is `bench`), created.
fn results_dir(options: &Options, device: &Device) -> Result<PathBuf, String> {
    let mut folder = format!("{}-{}", machine::today(), machine::slug(&device.name));
    if options.stem() != "bench" {
        folder.push_str(&format!("-{}", machine::slug(&options.stem())));
    }
    let dir = options.out.join(folder);
    make_dir(&dir)?;
    Ok(dir)
}

/// `meta.txt`: date, commit, command, and the run's header (device, machine, libraries).
fn write_meta(dir: &Path) -> Result<(), String> {
    let command: Vec<String> = std::env::args().collect();
    let mut meta =
        format!("date: {}\ncommit: {}\ncommand: {}\n", machine::today(), machine::commit(), command.join(" "));
    for line in HEADER.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        meta.push_str(line);
        meta.push('\n');
    }
    let meta_path = dir.join("meta.txt");
    std::fs::write(&meta_path, meta).map_err(|e| format!("cannot write {}: {e}", meta_path.display()))?;
    println!("wrote {}", meta_path.display());
    Ok(())
}

/// Writes the run into its own folder (`results_dir`): `bench.csv`, `bench.png` and `meta.txt`.
fn write_results(options: &Options, rows: &[Row], device: &Device) -> Result<(), String> {
    let dir = results_dir(options, device)?;
    let csv = dir.join("bench.csv");
    report::write_csv(&csv, rows, &device.name)?;
    println!("\nwrote {}", csv.display());
    write_meta(&dir)?;
    let stem = options.stem();
    let png = dir.join("bench.png");
    let title = format!("fftx-bench {stem}: {} (higher is better)", device.name);
    match plot::write(&png, rows, &title) {
        Ok(()) => println!("wrote {}", png.display()),
        Err(e) => println!("no plot: {e}"),
    }
    Ok(())
}

/// `--host`: in-place 1D c2c on host memory through fftx's cuFFT-style API and through FFTW, each row in a
/// child process (host.rs); writes `host.csv` and `meta.txt`. This process opens no OpenCL context: it only
/// names the device the library's default picks up through the same FFTX_DEVICE.
fn run_host(options: &Options) -> Result<(), String> {
    let device = opencl::select_device(&std::env::var("FFTX_DEVICE").unwrap_or_default())?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    header!("device: {}", device.describe());
    header!("machine: {threads} cores, {}", load_average());
    let fftx_lib = if options.wants(Contender::Fftx) {
        let path = fftx_path(options)?;
        if !path.exists() {
            return Err(format!("{} is missing; build it with `cargo build --release`", path.display()));
        }
        header!(
            "fftx: {}: fftxPlan1d, then fftxExecC2C / fftxExecZ2Z in place on a malloc'ed host array",
            path.display()
        );
        Some(path)
    } else {
        None
    };
    header!("fftw: {threads} threads (all cores, as in the rest of the bench), FFTW_ESTIMATE, in place on an fftw_malloc'ed array");
    header!(
        "host: in-place 1D c2c forward, each implementation and row in a child process of its own, one after the \
         other; time: wall clock around the exec call, best and median of {} runs after 1 warm-up, the input \
         written (untimed) before each; peak RSS: the child's VmHWM; check: every run's sampled bins against the \
         analytic transform of 3 deltas (worst error, tolerance 1e-4 single, 1e-12 double)",
        options.runs
    );
    let run_start = machine::Counters::now();
    let rows = host::run(options, fftx_lib.as_deref());
    println!("\nmachine at the end: {}", load_average());
    print!("{}", other_load_report(run_start, &[]));
    println!("\nhost memory, in place (times in seconds; peak/data: the child's peak RSS over the array's bytes):");
    print!("{}", host::table(&rows));
    let dir = results_dir(options, &device)?;
    let csv = dir.join("host.csv");
    host::write_csv(&csv, &rows, &device.name)?;
    println!("\nwrote {}", csv.display());
    write_meta(&dir)
}
