//! `f64`, `usize` and `bool` expressions. Every generated `f64` expression carries an
//! interval containing its value ([`Iv`]), whether it may be active, and enough about its
//! syntax (precedence, `&f64`-ness, literal-ness) to be placed anywhere without changing
//! its meaning or failing to type-check as plain Rust.

use super::ctx::{Ctx, HParam, HELPER_ARG};
use super::interval::Iv;
use super::scope::{Ty, Var};

/// A generated `f64` expression.
#[derive(Clone, Debug)]
pub struct E {
    pub code: String,
    pub iv: Iv,
    /// May depend on an active parameter.
    pub active: bool,
    /// Surely data (see [`Var::data_sure`]).
    pub data: bool,
    /// 0 atom, 1 unary or cast, 2 `*` `/` `%`, 3 `+` `-`.
    pub prec: u8,
    /// 0 an `f64`, 1 an `&f64`, 2 an `&&f64`.
    pub by_ref: u8,
    /// An unsuffixed float literal: needs `_f64` to be a method receiver.
    pub lit: bool,
    /// An `as` cast: needs parentheses left of `<`.
    pub cast: bool,
    /// Built only from unsuffixed literals, so its type is an unresolved `{float}`: it
    /// cannot be a method receiver (`(0.1 + 2.0).round()` does not compile).
    pub untyped: bool,
}

impl E {
    pub fn atom(code: impl Into<String>, iv: Iv, active: bool, data: bool) -> E {
        let code: String = code.into();
        let lit = !code.is_empty()
            && code
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'-');
        E {
            code,
            iv,
            active,
            data,
            prec: 0,
            by_ref: 0,
            lit,
            cast: false,
            untyped: lit,
        }
    }

    /// The same expression as an `f64` (dereferenced).
    pub fn val(self) -> E {
        if self.by_ref == 0 {
            return self;
        }
        let stars = "*".repeat(self.by_ref as usize);
        E {
            code: format!("{stars}{}", self.code),
            prec: 1,
            by_ref: 0,
            ..self
        }
    }

    /// The code, parenthesised if its precedence is above `max`.
    pub fn at(&self, max: u8) -> String {
        if self.prec > max {
            format!("({})", self.code)
        } else {
            self.code.clone()
        }
    }

    /// The code as a method receiver (`2.0_f64.sqrt()`, `(a + b).ln()`).
    pub fn recv(&self) -> String {
        if self.lit {
            let digits = self.code.trim_start_matches('-');
            if !digits
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '_'))
            {
                // Built from literals but not one (`-(-10.0)`): typed by an `f64` operand.
                return format!("({} + 0f64)", self.code);
            }
            let suffixed = format!("{digits}_f64");
            return if self.code.starts_with('-') {
                format!("(-{suffixed})")
            } else {
                suffixed
            };
        }
        self.at(0)
    }

    /// `self.name(args)`, or `f64::name(self, args)` where a method call would not
    /// type-check (an untyped receiver).
    pub fn method(&self, name: &str, args: &str) -> String {
        if self.untyped && !self.lit {
            let sep = if args.is_empty() { "" } else { ", " };
            format!("f64::{name}({}{sep}{args})", self.code)
        } else {
            format!("{}.{name}({args})", self.recv())
        }
    }

    /// Derived from `parts`: active if any is, data if all are.
    pub fn from(code: String, iv: Iv, prec: u8, parts: &[&E]) -> E {
        E {
            code,
            iv,
            active: parts.iter().any(|p| p.active),
            data: parts.iter().all(|p| p.data),
            prec,
            by_ref: 0,
            lit: false,
            cast: false,
            untyped: false,
        }
    }
}

/// A generated `usize` expression: its range and the sequences it indexes safely.
#[derive(Clone, Debug)]
pub struct U {
    pub code: String,
    pub lo: usize,
    pub hi: usize,
    pub valid_for: Vec<String>,
    pub atom: bool,
}

