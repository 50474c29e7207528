/* Reduction of double arguments by pi/2 for sin, cos and tan: x = q*pi/2 + r, |r| <= pi/4
 * (about), q an integer of which only q mod 4 matters.
 *
 * Below 2^26 a three-part Cody-Waite reduction with fma is exact enough. From 2^26 on a
 * Payne-Hanek reduction: x = (X0 + X1 2^-24 + X2 2^-48) 2^e0 with 24-bit integers Xk, 2/pi
 * as 24-bit digits D_j (weights 2^(-24(j+1))), read from a table from the digit whose
 * products with x reach the units (the lanes' indices differ: a gather); the products
 * F_i = sum_k Xk D_(jv+i-k) are exact integers in double, carries propagate them into
 * 24-bit digits, the integer part is kept mod 8, and the fraction is summed in
 * double-double from the digits, then multiplied by pi/2 in double-double. Eight digits
 * (about 190 bits below the units) cover the closest a double comes to a multiple of
 * pi/2 (about 2^-61 relative) with room to spare. The large path is a branch taken only when
 * some lane needs it, so ordinary arguments pay nothing for it. */
#include <stddef.h>

#include "backends/cpu/llvm_math_internal.h"

/* 2/pi in 24-bit digits: 2/pi = sum_j kTwoOverPi24[j] 2^(-24 (j+1)). 52 digits reach the
 * smallest bit any double's reduction reads (e0 <= 1000, 8 digits beyond). */
static const double kTwoOverPi24[] = {
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7,
    0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C,
    0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11,
    0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7,
    0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20};

enum { DIGITS = 8, LEAD = 2 /* zeros before the table: D_j for j = -2, -1 */ };
#define TABLE_LEN (LEAD + sizeof kTwoOverPi24 / sizeof kTwoOverPi24[0])

static const double kPio2Hi = 0x1.921fb54442d18p+0, kPio2Lo = 0x1.1a62633145c07p-54;

/* Cody-Waite reduction by pi/2 in three parts (fma): accurate for |x| < 2^26. */
static kiln_mv reduce_cody_waite(const kiln_mb *e, kiln_mv x, kiln_mv *out_q) {
  kiln_mv n = kiln_mb_rint(e, kiln_mb_mulc(e, x, 0x1.45f306dc9c883p-1));
  kiln_mv nn = kiln_mb_neg(e, n);
  kiln_mv r = kiln_mb_fma(e, nn, kiln_mb_c(e, 0x1.921fb54442d18p+0), x);
  r = kiln_mb_fma(e, nn, kiln_mb_c(e, 0x1.1a62633145c07p-54), r);
  r = kiln_mb_fma(e, nn, kiln_mb_c(e, -0x1.f1976b7ed8fbcp-110), r);
  *out_q = n;
  return r;
}

/* A pointer to the first digit of the table (LEAD zeros first), a constant of module m
 * made once. */
static LLVMValueRef table_base(const kiln_mb *e) {
  static const char name[] = "kiln.math.two_over_pi_24";
  LLVMTypeRef d = LLVMDoubleTypeInContext(e->ctx), at = LLVMArrayType(d, (unsigned)TABLE_LEN);
  LLVMValueRef g = LLVMGetNamedGlobal(e->m, name);
  if (!g) {
    LLVMValueRef v[TABLE_LEN];
    for (size_t i = 0; i < TABLE_LEN; i++) v[i] = LLVMConstReal(d, i < LEAD ? 0.0 : kTwoOverPi24[i - LEAD]);
    g = LLVMAddGlobal(e->m, at, name);
    LLVMSetInitializer(g, LLVMConstArray(d, v, (unsigned)TABLE_LEN));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetAlignment(g, 8);
  }
  LLVMValueRef zero = LLVMConstInt(LLVMInt64TypeInContext(e->ctx), 0, 0), idx[2] = {zero, zero};
  return LLVMBuildInBoundsGEP2(e->b, at, g, idx, 2, "");
}

/* table[i] for each lane's index i (it-typed, in range). */
static kiln_mv gather(const kiln_mb *e, LLVMValueRef base, kiln_mv i) {
  LLVMTypeRef d = LLVMDoubleTypeInContext(e->ctx);
  LLVMValueRef p = LLVMBuildInBoundsGEP2(e->b, d, base, &i, 1, "");
  if (!e->lanes) return LLVMBuildLoad2(e->b, d, p, "");
  LLVMTypeRef tys[2] = {e->ft, LLVMTypeOf(p)};
  unsigned id = LLVMLookupIntrinsicID("llvm.masked.gather", 18);
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(e->m, id, tys, 2);
  LLVMTypeRef fty = LLVMIntrinsicGetType(e->ctx, id, tys, 2);
  LLVMValueRef args[4] = {p, LLVMConstInt(LLVMInt32TypeInContext(e->ctx), 8, 0), LLVMConstAllOnes(e->bt),
                          LLVMGetUndef(e->ft)};
  return LLVMBuildCall2(e->b, fty, fn, args, 4, "");
}

LLVMValueRef kiln_cpu_any_lane(LLVMBuilderRef b, LLVMValueRef mask) {
  LLVMTypeRef t = LLVMTypeOf(mask);
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return mask;
  LLVMTypeRef it = LLVMIntTypeInContext(LLVMGetTypeContext(t), LLVMGetVectorSize(t));
  return LLVMBuildICmp(b, LLVMIntNE, LLVMBuildBitCast(b, mask, it, ""), LLVMConstNull(it), "");
}

