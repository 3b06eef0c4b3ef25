//! Robertson's stiff chemical kinetics: the explicit method runs out of steps with a
//! clear error, the BDF method solves it within the same budget, and its sensitivities
//! agree with finite differences of much tighter solves; a stiff linear system's solution,
//! sensitivities and Hessian against its matrix exponential.
//!
//! Reference values at t = 40: Hairer and Wanner, Solving ODEs II (the Robertson problem,
//! computed there at tight tolerance); the sum of the three concentrations stays 1.

mod ode_support;
#[path = "ode_support/second_order.rs"]
mod second_order;

use fazang::dist::Constraint;
use fazang::prelude::*;
use ode_support::*;
use second_order::{assert_entries, assert_rows, stiff_linear_exact, StiffLinear};

const Y0: [f64; 3] = [1.0, 0.0, 0.0];
const K: [f64; 3] = [0.04, 1e4, 3e7];
const TS: [f64; 3] = [0.4, 4.0, 40.0];
const Y40: [f64; 3] = [0.7158270687193834, 9.185534764529798e-6, 0.2841637457458802];

#[test]
fn bdf_solves_robertson_within_the_budget() {
    let tol = OdeTol::new(1e-10, 1e-14, 1000);
    let ys = ode_bdf(&Robertson, &Y0, 0.0, &TS, &K, tol).unwrap();
    for y in &ys {
        assert_close(y.iter().sum(), 1.0, 1e-9, "mass");
    }
    assert_close(ys[2][0], Y40[0], 1e-8, "y1(40)");
    assert_close(ys[2][1] / Y40[1], 1.0, 1e-6, "y2(40)");
    assert_close(ys[2][2], Y40[2], 1e-8, "y3(40)");
}

#[test]
fn rk45_exceeds_the_budget_with_a_clear_error() {
    let tol = OdeTol::new(1e-10, 1e-14, 1000);
    let e = ode_rk45(&Robertson, &Y0, 0.0, &TS, &K, tol).unwrap_err();
    assert_eq!(
        e.to_string(),
        "ode_rk45: Failed to integrate to next output time (4) in less than max_num_steps (1000) steps"
    );
    assert_eq!(
        (e.function(), e.argument(), e.value()),
        ("ode_rk45", "max_num_steps", 1000.0)
    );
    assert_eq!(e.constraint(), Constraint::MaxSteps { t: 4.0 });
}

/// The log-sensitivities k_j ∂y_i/∂k_j / y_i of Robertson's solution at `TS` (rows
/// time-major, then state) by central differences in ln k of tightly solved primals.
fn robertson_log_sensitivities_fd() -> Vec<Vec<f64>> {
    let tight = OdeTol::new(1e-12, 1e-18, 100_000);
    let solve = |lk: &[f64]| {
        let k: Vec<f64> = lk.iter().map(|x| x.exp()).collect();
        ode_bdf(&Robertson, &Y0, 0.0, &TS, &k, tight)
            .unwrap()
            .concat()
    };
    let lk: Vec<f64> = K.iter().map(|k| k.ln()).collect();
    let y = solve(&lk);
    let h = 1e-4;
    let columns: Vec<Vec<f64>> = (0..3)
        .map(|j| {
            let (mut up, mut down) = (lk.clone(), lk.clone());
            up[j] += h;
            down[j] -= h;
            let (a, b) = (solve(&up), solve(&down));
            (0..y.len())
                .map(|i| (a[i] - b[i]) / (2.0 * h) / y[i])
                .collect()
        })
        .collect();
    (0..y.len())
        .map(|i| columns.iter().map(|c| c[i]).collect())
        .collect()
}

