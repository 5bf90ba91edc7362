//! What the user asked for: a plan's settings with clFFT's defaults and semantics, their validation into a
//! planner problem, baking (programs and tables) and execution.

pub mod cufft;
mod exec;
pub mod library;
pub mod outofcore;
pub mod registry;
mod spread;
pub mod transpose;

use crate::codegen::callback::UserCallback;
use crate::error::{fail, Error, ErrorKind, Result};
use crate::planner::transpose::{transposable_in_place, TransposeProblem};
use crate::planner::tuning::Tuning;
use crate::planner::BufRef;
use crate::planner::{packed_strides, BufferLayout, Problem};
use crate::runtime::cl::{RawEvent, RawMem};
use crate::runtime::{Arg, Buffer, Context, Event, Kernel, Queue};
use crate::types::{Precision, TransformKind};
pub use exec::Baked;
pub use spread::shares;
use spread::Spread;

/// Data layouts, with clFFT's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    ComplexInterleaved = 1,
    ComplexPlanar = 2,
    HermitianInterleaved = 3,
    HermitianPlanar = 4,
    Real = 5,
}

impl Layout {
    pub fn from_raw(value: i32) -> Option<Layout> {
        Some(match value {
            1 => Layout::ComplexInterleaved,
            2 => Layout::ComplexPlanar,
            3 => Layout::HermitianInterleaved,
            4 => Layout::HermitianPlanar,
            5 => Layout::Real,
            _ => return None,
        })
    }

    pub fn is_planar(self) -> bool {
        matches!(self, Layout::ComplexPlanar | Layout::HermitianPlanar)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
}

/// A plan's settings, as the clFFT accessors see them.
#[derive(Debug, Clone)]
pub struct Settings {
    pub context: Context,
    /// One length per dimension, fastest first.
    pub lengths: Vec<usize>,
    pub in_strides: Vec<usize>,
    pub out_strides: Vec<usize>,
    pub in_dist: usize,
    pub out_dist: usize,
    pub in_layout: Layout,
    pub out_layout: Layout,
    pub precision: Precision,
    pub in_place: bool,
    pub batch: usize,
    pub forward_scale: f64,
    pub backward_scale: f64,
    pub transposed: bool,
    /// The no-allocation mode for this plan (`fftxSetPlanNoMemAlloc`); `None` follows the library's
    /// (`CLFFT_REQUEST_LIB_NOMEMALLOC` at `clfftSetup`) when the plan is baked.
    pub no_mem_alloc: Option<bool>,
    /// clFFT's callbacks (`clfftSetPlanCallback`): one computing each input element, one receiving each result.
    pub pre_callback: Option<Callback>,
    pub post_callback: Option<Callback>,
    /// The planner's overrides (`fftxClfftSetPlanTuning`, or `FFTX_TUNE` where the API made the plan).
    pub tuning: Tuning,
}

/// A user's OpenCL C function that a plan calls for each element of one side (see `codegen::callback`).
#[derive(Debug, Clone)]
pub struct Callback {
    pub function: String,
    /// The function's code, with any declarations it needs.
    pub code: String,
    /// Bytes of `__local` memory passed as its last argument; 0 passes none.
    pub local_bytes: usize,
    /// Its user-data buffer, retained while the plan holds it.
    pub userdata: Option<Buffer>,
}

impl Callback {
    /// The callback as the kernels that call it are generated with.
    pub fn user_callback(&self) -> UserCallback {
        UserCallback { function: self.function.clone(), code: self.code.clone(), local_mem: self.local_bytes > 0 }
    }
}

/// Checks lengths as a plan takes them: none zero, and a product that fits the address space in bytes.
pub fn check_lengths(lengths: &[usize]) -> Result<()> {
    if lengths.contains(&0) {
        return fail(ErrorKind::InvalidArgValue, "a length is zero");
    }
    if lengths.iter().try_fold(16usize, |a, &l| a.checked_mul(l)).is_none() {
        return fail(ErrorKind::InvalidArgValue, format!("the lengths {lengths:?} overflow the address space"));
    }
    Ok(())
}

/// One past the last element `lengths` x `batch` reach with `strides` and `dist`; `None` on overflow.
fn reach(lengths: &[usize], strides: &[usize], dist: usize, batch: usize) -> Option<usize> {
    let mut last = (batch - 1).checked_mul(dist)?;
    for (l, s) in lengths.iter().zip(strides) {
        last = last.checked_add((l - 1).checked_mul(*s)?)?;
    }
    last.checked_add(1)
}

/// True when no two elements of `lengths` x `batch` share a position: taken by increasing stride (the batch
/// an axis of stride `dist`), each axis must step over everything the axes below it reach. Axes of length 1
/// take no room. This admits every packed, padded, interleaved-batch and transposed layout.
pub fn disjoint(lengths: &[usize], strides: &[usize], dist: usize, batch: usize) -> bool {
    let mut axes: Vec<(usize, usize)> =
        lengths.iter().zip(strides).map(|(&l, &s)| (s, l)).chain([(dist, batch)]).filter(|&(_, l)| l > 1).collect();
    axes.sort_unstable();
    let mut covered = 1usize;
    for (stride, length) in axes {
        if stride < covered {
            return false;
        }
        covered = covered.saturating_add((length - 1).saturating_mul(stride));
    }
    true
}

impl Settings {
    /// clFFT's defaults: single precision, interleaved, in place, batch 1, packed strides and distances,
    /// forward scale 1 and backward scale 1/N.
    pub fn new(context: Context, lengths: &[usize]) -> Settings {
        let total: usize = lengths.iter().product();
        Settings {
            context,
            lengths: lengths.to_vec(),
            in_strides: packed_strides(lengths),
            out_strides: packed_strides(lengths),
            in_dist: total,
            out_dist: total,
            in_layout: Layout::ComplexInterleaved,
            out_layout: Layout::ComplexInterleaved,
            precision: Precision::Single,
            in_place: true,
            batch: 1,
            forward_scale: 1.0,
            backward_scale: 1.0 / total as f64,
            transposed: false,
            no_mem_alloc: None,
            pre_callback: None,
            post_callback: None,
            tuning: Tuning::default(),
        }
    }

