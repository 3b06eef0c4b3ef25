//! The reverse sweep: the statements backwards, each adding its adjoint into its operands'
//! (one rule per statement kind) and restoring what its forward counterpart saved.

use super::*;
use crate::catalogue::{Deriv, Needs};

impl Printer<'_> {
    pub fn reverse(&self, b: &[Stmt]) -> Result<TokenStream, String> {
        let mut out = Vec::new();
        for s in b.iter().rev() {
            out.push(self.spanned(s, self.rev_stmt(s)?));
        }
        Ok(quote!(#(#out)*))
    }

    /// Restores of what `s` saved (after its adjoint is propagated), in the reverse order
    /// of the saves.
    pub fn restores(&self, s: &Stmt) -> TokenStream {
        let out: Vec<TokenStream> = super::super::visit::defs(s)
            .into_iter()
            .rev()
            .filter(|v| self.saves(s, *v))
            .map(|v| self.pop(v))
            .collect();
        quote!(#(#out)*)
    }

    fn work(&self, s: &Stmt) -> bool {
        self.facts
            .rev_work
            .contains(&super::super::analysis::key(s))
    }

    fn rev_stmt(&self, s: &Stmt) -> Result<TokenStream, String> {
        let restore = self.restores(s);
        let active = self.facts.stmt_active(s);
        let (sc, zero) = (self.sc(), self.zero());
        Ok(match s {
            Stmt::Set { dst, rhs } if active => {
                let (a, g) = (self.adj(*dst), self.tmp("g"));
                let prop = self.partials(*dst, rhs, &g);
                quote!({ let #g: #sc = #a; #a = #zero; #prop #restore })
            }
            Stmt::Load { dst, place } if active => {
                let (a, p) = (self.adj(*dst), self.place(place, true));
                quote!({ #p += #a; #a = #zero; #restore })
            }
            Stmt::Store { place, src } if active => {
                let (p, g) = (self.place(place, true), self.tmp("g"));
                let add = self.add_to(src, quote!(#g));
                quote!({ let #g: #sc = #p; #p = #zero; #add })
            }
            Stmt::Alloc { dst, init } if active => self.rev_alloc(s, *dst, init),
            Stmt::Push { dst, src } if active => {
                let (a, g) = (self.adj(*dst), self.tmp("g"));
                let add = self.add_to(src, quote!(#g));
                quote!({ let #g: #sc = #a.pop().unwrap_or(#zero); #add })
            }
            Stmt::PushRow { dst, src } if active => {
                let a = self.adj(*dst);
                if self.facts.active[*src] {
                    let b = self.adj(*src);
                    quote!(::fazang::__private::add_row(&mut #b, #a.pop());)
                } else {
                    quote!(#a.pop();)
                }
            }
            Stmt::Call(c) if self.generic && !self.generic_call(c) => {
                return Err(
                    "a call on the tape or with a vector result in code over dual numbers".into(),
                )
            }
            Stmt::Call(c) => self.rev_call(s, c, active)?,
            // A data value given to a variable that is active elsewhere: its adjoint
            // before this point is that of another value.
            Stmt::Data { dst, .. } if self.facts.active[*dst] => {
                let a = self.adj(*dst);
                quote!({ #a = #zero; #restore })
            }
            Stmt::If { cond, then, els } if self.work(s) => {
                let (c, t, e) = (self.name(*cond), self.reverse(then)?, self.reverse(els)?);
                let (rt, re) = (self.recomputed(then)?, self.recomputed(els)?);
                quote!(if #c { #rt #t } else { #re #e })
            }
            Stmt::For {
                idx,
                count,
                body,
                exit,
            } if self.work(s) => {
                let k = self.name(*idx);
                let n = match exit {
                    Some(e) => self.name(e.trips),
                    None => self.name(*count),
                };
                let (re, b) = (self.recomputed(body)?, self.reverse(body)?);
                let restore = match exit {
                    Some(e) if self.saves(s, e.trips) => self.pop(e.trips),
                    _ => quote!(),
                };
                quote!(for #k in (0..#n).rev() { #re #b } #restore)
            }
            Stmt::Loop { body, exit } if self.work(s) => {
                let n = self.name(exit.trips);
                let (re, b) = (self.recomputed(body)?, self.reverse(body)?);
                let restore = if self.saves(s, exit.trips) {
                    self.pop(exit.trips)
                } else {
                    quote!()
                };
                quote!(for _ in 0..#n { #re #b } #restore)
            }
            Stmt::For { exit: Some(e), .. } if self.saves(s, e.trips) => self.pop(e.trips),
            Stmt::Loop { exit, .. } if self.saves(s, exit.trips) => self.pop(exit.trips),
            _ => restore,
        })
    }

    /// The statements of a loop body computed again at the start of its reverse.
    fn recomputed(&self, body: &[Stmt]) -> Result<TokenStream, String> {
        let mut out = Vec::new();
        for s in body {
            if self.facts.remat.contains(&super::super::analysis::key(s)) {
                out.push(self.recompute(s)?);
            }
        }
        Ok(quote!(#(#out)*))
    }

    /// `adj(op) += g` if the operand is active.
    pub fn add_to(&self, op: &Op, g: TokenStream) -> TokenStream {
        match op {
            Op::Var(v) if self.facts.active[*v] => {
                let a = self.adj(*v);
                quote!(#a += #g;)
            }
            _ => quote!(),
        }
    }

    /// The adjoint `g` of `dst = rhs` into the operands.
    fn partials(&self, dst: V, rhs: &Rhs, g: &Ident) -> TokenStream {
        let act = |o: &Op| self.facts.op_active(o);
        let v = self.name(dst);
        match rhs {
            Rhs::Copy(a) => self.add_to(a, quote!(#g)),
            Rhs::Neg(a) => self.add_to(a, quote!(-#g)),
            Rhs::Add(a, b) => {
                let (x, y) = (self.add_to(a, quote!(#g)), self.add_to(b, quote!(#g)));
                quote!(#x #y)
            }
            Rhs::Sub(a, b) => {
                let (x, y) = (self.add_to(a, quote!(#g)), self.add_to(b, quote!(-#g)));
                quote!(#x #y)
            }
            Rhs::Mul(a, b) => {
                let av = self.plain_operand(a).unwrap_or_else(|| self.fop(a));
                let bv = self.plain_operand(b).unwrap_or_else(|| self.fop(b));
                let x = if act(a) {
                    self.add_to(a, quote!(#g * #bv))
                } else {
                    quote!()
                };
                let y = if act(b) {
                    self.add_to(b, quote!(#g * #av))
                } else {
                    quote!()
                };
                // A product's partials are its operands' values: finite wherever the
                // product is (no 0 x inf to guard, unlike quotients and functions).
                quote!(#x #y)
            }
            Rhs::Div(a, b) => {
                // d(a/b) = da / b - (a/b) db / b: one reciprocal (loop-invariant divisors
                // leave the loop with it).
                let (bv, sc, one) = (self.fop(b), self.sc(), self.lit(quote!(1.0)));
                let r = self.tmp("r");
                let x = self.add_to(a, quote!(#g * #r));
                let y = self.add_to(b, quote!(-(#g * #v * #r)));
                self.nonzero(g, quote!(let #r: #sc = #one / #bv; #x #y))
            }
            Rhs::Rem(a, b) => {
                let (av, bv) = (self.fop(a), self.fop(b));
                let p = self.on_values("rem", &[av, bv, quote!(#v)]);
                self.pair(a, b, p, g)
            }
            Rhs::Fun(f, ops) => self.fun_partials(f, ops, v, g),
        }
    }

    /// `(dx, dy) = partials`, each into its operand.
    fn pair(&self, a: &Op, b: &Op, partials: TokenStream, g: &Ident) -> TokenStream {
        let (da, db, sc) = (self.tmp("d"), self.tmp("d"), self.sc());
        let x = self.add_to(a, quote!(#g * #da));
        let y = self.add_to(b, quote!(#g * #db));
        self.nonzero(g, quote!(let (#da, #db): (#sc, #sc) = #partials; #x #y))
    }

    fn fun_partials(
        &self,
        f: &crate::catalogue::Fun,
        ops: &[Op],
        v: &Ident,
        g: &Ident,
    ) -> TokenStream {
        let name = format_ident!("{}", f.name);
        let x = self.fop(&ops[0]);
        match f.deriv {
            Deriv::Unary(needs) => {
                // What the derivative does not read is passed as NaN: were the catalogue
                // wrong about it, the result would be NaN, never a wrong number.
                let nan = self.lit(quote!(f64::NAN));
                let (xa, va) = match needs {
                    Needs::X => (x.clone(), nan),
                    Needs::V => (nan, quote!(#v)),
                    Needs::Both => (x.clone(), quote!(#v)),
                };
                let d = quote!(::fazang::__private::d1::#name(#xa, #va));
                self.nonzero(g, self.add_to(&ops[0], quote!(#g * #d)))
            }
            Deriv::Flat => quote!(),
            Deriv::Binary { with_value } => {
                let y = self.fop(&ops[1]);
                let p = if F64_ONLY.contains(&f.name) {
                    let mut args = vec![x, y];
                    if with_value {
                        args.push(quote!(#v));
                    }
                    self.on_values(f.name, &args)
                } else if with_value {
                    quote!(::fazang::__private::d2::#name(#x, #y, #v))
                } else {
                    quote!(::fazang::__private::d2::#name(#x, #y))
                };
                self.pair(&ops[0], &ops[1], p, g)
            }
            Deriv::Special => self.special_partials(f.name, ops, v, g),
        }
    }

    fn special_partials(&self, name: &str, ops: &[Op], v: &Ident, g: &Ident) -> TokenStream {
        let x = self.fop(&ops[0]);
        match name {
            "powi" if self.generic => {
                let n = self.op(&ops[1]);
                self.nonzero(
                    g,
                    self.add_to(&ops[0], quote!(#g * ::fazang::__private::d2::powi(#x, #n))),
                )
            }
            "powi" => {
                let n = self.op(&ops[1]);
                self.nonzero(
                    g,
                    self.add_to(&ops[0], quote!(#g * ::fazang::__private::d_powi(#x, #n))),
                )
            }
            "max" | "min" => {
                let y = self.value_of(self.fop(&ops[1]));
                let x = self.value_of(x);
                let pick = format_ident!("{}_picks_first", name);
                let (a, b) = (
                    self.add_to(&ops[0], quote!(#g)),
                    self.add_to(&ops[1], quote!(#g)),
                );
                quote!(if ::fazang::__private::d2::#pick(#x, #y) { #a } else { #b })
            }
            "mul_add" => {
                let y = self.fop(&ops[1]);
                let a = self.add_to(&ops[0], quote!(#g * #y));
                let b = self.add_to(&ops[1], quote!(#g * #x));
                let c = self.add_to(&ops[2], quote!(#g));
                self.nonzero(g, quote!(#a #b #c))
            }
            "clamp" => {
                let (lo, hi) = (
                    self.value_of(self.fop(&ops[1])),
                    self.value_of(self.fop(&ops[2])),
                );
                let x = self.value_of(x);
                let (a, b, c) = (
                    self.add_to(&ops[0], quote!(#g)),
                    self.add_to(&ops[1], quote!(#g)),
                    self.add_to(&ops[2], quote!(#g)),
                );
                quote!(match ::fazang::__private::d_clamp(#x, #lo, #hi) { 0 => { #a } 1 => { #b } _ => { #c } })
            }
            "midpoint" => {
                let (a, b) = (
                    self.add_to(&ops[0], quote!(#g * 0.5)),
                    self.add_to(&ops[1], quote!(#g * 0.5)),
                );
                quote!(#a #b)
            }
            "rem_euclid" => {
                let y = self.fop(&ops[1]);
                let p = self.on_values("rem", &[x, y, quote!(#v)]);
                self.pair(&ops[0], &ops[1], p, g)
            }
            _ => quote!(::core::unreachable!();),
        }
    }

    /// The reverse of a new array: its adjoint into what it was made of, then cleared
    /// (and, if it was saved, the old array and an adjoint of its shape back).
    fn rev_alloc(&self, s: &Stmt, dst: V, init: &Init) -> TokenStream {
        let a = self.adj(dst);
        let prop = match init {
            Init::Repeat(x, _, _) => {
                let zero = self.zero();
                let add = self.add_to(
                    x,
                    quote!(#a.iter().fold(#zero, |__fz_s, __fz_x| __fz_s + *__fz_x)),
                );
                quote!(#add)
            }
            Init::List(xs, _) => {
                let adds: Vec<TokenStream> = xs
                    .iter()
                    .enumerate()
                    .map(|(i, x)| self.add_to(x, quote!(#a[#i])))
                    .collect();
                quote!(#(#adds)*)
            }
            Init::CopyOf(p, w) => {
                if !self.facts.active[p.root] {
                    quote!()
                } else {
                    let src = self.place(p, true);
                    match w {
                        None => quote!(::fazang::__private::accumulate(&mut #src[..], &#a[..]);),
                        Some((o, n)) => {
                            let (o, n) = (self.op(o), self.op(n));
                            quote!(::fazang::__private::accumulate(&mut #src[#o..#o + #n], &#a[..]);)
                        }
                    }
                }
            }
            Init::Empty => quote!(),
        };
        let restore = self.restores(s);
        let n = self.name(dst);
        let reset = if restore.is_empty() {
            quote!(::fazang::__private::clear_adjoint(&mut #a);)
        } else {
            quote!(#restore #a = ::fazang::__private::zeros_like(&#n);)
        };
        quote!({ #prop #reset })
    }
}

/// Binary derivatives of the table that take `f64`s only: their partials are piecewise
/// constant, so generic code computes them on values (their own derivatives are zero).
const F64_ONLY: &[&str] = &["copysign", "rem", "div"];

impl Printer<'_> {
    /// Propagate only a non-zero adjoint (as the tape's sweep: a value the result does
    /// not depend on may have infinite or NaN partials; a dual adjoint is zero when its
    /// value and every lane are).
    fn nonzero(&self, g: &Ident, body: TokenStream) -> TokenStream {
        if body.is_empty() {
            return body;
        }
        if self.generic {
            quote!(if ::fazang::__private::nonzero(&#g) { #body })
        } else {
            quote!(if #g != 0.0 { #body })
        }
    }

    /// `d2::name(args)` of a piecewise constant partial: on values in generic code.
    fn on_values(&self, name: &str, args: &[TokenStream]) -> TokenStream {
        let name = format_ident!("{}", name);
        if !self.generic {
            return quote!(::fazang::__private::d2::#name(#(#args),*));
        }
        let vals = args.iter().map(|a| self.value_of(a.clone()));
        let (l0, l1) = (self.lit(quote!(__fz_p.0)), self.lit(quote!(__fz_p.1)));
        quote!({ let __fz_p = ::fazang::__private::d2::#name(#(#vals),*); (#l0, #l1) })
    }
}
