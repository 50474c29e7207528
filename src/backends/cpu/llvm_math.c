/* Entry points of the vectorised math library: op -> kernel table, type checks, and the
 * one-per-(op, type) internal helper functions. Kernels live in llvm_math_*.c. */
#include "backends/cpu/llvm_math.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backends/cpu/llvm_math_internal.h"

typedef struct kiln_math_entry {
  kiln_op_kind kind;
  const char *name;
  kiln_math_unary_fn unary;
  kiln_math_binary_fn binary;
  bool f32_via_f64; /* the f32 kernel computes in f64 and rounds once */
  bool keep_zero;   /* f(+-0) = +-0: the input zero is returned as is */
  int16_t adds;     /* the f32 kernel's time per element in adds' (kiln_cpu_math_cost) */
} kiln_math_entry;

/* `adds`: a one-op f32[64,1024] program on one core (KILN_CPU_THREADS=1, median of `kiln
 * bench`), over the add's 6.5 us; Intel host with AVX-512, 2026-12-04 (erfc computed in
 * f32: 88 us over the add's 5.8, 2026-12-05). */
static const kiln_math_entry kEntries[] = {
    {KILN_OP_EXPONENTIAL, "exp", kiln_math_exp_op, NULL, false, false, 3},
    {KILN_OP_EXPONENTIAL_MINUS_ONE, "expm1", kiln_math_expm1_op, NULL, false, true, 4},
    {KILN_OP_LOG, "log", kiln_math_log, NULL, false, false, 5},
    {KILN_OP_LOG_PLUS_ONE, "log1p", kiln_math_log1p, NULL, false, true, 6},
    {KILN_OP_LOGISTIC, "logistic", kiln_math_logistic, NULL, false, false, 7},
    {KILN_OP_TANH, "tanh", kiln_math_tanh, NULL, false, true, 6},
    {KILN_OP_SINE, "sin", kiln_math_sin, NULL, true, true, 35},
    {KILN_OP_COSINE, "cos", kiln_math_cos, NULL, true, false, 35},
    {KILN_OP_TAN, "tan", kiln_math_tan, NULL, true, true, 38},
    {KILN_OP_CHLO_TAN, "tan", kiln_math_tan, NULL, true, true, 38},
    {KILN_OP_CBRT, "cbrt", kiln_math_cbrt, NULL, true, true, 32},
    /* its table form: 26.5 us against 47 before, over the add's 5.2 (AMD Zen 4, 2026-12-08) */
    {KILN_OP_CHLO_ERF, "erf", kiln_math_erf, NULL, false, true, 3},
    {KILN_OP_CHLO_ERFC, "erfc", kiln_math_erfc, NULL, false, false, 14},
    {KILN_OP_CHLO_ERF_INV, "erf_inv", kiln_math_erf_inv, NULL, false, true, 13},
    {KILN_OP_CHLO_SINH, "sinh", kiln_math_sinh, NULL, false, true, 5},
    {KILN_OP_CHLO_COSH, "cosh", kiln_math_cosh, NULL, false, false, 10},
    {KILN_OP_CHLO_ATAN, "atan", kiln_math_atan, NULL, false, true, 6},
    {KILN_OP_CHLO_ASIN, "asin", kiln_math_asin, NULL, true, true, 24},
    {KILN_OP_CHLO_ACOS, "acos", kiln_math_acos, NULL, true, false, 25},
    {KILN_OP_CHLO_ASINH, "asinh", kiln_math_asinh, NULL, false, true, 12},
    {KILN_OP_CHLO_ACOSH, "acosh", kiln_math_acosh, NULL, false, false, 10},
    {KILN_OP_CHLO_ATANH, "atanh", kiln_math_atanh, NULL, false, true, 11},
    {KILN_OP_ATAN2, "atan2", NULL, kiln_math_atan2, false, false, 7},
    {KILN_OP_POWER, "pow", NULL, kiln_math_pow, true, false, 29},
    /* measured on a Zen 3 host (AVX2; its add 7.2 us), 2026-12-06 */
    {KILN_OP_CHLO_LGAMMA, "lgamma", kiln_math_lgamma, NULL, true, false, 85},
    {KILN_OP_CHLO_DIGAMMA, "digamma", kiln_math_digamma, NULL, true, false, 80},
    /* its f32 kernel in f32: 42-44 us over the add's 6.1-6.5 (Intel host with AVX-512, 2026-12-07) */
    {KILN_OP_CHLO_BESSEL_I1E, "bessel_i1e", kiln_math_bessel_i1e, NULL, false, true, 7},
    {KILN_OP_CHLO_NEXT_AFTER, "next_after", NULL, kiln_math_next_after, false, false, 2},
    {KILN_OP_CHLO_ZETA, "zeta", NULL, kiln_math_zeta, true, false, 400},
    {KILN_OP_CHLO_POLYGAMMA, "polygamma", NULL, kiln_math_polygamma, true, false, 600},
};

static const kiln_math_entry *find_entry(kiln_op_kind kind, bool binary) {
  for (size_t i = 0; i < sizeof kEntries / sizeof kEntries[0]; i++) {
    const kiln_math_entry *en = &kEntries[i];
    if (en->kind == kind && (binary ? en->binary != NULL : en->unary != NULL)) return en;
  }
  return NULL;
}

