//! Error collection (serde_derive's `Ctxt`): every check pushes its errors here, and one
//! `check()` at the end reports them together.

use quote::ToTokens;
use std::fmt::Display;

#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    /// Record an error spanning the tokens of `obj`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&mut self, obj: T, msg: M) {
        self.errors
            .push(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    /// All errors recorded, combined into one, if any.
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.into_iter();
        let Some(mut first) = errors.next() else {
            return Ok(());
        };
        for e in errors {
            first.combine(e);
        }
        Err(first)
    }
}
