//! A real transform (R2C or C2R) to run through the clFFT API and check against the reference.

use super::*;
use fftx::api::clfft::*;
use num_complex::Complex64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RealDir {
    R2C,
    C2R,
}

/// One real transform to run and check. The real side uses real units for strides and distances, the
/// Hermitian side complex units, as clFFT does.
#[derive(Debug, Clone)]
pub struct RealCase {
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub precision: Prec,
    pub dir: RealDir,
    pub hermitian_planar: bool,
    pub in_place: bool,
    /// Imaginary parts added to the C2R input where Hermitian symmetry makes them redundant (1D only).
    pub perturb_redundant: bool,
    /// Every stride and distance of an out-of-place case times this (gaps between the elements).
    pub spread: usize,
    /// Out of place: (real strides, real distance, Hermitian strides, Hermitian distance) instead of packed.
    pub custom_layout: Option<(Vec<usize>, usize, Vec<usize>, usize)>,
    /// The plan's tuning (`fftxClfftSetPlanTuning`); `None` keeps `FFTX_TUNE`'s.
    pub tuning: Option<&'static str>,
}

impl RealCase {
    pub fn new(lengths: &[usize], dir: RealDir) -> RealCase {
        RealCase {
            lengths: lengths.to_vec(),
            batch: 1,
            precision: Prec::Single,
            dir,
            hermitian_planar: false,
            in_place: false,
            perturb_redundant: false,
            spread: 1,
            tuning: None,
            custom_layout: None,
        }
    }
    pub fn batch(mut self, b: usize) -> Self {
        self.batch = b;
        self
    }
    pub fn precision(mut self, p: Prec) -> Self {
        self.precision = p;
        self
    }
    pub fn planar(mut self) -> Self {
        self.hermitian_planar = true;
        self
    }
    pub fn in_place(mut self) -> Self {
        self.in_place = true;
        self
    }
    pub fn perturbed(mut self) -> Self {
        self.perturb_redundant = true;
        self
    }
    pub fn tuning(mut self, spec: &'static str) -> Self {
        self.tuning = Some(spec);
        self
    }
    pub fn spread(mut self, factor: usize) -> Self {
        self.spread = factor;
        self
    }
    /// Out-of-place strides and distances: reals on the real side, complex values on the Hermitian side.
    pub fn layout_of(
        mut self,
        real_strides: &[usize],
        real_dist: usize,
        herm_strides: &[usize],
        herm_dist: usize,
    ) -> Self {
        self.custom_layout = Some((real_strides.to_vec(), real_dist, herm_strides.to_vec(), herm_dist));
        self
    }

    fn herm_lengths(&self) -> Vec<usize> {
        let mut h = self.lengths.clone();
        h[0] = h[0] / 2 + 1;
        h
    }

    /// (real strides, real distance, Hermitian strides, Hermitian distance): packed (times `spread`), or
    /// padded rows of 2 (n/2 + 1) reals in place.
    fn layout(&self) -> (Vec<usize>, usize, Vec<usize>, usize) {
        if let Some(custom) = &self.custom_layout {
            assert!(!self.in_place, "custom layouts are out of place");
            return custom.clone();
        }
        let herm = self.herm_lengths();
        let packed = |l: &[usize]| (fftx::planner::packed_strides(l), l.iter().product::<usize>());
        let (hs, hd) = packed(&herm);
        if self.in_place {
            let rs: Vec<usize> = hs.iter().enumerate().map(|(i, &s)| if i == 0 { 1 } else { 2 * s }).collect();
            (rs, 2 * hd, hs, hd)
        } else {
            let (rs, rd) = packed(&self.lengths);
            let spread = |s: Vec<usize>| s.into_iter().map(|x| x * self.spread).collect();
            (spread(rs), rd * self.spread, spread(hs), hd * self.spread)
        }
    }

