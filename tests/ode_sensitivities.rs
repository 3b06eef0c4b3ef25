//! Sensitivities of ODE solutions against central finite differences of tightly solved
//! primals and against closed forms: every combination of active initial state,
//! parameters and output times, many parameters, a stiff problem, and right-hand sides
//! with constant outputs.

mod ode_support;

use fazang::prelude::*;
use ode_support::*;

const LV_Y0: [f64; 2] = [10.0, 5.0];
const LV_THETA: [f64; 4] = [1.0, 0.1, 1.5, 0.075];
const LV_TS: [f64; 5] = [0.5, 1.0, 2.5, 4.0, 6.0];

#[test]
fn lotka_volterra_against_finite_differences() {
    for solver in SOLVERS {
        let tol = OdeTol::new(1e-10, 1e-10, 100_000);
        let (vals, jac) = solve_jacobian(solver, &LotkaVolterra, &LV_Y0, &LV_TS, &LV_THETA, tol);
        let tight = OdeTol::new(1e-13, 1e-13, 1_000_000);
        let fd = fd_jacobian(
            solver,
            &LotkaVolterra,
            &LV_Y0,
            &LV_TS,
            &LV_THETA,
            tight,
            1e-5,
        );
        let primal = solve_f64(solver, &LotkaVolterra, &LV_Y0, &LV_TS, &LV_THETA, tight).concat();
        assert_all_close(&vals, &primal, 1e-7, &format!("{solver:?} values"));
        for (i, (row, fd_row)) in jac.iter().zip(&fd).enumerate() {
            // Sensitivities reach ~100 (prey after a cycle): compare relative to the row.
            let scale = fd_row.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
            for (j, (a, b)) in row.iter().zip(fd_row).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-6 * scale,
                    "{solver:?} d out[{i}] / d in[{j}]: tape {a:e}, finite differences {b:e}"
                );
            }
        }
    }
}

#[test]
fn each_activity_gives_the_matching_columns() {
    let tol = OdeTol::new(1e-10, 1e-10, 100_000);
    let (_, both) = solve_jacobian(Solver::Bdf, &LotkaVolterra, &LV_Y0, &LV_TS, &LV_THETA, tol);
    // Initial state active, parameters data.
    let (_, jy) = jacobian(
        |y0| {
            ode_bdf(&LotkaVolterra, y0, 0.0, &LV_TS, &LV_THETA, tol)
                .unwrap()
                .concat()
        },
        &LV_Y0,
    );
    // Parameters active, initial state data.
    let (_, jp) = jacobian(
        |p| {
            ode_bdf(&LotkaVolterra, &LV_Y0, 0.0, &LV_TS, p, tol)
                .unwrap()
                .concat()
        },
        &LV_THETA,
    );
    for (i, row) in both.iter().enumerate() {
        // Different activity, different error control: agreement to the tolerance.
        assert_all_close(&jy[i], &row[..2], 1e-6, &format!("dy[{i}]/dy0"));
        assert_all_close(&jp[i], &row[2..], 1e-6, &format!("dy[{i}]/dθ"));
    }
    // Neither active: plain f64 values, no tape.
    let before = tape_stats();
    let plain: Vec<Vec<f64>> =
        ode_bdf(&LotkaVolterra, &LV_Y0, 0.0, &LV_TS, &LV_THETA, tol).unwrap();
    assert_eq!(tape_stats(), before);
    assert_eq!(plain.len(), LV_TS.len());
}

/// y' = -(θ1 + ... + θm) y: y = y0 exp(-Σθ t), ∂y/∂θj = -t y, ∂y/∂y0 = exp(-Σθ t).
#[differentiate]
fn many_rates(t: f64, y: &[f64], theta: &[f64]) -> Vec<f64> {
    let total: f64 = theta.iter().sum();
    vec![-total * y[0] + 0.0 * t]
}
ode_system!(ManyRates = many_rates);

#[test]
fn any_number_of_parameters() {
    let theta: Vec<f64> = (1..=12).map(|j| 0.01 * j as f64).collect();
    let total: f64 = theta.iter().sum();
    for solver in SOLVERS {
        let ts = [0.5, 2.0];
        let tol = OdeTol::new(1e-10, 1e-10, 10_000);
        let (vals, jac) = solve_jacobian(solver, &ManyRates, &[3.0], &ts, &theta, tol);
        for (k, &t) in ts.iter().enumerate() {
            let y = 3.0 * (-total * t).exp();
            assert_close(vals[k], y, 1e-8, "y");
            assert_eq!(jac[k].len(), 13);
            assert_close(jac[k][0], (-total * t).exp(), 1e-8, "dy/dy0");
            for g in &jac[k][1..] {
                assert_close(*g, -t * y, 1e-8, "dy/dθ");
            }
        }
    }
}

