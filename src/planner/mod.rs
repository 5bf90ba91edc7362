//! Problem + device facts -> an execution tree and the flat list of kernel steps it runs.
//!
//! The planner works on *jobs*: a batch of 1D FFTs along one axis, described in logical terms (a count and
//! a multiplier of some axis's stride in each buffer), so that the same job can be resolved against the
//! user's input and output layouts or the packed scratch layout. A job that fits one kernel becomes a
//! Stockham leaf; a longer one is split by four-step into two jobs, recursively. Real transforms add a
//! real stage along axis 0, fused into the leaf or, for long axes, run as an elementwise pass of its own.

mod bluestein;
pub mod chunks;
pub mod factor;
mod fourstep;
pub mod kernel_shape;
mod multidim;
mod rader;
mod real;
mod scratch;
pub mod transpose;
pub mod tree;
pub mod tuning;

#[cfg(test)]
mod sweep_tests;
#[cfg(test)]
pub(crate) mod test_device;

use crate::codegen::bluestein::{Factor, IndexedFactor};
use crate::codegen::elementwise::{ElementwiseKernel, ElementwiseOp};
use crate::codegen::stockham::{
    register_lanes, BatchDim, ElementKind, LanesDft, PostTwiddle, RealStage, StockhamKernel, REGISTER_LANES,
};
use crate::codegen::{KernelSpec, Reach};
use crate::error::{fail, ErrorKind, Result};
use crate::log::Topic;
use crate::types::{Precision, TransformKind};
use std::borrow::Cow;
pub use tree::Node;
use tuning::Target;

/// Strides of a packed array of `lengths`, first length innermost.
pub fn packed_strides(lengths: &[usize]) -> Vec<usize> {
    let mut strides = Vec::with_capacity(lengths.len());
    let mut s = 1;
    for &l in lengths {
        strides.push(s);
        s *= l;
    }
    strides
}

/// How one buffer is addressed: stride per axis and distance between batch entries, in that buffer's
/// element units (reals for real data, complex values otherwise).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferLayout {
    pub strides: Vec<usize>,
    pub dist: usize,
    pub planar: bool,
}

impl BufferLayout {
    /// The packed interleaved layout of `lengths` (the scratch layout).
    pub fn packed(lengths: &[usize]) -> Self {
        BufferLayout { strides: packed_strides(lengths), dist: lengths.iter().product(), planar: false }
    }

    /// Elements one transform of `lengths` spans, from its first element to its last.
    pub fn extent(&self, lengths: &[usize]) -> usize {
        lengths.iter().zip(&self.strides).map(|(l, s)| (l - 1) * s).sum::<usize>() + 1
    }

    fn stride(&self, axis: Axis) -> usize {
        match axis {
            Axis::Dim(a) => self.strides[a],
            Axis::Batch => self.dist,
            Axis::Raw => 1,
        }
    }
}

/// A buffer a step reads or writes. Scratch regions each hold one packed complex copy of the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufRef {
    Input,
    Output,
    Tmp(usize),
}

/// A transform as the planner sees it.
#[derive(Debug, Clone)]
pub struct Problem {
    pub precision: Precision,
    pub kind: TransformKind,
    /// Lengths, fastest axis first; for real transforms `lengths[0]` is the real length.
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub input: BufferLayout,
    pub output: BufferLayout,
    /// Input and output are the same storage.
    pub in_place: bool,
    /// Plan without scratch where the transform allows (`CLFFT_REQUEST_LIB_NOMEMALLOC`): long 1D complex
    /// axes run in place with in-place transposes; any other transform that needs scratch still gets it.
    pub no_scratch: bool,
}

impl Problem {
    /// The transform in words, for messages: "4096x4096 c2c single, batch 2".
    pub fn describe(&self) -> String {
        let lengths: Vec<String> = self.lengths.iter().map(usize::to_string).collect();
        let kind = match self.kind {
            TransformKind::C2C => "c2c",
            TransformKind::R2C => "r2c",
            TransformKind::C2R => "c2r",
        };
        let precision = match self.precision {
            Precision::Single => "single",
            Precision::Double => "double",
        };
        let batch = if self.batch > 1 { format!(", batch {}", self.batch) } else { String::new() };
        format!("{} {kind} {precision}{batch}", lengths.join("x"))
    }

    /// Lengths of the complex data: a Hermitian axis 0 keeps lengths[0] / 2 + 1 values.
    pub fn complex_lengths(&self) -> Vec<usize> {
        let mut l = self.lengths.clone();
        if self.kind.is_real() {
            l[0] = l[0] / 2 + 1;
        }
        l
    }

