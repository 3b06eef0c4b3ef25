//! Values and gradients of every distribution against independent high-precision
//! references.
//!
//! Every expected number was computed by tests/dist_support/reference.py with mpmath
//! (50 significant digits): the log density written from its textbook formula (the
//! expression is repeated above each case), summed over the elements, and its gradient
//! by `mpmath.diff` with respect to every real argument, flattened in argument order
//! (a scalar one entry, a sequence one per element). The test computes the same with the
//! arguments active (`Var`) and as plain `f64`, which must agree.

#[macro_use]
mod dist_support;

use dist_support::{assert_all_close, assert_close, value_and_grad};
use fazang::prelude::*;

/// Relative tolerance (with an absolute floor of the same size) against the references.
const TOL: f64 = 2e-14;

#[track_caller]
fn check(
    fv: impl Fn(&[Var]) -> Var,
    ff: impl Fn(&[f64]) -> f64,
    x: &[f64],
    value: f64,
    grad: &[f64],
) {
    check_with(TOL, fv, ff, x, value, grad);
}

#[track_caller]
fn check_with(
    tol: f64,
    fv: impl Fn(&[Var]) -> Var,
    ff: impl Fn(&[f64]) -> f64,
    x: &[f64],
    value: f64,
    grad: &[f64],
) {
    let (v, g) = value_and_grad(fv, ff, x);
    assert_close(v, value, tol, "value");
    assert_all_close(&g, grad, TOL, "gradient");
}

