//! One batched transform spread over several devices of a context: clFFT's queue arrays (`numQueues > 1`
//! in `clfftBakePlan` and `clfftEnqueueTransform`) split the batch among the queues' devices. Each device
//! runs a contiguous share of the batch on sub-buffers of the caller's buffers, so the result is the one a
//! single queue computes.
//!
//! Ordering follows every given queue, as if each had run the whole transform: each share waits for what was
//! enqueued before on all the queues, and each queue gets a barrier after all the shares, whose event is that
//! queue's output event.

use super::exec::transform_bytes;
use super::{Direction, Plan, Settings};
use crate::error::{fail, ErrorKind, Result};
use crate::runtime::cl::{enqueue_barrier_after, enqueue_marker, RawEvent, RawMem};
use crate::runtime::{device_info, Buffer, Event, Queue};
use crate::types::TransformKind;

/// A plan's shares of the batch, one per device.
pub struct Spread {
    /// The devices the shares were made for, in the caller's order.
    devices: Vec<usize>,
    /// Bytes from one transform of the batch to the next in each plane of the input and of the output.
    distances: (usize, usize),
    shares: Vec<Share>,
}

struct Share {
    queue: Queue,
    /// The share's first transform of the batch.
    first: usize,
    plan: Plan,
}

impl Spread {
    /// The shares of `settings`' batch for the distinct devices of `queues`, each proportional to its device's
    /// compute units; `None` where there is nothing to spread: one device, a batch too small to split at
    /// offsets the devices take sub-buffers at, transforms of the batch that interleave, callbacks (whose
    /// user data is indexed over the whole batch), or a device that cannot run the plan.
    pub fn new(settings: &Settings, queues: &[Queue]) -> Result<Option<Spread>> {
        let distinct = distinct_devices(queues)?;
        if distinct.len() < 2 || settings.pre_callback.is_some() || settings.post_callback.is_some() {
            return Ok(None);
        }
        let problem = settings.problem()?;
        let sides = [
            transform_bytes(&problem, &problem.input, problem.kind == TransformKind::R2C),
            transform_bytes(&problem, &problem.output, problem.kind == TransformKind::C2R),
        ];
        let Some(quantum) = quantum(settings, &sides)? else {
            return Ok(None);
        };
        let mut weights = Vec::with_capacity(distinct.len());
        for (device, _) in &distinct {
            weights.push(device_info(*device as _)?.compute_units.max(1) as f64);
        }
        let counts = shares(settings.batch, &weights, quantum);
        if counts.iter().filter(|&&c| c > 0).count() < 2 {
            return Ok(None);
        }
        let devices = distinct.iter().map(|(d, _)| *d).collect();
        let mut spread = Spread { devices, distances: (sides[0].0, sides[1].0), shares: Vec::new() };
        let mut first = 0;
        for ((_, queue), count) in distinct.into_iter().zip(counts) {
            if count > 0 {
                let mut plan = Plan::new(Settings { batch: count, ..settings.clone() });
                // A device that cannot run the plan (no fp64, too little memory) leaves the whole batch to the
                // first queue, as clFFT runs it.
                if let Err(e) = plan.bake(&queue) {
                    crate::log!(crate::log::Topic::Info, "the batch is not spread: {e}");
                    return Ok(None);
                }
                spread.shares.push(Share { queue, first, plan });
            }
            first += count;
        }
        crate::log!(
            crate::log::Topic::Plan,
            "batch of {} spread over {} devices: {}",
            settings.batch,
            spread.shares.len(),
            spread
                .shares
                .iter()
                .map(|s| format!("{} from {}", s.plan.settings().batch, s.first))
                .collect::<Vec<_>>()
                .join(", ")
        );
        Ok(Some(spread))
    }

    /// (first transform, count) of each share.
    pub fn shares(&self) -> Vec<(usize, usize)> {
        self.shares.iter().map(|s| (s.first, s.plan.settings().batch)).collect()
    }

    /// Whether the shares were made for the devices of `queues`.
    pub fn made_for(&self, queues: &[Queue]) -> Result<bool> {
        let devices: Vec<usize> = distinct_devices(queues)?.into_iter().map(|(d, _)| d).collect();
        Ok(devices == self.devices)
    }

