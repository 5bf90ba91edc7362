//! A complex-to-complex transform to run through the clFFT API and check against the reference.

use super::*;
use fftx::api::clfft::*;
use num_complex::Complex64;
use std::ptr;

/// One complex-to-complex transform to run and check.
#[derive(Debug, Clone)]
pub struct Case {
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub precision: Prec,
    pub in_planar: bool,
    pub out_planar: bool,
    pub in_place: bool,
    pub in_strides: Option<Vec<usize>>,
    pub out_strides: Option<Vec<usize>>,
    pub in_dist: Option<usize>,
    pub out_dist: Option<usize>,
    pub direction: Dir,
    pub transposed: bool,
    /// The plan's own no-allocation mode (`fftxSetPlanNoMemAlloc`); when on, the run also checks that the
    /// plan reports no scratch.
    pub no_mem_alloc: Option<bool>,
    /// The plan's tuning (`fftxClfftSetPlanTuning`); `None` keeps `FFTX_TUNE`'s.
    pub tuning: Option<&'static str>,
}

impl Case {
    pub fn new(lengths: &[usize]) -> Case {
        Case {
            lengths: lengths.to_vec(),
            batch: 1,
            precision: Prec::Single,
            in_planar: false,
            out_planar: false,
            in_place: false,
            in_strides: None,
            out_strides: None,
            in_dist: None,
            out_dist: None,
            direction: Dir::Forward,
            transposed: false,
            no_mem_alloc: None,
            tuning: None,
        }
    }
    pub fn batch(mut self, b: usize) -> Self {
        self.batch = b;
        self
    }
    pub fn double(mut self) -> Self {
        self.precision = Prec::Double;
        self
    }
    pub fn precision(mut self, p: Prec) -> Self {
        self.precision = p;
        self
    }
    pub fn backward(mut self) -> Self {
        self.direction = Dir::Backward;
        self
    }
    pub fn in_place(mut self) -> Self {
        self.in_place = true;
        self
    }
    pub fn planar(mut self, input: bool, output: bool) -> Self {
        self.in_planar = input;
        self.out_planar = output;
        self
    }
    pub fn strides(mut self, input: &[usize], output: &[usize]) -> Self {
        self.in_strides = Some(input.to_vec());
        self.out_strides = Some(output.to_vec());
        self
    }
    pub fn dists(mut self, input: usize, output: usize) -> Self {
        self.in_dist = Some(input);
        self.out_dist = Some(output);
        self
    }
    pub fn transposed(mut self) -> Self {
        self.transposed = true;
        self
    }
    pub fn tuning(mut self, spec: &'static str) -> Self {
        self.tuning = Some(spec);
        self
    }
    pub fn no_mem_alloc(mut self, on: bool) -> Self {
        self.no_mem_alloc = Some(on);
        self
    }

    fn packed(&self) -> Vec<usize> {
        let mut s = Vec::new();
        let mut p = 1;
        for &l in &self.lengths {
            s.push(p);
            p *= l;
        }
        s
    }

    fn layout(&self) -> (Vec<usize>, usize, Vec<usize>, usize) {
        let total: usize = self.lengths.iter().product();
        let is = self.in_strides.clone().unwrap_or_else(|| self.packed());
        let mut default_out = self.packed();
        if self.transposed && !self.in_place {
            // The transposed result of a 2D plan is a lengths[1] x lengths[0] array.
            default_out = vec![1, self.lengths[1]];
        }
        let os = self.out_strides.clone().unwrap_or(default_out);
        (is, self.in_dist.unwrap_or(total), os, self.out_dist.unwrap_or(total))
    }

    /// Runs the transform through the C API and returns the normalized RMSE against the f64 reference.
    pub fn run(&self) -> f64 {
        let (rmse, _) = self.run_with_input(None);
        rmse
    }

