//! Invariants of the tape's fast paths, checked against the plain ones: the block
//! sweeps of a Jacobian against one sweep per output, dirty-range zeroing against
//! zeroing everything, batched input creation against `Var::new`.

use super::keys::Keys;
use super::stack::with_tape;
use crate::{gradient_into, jacobian, nested, vector_op, NestedScope, Var};

/// Row `i` of the Jacobian by a gradient of output `i` alone (one scalar sweep).
fn rows_one_by_one(f: &dyn Fn(&[Var]) -> Vec<Var>, x: &[f64], m: usize) -> Vec<Vec<f64>> {
    (0..m)
        .map(|i| {
            let mut g = vec![0.0; x.len()];
            gradient_into(|v| f(v)[i], x, &mut g);
            g
        })
        .collect()
}

/// Equal entry by entry, bit for bit (any NaN equals any NaN). Under Miri, whose `sin`,
/// `exp` and friends add a little random error on purpose, to 1e-12 relative.
fn same(a: &[Vec<f64>], b: &[Vec<f64>]) -> bool {
    let eq = |x: f64, y: f64| {
        x.to_bits() == y.to_bits()
            || (x.is_nan() && y.is_nan())
            || (cfg!(miri) && (x - y).abs() <= 1e-12 * x.abs().max(y.abs()))
    };
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(r, s)| r.len() == s.len() && r.iter().zip(s).all(|(&x, &y)| eq(x, y)))
}

#[test]
fn block_sweeps_match_one_sweep_per_output() {
    // 19 outputs: two full blocks of 8 and a partial one; a constant output and an
    // output that is an input.
    let f = |x: &[Var]| -> Vec<Var> {
        let mut out: Vec<Var> = (0..17)
            .map(|i| {
                let a = x[i % 5] * x[(i + 1) % 5] + (i as f64);
                (a.sin() + x[(i + 2) % 5].exp() * 0.5) / (1.0 + x[i % 3] * x[i % 3])
            })
            .collect();
        out.push(Var::from(3.0));
        out.push(x[4]);
        out
    };
    let x = [0.3, -1.2, 0.7, 2.0, -0.4];
    let (_, jac) = jacobian(f, &x);
    assert!(same(&jac, &rows_one_by_one(&f, &x, 19)));
}

#[test]
fn a_zero_lane_does_not_meet_an_infinite_partial() {
    // s = √(0·x1) has partial +∞; output 0 does not depend on s, output 1 does. One
    // sweep per output skips s for output 0 (its adjoint is 0): so must its lane.
    let f = |x: &[Var]| {
        let s = (x[1] * 0.0).sqrt();
        vec![x[0] * 2.0, s + x[0], s * 0.0 + x[1]]
    };
    let x = [0.5, 1.5];
    let (_, jac) = jacobian(f, &x);
    let rows = rows_one_by_one(&f, &x, 3);
    assert!(same(&jac, &rows), "{jac:?} vs {rows:?}");
    assert_eq!(jac[0], vec![2.0, 0.0]);
}

#[test]
fn scopes_with_callbacks_sweep_row_by_row() {
    let f = |x: &[Var]| {
        let (xv, yv) = (x[0].val(), x[1].val());
        let out = vector_op(&[x[0], x[1]], &[xv * yv, xv + yv], move |ob, ib| {
            ib[0] += ob[0] * yv + ob[1];
            ib[1] += ob[0] * xv + ob[1];
        });
        vec![out[0] * x[0], out[1].exp(), out[0] + out[1]]
    };
    let x = [2.0, 5.0];
    let (_, jac) = jacobian(f, &x);
    assert!(same(&jac, &rows_one_by_one(&f, &x, 3)));
}

