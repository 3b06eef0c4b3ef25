//! Statement forms that used to send a body to the tape or fail to compile under it: an
//! empty `else { }` or a `()` arm beside statements, `match` on a literal,
//! `Vec::with_capacity(x.len())` filled with active values, element writes into a local
//! data array (`w[i] /= 2.0`) between the reads of its old and new values,
//! `filter(|v| **v > 0.5)` over data, a helper's result of a type the macro cannot see
//! used as a float (`h(k)?.max(x)`), a generic helper returning a plain `f64` (a
//! constant), and a call for its effect alone (`warn(d, "..");`). Each `_grad` must be
//! adjoint code (naming the hidden `__name_adjoint` fails to compile otherwise) and agree
//! with finite differences (or the closed form) and the tape; `_hessian` with finite
//! differences of `_grad`.
#![allow(clippy::needless_range_loop)]

mod body_support;
use body_support::{assert_close, fd_grad};
use fazang::prelude::*;

use body_support::check_grad_hessian as check;

/// A damped update applied only when the state is above a threshold (the empty `else` is
/// the construct under test).
#[allow(clippy::needless_else)]
#[differentiate]
fn thresholded(x: &[f64]) -> f64 {
    let mut acc = x[0] * x[1];
    if acc > 0.0 {
        acc *= 0.5;
    } else {
    }
    if x.len() > 2 {
        acc += x[2].sin()
    } else {
        acc -= 1.0
    };
    acc * x[0]
}

/// A mode chosen by a constant, as generated or configured code has it.
#[differentiate]
fn by_mode(x: &[f64]) -> f64 {
    let mut s = x[0];
    match 2 {
        0 => {
            s += x[1];
        }
        _ => {
            let e = x[1].exp();
            s *= e;
        }
    }
    s
}

/// Scaled copies pushed into a vector with a capacity.
#[differentiate]
fn with_capacity(x: &[f64]) -> f64 {
    let mut w = Vec::with_capacity(x.len());
    for (i, v) in x.iter().enumerate() {
        w.push(v * (i as f64 + 1.0));
    }
    w.iter().map(|v| v.tanh()).sum::<f64>()
}

/// Weights in a data array halved and reset between reads: the reverse sweep must use
/// the weight each product read.
#[differentiate]
fn reweighted(x: &[f64]) -> f64 {
    let mut w = vec![1.0; x.len()];
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i] * x[i];
        w[i] /= 2.0;
        s += w[i] * x[i].exp();
        w[(i + 1) % x.len()] = i as f64 + 3.0;
        let mut scratch: [f64; 2] = [0.5; 2];
        let y = s * scratch[1];
        scratch[1] *= 4.0;
        s = y * scratch[1];
    }
    s
}

/// Weights picked by data indices through a `&i` pattern (the fuzzer's E0606: the
/// pattern's `&` was dropped on the borrowed item).
#[differentiate(wrt(x))]
fn picked(x: &[f64], idx: &[usize]) -> f64 {
    let mut s = 0.0;
    for &i in idx {
        s += x[i % x.len()] * (i as f64 + 0.5).ln();
    }
    s
}

#[test]
fn data_items_through_ref_patterns() {
    let _adjoint_code = __picked_adjoint;
    let (x, idx) = (vec![0.3, -0.2, 0.5], [4usize, 0, 2, 2]);
    let (v, g) = picked_grad(&x, &idx);
    assert_eq!(v, picked(&x, &idx));
    assert_close(&g, &fd_grad(|x| picked(x, &idx), &x), 1e-7);
    let want = [0.5f64.ln(), 4.5f64.ln(), 2.0 * 2.5f64.ln()];
    assert_close(&g, &want, 1e-12);
}

/// A fallible helper whose error falls back to a constant (`unwrap_or(0.0)`): the
/// constant carries no derivative.
#[differentiate]
fn damped(v: f64) -> Result<f64, String> {
    if v > 2.0 {
        return Err(format!("{v} is out of range"));
    }
    Ok((v * 1.5).sin() * v)
}

#[differentiate]
fn with_fallback(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += damped(*v).unwrap_or(0.0) * x[0];
    }
    s + damped(x[1] * x[1]).unwrap_or(-1.0)
}

