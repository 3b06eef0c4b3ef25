//! The checking half of the fuzzer, copied verbatim into every generated crate as
//! `src/harness.rs` (it uses only `std`, so it compiles there and here alike; here it is
//! compiled so that clippy sees it and its unit tests run).
//!
//! For each body the generated `check` function draws points and calls [`Harness::point`]
//! with closures over the flattened active inputs ([`Fns`]): the plain function, the
//! `#[differentiate]` primal, its `_grad`, the hidden tape twin `__f_grad_tape` (when the
//! macro generated one) and `_jvp`. A point compares
//! - the primal, bit for bit (`Err` messages must be equal too; NaN equals NaN by bits);
//! - the value `_grad` returns, bit for bit with the plain function;
//! - each partial derivative against central finite differences of the *plain* function
//!   with Richardson extrapolation, at two base steps. Where the two extrapolations
//!   disagree, the function is not smooth near the point (a branch flips, a kink, a jump)
//!   and the partial is skipped rather than reported;
//! - `_grad` with the tape twin, value and every partial, to rounding (`paths`): the
//!   adjoint code against the tape, at every point, smooth or not;
//! - `_jvp` along each unit vector with the reverse-mode partials (`jvp`: forward mode
//!   disagrees with `_grad` and with the tape twin), and its value with the primal;
//! - for scalar results, `_hessian` (tangent of the adjoint code where the macro wrote
//!   it) against finite differences of the tape twin's gradient, the generic body's
//!   Hessian on forward scalars, and `_hvp` along each unit vector ([`second`]).
//!
//! Results are printed one line each (`START`, `FAIL`, `BODY`), read by the driver.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// A result of the plain or the differentiated primal, whatever the body returns.
pub trait Outcome {
    /// `Ok(value)` or the body's own `Err` message.
    fn outcome(self) -> Result<f64, String>;
}

impl Outcome for f64 {
    fn outcome(self) -> Result<f64, String> {
        Ok(self)
    }
}

impl Outcome for Result<f64, String> {
    fn outcome(self) -> Result<f64, String> {
        self
    }
}

/// A gradient of any shape `_grad` may return, flattened in parameter order.
pub trait Flatten {
    /// Append every partial, in order, to `out`.
    fn flatten_into(self, out: &mut Vec<f64>);
}

impl Flatten for f64 {
    fn flatten_into(self, out: &mut Vec<f64>) {
        out.push(self);
    }
}

impl<const N: usize> Flatten for [f64; N] {
    fn flatten_into(self, out: &mut Vec<f64>) {
        out.extend_from_slice(&self);
    }
}

impl Flatten for Vec<f64> {
    fn flatten_into(self, out: &mut Vec<f64>) {
        out.extend(self);
    }
}

impl<A: Flatten, B: Flatten> Flatten for (A, B) {
    fn flatten_into(self, out: &mut Vec<f64>) {
        self.0.flatten_into(out);
        self.1.flatten_into(out);
    }
}

impl<A: Flatten, B: Flatten, C: Flatten> Flatten for (A, B, C) {
    fn flatten_into(self, out: &mut Vec<f64>) {
        self.0.flatten_into(out);
        self.1.flatten_into(out);
        self.2.flatten_into(out);
    }
}

impl<A: Flatten, B: Flatten, C: Flatten, D: Flatten> Flatten for (A, B, C, D) {
    fn flatten_into(self, out: &mut Vec<f64>) {
        self.0.flatten_into(out);
        self.1.flatten_into(out);
        self.2.flatten_into(out);
        self.3.flatten_into(out);
    }
}

/// What `_grad` returns: `(value, G)` or `Result<(value, G), String>`.
pub trait GradOutcome {
    /// The value and the flattened gradient, or the body's `Err` message.
    fn grad_outcome(self) -> Result<(f64, Vec<f64>), String>;
}

impl<G: Flatten> GradOutcome for (f64, G) {
    fn grad_outcome(self) -> Result<(f64, Vec<f64>), String> {
        let mut g = Vec::new();
        self.1.flatten_into(&mut g);
        Ok((self.0, g))
    }
}

