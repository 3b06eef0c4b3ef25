//! A workload assembled variant by variant, each checked against the hand-written
//! derivative at every point before it can be timed (a benchmark never times a wrong
//! answer).
//!
//! A workload runs at one or more points (`k` numbers each, stored flat): one point for
//! the large functions, 10 000 for the per-call ones. Each variant keeps its own output
//! buffer `O` (a gradient, rows of a Hessian, triplets, ...) and says how to read it as a
//! dense row-major matrix for the check; the timed closure calls it at every point and
//! passes the buffer through `black_box`, so the work cannot be dropped.

use crate::names::{HAND, PRIMAL};
use crate::{assert_close, Variant, Workload};
use std::hint::black_box;
use std::ops::Range;
use std::rc::Rc;

/// A workload under construction: the points, the primal's values and the hand-written
/// derivatives at every point, and the variants added so far.
pub struct Checked {
    name: &'static str,
    inputs: usize,
    pts: Rc<Vec<f64>>,
    k: usize,
    values: Vec<f64>,
    want: Vec<Vec<f64>>,
    variants: Vec<Variant>,
}

impl Checked {
    /// A workload at the points `pts` (`k` numbers each, flat), with its primal.
    pub fn new(
        name: &'static str,
        inputs: usize,
        pts: Vec<f64>,
        k: usize,
        mut primal: impl FnMut(&[f64]) -> f64 + 'static,
    ) -> Checked {
        assert!(
            k > 0 && pts.len().is_multiple_of(k),
            "{name}: points of {k} numbers"
        );
        let pts = Rc::new(pts);
        let values = pts.chunks_exact(k).map(&mut primal).collect();
        let p = pts.clone();
        let run = Box::new(move || p.chunks_exact(k).map(&mut primal).sum::<f64>());
        Checked {
            name,
            inputs,
            pts,
            k,
            values,
            want: Vec::new(),
            variants: vec![Variant { name: PRIMAL, run }],
        }
    }

    /// The hand-written derivative: the reference of every later variant. `f` writes the
    /// derivative into its buffer and returns the value, which must equal the primal's.
    pub fn hand<O: 'static>(
        mut self,
        out: O,
        mut f: impl FnMut(&[f64], &mut O) -> f64 + 'static,
        dense: impl Fn(&O) -> Vec<f64>,
    ) -> Checked {
        let mut o = out;
        let mut want = Vec::new();
        for (p, &v) in self.pts.chunks_exact(self.k).zip(&self.values) {
            let got = f(p, &mut o);
            check_value(self.name, HAND, got, v);
            want.push(dense(&o));
        }
        self.want = want;
        self.push(HAND, o, f);
        self
    }

    /// A variant whose value is checked against the primal and whose derivative (read
    /// densely by `dense`) against the hand-written one, at every point.
    pub fn variant<O: 'static>(
        self,
        name: &'static str,
        out: O,
        f: impl FnMut(&[f64], &mut O) -> f64 + 'static,
        dense: impl Fn(&O) -> Vec<f64>,
    ) -> Checked {
        self.add(name, out, f, dense, None, true)
    }

    /// A variant that computes part of what the hand-written one does (entries `part` of
    /// its dense output: the gradient beside a Hessian, say), checked on that part.
    pub fn variant_part<O: 'static>(
        self,
        name: &'static str,
        part: Range<usize>,
        out: O,
        f: impl FnMut(&[f64], &mut O) -> f64 + 'static,
        dense: impl Fn(&O) -> Vec<f64>,
    ) -> Checked {
        self.add(name, out, f, dense, Some(part), true)
    }

    /// A variant that computes something the hand-written row does not (the gradient
    /// beside a Hessian-vector product, say): checked against `reference`, an independent
    /// hand-written function called at every point when the workload is built (not timed).
    pub fn variant_against<O: 'static>(
        mut self,
        name: &'static str,
        reference: impl Fn(&[f64]) -> Vec<f64>,
        out: O,
        f: impl FnMut(&[f64], &mut O) -> f64 + 'static,
        dense: impl Fn(&O) -> Vec<f64>,
    ) -> Checked {
        let want: Vec<Vec<f64>> = self.pts.chunks_exact(self.k).map(reference).collect();
        let hand = std::mem::replace(&mut self.want, want);
        let mut c = self.add(name, out, f, dense, None, true);
        c.want = hand;
        c
    }

    /// A variant whose API gives the derivative but not the value (echidna's `grad`,
    /// for one): only the derivative is checked; `f` returns any number read from it.
    pub fn variant_without_value<O: 'static>(
        self,
        name: &'static str,
        out: O,
        f: impl FnMut(&[f64], &mut O) -> f64 + 'static,
        dense: impl Fn(&O) -> Vec<f64>,
    ) -> Checked {
        self.add(name, out, f, dense, None, false)
    }

    fn add<O: 'static>(
        mut self,
        name: &'static str,
        out: O,
        mut f: impl FnMut(&[f64], &mut O) -> f64 + 'static,
        dense: impl Fn(&O) -> Vec<f64>,
        part: Option<Range<usize>>,
        with_value: bool,
    ) -> Checked {
        assert!(
            !self.want.is_empty(),
            "{}: the hand variant first",
            self.name
        );
        let mut o = out;
        let what = format!("{} {name}", self.name);
        for ((p, &v), want) in self
            .pts
            .chunks_exact(self.k)
            .zip(&self.values)
            .zip(&self.want)
        {
            let got = f(p, &mut o);
            if with_value {
                check_value(self.name, name, got, v);
            }
            let want = part.clone().map_or(&want[..], |r| &want[r]);
            assert_close(&what, &dense(&o), want);
        }
        self.push(name, o, f);
        self
    }

    fn push<O: 'static>(
        &mut self,
        name: &'static str,
        mut o: O,
        mut f: impl FnMut(&[f64], &mut O) -> f64 + 'static,
    ) {
        let (pts, k) = (self.pts.clone(), self.k);
        let run = Box::new(move || {
            let mut s = 0.0;
            for p in pts.chunks_exact(k) {
                s += f(p, &mut o);
                black_box(&mut o);
            }
            s
        });
        self.variants.push(Variant { name, run });
    }

    /// The workload, every variant checked.
    pub fn build(self) -> Workload {
        Workload {
            name: self.name,
            inputs: self.inputs,
            calls: self.values.len(),
            variants: self.variants,
        }
    }
}

