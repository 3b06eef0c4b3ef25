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

/// The matrix taking the differences of the interpolating polynomial through points
/// spaced `h` apart to those of the same polynomial at spacing `factor · h` (with
/// `factor = 1`, the identity up to the `U` factor it is multiplied by).
fn compute_r(order: usize, factor: f64) -> Vec<Vec<f64>> {
    let mut m = vec![vec![0.0; order + 1]; order + 1];
    m[0].fill(1.0);
    for (i, row) in m.iter_mut().enumerate().skip(1) {
        for (j, x) in row.iter_mut().enumerate().skip(1) {
            *x = (i as f64 - 1.0 - factor * j as f64) / i as f64;
        }
    }
    for i in 1..=order {
        let (above, below) = m.split_at_mut(i);
        for (x, a) in below[0].iter_mut().zip(&above[i - 1]) {
            *x *= a;
        }
    }
    m
}

/// Rescale the differences `d[..=order]` for a step `factor` times the current one.
fn change_d(d: &mut [Vec<f64>], order: usize, factor: f64) {
    let (r, u) = (compute_r(order, factor), compute_r(order, 1.0));
    // RU = R U; new d[i] = Σ_j RU[j][i] d[j].
    let ru: Vec<Vec<f64>> = (0..=order)
        .map(|i| {
            (0..=order)
                .map(|j| (0..=order).map(|l| r[i][l] * u[l][j]).sum())
                .collect()
        })
        .collect();
    let len = d[0].len();
    let old: Vec<Vec<f64>> = d[..=order].to_vec();
    for (i, di) in d.iter_mut().enumerate().take(order + 1) {
        for q in 0..len {
            di[q] = (0..=order).map(|j| ru[j][i] * old[j][q]).sum();
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
}

/// An accepted step: its size and order, its error norm and error weights, and the
/// safety factor from the Newton iterations it took (for the next step's size and order).
struct Accepted {
    h: f64,
    order: usize,
    norm: f64,
    safety: f64,
    scale: Vec<f64>,
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
    };
    let mut out = Vec::with_capacity(ts.len());
    let mut steps = 0;
    while out.len() < ts.len() {
        let t_old = b.t;
        let acc = b.step(t_end, &mut steps, ts[out.len()])?;
        while out.len() < ts.len() && ts[out.len()] <= b.t {
            out.push(b.interpolate(ts[out.len()], acc.h, acc.order));
            steps = 0;
        }
        debug_assert!(b.t > t_old);
        b.adapt_order(&acc);
    }
    Ok(out)
}

impl<F: OdeSystem + ?Sized> Bdf<'_, '_, F> {
    /// Take one step (retrying with smaller steps as needed), counting attempts against
    /// the budget for reaching `t_out`.
    fn step(
        &mut self,
        t_bound: f64,
        steps: &mut usize,
        t_out: f64,
    ) -> Result<Accepted, DomainError> {
        let (n, len) = (self.n, self.d[0].len());
        let mut current_jac = false;
        loop {
            if *steps == self.set.max_steps {
                return Err(self.set.too_many_steps(t_out));
            }
            *steps += 1;
            if self.h_abs < min_step(self.t) {
                let e = self.last_failure.take();
                return Err(self.set.step_collapsed(self.h_abs, self.t, e));
            }
            let order = self.order;
            let mut t_new = self.t + self.h_abs;
            if t_new > t_bound {
                t_new = t_bound;
                change_d(&mut self.d, order, (t_new - self.t) / self.h_abs);
                self.equal_steps = 0;
                self.lu = None;
            }
            let h = t_new - self.t;
            self.h_abs = h;
            let alpha = self.co.alpha[order];
            let mut pred = vec![0.0; len];
            let mut psi = vec![0.0; len];
            for (j, dj) in self.d.iter().enumerate().take(order + 1) {
                let g = self.co.gamma[j] / alpha;
                for q in 0..len {
                    pred[q] += dj[q];
                    psi[q] += g * dj[q];
                }
            }
            let c = h / alpha;
            let newton = loop {
                if self.lu.is_none() {
                    self.lu = Lu::of_newton_matrix(c, &self.jac.jy, n);
                }
                let result = match &self.lu {
                    Some(_) => self.newton(t_new, &pred[..n], &psi[..n], c),
                    None => None,
                };
                if result.is_some() || current_jac {
                    break result;
                }
                let mut f = vec![0.0; n];
                match self.rhs.jacobian(t_new, &pred[..n], &mut f, &mut self.jac) {
                    Ok(()) => {}
                    Err(EvalError::NonFinite(e)) => {
                        self.last_failure = Some(e);
                        break None;
                    }
                    Err(e @ EvalError::Fatal(_)) => return Err(e.into()),
                }
                self.lu = None;
                current_jac = true;
            };
            let Some((mut diff, iterations)) = newton else {
                self.shrink(0.5);
                continue;
            };
            if self.rhs.k() > 0 {
                match self.sensitivities(t_new, &pred, &psi, c, &mut diff)? {
                    true => current_jac = true,
                    false => {
                        self.shrink(0.5);
                        continue;
                    }
                }
            }
            let safety =
                0.9 * (2 * NEWTON_MAXITER + 1) as f64 / (2 * NEWTON_MAXITER + iterations) as f64;
            let mut scale = vec![0.0; len];
            let z_new: Vec<f64> = pred.iter().zip(&diff).map(|(p, d)| p + d).collect();
            self.set.scale(&z_new, &mut scale);
            let ec = self.co.error[order];
            let err: Vec<f64> = diff.iter().map(|d| ec * d).collect();
            let norm = err_norm(n, &err, &scale);
            if norm > 1.0 {
                let factor = MIN_FACTOR.max(safety * norm.powf(-1.0 / (order as f64 + 1.0)));
                self.h_abs *= factor;
                change_d(&mut self.d, order, factor);
                self.equal_steps = 0;
                continue;
            }
            self.last_failure = None;
            self.equal_steps += 1;
            self.t = t_new;
            let d = &mut self.d;
            for q in 0..len {
                d[order + 2][q] = diff[q] - d[order + 1][q];
                d[order + 1][q] = diff[q];
            }
            for i in (0..=order).rev() {
                let (lo, hi) = d.split_at_mut(i + 1);
                for (x, y) in lo[i].iter_mut().zip(&hi[0]) {
                    *x += y;
                }
            }
            return Ok(Accepted {
                h,
                order,
                norm,
                safety,
                scale,
            });
        }
    }

    /// Retry with a step `factor` times shorter after a failure to converge.
    fn shrink(&mut self, factor: f64) {
        self.h_abs *= factor;
        change_d(&mut self.d, self.order, factor);
        self.equal_steps = 0;
        self.lu = None;
    }

    /// Solve the corrector `d - c f(t, pred + d) + psi = 0` for the state part by
    /// simplified Newton iterations with the current LU; the difference `d` (as long as
    /// the augmented state, its sensitivity part zero) and the iterations taken, or
    /// `None` if it does not converge.
    fn newton(&mut self, t: f64, pred: &[f64], psi: &[f64], c: f64) -> Option<(Vec<f64>, usize)> {
        let n = self.n;
        let lu = self.lu.as_ref().expect("factorised before Newton");
        let mut scale = vec![0.0; n];
        self.set.scale(pred, &mut scale);
        let mut y = pred.to_vec();
        let mut d = vec![0.0; self.d[0].len()];
        let (mut f, mut dy, mut tmp) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let mut old_norm: Option<f64> = None;
        for k in 0..NEWTON_MAXITER {
            if let Err(e) = self.rhs.value(t, &y, &mut f) {
                if let EvalError::NonFinite(e) = e {
                    self.last_failure = Some(e);
                }
                return None;
            }
            for q in 0..n {
                dy[q] = c * f[q] - psi[q] - d[q];
            }
            lu.solve(&mut dy, &mut tmp);
            let norm = err_norm(n, &dy, &scale);
            let rate = old_norm.map(|o| norm / o);
            if let Some(r) = rate {
                let left = (NEWTON_MAXITER - k) as i32;
                if r >= 1.0 || r.powi(left) / (1.0 - r) * norm > self.newton_tol {
                    return None;
                }
            }
            for q in 0..n {
                y[q] += dy[q];
                d[q] += dy[q];
            }
            if norm == 0.0 || rate.is_some_and(|r| r / (1.0 - r) * norm < self.newton_tol) {
                return Some((d, k + 1));
            }
            old_norm = Some(norm);
        }
        None
    }

    /// The sensitivity part of the difference `diff`: with `∂f/∂y` and `∂f/∂θ` at the new
    /// point, solve `(I - c ∂f/∂y) dS = c (∂f/∂y S_pred + ∂f/∂θ) - psi_S` column by column.
    /// `false` if the step must be retried (a non-finite right-hand side or a singular
    /// matrix there).
    fn sensitivities(
        &mut self,
        t: f64,
        pred: &[f64],
        psi: &[f64],
        c: f64,
        diff: &mut [f64],
    ) -> Result<bool, DomainError> {
        let (n, k) = (self.n, self.rhs.k());
        let y: Vec<f64> = (0..n).map(|q| pred[q] + diff[q]).collect();
        let mut f = vec![0.0; n];
        match self.rhs.jacobian(t, &y, &mut f, &mut self.jac) {
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
        let mut js = vec![0.0; n * k];
        self.rhs.sens(&self.jac, &pred[n..], &mut js);
        let (mut col, mut tmp) = (vec![0.0; n], vec![0.0; n]);
        for j in 0..k {
            for i in 0..n {
                col[i] = c * js[i * k + j] - psi[n + i * k + j];
            }
            lu.solve(&mut col, &mut tmp);
            for i in 0..n {
                diff[n + i * k + j] = col[i];
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
        let n = self.n;
        let norm_of = |k: usize, row: &[f64]| {
            let e: Vec<f64> = row.iter().map(|x| self.co.error[k] * x).collect();
            err_norm(n, &e, &acc.scale)
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
        change_d(&mut self.d, self.order, factor);
        self.equal_steps = 0;
        self.lu = None;
    }
}
