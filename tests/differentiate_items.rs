//! `#[differentiate]` on impl blocks and inline modules, and parameters and results of
//! nested `f64` shapes. Gradients against finite differences and closed forms.
#![allow(clippy::needless_range_loop, clippy::ptr_arg)]

mod body_support;
use body_support::{assert_close, fd_grad, fd_jacobian};
use fazang::prelude::*;

// A model as a method ------------------------------------------------------------------

struct Regression {
    xs: Vec<f64>,
    ys: Vec<f64>,
    noise: f64,
}

#[differentiate]
impl Regression {
    /// Gaussian log likelihood of a line through the data.
    fn log_density(&self, theta: &[f64]) -> f64 {
        let mut lp = 0.0;
        for i in 0..self.xs.len() {
            let r = self.ys[i] - self.predict(theta, self.xs[i]);
            lp -= 0.5 * r * r / (self.noise * self.noise);
        }
        lp + Self::log_prior(theta[0]) + Self::log_prior(theta[1])
    }

    fn predict(&self, theta: &[f64], x: f64) -> f64 {
        theta[0] + theta[1] * x
    }

    fn log_prior(t: f64) -> f64 {
        -0.5 * t * t
    }

    fn len(&self) -> usize {
        self.xs.len()
    }
}

#[test]
fn methods_of_a_differentiated_impl() {
    let m = Regression {
        xs: vec![0.0, 1.0, 2.0, 3.0],
        ys: vec![0.1, 0.9, 2.2, 2.8],
        noise: 0.5,
    };
    let theta = [0.2, 0.8];
    let (v, g) = m.log_density_grad(&theta);
    assert_eq!(v, m.log_density(&theta));
    assert_close(&g, &fd_grad(|t| m.log_density(t), &theta), 1e-8);
    // A method without active parameters is left as it was; an associated function with
    // one gets its gradient too.
    assert_eq!(m.len(), 4);
    assert_eq!(Regression::log_prior_grad(2.0), (-2.0, [-2.0]));
    // Methods with active parameters and a vector result would get _jacobian; `predict`
    // returns a scalar, so it has a gradient in (theta, x).
    let (p, (dtheta, dx)) = m.predict_grad(&theta, 2.0);
    assert_eq!((p, dtheta, dx), (1.8, vec![1.0, 2.0], 0.8));
}

// Helpers in a module -------------------------------------------------------------------

#[differentiate]
mod model {
    fn sq(v: f64) -> f64 {
        v * v
    }

    fn accumulate(total: &mut f64, v: f64) {
        *total += v;
    }

    /// Not differentiable (no active parameter): kept as it is.
    pub fn describe(n: usize) -> String {
        format!("{n} parameters")
    }

    pub fn loss(w: &[f64], target: f64) -> f64 {
        let mut total = 0.0;
        for &wi in w {
            accumulate(&mut total, sq(wi));
        }
        sq(total - target)
    }

    #[differentiate(wrt(w))]
    pub fn penalised(w: &[f64], lambda: f64) -> f64 {
        loss(w, 1.0) + lambda * w.iter().map(|v| v.abs()).sum::<f64>()
    }
}

#[test]
fn functions_of_a_differentiated_module() {
    let w = [0.3, -0.5, 0.9];
    let (v, (dw, dt)) = model::loss_grad(&w, 2.0);
    assert_eq!(v, model::loss(&w, 2.0));
    let s: f64 = w.iter().map(|v| v * v).sum();
    let want: Vec<f64> = w.iter().map(|v| 2.0 * (s - 2.0) * 2.0 * v).collect();
    assert_close(&dw, &want, 1e-14);
    assert_close(&[dt], &[-2.0 * (s - 2.0)], 1e-14);
    let (_, g) = model::penalised_grad(&w, 0.1);
    assert_close(&g, &fd_grad(|w| model::penalised(w, 0.1), &w), 1e-8);
    assert_eq!(model::describe(3), "3 parameters");
}

// Nested shapes -------------------------------------------------------------------------

#[differentiate]
fn quadratic_form(a: [[f64; 3]; 3], x: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        for j in 0..3 {
            s += x[i] * a[i][j] * x[j];
        }
    }
    s
}

#[test]
fn arrays_of_arrays_and_references_to_arrays() {
    let a = [[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 3.0]];
    let x = [1.0, -2.0, 0.5];
    let (v, (da, dx)) = quadratic_form_grad(a, &x);
    assert_eq!(v, quadratic_form(a, &x));
    for i in 0..3 {
        for j in 0..3 {
            assert_eq!(da[i][j], x[i] * x[j]);
        }
        let want: f64 = (0..3).map(|j| (a[i][j] + a[j][i]) * x[j]).sum();
        assert_close(&[dx[i]], &[want], 1e-15);
    }
}

