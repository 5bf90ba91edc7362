//! On PoCL, fftx's own programs build with `kernels/builtins.cl` in place of clang's builtin header
//! (`runtime/cache.rs`, `OWN_BUILTINS`). The tests run with `FFTX_OWN_BUILTINS=strict`, so a builtin missing
//! from the file fails whichever test builds a program calling it from source; but the disk cache spares
//! the programs earlier runs built. Here the disk cache is off: the kernels of the CPU profile (leaves,
//! four-step, multidimensional, planar, Bluestein, transposed output, real in and out of place, the
//! transpose API, the out-of-core passes) all build from source, and none may need the full header.

mod common;
#[allow(dead_code)]
mod transpose_cases;
use common::*;
use fftx::codegen::slab_twiddle::SlabTwiddle;
use fftx::runtime::cache;
use fftx::runtime::{device_info, Context, Kernel};
use fftx::types::Precision;

fn device() -> std::sync::Arc<fftx::runtime::DeviceInfo> {
    device_info(ENV.device.as_core().as_raw() as _).expect("device facts")
}

/// The test's name, which it runs again in a child process with the disk cache off: the cache directory is
/// read once per process, at its first build, and setting it while other threads may read the environment is
/// unsafe.
const NAME: &str = "every_kind_of_kernel_builds_with_fftxs_own_builtin_declarations";

#[test]
fn every_kind_of_kernel_builds_with_fftxs_own_builtin_declarations() {
    if std::env::var("FFTX_CACHE_DIR").as_deref() != Ok("off") {
        let exe = std::env::current_exe().expect("the test binary");
        let status = std::process::Command::new(exe)
            .args(["--exact", NAME, "--nocapture", "--test-threads=1"])
            .env("FFTX_CACHE_DIR", "off")
            .status()
            .expect("the test binary runs");
        assert!(status.success(), "{NAME} with FFTX_CACHE_DIR=off: {status}");
        return;
    }
    if !device().pocl {
        eprintln!("not PoCL: fftx builds with the driver's builtin header there");
        return;
    }
    let before = cache::stats();
    for p in [Prec::Single, Prec::Double] {
        for case in [
            Case::new(&[64]).batch(16).precision(p),
            Case::new(&[1000]).batch(9).precision(p).backward(),
            Case::new(&[1 << 16]).precision(p),
            Case::new(&[28, 64]).batch(3).precision(p).planar(true, false),
            Case::new(&[8, 8, 8]).precision(p).in_place(),
            Case::new(&[4099]).precision(p),
            Case::new(&[64, 64]).precision(p).transposed(),
        ] {
            let rmse = case.run();
            let limit = if case.lengths == [4099] { bluestein_tolerance(p) } else { tolerance(p) };
            assert!(rmse <= limit, "rmse {rmse:.3e} for {case:?}");
        }
        for dir in [RealDir::R2C, RealDir::C2R] {
            for case in [
                RealCase::new(&[64], dir).batch(16).precision(p),
                RealCase::new(&[1000], dir).batch(4).precision(p).planar(),
                RealCase::new(&[27], dir).batch(5).precision(p).in_place(),
                RealCase::new(&[28, 64], dir).batch(5).precision(p),
            ] {
                let rmse = case.run();
                assert!(rmse <= tolerance(p), "rmse {rmse:.3e} for {case:?}");
            }
        }
    }
    for precision in [Prec::Single, Prec::Double] {
        for (rows, cols, in_place) in [(64, 64, true), (32, 64, true), (48, 80, false)] {
            transpose_cases::passes(transpose_cases::Shape {
                precision,
                in_place,
                ..transpose_cases::shape(rows, cols, None)
            });
        }
    }
    // The out-of-core passes run only past the device's memory: their program is built here alone.
    let context = Context::create(device().raw()).expect("a context");
    for precision in [Precision::Single, Precision::Double] {
        let source = SlabTwiddle::real(1 << 12, precision).source();
        let program = cache::program(&context, &device(), source.text()).expect("the twiddle pass builds");
        Kernel::create(&program, source.entry).expect("its kernel");
        Kernel::create(&program, SlabTwiddle::HERMITIAN_ENTRY).expect("the Hermitian pass");
    }
    let after = cache::stats();
    assert!(after.source_builds > before.source_builds + 20, "{before:?} -> {after:?}");
    assert_eq!(after.full_header_rebuilds, before.full_header_rebuilds, "{after:?}");
}
