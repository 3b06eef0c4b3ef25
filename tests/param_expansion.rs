//! What `#[differentiate]` can generate for nalgebra, ndarray and nested parameters with
//! `fazang::param` (written out by hand here, as the macro would expand it): the generic
//! primal, `_grad` returning each gradient in its parameter's shape, and `_grad_into`
//! writing a flat gradient into the caller's buffer. Gradients are checked against closed
//! forms.

use fazang::__private::{grad_in_scope, scope, RefOps, RefScalarOps, ScalarOps};
use fazang::param::{Inputs, Param};
use fazang::prelude::*;
use nalgebra::DVector;
use ndarray::{array, Array1, ArrayView1};

// The user writes:
//
// #[differentiate]
// fn model(x: &DVector<f64>, z: ArrayView1<f64>, w: &[Vec<f64>], k: f64) -> f64 {
//     let mut s = x.dot(x) * k;
//     for i in 0..x.len() {
//         s += x[i] * z[i];
//     }
//     for row in w {
//         for v in row {
//             s += v * v;
//         }
//     }
//     s
// }

/// The generic primal (`k` is data: no `wrt` names it as active here, a literal `f64`
/// parameter the macro would make active is shown in `scaled` below).
#[allow(clippy::ptr_arg)]
fn model<S: Real + num_traits::Float>(x: &DVector<S>, z: ArrayView1<S>, w: &[Vec<S>], k: f64) -> S
where
    f64: ScalarOps<S>,
    for<'a> &'a S: RefOps<S> + RefScalarOps<S>,
    for<'a> &'a f64: RefOps<S>,
{
    let mut s = x.dot(x) * k;
    for i in 0..x.len() {
        s += x[i] * z[i];
    }
    for row in w {
        for v in row {
            s += v * v;
        }
    }
    s
}

/// `_grad`: every parameter activated through `Param` (one run of inputs), the call,
/// one sweep, each gradient read back in its parameter's shape.
#[allow(clippy::type_complexity)]
fn model_grad(
    x: &DVector<f64>,
    z: ArrayView1<f64>,
    w: &[Vec<f64>],
    k: f64,
) -> (f64, (DVector<f64>, Array1<f64>, Vec<Vec<f64>>)) {
    let _scope = scope();
    let mut inputs = Inputs::new();
    let x_a = Param::activate(x, &mut inputs); // `x: &T`: passed as it is
    let z_a = Param::activate(&z, &mut inputs); // by value: borrowed
    let w_a = Param::activate(w, &mut inputs);
    let out: Var = model(&x_a, z_a.view(), &w_a, k); // views get `.view()`
    grad_in_scope(out);
    let mut adj = inputs.adjoints();
    let g = (
        Param::gradient(x, &mut adj),
        Param::gradient(&z, &mut adj),
        Param::gradient(w, &mut adj),
    );
    (out.val(), g)
}

/// `_grad_into` for slice parameters: the gradient, flat in parameter order, written into
/// the caller's buffer; active slices in reused buffers.
fn scaled<S: Real>(x: &[S], y: &[S]) -> S
where
    f64: ScalarOps<S>,
    for<'a> &'a S: RefOps<S> + RefScalarOps<S>,
    for<'a> &'a f64: RefOps<S>,
{
    x.iter().zip(y).map(|(a, b)| a * b).sum::<S>() + x[0].exp()
}

fn scaled_grad_into(x: &[f64], y: &[f64], g: &mut [f64]) -> f64 {
    let _scope = scope();
    let mut inputs = Inputs::new();
    inputs.with_slice(x, |inputs, x_a| {
        inputs.with_slice(y, |inputs, y_a| {
            let out: Var = scaled(x_a, y_a);
            grad_in_scope(out);
            inputs.adjoints_into(g);
            out.val()
        })
    })
}

#[test]
fn grad_returns_each_gradient_in_its_parameters_shape() {
    let x = DVector::from_vec(vec![1.0, -2.0, 0.5]);
    let z = array![0.3, 0.1, 2.0];
    let w = vec![vec![1.5], vec![-0.5, 2.0]];
    let k = 0.7;
    let (v, (gx, gz, gw)) = model_grad(&x, z.view(), &w, k);
    assert_eq!(v, model(&x, z.view(), &w, k));
    // d/dx = 2 k x + z, d/dz = x, d/dw = 2 w
    assert_eq!(
        gx,
        &x * (2.0 * k) + DVector::from_iterator(3, z.iter().copied())
    );
    assert_eq!(gz, array![1.0, -2.0, 0.5]);
    assert_eq!(gw, vec![vec![3.0], vec![-1.0, 4.0]]);
}

#[test]
fn grad_into_writes_the_flat_gradient_into_the_callers_buffer() {
    let (x, y) = ([0.5, 1.0], [2.0, -3.0]);
    let mut g = [0.0; 4];
    let v = scaled_grad_into(&x, &y, &mut g);
    assert_eq!(v, scaled(&x, &y));
    assert_eq!(g, [2.0 + 0.5_f64.exp(), -3.0, 0.5, 1.0]);
    // Long slices take the pooled buffers.
    let x: Vec<f64> = (0..40).map(|i| i as f64 * 0.1).collect();
    let mut g = vec![0.0; 80];
    scaled_grad_into(&x, &x, &mut g);
    // d/dx_i = y_i (+ e^x_0 for i = 0), d/dy_i = x_i, with y = x.
    assert_eq!(g[0], x[0] + x[0].exp());
    assert_eq!(&g[1..40], &x[1..]);
    assert_eq!(&g[40..], &x[..]);
}
