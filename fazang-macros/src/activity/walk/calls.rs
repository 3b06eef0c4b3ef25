//! Calls in the activity walk: closures (defined and applied), calls of functions and
//! paths (the same module's functions by their analysed signatures, the standard and
//! fazang functions by name), and macros.

use super::super::{Abs, Callee, Callees};
use super::{abs_of_type, Walk};
use crate::model::known::*;
use crate::model::*;

impl<'a> Walk<'a> {
    pub(super) fn closure(&mut self, c: &'a ClosureExpr) -> Abs {
        self.closures[c.id] = Some(c);
        if let Some(ty) = &c.ret {
            let t = abs_of_type(ty, false);
            self.closure_ret[c.id] = self.closure_ret[c.id].join(&t);
        }
        for (p, ty) in &c.params {
            if let Some(ty) = ty {
                self.bind_pat(p, &abs_of_type(ty, false));
            }
        }
        self.rets.push(c.id);
        let saved = std::mem::take(&mut self.loops);
        let v = self.expr(&c.body);
        self.loops = saved;
        self.rets.pop();
        self.closure_ret[c.id] = self.closure_ret[c.id].join(&v);
        Abs::Closure(c.id)
    }

    /// Call a closure-like argument (a closure expression, a local closure, or a path
    /// like `f64::max`) with arguments of the given values; its result.
    pub(super) fn apply(&mut self, f: &'a Expr, args: &[Abs]) -> Abs {
        let cid = match &f.peel().kind {
            Kind::Closure(c) => {
                self.bind_params(c, args);
                self.expr(f);
                Some(c.id)
            }
            Kind::Local(id, _) => match self.bind[*id].clone() {
                Abs::Closure(c) => {
                    self.expr(f);
                    if let Some(ce) = self.closures[c] {
                        self.bind_params(ce, args);
                    }
                    Some(c)
                }
                _ => {
                    self.expr(f);
                    None
                }
            },
            Kind::Path(p) => {
                self.expr(f);
                let act = args.iter().any(Abs::active);
                let last = p.path.segments.last().map(|s| s.ident.to_string());
                return match last {
                    Some(n) if is_real_method(&n) => Abs::Float(act),
                    _ => Abs::Unknown(act),
                };
            }
            _ => {
                self.expr(f);
                None
            }
        };
        match cid {
            Some(c) => self.closure_ret[c].clone(),
            None => Abs::Unknown(args.iter().any(Abs::active)),
        }
    }

    fn bind_params(&mut self, c: &'a ClosureExpr, args: &[Abs]) {
        for ((p, _), v) in c.params.iter().zip(args) {
            self.bind_pat(p, v);
        }
    }

    pub(super) fn call(&mut self, f: &'a Expr, args: &'a [Expr]) -> Abs {
        if let Kind::Local(id, _) = &f.peel().kind {
            if let Abs::Closure(_) = self.bind[*id] {
                let vs = self.exprs(args);
                return self.apply(f, &vs);
            }
        }
        if let Some(v) = self.reduce_sum(f, args) {
            return v;
        }
        self.expr(f);
        let vs = self.exprs(args);
        // A closure argument counts by what it returns: `DMatrix::from_fn(n, n, |i, j|
        // theta[i] * x[j])` is active.
        let act = vs.iter().any(Abs::active) || args.iter().any(|a| self.result_of(a).active());
        let Kind::Path(p) = &f.peel().kind else {
            return Abs::Unknown(act);
        };
        let segs: Vec<String> = crate::util::path_names(&p.path);
        let last = segs.last().map(String::as_str).unwrap_or("");
        let first_is_f64 = segs.len() == 2 && segs[0] == "f64";
        if let Some(c) = known_callee(self.callees, &segs, false) {
            let c = c.clone();
            self.written_through(&c, args);
            return if act { c.ret } else { passive(&c.ret) };
        }
        match last {
            "Some" | "Ok" if segs.len() == 1 => vs.into_iter().next().unwrap_or(Abs::Never),
            "new" if is_wrapper(&segs) => vs.into_iter().next().unwrap_or(Abs::Never),
            "Err" => Abs::Never,
            // `std::iter::once(x)`: an iterator of that one item.
            "once" if vs.len() == 1 => Abs::Seq(Box::new(vs[0].clone())),
            "from" if first_is_f64 => Abs::Float(act),
            "new" | "with_capacity" if is_collection(&segs) => Abs::Seq(Box::new(Abs::Never)),
            "default" if segs.len() == 2 && segs[0] == "Default" => Abs::Never,
            "swap" => {
                if let [a, b] = args {
                    let (va, vb) = (vs[0].deref().clone(), vs[1].deref().clone());
                    self.flow_place(a, &vb);
                    self.flow_place(b, &va);
                }
                Abs::Unknown(false)
            }
            n if first_is_f64 && is_real_method(n) => {
                if n == "sin_cos" {
                    Abs::Tuple(vec![Abs::Float(act), Abs::Float(act)])
                } else {
                    Abs::Float(act)
                }
            }
            n if first_is_f64 && FLOAT_PREDICATES.contains(&n) => Abs::Bool,
            n if transform_depth(n).is_some() => {
                self.flow_mut_args(args, act);
                let mut a = Abs::Float(act);
                for _ in 0..transform_depth(n).unwrap_or(0) {
                    a = Abs::Seq(Box::new(a));
                }
                a
            }
            n if returns_rows(n) => {
                self.flow_mut_args(args, act);
                Abs::Seq(Box::new(Abs::Seq(Box::new(Abs::Float(act)))))
            }
            n if is_fazang_fn(n) => Abs::Float(act),
            _ => {
                self.flow_mut_args(args, act);
                Abs::Unknown(act)
            }
        }
    }

