//! The mutation-heavy families: bodies that update a few `let mut` values again and again,
//! as simulations, integrators and hand-written recurrences do. Issue 18 found wrong
//! adjoint gradients in exactly this code (a value scaled by a constant, an operand of a
//! product, recomputed by the reverse sweep after a later write), which the classic
//! family never generates. Every body is plain `f64` Rust:
//!
//! - `mutate`: several `let mut` values updated by `+= -= *= /=` and `=` whose right
//!   sides read each other, products of 2-4 factors with constants and data in any
//!   position (`0.5 * v * w`, `v * k / 2.0 * w`, `n as f64 * v`, `(0.9 + 0.1 * v) * w`),
//!   temporaries computed before their operands are overwritten, branches and short loops
//!   inside the sequence;
//! - `integrate`: loops with loop-carried state (explicit and semi-implicit Euler,
//!   velocity Verlet, midpoint steps, drag, forcing, accumulators, a bounce);
//! - `swap`: the same with swaps through a temporary, `std::mem::swap`, `(a, b) = (b, a)`
//!   and rotations;
//! - `arrays`: local arrays and vectors written and read (`q[i] += 0.5 * q[j] * v`,
//!   element loops, `q.swap(i, j)`, copies of array parameters, `to_vec()`).
//!
//! The tree ([`ast`]) is run at sample inputs as it grows ([`eval`]): a statement whose
//! values leave a bound at any sample is drawn again, so values stay tame without
//! squashing them.

mod arrays;
mod ast;
mod build;
mod eval;
mod integ;
mod stmts;
#[cfg(test)]
mod tests;

use super::{Body, Family, Func, GenConfig, PKind, Param};
use ast::{Ex, Line, Printer};
use eval::{Env, Val};
use std::collections::BTreeSet;

/// Sample inputs each statement is run at.
const SAMPLES: usize = 16;

/// What a binding holds.
#[derive(Clone, Debug, PartialEq)]
pub enum BKind {
    F64,
    /// A `usize` no larger than `max`.
    Usize {
        max: usize,
    },
    /// An `f64` sequence of this length.
    Seq {
        len: usize,
    },
    Bool,
}

/// A name in scope.
#[derive(Clone, Debug)]
pub struct Bind {
    pub name: String,
    pub kind: BKind,
    pub mutable: bool,
    /// Its type is `f64` where read (not an unannotated literal), so it may be a method
    /// receiver.
    pub typed: bool,
    /// A parameter.
    pub param: bool,
    /// Never depends on an active input (data, a literal): usable as a scale.
    pub data: bool,
    /// An immutable binding the result must read (it shadows an updated value).
    pub result: bool,
    /// Being iterated over or otherwise not to be written now.
    pub frozen: bool,
}

/// The generator's state while it writes one body.
pub struct Gen<'r> {
    pub rng: &'r mut fastrand::Rng,
    pub fam: Family,
    pub binds: Vec<Bind>,
    /// The bindings at each sample, after the statements kept so far.
    envs: Vec<Env>,
    pub tags: BTreeSet<String>,
    /// Nesting of `if` and `for` at the point being generated.
    pub depth: usize,
    /// Inside a loop body.
    pub in_loop: bool,
    /// This body may use constructs whose `_grad` takes the tape today (`std::mem::swap`,
    /// `(a, b) = (b, a)`, `q.swap(i, j)`): a minority of bodies, so that most test the
    /// adjoint code while these stay covered.
    pub extras: bool,
    /// Data locals updated in place may be generated (`GenConfig::data_states`).
    pub data_states: bool,
    /// The array parameters (`[f64; N]`, which a `let mut q = u;` copies).
    pub arrays: Vec<String>,
    /// How many times the current statement was drawn again: builders prefer smaller
    /// coefficients as it grows.
    pub calm: u32,
    next: usize,
}

