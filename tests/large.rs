//! Large 1D transforms. CI checks 2^24 points in both precisions, in and out of place, with and without the
//! no-allocation mode. The largest sizes (2^26 and 2^27 single points, 512 MiB and 1 GiB of data, several
//! GiB of host memory for the reference) are ignored by default: `cargo test --release --test large --
//! --ignored` runs them.

mod common;
use common::*;

fn checked(case: Case) {
    let started = std::time::Instant::now();
    let rmse = case.run();
    let place = if case.in_place { "in place" } else { "out of place" };
    let mode = if case.no_mem_alloc == Some(true) { ", no scratch" } else { "" };
    println!(
        "{:?} {:?} {place}{mode}: rmse {rmse:.2e} (case run in {:.1} s)",
        case.lengths,
        case.precision,
        started.elapsed().as_secs_f64()
    );
    assert!(rmse <= tolerance(case.precision), "rmse {rmse:.3e} for {case:?}");
}

#[test]
fn sixteen_million_points() {
    for p in [Prec::Single, Prec::Double] {
        checked(Case::new(&[1 << 24]).precision(p));
        checked(Case::new(&[1 << 24]).precision(p).in_place());
    }
}

#[test]
fn sixteen_million_points_without_scratch() {
    for p in [Prec::Single, Prec::Double] {
        checked(Case::new(&[1 << 24]).precision(p).in_place().no_mem_alloc(true));
    }
}

/// Column passes whose transforms span 16 MiB or more carry 16 single-precision lanes on CPUs (`kernel_shape.rs`).
#[test]
fn column_passes_spanning_sixteen_mebibytes() {
    checked(Case::new(&[2048, 2048]));
    checked(Case::new(&[2048, 2048]).in_place().backward());
    checked(Case::new(&[1 << 22]).in_place());
    for dir in [RealDir::R2C, RealDir::C2R] {
        let case = RealCase::new(&[2048, 2048], dir);
        let rmse = case.run();
        assert!(rmse <= tolerance(case.precision), "rmse {rmse:.3e} for {case:?}");
    }
}

#[test]
#[ignore = "512 MiB of device data and about 5 GiB of host memory; run with --ignored"]
fn sixty_seven_million_points() {
    checked(Case::new(&[1 << 26]).in_place());
    checked(Case::new(&[1 << 26]).in_place().no_mem_alloc(true));
    checked(Case::new(&[1 << 26]).no_mem_alloc(true));
}

#[test]
#[ignore = "1 GiB of device data and about 9 GiB of host memory; run with --ignored"]
fn one_gibibyte_in_place() {
    checked(Case::new(&[1 << 27]).in_place().no_mem_alloc(true));
    checked(Case::new(&[1 << 27]).in_place());
}
