//! Ordinary differential equations `dy/dt = f(t, y, θ)` solved inside differentiated
//! code, after Fazang's `cvodes_sol` and Stan's `ode_bdf`/`ode_rk45`.
//!
//! The right-hand side is written once ([`OdeSystem`], usually through
//! [`ode_system!`](crate::ode_system) over a `#[differentiate]` function); the Jacobians
//! the solvers need come from the tape. The initial state `y0`, the parameters `θ`, both
//! or neither may be active, with any number of parameters. The solution comes back at
//! the requested times as the same scalar type: with active inputs each value is one
//! node on the tape whose partials are the forward sensitivities `∂y(t)/∂(y0, θ)`,
//! integrated beside the state, so a log density over the solution gets its gradient
//! like any other (the integrator's own arithmetic is never taped).
//!
//! | solver | method | for |
//! | --- | --- | --- |
//! | [`ode_bdf`] | variable order (1-5) backward differentiation (NDF), Newton with `∂f/∂y` | stiff problems |
//! | [`ode_rk45`] | Dormand-Prince 5(4), adaptive | non-stiff problems |
//!
//! Both take [`OdeTol`] (Fazang's `cvodes_tol`: relative and absolute tolerance, maximum
//! number of steps between output times). Bad arguments and failed solves are
//! [`DomainError`]s naming the function, the argument and the value.
//!
//! The output times `ts` may be active too (`∂y(tᵢ)/∂tᵢ = f(tᵢ, y(tᵢ))`); `t0` is data.
//! The sensitivities are part of the error test (as CVODES' `errconS`), so a solve with
//! active inputs may take more steps than the same solve on `f64`.
//!
//! # Second derivatives
//!
//! Every scalar works, first and second order alike: `Var` (gradients), dual numbers
//! (`_jvp`, [`jvp`](crate::jvp)), and the second-order ones of `_hessian`, `_hvp`,
//! [`hessian`](crate::hessian), [`hessian_forward`](crate::hessian_forward),
//! [`hessian_vector_product`](crate::hessian_vector_product) (forward-over-forward and
//! reverse-over-forward), nested [`derivative`](crate::derivative) calls and second-order
//! [`Taylor`](crate::Taylor) and [`Jet`](crate::Jet) series. For a second-order scalar the
//! solver integrates the state and its sensitivities `[y, S]` as one system, with the
//! sensitivities of that system: the sensitivity equations differentiated again, so
//! second derivatives are exact to the tolerance (at the cost of a system `1 + k` times
//! larger for `k` sensitivity columns). Mixed derivatives in an output time and in `y0`
//! or `θ` are exact too. Two cases panic with a message naming the solver, never give a
//! number: a second derivative in an output time `tᵢ` itself (it needs `∂f/∂t`, and the
//! right-hand side takes `t` as data: pass such times as data), and third or higher
//! derivatives.
//!
//! ```
//! use fazang::prelude::*;
//!
//! #[differentiate(wrt(y, k))]
//! fn decay(_t: f64, y: &[f64], k: &[f64]) -> Vec<f64> {
//!     vec![-k[0] * y[0]]
//! }
//! ode_system!(Decay = decay);
//!
//! // y(t) = y0 exp(-k t): ∂²y/∂y0∂k = -t e^(-kt), ∂²y/∂k² = t² y.
//! #[differentiate(wrt(y0, k))]
//! fn y_at(y0: f64, k: f64, t: f64) -> Result<f64, DomainError> {
//!     let tol = OdeTol::new(1e-10, 1e-10, 10_000);
//!     Ok(ode_rk45(&Decay, &[y0], 0.0, &[t], &[k], tol)?[0][0])
//! }
//!
//! let (y, _, h) = y_at_hessian(2.0, 0.7, 3.0)?;
//! let e = (-2.1_f64).exp();
//! assert!((h[0][1] - -3.0 * e).abs() < 1e-7 && (h[1][1] - 9.0 * y).abs() < 1e-7);
//! // The same mixed derivative by nested forward mode.
//! use fazang::{derivative, Fwd};
//! let d = derivative(|y0: Fwd| derivative(|k: Fwd| y_at(y0, k, 3.0).unwrap(), 0.7), 2.0);
//! assert!((d.val() - -3.0 * e).abs() < 1e-7);
//! # Ok::<(), DomainError>(())
//! ```
//!
//! # Example
//!
//! Fazang's second example, `y1' = y2`, `y2' = sin(θ1 θ2 θ3 t)`, whose solution is known
//! in closed form; the gradient of `y1(4.8)` with respect to `θ1`:
//!
//! ```
//! use fazang::prelude::*;
//!
//! #[differentiate]
//! fn forced(t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
//!     vec![y[1], (p[0] * p[1] * p[2] * t).sin()]
//! }
//! ode_system!(Forced = forced);
//!
//! #[differentiate]
//! fn y1_at_end(p: &[f64]) -> Result<f64, DomainError> {
//!     let tol = OdeTol::new(1e-10, 1e-10, 100_000);
//!     let ys = ode_bdf(&Forced, &[0.2, 0.8], 0.0, &[1.2, 2.4, 4.8], p, tol)?;
//!     Ok(ys[2][0])
//! }
//!
//! let (y, g) = y1_at_end_grad(&[0.5, 1.0, 1.0])?;
//! // y1(t) = 0.2 + 0.8 t + t/w - sin(w t)/w², w = θ1 θ2 θ3
//! let (w, t) = (0.5_f64, 4.8_f64);
//! assert!((y - (0.2 + 0.8 * t + t / w - (w * t).sin() / (w * w))).abs() < 1e-7);
//! let dw = -t / (w * w) - t * (w * t).cos() / (w * w) + 2.0 * (w * t).sin() / (w * w * w);
//! assert!((g[0] - dw).abs() < 1e-6);
//! # Ok::<(), DomainError>(())
//! ```