impl<G: Flatten> GradOutcome for Result<(f64, G), String> {
    fn grad_outcome(self) -> Result<(f64, Vec<f64>), String> {
        self.map(|(v, g)| (v, vec_of(g)))
    }
}

fn vec_of<G: Flatten>(g: G) -> Vec<f64> {
    let mut out = Vec::new();
    g.flatten_into(&mut out);
    out
}

/// The plain or differentiated primal over the flattened active inputs.
/// (Not `'static`: the checks' closures borrow the data drawn for the point.)
pub type PrimalFn<'a> = dyn Fn(&[f64]) -> Result<f64, String> + 'a;

/// `_grad` over the flattened active inputs: value and flattened gradient.
pub type GradFn<'a> = dyn Fn(&[f64]) -> Result<(f64, Vec<f64>), String> + 'a;

/// `_jvp` over the flattened active inputs and a direction: value and derivative.
pub type JvpFn<'a> = dyn Fn(&[f64], &[f64]) -> Result<(f64, f64), String> + 'a;

/// What `_jvp` returns: `(value, derivative)` or `Result<(value, derivative), String>`.
pub trait JvpOutcome {
    /// The value and the directional derivative, or the body's `Err` message.
    fn jvp_outcome(self) -> Result<(f64, f64), String>;
}

impl JvpOutcome for (f64, f64) {
    fn jvp_outcome(self) -> Result<(f64, f64), String> {
        Ok(self)
    }
}

impl JvpOutcome for Result<(f64, f64), String> {
    fn jvp_outcome(self) -> Result<(f64, f64), String> {
        self
    }
}

/// `_hessian` over the flattened active inputs: value, flattened gradient, rows.
pub type HessFn<'a> = dyn Fn(&[f64]) -> Result<Hess, String> + 'a;

/// A value, a gradient and a Hessian.
pub type Hess = (f64, Vec<f64>, Vec<Vec<f64>>);

/// `_hvp` over the flattened active inputs and a direction: value and H v.
pub type HvpFn<'a> = dyn Fn(&[f64], &[f64]) -> Result<(f64, Vec<f64>), String> + 'a;

/// What `_hessian` returns, whatever the gradient's shape, in or out of `Result`.
pub trait HessOutcome {
    /// Value, flattened gradient and rows, or the body's `Err` message.
    fn hess_outcome(self) -> Result<Hess, String>;
}

impl<G: Flatten> HessOutcome for (f64, G, Vec<Vec<f64>>) {
    fn hess_outcome(self) -> Result<Hess, String> {
        Ok((self.0, vec_of(self.1), self.2))
    }
}

impl<G: Flatten> HessOutcome for Result<(f64, G, Vec<Vec<f64>>), String> {
    fn hess_outcome(self) -> Result<Hess, String> {
        self.map(|(v, g, h)| (v, vec_of(g), h))
    }
}

/// What `_hvp` returns, in or out of `Result`.
pub trait HvpOutcome {
    /// Value and H v, or the body's `Err` message.
    fn hvp_outcome(self) -> Result<(f64, Vec<f64>), String>;
}

impl HvpOutcome for (f64, Vec<f64>) {
    fn hvp_outcome(self) -> Result<(f64, Vec<f64>), String> {
        Ok(self)
    }
}

impl HvpOutcome for Result<(f64, Vec<f64>), String> {
    fn hvp_outcome(self) -> Result<(f64, Vec<f64>), String> {
        self
    }
}

/// The versions of one body a point compares, over the flattened active inputs.
pub struct Fns<'a> {
    /// The function without the attribute.
    pub plain: &'a PrimalFn<'a>,
    /// The `#[differentiate]` primal.
    pub ad: &'a PrimalFn<'a>,
    /// `_grad` (adjoint code or the tape, as the macro chose).
    pub grad: &'a GradFn<'a>,
    /// The hidden tape twin `__f_grad_tape`, when the macro generated one.
    pub tape: Option<&'a GradFn<'a>>,
    /// `_jvp`.
    pub jvp: &'a JvpFn<'a>,
    /// `_hessian`, `_hvp` and the generic body's Hessian (hidden
    /// `__f_hessian_generic`), for bodies with a scalar result.
    pub second: Option<Second<'a>>,
}

