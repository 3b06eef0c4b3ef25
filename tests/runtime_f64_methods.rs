//! The `f64` methods numeric programs use beyond the elementary functions (`%`,
//! `rem_euclid`, `div_euclid`, `copysign`, `clamp` with active bounds, `to_degrees`,
//! `to_radians`, `midpoint`, `round_ties_even`, `total_cmp`, the `is_*` tests) and
//! Stan's `log1p_exp` and two-argument `log_sum_exp`: on `Var` the value is the `f64`
//! method's, bit for bit, and every partial matches a closed form written here, finite
//! differences, or mpmath (tests/runtime_support/f64_methods_reference.py).

// Reference values are written as mpmath printed them, as their record.
#![allow(clippy::approx_constant)]
// The reference forms (`&a % &b`) are what is being tested.
#![allow(clippy::op_ref)]

mod runtime_support;

use fazang::prelude::*;
use runtime_support::{assert_close, fd, panic_message, tape_d1, tape_d2};
use std::cmp::Ordering;
use std::f64::consts::PI;

/// Points (a, b) for the remainders: signs, a near a multiple of b, |a| < |b|, large
/// quotients.
const REM_POINTS: [(f64, f64); 10] = [
    (7.5, 2.0),
    (-7.5, 2.0),
    (7.5, -2.0),
    (-7.5, -2.0),
    (1.0, 0.1), // 1 / 0.1 rounds to 10 but the remainder is 0.1 - ε: quotient 9
    (1.0, 3.0),
    (-1.0, 3.0),
    (1e10 + 0.5, 3.0),
    (5.0, f64::INFINITY),
    (2.0, 0.7),
];

/// A binary function on the tape.
type Binary = fn(Var, Var) -> Var;

/// The integer q with a - q b = r exactly, searched next to `guess` (0 for infinite b):
/// for the right q, a - q b is r, so `mul_add` (one rounding) returns r exactly, and for
/// q ± 1 it returns r ∓ b rounded, which differs.
fn quotient(a: f64, b: f64, r: f64, guess: f64) -> f64 {
    if b.is_infinite() {
        return 0.0;
    }
    let q = [guess, guess - 1.0, guess + 1.0]
        .into_iter()
        .find(|&q| (-q).mul_add(b, a) == r);
    q.unwrap_or_else(|| panic!("no quotient for {a} % {b} = {r}"))
}

#[test]
fn rem_operator_matches_f64_with_partials_one_and_minus_quotient() {
    for (a, b) in REM_POINTS {
        let r = a % b;
        let q = quotient(a, b, r, (a / b).trunc());
        let cases: [(&str, Binary); 4] = [
            ("var % var", |a, b| a % b),
            ("&var % &var", |a, b| &a % &b),
            ("var %= var", |mut a, b| {
                a %= b;
                a
            }),
            ("var %= &var", |mut a, b| {
                a %= &b;
                a
            }),
        ];
        for (name, f) in cases {
            let (v, da, db) = tape_d2(f, a, b);
            assert_eq!(v.to_bits(), r.to_bits(), "{name} at ({a}, {b})");
            assert_eq!((da, db), (1.0, -q), "{name} partials at ({a}, {b})");
        }
        // Mixed with f64 on either side.
        let (v, d) = tape_d1(|x| x % b, a);
        assert_eq!((v.to_bits(), d), (r.to_bits(), 1.0), "var % f64");
        let (v, d) = tape_d1(|x| x % &b, a);
        assert_eq!((v.to_bits(), d), (r.to_bits(), 1.0), "var % &f64");
        let (v, d) = tape_d1(
            |mut x| {
                x %= b;
                x
            },
            a,
        );
        assert_eq!((v.to_bits(), d), (r.to_bits(), 1.0), "var %= f64");
        let (v, d) = tape_d1(|y| a % y, b);
        assert_eq!((v.to_bits(), d), (r.to_bits(), -q), "f64 % var");
        let (v, d) = tape_d1(|y| &a % &y, b);
        assert_eq!((v.to_bits(), d), (r.to_bits(), -q), "&f64 % &var");
    }
    // The 1 % 0.1 case: trunc(1 / 0.1) would say 10, the remainder says 9.
    assert_eq!((1.0_f64 / 0.1).trunc(), 10.0);
    let (_, _, db) = tape_d2(|a, b| a % b, 1.0, 0.1);
    assert_eq!(db, -9.0);
}