    /// What a function with active arguments writes through `&mut` arguments may be
    /// active.
    pub(super) fn flow_mut_args(&mut self, args: &'a [Expr], act: bool) {
        if !act {
            return;
        }
        for a in args {
            if let Kind::Reference {
                mutable: true,
                expr,
            } = &a.peel().kind
            {
                self.flow_place(expr, &Abs::Unknown(true));
            }
        }
    }

    /// `reduce_sum(data, grainsize, |chunk, start| ..)` (fazang's): the closure applied to
    /// a chunk of `data` and an index; the sum is active if what the closure returns is
    /// (it may read active values it captures). `None` for any other call.
    fn reduce_sum(&mut self, f: &'a Expr, args: &'a [Expr]) -> Option<Abs> {
        let Kind::Path(p) = &f.peel().kind else {
            return None;
        };
        let [data, grain, partial] = args else {
            return None;
        };
        if !is_fazang_reduce_sum(&p.path) {
            return None;
        }
        // A function of the same module called `reduce_sum` is that function.
        if known_callee(self.callees, &["reduce_sum".to_string()], false).is_some()
            && p.path.segments.len() == 1
        {
            return None;
        }
        self.expr(f);
        let d = self.expr(data);
        self.expr(grain);
        let chunk = Abs::Ref(Box::new(Abs::Seq(Box::new(d.deref().elem()))));
        let r = self.apply(partial, &[chunk, Abs::Int]);
        Some(Abs::Float(r.active() || d.active()))
    }

    /// `f(&mut total, ..)` where `f`'s parameter is an active `&mut`: what `f` writes
    /// there is active.
    pub(super) fn written_through(&mut self, c: &Callee, args: &'a [Expr]) {
        for (a, p) in args.iter().zip(&c.params) {
            if let (
                Kind::Reference {
                    mutable: true,
                    expr,
                },
                Some(p),
            ) = (&a.peel().kind, p)
            {
                self.flow_place(expr, p.deref());
            }
        }
    }

    pub(super) fn mac(&mut self, m: &'a Macro) -> Abs {
        match m {
            Macro::VecList(_, xs) => {
                let vs = self.exprs(xs);
                Abs::Seq(Box::new(vs.iter().fold(Abs::Never, |a, b| a.join(b))))
            }
            Macro::VecRepeat(_, x, n) => {
                self.expr(n);
                Abs::Seq(Box::new(self.expr(x)))
            }
            Macro::Args(mac, xs) => {
                let act = self.exprs(xs).iter().any(Abs::active);
                let name = mac.path.segments.last().map(|s| s.ident.to_string());
                match name.as_deref() {
                    Some("matches") => Abs::Bool,
                    Some("panic" | "unreachable" | "todo" | "unimplemented") => Abs::Never,
                    Some(
                        "format" | "print" | "println" | "eprint" | "eprintln" | "write"
                        | "writeln" | "assert" | "assert_eq" | "assert_ne" | "debug_assert"
                        | "debug_assert_eq" | "debug_assert_ne" | "format_args",
                    ) => Abs::Unknown(false),
                    _ => Abs::Unknown(act),
                }
            }
            Macro::Opaque(_) => Abs::Unknown(false),
        }
    }
}

/// The function of the same module (`name(..)`, `Self::name(..)`) or impl block
/// (`self.name(..)`) a call names, if the macro knows it.
pub fn known_callee<'c>(callees: &'c Callees, segs: &[String], method: bool) -> Option<&'c Callee> {
    let name = match segs {
        [n] => n,
        [s, n] if s == "Self" => n,
        _ => return None,
    };
    callees.get(name).filter(|c| c.method == method)
}

/// The same value with no float active (a call of a known function on data only).
pub fn passive(a: &Abs) -> Abs {
    match a {
        Abs::Float(_) => Abs::Float(false),
        Abs::Unknown(_) => Abs::Unknown(false),
        Abs::Seq(x) => Abs::Seq(Box::new(passive(x))),
        Abs::Ref(x) => Abs::Ref(Box::new(passive(x))),
        Abs::Tuple(xs) => Abs::Tuple(xs.iter().map(passive).collect()),
        x => x.clone(),
    }
}

fn is_collection(segs: &[String]) -> bool {
    segs.len() == 2 && matches!(segs[0].as_str(), "Vec" | "VecDeque")
}

fn is_wrapper(segs: &[String]) -> bool {
    segs.len() == 2 && matches!(segs[0].as_str(), "Box" | "Rc" | "Arc" | "Cell" | "RefCell")
}
