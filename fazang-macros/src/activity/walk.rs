//! The walk of the activity analysis: one pass computes every expression's abstract
//! value and joins what flows into bindings; passes repeat until nothing changes.

use super::{Abs, Activity, Callees};
use crate::model::known::*;
use crate::model::*;
use syn::{BinOp, Lit, UnOp};

/// Passes before giving up on a fixed point (values only grow, and every chain of joins
/// is short; this bound is never reached by real code).
const MAX_PASSES: usize = 64;

pub fn run(body: &Body, params: Vec<Abs>, ret: Abs, callees: &Callees) -> Activity {
    let mut w = Walk {
        callees,
        bind: vec![Abs::Never; body.bindings.len()],
        expr: vec![Abs::Never; body.n_exprs],
        closure_ret: vec![Abs::Never; body.closures.len()],
        closures: vec![None; body.closures.len()],
        aliases: Vec::new(),
        loops: Vec::new(),
        rets: Vec::new(),
        changed: false,
    };
    for (i, p) in params.into_iter().enumerate() {
        w.bind[i] = p;
    }
    for _ in 0..MAX_PASSES {
        w.changed = false;
        w.rets.clear();
        w.loops.clear();
        w.block(&body.block);
        if !w.changed {
            break;
        }
    }
    Activity {
        bind: w.bind,
        expr: w.expr,
        closure_ret: w.closure_ret,
        ret,
    }
}

struct Walk<'a> {
    callees: &'a Callees,
    bind: Vec<Abs>,
    expr: Vec<Abs>,
    closure_ret: Vec<Abs>,
    closures: Vec<Option<&'a ClosureExpr>>,
    /// `(r, x)`: binding `r` holds `&mut x`; what is written through `r` reaches `x`.
    aliases: Vec<(BindId, BindId)>,
    /// Loops being walked: label and the join of their `break` values.
    loops: Vec<(Option<String>, Abs)>,
    /// Closures being walked (their `return`s go to them).
    rets: Vec<ClosureId>,
    changed: bool,
}

impl<'a> Walk<'a> {
    fn flow(&mut self, id: BindId, v: &Abs) {
        let new = self.bind[id].join(v);
        if new != self.bind[id] {
            self.bind[id] = new;
            self.changed = true;
        }
        let targets: Vec<BindId> = self
            .aliases
            .iter()
            .filter(|(r, _)| *r == id)
            .map(|(_, x)| *x)
            .collect();
        for x in targets {
            if x != id {
                self.flow(x, v.deref());
            }
        }
    }

    fn block(&mut self, b: &'a Block) -> Abs {
        let mut last = Abs::Unknown(false);
        let mut diverges = false;
        for (i, s) in b.stmts.iter().enumerate() {
            let v = self.stmt(s);
            if v == Abs::Never && !matches!(s, Stmt::Item(_)) {
                diverges = true;
            }
            if i + 1 == b.stmts.len() {
                last = match s {
                    Stmt::Expr(_, false) => v,
                    _ => Abs::Unknown(false),
                };
            }
        }
        if diverges && last == Abs::Unknown(false) {
            Abs::Never
        } else {
            last
        }
    }

    fn stmt(&mut self, s: &'a Stmt) -> Abs {
        match s {
            Stmt::Let(l) => {
                let mut v = match &l.init {
                    Some(e) => self.expr(e),
                    None => Abs::Never,
                };
                if let Some(d) = &l.diverge {
                    self.expr(d);
                }
                if let Some(ty) = &l.ty {
                    v = v.join(&abs_of_type(ty, false));
                }
                self.note_alias(&l.pat, l.init.as_ref());
                self.bind_pat(&l.pat, &v);
                Abs::Unknown(false)
            }
            Stmt::Expr(e, _) => self.expr(e),
            Stmt::Item(_) => Abs::Unknown(false),
        }
    }

