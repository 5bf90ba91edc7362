//! Timing loops and what a measurement yields.

use crate::cases::Case;
use crate::opencl::{Buffer, Cl};
use std::fmt;
use std::time::Instant;

/// Why an implementation has no figures for a case.
#[derive(Debug, Clone)]
pub enum Failure {
    /// The implementation refuses this transform (not implemented, no double support): "n/a".
    NotAvailable(String),
    /// It accepted the transform and then failed.
    Error(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Failure::NotAvailable(why) | Failure::Error(why) => f.write_str(why),
        }
    }
}

/// How often each implementation runs a case. Its `runs` timed runs are spread over `rounds` turns that
/// alternate with the other implementations', so that a burst of load from elsewhere on the machine (a shared
/// machine's neighbours take it for tens or hundreds of milliseconds) falls on every implementation's
/// samples alike instead of doubling one library's median. Each turn starts with `warmups` untimed runs
/// (more in the first, which may compile kernels or fault pages in).
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub runs: usize,
    pub rounds: usize,
    pub warmups: usize,
}

impl Timing {
    /// `runs` timed runs in up to `MAX_ROUNDS` turns.
    pub fn new(runs: usize) -> Self {
        Timing { runs, rounds: runs.clamp(1, MAX_ROUNDS), warmups: 1 }
    }

    /// Timed runs in turn `round`: the runs shared out as evenly as they go.
    fn runs_in(&self, round: usize) -> usize {
        self.runs / self.rounds + usize::from(round < self.runs % self.rounds)
    }
}

/// Turns per implementation and case.
const MAX_ROUNDS: usize = 5;

/// An implementation planned for one case, which runs it again and again.
pub trait Contestant {
    /// One timed transform in milliseconds; what each run needs restored first happens before the clock starts.
    fn run(&mut self) -> Result<f64, Failure>;
    /// Called before the last turn, whose final run's output is checked: the OpenCL contestants share the
    /// result buffer and poison it, so that a library that writes nothing cannot pass on another's result.
    fn prepare_checked_turn(&mut self) -> Result<(), Failure> {
        Ok(())
    }
    /// The output of the last run, for the accuracy check (none for the copy).
    fn output(&mut self) -> Result<Option<Vec<f64>>, Failure>;
}

/// A contestant and what planning it cost.
pub struct Planned<'a> {
    pub contestant: Box<dyn Contestant + 'a>,
    /// Runs in the contestant's turns, one run after each of its runs, so that a slow stretch of the machine
    /// (a shared VM's vCPU runs at half speed for seconds at a time) slows both alike and their ratio holds:
    /// fftx's complex transform of a real case's size. Its failure leaves the contestant's runs alone.
    pub partner: Option<Box<dyn Contestant + 'a>>,
    pub plan_ms: Option<f64>,
    pub warm_plan_ms: Option<f64>,
    pub tmp_bytes: Option<usize>,
}

impl<'a> Planned<'a> {
    /// `contestant`, planned in `plan_ms`, with no warm bake or scratch to report.
    pub fn new(contestant: impl Contestant + 'a, plan_ms: Option<f64>) -> Self {
        Planned { contestant: Box::new(contestant), partner: None, plan_ms, warm_plan_ms: None, tmp_bytes: None }
    }
}

/// Runs the planned contestants in alternating turns (each round in a rotated order) and returns each one's
/// measurement, or why it has none; a contestant that fails leaves the later rounds.
pub fn interleave(planned: Vec<Result<Planned<'_>, Failure>>, timing: &Timing) -> Vec<Result<Measurement, Failure>> {
    let mut times: Vec<Vec<f64>> = planned.iter().map(|_| Vec::with_capacity(timing.runs)).collect();
    let mut outputs: Vec<Option<Vec<f64>>> = planned.iter().map(|_| None).collect();
    let mut partner_times: Vec<Result<Vec<f64>, Failure>> = planned.iter().map(|_| Ok(Vec::new())).collect();
    let mut states = planned;
    let count = states.len();
    for round in 0..timing.rounds {
        let last = round + 1 == timing.rounds;
        for turn in 0..count {
            let i = (turn + round) % count;
            let Ok(Planned { contestant, partner, .. }) = &mut states[i] else { continue };
            let warmups = if round == 0 { timing.warmups + 1 } else { timing.warmups };
            let partner_times = &mut partner_times[i];
            let mut run_partner = |timed: bool| {
                if let (Some(partner), Ok(times)) = (partner.as_mut(), partner_times.as_mut()) {
                    match partner.run() {
                        Ok(ms) if timed => times.push(ms),
                        Ok(_) => {}
                        Err(failure) => *partner_times = Err(failure),
                    }
                }
            };
            let result = (|| {
                if last {
                    contestant.prepare_checked_turn()?;
                }
                for _ in 0..warmups {
                    contestant.run()?;
                    run_partner(false);
                }
                for _ in 0..timing.runs_in(round) {
                    times[i].push(contestant.run()?);
                    run_partner(true);
                }
                if last {
                    outputs[i] = contestant.output()?;
                }
                Ok(())
            })();
            if let Err(failure) = result {
                states[i] = Err(failure);
            }
        }
    }
    states
        .into_iter()
        .zip(times.into_iter().zip(outputs).zip(partner_times))
        .map(|(state, ((times_ms, output), partner_times_ms))| {
            state.map(|p| Measurement {
                partner_times_ms: p.partner.map(|_| partner_times_ms),
                plan_ms: p.plan_ms,
                warm_plan_ms: p.warm_plan_ms,
                times_ms,
                output,
                tmp_bytes: p.tmp_bytes,
            })
        })
        .collect()
}

