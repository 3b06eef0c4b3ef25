//! The Wishart and inverse Wishart distributions of symmetric positive definite matrices.

use super::args::{Flat, MultiArg};
use super::check::{check_size_match, check_square, check_symmetric};
use super::dense::{
    cholesky, inverse_from_cholesky, log_det_from_cholesky, product, symmetric, trace_of_product,
};
use super::normal::not_pd;
use super::record::Operands;
use crate::dist::args::{Arg, Args, Ret};
use crate::dist::check::check_greater;
use crate::dist::DomainError;
use crate::Real;

/// Log of the Wishart density of the K × K matrix `w` with `nu` degrees of freedom and
/// scale matrix `sigma`:
///
/// ln W(W | ν, S) = −νK/2 ln 2 − ln Γ_K(ν/2) − ν/2 ln det S + (ν−K−1)/2 ln det W
///                  − ½ tr(S⁻¹W)
///
/// with ln Γ_K the multivariate log gamma function. One node, with partials
/// ∂/∂W = (ν−K−1)/2 W⁻¹ − ½ S⁻¹, ∂/∂S = −ν/2 S⁻¹ + ½ S⁻¹WS⁻¹ (symmetric gradients) and
/// ∂/∂ν = −K/2 ln 2 − ½ Σⱼ ψ((ν+1−j)/2) − ½ ln det S + ½ ln det W.
///
/// # Errors
///
/// A [`DomainError`] if the sizes differ, ν ≤ K − 1, or either matrix is not square,
/// symmetric and positive definite.
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let s = vec![vec![1.0, 0.2], vec![0.2, 0.5]];
/// let w = vec![vec![2.0, 0.1], vec![0.1, 1.0]];
/// let lp = wishart_lpdf(&w, 4.0, &s)?;
/// assert!(lp.is_finite());
/// assert!(wishart_lpdf(&w, 0.5, &s).is_err());
/// # Ok::<(), DomainError>(())
/// ```
pub fn wishart_lpdf<W: MultiArg, Nu: Arg, Sg: MultiArg>(
    w: W,
    nu: Nu,
    sigma: Sg,
) -> Result<Ret<(Flat<W>, Nu, Flat<Sg>)>, DomainError>
where
    (Flat<W>, Nu, Flat<Sg>): Args,
{
    wishart_family("wishart_lpdf", w, nu, sigma, false)
}

/// Log of the inverse Wishart density of the K × K matrix `w` with `nu` degrees of
/// freedom and scale matrix `sigma`:
///
/// ln IW(W | ν, S) = ν/2 ln det S − νK/2 ln 2 − ln Γ_K(ν/2) − (ν+K+1)/2 ln det W
///                   − ½ tr(SW⁻¹)
///
/// One node, with partials ∂/∂W = −(ν+K+1)/2 W⁻¹ + ½ W⁻¹SW⁻¹, ∂/∂S = ν/2 S⁻¹ − ½ W⁻¹
/// and ∂/∂ν = ½ ln det S − K/2 ln 2 − ½ Σⱼ ψ((ν+1−j)/2) − ½ ln det W.
///
/// # Errors
///
/// As [`wishart_lpdf`].
///
/// # Example
///
/// ```
/// use fazang::prelude::*;
/// let s = vec![vec![1.0, 0.2], vec![0.2, 0.5]];
/// let (v, g) = gradient(|nu| inv_wishart_lpdf(&s, nu[0], &s).unwrap(), &[5.0]);
/// assert!(v.is_finite() && g[0].is_finite());
/// ```
pub fn inv_wishart_lpdf<W: MultiArg, Nu: Arg, Sg: MultiArg>(
    w: W,
    nu: Nu,
    sigma: Sg,
) -> Result<Ret<(Flat<W>, Nu, Flat<Sg>)>, DomainError>
where
    (Flat<W>, Nu, Flat<Sg>): Args,
{
    wishart_family("inv_wishart_lpdf", w, nu, sigma, true)
}

/// Both densities: checks, factorisations, and the recorded result.
fn wishart_family<W: MultiArg, Nu: Arg, Sg: MultiArg>(
    f: &'static str,
    w: W,
    nu: Nu,
    sigma: Sg,
    inverse: bool,
) -> Result<Ret<(Flat<W>, Nu, Flat<Sg>)>, DomainError>
where
    (Flat<W>, Nu, Flat<Sg>): Args,
{
    let (kw, ks) = (w.rows(), sigma.rows());
    check_size_match(
        f,
        "Rows of random variable",
        kw,
        "columns of scale parameter",
        ks,
    )?;
    check_greater(f, "Degrees of freedom parameter", nu, kw as f64 - 1.0)?;
    let k = check_square(f, "random variable", w)?;
    check_square(f, "scale parameter", sigma)?;
    check_symmetric(f, "random variable", w)?;
    check_symmetric(f, "scale parameter", sigma)?;
    let x = Operands::new((Flat::new(w), nu, Flat::new(sigma)));
    let wm = symmetric(k, |i, j| x.read_at(0, i * k + j));
    let sm = symmetric(k, |i, j| x.read_at(2, i * k + j));
    let lw = cholesky(&wm, k).ok_or_else(not_pd(f, "random variable"))?;
    let ls = cholesky(&sm, k).ok_or_else(not_pd(f, "scale parameter"))?;
    let nu = x.read_at(1, 0);
    let parts = Parts {
        k,
        nu,
        log_det_w: log_det_from_cholesky(&lw, k),
        log_det_s: log_det_from_cholesky(&ls, k),
        w_inv: inverse_from_cholesky(&lw, k),
        s_inv: inverse_from_cholesky(&ls, k),
    };
    Ok(if inverse {
        parts.inverse(&x, &sm)
    } else {
        parts.direct(&x, &wm)
    })
}

