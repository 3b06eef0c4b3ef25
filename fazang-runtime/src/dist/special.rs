//! Numerical helpers of the densities, generic over the scalar the kernels compute on
//! (`f64` for the tape, the inner scalar of a dual number, a series): the same operations
//! on `f64`, with branches chosen by value, so that their derivatives can be taken again.

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

/// ln(1 + x) - x, accurate also where the difference is much smaller than x (|x| small,
/// where it is about -x²/2): for -0.5 ≤ x ≤ 1 from ln(1 + x) = 2 atanh(s), s = x/(2 + x),
/// as -s·x + 2(s³/3 + s⁵/5 + ...) (|s| ≤ 1/3, no cancellation); directly elsewhere.
pub(crate) fn log1pmx<T: Real>(x: T) -> T {
    if !(-0.5..=1.0).contains(&x.val()) {
        return x.ln_1p() - x;
    }
    let s = x / (x + 2.0);
    let s2 = s * s;
    // 2 Σ_{k≥1} s^(2k+1)/(2k+1): s² ≤ 1/9, 17 terms reach 1e-17 relative.
    let mut term = s * s2;
    let mut sum = T::from(0.0);
    let mut k = 3.0;
    while k < 40.0 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    sum * 2.0 - s * x
}

/// For the log densities whose terms of size a·ln a cancel at the mode (gamma with a
/// large shape, Poisson with a large count, ...): a ln(r) - (r - a)·... written in
/// t = r/a - 1 as `(ln(1 + t), a (ln(1 + t) - t))`, where `ln_r_over_a` is ln(r/a)
/// computed from logarithms (used when |t| ≥ ½, where nothing cancels).
#[inline]
pub(crate) fn centred<T: Real>(a: T, t: T, ln_r_over_a: impl FnOnce() -> T) -> (T, T) {
    if t.val().abs() < 0.5 {
        (t.ln_1p(), a * log1pmx(t))
    } else {
        let l = ln_r_over_a();
        (l, a * (l - t))
    }
}

/// ln(1 + w) - w/(1 + w) for w ≥ 0 (about w²/2 for small w), without cancellation.
#[inline]
pub(crate) fn ln1p_minus_ratio<T: Real>(w: T) -> T {
    if w.val() < 1.0 {
        log1pmx(w) + w * w / (w + 1.0)
    } else {
        w.ln_1p() - (w.recip() + 1.0).recip()
    }
}

/// ψ(x) - ln x for x > 0: the asymptotic series in 1/x for x ≥ 10 (so that the result,
/// about -1/(2x), keeps its relative accuracy however large x is), the difference below.
pub(crate) fn digamma_minus_ln<T: Real>(x: T) -> T {
    if x < 10.0 {
        return digamma(x) - x.ln();
    }
    let r = x.recip();
    let f = r * r;
    // Bernoulli-number coefficients B_2k / (2k), as in `digamma`.
    r * -0.5
        + f * ((f
            * ((f
                * ((f
                    * ((f * ((f * ((f * (-1.0 / 12.0)) + 691.0 / 32760.0)) + -1.0 / 132.0))
                        + 1.0 / 240.0))
                    + -1.0 / 252.0))
                + 1.0 / 120.0))
            + -1.0 / 12.0)
}

/// E(x + n) - E(x) with E(t) = ψ(t) - ln t, for x > 0 and n ≥ 0 (given apart, so that a
/// tiny n next to x is not lost to the rounding of x + n): the ψ-differences of the beta
/// and negative binomial partials without cancellation, also where n ≪ x. For x ≥ 10 from
/// the asymptotic series term by term, n/(2xy) + Σ B₂ₖ/(2k) x^(-2k) ((x/y)^(2k) - 1) with
/// y = x + n; below, both shifted up by the recurrence E(t) = E(t + 1) + g(t),
/// g(t) = ln(1 + 1/t) - 1/t, whose differences are g(x + n) - g(x) =
/// (ln(1 - e) + e) + n/(x(x+1)(x+n)) with e = n/((x+1)(x+n)), each term without
/// cancellation.
pub(crate) fn digamma_minus_ln_diff<T: Real>(x: T, n: T) -> T {
    let mut x = x;
    let mut acc = T::from(0.0);
    while x.val() < 10.0 {
        let y = x + n;
        let e = n / ((x + 1.0) * y);
        acc += log1pmx(-e) + n / (x * (x + 1.0) * y);
        x += 1.0;
    }
    let y = x + n;
    // ln(x/y) = -ln(1 + n/x), and (x/y)^(2k) - 1 = expm1(-2k ln(1 + n/x)).
    let l = (n / x).ln_1p();
    let f = (x * x).recip();
    let coef = [
        -1.0 / 12.0,
        1.0 / 120.0,
        -1.0 / 252.0,
        1.0 / 240.0,
        -1.0 / 132.0,
        691.0 / 32760.0,
        -1.0 / 12.0,
    ];
    let mut fk = T::from(1.0);
    let mut series = T::from(0.0);
    for (k, &c) in coef.iter().enumerate() {
        fk *= f;
        let two_k = 2.0 * (k as f64 + 1.0);
        series += fk * c * (l * -two_k).exp_m1();
    }
    acc + n / (x * 2.0 * y) + series
}

