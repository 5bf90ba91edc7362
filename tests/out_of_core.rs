//! Transforms in host memory on a device that takes at most 256 MiB per buffer and 1 GiB in all (PoCL's
//! `POCL_MEMORY_LIMIT=1`), which cannot hold their data, so they stream through the device in slabs: a
//! 2^27-point single-precision `fftxExecC2C`, a 2^26-point `fftxExecR2C` and its `fftxExecC2R`, the same
//! of odd length 3^15 x 5 and of a 4096 x 16384 plane; a 2 x 8192 x 8192 transform, whose planes the device
//! cannot hold either; and a batch of transforms that the device holds one by one but not all at once, which
//! runs in parts. Checked against rustfft in double precision; they print the time and GFLOPS
//! with every transfer included. They need up to 5 GiB of host memory each, hence a file of their own.

use fftx::api::fftx::fftxResult_t::FFTX_SUCCESS;
use fftx::api::fftx::*;
use num_complex::Complex64;
use rustfft::FftPlanner;
use std::time::Instant;

/// Limits PoCL's device, which PoCL reads when the first OpenCL call loads it: every test here calls this
/// first, and this file holds no test that wants the whole device.
fn small_device() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::env::set_var("POCL_MEMORY_LIMIT", "1");
        if std::env::var_os("FFTX_CACHE_DIR").is_none() {
            std::env::set_var("FFTX_CACHE_DIR", concat!(env!("CARGO_MANIFEST_DIR"), "/target/fftx-test-cache"));
        }
    });
}

/// Uniform values in [-1, 1).
fn random_values(seed: u64) -> impl FnMut() -> f32 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

fn normalized_rmse(pairs: impl Iterator<Item = (Complex64, Complex64)>) -> f64 {
    let (mut err, mut norm) = (0.0, 0.0);
    for (got, want) in pairs {
        err += (got - want).norm_sqr();
        norm += want.norm_sqr();
    }
    (err / norm).sqrt()
}

/// Plans a transform of row-major sizes `n` and `fft_type`, runs `exec` on it once and returns the seconds
/// it took.
fn plan_and_run(n: &[usize], fft_type: fftxType_t, exec: impl FnOnce(fftxHandle) -> fftxResult) -> f64 {
    let mut plan = 0;
    let status = unsafe {
        match *n {
            [n] => fftxPlan1d(&mut plan, n as i32, fft_type as fftxType, 1),
            [rows, columns] => fftxPlan2d(&mut plan, rows as i32, columns as i32, fft_type as fftxType),
            [n0, n1, n2] => fftxPlan3d(&mut plan, n0 as i32, n1 as i32, n2 as i32, fft_type as fftxType),
            _ => unreachable!("sizes {n:?}"),
        }
    };
    assert_eq!(status, FFTX_SUCCESS, "plan {fft_type:?} of {n:?}");
    let started = Instant::now();
    let status = exec(plan);
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(status, FFTX_SUCCESS, "{fft_type:?} of {n:?}");
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
    seconds
}

/// Runs the C2R of sizes `n` on `spectrum`, the R2C of `signal`, and checks that the signal comes back `n`
/// times over (cuFFT's C2R is unnormalised).
fn c2r_round_trip(n: &[usize], spectrum: &mut [fftxComplex], signal: &[f32]) {
    let mut back = vec![0f32; signal.len()];
    let seconds = plan_and_run(n, fftxType_t::FFTX_C2R, |plan| unsafe {
        fftxExecC2R(plan, spectrum.as_mut_ptr(), back.as_mut_ptr())
    });
    println!("out-of-core: C2R of {n:?} reals to host memory in {seconds:.2} s");
    let scale = signal.len() as f64;
    let pairs = back.iter().zip(signal);
    let nrmse =
        normalized_rmse(pairs.map(|(&b, &s)| (Complex64::new(b as f64 / scale, 0.0), Complex64::new(s as f64, 0.0))));
    println!("out-of-core: C2R(R2C(x)) / n of {n:?} normalized RMSE {nrmse:.2e}");
    assert!(nrmse < 5e-7, "{n:?}: round trip normalized RMSE {nrmse:e}");
}

