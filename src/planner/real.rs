//! The real axis (axis 0) of R2C and C2R transforms.
//!
//! Even lengths 2h run as an h-point complex FFT of the (x_2n, x_2n+1) pairs with the Hermitian post- or
//! pre-process fused into the leaf; odd lengths as a full complex FFT with real loads or stores, two
//! transforms x and y at a time as one FFT of x + i y where the batch allows. An even length whose complex
//! FFT runs in registers (64 points on CPUs, 256 single with AVX-512) pairs transforms in the same way, and
//! so does a CPU single-precision R2C of 500 points or more whose complex FFT fits one leaf
//! (`even_r2c_twins`). When the complex FFT is too long for one kernel, an even length whose half splits as 8
//! x (one kernel) on a CPU carries its stage across the lanes of that four-step's long pass (`across_lanes`);
//! a longer R2C whose four-step (two or three passes) has whole vectors of columns pairs them with their
//! mirrors in its last pass (`paired_columns`), and a longer C2R whose first pass has few rows, in pairs of
//! blocks of 8, pairs those (`paired_rows`); odd twins merge on the load or split on the store of a four-step
//! in one kernel (`c2r_twins`, `r2c_twins`). Otherwise (or with a prime factor above 13) the real stage
//! becomes an elementwise pass of its own, before (C2R) or after (R2C) the complex transform through scratch,
//! with the same pairing.

use super::fourstep::Split;
use super::scratch::TransformScratch;
use super::{factor, fourstep, kernel_shape, Axis, BufRef, Ctx, Job, LogicalDim, Node, Side};
use crate::codegen::elementwise::ElementwiseOp;
use crate::codegen::stockham::{RealStage, REGISTER_LANES};
use crate::error::Result;
use crate::types::Precision;

fn axis0(count: usize) -> LogicalDim {
    LogicalDim::along(Axis::Dim(0), count, 1, 1)
}

fn job(count: usize, batch: &[LogicalDim], src: BufRef, dst: BufRef, sides: (Side, Side)) -> Job {
    Job { in_side: sides.0, out_side: sides.1, ..Job::complex(axis0(count), batch.to_vec(), src, dst) }
}

/// Real input along axis 0 -> Hermitian output (n / 2 + 1 values).
pub(super) fn r2c(ctx: &mut Ctx, batch: Vec<LogicalDim>, src: BufRef, dst: BufRef) -> Result<Node> {
    let n = ctx.problem.lengths[0];
    let (m, in_side) = if n % 2 == 0 { (n / 2, Side::RealPairs) } else { (n, Side::Real) };
    if let Some(leaf) = twins_in_registers(ctx, &batch, src, dst, split_leaf) {
        return ctx.plan_job(leaf);
    }
    if let Some(leaf) = even_r2c_twins(ctx, &batch, src, dst) {
        return ctx.plan_job(leaf);
    }
    if m <= ctx.max_leaf() && factor::is_smooth(m) {
        let mut leaf = job(m, &batch, src, dst, (in_side, Side::Complex));
        if n % 2 == 0 {
            leaf.stage = RealStage::R2cPost;
            leaf.out_count = m + 1;
        } else if let Some(twins) = leaf_twins(ctx, &batch, src, dst) {
            leaf = split_leaf(n, &twins, src, dst);
        } else {
            leaf.out_count = n / 2 + 1;
        }
        return ctx.plan_job(leaf);
    }
    let whole =
        Job { stage: RealStage::R2cPost, out_count: m + 1, ..job(m, &batch, src, dst, (in_side, Side::Complex)) };
    if let Some(long) = across_lanes(ctx) {
        return fourstep::plan_split(ctx, whole, long, REGISTER_LANES);
    }
    if let Some(split) = paired_columns(ctx, &whole) {
        return fourstep::plan_as(ctx, whole, split);
    }
    if n % 2 == 1 {
        if let Some(node) = r2c_twins(ctx, &batch, src, dst)? {
            return Ok(node);
        }
    }
    let scratch = ctx.free_tmp(&[src, dst]);
    let complex = ctx.plan_job(job(m, &batch, src, scratch, (in_side, Side::Complex)))?;
    let op = if n % 2 == 0 { ElementwiseOp::R2cPost } else { ElementwiseOp::Truncate };
    let stage = ctx.elementwise(op, job(m, &batch, scratch, dst, (Side::Complex, Side::Complex)))?;
    Ok(Node::RealAxis { n, children: vec![complex, stage] })
}

