//! Device memory handed to C callers as plain pointers (`fftxMalloc`), and the library's default queue.
//!
//! On a device with shared virtual memory an allocation is SVM, wrapped in a buffer that uses it as storage:
//! the pointer is the memory's own address, for the device and (mapped) the host. Otherwise it is an OpenCL
//! buffer named by the start of an address range reserved with `mmap(PROT_NONE)`: such a pointer can never
//! alias host memory, and any access to it through the CPU faults instead of corrupting something. Either
//! way a pointer anywhere inside an allocation resolves to its buffer and an offset, as pointer arithmetic on
//! device memory does in CUDA.

use super::cl::{Buffer, Context, Queue};
use super::select::default_device;
use crate::error::{fail, Error, ErrorKind, Result};
use once_cell::sync::OnceCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The context and in-order queue used when a caller brings none, like CUDA's default stream: device
/// allocations live in this context and plans without a stream of their own run on this queue.
pub struct DefaultStream {
    pub context: Context,
    pub queue: Queue,
    /// The device has shared virtual memory buffers.
    pub svm_buffers: bool,
}

static DEFAULT: OnceCell<DefaultStream> = OnceCell::new();

/// The default stream on `select::default_device()`, created on first use.
pub fn default_stream() -> Result<&'static DefaultStream> {
    DEFAULT.get_or_try_init(|| {
        let (_, device) = default_device()?;
        crate::log!(crate::log::Topic::Info, "default stream on {}", super::cl::device_name(device)?);
        let context = Context::create(device)?;
        let queue = Queue::create(&context, device, false)?;
        Ok(DefaultStream { context, queue, svm_buffers: super::device::device_info(device)?.svm_buffers })
    })
}

struct Allocation {
    buffer: Buffer,
    bytes: usize,
    /// The `mmap` reservation naming a buffer without SVM (its length), or `None` for SVM, which goes with
    /// its buffer.
    reserved: Option<usize>,
}

static TABLE: Mutex<BTreeMap<usize, Allocation>> = Mutex::new(BTreeMap::new());

/// An allocation freed lately, still holding its address range so that a pointer into it is known for what
/// it is: a reservation stays mapped `PROT_NONE` (its buffer is gone), shared virtual memory stays allocated
/// (`shared`), so no host memory can take its place meanwhile. The oldest go for good beyond `FREED_KEPT` of
/// them or, for shared memory, which holds real memory, beyond `FREED_SHARED_BYTES`.
struct FreedRange {
    start: usize,
    bytes: usize,
    reserved: Option<usize>,
    shared: Option<Buffer>,
}

static FREED: Mutex<std::collections::VecDeque<FreedRange>> = Mutex::new(std::collections::VecDeque::new());
const FREED_KEPT: usize = 1024;
const FREED_SHARED_BYTES: usize = 64 << 20;

static SVM_REFUSALS: AtomicUsize = AtomicUsize::new(0);

/// How many SVM allocations the driver has refused so far, each made a plain buffer instead.
pub fn svm_refusals() -> usize {
    SVM_REFUSALS.load(Ordering::Relaxed)
}

fn table() -> std::sync::MutexGuard<'static, BTreeMap<usize, Allocation>> {
    TABLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A place in device memory: a buffer (one more reference to it) and a byte offset inside it.
#[derive(Debug, Clone)]
pub struct DeviceRegion {
    pub buffer: Buffer,
    pub offset: usize,
    /// Bytes from `offset` to the end of the allocation.
    pub available: usize,
}

/// Allocates `bytes` of device memory in `context` and returns the pointer that names it: shared virtual
/// memory when `shared` (for a device with SVM buffers) and the driver grants it, else a reserved handle.
pub fn allocate(context: &Context, bytes: usize, shared: bool) -> Result<usize> {
    if bytes == 0 {
        return fail(ErrorKind::InvalidArgValue, "a device allocation of zero bytes");
    }
    if shared {
        // NVIDIA's OpenCL (driver 580, H100) reports SVM buffers, yet its clSVMAlloc refused some sizes
        // (4096 bytes) while granting others; such an allocation becomes a plain buffer.
        match Buffer::shared(context, bytes) {
            Ok((buffer, start)) => {
                table().insert(start, Allocation { buffer, bytes, reserved: None });
                return Ok(start);
            }
            Err(e) => {
                SVM_REFUSALS.fetch_add(1, Ordering::Relaxed);
                crate::log!(crate::log::Topic::Info, "{e}; fftxMalloc gives a plain buffer instead");
            }
        }
    }
    let buffer = Buffer::create(context, bytes)?;
    let page = page_size();
    let reserved = bytes.div_ceil(page) * page;
    // SAFETY: an anonymous PROT_NONE mapping at an address of the kernel's choice touches no existing memory.
    let start = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            reserved,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if start == libc::MAP_FAILED {
        return fail(
            ErrorKind::OutOfHostMemory,
            format!("cannot reserve {reserved} bytes of address space for a device allocation"),
        );
    }
    let start = start as usize;
    table().insert(start, Allocation { buffer, bytes, reserved: Some(reserved) });
    Ok(start)
}

