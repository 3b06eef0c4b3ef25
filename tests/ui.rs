//! Compile-fail cases of the attributes: each `ui-tests/NAME.rs` must fail to compile with
//! exactly `ui-tests/NAME.stderr`. Regenerate with `TRYBUILD=overwrite cargo test --test ui`
//! and review the diff like code.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui-tests/*.rs");
    // Generated code compiles without a single warning in user crates.
    t.pass("ui-tests/pass/*.rs");
}
