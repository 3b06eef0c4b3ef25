//! Second derivatives through the solvers: the solution for a scalar that carries them
//! (a Hessian's dual numbers over `Var` or over dual numbers, nested
//! [`derivative`](crate::derivative) calls, a second-order series).
//!
//! Such a result is built from its value and partials computed one derivative order
//! below (`RealInternals::Inner`), and those must be exact to that order: the solution
//! `y(tᵢ)` and its sensitivities `S = ∂y/∂(y0, θ)` as first-order numbers, whose own
//! partials are the second derivatives of `y`. They come from solving the
//! [`Augmented`] system `[y, S]` with first-order sensitivities, with respect to the same
//! inputs: the sensitivity equations differentiated again. The partial with respect to
//! an output time, `f(tᵢ, y(tᵢ), θ)`, gets its inner derivatives from the same solve
//! (`S' = ∂f/∂y S + ∂f/∂θ`), except the one in `tᵢ` itself, which needs `∂f/∂t`: the
//! right-hand side takes `t` as data, so that one case (a second derivative in an output
//! time) is refused, as are third and higher derivatives.

use super::augmented::Augmented;
use super::control::{Outputs, Settings};
use super::eval::Rhs;
use super::system::OdeSystem;
use super::{integrate, Method, OdeResult, Solution};
use crate::dist::args::{Args, Inner};
use crate::math::internals::RealInternals;
use crate::Real;

/// Whether a solution for the arguments `(y0, θ, ts)` needs more than first-order
/// sensitivities: some operand, or the operands together, carry a derivative of a
/// derivative.
pub(super) fn needs_second_order<'a, Y, T, P>(y0: &'a [Y], ts: &'a [T], theta: &'a [P]) -> bool
where
    Y: Real,
    T: Real,
    P: Real,
    (&'a [Y], &'a [P], &'a [T]): Args,
{
    let first = y0.iter().all(Y::__f64_partials_suffice)
        && theta.iter().all(P::__f64_partials_suffice)
        && ts.iter().all(T::__f64_partials_suffice);
    let ctx = (y0, theta, ts).ctx();
    !(first && Solution::<Y, T, P>::__f64_partials_suffice_jointly(&ctx))
}

/// The solution at `ts` (values `tv`, checked) with its first and second derivatives:
/// the augmented system solved with first-order sensitivities, each output assembled one
/// order below and lifted to the result's scalar.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve<'a, F, Y, T, P>(
    method: Method,
    set: &Settings,
    f: &F,
    y0: &'a [Y],
    t0: f64,
    ts: &'a [T],
    tv: &[f64],
    theta: &'a [P],
) -> OdeResult<'a, Y, T, P>
where
    F: OdeSystem + ?Sized,
    Y: Real,
    T: Real,
    P: Real,
    (&'a [Y], &'a [P], &'a [T]): Args,
{
    type In<'b, Y, P, T> = Inner<(&'b [Y], &'b [P], &'b [T])>;
    let args = (y0, theta, ts);
    let active = <(&[Y], &[P], &[T]) as Args>::active();
    let ctx = args.ctx();
    let n = y0.len();
    let ny = if active[0] { n } else { 0 };
    let np = if active[1] { theta.len() } else { 0 };
    // The active inputs one order below: the initial state's, then the parameters'.
    let q: Vec<In<Y, P, T>> = (0..ny)
        .map(|c| args.inner(&ctx, 0, c))
        .chain((0..np).map(|j| args.inner(&ctx, 1, j)))
        .collect();
    let tq: Vec<In<Y, P, T>> = match active[2] {
        true => (0..ts.len()).map(|i| args.inner(&ctx, 2, i)).collect(),
        false => Vec::new(),
    };
    check_order(set.function, &q, &tq);
    for (i, t) in tq.iter().enumerate() {
        if perturbed(t) && outer_perturbed(&args, &ctx, i) {
            second_derivative_in_time(set.function, i);
        }
    }
    let aug = Augmented::new(f, n, ny, np);
    let (na, k) = (aug.len(), aug.k());
    let mut rhs = Rhs::new(
        &aug,
        set.function,
        theta.iter().map(Real::val).collect(),
        na,
        ny,
    );
    if active[1] {
        rhs = rhs.with_active_theta();
    }
    // z0 = [y0, S0 = [I | 0]] and its own sensitivities, [I | 0] on the rows of y0.
    let mut z0 = vec![0.0; na * (1 + k)];
    for (z, y) in z0.iter_mut().zip(y0) {
        *z = y.val();
    }
    for i in 0..ny {
        z0[n + i * k + i] = 1.0;
        z0[na + i * k + i] = 1.0;
    }
    let zs: Outputs = integrate(method, &mut rhs, set, t0, z0, tv)?;
    let mut dz = vec![0.0; if active[2] { na } else { 0 }];
    let mut out = Vec::with_capacity(zs.len());
    for (ti, z) in zs.iter().enumerate() {
        if active[2] {
            // ∂[y, S](tᵢ)/∂tᵢ = [f, S'] at (tᵢ, y(tᵢ)).
            rhs.value(tv[ti], &z[..na], &mut dz)?;
        }
        let at = Output {
            n,
            ny,
            z,
            dz: active[2].then_some(&dz[..]),
            q: &q,
            t: tq.get(ti).map(|t| (ti, *t)),
        };
        out.push(at.lift(&args, &ctx));
    }
    Ok(out)
}

