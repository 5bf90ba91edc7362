//! Buffers fftx allocates for its own use (a plan's scratch, the staging copies of callbacks and host
//! executions, out-of-core slabs), and their release.
//!
//! On a CPU they are host memory mapped here and offered to the kernel for 2 MiB pages, for two reasons:
//! passes striding across pages miss the TLB less, and the memory goes back to the system as soon as fftx
//! is done with it. The runtime's own allocation comes from the C allocator, whose dynamic mmap threshold
//! keeps freed 8 MiB blocks resident; and PoCL 3.1 destroys a buffer only once it has retired the commands
//! that used it, a while after they complete (a destroyed plan's two 8 MiB buffers stay mapped meanwhile).
//! So a working buffer is retired rather than dropped: its pages are discarded once the last command that
//! may use it has completed, and the mapping goes whenever the runtime destroys the buffer.

use super::cl::{check, Buffer, Context, Event, HostStorage};
use super::DeviceKind;
use crate::error::{fail, ErrorKind, Result};
use crate::log::Topic;
use ocl::core::ffi::{self as cl, cl_event, cl_int};
use std::ffi::c_void;
use std::ptr;
use std::sync::Arc;

/// The 2 MiB page.
const HUGE_PAGE: usize = 2 << 20;

/// A buffer fftx allocated for itself, and on a CPU the host pages it stores in.
pub struct WorkingBuffer {
    buffer: Buffer,
    pages: Option<Arc<HostMapping>>,
}

impl WorkingBuffer {
    /// `bytes` bytes in `context`, whose device is of kind `kind`. On a CPU, host memory in 2 MiB pages where
    /// the kernel grants them (transparent huge pages enabled, or on `madvise`); elsewhere, where no mapping
    /// can be made, or where the buffer would not fill one such page (whose first touch takes all of it), a
    /// plain buffer.
    /// A CPU's buffer larger than the host memory available fails here, with a status, where the kernel's
    /// out-of-memory killer would otherwise end the process once the pages are touched.
    pub fn new(context: &Context, kind: DeviceKind, bytes: usize) -> Result<WorkingBuffer> {
        if kind == DeviceKind::Cpu {
            check_host_memory(bytes, "a working buffer")?;
        }
        let plain = || Ok(WorkingBuffer { buffer: Buffer::create(context, bytes)?, pages: None });
        if kind != DeviceKind::Cpu || bytes < HUGE_PAGE {
            return plain();
        }
        let Some(pages) = HostMapping::new(bytes) else {
            return plain();
        };
        let pages = Arc::new(pages);
        let buffer = Buffer::stored_in(context, bytes, pages.clone(), "clCreateBuffer(CL_MEM_USE_HOST_PTR)")?;
        crate::log!(Topic::Info, "allocated a host buffer of {bytes} bytes in 2 MiB pages");
        Ok(WorkingBuffer { buffer, pages: Some(pages) })
    }
}

impl std::ops::Deref for WorkingBuffer {
    type Target = Buffer;

    fn deref(&self) -> &Buffer {
        &self.buffer
    }
}

/// The host memory available to new allocations (Linux's `MemAvailable`), where the system says.
pub fn available_host_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Fails (`CL_MEM_OBJECT_ALLOCATION_FAILURE`) where `bytes` of host memory for `what` exceed what the system
/// has available.
pub fn check_host_memory(bytes: usize, what: &str) -> Result<()> {
    match available_host_memory() {
        Some(available) if bytes > available => fail(
            ErrorKind::MemObjectAllocationFailure,
            format!("{what} needs {bytes} bytes of host memory; the system has {available} available"),
        ),
        _ => Ok(()),
    }
}

