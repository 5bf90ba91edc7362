//! Device buffers of test data, interleaved or planar, in either precision, and their host images.

use super::*;
use num_complex::Complex64;
use ocl::{flags, Buffer};

/// Device copies of complex data: one interleaved buffer or two planar ones, in either precision.
pub enum DeviceData {
    F32(Vec<Buffer<f32>>, bool),
    F64(Vec<Buffer<f64>>, bool),
}

impl DeviceData {
    pub fn upload(data: &[Complex64], precision: Prec, planar: bool) -> DeviceData {
        fn make<T: ocl::OclPrm>(data: Vec<T>) -> Buffer<T> {
            Buffer::builder()
                .queue(ENV.queue.clone())
                .flags(flags::MEM_READ_WRITE)
                .len(data.len().max(1))
                .copy_host_slice(&data)
                .build()
                .expect("buffer")
        }
        let planes = |conv: &dyn Fn(f64) -> f64| -> Vec<Vec<f64>> {
            if planar {
                vec![data.iter().map(|c| conv(c.re)).collect(), data.iter().map(|c| conv(c.im)).collect()]
            } else {
                vec![data.iter().flat_map(|c| [conv(c.re), conv(c.im)]).collect()]
            }
        };
        match precision {
            Prec::Single => DeviceData::F32(
                planes(&|v| v).into_iter().map(|p| make(p.into_iter().map(|v| v as f32).collect())).collect(),
                planar,
            ),
            Prec::Double => DeviceData::F64(planes(&|v| v).into_iter().map(make).collect(), planar),
        }
    }

    pub fn mems(&self) -> [ocl::ffi::cl_mem; 2] {
        let ptrs: Vec<_> = match self {
            DeviceData::F32(b, _) => b.iter().map(|b| b.as_core().as_ptr()).collect(),
            DeviceData::F64(b, _) => b.iter().map(|b| b.as_core().as_ptr()).collect(),
        };
        [ptrs[0], *ptrs.get(1).unwrap_or(&ptrs[0])]
    }

    pub fn download(&self) -> Vec<Complex64> {
        let (planes, planar): (Vec<Vec<f64>>, bool) = match self {
            DeviceData::F32(b, p) => (b.iter().map(read_plane).collect(), *p),
            DeviceData::F64(b, p) => (b.iter().map(read_plane).collect(), *p),
        };
        if planar {
            planes[0].iter().zip(&planes[1]).map(|(&re, &im)| Complex64::new(re, im)).collect()
        } else {
            planes[0].chunks_exact(2).map(|c| Complex64::new(c[0], c[1])).collect()
        }
    }
}

impl DeviceData {
    /// A buffer of reals (the real parts of `data`).
    pub fn upload_real(data: &[Complex64], precision: Prec) -> DeviceData {
        let reals: Vec<Complex64> = data.to_vec();
        match Self::upload(&reals, precision, true) {
            DeviceData::F32(mut b, _) => {
                b.truncate(1);
                DeviceData::F32(b, true)
            }
            DeviceData::F64(mut b, _) => {
                b.truncate(1);
                DeviceData::F64(b, true)
            }
        }
    }

    /// The first plane as reals.
    pub fn download_real(&self) -> Vec<f64> {
        match self {
            DeviceData::F32(b, _) => read_plane(&b[0]),
            DeviceData::F64(b, _) => read_plane(&b[0]),
        }
    }
}

/// A whole device buffer, widened to f64.
fn read_plane<T: ocl::OclPrm + Into<f64>>(b: &Buffer<T>) -> Vec<f64> {
    let mut v = vec![T::default(); b.len()];
    b.read(&mut v).enq().expect("read");
    v.into_iter().map(Into::into).collect()
}

/// Host storage of one side of a transform: one or two planes of scalars (interleaved complex values, reals,
/// or the two planes of planar data).
#[derive(Clone)]
pub struct HostPlanes(pub Vec<Vec<f64>>);

impl HostPlanes {
    pub fn complex(&self, planar: bool, at: usize) -> Complex64 {
        if planar {
            Complex64::new(self.0[0][at], self.0[1][at])
        } else {
            Complex64::new(self.0[0][2 * at], self.0[0][2 * at + 1])
        }
    }

    pub fn set_complex(&mut self, planar: bool, at: usize, v: Complex64) {
        if planar {
            self.0[0][at] = v.re;
            self.0[1][at] = v.im;
        } else {
            self.0[0][2 * at] = v.re;
            self.0[0][2 * at + 1] = v.im;
        }
    }
}

/// Device copies of host planes in a plan's precision.
pub struct DevicePlanes {
    mems: Vec<ocl::core::Mem>,
    lengths: Vec<usize>,
    double: bool,
}

impl DevicePlanes {
    pub fn upload(planes: &HostPlanes, double: bool) -> DevicePlanes {
        let queue = ENV.queue.as_core();
        let buffers = planes
            .0
            .iter()
            .map(|p| unsafe {
                let mem = if double {
                    ocl::core::create_buffer(
                        ENV.context.as_core(),
                        flags::MEM_READ_WRITE | flags::MEM_COPY_HOST_PTR,
                        p.len(),
                        Some(p),
                    )
                } else {
                    let single: Vec<f32> = p.iter().map(|&v| v as f32).collect();
                    ocl::core::create_buffer(
                        ENV.context.as_core(),
                        flags::MEM_READ_WRITE | flags::MEM_COPY_HOST_PTR,
                        single.len(),
                        Some(&single),
                    )
                };
                mem.expect("create a buffer")
            })
            .collect();
        ocl::core::finish(queue).expect("finish");
        DevicePlanes { mems: buffers, lengths: planes.0.iter().map(Vec::len).collect(), double }
    }

    /// What the device holds now, as uploaded.
    pub fn download(&self) -> HostPlanes {
        let (queue, double) = (ENV.queue.as_core(), self.double);
        HostPlanes(
            self.mems
                .iter()
                .zip(&self.lengths)
                .map(|(mem, &n)| {
                    if double {
                        read_back::<f64>(queue, mem, n)
                    } else {
                        read_back::<f32>(queue, mem, n).into_iter().map(f64::from).collect()
                    }
                })
                .collect(),
        )
    }

    pub fn mems(&self) -> [ocl::ffi::cl_mem; 2] {
        let first = self.mems[0].as_ptr();
        [first, self.mems.get(1).map_or(first, |m| m.as_ptr())]
    }
}

/// `n` values of `T` from the start of `mem`, read blocking.
fn read_back<T: ocl::OclPrm>(queue: &ocl::core::CommandQueue, mem: &ocl::core::Mem, n: usize) -> Vec<T> {
    let mut values = vec![T::default(); n];
    unsafe {
        ocl::core::enqueue_read_buffer(
            queue,
            mem,
            true,
            0,
            &mut values,
            None::<ocl::core::Event>,
            None::<&mut ocl::core::Event>,
        )
    }
    .expect("read");
    values
}
