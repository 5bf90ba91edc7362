//! A baked plan: one kernel object and twiddle table per step, and the enqueue that binds user buffers.

use super::transpose;
use super::{enqueue_chain, real_arg, Callback, Direction, KernelLaunch, Settings, KERNEL_ARGS};
use crate::codegen::callback::{CallbackElement, CallbackKernel, CallbackStage, FusedCallbacks};
use crate::codegen::{KernelSource, KernelSpec};
use crate::error::{fail, ErrorKind, Result};
use crate::log::Topic;
use crate::planner::tuning::Target;
use crate::planner::{self, BufRef, BufferLayout, ExecPlan, Problem, Step};
use crate::runtime::cache::Lookup;
use crate::runtime::cl::{RawEvent, RawMem};
use crate::runtime::working::{self, WorkingBuffer};
use crate::runtime::{cache, device_info, Arg, Buffer, Context, DeviceInfo, DeviceKind, Event, Kernel, Program, Queue};
use crate::types::{Precision, TransformKind};

struct Launch {
    run: KernelLaunch,
    /// Bytes the kernel reaches into each plane of its source and destination, offsets included, in the
    /// last chunk of the batch (the furthest).
    src_reach: usize,
    dst_reach: usize,
}

pub struct Baked {
    device: usize,
    context: Context,
    precision: Precision,
    exec: ExecPlan,
    launches: Vec<Launch>,
    in_bytes: usize,
    out_bytes: usize,
    in_planar: bool,
    out_planar: bool,
    /// The caller passes one buffer, both input and output.
    in_place: bool,
    /// In place, the kernels still run out of place: an in-place real transform whose rows of reals and of
    /// complex values do not coincide. The transform then reads a copy of the input.
    rows_apart: bool,
    /// The plan's copy of the input, one buffer per plane, for launches whose output overlaps their input where
    /// the kernels do not run in place; made at the first such launch.
    input_copy: Vec<WorkingBuffer>,
    /// The kernel that makes that copy from a caller's buffer of another context (`copy_words`); made at the
    /// first such copy.
    copy_kernel: Option<Kernel>,
    tmp_bytes: usize,
    own_tmp: Option<WorkingBuffer>,
    device_kind: DeviceKind,
    /// The last command of the latest launch, after which the plan's own buffers are free.
    last_run: Option<Event>,
    pre_callback: Option<CallbackPass>,
    post_callback: Option<CallbackPass>,
    /// The transpose that follows the transform in place when its result is transposed.
    transpose_after: Option<transpose::Prepared>,
    /// Until the first launch: the disk-cache writes of the programs the bake built may be pending, and the
    /// launch waits for every pending write, those among them (`cache::wait_for_writes`), so that none
    /// compiles alongside the transform.
    first_launch: bool,
}

/// The plan's own buffers go once its last launch has completed (`working::retire`).
impl Drop for Baked {
    fn drop(&mut self) {
        let staging = [&mut self.pre_callback, &mut self.post_callback]
            .into_iter()
            .flatten()
            .flat_map(|pass| std::mem::take(&mut pass.staging));
        let own = self.own_tmp.take().into_iter().chain(std::mem::take(&mut self.input_copy));
        working::retire(own.chain(staging), self.last_run.as_ref());
    }
}

/// A callback's pass, and the plan's own copy of its side: the input the transform then reads (pre), or the
/// output it writes for the callback to receive (post).
struct CallbackPass {
    kernel: Kernel,
    params: Buffer,
    count: usize,
    global: [usize; 2],
    local: [usize; 2],
    local_bytes: usize,
    userdata: Option<Buffer>,
    /// One buffer per plane, `plane_bytes` each.
    staging: Vec<WorkingBuffer>,
    plane_bytes: usize,
}

impl CallbackPass {
    fn staged(&self) -> [RawMem; 2] {
        [self.staging[0].raw(), self.staging[self.staging.len() - 1].raw()]
    }

    /// Runs the callback from `src` into `dst` after `wait`.
    fn enqueue(&self, queue: &Queue, src: [RawMem; 2], dst: [RawMem; 2], wait: &[RawEvent]) -> Result<Event> {
        let userdata = self.userdata.as_ref().map_or(std::ptr::null_mut(), |b| b.raw());
        let mut args = vec![
            Arg::Mem(src[0]),
            Arg::Mem(src[1]),
            Arg::Mem(dst[0]),
            Arg::Mem(dst[1]),
            Arg::Mem(userdata),
            Arg::Mem(self.params.raw()),
            Arg::U64(self.count as u64),
        ];
        if self.local_bytes > 0 {
            args.push(Arg::Local(self.local_bytes));
        }
        for (k, arg) in args.into_iter().enumerate() {
            self.kernel.set_arg(k as u32, arg)?;
        }
        self.kernel.enqueue(queue.raw(), self.global, self.local, wait)
    }
}

