//! Lowering a syn function body into the [model](super): names resolved to bindings with
//! Rust's scoping (a `let` is visible after its statement, pattern bindings in their arm,
//! closure parameters in the closure), every expression numbered.

use super::*;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::Token;

/// A parameter of the function being lowered.
pub struct ParamDecl {
    pub ident: Ident,
}

/// Lower `block` with `params` in scope; their bindings are `0..params.len()`.
pub fn lower_body(params: &[ParamDecl], block: &syn::Block) -> Body {
    let mut cx = Lower::default();
    cx.scopes.push(Vec::new());
    for p in params {
        cx.bind(&p.ident);
    }
    let block = cx.block(block);
    Body {
        block,
        bindings: cx.bindings,
        closures: cx.closures,
        n_exprs: cx.n_exprs,
    }
}

#[derive(Default)]
struct Lower {
    bindings: Vec<Binding>,
    closures: Vec<Closure>,
    /// Visible bindings, innermost scope last.
    scopes: Vec<Vec<(String, BindId)>>,
    n_exprs: usize,
}

impl Lower {
    fn bind(&mut self, ident: &Ident) -> BindId {
        let id = self.bindings.len();
        self.bindings.push(Binding {
            name: ident.clone(),
        });
        self.scopes
            .last_mut()
            .expect("a scope is open")
            .push((ident.to_string(), id));
        id
    }

