//! A variable-order (1 to 5), variable-step backward differentiation method for stiff
//! problems, with forward sensitivities by the staggered direct method.
//!
//! The method is the quasi-constant step-size NDF/BDF family of Shampine and Reichelt
//! ("The MATLAB ODE Suite", 1997) in the backward-difference form of scipy's `BDF`: a
//! table `D` of backward differences of the solution, rescaled when the step changes, a
//! predictor from `D`, and a simplified Newton iteration on the corrector with the matrix
//! `I - c ∂f/∂y`, refreshed only when Newton fails to converge.
//!
//! The sensitivities `S = ∂y/∂(y0, θ)` ride along in the same table (each difference of
//! `y` has the difference of `S` beside it). After Newton converges, the corrector
//! equation differentiated with respect to `(y0, θ)` is linear in the new `S`; it is solved
//! with the Jacobians at the new point, so `S` is the derivative of the discrete solution
//! for the steps taken. The sensitivities are in the error test.

use super::control::{err_norm, initial_step, min_step, Outputs, Settings};
use super::eval::{EvalError, Jac, Rhs};
use super::linalg::Lu;
use super::system::OdeSystem;
use crate::dist::DomainError;

const MAX_ORDER: usize = 5;
const NEWTON_MAXITER: usize = 4;
const MIN_FACTOR: f64 = 0.2;
const MAX_FACTOR: f64 = 10.0;
/// The NDF coefficients κ of Shampine and Reichelt (κ = 0 gives the BDFs).
const KAPPA: [f64; MAX_ORDER + 1] = [0.0, -0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0];

/// γ_k = Σ_{j ≤ k} 1/j, α_k = (1 - κ_k) γ_k, and the error constants κ_k γ_k + 1/(k+1).
struct Coefficients {
    gamma: [f64; MAX_ORDER + 1],
    alpha: [f64; MAX_ORDER + 1],
    error: [f64; MAX_ORDER + 1],
}

impl Coefficients {
    fn new() -> Coefficients {
        let mut c = Coefficients {
            gamma: [0.0; MAX_ORDER + 1],
            alpha: [0.0; MAX_ORDER + 1],
            error: [0.0; MAX_ORDER + 1],
        };
        for (k, kappa) in KAPPA.iter().enumerate() {
            if k > 0 {
                c.gamma[k] = c.gamma[k - 1] + 1.0 / k as f64;
            }
            c.alpha[k] = (1.0 - kappa) * c.gamma[k];
            c.error[k] = kappa * c.gamma[k] + 1.0 / (k + 1) as f64;
        }
        c
    }
}

/// A `(MAX_ORDER + 1)²` matrix, of which the leading `(order + 1)²` block is used.
type Mat = [[f64; MAX_ORDER + 1]; MAX_ORDER + 1];

/// The matrix taking the differences of the interpolating polynomial through points
/// spaced `h` apart to those of the same polynomial at spacing `factor · h` (with
/// `factor = 1`, the identity up to the `U` factor it is multiplied by).
fn compute_r(order: usize, factor: f64) -> Mat {
    let mut m = [[0.0; MAX_ORDER + 1]; MAX_ORDER + 1];
    m[0] = [1.0; MAX_ORDER + 1];
    for i in 1..=order {
        let above = m[i - 1];
        for (j, (x, a)) in m[i].iter_mut().zip(above).enumerate().take(order + 1) {
            let step = (i as f64 - 1.0 - factor * j as f64) / i as f64;
            *x = if j == 0 { 0.0 } else { a * step };
        }
    }
    m
}

/// Rescale the differences `d[..=order]` for a step `factor` times the current one
/// (`old` is scratch with as many rows).
fn change_d(d: &mut [Vec<f64>], old: &mut [Vec<f64>], order: usize, factor: f64) {
    let (r, u) = (compute_r(order, factor), compute_r(order, 1.0));
    // RU = R U; new d[i] = Σ_j RU[j][i] d[j].
    let mut ru = [[0.0; MAX_ORDER + 1]; MAX_ORDER + 1];
    for i in 0..=order {
        for j in 0..=order {
            ru[i][j] = (0..=order).map(|l| r[i][l] * u[l][j]).sum();
        }
    }
    for (o, di) in old.iter_mut().zip(d.iter()).take(order + 1) {
        o.copy_from_slice(di);
    }
    for (i, di) in d.iter_mut().enumerate().take(order + 1) {
        for (q, x) in di.iter_mut().enumerate() {
            *x = (0..=order).map(|j| ru[j][i] * old[j][q]).sum();
        }
    }
}

