//! What both integrators share: the augmented state, error norms, the first step size,
//! the step budget and the errors that end a solve.

use super::eval::{EvalError, Jac, Rhs};
use super::system::OdeSystem;
use crate::dist::{Constraint, DomainError};

/// Tolerances and budget of one solve, and the name errors carry.
#[derive(Clone, Copy)]
pub(crate) struct Settings {
    pub function: &'static str,
    pub rtol: f64,
    pub atol: f64,
    pub max_steps: usize,
}

impl Settings {
    /// The error weights `atol + rtol |z|` of the augmented state `z`.
    pub fn scale(&self, z: &[f64], out: &mut [f64]) {
        for (s, x) in out.iter_mut().zip(z) {
            *s = self.atol + self.rtol * x.abs();
        }
    }

    /// The error when the budget is used up before `t_out`.
    pub fn too_many_steps(&self, t_out: f64) -> DomainError {
        let c = Constraint::MaxSteps { t: t_out };
        DomainError::new(
            self.function,
            "max_num_steps",
            None,
            self.max_steps as f64,
            c,
        )
    }

    /// The error when the step size `h` at `t` fell to round-off; if the right-hand side
    /// returned a non-finite value on the way there, that is the cause reported.
    pub fn step_collapsed(&self, h: f64, t: f64, last: Option<DomainError>) -> DomainError {
        last.unwrap_or_else(|| {
            let c = Constraint::StepSize { t };
            DomainError::new(self.function, "step size", None, h, c)
        })
    }
}

/// The weighted RMS norm of `e / scale`, taken separately over the state (the first `n`
/// entries) and over the sensitivities (the rest), and the larger of the two: the
/// sensitivities are in the error test, as with CVODES' `errconS`, without diluting the
/// state's error.
pub(crate) fn err_norm(n: usize, e: &[f64], scale: &[f64]) -> f64 {
    let rms = |e: &[f64], s: &[f64]| {
        if e.is_empty() {
            return 0.0;
        }
        let ss: f64 = e.iter().zip(s).map(|(a, b)| (a / b) * (a / b)).sum();
        (ss / e.len() as f64).sqrt()
    };
    rms(&e[..n], &scale[..n]).max(rms(&e[n..], &scale[n..]))
}

/// Ten units in the last place of `t`: no step may be shorter.
pub(crate) fn min_step(t: f64) -> f64 {
    let a = t.abs();
    10.0 * (f64::from_bits(a.to_bits() + 1) - a)
}

/// The augmented derivative `[f, ∂f/∂y S + ∂f/∂θ]` at `(t, z)`, `z = [y, S]`: the state's
/// derivative on `f64` alone when there are no sensitivities, else from one recording.
pub(crate) fn deriv<F: OdeSystem + ?Sized>(
    rhs: &mut Rhs<'_, F>,
    jac: &mut Jac,
    t: f64,
    z: &[f64],
    dz: &mut [f64],
) -> Result<(), EvalError> {
    let n = rhs.n;
    if rhs.k() == 0 {
        return rhs.value(t, &z[..n], &mut dz[..n]);
    }
    let (f, s) = dz.split_at_mut(n);
    rhs.jacobian(t, &z[..n], f, jac)?;
    rhs.sens(jac, &z[n..], s);
    Ok(())
}

/// A first step size for a method whose error estimate has order `order` (Hairer, Nørsett
/// and Wanner, Solving ODEs I, II.4), from the state's derivative `f0` at `(t0, y0)`,
/// no longer than the span to `t_end`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn initial_step<F: OdeSystem + ?Sized>(
    rhs: &mut Rhs<'_, F>,
    set: &Settings,
    t0: f64,
    y0: &[f64],
    f0: &[f64],
    t_end: f64,
    order: i32,
) -> Result<f64, EvalError> {
    let n = y0.len();
    let mut scale = vec![0.0; n];
    set.scale(y0, &mut scale);
    let norm = |v: &[f64]| err_norm(n, v, &scale);
    let (d0, d1) = (norm(y0), norm(f0));
    let span = t_end - t0;
    let h0 = if d0 < 1e-5 || d1 < 1e-5 {
        1e-6
    } else {
        0.01 * d0 / d1
    }
    .min(span);
    let y1: Vec<f64> = y0.iter().zip(f0).map(|(y, f)| y + h0 * f).collect();
    let mut f1 = vec![0.0; n];
    rhs.value(t0 + h0, &y1, &mut f1)?;
    let df: Vec<f64> = f1.iter().zip(f0).map(|(a, b)| a - b).collect();
    let d2 = norm(&df) / h0;
    let h1 = if d1.max(d2) <= 1e-15 {
        (h0 * 1e-3).max(1e-6)
    } else {
        (0.01 / d1.max(d2)).powf(1.0 / f64::from(order + 1))
    };
    Ok((100.0 * h0).min(h1).min(span))
}

/// The solution and its sensitivities at each output time: `[y, S]`, `S` row-major
/// `n × k`.
pub(crate) type Outputs = Vec<Vec<f64>>;
