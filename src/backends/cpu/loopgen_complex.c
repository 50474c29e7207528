/* Complex numbers in loop kernels (see loopgen.h): a value is {re, im}, each part an f64
 * (or a vector of f64 lanes) whatever the type, as the interpreter computes every complex
 * op in double and rounds its result to the type's parts; a complex<f32> result is
 * rounded to f32 parts after every op here too. Storage interleaves the parts (re, im
 * per element). Multiplication and division replay libgcc's __muldc3 and __divdc3 (C99
 * Annex G: scaling against overflow and underflow, infinities recovered from NaN
 * results) and abs glibc's hypot, branch-free over lanes, so the results are the
 * interpreter's bits. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "backends/cpu/llvm_math.h"
#include "backends/cpu/loopgen.h"

typedef LLVMValueRef V;

static LLVMTypeRef vec_of(LLVMTypeRef t, int w) { return w == 1 ? t : LLVMVectorType(t, (unsigned)w); }

LLVMTypeRef kiln_cpu_complex_type(const kiln_cpu_gen *g, int w) {
  LLVMTypeRef parts[2] = {vec_of(g->f64, w), vec_of(g->f64, w)};
  return LLVMStructTypeInContext(g->c, parts, 2, 0);
}

static V re_of(kiln_cpu_gen *g, V z) { return LLVMBuildExtractValue(g->b, z, 0, ""); }
static V im_of(kiln_cpu_gen *g, V z) { return LLVMBuildExtractValue(g->b, z, 1, ""); }

static V make(kiln_cpu_gen *g, V re, V im) {
  V z = LLVMGetUndef(kiln_cpu_complex_type(g, kiln_cpu_width(re)));
  z = LLVMBuildInsertValue(g->b, z, re, 0, "");
  return LLVMBuildInsertValue(g->b, z, im, 1, "");
}

/* ---------------------------------------------------------------- lane arithmetic */

static V cst(kiln_cpu_gen *g, V like, double f) { return kiln_cpu_fconst_like(g, like, f); }
static V add(kiln_cpu_gen *g, V x, V y) { return LLVMBuildFAdd(g->b, x, y, ""); }
static V sub(kiln_cpu_gen *g, V x, V y) { return LLVMBuildFSub(g->b, x, y, ""); }
static V mul(kiln_cpu_gen *g, V x, V y) { return LLVMBuildFMul(g->b, x, y, ""); }
static V div_(kiln_cpu_gen *g, V x, V y) { return LLVMBuildFDiv(g->b, x, y, ""); }
static V sel(kiln_cpu_gen *g, V c, V x, V y) { return LLVMBuildSelect(g->b, c, x, y, ""); }
static V and_(kiln_cpu_gen *g, V x, V y) { return LLVMBuildAnd(g->b, x, y, ""); }
static V or_(kiln_cpu_gen *g, V x, V y) { return LLVMBuildOr(g->b, x, y, ""); }
static V not_(kiln_cpu_gen *g, V x) { return LLVMBuildNot(g->b, x, ""); }
static V cmp(kiln_cpu_gen *g, LLVMRealPredicate p, V x, V y) { return LLVMBuildFCmp(g->b, p, x, y, ""); }
static V fabs_(kiln_cpu_gen *g, V x) { return kiln_cpu_intrinsic(g, "llvm.fabs", &x, 1, 1); }
static V copysign_(kiln_cpu_gen *g, V mag, V sgn) {
  V a[2] = {mag, sgn};
  return kiln_cpu_intrinsic(g, "llvm.copysign", a, 2, 1);
}
static V is_nan(kiln_cpu_gen *g, V x) { return cmp(g, LLVMRealUNO, x, x); }
static V is_inf(kiln_cpu_gen *g, V x) { return cmp(g, LLVMRealOEQ, fabs_(g, x), cst(g, x, INFINITY)); }
static V is_finite(kiln_cpu_gen *g, V x) { return cmp(g, LLVMRealOLT, fabs_(g, x), cst(g, x, INFINITY)); }
/* x where keep, else y: the same select over the four parts of a division's operands */
static void sel4(kiln_cpu_gen *g, V c, V *v, const V *y) {
  for (int i = 0; i < 4; i++) v[i] = sel(g, c, v[i], y[i]);
}
/* copysign(isinf(x) ? 1 : 0, x): Annex G's "box" of an infinity */
static V box(kiln_cpu_gen *g, V x) { return copysign_(g, sel(g, is_inf(g, x), cst(g, x, 1.0), cst(g, x, 0.0)), x); }
/* x, or copysign(0, x) where x is NaN */
static V nan_to_zero(kiln_cpu_gen *g, V x) { return sel(g, is_nan(g, x), copysign_(g, cst(g, x, 0.0), x), x); }