/// The second-order items of a body.
pub struct Second<'a> {
    /// `_hessian`.
    pub hessian: &'a HessFn<'a>,
    /// `_hvp`.
    pub hvp: &'a HvpFn<'a>,
    /// The generic body's Hessian on forward scalars (another path).
    pub twin: &'a HessFn<'a>,
}

/// A body's name and its generated `check` function.
pub type Check = (&'static str, fn(&mut Harness));

/// Random inputs and the checks of one body; see the module documentation.
pub struct Harness {
    state: u64,
    body: &'static str,
    checked: usize,
    skipped: usize,
    nonfinite: usize,
    /// Points where `_grad` was compared with the tape twin.
    paths: usize,
    /// Directional derivatives of `_jvp` compared with the reverse-mode partials.
    jvps: usize,
    /// Hessian entries compared with finite differences of the tape's gradient.
    hessians: usize,
    failed: bool,
}

/// Finite-difference estimate of one partial, or why there is none.
#[derive(Debug, PartialEq)]
pub enum Reference {
    /// A smooth estimate and a bound on its error.
    Smooth(f64, f64),
    /// The function is not smooth here (or not finite nearby): skip this partial.
    NotSmooth,
}

impl Harness {
    /// A harness for body `body`, its random stream seeded from `seed`.
    pub fn new(body: &'static str, seed: u64) -> Harness {
        Harness {
            state: seed ^ 0x9e37_79b9_7f4a_7c15,
            body,
            checked: 0,
            skipped: 0,
            nonfinite: 0,
            paths: 0,
            jvps: 0,
            hessians: 0,
            failed: false,
        }
    }

    /// splitmix64: small, seedable, and the same on every platform.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in [-1.5, 1.5], the range the generator assumes for every `f64` input.
    pub fn f64(&mut self) -> f64 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        -1.5 + 3.0 * u
    }

    /// `n` values in [-1.5, 1.5].
    pub fn vec(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.f64()).collect()
    }

    /// A value in `0..bound`.
    pub fn usize(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    /// `n` values in `0..bound`.
    pub fn usizes(&mut self, n: usize, bound: usize) -> Vec<usize> {
        (0..n).map(|_| self.usize(bound)).collect()
    }

    /// A fair coin.
    pub fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }

    fn fail(&mut self, kind: &str, detail: String) {
        self.failed = true;
        #[cfg(test)]
        tests::KINDS.with(|k| k.borrow_mut().push(kind.to_string()));
        println!("FAIL\t{}\t{kind}\t{detail}", self.body);
    }

    /// Check one point `p` (the active inputs, flattened); see the module documentation.
    pub fn point(&mut self, p: &[f64], f: &Fns<'_>) {
        let Some(want) = self.guard("plain-panic", p, || (f.plain)(p)) else {
            return;
        };
        let Some(got) = self.guard("ad-panic", p, || (f.ad)(p)) else {
            return;
        };
        if !same(&want, &got) {
            self.fail("primal", format!("p={p:?} plain={want:?} ad={got:?}"));
        }
        let Some(g) = self.guard("grad-panic", p, || (f.grad)(p)) else {
            return;
        };
        let tape = f.tape.and_then(|t| self.guard("tape-panic", p, || t(p)));
        if let Some(t) = &tape {
            self.paths(p, &g, t);
        }
        let (gv, g) = match (&want, g) {
            (Ok(_), Ok((v, g))) => (v, g),
            (Err(_), Err(_)) => return self.jvp_errors(p, &want, f),
            (_, g) => {
                let g = g.map(|(v, _)| v);
                return self.fail("grad-value", format!("p={p:?} plain={want:?} grad={g:?}"));
            }
        };
        let value = want.clone().unwrap_or(f64::NAN);
        if value.to_bits() != gv.to_bits() {
            self.fail("grad-value", format!("p={p:?} plain={value:?} grad={gv:?}"));
        }
        if g.len() != p.len() {
            let detail = format!("p={p:?} expected {} partials, got {g:?}", p.len());
            return self.fail("grad-shape", detail);
        }
        let tape_g = tape.and_then(|t| t.ok()).map(|(_, g)| g);
        self.jvps(p, value, &g, tape_g.as_deref(), f);
        if !value.is_finite() {
            self.nonfinite += 1;
            return;
        }
        self.compare_partials(p, f.plain, &g);
        if let Some(s) = &f.second {
            let grad = f.tape.unwrap_or(f.grad);
            second::check(self, p, value, &g, grad, s);
        }
    }

    /// The two paths of `_grad`, adjoint code and tape, agree to rounding: the same
    /// `Ok`/`Err`, value and partials.
    fn paths(
        &mut self,
        p: &[f64],
        g: &Result<(f64, Vec<f64>), String>,
        t: &Result<(f64, Vec<f64>), String>,
    ) {
        self.paths += 1;
        let agree = match (g, t) {
            (Ok((v, g)), Ok((vt, gt))) => {
                close(*v, *vt)
                    && g.len() == gt.len()
                    && g.iter().zip(gt).all(|(a, b)| close(*a, *b))
            }
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        if !agree {
            self.fail("paths", format!("p={p:?} adjoint={g:?} tape={t:?}"));
        }
    }

    /// `_jvp` along each unit vector: its value is the primal's, its derivative agrees
    /// with `_grad`'s partial or the tape twin's (forward mode against reverse mode).
    fn jvps(&mut self, p: &[f64], value: f64, g: &[f64], tape: Option<&[f64]>, f: &Fns<'_>) {
        let mut dir = vec![0.0; p.len()];
        for j in 0..p.len() {
            dir[j] = 1.0;
            let r = self.guard("jvp-panic", p, || (f.jvp)(p, &dir));
            dir[j] = 0.0;
            let Some(r) = r else { return };
            let (v, d) = match r {
                Ok(vd) => vd,
                Err(e) => {
                    return self.fail(
                        "jvp-value",
                        format!("p={p:?} plain={value:?} jvp=Err({e:?})"),
                    )
                }
            };
            if !close(v, value) {
                return self.fail("jvp-value", format!("p={p:?} plain={value:?} jvp={v:?}"));
            }
            self.jvps += 1;
            let by_tape = tape.is_some_and(|t| t.len() == g.len() && close(d, t[j]));
            if !close(d, g[j]) && !by_tape {
                let t = tape.map(|t| t[j]);
                let detail = format!("p={p:?} index={j} jvp={d:e} grad={:e} tape={t:?}", g[j]);
                self.fail("jvp", detail);
            }
        }
    }

    /// Where the primal returned `Err`, `_jvp` returns the same error.
    fn jvp_errors(&mut self, p: &[f64], want: &Result<f64, String>, f: &Fns<'_>) {
        let mut dir = vec![0.0; p.len()];
        if let Some(d) = dir.first_mut() {
            *d = 1.0;
        }
        let Some(r) = self.guard("jvp-panic", p, || (f.jvp)(p, &dir)) else {
            return;
        };
        if r.as_ref().err() != want.as_ref().err() {
            self.fail("jvp-value", format!("p={p:?} plain={want:?} jvp={r:?}"));
        }
    }

    fn compare_partials(&mut self, p: &[f64], plain: &PrimalFn<'_>, g: &[f64]) {
        for (j, &gj) in g.iter().enumerate() {
            let reference = catch_unwind(AssertUnwindSafe(|| reference(plain, p, j)));
            match reference {
                Ok(Reference::Smooth(r, err)) => {
                    self.checked += 1;
                    if !agrees(gj, r, err) {
                        let d = format!("p={p:?} index={j} ad={gj:e} fd={r:e} fd_err={err:e}");
                        self.fail("gradient", d);
                    }
                }
                _ => self.skipped += 1,
            }
        }
    }

    /// Run `f`, reporting a panic as `kind`.
    fn guard<T>(&mut self, kind: &str, p: &[f64], f: impl FnOnce() -> T) -> Option<T> {
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(v) => Some(v),
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                self.fail(kind, format!("p={p:?} panic={msg:?}"));
                None
            }
        }
    }

    /// Print the body's summary line.
    pub fn finish(&self) {
        println!(
            "BODY\t{}\tchecked={}\tskipped={}\tnonfinite={}\tpaths={}\tjvp={}\thessian={}\tfailed={}",
            self.body,
            self.checked,
            self.skipped,
            self.nonfinite,
            self.paths,
            self.jvps,
            self.hessians,
            self.failed
        );
    }
}

