//! Errors shared by every layer. A failure carries a kind, which the C shells translate into their status
//! codes, and a sentence for `FFTX_LOG=error`.

use std::fmt;

/// What went wrong, in the vocabulary both C APIs can express.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Unknown or destroyed plan handle, or a plan whose settings contradict each other.
    InvalidPlan,
    /// An argument outside its allowed values.
    InvalidArgValue,
    /// A transform size, rank or batch out of range (cuFFT's `INVALID_SIZE`).
    InvalidSize,
    /// An unknown transform type, or an execution function for another type (cuFFT's `INVALID_TYPE`).
    InvalidType,
    /// The plan needs a work area and the caller turned automatic allocation off without giving one.
    NoWorkspace,
    /// A required pointer was null.
    InvalidHostPtr,
    InvalidContext,
    InvalidCommandQueue,
    InvalidMemObject,
    /// A buffer smaller than the extent the plan reaches.
    InvalidBufferSize,
    /// The call is not allowed in the plan's current state.
    InvalidOperation,
    InvalidEventWaitList,
    NotImplemented,
    TransposedNotImplemented,
    DeviceNoDouble,
    /// A plan baked for one device was enqueued on a queue of another.
    DeviceMismatch,
    OutOfResources,
    OutOfHostMemory,
    MemObjectAllocationFailure,
    BuildProgramFailure,
    /// An internal inconsistency: a bug in fftx.
    Bugcheck,
    /// Any other OpenCL status, passed through unchanged.
    OpenCl(i32),
}

/// A failure with its kind and a readable explanation.
#[derive(Debug, Clone)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, message: message.into() }
    }

    /// An error from an OpenCL call: `what` names the call, `code` is its status.
    pub fn opencl(what: &str, code: i32) -> Self {
        Error::new(kind_of_cl_status(code), format!("{what} failed with {} ({code})", cl_status_name(code)))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Shorthand for `Err(Error::new(kind, message))`.
pub fn fail<T>(kind: ErrorKind, message: impl Into<String>) -> Result<T> {
    Err(Error::new(kind, message))
}

fn kind_of_cl_status(code: i32) -> ErrorKind {
    match code {
        -34 => ErrorKind::InvalidContext,
        -36 => ErrorKind::InvalidCommandQueue,
        -38 => ErrorKind::InvalidMemObject,
        -61 => ErrorKind::InvalidBufferSize,
        -59 => ErrorKind::InvalidOperation,
        -57 => ErrorKind::InvalidEventWaitList,
        -5 => ErrorKind::OutOfResources,
        -6 => ErrorKind::OutOfHostMemory,
        -4 => ErrorKind::MemObjectAllocationFailure,
        -11 => ErrorKind::BuildProgramFailure,
        other => ErrorKind::OpenCl(other),
    }
}

/// The symbolic name of an OpenCL status code, for messages.
pub fn cl_status_name(code: i32) -> &'static str {
    match code {
        0 => "CL_SUCCESS",
        -1 => "CL_DEVICE_NOT_FOUND",
        -2 => "CL_DEVICE_NOT_AVAILABLE",
        -3 => "CL_COMPILER_NOT_AVAILABLE",
        -4 => "CL_MEM_OBJECT_ALLOCATION_FAILURE",
        -5 => "CL_OUT_OF_RESOURCES",
        -6 => "CL_OUT_OF_HOST_MEMORY",
        -7 => "CL_PROFILING_INFO_NOT_AVAILABLE",
        -11 => "CL_BUILD_PROGRAM_FAILURE",
        -30 => "CL_INVALID_VALUE",
        -33 => "CL_INVALID_DEVICE",
        -34 => "CL_INVALID_CONTEXT",
        -36 => "CL_INVALID_COMMAND_QUEUE",
        -37 => "CL_INVALID_HOST_PTR",
        -38 => "CL_INVALID_MEM_OBJECT",
        -42 => "CL_INVALID_BINARY",
        -44 => "CL_INVALID_PROGRAM",
        -45 => "CL_INVALID_PROGRAM_EXECUTABLE",
        -46 => "CL_INVALID_KERNEL_NAME",
        -48 => "CL_INVALID_KERNEL",
        -49 => "CL_INVALID_ARG_INDEX",
        -50 => "CL_INVALID_ARG_VALUE",
        -51 => "CL_INVALID_ARG_SIZE",
        -52 => "CL_INVALID_KERNEL_ARGS",
        -54 => "CL_INVALID_WORK_GROUP_SIZE",
        -55 => "CL_INVALID_WORK_ITEM_SIZE",
        -57 => "CL_INVALID_EVENT_WAIT_LIST",
        -58 => "CL_INVALID_EVENT",
        -59 => "CL_INVALID_OPERATION",
        -61 => "CL_INVALID_BUFFER_SIZE",
        -63 => "CL_INVALID_GLOBAL_WORK_SIZE",
        _ => "an OpenCL error",
    }
}
