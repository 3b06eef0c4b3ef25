//! `name_jacobian` by columns: the tangent code run on `Dual<f64, [f64; K]>`, `K` input
//! directions per pass, when a function has fewer inputs than outputs (rows by reverse
//! sweeps cost one sweep per output, columns one pass per `K` inputs).

use crate::forward::Dual;
use crate::support::jvp_hessian::{Flatten, Seed};

/// The Jacobian of tangent code over `n` inputs, `K` columns per pass: pass `p` seeds the
/// inputs `pK .. pK + K` with unit tangents, and the outputs' lanes are those columns.
///
/// ```
/// use fazang::{Dual, __private::JacobianLanes};
/// // f(x) = [x0 x1, x0 + x1, x1²]: J = [[x1, x0], [1, 1], [0, 2 x1]].
/// let x = [3.0, 2.0];
/// let mut s = JacobianLanes::<1>::new(2);
/// while s.next_pass() {
///     let d: [Dual<f64, [f64; 1]>; 2] = s.seed(&x);
///     s.finish_pass(vec![d[0] * d[1], d[0] + d[1], d[1] * d[1]]);
/// }
/// assert_eq!(s.finish(), vec![vec![2.0, 3.0], vec![1.0, 1.0], vec![0.0, 4.0]]);
/// ```
pub struct JacobianLanes<const K: usize> {
    lanes: UnitLanes<K>,
    rows: Vec<Vec<f64>>,
    flat: Vec<Dual<f64, [f64; K]>>,
}

/// Passes of `K` unit directions over `n` inputs (of `_jacobian` by columns and of
/// `_hessian`): pass `p` seeds the inputs `pK .. pK + K`.
pub(crate) struct UnitLanes<const K: usize> {
    pub(crate) n: usize,
    pass: Option<usize>,
    next: usize,
}

impl<const K: usize> UnitLanes<K> {
    pub(crate) fn new(n: usize) -> Self {
        UnitLanes {
            n,
            pass: None,
            next: 0,
        }
    }

    /// Start the next pass; `false` once every input is done (one pass at least).
    pub(crate) fn next_pass(&mut self) -> bool {
        let p = self.pass.map_or(0, |p| p + 1);
        if p > 0 && p * K >= self.n {
            return false;
        }
        self.pass = Some(p);
        self.next = 0;
        true
    }

    /// The first input of this pass's lanes.
    pub(crate) fn start(&self) -> usize {
        self.pass.unwrap_or(0) * K
    }

    /// The next parameter, its inputs seeded for this pass.
    pub(crate) fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<Dual<f64, [f64; K]>> {
        let start = self.start();
        p.seed(&mut |x| {
            let mut eps = [0.0; K];
            if let Some(lane) = self.next.checked_sub(start).filter(|l| *l < K) {
                eps[lane] = 1.0;
            }
            self.next += 1;
            Dual::new(x, eps)
        })
    }
}

impl<const K: usize> JacobianLanes<K> {
    /// A Jacobian over `n` inputs (the outputs are counted by the first pass).
    pub fn new(n: usize) -> Self {
        JacobianLanes {
            lanes: UnitLanes::new(n),
            rows: Vec::new(),
            flat: Vec::new(),
        }
    }

    /// Start the next pass; `false` once every column is done (one pass at least).
    pub fn next_pass(&mut self) -> bool {
        self.lanes.next_pass()
    }

    /// The next parameter, its inputs seeded for this pass.
    pub fn seed<P: Seed + ?Sized>(&mut self, p: &P) -> P::Of<Dual<f64, [f64; K]>> {
        self.lanes.seed(p)
    }

    /// The pass's outputs (any shape [`Flatten`] reads, row-major).
    pub fn finish_pass<O: Flatten<Dual<f64, [f64; K]>>>(&mut self, out: O) {
        let start = self.lanes.start();
        out.flatten_into(&mut self.flat);
        if self.rows.len() < self.flat.len() {
            self.rows.resize(self.flat.len(), vec![0.0; self.lanes.n]);
        }
        for (row, d) in self.rows.iter_mut().zip(self.flat.drain(..)) {
            for (l, e) in d.eps.iter().enumerate() {
                if let Some(x) = row.get_mut(start + l) {
                    *x = *e;
                }
            }
        }
    }

    /// The rows `d out_i / d input_j`.
    pub fn finish(self) -> Vec<Vec<f64>> {
        self.rows
    }
}
