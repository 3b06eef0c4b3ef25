//! Conditions for `if`, `while`, `match` and `let p = ..;`: comparisons of data and of
//! active values, `usize` tests, `bool` bindings, `is_finite()`-style predicates, and
//! their conjunctions.

use super::ctx::Ctx;
use super::scope::Ty;

/// A generated condition.
pub struct C {
    pub code: String,
    /// Depends on an active value.
    pub active: bool,
}

impl Ctx<'_> {
    /// A condition on data or active values.
    pub fn cond(&mut self) -> C {
        let c = match self.weighted(&[7, 2, 2, 1, 1]) {
            0 => self.compare(),
            1 => self.usize_cond(),
            2 => self.bool_var(),
            3 => {
                let e = self.expr(1);
                let p = self.pick(&["is_finite()", "is_sign_negative()", "is_sign_positive()"]);
                C {
                    code: e.method(p.trim_end_matches("()"), ""),
                    active: e.active,
                }
            }
            _ => {
                let (a, b) = (self.compare(), self.compare());
                let op = self.pick(&["&&", "||"]);
                C {
                    code: format!("({}) {op} ({})", a.code, b.code),
                    active: a.active || b.active,
                }
            }
        };
        self.tag(if c.active { "cond-active" } else { "cond-data" });
        c
    }

    fn compare(&mut self) -> C {
        let a = self.expr(1).val();
        let b = if self.chance(0.5) {
            self.literal()
        } else {
            self.leaf().val()
        };
        let data = !a.active && !b.active;
        let op = if data && self.chance(0.2) {
            self.pick(&["==", "!="])
        } else {
            self.pick(&["<", ">", "<=", ">="])
        };
        self.tag(if data { "cmp-data" } else { "cmp-active" });
        // `x - k as f64 < 2.0` parses `f64<` as generics: parenthesise casts on the left.
        let left = if a.cast || (a.prec > 0 && a.code.contains(" as ")) {
            format!("({})", a.code)
        } else {
            a.at(3)
        };
        C {
            code: format!("{left} {op} {}", b.at(3)),
            active: a.active || b.active,
        }
    }

    fn usize_cond(&mut self) -> C {
        let Some(u) = self.usize_expr(0, false) else {
            return self.compare();
        };
        let c = self.rng.usize(0..3);
        let u = if u.atom {
            u.code
        } else {
            format!("({})", u.code)
        };
        let code = match self.weighted(&[2, 1, 1]) {
            0 => format!("{u} > {c}"),
            1 => format!("{u} % 2 == 0"),
            _ => format!("{u} == {c}"),
        };
        C {
            code,
            active: false,
        }
    }

    fn bool_var(&mut self) -> C {
        match self.pick_var(false, |v| v.ty == Ty::Bool) {
            Some(b) => {
                let neg = if self.chance(0.3) { "!" } else { "" };
                C {
                    code: format!("{neg}{}", b.name),
                    active: b.active,
                }
            }
            None => self.compare(),
        }
    }
}
