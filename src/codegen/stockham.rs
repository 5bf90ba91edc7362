//! The Stockham leaf: a batch of FFTs along one axis in a single kernel (`kernels/stockham*.cl`).

use super::bluestein::{Factor, IndexedFactor};
use super::callback::FusedCallbacks;
use super::twiddle::{mul_mod, split_table, split_table_shape, stockham_offsets, stockham_table, unit_root};
use super::{
    Defines, KernelSource, Precision, Reach, ACCESS_CL, BUTTERFLIES_CL, COMMON_CL, LANES_CL, LAYOUT_CL, REAL_CL,
    STOCKHAM_CL,
};

/// The lane count of a stage that works across the lanes, and of 64-point transforms in registers.
pub const REGISTER_LANES: usize = 8;

/// The lanes VW with which a transform of `n` = VW x VW points runs alone in registers
/// (`StockhamKernel::rows_in_registers`), `paired` when it carries two real transforms (a twin split or
/// merge): 8 for 64 points, and 16 for 256 single points, whose 16 rows of 16 fill the 32 AVX-512 registers
/// (the planner takes 16 only where the device's native float vectors have 16 lanes). 256 double points,
/// whose rows take two registers each, and complex 64-point double transforms run through local memory
/// instead (docs/tuning.md, "Rows in registers").
pub fn register_lanes(n: usize, precision: Precision, paired: bool) -> Option<usize> {
    match (n, precision) {
        (64, Precision::Single) => Some(REGISTER_LANES),
        (64, Precision::Double) if paired => Some(REGISTER_LANES),
        (256, Precision::Single) => Some(16),
        _ => None,
    }
}

/// One batch dimension of a leaf: how many transforms, and the distance between neighbours in the input
/// and the output, in complex elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchDim {
    pub count: usize,
    pub in_stride: usize,
    pub out_stride: usize,
}

/// Output element k of a transform with batch coordinates c is multiplied by w_modulus^e,
/// e = c[c_dim] * (sum_d base_muls[d] c[d] + k_mul k). A plain four-step column pass has c_dim 0, k_mul 1 and
/// no base; nested decompositions carry their outer twiddle down to the pass that writes the final index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostTwiddle {
    pub modulus: usize,
    pub c_dim: usize,
    pub k_mul: usize,
    pub base_muls: Vec<usize>,
}

/// What one side of a kernel holds (see `kernels/access.cl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementKind {
    /// Complex values; positions in complex units.
    Complex,
    /// An even-length real sequence read or written as half as many complex values (x_2n, x_2n+1);
    /// positions in real units, `half` apart within a pair.
    RealPairs { half: usize },
    /// Real values (imaginary part zero on input, dropped on output).
    Real,
}

/// The real-transform stage fused into the kernel (`kernels/real.cl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RealStage {
    None,
    /// R2C of length 2n: the n-point FFT of the pairs, then the n + 1 Hermitian outputs.
    R2cPost,
    /// C2R of length 2n: n + 1 Hermitian inputs, pre-processed, then the n-point inverse into pairs.
    C2rPre,
    /// C2R of odd length n: n/2 + 1 inputs, the rest by Hermitian symmetry.
    HermExpand,
    /// Two R2C transforms of odd length n (or of a length that runs in registers, see `rows_in_registers`)
    /// as one complex FFT of x + i y (the input side's pairs): the n/2 + 1
    /// outputs of x, then those of y `twin_out` output elements further (not for lone transforms, see
    /// `StockhamKernel::lone_dim`).
    TwinSplit {
        twin_out: usize,
    },
    /// The inverse: the n/2 + 1 inputs of X and, `twin_in` input elements further, of Y become Z = X + i Y,
    /// each extended by Hermitian symmetry; the output side's pairs take the real and imaginary parts.
    TwinMerge {
        twin_in: usize,
    },
    /// `R2cPost` across the lanes: the VW lanes of a slot are the VW interleaved parts of one half-length
    /// transform of VW n points (element k of lane l its index VW k + l), as in the long last pass of a
    /// four-step whose first pass is VW points long. n + 1 outputs, the last only in lane 0.
    R2cPostLanes,
    /// `C2rPre` across the lanes, in the long first pass of a four-step with VW rows: n + 1 inputs, the last
    /// (the Nyquist value) only in lane 0.
    C2rPreLanes,
    /// `R2cPost` in the last pass of a four-step whose first `column_dims` batch dimensions hold its C columns
    /// (C a multiple of VW = 8, adjacent on output, runs of four within dimension 0): element k of column c
    /// is index c + C k of the half-length transform of C n points. A slot
    /// holds two runs of four columns whose mirrors C - c lie in it or in the slots before and after, which
    /// each work-item runs in order (`slots_per_item` of them, dividing C / 8), so the post-process needs no
    /// pass of its own. n + 1 outputs, the last only in column 0.
    R2cPostPairs {
        column_dims: usize,
    },
    /// `C2rPre` in the first pass of a four-step whose batch dimension 0 holds its R rows (R a multiple of
    /// 2 VW = 16, adjacent on input): element k of row t is index t + R k of the half-length transform of R n
    /// points. A work-item runs row blocks (slots) in pairs, b and its mirror block R / VW - 1 - b, whose
    /// elements' mirrors lie in each other or in the rows just past them, so the pre-process needs no pass of
    /// its own. n + 1 inputs, the last only in row 0.
    C2rPrePairs,
    /// `TwinMerge` across the (odd) parts of one odd-length transform in the lanes of a DFT across them on the
    /// store (`LanesDft::Store`), element k of lane l its index parts k + l: (n + 1) / 2 inputs, the last only
    /// in the lanes up to parts / 2, from X and, `twin_in` input elements further, from Y.
    TwinMergeLanes {
        twin_in: usize,
    },
    /// `TwinSplit` after the DFT across those lanes: output k + n k1 of the transform in row k1, rows below
    /// parts / 2 whole, row parts / 2 up to (n + 1) / 2 elements (the out count); y's `twin_out` further.
    TwinSplitLanes {
        twin_out: usize,
    },
}

impl RealStage {
    fn code(self) -> u8 {
        match self {
            RealStage::None => 0,
            RealStage::R2cPost => 1,
            RealStage::C2rPre => 2,
            RealStage::HermExpand => 3,
            RealStage::TwinSplit { .. } => 4,
            RealStage::TwinMerge { .. } => 5,
            RealStage::R2cPostLanes => 6,
            RealStage::C2rPreLanes => 7,
            RealStage::R2cPostPairs { .. } => 8,
            RealStage::C2rPrePairs => 9,
            RealStage::TwinMergeLanes { .. } => 10,
            RealStage::TwinSplitLanes { .. } => 11,
        }
    }

    /// True for the stages whose lanes are parts of one transform.
    pub fn across_lanes(self) -> bool {
        matches!(self, RealStage::R2cPostLanes | RealStage::C2rPreLanes)
    }

    /// True for the twin stages across the (odd) parts of an odd transform in the lanes.
    pub fn twins_across_lanes(self) -> bool {
        matches!(self, RealStage::TwinMergeLanes { .. } | RealStage::TwinSplitLanes { .. })
    }

    /// True for the stages whose roots w_2h^k come from a two-level table (`split_table`): the half-length h
    /// spans more than one transform.
    fn split_roots(self) -> bool {
        matches!(self, RealStage::R2cPostLanes | RealStage::C2rPreLanes | RealStage::C2rPrePairs)
    }

