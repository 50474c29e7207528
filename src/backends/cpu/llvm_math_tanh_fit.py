"""Prints kTanhP32 of llvm_math_exp.c (run: python3 llvm_math_tanh_fit.py).

f32 tanh(a) = a + a^3 P(a^2) for 0 <= a <= 0.6: P is a Chebyshev fit (mpmath.chebyfit, 50
digits) of g(u) = (tanh(sqrt u) - sqrt u) / u^1.5 on u in [0, 0.36], turned into power-basis
coefficients in u (lowest first), with the fewest terms whose error is under 1e-8 (tanh's
relative error, u times P's error, is then under 3.6e-9: 0.06 of an f32 ULP).
"""
import mpmath as mp

mp.mp.dps = 50
LO, HI = mp.mpf(0), mp.mpf("0.36")


def g(u):
    if u == 0:
        return mp.mpf(-1) / 3
    s = mp.sqrt(u)
    return (mp.tanh(s) - s) / (u * s)


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


mid, half = (LO + HI) / 2, (HI - LO) / 2
for n in range(3, 20):
    poly, err = mp.chebyfit(lambda t: g(mid + half * t), [-1, 1], n, error=True)
    if err < 1e-8:
        break
coeffs = power_basis(poly, mid, half)
print(f"/* {len(coeffs)} terms, fit error {mp.nstr(err, 3)} */")
print("static const double kTanhP32[] = {" + ", ".join(mp.nstr(c, 17) for c in coeffs) + "};")
