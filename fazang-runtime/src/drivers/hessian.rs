//! Hessians and Hessian-vector products of closures, by reverse-over-forward: the closure
//! runs on dual numbers whose parts are `Var`s, so each tangent (a directional derivative
//! ∇f·v) is recorded on the tape and one backward sweep of it gives H v.
//!
//! A full Hessian seeds [`HESSIAN_LANES`] directions per pass (unit vectors), recording
//! the tangents of all of them in one evaluation and sweeping them together (the tape's
//! block sweep carries 8 adjoints per node), so n inputs take ⌈n/8⌉ passes; the gradient
//! comes with it (the tangents' values). Tangent lanes that are a constant zero (inputs
//! outside the pass's block) record nothing. Why this method: see the Hessian
//! tables of `docs/performance.md` (measured against forward-over-forward and num-dual).

use crate::forward::Dual;
use crate::tape::scope::NestedScope;
use crate::tape::var::{jacobian_into, new_vars, Var};

/// Directions per pass of [`hessian`]: the lanes of the tape's block sweep.
///
/// ```
/// assert_eq!(fazang::HESSIAN_LANES, 8);
/// ```
pub const HESSIAN_LANES: usize = crate::tape::stack::LANES;

/// The scalar of the closures [`hessian`] differentiates: a dual number over `Var` with
/// [`HESSIAN_LANES`] tangent lanes.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::{hessian, HessianScalar};
/// fn f(x: &[HessianScalar]) -> HessianScalar {
///     x[0] * x[1].exp()
/// }
/// let (_, _, h) = hessian(f, &[2.0, 0.0]);
/// assert_eq!(h, vec![vec![0.0, 1.0], vec![1.0, 2.0]]);
/// ```
pub type HessianScalar = Dual<Var, [Var; HESSIAN_LANES]>;

/// The scalar of the closures [`hessian_vector_product`] differentiates: a dual number
/// over `Var` with one tangent.
///
/// ```
/// use fazang::{hessian_vector_product, HvpScalar};
/// let f = |x: &[HvpScalar]| x[0] * x[0] * x[0];
/// assert_eq!(hessian_vector_product(f, &[2.0], &[1.0]).1, vec![12.0]);
/// ```
pub type HvpScalar = Dual<Var>;

/// Value, gradient and Hessian of `f: ℝⁿ → ℝ` at `x`: `(f(x), ∇f(x), rows)` with
/// `rows[i][j] = ∂²f/∂xᵢ∂xⱼ` (symmetric).
///
/// Write `f` once (a `#[differentiate]` function, or generic code over `S: Real`) and
/// pass `|x| f(x)`. Every math function, distribution and `#[deriv_rule]` function whose
/// partials are written in its arguments differentiates twice exactly; a rule that can
/// only give first derivatives panics, naming itself.
///
/// Runs on nested tape scopes (⌈n/8⌉ passes, each an evaluation on [`HessianScalar`]
/// and one block sweep) and leaves the tape as it found it.
///
/// # Example
///
/// ReverseDiffSource's Rosenbrock example, at (0.5, 2):
///
/// ```
/// use fazang::prelude::*;
/// use fazang::hessian;
/// #[differentiate]
/// fn rosenbrock(x: &[f64]) -> f64 {
///     (1.0 - x[0]).powi(2) + 100.0 * (x[1] - x[0].powi(2)).powi(2)
/// }
/// let (v, g, h) = hessian(|x| rosenbrock(x), &[0.5, 2.0]);
/// assert_eq!(v, 306.5);
/// assert_eq!(g, vec![-351.0, 350.0]);
/// assert_eq!(h, vec![vec![-498.0, -200.0], vec![-200.0, 200.0]]);
/// ```
pub fn hessian<F>(f: F, x: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>)
where
    F: Fn(&[HessianScalar]) -> HessianScalar,
{
    let n = x.len();
    let mut g = vec![0.0; n];
    let mut rows = vec![vec![0.0; n]; n];
    let mut value;
    let mut xs = vec![Var::constant(0.0); n];
    let mut inputs = Vec::with_capacity(n);
    let mut start = 0;
    loop {
        let _scope = NestedScope::begin();
        new_vars(x, &mut xs);
        inputs.clear();
        inputs.extend(xs.iter().enumerate().map(|(i, &v)| {
            let mut eps = [Var::constant(0.0); HESSIAN_LANES];
            if let Some(e) = i.checked_sub(start).and_then(|l| eps.get_mut(l)) {
                *e = Var::constant(1.0);
            }
            Dual::new(v, eps)
        }));
        let y = f(&inputs);
        value = y.re.val();
        let lanes = HESSIAN_LANES.min(n - start.min(n));
        for l in 0..lanes {
            g[start + l] = y.eps[l].val();
        }
        jacobian_into(&y.eps[..lanes], &xs, &mut rows[start..start + lanes]);
        start += HESSIAN_LANES;
        if start >= n {
            break;
        }
    }
    symmetrize(&mut rows);
    (value, g, rows)
}

