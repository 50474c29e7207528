/* IR-building vocabulary for the math kernels (see llvm_math_internal.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backends/cpu/llvm_math.h"
#include "backends/cpu/llvm_math_internal.h"

void kiln_mb_init(kiln_mb *e, LLVMModuleRef m, LLVMBuilderRef b, LLVMTypeRef ft, bool dbl,
                  unsigned lanes) {
  e->m = m;
  e->b = b;
  e->ctx = LLVMGetModuleContext(m);
  e->ft = ft;
  e->dbl = dbl;
  e->lanes = lanes;
  e->narrow = false;
  e->avx512 = e->avx2 = false;
  LLVMTypeRef is = LLVMIntTypeInContext(e->ctx, dbl ? 64 : 32);
  LLVMTypeRef bs = LLVMInt1TypeInContext(e->ctx);
  e->it = lanes ? LLVMVectorType(is, lanes) : is;
  e->bt = lanes ? LLVMVectorType(bs, lanes) : bs;
}

kiln_mb kiln_mb_widened(const kiln_mb *e) {
  kiln_mb w;
  LLVMTypeRef d = LLVMDoubleTypeInContext(e->ctx);
  kiln_mb_init(&w, e->m, e->b, e->lanes ? LLVMVectorType(d, e->lanes) : d, true, e->lanes);
  w.narrow = !e->dbl;
  w.avx512 = e->avx512;
  w.avx2 = e->avx2;
  return w;
}

kiln_mv kiln_mb_fpext(const kiln_mb *wide, kiln_mv x) {
  return LLVMBuildFPExt(wide->b, x, wide->ft, "");
}
kiln_mv kiln_mb_fptrunc(const kiln_mb *narrow, kiln_mv x) {
  return LLVMBuildFPTrunc(narrow->b, x, narrow->ft, "");
}

/* Vectors are limited to KILN_MB_MAX_LANES lanes (checked by the entry points). */
static kiln_mv splat(const kiln_mb *e, kiln_mv s) {
  if (!e->lanes) return s;
  kiln_mv v[KILN_MB_MAX_LANES];
  for (unsigned i = 0; i < e->lanes; i++) v[i] = s;
  return LLVMConstVector(v, e->lanes);
}

kiln_mv kiln_mb_c(const kiln_mb *e, double v) {
  LLVMTypeRef s = e->dbl ? LLVMDoubleTypeInContext(e->ctx) : LLVMFloatTypeInContext(e->ctx);
  return splat(e, LLVMConstReal(s, e->dbl ? v : (double)(float)v));
}
kiln_mv kiln_mb_ci(const kiln_mb *e, int64_t v) {
  LLVMTypeRef s = LLVMIntTypeInContext(e->ctx, e->dbl ? 64 : 32);
  return splat(e, LLVMConstInt(s, (unsigned long long)v, 1));
}
kiln_mv kiln_mb_inf(const kiln_mb *e) { return kiln_mb_c(e, INFINITY); }
kiln_mv kiln_mb_nan(const kiln_mb *e) { return kiln_mb_c(e, NAN); }

kiln_mv kiln_mb_add(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildFAdd(e->b, a, b, ""); }
kiln_mv kiln_mb_sub(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildFSub(e->b, a, b, ""); }
kiln_mv kiln_mb_mul(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildFMul(e->b, a, b, ""); }
kiln_mv kiln_mb_div(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildFDiv(e->b, a, b, ""); }
kiln_mv kiln_mb_neg(const kiln_mb *e, kiln_mv a) { return LLVMBuildFNeg(e->b, a, ""); }
kiln_mv kiln_mb_mulc(const kiln_mb *e, kiln_mv a, double c) { return kiln_mb_mul(e, a, kiln_mb_c(e, c)); }
kiln_mv kiln_mb_addc(const kiln_mb *e, kiln_mv a, double c) { return kiln_mb_add(e, a, kiln_mb_c(e, c)); }

