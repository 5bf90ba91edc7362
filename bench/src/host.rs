//! `--host`: in-place 1D complex forward transforms of arrays in host memory, through fftx's cuFFT-style API
//! (fftxPlan1d + fftxExecC2C / fftxExecZ2Z on the caller's array) and through FFTW. Each implementation runs
//! each row in a child process of its own (this program again, told by `ROW_VAR`), one child after the
//! other, so that the peak resident set the child reads from its /proc/self/status (VmHWM) is that row's
//! alone. The child prints one `host-row` line; a row whose sampled bins miss the analytic transform, or
//! whose child fails, is a FAIL.

use crate::args::{Contender, Options};
use crate::cases::Precision;
use crate::dl::Library;
use crate::fftw::{Element, Fftw};
use crate::measure::{median, minimum};
use std::ffi::{c_int, c_void};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::Instant;

/// Set in a child process that runs one row for one implementation.
pub const ROW_VAR: &str = "FFTX_BENCH_HOST_ROW";

/// Timed runs per row unless `--runs` says otherwise: one 2^29-point transform takes seconds on a CPU.
pub const DEFAULT_RUNS: usize = 3;

/// Bins of every run's output compared with the analytic transform, spread over the whole range.
const SAMPLED_BINS: usize = 4096;

/// The rows of `--host` without `--sizes`: (points, precision).
pub fn default_rows() -> Vec<(usize, Precision)> {
    vec![(1 << 28, Precision::Single), (1 << 29, Precision::Single), (1 << 28, Precision::Double)]
}

// fftx's cuFFT-style API (include/fftx.h).
const FFTX_C2C: c_int = 41;
const FFTX_Z2Z: c_int = 105;
const FFTX_FORWARD: c_int = -1;

/// The input: three deltas (index, re, im) whose magnitudes add up to 1, so that no bin of the transform
/// exceeds 1 in magnitude and an error at a bin is relative to the largest value a bin can take.
pub fn deltas(n: usize) -> [(usize, f64, f64); 3] {
    [(1 % n, 0.5, 0.0), (3 % n, 0.0, 0.25), ((n / 3 + 7) % n, -0.25, 0.0)]
}

/// Bin `k` of the forward transform (exponent -2πi jk/n, unnormalised) of `deltas(n)`, the phase of each
/// delta reduced modulo n in integers first so that f64 keeps it exact.
pub fn analytic(n: usize, k: usize) -> (f64, f64) {
    deltas(n).iter().fold((0.0, 0.0), |(re, im), &(j, a, b)| {
        let phase = (j as u128 * k as u128 % n as u128) as f64 / n as f64;
        let (sin, cos) = (-2.0 * std::f64::consts::PI * phase).sin_cos();
        (re + a * cos - b * sin, im + a * sin + b * cos)
    })
}

/// About `count` bins spread over 0..n: one in each of `count` equal stretches, at a pseudo-random offset
/// within it (so that not only multiples of a power of two are checked), plus 0, 1, n/2 and n-1; every bin
/// when n is not larger than that.
pub fn sampled_bins(n: usize, count: usize) -> Vec<usize> {
    if n <= count + 4 {
        return (0..n).collect();
    }
    let stretch = n / count;
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut bins: Vec<usize> = (0..count)
        .map(|i| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            i * stretch + (state % stretch as u64) as usize
        })
        .chain([0, 1, n / 2, n - 1])
        .collect();
    bins.sort_unstable();
    bins.dedup();
    bins
}

/// A `kB` field of a /proc status file (VmHWM, the peak resident set, or VmRSS in /proc/self/status;
/// MemAvailable in /proc/meminfo), in bytes.
pub fn kb_field(text: &str, field: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let mut words = line.strip_prefix(field)?.strip_prefix(':')?.split_whitespace();
        let kb: u64 = words.next()?.parse().ok()?;
        (words.next() == Some("kB")).then_some(kb * 1024)
    })
}

fn own_status(field: &str) -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| format!("/proc/self/status: {e}"))?;
    kb_field(&status, field).ok_or_else(|| format!("no {field} in /proc/self/status"))
}

