//! [`FwdRev`]: forward-over-reverse numbers for the compressed Hessian. A value carries
//! [`HVP_LANES`] tangents (a dual number, [`Inner`]) and the index of its node on a
//! thread-local tape of its own; each node records, per operand, the partial derivative
//! *as a dual number*: its value `d` and its tangents `s` (how the partial changes along
//! each lane's direction). One reverse sweep then carries, per node, the adjoint `ā` and
//! its tangents `ȧ`:
//!
//! ```text
//! ā_a += d ā_v        ȧ_a += d ȧ_v + ā_v s
//! ```
//!
//! so that at the inputs `ā` is the gradient and `ȧ` the Hessian times each lane's
//! direction: the tangent of the adjoint sweep, Hessian-vector products for all lanes in
//! one forward evaluation and one sweep over flat arrays (no node per lane, unlike
//! reverse-over-forward on the general tape).
//!
//! Every partial comes from the same generic derivative code as the other scalars
//! (`math::elementary`'s table, `deriv2`, distributions' and rules' partials computed on
//! [`Inner`]), evaluated on dual numbers, so its tangent is exact.

use crate::forward::Dual;
use crate::math::real::Partials;
use std::cell::RefCell;

/// Colours per pass of a compressed Hessian: the tangent lanes of a [`FwdRev`].
pub const HVP_LANES: usize = 4;

/// The value and tangents of a [`FwdRev`] (and the scalar its partials are computed in).
pub type Inner = Dual<f64, [f64; HVP_LANES]>;

/// The index of a constant (no node).
const NONE: u32 = u32::MAX;

/// A forward-over-reverse number (see the module documentation). Only the sparse
/// Hessian driver makes these.
#[derive(Clone, Copy, Debug)]
pub struct FwdRev {
    pub(crate) x: Inner,
    pub(crate) idx: u32,
}

/// One operand of a node: its node, the partial and the partial's tangents.
#[derive(Clone, Copy)]
struct Op {
    idx: u32,
    d: f64,
    s: [f64; HVP_LANES],
}

/// The nodes recorded by a compressed Hessian pass on this thread.
#[derive(Default)]
pub(crate) struct Tape {
    /// Node `k`'s operands are `ops[starts[k]..starts[k + 1]]` (`starts[0] = 0`).
    starts: Vec<u32>,
    ops: Vec<Op>,
    adj: Vec<f64>,
    adj_t: Vec<[f64; HVP_LANES]>,
    /// A run is using this tape.
    active: bool,
}

thread_local! {
    static TAPE: RefCell<Tape> = RefCell::new(Tape::default());
}

impl Tape {
    fn clear(&mut self) {
        self.starts.clear();
        self.starts.push(0);
        self.ops.clear();
    }

    fn nodes(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }
}

/// Runs `f` on a cleared tape of this thread (its buffers kept from earlier runs, so a
/// steady state allocates nothing); a run inside a run sets the outer tape aside and
/// puts it back. [`FwdRev`] values record on the current tape.
pub(crate) fn on_tape<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the outer tape back (or marks the thread's tape free), also on a panic.
    struct Restore(Option<Tape>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            let _ = TAPE.try_with(|t| match outer {
                Some(o) => *t.borrow_mut() = o,
                None => t.borrow_mut().active = false,
            });
        }
    }
    let outer = TAPE.with_borrow_mut(|t| {
        let outer = t.active.then(|| std::mem::take(t));
        t.clear();
        t.active = true;
        outer
    });
    let _restore = Restore(outer);
    f()
}

/// Record a node of value `x` with operands and partials `ops` (constants skipped).
#[inline]
pub(crate) fn record(x: Inner, ops: &[(FwdRev, Inner)]) -> FwdRev {
    if ops.iter().all(|(a, _)| a.idx == NONE) {
        return FwdRev::constant(x);
    }
    TAPE.with_borrow_mut(|t| {
        for (a, d) in ops {
            if a.idx != NONE {
                t.ops.push(Op {
                    idx: a.idx,
                    d: d.re,
                    s: d.eps,
                });
            }
        }
        let k = t.nodes();
        t.starts
            .push(u32::try_from(t.ops.len()).unwrap_or_else(|_| too_large()));
        FwdRev {
            x,
            idx: u32::try_from(k)
                .ok()
                .filter(|&k| k != NONE)
                .unwrap_or_else(|| too_large()),
        }
    })
}

#[cold]
fn too_large() -> ! {
    panic!("fazang: a sparse Hessian pass recorded more than 2^32 - 1 operations")
}

impl FwdRev {
    /// A constant.
    #[inline]
    pub(crate) fn constant(x: Inner) -> Self {
        FwdRev { x, idx: NONE }
    }

    /// An independent variable with value `v` and tangents `t`.
    pub(crate) fn input(v: f64, t: [f64; HVP_LANES]) -> Self {
        record_input(Dual::new(v, t))
    }