static kiln_mv intrinsic(const kiln_mb *e, const char *name, kiln_mv *args, unsigned n) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMTypeRef t = e->ft;
  kiln_mv fn = LLVMGetIntrinsicDeclaration(e->m, id, &t, 1);
  LLVMTypeRef fty = LLVMIntrinsicGetType(e->ctx, id, &t, 1);
  return LLVMBuildCall2(e->b, fty, fn, args, n, "");
}

kiln_mv kiln_mb_fma(const kiln_mb *e, kiln_mv a, kiln_mv b, kiln_mv c) {
  kiln_mv args[3] = {a, b, c};
  return intrinsic(e, "llvm.fma", args, 3);
}
kiln_mv kiln_mb_two_sum(const kiln_mb *e, kiln_mv a, kiln_mv b, kiln_mv *err) {
  kiln_mv s = kiln_mb_add(e, a, b), bv = kiln_mb_sub(e, s, a);
  *err = kiln_mb_add(e, kiln_mb_sub(e, a, kiln_mb_sub(e, s, bv)), kiln_mb_sub(e, b, bv));
  return s;
}
kiln_mv kiln_mb_fabs(const kiln_mb *e, kiln_mv a) { return intrinsic(e, "llvm.fabs", &a, 1); }
kiln_mv kiln_mb_floor(const kiln_mb *e, kiln_mv a) { return intrinsic(e, "llvm.floor", &a, 1); }
kiln_mv kiln_mb_rint(const kiln_mb *e, kiln_mv a) { return intrinsic(e, "llvm.rint", &a, 1); }
kiln_mv kiln_mb_sqrt(const kiln_mb *e, kiln_mv a) { return intrinsic(e, "llvm.sqrt", &a, 1); }
kiln_mv kiln_mb_copysign(const kiln_mb *e, kiln_mv mag, kiln_mv sgn) {
  kiln_mv args[2] = {mag, sgn};
  return intrinsic(e, "llvm.copysign", args, 2);
}

kiln_mv kiln_mb_poly(const kiln_mb *e, kiln_mv x, const double *c, int n) {
  kiln_mv acc = kiln_mb_c(e, c[n - 1]);
  for (int i = n - 2; i >= 0; i--) acc = kiln_mb_fma(e, acc, x, kiln_mb_c(e, c[i]));
  return acc;
}

kiln_mv kiln_mb_lookup8(const kiln_mb *e, kiln_mv k, const double table[8]) {
  LLVMTypeRef et = e->dbl ? LLVMDoubleTypeInContext(e->ctx) : LLVMFloatTypeInContext(e->ctx);
  const char *perm = !e->dbl && e->lanes == 16 && e->avx512 ? "llvm.x86.avx512.permvar.sf.512"
                     : e->dbl && e->lanes == 8 && e->avx512 ? "llvm.x86.avx512.permvar.df.512"
                     : !e->dbl && e->lanes == 8 && e->avx2  ? "llvm.x86.avx2.permps"
                                                            : NULL;
  if (perm) { /* the table in every lane, twice over 16 lanes (the index's low 3 bits pick) */
    LLVMValueRef lanes[16];
    for (unsigned i = 0; i < e->lanes; i++) lanes[i] = LLVMConstReal(et, table[i % 8]);
    unsigned id = LLVMLookupIntrinsicID(perm, strlen(perm));
    kiln_mv args[2] = {LLVMConstVector(lanes, e->lanes), k};
    return LLVMBuildCall2(e->b, LLVMIntrinsicGetType(e->ctx, id, NULL, 0), LLVMGetIntrinsicDeclaration(e->m, id, NULL, 0),
                          args, 2, "");
  }
  LLVMValueRef vals[8];
  for (int i = 0; i < 8; i++) vals[i] = LLVMConstReal(et, table[i]);
  LLVMTypeRef at = LLVMArrayType(et, 8);
  LLVMValueRef g = LLVMAddGlobal(e->m, at, "kiln.math.table");
  LLVMSetInitializer(g, LLVMConstArray(et, vals, 8));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(e->ctx);
  if (!e->lanes) {
    LLVMValueRef at_k[2] = {LLVMConstInt(i32, 0, 0), k};
    return LLVMBuildLoad2(e->b, et, LLVMBuildInBoundsGEP2(e->b, at, g, at_k, 2, ""), "");
  }
  kiln_mv r = LLVMGetUndef(e->ft);
  for (unsigned i = 0; i < e->lanes; i++) {
    LLVMValueRef lane = LLVMConstInt(i32, i, 0);
    LLVMValueRef at_k[2] = {LLVMConstInt(i32, 0, 0), LLVMBuildExtractElement(e->b, k, lane, "")};
    r = LLVMBuildInsertElement(e->b, r, LLVMBuildLoad2(e->b, et, LLVMBuildInBoundsGEP2(e->b, at, g, at_k, 2, ""), ""),
                               lane, "");
  }
  return r;
}