fn check_value(workload: &str, variant: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{workload} {variant}: value {got}, the primal says {want}"
    );
}

/// A gradient or any flat vector, as is.
// `&Vec`: it is passed where `Fn(&O)` with `O = Vec<f64>` is expected.
#[allow(clippy::ptr_arg)]
pub fn flat(v: &Vec<f64>) -> Vec<f64> {
    v.clone()
}

/// Rows, row-major.
#[allow(clippy::ptr_arg)]
pub fn rows(m: &Vec<Vec<f64>>) -> Vec<f64> {
    m.iter().flatten().copied().collect()
}

/// Triplets `(row, column, value)` as a dense `n_rows × n_cols` row-major matrix; panics
/// on a repeated entry or one out of range (a sparse result must have neither).
pub fn triplets_dense(n_rows: usize, n_cols: usize, t: &[(usize, usize, f64)]) -> Vec<f64> {
    let mut d = vec![0.0; n_rows * n_cols];
    let mut seen = vec![false; n_rows * n_cols];
    for &(i, j, v) in t {
        assert!(i < n_rows && j < n_cols, "entry ({i}, {j}) out of range");
        assert!(!seen[i * n_cols + j], "entry ({i}, {j}) repeated");
        seen[i * n_cols + j] = true;
        d[i * n_cols + j] = v;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// f(x) = x₀² + 3 x₁ at two points, with its gradient written by hand.
    fn workload() -> Checked {
        let f = |x: &[f64]| x[0] * x[0] + 3.0 * x[1];
        Checked::new("t", 2, vec![1.0, 2.0, -0.5, 4.0], 2, f).hand(
            vec![0.0; 2],
            move |x, g| {
                g[0] = 2.0 * x[0];
                g[1] = 3.0;
                f(x)
            },
            flat,
        )
    }

    #[test]
    fn a_right_variant_is_kept_and_timed_at_every_point() {
        let mut w = workload()
            .variant(
                "right",
                vec![0.0; 2],
                |x, g| {
                    g.copy_from_slice(&[2.0 * x[0], 3.0]);
                    x[0] * x[0] + 3.0 * x[1]
                },
                flat,
            )
            .build();
        assert_eq!(w.calls, 2);
        let names: Vec<_> = w.variants.iter().map(|v| v.name).collect();
        assert_eq!(names, [PRIMAL, HAND, "right"]);
        // The sum of the values at both points.
        assert_eq!((w.variants[2].run)(), 7.0 + 12.25);
    }

    #[test]
    #[should_panic(expected = "the hand-written derivative says")]
    fn a_wrong_derivative_at_one_point_is_refused() {
        workload().variant(
            "wrong",
            vec![0.0; 2],
            |x, g| {
                let off = if x[0] < 0.0 { 1e-6 } else { 0.0 };
                g.copy_from_slice(&[2.0 * x[0] + off, 3.0]);
                x[0] * x[0] + 3.0 * x[1]
            },
            flat,
        );
    }

    #[test]
    #[should_panic(expected = "the primal says")]
    fn a_wrong_value_is_refused() {
        workload().variant(
            "wrong",
            vec![0.0; 2],
            |x, g| {
                g.copy_from_slice(&[2.0 * x[0], 3.0]);
                x[0] * x[0]
            },
            flat,
        );
    }

    #[test]
    fn a_part_is_checked_against_that_part_only() {
        workload().variant_part(
            "second",
            1..2,
            vec![0.0],
            |x, g| {
                g[0] = 3.0;
                x[0] * x[0] + 3.0 * x[1]
            },
            flat,
        );
    }

    #[test]
    #[should_panic(expected = "the hand-written derivative says")]
    fn a_reference_other_than_the_hand_row_is_used() {
        workload().variant_against(
            "against",
            |x| vec![x[0]],
            vec![0.0],
            |x, g| {
                g[0] = 2.0 * x[0];
                x[0] * x[0] + 3.0 * x[1]
            },
            flat,
        );
    }

    #[test]
    fn triplets_become_the_dense_matrix() {
        let d = triplets_dense(2, 3, &[(0, 2, 1.5), (1, 0, -2.0)]);
        assert_eq!(d, [0.0, 0.0, 1.5, -2.0, 0.0, 0.0]);
    }

    #[test]
    #[should_panic(expected = "repeated")]
    fn a_repeated_triplet_is_refused() {
        triplets_dense(2, 2, &[(0, 1, 1.0), (0, 1, 1.0)]);
    }
}
