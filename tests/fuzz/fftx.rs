//! Random call sequences through the cuFFT-style API.

use crate::common::{nrmse, random_complex, reference_fft, tolerance, Dir, ENV};
use crate::{checked, counted, lengths_strategy, precision_of, Budget};
use fftx::api::fftx::fftxResult_t::*;
use fftx::api::fftx::*;
use num_complex::Complex64;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::ffi::{c_void, CString};
use std::ptr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FxType {
    C2C,
    R2C,
    C2R,
}

#[derive(Debug, Clone)]
struct FxShape {
    /// Row-major sizes, the last fastest.
    n: Vec<usize>,
    kind: FxType,
    double: bool,
    batch: usize,
    /// cuFFT's advanced layout: per side, padding added to each storage size, the element stride and the
    /// padding added to the batch distance.
    advanced: Option<[(Vec<usize>, usize, usize); 2]>,
}

#[derive(Debug, Clone)]
enum FxOp {
    Plan(FxShape),
    Exec { plan: usize, device: bool, in_place: bool, inverse: bool, offset: usize },
    WrongType { plan: usize },
    Stream { plan: usize, own: bool },
    Destroy { plan: usize },
    Stale { which: usize },
}

fn fx_shape() -> impl Strategy<Value = FxShape> {
    let kind = prop_oneof![Just(FxType::C2C), Just(FxType::R2C), Just(FxType::C2R)];
    let side = (prop::collection::vec(0usize..3, 3), 1usize..=3, 0usize..4);
    (lengths_strategy(), kind, any::<bool>(), 1usize..=3, prop::option::weighted(0.3, [side.clone(), side]))
        .prop_map(|(n, kind, double, batch, advanced)| FxShape { n, kind, double, batch, advanced })
}

fn fx_op() -> impl Strategy<Value = FxOp> {
    let plan = 0usize..3;
    prop_oneof![
        3 => fx_shape().prop_map(FxOp::Plan),
        8 => (plan.clone(), any::<bool>(), any::<bool>(), any::<bool>(), prop_oneof![3 => Just(0usize), 1 => 1usize..64])
            .prop_map(|(plan, device, in_place, inverse, offset)| FxOp::Exec { plan, device, in_place, inverse, offset }),
        1 => plan.clone().prop_map(|plan| FxOp::WrongType { plan }),
        1 => (plan.clone(), any::<bool>()).prop_map(|(plan, own)| FxOp::Stream { plan, own }),
        1 => plan.clone().prop_map(|plan| FxOp::Destroy { plan }),
        1 => (0usize..4).prop_map(|which| FxOp::Stale { which }),
    ]
}

/// Positions of one side: storage sizes (row-major), element stride and batch distance, in that side's
/// units (reals or complex values).
#[derive(Debug, Clone)]
struct Side {
    logical: Vec<usize>,
    embed: Vec<usize>,
    stride: usize,
    dist: usize,
}

impl Side {
    fn position(&self, batch: usize, mut index: usize) -> usize {
        let mut at = 0;
        let mut scale = self.stride;
        for (l, e) in self.logical.iter().zip(&self.embed).rev() {
            at += (index % l) * scale;
            index /= l;
            scale *= e;
        }
        batch * self.dist + at
    }

    fn extent(&self, batch: usize) -> usize {
        self.position(batch - 1, self.logical.iter().product::<usize>() - 1) + 1
    }
}

/// PlanMany's advanced layout arguments: inembed, istride, idist, onembed, ostride, odist.
type ManyLayout = (Vec<i32>, i32, i32, Vec<i32>, i32, i32);

impl FxShape {
    fn fft_type(&self) -> fftxType {
        use fftxType_t::*;
        (match (self.kind, self.double) {
            (FxType::C2C, false) => FFTX_C2C,
            (FxType::R2C, false) => FFTX_R2C,
            (FxType::C2R, false) => FFTX_C2R,
            (FxType::C2C, true) => FFTX_Z2Z,
            (FxType::R2C, true) => FFTX_D2Z,
            (FxType::C2R, true) => FFTX_Z2D,
        }) as fftxType
    }

