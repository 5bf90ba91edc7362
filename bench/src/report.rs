//! Results: one row per implementation and case, printed as it is measured, summarised with ratios at the
//! end, and written as CSV.

use crate::cases::{Case, Kind};
use crate::measure::{median, minimum, Failure, Measurement};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The figures of one implementation on one case.
#[derive(Debug, Clone)]
pub struct Stats {
    pub plan_ms: Option<f64>,
    pub warm_plan_ms: Option<f64>,
    pub median_ms: f64,
    pub min_ms: f64,
    /// Normalized RMSE against the FFTW long double reference; `None` for the copy or without a reference.
    pub rmse: Option<f64>,
    pub tmp_bytes: Option<usize>,
    /// Real cases, fftx only: the median time of fftx's complex transform of the same lengths and batch, run
    /// in the same alternating turns (so that the real/complex speed ratio does not depend on how busy the
    /// machine was when the c2c case itself ran).
    pub c2c_median_ms: Option<f64>,
}

#[derive(Debug, Clone)]
pub enum Outcome {
    Measured(Stats),
    Failed(Failure),
}

#[derive(Debug, Clone)]
pub struct Row {
    pub implementation: String,
    pub case: Case,
    pub outcome: Outcome,
    /// The copy's median time for this case, for the "x copy" column.
    pub copy_ms: Option<f64>,
}

impl Stats {
    pub fn new(measurement: &Measurement, rmse: Option<f64>) -> Self {
        Stats {
            plan_ms: measurement.plan_ms,
            warm_plan_ms: measurement.warm_plan_ms,
            median_ms: median(&measurement.times_ms),
            min_ms: minimum(&measurement.times_ms),
            rmse,
            tmp_bytes: measurement.tmp_bytes,
            c2c_median_ms: None,
        }
    }
}

impl Row {
    pub fn stats(&self) -> Option<&Stats> {
        match &self.outcome {
            Outcome::Measured(stats) => Some(stats),
            Outcome::Failed(_) => None,
        }
    }

    /// Throughput from the median time. For the copy: the GFLOPS a transform would reach if it took one copy.
    pub fn gflops(&self) -> Option<f64> {
        self.stats().map(|s| self.case.flops() / (s.median_ms * 1e6))
    }

    pub fn copy_ratio(&self) -> Option<f64> {
        Some(self.stats()?.median_ms / self.copy_ms?)
    }

    /// How many times faster than the complex transform of the same size this (real) transform ran.
    pub fn speedup_over_c2c(&self) -> Option<f64> {
        let stats = self.stats()?;
        Some(stats.c2c_median_ms? / stats.median_ms)
    }

    /// "ok", "WRONG" (RMSE above the precision's tolerance, or not finite), "unchecked", "n/a" or "error".
    pub fn check(&self) -> &'static str {
        match &self.outcome {
            Outcome::Failed(Failure::NotAvailable(_)) => "n/a",
            Outcome::Failed(Failure::Error(_)) => "error",
            Outcome::Measured(Stats { rmse: None, .. }) => {
                if self.implementation == "copy" {
                    ""
                } else {
                    "unchecked"
                }
            }
            Outcome::Measured(Stats { rmse: Some(e), .. }) => {
                if *e <= self.case.precision.tolerance() {
                    "ok"
                } else {
                    "WRONG"
                }
            }
        }
    }

    fn note(&self) -> String {
        match &self.outcome {
            Outcome::Failed(failure) => failure.to_string(),
            Outcome::Measured(_) => String::new(),
        }
    }
}

fn opt(value: Option<f64>, width: usize, decimals: usize) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v:>width$.decimals$}"),
        Some(_) => format!("{:>width$}", "NaN"),
        None => format!("{:>width$}", "-"),
    }
}

fn sci(value: Option<f64>, width: usize) -> String {
    match value {
        Some(v) => format!("{v:>width$.1e}"),
        None => format!("{:>width$}", "-"),
    }
}