/// The callback pass over one side of `problem`: `stage` Pre runs over the input, Post over the output.
fn callback_kernel(
    problem: &Problem,
    callback: &Callback,
    stage: CallbackStage,
    device: &DeviceInfo,
) -> CallbackKernel {
    let (layout, real) = match stage {
        CallbackStage::Pre => (&problem.input, problem.kind == TransformKind::R2C),
        CallbackStage::Post => (&problem.output, problem.kind == TransformKind::C2R),
    };
    let lengths = if real { problem.lengths.clone() } else { problem.complex_lengths() };
    let mut dims: Vec<(usize, usize)> = lengths.into_iter().zip(layout.strides.iter().copied()).collect();
    dims.push((problem.batch, layout.dist));
    let element = match (real, layout.planar) {
        (true, _) => CallbackElement::Real,
        (false, false) => CallbackElement::Interleaved,
        (false, true) => CallbackElement::Planar,
    };
    CallbackKernel {
        stage,
        precision: problem.precision,
        element,
        callback: callback.user_callback(),
        dims,
        max_group: device.max_work_group_size,
    }
}

/// The plan's steps with the callbacks in their loads and stores: the pre-callback in every kernel that reads the
/// user's input before a step writes it, the post-callback in the last one, which writes the user's output (in
/// place, one buffer is both). None where the last step does not write the user's output.
fn with_fused_callbacks(
    steps: &[Step],
    pre: Option<&Callback>,
    post: Option<&Callback>,
    in_place: bool,
) -> Option<Vec<Step>> {
    let user_in = |b: BufRef| b == BufRef::Input || (in_place && b == BufRef::Output);
    let user_out = |b: BufRef| b == BufRef::Output || (in_place && b == BufRef::Input);
    let mut steps = steps.to_vec();
    if let Some(pre) = pre {
        let mut input_written = false;
        for step in &mut steps {
            if user_in(step.src) && !input_written {
                step.kernel.callbacks_mut().pre = Some(pre.user_callback());
            }
            input_written |= user_in(step.dst);
        }
    }
    if let Some(post) = post {
        let last = steps.last_mut().filter(|s| user_out(s.dst))?;
        last.kernel.callbacks_mut().post = Some(post.user_callback());
    }
    Some(steps)
}

/// Sets the arguments a kernel's fused callbacks take after its own: each one's user data, then its local
/// memory where it asks for some. The plan's settings retain the user data while this bake lives: any change to
/// them drops the bake.
fn with_callback_args(kernel: Kernel, spec: &KernelSpec, settings: &Settings) -> Result<Kernel> {
    let fused = spec.callbacks();
    let mut index = KERNEL_ARGS as u32;
    for (fused, callback) in [(&fused.pre, &settings.pre_callback), (&fused.post, &settings.post_callback)] {
        let Some(c) = callback.as_ref().filter(|_| fused.is_some()) else { continue };
        kernel.set_arg(index, Arg::Mem(c.userdata.as_ref().map_or(std::ptr::null_mut(), |b| b.raw())))?;
        index += 1;
        if c.local_bytes > 0 {
            kernel.set_arg(index, Arg::Local(c.local_bytes))?;
            index += 1;
        }
    }
    Ok(kernel)
}

/// Bytes one plane of a buffer must hold: real data over the real lengths, complex data (interleaved or
/// one plane of planar) over the complex lengths.
fn plane_bytes(problem: &Problem, layout: &BufferLayout, real: bool) -> usize {
    let (distance, span) = transform_bytes(problem, layout, real);
    span + (problem.batch - 1) * distance
}

/// Of one plane of a buffer (real data when `real`): the bytes from one transform of the batch to the next,
/// and the bytes one transform spans.
pub(super) fn transform_bytes(problem: &Problem, layout: &BufferLayout, real: bool) -> (usize, usize) {
    let lengths = if real { problem.lengths.clone() } else { problem.complex_lengths() };
    let element = element_bytes(problem.precision, layout, real);
    (layout.dist * element, layout.extent(&lengths) * element)
}

/// Bytes of one element of a buffer in its layout's units: a real for real data and planes, a complex value
/// otherwise.
fn element_bytes(precision: Precision, layout: &BufferLayout, real: bool) -> usize {
    if real || layout.planar {
        precision.real_bytes()
    } else {
        precision.complex_bytes()
    }
}

impl Baked {
    pub fn new(settings: &Settings, queue: &Queue) -> Result<Baked> {
        let started = std::time::Instant::now();
        let baked = Self::make(settings, queue);
        let made = started.elapsed();
        // Its kernels made (or the bake failed), the programs it built go to the disk cache: the process's first
        // write here, the others on a thread of their own.
        cache::start_writes();
        if baked.is_ok() {
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
            crate::log!(
                Topic::Info,
                "baked in {:.1} ms ({:.1} ms making the plan, {:.1} ms starting the disk-cache writes)",
                ms(started.elapsed()),
                ms(made),
                ms(started.elapsed() - made)
            );
        }
        baked
    }

