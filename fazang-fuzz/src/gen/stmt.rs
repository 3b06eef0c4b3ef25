//! Statements: `let` (annotated or not, `mut`, tuples, closures, local vectors and arrays),
//! compound assignment, element writes, `for` over ranges and sequences, `while`, `if`,
//! `match`, early `return`, `break`/`continue`, and the conditions they test.

use super::ctx::Ctx;
use super::expr::E;
use super::interval::Iv;
use super::scope::{Ty, Var};

/// Largest product of loop trip counts in a body (keeps run time and budgets sane).
const MAX_TRIPS: u64 = 400;

impl Ctx<'_> {
    /// `n` statements (fewer if some cannot be generated here).
    pub fn block(&mut self, n: usize) {
        for _ in 0..n {
            for _attempt in 0..4 {
                if self.stmt() {
                    break;
                }
            }
        }
    }

    /// One statement; `false` if the chosen kind does not fit here.
    fn stmt(&mut self) -> bool {
        let nest = (self.depth < 3) as u32;
        let loops = (self.depth < 3 && self.trips < MAX_TRIPS / 2) as u32;
        let in_loop = (self.loop_depth > 0) as u32;
        let w = [
            8,
            5,
            9,
            4 * loops,
            3 * loops,
            3 * nest,
            2,
            1,
            nest,
            loops,
            1 + in_loop,
            3,
            4,
            2,
            1,
            2,
            1,
            1,
            2 * in_loop * nest,
        ];
        match self.weighted(&w) {
            0 => self.let_f64(),
            1 => self.let_mut(),
            2 => self.update(),
            3 => self.for_range(),
            4 => self.for_seq(),
            5 => self.if_stmt(),
            6 => self.let_if(),
            7 => self.let_match(),
            8 => self.match_stmt(),
            9 => self.while_loop(),
            10 => self.early_return(),
            11 => self.local_seq(),
            12 => self.elem_write(),
            13 => self.let_chain(),
            14 => {
                self.closure_def();
                true
            }
            15 => self.let_usize(),
            16 => self.let_bool(),
            17 => self.let_tuple(),
            _ => self.break_continue(),
        }
    }

    fn let_f64(&mut self) -> bool {
        let e = self.expr(3).val();
        let name = self.fresh("a");
        let ann = if self.chance(0.3) {
            self.tag("let-annotated");
            ": f64"
        } else {
            ""
        };
        self.line(&format!("let {name}{ann} = {};", e.code));
        let v = Var::new(name, Ty::F64, e.iv)
            .active(e.active)
            .untyped(e.untyped && ann.is_empty());
        self.add_data(v, e.data);
        true
    }

    /// Add `v`, surely data if `data` (and not active).
    fn add_data(&mut self, mut v: Var, data: bool) {
        v.data_sure = data && !v.active;
        self.scopes.add(v);
    }

    /// `let mut acc = 0.0;`, `let mut s = y[i];`, `let mut acc = k.tanh();` ...
    fn let_mut(&mut self) -> bool {
        let init = match self.weighted(&[4, 3, 3]) {
            0 => self.literal(),
            1 => self.data_expr().unwrap_or_else(|| self.literal()),
            _ => self.expr(2).val(),
        };
        let cap = self.pick(&[20.0, 100.0, 1000.0]);
        let init = self.within(init, cap / 2.0);
        let name = self.fresh("acc");
        let ann = if self.chance(0.25) { ": f64" } else { "" };
        self.line(&format!("let mut {name}{ann} = {};", init.code));
        let v = Var::new(name, Ty::F64, init.iv)
            .active(init.active)
            .untyped(init.untyped && ann.is_empty())
            .mutable(cap, self.trips);
        self.scopes.add(v);
        true
    }

    /// A compound assignment or reset of a mutable `f64`, within its budget.
    fn update(&mut self) -> bool {
        let Some(m) = self.pick_var(false, |v| v.ty == Ty::F64 && v.is_mut()) else {
            return self.let_mut();
        };
        let cap = m.budget.as_ref().map_or(0.0, |b| b.cap);
        let e = self.expr(2);
        let e = if e.by_ref > 1 { e.val() } else { e };
        let (code, active) = match self.weighted(&[6, 3, 2, 1, 1, 1, 1]) {
            k @ (0 | 1) => {
                let e = if self.admit(&m.name, e.iv.mag()) {
                    e
                } else {
                    let t = self.within(e.val(), 1.0);
                    if !self.admit(&m.name, t.iv.mag()) {
                        return false;
                    }
                    t
                };
                let op = if k == 0 { "+=" } else { "-=" };
                (format!("{} {op} {};", m.name, e.code), e.active)
            }
            2 => {
                let f = self.within(e.val(), 1.0);
                (format!("{} *= {};", m.name, f.code), f.active)
            }
            3 => {
                let one = E::atom("1.0", Iv::point(1.0), false, true);
                let e = e.val();
                let sq = self.bin(&e, "*", &e);
                let d = self.bin(&one, "+", &sq);
                (format!("{} /= {};", m.name, d.at(0)), d.active)
            }
            4 => {
                let e = self.within(e.val(), cap);
                if !self.admit_reset(&m.name, e.iv.mag()) {
                    return false;
                }
                (format!("{} = {};", m.name, e.code), e.active)
            }
            5 => {
                let e = self.within(e.val(), cap);
                if !self.admit_reset(&m.name, e.iv.mag()) {
                    return false;
                }
                self.tag("running-max");
                let f = self.pick(&["max", "min"]);
                let call = super::expr::var_expr(&m).method(f, &e.code);
                (format!("{} = {call};", m.name), e.active)
            }
            _ => {
                let e = self.within(e.val(), 1.0);
                if cap < 4.0 || !self.admit_reset(&m.name, 0.5 * cap + 1.0) {
                    return false;
                }
                (format!("{0} = 0.5 * {0} + {1};", m.name, e.at(2)), e.active)
            }
        };
        self.tag("compound-assign");
        self.line(&code);
        self.mark_active(&m.name, active);
        true
    }

    fn if_stmt(&mut self) -> bool {
        let c = self.cond();
        self.tag(if c.active { "if-active" } else { "if-data" });
        self.open(&format!("if {} {{", c.code));
        self.sub_block(1..4);
        if self.chance(0.6) {
            if self.chance(0.3) {
                let c2 = self.cond();
                self.reopen(&format!("}} else if {} {{", c2.code));
                self.sub_block(1..3);
            }
            self.reopen("} else {");
            self.sub_block(1..3);
        }
        self.close("}");
        true
    }

    /// A nested block of a random number of statements in `n`.
    fn sub_block(&mut self, n: std::ops::Range<usize>) {
        let n = self.rng.usize(n);
        self.scoped(|cx| cx.block(n));
    }

    /// `let a = if c { e1 } else { e2 };`
    fn let_if(&mut self) -> bool {
        let c = self.cond();
        self.tag(if c.active {
            "let-if-active"
        } else {
            "let-if-data"
        });
        let (a, b) = (self.expr(2).val(), self.expr(2).val());
        let name = self.fresh("a");
        let ann = if self.chance(0.3) { ": f64" } else { "" };
        self.line(&format!(
            "let {name}{ann} = if {} {{ {} }} else {{ {} }};",
            c.code, a.code, b.code
        ));
        let active = a.active || b.active;
        let v = Var::new(name, Ty::F64, a.iv.hull(b.iv))
            .active(active)
            .untyped(a.untyped && b.untyped);
        self.add_data(v, a.data && b.data && !c.active);
        true
    }

    /// `let a = match k { 0 => .., 1 => .., _ => .. };` or a match on a condition.
    fn let_match(&mut self) -> bool {
        let arms = match self.usize_expr(0, false) {
            Some(u) if self.chance(0.6) => {
                self.tag("match-data");
                let (a, b, c) = (self.expr(2).val(), self.expr(2).val(), self.expr(1).val());
                let code = format!(
                    "match {} {{ 0 => {}, 1 => {}, _ => {} }}",
                    u.code, a.code, b.code, c.code
                );
                (code, vec![a, b, c], false)
            }
            _ => {
                let c = self.cond();
                self.tag(if c.active {
                    "match-active"
                } else {
                    "match-data"
                });
                let (a, b) = (self.expr(2).val(), self.expr(2).val());
                let code = format!(
                    "match {} {{ true => {}, false => {} }}",
                    c.code, a.code, b.code
                );
                (code, vec![a, b], c.active)
            }
        };
        let (code, es, cond_active) = arms;
        let name = self.fresh("a");
        self.line(&format!("let {name} = {code};"));
        let iv = es.iter().fold(es[0].iv, |acc, e| acc.hull(e.iv));
        let active = es.iter().any(|e| e.active);
        let untyped = es.iter().all(|e| e.untyped);
        let v = Var::new(name, Ty::F64, iv).active(active).untyped(untyped);
        self.add_data(v, es.iter().all(|e| e.data) && !cond_active);
        true
    }

    fn match_stmt(&mut self) -> bool {
        let Some(u) = self.usize_expr(0, false) else {
            return false;
        };
        self.tag("match-stmt");
        self.open(&format!("match {} {{", u.code));
        self.open("0 => {");
        let n = self.rng.usize(1..3);
        self.scoped(|cx| cx.block(n));
        self.close("}");
        self.open("_ => {");
        let n = self.rng.usize(1..3);
        self.scoped(|cx| cx.block(n));
        self.close("}");
        self.close("}");
        true
    }

    fn for_range(&mut self) -> bool {
        let Some(u) = self.usize_expr(0, true) else {
            return false;
        };
        if self.trips * (u.hi as u64).max(1) > MAX_TRIPS {
            return false;
        }
        let start = if u.lo >= 2 && self.chance(0.25) { 1 } else { 0 };
        let i = self.index_var(&u, start);
        self.tag("for-range");
        self.open(&format!("for {} in {start}..{} {{", i.name, u.code));
        let n = self.rng.usize(1..5);
        self.in_loop(u.hi as u64, |cx| {
            cx.scopes.add(i);
            cx.block(n);
        });
        self.close("}");
        true
    }

    /// `for v in y`, `for &v in y.iter()`, `enumerate`, `zip`, `for &j in ix`.
    fn for_seq(&mut self) -> bool {
        let Some(s) = self.pick_var(true, |v| v.ty.is_seq() || v.ty == Ty::SliceUsize) else {
            return false;
        };
        if self.trips * s.len.1 as u64 > MAX_TRIPS {
            return false;
        }
        let mut bound: Vec<Var> = Vec::new();
        let v = self.fresh("v");
        let mut elem = Var::new(v.clone(), Ty::F64, s.iv).active(s.active);
        let head = if s.ty == Ty::SliceUsize {
            self.tag("for-data-indices");
            let j = Var::new(v.clone(), Ty::Usize, s.iv);
            bound.push(j);
            format!("for &{v} in {}", s.name)
        } else {
            let own = match s.ty {
                Ty::Slice => s.name.clone(),
                _ => format!("&{}", s.name),
            };
            match self.weighted(&[3, 2, 2, 2, 1]) {
                0 => {
                    self.tag("for-slice");
                    elem.by_ref = true;
                    bound.push(elem);
                    format!("for {v} in {own}")
                }
                1 => {
                    self.tag("for-iter");
                    bound.push(elem);
                    format!("for &{v} in {}.iter()", s.name)
                }
                2 => {
                    self.tag("for-enumerate");
                    let i = self.fresh("i");
                    let mut iv = Var::new(i.clone(), Ty::Usize, Iv::new(0.0, s.len.1 as f64 - 1.0));
                    iv.valid_for = vec![s.name.clone()];
                    elem.by_ref = true;
                    bound.extend([elem, iv]);
                    format!("for ({i}, {v}) in {}.iter().enumerate()", s.name)
                }
                3 => return self.for_zip(&s),
                _ => {
                    self.tag("for-array-by-value");
                    if s.ty != Ty::Arr {
                        elem.by_ref = true;
                    }
                    bound.push(elem);
                    format!(
                        "for {v} in {}",
                        if s.ty == Ty::Arr { &s.name } else { &own }
                    )
                }
            }
        };
        self.loop_over(&s, vec![], head, bound)
    }

    fn for_zip(&mut self, s: &Var) -> bool {
        let Some(t) = self.pick_var(true, |v| v.ty.is_seq() && v.name != s.name) else {
            return false;
        };
        self.tag("for-zip");
        let (a, b) = (self.fresh("a"), self.fresh("b"));
        let mut va = Var::new(a.clone(), Ty::F64, s.iv).active(s.active);
        let mut vb = Var::new(b.clone(), Ty::F64, t.iv).active(t.active);
        va.by_ref = true;
        vb.by_ref = true;
        let head = format!("for ({a}, {b}) in {}.iter().zip({}.iter())", s.name, t.name);
        let len = s.len.1.min(t.len.1);
        let mut s2 = s.clone();
        s2.len.1 = len;
        self.loop_over(&s2, vec![t.name.clone()], head, vec![va, vb])
    }

    /// A loop over `s` (and `also`), which are frozen (not written) in the body.
    fn loop_over(&mut self, s: &Var, also: Vec<String>, head: String, bound: Vec<Var>) -> bool {
        let mut frozen = vec![s.name.clone()];
        frozen.extend(also);
        let was: Vec<bool> = frozen
            .iter()
            .map(|f| self.scopes.set_frozen(f, true))
            .collect();
        self.open(&format!("{head} {{"));
        let n = self.rng.usize(1..4);
        self.in_loop(s.len.1 as u64, |cx| {
            for b in bound {
                cx.scopes.add(b);
            }
            cx.block(n);
        });
        self.close("}");
        for (f, w) in frozen.iter().zip(was) {
            self.scopes.set_frozen(f, w);
        }
        true
    }

    /// A counted `while` (or `loop` with `break`), possibly with an active condition.
    fn while_loop(&mut self) -> bool {
        let limit = self.rng.usize(2..6);
        if self.trips * limit as u64 > MAX_TRIPS {
            return false;
        }
        let it = self.fresh("it");
        let c = self.cond();
        self.line(&format!("let mut {it} = 0;"));
        let counter = Var::new(it.clone(), Ty::Usize, Iv::new(1.0, limit as f64));
        let n = self.rng.usize(1..4);
        // The counter is advanced first, so that `continue` in the body cannot skip it,
        // and the condition is parenthesised: `it < 5 && a || b` would not stop at 5.
        let head = if self.chance(0.7) {
            self.tag("while");
            format!("while {it} < {limit} && ({}) {{", c.code)
        } else {
            self.tag("loop-break");
            "loop {".to_string()
        };
        let is_loop = head == "loop {";
        self.open(&head);
        self.line(&format!("{it} += 1;"));
        if is_loop {
            self.line(&format!("if {it} > {limit} || ({}) {{", c.code));
            self.line("    break;");
            self.line("}");
        }
        self.in_loop(limit as u64, |cx| {
            cx.scopes.add(counter);
            cx.block(n);
        });
        self.close("}");
        true
    }

    /// `if c { return ..; }` (or `return Err(..)` when the function returns `Result`).
    fn early_return(&mut self) -> bool {
        if self.in_closure > 0 {
            return false;
        }
        let c = self.cond();
        self.tag("early-return");
        let e = self.expr(2).val();
        let ret = if !self.result {
            format!("return {};", e.code)
        } else if self.chance(0.3) {
            self.tag("return-err");
            format!("return Err(format!(\"rejected at {{}}\", {}));", e.code)
        } else {
            format!("return Ok({});", e.code)
        };
        self.line(&format!("if {} {{", c.code));
        self.line(&format!("    {ret}"));
        self.line("}");
        true
    }

    fn break_continue(&mut self) -> bool {
        let c = self.cond();
        let kw = self.pick(&["break", "continue"]);
        self.tag(kw);
        self.line(&format!("if {} {{", c.code));
        self.line(&format!("    {kw};"));
        self.line("}");
        true
    }

    fn let_usize(&mut self) -> bool {
        let Some(s) = self.pick_var(false, |v| v.ty.is_seq()) else {
            return false;
        };
        let name = self.fresh("n");
        match self.weighted(&[3, 2, 1]) {
            0 => {
                self.line(&format!("let {name} = {}.len();", s.name));
                let mut n = Var::new(name, Ty::Usize, Iv::new(s.len.0 as f64, s.len.1 as f64));
                n.len_sym = Some(s.name.clone());
                self.scopes.add(n);
            }
            1 => {
                let Some(u) = self.usize_expr(1, true) else {
                    return false;
                };
                self.line(&format!("let {name} = {};", u.code));
                let mut n = Var::new(name, Ty::Usize, Iv::new(u.lo as f64, u.hi as f64));
                n.valid_for = u.valid_for;
                self.scopes.add(n);
            }
            _ => {
                let Some(k) = self.pick_var(false, |v| v.ty == Ty::Usize) else {
                    return false;
                };
                self.tag("usize-min");
                self.line(&format!(
                    "let {name} = {}.min({}.len() - 1);",
                    k.name, s.name
                ));
                let hi = (k.iv.hi).min(s.len.1 as f64 - 1.0);
                let mut n = Var::new(name, Ty::Usize, Iv::new(0.0, hi));
                n.valid_for = vec![s.name.clone()];
                self.scopes.add(n);
            }
        }
        true
    }

    fn let_bool(&mut self) -> bool {
        let c = self.cond();
        let name = self.fresh("p");
        self.line(&format!("let {name} = {};", c.code));
        let b = Var::new(name, Ty::Bool, Iv::point(0.0)).active(c.active);
        self.scopes.add(b);
        true
    }

    /// `let (s, c) = e.sin_cos();`, `let (a, b) = (e1, e2);`, `let t = (e1, e2);`
    fn let_tuple(&mut self) -> bool {
        self.tag("tuple");
        let (a, b) = (self.fresh("a"), self.fresh("b"));
        match self.weighted(&[2, 2, 1]) {
            0 => {
                let e = self.expr(2);
                self.tag("method:sin_cos");
                self.line(&format!("let ({a}, {b}) = {};", e.method("sin_cos", "")));
                for n in [a, b] {
                    let v = Var::new(n, Ty::F64, Iv::sym(1.0)).active(e.active);
                    self.add_data(v, e.data);
                }
            }
            1 => {
                let (x, y) = (self.expr(2).val(), self.expr(2).val());
                self.line(&format!("let ({a}, {b}) = ({}, {});", x.code, y.code));
                for (n, e) in [(a, x), (b, y)] {
                    let v = Var::new(n, Ty::F64, e.iv)
                        .active(e.active)
                        .untyped(e.untyped);
                    self.add_data(v, e.data);
                }
            }
            _ => {
                let (x, y) = (self.expr(2).val(), self.expr(2).val());
                let ann = if x.untyped || y.untyped {
                    ": (f64, f64)"
                } else {
                    ""
                };
                self.line(&format!("let {a}{ann} = ({}, {});", x.code, y.code));
                let t = Var::new(a, Ty::Tup2([x.iv, y.iv]), Iv::point(0.0))
                    .active(x.active || y.active);
                self.add_data(t, x.data && y.data);
            }
        }
        true
    }

    fn let_chain(&mut self) -> bool {
        let Some(e) = self.chain() else {
            return false;
        };
        let name = self.fresh("s");
        self.line(&format!("let {name} = {};", e.code));
        let v = Var::new(name, Ty::F64, e.iv)
            .active(e.active)
            .untyped(e.untyped);
        self.add_data(v, e.data);
        true
    }
}