mod augmented;
mod bdf;
mod control;
mod eval;
mod linalg;
mod nested;
mod rk45;
mod system;

pub use system::OdeSystem;

use crate::dist::args::{Args, Ret};
use crate::dist::check::check_finite;
use crate::dist::{Constraint, DomainError};
use crate::Real;
use control::{Outputs, Settings};
use eval::Rhs;

/// Solver controls, as Fazang's `cvodes_tol(method, rtol, atol, max_steps)`: relative and
/// absolute tolerance of the local error (of the state and of its sensitivities), and the
/// most steps a solver may attempt between two output times.
///
/// ```
/// use fazang::prelude::*;
/// let tol = OdeTol::new(1e-8, 1e-10, 5_000);
/// assert_eq!((tol.rtol, tol.atol, tol.max_num_steps), (1e-8, 1e-10, 5_000));
/// assert_eq!(OdeTol::default(), OdeTol::new(1e-6, 1e-6, 1_000_000)); // Stan's defaults
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OdeTol {
    /// Relative tolerance (> 0).
    pub rtol: f64,
    /// Absolute tolerance (> 0).
    pub atol: f64,
    /// Steps (accepted or rejected) allowed between two output times (> 0).
    pub max_num_steps: usize,
}

impl OdeTol {
    /// Tolerances `rtol`, `atol` and the step budget `max_num_steps`.
    ///
    /// ```
    /// # use fazang::prelude::*;
    /// let tol = OdeTol::new(1e-10, 1e-10, 1000); // Fazang's cvodes_tol(CV_BDF, 1.d-10, 1.d-10, 1000)
    /// # let _ = tol;
    /// ```
    pub fn new(rtol: f64, atol: f64, max_num_steps: usize) -> OdeTol {
        OdeTol {
            rtol,
            atol,
            max_num_steps,
        }
    }
}

impl Default for OdeTol {
    /// Stan's defaults for `ode_rk45`: `rtol = atol = 1e-6`, a million steps.
    fn default() -> OdeTol {
        OdeTol::new(1e-6, 1e-6, 1_000_000)
    }
}