/// The scalar of [`hessian_forward`] with `L` lanes: a dual number of dual numbers, the
/// inner one carrying `L` directions and the outer one `L` more (forward-over-forward).
pub type HessianFwdScalar<const L: usize> = Dual<Dual<f64, [f64; L]>, [Dual<f64, [f64; L]>; L]>;

/// Value, gradient and Hessian of `f: ℝⁿ → ℝ` by forward-over-forward: each evaluation
/// on [`HessianFwdScalar<L>`] gives an `L × L` block of the Hessian (the tape is not
/// used), so `n ≤ L` takes one evaluation and larger `n` takes one per block on or above
/// the diagonal. The fastest method for a few inputs (set `L` to their number); for
/// more, [`hessian`] (see the Hessian tables of `docs/performance.md`).
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::hessian_forward;
/// #[differentiate]
/// fn normal_lp(mu: f64, sigma: f64) -> f64 {
///     let z = (1.3 - mu) / sigma;
///     -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * z * z
/// }
/// let (_, g, h) = hessian_forward::<2, _>(|x| normal_lp(x[0], x[1]), &[0.5, 1.2]);
/// let z = 0.8 / 1.2;
/// assert!((g[0] - z / 1.2).abs() < 1e-15);
/// assert!((h[0][1] - (-2.0 * z / 1.44)).abs() < 1e-15);
/// ```
pub fn hessian_forward<const L: usize, F>(f: F, x: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>)
where
    F: Fn(&[HessianFwdScalar<L>]) -> HessianFwdScalar<L>,
{
    assert!(L > 0, "fazang: hessian_forward needs at least one lane");
    let n = x.len();
    let mut g = vec![0.0; n];
    let mut rows = vec![vec![0.0; n]; n];
    let mut value = f64::NAN;
    let blocks = n.div_ceil(L).max(1);
    let mut inputs = Vec::with_capacity(n);
    for bi in 0..blocks {
        for bj in bi..blocks {
            let (si, sj) = (bi * L, bj * L);
            inputs.clear();
            inputs.extend(x.iter().enumerate().map(|(k, &v)| {
                let mut inner = [0.0; L];
                if let Some(e) = k.checked_sub(si).and_then(|l| inner.get_mut(l)) {
                    *e = 1.0;
                }
                let mut outer = [Dual::constant(0.0); L];
                if let Some(e) = k.checked_sub(sj).and_then(|l| outer.get_mut(l)) {
                    *e = Dual::constant(1.0);
                }
                Dual::new(Dual::new(v, inner), outer)
            }));
            let y = f(&inputs);
            value = y.re.re;
            for (l, &d) in y.re.eps.iter().enumerate().take(n.saturating_sub(si)) {
                g[si + l] = d;
            }
            for (lj, col) in y.eps.iter().enumerate().take(n.saturating_sub(sj)) {
                for (li, &h) in col.eps.iter().enumerate().take(n.saturating_sub(si)) {
                    rows[si + li][sj + lj] = h;
                    rows[sj + lj][si + li] = h;
                }
            }
        }
    }
    (value, g, rows)
}

/// Replace `h` by (h + hᵀ)/2 (the rows of a Jacobian of a gradient agree with the columns
/// only up to rounding).
pub(crate) fn symmetrize(h: &mut [Vec<f64>]) {
    for i in 1..h.len() {
        let (upper, lower) = h.split_at_mut(i);
        for (j, row_j) in upper.iter_mut().enumerate() {
            let m = 0.5 * (lower[0][j] + row_j[i]);
            lower[0][j] = m;
            row_j[i] = m;
        }
    }
}

/// Value and Hessian-vector product `H(x) v` of `f: ℝⁿ → ℝ`, without forming the
/// Hessian: one evaluation on [`HvpScalar`] (the tangent along `v` recorded on the tape)
/// and one backward sweep, a few times the cost of a gradient.
///
/// Panics if `v` is not as long as `x`.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// use fazang::hessian_vector_product;
/// // f = x² y, H = [[2y, 2x], [2x, 0]]
/// let (v, hv) = hessian_vector_product(|x| x[0] * x[0] * x[1], &[3.0, 2.0], &[1.0, -1.0]);
/// assert_eq!(v, 18.0);
/// assert_eq!(hv, vec![4.0 - 6.0, 6.0]);
/// ```
pub fn hessian_vector_product<F>(f: F, x: &[f64], v: &[f64]) -> (f64, Vec<f64>)
where
    F: FnOnce(&[HvpScalar]) -> HvpScalar,
{
    assert_eq!(
        x.len(),
        v.len(),
        "fazang: hessian_vector_product needs a direction as long as x"
    );
    let _scope = NestedScope::begin();
    let mut xs = vec![Var::constant(0.0); x.len()];
    new_vars(x, &mut xs);
    let inputs: Vec<HvpScalar> = xs
        .iter()
        .zip(v)
        .map(|(&x, &d)| Dual::new(x, Var::constant(d)))
        .collect();
    let y = f(&inputs);
    let mut hv = vec![0.0; x.len()];
    crate::tape::var::grad_in_scope_into(y.eps, &xs, &mut hv);
    (y.re.val(), hv)
}
