//! Operators where data meets an active value of a type the macro cannot see (a nalgebra
//! matrix, or a number from a call): `y - &mu`, `2.0 * &v`, `&v / n as f64`. nalgebra
//! has no impl mixing `f64` entries with the body's scalar, so the operand is handed to
//! `fazang::__private::mixed`, which converts or maps matrices and applies the operator
//! as written to anything else (see its documentation).

use super::Gen;
use crate::activity::Abs;
use crate::model::{Expr, Kind};
use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::BinOp;

/// What a mixed operand needs.
#[derive(Clone, Copy)]
enum Rule {
    /// Convert the left (`true`) or right data operand to the scalar.
    Lift(bool),
    /// `k * a` (the number on the left), `a * k` or `a / k`: which side is the number,
    /// and whether it is active.
    Scale { number_left: bool, active: bool },
}

impl Gen<'_> {
    /// `l op r` printed with a mixed-operand conversion, where one is needed.
    pub(super) fn mixed_binary(&mut self, op: &BinOp, l: &Expr, r: &Expr) -> Option<TokenStream> {
        let rule = rule(op, self.abs(l), self.abs(r))?;
        if let Rule::Scale {
            number_left,
            active: true,
        } = rule
        {
            // `DMatrix::identity(n, n) * s2`: the matrix takes its entry type from the
            // operator, which makes it one of `S`, as written.
            let other = if number_left { r } else { l };
            if !self.abs(other).active() && self.context_typed(other) {
                return None;
            }
        }
        self.mixed_used = true;
        let s = self.s;
        let sp = self.sp;
        let mixed = quote_spanned!(sp=> ::fazang::__private::Mixed);
        // An operand passed to `Mixed` is a function argument, where its parentheses are
        // not needed (and rustc would warn of them); one left beside the operator keeps
        // them.
        let (lx, rx) = match rule {
            Rule::Lift(true) => (self.expr(bare(l)), self.expr(r)),
            Rule::Lift(false) => (self.expr(l), self.expr(bare(r))),
            Rule::Scale { .. } => (self.expr(bare(l)), self.expr(bare(r))),
        };
        Some(match rule {
            Rule::Lift(true) => quote_spanned!(sp=> (&#mixed::<#s, _>::new(#lx)).fz_lift() #op #rx),
            Rule::Lift(false) => {
                quote_spanned!(sp=> #lx #op (&#mixed::<#s, _>::new(#rx)).fz_lift())
            }
            Rule::Scale {
                number_left,
                active,
            } => {
                let k = if active {
                    quote_spanned!(sp=> #s)
                } else {
                    quote_spanned!(sp=> f64)
                };
                // Both operands evaluated in the order written.
                match (op, number_left) {
                    (_, true) => {
                        quote_spanned!(sp=> (&#mixed::<#s, _, #k>::number_left(#lx, #rx)).fz_lmul())
                    }
                    (BinOp::Div(_), false) => {
                        quote_spanned!(sp=> (&#mixed::<#s, _, #k>::number_right(#lx, #rx)).fz_div())
                    }
                    (_, false) => {
                        quote_spanned!(sp=> (&#mixed::<#s, _, #k>::number_right(#lx, #rx)).fz_rmul())
                    }
                }
            }
        })
    }
}

impl Gen<'_> {
    /// A constructor call whose arguments are sizes or flags only
    /// (`DMatrix::identity(n, n)`, `DVector::zeros(n)`): its entry type comes from where
    /// it is used.
    fn context_typed(&self, e: &Expr) -> bool {
        match &e.peel().kind {
            Kind::Call(f, args) => {
                matches!(f.peel().kind, Kind::Path(_))
                    && args
                        .iter()
                        .all(|a| matches!(self.abs(a), Abs::Int | Abs::Bool | Abs::Never))
            }
            _ => false,
        }
    }

    /// Which side of a method call of a name the macro does not know is lifted, where
    /// data meets an active value that may be a matrix: the receiver (`y.dot(&a)` with
    /// `y` data), or the data arguments (`chol.solve(&y)` with `chol` active).
    pub(super) fn method_lift(&self, recv: &Abs, args: &[Expr]) -> MethodLift {
        let active_matrix = |a: &Abs| matrixish(a) && a.active();
        let data_matrix = |a: &Abs| matrixish(a) && !a.active();
        if data_matrix(recv) && args.iter().any(|a| active_matrix(self.abs(a))) {
            MethodLift::Receiver
        } else if active_matrix(recv) && args.iter().any(|a| data_matrix(self.abs(a))) {
            MethodLift::Args
        } else {
            MethodLift::None
        }
    }

    /// Whether `a` is an argument [`MethodLift::Args`] lifts.
    pub(super) fn lifted_arg(&self, a: &Expr) -> bool {
        let abs = self.abs(a);
        matrixish(abs) && !abs.active()
    }

    /// A data operand of a method call as the body's scalar if it is a matrix: by
    /// reference (borrowed from a temporary) if it is a reference or a place, by value
    /// if it is an owned temporary.
    pub(super) fn lift_operand(&mut self, e: &Expr) -> TokenStream {
        self.mixed_used = true;
        let s = self.s;
        let sp = e.span;
        let x = self.expr(e);
        let by_ref = matches!(e.peel().kind, Kind::Reference { mutable: false, .. })
            || matches!(self.abs(e), Abs::Ref(_));
        let place = matches!(
            e.peel().kind,
            Kind::Local(..) | Kind::Path(_) | Kind::Field(..) | Kind::Index(..)
        );
        if by_ref {
            quote_spanned!(sp=> (&::fazang::__private::MixedRef::<#s, _, _>::new(#x)).fz_lift_ref())
        } else if place {
            quote_spanned!(sp=> (&::fazang::__private::MixedRef::<#s, _, _>::new(&#x)).fz_lift_ref())
        } else {
            quote_spanned!(sp=> (&::fazang::__private::Mixed::<#s, _>::new(#x)).fz_lift())
        }
    }
}

/// What [`Gen::method_lift`] found.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum MethodLift {
    None,
    Receiver,
    Args,
}

/// `e` without the parentheses around it.
fn bare(e: &Expr) -> &Expr {
    match &e.kind {
        Kind::Paren(x) if e.attrs.is_empty() => bare(x),
        _ => e,
    }
}

/// The body, with what it needs in scope if data meets active values in it (the traits
/// of `fazang::__private::mixed`).
pub fn with_imports(body: TokenStream, used: bool) -> TokenStream {
    if !used {
        return body;
    }
    quote::quote! {{
        #[allow(unused_imports)]
        use ::fazang::__private::{
            LiftMatrix as _, LiftMatrixRef as _, LiftOther as _, LiftOtherRef as _,
            ScaleMatrix as _, ScaleOther as _,
        };
        #body
    }}
}

/// Whether a value may be a matrix: of a type the analysis cannot see, or a sequence
/// (nalgebra parameters are typed as sequences of floats).
fn matrixish(a: &Abs) -> bool {
    matches!(a.deref(), Abs::Unknown(_) | Abs::Seq(_))
}

/// The rule for `l op r`, if the operands mix data and active values (or a number and a
/// value of unknown type, both active) in a way some type of the operands has no
/// operator for.
fn rule(op: &BinOp, l: &Abs, r: &Abs) -> Option<Rule> {
    let unknown = matrixish;
    let number = |a: &Abs| matches!(a, Abs::Float(_));
    let any_active = l.active() || r.active();
    match op {
        BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_)
            if unknown(l) && unknown(r) && l.active() != r.active() =>
        {
            Some(Rule::Lift(!l.active()))
        }
        BinOp::AddAssign(_) | BinOp::SubAssign(_)
            if unknown(l) && unknown(r) && l.active() && !r.active() =>
        {
            Some(Rule::Lift(false))
        }
        BinOp::Mul(_) if any_active && number(l) && unknown(r) => Some(Rule::Scale {
            number_left: true,
            active: l.active(),
        }),
        BinOp::Mul(_) | BinOp::Div(_) if any_active && unknown(l) && number(r) => {
            Some(Rule::Scale {
                number_left: false,
                active: r.active(),
            })
        }
        _ => None,
    }
}
