//! Batch chunks: on a CPU, a batch of transforms that each take several passes runs a few transforms
//! through every pass before the next few, so that each pass after the first finds its data in the
//! last-level cache instead of memory. Each chunk is the same problem with fewer transforms, its buffers
//! shifted by the chunk's first transform: the same kernels serve every chunk.

use super::{kernel_shape, BufRef, BufferLayout, ExecPlan, Node, Problem};
use crate::planner::tuning::Target;
use crate::types::TransformKind;

/// How a plan's batch runs in chunks of transforms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunks {
    pub count: usize,
    /// Elements (in each buffer's units, as `BufferLayout`) from one chunk's input and output to the next's.
    pub input: usize,
    pub output: usize,
}

impl Chunks {
    pub const ONE: Chunks = Chunks { count: 1, input: 0, output: 0 };

    /// Elements of `buffer` between chunk 0 and `chunk`: scratch is reused by every chunk.
    pub fn shift(&self, buffer: BufRef, chunk: usize) -> usize {
        chunk
            * match buffer {
                BufRef::Input => self.input,
                BufRef::Output => self.output,
                BufRef::Tmp(_) => 0,
            }
    }
}

/// The transforms per chunk for `problem` on `device`, when its batch should run in chunks: on CPUs
/// (`kernel_shape::chunk_budget`), for a batch the device's cache does not hold (`fits_in_cache`) or whose scratch
/// strides grow with the batch (`strides_grow_with_batch`).
pub(super) fn transforms_per_chunk(problem: &Problem, device: &Target) -> Option<usize> {
    let budget = kernel_shape::chunk_budget(device)?;
    if fits_in_cache(problem, device) && !strides_grow_with_batch(problem) && device.tuning.chunk_bytes.is_none() {
        return None;
    }
    transforms_within(problem, budget)
}

/// True when the data of the whole batch take at most 1 / CACHED_BATCH_SHARE of the device's global memory
/// cache (the last-level cache on PoCL): every pass then finds them cached without chunks, which only add
/// launches (docs/tuning.md, "Batches the cache holds").
fn fits_in_cache(problem: &Problem, device: &Target) -> bool {
    let bytes = (problem.elements() * problem.precision.complex_bytes()) as u64;
    bytes.saturating_mul(CACHED_BATCH_SHARE) <= device.cache_bytes
}

const CACHED_BATCH_SHARE: u64 = 2;

/// True for a plan out of place whose scratch runs the batch inside every plane (`Problem::batch_inner_layout`, a C2R)
/// and takes two or more complex passes (three or more axes): their strides grow with the batch it runs, and a whole
/// batch is slower than its chunks even where the cache holds it. A 2D C2R's one complex pass gains from the whole
/// batch (docs/tuning.md, "3D C2R chunks").
fn strides_grow_with_batch(problem: &Problem) -> bool {
    problem.scratch_runs_batch_inner() && problem.lengths.len() >= 3 && !problem.in_place
}

/// The most transforms of `problem` a chunk of at most `budget` bytes of data holds, when the whole batch
/// outgrows it, chunks of that many divide the batch and fill enough of the budget (`MIN_CHUNK_SHARE`),
/// each chunk's transforms are contiguous in both buffers, and every offset stays within 2^31 reals (narrow
/// indices).
fn transforms_within(problem: &Problem, budget: usize) -> Option<usize> {
    let per_transform = problem.elements() / problem.batch * problem.precision.complex_bytes();
    let contiguous = |layout: &BufferLayout, lengths: &[usize]| {
        layout.dist >= layout.extent(lengths)
            && layout.dist.checked_mul(2 * problem.batch).is_some_and(|e| e < i32::MAX as usize)
    };
    let complex = problem.complex_lengths();
    let (in_lengths, out_lengths) = match problem.kind {
        TransformKind::C2C => (&complex, &complex),
        TransformKind::R2C => (&problem.lengths, &complex),
        TransformKind::C2R => (&complex, &problem.lengths),
    };
    if per_transform * problem.batch <= budget
        || !contiguous(&problem.input, in_lengths)
        || !contiguous(&problem.output, out_lengths)
    {
        return None;
    }
    let transforms = (1..problem.batch).rev().find(|&b| problem.batch % b == 0 && b * per_transform <= budget)?;
    (transforms * per_transform * MIN_CHUNK_SHARE >= budget).then_some(transforms)
}

/// A chunk holds at least 1 / MIN_CHUNK_SHARE of the budget: smaller chunks (a batch of few divisors) spend
/// more on launches than the cache saves (docs/tuning.md, "CPU chunk budget").
const MIN_CHUNK_SHARE: usize = 4;

