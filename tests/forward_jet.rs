//! MESA's numbers: every mixed partial to total order 3 of two-variable functions,
//! against exact values from sympy (`forward_support/mixed_partials_reference.py`), for
//! the static [`Jet`], the run-time [`JetDyn`] and nested dual numbers; `differentiate`.

#[allow(dead_code)]
#[path = "support/close.rs"]
mod close;

use close::assert_close;
use fazang::prelude::*;
use fazang::{forward_scope, Dual, Jet, JetDyn};

/// F(ρ, T) = ρ² T ln ρ + e^(−T/ρ): a MESA-style free energy.
#[differentiate]
fn free_energy(rho: f64, t: f64) -> f64 {
    rho * rho * t * rho.ln() + (-t / rho).exp()
}

/// e^(xy)/(x + y²) + atan2(y, x) √x.
#[differentiate]
fn mixed(x: f64, y: f64) -> f64 {
    (x * y).exp() / (x + y * y) + y.atan2(x) * x.sqrt()
}

const FREE_ENERGY: [([usize; 2], f64); 10] = [
    ([0, 0], 1.6227279100047989),
    ([1, 0], 2.248353989813124),
    ([0, 1], 1.1202106322384984),
    ([2, 0], 2.29542428140968),
    ([1, 1], 3.6614493804848363),
    ([0, 2], 0.24312059607716108),
    ([3, 0], 0.9081311169100125),
    ([2, 1], 3.9593170704290523),
    ([1, 2], -0.23554936644154015),
    ([0, 3], -0.14301211533950653),
];

const MIXED: [([usize; 2], f64); 10] = [
    ([0, 0], 0.34170621841934296),
    ([1, 0], -0.902457528354926),
    ([0, 1], 2.1298890943544593),
    ([2, 0], 2.2194485988705446),
    ([1, 1], -1.7931241727938767),
    ([0, 2], 1.8617854568237797),
    ([3, 0], -7.571308551804382),
    ([2, 1], 4.24780559172849),
    ([1, 2], -2.422073131106902),
    ([0, 3], -5.363175340466893),
];

type J = Jet<2, 3, 10>;

#[test]
fn jet_gives_every_mixed_partial_to_order_three() {
    let f = free_energy(J::variable(1.7, 0), J::variable(0.6, 1));
    for (alpha, want) in FREE_ENERGY {
        assert_close(
            f.partial(alpha),
            want,
            1e-13,
            &format!("free energy {alpha:?}"),
        );
    }
    let m = mixed(J::variable(0.8, 0), J::variable(-0.4, 1));
    for (alpha, want) in MIXED {
        assert_close(m.partial(alpha), want, 1e-13, &format!("mixed {alpha:?}"));
    }
    // MESA's order: val, d1val1, d1val2, d2val1, d1val1_d1val2, d2val2, d3val1, ...
    let order: Vec<Vec<usize>> = f.partials().into_iter().map(|(a, _)| a).collect();
    let mesa: Vec<Vec<usize>> = FREE_ENERGY.iter().map(|(a, _)| a.to_vec()).collect();
    assert_eq!(order, mesa);
}

#[test]
fn jet_dyn_agrees_with_jet() {
    forward_scope(|| {
        let f = free_energy(
            JetDyn::variable(2, 3, 1.7, 0),
            JetDyn::variable(2, 3, 0.6, 1),
        );
        for (alpha, want) in FREE_ENERGY {
            assert_close(
                f.partial(&alpha),
                want,
                1e-13,
                &format!("free energy {alpha:?}"),
            );
        }
        let m = mixed(
            JetDyn::variable(2, 3, 0.8, 0),
            JetDyn::variable(2, 3, -0.4, 1),
        );
        for (alpha, want) in MIXED {
            assert_close(m.partial(&alpha), want, 1e-13, &format!("mixed {alpha:?}"));
        }
    });
}

