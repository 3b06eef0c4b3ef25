//! Printers of the core form: the adjoint (a forward sweep keeping what the analyses say,
//! then the reverse sweep, statement by statement backwards).
//!
//! The generated hidden function `__name_adjoint(params.., seed, grads..)` runs both sweeps
//! and adds `seed` times the gradient into the buffers `grads` (one per active parameter:
//! `&mut f64` for a scalar, `&mut [T]` for arrays, slices and vectors, `&mut Bar` for a
//! registered struct); `name_grad` and `name_grad_into` call it with their own buffers.

mod call;
mod forward;
mod reduce;
mod reverse;

use super::analysis::Facts;
use super::*;
use quote::{format_ident, quote};
use std::collections::HashSet;

/// What the printers share.
pub struct Printer<'a> {
    pub f: &'a Func,
    pub facts: &'a Facts,
    /// Per active parameter's variable: the gradient buffer it accumulates into directly.
    pub buffers: Vec<Option<Ident>>,
    fresh: std::cell::Cell<usize>,
    /// The code's scalar is the type parameter `__FzT` (an `AdjointScalar`: `f64` or dual
    /// numbers) instead of `f64`: the tangent code and the tangent of the adjoint code.
    pub generic: bool,
    /// Only the forward sweep, keeping nothing (tangent code).
    pub forward_only: bool,
}

impl<'a> Printer<'a> {
    pub fn new(f: &'a Func, facts: &'a Facts) -> Self {
        let mut buffers = vec![None; f.vars.len()];
        for p in &f.params {
            if p.active && !p.copied && !matches!(p.shape, ParamShape::Scalar) {
                buffers[p.var] = Some(grad_buffer(p));
            }
        }
        Printer {
            f,
            facts,
            buffers,
            fresh: std::cell::Cell::new(0),
            generic: false,
            forward_only: false,
        }
    }

    /// The code's scalar type.
    pub fn sc(&self) -> TokenStream {
        if self.generic {
            quote!(__FzT)
        } else {
            quote!(f64)
        }
    }

    /// The scalar's zero.
    pub fn zero(&self) -> TokenStream {
        self.lit(quote!(0.0))
    }