/// True when every launch of `part`, the plan of one chunk, runs at least `MIN_CHUNK_GROUPS_PER_UNIT`
/// work-groups per compute unit.
pub(super) fn keeps_units_balanced(part: &ExecPlan, device: &Target) -> bool {
    let wanted = MIN_CHUNK_GROUPS_PER_UNIT * (device.compute_units as usize).max(1);
    part.steps.iter().all(|step| step.kernel.work_groups() >= wanted)
}

/// Work-groups per compute unit below which a chunk's launch leaves the units unbalanced, each chunk waiting
/// for its slowest: the batch then runs whole. A column-pairing R2C pass (`RealStage::R2cPostPairs`) runs
/// long runs of slots per work-item, so a chunk of few transforms launches only one or two per unit
/// (docs/tuning.md, "Chunk launches per unit").
const MIN_CHUNK_GROUPS_PER_UNIT: usize = 4;

/// `part`, the plan of one chunk of `transforms` transforms, run over the whole batch of `problem`.
pub(super) fn over_batch(part: ExecPlan, problem: &Problem, transforms: usize) -> ExecPlan {
    let count = problem.batch / transforms;
    let chunks = Chunks { count, input: transforms * problem.input.dist, output: transforms * problem.output.dist };
    let tree = Node::BatchChunks { chunks: count, transforms, children: vec![part.tree] };
    ExecPlan { tree, chunks, ..part }
}

#[cfg(test)]
mod tests {
    use super::super::test_device::{c2c, cpu, target, transform};
    use super::super::{plan, Node, Problem};
    use super::{transforms_per_chunk, transforms_within, MIN_CHUNK_GROUPS_PER_UNIT};
    use crate::codegen::KernelSpec;
    use crate::runtime::DeviceInfo;
    use crate::types::{Precision, TransformKind};

    #[test]
    fn chunks_divide_the_batch_within_the_budget() {
        // 1024 single points take 8 KiB: 6 of them in chunks of 2 within 16 KiB, 7 in chunks of 1.
        assert_eq!(transforms_within(&c2c(&[1024], 6), 16 << 10), Some(2));
        assert_eq!(transforms_within(&c2c(&[1024], 7), 16 << 10), Some(1));
        // A batch within the budget, transforms each larger than it, or chunks under a quarter of it (a
        // prime batch of 2 KiB transforms) run whole.
        assert_eq!(transforms_within(&c2c(&[256], 67), 16 << 10), None);
        assert_eq!(transforms_within(&c2c(&[1024], 2), 16 << 10), None);
        assert_eq!(transforms_within(&c2c(&[4096], 6), 16 << 10), None);
        // Real transforms count their scratch rows: 2048 reals keep 1040 complex values (8320 bytes).
        let r2c = transform(TransformKind::R2C, &[2048], 6, false, Precision::Single);
        assert_eq!(transforms_within(&r2c, 16 << 10), Some(1));
        let c2r = transform(TransformKind::C2R, &[2048], 6, true, Precision::Single);
        assert_eq!(transforms_within(&c2r, 24 << 10), Some(2));
    }

    #[test]
    fn the_cases_of_tests_chunks_run_in_chunks_of_16_kib() {
        let budget = 16 << 10;
        let double = |mut p: Problem| {
            p.precision = Precision::Double;
            p
        };
        let mut padded = c2c(&[1024], 4);
        (padded.input.dist, padded.output.dist) = (1100, 1030);
        let complex = [(c2c(&[1024], 6), 2), (double(c2c(&[1024], 6)), 1), (padded, 2), (c2c(&[32, 32], 3), 1)];
        let real = |kind, lengths: &[usize], batch, in_place, precision| {
            (transform(kind, lengths, batch, in_place, precision), 1)
        };
        for kind in [TransformKind::R2C, TransformKind::C2R] {
            let cases = [
                real(kind, &[2048], 6, false, Precision::Single),
                real(kind, &[1024], 3, false, Precision::Double),
                real(kind, &[2048], 6, true, Precision::Single),
                real(kind, &[64, 32], 4, false, Precision::Single),
            ];
            for (problem, transforms) in complex.iter().cloned().chain(cases) {
                assert_eq!(transforms_within(&problem, budget), Some(transforms), "{problem:?}");
            }
        }
    }

    #[test]
    fn chunks_need_each_chunk_contiguous() {
        // Transforms interleaved with each other (distance 1, stride 6) share their memory with other chunks.
        let mut interleaved = c2c(&[1024], 6);
        for layout in [&mut interleaved.input, &mut interleaved.output] {
            layout.strides = vec![6];
            layout.dist = 1;
        }
        assert_eq!(transforms_within(&interleaved, 16 << 10), None);
    }

