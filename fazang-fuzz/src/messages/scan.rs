//! Reading rustc's JSON diagnostics for names the user did not write: the macros' scalar
//! type parameter (`S`), their hidden module and identifiers (`__private`, `__fz*`,
//! `__FzT`), the traits generated code bounds on (`ZerosLike`, `Stacks`, ..), and the scalar
//! types of the generated siblings (`Dual`, `Var`). Only the words of a diagnostic are
//! read (message, labels, notes, suggestions), never the source lines it quotes.

use serde_json::Value;
use std::collections::HashSet;

/// Items reachable only through `fazang::__private` (what generated code bounds on and
/// calls): a message naming one speaks of code the user did not write. (The bounds and
/// conversions messages name are public in `fazang::body`, with what each means: in
/// [`LIBRARY`].)
const HIDDEN: &[&str] = &[
    "Accumulate",
    "AsF64",
    "AsOutputs",
    "ClearAdjoint",
    "Direction",
    "Elementary",
    "Flatten",
    "HessianMode",
    "HessianPass",
    "HessianSession",
    "Hvp",
    "NoFusion",
    "RangeInt",
    "RealInternals",
    "RulePartials",
    "SaveArray",
    "Stackable",
    "Stacks",
    "ToBool",
    "ToLocal",
    "ZerosLike",
];

/// Public names of the library a message may use although the user did not write them:
/// the scalar type parameter of generated code (`ActiveF64`), the scalars of the generated
/// siblings (`Var`, `Dual`, ..), public traits, and what `fazang::body` documents for
/// messages. Counted apart, not failed on.
const LIBRARY: &[&str] = &[
    "ActiveF64",
    "Arg",
    "Args",
    "AsScalar",
    "BodyScalar",
    "Composite",
    "CompositeOf",
    "DataArg",
    "DataRef",
    "Dual",
    "Elements",
    "Float",
    "FromVars",
    "Fwd",
    "FwdRev",
    "Inputs",
    "IntoScalar",
    "Jet",
    "JetDyn",
    "LaneResult",
    "Mix",
    "Outputs",
    "Param",
    "Pass",
    "Probe",
    "Promote",
    "Real",
    "RefOps",
    "RefScalarOps",
    "ScalarOps",
    "ScaleOther",
    "Seed",
    "Tangent",
    "Taylor",
    "ToF64",
    "ToIndex",
    "Var",
    "fazang_runtime",
];

/// What a diagnostic names that the user did not write, each name as a class (`S`,
/// `__fza_*`, `Seed`).
#[derive(Clone, Debug, Default)]
pub struct Leaks {
    /// Generated or hidden names: `S`, `__*` (`__private`, `__fz*`), [`HIDDEN`].
    pub names: Vec<String>,
    /// Public names of the library ([`LIBRARY`]).
    pub library: Vec<String>,
}

/// The identifiers of `src` (what the user wrote).
pub fn user_idents(src: &str) -> HashSet<String> {
    idents(src).map(str::to_string).collect()
}

fn idents(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
}

/// The class a leaked name is counted under, and whether it is a library name; `None` if
/// it is neither.
fn class(name: &str, user: &HashSet<String>) -> Option<(String, bool)> {
    if user.contains(name) {
        return None;
    }
    if let Some(rest) = name.strip_prefix("__") {
        let cut = rest.get(1..)?.find('_').map_or(rest.len(), |p| p + 1);
        let star = if cut < rest.len() { "_*" } else { "" };
        return Some((format!("__{}{star}", &rest[..cut]), false));
    }
    let s_like = name.starts_with('S') && name[1..].chars().all(|c| c == '_');
    if s_like || HIDDEN.contains(&name) {
        return Some((name.to_string(), false));
    }
    let library = LIBRARY.contains(&name.trim_end_matches('_'));
    library.then(|| (name.to_string(), true))
}