/* A signaling NaN (the quiet bit clear): glibc's hypot returns x + y for one, not inf. */
static V is_signaling(kiln_cpu_gen *g, V x) {
  int w = kiln_cpu_width(x);
  V bits = LLVMBuildBitCast(g->b, x, vec_of(g->i64, w), "");
  V quiet = and_(g, bits, kiln_cpu_splat(g, LLVMConstInt(g->i64, 1ull << 51, 0), w));
  return and_(g, is_nan(g, x), LLVMBuildICmp(g->b, LLVMIntEQ, quiet, kiln_cpu_splat(g, LLVMConstInt(g->i64, 0, 0), w), ""));
}

/* A part rounded to part type pe's precision (f32 parts: through float and back). */
static V round_part(kiln_cpu_gen *g, kiln_elem pe, V x) {
  if (pe != KILN_ELEM_F32) return x;
  int w = kiln_cpu_width(x);
  return LLVMBuildFPExt(g->b, LLVMBuildFPTrunc(g->b, x, vec_of(g->f32, w), ""), vec_of(g->f64, w), "");
}

static V make_rounded(kiln_cpu_gen *g, kiln_elem e, V re, V im) {
  kiln_elem pe = kiln_elem_complex_part(e);
  return make(g, round_part(g, pe, re), round_part(g, pe, im));
}

/* ---------------------------------------------------------------- memory */

static V part_ptr(kiln_cpu_gen *g, V base, LLVMTypeRef pt, V index) {
  V typed = LLVMBuildBitCast(g->b, base, LLVMPointerType(pt, 0), "");
  return LLVMBuildGEP2(g->b, pt, typed, &index, 1, "");
}

static V load_part(kiln_cpu_gen *g, V base, LLVMTypeRef pt, unsigned align, V index) {
  V v = LLVMBuildLoad2(g->b, pt, part_ptr(g, base, pt, index), "");
  LLVMSetAlignment(v, align);
  return v;
}

static V to_f64(kiln_cpu_gen *g, V v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  int w = kiln_cpu_width(v);
  return t == vec_of(g->f64, w) ? v : LLVMBuildFPExt(g->b, v, vec_of(g->f64, w), "");
}

/* Lanes 0, 2, 4, ... (first = 0) or 1, 3, 5, ... of a vector of 2w parts. */
static V deinterleave(kiln_cpu_gen *g, V v, int w, int first) {
  LLVMValueRef *mask = malloc(sizeof *mask * (size_t)w);
  if (!mask) return NULL;
  for (int i = 0; i < w; i++) mask[i] = LLVMConstInt(g->i32, (uint64_t)(2 * i + first), 0);
  V r = LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(LLVMTypeOf(v)), LLVMConstVector(mask, (unsigned)w), "");
  free(mask);
  return r;
}

V kiln_cpu_complex_load(kiln_cpu_gen *g, V base, kiln_elem e, V offset, int64_t stride, int w) {
  bool f32 = kiln_elem_complex_part(e) == KILN_ELEM_F32;
  LLVMTypeRef pt = f32 ? g->f32 : g->f64;
  unsigned align = f32 ? 4 : 8;
  V two = LLVMConstInt(g->i64, 2, 0), one = LLVMConstInt(g->i64, 1, 0);
  V at = LLVMBuildMul(g->b, offset, two, "");
  if (w == 1 || stride == 0) {
    V re = to_f64(g, load_part(g, base, pt, align, at));
    V im = to_f64(g, load_part(g, base, pt, align, LLVMBuildAdd(g->b, at, one, "")));
    return make(g, kiln_cpu_splat(g, re, w), kiln_cpu_splat(g, im, w));
  }
  V both;
  if (stride == 1) {
    LLVMTypeRef vt = LLVMVectorType(pt, (unsigned)(2 * w));
    V p = LLVMBuildBitCast(g->b, part_ptr(g, base, pt, at), LLVMPointerType(vt, 0), "");
    both = LLVMBuildLoad2(g->b, vt, p, "");
    LLVMSetAlignment(both, align);
  } else {
    both = LLVMGetUndef(LLVMVectorType(pt, (unsigned)(2 * w)));
    for (int i = 0; i < w; i++) {
      V idx = LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, (uint64_t)(2 * stride * i), 1), "");
      for (int k = 0; k < 2; k++) {
        V s = load_part(g, base, pt, align, k ? LLVMBuildAdd(g->b, idx, one, "") : idx);
        both = LLVMBuildInsertElement(g->b, both, s, LLVMConstInt(g->i32, (uint64_t)(2 * i + k), 0), "");
      }
    }
  }
  V re = deinterleave(g, both, w, 0), im = deinterleave(g, both, w, 1);
  return re && im ? make(g, to_f64(g, re), to_f64(g, im)) : NULL;
}