    fn make(settings: &Settings, queue: &Queue) -> Result<Baked> {
        if queue.context()? != settings.context.raw() {
            return fail(ErrorKind::InvalidContext, "the queue belongs to another context than the plan");
        }
        let device = device_info(queue.device()?)?;
        check_precision(settings.precision, &device)?;
        let mut problem: Problem = settings.problem()?;
        let kernels_in_place = problem.in_place;
        let callbacks = [(&settings.pre_callback, CallbackStage::Pre), (&settings.post_callback, CallbackStage::Post)];
        if let Some(c) =
            callbacks.iter().filter_map(|(c, _)| c.as_ref()).find(|c| c.local_bytes as u64 > device.local_mem_bytes)
        {
            return fail(
                ErrorKind::InvalidArgValue,
                format!(
                    "the callback asks for {} bytes of local memory; {} has {}",
                    c.local_bytes, device.name, device.local_mem_bytes
                ),
            );
        }
        let in_bytes = plane_bytes(&problem, &problem.input, problem.kind == TransformKind::R2C);
        let out_bytes = plane_bytes(&problem, &problem.output, problem.kind == TransformKind::C2R);
        check_allocatable(&device, in_bytes.max(out_bytes), "its data")?;
        let context = settings.context.clone();
        let target = Target::new(&device, settings.tuning);
        let mut exec = planner::plan(&problem, &target)?;
        let has_callbacks = callbacks.iter().any(|(c, _)| c.is_some());
        // The callbacks run in the plan's own loads and stores where they can; otherwise, or where the user's
        // code does not build inside the kernels, each runs as a pass of its own.
        let mut built = None;
        if has_callbacks {
            let (pre, post) = (settings.pre_callback.as_ref(), settings.post_callback.as_ref());
            match with_fused_callbacks(&exec.steps, pre, post, kernels_in_place) {
                Some(steps) => {
                    let sources: Vec<_> = steps.iter().map(|s| s.kernel.source()).collect();
                    match build_all(&context, &device, &sources.iter().collect::<Vec<_>>(), &problem.describe()) {
                        Ok(programs) => {
                            let taking = |pick: fn(&FusedCallbacks) -> bool| -> Vec<usize> {
                                let fused = |s: &Step| pick(s.kernel.callbacks());
                                steps.iter().enumerate().filter(|(_, s)| fused(s)).map(|(i, _)| i).collect()
                            };
                            crate::log!(
                                Topic::Plan,
                                "callbacks in the kernels: pre in steps {:?}, post in steps {:?}",
                                taking(|c| c.pre.is_some()),
                                taking(|c| c.post.is_some())
                            );
                            exec.steps = steps;
                            built = Some((sources, programs));
                        }
                        Err(e) if e.kind == ErrorKind::BuildProgramFailure => {
                            crate::log!(Topic::Info, "the callbacks do not build inside the plan's kernels: {e}");
                        }
                        Err(e) => return Err(e),
                    }
                }
                None => crate::log!(
                    Topic::Info,
                    "the plan's last step does not write the output the post-callback receives"
                ),
            }
        }
        let staged = has_callbacks && built.is_none();
        // A callback pass stages its side in a copy of its own, so the transform between runs out of place.
        let callback_kernels: Vec<(&Callback, CallbackKernel)> = if staged {
            problem.in_place = false;
            exec = planner::plan(&problem, &target)?;
            if problem.no_scratch {
                crate::log!(Topic::Info, "a plan with callback passes allocates a copy of each side they run on");
            }
            callbacks
                .iter()
                .filter_map(|(c, stage)| c.as_ref().map(|c| (c, callback_kernel(&problem, c, *stage, &device))))
                .collect()
        } else {
            Vec::new()
        };
        check_allocatable(&device, exec.tmp_elements() * settings.precision.complex_bytes(), "its scratch buffer")?;
        crate::log!(
            Topic::Plan,
            "plan for {:?} batch {} on {}:\n{}",
            problem.lengths,
            problem.batch,
            device.name,
            exec.tree
        );
        let callback_sources: Vec<_> = callback_kernels.iter().map(|(_, k)| k.source()).collect();
        let precision = settings.precision;
        let step_tables = || -> Result<Vec<Buffer>> {
            exec.steps.iter().map(|s| upload_table(&context, &s.kernel.twiddles(), precision)).collect()
        };
        let (sources, programs, callback_programs, tables) = match built {
            Some((sources, programs)) => (sources, programs, Vec::new(), step_tables()?),
            None => {
                let sources: Vec<_> = exec.steps.iter().map(|s| s.kernel.source()).collect();
                let all_sources: Vec<&KernelSource> = sources.iter().chain(&callback_sources).collect();
                // The twiddle tables are made while the programs build (or load: PoCL parses each program
                // under one lock, so a warm bake of several programs leaves a core free).
                let (programs, tables) = std::thread::scope(|scope| {
                    let tables = scope.spawn(step_tables);
                    let programs = build_all(&context, &device, &all_sources, &problem.describe());
                    let tables = tables.join().unwrap_or_else(|_| fail(ErrorKind::Bugcheck, "making tables panicked"));
                    (programs, tables)
                });
                let mut programs = programs?;
                let callback_programs = programs.split_off(sources.len());
                (sources, programs, callback_programs, tables?)
            }
        };
        let (mut pre_callback, mut post_callback) = (None, None);
        for (((callback, kernel), source), program) in
            callback_kernels.iter().zip(&callback_sources).zip(callback_programs)
        {
            let (bytes, planar) = match kernel.stage {
                CallbackStage::Pre => (in_bytes, problem.input.planar),
                CallbackStage::Post => (out_bytes, problem.output.planar),
            };
            let (global, local) = kernel.work_size();
            let staging = (0..if planar { 2 } else { 1 })
                .map(|_| WorkingBuffer::new(&context, device.kind, bytes))
                .collect::<Result<_>>()?;
            let pass = CallbackPass {
                kernel: Kernel::create(&program, source.entry)?,
                params: Buffer::with_data(&context, &kernel.params())?,
                count: kernel.count(),
                global,
                local,
                local_bytes: callback.local_bytes,
                userdata: callback.userdata.clone(),
                staging,
                plane_bytes: bytes,
            };
            match kernel.stage {
                CallbackStage::Pre => pre_callback = Some(pass),
                CallbackStage::Post => post_callback = Some(pass),
            }
        }
        let mut launches = Vec::with_capacity(exec.steps.len());
        for (((step, source), program), table) in exec.steps.iter().zip(&sources).zip(&programs).zip(tables) {
            let (global, local) = step.kernel.work_size();
            let (src_reach, dst_reach) = step.kernel.reach_bytes();
            // Where the last chunk's data start in buffer `b`: the scratch region's offset and the chunk's shift.
            let last_chunk_start = |b: BufRef| {
                let unit = match b {
                    BufRef::Input => element_bytes(precision, &problem.input, problem.kind == TransformKind::R2C),
                    BufRef::Output => element_bytes(precision, &problem.output, problem.kind == TransformKind::C2R),
                    BufRef::Tmp(_) => precision.complex_bytes(),
                };
                exec.offset(b) * precision.complex_bytes() + exec.chunks.shift(b, exec.chunks.count - 1) * unit
            };
            launches.push(Launch {
                src_reach: src_reach + last_chunk_start(step.src),
                dst_reach: dst_reach + last_chunk_start(step.dst),
                run: KernelLaunch {
                    kernel: with_callback_args(Kernel::create(program, source.entry)?, &step.kernel, settings)?,
                    table,
                    params: Buffer::with_data(&context, &step.kernel.params())?,
                    global,
                    local,
                    src: step.src,
                    dst: step.dst,
                    src_offset: exec.offset(step.src),
                    dst_offset: exec.offset(step.dst),
                    wide_index: step.kernel.wide_index(),
                },
            });
        }
        let transpose_after = match settings.in_place_transpose() {
            Some(problem) => Some(transpose::prepare(&context, queue, &problem)?),
            None => None,
        };
        let baked = Baked {
            device: device.id,
            context,
            precision,
            in_bytes,
            out_bytes,
            in_planar: problem.input.planar,
            out_planar: problem.output.planar,
            in_place: settings.in_place,
            rows_apart: settings.in_place && !kernels_in_place,
            input_copy: Vec::new(),
            copy_kernel: None,
            tmp_bytes: exec.tmp_elements() * precision.complex_bytes(),
            exec,
            launches,
            own_tmp: None,
            device_kind: device.kind,
            last_run: None,
            pre_callback,
            post_callback,
            transpose_after,
            first_launch: true,
        };
        Ok(baked)
    }

