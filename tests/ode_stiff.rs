//! Robertson's stiff chemical kinetics: the explicit method runs out of steps with a
//! clear error, the BDF method solves it within the same budget.
//!
//! Reference values at t = 40: Hairer and Wanner, Solving ODEs II (the Robertson problem,
//! computed there at tight tolerance); the sum of the three concentrations stays 1.

mod ode_support;

use fazang::dist::Constraint;
use fazang::prelude::*;
use ode_support::*;

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

#[test]
fn bdf_gradient_of_a_stiff_solution() {
    // The gradient with active rates works on the stiff problem, through the tape.
    let (v, g) = gradient(
        |k| {
            let tol = OdeTol::new(1e-10, 1e-14, 1000);
            let ys = ode_bdf(&Robertson, &Y0, 0.0, &TS, k, tol).unwrap();
            ys[2][0].ln()
        },
        &K,
    );
    assert_close(v, Y40[0].ln(), 1e-8, "ln y1(40)");
    // Mass is conserved for every k: the sensitivities of the three states sum to 0.
    let (_, jac) = jacobian(
        |k| {
            ode_bdf(
                &Robertson,
                &Y0,
                0.0,
                &TS,
                k,
                OdeTol::new(1e-10, 1e-14, 1000),
            )
            .unwrap()
            .concat()
        },
        &K,
    );
    for j in 0..3 {
        let s: f64 = (6..9).map(|i| jac[i][j] * K[j]).sum();
        assert!(s.abs() < 1e-8, "Σ k ∂y/∂k[{j}] = {s:e}");
    }
    assert!(g.iter().all(|x| x.is_finite()));
}
