//! Fazang's guide examples (chapters 2 and 3), repeated sweeps, and the drivers
//! `gradient`/`jacobian` (values, derivatives, and leaving the outer tape untouched).

mod runtime_support;

use fazang::prelude::*;
use runtime_support::{assert_all_close, assert_close, fd_grad};
use std::f64::consts::PI;

/// ln √(2π), outside the generic function: there, `where f64: Mul<S>` makes rustc pick
/// `f64 * S` for every `f64 * _` (what `#[differentiate]` works around).
fn ln_sqrt_2pi() -> f64 {
    0.5 * (2.0 * PI).ln()
}

/// The log of a normal density of y = 1.3, generic so it runs on f64 and on Var.
fn log_normal_density<S: Real>(mu: S, sigma: S) -> S
where
    f64: std::ops::Sub<S, Output = S> + std::ops::Mul<S, Output = S>,
{
    let y = 1.3;
    -sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2) - ln_sqrt_2pi()
}

/// df/dmu = (y - mu)/sigma², df/dsigma = -1/sigma + (y - mu)²/sigma³, at the guide's point.
const DMU: f64 = 0.8 / 1.44;
const DSIGMA: f64 = -1.0 / 1.2 + 0.64 / 1.728;

#[test]
fn guide_chapter_2_grad() {
    let mu = Var::new(0.5);
    let sigma = Var::new(1.2);
    let f = -0.5 * (2.0 * PI).ln() - sigma.ln() - 0.5 * ((1.3 - mu) / sigma).powi(2);
    f.grad();
    assert_close(f.val(), log_normal_density(0.5, 1.2), 1e-15, "value");
    assert_close(mu.adj(), DMU, 1e-15, "df/dmu");
    assert_close(sigma.adj(), DSIGMA, 1e-15, "df/dsigma");
    // The numbers the guide prints.
    assert_eq!(
        format!("{:.4} {:.4}", mu.adj(), sigma.adj()),
        "0.5556 -0.4630"
    );
}

#[test]
fn guide_chapter_3_gradient() {
    let (v, g) = gradient(|x| log_normal_density(x[0], x[1]), &[0.5, 1.2]);
    assert_eq!(v, log_normal_density(0.5, 1.2));
    assert_all_close(&g, &[DMU, DSIGMA], 1e-15, "gradient");
    let by_fd = fd_grad(|x| log_normal_density(x[0], x[1]), &[0.5, 1.2]);
    assert_all_close(&g, &by_fd, 1e-9, "gradient vs finite differences");
    // The into-a-buffer variant gives the same.
    let mut buf = [0.0; 2];
    assert_eq!(
        gradient_into(|x| log_normal_density(x[0], x[1]), &[0.5, 1.2], &mut buf),
        v
    );
    assert_eq!(buf.to_vec(), g);
}

#[test]
fn jacobian_of_polar_to_cartesian() {
    // (r, θ) ↦ (r cos θ, r sin θ, r²): J = [[cos θ, -r sin θ], [sin θ, r cos θ], [2r, 0]].
    let (r, t) = (2.0, 0.7);
    let f = |x: &[Var]| vec![x[0] * x[1].cos(), x[0] * x[1].sin(), x[0] * x[0]];
    let (v, jac) = jacobian(f, &[r, t]);
    assert_eq!(v, vec![r * t.cos(), r * t.sin(), r * r]);
    let want = [
        [t.cos(), -r * t.sin()],
        [t.sin(), r * t.cos()],
        [2.0 * r, 0.0],
    ];
    assert_eq!(jac.len(), 3);
    for (row, w) in jac.iter().zip(&want) {
        assert_all_close(row, w, 1e-15, "jacobian row");
    }
}

#[test]
fn jacobian_rows_of_constant_and_input_outputs() {
    // Outputs that record nothing (a constant) or are an input itself must get their
    // own rows, not the previous row's adjoints.
    let f = |x: &[Var]| vec![x[0] * x[1], Var::from(3.0), x[1], x[0] * x[1]];
    let (v, jac) = jacobian(f, &[2.0, 5.0]);
    assert_eq!(v, vec![10.0, 3.0, 5.0, 10.0]);
    assert_eq!(
        jac,
        vec![
            vec![5.0, 2.0],
            vec![0.0, 0.0],
            vec![0.0, 1.0],
            vec![5.0, 2.0]
        ]
    );
}

#[test]
fn set_zero_all_adj_then_a_second_grad_with_another_seed() {
    let x = Var::new(1.5);
    let y = Var::new(-2.0);
    let f = x * y; // df/dx = y, df/dy = x
    let g = x.exp() + y * y; // dg/dx = e^x, dg/dy = 2y
    f.grad();
    assert_eq!((x.adj(), y.adj()), (-2.0, 1.5));
    set_zero_all_adj();
    assert_eq!((x.adj(), y.adj(), f.adj()), (0.0, 0.0, 0.0));
    g.grad();
    assert_eq!((x.adj(), y.adj()), (1.5_f64.exp(), -4.0));
}

