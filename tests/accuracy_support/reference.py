"""Reference data of the accuracy sweep (tests/accuracy_sweep.rs): every elementary
function, special function, slice function and distribution of fazang, its value and
every partial derivative, at points over its whole domain (tiny, huge, near poles and
branch points), computed with mpmath.

Run: python3 tests/accuracy_support/reference.py   (mpmath 1.3; a few minutes)
Writes tests/accuracy_support/<family>.csv, one line per point and function:

    name;x1 x2 ...;q0 q1 ...

with inputs as f64 (shortest round trip; integers as integers) and, for the value (q0)
and each partial with respect to a real input (q1, ...), three numbers `hi:lo:scale`:
the reference as a double-double hi + lo, and the error scale
|q| + Σᵢ |xᵢ ∂q/∂xᵢ| (over the real inputs), the change of q when every input moves by
one unit of its own magnitude. The test divides the error of fazang's result by
2⁻⁵² · scale: that is the error in ulps where q is well-conditioned, and the error
relative to what rounding the inputs alone would cause where it is not (near a root,
or where terms cancel). A quantity that does not exist at a point (a partial with
respect to a non-differentiable argument) is `x`; a reference that is not finite is
written as inf / -inf, and fazang must then give exactly that.

The values and partials are written here from their textbook definitions, independently
of fazang's code: partials in closed form, each checked against mp.diff at every point
(the script stops if they disagree). The working precision grows with the magnitude of
the inputs, so that the cancellation of large terms (ln Γ of 1e15, say) leaves at least
40 correct digits.
"""
import math
import os
import sys

from mpmath import (mp, mpf, log, log1p, expm1, exp, sqrt, cbrt, sin, cos, tan, asin, acos,
                    atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh, erf, erfc, loggamma,
                    digamma, pi, fabs, sign, binomial, diff, floor, power, hypot, inf, isinf,
                    nstr)

OUT = os.path.dirname(os.path.abspath(__file__))
LN2, LN10 = None, None


def setup_constants():
    global LN2, LN10
    LN2, LN10 = log(2), log(10)


# --------------------------------------------------------------------------------------
# Output


def f64s(v):
    """A Python float in its shortest round-trip form."""
    if isinstance(v, int):
        return str(v)
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(float(v))


def split(q):
    """q as a double-double (hi, lo)."""
    if isinf(q):
        return float(q), 0.0
    hi = float(q)
    if math.isinf(hi):
        return hi, 0.0
    lo = float(q - mpf(hi))
    return hi, lo


def work_dps(args, prec=None):
    """60 digits, plus 2.2 per decimal order of magnitude of the inputs listed in `prec`
    (all by default): what the cancellation of large terms (ln Γ of 1e15, sin of 1e200,
    the ν-partial of Student's t at ν = 1e100) leaves correct."""
    m = 0.0
    for i, a in enumerate(args):
        if prec is not None and i not in prec:
            continue
        a = abs(float(a))
        if a != 0.0 and not math.isinf(a):
            m = max(m, abs(math.log10(a)))
    return int(60 + 2.2 * m)


# --------------------------------------------------------------------------------------
# Derivatives


