//! Random call sequences through the clFFT API.

use crate::common::{
    context_ptr, nrmse, queue_ptr, random_complex, reference_fft, tolerance, DevicePlanes, Dir, HostPlanes,
};
use crate::{checked, counted, disjoint, extent, lengths_strategy, offset, precision_of, Budget};
use fftx::api::clfft::*;
use fftx::api::transpose::{fftxGetPlanNoMemAlloc, fftxSetPlanNoMemAlloc};
use num_complex::Complex64;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::ffi::CString;
use std::ptr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    C2C,
    R2C,
    C2R,
}

#[derive(Debug, Clone)]
enum ClOp {
    Create {
        lengths: Vec<usize>,
    },
    Precision {
        plan: usize,
        double: bool,
    },
    Layout {
        plan: usize,
        kind: Kind,
        in_planar: bool,
        out_planar: bool,
    },
    Place {
        plan: usize,
        in_place: bool,
    },
    Batch {
        plan: usize,
        batch: usize,
    },
    /// A layout valid for the plan's current settings: rows padded by `pad` and batches by `dist_pad`.
    PaddedLayout {
        plan: usize,
        pad: [usize; 3],
        dist_pad: usize,
    },
    /// Arbitrary strides and distances, often contradicting the contract.
    RawLayout {
        plan: usize,
        input: [usize; 3],
        output: [usize; 3],
        dists: (usize, usize),
    },
    Scale {
        plan: usize,
        backward: bool,
        value: f32,
    },
    Dim {
        plan: usize,
        dim: usize,
    },
    Length {
        plan: usize,
        lengths: Vec<usize>,
    },
    Transposed {
        plan: usize,
        on: bool,
    },
    /// The plan's own no-allocation switch (`fftxSetPlanNoMemAlloc`), read back.
    NoMemAlloc {
        plan: usize,
        on: bool,
    },
    Bake {
        plan: usize,
    },
    Enqueue {
        plan: usize,
        backward: bool,
        short: bool,
    },
    /// A copy of the plan with clFFT callbacks for its current settings (the pre-callback doubles each
    /// input, the post-callback triples each result), enqueued, checked and destroyed.
    WithCallbacks {
        plan: usize,
        pre: bool,
        post: bool,
        backward: bool,
    },
    Copy {
        plan: usize,
    },
    Destroy {
        plan: usize,
    },
    Stale {
        which: usize,
    },
    Teardown,
}

fn cl_op() -> impl Strategy<Value = ClOp> {
    let plan = 0usize..4;
    let kind = prop_oneof![Just(Kind::C2C), Just(Kind::R2C), Just(Kind::C2R)];
    prop_oneof![
        3 => lengths_strategy().prop_map(|lengths| ClOp::Create { lengths }),
        1 => (plan.clone(), any::<bool>()).prop_map(|(plan, double)| ClOp::Precision { plan, double }),
        2 => (plan.clone(), kind, any::<bool>(), any::<bool>())
            .prop_map(|(plan, kind, in_planar, out_planar)| ClOp::Layout { plan, kind, in_planar, out_planar }),
        2 => (plan.clone(), any::<bool>()).prop_map(|(plan, in_place)| ClOp::Place { plan, in_place }),
        1 => (plan.clone(), 1usize..=4).prop_map(|(plan, batch)| ClOp::Batch { plan, batch }),
        2 => (plan.clone(), [0usize..3, 0usize..3, 0usize..3], 0usize..5)
            .prop_map(|(plan, pad, dist_pad)| ClOp::PaddedLayout { plan, pad, dist_pad }),
        1 => (plan.clone(), [0usize..40, 0usize..40, 0usize..40], [0usize..40, 0usize..40, 0usize..40], (0usize..300, 0usize..300))
            .prop_map(|(plan, input, output, dists)| ClOp::RawLayout { plan, input, output, dists }),
        1 => (plan.clone(), any::<bool>(), prop_oneof![Just(1.0f32), Just(0.5), Just(0.125), Just(3.0)])
            .prop_map(|(plan, backward, value)| ClOp::Scale { plan, backward, value }),
        1 => (plan.clone(), 1usize..=3).prop_map(|(plan, dim)| ClOp::Dim { plan, dim }),
        1 => (plan.clone(), lengths_strategy()).prop_map(|(plan, lengths)| ClOp::Length { plan, lengths }),
        1 => (plan.clone(), any::<bool>()).prop_map(|(plan, on)| ClOp::Transposed { plan, on }),
        2 => (plan.clone(), any::<bool>()).prop_map(|(plan, on)| ClOp::NoMemAlloc { plan, on }),
        2 => plan.clone().prop_map(|plan| ClOp::Bake { plan }),
        6 => (plan.clone(), any::<bool>(), prop::bool::weighted(0.15))
            .prop_map(|(plan, backward, short)| ClOp::Enqueue { plan, backward, short }),
        1 => (plan.clone(), any::<bool>(), any::<bool>(), any::<bool>())
            .prop_map(|(plan, pre, post, backward)| ClOp::WithCallbacks { plan, pre, post, backward }),
        1 => plan.clone().prop_map(|plan| ClOp::Copy { plan }),
        1 => plan.clone().prop_map(|plan| ClOp::Destroy { plan }),
        1 => (0usize..8).prop_map(|which| ClOp::Stale { which }),
        1 => Just(ClOp::Teardown),
    ]
}

