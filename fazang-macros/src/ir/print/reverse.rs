//! The reverse sweep: the statements backwards, each adding its adjoint into its operands'
//! (one rule per statement kind) and restoring what its forward counterpart saved.

use super::*;
use crate::catalogue::{Deriv, Needs};

impl Printer<'_> {
    pub fn reverse(&self, b: &[Stmt]) -> Result<TokenStream, String> {
        let mut out = Vec::new();
        for s in b.iter().rev() {
            out.push(self.rev_stmt(s)?);
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
        Ok(match s {
            Stmt::Set { dst, rhs } if active => {
                let (a, g) = (self.adj(*dst), self.tmp("g"));
                let prop = self.partials(*dst, rhs, &g);
                quote!({ let #g: f64 = #a; #a = 0.0; #prop #restore })
            }
            Stmt::Load { dst, place } if active => {
                let (a, p) = (self.adj(*dst), self.place(place, true));
                quote!({ #p += #a; #a = 0.0; #restore })
            }
            Stmt::Store { place, src } if active => {
                let (p, g) = (self.place(place, true), self.tmp("g"));
                let add = self.add_to(src, quote!(#g));
                quote!({ let #g: f64 = #p; #p = 0.0; #add })
            }
            Stmt::Alloc { dst, init } if active => self.rev_alloc(s, *dst, init),
            Stmt::Push { dst, src } if active => {
                let (a, g) = (self.adj(*dst), self.tmp("g"));
                let add = self.add_to(src, quote!(#g));
                quote!({ let #g: f64 = #a.pop().unwrap_or(0.0); #add })
            }
            Stmt::Call(c) => self.rev_call(s, c, active)?,
            // A data value given to a variable that is active elsewhere: its adjoint
            // before this point is that of another value.
            Stmt::Data { dst, .. } if self.facts.active[*dst] => {
                let a = self.adj(*dst);
                quote!({ #a = 0.0; #restore })
            }
            Stmt::If { cond, then, els } if self.work(s) => {
                let (c, t, e) = (self.name(*cond), self.reverse(then)?, self.reverse(els)?);
                let (rt, re) = (self.recomputed(then), self.recomputed(els));
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
                let (re, b) = (self.recomputed(body), self.reverse(body)?);
                let restore = match exit {
                    Some(e) if self.saves(s, e.trips) => self.pop(e.trips),
                    _ => quote!(),
                };
                quote!(for #k in (0..#n).rev() { #re #b } #restore)
            }
            Stmt::Loop { body, exit } if self.work(s) => {
                let n = self.name(exit.trips);
                let (re, b) = (self.recomputed(body), self.reverse(body)?);
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
    fn recomputed(&self, body: &[Stmt]) -> TokenStream {
        let out: Vec<TokenStream> = body
            .iter()
            .filter(|s| self.facts.remat.contains(&super::super::analysis::key(s)))
            .map(|s| self.recompute(s))
            .collect();
        quote!(#(#out)*)
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
                let (av, bv) = (self.op(a), self.op(b));
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
                let bv = self.op(b);
                let r = self.tmp("r");
                let x = self.add_to(a, quote!(#g * #r));
                let y = self.add_to(b, quote!(-(#g * #v * #r)));
                nonzero(g, quote!(let #r: f64 = 1.0 / #bv; #x #y))
            }
            Rhs::Rem(a, b) => {
                let (av, bv) = (self.op(a), self.op(b));
                self.pair(a, b, quote!(::fazang::__private::d2::rem(#av, #bv, #v)), g)
            }
            Rhs::Fun(f, ops) => self.fun_partials(f, ops, v, g),
        }
    }

    /// `(dx, dy) = partials`, each into its operand.
    fn pair(&self, a: &Op, b: &Op, partials: TokenStream, g: &Ident) -> TokenStream {
        let (da, db) = (self.tmp("d"), self.tmp("d"));
        let x = self.add_to(a, quote!(#g * #da));
        let y = self.add_to(b, quote!(#g * #db));
        nonzero(g, quote!(let (#da, #db): (f64, f64) = #partials; #x #y))
    }

    fn fun_partials(
        &self,
        f: &crate::catalogue::Fun,
        ops: &[Op],
        v: &Ident,
        g: &Ident,
    ) -> TokenStream {
        let name = format_ident!("{}", f.name);
        let x = self.op(&ops[0]);
        match f.deriv {
            Deriv::Unary(needs) => {
                // What the derivative does not read is passed as NaN: were the catalogue
                // wrong about it, the result would be NaN, never a wrong number.
                let (xa, va) = match needs {
                    Needs::X => (x.clone(), quote!(f64::NAN)),
                    Needs::V => (quote!(f64::NAN), quote!(#v)),
                    Needs::Both => (x.clone(), quote!(#v)),
                };
                let d = quote!(::fazang::__private::d1::#name(#xa, #va));
                nonzero(g, self.add_to(&ops[0], quote!(#g * #d)))
            }
            Deriv::Flat => quote!(),
            Deriv::Binary { with_value } => {
                let y = self.op(&ops[1]);
                let p = if with_value {
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
        let x = self.op(&ops[0]);
        match name {
            "powi" => {
                let n = self.op(&ops[1]);
                nonzero(
                    g,
                    self.add_to(&ops[0], quote!(#g * ::fazang::__private::d_powi(#x, #n))),
                )
            }
            "max" | "min" => {
                let y = self.op(&ops[1]);
                let pick = format_ident!("{}_picks_first", name);
                let (a, b) = (
                    self.add_to(&ops[0], quote!(#g)),
                    self.add_to(&ops[1], quote!(#g)),
                );
                quote!(if ::fazang::__private::d2::#pick(#x, #y) { #a } else { #b })
            }
            "mul_add" => {
                let (y, z) = (self.op(&ops[1]), self.op(&ops[2]));
                let _ = z;
                let a = self.add_to(&ops[0], quote!(#g * #y));
                let b = self.add_to(&ops[1], quote!(#g * #x));
                let c = self.add_to(&ops[2], quote!(#g));
                nonzero(g, quote!(#a #b #c))
            }
            "clamp" => {
                let (lo, hi) = (self.op(&ops[1]), self.op(&ops[2]));
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
                let y = self.op(&ops[1]);
                self.pair(
                    &ops[0],
                    &ops[1],
                    quote!(::fazang::__private::d2::rem(#x, #y, #v)),
                    g,
                )
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
                let add = self.add_to(x, quote!(#a.iter().sum::<f64>()));
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

/// Propagate only a non-zero adjoint (as the tape's sweep: a value the result does not
/// depend on may have infinite or NaN partials).
fn nonzero(g: &Ident, body: TokenStream) -> TokenStream {
    if body.is_empty() {
        return body;
    }
    quote!(if #g != 0.0 { #body })
}
