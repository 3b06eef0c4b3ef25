//! Second derivatives through `ode_rk45` and `ode_bdf` against closed forms (exponential
//! decay, a damped rotation through its matrix exponential, logistic growth): generated
//! `_hessian`, `_hvp` and `_jvp` of bodies that solve an ODE, the runtime drivers
//! (`hessian`, `hessian_forward`, `hessian_vector_product`, nested `derivative`, `jvp`),
//! series, and mixed derivatives in the output times; and the refusals, which name the
//! solver: a second derivative in an output time, third derivatives.
//!
//! Every entry is compared at its own scale (`|got - want| ≤ 1e-6 |want| + 1e-9`).

#[path = "ode_support/second_order.rs"]
mod second_order;

use fazang::prelude::*;
use fazang::{derivative, hessian, hessian_forward, hessian_vector_product, jvp, Dual, Fwd};
use second_order::*;

const REL: f64 = 1e-6;
const ABS: f64 = 1e-9;
const BOTH: [bool; 2] = [false, true];

fn tol() -> OdeTol {
    OdeTol::new(1e-11, 1e-11, 100_000)
}

fn solver(bdf: bool) -> &'static str {
    if bdf {
        "ode_bdf"
    } else {
        "ode_rk45"
    }
}

/// y(t) of the decay, the output time as data.
#[differentiate(wrt(y0, k))]
fn decay_at(y0: f64, k: f64, t: f64, bdf: bool) -> Result<f64, DomainError> {
    let ys = if bdf {
        ode_bdf(&Decay, &[y0], 0.0, &[t], &[k], tol())?
    } else {
        ode_rk45(&Decay, &[y0], 0.0, &[t], &[k], tol())?
    };
    Ok(ys[0][0])
}

/// y(t/2) + y(t) of the decay: both output times active.
#[differentiate]
fn decay_in_time(y0: f64, k: f64, t: f64, bdf: bool) -> Result<f64, DomainError> {
    let ts = [0.5 * t, t];
    let ys = if bdf {
        ode_bdf(&Decay, &[y0], 0.0, &ts, &[k], tol())?
    } else {
        ode_rk45(&Decay, &[y0], 0.0, &ts, &[k], tol())?
    };
    Ok(ys.iter().map(|y| y[0]).sum())
}

/// The closed form of `decay_in_time` over (y0, k, t).
fn decay_in_time_exact(y0: f64, k: f64, t: f64) -> Exact {
    let (half, full) = (decay_exact(y0, k, 0.5 * t), decay_exact(y0, k, t));
    // d(t/2)/dt = 1/2 scales every derivative in the time of the first output.
    let c = [1.0, 1.0, 0.5];
    Exact {
        value: half.value + full.value,
        grad: (0..3).map(|i| c[i] * half.grad[i] + full.grad[i]).collect(),
        hess: (0..3)
            .map(|i| {
                (0..3)
                    .map(|j| c[i] * c[j] * half.hess[i][j] + full.hess[i][j])
                    .collect()
            })
            .collect(),
    }
}

/// State `i` of the damped rotation at `t`.
#[differentiate(wrt(y0, p))]
fn spiral_state(y0: &[f64], p: &[f64], t: f64, i: usize, bdf: bool) -> Result<f64, DomainError> {
    let ys = match bdf {
        true => ode_bdf(&Spiral, y0, 0.0, &[t], p, tol())?,
        false => ode_rk45(&Spiral, y0, 0.0, &[t], p, tol())?,
    };
    Ok(ys[0][i])
}

/// Half the squared misfit of the damped rotation to observations at several times.
#[differentiate(wrt(y0, p))]
fn spiral_misfit(
    y0: &[f64],
    p: &[f64],
    ts: &[f64],
    obs: &[[f64; 2]],
    bdf: bool,
) -> Result<f64, DomainError> {
    let ys = match bdf {
        true => ode_bdf(&Spiral, y0, 0.0, ts, p, tol())?,
        false => ode_rk45(&Spiral, y0, 0.0, ts, p, tol())?,
    };
    let misfit = ys
        .iter()
        .zip(obs)
        .flat_map(|(y, o)| y.iter().zip(o).map(|(a, b)| 0.5 * (*a - *b).powi(2)))
        .sum();
    Ok(misfit)
}

