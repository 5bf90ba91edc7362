//! Made-up devices and problems for planner unit tests, which plan without OpenCL.

use super::tuning::{Target, Tuning};
use super::{BufferLayout, Problem};
use crate::runtime::{DeviceInfo, DeviceKind};
use crate::types::{Precision, TransformKind};

/// A single-precision complex transform of `lengths` over packed buffers, out of place.
pub fn c2c(lengths: &[usize], batch: usize) -> Problem {
    let layout = BufferLayout::packed(lengths);
    Problem {
        precision: Precision::Single,
        kind: TransformKind::C2C,
        lengths: lengths.to_vec(),
        batch,
        input: layout.clone(),
        output: layout,
        in_place: false,
        no_scratch: false,
    }
}

/// A transform of `kind` over `lengths` (fastest first), packed, or in place with clFFT's padded real rows.
pub fn transform(
    kind: TransformKind,
    lengths: &[usize],
    batch: usize,
    in_place: bool,
    precision: Precision,
) -> Problem {
    let mut hermitian = lengths.to_vec();
    hermitian[0] = lengths[0] / 2 + 1;
    let complex = BufferLayout::packed(if kind == TransformKind::C2C { lengths } else { &hermitian });
    let real = if in_place {
        let mut padded = BufferLayout::packed(&hermitian);
        padded.strides.iter_mut().skip(1).for_each(|s| *s *= 2);
        padded.dist *= 2;
        padded.strides[0] = 1;
        padded
    } else {
        BufferLayout::packed(lengths)
    };
    let (input, output) = match kind {
        TransformKind::C2C => (complex.clone(), complex),
        TransformKind::R2C => (real, complex),
        TransformKind::C2R => (complex, real),
    };
    Problem { precision, kind, input, output, in_place, ..c2c(lengths, batch) }
}

/// A two-core CPU as PoCL describes one, with an AMD EPYC's 32 MiB last-level cache.
pub fn cpu() -> DeviceInfo {
    DeviceInfo {
        id: 0,
        name: "test".into(),
        vendor: String::new(),
        driver_version: String::new(),
        device_version: String::new(),
        platform_version: String::new(),
        pocl: true,
        kind: DeviceKind::Cpu,
        compute_units: 2,
        max_work_group_size: 4096,
        local_mem_bytes: 1 << 20,
        max_alloc_bytes: 1 << 30,
        global_mem_bytes: 1 << 33,
        cache_bytes: 32 << 20,
        fp64: true,
        native_width_f32: 8,
        // 8-wide double vectors, as AVX-512 has: double passes take 8 lanes (`kernel_shape::cpu_lanes`).
        native_width_f64: 8,
        svm_buffers: false,
        sub_buffer_align: 128,
        host_unified: true,
    }
}

/// A GPU with 64 KiB of local memory.
pub fn gpu() -> DeviceInfo {
    DeviceInfo {
        pocl: false,
        kind: DeviceKind::Gpu,
        compute_units: 64,
        max_work_group_size: 1024,
        local_mem_bytes: 64 << 10,
        host_unified: false,
        ..cpu()
    }
}

/// `device` as the planner targets it, without tuning.
pub fn target(device: &DeviceInfo) -> Target {
    Target::new(device, Tuning::default())
}