    /// The outputs the stage stores per transform (stockham.cl, TWIN_STORES): a twin split stores both spectra
    /// of its pair, one after the other.
    pub fn stores_per_transform(self) -> usize {
        if matches!(self, RealStage::TwinSplit { .. }) {
            2
        } else {
            1
        }
    }

    /// How much further than its own transform the stage reads and writes.
    fn twin_offsets(self) -> (usize, usize) {
        match self {
            RealStage::TwinMerge { twin_in } | RealStage::TwinMergeLanes { twin_in } => (twin_in, 0),
            RealStage::TwinSplit { twin_out } | RealStage::TwinSplitLanes { twin_out } => (0, twin_out),
            _ => (0, 0),
        }
    }
}

/// Everything that specialises one Stockham kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockhamKernel {
    pub precision: Precision,
    pub n: usize,
    /// Radix of each pass, first pass first; their product is `n`.
    pub radices: Vec<usize>,
    /// Transforms carried side by side in the lanes of one work-item (VW).
    pub lanes: usize,
    /// Work-items cooperating on one slot of `lanes` transforms (P).
    pub items_per_slot: usize,
    /// Slots per work-group (T).
    pub slots_per_group: usize,
    /// Slots each work-item runs one after another (SPW); more than one only with one item per slot.
    pub slots_per_item: usize,
    /// One local padding vector every 2^pad_shift vectors, against cache-set conflicts.
    pub pad_shift: Option<u32>,
    pub in_stride: usize,
    pub out_stride: usize,
    /// Batch dimensions, innermost first: dimension 0 maps to neighbouring lanes.
    pub batch: Vec<BatchDim>,
    pub in_planar: bool,
    pub out_planar: bool,
    pub in_kind: ElementKind,
    pub out_kind: ElementKind,
    pub real_stage: RealStage,
    /// Elements read from each input transform and written to each output transform.
    pub in_count: usize,
    pub out_count: usize,
    /// Elementwise factors applied on load and (after conjugating) on store.
    pub load_factor: Option<IndexedFactor>,
    pub store_factor: Option<IndexedFactor>,
    /// Bluestein's convolution in one kernel: the passes, conjugation and this factor (the chirp's spectrum),
    /// the passes again.
    pub mid_factor: Option<Factor>,
    /// Four-step twiddle applied to each output element.
    pub post_twiddle: Option<PostTwiddle>,
    /// Offsets may exceed 2^32 elements.
    pub wide_index: bool,
    /// Forms the four-step twiddle's exponents with the long multiplication (`TW_WIDE_MOD`) even where the
    /// modulus is at most 2^32 and one product serves (`FFTX_TUNE=wide_twiddle=on`, so that tests check it).
    pub force_wide_twiddle: bool,
    /// Vector stores bypass the caches (non-temporal), where the compiler supports it.
    pub streaming_store: bool,
    /// Pairs of odd real transforms with an odd count: the transforms at coordinate 0 of this batch dimension
    /// store no twin (the middle transform, which the last pair stores as its own).
    pub lone_dim: Option<usize>,
    /// Two axes in one kernel: each transform is an n / n0 x n0 plane of rows n0 points long, packed (its
    /// points `in_stride` and `out_stride` apart); the radices of n0 come first, then those of n / n0.
    pub plane_n0: Option<usize>,
    /// The lanes are the interleaved parts of one transform `lanes` times longer, and a radix-`lanes` DFT
    /// across them is one of its four-step's passes, fused (`lanes_dft_fits`).
    pub lanes_dft: LanesDft,
    /// The passes run in place in one local buffer instead of two (stockham.cl, IN_PLACE_PASSES), so that a
    /// CPU leaf can take twice the lanes.
    pub in_place_passes: bool,
    /// Loads and stores take neighbouring work-items to neighbouring slots (stockham.cl, SLOT_MAJOR_IO).
    pub slot_major_io: bool,
    /// Local memory holds, besides a column-pairing leaf's buffers, the half vectors with which its streaming
    /// stores assemble whole lines (`pair_carry`).
    pub pair_carry_fits: bool,
    /// The device is a CPU, whose hardware prefetcher stays within a page and a stream: column loads whose
    /// elements lie a page or more apart, and row loads, ask for what they read next (`input_prefetch`).
    pub host_prefetch: bool,
    /// A user's callbacks run in this kernel's loads and stores (access.cl).
    pub callbacks: FusedCallbacks,
}

/// What a leaf's loads ask the caches for ahead of time (stockham.cl, IN_PREFETCH).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputPrefetch {
    None = 0,
    /// Each column load, the element `PREFETCH_AHEAD` further.
    ColumnsAhead = 1,
    /// Each row load, the same positions of the next slot's rows.
    NextSlot = 2,
}

/// Where a leaf runs a DFT across its lanes (stockham.cl, LANES_DFT_IN and LANES_DFT_OUT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LanesDft {
    None,
    /// On the load, before the passes: the first pass of a four-step with `lanes` columns, whose R2C
    /// post-process runs across the lanes of the second (lane k2 of k = k2 + lanes k1).
    Load,
    /// On the store, after the four-step twiddle: the second pass of a four-step with `lanes` rows.
    Store,
}

const MODE_GATHER: u8 = 0;
const MODE_ROWS: u8 = 1;
const MODE_COLS: u8 = 2;
const NO_PAD: u32 = 30;
/// A CPU cache line: what a streaming store writes whole.
pub const LINE_BYTES: usize = 64;
const POST_TW_NONE: u8 = 0;
const POST_TW_LANES: u8 = 1;
const POST_TW_GENERAL: u8 = 2;

impl StockhamKernel {
    pub fn transforms(&self) -> usize {
        self.batch.iter().map(|d| d.count).product()
    }

    /// Transforms per slot: the lanes, or the parts of a DFT across the lanes on the store when fewer
    /// (the other lanes repeat the last part and store nothing).
    pub fn live_lanes(&self) -> usize {
        match (self.lanes_dft, self.batch.first()) {
            (LanesDft::Store, Some(parts)) if parts.count < self.lanes => parts.count,
            _ => self.lanes,
        }
    }

    pub fn reach_in(&self) -> Reach {
        let full = self.every_element_reach(true);
        let own = self.guarded(full, self.load_factor.as_ref(), self.in_count, self.in_stride, |d| d.in_stride);
        Reach { positions: own.positions + self.real_stage.twin_offsets().0, ..own }
    }

    pub fn reach_out(&self) -> Reach {
        let full = self.every_element_reach(false);
        let own = self.guarded(full, self.store_factor.as_ref(), self.out_count, self.out_stride, |d| d.out_stride);
        Reach { positions: own.positions + self.real_stage.twin_offsets().1, ..own }
    }