#[test]
fn without_zeroing_adjoints_accumulate() {
    let x = Var::new(1.5);
    let y = Var::new(-2.0);
    let f = x * y;
    f.grad();
    f.grad();
    assert_eq!(
        (x.adj(), y.adj()),
        (-4.0, 3.0),
        "two sweeps of the same seed add up"
    );
    // As in Stan, a sweep also re-propagates the adjoints a previous sweep left on other
    // nodes: after g.grad(), g still holds adjoint 1, so f.grad() passes it down again
    // (e^x and y² now get adjoint 2). x: e^x from the first sweep + 2 e^x + y;
    // y: 2y from the first sweep + 2·2y + x.
    set_zero_all_adj();
    let g = x.exp() + y * y;
    g.grad();
    f.grad();
    assert_eq!(
        (x.adj(), y.adj()),
        (2.0 * 1.5_f64.exp() + 1.5_f64.exp() - 2.0, -12.0 + 1.5)
    );
}

#[test]
fn gradient_leaves_outer_values_and_adjoints_unchanged() {
    let a = Var::new(2.0);
    let b = Var::new(3.0);
    let outer = a * b + a.sin();
    outer.grad();
    let before = (a.val(), a.adj(), b.val(), b.adj(), outer.val(), outer.adj());
    let stats = tape_stats();

    // The closure captures outer variables and uses them in the recording.
    let (v, g) = gradient(|x| x[0] * a + (x[1] * b).exp() + outer, &[0.5, -0.25]);
    assert_eq!(v, 0.5 * 2.0 + (-0.75_f64).exp() + outer.val());
    assert_all_close(
        &g,
        &[2.0, 3.0 * (-0.75_f64).exp()],
        1e-15,
        "gradient with captures",
    );

    let after = (a.val(), a.adj(), b.val(), b.adj(), outer.val(), outer.adj());
    assert_eq!(after, before, "outer values and adjoints");
    assert_eq!(
        tape_stats(),
        stats,
        "gradient leaves the tape as it found it"
    );
}

#[test]
fn gradient_returning_an_outer_variable_does_not_touch_it() {
    let a = Var::new(2.0);
    let y = a * a;
    y.grad();
    let before = (a.adj(), y.adj());
    let (v, g) = gradient(|_| y, &[1.0]);
    assert_eq!((v, g), (4.0, vec![0.0]));
    let (v, jac) = jacobian(|x| vec![a, x[0]], &[1.0]);
    assert_eq!((v, jac), (vec![2.0, 1.0], vec![vec![0.0], vec![1.0]]));
    assert_eq!((a.adj(), y.adj()), before);
}

#[test]
fn jacobian_leaves_outer_adjoints_unchanged() {
    let a = Var::new(0.5);
    (a * 4.0).grad();
    let (_, jac) = jacobian(|x| vec![x[0] * a, x[0] + a], &[3.0]);
    assert_eq!(jac, vec![vec![0.5], vec![1.0]]);
    assert_eq!(a.adj(), 4.0);
}

#[test]
fn gradient_in_steady_state_reuses_the_tape() {
    let f = |x: &[Var]| x.iter().map(|v| v.sin() * v).sum::<Var>();
    let (v1, g1) = gradient(f, &[1.0, 2.0, 3.0]);
    let stats = tape_stats();
    for _ in 0..100 {
        let (v, g) = gradient(f, &[1.0, 2.0, 3.0]);
        assert_eq!((v, &g), (v1, &g1));
    }
    assert_eq!(tape_stats(), stats);
    let want: Vec<f64> = [1.0_f64, 2.0, 3.0]
        .iter()
        .map(|x| x.cos() * x + x.sin())
        .collect();
    assert_all_close(&g1, &want, 1e-15, "d/dx x sin x");
}

#[test]
fn gradients_nest_inside_gradients() {
    // d/dx of x · (d/dy (x y²) at y = x) = d/dx (2 x · x · x)... computed with inner f64s:
    // the inner gradient is data to the outer one, so the outer derivative sees it as a
    // constant: f(x) = x · c with c = 2 · 3 · 3 = 18.
    let (v, g) = gradient(
        |x| {
            let (_, inner) = gradient(|y| y[0] * y[0] * 3.0, &[3.0]);
            x[0] * inner[0]
        },
        &[2.0],
    );
    assert_eq!((v, g), (36.0, vec![18.0]));
}
