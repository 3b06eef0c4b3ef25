"""Reference values, gradients and Hessians for tests/forward_hessian.rs and
tests/forward_dual.rs: each function written here from its textbook definition (Stan's
log densities with every constant), differentiated exactly by sympy, and evaluated with
40 digits at the exact binary value of each f64 input. Writes the Rust module the tests
include:

    python3 tests/forward_support/hessian_reference.py > tests/forward_support/hessian_values.rs

(sympy 1.x, a few seconds.)
"""
import sympy as sp
from sympy import Rational, exp, log, loggamma, pi, sin, cos, tanh, atan2, sqrt, Abs

DIGITS = 40


def f64(v):
    """The exact value of the f64 nearest to v."""
    return Rational(float(v))


def lbinom(n, k):
    return loggamma(n + 1) - loggamma(k + 1) - loggamma(n - k + 1)


# Log densities: y may be a list (summed over its elements).
def normal(y, m, s):
    return -log(s) - log(2 * pi) / 2 - ((y - m) / s) ** 2 / 2


def lognormal(y, m, s):
    return -log(s) - log(2 * pi) / 2 - log(y) - ((log(y) - m) / s) ** 2 / 2


def cauchy(y, m, s):
    return -log(pi) - log(s) - log(1 + ((y - m) / s) ** 2)


def student_t(y, nu, m, s):
    return (loggamma((nu + 1) / 2) - loggamma(nu / 2) - log(nu * pi) / 2 - log(s)
            - (nu + 1) / 2 * log(1 + ((y - m) / s) ** 2 / nu))


def logistic(y, m, s):
    z = (y - m) / s
    return -z - log(s) - 2 * log(1 + exp(-z))


def double_exponential(y, m, s):
    return -log(2) - log(s) - Abs(y - m) / s


def exponential(y, b):
    return log(b) - b * y


def gamma(y, a, b):
    return a * log(b) - loggamma(a) + (a - 1) * log(y) - b * y


def inv_gamma(y, a, b):
    return a * log(b) - loggamma(a) - (a + 1) * log(y) - b / y


def weibull(y, a, s):
    return log(a) - log(s) + (a - 1) * (log(y) - log(s)) - (y / s) ** a


def chi_square(y, nu):
    return -nu / 2 * log(2) - loggamma(nu / 2) + (nu / 2 - 1) * log(y) - y / 2


def beta(y, a, b):
    return (loggamma(a + b) - loggamma(a) - loggamma(b) + (a - 1) * log(y)
            + (b - 1) * log(1 - y))


def uniform(y, a, b):
    return -log(b - a)


def poisson(n, lam):
    return n * log(lam) - lam - loggamma(n + 1)


def poisson_log(n, a):
    return n * a - exp(a) - loggamma(n + 1)


def neg_binomial_2(n, m, p):
    return (loggamma(n + p) - loggamma(n + 1) - loggamma(p) + n * log(m) + p * log(p)
            - (n + p) * log(m + p))


def binomial(n, big_n, t):
    return lbinom(big_n, n) + n * log(t) + (big_n - n) * log(1 - t)


def bernoulli(n, t):
    return n * log(t) + (1 - n) * log(1 - t)


def bernoulli_logit(n, a):
    return n * a - log(1 + exp(a))


def total(f, ys, *params):
    return sum(f(y, *params) for y in ys)


def chain(x):
    acc = sum(sin(x[i] * x[i + 1]) + exp(x[i]) / 10 for i in range(len(x) - 1))
    return acc * cos(acc)


def slices(x):
    w = [f64(0.5), f64(-1.0), f64(2.0)]
    lse = log(sum(exp(v) for v in x))
    n2 = sqrt(sum(v * v for v in x))
    return lse * n2 + sum(a * b for a, b in zip(w, x)) * sum(x) + sum(v * v for v in x)


def foo_ab2(x):
    # foo(x0) ab2(x1, x0): log(1 + sin x0) x1 x0²
    return log(1 + sin(x[0])) * x[1] * x[0] ** 2


def dual_model(t):
    """tests/forward_dual.rs's `model` at theta = t, y = Y."""
    y = [f64(1.3), f64(-0.4), f64(2.7), f64(0.9)]
    mu, log_sigma, w = t
    sigma = exp(log_sigma)
    acc = total(normal, y, mu, sigma) + normal(mu, 0, 10)
    for i, yi in enumerate(y):
        acc += tanh(w * yi) * log(f64(i + 1)) - (w - mu) ** 2 * f64(0.1)
    return acc + log(sum(exp(v) for v in t)) + sin(atan2(w, mu)) * sqrt(sigma)


