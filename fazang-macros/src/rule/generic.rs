//! Which partials of a rule can be evaluated on any scalar, and their rewriting for it.
//!
//! A rule's partials are expressions in its arguments. When they use nothing but the
//! active scalar parameters, float literals, `f64` constants (`std::f64::consts::PI`, or
//! `PI` imported: a name that is not a parameter can only be a constant or a static),
//! arithmetic and the methods every scalar has (`x.cos()`, `x.powi(2)`), fazang evaluates
//! them on the scalar one derivative order below the call (`Real::Inner`), so that
//! Hessians, Taylor series and nested derivatives through the rule are exact. A partial
//! that calls anything else (a plain `f64` helper, a macro) or reads a data parameter is
//! evaluated on `f64` only: the rule is then first-order, and asking it for a second
//! derivative is a runtime error that names the rule and the reason.
//!
//! The rewriting: float literals and constants that are operands of `+ - * / %` or of a
//! unary minus, or the whole partial, become `lit::<T>(..)`, since `f64 op T` does not
//! exist for every scalar `T` (`T op f64` does).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, ExprLit, Ident, Lit, UnOp};

/// The partial `expr` rewritten for a generic scalar `t` (the active parameters being
/// bound to values of type `t`), or why it can only be evaluated on `f64`. `params` are
/// all the rule function's parameter names: any other name is a constant.
pub fn rewrite(
    expr: &Expr,
    active: &[&Ident],
    params: &[&Ident],
    t: &Ident,
) -> Result<TokenStream, String> {
    let rw = Rewriter { active, params, t };
    let body = rw.expr(expr)?;
    Ok(if rw.is_constant(expr) {
        rw.lit(expr)
    } else {
        body
    })
}

struct Rewriter<'a> {
    active: &'a [&'a Ident],
    params: &'a [&'a Ident],
    t: &'a Ident,
}

