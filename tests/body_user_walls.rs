//! Programs written the way numeric Rust is written, first without knowing the macro's
//! limits (issue 20's walls): writes through `iter_mut()` (in a `for` loop and in
//! `for_each`), an ODE solution indexed directly, `std::mem::swap` between an active and
//! a data value, type aliases as results, as parameters and in a module's helpers, and data passed
//! to helpers next to active values (of types the macro sees, and of types it does not),
//! a trait impl with `Vec` data calling a helper, swaps in a loop. Every derivative is checked against a closed form
//! or finite differences.
#![allow(clippy::needless_range_loop)]

mod body_support;
use body_support::{assert_close, fd_grad, fd_jacobian};
use fazang::prelude::*;

/// Σ_i (w v_i)² accumulated through `iter_mut`: f = w² Σ v², f' = 2 w Σ v².
#[differentiate(wrt(w))]
fn weighted(w: f64, v: &[f64]) -> f64 {
    let n = v.len();
    let mut out = vec![0.0; n];
    for (o, vi) in out.iter_mut().zip(v) {
        *o += w * vi;
    }
    out.iter().map(|o| o * o).sum()
}

/// The same written with `for_each`, and a second pass scaling the entries in place.
#[differentiate(wrt(w))]
fn weighted_each(w: f64, v: &[f64]) -> f64 {
    let mut out = vec![0.0; v.len()];
    out.iter_mut().zip(v).for_each(|(o, vi)| *o += w * vi);
    out.iter_mut().for_each(|o| *o *= w);
    out.iter().map(|o| o * o).sum()
}

#[test]
fn writes_through_iter_mut() {
    let v = [0.5, -1.5, 2.0];
    let s2: f64 = v.iter().map(|x| x * x).sum();
    for w in [0.7, -1.3] {
        let (f, g) = weighted_grad(w, &v);
        assert_eq!(f, weighted(w, &v));
        assert!((g[0] - 2.0 * w * s2).abs() < 1e-13);
        let (_, _, h) = weighted_hessian(w, &v);
        assert!((h[0][0] - 2.0 * s2).abs() < 1e-13);
        // f = w⁴ Σ v², f' = 4 w³ Σ v².
        let (f, g) = weighted_each_grad(w, &v);
        assert_eq!(f, weighted_each(w, &v));
        assert!((g[0] - 4.0 * w.powi(3) * s2).abs() < 1e-12);
        let (_, _, h) = weighted_each_hessian(w, &v);
        assert!((h[0][0] - 12.0 * w * w * s2).abs() < 1e-12);
    }
}

/// y0' = -a y0, y1' = a y0 - b y1.
#[differentiate(wrt(y, theta))]
fn chain(_t: f64, y: &[f64], theta: &[f64]) -> Vec<f64> {
    vec![-theta[0] * y[0], theta[0] * y[0] - theta[1] * y[1]]
}
ode_system!(Chain = chain);

/// y1 at t = 2, read by indexing the solution directly.
#[differentiate]
fn second_at_two(theta: &[f64]) -> Result<f64, DomainError> {
    let tol = OdeTol::new(1e-11, 1e-11, 100_000);
    let ys = ode_rk45(&Chain, &[1.0, 0.0], 0.0, &[1.0, 2.0], theta, tol)?;
    Ok(ys[1][1])
}

#[test]
fn an_ode_solution_indexed_directly() {
    let (a, b, t) = (0.8, 0.3, 2.0_f64);
    let (ea, eb) = ((-a * t).exp(), (-b * t).exp());
    // y1 = a (e^{-at} - e^{-bt}) / (b - a).
    let y1 = a * (ea - eb) / (b - a);
    let dy1_da = ((ea - eb) - a * t * ea) / (b - a) + a * (ea - eb) / (b - a).powi(2);
    let dy1_db = a * t * eb / (b - a) - a * (ea - eb) / (b - a).powi(2);
    let (v, g) = second_at_two_grad(&[a, b]).unwrap();
    assert!((v - y1).abs() < 1e-9, "{v} vs {y1}");
    assert_close(&g, &[dy1_da, dy1_db], 1e-8);
    assert!(second_at_two_grad(&[-1.0, f64::NAN]).is_err());
}