/// A long odd-length R2C with two or more transforms: transform t and its twin t + count / 2 along the
/// outermost batch dimension run as one complex FFT of x_t + i x_twin, half the work, and a split
/// separates their spectra. An odd count puts the middle transform in two pairs, as pair 0's twin and as
/// the last pair's own; pair 0 (coordinate 0 of the twin dimension) does not store it. Where the complex
/// FFT runs as one kernel with its parts in the lanes (`fourstep::lanes_dft`), that kernel splits the
/// pairs as it stores (`RealStage::TwinSplitLanes`: no scratch; each element's DFT across the lanes runs in
/// registers beside its mirror's; docs/tuning.md, "Twin split across the lanes"); otherwise a split pass
/// follows through scratch.
fn r2c_twins(ctx: &mut Ctx, batch: &[LogicalDim], src: BufRef, dst: BufRef) -> Result<Option<Node>> {
    let n = ctx.problem.lengths[0];
    if let Some(twins) = leaf_twins(ctx, batch, src, dst) {
        if let Some(node) = fourstep::lanes_dft(ctx, &split_leaf(n, &twins, src, dst))? {
            return Ok(Some(node));
        }
    }
    let Some(twins) = Twins::along(ctx, batch, src, dst, |count| count >= 2) else { return Ok(None) };
    // Only the split pass, which stores the pairs, leaves out pair 0's twin.
    let pairs = job(n, &twins.pairs, src, dst, (Side::RealTwins { half: twins.in_apart, lone: None }, Side::Complex));
    let scratch = TransformScratch::new(ctx, &pairs, n);
    let complex = ctx.plan_job(scratch.fill(&pairs, n))?;
    let split = ElementwiseOp::TwinSplit { twin_out: twins.out_apart };
    let split = ctx.elementwise_with_lone(split, scratch.drain(&pairs, n), twins.lone_axis)?;
    Ok(Some(Node::RealAxis { n, children: vec![complex, split] }))
}

/// The leaf of an R2C pair: the n-point FFT of x + i y, split into the two spectra as it stores.
fn split_leaf(n: usize, twins: &Twins, src: BufRef, dst: BufRef) -> Job {
    let pairs = Side::RealTwins { half: twins.in_apart, lone: twins.lone_axis };
    let mut leaf = job(n, &twins.pairs, src, dst, (pairs, Side::Complex));
    leaf.stage = RealStage::TwinSplit { twin_out: twins.out_apart };
    leaf.out_count = n / 2 + 1;
    leaf
}

/// The leaf of a C2R pair: X + i Y as it loads, then the n-point FFT whose real and imaginary parts are
/// the two outputs.
fn merge_leaf(n: usize, twins: &Twins, src: BufRef, dst: BufRef) -> Job {
    let pairs = Side::RealTwins { half: twins.out_apart, lone: twins.lone_axis };
    let mut leaf = job(n, &twins.pairs, src, dst, (Side::Complex, pairs));
    leaf.stage = RealStage::TwinMerge { twin_in: twins.in_apart };
    leaf.in_count = n / 2 + 1;
    leaf
}

/// An even length that runs in registers as one complex FFT (`register_lanes`) pairs transforms as odd
/// lengths do: the leaf of x + i y then makes no trip through local memory, which the half-length FFT with
/// its Hermitian post- or pre-process does.
fn twins_in_registers(
    ctx: &Ctx,
    batch: &[LogicalDim],
    src: BufRef,
    dst: BufRef,
    pair_leaf: fn(usize, &Twins, BufRef, BufRef) -> Job,
) -> Option<Job> {
    even_pairs(ctx, batch, src, dst, pair_leaf).filter(|leaf| ctx.runs_in_registers(leaf))
}

/// The leaf `pair_leaf` makes of an even length's transforms in pairs, where the batch pairs them.
fn even_pairs(
    ctx: &Ctx,
    batch: &[LogicalDim],
    src: BufRef,
    dst: BufRef,
    pair_leaf: fn(usize, &Twins, BufRef, BufRef) -> Job,
) -> Option<Job> {
    let n = ctx.problem.lengths[0];
    let twins = leaf_twins(ctx, batch, src, dst).filter(|_| n % 2 == 0)?;
    Some(pair_leaf(n, &twins, src, dst))
}

/// Even R2C lengths from which a CPU leaf pairs transforms (`even_r2c_twins`).
const CPU_EVEN_R2C_TWINS_FROM: usize = 500;

/// An even single-precision R2C of `CPU_EVEN_R2C_TWINS_FROM` points or more, not a power of two, whose whole
/// complex FFT fits one CPU leaf pairs transforms as odd lengths do: the leaf splits the pair's spectra as it
/// stores, in packed rows that stream (`StockhamKernel::packed_rows`), where the half-length FFT spends about
/// 15% of its time on the Hermitian post-process. Shorter lengths, powers of two and C2R are slower as twins;
/// double precision runs the half-length FFT, whose times vary less (docs/tuning.md, "Even R2C twins").
fn even_r2c_twins(ctx: &Ctx, batch: &[LogicalDim], src: BufRef, dst: BufRef) -> Option<Job> {
    let n = ctx.problem.lengths[0];
    let suits = n >= CPU_EVEN_R2C_TWINS_FROM
        && n <= ctx.max_leaf()
        && factor::is_smooth(n)
        && !n.is_power_of_two()
        && ctx.problem.precision == Precision::Single
        && kernel_shape::is_cpu(ctx.device);
    suits.then(|| even_pairs(ctx, batch, src, dst, split_leaf)).flatten()
}

/// The long pass of an even length 2h whose h points are too many for one kernel but split on a CPU as
/// h = 8 x long, long within one kernel: a four-step whose short pass is 8 points long. Its long pass then
/// carries the 8 interleaved parts of one transform in its lanes, and the post-process (R2C, last pass) or
/// pre-process (C2R, first pass) runs there, across the lanes, instead of as a pass over memory of its own.
fn across_lanes(ctx: &Ctx) -> Option<usize> {
    let n = ctx.problem.lengths[0];
    let long = n / 2 / REGISTER_LANES;
    let fits = n % (2 * REGISTER_LANES) == 0
        && long <= ctx.max_leaf()
        && factor::is_smooth(long)
        && kernel_shape::register_lanes_fit(long, ctx.device, ctx.problem.precision);
    (kernel_shape::is_cpu(ctx.device) && fits).then_some(long)
}

