//! How kernels are shaped for a device: a Stockham leaf's lanes, work-items per slot, slots per group and
//! padding, and the elements an elementwise work-item takes.
//!
//! CPUs (PoCL) get explicit SIMD: VW transforms per work-item, one work-item per slot, no barriers, and
//! padded local arrays. GPUs get the classic form: one transform per slot, several work-items per slot
//! cooperating through local memory.

use super::tuning::Target;
use crate::codegen::radix::RadixSite;
use crate::codegen::stockham::{RealStage, StockhamKernel, LINE_BYTES, REGISTER_LANES};
use crate::runtime::DeviceKind;
use crate::types::Precision;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafShape {
    pub lanes: usize,
    pub items_per_slot: usize,
    pub slots_per_group: usize,
    pub slots_per_item: usize,
    pub pad_shift: Option<u32>,
    pub in_place_passes: bool,
    pub slot_major_io: bool,
}

const CPU_LANES: usize = 8;
const CPU_MAX_LEAF: usize = 4096;
/// Bytes of one transform up to which a CPU leaf is a good pass of a decomposition of a transform too long
/// to stay cached: longer leaves run from L2 rather than L1. Uneven splits of cached transforms ignore the cap
/// (docs/tuning.md, "CPU split leaf").
const CPU_SPLIT_LEAF_BYTES: usize = 32 << 10;
const GPU_GROUP_TARGET: usize = 64;
/// Bytes of neighbouring transforms a GPU group loads and stores together along columns (slot-major), a
/// memory sector (docs/tuning.md, "GPU column runs").
const GPU_COLUMN_RUN_BYTES: usize = 32;
/// Points a CPU work-item should handle before its fixed costs stop mattering.
const CPU_POINTS_PER_ITEM: usize = 8192;
/// Work-items per compute unit a CPU launch keeps at least, so the threads stay balanced.
const CPU_ITEMS_PER_UNIT: usize = 8;
/// Output bytes from which a CPU pass writing a buffer it does not read stores non-temporally: the store
/// then skips the read of each line it overwrites (about a third less memory traffic), while smaller outputs
/// stay cached for the next pass or the caller (docs/tuning.md, "Streaming stores").
const CPU_STREAMING_BYTES: usize = 8 << 20;
/// Bytes one transform of a CPU pass spans from which, when its lanes read neighbouring complex values, a
/// work-item reads `CPU_WIDE_ROW_BYTES` per row instead of `CPU_LANES` values. Such a column pass misses the
/// TLB on every row (4 KiB pages; PoCL's buffers get no huge pages), and a wider row halves the misses per
/// byte (docs/tuning.md, "Wider rows over long spans").
const CPU_WIDE_ROWS_SPAN: usize = 16 << 20;
/// Points from which a single-precision CPU pass whose lanes read neighbouring complex values reads
/// `CPU_WIDE_ROW_BYTES` per row at any span; shorter columns gain in some lengths and lose in others
/// (docs/tuning.md, "Wider rows from 64 points").
const CPU_WIDE_ROWS_MIN_POINTS: usize = 64;
const CPU_WIDE_ROW_BYTES: usize = 128;
/// The lanes of a double-precision CPU pass whose lanes read neighbouring complex values, at any span: 256
/// bytes per row (docs/tuning.md, "Double wider rows").
const CPU_DOUBLE_WIDE_LANES: usize = 16;
/// A cache line. A column pass whose rows start off the line grid (Hermitian rows of n / 2 + 1 values) reads
/// two lines for every 64 bytes of a row with 8 single lanes, three for 128 with 16, so it takes the wider
/// rows at any span, up to twice the usual working set (docs/tuning.md, "Rows off the line grid").
const CPU_LINE_BYTES: usize = LINE_BYTES;
/// Output elements per work-item of an elementwise pass on a CPU (see `ElementwiseKernel::per_item`).
const CPU_ELEMENTWISE_PER_ITEM: usize = 64;

/// True when kernels take the CPU shape (explicit SIMD lanes) on `device` (whose kind follows the tuning's
/// `profile`).
pub(super) fn is_cpu(device: &Target) -> bool {
    device.kind == DeviceKind::Cpu
}

/// Consecutive elements each work-item of an elementwise pass handles on `device`.
pub(super) fn elementwise_per_item(device: &Target) -> usize {
    if is_cpu(device) {
        CPU_ELEMENTWISE_PER_ITEM
    } else {
        1
    }
}

/// True when a pass writing `out_bytes` to a buffer it does not read should store non-temporally.
pub(super) fn streams_output(device: &Target, out_bytes: usize) -> bool {
    is_cpu(device) && out_bytes >= CPU_STREAMING_BYTES
}

/// Bytes of data from which a CPU plan of several passes runs its batch in chunks of at most this many
/// (`chunks::transforms_per_chunk`), unless the device's cache holds the whole batch (`chunks::fits_in_cache`) and it
/// is not a 3D C2R (`chunks::strides_grow_with_batch`). Each chunk costs a launch per pass (about 35 us on PoCL;
/// docs/tuning.md, "CPU chunk budget").
const CPU_CHUNK_BYTES: usize = 8 << 20;

