//! What gets measured: the standard table of issue 3 and the subsets that flags choose.

/// Every case of the standard table moves this many points per run (batch = points / transform size).
pub const POINTS_PER_RUN: usize = 1 << 22;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Complex to complex, forward.
    C2c,
    /// Real to Hermitian half-spectrum, forward.
    R2c,
    /// Hermitian half-spectrum to real, backward.
    C2r,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::C2c, Kind::R2c, Kind::C2r];

    pub fn name(self) -> &'static str {
        match self {
            Kind::C2c => "c2c",
            Kind::R2c => "r2c",
            Kind::C2r => "c2r",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    Single,
    Double,
}

impl Precision {
    pub fn name(self) -> &'static str {
        match self {
            Precision::Single => "single",
            Precision::Double => "double",
        }
    }

    pub fn real_bytes(self) -> usize {
        match self {
            Precision::Single => 4,
            Precision::Double => 8,
        }
    }

    /// A normalized RMSE above this marks a result WRONG.
    pub fn tolerance(self) -> f64 {
        match self {
            Precision::Single => 1e-4,
            Precision::Double => 1e-12,
        }
    }
}

/// One transform configuration: `lengths` lists the dimensions fastest-varying first (clFFT's order).
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub kind: Kind,
    pub precision: Precision,
    pub lengths: Vec<usize>,
    pub batch: usize,
    pub in_place: bool,
}

impl Case {
    pub fn new(kind: Kind, precision: Precision, lengths: Vec<usize>, in_place: bool) -> Self {
        let points: usize = lengths.iter().product();
        Case { kind, precision, batch: (POINTS_PER_RUN / points).max(1), lengths, in_place }
    }

    /// Points of one transform.
    pub fn points(&self) -> usize {
        self.lengths.iter().product()
    }

    /// Floating-point operations of one run (the whole batch): 5 N log2 N per complex transform, half that
    /// for a real one (r2c or c2r).
    pub fn flops(&self) -> f64 {
        let n = self.points() as f64;
        let complex = 5.0 * n * n.log2() * self.batch as f64;
        match self.kind {
            Kind::C2c => complex,
            Kind::R2c | Kind::C2r => complex / 2.0,
        }
    }

    /// The lengths of the Hermitian half-spectrum of a real transform: the fastest dimension cut to N/2 + 1.
    fn hermitian_lengths(&self) -> Vec<usize> {
        let mut lengths = self.lengths.clone();
        lengths[0] = lengths[0] / 2 + 1;
        lengths
    }

    /// Complex values in the Hermitian half-spectrum of one real transform.
    pub fn hermitian_points(&self) -> usize {
        self.hermitian_lengths().iter().product()
    }

    /// Real numbers in the input of one run (interleaved complex counts two per point).
    pub fn input_reals(&self) -> usize {
        let per_transform = match self.kind {
            Kind::C2c => 2 * self.points(),
            Kind::R2c => self.points(),
            Kind::C2r => 2 * self.hermitian_points(),
        };
        per_transform * self.batch
    }

    pub fn output_reals(&self) -> usize {
        let per_transform = match self.kind {
            Kind::C2c => 2 * self.points(),
            Kind::R2c => 2 * self.hermitian_points(),
            Kind::C2r => self.points(),
        };
        per_transform * self.batch
    }

    pub fn input_bytes(&self) -> usize {
        self.input_reals() * self.precision.real_bytes()
    }

    pub fn output_bytes(&self) -> usize {
        self.output_reals() * self.precision.real_bytes()
    }

    /// Strides of each dimension and the distance between transforms, in values of the input's type.
    pub fn input_layout(&self) -> (Vec<usize>, usize) {
        match self.kind {
            Kind::C2c | Kind::R2c => packed_layout(&self.lengths),
            Kind::C2r => packed_layout(&self.hermitian_lengths()),
        }
    }

    pub fn output_layout(&self) -> (Vec<usize>, usize) {
        match self.kind {
            Kind::C2c | Kind::C2r => packed_layout(&self.lengths),
            Kind::R2c => packed_layout(&self.hermitian_lengths()),
        }
    }

    /// "4096", "256x256", "64x64x64".
    pub fn size_label(&self) -> String {
        shape_label(&self.lengths)
    }

    pub fn label(&self) -> String {
        format!(
            "{} {} {}{}",
            self.kind.name(),
            self.precision.name(),
            self.size_label(),
            if self.in_place { " in-place" } else { "" }
        )
    }
}

fn packed_layout(lengths: &[usize]) -> (Vec<usize>, usize) {
    let mut strides = Vec::with_capacity(lengths.len());
    let mut stride = 1;
    for &length in lengths {
        strides.push(stride);
        stride *= length;
    }
    (strides, stride)
}

pub fn shape_label(lengths: &[usize]) -> String {
    lengths.iter().map(usize::to_string).collect::<Vec<_>>().join("x")
}

/// The shapes of the standard table: 1D from 2^6 to 2^24 in powers of 4 plus five mixed-radix sizes, then
/// 2D and 3D.
pub fn standard_shapes() -> Vec<Vec<usize>> {
    let mut one_d: Vec<usize> = (6..=24).step_by(2).map(|e| 1usize << e).collect();
    one_d.extend([1000, 2187, 3125, 16807, 61440]);
    one_d.sort_unstable();
    let mut shapes: Vec<Vec<usize>> = one_d.into_iter().map(|n| vec![n]).collect();
    shapes.extend([vec![256, 256], vec![1024, 1024], vec![2048, 2048]]);
    shapes.extend([vec![64, 64, 64], vec![128, 128, 128]]);
    shapes
}