/// ψ(x + ½) - ψ(x) - 1/(2x) for x > 0 (about 1/(8x²) for large x; the ν-partial of
/// Student's t). For x ≥ 20 its asymptotic series Σ (2 - 2^(1-2k)) B₂ₖ/(2k x^(2k)); below,
/// the recurrence E(x) = E(x + 1) + ¼ / (x (x + ½)(x + 1)), whose terms are all positive.
pub(crate) fn half_shift_digamma_excess<T: Real>(x: T) -> T {
    let mut x = x;
    let mut acc = T::from(0.0);
    while x < 20.0 {
        acc += (x * (x + 0.5) * (x + 1.0)).recip() * 0.25;
        x += 1.0;
    }
    let f = (x * x).recip();
    // (2 - 2^(1-2k)) B_2k / (2k), k = 1..8.
    let c = [
        1.0 / 8.0,
        -1.0 / 64.0,
        1.0 / 128.0,
        -17.0 / 2048.0,
        31.0 / 2048.0,
        -691.0 / 16384.0,
        5461.0 / 32768.0,
        -929569.0 / 1048576.0,
    ];
    let series = c.iter().rev().fold(T::from(0.0), |acc, &ck| acc * f + ck) * f;
    acc + series
}

/// ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a + b) for a, b > 0, without the cancellation
/// of the plain sum when an argument is large: Stirling's formula in difference form
/// when both are ≥ 10, [`lgamma_ratio`] when one is, the plain sum otherwise.
pub(crate) fn lbeta<T: Real>(a: T, b: T) -> T {
    let (x, y) = if a <= b { (a, b) } else { (b, a) };
    if y < 10.0 {
        lgamma(x) + lgamma(y) - lgamma(x + y)
    } else if x < 10.0 {
        lgamma(x) - lgamma_ratio(y, x)
    } else {
        -(x - 0.5) * (y / x).ln_1p() - y * (x / y).ln_1p() - y.ln() * 0.5
            + HALF_LN_TWO_PI
            + stirling_remainder(x)
            + stirling_remainder(y)
            - stirling_remainder(x + y)
    }
}

/// The Stirling series remainder ln Γ(z) - ((z - ½) ln z - z + ½ ln 2π), for z ≥ 10
/// (seven terms: error below 1e-17 there).
pub(crate) fn stirling_remainder<T: Real>(z: T) -> T {
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
pub(crate) fn lgamma_ratio<T: Real>(x: T, k: T) -> T {
    if k == 0.0 {
        return T::from(0.0);
    }
    if x < 10.0 {
        return lgamma(x + k) - lgamma(x);
    }
    let z = x + k;
    (x - 0.5) * (k / x).ln_1p() + k * z.ln() - k + stirling_remainder(z) - stirling_remainder(x)
}

/// ln C(n, k), the log binomial coefficient, for integers 0 ≤ k ≤ n, accurate for large n:
/// through [`lgamma_ratio`] when min(k, n − k) is small, else as −ln B(k+1, n−k+1) −
/// ln(n+1) with the beta function in Stirling's difference form.
pub(crate) fn lchoose(n: i64, k: i64) -> f64 {
    let k = k.min(n - k);
    if k == 0 {
        return 0.0;
    }
    if n <= 60 {
        // C(n, k) exactly in u64 (C(60, 30) ≈ 1.2e17; every partial product c·(n-k+j)
        // is below 2⁶⁴), rounded once to f64.
        let mut c: u64 = 1;
        for j in 1..=k as u64 {
            c = c * (n as u64 - k as u64 + j) / j;
        }
        return (c as f64).ln();
    }
    if k < 10 {
        return lgamma_ratio((n - k + 1) as f64, k as f64) - lgamma(k as f64 + 1.0);
    }
    let (a, b) = ((k + 1) as f64, (n - k + 1) as f64);
    -lbeta(a, b) - (n as f64 + 1.0).ln()
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
    fn digamma_minus_ln_diff_agrees_with_the_plain_difference_where_that_is_accurate() {
        for &(x, y) in &[
            (0.3, 0.8),
            (2.5, 40.0),
            (12.0, 13.5),
            (0.01, 500.0),
            (15.0, 1e4),
        ] {
            let plain = (digamma(y) - y.ln()) - (digamma(x) - x.ln());
            let d = digamma_minus_ln_diff(x, y - x);
            assert!(
                (d - plain).abs() < 1e-13 * plain.abs(),
                "({x}, {y}): {d} vs {plain}"
            );
        }
        // E(x + 1) - E(x) = -(ln(1 + 1/x) - 1/x), exactly the recurrence.
        let x = 1e12;
        let want = -log1pmx(1.0 / x);
        assert!((digamma_minus_ln_diff(x, 1.0) - want).abs() < 1e-14 * want);
    }
}
