//! Compiled programs, cached in memory per context (for the contexts used last) and on disk per device.
//!
//! The key is a 128-bit hash of the device's compiler identity (name, vendor, driver, versions), the fftx
//! version, the kernel source and the build options. On disk an entry is
//! `magic | key | payload length | payload checksum | payload`; an entry that fails any check, or whose binary
//! the driver rejects, is deleted and rebuilt from source. Building holds no global lock: the memory cache
//! hands out one cell per key, so only builds of the same program wait for each other.
//!
//! On PoCL a program of fftx's own code builds with the declarations of `kernels/builtins.cl` in place of
//! clang's opencl-c.h (`OWN_BUILTINS`), which saves about 90 ms a build. Should that build fail, the program
//! builds again with the full header (`CacheStats::full_header_rebuilds`), unless `FFTX_OWN_BUILTINS` says
//! `off` (the header always) or `strict` (the failure stands: the tests use it).
//!
//! `FFTX_CACHE_DIR` names the folder (empty or `off` disables the disk cache); the default is
//! `$XDG_CACHE_HOME/fftx` or `~/.cache/fftx`. A load marks its entry used (its modification time, at most
//! once a day), and each build from source deletes the entries nothing has used for `UNUSED_FOR`, then the
//! least recently used while fftx's entries take more than `MAX_BYTES`: a new kernel source or fftx version
//! changes every key, and nothing else would ever remove the old entries.
//!
//! A program built from source reaches the disk from a writer thread, after the bake (`write_later`,
//! `start_writes`): fetching its binary makes PoCL compile every kernel once more, which only the next process
//! needs. The plan's first run, a bake of the same program elsewhere, teardown and exit wait for the writes.
//! Only a process's first write runs in its bake, so that exit can wait safely (`wait_at_exit_after_llvm`).

use super::cl::{Context, Program};
use super::device::DeviceInfo;
use super::per_context::PerContext;
use crate::error::{ErrorKind, Result};
use crate::log::Topic;
use once_cell::sync::{Lazy, OnceCell};
use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

const MAGIC: &[u8; 8] = b"FFTXPRG1";
const HEADER_BYTES: usize = 8 + 16 + 8 + 8;
/// How long an entry may go unused before a build from source deletes it.
const UNUSED_FOR: Duration = Duration::from_secs(30 * 24 * 3600);
/// How often a load records its entry's use: warm bakes need not write to the disk each time.
const MARK_EVERY: Duration = Duration::from_secs(24 * 3600);
/// The most fftx's entries may take in the folder. PoCL's binaries take 0.1-1 MB a program; the test
/// suite's folder here held 742 MB after a month of kernel changes (several versions of every program).
const MAX_BYTES: u64 = 1 << 30;

type Key = [u8; 16];
type Cell = Arc<OnceCell<Program>>;

/// Programs kept in memory at most. A plan's kernels keep its programs alive; this bounds only what is kept
/// for plans to come, for an application that bakes ever new lengths. PoCL holds about 0.5 MB a program (its
/// LLVM module and the kernels' code). A dropped program loads again from the disk cache in about 5 ms, and
/// each load leaves about 15 KB that PoCL does not free with the program, so the bound is well above the
/// programs an application plans over and over.
const KEPT_PROGRAMS: usize = 256;

/// Programs by (context, device, key), for the contexts used last: a program retains its context.
static MEMORY: Lazy<Mutex<PerContext<Key, Cell>>> = Lazy::new(|| Mutex::new(PerContext::new(KEPT_PROGRAMS)));

/// How programs were obtained since start-up, for tests and the benchmark.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    pub memory_hits: u64,
    pub disk_hits: u64,
    pub source_builds: u64,
    pub rejected_entries: u64,
    /// Builds of fftx's own code that `kernels/builtins.cl` did not serve (`OWN_BUILTINS`).
    pub full_header_rebuilds: u64,
}

static MEMORY_HITS: AtomicU64 = AtomicU64::new(0);
static DISK_HITS: AtomicU64 = AtomicU64::new(0);
static SOURCE_BUILDS: AtomicU64 = AtomicU64::new(0);
static REJECTED: AtomicU64 = AtomicU64::new(0);
static FULL_HEADER_REBUILDS: AtomicU64 = AtomicU64::new(0);