/// `std::mem::swap` between an active and a data value: u = 1.5, w = a; f = 1.5 a².
#[differentiate]
fn swapped(a: f64) -> f64 {
    let mut u = a;
    let mut w = 1.5;
    std::mem::swap(&mut u, &mut w);
    u * w * w
}

#[test]
fn swap_between_active_and_data() {
    let (v, g) = swapped_grad(0.6);
    assert_eq!(v, 1.5 * 0.6 * 0.6);
    assert!((g[0] - 3.0 * 0.6).abs() < 1e-15);
    let (_, _, h) = swapped_hessian(0.6);
    assert_eq!(h, vec![vec![3.0]]);
}

type State = [f64; 2];

/// One explicit Euler step of the harmonic oscillator, returning the alias.
#[differentiate]
fn euler_step(x: f64, v: f64, k: f64) -> State {
    let dt = 0.1;
    let mut s: State = [x, v];
    s[0] += dt * v;
    s[1] -= dt * k * x;
    s
}

/// Points of the polar curve r = a + b θ, as a vector of the alias.
#[differentiate]
fn spiral(a: f64, b: f64) -> Vec<State> {
    (0..4)
        .map(|i| {
            let t = 0.5 * i as f64;
            let r = a + b * t;
            [r * t.cos(), r * t.sin()]
        })
        .collect()
}

#[test]
fn a_type_alias_as_the_result() {
    let (x, v, k) = (1.0, -0.5, 4.0);
    let (vals, jac) = euler_step_jacobian(x, v, k);
    assert_eq!(vals, euler_step(x, v, k).to_vec());
    let want = [[1.0, 0.1, 0.0], [-0.1 * k, 1.0, -0.1 * x]];
    for i in 0..2 {
        assert_close(&jac[i], &want[i], 1e-15);
    }
    let (_, d) = euler_step_jvp(x, v, k, &[0.0, 0.0, 1.0]);
    assert_close(&d, &[0.0, -0.1 * x], 1e-15);
    let (vals, jac) = spiral_jacobian(0.3, 0.2);
    let flat = |p: &[f64]| -> Vec<f64> { spiral(p[0], p[1]).concat() };
    assert_eq!(vals, flat(&[0.3, 0.2]));
    let fd = fd_jacobian(flat, &[0.3, 0.2]);
    for (row, want) in jac.iter().zip(&fd) {
        assert_close(row, want, 1e-9);
    }
}

type Weights = Vec<f64>;

/// The oscillator's energy, the state taken through the alias.
#[differentiate]
fn energy(s: State, k: f64) -> f64 {
    0.5 * s[1] * s[1] + 0.5 * k * s[0] * s[0]
}

/// A weighted sum plus the weights' norm, the weights taken through an alias of `Vec`.
#[differentiate]
fn penalised(w: Weights, xs: &[f64]) -> f64 {
    let total: f64 = w.iter().zip(xs).map(|(wi, x)| wi * x).sum();
    let mut sq = 0.0;
    for wi in &w {
        sq += wi * wi;
    }
    total + sq.sqrt()
}

/// A step that calls the energy with its aliased state.
#[differentiate]
fn damped(s: State, dt: f64) -> f64 {
    energy(s, 2.0) * (-dt).exp() + s.iter().sum::<f64>()
}

