//! The on-disk program cache through real bakes, in a fresh folder of this process's own: a bake builds
//! from source and stores its programs; a bake in a fresh memory cache loads them back and marks them used;
//! entries corrupted on disk are rejected and rebuilt, never trusted; and a build from source deletes
//! fftx's entries unused for a month, but no other file.

mod common;
use common::*;
use fftx::runtime::cache;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

fn entries(dir: &PathBuf) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin") && p.file_stem().is_some_and(|s| s.len() == 32))
        .collect();
    found.sort();
    found
}

fn set_age(path: &PathBuf, days: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(days * 86400)).unwrap();
}

fn age_in_days(path: &PathBuf) -> u64 {
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    SystemTime::now().duration_since(modified).unwrap_or_default().as_secs() / 86400
}

fn run_checked(case: &Case) {
    let rmse = case.run();
    assert!(rmse <= tolerance(case.precision), "rmse {rmse:.3e} for {case:?}");
}

#[test]
fn programs_are_stored_reloaded_rejected_when_corrupt_and_pruned_when_unused() {
    // Before the first plan: this binary's own cache folder, which the harness keeps.
    let dir = std::env::temp_dir().join(format!("fftx-disk-cache-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::env::set_var("FFTX_CACHE_DIR", &dir);
    let stale = dir.join("0123456789abcdef0123456789abcdef.bin");
    std::fs::write(&stale, b"FFTXPRG1 an entry of a kernel source long gone").unwrap();
    set_age(&stale, 40);
    let foreign = dir.join("notes.txt");
    std::fs::write(&foreign, b"not fftx's").unwrap();
    set_age(&foreign, 40);

    let case = Case::new(&[60]).batch(3);
    run_checked(&case);
    let built = cache::stats();
    assert!(built.source_builds >= 1, "{built:?}");
    let stored = entries(&dir);
    assert!(!stored.is_empty(), "nothing stored in {dir:?}");
    assert!(!stale.exists(), "the build did not delete an entry unused for 40 days");
    assert!(foreign.exists(), "pruning deleted a file that is not fftx's");

    // A fresh memory cache loads the same programs from disk and marks them used.
    stored.iter().for_each(|p| set_age(p, 10));
    cache::clear_memory();
    run_checked(&case);
    let loaded = cache::stats();
    assert_eq!(loaded.source_builds, built.source_builds, "{loaded:?}");
    assert!(loaded.disk_hits > built.disk_hits, "{loaded:?}");
    assert!(stored.iter().all(|p| age_in_days(p) == 0), "a load did not mark its entry used");

    // One flipped byte in each payload: every entry is rejected and rebuilt, and the transform is right.
    for path in &stored {
        let mut bytes = std::fs::read(path).unwrap();
        *bytes.last_mut().unwrap() ^= 0x40;
        std::fs::write(path, bytes).unwrap();
    }
    cache::clear_memory();
    run_checked(&case);
    let rebuilt = cache::stats();
    assert_eq!(rebuilt.rejected_entries - loaded.rejected_entries, stored.len() as u64, "{rebuilt:?}");
    assert_eq!(rebuilt.source_builds - loaded.source_builds, stored.len() as u64, "{rebuilt:?}");
    assert_eq!(entries(&dir), stored, "the rebuilt programs were not stored again");
    std::fs::remove_dir_all(&dir).unwrap();
}
