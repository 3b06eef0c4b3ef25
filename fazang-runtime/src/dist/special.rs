//! Numerical helpers of the densities, on `f64`.

use crate::Real;

/// ½ ln(2π).
pub(crate) const HALF_LN_TWO_PI: f64 = 0.918_938_533_204_672_8;
/// ln π.
pub(crate) const LN_PI: f64 = 1.144_729_885_849_400_2;

/// ln Γ(x) (libm's `lgamma` on `f64`).
#[inline]
pub(crate) fn lgamma<T: Real>(x: T) -> T {
    x.log_gamma()
}

/// ψ(x), the digamma function.
#[inline]
pub(crate) fn digamma<T: Real>(x: T) -> T {
    x.digamma()
}

/// `a · ln_x`, taken as 0 when `a` is 0 (so `0 · ln 0 = 0`, Stan's `multiply_log`).
#[inline]
pub(crate) fn mul_log<T: Real>(a: T, ln_x: T) -> T {
    if a == 0.0 {
        T::from(0.0)
    } else {
        a * ln_x
    }
}

/// `a / x`, taken as 0 when `a` is 0 (the partial of `a · ln x`, consistent with
/// [`mul_log`]).
#[inline]
pub(crate) fn div0<T: Real>(a: T, x: T) -> T {
    if a == 0.0 {
        T::from(0.0)
    } else {
        a / x
    }
}

/// The Stirling series remainder ln Γ(z) - ((z - ½) ln z - z + ½ ln 2π), for z ≥ 10
/// (seven terms: error below 1e-17 there).
fn stirling_remainder<T: Real>(z: T) -> T {
    let r = z.recip();
    let r2 = r * r;
    r * ((r2
        * ((r2
            * ((r2
                * ((r2 * ((r2 * ((r2 / 156.0) + -691.0 / 360_360.0)) + 1.0 / 1188.0))
                    + -1.0 / 1680.0))
                + 1.0 / 1260.0))
            + -1.0 / 360.0))
        + 1.0 / 12.0)
}

/// ln Γ(x + k) - ln Γ(x) for x > 0, k ≥ 0, without the cancellation of the plain
/// difference when x is large (Stirling's formula in a difference form).
pub(crate) fn lgamma_ratio<T: Real>(x: T, k: f64) -> T {
    if k == 0.0 {
        return T::from(0.0);
    }
    if x < 10.0 {
        return lgamma(x + k) - lgamma(x);
    }
    let z = x + k;
    (x - 0.5) * (T::from(k) / x).ln_1p() + z.ln() * k - k + stirling_remainder(z)
        - stirling_remainder(x)
}

/// ln C(n, k), the log binomial coefficient, for integers 0 ≤ k ≤ n, accurate for large n:
/// through [`lgamma_ratio`] when min(k, n − k) is small, else as −ln B(k+1, n−k+1) −
/// ln(n+1) with the beta function in Stirling's difference form.
pub(crate) fn lchoose(n: i64, k: i64) -> f64 {
    let k = k.min(n - k);
    if k == 0 {
        return 0.0;
    }
    if k < 10 {
        return lgamma_ratio((n - k + 1) as f64, k as f64) - lgamma(k as f64 + 1.0);
    }
    let (a, b) = ((k + 1) as f64, (n - k + 1) as f64);
    // ln B(a, b) for 10 ≤ a ≤ b: the Stirling terms of ln Γ(a) + ln Γ(b) − ln Γ(a + b),
    // regrouped so that no large terms cancel.
    let ln_beta = -(a - 0.5) * (b / a).ln_1p() - b * (a / b).ln_1p() - 0.5 * b.ln()
        + HALF_LN_TWO_PI
        + stirling_remainder(a)
        + stirling_remainder(b)
        - stirling_remainder(a + b);
    -ln_beta - (n as f64 + 1.0).ln()
}

/// ψ(x + k) - ψ(x) for an integer k ≥ 0: the finite sum Σ 1/(x + j) for small k (exact
/// where the difference of digammas would cancel), the difference otherwise.
pub(crate) fn digamma_ratio<T: Real>(x: T, k: i64) -> T {
    if k <= 32 {
        (0..k).map(|j| (x + j as f64).recip()).sum()
    } else {
        digamma(x + k as f64) - digamma(x)
    }
}

/// Size of the table of ln n! (counts are mostly small).
const LN_FACTORIALS: usize = 256;

/// ln n! for an integer n ≥ 0: from a table computed once for n < 256, else ln Γ(n + 1).
#[inline]
pub(crate) fn ln_factorial(n: i64) -> f64 {
    static TABLE: std::sync::OnceLock<[f64; LN_FACTORIALS]> = std::sync::OnceLock::new();
    match usize::try_from(n) {
        Ok(k) if k < LN_FACTORIALS => {
            TABLE.get_or_init(|| std::array::from_fn(|k| lgamma(k as f64 + 1.0)))[k]
        }
        _ => lgamma(n as f64 + 1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lgamma_ratio_agrees_with_lgamma_where_that_is_accurate() {
        for &(x, k) in &[
            (10.0, 1.0),
            (12.5, 3.0),
            (30.0, 100.0),
            (1e3, 0.5),
            (55.0, 7.0),
        ] {
            let plain = lgamma(x + k) - lgamma(x);
            assert!((lgamma_ratio(x, k) - plain).abs() < 1e-12 * plain.abs().max(1.0));
        }
        // Γ(x+1)/Γ(x) = x, exactly representable.
        assert!((lgamma_ratio(1e12, 1.0) - 1e12_f64.ln()).abs() < 1e-14 * 30.0);
    }

    #[test]
    fn lchoose_is_exact_on_small_cases_and_symmetric() {
        let exact =
            |n: i64, k: i64| -> f64 { (1..=k).map(|j| ((n - k + j) as f64 / j as f64).ln()).sum() };
        for &(n, k) in &[(5, 2), (10, 3), (30, 15), (40, 11), (100, 50), (1000, 999)] {
            let l = lchoose(n, k);
            assert!(
                (l - exact(n, k)).abs() < 1e-13 * l.abs().max(1.0),
                "C({n}, {k})"
            );
            assert_eq!(l, lchoose(n, n - k));
        }
    }

    #[test]
    fn digamma_ratio_is_a_telescoping_sum() {
        assert!((digamma_ratio(2.5, 1) - 0.4).abs() < 1e-16);
        let d = digamma(40.25) - digamma(0.25);
        assert!((digamma_ratio(0.25, 40) - d).abs() < 1e-13);
    }
}
