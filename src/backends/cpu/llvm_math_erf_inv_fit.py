"""Prints the coefficient tables of llvm_math_erf.c's erf_inv (run: python3
llvm_math_erf_inv_fit.py).

erfinv(x) = x F(w) with w = -log(1 - x^2) (Giles' variable): F is fitted (mpmath.chebyfit,
50 digits, power-basis coefficients in t in [-1, 1], lowest first) by two pieces, with the
fewest terms under 2e-9 relative (a float's result is then within 0.54 of its ULP, a double's
is one Halley step from exact):
  central  F(w) on w in [0, 5]                      t = (w - 2.5) / 2.5
  tail     F as a function of s = sqrt(w) on [sqrt(5), 6.1]    (6.003: the largest double below 1)
"""
import mpmath as mp

mp.mp.dps = 50


def f_of_w(w):
    if w == 0:
        return mp.sqrt(mp.pi) / 2
    x = mp.sqrt(-mp.expm1(-w))
    return mp.erfinv(x) / x


PIECES = [
    ("kErfInvCentral", f_of_w, mp.mpf(0), mp.mpf(5)),
    ("kErfInvTail", lambda s: f_of_w(s * s), mp.sqrt(5), mp.mpf("6.1")),
]


def fit(f, a, b, tol=2e-9):
    mid, half = (a + b) / 2, (b - a) / 2
    smallest = min(abs(f(a)), abs(f(b)))
    for n in range(3, 40):
        poly, err = mp.chebyfit(lambda t: f(mid + half * t), [-1, 1], n, error=True)
        if err / smallest < tol:
            return list(reversed(poly)), mid, half, err / smallest
    raise ValueError("no fit")


for name, f, a, b in PIECES:
    coef, mid, half, rel = fit(f, a, b)
    print(f"/* {name}: t = (v - {mp.nstr(mid, 17)}) / {mp.nstr(half, 17)}; relative error {mp.nstr(rel, 2)} */")
    print(f"static const double {name}[{len(coef)}] = {{")
    print("    " + ",\n    ".join(f"{float(c)!r}" for c in coef) + "};")
    print(f"static const double {name}Mid = {float(mid)!r}, {name}Half = {float(half)!r};")
