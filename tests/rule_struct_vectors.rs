//! `#[deriv_rule]` structs with vector fields, as a small network's layer is written:
//! every entry of `Vec<f64>` and `Vec<Vec<f64>>` fields is differentiable, `_grad`
//! returns the gradient as a struct of the same shape, `_hessian` runs over the entries
//! in field then element order. Checked against finite differences and closed forms.

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::composite::Composite;
use fazang::prelude::*;

#[deriv_rule]
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    w: Vec<Vec<f64>>,
    b: Vec<f64>,
    name: String,
}

/// Squared error of a one-hidden-layer tanh network summed over its units.
#[differentiate(wrt(layer))]
fn loss(layer: Layer, xs: &[Vec<f64>], ys: &[f64]) -> f64 {
    let mut total = 0.0;
    for (x, y) in xs.iter().zip(ys) {
        let mut out = 0.0;
        for (row, b) in layer.w.iter().zip(&layer.b) {
            let h: f64 = row.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() + b;
            out += h.tanh();
        }
        total += (out - y).powi(2);
    }
    total
}

fn layer_from(theta: &[f64]) -> Layer {
    Layer {
        w: vec![
            theta[0..2].to_vec(),
            theta[2..4].to_vec(),
            theta[4..6].to_vec(),
        ],
        b: theta[6..9].to_vec(),
        name: "hidden".into(),
    }
}

fn flatten(l: &Layer) -> Vec<f64> {
    l.w.iter().flatten().chain(&l.b).copied().collect()
}

fn data() -> (Vec<Vec<f64>>, Vec<f64>) {
    let xs = vec![
        vec![0.5, -1.0],
        vec![1.5, 0.3],
        vec![-0.7, 0.8],
        vec![0.1, 0.1],
    ];
    (xs, vec![0.2, -0.4, 1.1, 0.0])
}

#[test]
fn a_layer_of_vectors_is_a_parameter() {
    let theta = [0.3, -0.2, 0.5, 0.1, -0.4, 0.6, 0.05, -0.1, 0.2];
    let layer = layer_from(&theta);
    assert_eq!(Composite::count(&layer), 9);
    let (xs, ys) = data();
    let (v, g) = loss_grad(layer.clone(), &xs, &ys);
    assert_eq!(v, loss(layer.clone(), &xs, &ys));
    assert_eq!(g.name, "hidden");
    assert_eq!((g.w.len(), g.w[0].len(), g.b.len()), (3, 2, 3));
    let fd = fd_grad(|t| loss(layer_from(t), &xs, &ys), &theta);
    assert_close(&flatten(&g), &fd, 1e-8);
    let (vh, gh, h) = loss_hessian(layer.clone(), &xs, &ys);
    assert_eq!(vh, v);
    assert_close(&flatten(&gh), &flatten(&g), 1e-13);
    assert_eq!(h.len(), 9);
    for (i, row) in h.iter().enumerate() {
        let fd_row = fd_grad(
            |t| {
                let (_, g) = loss_grad(layer_from(t), &xs, &ys);
                flatten(&g)[i]
            },
            &theta,
        );
        assert_close(row, &fd_row, 1e-7);
    }
    let dir: Vec<f64> = (0..9).map(|k| (k as f64 - 4.0) / 4.0).collect();
    let (_, d) = loss_jvp(layer, &xs, &ys, &dir);
    let want: f64 = flatten(&g).iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert!((d - want).abs() < 1e-12);
}

/// A rule on the struct: the sum of squares of every entry, its partial 2 w.
#[deriv_rule(l => Layer {
    w: l.w.iter().map(|r| r.iter().map(|v| 2.0 * v).collect()).collect(),
    b: l.b.iter().map(|v| 2.0 * v).collect(),
    name: l.name.clone(),
})]
fn weight_decay(l: Layer) -> f64 {
    l.w.iter().flatten().chain(&l.b).map(|v| v * v).sum()
}

#[differentiate(wrt(layer))]
fn penalised(layer: Layer, xs: &[Vec<f64>], ys: &[f64]) -> f64 {
    let decay = weight_decay(layer.clone());
    loss(layer, xs, ys) + 0.1 * decay
}

#[test]
fn a_rule_on_a_layer_of_vectors() {
    let theta = [0.3, -0.2, 0.5, 0.1, -0.4, 0.6, 0.05, -0.1, 0.2];
    let (xs, ys) = data();
    let (_, g) = penalised_grad(layer_from(&theta), &xs, &ys);
    let (_, g_loss) = loss_grad(layer_from(&theta), &xs, &ys);
    let want: Vec<f64> = flatten(&g_loss)
        .iter()
        .zip(&theta)
        .map(|(a, t)| a + 0.2 * t)
        .collect();
    assert_close(&flatten(&g), &want, 1e-14);
}

/// A wrong rule: the partials of `b` lack an entry.
#[deriv_rule(l => Layer { w: l.w.clone(), b: vec![1.0], name: String::new() })]
fn short_rule(l: Layer) -> f64 {
    l.b.iter().sum()
}

#[test]
#[should_panic(expected = "field `b` has 1 entries, but the argument's has 3")]
fn partials_of_another_length_are_refused() {
    let theta = [0.0; 9];
    let _ = gradient(
        |t| {
            let l = Layer {
                w: vec![t[0..2].to_vec(), t[2..4].to_vec(), t[4..6].to_vec()],
                b: t[6..9].to_vec(),
                name: String::new(),
            };
            short_rule(l)
        },
        &theta,
    );
}