#[test]
fn fallible_calls_with_a_constant_fallback() {
    let _adjoint_code = __with_fallback_adjoint;
    for x in [vec![0.3, 0.7, 2.5], vec![0.3, 1.6, -1.0]] {
        let (v, g) = with_fallback_grad(&x);
        assert_eq!(v, with_fallback(&x));
        assert_close(&g, &fd_grad(with_fallback, &x), 1e-7);
        let (vt, gt) = __with_fallback_grad_tape(&x);
        assert_eq!(v, vt);
        assert_close(&g, &gt, 1e-12);
        let (_, _, h) = with_fallback_hessian(&x);
        for (i, row) in h.iter().enumerate() {
            assert_close(row, &fd_grad(|x| with_fallback_grad(x).1[i], &x), 1e-6);
        }
    }
}

/// Three forms the fuzzer's seed 99 did not compile: a float predicate in path form on an
/// active value, a fallible helper called with data in one branch and an active value in
/// the other, and a loop as the last statement after a `continue`.
#[differentiate]
fn path_predicate(x: &[f64]) -> f64 {
    let mut acc = x[0] * x[1];
    if f64::is_finite(10.0 + acc) {
        acc += x[1].exp();
    }
    acc
}

#[differentiate(wrt(x))]
fn data_or_active_call(x: &[f64], data: &[f64]) -> Result<f64, String> {
    let a = if !data.is_empty() {
        damped(data.len() as f64 * 0.5)?
    } else {
        damped(x[1])?
    };
    Ok(a * x[0])
}

#[differentiate]
fn loop_after_continue(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        if *v < 0.0 {
            continue;
        }
        s += v * v;
        for j in 0..i {
            if j == 1 {
                break;
            }
        }
    }
    s
}

#[test]
fn path_predicates_data_calls_and_loops_after_jumps() {
    let _adjoint_code = (__path_predicate_adjoint, __data_or_active_call_adjoint);
    let x = vec![0.3, -0.7, 0.5];
    let (v, g) = path_predicate_grad(&x);
    assert_eq!(v, path_predicate(&x));
    assert_close(&g, &fd_grad(path_predicate, &x), 1e-7);
    for data in [vec![], vec![1.0, 2.0]] {
        let f = |x: &[f64]| data_or_active_call(x, &data).unwrap();
        let (v, g) = data_or_active_call_grad(&x, &data).unwrap();
        assert_eq!(v, f(&x));
        assert_close(&g, &fd_grad(f, &x), 1e-7);
    }
    let (v, g) = loop_after_continue_grad(&x);
    assert_eq!(v, loop_after_continue(&x));
    assert_close(&g, &[0.6, 0.0, 1.0], 1e-12);
}

/// A data vector copied into a vector that then takes active values (`to_vec` of data):
/// the copy's entries are lifted in code over dual numbers (the fuzzer's seed 31415:
/// E0308 in `_hessian`'s code, which copied the `f64`s as they were).
#[allow(clippy::useless_vec)]
#[differentiate]
fn from_data_copy(x: &[f64]) -> f64 {
    let base = vec![0.5_f64; 3];
    let mut w = base.to_vec();
    for (i, v) in x.iter().enumerate() {
        w[i % 3] = (base[i % 3] + v).hypot(x[0]);
    }
    w.iter().map(|v| v * v).sum::<f64>() + base[2]
}

#[test]
fn data_vectors_copied_into_active_ones() {
    let _adjoint_code = __from_data_copy_adjoint;
    let x = vec![0.3, -0.7, 0.5, 1.1];
    let (v, g) = from_data_copy_grad(&x);
    assert_eq!(v, from_data_copy(&x));
    assert_close(&g, &fd_grad(from_data_copy, &x), 1e-7);
    let (_, _, h) = from_data_copy_hessian(&x);
    for (i, row) in h.iter().enumerate() {
        assert_close(row, &fd_grad(|x| from_data_copy_grad(x).1[i], &x), 1e-6);
    }
}

#[test]
fn unit_branches_and_constant_match() {
    check!(
        thresholded,
        thresholded_grad,
        __thresholded_grad_tape,
        __thresholded_adjoint,
        thresholded_hessian,
        vec![0.7, 0.4, -0.3]
    );
    check!(
        thresholded,
        thresholded_grad,
        __thresholded_grad_tape,
        __thresholded_adjoint,
        thresholded_hessian,
        vec![-0.7, 0.4]
    );
    check!(
        by_mode,
        by_mode_grad,
        __by_mode_grad_tape,
        __by_mode_adjoint,
        by_mode_hessian,
        vec![0.3, -0.2]
    );
}

