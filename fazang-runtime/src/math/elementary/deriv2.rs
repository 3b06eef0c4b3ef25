//! Partials of the binary functions: `(d/da, d/db)` of `f(a, b)` with value `v`, generic
//! over the scalar like [`deriv`](super::deriv).

use crate::Real;

/// `atan2(y, x)`: (x/r², -y/r²), (0, 0) at the origin; r = hypot(x, y), divided
/// twice so that neither r² nor the quotients overflow or underflow needlessly.
///
/// ```
/// use fazang::math::elementary::deriv2;
/// let (dy, dx) = deriv2::atan2(1.0, 1.0);
/// assert!((dy - 0.5).abs() < 1e-15 && (dx + 0.5).abs() < 1e-15);
/// assert_eq!(deriv2::atan2(0.0, 0.0), (0.0, 0.0));
/// ```
#[inline]
pub fn atan2<T: Real>(y: T, x: T) -> (T, T) {
    let r = x.hypot(y);
    if r == 0.0 {
        (T::from(0.0), T::from(0.0))
    } else {
        (x / r / r, -y / r / r)
    }
}

/// `a / b = q`: (1/b, -q/b), with the quotient already computed (never 0·∞: a NaN
/// partial only where the value is NaN).
///
/// ```
/// use fazang::math::elementary::deriv2;
/// assert_eq!(deriv2::div(2.0, 3.0), (0.5, -1.5)); // 6 / 2 = 3
/// ```
#[inline]
pub fn div(b: f64, q: f64) -> (f64, f64) {
    (1.0 / b, -q / b)
}

/// `powf(x, y) = v`: (y x^(y-1), v ln x); each is 0 where its factor makes it 0
/// (y = 0 for the first, v = 0 for the second) so no 0·∞ appears. At x = 0, where
/// 0^y jumps at y = 0, the derivative in y is the one-sided 0 of y > 0 (not -∞, which
/// times a zero adjoint would make NaN). x^(y-1) is v/x where that neither overflows
/// nor underflows (`x.powf(y - 1)` would add the rounding of y - 1 times ln x: 70 ulp
/// at x = 1e300, y = 1e-8).
///
/// ```
/// use fazang::math::elementary::deriv2;
/// let (dx, dy) = deriv2::powf(2.0, 3.0, 8.0);
/// assert_eq!((dx, dy), (12.0, 8.0 * 2.0_f64.ln()));
/// ```
#[inline]
pub fn powf<T: Real>(x: T, y: T, v: T) -> (T, T) {
    // The branch is decided on the values; the arithmetic stays in T, so higher-order
    // scalars get the same accurate formula (v/x = x^(y-1) as functions).
    let q = v / x;
    let dx = if y == 0.0 {
        T::from(0.0)
    } else if v.val().is_normal() && q.val().is_normal() {
        y * q
    } else {
        y * x.powf(y - 1.0)
    };
    let dy = if v == 0.0 || x == 0.0 {
        T::from(0.0)
    } else {
        v * x.ln()
    };
    (dx, dy)
}

/// `powi(x, n)`: n x^(n-1) (0 for n = 0; for n = i32::MIN, where n - 1 overflows,
/// n xⁿ/x).
///
/// ```
/// use fazang::math::elementary::deriv2;
/// assert_eq!(deriv2::powi(2.0, 3), 12.0);
/// ```
#[inline]
pub fn powi<T: Real>(x: T, n: i32) -> T {
    match n.checked_sub(1) {
        _ if n == 0 => T::from(0.0),
        Some(m) => x.powi(m) * f64::from(n),
        None => x.powi(n) / x * f64::from(n),
    }
}

/// `hypot(a, b) = h`: (a/h, b/h), (0, 0) where h = 0.
///
/// ```
/// use fazang::math::elementary::deriv2;
/// assert_eq!(deriv2::hypot(3.0, 4.0, 5.0), (0.6, 0.8));
/// ```
#[inline]
pub fn hypot<T: Real>(a: T, b: T, h: T) -> (T, T) {
    if h == 0.0 {
        (T::from(0.0), T::from(0.0))
    } else {
        (a / h, b / h)
    }
}

/// `log(x, b) = ln x / ln b`: (1/(x ln b), -ln x/(b ln² b)).
///
/// ```
/// use fazang::math::elementary::deriv2;
/// let (dx, db) = deriv2::log(8.0, 2.0);
/// assert_eq!(dx, 1.0 / (8.0 * 2.0_f64.ln()));
/// assert!((db - -3.0 / (2.0 * 2.0_f64.ln())).abs() < 1e-15);
/// ```
#[inline]
pub fn log<T: Real>(x: T, b: T) -> (T, T) {
    let lb = b.ln();
    ((x * lb).recip(), -x.ln() / (b * lb * lb))
}

/// Which argument `f64::max(a, b)` returns: true for `a`.
///
/// ```
/// use fazang::math::elementary::deriv2;
/// assert!(deriv2::max_picks_first(2.0, 1.0) && deriv2::max_picks_first(1.0, f64::NAN));
/// ```
#[inline]
pub fn max_picks_first(a: f64, b: f64) -> bool {
    a >= b || b.is_nan()
}

/// `copysign(x, s)`: (±1, 0): 1 where the sign bits of `x` and `s` agree, -1 where
/// they differ, and 0 at `x = 0` (as `abs`, which is `copysign(x, 1)`).
///
/// ```
/// use fazang::math::elementary::deriv2;
/// assert_eq!(deriv2::copysign(2.0, -1.0), (-1.0, 0.0));
/// ```
#[inline]
pub fn copysign(x: f64, s: f64) -> (f64, f64) {
    let dx = if x == 0.0 {
        0.0
    } else if x.is_sign_negative() == s.is_sign_negative() {
        1.0
    } else {
        -1.0
    };
    (dx, 0.0)
}

/// `a % b = r` and `a.rem_euclid(b) = r`: (1, -q) with `q = (a - r) / b` the integer
/// quotient that produced `r` (exactly, for |q| < 2⁵²; from the rounded `a / b` it
/// could be off by one next to a multiple of `b`).
///
/// ```
/// use fazang::math::elementary::deriv2;
/// assert_eq!(deriv2::rem(7.0, 2.0, 7.0 % 2.0), (1.0, -3.0));
/// ```
#[inline]
pub fn rem(a: f64, b: f64, r: f64) -> (f64, f64) {
    (1.0, -((a - r) / b).round())
}

/// `log_sum_exp(a, b)`: (σ(a - b), σ(b - a)) with σ the logistic function; (1/2, 1/2)
/// where a = b (also both infinite).
///
/// ```
/// use fazang::math::elementary::deriv2;
/// assert_eq!(deriv2::log_sum_exp(1.0, 1.0), (0.5, 0.5));
/// ```
#[inline]
pub fn log_sum_exp<T: Real>(a: T, b: T) -> (T, T) {
    if a == b {
        (T::from(0.5), T::from(0.5))
    } else {
        let d = a - b;
        (d.inv_logit(), (-d).inv_logit())
    }
}

/// Which argument `f64::min(a, b)` returns: true for `a`.
///
/// ```
/// use fazang::math::elementary::deriv2;
/// assert!(deriv2::min_picks_first(1.0, 2.0) && !deriv2::min_picks_first(3.0, 2.0));
/// ```
#[inline]
pub fn min_picks_first(a: f64, b: f64) -> bool {
    a <= b || b.is_nan()
}