/// What one implementation produced for one case.
#[derive(Debug, Default)]
pub struct Measurement {
    /// Plan creation and bake (FFTW: planning with FFTW_MEASURE; VkFFT: initializeVkFFT).
    pub plan_ms: Option<f64>,
    /// fftx only: the same plan baked again in fresh OpenCL contexts, the median of 3 (the on-disk cache path).
    pub warm_plan_ms: Option<f64>,
    pub times_ms: Vec<f64>,
    /// The partner's timed runs, one after each of `times_ms`, or why it stopped (`Planned::partner`).
    pub partner_times_ms: Option<Result<Vec<f64>, Failure>>,
    /// The transform's output as f64, for the accuracy check.
    pub output: Option<Vec<f64>>,
    /// Scratch memory the library reports for the plan (clfftGetTmpBufSize).
    pub tmp_bytes: Option<usize>,
}

/// The buffers of one case, shared by the OpenCL implementations: an untouched copy of the input, the input
/// each run reads, and the output (absent for in-place cases, which write over the input).
pub struct CaseBuffers {
    pub pristine: Buffer,
    pub input: Buffer,
    pub output: Option<Buffer>,
}

impl CaseBuffers {
    pub fn new(cl: &Cl, case: &Case, input: &[u8]) -> Result<Self, String> {
        let pristine = cl.buffer(case.input_bytes())?;
        cl.write(&pristine, input)?;
        let input = cl.buffer(case.input_bytes().max(if case.in_place { case.output_bytes() } else { 0 }))?;
        let output = if case.in_place { None } else { Some(cl.buffer(case.output_bytes())?) };
        Ok(CaseBuffers { pristine, input, output })
    }

    /// Where the result lands.
    pub fn result(&self) -> &Buffer {
        self.output.as_ref().unwrap_or(&self.input)
    }

    /// Restores the input from the pristine copy and waits; in-place runs destroy it, and an out-of-place
    /// library may use its input as scratch.
    pub fn restore(&self, cl: &Cl) -> Result<(), String> {
        cl.enqueue_copy(&self.pristine, &self.input, self.pristine.bytes)?;
        cl.finish()
    }

    /// Poisons the result buffer (and restores the input) before an implementation's turn.
    pub fn reset(&self, cl: &Cl) -> Result<(), String> {
        cl.poison(self.result())?;
        self.restore(cl)
    }
}

/// Times `enqueue` + clFinish, the input restored (untimed) first.
pub fn time_device(
    cl: &Cl,
    buffers: &CaseBuffers,
    enqueue: impl FnOnce() -> Result<(), Failure>,
) -> Result<f64, Failure> {
    buffers.restore(cl).map_err(Failure::Error)?;
    let start = Instant::now();
    enqueue()?;
    cl.finish().map_err(Failure::Error)?;
    Ok(start.elapsed().as_secs_f64() * 1e3)
}

/// The memory floor: clEnqueueCopyBuffer of the case's input bytes + clFinish.
pub struct Copy<'a> {
    pub cl: &'a Cl,
    pub buffers: &'a CaseBuffers,
}

impl Contestant for Copy<'_> {
    fn run(&mut self) -> Result<f64, Failure> {
        let start = Instant::now();
        let (from, to) = (&self.buffers.pristine, &self.buffers.input);
        self.cl.enqueue_copy(from, to, from.bytes).map_err(Failure::Error)?;
        self.cl.finish().map_err(Failure::Error)?;
        Ok(start.elapsed().as_secs_f64() * 1e3)
    }

    fn output(&mut self) -> Result<Option<Vec<f64>>, Failure> {
        Ok(None)
    }
}

pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    }
}

pub fn minimum(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Logs each call as (name, what) and fails its run number `fail_at`, if given.
    struct Scripted {
        name: char,
        log: Rc<RefCell<Vec<(char, &'static str)>>>,
        runs: usize,
        fail_at: Option<usize>,
    }

    impl Contestant for Scripted {
        fn run(&mut self) -> Result<f64, Failure> {
            self.runs += 1;
            self.log.borrow_mut().push((self.name, "run"));
            if Some(self.runs) == self.fail_at {
                return Err(Failure::Error("scripted".into()));
            }
            Ok(self.runs as f64)
        }

        fn prepare_checked_turn(&mut self) -> Result<(), Failure> {
            self.log.borrow_mut().push((self.name, "checked turn"));
            Ok(())
        }

        fn output(&mut self) -> Result<Option<Vec<f64>>, Failure> {
            Ok(Some(vec![self.runs as f64]))
        }
    }

    fn planned(
        name: char,
        log: &Rc<RefCell<Vec<(char, &'static str)>>>,
        fail_at: Option<usize>,
    ) -> Result<Planned<'static>, Failure> {
        let contestant = Scripted { name, log: log.clone(), runs: 0, fail_at };
        Ok(Planned::new(contestant, Some(1.0)))
    }

    #[test]
    fn runs_are_shared_out_over_the_rounds() {
        let timing = Timing::new(12);
        assert_eq!(timing.rounds, 5);
        assert_eq!((0..5).map(|r| timing.runs_in(r)).collect::<Vec<_>>(), [3, 3, 2, 2, 2]);
        assert_eq!(Timing::new(1).rounds, 1);
    }

    #[test]
    fn turns_alternate_in_rotated_order_and_a_failure_leaves_the_later_rounds() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let timing = Timing { runs: 3, rounds: 3, warmups: 0 };
        let results = interleave(
            vec![planned('a', &log, None), Err(Failure::NotAvailable("no".into())), planned('c', &log, Some(2))],
            &timing,
        );
        // Round 1: a (one warm-up, one run), c (its warm-up, then its run fails); round 2 starts with the
        // failed slot; round 3 with c's. The checked turn comes last.
        let turns: Vec<char> = log.borrow().iter().filter(|(_, what)| *what == "run").map(|(name, _)| *name).collect();
        assert_eq!(turns, ['a', 'a', 'c', 'c', 'a', 'a']);
        assert_eq!(log.borrow().iter().filter(|(_, what)| *what == "checked turn").count(), 1);
        let a = results[0].as_ref().unwrap();
        assert_eq!(a.times_ms, [2.0, 3.0, 4.0]);
        assert_eq!(a.output, Some(vec![4.0]));
        assert!(matches!(results[1], Err(Failure::NotAvailable(_))));
        assert!(matches!(results[2], Err(Failure::Error(_))));
    }

    #[test]
    fn a_partner_runs_after_each_run_and_its_failure_stops_only_it() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let timing = Timing { runs: 4, rounds: 2, warmups: 0 };
        let with_partner = |name, partner, fail_at| {
            let mut planned = planned(name, &log, None).unwrap();
            planned.partner = Some(Box::new(Scripted { name: partner, log: log.clone(), runs: 0, fail_at }));
            Ok(planned)
        };
        let results = interleave(vec![with_partner('a', 'p', None), with_partner('b', 'q', Some(3))], &timing);
        let turns: String = log.borrow().iter().filter(|(_, what)| *what == "run").map(|(name, _)| *name).collect();
        // Round 1: a's warm-up and two runs, each followed by p's, then b's with q's, where q fails on its
        // third run; round 2 starts with b, which runs on alone.
        assert_eq!(turns, "apapapbqbqbqbbapap");
        let a = results[0].as_ref().unwrap();
        assert_eq!(a.times_ms, [2.0, 3.0, 4.0, 5.0]);
        assert_eq!(a.partner_times_ms.as_ref().unwrap().as_ref().unwrap(), &[2.0, 3.0, 4.0, 5.0]);
        let b = results[1].as_ref().unwrap();
        assert_eq!(b.times_ms, [2.0, 3.0, 4.0, 5.0]);
        assert!(matches!(b.partner_times_ms, Some(Err(Failure::Error(_)))));
    }
}