pub fn stats() -> CacheStats {
    CacheStats {
        memory_hits: MEMORY_HITS.load(Ordering::Relaxed),
        disk_hits: DISK_HITS.load(Ordering::Relaxed),
        source_builds: SOURCE_BUILDS.load(Ordering::Relaxed),
        rejected_entries: REJECTED.load(Ordering::Relaxed),
        full_header_rebuilds: FULL_HEADER_REBUILDS.load(Ordering::Relaxed),
    }
}

/// Drops every program held in memory (the disk cache stays).
pub fn clear_memory() {
    MEMORY.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// Build options added to every program, from `FFTX_BUILD_OPTIONS` (the tests add `-Werror`).
static EXTRA_OPTIONS: Lazy<String> = Lazy::new(|| std::env::var("FFTX_BUILD_OPTIONS").unwrap_or_default());

/// A program's text as the cache takes it.
#[derive(Debug, Clone, Copy)]
pub struct ProgramText<'a> {
    pub source: &'a str,
    /// The source holds a user's code, which may call any builtin: it needs the full builtin header, where
    /// `kernels/builtins.cl` declares every builtin fftx's own code calls.
    pub user_code: bool,
}

/// The options that make PoCL parse `kernels/builtins.cl` instead of clang's opencl-c.h (its include guard),
/// which takes about 90 ms of each build's 100 ms floor there.
const OWN_BUILTINS: &str = "-DFFTX_OWN_BUILTINS -D_OPENCL_H_";

/// How fftx's own programs get their builtins on PoCL, from `FFTX_OWN_BUILTINS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OwnBuiltins {
    /// `kernels/builtins.cl`, then the full header should that build fail (the default).
    On,
    /// The full header.
    Off,
    /// `kernels/builtins.cl` only: a declaration missing there fails the build.
    Strict,
}

static OWN_BUILTINS_MODE: Lazy<OwnBuiltins> = Lazy::new(|| match std::env::var("FFTX_OWN_BUILTINS").as_deref() {
    Ok("off") => OwnBuiltins::Off,
    Ok("strict") => OwnBuiltins::Strict,
    _ => OwnBuiltins::On,
});

/// Whether `text` builds on `device` with `kernels/builtins.cl` in place of the builtin header.
fn own_builtins(device: &DeviceInfo, text: ProgramText) -> bool {
    device.pocl && !text.user_code && *OWN_BUILTINS_MODE != OwnBuiltins::Off
}

/// The options `text` builds with on `device`, as a program dump records them.
pub fn build_options(device: &DeviceInfo, text: ProgramText) -> String {
    options_with(own_builtins(device, text))
}

/// `FFTX_BUILD_OPTIONS` and, where `own_builtins`, `OWN_BUILTINS`.
fn options_with(own_builtins: bool) -> String {
    let own = if own_builtins { OWN_BUILTINS } else { "" };
    [EXTRA_OPTIONS.as_str(), own].iter().filter(|o| !o.trim().is_empty()).copied().collect::<Vec<_>>().join(" ")
}

/// A built program for `text` on `device` in `context`.
pub fn program(context: &Context, device: &DeviceInfo, text: ProgramText) -> Result<Program> {
    match lookup(context, device, text) {
        Lookup::Found(program) => Ok(program),
        Lookup::Missing(missing) => missing.build(context, device),
    }
}

/// Where a program comes from: the memory or the disk cache, or a build from source still to be made.
pub enum Lookup<'a> {
    Found(Program),
    Missing(Missing<'a>),
}

/// A program neither cache holds: its memory cache cell, which `build` fills.
pub struct Missing<'a> {
    cell: Cell,
    key: Key,
    text: ProgramText<'a>,
    /// The build uses `kernels/builtins.cl` (`own_builtins`).
    own_builtins: bool,
    path: Option<PathBuf>,
}