/// A live plan as the harness tracks it: its handle and the scales it was given (the accessors round them
/// to float).
#[derive(Debug, Clone, Copy)]
struct ClPlan {
    handle: clfftPlanHandle,
    forward_scale: f64,
    backward_scale: f64,
    /// What its callbacks multiply the result by.
    gain: f64,
    /// It has a post-callback, which an in-place transposed result refuses.
    post_callback: bool,
}

/// Every setting of a plan, read back through the accessors.
#[derive(Debug, Clone)]
struct Settings {
    lengths: Vec<usize>,
    in_strides: Vec<usize>,
    out_strides: Vec<usize>,
    in_dist: usize,
    out_dist: usize,
    kind: Kind,
    in_planar: bool,
    out_planar: bool,
    double: bool,
    in_place: bool,
    batch: usize,
    transposed: bool,
}

const INVALID_BUFFER_SIZE: clfftStatus = -61;

fn settings(handle: clfftPlanHandle) -> Settings {
    let (mut dim, mut size) = (0, 0);
    let ok = |s: clfftStatus| assert_eq!(s, CLFFT_SUCCESS, "an accessor failed on a live plan");
    unsafe {
        ok(clfftGetPlanDim(handle, &mut dim, &mut size));
        let mut lengths = vec![0; dim as usize];
        ok(clfftGetPlanLength(handle, dim, lengths.as_mut_ptr()));
        let in_strides = strides(handle, &lengths, clfftGetPlanInStride);
        let out_strides = strides(handle, &lengths, clfftGetPlanOutStride);
        let (mut in_dist, mut out_dist, mut batch) = (0, 0, 0);
        ok(clfftGetPlanDistance(handle, &mut in_dist, &mut out_dist));
        ok(clfftGetPlanBatchSize(handle, &mut batch));
        let (mut in_layout, mut out_layout, mut precision, mut place, mut transposed) = (0, 0, 0, 0, 0);
        ok(clfftGetLayout(handle, &mut in_layout, &mut out_layout));
        ok(clfftGetPlanPrecision(handle, &mut precision));
        ok(clfftGetResultLocation(handle, &mut place));
        ok(clfftGetPlanTransposeResult(handle, &mut transposed));
        let kind = match (in_layout, out_layout) {
            (5, _) => Kind::R2C,
            (_, 5) => Kind::C2R,
            _ => Kind::C2C,
        };
        Settings {
            lengths,
            in_strides,
            out_strides,
            in_dist,
            out_dist,
            kind,
            in_planar: matches!(in_layout, 2 | 4),
            out_planar: matches!(out_layout, 2 | 4),
            double: precision == 2,
            in_place: place == 1,
            batch,
            transposed: transposed == 2,
        }
    }
}

