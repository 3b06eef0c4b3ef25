//! Sparsity detection: the graph a body records when it runs on
//! [`Probe<Record>`](super::probe::Probe), and the Jacobian and Hessian patterns read
//! from it.
//!
//! Each node is an operation of some [`Kind`] on earlier nodes (or an input). The inputs a
//! value depends on are the inputs reached from its node (a walk, not a set per node, so
//! memory stays that of the graph). The Jacobian pattern of an output is its inputs. The
//! Hessian pattern of a scalar output collects, over the operations that the output
//! depends on (the others cannot reach its second derivatives), the pairs of inputs each
//! operation couples: `a * b` the inputs of `a` with those of `b`, `a / b` also those of
//! `b` with themselves, any other nonlinear operation all its operands' inputs with each
//! other (SparseConnectivityTracer.jl's rules, applied to the operations executed).

use super::probe::Kind;
use std::cell::RefCell;
use std::collections::HashSet;

/// The operations recorded by a run on `Probe<Record>`.
#[derive(Default)]
pub(crate) struct Graph {
    kinds: Vec<Kind>,
    /// Node `k`'s operands are `ops[starts[k]..starts[k + 1]]` (node indices; an input's
    /// one operand is its input index).
    starts: Vec<u32>,
    ops: Vec<u32>,
}

thread_local! {
    static GRAPH: RefCell<Graph> = RefCell::new(Graph::new());
}

impl Graph {
    fn new() -> Self {
        Graph {
            kinds: Vec::new(),
            starts: vec![0],
            ops: Vec::new(),
        }
    }

    /// The operands of node `k`.
    fn operands(&self, k: u32) -> &[u32] {
        let k = k as usize;
        &self.ops[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    fn len(&self) -> usize {
        self.kinds.len()
    }

    /// A value per node computed from its kind and its operands' values (an input's one
    /// operand is its index), in recording order: `f` applied bottom-up.
    pub(crate) fn fingerprints(&self, f: impl Fn(Kind, &[u64]) -> u64) -> Vec<u64> {
        let mut out: Vec<u64> = Vec::with_capacity(self.len());
        let mut buf = Vec::new();
        for (k, &kind) in self.kinds.iter().enumerate() {
            let ops = self.operands(k as u32);
            buf.clear();
            match kind {
                Kind::Input => buf.push(u64::from(ops[0])),
                _ => buf.extend(ops.iter().map(|&o| out[o as usize])),
            }
            out.push(f(kind, &buf));
        }
        out
    }
}

/// Record a node on this thread's graph; its handle (index + 1).
pub(crate) fn push_node(kind: Kind, ops: &[u64]) -> u64 {
    GRAPH.with_borrow_mut(|g| {
        g.kinds.push(kind);
        match kind {
            Kind::Input => g.ops.push(index(ops[0])),
            _ => g.ops.extend(ops.iter().map(|&h| index(h - 1))),
        }
        g.starts.push(index(g.ops.len() as u64));
        g.kinds.len() as u64
    })
}

/// A `u32` index, or the panic of a graph too large to detect sparsity on.
fn index(i: u64) -> u32 {
    u32::try_from(i).unwrap_or_else(|_| {
        panic!(
            "fazang: sparsity detection recorded more than 2^32 operations; use the dense \
             `_hessian`/`_jacobian` for a function this large"
        )
    })
}

/// Run `f` recording on a fresh graph of this thread, and return its result with the
/// graph (the graph that was there before is put back).
pub(crate) fn record<R>(f: impl FnOnce() -> R) -> (R, Graph) {
    let saved = GRAPH.with_borrow_mut(|g| std::mem::replace(g, Graph::new()));
    let out = f();
    let graph = GRAPH.with_borrow_mut(|g| std::mem::replace(g, saved));
    (out, graph)
}

/// Depth-first walks over the graph, each marking the nodes it visits with its own stamp.
struct Walker<'g> {
    g: &'g Graph,
    stamp: Vec<u32>,
    current: u32,
    stack: Vec<u32>,
}

impl<'g> Walker<'g> {
    fn new(g: &'g Graph) -> Self {
        Walker {
            g,
            stamp: vec![0; g.len()],
            current: 0,
            stack: Vec::new(),
        }
    }

    /// Visit every node reached from the handles `from` (0, a constant, reaches nothing),
    /// calling `visit` once per node.
    fn walk(&mut self, from: &[u64], mut visit: impl FnMut(u32)) {
        self.current += 1;
        let stamp = self.current;
        self.stack.clear();
        self.stack
            .extend(from.iter().filter(|&&h| h != 0).map(|&h| (h - 1) as u32));
        while let Some(k) = self.stack.pop() {
            if self.stamp[k as usize] == stamp {
                continue;
            }
            self.stamp[k as usize] = stamp;
            visit(k);
            if self.g.kinds[k as usize] != Kind::Input {
                let ops = self.g.operands(k);
                self.stack.extend(ops.iter().copied());
            }
        }
    }