    /// Runs the case and returns the normalized RMSE against the f64 reference.
    pub fn run(&self) -> f64 {
        let (rs, rd, hs, hd) = self.layout();
        let herm = self.herm_lengths();
        let n_real: usize = self.lengths.iter().product();
        let dim = self.lengths.len() as i32;
        let real_len = rd * self.batch;
        let herm_len = hd * self.batch;
        // Real data x and its Hermitian half X (f64 reference).
        let x: Vec<f64> = random_complex(real_len, 5 + n_real as u64).iter().map(|c| c.re).collect();
        let mut spectrum = vec![Complex64::new(0.0, 0.0); herm_len];
        let mut reals = vec![0.0; real_len];
        for b in 0..self.batch {
            let packed: Vec<Complex64> =
                gather(&x, &self.lengths, &rs, b * rd).into_iter().map(|v| Complex64::new(v, 0.0)).collect();
            let full = reference_fft(&packed, &self.lengths, Dir::Forward);
            for (i, v) in full.iter().enumerate() {
                let k0 = i % self.lengths[0];
                if k0 < herm[0] {
                    let mut rest = i / self.lengths[0];
                    let mut pos = b * hd + k0 * hs[0];
                    for (l, s) in self.lengths[1..].iter().zip(&hs[1..]) {
                        pos += (rest % l) * s;
                        rest /= l;
                    }
                    spectrum[pos] = *v;
                }
            }
            for (i, v) in packed.iter().enumerate() {
                let mut rest = i;
                let mut pos = b * rd;
                for (l, s) in self.lengths.iter().zip(&rs) {
                    pos += (rest % l) * s;
                    rest /= l;
                }
                reals[pos] = v.re;
            }
        }
        let mut c2r_input = spectrum.clone();
        if self.perturb_redundant && self.dir == RealDir::C2R {
            for b in 0..self.batch {
                c2r_input[b * hd].im += 0.75;
                if self.lengths[0] % 2 == 0 {
                    c2r_input[b * hd + (herm[0] - 1) * hs[0]].im -= 0.5;
                }
            }
        }
        let real_data: Vec<Complex64> = reals.iter().map(|&r| Complex64::new(r, 0.0)).collect();
        let (input_host, in_real) = match self.dir {
            RealDir::R2C => (real_data.clone(), true),
            RealDir::C2R => (c2r_input, false),
        };
        let upload = |data: &[Complex64], real: bool, len: usize| {
            let mut padded = data.to_vec();
            padded.resize(len, Complex64::new(0.0, 0.0));
            if real {
                DeviceData::upload_real(&padded, self.precision)
            } else {
                DeviceData::upload(&padded, self.precision, self.hermitian_planar)
            }
        };
        // In place, one buffer holds max(real, complex) storage.
        let storage = real_len.max(2 * herm_len);
        let input_bufs = if self.in_place {
            if in_real {
                upload(&input_host, true, storage)
            } else {
                let mut as_reals = vec![Complex64::new(0.0, 0.0); storage];
                for (i, v) in input_host.iter().enumerate() {
                    as_reals[2 * i] = Complex64::new(v.re, 0.0);
                    as_reals[2 * i + 1] = Complex64::new(v.im, 0.0);
                }
                DeviceData::upload_real(&as_reals, self.precision)
            }
        } else {
            upload(&input_host, in_real, input_host.len())
        };
        let output_bufs = (!self.in_place).then(|| match self.dir {
            RealDir::R2C => DeviceData::upload(
                &vec![Complex64::new(f64::NAN, 0.0); herm_len],
                self.precision,
                self.hermitian_planar,
            ),
            RealDir::C2R => DeviceData::upload_real(&vec![Complex64::new(f64::NAN, 0.0); real_len], self.precision),
        });

        let herm_layout = if self.hermitian_planar { 4 } else { 3 };
        let (in_layout, out_layout, mut is, mut os, idist, odist) = match self.dir {
            RealDir::R2C => (5, herm_layout, rs.clone(), hs.clone(), rd, hd),
            RealDir::C2R => (herm_layout, 5, hs.clone(), rs.clone(), hd, rd),
        };
        let mut plan: clfftPlanHandle = 0;
        unsafe {
            check(clfftCreateDefaultPlan(&mut plan, context_ptr(), dim, self.lengths.as_ptr()), "create");
            set_tuning(plan, self.tuning);
            check(clfftSetPlanPrecision(plan, if self.precision == Prec::Double { 2 } else { 1 }), "precision");
            check(clfftSetLayout(plan, in_layout, out_layout), "layout");
            check(clfftSetResultLocation(plan, if self.in_place { 1 } else { 2 }), "placeness");
            check(clfftSetPlanBatchSize(plan, self.batch), "batch");
            check(clfftSetPlanInStride(plan, dim, is.as_mut_ptr()), "instride");
            check(clfftSetPlanOutStride(plan, dim, os.as_mut_ptr()), "outstride");
            check(clfftSetPlanDistance(plan, idist, odist), "dist");
            // The direction argument is ignored for real transforms, as in clFFT.
            run_and_destroy(plan, 1, &input_bufs, output_bufs.as_ref());
        }
        let result = output_bufs.as_ref().unwrap_or(&input_bufs);
        let (mut err, mut norm) = (0.0, 0.0);
        match self.dir {
            RealDir::R2C => {
                let got: Vec<Complex64> = if self.in_place {
                    result.download_real().chunks_exact(2).map(|c| Complex64::new(c[0], c[1])).collect()
                } else {
                    result.download()
                };
                let mut written = vec![false; got.len()];
                for b in 0..self.batch {
                    let g = gather(&got, &herm, &hs, b * hd);
                    let r = gather(&spectrum, &herm, &hs, b * hd);
                    for (a, c) in g.iter().zip(&r) {
                        err += (a - c).norm_sqr();
                        norm += c.norm_sqr();
                    }
                    positions(&herm, &hs, b * hd).for_each(|pos| written[pos] = true);
                }
                // Out of place, the gaps between the outputs keep the NaN they were filled with.
                if !self.in_place {
                    let stray = got.iter().zip(&written).position(|(v, &w)| !w && !v.re.is_nan());
                    assert!(stray.is_none(), "wrote position {stray:?} outside the outputs of {self:?}");
                }
            }
            RealDir::C2R => {
                let got = result.download_real();
                for b in 0..self.batch {
                    let g = gather(&got, &self.lengths, &rs, b * rd);
                    let r = gather(&reals, &self.lengths, &rs, b * rd);
                    for (a, c) in g.iter().zip(&r) {
                        err += (a - c) * (a - c);
                        norm += c * c;
                    }
                }
            }
        }
        (err / norm.max(f64::MIN_POSITIVE)).sqrt()
    }
}