/// The split of an even length's half whose four-step ends in a pass over whole rows of columns paired
/// with their mirrors (`RealStage::R2cPostPairs`, CPUs): the R2C post-process then runs there. Its
/// half-vector stores need unit-stride Hermitian rows, and a pair leaf of `OFF_GRID_MIN_PAIR_LEAF` points
/// unless (double precision, where each half vector is a whole cache line) the rows start on one.
fn paired_columns(ctx: &Ctx, whole: &Job) -> Option<Split> {
    let (n, m) = (ctx.problem.lengths[0], whole.fft.count);
    if n % 2 == 1 || !kernel_shape::is_cpu(ctx.device) || ctx.problem.no_scratch || !factor::is_smooth(m) {
        return None;
    }
    let output = ctx.problem.layout(whole.dst);
    let stride = |d: &LogicalDim| d.out_mul * output.stride(d.out_axis);
    let on_lines = ctx.problem.precision == Precision::Double
        && whole.batch.iter().all(|d| d.count == 1 || stride(d) % (REGISTER_LANES / 2) == 0);
    if stride(&whole.fft) != 1 {
        return None;
    }
    // The last pass's columns: all in one batch dimension, or k3 + c k2 over two, whose runs of four
    // columns must not cross from one k2 to the next.
    let (device, precision) = (ctx.device, ctx.problem.precision);
    let limit = match precision {
        Precision::Single => CPU_R2C_LONG_LAST_SINGLE,
        Precision::Double => CPU_R2C_LONG_LAST_DOUBLE,
    };
    let fits = |rows, columns| columns % REGISTER_LANES == 0 && kernel_shape::pair_leaf_fits(rows, device, precision);
    let split = long_last_pass(ctx, fourstep::split(ctx, whole)?, limit, fits);
    let (rows, columns, runs_whole) = match split {
        Split::Two { rows, columns } => (rows, columns, true),
        Split::Three { rows, middle, columns } => (rows, middle * columns, columns % (REGISTER_LANES / 2) == 0),
    };
    let fits = kernel_shape::pair_leaf_fits(rows, ctx.device, ctx.problem.precision);
    let aligned = on_lines || rows >= OFF_GRID_MIN_PAIR_LEAF;
    (columns % REGISTER_LANES == 0 && runs_whole && fits && aligned).then_some(split)
}

/// `split` with its last pass lengthened: a two-pass split takes the most rows, up to `limit` (and one
/// kernel's length), that `fit` (rows, columns) with a first pass of one kernel, where that is more than its
/// own; the first pass is then the shorter. A three-pass split stays as it is (docs/tuning.md, "Long last
/// pass").
fn long_last_pass(ctx: &Ctx, split: Split, limit: usize, fit: impl Fn(usize, usize) -> bool) -> Split {
    let Split::Two { rows: own, columns } = split else { return split };
    let m = own * columns;
    let max_first = kernel_shape::max_split_leaf(ctx.device, ctx.problem.precision);
    let longer = factor::divisors(m).into_iter().filter(|&rows| {
        let columns = m / rows;
        rows <= limit.min(ctx.max_leaf()) && columns <= max_first && fit(rows, columns)
    });
    let rows = longer.max().map_or(own, |rows| rows.max(own));
    Split::Two { rows, columns: m / rows }
}

/// The longest last pass `long_last_pass` lengthens a shorter one to: R2C's pair leaf and C2R's last pass,
/// in single and in double (docs/tuning.md, "Long last pass").
const CPU_R2C_LONG_LAST_SINGLE: usize = 2048;
const CPU_R2C_LONG_LAST_DOUBLE: usize = 1024;
const CPU_C2R_LONG_LAST_SINGLE: usize = 64;
const CPU_C2R_LONG_LAST_DOUBLE: usize = 128;

/// The shortest pair leaf whose rows may start off the cache-line grid (always, in single precision: the
/// mirrors' half vectors are half lines): shorter pair leaves off the grid are slower than a post-process
/// pass of their own (docs/tuning.md, "Off-grid pair leaves").
const OFF_GRID_MIN_PAIR_LEAF: usize = 64;

/// The split of an even length's half whose four-step starts with a pass over rows adjacent on input, in
/// pairs of blocks of 8 (`RealStage::C2rPrePairs`, CPUs): that pass then pre-processes them, and the C2R
/// pre-process needs no pass of its own.
fn paired_rows(ctx: &Ctx, whole: &Job) -> Option<Split> {
    let (n, m) = (ctx.problem.lengths[0], whole.fft.count);
    if n % 2 == 1 || !kernel_shape::is_cpu(ctx.device) || ctx.problem.no_scratch || !factor::is_smooth(m) {
        return None;
    }
    let input = ctx.problem.layout(whole.src);
    if whole.fft.in_mul * input.stride(whole.fft.in_axis) != 1 {
        return None;
    }
    let (device, precision) = (ctx.device, ctx.problem.precision);
    let split = fourstep::split(ctx, whole)?;
    let limit = match precision {
        Precision::Single => CPU_C2R_LONG_LAST_SINGLE,
        Precision::Double => CPU_C2R_LONG_LAST_DOUBLE,
    };
    let fits = |rows, columns| kernel_shape::row_pairs_fit(columns, rows, device, precision);
    let split = long_last_pass(ctx, split, limit, fits);
    let (rows, first) = match split {
        Split::Two { rows, columns } => (rows, columns),
        Split::Three { rows, middle, columns } => (rows * middle, columns),
    };
    let fits = kernel_shape::row_pairs_fit(first, rows, ctx.device, ctx.problem.precision);
    fits.then_some(split)
}

