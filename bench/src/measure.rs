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

#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub runs: usize,
    pub warmups: usize,
}

/// What one implementation produced for one case.
#[derive(Debug, Default)]
pub struct Measurement {
    /// Plan creation and bake (FFTW: planning with FFTW_MEASURE; VkFFT: initializeVkFFT).
    pub plan_ms: Option<f64>,
    /// fftx only: the same plan baked again in a second, fresh OpenCL context (the on-disk cache path).
    pub warm_plan_ms: Option<f64>,
    pub times_ms: Vec<f64>,
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

/// Times `enqueue` + clFinish, restoring the input (untimed) before every run. The first `warmups` runs are
/// not kept.
pub fn time_device(
    cl: &Cl,
    buffers: &CaseBuffers,
    timing: &Timing,
    mut enqueue: impl FnMut() -> Result<(), Failure>,
) -> Result<Vec<f64>, Failure> {
    let mut times_ms = Vec::with_capacity(timing.runs);
    for run in 0..timing.warmups + timing.runs {
        buffers.restore(cl).map_err(Failure::Error)?;
        let start = Instant::now();
        enqueue()?;
        cl.finish().map_err(Failure::Error)?;
        if run >= timing.warmups {
            times_ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    Ok(times_ms)
}

/// The memory floor: clEnqueueCopyBuffer of the case's input bytes + clFinish.
pub fn time_copy(cl: &Cl, buffers: &CaseBuffers, timing: &Timing) -> Result<Vec<f64>, Failure> {
    let mut times_ms = Vec::with_capacity(timing.runs);
    for run in 0..timing.warmups + timing.runs {
        let start = Instant::now();
        cl.enqueue_copy(&buffers.pristine, &buffers.input, buffers.pristine.bytes).map_err(Failure::Error)?;
        cl.finish().map_err(Failure::Error)?;
        if run >= timing.warmups {
            times_ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    Ok(times_ms)
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
