//! Expressions: floats into three-address statements, data into Rust, the rest handed to
//! the lowering of calls, iterators, control flow, and arrays and places ([`super::place`]).

use super::*;
use crate::model::{Expr as MExpr, Kind as MKind, Macro};
use quote::quote;
use syn::{BinOp, Lit, UnOp};

/// An arithmetic operator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl Arith {
    pub fn of(op: &BinOp) -> Option<Arith> {
        Some(match op {
            BinOp::Add(_) => Arith::Add,
            BinOp::Sub(_) => Arith::Sub,
            BinOp::Mul(_) => Arith::Mul,
            BinOp::Div(_) => Arith::Div,
            BinOp::Rem(_) => Arith::Rem,
            _ => return None,
        })
    }

    fn token(self) -> TokenStream {
        match self {
            Arith::Add => quote!(+),
            Arith::Sub => quote!(-),
            Arith::Mul => quote!(*),
            Arith::Div => quote!(/),
            Arith::Rem => quote!(%),
        }
    }
}

impl<'a> Lower<'a> {
    /// Lower an expression to its value. A value the activity analysis of the model found
    /// active must come out as floats: were it data, its derivative would be lost
    /// silently; the function takes the tape instead.
    pub fn expr(&mut self, e: &'a MExpr) -> R<Val> {
        let outer = std::mem::replace(&mut self.span, e.span);
        let v = self.expr_at(e);
        self.span = outer;
        v
    }

    fn expr_at(&mut self, e: &'a MExpr) -> R<Val> {
        if let MKind::Local(id, ident) = &e.peel().kind {
            return match &self.env[*id] {
                Some(v) => Ok(v.clone()),
                None => no(format!("`{ident}` read before it has a value")),
            };
        }
        if let Some(c) = const_expr(e) {
            return Ok(c);
        }
        if self.result_positions.contains(&e.id) {
            if let Some(v) = self.result_value(e)? {
                return Ok(v);
            }
        }
        // Closures are applied where they are called; what never returns (`panic!`,
        // `unreachable!`) is control flow.
        let data = !matches!(e.peel().kind, MKind::Closure(_))
            && !matches!(self.abs(e), Abs::Never)
            && self.pure_data(e);
        let v = if data {
            self.data_expr(e)?
        } else {
            self.expr_inner(e)?
        };
        let lost = match (self.abs(e).deref(), &v) {
            (Abs::Float(true), Val::D(d)) => self.vars[*d].kind != Kind::F64,
            (Abs::Float(true), Val::C(_)) => true,
            (Abs::Seq(x), Val::D(_)) => x.active(),
            _ => false,
        };
        if lost {
            if std::env::var_os("FAZANG_IR_TRACE").is_some() {
                eprintln!("lost: {:?} -> {:?}", self.abs(e), v);
            }
            return no(format!(
                "an active value the adjoint code would treat as data (`{}`: a bug of \
                 #[differentiate], please report it)",
                self.body_text(e)
            ));
        }
        Ok(v)
    }

    /// An expression lowered by its form even if it is data as a whole (`once(0.0)`).
    pub fn expr_structural(&mut self, e: &'a MExpr) -> R<Val> {
        self.expr_inner(e)
    }