    /// Lengths of the scratch layout: the complex data, with a whole odd real axis (an odd real transform
    /// runs as a full complex one). A real axis 0 is padded to whole rows of `ROW_ALIGN`: n / 2 + 1 values
    /// would start every row but the first mid-vector, which rules out streaming stores and splits vectors
    /// across cache lines.
    fn work_lengths(&self) -> Vec<usize> {
        let mut l = self.complex_lengths();
        if self.kind.is_real() {
            l[0] = self.work_row().next_multiple_of(ROW_ALIGN);
        }
        l
    }

    /// Complex values of a real transform's axis 0 in scratch: the Hermitian half, or a whole odd row.
    fn work_row(&self) -> usize {
        if self.lengths[0] % 2 == 1 {
            self.lengths[0]
        } else {
            self.lengths[0] / 2 + 1
        }
    }

    /// Complex elements in one scratch region.
    pub fn elements(&self) -> usize {
        self.work_lengths().iter().product::<usize>() * self.batch
    }

    fn layout(&self, buffer: BufRef) -> Cow<'_, BufferLayout> {
        match buffer {
            BufRef::Input => Cow::Borrowed(&self.input),
            BufRef::Output => Cow::Borrowed(&self.output),
            BufRef::Tmp(_) if self.scratch_runs_batch_inner() => Cow::Owned(self.batch_inner_layout()),
            BufRef::Tmp(_) => Cow::Owned(BufferLayout::packed(&self.work_lengths())),
        }
    }

    /// True when the scratch takes `batch_inner_layout`: a multi-dimensional C2R.
    fn scratch_runs_batch_inner(&self) -> bool {
        self.kind == TransformKind::C2R && self.lengths.len() > 1
    }

    /// The scratch layout of a multi-dimensional C2R: the batch runs on right after axis 0, so the lanes of
    /// a pass along another axis that end one transform's row and start the next stay neighbours, which
    /// whole-vector (and streaming) stores need. Axis 1 starts on a whole row of `ROW_ALIGN`.
    fn batch_inner_layout(&self) -> BufferLayout {
        let row = self.work_row();
        let mut strides = vec![1];
        let mut s = (row * self.batch).next_multiple_of(ROW_ALIGN);
        for &n in &self.lengths[1..] {
            strides.push(s);
            s *= n;
        }
        BufferLayout { strides, dist: row, planar: false }
    }
}

/// One kernel launch and the buffers it connects.
#[derive(Debug, Clone)]
pub struct Step {
    pub kernel: KernelSpec,
    pub src: BufRef,
    pub dst: BufRef,
}

#[derive(Debug, Clone)]
pub struct ExecPlan {
    pub tree: Node,
    pub steps: Vec<Step>,
    /// Scratch regions used (`Tmp(0)` .. `Tmp(regions - 1)`).
    pub tmp_regions: usize,
    /// Complex elements per scratch region.
    pub region_elements: usize,
    /// The steps run once per chunk of the batch, in order.
    pub chunks: chunks::Chunks,
}

impl ExecPlan {
    /// Offset in complex elements of a buffer reference inside its buffer.
    pub fn offset(&self, buffer: BufRef) -> usize {
        match buffer {
            BufRef::Tmp(i) => i * self.region_elements,
            _ => 0,
        }
    }

    pub fn tmp_elements(&self) -> usize {
        self.tmp_regions * self.region_elements
    }
}

/// Plans `problem` for `device`. A problem asking for no scratch (`no_scratch`) that cannot run without it
/// gets the ordinary plan with scratch, as clFFT treats `CLFFT_REQUEST_LIB_NOMEMALLOC`: a request.
pub fn plan(problem: &Problem, device: &Target) -> Result<ExecPlan> {
    if problem.lengths.is_empty() || problem.lengths.iter().chain([&problem.batch]).any(|&l| l == 0) {
        return fail(ErrorKind::InvalidArgValue, "lengths and batch must be at least 1");
    }
    if !problem.no_scratch {
        return plan_as_asked(problem, device);
    }
    let why = match plan_as_asked(problem, device) {
        Ok(exec) if exec.tmp_regions == 0 => return Ok(exec),
        Ok(exec) => format!("its plan needs scratch:\n{}", exec.tree),
        Err(e) if e.kind == ErrorKind::NotImplemented => e.message,
        Err(e) => return Err(e),
    };
    crate::log!(
        Topic::Info,
        "no-allocation mode requested for lengths {:?}, but {why}; planning with scratch",
        problem.lengths
    );
    plan_as_asked(&Problem { no_scratch: false, ..problem.clone() }, device)
}

