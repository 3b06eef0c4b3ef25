//! [`DomainError`]: an argument of a distribution outside its domain, with Stan's message.

use std::fmt;

/// What an argument failed to be (the requirement in the message).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Constraint {
    /// Not NaN (`check_not_nan`).
    NotNan,
    /// Finite: not NaN or ±∞ (`check_finite`).
    Finite,
    /// Strictly positive, NaN excluded (`check_positive`).
    Positive,
    /// Zero or more, NaN excluded (`check_nonnegative`).
    Nonnegative,
    /// Strictly positive and finite (`check_positive_finite`).
    PositiveFinite,
    /// In the closed interval `[low, high]` (`check_bounded`).
    Bounded {
        /// The lower bound.
        low: f64,
        /// The upper bound.
        high: f64,
    },
    /// Strictly greater than `low` (`check_greater`).
    Greater {
        /// The bound.
        low: f64,
    },
    /// A sequence whose length differs from another's (`check_consistent_sizes`); the
    /// error's [`value`](DomainError::value) is this argument's length.
    ConsistentSize {
        /// The other argument's name.
        other: &'static str,
        /// The other argument's length.
        other_size: usize,
    },
    /// Strictly less than `high` (`check_less`).
    Less {
        /// The bound.
        high: f64,
    },
    /// An element of a sequence strictly greater than the one before it (`check_sorted`,
    /// strict): output times of an ODE solve.
    Increasing {
        /// The element before the offending one.
        previous: f64,
    },
    /// A sequence with at least one element (`check_nonzero_size`); the error's value is 0.
    NonzeroSize,
    /// Finite, for a value computed at time `t`: the output of an ODE right-hand side.
    FiniteAt {
        /// The time at which the value was computed.
        t: f64,
    },
    /// An ODE solver used its whole step budget (the error's value) before reaching the
    /// output time `t`.
    MaxSteps {
        /// The output time not reached.
        t: f64,
    },
    /// An ODE solver's step size (the error's value) fell to round-off at time `t`: the
    /// solution cannot be continued there to the requested tolerance.
    StepSize {
        /// The time the solver could not advance from.
        t: f64,
    },
    /// A vector or matrix without the structure it must have (symmetric, positive
    /// definite, a simplex, ...), or of the wrong size: see
    /// [`Structure`](super::multi::Structure).
    Structure(super::multi::Structure),
}

/// An argument of a distribution outside its domain: a parameter out of range, NaN,
/// data outside the support, or sequences of different lengths.
///
/// Its `Display` is Stan Math's message, word for word, numbers printed as C++ streams
/// print them (six significant digits):
///
/// ```
/// use fazang::prelude::*;
/// let e = normal_lpdf(&[1.0, 2.0], 0.0, -1.0).unwrap_err();
/// assert_eq!(e.to_string(), "normal_lpdf: Scale parameter is -1, but must be positive!");
/// assert_eq!((e.function(), e.argument(), e.value()), ("normal_lpdf", "Scale parameter", -1.0));
///
/// // Elements of sequences are numbered from 1, as in Stan.
/// let e = lognormal_lpdf(&[1.0, -2.5], 0.0, 1.0).unwrap_err();
/// assert_eq!(e.to_string(), "lognormal_lpdf: Random variable[2] is -2.5, but must be positive!");
/// assert_eq!(e.index(), Some(1));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DomainError {
    function: &'static str,
    argument: &'static str,
    index: Option<usize>,
    value: f64,
    integer: bool,
    constraint: Constraint,
    integer_bounds: bool,
}

impl DomainError {
    /// An error for `argument` (element `index` of it, if a sequence) of `function`,
    /// whose value `value` violates `constraint`.
    pub fn new(
        function: &'static str,
        argument: &'static str,
        index: Option<usize>,
        value: f64,
        constraint: Constraint,
    ) -> DomainError {
        DomainError {
            function,
            argument,
            index,
            value,
            integer: false,
            constraint,
            integer_bounds: false,
        }
    }

    /// Print the value (and bounds) as integers, as Stan does for integer arguments.
    pub(crate) fn integers(mut self, value: bool, bounds: bool) -> DomainError {
        self.integer = value;
        self.integer_bounds = bounds;
        self
    }

    /// The distribution, e.g. `"normal_lpdf"`.
    pub fn function(&self) -> &'static str {
        self.function
    }

    /// The argument's name as Stan gives it, e.g. `"Scale parameter"`.
    pub fn argument(&self) -> &'static str {
        self.argument
    }

    /// For a sequence argument, the (0-based) index of the offending element; the
    /// message numbers elements from 1, as Stan does.
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// The offending value (for [`Constraint::ConsistentSize`], the argument's length).
    pub fn value(&self) -> f64 {
        self.value
    }

    /// What the argument had to be.
    pub fn constraint(&self) -> Constraint {
        self.constraint
    }
}