    pub fn dim(&self) -> usize {
        self.lengths.len()
    }

    /// Changes the dimension: lengths and strides grow (with 1 and packed strides) or shrink to match.
    pub fn set_dim(&mut self, dim: usize) {
        let grow = |v: &mut Vec<usize>, fill: &dyn Fn(&[usize]) -> usize| {
            while v.len() < dim {
                let value = fill(v);
                v.push(value);
            }
            v.truncate(dim);
        };
        grow(&mut self.lengths, &|_| 1);
        let lengths = self.lengths.clone();
        let next_stride = |v: &[usize]| v.last().map_or(1, |s| s * lengths[v.len() - 1]);
        grow(&mut self.in_strides, &next_stride);
        grow(&mut self.out_strides, &next_stride);
    }

    /// The kind of transform the layouts describe.
    pub fn kind(&self) -> Result<TransformKind> {
        use Layout::*;
        match (self.in_layout, self.out_layout) {
            (ComplexInterleaved | ComplexPlanar, ComplexInterleaved | ComplexPlanar) => Ok(TransformKind::C2C),
            (Real, HermitianInterleaved | HermitianPlanar) => Ok(TransformKind::R2C),
            (HermitianInterleaved | HermitianPlanar, Real) => Ok(TransformKind::C2R),
            (i, o) => fail(ErrorKind::NotImplemented, format!("no transform goes from layout {i:?} to {o:?}")),
        }
    }

    /// The direction a transform runs in: real input is always forward, real output always backward.
    pub fn effective_direction(&self, asked: Direction) -> Direction {
        match self.kind() {
            Ok(TransformKind::R2C) => Direction::Forward,
            Ok(TransformKind::C2R) => Direction::Backward,
            _ => asked,
        }
    }