type StrideGetter = unsafe extern "C" fn(clfftPlanHandle, clfftDim, *mut usize) -> clfftStatus;

/// The strides a plan transforms with: those it holds (a length set for more dimensions than the strides
/// were leaves fewer, which the getter refuses with CLFFT_INVALID_ARG_INDEX), then packed ones.
fn strides(handle: clfftPlanHandle, lengths: &[usize], get: StrideGetter) -> Vec<usize> {
    let held = (1..=lengths.len())
        .rev()
        .find_map(|dim| {
            let mut s = vec![0; dim];
            let status = unsafe { get(handle, dim as clfftDim, s.as_mut_ptr()) };
            (status == CLFFT_SUCCESS).then_some(s)
        })
        .unwrap_or_default();
    let packed: Vec<usize> = lengths.iter().scan(1, |p, &l| Some(std::mem::replace(p, *p * l))).collect();
    held.iter().chain(&packed[held.len()..]).copied().collect()
}

impl Settings {
    fn complex_lengths(&self) -> Vec<usize> {
        let mut l = self.lengths.clone();
        if self.kind != Kind::C2C {
            l[0] = l[0] / 2 + 1;
        }
        l
    }

    /// Lengths of the input and output arrays (a Hermitian side keeps n/2 + 1 along axis 0).
    fn sides(&self) -> (Vec<usize>, Vec<usize>) {
        match self.kind {
            Kind::C2C => (self.lengths.clone(), self.lengths.clone()),
            Kind::R2C => (self.lengths.clone(), self.complex_lengths()),
            Kind::C2R => (self.complex_lengths(), self.lengths.clone()),
        }
    }

    /// Where output element (k0, k1, ..) lies: a transposed 2D result swaps the strides of the two axes,
    /// and with clFFT's packed strides [1, N0] (or in place, where the data are packed) it is the packed
    /// N1 x N0 transpose.
    fn out_positions(&self) -> Vec<usize> {
        let mut s = self.out_strides.clone();
        if self.transposed && s.len() == 2 {
            if self.in_place || s == [1, self.lengths[0]] {
                return vec![self.lengths[1], 1];
            }
            s.swap(0, 1);
        }
        s
    }

    /// An in-place transposed result: on packed data, of a shape the in-place transposes take.
    fn in_place_transposed(&self) -> bool {
        self.transposed && self.in_place
    }

    /// The contract of docs/status.md: settings that must bake and run.
    fn valid(&self) -> bool {
        let (_, out_lengths) = self.sides();
        if self.in_strides.contains(&0) || self.out_strides.contains(&0) {
            return false;
        }
        if self.batch > 1 && (self.in_dist == 0 || self.out_dist == 0) {
            return false;
        }
        if self.transposed && (self.lengths.len() != 2 || self.kind != Kind::C2C) {
            return false;
        }
        if self.in_place_transposed() {
            let (n0, n1) = (self.lengths[0], self.lengths[1]);
            let packed = self.in_strides == [1, n0] && (self.batch == 1 || self.in_dist == n0 * n1);
            if !packed || (n0 % n1 != 0 && n1 % n0 != 0) {
                return false;
            }
        }
        if self.in_place {
            match self.kind {
                Kind::C2C => {
                    if self.in_strides != self.out_strides
                        || self.in_dist != self.out_dist
                        || self.in_planar != self.out_planar
                    {
                        return false;
                    }
                }
                Kind::R2C | Kind::C2R => {
                    let (real, complex, real_dist, complex_dist) = if self.kind == Kind::R2C {
                        (&self.in_strides, &self.out_strides, self.in_dist, self.out_dist)
                    } else {
                        (&self.out_strides, &self.in_strides, self.out_dist, self.in_dist)
                    };
                    let coincide = real[0] == 1
                        && complex[0] == 1
                        && real[1..].iter().zip(&complex[1..]).all(|(r, c)| *r == 2 * c)
                        && (self.batch == 1 || real_dist == 2 * complex_dist);
                    if self.in_planar || self.out_planar || !coincide {
                        return false;
                    }
                }
            }
        }
        disjoint(&out_lengths, &self.out_positions(), self.out_dist, self.batch)
    }