/// Equal results: the same bits, or the same `Err` message.
fn same(a: &Result<f64, String>, b: &Result<f64, String>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => x.to_bits() == y.to_bits(),
        (Err(x), Err(y)) => x == y,
        _ => false,
    }
}

/// Two AD results agree to rounding: equal, within 1e-9 relative, or both not finite (a
/// derivative that overflows in one mode overflows in the other, as `inf` or as NaN from
/// `inf * 0`; its value means nothing, and the finite-difference check reports a
/// non-finite partial where the function is smooth).
pub fn close(a: f64, b: f64) -> bool {
    a == b
        || (!a.is_finite() && !b.is_finite())
        || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Whether an AD partial agrees with the reference `r` (error bound `err`).
pub fn agrees(g: f64, r: f64, err: f64) -> bool {
    let tol = 1e-6 * g.abs().max(r.abs()).max(1.0) + 10.0 * err;
    (g - r).abs() <= tol
}

/// The partial derivative of `f` along input `j` at `p`: Richardson-extrapolated central
/// differences at base steps `h` and `0.3 h`; their disagreement (beyond rounding) says the
/// function is not smooth within `h` of `p`.
pub fn reference(f: &PrimalFn<'_>, p: &[f64], j: usize) -> Reference {
    let h = 1e-3 * p[j].abs().max(1.0);
    let (Some(a), Some(b)) = (richardson(f, p, j, h), richardson(f, p, j, 0.3 * h)) else {
        return Reference::NotSmooth;
    };
    let (r1, noise1) = a;
    let (r2, noise2) = b;
    let noise = noise1.max(noise2);
    let gap = (r1 - r2).abs();
    if gap > 1e-7 * r1.abs().max(1.0) + 100.0 * noise {
        return Reference::NotSmooth;
    }
    Reference::Smooth(r2, gap + 10.0 * noise)
}

/// `(4 D(h/2) - D(h)) / 3` with `D` the central difference, and the rounding noise of the
/// smallest step; `None` if any evaluation is not a finite `Ok`.
fn richardson(f: &PrimalFn<'_>, p: &[f64], j: usize, h: f64) -> Option<(f64, f64)> {
    let mut q = p.to_vec();
    let mut eval = |x: f64| {
        q[j] = x;
        f(&q).ok().filter(|v| v.is_finite())
    };
    let (x, mut big) = (p[j], 0.0f64);
    let mut central = |h: f64| -> Option<f64> {
        let (hi, lo) = (eval(x + h)?, eval(x - h)?);
        big = big.max(hi.abs()).max(lo.abs());
        // The step actually taken, as rounded in x + h and x - h.
        Some((hi - lo) / ((x + h) - (x - h)))
    };
    let (d1, d2) = (central(h)?, central(h / 2.0)?);
    let noise = 4.0 * f64::EPSILON * big.max(1e-300) / h;
    Some(((4.0 * d2 - d1) / 3.0, noise))
}

/// Run every body from index `start` on, each with its own seed.
pub fn run(bodies: &[Check], start: usize, seed: u64) {
    std::panic::set_hook(Box::new(|_| {}));
    for (i, (name, check)) in bodies.iter().enumerate().skip(start) {
        println!("START\t{name}\t{i}");
        let mut h = Harness::new(name, seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        check(&mut h);
        h.finish();
    }
}

mod second;
#[cfg(test)]
mod tests;
