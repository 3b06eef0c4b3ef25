//! `fazang::graph`: the DOT text of a captured gradient, parsed back with an independent
//! DOT parser (layout-rs's), has one node per recorded operation with its name, value and
//! adjoint, and one edge per operand labelled with the partial; capturing changes no
//! result and leaves the tape as it was.

mod runtime_support;

use fazang::graph::{gradient_graph, Graph};
use fazang::linalg::multiply;
use fazang::prelude::*;
use layout::gv::parser::ast::{Stmt, StmtList};
use layout::gv::DotParser;
use nalgebra::{DMatrix, DVector};
use std::collections::HashMap;

/// Nodes (id → attributes) and edges (from, to, attributes) of a parsed DOT graph.
struct Parsed {
    nodes: HashMap<String, HashMap<String, String>>,
    edges: Vec<(String, String, HashMap<String, String>)>,
}

fn parse(dot: &str) -> Parsed {
    let graph = DotParser::new(dot).process().expect("valid DOT");
    let mut p = Parsed {
        nodes: HashMap::new(),
        edges: Vec::new(),
    };
    walk(&graph.list, &mut p);
    p
}

fn walk(stmts: &StmtList, p: &mut Parsed) {
    for s in &stmts.list {
        match s {
            Stmt::Node(n) => {
                p.nodes
                    .insert(n.id.name.clone(), n.list.iter().cloned().collect());
            }
            Stmt::Edge(e) => {
                let attrs: HashMap<String, String> = e.list.iter().cloned().collect();
                let mut from = e.from.name.clone();
                for (to, _) in &e.to {
                    p.edges.push((from.clone(), to.name.clone(), attrs.clone()));
                    from = to.name.clone();
                }
            }
            Stmt::SubGraph(g) => walk(&g.list, p),
            Stmt::Attribute(_) => {}
        }
    }
}

/// The label lines of a node: name, "value v", "adjoint a".
fn label(p: &Parsed, id: &str) -> Vec<String> {
    p.nodes[id]["label"].lines().map(str::to_string).collect()
}

/// A number printed in a label, read back.
fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("a number: {s}"))
}

fn normal_lp(x: &[Var]) -> Var {
    let (mu, sigma) = (x[0], x[1]);
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((1.3 - mu) / sigma).powi(2)
}

#[test]
fn the_dot_text_parses_back_to_the_recorded_graph() {
    let g = gradient_graph(normal_lp, &[0.5, 1.2]);
    let p = parse(&g.to_dot());
    assert_eq!(p.nodes.len(), g.nodes().len());
    // Inputs first, as ellipses named x[i].
    assert_eq!(label(&p, "n0")[0], "x[0]");
    assert_eq!(p.nodes["n1"]["shape"], "ellipse");
    // Every node: its operation, value and adjoint, to four significant digits.
    for (i, n) in g.nodes().iter().enumerate().skip(2) {
        let l = label(&p, &format!("n{i}"));
        assert_eq!(l[0], n.name);
        let v = num(l[1].strip_prefix("value ").unwrap());
        let a = num(l[2].strip_prefix("adjoint ").unwrap());
        runtime_support::assert_close(v, n.value, 1e-3, "value");
        runtime_support::assert_close(a, n.adjoint, 1e-3, "adjoint");
    }
    // One edge per operand, labelled with the partial.
    let operands: usize = g.nodes().iter().map(|n| n.operands.len()).sum();
    assert_eq!(p.edges.len(), operands);
    for (from, to, attrs) in &p.edges {
        let (k, i): (usize, usize) = (from[1..].parse().unwrap(), to[1..].parse().unwrap());
        let partial = g.nodes()[i]
            .operands
            .iter()
            .find(|o| o.0 == k)
            .unwrap()
            .1
            .unwrap();
        runtime_support::assert_close(num(&attrs["label"]), partial, 1e-3, "partial");
    }
    // The output is marked, and its adjoint is 1.
    let out = g.output().unwrap();
    assert_eq!(p.nodes[&format!("n{out}")]["peripheries"], "2");
    assert_eq!(g.nodes()[out].adjoint, 1.0);
}

#[test]
fn the_graph_holds_the_chain_rule() {
    // Every adjoint is the sum over its uses of (user's adjoint × partial): the sweep,
    // recomputed from the exported graph alone.
    let g = gradient_graph(normal_lp, &[0.5, 1.2]);
    let n = g.nodes().len();
    let mut adj = vec![0.0; n];
    adj[g.output().unwrap()] = 1.0;
    for i in (0..n).rev() {
        for &(k, p) in &g.nodes()[i].operands {
            adj[k] += adj[i] * p.unwrap();
        }
    }
    for (i, node) in g.nodes().iter().enumerate() {
        runtime_support::assert_close(adj[i], node.adjoint, 1e-15, &format!("node {i}"));
    }
    let (v, grad) = gradient(normal_lp, &[0.5, 1.2]);
    assert_eq!((g.value(), g.gradient()), (v, &grad[..]));
    // Names of the operations, in recording order.
    let names: Vec<&str> = g.nodes().iter().map(|n| n.name).collect();
    assert_eq!(
        names,
        ["input", "input", "ln", "-", "-", "/", "powi", "*", "-"]
    );
}

#[test]
fn lazy_operations_are_dashed_and_distributions_are_one_node() {
    let w = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let g: Graph = gradient_graph(
        |x| {
            let y = multiply(&w, &DVector::from_column_slice(x));
            normal_lpdf(y[0], 0.0, 1.0).unwrap() + y[1]
        },
        &[0.5, -0.25],
    );
    let p = parse(&g.to_dot());
    let names: Vec<&str> = g.nodes().iter().map(|n| n.name).collect();
    assert_eq!(
        names,
        [
            "input",
            "input",
            "multiply",
            "multiply",
            "from_partials",
            "+"
        ]
    );
    let dashed: Vec<_> = p
        .edges
        .iter()
        .filter(|e| e.2.get("style").map(String::as_str) == Some("dashed"))
        .collect();
    assert_eq!(dashed.len(), 4, "each multiply output from both inputs");
    assert_eq!(g.nodes()[2].operands, vec![(0, None), (1, None)]);
}

#[test]
fn capturing_changes_nothing_and_survives_a_panic() {
    let x = [0.3, 1.7];
    let before = tape_stats();
    let (v, grad) = gradient(normal_lp, &x);
    let g = gradient_graph(normal_lp, &x);
    assert_eq!((g.value(), g.gradient()), (v, &grad[..]));
    assert_eq!(tape_stats(), before);
    // A panic inside the captured function ends the capture: later gradients are as
    // before and record nothing extra.
    let r = std::panic::catch_unwind(|| {
        gradient_graph(
            |x| {
                let _ = x[0] * 2.0;
                panic!("inside")
            },
            &x,
        )
    });
    assert!(r.is_err());
    assert_eq!(gradient(normal_lp, &x), (v, grad));
    assert_eq!(tape_stats(), before);
    // Inner nested scopes: what they record is gone, the rest is captured.
    let g = gradient_graph(
        |x| {
            let inner = nested(|| (x[0] * x[0]).val());
            x[1] * inner
        },
        &x,
    );
    let names: Vec<&str> = g.nodes().iter().map(|n| n.name).collect();
    assert_eq!(names, ["input", "input", "*"]);
    assert_eq!(g.gradient(), &[0.0, 0.09]);
}