#[test]
fn type_aliases_as_parameters() {
    // energy: d/ds = [k q, p], d/dk = q²/2; Hessian over (q, p, k).
    let (v, (gs, gk)) = energy_grad([1.0, 2.0], 3.0);
    assert_eq!(v, energy([1.0, 2.0], 3.0));
    assert_eq!((gs, gk), ([3.0, 2.0], 0.5));
    let (_, _, h) = energy_hessian([1.0, 2.0], 3.0);
    assert_eq!(
        h,
        vec![
            vec![3.0, 0.0, 1.0],
            vec![0.0, 1.0, 0.0],
            vec![1.0, 0.0, 0.0]
        ]
    );
    let _adjoint_code = __energy_adjoint;

    let (w, xs) = (vec![0.3, -1.2, 0.8], [1.0, 2.0, 3.0]);
    let (_, (gw, gx)) = penalised_grad(w.clone(), &xs);
    assert_close(&gw, &fd_grad(|w| penalised(w.to_vec(), &xs), &w), 1e-8);
    assert_close(&gx, &w, 1e-12);
    let (_, (tw, _)) = __penalised_grad_tape(w.clone(), &xs);
    assert_close(&gw, &tw, 1e-12);

    let p = [0.4, -0.7, 0.1];
    let (_, (gs, gdt)) = damped_grad([p[0], p[1]], p[2]);
    let fd = fd_grad(|p| damped([p[0], p[1]], p[2]), &p);
    assert_close(&[gs[0], gs[1], gdt], &fd, 1e-8);
    let (_, _, h) = damped_hessian([p[0], p[1]], p[2]);
    for (i, row) in h.iter().enumerate() {
        let fd = fd_grad(
            |p| {
                let (_, (gs, gdt)) = damped_grad([p[0], p[1]], p[2]);
                [gs[0], gs[1], gdt][i]
            },
            &p,
        );
        assert_close(row, &fd, 1e-6);
    }
}

type Grid = [[f64; 2]; 2];

#[differentiate]
fn row_product(r: [f64; 2]) -> f64 {
    r[0] * r[1]
}

/// Rows of an aliased matrix passed on, destructured and iterated: the macro cannot see
/// that `g[0]` is a row, so these take the tape (they failed to compile under the macro:
/// the adjoint code took each element for a number).
#[differentiate]
fn first_row(g: Grid) -> f64 {
    row_product(g[0]) + 1.0
}

#[differentiate]
fn both_rows(g: Grid) -> f64 {
    let [a, b] = g;
    row_product(a) * row_product(b)
}

#[differentiate]
fn each_row(g: Grid) -> f64 {
    let mut s = 0.0;
    for r in g {
        s += row_product(r);
    }
    s
}

#[test]
fn rows_of_an_aliased_matrix() {
    let g = [[1.0, 2.0], [3.0, 4.0]];
    let flat = [1.0, 2.0, 3.0, 4.0];
    let grid = |p: &[f64]| [[p[0], p[1]], [p[2], p[3]]];
    for (f, grad) in [
        (
            first_row as fn(Grid) -> f64,
            first_row_grad as fn(Grid) -> (f64, Grid),
        ),
        (both_rows, both_rows_grad),
        (each_row, each_row_grad),
    ] {
        let (v, gg) = grad(g);
        assert_eq!(v, f(g));
        assert_close(&gg.concat(), &fd_grad(|p| f(grid(p)), &flat), 1e-8);
    }
}

/// A module's aliases are written out in its functions: helpers take and return them.
#[differentiate]
mod oscillator {
    pub type State = [f64; 2];

    fn deriv(s: &State, k: f64) -> State {
        [s[1], -k * s[0]]
    }

    /// Energy after `steps` Euler steps from (1, 0).
    pub fn energy_after(k: f64, steps: usize) -> f64 {
        let mut s: State = [1.0, 0.0];
        for _ in 0..steps {
            let d = deriv(&s, k);
            s[0] += 0.01 * d[0];
            s[1] += 0.01 * d[1];
        }
        0.5 * (s[1] * s[1] + k * s[0] * s[0])
    }
}

#[test]
fn aliases_in_a_module() {
    for k in [0.5, 2.0] {
        let (v, g) = oscillator::energy_after_grad(k, 50);
        assert_eq!(v, oscillator::energy_after(k, 50));
        let fd = fd_grad(|p| oscillator::energy_after(p[0], 50), &[k]);
        assert_close(&g, &fd, 1e-8);
        let (_, _, h) = oscillator::energy_after_hessian(k, 50);
        let fd_h = fd_grad(|p| oscillator::energy_after_grad(p[0], 50).1[0], &[k]);
        assert_close(&h[0], &fd_h, 1e-7);
    }
}

/// A hidden layer whose weights are rows; differentiated in them or in the input.
#[differentiate]
fn hidden(w: &Vec<Vec<f64>>, x: &[f64]) -> f64 {
    let mut s = 0.0;
    for row in w {
        s += row.iter().zip(x).map(|(a, b)| a * b).sum::<f64>().tanh();
    }
    s
}

