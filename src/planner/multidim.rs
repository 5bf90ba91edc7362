//! Multi-dimensional transforms as 1D jobs along each axis. Each leaf reads and writes the same positions
//! of its transforms, so axis passes after the first run in place.
//!
//! C2C and R2C start with axis 0 (for R2C the real axis, which turns real input into the Hermitian half)
//! and continue in place on the output; an uncached 2D C2C out of place on a CPU runs its second axis from
//! scratch into the output instead. C2R runs the complex axes first, on scratch unless the plan is in
//! place (the caller's input stays intact), and ends with the real axis. The first two complex axes run as
//! one plane where one kernel takes it (`plane_rows`).

use super::{factor, kernel_shape, real, Axis, BufRef, Ctx, Job, LogicalDim, Node};
use crate::error::Result;
use crate::types::TransformKind;

pub(super) fn plan(ctx: &mut Ctx) -> Result<Node> {
    let problem = ctx.problem;
    let dims = problem.lengths.len();
    let kind = problem.kind;
    let mut complex_axes: Vec<usize> =
        if kind == TransformKind::C2C { (0..dims).collect() } else { (1..dims).collect() };
    let mut children = Vec::with_capacity(dims);
    let mut current = BufRef::Input;
    if kind == TransformKind::R2C {
        children.push(real::r2c(ctx, batch_dims(ctx, &[0], current), current, BufRef::Output)?);
        current = BufRef::Output;
    }
    if let [first, second, ..] = complex_axes[..] {
        // A C2R's first complex pass goes to scratch (`c2r_dst`) with a plane or without.
        let dst = if kind == TransformKind::C2R { c2r_dst(ctx, current) } else { BufRef::Output };
        if let Some(n) = plane_rows(ctx, first, current, dst) {
            let fft = LogicalDim::along(Axis::Dim(first), n * problem.lengths[second], 1, 1);
            let job = Job {
                plane_n0: Some(n),
                ..Job::complex(fft, batch_dims(ctx, &[first, second], current), current, dst)
            };
            children.push(ctx.plan_job(job)?);
            current = dst;
            complex_axes.retain(|&axis| axis > second);
        }
    }
    // An uncached 2D C2C out of place on a CPU: axis 0 writes scratch, and axis 1 reads it and writes the
    // output, rather than running in place with its long stride (`kernel_shape::CPU_CACHED_BYTES`).
    let bytes = problem.lengths.iter().product::<usize>() * problem.precision.complex_bytes();
    let axis0_to_scratch = complex_axes.len() == 2
        && !problem.in_place
        && !problem.no_scratch
        && kernel_shape::is_cpu(ctx.device)
        && !kernel_shape::cached_on_cpu(ctx.device, bytes);
    for &axis in &complex_axes {
        let dst = match kind {
            TransformKind::C2R => c2r_dst(ctx, current),
            TransformKind::C2C if axis0_to_scratch && axis == complex_axes[0] => ctx.free_tmp(&[]),
            _ => BufRef::Output,
        };
        let n = problem.lengths[axis];
        let fft = LogicalDim::along(Axis::Dim(axis), n, 1, 1);
        children.push(ctx.plan_job(Job::complex(fft, batch_dims(ctx, &[axis], current), current, dst))?);
        current = dst;
    }
    if kind == TransformKind::C2R {
        // Ordered by the output, whose real rows are packed where the scratch runs the batch on.
        children.push(real::c2r(ctx, batch_dims(ctx, &[0], BufRef::Output), current, BufRef::Output)?);
    }
    if children.len() == 1 {
        Ok(children.remove(0))
    } else {
        Ok(Node::MultiDim { lengths: problem.lengths.clone(), batch: problem.batch, children })
    }
}

/// The most bytes a plane along axes that do not start at 0 (a real transform's complex axes, whose points
/// lie the Hermitian rows apart) may take per transform. Such a plane loads along columns, and its kernel's
/// lanes of whole planes soon outgrow L1 (docs/tuning.md, "Strided planes").
const STRIDED_PLANE_MAX_BYTES: usize = 8 << 10;

/// Where a C2R's complex pass from `current` writes: it keeps the Hermitian data in scratch (or in place)
/// until the real axis writes the output.
fn c2r_dst(ctx: &mut Ctx, current: BufRef) -> BufRef {
    if current == BufRef::Input && !ctx.problem.in_place {
        ctx.free_tmp(&[])
    } else {
        current
    }
}