fn plan_as_asked(problem: &Problem, device: &Target) -> Result<ExecPlan> {
    let whole = plan_whole_batch(problem, device, 1)?;
    if whole.steps.len() < 2 {
        return Ok(whole);
    }
    match chunks::transforms_per_chunk(problem, device) {
        Some(transforms) => {
            let chunk = Problem { batch: transforms, ..problem.clone() };
            let mut part = plan_whole_batch(&chunk, device, problem.batch / transforms)?;
            if device.tuning.chunk_bytes.is_none() && !chunks::keeps_units_balanced(&part, device) {
                return Ok(whole);
            }
            // Only the last step's output leaves the cache; the steps before it store for the next.
            let last = part.steps.len() - 1;
            for (i, step) in part.steps.iter_mut().enumerate().take(last) {
                if let KernelSpec::Stockham(k) = &mut step.kernel {
                    if k.streaming_store {
                        k.streaming_store = false;
                        part.tree.restate(i, describe(k, step.src, step.dst));
                    }
                }
            }
            Ok(chunks::over_batch(part, problem, transforms))
        }
        None => Ok(whole),
    }
}

/// The plan of `problem`'s whole batch, its stores streaming as if the output were `chunks` times as large.
fn plan_whole_batch(problem: &Problem, device: &Target, chunks: usize) -> Result<ExecPlan> {
    let region_elements = aligned_region(problem.elements());
    let mut ctx = Ctx { problem, device, steps: Vec::new(), tmp_regions: 0, region_elements, chunks };
    let tree = multidim::plan(&mut ctx)?;
    Ok(ExecPlan {
        tree,
        steps: ctx.steps,
        tmp_regions: ctx.tmp_regions,
        region_elements: ctx.region_elements,
        chunks: chunks::Chunks::ONE,
    })
}

/// Complex elements a scratch region's size is a multiple of, so that every region starts as aligned as the
/// buffer (4 KiB in double precision) and its vector loads and streaming stores stay whole (docs/tuning.md,
/// "Scratch region alignment").
const REGION_ALIGN: usize = 256;

/// Complex elements the rows of a real problem's scratch are a multiple of: the 16 lanes of a leaf pairing rows
/// (`RealStage::C2rPrePairs`) store whole vectors from there, two cache lines in single precision.
const ROW_ALIGN: usize = 16;

fn aligned_region(elements: usize) -> usize {
    elements.div_ceil(REGION_ALIGN) * REGION_ALIGN
}

/// The axis a logical dimension runs along: one of the transform axes, the batch, or raw element units
/// (stride 1 in any buffer: scratch laid out by the job itself, as Bluestein's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Axis {
    Dim(usize),
    Batch,
    Raw,
}

/// `count` positions along `in_axis` of the source and `out_axis` of the destination, `in_mul` (`out_mul`)
/// times that axis's stride apart in each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LogicalDim {
    count: usize,
    in_axis: Axis,
    out_axis: Axis,
    in_mul: usize,
    out_mul: usize,
}

impl LogicalDim {
    /// A dimension along the same axis on both sides.
    fn along(axis: Axis, count: usize, in_mul: usize, out_mul: usize) -> LogicalDim {
        LogicalDim { count, in_axis: axis, out_axis: axis, in_mul, out_mul }
    }

    /// This dimension read where it was written: the input side takes the output's axis and multiplier (a
    /// pass reading back what the one before it stored).
    fn as_written(self) -> LogicalDim {
        LogicalDim { in_axis: self.out_axis, in_mul: self.out_mul, ..self }
    }
}

/// What a job's elements are on one side. Pairs are counted in pairs: every stride along axis 0 doubles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Complex,
    RealPairs,
    Real,
    /// Real values of two transforms `half` reals apart, read as one complex value (two real transforms
    /// for the price of one complex one). With an odd count along the twin axis `lone`, the transforms at
    /// coordinate 0 of that axis do not store their twin: another pair stores it as its own.
    RealTwins {
        half: usize,
        lone: Option<Axis>,
    },
}

