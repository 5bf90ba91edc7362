//! The exported transposes: planned and built once per shape, context and device, kept, and enqueued on the
//! caller's buffers. The block cycles of an in-place rectangle are computed when its plan is first made.

use super::{enqueue_chain, real_arg, KernelLaunch};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::log::Topic;
use crate::planner::transpose::{self, TransposeProblem};
use crate::planner::tuning::Target;
use crate::planner::BufRef;
use crate::runtime::cl::{enqueue_marker, RawEvent, RawMem};
use crate::runtime::per_context::PerContext;
use crate::runtime::{cache, device_info, Buffer, Context, Event, Kernel, Queue};
use once_cell::sync::Lazy;
use std::sync::{Arc, Mutex};

/// Plans kept at most, of the contexts used last.
const KEPT: usize = 64;

struct Baked {
    launches: Vec<KernelLaunch>,
    /// Bytes each plane of a buffer must hold.
    plane_bytes: usize,
}

static BAKED: Lazy<Mutex<PerContext<TransposeProblem, Arc<Mutex<Baked>>>>> =
    Lazy::new(|| Mutex::new(PerContext::new(KEPT)));

fn bake(context: &Context, queue: &Queue, problem: &TransposeProblem) -> Result<Baked> {
    let device = device_info(queue.device()?)?;
    if problem.precision == crate::types::Precision::Double && !device.fp64 {
        return fail(ErrorKind::DeviceNoDouble, format!("{} has no double precision", device.name));
    }
    let plane_bytes = problem.plane_bytes()?;
    if plane_bytes as u64 > device.max_alloc_bytes {
        return fail(
            ErrorKind::InvalidBufferSize,
            format!(
                "the matrices take {plane_bytes} bytes per buffer, more than {} can allocate ({} bytes)",
                device.name, device.max_alloc_bytes
            ),
        );
    }
    let exec = transpose::plan(problem, &Target::new(&device, problem.tuning))?;
    crate::log!(Topic::Plan, "transpose on {}:\n{}", device.name, exec.tree);
    let mut launches = Vec::with_capacity(exec.steps.len());
    for step in &exec.steps {
        let source = step.kernel.source();
        let program = cache::program(context, &device, source.text())?;
        let (global, local) = step.kernel.work_size();
        launches.push(KernelLaunch {
            kernel: Kernel::create(&program, source.entry)?,
            params: Buffer::with_data(context, &step.kernel.params())?,
            // Transposes read no table; the argument slot still needs a buffer.
            table: Buffer::with_data::<u8>(context, &[])?,
            global,
            local,
            src: step.src,
            dst: step.dst,
            src_offset: 0,
            dst_offset: 0,
            wide_index: step.kernel.wide_index(),
        });
    }
    // A transpose bakes on first use and runs at once: its kernels' disk-cache writes must not compile
    // alongside it.
    cache::wait_for_writes();
    Ok(Baked { launches, plane_bytes })
}

/// The baked plan for `problem` on the queue's context and device, made on first use.
fn baked(context: &Context, queue: &Queue, problem: &TransposeProblem) -> Result<Arc<Mutex<Baked>>> {
    let (context_id, device_id) = (context.raw() as usize, queue.device()? as usize);
    if let Some(found) = BAKED.lock().unwrap_or_else(|e| e.into_inner()).get(context_id, device_id, *problem) {
        return Ok(found.clone());
    }
    let made = Arc::new(Mutex::new(bake(context, queue, problem)?));
    // Plans the cache dropped are released outside its lock (`PerContext`).
    let (baked, _dropped) =
        BAKED.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(context_id, device_id, *problem, || made);
    Ok(baked)
}

/// A baked transpose held by the plan whose result it transposes: its launches need no lookup in the shared
/// cache, and no eviction from that cache can make them bake again (and perhaps fail) at a launch.
pub struct Prepared {
    problem: TransposeProblem,
    baked: Arc<Mutex<Baked>>,
}

/// Bakes the transpose `problem` for `queue` (of `context`) ahead of its first launch, so that a plan
/// running it fails at its own bake, not at its launch.
pub fn prepare(context: &Context, queue: &Queue, problem: &TransposeProblem) -> Result<Prepared> {
    Ok(Prepared { problem: *problem, baked: baked(context, queue, problem)? })
}