    /// The transform this plan describes, validated, as the planner sees it.
    pub fn problem(&self) -> Result<Problem> {
        let dim = self.dim();
        if !(1..=3).contains(&dim) {
            return fail(ErrorKind::InvalidArgValue, format!("dimension {dim} is not 1, 2 or 3"));
        }
        if self.lengths.contains(&0) {
            return fail(ErrorKind::InvalidArgValue, "a length is zero");
        }
        let kind = self.kind()?;
        // A zero input stride reads one value for a whole axis, as clFFT does; a zero output stride would write
        // a whole axis's results to one place.
        let strides = |given: &[usize], zero_allowed: bool| -> Result<Vec<usize>> {
            let mut s = given.to_vec();
            s.truncate(dim);
            let packed = packed_strides(&self.lengths);
            while s.len() < dim {
                s.push(packed[s.len()]);
            }
            if !zero_allowed && s.contains(&0) {
                return fail(ErrorKind::InvalidArgValue, "an output stride is zero");
            }
            Ok(s)
        };
        let in_strides = strides(&self.in_strides, true)?;
        let mut out_strides = strides(&self.out_strides, false)?;
        // With both distances zero every transform of the batch reads the same input and writes the same
        // result to the same place, which clFFT computes: one transform does it. A batch of zero runs nothing
        // (`Plan::enqueue`) and is checked and baked as one transform.
        let batch = if self.in_dist == 0 && self.out_dist == 0 { 1 } else { self.batch.max(1) };
        // In place, a real transform whose real and complex rows do not coincide reads a copy of its input
        // (`Baked`), so the planner sees it out of place.
        let rows_coincide = !self.in_place || self.check_in_place(kind, &in_strides, &out_strides)?;
        if self.transposed {
            if dim != 2 || kind.is_real() {
                return fail(
                    ErrorKind::TransposedNotImplemented,
                    "a transposed result is only available for 2D complex plans",
                );
            }
            if self.in_place {
                // The transform runs in place as usual; `in_place_transpose` then transposes its results.
                let packed = in_strides == packed_strides(&self.lengths)
                    && (self.batch == 1 || self.in_dist == self.lengths[0] * self.lengths[1]);
                if !packed {
                    return fail(
                        ErrorKind::TransposedNotImplemented,
                        "an in-place transposed result needs packed data (strides [1, N0], distance N0 N1)",
                    );
                }
                transposable_in_place(self.lengths[1], self.lengths[0])
                    .map_err(|e| Error { kind: ErrorKind::TransposedNotImplemented, ..e })?;
                if self.post_callback.is_some() {
                    return fail(
                        ErrorKind::TransposedNotImplemented,
                        "a post-callback receives the results where the transform leaves them: not with an \
                         in-place transposed result",
                    );
                }
            } else {
                // The output array is the transpose: element (k0, k1) sits at k1 * os[0] + k0 * os[1]. clFFT
                // accepts only the packed strides of the plan's lengths, [1, N0] (its default), and writes the
                // packed N1 x N0 transpose with them, as [1, N1] would here.
                if out_strides == packed_strides(&self.lengths) {
                    out_strides[1] = self.lengths[1];
                }
                out_strides.swap(0, 1);
            }
        }
        if batch > 1 && self.out_dist == 0 {
            return fail(ErrorKind::InvalidArgValue, "the output distance is zero with a batch above 1");
        }
        let complex_lengths = {
            let mut l = self.lengths.clone();
            if kind.is_real() {
                l[0] = l[0] / 2 + 1;
            }
            l
        };
        let (in_lengths, out_lengths) = match kind {
            TransformKind::C2R => (&complex_lengths, &self.lengths),
            TransformKind::R2C => (&self.lengths, &complex_lengths),
            TransformKind::C2C => (&self.lengths, &self.lengths),
        };
        for (lengths, strides, dist, side) in
            [(in_lengths, &in_strides, self.in_dist, "input"), (out_lengths, &out_strides, self.out_dist, "output")]
        {
            if reach(lengths, strides, dist, batch).and_then(|r| r.checked_mul(16)).is_none() {
                return fail(
                    ErrorKind::InvalidArgValue,
                    format!("the {side} lengths, strides, distance and batch overflow the address space"),
                );
            }
        }
        // Two results written to one place would race; reading one input twice is harmless.
        if !disjoint(out_lengths, &out_strides, self.out_dist, batch) {
            return fail(
                ErrorKind::InvalidPlan,
                format!(
                    "the output strides {out_strides:?} and distance {} place two of the {out_lengths:?} x {} \
                     results at one position",
                    self.out_dist, batch
                ),
            );
        }
        // Length-1 axes carry no work; drop them as clFFT does (keeping the real axis of real transforms,
        // and at least one axis).
        let keep: Vec<usize> = (0..dim).filter(|&a| self.lengths[a] > 1 || (a == 0 && kind.is_real())).collect();
        let keep = if keep.is_empty() { vec![0] } else { keep };
        let pick = |v: &[usize]| keep.iter().map(|&a| v[a]).collect::<Vec<_>>();
        Ok(Problem {
            precision: self.precision,
            kind,
            lengths: pick(&self.lengths),
            batch,
            input: BufferLayout { strides: pick(&in_strides), dist: self.in_dist, planar: self.in_layout.is_planar() },
            output: BufferLayout {
                strides: pick(&out_strides),
                dist: self.out_dist,
                planar: self.out_layout.is_planar(),
            },
            in_place: self.in_place && rows_coincide,
            no_scratch: self.no_mem_alloc.unwrap_or_else(library::no_mem_alloc),
        })
    }

