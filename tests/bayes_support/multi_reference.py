"""Reference values for tests/bayes_multi_reference.rs: the multivariate densities.

Run: python3 tests/bayes_support/multi_reference.py > tests/bayes_support/multi.csv
(mpmath 1.3, 40 significant digits; SciPy 1.17 for the cross-checks)

Each case is a log density written from its textbook formula in mpmath (determinants,
inverses and traces of mp.matrix at 40 digits), and its gradient with respect to every
real input, flattened in argument order (matrices row by row), by mp.diff. A symmetric
matrix argument A enters as (A + A^T)/2, fazang's convention, so the partial of each
entry is its own. Every value is also checked against SciPy's implementation of the same
density where SciPy has one (multivariate normal and t, Dirichlet, Wishart, inverse
Wishart, multinomial), and the LKJ normalising constant against numerical integration for
K = 2, so the formulas below are not the only truth.

Output: one line per case, `;`-separated: function, case name, sizes (n k), integer
inputs, real inputs, value, gradient (numbers space-separated, shortest round-trip f64).
"""
from mpmath import mp, mpf, matrix, log, loggamma, pi, det, diff, quad, beta as mbeta
import numpy as np
from scipy import stats

mp.dps = 40


def f64(x):
    return repr(float(x))


def sym(a, k):
    """(A + A^T)/2 of a flat row-major k x k list."""
    m = matrix(k, k)
    for i in range(k):
        for j in range(k):
            m[i, j] = (a[i * k + j] + a[j * k + i]) / 2
    return m


def mat(a, k):
    m = matrix(k, k)
    for i in range(k):
        for j in range(k):
            m[i, j] = a[i * k + j]
    return m


def mvn_one(y, mu, s_inv, logdet, k):
    r = matrix([y[j] - mu[j] for j in range(k)])
    q = (r.T * s_inv * r)[0, 0]
    return -k / mpf(2) * log(2 * pi) - logdet / 2 - q / 2


def rows(x, n, k):
    return [x[i * k:(i + 1) * k] for i in range(n)]


def multi_normal(x, n, k, mu_rows):
    ys = rows(x, n, k)
    off = n * k
    mus = rows(x[off:], n, k) if mu_rows else [x[off:off + k]] * n
    off += (n if mu_rows else 1) * k
    s = sym(x[off:off + k * k], k)
    s_inv, logdet = s ** -1, log(det(s))
    return sum(mvn_one(ys[i], mus[i], s_inv, logdet, k) for i in range(n))


def multi_normal_cholesky(x, n, k, mu_rows):
    ys = rows(x, n, k)
    off = n * k
    mus = rows(x[off:], n, k) if mu_rows else [x[off:off + k]] * n
    off += (n if mu_rows else 1) * k
    l = matrix(k, k)
    for i in range(k):
        for j in range(i + 1):
            l[i, j] = x[off + i * k + j]
    s = l * l.T
    s_inv, logdet = s ** -1, log(det(s))
    return sum(mvn_one(ys[i], mus[i], s_inv, logdet, k) for i in range(n))


def multi_normal_prec(x, n, k):
    ys = rows(x, n, k)
    mu = x[n * k:n * k + k]
    om = sym(x[n * k + k:], k)
    return sum(mvn_one(ys[i], mu, om, -log(det(om)), k) for i in range(n))


def multi_student_t(x, n, k):
    ys = rows(x, n, k)
    nu = x[n * k]
    mu = x[n * k + 1:n * k + 1 + k]
    s = sym(x[n * k + 1 + k:], k)
    s_inv, logdet = s ** -1, log(det(s))
    total = 0
    for y in ys:
        r = matrix([y[j] - mu[j] for j in range(k)])
        q = (r.T * s_inv * r)[0, 0]
        total += (loggamma((nu + k) / 2) - loggamma(nu / 2) - k / mpf(2) * log(nu * pi)
                  - logdet / 2 - (nu + k) / 2 * log(1 + q / nu))
    return total


def lkj_log_normaliser(eta, k):
    """ln c_K(eta) of Lewandowski, Kurowicka and Joe (2009), the density being
    det(Omega)^(eta - 1) / c_K."""
    c = 0
    for i in range(1, k):
        b = eta + mpf(k - i - 1) / 2
        c += (2 * eta - 2 + k - i) * (k - i) * log(2) + (k - i) * log(mbeta(b, b))
    return c


def lkj_corr(x, k):
    om = sym(x[:k * k], k)
    eta = x[k * k]
    return -lkj_log_normaliser(eta, k) + (eta - 1) * log(det(om))


def lkj_corr_cholesky_formula(x, k):
    """Stan's density of L: the LKJ density of L L^T times the Jacobian of L -> Omega,
    as a function of the diagonal of L (the form fazang differentiates)."""
    eta = x[k * k]
    v = -lkj_log_normaliser(eta, k)
    for j in range(1, k):
        v += (k - j - 1 + 2 * eta - 2) * log(x[j * k + j])
    return v


