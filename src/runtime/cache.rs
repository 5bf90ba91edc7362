//! Compiled programs, cached in memory per context (for the contexts used last) and on disk per device.
//!
//! The key is a 128-bit hash of the device's compiler identity (name, vendor, driver, versions), the fftx
//! version, the kernel source and the build options. On disk an entry is
//! `magic | key | payload length | SHA-256 of those and the payload | payload`; an entry that fails any check
//! (a regular file of this user's, its digest, on PoCL its binary's framing), or whose binary the driver
//! rejects, is deleted and rebuilt from source. Building holds no global lock: the memory cache hands out one
//! cell per key, so only builds of the same program wait for each other.
//!
//! On PoCL a program of fftx's own code builds with the declarations of `kernels/builtins.cl` in place of
//! clang's opencl-c.h (`OWN_BUILTINS`), which saves about 90 ms a build. Should that build fail, the program
//! builds again with the full header (`CacheStats::full_header_rebuilds`), unless `FFTX_OWN_BUILTINS` says
//! `off` (the header always) or `strict` (the failure stands: the tests use it).
//!
//! `FFTX_CACHE_DIR` names the folder (empty or `off` disables the disk cache); the default is
//! `$XDG_CACHE_HOME/fftx` or `~/.cache/fftx`. A folder another user owns, or may write to without the sticky
//! bit, serves no cache (`distrust`): whoever can write there could plant a program. A load marks its entry
//! used (its modification time, at most once a day), and each build from source deletes the entries nothing
//! has used for `UNUSED_FOR`, then the least recently used while fftx's entries take more than `MAX_BYTES`: a
//! new kernel source or fftx version changes every key, and nothing else would ever remove the old entries.
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
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

const MAGIC: &[u8; 8] = b"FFTXPRG2";
/// The start of every version of the magic: pruning deletes the entries of earlier formats too.
const MAGIC_FAMILY: &[u8; 7] = b"FFTXPRG";
/// Where the digest starts: it covers the fields before it and the payload.
const DIGEST_AT: usize = 8 + 16 + 8;
const HEADER_BYTES: usize = DIGEST_AT + 32;
/// The largest payload an entry holds, and so the most a load reads: PoCL serialises a program into at most
/// 256 MiB (`MAX_BINARY_SIZE` in its pocl_binary.c).
const MAX_PAYLOAD_BYTES: usize = 256 << 20;
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

/// Reads, verifies and builds a cached binary; deletes the entry on any failure but its absence.
fn load(context: &Context, device: &DeviceInfo, key: &Key, path: &Path) -> Option<Program> {
    let (file, bytes) = match read_entry(path) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return reject(path, &e.to_string()),
    };
    let Some(payload) = parse_entry(&bytes, key) else {
        return reject(path, "its header or SHA-256 does not match");
    };
    if device.pocl {
        if let Err(why) = check_pocl_framing(payload) {
            return reject(path, why);
        }
    }
    let built = Program::with_binary(context, device.raw(), payload)
        .and_then(|program| program.build(device.raw(), "").map(|()| program));
    let program = match built {
        Ok(program) => program,
        Err(e) => return reject(path, &format!("the driver refused its binary: {e}")),
    };
    let last_use = file.metadata().and_then(|m| m.modified()).ok();
    if last_use.map_or(true, |t| t.elapsed().map_or(true, |age| age > MARK_EVERY)) {
        mark_used(&file);
    }
    Some(program)
}

/// Counts, logs and deletes an entry that failed a check, so that the program's build from source replaces it.
fn reject(path: &Path, why: &str) -> Option<Program> {
    REJECTED.fetch_add(1, Ordering::Relaxed);
    crate::log!(Topic::Info, "rejected cache entry {} ({why}); rebuilding from source", path.display());
    let _ = std::fs::remove_file(path);
    None
}

/// Opens an entry for reading: never through a symbolic link nor waiting for a FIFO's writer, and only a
/// regular file of this process's user, since another user's could hold a forged program.
fn open_entry(path: &Path) -> std::io::Result<File> {
    let file = File::options().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if metadata.uid() != effective_uid() {
        return Err(std::io::Error::other(format!("owned by user {}", metadata.uid())));
    }
    Ok(file)
}

/// Opens an entry (`open_entry`) and reads it whole, up to the largest entry there can be.
fn read_entry(path: &Path) -> std::io::Result<(File, Vec<u8>)> {
    let file = open_entry(path)?;
    let limit = (HEADER_BYTES + MAX_PAYLOAD_BYTES) as u64;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(std::io::Error::other(format!("{size} bytes, more than any entry")));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    // The file may have grown since: the read stops past the limit all the same.
    (&file).take(limit + 1).read_to_end(&mut bytes)?;
    Ok((file, bytes))
}

