"""Prints the coefficient tables of llvm_math_erf.c (run: python3 llvm_math_erf_fit.py).

Each piece is a Chebyshev fit (mpmath.chebyfit, 50 digits) of a smooth function on an
interval mapped to t in [-1, 1], turned into power-basis coefficients in t (lowest first),
with the fewest terms whose error is under 3e-18 relative (a thirtieth of a double's ULP):
  small  erf(x)/x as a function of u = x^2 on [0, 0.5625]      (|x| <= 0.75)
  mid1   erfc(x) exp(x^2) on [0.75, 2]
  mid2   erfc(x) exp(x^2) on [2, 4]
  tail   x erfc(x) exp(x^2) as a function of s = 1/x on [1/27.5, 1/4]
and erf_inv's, erfinv(x) = x F(w) with w = -log(1 - x^2), under 2e-9 relative (a float's
result is then within 0.54 of its ULP, a double's one Halley step from exact):
  central  F(w) on [0, 5]
  tail     F as a function of s = sqrt(w) on [sqrt(5), 6.1]  (6.003: the largest double below 1)
and for the f32 erf_inv, computed in f32 (increments fitted, so that the leading term is
added once, unrounded; relative 4e-9), power basis:
  central  (F(w) - F(0)) / w in w on [0, 5]
  tail     (F(s) - F(s0)) / (s - s0) in v = s - s0 on [s0, 4], s0 = sqrt(5) rounded to a float

the f32 erf's and erfc's, computed in f32 (error in its ULP, not a double's): power-basis
coefficients in v = x - c with c such that x - c is exact over the piece (Sterbenz), the
fewest terms under the given error:
  small  erf(x)/x as a function of u = x^2 on [0, 0.875^2]   relative 1.5e-8 (erfc's)
  erf    erf(x)/x in v = x - c_k on [k/2, (k + 1)/2], k = 0..7, c_0 = 0, c_k = k/2 + 1/4
         (exact for k >= 1), seven terms each: one table, its coefficients picked per lane
  erfc   erfc(x) exp(x^2) in v = x - c on [0.47, 1] (c 0.75), [1, 2] (1.5), [2, 4] (3),
         relative 4e-9, padded with zeros to one length (one table, rows selected per
         lane); and x erfc(x) exp(x^2) as a function of u = 1/x^2 on [0, 1/16] (x >= 4)
"""
import struct

import mpmath as mp

mp.mp.dps = 50
def erf_inv_factor(w):
    """F(w) = erfinv(x) / x for w = -log(1 - x^2)."""
    if w == 0:
        return mp.sqrt(mp.pi) / 2
    x = mp.sqrt(-mp.expm1(-w))
    return mp.erfinv(x) / x


PIECES = [
    ("kErfSmall", lambda u: mp.erf(mp.sqrt(u)) / mp.sqrt(u) if u > 0 else 2 / mp.sqrt(mp.pi),
     mp.mpf(0), mp.mpf("0.5625")),
    ("kErfcMid1", lambda x: mp.erfc(x) * mp.exp(x * x), mp.mpf("0.75"), mp.mpf(2)),
    ("kErfcMid2", lambda x: mp.erfc(x) * mp.exp(x * x), mp.mpf(2), mp.mpf(4)),
    ("kErfcTail", lambda s: mp.erfc(1 / s) * mp.exp(1 / (s * s)) / s, 1 / mp.mpf("27.5"),
     mp.mpf("0.25")),
    ("kErfInvCentral", erf_inv_factor, mp.mpf(0), mp.mpf(5), 2e-9),
    ("kErfInvTail", lambda s: erf_inv_factor(s * s), mp.sqrt(5), mp.mpf("6.1"), 2e-9),
]


def fit(f, a, b, tol=3e-18):
    mid, half = (a + b) / 2, (b - a) / 2
    smallest = min(abs(f(a)), abs(f(b)))
    for n in range(3, 40):
        poly, err = mp.chebyfit(lambda t: f(mid + half * t), [-1, 1], n, error=True)
        if err / smallest < tol:
            return list(reversed(poly)), mid, half, err / smallest
    raise ValueError("no fit")


for name, f, a, b, *tol in PIECES:
    coef, mid, half, rel = fit(f, a, b, *tol)
    print(f"/* {name}: t = (v - {mp.nstr(mid, 17)}) / {mp.nstr(half, 17)}; relative error "
          f"{mp.nstr(rel, 2)} */")
    print(f"static const double {name}[{len(coef)}] = {{")
    print("    " + ",\n    ".join(f"{float(c)!r}" for c in coef) + "};")
    print(f"static const double {name}Mid = {float(mid)!r}, {name}Half = {float(half)!r};")


PIECES32 = [
    ("kErf32Small", "u = x^2", PIECES[0][1], mp.mpf(0), mp.mpf("0.875") ** 2, 0, mp.mpf("1.5e-8"), True),
]


