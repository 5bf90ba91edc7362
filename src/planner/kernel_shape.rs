//! How kernels are shaped for a device: a Stockham leaf's lanes, work-items per slot, slots per group and
//! padding, and the elements an elementwise work-item takes.
//!
//! CPUs (PoCL) get explicit SIMD: VW transforms per work-item, one work-item per slot, no barriers, and
//! padded local arrays. GPUs get the classic form: one transform per slot, several work-items per slot
//! cooperating through local memory.

use super::tuning::Target;
use crate::codegen::radix::RadixSite;
use crate::codegen::stockham::{RealStage, StockhamKernel, LINE_BYTES, REGISTER_LANES};
use crate::codegen::Precision;
use crate::runtime::DeviceKind;

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
/// to stay cached. Longer leaves run from L2 rather than L1: measured on PoCL, 2^24 double took 122 ms as
/// 4096 x 4096 and 99 as 2048 x 16 x 512; single precision (4096 points in 32 KiB) kept its four-step.
/// Lopsided splits of cached transforms ignore the cap: 16807 double took 15 ms as 7 x 2401 and 21 as
/// 49 x 343.
const CPU_SPLIT_LEAF_BYTES: usize = 32 << 10;
const GPU_GROUP_TARGET: usize = 64;
/// Bytes of neighbouring transforms a GPU group loads and stores together along columns (slot-major), a
/// memory sector. Measured on an H100 (NVIDIA's OpenCL, 2^22 single points a run, median of 10), slot-major
/// four-step passes against item-major ones: c2c 16807 0.122 ms against 0.217, 65536 0.135 against 0.168,
/// 2^20 0.234-0.250 against 0.436, r2c 2^20 0.126 against 0.246, r2c 1024^2 0.095-0.102 against 0.153;
/// 4096 (64 x 64) 0.101-0.110 against 0.103 (`bench/README.md`).
const GPU_COLUMN_RUN_BYTES: usize = 32;
/// Points a CPU work-item should handle before its fixed costs stop mattering.
const CPU_POINTS_PER_ITEM: usize = 8192;
/// Work-items per compute unit a CPU launch keeps at least, so the threads stay balanced.
const CPU_ITEMS_PER_UNIT: usize = 8;
/// Output bytes from which a CPU pass writing a buffer it does not read stores non-temporally: the store
/// then skips the read of each line it overwrites (about a third less memory traffic; measured on PoCL, a
/// 64-point batch out of place took 4.8 ms instead of 7.1), while smaller outputs stay cached for the next
/// pass or the caller.
const CPU_STREAMING_BYTES: usize = 8 << 20;
/// Bytes one transform of a CPU pass spans from which, when its lanes read neighbouring complex values, a
/// work-item reads `CPU_WIDE_ROW_BYTES` per row instead of `CPU_LANES` values. Such a column pass misses the
/// TLB on every row (4 KiB pages; PoCL's buffers get no huge pages), and a wider row halves the misses per
/// byte. Measured on PoCL in single precision, each kernel alone: the column pass of 2048 x 2048 took
/// 4.5-4.8 ms with 16 lanes against 7.0-7.1 with 8, the last pass of 128^3 3.8-4.1 against 5.2-5.6, the
/// second four-step pass of 2^22 4.6 against 6.2-6.3; 2^24 as 4096 x 4096 (twice the working set) got
/// slower, 65 ms against 57, with two buffers (faster in one, `wide_rows_in_place`). The column pass of
/// 1024 x 1024 (8 MiB spans) took 5.4-5.7 against 4.2-4.8 then, but 3.2-3.4 against 4.4-4.7 measured again
/// after c1e31e9: transforms of `CPU_WIDE_ROWS_MIN_POINTS` or more now take the wider rows at any span
/// (below).
const CPU_WIDE_ROWS_SPAN: usize = 16 << 20;
/// Points from which a single-precision CPU pass whose lanes read neighbouring complex values reads
/// `CPU_WIDE_ROW_BYTES` per row at any span. Measured on PoCL after c1e31e9 (2^22 points a run, min of 10,
/// alternating builds): the column pass of 1024 x 1024 3.2-3.4 ms against 4.4-4.7 with 8 lanes (the whole
/// transform 5.6-5.8 against 6.8-7.3), 2^20 6.5 against 8.2, 512^2 5.0 against 6.2, 256^2 4.1-4.2 against
/// 4.9, 128^3 6.1 against 7.1, 64^3 5.1 against 5.7, 2^18 (64-point columns) 6.0 against 6.4. 16-point
/// columns were mixed: 61440's pass 1.7-1.8 against 2.0-2.1 ms, 65536's 1.9-2.0 against 1.6-1.7.
const CPU_WIDE_ROWS_MIN_POINTS: usize = 64;
const CPU_WIDE_ROW_BYTES: usize = 128;
/// The lanes of a double-precision CPU pass whose lanes read neighbouring complex values, at any span: 256
/// bytes per row. Measured on PoCL, 2^22 points a run: the column pass of 256 x 256 took 4.6-4.7 ms against
/// 5.9-6.0 with 8 lanes; whole transforms 128^3 39 GFLOPS against 30, 2^20 40 against 33, 256^2 38 against
/// 34, 64^3 38 against 35, 65536 34 against 33, 1024^2 38 against 39.
const CPU_DOUBLE_WIDE_LANES: usize = 16;
/// A cache line. A column pass whose rows start off the line grid (Hermitian rows of n / 2 + 1 values) reads
/// two lines for every 64 bytes of a row with 8 single lanes, three for 128 with 16, so it takes the wider
/// rows at any span. Measured on PoCL, 2^22 points a run, throughput of the whole transform in single
/// precision: c2r 256^2 31.5-49.7 -> 58.5-59.5 GFLOPS (its column pass 2.1 -> 1.5 ms), c2r 1024^2
/// 41.9-57.3 -> 63.3-66.5, r2c 1024^2 61.5-62.7 -> 63.1-66.5, r2c 256^2 58-60 -> 45-67 (noisy). Such a
/// pass takes the wider rows up to twice the usual working set: the column pass of c2r double 2048^2 took
/// 6.2-7.8 ms with 16 lanes against 8.2-9.3 with 8 (each kernel alone, two alternating runs of 15).
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
/// is not a 3D C2R (`chunks::strides_grow_with_batch`). Each chunk costs a launch per pass (about 35 us on PoCL).
/// Measured on PoCL (AMD EPYC, 1 MiB L2 per core, 32 MiB L3), 2^22 points a run, medians of per-run mins of 10 over 6
/// alternating runs, chunks of at most 8 MiB against none: c2c double 65536 0.84x the time, 61440 0.94x; 64^3 double
/// r2c 0.74x, c2r 0.64x, single 0.82-0.86x; c2r single 262144 0.90x, 256^2 0.90-0.92x; c2c single 1024^2 0.91x (5
/// runs); but r2c double 65536, 262144 and 256^2 1.04-1.06x, c2r single 2^20 1.07x; the rest within 0.97-1.03x. Chunks
/// of at most 4 MiB did about as well (1.12x at c2c single 61440, 0.93x at 256^2), 1 MiB lost 1.1-1.7x to launches, and
/// 16 MiB was mixed (c2c double 262144 1.13x).
const CPU_CHUNK_BYTES: usize = 8 << 20;

