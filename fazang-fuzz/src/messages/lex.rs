//! A small Rust lexer for token-level mutations of source text: each token keeps its byte
//! range, so a mutation edits the text and leaves its formatting (and the line numbers a
//! diagnostic points at) as the user wrote them. It also finds the items that carry
//! `#[differentiate]` or `#[deriv_rule]`, the only places a mutation is made.

/// What a token is, as far as the mutations need to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Lifetime,
    /// A number, string, byte string or char literal.
    Literal,
    /// `(`, `[`, `{`.
    Open,
    /// `)`, `]`, `}`.
    Close,
    /// Any other punctuation, multi-character operators (`::`, `->`, `+=`) as one token.
    Punct,
}

/// A token: its kind and byte range in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Tok {
    pub fn text<'s>(&self, src: &'s str) -> &'s str {
        &src[self.start..self.end]
    }
}

const PUNCTS: &[&str] = &[
    "..=", "...", "<<=", ">>=", "::", "->", "=>", "..", "&&", "||", "==", "!=", "<=", ">=", "+=",
    "-=", "*=", "/=", "%=", "^=", "&=", "|=",
];

/// The tokens of `src`, comments skipped. Unknown bytes become one-character punctuation.
pub fn lex(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(b.len(), |n| i + n);
            continue;
        } else if src[i..].starts_with("/*") {
            i = block_comment_end(b, i);
            continue;
        } else if let Some(end) = raw_or_byte_string(b, i) {
            i = end;
            Kind::Literal
        } else if c == b'"' {
            i = string_end(b, i + 1);
            Kind::Literal
        } else if c == b'\'' {
            let (end, kind) = quote_end(src, i);
            i = end;
            kind
        } else if is_ident_start(c) {
            i = ident_end(b, i);
            Kind::Ident
        } else if c.is_ascii_digit() {
            i = number_end(b, i);
            Kind::Literal
        } else if matches!(c, b'(' | b'[' | b'{') {
            i += 1;
            Kind::Open
        } else if matches!(c, b')' | b']' | b'}') {
            i += 1;
            Kind::Close
        } else {
            let p = PUNCTS.iter().find(|p| src[i..].starts_with(**p));
            i += p.map_or_else(|| char_len(src, i), |p| p.len());
            Kind::Punct
        };
        toks.push(Tok {
            kind,
            start,
            end: i,
        });
    }
    toks
}

fn char_len(src: &str, i: usize) -> usize {
    src[i..].chars().next().map_or(1, char::len_utf8)
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
        i += 1;
    }
    i
}

fn block_comment_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i + 1 < b.len() {
        if b[i] == b'/' && b[i + 1] == b'*' {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b[i + 1] == b'/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// The end of a string whose opening quote is just before `i`.
fn string_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// `r"..."`, `r#"..."#`, `b"..."`, `br"..."`, `b'x'`: the end, if one starts at `i`.
fn raw_or_byte_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if b.get(j) == Some(&b'b') {
        j += 1;
        if b.get(j) == Some(&b'"') {
            return Some(string_end(b, j + 1));
        }
        if b.get(j) == Some(&b'\'') {
            return Some(string_end_quote(b, j + 1));
        }
    }
    if b.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
    if b.get(j + hashes) != Some(&b'"') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b'"')
        .chain(std::iter::repeat_n(b'#', hashes))
        .collect();
    let body = j + hashes + 1;
    let found = b[body..].windows(close.len()).position(|w| w == close);
    Some(found.map_or(b.len(), |p| body + p + close.len()))
}

fn string_end_quote(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\'' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// A char literal or a lifetime starting at the quote `i`.
fn quote_end(src: &str, i: usize) -> (usize, Kind) {
    let b = src.as_bytes();
    if b.get(i + 1) == Some(&b'\\') {
        return (string_end_quote(b, i + 1), Kind::Literal);
    }
    let c = char_len(src, i + 1);
    if b.get(i + 1 + c) == Some(&b'\'') {
        return (i + 2 + c, Kind::Literal);
    }
    (ident_end(b, i + 1), Kind::Lifetime)
}

fn number_end(b: &[u8], mut i: usize) -> usize {
    let start = i;
    while i < b.len() {
        let c = b[i];
        let exp_sign = matches!(c, b'+' | b'-') && i > 0 && matches!(b[i - 1], b'e' | b'E');
        let point = c == b'.'
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
            && !b[start..i].contains(&b'.');
        if c.is_ascii_alphanumeric() || c == b'_' || exp_sign || point {
            i += 1;
        } else if c == b'.'
            && !b
                .get(i + 1)
                .is_some_and(|n| *n == b'.' || is_ident_start(*n))
        {
            // `1.` (a float without digits after the point), not `1..n` or `1.max(..)`.
            i += 1;
            break;
        } else {
            break;
        }
    }
    i
}

/// For every `Open` token, the index of its `Close`, and the reverse (unbalanced ones map
/// to themselves).
pub fn matching(toks: &[Tok]) -> Vec<usize> {
    let mut m: Vec<usize> = (0..toks.len()).collect();
    let mut stack = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            Kind::Open => stack.push(i),
            Kind::Close => {
                if let Some(o) = stack.pop() {
                    m[o] = i;
                    m[i] = o;
                }
            }
            _ => {}
        }
    }
    m
}