#[test]
fn rem_partials_match_finite_differences_away_from_jumps() {
    for (a, b) in [(7.5, 2.0), (-7.3, 2.2), (2.0, 0.7), (10.4, -3.1)] {
        let (_, da, db) = tape_d2(|a, b| a % b, a, b);
        // Steps small enough not to cross a jump of the remainder.
        let h = 1e-6;
        let fda = ((a + h) % b - (a - h) % b) / (2.0 * h);
        let fdb = (a % (b + h) - a % (b - h)) / (2.0 * h);
        assert_close(da, fda, 1e-8, &format!("d(a % b)/da at ({a}, {b})"));
        assert_close(db, fdb, 1e-8, &format!("d(a % b)/db at ({a}, {b})"));
    }
}

#[test]
fn rem_euclid_and_div_euclid() {
    for (a, b) in REM_POINTS {
        let r = a.rem_euclid(b);
        let q = a.div_euclid(b);
        let (v, da, db) = tape_d2(|a, b| a.rem_euclid(b), a, b);
        assert_eq!(v.to_bits(), r.to_bits(), "rem_euclid({a}, {b})");
        // r = a - b q for the q that produced r: f64's div_euclid, except at (1, 0.1),
        // where it says 10 (from 1 / 0.1 rounded) and the remainder 0.1 - ε says 9.
        let q_of_r = quotient(a, b, r, q);
        assert_eq!(q_of_r == q, (a, b) != (1.0, 0.1), "at ({a}, {b})");
        assert_eq!(
            (da, db),
            (1.0, -q_of_r),
            "rem_euclid partials at ({a}, {b})"
        );
        let (v, da, db) = tape_d2(|a, b| a.div_euclid(b), a, b);
        assert_eq!(v.to_bits(), q.to_bits(), "div_euclid({a}, {b})");
        assert_eq!((da, db), (0.0, 0.0), "div_euclid is piecewise constant");
        assert_eq!(<f64 as Real>::rem_euclid(a, b).to_bits(), r.to_bits());
        assert_eq!(<f64 as Real>::div_euclid(a, b).to_bits(), q.to_bits());
    }
    let (_, d) = tape_d1(|x| x.rem_euclid(2.0 * PI), -7.0);
    assert_close(d, fd(|x| x.rem_euclid(2.0 * PI), -7.0), 1e-9, "wrap angle");
}

#[test]
fn copysign_value_and_partials() {
    let xs = [-2.5, -0.0, 0.0, 1.5, f64::INFINITY];
    let ss = [-3.0, -0.0, 0.0, 4.0];
    for x in xs {
        for s in ss {
            let (v, dx, ds) = tape_d2(|x, s| x.copysign(s), x, s);
            assert_eq!(v.to_bits(), x.copysign(s).to_bits(), "copysign({x}, {s})");
            let want = if x == 0.0 {
                0.0
            } else if (x < 0.0) == s.is_sign_negative() {
                1.0
            } else {
                -1.0
            };
            assert_eq!((dx, ds), (want, 0.0), "copysign'({x}, {s})");
        }
    }
    // copysign(x, 1) is |x| and has its derivative.
    for x in [-2.0, 0.0, 3.0] {
        assert_eq!(
            tape_d1(|x| x.copysign(1.0), x),
            tape_d1(|x| x.abs(), x),
            "at {x}"
        );
    }
}

#[test]
fn clamp_passes_the_derivative_to_the_argument_returned() {
    // (x, lo, hi) -> which one is returned
    let cases = [
        (0.5, 0.0, 1.0, 0),
        (-1.0, 0.0, 1.0, 1),
        (2.0, 0.0, 1.0, 2),
        (1.0, 1.0, 1.0, 0), // ties keep x, as f64::clamp
        (f64::NAN, 0.0, 1.0, 0),
    ];
    for (x, lo, hi, which) in cases {
        let (v, d) = nested(|| {
            let vars = [Var::new(x), Var::new(lo), Var::new(hi)];
            let y = vars[0].clamp(vars[1], vars[2]);
            y.grad();
            (y.val(), vars.map(|v| v.adj()))
        });
        assert_eq!(
            v.to_bits(),
            x.clamp(lo, hi).to_bits(),
            "clamp({x}, {lo}, {hi})"
        );
        let mut want = [0.0; 3];
        want[which] = 1.0;
        assert_eq!(d, want, "clamp({x}, {lo}, {hi}) partials");
        // f64 bounds, and the f64 method itself.
        let (v2, d2) = tape_d1(|x| x.clamp(lo, hi), x);
        assert_eq!(v2.to_bits(), v.to_bits());
        assert_eq!(d2, want[0]);
        assert_eq!(<f64 as Real>::clamp(x, lo, hi).to_bits(), v.to_bits());
    }
}

