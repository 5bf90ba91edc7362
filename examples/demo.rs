//! One FFT on the default device, through the clFFT API, checked against rustfft in double precision.
//!
//! `cargo run --release --example demo -- [log2 N] [single|double]`; `FFTX_DEVICE` chooses the device.

use fftx::api::clfft::*;
use fftx::runtime::cl::{device_name, read_buffer, write_buffer};
use fftx::runtime::select::default_device;
use fftx::runtime::{Buffer, Context, Queue};
use rustfft::num_complex::Complex64;
use std::time::Instant;

fn check(status: i32, what: &str) -> Result<(), String> {
    if status == CLFFT_SUCCESS {
        Ok(())
    } else {
        Err(format!("{what} failed with status {status} (run with FFTX_LOG=error for details)"))
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("demo: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    const USAGE: &str = "usage: scripts/demo [log2 N (1 to 30, default 20)] [single|double (default single)]";
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return Ok(());
    }
    if args.len() > 2 {
        return Err(format!("too many arguments\n{USAGE}").into());
    }
    let log2n: u32 = match args.first() {
        None => 20,
        Some(a) => a.parse().map_err(|_| format!("log2 N must be a whole number, not {a:?}\n{USAGE}"))?,
    };
    let double = match args.get(1).map(String::as_str) {
        None | Some("single") => false,
        Some("double") => true,
        Some(other) => return Err(format!("the precision is single or double, not {other:?}\n{USAGE}").into()),
    };
    if !(1..=30).contains(&log2n) {
        return Err(format!("log2 N must be 1 to 30, not {log2n}\n{USAGE}").into());
    }
    let n = 1usize << log2n;

    let (_, device) = default_device()?;
    let context = Context::create(device)?;
    let queue = Queue::create(&context, device, false)?;
    println!("device:    {}", device_name(device)?);
    println!("transform: 1D complex-to-complex, N = 2^{log2n} = {n}, {}", if double { "double" } else { "single" });

    let input: Vec<Complex64> =
        (0..n).map(|i| Complex64::new((i as f64 * 0.37).sin(), (i as f64 * 1.91).cos() * 0.5)).collect();
    let bytes = n * if double { 16 } else { 8 };
    let data = Buffer::create(&context, bytes)?;
    let upload = |buffer: &Buffer| -> Result<(), Box<dyn std::error::Error>> {
        if double {
            let flat: Vec<f64> = input.iter().flat_map(|c| [c.re, c.im]).collect();
            write_buffer(queue.raw(), buffer.raw(), 0, &flat)?;
        } else {
            let flat: Vec<f32> = input.iter().flat_map(|c| [c.re as f32, c.im as f32]).collect();
            write_buffer(queue.raw(), buffer.raw(), 0, &flat)?;
        }
        Ok(())
    };

    let mut plan: clfftPlanHandle = 0;
    let mut q = queue.raw();
    let (bake_ms, times) = unsafe {
        check(clfftSetup(std::ptr::null()), "clfftSetup")?;
        check(clfftCreateDefaultPlan(&mut plan, context.raw(), 1, &n), "clfftCreateDefaultPlan")?;
        check(clfftSetPlanPrecision(plan, if double { 2 } else { 1 }), "clfftSetPlanPrecision")?;
        let started = Instant::now();
        check(clfftBakePlan(plan, 1, &mut q, None, std::ptr::null_mut()), "clfftBakePlan")?;
        let bake_ms = started.elapsed().as_secs_f64() * 1e3;
        let mut times = Vec::new();
        for _ in 0..6 {
            upload(&data)?;
            let mut mem = data.raw();
            let started = Instant::now();
            check(
                clfftEnqueueTransform(
                    plan,
                    -1,
                    1,
                    &mut q,
                    0,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                    &mut mem,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                ),
                "clfftEnqueueTransform",
            )?;
            queue.finish()?;
            times.push(started.elapsed().as_secs_f64() * 1e3);
        }
        check(clfftDestroyPlan(&mut plan), "clfftDestroyPlan")?;
        check(clfftTeardown(), "clfftTeardown")?;
        (bake_ms, times)
    };

    let output: Vec<Complex64> = if double {
        let mut flat = vec![0f64; 2 * n];
        read_buffer(queue.raw(), data.raw(), 0, &mut flat, &[])?;
        flat.chunks_exact(2).map(|c| Complex64::new(c[0], c[1])).collect()
    } else {
        let mut flat = vec![0f32; 2 * n];
        read_buffer(queue.raw(), data.raw(), 0, &mut flat, &[])?;
        flat.chunks_exact(2).map(|c| Complex64::new(c[0] as f64, c[1] as f64)).collect()
    };
    let mut reference = input.clone();
    rustfft::FftPlanner::new().plan_fft_forward(n).process(&mut reference);
    let err: f64 = output.iter().zip(&reference).map(|(a, b)| (a - b).norm_sqr()).sum::<f64>().sqrt();
    let norm: f64 = reference.iter().map(|v| v.norm_sqr()).sum::<f64>().sqrt();

    let mut sorted = times[1..].to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    println!("bake:      {bake_ms:.1} ms");
    println!(
        "transform: {median:.3} ms median of {} runs ({:.1} GFLOPS)",
        sorted.len(),
        5.0 * n as f64 * log2n as f64 / (median * 1e6)
    );
    println!("error:     {:.2e} normalized RMSE against rustfft (f64)", err / norm);
    Ok(())
}