    fn lookup(&self, name: &str) -> Option<BindId> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
    }

    fn scoped<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.scopes.push(Vec::new());
        let r = f(self);
        self.scopes.pop();
        r
    }

    fn expr_node(&mut self, span: Span, attrs: Vec<Attribute>, kind: Kind) -> Expr {
        let id = self.n_exprs;
        self.n_exprs += 1;
        Expr {
            id,
            span,
            attrs,
            kind,
        }
    }

    fn block(&mut self, b: &syn::Block) -> Block {
        self.scoped(|cx| Block {
            // An empty statement (`let x = 0.0; ;`) does nothing.
            stmts: b
                .stmts
                .iter()
                .filter(|s| !matches!(s, syn::Stmt::Expr(syn::Expr::Verbatim(t), Some(_)) if t.is_empty()))
                .map(|s| cx.stmt(s))
                .collect(),
            span: b.brace_token.span.join(),
        })
    }

    fn stmt(&mut self, s: &syn::Stmt) -> Stmt {
        match s {
            syn::Stmt::Local(l) => Stmt::Let(self.local(l)),
            syn::Stmt::Item(i) => Stmt::Item(Box::new(i.clone())),
            syn::Stmt::Expr(e, semi) => Stmt::Expr(self.expr(e), semi.is_some()),
            syn::Stmt::Macro(m) => {
                let e = syn::Expr::Macro(syn::ExprMacro {
                    attrs: m.attrs.clone(),
                    mac: m.mac.clone(),
                });
                Stmt::Expr(self.expr(&e), m.semi_token.is_some())
            }
        }
    }

    fn local(&mut self, l: &syn::Local) -> Let {
        {
            {
                let (pat, ty) = match &l.pat {
                    syn::Pat::Type(pt) => (&*pt.pat, Some((*pt.ty).clone())),
                    p => (p, None),
                };
                let init = l.init.as_ref().map(|i| self.expr(&i.expr));
                let diverge = l
                    .init
                    .as_ref()
                    .and_then(|i| i.diverge.as_ref())
                    .map(|(_, e)| self.expr(e));
                let pat = self.pat(pat, ty.as_ref());
                Let {
                    attrs: l.attrs.clone(),
                    pat,
                    ty,
                    init,
                    diverge,
                    span: l.span(),
                }
            }
        }
    }

    /// A pattern; its bindings enter the current scope. `ty` is the type written for the
    /// whole pattern (given to a single binding).
    fn pat(&mut self, p: &syn::Pat, ty: Option<&Type>) -> Pat {
        match p {
            syn::Pat::Ident(pi) if is_binding(pi) => {
                let sub = pi.subpat.as_ref().map(|(_, s)| Box::new(self.pat(s, None)));
                let id = self.bind(&pi.ident);
                Pat::Ident {
                    id,
                    by_ref: pi.by_ref.is_some(),
                    mutable: pi.mutability.is_some(),
                    ident: pi.ident.clone(),
                    sub,
                }
            }
            syn::Pat::Tuple(t) => Pat::Tuple(self.pats(&t.elems, tuple_elem_types(ty))),
            syn::Pat::TupleStruct(t) => Pat::TupleStruct(t.path.clone(), self.pats(&t.elems, None)),
            syn::Pat::Struct(s) => Pat::Struct(
                s.path.clone(),
                s.fields
                    .iter()
                    .map(|f| {
                        (
                            f.member.clone(),
                            self.pat(&f.pat, None),
                            f.colon_token.is_some(),
                        )
                    })
                    .collect(),
                s.rest.is_some(),
            ),
            syn::Pat::Reference(r) => {
                Pat::Ref(r.mutability.is_some(), Box::new(self.pat(&r.pat, None)))
            }
            syn::Pat::Slice(s) => Pat::Slice(self.pats(&s.elems, None)),
            syn::Pat::Or(o) => {
                // Every alternative binds the same names: bind them once, from the first.
                let first = self.pat(&o.cases[0], ty);
                let mut cases = vec![first];
                for c in o.cases.iter().skip(1) {
                    cases.push(self.pat_rebinding(c));
                }
                Pat::Or(cases)
            }
            syn::Pat::Paren(p) => Pat::Paren(Box::new(self.pat(&p.pat, ty))),
            syn::Pat::Type(t) => {
                Pat::Type(Box::new(self.pat(&t.pat, Some(&t.ty))), (*t.ty).clone())
            }
            other => Pat::Other(other.clone()),
        }
    }

    /// A later alternative of an or-pattern: its names refer to the bindings of the first.
    fn pat_rebinding(&mut self, p: &syn::Pat) -> Pat {
        match p {
            syn::Pat::Ident(pi) if is_binding(pi) => match self.lookup(&pi.ident.to_string()) {
                Some(id) => Pat::Ident {
                    id,
                    by_ref: pi.by_ref.is_some(),
                    mutable: pi.mutability.is_some(),
                    ident: pi.ident.clone(),
                    sub: None,
                },
                None => self.pat(p, None),
            },
            syn::Pat::Tuple(t) => {
                Pat::Tuple(t.elems.iter().map(|p| self.pat_rebinding(p)).collect())
            }
            syn::Pat::TupleStruct(t) => Pat::TupleStruct(
                t.path.clone(),
                t.elems.iter().map(|p| self.pat_rebinding(p)).collect(),
            ),
            syn::Pat::Reference(r) => {
                Pat::Ref(r.mutability.is_some(), Box::new(self.pat_rebinding(&r.pat)))
            }
            other => self.pat(other, None),
        }
    }

    fn pats(&mut self, ps: &Punctuated<syn::Pat, Token![,]>, tys: Option<Vec<Type>>) -> Vec<Pat> {
        ps.iter()
            .enumerate()
            .map(|(i, p)| {
                let ty = tys.as_ref().and_then(|t| t.get(i)).cloned();
                self.pat(p, ty.as_ref())
            })
            .collect()
    }

    fn exprs(&mut self, es: &Punctuated<syn::Expr, Token![,]>) -> Vec<Expr> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn boxed(&mut self, e: &syn::Expr) -> Box<Expr> {
        Box::new(self.expr(e))
    }

    fn expr(&mut self, e: &syn::Expr) -> Expr {
        let span = e.span();
        let (attrs, kind) = match e {
            syn::Expr::Lit(l) => (l.attrs.clone(), Kind::Lit(l.lit.clone())),
            syn::Expr::Path(p) => (p.attrs.clone(), self.path(p)),
            syn::Expr::Unary(u) => (u.attrs.clone(), Kind::Unary(u.op, self.boxed(&u.expr))),
            syn::Expr::Binary(b) => {
                let l = self.boxed(&b.left);
                let r = self.boxed(&b.right);
                (b.attrs.clone(), Kind::Binary(b.op, l, r))
            }
            syn::Expr::Assign(a) => {
                let l = self.boxed(&a.left);
                let r = self.boxed(&a.right);
                (a.attrs.clone(), Kind::Assign(l, r))
            }
            syn::Expr::Call(c) => {
                let f = self.boxed(&c.func);
                (c.attrs.clone(), Kind::Call(f, self.exprs(&c.args)))
            }
            syn::Expr::MethodCall(m) => {
                let receiver = self.boxed(&m.receiver);
                let args = self.exprs(&m.args);
                let call = MethodCall {
                    receiver,
                    method: m.method.clone(),
                    turbofish: m.turbofish.clone(),
                    args,
                };
                (m.attrs.clone(), Kind::MethodCall(call))
            }
            syn::Expr::Field(f) => (
                f.attrs.clone(),
                Kind::Field(self.boxed(&f.base), f.member.clone()),
            ),
            syn::Expr::Index(i) => {
                let b = self.boxed(&i.expr);
                (i.attrs.clone(), Kind::Index(b, self.boxed(&i.index)))
            }
            syn::Expr::Paren(p) => (p.attrs.clone(), Kind::Paren(self.boxed(&p.expr))),
            syn::Expr::Group(g) => (g.attrs.clone(), Kind::Paren(self.boxed(&g.expr))),
            syn::Expr::Reference(r) => (
                r.attrs.clone(),
                Kind::Reference {
                    mutable: r.mutability.is_some(),
                    expr: self.boxed(&r.expr),
                },
            ),
            syn::Expr::Cast(c) => (
                c.attrs.clone(),
                Kind::Cast(self.boxed(&c.expr), (*c.ty).clone()),
            ),
            syn::Expr::Block(b) => (
                b.attrs.clone(),
                Kind::Block(BlockKind::Plain, b.label.clone(), self.block(&b.block)),
            ),
            syn::Expr::Unsafe(b) => (
                b.attrs.clone(),
                Kind::Block(BlockKind::Unsafe, None, self.block(&b.block)),
            ),
            syn::Expr::Const(b) => (
                b.attrs.clone(),
                Kind::Block(BlockKind::Const, None, self.block(&b.block)),
            ),
            syn::Expr::If(i) => (i.attrs.clone(), self.if_expr(i)),
            syn::Expr::Let(l) => {
                // Only reached outside an `if`/`while` condition (let chains are lowered
                // by `cond`); bindings go into the current scope.
                let scrutinee = self.boxed(&l.expr);
                (
                    l.attrs.clone(),
                    Kind::Let(self.pat(&l.pat, None), scrutinee),
                )
            }
            syn::Expr::Match(m) => {
                let scrutinee = self.boxed(&m.expr);
                let arms = m.arms.iter().map(|a| self.arm(a)).collect();
                (m.attrs.clone(), Kind::Match(scrutinee, arms))
            }
            syn::Expr::While(w) => {
                let (cond, body) = self.scoped(|cx| {
                    let cond = cx.cond(&w.cond);
                    (cond, cx.block(&w.body))
                });
                (w.attrs.clone(), Kind::While(w.label.clone(), cond, body))
            }
            syn::Expr::ForLoop(f) => {
                let iter = self.boxed(&f.expr);
                let (pat, body) = self.scoped(|cx| {
                    let pat = cx.pat(&f.pat, None);
                    (pat, cx.block(&f.body))
                });
                (f.attrs.clone(), Kind::For(f.label.clone(), pat, iter, body))
            }
            syn::Expr::Loop(l) => (
                l.attrs.clone(),
                Kind::Loop(l.label.clone(), self.block(&l.body)),
            ),
            syn::Expr::Break(b) => {
                let v = b.expr.as_ref().map(|e| self.boxed(e));
                (b.attrs.clone(), Kind::Break(b.label.clone(), v))
            }
            syn::Expr::Continue(c) => (c.attrs.clone(), Kind::Continue(c.label.clone())),
            syn::Expr::Return(r) => {
                let v = r.expr.as_ref().map(|e| self.boxed(e));
                (r.attrs.clone(), Kind::Return(v))
            }
            syn::Expr::Closure(c) => (c.attrs.clone(), Kind::Closure(self.closure(c))),
            syn::Expr::Tuple(t) => (t.attrs.clone(), Kind::Tuple(self.exprs(&t.elems))),
            syn::Expr::Array(a) => (a.attrs.clone(), Kind::Array(self.exprs(&a.elems))),
            syn::Expr::Repeat(r) => (
                r.attrs.clone(),
                Kind::Repeat(self.boxed(&r.expr), r.len.clone()),
            ),
            syn::Expr::Range(r) => {
                let start = r.start.as_ref().map(|e| self.boxed(e));
                let end = r.end.as_ref().map(|e| self.boxed(e));
                (r.attrs.clone(), Kind::Range(start, r.limits, end))
            }
            syn::Expr::Struct(s) => (s.attrs.clone(), Kind::Struct(self.struct_lit(s))),
            syn::Expr::Try(t) => (t.attrs.clone(), Kind::Try(self.boxed(&t.expr))),
            syn::Expr::Macro(m) => (m.attrs.clone(), Kind::Macro(self.mac(&m.mac))),
            other => (Vec::new(), Kind::Opaque(other.clone())),
        };
        self.expr_node(span, attrs, kind)
    }

    fn path(&mut self, p: &syn::ExprPath) -> Kind {
        if p.qself.is_none() {
            if let Some(ident) = p.path.get_ident() {
                if let Some(id) = self.lookup(&ident.to_string()) {
                    return Kind::Local(id, ident.clone());
                }
            }
        }
        Kind::Path(p.clone())
    }

    /// An `if`: bindings of `let` conditions are visible in the then-branch only.
    fn if_expr(&mut self, i: &syn::ExprIf) -> Kind {
        let (cond, then) = self.scoped(|cx| {
            let cond = cx.cond(&i.cond);
            (cond, cx.block(&i.then_branch))
        });
        let els = i.else_branch.as_ref().map(|(_, e)| self.boxed(e));
        Kind::If(cond, then, els)
    }

    /// A condition: `let` patterns (also in `&&` chains) bind into the current scope.
    fn cond(&mut self, e: &syn::Expr) -> Box<Expr> {
        self.boxed(e)
    }

    fn arm(&mut self, a: &syn::Arm) -> Arm {
        self.scoped(|cx| {
            let pat = cx.pat(&a.pat, None);
            let guard = a.guard.as_ref().map(|(_, g)| cx.expr(g));
            Arm {
                attrs: a.attrs.clone(),
                pat,
                guard,
                body: cx.expr(&a.body),
            }
        })
    }

    fn closure(&mut self, c: &syn::ExprClosure) -> ClosureExpr {
        let id = self.closures.len();
        self.closures.push(Closure { params: Vec::new() });
        let (params, body) = self.scoped(|cx| {
            let params: Vec<(Pat, Option<Type>)> = c
                .inputs
                .iter()
                .map(|p| match p {
                    syn::Pat::Type(pt) => {
                        let ty = (*pt.ty).clone();
                        (cx.pat(&pt.pat, Some(&ty)), Some(ty))
                    }
                    p => (cx.pat(p, None), None),
                })
                .collect();
            (params, cx.boxed(&c.body))
        });
        let binds = params
            .iter()
            .map(|(p, _)| match p {
                Pat::Ident {
                    id,
                    by_ref: false,
                    sub: None,
                    ..
                } => Some(*id),
                _ => None,
            })
            .collect();
        self.closures[id] = Closure { params: binds };
        let ret = match &c.output {
            syn::ReturnType::Type(_, t) => Some((**t).clone()),
            syn::ReturnType::Default => None,
        };
        ClosureExpr {
            id,
            attrs: c.attrs.clone(),
            is_move: c.capture.is_some(),
            params,
            ret,
            body,
            source: Box::new(c.clone()),
        }
    }

    fn struct_lit(&mut self, s: &syn::ExprStruct) -> StructLit {
        StructLit {
            path: s.path.clone(),
            qself: s.qself.clone(),
            fields: s
                .fields
                .iter()
                .map(|f| {
                    (
                        f.member.clone(),
                        self.expr(&f.expr),
                        f.colon_token.is_some(),
                    )
                })
                .collect(),
            rest: s.rest.as_ref().map(|r| self.boxed(r)),
            dot2: s.dot2_token.is_some() && s.rest.is_none(),
        }
    }

    fn mac(&mut self, m: &syn::Macro) -> Macro {
        if m.path.is_ident("vec") {
            if let Ok(body) = m.parse_body_with(vec_body) {
                return match body {
                    VecBody::Repeat(e, n) => {
                        let e = self.boxed(&e);
                        Macro::VecRepeat(m.clone(), e, self.boxed(&n))
                    }
                    VecBody::List(items) => Macro::VecList(m.clone(), self.exprs(&items)),
                };
            }
        }
        match m.parse_body_with(Punctuated::<syn::Expr, Token![,]>::parse_terminated) {
            Ok(args) => Macro::Args(m.clone(), self.exprs(&args)),
            Err(_) => Macro::Opaque(m.clone()),
        }
    }
}