impl fmt::Display for DomainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (func, arg) = (self.function, self.argument);
        if let Constraint::ConsistentSize { other, other_size } = self.constraint {
            return write!(
                f,
                "{func}: {arg} has size = {}, but {other} has size {other_size}; and they \
                 must be the same size.",
                self.value
            );
        }
        if let Constraint::MaxSteps { t } = self.constraint {
            let (t, v) = (Stream(t, false), Stream(self.value, true));
            return write!(
                f,
                "{func}: Failed to integrate to next output time ({t}) in less than {arg} ({v}) \
                 steps"
            );
        }
        if let Constraint::Structure(s) = self.constraint {
            return s.fmt_message(f, func, arg, self.index, self.value);
        }
        write!(f, "{func}: {arg}")?;
        if let Some(i) = self.index {
            write!(f, "[{}]", i + 1)?;
        }
        let v = Stream(self.value, self.integer);
        let word = match self.constraint {
            Constraint::Less { high } => {
                return write!(f, " is {v}, but must be less than {}", Stream(high, false));
            }
            Constraint::Increasing { previous } => {
                let p = Stream(previous, false);
                return write!(
                    f,
                    " is {v}, but must be greater than the previous element, {p}"
                );
            }
            Constraint::NonzeroSize => {
                return write!(f, " has size 0, but must have a non-zero size")
            }
            Constraint::FiniteAt { t } => {
                let t = Stream(t, false);
                return write!(f, " is {v} at t = {t}, but must be finite!");
            }
            Constraint::StepSize { t } => {
                let t = Stream(t, false);
                return write!(
                    f,
                    " is {v} at t = {t}, but must be larger than round-off: the solver cannot \
                     advance (the solution may blow up there, or be too stiff for this method)"
                );
            }
            Constraint::NotNan => "not nan",
            Constraint::Finite => "finite",
            Constraint::Positive => "positive",
            Constraint::Nonnegative => "nonnegative",
            Constraint::PositiveFinite => "positive finite",
            Constraint::Bounded { low, high } => {
                let (lo, hi) = (
                    Stream(low, self.integer_bounds),
                    Stream(high, self.integer_bounds),
                );
                return write!(f, " is {v}, but must be in the interval [{lo}, {hi}]");
            }
            Constraint::Greater { low } => {
                return write!(f, " is {v}, but must be greater than {}", Fixed(low));
            }
            Constraint::ConsistentSize { .. }
            | Constraint::MaxSteps { .. }
            | Constraint::Structure(_) => {
                unreachable!("handled above")
            }
        };
        write!(f, " is {v}, but must be {word}!")
    }
}

impl std::error::Error for DomainError {}

/// A number as a default C++ `std::ostream` prints it (`%g`, six significant digits;
/// `nan`, `inf`), or as an integer.
pub(crate) struct Stream(pub(crate) f64, pub(crate) bool);

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Stream(v, integer) = *self;
        if integer && v.is_finite() {
            return write!(f, "{v:.0}");
        }
        f.write_str(&format_g(v, 6))
    }
}

/// A number as C++ `std::to_string(double)` prints it (`%f`: six decimals).
pub(crate) struct Fixed(pub(crate) f64);

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            v if v.is_nan() => f.write_str("nan"),
            v if v.is_infinite() => f.write_str(if v > 0.0 { "inf" } else { "-inf" }),
            v => write!(f, "{v:.6}"),
        }
    }
}

/// C's `%.{p}g`: `p` significant digits, fixed or scientific notation by the exponent,
/// trailing zeros removed.
pub(crate) fn format_g(v: f64, p: usize) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // The exponent after rounding to p significant digits.
    let sci = format!("{:.*e}", p - 1, v);
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` always has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` exponent is an integer");
    if exp < -4 || exp >= p as i32 {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim_zeros(mantissa), exp.abs())
    } else {
        let decimals = (p as i32 - 1 - exp) as usize;
        trim_zeros(&format!("{v:.decimals$}")).to_string()
    }
}

/// `1.500` -> `1.5`, `2.000` -> `2`; integers unchanged.
fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::format_g;

    #[test]
    fn format_g_matches_printf() {
        // Expected strings from C: printf("%g", x).
        let cases = [
            (1.0, "1"),
            (-1.0, "-1"),
            (0.1, "0.1"),
            (1.5, "1.5"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (999999.5, "1e+06"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (1e-300, "1e-300"),
            (2.0 / 3.0, "0.666667"),
            (-0.0, "-0"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
            (1e100, "1e+100"),
        ];
        for (x, s) in cases {
            assert_eq!(format_g(x, 6), s, "{x}");
        }
    }
}