/// Looks `text` up in the memory cache, then on disk, loading on the calling thread.
pub fn lookup<'a>(context: &Context, device: &DeviceInfo, text: ProgramText<'a>) -> Lookup<'a> {
    let own_builtins = own_builtins(device, text);
    let key = key_of(device, text.source, &options_with(own_builtins));
    // Programs the cache dropped are released outside its lock, after this lookup (`PerContext`).
    let (cell, _dropped) = MEMORY.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(
        context.raw() as usize,
        device.id,
        key,
        Default::default,
    );
    if let Some(program) = cell.get() {
        MEMORY_HITS.fetch_add(1, Ordering::Relaxed);
        return Lookup::Found(program.clone());
    }
    let path = cache_dir().map(|dir| dir.join(format!("{}.bin", hex(&key))));
    let loaded = path
        .as_deref()
        .and_then(|path| cell.get_or_try_init(|| load_from_disk(context, device, &key, path).ok_or(())).ok());
    match loaded {
        Some(program) => Lookup::Found(program.clone()),
        None => Lookup::Missing(Missing { cell, key, text, own_builtins, path }),
    }
}

impl Missing<'_> {
    /// Builds the program from source (or takes the one another thread built meanwhile) and holds its disk
    /// write for the writer thread.
    pub fn build(&self, context: &Context, device: &DeviceInfo) -> Result<Program> {
        self.cell.get_or_try_init(|| self.build_from_source(context, device)).cloned()
    }

    fn build_from_source(&self, context: &Context, device: &DeviceInfo) -> Result<Program> {
        let options = options_with(self.own_builtins);
        crate::log!(Topic::Kernels, "building program with options `{options}`:\n{}", self.text.source);
        let started = std::time::Instant::now();
        let program = match build(context, device, self.text.source, &options) {
            Err(error)
                if error.kind == ErrorKind::BuildProgramFailure
                    && self.own_builtins
                    && *OWN_BUILTINS_MODE == OwnBuiltins::On =>
            {
                // A builtin missing from kernels/builtins.cl, a defect of fftx's: the full header serves.
                let program = build(context, device, self.text.source, &options_with(false))?;
                FULL_HEADER_REBUILDS.fetch_add(1, Ordering::Relaxed);
                crate::log!(
                    Topic::Error,
                    "a program built only with the full builtin header (kernels/builtins.cl lacks a declaration): \
                     {error}"
                );
                program
            }
            built => built?,
        };
        SOURCE_BUILDS.fetch_add(1, Ordering::Relaxed);
        crate::log!(Topic::Info, "compiled a program in {:.0} ms", started.elapsed().as_secs_f64() * 1e3);
        if let Some(path) = &self.path {
            write_later(DiskWrite { program: program.clone(), key: self.key, path: path.clone() });
        }
        Ok(program)
    }
}

fn build(context: &Context, device: &DeviceInfo, source: &str, options: &str) -> Result<Program> {
    let program = Program::with_source(context, source)?;
    program.build(device.raw(), options)?;
    Ok(program)
}

fn load_from_disk(context: &Context, device: &DeviceInfo, key: &Key, path: &Path) -> Option<Program> {
    wait_for_key(key);
    let program = load(context, device, key, path)?;
    DISK_HITS.fetch_add(1, Ordering::Relaxed);
    crate::log!(Topic::Info, "loaded a program from the disk cache ({})", path.display());
    Some(program)
}

/// A program built from source, for the disk cache.
struct DiskWrite {
    program: Program,
    key: Key,
    path: PathBuf,
}

/// Fetches the binary of a program built from source, stores it and prunes the folder. Fetching the binary
/// makes PoCL compile every kernel for a generic work-group size (50 ms for a 64-point leaf, about 1 s for a
/// 1024-point pass), which the first launch does not use: it compiles for its own size.
fn write_entry(write: &DiskWrite) {
    match write.program.binary() {
        Ok(binary) if !binary.is_empty() => store(&write.key, &binary, &write.path),
        _ => crate::log!(Topic::Info, "the driver returned no binary; nothing cached on disk"),
    }
    if let Some(dir) = write.path.parent() {
        let removed = prune(dir, SystemTime::now(), MAX_BYTES);
        if removed > 0 {
            crate::log!(
                Topic::Info,
                "deleted {removed} cache entries unused for {} days or past {} MiB",
                UNUSED_FOR.as_secs() / 86400,
                MAX_BYTES >> 20
            );
        }
    }
}