    /// An expression lowered by its form (not as data as a whole).
    pub(super) fn expr_inner(&mut self, e: &'a MExpr) -> R<Val> {
        match &e.kind {
            MKind::Lit(l) => Ok(lit_val(l).unwrap_or(Val::Unit)),
            MKind::Local(id, ident) => match &self.env[*id] {
                Some(v) => Ok(v.clone()),
                None => no(format!("`{ident}` read before it has a value")),
            },
            MKind::Paren(x) => self.expr(x),
            MKind::Unary(UnOp::Neg(_), x) => {
                let v = self.expr(x)?;
                self.neg(v)
            }
            MKind::Unary(UnOp::Deref(_), x) => {
                let v = self.expr(x)?;
                Ok(match v {
                    Val::MutRef(t) => Val::F(Op::Var(t)),
                    Val::MutPlace(p) => self.load(p),
                    v => v,
                })
            }
            MKind::Binary(op, l, r) => self.binary(e, op, l, r),
            MKind::Assign(..) => self.expr_stmt(e),
            MKind::Reference { mutable, expr } => self.reference(*mutable, expr),
            MKind::Index(b, i) => self.index(e, b, i),
            MKind::Field(b, m) => self.field(e, b, m),
            MKind::Cast(x, ty) => self.cast(x, ty),
            MKind::Tuple(xs) => {
                let vs = xs.iter().map(|x| self.expr(x)).collect::<R<Vec<_>>>()?;
                Ok(Val::Tuple(vs))
            }
            MKind::Closure(c) => {
                self.closures[c.id] = Some(c);
                Ok(Val::Closure(c.id))
            }
            MKind::Array(xs) => self.array_list(xs, ArrayForm::Fixed),
            MKind::Repeat(x, n) => {
                let v = self.expr(x)?;
                let op = self.float(v, "an array element")?;
                let n = Op::Const(toks(quote!(#n)));
                self.alloc(Init::Repeat(op, n, ArrayForm::Fixed))
            }
            MKind::Macro(Macro::VecList(_, xs)) => self.array_list(xs, ArrayForm::Vec),
            MKind::Macro(Macro::VecRepeat(_, x, n)) => {
                let v = self.expr(x)?;
                let op = self.float(v, "a vector element")?;
                let n = self.index_op(n)?;
                self.alloc(Init::Repeat(op, n, ArrayForm::Vec))
            }
            MKind::Macro(Macro::Args(mac, xs)) => self.macro_args(e, mac, xs),
            MKind::Call(f, args) => self.call(e, f, args),
            MKind::MethodCall(m) => self.method(e, m),
            MKind::Try(x) => self.try_expr(x),
            MKind::Range(..) => self.range(e),
            MKind::Block(model::BlockKind::Plain, None, b) => self.block_value(b),
            MKind::If(c, t, els) => self.if_expr(c, t, els.as_deref()),
            MKind::Match(x, arms) => self.match_expr(x, arms),
            MKind::While(label, c, b) => self.while_loop(label, c, b),
            MKind::For(label, p, it, b) => self.for_loop(label, p, it, b),
            MKind::Loop(label, b) => self.loop_expr(label, b),
            MKind::Break(label, v) => self.break_expr(label.as_ref(), v.as_deref()),
            MKind::Continue(label) => self.continue_expr(label.as_ref()),
            MKind::Return(v) => self.return_expr(v.as_deref()),
            MKind::Block(..) => no("a labelled, `unsafe` or `const` block"),
            MKind::Let(..) => no("`if let`/`while let` on an active value"),
            MKind::Struct(_) => no("a struct built from active values"),
            MKind::Unary(..) => {
                let (t, reads) = self.mixed_tokens(e)?;
                Ok(self.data_val(e, t, reads))
            }
            MKind::Path(_) | MKind::Opaque(_) | MKind::Macro(_) => {
                no("an expression the adjoint code cannot read")
            }
        }
    }

    /// A data expression: a float constant, or a variable computed by it.
    pub fn data_expr(&mut self, e: &MExpr) -> R<Val> {
        if let MKind::Lit(l) = &e.peel().kind {
            if let Some(v) = lit_val(l) {
                return Ok(v);
            }
        }
        if let MKind::Path(p) = &e.peel().kind {
            let segs: Vec<String> = crate::util::path_names(&p.path);
            if crate::model::known::is_float_const(&segs) {
                return Ok(Val::F(Op::Const(toks(quote!(#p)))));
            }
        }
        let (t, reads) = self.data_tokens(e)?;
        Ok(self.data_val(e, t, reads))
    }

    /// A data value of `e`'s abstract value computed by `t`.
    pub fn data_val(&mut self, e: &MExpr, t: TokenStream, reads: Vec<V>) -> Val {
        let kind = match self.kind_of_abs(self.abs(e)) {
            // A value of a type the macro cannot see that its use makes a float
            // (`h(k as f64)?.max(x)`).
            Kind::Data(DataKind::Other) if self.hints.exprs.contains(&e.id) => Kind::F64,
            k => k,
        };
        // A place of a type the macro cannot see (`self.y`, `rows[i]`) is borrowed, not
        // moved out of.
        let t = match (&e.peel().kind, kind) {
            (MKind::Field(..) | MKind::Index(..), Kind::Data(DataKind::Other)) => quote!(&#t),
            _ => t,
        };
        let v = self.data_with("d", kind, t, reads, data::model_pure(e));
        // rustc's messages about the value point at the user's expression.
        self.vars[v].ident = crate::util::ident_at(&self.vars[v].ident, e.span);
        match kind {
            Kind::F64 => Val::F(Op::Var(v)),
            _ => Val::D(v),
        }
    }

    /// A data expression with active parts (`x > 0.0`, `x.is_nan()`): each child lowered
    /// to its value, the node printed over them.
    pub fn mixed_tokens(&mut self, e: &'a MExpr) -> R<(TokenStream, Vec<V>)> {
        let mut reads = Vec::new();
        let mut child = |lw: &mut Self, x: &'a MExpr| -> R<TokenStream> {
            let v = lw.expr(x)?;
            let (t, r) = lw.val_tokens(&v)?;
            reads.extend(r);
            Ok(t)
        };
        // Spanned as the user's expression: rustc points there, not at the attribute.
        let sp = e.span;
        let t = match &e.kind {
            MKind::Binary(op, l, r) => {
                let (l, r) = (child(self, l)?, child(self, r)?);
                quote::quote_spanned!(sp=> (#l #op #r))
            }
            MKind::Unary(op, x) => {
                let x = child(self, x)?;
                quote::quote_spanned!(sp=> (#op #x))
            }
            MKind::Cast(x, ty) => {
                let x = child(self, x)?;
                quote::quote_spanned!(sp=> (#x as #ty))
            }
            MKind::Paren(x) => child(self, x)?,
            MKind::MethodCall(m) => {
                let recv = child(self, &m.receiver)?;
                let mut args = Vec::new();
                for a in &m.args {
                    args.push(child(self, a)?);
                }
                let (name, tf) = (&m.method, m.turbofish.as_ref().map(|t| quote!(#t)));
                quote!(#recv.#name #tf(#(#args),*))
            }
            MKind::Call(f, args) => {
                let (f, _) = self.data_tokens(f)?;
                let mut xs = Vec::new();
                for a in args {
                    xs.push(child(self, a)?);
                }
                quote!(#f(#(#xs),*))
            }
            _ => return no("data computed from active values in this form"),
        };
        Ok((t, reads))
    }

    /// `-v`.
    fn neg(&mut self, v: Val) -> R<Val> {
        match v {
            Val::D(d) if self.vars[d].kind != Kind::F64 => {
                let i = self.ident(d).clone();
                let kind = self.vars[d].kind;
                Ok(Val::D(self.data("d", kind, quote!(-#i), vec![d])))
            }
            v => {
                let op = self.float(v, "a negated value")?;
                Ok(Val::F(self.set(Rhs::Neg(op))))
            }
        }
    }

    fn binary(&mut self, e: &'a MExpr, op: &BinOp, l: &'a MExpr, r: &'a MExpr) -> R<Val> {
        if stmt::is_compound(op) {
            return self.expr_stmt(e);
        }
        if let Some(a) = Arith::of(op) {
            let lv = self.expr(l)?;
            let rv = self.expr(r)?;
            return self.arith(a, lv, rv);
        }
        // Comparisons and logic: data over the operands' values. `&&`/`||` evaluate their
        // right side only if needed: lowered as a branch when it computes anything.
        if matches!(op, BinOp::And(_) | BinOp::Or(_)) && !self.pure_data(r) {
            return self.short_circuit(op, l, r);
        }
        let (t, reads) = self.mixed_tokens(e)?;
        Ok(self.data_val(e, t, reads))
    }

    /// `a op b` on values.
    pub fn arith(&mut self, a: Arith, lv: Val, rv: Val) -> R<Val> {
        // Data of a type the macro cannot see is a float next to a float (the primal's
        // arithmetic has both sides of one type), data otherwise.
        let is_float = |lw: &Self, v: &Val| {
            matches!(v, Val::F(_)) || matches!(v, Val::D(d) if lw.vars[*d].kind == Kind::F64)
        };
        if !is_float(self, &lv) && !is_float(self, &rv) {
            let (lt, mut reads) = self.val_tokens(&lv)?;
            let (rt, rr) = self.val_tokens(&rv)?;
            reads.extend(rr);
            let op = a.token();
            let kind = match (&lv, &rv) {
                (Val::D(d), _) | (_, Val::D(d)) => self.vars[*d].kind,
                _ => Kind::Data(DataKind::Int),
            };
            return Ok(Val::D(self.data("d", kind, quote!((#lt #op #rt)), reads)));
        }
        let x = self.float(lv, "an operand")?;
        let y = self.float(rv, "an operand")?;
        let rhs = match a {
            Arith::Add => Rhs::Add(x, y),
            Arith::Sub => Rhs::Sub(x, y),
            Arith::Mul => Rhs::Mul(x, y),
            Arith::Div => Rhs::Div(x, y),
            Arith::Rem => Rhs::Rem(x, y),
        };
        Ok(Val::F(self.set(rhs)))
    }

    /// `l && r`, `l || r` where `r` computes something: `r` under a branch.
    fn short_circuit(&mut self, op: &BinOp, l: &'a MExpr, r: &'a MExpr) -> R<Val> {
        let lv = self.expr(l)?;
        let (lt, reads) = self.val_tokens(&lv)?;
        let out = self.data("b", Kind::Data(DataKind::Bool), lt, reads);
        let oi = self.ident(out).clone();
        let test = match op {
            BinOp::And(_) => quote!(#oi),
            _ => quote!(!#oi),
        };
        let c = self.data("c", Kind::Data(DataKind::Bool), test, vec![out]);
        let (then, ()) = self.in_block(|lw| {
            let rv = lw.expr(r)?;
            let (rt, rr) = lw.val_tokens(&rv)?;
            lw.emit(Stmt::Data {
                dst: out,
                expr: toks(rt),
                reads: rr,
                pure: false,
            });
            Ok(())
        })?;
        self.emit(Stmt::If {
            cond: c,
            then,
            els: vec![],
        });
        Ok(Val::D(out))
    }

    /// `x as T`.
    fn cast(&mut self, x: &'a MExpr, ty: &syn::Type) -> R<Val> {
        let v = self.expr(x)?;
        if crate::util::is_f64(ty) {
            if let Val::F(_) = v {
                // `as f64` on a float (validated data): the same value.
                return Ok(v);
            }
            let (t, reads) = self.val_tokens(&v)?;
            let d = self.data("f", Kind::F64, quote!((#t as f64)), reads);
            return Ok(Val::F(Op::Var(d)));
        }
        let (t, reads) = self.val_tokens(&v)?;
        let kind = match crate::activity::abs_of_type(ty, false) {
            Abs::Int => Kind::Data(DataKind::Int),
            Abs::Bool => Kind::Data(DataKind::Bool),
            Abs::Float(_) => Kind::F64,
            _ => Kind::Data(DataKind::Other),
        };
        let d = self.data("d", kind, quote!((#t as #ty)), reads);
        Ok(match kind {
            Kind::F64 => Val::F(Op::Var(d)),
            _ => Val::D(d),
        })
    }

    /// `format!`, `println!`, `assert!` and other macros of comma-separated arguments:
    /// each argument lowered, the macro printed over their values.
    fn macro_args(&mut self, e: &'a MExpr, mac: &syn::Macro, xs: &'a [MExpr]) -> R<Val> {
        if crate::codegen::generic::has_inline_capture(xs) {
            return no("a format string naming a local variable (`{x}`)");
        }
        let name = mac.path.segments.last().map(|s| s.ident.to_string());
        let mut args = Vec::new();
        let mut reads = Vec::new();
        for x in xs {
            let v = self.expr(x)?;
            let (t, r) = self.val_tokens(&v)?;
            args.push(t);
            reads.extend(r);
        }
        let path = &mac.path;
        let call = quote!(#path!(#(#args),*));
        match name.as_deref() {
            Some("panic" | "unreachable" | "todo" | "unimplemented") => {
                self.emit(Stmt::Effect {
                    tokens: toks(quote!(#call;)),
                    reads,
                });
                Ok(Val::Never)
            }
            Some(
                "print" | "println" | "eprint" | "eprintln" | "assert" | "assert_eq" | "assert_ne"
                | "debug_assert" | "debug_assert_eq" | "debug_assert_ne",
            ) => {
                self.emit(Stmt::Effect {
                    tokens: toks(quote!(#call;)),
                    reads,
                });
                Ok(Val::Unit)
            }
            _ if !self.abs(e).active() => Ok(self.data_val(e, call, reads)),
            _ => no("a macro computing an active value"),
        }
    }
}

/// A literal's value: floats are constants, other literals data constants.
pub fn lit_val(l: &Lit) -> Option<Val> {
    match l {
        Lit::Float(_) => Some(Val::F(Op::Const(toks(quote!(#l))))),
        Lit::Int(i) if matches!(i.suffix(), "f64" | "f32") => {
            Some(Val::F(Op::Const(toks(quote!(#l)))))
        }
        _ => None,
    }
}

/// A constant written in the body: a literal (negated or parenthesised), a float constant
/// (`PI`, `f64::EPSILON`), or arithmetic of float constants: printed where it is used.
pub fn const_expr(e: &MExpr) -> Option<Val> {
    match &e.kind {
        MKind::Paren(x) => const_expr(x),
        MKind::Lit(l) => Some(lit_val(l).unwrap_or_else(|| Val::C(toks(quote!(#l))))),
        MKind::Unary(UnOp::Neg(_), x) => match const_expr(x)? {
            Val::F(Op::Const(t)) => {
                let t = t.0;
                Some(Val::F(Op::Const(toks(quote!((-#t))))))
            }
            Val::C(t) => {
                let t = t.0;
                Some(Val::C(toks(quote!((-#t)))))
            }
            _ => None,
        },
        MKind::Path(p) => {
            let segs: Vec<String> = crate::util::path_names(&p.path);
            crate::model::known::is_float_const(&segs).then(|| Val::F(Op::Const(toks(quote!(#p)))))
        }
        MKind::Binary(op, l, r) if Arith::of(op).is_some() => {
            match (const_expr(l)?, const_expr(r)?) {
                (Val::F(Op::Const(a)), Val::F(Op::Const(b))) => {
                    let (a, b) = (a.0, b.0);
                    Some(Val::F(Op::Const(toks(quote!((#a #op #b))))))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

impl Lower<'_> {
    /// An expression's source text, for messages.
    pub fn body_text(&self, e: &MExpr) -> String {
        match self.data_tokens(e) {
            Ok((t, _)) => t.to_string(),
            Err(_) => String::from("an expression"),
        }
    }
}

impl<'a> Lower<'a> {
    /// In a function returning `Result`, an expression giving its result: `Ok(x)` is
    /// `x`, `Err(e)` returns the error, data is unwrapped with `?`; `None` for what the
    /// lowering of calls handles (`?` inside the call's statement).
    fn result_value(&mut self, e: &'a MExpr) -> R<Option<Val>> {
        if let MKind::Call(f, args) = &e.peel().kind {
            if super::control::is_path(f, "Ok") && args.len() == 1 {
                return self.expr(&args[0]).map(Some);
            }
            if super::control::is_path(f, "Err") {
                let (t, reads) = self.data_tokens(e)?;
                self.emit(Stmt::Effect {
                    tokens: toks(quote!(return #t;)),
                    reads,
                });
                return Ok(Some(Val::Never));
            }
        }
        if self.pure_data(e) && !matches!(self.abs(e), Abs::Never) {
            let (t, reads) = self.data_tokens(e)?;
            let kind = match self.abs(e).deref() {
                Abs::Float(_) | Abs::Unknown(_) => Kind::F64,
                a => self.kind_of_abs(a),
            };
            let v = self.data_with("d", kind, quote!((#t)?), reads, false);
            return Ok(Some(match kind {
                Kind::F64 => Val::F(Op::Var(v)),
                _ => Val::D(v),
            }));
        }
        Ok(None)
    }
}