/// A complex array in host memory that something else owns: `n` interleaved (re, im) pairs of the precision's
/// real type.
struct HostArray {
    data: *mut u8,
    n: usize,
    precision: Precision,
}

impl HostArray {
    fn bytes(&self) -> usize {
        2 * self.n * self.precision.real_bytes()
    }

    /// Writes the input: zeros but for the deltas (every byte is written, so every page is resident).
    fn reset(&self) {
        unsafe { std::ptr::write_bytes(self.data, 0, self.bytes()) };
        for (j, re, im) in deltas(self.n) {
            let (old_re, old_im) = self.value(j);
            self.set(j, old_re + re, old_im + im);
        }
    }

    fn set(&self, k: usize, re: f64, im: f64) {
        assert!(k < self.n);
        unsafe {
            match self.precision {
                Precision::Single => {
                    let pair = self.data.cast::<f32>().add(2 * k);
                    (*pair, *pair.add(1)) = (re as f32, im as f32);
                }
                Precision::Double => {
                    let pair = self.data.cast::<f64>().add(2 * k);
                    (*pair, *pair.add(1)) = (re, im);
                }
            }
        }
    }

    fn value(&self, k: usize) -> (f64, f64) {
        assert!(k < self.n);
        unsafe {
            match self.precision {
                Precision::Single => {
                    let pair = self.data.cast::<f32>().add(2 * k);
                    (*pair as f64, *pair.add(1) as f64)
                }
                Precision::Double => {
                    let pair = self.data.cast::<f64>().add(2 * k);
                    (*pair, *pair.add(1))
                }
            }
        }
    }

    /// The largest distance from the analytic transform at `bins`; infinite where a value is not finite.
    fn worst_error(&self, bins: &[usize]) -> f64 {
        bins.iter().fold(0.0, |worst: f64, &k| {
            let ((re, im), (want_re, want_im)) = (self.value(k), analytic(self.n, k));
            let error = (re - want_re).hypot(im - want_im);
            worst.max(if error.is_finite() { error } else { f64::INFINITY })
        })
    }
}

/// What a child process measured for one row.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildReport {
    pub plan_ms: f64,
    /// The timed runs, after one untimed warm-up.
    pub times_ms: Vec<f64>,
    /// VmRSS when the child started, before it loaded any library.
    pub base_rss: u64,
    /// VmHWM when the transforms were done.
    pub peak_rss: u64,
    /// The worst distance from the analytic transform over the sampled bins of every run, warm-up included.
    pub worst_error: f64,
}

const REPORT_PREFIX: &str = "host-row";

impl ChildReport {
    pub fn line(&self) -> String {
        let times: Vec<String> = self.times_ms.iter().map(f64::to_string).collect();
        format!(
            "{REPORT_PREFIX} plan_ms={} times_ms={} base_rss={} peak_rss={} worst_error={}",
            self.plan_ms,
            times.join(","),
            self.base_rss,
            self.peak_rss,
            self.worst_error
        )
    }

    /// The report in a child's output (its last `host-row` line).
    pub fn parse(output: &str) -> Option<Self> {
        let line = output.lines().rev().find_map(|line| line.strip_prefix(REPORT_PREFIX))?;
        let field = |name: &str| line.split_whitespace().find_map(|word| word.strip_prefix(name)?.strip_prefix('='));
        let times_ms = field("times_ms")?.split(',').map(|t| t.parse().ok()).collect::<Option<Vec<f64>>>()?;
        Some(ChildReport {
            plan_ms: field("plan_ms")?.parse().ok()?,
            times_ms,
            base_rss: field("base_rss")?.parse().ok()?,
            peak_rss: field("peak_rss")?.parse().ok()?,
            worst_error: field("worst_error")?.parse().ok()?,
        })
    }
}