/* Accepts float, double and vectors of them (up to KILN_MB_MAX_LANES lanes). */
static bool classify(LLVMTypeRef t, bool *out_dbl, unsigned *out_lanes) {
  unsigned lanes = 0;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    lanes = LLVMGetVectorSize(t);
    if (lanes == 0 || lanes > KILN_MB_MAX_LANES) return false;
    t = LLVMGetElementType(t);
  }
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind) return false;
  *out_dbl = k == LLVMDoubleTypeKind;
  *out_lanes = lanes;
  return true;
}

static void add_attr(LLVMContextRef ctx, LLVMValueRef fn, const char *name) {
  unsigned id = LLVMGetEnumAttributeKindForName(name, strlen(name));
  if (id) LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, id, 0));
}

/* What fn's target has of AVX2 and AVX-512 (F and VL), from its "target-features", which
 * the ISA cap (isa.h) has trimmed: bit 0 AVX2, bit 1 AVX-512. */
static unsigned target_isa(LLVMValueRef fn) {
  LLVMAttributeRef a = fn ? LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "target-features", 15) : NULL;
  unsigned len = 0, avx2 = 0, avx512 = 0;
  const char *v = a ? LLVMGetStringAttributeValue(a, &len) : NULL;
  for (unsigned i = 0; v && i < len;) { /* "+name,-name,..." */
    unsigned j = i;
    while (j < len && v[j] != ',') j++;
    avx2 |= j - i == 5 && !memcmp(v + i, "+avx2", 5);
    avx512 += (j - i == 8 && !memcmp(v + i, "+avx512f", 8)) + (j - i == 9 && !memcmp(v + i, "+avx512vl", 9));
    i = j + 1;
  }
  return avx2 | (avx512 == 2 ? 2u : 0u);
}

/* Builds the body of the helper for entry en on type ft. */
static void build_body(const kiln_math_entry *en, LLVMModuleRef m, LLVMValueRef fn,
                       LLVMTypeRef ft, bool dbl, unsigned lanes, unsigned isa) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
  kiln_mb e;
  kiln_mb_init(&e, m, b, ft, dbl, lanes);
  e.avx2 = isa & 1;
  e.avx512 = isa & 2;
  kiln_mv x = LLVMGetParam(fn, 0);
  kiln_mv y = en->binary ? LLVMGetParam(fn, 1) : NULL;
  kiln_mv r;
  if (!dbl && en->f32_via_f64) {
    kiln_mb w = kiln_mb_widened(&e);
    kiln_mv wx = kiln_mb_fpext(&w, x);
    kiln_mv wr = en->binary ? en->binary(&w, wx, kiln_mb_fpext(&w, y)) : en->unary(&w, wx);
    r = kiln_mb_fptrunc(&e, wr);
  } else {
    r = en->binary ? en->binary(&e, x, y) : en->unary(&e, x);
  }
  if (en->keep_zero) r = kiln_mb_sel(&e, kiln_mb_eqc(&e, x, 0.0), x, r);
  LLVMBuildRet(b, r);
  LLVMDisposeBuilder(b);
}

static LLVMValueRef emit(LLVMModuleRef m, LLVMBuilderRef b, const kiln_math_entry *en,
                         LLVMValueRef x, LLVMValueRef y) {
  if (!m || !b || !x || !LLVMGetInsertBlock(b)) return NULL;
  LLVMTypeRef ft = LLVMTypeOf(x);
  bool dbl;
  unsigned lanes;
  if (!classify(ft, &dbl, &lanes)) return NULL;
  if (y && LLVMTypeOf(y) != ft) return NULL;
  unsigned isa = target_isa(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)));
  char name[64];
  if (lanes)
    snprintf(name, sizeof name, "kiln.math.%s.v%u%s.i%u", en->name, lanes, dbl ? "f64" : "f32", isa);
  else
    snprintf(name, sizeof name, "kiln.math.%s.%s.i%u", en->name, dbl ? "f64" : "f32", isa);
  LLVMTypeRef params[2] = {ft, ft};
  LLVMTypeRef fty = LLVMFunctionType(ft, params, y ? 2 : 1, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(m, name);
  if (!fn) {
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    fn = LLVMAddFunction(m, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    add_attr(ctx, fn, "alwaysinline");
    add_attr(ctx, fn, "nounwind");
    add_attr(ctx, fn, "readnone");
    add_attr(ctx, fn, "willreturn");
    build_body(en, m, fn, ft, dbl, lanes, isa);
  }
  LLVMValueRef args[2] = {x, y};
  return LLVMBuildCall2(b, fty, fn, args, y ? 2 : 1, "");
}

LLVMValueRef kiln_cpu_emit_unary_math(LLVMModuleRef m, LLVMBuilderRef b, kiln_op_kind kind,
                                      LLVMValueRef x) {
  const kiln_math_entry *en = find_entry(kind, false);
  return en ? emit(m, b, en, x, NULL) : NULL;
}

LLVMValueRef kiln_cpu_emit_binary_math(LLVMModuleRef m, LLVMBuilderRef b, kiln_op_kind kind,
                                       LLVMValueRef x, LLVMValueRef y) {
  const kiln_math_entry *en = find_entry(kind, true);
  return en && y ? emit(m, b, en, x, y) : NULL;
}

static const kiln_math_entry *entry_of(kiln_op_kind kind) {
  const kiln_math_entry *en = find_entry(kind, false);
  return en ? en : find_entry(kind, true);
}

bool kiln_cpu_math_has(kiln_op_kind kind, bool f64) {
  (void)f64; /* every kernel has both types */
  return entry_of(kind) != NULL;
}

int32_t kiln_cpu_math_cost(kiln_op_kind kind) {
  const kiln_math_entry *en = entry_of(kind);
  return en ? en->adds : 0;
}
