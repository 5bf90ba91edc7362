//! Execution-tree leaves become OpenCL programs: the sources in `kernels/` specialised by a block of
//! `#define`s, plus the twiddle tables they read.

pub mod bluestein;
pub mod callback;
pub mod elementwise;
pub mod rader;
pub mod radix;
pub mod slab_twiddle;
pub mod stockham;
pub mod transpose;
pub mod twiddle;

use crate::runtime::cache::ProgramText;
/// Shared with the kernel generators below (`super::Precision`).
use crate::types::Precision;
use std::fmt::Write;

/// A kernel ready to build: its entry point and the complete source (defines included, so a dumped program
/// is self-contained). Its build options are the program cache's (`runtime::cache::build_options`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelSource {
    pub entry: &'static str,
    pub source: String,
    /// The source holds a user's code (a callback), which may call any builtin: it needs the full builtin
    /// header, where fftx's own code needs only `kernels/builtins.cl` (`runtime::cache`).
    pub user_code: bool,
}

impl KernelSource {
    /// A program of fftx's own code only.
    pub fn own(entry: &'static str, source: String) -> KernelSource {
        KernelSource { entry, source, user_code: false }
    }

    /// The text the program cache builds.
    pub fn text(&self) -> ProgramText<'_> {
        ProgramText { source: &self.source, user_code: self.user_code }
    }
}

const BUILTINS_CL: &str = include_str!("../../kernels/builtins.cl");
const COMMON_CL: &str = include_str!("../../kernels/common.cl");
const LANES_CL: &str = include_str!("../../kernels/lanes.cl");
const BUTTERFLIES_CL: &str = include_str!("../../kernels/butterflies.cl");
const ACCESS_CL: &str = include_str!("../../kernels/access.cl");
const LAYOUT_CL: &str = include_str!("../../kernels/layout.cl");
const ELEMENTWISE_CL: &str = include_str!("../../kernels/elementwise.cl");
const REAL_CL: &str = include_str!("../../kernels/real.cl");
/// The Stockham leaf, by concern, in the order it is assembled: shared shape, passes, four-step twiddle,
/// elementwise factors, real stages, column and row pairs, load, store, transforms in registers, the kernel.
const STOCKHAM_CL: [&str; 10] = [
    include_str!("../../kernels/stockham.cl"),
    include_str!("../../kernels/stockham_passes.cl"),
    include_str!("../../kernels/stockham_twiddle.cl"),
    include_str!("../../kernels/stockham_factors.cl"),
    include_str!("../../kernels/stockham_real.cl"),
    include_str!("../../kernels/stockham_pairs.cl"),
    include_str!("../../kernels/stockham_load.cl"),
    include_str!("../../kernels/stockham_store.cl"),
    include_str!("../../kernels/stockham_registers.cl"),
    include_str!("../../kernels/stockham_kernel.cl"),
];

/// One kernel of a plan: a Stockham leaf, an elementwise pass or a transpose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelSpec {
    Stockham(Box<stockham::StockhamKernel>),
    Elementwise(elementwise::ElementwiseKernel),
    Transpose(transpose::TransposeKernel),
}

impl KernelSpec {
    pub fn source(&self) -> KernelSource {
        match self {
            KernelSpec::Stockham(k) => k.source(),
            KernelSpec::Elementwise(k) => k.source(),
            KernelSpec::Transpose(k) => k.source(),
        }
    }

    pub fn params(&self) -> Vec<u64> {
        match self {
            KernelSpec::Stockham(k) => k.params(),
            KernelSpec::Elementwise(k) => k.params(),
            KernelSpec::Transpose(k) => k.params(),
        }
    }

    pub fn twiddles(&self) -> Vec<(f64, f64)> {
        match self {
            KernelSpec::Stockham(k) => k.twiddles(),
            KernelSpec::Elementwise(k) => k.twiddles(),
            KernelSpec::Transpose(k) => k.twiddles(),
        }
    }

