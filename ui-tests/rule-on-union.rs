use fazang::prelude::*;

#[deriv_rule]
union Bits {
    f: f64,
    u: u64,
}

fn main() {}