/// Buffers of one solve, allocated once.
struct Work {
    /// Scratch rows for [`change_d`].
    old: Vec<Vec<f64>>,
    /// The predicted augmented state, `ψ`, the corrector's difference, the new state,
    /// error weights and the weighted error (augmented length).
    pred: Vec<f64>,
    psi: Vec<f64>,
    diff: Vec<f64>,
    z_new: Vec<f64>,
    scale: Vec<f64>,
    err: Vec<f64>,
    /// State-length scratch: Newton's iterate, right-hand side, update, weights, LU scratch.
    y: Vec<f64>,
    f: Vec<f64>,
    dy: Vec<f64>,
    y_scale: Vec<f64>,
    tmp: Vec<f64>,
    /// `∂f/∂y S_pred + ∂f/∂θ` (`n × k`).
    js: Vec<f64>,
}

impl Work {
    fn new(n: usize, len: usize) -> Work {
        let v = |m| vec![0.0; m];
        Work {
            old: vec![v(len); MAX_ORDER + 1],
            pred: v(len),
            psi: v(len),
            diff: v(len),
            z_new: v(len),
            scale: v(len),
            err: v(len),
            y: v(n),
            f: v(n),
            dy: v(n),
            y_scale: v(n),
            tmp: v(n),
            js: v(len - n),
        }
    }
}

/// The integrator's state between steps.
struct Bdf<'r, 'a, F: ?Sized> {
    rhs: &'r mut Rhs<'a, F>,
    set: Settings,
    co: Coefficients,
    n: usize,
    t: f64,
    h_abs: f64,
    order: usize,
    equal_steps: usize,
    /// Backward differences of `[y, S]`, `MAX_ORDER + 3` rows.
    d: Vec<Vec<f64>>,
    jac: Jac,
    lu: Option<Lu>,
    newton_tol: f64,
    last_failure: Option<DomainError>,
    w: Work,
}

/// An accepted step: its size and order, its error norm (the error weights are left in
/// `w.scale`), and the safety factor from the Newton iterations it took.
struct Accepted {
    h: f64,
    order: usize,
    norm: f64,
    safety: f64,
}

/// What became of one attempt at a step.
enum Attempt {
    Accepted(Accepted),
    /// Rejected by the error test, or Newton did not converge: try again (shorter).
    Retry,
}

/// Integrate `z0 = [y0, S0]` from `t0` to each of `ts`.
pub(crate) fn solve<F: OdeSystem + ?Sized>(
    rhs: &mut Rhs<'_, F>,
    set: &Settings,
    t0: f64,
    z0: Vec<f64>,
    ts: &[f64],
) -> Result<Outputs, DomainError> {
    let (n, len) = (rhs.n, z0.len());
    let mut jac = Jac::new(n, rhs.np);
    let mut dz = vec![0.0; len];
    // The Newton matrix needs ∂f/∂y from the start.
    let (f0, s0) = dz.split_at_mut(n);
    rhs.jacobian(t0, &z0[..n], f0, &mut jac)?;
    rhs.sens(&jac, &z0[n..], s0);
    let t_end = *ts.last().expect("checked: ts is not empty");
    let h = initial_step(rhs, set, t0, &z0[..n], &dz[..n], t_end, 1)?;
    let mut d = vec![vec![0.0; len]; MAX_ORDER + 3];
    d[1] = dz.iter().map(|x| h * x).collect();
    d[0] = z0;
    let mut b = Bdf {
        rhs,
        set: *set,
        co: Coefficients::new(),
        n,
        t: t0,
        h_abs: h,
        order: 1,
        equal_steps: 0,
        d,
        jac,
        lu: None,
        newton_tol: (10.0 * f64::EPSILON / set.rtol).max(0.03_f64.min(set.rtol.sqrt())),
        last_failure: None,
        w: Work::new(n, len),
    };
    let mut out = Vec::with_capacity(ts.len());
    let mut steps = 0;
    while out.len() < ts.len() {
        let mut current_jac = false;
        let acc = loop {
            if steps == set.max_steps {
                return Err(set.too_many_steps(ts[out.len()]));
            }
            steps += 1;
            if let Attempt::Accepted(acc) = b.attempt(t_end, &mut current_jac)? {
                break acc;
            }
        };
        while out.len() < ts.len() && ts[out.len()] <= b.t {
            out.push(b.interpolate(ts[out.len()], acc.h, acc.order));
            steps = 0;
        }
        b.adapt_order(&acc);
    }
    Ok(out)
}

