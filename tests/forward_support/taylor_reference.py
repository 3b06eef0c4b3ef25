"""Reference derivatives of order 0..6 of fazang's unary functions, and of a few binary
functions and densities along one argument, by mpmath at 50 digits (mpmath.diff of the
exact function). Run: python3 tests/forward_support/taylor_reference.py > values.txt
"""
from mpmath import mp, mpf, diff, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh
from mpmath import asinh, acosh, atanh, exp, log, sqrt, cbrt, erf, erfc, loggamma, digamma
from mpmath import atan2, hypot, pi

mp.dps = 50
K = 6

unary = [
    ("sin", sin, 0.35), ("cos", cos, 0.35), ("tan", tan, 0.35), ("asin", asin, 0.35),
    ("acos", acos, 0.35), ("atan", atan, 0.35), ("sinh", sinh, 0.35), ("cosh", cosh, 0.35),
    ("tanh", tanh, 0.35), ("asinh", asinh, 0.35), ("acosh", acosh, 1.35),
    ("atanh", atanh, 0.35), ("exp", exp, 0.35), ("exp2", lambda x: 2**x, 0.35),
    ("exp_m1", lambda x: exp(x) - 1, 0.35), ("ln", log, 1.35),
    ("log10", lambda x: log(x, 10), 1.35), ("log2", lambda x: log(x, 2), 1.35),
    ("ln_1p", lambda x: log(1 + x), 0.35), ("sqrt", sqrt, 1.35), ("cbrt", cbrt, 1.35),
    ("recip", lambda x: 1 / x, 1.35), ("erf", erf, 0.35), ("erfc", erfc, 0.35),
    ("log_gamma", loggamma, 1.35), ("digamma", digamma, 1.35),
    ("square", lambda x: x * x, 0.35), ("inv", lambda x: 1 / x, 1.35),
    ("inv_square", lambda x: 1 / (x * x), 1.35), ("inv_sqrt", lambda x: 1 / sqrt(x), 1.35),
    ("logit", lambda x: log(x / (1 - x)), 0.35),
    ("inv_logit", lambda x: 1 / (1 + exp(-x)), 0.35),
    ("log1p_exp", lambda x: log(1 + exp(x)), 0.35),
]
binary = [
    ("atan2(t, 0.7)", lambda t: atan2(t, mpf("0.7")), 0.35),
    ("atan2(0.7, t)", lambda t: atan2(mpf("0.7"), t), 0.35),
    ("powf(t, 2.5)", lambda t: t ** mpf("2.5"), 1.35),
    ("powf(1.3, t)", lambda t: mpf("1.3") ** t, 0.35),
    ("powf(t, t)", lambda t: t ** t, 1.35),
    ("hypot(t, 0.3)", lambda t: hypot(t, mpf("0.3")), 0.35),
    ("log(t, 3)", lambda t: log(t, 3), 1.35),
    ("log(3, t)", lambda t: log(3, t), 1.35),
    ("log_sum_exp(t, 0.2)", lambda t: log(exp(t) + exp(mpf("0.2"))), 0.35),
    ("normal_lpdf(1.3, t, 0.8)", lambda t: -log(mpf("0.8")) - log(2 * pi) / 2 - ((mpf("1.3") - t) / mpf("0.8")) ** 2 / 2, 0.35),
    ("normal_lpdf(1.3, 0.4, t)", lambda t: -log(t) - log(2 * pi) / 2 - ((mpf("1.3") - mpf("0.4")) / t) ** 2 / 2, 1.35),
    ("gamma_lpdf(2.0, t, 0.8)", lambda t: t * log(mpf("0.8")) - loggamma(t) + (t - 1) * log(mpf(2)) - mpf("0.8") * 2, 1.35),
    ("student_t_lpdf(0.3, t, 0.5, 1.2)", lambda t: loggamma((t + 1) / 2) - loggamma(t / 2) - log(t * pi) / 2 - log(mpf("1.2")) - (t + 1) / 2 * log(1 + ((mpf("0.3") - mpf("0.5")) / mpf("1.2")) ** 2 / t), 1.35),
]

for name, f, x in unary + binary:
    x = mpf(str(x))
    vals = [float(diff(f, x, k)) for k in range(K + 1)]
    print(f'    ("{name}", {float(x)!r}, {vals!r}),')
