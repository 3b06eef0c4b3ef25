//! The forward sweep: the core form run on `f64`, each statement saving what it
//! overwrites when the analysis says the reverse sweep needs the old value.

use super::*;

impl Printer<'_> {
    pub fn forward(&self, b: &[Stmt]) -> Result<TokenStream, String> {
        let mut out = Vec::new();
        for s in b {
            out.push(self.spanned(s, self.fwd_stmt(s)?));
        }
        Ok(quote!(#(#out)*))
    }

    /// Saves before `s` overwrites variables.
    fn saves_of(&self, s: &Stmt) -> Result<TokenStream, String> {
        let mut out = Vec::new();
        for v in super::super::visit::defs(s) {
            if self.saves(s, v) {
                out.push(self.push(v)?);
            }
        }
        Ok(quote!(#(#out)*))
    }

    fn fwd_stmt(&self, s: &Stmt) -> Result<TokenStream, String> {
        let save = self.saves_of(s)?;
        Ok(match s {
            Stmt::Set { dst, rhs } => {
                let (d, r) = (self.name(*dst), self.rhs(rhs));
                quote!(#save #d = #r;)
            }
            Stmt::Data {
                dst, expr, reads, ..
            } => {
                let (d, e) = (self.name(*dst), self.data_expr(*dst, expr, reads)?);
                if self.f.vars[*dst].kind == Kind::Data(DataKind::Other) {
                    quote!(#[allow(unused_mut)] let mut #d = #e;)
                } else {
                    quote!(#save #d = #e;)
                }
            }
            Stmt::Effect { tokens, reads } => {
                let t = &tokens.0;
                let sh = self.shadow_reads(reads);
                if sh.is_empty() {
                    t.clone()
                } else if mentions_let(t) || assigns(t) {
                    // Its bindings are read later: they cannot live in a block.
                    return Err("a `let` reading active values in code over dual numbers".into());
                } else {
                    quote!({ #sh #t })
                }
            }
            Stmt::Load { dst, place } => {
                let (d, p) = (self.name(*dst), self.load(place));
                quote!(#save #d = #p;)
            }
            Stmt::Store { place, src } => {
                let (p, x) = (self.place(place, false), self.fop(src));
                quote!(#p = #x;)
            }
            Stmt::Alloc { dst, init } => {
                let (d, i) = (self.name(*dst), self.init(init));
                quote!(#save #d = #i;)
            }
            Stmt::Push { dst, src } => {
                let (d, x) = (self.name(*dst), self.fop(src));
                quote!(#d.push(#x);)
            }
            Stmt::PushRow { dst, src } => {
                let (d, x) = (self.name(*dst), self.name(*src));
                quote!(#d.push(::core::clone::Clone::clone(&#x));)
            }
            Stmt::If { cond, then, els } => {
                let (c, t, e) = (self.name(*cond), self.forward(then)?, self.forward(els)?);
                quote!(if #c { #t } else { #e })
            }
            Stmt::For {
                idx,
                count,
                body,
                exit,
            } => {
                let (k, n, b) = (self.name(*idx), self.name(*count), self.forward(body)?);
                match exit {
                    None => quote!(for #k in 0..#n { #b }),
                    Some(ex) => {
                        let (t, flag) = (self.name(ex.trips), self.name(ex.flag));
                        let save = if self.saves(s, ex.trips) {
                            self.push(ex.trips)?
                        } else {
                            quote!()
                        };
                        quote! {
                            #save
                            #t = 0usize;
                            for #k in 0..#n {
                                #t += 1;
                                #b
                                if #flag { break; }
                            }
                        }
                    }
                }
            }
            Stmt::Loop { body, exit } => {
                let (t, flag, b) = (
                    self.name(exit.trips),
                    self.name(exit.flag),
                    self.forward(body)?,
                );
                let save = if self.saves(s, exit.trips) {
                    self.push(exit.trips)?
                } else {
                    quote!()
                };
                quote! {
                    #save
                    #t = 0usize;
                    loop {
                        #t += 1;
                        #b
                        if #flag { break; }
                    }
                }
            }
            Stmt::Call(c) if self.generic && !self.generic_call(c) => {
                return Err(
                    "a call on the tape or with a vector result in code over dual numbers".into(),
                )
            }
            Stmt::Call(c) => self.fwd_call(s, c)?,
        })
    }

    /// A data expression's value (generic code: it reads values, and a float result is
    /// made the scalar).
    fn data_expr(&self, dst: V, expr: &TokenStreamEq, reads: &[V]) -> Result<TokenStream, String> {
        let e = &expr.0;
        if !self.generic {
            return Ok(e.clone());
        }
        let sh = self.shadow_reads(reads);
        let shadowed_array = reads.iter().any(|v| {
            self.scalar_root(*v) && matches!(self.f.vars[*v].kind, Kind::Array | Kind::ParamSeq)
        });
        if shadowed_array && self.f.vars[dst].kind == Kind::Data(DataKind::Other) {
            // A value of an unseen type made from an array's values may borrow them
            // (`&rows[2]`, `w.iter()`): the values are a copy that ends with the statement.
            return Err("a borrow of an array's values in code over dual numbers".into());
        }
        if !sh.is_empty() && assigns(e) {
            // A write to an active value through a data expression would land on the
            // shadowing copy.
            return Err("a data expression writing to floats in code over dual numbers".into());
        }
        let v = quote!({ #sh #e });
        Ok(if self.f.vars[dst].kind == Kind::F64 {
            self.lit(v)
        } else {
            v
        })
    }

    /// An element read (from a data parameter in generic code: made the scalar).
    fn load(&self, place: &Place) -> TokenStream {
        let p = self.place(place, false);
        if self.scalar_root(place.root) {
            p
        } else {
            self.lit(p)
        }
    }

    /// The same statement without its saves (recomputed in the reverse sweep).
    pub fn recompute(&self, s: &Stmt) -> Result<TokenStream, String> {
        Ok(self.spanned(s, self.recomputed_stmt(s)?))
    }

    fn recomputed_stmt(&self, s: &Stmt) -> Result<TokenStream, String> {
        Ok(match s {
            Stmt::Set { dst, rhs } => {
                let (d, r) = (self.name(*dst), self.rhs(rhs));
                quote!(#d = #r;)
            }
            Stmt::Data {
                dst, expr, reads, ..
            } => {
                let (d, e) = (self.name(*dst), self.data_expr(*dst, expr, reads)?);
                // Data of an unseen type is declared where it is computed (a borrow of a
                // data row, `&x[k..k + 2]`): again in the reverse loop body.
                if self.f.vars[*dst].kind == Kind::Data(DataKind::Other) {
                    quote!(#[allow(unused_mut)] let mut #d = #e;)
                } else {
                    quote!(#d = #e;)
                }
            }
            Stmt::Load { dst, place } => {
                let (d, p) = (self.name(*dst), self.load(place));
                quote!(#d = #p;)
            }
            _ => quote!(),
        })
    }

    /// One operation on `f64`, exactly as the primal computes it (fazang's `Real` on `f64`).
    pub fn rhs(&self, r: &Rhs) -> TokenStream {
        match r {
            Rhs::Copy(a) => self.fop(a),
            Rhs::Neg(a) => {
                let a = self.fop(a);
                quote!(-#a)
            }
            Rhs::Add(a, b) => self.bin(a, quote!(+), b, true),
            Rhs::Sub(a, b) => self.bin(a, quote!(-), b, false),
            Rhs::Mul(a, b) => self.bin(a, quote!(*), b, true),
            Rhs::Div(a, b) => self.bin(a, quote!(/), b, false),
            Rhs::Rem(a, b) => self.bin(a, quote!(%), b, false),
            Rhs::Fun(f, ops) => {
                let name = format_ident!("{}", f.name);
                let sc = self.sc();
                // `powi`'s exponent is an integer.
                let args: Vec<TokenStream> = ops
                    .iter()
                    .enumerate()
                    .map(|(i, o)| {
                        if f.name == "powi" && i == 1 {
                            self.op(o)
                        } else {
                            self.fop(o)
                        }
                    })
                    .collect();
                if f.name == "val" {
                    let a = &args[0];
                    return self.lit(quote!(<#sc as ::fazang::Real>::val(&#a)));
                }
                quote!(<#sc as ::fazang::Real>::#name(#(#args),*))
            }
        }
    }

    /// `a op b`; in generic code with a plain `f64` operand on the right (moved there
    /// for `+` and `*`: the same bits, both commute exactly).
    fn bin(&self, a: &Op, op: TokenStream, b: &Op, commutes: bool) -> TokenStream {
        if let Some(pb) = self.plain_operand(b) {
            let a = self.fop(a);
            return quote!(#a #op #pb);
        }
        if let (true, Some(pa)) = (commutes, self.plain_operand(a)) {
            let b = self.fop(b);
            return quote!(#b #op #pa);
        }
        let (a, b) = (self.fop(a), self.fop(b));
        quote!(#a #op #b)
    }

    /// A new array's value.
    fn init(&self, i: &Init) -> TokenStream {
        match i {
            Init::Repeat(x, n, form) => {
                let (x, n) = (self.fop(x), self.op(n));
                match form {
                    ArrayForm::Vec => quote!(::std::vec![#x; #n]),
                    ArrayForm::Fixed => quote!([#x; #n]),
                }
            }
            Init::List(xs, form) => {
                let xs: Vec<TokenStream> = xs.iter().map(|x| self.fop(x)).collect();
                match form {
                    ArrayForm::Vec => quote!(::std::vec![#(#xs),*]),
                    ArrayForm::Fixed => quote!([#(#xs),*]),
                }
            }
            Init::CopyOf(p, w) if !self.scalar_root(p.root) => {
                let p = self.place(p, false);
                match w {
                    None => quote!(::fazang::__private::lift_vec::<__FzT>(&#p[..])),
                    Some((o, n)) => {
                        let (o, n) = (self.op(o), self.op(n));
                        quote!(::fazang::__private::lift_vec::<__FzT>(&#p[#o..#o + #n]))
                    }
                }
            }
            Init::CopyOf(p, w) => {
                let p = self.place(p, false);
                match w {
                    None => quote!(::fazang::__private::to_local(&#p)),
                    Some((o, n)) => {
                        let (o, n) = (self.op(o), self.op(n));
                        quote!(#p[#o..#o + #n].to_vec())
                    }
                }
            }
            Init::Empty => quote!(::std::vec::Vec::new()),
        }
    }
}

/// Whether a statement starts with `let`.
fn mentions_let(t: &TokenStream) -> bool {
    matches!(t.clone().into_iter().next(), Some(proc_macro2::TokenTree::Ident(i)) if i == "let")
}

/// Whether tokens may write to a variable: `mut` (`&mut x`, `let mut`), or an `=` that is
/// not part of `==`, `!=`, `<=`, `>=` or `=>`.
fn assigns(t: &TokenStream) -> bool {
    use proc_macro2::{Spacing, TokenTree};
    let toks: Vec<TokenTree> = t.clone().into_iter().collect();
    for (i, tt) in toks.iter().enumerate() {
        match tt {
            TokenTree::Ident(id) if id == "mut" => return true,
            TokenTree::Group(g) if assigns(&g.stream()) => return true,
            TokenTree::Punct(p) if p.as_char() == '=' => {
                let prev = i.checked_sub(1).and_then(|j| match &toks[j] {
                    TokenTree::Punct(q) if q.spacing() == Spacing::Joint => Some(q.as_char()),
                    _ => None,
                });
                let next = match toks.get(i + 1) {
                    Some(TokenTree::Punct(q)) if p.spacing() == Spacing::Joint => Some(q.as_char()),
                    _ => None,
                };
                let comparison =
                    matches!(prev, Some('=' | '!' | '<' | '>')) || matches!(next, Some('=' | '>'));
                if !comparison {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}