    fn complex_n(&self) -> Vec<usize> {
        let mut c = self.n.clone();
        if self.kind != FxType::C2C {
            *c.last_mut().expect("rank >= 1") = self.n[self.n.len() - 1] / 2 + 1;
        }
        c
    }

    /// Input and output sides, in place or not.
    fn sides(&self, in_place: bool) -> (Side, Side) {
        let (in_logical, out_logical) = match self.kind {
            FxType::C2C => (self.n.clone(), self.n.clone()),
            FxType::R2C => (self.n.clone(), self.complex_n()),
            FxType::C2R => (self.complex_n(), self.n.clone()),
        };
        let packed = |logical: &Vec<usize>, embed: Vec<usize>| {
            let dist = embed.iter().product();
            Side { logical: logical.clone(), embed, stride: 1, dist }
        };
        if let Some(sides) = &self.advanced {
            let make = |logical: &Vec<usize>, (pad, stride, dist_pad): &(Vec<usize>, usize, usize)| {
                let embed: Vec<usize> = logical.iter().zip(pad).map(|(l, p)| l + p).collect();
                let one = Side { logical: logical.clone(), embed: embed.clone(), stride: *stride, dist: 0 };
                Side { dist: one.extent(1) + dist_pad, ..one }
            };
            return (make(&in_logical, &sides[0]), make(&out_logical, &sides[1]));
        }
        // In place, real rows are padded to the 2 (n/2 + 1) reals of the complex rows they share.
        let padded = |logical: &Vec<usize>| {
            let mut embed = logical.clone();
            if in_place {
                *embed.last_mut().expect("rank >= 1") = 2 * self.complex_n()[self.n.len() - 1];
            }
            packed(logical, embed)
        };
        match self.kind {
            FxType::C2C => (packed(&in_logical, in_logical.clone()), packed(&out_logical, out_logical.clone())),
            FxType::R2C => (padded(&in_logical), packed(&out_logical, out_logical.clone())),
            FxType::C2R => (packed(&in_logical, in_logical.clone()), padded(&out_logical)),
        }
    }

    fn real_in(&self) -> bool {
        self.kind == FxType::R2C
    }

    fn real_out(&self) -> bool {
        self.kind == FxType::C2R
    }

    /// PlanMany's arguments for this shape: n and the advanced layout, if any.
    fn many_args(&self) -> (Vec<i32>, Option<ManyLayout>) {
        let n = self.n.iter().map(|&v| v as i32).collect();
        let advanced = self.advanced.as_ref().map(|_| {
            let (i, o) = self.sides(false);
            let ints = |v: &[usize]| v.iter().map(|&x| x as i32).collect::<Vec<_>>();
            (ints(&i.embed), i.stride as i32, i.dist as i32, ints(&o.embed), o.stride as i32, o.dist as i32)
        });
        (n, advanced)
    }
}

/// Host or device storage of one precision, as scalars.
enum Scalars {
    F32(Vec<f32>),
    F64(Vec<f64>),
}

impl Scalars {
    fn new(values: &[f64], double: bool) -> Scalars {
        if double {
            Scalars::F64(values.to_vec())
        } else {
            Scalars::F32(values.iter().map(|&v| v as f32).collect())
        }
    }

    fn get(&self, i: usize) -> f64 {
        match self {
            Scalars::F32(v) => v[i] as f64,
            Scalars::F64(v) => v[i],
        }
    }

    fn ptr(&mut self) -> *mut c_void {
        match self {
            Scalars::F32(v) => v.as_mut_ptr().cast(),
            Scalars::F64(v) => v.as_mut_ptr().cast(),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Scalars::F32(v) => v.len() * 4,
            Scalars::F64(v) => v.len() * 8,
        }
    }

    fn complex(&self, at: usize) -> Complex64 {
        Complex64::new(self.get(2 * at), self.get(2 * at + 1))
    }
}

#[derive(Debug, Clone)]
struct FxPlan {
    handle: fftxHandle,
    shape: FxShape,
    /// Runs on the harness's queue, in another context than `fftxMalloc` memory.
    own_stream: bool,
}