/// Gives `buffers` up: their pages go back to the system once `last_use` (the event of the last command that
/// used them, whose completion implies the others') has completed: now if it has, or none used them. Where
/// the wait cannot be registered, they go when the runtime destroys the buffers.
pub fn retire(buffers: impl IntoIterator<Item = WorkingBuffer>, last_use: Option<&Event>) {
    let pages: Vec<Arc<HostMapping>> = buffers.into_iter().filter_map(|b| b.pages).collect();
    if pages.is_empty() {
        return;
    }
    // Complete, or failed (negative). A status that cannot be read counts as pending.
    let done = |event: &&Event| event.status().is_ok_and(|status| status <= cl::CL_COMPLETE);
    let Some(event) = last_use.filter(|event| !done(event)) else {
        pages.iter().for_each(|p| p.discard());
        return;
    };
    let owner = Box::into_raw(Box::new(pages));
    // SAFETY: the callback takes the box back exactly once; when registering fails it is ours again.
    let status = unsafe { cl::clSetEventCallback(event.raw(), cl::CL_COMPLETE, Some(discard_pages), owner.cast()) };
    if let Err(e) = check(status, "clSetEventCallback") {
        drop(unsafe { Box::from_raw(owner) });
        crate::log!(Topic::Info, "{e}; working buffers keep their pages until the runtime destroys them");
    }
}

extern "C" fn discard_pages(_event: cl_event, _status: cl_int, owner: *mut c_void) {
    // SAFETY: `owner` is the box `retire` leaked for this callback, which the runtime calls once.
    let pages = unsafe { Box::from_raw(owner as *mut Vec<Arc<HostMapping>>) };
    pages.iter().for_each(|p| p.discard());
}

/// An anonymous host mapping with a 2 MiB-aligned region of at least the bytes asked for at `start`, unmapped
/// when the last reference goes: the buffer's destructor callback holds one, a pending `retire` another.
struct HostMapping {
    pointer: usize,
    len: usize,
    start: usize,
}

impl HostMapping {
    fn new(bytes: usize) -> Option<HostMapping> {
        let span = bytes.div_ceil(HUGE_PAGE) * HUGE_PAGE;
        let len = span + HUGE_PAGE;
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches nothing else.
        let mapped = unsafe {
            libc::mmap(
                ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if mapped == libc::MAP_FAILED {
            crate::log!(Topic::Info, "no host mapping of {len} bytes; a plain buffer instead");
            return None;
        }
        let start = (mapped as usize).next_multiple_of(HUGE_PAGE);
        // SAFETY: [start, start + span) lies inside the mapping just made; the advice only changes its paging.
        if unsafe { libc::madvise(start as *mut c_void, span, libc::MADV_HUGEPAGE) } != 0 {
            crate::log!(Topic::Info, "the kernel declined 2 MiB pages for a buffer; 4 KiB pages instead");
        }
        Some(HostMapping { pointer: mapped as usize, len, start })
    }

    /// Gives the pages back to the system. The range stays mapped and would read as zeros, so this is only for
    /// once no command will use it any more.
    fn discard(&self) {
        // SAFETY: the range is the mapping this value owns, still mapped while it lives; the advice frees its
        // pages and leaves the mapping valid.
        unsafe { libc::madvise(self.pointer as *mut c_void, self.len, libc::MADV_DONTNEED) };
    }
}

impl HostStorage for Arc<HostMapping> {
    fn address(&self) -> *mut c_void {
        self.start as *mut c_void
    }
}

impl Drop for HostMapping {
    fn drop(&mut self) {
        // SAFETY: the last reference is gone: the runtime destroyed the buffer (or never made it), so nothing
        // uses the memory; the pointer and length are those mmap returned and took.
        unsafe { libc::munmap(self.pointer as *mut c_void, self.len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_memory_beyond_what_is_available_is_an_error() {
        assert!(available_host_memory().is_some_and(|bytes| bytes > 0), "Linux says what is available");
        assert!(check_host_memory(1 << 20, "a test").is_ok());
        let error = check_host_memory(usize::MAX / 2, "a test").unwrap_err();
        assert_eq!(error.kind, ErrorKind::MemObjectAllocationFailure);
        assert!(error.message.contains("a test needs"), "{}", error.message);
    }
}