    /// The reach of every element of every transform on the input or the output side. A real stage across
    /// the lanes or column pairs has its last element (the Nyquist value) in lane or column 0 only; a twin
    /// merge across the lanes its last input element in the lanes up to parts / 2, and a twin split its
    /// whole output rows below parts / 2, then `count` elements of row parts / 2.
    fn every_element_reach(&self, input: bool) -> Reach {
        let (count, stride, kind, planar) = if input {
            (self.in_count, self.in_stride, self.in_kind, self.in_planar)
        } else {
            (self.out_count, self.out_stride, self.out_kind, self.out_planar)
        };
        let pick: fn(&BatchDim) -> usize = if input { |d| d.in_stride } else { |d| d.out_stride };
        // `elements` of every transform in all the lanes or columns, or only up to coordinate `top` of the
        // first (batch dimension 0) and at 0 of the rest of the first `dims` batch dimensions.
        let reach = |elements: usize, lanes: Option<(usize, usize)>| match lanes {
            None => Reach::of(elements, stride, &self.batch, pick, kind, planar),
            Some((dims, top)) => {
                let rest = Reach::of(elements, stride, self.batch.get(dims..).unwrap_or_default(), pick, kind, planar);
                Reach { positions: rest.positions + top * self.batch.first().map_or(0, pick), ..rest }
            }
        };
        let half_parts = self.batch.first().map_or(0, |d| d.count / 2);
        let (most, last) = match self.real_stage {
            RealStage::C2rPreLanes | RealStage::C2rPrePairs if input => {
                (reach(count - 1, None), reach(count, Some((1, 0))))
            }
            RealStage::R2cPostLanes if !input => (reach(count - 1, None), reach(count, Some((1, 0)))),
            RealStage::R2cPostPairs { column_dims } if !input => {
                (reach(count - 1, None), reach(count, Some((column_dims, 0))))
            }
            RealStage::TwinMergeLanes { .. } if input => (reach(count - 1, None), reach(count, Some((1, half_parts)))),
            RealStage::TwinSplitLanes { .. } if !input => {
                (reach(self.n, Some((1, half_parts.saturating_sub(1)))), reach(count, Some((1, half_parts))))
            }
            _ => return reach(count, None),
        };
        if most.positions >= last.positions {
            most
        } else {
            last
        }
    }

    /// The reach of a side whose factor leaves out elements past its limit. When every position the factor
    /// indexes is `unit` times its entry (as in the passes of a four-step), the furthest is unit (limit - 1)
    /// plus the dimensions the factor ignores; otherwise the full reach stands.
    fn guarded(
        &self,
        full: Reach,
        factor: Option<&IndexedFactor>,
        count: usize,
        stride: usize,
        pick: fn(&BatchDim) -> usize,
    ) -> Reach {
        let Some(f) = factor.filter(|f| self.guards(f, count)) else { return full };
        let unit = stride / f.k_mul;
        let indexed = |i: usize| f.dim_muls.get(i).copied().unwrap_or(0);
        let linear = stride == unit * f.k_mul
            && self.batch.iter().enumerate().all(|(i, d)| indexed(i) == 0 || pick(d) == unit * indexed(i));
        if !linear {
            return full;
        }
        let rest: Vec<BatchDim> =
            self.batch.iter().enumerate().filter(|&(i, _)| indexed(i) == 0).map(|(_, d)| *d).collect();
        Reach::of(f.limit, unit, &rest, pick, full.kind, full.planar)
    }

    /// Global and local work sizes: x spans the work-items of a slot, y the slots.
    pub fn work_size(&self) -> ([usize; 2], [usize; 2]) {
        let slots = match self.real_stage {
            RealStage::R2cPostPairs { .. } | RealStage::C2rPrePairs => {
                self.transforms() / self.lanes / self.slots_per_item
            }
            _ => self.transforms().div_ceil(self.live_lanes()).div_ceil(self.slots_per_item),
        };
        let t = self.slots_per_group;
        ([self.items_per_slot, slots.div_ceil(t) * t], [self.items_per_slot, t])
    }

    /// Local memory for a transform of `n` points: two ping-pong buffers of padded vectors.
    pub fn local_bytes(n: usize, lanes: usize, slots: usize, pad_shift: Option<u32>, precision: Precision) -> usize {
        Self::passes_local_bytes(n, lanes, slots, pad_shift, precision, 2)
    }

    /// Local memory for the passes of a transform of `n` points in `buffers` buffers (`local_buffers`).
    pub fn passes_local_bytes(
        n: usize,
        lanes: usize,
        slots: usize,
        pad_shift: Option<u32>,
        precision: Precision,
        buffers: usize,
    ) -> usize {
        buffers * Self::buffer_bytes(n, lanes, slots, pad_shift, precision)
    }

    /// The local buffers a leaf declares (stockham.cl, LOCAL_BUFFERS): two ping-pong buffers, or one where
    /// the passes run in place, unless a C2R pre-process loads its input into a second, or an R2C
    /// post-process gathers its packed rows there.
    pub fn local_buffers(in_place_passes: bool, stage: RealStage) -> usize {
        if in_place_passes && !matches!(stage, RealStage::C2rPre | RealStage::R2cPost) {
            1
        } else {
            2
        }
    }

    /// Local memory of a leaf pairing columns or rows (`RealStage::R2cPostPairs`, `C2rPrePairs`) whose passes
    /// take two buffers: a third buffer keeps the previous slot's FFT, or the mirror block's input. Its lanes
    /// are chosen for this; passes in place (`kernel_local_bytes`) then leave a buffer's worth free.
    pub fn pair_local_bytes(n: usize, lanes: usize, pad_shift: Option<u32>, precision: Precision) -> usize {
        3 * Self::buffer_bytes(n, lanes, 1, pad_shift, precision)
    }

    /// Local memory this kernel declares (`lre`, `lim`, and `kre`, `kim` when it pairs, `pcarry` when it
    /// carries half vectors).
    pub fn kernel_local_bytes(&self) -> usize {
        match self.real_stage {
            _ if self.rows_in_registers() => 0,
            RealStage::R2cPostPairs { .. } | RealStage::C2rPrePairs => {
                let buffers = Self::local_buffers(self.in_place_passes, self.real_stage) + 1;
                let carry =
                    if self.pair_carry() { Self::pair_carry_bytes(self.n, self.lanes, self.precision) } else { 0 };
                Self::passes_local_bytes(self.n, self.lanes, 1, self.pad_shift, self.precision, buffers) + carry
            }
            _ => {
                let (n, lanes, slots) = (self.n, self.lanes, self.slots_per_group);
                let buffers = Self::local_buffers(self.in_place_passes, self.real_stage);
                Self::passes_local_bytes(n, lanes, slots, self.pad_shift, self.precision, buffers)
            }
        }
    }

    /// The half vector of every row that a column-pairing leaf of `n` points and `lanes` lanes carries from
    /// one group to the next (stockham.cl, PAIR_CARRY).
    pub fn pair_carry_bytes(n: usize, lanes: usize, precision: Precision) -> usize {
        n * lanes * precision.real_bytes()
    }

    /// True when a column-pairing leaf's stores assemble whole lines from the half vectors of neighbouring
    /// groups (stockham.cl, PAIR_CARRY): where they stream whole-line half vectors of interleaved complex
    /// values and local memory holds the carry.
    pub fn pair_carry(&self) -> bool {
        matches!(self.real_stage, RealStage::R2cPostPairs { .. })
            && self.pair_carry_fits
            && self.streaming_store
            && self.callbacks.post.is_none()
    }