/// The solution of a stiff ODE at times `ts`, by a variable-order backward differentiation
/// method: `result[i][j]` is `y_j(ts[i])`.
///
/// `y0` is the state at `t0`, `theta` the parameters passed to the right-hand side; each
/// may be data (`f64`) or active, and the result is active if either is. Requires `y0`
/// non-empty and finite, `t0` finite and before `ts[0]`, `ts` finite and strictly
/// increasing, `theta` finite, tolerances positive and finite, a budget of at least one
/// step; the right-hand side must return as many finite values as there are states.
///
/// ```
/// use fazang::prelude::*;
///
/// // Robertson's chemical kinetics: stiff (rates from 0.04 to 3e7).
/// #[differentiate]
/// fn robertson(_t: f64, y: &[f64], k: &[f64]) -> Vec<f64> {
///     let r1 = k[0] * y[0];
///     let r2 = k[1] * y[1] * y[2];
///     let r3 = k[2] * y[1] * y[1];
///     vec![-r1 + r2, r1 - r2 - r3, r3]
/// }
/// ode_system!(Robertson = robertson);
///
/// let tol = OdeTol::new(1e-8, 1e-10, 10_000);
/// let ys = ode_bdf(&Robertson, &[1.0, 0.0, 0.0], 0.0, &[40.0], &[0.04, 1e4, 3e7], tol)?;
/// assert!((ys[0][0] - 0.7158).abs() < 1e-4);
/// # Ok::<(), DomainError>(())
/// ```
pub fn ode_bdf<'a, F, Y, T, P>(
    f: &F,
    y0: &'a [Y],
    t0: f64,
    ts: &'a [T],
    theta: &'a [P],
    tol: OdeTol,
) -> OdeResult<'a, Y, T, P>
where
    F: OdeSystem + ?Sized,
    Y: Real,
    T: Real,
    P: Real,
    (&'a [Y], &'a [P], &'a [T]): Args,
{
    solve("ode_bdf", Method::Bdf, f, y0, t0, ts, theta, tol)
}

/// The solution of a non-stiff ODE at times `ts`, by the adaptive Dormand-Prince 5(4)
/// method: `result[i][j]` is `y_j(ts[i])`. Arguments and errors as for [`ode_bdf`]; on a
/// stiff problem it exhausts its step budget (use [`ode_bdf`] there).
///
/// ```
/// use fazang::prelude::*;
///
/// // y' = -k y: y(t) = y0 exp(-k t), dy/dk = -t y(t), dy/dy0 = exp(-k t).
/// #[differentiate]
/// fn decay(_t: f64, y: &[f64], k: &[f64]) -> Vec<f64> {
///     vec![-k[0] * y[0]]
/// }
/// ode_system!(Decay = decay);
///
/// let (y0, k) = (Var::new(2.0), Var::new(0.5));
/// let tol = OdeTol::new(1e-10, 1e-10, 10_000);
/// let ys = ode_rk45(&Decay, &[y0], 0.0, &[3.0], &[k], tol)?;
/// ys[0][0].grad();
/// let e = (-1.5_f64).exp();
/// assert!((ys[0][0].val() - 2.0 * e).abs() < 1e-9);
/// assert!((y0.adj() - e).abs() < 1e-9 && (k.adj() + 3.0 * 2.0 * e).abs() < 1e-8);
/// # fazang::clear_tape();
/// # Ok::<(), DomainError>(())
/// ```
pub fn ode_rk45<'a, F, Y, T, P>(
    f: &F,
    y0: &'a [Y],
    t0: f64,
    ts: &'a [T],
    theta: &'a [P],
    tol: OdeTol,
) -> OdeResult<'a, Y, T, P>
where
    F: OdeSystem + ?Sized,
    Y: Real,
    T: Real,
    P: Real,
    (&'a [Y], &'a [P], &'a [T]): Args,
{
    solve("ode_rk45", Method::Rk45, f, y0, t0, ts, theta, tol)
}

#[derive(Clone, Copy)]
enum Method {
    Bdf,
    Rk45,
}

/// The scalar of the solution for initial state `Y`, times `T` and parameters `P`:
/// `f64` if all are data, else the active type.
///
/// ```
/// use fazang::ode::Solution;
/// use fazang::Var;
/// let _: Solution<'_, f64, f64, f64> = 1.0_f64;
/// let _: Solution<'_, f64, f64, Var> = Var::from(1.0);
/// ```
pub type Solution<'a, Y, T, P> = Ret<(&'a [Y], &'a [P], &'a [T])>;

/// What [`ode_bdf`] and [`ode_rk45`] return: `y[i][j]`, state `j` at time `ts[i]`.
///
/// ```
/// use fazang::ode::OdeResult;
/// let ok: OdeResult<'_, f64, f64, f64> = Ok(vec![vec![1.0, 2.0]]);
/// assert_eq!(ok.unwrap()[0][1], 2.0);
/// ```
pub type OdeResult<'a, Y, T, P> = Result<Vec<Vec<Solution<'a, Y, T, P>>>, DomainError>;

