//! Black-Scholes pricing with a hand-written normal CDF (Hart's double-precision rational
//! approximation, as West's "Better approximations to cumulative normal functions" gives
//! it: branches on |x|, constants, Horner loops), the greeks as the gradient of the price,
//! and an implied-volatility solver (Newton's method with an early `return`) differentiated
//! with respect to the market price.
//!
//! Closed forms: Δ = N(d₁), ∂C/∂K = −e^(−rT) N(d₂), ρ = K T e^(−rT) N(d₂), vega = S φ(d₁) √T,
//! ∂C/∂T = S φ(d₁) σ / (2√T) + r K e^(−rT) N(d₂); dσ_impl/dC = 1 / vega.
use fazang::prelude::*;

mod program_support;
use program_support::*;

#[differentiate]
fn norm_cdf(x: f64) -> f64 {
    let z = x.abs();
    let tail = if z > 37.0 {
        0.0
    } else if z < 7.07106781186547 {
        let num = [
            3.52624965998911e-2,
            0.700383064443688,
            6.37396220353165,
            33.912866078383,
            112.079291497871,
            221.213596169931,
            220.206867912376,
        ];
        let den = [
            8.83883476483184e-2,
            1.75566716318264,
            16.064177579207,
            86.7807322029461,
            296.564248779674,
            637.333633378831,
            793.826512519948,
            440.413735824752,
        ];
        let mut p = num[0];
        for c in &num[1..] {
            p = p * z + c;
        }
        let mut q = den[0];
        for c in &den[1..] {
            q = q * z + c;
        }
        (-z * z / 2.0).exp() * p / q
    } else {
        let mut b = z + 0.65;
        for k in [4.0, 3.0, 2.0, 1.0] {
            b = z + k / b;
        }
        (-z * z / 2.0).exp() / b / 2.506628274631
    };
    if x > 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

#[differentiate]
fn call_price(spot: f64, strike: f64, rate: f64, vol: f64, expiry: f64) -> f64 {
    let sqrt_t = expiry.sqrt();
    let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * expiry) / (vol * sqrt_t);
    let d2 = d1 - vol * sqrt_t;
    spot * norm_cdf(d1) - strike * (-rate * expiry).exp() * norm_cdf(d2)
}

/// Volatility at which the model price equals `price`, by Newton's method on the vega.
#[differentiate(wrt(price))]
fn implied_vol(price: f64, spot: f64, strike: f64, rate: f64, expiry: f64) -> f64 {
    let mut vol = 0.3;
    for _ in 0..100 {
        let diff = call_price(spot, strike, rate, vol, expiry) - price;
        if diff.abs() < 1e-13 * spot {
            return vol;
        }
        let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * expiry) / (vol * expiry.sqrt());
        let vega =
            spot * (-0.5 * d1 * d1).exp() / (2.0 * std::f64::consts::PI).sqrt() * expiry.sqrt();
        vol -= diff / vega;
    }
    vol
}

/// The same code without the attributes.
mod plain {
    pub fn norm_cdf(x: f64) -> f64 {
        let z = x.abs();
        let tail = if z > 37.0 {
            0.0
        } else if z < 7.07106781186547 {
            let num = [
                3.52624965998911e-2,
                0.700383064443688,
                6.37396220353165,
                33.912866078383,
                112.079291497871,
                221.213596169931,
                220.206867912376,
            ];
            let den = [
                8.83883476483184e-2,
                1.75566716318264,
                16.064177579207,
                86.7807322029461,
                296.564248779674,
                637.333633378831,
                793.826512519948,
                440.413735824752,
            ];
            let mut p = num[0];
            for c in &num[1..] {
                p = p * z + c;
            }
            let mut q = den[0];
            for c in &den[1..] {
                q = q * z + c;
            }
            (-z * z / 2.0).exp() * p / q
        } else {
            let mut b = z + 0.65;
            for k in [4.0, 3.0, 2.0, 1.0] {
                b = z + k / b;
            }
            (-z * z / 2.0).exp() / b / 2.506628274631
        };
        if x > 0.0 {
            1.0 - tail
        } else {
            tail
        }
    }

