//! `reduce_sum(data, grainsize, |chunk, start| body)` in adjoint code: the closure's
//! body becomes a function of its own, `__fz_<name>_chunk<N>(captures.., chunk, start)`,
//! emitted next to the user's function with `#[differentiate(wrt(active captures))]`,
//! so it has adjoint code (or its own tape) of its own. The call is one [`Stmt::Call`]
//! whose forward sweep runs `reduce_sum_grad` over that function's `_grad_into`: each
//! chunk differentiated on its own thread into its own buffer, the buffers combined by
//! `reduce_sum`'s fixed tree (the same bits for any number of threads); the reverse
//! sweep adds the result's adjoint times that gradient, as for a taped call.
//!
//! The closure must be written in the call, its captures must be parameters (their
//! types are in the signature) or locals holding a float or an active array of floats;
//! otherwise the function takes the tape (the reason is in `FAZANG_MACRO_DEBUG=1`).

use super::*;
use crate::differentiate::ast::Place;
use crate::model::visit::{walk_expr, walk_stmt, Visit};
use crate::model::{ClosureExpr, Expr as MExpr, Kind as MKind};
use quote::quote;

impl<'a> Lower<'a> {
    /// `reduce_sum(data, grainsize, closure)` whose result is active.
    pub fn reduce_sum(&mut self, args: &'a [MExpr]) -> R<Val> {
        let [data, grain, partial] = args else {
            return no("`reduce_sum` with other than three arguments");
        };
        let MKind::Closure(c) = &partial.peel().kind else {
            return no("`reduce_sum` given a closure not written in the call");
        };
        if self.m.place == Place::Method {
            return no("`reduce_sum` in a method");
        }
        if !self.m.func.sig.generics.params.is_empty() {
            return no("`reduce_sum` in a generic function");
        }
        if self.abs(data).active() {
            return no("`reduce_sum` over active data");
        }
        if has_items(&self.body.block) {
            return no("`reduce_sum` in a body that declares items");
        }
        let caps = self.captures(c)?;
        let (dt, dr) = self.data_tokens(data)?;
        let (gt, gr) = self.data_tokens(grain)?;
        let mut call_args = vec![
            CallArg::Data(toks(dt), dr, DataArg::Other),
            CallArg::Data(toks(gt), gr, DataArg::Other),
        ];
        let mut decls = Vec::new();
        let mut wrt = Vec::new();
        for id in caps {
            let (decl, arg) = self.capture(id)?;
            if !matches!(arg, CallArg::Data(..)) {
                wrt.push(self.body.bindings[id].name.clone());
            }
            decls.push(decl);
            call_args.push(arg);
        }
        if wrt.is_empty() {
            return no("`reduce_sum` whose closure captures no active value");
        }
        let (cp, ct) = self.chunk_param(c, data)?;
        let sp = match c.source.inputs.iter().nth(1) {
            Some(syn::Pat::Type(pt)) => (*pt.pat).clone(),
            Some(p) => p.clone(),
            None => return no("`reduce_sum`'s closure without two parameters"),
        };
        let body = &c.source.body;
        let name = quote::format_ident!("__fz_{}_chunk{}", self.m.name(), self.hidden.len());
        let grad_into = quote::format_ident!("{}_grad_into", name);
        self.hidden.push(quote! {
            #[doc(hidden)]
            #[allow(dead_code, unused_variables, clippy::too_many_arguments)]
            #[::fazang::differentiate(wrt(#(#wrt),*))]
            fn #name(#(#decls,)* __fz_chunk: #ct, __fz_start: usize) -> f64 {
                let #cp = __fz_chunk;
                let #sp = __fz_start;
                #body
            }
        });
        let y = self.new_var("y", Kind::F64);
        self.emit(Stmt::Call(Call {
            how: CallHow::Tape,
            callee: toks(quote!(#name)),
            callee_reads: Vec::new(),
            args: call_args,
            out: Some(y),
            data_out: None,
            out_array: None,
            result_array: None,
            result_rows: false,
            jac_lanes: 0,
            span: proc_macro2::Span::call_site(),
            partials: Vec::new(),
            fallible: Fallible::No,
            convert: false,
            reduce: Some(toks(quote!(#grad_into))),
        }));
        Ok(Val::F(Op::Var(y)))
    }

    /// The bindings of the enclosing body the closure reads, in order; refused if a
    /// macro in the closure names one the model cannot see it read.
    fn captures(&self, c: &ClosureExpr) -> R<Vec<BindId>> {
        let mut v = Locals(Vec::new());
        v.visit_expr(&c.body);
        let mut caps: Vec<BindId> =
            v.0.into_iter()
                .filter(|id| self.env[*id].is_some())
                .collect();
        caps.sort_unstable();
        caps.dedup();
        let mut idents = Vec::new();
        macro_idents(&c.source.body, &mut idents);
        for (id, b) in self.body.bindings.iter().enumerate() {
            if self.env[id].is_some() && !caps.contains(&id) && idents.contains(&b.name) {
                return no(format!(
                    "a macro in `reduce_sum`'s closure names `{}` of the enclosing body",
                    b.name
                ));
            }
        }
        Ok(caps)
    }

    /// A capture's parameter in the chunk function and the argument passed to it.
    fn capture(&mut self, id: BindId) -> R<(TokenStream, CallArg)> {
        let name = self.body.bindings[id].name.clone();
        let Some(v) = self.env[id].clone() else {
            return no(format!("`{name}` read before it has a value"));
        };
        if self.act.of_bind(id).active() {
            // A parameter must be a float or a flat array of them (a nalgebra vector's
            // methods would not compile on the slice the chunk's function takes).
            if let Some(p) = self.m.params.get(id) {
                use crate::types::{Nested, ParamKind};
                let flat = match &p.kind {
                    ParamKind::Scalar => true,
                    ParamKind::Nested { shape, .. } => matches!(
                        shape,
                        Nested::Array(e, _) | Nested::Slice(e) | Nested::Vec(e)
                            if matches!(**e, Nested::F64)
                    ),
                    _ => false,
                };
                if !flat {
                    return no(format!(
                        "`reduce_sum`'s closure captures `{name}`, neither a float nor a flat array"
                    ));
                }
            }
            return match v {
                Val::F(op) => Ok((quote!(#name: f64), CallArg::Scalar(op))),
                Val::Seq(s) if s.depth == 0 && !self.is_struct_root(s.root) => {
                    Ok((quote!(#name: &[f64]), CallArg::Slice(self.windowed(s))))
                }
                other => no(format!(
                    "`reduce_sum`'s closure captures {} `{name}`",
                    other.describe()
                )),
            };
        }
        let (t, reads) = self.val_tokens(&v)?;
        let (decl, t) = match self.m.params.get(id) {
            Some(p) if matches!(crate::types::strip(p.ty), syn::Type::Reference(_)) => {
                let ty = p.ty;
                (quote!(#name: #ty), t)
            }
            Some(p) if is_copy_primitive(p.ty) => {
                let ty = p.ty;
                (quote!(#name: #ty), t)
            }
            Some(p) if !names_impl(p.ty) => {
                let ty = p.ty;
                (quote!(#name: &#ty), quote!(&#t))
            }
            None if matches!(v, Val::F(_))
                || matches!(v, Val::D(d) if self.vars[d].kind == Kind::F64) =>
            {
                (quote!(#name: f64), t)
            }
            _ => {
                return no(format!(
                    "`reduce_sum`'s closure captures `{name}`, of a type the macro cannot name"
                ))
            }
        };
        Ok((decl, CallArg::Data(toks(t), reads, DataArg::Other)))
    }

    /// The chunk's pattern and type: as the closure declares it, or `&[T]` for data that
    /// is a parameter of type `&[T]`, `Vec<T>`, `[T; N]` (or a reference to those).
    fn chunk_param(&self, c: &ClosureExpr, data: &MExpr) -> R<(syn::Pat, TokenStream)> {
        match c.source.inputs.first() {
            Some(syn::Pat::Type(pt)) => {
                let ty = &pt.ty;
                Ok(((*pt.pat).clone(), quote!(#ty)))
            }
            Some(p) => {
                let mut d = data.peel();
                if let MKind::Reference { expr, .. } = &d.kind {
                    d = expr.peel();
                }
                let elem = match &d.kind {
                    MKind::Local(id, _) => self.m.params.get(*id).and_then(|p| elem_type(p.ty)),
                    _ => None,
                };
                match elem {
                    Some(t) => Ok((p.clone(), quote!(&[#t]))),
                    None => no("`reduce_sum`'s closure whose chunk has no type (write `|chunk: &[T], start|`)"),
                }
            }
            None => no("`reduce_sum`'s closure without parameters"),
        }
    }
}

/// The element type of `&[T]`, `&Vec<T>`, `Vec<T>`, `[T; N]`, `&[T; N]`.
fn elem_type(ty: &syn::Type) -> Option<syn::Type> {
    match crate::types::strip(ty) {
        syn::Type::Reference(r) => elem_type(&r.elem),
        syn::Type::Slice(s) => Some((*s.elem).clone()),
        syn::Type::Array(a) => Some((*a.elem).clone()),
        syn::Type::Path(p) => {
            let last = p.path.segments.last()?;
            if last.ident != "Vec" {
                return None;
            }
            match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    syn::GenericArgument::Type(t) => Some(t.clone()),
                    _ => None,
                }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `f64`, `bool`, and the integer types: passed by value.
fn is_copy_primitive(ty: &syn::Type) -> bool {
    let syn::Type::Path(p) = crate::types::strip(ty) else {
        return false;
    };
    p.path.get_ident().is_some_and(|i| {
        matches!(
            i.to_string().as_str(),
            "f64"
                | "f32"
                | "bool"
                | "usize"
                | "isize"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
        )
    })
}

/// Whether a type has `impl Trait` in it (it cannot be a parameter's type behind `&`).
fn names_impl(ty: &syn::Type) -> bool {
    quote!(#ty)
        .into_iter()
        .any(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "impl"))
}

/// The locals an expression reads.
struct Locals(Vec<BindId>);

impl Visit for Locals {
    fn visit_expr(&mut self, e: &MExpr) {
        if let MKind::Local(id, _) = &e.kind {
            self.0.push(*id);
        }
        walk_expr(self, e);
    }
}

/// Whether a block declares an item anywhere (the closure's function could not see it).
fn has_items(b: &crate::model::Block) -> bool {
    struct Items(bool);
    impl Visit for Items {
        fn visit_stmt(&mut self, s: &crate::model::Stmt) {
            if let crate::model::Stmt::Item(_) = s {
                self.0 = true;
            }
            walk_stmt(self, s);
        }
    }
    let mut v = Items(false);
    v.visit_block(b);
    v.0
}

/// Every identifier inside the macros of an expression.
fn macro_idents(e: &syn::Expr, out: &mut Vec<syn::Ident>) {
    struct Macros<'o>(&'o mut Vec<syn::Ident>);
    impl<'ast> syn::visit::Visit<'ast> for Macros<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            idents(m.tokens.clone(), self.0);
        }
    }
    fn idents(t: TokenStream, out: &mut Vec<syn::Ident>) {
        for tt in t {
            match tt {
                proc_macro2::TokenTree::Ident(i) => out.push(i),
                proc_macro2::TokenTree::Group(g) => idents(g.stream(), out),
                _ => {}
            }
        }
    }
    syn::visit::Visit::visit_expr(&mut Macros(out), e);
}