    /// Scalars per plane of the input and output storage (the input alone in place).
    fn plane_scalars(&self) -> (usize, usize) {
        let (in_lengths, out_lengths) = self.sides();
        let in_extent = extent(&in_lengths, &self.in_strides, self.in_dist, self.batch);
        let out_extent = extent(&out_lengths, &self.out_positions(), self.out_dist, self.batch);
        let scalars = |extent: usize, real: bool, planar: bool| if real || planar { extent } else { 2 * extent };
        let input = scalars(in_extent, self.kind == Kind::R2C, self.in_planar);
        let output = scalars(out_extent, self.kind == Kind::C2R, self.out_planar);
        if self.in_place {
            // One storage: in units of the input (complex in place is one layout; real in place is reals).
            (input.max(output), 0)
        } else {
            (input, output)
        }
    }
}

/// The clFFT statuses a bake or an enqueue of settings outside the contract may answer (docs/status.md).
const BAKE_FAILURES: &[clfftStatus] =
    &[CLFFT_INVALID_PLAN, CLFFT_INVALID_ARG_VALUE, CLFFT_NOTIMPLEMENTED, CLFFT_TRANSPOSED_NOTIMPLEMENTED];

/// A callback for the side `stage` runs on, with clFFT's prototype for the plan's settings: the pre-callback
/// doubles each input element, the post-callback triples each result.
fn callback_code(s: &Settings, stage: clfftCallbackType) -> (&'static str, String) {
    let (planar, real) =
        if stage == PRECALLBACK { (s.in_planar, s.kind == Kind::R2C) } else { (s.out_planar, s.kind == Kind::C2R) };
    let code = match (stage == PRECALLBACK, real, planar) {
        (true, true, _) => "T cb(__global void *in, uint k, __global void *u) { return ((__global T *)in)[k] * (T)2; }",
        (true, false, false) => {
            "T2 cb(__global void *in, uint k, __global void *u) { return ((__global T2 *)in)[k] * (T)2; }"
        }
        (true, false, true) => {
            "T2 cb(__global void *re, __global void *im, uint k, __global void *u) {
                return (T2)(((__global T *)re)[k], ((__global T *)im)[k]) * (T)2;
            }"
        }
        (false, true, _) => {
            "void cb(__global void *out, uint k, __global void *u, T v) { ((__global T *)out)[k] = v * (T)3; }"
        }
        (false, false, false) => {
            "void cb(__global void *out, uint k, __global void *u, T2 v) { ((__global T2 *)out)[k] = v * (T)3; }"
        }
        (false, false, true) => {
            "void cb(__global void *re, __global void *im, uint k, __global void *u, T a, T b) {
                ((__global T *)re)[k] = a * (T)3;
                ((__global T *)im)[k] = b * (T)3;
            }"
        }
    };
    let real_type = if s.double { "double" } else { "float" };
    ("cb", code.replace("T2", &format!("{real_type}2")).replace('T', real_type))
}

struct ClHarness {
    live: Vec<ClPlan>,
    stale: Vec<clfftPlanHandle>,
    /// The tuning each new plan gets (`fftxClfftSetPlanTuning`); `None` keeps `FFTX_TUNE`'s.
    tuning: Option<CString>,
}

impl ClHarness {
    fn pick(&self, index: usize) -> Option<ClPlan> {
        (!self.live.is_empty()).then(|| self.live[index % self.live.len()])
    }

    fn expect_ok(status: clfftStatus, what: &str) -> Result<(), TestCaseError> {
        prop_assert_eq!(status, CLFFT_SUCCESS, "{} failed", what);
        Ok(())
    }