/// A batch of 1D FFTs: `fft` is the transformed dimension, `batch` the others, dimension 0 innermost.
#[derive(Debug, Clone)]
struct Job {
    fft: LogicalDim,
    batch: Vec<LogicalDim>,
    post_twiddle: Option<PostTwiddle>,
    src: BufRef,
    dst: BufRef,
    in_side: Side,
    out_side: Side,
    stage: RealStage,
    /// Elements read per input transform and written per output transform.
    in_count: usize,
    out_count: usize,
    /// Elementwise factors on load and store (Bluestein fused into its FFTs), indexed by the job's
    /// element and batch coordinates.
    load_factor: Option<IndexedFactor>,
    store_factor: Option<IndexedFactor>,
    /// Bluestein's convolution in one leaf: the chirp spectrum between two rounds of passes.
    mid_factor: Option<Factor>,
    /// Some(n0): the fft is a plane of packed rows n0 long, transformed along both axes in one leaf.
    plane_n0: Option<usize>,
    /// The batch's dimension 0 is the lanes' interleaved parts of one transform, and a DFT across them is
    /// part of the job (`StockhamKernel::lanes_dft`).
    lanes_dft: LanesDft,
}

impl Job {
    /// The transforms the job runs: the product of its batch counts.
    fn transforms(&self) -> usize {
        self.batch.iter().map(|d| d.count).product()
    }

    /// A complex-to-complex job of `fft.count` points.
    fn complex(fft: LogicalDim, batch: Vec<LogicalDim>, src: BufRef, dst: BufRef) -> Job {
        Job {
            fft,
            batch,
            post_twiddle: None,
            src,
            dst,
            in_side: Side::Complex,
            out_side: Side::Complex,
            stage: RealStage::None,
            in_count: fft.count,
            out_count: fft.count,
            load_factor: None,
            store_factor: None,
            mid_factor: None,
            plane_n0: None,
            lanes_dft: LanesDft::None,
        }
    }
}

struct Ctx<'a> {
    problem: &'a Problem,
    device: &'a Target,
    steps: Vec<Step>,
    tmp_regions: usize,
    /// Complex elements per scratch region: one packed copy of the data, or more if a job needs it.
    region_elements: usize,
    /// Chunks of the batch the plan runs in, each of `problem`'s batch (`chunks`).
    chunks: usize,
}

/// Physical strides of a job's dimensions on one side.
struct Resolved {
    fft: usize,
    batch: Vec<usize>,
    kind: ElementKind,
    planar: bool,
}