/// The chunk budget of `device`: CPUs only, the tuning's `chunk` overriding it (0: no chunks).
pub(super) fn chunk_budget(device: &Target) -> Option<usize> {
    let bytes = device.tuning.chunk_bytes.unwrap_or(CPU_CHUNK_BYTES);
    (is_cpu(device) && bytes > 0).then_some(bytes)
}

/// Bytes per transform up to which a CPU plan treats a transform as cached between its passes
/// (`cached_on_cpu`): a four-step then splits as unevenly as it can (`factor::lopsided_split`) and keeps its
/// intermediate in the destination, and a 2D C2C runs axis 1 in place on the output. Longer transforms split
/// near the square root and go through scratch (docs/tuning.md, "Cached transforms").
const CPU_CACHED_BYTES: usize = 2 << 20;

/// True on a CPU for transforms of up to `CPU_CACHED_BYTES`.
pub(super) fn cached_on_cpu(device: &Target, bytes: usize) -> bool {
    is_cpu(device) && bytes <= CPU_CACHED_BYTES
}

/// How a four-step of `bytes` per transform splits unevenly on `device`: the lane count both passes should
/// keep whole, and the fewest lane groups its first pass (one per `lanes` rows of each transform) should
/// give the device's threads. None when it splits near the square root.
pub(super) fn lopsided_split_shape(device: &Target, bytes: usize) -> Option<(usize, usize)> {
    cached_on_cpu(device, bytes).then(|| (CPU_LANES, cpu_items_wanted(device)))
}

/// Work-items a CPU launch should offer at least, so that the device's threads stay balanced.
pub(super) fn cpu_items_wanted(device: &Target) -> usize {
    CPU_ITEMS_PER_UNIT * device.compute_units as usize
}

/// The largest power-of-two radix of the passes of a leaf with `lanes` lanes and real stage `stage` on
/// `device`: 16, but 8 for a CPU leaf whose double vectors fill one of the device's registers where those
/// are narrower than `CPU_LANES` (AVX2: 4 lanes, 16 registers), unless it runs a C2R pre-process. A radix-16
/// butterfly of such vectors holds 32 of them and spills, where radix 8's 16 mostly stay in registers; wider
/// vectors spill either way, and fewer passes then pay. The C2R pre-process leaf runs faster with radix 16
/// (docs/tuning.md, "Largest power-of-two radix").
pub fn max_power_of_two_radix(device: &Target, precision: Precision, lanes: usize, stage: RealStage) -> usize {
    let native = device.native_width_f64 as usize;
    let one_register = precision == Precision::Double && native < CPU_LANES && lanes <= native;
    if is_cpu(device) && one_register && stage != RealStage::C2rPre {
        8
    } else {
        super::factor::LARGEST_TWO_RADIX
    }
}

/// The device and precision of a leaf whose largest power-of-two radix is `max_two`, which decide the radices
/// taken from `codegen::radix::RADIX_TABLE`.
pub fn radix_site(device: &Target, precision: Precision, max_two: usize) -> RadixSite {
    RadixSite { cpu: is_cpu(device), precision, max_two }
}

/// The longest transform one kernel handles; longer ones are decomposed.
pub fn max_leaf(device: &Target, precision: Precision) -> usize {
    let natural = natural_max_leaf(device, precision);
    device.tuning.max_leaf.map_or(natural, |cap| cap.min(natural))
}

/// The longest leaf of an uneven split of a cached transform (`lopsided_split_shape`): on CPUs one whose 8
/// lanes take at most `CPU_LOPSIDED_LOCAL` of the local memory, which PoCL sizes as the L2 cache, so that
/// the passes leave room there for the data streaming through. Where double vectors are narrower than
/// `CPU_LANES` (`cpu_lanes`), the leaf counts as it runs: its narrow lanes in the one buffer of its in-place
/// passes (docs/tuning.md, "Lopsided leaf").
pub(super) fn max_lopsided_leaf(device: &Target, precision: Precision) -> usize {
    let longest = max_leaf(device, precision);
    if !is_cpu(device) {
        return longest;
    }
    let budget = local_share(device, CPU_LOPSIDED_LOCAL);
    let lanes = cpu_lanes(device, precision, false, CPU_CACHED_BYTES);
    // Only double passes take narrower lanes, and those run in place (`passes_in_place`).
    let buffers = if lanes < CPU_LANES { 1 } else { 2 };
    (1..=longest)
        .rev()
        .find(|&n| StockhamKernel::passes_local_bytes(n, lanes, 1, cpu_pad_shift(n), precision, buffers) <= budget)
        .unwrap_or(1)
}

/// The share of local memory (numerator, denominator) the long leaf of an uneven split takes at most.
const CPU_LOPSIDED_LOCAL: (usize, usize) = (9, 16);

/// `share` (numerator, denominator) of `device`'s local memory, in bytes.
fn local_share(device: &Target, share: (usize, usize)) -> usize {
    device.local_mem_bytes as usize / share.1 * share.0
}

/// The longest leaf a decomposition (four-step, three passes) uses: `max_leaf`, on CPUs only as long as one
/// transform stays within `CPU_SPLIT_LEAF_BYTES`.
pub fn max_split_leaf(device: &Target, precision: Precision) -> usize {
    let longest = max_leaf(device, precision);
    if is_cpu(device) {
        longest.min(CPU_SPLIT_LEAF_BYTES / precision.complex_bytes())
    } else {
        longest
    }
}

