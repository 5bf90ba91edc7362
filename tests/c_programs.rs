//! The C programs under `c-tests/`, compiled with the compiler and flags the `cc` crate picks (C99, warnings
//! as errors) and run against the libfftx.so of this build:
//! - each compiles against Debian's upstream `clFFT.h` (the ABI proof) and against ours in `include/`;
//! - `lifecycle.c`, built as a clFFT application (`-lclFFT`), runs with `libclFFT.so` resolving to libfftx.so
//!   (Debian's prebuilt `clFFT-client` runs on an installed fftx in `tests/install.rs`);
//! - libfftx.so exports every function upstream's `clFFT.h` declares, and ours declares the same ones.

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
    assert!(Path::new(UPSTREAM_HEADER).is_file(), "{UPSTREAM_HEADER} is missing: install Debian's libclfft-dev");
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
    match header {
        Header::Upstream => build.include("/usr/include"),
        Header::Own => build.include(repository().join("include")),
    };
    let exe = scratch.0.join(format!("{program}-{header:?}"));
    let output = build
        .get_compiler()
        .to_command()
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
        run(&compile(program, header, "fftx", &lib, &scratch), &[], &lib, &[]);
    }
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