/// Resets `array`, runs `transform` and checks the sampled bins, `runs` + 1 times; the first run is the
/// warm-up. Each run's time is the wall clock around `transform` alone.
fn time_runs(
    array: &HostArray,
    runs: usize,
    mut transform: impl FnMut() -> Result<(), String>,
) -> Result<(Vec<f64>, f64), String> {
    let bins = sampled_bins(array.n, SAMPLED_BINS);
    let mut times_ms = Vec::with_capacity(runs);
    let mut worst: f64 = 0.0;
    for run in 0..=runs {
        array.reset();
        let start = Instant::now();
        transform()?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        if run > 0 {
            times_ms.push(ms);
        }
        worst = worst.max(array.worst_error(&bins));
    }
    Ok((times_ms, worst))
}

/// The child's side: the one row and implementation that `options` names, its report printed on stdout.
pub fn child(options: &Options) -> Result<(), String> {
    let base_rss = own_status("VmRSS")?;
    let Some(&[(n, precision)]) = options.host.as_deref() else {
        return Err("a host row's child process takes one size and one precision".into());
    };
    let report = match options.only[..] {
        [Contender::Fftx] => {
            let library = options.fftx_lib.as_deref().ok_or("a host row's child needs --fftx-lib")?;
            run_fftx(library, n, precision, options.runs)?
        }
        [Contender::Fftw] => run_fftw(n, precision, options.runs)?,
        _ => return Err("a host row's child process takes --only fftx or --only fftw".into()),
    };
    println!("{}", ChildReport { base_rss, ..report }.line());
    Ok(())
}

type Exec = unsafe extern "C" fn(c_int, *mut c_void, *mut c_void, c_int) -> c_int;

/// fftxPlan1d, then fftxExecC2C / fftxExecZ2Z in place on a malloc'ed array, as a C program would call them.
fn run_fftx(library: &str, n: usize, precision: Precision, runs: usize) -> Result<ChildReport, String> {
    let lib = Library::open(library)?;
    let (plan_1d, exec, destroy) = unsafe {
        let plan_1d: unsafe extern "C" fn(*mut c_int, c_int, c_int, c_int) -> c_int = lib.function("fftxPlan1d")?;
        let exec: Exec = lib.function(match precision {
            Precision::Single => "fftxExecC2C",
            Precision::Double => "fftxExecZ2Z",
        })?;
        let destroy: unsafe extern "C" fn(c_int) -> c_int = lib.function("fftxDestroy")?;
        (plan_1d, exec, destroy)
    };
    let kind = match precision {
        Precision::Single => FFTX_C2C,
        Precision::Double => FFTX_Z2Z,
    };
    let bytes = 2 * n * precision.real_bytes();
    let data = unsafe { libc::malloc(bytes) }.cast::<u8>();
    if data.is_null() {
        return Err(format!("malloc of {} MiB failed", bytes >> 20));
    }
    let array = HostArray { data, n, precision };
    array.reset();
    let start = Instant::now();
    let mut plan: c_int = 0;
    let status = unsafe { plan_1d(&mut plan, n as c_int, kind, 1) };
    let plan_ms = start.elapsed().as_secs_f64() * 1e3;
    let measured = if status != 0 {
        Err(format!("fftxPlan1d returned {status}"))
    } else {
        let measured =
            time_runs(&array, runs, || match unsafe { exec(plan, data.cast(), data.cast(), FFTX_FORWARD) } {
                0 => Ok(()),
                status => Err(format!("fftxExec returned {status}")),
            });
        unsafe { destroy(plan) };
        measured
    };
    let peak_rss = own_status("VmHWM");
    unsafe { libc::free(data.cast()) };
    let (times_ms, worst_error) = measured?;
    Ok(ChildReport { plan_ms, times_ms, base_rss: 0, peak_rss: peak_rss?, worst_error })
}