    /// The distinct programs of the plan, in the order its steps first use them.
    pub fn sources(&self) -> Vec<KernelSource> {
        let mut distinct: Vec<KernelSource> = Vec::new();
        for source in self.exec.steps.iter().map(|s| s.kernel.source()) {
            if !distinct.contains(&source) {
                distinct.push(source);
            }
        }
        distinct
    }

    /// Whether a step writes the input buffer: out of place, where the plan takes its input as scratch.
    pub fn writes_input(&self) -> bool {
        self.exec.steps.iter().any(|step| step.dst == planner::BufRef::Input)
    }

    /// Fails unless `input` and `output` (ignored in place) hold the planes the plan reaches.
    pub fn check_buffers(&self, input: &[RawMem], output: &[RawMem]) -> Result<()> {
        let output = if self.in_place { input } else { output };
        self.planes(input, self.in_planar, self.in_bytes, "input")?;
        self.planes(output, self.out_planar, self.out_bytes, "output")?;
        Ok(())
    }

    /// The bytes the plan reaches in each plane of its input and of its output.
    pub fn reach(&self) -> (usize, usize) {
        (self.in_bytes, self.out_bytes)
    }

    /// Scratch bytes the plan needs (0 when it runs without).
    pub fn tmp_bytes(&self) -> usize {
        self.tmp_bytes
    }

    pub fn device(&self) -> usize {
        self.device
    }

    pub fn tree(&self) -> &planner::Node {
        &self.exec.tree
    }

    /// Fails unless `queue` belongs to the plan's context and to the device it was baked for.
    pub fn check_queue(&self, queue: &Queue) -> Result<()> {
        if queue.context()? != self.context.raw() {
            return fail(ErrorKind::InvalidContext, "the queue belongs to another context than the plan");
        }
        if queue.device()? as usize != self.device {
            return fail(ErrorKind::DeviceMismatch, "the queue's device is not the device the plan was baked for");
        }
        Ok(())
    }

