/* Error functions: erf and erfc (chlo.erf, chlo.erfc), in f64:
 *
 *   |x| <= 0.75   erf(x) = x P(x^2); erfc(x) = 1 - erf(x)
 *   |x| >  0.75   erfc(|x|) = exp(-x^2) G(|x|), exp(-x^2) from x^2 split exactly in two
 *                 (fma) so that its large argument loses nothing, scaled by 2^64 until the
 *                 product is formed so that a subnormal result is rounded once;
 *                 G(a) = erfc(a) exp(a^2) by pieces: [0.75, 2], [2, 4], and a G(a) in 1/a
 *                 beyond (divided by a, not multiplied by the rounded 1/a);
 *                 erf(x) = sign(x) (1 - erfc(|x|)), erfc(-a) = 2 - erfc(a).
 *
 * The f32 erf, in f32 (1.06 ULP): a = |x| capped at 4 (erf rounds to 1 in f32 from 3.92),
 * eight pieces k = floor(2a) (the last up to 4) each with erf(a)/a = c0 + v Q(v) of degree
 * 6 in v = a - c_k (c_0 = 0, c_k = k/2 + 1/4: exact, Sterbenz), erf(x) = fma(a, c0_hi,
 * a (c0_lo + v Q(v))) so that the leading coefficient is not rounded to f32; each lane's
 * coefficients come from one table by k (kiln_mb_lookup8: a permute where the vector has
 * one). 28 instructions a vector against 45 for three polynomials evaluated whole and one
 * chosen: f32[256,4096] 379 -> 211 us on 2 threads, capped to AVX2 415 -> 282 (least of 6
 * medians, AMD Zen 4; XLA:CPU's rational form, 5.4 ULP at most, 233 in another run).
 *
 * The f32 erfc, in f32:
 *   |x| <= 0.47   1 - erf(x) (erf's first piece): |erf(x)| < 0.5 there, so its error is at
 *                 most half an ULP of the result
 *   x < -0.47     2 - erfc(|x|), erfc(|x|) as below (under 0.51: no cancellation)
 *   x >  0.47     exp(-x^2) G(x) with both factors kept as a large part and a small one:
 *                 exp(-x^2) = 2^n (1 + q) (kiln_math_exp_parts, x^2 split exactly), G(x) =
 *                 B + S, on [0.47, 4] B = c0_hi and S = c0_lo + v Q(v) with v = x - c
 *                 (exact) by three pieces, beyond B + S = (1/x)(1 + e) H(1/x^2) with the
 *                 division's residual e and B the rounded product of 1/x and H's leading
 *                 coefficient; then B + (B q + S (1 + q)) rounds once before the scaling
 *                 by 2^n (x capped at 10.1, where erfc rounds to 0).
 *
 * The tables are Chebyshev fits made by llvm_math_erf_fit.py (their output, pasted). */
#include "backends/cpu/llvm_math_internal.h"

/* kErfSmall: t = (v - 0.28125) / 0.28125; relative error 8.7e-19 */
static const double kErfSmall[11] = {
    1.0309528156012642,
    -0.0896037671090999,
    0.007314485234578211,
    -0.000480872478031452,
    2.599164517570422e-05,
    -1.186568422147177e-06,
    4.678558330163392e-08,
    -1.6217928017585119e-09,
    5.012952566544622e-11,
    -1.3998947677380024e-12,
    3.552903127102359e-14};
static const double kErfSmallMid = 0.28125, kErfSmallHalf = 0.28125;
/* kErfcMid1: t = (v - 1.375) / 0.625; relative error 1.0e-18 */
static const double kErfcMid1[19] = {
    0.3432958898621254,
    -0.11519716873416737,
    0.03510239009646765,
    -0.009888518365087907,
    0.0026069628307174796,
    -0.0006489375214903111,
    0.0001535547244080633,
    -3.472289369111557e-05,
    7.5355818507975894e-06,
    -1.5750534206347834e-06,
    3.1800507615785423e-07,
    -6.217590119612675e-08,
    1.1797934966946865e-08,
    -2.1773180084155944e-09,
    3.9123154076301646e-10,
    -6.80164063508286e-11,
    1.1650240767337245e-11,
    -2.2265847707497254e-12,
    3.6299743186029077e-13};