/// Sets an entry's modification time to now: `prune` reads it as the entry's last use. Through the file the
/// load read, since the name may point elsewhere by now.
fn mark_used(file: &File) {
    if let Err(e) = file.set_modified(SystemTime::now()) {
        crate::log!(Topic::Info, "could not mark a cache entry used: {e}");
    }
}

fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments and cannot fail.
    unsafe { libc::geteuid() }
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
        let mut magic = [0u8; MAGIC_FAMILY.len()];
        open_entry(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && &magic == MAGIC_FAMILY
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

/// The payload of an entry whose magic, key, length and digest all match.
fn parse_entry<'a>(bytes: &'a [u8], key: &Key) -> Option<&'a [u8]> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC || &bytes[8..24] != key {
        return None;
    }
    let length = u64::from_le_bytes(bytes[24..DIGEST_AT].try_into().ok()?);
    let (header, payload) = bytes.split_at(HEADER_BYTES);
    (payload.len() as u64 == length && header[DIGEST_AT..] == digest(&header[..DIGEST_AT], payload)).then_some(payload)
}

/// The entry for `payload`: magic, key, payload length, their digest with the payload's, then the payload.
fn entry_bytes(key: &Key, payload: &[u8]) -> Vec<u8> {
    let mut entry = Vec::with_capacity(HEADER_BYTES + payload.len());
    entry.extend_from_slice(MAGIC);
    entry.extend_from_slice(key);
    entry.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let digest = digest(&entry, payload);
    entry.extend_from_slice(&digest);
    entry.extend_from_slice(payload);
    entry
}

/// Checks that the lengths in a PoCL binary frame it as PoCL reads it (`pocl_binary.c`, formats 9 to 11; 3.1
/// writes 9), and are not zero where PoCL asserts so: PoCL trusts them, and reads past the binary or aborts
/// the process on a truncated or forged one. Returns what is wrong.
fn check_pocl_framing(binary: &[u8]) -> std::result::Result<(), &'static str> {
    let mut r = Framing(binary);
    if r.take(8)? != b"poclbin\0" {
        return Err("not a PoCL binary");
    }
    r.take(8)?; // device id
    let version = r.u32()?;
    if !(9..=11).contains(&version) {
        return Err("a PoCL binary format of unknown layout");
    }
    let kernels = r.u32()?;
    let flags = r.u64()?;
    let root_entries = r.u32()?;
    r.take(41)?; // build hash, 40 characters and a NUL
    if version >= 10 && flags & 2 != 0 {
        r.take(8)?; // bytes of program-scope variables
    }
    // The program's own files (program.bc), then its kernels: PoCL asserts there are some of each.
    if root_entries == 0 || kernels == 0 {
        return Err("a PoCL binary without program or kernels");
    }
    for _ in 0..root_entries {
        let bytes = r.u64()?;
        if bytes == 0 {
            return Err("an empty PoCL root entry");
        }
        check_pocl_files(r.take(bytes)?)?;
    }
    for _ in 0..kernels {
        let record = r.0;
        let (size, files_size, arguments_size) = (r.u64()?, r.u64()?, r.u32()?);
        if r.string()?.is_empty() {
            return Err("a PoCL kernel without a name");
        }
        let (arguments, locals) = (r.u32()?, r.u32()?);
        r.take(3 * 8)?; // required work-group size
        r.take(locals.checked_mul(8).ok_or("a PoCL length past the binary")?)?;
        r.string()?; // attributes
        if version < 11 {
            r.take(8)?; // argument metadata flags
        } else {
            r.take(4)?; // argument metadata flags
            let extras = r.u32()?;
            let subgroups = if extras & 4 != 0 { 2 * 4 } else { 0 }; // most and compiled subgroups
            let work_groups = if extras & 2 != 0 { 5 * 4 } else { 0 }; // work-group size, multiple, memories
            r.take(subgroups + work_groups)?;
        }
        let arguments_start = r.0.len();
        for _ in 0..arguments {
            r.take(4 + 4 + 8 + 4 + 4)?; // qualifiers, type and its size
            r.string()?; // name
            r.string()?; // type name
        }
        if arguments_start - r.0.len() != arguments_size {
            return Err("PoCL argument information of another size than recorded");
        }
        check_pocl_files(r.take(files_size)?)?;
        if record.len() - r.0.len() != size {
            return Err("a PoCL kernel of another size than recorded");
        }
    }
    if r.0.is_empty() {
        Ok(())
    } else {
        Err("bytes after a PoCL binary's last kernel")
    }
}