impl Ctx<'_> {
    /// A scratch region that is neither of `busy`.
    fn free_tmp(&mut self, busy: &[BufRef]) -> BufRef {
        let region = (0..).find(|&i| !busy.contains(&BufRef::Tmp(i))).unwrap_or(0);
        self.tmp_regions = self.tmp_regions.max(region + 1);
        BufRef::Tmp(region)
    }

    /// Makes every scratch region hold at least `elements` complex values.
    fn need_region(&mut self, elements: usize) {
        self.region_elements = self.region_elements.max(aligned_region(elements));
    }

    fn max_leaf(&self) -> usize {
        kernel_shape::max_leaf(self.device, self.problem.precision)
    }

    /// True when one kernel transforms `n` points without scratch as a pass of a split: a smooth length up to
    /// the split leaf, or Bluestein's whole convolution.
    fn one_kernel_pass(&self, n: usize) -> bool {
        if factor::is_smooth(n) {
            n <= kernel_shape::max_split_leaf(self.device, self.problem.precision)
        } else {
            bluestein::fits_one_kernel(self, n)
        }
    }

    /// A leaf for the job if one kernel can take it, otherwise a four-step decomposition.
    fn plan_job(&mut self, job: Job) -> Result<Node> {
        let n = job.fft.count;
        if job.plane_n0.is_some() {
            // multidim only makes planes that one kernel takes.
            self.leaf(job)
        } else if !factor::is_smooth(n) {
            // A smooth factor runs as the (twiddled) column pass of a four-step; only the rest, as rows
            // without a twiddle of their own, needs Bluestein. Without scratch, Bluestein in one kernel takes
            // the whole length where it can, and longer lengths split in place.
            let smooth = factor::smooth_part(n);
            let one_kernel = bluestein::fits_one_kernel(self, n);
            if self.problem.no_scratch && !one_kernel {
                fourstep::plan(self, job)
            } else if smooth > 1 && job.post_twiddle.is_none() && !(self.problem.no_scratch && one_kernel) {
                fourstep::plan_split(self, job, n / smooth, smooth)
            } else if rader::suits(self, &job) {
                rader::plan(self, job)
            } else {
                bluestein::plan(self, job)
            }
        } else if n <= self.max_leaf() {
            self.leaf(job)
        } else if job.stage != RealStage::None {
            fail(ErrorKind::Bugcheck, "a real stage on a job too long for one kernel")
        } else {
            fourstep::plan(self, job)
        }
    }

    /// Strides on one side of a job, in that buffer's units.
    fn resolve(&self, buffer: BufRef, side: Side, fft: (Axis, usize), dims: &[(Axis, usize)]) -> Resolved {
        let layout = self.problem.layout(buffer);
        let pairs = side == Side::RealPairs;
        let stride = |(axis, mul): (Axis, usize)| {
            let doubled = if pairs && axis == Axis::Dim(0) { 2 } else { 1 };
            mul * layout.stride(axis) * doubled
        };
        Resolved {
            fft: stride(fft),
            batch: dims.iter().copied().map(stride).collect(),
            kind: match side {
                Side::Complex => ElementKind::Complex,
                Side::RealPairs => ElementKind::RealPairs { half: layout.strides[0] },
                Side::Real => ElementKind::Real,
                Side::RealTwins { half, .. } => ElementKind::RealPairs { half },
            },
            planar: layout.planar,
        }
    }

    /// Physical input and output strides of a job.
    fn resolve_job(&self, job: &Job) -> (Resolved, Resolved) {
        let ins: Vec<_> = job.batch.iter().map(|d| (d.in_axis, d.in_mul)).collect();
        let outs: Vec<_> = job.batch.iter().map(|d| (d.out_axis, d.out_mul)).collect();
        (
            self.resolve(job.src, job.in_side, (job.fft.in_axis, job.fft.in_mul), &ins),
            self.resolve(job.dst, job.out_side, (job.fft.out_axis, job.fft.out_mul), &outs),
        )
    }

    /// True when two buffer references are the same memory (the input and output of an in-place plan are).
    fn same_storage(&self, a: BufRef, b: BufRef) -> bool {
        a == b
            || (self.problem.in_place
                && matches!((a, b), (BufRef::Input, BufRef::Output) | (BufRef::Output, BufRef::Input)))
    }

    /// True when a kernel from `src` to `dst` reaching `reach` on each side indexes past 2^31 reals, scratch
    /// regions' offsets included.
    fn wide(&self, (src, dst): (BufRef, BufRef), reach: [Reach; 2]) -> bool {
        let offset = |b: BufRef| if let BufRef::Tmp(i) = b { i * self.region_elements } else { 0 };
        needs_wide_index([(reach[0], offset(src)), (reach[1], offset(dst))])
    }

    fn leaf(&mut self, job: Job) -> Result<Node> {
        let (src, dst) = (job.src, job.dst);
        let kernel = self.stockham_kernel(job)?;
        Ok(self.push_stockham(kernel, src, dst))
    }

    /// A leaf launching `kernel` from `src` to `dst`.
    fn push_stockham(&mut self, kernel: StockhamKernel, src: BufRef, dst: BufRef) -> Node {
        let summary = describe(&kernel, src, dst);
        self.push(KernelSpec::Stockham(Box::new(kernel)), src, dst, summary)
    }

    /// True when `job` would run as one kernel that keeps each transform in registers.
    fn runs_in_registers(&self, job: &Job) -> bool {
        job.fft.count <= self.max_leaf()
            && self.stockham_kernel(job.clone()).is_ok_and(|kernel| kernel.rows_in_registers())
    }

    /// The Stockham kernel of a job that one kernel takes.
    fn stockham_kernel(&self, mut job: Job) -> Result<StockhamKernel> {
        // Column pairs find their columns along their first batch dimensions, which must stay apart.
        let indexed_by_dims = job.post_twiddle.is_some()
            || matches!(job.stage, RealStage::R2cPostPairs { .. } | RealStage::C2rPrePairs)
            || [&job.load_factor, &job.store_factor].into_iter().flatten().any(|f| f.dim_muls.iter().any(|&m| m != 0));
        if !indexed_by_dims {
            job.batch = merge_dims(&job.batch);
        }
        if job.batch.len() > 6 {
            return fail(ErrorKind::NotImplemented, "more than six batch dimensions in one kernel");
        }
        let problem = self.problem;
        let (input, output, batch) = self.physical(&job);
        let n = job.fft.count;
        let radices_up_to = |max_two| {
            let site = kernel_shape::radix_site(self.device, problem.precision, max_two);
            match job.plane_n0 {
                Some(n0) => [factor::radices(n0, site), factor::radices(n / n0, site)].concat(),
                None => factor::radices(n, site),
            }
        };
        let mut radices = radices_up_to(factor::LARGEST_TWO_RADIX);
        if radices.iter().product::<usize>() != n {
            return fail(
                ErrorKind::Bugcheck,
                format!("a Stockham leaf of {n} points, which has no butterflies for it"),
            );
        }
        let transforms = job.transforms();
        let lone_dim = lone_dim(&job, side_lone_axis(&job))?;
        // A side along columns: complex values, neighbouring transforms neighbours, a transform's own apart.
        let column_side = |side: &Resolved, batch0: Option<usize>| {
            side.kind == ElementKind::Complex && side.fft != 1 && batch0 == Some(1)
        };
        // Positions count complex values or reals; neighbouring lanes read neighbouring complex values when
        // their transforms lie one complex value, or one packed pair of reals, apart.
        let (unit_bytes, adjacent) = match input.kind {
            ElementKind::Complex => (problem.precision.complex_bytes(), Some(1)),
            ElementKind::RealPairs { half: 1 } => (problem.precision.real_bytes(), Some(2)),
            _ => (problem.precision.real_bytes(), None),
        };
        let source = kernel_shape::SourceLayout {
            row_bytes: input.fft * unit_bytes,
            lanes_contiguous: adjacent.is_some_and(|a| batch.first().is_some_and(|d| d.in_stride == a)),
            columns_in: column_side(&input, batch.first().map(|d| d.in_stride)),
            columns_out: column_side(&output, batch.first().map(|d| d.out_stride)),
        };
        let fusions = kernel_shape::Fusions {
            // A DFT across the lanes on the store reads the passes' output wherever they leave it, after a
            // complex load or a twin merge.
            into_passes: job.mid_factor.is_some()
                || job.plane_n0.is_some()
                || (job.lanes_dft != LanesDft::None
                    && !(job.lanes_dft == LanesDft::Store
                        && matches!(job.stage, RealStage::None | RealStage::TwinMergeLanes { .. }))),
            across_lanes: job.stage.across_lanes() || job.lanes_dft != LanesDft::None,
            stage: job.stage,
        };
        let shape = kernel_shape::leaf(n, &radices, transforms, source, fusions, self.device, problem.precision);
        let max_two = kernel_shape::max_power_of_two_radix(self.device, problem.precision, shape.lanes, job.stage);
        if max_two != factor::LARGEST_TWO_RADIX {
            radices = radices_up_to(max_two);
        }
        let kernel = StockhamKernel {
            precision: problem.precision,
            n,
            radices,
            lanes: shape.lanes,
            items_per_slot: shape.items_per_slot,
            slots_per_group: shape.slots_per_group,
            slots_per_item: shape.slots_per_item,
            pad_shift: shape.pad_shift,
            in_stride: input.fft,
            out_stride: output.fft,
            wide_index: false,
            force_wide_twiddle: self.device.tuning.wide_twiddle,
            batch,
            in_planar: input.planar,
            out_planar: output.planar,
            in_kind: input.kind,
            out_kind: output.kind,
            real_stage: job.stage,
            in_count: job.in_count,
            out_count: job.out_count,
            load_factor: job.load_factor,
            store_factor: job.store_factor,
            mid_factor: job.mid_factor,
            post_twiddle: job.post_twiddle,
            streaming_store: false,
            lone_dim,
            plane_n0: job.plane_n0,
            lanes_dft: job.lanes_dft,
            in_place_passes: shape.in_place_passes,
            slot_major_io: shape.slot_major_io,
            pair_carry_fits: false,
            host_prefetch: kernel_shape::is_cpu(self.device),
            callbacks: Default::default(),
        };
        // Registers hold one transform at a time, so a CPU batch too small to fill the lanes still takes them.
        // Rows wider than 8 lanes only where the device's native float vectors are that wide (AVX-512).
        let widest = REGISTER_LANES.max(self.device.native_width_f32 as usize);
        let paired = kernel.real_stage != RealStage::None;
        let lanes =
            register_lanes(n, problem.precision, paired).filter(|&lanes| lanes <= widest).unwrap_or(REGISTER_LANES);
        let in_registers = || StockhamKernel { lanes, in_place_passes: false, ..kernel.clone() };
        let kernel = match kernel_shape::is_cpu(self.device).then(in_registers) {
            Some(in_registers) if in_registers.rows_in_registers() => in_registers,
            _ => kernel,
        };
        if kernel.real_stage.across_lanes()
            && (kernel.lanes != REGISTER_LANES || kernel.batch.first().map(|d| d.count) != Some(REGISTER_LANES))
        {
            return fail(ErrorKind::Bugcheck, "a real stage across the lanes without one transform's 8 parts in them");
        }
        let kernel = if kernel.real_stage == RealStage::C2rPrePairs {
            // Rows adjacent on input, in pairs of blocks of 8 or 16.
            let rows = kernel.batch.first().filter(|d| d.in_stride == 1).map_or(1, |d| d.count);
            let lanes = kernel_shape::row_pair_lanes(n, rows, self.device, problem.precision);
            let blocks = rows / lanes;
            if kernel.items_per_slot != 1
                || kernel.in_kind != ElementKind::Complex
                || blocks % 2 != 0
                || kernel.batch[0].count % lanes != 0
            {
                return fail(ErrorKind::Bugcheck, "row pairs without pairs of blocks of adjacent complex rows");
            }
            let pairs = transforms / (2 * lanes);
            let spw = 2 * kernel_shape::divisor_at_most(pairs, kernel.slots_per_item.div_ceil(2));
            StockhamKernel { lanes, slots_per_item: spw, ..kernel }
        } else if let RealStage::R2cPostPairs { column_dims } = kernel.real_stage {
            // Columns adjacent on output, their runs of four within batch dimension 0.
            let dims = kernel.batch.get(..column_dims).unwrap_or_default();
            let adjacent = |i: usize| dims[i].out_stride == dims[..i].iter().map(|d| d.count).product::<usize>();
            let columns = kernel.pair_columns();
            if dims.len() != column_dims
                || !(0..column_dims).all(adjacent)
                || dims[0].count % (REGISTER_LANES / 2) != 0
                || columns % REGISTER_LANES != 0
            {
                return fail(ErrorKind::Bugcheck, "column pairs without runs of 4 over whole rows of adjacent columns");
            }
            let lanes = kernel_shape::column_pair_lanes(n, columns, dims[0].count, self.device, problem.precision);
            let runs = columns / lanes;
            let spw = kernel_shape::pair_slots_per_item(self.device, runs, transforms / columns, kernel.slots_per_item);
            StockhamKernel { lanes, slots_per_item: spw, ..kernel }
        } else {
            kernel
        };
        let out_bytes = kernel.real_stage.stores_per_transform()
            * transforms
            * kernel.out_count
            * problem.precision.complex_bytes();
        let radices = if kernel.rows_in_registers() { vec![kernel.lanes; 2] } else { kernel.radices.clone() };
        let carry = StockhamKernel::pair_carry_bytes(n, kernel.lanes, problem.precision);
        let pair_carry_fits = matches!(kernel.real_stage, RealStage::R2cPostPairs { .. })
            && kernel.kernel_local_bytes() + carry <= self.device.local_mem_bytes as usize;
        Ok(StockhamKernel {
            pair_carry_fits,
            radices,
            wide_index: self.wide((job.src, job.dst), [kernel.reach_in(), kernel.reach_out()]),
            streaming_store: kernel.stores_whole_vectors()
                && !self.same_storage(job.src, job.dst)
                && kernel_shape::streams_output(self.device, out_bytes * self.chunks),
            ..kernel
        })
    }

    /// An elementwise pass over the transforms of `job`, whose fft count is the transform length `n` of
    /// `ElementwiseKernel`.
    fn elementwise(&mut self, op: ElementwiseOp, job: Job) -> Result<Node> {
        let lone = side_lone_axis(&job);
        self.elementwise_with_lone(op, job, lone)
    }

    /// `elementwise`, with the transforms at coordinate 0 of `lone` storing no twin (see `Side::RealTwins`).
    fn elementwise_with_lone(&mut self, op: ElementwiseOp, job: Job, lone: Option<Axis>) -> Result<Node> {
        let job = Job { batch: merge_dims(&job.batch), ..job };
        let (input, output, batch) = self.physical(&job);
        let mut kernel = ElementwiseKernel {
            precision: self.problem.precision,
            op,
            n: job.fft.count,
            in_stride: input.fft,
            out_stride: output.fft,
            wide_index: false,
            batch,
            in_kind: input.kind,
            out_kind: output.kind,
            in_planar: input.planar,
            out_planar: output.planar,
            per_item: kernel_shape::elementwise_per_item(self.device),
            lone_dim: lone_dim(&job, lone)?,
            callbacks: Default::default(),
        };
        kernel.wide_index = self.wide((job.src, job.dst), [kernel.reach_in(), kernel.reach_out()]);
        let summary = format!("{op:?} n={} transforms={} {:?}->{:?}", kernel.n, kernel.transforms(), job.src, job.dst);
        Ok(self.push(KernelSpec::Elementwise(kernel), job.src, job.dst, summary))
    }

    /// Both sides of `job` in buffer strides, and its batch dimensions as a kernel sees them.
    fn physical(&self, job: &Job) -> (Resolved, Resolved, Vec<BatchDim>) {
        let (input, output) = self.resolve_job(job);
        let batch = job
            .batch
            .iter()
            .enumerate()
            .map(|(i, d)| BatchDim { count: d.count, in_stride: input.batch[i], out_stride: output.batch[i] })
            .collect();
        (input, output, batch)
    }

    fn push(&mut self, kernel: KernelSpec, src: BufRef, dst: BufRef, summary: String) -> Node {
        let kind = match kernel {
            KernelSpec::Stockham(_) => "Stockham",
            KernelSpec::Elementwise(_) => "Elementwise",
            KernelSpec::Transpose(_) => "Transpose",
        };
        self.steps.push(Step { kernel, src, dst });
        Node::Leaf { step: self.steps.len() - 1, kind, summary }
    }
}