/// The chunk budget of `device`: CPUs only, the tuning's `chunk` overriding it (0: no chunks).
pub(super) fn chunk_budget(device: &Target) -> Option<usize> {
    let bytes = device.tuning.chunk_bytes.unwrap_or(CPU_CHUNK_BYTES);
    (is_cpu(device) && bytes > 0).then_some(bytes)
}

/// Bytes per transform up to which a CPU plan treats a transform as cached between its passes
/// (`cached_on_cpu`). Measured on PoCL out of place:
/// - a four-step splits such a transform as unevenly as it can (`factor::lopsided_split`) rather than near
///   the square root: 16807 double = 7 x 2401 took 15 ms against 22 for 343 x 49, 65536 single = 16 x 4096
///   took 8.8 against 10.3-12.4 for 256 x 256. At 4 MiB the gain out of place (262144 double, 6%) is lost
///   in place (17 ms against 20), and from 2^20 double on the even split is faster (18.5 ms against 24 for
///   256 x 4096);
/// - a four-step keeps its intermediate in the destination (transposed, pass 2 in place) rather than in
///   scratch (pass 1 reading and writing with a long stride), and a longer one the other way round; in
///   alternating fftx-bench runs (Intel Xeon, AVX-512), GFLOPS in the destination against through scratch:
///   65536 single 42 against 26-32, double 21-27 against 18-22; but 2^20 single 18-21 against 40, 2^22
///   single 19-24 against 37-39, 2^20 double 16 against 26, 2^22 double 14-15 against 22-26;
/// - a longer 2D C2C runs axis 1 out of place from scratch rather than in place on the output: 1024x1024
///   single 26-27 GFLOPS in place against 36-38, double 16-18 against 19-24; 2048x2048 single 23 against
///   29-40, double 17-19 against 21-25. The last axis of 128^3 gained nothing that way (single 15.6 ms in
///   place against 18.8, double 21.9 against 24.5).
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
/// vectors spill either way, and fewer passes then pay. Measured on PoCL with AVX2 (AMD EPYC), 2^22 points a
/// run, medians of 10 to 20 in alternating runs: c2c double 4096 (8 x 8 x 8 x 8) 12.1-14.4 ms against
/// 14.4-18.0 as 16 x 16 x 16 (the kernel alone, medians of 36: 13.8-14.5 against 15.6-16.0), 256 (8 x 8 x 4)
/// 9.4-12.0 against 12.6-15.1, 65536 (its 4096-point pass) 21.8-25.0 against 23.0-31.7; r2c double 65536
/// 10.6-11.7 against 11.4-12.2, r2c 4096's kernel 6.5-6.6 against 6.7-7.6; c2c 512 to 2048 within noise.
/// The C2R pre-process leaf of c2r double 4096 ran slower with radix 8 (the kernel 8.0-8.4 ms against
/// 7.4-7.7), so it keeps radix 16.
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
/// the passes leave room there for the data streaming through. Measured on PoCL with a 1 MiB L2 (AMD EPYC):
/// 16807 double ran 1.25x faster as 49 x 343 than as 7 x 2401 (a leaf taking 0.60 of it), 61440 double
/// 1.06x faster as 30 x 2048 than as 16 x 3840 (0.94); 2048-point double and 4096-point single leaves
/// (0.52) ran as fast as shorter ones or faster. With a 2 MiB L2 (Intel Xeon), 7 x 2401 was the faster.
///
/// Where double vectors are narrower than `CPU_LANES` (`cpu_lanes`), the leaf counts as it runs: its narrow
/// lanes in the one buffer of its in-place passes. Measured on PoCL with a 512 KiB L2 (AMD EPYC, AVX2), 2^22
/// points a run, medians of 10 in three alternating runs, against the 8-lane count: double 16807 as 7 x 2401
/// instead of 49 x 343, c2c 31.3-37.3 ms against 36.2-58.9, r2c 19.4-21.6 against 23.8-24.6, c2r 19.3-23.1
/// against 21.0-30.2; c2c double 16384 as 8 x 2048 instead of 16 x 1024, 27.3-29.1 against 30.8-34.4; 61440
/// and 65536 (16 x 4096 instead of 64 x 1024) within noise in all three kinds (c2c 65536 in four runs
/// 36.0-38.2 against 32.0-38.7).
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
/// whole 64-byte line or more, and a slot touches half as many pages per byte as with 8. Measured on PoCL,
/// 2^22 points a run, against 8 lanes or a pass of its own: R2C single (column pairs) 2^20 5.3-6.2 -> 4.8 ms,
/// 2^22 5.5 -> 3.8; C2R (row pairs, pages apart) single 2^20 5.0 -> 4.1 (8 lanes 4.9), 2^22 5.1 -> 4.1, 2^24
/// 20.5 -> 17.4, double 2^20 7.4 -> 5.5-5.7 (8 lanes 6.2), 2^22 8.0 -> 5.8, 2^24 37 -> 28. Single precision
/// no longer pairs rows pages apart (`row_pairs_fit`).
const CPU_PAIR_WIDE_LANES: usize = 16;