/// A handful of shapes for a run of about a minute: small and large powers of two, a mixed radix, a 2D.
pub fn quick_shapes() -> Vec<Vec<usize>> {
    vec![vec![1000], vec![4096], vec![1 << 20], vec![256, 256]]
}

/// The in-place 1D sizes measured with and without `CLFFT_REQUEST_LIB_NOMEMALLOC`.
pub fn nomemalloc_shapes() -> Vec<Vec<usize>> {
    [20, 22, 24, 26].iter().map(|&e| vec![1usize << e]).collect()
}

/// Parses "4096" or "256x256" or "64x64x64".
pub fn parse_shape(text: &str) -> Result<Vec<usize>, String> {
    let lengths = text
        .split('x')
        .map(|part| match part.trim().parse::<usize>() {
            Ok(n) if n >= 2 => Ok(n),
            _ => Err(format!("bad size {text:?}: expected lengths of at least 2 joined by 'x', like 4096 or 256x256")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if lengths.len() > 3 {
        return Err(format!("bad size {text:?}: at most 3 dimensions"));
    }
    Ok(lengths)
}

/// The standard table runs real transforms (r2c, c2r) in 1D and 2D only.
pub fn in_standard_table(case: &Case) -> bool {
    case.kind == Kind::C2c || case.lengths.len() < 3
}

/// Every combination, grouped by kind and precision so that each group forms one panel of the plot.
pub fn build(shapes: &[Vec<usize>], kinds: &[Kind], precisions: &[Precision], in_place: bool) -> Vec<Case> {
    let mut cases = Vec::new();
    for &kind in kinds {
        for &precision in precisions {
            for shape in shapes {
                cases.push(Case::new(kind, precision, shape.clone(), in_place));
            }
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_table_has_the_issues_sizes() {
        let shapes = standard_shapes();
        let one_d: Vec<usize> = shapes.iter().filter(|s| s.len() == 1).map(|s| s[0]).collect();
        assert_eq!(
            one_d,
            [64, 256, 1000, 1024, 2187, 3125, 4096, 16384, 16807, 61440, 65536, 262144, 1 << 20, 1 << 22, 1 << 24]
        );
        assert_eq!(shapes.iter().filter(|s| s.len() == 2).count(), 3);
        assert_eq!(shapes.iter().filter(|s| s.len() == 3).count(), 2);
    }

    #[test]
    fn every_run_moves_2_to_the_22_points_at_least_one_transform() {
        for shape in standard_shapes() {
            let case = Case::new(Kind::C2c, Precision::Single, shape, false);
            let total = case.points() * case.batch;
            assert!(total <= POINTS_PER_RUN.max(case.points()) && total > POINTS_PER_RUN / 2, "{case:?}");
        }
        assert_eq!(Case::new(Kind::C2c, Precision::Single, vec![1 << 24], false).batch, 1);
        assert_eq!(Case::new(Kind::C2c, Precision::Single, vec![64], false).batch, 1 << 16);
    }

    #[test]
    fn real_transforms_count_half_the_flops_and_keep_the_hermitian_half() {
        let c2c = Case::new(Kind::C2c, Precision::Double, vec![1024, 256], false);
        let r2c = Case::new(Kind::R2c, Precision::Double, vec![1024, 256], false);
        assert_eq!(r2c.flops() * 2.0, c2c.flops());
        assert_eq!(c2c.flops(), 5.0 * 262144.0 * 18.0 * 16.0);
        assert_eq!(r2c.hermitian_points(), 513 * 256);
        assert_eq!(r2c.input_bytes(), 262144 * 16 * 8);
        assert_eq!(r2c.output_layout(), (vec![1, 513], 513 * 256));
        assert_eq!(r2c.input_layout(), (vec![1, 1024], 262144));
    }

    #[test]
    fn c2r_reads_the_hermitian_half_and_writes_reals_for_the_flops_of_r2c() {
        let r2c = Case::new(Kind::R2c, Precision::Single, vec![1000, 6], false);
        let c2r = Case::new(Kind::C2r, Precision::Single, vec![1000, 6], false);
        assert_eq!(c2r.flops(), r2c.flops());
        assert_eq!(c2r.batch, (1 << 22) / 6000);
        assert_eq!(c2r.input_reals(), 2 * 501 * 6 * c2r.batch);
        assert_eq!(c2r.output_reals(), 6000 * c2r.batch);
        assert_eq!((c2r.input_bytes(), c2r.output_bytes()), (r2c.output_bytes(), r2c.input_bytes()));
        assert_eq!(c2r.input_layout(), (vec![1, 501], 501 * 6));
        assert_eq!(c2r.output_layout(), (vec![1, 1000], 6000));
        let odd = Case::new(Kind::C2r, Precision::Double, vec![2187], false);
        assert_eq!((odd.hermitian_points(), odd.input_layout()), (1094, (vec![1], 1094)));
        assert_eq!(odd.input_bytes(), 2 * 1094 * odd.batch * 8);
    }

    #[test]
    fn shapes_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_shape("256x128"), Ok(vec![256, 128]));
        assert_eq!(parse_shape("4096"), Ok(vec![4096]));
        assert!(parse_shape("1").is_err());
        assert!(parse_shape("4x4x4x4").is_err());
        assert!(parse_shape("abc").is_err());
    }

    #[test]
    fn the_standard_table_has_no_3d_real_transforms() {
        let cases = build(&standard_shapes(), &Kind::ALL, &[Precision::Single], false);
        let kept: Vec<&Case> = cases.iter().filter(|c| in_standard_table(c)).collect();
        assert_eq!(kept.len(), 20 + 18 + 18);
        assert!(kept.iter().filter(|c| c.kind != Kind::C2c).all(|c| c.lengths.len() < 3));
    }
}