pub fn case_header(case: &Case) -> String {
    format!(
        "\n{}  (batch {}, {:.1} MFLOP per run)\n  {:<18} {:>9} {:>8} {:>10} {:>10} {:>8} {:>8} {:>7} {:>8}  check",
        case.label(),
        case.batch,
        case.flops() / 1e6,
        "impl",
        "plan ms",
        "warm ms",
        "median ms",
        "min ms",
        "GFLOPS",
        "RMSE",
        "x copy",
        "tmp MiB",
    )
}

pub fn case_line(row: &Row) -> String {
    match row.stats() {
        Some(s) => format!(
            "  {:<18} {} {} {} {} {} {} {} {}  {}",
            row.implementation,
            opt(s.plan_ms, 9, 1),
            opt(s.warm_plan_ms, 8, 1),
            opt(Some(s.median_ms), 10, 3),
            opt(Some(s.min_ms), 10, 3),
            opt(row.gflops(), 8, 2),
            sci(s.rmse, 8),
            opt(row.copy_ratio(), 7, 2),
            opt(s.tmp_bytes.map(|b| b as f64 / (1 << 20) as f64), 8, 1),
            row.check()
        ),
        None => format!("  {:<18} {}: {}", row.implementation, row.check(), row.note()),
    }
}

/// Throughput ratios that the summary reports when both sides were run: (numerator, denominator).
const RATIOS: [(&str, &str); 4] =
    [("fftx", "clfft"), ("fftx", "vkfft"), ("fftx", "fftw"), ("fftx+nomemalloc", "clfft+nomemalloc")];

/// The final table: GFLOPS of every implementation per case, the throughput ratios, fftx's time over the
/// copy's, and geometric means of the ratios.
pub fn summary(rows: &[Row]) -> String {
    let mut implementations: Vec<&str> = Vec::new();
    let mut cases: Vec<&Case> = Vec::new();
    for row in rows {
        if !implementations.contains(&row.implementation.as_str()) {
            implementations.push(&row.implementation);
        }
        if !cases.contains(&&row.case) {
            cases.push(&row.case);
        }
    }
    let find = |case: &Case, name: &str| rows.iter().find(|r| &r.case == case && r.implementation == name);
    // A wrong result has no throughput worth comparing.
    let gflops = |case: &Case, name: &str| find(case, name).filter(|r| r.check() != "WRONG").and_then(Row::gflops);
    let ratios: Vec<(&str, &str)> =
        RATIOS.into_iter().filter(|(a, b)| implementations.contains(a) && implementations.contains(b)).collect();
    let timed_against_copy: Vec<&str> = ["fftx", "fftx+nomemalloc"]
        .into_iter()
        .filter(|name| implementations.contains(name) && implementations.contains(&"copy"))
        .collect();
    let against_c2c = rows.iter().any(|r| r.implementation == "fftx" && r.speedup_over_c2c().is_some());
    // One geometric mean per kind when the run mixes kinds (a c2r ratio says nothing about c2c), then the
    // mean over every case.
    let mut kinds: Vec<Kind> = Vec::new();
    for case in &cases {
        if !kinds.contains(&case.kind) {
            kinds.push(case.kind);
        }
    }
    let mut means: Vec<(String, Option<Kind>)> = Vec::new();
    if kinds.len() > 1 {
        means.extend(kinds.iter().map(|&kind| (format!("geometric mean {}", kind.name()), Some(kind))));
    }
    means.push(("geometric mean".into(), None));
    let label_width =
        cases.iter().map(|c| c.label().len()).chain(means.iter().map(|(label, _)| label.len())).max().unwrap_or(4);
    let column = |name: &str| name.len().max(7);

    let mut out = String::new();
    let _ = write!(out, "{:<label_width$}", "GFLOPS");
    for name in &implementations {
        let _ = write!(out, " {:>w$}", name, w = column(name));
    }
    out.push_str(" |");
    let ratio_names: Vec<String> = ratios
        .iter()
        .map(|(a, b)| format!("{a}/{b}"))
        .chain(timed_against_copy.iter().map(|name| format!("{name} x copy")))
        .chain(against_c2c.then(|| "c2c time / fftx".to_string()))
        .collect();
    for name in &ratio_names {
        let _ = write!(out, " {:>w$}", name, w = name.len().max(8));
    }
    out.push('\n');

    // Every case's ratios, kept for the geometric means.
    let mut case_ratios: Vec<(Kind, Vec<Option<f64>>)> = Vec::new();
    for case in &cases {
        let _ = write!(out, "{:<label_width$}", case.label());
        for name in &implementations {
            let cell = match find(case, name) {
                Some(row) if row.check() == "WRONG" => "WRONG".to_string(),
                Some(row) => match row.gflops() {
                    Some(g) => format!("{g:.2}"),
                    None => row.check().to_string(),
                },
                None => "-".to_string(),
            };
            let _ = write!(out, " {:>w$}", cell, w = column(name));
        }
        out.push_str(" |");
        let values: Vec<Option<f64>> = ratios
            .iter()
            .map(|(a, b)| Some(gflops(case, a)? / gflops(case, b)?))
            .chain(timed_against_copy.iter().map(|name| find(case, name).and_then(Row::copy_ratio)))
            .chain(against_c2c.then(|| find(case, "fftx").and_then(Row::speedup_over_c2c)))
            .collect();
        for (name, value) in ratio_names.iter().zip(&values) {
            let cell = value.map_or_else(|| "-".to_string(), |v| format!("{v:.2}x"));
            let _ = write!(out, " {:>w$}", cell, w = name.len().max(8));
        }
        out.push('\n');
        case_ratios.push((case.kind, values));
    }
    for (label, kind) in &means {
        let _ = write!(out, "{label:<label_width$}");
        for name in &implementations {
            let _ = write!(out, " {:>w$}", "", w = column(name));
        }
        out.push_str(" |");
        for (i, name) in ratio_names.iter().enumerate() {
            let values =
                case_ratios.iter().filter(|(k, _)| kind.is_none_or(|kind| *k == kind)).filter_map(|(_, v)| v[i]);
            let cell = geometric_mean(values).map_or_else(|| "-".to_string(), |m| format!("{m:.2}x"));
            let _ = write!(out, " {:>w$}", cell, w = name.len().max(8));
        }
        out.push('\n');
    }
    out
}