/// The weights are data here, passed on to the helper.
#[differentiate(wrt(x))]
fn network(x: &[f64], weights: &Vec<Vec<f64>>) -> f64 {
    hidden(weights, x).powi(2)
}

#[test]
fn data_weights_passed_to_a_helper() {
    let w = vec![vec![0.5, -0.2], vec![0.1, 0.9], vec![-0.4, 0.3]];
    let x = [0.7, -1.1];
    let (v, g) = network_grad(&x, &w);
    assert_eq!(v, network(&x, &w));
    assert_close(&g, &fd_grad(|x| network(x, &w), &x), 1e-9);
    let (_, (gw, gx)) = hidden_grad(&w, &x);
    let flat: Vec<f64> = w.concat();
    let fd_w = fd_grad(
        |p| hidden(&p.chunks(2).map(|r| r.to_vec()).collect(), &x),
        &flat,
    );
    assert_close(&gw.concat(), &fd_w, 1e-9);
    assert_close(&gx, &fd_grad(|x| hidden(&w, x), &x), 1e-9);
}

/// A helper taking an array by reference, called with an array built from active values.
#[differentiate]
fn kinetic(s: &[f64; 4]) -> f64 {
    0.5 * (s[2] * s[2] + s[3] * s[3]) - 1.0 / (s[0] * s[0] + s[1] * s[1]).sqrt()
}

#[differentiate]
fn hamiltonian(q: [f64; 2], p: [f64; 2]) -> f64 {
    let s = [q[0], q[1], p[0], p[1]];
    kinetic(&s)
}

/// A helper with data parameters of other types, called with values the macro cannot
/// type (a `String`, a count from it).
#[differentiate]
fn labelled(label: &str, x: f64, n: usize) -> f64 {
    x * (label.len() + n) as f64
}

#[differentiate]
fn uses_labelled(x: f64) -> f64 {
    let name = String::from("abc");
    let n = name.len();
    labelled(&name, x * x, n)
}

#[test]
fn arrays_and_other_data_in_helpers() {
    let (q, p) = ([0.6, 0.8], [0.3, -0.2]);
    let (v, (gq, gp)) = hamiltonian_grad(q, p);
    assert_eq!(v, hamiltonian(q, p));
    // r = 1: dH/dq = q / r³, dH/dp = p.
    assert_close(&gq, &[0.6, 0.8], 1e-15);
    assert_close(&gp, &[0.3, -0.2], 1e-15);
    let (v, g) = uses_labelled_grad(1.5);
    assert_eq!(v, 6.0 * 2.25);
    assert!((g[0] - 12.0 * 1.5).abs() < 1e-15);
}

/// Where the spring is anchored: data from a plain function, of a type the macro does
/// not see at the call site.
fn rest_position() -> [f64; 2] {
    [1.0, -0.5]
}

/// k/2 |x - a|², with the anchor passed by value.
#[differentiate]
fn spring(anchor: [f64; 2], x: [f64; 2]) -> f64 {
    let k = 3.0;
    let d = [x[0] - anchor[0], x[1] - anchor[1]];
    0.5 * k * (d[0] * d[0] + d[1] * d[1])
}

/// The same spring with both arrays borrowed.
#[differentiate]
fn spring_ref(anchor: &[f64; 2], x: &[f64; 2]) -> f64 {
    let k = 3.0;
    let d: Vec<f64> = x.iter().zip(anchor).map(|(xi, ai)| xi - ai).collect();
    0.5 * k * d.iter().map(|di| di * di).sum::<f64>()
}

/// Three springs to the same anchor: a local passed by value, borrowed, and a call's
/// result borrowed in place. E = 9/2 |x - a|², ∇E = 9 (x - a), ∇²E = 9 I.
#[differentiate]
fn anchored(x: [f64; 2]) -> f64 {
    let anchor = rest_position();
    spring(anchor, x) + spring_ref(&anchor, &x) + spring_ref(&rest_position(), &x)
}