    /// Enqueues the transform on `queue` after `wait`; the returned event completes with the whole transform.
    #[allow(clippy::too_many_arguments)]
    pub fn enqueue(
        &mut self,
        direction: Direction,
        scale: f64,
        queue: &Queue,
        wait: &[RawEvent],
        input: &[RawMem],
        output: &[RawMem],
        tmp: Option<RawMem>,
    ) -> Result<Event> {
        self.check_queue(queue)?;
        if self.first_launch {
            cache::wait_for_writes();
            self.first_launch = false;
        }
        let output = if self.in_place { input } else { output };
        let (inputs, in_size) = self.planes(input, self.in_planar, self.in_bytes, "input")?;
        let (outputs, out_size) = self.planes(output, self.out_planar, self.out_bytes, "output")?;
        let callers_tmp = tmp.filter(|m| !m.is_null() && self.tmp_bytes > 0);
        let (tmp, tmp_size) = self.scratch(tmp)?;
        // Where the output overlaps the input but the kernels do not run in place, the transform reads a copy of
        // the input (a pre-callback pass makes one anyway), so any overlap computes what clFFT computes.
        let (read, written) = self.reaches(inputs, outputs)?;
        let output_overlaps_input = written.iter().any(|w| read.iter().any(|r| w.overlaps(r)));
        let overlapping = self.rows_apart || (!self.in_place && output_overlaps_input);
        let copies_input = overlapping && self.pre_callback.is_none();
        self.check_disjoint(read, written, callers_tmp, overlapping)?;
        // With callbacks the transform reads and writes their staged copies of its sides.
        let first_event = match &self.pre_callback {
            Some(pre) => Some(pre.enqueue(queue, inputs, pre.staged(), wait)?),
            None if copies_input => Some(self.copy_input(queue, inputs, wait)?),
            None => None,
        };
        let wait: Vec<RawEvent> = first_event.as_ref().map_or_else(|| wait.to_vec(), |e| vec![e.raw()]);
        let (inputs, in_size) = match &self.pre_callback {
            Some(pre) => (pre.staged(), pre.plane_bytes),
            None if copies_input => (self.copied_input(), self.in_bytes),
            None => (inputs, in_size),
        };
        let (user_outputs, (outputs, out_size)) = match &self.post_callback {
            Some(post) => (Some(outputs), (post.staged(), post.plane_bytes)),
            None => (None, (outputs, out_size)),
        };
        let tmp = tmp.unwrap_or(std::ptr::null_mut());
        let size = |b: BufRef| match b {
            BufRef::Input => in_size,
            BufRef::Output => out_size,
            BufRef::Tmp(_) => tmp_size,
        };
        // A planner mistake must never become an out-of-bounds write in the caller's memory.
        if let Some((i, l)) = self
            .launches
            .iter()
            .enumerate()
            .find(|(_, l)| l.src_reach > size(l.run.src) || l.dst_reach > size(l.run.dst))
        {
            return fail(
                ErrorKind::Bugcheck,
                format!(
                    "step {i} would reach {} bytes of {:?} ({} there) and {} of {:?} ({} there)",
                    l.src_reach,
                    l.run.src,
                    size(l.run.src),
                    l.dst_reach,
                    l.run.dst,
                    size(l.run.dst)
                ),
            );
        }
        let buffers = |b: BufRef| -> [RawMem; 2] {
            match b {
                BufRef::Input => inputs,
                BufRef::Output => outputs,
                BufRef::Tmp(_) => [tmp; 2],
            }
        };
        let real = |v: f64| real_arg(self.precision, v);
        let sign = if direction == Direction::Backward { -1.0 } else { 1.0 };
        let last = self.launches.len() - 1;
        let chunks = self.exec.chunks;
        let steps = (0..chunks.count)
            .flat_map(|chunk| self.launches.iter().enumerate().map(move |(i, launch)| (chunk, i, launch)));
        let steps = steps.map(|(chunk, i, launch)| {
            let run = &launch.run;
            let reals = [
                real(if i == 0 { sign } else { 1.0 }),
                real(if i == last { sign } else { 1.0 }),
                real(if i == last { scale } else { 1.0 }),
            ];
            run.bind(
                buffers(run.src),
                buffers(run.dst),
                reals,
                [chunks.shift(run.src, chunk), chunks.shift(run.dst, chunk)],
            )
        });
        let done = enqueue_chain(queue, &wait, steps)?
            .ok_or_else(|| crate::error::Error::new(ErrorKind::Bugcheck, "a plan without steps"))?;
        let last = match (&self.post_callback, user_outputs) {
            (Some(post), Some(user_outputs)) => post.enqueue(queue, outputs, user_outputs, &[done.raw()])?,
            _ => done,
        };
        let last = match &self.transpose_after {
            // In place, without a post-callback (refused with a transposed result): `outputs` are the caller's
            // planes, checked above.
            Some(t) => t.enqueue(queue, outputs, out_size, &[last.raw()])?,
            None => last,
        };
        self.last_run = Some(last.clone());
        Ok(last)
    }

