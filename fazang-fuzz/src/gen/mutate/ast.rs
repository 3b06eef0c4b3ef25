//! The small language the mutation families generate: `f64` expressions over named
//! bindings, places, and statements (`let`, assignments and compound assignments, swaps,
//! `if`, `for` over ranges), printed as the Rust a user writes. The same tree is run on
//! `f64` by [`super::eval`] while it is generated, so values stay tame.

/// An `f64` expression.
#[derive(Clone, Debug)]
pub enum Ex {
    /// A literal: its spelling and value (never negative; see [`Ex::Neg`]).
    Lit(&'static str, f64),
    /// An `f64` binding (parameter, state, temporary).
    Name(String),
    /// `seq[i]`.
    Elem(String, Ix),
    /// `k as f64`, `(i + 1) as f64`.
    Cast(Ix),
    /// `a op b` for `op` in `+ - * /`.
    Bin(char, Box<Ex>, Box<Ex>),
    Neg(Box<Ex>),
    /// `a.name()`.
    Call(&'static str, Box<Ex>),
    /// `a.name(b)` (`max`, `min`, `hypot`).
    Call2(&'static str, Box<Ex>, Box<Ex>),
    /// `a.powi(n)`.
    Powi(Box<Ex>, i32),
    /// `if c { a } else { b }` (only as a whole initialiser).
    If(Box<Cond>, Box<Ex>, Box<Ex>),
}

/// A `usize` index or count.
#[derive(Clone, Debug)]
pub enum Ix {
    Const(usize),
    Name(String),
    /// `i + c`.
    Plus(String, usize),
    /// `i - c` (in a range that starts at `c` or later).
    Minus(String, usize),
    /// `(i + 1) % n`.
    Wrap(String, usize),
    /// `n - 1 - i`.
    Rev(String, usize),
}

/// A condition.
#[derive(Clone, Debug)]
pub enum Cond {
    Cmp(Ex, &'static str, Ex),
    /// `k % 2 == 0`.
    Even(Ix),
    /// `flag` or `!flag`.
    Flag(String, bool),
}

/// Where an assignment writes.
#[derive(Clone, Debug)]
pub enum Place {
    Name(String),
    Elem(String, Ix),
}

/// The initialiser of a `let`.
#[derive(Clone, Debug)]
pub enum Init {
    Ex(Ex),
    /// `[a, b, c]`.
    ArrLit(Vec<Ex>),
    /// `[0.0; n]` (annotated by the `let`).
    ArrRep(usize),
    /// `vec![0.0; n]` (annotated by the `let`).
    VecRep(usize),
    /// `s.to_vec()`.
    ToVec(String),
    /// A copy of an array: `let mut q = u;`.
    Copy(String),
}

/// The end of a `for` range.
#[derive(Clone, Debug)]
pub enum Bound {
    Const(usize),
    /// A data `usize` parameter.
    Name(String),
    /// `s.len()`.
    Len(String),
}

/// A statement.
#[derive(Clone, Debug)]
pub enum St {
    Let {
        name: String,
        mutable: bool,
        ann: Option<String>,
        init: Init,
    },
    /// `place op rhs;` for `op` in `= += -= *= /=`.
    Assign(Place, &'static str, Ex),
    /// `std::mem::swap(&mut a, &mut b);`
    MemSwap(String, String),
    /// `(a, b) = (b, a);`
    TupleSwap(String, String),
    /// `s.swap(i, j);`
    SeqSwap(String, usize, usize),
    If(Cond, Vec<Line>, Vec<Line>),
    /// `for var in lo..bound { .. }` (`var` may be `_`).
    For(String, usize, Bound, Vec<Line>),
    /// `while c { .. }`.
    While(Cond, Vec<Line>),
}

/// A statement and the construct tags of its first line.
#[derive(Clone, Debug)]
pub struct Line {
    pub st: St,
    pub tags: Vec<String>,
}

/// Precedence levels: 0 atom, 1 unary, 2 `as`, 3 `* /`, 4 `+ -`, 5 `if`.
fn level(e: &Ex) -> u8 {
    match e {
        Ex::Lit(..) | Ex::Name(_) | Ex::Elem(..) | Ex::Call(..) | Ex::Call2(..) | Ex::Powi(..) => 0,
        Ex::Neg(_) => 1,
        Ex::Cast(_) => 2,
        Ex::Bin('*' | '/', ..) => 3,
        Ex::Bin(..) => 4,
        Ex::If(..) => 5,
    }
}

impl Ex {
    pub fn lit(s: &'static str, v: f64) -> Ex {
        Ex::Lit(s, v)
    }

    pub fn name(n: &str) -> Ex {
        Ex::Name(n.to_string())
    }

    pub fn bin(self, op: char, b: Ex) -> Ex {
        Ex::Bin(op, Box::new(self), Box::new(b))
    }

    pub fn call(self, m: &'static str) -> Ex {
        Ex::Call(m, Box::new(self))
    }

    pub fn neg(self) -> Ex {
        Ex::Neg(Box::new(self))
    }

    /// The code, parenthesised if its level is above `max`.
    pub fn at(&self, max: u8) -> String {
        let s = self.code();
        if level(self) > max {
            format!("({s})")
        } else {
            s
        }
    }

    pub fn code(&self) -> String {
        match self {
            Ex::Lit(s, _) => s.to_string(),
            Ex::Name(n) => n.clone(),
            Ex::Elem(s, i) => format!("{s}[{}]", i.code()),
            Ex::Cast(i) => format!("{} as f64", i.at_atom()),
            Ex::Bin(op, a, b) => {
                let l = if matches!(op, '*' | '/') { 3 } else { 4 };
                format!("{} {op} {}", a.at(l), b.at(l - 1))
            }
            Ex::Neg(a) => format!("-{}", a.at(1)),
            Ex::Call(m, a) => format!("{}.{m}()", a.at(0)),
            Ex::Call2(m, a, b) => format!("{}.{m}({})", a.at(0), b.code()),
            Ex::Powi(a, n) => format!("{}.powi({n})", a.at(0)),
            Ex::If(c, a, b) => {
                format!("if {} {{ {} }} else {{ {} }}", c.code(), a.code(), b.code())
            }
        }
    }

    /// Names read (bindings and sequences), with repeats.
    pub fn reads(&self, out: &mut Vec<String>) {
        match self {
            Ex::Lit(..) | Ex::Cast(_) => {}
            Ex::Name(n) | Ex::Elem(n, _) => out.push(n.clone()),
            Ex::Bin(_, a, b) | Ex::Call2(_, a, b) => {
                a.reads(out);
                b.reads(out);
            }
            Ex::Neg(a) | Ex::Call(_, a) | Ex::Powi(a, _) => a.reads(out),
            Ex::If(c, a, b) => {
                c.reads(out);
                a.reads(out);
                b.reads(out);
            }
        }
    }
}

impl Ix {
    pub fn code(&self) -> String {
        match self {
            Ix::Const(c) => c.to_string(),
            Ix::Name(n) => n.clone(),
            Ix::Plus(n, c) => format!("{n} + {c}"),
            Ix::Minus(n, c) => format!("{n} - {c}"),
            Ix::Wrap(n, m) => format!("({n} + 1) % {m}"),
            Ix::Rev(n, m) => format!("{} - {n}", m - 1),
        }
    }

    /// As the operand of `as` or `%`.
    fn at_atom(&self) -> String {
        match self {
            Ix::Const(_) | Ix::Name(_) => self.code(),
            _ => format!("({})", self.code()),
        }
    }
}

impl Cond {
    pub fn code(&self) -> String {
        match self {
            Cond::Cmp(a, op, b) => {
                // `k as f64 < x` parses `f64<` as generics: parenthesise a cast on the left.
                let l = a.at(4);
                let l = if l.contains(" as ") && !l.starts_with('(') {
                    format!("({l})")
                } else {
                    l
                };
                format!("{l} {op} {}", b.at(4))
            }
            Cond::Even(i) => format!("{} % 2 == 0", i.at_atom()),
            Cond::Flag(f, true) => f.clone(),
            Cond::Flag(f, false) => format!("!{f}"),
        }
    }

    pub fn reads(&self, out: &mut Vec<String>) {
        if let Cond::Cmp(a, _, b) = self {
            a.reads(out);
            b.reads(out);
        }
    }
}

impl Place {
    pub fn code(&self) -> String {
        match self {
            Place::Name(n) => n.clone(),
            Place::Elem(s, i) => format!("{s}[{}]", i.code()),
        }
    }

    pub fn read(&self) -> Ex {
        match self {
            Place::Name(n) => Ex::Name(n.clone()),
            Place::Elem(s, i) => Ex::Elem(s.clone(), i.clone()),
        }
    }
}

impl Bound {
    pub fn code(&self) -> String {
        match self {
            Bound::Const(c) => c.to_string(),
            Bound::Name(n) => n.clone(),
            Bound::Len(s) => format!("{s}.len()"),
        }
    }
}

/// Lines of text and the tags of each, as a function body is printed.
#[derive(Default)]
pub struct Printer {
    pub text: String,
    pub tags: Vec<Vec<String>>,
    indent: usize,
}

impl Printer {
    pub fn new(indent: usize) -> Printer {
        Printer {
            indent,
            ..Printer::default()
        }
    }

    pub fn line(&mut self, s: &str, tags: &[String]) {
        self.text.push_str(&"    ".repeat(self.indent));
        self.text.push_str(s);
        self.text.push('\n');
        self.tags.push(tags.to_vec());
    }

    pub fn block(&mut self, lines: &[Line]) {
        for l in lines {
            self.stmt(&l.st, &l.tags);
        }
    }

    fn nested(&mut self, head: &str, tags: &[String], body: &[Line]) {
        self.line(head, tags);
        self.indent += 1;
        self.block(body);
        self.indent -= 1;
    }

    fn stmt(&mut self, st: &St, tags: &[String]) {
        match st {
            St::Let {
                name,
                mutable,
                ann,
                init,
            } => {
                let m = if *mutable { "mut " } else { "" };
                let ann = ann.as_ref().map(|a| format!(": {a}")).unwrap_or_default();
                let init = match init {
                    Init::Ex(e) => e.code(),
                    Init::ArrLit(es) => {
                        let es: Vec<String> = es.iter().map(Ex::code).collect();
                        format!("[{}]", es.join(", "))
                    }
                    Init::ArrRep(n) => format!("[0.0; {n}]"),
                    Init::VecRep(n) => format!("vec![0.0; {n}]"),
                    Init::ToVec(s) => format!("{s}.to_vec()"),
                    Init::Copy(s) => s.clone(),
                };
                self.line(&format!("let {m}{name}{ann} = {init};"), tags);
            }
            St::Assign(p, op, e) => self.line(&format!("{} {op} {};", p.code(), e.code()), tags),
            St::MemSwap(a, b) => self.line(&format!("std::mem::swap(&mut {a}, &mut {b});"), tags),
            St::TupleSwap(a, b) => self.line(&format!("({a}, {b}) = ({b}, {a});"), tags),
            St::SeqSwap(s, i, j) => self.line(&format!("{s}.swap({i}, {j});"), tags),
            St::If(c, t, e) => {
                self.nested(&format!("if {} {{", c.code()), tags, t);
                if !e.is_empty() {
                    self.indent += 1;
                    self.nested_else(e);
                    self.indent -= 1;
                }
                self.line("}", &[]);
            }
            St::For(v, lo, b, body) => {
                self.nested(&format!("for {v} in {lo}..{} {{", b.code()), tags, body);
                self.line("}", &[]);
            }
            St::While(c, body) => {
                self.nested(&format!("while {} {{", c.code()), tags, body);
                self.line("}", &[]);
            }
        }
    }

    /// `} else {` one level out, then the else block.
    fn nested_else(&mut self, e: &[Line]) {
        self.indent -= 1;
        self.line("} else {", &[]);
        self.indent += 1;
        self.block(e);
    }
}