#[test]
fn clamp_with_bad_bounds_panics_as_f64_clamp_does() {
    for (lo, hi) in [(1.0, 0.0), (f64::NAN, 1.0), (0.0, f64::NAN)] {
        let f = std::panic::catch_unwind(|| 0.5_f64.clamp(lo, hi));
        assert!(f.is_err(), "f64::clamp({lo}, {hi}) panics");
        let r = std::panic::catch_unwind(|| <f64 as Real>::clamp(0.5, lo, hi));
        assert!(r.is_err(), "Real::clamp on f64 with ({lo}, {hi})");
        let v = std::panic::catch_unwind(|| nested(|| Var::new(0.5).clamp(Var::new(lo), hi).val()));
        let msg = panic_message(&*v.expect_err("Var::clamp with bad bounds panics"));
        assert!(msg.contains("lo <= hi"), "{msg}");
    }
}

#[test]
fn degrees_and_radians() {
    for x in [-720.0, -1.0, 0.0, 0.3, 180.0, 1e300] {
        let (v, d) = tape_d1(|x| x.to_degrees(), x);
        assert_eq!(v.to_bits(), x.to_degrees().to_bits(), "to_degrees({x})");
        assert_close(d, 180.0 / PI, 1e-15, "to_degrees'");
        let (v, d) = tape_d1(|x| x.to_radians(), x);
        assert_eq!(v.to_bits(), x.to_radians().to_bits(), "to_radians({x})");
        assert_close(d, PI / 180.0, 1e-15, "to_radians'");
    }
}

#[test]
fn midpoint_and_round_ties_even() {
    for (a, b) in [(1.0, 2.0), (f64::MAX, f64::MAX), (-3.0, 0.5)] {
        let (v, da, db) = tape_d2(|a, b| a.midpoint(b), a, b);
        assert_eq!(v.to_bits(), a.midpoint(b).to_bits());
        assert_eq!((da, db), (0.5, 0.5));
    }
    for x in [0.5, 1.5, 2.5, -2.5, 3.7] {
        let (v, d) = tape_d1(|x| x.round_ties_even(), x);
        assert_eq!((v.to_bits(), d), (x.round_ties_even().to_bits(), 0.0));
    }
}

#[test]
fn log1p_exp_matches_mpmath() {
    // (x, ln(1 + e^x), 1/(1 + e^-x)) from f64_methods_reference.py.
    let table = [
        (-800.0, 0.0, 0.0),
        (-40.0, 4.248354255291589e-18, 4.248354255291589e-18),
        (-1.0, 0.3132616875182228, 0.2689414213699951),
        (-1e-10, 0.6931471805099453, 0.499999999975),
        (0.0, 0.6931471805599453, 0.5),
        (1e-10, 0.6931471806099453, 0.500000000025),
        (0.5, 0.9740769841801067, 0.6224593312018546),
        (1.0, 1.3132616875182228, 0.7310585786300049),
        (20.0, 20.000000002061153, 0.9999999979388464),
        (40.0, 40.0, 1.0),
        (800.0, 800.0, 1.0),
        (1e300, 1e300, 1.0),
    ];
    for (x, want, dwant) in table {
        let (v, d) = tape_d1(|x| x.log1p_exp(), x);
        assert_rel(v, want, 4e-16, &format!("log1p_exp({x})"));
        assert_rel(d, dwant, 4e-16, &format!("log1p_exp'({x})"));
        assert_eq!(log1p_exp(x).to_bits(), v.to_bits(), "free function on f64");
    }
}