def lkj_corr_cholesky_value_by_jacobian(x, k):
    """The same value, independently: lkj_corr(L L^T) + ln |det d(Omega strict lower) /
    d(L strict lower)|, the Jacobian by mp.diff with each diagonal of L determined by its
    row's unit length."""
    idx = [(i, j) for i in range(1, k) for j in range(i)]

    def omega_lower(vals):
        l = matrix(k, k)
        for (i, j), v in zip(idx, vals):
            l[i, j] = v
        for i in range(k):
            l[i, i] = mp.sqrt(1 - sum(l[i, j] ** 2 for j in range(i)))
        om = l * l.T
        return [om[i, j] for (i, j) in idx]

    point = [x[i * k + j] for (i, j) in idx]
    jac = matrix(len(idx), len(idx))
    for a in range(len(idx)):
        for b in range(len(idx)):
            def f(t, a=a, b=b):
                p = list(point)
                p[b] = t
                return omega_lower(p)[a]
            jac[a, b] = diff(f, point[b])
    l = mat(x[:k * k], k)
    om = l * l.T
    flat = [om[i, j] for i in range(k) for j in range(k)]
    return lkj_corr(flat + [x[k * k]], k) + log(abs(det(jac)))


def dirichlet(x, k):
    theta, alpha = x[:k], x[k:]
    return (loggamma(sum(alpha)) - sum(loggamma(a) for a in alpha)
            + sum((a - 1) * log(t) for a, t in zip(alpha, theta)))


def lmgamma(k, a):
    return k * (k - 1) / mpf(4) * log(pi) + sum(loggamma(a + mpf(1 - j) / 2) for j in range(1, k + 1))


def wishart(x, k):
    w, nu, s = sym(x[:k * k], k), x[k * k], sym(x[k * k + 1:], k)
    return (-nu * k / 2 * log(2) - lmgamma(k, nu / 2) - nu / 2 * log(det(s))
            + (nu - k - 1) / 2 * log(det(w)) - sum((s ** -1 * w)[i, i] for i in range(k)) / 2)


def inv_wishart(x, k):
    w, nu, s = sym(x[:k * k], k), x[k * k], sym(x[k * k + 1:], k)
    return (nu / 2 * log(det(s)) - nu * k / 2 * log(2) - lmgamma(k, nu / 2)
            - (nu + k + 1) / 2 * log(det(w)) - sum((s * w ** -1)[i, i] for i in range(k)) / 2)


def multinomial(x, ns):
    return (loggamma(1 + sum(ns)) - sum(loggamma(n + 1) for n in ns)
            + sum(n * log(t) for n, t in zip(ns, x) if n > 0))


def categorical(x, ns):
    return sum(log(x[n - 1]) for n in ns)


def categorical_logit(x, ns):
    lse = log(sum(mp.exp(b) for b in x))
    return sum(x[n - 1] - lse for n in ns)


def gradient(f, x):
    out = []
    for i in range(len(x)):
        def g(t, i=i):
            y = list(x)
            y[i] = t
            return f(y)
        out.append(diff(g, x[i]))
    return out