/// The disk writes of programs built from source: the keys not yet on disk, the writes held until the bake
/// that built them has made its kernels (`start_writes`), and the writer thread's queue.
#[derive(Default)]
struct Writes {
    /// The process these belong to: a child forked from it has no writer thread, and its parent writes them.
    process: u32,
    pending: HashSet<Key>,
    held: Vec<DiskWrite>,
    queue: Option<mpsc::Sender<DiskWrite>>,
}

static WRITES: Lazy<(Mutex<Writes>, Condvar)> = Lazy::new(Default::default);

fn lock_writes() -> MutexGuard<'static, Writes> {
    let mut writes = WRITES.0.lock().unwrap_or_else(|e| e.into_inner());
    let process = std::process::id();
    if writes.process != process {
        *writes = Writes { process, ..Writes::default() };
    }
    writes
}

/// Holds `write` for the writer thread, so that a bake does not wait for it: the plan's first launch does
/// (`wait_for_writes`), and so do a bake of the same program elsewhere, `clfftTeardown` and the process's exit.
fn write_later(write: DiskWrite) {
    let mut writes = lock_writes();
    writes.pending.insert(write.key);
    writes.held.push(write);
}

/// Hands the held writes to the writer thread. A bake calls it once it has made its kernels: fetching a
/// program's binary holds PoCL's lock on the program, and the bake's kernels would wait for it.
pub fn start_writes() {
    send_held(&mut lock_writes());
}

fn send_held(writes: &mut Writes) {
    if writes.held.is_empty() {
        return;
    }
    if writes.queue.is_none() {
        // The process's first write runs here, before the thread starts: see `wait_at_exit_after_llvm`.
        let first = writes.held.remove(0);
        write_here(writes, &first);
        let (sender, receiver) = mpsc::channel::<DiskWrite>();
        let started = std::thread::Builder::new().name("fftx-cache-writer".into()).spawn(move || {
            for write in receiver {
                write_entry_catching(&write);
                wait_at_exit_after_llvm();
                // Released before the write counts as done: once the writes are done, fftx holds no program
                // but its plans' and its memory cache's.
                let key = write.key;
                drop(write);
                mark_written(&mut lock_writes(), &key);
            }
        });
        if started.is_ok() {
            writes.queue = Some(sender);
        }
    }
    if writes.queue.is_some() && !writes.held.is_empty() {
        wait_at_exit_after_llvm();
    }
    for write in std::mem::take(&mut writes.held) {
        let unsent = match &writes.queue {
            Some(queue) => queue.send(write).err().map(|mpsc::SendError(w)| w),
            None => Some(write),
        };
        // Without the thread, the write happens here.
        if let Some(write) = unsent {
            write_here(writes, &write);
        }
    }
}

/// Writes on the calling thread, which holds the lock on `writes`.
fn write_here(writes: &mut Writes, write: &DiskWrite) {
    write_entry_catching(write);
    mark_written(writes, &write.key);
}

fn mark_written(writes: &mut Writes, key: &Key) {
    writes.pending.remove(key);
    WRITES.1.notify_all();
}

/// A panic must not leave waiters waiting: the entry is then just not written.
fn write_entry_catching(write: &DiskWrite) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| write_entry(write)));
}

/// Waits until every disk write so far is done.
pub fn wait_for_writes() {
    let mut writes = lock_writes();
    send_held(&mut writes);
    drop(WRITES.1.wait_while(writes, |w| !w.pending.is_empty()).unwrap_or_else(|e| e.into_inner()));
}

/// Waits until the entry for `key`, if its write is pending, is on disk.
fn wait_for_key(key: &Key) {
    let mut writes = lock_writes();
    if writes.pending.contains(key) {
        send_held(&mut writes);
    }
    drop(WRITES.1.wait_while(writes, |w| w.pending.contains(key)).unwrap_or_else(|e| e.into_inner()));
}