void kiln_cpu_complex_store(kiln_cpu_gen *g, V base, kiln_elem e, V offset, V v) {
  bool f32 = kiln_elem_complex_part(e) == KILN_ELEM_F32;
  LLVMTypeRef pt = f32 ? g->f32 : g->f64;
  int w = kiln_cpu_width(v);
  V re = re_of(g, v), im = im_of(g, v);
  if (f32) {
    re = LLVMBuildFPTrunc(g->b, re, vec_of(g->f32, w), "");
    im = LLVMBuildFPTrunc(g->b, im, vec_of(g->f32, w), "");
  }
  V at = LLVMBuildMul(g->b, offset, LLVMConstInt(g->i64, 2, 0), "");
  if (w == 1) {
    LLVMSetAlignment(LLVMBuildStore(g->b, re, part_ptr(g, base, pt, at)), f32 ? 4 : 8);
    V at1 = LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, 1, 0), "");
    LLVMSetAlignment(LLVMBuildStore(g->b, im, part_ptr(g, base, pt, at1)), f32 ? 4 : 8);
    return;
  }
  LLVMValueRef mask[128];
  for (int i = 0; i < 2 * w && i < 128; i++) mask[i] = LLVMConstInt(g->i32, (uint64_t)(i / 2 + (i % 2) * w), 0);
  V both = LLVMBuildShuffleVector(g->b, re, im, LLVMConstVector(mask, (unsigned)(2 * w)), "");
  LLVMTypeRef vt = LLVMVectorType(pt, (unsigned)(2 * w));
  V p = LLVMBuildBitCast(g->b, part_ptr(g, base, pt, at), LLVMPointerType(vt, 0), "");
  LLVMSetAlignment(LLVMBuildStore(g->b, both, p), f32 ? 4 : 8);
}

V kiln_cpu_complex_const(kiln_cpu_gen *g, kiln_scalar v, int w) {
  return make(g, kiln_cpu_splat(g, LLVMConstReal(g->f64, v.f), w), kiln_cpu_splat(g, LLVMConstReal(g->f64, v.im), w));
}

/* ---------------------------------------------------------------- arithmetic */

/* __muldc3's recovery of infinities (below), for the lanes whose plain products x + iy
 * came out NaN in both parts. */
static V multiply_recover(kiln_cpu_gen *g, V a, V b, V c, V d, V x, V y) {
  V ac = mul(g, a, c), bd = mul(g, b, d), ad = mul(g, a, d), bc = mul(g, b, c);
  V z_inf = or_(g, is_inf(g, a), is_inf(g, b));
  V a1 = sel(g, z_inf, box(g, a), a), b1 = sel(g, z_inf, box(g, b), b);
  V c1 = sel(g, z_inf, nan_to_zero(g, c), c), d1 = sel(g, z_inf, nan_to_zero(g, d), d);
  V u_inf = or_(g, is_inf(g, c1), is_inf(g, d1));
  V c2 = sel(g, u_inf, box(g, c1), c1), d2 = sel(g, u_inf, box(g, d1), d1);
  V a2 = sel(g, u_inf, nan_to_zero(g, a1), a1), b2 = sel(g, u_inf, nan_to_zero(g, b1), b1);
  V recalc = or_(g, z_inf, u_inf);
  V big = or_(g, or_(g, is_inf(g, ac), is_inf(g, bd)), or_(g, is_inf(g, ad), is_inf(g, bc)));
  V over = and_(g, not_(g, recalc), big);
  V p[4] = {a2, b2, c2, d2}, zeroed[4];
  for (int i = 0; i < 4; i++) zeroed[i] = nan_to_zero(g, p[i]);
  sel4(g, over, zeroed, p);
  V inf = cst(g, x, INFINITY);
  V rx = mul(g, inf, sub(g, mul(g, zeroed[0], zeroed[2]), mul(g, zeroed[1], zeroed[3])));
  V ry = mul(g, inf, add(g, mul(g, zeroed[0], zeroed[3]), mul(g, zeroed[1], zeroed[2])));
  V use = and_(g, and_(g, is_nan(g, x), is_nan(g, y)), or_(g, recalc, over));
  return make(g, sel(g, use, rx, x), sel(g, use, ry, y));
}

