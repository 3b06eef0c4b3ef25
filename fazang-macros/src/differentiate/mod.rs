//! `#[differentiate]` (placeholder: returns the item unchanged until implemented).

use proc_macro2::TokenStream;

pub fn expand(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}