impl<F: OdeSystem + ?Sized> Bdf<'_, '_, F> {
    /// One attempt at a step of the current size and order (shortened to end at
    /// `t_bound`); `current_jac` says whether `∂f/∂y` was evaluated during this step.
    fn attempt(&mut self, t_bound: f64, current_jac: &mut bool) -> Result<Attempt, DomainError> {
        let n = self.n;
        if self.h_abs < min_step(self.t) {
            let e = self.last_failure.take();
            return Err(self.set.step_collapsed(self.h_abs, self.t, e));
        }
        let order = self.order;
        let mut t_new = self.t + self.h_abs;
        if t_new > t_bound {
            t_new = t_bound;
            let factor = (t_new - self.t) / self.h_abs;
            change_d(&mut self.d, &mut self.w.old, order, factor);
            self.equal_steps = 0;
            self.lu = None;
        }
        let h = t_new - self.t;
        self.h_abs = h;
        let alpha = self.co.alpha[order];
        let w = &mut self.w;
        w.pred.fill(0.0);
        w.psi.fill(0.0);
        for (j, dj) in self.d.iter().enumerate().take(order + 1) {
            let g = self.co.gamma[j] / alpha;
            for ((p, s), x) in w.pred.iter_mut().zip(&mut w.psi).zip(dj) {
                *p += x;
                *s += g * x;
            }
        }
        let c = h / alpha;
        let iterations = loop {
            if self.lu.is_none() {
                self.lu = Lu::of_newton_matrix(c, &self.jac.jy, n);
            }
            let result = match self.lu {
                Some(_) => self.newton(t_new, c),
                None => None,
            };
            if result.is_some() || *current_jac {
                break result;
            }
            let w = &mut self.w;
            match self
                .rhs
                .jacobian(t_new, &w.pred[..n], &mut w.f, &mut self.jac)
            {
                Ok(()) => {}
                Err(EvalError::NonFinite(e)) => {
                    self.last_failure = Some(e);
                    break None;
                }
                Err(e @ EvalError::Fatal(_)) => return Err(e.into()),
            }
            self.lu = None;
            *current_jac = true;
        };
        let Some(iterations) = iterations else {
            self.shrink(0.5);
            return Ok(Attempt::Retry);
        };
        if self.rhs.k() > 0 {
            if !self.sensitivities(t_new, c)? {
                self.shrink(0.5);
                return Ok(Attempt::Retry);
            }
            *current_jac = true;
        }
        let safety =
            0.9 * (2 * NEWTON_MAXITER + 1) as f64 / (2 * NEWTON_MAXITER + iterations) as f64;
        let w = &mut self.w;
        for (z, (p, d)) in w.z_new.iter_mut().zip(w.pred.iter().zip(&w.diff)) {
            *z = p + d;
        }
        self.set.scale(&w.z_new, &mut w.scale);
        let ec = self.co.error[order];
        for (e, d) in w.err.iter_mut().zip(&w.diff) {
            *e = ec * d;
        }
        let norm = err_norm(n, &w.err, &w.scale);
        if norm > 1.0 {
            let factor = MIN_FACTOR.max(safety * norm.powf(-1.0 / (order as f64 + 1.0)));
            self.h_abs *= factor;
            change_d(&mut self.d, &mut self.w.old, order, factor);
            self.equal_steps = 0;
            return Ok(Attempt::Retry);
        }
        self.last_failure = None;
        self.equal_steps += 1;
        self.t = t_new;
        let (d, diff) = (&mut self.d, &self.w.diff);
        for q in 0..diff.len() {
            d[order + 2][q] = diff[q] - d[order + 1][q];
            d[order + 1][q] = diff[q];
        }
        for i in (0..=order).rev() {
            let (lo, hi) = d.split_at_mut(i + 1);
            for (x, y) in lo[i].iter_mut().zip(&hi[0]) {
                *x += y;
            }
        }
        Ok(Attempt::Accepted(Accepted {
            h,
            order,
            norm,
            safety,
        }))
    }

    /// Retry with a step `factor` times shorter after a failure to converge.
    fn shrink(&mut self, factor: f64) {
        self.h_abs *= factor;
        change_d(&mut self.d, &mut self.w.old, self.order, factor);
        self.equal_steps = 0;
        self.lu = None;
    }