    /// The transpose that follows an in-place transform whose result is transposed (a 2D complex plan on packed
    /// data, which `problem` checks): each transform's N1 x N0 values become their packed N0 x N1 transpose in
    /// the same buffer, as clFFT leaves them.
    pub fn in_place_transpose(&self) -> Option<TransposeProblem> {
        (self.transposed && self.in_place).then(|| TransposeProblem {
            precision: self.precision,
            rows: self.lengths[1],
            cols: self.lengths[0],
            batch: self.batch,
            planar: self.in_layout.is_planar(),
            in_place: true,
            tuning: self.tuning,
        })
    }

    /// In place, complex transforms need equal input and output layouts, as clFFT does. Real transforms take
    /// any strides and distances (clFFT's tests run in-place real layouts of unrelated strides); the answer is
    /// whether their rows of reals coincide with their rows of complex values (real strides twice the complex
    /// ones beyond axis 0, unit strides along it, as clFFT and FFTW lay out padded real arrays), which the
    /// kernels then transform where they lie.
    fn check_in_place(&self, kind: TransformKind, in_strides: &[usize], out_strides: &[usize]) -> Result<bool> {
        if self.in_layout == Layout::HermitianPlanar || self.out_layout == Layout::HermitianPlanar {
            return fail(ErrorKind::InvalidPlan, "in-place transforms cannot use a planar Hermitian layout");
        }
        let (real, complex, real_dist, complex_dist) = match kind {
            TransformKind::C2C => {
                if in_strides != out_strides || self.in_dist != self.out_dist || self.in_layout != self.out_layout {
                    return fail(
                        ErrorKind::InvalidPlan,
                        "in-place transforms need equal input and output layouts, strides and distances",
                    );
                }
                return Ok(true);
            }
            TransformKind::R2C => (in_strides, out_strides, self.in_dist, self.out_dist),
            TransformKind::C2R => (out_strides, in_strides, self.out_dist, self.in_dist),
        };
        Ok(real[0] == 1
            && complex[0] == 1
            && real[1..].iter().zip(&complex[1..]).all(|(r, c)| *r == 2 * c)
            && (self.batch == 1 || real_dist == 2 * complex_dist))
    }

    pub fn scale(&self, direction: Direction) -> f64 {
        match direction {
            Direction::Forward => self.forward_scale,
            Direction::Backward => self.backward_scale,
        }
    }
}

/// A plan: its settings and, once baked, the compiled form. Any change to the settings drops the bake.
pub struct Plan {
    settings: Settings,
    baked: Option<Baked>,
    /// An out-of-place plan's in-place bake, for callers that pass the same buffers as input and output
    /// (clFFT transforms those): baked at the first such call.
    in_place_twin: Option<Baked>,
    /// The clFFT handle of a plan in the registry: what `CLFFT_DUMP_PROGRAMS` names its files after.
    handle: Option<usize>,
    /// The batch's shares for the devices of the last queue array that spread it.
    spread: Option<Spread>,
}

impl Plan {
    pub fn new(settings: Settings) -> Plan {
        Plan { settings, baked: None, in_place_twin: None, handle: None, spread: None }
    }

