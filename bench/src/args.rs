//! Command-line flags.

use crate::cases::{parse_shape, Kind, Precision};
use crate::host;
use std::path::PathBuf;

pub const USAGE: &str = "\
fftx-bench: fftx against clFFT, VkFFT, FFTW and a device buffer copy, in one process.

usage: cargo run --release -p fftx-bench -- [flags]
       (build the library first: cargo build --release)

  --quick              a run of about a minute: sizes 1000, 4096, 2^20, 256x256; single precision unless
                       --precision says otherwise
  --precision P        single | double | both                            (default both)
  --kind K             c2c | r2c | c2r | all (every kind)                (default c2c and r2c)
  --sizes LIST         sizes to run instead of the standard table, e.g. 1024,4096,1000,256x256,64x64x64
  --dims LIST          keep only sizes of these dimensionalities, e.g. 1 or 2,3      (default 1,2,3)
  --only LIST          among fftx,clfft,vkfft,fftw,copy                  (default all)
  --runs K             timed runs per measurement, after 2 warm-up runs  (default 10)
  --out DIR            where the run's folder <date>-<device>[-NAME] goes (default results)
  --name NAME          names the run (its folder and plot title) (default bench, quick or nomemalloc)
  --cold               empty caches: point FFTX_CACHE_DIR and POCL_CACHE_DIR at fresh temporary folders;
                       first it times a one-line kernel's builds in a fresh process (the compiler's floor)
  --nomemalloc         in-place 1D c2c at 2^20, 2^22, 2^24, 2^26 for fftx and clFFT, first without and then
                       with CLFFT_REQUEST_LIB_NOMEMALLOC=1
  --host               in-place 1D c2c on host memory through fftx's cuFFT-style API and FFTW in place, each
                       row in a child process: time, peak RSS / data, worst error at sampled bins (default
                       2^28 single, 2^29 single, 2^28 double; --sizes and --precision choose others; --runs
                       defaults to 3; --only fftx or fftw runs one side)
  --fftw-wisdom DIR    FFTW wisdom in DIR (wisdomf single, wisdom double, as FFTW names /etc/fftw's): read
                       before planning, written back after each new plan, so a later run plans known cases
                       without measuring (its FFTW plan ms then times the lookup); DIR is made if missing
  --fftx-lib PATH      the libfftx.so to load (default $FFTX_BENCH_LIB, else libfftx.so beside this program)
  --clfft-lib PATH     the clFFT library to load                         (default libclFFT.so.2)
  -h, --help           this text

FFTX_DEVICE=<platform>:<device> (indices) or a name substring picks the OpenCL device; the default is the
first GPU, else the first device.";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contender {
    Fftx,
    Clfft,
    Vkfft,
    Fftw,
    Copy,
}

impl Contender {
    pub const ALL: [Contender; 5] =
        [Contender::Fftx, Contender::Clfft, Contender::Vkfft, Contender::Fftw, Contender::Copy];

    pub fn name(self) -> &'static str {
        match self {
            Contender::Fftx => "fftx",
            Contender::Clfft => "clfft",
            Contender::Vkfft => "vkfft",
            Contender::Fftw => "fftw",
            Contender::Copy => "copy",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    pub quick: bool,
    pub precisions: Vec<Precision>,
    pub kinds: Vec<Kind>,
    pub shapes: Option<Vec<Vec<usize>>>,
    pub dims: Vec<usize>,
    pub only: Vec<Contender>,
    pub runs: usize,
    pub out: PathBuf,
    pub name: Option<String>,
    pub cold: bool,
    pub nomemalloc: bool,
    /// `--host`: the rows (points, precision) of the host-memory table.
    pub host: Option<Vec<(usize, Precision)>>,
    pub fftw_wisdom: Option<PathBuf>,
    pub fftx_lib: Option<String>,
    pub clfft_lib: String,
}

impl Options {
    pub fn wants(&self, contender: Contender) -> bool {
        self.only.contains(&contender)
    }

    /// The file name stem of this run's CSV and PNG.
    pub fn stem(&self) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None if self.nomemalloc => "nomemalloc".into(),
            None if self.host.is_some() => "host".into(),
            None if self.quick => "quick".into(),
            None => "bench".into(),
        }
    }
}

