//! [`OdeSystem`]: a right-hand side written once, evaluated on `f64` and on active scalars,
//! and [`ode_system!`](crate::ode_system), which makes one from a `#[differentiate]`
//! function.

use crate::support::{BodyScalar, IntoScalar, RefOps, RefScalarOps, ScalarOps};
use crate::Real;

/// The right-hand side `dy/dt = f(t, y, θ)` of an ODE, generic over the scalar.
///
/// The solvers call [`rhs`](Self::rhs) with `f64` for values and with active scalars to
/// get the Jacobians `∂f/∂y` and `∂f/∂θ` they need for stiff steps and sensitivities, so
/// the right-hand side is written once and no Jacobian by hand. The bounds of `rhs` are
/// exactly those `#[differentiate]` puts on the functions it makes generic, so a
/// `#[differentiate]` function can be called from it; the
/// [`ode_system!`](crate::ode_system) macro writes the impl for you:
///
/// ```
/// use fazang::prelude::*;
///
/// // Fazang's first example: y1' = y2, y2' = t y1 (θ1 + θ2).
/// #[differentiate]
/// fn rhs(t: f64, y: &[f64], theta: &[f64]) -> Vec<f64> {
///     vec![y[1], t * y[0] * (theta[0] + theta[1])]
/// }
/// ode_system!(Fazang1 = rhs);
///
/// let ys = ode_rk45(&Fazang1, &[1.2, 1.8], 0.0, &[1.0], &[0.2, 0.1], OdeTol::default())?;
/// assert_eq!(ys[0].len(), 2);
/// # Ok::<(), DomainError>(())
/// ```
///
/// `t` is passed as data (`f64`); sensitivities are with respect to the initial state,
/// `θ` and the output times. A system that carries data of its own is a type with a
/// `#[differentiate]` method, named with the second form of
/// [`ode_system!`](crate::ode_system).
pub trait OdeSystem {
    /// `dy/dt` at time `t`, state `y` and parameters `theta`; as long as `y`.
    ///
    /// ```
    /// use fazang::prelude::*;
    /// #[differentiate]
    /// fn decay(t: f64, y: &[f64], k: &[f64]) -> Vec<f64> {
    ///     vec![-k[0] * y[0] * t]
    /// }
    /// ode_system!(Decay = decay);
    /// assert_eq!(Decay.rhs(2.0, &[3.0], &[0.5]), vec![-3.0]);
    /// ```
    fn rhs<S>(&self, t: f64, y: &[S], theta: &[S]) -> Vec<S>
    where
        S: Real + BodyScalar,
        f64: ScalarOps<S>,
        S: IntoScalar<S>,
        for<'a> &'a S: RefOps<S> + RefScalarOps<S>,
        for<'a> &'a f64: RefOps<S>;
}

impl<T: OdeSystem + ?Sized> OdeSystem for &T {
    fn rhs<S>(&self, t: f64, y: &[S], theta: &[S]) -> Vec<S>
    where
        S: Real + BodyScalar,
        f64: ScalarOps<S>,
        S: IntoScalar<S>,
        for<'a> &'a S: RefOps<S> + RefScalarOps<S>,
        for<'a> &'a f64: RefOps<S>,
    {
        (**self).rhs(t, y, theta)
    }
}