struct FxHarness {
    live: Vec<FxPlan>,
    stale: Vec<fftxHandle>,
    queue: ocl::Queue,
    /// The tuning each new plan gets (`fftxSetTuning`); `None` keeps `FFTX_TUNE`'s.
    tuning: Option<CString>,
}

/// The statuses an execution may answer when the contract allows no certainty (advanced layouts in place).
const EXEC_FAILURES: &[fftxResult] = &[FFTX_INVALID_PLAN, FFTX_INVALID_VALUE, FFTX_INVALID_SIZE];

impl FxHarness {
    fn pick(&self, index: usize) -> Option<FxPlan> {
        (!self.live.is_empty()).then(|| self.live[index % self.live.len()].clone())
    }

    fn step(&mut self, op: &FxOp) -> Result<(), TestCaseError> {
        match op {
            FxOp::Plan(shape) => {
                let mut handle = 0;
                let (mut n, advanced) = shape.many_args();
                let (mut inembed, istride, idist, mut onembed, ostride, odist) =
                    advanced.unwrap_or((Vec::new(), 0, 0, Vec::new(), 0, 0));
                let embed = |v: &mut Vec<i32>| if v.is_empty() { ptr::null_mut() } else { v.as_mut_ptr() };
                let (inembed, onembed) = (embed(&mut inembed), embed(&mut onembed));
                let (rank, n, fft_type, batch) = (n.len() as i32, n.as_mut_ptr(), shape.fft_type(), shape.batch as i32);
                let status = counted(unsafe {
                    match &self.tuning {
                        None => fftxPlanMany(
                            &mut handle,
                            rank,
                            n,
                            inembed,
                            istride,
                            idist,
                            onembed,
                            ostride,
                            odist,
                            fft_type,
                            batch,
                        ),
                        // A tuning is set between fftxCreate and the make.
                        Some(spec) => match fftxCreate(&mut handle) {
                            FFTX_SUCCESS => match fftxSetTuning(handle, spec.as_ptr()) {
                                FFTX_SUCCESS => fftxMakePlanMany(
                                    handle,
                                    rank,
                                    n,
                                    inembed,
                                    istride,
                                    idist,
                                    onembed,
                                    ostride,
                                    odist,
                                    fft_type,
                                    batch,
                                    ptr::null_mut(),
                                ),
                                failed => failed,
                            },
                            failed => failed,
                        },
                    }
                });
                prop_assert_eq!(status, FFTX_SUCCESS, "plan {:?}", shape);
                self.live.push(FxPlan { handle, shape: shape.clone(), own_stream: false });
            }
            FxOp::Exec { plan, device, in_place, inverse, offset } => {
                let Some(p) = self.pick(*plan) else { return Ok(()) };
                self.exec(&p, *device, *in_place, *inverse, *offset)?;
            }
            FxOp::WrongType { plan } => {
                let Some(p) = self.pick(*plan) else { return Ok(()) };
                let mut data = [0f64; 64];
                let d = data.as_mut_ptr();
                let status = counted(unsafe {
                    match p.shape.fft_type() as u32 {
                        0x29 => fftxExecZ2Z(p.handle, d.cast(), d.cast(), FFTX_FORWARD),
                        _ => fftxExecC2C(p.handle, d.cast(), d.cast(), FFTX_FORWARD),
                    }
                });
                prop_assert_eq!(status, FFTX_INVALID_TYPE, "an Exec function of another type");
            }
            FxOp::Stream { plan, own } => {
                let Some(p) = self.pick(*plan) else { return Ok(()) };
                let queue = if *own { self.queue.as_core().as_ptr() } else { ptr::null_mut() };
                prop_assert_eq!(counted(unsafe { fftxSetStream(p.handle, queue) }), FFTX_SUCCESS, "set stream");
                let live = self.live.iter_mut().find(|l| l.handle == p.handle).expect("live plan");
                live.own_stream = *own;
            }
            FxOp::Destroy { plan } => {
                let Some(p) = self.pick(*plan) else { return Ok(()) };
                prop_assert_eq!(counted(fftxDestroy(p.handle)), FFTX_SUCCESS, "destroy");
                self.live.retain(|l| l.handle != p.handle);
                self.stale.push(p.handle);
            }
            FxOp::Stale { which } => {
                let Some(&handle) = self.stale.get(which % self.stale.len().max(1)) else { return Ok(()) };
                let mut data = [0f32; 8];
                let d = data.as_mut_ptr();
                let mut size = 0;
                let statuses = [
                    counted(unsafe { fftxExecC2C(handle, d.cast(), d.cast(), FFTX_FORWARD) }),
                    counted(unsafe { fftxGetSize(handle, &mut size) }),
                    counted(fftxDestroy(handle)),
                ];
                prop_assert!(statuses.iter().all(|&s| s == FFTX_INVALID_PLAN), "stale handle: {:?}", statuses);
            }
        }
        Ok(())
    }

