//! The PNG: GFLOPS against transform size, one line per implementation, one panel per kind and precision.

use crate::cases::{Case, Kind, Precision};
use crate::report::Row;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::Path;

/// The font is compiled in (Hack, a DejaVu derivative), so text renders without any system font setup.
const FONT: &str = "sans-serif";

fn palette(implementation: &str) -> RGBColor {
    match implementation {
        "fftx" => RGBColor(214, 39, 40),
        "clfft" => RGBColor(31, 119, 180),
        "vkfft" => RGBColor(44, 160, 44),
        "fftw" => RGBColor(255, 127, 14),
        "fftx+nomemalloc" => RGBColor(148, 103, 189),
        "clfft+nomemalloc" => RGBColor(23, 190, 207),
        _ => RGBColor(110, 110, 110),
    }
}

/// Short axis labels: 2^k for powers of two, otherwise the lengths.
fn axis_label(case: &Case) -> String {
    case.lengths
        .iter()
        .map(|&n| if n.is_power_of_two() && n >= 64 { format!("2^{}", n.trailing_zeros()) } else { n.to_string() })
        .collect::<Vec<_>>()
        .join("x")
}

pub fn write(path: &Path, rows: &[Row], title: &str) -> Result<(), String> {
    plotters::style::register_font(FONT, FontStyle::Normal, epaint_default_fonts::HACK_REGULAR)
        .map_err(|_| "the embedded font did not load".to_string())?;
    let mut groups: Vec<(Kind, Precision)> = Vec::new();
    for row in rows {
        let group = (row.case.kind, row.case.precision);
        if !groups.contains(&group) && row.gflops().is_some() {
            groups.push(group);
        }
    }
    if groups.is_empty() {
        return Err("nothing was measured, so there is nothing to plot".into());
    }
    let columns = groups.len().min(2);
    let grid_rows = groups.len().div_ceil(columns);
    let (panel_width, panel_height, title_height) = (900u32, 560u32, 40u32);
    let size = (panel_width * columns as u32, panel_height * grid_rows as u32 + title_height);
    let root = BitMapBackend::new(path, size).into_drawing_area();
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let (header, body) = root.split_vertically(title_height);
    header.draw_text(title, &(FONT, 20).into_font().color(&BLACK), (12, 10)).map_err(|e| fail(&e))?;
    let panels = body.split_evenly((grid_rows, columns));
    for (panel, &(kind, precision)) in panels.iter().zip(&groups) {
        let group: Vec<&Row> = rows.iter().filter(|r| r.case.kind == kind && r.case.precision == precision).collect();
        draw_panel(panel, &group, kind, precision).map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;
type PanelResult<'a> = Result<(), DrawingAreaErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>>;

fn draw_panel<'a>(panel: &Area<'a>, rows: &[&Row], kind: Kind, precision: Precision) -> PanelResult<'a> {
    let mut cases: Vec<&Case> = Vec::new();
    let mut implementations: Vec<&str> = Vec::new();
    for row in rows {
        if !cases.contains(&&row.case) {
            cases.push(&row.case);
        }
        if !implementations.contains(&row.implementation.as_str()) {
            implementations.push(&row.implementation);
        }
    }
    let labels: Vec<String> = cases.iter().map(|c| axis_label(c)).collect();
    let values: Vec<f64> = rows.iter().filter_map(|r| r.gflops()).collect();
    let lowest = values.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = values.iter().copied().fold(0.0, f64::max);
    // The legend sits in the lower right: extend the log axis downwards by the share of the plot's height it
    // takes, so it does not cover the lowest line.
    let legend_share = ((implementations.len() as f64 * 18.0 + 24.0) / 470.0).min(0.5);
    let decades = (1.5 * highest / lowest).log10();
    let low = lowest / 10f64.powf(decades * legend_share / (1.0 - legend_share)).max(1.5);
    let high = highest * 1.5;

    let mut chart = ChartBuilder::on(panel)
        .caption(
            format!(
                "{} {} precision: GFLOPS (5 N log2 N{} / median time)",
                kind.name(),
                precision.name(),
                match kind {
                    Kind::C2c => "",
                    Kind::R2c | Kind::C2r => " / 2",
                }
            ),
            (FONT, 18),
        )
        .margin(14)
        .x_label_area_size(36)
        .y_label_area_size(56)
        // An integer range includes its end, so n cases span 0..n-1.
        .build_cartesian_2d((0..cases.len() - 1).into_segmented(), (low..high).log_scale())?;
    chart
        .configure_mesh()
        .x_labels(cases.len())
        .x_label_formatter(&|x| match x {
            SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .y_label_formatter(&|y| {
            if *y >= 10.0 {
                format!("{y:.0}")
            } else {
                format!("{y:.1}")
            }
        })
        .y_desc("GFLOPS")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 14))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;

    for name in implementations {
        let color = palette(name);
        let points: Vec<Option<(SegmentValue<usize>, f64)>> = cases
            .iter()
            .enumerate()
            .map(|(i, case)| {
                rows.iter()
                    .find(|r| &r.case == *case && r.implementation == name && r.check() != "WRONG")
                    .and_then(|r| r.gflops())
                    .map(|g| (SegmentValue::CenterOf(i), g))
            })
            .collect();
        if points.iter().all(Option::is_none) {
            continue;
        }
        // A missing or wrong result breaks the line instead of bridging the gap.
        for run in points.split(Option::is_none).filter(|run| run.len() > 1) {
            let line = run.iter().flatten().cloned();
            if name == "copy" {
                chart.draw_series(DashedLineSeries::new(line, 8, 6, color.stroke_width(2)))?;
            } else {
                chart.draw_series(LineSeries::new(line, color.stroke_width(2)))?;
            }
        }
        let label = if name == "copy" { "copy (floor)".to_string() } else { name.to_string() };
        chart
            .draw_series(points.iter().flatten().map(|(x, y)| Circle::new((x.clone(), *y), 3, color.filled())))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .label_font((FONT, 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
