//! [`ELEMENTARY`]: fazang's elementary functions (the methods of `Real` that return one
//! scalar), generated from the runtime's table (`math::elementary`), so that a test can
//! hold the macros' catalogue of scalar functions in step with it.

use crate::math::elementary::{with_method_list, with_unary_table};

/// One elementary function: a method of `Real` returning one scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elementary {
    /// The method's name (`"sin"`, `"powf"`).
    pub name: &'static str,
    /// The number of arguments, the receiver included (`x.powf(y)` and `x.powi(n)`: 2).
    pub arity: usize,
    /// Whether its derivative is 0 wherever it exists (`floor`, `signum`, `div_euclid`).
    pub piecewise_constant: bool,
}

/// Builds [`ELEMENTARY`]: the table's rows, then `with_method_list!`'s methods but the
/// predicates (one at a time, into `[done]`), then the three methods of their own
/// signature.
macro_rules! elementary {
    (@table $( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
        with_method_list! { [elementary] @list [$(entry(stringify!($name), 1, false),)*] }
    };
    (@list [$($done:tt)*] flat $name:ident $fam:ident; $($rest:tt)*) => {
        elementary! { @list [$($done)* entry(stringify!($name), 1, true),] $($rest)* }
    };
    (@list [$($done:tt)*] binary $name:ident $fam:ident; $($rest:tt)*) => {
        elementary! { @list [$($done)* entry(stringify!($name), 2, false),] $($rest)* }
    };
    (@list [$($done:tt)*] binary_flat $name:ident $fam:ident; $($rest:tt)*) => {
        elementary! { @list [$($done)* entry(stringify!($name), 2, true),] $($rest)* }
    };
    (@list [$($done:tt)*] predicate $name:ident $fam:ident; $($rest:tt)*) => {
        elementary! { @list [$($done)*] $($rest)* }
    };
    (@list [$($done:tt)*]) => {
        /// Every elementary function, once: the rows of the elementary table (unary), the
        /// piecewise constant unary methods (`floor`, ...), the binary methods (`powf`,
        /// ...), and `powi`, `mul_add`, `clamp`. Predicates (`is_nan`, ...) and `sin_cos`
        /// return something else than one scalar and are not listed.
        pub const ELEMENTARY: &[Elementary] = &[
            $($done)*
            entry("powi", 2, false),
            entry("mul_add", 3, false),
            entry("clamp", 3, false),
        ];
    };
}
with_unary_table!([elementary] @table);

/// The unary derivatives of the table by name: `(name, f'(x) given x and v = f(x))`, so
/// that a test can check which of `x` and `v` each one reads (the macros' catalogue
/// passes only those the adjoint code keeps).
macro_rules! unary_derivatives {
    ($( $(#[$doc:meta])* $name:ident [$k:ident] $fam:ident: |$x:ident, $v:ident| $value:expr, $deriv:expr; )*) => {
        /// Every unary row by name: its value and its derivative on `f64`.
        pub const UNARY_DERIVATIVES: &[(&str, fn(f64) -> f64, fn(f64, f64) -> f64)] = &[
            $((
                stringify!($name),
                crate::math::elementary::value::$name,
                crate::math::elementary::deriv::$name::<f64>,
            ),)*
        ];
    };
}
with_unary_table!(unary_derivatives);

const fn entry(name: &'static str, arity: usize, piecewise_constant: bool) -> Elementary {
    Elementary {
        name,
        arity,
        piecewise_constant,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(name: &str) -> Elementary {
        *ELEMENTARY.iter().find(|e| e.name == name).expect(name)
    }

    #[test]
    fn every_name_once() {
        for (i, e) in ELEMENTARY.iter().enumerate() {
            assert!(
                ELEMENTARY[..i].iter().all(|o| o.name != e.name),
                "{} twice",
                e.name
            );
        }
    }

    #[test]
    fn arities_and_flat_functions() {
        assert_eq!(find("tanh"), entry("tanh", 1, false));
        assert_eq!(find("log1p_exp"), entry("log1p_exp", 1, false));
        assert_eq!(find("floor"), entry("floor", 1, true));
        assert_eq!(find("hypot"), entry("hypot", 2, false));
        assert_eq!(find("div_euclid"), entry("div_euclid", 2, true));
        assert_eq!(find("mul_add").arity, 3);
        assert!(ELEMENTARY.iter().all(|e| !e.name.starts_with("is_")));
    }
}