#[test]
fn nested_duals_give_the_same_second_derivatives() {
    // ∂²/∂x∂y by a dual number in y over a dual number in x.
    type D2 = Dual<Dual<f64>>;
    let x = D2::constant(Dual::variable(0.8));
    let y = D2::new(Dual::constant(-0.4), Dual::constant(1.0));
    let m = mixed(x, y);
    assert_close(m.eps.eps, MIXED[4].1, 1e-13, "d²/dxdy");
    assert_close(m.re.eps, MIXED[1].1, 1e-14, "d/dx");
}

#[test]
fn differentiate_lowers_the_order_and_keeps_propagating() {
    // Skye's pressure from a free energy: P = ρ² ∂F/∂ρ, with its own derivatives.
    let (rho, t) = (J::variable(1.7, 0), J::variable(0.6, 1));
    let f = free_energy(rho, t);
    let df = f.differentiate(0);
    assert_eq!(df.order(), 2);
    assert_close(df.partial([0, 0]), FREE_ENERGY[1].1, 1e-14, "∂F/∂ρ");
    assert_close(df.partial([1, 0]), FREE_ENERGY[3].1, 1e-14, "∂²F/∂ρ²");
    assert_close(df.partial([0, 1]), FREE_ENERGY[4].1, 1e-14, "∂²F/∂ρ∂T");
    assert_close(df.partial([1, 1]), FREE_ENERGY[7].1, 1e-13, "∂³F/∂ρ²∂T");
    // The order-3 partials of ∂F/∂ρ are unknown and read as zero, as in MESA.
    assert_eq!(df.partial([3, 0]), 0.0);
    let p = rho * rho * df;
    let (r, dfr, dfrr) = (1.7, FREE_ENERGY[1].1, FREE_ENERGY[3].1);
    assert_close(p.partial([0, 0]), r * r * dfr, 1e-14, "P");
    assert_close(
        p.partial([1, 0]),
        2.0 * r * dfr + r * r * dfrr,
        1e-13,
        "∂P/∂ρ",
    );
    assert_close(p.partial([0, 1]), r * r * FREE_ENERGY[4].1, 1e-13, "∂P/∂T");
    forward_scope(|| {
        let f = free_energy(
            JetDyn::variable(2, 3, 1.7, 0),
            JetDyn::variable(2, 3, 0.6, 1),
        );
        let d = f.differentiate(1);
        assert_eq!(d.order(), 2);
        assert_close(
            d.partial(&[1, 1]),
            FREE_ENERGY[8].1,
            1e-13,
            "∂³F/∂ρ∂T² from JetDyn",
        );
    });
}

#[test]
fn run_time_variables_as_mesa_star() {
    forward_scope(|| {
        let n = 33;
        let x: Vec<JetDyn> = (0..n)
            .map(|i| JetDyn::variable(n, 1, 1.0 + 0.1 * i as f64, i))
            .collect();
        let y = x[4] * x[5].exp() + x[32].powi(3);
        let at = |i: usize| {
            let mut a = vec![0; n];
            a[i] = 1;
            y.partial(&a)
        };
        assert_close(at(4), 1.5_f64.exp(), 1e-15, "d/dx4");
        assert_close(at(5), 1.4 * 1.5_f64.exp(), 1e-15, "d/dx5");
        assert_close(at(32), 3.0 * 4.2 * 4.2, 1e-14, "d/dx32");
        assert_eq!(at(0), 0.0);
    });
}

#[test]
fn shapes_that_differ_are_refused() {
    let r = std::panic::catch_unwind(|| {
        forward_scope(|| {
            let _ = JetDyn::variable(2, 2, 1.0, 0) + JetDyn::variable(3, 2, 1.0, 0);
        })
    });
    let msg = *r.unwrap_err().downcast::<String>().unwrap();
    assert!(msg.contains("JetDyn numbers of different shapes"), "{msg}");
}
