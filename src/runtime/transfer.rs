//! Moving data between host memory and device buffers: sub-buffers, and rectangle copies that stream host
//! memory through the device on several queues at once.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use super::cl::{check, Buffer, Event, Queue, RawEvent};
use crate::error::{fail, ErrorKind, Result};
use ocl::core::ffi::{self as cl, cl_int};
use std::ffi::c_void;
use std::marker::PhantomData;
use std::ptr;

/// The `bytes` bytes of `buffer` from `offset` as a buffer of their own (`offset` aligned for the device:
/// `DeviceInfo::sub_buffer_align`).
pub fn sub_buffer(buffer: &Buffer, offset: usize, bytes: usize) -> Result<Buffer> {
    let region = cl::cl_buffer_region { origin: offset, size: bytes };
    let mut err: cl_int = 0;
    let raw = unsafe {
        cl::clCreateSubBuffer(
            buffer.raw(),
            cl::CL_MEM_READ_WRITE,
            cl::CL_BUFFER_CREATE_TYPE_REGION,
            &region as *const cl::cl_buffer_region as *const c_void,
            &mut err,
        )
    };
    check(err, "clCreateSubBuffer")?;
    Ok(unsafe { Buffer::from_created(raw) })
}

/// A rectangle of `rows` rows of `width` bytes: rows lie `host_pitch` bytes apart in host memory from
/// `host_offset`, and `buffer_pitch` bytes apart in the device buffer from `buffer_offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub host_offset: usize,
    pub host_pitch: usize,
    pub buffer_offset: usize,
    pub buffer_pitch: usize,
    pub width: usize,
    pub rows: usize,
}

impl Rect {
    /// `bytes` contiguous bytes at `host_offset` and `buffer_offset`.
    pub fn run(host_offset: usize, buffer_offset: usize, bytes: usize) -> Rect {
        Rect { host_offset, host_pitch: bytes, buffer_offset, buffer_pitch: bytes, width: bytes, rows: 1 }
    }

    /// `rows` rows of `width` bytes, `host_pitch` apart in host memory from `host_offset`, packed in the buffer
    /// from its start.
    pub fn packed(host_offset: usize, host_pitch: usize, width: usize, rows: usize) -> Rect {
        Rect { host_offset, host_pitch, buffer_offset: 0, buffer_pitch: width, width, rows }
    }

    /// One past the last host byte the rectangle covers.
    fn host_end(&self) -> usize {
        if self.rows == 0 {
            return self.host_offset;
        }
        self.host_offset + (self.rows - 1) * self.host_pitch + self.width
    }

    /// The origin, region and pitches as `clEnqueue*BufferRect` take them (all in bytes, one plane).
    fn cl_form(&self) -> ([usize; 3], [usize; 3], [usize; 3]) {
        ([self.buffer_offset, 0, 0], [self.host_offset, 0, 0], [self.width, self.rows, 1])
    }
}

/// Host memory streamed to and from device buffers without blocking, on any of several queues. The stream
/// borrows `source` and `target` for its whole life and waits for every queue when it ends, so no transfer
/// can outlive the memory it reads or writes. Rectangles are checked against the host slices.
pub struct HostStream<'a> {
    queues: &'a [Queue],
    source: *const u8,
    source_len: usize,
    target: *mut u8,
    target_len: usize,
    _memory: PhantomData<&'a mut [u8]>,
}

impl<'a> HostStream<'a> {
    pub fn new(queues: &'a [Queue], source: &'a [u8], target: &'a mut [u8]) -> HostStream<'a> {
        HostStream {
            queues,
            source: source.as_ptr(),
            source_len: source.len(),
            target: target.as_mut_ptr(),
            target_len: target.len(),
            _memory: PhantomData,
        }
    }

    /// A stream that reads rectangles of `data` and writes them back to it. The caller downloads a rectangle
    /// on the queue it uploaded it on, and keeps the rectangles of different queues apart, so that no read
    /// of one queue meets a write of another.
    pub fn in_place(queues: &'a [Queue], data: &'a mut [u8]) -> HostStream<'a> {
        let (target, target_len) = (data.as_mut_ptr(), data.len());
        HostStream { queues, source: target, source_len: target_len, target, target_len, _memory: PhantomData }
    }

    pub fn queue(&self, index: usize) -> &Queue {
        &self.queues[index]
    }

    /// Copies a rectangle of `source` into `buffer` on queue `queue` after `wait`.
    pub fn upload(&self, queue: usize, buffer: &Buffer, rect: Rect, wait: &[RawEvent]) -> Result<Event> {
        if rect.host_end() > self.source_len {
            return fail(ErrorKind::Bugcheck, format!("upload of {rect:?} past a {}-byte source", self.source_len));
        }
        let (buffer_origin, host_origin, region) = rect.cl_form();
        let mut event = ptr::null_mut();
        let code = unsafe {
            cl::clEnqueueWriteBufferRect(
                self.queues[queue].raw(),
                buffer.raw(),
                cl::CL_FALSE,
                buffer_origin.as_ptr(),
                host_origin.as_ptr(),
                region.as_ptr(),
                rect.buffer_pitch,
                0,
                rect.host_pitch,
                0,
                self.source as *const c_void,
                wait.len() as u32,
                if wait.is_empty() { ptr::null() } else { wait.as_ptr() },
                &mut event,
            )
        };
        check(code, "clEnqueueWriteBufferRect")?;
        Ok(unsafe { Event::from_created(event) })
    }

    /// Copies a rectangle of `buffer` into `target` on queue `queue` after `wait`.
    pub fn download(&self, queue: usize, buffer: &Buffer, rect: Rect, wait: &[RawEvent]) -> Result<Event> {
        if rect.host_end() > self.target_len {
            return fail(ErrorKind::Bugcheck, format!("download of {rect:?} past a {}-byte target", self.target_len));
        }
        let (buffer_origin, host_origin, region) = rect.cl_form();
        let mut event = ptr::null_mut();
        let code = unsafe {
            cl::clEnqueueReadBufferRect(
                self.queues[queue].raw(),
                buffer.raw(),
                cl::CL_FALSE,
                buffer_origin.as_ptr(),
                host_origin.as_ptr(),
                region.as_ptr(),
                rect.buffer_pitch,
                0,
                rect.host_pitch,
                0,
                self.target as *mut c_void,
                wait.len() as u32,
                if wait.is_empty() { ptr::null() } else { wait.as_ptr() },
                &mut event,
            )
        };
        check(code, "clEnqueueReadBufferRect")?;
        Ok(unsafe { Event::from_created(event) })
    }

    /// Waits for every queue and reports the first failure.
    pub fn finish(self) -> Result<()> {
        self.queues.iter().try_for_each(Queue::finish)
    }
}

impl Drop for HostStream<'_> {
    fn drop(&mut self) {
        // Also reached on an early error return: the borrowed memory must not be in use once we give it back.
        for queue in self.queues {
            let _ = queue.finish();
        }
    }
}
