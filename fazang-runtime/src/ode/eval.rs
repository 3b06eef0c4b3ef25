//! The right-hand side as the integrators see it: values on `f64`, Jacobians by forward
//! mode (dual numbers with several tangents), and the sensitivity right-hand side built
//! from them.

use super::system::OdeSystem;
use crate::dist::{Constraint, DomainError};
use crate::forward::Dual;

/// A failed evaluation: `Fatal` ends the solve (a right-hand side of the wrong length),
/// `NonFinite` may be retried with a smaller step (a trial step can leave the region
/// where the right-hand side is defined) and is reported if the step collapses.
pub(crate) enum EvalError {
    Fatal(DomainError),
    NonFinite(DomainError),
}

impl From<EvalError> for DomainError {
    fn from(e: EvalError) -> DomainError {
        match e {
            EvalError::Fatal(e) | EvalError::NonFinite(e) => e,
        }
    }
}

/// `f(t, y, θ)` with `θ` fixed, for `n` states, of which the last `np` parameters are
/// active (sensitivity columns: `ny` initial states, then `np` parameters).
pub(crate) struct Rhs<'a, F: ?Sized> {
    f: &'a F,
    function: &'static str,
    theta: Vec<f64>,
    /// The number of states.
    pub n: usize,
    /// Sensitivity columns for the initial state (0 or `n`).
    pub ny: usize,
    /// Sensitivity columns for the parameters (0 or `theta.len()`).
    pub np: usize,
    /// The seeded state and parameters of a Jacobian pass (reused between calls).
    yd: Vec<Lane>,
    td: Vec<Lane>,
}

/// Tangents per forward pass of a Jacobian.
const LANES: usize = 8;
/// The scalar of a Jacobian pass.
type Lane = Dual<f64, [f64; LANES]>;

/// The Jacobians of the right-hand side at a point, row-major.
pub(crate) struct Jac {
    /// `∂f/∂y`, `n × n`.
    pub jy: Vec<f64>,
    /// `∂f/∂θ` over the active parameters, `n × np`.
    pub jp: Vec<f64>,
}

impl Jac {
    pub fn new(n: usize, np: usize) -> Jac {
        Jac {
            jy: vec![0.0; n * n],
            jp: vec![0.0; n * np],
        }
    }
}

impl<'a, F: OdeSystem + ?Sized> Rhs<'a, F> {
    pub fn new(f: &'a F, function: &'static str, theta: Vec<f64>, n: usize, ny: usize) -> Self {
        Rhs {
            f,
            function,
            n,
            ny,
            np: 0,
            yd: Vec::new(),
            td: Vec::new(),
            theta,
        }
    }

    /// Make the parameters active: sensitivities and `∂f/∂θ` are computed for them.
    pub fn with_active_theta(mut self) -> Self {
        self.np = self.theta.len();
        self
    }

    /// The number of sensitivity columns.
    pub fn k(&self) -> usize {
        self.ny + self.np
    }

    /// `out = f(t, y)`.
    pub fn value(&mut self, t: f64, y: &[f64], out: &mut [f64]) -> Result<(), EvalError> {
        let v = self.f.rhs::<f64>(t, y, &self.theta);
        self.check(t, v.len(), |i| v[i])?;
        out.copy_from_slice(&v);
        Ok(())
    }

    /// `out = f(t, y)` and the Jacobians at `(t, y)`, by forward mode: the right-hand
    /// side runs on dual numbers with [`LANES`] tangents, one pass per `LANES` columns of
    /// `[y, θ]` (measured 2-4× faster than one recording on the tape and its sweeps, see
    /// `docs/performance.md`, section ODEs).
    pub fn jacobian(
        &mut self,
        t: f64,
        y: &[f64],
        out: &mut [f64],
        jac: &mut Jac,
    ) -> Result<(), EvalError> {
        let (n, np) = (self.n, self.np);
        let cols = n + np;
        let unit = |c: usize, start: usize| {
            let mut e = [0.0; LANES];
            if let Some(x) = c.checked_sub(start).and_then(|l| e.get_mut(l)) {
                *x = 1.0;
            }
            e
        };
        let mut start = 0;
        loop {
            self.yd.clear();
            self.yd.extend(
                y.iter()
                    .enumerate()
                    .map(|(i, &v)| Dual::new(v, unit(i, start))),
            );
            self.td.clear();
            self.td.extend(self.theta.iter().enumerate().map(|(j, &v)| {
                if np > 0 {
                    Dual::new(v, unit(n + j, start))
                } else {
                    Dual::constant(v)
                }
            }));
            let ys = self.f.rhs::<Lane>(t, &self.yd, &self.td);
            self.check(t, ys.len(), |i| ys[i].re)?;
            for (i, yi) in ys.iter().enumerate() {
                out[i] = yi.re;
                for (l, &d) in yi.eps.iter().enumerate() {
                    let c = start + l;
                    if c < n {
                        jac.jy[i * n + c] = d;
                    } else if c < cols {
                        jac.jp[i * np + c - n] = d;
                    }
                }
            }
            start += LANES;
            if start >= cols {
                return Ok(());
            }
        }
    }

    /// The output has `n` entries, all finite.
    fn check(&self, t: f64, len: usize, v: impl Fn(usize) -> f64) -> Result<(), EvalError> {
        if len != self.n {
            let c = Constraint::ConsistentSize {
                other: "initial state",
                other_size: self.n,
            };
            let e = DomainError::new(self.function, "right-hand side", None, len as f64, c);
            return Err(EvalError::Fatal(e));
        }
        match (0..len).find(|&i| !v(i).is_finite()) {
            Some(i) => {
                let c = Constraint::FiniteAt { t };
                let e = DomainError::new(self.function, "right-hand side", Some(i), v(i), c);
                Err(EvalError::NonFinite(e))
            }
            None => Ok(()),
        }
    }

    /// The sensitivity right-hand side `out = ∂f/∂y · s + [0 | ∂f/∂θ]`, for the `n × k`
    /// row-major sensitivity matrix `s` (columns: `ny` initial states, then `np`
    /// parameters).
    pub fn sens(&self, jac: &Jac, s: &[f64], out: &mut [f64]) {
        let (n, k, ny, np) = (self.n, self.k(), self.ny, self.np);
        for i in 0..n {
            let o = &mut out[i * k..(i + 1) * k];
            o.fill(0.0);
            for j in 0..n {
                let a = jac.jy[i * n + j];
                if a != 0.0 {
                    for (oc, sc) in o.iter_mut().zip(&s[j * k..(j + 1) * k]) {
                        *oc += a * sc;
                    }
                }
            }
            for (oc, jc) in o[ny..].iter_mut().zip(&jac.jp[i * np..(i + 1) * np]) {
                *oc += jc;
            }
        }
    }
}
