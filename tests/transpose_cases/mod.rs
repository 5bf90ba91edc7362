//! The exported transposes (`fftxTransposeInPlace`, `fftxTransposeOutOfPlace`) against a host transpose:
//! every value must arrive exactly, in both precisions and layouts, batched, in place and out of place.
//! `transpose.rs` runs these cases with the kernels shaped for the device and with the GPU shapes (tiles
//! through local memory and barriers) forced by the tuning `profile=gpu`.

use super::common::*;
use fftx::api::clfft::{CLFFT_NOTIMPLEMENTED, CLFFT_SUCCESS};
use fftx::api::transpose::{transpose_in_place, transpose_out_of_place};
use fftx::planner::tuning::Tuning;
use num_complex::Complex64;
use std::ptr;

#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
    pub batch: usize,
    pub precision: Prec,
    pub planar: bool,
    pub in_place: bool,
    /// The planner's overrides; `None` keeps `FFTX_TUNE`'s.
    pub tuning: Option<&'static str>,
}

pub fn shape(rows: usize, cols: usize, tuning: Option<&'static str>) -> Shape {
    Shape { rows, cols, batch: 1, precision: Prec::Single, planar: false, in_place: true, tuning }
}

/// What the device holds for `v` in `precision`.
fn stored(v: Complex64, precision: Prec) -> Complex64 {
    match precision {
        Prec::Single => Complex64::new(v.re as f32 as f64, v.im as f32 as f64),
        Prec::Double => v,
    }
}

/// Runs the transpose and returns its status; on success asserts the result equals the host transpose.
pub fn run(s: Shape) -> i32 {
    let matrix = s.rows * s.cols;
    let host = random_complex(matrix * s.batch, (s.rows * 31 + s.cols * 7 + s.batch) as u64);
    let input = DeviceData::upload(&host, s.precision, s.planar);
    let output = (!s.in_place).then(|| {
        DeviceData::upload(&vec![Complex64::new(f64::NAN, f64::NAN); matrix * s.batch], s.precision, s.planar)
    });
    let precision = if s.precision == Prec::Double { 2 } else { 1 };
    let layout = if s.planar { 2 } else { 1 };
    let mut ins = input.mems();
    let mut event = ptr::null_mut();
    let tuning = s.tuning.map(|spec| Tuning::parse(spec).expect("a tuning fftx reads"));
    let status = unsafe {
        match &output {
            None => transpose_in_place(
                tuning,
                queue_ptr(),
                ins.as_mut_ptr(),
                s.rows,
                s.cols,
                s.batch,
                precision,
                layout,
                0,
                ptr::null(),
                &mut event,
            ),
            Some(out) => transpose_out_of_place(
                tuning,
                queue_ptr(),
                ins.as_mut_ptr(),
                out.mems().as_mut_ptr(),
                s.rows,
                s.cols,
                s.batch,
                precision,
                layout,
                0,
                ptr::null(),
                &mut event,
            ),
        }
    };
    if status != CLFFT_SUCCESS {
        return status;
    }
    unsafe { ocl::core::wait_for_event(&ocl::core::Event::from_raw_create_ptr(event)).expect("wait") };
    let got = output.as_ref().unwrap_or(&input).download();
    for b in 0..s.batch {
        for i in 0..s.rows {
            for j in 0..s.cols {
                let want = stored(host[b * matrix + i * s.cols + j], s.precision);
                let at = b * matrix + j * s.rows + i;
                assert!(got[at] == want, "{s:?}: element ({i}, {j}) of matrix {b} is {} at {at}, not {want}", got[at]);
            }
        }
    }
    if !s.in_place {
        let kept: Vec<Complex64> = host.iter().map(|&v| stored(v, s.precision)).collect();
        assert_eq!(input.download(), kept, "{s:?}: the input changed");
    }
    status
}

pub fn passes(s: Shape) {
    assert_eq!(run(s), CLFFT_SUCCESS, "{s:?}");
}

pub fn squares_in_place(tuning: Option<&'static str>) {
    for n in [1, 2, 3, 7, 8, 9, 16, 17, 31, 64, 100, 127, 256, 257, 1000, 1024, 1031, 2048] {
        passes(shape(n, n, tuning));
    }
    passes(Shape { batch: 3, ..shape(33, 33, tuning) });
    passes(Shape { batch: 2, precision: Prec::Double, ..shape(200, 200, tuning) });
    passes(Shape { batch: 2, planar: true, ..shape(65, 65, tuning) });
    passes(Shape { batch: 2, planar: true, precision: Prec::Double, ..shape(24, 24, tuning) });
}

pub fn the_largest_square(tuning: Option<&'static str>) {
    passes(shape(4096, 4096, tuning));
    passes(Shape { precision: Prec::Double, planar: true, ..shape(4095, 4095, tuning) });
}

pub fn rectangles_one_to_k_in_place(tuning: Option<&'static str>) {
    for k in [2, 3, 4, 5, 10] {
        for n in [1, 3, 8, 17, 64, 100] {
            passes(shape(n, k * n, tuning));
            passes(shape(k * n, n, tuning));
        }
        passes(Shape { batch: 3, precision: Prec::Double, ..shape(12, 12 * k, tuning) });
        passes(Shape { batch: 2, planar: true, ..shape(9 * k, 9, tuning) });
        passes(Shape { batch: 2, planar: true, precision: Prec::Double, ..shape(40, 40 * k, tuning) });
    }
    passes(shape(1024, 2048, tuning));
    passes(shape(2048, 1024, tuning));
}

pub fn other_rectangles_in_place_are_not_implemented(tuning: Option<&'static str>) {
    assert_eq!(run(shape(6, 4, tuning)), CLFFT_NOTIMPLEMENTED);
    assert_eq!(run(shape(100, 30, tuning)), CLFFT_NOTIMPLEMENTED);
}

pub fn out_of_place_any_shape(tuning: Option<&'static str>) {
    for (rows, cols) in [(1, 1), (1, 9), (9, 1), (8, 8), (6, 4), (17, 100), (100, 30), (64, 640), (1000, 3)] {
        for precision in [Prec::Single, Prec::Double] {
            for planar in [false, true] {
                passes(Shape { in_place: false, precision, planar, batch: 2, ..shape(rows, cols, tuning) });
            }
        }
    }
    passes(Shape { in_place: false, ..shape(2048, 4096, tuning) });
}