/// FFTW in place on an fftw_malloc'ed array, all cores as in the rest of the bench, FFTW_ESTIMATE.
fn run_fftw(n: usize, precision: Precision, runs: usize) -> Result<ChildReport, String> {
    let element = match precision {
        Precision::Single => Element::F32,
        Precision::Double => Element::F64,
    };
    let fftw = Fftw::load(element, std::thread::available_parallelism().map_or(1, |n| n.get()))?;
    let start = Instant::now();
    let plan = fftw.in_place_1d(n)?;
    let plan_ms = start.elapsed().as_secs_f64() * 1e3;
    let array = HostArray { data: plan.data(), n, precision };
    let (times_ms, worst_error) = time_runs(&array, runs, || {
        plan.execute();
        Ok(())
    })?;
    let peak_rss = own_status("VmHWM")?;
    Ok(ChildReport { plan_ms, times_ms, base_rss: 0, peak_rss, worst_error })
}

/// One implementation on one row, as the parent saw it.
#[derive(Debug, Clone)]
pub struct HostRow {
    pub implementation: &'static str,
    pub points: usize,
    pub precision: Precision,
    pub result: Result<ChildReport, String>,
    /// Cores other processes kept busy while the child ran, where /proc could tell.
    pub other_cores: Option<f64>,
}

impl HostRow {
    pub fn data_bytes(&self) -> usize {
        2 * self.points * self.precision.real_bytes()
    }

    /// The report, when the child gave one whose sampled bins all lie within the precision's tolerance.
    pub fn passed(&self) -> Option<&ChildReport> {
        self.result.as_ref().ok().filter(|r| r.worst_error <= self.precision.tolerance())
    }

    pub fn check(&self) -> &'static str {
        if self.passed().is_some() {
            "ok"
        } else {
            "FAIL"
        }
    }

    pub fn median_ms(&self) -> Option<f64> {
        self.passed().map(|r| median(&r.times_ms))
    }

    pub fn min_ms(&self) -> Option<f64> {
        self.passed().map(|r| minimum(&r.times_ms))
    }

    /// Peak resident set over the data bytes, and the same beyond the child's starting resident set.
    pub fn peak_ratio(&self) -> Option<(f64, f64)> {
        let r = self.result.as_ref().ok()?;
        let data = self.data_bytes() as f64;
        Some((r.peak_rss as f64 / data, r.peak_rss.saturating_sub(r.base_rss) as f64 / data))
    }

    fn note(&self) -> String {
        match &self.result {
            Err(e) => e.clone(),
            Ok(r) if self.passed().is_none() => {
                format!("worst error {:.1e} over tolerance {:.0e}", r.worst_error, self.precision.tolerance())
            }
            Ok(_) => String::new(),
        }
    }
}

/// Points as 2^k where they are a power of two.
pub fn size_label(points: usize) -> String {
    if points.is_power_of_two() {
        format!("2^{}", points.trailing_zeros())
    } else {
        points.to_string()
    }
}

/// Memory a child may need beyond the data: fftx's resident set is about 1.04x the data, plus the runtime.
fn memory_needed(data_bytes: usize) -> u64 {
    data_bytes as u64 / 10 * 11 + (512 << 20)
}

/// Every row of `options` for fftx and FFTW, each in a child process, one after the other.
pub fn run(options: &Options, fftx_lib: Option<&Path>) -> Vec<HostRow> {
    let mut rows = Vec::new();
    for &(points, precision) in options.host.as_deref().unwrap_or_default() {
        for contender in [Contender::Fftx, Contender::Fftw] {
            if !options.wants(contender) || (contender == Contender::Fftx && fftx_lib.is_none()) {
                continue;
            }
            let name = contender.name();
            let data_bytes = 2 * points * precision.real_bytes();
            print!("{name} {} {}: ", size_label(points), precision.name());
            let _ = std::io::stdout().flush();
            let start = crate::machine::Counters::now();
            let result = run_child(options, contender, points, precision, fftx_lib, data_bytes);
            let other_cores = crate::machine::others_busy_cores_since(start);
            let row = HostRow { implementation: name, points, precision, result, other_cores };
            println!("{}", row_line(&row));
            rows.push(row);
        }
    }
    rows
}