/// Literals as numeric code spells them: value, spelling, integer-spelled.
const LITERALS: &[(f64, &str, bool)] = &[
    (0.5, "0.5", false),
    (2.0, "2.0", false),
    (1.0, "1.0", false),
    (0.1, "0.1", false),
    (3.0, "3.0", false),
    (0.25, "0.25", false),
    (1.5, "1.5", false),
    (1e-3, "1e-3", false),
    (10.0, "10.0", false),
    (0.0, "0.0", false),
    (2.0, "2f64", true),
    (1.0, "1_f64", true),
    (0.5, "0.5_f64", false),
    (0.0, "0f64", true),
    (4.0, "4.0f64", false),
];

impl Ctx<'_> {
    /// A float literal (never negative; negate with [`Ctx::neg`]).
    pub fn literal(&mut self) -> E {
        let (v, s, int) = self.pick(LITERALS);
        if int {
            self.tag("int-float-literal");
        }
        let mut e = E::atom(s, Iv::point(v), false, true);
        e.lit = !s.contains("f64");
        e.untyped = e.lit;
        e
    }

    pub fn neg(&mut self, e: E) -> E {
        let code = format!("-{}", e.at(0));
        let mut n = E::from(code, e.iv.neg(), 1, &[&e]);
        n.lit = e.lit;
        n.untyped = e.untyped;
        n
    }

    /// `a op b` for `op` in `+ - * / %`; the caller keeps `b` away from zero for `/`.
    pub fn bin(&mut self, a: &E, op: &str, b: &E) -> E {
        let level = if op == "+" || op == "-" { 3 } else { 2 };
        let a = if a.by_ref > 1 {
            a.clone().val()
        } else {
            a.clone()
        };
        let b = if b.by_ref > 1 {
            b.clone().val()
        } else {
            b.clone()
        };
        let iv = match op {
            "+" => a.iv.add(b.iv),
            "-" => a.iv.sub(b.iv),
            "*" => a.iv.mul(b.iv),
            "/" => a.iv.div(b.iv),
            _ => Iv::sym(b.iv.mag()),
        };
        let code = format!("{} {op} {}", a.at(level), b.at(level - 1));
        let mut e = E::from(code, iv, level, &[&a, &b]);
        e.untyped = a.untyped && b.untyped;
        e
    }

    /// Keep `e` within [`super::interval::LIMIT`], squashing it if needed.
    pub fn tame(&mut self, e: E) -> E {
        if e.iv.tame() {
            return e;
        }
        let code = e.method("tanh", "");
        E::from(code, Iv::sym(1.0), 0, &[&e])
    }

    /// An expression with magnitude at most `m` (squashed with `tanh` if needed).
    pub fn within(&mut self, e: E, m: f64) -> E {
        if e.iv.mag() <= m {
            return e;
        }
        let code = e.method("tanh", "");
        E::from(code, Iv::sym(1.0), 0, &[&e])
    }

    /// An `f64` expression of nesting depth at most `depth`.
    pub fn expr(&mut self, depth: u32) -> E {
        if depth == 0 {
            return self.leaf();
        }
        let closures = !self.vars(|v| matches!(v.ty, Ty::Closure { .. })).is_empty();
        let helpers = !self.helpers.is_empty();
        let w = [4, 7, 6, 3, 1, 2 * closures as u32, 2 * helpers as u32, 2];
        let e = match self.weighted(&w) {
            0 => self.leaf(),
            1 => self.arith(depth),
            2 => {
                let r = self.expr(depth - 1);
                self.unary_method(r)
            }
            3 => self.binary_method(depth),
            4 => self.path_call(depth),
            5 => self.closure_call(depth),
            6 => self.helper_call(depth).unwrap_or_else(|| self.leaf()),
            _ => self.chain().unwrap_or_else(|| self.leaf()),
        };
        self.tame(e)
    }

    fn arith(&mut self, depth: u32) -> E {
        let a = self.expr(depth - 1);
        match self.weighted(&[5, 4, 6, 3, 1]) {
            0 => {
                let b = self.expr(depth - 1);
                self.bin(&a, "+", &b)
            }
            1 => {
                let b = self.expr(depth - 1);
                self.bin(&a, "-", &b)
            }
            2 => {
                let b = self.expr(depth - 1);
                self.bin(&a, "*", &b)
            }
            3 => {
                let d = self.denominator(depth - 1);
                self.bin(&a, "/", &d)
            }
            _ => self.neg(a),
        }
    }

    /// An expression at least 0.1 away from zero, as denominators are written.
    pub fn denominator(&mut self, depth: u32) -> E {
        let e = self.expr(depth);
        if e.iv.away_from_zero(0.1) && self.chance(0.5) {
            return e;
        }
        match self.weighted(&[3, 2, 2, 1]) {
            0 => {
                let one = E::atom("1.0", Iv::point(1.0), false, true);
                let sq = self.bin(&e, "*", &e);
                self.bin(&one, "+", &sq)
            }
            1 => self.positive(e),
            2 => self.literal_away(),
            _ => match self.usize_expr(1, false) {
                Some(u) => {
                    let c = self.cast_f64(&u);
                    let one = E::atom("1.0", Iv::point(1.0), false, true);
                    self.bin(&c, "+", &one)
                }
                None => self.literal_away(),
            },
        }
    }

    fn literal_away(&mut self) -> E {
        let (v, s) = self.pick(&[(2.0, "2.0"), (4.0, "4.0"), (10.0, "10.0"), (3.0, "3.0")]);
        let mut e = E::atom(s, Iv::point(v), false, true);
        e.lit = true;
        e.untyped = true;
        e
    }

    /// An expression that is at least 0.05, built from `e` (`e * e + 1.0`, `e.abs() +
    /// 0.5`, `e.exp()`), or `e` itself if it already is.
    pub fn positive(&mut self, e: E) -> E {
        if e.iv.above(0.05) {
            return e;
        }
        match self.weighted(&[3, 2, 1 + 2 * (e.iv.hi <= 5.0) as u32]) {
            0 => {
                let sq = self.bin(&e, "*", &e);
                let c = self.pick(&[(1.0, "1.0"), (0.5, "0.5"), (1e-2, "1e-2")]);
                let c = E::atom(c.1, Iv::point(c.0), false, true);
                self.bin(&sq, "+", &c)
            }
            1 => {
                let a = E::from(e.method("abs", ""), e.iv.abs(), 0, &[&e]);
                let c = E::atom("0.5", Iv::point(0.5), false, true);
                self.bin(&a, "+", &c)
            }
            _ if e.iv.hi <= 5.0 => E::from(e.method("exp", ""), e.iv.monotone(f64::exp), 0, &[&e]),
            _ => {
                let t = self.within(e, 1.0);
                E::from(t.method("exp", ""), t.iv.monotone(f64::exp), 0, &[&t])
            }
        }
    }

    /// A leaf: a binding, an element, a literal, a constant, a cast, a tuple field.
    pub fn leaf(&mut self) -> E {
        let r = self.weighted(&[8, 6, 3, 1, 1, 1]);
        let e = match r {
            0 => self.read_f64(),
            1 => self.element(),
            2 => Some(self.literal()),
            3 => self.const_path(),
            4 => self.usize_expr(0, false).map(|u| self.cast_f64(&u)),
            _ => self.tuple_field(),
        };
        match e {
            Some(e) => e,
            None => self.read_f64().unwrap_or_else(|| self.literal()),
        }
    }

    /// A visible `f64` binding.
    pub fn read_f64(&mut self) -> Option<E> {
        let v = self.pick_var(true, |v| v.ty == Ty::F64)?;
        Some(var_expr(&v))
    }

    /// `s[i]` for a visible sequence `s` and an index proved in bounds.
    pub fn element(&mut self) -> Option<E> {
        let s = self.pick_var(true, |v| v.ty.is_seq())?;
        let i = self.index_for(&s)?;
        let code = format!("{}[{}]", s.name, i);
        Some(E::atom(code, s.iv, s.active, s.data_sure))
    }

    fn const_path(&mut self) -> Option<E> {
        self.tag("const-path");
        let (v, s) = self.pick(&[
            (std::f64::consts::PI, "std::f64::consts::PI"),
            (std::f64::consts::E, "std::f64::consts::E"),
            (std::f64::consts::LN_2, "std::f64::consts::LN_2"),
            (std::f64::consts::FRAC_PI_2, "std::f64::consts::FRAC_PI_2"),
            (f64::EPSILON, "f64::EPSILON"),
        ]);
        Some(E::atom(s, Iv::point(v), false, true))
    }

    fn tuple_field(&mut self) -> Option<E> {
        let t = self.pick_var(true, |v| matches!(v.ty, Ty::Tup2(_)))?;
        let Ty::Tup2(ivs) = t.ty else { return None };
        let i = self.rng.usize(0..2);
        self.tag("tuple");
        let code = format!("{}.{i}", t.name);
        Some(E::atom(code, ivs[i], t.active, t.data_sure))
    }

    /// `u as f64`.
    pub fn cast_f64(&mut self, u: &U) -> E {
        self.tag("as-f64");
        let inner = if u.atom {
            u.code.clone()
        } else {
            format!("({})", u.code)
        };
        let mut e = E::atom(
            format!("{inner} as f64"),
            Iv::new(u.lo as f64, u.hi as f64),
            false,
            true,
        );
        e.prec = 1;
        e.cast = true;
        e
    }

    /// A closure call `g(arg)`, its argument tamed to what `g` accepts.
    fn closure_call(&mut self, depth: u32) -> E {
        let Some(g) = self.pick_var(false, |v| matches!(v.ty, Ty::Closure { .. })) else {
            return self.leaf();
        };
        let Ty::Closure { arg } = g.ty else {
            unreachable!()
        };
        let a = self.expr(depth - 1).val();
        let a = self.within(a, arg);
        self.tag(if a.active {
            "closure-call-active"
        } else {
            "closure-call-data"
        });
        let code = format!("{}({})", g.name, a.code);
        let mut e = E::from(code, g.iv, 0, &[&a]);
        e.active |= g.active;
        e.data &= g.data_sure;
        e
    }

    /// A call of a helper function, with arguments it accepts; `None` if none fits.
    pub fn helper_call(&mut self, depth: u32) -> Option<E> {
        let h = self.pick(&self.helpers.clone());
        let mut args = Vec::new();
        let mut parts = Vec::new();
        for p in &h.params {
            let a = match p {
                HParam::F64 if h.differentiated => {
                    let a = self.expr(depth - 1).val();
                    self.within(a, HELPER_ARG)
                }
                HParam::F64 => self.data_expr()?,
                HParam::Slice => self.slice_arg(!h.differentiated)?,
            };
            args.push(a.code.clone());
            parts.push(a);
        }
        let refs: Vec<&E> = parts.iter().collect();
        let call = format!("{}({})", h.name, args.join(", "));
        let mut e = E::from(call, h.out, 0, &refs);
        let (some, all) = (refs.iter().any(|p| p.active), refs.iter().all(|p| p.active));
        self.tag(match (h.differentiated, some, all) {
            (false, _, _) => "call-plain-helper",
            (true, false, _) => "call-helper-data",
            (true, true, true) => "call-helper-active",
            (true, true, false) => "call-helper-mixed",
        });
        if h.result {
            if self.result && self.in_closure == 0 {
                self.tag("question-mark");
                e.code.push('?');
            } else {
                self.tag("unwrap-or");
                e.code.push_str(".unwrap_or(0.0)");
                e.iv = e.iv.hull(Iv::point(0.0));
            }
        }
        Some(e)
    }

    /// A surely-data expression (for plain helpers): a data binding, element or literal.
    pub fn data_expr(&mut self) -> Option<E> {
        let vs = self.vars(|v| v.data_sure && (v.ty == Ty::F64 || v.ty.is_seq()));
        if vs.is_empty() || self.chance(0.2) {
            return Some(self.literal());
        }
        let v = self.pick(&vs);
        let e = if v.ty == Ty::F64 {
            var_expr(&v).val()
        } else {
            let i = self.index_for(&v)?;
            E::atom(format!("{}[{i}]", v.name), v.iv, false, true)
        };
        Some(self.within(e, HELPER_ARG))
    }

    /// A sequence passed as `&[f64]`; surely data if `data`.
    fn slice_arg(&mut self, data: bool) -> Option<E> {
        let s = self.pick_var(!data, |v| {
            v.ty.is_seq() && v.iv.mag() <= HELPER_ARG && (!data || v.data_sure)
        })?;
        let code = match s.ty {
            Ty::Slice => s.name.clone(),
            _ => format!("&{}", s.name),
        };
        Some(E::atom(code, s.iv, s.active, s.data_sure))
    }

    /// An index expression in bounds for sequence `s`, if one can be proved.
    pub fn index_for(&mut self, s: &Var) -> Option<String> {
        let mut cands: Vec<String> = Vec::new();
        let len = s.len.0;
        for u in self.vars(|v| v.ty == Ty::Usize) {
            let ok = s.indexable_by(u.iv.hi, &u.valid_for);
            if ok {
                cands.push(u.name.clone());
                cands.push(u.name.clone());
                if u.valid_for.contains(&s.name) {
                    cands.push(format!("{}.len() - 1 - {}", s.name, u.name));
                }
            }
            if u.iv.lo >= 1.0 && (ok || (u.iv.hi as usize) <= len) {
                cands.push(format!("{} - 1", u.name));
            }
            if (u.iv.hi as usize) + 1 < len {
                cands.push(format!("{} + 1", u.name));
            }
            if len > 0 && self.chance(0.3) {
                cands.push(format!("({} + 1) % {}.len()", u.name, s.name));
            }
        }
        for ix in self.vars(|v| v.ty == Ty::SliceUsize && (v.iv.hi as usize) < len) {
            for u in self.vars(|v| v.ty == Ty::Usize && ix.indexable_by(v.iv.hi, &v.valid_for)) {
                self.tag("index-through-data");
                cands.push(format!("{}[{}]", ix.name, u.name));
            }
            cands.push(format!("{}[0]", ix.name));
        }
        if len > 0 {
            cands.push(self.rng.usize(0..len).to_string());
            cands.push(format!("{}.len() - 1", s.name));
        }
        if cands.is_empty() {
            return None;
        }
        Some(self.pick(&cands))
    }

    /// A `usize` expression at least `min`; `cast_ok` allows `(data as f64) as usize`.
    pub fn usize_expr(&mut self, min: usize, cast_ok: bool) -> Option<U> {
        let mut cands: Vec<U> = Vec::new();
        for u in self.vars(|v| v.ty == Ty::Usize && v.iv.lo as usize >= min) {
            cands.push(U {
                code: u.name.clone(),
                lo: u.iv.lo as usize,
                hi: u.iv.hi as usize,
                valid_for: u.valid_for.clone(),
                atom: true,
            });
        }
        for s in self.vars(|v| v.ty.is_seq() && v.len.0 >= min) {
            cands.push(U {
                code: format!("{}.len()", s.name),
                lo: s.len.0,
                hi: s.len.1,
                valid_for: Vec::new(),
                atom: true,
            });
        }
        if cast_ok && self.chance(0.3) {
            if let Some(u) = self.usize_from_cast(min) {
                cands.push(u);
            }
        }
        if min <= 2 {
            let c = self.rng.usize(min.max(1)..4);
            cands.push(U {
                code: c.to_string(),
                lo: c,
                hi: c,
                valid_for: Vec::new(),
                atom: true,
            });
        }
        if cands.is_empty() {
            return None;
        }
        Some(self.pick(&cands))
    }

    /// `(0.1 * n as f64).ceil() as usize` style: a cast of data to an index count.
    fn usize_from_cast(&mut self, min: usize) -> Option<U> {
        let u = self.usize_expr(min.max(1), false)?;
        let n = self.cast_f64(&u);
        self.tag("as-usize");
        let (f, name) = self.pick(&[(0.5, "ceil"), (0.3, "ceil"), (0.5, "round")]);
        let lo = ((u.lo as f64 * f).floor() as usize).max(1).max(min);
        let hi = ((u.hi as f64 * f).ceil() as usize).max(lo);
        let code = format!("({f:?} * {}).{name}().max({lo}.0) as usize", n.code);
        Some(U {
            code,
            lo,
            hi,
            valid_for: Vec::new(),
            atom: false,
        })
    }
}

/// The expression reading binding `v`.
pub fn var_expr(v: &Var) -> E {
    let mut e = E::atom(v.name.clone(), v.iv, v.active, v.data_sure);
    e.by_ref = if v.by_ref2 { 2 } else { v.by_ref as u8 };
    e.untyped = v.untyped;
    e
}