    /// What a CPU leaf's loads prefetch (stockham.cl, IN_PREFETCH); callbacks' loads and GPUs' never do.
    /// - Lanes' elements along columns (the column pass of a four-step, the inner axes of 2D and 3D)
    ///   prefetch the element `PREFETCH_AHEAD` further into L1, which the hardware does only within a page.
    ///   Columns within a page prefetch too, at no cost, so that the column passes of a 3D transform share a
    ///   program and a cold bake compiles one fewer (docs/tuning.md, "Column prefetch").
    /// - Rows of neighbouring transforms prefetch the same positions of the next slot's rows into L2: a
    ///   slot's rows are as many short streams as it has lanes, too short for the hardware to run far ahead
    ///   of, and a CPU thread usually runs the next work-group next (docs/tuning.md, "Row prefetch").
    pub fn input_prefetch(&self) -> InputPrefetch {
        if !self.host_prefetch || self.callbacks.pre.is_some() {
            return InputPrefetch::None;
        }
        match self.in_mode() {
            MODE_COLS => InputPrefetch::ColumnsAhead,
            MODE_ROWS => InputPrefetch::NextSlot,
            _ => InputPrefetch::None,
        }
    }

    /// One buffer pair (real and imaginary parts) of `slots` slots: LN padded vectors each, as in stockham.cl.
    fn buffer_bytes(n: usize, lanes: usize, slots: usize, pad_shift: Option<u32>, precision: Precision) -> usize {
        let padded = n + (n >> pad_shift.unwrap_or(NO_PAD)) + 2;
        slots * padded * lanes * precision.complex_bytes()
    }

    /// How the loads reach the input (MODE_ROWS, MODE_COLS or MODE_GATHER; stockham.cl, IN_MODE).
    fn in_mode(&self) -> u8 {
        self.mode(self.in_kind, self.in_stride, self.batch.first().map(|b| b.in_stride))
    }

    /// How the stores reach the output (stockham.cl, OUT_MODE).
    fn out_mode(&self) -> u8 {
        self.mode(self.out_kind, self.out_stride, self.batch.first().map(|b| b.out_stride))
    }

    fn mode(&self, kind: ElementKind, stride: usize, batch0_stride: Option<usize>) -> u8 {
        // A row of adjacent pairs (x_2n, x_2n+1) spans twice the elements, and so do the pairs of neighbouring
        // transforms; pairs far apart (two transforms' reals, `half` apart) are a row of reals and another one
        // `half` further.
        let unit = match kind {
            ElementKind::RealPairs { half: 1 } => 2,
            _ => 1,
        };
        if self.lanes > 1 && stride == unit {
            MODE_ROWS
        } else if self.lanes > 1 && batch0_stride == Some(unit) {
            MODE_COLS
        } else {
            MODE_GATHER
        }
    }

    /// True when every output store is a whole vector of interleaved complex values (or of adjacent real
    /// pairs, or of reals whose pairs lie apart) at a multiple of the lane count from the buffer's start, so
    /// that vectors fill whole cache lines (streaming stores to parts of lines are far slower than plain
    /// ones). A C2R twin merge in registers streams so, its 8 single lanes a half line whose other half the
    /// next row fills: on PoCL, 2^22 points a run, medians of 4-5 alternating runs, 64 single 1.32 -> 1.29
    /// ms (min 1.00 -> 0.92), 64 double 3.14 -> 2.55, 256 single 2.13 -> 1.69.
    pub fn stores_whole_vectors(&self) -> bool {
        let vw = self.lanes;
        // Positions count complex values, or reals for adjacent pairs: VW pairs span 2 VW of them.
        let whole = match self.out_kind {
            ElementKind::Complex if !self.out_planar => vw,
            ElementKind::RealPairs { half: 1 } => 2 * vw,
            // A twin merge in registers stores each output's rows as vectors of reals (OUT_PAIRS_APART), the two
            // outputs' in turn. Only whole 64-byte lines stream, as for `twin_run_carry`: on PoCL (AMD EPYC,
            // AVX2), C2R single 64 (vectors of 8 lanes, half lines) took 2.99 and 3.15 ms a kernel streamed
            // against 2.46 and 2.34 not (medians of 37), while double 64 (whole lines) took 9.9 and 9.6 against
            // 13.3 and 14.3 (FFTX_LOG=steps). When 2f52477 let half lines stream, they had gained 2% (1.32 ->
            // 1.29 ms) on the AVX-512 machine of the time.
            ElementKind::RealPairs { half }
                if half % vw == 0 && self.rows_in_registers() && vw * self.precision.real_bytes() == LINE_BYTES =>
            {
                vw
            }
            _ => return false,
        };
        let aligned_from = |first: usize| self.batch.iter().skip(first).all(|d| d.out_stride % whole == 0);
        if vw < 2 || self.store_factor.is_some() {
            return false;
        }
        // Column pairs store half vectors at multiples of half the lanes: whole 64-byte lines in double. Rows
        // that start off the grid (Hermitian rows of n / 2 + 1 values) fall back to plain stores as they run.
        if matches!(self.real_stage, RealStage::R2cPostPairs { .. }) {
            return !self.out_planar
                && self.out_kind == ElementKind::Complex
                && vw / 2 * self.precision.complex_bytes() % LINE_BYTES == 0;
        }
        // The runs of a packed twin split find the vector grid as they go (stockham.cl, STREAM_RUN), and so do
        // the back-to-back rows of an R2C across the lanes (`row_run_carry`).
        if matches!(self.real_stage, RealStage::TwinSplitLanes { .. }) {
            return self.packed_rows();
        }
        if self.row_run_carry() || self.twin_run_carry() {
            return true;
        }
        match self.out_mode() {
            MODE_ROWS if self.packed_rows() => aligned_from(1),
            MODE_ROWS => self.out_count % vw == 0 && aligned_from(0),
            MODE_COLS => {
                // The lanes run on through the batch dimensions that the output packs after dimension 0.
                let (unit, mut run, mut packed) = (self.batch[0].out_stride, 1, 0);
                while let Some(d) = self.batch.get(packed).filter(|d| d.out_stride == unit * run) {
                    run *= d.count;
                    packed += 1;
                }
                // Slots start on the grid where the run is whole vectors or spans the whole batch (its last,
                // ragged slot then stores lane by lane).
                self.out_stride % whole == 0 && (run % vw == 0 || packed == self.batch.len()) && aligned_from(packed)
            }
            _ => false,
        }
    }

    /// True when the rows of an R2C across the lanes lie back to back as interleaved complex values, one run
    /// per transform that its stores can carry onto the vector grid (stockham.cl, ROW_RUN_CARRY): off it
    /// (packed outputs of n / 2 + 1 values) they write partial lines, unstreamed (docs/tuning.md, "Row run
    /// carry").
    pub fn row_run_carry(&self) -> bool {
        self.real_stage == RealStage::R2cPostLanes && self.interleaved_run(self.lanes, 1)
    }

    /// True when the output is interleaved complex values along which the transforms' rows continue one run:
    /// `element_step` values apart along a row, `transform_step` apart from one transform to the next along
    /// batch dimension 0, and no store factor.
    fn interleaved_run(&self, element_step: usize, transform_step: usize) -> bool {
        self.out_kind == ElementKind::Complex
            && !self.out_planar
            && self.out_stride == element_step
            && self.batch.first().is_some_and(|d| d.out_stride == transform_step)
            && self.store_factor.is_none()
    }

    /// True when a twin split in registers stores rows of n / 2 + 1 interleaved values back to back, which its
    /// stores can carry onto the vector grid as one run per spectrum (stockham.cl, TWIN_RUN_CARRY): row by row
    /// they start off it and write partial lines, unstreamed. Only where a vector is a whole 64-byte line: half
    /// lines run slower carried (docs/tuning.md, "Twin run carry").
    pub fn twin_run_carry(&self) -> bool {
        self.lanes * self.precision.real_bytes() == LINE_BYTES
            && matches!(self.real_stage, RealStage::TwinSplit { .. })
            && self.rows_in_registers()
            && self.interleaved_run(1, self.out_count)
    }