#[test]
fn data_arrays_of_unseen_type_passed_to_helpers() {
    let a = rest_position();
    for x in [[0.3, 0.4], [-2.0, 1.5]] {
        let (e, g) = anchored_grad(x);
        let d = [x[0] - a[0], x[1] - a[1]];
        assert!((e - 4.5 * (d[0] * d[0] + d[1] * d[1])).abs() < 1e-13);
        assert_close(&g, &[9.0 * d[0], 9.0 * d[1]], 1e-13);
        let (_, _, h) = anchored_hessian(x);
        assert_close(&h.concat(), &[9.0, 0.0, 0.0, 9.0], 1e-12);
    }
}

/// A model written as a trait impl whose data sits in `Vec` fields, summing through an
/// iterator chain and a free differentiated helper.
pub trait LogDensity {
    fn log_density(&self, theta: &[f64]) -> f64;
}

pub struct LinReg {
    x: Vec<f64>,
    y: Vec<f64>,
    sigma: f64,
}

#[differentiate]
fn sq(r: f64) -> f64 {
    r * r
}

#[differentiate]
impl LogDensity for LinReg {
    fn log_density(&self, theta: &[f64]) -> f64 {
        let (a, b) = (theta[0], theta[1]);
        -0.5 * self
            .x
            .iter()
            .zip(&self.y)
            .map(|(xi, yi)| sq((yi - a - b * xi) / self.sigma))
            .sum::<f64>()
    }
}

#[test]
fn a_trait_impl_with_vec_data_and_a_helper() {
    let m = LinReg {
        x: vec![0.0, 1.0, 2.0],
        y: vec![1.0, 2.5, 3.9],
        sigma: 0.5,
    };
    let theta = [0.3, 1.2];
    let (v, g) = m.log_density_grad(&theta);
    assert_eq!(v, m.log_density(&theta));
    // d/da = Σ r / σ², d/db = Σ r x / σ², with r = y - a - b x.
    let s2 = m.sigma * m.sigma;
    let r: Vec<f64> =
        m.x.iter()
            .zip(&m.y)
            .map(|(x, y)| y - 0.3 - 1.2 * x)
            .collect();
    let ga = r.iter().sum::<f64>() / s2;
    let gb = r.iter().zip(&m.x).map(|(r, x)| r * x).sum::<f64>() / s2;
    assert_close(&g, &[ga, gb], 1e-13);
    // Through the trait object, as a sampler would hold it.
    let dynamic: &dyn LogDensity = &m;
    assert_eq!(dynamic.log_density(&theta), v);
}

/// A helper taking `&[f64; 4]` called with an active array parameter as it is.
#[differentiate]
fn norm4(s: &[f64; 4]) -> f64 {
    s.iter().map(|v| v * v).sum::<f64>().sqrt()
}

#[differentiate]
fn twice_norm(s: [f64; 4]) -> f64 {
    2.0 * norm4(&s)
}

/// `std::mem::swap` in a loop, the Fibonacci-like update u, w <- w, u + w:
/// after 3 steps from (a, 1), f = (a + 2)(2a + 3), f' = 4a + 7, f'' = 4.
#[differentiate]
fn fib_like(a: f64, n: usize) -> f64 {
    let mut u = a;
    let mut w = 1.0;
    for _ in 0..n {
        let t = u + w;
        u = t;
        std::mem::swap(&mut u, &mut w);
    }
    u * w
}

#[test]
fn array_helpers_and_swaps_in_loops() {
    let s = [1.0, 2.0, 2.0, 4.0];
    let (v, g) = twice_norm_grad(s);
    assert_eq!(v, 10.0);
    assert_close(&g, &[0.4, 0.8, 0.8, 1.6], 1e-15);
    let (_, _, h) = twice_norm_hessian(s);
    let fd_h = fd_jacobian(|x| twice_norm_grad([x[0], x[1], x[2], x[3]]).1.to_vec(), &s);
    assert_close(&h.concat(), &fd_h.concat(), 1e-7);
    for a in [0.7, -1.1] {
        let (v, g) = fib_like_grad(a, 3);
        assert!((v - (a + 2.0) * (2.0 * a + 3.0)).abs() < 1e-14);
        assert!((g[0] - (4.0 * a + 7.0)).abs() < 1e-14);
        let (_, _, h) = fib_like_hessian(a, 3);
        assert!((h[0][0] - 4.0).abs() < 1e-14);
    }
}