/// The pairs of an odd-length leaf (one kernel loads both transforms of a pair before it stores either).
/// In place, the middle transform of an odd count, which two pairs would read and one write, rules pairs
/// out: another work-group could overwrite it before its second reader loads it.
fn leaf_twins(ctx: &Ctx, batch: &[LogicalDim], src: BufRef, dst: BufRef) -> Option<Twins> {
    let even: fn(usize) -> bool = |count| count >= 2 && count % 2 == 0;
    let any: fn(usize) -> bool = |count| count >= 2;
    Twins::along(ctx, batch, src, dst, if ctx.same_storage(src, dst) { even } else { any })
}

/// Transforms t and t + count / 2 of the outermost batch dimension whose count `suits`.
struct Twins {
    /// The batch of pairs: the twin dimension, halved (rounded up), moved last.
    pairs: Vec<LogicalDim>,
    /// How far the twin lies on the source and on the destination, in their units.
    in_apart: usize,
    out_apart: usize,
    /// With an odd count, the destination axis at whose coordinate 0 lie the pairs whose twin is another
    /// pair's own transform.
    lone_axis: Option<Axis>,
}

impl Twins {
    fn along(ctx: &Ctx, batch: &[LogicalDim], src: BufRef, dst: BufRef, suits: fn(usize) -> bool) -> Option<Twins> {
        let outer = batch.iter().rposition(|d| suits(d.count))?;
        let mut pairs = batch.to_vec();
        let twin = pairs.remove(outer);
        let apart = twin.count / 2;
        pairs.push(LogicalDim { count: twin.count - apart, ..twin });
        Some(Twins {
            pairs,
            in_apart: apart * twin.in_mul * ctx.problem.layout(src).stride(twin.in_axis),
            out_apart: apart * twin.out_mul * ctx.problem.layout(dst).stride(twin.out_axis),
            lone_axis: (twin.count % 2 == 1).then_some(twin.out_axis),
        })
    }
}

/// Hermitian input (n / 2 + 1 values along axis 0) -> real output.
pub(super) fn c2r(ctx: &mut Ctx, batch: Vec<LogicalDim>, src: BufRef, dst: BufRef) -> Result<Node> {
    let n = ctx.problem.lengths[0];
    let (m, out_side) = if n % 2 == 0 { (n / 2, Side::RealPairs) } else { (n, Side::Real) };
    if let Some(leaf) = twins_in_registers(ctx, &batch, src, dst, merge_leaf) {
        return ctx.plan_job(leaf);
    }
    if m <= ctx.max_leaf() && factor::is_smooth(m) {
        let mut leaf = job(m, &batch, src, dst, (Side::Complex, out_side));
        if n % 2 == 0 {
            leaf.stage = RealStage::C2rPre;
            leaf.in_count = m + 1;
        } else if let Some(twins) = leaf_twins(ctx, &batch, src, dst) {
            leaf = merge_leaf(n, &twins, src, dst);
        } else {
            leaf.stage = RealStage::HermExpand;
            leaf.in_count = n / 2 + 1;
        }
        return ctx.plan_job(leaf);
    }
    let whole =
        Job { stage: RealStage::C2rPre, in_count: m + 1, ..job(m, &batch, src, dst, (Side::Complex, out_side)) };
    if let Some(long) = across_lanes(ctx) {
        return fourstep::plan_split(ctx, whole, REGISTER_LANES, long);
    }
    if let Some(split) = paired_rows(ctx, &whole) {
        return fourstep::plan_as(ctx, whole, split);
    }
    if n % 2 == 1 {
        if let Some(node) = c2r_twins(ctx, &batch, src, dst)? {
            return Ok(node);
        }
    }
    let scratch = ctx.free_tmp(&[src, dst]);
    let op = if n % 2 == 0 { ElementwiseOp::C2rPre } else { ElementwiseOp::Expand };
    let stage = ctx.elementwise(op, job(m, &batch, src, scratch, (Side::Complex, Side::Complex)))?;
    let complex = ctx.plan_job(job(m, &batch, scratch, dst, (Side::Complex, out_side)))?;
    Ok(Node::RealAxis { n, children: vec![stage, complex] })
}