/* Every lane's result computed from args, right for the usual lanes too (unless_rare takes
 * it whole for a vector with a rare lane). */
typedef V (*rare_fn)(kiln_cpu_gen *g, const V *args);

/* plain, or where some lane is `rare`, what fn computes from args: in a block of its own,
 * entered only then, so that the common vector pays a test and a branch. */
static V unless_rare(kiln_cpu_gen *g, V plain, V rare, rare_fn fn, const V *args) {
  LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b);
  LLVMValueRef f = LLVMGetBasicBlockParent(from);
  LLVMBasicBlockRef work = LLVMAppendBasicBlockInContext(g->c, f, "rare");
  LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(g->c, f, "rare.join");
  LLVMBuildCondBr(g->b, kiln_cpu_any_lane(g->b, rare), work, join);
  LLVMPositionBuilderAtEnd(g->b, work);
  V taken = fn(g, args);
  LLVMBasicBlockRef work_end = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
  V r = LLVMBuildPhi(g->b, LLVMTypeOf(plain), "");
  V vals[2] = {plain, taken};
  LLVMBasicBlockRef blocks[2] = {from, work_end};
  LLVMAddIncoming(r, vals, blocks, 2);
  return r;
}

static V multiply_rare(kiln_cpu_gen *g, const V *v) { return multiply_recover(g, v[0], v[1], v[2], v[3], v[4], v[5]); }

/* (a + bi)(c + di) as libgcc's __muldc3: the plain products, and where both parts come
 * out NaN, infinities recovered (an infinite factor boxed to +-1/0, NaNs in the other
 * factor made 0, then scaled by infinity). The recovery, four times the plain products'
 * work, runs only for a vector with such a lane (unless_rare). */
static V multiply(kiln_cpu_gen *g, V z, V u) {
  V a = re_of(g, z), b = im_of(g, z), c = re_of(g, u), d = im_of(g, u);
  V x = sub(g, mul(g, a, c), mul(g, b, d)), y = add(g, mul(g, a, d), mul(g, b, c));
  V args[6] = {a, b, c, d, x, y};
  return unless_rare(g, make(g, x, y), and_(g, is_nan(g, x), is_nan(g, y)), multiply_rare, args);
}

/* (a + bi) / (c + di) as libgcc's __divdc3 (GCC 11 on): Smith's algorithm on the operands
 * scaled against overflow and underflow, the products reordered where the ratio is
 * subnormal, then Annex G's recovery of infinities and zeros that came out NaN + NaN i.
 * Both of Smith's branches are one computation here with p/q the ratio (c/d where
 * |c| < |d|, else d/c). */
