fn norm_cdf_grad(x: f64) -> (f64, [f64; 1]) {
    (plain::norm_cdf(x), [phi(x)])
}

fn call_price_grad(s: f64, k: f64, r: f64, v: f64, t: f64) -> (f64, [f64; 5]) {
    // Hand-derived greeks (exact N', not the approximation's derivative).
    let d1 = ((s / k).ln() + (r + 0.5 * v * v) * t) / (v * t.sqrt());
    let d2 = d1 - v * t.sqrt();
    let disc = (-r * t).exp();
    let n2 = plain::norm_cdf(d2);
    (
        plain::call_price(s, k, r, v, t),
        [
            plain::norm_cdf(d1),
            -disc * n2,
            k * t * disc * n2,
            s * phi(d1) * t.sqrt(),
            s * phi(d1) * v / (2.0 * t.sqrt()) + r * k * disc * n2,
        ],
    )
}

fn implied_vol_grad(c: f64, s: f64, k: f64, r: f64, t: f64) -> (f64, [f64; 1]) {
    let vol = plain::implied_vol(c, s, k, r, t);
    let d1 = ((s / k).ln() + (r + 0.5 * vol * vol) * t) / (vol * t.sqrt());
    (vol, [1.0 / (s * phi(d1) * t.sqrt())])
}
