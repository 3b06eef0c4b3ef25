//! Slice functions `sum dot_product log_sum_exp norm2 matmul` over `f64`, `Var` and mixed
//! slices, against closed forms and finite differences, including the numerical edges.

mod runtime_support;

use fazang::prelude::*;
use runtime_support::{assert_all_close, assert_close, fd_grad};

/// Value and gradient of `f` over fresh variables at `x` (nested, nothing stays).
fn grad_of(f: impl Fn(&[Var]) -> Var, x: &[f64]) -> (f64, Vec<f64>) {
    nested(|| {
        let xs: Vec<Var> = x.iter().map(|&v| Var::new(v)).collect();
        let y = f(&xs);
        y.grad();
        (y.val(), xs.iter().map(|x| x.adj()).collect())
    })
}

/// log Σ exp, the naive way, for moderate inputs only.
fn naive_lse(x: &[f64]) -> f64 {
    x.iter().map(|v| v.exp()).sum::<f64>().ln()
}

#[test]
fn sum_over_f64_and_var() {
    let x = [1.5, -2.0, 4.25];
    assert_eq!(sum(&x), 3.75);
    let (v, g) = grad_of(sum, &x);
    assert_eq!((v, g), (3.75, vec![1.0; 3]));
    assert_eq!(sum::<f64>(&[]), 0.0);
    assert!(sum::<Var>(&[]).is_constant());
}

#[test]
fn dot_product_in_every_type_combination() {
    let (a, b) = ([1.0, -2.0, 3.0], [0.5, 4.0, -1.5]);
    let want = 1.0 * 0.5 + -2.0 * 4.0 + 3.0 * -1.5;
    assert_eq!(dot_product(&a, &b), want);
    // Var · f64 and f64 · Var: gradient is the other slice.
    let (v, g) = grad_of(|x| dot_product(x, &b), &a);
    assert_eq!((v, g), (want, b.to_vec()));
    let (v, g) = grad_of(|x| dot_product(&a, x), &b);
    assert_eq!((v, g), (want, a.to_vec()));
    // Var · Var.
    let both: Vec<f64> = a.iter().chain(&b).copied().collect();
    let (v, g) = grad_of(|x| dot_product(&x[..3], &x[3..]), &both);
    assert_eq!(v, want);
    assert_eq!(g, [b.to_vec(), a.to_vec()].concat());
    // x · x: gradient 2x (the same variable on both sides).
    let (v, g) = grad_of(|x| dot_product(x, x), &a);
    assert_eq!((v, g), (14.0, vec![2.0, -4.0, 6.0]));
}

#[test]
#[should_panic(expected = "different lengths")]
fn dot_product_of_different_lengths_panics() {
    let _ = dot_product(&[1.0, 2.0], &[1.0]);
}

#[test]
fn log_sum_exp_matches_the_naive_formula_and_softmax() {
    let x = [0.5, -1.0, 2.0, 0.0];
    let (v, g) = grad_of(log_sum_exp, &x);
    assert_close(v, naive_lse(&x), 1e-15, "lse value");
    let total: f64 = x.iter().map(|v| v.exp()).sum();
    let softmax: Vec<f64> = x.iter().map(|v| v.exp() / total).collect();
    assert_all_close(&g, &softmax, 1e-15, "lse gradient");
    assert_all_close(
        &g,
        &fd_grad(naive_lse, &x),
        1e-9,
        "lse vs finite differences",
    );
    assert_eq!(log_sum_exp(&x), v, "f64 and Var values agree");
}

#[test]
fn log_sum_exp_is_stable_for_huge_inputs() {
    let x = [1.0, 7.0, 1e8, 5.0];
    assert_eq!(log_sum_exp(&x), 1e8);
    let (v, g) = grad_of(log_sum_exp, &x);
    assert_eq!(v, 1e8);
    assert_eq!(g, vec![0.0, 0.0, 1.0, 0.0]);
    // Very negative inputs neither underflow to -∞ nor lose the log of the count.
    let y = [-1000.0, -1000.0];
    assert_close(
        log_sum_exp(&y),
        -1000.0 + 2f64.ln(),
        1e-15,
        "lse of equal -1000s",
    );
}

#[test]
fn log_sum_exp_with_negative_infinity_entries() {
    let x = [f64::NEG_INFINITY, 0.0, f64::NEG_INFINITY, 2f64.ln()];
    // ln(0 + 1 + 0 + 2) = ln 3; softmax [0, 1/3, 0, 2/3].
    let (v, g) = grad_of(log_sum_exp, &x);
    assert_close(v, 3f64.ln(), 1e-15, "lse with -inf");
    assert_all_close(
        &g,
        &[0.0, 1.0 / 3.0, 0.0, 2.0 / 3.0],
        1e-15,
        "softmax with -inf",
    );
    // All -inf (and empty): -inf, zero gradient, no NaN.
    let (v, g) = grad_of(log_sum_exp, &[f64::NEG_INFINITY; 2]);
    assert_eq!((v, g), (f64::NEG_INFINITY, vec![0.0, 0.0]));
    assert_eq!(log_sum_exp::<f64>(&[]), f64::NEG_INFINITY);
}