static V divide(kiln_cpu_gen *g, V z, V u) {
  V v[4] = {re_of(g, z), im_of(g, z), re_of(g, u), im_of(g, u)}; /* a, b, c, d */
  V like = v[0];
  const double rbig = DBL_MAX / 2, rmin = DBL_MIN, rmin2 = DBL_EPSILON, rminscal = 1 / DBL_EPSILON,
               rmax2 = rbig * rmin2;
  V swap = not_(g, cmp(g, LLVMRealOLT, fabs_(g, v[2]), fabs_(g, v[3]))); /* Smith's second branch */
  V q = sel(g, swap, v[2], v[3]);
  V halve = cmp(g, LLVMRealOGE, fabs_(g, q), cst(g, like, rbig)), halved[4];
  for (int i = 0; i < 4; i++) halved[i] = mul(g, v[i], cst(g, like, 0.5));
  sel4(g, halve, halved, v);
  for (int i = 0; i < 4; i++) v[i] = halved[i];
  V aq = fabs_(g, sel(g, swap, v[2], v[3])), aa = fabs_(g, v[0]), ab = fabs_(g, v[1]);
  V small_q = cmp(g, LLVMRealOLT, aq, cst(g, like, rmin2));
  V q_ok = cmp(g, LLVMRealOLT, aq, cst(g, like, rmax2));
  V tiny_a = and_(g, and_(g, cmp(g, LLVMRealOLT, aa, cst(g, like, rmin)), cmp(g, LLVMRealOLT, ab, cst(g, like, rmax2))), q_ok);
  V tiny_b = and_(g, and_(g, cmp(g, LLVMRealOLT, ab, cst(g, like, rmin)), cmp(g, LLVMRealOLT, aa, cst(g, like, rmax2))), q_ok);
  V up = or_(g, small_q, or_(g, tiny_a, tiny_b)), scaled[4];
  for (int i = 0; i < 4; i++) scaled[i] = mul(g, v[i], cst(g, like, rminscal));
  sel4(g, up, scaled, v);
  V a = scaled[0], b = scaled[1], c = scaled[2], d = scaled[3];
  V p = sel(g, swap, d, c);
  q = sel(g, swap, c, d);
  V ratio = div_(g, p, q), denom = add(g, mul(g, p, ratio), q);
  V normal = cmp(g, LLVMRealOGT, fabs_(g, ratio), cst(g, like, rmin));
  V ma = sel(g, normal, mul(g, a, ratio), mul(g, p, div_(g, a, q)));
  V mb = sel(g, normal, mul(g, b, ratio), mul(g, p, div_(g, b, q)));
  V x = div_(g, sel(g, swap, add(g, mb, a), add(g, ma, b)), denom);
  V y = div_(g, sel(g, swap, sub(g, b, ma), sub(g, mb, a)), denom);
  /* recovery, in Annex G's order */
  V zero = cst(g, like, 0.0), inf = cst(g, like, INFINITY);
  V both_nan = and_(g, is_nan(g, x), is_nan(g, y));
  V by_zero = and_(g, and_(g, cmp(g, LLVMRealOEQ, c, zero), cmp(g, LLVMRealOEQ, d, zero)),
                   or_(g, not_(g, is_nan(g, a)), not_(g, is_nan(g, b))));
  V sinf = copysign_(g, inf, c);
  V x1 = mul(g, sinf, a), y1 = mul(g, sinf, b);
  V inf_num = and_(g, or_(g, is_inf(g, a), is_inf(g, b)), and_(g, is_finite(g, c), is_finite(g, d)));
  V ab_ = box(g, a), bb = box(g, b);
  V x2 = mul(g, inf, add(g, mul(g, ab_, c), mul(g, bb, d))), y2 = mul(g, inf, sub(g, mul(g, bb, c), mul(g, ab_, d)));
  V inf_den = and_(g, or_(g, is_inf(g, c), is_inf(g, d)), and_(g, is_finite(g, a), is_finite(g, b)));
  V cb = box(g, c), db = box(g, d);
  V x3 = mul(g, zero, add(g, mul(g, a, cb), mul(g, b, db))), y3 = mul(g, zero, sub(g, mul(g, b, cb), mul(g, a, db)));
  V rx = sel(g, by_zero, x1, sel(g, inf_num, x2, sel(g, inf_den, x3, x)));
  V ry = sel(g, by_zero, y1, sel(g, inf_num, y2, sel(g, inf_den, y3, y)));
  return make(g, sel(g, both_nan, rx, x), sel(g, both_nan, ry, y));
}

/* glibc's hypot (2.35 on, without FMA): a square root corrected by its residual, inputs
 * scaled by 2^-600 / 2^600 where the larger is huge or the smaller tiny, and ax + ay where
 * the smaller is negligible; inf for an infinite part unless a part is a signaling NaN. */
static V hypot_kernel(kiln_cpu_gen *g, V ax, V ay) {
  V two = cst(g, ax, 2.0);
  V h = kiln_cpu_intrinsic(g, "llvm.sqrt", (V[]){add(g, mul(g, ax, ax), mul(g, ay, ay))}, 1, 1);
  V near = cmp(g, LLVMRealOLE, h, mul(g, two, ay));
  V d1 = sub(g, h, ay), d2 = sub(g, h, ax);
  V t1a = mul(g, ax, sub(g, mul(g, two, d1), ax)), t2a = mul(g, sub(g, d1, mul(g, two, sub(g, ax, ay))), d1);
  V t1b = mul(g, mul(g, two, d2), sub(g, ax, mul(g, two, ay)));
  V t2b = add(g, mul(g, sub(g, mul(g, cst(g, ax, 4.0), d2), ay), ay), mul(g, d2, d2));
  V t = add(g, sel(g, near, t1a, t1b), sel(g, near, t2a, t2b));
  return sub(g, h, div_(g, t, mul(g, two, h)));
}

