//! Expressions of the mutation families: reads of the values being updated, constants
//! and data as scales in any position of a product (`0.5 * v * w`, `v * k / 2.0 * w`,
//! `n as f64 * v`, `(0.9 + 0.1 * v) * w`), factors for `*=`, denominators kept away from
//! zero by their form, conditions, and indices proved in bounds.

use super::ast::{Cond, Ex, Ix};
use super::{BKind, Bind, Gen};

/// Constants as numeric code spells them (never negative; negated where needed).
const CONSTS: &[(&str, f64)] = &[
    ("0.5", 0.5),
    ("2.0", 2.0),
    ("0.1", 0.1),
    ("0.25", 0.25),
    ("1.5", 1.5),
    ("3.0", 3.0),
    ("0.9", 0.9),
    ("0.05", 0.05),
    ("4.0", 4.0),
    ("1e-2", 1e-2),
    ("0.5_f64", 0.5),
    ("2f64", 2.0),
];

/// Coefficients of increments, largest first (later draws of a statement use smaller).
const COEFS: &[(&str, f64)] = &[
    ("0.5", 0.5),
    ("0.25", 0.25),
    ("0.1", 0.1),
    ("0.05", 0.05),
    ("1e-2", 1e-2),
    ("1e-3", 1e-3),
];

