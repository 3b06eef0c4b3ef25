//! Iterator chains over sequences (`map`/`sum`, `zip`, `enumerate`, `filter`, `fold` with
//! `f64::max`, `product`, `(0..n).map(..)`) and local closures (`|t: f64| ..`).

use super::ctx::Ctx;
use super::expr::{var_expr, E};
use super::interval::Iv;
use super::scope::{Ty, Var};

impl Ctx<'_> {
    /// An iterator chain over a visible sequence ending in an `f64`.
    pub fn chain(&mut self) -> Option<E> {
        let s = self.pick_var(true, |v| v.ty.is_seq())?;
        self.in_closure += 1;
        let r = match self.weighted(&[6, 2, 2, 2, 2, 1, 1, 1, 2]) {
            0 => Some(self.map_sum(&s)),
            1 => self.zip_sum(&s),
            2 => Some(self.enumerate_sum(&s)),
            3 => Some(self.fold_extreme(&s)),
            4 => Some(self.fold_acc(&s)),
            5 => Some(self.product(&s)),
            6 => Some(self.filter_sum(&s)),
            7 => Some(self.norm(&s)),
            _ => self.range_sum(),
        };
        self.in_closure -= 1;
        r.map(|e| self.tame(e))
    }

    /// The body of `|params| ..`, usually built around `main`.
    pub fn lambda(&mut self, params: Vec<Var>, main: &Var) -> E {
        self.lambda_on(params, var_expr(main))
    }

    /// The body of `|params| ..`, usually built around the expression `m`.
    fn lambda_on(&mut self, params: Vec<Var>, m: E) -> E {
        self.scoped(|cx| {
            for p in params {
                cx.scopes.add(p);
            }
            let e = match cx.weighted(&[3, 3, 2]) {
                0 => {
                    let e = cx.expr(1);
                    let op = cx.pick(&["*", "+", "-"]);
                    cx.bin(&m, op, &e)
                }
                1 => cx.unary_method(m),
                _ => cx.expr(2),
            };
            // `|v| v` would yield `&f64`, which `fold(.., f64::max)` and `collect` refuse.
            cx.tame(e).val()
        })
    }

    /// A closure parameter bound to the elements of `s`, as `&f64` unless `by_value`.
    pub fn elem_param(&mut self, s: &Var, by_value: bool) -> Var {
        let mut v = Var::new(self.fresh("v"), Ty::F64, s.iv).active(s.active);
        v.by_ref = !by_value;
        v
    }

    /// `iter` for a sequence: `s.iter()`.
    fn iter_of(&self, s: &Var) -> String {
        format!("{}.iter()", s.name)
    }

    fn map_sum(&mut self, s: &Var) -> E {
        self.tag("iter-map-sum");
        if self.chance(0.15) {
            return self.map_path(s);
        }
        let by_value = self.chance(0.3);
        let v = self.elem_param(s, by_value);
        let pat = if by_value {
            format!("&{}", v.name)
        } else {
            v.name.clone()
        };
        let body = self.lambda(vec![v.clone()], &v);
        let code = format!(
            "{}.map(|{pat}| {}).sum::<f64>()",
            self.iter_of(s),
            body.code
        );
        let iv = body.iv.sum_of(s.len.1);
        self.seq_result(code, iv, s, &body)
    }

    /// `s.iter().copied().map(f64::exp).sum::<f64>()`: a method path as a value.
    fn map_path(&mut self, s: &Var) -> E {
        self.tag("method-path-value");
        let (f, iv) = if s.iv.hi <= 5.0 && self.chance(0.4) {
            ("exp", s.iv.monotone(f64::exp))
        } else {
            self.pick(&[
                ("sin", Iv::sym(1.0)),
                ("tanh", Iv::sym(1.0)),
                ("abs", s.iv.abs()),
                ("atan", Iv::sym(1.6)),
            ])
        };
        let code = format!("{}.copied().map(f64::{f}).sum::<f64>()", self.iter_of(s));
        E::atom(code, iv.sum_of(s.len.1), s.active, s.data_sure)
    }

    fn seq_result(&mut self, code: String, iv: Iv, s: &Var, body: &E) -> E {
        let mut e = E::from(code, iv, 0, &[body]);
        e.active |= s.active;
        e.data &= s.data_sure;
        e
    }

    fn zip_sum(&mut self, s: &Var) -> Option<E> {
        let t = self.pick_var(true, |v| v.ty.is_seq())?;
        self.tag("zip");
        let a = self.elem_param(s, false);
        let b = self.elem_param(&t, false);
        let other = match (t.ty.clone(), self.chance(0.5)) {
            (Ty::Slice, true) => t.name.clone(),
            (_, true) => format!("&{}", t.name),
            _ => format!("{}.iter()", t.name),
        };
        let body = self.lambda(vec![a.clone(), b.clone()], &a);
        let code = format!(
            "{}.zip({other}).map(|({}, {})| {}).sum::<f64>()",
            self.iter_of(s),
            a.name,
            b.name,
            body.code
        );
        let iv = body.iv.sum_of(s.len.1.min(t.len.1));
        let mut e = self.seq_result(code, iv, s, &body);
        e.active |= t.active;
        e.data &= t.data_sure;
        Some(e)
    }

    fn enumerate_sum(&mut self, s: &Var) -> E {
        self.tag("enumerate");
        let v = self.elem_param(s, false);
        let mut i = Var::new(
            self.fresh("i"),
            Ty::Usize,
            Iv::new(0.0, s.len.1 as f64 - 1.0),
        );
        i.valid_for = vec![s.name.clone()];
        let body = self.lambda(vec![v.clone(), i.clone()], &v);
        let code = format!(
            "{}.enumerate().map(|({}, {})| {}).sum::<f64>()",
            self.iter_of(s),
            i.name,
            v.name,
            body.code
        );
        let iv = body.iv.sum_of(s.len.1);
        self.seq_result(code, iv, s, &body)
    }

    /// `.fold(f64::NEG_INFINITY, f64::max)` and `.fold(f64::INFINITY, f64::min)`.
    fn fold_extreme(&mut self, s: &Var) -> E {
        self.tag("fold-method-path");
        let (init, f) = self.pick(&[("f64::NEG_INFINITY", "max"), ("f64::INFINITY", "min")]);
        if self.chance(0.5) {
            let adapt = self.pick(&["copied", "cloned"]);
            let code = format!("{}.{adapt}().fold({init}, f64::{f})", self.iter_of(s));
            return E::atom(code, s.iv, s.active, s.data_sure);
        }
        let v = self.elem_param(s, false);
        let body = self.lambda(vec![v.clone()], &v);
        let code = format!(
            "{}.map(|{}| {}).fold({init}, f64::{f})",
            self.iter_of(s),
            v.name,
            body.code
        );
        let iv = body.iv;
        self.seq_result(code, iv, s, &body)
    }

    /// `.fold(0.0, |acc, v| acc + ..)`.
    fn fold_acc(&mut self, s: &Var) -> E {
        self.tag("fold-closure");
        let v = self.elem_param(s, false);
        let body = self.lambda(vec![v.clone()], &v);
        let acc = self.fresh("acc");
        let init = self.pick(&["0.0", "0f64", "1.0"]);
        let term = body.at(2);
        // A body that does not use the element may be a bare literal: then an untyped
        // initial value leaves the fold's type `{float}`, which plain Rust cannot call
        // methods on (a generator bug, not the macro's).
        let init = if term.contains(&v.name) { init } else { "0f64" };
        let code = format!(
            "{}.fold({init}, |{acc}, {}| {acc} + {})",
            self.iter_of(s),
            v.name,
            term
        );
        let iv = body.iv.sum_of(s.len.1).add(Iv::new(0.0, 1.0));
        self.seq_result(code, iv, s, &body)
    }

    fn product(&mut self, s: &Var) -> E {
        self.tag("product");
        let v = self.elem_param(s, false);
        let body = self.lambda(vec![v.clone()], &v);
        let body = self.within(body, 1.5);
        let code = format!(
            "{}.map(|{}| {}).product::<f64>()",
            self.iter_of(s),
            v.name,
            body.code
        );
        let iv = body.iv.product_of(s.len.1);
        self.seq_result(code, iv, s, &body)
    }

    fn filter_sum(&mut self, s: &Var) -> E {
        self.tag("filter");
        let f = self.fresh("f");
        let c = self.pick(&["0.0", "-0.5", "0.5"]);
        let cond = if self.chance(0.5) {
            format!("|{f}| **{f} > {c}")
        } else {
            format!("|{f}| {f}.abs() < 1.0")
        };
        let v = self.elem_param(s, false);
        let body = self.lambda(vec![v.clone()], &v);
        let code = format!(
            "{}.filter({cond}).map(|{}| {}).sum::<f64>()",
            self.iter_of(s),
            v.name,
            body.code
        );
        let iv = body.iv.sum_of(s.len.1);
        self.seq_result(code, iv, s, &body)
    }

    /// The Euclidean norm, as written by hand.
    fn norm(&mut self, s: &Var) -> E {
        self.tag("norm");
        let v = self.fresh("v");
        let code = format!(
            "{}.map(|{v}| {v} * {v}).sum::<f64>().sqrt()",
            self.iter_of(s)
        );
        let m = s.iv.mag();
        let iv = Iv::new(0.0, (m * m * s.len.1 as f64).sqrt());
        E::atom(code, iv, s.active, s.data_sure)
    }

    /// `(0..n).map(|i| ..).sum::<f64>()`.
    fn range_sum(&mut self) -> Option<E> {
        let u = self.usize_expr(1, false)?;
        self.tag("range-map");
        let i = self.index_var(&u, 0);
        let c = self.cast_f64(&super::expr::U {
            code: i.name.clone(),
            lo: 0,
            hi: u.hi,
            valid_for: vec![],
            atom: true,
        });
        let body = self.lambda_on(vec![i.clone()], c);
        let code = format!(
            "(0..{}).map(|{}| {}).sum::<f64>()",
            u.code, i.name, body.code
        );
        Some(E::from(code, body.iv.sum_of(u.hi), 0, &[&body]))
    }

    /// A loop index over `start..u`: in range, and valid for the sequences `u` bounds.
    pub fn index_var(&mut self, u: &super::expr::U, start: usize) -> Var {
        let hi = u.hi.max(1) as f64 - 1.0;
        let mut i = Var::new(self.fresh("i"), Ty::Usize, Iv::new(start as f64, hi));
        let mut valid = u.valid_for.clone();
        for s in self.vars(|v| v.ty.is_seq()) {
            let len_code = format!("{}.len()", s.name);
            if s.len_sym.as_deref() == Some(u.code.as_str()) || len_code == u.code {
                valid.push(s.name.clone());
            }
        }
        for n in self.vars(|v| v.ty == Ty::Usize && v.name == u.code) {
            if let Some(s) = n.len_sym {
                valid.push(s);
            }
        }
        i.valid_for = valid;
        i
    }

    /// `let g = |t: f64| ..;`: captures only immutable bindings, so later updates of
    /// mutable ones do not conflict with the borrow.
    pub fn closure_def(&mut self) {
        let name = self.fresh("g");
        let arg = self.pick(&[2.0, 5.0]);
        let t = Var::new(self.fresh("t"), Ty::F64, Iv::sym(arg)).active(false);
        let hidden: Vec<String> = self
            .vars(|v| v.is_mut() || v.by_ref || v.by_ref2)
            .into_iter()
            .map(|v| v.name)
            .collect();
        for h in &hidden {
            self.scopes.set_hidden(h, true);
        }
        self.in_closure += 1;
        let mut t_param = t.clone();
        t_param.data_sure = false;
        let body = self.lambda(vec![t_param], &t);
        self.in_closure -= 1;
        for h in &hidden {
            self.scopes.set_hidden(h, false);
        }
        self.tag("closure");
        let line = format!("let {name} = |{}: f64| {};", t.name, body.code);
        self.line(&line);
        let mut g = Var::new(name, Ty::Closure { arg }, body.iv).active(body.active);
        g.data_sure = body.data;
        self.scopes.add(g);
    }
}
