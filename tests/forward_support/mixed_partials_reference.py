"""Reference values for tests/forward_jet.rs: every mixed partial derivative up to total
order 3 of two-variable functions, by sympy (exact differentiation), evaluated with 30
digits. Run: python3 tests/forward_support/mixed_partials_reference.py
"""
import sympy as sp

x, y = sp.symbols("x y")
cases = {
    # a MESA-style free energy: F(rho, T) = rho^2 T log(rho) + exp(-T / rho)
    "free_energy": (x**2 * y * sp.log(x) + sp.exp(-y / x), (1.7, 0.6)),
    # a rational and trigonometric mix
    "mixed": (sp.exp(x * y) / (x + y**2) + sp.atan2(y, x) * sp.sqrt(x), (0.8, -0.4)),
}
for name, (f, (x0, y0)) in cases.items():
    print(f"// {name} at ({x0}, {y0}): ([i, j], d^(i+j) f / dx^i dy^j)")
    for total in range(4):
        for i in range(total, -1, -1):
            j = total - i
            d = sp.diff(f, x, i, y, j) if (i or j) else f
            v = sp.N(d.subs({x: sp.Float(x0, 30), y: sp.Float(y0, 30)}), 30)
            print(f"([{i}, {j}], {float(v)!r}),")