#[test]
fn bdf_gradient_of_a_stiff_solution() {
    // The gradient with active rates, through the tape, against finite differences of
    // solves 100 times tighter: log-sensitivities from 5e-4 to 1 agree to 2e-9.
    let tol = OdeTol::new(1e-10, 1e-14, 1000);
    let (v, g) = gradient(
        |k| {
            let ys = ode_bdf(&Robertson, &Y0, 0.0, &TS, k, tol).unwrap();
            ys[2][0].ln()
        },
        &K,
    );
    assert_close(v, Y40[0].ln(), 1e-8, "ln y1(40)");
    let fd = robertson_log_sensitivities_fd();
    let (vals, jac) = jacobian(
        |k| ode_bdf(&Robertson, &Y0, 0.0, &TS, k, tol).unwrap().concat(),
        &K,
    );
    // d ln y1(40) / d ln k_j is row 6 of the log-sensitivities.
    let dlog: Vec<f64> = g.iter().zip(&K).map(|(g, k)| g * k).collect();
    assert_entries(&dlog, &fd[6], 1e-6, 1e-7, "d ln y1(40) / d ln k");
    for (i, (row, fd_row)) in jac.iter().zip(&fd).enumerate() {
        let log: Vec<f64> = row.iter().zip(&K).map(|(d, k)| d * k / vals[i]).collect();
        assert_entries(&log, fd_row, 1e-6, 1e-7, &format!("output {i}"));
    }
    // Mass is conserved for every k: the sensitivities of the three states sum to 0.
    for j in 0..3 {
        let s: f64 = (6..9).map(|i| jac[i][j] * K[j]).sum();
        assert!(s.abs() < 1e-8, "Σ k ∂y/∂k[{j}] = {s:e}");
    }
}

const LIN_Y0: [f64; 2] = [1.5, 2.0];
const LIN_P: [f64; 2] = [0.5, 1e4];
const LIN_TS: [f64; 4] = [1e-4, 3e-4, 0.1, 5.0];

#[test]
fn a_stiff_linear_system_against_its_matrix_exponential() {
    // Rates 0.5 and 1e4: the explicit method would need ~10⁴ steps, BDF takes few.
    let tol = OdeTol::new(1e-10, 1e-12, 2_000);
    let x: Vec<f64> = LIN_Y0.iter().chain(&LIN_P).copied().collect();
    let (vals, jac) = jacobian(
        |x| {
            ode_bdf(&StiffLinear, &x[..2], 0.0, &LIN_TS, &x[2..], tol)
                .unwrap()
                .concat()
        },
        &x,
    );
    for (ti, &t) in LIN_TS.iter().enumerate() {
        for (i, ex) in stiff_linear_exact(LIN_Y0, LIN_P[0], LIN_P[1], t)
            .iter()
            .enumerate()
        {
            let what = format!("y{i}({t})");
            let r = 2 * ti + i;
            assert_entries(&[vals[r]], &[ex.value], 1e-7, 1e-11, &what);
            // ∂/∂b is tiny where e^(-bt) has decayed: per entry, with an absolute floor
            // at the tolerance.
            assert_entries(&jac[r], &ex.grad, 1e-6, 1e-10, &what);
        }
    }
    assert!(ode_rk45(&StiffLinear, &LIN_Y0, 0.0, &LIN_TS, &LIN_P, tol).is_err());
}

/// y1 of the stiff linear system at `t`.
#[differentiate(wrt(y0, p))]
fn stiff_y1(y0: &[f64], p: &[f64], t: f64) -> Result<f64, DomainError> {
    let tol = OdeTol::new(1e-10, 1e-12, 2_000);
    Ok(ode_bdf(&StiffLinear, y0, 0.0, &[t], p, tol)?[0][0])
}

#[test]
fn hessian_of_a_stiff_solution() {
    // Second derivatives through BDF on the stiff system (the sensitivity system is as
    // stiff): every entry against the closed form.
    for t in [3e-4, 0.1] {
        let [ex, _] = stiff_linear_exact(LIN_Y0, LIN_P[0], LIN_P[1], t);
        let (v, (gy, gp), h) = stiff_y1_hessian(&LIN_Y0, &LIN_P, t).unwrap();
        assert_entries(&[v], &[ex.value], 1e-7, 1e-11, "value");
        assert_entries(&[gy, gp].concat(), &ex.grad, 1e-6, 1e-10, "gradient");
        assert_rows(&h, &ex.hess, 1e-5, 1e-11, "Hessian");
    }
}