    /// The value.
    #[inline]
    pub fn value(&self) -> f64 {
        self.x.re
    }

    /// Whether it is a constant.
    #[inline]
    pub(crate) fn is_constant(&self) -> bool {
        self.idx == NONE
    }
}

/// A node without operands.
fn record_input(x: Inner) -> FwdRev {
    TAPE.with_borrow_mut(|t| {
        let k = t.nodes();
        t.starts
            .push(u32::try_from(t.ops.len()).unwrap_or_else(|_| too_large()));
        FwdRev {
            x,
            idx: u32::try_from(k).unwrap_or_else(|_| too_large()),
        }
    })
}

/// The reverse sweep from `y` (seed ā = 1, ȧ = 0): for each of `inputs`, its adjoint
/// into `grad` and its adjoint's tangents into `lanes` (the Hessian times each lane's
/// direction).
pub(crate) fn sweep(
    y: FwdRev,
    inputs: &[FwdRev],
    grad: &mut [f64],
    lanes: &mut [[f64; HVP_LANES]],
) {
    TAPE.with_borrow_mut(|t| {
        let n = t.nodes();
        t.adj.clear();
        t.adj.resize(n, 0.0);
        t.adj_t.clear();
        t.adj_t.resize(n, [0.0; HVP_LANES]);
        if !y.is_constant() {
            t.adj[y.idx as usize] = 1.0;
            let Tape {
                starts,
                ops,
                adj,
                adj_t,
                ..
            } = t;
            for k in (0..=y.idx as usize).rev() {
                let (a, at) = (adj[k], adj_t[k]);
                if a == 0.0 && at == [0.0; HVP_LANES] {
                    continue;
                }
                for op in &ops[starts[k] as usize..starts[k + 1] as usize] {
                    let i = op.idx as usize;
                    adj[i] += op.d * a;
                    for l in 0..HVP_LANES {
                        adj_t[i][l] += op.d * at[l] + a * op.s[l];
                    }
                }
            }
        }
        for ((x, g), r) in inputs.iter().zip(grad).zip(lanes) {
            if !x.is_constant() {
                *g = t.adj[x.idx as usize];
                *r = t.adj_t[x.idx as usize];
            }
        }
    })
}

/// The partial derivatives of an operation given as `(operand, partial)` on [`Inner`].
pub(crate) fn from_partials_in(value: Inner, p: &Partials<FwdRev, Inner>) -> FwdRev {
    record(value, &p.ops)
}

/// The panic of an operation that only has `f64` partials (or an `f64` vector-Jacobian
/// product) in a sparse Hessian: their own derivatives would be lost.
#[cold]
#[inline(never)]
pub(crate) fn first_order_only(what: &str) -> ! {
    panic!(
        "fazang: {what} gives first derivatives only (as f64), but a sparse Hessian \
         differentiates them again; distributions and #[deriv_rule] functions whose \
         partials are written in the arguments work, a #[deriv_rule(adjoint = ..)] \
         function or a custom `Real::from_partials` operation does not"
    )
}

/// Whether a number's tangents are all zero.
#[inline]
pub(crate) fn flat(x: &Inner) -> bool {
    x.eps == [0.0; HVP_LANES]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// f(x, y) = x² y + sin(x y): gradient and Hessian-vector products by hand.
    #[test]
    fn gradient_and_hessian_vector_products_of_a_small_function() {
        let (x0, y0) = (0.7, -1.3);
        let (g, rows) = on_tape(|| {
            let x = FwdRev::input(x0, [1.0, 0.0, 1.0, 0.0]);
            let y = FwdRev::input(y0, [0.0, 1.0, 1.0, 0.0]);
            let f = x * x * y + (x * y).sin();
            let (mut g, mut rows) = ([0.0; 2], [[0.0; HVP_LANES]; 2]);
            sweep(f, &[x, y], &mut g, &mut rows);
            (g, rows)
        });
        let (c, s) = ((x0 * y0).cos(), (x0 * y0).sin());
        let gx = 2.0 * x0 * y0 + y0 * c;
        let gy = x0 * x0 + x0 * c;
        assert!((g[0] - gx).abs() < 1e-14 && (g[1] - gy).abs() < 1e-14);
        let hxx = 2.0 * y0 - y0 * y0 * s;
        let hxy = 2.0 * x0 + c - x0 * y0 * s;
        let hyy = -x0 * x0 * s;
        let want = [[hxx, hxy, hxx + hxy, 0.0], [hxy, hyy, hxy + hyy, 0.0]];
        for (r, w) in rows.iter().zip(&want) {
            for (a, b) in r.iter().zip(w) {
                assert!((a - b).abs() < 1e-13, "{rows:?} vs {want:?}");
            }
        }
    }
}
