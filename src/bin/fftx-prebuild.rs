//! Compiles the kernels of chosen transforms ahead of time into fftx's disk cache, so that a program's first
//! bake of those shapes takes milliseconds instead of the OpenCL compiler's seconds.
//!
//! `fftx-prebuild [--kind c2c,r2c,c2r] [--precision single,double] [--placement in,out] [--batch N]
//! SHAPE... | --standard`, a SHAPE being `4096`, `1024x1024` or `128x128x128` (fastest axis first).
//! `--standard` takes the shapes of the benchmark's standard table. The device is `FFTX_DEVICE`'s or the
//! default, the cache `FFTX_CACHE_DIR`'s or the default; every kind, precision and placement named is baked.
use fftx::plan::{Layout, Plan, Settings};
use fftx::planner::packed_strides;
use fftx::runtime::cl::device_name;
use fftx::runtime::{default_device, Context, Queue};
use fftx::types::Precision;
use std::time::Instant;

const USAGE: &str = "usage: fftx-prebuild [--kind c2c,r2c,c2r] [--precision single,double] [--placement in,out] \
                     [--batch N] SHAPE... | --standard   (SHAPE: 4096, 1024x1024 or 128x128x128)";

/// The benchmark's standard table (`bench/src/cases.rs`): 1D powers of four from 64 to 2^24 and mixed radices,
/// three 2D and two 3D shapes.
fn standard_shapes() -> Vec<Vec<usize>> {
    let mut one_d: Vec<usize> = (6..=24).step_by(2).map(|e| 1usize << e).collect();
    one_d.extend([1000, 2187, 3125, 16807, 61440]);
    one_d.sort_unstable();
    let mut shapes: Vec<Vec<usize>> = one_d.into_iter().map(|n| vec![n]).collect();
    shapes.extend([vec![256, 256], vec![1024, 1024], vec![2048, 2048], vec![64, 64, 64], vec![128, 128, 128]]);
    shapes
}

struct Request {
    shapes: Vec<Vec<usize>>,
    kinds: Vec<(Layout, Layout)>,
    precisions: Vec<Precision>,
    in_place: Vec<bool>,
    batch: usize,
}

fn parse_shape(text: &str) -> Result<Vec<usize>, String> {
    let lengths: Vec<usize> = text
        .split('x')
        .map(|part| part.parse::<usize>().ok().filter(|&n| n >= 1))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("bad shape {text:?}: lengths joined by 'x', like 4096 or 1024x1024"))?;
    if lengths.len() > 3 {
        return Err(format!("bad shape {text:?}: at most 3 dimensions"));
    }
    Ok(lengths)
}

/// The comma-separated values of an option, each mapped by `pick`.
fn list<T>(value: Option<String>, option: &str, pick: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    let value = value.ok_or_else(|| format!("{option} needs a value"))?;
    value.split(',').map(|v| pick(v).ok_or_else(|| format!("{option}: unknown value {v:?}"))).collect()
}