    /// The one or two planes of a user buffer set, checked against the bytes the plan reaches, and the
    /// size of the smaller plane. Buffers of another context are used as they are, as clFFT uses them (where
    /// the plan copies them, OpenCL answers `CL_INVALID_CONTEXT`).
    fn planes(&self, given: &[RawMem], planar: bool, bytes: usize, what: &str) -> Result<([RawMem; 2], usize)> {
        let needed = if planar { 2 } else { 1 };
        if given.len() < needed || given[..needed].iter().any(|m| m.is_null()) {
            return fail(
                ErrorKind::InvalidArgValue,
                format!("the {what} needs {needed} buffer(s) for its layout, and got fewer"),
            );
        }
        let mut smallest = usize::MAX;
        for &mem in &given[..needed] {
            let size = Buffer::size_of_raw(mem)
                .map_err(|e| crate::error::Error::new(ErrorKind::InvalidMemObject, format!("{what} buffer: {e}")))?;
            if size < bytes {
                return fail(
                    ErrorKind::InvalidBufferSize,
                    format!("the {what} buffer holds {size} bytes; the plan reaches {bytes}"),
                );
            }
            smallest = smallest.min(size);
        }
        Ok((if planar { [given[0], given[1]] } else { [given[0], given[0]] }, smallest))
    }

    /// The scratch buffer and its size: none when the plan needs none, the caller's if given (and large
    /// enough), otherwise the plan's own, allocated once.
    fn scratch(&mut self, given: Option<RawMem>) -> Result<(Option<RawMem>, usize)> {
        if self.tmp_bytes == 0 {
            return Ok((None, 0));
        }
        if let Some(mem) = given.filter(|m| !m.is_null()) {
            let size = Buffer::size_of_raw(mem)?;
            if size < self.tmp_bytes {
                return fail(
                    ErrorKind::InvalidBufferSize,
                    format!("the temporary buffer holds {size} bytes; the plan needs {}", self.tmp_bytes),
                );
            }
            return Ok((Some(mem), size));
        }
        let own = match &self.own_tmp {
            Some(b) => b.raw(),
            None => {
                let buffer = WorkingBuffer::new(&self.context, self.device_kind, self.tmp_bytes)?;
                self.own_tmp.insert(buffer).raw()
            }
        };
        Ok((Some(own), self.tmp_bytes))
    }

    /// The bytes each plane of the input and of the output reaches: (buffer, first byte, end).
    fn reaches(&self, inputs: [RawMem; 2], outputs: [RawMem; 2]) -> Result<(Vec<Reach>, Vec<Reach>)> {
        let range = |name: &'static str, mem: RawMem, bytes: usize| -> Result<Reach> {
            let (root, offset) = Buffer::place_of_raw(mem)?;
            Ok(Reach { name, root, start: offset, end: offset + bytes })
        };
        let bytes = if self.in_place { self.in_bytes.max(self.out_bytes) } else { self.in_bytes };
        let mut read = vec![range("input", inputs[0], bytes)?];
        if self.in_planar {
            read.push(range("imaginary input plane", inputs[1], bytes)?);
        }
        let mut written = Vec::new();
        if !self.in_place {
            written.push(range("output", outputs[0], self.out_bytes)?);
            if self.out_planar {
                written.push(range("imaginary output plane", outputs[1], self.out_bytes)?);
            }
        }
        Ok((read, written))
    }

    /// Copies each input plane into the plan's copy of the input (made at the first call) after `wait`.
    fn copy_input(&mut self, queue: &Queue, inputs: [RawMem; 2], wait: &[RawEvent]) -> Result<Event> {
        let planes = if self.in_planar { 2 } else { 1 };
        if self.input_copy.is_empty() {
            crate::log!(Topic::Info, "the output overlaps the input: the transform reads a copy of the input");
            self.input_copy = (0..planes)
                .map(|_| WorkingBuffer::new(&self.context, self.device_kind, self.in_bytes))
                .collect::<Result<_>>()?;
        }
        let mut event = None;
        let copies: Vec<RawMem> = self.input_copy.iter().map(|c| c.raw()).collect();
        for (&src, dst) in inputs.iter().zip(copies) {
            let after: Vec<RawEvent> = event.as_ref().map_or_else(|| wait.to_vec(), |e: &Event| vec![e.raw()]);
            event = Some(if Buffer::context_of_raw(src)? == self.context.raw() {
                crate::runtime::cl::enqueue_copy(queue.raw(), src, dst, 0, 0, self.in_bytes, &after)?
            } else {
                self.copy_words(queue, src, dst, &after)?
            });
        }
        event.ok_or_else(|| crate::error::Error::new(ErrorKind::Bugcheck, "an input without planes"))
    }

    /// Copies the input's `in_bytes` (whole floats) from `src` to `dst` with a kernel: OpenCL copies only
    /// between buffers of the queue's context, and a caller's buffer of another context goes to the kernels as
    /// it is, as clFFT passes it.
    fn copy_words(&mut self, queue: &Queue, src: RawMem, dst: RawMem, wait: &[RawEvent]) -> Result<Event> {
        const SOURCE: &str = "__kernel void fftx_copy_words(__global const uint *src, __global uint *dst, ulong count)
{
    size_t i = get_global_id(0);
    if (i < count) dst[i] = src[i];
}
";
        const GROUP: usize = 64;
        let kernel = match &self.copy_kernel {
            Some(k) => k,
            None => {
                let device = device_info(queue.device()?)?;
                let source = crate::codegen::Defines::default().program(&[SOURCE]);
                let program =
                    cache::program(&self.context, &device, cache::ProgramText { source: &source, user_code: false })?;
                self.copy_kernel.insert(Kernel::create(&program, "fftx_copy_words")?)
            }
        };
        let words = self.in_bytes / 4;
        kernel.set_arg(0, Arg::Mem(src))?;
        kernel.set_arg(1, Arg::Mem(dst))?;
        kernel.set_arg(2, Arg::U64(words as u64))?;
        kernel.enqueue(queue.raw(), [words.div_ceil(GROUP) * GROUP, 1], [GROUP, 1], wait)
    }

    fn copied_input(&self) -> [RawMem; 2] {
        [self.input_copy[0].raw(), self.input_copy[self.input_copy.len() - 1].raw()]
    }

    /// Refuses buffers whose reaches (`reaches`: the input planes `read`, the output planes `written`) overlap
    /// where the transform would write one while reading or writing another: output planes against each other
    /// and, unless the transform reads a copy of the input (`input_copied`), against the input; the two planes
    /// of a planar buffer in place; and a caller's scratch buffer against everything.
    fn check_disjoint(
        &self,
        mut read: Vec<Reach>,
        mut written: Vec<Reach>,
        tmp: Option<RawMem>,
        input_copied: bool,
    ) -> Result<()> {
        if self.in_place {
            written.append(&mut read);
        }
        if let Some(mem) = tmp {
            let (root, start) = Buffer::place_of_raw(mem)?;
            written.push(Reach { name: "temporary buffer", root, start, end: start + self.tmp_bytes });
        }
        let outputs = written.len() - usize::from(tmp.is_some());
        for (i, w) in written.iter().enumerate() {
            // The transform writes the output while reading the copy of an overlapping input, but scratch never.
            let read_now = read.iter().filter(|_| !input_copied || i >= outputs);
            if let Some(other) = written[i + 1..].iter().chain(read_now).find(|r| w.overlaps(r)) {
                return fail(
                    ErrorKind::InvalidArgValue,
                    format!(
                        "the {} overlaps the {}: the transform would write one while using the other",
                        w.name, other.name
                    ),
                );
            }
        }
        Ok(())
    }
}