    /// Solve the corrector `d - c f(t, pred + d) + psi = 0` for the state part of
    /// `w.diff` by simplified Newton iterations with the current LU (the sensitivity part
    /// is zeroed); the iterations taken, or `None` if it does not converge.
    fn newton(&mut self, t: f64, c: f64) -> Option<usize> {
        let n = self.n;
        let lu = self.lu.as_ref().expect("factorised before Newton");
        let w = &mut self.w;
        self.set.scale(&w.pred[..n], &mut w.y_scale);
        w.y.copy_from_slice(&w.pred[..n]);
        w.diff.fill(0.0);
        let mut old_norm: Option<f64> = None;
        for k in 0..NEWTON_MAXITER {
            if let Err(e) = self.rhs.value(t, &w.y, &mut w.f) {
                if let EvalError::NonFinite(e) = e {
                    self.last_failure = Some(e);
                }
                return None;
            }
            for q in 0..n {
                w.dy[q] = c * w.f[q] - w.psi[q] - w.diff[q];
            }
            lu.solve(&mut w.dy, &mut w.tmp);
            let norm = err_norm(n, &w.dy, &w.y_scale);
            let rate = old_norm.map(|o| norm / o);
            if let Some(r) = rate {
                let left = (NEWTON_MAXITER - k) as i32;
                if r >= 1.0 || r.powi(left) / (1.0 - r) * norm > self.newton_tol {
                    return None;
                }
            }
            for q in 0..n {
                w.y[q] += w.dy[q];
                w.diff[q] += w.dy[q];
            }
            if norm == 0.0 || rate.is_some_and(|r| r / (1.0 - r) * norm < self.newton_tol) {
                return Some(k + 1);
            }
            old_norm = Some(norm);
        }
        None
    }

    /// The sensitivity part of `w.diff`: with `∂f/∂y` and `∂f/∂θ` at the new point, solve
    /// `(I - c ∂f/∂y) dS = c (∂f/∂y S_pred + ∂f/∂θ) - psi_S` column by column. `false` if
    /// the step must be retried (a non-finite right-hand side or a singular matrix there).
    fn sensitivities(&mut self, t: f64, c: f64) -> Result<bool, DomainError> {
        let (n, k) = (self.n, self.rhs.k());
        let w = &mut self.w;
        for q in 0..n {
            w.y[q] = w.pred[q] + w.diff[q];
        }
        match self.rhs.jacobian(t, &w.y, &mut w.f, &mut self.jac) {
            Ok(()) => {}
            Err(EvalError::NonFinite(e)) => {
                self.last_failure = Some(e);
                return Ok(false);
            }
            Err(e @ EvalError::Fatal(_)) => return Err(e.into()),
        }
        self.lu = Lu::of_newton_matrix(c, &self.jac.jy, n);
        let Some(lu) = &self.lu else {
            return Ok(false);
        };
        self.rhs.sens(&self.jac, &w.pred[n..], &mut w.js);
        for j in 0..k {
            for i in 0..n {
                w.dy[i] = c * w.js[i * k + j] - w.psi[n + i * k + j];
            }
            lu.solve(&mut w.dy, &mut w.tmp);
            for i in 0..n {
                w.diff[n + i * k + j] = w.dy[i];
            }
        }
        Ok(true)
    }

    /// The augmented state at `t` in the last step, from the interpolating polynomial of
    /// the differences (the step `h` and `order` just taken).
    fn interpolate(&self, t: f64, h: f64, order: usize) -> Vec<f64> {
        let mut z = self.d[0].clone();
        let mut p = 1.0;
        for j in 1..=order {
            p *= (t - (self.t - (j - 1) as f64 * h)) / (h * j as f64);
            for (zq, dq) in z.iter_mut().zip(&self.d[j]) {
                *zq += p * dq;
            }
        }
        z
    }

    /// After `order + 1` steps of one size, choose the order (one up, one down or the same)
    /// whose error estimate allows the longest next step, and that step.
    fn adapt_order(&mut self, acc: &Accepted) {
        let order = self.order;
        if self.equal_steps < order + 1 {
            return;
        }
        let (n, w) = (self.n, &mut self.w);
        let mut norm_of = |k: usize, row: &[f64]| {
            for (e, x) in w.err.iter_mut().zip(row) {
                *e = self.co.error[k] * x;
            }
            err_norm(n, &w.err, &w.scale)
        };
        let down = if order > 1 {
            norm_of(order - 1, &self.d[order])
        } else {
            f64::INFINITY
        };
        let up = if order < MAX_ORDER {
            norm_of(order + 1, &self.d[order + 2])
        } else {
            f64::INFINITY
        };
        let factors = [
            down.powf(-1.0 / order as f64),
            acc.norm.powf(-1.0 / (order + 1) as f64),
            up.powf(-1.0 / (order + 2) as f64),
        ];
        let (best, max) =
            factors.iter().enumerate().fold(
                (1, factors[1]),
                |b, (i, &f)| if f > b.1 { (i, f) } else { b },
            );
        self.order = order + best - 1;
        let factor = MAX_FACTOR.min(acc.safety * max);
        self.h_abs *= factor;
        change_d(&mut self.d, &mut self.w.old, self.order, factor);
        self.equal_steps = 0;
        self.lu = None;
    }
}