static kiln_mv fcmp(const kiln_mb *e, LLVMRealPredicate p, kiln_mv a, kiln_mv b) {
  return LLVMBuildFCmp(e->b, p, a, b, "");
}
kiln_mv kiln_mb_lt(const kiln_mb *e, kiln_mv a, kiln_mv b) { return fcmp(e, LLVMRealOLT, a, b); }
kiln_mv kiln_mb_gt(const kiln_mb *e, kiln_mv a, kiln_mv b) { return fcmp(e, LLVMRealOGT, a, b); }
kiln_mv kiln_mb_le(const kiln_mb *e, kiln_mv a, kiln_mv b) { return fcmp(e, LLVMRealOLE, a, b); }
kiln_mv kiln_mb_ge(const kiln_mb *e, kiln_mv a, kiln_mv b) { return fcmp(e, LLVMRealOGE, a, b); }
kiln_mv kiln_mb_eq(const kiln_mb *e, kiln_mv a, kiln_mv b) { return fcmp(e, LLVMRealOEQ, a, b); }
kiln_mv kiln_mb_ltc(const kiln_mb *e, kiln_mv a, double c) { return kiln_mb_lt(e, a, kiln_mb_c(e, c)); }
kiln_mv kiln_mb_gtc(const kiln_mb *e, kiln_mv a, double c) { return kiln_mb_gt(e, a, kiln_mb_c(e, c)); }
kiln_mv kiln_mb_eqc(const kiln_mb *e, kiln_mv a, double c) { return kiln_mb_eq(e, a, kiln_mb_c(e, c)); }
kiln_mv kiln_mb_isnan(const kiln_mb *e, kiln_mv a) { return fcmp(e, LLVMRealUNO, a, a); }
kiln_mv kiln_mb_isinf(const kiln_mb *e, kiln_mv a) {
  return kiln_mb_eq(e, kiln_mb_fabs(e, a), kiln_mb_inf(e));
}
kiln_mv kiln_mb_and(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildAnd(e->b, a, b, ""); }
kiln_mv kiln_mb_or(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildOr(e->b, a, b, ""); }
kiln_mv kiln_mb_not(const kiln_mb *e, kiln_mv a) { return LLVMBuildNot(e->b, a, ""); }
kiln_mv kiln_mb_sel(const kiln_mb *e, kiln_mv c, kiln_mv a, kiln_mv b) {
  return LLVMBuildSelect(e->b, c, a, b, "");
}
kiln_mv kiln_mb_selc(const kiln_mb *e, kiln_mv c, double a, kiln_mv b) {
  return kiln_mb_sel(e, c, kiln_mb_c(e, a), b);
}

kiln_mv kiln_mb_bits(const kiln_mb *e, kiln_mv x) { return LLVMBuildBitCast(e->b, x, e->it, ""); }
kiln_mv kiln_mb_from_bits(const kiln_mb *e, kiln_mv i) { return LLVMBuildBitCast(e->b, i, e->ft, ""); }
kiln_mv kiln_mb_iadd(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildAdd(e->b, a, b, ""); }
kiln_mv kiln_mb_isub(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildSub(e->b, a, b, ""); }
kiln_mv kiln_mb_iand(const kiln_mb *e, kiln_mv a, kiln_mv b) { return LLVMBuildAnd(e->b, a, b, ""); }
kiln_mv kiln_mb_ashr(const kiln_mb *e, kiln_mv a, int s) { return LLVMBuildAShr(e->b, a, kiln_mb_ci(e, s), ""); }
kiln_mv kiln_mb_shl(const kiln_mb *e, kiln_mv a, int s) { return LLVMBuildShl(e->b, a, kiln_mb_ci(e, s), ""); }
kiln_mv kiln_mb_ftoi(const kiln_mb *e, kiln_mv x) { return LLVMBuildFPToSI(e->b, x, e->it, ""); }
kiln_mv kiln_mb_itof(const kiln_mb *e, kiln_mv i) { return LLVMBuildSIToFP(e->b, i, e->ft, ""); }
int kiln_mb_mant_bits(const kiln_mb *e) { return e->dbl ? 52 : 23; }

