//! Buffers over memory the caller lends for one blocking call (`CL_MEM_USE_HOST_PTR`): on a device whose
//! memory is the host's, kernels then work on the caller's array where it lies, with no copy beside it.

use super::cl::{check, Buffer, Context, Event, Queue, RawMem};
use crate::error::Result;
use ocl::core::ffi::{self as cl, cl_event, cl_mem_flags};
use std::cell::Cell;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::ptr;

/// A buffer over `'a`'s memory, and the queue its commands run on. Dropping it finishes that queue unless
/// `settle` did, so no command touches the memory once the borrow ends, whatever failed on the way.
pub struct LentBuffer<'a> {
    buffer: Buffer,
    queue: Queue,
    bytes: usize,
    /// `settle` finished the queue, and nothing was enqueued through the buffer after it.
    settled: Cell<bool>,
    _memory: PhantomData<&'a mut [u8]>,
}

impl<'a> LentBuffer<'a> {
    /// A buffer over `memory`, which kernels on `queue` may read and write.
    pub fn read_write(context: &Context, queue: &Queue, memory: &'a mut [u8]) -> Result<LentBuffer<'a>> {
        let address = memory.as_mut_ptr().cast();
        // SAFETY: `memory` is borrowed mutably for 'a, and the buffer finishes its queue before 'a ends.
        unsafe { Self::over(context, queue, cl::CL_MEM_READ_WRITE, address, memory.len()) }
    }

    /// A buffer over `memory` that kernels only read (`CL_MEM_READ_ONLY`): for plans that never write their
    /// input.
    pub fn read_only(context: &Context, queue: &Queue, memory: &'a [u8]) -> Result<LentBuffer<'a>> {
        let address = memory.as_ptr().cast_mut().cast();
        // SAFETY: the flag says no kernel writes through the buffer; it finishes its queue before 'a ends.
        unsafe { Self::over(context, queue, cl::CL_MEM_READ_ONLY, address, memory.len()) }
    }

    /// # Safety
    /// `address` holds `bytes` bytes that stay valid, and are written only as `access` allows, until the
    /// buffer is dropped.
    unsafe fn over(
        context: &Context,
        queue: &Queue,
        access: cl_mem_flags,
        address: *mut c_void,
        bytes: usize,
    ) -> Result<LentBuffer<'a>> {
        let mut err = 0;
        // SAFETY: the caller vouches for the memory; a zero-sized buffer is refused by OpenCL with a status.
        let raw =
            unsafe { cl::clCreateBuffer(context.raw(), access | cl::CL_MEM_USE_HOST_PTR, bytes, address, &mut err) };
        check(err, "clCreateBuffer(CL_MEM_USE_HOST_PTR) over the caller's memory")?;
        // SAFETY: `raw` was just created and is owned here.
        let buffer = unsafe { Buffer::from_created(raw) };
        Ok(LentBuffer { buffer, queue: queue.clone(), bytes, settled: Cell::new(false), _memory: PhantomData })
    }

    /// The buffer, to enqueue commands on before `settle`.
    pub fn raw(&self) -> RawMem {
        self.settled.set(false);
        self.buffer.raw()
    }

    /// Waits for `done`, then makes what the device wrote visible in the caller's memory: OpenCL defines the
    /// host memory of a `CL_MEM_USE_HOST_PTR` buffer only while it is mapped, which on a host-unified device
    /// costs no copy. The map and unmap follow `done` on the queue, and one wait covers the three.
    pub fn settle(&self, done: &Event) -> Result<()> {
        let wait: [cl_event; 1] = [done.raw()];
        let mut mapping: cl_event = ptr::null_mut();
        let mut err = 0;
        // SAFETY: a map of the whole buffer after `done`, on the buffer's own queue; its pointer is only handed
        // back to the unmap just below, which runs after it.
        let mapped = unsafe {
            cl::clEnqueueMapBuffer(
                self.queue.raw(),
                self.buffer.raw(),
                cl::CL_FALSE,
                cl::CL_MAP_READ,
                0,
                self.bytes,
                1,
                wait.as_ptr(),
                &mut mapping,
                &mut err,
            )
        };
        check(err, "clEnqueueMapBuffer")?;
        // SAFETY: the event was just created and is owned here.
        let mapping = unsafe { Event::from_created(mapping) };
        let after: [cl_event; 1] = [mapping.raw()];
        // SAFETY: `mapped` is the mapping made above, unmapped once, after it on any queue.
        let code = unsafe {
            cl::clEnqueueUnmapMemObject(self.queue.raw(), self.buffer.raw(), mapped, 1, after.as_ptr(), ptr::null_mut())
        };
        check(code, "clEnqueueUnmapMemObject")?;
        self.queue.finish()?;
        self.settled.set(true);
        Ok(())
    }
}

impl Drop for LentBuffer<'_> {
    fn drop(&mut self) {
        if self.settled.get() {
            return;
        }
        // The call failed midway: nothing may run after this.
        if let Err(e) = self.queue.finish() {
            crate::log!(crate::log::Topic::Error, "{e}: the caller's memory may still be in use");
        }
    }
}