#[test]
fn normal() {
    // mpmath: Σ -log(2π)/2 - log(σ) - ((y-μ)/σ)²/2
    let (fv, ff) = both!(|x| normal_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[1.3, -0.4, 2.7, 0.5, 1.2],
        -5.48780804777366,
        &[
            -0.5555555555555556,
            0.6250000000000001,
            -1.5277777777777781,
            1.4583333333333335,
            1.1400462962962972,
        ],
    );
}
#[test]
fn normal_vec() {
    // mpmath: as normal, elementwise μᵢ, σᵢ
    let (fv, ff) = both!(|x| normal_lpdf(&x[0..3], &x[3..6], &x[6..9]).unwrap());
    check(
        fv,
        ff,
        &[1.3, -0.4, 2.7, 0.5, 0.1, -1.0, 1.2, 0.7, 2.5],
        -5.071277207381945,
        &[
            -0.5555555555555556,
            1.0204081632653064,
            -0.5920000000000001,
            0.5555555555555556,
            -1.0204081632653064,
            0.5920000000000001,
            -0.4629629629629629,
            -0.6997084548104955,
            0.4761600000000001,
        ],
    );
}
#[test]
fn lognormal() {
    // mpmath: Σ -log(2π)/2 - log(σ) - log(y) - ((log(y)-μ)/σ)²/2
    let (fv, ff) = both!(|x| lognormal_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.5, 2.0, 3.7, 0.1, 0.8],
        -5.302728883196688,
        &[
            0.4785849392498288,
            -0.9633962348124572,
            -0.7805459542441633,
            1.5755200307034043,
            1.017527794687801,
        ],
    );
}
#[test]
fn cauchy() {
    // mpmath: Σ -log(π) - log(σ) - log(1 + ((y-μ)/σ)²)
    let (fv, ff) = both!(|x| cauchy_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.3, -2.0, 5.0, 0.5, 1.5],
        -8.299927623496501,
        &[
            0.17467248908296945,
            0.5882352941176471,
            -0.4,
            -0.3629077832006165,
            0.2036818220738077,
        ],
    );
}
#[test]
fn student_t() {
    // mpmath: Σ loggamma((ν+1)/2) - loggamma(ν/2) - log(νπ)/2 - log(σ) - (ν+1)/2·log(1 + ((y-μ)/σ)²/ν)
    let (fv, ff) = both!(|x| student_t_lpdf(&x[0..3], x[3], x[4], x[5]).unwrap());
    check(
        fv,
        ff,
        &[0.3, -2.0, 5.0, 3.5, 0.5, 1.5],
        -8.37495797080169,
        &[
            0.11370814908401769,
            0.7964601769911505,
            -0.72,
            -0.12154703700579407,
            -0.19016832607516815,
            1.5025947148631198,
        ],
    );
}
#[test]
fn student_t_vec() {
    // mpmath: as student_t, elementwise νᵢ, σᵢ
    let (fv, ff) = both!(|x| student_t_lpdf(&x[0..3], &x[3..6], x[6], &x[7..10]).unwrap());
    check(
        fv,
        ff,
        &[0.3, -2.0, 5.0, 3.5, 1.0, 30.0, 0.5, 1.5, 0.5, 2.0],
        -9.153424518137047,
        &[
            0.11370814908401769,
            0.7692307692307693,
            -0.9946524064171123,
            0.020395413630197864,
            -0.47436262691233416,
            -0.00309084653097723,
            0.11171348810232537,
            -0.651505580122131,
            1.8461538461538463,
            1.7379679144385027,
        ],
    );
}
#[test]
fn logistic() {
    // mpmath: Σ -z - 2·log(1 + exp(-z)) - log(σ), z = (y-μ)/σ
    let (fv, ff) = both!(|x| logistic_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.3, -2.0, 5.0, 0.5, 1.5],
        -7.716988189190174,
        &[
            0.04437871766817505,
            0.4548411934921131,
            -0.6034321690965776,
            0.10421225793628944,
            0.5742823254656781,
        ],
    );
}
#[test]
fn logistic_tail() {
    // mpmath: as logistic, far in both tails
    let (fv, ff) = both!(|x| logistic_lpdf(&x[0..2], x[2], x[3]).unwrap());
    check(
        fv,
        ff,
        &[800.0, -750.0, 0.0, 1.0],
        -1550.0,
        &[-1.0, 1.0, 0.0, 1548.0],
    );
}
#[test]
fn double_exponential() {
    // mpmath: Σ -log(2) - log(σ) - |y-μ|/σ
    let (fv, ff) = both!(|x| double_exponential_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.3, -2.0, 5.0, 0.5, 1.5],
        -8.09583686600433,
        &[
            0.6666666666666666,
            0.6666666666666666,
            -0.6666666666666666,
            -0.6666666666666666,
            1.2,
        ],
    );
}
#[test]
fn exponential() {
    // mpmath: Σ log(β) - β·y
    let (fv, ff) = both!(|x| exponential_lpdf(&x[0..3], x[3]).unwrap());
    check(
        fv,
        ff,
        &[0.5, 1.5, 0.0, 2.0],
        -1.920558458320164,
        &[-2.0, -2.0, -2.0, -0.5],
    );
}
#[test]
fn gamma() {
    // mpmath: Σ α·log(β) - loggamma(α) + (α-1)·log(y) - β·y
    let (fv, ff) = both!(|x| gamma_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.5, 1.5, 4.0, 2.5, 1.3],
        -5.03839819491041,
        &[
            1.7,
            -0.30000000000000004,
            -0.925,
            -0.22376483986514661,
            -0.23076923076923098,
        ],
    );
}
#[test]
fn gamma_vec() {
    // mpmath: as gamma, elementwise αᵢ, βᵢ
    let (fv, ff) = both!(|x| gamma_lpdf(&x[0..3], &x[3..6], &x[6..9]).unwrap());
    check(
        fv,
        ff,
        &[0.5, 1.5, 4.0, 2.5, 0.5, 9.0, 1.3, 0.2, 3.0],
        -4.82504684911308,
        &[
            1.7,
            -0.5333333333333333,
            -1.0,
            -1.1339395567376973,
            0.7595372216954875,
            0.3442651718323903,
            1.423076923076923,
            0.9999999999999999,
            -1.0,
        ],
    );
}
#[test]
fn inv_gamma() {
    // mpmath: Σ α·log(β) - loggamma(α) - (α+1)·log(y) - β/y
    let (fv, ff) = both!(|x| inv_gamma_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.5, 1.5, 4.0, 2.5, 1.3],
        -6.523126304917625,
        &[
            -1.7999999999999998,
            -1.7555555555555555,
            -0.79375,
            -2.420989417201366,
            2.852564102564102,
        ],
    );
}
#[test]
fn weibull() {
    // mpmath: Σ log(α) + (α-1)·log(y) - α·log(σ) - (y/σ)^α
    let (fv, ff) = both!(|x| weibull_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.5, 1.5, 4.0, 2.5, 1.3],
        -15.699809837688967,
        &[
            2.541291662022158,
            -1.3835184416992956,
            -10.004384843870167,
            -17.270595208486576,
            29.09397785155272,
        ],
    );
}
#[test]
fn chi_square() {
    // mpmath: Σ -ν/2·log(2) - loggamma(ν/2) + (ν/2-1)·log(y) - y/2
    let (fv, ff) = both!(|x| chi_square_lpdf(&x[0..3], x[3]).unwrap());
    check(
        fv,
        ff,
        &[0.5, 1.5, 4.0, 3.3],
        -5.4012883716198035,
        &[
            0.7999999999999998,
            -0.06666666666666672,
            -0.3375,
            -0.7425827428823547,
        ],
    );
}
#[test]
fn beta() {
    // mpmath: Σ loggamma(α+β) - loggamma(α) - loggamma(β) + (α-1)·log(y) + (β-1)·log(1-y)
    let (fv, ff) = both!(|x| beta_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.2, 0.5, 0.9, 2.5, 1.3],
        -0.46813871582672895,
        &[
            7.124999999999999,
            2.4,
            -1.3333333333333346,
            -0.9243459926107787,
            0.8817663797090206,
        ],
    );
}
#[test]
fn beta_vec() {
    // mpmath: as beta, elementwise αᵢ, βᵢ
    let (fv, ff) = both!(|x| beta_lpdf(&x[0..3], &x[3..6], &x[6..9]).unwrap());
    check(
        fv,
        ff,
        &[0.2, 0.5, 0.9, 2.5, 0.7, 12.0, 1.3, 0.9, 4.0],
        -0.7353790480600302,
        &[
            7.124999999999999,
            -0.40000000000000013,
            -17.777777777777786,
            -1.1149047070870692,
            0.6529238259114657,
            0.19299113269382207,
            1.143737183544864,
            0.18782722216058229,
            -0.817689433098386,
        ],
    );
}
#[test]
fn uniform() {
    // mpmath: Σ -log(β-α)
    let (fv, ff) = both!(|x| uniform_lpdf(&x[0..3], x[3], x[4]).unwrap());
    check(
        fv,
        ff,
        &[0.2, 0.5, 0.9, -0.5, 1.25],
        -1.678847363806268,
        &[0.0, 0.0, 0.0, 1.7142857142857142, -1.7142857142857142],
    );
}
#[test]
fn poisson() {
    // mpmath: Σ n·log(λ) - λ - loggamma(n+1)
    let (fv, ff) = both!(|x| poisson_lpmf(&[0, 3, 7], x[0]).unwrap());
    check(fv, ff, &[2.5], -8.654013511551918, &[1.0]);
}
#[test]
fn poisson_log() {
    // mpmath: Σ n·α - exp(α) - loggamma(n+1)
    let (fv, ff) = both!(|x| poisson_log_lpmf(&[0, 3, 7], x[0]).unwrap());
    check(fv, ff, &[0.9], -8.695730163764319, &[2.621190666529151]);
}
#[test]
fn neg_binomial_2() {
    // mpmath: Σ loggamma(n+φ) - loggamma(n+1) - loggamma(φ) + n·log(μ/(μ+φ)) + φ·log(φ/(μ+φ))
    let (fv, ff) = both!(|x| neg_binomial_2_lpmf(&[0, 3, 7], x[0], x[1]).unwrap());
    check(
        fv,
        ff,
        &[2.5, 1.7],
        -7.221803536745281,
        &[0.40476190476190477, -0.1835266332515265],
    );
}
#[test]
fn neg_binomial_2_large_phi() {
    // mpmath: as neg_binomial_2 (φ = 1e8: ln Γ differences cancel in f64)
    let (fv, ff) = both!(|x| neg_binomial_2_lpmf(&[0, 3, 7], x[0], x[1]).unwrap());
    check(
        fv,
        ff,
        &[2.5, 1e8],
        -8.654013427801923,
        &[0.9999999750000006, -8.374999352500038e-16],
    );
}
#[test]
fn binomial() {
    // mpmath: Σ log(binomial(N, n)) + n·log(θ) + (N-n)·log1p(-θ)
    let (fv, ff) = both!(|x| binomial_lpmf(&[0, 3, 10], &[5, 10, 10], x[0]).unwrap());
    check(fv, ff, &[0.35], -14.029590868810216, &[18.681318681318686]);
}
#[test]
fn binomial_large() {
    // mpmath: log(binomial(10⁶, 5·10⁵)) + 10⁶·log(1/2)
    // The result (-7.13) is the difference of two terms of size 6.9e5 (ln C(N, n) and
    // N ln(1/2)): an absolute error of 1e-10 is what f64 allows.
    let (fv, ff) = both!(|x| binomial_lpmf(500_000, 1_000_000, x[0]).unwrap());
    check_with(2e-11, fv, ff, &[0.5], -7.133546881626865, &[0.0]);
}
#[test]
fn bernoulli() {
    // mpmath: Σ log(θ) if n = 1 else log1p(-θ)
    let (fv, ff) = both!(|x| bernoulli_lpmf(&[0, 1, 1], x[0]).unwrap());
    check(fv, ff, &[0.35], -2.53042716508981, &[4.175824175824176]);
}
#[test]
fn bernoulli_logit() {
    // mpmath: Σ -log1p(exp(-(2n-1)·α))
    let (fv, ff) = both!(|x| bernoulli_logit_lpmf(&[0, 1, 1], x).unwrap());
    check(
        fv,
        ff,
        &[-0.7, 0.3, 40.0],
        -0.9575412933539851,
        &[
            -0.3318122278318339,
            0.425557483188341,
            4.248354255291589e-18,
        ],
    );
}