def partial_at(f, args, k, unit=None):
    def g(t):
        a = list(args)
        a[k] = t
        return f(*a)
    x = args[k]
    # A step of 10^(-dps/2) relative to x: far below the scale on which any of these
    # functions varies (1 for sin at x = 1e200, since the precision grows with |x|), far
    # above the rounding of the working precision. At x = 0, relative to `unit`.
    if unit is None:
        unit = fabs(x) if x != 0 else mpf(1)
    return diff(g, x, h=unit * mpf(10) ** (-(mp.dps // 2)))


def partial(f, args, k):
    """∂f/∂args[k] by mp.diff, at the working precision and at twice it, and at four
    times it if those two disagree (a slope of 1e-260 next to a value of -1, as tanh has
    at -300, needs 300 digits to be seen)."""
    prev = partial_at(f, args, k)
    for factor in (2, 4):
        with mp.workdps(mp.dps * factor):
            cur = partial_at(f, args, k)
        if fabs(cur - prev) <= mpf(10) ** -12 * fabs(cur):
            return cur
        prev = cur
    return prev


def scale_of(f, args, real, q):
    """|q| + Σ |xᵢ ∂q/∂xᵢ| over the real inputs, by mp.diff of f (q = f(args)); only
    its magnitude matters, so one difference quotient at the working precision."""
    s = fabs(q)
    for k in real:
        if args[k] != 0:
            s += fabs(args[k] * partial_at(f, args, k))
    return s


class Mismatch(Exception):
    pass


def agree(closed, numeric, what, x=1, fx=1):
    tiny = mpf("1e-330")
    if fabs(closed) < tiny and fabs(numeric) < tiny:
        # Both round to 0 in f64 (mp.diff cannot resolve such slopes at this precision).
        return
    if numeric == 0 and fabs(closed * x) < mpf(10) ** (-mp.dps // 4) * fabs(fx):
        # A slope too small next to the value for a difference quotient to see it at
        # this precision (tanh at -300): the closed form stands alone there.
        return
    if closed == 0:
        if fabs(numeric) > mpf(10) ** (-mp.dps // 4):
            raise Mismatch(f"{what}: closed 0, numeric {nstr(numeric, 10)}")
        return
    rel = fabs(closed - numeric) / fabs(closed)
    if rel > mpf(10) ** (-12):
        raise Mismatch(f"{what}: closed {nstr(closed, 20)}, numeric {nstr(numeric, 20)}")


def row(name, f, dfs, args, real, skip=(), prec=None):
    """One line: f and its closed-form partials dfs[k] (with respect to args[real[k]])
    at args. `skip` lists partials (indices into real) that do not exist there."""
    margs = [mpf(a) if not isinstance(a, int) else a for a in args]
    with mp.workdps(work_dps(args, prec)):
        margs = [mpf(a) if not isinstance(a, int) else mpf(a) for a in args]
        v = f(*margs)
        cols = [quantity(v, f, margs, real)]
        for j, (k, df) in enumerate(zip(real, dfs)):
            if j in skip or isinf(v) or not isfinite_mpf(v):
                cols.append("x")
                continue
            try:
                d = df(*margs)
            except ZeroDivisionError:
                cols.append("x")
                continue
            if isfinite_mpf(d):
                what = f"{name}{tuple(args)} d/dx{k}"
                if margs[k] == 0:
                    # No scale of its own: a step relative to the smallest other input,
                    # or to 1 (uniform on [0, 1e-290] needs the one, a location 0 next
                    # to y = 1e-300 the other).
                    others = [fabs(a) for a in margs if a != 0] or [mpf(1)]
                    # The precision of every input's magnitude: a step of 1e-30 next to
                    # y = 1e100 must still show in z²/2 = 5e199.
                    with mp.workdps(max(mp.dps, work_dps(args))):
                        tries = [partial_at(f, margs, k, u) for u in (mpf(1), min(others))]
                    errs = []
                    for t in tries:
                        try:
                            agree(d, t, what, margs[k], v)
                            break
                        except (Mismatch, TypeError) as e:
                            errs.append(str(e))
                    else:
                        raise Mismatch("; ".join(errs))
                else:
                    agree(d, partial(f, margs, k), what, margs[k], v)
            cols.append(quantity(d, df, margs, real))
    xs = " ".join(f64s(a) for a in args)
    return f"{name};{xs};{' '.join(cols)}"


def isfinite_mpf(v):
    try:
        return not isinf(v) and v == v
    except TypeError:
        return False


def quantity(q, f, args, real):
    if not isfinite_mpf(q):
        return "inf" if q > 0 else "-inf"
    hi, lo = split(q)
    if math.isinf(hi):
        return "inf" if hi > 0 else "-inf"
    s = scale_of(f, args, real, q)
    return f"{f64s(hi)}:{f64s(lo)}:{f64s(float(s))}"


# --------------------------------------------------------------------------------------
# Points


def grid(lo, hi, extra=()):
    """Magnitudes from tiny to huge within (lo, hi), both signs where allowed."""
    mags = [1e-300, 1e-200, 1e-100, 1e-30, 1e-16, 1e-8, 1e-4, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9,
            1.0, 1.1, 1.5, 2.0, 2.5, 3.0, 5.0, 7.5, 10.0, 20.0, 30.0, 50.0, 100.0, 300.0,
            700.0, 1e4, 1e8, 1e15, 1e30, 1e100, 1e200, 1e300]
    pts = set()
    for m in mags:
        for x in (m, -m):
            if lo < x < hi:
                pts.add(x)
    for x in extra:
        if lo <= x <= hi:
            pts.add(x)
    return sorted(pts)


def near(x, eps=(1e-15, 1e-10, 1e-6, 1e-3)):
    out = []
    for e in eps:
        out += [x - e * max(1.0, abs(x)), x + e * max(1.0, abs(x))]
    return out


# --------------------------------------------------------------------------------------
# Families


def elementary(lines):
    def d(f):
        return [f]

    t = {}
    t["sin"] = (sin, [cos], grid(-1e300, 1e300, [math.pi, 3.0e15]))
    t["cos"] = (cos, [lambda x: -sin(x)], grid(-1e300, 1e300, [math.pi / 2]))
    t["tan"] = (tan, [lambda x: 1 / cos(x) ** 2], grid(-1e300, 1e300, near(math.pi / 2, (1e-10, 1e-6))))
    t["asin"] = (asin, [lambda x: 1 / sqrt(1 - x * x)], grid(-1, 1, near(1.0)[::2] + near(-1.0)[1::2]))
    t["acos"] = (acos, [lambda x: -1 / sqrt(1 - x * x)], grid(-1, 1, near(1.0)[::2] + near(-1.0)[1::2]))
    t["atan"] = (atan, [lambda x: 1 / (1 + x * x)], grid(-1e300, 1e300))
    t["sinh"] = (sinh, [cosh], grid(-710, 710, [709.0, -709.0]))
    t["cosh"] = (cosh, [sinh], grid(-710, 710, [709.0, -709.0]))
    t["tanh"] = (tanh, [lambda x: 1 / cosh(x) ** 2], grid(-1e300, 1e300, [0.6, 0.65, 19.0, 355.0]))
    t["asinh"] = (asinh, [lambda x: 1 / sqrt(x * x + 1)], grid(-1e300, 1e300))
    t["acosh"] = (acosh, [lambda x: 1 / sqrt(x * x - 1)], grid(1, 1e300, near(1.0)[1::2]))
    t["atanh"] = (atanh, [lambda x: 1 / (1 - x * x)], grid(-1, 1, near(1.0)[::2] + near(-1.0)[1::2]))
    t["exp"] = (exp, [exp], grid(-745, 709.7, [709.0, -708.0, -740.0]))
    t["exp2"] = (lambda x: power(2, x), [lambda x: power(2, x) * LN2], grid(-1074, 1023.9, [1000.0, -1020.0]))
    t["exp_m1"] = (expm1, [exp], grid(-1e300, 709.7, [-40.0, -745.0]))
    t["ln"] = (log, [lambda x: 1 / x], grid(0, 1e308, near(1.0) + [5e-324, 1.7e308]))
    t["log10"] = (lambda x: log(x) / LN10, [lambda x: 1 / (x * LN10)], grid(0, 1e308, near(1.0) + [5e-324, 1.7e308, 3e-309]))
    t["log2"] = (lambda x: log(x) / LN2, [lambda x: 1 / (x * LN2)], grid(0, 1e308, near(1.0) + [5e-324, 1.7e308]))
    t["ln_1p"] = (log1p, [lambda x: 1 / (1 + x)], grid(-1, 1e308, near(-1.0)[1::2]))
    t["sqrt"] = (sqrt, [lambda x: 1 / (2 * sqrt(x))], grid(0, 1e308, [5e-324]))
    t["cbrt"] = (lambda x: sign(x) * cbrt(fabs(x)), [lambda x: 1 / (3 * cbrt(x * x))], grid(-1e308, 1e308, [5e-324]))
    t["recip"] = (lambda x: 1 / x, [lambda x: -1 / (x * x)], grid(-1e308, 1e308))
    t["erf"] = (erf, [lambda x: 2 / sqrt(pi) * exp(-x * x)], grid(-30, 30, [26.0, 5.9, 6.0]))
    t["erfc"] = (erfc, [lambda x: -2 / sqrt(pi) * exp(-x * x)], grid(-30, 27.2, [26.0, 20.0]))
    t["log_gamma"] = (lambda x: log(fabs(mp.gamma(x))) if x < 0 else loggamma(x),
                      [digamma],
                      grid(0, 1e300, near(1.0, (1e-10, 1e-5)) + near(2.0, (1e-10, 1e-5)) + [1.4616321449683622])
                      + [-0.5, -1.5, -2.5, -10.5, -1.0 + 1e-10, -2.0 - 1e-8, -100.25])
    t["square"] = (lambda x: x * x, [lambda x: 2 * x], grid(-1e154, 1e154))
    t["inv_square"] = (lambda x: 1 / (x * x), [lambda x: -2 / x ** 3], grid(-1e154, 1e154, [1e-100]))
    t["inv_sqrt"] = (lambda x: 1 / sqrt(x), [lambda x: -1 / (2 * x * sqrt(x))], grid(0, 1e308))
    t["logit"] = (lambda x: log(x / (1 - x)), [lambda x: 1 / (x * (1 - x))],
                  grid(0, 1, near(0.5) + near(1.0)[::2] + [1e-300]))
    t["inv_logit"] = (lambda x: 1 / (1 + exp(-x)), [lambda x: exp(-x) / (1 + exp(-x)) ** 2],
                      grid(-1e300, 1e300, [40.0, -40.0, 700.0, -700.0, 745.0]))
    t["log1p_exp"] = (lambda x: log1p(exp(x)), [lambda x: 1 / (1 + exp(-x))],
                      grid(-1e300, 1e300, [36.0, 37.0, 40.0, -40.0, 710.0, 800.0, -745.0]))
    t["to_degrees"] = (lambda x: x * 180 / pi, [lambda x: 180 / pi], grid(-1e300, 1e300))
    t["to_radians"] = (lambda x: x * pi / 180, [lambda x: pi / 180], grid(-1e300, 1e300))
    for name, (f, dfs, pts) in t.items():
        for x in pts:
            lines.append(row(name, f, dfs, [x], [0]))


def binary(lines):
    xs = [1e-300, 1e-100, 1e-8, 0.3, 1.0, 2.5, 1e8, 1e100, 1e300]
    pairs = [(a, b) for a in xs for b in xs]
    signed = [(a, b) for (a, b) in pairs] + [(-a, b) for (a, b) in pairs[::3]] + \
             [(a, -b) for (a, b) in pairs[1::3]] + [(-a, -b) for (a, b) in pairs[2::3]]
    for (y, x) in signed:
        lines.append(row("atan2", lambda y, x: atan2(y, x),
                         [lambda y, x: x / (x * x + y * y), lambda y, x: -y / (x * x + y * y)],
                         [y, x], [0, 1]))
        lines.append(row("hypot", lambda a, b: hypot(a, b),
                         [lambda a, b: a / hypot(a, b), lambda a, b: b / hypot(a, b)], [y, x], [0, 1]))
        lines.append(row("div", lambda a, b: a / b, [lambda a, b: 1 / b, lambda a, b: -a / (b * b)],
                         [y, x], [0, 1]))
        lines.append(row("log_sum_exp2", lambda a, b: log(exp(a) + exp(b)),
                         [lambda a, b: 1 / (1 + exp(b - a)), lambda a, b: 1 / (1 + exp(a - b))],
                         [y, x], [0, 1]))
    bases = [1e-300, 1e-8, 0.5, 2.0, 10.0, 1e8, 1e300]
    exps = [-300.0, -3.5, -1.0, -0.5, 1e-8, 0.5, 1.0, 2.0, 3.7, 300.0]
    for x in bases:
        for y in exps:
            with mp.workdps(60):
                v = power(mpf(x), mpf(y))
            if v > mpf("1.7e308") or v < mpf("5e-324"):
                continue
            lines.append(row("powf", lambda x, y: power(x, y),
                             [lambda x, y: y * power(x, y - 1), lambda x, y: power(x, y) * log(x)],
                             [x, y], [0, 1]))
        for b in [0.5, 2.0, 10.0, 1e-8, 1e100]:
            lines.append(row("log", lambda x, b: log(x) / log(b),
                             [lambda x, b: 1 / (x * log(b)), lambda x, b: -log(x) / (b * log(b) ** 2)],
                             [x, b], [0, 1]))
    for x in [-3.0, -0.7, 1e-100, 0.3, 1.5, 1e10, 1e100]:
        for n in [-3, -1, 2, 3, 10]:
            with mp.workdps(60):
                v = power(mpf(x), n)
            if v > mpf("1.7e308") or fabs(v) < mpf("5e-324") and v != 0:
                continue
            lines.append(row("powi", lambda x, n: power(x, n), [lambda x, n: n * power(x, n - 1)],
                             [x, n], [0]))
    for (a, b, c) in [(1.5, 2.5, -3.75), (1e200, 1e-200, 1.0), (0.1, 10.0, -1.0), (3.0, 1e-30, 1e-30)]:
        lines.append(row("mul_add", lambda a, b, c: a * b + c,
                         [lambda a, b, c: b, lambda a, b, c: a, lambda a, b, c: mpf(1)],
                         [a, b, c], [0, 1, 2]))


def slices(lines):
    vecs = [
        [1.0, 2.0, 3.0],
        [1e16, 1e16, 1e16],
        [-1000.0, 0.0, 1000.0],
        [1e-300, -1e-300, 2e-300],
        [700.0, 701.0, -745.0],
        [1e300, 1e300, -1e300],
        [1e200, 3e200, 2e200],
        [0.3, -0.1, 1e-20],
    ]
    for v in vecs:
        n = len(v)
        lse = lambda *x: log(sum(exp(t) for t in x))
        lines.append(row("log_sum_exp", lse,
                         [(lambda k: lambda *x: exp(x[k]) / sum(exp(t) for t in x))(k) for k in range(n)],
                         v, list(range(n))))
        nrm = lambda *x: sqrt(sum(t * t for t in x))
        lines.append(row("norm2", nrm,
                         [(lambda k: lambda *x: x[k] / sqrt(sum(t * t for t in x)))(k) for k in range(n)],
                         v, list(range(n))))
        w = [0.5, -2.0, 3.0]
        dot = lambda *x: sum(wi * t for wi, t in zip(w, x))
        lines.append(row("dot_product", dot, [(lambda k: lambda *x: mpf(w[k]))(k) for k in range(n)],
                         v, list(range(n))))
        lines.append(row("sum", lambda *x: sum(x), [lambda *x: mpf(1)] * n, v, list(range(n))))


# Distributions: (name, value, [partials with respect to the real arguments], real
# argument indices, points).


def dists(lines):
    L2P = lambda: log(2 * pi)

    def normal(y, m, s):
        z = (y - m) / s
        return -L2P() / 2 - log(s) - z * z / 2

    def normal_d(y, m, s):
        z = (y - m) / s
        return [-z / s, z / s, (z * z - 1) / s]

    def lognormal(y, m, s):
        z = (log(y) - m) / s
        return -L2P() / 2 - log(s) - log(y) - z * z / 2

    def lognormal_d(y, m, s):
        z = (log(y) - m) / s
        return [-(1 + z / s) / y, z / s, (z * z - 1) / s]

    def cauchy(y, m, s):
        z = (y - m) / s
        return -log(pi) - log(s) - log1p(z * z)

    def cauchy_d(y, m, s):
        z = (y - m) / s
        return [-2 * z / (s * (1 + z * z)), 2 * z / (s * (1 + z * z)), (z * z - 1) / (s * (1 + z * z))]

    def student_t(y, nu, m, s):
        z = (y - m) / s
        return (loggamma((nu + 1) / 2) - loggamma(nu / 2) - log(nu * pi) / 2 - log(s)
                - (nu + 1) / 2 * log1p(z * z / nu))

    def student_t_d(y, nu, m, s):
        z = (y - m) / s
        r = z * z / nu
        dy = -(nu + 1) * z / (s * nu * (1 + r))
        dnu = (digamma((nu + 1) / 2) - digamma(nu / 2) - log1p(r) + ((nu + 1) * r / (1 + r) - 1) / nu) / 2
        return [dy, dnu, -dy, ((nu + 1) * r / (1 + r) - 1) / s]

    def logistic(y, m, s):
        z = (y - m) / s
        return -z - 2 * log1p(exp(-z)) - log(s)

    def logistic_d(y, m, s):
        z = (y - m) / s
        t = tanh(z / 2)
        return [-t / s, t / s, (z * t - 1) / s]

    def dexp(y, m, s):
        return -log(2) - log(s) - fabs(y - m) / s

    def dexp_d(y, m, s):
        return [-sign(y - m) / s, sign(y - m) / s, (fabs(y - m) / s - 1) / s]

    def expo(y, b):
        return log(b) - b * y

    def expo_d(y, b):
        return [-b, 1 / b - y]

    def gamma_(y, a, b):
        return a * log(b) - loggamma(a) + (a - 1) * log(y) - b * y

    def gamma_d(y, a, b):
        return [(a - 1) / y - b, log(b) - digamma(a) + log(y), a / b - y]

    def inv_gamma(y, a, b):
        return a * log(b) - loggamma(a) - (a + 1) * log(y) - b / y

    def inv_gamma_d(y, a, b):
        return [(b / y - a - 1) / y, log(b) - digamma(a) - log(y), a / b - 1 / y]

    def weibull(y, a, s):
        return log(a) + (a - 1) * log(y) - a * log(s) - power(y / s, a)

    def weibull_d(y, a, s):
        t = power(y / s, a)
        # (α(1 - t) - 1)/y written as ((α - 1) - αt)/y: exact at α = 1 for tiny t.
        return [((a - 1) - a * t) / y, 1 / a + (1 - t) * (log(y) - log(s)), a * (t - 1) / s]

    def chi2(y, nu):
        return -nu / 2 * log(2) - loggamma(nu / 2) + (nu / 2 - 1) * log(y) - y / 2

    def chi2_d(y, nu):
        return [(nu / 2 - 1) / y - mpf(1) / 2, (log(y) - digamma(nu / 2) - log(2)) / 2]

    def beta_(y, a, b):
        return loggamma(a + b) - loggamma(a) - loggamma(b) + (a - 1) * log(y) + (b - 1) * log1p(-y)

    def beta_d(y, a, b):
        return [(a - 1) / y - (b - 1) / (1 - y), log(y) + digamma(a + b) - digamma(a),
                log1p(-y) + digamma(a + b) - digamma(b)]

    def uniform(y, a, b):
        return -log(b - a)

    def uniform_d(y, a, b):
        return [mpf(0), 1 / (b - a), -1 / (b - a)]

    def poisson(n, lam):
        return n * log(lam) - lam - loggamma(n + 1)

    def poisson_d(n, lam):
        return [n / lam - 1]

    def poisson_log(n, a):
        return n * a - exp(a) - loggamma(n + 1)

    def poisson_log_d(n, a):
        return [n - exp(a)]

    def nb2(n, m, p):
        return (loggamma(n + p) - loggamma(n + 1) - loggamma(p) + n * log(m / (m + p))
                + p * log(p / (m + p)))

    def nb2_d(n, m, p):
        return [p * (n - m) / (m * (m + p)),
                digamma(n + p) - digamma(p) + log(p / (m + p)) + (m - n) / (m + p)]

    def binom(n, N, t):
        return log(binomial(N, n)) + n * log(t) + (N - n) * log1p(-t)

    def binom_d(n, N, t):
        return [n / t - (N - n) / (1 - t)]

    def bern(n, t):
        return log(t) if n == 1 else log1p(-t)

    def bern_d(n, t):
        return [1 / t if n == 1 else -1 / (1 - t)]

    def bern_logit(n, a):
        return -log1p(exp(-a)) if n == 1 else -log1p(exp(a))

    def bern_logit_d(n, a):
        return [1 / (1 + exp(a)) if n == 1 else -1 / (1 + exp(-a))]

    ys = [-1e300, -1e100, -30.0, -3.0, -1.0, -0.1, -1e-10, 0.0, 1e-300, 1e-10, 0.5, 1.0, 2.5, 10.0, 40.0, 1e10, 1e100, 1e200, 1e300]
    pos = [1e-300, 1e-100, 1e-10, 0.01, 0.5, 1.0, 2.5, 10.0, 1e3, 1e10, 1e100, 1e300]
    scales = [1e-100, 1e-8, 0.1, 1.0, 3.0, 1e8, 1e100]
    locs = [-1e100, -5.0, 0.0, 0.7, 1e8]
    shapes = [1e-10, 0.1, 0.5, 1.0, 2.5, 10.0, 100.0, 1e6, 1e10, 1e15]

    def emit(name, f, fd, real, pts=None, skip_if=None, prec=()):
        def dfs(k):
            return lambda *a: fd(*a)[k]
        for p in pts:
            with mp.workdps(work_dps(p, prec)):
                mp_p = [mpf(a) for a in p]
                v = f(*mp_p)
            if not isfinite_mpf(v) or fabs(v) > mpf("1e308"):
                continue
            skip = skip_if(*p) if skip_if else ()
            lines.append(row(name, f, [dfs(k) for k in range(len(real))], p, real, skip, prec))

    def loc_scale_pts():
        pts = [(y, m, s) for y in ys for m in [0.0, 0.7] for s in [1.0, 1e-8, 1e8]]
        pts += [(1.3, m, s) for m in locs for s in scales]
        pts += [(y, -5.0, 3.0) for y in ys]
        return pts

    ls = loc_scale_pts()
    emit("normal", normal, normal_d, [0, 1, 2], ls)
    emit("lognormal", lognormal, lognormal_d, [0, 1, 2],
         [(y, m, s) for y in pos for m in [0.0, -2.0, 30.0] for s in [0.1, 1.0, 10.0]]
         + [(2.5, m, s) for m in locs for s in scales])
    emit("cauchy", cauchy, cauchy_d, [0, 1, 2], ls)
    emit("logistic", logistic, logistic_d, [0, 1, 2], [p for p in ls if abs(p[0]) < 1e300])
    emit("double_exponential", dexp, dexp_d, [0, 1, 2], [p for p in ls if p[0] != p[1]])
    nus = [1e-10, 0.1, 1.0, 3.0, 7.5, 30.0, 1e3, 1e6, 1e10, 1e15, 1e100]
    emit("student_t", student_t, student_t_d, [0, 1, 2, 3], prec=(1,), pts=
         [(y, nu, 0.0, 1.0) for y in ys for nu in [1.0, 3.0, 1e6]]
         + [(y, nu, 0.7, 2.0) for y in [-3.0, 0.0, 1.5, 40.0, 1e10] for nu in nus]
         + [(1.3, 4.0, m, s) for m in locs for s in scales])
    emit("exponential", expo, expo_d, [0, 1],
         [(y, b) for y in [0.0] + pos for b in [1e-100, 1e-8, 0.5, 1.0, 3.0, 1e8, 1e100]])
    gpts = [(y, a, b) for y in pos for a in [0.5, 1.0, 3.0, 1e3] for b in [1.0, 1e-3]]
    gpts += [(a / b, a, b) for a in shapes for b in [1e-8, 1.0, 1e8]]
    gpts += [(a / b * 1.1, a, b) for a in shapes for b in [1.0]]
    emit("gamma", gamma_, gamma_d, [0, 1, 2], [p for p in gpts if p[0] < 1e307], prec=(1,))
    igpts = [(y, a, b) for y in pos for a in [0.5, 1.0, 3.0, 1e3] for b in [1.0, 1e-3]]
    igpts += [(b / a, a, b) for a in shapes for b in [1e-8, 1.0, 1e8]]
    emit("inv_gamma", inv_gamma, inv_gamma_d, [0, 1, 2], [p for p in igpts if p[0] > 1e-307], prec=(1,))
    emit("weibull", weibull, weibull_d, [0, 1, 2], prec=(1,), pts=
         [(y, a, s) for y in pos if y < 1e200 for a in [0.5, 1.0, 3.0, 30.0] for s in [0.1, 1.0, 10.0]]
         + [(s, a, s) for a in shapes for s in [1e-8, 1.0, 1e8]])
    emit("chi_square", chi2, chi2_d, [0, 1], prec=(1,), pts=
         [(y, nu) for y in pos for nu in [0.5, 1.0, 2.0, 3.0, 30.0, 1e3]]
         + [(nu, nu) for nu in shapes] + [(nu * 1.2, nu) for nu in shapes])
    bpts = [(y, a, b) for y in [1e-300, 1e-10, 0.01, 0.3, 0.5, 0.9, 1 - 1e-10]
            for a in [0.1, 1.0, 2.5, 1e3] for b in [0.5, 3.0, 1e6]]
    bpts += [(a / (a + b), a, b) for a in shapes for b in [1.0, 10.0, 1e6, 1e12]]
    bpts += [(0.25, 1e9, 3e9), (0.5, 1e12, 1e12), (0.5, 1e15, 1e15), (0.3, 1e15, 2e15)]
    emit("beta", beta_, beta_d, [0, 1, 2], [p for p in bpts if 0 < p[0] < 1], prec=(1, 2))
    emit("uniform", uniform, uniform_d, [0, 1, 2],
         [(0.5, 0.0, 1.0), (1e-300, 0.0, 1e-290), (1e100, -1e300, 1e300), (1.0, 1.0 - 1e-10, 1.0),
          (-3.0, -4.0, 2.5)])
    lams = [1e-300, 1e-10, 0.5, 1.0, 7.0, 1e3, 1e8, 1e15]
    counts = [0, 1, 2, 7, 100, 10**6, 10**12]
    emit("poisson", poisson, poisson_d, [1], prec=(0, 1), pts=
         [(n, lam) for n in counts for lam in lams] + [(n, float(n)) for n in counts if n > 0])
    emit("poisson_log", poisson_log, poisson_log_d, [1], prec=(0,), pts=
         [(n, a) for n in counts for a in [-700.0, -20.0, -1.0, 0.0, 2.0, 30.0, 700.0]]
         + [(n, math.log(n)) for n in counts if n > 1])
    emit("neg_binomial_2", nb2, nb2_d, [1, 2], prec=(0, 1, 2), pts=
         [(n, m, p) for n in [0, 1, 7, 1000, 10**9] for m in [1e-8, 0.5, 7.0, 1e6] for p in [1e-8, 0.5, 3.0, 1e6, 1e12]])
    emit("binomial", binom, binom_d, [2], prec=(0, 1), pts=
         [(n, N, t) for (n, N) in [(0, 0), (0, 5), (3, 10), (10, 10), (500, 1000), (10**6, 10**12), (10**12 - 5, 10**12)]
          for t in [1e-300, 1e-10, 0.3, 0.5, 1 - 1e-10]]
         + [(n, N, n / N) for (n, N) in [(3, 10), (500, 1000), (10**6, 10**12), (10**9, 2 * 10**9)]])
    emit("bernoulli", bern, bern_d, [1], [(n, t) for n in [0, 1] for t in [1e-300, 1e-10, 0.3, 0.5, 1 - 1e-10]])
    emit("bernoulli_logit", bern_logit, bern_logit_d, [1],
         [(n, a) for n in [0, 1] for a in [-1e300, -800.0, -40.0, -1.0, 0.0, 1e-10, 2.0, 40.0, 800.0, 1e300]])


FAMILIES = {"elementary": elementary, "binary": binary, "slice": slices, "dist": dists}


def main():
    only = sys.argv[1:] or list(FAMILIES)
    mp.dps = 60
    setup_constants()
    for fam in only:
        lines = Lines(os.path.join(OUT, f"{fam}.csv"))
        FAMILIES[fam](lines)
        lines.close()
        print(f"{fam}: {len(lines)} points", file=sys.stderr)


class Lines(list):
    """The output of a family, written as it grows (a run of the distributions takes
    long enough to want to see it progress)."""

    def __init__(self, path):
        super().__init__()
        self.out = open(path, "w")
        version = __import__("mpmath").__version__
        self.out.write(f"# generated by reference.py (mpmath {version}); do not edit\n")

    def append(self, line):
        super().append(line)
        self.out.write(line + "\n")
        self.out.flush()

    def close(self):
        self.out.close()


if __name__ == "__main__":
    main()