impl Gen<'_> {
    pub fn lit(&mut self) -> Ex {
        let (s, v) = self.pick(CONSTS);
        Ex::Lit(s, v)
    }

    /// A coefficient for an increment, smaller as the statement is drawn again.
    pub fn coef(&mut self) -> Ex {
        let lo = (self.calm as usize).min(COEFS.len() - 2);
        let (s, v) = COEFS[self.rng.usize(lo..COEFS.len())];
        Ex::Lit(s, v)
    }

    /// The `usize` bindings in scope (loop variables, counts).
    fn usizes(&self) -> Vec<Bind> {
        self.find(|b| matches!(b.kind, BKind::Usize { .. }))
    }

    /// A read of an `f64` value that may depend on the active inputs: mostly the values
    /// being updated, also temporaries, parameters, elements and methods of them.
    pub fn operand(&mut self) -> Ex {
        let states = self.find(|b| b.kind == BKind::F64 && b.mutable && !b.frozen);
        let others = self.find(|b| b.kind == BKind::F64 && !b.mutable && !b.data);
        let seqs = self.find(|b| matches!(b.kind, BKind::Seq { .. }) && !b.frozen);
        let typed = self.find(|b| b.kind == BKind::F64 && b.typed && !b.data && !b.frozen);
        let w = [
            6 * !states.is_empty() as u32,
            2 * !others.is_empty() as u32,
            2 * !seqs.is_empty() as u32,
            !typed.is_empty() as u32,
        ];
        match self.weighted(&w) {
            _ if w.iter().all(|w| *w == 0) => Ex::lit("0.0", 0.0),
            0 => Ex::Name(self.pick(&states).name),
            1 => Ex::Name(self.pick(&others).name),
            2 => {
                let s = self.pick(&seqs);
                let i = self.index_for(&s);
                Ex::Elem(s.name, i)
            }
            _ => {
                let v = Ex::Name(self.pick(&typed).name);
                self.method_of(v)
            }
        }
    }

    /// A read whose type is known to be `f64` where it is written (a method receiver):
    /// a typed binding, an element, or a method of one.
    pub fn typed_operand(&mut self) -> Ex {
        for _ in 0..4 {
            let e = self.operand();
            if self.typed_expr(&e) {
                return e;
            }
        }
        let params = self.inputs();
        Ex::Name(self.pick(&params).name)
    }

    /// Whether `e`'s type is `f64` where it is written, not an open `{float}`.
    pub fn typed_expr(&self, e: &Ex) -> bool {
        match e {
            Ex::Lit(..) => false,
            // An element is as typed as its sequence (`[acc, 3.0]` of an unannotated
            // `let mut acc = 0.5;` holds `{float}`s).
            Ex::Name(n) | Ex::Elem(n, _) => self
                .binds
                .iter()
                .rev()
                .find(|b| &b.name == n)
                .is_some_and(|b| b.typed),
            Ex::Cast(_) | Ex::Call(..) | Ex::Call2(..) | Ex::Powi(..) => true,
            Ex::Bin(_, a, b) => self.typed_expr(a) || self.typed_expr(b),
            Ex::Neg(a) => self.typed_expr(a),
            Ex::If(_, a, b) => self.typed_expr(a) || self.typed_expr(b),
        }
    }

    /// `v.sin()`, `(v * v + 1.0).ln()`, `v.max(w)`, ... of a typed `v`.
    fn method_of(&mut self, v: Ex) -> Ex {
        match self.weighted(&[3, 3, 2, 1, 1, 1, 1, 2, 1]) {
            7 => Ex::Powi(Box::new(v), self.pick(&[2, 2, 3])),
            8 => {
                let w = self.operand();
                let m = self.pick(&["max", "min", "hypot"]);
                Ex::Call2(m, Box::new(v), Box::new(w))
            }
            0 => v.call("sin"),
            1 => v.call("cos"),
            2 => v.call("tanh"),
            3 => v.call("abs"),
            4 => v.call("atan"),
            5 => v
                .clone()
                .bin('*', v)
                .bin('+', Ex::lit("1.0", 1.0))
                .call("ln"),
            _ => v
                .clone()
                .bin('*', v)
                .bin('+', Ex::lit("0.1", 0.1))
                .call("sqrt"),
        }
    }

    /// A constant or data factor: a literal, a data `f64`, `k as f64`, a named constant.
    pub fn scale(&mut self) -> Ex {
        let data = self.find(|b| b.kind == BKind::F64 && b.data);
        let us = self.usizes();
        match self.weighted(&[5, 3 * !data.is_empty() as u32, 2 * !us.is_empty() as u32]) {
            1 => Ex::Name(self.pick(&data).name),
            2 => {
                self.tag("cast-scale");
                Ex::Cast(Ix::Name(self.pick(&us).name))
            }
            _ => self.lit(),
        }
    }

    /// `v` scaled by a constant or data: `c * v`, `v * c`, `v / 2.0`, `k as f64 * v`,
    /// `0.9 + 0.1 * v`, `-c * v` (the operand issue 18 recomputed wrongly).
    pub fn scaled(&mut self, v: Ex) -> Ex {
        self.tag("scaled-operand");
        match self.weighted(&[4, 2, 2, 2, 1]) {
            0 => self.scale().bin('*', v),
            1 => v.bin('*', self.scale()),
            2 => {
                let d = self.divisor();
                v.bin('/', d)
            }
            3 => {
                let (c0, c1) = self.pick(&[
                    (("0.9", 0.9), ("0.1", 0.1)),
                    (("1.0", 1.0), ("0.5", 0.5)),
                    (("1.0", 1.0), ("0.25", 0.25)),
                    (("0.5", 0.5), ("0.5", 0.5)),
                ]);
                let c1 = Ex::Lit(c1.0, c1.1).bin('*', v);
                Ex::Lit(c0.0, c0.1).bin(if self.chance(0.7) { '+' } else { '-' }, c1)
            }
            _ => self.scale().neg().bin('*', v),
        }
    }

    /// A constant or data divisor away from zero: `2.0`, `(k as f64 + 1.0)`.
    fn divisor(&mut self) -> Ex {
        if let Some(k) = self.data_local(0.4) {
            return k;
        }
        let us = self.usizes();
        if !us.is_empty() && self.chance(0.3) {
            let k = Ex::Cast(Ix::Name(self.pick(&us).name));
            return k.bin('+', Ex::lit("1.0", 1.0));
        }
        let (s, v) = self.pick(&[("2.0", 2.0), ("4.0", 4.0), ("10.0", 10.0), ("3.0", 3.0)]);
        Ex::Lit(s, v)
    }

    /// The data locals updated in place (`--data-states`; none otherwise).
    fn data_locals(&self) -> Vec<Bind> {
        if !self.data_states {
            return Vec::new();
        }
        self.find(|b| b.data && b.mutable && b.kind == BKind::F64 && b.name.starts_with('k'))
    }

    /// With probability `p`, one of the data locals (a divisor: they stay positive).
    fn data_local(&mut self, p: f64) -> Option<Ex> {
        let ks = self.data_locals();
        if ks.is_empty() || !self.chance(p) {
            return None;
        }
        Some(Ex::Name(self.pick(&ks).name))
    }

    /// A product of `n` (2 to 4) factors, constants and data in any position, at least
    /// one read; `must` (if any) is one of the factors.
    pub fn product(&mut self, n: usize, must: Option<Ex>) -> Ex {
        let at = must.as_ref().map(|_| self.rng.usize(0..n));
        let mut read = false;
        let mut factors: Vec<Ex> = (0..n)
            .map(|i| {
                if Some(i) == at {
                    read = true;
                    return must.clone().expect("`at` is set with `must`");
                }
                match self.weighted(&[5, 3, 2]) {
                    0 => {
                        read = true;
                        self.operand()
                    }
                    1 => self.scale(),
                    _ => {
                        read = true;
                        let v = self.operand();
                        self.scaled(v)
                    }
                }
            })
            .collect();
        if !read {
            let i = self.rng.usize(0..n);
            factors[i] = self.operand();
        }
        let mut it = factors.into_iter();
        let mut acc = it.next().expect("n >= 1");
        for f in it {
            acc = if self.chance(0.15) {
                let d = if self.chance(0.5) {
                    self.divisor()
                } else {
                    self.denominator()
                };
                acc.bin('/', d).bin('*', f)
            } else {
                acc.bin('*', f)
            };
        }
        self.tag(&format!("product-{n}"));
        acc
    }

    /// The right side of an increment: a product, a scaled read, a difference of
    /// products; `must` (if any) is read.
    pub fn term(&mut self, must: Option<Ex>) -> Ex {
        match self.weighted(&[6, 2, 2, 1]) {
            0 => {
                let n = self.rng.usize(2..5);
                self.product(n, must)
            }
            1 => {
                let v = must.unwrap_or_else(|| self.operand());
                self.scaled(v)
            }
            2 => {
                let a = self.product(2, must);
                let b = self.product(2, None);
                a.bin(if self.chance(0.5) { '+' } else { '-' }, b)
            }
            _ => must.unwrap_or_else(|| self.operand()),
        }
    }

    /// A factor for `*=`: `(0.9 + 0.1 * w)`, `0.5`, `w.cos()`, `c`, `k as f64 * w`.
    pub fn mul_factor(&mut self) -> Ex {
        // (With data states off, the last weight is 0 and the draws are those without it.)
        let ks = !self.data_locals().is_empty() as u32;
        match self.weighted(&[3, 2, 1, 2, 1, 3 * ks]) {
            5 => {
                let k = self.pick(&self.data_locals());
                Ex::Name(k.name)
            }
            0 => {
                let w = self.operand();
                let c1 = self.coef();
                Ex::lit("1.0", 1.0).bin(if self.chance(0.5) { '+' } else { '-' }, c1.bin('*', w))
            }
            1 => {
                let (s, v) = self.pick(&[("0.5", 0.5), ("0.9", 0.9), ("0.99", 0.99), ("1.5", 1.5)]);
                Ex::Lit(s, v)
            }
            2 => {
                // Bounded: `v *= v.powi(3)` in a loop is `v^(4^n)`, whose derivative
                // overflows long before its value does.
                let w = self.typed_operand();
                w.call(self.pick(&["sin", "cos", "tanh", "atan"]))
            }
            3 => {
                let w = self.operand();
                self.scaled(w)
            }
            _ => self.scale(),
        }
    }

    /// A denominator positive by its form: `(1.0 + w * w)`, `(w.abs() + 1.0)`,
    /// `(2.0 + w.sin())`, `(k as f64 + 1.0)`, `2.0`.
    pub fn denominator(&mut self) -> Ex {
        let one = Ex::lit("1.0", 1.0);
        match self.weighted(&[3, 2, 1, 2]) {
            0 => {
                let w = self.operand();
                one.bin('+', w.clone().bin('*', w))
            }
            1 => {
                let w = self.typed_operand();
                w.call("abs").bin('+', one)
            }
            2 => {
                let w = self.typed_operand();
                Ex::lit("2.0", 2.0).bin('+', w.call("sin"))
            }
            _ => self.divisor(),
        }
    }

    /// A condition on the updated values, on data, on a count or a flag.
    pub fn cond(&mut self) -> Cond {
        let data = self.find(|b| b.kind == BKind::F64 && b.data && b.typed);
        let us = self.usizes();
        let flags = self.find(|b| b.kind == BKind::Bool);
        let op = self.pick(&["<", ">", "<=", ">="]);
        let w = [
            3,
            3,
            1,
            !data.is_empty() as u32,
            !us.is_empty() as u32,
            !flags.is_empty() as u32,
        ];
        let c = match self.weighted(&w) {
            0 => Cond::Cmp(self.operand(), op, self.operand()),
            1 => {
                let l = self.lit();
                let l = if self.chance(0.5) { l.neg() } else { l };
                Cond::Cmp(self.operand(), op, l)
            }
            2 => {
                let v = self.operand();
                Cond::Cmp(self.scaled(v), op, self.operand())
            }
            3 => Cond::Cmp(Ex::Name(self.pick(&data).name), op, self.lit()),
            4 => Cond::Even(Ix::Name(self.pick(&us).name)),
            _ => Cond::Flag(self.pick(&flags).name, self.chance(0.7)),
        };
        let mut reads = Vec::new();
        c.reads(&mut reads);
        let active = reads
            .iter()
            .any(|r| self.binds.iter().any(|b| &b.name == r && !b.data));
        self.tag(if active {
            "branch-active"
        } else {
            "branch-data"
        });
        c
    }

    /// An index in bounds for sequence `s`.
    pub fn index_for(&mut self, s: &Bind) -> Ix {
        let BKind::Seq { len } = s.kind else {
            panic!("generator bug: indexing {} which is not a sequence", s.name)
        };
        let mut cands = vec![Ix::Const(self.rng.usize(0..len))];
        for u in self.usizes() {
            let BKind::Usize { max } = u.kind else {
                continue;
            };
            if max < len {
                cands.extend([Ix::Name(u.name.clone()), Ix::Name(u.name.clone())]);
                cands.push(Ix::Rev(u.name.clone(), len));
            }
            if max + 1 < len {
                cands.push(Ix::Plus(u.name.clone(), 1));
            }
            cands.push(Ix::Wrap(u.name.clone(), len));
        }
        self.pick(&cands)
    }
}