    /// An `f64` expression as the scalar.
    pub fn lit(&self, t: TokenStream) -> TokenStream {
        if self.generic {
            quote!(<__FzT as ::core::convert::From<f64>>::from(#t))
        } else {
            t
        }
    }

    /// A scalar expression as `f64` (a decision taken on values).
    pub fn value_of(&self, t: TokenStream) -> TokenStream {
        if self.generic {
            quote!(::fazang::__private::val(#t))
        } else {
            t
        }
    }

    /// A float operand: a constant is made the scalar.
    pub fn fop(&self, o: &Op) -> TokenStream {
        match o {
            Op::Const(t) if self.generic => self.lit(t.0.clone()),
            _ => self.op(o),
        }
    }

    /// In generic code, an operand that carries no derivative (a constant, or a float the
    /// activity analysis found inactive) as a plain `f64`, so that `x * c` costs one
    /// multiplication per lane instead of a product of dual numbers; `None` otherwise.
    pub fn plain_operand(&self, o: &Op) -> Option<TokenStream> {
        if !self.generic {
            return None;
        }
        match o {
            Op::Const(t) => Some(t.0.clone()),
            Op::Var(v) if !self.facts.active[*v] && self.f.vars[*v].kind == Kind::F64 => {
                let n = self.op(o);
                Some(quote!(::fazang::__private::val(#n)))
            }
            _ => None,
        }
    }

    /// Whether the floats under a root are the scalar (locals, active parameters) rather
    /// than `f64` (data parameters).
    pub fn scalar_root(&self, root: V) -> bool {
        !self.generic
            || !(self.f.vars[root].kind == Kind::Data(DataKind::Other)
                || self.f.params.iter().any(|p| {
                    p.var == root && !p.active && !p.copied && self.f.vars[root].kind != Kind::F64
                }))
    }

    /// Data reads of `reads` shadowed by their values (generic code: a data expression
    /// sees `f64`s, as in the primal).
    pub fn shadow_reads(&self, reads: &[V]) -> TokenStream {
        if !self.generic {
            return quote!();
        }
        let out = reads
            .iter()
            .filter(|v| self.scalar_root(**v))
            .filter_map(|v| {
                let n = self.name(*v);
                match self.f.vars[*v].kind {
                    Kind::F64 => Some(quote!(let #n = ::fazang::__private::val(#n);)),
                    Kind::Array | Kind::ParamSeq => {
                        Some(quote!(let #n = { use ::fazang::__private::Vals as _; #n.vals() };))
                    }
                    Kind::Data(_) => None,
                }
            });
        quote!(#(#out)*)
    }

    /// `t`, code printed for statement `s`, at the span of the user's expression `s` comes
    /// from (its call, or the expression whose value it computes): an error rustc finds
    /// in it then points at the user's token, not at the attribute. Blocks (`if`, loops)
    /// keep the spans of their statements.
    pub fn spanned(&self, s: &Stmt, t: TokenStream) -> TokenStream {
        let var = |o: &Op| o.var().map(|v| self.f.vars[v].span);
        let span = match s {
            // An overwrite is a copy of the value just computed: at that expression.
            Stmt::Set {
                rhs: Rhs::Copy(Op::Var(src)),
                ..
            } => Some(self.f.vars[*src].span),
            Stmt::Set { dst, .. }
            | Stmt::Data { dst, .. }
            | Stmt::Load { dst, .. }
            | Stmt::Alloc { dst, .. } => Some(self.f.vars[*dst].span),
            Stmt::Store { src, .. } | Stmt::Push { src, .. } => var(src),
            Stmt::PushRow { src, .. } => Some(self.f.vars[*src].span),
            Stmt::Call(c) => Some(c.span),
            Stmt::Effect { .. } | Stmt::If { .. } | Stmt::For { .. } | Stmt::Loop { .. } => None,
        };
        match span {
            Some(at) => crate::util::located_at(t, at),
            None => t,
        }
    }

    pub fn name(&self, v: V) -> &Ident {
        &self.f.vars[v].ident
    }

    /// The adjoint of a variable.
    pub fn adj(&self, v: V) -> Ident {
        match &self.buffers[v] {
            Some(b) => b.clone(),
            None => format_ident!(
                "__fz_adj{}",
                self.name(v).to_string().trim_start_matches("__fz")
            ),
        }
    }

    pub fn tmp(&self, what: &str) -> Ident {
        let n = self.fresh.get();
        self.fresh.set(n + 1);
        format_ident!("__fzr_{}{}", what, n)
    }

    pub fn op(&self, o: &Op) -> TokenStream {
        match o {
            Op::Var(v) => {
                let n = self.name(*v);
                quote!(#n)
            }
            Op::Const(t) => t.0.clone(),
        }
    }

    /// `root[i][j].f` (for the adjoint: its adjoint array).
    pub fn place(&self, p: &Place, adjoint: bool) -> TokenStream {
        let mut t = if adjoint {
            let a = self.adj(p.root);
            quote!(#a)
        } else {
            let n = self.name(p.root);
            quote!(#n)
        };
        for x in &p.path {
            match x {
                Proj::Index(i) => {
                    let i = self.op(i);
                    t = quote!(#t[#i]);
                }
                Proj::Field(m) => t = quote!(#t.#m),
            }
        }
        t
    }

    pub fn saves(&self, s: &Stmt, v: V) -> bool {
        !self.forward_only && self.facts.saves.contains(&(super::analysis::key(s), v))
    }

    /// `push` of `v`'s current value.
    pub fn push(&self, v: V) -> Result<TokenStream, String> {
        let n = self.name(v);
        Ok(match self.f.vars[v].kind {
            Kind::F64 => quote!(__fz_st.push(#n);),
            Kind::Data(DataKind::Int | DataKind::Bool) => quote!(__fz_st.push_any(#n);),
            Kind::Array => quote!(__fz_st.push_array(&#n);),
            _ => {
                return Err(format!(
                    "a value of a type the macro cannot see (`{}`) that the reverse sweep needs \
                     after it changes",
                    n
                ))
            }
        })
    }

    /// Restore `v` from the stack (mirrors [`Printer::push`]).
    pub fn pop(&self, v: V) -> TokenStream {
        let n = self.name(v);
        match self.f.vars[v].kind {
            Kind::F64 => quote!(#n = __fz_st.pop();),
            Kind::Array => quote!(__fz_st.pop_array(&mut #n);),
            _ => quote!(#n = __fz_st.pop_any();),
        }
    }
}

/// The gradient buffer parameter of an active parameter.
pub fn grad_buffer(p: &Param) -> Ident {
    format_ident!("__fz_g_{}", p.ident)
}

/// The body of `__name_adjoint`: both sweeps; `Err` for what cannot be printed.
pub fn adjoint_body(f: &Func, facts: &Facts) -> Result<TokenStream, String> {
    body(Printer::new(f, facts))
}

/// The body of `__name_adjoint_t::<__FzT>`: both sweeps over the scalar `__FzT` (with
/// dual numbers, the tangent of the adjoint code).
pub fn generic_adjoint_body(f: &Func, facts: &Facts) -> Result<TokenStream, String> {
    let mut p = Printer::new(f, facts);
    p.generic = true;
    body(p)
}

/// The body of `__name_tangent::<__FzT>`: the forward sweep alone over `__FzT`, keeping
/// nothing (with dual numbers, tangent code); returns the result.
pub fn tangent_body(f: &Func, facts: &Facts) -> Result<TokenStream, String> {
    let mut p = Printer::new(f, facts);
    p.generic = true;
    p.forward_only = true;
    let decls = p.declarations()?;
    let fwd = p.forward(&f.body)?;
    let value = match f.ret_array {
        None => {
            let ret = p.name(f.ret);
            quote!(#ret)
        }
        Some(arr) => {
            let n = p.name(arr);
            quote!(::fazang::__private::to_local(&#n))
        }
    };
    let items = &f.items;
    Ok(quote! {
        #(#items)*
        #decls
        #fwd
        #value
    })
}

fn body(p: Printer) -> Result<TokenStream, String> {
    let (f, facts) = (p.f, p.facts);
    let sc = p.sc();
    let decls = p.declarations()?;
    let fwd = p.forward(&f.body)?;
    let ret = p.name(f.ret);
    let adjs = p.adjoint_decls();
    let rev = p.reverse(&f.body)?;
    let finish = p.param_adjoints();
    let (value, seed) = match f.ret_array {
        None => {
            let ret_adj = p.adj(f.ret);
            let seed = if facts.active[f.ret] {
                quote!(#ret_adj = __fz_seed;)
            } else {
                quote!()
            };
            (quote!(let __fz_value: #sc = #ret;), seed)
        }
        Some(arr) => {
            // A vector result: `__fz_seed` holds the adjoint of each entry.
            let (n, a) = (p.name(arr), p.adj(arr));
            let seed = if facts.active[arr] {
                quote! {
                    for (__fz_a, __fz_s) in #a.iter_mut().zip(__fz_seed.iter()) {
                        *__fz_a = *__fz_s;
                    }
                }
            } else {
                quote!()
            };
            (
                quote!(let __fz_value: ::std::vec::Vec<#sc> = ::fazang::__private::to_local(&#n);),
                seed,
            )
        }
    };
    // The per-thread stacks are fetched only by code that keeps something on them.
    let stack = if !mentions(&fwd, "__fz_st") && !mentions(&rev, "__fz_st") {
        quote!()
    } else if p.generic {
        quote!(let mut __fz_st = ::fazang::__private::TStacks::<__FzT>::new();)
    } else {
        quote!(let mut __fz_st = ::fazang::__private::stacks();)
    };
    let items = &f.items;
    Ok(quote! {
        #(#items)*
        #stack
        #decls
        #fwd
        #value
        #adjs
        #seed
        #rev
        #finish
        __fz_value
    })
}

impl Printer<'_> {
    /// Variables declared at the top: every float, integer and boolean the body uses, and
    /// local arrays; data of other types is declared where it is computed.
    fn declarations(&self) -> Result<TokenStream, String> {
        // Scoped data the reverse sweep computes again itself is declared there.
        let mut remade = HashSet::new();
        super::visit::each_stmt(&self.f.body, &mut |s| {
            if self.facts.remat.contains(&super::analysis::key(s)) {
                remade.extend(super::visit::defs(s));
            }
        });
        if let Some(v) = self
            .facts
            .read_back
            .iter()
            .find(|v| super::analysis::scoped(self.f, **v) && !remade.contains(*v))
        {
            return Err(format!(
                "a value of a type the macro cannot see (`{}`) that the reverse sweep reads",
                self.name(*v)
            ));
        }
        let mut seen = vec![false; self.f.vars.len()];
        let mut idx = HashSet::new();
        super::visit::each_stmt(&self.f.body, &mut |s| {
            for v in super::visit::defs(s)
                .into_iter()
                .chain(super::visit::uses(s))
            {
                seen[v] = true;
            }
            match s {
                Stmt::For { idx: k, exit, .. } => {
                    idx.insert(*k);
                    if let Some(e) = exit {
                        seen[e.trips] = true;
                    }
                }
                Stmt::Loop { exit, .. } => seen[exit.trips] = true,
                Stmt::Push { dst, .. } | Stmt::PushRow { dst, .. } => seen[*dst] = true,
                Stmt::Store { place, .. } => seen[place.root] = true,
                _ => {}
            }
        });
        seen[self.f.ret] = true;
        if let Some(r) = self.f.ret_array {
            seen[r] = true;
        }
        let mut out = Vec::new();
        for p in &self.f.params {
            let (n, x) = (self.name(p.var), &p.ident);
            let kind = self.f.vars[p.var].kind;
            // Generic code: data floats are made the scalar where they are copied.
            let lift = self.generic && !p.active;
            if p.copied {
                out.push(match (&p.shape, kind) {
                    (ParamShape::Seq { .. }, Kind::Array) if lift => {
                        quote!(let mut #n = ::fazang::__private::lift_vec::<__FzT>(&#x[..]);)
                    }
                    (ParamShape::Seq { .. }, Kind::Array) => {
                        quote!(let mut #n = ::fazang::__private::to_local(&#x);)
                    }
                    (_, Kind::F64) if lift => {
                        let l = self.lit(quote!(#x));
                        quote!(let mut #n: __FzT = #l;)
                    }
                    _ => quote!(let mut #n = #x;),
                });
            } else if lift && kind == Kind::F64 {
                let l = self.lit(quote!(#x));
                out.push(quote!(let #n: __FzT = #l;));
            }
        }
        let params: HashSet<V> = self.f.params.iter().map(|p| p.var).collect();
        for (v, var) in self.f.vars.iter().enumerate() {
            if !seen[v] || params.contains(&v) || idx.contains(&v) {
                continue;
            }
            let n = &var.ident;
            let (sc, zero) = (self.sc(), self.zero());
            out.push(match var.kind {
                Kind::F64 => quote!(let mut #n: #sc = #zero;),
                Kind::Data(DataKind::Bool) => quote!(let mut #n: bool = false;),
                Kind::Data(DataKind::Int) => {
                    quote!(let mut #n = ::core::default::Default::default();)
                }
                Kind::Array => self.array_decl(v),
                Kind::Data(DataKind::Other) | Kind::ParamSeq => continue,
            });
        }
        Ok(quote!(#(#out)*))
    }

    /// A local array's declaration, shaped as its first allocation.
    fn array_decl(&self, v: V) -> TokenStream {
        let n = self.name(v);
        let mut init = None;
        super::visit::each_stmt(&self.f.body, &mut |s| {
            if let Stmt::Alloc { dst, init: i } = s {
                if *dst == v && init.is_none() {
                    init = Some(i.clone());
                }
            }
        });
        match init {
            Some(Init::Repeat(_, len, ArrayForm::Fixed)) => {
                let (len, sc, zero) = (self.op(&len), self.sc(), self.zero());
                quote!(let mut #n: [#sc; #len] = [#zero; #len];)
            }
            Some(Init::List(xs, ArrayForm::Fixed)) => {
                let (len, sc, zero) = (xs.len(), self.sc(), self.zero());
                quote!(let mut #n: [#sc; #len] = [#zero; #len];)
            }
            _ => quote!(let mut #n = ::std::vec::Vec::new();),
        }
    }

    /// Adjoints of the active variables, zero (arrays shaped as they are now).
    fn adjoint_decls(&self) -> TokenStream {
        let mut out = Vec::new();
        for (v, var) in self.f.vars.iter().enumerate() {
            if !self.facts.active[v] || self.buffers[v].is_some() {
                continue;
            }
            let (a, n) = (self.adj(v), &var.ident);
            let (sc, zero) = (self.sc(), self.zero());
            out.push(match var.kind {
                Kind::F64 => quote!(let mut #a: #sc = #zero;),
                _ => quote!(let mut #a = ::fazang::__private::zeros_like(&#n);),
            });
        }
        quote!(#(#out)*)
    }

    /// Adjoints of parameters held locally, added into their buffers.
    fn param_adjoints(&self) -> TokenStream {
        let mut out = Vec::new();
        for p in &self.f.params {
            if !p.active || self.buffers[p.var].is_some() {
                continue;
            }
            let g = grad_buffer(p);
            if !self.facts.active[p.var] {
                continue;
            }
            let a = self.adj(p.var);
            out.push(match p.shape {
                ParamShape::Scalar => quote!(*#g += #a;),
                _ => quote!(::fazang::__private::accumulate(&mut *#g, &#a[..]);),
            });
        }
        quote!(#(#out)*)
    }
}

/// Whether `ts` mentions the identifier `name`.
fn mentions(ts: &TokenStream, name: &str) -> bool {
    ts.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), name),
        _ => false,
    })
}