/// Checks a run of files in a PoCL binary, each a name and a content, which PoCL writes out below the
/// program's folder (the name appended to the folder's path, in a buffer of 4096 bytes): names of that folder
/// and not empty, contents not empty.
fn check_pocl_files(mut files: &[u8]) -> std::result::Result<(), &'static str> {
    while !files.is_empty() {
        let mut r = Framing(files);
        let name = r.string()?;
        let below = name.first() == Some(&b'/')
            && name.len() < 1024
            && !name.contains(&0)
            && name.split(|&b| b == b'/').all(|part| part != b"..");
        if !below {
            return Err("a PoCL file name outside the program's folder");
        }
        if r.string()?.is_empty() {
            return Err("an empty PoCL file");
        }
        files = r.0;
    }
    Ok(())
}

/// The bytes of a PoCL binary not read yet: each read fails, rather than going past the end, on a length that
/// leaves the binary.
struct Framing<'a>(&'a [u8]);

impl<'a> Framing<'a> {
    fn take(&mut self, bytes: usize) -> std::result::Result<&'a [u8], &'static str> {
        if bytes > self.0.len() {
            return Err("a PoCL length past the binary");
        }
        let (taken, rest) = self.0.split_at(bytes);
        self.0 = rest;
        Ok(taken)
    }

    fn u32(&mut self) -> std::result::Result<usize, &'static str> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")) as usize)
    }

    fn u64(&mut self) -> std::result::Result<usize, &'static str> {
        let value = u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes"));
        usize::try_from(value).map_err(|_| "a PoCL length past the binary")
    }

    /// A string as PoCL writes it: its length in 4 bytes, then its bytes.
    fn string(&mut self) -> std::result::Result<&'a [u8], &'static str> {
        let length = self.u32()?;
        self.take(length)
    }
}

/// The SHA-256 of an entry's fields before the digest and its payload. It catches corruption and truncation,
/// not forgery: without a secret key, whoever can write the folder can compute it for a program of their own.
/// What keeps them out is `distrust` (the folder) and `open_entry` (each entry's owner).
fn digest(fields: &[u8], payload: &[u8]) -> [u8; 32] {
    Sha256::new().chain_update(fields).chain_update(payload).finalize().into()
}

