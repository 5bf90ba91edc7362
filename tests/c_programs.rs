//! The C programs under `c-tests/`, compiled with the compiler and flags the `cc` crate picks (C99, warnings
//! as errors) and run against the libfftx.so of this build:
//! - each compiles against Debian's upstream `clFFT.h` (the ABI proof) and against ours in `include/`;
//! - `lifecycle.c`, built as a clFFT application (`-lclFFT`), runs with `libclFFT.so` resolving to libfftx.so
//!   (Debian's prebuilt `clFFT-client` runs on an installed fftx in `tests/install.rs`);
//! - libfftx.so exports every function upstream's `clFFT.h` declares, and ours declares the same ones;
//! - interposers preloaded in front of the OpenCL library (`cltrace.c`, `alloc_probe.c`) watch what
//!   libfftx.so creates.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const UPSTREAM_HEADER: &str = "/usr/include/clFFT.h";

/// The folder holding the libfftx.so built with this test binary. When cargo builds the library only as a test
/// dependency it leaves the fresh cdylib in `deps/`, next to this binary, and does not copy it up to
/// `target/<profile>/`, which may hold an older one from a plain `cargo build`.
fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe.parent().expect("the test binary's folder");
    let found = [deps, deps.parent().unwrap_or(deps)]
        .into_iter()
        .find(|dir| dir.join("libfftx.so").is_file())
        .unwrap_or_else(|| panic!("no libfftx.so in or above {}", deps.display()));
    found.to_path_buf()
}

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch folder for one test's executables, removed when the test ends. The process id keeps concurrent
/// runs of the suite apart.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c-tests").join(format!("{name}-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("create a scratch folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Best effort: a leftover folder under target/ harms nothing.
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[derive(Debug, Clone, Copy)]
enum Header {
    /// Debian's `/usr/include/clFFT.h`, found on the compiler's default path.
    Upstream,
    /// Ours, in `include/`.
    Own,
}

/// Compiles `c-tests/<program>.c` against `header` into `<scratch>/<program>-<header>`, linked with
/// `-l<library>` searched first in `link_dir`.
fn compile(program: &str, header: Header, library: &str, link_dir: &Path, scratch: &Scratch) -> PathBuf {
    compile_with(program, header, library, link_dir, scratch, &[])
}

/// A C compiler set up as for the test programs: C99, warnings as errors.
fn c_compiler(scratch: &Scratch) -> cc::Build {
    // cc is made for build scripts; outside one, it needs the target, host and optimisation level spelled out.
    let target = format!("{}-unknown-linux-gnu", std::env::consts::ARCH);
    let mut build = cc::Build::new();
    build
        .target(&target)
        .host(&target)
        .opt_level(0)
        .debug(false)
        .out_dir(&scratch.0)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .inherit_rustflags(false)
        .std("c99")
        .warnings(true)
        .extra_warnings(true)
        .warnings_into_errors(true);
    build
}

