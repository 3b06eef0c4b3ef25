//! The multivariate Student's t.

use super::args::{Flat, MultiArg};
use super::check::check_symmetric;
use super::dense::{
    cholesky, dot, inverse_from_cholesky, log_det_from_cholesky, solve_lower,
    solve_lower_transposed, symmetric,
};
use super::normal::not_pd;
use super::obs::Obs;
use super::record::{zeros_if, Operands};
use crate::dist::args::{Arg, Args, Inner, Ret};
use crate::dist::check::{check_not_nan, check_positive};
use crate::dist::special::HALF_LN_TWO_PI;
use crate::dist::DomainError;
use crate::Real;

/// Log of the multivariate Student's t density of `y` with `nu` degrees of freedom,
/// location `mu` and scale matrix `sigma`, summed over the observations:
///
/// ln t(y | ν, μ, Σ) = Σᵢ [ ln Γ((ν+K)/2) − ln Γ(ν/2) − K/2 ln(νπ) − ½ ln det Σ
///                          − (ν+K)/2 ln(1 + qᵢ/ν) ],  qᵢ = (yᵢ − μᵢ)ᵀ Σ⁻¹ (yᵢ − μᵢ)
///
/// `y`, `mu` as for [`multi_normal_lpdf`](super::multi_normal_lpdf); `nu` > 0 a scalar
/// (ν = ∞ gives the multivariate normal); `sigma` K × K symmetric positive definite. One
/// node, with partials (aᵢ = Σ⁻¹rᵢ, wᵢ = (ν+K)/(ν+qᵢ)) ∂/∂yᵢ = −wᵢaᵢ, ∂/∂μᵢ = wᵢaᵢ,
/// ∂/∂Σ = ½ Σᵢ wᵢaᵢaᵢᵀ − n/2 Σ⁻¹ and
/// ∂/∂ν = Σᵢ [ ½ψ((ν+K)/2) − ½ψ(ν/2) − K/(2ν) − ½ ln(1 + qᵢ/ν) + (ν+K)qᵢ/(2ν(ν+qᵢ)) ].
///
/// # Errors
///
/// A [`DomainError`] if `nu` is not positive (or NaN), for inconsistent sizes, a NaN in
/// `y`, `mu` not finite, `sigma` not symmetric or not positive definite.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let sigma = vec![vec![1.0, 0.2], vec![0.2, 2.0]];
/// let y = vec![vec![0.1, 1.5], vec![-0.7, 0.2], vec![2.5, -3.0]];
/// let (v, g) = gradient(|p| multi_student_t_lpdf(&y, p[0], &p[1..], &sigma).unwrap(), &[4.0, 0.0, 0.0]);
/// assert!(v.is_finite() && g.len() == 3);
/// // Heavier tails than the normal.
/// let t = multi_student_t_lpdf(&[8.0, 8.0], 3.0, &[0.0, 0.0], &sigma)?;
/// let n = multi_normal_lpdf(&[8.0, 8.0], &[0.0, 0.0], &sigma)?;
/// assert!(t > n);
/// # Ok::<(), DomainError>(())
/// ```
pub fn multi_student_t_lpdf<Y: MultiArg, Nu: Arg, M: MultiArg, Sg: MultiArg>(
    y: Y,
    nu: Nu,
    mu: M,
    sigma: Sg,
) -> Result<Ret<(Flat<Y>, Nu, Flat<M>, Flat<Sg>)>, DomainError>
where
    (Flat<Y>, Nu, Flat<M>, Flat<Sg>): Args,
{
    const F: &str = "multi_student_t_lpdf";
    check_not_nan(F, "Degrees of freedom parameter", nu)?;
    check_positive(F, "Degrees of freedom parameter", nu)?;
    let names = (
        sigma,
        "rows of scale parameter",
        "columns of scale parameter",
    );
    let obs = Obs::check(F, y, mu, names)?;
    if obs.n == 0 || obs.k == 0 {
        return Ok(0.0.into());
    }
    check_symmetric(F, "Scale parameter", sigma)?;
    let x = Operands::new((Flat::new(y), nu, Flat::new(mu), Flat::new(sigma)));
    let k = obs.k;
    let s = symmetric(k, |i, j| x.read_at(3, i * k + j));
    let l = cholesky(&s, k).ok_or_else(not_pd(F, "Scale parameter"))?;
    Ok(student(&x, &obs, &l))
}

/// The density, recorded (arguments: 0 `y`, 1 `nu`, 2 `mu`, 3 `sigma`, factor `l`).
fn student<O: Args>(x: &Operands<O>, obs: &Obs, l: &[Inner<O>]) -> O::Ret {
    let (n, k) = (obs.n, obs.k);
    let (nf, kf) = (n as f64, k as f64);
    let nu = x.read_at(1, 0);
    let normal = nu.val() == f64::INFINITY;
    let (ylen, mulen) = obs.lens();
    let (y, mu) = (x.read(0, ylen), x.read(2, mulen));
    let mut dy = zeros_if(x.needs(0), ylen);
    let mut dmu = zeros_if(x.needs(2), mulen);
    let mut ds = zeros_if(x.needs(3), k * k);
    let need_nu = x.needs(1) && !normal;
    let zero = Inner::<O>::from(0.0);
    let (mut z, mut a) = (vec![zero; k], vec![zero; k]);
    let (mut log_terms, mut dnu) = (zero, zero);
    let nu_k = nu + kf;
    for i in 0..n {
        obs.residual(i, &y, &mu, &mut z);
        solve_lower(l, k, &mut z);
        let q = dot(&z, &z);
        let w = if normal {
            log_terms += q * 0.5;
            Inner::<O>::from(1.0)
        } else {
            let log1p = (q / nu).ln_1p();
            log_terms += log1p * nu_k * 0.5;
            if need_nu {
                dnu += nu_k * q / (nu * (nu + q) * 2.0) - log1p * 0.5;
            }
            nu_k / (nu + q)
        };
        if dy.is_none() && dmu.is_none() && ds.is_none() {
            continue;
        }
        a.copy_from_slice(&z);
        solve_lower_transposed(l, k, &mut a);
        obs.scatter(i, &a, -w, &mut dy, &mut dmu);
        if let Some(ds) = &mut ds {
            for r in 0..k {
                let ar = a[r] * w * 0.5;
                for c in 0..=r {
                    ds[r * k + c] += ar * a[c];
                }
            }
        }
    }
    let log_det = log_det_from_cholesky(l, k);
    let norm = if normal {
        Inner::<O>::from(-(HALF_LN_TWO_PI * kf))
    } else {
        (nu_k * 0.5).log_gamma()
            - (nu * 0.5).log_gamma()
            - (nu * std::f64::consts::PI).ln() * (kf * 0.5)
    };
    let value = (norm - log_det * 0.5) * nf - log_terms;
    if let Some(ds) = &mut ds {
        let inv = inverse_from_cholesky(l, k);
        for r in 0..k {
            for c in 0..=r {
                let v = ds[r * k + c] - inv[r * k + c] * (0.5 * nf);
                ds[r * k + c] = v;
                ds[c * k + r] = v;
            }
        }
    }
    if need_nu {
        let per_obs =
            ((nu_k * 0.5).digamma() - (nu * 0.5).digamma()) * 0.5 - nu.recip() * (kf * 0.5);
        dnu += per_obs * nf;
    }
    x.record(value, |p| {
        p.all(0, dy);
        if need_nu {
            p.one(1, 0, dnu);
        }
        p.all(2, dmu);
        p.all(3, ds);
    })
}