#[test]
fn slice_functions_propagate_nan() {
    // A NaN entry makes the result NaN, as ln(Σ exp) and √(Σ x²) would on f64, even when
    // every entry is NaN (the max of no numbers must not stand in for it).
    for x in [vec![f64::NAN], vec![f64::NAN, 1.0], vec![1.0, f64::NAN]] {
        assert!(log_sum_exp(&x).is_nan(), "log_sum_exp({x:?})");
        assert!(norm2(&x).is_nan(), "norm2({x:?})");
        assert!(grad_of(log_sum_exp, &x).0.is_nan());
        assert!(grad_of(norm2, &x).0.is_nan());
    }
}

#[test]
fn norm2_values_and_gradients() {
    let x = [3.0, -4.0, 12.0];
    let (v, g) = grad_of(norm2, &x);
    assert_eq!(v, 13.0);
    assert_all_close(&g, &[3.0 / 13.0, -4.0 / 13.0, 12.0 / 13.0], 1e-15, "x/|x|");
    let naive = |x: &[f64]| x.iter().map(|v| v * v).sum::<f64>().sqrt();
    assert_all_close(&g, &fd_grad(naive, &x), 1e-9, "norm2 vs finite differences");
    // Scaled: no overflow or underflow; as accurate as std's hypot (correctly rounded
    // here: √(3e200² + 4e200²) of the doubles is 4.99999999999999984866e200).
    assert_eq!(norm2(&[3e200, 4e200]), 3e200_f64.hypot(4e200));
    assert_eq!(norm2(&[3e-200, -4e-200]), 3e-200_f64.hypot(4e-200));
    assert_eq!(norm2(&[f64::MIN_POSITIVE / 8.0]), f64::MIN_POSITIVE / 8.0);
    assert_eq!(norm2(&[1.0, f64::INFINITY]), f64::INFINITY);
}

#[test]
fn norm2_of_the_zero_vector_has_gradient_zero() {
    let (v, g) = grad_of(norm2, &[0.0, 0.0, 0.0]);
    assert_eq!((v, g), (0.0, vec![0.0; 3]));
    assert_eq!(norm2::<f64>(&[]), 0.0);
}

#[test]
fn matmul_of_f64_matrices() {
    // [[1,2,3],[4,5,6]] (2×3) times [[7,8],[9,10],[11,12]] (3×2).
    let a = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let b = [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]];
    assert_eq!(matmul(&a, &b), vec![vec![58.0, 64.0], vec![139.0, 154.0]]);
    // Vec rows work as well, and a column vector gives a column.
    let a = vec![vec![1.0, 2.0], vec![3.0, 4.0]];
    assert_eq!(matmul(&a, &[[1.0], [1.0]]), vec![vec![3.0], vec![7.0]]);
}

#[test]
fn matmul_gradients_with_mixed_operands() {
    // f = Σ_ij (A B)_ij W_ij with W a weight matrix: df/dA = W Bᵀ, df/dB = Aᵀ W.
    let a = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]; // 3×2
    let b = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]; // 2×3
    let w = [[1.0, 0.0, 2.0], [-1.0, 3.0, 0.5], [0.0, 1.0, 1.0]]; // 3×3
    let weigh = |c: Vec<Vec<Var>>| {
        let mut f = Var::from(0.0);
        for (row, wrow) in c.iter().zip(&w) {
            f += dot_product(row, wrow);
        }
        f
    };
    let flat_a: Vec<f64> = a.iter().flatten().copied().collect();
    let flat_b: Vec<f64> = b.iter().flatten().copied().collect();
    // Active A, data B.
    let (_, ga) = grad_of(
        |x| weigh(matmul(&x.chunks(2).collect::<Vec<_>>(), &b)),
        &flat_a,
    );
    let want_a: Vec<f64> = (0..3)
        .flat_map(|i| (0..2).map(move |k| (0..3).map(|j| w[i][j] * b[k][j]).sum::<f64>()))
        .collect();
    assert_eq!(ga, want_a, "df/dA = W Bᵀ");
    // Data A, active B.
    let (_, gb) = grad_of(
        |x| weigh(matmul(&a, &x.chunks(3).collect::<Vec<_>>())),
        &flat_b,
    );
    let want_b: Vec<f64> = (0..2)
        .flat_map(|k| (0..3).map(move |j| (0..3).map(|i| a[i][k] * w[i][j]).sum::<f64>()))
        .collect();
    assert_eq!(gb, want_b, "df/dB = Aᵀ W");
    // Both active: the same two gradients at once.
    let all = [flat_a.clone(), flat_b.clone()].concat();
    let (v, g) = grad_of(
        |x| {
            let (xa, xb) = x.split_at(6);
            weigh(matmul(
                &xa.chunks(2).collect::<Vec<_>>(),
                &xb.chunks(3).collect::<Vec<_>>(),
            ))
        },
        &all,
    );
    assert_eq!(g, [want_a, want_b].concat());
    let c = matmul(&a, &b);
    let direct: f64 = (0..3)
        .map(|i| (0..3).map(|j| c[i][j] * w[i][j]).sum::<f64>())
        .sum();
    assert_eq!(v, direct);
}

#[test]
#[should_panic(expected = "matmul")]
fn matmul_with_mismatched_shapes_panics() {
    let _ = matmul(&[[1.0, 2.0]], &[[1.0, 2.0]]);
}