enum { HYPOT_LARGE_EXP = 511, HYPOT_EPS_EXP = -54 };

static V hypot_all(kiln_cpu_gen *g, const V *xy) {
  V x = xy[0], y = xy[1];
  const double scale = 0x1p-600, unscale = 0x1p600, large = ldexp(1, HYPOT_LARGE_EXP),
               tiny = ldexp(1, -HYPOT_LARGE_EXP), eps = ldexp(1, HYPOT_EPS_EXP);
  V nonfinite = or_(g, not_(g, is_finite(g, x)), not_(g, is_finite(g, y)));
  V inf = and_(g, or_(g, is_inf(g, x), is_inf(g, y)), not_(g, or_(g, is_signaling(g, x), is_signaling(g, y))));
  V special = sel(g, inf, cst(g, x, INFINITY), add(g, x, y));
  V fx = fabs_(g, x), fy = fabs_(g, y), lt = cmp(g, LLVMRealOLT, fx, fy);
  V ax = sel(g, lt, fy, fx), ay = sel(g, lt, fx, fy);
  V big = cmp(g, LLVMRealOGT, ax, cst(g, x, large));
  V small = and_(g, not_(g, big), cmp(g, LLVMRealOLT, ay, cst(g, x, tiny)));
  V in = sel(g, big, cst(g, x, scale), sel(g, small, cst(g, x, unscale), cst(g, x, 1.0)));
  V out = sel(g, big, cst(g, x, unscale), sel(g, small, cst(g, x, scale), cst(g, x, 1.0)));
  V k = mul(g, hypot_kernel(g, mul(g, ax, in), mul(g, ay, in)), out);
  V negligible = sel(g, small, cmp(g, LLVMRealOGE, ax, div_(g, ay, cst(g, x, eps))),
                     cmp(g, LLVMRealOLE, ay, mul(g, ax, cst(g, x, eps))));
  return sel(g, nonfinite, special, sel(g, negligible, add(g, ax, ay), k));
}

/* glibc's hypot (hypot_all); a lane whose parts are finite, neither scaled nor negligible
 * (the larger at most 2^511, the smaller at least 2^-511 and above the larger times 2^-54)
 * is the kernel's alone, so hypot_all runs only for a vector with another lane
 * (unless_rare): abs of complex<f64>[1048576] 1000 -> 575 us, of complex<f32> 1014 -> 680
 * (2 threads, AMD Zen 4). A vector of infinities and NaNs (a Mandelbrot iteration's
 * escaped points) still takes the whole of it. */
static V hypot_(kiln_cpu_gen *g, V x, V y) {
  V fx = fabs_(g, x), fy = fabs_(g, y), lt = cmp(g, LLVMRealOLT, fx, fy);
  V ax = sel(g, lt, fy, fx), ay = sel(g, lt, fx, fy);
  V usual = and_(g, cmp(g, LLVMRealOLE, ax, cst(g, x, ldexp(1, HYPOT_LARGE_EXP))),
                 and_(g, cmp(g, LLVMRealOGE, ay, cst(g, x, ldexp(1, -HYPOT_LARGE_EXP))),
                      cmp(g, LLVMRealOGT, ay, mul(g, ax, cst(g, x, ldexp(1, HYPOT_EPS_EXP))))));
  V args[2] = {x, y};
  return unless_rare(g, hypot_kernel(g, ax, ay), not_(g, usual), hypot_all, args);
}

/* sign: NaN + NaN i if a part is NaN, 0 for 0, else z / |z| part by part. */
static V sign(kiln_cpu_gen *g, V z) {
  V re = re_of(g, z), im = im_of(g, z), h = hypot_(g, re, im);
  V nan = or_(g, is_nan(g, re), is_nan(g, im)), zero = cst(g, re, 0.0);
  V is_zero = and_(g, cmp(g, LLVMRealOEQ, re, zero), cmp(g, LLVMRealOEQ, im, zero));
  V q = cst(g, re, NAN);
  V rr = sel(g, nan, q, sel(g, is_zero, zero, div_(g, re, h)));
  V ri = sel(g, nan, q, sel(g, is_zero, zero, div_(g, im, h)));
  return make(g, rr, ri);
}

