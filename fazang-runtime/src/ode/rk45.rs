//! The Dormand-Prince 5(4) method with adaptive steps (Hairer, Nørsett and Wanner, Solving
//! ODEs I, II.5), on the state and its forward sensitivities together.
//!
//! The sensitivities `S = ∂y/∂(y0, θ)` are integrated as part of the state with the same
//! stages, `S' = ∂f/∂y S + ∂f/∂θ`, so they are the exact derivatives of the discrete
//! solution for the steps taken. Steps are shortened to land on each output time.

use super::control::{deriv, err_norm, initial_step, min_step, Outputs, Settings};
use super::eval::{EvalError, Jac, Rhs};
use super::system::OdeSystem;
use crate::dist::DomainError;

/// Nodes of the stages.
const C: [f64; 6] = [0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0];

/// The stage coefficients `a[i][j]`, `j < i`.
const A: [[f64; 5]; 6] = [
    [0.0; 5],
    [1.0 / 5.0, 0.0, 0.0, 0.0, 0.0],
    [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0],
    [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0],
    [
        19372.0 / 6561.0,
        -25360.0 / 2187.0,
        64448.0 / 6561.0,
        -212.0 / 729.0,
        0.0,
    ],
    [
        9017.0 / 3168.0,
        -355.0 / 33.0,
        46732.0 / 5247.0,
        49.0 / 176.0,
        -5103.0 / 18656.0,
    ],
];

/// The fifth-order weights (the solution advanced); the seventh stage is the derivative
/// at the new point (first same as last).
const B: [f64; 6] = [
    35.0 / 384.0,
    0.0,
    500.0 / 1113.0,
    125.0 / 192.0,
    -2187.0 / 6784.0,
    11.0 / 84.0,
];

/// Fifth- minus fourth-order weights over the seven stages: the local error estimate.
const E: [f64; 7] = [
    71.0 / 57600.0,
    0.0,
    -71.0 / 16695.0,
    71.0 / 1920.0,
    -17253.0 / 339200.0,
    22.0 / 525.0,
    -1.0 / 40.0,
];

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
    let mut k = vec![vec![0.0; len]; 7];
    deriv(rhs, &mut jac, t0, &z0, &mut k[0])?;
    let t_end = *ts.last().expect("checked: ts is not empty");
    let mut h = initial_step(rhs, set, t0, &z0[..n], &k[0][..n], t_end, 4)?;
    let (mut t, mut z) = (t0, z0);
    let (mut stage, mut z_new) = (vec![0.0; len], vec![0.0; len]);
    let (mut err, mut scale) = (vec![0.0; len], vec![0.0; len]);
    let mut last_failure = None;
    let mut out = Vec::with_capacity(ts.len());
    for &t_out in ts {
        let mut steps = 0;
        while t < t_out {
            if steps == set.max_steps {
                return Err(set.too_many_steps(t_out));
            }
            steps += 1;
            let lands = t + h >= t_out;
            let step = if lands { t_out - t } else { h };
            // Stages 2..6 and the new point.
            let mut ok = Ok(());
            for i in 1..6 {
                for (q, s) in stage.iter_mut().enumerate() {
                    let inc: f64 = (0..i).map(|j| A[i][j] * k[j][q]).sum();
                    *s = z[q] + step * inc;
                }
                ok = deriv(rhs, &mut jac, t + C[i] * step, &stage, &mut k[i]);
                if ok.is_err() {
                    break;
                }
            }
            if ok.is_ok() {
                for (q, zn) in z_new.iter_mut().enumerate() {
                    *zn = z[q] + step * (0..6).map(|j| B[j] * k[j][q]).sum::<f64>();
                }
                let t_next = if lands { t_out } else { t + step };
                ok = deriv(rhs, &mut jac, t_next, &z_new, &mut k[6]);
            }
            let factor = match ok {
                Ok(()) => {
                    for (q, e) in err.iter_mut().enumerate() {
                        *e = step * (0..7).map(|j| E[j] * k[j][q]).sum::<f64>();
                        scale[q] = set.atol + set.rtol * z[q].abs().max(z_new[q].abs());
                    }
                    let norm = err_norm(n, &err, &scale);
                    if norm <= 1.0 {
                        last_failure = None;
                        t = if lands { t_out } else { t + step };
                        std::mem::swap(&mut z, &mut z_new);
                        k.swap(0, 6);
                        if lands && step < h {
                            continue; // a shortened step says nothing about the next one
                        }
                        (0.9 * norm.powf(-0.2)).clamp(0.2, 10.0)
                    } else {
                        (0.9 * norm.powf(-0.2)).clamp(0.2, 1.0)
                    }
                }
                Err(EvalError::NonFinite(e)) => {
                    last_failure = Some(e);
                    0.25
                }
                Err(e @ EvalError::Fatal(_)) => return Err(e.into()),
            };
            h = step * factor;
            if h < min_step(t) {
                return Err(set.step_collapsed(h, t, last_failure));
            }
        }
        out.push(z.clone());
    }
    Ok(out)
}
