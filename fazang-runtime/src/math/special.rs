//! Scalar special functions on `f64` that `std` lacks, used by the elementary table.

use std::f64::consts::PI;

/// `sign(x)`, but 0 at x = 0 (the conventional derivative of `abs` there); NaN stays NaN.
///
/// ```
/// use fazang::math::special::sign_or_zero;
/// assert_eq!([sign_or_zero(-2.0), sign_or_zero(0.0), sign_or_zero(3.0)], [-1.0, 0.0, 1.0]);
/// ```
#[inline]
pub fn sign_or_zero(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else if x == 0.0 {
        0.0
    } else {
        x
    }
}

/// d/dx tanh x = 1 - tanh² x given `v = tanh x`: as (1 - v)(1 + v) near 0, where that is
/// exact to rounding, and as 1/cosh² x further out, where 1 - v would cancel (and be 0
/// from |x| ≈ 19 on, while the true value is e^(-2|x|)·4).
///
/// ```
/// use fazang::math::special::sech2;
/// assert_eq!(sech2(0.0, 0.0), 1.0);
/// assert!(sech2(30.0, 30.0_f64.tanh()) > 0.0); // 1 - tanh² would be 0
/// ```
#[inline]
pub fn sech2(x: f64, v: f64) -> f64 {
    let a = x.abs();
    if a < 0.625 {
        (1.0 - v) * (1.0 + v)
    } else if a < 20.0 {
        let s = 1.0 / x.cosh();
        s * s
    } else {
        // As `precise::sech2` (finite derivatives on dual numbers where cosh overflows).
        let u = (-2.0 * a).exp();
        let d = u + 1.0;
        u * 4.0 / (d * d)
    }
}

/// 1/(x·c) for a constant c of moderate size, without overflowing x·c for huge x.
///
/// ```
/// use fazang::math::special::inv_scaled;
/// assert_eq!(inv_scaled(4.0, 0.5), 0.5);
/// assert!(inv_scaled(1e308, 10.0) > 0.0); // x·c would overflow
/// ```
#[inline]
pub fn inv_scaled(x: f64, c: f64) -> f64 {
    if x.abs() > 1.0 {
        1.0 / x / c
    } else {
        1.0 / (x * c)
    }
}

/// e^(-x²), with x² split exactly into a rounded part and its rounding error (so the
/// result keeps full relative accuracy where x² is large; the condition number of
/// e^(-x²) is 2x², which the rounding of x² would otherwise add in full).
///
/// ```
/// use fazang::math::special::exp_neg_square;
/// assert_eq!(exp_neg_square(0.0), 1.0);
/// assert_eq!(exp_neg_square(f64::INFINITY), 0.0);
/// ```
#[inline]
pub fn exp_neg_square(x: f64) -> f64 {
    let hi = x * x;
    if hi > 746.0 {
        // Below the smallest subnormal (and x = ±∞, where the split would give NaN).
        return 0.0;
    }
    let lo = x.mul_add(x, -hi);
    (-hi).exp() * (1.0 - lo)
}

/// The logistic density σ(x)(1 - σ(x)) = e^(-|x|)/(1 + e^(-|x|))², accurate in both
/// tails (σ(x)(1 - σ(x)) from the rounded σ is 0 from x ≈ 37 on).
///
/// ```
/// use fazang::math::special::logistic_density;
/// assert_eq!(logistic_density(0.0), 0.25);
/// assert!(logistic_density(40.0) > 0.0); // σ(1 - σ) from a rounded σ would be 0
/// ```
#[inline]
pub fn logistic_density(x: f64) -> f64 {
    let e = (-x.abs()).exp();
    let d = 1.0 + e;
    e / d / d
}