/* e^x c with no spurious overflow of e^x on its own (|x| >= 700: e^(x/2) twice). */
static V exp_mul(kiln_cpu_gen *g, V x, V c) {
  V whole = mul(g, kiln_cpu_emit_unary_math(g->m, g->b, KILN_OP_EXPONENTIAL, x), c);
  V h = kiln_cpu_emit_unary_math(g->m, g->b, KILN_OP_EXPONENTIAL, mul(g, x, cst(g, x, 0.5)));
  return sel(g, cmp(g, LLVMRealOLT, fabs_(g, x), cst(g, x, 700.0)), whole, mul(g, mul(g, h, c), h));
}

/* e^z as the interpreter's kiln_cplx_exp: e^x for a zero imaginary part (kept); NaN + NaN i
 * for a NaN real or a non-finite imaginary part; an infinite real part times cos/sin (0
 * times them for -inf); else e^x cos y + i e^x sin y, with the polynomials of llvm_math in
 * f64. */
static V exp_(kiln_cpu_gen *g, V z) {
  V x = re_of(g, z), y = im_of(g, z);
  V c = kiln_cpu_emit_unary_math(g->m, g->b, KILN_OP_COSINE, y), s = kiln_cpu_emit_unary_math(g->m, g->b, KILN_OP_SINE, y);
  V zero = cst(g, x, 0.0), nan = cst(g, x, NAN);
  V inf_scale = sel(g, cmp(g, LLVMRealOLT, x, zero), zero, x);
  V re = sel(g, is_inf(g, x), mul(g, inf_scale, c), exp_mul(g, x, c));
  V im = sel(g, is_inf(g, x), mul(g, inf_scale, s), exp_mul(g, x, s));
  V undefined = or_(g, is_nan(g, x), not_(g, is_finite(g, y)));
  re = sel(g, undefined, nan, re);
  im = sel(g, undefined, nan, im);
  V real_axis = cmp(g, LLVMRealOEQ, y, zero);
  return make(g, sel(g, real_axis, kiln_cpu_emit_unary_math(g->m, g->b, KILN_OP_EXPONENTIAL, x), re),
              sel(g, real_axis, y, im));
}

/* ---------------------------------------------------------------- order */

/* Lexicographic order on (re, im), as the interpreter compares complex numbers: direction
 * d (EQ, NE, GE, GT, LE, LT); an unordered part makes every direction but NE false. */
static V compare(kiln_cpu_gen *g, int d, V z, V u) {
  static const LLVMRealPredicate strict[] = {LLVMRealOGT, LLVMRealOGT, LLVMRealOLT, LLVMRealOLT};
  static const LLVMRealPredicate second[] = {LLVMRealOGE, LLVMRealOGT, LLVMRealOLE, LLVMRealOLT};
  V zr = re_of(g, z), ur = re_of(g, u), zi = im_of(g, z), ui = im_of(g, u);
  V req = cmp(g, LLVMRealOEQ, zr, ur);
  if (d < 2) {
    V eq = and_(g, req, cmp(g, LLVMRealOEQ, zi, ui));
    return d == 0 ? eq : not_(g, eq);
  }
  return or_(g, cmp(g, strict[d - 2], zr, ur), and_(g, req, cmp(g, second[d - 2], zi, ui)));
}

static V select_parts(kiln_cpu_gen *g, V c, V z, V u) {
  return make(g, sel(g, c, re_of(g, z), re_of(g, u)), sel(g, c, im_of(g, z), im_of(g, u)));
}

/* ---------------------------------------------------------------- conversions and ops */

V kiln_cpu_complex_convert(kiln_cpu_gen *g, kiln_elem from, kiln_elem to, V x) {
  if (kiln_elem_is_complex(from) && kiln_elem_is_complex(to)) /* f64 parts hold both; to f32 rounds */
    return from == to ? x : make_rounded(g, to, re_of(g, x), im_of(g, x));
  if (kiln_elem_is_complex(from)) return kiln_cpu_convert(g, KILN_ELEM_F64, to, re_of(g, x)); /* drops im */
  V re = to_f64(g, kiln_cpu_convert(g, from, kiln_elem_complex_part(to), x));
  return make(g, re, cst(g, re, 0.0));
}