/// Check the arguments, integrate values and sensitivities, and record one result per
/// output with the sensitivities as its partials (first and second derivatives of the
/// solution when the scalar carries them, see `nested`).
#[allow(clippy::too_many_arguments)]
fn solve<'a, F, Y, T, P>(
    function: &'static str,
    method: Method,
    f: &F,
    y0: &'a [Y],
    t0: f64,
    ts: &'a [T],
    theta: &'a [P],
    tol: OdeTol,
) -> OdeResult<'a, Y, T, P>
where
    F: OdeSystem + ?Sized,
    Y: Real,
    T: Real,
    P: Real,
    (&'a [Y], &'a [P], &'a [T]): Args,
{
    let tv: Vec<f64> = ts.iter().map(Real::val).collect();
    check_arguments(function, y0, t0, &tv, theta, &tol)?;
    let set = Settings {
        function,
        rtol: tol.rtol,
        atol: tol.atol,
        max_steps: tol.max_num_steps,
    };
    if nested::needs_second_order(y0, ts, theta) {
        return nested::solve(method, &set, f, y0, t0, ts, &tv, theta);
    }
    first_order(method, &set, f, y0, t0, ts, &tv, theta)
}

/// The solution with first-order sensitivities as the partials of each output.
#[allow(clippy::too_many_arguments)]
fn first_order<'a, F, Y, T, P>(
    method: Method,
    set: &Settings,
    f: &F,
    y0: &'a [Y],
    t0: f64,
    ts: &'a [T],
    tv: &[f64],
    theta: &'a [P],
) -> OdeResult<'a, Y, T, P>
where
    F: OdeSystem + ?Sized,
    Y: Real,
    T: Real,
    P: Real,
    (&'a [Y], &'a [P], &'a [T]): Args,
{
    let args = (y0, theta, ts);
    let active = <(&[Y], &[P], &[T]) as Args>::active();
    let n = y0.len();
    let ny = if active[0] { n } else { 0 };
    let thv: Vec<f64> = theta.iter().map(Real::val).collect();
    let mut rhs = Rhs::new(f, set.function, thv, n, ny);
    if active[1] {
        rhs = rhs.with_active_theta();
    }
    let k = rhs.k();
    // z0 = [y0, S0], S0 = ∂y0/∂(y0, θ) = [I | 0].
    let mut z0: Vec<f64> = y0.iter().map(Real::val).collect();
    z0.resize(n + n * k, 0.0);
    for i in 0..ny {
        z0[n + i * k + i] = 1.0;
    }
    let zs = integrate(method, &mut rhs, set, t0, z0, tv)?;
    let mut dydt = vec![0.0; if active[2] { n } else { 0 }];
    let mut out = Vec::with_capacity(zs.len());
    for (ti, z) in zs.iter().enumerate() {
        if active[2] {
            // ∂y(tᵢ)/∂tᵢ = f(tᵢ, y(tᵢ)).
            rhs.value(tv[ti], &z[..n], &mut dydt)?;
        }
        let row = (0..n).map(|i| {
            let s = &z[n + i * k..n + (i + 1) * k];
            Solution::<Y, T, P>::from_partials(z[i], |p| {
                for (j, &d) in s[..ny].iter().enumerate() {
                    args.push(p, 0, j, d);
                }
                for (j, &d) in s[ny..].iter().enumerate() {
                    args.push(p, 1, j, d);
                }
                if let Some(&d) = dydt.get(i) {
                    args.push(p, 2, ti, d);
                }
            })
        });
        out.push(row.collect());
    }
    Ok(out)
}

/// Integrate `z0 = [y0, S0]` by `method` to each of `ts`.
fn integrate<F: OdeSystem + ?Sized>(
    method: Method,
    rhs: &mut Rhs<'_, F>,
    set: &Settings,
    t0: f64,
    z0: Vec<f64>,
    ts: &[f64],
) -> Result<Outputs, DomainError> {
    match method {
        Method::Bdf => bdf::solve(rhs, set, t0, z0, ts),
        Method::Rk45 => rk45::solve(rhs, set, t0, z0, ts),
    }
}

/// Stan's checks of the arguments of an ODE solve, in its order.
fn check_arguments<Y: Real, P: Real>(
    function: &'static str,
    y0: &[Y],
    t0: f64,
    ts: &[f64],
    theta: &[P],
    tol: &OdeTol,
) -> Result<(), DomainError> {
    let error = |name, index, value, c| Err(DomainError::new(function, name, index, value, c));
    if y0.is_empty() {
        return error("initial state", None, 0.0, Constraint::NonzeroSize);
    }
    check_finite(function, "initial state", y0)?;
    check_finite(function, "initial time", t0)?;
    if ts.is_empty() {
        return error("times", None, 0.0, Constraint::NonzeroSize);
    }
    check_finite(function, "times", ts)?;
    for (i, w) in ts.windows(2).enumerate() {
        if w[1] <= w[0] {
            return error(
                "times",
                Some(i + 1),
                w[1],
                Constraint::Increasing { previous: w[0] },
            );
        }
    }
    if t0 >= ts[0] {
        return error("initial time", None, t0, Constraint::Less { high: ts[0] });
    }
    check_finite(function, "parameters", theta)?;
    let positive = |name, v: f64| match v > 0.0 && v.is_finite() {
        true => Ok(()),
        false => error(name, None, v, Constraint::PositiveFinite),
    };
    positive("relative_tolerance", tol.rtol)?;
    positive("absolute_tolerance", tol.atol)?;
    if tol.max_num_steps == 0 {
        let e = DomainError::new(function, "max_num_steps", None, 0.0, Constraint::Positive);
        return Err(e.integers(true, false));
    }
    Ok(())
}