/// The length of axis `first` when it and the next axis, the first two complex axes, run as one leaf, a
/// plane per transform: when the plane is at most `max_leaf` long and packed on both sides (the next axis's
/// stride `n` times that of `first`, and C2C rows contiguous). The data then crosses memory once for both
/// axes, not twice. A longer plane would work from a CPU's L2 with few lanes, which is slower than two passes
/// (docs/tuning.md, "Plane leaves").
fn plane_rows(ctx: &Ctx, first: usize, src: BufRef, dst: BufRef) -> Option<usize> {
    let problem = ctx.problem;
    let lengths = problem.complex_lengths();
    let (n, next) = (lengths[first], lengths[first + 1]);
    let packed = |buffer: BufRef| {
        let layout = problem.layout(buffer);
        layout.strides[first + 1] == n * layout.strides[first] && (first > 0 || layout.strides[0] == 1)
    };
    let fits = n > 1
        && next > 1
        && factor::is_smooth(n * next)
        && n * next <= ctx.max_leaf()
        && (first == 0 || n * next * problem.precision.complex_bytes() <= STRIDED_PLANE_MAX_BYTES);
    (fits && packed(src) && packed(dst)).then_some(n)
}

/// Every axis but those in `axes`, plus the batch, innermost first by stride in `order_by`. Axis 0 of
/// complex data holds the Hermitian half when the transform is real.
fn batch_dims(ctx: &Ctx, axes: &[usize], order_by: BufRef) -> Vec<LogicalDim> {
    let problem = ctx.problem;
    let lengths = if axes.contains(&0) { problem.lengths.clone() } else { problem.complex_lengths() };
    let layout = problem.layout(order_by);
    let mut batch: Vec<LogicalDim> = (0..lengths.len())
        .filter(|b| !axes.contains(b))
        .map(|b| LogicalDim::along(Axis::Dim(b), lengths[b], 1, 1))
        .chain([LogicalDim::along(Axis::Batch, problem.batch, 1, 1)])
        .filter(|d| d.count > 1)
        .collect();
    batch.sort_by_key(|d| layout.stride(d.in_axis));
    batch
}

#[cfg(test)]
mod tests {
    use crate::codegen::stockham::{InputPrefetch, StockhamKernel};
    use crate::codegen::KernelSpec;
    use crate::planner::tuning::Target;
    use crate::planner::{test_device, BufRef, BufferLayout, Problem};
    use crate::runtime::DeviceInfo;
    use crate::types::{Precision, TransformKind};

    /// The plane of each Stockham step of the plan: Some(n0) where axes 0 and 1 run in one kernel.
    fn planes(problem: &Problem) -> Vec<Option<usize>> {
        planes_on(problem, &test_device::target(&test_device::cpu()))
    }

    fn planes_on(problem: &Problem, device: &Target) -> Vec<Option<usize>> {
        stockham_kernels(problem, device).iter().map(|k| k.plane_n0).collect()
    }

    /// The Stockham kernels of the plan with the batch in one chunk (`planner::chunks`), in step order.
    fn stockham_kernels(problem: &Problem, device: &Target) -> Vec<StockhamKernel> {
        let exec = crate::planner::plan_whole_batch(problem, device, 1).unwrap();
        exec.steps
            .into_iter()
            .filter_map(|s| match s.kernel {
                KernelSpec::Stockham(k) => Some(*k),
                _ => None,
            })
            .collect()
    }

    /// The buffers each pass reads and writes.
    fn buffers(problem: &Problem) -> Vec<(BufRef, BufRef)> {
        let exec = crate::planner::plan(problem, &test_device::target(&test_device::cpu())).unwrap();
        exec.steps.iter().map(|s| (s.src, s.dst)).collect()
    }

    #[test]
    fn uncached_2d_c2c_out_of_place_runs_axis_1_from_scratch() {
        use BufRef::{Input, Output, Tmp};
        assert_eq!(buffers(&test_device::c2c(&[1024, 1024], 1)), [(Input, Tmp(0)), (Tmp(0), Output)]);
        // Cached, in place, without scratch, or 3D: in place on the output.
        let volume = test_device::c2c(&[128, 128, 128], 1);
        assert_eq!(buffers(&volume), [(Input, Output), (Output, Output), (Output, Output)]);
        assert_eq!(buffers(&test_device::c2c(&[256, 256], 1)), [(Input, Output), (Output, Output)]);
        let in_place = Problem { in_place: true, ..test_device::c2c(&[1024, 1024], 1) };
        assert_eq!(buffers(&in_place), [(Input, Output), (Output, Output)]);
        let no_scratch = Problem { no_scratch: true, ..test_device::c2c(&[1024, 1024], 1) };
        assert_eq!(buffers(&no_scratch), [(Input, Output), (Output, Output)]);
    }

    #[test]
    fn c2r_scratch_runs_the_batch_on_after_axis_0() {
        // 129 Hermitian columns x 64 transforms: the column pass stores whole vectors (streaming) across the
        // transforms' boundaries, and the real pass's lanes take neighbouring rows of one transform.
        let problem = test_device::transform(TransformKind::C2R, &[256, 256], 64, false, Precision::Single);
        let kernels = stockham_kernels(&problem, &test_device::target(&test_device::cpu()));
        let dims = |k: &StockhamKernel| k.batch.iter().map(|d| (d.count, d.out_stride)).collect::<Vec<_>>();
        assert_eq!(kernels.len(), 2);
        assert_eq!((kernels[0].out_stride, dims(&kernels[0])), (129 * 64, vec![(129, 1), (64, 129)]));
        assert!(kernels[0].streaming_store);
        assert_eq!(dims(&kernels[1]), [(256, 256), (64, 256 * 256)]);
        // One transform: axis 1 starts on whole rows of 16 values (129 padded to 144).
        let one = test_device::transform(TransformKind::C2R, &[256, 256], 1, false, Precision::Single);
        assert_eq!(stockham_kernels(&one, &test_device::target(&test_device::cpu()))[0].out_stride, 144);
    }