def spd(k, seed, scale=1.0):
    """A well-conditioned symmetric positive definite matrix (flat), from a seed."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(k, k))
    m = a @ a.T / k + np.eye(k) * scale
    return [float(v) for v in m.flatten()]


def corr(k, seed):
    m = np.array(spd(k, seed)).reshape(k, k)
    d = np.sqrt(np.diag(m))
    return [float(v) for v in (m / np.outer(d, d)).flatten()]


def chol(m, k):
    return [float(v) for v in np.linalg.cholesky(np.array(m).reshape(k, k)).flatten()]


def emit(function, case, n, k, ints, x, f):
    xs = [mpf(v) for v in x]
    value = f(xs)
    grad = gradient(f, xs)
    print(";".join([function, case, f"{n} {k}", " ".join(map(str, ints)),
                    " ".join(f64(v) for v in x), f64(value), " ".join(f64(g) for g in grad)]))
    return float(value)


def close(a, b, what):
    assert abs(a - b) <= 1e-9 * max(1.0, abs(b)), (what, a, b)


def main():
    rng = np.random.default_rng(2024)
    # multivariate normal, two observations as rows, one mean
    k, n = 3, 2
    y = [float(v) for v in rng.normal(size=n * k)]
    mu = [0.3, -0.5, 1.1]
    s = spd(k, 1)
    v = emit("multi_normal_lpdf", "rows", n, k, [], y + mu + s,
             lambda x: multi_normal(x, n, k, False))
    sp = sum(stats.multivariate_normal.logpdf(y[i * k:(i + 1) * k], mu, np.array(s).reshape(k, k))
             for i in range(n))
    close(v, sp, "multi_normal vs scipy")
    # one observation, vectors
    s2 = spd(2, 2)
    v = emit("multi_normal_lpdf", "vector", 1, 2, [], [0.4, -1.3] + [0.1, 0.2] + s2,
             lambda x: multi_normal(x, 1, 2, False))
    close(v, stats.multivariate_normal.logpdf([0.4, -1.3], [0.1, 0.2], np.array(s2).reshape(2, 2)),
          "multi_normal vector vs scipy")
    # Cholesky parameterisation, means as rows too
    l = chol(spd(k, 3), k)
    mus = [float(v) for v in rng.normal(size=n * k)]
    v = emit("multi_normal_cholesky_lpdf", "rows", n, k, [], y + mus + l,
             lambda x: multi_normal_cholesky(x, n, k, True))
    lm = np.array(l).reshape(k, k)
    sp = sum(stats.multivariate_normal.logpdf(y[i * k:(i + 1) * k], mus[i * k:(i + 1) * k], lm @ lm.T)
             for i in range(n))
    close(v, sp, "multi_normal_cholesky vs scipy")
    # precision parameterisation
    om = spd(k, 4)
    v = emit("multi_normal_prec_lpdf", "vector", 1, k, [], y[:k] + mu + om,
             lambda x: multi_normal_prec(x, 1, k))
    close(v, stats.multivariate_normal.logpdf(y[:k], mu, np.linalg.inv(np.array(om).reshape(k, k))),
          "multi_normal_prec vs scipy")
    # multivariate Student's t
    v = emit("multi_student_t_lpdf", "rows", n, k, [], y + [4.5] + mu + s,
             lambda x: multi_student_t(x, n, k))
    sp = sum(stats.multivariate_t.logpdf(y[i * k:(i + 1) * k], mu, np.array(s).reshape(k, k), df=4.5)
             for i in range(n))
    close(v, sp, "multi_student_t vs scipy")
    # LKJ
    for kk, eta, seed in [(3, 2.5, 5), (4, 0.7, 6)]:
        emit("lkj_corr_lpdf", f"k{kk}", 1, kk, [], corr(kk, seed) + [eta],
             lambda x, kk=kk: lkj_corr(x, kk))
    for kk, eta, seed in [(3, 1.5, 7), (4, 1.0, 8)]:
        x = chol(corr(kk, seed), kk) + [eta]
        v = emit("lkj_corr_cholesky_lpdf", f"k{kk}", 1, kk, [], x,
                 lambda x, kk=kk: lkj_corr_cholesky_formula(x, kk))
        close(v, float(lkj_corr_cholesky_value_by_jacobian([mpf(t) for t in x], kk)),
              "lkj_corr_cholesky vs Jacobian")
    # the LKJ normaliser for K = 2 against the integral of (1 - r^2)^(eta - 1)
    for eta in [mpf("0.7"), mpf("2.5")]:
        integral = quad(lambda r: (1 - r * r) ** (eta - 1), [-1, 1])
        close(float(lkj_log_normaliser(eta, 2)), float(log(integral)), "LKJ normaliser")
    # Dirichlet
    theta, alpha = [0.1, 0.2, 0.3, 0.4], [0.8, 2.0, 3.5, 1.0]
    v = emit("dirichlet_lpdf", "vector", 1, 4, [], theta + alpha, lambda x: dirichlet(x, 4))
    close(v, stats.dirichlet.logpdf(theta, alpha), "dirichlet vs scipy")
    # Wishart and inverse Wishart
    w, sc = spd(k, 9, 2.0), spd(k, 10)
    v = emit("wishart_lpdf", "k3", 1, k, [], w + [5.5] + sc, lambda x: wishart(x, k))
    close(v, stats.wishart.logpdf(np.array(w).reshape(k, k), df=5.5, scale=np.array(sc).reshape(k, k)),
          "wishart vs scipy")
    v = emit("inv_wishart_lpdf", "k3", 1, k, [], w + [6.2] + sc, lambda x: inv_wishart(x, k))
    close(v, stats.invwishart.logpdf(np.array(w).reshape(k, k), df=6.2, scale=np.array(sc).reshape(k, k)),
          "inv_wishart vs scipy")
    # counts and outcomes
    ns = [3, 0, 5, 2]
    v = emit("multinomial_lpmf", "k4", 1, 4, ns, theta, lambda x: multinomial(x, ns))
    close(v, stats.multinomial.logpmf(ns, sum(ns), theta), "multinomial vs scipy")
    outcomes = [1, 4, 4, 2, 3, 4]
    emit("categorical_lpmf", "k4", 1, 4, outcomes, theta, lambda x: categorical(x, outcomes))
    emit("categorical_logit_lpmf", "k4", 1, 4, outcomes, [0.5, -1.0, 2.0, 0.0],
         lambda x: categorical_logit(x, outcomes))


if __name__ == "__main__":
    main()