impl Rewriter<'_> {
    fn expr(&self, e: &Expr) -> Result<TokenStream, String> {
        match e {
            Expr::Lit(ExprLit { lit, .. }) => match lit {
                Lit::Float(_) | Lit::Int(_) => Ok(e.to_token_stream()),
                _ => Err(format!("it uses the literal `{}`", e.to_token_stream())),
            },
            Expr::Path(p) => {
                if let Some(id) = p.path.get_ident() {
                    if self.active.contains(&id) || !self.params.contains(&id) {
                        // An active parameter, or a constant (`PI` after `use ..::PI`).
                        return Ok(e.to_token_stream());
                    }
                    return Err(format!(
                        "it reads `{id}`, which is not an active f64 parameter"
                    ));
                }
                if is_f64_const(e) {
                    Ok(e.to_token_stream())
                } else {
                    Err(format!("it reads `{}`", e.to_token_stream()))
                }
            }
            Expr::Paren(p) => {
                let inner = self.operand(&p.expr)?;
                Ok(quote_spanned!(p.span()=> (#inner)))
            }
            Expr::Group(g) => self.expr(&g.expr),
            Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
                let op = &u.op;
                let inner = self.operand(&u.expr)?;
                Ok(quote!(#op #inner))
            }
            Expr::Binary(b) if is_arith(&b.op) => {
                let (l, r) = (self.operand(&b.left)?, self.operand(&b.right)?);
                let op = &b.op;
                Ok(quote!(#l #op #r))
            }
            Expr::MethodCall(m) => {
                let name = m.method.to_string();
                if !crate::catalogue::differentiable_again(&name) || m.turbofish.is_some() {
                    return Err(format!("it calls `.{name}(..)`"));
                }
                let receiver = self.operand(&m.receiver)?;
                let args = m
                    .args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<Vec<_>, _>>()?;
                let method = &m.method;
                Ok(quote_spanned!(m.span()=> #receiver.#method(#(#args),*)))
            }
            Expr::Call(c) => Err(format!("it calls `{}`", c.func.to_token_stream())),
            Expr::Macro(m) => Err(format!("it uses `{}!`", m.mac.path.to_token_stream())),
            other => Err(format!(
                "it uses `{}`, which fazang evaluates on f64 only",
                other.to_token_stream()
            )),
        }
    }

    /// An operand of an arithmetic operator: constants become scalars.
    fn operand(&self, e: &Expr) -> Result<TokenStream, String> {
        let rewritten = self.expr(e)?;
        Ok(if self.is_constant(e) {
            self.lit(e)
        } else {
            rewritten
        })
    }

    fn lit(&self, e: &Expr) -> TokenStream {
        let t = self.t;
        quote_spanned!(e.span()=> ::fazang::__private::lit::<#t>(#e))
    }
}

impl Rewriter<'_> {
    /// A float literal or an `f64` constant (possibly negated or parenthesised): a path
    /// through `consts`, or a name that is not a parameter (`PI` imported, a `const`).
    fn is_constant(&self, e: &Expr) -> bool {
        match e {
            Expr::Lit(ExprLit {
                lit: Lit::Float(_), ..
            }) => true,
            Expr::Paren(p) => self.is_constant(&p.expr),
            Expr::Group(g) => self.is_constant(&g.expr),
            Expr::Unary(u) => matches!(u.op, UnOp::Neg(_)) && self.is_constant(&u.expr),
            Expr::Path(p) => match p.path.get_ident() {
                Some(id) if p.qself.is_none() => !self.params.contains(&id),
                _ => is_f64_const(e),
            },
            _ => false,
        }
    }
}

/// `PI`, `std::f64::consts::PI`, `f64::consts::E`, ...: paths through `consts` or in
/// upper case (constants by convention), never `Self::..`.
fn is_f64_const(e: &Expr) -> bool {
    let Expr::Path(p) = e else { return false };
    if p.qself.is_some() || p.path.segments.iter().any(|s| s.ident == "Self") {
        return false;
    }
    let last = match p.path.segments.last() {
        Some(s) => s.ident.to_string(),
        None => return false,
    };
    let through_consts = p.path.segments.iter().any(|s| s.ident == "consts");
    through_consts
        && last
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
}

fn is_arith(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn run(e: Expr) -> Result<String, String> {
        let x: Ident = parse_quote!(x);
        let y: Ident = parse_quote!(y);
        let t: Ident = parse_quote!(T);
        let w: Ident = parse_quote!(w);
        rewrite(&e, &[&x, &y], &[&x, &y, &w], &t).map(|ts| ts.to_string())
    }

    #[test]
    fn arithmetic_in_the_arguments_is_generic() {
        let out = run(parse_quote!(x.cos() / (1.0 + x.sin()))).unwrap();
        assert_eq!(
            out,
            "x . cos () / (:: fazang :: __private :: lit :: < T > (1.0) + x . sin ())"
        );
        let out = run(parse_quote!(-2.0 * std::f64::consts::PI * y.powi(2))).unwrap();
        assert!(out.contains("lit :: < T > (- 2.0)"), "{out}");
        assert!(
            out.contains("lit :: < T > (std :: f64 :: consts :: PI)"),
            "{out}"
        );
        assert!(out.contains("y . powi (2)"), "{out}");
        assert_eq!(
            run(parse_quote!(1.0)).unwrap(),
            ":: fazang :: __private :: lit :: < T > (1.0)"
        );
        assert_eq!(run(parse_quote!(y)).unwrap(), "y");
    }

    #[test]
    fn calls_macros_and_data_stay_on_f64() {
        assert!(run(parse_quote!(soft(x)))
            .unwrap_err()
            .contains("calls `soft`"));
        assert!(run(parse_quote!(vec![x])).unwrap_err().contains("`vec!`"));
        assert!(run(parse_quote!(w * x)).unwrap_err().contains("reads `w`"));
        assert!(run(parse_quote!(x.to_bits()))
            .unwrap_err()
            .contains("to_bits"));
        assert!(run(parse_quote!(Self::K * x)).is_err());
    }

    #[test]
    fn names_that_are_not_parameters_are_constants() {
        // `use std::f64::consts::PI;` then `x => x / (2.0 * PI).sqrt()`.
        let out = run(parse_quote!(x / (2.0 * PI).sqrt())).unwrap();
        assert!(out.contains("lit :: < T > (PI)"), "{out}");
        assert_eq!(
            run(parse_quote!(SCALE)).unwrap(),
            ":: fazang :: __private :: lit :: < T > (SCALE)"
        );
        assert_eq!(run(parse_quote!(x.powi(N))).unwrap(), "x . powi (N)");
    }
}
