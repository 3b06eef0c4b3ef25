//! Graph capture: the names and values of the nodes a computation records, for
//! [`graph`](crate::graph) to draw.
//!
//! The tape stores neither (a `Var` carries its value; the sweep needs no names). Every
//! recording call passes a [`Label`] (the operation's name, a constant of a zero-sized
//! [`OpName`] type, and the value) to the tape, which reads it only on its cold path: the
//! one taken when the node count passes the keys' limit (see `tape::keys`). Normally that
//! limit is the end of the current block of serials, so the label is never read and
//! costs nothing but its construction in a block that does not run; during a capture
//! the limit follows the node count, so every node takes the cold path and is logged
//! here. The normal recording path does exactly the comparison it did before.

use super::stack::{Tape, FIRST, INDEX, NO_OPERAND};

/// The name of an operation as a type (zero-sized values made by [`op!`]), so that
/// recording helpers take it with no runtime argument: it is a constant of the cold path.
pub(crate) trait OpName {
    /// The name a graph capture shows.
    const NAME: &'static str;
}

/// A zero-sized value whose type names an operation: `op!("sin")`.
macro_rules! op {
    ($name:expr) => {{
        struct Name;
        impl $crate::tape::capture::OpName for Name {
            const NAME: &'static str = $name;
        }
        Name
    }};
}
pub(crate) use op;

/// What a recording call tells a capture about the nodes it adds.
#[derive(Clone, Copy)]
pub(crate) enum Label<'a> {
    /// One result: the operation's name and the value.
    Op(&'static str, f64),
    /// Several results of one operation with these values (the inputs of a gradient,
    /// the outputs of a `vector_op`).
    Many(&'static str, &'a [f64]),
}

/// Names and values of the nodes recorded since a capture began, by node index from
/// `base`, and the operands of lazily recorded operations (`vector_op`).
pub(crate) struct GraphLog {
    pub(crate) base: u32,
    pub(crate) entries: Vec<(&'static str, f64)>,
    /// (first output node, number of outputs, input nodes) of each `vector_op`.
    pub(crate) lazy: Vec<(u32, u32, Vec<u32>)>,
}

impl GraphLog {
    /// Log `k` nodes from node `first` (entries of nodes discarded by an inner scope are
    /// overwritten).
    pub(crate) fn record(&mut self, first: u32, k: u32, label: Label<'_>) {
        let Some(at) = first.checked_sub(self.base) else {
            return;
        };
        self.entries.truncate(at as usize);
        self.lazy.retain(|l| l.0 < first);
        match label {
            Label::Op(name, value) => self.entries.push((name, value)),
            Label::Many(name, values) => {
                debug_assert_eq!(values.len(), k as usize);
                self.entries.extend(values.iter().map(|&v| (name, v)));
            }
        }
    }
}

/// One recorded node, as [`Tape::end_capture`] reports it.
pub(crate) struct RawNode {
    pub(crate) name: &'static str,
    pub(crate) value: f64,
    pub(crate) adjoint: f64,
    /// (operand node, partial); none for independent variables.
    pub(crate) operands: Vec<(u32, f64)>,
    /// Operand nodes of a lazily recorded output (partials unknown).
    pub(crate) lazy_operands: Vec<u32>,
}

impl Tape {
    /// Start logging every node recorded from now on (on the innermost scope, which must
    /// be new: nothing recorded in it yet).
    pub(crate) fn begin_capture(&mut self) {
        debug_assert_eq!(self.nodes, self.scope().nodes);
        self.log = Some(Box::new(GraphLog {
            base: self.nodes,
            entries: Vec::new(),
            lazy: Vec::new(),
        }));
        self.keys.capture(Some(self.nodes));
    }

    /// Whether a capture is logging (`vector_op` then logs its operands).
    pub(crate) fn log_mut(&mut self) -> Option<&mut GraphLog> {
        self.log.as_deref_mut()
    }

    /// Stop logging; the index of the innermost scope's first node, and its nodes with
    /// their names, values, operands and (after a sweep) adjoints, in recording order.
    pub(crate) fn end_capture(&mut self) -> (u32, Vec<RawNode>) {
        self.keys.capture(None);
        let scope = self.scope();
        let Some(log) = self.log.take() else {
            return (scope.nodes, Vec::new());
        };
        let mut nodes: Vec<RawNode> = Vec::new();
        for r in &self.rec[scope.ops as usize..] {
            let (idx, partial) = (r.idx, r.partial);
            if idx & FIRST != 0 {
                let i = scope.nodes as usize + nodes.len();
                let (name, value) = log
                    .entries
                    .get(i - log.base as usize)
                    .copied()
                    .unwrap_or(("?", f64::NAN));
                nodes.push(RawNode {
                    name,
                    value,
                    adjoint: self.adj.get(i).copied().unwrap_or(0.0),
                    operands: Vec::new(),
                    lazy_operands: Vec::new(),
                });
            }
            if idx & INDEX != NO_OPERAND {
                let node = nodes.last_mut().expect("a node starts with a FIRST record");
                node.operands.push((idx & INDEX, partial));
            }
        }
        for (first, k, inputs) in &log.lazy {
            for o in *first..first + k {
                if let Some(n) = nodes.get_mut((o - scope.nodes) as usize) {
                    n.lazy_operands = inputs.clone();
                }
            }
        }
        (scope.nodes, nodes)
    }
}
