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
        let gpu = devices.iter().copied().find(|&(_, d)| {
            unsafe { device_info_value::<u64>(d, cl::CL_DEVICE_TYPE) }.is_ok_and(|t| t & cl::CL_DEVICE_TYPE_GPU != 0)
        });
        return Ok(gpu.unwrap_or(devices[0]));
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
