//! `scripts/install` into a scratch prefix, then what an installed fftx must do:
//! - Debian's prebuilt `clFFT-client` (built against the real clFFT) passes its own check on fftx through
//!   `LD_LIBRARY_PATH`, over c2c, r2c and c2r in 1D, 2D and 3D, single and double, in and out of place,
//!   planar and interleaved;
//! - a cuFFT-style program built with `pkg-config --cflags --libs fftx` runs;
//! - a clFFT program built with `-lclFFT` against the installed compatibility names runs on fftx;
//! - CMake's `find_package(fftx)` gives a target a program links with;
//! - random clFFT plans give the same statuses and results on fftx as on Debian's clFFT, and so do the calling
//!   patterns of real clFFT programs;
//! - Debian's `ufo-filters` tomography pipelines, whose `fft` and `ifft` tasks call clFFT, give the same images
//!   on fftx as on Debian's clFFT.

use once_cell::sync::Lazy;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The libfftx.so built with this test binary: cargo leaves a fresh cdylib in `deps/` next to the binary when
/// it builds the library only for tests, and `target/<profile>/` may hold an older one.
fn built_library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe.parent().expect("the test binary's folder");
    let found =
        [deps, deps.parent().unwrap_or(deps)].into_iter().map(|dir| dir.join("libfftx.so")).find(|lib| lib.is_file());
    found.unwrap_or_else(|| panic!("no libfftx.so in or above {}", deps.display()))
}

fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("install-{}", std::process::id()))
}

/// The prefix `scripts/install` filled, once per test run.
static PREFIX: Lazy<PathBuf> = Lazy::new(|| {
    let prefix = scratch().join("prefix");
    let output = Command::new(repository().join("scripts/install"))
        .arg("--prefix")
        .arg(&prefix)
        .arg("--library")
        .arg(built_library())
        .output()
        .expect("run scripts/install");
    assert!(output.status.success(), "scripts/install failed:\n{}", String::from_utf8_lossy(&output.stderr));
    prefix
});

fn lib_dir() -> PathBuf {
    PREFIX.join("lib")
}

