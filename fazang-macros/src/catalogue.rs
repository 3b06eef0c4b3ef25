//! The one catalogue of scalar functions the macros know: every `Real` method that maps
//! floats to a float, with its arity and how its derivative is taken.
//!
//! The activity analysis reads it (which methods return an active float), `#[deriv_rule]`
//! reads it (which methods a rule's partials may call on any scalar), and the adjoint code
//! reads it (the derivative of each call). The runtime's elementary table
//! (`fazang-runtime/src/math/elementary.rs`) defines the derivatives themselves; a test
//! (`tests/catalogue.rs`) holds the two in step, and one below checks every claim this
//! catalogue makes about which values a derivative reads.
//!
//! Adding an elementary function: a row in the runtime's table, a row here, a test row.

/// Which values a unary derivative `d1::NAME(x, v)` reads: the argument `x`, the value
/// `v = f(x)`, or both. The adjoint code keeps only what is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    X,
    V,
    Both,
}

/// How a function is differentiated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deriv {
    /// A row of the runtime's unary table: `d1::NAME(x, v)`.
    Unary(Needs),
    /// Piecewise constant: derivative 0 wherever it exists.
    Flat,
    /// Both partials from `d2::NAME(x, y)`, or `d2::NAME(x, y, v)` when `with_value`.
    Binary { with_value: bool },
    /// A form of its own in the adjoint code (`powi`, `max`, `min`, `mul_add`, `clamp`,
    /// `midpoint`, `rem_euclid`).
    Special,
}

/// One scalar function.
#[derive(Clone, Copy, Debug)]
pub struct Fun {
    pub name: &'static str,
    /// Arguments, the receiver included (`x.atan2(y)`: 2).
    pub arity: usize,
    pub deriv: Deriv,
}

const fn unary(name: &'static str, needs: Needs) -> Fun {
    Fun {
        name,
        arity: 1,
        deriv: Deriv::Unary(needs),
    }
}

const fn flat(name: &'static str, arity: usize) -> Fun {
    Fun {
        name,
        arity,
        deriv: Deriv::Flat,
    }
}

const fn binary(name: &'static str, with_value: bool) -> Fun {
    Fun {
        name,
        arity: 2,
        deriv: Deriv::Binary { with_value },
    }
}

const fn special(name: &'static str, arity: usize) -> Fun {
    Fun {
        name,
        arity,
        deriv: Deriv::Special,
    }
}

use Needs::{Both, V, X};

/// Every scalar function, once.
pub const FUNS: &[Fun] = &[
    unary("sin", X),
    unary("cos", X),
    unary("tan", V),
    unary("asin", X),
    unary("acos", X),
    unary("atan", X),
    unary("sinh", X),
    unary("cosh", X),
    unary("tanh", Both),
    unary("asinh", X),
    unary("acosh", X),
    unary("atanh", X),
    unary("exp", V),
    unary("exp2", V),
    unary("exp_m1", X),
    unary("ln", X),
    unary("log10", X),
    unary("log2", X),
    unary("ln_1p", X),
    unary("sqrt", V),
    unary("cbrt", V),
    unary("abs", X),
    unary("recip", V),
    unary("fract", X),
    unary("erf", X),
    unary("erfc", X),
    unary("log_gamma", X),
    unary("digamma", X),
    unary("square", X),
    unary("inv", V),
    unary("inv_square", Both),
    unary("inv_sqrt", Both),
    unary("logit", X),
    unary("inv_logit", X),
    unary("log1p_exp", X),
    unary("to_degrees", X),
    unary("to_radians", X),
    flat("signum", 1),
    flat("floor", 1),
    flat("ceil", 1),
    flat("round", 1),
    flat("trunc", 1),
    flat("round_ties_even", 1),
    flat("div_euclid", 2),
    flat("val", 1),
    binary("atan2", false),
    binary("powf", true),
    binary("hypot", true),
    binary("log", false),
    binary("copysign", false),
    binary("log_sum_exp", false),
    special("rem_euclid", 2),
    special("powi", 2),
    special("max", 2),
    special("min", 2),
    special("mul_add", 3),
    special("clamp", 3),
    special("midpoint", 2),
];

/// The function called `name`, if the catalogue has it.
pub fn get(name: &str) -> Option<&'static Fun> {
    FUNS.iter().find(|f| f.name == name)
}

/// Whether every scalar can differentiate `name` again (what a `#[deriv_rule]` partial may
/// call): every function but `val`, which reads a value without its derivative.
pub fn differentiable_again(name: &str) -> bool {
    get(name).is_some_and(|f| f.name != "val")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, f) in FUNS.iter().enumerate() {
            assert!(
                FUNS[..i].iter().all(|g| g.name != f.name),
                "{} listed twice",
                f.name
            );
        }
    }

    /// The catalogue and the runtime's table name the same functions, with the same
    /// arities and the same piecewise constant ones (`val` reads a value: the runtime
    /// lists it with no derivative of its own).
    #[test]
    fn in_step_with_the_runtime() {
        let runtime = fazang::__private::ELEMENTARY;
        for f in FUNS.iter().filter(|f| f.name != "val") {
            let r = runtime
                .iter()
                .find(|e| e.name == f.name)
                .unwrap_or_else(|| panic!("{} is not in the runtime's table", f.name));
            assert_eq!(r.arity, f.arity, "arity of {}", f.name);
            assert_eq!(
                r.piecewise_constant,
                f.deriv == Deriv::Flat,
                "piecewise constant {}",
                f.name
            );
        }
        for e in runtime {
            assert!(get(e.name).is_some(), "{} is not in the catalogue", e.name);
        }
        for (name, _, _) in fazang::__private::UNARY_DERIVATIVES {
            assert!(
                matches!(get(name).map(|f| f.deriv), Some(Deriv::Unary(_))),
                "{name} is a row of the unary table"
            );
        }
    }

    /// What the catalogue says a unary derivative reads is all it reads: given NaN for
    /// the other value, it gives the same number at points across each domain (the
    /// adjoint code passes NaN there, so a wrong claim shows as NaN, never as a number).
    #[test]
    fn derivatives_read_what_the_catalogue_says() {
        let xs = [
            -3.5, -1.2, -0.7, -0.3, 0.05, 0.3, 0.55, 0.7, 0.9, 1.5, 2.5, 7.0, 40.0,
        ];
        for (name, value, d) in fazang::__private::UNARY_DERIVATIVES {
            let needs = match get(name).map(|f| f.deriv) {
                Some(Deriv::Unary(n)) => n,
                other => panic!("{name}: {other:?}"),
            };
            for &x in &xs {
                let v = value(x);
                let want = d(x, v);
                let got = match needs {
                    Needs::X => d(x, f64::NAN),
                    Needs::V => d(f64::NAN, v),
                    Needs::Both => continue,
                };
                assert!(
                    got == want || (got.is_nan() && want.is_nan()),
                    "{name} at {x}: {got} vs {want} ({needs:?})"
                );
            }
        }
    }

    #[test]
    fn arities_match_kinds() {
        for f in FUNS {
            match f.deriv {
                Deriv::Unary(_) => assert_eq!(f.arity, 1, "{}", f.name),
                Deriv::Binary { .. } => assert_eq!(f.arity, 2, "{}", f.name),
                _ => assert!((1..=3).contains(&f.arity), "{}", f.name),
            }
        }
    }
}