    fn step(&mut self, op: &ClOp) -> Result<(), TestCaseError> {
        let plan_of = |i: &usize| self.pick(*i);
        match op {
            ClOp::Create { lengths } => {
                let mut handle = 0;
                let status = counted(unsafe {
                    clfftCreateDefaultPlan(&mut handle, context_ptr(), lengths.len() as clfftDim, lengths.as_ptr())
                });
                Self::expect_ok(status, "create")?;
                if let Some(spec) = &self.tuning {
                    Self::expect_ok(counted(unsafe { fftxClfftSetPlanTuning(handle, spec.as_ptr()) }), "tuning")?;
                }
                let total: usize = lengths.iter().product();
                self.live.push(ClPlan {
                    handle,
                    forward_scale: 1.0,
                    backward_scale: 1.0 / total as f64,
                    gain: 1.0,
                    post_callback: false,
                });
            }
            ClOp::Precision { plan, double } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                Self::expect_ok(counted(clfftSetPlanPrecision(p.handle, if *double { 2 } else { 1 })), "precision")?;
            }
            ClOp::Layout { plan, kind, in_planar, out_planar } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let complex = |planar: bool| if planar { 2 } else { 1 };
                let hermitian = |planar: bool| if planar { 4 } else { 3 };
                let (i, o) = match kind {
                    Kind::C2C => (complex(*in_planar), complex(*out_planar)),
                    Kind::R2C => (5, hermitian(*out_planar)),
                    Kind::C2R => (hermitian(*in_planar), 5),
                };
                Self::expect_ok(counted(clfftSetLayout(p.handle, i, o)), "layout")?;
            }
            ClOp::Place { plan, in_place } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let status = counted(clfftSetResultLocation(p.handle, if *in_place { 1 } else { 2 }));
                Self::expect_ok(status, "placeness")?;
            }
            ClOp::Batch { plan, batch } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                Self::expect_ok(counted(clfftSetPlanBatchSize(p.handle, *batch)), "batch")?;
            }
            ClOp::PaddedLayout { plan, pad, dist_pad } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let s = settings(p.handle);
                let (in_lengths, out_lengths) = s.sides();
                let padded = |lengths: &[usize], extra: usize| {
                    let mut strides = Vec::new();
                    let mut next = 1;
                    for (axis, &l) in lengths.iter().enumerate() {
                        strides.push(next);
                        next *= l + if axis < 3 { pad[axis] * extra } else { 0 };
                    }
                    (strides, next + dist_pad)
                };
                let ((mut is, idist), (mut os, odist)) = if s.in_place && s.kind != Kind::C2C {
                    // Real rows and complex rows share storage: 2 (n/2 + 1) reals a row.
                    let complex = padded(&s.complex_lengths(), 1);
                    let real: Vec<usize> =
                        complex.0.iter().enumerate().map(|(a, &c)| if a == 0 { 1 } else { 2 * c }).collect();
                    let real = (real, 2 * complex.1);
                    if s.kind == Kind::R2C {
                        (real, complex)
                    } else {
                        (complex, real)
                    }
                } else if s.in_place {
                    let both = padded(&in_lengths, 1);
                    (both.clone(), both)
                } else {
                    (padded(&in_lengths, 1), padded(&out_lengths, 2))
                };
                if s.transposed && os.len() == 2 {
                    // The transposed result is a lengths[1] x lengths[0] array.
                    os = vec![1, out_lengths[1] + pad[0]];
                }
                let dim = s.lengths.len() as clfftDim;
                unsafe {
                    Self::expect_ok(counted(clfftSetPlanInStride(p.handle, dim, is.as_mut_ptr())), "in strides")?;
                    Self::expect_ok(counted(clfftSetPlanOutStride(p.handle, dim, os.as_mut_ptr())), "out strides")?;
                }
                Self::expect_ok(counted(clfftSetPlanDistance(p.handle, idist, odist)), "distances")?;
            }
            ClOp::RawLayout { plan, input, output, dists } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let dim = settings(p.handle).lengths.len() as clfftDim;
                let (mut is, mut os) = (*input, *output);
                unsafe {
                    Self::expect_ok(counted(clfftSetPlanInStride(p.handle, dim, is.as_mut_ptr())), "in strides")?;
                    Self::expect_ok(counted(clfftSetPlanOutStride(p.handle, dim, os.as_mut_ptr())), "out strides")?;
                }
                Self::expect_ok(counted(clfftSetPlanDistance(p.handle, dists.0, dists.1)), "distances")?;
            }
            ClOp::Scale { plan, backward, value } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let dir = if *backward { 1 } else { -1 };
                Self::expect_ok(counted(clfftSetPlanScale(p.handle, dir, *value)), "scale")?;
                let live = self.live.iter_mut().find(|l| l.handle == p.handle).expect("live plan");
                if *backward {
                    live.backward_scale = *value as f64;
                } else {
                    live.forward_scale = *value as f64;
                }
            }
            ClOp::Dim { plan, dim } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                Self::expect_ok(counted(clfftSetPlanDim(p.handle, *dim as clfftDim)), "dim")?;
            }
            ClOp::Length { plan, lengths } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let status =
                    counted(unsafe { clfftSetPlanLength(p.handle, lengths.len() as clfftDim, lengths.as_ptr()) });
                Self::expect_ok(status, "length")?;
            }
            ClOp::Transposed { plan, on } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let status = counted(clfftSetPlanTransposeResult(p.handle, if *on { 2 } else { 1 }));
                Self::expect_ok(status, "transposed")?;
            }
            ClOp::NoMemAlloc { plan, on } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                Self::expect_ok(counted(fftxSetPlanNoMemAlloc(p.handle, *on as i32)), "no-allocation switch")?;
                let mut enabled = -1;
                Self::expect_ok(counted(unsafe { fftxGetPlanNoMemAlloc(p.handle, &mut enabled) }), "its read-back")?;
                prop_assert_eq!(enabled, *on as i32, "the no-allocation switch reads back");
            }
            ClOp::Bake { plan } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let s = settings(p.handle);
                let mut queue = queue_ptr();
                let status = counted(unsafe { clfftBakePlan(p.handle, 1, &mut queue, None, ptr::null_mut()) });
                if s.valid() {
                    prop_assert_eq!(status, CLFFT_SUCCESS, "bake of valid settings {:?}", s);
                } else {
                    prop_assert!(BAKE_FAILURES.contains(&status), "bake of invalid {:?} answered {}", s, status);
                }
            }
            ClOp::Enqueue { plan, backward, short } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                self.enqueue(p, *backward, *short)?;
            }
            ClOp::WithCallbacks { plan, pre, post, backward } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let mut handle = 0;
                Self::expect_ok(counted(unsafe { clfftCopyPlan(&mut handle, context_ptr(), p.handle) }), "copy")?;
                let s = settings(handle);
                let mut gain = 1.0;
                for (on, stage) in [(*pre, PRECALLBACK), (*post, POSTCALLBACK)] {
                    if on {
                        let (name, code) = callback_code(&s, stage);
                        let (name, code) = (CString::new(name).unwrap(), CString::new(code).unwrap());
                        let status = counted(unsafe {
                            clfftSetPlanCallback(handle, name.as_ptr(), code.as_ptr(), 0, stage, ptr::null_mut(), 0)
                        });
                        Self::expect_ok(status, "set callback")?;
                        gain *= if stage == PRECALLBACK { 2.0 } else { 3.0 };
                    }
                }
                let result = self.enqueue(ClPlan { handle, gain, post_callback: *post, ..p }, *backward, false);
                let mut copy = handle;
                Self::expect_ok(counted(unsafe { clfftDestroyPlan(&mut copy) }), "destroy the copy")?;
                result?;
            }
            ClOp::Copy { plan } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let mut handle = 0;
                Self::expect_ok(counted(unsafe { clfftCopyPlan(&mut handle, context_ptr(), p.handle) }), "copy")?;
                self.live.push(ClPlan { handle, ..p });
            }
            ClOp::Destroy { plan } => {
                let Some(p) = plan_of(plan) else { return Ok(()) };
                let mut handle = p.handle;
                Self::expect_ok(counted(unsafe { clfftDestroyPlan(&mut handle) }), "destroy")?;
                prop_assert_eq!(handle, 0, "destroy leaves the handle set");
                self.live.retain(|l| l.handle != p.handle);
                self.stale.push(p.handle);
            }
            ClOp::Stale { which } => {
                let Some(&handle) = self.stale.get(which % self.stale.len().max(1)) else { return Ok(()) };
                let mut queue = queue_ptr();
                let mut batch = 0;
                let mut copy = handle;
                let statuses = [
                    counted(clfftSetPlanBatchSize(handle, 2)),
                    counted(unsafe { clfftGetPlanBatchSize(handle, &mut batch) }),
                    counted(unsafe { clfftBakePlan(handle, 1, &mut queue, None, ptr::null_mut()) }),
                    counted(unsafe { clfftDestroyPlan(&mut copy) }),
                ];
                prop_assert!(statuses.iter().all(|&s| s == CLFFT_INVALID_PLAN), "stale handle: {:?}", statuses);
            }
            ClOp::Teardown => {
                Self::expect_ok(counted(clfftTeardown()), "teardown")?;
                Self::expect_ok(counted(unsafe { clfftSetup(ptr::null()) }), "setup")?;
                self.stale.extend(self.live.drain(..).map(|p| p.handle));
            }
        }
        Ok(())
    }

    /// Enqueues on buffers the settings reach (one scalar short when `short`) and checks the result.
    fn enqueue(&mut self, p: ClPlan, backward: bool, short: bool) -> Result<(), TestCaseError> {
        let s = settings(p.handle);
        let valid = s.valid() && !(p.post_callback && s.in_place_transposed());
        let (in_lengths, out_lengths) = s.sides();
        let (in_scalars, out_scalars) = s.plane_scalars();
        let in_planes = if s.in_planar { 2 } else { 1 };
        let out_planes = if s.out_planar { 2 } else { 1 };
        let seed = (in_scalars * 31 + out_scalars) as u64;
        let noise: Vec<f64> = random_complex(in_scalars, seed).iter().map(|c| c.re).collect();
        let mut input = HostPlanes(vec![noise.clone(); in_planes]);
        if in_planes == 2 {
            input.0[1] = random_complex(in_scalars, seed + 1).iter().map(|c| c.im).collect();
        }
        let total: usize = s.lengths.iter().product();
        // A C2R input must be Hermitian: the half spectrum of real signals, whose transform is known exactly.
        let mut signals: Vec<Vec<f64>> = Vec::new();
        if s.kind == Kind::C2R && valid {
            for b in 0..s.batch {
                let x: Vec<f64> = random_complex(total, seed + 7 + b as u64).iter().map(|c| c.re).collect();
                let full = reference_fft(
                    &x.iter().map(|&v| Complex64::new(v, 0.0)).collect::<Vec<_>>(),
                    &s.lengths,
                    Dir::Forward,
                );
                for i in 0..in_lengths.iter().product::<usize>() {
                    let k0 = i % in_lengths[0];
                    let full_index = k0 + (i / in_lengths[0]) * s.lengths[0];
                    let at = b * s.in_dist + offset(i, &in_lengths, &s.in_strides);
                    input.set_complex(s.in_planar, at, full[full_index]);
                }
                signals.push(x);
            }
        }
        let short = short && in_scalars > 1;
        if short {
            input.0[0].pop();
        }
        let input_dev = DevicePlanes::upload(&input, s.double);
        let output_dev = (!s.in_place)
            .then(|| DevicePlanes::upload(&HostPlanes(vec![vec![f64::NAN; out_scalars]; out_planes]), s.double));
        let mut queue = queue_ptr();
        let mut event = ptr::null_mut();
        let mut ins = input_dev.mems();
        let mut outs = output_dev.as_ref().map_or([ptr::null_mut(); 2], |d| d.mems());
        let status = counted(unsafe {
            clfftEnqueueTransform(
                p.handle,
                if backward { 1 } else { -1 },
                1,
                &mut queue,
                0,
                ptr::null(),
                &mut event,
                ins.as_mut_ptr(),
                outs.as_mut_ptr(),
                ptr::null_mut(),
            )
        });
        if !valid {
            prop_assert!(
                BAKE_FAILURES.contains(&status) || status == INVALID_BUFFER_SIZE,
                "enqueue of invalid {:?} answered {}",
                s,
                status
            );
            prop_assert!(status != CLFFT_SUCCESS, "enqueue of invalid settings {:?} succeeded", s);
            return Ok(());
        }
        if short {
            prop_assert_eq!(status, INVALID_BUFFER_SIZE, "a short input buffer for {:?}", s);
            return Ok(());
        }
        prop_assert_eq!(status, CLFFT_SUCCESS, "enqueue of valid settings {:?}", s);
        prop_assert!(!event.is_null(), "no event");
        let event = unsafe { ocl::core::Event::from_raw_create_ptr(event) };
        ocl::core::wait_for_event(&event).expect("wait for the transform");
        let got = match &output_dev {
            Some(d) => d.download(),
            None => input_dev.download(),
        };
        let prec = precision_of(s.double);
        let forward = match s.kind {
            Kind::C2C => !backward,
            Kind::R2C => true,
            Kind::C2R => false,
        };
        let scale = p.gain * if forward { p.forward_scale } else { p.backward_scale };
        let out_positions = s.out_positions();
        let out_planar = s.out_planar;
        let (mut want, mut have) = (Vec::new(), Vec::new());
        for b in 0..s.batch {
            let out_at = |i: usize| b * s.out_dist + offset(i, &out_lengths, &out_positions);
            match s.kind {
                Kind::C2C => {
                    let x: Vec<Complex64> = (0..total)
                        .map(|i| input.complex(s.in_planar, b * s.in_dist + offset(i, &s.lengths, &s.in_strides)))
                        .collect();
                    let dir = if forward { Dir::Forward } else { Dir::Backward };
                    want.extend(reference_fft(&x, &s.lengths, dir).into_iter().map(|v| v * scale));
                    have.extend((0..total).map(|i| got.complex(out_planar, out_at(i))));
                }
                Kind::R2C => {
                    let x: Vec<Complex64> = (0..total)
                        .map(|i| Complex64::new(input.0[0][b * s.in_dist + offset(i, &s.lengths, &s.in_strides)], 0.0))
                        .collect();
                    let full = reference_fft(&x, &s.lengths, Dir::Forward);
                    for i in 0..out_lengths.iter().product::<usize>() {
                        let full_index = i % out_lengths[0] + (i / out_lengths[0]) * s.lengths[0];
                        want.push(full[full_index] * scale);
                        have.push(got.complex(out_planar, out_at(i)));
                    }
                }
                Kind::C2R => have.extend((0..total).map(|i| Complex64::new(got.0[0][out_at(i)], 0.0))),
            }
        }
        want.extend(signals.iter().flatten().map(|&v| Complex64::new(v * total as f64 * scale, 0.0)));
        let error = nrmse(&have, &want);
        prop_assert!(error <= tolerance(prec), "error {:e} for {:?} (backward {})", error, s, backward);
        checked();
        Ok(())
    }

    fn destroy_all(&mut self) {
        for p in self.live.drain(..) {
            let mut handle = p.handle;
            assert_eq!(unsafe { clfftDestroyPlan(&mut handle) }, CLFFT_SUCCESS, "destroy at the end");
        }
    }
}

pub fn call_sequences(tuning: Option<&'static str>) {
    let ops = prop::collection::vec(cl_op(), 1..16);
    // `clfftTeardown` destroys every plan of the process: one run of sequences at a time.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let name = if tuning.is_some() { "clfft, tuned" } else { "clfft" };
    let tuning = tuning.map(|spec| CString::new(spec).expect("a tuning spec without NUL"));
    Budget::from_env(1).run(name, ops, |ops| {
        let mut harness = ClHarness { live: Vec::new(), stale: Vec::new(), tuning: tuning.clone() };
        let result = ops.iter().try_for_each(|op| harness.step(op));
        harness.destroy_all();
        result
    });
}