#[test]
fn streams_2_27_points_through_a_256_mib_device() {
    small_device();
    let log2n = 27;
    let n = 1usize << log2n;
    let mut next = random_values(0x2545_f491_4f6c_dd1d);
    let input: Vec<fftxComplex> = (0..n).map(|_| fftxComplex { x: next(), y: next() }).collect();
    let mut output = vec![fftxComplex::default(); n];

    let seconds = plan_and_run(&[n], fftxType_t::FFTX_C2C, |plan| unsafe {
        fftxExecC2C(plan, input.as_ptr() as *mut _, output.as_mut_ptr(), FFTX_FORWARD)
    });
    let gflops = 5.0 * n as f64 * log2n as f64 / seconds / 1e9;
    println!("out-of-core: 2^{log2n} points single precision from host memory in {seconds:.2} s, {gflops:.2} GFLOPS");

    let mut reference: Vec<Complex64> = input.iter().map(|c| Complex64::new(c.x as f64, c.y as f64)).collect();
    drop(input);
    FftPlanner::<f64>::new().plan_fft_forward(n).process(&mut reference);
    let nrmse = normalized_rmse(output.iter().map(|c| Complex64::new(c.x as f64, c.y as f64)).zip(reference));
    println!("out-of-core: normalized RMSE {nrmse:.2e}");
    // clFFT and FFTW reach 1e-7 to 2e-7 in single precision; the error grows like sqrt(log N).
    assert!(nrmse < 5e-7, "normalized RMSE {nrmse:e}");
}

/// Runs the R2C of `n` reals in host memory, checks it against rustfft, then the C2R back.
fn real_line_and_back(n: usize, seed: u64) {
    small_device();
    let mut next = random_values(seed);
    let signal: Vec<f32> = (0..n).map(|_| next()).collect();
    let mut spectrum = vec![fftxComplex::default(); n / 2 + 1];

    let seconds = plan_and_run(&[n], fftxType_t::FFTX_R2C, |plan| unsafe {
        fftxExecR2C(plan, signal.as_ptr() as *mut f32, spectrum.as_mut_ptr())
    });
    let gflops = 2.5 * n as f64 * (n as f64).log2() / seconds / 1e9;
    println!("out-of-core: R2C of {n} reals from host memory in {seconds:.2} s, {gflops:.2} GFLOPS");

    let mut reference: Vec<Complex64> = signal.iter().map(|&v| Complex64::new(v as f64, 0.0)).collect();
    FftPlanner::<f64>::new().plan_fft_forward(n).process(&mut reference);
    let got = spectrum.iter().map(|c| Complex64::new(c.x as f64, c.y as f64));
    let nrmse = normalized_rmse(got.zip(reference.into_iter().take(n / 2 + 1)));
    println!("out-of-core: R2C of {n} reals normalized RMSE {nrmse:.2e}");
    assert!(nrmse < 5e-7, "R2C of {n} reals normalized RMSE {nrmse:e}");

    c2r_round_trip(&[n], &mut spectrum, &signal);
}

#[test]
fn streams_a_2_26_point_real_transform_and_back() {
    // 2^25 + 1 values of spectrum: more than the device's largest buffer.
    real_line_and_back(1 << 26, 0x9e37_79b9_7f4a_7c15);
}

#[test]
fn streams_an_odd_real_transform_and_back() {
    // 3^15 x 5 = 71_744_535 reals (287 MB): more than the device's largest buffer. An odd length runs as a
    // complex transform of that length.
    real_line_and_back(71_744_535, 0xbb67_ae85_84ca_a73b);
}

#[test]
fn streams_a_4096_by_16384_real_transform_and_back() {
    small_device();
    let (rows, columns) = (4096usize, 16384usize);
    let (n, h) = (rows * columns, columns / 2 + 1);
    let mut next = random_values(0xd1b5_4a32_d192_ed03);
    let signal: Vec<f32> = (0..n).map(|_| next()).collect();
    // 4096 x 8193 values: more than the device's largest buffer.
    let mut spectrum = vec![fftxComplex::default(); rows * h];
    let seconds = plan_and_run(&[rows, columns], fftxType_t::FFTX_R2C, |plan| unsafe {
        fftxExecR2C(plan, signal.as_ptr() as *mut f32, spectrum.as_mut_ptr())
    });
    println!("out-of-core: R2C of {rows} x {columns} reals from host memory in {seconds:.2} s");

    // The reference: each row's half spectrum, then each of its columns transformed.
    let mut planner = FftPlanner::<f64>::new();
    let (along_rows, along_columns) = (planner.plan_fft_forward(columns), planner.plan_fft_forward(rows));
    let mut reference = vec![Complex64::default(); rows * h];
    let mut line = vec![Complex64::default(); columns];
    for r in 0..rows {
        line.iter_mut().zip(&signal[r * columns..]).for_each(|(v, &s)| *v = Complex64::new(s as f64, 0.0));
        along_rows.process(&mut line);
        reference[r * h..(r + 1) * h].copy_from_slice(&line[..h]);
    }
    let mut column = vec![Complex64::default(); rows];
    for c in 0..h {
        column.iter_mut().enumerate().for_each(|(r, v)| *v = reference[r * h + c]);
        along_columns.process(&mut column);
        column.iter().enumerate().for_each(|(r, &v)| reference[r * h + c] = v);
    }
    let got = spectrum.iter().map(|c| Complex64::new(c.x as f64, c.y as f64));
    let nrmse = normalized_rmse(got.zip(reference));
    println!("out-of-core: 2D R2C normalized RMSE {nrmse:.2e}");
    assert!(nrmse < 5e-7, "2D R2C normalized RMSE {nrmse:e}");

    c2r_round_trip(&[rows, columns], &mut spectrum, &signal);
}

