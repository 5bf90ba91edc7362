//! Owning wrappers over raw OpenCL handles, and the OpenCL calls fftx makes.
//!
//! Each wrapper holds one reference: `from_created` adopts a handle a `clCreate*` call just returned,
//! `retained` shares a handle the caller owns (retaining it), and `Drop` releases.
//!
//! Raw handles (`cl_mem`, `cl_command_queue`, ...) are opaque: fftx never dereferences them, it only hands
//! them to the driver, which validates what it can. Hence functions taking them are not `unsafe`.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use crate::error::{fail, Error, ErrorKind, Result};
use ocl::core::ffi::{
    self as cl, cl_command_queue, cl_context, cl_device_id, cl_event, cl_int, cl_kernel, cl_mem, cl_program,
};
use std::ffi::{c_void, CString};
use std::ptr;

// OpenCL 2.0's shared virtual memory, which the `ocl` bindings leave out at the 1.2 level fftx builds against;
// the ICD loader exports them, and only devices reporting SVM are asked.
extern "C" {
    fn clSVMAlloc(context: cl_context, flags: u64, size: usize, alignment: u32) -> *mut c_void;
    fn clSVMFree(context: cl_context, svm_pointer: *mut c_void);
}

/// A buffer handle as the C APIs pass it.
pub type RawMem = cl_mem;
/// An event handle as the C APIs pass it.
pub type RawEvent = cl_event;
/// A context handle, as queues and buffers name theirs.
pub type RawContext = cl_context;

/// Turns an OpenCL status into a `Result`, naming the call in the message.
pub fn check(code: cl_int, what: &str) -> Result<()> {
    note_opencl_use();
    if code == cl::CL_SUCCESS as cl_int {
        Ok(())
    } else {
        Err(Error::opencl(what, code))
    }
}

/// The process that first called OpenCL through fftx; 0 before any call.
static OPENCL_PROCESS: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

