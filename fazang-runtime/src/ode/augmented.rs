//! The forward-sensitivity system as an ODE of its own: state `z = [y, S]` with
//! `y' = f(t, y, θ)` and `S' = ∂f/∂y S + [0 | ∂f/∂θ]`, written generically over the
//! scalar like any [`OdeSystem`].
//!
//! Solving it with first-order sensitivities gives the derivatives of `S` itself, that is
//! the second derivatives of `y` (the sensitivity equations differentiated again): what
//! the solvers need when a second-order scalar (a Hessian, a nested derivative) asks for
//! a solution (see `super::nested`). The Jacobians of `f` inside are taken by forward mode
//! on the scalar the system is evaluated on, so they carry that scalar's derivatives.

use super::system::OdeSystem;
use crate::forward::Dual;
use crate::support::{IntoScalar, RefOps, RefScalarOps, ScalarOps};
use crate::Real;

/// Tangents per forward pass of the Jacobian of `f` inside the augmented right-hand side.
const LANES: usize = 4;

/// The state and its sensitivities `[y, S]` (`S` row-major `n × k`, columns: `ny`
/// initial states, then `np` parameters) as the state of one ODE. Its parameters are
/// those of `f`.
pub(crate) struct Augmented<'a, F: ?Sized> {
    f: &'a F,
    /// The states of `f`.
    n: usize,
    /// Sensitivity columns for the initial state (0 or `n`).
    ny: usize,
    /// Sensitivity columns for the parameters (0 or their number).
    np: usize,
}

impl<'a, F: OdeSystem + ?Sized> Augmented<'a, F> {
    pub fn new(f: &'a F, n: usize, ny: usize, np: usize) -> Self {
        Augmented { f, n, ny, np }
    }

    /// The number of sensitivity columns.
    pub fn k(&self) -> usize {
        self.ny + self.np
    }

    /// The length of the augmented state, `n (1 + k)`.
    pub fn len(&self) -> usize {
        self.n * (1 + self.k())
    }
}

impl<F: OdeSystem + ?Sized> OdeSystem for Augmented<'_, F> {
    fn rhs<S>(&self, t: f64, z: &[S], theta: &[S]) -> Vec<S>
    where
        S: Real + num_traits::Float,
        f64: ScalarOps<S>,
        S: IntoScalar<S>,
        for<'b> &'b S: RefOps<S> + RefScalarOps<S>,
        for<'b> &'b f64: RefOps<S>,
    {
        let (n, k, ny, np) = (self.n, self.k(), self.ny, self.np);
        if z.len() != self.len() {
            // A solver bug, never a user's: the solvers build the state from `len`.
            panic!("fazang: augmented ODE state of length {}", z.len());
        }
        let (y, s) = z.split_at(n);
        let (f, jy, jp) = jacobians(self.f, t, y, theta, np);
        let mut out = f;
        out.reserve(n * k);
        for i in 0..n {
            for c in 0..k {
                let mut acc = if c >= ny {
                    jp[i * np + c - ny]
                } else {
                    <S as From<f64>>::from(0.0)
                };
                for j in 0..n {
                    acc += jy[i * n + j] * s[j * k + c];
                }
                out.push(acc);
            }
        }
        out
    }
}

/// `f(t, y, θ)`, `∂f/∂y` (`n × n`) and `∂f/∂θ` over the first `np` parameters (`n × np`,
/// empty when `np` is 0), row-major, on the scalar `S`: `f` runs on dual numbers over `S`
/// with [`LANES`] tangents, one pass per `LANES` columns of `[y, θ]`.
#[allow(clippy::type_complexity)]
fn jacobians<F, S>(f: &F, t: f64, y: &[S], theta: &[S], np: usize) -> (Vec<S>, Vec<S>, Vec<S>)
where
    F: OdeSystem + ?Sized,
    S: Real + num_traits::Float,
    f64: ScalarOps<S>,
    S: IntoScalar<S>,
    for<'b> &'b S: RefOps<S> + RefScalarOps<S>,
    for<'b> &'b f64: RefOps<S>,
{
    let n = y.len();
    let cols = n + np;
    let zero = <S as From<f64>>::from(0.0);
    let (mut value, mut jy, mut jp) = (vec![zero; n], vec![zero; n * n], vec![zero; n * np]);
    let seed = |x: S, c: usize, start: usize| {
        let mut e = [zero; LANES];
        if let Some(l) = c.checked_sub(start).filter(|&l| l < LANES) {
            e[l] = <S as From<f64>>::from(1.0);
        }
        Dual::new(x, e)
    };
    let mut start = 0;
    loop {
        let yd: Vec<_> = y
            .iter()
            .enumerate()
            .map(|(i, &v)| seed(v, i, start))
            .collect();
        let td: Vec<_> = theta
            .iter()
            .enumerate()
            .map(|(j, &v)| match j < np {
                true => seed(v, n + j, start),
                false => Dual::constant(v),
            })
            .collect();
        let out = f.rhs::<Dual<S, [S; LANES]>>(t, &yd, &td);
        // A wrong length is reported by the solver's own evaluation of `f` on `f64`,
        // which always comes first; here it only must not index out of bounds.
        for (i, fi) in out.iter().enumerate().take(n) {
            value[i] = fi.re;
            for (l, &d) in fi.eps.iter().enumerate() {
                match start + l {
                    c if c < n => jy[i * n + c] = d,
                    c if c < cols => jp[i * np + c - n] = d,
                    _ => {}
                }
            }
        }
        start += LANES;
        if start >= cols {
            return (value, jy, jp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // y' = -θ0 y0 y1, y1' = θ1 y0: f and its Jacobians in closed form.
    fn pair<S: Real>(_t: S, y: &[S], th: &[S]) -> [S; 2] {
        [-th[0] * y[0] * y[1], th[1] * y[0]]
    }
    crate::ode_system!(Pair = pair);

    #[test]
    fn augmented_rhs_is_the_sensitivity_system() {
        let aug = Augmented::new(&Pair, 2, 2, 2);
        assert_eq!((aug.k(), aug.len()), (4, 10));
        let (y, th) = ([1.5, -0.5], [0.7, 2.0]);
        // S: rows y0, y1; columns y0(0), y0(1), θ0, θ1.
        let s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
        let z: Vec<f64> = y.iter().chain(&s).copied().collect();
        let out = aug.rhs(0.0, &z, &th);
        let jy = [[-th[0] * y[1], -th[0] * y[0]], [th[1], 0.0]];
        let jp = [[-y[0] * y[1], 0.0], [0.0, y[0]]];
        assert_eq!(&out[..2], &[-th[0] * y[0] * y[1], th[1] * y[0]]);
        for i in 0..2 {
            for c in 0..4 {
                let mut want = jy[i][0] * s[c] + jy[i][1] * s[4 + c];
                if c >= 2 {
                    want += jp[i][c - 2];
                }
                let got = out[2 + i * 4 + c];
                assert!((got - want).abs() < 1e-15, "S'[{i}][{c}]: {got} vs {want}");
            }
        }
    }
}