fn natural_max_leaf(device: &Target, precision: Precision) -> usize {
    if is_cpu(device) {
        CPU_MAX_LEAF
    } else {
        // One transform per slot: two ping-pong buffers of n complex values must fit local memory.
        let fit = device.local_mem_bytes as usize / (2 * precision.complex_bytes()) - 1;
        fit.min(device.max_work_group_size * 16).max(16)
    }
}

/// True when one kernel can hold an `n`-point transform: on CPUs with at least two lanes per work-item, on
/// GPUs within `max_leaf`. Longer than `max_leaf` is slower than a four-step for plain transforms, but
/// still far better than the extra passes over memory a split would cost where work is fused into the
/// load and store (Bluestein).
pub fn fits_in_one_kernel(n: usize, device: &Target, precision: Precision) -> bool {
    if is_cpu(device) && device.tuning.max_leaf.is_none() {
        cpu_leaf_fits(n, 2, device, precision)
    } else {
        n <= max_leaf(device, precision)
    }
}

/// True when one kernel holds the whole convolution of an `n`-point Bluestein transform (for callers that
/// choose lengths by it, such as tests of the no-allocation mode).
pub fn fits_bluestein_in_one_kernel(n: usize, device: &Target, precision: Precision) -> bool {
    fits_in_one_kernel(super::factor::bluestein_length(n), device, precision)
}

/// True when a CPU leaf of `n` points fits the device's local memory with `REGISTER_LANES` lanes, as a
/// real stage across the lanes needs (PoCL's local memory is the L2 size: 4096 double points take 8 lanes
/// in 2 MiB, not in 1).
pub(super) fn register_lanes_fit(n: usize, device: &Target, precision: Precision) -> bool {
    cpu_leaf_fits(n, REGISTER_LANES, device, precision)
}

/// True when a CPU leaf of `n` points with `lanes` lanes fits the device's local memory.
fn cpu_leaf_fits(n: usize, lanes: usize, device: &Target, precision: Precision) -> bool {
    StockhamKernel::local_bytes(n, lanes, 1, cpu_pad_shift(n), precision) <= device.local_mem_bytes as usize
}

/// The local padding of a CPU leaf: one vector every 32 from 512 points on.
fn cpu_pad_shift(n: usize) -> Option<u32> {
    (n >= 512).then_some(5)
}

/// True when a CPU leaf of `n` points pairing its columns (`RealStage::R2cPostPairs`) with 8 lanes fits the
/// device's local memory with its third buffer, and is at most `CPU_PAIR_MAX_LEAF` long.
pub(super) fn pair_leaf_fits(n: usize, device: &Target, precision: Precision) -> bool {
    n <= CPU_PAIR_MAX_LEAF && pair_fits(n, REGISTER_LANES, device, precision)
}

fn pair_fits(n: usize, lanes: usize, device: &Target, precision: Precision) -> bool {
    StockhamKernel::pair_local_bytes(n, lanes, cpu_pad_shift(n), precision) <= device.local_mem_bytes as usize
}

/// The lanes of a CPU leaf of `n` points pairing columns or rows (`RealStage::R2cPostPairs`, `C2rPrePairs`):
/// `CPU_PAIR_WIDE_LANES` where the local memory holds them and the columns or rows divide as `suits` them,
/// otherwise 8.
fn pair_lanes(n: usize, device: &Target, precision: Precision, suits: impl Fn(usize) -> bool) -> usize {
    let wide = CPU_PAIR_WIDE_LANES;
    if suits(wide) && pair_fits(n, wide, device, precision) {
        wide
    } else {
        REGISTER_LANES
    }
}

/// The lanes of a pairing leaf where it can: each run of half of them (R2C stores, C2R loads) then spans a
/// whole 64-byte line or more, and a slot touches half as many pages per byte as with 8. Single precision
/// does not pair rows pages apart (`row_pairs_fit`; docs/tuning.md, "Pairing lanes").
const CPU_PAIR_WIDE_LANES: usize = 16;

/// The lanes of a CPU leaf of `n` points pairing `columns` columns whose first batch dimension holds
/// `run_columns` (`RealStage::R2cPostPairs`): 16 only where half of them store one 64-byte line (single
/// precision); double precision is slower with 16 (docs/tuning.md, "Column pairs in double").
pub(super) fn column_pair_lanes(
    n: usize,
    columns: usize,
    run_columns: usize,
    device: &Target,
    precision: Precision,
) -> usize {
    pair_lanes(n, device, precision, |lanes| {
        lanes / 2 * precision.complex_bytes() <= CPU_LINE_BYTES
            && columns % lanes == 0
            && run_columns % (lanes / 2) == 0
    })
}

