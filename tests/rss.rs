//! 10,000 create/bake/destroy cycles through each C API leave the resident set where it was (growth under
//! 10 MB): nothing a plan holds outlives it. A test binary of its own, so no other test moves the figure.

mod common;

use common::{check, context_ptr, queue_ptr, ENV};
use fftx::api::clfft::*;
use fftx::api::fftx::fftxResult_t::*;
use fftx::api::fftx::*;
use std::ptr;
use std::time::Instant;

const CYCLES: usize = 10_000;
const LIMIT_BYTES: i64 = 10 << 20;

/// The resident set of this process, from /proc.
fn resident_bytes() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: i64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kib * 1024
}

/// Runs `cycle(i)` for a warm-up (caches and allocator pools fill), then `CYCLES` times, and returns the
/// growth of the resident set over the measured cycles.
fn growth(what: &str, cycle: impl Fn(usize)) -> i64 {
    (0..200).for_each(&cycle);
    let before = resident_bytes();
    let started = Instant::now();
    (0..CYCLES).for_each(&cycle);
    let grown = resident_bytes() - before;
    println!(
        "{what}: {CYCLES} create/bake/destroy cycles in {:.1} s, resident set {:.1} MB -> {:.1} MB ({:+.2} MB)",
        started.elapsed().as_secs_f64(),
        before as f64 / 1e6,
        (before + grown) as f64 / 1e6,
        grown as f64 / 1e6
    );
    grown
}

#[test]
fn create_bake_destroy_cycles_keep_the_resident_set_flat() {
    once_cell::sync::Lazy::force(&ENV);
    // One-kernel, two-pass and multi-dimensional plans, in turn.
    let shapes: [&[usize]; 3] = [&[64], &[8192], &[12, 10]];
    let clfft = growth("clFFT API", |i| {
        let lengths = shapes[i % shapes.len()];
        let mut plan = 0;
        let mut queue = queue_ptr();
        unsafe {
            check(
                clfftCreateDefaultPlan(&mut plan, context_ptr(), lengths.len() as clfftDim, lengths.as_ptr()),
                "create",
            );
            check(clfftBakePlan(plan, 1, &mut queue, None, ptr::null_mut()), "bake");
            check(clfftDestroyPlan(&mut plan), "destroy");
        }
    });
    let fftx = growth("cuFFT-style API", |i| {
        let n = [64, 8192, 120][i % 3];
        let mut plan = 0;
        assert_eq!(unsafe { fftxPlan1d(&mut plan, n, fftxType_t::FFTX_C2C as fftxType, 1) }, FFTX_SUCCESS);
        assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
    });
    assert!(clfft < LIMIT_BYTES, "the clFFT API grew the resident set by {clfft} bytes");
    assert!(fftx < LIMIT_BYTES, "the cuFFT-style API grew the resident set by {fftx} bytes");
}
