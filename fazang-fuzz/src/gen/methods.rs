//! `f64` methods and associated functions, in method form (`x.ln()`), path form
//! (`f64::max(0.0, x)`), and with constant or data receivers (`2.0_f64.powf(x)`,
//! `k.mul_add(x, k)`). Each method's domain is respected by shaping its receiver
//! (`(e * e + 1.0).ln()`, `(0.9 * e.tanh()).asin()`), so results stay finite.
//!
//! Methods marked *new* (`to_degrees`, `copysign`, `rem_euclid`, `%`, ...) are generated on
//! active values only with `GenConfig::new_methods`; on data they are plain `f64` code and
//! always generated.

use super::ctx::Ctx;
use super::expr::E;
use super::interval::Iv;

/// Unary methods: name, weight, new.
const UNARY: &[(&str, u32, bool)] = &[
    ("exp", 6, false),
    ("ln", 6, false),
    ("sqrt", 6, false),
    ("powi", 6, false),
    ("sin", 4, false),
    ("cos", 4, false),
    ("abs", 3, false),
    ("tanh", 3, false),
    ("atan", 2, false),
    ("ln_1p", 2, false),
    ("recip", 2, false),
    ("tan", 1, false),
    ("asin", 1, false),
    ("acos", 1, false),
    ("sinh", 1, false),
    ("cosh", 1, false),
    ("asinh", 1, false),
    ("acosh", 1, false),
    ("atanh", 1, false),
    ("exp2", 1, false),
    ("exp_m1", 1, false),
    ("log10", 1, false),
    ("log2", 1, false),
    ("cbrt", 1, false),
    ("signum", 1, false),
    ("floor", 1, false),
    ("ceil", 1, false),
    ("round", 1, false),
    ("trunc", 1, false),
    ("fract", 1, false),
    ("to_degrees", 1, true),
    ("to_radians", 1, true),
];

/// Binary methods: name, weight, new.
const BINARY: &[(&str, u32, bool)] = &[
    ("powf", 5, false),
    ("max", 4, false),
    ("min", 4, false),
    ("hypot", 2, false),
    ("atan2", 2, false),
    ("mul_add", 2, false),
    ("clamp", 2, false),
    ("log", 1, false),
    ("copysign", 1, true),
    ("rem_euclid", 1, true),
    ("div_euclid", 1, true),
    ("%", 1, true),
    ("clamp_active", 1, true),
];

