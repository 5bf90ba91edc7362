//! The execution tree: inner nodes are decompositions, leaves are kernel launches. `FFTX_LOG=plan` prints it.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Row transforms along each axis in turn.
    MultiDim { lengths: Vec<usize>, batch: usize, children: Vec<Node> },
    /// n = rows * columns: column FFTs with twiddles, then row FFTs written transposed.
    FourStep { n: usize, rows: usize, columns: usize, children: Vec<Node> },
    /// n = rows * middle * columns in three FFT passes (columns, middle when > 1, rows); the last stores each
    /// value in place, or, `in_place` (no scratch, rows = columns), an in-place transpose follows.
    ThreeFactor { n: usize, rows: usize, middle: usize, columns: usize, in_place: bool, children: Vec<Node> },
    /// A transpose of `batch` rows x cols matrices: one kernel, or in place for a rectangle, squares and then
    /// block cycles.
    Transpose { rows: usize, cols: usize, batch: usize, in_place: bool, children: Vec<Node> },
    /// A long real axis of length n: a complex FFT and a separate elementwise real stage.
    RealAxis { n: usize, children: Vec<Node> },
    /// Bluestein's algorithm: n points as a cyclic convolution of length m.
    Bluestein { n: usize, m: usize, children: Vec<Node> },
    /// Rader's algorithm: the prime n as a cyclic convolution of length n - 1, inputs permuted by powers of
    /// the generator `root`.
    Rader { n: usize, root: usize, children: Vec<Node> },
    /// The batch in `chunks` chunks of `transforms` transforms, each run through every step before the next.
    BatchChunks { chunks: usize, transforms: usize, children: Vec<Node> },
    /// One kernel launch: `step` indexes the plan's step list.
    Leaf { step: usize, kind: &'static str, summary: String },
}

impl Node {
    fn write(&self, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
        let indent = "  ".repeat(depth);
        match self {
            Node::MultiDim { lengths, batch, children } => {
                let shape: Vec<String> = lengths.iter().map(|l| l.to_string()).collect();
                writeln!(f, "{indent}MultiDim {} batch {batch}", shape.join("x"))?;
                children.iter().try_for_each(|c| c.write(f, depth + 1))
            }
            Node::FourStep { n, rows, columns, children } => {
                writeln!(f, "{indent}FourStep {n} = {rows} rows x {columns} columns")?;
                children.iter().try_for_each(|c| c.write(f, depth + 1))
            }
            Node::ThreeFactor { n, rows, middle, columns, in_place, children } => {
                let place = if *in_place { ", in place" } else { "" };
                writeln!(f, "{indent}ThreeFactor {n} = {rows} rows x {middle} x {columns} columns{place}")?;
                children.iter().try_for_each(|c| c.write(f, depth + 1))
            }
            Node::Transpose { rows, cols, batch, in_place, children } => {
                let place = if *in_place { "in place" } else { "out of place" };
                writeln!(f, "{indent}Transpose {rows}x{cols} batch {batch} {place}")?;
                children.iter().try_for_each(|c| c.write(f, depth + 1))
            }
            Node::RealAxis { n, children } => {
                writeln!(f, "{indent}RealAxis {n}")?;
                children.iter().try_for_each(|c| c.write(f, depth + 1))
            }
            Node::Bluestein { n, m, children } => {
                writeln!(f, "{indent}Bluestein {n} via convolution length {m}")?;
                children.iter().try_for_each(|c| c.write(f, depth + 1))
            }
            Node::Rader { n, root, children } => {
                writeln!(f, "{indent}Rader {n} via convolution length {} (generator {root})", n - 1)?;
                children.iter().try_for_each(|c| c.write(f, depth + 1))
            }
            Node::BatchChunks { chunks, transforms, children } => {
                writeln!(f, "{indent}BatchChunks {chunks} x {transforms} transforms")?;
                children.iter().try_for_each(|c| c.write(f, depth + 1))
            }
            Node::Leaf { step, kind, summary } => writeln!(f, "{indent}[{step}] {kind} {summary}"),
        }
    }

    /// Replaces the summary of the leaf of step `step`.
    pub fn restate(&mut self, step: usize, summary: String) {
        match self {
            Node::Leaf { step: s, summary: old, .. } if *s == step => *old = summary,
            Node::Leaf { .. } => {}
            Node::MultiDim { children, .. }
            | Node::FourStep { children, .. }
            | Node::ThreeFactor { children, .. }
            | Node::Transpose { children, .. }
            | Node::RealAxis { children, .. }
            | Node::Bluestein { children, .. }
            | Node::Rader { children, .. }
            | Node::BatchChunks { children, .. } => children.iter_mut().for_each(|c| c.restate(step, summary.clone())),
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, 0)
    }
}
