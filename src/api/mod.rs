//! The C ABI. Shells check arguments, translate to the plan layer and back to status codes; no FFT maths
//! here. Every exported function runs its body under `guard`, so no panic crosses the boundary.
//!
//! Pointers from C are read and written only through the helpers below, each an `unsafe fn` whose contract
//! the shells meet by their own checks and their callers' (each exported function's `# Safety`).
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod clfft;
pub mod fftx;
pub mod transpose;

use crate::error::{Error, ErrorKind, Result};
use crate::log::Topic;
use crate::planner::tuning::Tuning;
use once_cell::sync::Lazy;
use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The tuning of every plan the APIs make unless the caller sets one: `FFTX_TUNE`, read once (as `FFTX_LOG`
/// is). A spec fftx does not read is reported under `FFTX_LOG=error` and plans are made without it.
pub fn default_tuning() -> Tuning {
    static DEFAULT: Lazy<Tuning> = Lazy::new(|| {
        let spec = std::env::var("FFTX_TUNE").unwrap_or_default();
        Tuning::parse(&spec).unwrap_or_else(|e| {
            crate::log!(Topic::Error, "FFTX_TUNE: {e}; plans are made without it");
            Tuning::default()
        })
    });
    *DEFAULT
}

/// Reads a tuning spec for a plan (`Tuning::parse`): a null spec is the process default (`FFTX_TUNE`).
///
/// # Safety
/// `spec` is null or a NUL-terminated string.
pub(crate) unsafe fn read_tuning(spec: *const c_char) -> Result<Tuning> {
    if spec.is_null() {
        return Ok(default_tuning());
    }
    // SAFETY: checked non-null above; the caller passes a NUL-terminated string.
    match unsafe { c_str(spec) }.to_str() {
        Ok(spec) => Tuning::parse(spec),
        Err(_) => Err(Error::new(ErrorKind::InvalidArgValue, "the tuning spec is not UTF-8")),
    }
}

/// The value a C caller's pointer argument points to; `None` when the pointer is null.
///
/// # Safety
/// `ptr` is null or points to an initialised, aligned `T`.
pub(crate) unsafe fn load<T: Copy>(ptr: *const T) -> Option<T> {
    // SAFETY: non-null here, so the caller's contract makes it readable.
    (!ptr.is_null()).then(|| unsafe { ptr.read() })
}

/// Writes `value` through a C caller's out-parameter; does nothing when the pointer is null (the shells
/// decide whether null is an error, and check that first).
///
/// # Safety
/// `ptr` is null or valid for writing an aligned `T`.
pub(crate) unsafe fn store<T: Copy>(ptr: *mut T, value: T) {
    if !ptr.is_null() {
        // SAFETY: non-null here, so the caller's contract makes it writable.
        unsafe { ptr.write(value) };
    }
}

/// Checks a C caller's out-parameter for null (`InvalidHostPtr`), then computes `value` and writes it.
///
/// # Safety
/// `ptr` is null or valid for writing an aligned `T`.
pub(crate) unsafe fn out_param<T: Copy>(ptr: *mut T, what: &str, value: impl FnOnce() -> Result<T>) -> Result<()> {
    non_null(ptr, what)?;
    let value = value()?;
    // SAFETY: checked non-null above; the caller's contract makes it writable.
    unsafe { store(ptr, value) };
    Ok(())
}

/// The `len` values of a C caller's array, borrowed for `'a`; empty when `len` is 0, whatever `ptr` is.
///
/// # Safety
/// Unless `len` is 0, `ptr` is non-null, aligned and points to `len` initialised values of `T` that nothing
/// writes during `'a`.
pub(crate) unsafe fn c_array<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract above, with `len` not 0.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// The `len` values of a C caller's array, borrowed mutably for `'a`; empty when `len` is 0, whatever `ptr`
/// is.
///
/// # Safety
/// Unless `len` is 0, `ptr` is non-null, aligned and points to `len` values of `T` that nothing else reads or
/// writes during `'a`.
pub(crate) unsafe fn c_array_mut<'a, T>(ptr: *mut T, len: usize) -> &'a mut [T] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: the caller's contract above, with `len` not 0.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
}

/// A C caller's string, borrowed for `'a`.
///
/// # Safety
/// `ptr` is non-null and points to a NUL-terminated string that nothing writes during `'a`.
pub(crate) unsafe fn c_str<'a>(ptr: *const c_char) -> &'a CStr {
    // SAFETY: the caller's contract above.
    unsafe { CStr::from_ptr(ptr) }
}

thread_local! {
    /// The message of this thread's latest failed call, as `FFTX_LOG=error` prints it.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// The message of the calling thread's latest failed call (`"name: reason"`), empty before any; the pointer
/// stays valid until that thread's next failed call.
pub(crate) fn last_error_message() -> *const c_char {
    LAST_ERROR.with(|m| m.borrow().as_ptr())
}

/// Runs the body of exported function `name`: a panic becomes a `Bugcheck`, and every failure is written
/// under `FFTX_LOG=error` before its status goes back to the caller.
pub(crate) fn guard<T>(name: &str, body: impl FnOnce() -> Result<T>) -> Result<T> {
    let body = || {
        if crate::runtime::cl::forked_after_use() {
            return Err(Error::new(
                ErrorKind::Bugcheck,
                "OpenCL state does not survive fork(): this process was forked after its parent used fftx; use \
                 fftx in the parent only, or start processes without fork (Python: the spawn start method)",
            ));
        }
        body()
    };
    let result = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(Error::new(ErrorKind::Bugcheck, format!("internal error (panic): {what}")))
    });
    if let Err(e) = &result {
        let message = format!("{name}: {e}");
        crate::log::write(Topic::Error, &message);
        let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        LAST_ERROR.with(|m| *m.borrow_mut() = message);
    }
    result
}

/// Fails with `InvalidHostPtr` when `ptr` is null.
pub(crate) fn non_null<T>(ptr: *const T, what: &str) -> Result<()> {
    if ptr.is_null() {
        Err(Error::new(ErrorKind::InvalidHostPtr, format!("{what} is a null pointer")))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_a_bugcheck() {
        let result: Result<()> = guard("test", || panic!("a planner bug"));
        let error = result.unwrap_err();
        assert_eq!(error.kind, ErrorKind::Bugcheck);
        assert!(error.message.contains("a planner bug"), "{}", error.message);
        assert_eq!(clfft::status_of(error.kind), clfft::CLFFT_BUGCHECK);
        let internal = fftx::fftxResult_t::FFTX_INTERNAL_ERROR;
        assert_eq!(fftx::result_of(error.kind, fftx::fftxResult_t::FFTX_EXEC_FAILED), internal);
    }

    #[test]
    fn the_last_error_is_the_threads_latest_failure() {
        // SAFETY: the last error message is a NUL-terminated string that lives until the thread's next failure.
        let read = || unsafe { c_str(last_error_message()) }.to_str().unwrap().to_string();
        let _: Result<()> = guard("first", || Err(Error::new(ErrorKind::InvalidPlan, "one")));
        let _: Result<()> = guard("second", || Ok(()));
        assert_eq!(read(), "first: one");
        std::thread::spawn(move || assert_eq!(read(), "")).join().unwrap();
    }
}