#[test]
fn streams_a_3d_transform_whose_planes_exceed_the_device() {
    small_device();
    // Planes of 8192 x 8192 values (512 MiB): each streams on its own, axis by axis.
    let n = [2usize, 8192, 8192];
    let size: usize = n.iter().product();
    let mut next = random_values(0x3c6e_f372_fe94_f82b);
    let input: Vec<fftxComplex> = (0..size).map(|_| fftxComplex { x: next(), y: next() }).collect();
    let mut output = vec![fftxComplex::default(); size];
    let seconds = plan_and_run(&n, fftxType_t::FFTX_C2C, |plan| unsafe {
        fftxExecC2C(plan, input.as_ptr() as *mut _, output.as_mut_ptr(), FFTX_FORWARD)
    });
    println!("out-of-core: C2C of {n:?} from host memory in {seconds:.2} s");

    // Values of the spectrum, each summed in double precision: the error against the spectrum's RMS.
    let x = |j: usize| Complex64::new(input[j].x as f64, input[j].y as f64);
    let rms = input.iter().map(|c| (c.x as f64).powi(2) + (c.y as f64).powi(2)).sum::<f64>().sqrt();
    let root = |k: usize, j: usize, len: usize| {
        Complex64::from_polar(1.0, -std::f64::consts::TAU * ((k * j) % len) as f64 / len as f64)
    };
    for k in [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 4097, 123], [0, 8191, 8000]] {
        let along_2: Vec<Complex64> = (0..n[2]).map(|j| root(k[2], j, n[2])).collect();
        let mut want = Complex64::default();
        for j0 in 0..n[0] {
            for j1 in 0..n[1] {
                let row = (j0 * n[1] + j1) * n[2];
                let sum: Complex64 = (0..n[2]).map(|j2| x(row + j2) * along_2[j2]).sum();
                want += sum * root(k[0], j0, n[0]) * root(k[1], j1, n[1]);
            }
        }
        let g = output[(k[0] * n[1] + k[1]) * n[2] + k[2]];
        let error = (Complex64::new(g.x as f64, g.y as f64) - want).norm() / rms;
        assert!(error < 1e-6, "value {k:?}: error {error:e} of the spectrum's RMS");
    }

    // And back: the inverse in place, n times the input.
    plan_and_run(&n, fftxType_t::FFTX_C2C, |plan| unsafe {
        fftxExecC2C(plan, output.as_mut_ptr(), output.as_mut_ptr(), FFTX_INVERSE)
    });
    let scale = size as f64;
    let back = output.iter().map(|c| Complex64::new(c.x as f64 / scale, c.y as f64 / scale));
    let nrmse = normalized_rmse(back.zip((0..size).map(x)));
    println!("out-of-core: inverse(forward(x)) / n of {n:?} normalized RMSE {nrmse:.2e}");
    assert!(nrmse < 5e-7, "round trip normalized RMSE {nrmse:e}");
}

#[test]
fn runs_a_batch_larger_than_the_device_in_parts() {
    small_device();
    // 40 transforms of 2^20 values: 320 MiB a side, more than one 256 MiB buffer.
    let (n, batch) = (1usize << 20, 40usize);
    let mut next = random_values(0x6a09_e667_f3bc_c908);
    let input: Vec<fftxComplex> = (0..n * batch).map(|_| fftxComplex { x: next(), y: next() }).collect();
    let mut output = vec![fftxComplex::default(); n * batch];
    let mut plan = 0;
    assert_eq!(
        unsafe { fftxPlan1d(&mut plan, n as i32, fftxType_t::FFTX_C2C as fftxType, batch as i32) },
        FFTX_SUCCESS
    );
    let status = unsafe { fftxExecC2C(plan, input.as_ptr() as *mut _, output.as_mut_ptr(), FFTX_INVERSE) };
    assert_eq!(status, FFTX_SUCCESS);
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
    let inverse = FftPlanner::<f64>::new().plan_fft_inverse(n);
    let mut worst: f64 = 0.0;
    for (x, y) in input.chunks(n).zip(output.chunks(n)) {
        let mut reference: Vec<Complex64> = x.iter().map(|c| Complex64::new(c.x as f64, c.y as f64)).collect();
        inverse.process(&mut reference);
        worst = worst.max(normalized_rmse(y.iter().map(|c| Complex64::new(c.x as f64, c.y as f64)).zip(reference)));
    }
    println!("in parts: worst normalized RMSE of {batch} transforms {worst:.2e}");
    assert!(worst < 5e-7, "normalized RMSE {worst:e}");
}