    #[test]
    fn packed_planes_that_fit_one_kernel_take_one_pass_for_two_axes() {
        assert_eq!(planes(&test_device::c2c(&[64, 64, 64], 16)), [Some(64), None]);
        assert_eq!(planes(&test_device::c2c(&[7, 9], 3)), [Some(7)]);
        // Longer than `max_leaf` (even where PoCL's 2 MiB of local memory would hold a few lanes of it), a
        // length-1 axis, padded rows, and 2D real transforms keep one pass per axis.
        let padded = BufferLayout { strides: vec![1, 33], ..BufferLayout::packed(&[30, 7]) };
        let pocl = DeviceInfo { local_mem_bytes: 2 << 20, ..test_device::cpu() };
        assert_eq!(planes_on(&test_device::c2c(&[128, 128, 128], 2), &test_device::target(&pocl)), [None, None, None]);
        for problem in [
            test_device::c2c(&[256, 256], 1),
            test_device::c2c(&[8, 1, 5], 1),
            Problem { input: padded, ..test_device::c2c(&[30, 7], 1) },
            Problem { kind: TransformKind::R2C, ..test_device::c2c(&[16, 16], 1) },
        ] {
            let planes = planes(&problem);
            assert!(planes.len() >= 2 && planes.iter().all(Option::is_none), "{:?}: {planes:?}", problem.lengths);
        }
    }

    #[test]
    fn small_real_volumes_run_their_complex_axes_as_one_plane() {
        let problem = |kind, lengths: &[usize], in_place, precision| {
            test_device::transform(kind, lengths, 64, in_place, precision)
        };
        let (r2c, c2r, single) = (TransformKind::R2C, TransformKind::C2R, Precision::Single);
        // R2C: the real pass, then axes 1 and 2 as one plane of points 9 apart; C2R the other way round,
        // out of place into scratch and in place.
        assert_eq!(planes(&problem(r2c, &[16, 16, 16], false, single)), [None, Some(16)]);
        assert_eq!(planes(&problem(c2r, &[16, 16, 16], false, single)), [Some(16), None]);
        assert_eq!(planes(&problem(c2r, &[16, 16, 16], true, single)), [Some(16), None]);
        assert_eq!(planes(&problem(r2c, &[9, 12, 5, 3], false, single)), [None, Some(12), None]);
        // 32^3 single takes `STRIDED_PLANE_MAX_BYTES` to the byte; double takes twice that and, like axes whose
        // strides leave gaps, runs one pass per axis.
        assert_eq!(planes(&problem(r2c, &[32, 32, 32], false, single)), [None, Some(32)]);
        assert_eq!(planes(&problem(r2c, &[32, 32, 32], false, Precision::Double)), [None, None, None]);
        let mut gaps = problem(r2c, &[16, 16, 16], false, single);
        gaps.output.strides = vec![1, 10, 170];
        gaps.output.dist = 170 * 16;
        assert_eq!(planes(&gaps), [None, None, None]);
    }

    #[test]
    fn cpu_row_passes_prefetch_the_next_slot_and_column_passes_the_elements_ahead() {
        // 2048^2 double: the row pass prefetches its next slot's rows; the column pass after it reads
        // elements 32 KiB apart and prefetches the elements ahead. A GPU never prefetches.
        let prefetches = |problem: &Problem, device: &Target| {
            stockham_kernels(problem, device).iter().map(StockhamKernel::input_prefetch).collect::<Vec<_>>()
        };
        let double = Problem { precision: Precision::Double, ..test_device::c2c(&[2048, 2048], 1) };
        let cpu = test_device::cpu();
        assert_eq!(
            prefetches(&double, &test_device::target(&cpu)),
            [InputPrefetch::NextSlot, InputPrefetch::ColumnsAhead]
        );
        assert!(prefetches(&double, &test_device::target(&test_device::gpu()))
            .iter()
            .all(|&p| p == InputPrefetch::None));
        // 128^3: columns 1 KiB apart (within a page) and 128 KiB apart prefetch alike, in one program.
        let passes = stockham_kernels(&test_device::c2c(&[128, 128, 128], 1), &test_device::target(&cpu));
        let sources: Vec<String> = passes.iter().map(|k| k.source().source).collect();
        assert_eq!(sources.len(), 3);
        assert_ne!(passes[1].in_stride, passes[2].in_stride);
        assert_eq!(sources[1], sources[2]);
    }
}
