//! Device facts the planner needs, queried once per device.

use super::cl::{bytes_to_string, device_info_bytes, device_info_value, platform_info_string};
use crate::error::Result;
use ocl::core::ffi::{self as cl, cl_device_id};
use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceKind {
    Cpu,
    Gpu,
    Other,
}

#[derive(Debug, Clone)]
pub struct DeviceInfo {
    /// The raw device id, as an integer so the struct is `Send`.
    pub id: usize,
    pub name: String,
    pub vendor: String,
    pub driver_version: String,
    pub device_version: String,
    pub platform_version: String,
    /// The platform is PoCL, whose builds include clang's whole builtin header unless told not to.
    pub pocl: bool,
    pub kind: DeviceKind,
    pub compute_units: u32,
    pub max_work_group_size: usize,
    pub local_mem_bytes: u64,
    pub max_alloc_bytes: u64,
    pub global_mem_bytes: u64,
    /// The global memory cache: the last-level cache on PoCL; 0 where the driver does not say.
    pub cache_bytes: u64,
    pub fp64: bool,
    /// Preferred SIMD width in lanes for f32, as the driver reports it.
    pub native_width_f32: u32,
    /// Preferred SIMD width in lanes for f64, as the driver reports it (0 without double precision).
    pub native_width_f64: u32,
    /// Coarse-grained shared virtual memory buffers (OpenCL 2.0 and later).
    pub svm_buffers: bool,
    /// The alignment in bytes a sub-buffer's origin needs.
    pub sub_buffer_align: usize,
    /// The device's memory is the host's (`CL_DEVICE_HOST_UNIFIED_MEMORY`: a CPU, an integrated GPU), so a
    /// buffer over host memory (`CL_MEM_USE_HOST_PTR`) is used where it lies, without a copy.
    pub host_unified: bool,
}

impl DeviceInfo {
    pub fn raw(&self) -> cl_device_id {
        self.id as cl_device_id
    }

    /// Identity of the compiler that produces binaries for this device: the program cache key.
    pub fn compiler_identity(&self) -> String {
        format!(
            "{}\n{}\n{}\n{}\n{}",
            self.name, self.vendor, self.driver_version, self.device_version, self.platform_version
        )
    }
}

const CL_DEVICE_SVM_CAPABILITIES: u32 = 0x1053;
const CL_DEVICE_SVM_COARSE_GRAIN_BUFFER: u64 = 1;

static DEVICES: Lazy<Mutex<HashMap<usize, Arc<DeviceInfo>>>> = Lazy::new(|| Mutex::new(HashMap::new()));

/// The facts of `device`, from the cache after the first query.
pub fn device_info(device: cl_device_id) -> Result<Arc<DeviceInfo>> {
    let key = device as usize;
    if let Some(info) = DEVICES.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(info.clone());
    }
    let info = Arc::new(query(device)?);
    DEVICES.lock().unwrap_or_else(|e| e.into_inner()).insert(key, info.clone());
    Ok(info)
}

fn query(device: cl_device_id) -> Result<DeviceInfo> {
    unsafe {
        let string = |param| device_info_bytes(device, param).map(bytes_to_string);
        let kind_bits: u64 = device_info_value(device, cl::CL_DEVICE_TYPE)?;
        let kind = if kind_bits & cl::CL_DEVICE_TYPE_GPU != 0 {
            DeviceKind::Gpu
        } else if kind_bits & cl::CL_DEVICE_TYPE_CPU != 0 {
            DeviceKind::Cpu
        } else {
            DeviceKind::Other
        };
        let extensions = string(cl::CL_DEVICE_EXTENSIONS)?;
        let double_config: u64 = device_info_value(device, cl::CL_DEVICE_DOUBLE_FP_CONFIG).unwrap_or(0);
        let platform: usize = device_info_value(device, cl::CL_DEVICE_PLATFORM)?;
        Ok(DeviceInfo {
            id: device as usize,
            name: string(cl::CL_DEVICE_NAME)?,
            vendor: string(cl::CL_DEVICE_VENDOR)?,
            driver_version: string(cl::CL_DRIVER_VERSION)?,
            device_version: string(cl::CL_DEVICE_VERSION)?,
            platform_version: platform_info_string(platform as cl::cl_platform_id, cl::CL_PLATFORM_VERSION)?,
            pocl: platform_info_string(platform as cl::cl_platform_id, cl::CL_PLATFORM_NAME)?
                == "Portable Computing Language",
            kind,
            compute_units: device_info_value(device, cl::CL_DEVICE_MAX_COMPUTE_UNITS)?,
            max_work_group_size: device_info_value(device, cl::CL_DEVICE_MAX_WORK_GROUP_SIZE)?,
            local_mem_bytes: device_info_value(device, cl::CL_DEVICE_LOCAL_MEM_SIZE)?,
            max_alloc_bytes: device_info_value(device, cl::CL_DEVICE_MAX_MEM_ALLOC_SIZE)?,
            global_mem_bytes: device_info_value(device, cl::CL_DEVICE_GLOBAL_MEM_SIZE)?,
            cache_bytes: device_info_value(device, cl::CL_DEVICE_GLOBAL_MEM_CACHE_SIZE).unwrap_or(0),
            fp64: double_config != 0 || extensions.contains("cl_khr_fp64") || extensions.contains("cl_amd_fp64"),
            native_width_f32: device_info_value(device, cl::CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT)?,
            native_width_f64: device_info_value(device, cl::CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE)?,
            // An OpenCL 1.x device does not know the query, and has no SVM.
            svm_buffers: device_info_value::<u64>(device, CL_DEVICE_SVM_CAPABILITIES)
                .is_ok_and(|caps| caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER != 0),
            sub_buffer_align: (device_info_value::<u32>(device, cl::CL_DEVICE_MEM_BASE_ADDR_ALIGN)? as usize / 8)
                .max(1),
            // A cl_bool; deprecated in OpenCL 2.0 but still answered. Where it is not, assume a copy is made.
            host_unified: device_info_value::<u32>(device, cl::CL_DEVICE_HOST_UNIFIED_MEMORY).is_ok_and(|v| v != 0),
        })
    }
}