    /// Runs each share on its device after `wait` and after what each of `queues` holds; returns one event per
    /// queue of `queues`, each completing with the whole transform.
    pub fn enqueue(
        &mut self,
        direction: Direction,
        queues: &[Queue],
        wait: &[RawEvent],
        input: &[RawMem],
        output: &[RawMem],
    ) -> Result<Vec<Event>> {
        let mut before: Vec<Event> = Vec::with_capacity(queues.len());
        for queue in queues {
            before.push(enqueue_marker(queue.raw(), &[])?);
        }
        let start: Vec<RawEvent> = wait.iter().copied().chain(before.iter().map(|e| e.raw())).collect();
        let mut done = Vec::with_capacity(self.shares.len());
        for share in &mut self.shares {
            let settings = share.plan.settings().clone();
            let baked = share.plan.bake(&share.queue)?;
            let (in_reach, out_reach) = baked.reach();
            // In place, the one buffer holds the larger side.
            let in_bytes = if settings.in_place { in_reach.max(out_reach) } else { in_reach };
            let in_planar = settings.in_layout.is_planar();
            let inputs = regions(input, in_planar, share.first * self.distances.0, in_bytes)?;
            let outputs = if settings.in_place {
                Vec::new()
            } else {
                regions(output, settings.out_layout.is_planar(), share.first * self.distances.1, out_reach)?
            };
            let raw = |buffers: &[Buffer]| buffers.iter().map(|b| b.raw()).collect::<Vec<RawMem>>();
            let scale = settings.scale(direction);
            done.push(baked.enqueue(direction, scale, &share.queue, &start, &raw(&inputs), &raw(&outputs), None)?);
        }
        let all: Vec<RawEvent> = done.iter().map(|e| e.raw()).collect();
        queues.iter().map(|queue| enqueue_barrier_after(queue.raw(), &all)).collect()
    }
}

/// The queues of `queues` on distinct devices: the first queue of each device, in the caller's order.
fn distinct_devices(queues: &[Queue]) -> Result<Vec<(usize, Queue)>> {
    let mut distinct: Vec<(usize, Queue)> = Vec::new();
    for queue in queues {
        let device = queue.device()? as usize;
        if !distinct.iter().any(|(d, _)| *d == device) {
            distinct.push((device, queue.clone()));
        }
    }
    Ok(distinct)
}

/// Sub-buffers of `buffers` (two planes where `planar`, else one), `bytes` each from byte `offset`.
fn regions(buffers: &[RawMem], planar: bool, offset: usize, bytes: usize) -> Result<Vec<Buffer>> {
    let planes = if planar { 2 } else { 1 };
    if buffers.len() < planes || buffers[..planes].iter().any(|b| b.is_null()) {
        return fail(ErrorKind::InvalidArgValue, format!("the layout needs {planes} buffer(s), and got fewer"));
    }
    buffers[..planes].iter().map(|&b| Buffer::region_of_raw(b, offset, bytes)).collect()
}

/// The fewest transforms a share may hold, so that every share starts at a place that every device of the
/// context takes a sub-buffer at; `None` where the transforms of the batch interleave (no share then has a
/// region of its own). `sides` are the input's and the output's (distance, span) in bytes.
fn quantum(settings: &Settings, sides: &[(usize, usize); 2]) -> Result<Option<usize>> {
    let mut align = 1;
    for device in settings.context.devices()? {
        align = lcm(align, device_info(device)?.sub_buffer_align);
    }
    let used = if settings.in_place { &sides[..1] } else { &sides[..] };
    let mut quantum = 1;
    for &(distance, span) in used {
        if distance == 0 || distance < span {
            return Ok(None);
        }
        quantum = lcm(quantum, align / gcd(align, distance));
    }
    Ok(Some(quantum))
}

/// `batch` split in proportion to `weights`, each share a multiple of `quantum` but the last, which takes
/// what is left; a share too small for one quantum is empty.
pub fn shares(batch: usize, weights: &[f64], quantum: usize) -> Vec<usize> {
    let total: f64 = weights.iter().sum();
    let mut counts = Vec::with_capacity(weights.len());
    let mut given = 0;
    for (i, w) in weights.iter().enumerate() {
        let count = if i + 1 == weights.len() {
            batch - given
        } else {
            let ideal = batch as f64 * w / total;
            ((ideal / quantum as f64).round() as usize * quantum).min(batch - given)
        };
        counts.push(count);
        given += count;
    }
    counts
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_devices_take_equal_shares() {
        assert_eq!(shares(64, &[1.0, 1.0], 1), [32, 32]);
        assert_eq!(shares(7, &[1.0, 1.0], 1), [4, 3]);
        assert_eq!(shares(64, &[2.0, 2.0, 2.0, 2.0], 1), [16, 16, 16, 16]);
    }

    #[test]
    fn a_device_four_times_slower_takes_a_fifth() {
        assert_eq!(shares(100, &[4.0, 1.0], 1), [80, 20]);
        assert_eq!(shares(100, &[1.0, 4.0], 1), [20, 80]);
    }

    #[test]
    fn shares_start_at_multiples_of_the_quantum() {
        assert_eq!(shares(64, &[1.0, 1.0], 16), [32, 32]);
        assert_eq!(shares(40, &[1.0, 1.0], 16), [16, 24]);
        // Too small a batch for two quanta: all of it on the last device.
        assert_eq!(shares(10, &[1.0, 1.0], 16), [0, 10]);
        assert_eq!(shares(100, &[4.0, 1.0], 8), [80, 20]);
    }
}
