//! Local sequences and writes into them: `vec![0.0; n]`, `[0.0; 3]`, copies of array
//! parameters (`let mut u = u0;`), `to_vec()`, `collect()`, `push` loops, and element
//! updates `w[i] = ..`, `w[i] += ..`, `u[0] *= ..`.

use super::ctx::Ctx;
use super::interval::Iv;
use super::scope::{Ty, Var};

impl Ctx<'_> {
    /// Declare a local sequence.
    pub fn local_seq(&mut self) -> bool {
        let cap = self.pick(&[20.0, 100.0, 1000.0]);
        let trips = self.trips;
        let name = self.fresh("w");
        match self.weighted(&[3, 2, 2, 2, 2, 2, 2]) {
            0 => {
                let Some(u) = self.usize_expr(1, true) else {
                    return false;
                };
                self.tag("vec-local");
                let z = self.literal_zero();
                let ann = if z == "0.0" { ": Vec<f64>" } else { "" };
                self.line(&format!("let mut {name}{ann} = vec![{z}; {}];", u.code));
                let w = Var::new(name, Ty::Vec, Iv::point(0.0))
                    .seq((u.lo, u.hi), Some(u.code))
                    .mutable(cap, trips);
                self.scopes.add(w);
            }
            1 => {
                self.tag("array-local");
                let n = self.rng.usize(2..5);
                let (code, iv, active, untyped) = if self.chance(0.5) {
                    let z = self.literal_zero();
                    (format!("[{z}; {n}]"), Iv::point(0.0), false, z == "0.0")
                } else {
                    let es: Vec<_> = (0..n)
                        .map(|_| {
                            let e = self.expr(1).val();
                            self.within(e, cap / 2.0)
                        })
                        .collect();
                    let iv = es.iter().fold(es[0].iv, |a, e| a.hull(e.iv));
                    let code: Vec<String> = es.iter().map(|e| e.code.clone()).collect();
                    let untyped = es.iter().all(|e| e.untyped);
                    (
                        format!("[{}]", code.join(", ")),
                        iv,
                        es.iter().any(|e| e.active),
                        untyped,
                    )
                };
                // `[0.0; 3]` alone leaves the element type open: annotate it, as users do.
                let ann = if untyped {
                    format!(": [f64; {n}]")
                } else {
                    String::new()
                };
                self.line(&format!("let mut {name}{ann} = {code};"));
                let w = Var::new(name, Ty::Arr, iv)
                    .active(active)
                    .seq((n, n), None)
                    .mutable(cap, trips);
                self.scopes.add(w);
            }
            2 => {
                let Some(a) = self.pick_var(false, |v| v.ty == Ty::Arr && v.iv.mag() <= cap / 2.0)
                else {
                    return false;
                };
                self.tag("array-copy");
                self.line(&format!("let mut {name} = {};", a.name));
                let w = Var::new(name, Ty::Arr, a.iv)
                    .active(a.active)
                    .seq(a.len, None)
                    .mutable(cap, trips);
                self.scopes.add(w);
            }
            3 => {
                let Some(s) = self.pick_var(true, |v| v.ty.is_seq() && v.iv.mag() <= cap / 2.0)
                else {
                    return false;
                };
                self.tag("to-vec");
                self.line(&format!("let mut {name} = {}.to_vec();", s.name));
                let w = Var::new(name, Ty::Vec, s.iv)
                    .active(s.active)
                    .seq(s.len, Some(format!("{}.len()", s.name)))
                    .mutable(cap, trips);
                self.scopes.add(w);
            }
            4 => return self.collect(name),
            5 => return self.push_loop(name, cap),
            _ => return self.local_rows(),
        }
        true
    }

    fn literal_zero(&mut self) -> &'static str {
        self.pick(&["0.0", "0.0", "0f64", "0.0_f64"])
    }

    /// `let w: Vec<f64> = s.iter().map(|v| ..).collect();`
    fn collect(&mut self, name: String) -> bool {
        let Some(s) = self.pick_var(true, |v| v.ty.is_seq()) else {
            return false;
        };
        self.tag("collect");
        self.in_closure += 1;
        let v = self.elem_param(&s, false);
        let body = self.lambda(vec![v.clone()], &v);
        self.in_closure -= 1;
        let (ann, turbofish) = if self.chance(0.5) {
            (": Vec<f64>", "")
        } else {
            ("", "::<Vec<f64>>")
        };
        self.line(&format!(
            "let {name}{ann} = {}.iter().map(|{}| {}).collect{turbofish}();",
            s.name, v.name, body.code
        ));
        let w = Var::new(name, Ty::Vec, body.iv)
            .active(body.active || s.active)
            .seq(s.len, Some(format!("{}.len()", s.name)));
        self.add_seq(w, body.data && s.data_sure);
        true
    }

    fn add_seq(&mut self, mut w: Var, data: bool) {
        w.data_sure = data && !w.active;
        self.scopes.add(w);
    }

    /// `let mut w = Vec::new(); for i in 0..n { w.push(..); }`
    fn push_loop(&mut self, name: String, cap: f64) -> bool {
        let Some(u) = self.usize_expr(1, false) else {
            return false;
        };
        if self.trips * u.hi as u64 > 200 {
            return false;
        }
        self.tag("vec-push");
        let new = if self.chance(0.5) {
            "Vec::new()".to_string()
        } else {
            format!("Vec::with_capacity({})", u.code)
        };
        let i = self.index_var(&u, 0);
        let head = format!("for {} in 0..{} {{", i.name, u.code);
        // Expressions write no lines, so the pushed value can be drawn first: an untyped
        // one (`-(2.0 * 0.25)`) needs `Vec<f64>` spelled out.
        let e = self.in_loop(u.hi as u64, |cx| {
            cx.scopes.add(i);
            let e = cx.expr(2).val();
            cx.within(e, cap / 2.0)
        });
        let ann = if e.untyped { ": Vec<f64>" } else { "" };
        self.line(&format!("let mut {name}{ann} = {new};"));
        self.open(&head);
        self.line(&format!("{name}.push({});", e.code));
        self.close("}");
        let w = Var::new(name, Ty::Vec, e.iv)
            .active(e.active)
            .seq((u.lo, u.hi), Some(u.code))
            .mutable(cap, self.trips);
        self.scopes.add(w);
        true
    }

    /// `w[i] = e;`, `w[i] += e;` or `w[i] *= f;` on a mutable sequence not being iterated.
    pub fn elem_write(&mut self) -> bool {
        let Some(w) = self.pick_var(false, |v| v.ty.is_seq() && v.is_mut() && !v.frozen) else {
            return self.local_seq();
        };
        // `w[w.len() - 1] = ..` borrows `w` twice: index with a name of its own.
        let Some(i) = self
            .index_for(&w)
            .filter(|i| !i.contains(&format!("{}.", w.name)))
        else {
            return false;
        };
        self.tag("index-write");
        // The right side of a compound update does not read the sequence it updates.
        self.scopes.set_hidden(&w.name, true);
        let e = self.expr(2);
        self.scopes.set_hidden(&w.name, false);
        let e = if e.by_ref > 1 { e.val() } else { e };
        let cap = w.budget.as_ref().map_or(0.0, |b| b.cap);
        let (code, active) = match self.weighted(&[3, 4, 1]) {
            0 => {
                let e = self.within(e.val(), cap);
                if !self.admit_reset(&w.name, e.iv.mag()) {
                    return false;
                }
                (format!("{}[{i}] = {};", w.name, e.code), e.active)
            }
            1 => {
                let e = self.within(e, 1.0);
                if !self.admit(&w.name, e.iv.mag()) {
                    return false;
                }
                let op = self.pick(&["+=", "-="]);
                (format!("{}[{i}] {op} {};", w.name, e.code), e.active)
            }
            _ => {
                let f = self.within(e.val(), 1.0);
                (format!("{}[{i}] *= {};", w.name, f.code), f.active)
            }
        };
        self.line(&code);
        self.mark_active(&w.name, active);
        true
    }
}
