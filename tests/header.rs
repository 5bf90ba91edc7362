//! `include/fftx.h` is cbindgen's output for the cuFFT-style API (`cbindgen.toml`). This regenerates it and
//! fails when the checked-in copy differs (`FFTX_UPDATE_HEADER=1` rewrites it instead), and compiles it alone as
//! C to show it needs nothing but OpenCL's header and declares none of clFFT's names.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The sources whose exports make up the header; `transpose.rs` joins once it exists.
fn sources() -> Vec<PathBuf> {
    ["src/api/fftx.rs", "src/api/transpose.rs"].iter().map(|p| repository().join(p)).filter(|p| p.is_file()).collect()
}

fn generate() -> String {
    let config = cbindgen::Config::from_file(repository().join("cbindgen.toml")).expect("read cbindgen.toml");
    let mut builder = cbindgen::Builder::new().with_config(config);
    for source in sources() {
        builder = builder.with_src(source);
    }
    let mut text = Vec::new();
    builder.generate().expect("cbindgen").write(&mut text);
    String::from_utf8(text).expect("cbindgen writes UTF-8")
}

#[test]
fn checked_in_header_is_current() {
    let path = repository().join("include/fftx.h");
    let fresh = generate();
    if std::env::var_os("FFTX_UPDATE_HEADER").is_some() {
        std::fs::write(&path, &fresh).expect("write include/fftx.h");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "include/fftx.h is stale: run `FFTX_UPDATE_HEADER=1 cargo test --release --test header` and commit it"
    );
}

/// Preprocesses and compiles a file that includes only fftx.h; returns the preprocessed text.
fn compile_alone(language: &str, standard: &str) -> String {
    let run = |extra: &[&str]| {
        let mut child = Command::new("cc")
            .args(["-x", language, standard, "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
            .arg(repository().join("include"))
            .args(extra)
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run cc");
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"#include <fftx.h>\n#include <fftx.h>\n")
            .expect("feed cc");
        let output = child.wait_with_output().expect("wait for cc");
        assert!(output.status.success(), "{language} {standard}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    run(&["-fsyntax-only"]);
    run(&["-E"])
}

#[test]
fn header_compiles_alone_without_clfft() {
    for (language, standard) in [("c", "-std=c99"), ("c", "-std=c11"), ("c++", "-std=c++11")] {
        let text = compile_alone(language, standard);
        assert!(text.contains("fftxExecC2C"), "the header declares the API");
        assert!(!text.to_lowercase().contains("clfft"), "fftx.h pulls in clFFT names");
    }
}