/// The lanes of a CPU leaf of `n` points pairing `columns` columns whose first batch dimension holds
/// `run_columns` (`RealStage::R2cPostPairs`): 16 only where half of them store one 64-byte line (single
/// precision). Double precision measured slower with 16 (R2C 262144, a 64-point leaf, 6.3-6.5 -> 6.8-7.4
/// ms; 2^20 unchanged).
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
/// precision only) takes `CPU_PAIR_WIDE_LANES` lanes. Measured on PoCL with 8 lanes, C2R 262144 x 16 (32
/// rows of 4096 points) took 7.9-8.4 ms paired against 9.5 with a pre-process pass of its own in double, 5.2
/// against 5.7 in single; 2^22 (2048 rows, blocks pages apart) 10.4-10.7 against 9.5-9.7 in double. In single
/// precision 16 lanes over blocks pages apart lost to a pass of its own on an AVX2 machine with a 512 KiB L2
/// (fftx-bench, two sets of three and four alternating runs, paired against a pass of its own, mins of 10):
/// 2^22 (2048 rows) 9.2-9.5 and 9.8-11.6 ms against 8.0-8.4 and 8.2-9.8; 2^20 (1024 rows, 4 transforms)
/// 8.5-9.4 and 8.9-10.7 against 7.2-7.4 and 7.4-9.2; 2^24 within noise.
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
/// which from 4096 points overflow the TLB (measured on PoCL: 2^24 single, 4096 x 2048, took 46 ms paired
/// against 33 with a post-process pass of its own; 2^22, 2048 x 1024, gained 2-11%).
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
/// AVX2 registers, and a radix-16 butterfly spills most of them. Measured on PoCL with AVX2 (AMD EPYC,
/// 2^22 points a run, mins of 10 in three alternating runs, 4 lanes against 8): c2c double 64 8.7-10.6 ms
/// against 11.6-13.5, 1024 13.9-14.8 against 16.9-18.6, 2187 17.4-23.5 against 19.1-24.4, 16384 (a
/// 1024-point pass of 16-row columns) 31.0-35.5 against 34.5-37.0, 61440 31.6-36.0 against 36.9-40.7;
/// r2c double 1000 6.5-7.8 against 8.3-8.5, 1024 6.3-7.7 against 8.3-9.8; c2r double 1024 8.0 against
/// 12.4-12.8, 1024^2 15.9-19.8 against 22.9-23.9 (mins of 10 in two runs); 65536 and 2^20 within noise.
/// Transforms spanning more, whose rows then lie apart in memory, lost: 2^20 (1024-point columns, 16 MiB)
/// took 41.5-52.6 ms against 41.6-43.0 with every pass at 4 lanes.
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
/// Measured on PoCL with a 512 KiB L2 (AMD EPYC, AVX2), 2^22 points a run, medians of 20 in three
/// alternating runs, 8 lanes against 16 where the wider group took half the L2: c2c single 65536 (its
/// 2048-point first pass, 256 KiB) 19.7-21.1 ms against 31.9-38.0; double 65536 (1024 points) 39.8-41.5
/// against 58.3-61.1, double 16384 34.3-38.4 against 54.2-56.4; medians of 10: single 61440 17.6-21.4
/// against 26.7-28.1, 262144 18.7-22.3 against 30.0-33.4, double 61440 41.4-42.7 against 50.5-50.8. Where
/// it took a quarter (single 2^20, 1024-point passes) 16 lanes stayed faster: 26.3-28.3 ms against
/// 29.3-30.2.
fn wide_rows_budget(device: &Target) -> usize {
    (CPU_LANES * CPU_SPLIT_LEAF_BYTES).min(local_share(device, CPU_WIDE_ROWS_LOCAL))
}