impl Ctx<'_> {
    /// `r.name()` (or `f64::name(r)`) for a unary method, `r` shaped into its domain.
    pub fn unary_method(&mut self, r: E) -> E {
        let path = self.chance(0.12);
        self.unary_as(r, path)
    }

    fn unary_as(&mut self, r: E, path: bool) -> E {
        let weights: Vec<u32> = UNARY.iter().map(|m| m.1).collect();
        let (mut name, _, new) = UNARY[self.weighted(&weights)];
        if new && r.active && !self.cfg.new_methods {
            name = "sin";
        }
        let (r, arg) = self.shape_unary(name, r);
        let iv = unary_iv(name, r.iv, arg);
        self.tag(&format!("method:{name}"));
        if r.lit {
            self.tag("const-receiver");
        }
        let args = arg.map(|n| format!(", {n}")).unwrap_or_default();
        let code = if path {
            self.tag("path-call");
            let v = r.clone().val();
            format!("f64::{name}({}{args})", v.code)
        } else {
            r.method(name, args.trim_start_matches(", "))
        };
        E::from(code, iv, 0, &[&r])
    }

    /// The receiver shaped into `name`'s domain, and `powi`'s exponent.
    fn shape_unary(&mut self, name: &str, r: E) -> (E, Option<i32>) {
        match name {
            "exp" | "exp2" | "exp_m1" if r.iv.hi > 5.0 => (self.within(r, 1.0), None),
            "sinh" | "cosh" => (self.within(r, 5.0), None),
            "tan" => (self.within(r, 1.2), None),
            "ln" | "log10" | "log2" | "sqrt" | "cbrt" | "recip" => (self.positive(r), None),
            "asin" | "acos" | "atanh" if r.iv.mag() > 0.9 => (self.unit(r), None),
            "acosh" if r.iv.lo < 1.1 => {
                let sq = self.bin(&r, "*", &r);
                let c = E::atom("1.5", Iv::point(1.5), false, true);
                (self.bin(&sq, "+", &c), None)
            }
            "ln_1p" if r.iv.lo < -0.5 => (self.bin(&r, "*", &r), None),
            "powi" => {
                let n = self.pick(&[2, 2, 3, -1, -2, 4]);
                let r = if n < 0 { self.positive(r) } else { r };
                if r.iv.powi(n).tame() {
                    (r, Some(n))
                } else {
                    (self.within(r, 3.0), Some(2))
                }
            }
            _ => (r, None),
        }
    }

    /// `0.9 * r.tanh()`: strictly inside (-1, 1).
    fn unit(&mut self, r: E) -> E {
        let t = E::from(r.method("tanh", ""), Iv::sym(1.0), 0, &[&r]);
        let c = E::atom("0.9", Iv::point(0.9), false, true);
        self.bin(&c, "*", &t)
    }

    /// A binary method (or its path form, or `%`) with a generated receiver.
    pub fn binary_method(&mut self, depth: u32) -> E {
        let path = self.chance(0.15);
        self.binary_as(depth, path)
    }

    /// `f64::name(..)`: a unary or binary associated function in path form.
    pub fn path_call(&mut self, depth: u32) -> E {
        if self.chance(0.5) {
            let r = self.expr(depth - 1);
            self.unary_as(r, true)
        } else {
            self.binary_as(depth, true)
        }
    }

    fn receiver(&mut self, depth: u32) -> E {
        match self.weighted(&[7, 1, 2]) {
            0 => self.expr(depth - 1),
            1 => self.literal(),
            _ => self.data_expr().unwrap_or_else(|| self.literal()),
        }
    }

    fn binary_as(&mut self, depth: u32, path: bool) -> E {
        let weights: Vec<u32> = BINARY.iter().map(|m| m.1).collect();
        let (mut name, _, new) = BINARY[self.weighted(&weights)];
        let r = self.receiver(depth);
        let r = if r.by_ref > 1 { r.val() } else { r };
        let a = self.expr(depth - 1).val();
        if new && (r.active || a.active) && !self.cfg.new_methods {
            name = "max";
        }
        if path && matches!(name, "%" | "clamp_active") {
            name = "max";
        }
        if !r.active && a.active {
            self.tag(if r.lit {
                "const-receiver"
            } else {
                "data-receiver"
            });
        }
        self.tag(&format!("method:{name}"));
        let (r, args, iv) = self.shape_binary(name, r, a, depth);
        let refs: Vec<&E> = std::iter::once(&r).chain(args.iter()).collect();
        if name == "%" {
            let code = format!("{} % {}", r.at(2), args[0].at(1));
            let mut e = E::from(code, iv, 2, &refs);
            e.untyped = r.untyped && args[0].untyped;
            return e;
        }
        let name = name.trim_end_matches("_active");
        let arg_code: Vec<String> = args.iter().map(|a| a.code.clone()).collect();
        let code = if path {
            self.tag("path-call");
            let v = r.clone().val();
            format!("f64::{name}({}, {})", v.code, arg_code.join(", "))
        } else {
            r.method(name, &arg_code.join(", "))
        };
        E::from(code, iv, 0, &refs)
    }

    /// Receiver, arguments and result interval of binary method `name`.
    fn shape_binary(&mut self, name: &str, r: E, a: E, depth: u32) -> (E, Vec<E>, Iv) {
        match name {
            "powf" => {
                let r = self.positive(r);
                let r = if r.iv.hi > 20.0 {
                    self.positive_small(r)
                } else {
                    r
                };
                let e = if self.chance(0.5) {
                    self.pick_lit(&[0.5, 1.5, 2.0, -0.5, 0.25, 3.0, -1.0])
                } else {
                    self.within(a, 2.0)
                };
                let iv = r.iv.powf(e.iv);
                if iv.tame() {
                    (r, vec![e], iv)
                } else {
                    let half = self.pick_lit(&[0.5]);
                    let iv = r.iv.powf(half.iv);
                    (r, vec![half], iv)
                }
            }
            "max" => (r.clone(), vec![a.clone()], r.iv.max(a.iv)),
            "min" => (r.clone(), vec![a.clone()], r.iv.min(a.iv)),
            "hypot" => {
                let m = r.iv.mag().hypot(a.iv.mag());
                (r, vec![a], Iv::new(0.0, m))
            }
            "atan2" => (r, vec![a], Iv::sym(std::f64::consts::PI)),
            "mul_add" => {
                let b = self.expr(depth - 1).val();
                let iv = r.iv.mul(a.iv).add(b.iv);
                (r, vec![a, b], iv)
            }
            "clamp" => {
                let lo = self.pick_lit(&[-1.0, -0.5, -2.0, 0.0]);
                let hi = self.pick_lit(&[1.0, 0.5, 2.0, 3.0]);
                let iv = Iv::new(lo.iv.lo, hi.iv.hi);
                (r, vec![lo, hi], iv)
            }
            "clamp_active" => {
                let one = E::atom("1.0", Iv::point(1.0), false, true);
                let lo = self.bin(&a, "-", &one);
                let hi = self.bin(&a, "+", &one);
                let iv = Iv::new(lo.iv.lo, hi.iv.hi);
                (r, vec![lo, hi], iv)
            }
            "log" => {
                let r = self.positive(r);
                let base = self.pick_lit(&[2.0, 10.0, 3.0]);
                let iv = r.iv.monotone(|v| v.log(base.iv.lo));
                (r, vec![base], iv)
            }
            "copysign" => (r.clone(), vec![a], Iv::sym(r.iv.mag())),
            "rem_euclid" | "%" | "div_euclid" => {
                let c = if self.chance(0.7) {
                    self.pick_lit(&[2.0, 1.5, 0.75, 3.0])
                } else {
                    let p = self.positive(a);
                    self.within(p, 4.0)
                };
                let c = if c.iv.lo < 0.05 {
                    self.pick_lit(&[2.0])
                } else {
                    c
                };
                let iv = match name {
                    "div_euclid" => r.iv.div(c.iv).rounded().add(Iv::sym(1.0)),
                    "%" => Iv::sym(c.iv.hi),
                    _ => Iv::new(0.0, c.iv.hi),
                };
                (r, vec![c], iv)
            }
            _ => unreachable!("binary method {name}"),
        }
    }

    /// `r` squashed into [e^-1, e]: a positive base whose powers stay tame.
    fn positive_small(&mut self, r: E) -> E {
        let t = self.within(r, 1.0);
        E::from(t.method("exp", ""), Iv::new(0.36, 2.72), 0, &[&t])
    }

    /// One of the literals `vals`, spelled plainly (negative ones with a minus).
    pub fn pick_lit(&mut self, vals: &[f64]) -> E {
        let v = self.pick(vals);
        let mut e = E::atom(format!("{v:?}"), Iv::point(v), false, true);
        e.lit = true;
        if v < 0.0 {
            e.prec = 1;
        }
        e
    }
}

