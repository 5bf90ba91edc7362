//! Problem + device facts -> an execution tree and the flat list of kernel steps it runs.
//!
//! The planner works on *jobs*: a batch of 1D FFTs along one axis, described in logical terms (a count and
//! a multiplier of some axis's stride in each buffer), so that the same job can be resolved against the
//! user's input and output layouts or the packed scratch layout. A job that fits one kernel becomes a
//! Stockham leaf; a longer one is split by four-step into two jobs, recursively.

pub mod factor;
mod fourstep;
pub mod leaf;
mod multidim;
pub mod tree;

use crate::codegen::stockham::{BatchDim, PostTwiddle, StockhamKernel};
use crate::codegen::Precision;
use crate::error::{fail, ErrorKind, Result};
use crate::runtime::DeviceInfo;
use std::borrow::Cow;
pub use tree::Node;

/// How one buffer is addressed: stride per axis and distance between batch entries, in complex elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferLayout {
    pub strides: Vec<usize>,
    pub dist: usize,
    pub planar: bool,
}

impl BufferLayout {
    /// The packed interleaved layout of `lengths` (the scratch layout).
    pub fn packed(lengths: &[usize]) -> Self {
        let mut strides = Vec::with_capacity(lengths.len());
        let mut s = 1;
        for &l in lengths {
            strides.push(s);
            s *= l;
        }
        BufferLayout {
            strides,
            dist: s,
            planar: false,
        }
    }

    fn stride(&self, axis: Axis) -> usize {
        match axis {
            Axis::Dim(a) => self.strides[a],
            Axis::Batch => self.dist,
        }
    }
}

/// A buffer a step reads or writes. Scratch regions each hold one packed copy of the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufRef {
    Input,
    Output,
    Tmp(usize),
}

/// A complex-to-complex transform as the planner sees it.
#[derive(Debug, Clone)]
pub struct Problem {
    pub precision: Precision,
    /// Lengths, fastest axis first.
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub input: BufferLayout,
    pub output: BufferLayout,
    /// Input and output are the same storage.
    pub in_place: bool,
}

impl Problem {
    /// Complex elements in one packed copy of the data.
    pub fn elements(&self) -> usize {
        self.lengths.iter().product::<usize>() * self.batch
    }

    fn layout(&self, buffer: BufRef) -> Cow<'_, BufferLayout> {
        match buffer {
            BufRef::Input => Cow::Borrowed(&self.input),
            BufRef::Output => Cow::Borrowed(&self.output),
            BufRef::Tmp(_) => Cow::Owned(BufferLayout::packed(&self.lengths)),
        }
    }
}

/// One kernel launch and the buffers it connects.
#[derive(Debug, Clone)]
pub struct Step {
    pub kernel: StockhamKernel,
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

/// Plans `problem` for `device`.
pub fn plan(problem: &Problem, device: &DeviceInfo) -> Result<ExecPlan> {
    if problem.lengths.is_empty() || problem.lengths.iter().chain([&problem.batch]).any(|&l| l == 0) {
        return fail(ErrorKind::InvalidArgValue, "lengths and batch must be at least 1");
    }
    if let Some(&bad) = problem.lengths.iter().find(|&&l| !factor::is_smooth(l)) {
        return fail(
            ErrorKind::NotImplemented,
            format!("length {bad} has a prime factor above 13, which the mixed-radix engine does not take"),
        );
    }
    let mut ctx = Ctx {
        problem,
        device,
        steps: Vec::new(),
        tmp_regions: 0,
    };
    let tree = multidim::plan(&mut ctx)?;
    Ok(ExecPlan {
        tree,
        steps: ctx.steps,
        tmp_regions: ctx.tmp_regions,
        region_elements: problem.elements(),
    })
}

/// The axis a logical dimension runs along: one of the transform axes, or the batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Axis {
    Dim(usize),
    Batch,
}

/// `count` positions along `axis`, `in_mul` (`out_mul`) times that axis's stride apart in the source
/// (destination) buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LogicalDim {
    count: usize,
    axis: Axis,
    in_mul: usize,
    out_mul: usize,
}

/// A batch of 1D FFTs: `fft` is the transformed dimension, `batch` the others, dimension 0 innermost.
#[derive(Debug, Clone)]
struct Job {
    fft: LogicalDim,
    batch: Vec<LogicalDim>,
    post_twiddle: Option<PostTwiddle>,
    src: BufRef,
    dst: BufRef,
}

