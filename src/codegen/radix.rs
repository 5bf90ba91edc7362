//! The radices the Stockham passes run: one row per butterfly in `kernels/butterflies.cl` (`fft<R>`), with
//! what the planner factors it from and where it takes it. Adding a radix is one row here plus its
//! butterfly (docs/architecture.md, "Adding a radix").

use super::Precision;

/// What a radix is to the factoriser (`planner::factor::radices`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RadixKind {
    /// A power of two: the twos of a length run in passes of the leaf's largest one (16, or 8 where
    /// `kernel_shape::max_power_of_two_radix` keeps to it), ending on smaller ones.
    PowerOfTwo,
    /// An odd prime: every factor p of a length runs as a pass of radix p, unless a fused radix takes it.
    Prime,
    /// A pass of radix `a` and one of radix `b` run as one pass of radix a b, in the place of the first `a`
    /// pass, as often as both occur.
    Fused { a: usize, b: usize },
}

/// Where the planner takes a radix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    Always,
    /// On CPUs in double precision, in leaves whose largest power-of-two radix is 16: one pass over local
    /// memory fewer, but not where `max_power_of_two_radix` keeps to radix 8 because radix 16's 32 vectors
    /// spill (radix 20 holds 40). Single precision gained nothing (`kernel_shape::radix_site`).
    CpuDoubleBeside16,
}

/// One radix with a butterfly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Radix {
    pub radix: usize,
    pub kind: RadixKind,
    pub taken: Taken,
}

/// The device and precision a leaf is planned for, as far as the choice of radices goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RadixSite {
    pub cpu: bool,
    pub precision: Precision,
    /// The leaf's largest power-of-two radix (`kernel_shape::max_power_of_two_radix`).
    pub max_two: usize,
}

impl Taken {
    pub fn at(self, site: RadixSite) -> bool {
        match self {
            Taken::Always => true,
            Taken::CpuDoubleBeside16 => site.cpu && site.precision == Precision::Double && site.max_two == 16,
        }
    }
}

const fn row(radix: usize, kind: RadixKind, taken: Taken) -> Radix {
    Radix { radix, kind, taken }
}

/// Every radix with a butterfly. Fused radices apply in this order.
pub const RADIX_TABLE: [Radix; 11] = [
    row(2, RadixKind::PowerOfTwo, Taken::Always),
    row(4, RadixKind::PowerOfTwo, Taken::Always),
    row(8, RadixKind::PowerOfTwo, Taken::Always),
    row(16, RadixKind::PowerOfTwo, Taken::Always),
    row(3, RadixKind::Prime, Taken::Always),
    row(5, RadixKind::Prime, Taken::Always),
    row(7, RadixKind::Prime, Taken::Always),
    row(11, RadixKind::Prime, Taken::Always),
    row(13, RadixKind::Prime, Taken::Always),
    // Pairs of 3s run as one radix-9 pass: fewer passes over local memory (docs/tuning.md, "Radix 9").
    row(9, RadixKind::Fused { a: 3, b: 3 }, Taken::Always),
    // A 4 and a 5 as one radix-20 pass on CPUs in double precision beside radix 16: one pass over local
    // memory fewer; single precision gains nothing (docs/tuning.md, "Radix 20").
    row(20, RadixKind::Fused { a: 4, b: 5 }, Taken::CpuDoubleBeside16),
];

/// True when `radix` has a butterfly.
pub fn has_butterfly(radix: usize) -> bool {
    RADIX_TABLE.iter().any(|r| r.radix == radix)
}

/// The odd primes with a butterfly, largest first.
pub fn odd_primes() -> impl Iterator<Item = usize> {
    let mut primes: Vec<usize> = RADIX_TABLE.iter().filter(|r| r.kind == RadixKind::Prime).map(|r| r.radix).collect();
    primes.sort_unstable_by(|a, b| b.cmp(a));
    primes.into_iter()
}

/// The largest power-of-two radix with a butterfly.
pub fn largest_power_of_two() -> usize {
    RADIX_TABLE.iter().filter(|r| r.kind == RadixKind::PowerOfTwo).map(|r| r.radix).max().unwrap_or(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fused_radices_are_products_of_radices_with_butterflies() {
        for r in RADIX_TABLE {
            if let RadixKind::Fused { a, b } = r.kind {
                assert_eq!(a * b, r.radix);
                assert!(has_butterfly(a) && has_butterfly(b), "{}", r.radix);
            }
        }
        assert_eq!(odd_primes().collect::<Vec<_>>(), [13, 11, 7, 5, 3]);
        assert_eq!(largest_power_of_two(), crate::planner::factor::LARGEST_TWO_RADIX);
    }
}