fn geometric_mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, count) = values.fold((0.0, 0usize), |(sum, count), v| (sum + v.ln(), count + 1));
    (count > 0).then(|| (sum / count as f64).exp())
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn csv_number(value: Option<f64>) -> String {
    value.map(|v| format!("{v}")).unwrap_or_default()
}

pub fn write_csv(path: &Path, rows: &[Row], device: &str) -> Result<(), String> {
    let mut text = String::from(
        "implementation,kind,precision,dims,lengths,batch,placement,points,flops,plan_ms,warm_plan_ms,\
         median_ms,min_ms,gflops,rmse,check,copy_ratio,tmp_bytes,note,device,c2c_median_ms\n",
    );
    for row in rows {
        let case = &row.case;
        let stats = row.stats();
        let fields = [
            csv_field(&row.implementation),
            case.kind.name().into(),
            case.precision.name().into(),
            case.lengths.len().to_string(),
            case.size_label(),
            case.batch.to_string(),
            if case.in_place { "in-place" } else { "out-of-place" }.into(),
            case.points().to_string(),
            format!("{}", case.flops()),
            csv_number(stats.and_then(|s| s.plan_ms)),
            csv_number(stats.and_then(|s| s.warm_plan_ms)),
            csv_number(stats.map(|s| s.median_ms)),
            csv_number(stats.map(|s| s.min_ms)),
            csv_number(row.gflops()),
            csv_number(stats.and_then(|s| s.rmse)),
            row.check().into(),
            csv_number(row.copy_ratio()),
            stats.and_then(|s| s.tmp_bytes).map(|b| b.to_string()).unwrap_or_default(),
            csv_field(&row.note()),
            csv_field(device),
            csv_number(stats.and_then(|s| s.c2c_median_ms)),
        ];
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    std::fs::File::create(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::Precision;

    fn row(implementation: &str, median_ms: f64, rmse: Option<f64>) -> Row {
        Row {
            implementation: implementation.into(),
            case: Case::new(Kind::C2c, Precision::Single, vec![1024], false),
            outcome: Outcome::Measured(Stats {
                plan_ms: None,
                warm_plan_ms: None,
                median_ms,
                min_ms: median_ms,
                rmse,
                tmp_bytes: None,
                c2c_median_ms: None,
            }),
            copy_ms: Some(1.0),
        }
    }

    #[test]
    fn checks_follow_the_precision_tolerance() {
        assert_eq!(row("fftx", 2.0, Some(1e-7)).check(), "ok");
        assert_eq!(row("fftx", 2.0, Some(1e-3)).check(), "WRONG");
        assert_eq!(row("fftx", 2.0, Some(f64::NAN)).check(), "WRONG");
        assert_eq!(row("fftx", 2.0, None).check(), "unchecked");
        assert_eq!(row("fftx", 2.0, None).copy_ratio(), Some(2.0));
    }

    #[test]
    fn summary_reports_throughput_ratios_but_not_for_wrong_results() {
        let good = summary(&[row("fftx", 1.0, Some(1e-7)), row("clfft", 4.0, Some(1e-7))]);
        assert!(good.contains("fftx/clfft") && good.contains("4.00x"), "{good}");
        let wrong = summary(&[row("fftx", 1.0, Some(1.0)), row("clfft", 4.0, Some(1e-7))]);
        assert!(wrong.contains("WRONG") && !wrong.contains("4.00x"), "{wrong}");
    }

    #[test]
    fn a_run_of_several_kinds_gets_a_geometric_mean_per_kind_and_one_over_all() {
        let c2r = |implementation: &str, median_ms: f64| Row {
            case: Case::new(Kind::C2r, Precision::Single, vec![1024], false),
            ..row(implementation, median_ms, Some(1e-7))
        };
        let table = summary(&[
            row("fftx", 1.0, Some(1e-7)),
            row("clfft", 4.0, Some(1e-7)),
            c2r("fftx", 1.0),
            c2r("clfft", 1.0),
        ]);
        let c2r_row = table.lines().find(|line| line.starts_with("c2r single 1024"));
        assert_eq!(c2r_row.and_then(|line| line.split('|').nth(1)).map(str::trim), Some("1.00x"), "{table}");
        // The mean rows leave the GFLOPS columns blank.
        let ratio = |label: &str| {
            let line = table.lines().find(|line| line.split('|').next().unwrap().trim() == label);
            line.and_then(|line| line.split('|').nth(1)).map(str::trim)
        };
        assert_eq!(ratio("geometric mean c2c"), Some("4.00x"), "{table}");
        assert_eq!(ratio("geometric mean c2r"), Some("1.00x"), "{table}");
        assert_eq!(ratio("geometric mean"), Some("2.00x"), "{table}");
        let one_kind = summary(&[row("fftx", 1.0, Some(1e-7)), row("clfft", 4.0, Some(1e-7))]);
        assert!(!one_kind.contains("geometric mean c2c"), "{one_kind}");
    }

    #[test]
    fn real_cases_report_their_speed_over_the_complex_transform_timed_alongside() {
        let mut r2c = row("fftx", 1.0, Some(1e-7));
        r2c.case = Case::new(Kind::R2c, Precision::Single, vec![1024], false);
        if let Outcome::Measured(stats) = &mut r2c.outcome {
            stats.c2c_median_ms = Some(1.8);
        }
        assert_eq!(r2c.speedup_over_c2c(), Some(1.8));
        let table = summary(&[row("fftx", 2.0, Some(1e-7)), r2c]);
        let cell = |label: &str| {
            let line = table.lines().find(|line| line.starts_with(label));
            line.and_then(|line| line.split('|').nth(1))
                .map(|cells| cells.split_whitespace().last().map(str::to_string))
        };
        assert!(table.contains("c2c time / fftx"), "{table}");
        assert_eq!(cell("r2c single 1024"), Some(Some("1.80x".into())), "{table}");
        assert_eq!(cell("c2c single 1024"), Some(Some("-".into())), "{table}");
    }

    #[test]
    fn csv_fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }
}
