fn variance_grad(w: &[f64], cov: &[Vec<f64>]) -> (f64, Vec<f64>) {
    let g = (0..w.len())
        .map(|i| 2.0 * (0..w.len()).map(|j| cov[i][j] * w[j]).sum::<f64>())
        .collect();
    (plain::variance(w, cov), g)
}

fn expected_shortfall_grad(w: &[f64], s: &[Vec<f64>], alpha_tail: f64) -> (f64, Vec<f64>) {
    // Finite differences, so that the test's closed form is checked against them.
    let (v, g) = (
        plain::expected_shortfall(w, s, alpha_tail),
        fd_gradient_step(|w| plain::expected_shortfall(w, s, alpha_tail), w, 1e-6),
    );
    (v, g)
}

fn objective_grad(w: &[f64], s: &[Vec<f64>], risk_aversion: f64) -> (f64, Vec<f64>) {
    // Hand-derived: mean return vector − λ ∇ES − 200 (Σw − 1) 1.
    let n = s.len() as f64;
    let (es, _) = es_closed_form(w, s, 0.1);
    let budget: f64 = w.iter().sum::<f64>() - 1.0;
    let g = (0..w.len())
        .map(|j| s.iter().map(|r| r[j]).sum::<f64>() / n - risk_aversion * es[j] - 200.0 * budget)
        .collect();
    (plain::objective(w, s, risk_aversion), g)
}

fn cvar_objective_grad(
    w: &[f64],
    t: f64,
    s: &[Vec<f64>],
    alpha_tail: f64,
) -> (f64, (Vec<f64>, f64)) {
    let x: Vec<f64> = [w, &[t]].concat();
    let f = |x: &[f64]| plain::cvar_objective(&x[0..4], x[4], s, alpha_tail);
    let g = fd_gradient_step(f, &x, 1e-6);
    (f(&x), (g[0..4].to_vec(), g[4]))
}