/// True when a CPU leaf of `n` points pairing `rows` rows (`RealStage::C2rPrePairs`) has them in pairs of
/// blocks of its lanes, fits the device's local memory with its third buffer, and either has one element of
/// all its rows within `CPU_ROW_PAIR_SPAN`, so that the two blocks of a pair share their pages, or (double
/// precision only) takes `CPU_PAIR_WIDE_LANES` lanes. Blocks pages apart lose to a pre-process pass of their
/// own with 8 lanes, and in single precision with 16 (docs/tuning.md, "Row pairs").
pub(super) fn row_pairs_fit(n: usize, rows: usize, device: &Target, precision: Precision) -> bool {
    let lanes = row_pair_lanes(n, rows, device, precision);
    let wide = lanes == CPU_PAIR_WIDE_LANES && precision == Precision::Double;
    let near = wide || rows * precision.complex_bytes() <= CPU_ROW_PAIR_SPAN;
    rows % (2 * lanes) == 0 && near && pair_fits(n, lanes, device, precision)
}

/// The lanes of a CPU leaf of `n` points pairing `rows` rows, whose blocks of that many rows go in pairs.
pub(super) fn row_pair_lanes(n: usize, rows: usize, device: &Target, precision: Precision) -> usize {
    pair_lanes(n, device, precision, |lanes| rows % (2 * lanes) == 0)
}

/// A page.
const CPU_ROW_PAIR_SPAN: usize = 4096;

/// The longest leaf pairing columns: each slot stores two runs per element, 2n lines a page apart or more,
/// which from 4096 points overflow the TLB (docs/tuning.md, "Longest column-pairing leaf").
const CPU_PAIR_MAX_LEAF: usize = 2048;

/// The most slots a work-item pairing columns runs in order whatever its leaf's length.
const CPU_PAIR_MIN_RUN: usize = 16;

/// Slots per work-item of a leaf pairing columns, `runs` slots to a row of columns and `rows` rows: a divisor
/// of `runs` (a work-item stays in its row) up to the leaf's own choice `wanted` or `CPU_PAIR_MIN_RUN`. Each
/// work-item transforms one slot more than it stores (the one before its first), so the choice minimises
/// the slots the busiest compute unit transforms, and of equals takes the shortest run.
pub(super) fn pair_slots_per_item(device: &Target, runs: usize, rows: usize, wanted: usize) -> usize {
    let units = (device.compute_units as usize).max(1);
    (1..=runs.min(wanted.max(CPU_PAIR_MIN_RUN)))
        .filter(|&d| runs % d == 0)
        .min_by_key(|&d| ((rows * runs / d).div_ceil(units) * (d + 1), d))
        .unwrap_or(1)
}

/// The largest divisor of `count` up to `cap` (at least 1): how many row pairs (`RealStage::C2rPrePairs`)
/// a work-item runs, so that every work-item has whole pairs.
pub(super) fn divisor_at_most(count: usize, cap: usize) -> usize {
    (1..=cap.max(1)).rev().find(|&d| count % d == 0).unwrap_or(1)
}

/// How a leaf's transforms lie in its source: `row_bytes` from one element of a transform to the next (a
/// transform of n elements spans n times that), and whether neighbouring lanes (transforms) read
/// neighbouring complex values.
#[derive(Debug, Clone, Copy)]
pub struct SourceLayout {
    pub row_bytes: usize,
    pub lanes_contiguous: bool,
    /// Whether the input, and the output, run along columns: complex values whose neighbouring transforms
    /// are neighbours while a transform's own elements lie apart.
    pub columns_in: bool,
    pub columns_out: bool,
}

/// What a leaf fuses that constrains its shape.
#[derive(Debug, Clone, Copy)]
pub struct Fusions {
    /// Something other than the real stage runs between or inside the passes (a convolution, a plane, a
    /// DFT across lanes on the load or beside a real stage), so they cannot run in place.
    pub into_passes: bool,
    /// A stage works across the lanes, which must then be 8.
    pub across_lanes: bool,
    /// The real stage, which decides with the precision whether the passes run in place (`passes_in_place`).
    pub stage: RealStage,
}

/// The fewest lanes a double-precision CPU pass takes where the device's double vectors are narrower than
/// `CPU_LANES` (`cpu_lanes`).
const CPU_NARROW_DOUBLE_LANES: usize = 4;

/// The lanes of a CPU pass that reads no wider rows, over transforms spanning `span` bytes each: `CPU_LANES`,
/// but in double precision on a device whose double vectors are narrower (AVX2: 4 lanes, against AVX-512's
/// 8) as many lanes as they hold, at least `CPU_NARROW_DOUBLE_LANES`, where a transform spans at most
/// `CPU_CACHED_BYTES` (`cached_on_cpu`) and nothing works `across_lanes`. Each complex value of 8 double lanes takes four
/// AVX2 registers, and a radix-16 butterfly spills most of them. Transforms spanning more, whose rows lie apart
/// in memory, keep `CPU_LANES` (docs/tuning.md, "Narrow double lanes").
fn cpu_lanes(device: &Target, precision: Precision, across_lanes: bool, span: usize) -> usize {
    let native = device.native_width_f64 as usize;
    if precision == Precision::Double && native < CPU_LANES && !across_lanes && cached_on_cpu(device, span) {
        native.max(CPU_NARROW_DOUBLE_LANES)
    } else {
        CPU_LANES
    }
}