/// The code quoted in backticks in `text`.
fn quoted(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// The words of `msg` and its children that can name code: quoted parts of messages and
/// labels, and suggested replacements whole.
fn code_of(msg: &Value, out: &mut Vec<String>) {
    let mut texts: Vec<&str> = vec![msg["message"].as_str().unwrap_or("")];
    let spans = msg["spans"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    texts.extend(spans.iter().filter_map(|s| s["label"].as_str()));
    out.extend(texts.iter().flat_map(|t| quoted(t)).map(str::to_string));
    out.extend(
        spans
            .iter()
            .filter_map(|s| s["suggested_replacement"].as_str())
            .map(str::to_string),
    );
    for c in msg["children"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        // rustc's list of every impl of a trait (`&f64` implements `Sub<&Dual<S, T>>`,
        // ..) is about the library, whatever the user wrote: not read.
        if !c["message"].as_str().is_some_and(lists_impls) {
            code_of(c, out);
        }
    }
}

fn lists_impls(m: &str) -> bool {
    m.starts_with("the following other types implement trait")
        || m.starts_with("the following types implement trait")
}

/// The names in `msg` that the user (who wrote `user`) did not write.
pub fn leaks(msg: &Value, user: &HashSet<String>) -> Leaks {
    let mut code = Vec::new();
    code_of(msg, &mut code);
    let mut l = Leaks::default();
    for (name, library) in code
        .iter()
        .flat_map(|c| idents(c))
        .filter_map(|n| class(n, user))
    {
        if library {
            l.library.push(name);
        } else {
            l.names.push(name);
        }
    }
    for v in [&mut l.names, &mut l.library] {
        v.sort();
        v.dedup();
    }
    l
}

/// Whether the primary span of `msg` is a whole `#[differentiate..]`/`#[deriv_rule..]`
/// attribute: generated code that carries no span of the user's.
pub fn at_attribute(msg: &Value) -> bool {
    let spans = msg["spans"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    spans.iter().filter(|s| s["is_primary"] == true).any(|s| {
        let Some(line) = s["text"][0]["text"].as_str() else {
            return false;
        };
        let (a, b) = (
            s["text"][0]["highlight_start"].as_u64().unwrap_or(1) as usize,
            s["text"][0]["highlight_end"].as_u64().unwrap_or(1) as usize,
        );
        let chars: Vec<char> = line.chars().collect();
        let hl: String = chars
            .get(a.saturating_sub(1)..b.saturating_sub(1).min(chars.len()))
            .map(|c| c.iter().collect())
            .unwrap_or_default();
        hl.starts_with("#[") && (hl.contains("differentiate") || hl.contains("deriv_rule"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user() -> HashSet<String> {
        user_idents("fn f(x: f64, beta: &[f64], seed: u64) -> f64 { x }")
    }

    #[test]
    fn names_the_user_did_not_write_are_found() {
        let m = serde_json::json!({
            "message": "mismatched types",
            "spans": [{"label": "expected `f64`, found type parameter `S`", "is_primary": true}],
            "children": [
                {"message": "the trait `fazang::__private::ZerosLike` is not implemented for `Ar1`",
                 "spans": []},
                {"message": "`__fza_beta` does not live long enough", "spans": []},
                {"message": "consider", "spans": [{"suggested_replacement": "S_: Float"}]}
            ]
        });
        let l = leaks(&m, &user());
        assert_eq!(l.names, ["S", "S_", "ZerosLike", "__fza_*", "__private"]);
        // num-traits' `Float` is public in `fazang::body`.
        assert_eq!(l.library, ["Float"]);
        let m = serde_json::json!({
            "message": "expected `f64`, found type parameter `ActiveF64` (`Dual<f64, [f64; 1]>`)",
            "spans": [], "children": [
                {"message": "the following other types implement trait `Sub<Rhs>`:\n`&f64` implements `Sub<&Jet<N, M, S>>`", "spans": []}
            ]
        });
        let l = leaks(&m, &user());
        assert!(l.names.is_empty(), "{:?}", l.names);
        assert_eq!(l.library, ["ActiveF64", "Dual"]);
    }

    #[test]
    fn the_users_own_words_are_not_leaks() {
        let u = user_idents("fn f<S: Real>(x: S, Seed: u8) {}");
        let m = serde_json::json!({
            "message": "expected `S`, found `f64` (`Seed`, `x`, `Real`)", "spans": [], "children": []
        });
        assert!(leaks(&m, &u).names.is_empty());
        // Words outside backticks are prose, not code.
        let m = serde_json::json!({"message": "S is a letter", "spans": [], "children": []});
        assert!(leaks(&m, &user()).names.is_empty());
    }
}