/// Make an [`OdeSystem`] from a right-hand side written once, as an ordinary `f64`
/// function under `#[differentiate]`.
///
/// **A function** `f(t, y, theta)` returning `Vec<f64>` or `[f64; N]` (`t` active or,
/// with `#[differentiate(wrt(y, theta))]`, data): `ode_system!(pub Name = f);` defines the
/// unit struct `Name` whose `rhs` calls `f`.
///
/// ```
/// use fazang::prelude::*;
///
/// /// Lotka-Volterra: prey y1, predators y2, θ = (α, β, γ, δ).
/// #[differentiate]
/// fn lotka_volterra(_t: f64, y: &[f64], theta: &[f64]) -> [f64; 2] {
///     let (u, v) = (y[0], y[1]);
///     [(theta[0] - theta[1] * v) * u, (-theta[2] + theta[3] * u) * v]
/// }
/// ode_system!(pub LotkaVolterra = lotka_volterra);
///
/// let ys = ode_rk45(&LotkaVolterra, &[10.0, 5.0], 0.0, &[1.0, 2.0], &[1.0, 0.1, 1.5, 0.075],
///     OdeTol::default())?;
/// assert_eq!(ys.len(), 2);
/// # Ok::<(), DomainError>(())
/// ```
///
/// **A type with data of its own** (doses, known rates, forcing): write the right-hand
/// side as a method under `#[differentiate]` and name it, `ode_system!(impl Type =
/// Type::method);`, which implements [`OdeSystem`] for `Type` by calling
/// `Type::method(self, t, y, theta)`:
///
/// ```
/// use fazang::prelude::*;
///
/// /// One-compartment elimination at rate θ with an infusion `dose` until `t_off`.
/// struct Infusion {
///     dose: f64,
///     t_off: f64,
/// }
///
/// #[differentiate]
/// impl Infusion {
///     #[differentiate(wrt(y, theta))]
///     fn derivative(&self, t: f64, y: &[f64], theta: &[f64]) -> Vec<f64> {
///         let input = if t < self.t_off { self.dose } else { 0.0 };
///         vec![input - theta[0] * y[0]]
///     }
/// }
/// ode_system!(impl Infusion = Infusion::derivative);
///
/// let sys = Infusion { dose: 2.0, t_off: 10.0 };
/// let ys = ode_bdf(&sys, &[0.0], 0.0, &[5.0], &[0.5], OdeTol::new(1e-8, 1e-8, 10_000))?;
/// let exact = 2.0 / 0.5 * (1.0 - (-0.5 * 5.0_f64).exp());
/// assert!((ys[0][0] - exact).abs() < 1e-6);
/// # Ok::<(), DomainError>(())
/// ```
#[macro_export]
macro_rules! ode_system {
    ($(#[$m:meta])* $vis:vis $name:ident = $f:path) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default)]
        $vis struct $name;

        $crate::ode_system!(@impl $name, |_: &$name, t, y, theta| $f(t, y, theta));
    };
    (impl $ty:ty = $method:path) => {
        $crate::ode_system!(@impl $ty, $method);
    };
    // `call(self, t, y, theta)`, with the bounds `#[differentiate]` gives its functions.
    (@impl $ty:ty, $call:expr) => {
        impl $crate::ode::OdeSystem for $ty {
            fn rhs<S>(&self, t: f64, y: &[S], theta: &[S]) -> ::std::vec::Vec<S>
            where
                S: $crate::Real + $crate::support::BodyScalar,
                f64: $crate::support::ScalarOps<S>,
                S: $crate::support::IntoScalar<S>,
                for<'a> &'a S: $crate::support::RefOps<S> + $crate::support::RefScalarOps<S>,
                for<'a> &'a f64: $crate::support::RefOps<S>,
            {
                let call = $call;
                let dydt = call(self, ::std::convert::Into::into(t), y, theta);
                ::std::iter::IntoIterator::into_iter(dydt).collect()
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Var;

    // A hand-written generic body, as #[differentiate] makes one.
    fn decay<S: Real>(t: S, y: &[S], theta: &[S]) -> [S; 1] {
        [-theta[0] * y[0] + t * 0.0]
    }
    crate::ode_system!(Decay = decay);

    #[test]
    fn one_body_runs_on_f64_and_var() {
        let v: Vec<f64> = Decay.rhs(1.0, &[2.0], &[0.5]);
        assert_eq!(v, vec![-1.0]);
        let _scope = crate::NestedScope::begin();
        let (y, k) = (Var::new(2.0), Var::new(0.5));
        let out = OdeSystem::rhs(&&Decay, 1.0, &[y], &[k]);
        out[0].grad();
        assert_eq!((out[0].val(), y.adj(), k.adj()), (-1.0, -0.5, -2.0));
    }
}