    /// True when the output rows of neighbouring lanes lie back to back, interleaved complex rows not a whole
    /// number of vectors long, the slots' lanes in one row of batch dimension 0 (all but the last slot for a single
    /// dimension), and the store writes nothing but each lane's own row: the store then assembles a slot's rows in
    /// local memory and writes them as whole vectors (stockham.cl, PACKED_ROWS), which stream where rows of their
    /// own could not. Only for the R2C post-process's rows of n + 1 values, an even twin split's rows of n / 2 + 1
    /// (its second buffer free) and the C2R pre-process's rows of 2n reals: complex rows, which take more
    /// arithmetic per byte, run slower packed (docs/tuning.md, "Packed rows").
    pub fn packed_rows(&self) -> bool {
        // A post-callback receives the elements one at a time.
        if self.callbacks.post.is_some() {
            return false;
        }
        let dim0 = self.batch.first();
        // A twin split across the lanes: the parts' rows of n values (Hermitian halves of the pair), back to
        // back, gather in local memory and leave as two runs that stream; stored row by row, a block at a
        // time, they could not (docs/tuning.md, "Packed rows").
        if let RealStage::TwinSplitLanes { .. } = self.real_stage {
            return self.out_kind == ElementKind::Complex
                && !self.out_planar
                && self.out_stride == 1
                && dim0.is_some_and(|d| d.out_stride == self.n);
        }
        // Positions count complex values, or reals for adjacent pairs.
        let row_positions = match (self.out_kind, self.real_stage) {
            (ElementKind::Complex, RealStage::R2cPost) => self.out_count,
            // An even twin split gathers in the second local buffer, where its passes leave one free.
            (ElementKind::Complex, RealStage::TwinSplit { .. })
                if self.n % 2 == 0 && Self::local_buffers(self.in_place_passes, self.real_stage) == 2 =>
            {
                self.out_count
            }
            (ElementKind::RealPairs { half: 1 }, RealStage::C2rPre) => 2 * self.out_count,
            _ => return false,
        };
        self.lanes > 1
            && self.items_per_slot == 1
            && !self.out_planar
            && self.out_count % self.lanes != 0
            && self.out_mode() == MODE_ROWS
            && dim0.is_some_and(|d| d.out_stride == row_positions)
            && (self.batch.len() == 1 || self.batch[0].count % self.lanes == 0)
            && self.store_factor.is_none()
            && self.lone_dim.is_none()
            && self.lanes_dft == LanesDft::None
            && self.plane_n0.is_none()
            && !self.rows_in_registers()
    }

    /// True when each transform runs alone in registers (ROWS_IN_REGISTERS): n = VW x VW points, rows on
    /// both sides and nothing fused but the pairing of two real transforms (a twin split or merge). Its VW
    /// rows load as vectors that a vertical radix-VW butterfly, the twiddles, a register transpose and a
    /// second one turn into the output rows, with no trip through local memory and no transpose across
    /// transforms. The passes must then be [VW, VW], with VW from `register_lanes`.
    pub fn rows_in_registers(&self) -> bool {
        let complex = |kind| kind == ElementKind::Complex;
        let twins = |kind| matches!(kind, ElementKind::RealPairs { half } if half != 1);
        let (n, half) = (self.n, self.n / 2 + 1);
        let (kinds, counts) = match self.real_stage {
            RealStage::None => (complex(self.in_kind) && complex(self.out_kind), (n, n)),
            RealStage::TwinSplit { .. } => (twins(self.in_kind) && complex(self.out_kind), (n, half)),
            RealStage::TwinMerge { .. } => (complex(self.in_kind) && twins(self.out_kind), (half, n)),
            _ => return false,
        };
        register_lanes(n, self.precision, self.real_stage != RealStage::None) == Some(self.lanes)
            && self.items_per_slot == 1
            && kinds
            && (self.in_count, self.out_count) == counts
            && self.in_mode() == MODE_ROWS
            && self.out_mode() == MODE_ROWS
            && self.load_factor.is_none()
            && self.store_factor.is_none()
            && self.mid_factor.is_none()
            && self.post_twiddle.is_none()
            && self.plane_n0.is_none()
    }

    /// True when the kernel can run its DFT across the lanes: one item per slot whose lanes are batch
    /// dimension 0 whole (one transform's parts), and nothing fused but the four-step twiddle and a real
    /// stage across the lanes. On the store (after the twiddle), whole output rows of vectors, which then
    /// take element k2 of the DFT's output k1 where lane k1's element k2 would go, and at most a C2R
    /// pre-process; on the load (the twiddle, in its lane form, after the DFT), whole input rows of vectors
    /// and the R2C post-process.
    pub fn lanes_dft_fits(&self) -> bool {
        // Pairs of two real transforms apart (the twins of an odd C2R) store as rows too.
        let rows_of = |kind, mode, pairs_apart: bool| {
            let rows_kind = match kind {
                ElementKind::Complex => true,
                ElementKind::RealPairs { half } => half == 1 || pairs_apart,
                ElementKind::Real => false,
            };
            rows_kind && mode == MODE_ROWS
        };
        // A twin stage's last input or output element only in the lanes or rows up to parts / 2.
        let twin_count = |count: usize| count == self.n.div_ceil(2) && self.n % 2 == 1;
        let side = match self.lanes_dft {
            LanesDft::None => false,
            LanesDft::Load => {
                rows_of(self.in_kind, self.in_mode(), false)
                    && self.in_count == self.n
                    && self.real_stage == RealStage::R2cPostLanes
                    && self.load_factor.is_none()
                    && self.post_twiddle_mode() == POST_TW_LANES
            }
            LanesDft::Store => {
                let counts = match self.real_stage {
                    RealStage::None | RealStage::C2rPreLanes => self.out_count == self.n,
                    RealStage::TwinMergeLanes { .. } => self.out_count == self.n && twin_count(self.in_count),
                    RealStage::TwinSplitLanes { .. } => twin_count(self.out_count),
                    _ => false,
                };
                rows_of(self.out_kind, self.out_mode(), true) && counts && self.store_factor.is_none()
            }
        };
        // Fewer parts than lanes only on the store, with a butterfly for them and none of the C2R
        // pre-process's lane mirrors; the twin stages' mirrors take odd parts of an odd transform.
        let parts = self.batch.first().map_or(0, |d| d.count);
        let twins = self.real_stage.twins_across_lanes();
        let parts_fit = (parts == self.lanes && !twins)
            || (self.lanes_dft == LanesDft::Store
                && (self.real_stage == RealStage::None || (twins && parts % 2 == 1))
                && parts > 1
                && parts < self.lanes
                && super::radix::has_butterfly(parts));
        side && self.lanes == REGISTER_LANES
            && self.items_per_slot == 1
            && parts_fit
            && (self.n % self.lanes == 0 || self.lanes_dft == LanesDft::Store)
            && self.mid_factor.is_none()
            && self.plane_n0.is_none()
            && self.post_twiddle.is_some()
    }

    /// True when the four-step twiddle's exponent products may exceed 64 bits (its modulus passes 2^32), or the
    /// long multiplication is forced.
    fn wide_twiddle(&self) -> bool {
        self.post_twiddle.as_ref().is_some_and(|pt| self.force_wide_twiddle || pt.modulus as u64 > 1 << 32)
    }