/// The bytes one plane of a caller's buffer spans within its root buffer.
struct Reach {
    name: &'static str,
    root: usize,
    start: usize,
    end: usize,
}

impl Reach {
    fn overlaps(&self, other: &Reach) -> bool {
        self.root == other.root && self.start < other.end && other.start < self.end
    }
}

/// A double-precision plan needs a device with fp64.
fn check_precision(precision: Precision, device: &DeviceInfo) -> Result<()> {
    if precision == Precision::Double && !device.fp64 {
        return fail(ErrorKind::DeviceNoDouble, format!("{} has no double precision", device.name));
    }
    Ok(())
}

/// A plan whose data or scratch exceeds the device's largest allocation can never run there.
fn check_allocatable(device: &DeviceInfo, bytes: usize, what: &str) -> Result<()> {
    if bytes as u64 > device.max_alloc_bytes {
        return fail(
            ErrorKind::InvalidBufferSize,
            format!(
                "{what} takes {bytes} bytes; {} allocates at most {} bytes in one buffer",
                device.name, device.max_alloc_bytes
            ),
        );
    }
    Ok(())
}

/// The programs of a plan, one per source. The caches' programs load on this thread: PoCL loads one program at
/// a time whatever the threads, and a thread per load spread PoCL's allocations over the allocator's
/// per-thread arenas (an application making a context per job grew its resident set by about 20 KB a job
/// under load, 6 MB in all without those threads). Programs built from source compile in parallel.
fn build_all(
    context: &Context,
    device: &DeviceInfo,
    sources: &[&KernelSource],
    transform: &str,
) -> Result<Vec<Program>> {
    let mut distinct: Vec<&KernelSource> = Vec::new();
    for &s in sources {
        if !distinct.contains(&s) {
            distinct.push(s);
        }
    }
    let lookups: Vec<Lookup> = distinct.iter().map(|s| cache::lookup(context, device, s.text())).collect();
    let missing = lookups.iter().filter(|l| matches!(l, Lookup::Missing(_))).count();
    if missing > 0 {
        announce_compile(missing, transform);
    }
    // Oclgrind's compiler (LLVM 14 in Oclgrind 21.10) crashes when two programs build at once.
    let parallel = missing > 1 && !device.name.starts_with("Oclgrind");
    let programs: Vec<Program> = std::thread::scope(|scope| {
        // Ok: the program, or the error, made here; Err: its build on a thread of its own.
        let made: Vec<_> = lookups
            .into_iter()
            .map(|lookup| match lookup {
                Lookup::Found(program) => Ok(Ok(program)),
                Lookup::Missing(missing) if parallel => Err(scope.spawn(move || missing.build(context, device))),
                Lookup::Missing(missing) => Ok(missing.build(context, device)),
            })
            .collect();
        made.into_iter()
            .map(|m| {
                m.unwrap_or_else(|thread| {
                    thread.join().unwrap_or_else(|_| fail(ErrorKind::Bugcheck, "a program build panicked"))
                })
            })
            .collect::<Result<_>>()
    })?;
    Ok(sources.iter().map(|s| programs[distinct.iter().position(|d| d == s).unwrap_or(0)].clone()).collect())
}