/// `None` when help was asked for.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        quick: false,
        precisions: Vec::new(),
        // c2r runs only when asked for, so the default run is as long as it was before c2r existed.
        kinds: vec![Kind::C2c, Kind::R2c],
        shapes: None,
        dims: vec![1, 2, 3],
        only: Contender::ALL.to_vec(),
        runs: 10,
        out: PathBuf::from("results"),
        name: None,
        cold: false,
        nomemalloc: false,
        host: None,
        fftw_wisdom: None,
        fftx_lib: None,
        clfft_lib: "libclFFT.so.2".into(),
    };
    let mut host = false;
    let mut runs_given = false;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_string(), Some(value.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || inline.clone().or_else(|| args.next()).ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--quick" => options.quick = true,
            "--cold" => options.cold = true,
            "--nomemalloc" => options.nomemalloc = true,
            "--host" => host = true,
            "--precision" => {
                options.precisions = match value()?.as_str() {
                    "single" => vec![Precision::Single],
                    "double" => vec![Precision::Double],
                    "both" => vec![Precision::Single, Precision::Double],
                    other => return Err(format!("--precision {other}: expected single, double or both")),
                }
            }
            "--kind" => {
                options.kinds = match value()?.as_str() {
                    "c2c" => vec![Kind::C2c],
                    "r2c" => vec![Kind::R2c],
                    "c2r" => vec![Kind::C2r],
                    "all" => Kind::ALL.to_vec(),
                    other => return Err(format!("--kind {other}: expected c2c, r2c, c2r or all")),
                }
            }
            "--sizes" => {
                let mut shapes = value()?
                    .split(',')
                    .filter(|s| !s.trim().is_empty())
                    .map(parse_shape)
                    .collect::<Result<Vec<_>, _>>()?;
                if shapes.is_empty() {
                    return Err("--sizes needs at least one size".into());
                }
                // The table and the plot's x axis run 1D before 2D before 3D, smaller first.
                shapes.sort_by_key(|lengths| (lengths.len(), lengths.iter().product::<usize>()));
                options.shapes = Some(shapes);
            }
            "--dims" => {
                options.dims = value()?
                    .split(',')
                    .filter(|s| !s.trim().is_empty())
                    .map(|d| match d.trim().parse::<usize>() {
                        Ok(n @ 1..=3) => Ok(n),
                        _ => Err(format!("--dims {d}: expected 1, 2 or 3")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
            }
            "--only" => {
                options.only = value()?
                    .split(',')
                    .filter(|s| !s.trim().is_empty())
                    .map(|name| {
                        Contender::ALL
                            .into_iter()
                            .find(|c| c.name() == name.trim())
                            .ok_or_else(|| format!("--only {name}: expected fftx, clfft, vkfft, fftw or copy"))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
            }
            "--runs" => {
                runs_given = true;
                options.runs = match value()?.parse::<usize>() {
                    Ok(n) if n >= 1 => n,
                    _ => return Err("--runs needs a whole number of at least 1".into()),
                }
            }
            "--out" => options.out = PathBuf::from(value()?),
            "--name" => options.name = Some(value()?),
            "--fftw-wisdom" => options.fftw_wisdom = Some(PathBuf::from(value()?)),
            "--fftx-lib" => options.fftx_lib = Some(value()?),
            "--clfft-lib" => options.clfft_lib = value()?,
            other => return Err(format!("unknown flag {other} (see --help)")),
        }
    }
    if host {
        if options.nomemalloc {
            return Err("--host and --nomemalloc are separate runs".into());
        }
        options.host = Some(host_rows(&options)?);
        if !runs_given {
            options.runs = host::DEFAULT_RUNS;
        }
    }
    if options.precisions.is_empty() {
        options.precisions =
            if options.quick { vec![Precision::Single] } else { vec![Precision::Single, Precision::Double] };
    }
    Ok(Some(options))
}

/// The rows of `--host`: every size of `--sizes` in every precision of `--precision` (single unless it
/// says otherwise), or without `--sizes` the default rows in the precisions `--precision` names.
fn host_rows(options: &Options) -> Result<Vec<(usize, Precision)>, String> {
    let Some(shapes) = &options.shapes else {
        let asked = |precision: &Precision| options.precisions.is_empty() || options.precisions.contains(precision);
        return Ok(host::default_rows().into_iter().filter(|(_, precision)| asked(precision)).collect());
    };
    let precisions = if options.precisions.is_empty() { vec![Precision::Single] } else { options.precisions.clone() };
    let mut rows = Vec::new();
    for &precision in &precisions {
        for shape in shapes {
            match shape[..] {
                [n] if n <= i32::MAX as usize => rows.push((n, precision)),
                [n] => return Err(format!("--host --sizes {n}: fftxPlan1d takes at most {} points", i32::MAX)),
                _ => return Err(format!("--host takes 1D sizes only, not {}", crate::cases::shape_label(shape))),
            }
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_words(words: &str) -> Result<Option<Options>, String> {
        parse(words.split_whitespace().map(String::from))
    }

    #[test]
    fn defaults_run_c2c_and_r2c_in_both_precisions_and_quick_runs_single() {
        let options = parse_words("").unwrap().unwrap();
        assert_eq!(options.precisions, [Precision::Single, Precision::Double]);
        assert_eq!(options.only, Contender::ALL);
        assert_eq!(options.kinds, [Kind::C2c, Kind::R2c]);
        assert_eq!((options.runs, options.stem()), (10, "bench".to_string()));
        let quick = parse_words("--quick").unwrap().unwrap();
        assert_eq!(quick.precisions, [Precision::Single]);
        assert_eq!(quick.stem(), "quick");
    }

    #[test]
    fn flags_take_values_with_a_space_or_an_equals_sign() {
        let options =
            parse_words("--sizes=256x256,4096,1000 --only fftx,copy --runs 12 --kind=c2c --dims 1").unwrap().unwrap();
        assert_eq!(options.shapes, Some(vec![vec![1000], vec![4096], vec![256, 256]]));
        assert_eq!(options.only, [Contender::Fftx, Contender::Copy]);
        assert_eq!((options.runs, options.kinds, options.dims), (12, vec![Kind::C2c], vec![1]));
        assert_eq!(options.fftw_wisdom, None);
        let wise = parse_words("--fftw-wisdom /tmp/w").unwrap().unwrap();
        assert_eq!(wise.fftw_wisdom, Some(PathBuf::from("/tmp/w")));
    }

    #[test]
    fn c2r_runs_alone_or_in_all_but_not_by_default() {
        assert_eq!(parse_words("--kind c2r").unwrap().unwrap().kinds, [Kind::C2r]);
        assert_eq!(parse_words("--kind all").unwrap().unwrap().kinds, [Kind::C2c, Kind::R2c, Kind::C2r]);
    }

    #[test]
    fn host_runs_its_default_rows_or_the_sizes_and_precisions_asked_for() {
        let host = parse_words("--host").unwrap().unwrap();
        let (single, double) = (Precision::Single, Precision::Double);
        assert_eq!(host.host, Some(vec![(1 << 28, single), (1 << 29, single), (1 << 28, double)]));
        assert_eq!((host.runs, host.stem()), (host::DEFAULT_RUNS, "host".to_string()));
        assert_eq!(parse_words("").unwrap().unwrap().host, None);
        let doubles = parse_words("--host --precision double --runs 5").unwrap().unwrap();
        assert_eq!((doubles.host, doubles.runs), (Some(vec![(1 << 28, double)]), 5));
        let big = parse_words("--host --sizes 1073741824").unwrap().unwrap();
        assert_eq!(big.host, Some(vec![(1 << 30, single)]));
        let both = parse_words("--host --sizes 4096,1024 --precision both --only fftw").unwrap().unwrap();
        assert_eq!(both.host, Some(vec![(1024, single), (4096, single), (1024, double), (4096, double)]));
        assert_eq!(both.only, [Contender::Fftw]);
        for bad in ["--host --sizes 64x64", "--host --sizes 4294967296", "--host --nomemalloc"] {
            assert!(parse_words(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn mistakes_are_reported() {
        assert!(parse_words("--help").unwrap().is_none());
        for bad in
            ["--runs 0", "--only cufft", "--kind r2r", "--kind", "--dims 4", "--sizes", "--fftw-wisdom", "--frobnicate"]
        {
            assert!(parse_words(bad).is_err(), "{bad}");
        }
    }
}
