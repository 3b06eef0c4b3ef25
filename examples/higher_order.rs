//! Derivatives of any order: ReverseDiffSource's sin to order 10 by Taylor arithmetic,
//! MESA's numbers carrying every mixed partial to total order 3 (with `differentiate`
//! giving Skye's pressure from a free energy), and a run-time number of variables.
//!
//! `cargo run --example higher_order`
use fazang::prelude::*;
use fazang::{derivatives, forward_scope, Jet, JetDyn, Taylor};

/// A free energy F(ρ, T) (MESA-style, made up): any generic body gives all its partials.
#[differentiate]
fn free_energy(rho: f64, t: f64) -> f64 {
    rho * rho * t * rho.ln() + (-t / rho).exp()
}

fn main() {
    // rdiff(:(sin(x)), order = 10) at x = 2.
    let d = derivatives::<10>(|x| x.sin(), 2.0);
    println!("sin(x) and its derivatives of order 1..10 at x = 2:");
    for (k, dk) in d.iter().enumerate() {
        println!("  order {k:2}: {dk:+.16}");
    }

    // A Taylor number directly: the value and f^(k)/k! of a composite function.
    let t = (Taylor::<5>::variable(0.5).exp() * 2.0).ln_1p();
    println!(
        "ln(1 + 2 e^x) at 0.5, derivatives 0..5: {:?}",
        t.derivatives()
    );

    // MESA's auto_diff_real_2var_order3: every mixed partial to total order 3.
    type J = Jet<2, 3, 10>;
    let (rho, temp) = (J::variable(1.7, 0), J::variable(0.6, 1));
    let f = free_energy(rho, temp);
    println!("F(ρ = 1.7, T = 0.6) and its partials (MESA's d{{i}}val1_d{{j}}val2):");
    for (alpha, d) in f.partials() {
        println!("  ∂^{alpha:?} F = {d:+.12}");
    }
    // Skye's pressure P = ρ² ∂F/∂ρ, still a number with derivatives (one order less).
    let p = rho * rho * f.differentiate(0);
    println!(
        "P = {:.6}, ∂P/∂ρ = {:.6}, ∂P/∂T = {:.6}, ∂²P/∂ρ∂T = {:.6} (order {})",
        p.partial([0, 0]),
        p.partial([1, 0]),
        p.partial([0, 1]),
        p.partial([1, 1]),
        p.order()
    );

    // MESA/star's numbers: 33 variables chosen at run time, first order.
    let d = forward_scope(|| {
        let n = 33;
        let x: Vec<JetDyn> = (0..n)
            .map(|i| JetDyn::variable(n, 1, 1.0 + 0.01 * i as f64, i))
            .collect();
        let y = x[4] * x[5].ln() + x[32].sqrt();
        (0..n)
            .map(|i| {
                let mut a = vec![0; n];
                a[i] = 1;
                y.partial(&a)
            })
            .collect::<Vec<_>>()
    });
    println!("star-like number, nonzero partials: {:?}", {
        d.iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .collect::<Vec<_>>()
    });
}