/// `x`, `mut x`, `ref x`, `x @ ..`: a binding. A bare capitalised identifier (`None`,
/// `MAX`) is a constant or unit variant by Rust's naming convention.
fn is_binding(pi: &syn::PatIdent) -> bool {
    let upper = pi
        .ident
        .to_string()
        .starts_with(|c: char| c.is_ascii_uppercase());
    !upper || pi.by_ref.is_some() || pi.mutability.is_some() || pi.subpat.is_some()
}

fn tuple_elem_types(ty: Option<&Type>) -> Option<Vec<Type>> {
    match ty? {
        Type::Tuple(t) => Some(t.elems.iter().cloned().collect()),
        Type::Paren(p) => tuple_elem_types(Some(&p.elem)),
        Type::Group(g) => tuple_elem_types(Some(&g.elem)),
        _ => None,
    }
}

enum VecBody {
    Repeat(Box<syn::Expr>, Box<syn::Expr>),
    List(Punctuated<syn::Expr, Token![,]>),
}

fn vec_body(input: syn::parse::ParseStream) -> syn::Result<VecBody> {
    if input.is_empty() {
        return Ok(VecBody::List(Punctuated::new()));
    }
    let fork = input.fork();
    if fork.parse::<syn::Expr>().is_ok() && fork.peek(Token![;]) {
        let e: syn::Expr = input.parse()?;
        input.parse::<Token![;]>()?;
        let n: syn::Expr = input.parse()?;
        return Ok(VecBody::Repeat(Box::new(e), Box::new(n)));
    }
    Punctuated::parse_terminated(input).map(VecBody::List)
}