fn note_opencl_use() {
    use std::sync::atomic::Ordering;
    if OPENCL_PROCESS.load(Ordering::Relaxed) == 0 {
        // SAFETY: getpid has no preconditions and cannot fail.
        let pid = unsafe { libc::getpid() };
        let _ = OPENCL_PROCESS.compare_exchange(0, pid, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// True in a child that `fork()` made after its parent used OpenCL through fftx: the OpenCL runtime's threads,
/// queues and contexts do not survive a fork (PoCL's child waits forever on its first command).
pub fn forked_after_use() -> bool {
    let pid = OPENCL_PROCESS.load(std::sync::atomic::Ordering::Relaxed);
    // SAFETY: getpid has no preconditions and cannot fail.
    pid != 0 && pid != unsafe { libc::getpid() }
}

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $raw:ty, $retain:ident, $release:ident) => {
        $(#[$doc])*
        pub struct $name($raw);

        // OpenCL objects may be used from any thread; fftx serialises kernel argument setting per plan.
        unsafe impl Send for $name {}
        unsafe impl Sync for $name {}

        impl $name {
            /// Adopts a handle that a create call just returned with a reference count of one.
            ///
            /// # Safety
            /// `raw` must be a valid, newly created handle that nothing else will release.
            pub unsafe fn from_created(raw: $raw) -> Self {
                $name(raw)
            }

            /// Shares a handle owned elsewhere, taking a reference of its own.
            ///
            /// # Safety
            /// `raw` must be null or a handle of this OpenCL object type.
            pub unsafe fn retained(raw: $raw) -> Result<Self> {
                if raw.is_null() {
                    return fail(ErrorKind::InvalidArgValue, concat!("null ", stringify!($name), " handle"));
                }
                // SAFETY: the caller passes a handle of this type, checked non-null above.
                check(unsafe { cl::$retain(raw) }, stringify!($retain))?;
                Ok($name(raw))
            }

            pub fn raw(&self) -> $raw {
                self.0
            }

            /// Gives this reference to the caller, who becomes responsible for releasing it.
            pub fn into_raw(self) -> $raw {
                let raw = self.0;
                std::mem::forget(self);
                raw
            }
        }

        impl Clone for $name {
            fn clone(&self) -> Self {
                // Retaining a handle we already hold a reference to cannot fail.
                unsafe { cl::$retain(self.0) };
                $name(self.0)
            }
        }

        impl Drop for $name {
            fn drop(&mut self) {
                unsafe { cl::$release(self.0) };
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({:p})", stringify!($name), self.0)
            }
        }
    };
}

handle!(
    /// An OpenCL context.
    Context, cl_context, clRetainContext, clReleaseContext
);
handle!(
    /// An OpenCL command queue.
    Queue, cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue
);
handle!(
    /// An OpenCL buffer.
    Buffer, cl_mem, clRetainMemObject, clReleaseMemObject
);
handle!(
    /// A built OpenCL program.
    Program, cl_program, clRetainProgram, clReleaseProgram
);
handle!(
    /// An OpenCL kernel object; its arguments are state, so each plan owns its own.
    Kernel, cl_kernel, clRetainKernel, clReleaseKernel
);
handle!(
    /// An OpenCL event.
    Event, cl_event, clRetainEvent, clReleaseEvent
);

/// Reads a fixed-size info value through a `clGet*Info`-shaped call.
///
/// # Safety
/// `get` must write at most `size` bytes to its value pointer, as `clGet*Info` does.
unsafe fn info_value<T: Copy + Default>(
    what: &str,
    get: impl Fn(usize, *mut c_void, *mut usize) -> cl_int,
) -> Result<T> {
    let mut value = T::default();
    check(get(std::mem::size_of::<T>(), &mut value as *mut T as *mut c_void, ptr::null_mut()), what)?;
    Ok(value)
}

/// Reads a variable-size info value through a `clGet*Info`-shaped call.
///
/// # Safety
/// `get` must write at most `size` bytes to its value pointer, as `clGet*Info` does.
unsafe fn info_bytes(what: &str, get: impl Fn(usize, *mut c_void, *mut usize) -> cl_int) -> Result<Vec<u8>> {
    let mut size = 0usize;
    check(get(0, ptr::null_mut(), &mut size), what)?;
    let mut bytes = vec![0u8; size];
    if size > 0 {
        check(get(size, bytes.as_mut_ptr() as *mut c_void, ptr::null_mut()), what)?;
    }
    Ok(bytes)
}

pub(crate) fn bytes_to_string(mut bytes: Vec<u8>) -> String {
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Reads a fixed-size device info value.
///
/// # Safety
/// `device` must be a valid device id and `T` the type `param` returns.
pub(crate) unsafe fn device_info_value<T: Copy + Default>(device: cl_device_id, param: u32) -> Result<T> {
    // SAFETY: the caller passes a valid device; clGetDeviceInfo writes at most `size` bytes.
    unsafe { info_value("clGetDeviceInfo", |size, value, ret| cl::clGetDeviceInfo(device, param, size, value, ret)) }
}

/// Reads a variable-size device info value.
///
/// # Safety
/// `device` must be a valid device id.
pub(crate) unsafe fn device_info_bytes(device: cl_device_id, param: u32) -> Result<Vec<u8>> {
    // SAFETY: the caller passes a valid device; clGetDeviceInfo writes at most `size` bytes.
    unsafe { info_bytes("clGetDeviceInfo", |size, value, ret| cl::clGetDeviceInfo(device, param, size, value, ret)) }
}

/// Reads a platform info string.
///
/// # Safety
/// `platform` must be a valid platform id.
pub(crate) unsafe fn platform_info_string(platform: cl::cl_platform_id, param: u32) -> Result<String> {
    // SAFETY: the caller passes a valid platform; clGetPlatformInfo writes at most `size` bytes.
    unsafe {
        info_bytes("clGetPlatformInfo", |size, value, ret| cl::clGetPlatformInfo(platform, param, size, value, ret))
    }
    .map(bytes_to_string)
}

impl Context {
    /// The devices of this context.
    pub fn devices(&self) -> Result<Vec<cl_device_id>> {
        let bytes = unsafe {
            info_bytes("clGetContextInfo(CL_CONTEXT_DEVICES)", |size, value, ret| {
                cl::clGetContextInfo(self.0, cl::CL_CONTEXT_DEVICES, size, value, ret)
            })?
        };
        Ok(bytes
            .chunks_exact(std::mem::size_of::<cl_device_id>())
            .map(|c| usize::from_ne_bytes(c.try_into().unwrap_or_default()) as cl_device_id)
            .collect())
    }

    /// A context on one device.
    pub fn create(device: cl_device_id) -> Result<Context> {
        let mut err = 0;
        let raw = unsafe { cl::clCreateContext(ptr::null(), 1, &device, None, ptr::null_mut(), &mut err) };
        check(err, "clCreateContext")?;
        Ok(unsafe { Context::from_created(raw) })
    }
}

impl Queue {
    /// An in-order queue on `device`, with profiling enabled when asked.
    pub fn create(context: &Context, device: cl_device_id, profiling: bool) -> Result<Queue> {
        let mut err = 0;
        let props = if profiling { cl::CL_QUEUE_PROFILING_ENABLE } else { 0 };
        #[allow(deprecated)]
        let raw = unsafe { cl::clCreateCommandQueue(context.0, device, props, &mut err) };
        check(err, "clCreateCommandQueue")?;
        Ok(unsafe { Queue::from_created(raw) })
    }

    /// The raw context of this queue (not retained).
    pub fn context(&self) -> Result<cl_context> {
        unsafe {
            info_value("clGetCommandQueueInfo(CL_QUEUE_CONTEXT)", |size, value, ret| {
                cl::clGetCommandQueueInfo(self.0, cl::CL_QUEUE_CONTEXT, size, value, ret)
            })
            .map(|p: usize| p as cl_context)
        }
    }

    /// The device this queue submits to.
    pub fn device(&self) -> Result<cl_device_id> {
        unsafe {
            info_value("clGetCommandQueueInfo(CL_QUEUE_DEVICE)", |size, value, ret| {
                cl::clGetCommandQueueInfo(self.0, cl::CL_QUEUE_DEVICE, size, value, ret)
            })
            .map(|p: usize| p as cl_device_id)
        }
    }

    /// Whether the queue runs its commands in order: fftx chains a transform's commands without events.
    pub fn in_order(&self) -> Result<bool> {
        unsafe {
            info_value("clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)", |size, value, ret| {
                cl::clGetCommandQueueInfo(self.0, cl::CL_QUEUE_PROPERTIES, size, value, ret)
            })
            .map(|p: cl::cl_command_queue_properties| p & cl::CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE == 0)
        }
    }

    pub fn finish(&self) -> Result<()> {
        check(unsafe { cl::clFinish(self.0) }, "clFinish")
    }

    pub fn flush(&self) -> Result<()> {
        check(unsafe { cl::clFlush(self.0) }, "clFlush")
    }
}

impl Buffer {
    /// A device buffer of `bytes` bytes.
    pub fn create(context: &Context, bytes: usize) -> Result<Buffer> {
        let mut err = 0;
        let raw =
            unsafe { cl::clCreateBuffer(context.0, cl::CL_MEM_READ_WRITE, bytes.max(1), ptr::null_mut(), &mut err) };
        check(err, "clCreateBuffer")?;
        crate::log!(crate::log::Topic::Info, "allocated a device buffer of {bytes} bytes");
        Ok(unsafe { Buffer::from_created(raw) })
    }

    /// A buffer of `bytes` bytes whose storage is coarse-grained shared virtual memory, and that memory's
    /// address: one address for the host and the device. The memory is freed when the buffer is destroyed,
    /// which OpenCL defers until every command using it has completed. Only for devices with SVM buffers.
    pub fn shared(context: &Context, bytes: usize) -> Result<(Buffer, usize)> {
        let bytes = bytes.max(1);
        // SAFETY: clSVMAlloc takes any context and size and returns null on failure.
        let svm = unsafe { clSVMAlloc(context.0, cl::CL_MEM_READ_WRITE, bytes, 0) };
        if svm.is_null() {
            return fail(ErrorKind::OutOfResources, format!("clSVMAlloc could not allocate {bytes} bytes"));
        }
        // The buffer keeps its context alive until after its destructor callbacks have run.
        let storage = SharedMemory { context: context.0 as usize, pointer: svm as usize };
        let buffer = Buffer::stored_in(context, bytes, storage, "clCreateBuffer(CL_MEM_USE_HOST_PTR, SVM)")?;
        crate::log!(crate::log::Topic::Info, "allocated {bytes} bytes of shared virtual memory");
        Ok((buffer, svm as usize))
    }

    /// A buffer of `bytes` bytes whose storage is `storage` (`CL_MEM_USE_HOST_PTR`), which the buffer's
    /// destructor callback releases once the runtime destroys the buffer; on failure it is released here.
    pub(super) fn stored_in<S: HostStorage>(context: &Context, bytes: usize, storage: S, call: &str) -> Result<Buffer> {
        let mut err = 0;
        let flags = cl::CL_MEM_READ_WRITE | cl::CL_MEM_USE_HOST_PTR;
        // SAFETY: the storage holds `bytes` bytes that stay until it is released.
        let raw = unsafe { cl::clCreateBuffer(context.0, flags, bytes, storage.address(), &mut err) };
        if let Err(e) = check(err, call) {
            // No buffer uses the storage.
            drop(storage);
            return Err(e);
        }
        // SAFETY: `raw` was just created and is owned here.
        let buffer = unsafe { Buffer::from_created(raw) };
        let owner = Box::into_raw(Box::new(storage));
        // SAFETY: the callback takes back the box exactly once, when the runtime destroys the buffer.
        let status = unsafe { cl::clSetMemObjectDestructorCallback(raw, Some(release_storage::<S>), owner.cast()) };
        if let Err(e) = check(status, "clSetMemObjectDestructorCallback") {
            drop(buffer);
            // SAFETY: the callback was not registered, so the box is still ours alone, and the buffer that used
            // the storage is gone (no command ever used it).
            drop(unsafe { Box::from_raw(owner) });
            return Err(e);
        }
        Ok(buffer)
    }

    /// A read-only device buffer initialised from `data` (a small placeholder when `data` is empty).
    pub fn with_data<T: Copy>(context: &Context, data: &[T]) -> Result<Buffer> {
        let bytes = std::mem::size_of_val(data);
        if bytes == 0 {
            return Buffer::create(context, 16);
        }
        let mut err = 0;
        let raw = unsafe {
            cl::clCreateBuffer(
                context.0,
                cl::CL_MEM_READ_ONLY | cl::CL_MEM_COPY_HOST_PTR,
                bytes,
                data.as_ptr() as *mut c_void,
                &mut err,
            )
        };
        check(err, "clCreateBuffer")?;
        Ok(unsafe { Buffer::from_created(raw) })
    }

    /// Size in bytes of a buffer handle the caller passed (as with any OpenCL call, the handle must be
    /// null or a memory object; the driver reports null and stale handles it recognises).
    pub fn size_of_raw(raw: RawMem) -> Result<usize> {
        if raw.is_null() {
            return fail(ErrorKind::InvalidMemObject, "null buffer");
        }
        unsafe {
            info_value("clGetMemObjectInfo(CL_MEM_SIZE)", |size, value, ret| {
                cl::clGetMemObjectInfo(raw, cl::CL_MEM_SIZE, size, value, ret)
            })
        }
    }

    /// The context of a buffer handle the caller passed.
    pub fn context_of_raw(raw: RawMem) -> Result<cl_context> {
        if raw.is_null() {
            return fail(ErrorKind::InvalidMemObject, "null buffer");
        }
        unsafe {
            info_value("clGetMemObjectInfo(CL_MEM_CONTEXT)", |size, value, ret| {
                cl::clGetMemObjectInfo(raw, cl::CL_MEM_CONTEXT, size, value, ret)
            })
            .map(|p: usize| p as cl_context)
        }
    }

    /// Where a buffer handle the caller passed lies: the buffer that owns its memory (itself, or the parent
    /// of a sub-buffer) and its byte offset there.
    pub fn place_of_raw(raw: RawMem) -> Result<(usize, usize)> {
        if raw.is_null() {
            return fail(ErrorKind::InvalidMemObject, "null buffer");
        }
        let (parent, offset): (usize, usize) = unsafe {
            let get = |param| {
                info_value("clGetMemObjectInfo", |size, value, ret| {
                    cl::clGetMemObjectInfo(raw, param, size, value, ret)
                })
            };
            (get(cl::CL_MEM_ASSOCIATED_MEMOBJECT)?, get(cl::CL_MEM_OFFSET)?)
        };
        Ok(if parent == 0 { (raw as usize, 0) } else { (parent, offset) })
    }

    /// `bytes` bytes of the buffer `raw` from its byte `offset`, as a sub-buffer of the buffer it belongs to
    /// (a sub-buffer's own parent, where `raw` is one), with the same access. The place must be aligned as
    /// every device of the context wants (`DeviceInfo::sub_buffer_align`).
    pub fn region_of_raw(raw: RawMem, offset: usize, bytes: usize) -> Result<Buffer> {
        let (root, base) = Buffer::place_of_raw(raw)?;
        let region = cl::cl_buffer_region { origin: base + offset, size: bytes };
        let mut err: cl_int = 0;
        // SAFETY: `root` is a live buffer (it answered its info query above); flags 0 take the parent's access,
        // and `region` outlives the call.
        let sub = unsafe {
            cl::clCreateSubBuffer(
                root as RawMem,
                0,
                cl::CL_BUFFER_CREATE_TYPE_REGION,
                &region as *const cl::cl_buffer_region as *const c_void,
                &mut err,
            )
        };
        check(err, "clCreateSubBuffer")?;
        // SAFETY: the call succeeded, so `sub` is a new buffer owned here.
        Ok(unsafe { Buffer::from_created(sub) })
    }

    pub fn size(&self) -> Result<usize> {
        Buffer::size_of_raw(self.0)
    }
}

impl Program {
    pub fn with_source(context: &Context, source: &str) -> Result<Program> {
        let text =
            CString::new(source).map_err(|_| Error::new(ErrorKind::Bugcheck, "kernel source contains a NUL byte"))?;
        let mut err = 0;
        let strings = [text.as_ptr()];
        let raw = unsafe { cl::clCreateProgramWithSource(context.0, 1, strings.as_ptr(), ptr::null(), &mut err) };
        check(err, "clCreateProgramWithSource")?;
        Ok(unsafe { Program::from_created(raw) })
    }

    pub fn with_binary(context: &Context, device: cl_device_id, binary: &[u8]) -> Result<Program> {
        let mut err = 0;
        let mut status = 0;
        let lengths = [binary.len()];
        let binaries = [binary.as_ptr()];
        let raw = unsafe {
            cl::clCreateProgramWithBinary(
                context.0,
                1,
                &device,
                lengths.as_ptr(),
                binaries.as_ptr(),
                &mut status,
                &mut err,
            )
        };
        check(err, "clCreateProgramWithBinary")?;
        let program = unsafe { Program::from_created(raw) };
        check(status, "clCreateProgramWithBinary (binary status)")?;
        Ok(program)
    }

    /// Builds for one device. On failure the error message carries the build log.
    pub fn build(&self, device: cl_device_id, options: &str) -> Result<()> {
        let opts =
            CString::new(options).map_err(|_| Error::new(ErrorKind::Bugcheck, "build options contain a NUL byte"))?;
        let code = unsafe { cl::clBuildProgram(self.0, 1, &device, opts.as_ptr(), None, ptr::null_mut()) };
        if code == cl::CL_SUCCESS as cl_int {
            return Ok(());
        }
        let build_log = unsafe {
            info_bytes("clGetProgramBuildInfo", |size, value, ret| {
                cl::clGetProgramBuildInfo(self.0, device, cl::CL_PROGRAM_BUILD_LOG, size, value, ret)
            })
        }
        .map(bytes_to_string)
        .unwrap_or_default();
        let mut error = Error::opencl("clBuildProgram", code);
        error.message = format!("{}; options: {options}; build log:\n{build_log}", error.message);
        Err(error)
    }

    /// The compiled binary for the program's single device.
    pub fn binary(&self) -> Result<Vec<u8>> {
        let size: usize = unsafe {
            info_value("clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", |size, value, ret| {
                cl::clGetProgramInfo(self.0, cl::CL_PROGRAM_BINARY_SIZES, size, value, ret)
            })?
        };
        let mut binary = vec![0u8; size];
        let mut pointers = [binary.as_mut_ptr()];
        check(
            unsafe {
                cl::clGetProgramInfo(
                    self.0,
                    cl::CL_PROGRAM_BINARIES,
                    std::mem::size_of_val(&pointers),
                    pointers.as_mut_ptr() as *mut c_void,
                    ptr::null_mut(),
                )
            },
            "clGetProgramInfo(CL_PROGRAM_BINARIES)",
        )?;
        Ok(binary)
    }
}

/// A kernel argument value.
#[derive(Debug, Clone, Copy)]
pub enum Arg {
    Mem(cl_mem),
    F32(f32),
    F64(f64),
    U32(u32),
    U64(u64),
    /// A `__local` buffer of this many bytes, which the device allocates per work-group.
    Local(usize),
}

impl Kernel {
    pub fn create(program: &Program, name: &str) -> Result<Kernel> {
        let cname = CString::new(name).map_err(|_| Error::new(ErrorKind::Bugcheck, "kernel name contains NUL"))?;
        let mut err = 0;
        let raw = unsafe { cl::clCreateKernel(program.0, cname.as_ptr(), &mut err) };
        check(err, "clCreateKernel")?;
        Ok(unsafe { Kernel::from_created(raw) })
    }

    pub fn set_arg(&self, index: u32, arg: Arg) -> Result<()> {
        /// # Safety
        /// `kernel` must be a valid kernel and `T` the type of its argument `index`.
        unsafe fn set<T>(kernel: cl_kernel, index: u32, value: &T) -> cl_int {
            // SAFETY: `value` points to `size_of::<T>()` readable bytes; the caller vouches for the kernel.
            unsafe { cl::clSetKernelArg(kernel, index, std::mem::size_of::<T>(), value as *const T as *const c_void) }
        }
        let code = unsafe {
            match arg {
                Arg::Mem(m) => set(self.0, index, &m),
                Arg::F32(v) => set(self.0, index, &v),
                Arg::F64(v) => set(self.0, index, &v),
                Arg::U32(v) => set(self.0, index, &v),
                Arg::U64(v) => set(self.0, index, &v),
                Arg::Local(bytes) => cl::clSetKernelArg(self.0, index, bytes, ptr::null()),
            }
        };
        check(code, "clSetKernelArg")
    }

    /// Enqueues over a 2D range after the events in `wait`; returns the launch's event.
    pub fn enqueue(
        &self,
        queue: cl_command_queue,
        global: [usize; 2],
        local: [usize; 2],
        wait: &[cl_event],
    ) -> Result<Event> {
        let mut event: cl_event = ptr::null_mut();
        let code = unsafe {
            cl::clEnqueueNDRangeKernel(
                queue,
                self.0,
                2,
                ptr::null(),
                global.as_ptr(),
                local.as_ptr(),
                wait.len() as u32,
                if wait.is_empty() { ptr::null() } else { wait.as_ptr() },
                &mut event,
            )
        };
        check(code, "clEnqueueNDRangeKernel")?;
        Ok(unsafe { Event::from_created(event) })
    }
}

impl Event {
    pub fn wait(&self) -> Result<()> {
        check(unsafe { cl::clWaitForEvents(1, &self.0) }, "clWaitForEvents")
    }

    /// The command's execution status: `CL_COMPLETE` (0) once done, negative when it failed.
    pub fn status(&self) -> Result<cl_int> {
        unsafe {
            info_value("clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)", |size, value, ret| {
                cl::clGetEventInfo(self.0, cl::CL_EVENT_COMMAND_EXECUTION_STATUS, size, value, ret)
            })
        }
    }

    /// Execution time in seconds from profiling information (queues created with profiling).
    pub fn profiled_seconds(&self) -> Result<f64> {
        let get = |param| unsafe {
            info_value::<u64>("clGetEventProfilingInfo", |size, value, ret| {
                cl::clGetEventProfilingInfo(self.0, param, size, value, ret)
            })
        };
        let start = get(cl::CL_PROFILING_COMMAND_START)?;
        let end = get(cl::CL_PROFILING_COMMAND_END)?;
        Ok(end.saturating_sub(start) as f64 * 1e-9)
    }
}

/// The OpenCL calls that enqueue a marker or a barrier after a wait list.
type SyncPointCall = unsafe extern "system" fn(cl_command_queue, cl::cl_uint, *const cl_event, *mut cl_event) -> cl_int;

/// Enqueues `call` (a marker or a barrier) on `queue` after the events in `wait`; its event.
fn enqueue_sync_point(call: SyncPointCall, name: &str, queue: cl_command_queue, wait: &[cl_event]) -> Result<Event> {
    let mut event: cl_event = ptr::null_mut();
    // SAFETY: `wait` holds `wait.len()` events (a null list when empty), and `event` receives the new event.
    let code = unsafe {
        call(queue, wait.len() as u32, if wait.is_empty() { ptr::null() } else { wait.as_ptr() }, &mut event)
    };
    check(code, name)?;
    // SAFETY: the call succeeded, so `event` is a new event owned here.
    Ok(unsafe { Event::from_created(event) })
}

/// A marker that completes when every event in `wait` (or everything enqueued before it) completes.
pub fn enqueue_marker(queue: cl_command_queue, wait: &[cl_event]) -> Result<Event> {
    enqueue_sync_point(cl::clEnqueueMarkerWithWaitList, "clEnqueueMarkerWithWaitList", queue, wait)
}

/// A barrier after the events in `wait`: the commands enqueued on `queue` after it start only once those, and
/// everything enqueued on `queue` before it, have completed. Its event completes then.
pub fn enqueue_barrier_after(queue: cl_command_queue, wait: &[cl_event]) -> Result<Event> {
    enqueue_sync_point(cl::clEnqueueBarrierWithWaitList, "clEnqueueBarrierWithWaitList", queue, wait)
}

/// A barrier: the commands enqueued after it start only once everything enqueued before it has completed,
/// which orders an out-of-order queue at that point.
pub fn enqueue_barrier(queue: cl_command_queue) -> Result<()> {
    let code = unsafe { cl::clEnqueueBarrierWithWaitList(queue, 0, ptr::null(), ptr::null_mut()) };
    check(code, "clEnqueueBarrierWithWaitList")
}

/// Copies `bytes` bytes between buffers after the events in `wait`.
#[allow(clippy::too_many_arguments)]
pub fn enqueue_copy(
    queue: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    bytes: usize,
    wait: &[cl_event],
) -> Result<Event> {
    let mut event: cl_event = ptr::null_mut();
    let code = unsafe {
        cl::clEnqueueCopyBuffer(
            queue,
            src,
            dst,
            src_offset,
            dst_offset,
            bytes,
            wait.len() as u32,
            if wait.is_empty() { ptr::null() } else { wait.as_ptr() },
            &mut event,
        )
    };
    check(code, "clEnqueueCopyBuffer")?;
    Ok(unsafe { Event::from_created(event) })
}

/// Blocking write of `data` into `buffer` at byte `offset`.
pub fn write_buffer<T: Copy>(queue: cl_command_queue, buffer: cl_mem, offset: usize, data: &[T]) -> Result<()> {
    let code = unsafe {
        cl::clEnqueueWriteBuffer(
            queue,
            buffer,
            cl::CL_TRUE,
            offset,
            std::mem::size_of_val(data),
            data.as_ptr() as *const c_void,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    check(code, "clEnqueueWriteBuffer")
}

/// Blocking read from `buffer` at byte `offset` into `data`, after the events in `wait`.
pub fn read_buffer<T: Copy>(
    queue: cl_command_queue,
    buffer: cl_mem,
    offset: usize,
    data: &mut [T],
    wait: &[cl_event],
) -> Result<()> {
    let code = unsafe {
        cl::clEnqueueReadBuffer(
            queue,
            buffer,
            cl::CL_TRUE,
            offset,
            std::mem::size_of_val(data),
            data.as_mut_ptr() as *mut c_void,
            wait.len() as u32,
            if wait.is_empty() { ptr::null() } else { wait.as_ptr() },
            ptr::null_mut(),
        )
    };
    check(code, "clEnqueueReadBuffer")
}

/// The name of a device.
pub fn device_name(device: cl_device_id) -> Result<String> {
    unsafe { device_info_bytes(device, cl::CL_DEVICE_NAME) }.map(bytes_to_string)
}

/// All devices of all platforms, platform by platform.
pub fn all_devices() -> Result<Vec<(cl::cl_platform_id, cl_device_id)>> {
    let mut count = 0u32;
    let code = unsafe { cl::clGetPlatformIDs(0, ptr::null_mut(), &mut count) };
    if code != cl::CL_SUCCESS as cl_int || count == 0 {
        return fail(
            ErrorKind::OpenCl(code),
            "no OpenCL platform found (is an ICD such as pocl-opencl-icd installed?)",
        );
    }
    let mut platforms = vec![ptr::null_mut(); count as usize];
    check(unsafe { cl::clGetPlatformIDs(count, platforms.as_mut_ptr(), ptr::null_mut()) }, "clGetPlatformIDs")?;
    let mut out = Vec::new();
    for platform in platforms {
        let mut n = 0u32;
        let code = unsafe { cl::clGetDeviceIDs(platform, cl::CL_DEVICE_TYPE_ALL, 0, ptr::null_mut(), &mut n) };
        if code != cl::CL_SUCCESS as cl_int || n == 0 {
            continue;
        }
        let mut devices = vec![ptr::null_mut(); n as usize];
        check(
            unsafe { cl::clGetDeviceIDs(platform, cl::CL_DEVICE_TYPE_ALL, n, devices.as_mut_ptr(), ptr::null_mut()) },
            "clGetDeviceIDs",
        )?;
        out.extend(devices.into_iter().map(|d| (platform, d)));
    }
    Ok(out)
}

/// Memory a `Buffer::stored_in` buffer stores in, which dropping releases: the buffer's destructor callback
/// drops it once the runtime destroys the buffer, so no command uses it any more.
pub(super) trait HostStorage {
    /// Where the buffer's bytes start.
    fn address(&self) -> *mut c_void;
}

/// The SVM behind a `Buffer::shared` buffer.
struct SharedMemory {
    context: usize,
    pointer: usize,
}

impl HostStorage for SharedMemory {
    fn address(&self) -> *mut c_void {
        self.pointer as *mut c_void
    }
}

impl Drop for SharedMemory {
    fn drop(&mut self) {
        // SAFETY: dropped by the buffer's destructor callback (or where no buffer used it), and the buffer kept
        // the context alive until its destructor callbacks ran.
        unsafe { clSVMFree(self.context as cl_context, self.pointer as *mut c_void) };
    }
}

extern "C" fn release_storage<S: HostStorage>(_buffer: cl_mem, owner: *mut c_void) {
    // SAFETY: `owner` is the box `Buffer::stored_in` leaked for this buffer, and the runtime calls this once,
    // when no command uses the memory any more.
    drop(unsafe { Box::from_raw(owner as *mut S) });
}
