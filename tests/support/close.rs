//! Tolerant comparisons shared by the test-support modules (`runtime_support`,
//! `dist_support`).

/// |actual - expected| ≤ tol · max(1, |expected|), or exactly equal (so infinities must
/// match exactly; NaN never passes).
#[track_caller]
pub fn assert_close(actual: f64, expected: f64, tol: f64, what: &str) {
    let err = (actual - expected).abs();
    assert!(
        actual == expected || err <= tol * expected.abs().max(1.0),
        "{what}: got {actual:e}, want {expected:e} (error {err:e}, tolerance {tol:e})"
    );
}

/// Elementwise [`assert_close`].
#[track_caller]
pub fn assert_all_close(actual: &[f64], expected: &[f64], tol: f64, what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: lengths differ");
    for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        assert_close(a, e, tol, &format!("{what}[{i}]"));
    }
}
