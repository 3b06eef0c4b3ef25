//! What the generator knows about each name in scope: its Rust type, an interval for its
//! value (or its elements), whether it may depend on an active parameter, and for mutable
//! bindings a budget that keeps every later update within a bound.

use super::interval::Iv;

/// The types a generated body works with.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    F64,
    Usize,
    Bool,
    /// `[f64; N]` (a parameter or a local).
    Arr,
    /// `Vec<f64>` (a parameter or a local).
    Vec,
    /// `&[f64]` (a parameter).
    Slice,
    /// `&[usize]` (a data parameter): its interval is the range of its elements.
    SliceUsize,
    /// `(f64, f64)`, read as `.0` and `.1`.
    Tup2([Iv; 2]),
    /// A local closure `|t: f64| ..` taking arguments with magnitude up to `arg`.
    Closure {
        arg: f64,
    },
}

impl Ty {
    /// An `f64` sequence (indexable, iterable).
    pub fn is_seq(&self) -> bool {
        matches!(self, Ty::Arr | Ty::Vec | Ty::Slice)
    }
}

/// Keeps a mutable binding within `[-cap, cap]`: reads assume the whole range, and each
/// update is admitted only if the sum of all increments it may add (over every iteration
/// of the loops around it since the declaration) still fits (see `Ctx::admit`).
#[derive(Clone, Debug)]
pub struct Budget {
    pub cap: f64,
    pub used: f64,
    /// The loop trip product at the declaration.
    pub trips: u64,
}

/// A name in scope.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: Ty,
    /// The value (f64), the elements (sequences), or the value range (usize).
    pub iv: Iv,
    /// Sequences: the least and the greatest length.
    pub len: (usize, usize),
    /// Sequences: the expression their length equals (`n`, `y.len()`), when known.
    pub len_sym: Option<String>,
    /// Usize: the sequences this value is known to index safely.
    pub valid_for: Vec<String>,
    /// May depend on an active parameter (now or after a later update).
    pub active: bool,
    /// Surely data: immutable and computed from data only (safe to cast, to pass to a
    /// plain helper).
    pub data_sure: bool,
    pub budget: Option<Budget>,
    /// An `&f64` binding (`for v in y`, `|v| ..` over `iter()`).
    pub by_ref: bool,
    /// A `&&f64` binding (`filter(|v| ..)`).
    pub by_ref2: bool,
    /// No writes allowed (a loop iterates over it).
    pub frozen: bool,
    /// No reads allowed (the right side of a compound update of its own element).
    pub hidden: bool,
    /// Initialised from unsuffixed literals only (`let mut acc = 0.0;`): its type may be
    /// an unresolved `{float}` where it is read, so methods are called in path form.
    pub untyped: bool,
}

impl Var {
    /// A new immutable binding of type `ty` with value interval `iv`.
    pub fn new(name: impl Into<String>, ty: Ty, iv: Iv) -> Var {
        Var {
            name: name.into(),
            ty,
            iv,
            len: (0, 0),
            len_sym: None,
            valid_for: Vec::new(),
            active: false,
            data_sure: true,
            budget: None,
            by_ref: false,
            by_ref2: false,
            frozen: false,
            hidden: false,
            untyped: false,
        }
    }

    /// Mark as initialised from untyped literals if `untyped`.
    pub fn untyped(mut self, untyped: bool) -> Var {
        self.untyped = untyped;
        self
    }

    /// Mark as depending on an active parameter.
    pub fn active(mut self, active: bool) -> Var {
        self.active = active;
        self.data_sure = !active;
        self
    }

    /// A sequence of `len` elements whose length is spelled `sym`.
    pub fn seq(mut self, len: (usize, usize), sym: Option<String>) -> Var {
        self.len = len;
        self.len_sym = sym;
        self
    }

    /// Mutable with room `cap`; reads then see `[-cap, cap]`.
    pub fn mutable(mut self, cap: f64, trips: u64) -> Var {
        let used = self.iv.mag();
        self.budget = Some(Budget { cap, used, trips });
        self.iv = Iv::sym(cap);
        self.data_sure = false;
        self
    }

    pub fn is_mut(&self) -> bool {
        self.budget.is_some()
    }

    /// Whether `index` (an index expression with interval `iv` known valid for the
    /// sequences in `valid_for`) is in bounds for this sequence.
    pub fn indexable_by(&self, hi: f64, valid_for: &[String]) -> bool {
        valid_for.contains(&self.name) || (hi as usize) < self.len.0 && hi >= 0.0
    }
}

/// Nested blocks of bindings; the innermost binding of a name wins.
#[derive(Default)]
pub struct Scopes {
    frames: Vec<Vec<Var>>,
}

impl Scopes {
    pub fn push(&mut self) {
        self.frames.push(Vec::new());
    }

    pub fn pop(&mut self) {
        self.frames.pop();
    }

    pub fn add(&mut self, v: Var) {
        self.frames
            .last_mut()
            .expect("a scope is always open while generating")
            .push(v);
    }

    /// Every visible binding (shadowed ones excluded), outermost first.
    pub fn visible(&self) -> Vec<&Var> {
        let mut out: Vec<&Var> = Vec::new();
        for v in self.frames.iter().flatten() {
            out.retain(|o| o.name != v.name);
            out.push(v);
        }
        out.retain(|v| !v.hidden);
        out
    }

    /// The visible binding called `name`.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Var> {
        self.frames
            .iter_mut()
            .rev()
            .flat_map(|f| f.iter_mut().rev())
            .find(|v| v.name == name)
    }

    /// Set `frozen` (or `hidden`) on `name`; returns the previous flag.
    pub fn set_frozen(&mut self, name: &str, frozen: bool) -> bool {
        let v = self.get_mut(name).expect("freezing a visible binding");
        std::mem::replace(&mut v.frozen, frozen)
    }

    pub fn set_hidden(&mut self, name: &str, hidden: bool) {
        if let Some(v) = self.get_mut(name) {
            v.hidden = hidden;
        }
    }
}