/// Pairs of long odd C2R transforms as one complex transform each (the inverse of `r2c_twins`): X + i Y,
/// extended by symmetry, then a complex transform whose real and imaginary parts are the two outputs. An
/// odd count pairs the middle transform twice, and the pass that stores the outputs leaves out pair 0's twin
/// (`lone_axis`). Where the complex transform runs as one kernel with its parts in the lanes
/// (`fourstep::lanes_dft`), that kernel merges the pairs as it loads (`RealStage::TwinMergeLanes`;
/// docs/tuning.md, "Twin merge across the lanes"); otherwise a pass merges them into scratch, in place too,
/// since every input is read into scratch before any output is stored.
fn c2r_twins(ctx: &mut Ctx, batch: &[LogicalDim], src: BufRef, dst: BufRef) -> Result<Option<Node>> {
    let n = ctx.problem.lengths[0];
    if let Some(twins) = leaf_twins(ctx, batch, src, dst) {
        if let Some(node) = fourstep::lanes_dft(ctx, &merge_leaf(n, &twins, src, dst))? {
            return Ok(Some(node));
        }
    }
    let Some(twins) = Twins::along(ctx, batch, src, dst, |count| count >= 2) else {
        return Ok(None);
    };
    let pairs = Side::RealTwins { half: twins.out_apart, lone: twins.lone_axis };
    let pairs = job(n, &twins.pairs, src, dst, (Side::Complex, pairs));
    let scratch = TransformScratch::new(ctx, &pairs, n);
    let merge = ctx.elementwise(ElementwiseOp::TwinMerge { twin_in: twins.in_apart }, scratch.fill(&pairs, n))?;
    let complex = ctx.plan_job(scratch.drain(&pairs, n))?;
    Ok(Some(Node::RealAxis { n, children: vec![merge, complex] }))
}

#[cfg(test)]
mod tests {
    use crate::codegen::stockham::{RealStage, StockhamKernel};
    use crate::codegen::KernelSpec;
    use crate::planner::tuning::Target;
    use crate::planner::{plan, plan_whole_batch, test_device, BufRef, Step};
    use crate::runtime::DeviceInfo;
    use crate::types::{Precision, TransformKind};

    /// The passes of two transforms of `n` reals, packed, the batch in one chunk (`planner::chunks`).
    fn steps(kind: TransformKind, n: usize, precision: Precision, device: &Target) -> Vec<Step> {
        plan_whole_batch(&test_device::transform(kind, &[n], 2, false, precision), device, 1).unwrap().steps
    }

    /// The last (or first) pass of `batch` transforms of `n` reals, packed, in one chunk, on the test CPU.
    fn end_pass(kind: TransformKind, n: usize, batch: usize, precision: Precision, last: bool) -> StockhamKernel {
        let problem = test_device::transform(kind, &[n], batch, false, precision);
        let mut steps = plan_whole_batch(&problem, &test_device::target(&test_device::cpu()), 1).unwrap().steps;
        let step = if last { steps.pop() } else { steps.into_iter().next() };
        match step.map(|step| step.kernel) {
            Some(KernelSpec::Stockham(k)) => *k,
            other => panic!("{other:?}"),
        }
    }

    /// The real stage of each pass of two transforms of `n` reals, packed.
    fn stages(kind: TransformKind, n: usize, device: &Target) -> Vec<String> {
        stages_in(kind, n, Precision::Single, device)
    }

    fn stages_in(kind: TransformKind, n: usize, precision: Precision, device: &Target) -> Vec<String> {
        stage_names(&steps(kind, n, precision, device))
    }

    fn stage_names(steps: &[Step]) -> Vec<String> {
        steps
            .iter()
            .map(|step| match &step.kernel {
                KernelSpec::Stockham(k) => format!("{:?}", k.real_stage),
                KernelSpec::Elementwise(e) => format!("pass {:?}", e.op),
                KernelSpec::Transpose(_) => "transpose".into(),
            })
            .collect()
    }

