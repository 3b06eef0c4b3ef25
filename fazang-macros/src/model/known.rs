//! What the macro knows about names it cannot see the definitions of: `f64`'s methods,
//! iterator and collection methods, fazang's functions. Every table is one list, read by
//! the activity analysis and the code generators alike.

/// `f64` methods answering a question about the value: their result is data.
pub const FLOAT_PREDICATES: &[&str] = &[
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_sign_negative",
    "is_sign_positive",
    "is_normal",
    "is_subnormal",
];

/// Methods whose result is data whatever the receiver: comparisons, counts, formatting,
/// fazang's `val`/`adj`.
pub const DATA_METHODS: &[&str] = &[
    "total_cmp",
    "partial_cmp",
    "cmp",
    "to_bits",
    "classify",
    "to_string",
    "len",
    "count",
    "capacity",
    "position",
    "rposition",
    "is_empty",
    "contains",
    "starts_with",
    "ends_with",
    "is_some",
    "is_none",
    "is_ok",
    "is_err",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "val",
    "adj",
    "sort",
    "sort_by",
    "sort_unstable_by",
    "sort_by_key",
    "reverse",
    "clear",
    "truncate",
    "swap",
];

/// Iterator adaptors whose items are the receiver's items.
pub const SAME_ITEMS: &[&str] = &[
    "rev",
    "skip",
    "take",
    "step_by",
    "peekable",
    "fuse",
    "cycle",
    "by_ref",
    "into_iter",
];

/// Methods returning the receiver's value itself (or a copy, or its content through an
/// `Option`/`Result`, which the model does not distinguish).
pub const TRANSPARENT: &[&str] = &[
    "clone",
    "to_vec",
    "to_owned",
    "as_slice",
    "as_mut_slice",
    "as_ref",
    "as_mut",
    "into_boxed_slice",
    "unwrap",
    "expect",
    "unwrap_or_default",
    "ok",
    "copied",
    "cloned",
    "borrow",
    "into_inner",
];

/// Methods returning one element of a sequence (through an `Option`).
pub const ELEMENT: &[&str] = &[
    "first",
    "last",
    "get",
    "get_mut",
    "first_mut",
    "last_mut",
    "pop",
    "remove",
    "swap_remove",
    "next",
    "nth",
    "last",
    "pop_front",
    "pop_back",
    "front",
    "back",
];

/// Methods that store their last argument into the receiver (a sequence).
pub const STORE_ARG: &[&str] = &[
    "push",
    "copy_from_slice",
    "clone_from_slice",
    "insert",
    "fill",
    "resize",
    "push_back",
    "push_front",
];

/// Free functions of fazang returning one scalar, active if an argument is.
pub const FAZANG_SCALAR_FNS: &[&str] = &[
    "dot_product",
    "sum",
    "log_sum_exp",
    "norm2",
    "erf",
    "erfc",
    "inv",
    "inv_logit",
    "inv_sqrt",
    "inv_square",
    "log_gamma",
    "logit",
    "square",
    "log1p_exp",
];

/// Whether a path names one of fazang's functions (whose arguments may be `f64` or active
/// in any mix, so literals passed to them keep their type).
pub fn is_fazang_fn(name: &str) -> bool {
    FAZANG_SCALAR_FNS.contains(&name)
        || name == "matmul"
        || name.ends_with("_lpdf")
        || name.ends_with("_lpmf")
        || name.starts_with("ode_")
}

/// Whether one of fazang's functions returns rows of scalars (`Vec<Vec<_>>`): `matmul`'s
/// product, an ODE solver's solution (`ys[i][j]`, state `j` at time `ts[i]`), the matrix
/// transforms' factors and matrices.
pub fn returns_rows(name: &str) -> bool {
    name == "matmul" || name.starts_with("ode_") || MATRIX_TRANSFORMS.contains(&name)
}

/// What one of fazang's constraining transforms returns: a float (`Some(0)`), a vector
/// (`Some(1)`) or rows (`Some(2)`); each adds its log-Jacobian to `lp` through `&mut`.
pub fn transform_depth(name: &str) -> Option<usize> {
    if SCALAR_TRANSFORMS.contains(&name) {
        Some(0)
    } else if VECTOR_TRANSFORMS.contains(&name) {
        Some(1)
    } else if MATRIX_TRANSFORMS.contains(&name) {
        Some(2)
    } else {
        None
    }
}

const SCALAR_TRANSFORMS: &[&str] = &[
    "lb_constrain",
    "ub_constrain",
    "lub_constrain",
    "offset_multiplier_constrain",
];

const VECTOR_TRANSFORMS: &[&str] = &[
    "simplex_constrain",
    "ordered_constrain",
    "positive_ordered_constrain",
    "unit_vector_constrain",
];

/// fazang's constraining transforms to matrices (rows).
const MATRIX_TRANSFORMS: &[&str] = &[
    "cholesky_corr_constrain",
    "cholesky_cov_constrain",
    "corr_matrix_constrain",
    "cov_matrix_constrain",
];

/// Whether `name` is a `Real` method returning a float from floats, differentiable (the
/// catalogue's functions, `val` aside).
pub fn is_real_method(name: &str) -> bool {
    crate::catalogue::differentiable_again(name)
}

/// Whether a path like `PI`, `f64::EPSILON`, `std::f64::consts::LN_2` names a float
/// constant of std.
pub fn is_float_const(segments: &[String]) -> bool {
    let Some(last) = segments.last() else {
        return false;
    };
    let upper = last
        .chars()
        .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
    let parent =
        segments.len() >= 2 && matches!(segments[segments.len() - 2].as_str(), "f64" | "consts");
    upper && (parent || FLOAT_CONSTS.contains(&last.as_str()))
}

/// The constants of `std::f64::consts`, often imported by name.
const FLOAT_CONSTS: &[&str] = &[
    "PI",
    "TAU",
    "E",
    "SQRT_2",
    "LN_2",
    "LN_10",
    "LOG2_E",
    "LOG10_E",
    "LOG2_10",
    "LOG10_2",
    "FRAC_PI_2",
    "FRAC_PI_3",
    "FRAC_PI_4",
    "FRAC_PI_6",
    "FRAC_PI_8",
    "FRAC_1_PI",
    "FRAC_2_PI",
    "FRAC_2_SQRT_PI",
    "FRAC_1_SQRT_2",
    "EPSILON",
    "INFINITY",
    "NEG_INFINITY",
    "NAN",
    "MAX",
    "MIN",
    "MIN_POSITIVE",
];

/// Integer types (casts to them take an active value's `val()`).
pub const INT_TYPES: &[&str] = &[
    "usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128",
];

/// Whether a path names fazang's `reduce_sum` (`reduce_sum`, `fazang::reduce_sum`,
/// `fazang::prelude::reduce_sum`, ..).
pub fn is_fazang_reduce_sum(path: &syn::Path) -> bool {
    let segs = &path.segments;
    segs.last().is_some_and(|s| s.ident == "reduce_sum")
        && (segs.len() == 1 || segs.first().is_some_and(|s| s.ident == "fazang"))
}
