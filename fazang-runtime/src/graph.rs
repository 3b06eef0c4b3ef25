//! Seeing the computation: what a gradient recorded, as a graph of operations, exported in
//! GraphViz's DOT language (as ReverseDiffSource draws its expression graphs).
//!
//! [`gradient_graph`] runs a function as [`gradient`](crate::gradient) does, and also
//! captures every node it records: the operation's name (`+`, `sin`, `normal_lpdf`'s
//! `from_partials`, ...), its value and, after the backward sweep, its adjoint; each edge
//! carries the partial derivative of the result with respect to the operand. Operations
//! recorded lazily (`vector_op`, the fused [`linalg`](crate::linalg) functions) show
//! dashed edges without partials. [`Graph::to_dot`] writes the DOT text; render it with
//! GraphViz (`dot -Tsvg graph.dot -o graph.svg`).
//!
//! Capturing costs nothing when it is not used: the tape takes a cold path, already
//! there for its capacity check, only while a capture runs (see the `tape::capture`
//! module).
//!
//! # Example
//!
//! ```
//! use fazang::prelude::*;
//! use fazang::graph::gradient_graph;
//!
//! let g = gradient_graph(|x| x[0] * x[1].sin(), &[2.0, 0.5]);
//! assert_eq!(g.gradient(), &[0.5_f64.sin(), 2.0 * 0.5_f64.cos()]);
//! let names: Vec<&str> = g.nodes().iter().map(|n| n.name).collect();
//! assert_eq!(names, ["input", "input", "sin", "*"]);
//! let dot = g.to_dot();
//! assert!(dot.starts_with("digraph fazang {"));
//! ```

use crate::tape::scope::NestedScope;
use crate::tape::stack::with_tape;
use crate::tape::var::{grad_in_scope_into, new_vars, Var};
use std::fmt::Write;

/// One recorded node of a [`Graph`].
///
/// ```
/// use fazang::graph::gradient_graph;
/// let g = gradient_graph(|x| x[0].exp(), &[0.0]);
/// let exp = &g.nodes()[1];
/// assert_eq!((exp.name, exp.value, exp.adjoint), ("exp", 1.0, 1.0));
/// assert_eq!(exp.operands, vec![(0, Some(1.0))]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The operation (`"input"` for the independent variables).
    pub name: &'static str,
    /// Its value.
    pub value: f64,
    /// Its adjoint after the sweep: the derivative of the output with respect to it.
    pub adjoint: f64,
    /// Operands, as positions in [`Graph::nodes`], each with the partial derivative of
    /// this node with respect to it (`None` for a lazily recorded operation, whose
    /// partials are never formed). Variables created outside the function are not drawn.
    pub operands: Vec<(usize, Option<f64>)>,
}

/// What a gradient recorded: its nodes in recording order (the inputs first), the
/// output, value and gradient. See the [module documentation](self).
///
/// ```
/// use fazang::graph::gradient_graph;
/// let g = gradient_graph(|x| x[0] * x[0], &[3.0]);
/// assert_eq!((g.value(), g.gradient()), (9.0, &[6.0][..]));
/// assert_eq!(g.output(), Some(1));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    nodes: Vec<Node>,
    inputs: usize,
    output: Option<usize>,
    value: f64,
    gradient: Vec<f64>,
}

/// Value, gradient and graph of `f` at `x`: [`gradient`](crate::gradient) with every
/// recorded node captured. Runs on a nested scope, like `gradient`.
///
/// ```
/// use fazang::prelude::*;
/// use fazang::graph::gradient_graph;
/// let g = gradient_graph(|x| normal_lpdf(1.3, x[0], x[1]).unwrap(), &[0.5, 1.2]);
/// assert_eq!(g.nodes().len(), 3); // two inputs, one node for the density
/// assert!((g.gradient()[0] - 0.8 / 1.44).abs() < 1e-15);
/// ```
pub fn gradient_graph<F>(f: F, x: &[f64]) -> Graph
where
    F: FnOnce(&[Var]) -> Var,
{
    let _scope = NestedScope::begin();
    let capture = Capture::begin();
    let mut xv = vec![Var::constant(0.0); x.len()];
    new_vars(x, &mut xv);
    let y = f(&xv);
    let mut gradient = vec![0.0; x.len()];
    grad_in_scope_into(y, &xv, &mut gradient);
    let (base, raw) = capture.end();
    let base = base as usize;
    let nodes = raw
        .into_iter()
        .map(|r| Node {
            name: r.name,
            value: r.value,
            adjoint: r.adjoint,
            operands: r
                .operands
                .iter()
                .filter_map(|&(i, p)| (i as usize).checked_sub(base).map(|k| (k, Some(p))))
                .chain(
                    r.lazy_operands
                        .iter()
                        .filter_map(|&i| (i as usize).checked_sub(base).map(|k| (k, None))),
                )
                .collect(),
        })
        .collect();
    Graph {
        nodes,
        inputs: x.len(),
        output: y.index().and_then(|i| (i as usize).checked_sub(base)),
        value: y.val(),
        gradient,
    }
}