    fn exec(
        &mut self,
        p: &FxPlan,
        device: bool,
        in_place: bool,
        inverse: bool,
        offset: usize,
    ) -> Result<(), TestCaseError> {
        let shape = &p.shape;
        let (input_side, output_side) = shape.sides(in_place);
        let scalars = |side: &Side, real: bool| side.extent(shape.batch) * if real { 1 } else { 2 };
        let (in_scalars, out_scalars) =
            (scalars(&input_side, shape.real_in()), scalars(&output_side, shape.real_out()));
        let storage = if in_place { in_scalars.max(out_scalars) } else { in_scalars };
        let total: usize = shape.n.iter().product();
        let seed = (storage * 17 + total) as u64;
        let mut values: Vec<f64> = random_complex(storage, seed).iter().flat_map(|c| [c.re]).collect();
        // A C2R input is the half spectrum of real signals, so its inverse is known exactly.
        let mut signals = Vec::new();
        if shape.kind == FxType::C2R {
            let last = shape.n[shape.n.len() - 1];
            let half = last / 2 + 1;
            for b in 0..shape.batch {
                let x: Vec<f64> = random_complex(total, seed + 3 + b as u64).iter().map(|c| c.re).collect();
                let lengths: Vec<usize> = shape.n.iter().rev().copied().collect();
                let full = reference_fft(
                    &x.iter().map(|&v| Complex64::new(v, 0.0)).collect::<Vec<_>>(),
                    &lengths,
                    Dir::Forward,
                );
                for i in 0..total / last * half {
                    let value = full[(i / half) * last + i % half];
                    let at = input_side.position(b, i);
                    values[2 * at] = value.re;
                    values[2 * at + 1] = value.im;
                }
                signals.push(x);
            }
        }
        let mut input = Scalars::new(&values, shape.double);
        let mut output = Scalars::new(&vec![f64::NAN; if in_place { 0 } else { out_scalars }], shape.double);
        let direction = if inverse { FFTX_INVERSE } else { FFTX_FORWARD };
        let run = |i: *mut c_void, o: *mut c_void| unsafe {
            counted(match (shape.kind, shape.double) {
                (FxType::C2C, false) => fftxExecC2C(p.handle, i.cast(), o.cast(), direction),
                (FxType::C2C, true) => fftxExecZ2Z(p.handle, i.cast(), o.cast(), direction),
                (FxType::R2C, false) => fftxExecR2C(p.handle, i.cast(), o.cast()),
                (FxType::R2C, true) => fftxExecD2Z(p.handle, i.cast(), o.cast()),
                (FxType::C2R, false) => fftxExecC2R(p.handle, i.cast(), o.cast()),
                (FxType::C2R, true) => fftxExecZ2D(p.handle, i.cast(), o.cast()),
            })
        };
        let status = if device {
            let unit = if shape.double { 8 } else { 4 };
            let mut memory = ptr::null_mut();
            let bytes = input.bytes().max(output.bytes()) + offset * unit;
            prop_assert_eq!(counted(unsafe { fftxMalloc(&mut memory, 2 * bytes) }), FFTX_SUCCESS, "malloc");
            let device_in = unsafe { memory.cast::<u8>().add(offset * unit) }.cast::<c_void>();
            let device_out = if in_place { device_in } else { unsafe { device_in.cast::<u8>().add(bytes) }.cast() };
            let copy = |dst: *mut c_void, src: *const c_void, n: usize, kind: fftxMemcpyKind_t| {
                assert_eq!(unsafe { fftxMemcpy(dst, src, n, kind as fftxMemcpyKind) }, FFTX_SUCCESS, "memcpy");
            };
            use fftxMemcpyKind_t::*;
            copy(device_in, input.ptr(), input.bytes(), FFTX_MEMCPY_HOST_TO_DEVICE);
            if !in_place {
                copy(device_out, output.ptr(), output.bytes(), FFTX_MEMCPY_HOST_TO_DEVICE);
            }
            let status = run(device_in, device_out);
            if status == FFTX_SUCCESS {
                let (target, from) = if in_place { (&mut input, device_in) } else { (&mut output, device_out) };
                copy(target.ptr(), from, target.bytes(), FFTX_MEMCPY_DEVICE_TO_HOST);
            }
            prop_assert_eq!(counted(fftxFree(memory)), FFTX_SUCCESS, "free");
            status
        } else if in_place {
            let i = input.ptr();
            run(i, i)
        } else {
            run(input.ptr(), output.ptr())
        };
        if device && p.own_stream {
            prop_assert_eq!(status, FFTX_INVALID_DEVICE, "device memory of another context than the stream's");
            return Ok(());
        }
        if in_place && shape.advanced.is_some() && status != FFTX_SUCCESS {
            prop_assert!(EXEC_FAILURES.contains(&status), "in place advanced {:?}: {:?}", shape, status);
            return Ok(());
        }
        prop_assert_eq!(status, FFTX_SUCCESS, "exec {:?} device {} in place {}", shape, device, in_place);
        let got = if in_place { &input } else { &output };
        let original = Scalars::new(&values, shape.double);
        let lengths: Vec<usize> = shape.n.iter().rev().copied().collect();
        let (mut want, mut have) = (Vec::new(), Vec::new());
        let last = shape.n[shape.n.len() - 1];
        let half = last / 2 + 1;
        for b in 0..shape.batch {
            match shape.kind {
                FxType::C2C => {
                    let x: Vec<Complex64> = (0..total).map(|i| original.complex(input_side.position(b, i))).collect();
                    let dir = if inverse { Dir::Backward } else { Dir::Forward };
                    want.extend(reference_fft(&x, &lengths, dir));
                    have.extend((0..total).map(|i| got.complex(output_side.position(b, i))));
                }
                FxType::R2C => {
                    let x: Vec<Complex64> =
                        (0..total).map(|i| Complex64::new(original.get(input_side.position(b, i)), 0.0)).collect();
                    let full = reference_fft(&x, &lengths, Dir::Forward);
                    for i in 0..total / last * half {
                        want.push(full[(i / half) * last + i % half]);
                        have.push(got.complex(output_side.position(b, i)));
                    }
                }
                FxType::C2R => {
                    have.extend((0..total).map(|i| Complex64::new(got.get(output_side.position(b, i)), 0.0)))
                }
            }
        }
        want.extend(signals.iter().flatten().map(|&v| Complex64::new(v * total as f64, 0.0)));
        let error = nrmse(&have, &want);
        let prec = precision_of(shape.double);
        prop_assert!(
            error <= tolerance(prec),
            "error {:e} for {:?} device {} in place {}",
            error,
            shape,
            device,
            in_place
        );
        checked();
        Ok(())
    }

    fn destroy_all(&mut self) {
        for p in self.live.drain(..) {
            assert_eq!(fftxDestroy(p.handle), FFTX_SUCCESS, "destroy at the end");
        }
    }
}

pub fn call_sequences(tuning: Option<&'static str>) {
    let ops = prop::collection::vec(fx_op(), 1..12);
    let queue = ocl::Queue::new(&ENV.context, ENV.device, None).expect("a queue of the test's own");
    let name = if tuning.is_some() { "fftx, tuned" } else { "fftx" };
    let tuning = tuning.map(|spec| CString::new(spec).expect("a tuning spec without NUL"));
    Budget::from_env(2).run(name, ops, |ops| {
        let mut harness =
            FxHarness { live: Vec::new(), stale: Vec::new(), queue: queue.clone(), tuning: tuning.clone() };
        let result = ops.iter().try_for_each(|op| harness.step(op));
        harness.destroy_all();
        result
    });
}
