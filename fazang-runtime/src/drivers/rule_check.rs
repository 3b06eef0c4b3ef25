//! Checking hand-written derivatives against finite differences (ChainRulesTestUtils'
//! `test_rrule`, for `#[deriv_rule]`).

use crate::drivers::reverse::jacobian;
use crate::tape::var::Var;
use std::fmt;

/// Value and derivatives of a function recorded on the tape, compared with its plain
/// `f64` version and with central finite differences: the result of
/// [`check_deriv_rule`] and [`check_deriv_rule_vec`].
///
/// Errors are mixed: `|recorded - reference| / max(1, |reference|)`, so absolute near
/// zero and relative for large values. A NaN on one side only counts as an infinite
/// error; NaN on both sides as none.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleCheck {
    /// Number of (point, output, quantity) comparisons made.
    pub checked: usize,
    /// The comparison with the largest error, if any was made.
    pub worst: Option<Mismatch>,
}

/// One comparison of a [`RuleCheck`]: where, what, and how far apart.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// Index of the point in the `points` given to the checker.
    pub point_index: usize,
    /// The point itself.
    pub point: Vec<f64>,
    /// Index of the output (0 for scalar functions).
    pub output: usize,
    /// Number of outputs of the function (1 for scalar functions).
    pub outputs: usize,
    /// What was compared.
    pub quantity: Quantity,
    /// What the `Var` version gives: its value, or the derivative recorded by the rule.
    pub recorded: f64,
    /// What it should be: the `f64` version's value, or the finite-difference estimate.
    pub reference: f64,
    /// `|recorded - reference| / max(1, |reference|)`.
    pub error: f64,
}

/// The quantity a [`Mismatch`] compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// The function's value (the `Var` version against the `f64` version).
    Value,
    /// The derivative with respect to argument `argument` (the rule against finite
    /// differences).
    Derivative {
        /// Index of the argument in the point.
        argument: usize,
    },
}

impl RuleCheck {
    /// The largest error found (0 if nothing was compared).
    pub fn max_error(&self) -> f64 {
        self.worst.as_ref().map_or(0.0, |m| m.error)
    }

    /// Whether something was compared and every error is at most `tol` (a check that
    /// compared nothing is not a success).
    pub fn is_ok(&self, tol: f64) -> bool {
        self.checked > 0 && self.max_error() <= tol
    }

    /// Panic, saying where and by how much, unless every error is at most `tol`
    /// (1e-6 suits most rules; the finite differences are accurate to about 1e-9); also
    /// panic if nothing was compared (no points were given, or the function has no output).
    #[track_caller]
    pub fn assert_ok(&self, tol: f64) {
        assert!(
            self.checked > 0,
            "fazang: the derivative rule check compared nothing, so it cannot pass: it was \
             given no points, or the function returned no output at any of them; give the \
             points to check at (e.g. `&[[0.3], [1.2], [-0.5]]`, away from kinks and \
             singularities) and a function with at least one output"
        );
        if let Some(m) = self.worst.as_ref().filter(|m| m.error > tol) {
            panic!(
                "fazang: the derivative rule disagrees with {}\n{m}\n  (the worst of {} \
                 comparisons; tolerance {tol:e})",
                match m.quantity {
                    Quantity::Value => "the f64 version of the function",
                    Quantity::Derivative { .. } => "finite differences",
                },
                self.checked
            );
        }
    }
}

impl fmt::Display for RuleCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.worst {
            None => write!(f, "nothing compared"),
            Some(m) => write!(f, "{} comparisons; worst:\n{m}", self.checked),
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "  at point #{} x = {:?}", self.point_index, self.point)?;
        let out = if self.outputs == 1 {
            "f".to_string()
        } else {
            format!("f[{}]", self.output)
        };
        let (what, recorded, reference) = match self.quantity {
            Quantity::Value => (
                format!("value of {out}"),
                "the Var version gives",
                "the f64 version gives",
            ),
            Quantity::Derivative { argument } => (
                format!("d{out}/dx[{argument}]"),
                "the rule gives",
                "finite differences give",
            ),
        };
        write!(
            f,
            "\n  {what}: {recorded} {}, {reference} {} (error {:.2e})",
            self.recorded, self.reference, self.error
        )
    }
}