extern "C" fn wait_at_exit() {
    let _ = std::panic::catch_unwind(wait_for_writes);
}

/// Registers `wait_at_exit` (again), after whatever LLVM has set up so far. glibc runs exit handlers in the
/// reverse order of their registration, and LLVM registers the destructor of a function-local static when it
/// first uses it, such as its code generator's set of extended value types at a process's first code
/// generation: a handler registered before that runs only after the set is destroyed, which the writer's
/// compile may still be using (a crash at exit, with cold caches, in a process that baked plans it did not
/// run). So the process's first write, and with it that first code generation, runs on the
/// baking thread, before any handler, and the handler is registered again after each write and whenever
/// writes are sent (after any launch's code generation), so that it stays after the statics of every
/// compile but one in progress.
fn wait_at_exit_after_llvm() {
    // SAFETY: the handler is a plain function of this library, which glibc runs at exit or when the library
    // is unloaded.
    unsafe { libc::atexit(wait_at_exit) };
}

/// Reads, verifies and builds a cached binary; deletes the entry on any failure.
fn load(context: &Context, device: &DeviceInfo, key: &Key, path: &Path) -> Option<Program> {
    let mut file = std::fs::File::open(path).ok()?;
    let last_use = file.metadata().and_then(|m| m.modified()).ok();
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    let verified = parse_entry(&bytes, key);
    let program = verified.and_then(|payload| {
        let program = Program::with_binary(context, device.raw(), payload).ok()?;
        program.build(device.raw(), "").ok()?;
        Some(program)
    });
    if program.is_none() {
        REJECTED.fetch_add(1, Ordering::Relaxed);
        crate::log!(Topic::Info, "rejected cache entry {}; rebuilding from source", path.display());
        let _ = std::fs::remove_file(path);
    } else if last_use.map_or(true, |t| t.elapsed().map_or(true, |age| age > MARK_EVERY)) {
        mark_used(path);
    }
    program
}

/// Sets an entry's modification time to now: `prune` reads it as the entry's last use.
fn mark_used(path: &Path) {
    let _ = std::fs::File::options().write(true).open(path).and_then(|f| f.set_modified(SystemTime::now()));
}

/// Deletes the entries in `dir`, and the temporaries of interrupted writes, last used more than `UNUSED_FOR`
/// before `now`, then the least recently used of the others while they take more than `max_bytes`; returns
/// how many. Only fftx's own files go: a name of 32 hex digits, then `.bin` or a temporary's `.tmp`, and the
/// entry magic first, since `FFTX_CACHE_DIR` may name a folder shared with other files.
fn prune(dir: &Path, now: SystemTime, max_bytes: u64) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let named = |path: &Path| {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let extension = path.extension().and_then(|s| s.to_str()).unwrap_or("");
        stem.len() == 32
            && stem.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
            && (extension == "bin" || extension.starts_with("tmp"))
    };
    let has_magic = |path: &Path| {
        let mut magic = [0u8; 8];
        std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && &magic == MAGIC
    };
    // (last use, bytes, path) of the files named as entries, least recently used first. Only the ones that
    // would go are opened for their magic: a build from source must not read the whole folder.
    let mut files: Vec<(SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter(|entry| named(&entry.path()))
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            Some((metadata.modified().ok()?, metadata.len(), entry.path()))
        })
        .collect();
    files.sort();
    let mut kept: u64 = files.iter().map(|(_, bytes, _)| bytes).sum();
    let mut removed = 0;
    for (last_use, bytes, path) in files {
        let unused = now.duration_since(last_use).is_ok_and(|age| age > UNUSED_FOR);
        if !unused && kept <= max_bytes {
            break;
        }
        // A file without the magic is not fftx's: it stays, and stops counting once reached (named files the
        // loop does not reach count unopened).
        let ours = has_magic(&path);
        if ours && std::fs::remove_file(&path).is_err() {
            continue;
        }
        kept -= bytes;
        removed += usize::from(ours);
    }
    removed
}

