//! The attributes of fazang: `#[differentiate]` and `#[deriv_rule]`.