#[test]
fn two_argument_log_sum_exp_matches_mpmath() {
    // (a, b, ln(e^a + e^b), e^a/(e^a + e^b), e^b/(e^a + e^b)) from
    // f64_methods_reference.py.
    let table = [
        (0.0, 0.0, 0.6931471805599453, 0.5, 0.5),
        (
            1.0,
            2.0,
            2.313261687518223,
            0.2689414213699951,
            0.7310585786300049,
        ),
        (
            -1000.0,
            -1001.0,
            -999.6867383124818,
            0.7310585786300049,
            0.2689414213699951,
        ),
        (1000.0, 1000.0, 1000.6931471805599, 0.5, 0.5),
        (1e16, 1e16, 1e16, 0.5, 0.5),
        (
            1e16,
            9999999999999996.0,
            1e16,
            0.9820137900379085,
            0.01798620996209156,
        ),
        (-3.0, 40.0, 40.0, 2.1151310375910805e-19, 1.0),
        (5.0, -800.0, 5.0, 1.0, 0.0),
    ];
    for (a, b, want, da_want, db_want) in table {
        let (v, da, db) = tape_d2(|a, b| a.log_sum_exp(b), a, b);
        let at = format!("log_sum_exp({a}, {b})");
        assert_rel(v, want, 4e-16, &at);
        assert_rel(da, da_want, 4e-16, &format!("d/da {at}"));
        assert_rel(db, db_want, 4e-16, &format!("d/db {at}"));
        assert_eq!(a.log_sum_exp(b).to_bits(), v.to_bits(), "on f64");
    }
    let ninf = f64::NEG_INFINITY;
    let (v, da, db) = tape_d2(|a, b| a.log_sum_exp(b), ninf, ninf);
    assert_eq!((v, da, db), (ninf, 0.5, 0.5));
    let (v, da, db) = tape_d2(|a, b| a.log_sum_exp(b), ninf, 2.0);
    assert_eq!((v, da, db), (2.0, 0.0, 1.0));
}

#[test]
fn value_tests_and_total_order() {
    let xs = [2.0, f64::NAN, -0.0, 0.0, f64::NEG_INFINITY, 1e-310, -5.0];
    let mut vars: Vec<Var> = xs.iter().map(|&x| Var::from(x)).collect();
    vars.sort_by(|a, b| a.total_cmp(b));
    let mut plain = xs;
    plain.sort_by(f64::total_cmp);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let sorted: Vec<f64> = vars.iter().map(|v| v.val()).collect();
    assert_eq!(bits(&sorted), bits(&plain));
    for x in xs {
        let v = Var::from(x);
        assert_eq!(v.is_normal(), x.is_normal(), "is_normal({x})");
        assert_eq!(v.is_subnormal(), x.is_subnormal(), "is_subnormal({x})");
        assert_eq!(v.classify(), x.classify(), "classify({x})");
        assert_eq!(v.is_infinite(), x.is_infinite());
        assert_eq!(v.is_sign_positive(), x.is_sign_positive());
        assert_eq!(v.is_sign_negative(), x.is_sign_negative());
        assert_eq!(
            Var::from(1.0).total_cmp(&v),
            1.0_f64.total_cmp(&x),
            "total_cmp(1, {x})"
        );
    }
    assert_eq!(Var::from(-0.0).total_cmp(&Var::from(0.0)), Ordering::Less);
}

/// A body written once for `f64` and `Var`, with compound assignments whose right side
/// is a reference, as user code over slices has them.
fn wrapped_sum<S: Real>(x: &[S], w: &[f64]) -> S {
    let mut s = S::from(0.0);
    for (xi, wi) in x.iter().zip(w) {
        s += xi;
        s -= wi;
        s *= wi;
        s /= xi;
        s %= wi;
        s %= xi;
        s += &x[0];
    }
    let mut t = x[0];
    t %= 10.0;
    s + t
}

#[test]
fn compound_assignment_with_references_in_generic_code() {
    let x = [1.3, 2.9, 0.7];
    let w = [3.0, 0.5, 2.0];
    let plain = wrapped_sum(&x, &w);
    let (v, g) = gradient(|x| wrapped_sum(x, &w), &x);
    assert_eq!(v.to_bits(), plain.to_bits());
    // Away from the remainder's jumps the gradient is that of the smooth pieces.
    for i in 0..3 {
        let fdi = fd(
            |t| {
                let mut y = x;
                y[i] = t;
                wrapped_sum(&y, &w)
            },
            x[i],
        );
        // A small step (fd uses 1e-3 |x|) may cross a jump; use a tiny one-sided check
        // instead if so.
        let h = 1e-7;
        let small = {
            let mut hi = x;
            hi[i] += h;
            let mut lo = x;
            lo[i] -= h;
            (wrapped_sum(&hi, &w) - wrapped_sum(&lo, &w)) / (2.0 * h)
        };
        assert!(
            (g[i] - small).abs() <= 1e-5 * small.abs().max(1.0)
                || (g[i] - fdi).abs() <= 1e-7 * fdi.abs().max(1.0),
            "d/dx{i}: tape {}, differences {small} / {fdi}",
            g[i]
        );
    }
}

/// Relative error at most `tol` (exact zeros must match exactly).
#[track_caller]
fn assert_rel(actual: f64, expected: f64, tol: f64, what: &str) {
    let ok = actual == expected || (actual - expected).abs() <= tol * expected.abs();
    assert!(ok, "{what}: got {actual:e}, want {expected:e}");
}