/// The augmented solution at one output time, and what it is differentiated against one
/// order below the result.
struct Output<'b, I> {
    /// The states of `f`, and the sensitivity columns of the initial state.
    n: usize,
    ny: usize,
    /// `[y, S, ∂[y, S]/∂q]` at `tᵢ`.
    z: &'b [f64],
    /// `∂[y, S]/∂tᵢ`, when the output times are active.
    dz: Option<&'b [f64]>,
    /// The active initial states and parameters one order below.
    q: &'b [I],
    /// `i` and `tᵢ` one order below, when the output times are active.
    t: Option<(usize, I)>,
}

impl<I: Real> Output<'_, I> {
    /// Entry `r` of `[y, S]` one order below: its partials are row `r` of the augmented
    /// sensitivities, and its derivative in `tᵢ`.
    fn entry(&self, r: usize) -> I {
        let (k, na) = (self.q.len(), self.n * (1 + self.q.len()));
        I::from_partials(self.z[r], |p| {
            for (qc, &d) in self.q.iter().zip(&self.z[na + r * k..na + (r + 1) * k]) {
                p.push(*qc, d);
            }
            if let (Some((_, t)), Some(dz)) = (self.t, self.dz) {
                p.push(t, dz[r]);
            }
        })
    }

    /// The row of results `y_j(tᵢ)`, lifted to the result's scalar from their values and
    /// partials one order below.
    fn lift<'a, Y, T, P>(
        &self,
        args: &(&'a [Y], &'a [P], &'a [T]),
        ctx: &<Solution<'a, Y, T, P> as RealInternals>::__Ctx,
    ) -> Vec<Solution<'a, Y, T, P>>
    where
        Y: Real,
        T: Real,
        P: Real,
        (&'a [Y], &'a [P], &'a [T]): Args,
        Solution<'a, Y, T, P>: RealInternals<Inner = I>,
    {
        let (n, k, ny) = (self.n, self.q.len(), self.ny);
        let row = (0..n).map(|j| {
            let s: Vec<I> = (0..k).map(|c| self.entry(n + j * k + c)).collect();
            // ∂y_j/∂tᵢ = f_j(tᵢ, y(tᵢ)), whose inner derivatives in (y0, θ) are S'_j; its
            // derivative in tᵢ itself is never needed (refused before the solve).
            let dt = self.dz.map(|dz| {
                I::from_partials(dz[j], |p| {
                    for (c, qc) in self.q.iter().enumerate() {
                        p.push(*qc, dz[n + j * k + c]);
                    }
                })
            });
            Solution::<Y, T, P>::__from_partials_in(ctx, self.entry(j), |p| {
                for (c, &d) in s.iter().enumerate() {
                    match c < ny {
                        true => args.push_in(p, 0, c, d),
                        false => args.push_in(p, 1, c - ny, d),
                    }
                }
                if let (Some(d), Some((i, _))) = (dt, self.t) {
                    args.push_in(p, 2, i, d);
                }
            })
        });
        row.collect()
    }
}

/// Whether `x` carries any derivative at all (a hint: `true` when unsure).
fn perturbed<S: Real>(x: &S) -> bool {
    !x.__is_constant()
}

/// Whether output time `i` carries the derivative that the result takes one order above
/// its inner parts (so its partial, `f(tᵢ, y(tᵢ))`, is multiplied by a non-zero tangent).
fn outer_perturbed<'a, Y, T, P>(
    args: &(&'a [Y], &'a [P], &'a [T]),
    ctx: &<Solution<'a, Y, T, P> as RealInternals>::__Ctx,
    i: usize,
) -> bool
where
    Y: Real,
    T: Real,
    P: Real,
    (&'a [Y], &'a [P], &'a [T]): Args,
{
    let tangent = Solution::<Y, T, P>::__from_partials_in(ctx, 0.0.into(), |p| {
        args.push_in(p, 2, i, 1.0.into());
    });
    !tangent.__is_constant()
}

/// Refuse operands whose inner parts are not first-order (a third derivative).
fn check_order<I: Real>(function: &str, q: &[I], tq: &[I]) {
    let mut ctx = I::__Ctx::default();
    q.iter().chain(tq).for_each(|x| x.__ctx(&mut ctx));
    let first = q.iter().chain(tq).all(I::__f64_partials_suffice);
    if !(first && I::__f64_partials_suffice_jointly(&ctx)) {
        panic!(
            "fazang: {function} gives first and second derivatives of its solution, not \
             third or higher ones (asked here by a derivative of a Hessian, three nested \
             `derivative` calls, or a series of order 3 or more). Differentiate through \
             {function} at most twice, e.g. take the third derivative by finite \
             differences of a Hessian"
        )
    }
}

/// The panic of a second derivative with respect to output time `ts[i]`.
#[cold]
fn second_derivative_in_time(function: &str, i: usize) -> ! {
    panic!(
        "fazang: {function} cannot give the second derivative of its solution with respect \
         to the output time `ts[{i}]`: it needs the right-hand side's derivative in t, \
         which takes t as data. Pass the output times as data (f64) to a Hessian or nested \
         derivative, or differentiate with respect to them only once"
    )
}
