//! Options of `#[differentiate(...)]`: `wrt(a, b)`, `grad = name`, `jacobian = name`,
//! `tape`, `sparse`.

use crate::util::Ctxt;
use proc_macro2::TokenStream;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Meta, Token};

const WRT: &str = "wrt";
const GRAD: &str = "grad";
const JACOBIAN: &str = "jacobian";
const TAPE: &str = "tape";
const SPARSE: &str = "sparse";

/// Every option and how it is written, for messages.
const FORMS: &[(&str, &str)] = &[
    (WRT, "`wrt(a, b)`"),
    (GRAD, "`grad = name`"),
    (JACOBIAN, "`jacobian = name`"),
    (TAPE, "`tape`"),
    (SPARSE, "`sparse`"),
];

#[derive(Default, Clone)]
pub struct Options {
    /// `wrt(...)`: the only active parameters, when given.
    pub wrt: Option<Vec<Ident>>,
    /// `grad = name`: the name of the gradient function.
    pub grad: Option<Ident>,
    /// `jacobian = name`: the name of the Jacobian function.
    pub jacobian: Option<Ident>,
    /// `tape`: `name_grad` records on the tape instead of running adjoint code.
    pub tape: bool,
    /// `sparse`: also `name_hessian_sparse` / `name_jacobian_sparse`; the span of the
    /// word, for errors.
    pub sparse: Option<proc_macro2::Span>,
    /// `sparse` was given on the enclosing module or impl block: functions it does not
    /// fit are skipped rather than reported.
    pub sparse_inherited: bool,
}

impl Options {
    /// The options a function inside a module or impl block gets from the block's own.
    pub fn inherit(&mut self, outer: &Options) {
        if self.sparse.is_none() && outer.sparse.is_some() {
            self.sparse = outer.sparse;
            self.sparse_inherited = true;
        }
    }

    /// What a module or impl block nested in this one inherits.
    pub fn for_nested(&self) -> Options {
        Options {
            sparse: self.sparse,
            sparse_inherited: self.sparse.is_some(),
            ..Options::default()
        }
    }
}

/// Parse the attribute's arguments, reporting every bad option.
pub fn parse(cx: &mut Ctxt, attr: TokenStream) -> Options {
    let mut options = Options::default();
    let metas = match Punctuated::<Meta, Token![,]>::parse_terminated.parse2(attr) {
        Ok(m) => m,
        Err(e) => {
            cx.push(e);
            return options;
        }
    };
    for meta in metas {
        option(cx, &mut options, meta);
    }
    options
}

fn option(cx: &mut Ctxt, options: &mut Options, meta: Meta) {
    match &meta {
        Meta::List(list) if list.path.is_ident(WRT) => {
            let parsed = list.parse_args_with(Punctuated::<Ident, Token![,]>::parse_terminated);
            match parsed {
                Ok(names) if names.is_empty() => cx.error(
                    list,
                    "#[differentiate] `wrt()` is empty; list the parameters to differentiate \
                     with respect to, e.g. `wrt(mu, sigma)`",
                ),
                Ok(names) => set_once(cx, &meta, &mut options.wrt, names.into_iter().collect()),
                Err(e) => cx.push(syn::Error::new(
                    e.span(),
                    "#[differentiate] `wrt(...)` takes parameter names separated by commas",
                )),
            }
        }
        Meta::NameValue(nv) if nv.path.is_ident(GRAD) || nv.path.is_ident(JACOBIAN) => {
            let Some(name) = ident_value(&nv.value) else {
                cx.error(
                    &nv.value,
                    "#[differentiate] expects a function name here, e.g. `grad = my_gradient`",
                );
                return;
            };
            let slot = if nv.path.is_ident(GRAD) {
                &mut options.grad
            } else {
                &mut options.jacobian
            };
            set_once(cx, &meta, slot, name);
        }
        Meta::Path(p) if p.is_ident(TAPE) => options.tape = true,
        Meta::Path(p) if p.is_ident(SPARSE) => {
            let span = syn::spanned::Spanned::span(p);
            set_once(cx, &meta, &mut options.sparse, span);
        }
        _ if meta.path().is_ident(SPARSE) => cx.error(
            &meta,
            "#[differentiate] `sparse` takes no arguments: write `#[differentiate(sparse)]` \
             (it adds `name_hessian_sparse` or `name_jacobian_sparse`)",
        ),
        _ => cx.error(meta.path(), unknown(&meta)),
    }
}

/// `unknown #[differentiate] option `speed`; ..`: names the option, says how a known one
/// is written when it was written otherwise, suggests a near name, lists them all.
fn unknown(meta: &Meta) -> String {
    let path = meta.path();
    let name = quote::ToTokens::to_token_stream(path)
        .to_string()
        .replace(' ', "");
    let all: Vec<&str> = FORMS.iter().map(|(_, f)| *f).collect();
    let list = format!(
        "{} and {}",
        all[..all.len() - 1].join(", "),
        all[all.len() - 1]
    );
    if let Some((_, form)) = FORMS.iter().find(|(n, _)| *n == name) {
        return format!("#[differentiate] option `{name}` is written {form}");
    }
    let near = FORMS
        .iter()
        .filter(|(n, _)| distance(n, &name) <= 2)
        .map(|(_, f)| format!(" (did you mean {f}?)"))
        .next()
        .unwrap_or_default();
    format!("unknown #[differentiate] option `{name}`{near}; the options are {list}")
}

/// Levenshtein distance, for suggestions.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn set_once<T>(cx: &mut Ctxt, meta: &Meta, slot: &mut Option<T>, value: T) {
    if slot.is_some() {
        cx.error(
            meta,
            "this #[differentiate] option is given twice; keep one",
        );
    } else {
        *slot = Some(value);
    }
}

fn ident_value(e: &Expr) -> Option<Ident> {
    match e {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
        _ => None,
    }
}