/// `compile` with more compiler arguments (`-fsanitize=leak`, ...), which also name the executable.
fn compile_with(
    program: &str,
    header: Header,
    library: &str,
    link_dir: &Path,
    scratch: &Scratch,
    extra: &[&str],
) -> PathBuf {
    assert!(Path::new(UPSTREAM_HEADER).is_file(), "{UPSTREAM_HEADER} is missing: install Debian's libclfft-dev");
    let mut build = c_compiler(scratch);
    match header {
        Header::Upstream => build.include("/usr/include"),
        Header::Own => build.include(repository().join("include")),
    };
    let exe = scratch.0.join(format!("{program}-{header:?}{}", extra.concat()));
    let output = build
        .get_compiler()
        .to_command()
        .args(extra)
        .arg(repository().join("c-tests").join(format!("{program}.c")))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(link_dir)
        .arg(format!("-l{library}"))
        .args(["-lOpenCL", "-lm"])
        .output()
        .expect("run the C compiler");
    assert!(
        output.status.success(),
        "compiling {program}.c against the {header:?} header failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

/// Runs `exe` with `args`, the dynamic loader looking in `library_dir` first and the kernel cache the Rust
/// tests use; asserts that it succeeds.
fn run(exe: &Path, args: &[&str], library_dir: &Path, extra_env: &[(&str, &str)]) -> Output {
    let cache = std::env::var_os("FFTX_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repository().join("target").join("fftx-test-cache"));
    let output = Command::new(exe)
        .args(args)
        .env("LD_LIBRARY_PATH", library_dir)
        .env("FFTX_CACHE_DIR", cache)
        .envs(extra_env.iter().copied())
        .output()
        .expect("start the C program");
    assert!(
        output.status.success(),
        "{} {args:?} failed ({}):\n{}{}",
        exe.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Builds `program` against both headers, linked with libfftx.so, and runs both builds.
fn passes_with_either_header(program: &str) {
    let scratch = Scratch::new(program);
    let lib = library_dir();
    for header in [Header::Upstream, Header::Own] {
        let output = run(&compile(program, header, "fftx", &lib, &scratch), &[], &lib, &[]);
        print!("{}", String::from_utf8_lossy(&output.stdout));
    }
}

/// Every kernel family of the GPU tuning profile (`c-tests/kernel_families.c`: single-kernel Stockham,
/// four-step, real stages, Rader, Bluestein, the three transposes, a callback, double precision) under
/// Oclgrind's simulator with its race detector, which reports the local-memory races, missing barriers and
/// out-of-bounds accesses PoCL hides: any report fails the test.
#[test]
fn gpu_kernels_pass_oclgrind_race_checks() {
    let oclgrind = Path::new("/usr/bin/oclgrind");
    assert!(oclgrind.is_file(), "{} is missing: install Debian's oclgrind", oclgrind.display());
    let scratch = Scratch::new("kernel_families");
    let lib = library_dir();
    let exe = compile("kernel_families", Header::Own, "fftx", &lib, &scratch);
    let output = Command::new(oclgrind)
        .arg("--data-races")
        .arg(&exe)
        .env("LD_LIBRARY_PATH", &lib)
        .env("FFTX_TUNE", "profile=gpu")
        .env("FFTX_CACHE_DIR", "off")
        .output()
        .expect("run oclgrind");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && stdout.contains("kernel families ok"), "{}:\n{stdout}{stderr}", output.status);
    assert!(stderr.trim().is_empty(), "Oclgrind reported:\n{stderr}");
}

#[test]
fn a_child_forked_after_fftx_ran_gets_a_status_not_a_hang() {
    let scratch = Scratch::new("fork");
    let lib = library_dir();
    let output = run(&compile("fork", Header::Own, "fftx", &lib, &scratch), &[], &lib, &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("fork ok") && stdout.contains("does not survive fork()"), "{stdout}");
}

#[test]
fn error_messages_name_the_call_and_why() {
    let scratch = Scratch::new("error_messages");
    let lib = library_dir();
    let output = run(&compile("error_messages", Header::Own, "fftx", &lib, &scratch), &[], &lib, &[]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("error messages ok"));
}

/// Names of the functions a clFFT header declares with `CLFFTAPI` at the start of a line.
fn declared_functions(header: &str) -> BTreeSet<String> {
    header
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("CLFFTAPI"))
        .filter_map(|declaration| declaration.split('(').next()?.split_whitespace().last())
        .map(str::to_string)
        .collect()
}

/// The symbol names `nm <args> <file>` lists.
fn symbols(args: &[&str], file: &Path) -> BTreeSet<String> {
    let output = Command::new("nm").args(args).arg(file).output().expect("run nm");
    assert!(output.status.success(), "nm {args:?} {} failed", file.display());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().last())
        .map(str::to_string)
        .collect()
}

#[test]
fn abi_checks_pass_against_either_header() {
    let scratch = Scratch::new("abi");
    let lib = library_dir();
    let exe = compile("abi", Header::Upstream, "fftx", &lib, &scratch);
    // Upstream defines clfftInitSetupData as a C99 inline function, so this unoptimised build takes it from
    // the library: the export is what lets it link.
    assert!(symbols(&["-D", "--undefined-only"], &exe).contains("clfftInitSetupData"));
    run(&exe, &[], &lib, &[]);
    run(&compile("abi", Header::Own, "fftx", &lib, &scratch), &[], &lib, &[]);
}

#[test]
fn lifecycle_of_plans_in_every_layout() {
    passes_with_either_header("lifecycle");
}

#[test]
fn wait_lists_and_returned_events() {
    passes_with_either_header("events");
}

#[test]
fn bad_input_gets_clfft_status_codes() {
    passes_with_either_header("bad_input");
}

#[test]
fn callbacks_as_clffts_documentation_writes_them() {
    passes_with_either_header("callbacks");
}

/// A scratch folder where `libclFFT.so` and `libclFFT.so.2` are links to libfftx.so.
fn libclfft_links(name: &str) -> Scratch {
    let scratch = Scratch::new(name);
    let fftx = library_dir().join("libfftx.so");
    for link in ["libclFFT.so", "libclFFT.so.2"] {
        std::os::unix::fs::symlink(&fftx, scratch.0.join(link)).expect("link libclFFT to libfftx.so");
    }
    scratch
}

#[test]
fn runs_in_place_of_libclfft() {
    let scratch = libclfft_links("drop-in");
    let exe = compile("lifecycle", Header::Upstream, "clFFT", &scratch.0, &scratch);

    let ldd = Command::new("ldd").arg(&exe).env("LD_LIBRARY_PATH", &scratch.0).output().expect("run ldd");
    let ldd = String::from_utf8_lossy(&ldd.stdout);
    let resolved = ldd
        .lines()
        .find(|line| line.contains("libclFFT"))
        .unwrap_or_else(|| panic!("the program does not load libclFFT:\n{ldd}"));
    assert!(resolved.contains(&*scratch.0.to_string_lossy()), "libclFFT resolves elsewhere: {resolved}");

    // Only fftx writes `fftx[...]` lines, and only when FFTX_LOG asks for them.
    let output = run(&exe, &[], &scratch.0, &[("FFTX_LOG", "info")]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("fftx[info]"));
}

#[test]
fn exports_every_function_of_the_upstream_header() {
    let upstream = declared_functions(&fs::read_to_string(UPSTREAM_HEADER).expect("read upstream clFFT.h"));
    assert_eq!(upstream.len(), 33, "parsed {upstream:?}");
    let ours = declared_functions(&fs::read_to_string(repository().join("include/clFFT.h")).expect("read clFFT.h"));
    assert_eq!(ours, upstream);

    let exported = symbols(&["-D", "--defined-only"], &library_dir().join("libfftx.so"));
    let missing: Vec<_> = upstream
        .iter()
        .map(String::as_str)
        .chain(["clfftInitSetupData"])
        .filter(|name| !exported.contains(*name))
        .collect();
    assert!(missing.is_empty(), "libfftx.so does not export {missing:?}");
}

/// Builds `c-tests/cltrace.c`, the interposer that keeps a ledger of OpenCL objects, as a preloadable library.
fn interposer(scratch: &Scratch) -> PathBuf {
    preloadable("cltrace", scratch)
}

/// Builds `c-tests/<source>.c` as a library to preload in front of the OpenCL library.
fn preloadable(source: &str, scratch: &Scratch) -> PathBuf {
    let library = scratch.0.join(format!("lib{source}.so"));
    let output = c_compiler(scratch)
        .get_compiler()
        .to_command()
        .args(["-shared", "-fPIC", "-Wno-deprecated-declarations"])
        .arg(repository().join("c-tests").join(format!("{source}.c")))
        .arg("-o")
        .arg(&library)
        .args(["-ldl", "-lpthread"])
        .output()
        .expect("run the C compiler");
    assert!(output.status.success(), "compiling {source}.c failed:\n{}", String::from_utf8_lossy(&output.stderr));
    library
}

/// What cltrace reported about one run: its lines, split into words.
struct Trace(Vec<Vec<String>>);

impl Trace {
    /// The number at the end of the line that starts with `words`.
    fn count(&self, words: &[&str]) -> i64 {
        let line = self
            .0
            .iter()
            .find(|l| l.len() > words.len() && l.iter().zip(words).all(|(a, b)| a == b))
            .unwrap_or_else(|| panic!("no {words:?} in the trace"));
        line[line.len() - 1].parse().expect("a count")
    }

    /// Calls by `who` on objects of `kind`: (created, retained, released).
    fn calls(&self, who: &str, kind: &str) -> (i64, i64, i64) {
        let line = self.0.iter().find(|l| l[..3] == ["calls", who, kind]).expect("a calls line");
        let number = |i: usize| line[i].parse::<i64>().expect("a count");
        (number(4), number(6), number(8))
    }

    /// Start and end of each program build, in nanoseconds.
    fn builds(&self) -> Vec<(i64, i64)> {
        let number = |w: &String| w.parse::<i64>().expect("a time");
        self.0.iter().filter(|l| l[0] == "build").map(|l| (number(&l[1]), number(&l[2]))).collect()
    }
}

const KINDS: [&str; 6] = ["context", "queue", "buffer", "program", "kernel", "event"];

/// Runs `exe` under cltrace and returns its output and the trace.
fn traced(exe: &Path, lib: &Path, cltrace: &Path, env: &[(&str, &str)]) -> (Output, Trace) {
    let report = exe.with_extension("trace");
    let mut all: Vec<(&str, &str)> = vec![
        ("LD_PRELOAD", cltrace.to_str().expect("a UTF-8 path")),
        ("CLTRACE_REPORT", report.to_str().expect("a UTF-8 path")),
    ];
    all.extend_from_slice(env);
    let output = run(exe, &[], lib, &all);
    let text = fs::read_to_string(&report).expect("cltrace's report");
    (output, Trace(text.lines().map(|l| l.split_whitespace().map(str::to_string).collect()).collect()))
}

/// Every OpenCL object the clFFT programs and libfftx.so create is released by the end (clfftTeardown), and
/// libfftx.so keeps no reference to the program's own objects. The cuFFT-style API keeps its default stream
/// (a context and a queue) and compiled programs for the life of the process, like CUDA's primary context;
/// every kernel, buffer and event goes with the plan or allocation that made it, save that shared virtual
/// memory freed with `fftxFree` stays allocated for a while (the last 64 MiB of such frees), so that no host
/// memory takes its address while a stale pointer may still name it: `fftx_example` frees one allocation.
#[test]
fn every_opencl_object_is_released() {
    let scratch = Scratch::new("cltrace");
    let lib = library_dir();
    let cltrace = interposer(&scratch);
    for program in ["lifecycle", "bad_input", "events", "fftx_example", "callbacks"] {
        let exe = compile(program, Header::Own, "fftx", &lib, &scratch);
        let (_, trace) = traced(&exe, &lib, &cltrace, &[]);
        for kind in KINDS {
            let (created, retained, released) = trace.calls("fftx", kind);
            println!(
                "{program}: libfftx.so created {created} {kind}(s), retained {retained}, released {released}; \
                 alive at exit: {} of its own, {} of the program's",
                trace.count(&["alive", "fftx", kind]),
                trace.count(&["alive", "app", kind])
            );
            assert_eq!(trace.count(&["alive", "app", kind]), 0, "{program}: the program's {kind}s");
            assert_eq!(
                trace.count(&["held", kind]),
                trace.count(&["alive", "fftx", kind]),
                "{program}: libfftx.so holds a {kind} it did not create"
            );
            let shared_memory = default_device_has_svm_buffers();
            let process_lifetime = match (program, kind) {
                ("fftx_example", "context" | "queue") => 1,
                ("fftx_example", "buffer") => u32::from(shared_memory) as _,
                ("fftx_example", "program") => created,
                _ => 0,
            };
            assert_eq!(trace.count(&["alive", "fftx", kind]), process_lifetime, "{program}: {kind}s of libfftx.so");
        }
        for kind in ["buffer", "kernel", "event"] {
            assert!(trace.calls("fftx", kind).0 > 0, "{program}: the trace saw no {kind} of libfftx.so");
        }
    }
}

/// Whether `fftxMalloc` gives shared virtual memory on the default device, as the C programs see it.
fn default_device_has_svm_buffers() -> bool {
    fftx::runtime::devmem::default_stream().is_ok_and(|stream| stream.svm_buffers)
}

/// Two threads baking two different plans compile at the same time.
#[test]
fn unrelated_plans_compile_concurrently() {
    let scratch = Scratch::new("concurrent-bake");
    let lib = library_dir();
    let cltrace = interposer(&scratch);
    let exe = compile("concurrent_bake", Header::Own, "fftx", &lib, &scratch);
    let (_, trace) = traced(&exe, &lib, &cltrace, &[("FFTX_CACHE_DIR", "off")]);
    let builds = trace.builds();
    assert_eq!(builds.len(), 2, "one build for each plan: {builds:?}");
    let overlap = builds[0].1.min(builds[1].1) - builds[0].0.max(builds[1].0);
    let longest = builds.iter().map(|(s, e)| e - s).max().unwrap_or(0);
    println!("builds {builds:?}: overlapping for {:.1} ms of {:.1} ms", overlap as f64 / 1e6, longest as f64 / 1e6);
    assert!(overlap > 0, "the two builds ran one after the other: {builds:?}");
}

/// A kernel that fails to compile gets each API's build-failure status, and `FFTX_LOG=error` shows the call,
/// the OpenCL status and the build log.
#[test]
fn a_failed_build_is_reported_with_its_log() {
    let scratch = Scratch::new("build-failure");
    let lib = library_dir();
    let cltrace = interposer(&scratch);
    let exe = compile("build_failure", Header::Own, "fftx", &lib, &scratch);
    let env = [("FFTX_CACHE_DIR", "off"), ("CLTRACE_BREAK_BUILDS", "1"), ("FFTX_LOG", "error")];
    let (output, _) = traced(&exe, &lib, &cltrace, &env);
    let log = String::from_utf8_lossy(&output.stderr);
    for wanted in [
        "fftx[error]: clfftBakePlan:",
        "fftx[error]: fftxPlan1d:",
        "CL_BUILD_PROGRAM_FAILURE",
        "build log",
        "build broken on purpose",
    ] {
        assert!(log.contains(wanted), "no `{wanted}` in the log:\n{log}");
    }
}

/// The C programs of both APIs run under LeakSanitizer without a leak (c-tests/lsan.supp names what PoCL and
/// the ICD loader keep).
#[test]
fn c_programs_leak_nothing() {
    let scratch = Scratch::new("lsan");
    let lib = library_dir();
    let suppressions = repository().join("c-tests/lsan.supp");
    let options = format!("suppressions={}:exitcode=23:print_suppressions=0", suppressions.display());
    for program in
        ["lifecycle", "bad_input", "events", "fftx_example", "clfft_example", "abi", "concurrent_bake", "callbacks"]
    {
        let exe = compile_with(program, Header::Own, "fftx", &lib, &scratch, &["-fsanitize=leak"]);
        let output = run(&exe, &[], &lib, &[("LSAN_OPTIONS", &options)]);
        let log = String::from_utf8_lossy(&output.stderr);
        assert!(!log.contains("LeakSanitizer"), "{program}:\n{log}");
        println!("{program}: no leak under LeakSanitizer");
    }
}

/// A process that bakes plans from empty caches and exits without running them exits cleanly, every program
/// on disk: LLVM's code generator set up its statics in the cache writer's first binary fetch, after fftx's
/// exit handler, and destroyed them at exit under the writer's next compile (a crash, every time, before).
#[test]
fn exit_right_after_cold_bakes_is_clean() {
    let scratch = Scratch::new("exit_after_bakes");
    let lib = library_dir();
    let exe = compile("exit_after_bakes", Header::Own, "fftx", &lib, &scratch);
    let (fftx_cache, pocl_cache) = (scratch.0.join("fftx-cache"), scratch.0.join("pocl-cache"));
    let caches = [("FFTX_CACHE_DIR", fftx_cache.to_str().unwrap()), ("POCL_CACHE_DIR", pocl_cache.to_str().unwrap())];
    run(&exe, &[], &lib, &caches);
    let entries = fs::read_dir(&fftx_cache).expect("the cache folder").flatten();
    assert!(entries.filter(|e| e.path().extension().is_some_and(|x| x == "bin")).count() >= 4);
}

/// `CLFFT_DUMP_PROGRAMS` writes each plan's programs to the current folder, named as clFFT names them.
#[test]
fn dump_programs_writes_the_kernels() {
    let scratch = Scratch::new("dump");
    let lib = library_dir();
    let exe = compile("dump_programs", Header::Upstream, "fftx", &lib, &scratch);
    let folder = scratch.0.join("out");
    fs::create_dir_all(&folder).expect("a folder to dump into");
    let output = Command::new(&exe)
        .current_dir(&folder)
        .env("LD_LIBRARY_PATH", &lib)
        .env("FFTX_CACHE_DIR", repository().join("target").join("fftx-test-cache"))
        .env("FFTX_BUILD_OPTIONS", "-Werror")
        .output()
        .expect("start the C program");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let handles: Vec<String> = String::from_utf8_lossy(&output.stdout).split_whitespace().map(String::from).collect();
    let mut files: Vec<String> = fs::read_dir(&folder)
        .expect("the dump")
        .map(|e| e.expect("an entry").file_name().into_string().expect("a name"))
        .collect();
    files.sort();
    let one = format!("clfft.kernel.Stockham{}.cl", handles[0]);
    assert!(files.contains(&one), "no {one} in {files:?}");
    let two: Vec<&String> =
        files.iter().filter(|f| f.starts_with(&format!("clfft.kernel.Stockham{}_", handles[1]))).collect();
    assert_eq!(two.len(), 2, "the two-pass plan's programs: {files:?}");
    for file in &files {
        let text = fs::read_to_string(folder.join(file)).expect("a dumped program");
        // The options the program built with, FFTX_BUILD_OPTIONS's among them.
        let options = text.lines().next().and_then(|l| l.strip_prefix("/* build options: ")).unwrap_or_default();
        assert!(options.contains("-Werror"), "{file} does not record the build options: {options}");
        assert!(text.contains("__kernel"), "{file} holds no kernel:\n{text}");
    }
}

/// `FFTX_LOG=error` writes one line for every failed call, naming the function and why; without it fftx
/// writes nothing.
#[test]
fn every_failure_is_logged_with_its_reason() {
    let scratch = Scratch::new("log");
    let lib = library_dir();
    let exe = compile("bad_input", Header::Own, "fftx", &lib, &scratch);
    let quiet = run(&exe, &[], &lib, &[]);
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("fftx["), "fftx wrote without FFTX_LOG");
    let output = run(&exe, &[], &lib, &[("FFTX_LOG", "error")]);
    let log = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = log.lines().filter(|l| l.starts_with("fftx[error]: ")).collect();
    for line in &lines {
        let (function, reason) = line["fftx[error]: ".len()..].split_once(": ").expect("function: reason");
        assert!(function.starts_with("clfft") && reason.len() > 8, "{line}");
    }
    for wanted in [
        "clfftGetVersion: major is a null pointer",
        "clfftCreateDefaultPlan: a length is zero",
        "clfftGetPlanBatchSize: no plan with handle 987654321",
        "clfftEnqueueTransform: the input buffer holds 64 bytes; the plan reaches 128",
        "clfftBakePlan: no command queue given",
    ] {
        assert!(log.contains(wanted), "no `{wanted}` in:\n{log}");
    }
    assert!(lines.len() >= 40, "{} failures logged:\n{log}", lines.len());
}

/// `FFTX_LOG=plan` prints each baked plan's execution tree, `kernels` the source and options of each program
/// built, `info` what was chosen and how long it took, `steps` each kernel's time; the topics combine with
/// commas.
#[test]
fn log_topics_show_trees_kernels_and_choices() {
    let scratch = Scratch::new("log-topics");
    let lib = library_dir();
    let exe = compile("clfft_example", Header::Own, "fftx", &lib, &scratch);
    let stderr = |topics: &str| {
        let output = run(&exe, &[], &lib, &[("FFTX_LOG", topics), ("FFTX_CACHE_DIR", "off")]);
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let plan = stderr("plan");
    assert!(plan.contains("fftx[plan]") && plan.contains("Stockham n=1024"), "{plan}");
    assert!(!plan.contains("fftx[kernels]") && !plan.contains("fftx[info]"), "{plan}");
    let both = stderr("kernels,info");
    for wanted in ["fftx[kernels]: building program with options", "__kernel", "fftx[info]: baked in"] {
        assert!(both.contains(wanted), "no `{wanted}` in:\n{both}");
    }
    assert!(!both.contains("fftx[plan]"), "{both}");
    let steps = stderr("steps");
    assert!(
        steps.contains("fftx[steps]: step [0] global [") && steps.contains("] local [") && steps.contains(" ms"),
        "{steps}"
    );
}

/// On a device without double precision (cltrace hides it), double-precision plans get
/// CLFFT_DEVICE_NO_DOUBLE and FFTX_INVALID_DEVICE; single precision runs.
#[test]
fn double_precision_without_fp64() {
    let scratch = Scratch::new("no-fp64");
    let lib = library_dir();
    let cltrace = interposer(&scratch);
    let exe = compile("no_fp64", Header::Own, "fftx", &lib, &scratch);
    let (output, _) = traced(&exe, &lib, &cltrace, &[("CLTRACE_NO_FP64", "1"), ("FFTX_LOG", "error")]);
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(log.contains("has no double precision"), "{log}");
}

/// The no-allocation mode's memory bound, seen from outside: `nomemalloc.c`, a clFFT application, runs with
/// `CLFFT_REQUEST_LIB_NOMEMALLOC=1` and `alloc_probe.c` preloaded in front of the OpenCL library, counting
/// every `clCreateBuffer` during bake and enqueue. The program fails unless each transform (2^20 to 2^24
/// points, both precisions, both layouts, in and out of place, one with callbacks) reports no scratch,
/// allocates at most 1% of its data in all and is right; a control with the mode off must show its scratch
/// buffer to the probe.
#[test]
fn no_allocation_mode_stays_under_one_percent_of_the_data() {
    let scratch = Scratch::new("nomemalloc");
    let lib = library_dir();
    let probe = preloadable("alloc_probe", &scratch);
    let exe = compile("nomemalloc", Header::Own, "fftx", &lib, &scratch);
    let preload = ("LD_PRELOAD", probe.to_str().expect("a UTF-8 path"));
    let output = run(&exe, &[], &lib, &[preload, ("CLFFT_REQUEST_LIB_NOMEMALLOC", "1")]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.contains(": tmp 0,")).count(), 6, "{stdout}");
}
