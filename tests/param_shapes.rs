//! `fazang::param::Param`, the runtime side of parameters of every shape: the active copy
//! records one input per `f64` entry in a fixed order, and the gradient comes back in the
//! parameter's own shape (and flat, in the same order, through `Inputs::adjoints_into`).

mod runtime_support;

use fazang::param::{Inputs, Param};
use fazang::prelude::*;
use nalgebra::{DMatrix, DVector, SMatrix, SVector};
use ndarray::{array, Array1, Array2, ArrayView1, ShapeBuilder};

#[deriv_rule]
#[derive(Debug, Clone, PartialEq)]
struct Point {
    x: f64,
    label: &'static str,
    y: f64,
}

/// The gradient of f = Σₖ (k + 1) inputₖ over the inputs `p` makes, in `p`'s shape and
/// flat: entry k of the flat gradient is k + 1, so each entry of the shaped one says
/// which input it was.
fn numbered<P: Param + ?Sized>(p: &P) -> (P::Gradient, Vec<f64>) {
    nested(|| {
        let mut inputs = Inputs::new();
        let _active = p.activate(&mut inputs);
        assert_eq!(inputs.len(), p.count(), "count");
        let f: Var = inputs
            .to_vars()
            .iter()
            .enumerate()
            .map(|(k, &v)| (k as f64 + 1.0) * v)
            .sum();
        f.grad();
        let mut flat = vec![0.0; inputs.len()];
        inputs.adjoints_into(&mut flat);
        (p.gradient(&mut inputs.adjoints()), flat)
    })
}

fn one_to(n: usize) -> Vec<f64> {
    (1..=n).map(|k| k as f64).collect()
}