/// Ends a capture even if the function panics (the tape then records at full speed
/// again).
struct Capture;

impl Capture {
    fn begin() -> Capture {
        with_tape(|t| t.begin_capture());
        Capture
    }

    fn end(self) -> (u32, Vec<crate::tape::capture::RawNode>) {
        let nodes = with_tape(|t| t.end_capture());
        std::mem::forget(self);
        nodes
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        with_tape(|t| drop(t.end_capture()));
    }
}

impl Graph {
    /// The nodes, in recording order; the inputs come first.
    ///
    /// ```
    /// let g = fazang::graph::gradient_graph(|x| x[0] + 1.0, &[1.0]);
    /// assert_eq!(g.nodes()[1].name, "+");
    /// ```
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The position of the output in [`nodes`](Graph::nodes) (`None` if it is a constant
    /// or a variable created outside the function).
    ///
    /// ```
    /// let g = fazang::graph::gradient_graph(|_| fazang::Var::constant(1.0), &[1.0]);
    /// assert_eq!(g.output(), None);
    /// ```
    pub fn output(&self) -> Option<usize> {
        self.output
    }

    /// The value of the function.
    ///
    /// ```
    /// assert_eq!(fazang::graph::gradient_graph(|x| x[0] * 2.0, &[1.5]).value(), 3.0);
    /// ```
    pub fn value(&self) -> f64 {
        self.value
    }

    /// The gradient, as [`gradient`](crate::gradient) returns it.
    ///
    /// ```
    /// assert_eq!(fazang::graph::gradient_graph(|x| x[0] * 2.0, &[1.5]).gradient(), &[2.0]);
    /// ```
    pub fn gradient(&self) -> &[f64] {
        &self.gradient
    }

    /// The graph in GraphViz's DOT language: one box per operation (name, value,
    /// adjoint), the inputs `x[i]` as ellipses, the output outlined twice, and an edge
    /// from each operand labelled with the partial derivative (dashed where the
    /// operation was recorded lazily).
    ///
    /// ```
    /// let g = fazang::graph::gradient_graph(|x| x[0].sin(), &[0.0]);
    /// let dot = g.to_dot();
    /// assert!(dot.contains("n0 -> n1 [label=\"1\"];"));
    /// ```
    pub fn to_dot(&self) -> String {
        let mut s = String::from("digraph fazang {\n");
        s.push_str("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f4f5\", fontname=\"Helvetica\", fontsize=11];\n");
        s.push_str("  edge [fontname=\"Helvetica\", fontsize=9, color=\"#52525b\"];\n");
        for (i, n) in self.nodes.iter().enumerate() {
            let head = if i < self.inputs {
                format!("x[{i}]")
            } else {
                escape(n.name)
            };
            let extra = if i < self.inputs {
                ", shape=ellipse, fillcolor=\"#dbeafe\""
            } else if Some(i) == self.output {
                ", fillcolor=\"#fef3c7\", peripheries=2"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "  n{i} [label=\"{head}\\nvalue {}\\nadjoint {}\"{extra}];",
                number(n.value),
                number(n.adjoint)
            );
        }
        for (i, n) in self.nodes.iter().enumerate() {
            for &(k, p) in &n.operands {
                let _ = match p {
                    Some(p) => writeln!(s, "  n{k} -> n{i} [label=\"{}\"];", number(p)),
                    None => writeln!(s, "  n{k} -> n{i} [style=dashed];"),
                };
            }
        }
        s.push_str("}\n");
        s
    }

    /// Write [`to_dot`](Graph::to_dot) to a file.
    ///
    /// ```no_run
    /// let g = fazang::graph::gradient_graph(|x| x[0].sin(), &[0.0]);
    /// g.write_dot("graph.dot")?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_dot(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        std::fs::write(path, self.to_dot())
    }
}

/// A number for a label: four significant digits, trailing zeros dropped.
fn number(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 || !v.is_finite() {
        return format!("{}", if v == 0.0 { 0.0 } else { v });
    }
    if (1e-3..1e5).contains(&a) {
        let decimals = (3 - a.log10().floor() as i32).max(0) as usize;
        let t = format!("{v:.decimals$}");
        let t = if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.')
        } else {
            &t
        };
        t.to_string()
    } else {
        format!("{v:.3e}")
    }
}

/// A name inside a quoted DOT string.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_have_four_significant_digits() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(1.0), "1");
        assert_eq!(number(0.5555555), "0.5556");
        assert_eq!(number(-123.456), "-123.5");
        assert_eq!(number(12345.6), "12346");
        assert_eq!(number(1.5e-7), "1.500e-7");
        assert_eq!(number(f64::INFINITY), "inf");
    }
}
