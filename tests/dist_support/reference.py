"""Reference values for tests/dist_reference.rs, computed independently with mpmath.

Run: python3 tests/dist_support/reference.py  (mpmath 1.3, 50 significant digits)

Each case is a log density written directly from its textbook formula in mpmath
(mp.loggamma, mp.log, mp.log1p, ...), summed over the elements, and its gradient with
respect to every real argument (flattened in argument order: a scalar gives one entry,
a sequence one per element) by mp.diff at 50 digits. Printed as the nearest f64, in its
shortest round-trip form.
"""
from mpmath import mp, mpf, log, log1p, loggamma, exp, pi, fabs, binomial, diff

mp.dps = 50


def normal(y, mu, s):
    return -log(2 * pi) / 2 - log(s) - ((y - mu) / s) ** 2 / 2


def lognormal(y, mu, s):
    return -log(2 * pi) / 2 - log(s) - log(y) - ((log(y) - mu) / s) ** 2 / 2


def cauchy(y, mu, s):
    return -log(pi) - log(s) - log(1 + ((y - mu) / s) ** 2)


def student_t(y, nu, mu, s):
    return (loggamma((nu + 1) / 2) - loggamma(nu / 2) - log(nu * pi) / 2 - log(s)
            - (nu + 1) / 2 * log(1 + ((y - mu) / s) ** 2 / nu))


def logistic(y, mu, s):
    z = (y - mu) / s
    return -z - 2 * log(1 + exp(-z)) - log(s)


def double_exponential(y, mu, s):
    return -log(2) - log(s) - fabs(y - mu) / s


def exponential(y, b):
    return log(b) - b * y


def gamma(y, a, b):
    return a * log(b) - loggamma(a) + (a - 1) * log(y) - b * y


def inv_gamma(y, a, b):
    return a * log(b) - loggamma(a) - (a + 1) * log(y) - b / y


def weibull(y, a, s):
    return log(a) + (a - 1) * log(y) - a * log(s) - (y / s) ** a


def chi_square(y, nu):
    return -nu / 2 * log(2) - loggamma(nu / 2) + (nu / 2 - 1) * log(y) - y / 2


def beta(y, a, b):
    return (loggamma(a + b) - loggamma(a) - loggamma(b) + (a - 1) * log(y)
            + (b - 1) * log(1 - y))


def uniform(y, a, b):
    return -log(b - a)


def poisson(n, lam):
    return n * log(lam) - lam - loggamma(n + 1) if n > 0 else -lam


def poisson_log(n, a):
    return n * a - exp(a) - loggamma(n + 1)


def neg_binomial_2(n, mu, phi):
    return (loggamma(n + phi) - loggamma(n + 1) - loggamma(phi) + n * log(mu / (mu + phi))
            + phi * log(phi / (mu + phi)))


def binomial_(n, N, theta):
    lp = log(binomial(N, n))
    if n > 0:
        lp += n * log(theta)
    if N - n > 0:
        lp += (N - n) * log1p(-theta)
    return lp


def bernoulli(n, theta):
    return log(theta) if n == 1 else log1p(-theta)


def bernoulli_logit(n, a):
    s = 2 * n - 1
    return -log1p(exp(-s * a))


def lit(x):
    # The nearest f64, in its shortest round-trip form.
    return repr(float(x))


