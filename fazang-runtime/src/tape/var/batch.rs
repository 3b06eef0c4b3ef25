//! Tape access for the drivers: recording many inputs at once and reading gradients
//! and Jacobian rows of the innermost scope, each in one visit to the tape.

use super::Var;
use crate::tape::stack::{with_tape, LANES};

/// Record one independent variable per entry of `x` into `out` (as long as `x`), in one
/// visit to the tape; their node indices are consecutive.
pub(crate) fn new_vars(x: &[f64], out: &mut [Var]) {
    debug_assert_eq!(x.len(), out.len());
    with_tape(|t| {
        let first = t.push_independents("input", x);
        for ((o, &v), i) in out.iter_mut().zip(x).zip(first..) {
            *o = Var::recorded(v, t.key(i));
        }
    })
}

/// The Jacobian rows `rows[r][j] = d ys[r] / d xs[j]` over the innermost scope: one
/// block sweep per [`LANES`] outputs (one sweep per output if the scope recorded
/// callbacks). Same values as [`grad_in_scope_into`] row by row.
pub(crate) fn jacobian_into(ys: &[Var], xs: &[Var], rows: &mut [Vec<f64>]) {
    debug_assert_eq!(ys.len(), rows.len());
    with_tape(|t| {
        let node =
            |t: &crate::tape::stack::Tape, v: &Var| (!v.is_constant()).then(|| t.lookup(v.key));
        // Every variable is checked before anything is swept.
        for v in ys.iter().chain(xs) {
            node(t, v);
        }
        let mut seeds = [None; LANES];
        for (ys, rows) in ys.chunks(LANES).zip(rows.chunks_mut(LANES)) {
            for (s, y) in seeds.iter_mut().zip(ys) {
                *s = node(t, y);
            }
            if t.sweep_lanes(&seeds[..ys.len()]) {
                for (l, row) in rows.iter_mut().enumerate() {
                    for (r, x) in row.iter_mut().zip(xs) {
                        *r = node(t, x).map_or(0.0, |i| t.lane_adj(i, l));
                    }
                }
            } else {
                for (row, y) in rows.iter_mut().zip(ys) {
                    t.grad_in_scope(node(t, y));
                    for (r, x) in row.iter_mut().zip(xs) {
                        *r = node(t, x).map_or(0.0, |i| t.adj(i));
                    }
                }
            }
        }
    })
}

/// Sweep the innermost scope seeded at `y` (as [`Var::grad_in_scope`]) and write the
/// adjoints of `xs` into `g`, in one visit to the tape.
pub(crate) fn grad_in_scope_into(y: Var, xs: &[Var], g: &mut [f64]) {
    debug_assert_eq!(xs.len(), g.len());
    with_tape(|t| {
        if y.is_constant() {
            t.grad_in_scope(None);
        } else {
            let i = t.lookup(y.key);
            t.grad_in_scope(Some(i));
        }
        for (gi, x) in g.iter_mut().zip(xs) {
            *gi = if x.is_constant() {
                0.0
            } else {
                t.adj(t.lookup(x.key))
            };
        }
    })
}

/// The adjoints of the `out.len()` consecutive nodes starting at the node of `first` (a
/// recorded variable), in one visit to the tape.
pub(crate) fn read_run(first: Var, out: &mut [f64]) {
    with_tape(|t| {
        let i0 = t.lookup(first.key);
        for (o, i) in out.iter_mut().zip(i0..) {
            *o = t.adj(i);
        }
    })
}

/// The variable `k` nodes after the node of the recorded variable `first` (its value is
/// not known here and reads NaN: for node-indexed uses such as Jacobian columns).
pub(crate) fn nth_after(first: Var, k: u32) -> Var {
    with_tape(|t| {
        let i = t.lookup(first.key) + k;
        Var::recorded(f64::NAN, t.keys.key_at(i))
    })
}