/// The bytes a CPU group reading wider rows (`CPU_WIDE_ROW_BYTES`, `CPU_DOUBLE_WIDE_LANES`) may take in
/// local memory: what `CPU_LANES` transforms of the longest split leaf take, and at most `CPU_WIDE_ROWS_LOCAL`
/// of the local memory, which PoCL sizes as the L2 cache. With a 1 MiB L2 or more the first bound is the lower.
/// A wider group taking half the L2 is slower than 8 lanes (docs/tuning.md, "Wider rows' local memory").
fn wide_rows_budget(device: &Target) -> usize {
    (CPU_LANES * CPU_SPLIT_LEAF_BYTES).min(local_share(device, CPU_WIDE_ROWS_LOCAL))
}

/// The share of local memory (numerator, denominator) a group reading wider rows takes at most.
const CPU_WIDE_ROWS_LOCAL: (usize, usize) = (1, 4);

/// Whether a CPU pass reading wider rows (`CPU_WIDE_ROW_BYTES`) runs its passes in place, in one buffer: in
/// single precision without a real stage, over rows on the line grid (off it, the wider rows take two
/// buffers of twice the usual size). Its working set then stays what the 8-lane group's two buffers take,
/// which lets a group whose transforms span `CPU_WIDE_ROWS_SPAN` or more, where halving the TLB misses per
/// byte pays most, take the wider rows with twice the usual buffer (`shape`; docs/tuning.md, "Wider rows in
/// place").
fn wide_rows_in_place(precision: Precision, fusions: Fusions, off_grid: bool) -> bool {
    precision == Precision::Single && fusions.stage == RealStage::None && !fusions.into_passes && !off_grid
}

/// Whether a CPU leaf of `n` points with real stage `stage` runs its passes in place; `wide_rows` says
/// whether it reads wider rows that `wide_rows_in_place` puts in one buffer, `two_buffers_fit` whether
/// Stockham's two buffers hold the lanes wanted (docs/tuning.md, "In-place passes with a real stage").
///
/// - No real stage: in double, and in single where it reads such wider rows or two buffers do not fit (see
///   `shape`).
/// - An R2C twin split (it reads its two spectra on the store only, where the passes leave them) or an odd
///   C2R twin merge (it loads the second spectrum into the half of the buffer the first leaves free): in
///   double, and in single where two buffers do not fit. Across the lanes of a one-kernel four-step
///   (`TwinMergeLanes`) too: with a 512 KiB L2 the 8 double lanes of 2401 points then fit one buffer, where
///   two do not and the merge takes a pass of its own.
/// - A C2R pre-process, which keeps its second buffer to load into: in double only.
/// - A C2R pre-process pairing rows, whose mirror block keeps the third buffer it is loaded into: in double
///   only. The R2C post-process pairing columns gains nothing in place, so it keeps two buffers.
/// - An R2C post-process, which keeps its second buffer to gather packed rows in and reads X_k and X_n-k
///   where the passes leave them (stockham.cl, DIF_POSITION, a division per radix digit, cheap for powers
///   of two): in either precision, for a power of two up to 1024 points.
fn passes_in_place(
    n: usize,
    stage: RealStage,
    precision: Precision,
    wide_rows: bool,
    two_buffers_fit: impl Fn() -> bool,
) -> bool {
    match stage {
        RealStage::None => precision == Precision::Double || wide_rows || !two_buffers_fit(),
        RealStage::TwinSplit { .. } | RealStage::TwinMergeLanes { .. } => {
            precision == Precision::Double || !two_buffers_fit()
        }
        RealStage::TwinMerge { .. } if n % 2 == 1 => precision == Precision::Double || !two_buffers_fit(),
        RealStage::C2rPre | RealStage::C2rPrePairs => precision == Precision::Double,
        RealStage::R2cPost => n.is_power_of_two() && n <= 1024,
        _ => false,
    }
}