/* A part (f64) as a value of real type e's compute type (f32 rounds). */
static V as_real(kiln_cpu_gen *g, kiln_elem e, V x) { return kiln_cpu_convert(g, KILN_ELEM_F64, e, x); }

V kiln_cpu_complex_op(kiln_cpu_gen *g, kiln_op_kind kind, const kiln_op *op, kiln_elem re, const kiln_elem *ae, V *a) {
  switch (kind) {
    case KILN_OP_ADD:
      return make_rounded(g, re, add(g, re_of(g, a[0]), re_of(g, a[1])), add(g, im_of(g, a[0]), im_of(g, a[1])));
    case KILN_OP_SUBTRACT:
      return make_rounded(g, re, sub(g, re_of(g, a[0]), re_of(g, a[1])), sub(g, im_of(g, a[0]), im_of(g, a[1])));
    case KILN_OP_MULTIPLY: {
      V r = multiply(g, a[0], a[1]);
      return make_rounded(g, re, re_of(g, r), im_of(g, r));
    }
    case KILN_OP_DIVIDE: {
      V r = divide(g, a[0], a[1]);
      return make_rounded(g, re, re_of(g, r), im_of(g, r));
    }
    case KILN_OP_NEGATE: return make(g, LLVMBuildFNeg(g->b, re_of(g, a[0]), ""), LLVMBuildFNeg(g->b, im_of(g, a[0]), ""));
    case KILN_OP_ABS: return as_real(g, re, hypot_(g, re_of(g, a[0]), im_of(g, a[0])));
    case KILN_OP_SIGN: {
      V r = sign(g, a[0]);
      return make_rounded(g, re, re_of(g, r), im_of(g, r));
    }
    case KILN_OP_EXPONENTIAL: {
      V r = exp_(g, a[0]);
      return make_rounded(g, re, re_of(g, r), im_of(g, r));
    }
    case KILN_OP_COMPLEX: return make(g, to_f64(g, a[0]), to_f64(g, a[1]));
    case KILN_OP_REAL:
      return kiln_elem_is_complex(ae[0]) ? as_real(g, re, re_of(g, a[0])) : a[0];
    case KILN_OP_IMAG:
      return kiln_elem_is_complex(ae[0]) ? as_real(g, re, im_of(g, a[0])) : cst(g, a[0], 0.0);
    case KILN_OP_CONVERT: return kiln_cpu_complex_convert(g, ae[0], re, a[0]);
    case KILN_OP_COMPARE: {
      int d = op ? kiln_cpu_compare_direction(op) : -1;
      return d < 0 ? NULL : compare(g, d, a[0], a[1]);
    }
    case KILN_OP_SELECT: return select_parts(g, a[0], a[1], a[2]);
    case KILN_OP_MAXIMUM: return select_parts(g, compare(g, 3, a[0], a[1]), a[0], a[1]);
    case KILN_OP_MINIMUM: return select_parts(g, compare(g, 5, a[0], a[1]), a[0], a[1]);
    case KILN_OP_CLAMP: { /* minimum(maximum(operand, min), max) */
      V lo = select_parts(g, compare(g, 3, a[1], a[0]), a[1], a[0]);
      return select_parts(g, compare(g, 5, lo, a[2]), lo, a[2]);
    }
    default: return NULL;
  }
}

bool kiln_cpu_complex_supports(const kiln_op *op) {
  switch (op->kind) {
    case KILN_OP_ADD: case KILN_OP_SUBTRACT: case KILN_OP_MULTIPLY: case KILN_OP_DIVIDE: case KILN_OP_NEGATE:
    case KILN_OP_ABS: case KILN_OP_SIGN: case KILN_OP_COMPLEX: case KILN_OP_REAL: case KILN_OP_IMAG:
    case KILN_OP_CONVERT: case KILN_OP_SELECT: case KILN_OP_MAXIMUM: case KILN_OP_MINIMUM: case KILN_OP_CLAMP:
      return true;
    case KILN_OP_COMPARE: return kiln_cpu_compare_direction(op) >= 0;
    case KILN_OP_EXPONENTIAL:
      return kiln_cpu_math_has(KILN_OP_EXPONENTIAL, true) && kiln_cpu_math_has(KILN_OP_SINE, true) &&
             kiln_cpu_math_has(KILN_OP_COSINE, true);
    default: return false;
  }
}