    /// The inputs the handles `from` depend on, sorted.
    fn inputs(&mut self, from: &[u64], out: &mut Vec<u32>) {
        out.clear();
        let g = self.g;
        self.walk(from, |k| {
            if g.kinds[k as usize] == Kind::Input {
                out.push(g.operands(k)[0]);
            }
        });
        out.sort_unstable();
    }
}

/// The Jacobian pattern of the outputs `outs` (handles of a recorded graph): for each
/// output, the inputs it depends on, sorted.
pub(crate) fn jacobian_rows(g: &Graph, outs: &[u64]) -> Vec<Vec<u32>> {
    let mut w = Walker::new(g);
    outs.iter()
        .map(|&h| {
            let mut row = Vec::new();
            w.inputs(&[h], &mut row);
            row
        })
        .collect()
}

/// The Hessian pattern of the scalar output `out` over `n` inputs: for each input `i`, the
/// inputs `j` with a possibly non-zero ∂²f/∂xᵢ∂xⱼ, sorted (both triangles, the diagonal
/// included where non-zero).
pub(crate) fn hessian_rows(g: &Graph, out: u64, n: usize) -> Vec<Vec<u32>> {
    let mut w = Walker::new(g);
    let mut live = Vec::new();
    w.walk(&[out], |k| live.push(k));
    let mut pairs: HashSet<(u32, u32)> = HashSet::new();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for k in live {
        let ops = g.operands(k);
        let h = |i: u32| u64::from(i) + 1;
        match g.kinds[k as usize] {
            Kind::Input | Kind::Linear => {}
            Kind::Mul => {
                w.inputs(&[h(ops[0])], &mut a);
                w.inputs(&[h(ops[1])], &mut b);
                couple(&mut pairs, &a, &b);
            }
            Kind::Div => {
                w.inputs(&[h(ops[0])], &mut a);
                w.inputs(&[h(ops[1])], &mut b);
                couple(&mut pairs, &a, &b);
                couple(&mut pairs, &b, &b);
            }
            Kind::Nonlinear => {
                let hs: Vec<u64> = ops.iter().map(|&i| h(i)).collect();
                w.inputs(&hs, &mut a);
                couple(&mut pairs, &a, &a);
            }
        }
    }
    let mut rows = vec![Vec::new(); n];
    for (i, j) in pairs {
        rows[i as usize].push(j);
        if i != j {
            rows[j as usize].push(i);
        }
    }
    rows.iter_mut().for_each(|r| r.sort_unstable());
    rows
}

/// Add every pair (i, j), i from `a` and j from `b`, as (min, max).
fn couple(pairs: &mut HashSet<(u32, u32)>, a: &[u32], b: &[u32]) {
    for &i in a {
        for &j in b {
            pairs.insert((i.min(j), i.max(j)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sparse::probe::{Probe, Record};

    type P = Probe<Record>;

    fn inputs(x: &[f64]) -> Vec<P> {
        x.iter().enumerate().map(|(i, &v)| P::input(v, i)).collect()
    }

    #[test]
    fn jacobian_of_a_stencil() {
        let (outs, g) = record(|| {
            let u = inputs(&[0.1, 0.2, 0.3, 0.4]);
            (0..4)
                .map(|i| {
                    let l = if i > 0 { u[i - 1] } else { P::from(0.0) };
                    let r = if i < 3 { u[i + 1] } else { P::from(0.0) };
                    (l - 2.0 * u[i] + r + u[i].exp()).handle()
                })
                .collect::<Vec<_>>()
        });
        let rows = jacobian_rows(&g, &outs);
        assert_eq!(
            rows,
            vec![vec![0, 1], vec![0, 1, 2], vec![1, 2, 3], vec![2, 3]]
        );
    }

    #[test]
    fn hessian_couples_only_what_reaches_the_output() {
        let (out, g) = record(|| {
            let x = inputs(&[0.5, 1.5, 2.5, 3.5]);
            // x0 x1 is compared, never used: it adds nothing.
            let unused = x[0] * x[1];
            let y = if unused > 0.0 { x[2] } else { x[3] };
            (x[0].sin() + x[1] * y + (x[3] / x[2])).handle()
        });
        let rows = hessian_rows(&g, out, 4);
        assert_eq!(rows, vec![vec![0], vec![2], vec![1, 2, 3], vec![2]]);
    }
}