    /// `let r = &mut x;`: writes through `r` reach `x`.
    fn note_alias(&mut self, pat: &Pat, init: Option<&Expr>) {
        let (Pat::Ident { id, .. }, Some(init)) = (pat, init) else {
            return;
        };
        if let Kind::Reference {
            mutable: true,
            expr,
        } = &init.peel().kind
        {
            if let Some(x) = root_local(expr) {
                if !self.aliases.contains(&(*id, x)) {
                    self.aliases.push((*id, x));
                }
            }
        }
    }

    fn bind_pat(&mut self, p: &Pat, v: &Abs) {
        match p {
            Pat::Ident {
                id, by_ref, sub, ..
            } => {
                let v2 = if *by_ref {
                    Abs::Ref(Box::new(v.clone()))
                } else {
                    v.clone()
                };
                self.flow(*id, &v2);
                if let Some(s) = sub {
                    self.bind_pat(s, v);
                }
            }
            Pat::Tuple(ps) => {
                let (inner, by_ref) = match v {
                    Abs::Ref(x) => (x.deref(), true),
                    x => (x, false),
                };
                for (i, p) in ps.iter().enumerate() {
                    let c = match inner {
                        Abs::Tuple(xs) if xs.len() == ps.len() => xs[i].clone(),
                        Abs::Never => Abs::Never,
                        x => Abs::Unknown(x.active()),
                    };
                    let c = if by_ref { Abs::Ref(Box::new(c)) } else { c };
                    self.bind_pat(p, &c);
                }
            }
            Pat::TupleStruct(path, ps) => {
                let transparent = path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Some" || s.ident == "Ok");
                let c = if transparent {
                    v.clone()
                } else {
                    Abs::Unknown(v.active())
                };
                ps.iter().for_each(|p| self.bind_pat(p, &c));
            }
            Pat::Struct(_, fs, _) => {
                let c = Abs::Unknown(v.active());
                fs.iter().for_each(|(_, p, _)| self.bind_pat(p, &c));
            }
            Pat::Ref(_, p) => self.bind_pat(p, v.deref()),
            Pat::Slice(ps) => {
                let e = v.elem();
                ps.iter().for_each(|p| self.bind_pat(p, &e));
            }
            Pat::Or(ps) => ps.iter().for_each(|p| self.bind_pat(p, v)),
            Pat::Paren(p) => self.bind_pat(p, v),
            Pat::Type(p, ty) => self.bind_pat(p, &v.join(&abs_of_type(ty, false))),
            Pat::Other(_) => {}
        }
    }

    /// A value written into a place (`x = v`, `x[i] = v`, `*r = v`, `p.f = v`).
    fn flow_place(&mut self, place: &Expr, v: &Abs) {
        match &place.kind {
            Kind::Local(id, _) => self.flow(*id, v),
            Kind::Index(base, idx) => {
                if matches!(idx.peel().kind, Kind::Range(..)) {
                    self.flow_place(base, v)
                } else {
                    self.flow_place(base, &Abs::Seq(Box::new(v.clone())))
                }
            }
            Kind::Field(base, _) => self.flow_place(base, &Abs::Unknown(v.active())),
            Kind::Unary(UnOp::Deref(_), inner) | Kind::Paren(inner) => self.flow_place(inner, v),
            Kind::MethodCall(m) => self.flow_place(&m.receiver, &Abs::Unknown(v.active())),
            _ => {}
        }
    }

    fn expr(&mut self, e: &'a Expr) -> Abs {
        let v = self.expr_kind(e);
        self.expr[e.id] = v.clone();
        v
    }