    /// Runs the case; `input` overrides the random input. Returns (rmse, output as read back).
    pub fn run_with_input(&self, input: Option<&[Complex64]>) -> (f64, Vec<Complex64>) {
        let (is, idist, os, odist) = self.layout();
        let extent = |strides: &[usize], dist: usize| {
            self.lengths.iter().zip(strides).map(|(l, s)| (l - 1) * s).sum::<usize>() + (self.batch - 1) * dist + 1
        };
        let mut out_positions = os.clone();
        if self.transposed {
            out_positions.swap(0, 1);
            if self.in_place {
                // In place (packed data only), the result is the packed transpose, as clFFT leaves it.
                out_positions = vec![self.lengths[1], 1];
            }
        }
        let in_len = extent(&is, idist);
        let out_len = if self.in_place { in_len } else { extent(&out_positions, odist) };
        let host: Vec<Complex64> = match input {
            Some(v) => v.to_vec(),
            None => random_complex(in_len, 42 + self.lengths.iter().sum::<usize>() as u64),
        };
        assert_eq!(host.len(), in_len);

        let input_bufs = DeviceData::upload(&host, self.precision, self.in_planar);
        let output_bufs = if self.in_place {
            None
        } else {
            Some(DeviceData::upload(
                &vec![Complex64::new(f64::NAN, f64::NAN); out_len],
                self.precision,
                self.out_planar,
            ))
        };

        let mut plan: clfftPlanHandle = 0;
        unsafe {
            let dim = self.lengths.len() as i32;
            check(clfftCreateDefaultPlan(&mut plan, context_ptr(), dim, self.lengths.as_ptr()), "create");
            set_tuning(plan, self.tuning);
            check(clfftSetPlanPrecision(plan, if self.precision == Prec::Double { 2 } else { 1 }), "precision");
            check(
                clfftSetLayout(plan, if self.in_planar { 2 } else { 1 }, if self.out_planar { 2 } else { 1 }),
                "layout",
            );
            check(clfftSetResultLocation(plan, if self.in_place { 1 } else { 2 }), "placeness");
            check(clfftSetPlanBatchSize(plan, self.batch), "batch");
            let mut is_mut = is.clone();
            let mut os_mut = os.clone();
            check(clfftSetPlanInStride(plan, dim, is_mut.as_mut_ptr()), "instride");
            check(clfftSetPlanOutStride(plan, dim, os_mut.as_mut_ptr()), "outstride");
            check(clfftSetPlanDistance(plan, idist, odist), "dist");
            if self.transposed {
                check(clfftSetPlanTransposeResult(plan, 2), "transposed");
            }
            if let Some(on) = self.no_mem_alloc {
                check(fftx::api::transpose::fftxSetPlanNoMemAlloc(plan, on as i32), "no-allocation mode");
            }
            let mut q = queue_ptr();
            check(clfftBakePlan(plan, 1, &mut q, None, ptr::null_mut()), "bake");
            if self.no_mem_alloc == Some(true) {
                let mut tmp = usize::MAX;
                check(clfftGetTmpBufSize(plan, &mut tmp), "tmp size");
                assert_eq!(tmp, 0, "scratch reported in the no-allocation mode");
            }
            let dir = if self.direction == Dir::Forward { -1 } else { 1 };
            run_and_destroy(plan, dir, &input_bufs, output_bufs.as_ref());
        }
        let result = output_bufs.as_ref().unwrap_or(&input_bufs).download();

        let out_lengths = self.lengths.clone();
        let total: usize = self.lengths.iter().product();
        let mut err = 0.0;
        let mut norm = 0.0;
        for b in 0..self.batch {
            let x = gather(&host, &self.lengths, &is, b * idist);
            let mut reference = reference_fft(&x, &self.lengths, self.direction);
            if self.direction == Dir::Backward {
                reference.iter_mut().for_each(|v| *v /= total as f64);
            }
            let got = gather(&result, &out_lengths, &out_positions, b * odist);
            for (g, r) in got.iter().zip(&reference) {
                err += (g - r).norm_sqr();
                norm += r.norm_sqr();
            }
        }
        ((err / norm.max(f64::MIN_POSITIVE)).sqrt(), result)
    }
}
