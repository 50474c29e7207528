/* Series coefficients shared by the interpreter's scalar kernels (backends/interp) and the
 * cpu backend's vectorised math (backends/cpu/llvm_math_gamma.c, llvm_math_zeta.c), so that
 * both compute digamma, lgamma and the Hurwitz zeta from the same numbers. Printed by special_series_fit.py (mpmath, 60
 * digits); each coefficient is the double nearest the exact value.
 *
 * Constant data only (internal linkage in each includer): no ownership, thread-safe. */
#ifndef KILN_BASE_SPECIAL_SERIES_H
#define KILN_BASE_SPECIAL_SERIES_H

/* digamma's positive zero x0 = X0_HI + X0_LO, and X0_HI - 1 (exact). */
#define KILN_DIGAMMA_X0_HI 0x1.762d86356be3fp+0
#define KILN_DIGAMMA_X0_LO 0x1.b86a722197829p-54
#define KILN_DIGAMMA_X0M1_HI 0x1.d8b618d5af8fcp-2

/* psi^(n)(x0) / n! for n = 1..40: the Taylor series of digamma around its zero,
 * psi(x0 + t) = t * sum_n c[n-1] t^(n-1), used for |t| <= 0.54 (radius of convergence x0;
 * terms shrink like 0.37^n there). It keeps the relative accuracy near the zero that the
 * recurrences lose to cancellation. */
#define KILN_DIGAMMA_TAYLOR_TERMS 40
#define KILN_DIGAMMA_TAYLOR_TERMS_F32 23 /* within 2^-34 relative: enough for a float's result */
static const double kiln_digamma_taylor[KILN_DIGAMMA_TAYLOR_TERMS] = {
    0x1.ef72bc8ee38acp-1, -0x1.c563b54aa1a35p-2, 0x1.08b4294d50381p-2, -0x1.4fc1317257da8p-3,
    0x1.b9a5b6370f3abp-4, -0x1.27baba261cc2cp-4, 0x1.8fce02b239ca7p-5, -0x1.0fa7ec36a7d8fp-5,
    0x1.723d6807edcc0p-6, -0x1.f970508e1b6a2p-7, 0x1.5955caaa962f3p-7, -0x1.d828079282eb8p-8,
    0x1.42e1acf81d8dcp-8, -0x1.b9afc7cee8a14p-9, 0x1.2e23345f79aafp-9, -0x1.9d626f71d1f7ap-10,
    0x1.1acebbd761089p-10, -0x1.82f6345c65b35p-11, 0x1.08bdae1a261d4p-11, -0x1.6a3fddea11304p-12,
    0x1.efacab6fb8985p-13, -0x1.531f5dc5eb563p-13, 0x1.d0080f810fab5p-14, -0x1.3d7972688af67p-14,
    0x1.b2691182c5c34p-15, -0x1.29357f7d6cb86p-15, 0x1.96ae4a8e32b49p-16, -0x1.163cc7373be8bp-16,
    0x1.7cb8b3916fd29p-17, -0x1.047a1894e0fdep-17, 0x1.646b54f410bdfp-18, -0x1.e7b34a5b78a3cp-19,
    0x1.4dab173747443p-19, -0x1.c891c9fca61dep-20, 0x1.385e9fcb1c6a8p-20, -0x1.ab6cff79188aap-21,
    0x1.246e3329dab55p-21, -0x1.902471b2c8ebdp-22, 0x1.11c399dbd8e73p-22, -0x1.7699ba6292b3ep-23,
};

/* lgamma(2 + t) = t * sum_k c[k-1] t^(k-1): c_1 = 1 - Euler's gamma, c_k = (-1)^k
 * (zeta(k) - 1) / k; 28 terms are within 1.4e-18 relative for |t| <= 0.5. */
#define KILN_LGAMMA_TAYLOR2_TERMS 28
#define KILN_LGAMMA_TAYLOR2_TERMS_F32 16 /* within 2^-34 relative */
static const double kiln_lgamma_taylor2[KILN_LGAMMA_TAYLOR2_TERMS] = {
    0x1.b0ee6072093cep-2,  0x1.4a34cc4a60fa6p-2,  -0x1.13e001a557607p-4, 0x1.51322ac7d8483p-6,
    -0x1.e404fc218f5f2p-8, 0x1.7add6eadb6c30p-9,  -0x1.38ac5c2bf8e08p-10, 0x1.0b36af86396e9p-11,
    -0x1.d3fd4c76d2fc8p-13, 0x1.a127b0f17d65ap-14, -0x1.78de5bd7c81efp-15, 0x1.580dcee66eb02p-16,
    -0x1.3cbc963ce2243p-17, 0x1.2597a39f34aacp-18, -0x1.11b2eb7679541p-19, 0x1.0064cdeb22f0fp-20,
    -0x1.e2600d93cfd2fp-22, 0x1.c76bbb3f07a4dp-23, -0x1.af5a6cbbf8a97p-24, 0x1.99b93c2070b0fp-25,
    -0x1.862c734df3eacp-26, 0x1.7469daccfadcdp-27, -0x1.6434a8447aeadp-28, 0x1.555a877ffd2c3p-29,
    -0x1.47b1679258d0ep-30, 0x1.3b15d2b2fc10cp-31, -0x1.2f69a9fabe3e0p-32, 0x1.24932a337434cp-33,
};

/* B_2j / (2j)! for j = 1..12 (Bernoulli numbers over factorials, exact rationals): the
 * Euler-Maclaurin corrections of the Hurwitz zeta. */
#define KILN_ZETA_CORRECTIONS 12
static const double kiln_zeta_bernoulli[KILN_ZETA_CORRECTIONS] = {
    1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600, 1.0 / 47900160, -691.0 / 1307674368000.0,
    1.0 / 74724249600.0, -3617.0 / 10670622842880000.0, 43867.0 / 5109094217170944000.0,
    -174611.0 / 802857662698291200000.0, 77683.0 / 14101100039391805440000.0,
    -236364091.0 / 1693824136731743669452800000.0};

#endif /* KILN_BASE_SPECIAL_SERIES_H */
