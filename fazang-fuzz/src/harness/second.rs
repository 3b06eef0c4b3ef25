//! The second-order checks of a point (copied with `harness.rs` into every generated
//! crate): `_hessian` against
//! - finite differences of the tape twin's gradient (Richardson-extrapolated, skipped
//!   where the gradient is not smooth), every entry of both triangles (`hessian`);
//! - the generic body's Hessian on forward scalars, a different path, to rounding
//!   (`hessian-paths`);
//! - its own value and gradient against the primal and `_grad` (`hessian-value`);
//! - `_hvp` along each unit vector: the Hessian's column, to rounding (`hvp`).

use super::{agrees, close, reference, GradFn, Harness, Hess, Reference, Second};

/// Check the second-order items at `p` (the primal's value `value`, gradient `g`).
pub fn check(h: &mut Harness, p: &[f64], value: f64, g: &[f64], grad: &GradFn<'_>, s: &Second<'_>) {
    let Some(r) = h.guard("hessian-panic", p, || (s.hessian)(p)) else {
        return;
    };
    let (v, hg, hh) = match r {
        Ok(x) => x,
        Err(e) => return h.fail("hessian-value", format!("p={p:?} hessian=Err({e:?})")),
    };
    let n = p.len();
    if hh.len() != n || hh.iter().any(|row| row.len() != n) || hg.len() != n {
        return h.fail("hessian-shape", format!("p={p:?} got {hh:?}"));
    }
    if !close(v, value) || !hg.iter().zip(g).all(|(a, b)| close(*a, *b)) {
        let d = format!("p={p:?} value={value:?}/{v:?} grad={g:?}/{hg:?}");
        return h.fail("hessian-value", d);
    }
    if let Some(Ok(t)) = h.guard("hessian-panic", p, || (s.twin)(p)) {
        paths(h, p, &(v, hg.clone(), hh.clone()), &t);
    }
    hvps(h, p, &hh, s);
    for (i, row) in hh.iter().enumerate() {
        let gi = |q: &[f64]| grad(q).map(|(_, g)| g[i]);
        for (j, hij) in row.iter().enumerate() {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| reference(&gi, p, j)));
            if let Ok(Reference::Smooth(r, err)) = r {
                h.hessians += 1;
                if !agrees(*hij, r, 10.0 * err) {
                    let d = format!("p={p:?} i={i} j={j} ad={hij:e} fd={r:e} fd_err={err:e}");
                    h.fail("hessian", d);
                }
            }
        }
    }
}

/// The generated Hessian and the generic body's agree to rounding (entries that are not
/// finite in both are not compared).
fn paths(h: &mut Harness, p: &[f64], a: &Hess, b: &Hess) {
    let rows = a.2.iter().zip(&b.2);
    let agree = rows
        .clone()
        .all(|(x, y)| x.iter().zip(y).all(|(u, w)| close(*u, *w)));
    if !agree || !close(a.0, b.0) {
        h.fail(
            "hessian-paths",
            format!("p={p:?} generated={:?} generic={:?}", a.2, b.2),
        );
    }
}

/// `_hvp` along each unit vector is the Hessian's column.
fn hvps(h: &mut Harness, p: &[f64], hh: &[Vec<f64>], s: &Second<'_>) {
    let mut dir = vec![0.0; p.len()];
    for j in 0..p.len() {
        dir[j] = 1.0;
        let r = h.guard("hvp-panic", p, || (s.hvp)(p, &dir));
        dir[j] = 0.0;
        match r {
            Some(Ok((_, hv))) => {
                if hv.len() != p.len() || !hv.iter().zip(hh).all(|(a, row)| close(*a, row[j])) {
                    return h.fail("hvp", format!("p={p:?} j={j} hvp={hv:?} hessian={hh:?}"));
                }
            }
            Some(Err(e)) => return h.fail("hvp", format!("p={p:?} hvp=Err({e:?})")),
            None => return,
        }
    }
}