    pub fn work_size(&self) -> ([usize; 2], [usize; 2]) {
        match self {
            KernelSpec::Stockham(k) => k.work_size(),
            KernelSpec::Elementwise(k) => k.work_size(),
            KernelSpec::Transpose(k) => k.work_size(),
        }
    }

    /// Work-groups one launch runs.
    pub fn work_groups(&self) -> usize {
        let (global, local) = self.work_size();
        global.iter().zip(local).map(|(g, l)| g.div_ceil(l.max(1))).product()
    }

    /// How far the kernel reaches into its input and its output buffer, in bytes from the offsets it is
    /// given: every position it reads or writes lies below. Checked against the real buffers before launch.
    pub fn reach_bytes(&self) -> (usize, usize) {
        let (precision, input, output) = match self {
            KernelSpec::Stockham(k) => (k.precision, k.reach_in(), k.reach_out()),
            KernelSpec::Elementwise(k) => (k.precision, k.reach_in(), k.reach_out()),
            KernelSpec::Transpose(k) => (k.precision, k.reach_in(), k.reach_out()),
        };
        (input.bytes(precision), output.bytes(precision))
    }

    /// The user's callbacks in the kernel's loads and stores.
    pub fn callbacks(&self) -> &callback::FusedCallbacks {
        match self {
            KernelSpec::Stockham(k) => &k.callbacks,
            KernelSpec::Elementwise(k) => &k.callbacks,
            KernelSpec::Transpose(k) => &k.callbacks,
        }
    }

    pub fn callbacks_mut(&mut self) -> &mut callback::FusedCallbacks {
        match self {
            KernelSpec::Stockham(k) => &mut k.callbacks,
            KernelSpec::Elementwise(k) => &mut k.callbacks,
            KernelSpec::Transpose(k) => &mut k.callbacks,
        }
    }

    pub fn wide_index(&self) -> bool {
        match self {
            KernelSpec::Stockham(k) => k.wide_index,
            KernelSpec::Elementwise(k) => k.wide_index,
            KernelSpec::Transpose(k) => k.wide_index,
        }
    }
}

/// One past the furthest position a kernel touches on one side, in that side's element units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pub positions: usize,
    pub kind: stockham::ElementKind,
    pub planar: bool,
}

impl Reach {
    /// Positions of interleaved complex data are complex values; everything else counts reals.
    pub fn bytes(&self, precision: Precision) -> usize {
        let complex = self.kind == stockham::ElementKind::Complex && !self.planar;
        self.positions * if complex { precision.complex_bytes() } else { precision.real_bytes() }
    }

    /// The reach of `count` elements `stride` apart in every transform of `batch` (strides from `pick`).
    pub fn of(
        count: usize,
        stride: usize,
        batch: &[stockham::BatchDim],
        pick: fn(&stockham::BatchDim) -> usize,
        kind: stockham::ElementKind,
        planar: bool,
    ) -> Reach {
        let half = match kind {
            stockham::ElementKind::RealPairs { half } => half,
            _ => 0,
        };
        let last = batch.iter().map(|d| (d.count - 1) * pick(d)).sum::<usize>() + (count.max(1) - 1) * stride + half;
        Reach { positions: last + 1, kind, planar }
    }
}

/// Collects `#define NAME VALUE` lines ahead of the kernel files.
#[derive(Default)]
pub(crate) struct Defines(String);

impl Defines {
    pub fn set(&mut self, name: &str, value: impl std::fmt::Display) -> &mut Self {
        let _ = writeln!(self.0, "#define {name} {value}");
        self
    }

    pub fn flag(&mut self, name: &str, on: bool) -> &mut Self {
        self.set(name, on as u8)
    }

    /// The program text: defines, the builtins fftx calls (declared only where the build asks), then the
    /// given kernel files in order.
    pub fn program(&self, files: &[&str]) -> String {
        let mut source = String::from("/* generated by fftx */\n");
        source.push_str(&self.0);
        source.push_str(BUILTINS_CL);
        for file in files {
            source.push_str(file);
            source.push('\n');
        }
        source
    }
}