fn store(key: &Key, binary: &[u8], path: &Path) {
    if binary.len() > MAX_PAYLOAD_BYTES {
        crate::log!(Topic::Info, "a program's binary takes {} bytes, too many to cache on disk", binary.len());
        return;
    }
    let entry = entry_bytes(key, binary);
    // A new private file under a name no one can foresee, so that nothing planted in the folder receives the
    // write, then renamed into place, so that readers never see half an entry.
    let written = create_temporary(path).and_then(|(tmp, mut file)| {
        let written = file.write_all(&entry).and_then(|()| std::fs::rename(&tmp, path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    });
    if let Err(e) = written {
        crate::log!(Topic::Info, "could not write cache entry {}: {e}", path.display());
    }
}

/// Creates `<key>.tmp<32 random hex digits>` beside `path`, only if nothing has that name, not even a link.
fn create_temporary(path: &Path) -> std::io::Result<(PathBuf, File)> {
    let mut random = [0u8; 16];
    // SAFETY: the buffer is valid for writes of its length.
    let filled = unsafe { libc::getrandom(random.as_mut_ptr().cast(), random.len(), 0) };
    if filled != random.len() as isize {
        return Err(std::io::Error::last_os_error());
    }
    let tmp = path.with_extension(format!("tmp{}", hex(&random)));
    let file = File::options().write(true).create_new(true).mode(0o600).custom_flags(libc::O_NOFOLLOW).open(&tmp)?;
    Ok((tmp, file))
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
    if let Err(e) = std::fs::create_dir_all(&dir) {
        crate::log!(Topic::Info, "no disk cache: cannot create {}: {e}", dir.display());
        return None;
    }
    match distrust(&dir) {
        Some(why) => {
            crate::log!(Topic::Info, "no disk cache: {} {why}", dir.display());
            None
        }
        None => Some(dir),
    }
}

/// Why another user could put entries in the folder `dir`, if they could: they own it, or anyone may write to
/// it and it is not sticky (where it is, no one replaces another's files, and `open_entry` refuses theirs).
fn distrust(dir: &Path) -> Option<String> {
    let metadata = match std::fs::metadata(dir) {
        Ok(metadata) => metadata,
        Err(e) => return Some(format!("cannot be inspected: {e}")),
    };
    let (owner, mode) = (metadata.uid(), metadata.mode());
    if owner != effective_uid() {
        Some(format!("belongs to user {owner}, not to this process's user {}", effective_uid()))
    } else if mode & 0o002 != 0 && mode & 0o1000 == 0 {
        Some("is writable by any user and not sticky".into())
    } else {
        None
    }
}

/// A 128-bit hash for the key, that reads a word at a time into four independent lanes, in one pass. A warm
/// bake hashes each program's source; byte-wise FNV-1a, one multiply waiting on the one before per byte, took
/// 9% of a warm bake's CPU time when it also checksummed the payloads. A change to one word changes its lane
/// for certain, and each half's finish mixes the lanes in order, from its own start.
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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
        let entry = entry_bytes(&key, payload);
        assert_eq!(entry.len(), HEADER_BYTES + payload.len());
        assert_eq!(parse_entry(&entry, &key), Some(&payload[..]));
        assert_eq!(parse_entry(&entry, &[8u8; 16]), None, "another key");
        for (at, what) in [(entry.len() - 1, "corrupt payload"), (DIGEST_AT + 5, "corrupt digest"), (3, "magic")] {
            let mut flipped = entry.clone();
            flipped[at] ^= 1;
            assert_eq!(parse_entry(&flipped, &key), None, "{what}");
        }
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
        let old = write(&format!("{hex}.bin"), b"FFTXPRG1 an entry of the format before", 31);
        let interrupted = write(&format!("{hex}.tmp{}", hex.replace('0', "a")), &entry, 31);
        let recent = write(&format!("{}.bin", hex.replace('0', "f")), &entry, 29);
        let foreign = write(&format!("{}.bin", hex.replace('0', "e")), b"not an fftx entry", 31);
        let other_name = write("notes.bin", &entry, 31);
        let used = write(&format!("{}.bin", hex.replace('0', "d")), &entry, 31);
        mark_used(&File::open(&used).unwrap());
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

    /// A PoCL binary of format 9 with one kernel of two arguments, laid out as PoCL 3.1 writes one.
    fn pocl_binary(program_file: &[u8]) -> Vec<u8> {
        let string = |bytes: &mut Vec<u8>, s: &[u8]| {
            bytes.extend_from_slice(&(s.len() as u32).to_le_bytes());
            bytes.extend_from_slice(s);
        };
        let file = |name: &[u8], content: &[u8]| {
            let mut file = Vec::new();
            string(&mut file, name);
            string(&mut file, content);
            file
        };
        let mut binary = b"poclbin\0".to_vec();
        binary.extend_from_slice(&7u64.to_le_bytes()); // device id
        binary.extend_from_slice(&9u32.to_le_bytes()); // version
        binary.extend_from_slice(&1u32.to_le_bytes()); // kernels
        binary.extend_from_slice(&(4u64 << 32).to_le_bytes()); // flags: an executable
        binary.extend_from_slice(&1u32.to_le_bytes()); // root entries
        binary.extend_from_slice(&[b'A'; 40]);
        binary.push(0);
        let program = file(program_file, b"BC\xc0\xde bitcode");
        binary.extend_from_slice(&(program.len() as u64).to_le_bytes());
        binary.extend_from_slice(&program);
        let mut kernel = Vec::new();
        string(&mut kernel, b"fftx_stockham");
        kernel.extend_from_slice(&2u32.to_le_bytes()); // arguments
        kernel.extend_from_slice(&1u32.to_le_bytes()); // locals
        kernel.extend_from_slice(&[0; 24]); // required work-group size
        kernel.extend_from_slice(&64u64.to_le_bytes()); // the local's size
        string(&mut kernel, b"__attribute__((reqd_work_group_size(1, 1, 1)))");
        kernel.extend_from_slice(&0x1fu64.to_le_bytes()); // argument metadata flags
        let mut arguments = Vec::new();
        for (name, type_name) in [(&b"data"[..], &b"float2*"[..]), (b"n", b"uint")] {
            arguments.extend_from_slice(&[0; 24]);
            string(&mut arguments, name);
            string(&mut arguments, type_name);
        }
        let files = file(b"/fftx_stockham/0-0-0/fftx_stockham.so", b"\x7fELF code");
        let size = 8 + 8 + 4 + kernel.len() + arguments.len() + files.len();
        binary.extend_from_slice(&(size as u64).to_le_bytes());
        binary.extend_from_slice(&(files.len() as u64).to_le_bytes());
        binary.extend_from_slice(&(arguments.len() as u32).to_le_bytes());
        [binary, kernel, arguments, files].concat()
    }

    #[test]
    fn pocl_framing_rejects_every_truncation_and_paths_out_of_the_program() {
        let binary = pocl_binary(b"/program.bc");
        assert_eq!(check_pocl_framing(&binary), Ok(()));
        for end in 0..binary.len() {
            assert!(check_pocl_framing(&binary[..end]).is_err(), "cut at {end} of {}", binary.len());
        }
        assert!(check_pocl_framing(&[&binary[..], b"x"].concat()).is_err(), "a byte more");
        assert!(check_pocl_framing(&pocl_binary(b"/../evil.bc")).is_err(), "a path out of the program's folder");
        let mut version = binary.clone();
        version[16] = 12;
        assert_eq!(check_pocl_framing(&version), Err("a PoCL binary format of unknown layout"));
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
