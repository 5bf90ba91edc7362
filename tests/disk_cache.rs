//! The on-disk program cache through real bakes, in a fresh folder of this process's own: a bake builds
//! from source and stores its programs; a bake in a fresh memory cache loads them back and marks them used;
//! entries corrupted on disk are rejected and rebuilt, never trusted; and a build from source deletes
//! fftx's entries unused for a month, but no other file.
//!
//! Then what someone else may have left in the folder, each in a child process with a deadline and a memory
//! bound, so that a hang, an unbounded read or an abort fails the test rather than stalling or killing this
//! binary: a symbolic link in an entry's place, a FIFO, a link to /dev/zero and a truncated PoCL binary
//! with a matching digest are all rebuilt from source, and a folder anyone may write to is not used.

mod common;
use common::*;
use fftx::runtime::cache;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

fn entries(dir: &Path) -> Vec<PathBuf> {
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

/// How long a child's bake may take: a cold build of its programs takes seconds, a hang forever.
const DEADLINE: Duration = Duration::from_secs(120);
/// How much memory a child may hold: a bake holds under 100 MB, a read of /dev/zero all there is.
const MAX_RESIDENT_KIB: u64 = 2 << 20;

/// The bake each child process makes: the parent reads the cache's statistics from its output.
#[test]
#[ignore = "a child process of the tests below, in a cache folder of their own"]
fn bake_in_a_child() {
    run_checked(&Case::new(&[60]).batch(3));
    let stats = cache::stats();
    println!(
        "cache stats: disk_hits={} source_builds={} rejected_entries={}",
        stats.disk_hits, stats.source_builds, stats.rejected_entries
    );
}

/// What a child process did.
struct Child {
    stdout: String,
    stderr: String,
}

impl Child {
    /// One of the statistics `bake_in_a_child` prints.
    fn stat(&self, name: &str) -> u64 {
        let line = self.stdout.lines().find_map(|l| Some(l.split_once("cache stats: ")?.1));
        let value = line.and_then(|l| l.split(' ').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('=')));
        value
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in the child's output:\n{}", self.stdout))
    }
}

