//! The largest sizes CI checks: 2^24 points in one 1D transform, both precisions, in and out of place.

mod common;
use common::*;

#[test]
fn sixteen_million_points() {
    for p in [Prec::Single, Prec::Double] {
        for in_place in [false, true] {
            let mut case = Case::new(&[1 << 24]).precision(p);
            if in_place {
                case = case.in_place();
            }
            let rmse = case.run();
            assert!(rmse <= tolerance(p), "2^24 {p:?} in_place={in_place}: rmse {rmse:.3e}");
        }
    }
}