/// Says on stderr that a bake compiles kernels, which takes the OpenCL compiler 0.1 to several seconds each
/// the first time: under `FFTX_LOG=info`, or when stderr is a terminal; a program's piped or logged stderr
/// stays quiet otherwise.
fn announce_compile(count: usize, transform: &str) {
    let kernels = if count == 1 { "1 kernel".to_string() } else { format!("{count} kernels") };
    let kept = if cache::cache_dir().is_some() { "first use; cached on disk afterwards" } else { "disk cache off" };
    let message = format!("compiling {kernels} for {transform} ({kept})");
    if crate::log::enabled(Topic::Info) {
        crate::log::write(Topic::Info, &message);
    } else if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "fftx: {message}");
    }
}

fn upload_table(context: &Context, table: &[(f64, f64)], precision: Precision) -> Result<Buffer> {
    match precision {
        Precision::Single => {
            let flat: Vec<f32> = table.iter().flat_map(|&(re, im)| [re as f32, im as f32]).collect();
            Buffer::with_data(context, &flat)
        }
        Precision::Double => {
            let flat: Vec<f64> = table.iter().flat_map(|&(re, im)| [re, im]).collect();
            Buffer::with_data(context, &flat)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Precision, TransformKind};

    /// A device as the driver might describe it, without double precision.
    fn device_without_fp64() -> DeviceInfo {
        DeviceInfo {
            id: 0,
            name: "a single-precision GPU".into(),
            vendor: String::new(),
            driver_version: String::new(),
            device_version: String::new(),
            platform_version: String::new(),
            pocl: false,
            kind: DeviceKind::Gpu,
            compute_units: 1,
            max_work_group_size: 256,
            local_mem_bytes: 32 << 10,
            max_alloc_bytes: 1 << 30,
            global_mem_bytes: 4 << 30,
            cache_bytes: 0,
            fp64: false,
            native_width_f32: 1,
            native_width_f64: 0,
            svm_buffers: false,
            sub_buffer_align: 128,
            host_unified: false,
        }
    }

    fn callback(function: &str) -> Callback {
        Callback { function: function.into(), code: String::new(), local_bytes: 0, userdata: None }
    }

    /// For each step: whether it runs the pre-callback and the post-callback.
    fn fused(problem: &Problem) -> Option<Vec<(bool, bool)>> {
        let exec = planner::plan(problem, &planner::test_device::target(&planner::test_device::cpu())).unwrap();
        let (pre, post) = (callback("pre"), callback("post"));
        let steps = with_fused_callbacks(&exec.steps, Some(&pre), Some(&post), problem.in_place)?;
        let callbacks = |s: &Step| {
            let c = s.kernel.callbacks();
            (c.pre.is_some(), c.post.is_some())
        };
        Some(steps.iter().map(callbacks).collect())
    }

    #[test]
    fn callbacks_fuse_into_the_first_loads_and_the_last_stores() {
        use planner::test_device::{c2c, transform};
        assert_eq!(fused(&c2c(&[1024], 8)), Some(vec![(true, true)]));
        assert_eq!(fused(&c2c(&[1 << 20], 2)), Some(vec![(true, false), (false, true)]));
        // In place the buffer holds the input only until the first step writes it.
        let in_place = Problem { in_place: true, no_scratch: true, ..c2c(&[1 << 16], 1) };
        let steps = fused(&in_place).unwrap();
        assert!(steps.len() > 1 && steps[0].0 && steps[1..].iter().all(|s| !s.0), "{steps:?}");
        assert!(steps.last().unwrap().1 && steps[..steps.len() - 1].iter().all(|s| !s.1), "{steps:?}");
        for kind in [TransformKind::R2C, TransformKind::C2R] {
            let steps = fused(&transform(kind, &[256, 256], 3, true, Precision::Double)).unwrap();
            assert!(steps[0].0 && steps.last().unwrap().1, "{kind:?}: {steps:?}");
        }
        // Elementwise passes take them too: pairs of prime-length real transforms are split after their
        // complex FFT (R2C) or merged before it (C2R).
        for (kind, at) in [(TransformKind::R2C, 1), (TransformKind::C2R, 0)] {
            let problem = transform(kind, &[211], 3, false, Precision::Single);
            let exec = planner::plan(&problem, &planner::test_device::target(&planner::test_device::cpu())).unwrap();
            assert!(matches!(exec.steps[at].kernel, KernelSpec::Elementwise(_)), "{kind:?}");
            assert_eq!(fused(&problem), Some(vec![(true, false), (false, true)]), "{kind:?}");
        }
    }

    #[test]
    fn double_precision_needs_fp64() {
        let device = device_without_fp64();
        assert_eq!(check_precision(Precision::Double, &device).unwrap_err().kind, ErrorKind::DeviceNoDouble);
        assert!(check_precision(Precision::Single, &device).is_ok());
        assert!(check_precision(Precision::Double, &DeviceInfo { fp64: true, ..device }).is_ok());
    }

    #[test]
    fn data_must_fit_one_allocation() {
        let device = device_without_fp64();
        assert!(check_allocatable(&device, 1 << 30, "data").is_ok());
        assert_eq!(check_allocatable(&device, (1 << 30) + 1, "data").unwrap_err().kind, ErrorKind::InvalidBufferSize);
    }
}