/// Runs `bake_in_a_child` in a child process with the cache folder `dir` and `FFTX_LOG=info`; kills it and
/// fails once it runs past `DEADLINE` or holds more than `MAX_RESIDENT_KIB`, and fails if it fails.
fn bake_in_child(dir: &Path) -> Child {
    let mut child = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args(["bake_in_a_child", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env("FFTX_CACHE_DIR", dir)
        .env("FFTX_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the test binary again");
    // Read on threads of their own, so that a full pipe does not stop the child.
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let (status, overrun) = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break (status, None);
        }
        let resident = resident_kib(child.id());
        if started.elapsed() > DEADLINE || resident > MAX_RESIDENT_KIB {
            child.kill().unwrap();
            let overrun = format!("after {:.1} s, holding {resident} KiB", started.elapsed().as_secs_f64());
            break (child.wait().unwrap(), Some(overrun));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let child = Child { stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() };
    if let Some(overrun) = overrun {
        panic!("the child bake was killed {overrun}; its errors:\n{}", child.stderr);
    }
    assert!(status.success(), "the child bake failed ({status}):\n{}\n{}", child.stdout, child.stderr);
    child
}

/// The memory process `pid` holds, from /proc (0 once it has gone).
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"));
    line.and_then(|l| l.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0)
}

/// A fresh cache folder of this process's, only its user's, with the entries of a child's bake.
fn folder_with_entries(name: &str) -> (PathBuf, Vec<PathBuf>) {
    let dir = std::env::temp_dir().join(format!("fftx-disk-cache-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::DirBuilder::new().mode(0o700).create(&dir).unwrap();
    let built = bake_in_child(&dir);
    assert_eq!(built.stat("disk_hits"), 0);
    let stored = entries(&dir);
    assert!(!stored.is_empty() && built.stat("source_builds") >= 1, "nothing stored in {dir:?}");
    (dir, stored)
}

/// Checks that a child's bake rejected one entry, `replaced`, rebuilt its program and stored it in its place:
/// a regular file only its user may read, beside the others and no temporary.
fn rebuilt_one(child: &Child, dir: &Path, stored: &[PathBuf], replaced: &Path) {
    assert_eq!(child.stat("rejected_entries"), 1, "{}", child.stderr);
    assert_eq!(child.stat("source_builds"), 1, "{}", child.stderr);
    assert_eq!(child.stat("disk_hits"), stored.len() as u64 - 1, "{}", child.stderr);
    let metadata = std::fs::symlink_metadata(replaced).unwrap();
    assert!(metadata.is_file(), "{replaced:?} was not stored again");
    assert_eq!(metadata.mode() & 0o777, 0o600, "{replaced:?}");
    let files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(files.len(), stored.len(), "{files:?}");
    assert_eq!(entries(dir), stored);
}

#[test]
fn a_symlink_in_place_of_an_entry_is_replaced_not_written_through() {
    let (dir, stored) = folder_with_entries("symlink");
    let victim = dir.with_extension("victim");
    std::fs::write(&victim, b"someone else's file").unwrap();
    std::fs::remove_file(&stored[0]).unwrap();
    std::os::unix::fs::symlink(&victim, &stored[0]).unwrap();

    let child = bake_in_child(&dir);
    rebuilt_one(&child, &dir, &stored, &stored[0]);
    assert_eq!(std::fs::read(&victim).unwrap(), b"someone else's file");
    std::fs::remove_file(&victim).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_anyone_may_write_to_is_not_used() {
    let dir = std::env::temp_dir().join(format!("fftx-disk-cache-open-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let child = bake_in_child(&dir);
    assert_eq!(child.stat("disk_hits"), 0);
    assert!(child.stat("source_builds") >= 1);
    assert!(child.stderr.contains("is writable by any user and not sticky"), "{}", child.stderr);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "the bake wrote to {dir:?}");

    // Nor, for a process running as root, a folder of another user's (here nobody's).
    if std::fs::metadata(&dir).unwrap().uid() == 0 {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
        let child = bake_in_child(&dir);
        assert!(child.stderr.contains("belongs to user 65534"), "{}", child.stderr);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "the bake wrote to {dir:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fifo_in_place_of_an_entry_stalls_neither_a_load_nor_pruning() {
    let (dir, stored) = folder_with_entries("fifo");
    std::fs::remove_file(&stored[0]).unwrap();
    let mkfifo = |path: &Path| assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
    mkfifo(&stored[0]);
    // Named as an entry and unused for 40 days: the build's pruning opens it to read its magic.
    let old = dir.join("0123456789abcdef0123456789abcdef.bin");
    mkfifo(&old);
    assert!(Command::new("touch").args(["-m", "-d", "40 days ago"]).arg(&old).status().unwrap().success());

    let child = bake_in_child(&dir);
    std::fs::remove_file(&old).expect("pruning deleted a FIFO, not an fftx entry");
    rebuilt_one(&child, &dir, &stored, &stored[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_symlink_to_dev_zero_in_place_of_an_entry_is_not_read() {
    let (dir, stored) = folder_with_entries("zero");
    std::fs::remove_file(&stored[0]).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &stored[0]).unwrap();

    let child = bake_in_child(&dir);
    rebuilt_one(&child, &dir, &stored, &stored[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The SHA-256 an entry of `bytes` records, computed as the cache does: over the magic, key and payload
/// length, then the payload.
fn entry_digest(bytes: &[u8]) -> [u8; 32] {
    Sha256::new().chain_update(&bytes[..32]).chain_update(&bytes[64..]).finalize().into()
}

#[test]
fn a_truncated_pocl_binary_with_a_matching_digest_is_rebuilt() {
    let (dir, stored) = folder_with_entries("truncated");
    let entry = std::fs::read(&stored[0]).unwrap();
    assert_eq!(entry_digest(&entry), entry[32..64], "the test computes the digest otherwise than the cache");
    // Half the payload, its length and a digest to match: only the PoCL binary's own lengths tell.
    let payload = &entry[64..64 + (entry.len() - 64) / 2];
    let mut forged = [&entry[..24], &(payload.len() as u64).to_le_bytes(), &[0; 32], payload].concat();
    let digest = entry_digest(&forged);
    forged[32..64].copy_from_slice(&digest);
    std::fs::write(&stored[0], &forged).unwrap();

    let child = bake_in_child(&dir);
    rebuilt_one(&child, &dir, &stored, &stored[0]);
    let rebuilt = std::fs::read(&stored[0]).unwrap();
    assert!(rebuilt.len() > forged.len() && entry_digest(&rebuilt) == rebuilt[32..64], "not a whole entry");
    if payload.starts_with(b"poclbin\0") {
        assert!(child.stderr.contains("a PoCL length past the binary"), "{}", child.stderr);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