#[test]
fn active_output_times() {
    // ∂y(tᵢ)/∂tᵢ = f(tᵢ, y(tᵢ)) = -k y(tᵢ) for decay; the other times do not matter.
    let k = [0.7];
    for solver in SOLVERS {
        let (vals, jac) = jacobian(
            |ts| {
                let r = match solver {
                    Solver::Bdf => ode_bdf(&ManyRates, &[2.0], 0.0, ts, &k, fazang_tol()),
                    Solver::Rk45 => ode_rk45(&ManyRates, &[2.0], 0.0, ts, &k, fazang_tol()),
                };
                r.unwrap().concat()
            },
            &[0.3, 1.1, 2.0],
        );
        for (i, row) in jac.iter().enumerate() {
            let mut want = [0.0; 3];
            want[i] = -0.7 * vals[i];
            assert_all_close(row, &want, 1e-8, &format!("{solver:?} dy(t{i})/dts"));
        }
    }
}

#[test]
fn robertson_rate_sensitivities_against_finite_differences() {
    let (y0, k, ts) = ([1.0, 0.0, 0.0], [0.04, 1e4, 3e7], [0.4, 4.0, 40.0]);
    let tol = OdeTol::new(1e-10, 1e-14, 100_000);
    let (_, jac) = solve_jacobian(Solver::Bdf, &Robertson, &y0, &ts, &k, tol);
    let tight = OdeTol::new(1e-12, 1e-16, 1_000_000);
    let fd = fd_jacobian(Solver::Bdf, &Robertson, &y0, &ts, &k, tight, 1e-4);
    for (i, (row, fd_row)) in jac.iter().zip(&fd).enumerate() {
        // Columns 3..6 are the rates: compare the relative sensitivities k ∂y/∂k.
        for j in 3..6 {
            let (a, b) = (row[j] * k[j - 3], fd_row[j] * k[j - 3]);
            let scale = fd_row[3..]
                .iter()
                .zip(&k)
                .fold(1e-6_f64, |m, (x, kj)| m.max((x * kj).abs()));
            assert!(
                (a - b).abs() <= 1e-4 * scale,
                "k ∂out[{i}]/∂k[{}]: tape {a:e}, finite differences {b:e}",
                j - 3
            );
        }
    }
}

/// y1' = 1, y2' = -y1: the first output is a constant. y1 = a + t, y2 = b - a t - t²/2.
#[differentiate]
fn ramp(t: f64, y: &[f64], p: &[f64]) -> Vec<f64> {
    let _ = (t, p);
    vec![1.0, -y[0]]
}
ode_system!(Ramp = ramp);

#[test]
fn constant_outputs_of_the_right_hand_side() {
    for solver in SOLVERS {
        let (vals, jac) = solve_jacobian(solver, &Ramp, &[0.5, 2.0], &[2.0], &[], fazang_tol());
        assert_all_close(&vals, &[2.5, 2.0 - 1.0 - 2.0], 1e-9, "y(2)");
        assert_all_close(&jac[0], &[1.0, 0.0], 1e-9, "dy1/dy0");
        assert_all_close(&jac[1], &[-2.0, 1.0], 1e-9, "dy2/dy0");
    }
}

/// One-compartment elimination at rate θ with an infusion of `dose` until `t_off`: a
/// system with data of its own, its right-hand side a `#[differentiate]` method.
struct Infusion {
    dose: f64,
    t_off: f64,
}

#[differentiate]
impl Infusion {
    #[differentiate(wrt(y, theta))]
    fn derivative(&self, t: f64, y: &[f64], theta: &[f64]) -> Vec<f64> {
        let input = if t < self.t_off { self.dose } else { 0.0 };
        vec![input - theta[0] * y[0]]
    }
}
ode_system!(impl Infusion = Infusion::derivative);

#[test]
fn a_system_with_data_as_a_method() {
    // While infusing: y = (d/k)(1 - e^{-kt}), dy/dk = -(d/k²)(1 - e^{-kt}) + (d/k) t e^{-kt}.
    let sys = Infusion {
        dose: 2.0,
        t_off: 10.0,
    };
    let (d, k) = (2.0, 0.5);
    let ts = [1.0, 5.0, 9.0];
    for solver in SOLVERS {
        let (vals, jac) = solve_jacobian(solver, &sys, &[0.0], &ts, &[k], fazang_tol());
        for (i, &t) in ts.iter().enumerate() {
            let e = (-k * t).exp();
            assert_close(
                vals[i],
                d / k * (1.0 - e),
                1e-8,
                &format!("{solver:?} y({t})"),
            );
            assert_close(jac[i][0], e, 1e-8, &format!("{solver:?} dy({t})/dy0"));
            let dk = -d / (k * k) * (1.0 - e) + d / k * t * e;
            assert_close(jac[i][1], dk, 1e-7, &format!("{solver:?} dy({t})/dk"));
        }
    }
}