#[differentiate]
fn mlp_layer(weights: Vec<Vec<f64>>, bias: &[f64], input: &[Vec<f64>]) -> f64 {
    let mut loss = 0.0;
    for x in input {
        for (row, b) in weights.iter().zip(bias) {
            let z: f64 = row.iter().zip(x).map(|(w, xi)| w * xi).sum::<f64>() + b;
            loss += z.tanh();
        }
    }
    loss
}

#[test]
fn vectors_of_vectors_and_slices_of_vectors() {
    let w = vec![vec![0.1, -0.2], vec![0.3, 0.4]];
    let b = [0.05, -0.1];
    let input = vec![vec![1.0, 2.0], vec![-0.5, 0.7]];
    let (v, (dw, db, dx)) = mlp_layer_grad(w.clone(), &b, &input);
    assert_eq!(v, mlp_layer(w.clone(), &b, &input));
    let flat = |p: &[f64]| {
        let w = vec![p[0..2].to_vec(), p[2..4].to_vec()];
        let x = vec![p[6..8].to_vec(), p[8..10].to_vec()];
        mlp_layer(w, &p[4..6], &x)
    };
    let p = [0.1, -0.2, 0.3, 0.4, 0.05, -0.1, 1.0, 2.0, -0.5, 0.7];
    let fd = fd_grad(flat, &p);
    let got: Vec<f64> = dw
        .concat()
        .into_iter()
        .chain(db)
        .chain(dx.concat())
        .collect();
    assert_close(&got, &fd, 1e-8);
}

#[differentiate]
fn outer_product(a: &[f64], b: [f64; 2]) -> Vec<Vec<f64>> {
    a.iter()
        .map(|x| b.iter().map(|y| x * y).collect())
        .collect()
}

#[test]
fn jacobian_of_a_nested_result_is_row_major() {
    let a = [1.0, 2.0, 3.0];
    let (v, jac) = outer_product_jacobian(&a, [0.5, -1.0]);
    assert_eq!(v, outer_product(&a, [0.5, -1.0]).concat());
    let flat = |p: &[f64]| outer_product(&p[..3], [p[3], p[4]]).concat();
    let fd = fd_jacobian(flat, &[1.0, 2.0, 3.0, 0.5, -1.0]);
    for (row, want) in jac.iter().zip(&fd) {
        assert_close(row, want, 1e-9);
    }
}

// nalgebra and ndarray parameters ---------------------------------------------------------

#[differentiate]
fn weighted_norm(x: &nalgebra::DVector<f64>, w: ndarray::ArrayView1<f64>, k: f64) -> f64 {
    let mut s = x.dot(x) * k;
    for i in 0..x.len() {
        s += w[i] * x[i].sin();
    }
    s
}

#[test]
fn nalgebra_and_ndarray_parameters_get_gradients_in_their_types() {
    let x = nalgebra::DVector::from_vec(vec![0.5, -1.0, 2.0]);
    let w = ndarray::array![1.0, 2.0, 3.0];
    let (v, (gx, gw, gk)) = weighted_norm_grad(&x, w.view(), 0.7);
    assert_eq!(v, weighted_norm(&x, w.view(), 0.7));
    for i in 0..3 {
        assert_close(&[gx[i]], &[2.0 * 0.7 * x[i] + w[i] * x[i].cos()], 1e-15);
        assert_close(&[gw[i]], &[x[i].sin()], 1e-15);
    }
    assert_close(&[gk], &[x.dot(&x)], 1e-15);
}

#[differentiate]
fn rotate(v: &nalgebra::DVector<f64>, angle: f64) -> nalgebra::DVector<f64> {
    let (s, c) = angle.sin_cos();
    nalgebra::DVector::from_vec(vec![c * v[0] - s * v[1], s * v[0] + c * v[1]])
}

#[test]
fn jacobian_of_a_nalgebra_result() {
    let v = nalgebra::DVector::from_vec(vec![1.0, 2.0]);
    let (vals, jac) = rotate_jacobian(&v, 0.3);
    assert_eq!(vals, rotate(&v, 0.3).as_slice());
    let flat = |p: &[f64]| {
        rotate(&nalgebra::DVector::from_vec(p[..2].to_vec()), p[2])
            .as_slice()
            .to_vec()
    };
    let fd = fd_jacobian(flat, &[1.0, 2.0, 0.3]);
    for (row, want) in jac.iter().zip(&fd) {
        assert_close(row, want, 1e-9);
    }
}
