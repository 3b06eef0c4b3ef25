//! Seeing the computation: the graph a gradient recorded, written as `graph.dot`.
//!
//! Fazang's first example, the log density of `y = 1.3` under normal(μ, σ), differentiated
//! at μ = 0.5, σ = 1.2. Each box is one recorded operation with its value and adjoint;
//! each edge carries the partial derivative of the result with respect to the operand.
//!
//! Run with `cargo run --example graph`, then render with GraphViz:
//! `dot -Tsvg graph.dot -o graph.svg`.

use fazang::graph::gradient_graph;
use fazang::prelude::*;

#[differentiate]
fn normal_lp(mu: f64, sigma: f64) -> f64 {
    let y = 1.3;
    -0.5 * (2.0 * std::f64::consts::PI).ln() - sigma.ln() - 0.5 * ((y - mu) / sigma).powi(2)
}

fn main() -> std::io::Result<()> {
    // The generic primal runs on `Var`s; the graph records what it does.
    let graph = gradient_graph(|x| normal_lp(x[0], x[1]), &[0.5, 1.2]);
    println!("value {}, gradient {:?}", graph.value(), graph.gradient());
    for (i, node) in graph.nodes().iter().enumerate() {
        println!(
            "n{i}: {:6} value {:>9.5} adjoint {:>9.5} operands {:?}",
            node.name, node.value, node.adjoint, node.operands
        );
    }
    graph.write_dot("graph.dot")?;
    println!("wrote graph.dot ({} nodes)", graph.nodes().len());
    Ok(())
}