/// y(t) of logistic growth.
#[differentiate(wrt(y0, r, k))]
fn logistic_at(y0: f64, r: f64, k: f64, t: f64, bdf: bool) -> Result<f64, DomainError> {
    let ys = if bdf {
        ode_bdf(&Logistic, &[y0], 0.0, &[t], &[r, k], tol())?
    } else {
        ode_rk45(&Logistic, &[y0], 0.0, &[t], &[r, k], tol())?
    };
    Ok(ys[0][0])
}

const SPIRAL_Y0: [f64; 2] = [1.0, -0.5];
const SPIRAL_P: [f64; 2] = [0.3, 1.7];
const SPIRAL_X: [f64; 4] = [1.0, -0.5, 0.3, 1.7];

#[test]
fn nested_derivative_at_the_issue_point() {
    // y' = -k y, y(0) = y0: d/dy0 d/dk y(3) = -3 e^(-3k); issue 21 had 0 here.
    for bdf in BOTH {
        let d = derivative(
            |y0: Fwd| derivative(|k: Fwd| decay_at(y0, k, 3.0, bdf).unwrap(), 0.7),
            2.0,
        );
        let want = -3.0 * (-2.1_f64).exp();
        assert!((want + 0.3673692847589458).abs() < 1e-15);
        assert_entries(&[d.val()], &[want], REL, ABS, solver(bdf));
        // The other order, and d²/dk² = t² y.
        let d = derivative(
            |k: Fwd| derivative(|y0: Fwd| decay_at(y0, k, 3.0, bdf).unwrap(), 2.0),
            0.7,
        );
        assert_entries(&[d.val()], &[want], REL, ABS, solver(bdf));
        let d = derivative(
            |k: Fwd| derivative(|k: Fwd| decay_at(2.0.into(), k, 3.0, bdf).unwrap(), k),
            0.7,
        );
        let exact = decay_exact(2.0, 0.7, 3.0);
        assert_entries(&[d.val()], &[exact.hess[1][1]], REL, ABS, solver(bdf));
    }
}

#[test]
fn generated_hessian_hvp_and_jvp_of_a_decay() {
    let v = [0.5, -2.0];
    for bdf in BOTH {
        let what = solver(bdf);
        let exact = decay_exact(2.0, 0.7, 3.0);
        let (val, g, h) = decay_at_hessian(2.0, 0.7, 3.0, bdf).unwrap();
        let h2: Vec<Vec<f64>> = exact.hess.iter().map(|r| r[..2].to_vec()).collect();
        assert_entries(&[val], &[exact.value], REL, ABS, what);
        assert_entries(&g, &exact.grad[..2], REL, ABS, what);
        assert_rows(&h, &h2[..2], REL, ABS, what);
        let (_, hv) = decay_at_hvp(2.0, 0.7, 3.0, bdf, &v).unwrap();
        let want: Vec<f64> = h2[..2].iter().map(|r| r[0] * v[0] + r[1] * v[1]).collect();
        assert_entries(&hv, &want, REL, ABS, what);
        let (_, d) = decay_at_jvp(2.0, 0.7, 3.0, bdf, &v).unwrap();
        let want = exact.grad[0] * v[0] + exact.grad[1] * v[1];
        assert_entries(&[d], &[want], REL, ABS, what);
    }
}