impl Prepared {
    /// Enqueues the transpose on `queue` after `wait`, in place over `planes`, which the plan running it has
    /// checked (its context, planes disjoint, at least `size` bytes each): they are not queried again.
    pub fn enqueue(&self, queue: &Queue, planes: [RawMem; 2], size: usize, wait: &[RawEvent]) -> Result<Event> {
        let baked = self.baked.lock().unwrap_or_else(|e| e.into_inner());
        // A planner mistake must never become an out-of-bounds write in the caller's memory.
        if size < baked.plane_bytes {
            return fail(
                ErrorKind::Bugcheck,
                format!("the transpose reaches {} bytes of a {size}-byte buffer", baked.plane_bytes),
            );
        }
        launch(queue, &self.problem, &baked, planes, planes, wait)
    }
}

/// Enqueues the transpose `problem` on `queue` (of `context`) after `wait`: `input` (and `output` when out of
/// place) are one buffer, or two (real and imaginary planes) for planar data. The event completes with the
/// transpose.
pub fn enqueue(
    context: &Context,
    queue: &Queue,
    problem: &TransposeProblem,
    input: &[RawMem],
    output: &[RawMem],
    wait: &[RawEvent],
) -> Result<Event> {
    if queue.context()? != context.raw() {
        return fail(ErrorKind::InvalidContext, "the queue belongs to another context");
    }
    let shared = baked(context, queue, problem)?;
    let planes = if problem.planar { 2 } else { 1 };
    let output = if problem.in_place { input } else { output };
    let baked = shared.lock().unwrap_or_else(|e| e.into_inner());
    let mut places = Vec::with_capacity(2 * planes);
    for (what, given) in [("input", input), ("output", output)] {
        if given.len() < planes || given[..planes].iter().any(|m| m.is_null()) {
            return fail(ErrorKind::InvalidArgValue, format!("the {what} needs {planes} buffer(s) for its layout"));
        }
        for (plane, &mem) in given[..planes].iter().enumerate() {
            let size = Buffer::size_of_raw(mem)
                .map_err(|e| Error::new(ErrorKind::InvalidMemObject, format!("{what} buffer: {e}")))?;
            if Buffer::context_of_raw(mem)? != context.raw() {
                return fail(ErrorKind::InvalidContext, format!("the {what} buffer belongs to another context"));
            }
            if size < baked.plane_bytes {
                return fail(
                    ErrorKind::InvalidBufferSize,
                    format!("the {what} buffer holds {size} bytes; the transpose reaches {}", baked.plane_bytes),
                );
            }
            let (root, offset) = Buffer::place_of_raw(mem)?;
            places.push((format!("{what} plane {plane}"), root, offset, offset + baked.plane_bytes));
        }
        if problem.in_place {
            break;
        }
    }
    // Every plane is written while the others are read: no two may share bytes.
    for (i, a) in places.iter().enumerate() {
        if let Some(b) = places[i + 1..].iter().find(|b| a.1 == b.1 && a.2 < b.3 && b.2 < a.3) {
            return fail(ErrorKind::InvalidArgValue, format!("the {} overlaps the {}", a.0, b.0));
        }
    }
    let planes_of = |given: &[RawMem]| [given[0], given[planes - 1]];
    launch(queue, problem, &baked, planes_of(input), planes_of(output), wait)
}

/// Binds the checked `input` and `output` planes to the baked kernels and enqueues them after `wait`.
fn launch(
    queue: &Queue,
    problem: &TransposeProblem,
    baked: &Baked,
    input: [RawMem; 2],
    output: [RawMem; 2],
    wait: &[RawEvent],
) -> Result<Event> {
    let planes_of = |b: BufRef| if b == BufRef::Input { input } else { output };
    let one = real_arg(problem.precision, 1.0);
    let steps =
        baked.launches.iter().map(|launch| launch.bind(planes_of(launch.src), planes_of(launch.dst), [one; 3], [0; 2]));
    match enqueue_chain(queue, wait, steps)? {
        Some(event) => Ok(event),
        None => enqueue_marker(queue.raw(), wait),
    }
}

/// Drops every kept transpose plan (teardown).
pub fn clear() {
    BAKED.lock().unwrap_or_else(|e| e.into_inner()).clear();
}
