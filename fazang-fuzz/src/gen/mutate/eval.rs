//! Running the tree of [`super::ast`] on `f64`, at sample inputs drawn as the harness draws
//! them, while it is generated: a statement whose values leave [`MAG`] (or stop being
//! finite) at any sample is not kept. This keeps integrators and products of updated
//! values tame without squashing them (`tanh`), so the bodies read as users write them.

use super::ast::{Bound, Cond, Ex, Init, Ix, Line, Place, St};
use std::collections::HashMap;

/// The largest magnitude a generated value may take at a sample.
pub const MAG: f64 = 1e3;

/// A value at one sample.
#[derive(Clone, Debug)]
pub enum Val {
    F(f64),
    U(usize),
    B(bool),
    S(Vec<f64>),
}

/// The bindings at one sample, and whether any value went out of range.
#[derive(Clone, Debug, Default)]
pub struct Env {
    vals: HashMap<String, Val>,
    pub bad: bool,
}

impl Env {
    pub fn set(&mut self, name: &str, v: Val) {
        self.check(&v);
        self.vals.insert(name.to_string(), v);
    }

    fn check(&mut self, v: &Val) {
        let ok = |x: f64| x.is_finite() && x.abs() <= MAG;
        match v {
            Val::F(x) => self.bad |= !ok(*x),
            Val::S(xs) => self.bad |= !xs.iter().all(|x| ok(*x)),
            _ => {}
        }
    }

    fn f(&self, n: &str) -> f64 {
        match self.vals.get(n) {
            Some(Val::F(x)) => *x,
            other => panic!("generator bug: {n} is not an f64 here ({other:?})"),
        }
    }

    fn u(&self, n: &str) -> usize {
        match self.vals.get(n) {
            Some(Val::U(x)) => *x,
            other => panic!("generator bug: {n} is not a usize here ({other:?})"),
        }
    }

    fn seq(&self, n: &str) -> &[f64] {
        match self.vals.get(n) {
            Some(Val::S(x)) => x,
            other => panic!("generator bug: {n} is not a sequence here ({other:?})"),
        }
    }

    pub fn ix(&self, i: &Ix) -> usize {
        match i {
            Ix::Const(c) => *c,
            Ix::Name(n) => self.u(n),
            Ix::Plus(n, c) => self.u(n) + c,
            Ix::Minus(n, c) => self.u(n) - c,
            Ix::Wrap(n, m) => (self.u(n) + 1) % m,
            Ix::Rev(n, m) => m - 1 - self.u(n),
        }
    }

