"""Prints kTanhP32 and kSinhP32 of llvm_math_exp.c (run: python3 llvm_math_hyperbolic_fit.py).

f32 f(a) = a + a^3 P(a^2) for 0 <= a <= A (tanh: A = 0.6; sinh: A = 1): P is a Chebyshev
fit (mpmath.chebyfit, 50 digits) of g(u) = (f(sqrt u) - sqrt u) / u^1.5 on u in [0, A^2],
turned into power-basis coefficients in u (lowest first), with the fewest terms whose error
is under 1e-8 (f's relative error, about u |P| / (1 + u |P|) times P's relative error, is
then a small fraction of an f32 ULP).
"""
import mpmath as mp

mp.mp.dps = 50


def odd_part(f, first):
    """u -> (f(sqrt u) - sqrt u) / u^1.5, with its limit `first` at 0."""
    def g(u):
        if u == 0:
            return mp.mpf(first)
        s = mp.sqrt(u)
        return (f(s) - s) / (u * s)
    return g


def power_basis(cheb_poly, mid, half):
    """Coefficients in u (lowest first) of p((u - mid) / half), p given highest first."""
    out = []
    for c in cheb_poly:  # Horner in t = (u - mid) / half: out = out * t + c
        shifted = [mp.mpf(0)] + [x / half for x in out]
        for i, x in enumerate(out):
            shifted[i] -= x * mid / half
        shifted[0] += c
        out = shifted
    return out


FITS = [
    ("kTanhP32", odd_part(mp.tanh, mp.mpf(-1) / 3), mp.mpf("0.36")),
    ("kSinhP32", odd_part(mp.sinh, mp.mpf(1) / 6), mp.mpf(1)),
]

for name, g, hi in FITS:
    mid, half = hi / 2, hi / 2
    for n in range(3, 20):
        poly, err = mp.chebyfit(lambda t: g(mid + half * t), [-1, 1], n, error=True)
        if err < 1e-8:
            break
    coeffs = power_basis(poly, mid, half)
    print(f"/* {name}: {len(coeffs)} terms, fit error {mp.nstr(err, 3)} */")
    print(f"static const double {name}[] = {{" + ", ".join(mp.nstr(c, 17) for c in coeffs) + "};")