C3 = [2, 0, 5]
CASES = [
    # (name as the tests spell it, function of the list of inputs, points)
    ("chain", chain, [[0.1 * i - 0.7 for i in range(20)]]),
    ("normal_lpdf(x0, x1, x2)", lambda x: normal(*x), [[1.3, 0.5, 1.2]]),
    ("normal_lpdf(&x[0..3], x3, x4)", lambda x: total(normal, x[0:3], x[3], x[4]),
     [[1.3, -0.4, 2.7, 0.5, 1.2]]),
    ("normal_lpdf(&[1.3, -0.4], &x[0..2], &x[2..4])",
     lambda x: normal(f64(1.3), x[0], x[2]) + normal(f64(-0.4), x[1], x[3]),
     [[0.5, 0.1, 1.2, 0.7]]),
    ("lognormal_lpdf", lambda x: lognormal(*x), [[1.3, 0.5, 1.2]]),
    ("cauchy_lpdf", lambda x: cauchy(*x), [[1.3, 0.5, 1.2]]),
    ("student_t_lpdf", lambda x: student_t(*x), [[1.3, 4.5, 0.5, 1.2], [5.0, 4.5, 0.5, 1.2]]),
    ("logistic_lpdf", lambda x: logistic(*x), [[1.3, 0.5, 1.2]]),
    ("double_exponential_lpdf", lambda x: double_exponential(*x), [[1.3, 0.5, 1.2]]),
    ("exponential_lpdf", lambda x: exponential(*x), [[0.7, 1.5]]),
    ("gamma_lpdf", lambda x: gamma(*x), [[1.3, 2.5, 0.8], [20.0, 25.0, 1.2], [0.3, 0.4, 1.5]]),
    ("inv_gamma_lpdf", lambda x: inv_gamma(*x),
     [[1.3, 2.5, 0.8], [0.9, 30.0, 25.0], [0.5, 0.3, 0.8]]),
    ("weibull_lpdf", lambda x: weibull(*x), [[1.3, 2.5, 0.8], [1.1, 30.0, 1.0], [2.5, 1.5, 0.8]]),
    ("chi_square_lpdf", lambda x: chi_square(*x), [[1.3, 3.5], [40.0, 42.0], [0.4, 1.2]]),
    ("beta_lpdf", lambda x: beta(*x),
     [[0.3, 2.5, 1.8], [0.4, 0.5, 2.5], [0.3, 0.5, 15.0], [0.45, 20.0, 25.0]]),
    ("uniform_lpdf(0.5, x0, x1)", lambda x: uniform(f64(0.5), *x), [[0.1, 2.0]]),
    ("poisson_lpmf(&[2, 0, 5], x0)", lambda x: total(poisson, C3, x[0]), [[1.7]]),
    ("poisson_log_lpmf(&[2, 0, 5], x0)", lambda x: total(poisson_log, C3, x[0]), [[0.4]]),
    ("neg_binomial_2_lpmf(&[2, 0, 5], x0, x1)", lambda x: total(neg_binomial_2, C3, *x),
     [[1.7, 3.2]]),
    ("binomial_lpmf(&[2, 0, 5], 6, x0)", lambda x: total(binomial, C3, 6, x[0]), [[0.35]]),
    ("bernoulli_lpmf(&[0, 1, 1], x0)", lambda x: total(bernoulli, [0, 1, 1], x[0]), [[0.35]]),
    ("bernoulli_logit_lpmf(&[0, 1, 1], x0)",
     lambda x: total(bernoulli_logit, [0, 1, 1], x[0]), [[0.35]]),
    ("poisson_lpmf(&[12, 15, 30], x0)", lambda x: total(poisson, [12, 15, 30], x[0]), [[14.0]]),
    ("poisson_log_lpmf(&[12, 15, 30], x0)",
     lambda x: total(poisson_log, [12, 15, 30], x[0]), [[2.6]]),
    ("binomial_lpmf(&[12, 25], 40, x0)", lambda x: total(binomial, [12, 25], 40, x[0]), [[0.4]]),
    ("neg_binomial_2_lpmf(&[12, 15, 40], x0, x1)",
     lambda x: total(neg_binomial_2, [12, 15, 40], *x), [[14.0, 12.0]]),
    ("neg_binomial_2_lpmf(&[12, 3, 40], x0, x1)",
     lambda x: total(neg_binomial_2, [12, 3, 40], *x), [[14.0, 3.5]]),
    ("neg_binomial_2_lpmf(&[3, 0], x0, x1)", lambda x: total(neg_binomial_2, [3, 0], *x),
     [[1.5, 0.6]]),
    ("powf", lambda x: x[0] ** x[1], [[2.3, 1.7]]),
    ("slice_functions", slices, [[0.3, -1.2, 0.8]]),
    ("foo_ab2", foo_ab2, [[0.4, 1.3]]),
    ("forward_dual_model", dual_model, [[0.5, -0.2, 0.8]]),
]


def number(v):
    x = float(sp.N(v, DIGITS))
    return repr(x) if x == x else "f64::NAN"


def main():
    print("//! Generated by hessian_reference.py (sympy, exact derivatives at 40 digits):")
    print("//! do not edit.")
    print()
    print("/// A function (`case`, as the tests name it) at the point `x`: its value, gradient")
    print("/// and Hessian (rows flattened, row-major).")
    print("pub struct Reference {")
    print("    pub case: &'static str,")
    print("    pub x: &'static [f64],")
    print("    pub value: f64,")
    print("    pub grad: &'static [f64],")
    print("    pub hess: &'static [f64],")
    print("}")
    print()
    print("#[rustfmt::skip]")
    print("pub const REFERENCE: &[Reference] = &[")
    for name, f, points in CASES:
        for point in points:
            xs = sp.symbols(f"x0:{len(point)}", real=True)
            expr = f(list(xs))
            at = {x: f64(v) for x, v in zip(xs, point)}
            grad = [sp.diff(expr, x) for x in xs]
            hess = [sp.diff(g, x) for g in grad for x in xs]
            ev = lambda e: number(e.subs(at).evalf(DIGITS, subs=at))
            print(f"    Reference {{ case: \"{name}\", x: &[{', '.join(repr(float(v)) for v in point)}],")
            print(f"        value: {ev(expr)},")
            print(f"        grad: &[{', '.join(ev(g) for g in grad)}],")
            print(f"        hess: &[{', '.join(ev(h) for h in hess)}] }},")
    print("];")


main()