def fit_shifted(f, a, b, c, tol, relative, terms=None):
    """Coefficients (lowest first) of a polynomial in v = x - c fitting f on [a, b]: the
    fewest terms under tol, or exactly `terms`."""
    mid, half = (a + b) / 2 - c, (b - a) / 2
    scale = min(abs(f(a)), abs(f(b))) if relative else 1
    for n in [terms] if terms else range(3, 30):
        poly, err = mp.chebyfit(lambda t: f(c + mid + half * t), [-1, 1], n, error=True)
        if terms or err / scale < tol:
            break
    else:
        raise ValueError("no fit")
    coef = [mp.mpf(0)] * n
    for k, ck in enumerate(reversed(poly)):  # ck ((v - mid) / half)^k, expanded in v
        for j in range(k + 1):
            coef[j] += ck * mp.binomial(k, j) * (-mid) ** (k - j) / half**k
    return coef, err / scale


S0 = mp.mpf(struct.unpack("f", struct.pack("f", float(mp.sqrt(5))))[0])  # sqrt(5) as a float
F_OF_S = lambda x: erf_inv_factor(x * x)
PIECES32 += [
    ("kErfInv32Central", "w", lambda w: (erf_inv_factor(w) - erf_inv_factor(0)) / w if w else mp.sqrt(mp.pi) / 2 * mp.pi / 12,
     mp.mpf(0), mp.mpf(5), 0, mp.mpf("4e-9"), True),
    ("kErfInv32Tail", "v = s - s0", lambda x: (F_OF_S(x) - F_OF_S(S0)) / (x - S0) if x != S0 else mp.diff(F_OF_S, S0),
     S0, mp.mpf(4), S0, mp.mpf("4e-9"), True),
]

for name, var, f, a, b, c, tol, relative in PIECES32:
    coef, err = fit_shifted(f, a, b, c, tol, relative)
    kind = "relative" if relative else "absolute"
    print(f"/* {name}: {var} on [{mp.nstr(a, 6)}, {mp.nstr(b, 6)}]; {kind} error {mp.nstr(err, 2)} */")
    print(f"static const double {name}[{len(coef)}] = {{")
    print("    " + ",\n    ".join(f"{float(x)!r}" for x in coef) + "};")


ERF_OVER_X = PIECES[0][1]
erf_rows = []
for k in range(8):
    a, b = mp.mpf(k) / 2, mp.mpf(k + 1) / 2
    c = a + mp.mpf(1) / 4 if k else mp.mpf(0)
    erf_rows.append((c, *fit_shifted(lambda x: ERF_OVER_X(x * x), a, b, c, 0, True, terms=7)))
print("/* kErf32Table[j][k]: coefficient j of erf(x)/x in v = x - kErf32Center[k] on [k/2, (k + 1)/2];")
print(f" * relative errors {', '.join(mp.nstr(err, 2) for _, _, err in erf_rows)} */")
print("static const double kErf32Table[7][8] = {")
print(",\n".join("    {" + ", ".join(f"{float(coef[j])!r}" for _, coef, _ in erf_rows) + "}" for j in range(7)) + "};")
print("static const double kErf32Center[8] = {" + ", ".join(f"{float(c)!r}" for c, _, _ in erf_rows) + "};")
G = PIECES[1][1]
ERFC32_MID = [(mp.mpf("0.47"), mp.mpf(1), mp.mpf("0.75")), (mp.mpf(1), mp.mpf(2), mp.mpf("1.5")),
              (mp.mpf(2), mp.mpf(4), mp.mpf(3))]
rows = [fit_shifted(G, a, b, c, mp.mpf("4e-9"), True) for a, b, c in ERFC32_MID]
width = max(len(coef) for coef, _ in rows)
print(f"/* kErfc32Mid: erfc(x) exp(x^2) in v = x - kErfc32Center[i] on [0.47, 1], [1, 2], [2, 4];")
print(f" * relative errors {', '.join(mp.nstr(err, 2) for _, err in rows)} */")
print(f"static const double kErfc32Mid[3][{width}] = {{")
print(",\n".join("    {" + ", ".join(f"{float(x)!r}" for x in coef + [mp.mpf(0)] * (width - len(coef))) + "}"
                 for coef, _ in rows) + "};")
print("static const double kErfc32Center[3] = {" + ", ".join(f"{float(c)!r}" for _, _, c in ERFC32_MID) + "};")
H = lambda u: mp.erfc(1 / mp.sqrt(u)) * mp.exp(1 / u) / mp.sqrt(u) if u > 0 else 1 / mp.sqrt(mp.pi)
coef, err = fit_shifted(H, mp.mpf(0), mp.mpf(1) / 16, mp.mpf(0), mp.mpf("4e-9"), True)
print(f"/* kErfc32Tail: x erfc(x) exp(x^2) in u = 1/x^2 on [0, 1/16]; relative error {mp.nstr(err, 2)} */")
print(f"static const double kErfc32Tail[{len(coef)}] = {{")
print("    " + ",\n    ".join(f"{float(x)!r}" for x in coef) + "};")
print(f"static const double kErfInv32Base = {float(erf_inv_factor(0))!r}, kErfInv32TailBase = {float(F_OF_S(S0))!r},")
print(f"                    kErfInv32S0 = {float(S0)!r};")