#[test]
fn vectors_with_capacity_and_data_element_writes() {
    check!(
        with_capacity,
        with_capacity_grad,
        __with_capacity_grad_tape,
        __with_capacity_adjoint,
        with_capacity_hessian,
        vec![0.3, -0.2, 0.5]
    );
    check!(
        reweighted,
        reweighted_grad,
        __reweighted_grad_tape,
        __reweighted_adjoint,
        reweighted_hessian,
        vec![0.3, -0.2, 0.5, 0.1]
    );
}

/// Data filtered by a predicate that dereferences its `&&f64` twice (`**v > 0.5`), mapped
/// with an active value (the fuzzer's seed 11: E0614 in the code over dual numbers, which
/// held the item by value and kept one `*`).
#[differentiate(wrt(x))]
fn filtered_shift(x: f64, data: [f64; 5]) -> f64 {
    let s = data
        .iter()
        .filter(|v| **v > 0.5)
        .map(|v| v + x / (1.0 + x * x))
        .sum::<f64>();
    s * x.sin()
}

#[test]
fn filter_predicates_dereferencing_twice() {
    let _adjoint_code = __filtered_shift_adjoint;
    let data = [0.1, 0.7, 1.5, -0.3, 0.9];
    let f = |p: &[f64]| filtered_shift(p[0], data);
    let x = 0.4;
    let (v, g) = filtered_shift_grad(x, data);
    assert_eq!(v, f(&[x]));
    assert_close(&g, &fd_grad(f, &[x]), 1e-7);
    let (_, _, h) = filtered_shift_hessian(x, data);
    assert_close(
        &h[0],
        &fd_grad(|p| filtered_shift_grad(p[0], data).1[0], &[x]),
        1e-6,
    );
}

/// A weight from a plain helper of data.
fn shrink(k: f64) -> Result<f64, String> {
    if k > 10.0 {
        Err(format!("shrink: {k} steps"))
    } else {
        Ok(1.0 / (1.0 + k))
    }
}

/// The helper's result, of a type the macro cannot see, made a float by `.max(active)`
/// (the fuzzer's seed 20261126: E0308, `max` called as a method of an unseen value on
/// forward lanes).
#[differentiate]
fn floored(x: &[f64]) -> Result<f64, String> {
    let mut s = 0.0;
    for (k, v) in x.iter().enumerate() {
        s += shrink(k as f64)?.max(v * v);
    }
    Ok(s)
}

#[test]
fn unseen_values_used_as_floats() {
    let _adjoint_code = __floored_adjoint;
    let x = vec![0.3, -0.9, 0.5, 0.2];
    let f = |x: &[f64]| floored(x).unwrap();
    let (v, g) = floored_grad(&x).unwrap();
    assert_eq!(v, f(&x));
    assert_close(&g, &fd_grad(f, &x), 1e-7);
    let (_, _, h) = floored_hessian(&x).unwrap();
    for (i, row) in h.iter().enumerate() {
        assert_close(row, &fd_grad(|x| floored_grad(x).unwrap().1[i], &x), 1e-6);
    }
}

/// A generic helper returning a plain `f64`: its value is data to the caller.
fn scale_of<S: Real>(x: S) -> f64 {
    x.val().abs().max(1.0)
}

/// The helper's result only chooses a branch and divides (a constant, as on the tape):
/// its call on forward lanes read `.re` of an `f64` (E0610).
#[differentiate]
fn rescaled(x: &[f64]) -> f64 {
    let s = scale_of(x[0]);
    if s > 2.0 {
        x[1] * x[1] / s
    } else {
        x[1] * x[0] / s
    }
}

#[test]
fn helpers_returning_plain_floats_are_constants() {
    let _adjoint_code = __rescaled_adjoint;
    for x in [vec![0.5, 3.0], vec![-2.5, 1.5]] {
        let (v, g) = rescaled_grad(&x);
        assert_eq!(v, rescaled(&x));
        let s = x[0].abs().max(1.0);
        let want = if s > 2.0 {
            [0.0, 2.0 * x[1] / s]
        } else {
            [x[1] / s, x[0] / s]
        };
        assert_close(&g, &want, 1e-12);
        let (_, gt) = __rescaled_grad_tape(&x);
        assert_close(&g, &gt, 1e-12);
    }
}

/// A generic helper called for what it does (a warning), its value dropped.
fn warn_if_large<S: Real>(x: S, what: &str) {
    if x.val().abs() > 1e6 {
        eprintln!("{what} is large: {}", x.val());
    }
}