/// The destination axis whose coordinate 0 holds the lone pairs of real transforms, when a side of `job` is
/// such pairs with an odd count.
fn side_lone_axis(job: &Job) -> Option<Axis> {
    [job.in_side, job.out_side].into_iter().find_map(|side| match side {
        Side::RealTwins { lone, .. } => lone,
        _ => None,
    })
}

/// The batch dimension (of the job as its kernel sees it) that runs along `lone_axis` on the destination.
fn lone_dim(job: &Job, lone_axis: Option<Axis>) -> Result<Option<usize>> {
    match lone_axis.map(|axis| job.batch.iter().position(|d| d.out_axis == axis)) {
        None => Ok(None),
        Some(Some(dim)) => Ok(Some(dim)),
        Some(None) => fail(ErrorKind::Bugcheck, "pairs of real transforms lost their twin dimension"),
    }
}

/// True when index arithmetic over `(reach, offset)` sides (offsets in complex elements) can pass 2^31 reals.
pub(crate) fn needs_wide_index(sides: [(Reach, usize); 2]) -> bool {
    sides.iter().any(|(r, offset)| (offset + r.positions) * if r.planar { 1 } else { 2 } >= i32::MAX as usize)
}

/// Joins neighbouring batch dimensions that continue each other's strides on both sides, and drops
/// dimensions of count 1.
fn merge_dims(dims: &[LogicalDim]) -> Vec<LogicalDim> {
    let mut out: Vec<LogicalDim> = Vec::new();
    for d in dims.iter().filter(|d| d.count > 1) {
        if let Some(last) = out.last_mut() {
            if (last.in_axis, last.out_axis) == (d.in_axis, d.out_axis)
                && d.in_mul == last.in_mul * last.count
                && d.out_mul == last.out_mul * last.count
            {
                last.count *= d.count;
                continue;
            }
        }
        out.push(*d);
    }
    out
}