fn parse(args: Vec<String>) -> Result<Request, String> {
    let mut request = Request {
        shapes: Vec::new(),
        kinds: vec![(Layout::ComplexInterleaved, Layout::ComplexInterleaved)],
        precisions: vec![Precision::Single],
        in_place: vec![false, true],
        batch: 1,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--kind" => {
                request.kinds = list(args.next(), "--kind", |v| match v {
                    "c2c" => Some((Layout::ComplexInterleaved, Layout::ComplexInterleaved)),
                    "r2c" => Some((Layout::Real, Layout::HermitianInterleaved)),
                    "c2r" => Some((Layout::HermitianInterleaved, Layout::Real)),
                    _ => None,
                })?
            }
            "--precision" => {
                request.precisions = list(args.next(), "--precision", |v| match v {
                    "single" => Some(Precision::Single),
                    "double" => Some(Precision::Double),
                    _ => None,
                })?
            }
            "--placement" => {
                request.in_place = list(args.next(), "--placement", |v| match v {
                    "in" => Some(true),
                    "out" => Some(false),
                    _ => None,
                })?
            }
            "--batch" => {
                request.batch = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&b| b >= 1)
                    .ok_or("--batch needs a whole number of at least 1")?
            }
            "--standard" => request.shapes.extend(standard_shapes()),
            other if other.starts_with('-') => return Err(format!("unknown option {other:?}")),
            shape => request.shapes.push(parse_shape(shape)?),
        }
    }
    if request.shapes.is_empty() {
        return Err("no shapes given".into());
    }
    Ok(request)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return;
    }
    let request = match parse(args) {
        Ok(request) => request,
        Err(e) => {
            eprintln!("fftx-prebuild: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    if let Err(e) = prebuild(&request) {
        eprintln!("fftx-prebuild: {e}");
        std::process::exit(1);
    }
}

fn prebuild(request: &Request) -> fftx::Result<()> {
    let (_, device) = default_device()?;
    let context = Context::create(device)?;
    let queue = Queue::create(&context, device, false)?;
    let cache = fftx::runtime::cache::cache_dir()
        .map_or("no disk cache (FFTX_CACHE_DIR is off)".into(), |d| d.display().to_string());
    println!("device {}, cache {cache}", device_name(device)?);
    let (mut baked, mut failed) = (0, 0);
    let started = Instant::now();
    for shape in &request.shapes {
        for &(in_layout, out_layout) in &request.kinds {
            for &precision in &request.precisions {
                for &in_place in &request.in_place {
                    let mut settings = Settings::new(context.clone(), shape);
                    settings.in_layout = in_layout;
                    settings.out_layout = out_layout;
                    settings.precision = precision;
                    settings.in_place = in_place;
                    settings.batch = request.batch;
                    if in_place && in_layout != out_layout {
                        // In place, real rows are padded to whole complex rows (clFFT's and FFTW's layout).
                        pad_real_rows(&mut settings, in_layout == Layout::Real);
                    } else if in_layout != out_layout {
                        pack_hermitian_rows(&mut settings, in_layout == Layout::Real);
                    }
                    let place = if in_place { "in place" } else { "out of place" };
                    let what = settings.problem().map_or_else(|e| e.to_string(), |p| p.describe());
                    let what = format!("{what} {place}");
                    let began = Instant::now();
                    match Plan::new(settings).bake(&queue) {
                        Ok(_) => {
                            baked += 1;
                            println!("{what}: {:.0} ms", began.elapsed().as_secs_f64() * 1e3);
                        }
                        Err(e) => {
                            failed += 1;
                            println!("{what}: {e}");
                        }
                    }
                }
            }
        }
    }
    fftx::runtime::cache::wait_for_writes();
    println!("{baked} plans baked, {failed} failed, in {:.1} s", started.elapsed().as_secs_f64());
    if failed > 0 {
        return Err(fftx::Error::new(fftx::ErrorKind::InvalidArgValue, format!("{failed} plans failed")));
    }
    Ok(())
}

/// Strides and distances of Hermitian rows of N0/2 + 1 values next to packed real rows of N0.
fn pack_hermitian_rows(settings: &mut Settings, real_in: bool) {
    let mut half = settings.lengths.clone();
    half[0] = half[0] / 2 + 1;
    let strides = packed_strides(&half);
    let dist = half.iter().product();
    if real_in {
        settings.out_strides = strides;
        settings.out_dist = dist;
    } else {
        settings.in_strides = strides;
        settings.in_dist = dist;
    }
}

/// Real rows padded to 2 (N0/2 + 1) reals, Hermitian rows of N0/2 + 1 values: one storage for both.
fn pad_real_rows(settings: &mut Settings, real_in: bool) {
    let mut half = settings.lengths.clone();
    half[0] = half[0] / 2 + 1;
    let complex = packed_strides(&half);
    let real: Vec<usize> = complex.iter().enumerate().map(|(a, &s)| if a == 0 { 1 } else { 2 * s }).collect();
    let complex_dist: usize = half.iter().product();
    let (r, c) = if real_in {
        (&mut settings.in_strides, &mut settings.out_strides)
    } else {
        (&mut settings.out_strides, &mut settings.in_strides)
    };
    *r = real;
    *c = complex;
    if real_in {
        settings.in_dist = 2 * complex_dist;
        settings.out_dist = complex_dist;
    } else {
        settings.in_dist = complex_dist;
        settings.out_dist = 2 * complex_dist;
    }
}
