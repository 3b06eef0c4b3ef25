//! The forward sweep: the core form run on `f64`, each statement saving what it
//! overwrites when the analysis says the reverse sweep needs the old value.

use super::*;

impl Printer<'_> {
    pub fn forward(&self, b: &[Stmt]) -> Result<TokenStream, String> {
        let mut out = Vec::new();
        for s in b {
            out.push(self.fwd_stmt(s)?);
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
            Stmt::Data { dst, expr, .. } => {
                let (d, e) = (self.name(*dst), &expr.0);
                if self.f.vars[*dst].kind == Kind::Data(DataKind::Other) {
                    quote!(#[allow(unused_mut)] let mut #d = #e;)
                } else {
                    quote!(#save #d = #e;)
                }
            }
            Stmt::Effect { tokens, .. } => tokens.0.clone(),
            Stmt::Load { dst, place } => {
                let (d, p) = (self.name(*dst), self.place(place, false));
                quote!(#save #d = #p;)
            }
            Stmt::Store { place, src } => {
                let (p, x) = (self.place(place, false), self.op(src));
                quote!(#p = #x;)
            }
            Stmt::Alloc { dst, init } => {
                let (d, i) = (self.name(*dst), self.init(init));
                quote!(#save #d = #i;)
            }
            Stmt::Push { dst, src } => {
                let (d, x) = (self.name(*dst), self.op(src));
                quote!(#d.push(#x);)
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
            Stmt::Call(c) => self.fwd_call(s, c)?,
        })
    }

    /// The same statement without its saves (recomputed in the reverse sweep).
    pub fn recompute(&self, s: &Stmt) -> TokenStream {
        match s {
            Stmt::Set { dst, rhs } => {
                let (d, r) = (self.name(*dst), self.rhs(rhs));
                quote!(#d = #r;)
            }
            Stmt::Data { dst, expr, .. } => {
                let (d, e) = (self.name(*dst), &expr.0);
                quote!(#d = #e;)
            }
            Stmt::Load { dst, place } => {
                let (d, p) = (self.name(*dst), self.place(place, false));
                quote!(#d = #p;)
            }
            _ => quote!(),
        }
    }

    /// One operation on `f64`, exactly as the primal computes it (fazang's `Real` on `f64`).
    pub fn rhs(&self, r: &Rhs) -> TokenStream {
        match r {
            Rhs::Copy(a) => self.op(a),
            Rhs::Neg(a) => {
                let a = self.op(a);
                quote!(-#a)
            }
            Rhs::Add(a, b) => self.bin(a, quote!(+), b),
            Rhs::Sub(a, b) => self.bin(a, quote!(-), b),
            Rhs::Mul(a, b) => self.bin(a, quote!(*), b),
            Rhs::Div(a, b) => self.bin(a, quote!(/), b),
            Rhs::Rem(a, b) => self.bin(a, quote!(%), b),
            Rhs::Fun(f, ops) => {
                let name = format_ident!("{}", f.name);
                let args: Vec<TokenStream> = ops.iter().map(|o| self.op(o)).collect();
                if f.name == "val" {
                    let a = &args[0];
                    return quote!(<f64 as ::fazang::Real>::val(&#a));
                }
                quote!(<f64 as ::fazang::Real>::#name(#(#args),*))
            }
        }
    }

    fn bin(&self, a: &Op, op: TokenStream, b: &Op) -> TokenStream {
        let (a, b) = (self.op(a), self.op(b));
        quote!(#a #op #b)
    }

    /// A new array's value.
    fn init(&self, i: &Init) -> TokenStream {
        match i {
            Init::Repeat(x, n, form) => {
                let (x, n) = (self.op(x), self.op(n));
                match form {
                    ArrayForm::Vec => quote!(::std::vec![#x; #n]),
                    ArrayForm::Fixed => quote!([#x; #n]),
                }
            }
            Init::List(xs, form) => {
                let xs: Vec<TokenStream> = xs.iter().map(|x| self.op(x)).collect();
                match form {
                    ArrayForm::Vec => quote!(::std::vec![#(#xs),*]),
                    ArrayForm::Fixed => quote!([#(#xs),*]),
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
