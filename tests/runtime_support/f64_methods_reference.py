"""Reference values for tests/runtime_f64_methods.rs, computed with mpmath.

Run: python3 tests/runtime_support/f64_methods_reference.py  (mpmath 1.3, 50 digits)

log1p_exp(x) = ln(1 + e^x) and its derivative 1/(1 + e^-x); log_sum_exp(a, b) =
ln(e^a + e^b) and its partials e^a/(e^a + e^b), e^b/(e^a + e^b). Inputs are f64 values,
taken exactly; outputs are printed as the nearest f64 (shortest round trip).
"""
from mpmath import mp, mpf, exp, log

mp.dps = 50


def f64(v):
    return repr(float(v))


print("// log1p_exp: (x, value, derivative)")
for x in [-800.0, -40.0, -1.0, -1e-10, 0.0, 1e-10, 0.5, 1.0, 20.0, 40.0, 800.0, 1e300]:
    x = mpf(x)
    print(f"({f64(x)}, {f64(log(1 + exp(x)))}, {f64(1 / (1 + exp(-x)))}),")

print("// log_sum_exp: (a, b, value, d/da, d/db)")
for a, b in [(0.0, 0.0), (1.0, 2.0), (-1000.0, -1001.0), (1000.0, 1000.0),
             (1e16, 1e16), (1e16, 1e16 - 4.0), (-3.0, 40.0), (5.0, -800.0)]:
    a, b = mpf(a), mpf(b)
    m = max(a, b)
    s = exp(a - m) + exp(b - m)
    print(f"({f64(a)}, {f64(b)}, {f64(m + log(s))}, {f64(exp(a - m) / s)}, {f64(exp(b - m) / s)}),")