    fn exprs(&mut self, es: &'a [Expr]) -> Vec<Abs> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn expr_kind(&mut self, e: &'a Expr) -> Abs {
        match &e.kind {
            Kind::Lit(l) => lit(l),
            Kind::Local(id, _) => self.bind[*id].clone(),
            Kind::Path(p) => path_value(p),
            Kind::Unary(op, x) => {
                let v = self.expr(x);
                match op {
                    UnOp::Deref(_) => match v {
                        Abs::Ref(x) => *x,
                        v => v,
                    },
                    _ => v.deref().clone(),
                }
            }
            Kind::Binary(op, l, r) => self.binary(op, l, r),
            Kind::Assign(l, r) => {
                let v = self.expr(r);
                self.expr(l);
                self.flow_place(l, &v);
                Abs::Unknown(false)
            }
            Kind::Call(f, args) => self.call(f, args),
            Kind::MethodCall(m) => self.method(m),
            Kind::Field(base, member) => {
                let b = self.expr(base);
                field(&b, member)
            }
            Kind::Index(base, idx) => {
                let b = self.expr(base);
                let i = self.expr(idx);
                if matches!(i, Abs::Seq(_)) {
                    b.deref().clone()
                } else {
                    b.elem()
                }
            }
            Kind::Paren(x) => self.expr(x),
            Kind::Reference { expr, .. } => Abs::Ref(Box::new(self.expr(expr))),
            Kind::Cast(x, ty) => {
                self.expr(x);
                cast_value(ty)
            }
            Kind::Block(_, label, b) => {
                if label.is_some() {
                    self.loops.push((label_name(label), Abs::Never));
                    let v = self.block(b);
                    let (_, brk) = self.loops.pop().expect("pushed");
                    v.join(&brk)
                } else {
                    self.block(b)
                }
            }
            Kind::If(c, then, els) => {
                self.expr(c);
                let t = self.block(then);
                match els {
                    Some(x) => t.join(&self.expr(x)),
                    None => Abs::Unknown(false),
                }
            }
            Kind::Let(p, x) => {
                let v = self.expr(x);
                self.bind_pat(p, &v);
                Abs::Bool
            }
            Kind::Match(x, arms) => {
                let v = self.expr(x);
                let mut out = Abs::Never;
                for a in arms {
                    self.bind_pat(&a.pat, &v);
                    if let Some(g) = &a.guard {
                        self.expr(g);
                    }
                    out = out.join(&self.expr(&a.body));
                }
                out
            }
            Kind::While(label, c, b) => {
                self.loops.push((label_name(label), Abs::Never));
                self.expr(c);
                self.block(b);
                self.loops.pop();
                Abs::Unknown(false)
            }
            Kind::For(label, p, it, b) => {
                let v = self.expr(it);
                self.bind_pat(p, &v.item());
                self.loops.push((label_name(label), Abs::Never));
                self.block(b);
                self.loops.pop();
                Abs::Unknown(false)
            }
            Kind::Loop(label, b) => {
                self.loops.push((label_name(label), Abs::Never));
                self.block(b);
                let (_, brk) = self.loops.pop().expect("pushed");
                brk
            }
            Kind::Break(label, v) => {
                let v = match v {
                    Some(x) => self.expr(x),
                    None => Abs::Unknown(false),
                };
                let name = label.as_ref().map(|l| l.ident.to_string());
                let target = match name {
                    Some(n) => self
                        .loops
                        .iter_mut()
                        .rev()
                        .find(|(l, _)| l.as_deref() == Some(&n)),
                    None => self.loops.iter_mut().next_back(),
                };
                if let Some((_, acc)) = target {
                    *acc = acc.join(&v);
                }
                Abs::Never
            }
            Kind::Continue(_) => Abs::Never,
            Kind::Return(v) => {
                let v = match v {
                    Some(x) => self.expr(x),
                    None => Abs::Unknown(false),
                };
                if let Some(&c) = self.rets.last() {
                    self.closure_ret[c] = self.closure_ret[c].join(&v);
                }
                Abs::Never
            }
            Kind::Closure(c) => self.closure(c),
            Kind::Tuple(xs) => Abs::Tuple(self.exprs(xs)),
            Kind::Array(xs) => {
                let vs = self.exprs(xs);
                Abs::Seq(Box::new(vs.iter().fold(Abs::Never, |a, b| a.join(b))))
            }
            Kind::Repeat(x, _) => Abs::Seq(Box::new(self.expr(x))),
            Kind::Range(a, _, b) => {
                for x in a.iter().chain(b.iter()) {
                    self.expr(x);
                }
                Abs::Seq(Box::new(Abs::Int))
            }
            Kind::Struct(s) => {
                let mut act = false;
                for (_, x, _) in &s.fields {
                    act |= self.expr(x).active();
                }
                if let Some(r) = &s.rest {
                    act |= self.expr(r).active();
                }
                Abs::Unknown(act)
            }
            Kind::Try(x) => self.expr(x),
            Kind::Macro(m) => self.mac(m),
            Kind::Opaque(_) => Abs::Unknown(false),
        }
    }