/// The share of local memory (numerator, denominator) a group reading wider rows takes at most.
const CPU_WIDE_ROWS_LOCAL: (usize, usize) = (1, 4);

/// Whether a CPU pass reading wider rows (`CPU_WIDE_ROW_BYTES`) runs its passes in place, in one buffer: in
/// single precision without a real stage, over rows on the line grid (off it, the wider rows take two
/// buffers of twice the usual size). Its working set then stays what the 8-lane group's two buffers take,
/// which lets a group whose transforms span `CPU_WIDE_ROWS_SPAN` or more, where halving the TLB misses per
/// byte pays most, take the wider rows with twice the usual buffer (`shape`). Measured on PoCL, fftx-bench
/// c2c single, 2^22 points a run, medians of 4 alternating runs' mins of 10, in place against two buffers:
/// 2^20 8.68 ms against 9.17, 2^22 9.62 against 10.21, 256^2 6.09 against 6.35, 1024^2 7.67 against 7.84,
/// 2048^2 8.88 against 9.11, 64^3 7.07 against 8.07, 128^3 10.31 against 11.14, 262144 8.58 against 8.67;
/// 2^24 (the 4096-point column pass of 4096 x 4096, 128 MiB spans, with 16 lanes only in place) 44.0-46.7
/// against 50.9-53.1 with 8 lanes, and 48.3-49.3 with 8 lanes in place. 4096-point columns over shorter
/// spans gained nothing with 16 lanes: 65536 (512 KiB) 8.0-11.2 ms against 7.7-9.3, 262144 (2 MiB)
/// 9.7-11.5 against 8.7-12.6. Double, whose 8 lanes already run in place, measured slower with 16 lanes
/// twice the usual buffer (2^22, 2048-point columns: min 19.4-20.0 ms against 18.0-18.5).
fn wide_rows_in_place(precision: Precision, fusions: Fusions, off_grid: bool) -> bool {
    precision == Precision::Single && fusions.stage == RealStage::None && !fusions.into_passes && !off_grid
}