impl Gen<'_> {
    pub fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    pub fn tag(&mut self, t: &str) -> String {
        self.tags.insert(t.to_string());
        t.to_string()
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.f64() < p
    }

    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.rng.usize(0..items.len())].clone()
    }

    /// An index into `weights`, drawn in proportion to them.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut r = self.rng.u32(0..total.max(1));
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        0
    }

    /// The visible bindings satisfying `f` (a shadowed one is not).
    pub fn find(&self, f: impl Fn(&Bind) -> bool) -> Vec<Bind> {
        let visible = |i: usize, b: &Bind| !self.binds[i + 1..].iter().any(|o| o.name == b.name);
        self.binds
            .iter()
            .enumerate()
            .filter(|(i, b)| visible(*i, b) && f(b))
            .map(|(_, b)| b.clone())
            .collect()
    }

    /// The visible active `f64` parameters, or (all of them shadowed) the visible active
    /// `f64` values: never empty.
    pub fn inputs(&self) -> Vec<Bind> {
        let params = self.find(|b| b.param && b.kind == BKind::F64 && !b.data);
        if !params.is_empty() {
            return params;
        }
        self.find(|b| b.kind == BKind::F64 && !b.data)
    }

    /// A visible binding satisfying `f`, if any.
    pub fn choose(&mut self, f: impl Fn(&Bind) -> bool) -> Option<Bind> {
        let vs = self.find(f);
        (!vs.is_empty()).then(|| self.pick(&vs))
    }

    pub fn add(&mut self, b: Bind) {
        self.binds.push(b);
    }

    /// A new binding: `f64` unless said otherwise, typed, immutable, not a parameter.
    pub fn bind(name: &str, kind: BKind) -> Bind {
        Bind {
            name: name.to_string(),
            kind,
            mutable: false,
            typed: true,
            param: false,
            data: false,
            result: false,
            frozen: false,
        }
    }

    /// Run `f` in a nested block: its bindings end with it.
    pub fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let n = self.binds.len();
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        self.binds.truncate(n);
        r
    }

    /// Keep a top-level statement drawn by `f` if its values stay tame at every sample;
    /// draw it again otherwise (a few times). Whether one was kept.
    pub fn keep(
        &mut self,
        out: &mut Vec<Line>,
        f: impl Fn(&mut Self) -> Option<Vec<Line>>,
    ) -> bool {
        for calm in 0..6 {
            self.calm = calm;
            let (binds, tags, next) = (self.binds.clone(), self.tags.clone(), self.next);
            if let Some(lines) = f(self) {
                let mut envs = self.envs.clone();
                for e in &mut envs {
                    e.exec_all(&lines);
                }
                if envs.iter().all(|e| !e.bad) {
                    self.envs = envs;
                    out.extend(lines);
                    self.calm = 0;
                    return true;
                }
            }
            self.binds = binds;
            self.tags = tags;
            self.next = next;
        }
        self.calm = 0;
        false
    }

    /// Append a statement that needs no check (a declaration), running it at the samples.
    pub fn push(&mut self, out: &mut Vec<Line>, l: Line) {
        for e in &mut self.envs {
            e.exec(&l.st);
        }
        out.push(l);
    }

    /// Whether `e` stays tame at every sample.
    fn tame(&self, e: &Ex) -> bool {
        self.envs.iter().all(|env| {
            let v = env.eval(e);
            v.is_finite() && v.abs() <= 10.0 * eval::MAG
        })
    }
}

/// Generate a body of family `cfg.family` (not `classic`) from `seed`.
pub fn generate(seed: u64, cfg: GenConfig) -> Body {
    let fam = cfg.family;
    let mut rng = fastrand::Rng::with_seed(seed);
    let params = params(&mut rng, fam);
    let envs = samples(&mut rng, &params);
    let mut g = Gen {
        rng: &mut rng,
        fam,
        binds: Vec::new(),
        envs,
        tags: BTreeSet::new(),
        depth: 0,
        in_loop: false,
        extras: false,
        data_states: cfg.data_states,
        arrays: params
            .iter()
            .filter(|p| matches!(p.kind, PKind::Arr(_)))
            .map(|p| p.name.clone())
            .collect(),
        calm: 0,
        next: params.len(),
    };
    g.extras = g.chance(0.3);
    for p in &params {
        g.add(param_bind(p));
    }
    // `fn f(mut x: f64, ..)`, updated in place.
    let mut_param = (fam != Family::Arrays && g.chance(0.15))
        .then(|| g.choose(|b| b.param && b.kind == BKind::F64 && !b.data))
        .flatten()
        .map(|b| b.name);
    if let Some(m) = &mut_param {
        g.tag("mut-param");
        if let Some(b) = g.binds.iter_mut().find(|b| &b.name == m) {
            b.mutable = true;
        }
    }
    let mut lines = Vec::new();
    g.skeleton(&mut lines);
    let tail = g.tail();
    let mut pr = Printer::new(1);
    pr.block(&lines);
    pr.line(&tail.code(), &[]);
    let sig: Vec<String> = params
        .iter()
        .map(|p| {
            let m = if mut_param.as_ref() == Some(&p.name) {
                "mut "
            } else {
                ""
            };
            format!("{m}{}: {}", p.name, p.ty())
        })
        .collect();
    let wrt: Vec<&str> = params
        .iter()
        .filter(|p| p.active)
        .map(|p| p.name.as_str())
        .collect();
    let mut text = format!("pub fn f({}) -> f64 {{\n", sig.join(", "));
    text.push_str(&pr.text);
    text.push_str("}\n");
    let mut line_tags = vec![Vec::new()];
    line_tags.extend(pr.tags);
    line_tags.push(Vec::new());
    let mut tags = g.tags;
    tags.insert(format!("family-{}", fam.name()));
    Body {
        helpers: Vec::new(),
        func: Func {
            text,
            line_tags,
            attribute: Some(format!("#[differentiate(wrt({}))]", wrt.join(", "))),
        },
        params,
        tags,
        family: fam,
    }
}

