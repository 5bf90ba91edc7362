//! The OpenCL runtime: handles, device facts, the program cache. Every OpenCL call fftx makes lives in this
//! layer (and in `api`, which only receives handles).

pub mod cache;
pub mod cl;
pub mod device;
pub mod devmem;
pub mod lent;
pub mod per_context;
pub mod select;
pub mod transfer;
pub mod working;

pub use cl::{Arg, Buffer, Context, Event, Kernel, Program, Queue};
pub use device::{device_info, DeviceInfo, DeviceKind};
pub use select::default_device;
pub use working::WorkingBuffer;
