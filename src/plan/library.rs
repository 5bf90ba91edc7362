//! Library-wide state set by `clfftSetup` and cleared by `clfftTeardown`.

use super::registry;
use crate::log::Topic;
use crate::runtime::cache;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// clFFT's `CLFFT_DUMP_PROGRAMS` debug flag.
pub const DUMP_PROGRAMS: u64 = 1;

static SETUP: AtomicBool = AtomicBool::new(false);
static DEBUG_FLAGS: AtomicU64 = AtomicU64::new(0);

/// Records the setup flags. Calling it again while set up only updates them.
pub fn setup(debug_flags: u64) {
    DEBUG_FLAGS.store(debug_flags, Ordering::Relaxed);
    SETUP.store(true, Ordering::Relaxed);
}

/// Destroys every plan and drops cached programs. Safe to call at any time, any number of times.
pub fn teardown() {
    let plans = registry::clear();
    cache::clear_memory();
    SETUP.store(false, Ordering::Relaxed);
    crate::log!(Topic::Info, "teardown destroyed {plans} plan(s)");
}

pub fn is_setup() -> bool {
    SETUP.load(Ordering::Relaxed)
}

pub fn debug_flags() -> u64 {
    DEBUG_FLAGS.load(Ordering::Relaxed)
}