/// What both densities are made of.
struct Parts<T> {
    k: usize,
    nu: T,
    log_det_w: T,
    log_det_s: T,
    w_inv: Vec<T>,
    s_inv: Vec<T>,
}

impl<T: Real> Parts<T> {
    /// −νK/2 ln 2 − ln Γ_K(ν/2), and its derivative in ν.
    fn normaliser(&self) -> (T, T) {
        let kf = self.k as f64;
        let half = self.nu * 0.5;
        let mut c = -(self.nu * (kf * 0.5 * std::f64::consts::LN_2))
            - kf * (kf - 1.0) * 0.25 * std::f64::consts::PI.ln();
        let mut dc = T::from(-kf * 0.5 * std::f64::consts::LN_2);
        for j in 0..self.k {
            let a = half - j as f64 * 0.5;
            c -= a.log_gamma();
            dc -= a.digamma() * 0.5;
        }
        (c, dc)
    }

    /// The Wishart density of W (argument 0) with scale S (argument 2).
    fn direct<O: Args<Ret = R>, R: Real<Inner = T>>(&self, x: &Operands<O>, w: &[T]) -> R {
        let (k, nu) = (self.k, self.nu);
        let kf = k as f64;
        let (c, dc) = self.normaliser();
        let tr = trace_of_product(&self.s_inv, w, k);
        let value =
            c - nu * 0.5 * self.log_det_s + (nu - kf - 1.0) * 0.5 * self.log_det_w - tr * 0.5;
        let dw = x.needs(0).then(|| {
            let half_nu = (nu - kf - 1.0) * 0.5;
            let it = self.w_inv.iter().zip(&self.s_inv);
            it.map(|(wi, si)| half_nu * *wi - *si * 0.5)
                .collect::<Vec<T>>()
        });
        let ds = x.needs(2).then(|| {
            let sws = product(&product(&self.s_inv, w, k), &self.s_inv, k);
            let it = self.s_inv.iter().zip(&sws);
            it.map(|(si, q)| *q * 0.5 - nu * 0.5 * *si)
                .collect::<Vec<T>>()
        });
        let dnu = dc - self.log_det_s * 0.5 + self.log_det_w * 0.5;
        self.record(x, value, dw, dnu, ds)
    }

    /// The inverse Wishart density of W (argument 0) with scale S (argument 2).
    fn inverse<O: Args<Ret = R>, R: Real<Inner = T>>(&self, x: &Operands<O>, s: &[T]) -> R {
        let (k, nu) = (self.k, self.nu);
        let kf = k as f64;
        let (c, dc) = self.normaliser();
        let tr = trace_of_product(s, &self.w_inv, k);
        let value =
            c + nu * 0.5 * self.log_det_s - (nu + kf + 1.0) * 0.5 * self.log_det_w - tr * 0.5;
        let dw = x.needs(0).then(|| {
            let wsw = product(&product(&self.w_inv, s, k), &self.w_inv, k);
            let half_nu = (nu + kf + 1.0) * 0.5;
            let it = self.w_inv.iter().zip(&wsw);
            it.map(|(wi, q)| *q * 0.5 - half_nu * *wi)
                .collect::<Vec<T>>()
        });
        let ds = x.needs(2).then(|| {
            let it = self.s_inv.iter().zip(&self.w_inv);
            it.map(|(si, wi)| nu * 0.5 * *si - *wi * 0.5)
                .collect::<Vec<T>>()
        });
        let dnu = dc + self.log_det_s * 0.5 - self.log_det_w * 0.5;
        self.record(x, value, dw, dnu, ds)
    }

    fn record<O: Args<Ret = R>, R: Real<Inner = T>>(
        &self,
        x: &Operands<O>,
        value: T,
        dw: Option<Vec<T>>,
        dnu: T,
        ds: Option<Vec<T>>,
    ) -> R {
        let need_nu = x.needs(1);
        x.record(value, |p| {
            p.all(0, dw);
            if need_nu {
                p.one(1, 0, dnu);
            }
            p.all(2, ds);
        })
    }
}