    #[test]
    fn cpus_carry_the_stage_of_long_even_axes_across_the_lanes() {
        use TransformKind::{C2R, R2C};
        let (cpu, gpu) = (test_device::cpu(), test_device::gpu());
        assert_eq!(stages(R2C, 1 << 14, &test_device::target(&cpu)), ["None", "R2cPostLanes"]);
        assert_eq!(stages(C2R, 1 << 14, &test_device::target(&cpu)), ["C2rPreLanes", "None"]);
        assert_eq!(stages(C2R, 2 * 8 * 3840, &test_device::target(&cpu)), ["C2rPreLanes", "None"]);
        // A half longer than 8 x 4096: R2C pairs the columns of its last pass with their mirrors, in a pair
        // leaf lengthened up to 2048 points in single, 1024 in double (2^17 = 2048 x 64 in single, 2^15 =
        // 1024 x 32 in double, not 16 x 4096 and 16 x 2048), or without whole vectors of columns (3^9) keeps
        // a pass of its own; C2R pairs the rows of its first pass (32 x 4096 with 8 lanes, in double 1024 x
        // 512 with 16); GPUs keep a pass of their own for the stage.
        assert_eq!(stages(R2C, 1 << 18, &test_device::target(&cpu)), ["None", "R2cPostPairs { column_dims: 1 }"]);
        assert_eq!(
            stages_in(R2C, 1 << 18, Precision::Double, &test_device::target(&cpu)),
            ["None", "R2cPostPairs { column_dims: 1 }"]
        );
        // The pairing pass: R2C's last, C2R's first.
        let pair_leaf = |kind, n: usize, batch: usize, precision| {
            let problem = test_device::transform(kind, &[n], batch, false, precision);
            let mut steps = plan(&problem, &test_device::target(&cpu)).unwrap().steps;
            let step = if kind == R2C { steps.pop() } else { steps.into_iter().next() };
            match step.map(|step| step.kernel) {
                Some(KernelSpec::Stockham(k)) => (format!("{:?}", k.real_stage), k.n),
                other => panic!("{other:?}"),
            }
        };
        let pairs = "R2cPostPairs { column_dims: 1 }".to_string();
        assert_eq!(pair_leaf(R2C, 1 << 17, 32, Precision::Single), (pairs.clone(), 2048));
        assert_eq!(pair_leaf(R2C, 1 << 16, 64, Precision::Double), (pairs, 1024));
        // C2R lengthens its last pass instead, up to 128 points in double (2^17 = 128 x 1024, not 64 x 2048)
        // and 64 in single (64 x 2048, not 32 x 4096).
        let row_pairs = "C2rPrePairs".to_string();
        assert_eq!(pair_leaf(C2R, 1 << 18, 16, Precision::Double), (row_pairs.clone(), 1024));
        assert_eq!(pair_leaf(C2R, 1 << 18, 16, Precision::Single), (row_pairs, 2048));
        let ternary = test_device::transform(R2C, &[2 * 19683], 4, false, Precision::Single);
        let last = plan(&ternary, &test_device::target(&cpu)).unwrap().steps.pop().map(|step| step.kernel);
        assert!(matches!(last, Some(KernelSpec::Elementwise(_))), "{last:?}");
        assert_eq!(stages(C2R, 1 << 18, &test_device::target(&cpu)), ["C2rPrePairs", "None"]);
        assert_eq!(stages_in(C2R, 1 << 18, Precision::Double, &test_device::target(&cpu)), ["C2rPrePairs", "None"]);
        // Single precision pairs no blocks of rows pages apart (1024 rows): a pass of its own.
        assert_eq!(stages(C2R, 1 << 20, &test_device::target(&cpu)), ["pass C2rPre", "None", "None"]);
        assert_eq!(stages_in(C2R, 1 << 20, Precision::Double, &test_device::target(&cpu)), ["C2rPrePairs", "None"]);
        assert_eq!(stages(C2R, 1 << 14, &test_device::target(&gpu)), ["pass C2rPre", "None", "None"]);
    }