    /// The four-step twiddle form: the lane-table form needs e = (c0 + lane) kmul k.
    fn post_twiddle_mode(&self) -> u8 {
        match &self.post_twiddle {
            None => POST_TW_NONE,
            Some(pt) if pt.c_dim == 0 && pt.base_muls.iter().all(|&m| m % pt.modulus == 0) => POST_TW_LANES,
            Some(_) => POST_TW_GENERAL,
        }
    }

    /// Rows of batch dimension 0 a slot's lanes may span in the lane-table twiddle form: two when that
    /// dimension's count is not a multiple of the lanes but at least the lanes less one (so never three
    /// rows): fewer roots to form than one per lane (docs/tuning.md, "Lane-table twiddle runs").
    fn twiddle_runs(&self) -> usize {
        let count = self.batch.first().map_or(0, |d| d.count);
        let spans_rows = count % self.lanes != 0 && count + 1 >= self.lanes && self.live_lanes() == self.lanes;
        if self.post_twiddle_mode() == POST_TW_LANES && spans_rows {
            2
        } else {
            1
        }
    }

    /// The program: only what shapes the code is compiled in; sizes and strides are `params`.
    pub fn source(&self) -> KernelSource {
        // A post-callback receives the elements one at a time: its stores never stream.
        let streams = self.streaming_store && self.callbacks.post.is_none();
        let mut d = Defines::default();
        if self.precision == Precision::Double {
            d.set("FFTX_DOUBLE", 1);
        }
        d.set("VW", self.lanes)
            .set("LIVE_LANES", self.live_lanes())
            .set("IDX", if self.wide_index { "ulong" } else { "uint" })
            .set("N", self.n)
            .set("NPASS", self.radices.len())
            .set("P", self.items_per_slot)
            .set("T", self.slots_per_group)
            .set("SPW", self.slots_per_item)
            .set("LPAD", self.pad_shift.unwrap_or(NO_PAD))
            .set("NBATCH", self.batch.len())
            .flag("IN_PLANAR", self.in_planar)
            .flag("OUT_PLANAR", self.out_planar)
            .set("IN_KIND", kind_code(self.in_kind))
            .set("OUT_KIND", kind_code(self.out_kind))
            .set("IN_MODE", self.in_mode())
            .set("OUT_MODE", self.out_mode())
            .set("IN_COUNT", self.in_count)
            .set("OUT_COUNT", self.out_count)
            .flag("IN_PAIRS_APART", matches!(self.in_kind, ElementKind::RealPairs { half } if half != 1))
            .flag("OUT_PAIRS_APART", matches!(self.out_kind, ElementKind::RealPairs { half } if half != 1))
            .set("REAL_STAGE", self.real_stage.code())
            .set("POST_TW", self.post_twiddle_mode())
            .set("TW_RUNS", self.twiddle_runs())
            .flag("TW_WIDE_MOD", self.wide_twiddle())
            .flag("OUT_STREAM", streams)
            .flag("ROW_RUN_CARRY", self.row_run_carry() && streams)
            .flag("TWIN_RUN_CARRY", self.twin_run_carry() && streams)
            .flag("LANES_DFT_IN", self.lanes_dft == LanesDft::Load)
            .flag("LANES_DFT_OUT", self.lanes_dft == LanesDft::Store)
            .flag("PACKED_ROWS", self.packed_rows())
            .set("IN_PREFETCH", self.input_prefetch() as u8)
            .flag("IN_PLACE_PASSES", self.in_place_passes)
            .set("LOCAL_BUFFERS", Self::local_buffers(self.in_place_passes, self.real_stage))
            .set("PT_OFF", stockham_table_len(&self.radices) + self.real_roots_len())
            .set("RT_OFF", stockham_table_len(&self.radices));
        if self.real_stage.split_roots() {
            d.set("RT_SHIFT", split_table_shape(self.half_length() + 1).0);
        }
        if let Some(n0) = self.plane_n0 {
            d.set("PLANE_N0", n0);
        }
        if self.slot_major_io {
            d.set("SLOT_MAJOR_IO", 1);
        }
        if self.rows_in_registers() {
            debug_assert_eq!(self.radices, [self.lanes, self.lanes]);
            d.set("ROWS_IN_REGISTERS", 1);
        }
        if let Some(dim) = self.lone_dim {
            d.set("LONE_DIM", dim);
        }
        if let RealStage::R2cPostPairs { column_dims } = self.real_stage {
            d.set("PAIR_DIMS", column_dims).flag("PAIR_CARRY", self.pair_carry());
        }
        match self.real_stage {
            RealStage::TwinSplit { twin_out } | RealStage::TwinSplitLanes { twin_out } => {
                d.set("TWIN_OUT", twin_out);
            }
            RealStage::TwinMerge { twin_in } | RealStage::TwinMergeLanes { twin_in } => {
                d.set("TWIN_IN", twin_in);
            }
            _ => {}
        }
        let (load_off, store_off, mid_off) = self.factor_offsets();
        self.factor_defines(&mut d, "LOAD", self.load_factor.as_ref(), load_off, self.in_count);
        self.factor_defines(&mut d, "STORE", self.store_factor.as_ref(), store_off, self.out_count);
        d.flag("MID_MUL", self.mid_factor.is_some()).set("MID_OFF", mid_off);
        self.define_pass_sequence(&mut d);
        self.callbacks.define(&mut d);
        let files = [COMMON_CL, LANES_CL, BUTTERFLIES_CL, ACCESS_CL, LAYOUT_CL, REAL_CL];
        let program = d.program(&[&files[..], &STOCKHAM_CL[..]].concat());
        self.callbacks.ahead_of("fftx_stockham", program, self.precision)
    }

    /// The pass sequence (stockham_passes.cl): one line per pass with its radix, span and twiddle offset.
    /// Stockham passes run first to last, alternating between the local buffers A and B; in-place passes run
    /// last to first in A, and `DIF_DIGITS` reads the output's positions back in that order.
    fn define_pass_sequence(&self, d: &mut Defines) {
        let offsets = stockham_offsets(&self.radices);
        let mut span = 1;
        let passes: Vec<(usize, usize, usize)> = self
            .radices
            .iter()
            .zip(&offsets)
            .map(|(&radix, &offset)| {
                span *= radix;
                (radix, span, offset)
            })
            .collect();
        let lines: Vec<String> = if self.in_place_passes {
            passes.iter().rev().map(|(r, l, o)| format!("PASS_IN_PLACE({r}, {l}, {o}, are, aim)")).collect()
        } else {
            let buffers = ["are, aim", "bre, bim"];
            let pass = |q: usize, &(r, l, o): &(usize, usize, usize)| {
                format!("PASS({r}, {l}, {o}, {}, {})", buffers[q % 2], buffers[(q + 1) % 2])
            };
            passes.iter().enumerate().map(|(q, p)| pass(q, p)).collect()
        };
        d.set("PASS_SEQUENCE()", statements(&lines));
        if self.in_place_passes {
            let digits: Vec<String> = passes.iter().rev().map(|(r, l, _)| format!("DIF_DIGIT({r}, {l})")).collect();
            d.set("DIF_DIGITS()", statements(&digits));
        }
    }

    /// True when some of `count` elements of a transform lie past the factor's limit in this batch.
    fn guards(&self, factor: &IndexedFactor, count: usize) -> bool {
        let counts: Vec<usize> = self.batch.iter().map(|d| d.count).collect();
        factor.needs_guard(count, &counts)
    }

