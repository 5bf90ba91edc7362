//! Library-wide state set by `clfftSetup` and cleared by `clfftTeardown`.

use super::registry;
use crate::codegen::KernelSource;
use crate::log::Topic;
use crate::runtime::{cache, DeviceInfo};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// clFFT's `CLFFT_DUMP_PROGRAMS` debug flag.
pub const DUMP_PROGRAMS: u64 = 1;

/// The variable clFFT reads at `clfftSetup` to plan large transforms without scratch buffers.
pub const NO_MEM_ALLOC_VAR: &str = "CLFFT_REQUEST_LIB_NOMEMALLOC";

static SETUP: AtomicBool = AtomicBool::new(false);
static DEBUG_FLAGS: AtomicU64 = AtomicU64::new(0);
static NO_MEM_ALLOC: AtomicBool = AtomicBool::new(false);

/// Records the setup flags and reads `CLFFT_REQUEST_LIB_NOMEMALLOC`. Calling it again while set up only
/// updates them.
///
/// The mode is on when the variable is set to anything but empty or `0`, and every setup reads it again, so
/// unsetting it and calling `clfftTeardown` + `clfftSetup` switches the mode off. clFFT 2.12 differs: any
/// value, `0` included, switches it on, and nothing switches it off before the process ends.
pub fn setup(debug_flags: u64) {
    DEBUG_FLAGS.store(debug_flags, Ordering::Relaxed);
    let requested = std::env::var_os(NO_MEM_ALLOC_VAR).is_some_and(|v| !v.is_empty() && v != "0");
    NO_MEM_ALLOC.store(requested, Ordering::Relaxed);
    SETUP.store(true, Ordering::Relaxed);
}

/// The library-wide no-allocation mode, for plans without a setting of their own.
pub fn no_mem_alloc() -> bool {
    NO_MEM_ALLOC.load(Ordering::Relaxed)
}

/// Destroys every plan and drops cached programs and tables. Safe to call at any time, any number of times.
pub fn teardown() {
    let plans = registry::CLFFT_PLANS.clear();
    super::transpose::clear();
    cache::clear_memory();
    // Nothing of fftx's keeps running after teardown: the disk cache's pending writes finish first.
    cache::wait_for_writes();
    crate::codegen::bluestein::forget_recent_tables();
    SETUP.store(false, Ordering::Relaxed);
    crate::log!(Topic::Info, "teardown destroyed {plans} plan(s)");
}

pub fn is_setup() -> bool {
    SETUP.load(Ordering::Relaxed)
}

pub fn debug_flags() -> u64 {
    DEBUG_FLAGS.load(Ordering::Relaxed)
}

/// Writes the programs of plan `handle` to the current folder as clFFT does: `clfft.kernel.<Kind><handle>.cl`,
/// with `_<n>` after the handle when the plan has several programs of one kind (clFFT gives each sub-plan a
/// handle of its own instead), each after a comment with the options it builds with (a program that falls back
/// to the full builtin header, which `FFTX_LOG=error` reports, builds again without the declarations' flags).
/// A file that cannot be written is reported under `FFTX_LOG=error`; the bake goes on, since the dump only
/// serves debugging.
pub fn dump_programs(handle: usize, sources: &[KernelSource], device: &DeviceInfo) {
    let kind = |s: &KernelSource| {
        let name = s.entry.strip_prefix("fftx_").unwrap_or(s.entry);
        name[..1].to_ascii_uppercase() + &name[1..]
    };
    for (i, source) in sources.iter().enumerate() {
        let same_kind: Vec<_> = sources.iter().enumerate().filter(|(_, s)| kind(s) == kind(source)).collect();
        let suffix = match same_kind.iter().position(|(j, _)| *j == i) {
            Some(n) if same_kind.len() > 1 => format!("_{n}"),
            _ => String::new(),
        };
        let path = format!("clfft.kernel.{}{handle}{suffix}.cl", kind(source));
        let text = format!("/* build options: {} */\n{}", cache::build_options(device, source.text()), source.source);
        match std::fs::write(&path, text) {
            Ok(()) => crate::log!(Topic::Info, "wrote {path}"),
            Err(e) => crate::log!(Topic::Error, "CLFFT_DUMP_PROGRAMS: cannot write {path}: {e}"),
        }
    }
}
