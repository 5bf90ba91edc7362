//! A 2^27-point single-precision transform in host memory on a device that takes at most 256 MiB per buffer
//! and 1 GiB in all (PoCL's `POCL_MEMORY_LIMIT=1`): `fftxExecC2C` cannot hold the 1 GiB of data, so it streams
//! it through the device in slabs. Checked against rustfft in double precision; prints the time and GFLOPS
//! (5 N log2 N flops) with every transfer included. Needs about 5 GiB of host memory, hence a file of its own.

use fftx::api::fftx::fftxResult_t::FFTX_SUCCESS;
use fftx::api::fftx::*;
use num_complex::Complex64;
use rustfft::FftPlanner;
use std::time::Instant;

#[test]
fn streams_2_27_points_through_a_256_mib_device() {
    // PoCL reads its limits when the first OpenCL call loads it; this file holds no other test.
    std::env::set_var("POCL_MEMORY_LIMIT", "1");
    if std::env::var_os("FFTX_CACHE_DIR").is_none() {
        std::env::set_var("FFTX_CACHE_DIR", concat!(env!("CARGO_MANIFEST_DIR"), "/target/fftx-test-cache"));
    }
    let log2n = 27;
    let n = 1usize << log2n;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    let input: Vec<fftxComplex> = (0..n).map(|_| fftxComplex { x: next(), y: next() }).collect();
    let mut output = vec![fftxComplex::default(); n];

    let mut plan = 0;
    assert_eq!(unsafe { fftxPlan1d(&mut plan, n as i32, fftxType_t::FFTX_C2C as fftxType, 1) }, FFTX_SUCCESS);
    let started = Instant::now();
    let status = unsafe { fftxExecC2C(plan, input.as_ptr() as *mut _, output.as_mut_ptr(), FFTX_FORWARD) };
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(status, FFTX_SUCCESS);
    assert_eq!(fftxDestroy(plan), FFTX_SUCCESS);
    let gflops = 5.0 * n as f64 * log2n as f64 / seconds / 1e9;
    println!("out-of-core: 2^{log2n} points single precision from host memory in {seconds:.2} s, {gflops:.2} GFLOPS");

    let mut reference: Vec<Complex64> = input.iter().map(|c| Complex64::new(c.x as f64, c.y as f64)).collect();
    drop(input);
    FftPlanner::<f64>::new().plan_fft_forward(n).process(&mut reference);
    let (mut err, mut norm) = (0.0, 0.0);
    for (got, want) in output.iter().zip(&reference) {
        err += (Complex64::new(got.x as f64, got.y as f64) - want).norm_sqr();
        norm += want.norm_sqr();
    }
    let nrmse = (err / norm).sqrt();
    println!("out-of-core: normalized RMSE {nrmse:.2e}");
    // clFFT and FFTW reach 1e-7 to 2e-7 in single precision; the error grows like sqrt(log N).
    assert!(nrmse < 5e-7, "normalized RMSE {nrmse:e}");
}