#[test]
fn gradients_after_a_jacobian_start_from_zero() {
    // The dirty range: whatever a sweep wrote is zeroed before the next one.
    let f = |x: &[Var]| x[0] * x[1] + x[1].sin();
    let x = [0.3, 0.9];
    let mut want = [0.0; 2];
    gradient_into(f, &x, &mut want);
    let _ = jacobian(|x| vec![f(x), f(x) * 3.0], &x);
    let mut g = [0.0; 2];
    crate::nested(|| {
        let y = Var::new(1.0) * 2.0;
        y.grad();
        gradient_into(f, &x, &mut g);
    });
    assert!(same(&[g.to_vec()], &[want.to_vec()]), "{g:?} vs {want:?}");
}

#[test]
fn many_inputs_use_consecutive_nodes() {
    // More inputs than the stack buffer holds: the pooled buffer, still consecutive.
    let x: Vec<f64> = (0..40).map(|i| i as f64 * 0.1).collect();
    let mut g = vec![0.0; 40];
    let v = gradient_into(
        |x| x.iter().enumerate().map(|(i, &v)| v * (i as f64)).sum(),
        &x,
        &mut g,
    );
    let want: Vec<f64> = (0..40).map(|i| i as f64).collect();
    assert_eq!(g, want);
    assert!((v - x.iter().enumerate().map(|(i, v)| v * i as f64).sum::<f64>()).abs() < 1e-12);
}

/// Keys of a simulated tape: `nodes` counts its nodes.
struct Sim {
    keys: Keys,
    nodes: u32,
}

impl Sim {
    fn push(&mut self) -> u64 {
        if self.keys.limit() == self.nodes {
            assert!(self.keys.grow(self.nodes, 1, u32::MAX >> 1));
        }
        self.nodes += 1;
        self.keys.key(self.nodes - 1)
    }
    fn index(&self, key: u64) -> Option<u32> {
        self.keys.find(key, self.nodes)
    }
    fn truncate(&mut self, to: u32) {
        self.keys.truncate(self.nodes, to);
        self.nodes = to;
    }
}

#[test]
fn keys_of_discarded_nodes_die_and_live_ones_keep_their_index() {
    let mut t = Sim {
        keys: Keys::new(),
        nodes: 0,
    };
    let root: Vec<u64> = (0..5).map(|_| t.push()).collect();
    let mut dead = Vec::new();
    for round in 0..2000u32 {
        // A scope: a few nodes, then discarded; every few rounds the root records one
        // more node between scopes (a new segment).
        let mark = t.nodes;
        dead.extend((0..1 + round % 3).map(|_| t.push()));
        t.truncate(mark);
        if round % 7 == 0 {
            let k = t.push();
            assert_eq!(t.index(k), Some(t.nodes - 1));
        }
    }
    for (i, &k) in root.iter().enumerate() {
        assert_eq!(t.index(k), Some(i as u32));
    }
    for &k in &dead {
        assert_eq!(t.index(k), None, "a discarded key is refused");
    }
    // One segment per run of root nodes recorded between scopes (286 of them), the
    // first and the top one.
    assert_eq!(t.keys.segments(), 288);
    assert_eq!(t.index(u64::MAX - 1), None);
}

#[test]
fn a_gradient_loop_keeps_two_segments() {
    let x = Var::new(1.0);
    let mut g = [0.0];
    for _ in 0..1000 {
        gradient_into(|v| v[0] * x, &[2.0], &mut g);
    }
    assert!(with_tape(|t| t.key_segments()) <= 2);
    crate::clear_tape();
}

#[test]
fn serials_beyond_32_bits_on_a_fresh_thread() {
    // Move the counter past several multiples of 2^32 (where a 32-bit generation would
    // have wrapped), then use a fresh thread, whose tape takes its serials from there.
    Keys::skip_serials(3 << 32);
    std::thread::spawn(|| {
        let a = Var::new(2.0);
        let stale = nested(|| Var::new(1.0) * a);
        for _ in 0..10 {
            let _s = NestedScope::begin();
            let _ = Var::new(3.0) * a;
        }
        assert!(std::panic::catch_unwind(|| stale.adj()).is_err());
        let y = a * a;
        y.grad();
        assert_eq!(a.adj(), 4.0);
    })
    .join()
    .unwrap();
}