    /// PREFIX_MUL and, with a factor, where its table starts (PREFIX_OFF), the entry of element k in lane l
    /// (PREFIX_KMUL k + PREFIX_BASE(coordinates of l)), whether entries differ between lanes (PREFIX_LANES)
    /// and are neighbours along batch dimension 0 (PREFIX_STEP1), and whether some elements lie past PREFIX_LIMIT (PREFIX_GUARD).
    fn factor_defines(
        &self,
        d: &mut Defines,
        prefix: &str,
        factor: Option<&IndexedFactor>,
        offset: usize,
        count: usize,
    ) {
        d.flag(&format!("{prefix}_MUL"), factor.is_some());
        let Some(f) = factor else { return };
        let terms: Vec<String> = f
            .dim_muls
            .iter()
            .enumerate()
            .filter(|&(_, &m)| m != 0)
            .map(|(dim, m)| format!(" + (IDX)(c)[{dim}] * {m}"))
            .collect();
        d.set(&format!("{prefix}_OFF"), offset)
            .set(&format!("{prefix}_KMUL"), f.k_mul)
            .set(&format!("{prefix}_BASE(c)"), format!("((IDX)0{})", terms.concat()))
            .flag(&format!("{prefix}_LANES"), !terms.is_empty())
            .flag(&format!("{prefix}_STEP1"), f.dim_muls.first() == Some(&1))
            .flag(&format!("{prefix}_GUARD"), self.guards(f, count))
            .set(&format!("{prefix}_LIMIT"), f.limit);
    }

    /// The runtime sizes and strides the kernel reads (layout documented in `kernels/layout.cl`).
    pub fn params(&self) -> Vec<u64> {
        let tables = self.post_twiddle_tables();
        layout_params(
            self.in_stride,
            self.out_stride,
            self.in_kind,
            self.out_kind,
            &self.batch,
            self.post_twiddle.as_ref().map(|pt| (pt, tables)),
        )
    }

    /// Where the four-step tables sit after the pass twiddles.
    fn post_twiddle_tables(&self) -> PostTwiddleTables {
        let start = stockham_table_len(&self.radices) + self.real_roots_len();
        match &self.post_twiddle {
            None => PostTwiddleTables { shift: 0, hi_offset: start, lanes_offset: start },
            Some(pt) => {
                let (shift, lo, hi) = split_table_shape(pt.modulus);
                PostTwiddleTables { shift, hi_offset: start + lo, lanes_offset: start + lo + hi }
            }
        }
    }

    /// The table the kernel reads: pass twiddles; then the real-transform roots or, for a four-step, the low
    /// and high tables of w_n^e and, in the lane form, w_n^(l kmul k) for every k and lane (real parts,
    /// then imaginary parts); then the load and store factors.
    pub fn twiddles(&self) -> Vec<(f64, f64)> {
        let mut table = stockham_table(&self.radices, self.plane_n0);
        table.extend(self.stage_table());
        for f in [&self.load_factor, &self.store_factor].into_iter().flatten() {
            table.extend(f.factor.table().iter());
        }
        if let Some(f) = &self.mid_factor {
            table.extend(f.table().iter());
        }
        table
    }

    /// The entries between the pass twiddles and the factors.
    fn stage_table(&self) -> Vec<(f64, f64)> {
        let mut table = Vec::new();
        let half = self.half_length();
        match self.real_stage {
            // The pre/post-process roots w_2h^k, k = 0..h (h points in the half-length FFT).
            RealStage::R2cPost | RealStage::C2rPre => {
                table.extend((0..=half as u64).map(|k| unit_root(k, 2 * half as u64)))
            }
            stage if stage.split_roots() => table.extend(split_table(half + 1, 2 * half as u64)),
            // w_2h^(c + C k) = w_2h^c w_2n^k, h = C n; the first group's lanes 4-7 read columns C..C+3.
            RealStage::R2cPostPairs { .. } => {
                table.extend((0..=self.n as u64).map(|k| unit_root(k, 2 * self.n as u64)));
                let columns = (self.pair_columns() + self.lanes / 2) as u64;
                table.extend((0..columns).map(|c| unit_root(c, 2 * half as u64)));
            }
            _ => {}
        }
        if let Some(pt) = &self.post_twiddle {
            let n = pt.modulus as u64;
            table.extend(split_table(pt.modulus, n));
            if self.post_twiddle_mode() == POST_TW_LANES {
                let kmul = (pt.k_mul % pt.modulus) as u64;
                for k in 0..self.n as u64 {
                    let roots: Vec<(f64, f64)> =
                        (0..self.lanes as u64).map(|l| unit_root(mul_mod(l, mul_mod(kmul, k, n), n), n)).collect();
                    // Packed as (re, im) pairs: VW real parts, then VW imaginary parts.
                    let flat: Vec<f64> = roots.iter().map(|r| r.0).chain(roots.iter().map(|r| r.1)).collect();
                    table.extend(flat.chunks_exact(2).map(|c| (c[0], c[1])));
                }
            }
        }
        table
    }

    /// Table offsets of the load, store and middle factors.
    fn factor_offsets(&self) -> (usize, usize, usize) {
        let load = stockham_table_len(&self.radices) + self.stage_table_len();
        let store = load + self.load_factor.as_ref().map_or(0, |f| f.factor.table_len());
        let mid = store + self.store_factor.as_ref().map_or(0, |f| f.factor.table_len());
        (load, store, mid)
    }

    /// The columns of a leaf pairing them (`RealStage::R2cPostPairs`), 1 for other leaves.
    pub fn pair_columns(&self) -> usize {
        match self.real_stage {
            RealStage::R2cPostPairs { column_dims } => self.batch.iter().take(column_dims).map(|d| d.count).product(),
            _ => 1,
        }
    }

    /// The points of the half-length complex FFT a real stage pre- or post-processes.
    fn half_length(&self) -> usize {
        match self.real_stage {
            RealStage::R2cPostLanes | RealStage::C2rPreLanes => self.lanes * self.n,
            RealStage::R2cPostPairs { .. } => self.pair_columns() * self.n,
            RealStage::C2rPrePairs => self.batch.first().map_or(1, |d| d.count) * self.n,
            _ => self.n,
        }
    }

    /// Entries of the real stage's roots, which come first among the stage's tables.
    fn real_roots_len(&self) -> usize {
        match self.real_stage {
            RealStage::R2cPost | RealStage::C2rPre => self.n + 1,
            stage if stage.split_roots() => {
                let (_, lo, hi) = split_table_shape(self.half_length() + 1);
                lo + hi
            }
            RealStage::R2cPostPairs { .. } => self.n + 1 + self.pair_columns() + self.lanes / 2,
            _ => 0,
        }
    }

    fn stage_table_len(&self) -> usize {
        let roots = self.real_roots_len();
        let post = self.post_twiddle.as_ref().map_or(0, |pt| {
            let (_, lo, hi) = split_table_shape(pt.modulus);
            lo + hi + if self.post_twiddle_mode() == POST_TW_LANES { self.n * self.lanes } else { 0 }
        });
        roots + post
    }
}

