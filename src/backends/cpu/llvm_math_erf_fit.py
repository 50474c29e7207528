"""Prints the coefficient tables of llvm_math_erf.c (run: python3 llvm_math_erf_fit.py).

Each piece is a Chebyshev fit (mpmath.chebyfit, 50 digits) of a smooth function on an
interval mapped to t in [-1, 1], turned into power-basis coefficients in t (lowest first),
with the fewest terms whose error is under 3e-18 relative (a thirtieth of a double's ULP):
  small  erf(x)/x as a function of u = x^2 on [0, 0.5625]      (|x| <= 0.75)
  mid1   erfc(x) exp(x^2) on [0.75, 2]
  mid2   erfc(x) exp(x^2) on [2, 4]
  tail   x erfc(x) exp(x^2) as a function of s = 1/x on [1/27.5, 1/4]
"""
import mpmath as mp

mp.mp.dps = 50
PIECES = [
    ("kErfSmall", lambda u: mp.erf(mp.sqrt(u)) / mp.sqrt(u) if u > 0 else 2 / mp.sqrt(mp.pi),
     mp.mpf(0), mp.mpf("0.5625")),
    ("kErfcMid1", lambda x: mp.erfc(x) * mp.exp(x * x), mp.mpf("0.75"), mp.mpf(2)),
    ("kErfcMid2", lambda x: mp.erfc(x) * mp.exp(x * x), mp.mpf(2), mp.mpf(4)),
    ("kErfcTail", lambda s: mp.erfc(1 / s) * mp.exp(1 / (s * s)) / s, 1 / mp.mpf("27.5"),
     mp.mpf("0.25")),
]


def fit(f, a, b):
    mid, half = (a + b) / 2, (b - a) / 2
    smallest = min(abs(f(a)), abs(f(b)))
    for n in range(6, 40):
        poly, err = mp.chebyfit(lambda t: f(mid + half * t), [-1, 1], n, error=True)
        if err / smallest < 3e-18:
            return list(reversed(poly)), mid, half, err / smallest
    raise ValueError("no fit")


for name, f, a, b in PIECES:
    coef, mid, half, rel = fit(f, a, b)
    print(f"/* {name}: t = (v - {mp.nstr(mid, 17)}) / {mp.nstr(half, 17)}; relative error "
          f"{mp.nstr(rel, 2)} */")
    print(f"static const double {name}[{len(coef)}] = {{")
    print("    " + ",\n    ".join(f"{float(c)!r}" for c in coef) + "};")
    print(f"static const double {name}Mid = {float(mid)!r}, {name}Half = {float(half)!r};")