    fn binary(&mut self, op: &BinOp, l: &'a Expr, r: &'a Expr) -> Abs {
        let a = self.expr(l);
        let b = self.expr(r);
        match op {
            BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_) => {
                arith(&a, &b)
            }
            BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_) => {
                let v = arith(&a, &b);
                self.flow_place(l, &v);
                Abs::Unknown(false)
            }
            BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_) => Abs::Unknown(false),
            BinOp::BitAnd(_) | BinOp::BitOr(_) | BinOp::BitXor(_) => a.join(&b),
            BinOp::Shl(_) | BinOp::Shr(_) => a,
            _ => Abs::Bool,
        }
    }

    fn closure(&mut self, c: &'a ClosureExpr) -> Abs {
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
    fn apply(&mut self, f: &'a Expr, args: &[Abs]) -> Abs {
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

    fn call(&mut self, f: &'a Expr, args: &'a [Expr]) -> Abs {
        if let Kind::Local(id, _) = &f.peel().kind {
            if let Abs::Closure(_) = self.bind[*id] {
                let vs = self.exprs(args);
                return self.apply(f, &vs);
            }
        }
        self.expr(f);
        let vs = self.exprs(args);
        let act = vs.iter().any(Abs::active);
        let Kind::Path(p) = &f.peel().kind else {
            return Abs::Unknown(act);
        };
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
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
            "matmul" => Abs::Seq(Box::new(Abs::Seq(Box::new(Abs::Float(act))))),
            n if is_fazang_fn(n) => Abs::Float(act),
            _ => {
                if act {
                    // What a function writes through `&mut` arguments may be active.
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
                Abs::Unknown(act)
            }
        }
    }

    /// `f(&mut total, ..)` where `f`'s parameter is an active `&mut`: what `f` writes
    /// there is active.
    fn written_through(&mut self, c: &super::Callee, args: &'a [Expr]) {
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

    fn mac(&mut self, m: &'a Macro) -> Abs {
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

pub mod methods;

/// The function of the same module (`name(..)`, `Self::name(..)`) or impl block
/// (`self.name(..)`) a call names, if the macro knows it.
pub fn known_callee<'c>(
    callees: &'c Callees,
    segs: &[String],
    method: bool,
) -> Option<&'c super::Callee> {
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

fn label_name(l: &Option<syn::Label>) -> Option<String> {
    l.as_ref().map(|l| l.name.ident.to_string())
}

/// The local variable a place expression is rooted at (`x`, `x[i]`, `x.f`, `*x`).
pub fn root_local(e: &Expr) -> Option<BindId> {
    match &e.kind {
        Kind::Local(id, _) => Some(*id),
        Kind::Index(b, _) | Kind::Field(b, _) | Kind::Paren(b) => root_local(b),
        Kind::Unary(UnOp::Deref(_), b) => root_local(b),
        Kind::MethodCall(m) => root_local(&m.receiver),
        _ => None,
    }
}

fn lit(l: &Lit) -> Abs {
    match l {
        Lit::Float(_) => Abs::Float(false),
        Lit::Int(i) if matches!(i.suffix(), "f64" | "f32") => Abs::Float(false),
        Lit::Int(_) => Abs::Int,
        Lit::Bool(_) => Abs::Bool,
        _ => Abs::Unknown(false),
    }
}

fn path_value(p: &syn::ExprPath) -> Abs {
    let segs: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    if is_float_const(&segs) && !(segs.len() == 2 && segs[0] != "f64" && segs[0] != "consts") {
        return Abs::Float(false);
    }
    if segs.len() == 1 && segs[0] == "None" {
        return Abs::Never;
    }
    Abs::Unknown(false)
}

fn field(b: &Abs, member: &syn::Member) -> Abs {
    match (b.deref(), member) {
        (Abs::Tuple(xs), syn::Member::Unnamed(i)) => xs
            .get(i.index as usize)
            .cloned()
            .unwrap_or(Abs::Unknown(false)),
        (Abs::Never, _) => Abs::Never,
        (x, _) => Abs::Unknown(x.active()),
    }
}

fn arith(a: &Abs, b: &Abs) -> Abs {
    match (a.deref(), b.deref()) {
        (Abs::Float(x), Abs::Float(y)) => Abs::Float(*x || *y),
        (Abs::Int, Abs::Int) => Abs::Int,
        (Abs::Never, x) | (x, Abs::Never) => x.clone(),
        (Abs::Float(x), Abs::Unknown(y)) | (Abs::Unknown(y), Abs::Float(x)) => Abs::Float(*x || *y),
        (x, y) => Abs::Unknown(x.active() || y.active()),
    }
}

fn cast_value(ty: &syn::Type) -> Abs {
    let t = crate::types::strip(ty);
    if crate::util::is_f64(t) || matches!(t, syn::Type::Path(p) if p.path.is_ident("f32")) {
        return Abs::Float(false);
    }
    if let syn::Type::Path(p) = t {
        if INT_TYPES.iter().any(|n| p.path.is_ident(n)) {
            return Abs::Int;
        }
    }
    Abs::Unknown(false)
}

/// The abstract value of a value of type `ty` (floats active if `active`).
pub fn abs_of_type(ty: &syn::Type, active: bool) -> Abs {
    use syn::Type;
    let t = crate::types::strip(ty);
    if crate::util::is_f64(t) {
        return Abs::Float(active);
    }
    match t {
        Type::Array(a) => Abs::Seq(Box::new(abs_of_type(&a.elem, active))),
        Type::Slice(s) => Abs::Seq(Box::new(abs_of_type(&s.elem, active))),
        Type::Reference(r) => Abs::Ref(Box::new(abs_of_type(&r.elem, active))),
        Type::Tuple(tt) if tt.elems.is_empty() => Abs::Unknown(false),
        Type::Tuple(tt) => Abs::Tuple(tt.elems.iter().map(|e| abs_of_type(e, active)).collect()),
        Type::Infer(_) => Abs::Never,
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return Abs::Unknown(false);
            };
            let name = last.ident.to_string();
            let arg = match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    syn::GenericArgument::Type(t) => Some(t),
                    _ => None,
                }),
                _ => None,
            };
            match (name.as_str(), arg) {
                ("bool", None) => Abs::Bool,
                (n, None) if INT_TYPES.contains(&n) => Abs::Int,
                ("f32", None) => Abs::Float(false),
                ("Vec" | "VecDeque", Some(t)) => Abs::Seq(Box::new(abs_of_type(t, active))),
                _ if crate::types::container(t).is_some() => Abs::Seq(Box::new(Abs::Float(active))),
                ("Option" | "Result" | "Box" | "Rc" | "Arc", Some(t)) => abs_of_type(t, active),
                _ => Abs::Unknown(active),
            }
        }
        _ => Abs::Unknown(false),
    }
}