fn describe(k: &StockhamKernel, src: BufRef, dst: BufRef) -> String {
    let radices: Vec<String> = k.radices.iter().map(|r| r.to_string()).collect();
    let plane = k.plane_n0.map_or(String::new(), |n0| format!(" plane {}x{n0}", k.n / n0));
    let batch: Vec<String> = k.batch.iter().map(|d| format!("{}@{}/{}", d.count, d.in_stride, d.out_stride)).collect();
    format!(
        "n={}{plane} radices={} lanes={} items={} slots={} per-item={} stride {}/{} batch [{}] {:?}->{:?}{}{}{}{}{}{}{}{}{}{}{}{}",
        k.n,
        if radices.is_empty() { "-".into() } else { radices.join("x") },
        k.lanes,
        k.items_per_slot,
        k.slots_per_group,
        k.slots_per_item,
        k.in_stride,
        k.out_stride,
        batch.join(", "),
        src,
        dst,
        if k.real_stage == RealStage::None { String::new() } else { format!(" {:?}", k.real_stage) },
        if k.post_twiddle.is_some() { " +twiddle" } else { "" },
        if k.streaming_store { " +stream" } else { "" },
        if k.rows_in_registers() { " +registers" } else { "" },
        if k.in_place_passes { " +in-place passes" } else { "" },
        if k.lanes_dft == LanesDft::None { "" } else { " +dft across lanes" },
        if k.slot_major_io { " +slot-major io" } else { "" },
        if k.pair_carry() { " +line carry" } else { "" },
        if k.load_factor.is_some() { " +load factor" } else { "" },
        if k.store_factor.is_some() { " +store factor" } else { "" },
        if k.mid_factor.is_some() { " +convolution" } else { "" },
        k.lone_dim.map_or(String::new(), |d| format!(" +lone twins on batch dim {d}"))
    )
}