#[test]
fn entries_are_numbered_in_a_fixed_order_for_every_shape() {
    assert_eq!(numbered(&2.5), (1.0, one_to(1)));
    assert_eq!(numbered(&[7.0, 8.0, 9.0]), ([1.0, 2.0, 3.0], one_to(3)));
    assert_eq!(numbered(&vec![7.0, 8.0]).0, vec![1.0, 2.0]);
    assert_eq!(numbered(&[1.0, 2.0][..]).0, vec![1.0, 2.0]);
    // Nested: row after row.
    let nested_vec = vec![vec![0.0, 0.0, 0.0], vec![], vec![0.0]];
    assert_eq!(
        numbered(&nested_vec).0,
        vec![vec![1.0, 2.0, 3.0], vec![], vec![4.0]]
    );
    assert_eq!(
        numbered(&[[0.0; 2]; 3]).0,
        [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    );
    // A registered struct: its f64 fields in field order, data fields kept.
    let p = Point {
        x: 0.0,
        label: "p",
        y: 0.0,
    };
    assert_eq!(
        numbered(&p).0,
        Point {
            x: 1.0,
            label: "p",
            y: 2.0
        }
    );
    assert_eq!(
        numbered(&vec![p.clone(), p.clone()]).0,
        vec![
            Point {
                x: 1.0,
                label: "p",
                y: 2.0
            },
            Point {
                x: 3.0,
                label: "p",
                y: 4.0
            }
        ]
    );
    // nalgebra: column-major, shapes kept (static ones static).
    let m = DMatrix::<f64>::zeros(2, 3);
    assert_eq!(numbered(&m).0, DMatrix::from_column_slice(2, 3, &one_to(6)));
    let s = SMatrix::<f64, 2, 2>::zeros();
    let gs: SMatrix<f64, 2, 2> = numbered(&s).0;
    assert_eq!(gs, SMatrix::<f64, 2, 2>::new(1.0, 3.0, 2.0, 4.0));
    let v = SVector::<f64, 3>::zeros();
    assert_eq!(numbered(&v).0, SVector::<f64, 3>::new(1.0, 2.0, 3.0));
    // ndarray: logical row-major order, whatever the memory layout.
    let a = Array2::<f64>::zeros((2, 3));
    assert_eq!(numbered(&a).0, array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let f = Array2::<f64>::zeros((2, 3).f());
    assert_eq!(numbered(&f).0, array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let t = a.t();
    assert_eq!(numbered(&t).0, array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]);
    let strided = Array1::<f64>::zeros(6);
    let view: ArrayView1<f64> = strided.slice(ndarray::s![..;2]);
    assert_eq!(numbered(&view).0, array![1.0, 2.0, 3.0]);
}

#[test]
fn several_parameters_make_one_run_of_inputs() {
    // f(a, w, m, z, p) with every shape at once, against its closed-form gradient.
    let a = 1.5;
    let w = vec![vec![0.5, -1.0], vec![2.0]];
    let m = DVector::from_vec(vec![0.3, 0.7]);
    let z = array![[1.0, 2.0], [3.0, 4.0]];
    let p = Point {
        x: -0.5,
        label: "q",
        y: 0.25,
    };
    let (ga, gw, gm, gz, gp, flat) = nested(|| {
        let mut inputs = Inputs::new();
        let av = a.activate(&mut inputs);
        let wv = w.activate(&mut inputs);
        let mv = m.activate(&mut inputs);
        let zv = z.view().activate(&mut inputs);
        let pv = p.activate(&mut inputs);
        // f = a² (w₀₀ w₀₁ + w₁₀) + mᵀm + Σ z + z₁₀ px + sin(py)
        let f = av * av * (wv[0][0] * wv[0][1] + wv[1][0])
            + mv.dot(&mv)
            + zv.sum()
            + zv[[1, 0]] * pv.x
            + pv.y.sin();
        f.grad();
        let mut adj = inputs.adjoints();
        let g = (
            a.gradient(&mut adj),
            w.gradient(&mut adj),
            m.gradient(&mut adj),
            z.view().gradient(&mut adj),
            p.gradient(&mut adj),
        );
        assert_eq!(adj.next(), None, "every adjoint read");
        let mut flat = vec![0.0; inputs.len()];
        inputs.adjoints_into(&mut flat);
        (g.0, g.1, g.2, g.3, g.4, flat)
    });
    let s = w[0][0] * w[0][1] + w[1][0];
    assert_eq!(ga, 2.0 * a * s);
    assert_eq!(
        gw,
        vec![vec![a * a * w[0][1], a * a * w[0][0]], vec![a * a]]
    );
    assert_eq!(gm, DVector::from_vec(vec![0.6, 1.4]));
    assert_eq!(gz, array![[1.0, 1.0], [1.0 + p.x, 1.0]]);
    assert_eq!(
        gp,
        Point {
            x: z[[1, 0]],
            label: "q",
            y: p.y.cos()
        }
    );
    let want_flat: Vec<f64> = [ga]
        .into_iter()
        .chain(gw.concat())
        .chain(gm.iter().copied())
        .chain(gz.iter().copied())
        .chain([gp.x, gp.y])
        .collect();
    assert_eq!(flat, want_flat);
}

#[test]
fn recording_between_inputs_is_refused() {
    let r = std::panic::catch_unwind(|| {
        nested(|| {
            let mut inputs = Inputs::new();
            let a = 1.0.activate(&mut inputs);
            let _ = a * 2.0; // recorded between two inputs
            let _ = 2.0.activate(&mut inputs);
        })
    });
    let msg = runtime_support::panic_message(&*r.unwrap_err());
    assert!(
        msg.contains("inputs of a gradient must be recorded one after the other"),
        "{msg}"
    );
    let r = std::panic::catch_unwind(|| {
        nested(|| {
            let mut inputs = Inputs::new();
            let _ = [1.0, 2.0].activate(&mut inputs);
            inputs.adjoints_into(&mut [0.0; 3]);
        })
    });
    let msg = runtime_support::panic_message(&*r.unwrap_err());
    assert!(
        msg.contains("a gradient buffer of length 3 for 2 inputs"),
        "{msg}"
    );
}
