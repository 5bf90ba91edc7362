//! The default device: `FFTX_DEVICE=<platform>:<device>` (indices) or a substring of the device name;
//! otherwise the first GPU, otherwise the first device.

use super::cl::{all_devices, device_info_value, device_name};
use crate::error::{fail, ErrorKind, Result};
use ocl::core::ffi::{self as cl, cl_device_id, cl_platform_id};

/// The device fftx uses when the caller does not bring one.
pub fn default_device() -> Result<(cl_platform_id, cl_device_id)> {
    let devices = all_devices()?;
    let choice = std::env::var("FFTX_DEVICE").unwrap_or_default();
    if choice.is_empty() {
        let is_gpu = |d: cl_device_id| {
            unsafe { device_info_value::<u64>(d, cl::CL_DEVICE_TYPE) }.is_ok_and(|t| t & cl::CL_DEVICE_TYPE_GPU != 0)
        };
        return match first_gpu_else_first(&devices, is_gpu) {
            Some(found) => Ok(found),
            None => fail(ErrorKind::OpenCl(-1), "no OpenCL device found (CL_DEVICE_NOT_FOUND)"),
        };
    }
    if let Some((p, d)) =
        choice.split_once(':').and_then(|(p, d)| Some((p.parse::<usize>().ok()?, d.parse::<usize>().ok()?)))
    {
        let mut platforms: Vec<cl_platform_id> = devices.iter().map(|&(p, _)| p).collect();
        platforms.dedup();
        if let Some(&platform) = platforms.get(p) {
            if let Some(&found) = devices.iter().filter(|&&(q, _)| q == platform).nth(d) {
                return Ok(found);
            }
        }
        return fail(ErrorKind::OpenCl(-1), format!("FFTX_DEVICE={choice}: no device {d} on platform {p}"));
    }
    let wanted = choice.to_lowercase();
    devices
        .iter()
        .copied()
        .find(|&(_, d)| device_name(d).is_ok_and(|n| n.to_lowercase().contains(&wanted)))
        .map_or_else(|| fail(ErrorKind::OpenCl(-1), format!("FFTX_DEVICE={choice}: no device name contains it")), Ok)
}

/// The first device `is_gpu` accepts, else the first of all; none when there are no devices (a platform can
/// list none, or none yet while another thread initialises it).
fn first_gpu_else_first<T: Copy>(
    devices: &[(T, cl_device_id)],
    is_gpu: impl Fn(cl_device_id) -> bool,
) -> Option<(T, cl_device_id)> {
    devices.iter().copied().find(|&(_, d)| is_gpu(d)).or(devices.first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_devices_is_none_and_a_gpu_comes_first() {
        let device = |n: usize| n as cl_device_id;
        assert_eq!(first_gpu_else_first::<u8>(&[], |_| true), None);
        let devices = [(0u8, device(1)), (0, device(2)), (1, device(3))];
        assert_eq!(first_gpu_else_first(&devices, |d| d == device(3)), Some((1, device(3))));
        assert_eq!(first_gpu_else_first(&devices, |_| false), Some((0, device(1))));
    }
}