/// Whether a CPU leaf of `n` points with real stage `stage` runs its passes in place; `wide_rows` says
/// whether it reads wider rows that `wide_rows_in_place` puts in one buffer, `two_buffers_fit` whether
/// Stockham's two buffers hold the lanes wanted.
///
/// - No real stage: in double, and in single where it reads such wider rows or two buffers do not fit (see
///   `shape`).
/// - An R2C twin split (it reads its two spectra on the store only, where the passes leave them) or an odd
///   C2R twin merge (it loads the second spectrum into the half of the buffer the first leaves free): in
///   double, and in single where two buffers do not fit. Across the lanes of a one-kernel four-step
///   (`TwinMergeLanes`) too: with a 512 KiB L2 the 8 double lanes of 2401 points then fit one buffer, where
///   two did not and the merge took a pass of its own (c2r double 16807, fftx-bench medians of 10 in four
///   alternating runs on an AVX2 EPYC: 13.8-17.1 ms against 17.8-21.5).
/// - A C2R pre-process, which keeps its second buffer to load into: in double only. Measured on PoCL (2^22
///   real points a run, median of 4 mins of 10, by real length): 1024 2.10-2.14 ms against 2.35-2.41, 4096
///   2.17-2.24 against 2.34-2.42, 256 1.89-1.98 against 1.97-2.06, 1024^2 4.96 against 5.18; 1000, 2187,
///   16807 and 2^16 to 2^20 within noise; single measured slower (1000 1.74 against 1.55).
/// - A C2R pre-process pairing rows, whose mirror block keeps the third buffer it is loaded into: in double
///   only, as above. Measured the same way (medians of 4 to 8 mins of 20, in four sets of alternating
///   runs): 2^20 (512-point leaves) 8.8-9.0 ms against 9.4-10.7; 65536, 262144, 2^22 and 2^24 within noise
///   (ratios 0.99-1.03); single in three sets 0.87, 0.91 and 1.10 at 262144, 0.96-1.01 elsewhere.
///   The R2C post-process pairing columns gained nothing in place (ratios double 0.93-1.04, single
///   0.98-1.06), so it keeps two buffers.
/// - An R2C post-process, which keeps its second buffer to gather packed rows in and reads X_k and X_n-k
///   where the passes leave them (stockham.cl, DIF_POSITION, a division per radix digit, cheap for powers
///   of two): in either precision, for a power of two up to 1024 points. Measured the same way: double 1024
///   2.19 ms against 2.42, 2048 2.38 against 2.61, 1024^2 4.49 against 4.82, 256 2.13 against 2.17; single
///   256 1.16 against 1.29, 1024 1.41 against 1.49, 2048 1.51 against 1.55; but double 4096 2.57 against
///   2.47, 8192 3.86 against 3.38, and 1000 (radix-5 digits) 2.79 against 2.44.
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
/// (`wide_rows_in_place`). Double's 8 lanes fill a 64-byte line per element, and the smaller working set
/// measured faster on PoCL, 2^22 points a run:
/// c2c double 4096 (8 lanes instead of 4) 4.8-5.0 ms against 5.9-6.0, 1000 43-46 GFLOPS against 39-45,
/// 1024 47-49 against 43, 2187 47-48 against 44, 3125 41-43 against 36-39, 1024^2 37-38 against 35, 2^20
/// 35 against 32-33; 16807 39-40 against 40 and 64 to 256^2 within noise; r2c double 3125 (odd twins)
/// 2.7-2.8 ms against 3.0-3.1 (min of 20), 2187 2.5-2.6 against 2.6-2.7. Single precision measured slower
/// in place (1000 65-69 against 74-77, 2187 50-62 against 57-67).
/// A complex DFT across the lanes on the store (a four-step in one kernel, `fourstep::lanes_dft`) reads the
/// passes' output wherever they leave it, so its passes run in place as any double leaf's: with a 512 KiB L2
/// (AMD EPYC, AVX2) its 8 double lanes of 2401 or 2048 points then fit, where two buffers did not and the
/// four-step ran as two passes. Measured on PoCL there, 2^22 points a run, medians of 10 to 20 in three or
/// four alternating runs: c2c double 16807 27.4-36.3 ms against 34.9-43.8 as two passes, 16384 27.8-30.0
/// against 30.9-34.8; r2c double 16807 (then its twin split) 16.1-23.0 against 21.6-24.6, c2r double 16807
/// 17.7-22.2 against 25.1-26.9. Single precision runs in place where two buffers do not fit: c2c single 32768
/// (8 x 4096) 8.6-9.8 against 9.5-11.4 as 16 x 2048.
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
    use crate::codegen::{KernelSpec, Precision};
    use crate::planner::{test_device, Problem};

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
        use crate::planner::TransformKind::{C2C, C2R, R2C};
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
        use crate::planner::TransformKind::R2C;
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
        use crate::planner::TransformKind::{C2C, C2R, R2C};
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
        use crate::planner::TransformKind::{C2R, R2C};
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
    fn gpu_slots(kind: crate::planner::TransformKind, lengths: &[usize], precision: Precision) -> Vec<(usize, bool)> {
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
        use crate::planner::TransformKind::{C2C, R2C};
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