/// Parameters: one to three active `f64`s, sometimes an active sequence (often in
/// `arrays`), and data: an `f64`, a `usize` count, a `bool`.
fn params(rng: &mut fastrand::Rng, fam: Family) -> Vec<Param> {
    let mut kinds: Vec<(PKind, bool)> = Vec::new();
    for _ in 0..[1, 2, 2, 3][rng.usize(0..4)] {
        kinds.push((PKind::F64, true));
    }
    let seq_p = if fam == Family::Arrays { 0.6 } else { 0.15 };
    if rng.f64() < seq_p {
        let len = rng.usize(2..5);
        let k = match rng.usize(0..3) {
            0 => PKind::Slice(len),
            1 => PKind::Arr(len),
            _ => PKind::Vec(len),
        };
        kinds.push((k, true));
    }
    if rng.f64() < 0.4 {
        kinds.push((PKind::F64, false));
    }
    let count_p = if fam == Family::Integrate { 0.7 } else { 0.5 };
    if rng.f64() < count_p {
        kinds.push((PKind::Usize(rng.usize(3..7)), false));
    }
    if rng.f64() < 0.15 {
        kinds.push((PKind::Bool, false));
    }
    rng.shuffle(&mut kinds);
    kinds
        .into_iter()
        .enumerate()
        .map(|(i, (kind, active))| {
            let base = match (&kind, active) {
                (PKind::F64, true) => "x",
                (PKind::F64, false) => "c",
                (PKind::Usize(_), _) => "n",
                (PKind::Bool, _) => "flag",
                _ => "theta",
            };
            Param {
                name: format!("{base}{i}"),
                kind,
                active,
                alias: false,
            }
        })
        .collect()
}

fn param_bind(p: &Param) -> Bind {
    let kind = match p.kind {
        PKind::F64 => BKind::F64,
        PKind::Usize(b) => BKind::Usize { max: b - 1 },
        PKind::Bool => BKind::Bool,
        PKind::Slice(n) | PKind::Arr(n) | PKind::Vec(n) => BKind::Seq { len: n },
        PKind::SliceUsize(..) => unreachable!("not generated by the mutation families"),
    };
    Bind {
        param: true,
        data: !p.active,
        ..Gen::bind(&p.name, kind)
    }
}

/// Sample points drawn as the harness draws them: `f64`s in [-1.5, 1.5], counts in
/// `0..bound`, fair booleans.
fn samples(rng: &mut fastrand::Rng, params: &[Param]) -> Vec<Env> {
    let f = |rng: &mut fastrand::Rng| -1.5 + 3.0 * rng.f64();
    (0..SAMPLES)
        .map(|_| {
            let mut env = Env::default();
            for p in params {
                let v = match p.kind {
                    PKind::F64 => Val::F(f(rng)),
                    PKind::Usize(b) => Val::U(rng.usize(0..b)),
                    PKind::Bool => Val::B(rng.bool()),
                    PKind::Slice(n) | PKind::Arr(n) | PKind::Vec(n) => {
                        Val::S((0..n).map(|_| f(rng)).collect())
                    }
                    PKind::SliceUsize(..) => unreachable!(),
                };
                env.set(&p.name, v);
            }
            env
        })
        .collect()
}