/// Its call was refused ("a call returning something other than a float"): the body took
/// the tape.
#[differentiate]
fn chain_energy(q: &[f64]) -> f64 {
    let mut e = 0.0;
    for w in q.windows(2) {
        let d = w[1] - w[0];
        warn_if_large(d, "a bond");
        e += 0.5 * d * d;
    }
    e
}

#[test]
fn calls_for_their_effect_alone() {
    let _adjoint_code = __chain_energy_adjoint;
    let q = vec![0.1, 0.5, 0.3, -0.2];
    let (v, g) = chain_energy_grad(&q);
    assert_eq!(v, chain_energy(&q));
    // e = ½ Σ (q[i+1] − q[i])²: ∂e/∂q[i] = (q[i] − q[i−1]) − (q[i+1] − q[i]).
    let want: Vec<f64> = (0..q.len())
        .map(|i| {
            let left = if i > 0 { q[i] - q[i - 1] } else { 0.0 };
            let right = if i + 1 < q.len() {
                q[i + 1] - q[i]
            } else {
                0.0
            };
            left - right
        })
        .collect();
    assert_close(&g, &want, 1e-12);
    let (_, _, h) = chain_energy_hessian(&q);
    for (i, row) in h.iter().enumerate() {
        assert_close(row, &fd_grad(|x| chain_energy_grad(x).1[i], &q), 1e-6);
    }
}

/// Mean plus two standard deviations of samples kept in a `static` table: the parameter
/// is borrowed for `'static`, and read in loops (the fast path for callers on the tape
/// would lend it a temporary copy: it is left out for such parameters).
#[differentiate]
fn upper_band(samples: &'static [f64]) -> f64 {
    let n = samples.len() as f64;
    let mut s = 0.0;
    for v in samples {
        s += v;
    }
    let mean = s / n;
    let mut acc = 0.0;
    let mut push = |d: f64| acc += d * d;
    for v in samples {
        push(v - mean);
    }
    mean + 2.0 * (acc / (n - 1.0)).sqrt()
}

static SAMPLES: [f64; 4] = [1.0, 2.0, 4.0, 3.5];

#[test]
fn static_slices_read_in_loops() {
    let _adjoint_code = __upper_band_adjoint;
    let (v, g) = upper_band_grad(&SAMPLES);
    assert_eq!(v, upper_band(&SAMPLES));
    // Closed form: d/dx_i = 1/n + 2 (x_i - mean) / ((n - 1) sd).
    let mean = SAMPLES.iter().sum::<f64>() / 4.0;
    let sd = (SAMPLES.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
    let want: Vec<f64> = SAMPLES
        .iter()
        .map(|x| 0.25 + 2.0 * (x - mean) / (3.0 * sd))
        .collect();
    assert_close(&g, &want, 1e-12);
    let (_, hg, h) = upper_band_hessian(&SAMPLES);
    assert_close(&hg, &g, 1e-12);
    for (i, row) in h.iter().enumerate() {
        let fd = fd_grad(
            |x| {
                let x: &'static [f64] = Box::leak(x.to_vec().into_boxed_slice());
                upper_band_grad(x).1[i]
            },
            &SAMPLES,
        );
        assert_close(row, &fd, 1e-6);
    }
}

/// A model borrowing its data for the impl's lifetime, differentiated in a parameter
/// borrowed for the same lifetime (`b: &'a [f64]`). The expansion's own lifetime name
/// shadowed `'a` (E0496), and the fast path for callers on the tape lent `fit_grad` a
/// temporary for `'a` (E0716).
struct Fit<'a> {
    ys: &'a [f64],
}

impl<'a> Fit<'a> {
    #[differentiate]
    fn sq_error(&self, b: &'a [f64]) -> f64 {
        let mut s = 0.0;
        for (x, y) in b.iter().zip(self.ys) {
            s += (x - y) * (x - y);
        }
        s
    }
}

#[test]
fn parameters_borrowed_for_the_impls_lifetime() {
    let ys = [1.0, 2.0, -0.5];
    let m = Fit { ys: &ys };
    let b = [0.5, 0.5, 0.25];
    let (v, g) = m.sq_error_grad(&b);
    assert_eq!(v, m.sq_error(&b));
    let want: Vec<f64> = b.iter().zip(&ys).map(|(x, y)| 2.0 * (x - y)).collect();
    assert_close(&g, &want, 1e-12);
    // Called with active values from another body (the generic path).
    let (_, gt) = fazang::gradient(|p| m.sq_error(p), &b);
    assert_close(&gt, &want, 1e-12);
}