static const double kErfcMid1Mid = 1.375, kErfcMid1Half = 0.625;
/* kErfcMid2: t = (v - 3.0) / 1.0; relative error 1.1e-18 */
static const double kErfcMid2[20] = {
    0.17900115118138996,
    -0.05437226000717287,
    0.01588437115987136,
    -0.00447943101837258,
    0.0012230390523759822,
    -0.00032412554449670324,
    8.355413963925958e-05,
    -2.0989464462229973e-05,
    5.146436493852072e-06,
    -1.2333677143104898e-06,
    2.8926692938101366e-07,
    -6.646690382092543e-08,
    1.4977112890287265e-08,
    -3.312780752600577e-09,
    7.206556491473509e-10,
    -1.539306000137148e-10,
    3.165046186861128e-11,
    -6.555844952443731e-12,
    1.6647790649164353e-12,
    -3.32463503923892e-13};
static const double kErfcMid2Mid = 3.0, kErfcMid2Half = 1.0;
/* kErfcTail: t = (v - 0.14318181818181818) / 0.10681818181818182; relative error 4.4e-19 */
static const double kErfcTail[17] = {
    0.5585756770964229,
    -0.008135539993086678,
    -0.002692052596203197,
    0.00023239082629334813,
    2.3816896762694044e-05,
    -6.757400934099774e-06,
    1.5277303675109295e-07,
    1.7226099979227055e-07,
    -2.8795661694229424e-08,
    -1.8147897871458677e-09,
    1.4483314458679894e-09,
    -1.8212588706274202e-10,
    -3.2678295610684306e-11,
    1.5880343099165564e-11,
    -1.6162411926565432e-12,
    -5.677212663655528e-13,
    1.8194960276453958e-13};
static const double kErfcTailMid = 0.1431818181818182, kErfcTailHalf = 0.10681818181818181;

/* kErf32Small: u = x^2 on [0.0, 0.765625]; relative error 9.9e-9 */
static const double kErf32Small[6] = {
    1.1283791581332128,
    -0.37612554506584434,
    0.11282496599586316,
    -0.02679294777783731,
    0.005034370663204096,
    -0.0006214585361977137};
/* kErf32Table[j][k]: coefficient j of erf(x)/x in v = x - kErf32Center[k] on [k/2, (k + 1)/2];
 * relative errors 8.6e-9, 6.6e-9, 7.6e-9, 3.4e-9, 2.2e-9, 1.1e-9, 6.2e-11, 7.5e-11 */
static const double kErf32Table[7][8] = {
    {1.1283791746264629, 0.9482075115380202, 0.7383201026051666, 0.5638123835538186, 0.4437943481836973, 0.36359977384650194, 0.307690983760165, 0.26666663633939824},
    {-1.4724759164185768e-06, -0.40703512099915157, -0.40143932000709537, -0.29202140454386927, -0.19406754336180793, -0.1320048981556168, -0.09466516731500896, -0.07111086849095616},
    {-0.3760798598738963, -0.10021749188457202, 0.08463021368722858, 0.11409438850460835, 0.079109934316896, 0.047415503094403844, 0.029098554091051745, 0.018962016750789363},
    {-0.0005440449949929686, 0.1693242377521953, 0.06634187584692175, -0.013673187392047958, -0.025507837685685868, -0.016239465557815358, -0.008893189755051462, -0.005054346515437707},
    {0.11579883755939166, -0.024860263568917334, -0.0579856637262918, -0.019675066190866838, 0.0028537966138857188, 0.004720595300075956, 0.002648276998377661, 0.0013441451246648333},
    {-0.007865915019222833, -0.03727065342750142, 0.008084823136698205, 0.014861891322471654, 0.003571976144327003, -0.0006746515309322469, -0.0007171172527560233, -0.0003556577237224721},
    {-0.01806967173564655, 0.014201906765473228, 0.010080012552025468, -0.0033272799833978474, -0.0028298332314064976, -0.0003607062662026257, 0.0001368122331615116, 8.937214826354407e-05}};
static const double kErf32Center[8] = {0.0, 0.75, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75};

/* kErfc32Mid: erfc(x) exp(x^2) in v = x - kErfc32Center[i] on [0.47, 1], [1, 2], [2, 4];
 * relative errors 1.3e-9, 2.7e-9, 6.9e-10 */
