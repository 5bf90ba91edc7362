//! The vocabulary every layer shares: a transform's precision and kind.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    Single,
    Double,
}

impl Precision {
    pub fn real_bytes(self) -> usize {
        match self {
            Precision::Single => 4,
            Precision::Double => 8,
        }
    }

    pub fn complex_bytes(self) -> usize {
        2 * self.real_bytes()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransformKind {
    C2C,
    /// Real input, Hermitian output (forward).
    R2C,
    /// Hermitian input, real output (backward).
    C2R,
}

impl TransformKind {
    /// True for R2C and C2R: one side holds reals, the other the Hermitian half.
    pub fn is_real(self) -> bool {
        self != TransformKind::C2C
    }
}