/// The logistic function 1/(1+e^(-x)), without overflow for large |x|.
///
/// ```
/// use fazang::math::special::inv_logit;
/// assert_eq!(inv_logit(0.0), 0.5);
/// assert_eq!((inv_logit(-800.0), inv_logit(800.0)), (0.0, 1.0)); // no NaN from e^800
/// ```
#[inline]
pub fn inv_logit(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// ln(1 + eˣ) (softplus): x + ln(1 + e⁻ˣ) for x > 0, so it neither overflows nor loses
/// the small tail for very negative x (where it is about eˣ).
///
/// ```
/// use fazang::math::special::log1p_exp;
/// assert_eq!(log1p_exp(0.0), 2.0_f64.ln());
/// assert_eq!(log1p_exp(800.0), 800.0); // no overflow
/// ```
///
/// ```
/// use fazang::math::special::log1p_exp;
/// assert_eq!(log1p_exp(0.0), 2.0_f64.ln());
/// assert_eq!(log1p_exp(800.0), 800.0); // no overflow
/// ```
#[inline]
pub fn log1p_exp(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// ln(eᵃ + eᵇ) = max + ln(1 + e^(-|a - b|)): no overflow, -∞ if both are -∞, +∞ if
/// either is +∞, NaN if either is NaN.
///
/// ```
/// use fazang::math::special::log_sum_exp2;
/// assert_eq!(log_sum_exp2(1000.0, 1000.0), 1000.0 + std::f64::consts::LN_2);
/// assert_eq!(log_sum_exp2(f64::NEG_INFINITY, 0.0), 0.0);
/// ```
#[inline]
pub fn log_sum_exp2(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if hi.is_infinite() {
        // +inf, or both -inf
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// The digamma function ψ(x) = d/dx ln Γ(x), the derivative of `log_gamma`.
///
/// Reflection ψ(x) = ψ(1-x) - π/tan(πx) for x < 0, the recurrence ψ(x) = ψ(x+1) - 1/x up
/// to x ≥ 10, then the asymptotic series in 1/x² up to the B₁₄ term (the first term left
/// out, 3617/(8160 x¹⁶), is below 5e-17 there).
/// Poles (x = 0, -1, -2, ...) give NaN.
///
/// ```
/// use fazang::math::special::digamma;
/// // ψ(1) = -γ (Euler-Mascheroni)
/// assert!((digamma(1.0) + 0.577_215_664_901_532_9).abs() < 1e-15);
/// ```
pub fn digamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x <= 0.0 {
        if x == x.floor() {
            return f64::NAN;
        }
        return digamma(1.0 - x) - PI / (PI * x).tan();
    }
    let mut x = x;
    let mut acc = 0.0;
    while x < 10.0 {
        acc -= 1.0 / x;
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    // Bernoulli-number coefficients B_2k / (2k).
    let series = f
        * (-1.0 / 12.0
            + f * (1.0 / 120.0
                + f * (-1.0 / 252.0
                    + f * (1.0 / 240.0
                        + f * (-1.0 / 132.0 + f * (691.0 / 32760.0 + f * (-1.0 / 12.0)))))));
    acc + x.ln() - 0.5 / x + series
}

/// Bernoulli numbers B₂, B₄, ..., B₂₀ (for the asymptotic series of [`polygamma`]).
const BERNOULLI: [f64; 10] = [
    1.0 / 6.0,
    -1.0 / 30.0,
    1.0 / 42.0,
    -1.0 / 30.0,
    5.0 / 66.0,
    -691.0 / 2730.0,
    7.0 / 6.0,
    -3617.0 / 510.0,
    43867.0 / 798.0,
    -174611.0 / 330.0,
];

/// The polygamma function ψ⁽ⁿ⁾(x) = dⁿ⁺¹/dxⁿ⁺¹ ln Γ(x); `n = 0` is [`digamma`].
///
/// For n ≥ 1: the recurrence ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x+1) + (-1)ⁿ⁺¹ n!/xⁿ⁺¹ raises x to at least
/// 20 + n, then the asymptotic series
/// (-1)ⁿ⁺¹ [(n-1)!/xⁿ + n!/(2xⁿ⁺¹) + Σₖ B₂ₖ (2k+n-1)!/((2k)! x²ᵏ⁺ⁿ)] up to B₂₀, whose
/// first omitted term is below 1e-17 of the result there. Poles (x = 0, -1, -2, ...) give
/// NaN.
///
/// ```
/// use fazang::math::special::polygamma;
/// // The trigamma function at 1 is ζ(2) = π²/6.
/// let pi2_6 = std::f64::consts::PI.powi(2) / 6.0;
/// assert!((polygamma(1, 1.0) - pi2_6).abs() < 1e-15);
/// ```
pub fn polygamma(n: u32, x: f64) -> f64 {
    if n == 0 {
        return digamma(x);
    }
    if x.is_nan() || (x <= 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    let nf = f64::from(n);
    // n! as a float (exact up to 22!, then rounded).
    let n_fact: f64 = (1..=n).map(f64::from).product();
    let sign = if n % 2 == 1 { 1.0 } else { -1.0 };
    let mut x = x;
    let mut acc = 0.0;
    let x0 = 20.0 + nf;
    while x < x0 {
        acc += 1.0 / x.powi(n as i32 + 1);
        x += 1.0;
    }
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    // (n-1)!/xⁿ + n!/(2xⁿ⁺¹) + Σ B₂ₖ (2k+n-1)!/((2k)! x^(2k+n)), with the factorial ratio
    // (2k+n-1)!/(2k)! built up term by term.
    let xn = inv.powi(n as i32);
    let mut series = n_fact / nf * xn + 0.5 * n_fact * xn * inv;
    // ratio_k = (2k+n-1)!/(2k)!, ratio_1 = (n+1)!/2.
    let mut ratio = n_fact * (nf + 1.0) / 2.0;
    let mut pow = xn * inv2;
    for (k, b) in BERNOULLI.iter().enumerate() {
        series += b * ratio * pow;
        let k = (k + 1) as f64;
        // ratio_{k+1} = ratio_k (2k+n)(2k+n+1)/((2k+1)(2k+2)).
        ratio *= (2.0 * k + nf) * (2.0 * k + nf + 1.0) / ((2.0 * k + 1.0) * (2.0 * k + 2.0));
        pow *= inv2;
    }
    sign * (n_fact * acc + series)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygamma_matches_zeta_values() {
        // ψ⁽ⁿ⁾(1) = (-1)ⁿ⁺¹ n! ζ(n+1).
        let zeta2 = std::f64::consts::PI.powi(2) / 6.0;
        let zeta3 = 1.202_056_903_159_594_3;
        let zeta4 = std::f64::consts::PI.powi(4) / 90.0;
        assert!((polygamma(1, 1.0) - zeta2).abs() < 1e-15);
        assert!((polygamma(2, 1.0) + 2.0 * zeta3).abs() < 1e-14);
        assert!((polygamma(3, 1.0) - 6.0 * zeta4).abs() < 1e-14);
        // ψ′(1/2) = π²/2, and the reflection-free recurrence for negative x:
        // ψ′(-1/2) = ψ′(1/2) + 4.
        let half = std::f64::consts::PI.powi(2) / 2.0;
        assert!((polygamma(1, 0.5) - half).abs() < 1e-14);
        assert!((polygamma(1, -0.5) - (half + 4.0)).abs() < 1e-13);
        assert!(polygamma(2, -3.0).is_nan());
        assert_eq!(polygamma(0, 2.5), digamma(2.5));
    }

    #[test]
    fn polygamma_is_the_derivative_of_the_one_below() {
        for n in 0..6 {
            for &x in &[0.3, 1.7, 6.0, 40.0] {
                let h = 1e-5 * x;
                let fd = (polygamma(n, x + h) - polygamma(n, x - h)) / (2.0 * h);
                let d = polygamma(n + 1, x);
                assert!((fd - d).abs() < 1e-6 * d.abs().max(1.0), "n = {n}, x = {x}");
            }
        }
    }
}