static const double kErfc32Mid[3][11] = {
    {0.50693764984811, -0.36797268493369456, 0.2309583331210663, -0.12983707833329944, 0.06677609793181784, -0.03185927576426596, 0.014624181584036658, -0.006492928199747281, 0.0, 0.0, 0.0},
    {0.3215854164543175, -0.1636229071978774, 0.07615103655090479, -0.03293146614402791, 0.013377516899777012, -0.005137920440964439, 0.0018836127899543348, -0.0007043126276192796, 0.0002366185302639427, 0.0, 0.0},
    {0.17900115118138996, -0.05437226082750891, 0.01588437134380639, -0.004479414652149056, 0.0012230353824378567, -0.00032421661405247293, 8.357456550238927e-05, -2.0783956920239128e-05, 5.1003227571248005e-06, -1.4332136568157824e-06, 3.341543348951629e-07}};
static const double kErfc32Center[3] = {0.75, 1.5, 3.0};
/* kErfc32Tail: x erfc(x) exp(x^2) in u = 1/x^2 on [0, 1/16]; relative error 1.8e-9 */
static const double kErfc32Tail[6] = {
    0.5641895825564328,
    -0.282093644143365,
    0.42292249552367533,
    -1.0420501252399028,
    3.162579920823819,
    -7.121305056558342};

enum { SCALE_EXP = 64 }; /* exp(-x^2) is formed times 2^64, the product scaled back once */

#define LEN(t) ((int)(sizeof t / sizeof t[0]))

