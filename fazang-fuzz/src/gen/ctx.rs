//! The generator's state while it writes one function: the random stream, the bindings in
//! scope, the loop nesting (for update budgets), the helpers it may call, the tags of the
//! constructs used so far, and the text written so far.

use super::interval::Iv;
use super::scope::{Scopes, Ty, Var};
use super::GenConfig;
use std::collections::BTreeSet;

/// Magnitude bound on what generated helpers accept as `f64` arguments (and slice
/// elements): callers tame their arguments to it.
pub const HELPER_ARG: f64 = 5.0;

/// A helper parameter: `f64` or `&[f64]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HParam {
    F64,
    Slice,
}

/// A helper function the body may call.
#[derive(Clone, Debug)]
pub struct Helper {
    pub name: String,
    pub params: Vec<HParam>,
    /// Returns `Result<f64, String>`.
    pub result: bool,
    /// The interval of its result for arguments within [`HELPER_ARG`].
    pub out: Iv,
    /// Carries `#[differentiate]` (otherwise a plain function of data).
    pub differentiated: bool,
}

/// See the module documentation.
pub struct Ctx<'r> {
    pub rng: &'r mut fastrand::Rng,
    pub cfg: GenConfig,
    pub scopes: Scopes,
    /// Product of the trip bounds of the loops around the current point.
    pub trips: u64,
    pub loop_depth: usize,
    /// Block nesting below the function body.
    pub depth: usize,
    /// Inside a closure body or an expression: no statements, no `return`, no `?`.
    pub in_closure: usize,
    /// The function returns `Result<f64, String>`.
    pub result: bool,
    pub helpers: Vec<Helper>,
    pub tags: BTreeSet<String>,
    pub out: String,
    /// The construct tags of each line of `out` (those recorded while it was generated).
    pub line_tags: Vec<Vec<String>>,
    pending: Vec<String>,
    indent: usize,
    next: usize,
}

impl<'r> Ctx<'r> {
    pub fn new(rng: &'r mut fastrand::Rng, cfg: GenConfig, result: bool) -> Ctx<'r> {
        let mut scopes = Scopes::default();
        scopes.push();
        Ctx {
            rng,
            cfg,
            scopes,
            trips: 1,
            loop_depth: 0,
            depth: 0,
            in_closure: 0,
            result,
            helpers: Vec::new(),
            tags: BTreeSet::new(),
            out: String::new(),
            line_tags: Vec::new(),
            pending: Vec::new(),
            indent: 1,
            next: 0,
        }
    }

    /// A fresh binding name with a readable prefix.
    pub fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    /// Write one line at the current indentation.
    pub fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
        self.line_tags.push(std::mem::take(&mut self.pending));
    }

    /// Write `s` (ending in `{`) and indent what follows.
    pub fn open(&mut self, s: &str) {
        self.line(s);
        self.indent += 1;
    }

    /// Dedent and write `s` (starting with `}`).
    pub fn close(&mut self, s: &str) {
        self.indent -= 1;
        self.line(s);
    }

    /// Write `s` (`} else {`) one level out, staying inside the construct.
    pub fn reopen(&mut self, s: &str) {
        self.indent -= 1;
        self.line(s);
        self.indent += 1;
    }

    pub fn tag(&mut self, t: &str) {
        self.tags.insert(t.to_string());
        if !self.pending.iter().any(|p| p == t) {
            self.pending.push(t.to_string());
        }
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.f64() < p
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

    /// One of `items`, uniformly.
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.rng.usize(0..items.len())].clone()
    }

    /// The visible bindings that satisfy `f`, cloned.
    pub fn vars(&self, f: impl Fn(&Var) -> bool) -> Vec<Var> {
        self.scopes
            .visible()
            .into_iter()
            .filter(|v| f(v))
            .cloned()
            .collect()
    }

    /// A visible binding satisfying `f`, preferring active ones (2:1) when `active_bias`.
    pub fn pick_var(&mut self, active_bias: bool, f: impl Fn(&Var) -> bool) -> Option<Var> {
        let vs = self.vars(f);
        if vs.is_empty() {
            return None;
        }
        let act: Vec<Var> = vs.iter().filter(|v| v.active).cloned().collect();
        if active_bias && !act.is_empty() && self.chance(0.6) {
            return Some(self.pick(&act));
        }
        Some(self.pick(&vs))
    }

    /// Whether an update adding at most `inc` in magnitude to mutable `name` fits its
    /// budget; if so, charge it (times the loop trips since the declaration).
    pub fn admit(&mut self, name: &str, inc: f64) -> bool {
        let trips = self.trips;
        let v = self
            .scopes
            .get_mut(name)
            .expect("updating a visible binding");
        let b = v.budget.as_mut().expect("updating a mutable binding");
        let total = inc * (trips / b.trips.max(1)).max(1) as f64;
        if b.used + total > b.cap {
            return false;
        }
        b.used += total;
        true
    }

    /// Whether `name` may be reset to a value of magnitude `m` (reads see the cap).
    pub fn admit_reset(&mut self, name: &str, m: f64) -> bool {
        let v = self
            .scopes
            .get_mut(name)
            .expect("updating a visible binding");
        let b = v.budget.as_mut().expect("updating a mutable binding");
        if m > b.cap || b.used.max(m) > b.cap {
            return false;
        }
        b.used = b.used.max(m);
        true
    }

    /// Record that `name` now holds an active value if `active`.
    pub fn mark_active(&mut self, name: &str, active: bool) {
        if !active {
            return;
        }
        let v = self
            .scopes
            .get_mut(name)
            .expect("updating a visible binding");
        if !v.active && !matches!(v.ty, Ty::Usize | Ty::Bool) {
            self.tag("data-meets-active");
        }
        let v = self
            .scopes
            .get_mut(name)
            .expect("updating a visible binding");
        v.active = true;
        v.data_sure = false;
    }

    /// Run `f` inside a new block scope.
    pub fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.scopes.push();
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        self.scopes.pop();
        r
    }

    /// Run `f` inside a loop body executed at most `trips` times.
    pub fn in_loop<T>(&mut self, trips: u64, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.trips;
        self.trips = saved.saturating_mul(trips.max(1));
        self.loop_depth += 1;
        let r = self.scoped(f);
        self.loop_depth -= 1;
        self.trips = saved;
        r
    }
}
