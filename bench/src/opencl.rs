//! The benchmark's own OpenCL objects: device choice, contexts, queues and buffers, through the raw C API so
//! that exactly the calls named in the report (clEnqueueCopyBuffer, clFinish) are what runs.

use cl_sys::*;
use std::ffi::c_void;
use std::ptr;

pub fn check(code: cl_int, what: &str) -> Result<(), String> {
    if code == CL_SUCCESS {
        Ok(())
    } else {
        Err(format!("{what} failed with OpenCL error {code}"))
    }
}

#[derive(Debug, Clone)]
pub struct Device {
    pub platform: cl_platform_id,
    pub id: cl_device_id,
    pub name: String,
    pub platform_name: String,
    pub is_gpu: bool,
    pub max_alloc_bytes: u64,
}

impl Device {
    pub fn describe(&self) -> String {
        format!(
            "{} ({}, {}, max buffer {} MiB)",
            self.name,
            self.platform_name,
            if self.is_gpu { "GPU" } else { "not a GPU" },
            self.max_alloc_bytes >> 20
        )
    }
}

fn info_bytes(query: impl Fn(usize, *mut c_void, *mut usize) -> cl_int, what: &str) -> Result<Vec<u8>, String> {
    let mut size = 0;
    check(query(0, ptr::null_mut(), &mut size), what)?;
    let mut bytes = vec![0u8; size];
    check(query(size, bytes.as_mut_ptr().cast(), ptr::null_mut()), what)?;
    Ok(bytes)
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).trim_end_matches('\0').trim().to_string()
}

fn device_value<T: Copy + Default>(device: cl_device_id, param: cl_device_info) -> Result<T, String> {
    let mut value = T::default();
    let code = unsafe {
        clGetDeviceInfo(device, param, std::mem::size_of::<T>(), (&mut value as *mut T).cast(), ptr::null_mut())
    };
    check(code, "clGetDeviceInfo")?;
    Ok(value)
}

/// Every device of every platform, platforms in order.
pub fn all_devices() -> Result<Vec<Vec<Device>>, String> {
    let mut count = 0;
    check(
        unsafe { clGetPlatformIDs(0, ptr::null_mut(), &mut count) },
        "clGetPlatformIDs (is an OpenCL ICD installed, e.g. pocl-opencl-icd?)",
    )?;
    let mut platforms = vec![ptr::null_mut(); count as usize];
    check(unsafe { clGetPlatformIDs(count, platforms.as_mut_ptr(), ptr::null_mut()) }, "clGetPlatformIDs")?;
    let mut result = Vec::new();
    for platform in platforms {
        let platform_name = text(info_bytes(
            |size, value, size_ret| unsafe { clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, value, size_ret) },
            "clGetPlatformInfo",
        )?);
        let mut count = 0;
        let code = unsafe { clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, ptr::null_mut(), &mut count) };
        if code == CL_DEVICE_NOT_FOUND {
            result.push(Vec::new());
            continue;
        }
        check(code, "clGetDeviceIDs")?;
        let mut ids = vec![ptr::null_mut(); count as usize];
        check(
            unsafe { clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.as_mut_ptr(), ptr::null_mut()) },
            "clGetDeviceIDs",
        )?;
        let mut devices = Vec::new();
        for id in ids {
            let name = text(info_bytes(
                |size, value, size_ret| unsafe { clGetDeviceInfo(id, CL_DEVICE_NAME, size, value, size_ret) },
                "clGetDeviceInfo",
            )?);
            let kind: cl_device_type = device_value(id, CL_DEVICE_TYPE)?;
            devices.push(Device {
                platform,
                id,
                name,
                platform_name: platform_name.clone(),
                is_gpu: kind & CL_DEVICE_TYPE_GPU != 0,
                max_alloc_bytes: device_value(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE)?,
            });
        }
        result.push(devices);
    }
    Ok(result)
}

/// `FFTX_DEVICE=<platform>:<device>` (indices) or a substring of the device name; otherwise the first GPU,
/// otherwise the first device. The same rule as the library's default device.
pub fn select_device(choice: &str) -> Result<Device, String> {
    let platforms = all_devices()?;
    let flat: Vec<&Device> = platforms.iter().flatten().collect();
    if flat.is_empty() {
        return Err("no OpenCL device found (install pocl-opencl-icd for the CPU)".into());
    }
    if choice.is_empty() {
        let gpu = flat.iter().find(|d| d.is_gpu);
        return Ok((*gpu.unwrap_or(&flat[0])).clone());
    }
    if let Some((p, d)) = choice.split_once(':') {
        if let (Ok(p), Ok(d)) = (p.parse::<usize>(), d.parse::<usize>()) {
            return platforms
                .get(p)
                .and_then(|devices| devices.get(d))
                .cloned()
                .ok_or_else(|| format!("FFTX_DEVICE={choice}: no device {d} on platform {p}"));
        }
    }
    let wanted = choice.to_lowercase();
    flat.iter()
        .find(|d| d.name.to_lowercase().contains(&wanted))
        .map(|d| (*d).clone())
        .ok_or_else(|| format!("FFTX_DEVICE={choice}: no device name contains it"))
}