    /// The plan as the registry holds it under `handle`, which names its dumped programs.
    pub fn with_handle(self, handle: usize) -> Plan {
        Plan { handle: Some(handle), ..self }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Settings for modification; the bake is invalidated.
    pub fn settings_mut(&mut self) -> &mut Settings {
        self.baked = None;
        self.in_place_twin = None;
        self.spread = None;
        &mut self.settings
    }

    pub fn baked(&self) -> Option<&Baked> {
        self.baked.as_ref()
    }

    /// Bakes for the device of `queue` unless already baked; writes the programs out when clFFT's setup asked.
    pub fn bake(&mut self, queue: &crate::runtime::Queue) -> Result<&mut Baked> {
        let baked = match self.baked.take() {
            Some(baked) => baked,
            None => {
                let baked = Baked::new(&self.settings, queue)?;
                if let Some(handle) = self.handle.filter(|_| library::debug_flags() & library::DUMP_PROGRAMS != 0) {
                    match queue.device().and_then(crate::runtime::device_info) {
                        Ok(device) => library::dump_programs(handle, &baked.sources(), &device),
                        // The dump only serves debugging: the bake stands.
                        Err(e) => crate::log!(crate::log::Topic::Error, "CLFFT_DUMP_PROGRAMS: {e}"),
                    }
                }
                baked
            }
        };
        Ok(self.baked.insert(baked))
    }

    /// Runs the transform as clFFT's `clfftEnqueueTransform` does: baked first if need be, in the direction
    /// the layouts decide for real transforms (whatever `direction` says), and `output` ignored in place. An
    /// out-of-place plan given its input buffers as output runs in place where its layouts allow an in-place
    /// plan; otherwise its bake reads a copy of the input (`Baked::enqueue`).
    #[allow(clippy::too_many_arguments)]
    pub fn enqueue(
        &mut self,
        direction: Direction,
        queue: &crate::runtime::Queue,
        wait: &[RawEvent],
        input: &[RawMem],
        output: &[RawMem],
        tmp: Option<RawMem>,
    ) -> Result<Event> {
        let direction = self.settings.effective_direction(direction);
        let scale = self.settings.scale(direction);
        let batch = self.settings.batch;
        let baked = self.bake(queue)?;
        if batch == 0 {
            // No transform to run, and no byte of the buffers to reach: an event that completes after `wait`.
            baked.check_queue(queue)?;
            return crate::runtime::cl::enqueue_marker(queue.raw(), wait);
        }
        if !self.settings.in_place && same_planes(input, output, self.settings.in_layout.is_planar())? {
            let twin = Settings { in_place: true, ..self.settings.clone() };
            if twin.problem().is_ok_and(|p| p.in_place) {
                let twin = match self.in_place_twin.take() {
                    Some(twin) => twin,
                    None => {
                        crate::log!(
                            crate::log::Topic::Info,
                            "an out-of-place plan is given its input as output: it runs in place"
                        );
                        Baked::new(&twin, queue)?
                    }
                };
                return self.in_place_twin.insert(twin).enqueue(direction, scale, queue, wait, input, &[], tmp);
            }
        }
        self.bake(queue)?.enqueue(direction, scale, queue, wait, input, output, tmp)
    }
}

impl Plan {
    /// Bakes for the devices of `queues`: the whole plan for the first, and where the queues hold several
    /// devices, the batch's shares for each (`spread`).
    pub fn bake_on(&mut self, queues: &[crate::runtime::Queue]) -> Result<()> {
        let first = queues.first().ok_or_else(|| Error::new(ErrorKind::InvalidCommandQueue, "no command queue"))?;
        self.bake(first)?;
        if queues.len() > 1 && !self.spread.as_ref().map_or(Ok(false), |s| s.made_for(queues))? {
            self.spread = Spread::new(&self.settings, queues)?;
        }
        Ok(())
    }

    /// The shares of the batch the last queue array spread it in, as (first transform, count) per device;
    /// empty where no array spread it.
    pub fn spread_shares(&self) -> Vec<(usize, usize)> {
        self.spread.as_ref().map_or_else(Vec::new, |s| s.shares())
    }

