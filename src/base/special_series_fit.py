"""Prints the tables of special_series.h (run: python3 special_series_fit.py; needs mpmath).

digamma: its positive zero x0 (as hi + lo, and hi - 1) and psi^(n)(x0) / n! for n = 1..40.
lgamma: the Taylor coefficients of lgamma(2 + t), c_1 = 1 - Euler's gamma and
c_k = (-1)^k (zeta(k) - 1) / k, with the fewest terms under 2e-18 relative at |t| = 0.5.
For each, the fewest terms within 2^-34 relative (the *_F32 counts: a float's result).
zeta: B_2j / (2j)! for j = 1..12 (the header writes them as exact fractions).
"""
import mpmath as mp

mp.mp.dps = 60


def hexf(v):
    return float(v).hex()


x0 = mp.findroot(mp.digamma, 1.46)
hi = float(x0)
print("digamma x0:", hexf(hi), hexf(x0 - mp.mpf(hi)), hexf(hi - 1))
dig = [mp.polygamma(n, x0) / mp.factorial(n) for n in range(1, 41)]
print("digamma taylor:", ", ".join(hexf(c) for c in dig))


def fewest(c, f, ts, tol):
    for n in range(2, len(c) + 1):
        if max(abs(1 - sum(cc * t ** (i + 1) for i, cc in enumerate(c[:n])) / f(t)) for t in ts) < tol:
            return n


print("digamma terms for f32:", fewest(dig, lambda t: mp.digamma(x0 + t), (1 - x0, 2 - x0), mp.mpf(2) ** -34))

lg = [1 - mp.euler] + [(-1) ** k * (mp.zeta(k) - 1) / k for k in range(2, 60)]
for n in range(10, 60):
    err = max(abs(1 - sum(c * t ** (i + 1) for i, c in enumerate(lg[:n])) / mp.log(mp.gamma(2 + t)))
              for t in (mp.mpf(-0.5), mp.mpf(0.5)))
    if err < 2e-18:
        break
print(f"lgamma taylor2 ({n} terms, {float(err):.2g} relative):", ", ".join(hexf(c) for c in lg[:n]))
print("lgamma terms for f32:", fewest(lg, lambda t: mp.log(mp.gamma(2 + t)), (mp.mpf(-0.5), mp.mpf(0.5)), mp.mpf(2) ** -34))
print("zeta bernoulli:", ", ".join(str(mp.bernfrac(2 * j)[0]) + "/" + str(mp.bernfrac(2 * j)[1] * int(mp.factorial(2 * j)))
                                   for j in range(1, 13)))
