//! Fazang's two ODE examples (user guide, section 7) with both solvers, against their
//! closed forms: values, and sensitivities read off the tape as Fazang reads them
//! (`yt(1, 1) % grad()`, `param(1) % adj()`), and through `#[differentiate]`.

mod ode_support;

use fazang::prelude::*;
use ode_support::*;

#[test]
fn data_solution_matches_the_series() {
    // Fazang's `cvodes_sol(0.d0, y0, [1.d0, 2.d0, 3.d0], eval_rhs, tol)`.
    for solver in SOLVERS {
        let ys = solve_f64(
            solver,
            &Fazang1,
            &FAZANG1_Y0,
            &FAZANG1_TS,
            &FAZANG1_P,
            fazang_tol(),
        );
        for (y, &t) in ys.iter().zip(&FAZANG1_TS) {
            let (exact, _) = fazang1_exact(t, FAZANG1_Y0, 0.3);
            assert_all_close(y, &exact, 1e-8, &format!("{solver:?} y({t})"));
        }
    }
}

#[test]
fn parameter_sensitivities_of_the_first_example() {
    for solver in SOLVERS {
        let p = [Var::new(0.2), Var::new(0.1)];
        let ys = match solver {
            Solver::Bdf => ode_bdf(&Fazang1, &FAZANG1_Y0, 0.0, &FAZANG1_TS, &p, fazang_tol()),
            Solver::Rk45 => ode_rk45(&Fazang1, &FAZANG1_Y0, 0.0, &FAZANG1_TS, &p, fazang_tol()),
        }
        .unwrap();
        for (yt, &t) in ys.iter().zip(&FAZANG1_TS) {
            let (exact, d) = fazang1_exact(t, FAZANG1_Y0, 0.3);
            for (i, yi) in yt.iter().enumerate() {
                set_zero_all_adj();
                yi.grad();
                let what = format!("{solver:?} y{}({t})", i + 1);
                assert_close(yi.val(), exact[i], 1e-8, &what);
                // y depends on p1 + p2 only: both partials are d/dc.
                assert_close(p[0].adj(), d[i][2], 1e-7, &format!("d{what}/dp1"));
                assert_close(p[1].adj(), d[i][2], 1e-7, &format!("d{what}/dp2"));
            }
        }
        clear_tape();
    }
}

#[test]
fn initial_state_and_parameter_sensitivities_together() {
    for solver in SOLVERS {
        let (vals, jac) = solve_jacobian(
            solver,
            &Fazang1,
            &FAZANG1_Y0,
            &FAZANG1_TS,
            &FAZANG1_P,
            fazang_tol(),
        );
        for (k, &t) in FAZANG1_TS.iter().enumerate() {
            let (exact, d) = fazang1_exact(t, FAZANG1_Y0, 0.3);
            for i in 0..2 {
                let (row, what) = (&jac[2 * k + i], format!("{solver:?} y{}({t})", i + 1));
                assert_close(vals[2 * k + i], exact[i], 1e-8, &what);
                let want = [d[i][0], d[i][1], d[i][2], d[i][2]];
                assert_all_close(row, &want, 1e-7, &format!("{what} over [y0, p]"));
            }
        }
    }
}

#[test]
fn second_example_gradient_matches_the_closed_form() {
    // Fazang: `call yt(1, 1) % grad()`, `param(1) % adj()`, at every output and state.
    for solver in SOLVERS {
        let p = FAZANG2_P.map(Var::new);
        let ys = match solver {
            Solver::Bdf => ode_bdf(&Fazang2, &FAZANG2_Y0, 0.0, &FAZANG2_TS, &p, fazang_tol()),
            Solver::Rk45 => ode_rk45(&Fazang2, &FAZANG2_Y0, 0.0, &FAZANG2_TS, &p, fazang_tol()),
        }
        .unwrap();
        let w: f64 = FAZANG2_P.iter().product();
        for (yt, &t) in ys.iter().zip(&FAZANG2_TS) {
            let (exact, dw) = fazang2_exact(t, FAZANG2_Y0, w);
            for (i, yi) in yt.iter().enumerate() {
                set_zero_all_adj();
                yi.grad();
                let what = format!("{solver:?} y{}({t})", i + 1);
                assert_close(yi.val(), exact[i], 1e-8, &what);
                for (j, pj) in p.iter().enumerate() {
                    let dwdp = w / FAZANG2_P[j];
                    assert_close(
                        pj.adj(),
                        dw[i] * dwdp,
                        1e-7,
                        &format!("d{what}/dp{}", j + 1),
                    );
                }
            }
        }
        clear_tape();
    }
}

/// A log likelihood of y1 over Fazang's second example, differentiated by the macro.
#[differentiate(wrt(p))]
fn fazang2_loglik(p: &[f64], obs: &[f64]) -> Result<f64, DomainError> {
    let ys = ode_bdf(&Fazang2, &FAZANG2_Y0, 0.0, &FAZANG2_TS, p, fazang_tol())?;
    let y1: Vec<f64> = ys.iter().map(|y| y[0]).collect();
    normal_lpdf(obs, &y1, 0.5)
}

#[test]
fn grad_of_a_likelihood_over_the_solution() {
    let obs = [1.5, 3.0, 6.1];
    let (lp, g) = fazang2_loglik_grad(&FAZANG2_P, &obs).unwrap();
    // By hand: lp = Σ normal(obs | y1(t), 0.5), dlp/dp_j = Σ (obs - y1)/0.25 · dy1/dw · dw/dp_j.
    let w: f64 = FAZANG2_P.iter().product();
    let (mut want_lp, mut dlp_dw) = (0.0, 0.0);
    for (&t, &o) in FAZANG2_TS.iter().zip(&obs) {
        let ([y1, _], [dy1, _]) = fazang2_exact(t, FAZANG2_Y0, w);
        let z = (o - y1) / 0.5;
        want_lp += -0.5 * z * z - 0.5_f64.ln() - 0.5 * (2.0 * std::f64::consts::PI).ln();
        dlp_dw += z / 0.5 * dy1;
    }
    assert_close(lp, want_lp, 1e-8, "lp");
    let want: Vec<f64> = FAZANG2_P.iter().map(|pj| dlp_dw * w / pj).collect();
    assert_all_close(&g, &want, 1e-7, "dlp/dp");
}

/// The solution at the output times as a function of y0 and p, Jacobian by the macro.
#[differentiate]
fn fazang1_solution(y0: &[f64], p: &[f64]) -> Vec<f64> {
    let tol = OdeTol::new(1e-10, 1e-10, 1000);
    match ode_rk45(&Fazang1, y0, 0.0, &FAZANG1_TS, p, tol) {
        Ok(ys) => ys.concat(),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn jacobian_of_the_solution_through_the_macro() {
    let (vals, jac) = fazang1_solution_jacobian(&FAZANG1_Y0, &FAZANG1_P);
    let (exact, d) = fazang1_exact(3.0, FAZANG1_Y0, 0.3);
    assert_all_close(&vals[4..], &exact, 1e-8, "y(3)");
    assert_all_close(
        &jac[4],
        &[d[0][0], d[0][1], d[0][2], d[0][2]],
        1e-7,
        "dy1(3)",
    );
}