/// An item under one of fazang's attributes: token indices (inclusive).
#[derive(Clone, Debug)]
pub struct Site {
    /// The attribute's name: `differentiate` or `deriv_rule`.
    pub attr: String,
    /// `#` of the attribute.
    pub hash: usize,
    /// The attribute's `(` and `)`, when it has arguments.
    pub args: Option<(usize, usize)>,
    /// The first token after the attribute(s) and the last token of the item.
    pub first: usize,
    pub last: usize,
}

/// Every item of `src` carrying `#[differentiate..]` or `#[deriv_rule..]`.
pub fn sites(src: &str, toks: &[Tok]) -> Vec<Site> {
    let m = matching(toks);
    let mut out = Vec::new();
    for i in 0..toks.len() {
        let is = |j: usize, s: &str| toks.get(j).is_some_and(|t| t.text(src) == s);
        if !(is(i, "#") && is(i + 1, "[")) {
            continue;
        }
        let name = match toks.get(i + 2).map(|t| t.text(src)) {
            Some(n @ ("differentiate" | "deriv_rule")) => n.to_string(),
            _ => continue,
        };
        let close = m[i + 1];
        let args = is(i + 3, "(").then(|| (i + 3, m[i + 3]));
        let mut first = close + 1;
        // Further attributes and doc comments between this one and the item.
        while is(first, "#") && is(first + 1, "[") {
            first = m[first + 1] + 1;
        }
        let Some(last) = item_end(src, toks, &m, first) else {
            continue;
        };
        out.push(Site {
            attr: name,
            hash: i,
            args,
            first,
            last,
        });
    }
    out
}

/// The last token of the item starting at `first`: the `}` closing its first brace group,
/// or a `;` reached before any brace.
fn item_end(src: &str, toks: &[Tok], m: &[usize], first: usize) -> Option<usize> {
    let mut j = first;
    while j < toks.len() {
        match toks[j].text(src) {
            "{" => return Some(m[j]),
            ";" => return Some(j),
            "(" | "[" => j = m[j] + 1,
            _ => j += 1,
        }
    }
    None
}

/// Rust's keywords and the names that are not worth renaming.
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "Self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "dyn"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<&str> {
        lex(src).iter().map(|t| t.text(src)).collect()
    }

    #[test]
    fn tokens_keep_their_text() {
        let src = "let x: &'a [f64] = &v[1..=n]; // c\n/* a /* b */ */ s += 1.5e-3 * 2. + 'c' as f64; r#\"q\"# ";
        assert_eq!(
            texts(src),
            [
                "let", "x", ":", "&", "'a", "[", "f64", "]", "=", "&", "v", "[", "1", "..=", "n",
                "]", ";", "s", "+=", "1.5e-3", "*", "2.", "+", "'c'", "as", "f64", ";", "r#\"q\"#"
            ]
        );
        assert_eq!(
            texts("1..n x.0.max(2.0)"),
            ["1", "..", "n", "x", ".", "0", ".", "max", "(", "2.0", ")"]
        );
    }

    #[test]
    fn sites_are_the_attributed_items() {
        let src = "fn plain() {}\n#[differentiate(wrt(x))]\n/// doc\n#[inline]\nfn f(x: f64) -> f64 { x }\n\
                   #[deriv_rule]\nstruct Bar { x: f64 }\n#[deriv_rule(x => 1.0)]\nfn g(x: f64) -> f64 { x }";
        let toks = lex(src);
        let s = sites(src, &toks);
        let items: Vec<String> = s
            .iter()
            .map(|s| src[toks[s.first].start..toks[s.last].end].to_string())
            .collect();
        assert_eq!(
            items,
            [
                "fn f(x: f64) -> f64 { x }",
                "struct Bar { x: f64 }",
                "fn g(x: f64) -> f64 { x }"
            ]
        );
        assert_eq!(s[0].attr, "differentiate");
        assert!(s[1].args.is_none());
        let (o, c) = s[2].args.unwrap();
        assert_eq!(&src[toks[o].start..toks[c].end], "(x => 1.0)");
    }
}
