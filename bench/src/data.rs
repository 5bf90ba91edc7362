//! Input signals, conversion to and from device bytes, and the accuracy measure.

use crate::cases::{Case, Kind, Precision};
use std::cmp::Ordering;

/// A deterministic input for `case`, uniform in [-1, 1); for c2r, made a valid Hermitian half-spectrum.
/// Single-precision cases get values that are exact in f32, so the double-precision reference sees exactly
/// what the device sees.
pub fn input(case: &Case) -> Vec<f64> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ case.points() as u64;
    let mut values: Vec<f64> = (0..case.input_reals())
        .map(|_| {
            let value = uniform(&mut state);
            match case.precision {
                Precision::Single => value as f32 as f64,
                Precision::Double => value,
            }
        })
        .collect();
    if case.kind == Kind::C2r {
        make_hermitian(&mut values, &case.lengths);
    }
    values
}

/// Turns packed interleaved half-spectra (fastest dimension N0/2 + 1 long) into spectra of real signals. A
/// c2r assumes X[-k] = conj(X[k]); where both k and -k are stored (the planes k0 = 0 and, for even N0,
/// k0 = N0/2) random values would contradict that, and each library would resolve the contradiction its own
/// way. So each such point copies the conjugate of its mirror, and a point that is its own mirror gets a zero
/// imaginary part. Copies and negations keep single-precision values exact in f32.
fn make_hermitian(values: &mut [f64], lengths: &[usize]) {
    let row = lengths[0] / 2 + 1;
    let outer = &lengths[1..];
    let outer_points: usize = outer.iter().product();
    let planes: &[usize] = if lengths[0].is_multiple_of(2) { &[0, lengths[0] / 2] } else { &[0] };
    for spectrum in values.chunks_exact_mut(2 * row * outer_points) {
        for &k0 in planes {
            for index in 0..outer_points {
                let mirror = mirror_index(index, outer);
                let at = 2 * (k0 + row * index);
                let from = 2 * (k0 + row * mirror);
                match mirror.cmp(&index) {
                    Ordering::Equal => spectrum[at + 1] = 0.0,
                    // The mirror came first in this loop and is already final.
                    Ordering::Less => {
                        spectrum[at] = spectrum[from];
                        spectrum[at + 1] = -spectrum[from + 1];
                    }
                    Ordering::Greater => {}
                }
            }
        }
    }
}

/// The packed index of -k (every coordinate negated modulo its length) for the packed index of k, fastest
/// dimension first.
fn mirror_index(index: usize, lengths: &[usize]) -> usize {
    let (mut rest, mut mirror, mut stride) = (index, 0, 1);
    for &length in lengths {
        let k = rest % length;
        rest /= length;
        mirror += (length - k) % length * stride;
        stride *= length;
    }
    mirror
}

/// splitmix64 mapped to [-1, 1).
fn uniform(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

pub fn to_bytes(values: &[f64], precision: Precision) -> Vec<u8> {
    match precision {
        Precision::Single => values.iter().flat_map(|&v| (v as f32).to_ne_bytes()).collect(),
        Precision::Double => values.iter().flat_map(|&v| v.to_ne_bytes()).collect(),
    }
}

pub fn from_bytes(bytes: &[u8], precision: Precision) -> Vec<f64> {
    match precision {
        Precision::Single => {
            bytes.chunks_exact(4).map(|b| f32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as f64).collect()
        }
        Precision::Double => bytes
            .chunks_exact(8)
            .map(|b| f64::from_ne_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
            .collect(),
    }
}

/// ||x - r|| / ||r||. NaN when the lengths differ or a value is not finite, so a broken result never looks
/// accurate.
pub fn relative_rmse(output: &[f64], reference: &[f64]) -> f64 {
    if output.len() != reference.len() {
        return f64::NAN;
    }
    let (mut error, mut norm) = (0.0, 0.0);
    for (&x, &r) in output.iter().zip(reference) {
        error += (x - r) * (x - r);
        norm += r * r;
    }
    (error / norm).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::Kind;

    #[test]
    fn single_precision_inputs_are_exact_in_f32_and_round_trip_through_bytes() {
        let case = Case::new(Kind::C2c, Precision::Single, vec![64], false);
        let values = input(&case);
        assert_eq!(values.len(), case.input_reals());
        assert!(values.iter().all(|&v| (-1.0..1.0).contains(&v) && v as f32 as f64 == v));
        assert_eq!(from_bytes(&to_bytes(&values, Precision::Single), Precision::Single), values);
    }

    #[test]
    fn mirrors_negate_every_coordinate() {
        assert_eq!(mirror_index(0, &[]), 0);
        assert_eq!(mirror_index(1, &[5]), 4);
        // (1, 2) in 4x3 is 1 + 4 * 2 = 9; its mirror (3, 1) is 3 + 4 * 1 = 7.
        assert_eq!(mirror_index(9, &[4, 3]), 7);
        assert_eq!(mirror_index(2 + 4, &[4, 3]), 2 + 4 * 2);
    }

    #[test]
    fn c2r_inputs_are_hermitian_where_both_halves_are_stored() {
        let one_d = Case::new(Kind::C2r, Precision::Single, vec![8], false);
        let values = input(&one_d);
        assert_eq!(values.len(), 2 * 5 * one_d.batch);
        for spectrum in values.chunks_exact(10) {
            // DC and Nyquist are real; the bins between them are untouched.
            assert_eq!((spectrum[1], spectrum[9]), (0.0, 0.0));
            assert!(spectrum[3] != 0.0 && spectrum[5] != 0.0 && spectrum[7] != 0.0);
        }
        for (lengths, planes) in [(vec![6, 4], vec![0, 3]), (vec![5, 3], vec![0]), (vec![4, 2, 3], vec![0, 2])] {
            let case = Case::new(Kind::C2r, Precision::Double, lengths.clone(), false);
            let values = input(&case);
            let row = lengths[0] / 2 + 1;
            let outer = &lengths[1..];
            let outer_points: usize = outer.iter().product();
            assert_eq!(values.len(), 2 * row * outer_points * case.batch);
            for spectrum in values.chunks_exact(2 * row * outer_points) {
                for &k0 in &planes {
                    for index in 0..outer_points {
                        let (at, from) = (2 * (k0 + row * index), 2 * (k0 + row * mirror_index(index, outer)));
                        assert_eq!((spectrum[at], spectrum[at + 1]), (spectrum[from], -spectrum[from + 1]));
                    }
                }
            }
        }
    }

    #[test]
    fn rmse_is_relative_and_never_hides_garbage() {
        let reference = [3.0, 4.0];
        assert_eq!(relative_rmse(&reference, &reference), 0.0);
        assert!((relative_rmse(&[3.0, 4.5], &reference) - 0.1).abs() < 1e-12);
        assert!(relative_rmse(&[3.0], &reference).is_nan());
        assert!(relative_rmse(&[f64::NAN, 4.0], &reference).is_nan());
    }
}