    pub fn call_price(spot: f64, strike: f64, rate: f64, vol: f64, expiry: f64) -> f64 {
        let sqrt_t = expiry.sqrt();
        let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * expiry) / (vol * sqrt_t);
        let d2 = d1 - vol * sqrt_t;
        spot * norm_cdf(d1) - strike * (-rate * expiry).exp() * norm_cdf(d2)
    }

    pub fn implied_vol(price: f64, spot: f64, strike: f64, rate: f64, expiry: f64) -> f64 {
        let mut vol = 0.3;
        for _ in 0..100 {
            let diff = call_price(spot, strike, rate, vol, expiry) - price;
            if diff.abs() < 1e-13 * spot {
                return vol;
            }
            let d1 =
                ((spot / strike).ln() + (rate + 0.5 * vol * vol) * expiry) / (vol * expiry.sqrt());
            let vega =
                spot * (-0.5 * d1 * d1).exp() / (2.0 * std::f64::consts::PI).sqrt() * expiry.sqrt();
            vol -= diff / vega;
        }
        vol
    }
}

fn phi(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// Spot, strike, rate, vol, expiry: at, in and out of the money, short and long dated.
const CASES: [[f64; 5]; 5] = [
    [100.0, 100.0, 0.03, 0.2, 1.0],
    [100.0, 80.0, 0.01, 0.35, 0.25],
    [100.0, 130.0, 0.05, 0.25, 2.0],
    [42.0, 40.0, 0.1, 0.2, 0.5],
    [100.0, 100.0, 0.0, 0.6, 5.0],
];

#[test]
fn primal_is_the_plain_code() {
    for x in [-40.0, -8.0, -7.0, -1.3, 0.0, 0.4, 2.5, 7.5, 39.0] {
        assert_same_bits(norm_cdf(x), plain::norm_cdf(x), "norm_cdf");
    }
    for [s, k, r, v, t] in CASES {
        assert_same_bits(
            call_price(s, k, r, v, t),
            plain::call_price(s, k, r, v, t),
            "price",
        );
        let c = plain::call_price(s, k, r, v, t);
        assert_same_bits(
            implied_vol(c, s, k, r, t),
            plain::implied_vol(c, s, k, r, t),
            "implied",
        );
    }
    // The textbook value C(42, 40, 0.1, 0.2, 0.5) = 4.76.
    assert!((call_price(42.0, 40.0, 0.1, 0.2, 0.5) - 4.7594).abs() < 1e-4);
}

#[test]
fn cdf_derivative_is_the_density() {
    for x in [-8.0, -3.0, -1.3, -0.2, 0.4, 2.5, 6.0, 7.5] {
        let (p, [d]) = norm_cdf_grad(x);
        assert_close(p, plain::norm_cdf(x), 1e-15, "value");
        assert!(
            (d - phi(x)).abs() <= 1e-12 * phi(x).max(1e-300) + 1e-15,
            "N'({x}) = {d:e}, phi = {:e}",
            phi(x)
        );
    }
}

#[test]
fn greeks_match_closed_forms() {
    for [s, k, r, v, t] in CASES {
        let (c, [delta, d_strike, rho, vega, d_expiry]) = call_price_grad(s, k, r, v, t);
        assert_close(c, plain::call_price(s, k, r, v, t), 1e-14, "price");
        let d1 = ((s / k).ln() + (r + 0.5 * v * v) * t) / (v * t.sqrt());
        let d2 = d1 - v * t.sqrt();
        let disc = (-r * t).exp();
        let n2 = plain::norm_cdf(d2);
        assert_close(delta, plain::norm_cdf(d1), 1e-10, "delta");
        assert_close(d_strike, -disc * n2, 1e-10, "dC/dK");
        assert_close(rho, k * t * disc * n2, 1e-10, "rho");
        assert_close(vega, s * phi(d1) * t.sqrt(), 1e-10, "vega");
        assert_close(
            d_expiry,
            s * phi(d1) * v / (2.0 * t.sqrt()) + r * k * disc * n2,
            1e-10,
            "dC/dT",
        );
        let fd = fd_gradient(
            |x| plain::call_price(x[0], x[1], x[2], x[3], x[4]),
            &[s, k, r, v, t],
        );
        assert_all_close(
            &[delta, d_strike, rho, vega, d_expiry],
            &fd,
            1e-6,
            "finite differences",
        );
    }
}

#[test]
fn implied_vol_derivative_is_inverse_vega() {
    for [s, k, r, v, t] in CASES {
        let c = plain::call_price(s, k, r, v, t);
        let (vol, [d_price]) = implied_vol_grad(c, s, k, r, t);
        assert_close(vol, v, 1e-10, "recovers the volatility");
        let d1 = ((s / k).ln() + (r + 0.5 * v * v) * t) / (v * t.sqrt());
        assert_close(d_price, 1.0 / (s * phi(d1) * t.sqrt()), 1e-6, "1 / vega");
        let fd = fd_gradient_step(|p| plain::implied_vol(p[0], s, k, r, t), &[c], 1e-6);
        assert_close(d_price, fd[0], 1e-6, "finite differences");
    }
}