    #[test]
    fn the_default_budget_chunks_batches_of_multi_pass_transforms() {
        // 64 transforms of 65536 double points (64 MiB) in chunks of 8 MiB; the tree says so.
        let mut problem = c2c(&[65536], 64);
        problem.precision = Precision::Double;
        let exec = plan(&problem, &target(&cpu())).unwrap();
        assert_eq!(exec.chunks.count, 8);
        assert_eq!((exec.chunks.input, exec.chunks.output), (8 * 65536, 8 * 65536));
        assert!(matches!(exec.tree, Node::BatchChunks { chunks: 8, transforms: 8, .. }), "{}", exec.tree);
        // Only the last step streams its stores past the cache, and the tree says so.
        let real = transform(TransformKind::R2C, &[65536], 64, false, Precision::Double);
        let exec = plan(&real, &target(&cpu())).unwrap();
        assert!(exec.chunks.count > 1, "{}", exec.tree);
        let streams: Vec<bool> =
            exec.steps.iter().map(|s| matches!(&s.kernel, KernelSpec::Stockham(k) if k.streaming_store)).collect();
        assert_eq!(streams, [false, true], "{}", exec.tree);
        let printed = exec.tree.to_string();
        let said: Vec<bool> =
            printed.lines().filter(|l| l.contains("Stockham")).map(|l| l.contains("+stream")).collect();
        assert_eq!(said, streams, "{printed}");
        // One pass per transform: nothing to keep cached between passes.
        assert_eq!(plan(&c2c(&[1024], 4096), &target(&cpu())).unwrap().chunks.count, 1);
    }

    #[test]
    fn a_batch_within_half_the_cache_runs_whole() {
        // 2^22 double points (64 MiB) within half a 260 MiB cache run whole; 2^24 (256 MiB) run in chunks.
        // A tuned budget (`FFTX_TUNE=chunk=B`) chunks whatever the cache, which the tests of tests/chunks.rs
        // rely on: the unit tests do not set it.
        let xeon = DeviceInfo { cache_bytes: 260 << 20, ..cpu() };
        let double = |batch| Problem { precision: Precision::Double, ..c2c(&[65536], batch) };
        assert_eq!(transforms_per_chunk(&double(64), &target(&xeon)), None);
        assert_eq!(plan(&double(64), &target(&xeon)).unwrap().chunks.count, 1);
        assert_eq!(transforms_per_chunk(&double(256), &target(&xeon)), Some(8));
        assert_eq!(transforms_per_chunk(&double(64), &target(&cpu())), Some(8));
        let r2c = transform(TransformKind::R2C, &[1024, 1024], 4, false, Precision::Single);
        assert_eq!(transforms_per_chunk(&r2c, &target(&xeon)), None);
        assert_eq!(transforms_per_chunk(&r2c, &target(&cpu())), Some(1));
        // A 3D C2R out of place keeps its chunks: its scratch strides grow with the batch. In place, or 2D,
        // it runs whole.
        let volume = |lengths: &[usize], batch, in_place| {
            transform(TransformKind::C2R, lengths, batch, in_place, Precision::Double)
        };
        assert_eq!(transforms_per_chunk(&volume(&[64, 64, 64], 16, false), &target(&xeon)), Some(2));
        assert_eq!(transforms_per_chunk(&volume(&[64, 64, 64], 16, true), &target(&xeon)), None);
        assert_eq!(transforms_per_chunk(&volume(&[256, 256], 64, false), &target(&xeon)), None);
    }

    #[test]
    fn chunks_keep_every_launch_balanced_across_the_units() {
        // R2C 262144 double in chunks of 2 would pair its columns in 2 work-items a launch, 1 per unit: the
        // batch runs whole. In chunks of 8, 65536 pairs them in 8 (4 per unit) and runs in chunks.
        let cpu = cpu();
        let r2c = |n, batch| transform(TransformKind::R2C, &[n], batch, false, Precision::Double);
        assert_eq!(transforms_within(&r2c(262144, 16), 8 << 20), Some(2));
        let whole = plan(&r2c(262144, 16), &target(&cpu)).unwrap();
        assert_eq!(whole.chunks.count, 1, "{}", whole.tree);
        let chunked = plan(&r2c(65536, 64), &target(&cpu)).unwrap();
        assert_eq!(chunked.chunks.count, 8, "{}", chunked.tree);
        let fewest = chunked.steps.iter().map(|s| s.kernel.work_groups()).min();
        assert_eq!(fewest, Some(MIN_CHUNK_GROUPS_PER_UNIT * cpu.compute_units as usize), "{}", chunked.tree);
    }
}
