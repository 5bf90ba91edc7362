//! Errors shared by every layer. A failure carries a kind, which the C shells translate into their status
//! codes, and a sentence for `FFTX_LOG=error`.

use std::ffi::CStr;
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

/// OpenCL status codes and their symbolic names.
const CL_STATUSES: &[(i32, &CStr)] = &[
    (0, c"CL_SUCCESS"),
    (-1, c"CL_DEVICE_NOT_FOUND"),
    (-2, c"CL_DEVICE_NOT_AVAILABLE"),
    (-3, c"CL_COMPILER_NOT_AVAILABLE"),
    (-4, c"CL_MEM_OBJECT_ALLOCATION_FAILURE"),
    (-5, c"CL_OUT_OF_RESOURCES"),
    (-6, c"CL_OUT_OF_HOST_MEMORY"),
    (-7, c"CL_PROFILING_INFO_NOT_AVAILABLE"),
    (-11, c"CL_BUILD_PROGRAM_FAILURE"),
    (-30, c"CL_INVALID_VALUE"),
    (-33, c"CL_INVALID_DEVICE"),
    (-34, c"CL_INVALID_CONTEXT"),
    (-36, c"CL_INVALID_COMMAND_QUEUE"),
    (-37, c"CL_INVALID_HOST_PTR"),
    (-38, c"CL_INVALID_MEM_OBJECT"),
    (-42, c"CL_INVALID_BINARY"),
    (-44, c"CL_INVALID_PROGRAM"),
    (-45, c"CL_INVALID_PROGRAM_EXECUTABLE"),
    (-46, c"CL_INVALID_KERNEL_NAME"),
    (-48, c"CL_INVALID_KERNEL"),
    (-49, c"CL_INVALID_ARG_INDEX"),
    (-50, c"CL_INVALID_ARG_VALUE"),
    (-51, c"CL_INVALID_ARG_SIZE"),
    (-52, c"CL_INVALID_KERNEL_ARGS"),
    (-54, c"CL_INVALID_WORK_GROUP_SIZE"),
    (-55, c"CL_INVALID_WORK_ITEM_SIZE"),
    (-57, c"CL_INVALID_EVENT_WAIT_LIST"),
    (-58, c"CL_INVALID_EVENT"),
    (-59, c"CL_INVALID_OPERATION"),
    (-61, c"CL_INVALID_BUFFER_SIZE"),
    (-63, c"CL_INVALID_GLOBAL_WORK_SIZE"),
];

/// The symbolic name of an OpenCL status code, for messages.
pub fn cl_status_name(code: i32) -> &'static str {
    CL_STATUSES.iter().find(|(c, _)| *c == code).and_then(|(_, name)| name.to_str().ok()).unwrap_or("an OpenCL error")
}

/// The name of an OpenCL status as a C string, or a sentence saying the number is no status fftx knows.
pub fn cl_status_sentence(code: i32) -> &'static CStr {
    CL_STATUSES.iter().find(|(c, _)| *c == code).map_or(c"not a status fftx knows", |(_, name)| name)
}