    /// `enqueue` on an array of queues: where they hold several devices and the batch splits among them, each
    /// device runs its share, and every queue gets an event that completes with the whole transform; otherwise
    /// the first queue runs it all, and every queue gets its event. Returns one event per queue.
    #[allow(clippy::too_many_arguments)]
    pub fn enqueue_on(
        &mut self,
        direction: Direction,
        queues: &[crate::runtime::Queue],
        wait: &[RawEvent],
        input: &[RawMem],
        output: &[RawMem],
        tmp: Option<RawMem>,
    ) -> Result<Vec<Event>> {
        let first = queues.first().ok_or_else(|| Error::new(ErrorKind::InvalidCommandQueue, "no command queue"))?;
        let given_input_as_output =
            !self.settings.in_place && same_planes(input, output, self.settings.in_layout.is_planar())?;
        if queues.len() > 1 && self.settings.batch > 1 && !given_input_as_output {
            self.bake_on(queues)?;
            let whole = self.bake(first)?;
            whole.check_buffers(input, output)?;
            let direction = self.settings.effective_direction(direction);
            if let Some(spread) = &mut self.spread {
                return spread.enqueue(direction, queues, wait, input, output);
            }
        }
        let event = self.enqueue(direction, first, wait, input, output, tmp)?;
        Ok(vec![event; queues.len()])
    }
}

/// True when `output` names the same planes as `input`, each at the same place in the same buffer.
fn same_planes(input: &[RawMem], output: &[RawMem], planar: bool) -> Result<bool> {
    let planes = if planar { 2 } else { 1 };
    if input.len() < planes
        || output.len() < planes
        || input[..planes].iter().chain(&output[..planes]).any(|m| m.is_null())
    {
        return Ok(false);
    }
    for (&i, &o) in input[..planes].iter().zip(&output[..planes]) {
        if Buffer::place_of_raw(i)? != Buffer::place_of_raw(o)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// One baked kernel launch: the kernel, its tables and sizes, and where it reads and writes. The Stockham,
/// elementwise and transpose kernels share one signature, so `bind` serves them all.
pub(crate) struct KernelLaunch {
    pub kernel: Kernel,
    pub table: Buffer,
    pub params: Buffer,
    pub global: [usize; 2],
    pub local: [usize; 2],
    pub src: BufRef,
    pub dst: BufRef,
    pub src_offset: usize,
    pub dst_offset: usize,
    pub wide_index: bool,
}

/// The arguments every plan kernel takes; fused callbacks take theirs after these.
pub(crate) const KERNEL_ARGS: usize = 11;

/// A launch with its arguments bound, ready for `enqueue_chain`.
pub(crate) struct StepLaunch<'a> {
    kernel: &'a Kernel,
    global: [usize; 2],
    local: [usize; 2],
    args: [Arg; KERNEL_ARGS],
}

impl KernelLaunch {
    /// The arguments for source planes `src`, destination planes `dst` and the kernel's three reals
    /// (input conjugation, output conjugation, scale). `shift` adds to the source and destination offsets, in
    /// elements (a chunk of the batch).
    pub fn bind(&self, src: [RawMem; 2], dst: [RawMem; 2], reals: [Arg; 3], shift: [usize; 2]) -> StepLaunch<'_> {
        let index = |v: usize| if self.wide_index { Arg::U64(v as u64) } else { Arg::U32(v as u32) };
        let [conj_in, conj_out, scale] = reals;
        StepLaunch {
            kernel: &self.kernel,
            global: self.global,
            local: self.local,
            args: [
                Arg::Mem(src[0]),
                Arg::Mem(src[1]),
                Arg::Mem(dst[0]),
                Arg::Mem(dst[1]),
                Arg::Mem(self.table.raw()),
                Arg::Mem(self.params.raw()),
                index(self.src_offset + shift[0]),
                index(self.dst_offset + shift[1]),
                conj_in,
                conj_out,
                scale,
            ],
        }
    }
}

/// Enqueues `steps` on `queue` one after another, the first after `wait`; the last one's event, if any.
pub(crate) fn enqueue_chain<'a>(
    queue: &Queue,
    wait: &[RawEvent],
    steps: impl IntoIterator<Item = StepLaunch<'a>>,
) -> Result<Option<Event>> {
    let timed = crate::log::enabled(crate::log::Topic::Steps);
    let mut previous: Option<Event> = None;
    for (i, step) in steps.into_iter().enumerate() {
        for (k, arg) in step.args.into_iter().enumerate() {
            step.kernel.set_arg(k as u32, arg)?;
        }
        let chain: Vec<RawEvent> = match &previous {
            Some(e) => vec![e.raw()],
            None => wait.to_vec(),
        };
        if timed {
            queue.finish()?;
        }
        // Wall time from a drained queue to the kernel's end, launch included: no profiling queue needed.
        let started = timed.then(std::time::Instant::now);
        let event = step.kernel.enqueue(queue.raw(), step.global, step.local, &chain)?;
        if let Some(started) = started {
            event.wait()?;
            crate::log!(
                crate::log::Topic::Steps,
                "step [{i}] global {:?} local {:?}: {:.3} ms",
                step.global,
                step.local,
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        previous = Some(event);
    }
    Ok(previous)
}

/// A real-valued kernel argument in the plan's precision.
pub(crate) fn real_arg(precision: Precision, v: f64) -> Arg {
    match precision {
        Precision::Single => Arg::F32(v as f32),
        Precision::Double => Arg::F64(v),
    }
}