/// Frees the allocation that starts at `pointer`: its buffer goes at once (shared virtual memory a little
/// later), its address after more frees (see `FreedRange`).
pub fn free(pointer: usize) -> Result<()> {
    let Some(allocation) = table().remove(&pointer) else {
        return fail(
            ErrorKind::InvalidArgValue,
            format!("{pointer:#x} is not the start of a device allocation (never allocated, or freed)"),
        );
    };
    let range = match allocation.reserved {
        Some(reserved) => FreedRange { start: pointer, bytes: reserved, reserved: Some(reserved), shared: None },
        None => FreedRange { start: pointer, bytes: allocation.bytes, reserved: None, shared: Some(allocation.buffer) },
    };
    let mut freed = FREED.lock().unwrap_or_else(|e| e.into_inner());
    freed.push_back(range);
    let shared_bytes = |f: &std::collections::VecDeque<FreedRange>| -> usize {
        f.iter().filter(|r| r.shared.is_some()).map(|r| r.bytes).sum()
    };
    while freed.len() > FREED_KEPT || shared_bytes(&freed) > FREED_SHARED_BYTES {
        let Some(oldest) = freed.pop_front() else { break };
        if let Some(reserved) = oldest.reserved {
            // SAFETY: the range was mapped by `allocate` with this length and is unmapped once, here.
            unsafe { libc::munmap(oldest.start as *mut libc::c_void, reserved) };
        }
    }
    Ok(())
}

/// True when `pointer` falls in an allocation freed lately (see `FreedRange`): no live memory is there.
pub fn freed(pointer: usize) -> bool {
    let freed = FREED.lock().unwrap_or_else(|e| e.into_inner());
    freed.iter().any(|r| (r.start..r.start + r.bytes).contains(&pointer))
}

/// The device region a pointer falls in, or `None` for any pointer that is not device memory.
pub fn lookup(pointer: usize) -> Option<DeviceRegion> {
    within_allocation(pointer, |allocation, offset| DeviceRegion {
        buffer: allocation.buffer.clone(),
        offset,
        available: allocation.bytes - offset,
    })
}

/// Like `lookup`, but a pointer outside device memory is an error naming `what`.
pub fn region(pointer: usize, what: &str) -> Result<DeviceRegion> {
    lookup(pointer).ok_or_else(|| {
        Error::new(ErrorKind::InvalidArgValue, format!("{what} ({pointer:#x}) is not device memory from fftxMalloc"))
    })
}

/// Whether the allocation a pointer falls in is shared virtual memory; `None` outside device memory.
pub fn is_shared(pointer: usize) -> Option<bool> {
    within_allocation(pointer, |allocation, _| allocation.reserved.is_none())
}

/// `read` of the allocation a pointer falls in and the pointer's offset into it; `None` outside device memory.
fn within_allocation<T>(pointer: usize, read: impl FnOnce(&Allocation, usize) -> T) -> Option<T> {
    let table = table();
    let (&start, allocation) = table.range(..=pointer).next_back()?;
    let offset = pointer - start;
    (offset < allocation.bytes).then(|| read(allocation, offset))
}

/// Number of live allocations.
pub fn live_allocations() -> usize {
    table().len()
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if size > 0 {
        size as usize
    } else {
        4096
    }
}

/// The context of `queue`, as a reference of our own.
pub fn context_of(queue: &Queue) -> Result<Context> {
    // SAFETY: a queue's context is a valid context handle for as long as the queue lives, and we hold the queue.
    unsafe { Context::retained(queue.context()?) }
}