struct Ctx<'a> {
    problem: &'a Problem,
    device: &'a DeviceInfo,
    steps: Vec<Step>,
    tmp_regions: usize,
}

impl Ctx<'_> {
    /// A scratch region that is neither of `busy`.
    fn free_tmp(&mut self, busy: &[BufRef]) -> BufRef {
        let region = (0..).find(|&i| !busy.contains(&BufRef::Tmp(i))).unwrap_or(0);
        self.tmp_regions = self.tmp_regions.max(region + 1);
        BufRef::Tmp(region)
    }

    /// A leaf for the job if one kernel can take it, otherwise a four-step decomposition.
    fn plan_job(&mut self, job: Job) -> Result<Node> {
        if job.fft.count <= leaf::max_leaf(self.device, self.problem.precision) {
            self.leaf(job)
        } else {
            fourstep::plan(self, job)
        }
    }

    fn leaf(&mut self, mut job: Job) -> Result<Node> {
        if job.post_twiddle.is_none() {
            job.batch = merge_dims(&job.batch);
        }
        if job.batch.len() > 6 {
            return fail(
                ErrorKind::NotImplemented,
                "more than six batch dimensions in one kernel",
            );
        }
        let problem = self.problem;
        let (src, dst) = (problem.layout(job.src), problem.layout(job.dst));
        let n = job.fft.count;
        let radices = factor::radices(n);
        let batch: Vec<BatchDim> = job
            .batch
            .iter()
            .map(|d| BatchDim {
                count: d.count,
                in_stride: d.in_mul * src.stride(d.axis),
                out_stride: d.out_mul * dst.stride(d.axis),
            })
            .collect();
        let transforms: usize = batch.iter().map(|d| d.count).product();
        let shape = leaf::shape(n, &radices, transforms, self.device, problem.precision);
        let in_stride = job.fft.in_mul * src.stride(job.fft.axis);
        let out_stride = job.fft.out_mul * dst.stride(job.fft.axis);
        let extent = |stride: usize, offset: usize, pick: fn(&BatchDim) -> usize| {
            offset + (n - 1) * stride + batch.iter().map(|d| (d.count - 1) * pick(d)).sum::<usize>()
        };
        let region = problem.elements();
        let offset_of = |b: BufRef| if let BufRef::Tmp(i) = b { i * region } else { 0 };
        let wide_index =
            extent(in_stride, offset_of(job.src), |d| d.in_stride)
                .max(extent(out_stride, offset_of(job.dst), |d| d.out_stride))
                >= u32::MAX as usize / 2;
        let kernel = StockhamKernel {
            precision: problem.precision,
            n,
            radices,
            lanes: shape.lanes,
            items_per_slot: shape.items_per_slot,
            slots_per_group: shape.slots_per_group,
            pad_shift: shape.pad_shift,
            in_stride,
            out_stride,
            batch,
            in_planar: src.planar,
            out_planar: dst.planar,
            post_twiddle: job.post_twiddle,
            wide_index,
        };
        let summary = describe(&kernel, job.src, job.dst);
        self.steps.push(Step {
            kernel,
            src: job.src,
            dst: job.dst,
        });
        Ok(Node::Stockham {
            step: self.steps.len() - 1,
            summary,
        })
    }
}

/// Joins neighbouring batch dimensions that continue each other's strides on both sides, and drops
/// dimensions of count 1.
fn merge_dims(dims: &[LogicalDim]) -> Vec<LogicalDim> {
    let mut out: Vec<LogicalDim> = Vec::new();
    for d in dims.iter().filter(|d| d.count > 1) {
        if let Some(last) = out.last_mut() {
            if last.axis == d.axis && d.in_mul == last.in_mul * last.count && d.out_mul == last.out_mul * last.count {
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
    let batch: Vec<String> = k
        .batch
        .iter()
        .map(|d| format!("{}@{}/{}", d.count, d.in_stride, d.out_stride))
        .collect();
    format!(
        "n={} radices={} lanes={} items={} slots={} stride {}/{} batch [{}] {:?}->{:?}{}",
        k.n,
        if radices.is_empty() {
            "-".into()
        } else {
            radices.join("x")
        },
        k.lanes,
        k.items_per_slot,
        k.slots_per_group,
        k.in_stride,
        k.out_stride,
        batch.join(", "),
        src,
        dst,
        if k.post_twiddle.is_some() { " +twiddle" } else { "" }
    )
}
