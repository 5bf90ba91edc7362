//! Every problem of the benchmark's table, and lengths around its edges, planned on made-up devices whose
//! local memory and work-group limits differ: a plan may never depend on one machine's sizes. PoCL gives
//! a CPU its L2 size as local memory (1 MiB on an AMD EPYC, 2 MiB on the Intel Xeon the planner was tuned
//! on), and GPUs have 32-64 KiB.

use super::test_device;
use super::{plan, Problem};
use crate::codegen::KernelSpec;
use crate::runtime::DeviceInfo;
use crate::types::{Precision, TransformKind};

fn devices() -> Vec<(&'static str, DeviceInfo)> {
    use test_device::{cpu, gpu};
    vec![
        ("cpu 1 MiB", cpu()),
        ("cpu 2 MiB", DeviceInfo { local_mem_bytes: 2 << 20, ..cpu() }),
        ("cpu 512 KiB, 16 units", DeviceInfo { local_mem_bytes: 512 << 10, compute_units: 16, ..cpu() }),
        ("gpu 64 KiB", gpu()),
        ("gpu 48 KiB", DeviceInfo { local_mem_bytes: 48 << 10, ..gpu() }),
        ("gpu 32 KiB, 256 items", DeviceInfo { local_mem_bytes: 32 << 10, max_work_group_size: 256, ..gpu() }),
    ]
}

/// The benchmark's standard table (2^22 points a run) and lengths at the planner's thresholds.
fn shapes() -> Vec<(Vec<usize>, usize)> {
    let total = 1 << 22;
    let mut lengths: Vec<usize> = (1..=24).map(|e| 1usize << e).collect();
    lengths.extend([1000, 2187, 3125, 16807, 61440, 6, 15, 45, 17, 4097, 4099, 65537, 3 << 20, 5 << 12, 7 << 13]);
    let mut shapes: Vec<(Vec<usize>, usize)> = lengths.iter().map(|&n| (vec![n], (total / n).clamp(1, 64))).collect();
    for planes in [vec![256, 256], vec![1024, 1024], vec![2048, 2048], vec![100, 100], vec![48, 64], vec![4100, 6]] {
        shapes.push((planes, 2));
    }
    for cube in [vec![64, 64, 64], vec![128, 128, 128], vec![5, 7, 9], vec![34, 16, 8]] {
        shapes.push((cube, 1));
    }
    shapes
}

#[test]
fn every_standard_problem_plans_within_each_devices_limits() {
    let mut failures = Vec::new();
    for (name, device) in devices() {
        for (lengths, batch) in shapes() {
            for kind in [TransformKind::C2C, TransformKind::R2C, TransformKind::C2R] {
                for precision in [Precision::Single, Precision::Double] {
                    for in_place in [false, true] {
                        for no_scratch in [false, true] {
                            let problem = Problem {
                                no_scratch,
                                ..test_device::transform(kind, &lengths, batch, in_place, precision)
                            };
                            let case = format!("{name}: {kind:?} {precision:?} {lengths:?} x {batch} in place {in_place} no scratch {no_scratch}");
                            match plan(&problem, &test_device::target(&device)) {
                                Ok(exec) => {
                                    failures.extend(over_limits(&exec.steps, &device).map(|e| format!("{case}: {e}")))
                                }
                                Err(e) => failures.push(format!("{case}: {e:?}")),
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} problems failed to plan:\n{}", failures.len(), failures.join("\n"));
}

/// The first kernel of `steps` that declares more local memory or a larger work-group than `device` has.
fn over_limits(steps: &[super::Step], device: &DeviceInfo) -> Option<String> {
    steps.iter().find_map(|step| {
        let (_, local) = step.kernel.work_size();
        let items = local[0] * local[1];
        let local_bytes = match &step.kernel {
            KernelSpec::Stockham(k) => k.kernel_local_bytes(),
            _ => 0,
        };
        (items > device.max_work_group_size || local_bytes as u64 > device.local_mem_bytes)
            .then(|| format!("a kernel of {items} work-items and {local_bytes} bytes of local memory"))
    })
}
