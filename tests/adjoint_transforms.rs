//! Stan's transforms inside `#[differentiate]` bodies on the adjoint path: a call with a
//! `&mut lp` and a vector result (`simplex_constrain`, `ordered_constrain`) is recorded once
//! on the tape inside the adjoint code, its outputs being the result's entries and `lp`'s
//! new value. Each `_grad` must be adjoint code (its hidden `__name_adjoint` exists) and
//! agree with finite differences of the primal and with the tape twin.

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

#[differentiate]
fn simplex_weights(y: &[f64]) -> f64 {
    let mut lp = 0.0;
    let theta = simplex_constrain(&y[..3], &mut lp);
    let cuts = ordered_constrain(&y[3..], &mut lp);
    let w = [0.3, 1.2, -0.7, 2.0];
    let fit: f64 = theta.iter().zip(w.iter()).map(|(t, w)| t * w).sum();
    lp + fit + cuts.iter().map(|c| -0.5 * c * c).sum::<f64>()
}

#[test]
fn transforms_with_lp_and_vector_results() {
    let _adjoint_code = __simplex_weights_adjoint;
    for y in [
        vec![0.2, -0.4, 0.9, -1.0, 0.3],
        vec![3.0, -2.0, 0.1, 0.5, -0.5],
    ] {
        let (v, g) = simplex_weights_grad(&y);
        assert_eq!(v, simplex_weights(&y));
        assert_close(&g, &fd_grad(simplex_weights, &y), 1e-7);
        let (vt, gt) = __simplex_weights_grad_tape(&y);
        assert_eq!(v, vt);
        assert_close(&g, &gt, 1e-12);
    }
}

/// The same call inside a loop: `lp` is read and written by every iteration, so the
/// reverse sweep must restore the values each recording saw.
#[differentiate]
fn simplex_per_group(y: &[f64]) -> f64 {
    let mut lp = 0.0;
    let mut total = 0.0;
    for g in y.chunks_exact(2) {
        let s = simplex_constrain(g, &mut lp);
        total += s[0] * lp.exp().ln_1p() - s[2] * s[1];
    }
    total + lp
}

#[test]
fn transforms_with_lp_in_a_loop() {
    let _adjoint_code = __simplex_per_group_adjoint;
    let y = vec![0.4, -0.1, 1.5, 0.2, -0.8, -0.3];
    let (v, g) = simplex_per_group_grad(&y);
    assert_eq!(v, simplex_per_group(&y));
    assert_close(&g, &fd_grad(simplex_per_group, &y), 1e-7);
    let (_, gt) = __simplex_per_group_grad_tape(&y);
    assert_close(&g, &gt, 1e-12);
}