fn run_child(
    options: &Options,
    contender: Contender,
    points: usize,
    precision: Precision,
    fftx_lib: Option<&Path>,
    data_bytes: usize,
) -> Result<ChildReport, String> {
    use std::os::unix::process::ExitStatusExt;
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    if let Some(available) = kb_field(&meminfo, "MemAvailable") {
        if available < memory_needed(data_bytes) {
            return Err(format!(
                "not run: {:.1} GiB of data and MemAvailable is {:.1} GiB",
                data_bytes as f64 / (1u64 << 30) as f64,
                available as f64 / (1u64 << 30) as f64
            ));
        }
    }
    let mut child = crate::child_of_this_program(ROW_VAR)?;
    child.args(["--host", "--sizes", &points.to_string(), "--precision", precision.name()]);
    child.args(["--only", contender.name(), "--runs", &options.runs.to_string()]);
    if let Some(library) = fftx_lib {
        child.arg("--fftx-lib").arg(library);
    }
    let output = child.output().map_err(|e| format!("cannot start the child process: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    match (output.status.code(), output.status.signal()) {
        (Some(0), _) => ChildReport::parse(&stdout).ok_or_else(|| format!("the child printed no report: {stdout}")),
        (_, Some(9)) => Err("the child was killed by signal 9 (the kernel's OOM killer?)".into()),
        (_, Some(signal)) => Err(format!("the child was killed by signal {signal}")),
        (code, None) => {
            let last = stderr.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or("");
            Err(format!("the child exited with {}: {last}", code.unwrap_or(-1)))
        }
    }
}

fn seconds(ms: Option<f64>, width: usize) -> String {
    ms.map_or_else(|| format!("{:>width$}", "-"), |ms| format!("{:>width$.3}", ms / 1e3))
}

fn duration(ms: f64) -> String {
    if ms >= 1e3 {
        format!("{:.2} s", ms / 1e3)
    } else {
        format!("{ms:.2} ms")
    }
}

/// One implementation's figures as the child process reports them.
fn row_line(row: &HostRow) -> String {
    match (&row.result, row.peak_ratio()) {
        (Ok(r), Some((peak, extra))) if row.passed().is_some() => format!(
            "plan {}, best {}, median {} of {}, peak RSS {peak:.3}x the data ({extra:.3}x beyond the \
             child's start), worst error {:.1e}: ok{}",
            duration(r.plan_ms),
            duration(minimum(&r.times_ms)),
            duration(median(&r.times_ms)),
            r.times_ms.len(),
            r.worst_error,
            busy_warning(row)
        ),
        _ => format!("FAIL: {}", row.note()),
    }
}

fn busy_warning(row: &HostRow) -> String {
    match row.other_cores {
        Some(cores) if cores > crate::machine::SUSPECT_CORES => {
            format!(" (WARNING: other processes kept {cores:.2} cores busy: timing suspect)")
        }
        _ => String::new(),
    }
}

/// The closing table: one line per size and precision, fftx and FFTW side by side, and fftx's median time
/// over FFTW's.
pub fn table(rows: &[HostRow]) -> String {
    let mut out = format!(
        "{:<16} {:>8} | {:>10} {:>10} {:>9} {:>9} {:>9} | {:>10} {:>10} {:>9} | {:>9}\n",
        "row",
        "data GiB",
        "fftx best",
        "median s",
        "peak/data",
        "worst err",
        "check",
        "fftw best",
        "median s",
        "peak/data",
        "fftx/fftw"
    );
    let mut seen: Vec<(usize, Precision)> = Vec::new();
    for row in rows {
        if seen.contains(&(row.points, row.precision)) {
            continue;
        }
        seen.push((row.points, row.precision));
        let find = |name: &str| {
            rows.iter().find(|r| r.implementation == name && (r.points, r.precision) == (row.points, row.precision))
        };
        let (fftx, fftw) = (find("fftx"), find("fftw"));
        let times = |r: Option<&HostRow>| match r {
            Some(r) if r.passed().is_none() => format!("{:>10} {:>10}", "FAIL", "FAIL"),
            _ => {
                format!("{} {}", seconds(r.and_then(HostRow::min_ms), 10), seconds(r.and_then(HostRow::median_ms), 10))
            }
        };
        let peak = |r: Option<&HostRow>| {
            r.and_then(HostRow::peak_ratio).map_or_else(|| format!("{:>9}", "-"), |(p, _)| format!("{p:>9.3}"))
        };
        let worst =
            fftx.and_then(|r| r.result.as_ref().ok()).map_or("-".to_string(), |r| format!("{:.1e}", r.worst_error));
        let ratio = match (fftx.and_then(HostRow::median_ms), fftw.and_then(HostRow::median_ms)) {
            (Some(a), Some(b)) => format!("{:.2}x", a / b),
            _ => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "{:<16} {:>8.2} | {} {} {worst:>9} {:>9} | {} {} | {ratio:>9}",
            format!("{} {}", size_label(row.points), row.precision.name()),
            row.data_bytes() as f64 / (1u64 << 30) as f64,
            times(fftx),
            peak(fftx),
            fftx.map_or("-", HostRow::check),
            times(fftw),
            peak(fftw),
        );
    }
    out
}

fn csv_number(value: Option<f64>) -> String {
    value.map(|v| format!("{v}")).unwrap_or_default()
}

/// `host.csv`: one line per implementation and row.
pub fn write_csv(path: &Path, rows: &[HostRow], device: &str) -> Result<(), String> {
    let mut text = String::from(
        "implementation,kind,precision,points,data_bytes,placement,memory,planner,runs,plan_ms,median_ms,min_ms,\
         base_rss_bytes,peak_rss_bytes,peak_ratio,peak_beyond_start_ratio,worst_error,check,fftw_time_ratio,\
         other_cores,note,device\n",
    );
    for row in rows {
        let report = row.result.as_ref().ok();
        let fftw_ratio = (row.implementation == "fftx")
            .then(|| {
                let fftw = rows
                    .iter()
                    .find(|r| r.implementation == "fftw" && (r.points, r.precision) == (row.points, row.precision))?;
                Some(row.median_ms()? / fftw.median_ms()?)
            })
            .flatten();
        let fields = [
            row.implementation.to_string(),
            "c2c".into(),
            row.precision.name().into(),
            row.points.to_string(),
            row.data_bytes().to_string(),
            "in-place".into(),
            "host".into(),
            match row.implementation {
                "fftw" => "FFTW_ESTIMATE".into(),
                _ => "fftxPlan1d".into(),
            },
            report.map_or(String::new(), |r| r.times_ms.len().to_string()),
            csv_number(report.map(|r| r.plan_ms)),
            csv_number(row.median_ms()),
            csv_number(row.min_ms()),
            report.map_or(String::new(), |r| r.base_rss.to_string()),
            report.map_or(String::new(), |r| r.peak_rss.to_string()),
            csv_number(row.peak_ratio().map(|(p, _)| p)),
            csv_number(row.peak_ratio().map(|(_, e)| e)),
            csv_number(report.map(|r| r.worst_error)),
            row.check().into(),
            csv_number(fftw_ratio),
            csv_number(row.other_cores),
            csv_field(&row.note()),
            csv_field(device),
        ];
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_and_current_resident_sets_are_read_from_proc_status() {
        let status = "Name:\tfftx-bench\nVmPeak:\t 9000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t     512 kB\n";
        assert_eq!(kb_field(status, "VmHWM"), Some(2048 * 1024));
        assert_eq!(kb_field(status, "VmRSS"), Some(512 * 1024));
        assert_eq!(kb_field(status, "VmSwap"), None);
        assert_eq!(kb_field("VmHWM:\t12 MB\n", "VmHWM"), None);
        assert_eq!(kb_field("MemAvailable:   23000 kB\n", "MemAvailable"), Some(23000 * 1024));
        // This process has a status file whose peak is at least its current resident set.
        assert!(own_status("VmHWM").unwrap() >= own_status("VmRSS").unwrap());
    }

    #[test]
    fn the_analytic_transform_is_the_dft_of_the_deltas() {
        let n = 48;
        let mut input = vec![(0.0, 0.0); n];
        for (j, re, im) in deltas(n) {
            input[j] = (input[j].0 + re, input[j].1 + im);
        }
        for k in 0..n {
            let direct = input.iter().enumerate().fold((0.0, 0.0), |(sr, si), (j, &(re, im))| {
                let (sin, cos) = (-2.0 * std::f64::consts::PI * (j * k) as f64 / n as f64).sin_cos();
                (sr + re * cos - im * sin, si + re * sin + im * cos)
            });
            let want = analytic(n, k);
            assert!((direct.0 - want.0).hypot(direct.1 - want.1) < 1e-12, "bin {k}: {direct:?} vs {want:?}");
        }
        let magnitudes: f64 = deltas(1 << 29).iter().map(|(_, re, im)| re.hypot(*im)).sum();
        assert_eq!(magnitudes, 1.0);
    }

    #[test]
    fn sampled_bins_cover_the_range_and_its_ends() {
        let n = 1 << 29;
        let bins = sampled_bins(n, SAMPLED_BINS);
        assert!(bins.len() >= SAMPLED_BINS && bins.windows(2).all(|w| w[0] < w[1]));
        assert!([0, 1, n / 2, n - 1].iter().all(|k| bins.contains(k)));
        assert!(bins.iter().any(|k| k % 2 == 1) && *bins.last().unwrap() < n);
        // One bin in each stretch of n / count: none is left far from a sampled bin.
        assert!(bins.windows(2).all(|w| w[1] - w[0] < 2 * n / SAMPLED_BINS));
        assert_eq!(sampled_bins(100, SAMPLED_BINS), (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn a_host_array_holds_the_deltas_and_grades_its_values() {
        for precision in [Precision::Single, Precision::Double] {
            let n = 64;
            let mut storage = vec![0f64; 2 * n];
            let array = HostArray { data: storage.as_mut_ptr().cast(), n, precision };
            array.reset();
            assert_eq!(array.value(1), (0.5, 0.0));
            assert_eq!(array.value(3), (0.0, 0.25));
            assert_eq!(array.value(2), (0.0, 0.0));
            // The exact transform written in passes; one wrong bin or a NaN does not.
            for k in 0..n {
                let (re, im) = analytic(n, k);
                array.set(k, re, im);
            }
            let bins = sampled_bins(n, SAMPLED_BINS);
            assert!(array.worst_error(&bins) < 1e-6, "{precision:?}");
            array.set(5, 2.0, 0.0);
            assert!(array.worst_error(&bins) > 1.0);
            array.set(5, f64::NAN, 0.0);
            assert_eq!(array.worst_error(&bins), f64::INFINITY);
        }
    }

    #[test]
    fn a_childs_report_survives_its_line_and_grades_its_row() {
        let report = ChildReport {
            plan_ms: 12.5,
            times_ms: vec![3.0, 1.0, 2.0],
            base_rss: 4096,
            peak_rss: 1 << 31,
            worst_error: 3e-6,
        };
        let output = format!("some library chatter\n{}\n", report.line());
        assert_eq!(ChildReport::parse(&output), Some(report.clone()));
        assert_eq!(ChildReport::parse("no report here"), None);
        let row = |result| HostRow {
            implementation: "fftx",
            points: 1 << 27,
            precision: Precision::Single,
            result,
            other_cores: None,
        };
        let good = row(Ok(report.clone()));
        assert_eq!((good.check(), good.median_ms(), good.min_ms()), ("ok", Some(2.0), Some(1.0)));
        assert_eq!(good.peak_ratio().map(|(p, _)| p), Some(2.0));
        let wrong = row(Ok(ChildReport { worst_error: 0.5, ..report.clone() }));
        assert_eq!((wrong.check(), wrong.median_ms()), ("FAIL", None));
        let infinite = row(Ok(ChildReport { worst_error: f64::INFINITY, ..report }));
        assert_eq!(infinite.check(), "FAIL");
        assert_eq!(row(Err("the child was killed by signal 9".into())).check(), "FAIL");
        let table = table(&[wrong]);
        assert!(table.contains("FAIL") && !table.contains("0.002"), "{table}");
    }
}