# (name, density, arguments: list of ("real" | "int", value or list)).
CASES = [
    ("normal", normal, [("real", [1.3, -0.4, 2.7]), ("real", 0.5), ("real", 1.2)]),
    ("normal_vec", normal, [("real", [1.3, -0.4, 2.7]), ("real", [0.5, 0.1, -1.0]),
                            ("real", [1.2, 0.7, 2.5])]),
    ("lognormal", lognormal, [("real", [0.5, 2.0, 3.7]), ("real", 0.1), ("real", 0.8)]),
    ("cauchy", cauchy, [("real", [0.3, -2.0, 5.0]), ("real", 0.5), ("real", 1.5)]),
    ("student_t", student_t, [("real", [0.3, -2.0, 5.0]), ("real", 3.5), ("real", 0.5),
                              ("real", 1.5)]),
    ("student_t_vec", student_t, [("real", [0.3, -2.0, 5.0]), ("real", [3.5, 1.0, 30.0]),
                                  ("real", 0.5), ("real", [1.5, 0.5, 2.0])]),
    ("logistic", logistic, [("real", [0.3, -2.0, 5.0]), ("real", 0.5), ("real", 1.5)]),
    ("logistic_tail", logistic, [("real", [800.0, -750.0]), ("real", 0.0), ("real", 1.0)]),
    ("double_exponential", double_exponential, [("real", [0.3, -2.0, 5.0]), ("real", 0.5),
                                                ("real", 1.5)]),
    ("exponential", exponential, [("real", [0.5, 1.5, 0.0]), ("real", 2.0)]),
    ("gamma", gamma, [("real", [0.5, 1.5, 4.0]), ("real", 2.5), ("real", 1.3)]),
    ("gamma_vec", gamma, [("real", [0.5, 1.5, 4.0]), ("real", [2.5, 0.5, 9.0]),
                          ("real", [1.3, 0.2, 3.0])]),
    ("inv_gamma", inv_gamma, [("real", [0.5, 1.5, 4.0]), ("real", 2.5), ("real", 1.3)]),
    ("weibull", weibull, [("real", [0.5, 1.5, 4.0]), ("real", 2.5), ("real", 1.3)]),
    ("chi_square", chi_square, [("real", [0.5, 1.5, 4.0]), ("real", 3.3)]),
    ("beta", beta, [("real", [0.2, 0.5, 0.9]), ("real", 2.5), ("real", 1.3)]),
    ("beta_vec", beta, [("real", [0.2, 0.5, 0.9]), ("real", [2.5, 0.7, 12.0]),
                        ("real", [1.3, 0.9, 4.0])]),
    ("uniform", uniform, [("real", [0.2, 0.5, 0.9]), ("real", -0.5), ("real", 1.25)]),
    ("poisson", poisson, [("int", [0, 3, 7]), ("real", 2.5)]),
    ("poisson_log", poisson_log, [("int", [0, 3, 7]), ("real", 0.9)]),
    ("neg_binomial_2", neg_binomial_2, [("int", [0, 3, 7]), ("real", 2.5), ("real", 1.7)]),
    ("neg_binomial_2_large_phi", neg_binomial_2, [("int", [0, 3, 7]), ("real", 2.5),
                                                  ("real", 1e8)]),
    ("binomial", binomial_, [("int", [0, 3, 10]), ("int", [5, 10, 10]), ("real", 0.35)]),
    ("binomial_large", binomial_, [("int", 500000), ("int", 1000000), ("real", 0.5)]),
    ("bernoulli", bernoulli, [("int", [0, 1, 1]), ("real", 0.35)]),
    ("bernoulli_logit", bernoulli_logit, [("int", [0, 1, 1]),
                                          ("real", [-0.7, 0.3, 40.0])]),
]


def run(name, f, args):
    n = max(len(v) if isinstance(v, list) else 1 for _, v in args)
    # Flatten the real arguments into one vector of parameters.
    slots, x0 = [], []
    for kind, v in args:
        if kind == "real":
            if isinstance(v, list):
                slots.append(list(range(len(x0), len(x0) + len(v))))
                x0 += [mpf(e) for e in v]
            else:
                slots.append(len(x0))
                x0.append(mpf(v))
        else:
            slots.append(v)

    def total(*x):
        acc = 0
        for i in range(n):
            a = []
            for (kind, v), s in zip(args, slots):
                if kind == "int":
                    a.append(v[i] if isinstance(v, list) else v)
                else:
                    a.append(x[s[i]] if isinstance(s, list) else x[s])
            acc += f(*a)
        return acc

    value = total(*x0)
    grad = []
    for j in range(len(x0)):
        def fj(t, j=j):
            x = list(x0)
            x[j] = t
            return total(*x)
        grad.append(diff(fj, x0[j]))
    print(f"// {name}")
    print(f"value: {lit(value)},")
    print("grad: &[" + ", ".join(lit(g) for g in grad) + "],")


for case in CASES:
    run(*case)