    #[test]
    fn even_r2c_pairs_transforms_from_500_points() {
        // From 500 points an even single R2C leaf pairs its transforms on CPUs, packed and streaming (2^21
        // reals: 4096 x 501 single values for 1000), but not a power of two, shorter lengths, double (whose
        // half-length FFT streams), C2R, or GPUs.
        use TransformKind::{C2R, R2C};
        let (cpu, gpu) = (test_device::cpu(), test_device::gpu());
        let leaf = |kind, n: usize, precision, device: &Target| {
            let problem = test_device::transform(kind, &[n], 2 << 20 >> n.ilog2(), false, precision);
            match plan(&problem, device).unwrap().steps.as_slice() {
                [Step { kernel: KernelSpec::Stockham(k), .. }] => {
                    (matches!(k.real_stage, RealStage::TwinSplit { .. }), k.packed_rows(), k.streaming_store)
                }
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(leaf(R2C, 1000, Precision::Single, &test_device::target(&cpu)), (true, true, true));
        assert_eq!(leaf(R2C, 3000, Precision::Single, &test_device::target(&cpu)), (true, true, true));
        assert!(!leaf(R2C, 4096, Precision::Single, &test_device::target(&cpu)).0);
        let double = leaf(R2C, 1000, Precision::Double, &test_device::target(&cpu));
        assert!(!double.0 && double.2, "{double:?}");
        assert!(!leaf(R2C, 4096, Precision::Double, &test_device::target(&cpu)).0);
        assert!(!leaf(R2C, 256, Precision::Single, &test_device::target(&cpu)).0);
        assert!(!leaf(C2R, 1000, Precision::Single, &test_device::target(&cpu)).0);
        assert!(!leaf(R2C, 1000, Precision::Single, &test_device::target(&gpu)).0);
    }

    #[test]
    fn pairs_take_sixteen_lanes_where_they_fit() {
        // Column pairs (R2C): 16 lanes put 8 single complex values, a 64-byte line, in each half vector, and
        // its stores stream (8 MiB of output or more); double keeps 8 lanes, whose 4 values are already a
        // line. Row pairs (C2R) take 16 lanes in either precision where the local memory holds them (not
        // 4096 points), in double blocks of rows pages apart too (1024 rows), which single does not pair.
        let pass = |kind, n, batch, precision, last| {
            let k = end_pass(kind, n, batch, precision, last);
            (format!("{:?}", k.real_stage), k.lanes, k.streaming_store)
        };
        let (columns, rows) = ("R2cPostPairs { column_dims: 1 }".to_string(), "C2rPrePairs".to_string());
        use TransformKind::{C2R, R2C};
        assert_eq!(pass(R2C, 1 << 22, 1, Precision::Single, true), (columns.clone(), 16, true));
        assert_eq!(pass(R2C, 1 << 20, 4, Precision::Single, true), (columns.clone(), 16, true));
        assert_eq!(pass(R2C, 1 << 18, 2, Precision::Double, true), (columns, 8, false));
        assert_eq!(pass(C2R, 1 << 20, 4, Precision::Double, false), (rows.clone(), 16, true));
        assert_eq!(pass(C2R, 1 << 18, 16, Precision::Single, false), (rows.clone(), 16, true));
        assert_eq!(pass(C2R, 1 << 19, 8, Precision::Single, false), (rows, 8, true));
    }

    #[test]
    fn streaming_column_pairs_carry_half_vectors_where_local_memory_holds_them() {
        // A row's half vectors of 2048 single points with 16 lanes (128 KiB) fit beside the three buffers of
        // 1 MiB of local memory, and those of 1024 double points with 8; stores that do not stream carry none.
        let carries = |n, batch, precision| {
            let k = end_pass(TransformKind::R2C, n, batch, precision, true);
            assert!(matches!(k.real_stage, RealStage::R2cPostPairs { .. }), "{k:?}");
            (k.n, k.pair_carry(), k.kernel_local_bytes() <= 1 << 20)
        };
        assert_eq!(carries(1 << 20, 4, Precision::Single), (2048, true, true));
        assert_eq!(carries(1 << 20, 4, Precision::Double), (1024, true, true));
        assert_eq!(carries(1 << 18, 2, Precision::Double), (1024, false, true));
    }

    #[test]
    fn double_row_pair_leaves_run_their_passes_in_place() {
        let pairing = |kind, n, batch, precision, last| {
            let k = end_pass(kind, n, batch, precision, last);
            (format!("{:?}", k.real_stage), k.in_place_passes)
        };
        use TransformKind::{C2R, R2C};
        let (columns, rows) = ("R2cPostPairs { column_dims: 1 }".to_string(), "C2rPrePairs".to_string());
        assert_eq!(pairing(C2R, 1 << 20, 4, Precision::Double, false), (rows.clone(), true));
        assert_eq!(pairing(C2R, 1 << 18, 16, Precision::Single, false), (rows, false));
        assert_eq!(pairing(R2C, 1 << 20, 4, Precision::Double, true), (columns.clone(), false));
        assert_eq!(pairing(R2C, 1 << 20, 4, Precision::Single, true), (columns, false));
    }

    #[test]
    fn double_twin_leaves_run_their_passes_in_place() {
        // In one kernel: a leaf's twins (3125), and odd C2R twins merged across the lanes of a one-kernel
        // four-step (16807 = 7 x 2401), whose second spectrum also loads mirrored into the buffer's free half.
        let leaf = |kind, n, batch, precision| {
            let problem = test_device::transform(kind, &[n], batch, false, precision);
            match plan(&problem, &test_device::target(&test_device::cpu())).unwrap().steps.as_slice() {
                [Step { kernel: KernelSpec::Stockham(k), .. }] => (format!("{:?}", k.real_stage), k.in_place_passes),
                other => panic!("{other:?}"),
            }
        };
        use TransformKind::{C2R, R2C};
        let (split, merge) = ("TwinSplit { twin_out: 1563 }".to_string(), "TwinMerge { twin_in: 1563 }".to_string());
        assert_eq!(leaf(R2C, 3125, 2, Precision::Double), (split.clone(), true));
        assert_eq!(leaf(R2C, 3125, 2, Precision::Single), (split, false));
        assert_eq!(leaf(C2R, 3125, 2, Precision::Double), (merge.clone(), true));
        assert_eq!(leaf(C2R, 3125, 2, Precision::Single), (merge, false));
        let lanes = "TwinMergeLanes { twin_in: 134464 }".to_string();
        assert_eq!(leaf(C2R, 16807, 33, Precision::Double), (lanes.clone(), true));
        assert_eq!(leaf(C2R, 16807, 33, Precision::Single), (lanes, false));
    }

    #[test]
    fn single_256_points_run_in_registers_with_16_lane_vectors() {
        // 16 rows of 16 where the device's float vectors have 16 lanes, even for two transforms: C2C alone,
        // real transforms paired as x + i y. With 8-lane vectors, or in double, 256 points take the passes
        // (R2C the half-length FFT), with as many lanes as transforms.
        use TransformKind::{C2C, C2R, R2C};
        let wide = DeviceInfo { native_width_f32: 16, ..test_device::cpu() };
        let shape = |kind, precision, device: &Target| {
            steps(kind, 256, precision, device)
                .iter()
                .map(|step| match &step.kernel {
                    KernelSpec::Stockham(k) => (k.lanes, k.rows_in_registers(), format!("{:?}", k.real_stage)),
                    other => panic!("not a Stockham pass: {other:?}"),
                })
                .collect::<Vec<_>>()
        };
        let one = |lanes, registers, stage: &str| vec![(lanes, registers, stage.to_string())];
        assert_eq!(shape(C2C, Precision::Single, &test_device::target(&wide)), one(16, true, "None"));
        assert_eq!(
            shape(R2C, Precision::Single, &test_device::target(&wide)),
            one(16, true, "TwinSplit { twin_out: 129 }")
        );
        assert_eq!(
            shape(C2R, Precision::Single, &test_device::target(&wide)),
            one(16, true, "TwinMerge { twin_in: 129 }")
        );
        assert_eq!(shape(C2C, Precision::Single, &test_device::target(&test_device::cpu())), one(2, false, "None"));
        assert_eq!(shape(R2C, Precision::Double, &test_device::target(&wide)), one(2, false, "R2cPost"));
    }

    #[test]
    fn only_paired_double_64_points_run_in_registers() {
        // 64 points in registers (8 rows of 8): single always, double only as two real transforms paired as
        // x + i y; a complex double transform takes the passes through local memory.
        use TransformKind::{C2C, C2R, R2C};
        let registers =
            |kind, precision| match steps(kind, 64, precision, &test_device::target(&test_device::cpu())).as_slice() {
                [Step { kernel: KernelSpec::Stockham(k), .. }] => k.rows_in_registers(),
                other => panic!("not one Stockham kernel: {other:?}"),
            };
        assert!(registers(C2C, Precision::Single));
        assert!(!registers(C2C, Precision::Double));
        for kind in [R2C, C2R] {
            assert!(registers(kind, Precision::Single));
            assert!(registers(kind, Precision::Double));
        }
    }

    #[test]
    fn odd_twins_pair_across_the_lanes_of_one_kernel() {
        // 17 pairs of 16807 = 7 x 2401: one kernel merges them on the load (C2R) or splits them on the
        // store (R2C); in place an odd count, whose middle transform two pairs read, pairs through scratch.
        let cpu = test_device::cpu();
        let stages = |kind, in_place| {
            let problem = test_device::transform(kind, &[16807], 33, in_place, Precision::Single);
            stage_names(&plan(&problem, &test_device::target(&cpu)).unwrap().steps)
        };
        assert_eq!(stages(TransformKind::C2R, false), ["TwinMergeLanes { twin_in: 134464 }"]);
        assert_eq!(stages(TransformKind::C2R, true), ["pass TwinMerge { twin_in: 134464 }", "None"]);
        assert_eq!(stages(TransformKind::R2C, false), ["TwinSplitLanes { twin_out: 134464 }"]);
        assert_eq!(stages(TransformKind::R2C, true), ["None", "pass TwinSplit { twin_out: 134464 }"]);
    }

    #[test]
    fn real_rows_back_to_back_store_as_blocks() {
        // R2C rows of n / 2 + 1 values and C2R rows of n reals (n / 2 not a multiple of 8 lanes) lie back to
        // back out of place, also as the rows of a 2D C2R's last pass; padded in place they do not.
        use TransformKind::{C2R, R2C};
        let cpu = test_device::cpu();
        let packed = |kind, lengths: &[usize], in_place| {
            let problem = test_device::transform(kind, lengths, 16, in_place, Precision::Single);
            let steps = plan(&problem, &test_device::target(&cpu)).unwrap().steps;
            let step = if kind == R2C { steps.first() } else { steps.last() };
            match step.map(|step| &step.kernel) {
                Some(KernelSpec::Stockham(k)) => k.packed_rows(),
                other => panic!("{other:?}"),
            }
        };
        assert!(packed(R2C, &[1000], false));
        assert!(packed(C2R, &[1000], false));
        assert!(packed(C2R, &[100], false));
        assert!(packed(C2R, &[1000, 64], false));
        assert!(!packed(C2R, &[1000], true));
        assert!(!packed(C2R, &[1024], false));
    }

    #[test]
    fn packed_twin_runs_stream_unless_planar() {
        // The twins of an odd R2C across the lanes, whose parts' rows make each output one run: the bench's
        // 249 transforms, whose output is large enough to stream, and 248 in place (padded rows), which stores
        // into the storage it reads and so does not stream.
        let cpu = test_device::cpu();
        let leaf = |batch, in_place, planar| {
            let mut problem = test_device::transform(TransformKind::R2C, &[16807], batch, in_place, Precision::Double);
            problem.output.planar = planar;
            match plan(&problem, &test_device::target(&cpu)).unwrap().steps.pop() {
                Some(Step { kernel: KernelSpec::Stockham(k), .. }) => {
                    (matches!(k.real_stage, RealStage::TwinSplitLanes { .. }), k.packed_rows(), k.streaming_store)
                }
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(leaf(249, false, false), (true, true, true));
        assert_eq!(leaf(248, true, false), (true, true, false));
        assert_eq!(leaf(249, false, true), (true, false, false));
    }

    #[test]
    fn long_real_axes_stream_into_aligned_scratch_rows() {
        // Rows of n / 2 + 1 values would start the second transform mid-vector, and no pass could stream.
        // R2C: the first four-step pass writes scratch, the second pairs its columns into the output; C2R:
        // the first four-step pass. (A batch in chunks keeps its scratch cached instead: `planner::chunks`.)
        let cases = [
            (TransformKind::R2C, Precision::Double, 1),
            (TransformKind::R2C, Precision::Single, 1),
            (TransformKind::C2R, Precision::Single, 1),
        ];
        for (kind, precision, passes) in cases {
            let into_scratch: Vec<bool> = steps(kind, 1 << 20, precision, &test_device::target(&test_device::cpu()))
                .iter()
                .filter_map(|step| match &step.kernel {
                    KernelSpec::Stockham(k) if matches!(step.dst, BufRef::Tmp(_)) => Some(k.streaming_store),
                    _ => None,
                })
                .collect();
            assert_eq!(into_scratch, vec![true; passes], "{kind:?} {precision:?}");
        }
    }
}