/// Compare the derivatives a scalar function records on the tape (through its
/// `#[deriv_rule]`) with central finite differences of its `f64` version, at each point;
/// also compare the two versions' values.
///
/// `f_var` and `f_f64` are the same function called with `Var` and with `f64` arguments:
/// a `#[deriv_rule]` function is generic, so both closures usually have the same body.
/// The finite differences use a five-point stencil with step `1e-3 max(1, |x|)`; choose
/// points away from kinks and singularities.
///
/// With no points nothing is compared, and a check of nothing is no success: the result
/// is not [`is_ok`](RuleCheck::is_ok), and [`assert_ok`](RuleCheck::assert_ok) panics
/// saying so.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::check_deriv_rule;
///
/// #[deriv_rule(x => x.cos() / (1.0 + x.sin()))]
/// fn foo(x: f64) -> f64 {
///     (1.0 + x.sin()).ln()
/// }
///
/// check_deriv_rule(|x| foo(x[0]), |x| foo(x[0]), &[[0.3], [1.2], [-0.5]]).assert_ok(1e-8);
///
/// // A wrong rule is caught, with where and by how much:
/// #[deriv_rule(x => x.cos())]
/// fn bad(x: f64) -> f64 {
///     x.sin() * 2.0
/// }
/// let check = check_deriv_rule(|x| bad(x[0]), |x| bad(x[0]), &[[0.3]]);
/// assert!(!check.is_ok(1e-6));
/// let worst = check.worst.unwrap();
/// assert_eq!(worst.recorded, 0.3_f64.cos()); // the rule
/// assert!((worst.reference - 2.0 * 0.3_f64.cos()).abs() < 1e-9); // finite differences
/// ```
pub fn check_deriv_rule<P: AsRef<[f64]>>(
    f_var: impl Fn(&[Var]) -> Var,
    f_f64: impl Fn(&[f64]) -> f64,
    points: &[P],
) -> RuleCheck {
    check_deriv_rule_vec(|x| vec![f_var(x)], |x| vec![f_f64(x)], points)
}

/// [`check_deriv_rule`] for functions with vector outputs (such as
/// `#[deriv_rule(adjoint = ..)]` functions returning `Vec<f64>` or arrays): compares
/// every entry of the Jacobian.
///
/// ```
/// use fazang::check_deriv_rule_vec;
/// // out = (x y, x + y), written directly on Var
/// check_deriv_rule_vec(
///     |x| vec![x[0] * x[1], x[0] + x[1]],
///     |x| vec![x[0] * x[1], x[0] + x[1]],
///     &[[2.0, 5.0]],
/// )
/// .assert_ok(1e-8);
/// ```
///
/// With no points (or a function with no output) nothing is compared: the result is not
/// [`is_ok`](RuleCheck::is_ok), as [`check_deriv_rule`].
pub fn check_deriv_rule_vec<P: AsRef<[f64]>>(
    f_var: impl Fn(&[Var]) -> Vec<Var>,
    f_f64: impl Fn(&[f64]) -> Vec<f64>,
    points: &[P],
) -> RuleCheck {
    let mut check = RuleCheck {
        checked: 0,
        worst: None,
    };
    for (k, point) in points.iter().enumerate() {
        let point = point.as_ref();
        let (values, jac) = jacobian(&f_var, point);
        let reference = f_f64(point);
        let fd = finite_differences(&f_f64, point, reference.len());
        let outputs = reference.len();
        let at = |output, quantity, recorded, reference| Mismatch {
            point_index: k,
            point: point.to_vec(),
            output,
            outputs,
            quantity,
            recorded,
            reference,
            error: error(recorded, reference),
        };
        for (i, (&v, &r)) in values.iter().zip(&reference).enumerate() {
            check.record(at(i, Quantity::Value, v, r));
            for (j, (&d, &e)) in jac[i].iter().zip(&fd[i]).enumerate() {
                check.record(at(i, Quantity::Derivative { argument: j }, d, e));
            }
        }
        if values.len() != reference.len() {
            check.record(at(
                values.len().min(reference.len()),
                Quantity::Value,
                f64::NAN,
                0.0,
            ));
        }
    }
    check
}

impl RuleCheck {
    fn record(&mut self, m: Mismatch) {
        self.checked += 1;
        if self.worst.as_ref().is_none_or(|w| m.error > w.error) {
            self.worst = Some(m);
        }
    }
}

/// `|a - b| / max(1, |b|)`; infinite if exactly one side is NaN.
fn error(a: f64, b: f64) -> f64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0.0,
        (true, false) | (false, true) => f64::INFINITY,
        _ if a == b => 0.0,
        _ => (a - b).abs() / b.abs().max(1.0),
    }
}

/// `fd[i][j]` ≈ d f_i / d x_j by the five-point stencil
/// `(-f(x+2h) + 8f(x+h) - 8f(x-h) + f(x-2h)) / 12h`.
fn finite_differences(f: &impl Fn(&[f64]) -> Vec<f64>, x: &[f64], m: usize) -> Vec<Vec<f64>> {
    let mut fd = vec![vec![0.0; x.len()]; m];
    let mut xs = x.to_vec();
    for j in 0..x.len() {
        let h0 = 1e-3 * x[j].abs().max(1.0);
        // An exactly representable step, so x ± h differ from x by exactly h.
        let h = (x[j] + h0) - x[j];
        let mut at = |t: f64| {
            xs[j] = x[j] + t;
            let v = f(&xs);
            xs[j] = x[j];
            v
        };
        let (p2, p1, m1, m2) = (at(2.0 * h), at(h), at(-h), at(-2.0 * h));
        for (i, row) in fd.iter_mut().enumerate() {
            let g = |v: &Vec<f64>| v.get(i).copied().unwrap_or(f64::NAN);
            row[j] = (-g(&p2) + 8.0 * g(&p1) - 8.0 * g(&m1) + g(&m2)) / (12.0 * h);
        }
    }
    fd
}