/* Payne-Hanek for a >= 2^26 finite: r with a = q*pi/2 + r. */
static kiln_mv reduce_large(const kiln_mb *e, kiln_mv a, kiln_mv *out_q) {
  kiln_mv ex = kiln_mb_isub(e, kiln_mb_iand(e, kiln_mb_ashr(e, kiln_mb_bits(e, a), 52), kiln_mb_ci(e, 0x7ff)),
                            kiln_mb_ci(e, 1023 + 23));
  kiln_mv e0 = kiln_mb_itof(e, ex); /* a = (X0 + X1 2^-24 + X2 2^-48) 2^e0, e0 >= 3 */
  kiln_mv jv = kiln_mb_floor(e, kiln_mb_mulc(e, kiln_mb_addc(e, e0, -3.0), 1.0 / 24.0));
  kiln_mv q0 = kiln_mb_sub(e, e0, kiln_mb_mulc(e, kiln_mb_addc(e, jv, 1.0), 24.0)); /* in [-21, 2] */
  kiln_mv z = kiln_mb_scale(e, a, kiln_mb_isub(e, kiln_mb_ci(e, 0), ex));
  kiln_mv xk[3];
  xk[0] = kiln_mb_floor(e, z);
  z = kiln_mb_mulc(e, kiln_mb_sub(e, z, xk[0]), 0x1p24);
  xk[1] = kiln_mb_floor(e, z);
  xk[2] = kiln_mb_mulc(e, kiln_mb_sub(e, z, xk[1]), 0x1p24);
  LLVMValueRef base = table_base(e);
  kiln_mv ji = kiln_mb_ftoi(e, jv), dig[DIGITS + LEAD];
  for (int t = 0; t < DIGITS + LEAD; t++) dig[t] = gather(e, base, kiln_mb_iadd(e, ji, kiln_mb_ci(e, t))); /* D_(jv+t-2) */
  kiln_mv f[DIGITS];
  for (int i = 0; i < DIGITS; i++) {
    f[i] = kiln_mb_mul(e, xk[0], dig[i + LEAD]);
    f[i] = kiln_mb_fma(e, xk[1], dig[i + LEAD - 1], f[i]);
    f[i] = kiln_mb_fma(e, xk[2], dig[i + LEAD - 2], f[i]);
  }
  for (int i = DIGITS - 1; i > 0; i--) { /* carries: f[1..] become 24-bit digits */
    kiln_mv c = kiln_mb_floor(e, kiln_mb_mulc(e, f[i], 0x1p-24));
    f[i] = kiln_mb_fma(e, c, kiln_mb_c(e, -0x1p24), f[i]);
    f[i - 1] = kiln_mb_add(e, f[i - 1], c);
  }
  kiln_mv w = kiln_mb_pow2i(e, kiln_mb_ftoi(e, q0)); /* the weight of f[0] */
  kiln_mv y = kiln_mb_mul(e, f[0], w);
  y = kiln_mb_fma(e, kiln_mb_floor(e, kiln_mb_mulc(e, y, 0.125)), kiln_mb_c(e, -8.0), y); /* mod 8, exact */
  w = kiln_mb_mulc(e, w, 0x1p-24);
  kiln_mv s = kiln_mb_fma(e, f[1], w, y); /* exact: at most 48 bits */
  kiln_mv n = kiln_mb_rint(e, s);
  kiln_mv hi = kiln_mb_sub(e, s, n), lo = kiln_mb_c(e, 0.0), err;
  for (int i = 2; i < DIGITS; i++) {
    w = kiln_mb_mulc(e, w, 0x1p-24);
    hi = kiln_mb_two_sum(e, hi, kiln_mb_mul(e, f[i], w), &err);
    lo = kiln_mb_add(e, lo, err);
  }
  kiln_mv sum = kiln_mb_add(e, hi, lo);
  lo = kiln_mb_sub(e, lo, kiln_mb_sub(e, sum, hi));
  hi = sum;
  /* (hi + lo) * pi/2 */
  kiln_mv r = kiln_mb_mulc(e, hi, kPio2Hi);
  kiln_mv rerr = kiln_mb_fma(e, hi, kiln_mb_c(e, kPio2Hi), kiln_mb_neg(e, r));
  rerr = kiln_mb_fma(e, hi, kiln_mb_c(e, kPio2Lo), rerr);
  rerr = kiln_mb_fma(e, lo, kiln_mb_c(e, kPio2Hi), rerr);
  *out_q = n;
  return kiln_mb_add(e, r, rerr);
}

typedef struct large_args {
  kiln_mv x, ax, big;
} large_args;

/* Payne-Hanek's r and q of the lanes of x from 2^26 on (the others reduced at 2^30). */
static void reduce_large_lanes(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const large_args *l = ctx;
  kiln_mv q, r = reduce_large(e, kiln_mb_sel(e, l->big, l->ax, kiln_mb_c(e, 0x1p30)), &q);
  kiln_mv neg = kiln_mb_ltc(e, l->x, 0.0);
  out[0] = kiln_mb_sel(e, neg, kiln_mb_neg(e, r), r);
  out[1] = kiln_mb_sel(e, neg, kiln_mb_neg(e, q), q);
}

kiln_mv kiln_math_reduce_pio2(const kiln_mb *e, kiln_mv x, kiln_mv *out_q) {
  kiln_mv rq[2];
  rq[0] = reduce_cody_waite(e, x, &rq[1]);
  kiln_mv ax = kiln_mb_fabs(e, x);
  large_args l = {x, ax, kiln_mb_ge(e, ax, kiln_mb_c(e, 0x1p26))};
  kiln_mb_where_any(e, l.big, 2, rq, reduce_large_lanes, &l);
  *out_q = rq[1];
  return rq[0];
}