    /// The value of `e`; an index out of bounds is a generator bug (it panics).
    pub fn eval(&self, e: &Ex) -> f64 {
        match e {
            Ex::Lit(_, v) => *v,
            Ex::Name(n) => self.f(n),
            Ex::Elem(s, i) => self.seq(s)[self.ix(i)],
            Ex::Cast(i) => self.ix(i) as f64,
            Ex::Bin(op, a, b) => {
                let (a, b) = (self.eval(a), self.eval(b));
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    _ => a / b,
                }
            }
            Ex::Neg(a) => -self.eval(a),
            Ex::Call(m, a) => unary(m, self.eval(a)),
            Ex::Call2(m, a, b) => {
                let (a, b) = (self.eval(a), self.eval(b));
                match *m {
                    "max" => a.max(b),
                    "min" => a.min(b),
                    "hypot" => a.hypot(b),
                    _ => panic!("generator bug: no binary method {m}"),
                }
            }
            Ex::Powi(a, n) => self.eval(a).powi(*n),
            Ex::If(c, a, b) => {
                if self.cond(c) {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
        }
    }

    pub fn cond(&self, c: &Cond) -> bool {
        match c {
            Cond::Cmp(a, op, b) => {
                let (a, b) = (self.eval(a), self.eval(b));
                match *op {
                    "<" => a < b,
                    ">" => a > b,
                    "<=" => a <= b,
                    _ => a >= b,
                }
            }
            Cond::Even(i) => self.ix(i).is_multiple_of(2),
            Cond::Flag(f, pos) => match self.vals.get(f) {
                Some(Val::B(b)) => *b == *pos,
                other => panic!("generator bug: {f} is not a bool ({other:?})"),
            },
        }
    }

    fn bound(&self, b: &Bound) -> usize {
        match b {
            Bound::Const(c) => *c,
            Bound::Name(n) => self.u(n),
            Bound::Len(s) => self.seq(s).len(),
        }
    }

    /// Run top-level statements: their bindings stay.
    pub fn exec_all(&mut self, lines: &[Line]) {
        for l in lines {
            self.exec(&l.st);
            if self.bad {
                return;
            }
        }
    }

    /// Run a block: its `let`s end with it, and a name it shadowed is visible again.
    fn exec_block(&mut self, lines: &[Line]) {
        let mut undo: Vec<(String, Option<Val>)> = Vec::new();
        for l in lines {
            if let St::Let { name, .. } = &l.st {
                undo.push((name.clone(), self.vals.get(name).cloned()));
            }
            self.exec(&l.st);
            if self.bad {
                break;
            }
        }
        for (name, old) in undo.into_iter().rev() {
            match old {
                Some(v) => self.vals.insert(name, v),
                None => self.vals.remove(&name),
            };
        }
    }

    pub fn exec(&mut self, st: &St) {
        match st {
            St::Let { name, init, .. } => {
                let v = match init {
                    Init::Ex(e) => Val::F(self.eval(e)),
                    Init::ArrLit(es) => Val::S(es.iter().map(|e| self.eval(e)).collect()),
                    Init::ArrRep(n) | Init::VecRep(n) => Val::S(vec![0.0; *n]),
                    Init::ToVec(s) | Init::Copy(s) => Val::S(self.seq(s).to_vec()),
                };
                self.set(name, v);
            }
            St::Assign(p, op, e) => self.assign(p, op, e),
            St::MemSwap(a, b) | St::TupleSwap(a, b) => {
                let (va, vb) = (self.vals[a].clone(), self.vals[b].clone());
                self.vals.insert(a.clone(), vb);
                self.vals.insert(b.clone(), va);
            }
            St::SeqSwap(s, i, j) => {
                if let Some(Val::S(xs)) = self.vals.get_mut(s) {
                    xs.swap(*i, *j);
                }
            }
            St::If(c, t, e) => {
                if self.cond(c) {
                    self.exec_block(t)
                } else {
                    self.exec_block(e)
                }
            }
            St::While(c, body) => {
                let mut trips = 0;
                while self.cond(c) && !self.bad {
                    trips += 1;
                    // A loop the generator cannot prove short is not kept.
                    self.bad |= trips > 1000;
                    self.exec_block(body);
                }
            }
            St::For(v, lo, b, body) => {
                for i in *lo..self.bound(b) {
                    if v != "_" {
                        self.vals.insert(v.clone(), Val::U(i));
                    }
                    self.exec_block(body);
                    if self.bad {
                        return;
                    }
                }
            }
        }
    }

    fn assign(&mut self, p: &Place, op: &str, e: &Ex) {
        let rhs = self.eval(e);
        let old = self.eval(&p.read());
        let new = match op {
            "=" => rhs,
            "+=" => old + rhs,
            "-=" => old - rhs,
            "*=" => old * rhs,
            _ => old / rhs,
        };
        match p {
            Place::Name(n) => self.set(n, Val::F(new)),
            Place::Elem(s, i) => {
                let k = self.ix(i);
                if let Some(Val::S(xs)) = self.vals.get_mut(s) {
                    xs[k] = new;
                }
                self.check(&Val::F(new));
            }
        }
    }
}

/// The `f64` method `m` at `x`.
pub fn unary(m: &str, x: f64) -> f64 {
    match m {
        "sin" => x.sin(),
        "cos" => x.cos(),
        "tanh" => x.tanh(),
        "exp" => x.exp(),
        "abs" => x.abs(),
        "sqrt" => x.sqrt(),
        "ln" => x.ln(),
        "ln_1p" => x.ln_1p(),
        "atan" => x.atan(),
        "cosh" => x.cosh(),
        "sinh" => x.sinh(),
        "recip" => x.recip(),
        _ => panic!("generator bug: no unary method {m}"),
    }
}