/// The tests' kernel cache.
fn test_cache() -> PathBuf {
    std::env::var_os("FFTX_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repository().join("target").join("fftx-test-cache"))
}

/// Runs a program with the installed library first on the loader's path and the test kernel cache.
fn run(program: &Path, args: &[&str], extra_env: &[(&str, &str)]) -> Output {
    let output = Command::new(program)
        .args(args)
        .env("LD_LIBRARY_PATH", lib_dir())
        .env("FFTX_CACHE_DIR", test_cache())
        .envs(extra_env.iter().copied())
        .output()
        .expect("start the program");
    assert!(
        output.status.success(),
        "{} {args:?} failed ({}):\n{}{}",
        program.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Compiles `c-tests/<name>.c` into the scratch folder with `flags` after the source; returns the program.
fn compile(name: &str, flags: &[String], env: &[(&str, &Path)]) -> PathBuf {
    let exe = scratch().join(name);
    fs::create_dir_all(scratch()).expect("scratch folder");
    let output = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
        .arg(repository().join("c-tests").join(format!("{name}.c")))
        .arg("-o")
        .arg(&exe)
        .args(flags)
        .envs(env.iter().copied())
        .output()
        .expect("run cc");
    assert!(output.status.success(), "compiling {name}.c failed:\n{}", String::from_utf8_lossy(&output.stderr));
    exe
}

fn pkg_config(args: &[&str]) -> Vec<String> {
    let output = Command::new("pkg-config")
        .args(args)
        .env("PKG_CONFIG_PATH", lib_dir().join("pkgconfig"))
        .output()
        .expect("run pkg-config");
    assert!(output.status.success(), "pkg-config {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).split_whitespace().map(str::to_string).collect()
}

/// `readelf -d` of a file: its dynamic section (SONAME, NEEDED, RUNPATH).
fn dynamic_section(file: &Path) -> String {
    let output = Command::new("readelf").arg("-d").arg(file).output().expect("run readelf (binutils)");
    assert!(output.status.success(), "readelf -d {}", file.display());
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The section names `readelf -S` lists for a file.
fn sections(file: &Path) -> String {
    let output = Command::new("readelf").arg("-S").arg(file).output().expect("run readelf (binutils)");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn installs_versioned_libraries_headers_and_packages() {
    let lib = lib_dir();
    let version = env!("CARGO_PKG_VERSION");
    for (name, target) in [
        ("libfftx.so", "libfftx.so.0".to_string()),
        ("libfftx.so.0", format!("libfftx.so.{version}")),
        ("libclFFT.so", "libclFFT.so.2".into()),
        ("libclFFT.so.2", "libclFFT.so.2.12.2".into()),
    ] {
        assert_eq!(fs::read_link(lib.join(name)).expect("a link"), Path::new(&target), "{name}");
    }
    for (file, soname) in
        [(format!("libfftx.so.{version}"), "libfftx.so.0"), ("libclFFT.so.2.12.2".into(), "libclFFT.so.2")]
    {
        let file = lib.join(file);
        assert!(dynamic_section(&file).contains(&format!("Library soname: [{soname}]")), "{}", file.display());
        // Stripped, with the debug information apart and named.
        let names = sections(&file);
        assert!(!names.contains(".debug_info") && names.contains(".gnu_debuglink"), "{}", file.display());
        assert!(fs::metadata(&file).unwrap().len() < fs::metadata(built_library()).unwrap().len());
    }
    assert!(sections(&lib.join(format!(".debug/libfftx.so.{version}.debug"))).contains(".debug_info"));
    for header in ["fftx.h", "clFFT.h", "clFFT.version.h", "clFFT_fftx.h"] {
        assert!(PREFIX.join("include").join(header).is_file(), "{header}");
    }
    assert!(lib.join("cmake/fftx/fftxConfig.cmake").is_file());
    assert!(lib.join("cmake/clFFT/clFFTConfig.cmake").is_file());
    assert_eq!(pkg_config(&["--modversion", "fftx"]), [version]);
    assert_eq!(pkg_config(&["--modversion", "clFFT"]), ["2.12.2"]);
    let libs = pkg_config(&["--libs", "clFFT"]);
    let rpath = format!("-Wl,-rpath,{}", lib.display());
    assert!(libs.contains(&"-lclFFT".to_string()) && libs.contains(&rpath), "{libs:?}");
}

#[test]
fn uninstall_removes_what_install_put() {
    let prefix = scratch().join("uninstalled");
    let install = |args: &[&str]| {
        let output = Command::new(repository().join("scripts/install"))
            .args(args)
            .arg("--prefix")
            .arg(&prefix)
            .output()
            .expect("run scripts/install");
        assert!(output.status.success(), "scripts/install {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    };
    install(&["--library", &built_library().to_string_lossy()]);
    assert!(prefix.join("lib/libclFFT.so.2").exists());
    install(&["--uninstall"]);
    let left: Vec<_> = walk(&prefix);
    assert!(left.is_empty(), "left after uninstall: {left:?}");
}

/// Every file and link under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() && !path.is_symlink() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

#[test]
fn cufft_style_program_builds_with_pkg_config() {
    let mut flags = pkg_config(&["--cflags", "--libs", "fftx"]);
    flags.push("-lm".into());
    let exe = compile("fftx_example", &flags, &[]);
    assert!(dynamic_section(&exe).contains("Shared library: [libfftx.so.0]"));
    // The rpath finds the installed library without LD_LIBRARY_PATH.
    let output = Command::new(&exe).env_remove("LD_LIBRARY_PATH").env("FFTX_CACHE_DIR", test_cache()).output();
    let output = output.expect("start the program");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("round trip: largest error"));
}

/// A clFFT program built with the installed `clFFT.pc` records `libclFFT.so.2`, as one built against clFFT does,
/// and its rpath loads fftx's from the prefix rather than Debian's clFFT.
#[test]
fn clfft_program_built_with_pkg_config_runs_on_fftx() {
    let mut flags = pkg_config(&["--cflags", "--libs", "clFFT"]);
    flags.push("-lm".into());
    let exe = compile("clfft_example", &flags, &[]);
    let output = runs_on_fftx_through_its_rpath(&exe);
    assert!(String::from_utf8_lossy(&output.stdout).contains("status 0, X[0] = 1536"));
}

/// Runs a clFFT program that records `libclFFT.so.2` without `LD_LIBRARY_PATH` and checks that fftx ran it
/// (only fftx writes `fftx[...]` lines): its rpath leads to the prefix, not to Debian's clFFT.
fn runs_on_fftx_through_its_rpath(exe: &Path) -> Output {
    assert!(dynamic_section(exe).contains("Shared library: [libclFFT.so.2]"));
    let output = Command::new(exe)
        .env_remove("LD_LIBRARY_PATH")
        .env("FFTX_CACHE_DIR", test_cache())
        .env("FFTX_LOG", "info")
        .output()
        .expect("start the program");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("fftx[info]"), "the program ran on another clFFT");
    output
}

/// The shell lines of the README's ```sh block that holds `marker`.
fn readme_block(marker: &str) -> Vec<String> {
    let readme = fs::read_to_string(repository().join("README.md")).expect("README.md");
    let blocks: Vec<&str> = readme.split("```").collect();
    let block = blocks
        .iter()
        .skip(1)
        .step_by(2)
        .find(|b| b.starts_with("sh\n") && b.contains(marker))
        .unwrap_or_else(|| panic!("no sh block with {marker:?} in README.md"));
    block.lines().skip(1).filter(|l| !l.trim().is_empty()).map(str::to_string).collect()
}

/// The README's install, clFFT build and uninstall lines, as written, in a scratch home: `make install` into
/// `$HOME/.local`, a clFFT program built with the installed `clFFT.pc` that runs on fftx without
/// `LD_LIBRARY_PATH`, and `make uninstall`, which leaves nothing behind.
#[test]
fn readme_install_and_build_lines_work_as_written() {
    let home = scratch().join("readme-home");
    let work = scratch().join("readme-work");
    let _ = fs::remove_dir_all(&home);
    fs::create_dir_all(&home).expect("a scratch home");
    fs::create_dir_all(&work).expect("a scratch folder");
    fs::copy(repository().join("c-tests/clfft_example.c"), work.join("app.c")).expect("copy the example");
    // cargo and rustup keep their state under the real home.
    let real_home = std::env::var("HOME").expect("HOME");
    let cargo_home = std::env::var("CARGO_HOME").unwrap_or_else(|_| format!("{real_home}/.cargo"));
    let rustup_home = std::env::var("RUSTUP_HOME").unwrap_or_else(|_| format!("{real_home}/.rustup"));
    let shell = |dir: &Path, lines: &[String]| {
        let script = format!("set -e\n{}\n", lines.join("\n"));
        let output = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(dir)
            .env("HOME", &home)
            .env("CARGO_HOME", &cargo_home)
            .env("RUSTUP_HOME", &rustup_home)
            .env_remove("LD_LIBRARY_PATH")
            .env_remove("PKG_CONFIG_PATH")
            .env("FFTX_CACHE_DIR", test_cache())
            .output()
            .expect("run bash");
        assert!(
            output.status.success(),
            "{script} failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    };
    let install = readme_block("make install");
    let (make_install, make_uninstall) = (&install[..1], &install[1..]);
    assert!(make_install[0].starts_with("make install") && make_uninstall[0].starts_with("make uninstall"));
    shell(repository(), make_install);
    assert!(home.join(".local/lib/libclFFT.so.2").exists());
    shell(&work, &readme_block("pkg-config --cflags --libs clFFT"));
    let output = shell(&work, &["FFTX_LOG=info ./app".to_string()]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("fftx[info]"), "app ran on another clFFT");
    assert!(String::from_utf8_lossy(&output.stdout).contains("status 0, X[0] = 1536"));
    shell(repository(), make_uninstall);
    let left = walk(&home.join(".local"));
    assert!(left.is_empty(), "left after make uninstall: {left:?}");
}

/// Builds a CMake project linking `target` after `find_package(package)` with the prefix on CMAKE_PREFIX_PATH.
fn cmake_builds(name: &str, source: &str, find: &str, target: &str) -> PathBuf {
    let project = scratch().join(format!("cmake-{name}"));
    fs::create_dir_all(&project).expect("project folder");
    fs::copy(repository().join("c-tests").join(source), project.join("example.c")).expect("copy the example");
    fs::write(
        project.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.13)\nproject(example C)\n{find}\n\
             add_executable(example example.c)\ntarget_link_libraries(example PRIVATE {target} m)\n"
        ),
    )
    .expect("write CMakeLists.txt");
    let build = project.join("build");
    for args in [
        vec![
            "-S".to_string(),
            project.display().to_string(),
            "-B".into(),
            build.display().to_string(),
            format!("-DCMAKE_PREFIX_PATH={}", PREFIX.display()),
        ],
        vec!["--build".into(), build.display().to_string()],
    ] {
        let output = Command::new("cmake").args(&args).output().expect("run cmake (install Debian's cmake)");
        assert!(
            output.status.success(),
            "cmake {args:?}:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    build.join("example")
}

#[test]
fn cmake_finds_the_package() {
    let exe = cmake_builds("fftx", "fftx_example.c", "find_package(fftx 0.1 REQUIRED)", "fftx::fftx");
    run(&exe, &[], &[]);
}

/// `find_package(clFFT)` finds fftx where the prefix comes first, with clFFT's target and variables.
#[test]
fn cmake_finds_fftx_as_clfft() {
    let find = "find_package(clFFT 2.12 REQUIRED)\ninclude_directories(${CLFFT_INCLUDE_DIRS})";
    let exe = cmake_builds("clfft", "clfft_example.c", find, "${CLFFT_LIBRARIES}");
    runs_on_fftx_through_its_rpath(&exe);
}

/// Runs Debian's clFFT-client with `layouts` and `precision` over 1D, 2D and 3D, in and out of place
/// (where the layouts allow in place), and checks that its own exact check passes on fftx.
fn client_passes(layouts: &[(u8, u8)]) {
    let client = Path::new("/usr/bin/clFFT-client");
    assert!(client.is_file(), "{} is missing: install Debian's clfft-client", client.display());
    let sizes: [&[&str]; 3] =
        [&["-x", "256", "-b", "2"], &["-x", "32", "-y", "24"], &["-x", "16", "-y", "6", "-z", "10"]];
    for &(input, output) in layouts {
        let hermitian_planar = input == 4 || output == 4;
        for size in sizes {
            for precision in [None, Some("--double")] {
                for out_of_place in [false, true] {
                    // Planar and interleaved complex data cannot share storage, nor can planar Hermitian and real.
                    let mixed_complex = input != output && input <= 2 && output <= 2;
                    if !out_of_place && (mixed_complex || hermitian_planar) {
                        continue;
                    }
                    let mut args: Vec<&str> = size.to_vec();
                    let (i, o) = (input.to_string(), output.to_string());
                    args.extend(["--inLayout", &i, "--outLayout", &o]);
                    args.extend(precision);
                    if out_of_place {
                        args.push("-o");
                    }
                    // Debian's real clFFT is installed too: only fftx writes `fftx[...]` lines.
                    let result = run(client, &args, &[("FFTX_LOG", "info")]);
                    assert!(String::from_utf8_lossy(&result.stderr).contains("fftx[info]"), "{args:?} ran on clFFT");
                    let stdout = String::from_utf8_lossy(&result.stdout);
                    assert!(
                        stdout.contains("Internal Client Test *****PASS*****"),
                        "LD_LIBRARY_PATH={} clFFT-client {}:\n{stdout}",
                        lib_dir().display(),
                        args.join(" ")
                    );
                }
            }
        }
    }
}

#[test]
fn debian_clfft_client_passes_prime_lengths() {
    // Its check is exact: constant input must give exact zeros off bin 0, which prime butterflies meet too.
    for args in [&["-x", "11"][..], &["-x", "13", "--double", "-o"], &["-x", "5", "-y", "7", "-z", "12", "-o"]] {
        let result = run(Path::new("/usr/bin/clFFT-client"), args, &[("FFTX_LOG", "info")]);
        assert!(String::from_utf8_lossy(&result.stderr).contains("fftx[info]"), "{args:?} ran on clFFT");
        let stdout = String::from_utf8_lossy(&result.stdout);
        assert!(stdout.contains("Internal Client Test *****PASS*****"), "clFFT-client {}:\n{stdout}", args.join(" "));
    }
}

#[test]
fn debian_clfft_client_passes_complex_transforms() {
    client_passes(&[(1, 1), (2, 2), (1, 2)]);
}

#[test]
fn debian_clfft_client_passes_real_to_complex() {
    client_passes(&[(5, 3), (5, 4)]);
}

#[test]
fn debian_clfft_client_passes_complex_to_real() {
    client_passes(&[(3, 5), (4, 5)]);
}

/// Runs a `ufo-launch` pipeline (Debian's ufo-filters: its `fft`, `filter` and `ifft` tasks, as tomography
/// reconstructions use them) from a `width` x `height` image of random floats through `tasks`, on Debian's clFFT
/// and on fftx, and checks that the two images agree within 1e-5 of the largest value.
fn ufo_pipeline_agrees(name: &str, width: usize, height: usize, tasks: &str) {
    let launch = Path::new("/usr/bin/ufo-launch");
    assert!(launch.is_file(), "{} is missing: install Debian's ufo-filters and libufo-bin", launch.display());
    let dir = scratch().join(format!("ufo-{name}"));
    fs::create_dir_all(&dir).expect("the pipeline's folder");
    let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ (width * height) as u64;
    let image: Vec<u8> = (0..width * height)
        .flat_map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32).to_le_bytes()
        })
        .collect();
    let input = dir.join("in.raw");
    fs::write(&input, image).expect("the input image");
    let run_on = |library: &str| -> Vec<f32> {
        let output = dir.join(format!("{library}.raw"));
        let pipeline = format!(
            "read path={} raw-width={width} raw-height={height} raw-bitdepth=32 ! {tasks} ! write filename={}",
            input.display(),
            output.display()
        );
        let mut command = Command::new(launch);
        command.args(pipeline.split_whitespace()).env("UFO_DEVICE_TYPE", "cpu");
        if library == "fftx" {
            command.env("LD_LIBRARY_PATH", lib_dir()).env("FFTX_CACHE_DIR", test_cache()).env("FFTX_LOG", "info");
        } else {
            command.env_remove("LD_LIBRARY_PATH");
        }
        let result = command.output().expect("start ufo-launch");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(result.status.success(), "ufo-launch {pipeline} on {library} failed ({}):\n{stderr}", result.status);
        // Debian's real clFFT is installed too: only fftx writes `fftx[...]` lines.
        assert_eq!(stderr.contains("fftx[info]"), library == "fftx", "ufo-launch {pipeline} ran on the wrong library");
        let bytes = fs::read(&output).expect("the output image");
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
    };
    let (clfft, fftx) = (run_on("clfft"), run_on("fftx"));
    assert_eq!(clfft.len(), fftx.len(), "{name}: images of different sizes");
    let top = clfft.iter().fold(0f32, |m, v| m.max(v.abs()));
    let worst = clfft.iter().zip(&fftx).fold(0f32, |m, (a, b)| m.max((a - b).abs()));
    assert!(top > 0.0 && worst <= 1e-5 * top, "{name} ({tasks}): fftx differs from clFFT by {worst} of {top}");
}

#[test]
fn ufo_filters_1d_pipelines_agree_with_debians_clfft() {
    ufo_pipeline_agrees("1d", 1024, 64, "fft dimensions=1 ! ifft dimensions=1");
    ufo_pipeline_agrees("1d-crop", 600, 40, "fft dimensions=1 ! ifft dimensions=1 crop-width=600");
    ufo_pipeline_agrees("1d-filter", 1000, 64, "fft dimensions=1 ! filter ! ifft dimensions=1 crop-width=1000");
}

#[test]
fn ufo_filters_2d_pipelines_agree_with_debians_clfft() {
    ufo_pipeline_agrees("2d", 512, 256, "fft dimensions=2 ! ifft dimensions=2");
    ufo_pipeline_agrees(
        "2d-filter",
        600,
        200,
        "fft dimensions=2 ! filter ! ifft dimensions=2 crop-width=600 crop-height=200",
    );
}

/// Random clFFT plans (`c-tests/clfft_differential.c`: 1D-3D c2c, r2c and c2r, both precisions, layouts,
/// placements, batches, strides, scales, transposed results, four long 1D lengths) give the same statuses and
/// results, unwritten memory included, on Debian's clFFT 2.12 and on fftx, save where clFFT refuses a transposed
/// result that fftx computes; and the calling patterns of real clFFT programs (`c-tests/clfft_calling_patterns.c`)
/// compute the right result on fftx wherever they do on clFFT (`scripts/clfft-differential`).
#[test]
fn random_plans_and_calling_patterns_agree_with_debians_clfft() {
    let output = Command::new(repository().join("scripts/clfft-differential"))
        .args(["40", "2"])
        .env("FFTX_LIB", built_library())
        .env("FFTX_CACHE_DIR", test_cache())
        .output()
        .expect("run scripts/clfft-differential");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success()
            && stdout.contains("0 of 40 plans differ")
            && stdout.lines().any(|l| l.starts_with("0 of ") && l.ends_with(" calling patterns differ")),
        "scripts/clfft-differential 40 2 ({}):\n{stdout}{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}