/// The shape of a leaf of length `n` carrying `transforms` transforms read as `source` says.
///
/// Where nothing is fused into the passes, a CPU leaf runs its passes in place in one local buffer in double
/// precision, and in single where two buffers cannot hold its lanes or it reads wider rows
/// (`wide_rows_in_place`). Double's 8 lanes fill a 64-byte line per element, and the smaller working set is
/// faster; single precision is slower in place. A complex DFT across the lanes on the store (a four-step in
/// one kernel, `fourstep::lanes_dft`) reads the passes' output wherever they leave it, so its passes run in
/// place as any double leaf's: with a 512 KiB L2 its 8 double lanes of 2401 or 2048 points then fit, where
/// two buffers do not (docs/tuning.md, "In-place passes").
/// Real stages: see `passes_in_place`.
pub fn leaf(
    n: usize,
    radices: &[usize],
    transforms: usize,
    source: SourceLayout,
    fusions: Fusions,
    device: &Target,
    precision: Precision,
) -> LeafShape {
    let local = device.local_mem_bytes as usize;
    if is_cpu(device) {
        let pad_shift = cpu_pad_shift(n);
        let (wide_lanes, any_span) = match precision {
            Precision::Double => (CPU_DOUBLE_WIDE_LANES, true),
            Precision::Single => (CPU_WIDE_ROW_BYTES / precision.complex_bytes(), n >= CPU_WIDE_ROWS_MIN_POINTS),
        };
        // Only while the wider group's buffer stays within `wide_rows_budget`, or twice that for rows off the
        // line grid (`CPU_LINE_BYTES`), or where the wider group runs its passes in place over long spans
        // (`wide_rows_in_place`).
        let off_grid = source.row_bytes % CPU_LINE_BYTES != 0;
        let span = n * source.row_bytes;
        let long_span = span >= CPU_WIDE_ROWS_SPAN;
        let wide_in_place = wide_rows_in_place(precision, fusions, off_grid);
        let wide_rows = source.lanes_contiguous
            && !fusions.across_lanes
            && (any_span || long_span || off_grid)
            && n * wide_lanes * precision.complex_bytes()
                <= (1 + (off_grid || wide_in_place && long_span) as usize) * wide_rows_budget(device);
        let narrow = cpu_lanes(device, precision, fusions.across_lanes, span);
        let wanted = if wide_rows { narrow.max(wide_lanes) } else { narrow };
        let mut lanes = wanted.min(transforms.next_power_of_two()).max(1);
        let in_place_passes = !fusions.into_passes
            && passes_in_place(n, fusions.stage, precision, wide_in_place && lanes > CPU_LANES, || {
                StockhamKernel::local_bytes(n, lanes, 1, pad_shift, precision) <= local
            });
        let buffers = StockhamKernel::local_buffers(in_place_passes, fusions.stage);
        let local_bytes = |lanes| StockhamKernel::passes_local_bytes(n, lanes, 1, pad_shift, precision, buffers);
        while lanes > 1 && local_bytes(lanes) > local {
            lanes /= 2;
        }
        let slots = transforms.div_ceil(lanes);
        let mut slots_per_item = (CPU_POINTS_PER_ITEM / (n * lanes)).max(1);
        while slots_per_item > 1 && slots.div_ceil(slots_per_item) < cpu_items_wanted(device) {
            slots_per_item /= 2;
        }
        LeafShape {
            lanes,
            items_per_slot: 1,
            slots_per_group: 1,
            slots_per_item,
            pad_shift,
            in_place_passes,
            slot_major_io: false,
        }
    } else {
        let largest = radices.iter().copied().max().unwrap_or(1);
        let items = (n / largest).clamp(1, device.max_work_group_size.min(256));
        let tune = &device.tuning;
        let mut lanes = tune.gpu_lanes.unwrap_or(1).min(transforms.next_power_of_two());
        while lanes > 1 && StockhamKernel::local_bytes(n, lanes, 1, None, precision) > local {
            lanes /= 2;
        }
        // A leaf with a side along columns loads and stores slot-major (neighbouring work-items on
        // neighbouring columns), with a sector's worth of columns per group where local memory holds them.
        let slot_major = lanes == 1 && (source.columns_in || source.columns_out) && !tune.gpu_item_major_io;
        let run = if slot_major { GPU_COLUMN_RUN_BYTES / precision.complex_bytes() } else { 1 };
        let mut slots = (GPU_GROUP_TARGET / items).max(run).min(transforms.div_ceil(lanes));
        while slots > 1
            && (items * slots > device.max_work_group_size
                || StockhamKernel::local_bytes(n, lanes, slots, None, precision) > local)
        {
            slots /= 2;
        }
        LeafShape {
            lanes,
            items_per_slot: items,
            slots_per_group: slots,
            slots_per_item: 1,
            pad_shift: None,
            in_place_passes: false,
            slot_major_io: slot_major && slots > 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::codegen::KernelSpec;
    use crate::planner::{test_device, Problem};
    use crate::types::Precision;

    /// The lanes of each Stockham pass of an out-of-place 2D transform on the test CPU.
    fn lanes_2d(n: usize, precision: Precision) -> Vec<usize> {
        lanes_of(&Problem { precision, ..test_device::c2c(&[n, n], 1) })
    }

    fn lanes_of(problem: &Problem) -> Vec<usize> {
        passes_of(problem).into_iter().map(|(_, lanes, _)| lanes).collect()
    }

    /// (n, lanes, passes in place) of each Stockham pass of `problem` on the test CPU.
    fn passes_of(problem: &Problem) -> Vec<(usize, usize, bool)> {
        passes_on(problem, &test_device::cpu())
    }

    fn passes_on(problem: &Problem, device: &crate::runtime::DeviceInfo) -> Vec<(usize, usize, bool)> {
        let exec = crate::planner::plan(problem, &test_device::target(device)).unwrap();
        exec.steps
            .iter()
            .map(|step| match &step.kernel {
                KernelSpec::Stockham(k) => (k.n, k.lanes, k.in_place_passes),
                other => panic!("not a Stockham pass: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn double_leaves_run_their_passes_in_place() {
        // One local buffer gives 4096 double points 8 lanes (two would take 1056 KiB of the 1 MiB); single
        // precision keeps two buffers, which hold its 8 lanes. A C2R pre-process in double, and an R2C
        // post-process of up to 1024 points of a power of two, keep a second buffer and run the passes in place.
        // R2C 1000 in double runs its 500-point half with the post-process, two buffers; 3000 pairs its
        // transforms in single with two buffers, the second gathering packed rows.
        let in_place = |kind, n: usize, precision| {
            let (_, lanes, in_place) = passes_of(&test_device::transform(kind, &[n], 64, false, precision))[0];
            (lanes, in_place)
        };
        use crate::types::TransformKind::{C2C, C2R, R2C};
        assert_eq!(in_place(C2C, 4096, Precision::Double), (8, true));
        assert_eq!(in_place(C2C, 1000, Precision::Double), (8, true));
        assert_eq!(in_place(C2C, 4096, Precision::Single), (8, false));
        assert_eq!(in_place(R2C, 1000, Precision::Double), (8, false));
        assert_eq!(in_place(R2C, 4096, Precision::Double), (8, false));
        assert_eq!(in_place(R2C, 1024, Precision::Double), (8, true));
        assert_eq!(in_place(R2C, 256, Precision::Single), (8, true));
        assert_eq!(in_place(R2C, 1024, Precision::Single), (8, true));
        assert_eq!(in_place(R2C, 3000, Precision::Single), (8, false));
        assert_eq!(in_place(C2R, 1024, Precision::Double), (8, true));
        assert_eq!(in_place(C2R, 1024, Precision::Single), (8, false));
    }

    #[test]
    fn single_column_passes_of_64_points_or_16_mib_read_two_cache_lines_per_row() {
        // Rows, then columns: 2048 x 8 bytes x 2048 rows = 32 MiB spanned by each column; 1024 x 1024 spans
        // 8 MiB, 256 x 256 512 KiB, and their columns are 64 points or more.
        assert_eq!(lanes_2d(2048, Precision::Single), [8, 16]);
        assert_eq!(lanes_2d(1024, Precision::Single), [8, 16]);
        assert_eq!(lanes_2d(256, Precision::Single), [8, 16]);
        // 4096 x 16: its 16-point columns span 512 KiB.
        assert_eq!(lanes_of(&test_device::c2c(&[4096, 16], 1)), [8, 8]);
        // Double columns of 2048 points, whose 16 lanes would take twice the working set.
        assert_eq!(lanes_2d(2048, Precision::Double), [8, 8]);
    }

    #[test]
    fn single_column_passes_reading_two_cache_lines_per_row_run_in_place() {
        let single = |lengths: &[usize]| passes_of(&test_device::c2c(lengths, 1));
        // 4096 x 4096: each column spans 128 MiB, and 16 lanes take one buffer of 512 KiB.
        assert_eq!(single(&[1 << 24]), [(4096, 16, true), (4096, 8, false)]);
        assert_eq!(single(&[1 << 22]), [(2048, 16, true), (2048, 8, false)]);
        assert_eq!(single(&[1024, 1024]), [(1024, 8, false), (1024, 16, true)]);
        // Rows of 16, then 4096-point columns spanning 512 KiB: 16 lanes would take twice the usual buffer.
        assert_eq!(single(&[16, 4096])[1], (4096, 8, false));
        // Columns over Hermitian rows, off the line grid, keep two buffers.
        use crate::types::TransformKind::R2C;
        let real = test_device::transform(R2C, &[256, 256], 1, false, Precision::Single);
        assert_eq!(passes_of(&real)[1], (256, 16, false));
    }

    #[test]
    fn wider_rows_take_at_most_a_quarter_of_the_local_memory() {
        // PoCL on a CPU with a 512 KiB L2: 65536 splits as 32 x 2048 there, whose 2048-point single pass
        // would take 256 KiB with 16 lanes; 1024-point double passes would too. 2^20's 1024-point single
        // passes take 128 KiB with 16 lanes and keep them.
        let small_l2 = crate::runtime::DeviceInfo { local_mem_bytes: 512 << 10, ..test_device::cpu() };
        let on = |n: usize, precision| {
            let passes = passes_on(&Problem { precision, ..test_device::c2c(&[n], (1 << 22) / n) }, &small_l2);
            passes.into_iter().map(|(n, lanes, _)| (n, lanes)).collect::<Vec<_>>()
        };
        assert_eq!(on(1 << 16, Precision::Single), [(2048, 8), (32, 8)]);
        assert_eq!(on(1 << 16, Precision::Double)[0], (1024, 8));
        assert_eq!(on(1 << 20, Precision::Single), [(1024, 16), (1024, 8)]);
        // With 1 MiB, double 1024-point columns keep 16 lanes.
        assert_eq!(lanes_2d(1024, Precision::Double), [8, 16]);
    }

    #[test]
    fn cached_double_passes_take_the_lanes_of_4_wide_double_vectors() {
        // PoCL on an AVX2 CPU (AMD EPYC, 512 KiB L2).
        let avx2 = crate::runtime::DeviceInfo { local_mem_bytes: 512 << 10, native_width_f64: 4, ..test_device::cpu() };
        let on = |n: usize, precision| {
            let passes = passes_on(&Problem { precision, ..test_device::c2c(&[n], (1 << 22) / n) }, &avx2);
            passes.into_iter().map(|(n, lanes, _)| (n, lanes)).collect::<Vec<_>>()
        };
        assert_eq!(on(1024, Precision::Double), [(1024, 4)]);
        assert_eq!(on(1024, Precision::Single), [(1024, 8)]);
        // 65536 (1 MiB): the 4096-point pass over 16-row columns narrows, its 4 lanes in one buffer taking
        // half the L2 (`max_lopsided_leaf`); the 16-point rows read wider rows.
        assert_eq!(on(1 << 16, Precision::Double), [(4096, 4), (16, 16)]);
        // 16807 = 7 x 2401 and 16384 = 8 x 2048 run as one kernel whose 8 lanes hold the parts and whose
        // passes run in place: one buffer of 8 lanes fits where two did not.
        assert_eq!(on(16807, Precision::Double), [(2401, 8)]);
        assert_eq!(on(1 << 14, Precision::Double), [(2048, 8)]);
        // 2^20: the pass over 1024-row columns (16 MiB apart) keeps 8 lanes, the pass over rows narrows.
        assert_eq!(on(1 << 20, Precision::Double), [(1024, 8), (1024, 4)]);
    }

    #[test]
    fn double_passes_in_one_avx2_register_take_radix_8() {
        let avx2 = crate::runtime::DeviceInfo { local_mem_bytes: 512 << 10, native_width_f64: 4, ..test_device::cpu() };
        let radices = |kind, precision, device: &crate::runtime::DeviceInfo| {
            let problem = test_device::transform(kind, &[4096], 1024, false, precision);
            let exec = crate::planner::plan(&problem, &test_device::target(device)).unwrap();
            match &exec.steps[..] {
                [step] => match &step.kernel {
                    KernelSpec::Stockham(k) => (k.lanes, k.radices.clone()),
                    other => panic!("not a Stockham pass: {other:?}"),
                },
                steps => panic!("{} passes", steps.len()),
            }
        };
        use crate::types::TransformKind::{C2C, C2R, R2C};
        assert_eq!(radices(C2C, Precision::Double, &avx2), (4, vec![8, 8, 8, 8]));
        assert_eq!(radices(R2C, Precision::Double, &avx2), (4, vec![8, 8, 8, 4]));
        // The C2R pre-process keeps radix 16, as do single precision and 8-wide double vectors.
        assert_eq!(radices(C2R, Precision::Double, &avx2), (4, vec![16, 16, 8]));
        assert_eq!(radices(C2C, Precision::Single, &avx2), (8, vec![16, 16, 16]));
        assert_eq!(radices(C2C, Precision::Double, &test_device::cpu()), (8, vec![16, 16, 16]));
    }

    #[test]
    fn double_column_passes_read_256_bytes_per_row() {
        assert_eq!(lanes_2d(256, Precision::Double), [8, 16]);
        assert_eq!(lanes_2d(1024, Precision::Double), [8, 16]);
    }

    #[test]
    fn column_passes_over_rows_off_the_line_grid_read_two_cache_lines_per_row() {
        // R2C 256 x 256: rows then columns over 129-value Hermitian rows (1032 bytes apart); C2R columns
        // first. Double columns take 16 lanes at any span.
        use crate::types::TransformKind::{C2R, R2C};
        let real = |kind, precision| lanes_of(&test_device::transform(kind, &[256, 256], 1, false, precision));
        assert_eq!(real(R2C, Precision::Single), [8, 16]);
        assert_eq!(real(C2R, Precision::Single), [16, 8]);
        assert_eq!(real(R2C, Precision::Double), [8, 16]);
        // 2048-point double columns off the line grid take 16 lanes too (512 KiB), on the grid 8.
        let real_2048 = |kind| lanes_of(&test_device::transform(kind, &[2048, 2048], 1, false, Precision::Double));
        assert_eq!(real_2048(R2C), [8, 16]);
        assert_eq!(real_2048(C2R), [16, 8]);
        assert_eq!(lanes_2d(2048, Precision::Double), [8, 8]);
    }

    /// (slots per group, slot-major) of each Stockham pass of `lengths` on a GPU with 48 KiB of local memory.
    fn gpu_slots(kind: crate::types::TransformKind, lengths: &[usize], precision: Precision) -> Vec<(usize, bool)> {
        let device = crate::runtime::DeviceInfo { local_mem_bytes: 48 << 10, ..test_device::gpu() };
        let n: usize = lengths.iter().product();
        let problem = test_device::transform(kind, lengths, (1 << 22) / n, false, precision);
        let exec = crate::planner::plan(&problem, &test_device::target(&device)).unwrap();
        exec.steps
            .iter()
            .map(|step| match &step.kernel {
                KernelSpec::Stockham(k) => (k.slots_per_group, k.slot_major_io),
                other => panic!("not a Stockham pass: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn gpu_leaves_along_columns_load_and_store_slot_major() {
        use crate::types::TransformKind::{C2C, R2C};
        // 2D: the rows item-major, the columns slot-major with two slots of 1024 single points (16 KiB each).
        assert_eq!(gpu_slots(C2C, &[1024, 1024], Precision::Single), [(1, false), (2, true)]);
        // A four-step's column pass and its transposing row pass both have a side along columns; 256-point
        // leaves take a 32-byte sector of 4 single columns.
        assert_eq!(gpu_slots(C2C, &[65536], Precision::Single), [(4, true), (4, true)]);
        // Real rows stay item-major (the R2C post-process, 2 slots of 512 points); the Hermitian columns swap.
        assert_eq!(gpu_slots(R2C, &[1024, 1024], Precision::Single), [(2, false), (2, true)]);
        // 1024 double points fill 32 KiB: one slot per group, nothing to swap.
        assert_eq!(gpu_slots(C2C, &[1048576], Precision::Double), [(1, false), (1, false)]);
    }
}
