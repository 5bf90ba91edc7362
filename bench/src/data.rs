//! Input signals, conversion to and from device bytes, and the accuracy measure.

use crate::cases::{Case, Precision};

/// A deterministic input for `case`, uniform in [-1, 1). Single-precision cases get values that are exact in
/// f32, so the double-precision reference sees exactly what the device sees.
pub fn input(case: &Case) -> Vec<f64> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ case.points() as u64;
    (0..case.input_reals())
        .map(|_| {
            let value = uniform(&mut state);
            match case.precision {
                Precision::Single => value as f32 as f64,
                Precision::Double => value,
            }
        })
        .collect()
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
    fn rmse_is_relative_and_never_hides_garbage() {
        let reference = [3.0, 4.0];
        assert_eq!(relative_rmse(&reference, &reference), 0.0);
        assert!((relative_rmse(&[3.0, 4.5], &reference) - 0.1).abs() < 1e-12);
        assert!(relative_rmse(&[3.0], &reference).is_nan());
        assert!(relative_rmse(&[f64::NAN, 4.0], &reference).is_nan());
    }
}