kiln_mv kiln_mb_pow2i(const kiln_mb *e, kiln_mv n) {
  kiln_mv biased = kiln_mb_iadd(e, n, kiln_mb_ci(e, e->dbl ? 1023 : 127));
  return kiln_mb_from_bits(e, kiln_mb_shl(e, biased, kiln_mb_mant_bits(e)));
}

/* vscalef of x by n (float, integral) where the target and the shape have one (AVX-512
 * with VL: 128, 256 and 512-bit vectors and scalars), else NULL. */
static kiln_mv vscalef(const kiln_mb *e, kiln_mv x, kiln_mv n) {
  unsigned bits = e->lanes * (e->dbl ? 64u : 32u);
  if (!e->avx512 || (e->lanes && bits != 128 && bits != 256 && bits != 512)) return NULL;
  char name[48];
  const char *kind = e->dbl ? "pd" : "ps";
  if (e->lanes) snprintf(name, sizeof name, "llvm.x86.avx512.mask.scalef.%s.%u", kind, bits);
  else snprintf(name, sizeof name, "llvm.x86.avx512.mask.scalef.%s", e->dbl ? "sd" : "ss");
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id) return NULL;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(e->ctx), i32 = LLVMInt32TypeInContext(e->ctx);
  /* a scalar goes in lane 0 of a 128-bit vector; the mask's width is the lanes' */
  LLVMTypeRef vt = e->lanes ? e->ft : LLVMVectorType(e->ft, e->dbl ? 2 : 4);
  LLVMTypeRef mt = e->lanes == 16 ? LLVMInt16TypeInContext(e->ctx) : i8;
  kiln_mv zero = LLVMConstInt(i32, 0, 0), args[5];
  args[0] = e->lanes ? x : LLVMBuildInsertElement(e->b, LLVMGetUndef(vt), x, zero, "");
  args[1] = e->lanes ? n : LLVMBuildInsertElement(e->b, LLVMGetUndef(vt), n, zero, "");
  args[2] = LLVMGetUndef(vt);
  args[3] = LLVMConstAllOnes(mt);
  args[4] = LLVMConstInt(i32, 4, 0); /* the current rounding (to nearest) */
  unsigned nargs = !e->lanes || bits == 512 ? 5 : 4; /* the 128/256-bit forms take no rounding */
  kiln_mv fn = LLVMGetIntrinsicDeclaration(e->m, id, NULL, 0);
  LLVMTypeRef fty = LLVMIntrinsicGetType(e->ctx, id, NULL, 0);
  kiln_mv y = LLVMBuildCall2(e->b, fty, fn, args, nargs, "");
  return e->lanes ? y : LLVMBuildExtractElement(e->b, y, zero, "");
}

kiln_mv kiln_mb_scale_f(const kiln_mb *e, kiln_mv x, kiln_mv nf) {
  kiln_mv y = vscalef(e, x, nf);
  return y ? y : kiln_mb_scale(e, x, kiln_mb_ftoi(e, nf));
}

kiln_mv kiln_mb_scale(const kiln_mb *e, kiln_mv x, kiln_mv n) {
  kiln_mv y1 = vscalef(e, x, kiln_mb_itof(e, n));
  if (y1) return y1;
  kiln_mv h = kiln_mb_ashr(e, n, 1);
  kiln_mv y = kiln_mb_mul(e, x, kiln_mb_pow2i(e, h));
  return kiln_mb_mul(e, y, kiln_mb_pow2i(e, kiln_mb_isub(e, n, h)));
}

