"""Reference values for tests/accuracy_regressions.rs (issue 14, "Accuracy"), computed
independently with mpmath from the textbook formulas at 250 significant digits.

Run: python3 tests/regress_support/reference.py  (mpmath 1.3)

Every partial is computed twice, by the closed form and by mp.diff on the density, and
the script stops if they disagree beyond 1e-25 relative (so a slip in a closed form here
cannot go unnoticed). Printed as the nearest f64, shortest round trip, as Rust tuples.
"""
from mpmath import mp, mpf, log, log1p, loggamma, digamma, exp, pi, tanh, cosh, atan2, acosh, diff

# 250 digits: ν = 1e100 cancels 100 digits in the value and 200 in the ν-partial.
mp.dps = 250


def f64(v):
    return repr(float(v))


def check(closed, numeric, what):
    if closed == 0:
        # An exact zero (∂/∂y at the mode of a symmetric beta).
        assert abs(numeric) < mpf(10) ** -100, (what, numeric)
        return
    rel = abs(closed - numeric) / abs(closed)
    assert rel < mpf(10) ** -25, (what, closed, numeric, rel)


def student_t(y, nu, mu, s):
    z = (y - mu) / s
    return (loggamma((nu + 1) / 2) - loggamma(nu / 2) - log(nu * pi) / 2 - log(s)
            - (nu + 1) / 2 * log1p(z * z / nu))


def student_t_partials(y, nu, mu, s):
    z = (y - mu) / s
    r = z * z / nu
    dy = -(nu + 1) * z / (s * nu * (1 + r))
    dnu = (digamma((nu + 1) / 2) - digamma(nu / 2) - log1p(r) + ((nu + 1) * r / (1 + r) - 1) / nu) / 2
    ds = ((nu + 1) * r / (1 + r) - 1) / s
    return [dy, dnu, -dy, ds]


def cauchy(y, mu, s):
    z = (y - mu) / s
    return -log(pi) - log(s) - log1p(z * z)


def cauchy_partials(y, mu, s):
    z = (y - mu) / s
    dy = -2 * z / (s * (1 + z * z))
    return [dy, -dy, (z * z - 1) / (s * (1 + z * z))]


def beta(y, a, b):
    return loggamma(a + b) - loggamma(a) - loggamma(b) + (a - 1) * log(y) + (b - 1) * log1p(-y)


def beta_partials(y, a, b):
    return [(a - 1) / y - (b - 1) / (1 - y),
            log(y) + digamma(a + b) - digamma(a),
            log1p(-y) + digamma(a + b) - digamma(b)]


def numeric_partials(f, args):
    out = []
    for k in range(len(args)):
        def g(t, k=k):
            a = list(args)
            a[k] = t
            return f(*a)
        # A step relative to the argument (mp.diff's default is absolute, too small to
        # see a slope of 1e-201 at ν = 1e100 in 250 digits).
        out.append(diff(g, args[k], h=max(abs(args[k]), 1) * mpf(10) ** -60))
    return out


def case(name, f, partials, args):
    args = [mpf(a) for a in args]
    closed = partials(*args)
    numeric = numeric_partials(f, args)
    for k, (c, n) in enumerate(zip(closed, numeric)):
        check(c, n, f"{name}{tuple(float(a) for a in args)} partial {k}")
    vals = ", ".join(f64(a) for a in args)
    parts = ", ".join(f64(c) for c in closed)
    print(f"    ([{vals}], {f64(f(*args))}, [{parts}]),")


print("// student_t_lpdf: ([y, nu, mu, sigma], value, [d/dy, d/dnu, d/dmu, d/dsigma])")
for nu in [3.0, 1e6, 1e10, 1e15, 1e100]:
    case("student_t", student_t, student_t_partials, [1.5, nu, 0.0, 1.0])
case("student_t", student_t, student_t_partials, [-2.5, 1e8, 0.5, 2.0])
case("student_t", student_t, student_t_partials, [1e200, 3.0, 0.0, 1.0])
case("student_t", student_t, student_t_partials, [-1e200, 7.5, 0.0, 1.0])
print("// cauchy_lpdf: ([y, mu, sigma], value, [d/dy, d/dmu, d/dsigma])")
case("cauchy", cauchy, cauchy_partials, [1e200, 0.0, 1.0])
case("cauchy", cauchy, cauchy_partials, [-3e160, 2.0, 0.5])
print("// beta_lpdf: ([y, alpha, beta], value, [d/dy, d/dalpha, d/dbeta])")
case("beta", beta, beta_partials, [0.5, 1e12, 1e12])
case("beta", beta, beta_partials, [0.25, 1e9, 3e9])
case("beta", beta, beta_partials, [0.3, 2.5, 4.0])

print("// log_sum_exp of [x, x]: the gradient is [0.5, 0.5] exactly")
print("// elementary derivatives: (name, x, f'(x))")
x = mpf(20)
print(f"    (\"tanh\", 20.0, {f64(1 / cosh(x) ** 2)}),")
for x in [40.0, -40.0, 700.0]:
    x = mpf(x)
    print(f"    (\"inv_logit\", {f64(x)}, {f64(exp(-x) / (1 + exp(-x)) ** 2)}),")
print(f"    (\"acosh\", 1e200, {f64(1 / mp.sqrt(mpf('1e200') ** 2 - 1))}),")
print(f"    (\"exp_m1\", -40.0, {f64(exp(mpf(-40)))}),")
for x in [5.0, 26.0]:
    x = mpf(x)
    print(f"    (\"erf\", {f64(x)}, {f64(2 / mp.sqrt(pi) * exp(-x * x))}),")
print("// atan2(y, x): (y, x, d/dy, d/dx)")
for (y, x) in [(1e-170, 1e-170), (3e-170, -4e-170), (1e200, 1e200), (-2e250, 5e249)]:
    y, x = mpf(y), mpf(x)
    r2 = x * x + y * y
    print(f"    ({f64(y)}, {f64(x)}, {f64(x / r2)}, {f64(-y / r2)}),")