/// The interval of unary method `name` over `r` (already in its domain).
fn unary_iv(name: &str, r: Iv, powi: Option<i32>) -> Iv {
    match name {
        "exp" => r.monotone(f64::exp),
        "exp2" => r.monotone(f64::exp2),
        "exp_m1" => r.monotone(f64::exp_m1),
        "ln" => r.monotone(f64::ln),
        "log10" => r.monotone(f64::log10),
        "log2" => r.monotone(f64::log2),
        "sqrt" => r.monotone(f64::sqrt),
        "cbrt" => r.monotone(f64::cbrt),
        "recip" => r.monotone(f64::recip),
        "powi" => r.powi(powi.unwrap_or(2)),
        "sin" | "cos" | "tanh" | "signum" => Iv::sym(1.0),
        "fract" => Iv::sym(1.0),
        "abs" => r.abs(),
        "atan" => r.monotone(f64::atan),
        "ln_1p" => r.monotone(f64::ln_1p),
        "tan" => r.monotone(f64::tan),
        "asin" => r.monotone(f64::asin),
        "acos" => r.monotone(f64::acos),
        "atanh" => r.monotone(f64::atanh),
        "sinh" => r.monotone(f64::sinh),
        "cosh" => Iv::new(1.0, r.mag().cosh()),
        "asinh" => r.monotone(f64::asinh),
        "acosh" => r.monotone(f64::acosh),
        "floor" | "ceil" | "round" | "trunc" => r.rounded(),
        "to_degrees" => r.monotone(f64::to_degrees),
        "to_radians" => r.monotone(f64::to_radians),
        _ => unreachable!("unary method {name}"),
    }
}
