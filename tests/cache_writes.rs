//! A bake leaves its programs' disk-cache entries (all but the process's first) to a thread of their own
//! (fetching a program's binary makes PoCL compile each kernel once more, up to a second a program), and
//! whatever needs an entry waits for its write: a bake of the same program elsewhere, the plan's first run,
//! and `clfftTeardown`.

mod common;

use common::*;
use fftx::api::clfft::*;
use fftx::runtime::cache;
use std::ptr;

/// This test's own cache folder (a test binary of its own, since the variable is process-wide).
fn cache_folder() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fftx-cache-writes-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn entries(dir: &std::path::Path) -> usize {
    let entry = |e: &std::fs::DirEntry| e.path().extension().is_some_and(|x| x == "bin");
    std::fs::read_dir(dir).unwrap().flatten().filter(entry).count()
}

/// Creates, bakes and destroys a default plan (in-place c2c single) of `lengths`.
fn bake_only(lengths: &[usize]) {
    let (mut plan, mut queue) = (0, queue_ptr());
    unsafe {
        check(clfftCreateDefaultPlan(&mut plan, context_ptr(), lengths.len() as clfftDim, lengths.as_ptr()), "create");
        check(clfftBakePlan(plan, 1, &mut queue, None, ptr::null_mut()), "bake");
        check(clfftDestroyPlan(&mut plan), "destroy");
    }
}

#[test]
fn entries_are_on_disk_before_anything_needs_them() {
    let dir = cache_folder();
    std::env::set_var("FFTX_CACHE_DIR", &dir);
    // PoCL's own cache empty too (it reads the variable as its platform starts): with it warm, fetching a
    // binary can take so little time that an entry would be on disk in time without the waits.
    let pocl = dir.join("pocl");
    std::env::set_var("POCL_CACHE_DIR", &pocl);
    once_cell::sync::Lazy::force(&ENV);

    // A bake of the same programs with the memory cache emptied loads them from disk: it waited for them.
    let before = cache::stats();
    bake_only(&[60]);
    let built = cache::stats();
    let programs = built.source_builds - before.source_builds;
    assert!(programs >= 1, "{built:?}");
    cache::clear_memory();
    bake_only(&[60]);
    let loaded = cache::stats();
    assert_eq!(loaded.source_builds, built.source_builds, "{loaded:?}");
    assert_eq!(loaded.disk_hits - built.disk_hits, programs, "{loaded:?}");

    // The first run of a plan waits for its programs' entries (on PoCL its own compile would also wait for
    // the fetch, which holds the compiler; the wait keeps the fetch off the run on any driver).
    let stored = entries(&dir);
    let (mut plan, mut queue) = (0, queue_ptr());
    let data = DeviceData::upload(&random_complex(84, 1), Prec::Single, false);
    unsafe {
        check(clfftCreateDefaultPlan(&mut plan, context_ptr(), 1, [84].as_ptr()), "create");
        check(clfftBakePlan(plan, 1, &mut queue, None, ptr::null_mut()), "bake");
    }
    run_and_destroy(plan, -1, &data, None);
    let run = cache::stats();
    assert!(run.source_builds > loaded.source_builds, "{run:?}");
    assert_eq!(entries(&dir) - stored, (run.source_builds - loaded.source_builds) as usize, "after the first run");

    // So does clfftTeardown.
    let stored = entries(&dir);
    bake_only(&[90]);
    check(clfftTeardown(), "teardown");
    let baked = cache::stats();
    assert_eq!(entries(&dir) - stored, (baked.source_builds - run.source_builds) as usize, "after teardown");
    std::fs::remove_dir_all(&dir).unwrap();
}