#[test]
fn the_rotation_against_its_matrix_exponential() {
    let t = 2.5;
    let exact = spiral_exact(SPIRAL_Y0, SPIRAL_P[0], SPIRAL_P[1], t);
    let v = [0.3, -1.0, 2.0, 0.5];
    for bdf in BOTH {
        for (i, ex) in exact.iter().enumerate() {
            let what = &format!("{} y{i}", solver(bdf));
            let (val, (gy, gp), h) =
                spiral_state_hessian(&SPIRAL_Y0, &SPIRAL_P, t, i, bdf).unwrap();
            assert_entries(&[val], &[ex.value], REL, ABS, what);
            assert_entries(&[gy, gp].concat(), &ex.grad, REL, ABS, what);
            assert_rows(&h, &ex.hess, REL, ABS, what);
            let (_, hv) = spiral_state_hvp(&SPIRAL_Y0, &SPIRAL_P, t, i, bdf, &v).unwrap();
            assert_entries(&hv, &ex.hv(&v), REL, ABS, what);
            // The drivers, on the same generic body.
            let (_, _, h) = hessian(
                |x| spiral_state(&x[..2], &x[2..], t, i, bdf).unwrap(),
                &SPIRAL_X,
            );
            assert_rows(&h, &ex.hess, REL, ABS, what);
            let f = |x: &[fazang::HessianFwdScalar<4>]| {
                spiral_state(&x[..2], &x[2..], t, i, bdf).unwrap()
            };
            let (_, g, h) = hessian_forward::<4, _>(f, &SPIRAL_X);
            assert_entries(&g, &ex.grad, REL, ABS, what);
            assert_rows(&h, &ex.hess, REL, ABS, what);
            let (_, hv) = hessian_vector_product(
                |x| spiral_state(&x[..2], &x[2..], t, i, bdf).unwrap(),
                &SPIRAL_X,
                &v,
            );
            assert_entries(&hv, &ex.hv(&v), REL, ABS, what);
            let (_, d) = jvp(
                |x| spiral_state(&x[..2], &x[2..], t, i, bdf).unwrap(),
                &SPIRAL_X,
                &v,
            );
            let want: f64 = ex.grad.iter().zip(&v).map(|(g, v)| g * v).sum();
            assert_entries(&[d], &[want], REL, ABS, what);
        }
    }
}

#[test]
fn a_misfit_over_several_times_mixes_first_and_second_order_terms() {
    // H = Σ over outputs of ∇yᵀ∇y + (y - obs) ∇²y: the second-order terms weigh in.
    let ts = [0.5, 1.5, 4.0];
    let obs = [[0.8, -0.1], [-0.2, 0.4], [0.05, 0.0]];
    let mut want = Exact {
        value: 0.0,
        grad: vec![0.0; 4],
        hess: vec![vec![0.0; 4]; 4],
    };
    for (t, o) in ts.iter().zip(&obs) {
        for (ex, ob) in spiral_exact(SPIRAL_Y0, SPIRAL_P[0], SPIRAL_P[1], *t)
            .iter()
            .zip(o)
        {
            let r = ex.value - ob;
            want.value += 0.5 * r * r;
            for a in 0..4 {
                want.grad[a] += r * ex.grad[a];
                for b in 0..4 {
                    want.hess[a][b] += ex.grad[a] * ex.grad[b] + r * ex.hess[a][b];
                }
            }
        }
    }
    for bdf in BOTH {
        let what = solver(bdf);
        let (val, (gy, gp), h) =
            spiral_misfit_hessian(&SPIRAL_Y0, &SPIRAL_P, &ts, &obs, bdf).unwrap();
        assert_entries(&[val], &[want.value], REL, ABS, what);
        assert_entries(&[gy, gp].concat(), &want.grad, REL, ABS, what);
        assert_rows(&h, &want.hess, REL, ABS, what);
    }
}

#[test]
fn logistic_growth_against_its_closed_form() {
    let (y0, r, k, t) = (0.5, 0.8, 3.0, 2.0);
    let exact = logistic_exact(y0, r, k, t);
    let v = [1.0, 0.25, -0.5];
    for bdf in BOTH {
        let what = solver(bdf);
        let (val, g, h) = logistic_at_hessian(y0, r, k, t, bdf).unwrap();
        assert_entries(&[val], &[exact.value], REL, ABS, what);
        assert_entries(&g, &exact.grad, REL, ABS, what);
        assert_rows(&h, &exact.hess, REL, ABS, what);
        let (_, hv) = logistic_at_hvp(y0, r, k, t, bdf, &v).unwrap();
        assert_entries(&hv, &exact.hv(&v), REL, ABS, what);
        // A second-order Taylor series in r, and nested derivatives in (y0, K).
        let d =
            fazang::derivatives::<2>(|r| logistic_at(y0.into(), r, k.into(), t, bdf).unwrap(), r);
        assert_entries(
            &d,
            &[exact.value, exact.grad[1], exact.hess[1][1]],
            REL,
            ABS,
            what,
        );
        let d = derivative(
            |y0: Fwd| derivative(|k: Fwd| logistic_at(y0, r.into(), k, t, bdf).unwrap(), k),
            y0,
        );
        assert_entries(&[d.val()], &[exact.hess[0][2]], REL, ABS, what);
    }
}