/// A context with one in-order queue on one device.
pub struct Cl {
    pub context: cl_context,
    pub queue: cl_command_queue,
}

impl Cl {
    pub fn new(device: &Device) -> Result<Self, String> {
        let properties = [CL_CONTEXT_PLATFORM as cl_context_properties, device.platform as cl_context_properties, 0];
        let mut code = 0;
        let context = unsafe { clCreateContext(properties.as_ptr(), 1, &device.id, None, ptr::null_mut(), &mut code) };
        check(code, "clCreateContext")?;
        let queue = unsafe { clCreateCommandQueue(context, device.id, 0, &mut code) };
        if let Err(e) = check(code, "clCreateCommandQueue") {
            unsafe { clReleaseContext(context) };
            return Err(e);
        }
        Ok(Cl { context, queue })
    }

    pub fn buffer(&self, bytes: usize) -> Result<Buffer, String> {
        let mut code = 0;
        let mem = unsafe { clCreateBuffer(self.context, CL_MEM_READ_WRITE, bytes, ptr::null_mut(), &mut code) };
        check(code, &format!("clCreateBuffer of {} MiB", bytes >> 20))?;
        Ok(Buffer { mem, bytes })
    }

    pub fn write(&self, buffer: &Buffer, data: &[u8]) -> Result<(), String> {
        let bytes = data.len().min(buffer.bytes);
        let code = unsafe {
            clEnqueueWriteBuffer(
                self.queue,
                buffer.mem,
                CL_TRUE,
                0,
                bytes,
                data.as_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        check(code, "clEnqueueWriteBuffer")
    }

    pub fn read(&self, buffer: &Buffer, bytes: usize) -> Result<Vec<u8>, String> {
        let mut data = vec![0u8; bytes.min(buffer.bytes)];
        let code = unsafe {
            clEnqueueReadBuffer(
                self.queue,
                buffer.mem,
                CL_TRUE,
                0,
                data.len(),
                data.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        check(code, "clEnqueueReadBuffer")?;
        Ok(data)
    }

    /// Fills `buffer` with NaN bytes, so a transform that writes nothing cannot pass on an earlier result.
    pub fn poison(&self, buffer: &Buffer) -> Result<(), String> {
        let pattern = 0xFFu8;
        let code = unsafe {
            clEnqueueFillBuffer(
                self.queue,
                buffer.mem,
                (&pattern as *const u8).cast(),
                1,
                0,
                buffer.bytes,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        check(code, "clEnqueueFillBuffer")?;
        self.finish()
    }

    pub fn enqueue_copy(&self, from: &Buffer, to: &Buffer, bytes: usize) -> Result<(), String> {
        let code =
            unsafe { clEnqueueCopyBuffer(self.queue, from.mem, to.mem, 0, 0, bytes, 0, ptr::null(), ptr::null_mut()) };
        check(code, "clEnqueueCopyBuffer")
    }

    /// Milliseconds to build `source` for `device` (clCreateProgramWithSource + clBuildProgram).
    pub fn build_ms(&self, device: &Device, source: &str, options: &std::ffi::CStr) -> Result<f64, String> {
        let start = std::time::Instant::now();
        let mut code = 0;
        let text = source.as_ptr() as *const std::ffi::c_char;
        let length = source.len();
        let program = unsafe { clCreateProgramWithSource(self.context, 1, &text, &length, &mut code) };
        check(code, "clCreateProgramWithSource")?;
        let built = unsafe { clBuildProgram(program, 1, &device.id, options.as_ptr(), None, ptr::null_mut()) };
        let elapsed = start.elapsed().as_secs_f64() * 1e3;
        unsafe { clReleaseProgram(program) };
        check(built, "clBuildProgram").map(|()| elapsed)
    }

    pub fn finish(&self) -> Result<(), String> {
        check(unsafe { clFinish(self.queue) }, "clFinish")
    }
}

impl Drop for Cl {
    fn drop(&mut self) {
        unsafe {
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.context);
        }
    }
}

pub struct Buffer {
    pub mem: cl_mem,
    pub bytes: usize,
}

impl Drop for Buffer {
    fn drop(&mut self) {
        unsafe { clReleaseMemObject(self.mem) };
    }
}

#[cfg(test)]
mod tests {
    use super::{select_device, Cl};

    #[test]
    fn a_build_that_fails_is_an_error_not_a_time() {
        // The compiler floor reports these times: a failed build must never pass for a fast one.
        let device = select_device("").expect("an OpenCL device");
        let cl = Cl::new(&device).expect("a context");
        let built = cl.build_ms(&device, "kernel void twice(global float *x) { x[get_global_id(0)] *= 2.0f; }", c"");
        assert!(built.expect("a one-line kernel builds") > 0.0);
        let broken = cl.build_ms(&device, "kernel void twice(global float *x) { x[get_global_id(0)] *= y; }", c"");
        assert!(broken.expect_err("an undeclared name fails to build").contains("clBuildProgram"));
    }
}