/// The `params` layout of `kernels/layout.cl`, shared by every batched kernel.
pub(crate) fn layout_params(
    in_stride: usize,
    out_stride: usize,
    in_kind: ElementKind,
    out_kind: ElementKind,
    batch: &[BatchDim],
    post_twiddle: Option<(&PostTwiddle, PostTwiddleTables)>,
) -> Vec<u64> {
    let (modulus, kmul, c_dim, tables) = match &post_twiddle {
        Some((pt, t)) => (pt.modulus, pt.k_mul % pt.modulus, pt.c_dim, *t),
        None => (1, 0, 0, PostTwiddleTables { shift: 0, hi_offset: 0, lanes_offset: 0 }),
    };
    let mut p = vec![
        in_stride as u64,
        out_stride as u64,
        batch.iter().map(|d| d.count).product::<usize>() as u64,
        modulus as u64,
        kmul as u64,
        tables.shift as u64,
        tables.hi_offset as u64,
        tables.lanes_offset as u64,
        c_dim as u64,
        half_of(in_kind) as u64,
        half_of(out_kind) as u64,
    ];
    for (i, dim) in batch.iter().enumerate() {
        let m = post_twiddle.as_ref().and_then(|(pt, _)| pt.base_muls.get(i)).copied().unwrap_or(0);
        p.extend([dim.count as u64, dim.in_stride as u64, dim.out_stride as u64, (m % modulus) as u64]);
    }
    p
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct PostTwiddleTables {
    shift: u32,
    hi_offset: usize,
    lanes_offset: usize,
}

pub(crate) fn kind_code(kind: ElementKind) -> u8 {
    match kind {
        ElementKind::Complex => 0,
        ElementKind::RealPairs { .. } => 1,
        ElementKind::Real => 2,
    }
}

fn half_of(kind: ElementKind) -> usize {
    match kind {
        ElementKind::RealPairs { half } => half,
        _ => 0,
    }
}

/// A macro body of one statement per line (the last without its semicolon, which the caller writes).
fn statements(lines: &[String]) -> String {
    lines.iter().map(|line| format!("\\\n    {line}")).collect::<Vec<_>>().join("; ")
}

fn stockham_table_len(radices: &[usize]) -> usize {
    let mut span = 1;
    radices
        .iter()
        .map(|&r| {
            span *= r;
            (r - 1) * (span / r)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(n: usize, radices: Vec<usize>) -> StockhamKernel {
        StockhamKernel {
            precision: Precision::Single,
            n,
            radices,
            lanes: 8,
            items_per_slot: 1,
            slots_per_group: 1,
            slots_per_item: 1,
            pad_shift: None,
            in_stride: 1,
            out_stride: 1,
            batch: vec![BatchDim { count: 10, in_stride: n, out_stride: n }],
            in_planar: false,
            out_planar: false,
            in_kind: ElementKind::Complex,
            out_kind: ElementKind::Complex,
            real_stage: RealStage::None,
            in_count: n,
            out_count: n,
            load_factor: None,
            store_factor: None,
            mid_factor: None,
            post_twiddle: Some(PostTwiddle { modulus: 4 * n, c_dim: 0, k_mul: 1, base_muls: vec![] }),
            wide_index: false,
            force_wide_twiddle: false,
            streaming_store: false,
            lone_dim: None,
            plane_n0: None,
            lanes_dft: LanesDft::None,
            in_place_passes: false,
            slot_major_io: false,
            pair_carry_fits: false,
            host_prefetch: false,
            callbacks: Default::default(),
        }
    }

    #[test]
    fn whole_vector_stores_need_aligned_rows_or_columns_of_interleaved_values() {
        assert!(kernel(64, vec![16, 4]).stores_whole_vectors());
        // Hermitian rows of 33 values, and rows 68 apart, start mid-vector.
        assert!(!StockhamKernel { out_count: 33, ..kernel(64, vec![16, 4]) }.stores_whole_vectors());
        let padded = vec![BatchDim { count: 10, in_stride: 64, out_stride: 68 }];
        assert!(!StockhamKernel { batch: padded, ..kernel(64, vec![16, 4]) }.stores_whole_vectors());
        assert!(!StockhamKernel { out_planar: true, ..kernel(64, vec![16, 4]) }.stores_whole_vectors());
        // Columns: lanes along a unit-stride batch dimension of a multiple of 8 transforms, or of any count where
        // it is the whole batch (the last slot stores lane by lane), but not where the slots then run on into
        // columns that start elsewhere.
        let columns = |count, more: &[BatchDim]| StockhamKernel {
            out_stride: 256,
            batch: [&[BatchDim { count, in_stride: 1, out_stride: 1 }], more].concat(),
            ..kernel(64, vec![16, 4])
        };
        assert!(columns(256, &[]).stores_whole_vectors());
        assert!(columns(250, &[]).stores_whole_vectors());
        let next = BatchDim { count: 3, in_stride: 64 * 256, out_stride: 264 };
        assert!(columns(256, &[next]).stores_whole_vectors());
        assert!(!columns(250, &[next]).stores_whole_vectors());
        // Adjacent real pairs (positions in reals): whole when 8 pairs, 16 reals, line up.
        let pairs = |out_stride| StockhamKernel {
            out_kind: ElementKind::RealPairs { half: 1 },
            out_stride,
            batch: vec![
                BatchDim { count: 64, in_stride: 1, out_stride: 2 },
                BatchDim { count: 3, in_stride: 64, out_stride },
            ],
            ..kernel(64, vec![16, 4])
        };
        assert!(pairs(512).stores_whole_vectors());
        assert!(!pairs(8 * 65).stores_whole_vectors());
    }

    #[test]
    fn table_layout_matches_the_params() {
        let k = kernel(64, vec![16, 4]);
        let table = k.twiddles();
        let params = k.params();
        // Radix 16 over span 16 has 15 entries; radix 4 over span 64 has 3 * 16.
        assert_eq!(stockham_table_len(&k.radices), 15 + 48);
        let (shift, lo, hi) = split_table_shape(256);
        assert_eq!((shift, lo, hi), (4, 16, 16));
        assert_eq!(params[5], 4);
        assert_eq!(params[6] as usize, 63 + 16);
        assert_eq!(params[7] as usize, 63 + 32);
        assert_eq!(table.len(), 63 + 32 + 64 * 8);
        assert!(k.source().source.contains("#define PT_OFF 63"));
        assert!(k.source().source.contains("#define POST_TW 1"));
    }

    #[test]
    fn long_twiddle_products_follow_the_modulus_unless_forced() {
        let wide = |modulus: usize, forced: bool| {
            let mut k = kernel(64, vec![16, 4]);
            k.post_twiddle.as_mut().expect("kernel() has a twiddle").modulus = modulus;
            k.force_wide_twiddle = forced;
            k.wide_twiddle()
        };
        assert!(!wide(1 << 32, false));
        assert!(wide((1 << 32) + 1, false));
        assert!(wide(256, true));
        assert!(
            !StockhamKernel { post_twiddle: None, force_wide_twiddle: true, ..kernel(64, vec![16, 4]) }.wide_twiddle()
        );
    }

    #[test]
    fn split_tables_cover_every_exponent() {
        for n in [1usize, 2, 3, 1000, 1 << 20, 3 << 21] {
            let (shift, lo, hi) = split_table_shape(n);
            assert_eq!(lo, 1 << shift);
            assert!(lo * hi >= n && (hi - 1) * lo < n, "n={n}");
        }
    }

    #[test]
    fn work_size_rounds_slots_up() {
        let mut k = kernel(64, vec![16, 4]);
        k.slots_per_group = 4;
        assert_eq!(k.work_size(), ([1, 4], [1, 4]));
    }
}