#[test]
fn mixed_derivatives_in_the_output_times() {
    // ∂²/∂t∂(y0, k) need no ∂f/∂t: exact, whichever derivative is outer.
    let (y0, k, t) = (2.0, 0.7, 3.0);
    let exact = decay_in_time_exact(y0, k, t);
    for bdf in BOTH {
        let what = solver(bdf);
        let (val, g) = decay_in_time_grad(y0, k, t, bdf).unwrap();
        assert_entries(&[val], &[exact.value], REL, ABS, what);
        assert_entries(&g, &exact.grad, REL, ABS, what);
        // A direction without a time component: H v has every row, the time's included.
        let v = [1.0, -2.0, 0.0];
        let (_, hv) = decay_in_time_hvp(y0, k, t, bdf, &v).unwrap();
        assert_entries(&hv, &exact.hv(&v), REL, ABS, what);
        let tk = derivative(
            |t: Fwd| derivative(|k: Fwd| decay_in_time(y0.into(), k, t, bdf).unwrap(), k),
            t,
        );
        let kt = derivative(
            |k: Fwd| derivative(|t: Fwd| decay_in_time(y0.into(), k, t, bdf).unwrap(), t),
            k,
        );
        assert_entries(
            &[tk.val(), kt.val()],
            &[exact.hess[2][1]; 2],
            REL,
            ABS,
            what,
        );
        // Forward-over-forward by hand: t carries the outer tangent, y0 the inner one.
        let d = decay_in_time(
            Dual::new(Dual::variable(y0), Dual::constant(0.0)),
            Dual::constant(Dual::constant(k)),
            Dual::new(Dual::constant(t), Dual::constant(1.0)),
            bdf,
        )
        .unwrap();
        assert_entries(&[d.eps.eps], &[exact.hess[0][2]], REL, ABS, what);
    }
}

/// The panic message of `f`, which must panic.
fn panic_message<R>(f: impl FnOnce() -> R + std::panic::UnwindSafe) -> String {
    match std::panic::catch_unwind(f) {
        Ok(_) => panic!("expected a refusal"),
        Err(e) => match e.downcast::<String>() {
            Ok(s) => *s,
            Err(e) => e.downcast::<&str>().map(|s| s.to_string()).unwrap(),
        },
    }
}

#[test]
fn a_second_derivative_in_an_output_time_is_refused_naming_the_solver() {
    for bdf in BOTH {
        let name = solver(bdf);
        let msgs = [
            panic_message(|| decay_in_time_hessian(2.0, 0.7, 3.0, bdf)),
            panic_message(|| decay_in_time_hvp(2.0, 0.7, 3.0, bdf, &[0.0, 0.0, 1.0])),
            panic_message(|| {
                derivative(
                    |t: Fwd| {
                        derivative(
                            |t: Fwd| decay_in_time(2.0.into(), 0.7.into(), t, bdf).unwrap(),
                            t,
                        )
                    },
                    3.0,
                )
            }),
        ];
        for msg in msgs {
            assert!(
                msg.contains(&format!("fazang: {name} cannot give the second derivative")),
                "{msg}"
            );
            assert!(msg.contains("output time `ts["), "{msg}");
            assert!(msg.contains("Pass the output times as data"), "{msg}");
        }
    }
}

#[test]
fn third_derivatives_are_refused_naming_the_solver() {
    for bdf in BOTH {
        let name = solver(bdf);
        let series = panic_message(|| {
            fazang::derivatives::<3>(|k| decay_at(2.0.into(), k, 3.0, bdf).unwrap(), 0.7)
        });
        let nested = panic_message(|| {
            derivative(
                |a: Fwd| {
                    derivative(
                        |b: Fwd| derivative(|c: Fwd| decay_at(a * c, b, 3.0, bdf).unwrap(), 1.0),
                        0.7,
                    )
                },
                2.0,
            )
        });
        for msg in [series, nested] {
            assert!(
                msg.contains(&format!(
                    "fazang: {name} gives first and second derivatives"
                )),
                "{msg}"
            );
            assert!(msg.contains("not third or higher"), "{msg}");
        }
    }
}
