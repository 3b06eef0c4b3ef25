//! Derivatives of order 0 to 6 of every unary function, of binary functions along one
//! argument and of densities along one parameter, against mpmath at 50 digits
//! (`forward_support/taylor_reference.py`), by Taylor series, by MESA's one-variable
//! `Jet`, by nested `Fwd` derivatives and by `Dual<Dual<f64>>`; and ReverseDiffSource's
//! `sin` to order 10.

#[allow(dead_code)]
#[path = "support/close.rs"]
mod close;

use close::assert_close;
#[path = "forward_support/taylor_values.rs"]
mod taylor_values;
use fazang::prelude::*;
use fazang::{derivative, derivatives, Dual, Fwd, Jet, Taylor};
use taylor_values::REFERENCE;

/// The function called `name` at `t`, on any scalar.
macro_rules! eval {
    ($name:expr, $t:expr, $S:ty) => {{
        let t: $S = $t;
        match $name {
            "sin" => t.sin(),
            "cos" => t.cos(),
            "tan" => t.tan(),
            "asin" => t.asin(),
            "acos" => t.acos(),
            "atan" => t.atan(),
            "sinh" => t.sinh(),
            "cosh" => t.cosh(),
            "tanh" => t.tanh(),
            "asinh" => t.asinh(),
            "acosh" => t.acosh(),
            "atanh" => t.atanh(),
            "exp" => t.exp(),
            "exp2" => t.exp2(),
            "exp_m1" => t.exp_m1(),
            "ln" => t.ln(),
            "log10" => t.log10(),
            "log2" => t.log2(),
            "ln_1p" => t.ln_1p(),
            "sqrt" => t.sqrt(),
            "cbrt" => t.cbrt(),
            "recip" => t.recip(),
            "erf" => t.erf(),
            "erfc" => t.erfc(),
            "log_gamma" => t.log_gamma(),
            "digamma" => t.digamma(),
            "square" => t.square(),
            "inv" => t.inv(),
            "inv_square" => t.inv_square(),
            "inv_sqrt" => t.inv_sqrt(),
            "logit" => t.logit(),
            "inv_logit" => t.inv_logit(),
            "log1p_exp" => t.log1p_exp(),
            "atan2(t, 0.7)" => t.atan2(0.7),
            "atan2(0.7, t)" => <$S>::from(0.7).atan2(t),
            "powf(t, 2.5)" => t.powf(2.5),
            "powf(1.3, t)" => <$S>::from(1.3).powf(t),
            "powf(t, t)" => t.powf(t),
            "hypot(t, 0.3)" => t.hypot(0.3),
            "log(t, 3)" => t.log(3.0),
            "log(3, t)" => <$S>::from(3.0).log(t),
            "log_sum_exp(t, 0.2)" => t.log_sum_exp(0.2),
            "normal_lpdf(1.3, t, 0.8)" => normal_lpdf(1.3, t, 0.8).unwrap(),
            "normal_lpdf(1.3, 0.4, t)" => normal_lpdf(1.3, 0.4, t).unwrap(),
            "gamma_lpdf(2.0, t, 0.8)" => gamma_lpdf(2.0, t, 0.8).unwrap(),
            "student_t_lpdf(0.3, t, 0.5, 1.2)" => student_t_lpdf(0.3, t, 0.5, 1.2).unwrap(),
            other => panic!("no function {other}"),
        }
    }};
}

/// Tolerance for order k: the reference is exact to 50 digits; the series lose a little
/// per order (recurrences, and digamma's asymptotic series for log_gamma).
fn tol(k: usize) -> f64 {
    [1e-15, 1e-14, 1e-13, 1e-12, 1e-12, 1e-11, 1e-10][k]
}

#[test]
fn taylor_series_match_the_reference_to_order_six() {
    for &(name, x, want) in REFERENCE {
        let d = derivatives::<6>(|t| eval!(name, t, Taylor<6>), x);
        for (k, (&got, &w)) in d.iter().zip(&want).enumerate() {
            assert_close(got, w, tol(k), &format!("{name} order {k}"));
        }
    }
}

#[test]
fn one_variable_jets_agree() {
    for &(name, x, want) in REFERENCE {
        let y = eval!(name, Jet::<1, 6, 7>::variable(x, 0), Jet<1, 6, 7>);
        for (k, &w) in want.iter().enumerate() {
            assert_close(y.partial([k]), w, tol(k), &format!("{name} order {k}"));
        }
    }
}

#[test]
fn nested_derivatives_agree_to_order_three() {
    for &(name, x, want) in REFERENCE {
        let d1 = derivative(|t: Fwd| eval!(name, t, Fwd), x);
        let d2 = derivative(|s: Fwd| derivative(|t: Fwd| eval!(name, t, Fwd), s), x);
        let d3 = derivative(
            |r: Fwd| derivative(|s: Fwd| derivative(|t: Fwd| eval!(name, t, Fwd), s), r),
            x,
        );
        assert_close(d1.val(), want[1], tol(1), &format!("{name} d1"));
        assert_close(d2.val(), want[2], tol(2), &format!("{name} d2"));
        assert_close(d3.val(), want[3], tol(3), &format!("{name} d3"));
    }
}

#[test]
fn dual_of_dual_gives_the_second_derivative() {
    for &(name, x, want) in REFERENCE {
        let t: Dual<Dual<f64>> = Dual::new(Dual::variable(x), Dual::constant(1.0));
        let y = eval!(name, t, Dual<Dual<f64>>);
        assert_close(y.re.re, want[0], tol(0), &format!("{name} value"));
        assert_close(y.re.eps, want[1], tol(1), &format!("{name} d1"));
        assert_close(y.eps.re, want[1], tol(1), &format!("{name} d1 (outer)"));
        assert_close(y.eps.eps, want[2], tol(2), &format!("{name} d2"));
    }
}

#[test]
fn sin_to_order_ten_as_reverse_diff_source() {
    // rdiff(:(sin(x)), order = 10) at x = 2: sin, cos, -sin, -cos, ... (its docs print
    // 0.9092974268256817, -0.4161468365471424, -0.9092974268256817, ...).
    let d = derivatives::<10>(|x| x.sin(), 2.0);
    assert_eq!(d.len(), 11);
    for (k, &dk) in d.iter().enumerate() {
        let want = (2.0 + k as f64 * std::f64::consts::FRAC_PI_2).sin();
        assert_close(dk, want, 1e-14, &format!("sin order {k}"));
    }
    assert_eq!(d[0], 0.9092974268256817);
    assert_eq!(d[1], -0.4161468365471424);
}

#[test]
fn taylor_of_high_order_stays_accurate() {
    // exp to order 20 (every derivative e^x), 1/(1-x) to order 15 (k!/(1-x)^(k+1)).
    let d = derivatives::<20>(|x| x.exp(), 0.5);
    for (k, &dk) in d.iter().enumerate() {
        assert_close(dk, 0.5_f64.exp(), 1e-13, &format!("exp order {k}"));
    }
    let d = derivatives::<15>(|x| (1.0 - x).recip(), 0.25);
    let mut fact = 1.0;
    for (k, &dk) in d.iter().enumerate() {
        if k > 0 {
            fact *= k as f64;
        }
        assert_close(
            dk,
            fact / 0.75_f64.powi(k as i32 + 1),
            1e-12,
            &format!("1/(1-x) order {k}"),
        );
    }
}