/// The payload of an entry whose magic, key, length and checksum all match.
fn parse_entry<'a>(bytes: &'a [u8], key: &Key) -> Option<&'a [u8]> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC || &bytes[8..24] != key {
        return None;
    }
    let length = u64::from_le_bytes(bytes[24..32].try_into().ok()?) as usize;
    let checksum = u64::from_le_bytes(bytes[32..40].try_into().ok()?);
    let payload = &bytes[HEADER_BYTES..];
    (payload.len() == length && hash128(payload)[0] == checksum).then_some(payload)
}

fn store(key: &Key, binary: &[u8], path: &Path) {
    let mut entry = Vec::with_capacity(HEADER_BYTES + binary.len());
    entry.extend_from_slice(MAGIC);
    entry.extend_from_slice(key);
    entry.extend_from_slice(&(binary.len() as u64).to_le_bytes());
    entry.extend_from_slice(&hash128(binary)[0].to_le_bytes());
    entry.extend_from_slice(binary);
    // Write a private temporary file and rename it, so readers never see half an entry.
    let tmp = path.with_extension(format!("tmp{}-{:?}", std::process::id(), std::thread::current().id()));
    let written =
        std::fs::File::create(&tmp).and_then(|mut f| f.write_all(&entry)).and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        crate::log!(Topic::Info, "could not write cache entry {}: {e}", path.display());
    }
}

/// The cache folder, created if needed; `None` when disabled or unusable.
pub fn cache_dir() -> Option<PathBuf> {
    let dir = match std::env::var("FFTX_CACHE_DIR") {
        Ok(v) if v.is_empty() || v == "off" => return None,
        Ok(v) => PathBuf::from(v),
        Err(_) => match std::env::var("XDG_CACHE_HOME") {
            Ok(x) if !x.is_empty() => PathBuf::from(x).join("fftx"),
            _ => PathBuf::from(std::env::var("HOME").ok()?).join(".cache").join("fftx"),
        },
    };
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
}

/// A 128-bit hash that reads a word at a time into four independent lanes, in one pass: the key takes both
/// halves, the payload checksum the first. A warm bake hashes the source for the key and checksums the
/// payload, up to a megabyte together; byte-wise FNV-1a, one multiply waiting on the one before per byte,
/// took 9% of a warm bake's CPU time. A change to one word changes its lane for certain, and each half's
/// finish mixes the lanes in order, from its own start.
fn hash128(bytes: &[u8]) -> [u64; 2] {
    const SEED: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut lanes = [SEED, SEED.rotate_left(16) ^ 1, SEED.rotate_left(32) ^ 2, SEED.rotate_left(48) ^ 3];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            let word = u64::from_le_bytes(word.try_into().expect("8-byte chunk"));
            *lane = (*lane ^ word).wrapping_mul(PRIME).rotate_left(31);
        }
    }
    let finish = |start: u64| {
        let h = lanes.iter().fold(start, |h, &lane| mix(h ^ lane));
        mix(blocks.remainder().iter().fold(h, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)))
    };
    let length = bytes.len() as u64;
    [finish(length), finish(length ^ 0x6c62_272e_07bb_0142)]
}

/// MurmurHash3's finaliser: every input bit reaches every output bit.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

fn key_of(device: &DeviceInfo, source: &str, options: &str) -> Key {
    let text = format!("fftx {}\n{}\n{}\n{}", env!("CARGO_PKG_VERSION"), device.compiler_identity(), options, source);
    let [low, high] = hash128(text.as_bytes());
    let mut key = [0u8; 16];
    key[..8].copy_from_slice(&low.to_le_bytes());
    key[8..].copy_from_slice(&high.to_le_bytes());
    key
}