typedef struct small_scale {
  kiln_mv x, n;
  int x_exp_min;
} small_scale;

/* t = |x| 2^(n - emin + mant), exact and normal (the shift is held where t is below 1/2
 * whatever x is: such lanes round to zero), is the result's significand when t < 2^mant,
 * rounded once to an integer; lanes whose result is normal after all scale by multiplying. */
kiln_mv kiln_mb_scale_small_lanes(const kiln_mb *e, kiln_mv x, kiln_mv n, int x_exp_min) {
  int mant = kiln_mb_mant_bits(e), emin = e->dbl ? -1022 : -126;
  kiln_mv shift = kiln_mb_itof(e, kiln_mb_isub(e, n, kiln_mb_ci(e, emin - mant)));
  double least = (double)(emin - x_exp_min); /* |x| 2^least is normal, and far below 1/2 */
  shift = kiln_mb_sel(e, kiln_mb_ltc(e, shift, least), kiln_mb_c(e, least), shift);
  kiln_mv t = kiln_mb_mul(e, kiln_mb_fabs(e, x), kiln_mb_pow2i(e, kiln_mb_ftoi(e, shift)));
  kiln_mv small = kiln_mb_ltc(e, t, (double)(1ll << mant));
  kiln_mv bits = kiln_mb_ftoi(e, kiln_mb_rint(e, kiln_mb_sel(e, small, t, kiln_mb_c(e, 0.0))));
  kiln_mv sub = kiln_mb_copysign(e, kiln_mb_from_bits(e, bits), x);
  return kiln_mb_sel(e, small, sub, kiln_mb_scale(e, x, kiln_mb_sel(e, small, kiln_mb_ci(e, 0), n)));
}

static void scale_small_lanes(const kiln_mb *e, const void *ctx, kiln_mv *out) {
  const small_scale *c = ctx;
  out[0] = kiln_mb_scale_small_lanes(e, c->x, c->n, c->x_exp_min);
}

kiln_mv kiln_mb_scale_small(const kiln_mb *e, kiln_mv x, kiln_mv n, int x_exp_min) {
  int emin = e->dbl ? -1022 : -126;
  kiln_mv maybe = kiln_mb_ltc(e, kiln_mb_itof(e, n), (double)(emin - x_exp_min));
  kiln_mv y = kiln_mb_scale(e, x, kiln_mb_sel(e, maybe, kiln_mb_ci(e, 0), n));
  small_scale c = {x, n, x_exp_min};
  kiln_mb_where_any(e, maybe, 1, &y, scale_small_lanes, &c);
  return y;
}

void kiln_mb_where_any(const kiln_mb *e, kiln_mv mask, int n, kiln_mv *values, kiln_mb_lanes_fn fn, const void *ctx) {
  enum { MAX = 4 };
  LLVMBasicBlockRef from = LLVMGetInsertBlock(e->b);
  LLVMValueRef f = LLVMGetBasicBlockParent(from);
  LLVMBasicBlockRef work = LLVMAppendBasicBlockInContext(e->ctx, f, "where");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(e->ctx, f, "where.join");
  LLVMBuildCondBr(e->b, kiln_cpu_any_lane(e->b, mask), work, join);
  LLVMPositionBuilderAtEnd(e->b, work);
  kiln_mv taken[MAX];
  fn(e, ctx, taken);
  for (int i = 0; i < n && i < MAX; i++) taken[i] = kiln_mb_sel(e, mask, taken[i], values[i]);
  LLVMBasicBlockRef blocks[2] = {from, LLVMGetInsertBlock(e->b)};
  LLVMBuildBr(e->b, join);
  LLVMPositionBuilderAtEnd(e->b, join);
  for (int i = 0; i < n && i < MAX; i++) {
    LLVMValueRef v = LLVMBuildPhi(e->b, LLVMTypeOf(values[i]), ""), vals[2] = {values[i], taken[i]};
    LLVMAddIncoming(v, vals, blocks, 2);
    values[i] = v;
  }
}