#define POLY(e, v, name) \
  kiln_mb_poly((e), kiln_mb_mulc((e), kiln_mb_addc((e), (v), -name##Mid), 1.0 / name##Half), name, \
               (int)(sizeof name / sizeof name[0]))

/* erf(a) for 0 <= a <= 0.75 (also fine beyond: callers select). */
static kiln_mv erf_small(const kiln_mb *e, kiln_mv a) {
  kiln_mv u = kiln_mb_mul(e, a, a);
  return kiln_mb_mul(e, a, POLY(e, u, kErfSmall));
}

/* erfc(a) for a >= 0.75 (a not NaN; a beyond 27.5, where erfc underflows to 0, is capped). */
static kiln_mv erfc_large(const kiln_mb *e, kiln_mv a) {
  a = kiln_mb_sel(e, kiln_mb_gtc(e, a, 27.5), kiln_mb_c(e, 27.5), a);
  kiln_mv s = kiln_mb_div(e, kiln_mb_c(e, 1.0), a);
  kiln_mv g = kiln_mb_sel(e, kiln_mb_ltc(e, a, 2.0), POLY(e, a, kErfcMid1),
                          kiln_mb_sel(e, kiln_mb_ltc(e, a, 4.0), POLY(e, a, kErfcMid2),
                                      kiln_mb_div(e, POLY(e, s, kErfcTail), a)));
  kiln_mv hi = kiln_mb_mul(e, a, a);
  kiln_mv lo = kiln_mb_fma(e, a, a, kiln_mb_neg(e, hi)); /* a^2 = hi + lo exactly */
  kiln_mv x2 = kiln_mb_neg(e, hi);
  kiln_mv ex = kiln_math_exp_dd(e, x2, kiln_mb_neg(e, lo), SCALE_EXP);
  return kiln_mb_scale(e, kiln_mb_mul(e, ex, g), kiln_mb_ci(e, -SCALE_EXP));
}

/* The f32 erf(x) for |x| <= 0.875 (an odd function: any sign). */
static kiln_mv erf32_small(const kiln_mb *e, kiln_mv x) {
  float c0_hi = (float)kErf32Small[0];
  double c0_lo = kErf32Small[0] - (double)c0_hi;
  kiln_mv u = kiln_mb_mul(e, x, x);
  kiln_mv rest = kiln_mb_fma(e, u, kiln_mb_poly(e, u, kErf32Small + 1, LEN(kErf32Small) - 1), kiln_mb_c(e, c0_lo));
  return kiln_mb_fma(e, x, kiln_mb_c(e, c0_hi), kiln_mb_mul(e, x, rest));
}

static kiln_mv erf_f32(const kiln_mb *e, kiln_mv x) {
  /* a = |x| capped at 4 (a NaN too: returned as it came at the end), piece k = floor(2a) */
  kiln_mv a = kiln_mb_fabs(e, x);
  a = kiln_mb_sel(e, kiln_mb_ltc(e, a, 4.0), a, kiln_mb_c(e, 4.0));
  kiln_mv k = kiln_mb_ftoi(e, kiln_mb_mulc(e, a, 2.0));
  k = kiln_mb_sel(e, LLVMBuildICmp(e->b, LLVMIntSLT, k, kiln_mb_ci(e, 7), ""), k, kiln_mb_ci(e, 7));
  kiln_mv v = kiln_mb_sub(e, a, kiln_mb_lookup8(e, k, kErf32Center));
  int n = LEN(kErf32Table);
  kiln_mv acc = kiln_mb_lookup8(e, k, kErf32Table[n - 1]);
  for (int j = n - 2; j >= 1; j--) acc = kiln_mb_fma(e, acc, v, kiln_mb_lookup8(e, k, kErf32Table[j]));
  double hi[8], lo[8]; /* the leading coefficient as a float and the rest, not rounded away */
  for (int i = 0; i < 8; i++) hi[i] = (float)kErf32Table[0][i], lo[i] = kErf32Table[0][i] - hi[i];
  kiln_mv rest = kiln_mb_fma(e, acc, v, kiln_mb_lookup8(e, k, lo));
  kiln_mv y = kiln_mb_fma(e, a, kiln_mb_lookup8(e, k, hi), kiln_mb_mul(e, a, rest));
  y = kiln_mb_sel(e, kiln_mb_gtc(e, y, 1.0), kiln_mb_c(e, 1.0), y);
  return kiln_mb_sel(e, kiln_mb_isnan(e, x), x, kiln_mb_copysign(e, y, x));
}

kiln_mv kiln_math_erf(const kiln_mb *e, kiln_mv x) {
  if (!e->dbl) return erf_f32(e, x);
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv big = kiln_mb_gtc(e, a, 0.75);
  kiln_mv large = kiln_mb_sub(e, kiln_mb_c(e, 1.0), erfc_large(e, kiln_mb_sel(e, big, a, kiln_mb_c(e, 1.0))));
  kiln_mv y = kiln_mb_sel(e, big, kiln_mb_copysign(e, large, x), erf_small(e, x));
  return kiln_mb_sel(e, kiln_mb_isnan(e, x), x, y);
}

/* c's float and the rest: hi + lo = c to about 2^-48 relative. */
static kiln_mv split_hi(const kiln_mb *e, double c) { return kiln_mb_c(e, (float)c); }
static kiln_mv split_lo(const kiln_mb *e, double c) { return kiln_mb_c(e, c - (double)(float)c); }

/* erfc(x) exp(x^2) for x in [0.47, 4] (v = x - kErfc32Center[piece]) as *big + small:
 * each piece's polynomial evaluated (its own length: trailing zero coefficients dropped),
 * then one chosen, which is cheaper than choosing each coefficient. */
static kiln_mv erfc32_mid(const kiln_mb *e, kiln_mv x, kiln_mv *big) {
  kiln_mv first = kiln_mb_ltc(e, x, 1.0), second = kiln_mb_ltc(e, x, 2.0);
  kiln_mv small[3];
  for (int p = 0; p < 3; p++) {
    const double *c = kErfc32Mid[p];
    int n = LEN(kErfc32Mid[0]);
    while (n > 2 && c[n - 1] == 0.0) n--;
    kiln_mv v = kiln_mb_addc(e, x, -kErfc32Center[p]);
    small[p] = kiln_mb_fma(e, v, kiln_mb_poly(e, v, c + 1, n - 1), split_lo(e, c[0]));
  }
#define PIECE(v0, v1, v2) kiln_mb_sel(e, first, (v0), kiln_mb_sel(e, second, (v1), (v2)))
  *big = PIECE(split_hi(e, kErfc32Mid[0][0]), split_hi(e, kErfc32Mid[1][0]), split_hi(e, kErfc32Mid[2][0]));
  kiln_mv r = PIECE(small[0], small[1], small[2]);
#undef PIECE
  return r;
}

/* erfc(x) exp(x^2) for x >= 4 as *big + small, from s = 1/x rounded, its residual r (1/x =
 * s (1 + r) to 2^-48) and H(u) = h0 + u Q(u), u = s^2: B = s h0_hi rounded, the small part
 * B's product error plus s (h0_lo + u Q(u) + r h0_hi). */
static kiln_mv erfc32_tail(const kiln_mb *e, kiln_mv x, kiln_mv *big) {
  kiln_mv s = kiln_mb_div(e, kiln_mb_c(e, 1.0), x);
  kiln_mv r = kiln_mb_fma(e, kiln_mb_neg(e, x), s, kiln_mb_c(e, 1.0));
  kiln_mv u = kiln_mb_mul(e, s, s);
  kiln_mv h0_hi = split_hi(e, kErfc32Tail[0]);
  kiln_mv hs = kiln_mb_fma(e, u, kiln_mb_poly(e, u, kErfc32Tail + 1, LEN(kErfc32Tail) - 1), split_lo(e, kErfc32Tail[0]));
  kiln_mv b = kiln_mb_mul(e, s, h0_hi);
  kiln_mv b_err = kiln_mb_fma(e, s, h0_hi, kiln_mb_neg(e, b));
  *big = b;
  return kiln_mb_fma(e, s, kiln_mb_fma(e, r, h0_hi, hs), b_err);
}

static kiln_mv erfc_f32(const kiln_mb *e, kiln_mv x) {
  /* NaN is not above 0.47 in magnitude: it takes 1 - erf(x), which keeps it */
  kiln_mv ax = kiln_mb_fabs(e, x);
  kiln_mv small = kiln_mb_sub(e, kiln_mb_c(e, 1.0), erf32_small(e, x));
  kiln_mv large = kiln_mb_gtc(e, ax, 0.47);
  kiln_mv a = kiln_mb_sel(e, large, kiln_mb_sel(e, kiln_mb_gtc(e, ax, 10.1), kiln_mb_c(e, 10.1), ax), kiln_mb_c(e, 1.0));
  kiln_mv mid_big, tail_big;
  kiln_mv mid = erfc32_mid(e, a, &mid_big), tail = erfc32_tail(e, a, &tail_big);
  kiln_mv far = kiln_mb_ge(e, a, kiln_mb_c(e, 4.0));
  kiln_mv big = kiln_mb_sel(e, far, tail_big, mid_big), sm = kiln_mb_sel(e, far, tail, mid);
  kiln_mv hi = kiln_mb_mul(e, a, a);
  kiln_mv lo = kiln_mb_fma(e, a, a, kiln_mb_neg(e, hi)); /* a^2 = hi + lo exactly */
  kiln_mv n, q = kiln_math_exp_parts(e, kiln_mb_neg(e, hi), kiln_mb_neg(e, lo), &n);
  kiln_mv w = kiln_mb_fma(e, big, q, kiln_mb_fma(e, sm, q, sm));
  /* big + w = G(a) (1 + q) >= 0.055 * 0.58 (G(10.1) = 0.055, q > -0.42) */
  kiln_mv y = kiln_mb_scale_small(e, kiln_mb_add(e, big, w), kiln_mb_ftoi(e, n), -5);
  /* erfc(x) = 2 - erfc(|x|) below -0.47: erfc(|x|) < 0.51 there, its error a third of the
   * result's ULP at most */
  y = kiln_mb_sel(e, kiln_mb_ltc(e, x, 0.0), kiln_mb_sub(e, kiln_mb_c(e, 2.0), y), y);
  return kiln_mb_sel(e, large, y, small);
}

kiln_mv kiln_math_erfc(const kiln_mb *e, kiln_mv x) {
  if (!e->dbl) return erfc_f32(e, x);
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv big = kiln_mb_gtc(e, a, 0.75);
  kiln_mv tail = erfc_large(e, kiln_mb_sel(e, big, a, kiln_mb_c(e, 1.0)));
  kiln_mv neg = kiln_mb_ltc(e, x, 0.0);
  kiln_mv large = kiln_mb_sel(e, neg, kiln_mb_sub(e, kiln_mb_c(e, 2.0), tail), tail);
  kiln_mv small = kiln_mb_sub(e, kiln_mb_c(e, 1.0), erf_small(e, x));
  kiln_mv y = kiln_mb_sel(e, big, large, small);
  return kiln_mb_sel(e, kiln_mb_isnan(e, x), x, y);
}

/* ---------------------------------------------------------------- erf_inv */

/* erfinv(x) = x F(w) with w = -log(1 - x^2) (M. Giles' variable, "Approximating the
 * erfinv function", 2011): F fitted by llvm_math_erf_fit.py (its output, pasted) to
 * 2e-9 relative in two pieces, in w up to 5 and in sqrt(w) beyond (to the largest double
 * below 1). */
/* kErfInvCentral: t = (v - 2.5) / 2.5; relative error 7.2e-10 */
static const double kErfInvCentral[12] = {
    1.5014093517481764,
    0.6166006918714606,
    -0.026108281752861017,
    -0.01957356183368391,
    0.008525942391231351,
    -0.00048789063575624566,
    -0.0008364907738609052,
    0.0002921690115087194,
    2.5182562318746536e-05,
    -4.143433102262246e-05,
    4.139544299940102e-06,
    2.943653372407573e-06};
static const double kErfInvCentralMid = 2.5, kErfInvCentralHalf = 2.5;
/* kErfInvTail: t = (v - 4.1680339887498948) / 1.9319660112501052; relative error 8.9e-10 */
static const double kErfInvTail[17] = {
    4.009444665977673,
    1.9509933956893208,
    0.00325156861295289,
    -0.004919764723797007,
    0.0033578686926701248,
    -0.0020477047181347613,
    0.0015087341609465762,
    -0.0016317948576232322,
    0.001711171150713695,
    -0.001270021792668961,
    0.0013316093610662024,
    -0.0017383581011915505,
    0.00038347266097501934,
    0.0013950201369665267,
    -0.0008753659026906226,
    -0.00025270755045638026,
    0.00022709951243522417};
static const double kErfInvTailMid = 4.168033988749895, kErfInvTailHalf = 1.9319660112501051;

/* kErfInv32Central: w on [0.0, 5.0]; relative error 2.0e-9 */
static const double kErfInv32Central[11] = {
    0.23201366625325265,
    0.011549355566467547,
    -0.002335206157354688,
    -0.0001277391708516523,
    4.618087555515636e-05,
    2.342783126926279e-06,
    -1.1315442255650723e-06,
    -3.158726888182323e-08,
    3.555253790909209e-08,
    -4.24618610779246e-09,
    1.7139561304350276e-10};
/* kErfInv32Tail: v = s - s0 on [2.23607, 4.0]; relative error 3.9e-10 */
static const double kErfInv32Tail[12] = {
    0.9557066211995919,
    0.06840847252346835,
    -0.05329345607665835,
    0.021667284942068356,
    0.001885368220505403,
    -0.006564121493607388,
    0.0015062218259839619,
    0.00206694740427145,
    -0.0019580066494124778,
    0.0007952845938334161,
    -0.00016676530904874938,
    1.4762235589378418e-05};
static const double kErfInv32Base = 0.886226925452758, kErfInv32TailBase = 2.079812792244071,
                    kErfInv32S0 = 2.2360680103302;

/* One Halley step on erf(y) = a for y, a >= 0: the residual through erf where its small
 * piece holds (y <= 0.75, a known to its last bit) and through erfc beyond (a > 0.71, so
 * 1 - a is exact), over erf'(y) = 2/sqrt(pi) exp(-y^2). */
static kiln_mv erf_inv_step(const kiln_mb *e, kiln_mv a, kiln_mv y) {
  kiln_mv cap = kiln_mb_c(e, 0.75), far = kiln_mb_gtc(e, y, 0.75);
  kiln_mv near = kiln_mb_sub(e, erf_small(e, kiln_mb_sel(e, far, cap, y)), a);
  kiln_mv tail = kiln_mb_sub(e, kiln_mb_sub(e, kiln_mb_c(e, 1.0), a), erfc_large(e, kiln_mb_sel(e, far, y, cap)));
  kiln_mv r = kiln_mb_sel(e, far, tail, near);
  kiln_mv d = kiln_mb_mulc(e, kiln_math_exp(e, kiln_mb_neg(e, kiln_mb_mul(e, y, y))), 1.12837916709551257390);
  kiln_mv u = kiln_mb_div(e, r, d);
  return kiln_mb_sub(e, y, kiln_mb_div(e, u, kiln_mb_fma(e, y, u, kiln_mb_c(e, 1.0))));
}

/* erf_inv in f32: y = x (F0 + w G(w)) below w = 5, x (F(s0) + v H(v)) with v = s - s0
 * (exact: Sterbenz) above, the leading term's float and the rest added by one fma, as
 * erf_f32 does; w = -log(fma(-x, x, 1)), 1 - x^2 rounded once, and F moves slowly enough
 * that only w's absolute error counts. */
static kiln_mv erf_inv_f32(const kiln_mb *e, kiln_mv a) {
  kiln_mv w = kiln_mb_neg(e, kiln_math_log(e, kiln_mb_fma(e, kiln_mb_neg(e, a), a, kiln_mb_c(e, 1.0))));
  kiln_mv central = kiln_mb_mul(e, w, kiln_mb_poly(e, w, kErfInv32Central, LEN(kErfInv32Central)));
  kiln_mv v = kiln_mb_addc(e, kiln_mb_sqrt(e, kiln_mb_sel(e, kiln_mb_ltc(e, w, 16.0), w, kiln_mb_c(e, 16.0))),
                           -(double)(float)kErfInv32S0);
  kiln_mv tail = kiln_mb_mul(e, v, kiln_mb_poly(e, v, kErfInv32Tail, LEN(kErfInv32Tail)));
  kiln_mv low = kiln_mb_ltc(e, w, 5.0);
  kiln_mv hi = kiln_mb_sel(e, low, split_hi(e, kErfInv32Base), split_hi(e, kErfInv32TailBase));
  kiln_mv lo = kiln_mb_sel(e, low, split_lo(e, kErfInv32Base), split_lo(e, kErfInv32TailBase));
  kiln_mv rest = kiln_mb_add(e, lo, kiln_mb_sel(e, low, central, tail));
  return kiln_mb_fma(e, a, hi, kiln_mb_mul(e, a, rest));
}

/* erf_inv: for a float erf_inv_f32 (2.4 ULP, in f32 throughout); for a double the fit
 * above refined by one Halley step (2e-9 relative -> rounding; 3.3 ULP: where y is a
 * binade below erf(y) an ULP of erf is two of y's). |x| > 1 and NaN give NaN, +-1 give
 * +-inf, +-0 themselves (the entry keeps zeros). */
kiln_mv kiln_math_erf_inv(const kiln_mb *e, kiln_mv x) {
  kiln_mv a = kiln_mb_fabs(e, x);
  kiln_mv inside = kiln_mb_ltc(e, a, 1.0); /* false for 1, beyond and NaN */
  kiln_mv y;
  if (!e->dbl) {
    y = erf_inv_f32(e, a);
  } else {
    kiln_mv w = kiln_mb_neg(e, kiln_mb_add(e, kiln_math_log1p(e, kiln_mb_neg(e, a)), kiln_math_log1p(e, a)));
    kiln_mv central = kiln_mb_poly(e, kiln_mb_mulc(e, kiln_mb_addc(e, w, -kErfInvCentralMid), 1.0 / kErfInvCentralHalf),
                                   kErfInvCentral, LEN(kErfInvCentral));
    kiln_mv s = kiln_mb_sqrt(e, kiln_mb_sel(e, kiln_mb_ltc(e, w, 37.21), w, kiln_mb_c(e, 37.21))); /* 6.1^2 */
    kiln_mv tail = kiln_mb_poly(e, kiln_mb_mulc(e, kiln_mb_addc(e, s, -kErfInvTailMid), 1.0 / kErfInvTailHalf),
                                kErfInvTail, LEN(kErfInvTail));
    y = kiln_mb_mul(e, a, kiln_mb_sel(e, kiln_mb_ltc(e, w, 5.0), central, tail));
    y = erf_inv_step(e, kiln_mb_sel(e, inside, a, kiln_mb_c(e, 0.5)), kiln_mb_sel(e, inside, y, kiln_mb_c(e, 0.5)));
  }
  y = kiln_mb_copysign(e, y, x);
  kiln_mv one = kiln_mb_copysign(e, kiln_mb_inf(e), x);
  return kiln_mb_sel(e, inside, y, kiln_mb_sel(e, kiln_mb_eqc(e, a, 1.0), one, kiln_mb_nan(e)));
}