fn hex(key: &Key) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program of fftx's calling a builtin `kernels/builtins.cl` lacks, under this process's
    /// `FFTX_OWN_BUILTINS`: on PoCL it builds again with the full header, or fails in strict mode.
    #[test]
    fn a_builtin_the_declarations_lack() {
        let (_, id) = crate::runtime::default_device().expect("an OpenCL device");
        let device = crate::runtime::device_info(id).expect("its facts");
        let context = Context::create(id).expect("a context");
        let source = "kernel void fftx_cosine(global float *x) { x[0] = cos(x[0]); }";
        let text = ProgramText { source, user_code: false };
        let own_builtins = own_builtins(&device, text);
        let key = key_of(&device, source, &options_with(own_builtins));
        let missing = Missing { cell: Cell::default(), key, text, own_builtins, path: None };
        let before = stats().full_header_rebuilds;
        let built = missing.build(&context, &device);
        match (*OWN_BUILTINS_MODE, device.pocl) {
            (OwnBuiltins::Strict, true) => {
                assert_eq!(built.expect_err("a strict build fails").kind, ErrorKind::BuildProgramFailure)
            }
            (OwnBuiltins::On, true) => {
                built.expect("the full header builds it");
                assert_eq!(stats().full_header_rebuilds, before + 1);
            }
            _ => {
                built.expect("built with the full header at once");
                assert_eq!(stats().full_header_rebuilds, before);
            }
        }
    }

    #[test]
    fn entries_must_match_in_every_field() {
        let key = [7u8; 16];
        let payload = b"binary bits";
        let mut entry = MAGIC.to_vec();
        entry.extend_from_slice(&key);
        entry.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        entry.extend_from_slice(&hash128(payload)[0].to_le_bytes());
        entry.extend_from_slice(payload);
        assert_eq!(parse_entry(&entry, &key), Some(&payload[..]));
        assert_eq!(parse_entry(&entry, &[8u8; 16]), None, "another key");
        let mut flipped = entry.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(parse_entry(&flipped, &key), None, "corrupt payload");
        assert_eq!(parse_entry(&entry[..entry.len() - 1], &key), None, "truncated");
        assert_eq!(parse_entry(&entry[..10], &key), None, "short header");
    }

    #[test]
    fn pruning_deletes_only_fftx_entries_unused_for_a_month_or_past_the_size_limit() {
        let dir = std::env::temp_dir().join(format!("fftx-prune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let hex = "0123456789abcdef0123456789abcdef";
        let write = |name: &str, bytes: &[u8], days_ago: u64| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(SystemTime::now() - Duration::from_secs(days_ago * 86400)).unwrap();
            path
        };
        let entry = [&MAGIC[..], b"rest of an entry"].concat();
        let old = write(&format!("{hex}.bin"), &entry, 31);
        let interrupted = write(&format!("{hex}.tmp12-ThreadId(3)"), &entry, 31);
        let recent = write(&format!("{}.bin", hex.replace('0', "f")), &entry, 29);
        let foreign = write(&format!("{}.bin", hex.replace('0', "e")), b"not an fftx entry", 31);
        let other_name = write("notes.bin", &entry, 31);
        let used = write(&format!("{}.bin", hex.replace('0', "d")), &entry, 31);
        mark_used(&used);
        assert_eq!(prune(&dir, SystemTime::now(), MAX_BYTES), 2);
        assert!(!old.exists() && !interrupted.exists());
        assert!(recent.exists() && foreign.exists() && other_name.exists() && used.exists());
        // Past the size limit the least recently used go first, until the rest fit: `recent` (29 days, 24
        // bytes) and `used` (now, 24 bytes) take 48 bytes; a limit of 30 keeps `used`. Foreign files neither
        // count nor go.
        assert_eq!(prune(&dir, SystemTime::now(), 30), 1);
        assert!(!recent.exists() && used.exists() && foreign.exists() && other_name.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_bit_flip_changes_both_halves_of_the_hash() {
        // 77 bytes: two whole blocks of four words, then a remainder of 13 bytes.
        let bytes: Vec<u8> = (0..77u32).map(|i| (i * 37 + 11) as u8).collect();
        let [low, high] = hash128(&bytes);
        assert_ne!(low, high, "the halves");
        let shorter = hash128(&bytes[..76]);
        assert!(shorter[0] != low && shorter[1] != high, "the length");
        for bit in 0..bytes.len() * 8 {
            let mut flipped = bytes.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            let [flipped_low, flipped_high] = hash128(&flipped);
            assert!(flipped_low != low && flipped_high != high, "bit {bit}");
        }
    }
}
