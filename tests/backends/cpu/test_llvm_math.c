/* Accuracy test of the vectorised math kernels (src/backends/cpu/llvm_math*.c).
 *
 * Builds one function per (op, type, width, target) -- f32 at widths 1 and 16, f64 at 1
 * and 8, each as a function with no target features of its own and as one with the host's
 * (where the host has AVX-512, the kernels' scalings are then vscalef and their table
 * lookups 16-lane permutes); and f32 at 8, f64 at 4 with the host's features less AVX-512
 * (8-lane lookups: AVX2's permute) -- that maps the kernel over an array, JIT-compiles
 * them with ORC LLJIT for the host CPU, runs each over about two million inputs (special
 * values, a sweep over every exponent, random bit patterns, a dense interval) and
 * compares with long double libm. Prints the
 * largest error in ULP per function and fails when one exceeds its bound; and checks that
 * every kernel has its measured cost (kiln_cpu_math_cost). Single-threaded. */
#define _DEFAULT_SOURCE /* lgammal_r */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/IPO.h>
#include <llvm-c/Transforms/PassManagerBuilder.h>

#include "backends/cpu/llvm_math.h"
#include "base/special_series.h"

typedef long double (*ref1_fn)(long double);
typedef long double (*ref2_fn)(long double, long double);

static long double ref_logistic(long double x) { return 1.0L / (1.0L + expl(-x)); }

/* erfinv by Newton's method on erfl (erfcl's residual above 1/2, where 1 - |x| is exact)
 * from Winitzki's closed form, in long double: libm has no erfinv. */
static long double ref_erf_inv(long double x) {
  long double a = fabsl(x);
  if (isnan(x) || a > 1) return NAN;
  if (a == 1) return copysignl(INFINITY, x);
  if (a == 0) return x;
  long double l = log1pl(-a) + log1pl(a), t = 2 / (3.14159265358979323846264L * 0.147L) + l / 2;
  long double y = sqrtl(sqrtl(t * t - l / 0.147L) - t);
  for (int i = 0; i < 40; i++) {
    long double r = a < 0.5L ? erfl(y) - a : (1 - a) - erfcl(y);
    long double step = r / (1.12837916709551257389615890312154517L * expl(-y * y));
    y -= step;
    if (fabsl(step) <= 0x1p-70L * y) break;
  }
  return copysignl(y, x);
}

static long double ref_lgamma(long double x) {
  int sign;
  return lgammal_r(x, &sign);
}

#define PI_L 3.14159265358979323846264338327950288L

/* digamma in long double: the Taylor series at its zero within 0.25 of it (the shared double
 * coefficients, summed in long double: a cancellation-free reference there), else the
 * recurrence up to 20 and the asymptotic series; negative x by reflection. */
static long double ref_digamma(long double x) {
  if (isnan(x) || x == INFINITY) return x;
  if (x <= 0 && x == nearbyintl(x)) return NAN;
  if (x < 0) {
    long double r = x - nearbyintl(x);
    return ref_digamma(1 - x) - PI_L * cosl(PI_L * r) / sinl(PI_L * r);
  }
  long double t = (x - KILN_DIGAMMA_X0_HI) - KILN_DIGAMMA_X0_LO; /* x0 needs more than 64 bits */
  if (fabsl(t) <= 0.25L) {
    long double p = 0;
    for (int n = KILN_DIGAMMA_TAYLOR_TERMS - 1; n >= 0; n--) p = p * t + kiln_digamma_taylor[n];
    return p * t;
  }
  long double shift = 0;
  while (x < 20) shift += 1 / x, x += 1;
  long double w = 1 / (x * x);
  long double s = w * (1.0L / 12 - w * (1.0L / 120 - w * (1.0L / 252 - w * (1.0L / 240 - w * (1.0L / 132 -
                  w * (691.0L / 32760 - w * (1.0L / 12 - w * (3617.0L / 8160 - w * (43867.0L / 14364)))))))));
  return logl(x) - 0.5L / x - s - shift;
}

/* I1(x) e^-|x| in long double: the power series up to 40 (positive terms, 120 of them),
 * the asymptotic series beyond (its terms while they shrink): other splits than the
 * kernel's. */
static long double ref_bessel_i1e(long double x) {
  long double a = fabsl(x), r;
  if (isnan(x)) return x;
  if (isinf(x)) return copysignl(0.0L, x);
  if (a <= 40) {
    long double u = a * a / 4, t = 1, s = 1;
    for (int k = 1; k < 120; k++) s += t *= u / ((long double)k * (k + 1));
    r = expl(-a) * a / 2 * s;
  } else {
    long double t = 1, s = 1;
    for (int k = 1; k < 60; k++) {
      long double next = t * -(4.0L - (long double)(2 * k - 1) * (2 * k - 1)) / (8.0L * k * a);
      if (fabsl(next) >= fabsl(t)) break;
      s += t = next;
    }
    r = s / sqrtl(2 * PI_L * a);
  }
  return copysignl(r, x);
}

typedef struct test_op {
  kiln_op_kind kind;
  const char *name;
  ref1_fn ref1;
  ref2_fn ref2;
  double dense; /* inputs are also drawn densely from [-dense, dense] */
} test_op;

static const test_op kOps[] = {
    {KILN_OP_EXPONENTIAL, "exp", expl, NULL, 100},
    {KILN_OP_EXPONENTIAL_MINUS_ONE, "expm1", expm1l, NULL, 5},
    {KILN_OP_LOG, "log", logl, NULL, 4},
    {KILN_OP_LOG_PLUS_ONE, "log1p", log1pl, NULL, 2},
    {KILN_OP_LOGISTIC, "logistic", ref_logistic, NULL, 30},
    {KILN_OP_TANH, "tanh", tanhl, NULL, 10},
    {KILN_OP_SINE, "sin", sinl, NULL, 100},
    {KILN_OP_COSINE, "cos", cosl, NULL, 100},
    {KILN_OP_TAN, "tan", tanl, NULL, 100},
    {KILN_OP_CBRT, "cbrt", cbrtl, NULL, 10},
    {KILN_OP_CHLO_ERF, "erf", erfl, NULL, 6},
    {KILN_OP_CHLO_ERFC, "erfc", erfcl, NULL, 30},
    {KILN_OP_CHLO_ERF_INV, "erf_inv", ref_erf_inv, NULL, 1},
    {KILN_OP_CHLO_SINH, "sinh", sinhl, NULL, 10},
    {KILN_OP_CHLO_COSH, "cosh", coshl, NULL, 10},
    {KILN_OP_CHLO_ATAN, "atan", atanl, NULL, 4},
    {KILN_OP_CHLO_ASIN, "asin", asinl, NULL, 1},
    {KILN_OP_CHLO_ACOS, "acos", acosl, NULL, 1},
    {KILN_OP_CHLO_ASINH, "asinh", asinhl, NULL, 4},
    {KILN_OP_CHLO_ACOSH, "acosh", acoshl, NULL, 4},
    {KILN_OP_CHLO_ATANH, "atanh", atanhl, NULL, 1},
    {KILN_OP_ATAN2, "atan2", NULL, atan2l, 4},
    {KILN_OP_POWER, "pow", NULL, powl, 4},
    {KILN_OP_CHLO_LGAMMA, "lgamma", ref_lgamma, NULL, 12},
    {KILN_OP_CHLO_DIGAMMA, "digamma", ref_digamma, NULL, 12},
    {KILN_OP_CHLO_BESSEL_I1E, "bessel_i1e", ref_bessel_i1e, NULL, 40},
};
enum { kNumOps = sizeof kOps / sizeof kOps[0] };

static const double kBound32 = 2.0, kBound64 = 3.0;
/* erfc in f64 beyond 0.75 is exp(-x^2) (about 1 ULP) times a fitted factor and a quotient,
 * each rounded: 3.4 ULP at most measured; glibc's own erfc is listed at 5 ULP for double
 * (its libm-test-ulps). */
static const double kBoundErfc64 = 4.0;
/* erf_inv in f64 is a Halley step on erf(y) - x, whose erf is good to an ULP of erf(y);
 * where y lies a binade below erf(y) (y in [0.25, 0.5)) that is two of y's, and the
 * inverse's slope adds a little: 3.3 ULP at most measured. */
static const double kBoundErfInv64 = 4.0;
/* erf_inv in f32 reads w = -log(1 - x^2), whose f32 log is good to an ULP of w: up to 16
 * ULPs of 2^-23 absolute, a little more than half an ULP of the result where the tail
 * starts (w = 5): 2.41 ULP at most measured (XLA's f32 polynomial: about 3). */
static const double kBoundErfInv32 = 3.0;

/* lgamma below -0.5 and digamma below 0 come from the reflection formula, whose terms
 * cancel near the function's zeros (SLEEF's lgamma states the same limit): their error
 * there is measured in ULPs of the reflection's larger term (reflection_scale). Elsewhere:
 * ULPs of the result, as every kernel. */
/* f64 lgamma just below 1.5 is lgamma(z + 1) - log(z), whose terms cancel by up to five
 * times near the minimum (1.4616): 6.0 ULP at most measured (over 65,536, 262,144 and
 * 2M inputs); f64 digamma in [2, 10) adds its sum of 1/(y + k) kept as one fraction,
 * rounded at each step: 5.2. */
static const double kBoundGamma32 = 2.0, kBoundGamma64 = 8.0;
/* f64 bessel_i1e below 25 is Horner over 40 positive terms of a sum up to 1e9 times e^-a:
 * its roundings add up, 9.7 ULP at most measured. f32 bessel_i1e is a Chebyshev series in
 * f32 (Clenshaw's recurrence, 17 terms), then a product and a quotient: 3.1 ULP at most
 * measured (XLA:CPU's f32 i1e: 10.5 over [0, 200]). */
static const double kBoundBessel64 = 12.0, kBoundBessel32 = 3.5;

/* ---------------------------------------------------------------- inputs */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double rnd_unit(void) { return (double)(rng() >> 11) * 0x1p-53; }

static double from_bits(bool dbl, uint64_t b) {
  if (dbl) {
    double d;
    memcpy(&d, &b, 8);
    return d;
  }
  uint32_t u = (uint32_t)b;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static const double kSpecials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, -0.5,
                                   2.0, -2.0, 3.0, 1e-300, 0x1p-1074, 0x1p-149, 0x1p-126,
                                   0x1p-1022, FLT_MAX, DBL_MAX, 1.5707963267948966,
                                   3.141592653589793, 0.6931471805599453, 88.72283935546875,
                                   709.782712893384, -103.97, -745.13, 0x1p-30, 0x1p-60,
                                   /* the double nearest a multiple of pi/2 (2^-61 relative: the
                                    * hardest Payne-Hanek case), and where f64 sin/cos/tan switch
                                    * from Cody-Waite to it */
                                   0x1.6ac5b262ca1ffp+849, 0x1p26, 0x1.fffffffffffffp+25, 1e22,
                                   /* for f32 sin/cos/tan's short reduction, floats that lie
                                    * nearest a multiple of pi/2 below 4096: 4.2e-9 from 161
                                    * pi/2 (the nearest), its doubles (322 and 644 pi/2), and
                                    * 1.2e-8 from 3 pi/2 */
                                   0x1.f9cbe2p+7, 0x1.f9cbe2p+8, 0x1.f9cbe2p+9, 0x1.2d97c8p+2};
enum { kNumSpecials = sizeof kSpecials / sizeof kSpecials[0] };

/* Fills x (n values, rounded to the type). */
static void gen_inputs(bool dbl, double dense, double *x, size_t n) {
  size_t i = 0;
  for (int s = 0; s < kNumSpecials; s++) {
    x[i++] = kSpecials[s];
    x[i++] = -kSpecials[s];
  }
  int mant = dbl ? 52 : 23, ebits = dbl ? 11 : 8;
  unsigned nexp = (1u << ebits) - 1; /* all finite exponent fields */
  size_t per = (n / 2) / (2 * nexp);
  for (unsigned ex = 0; ex < nexp; ex++)
    for (size_t k = 0; k < per; k++)
      for (int sg = 0; sg < 2; sg++) {
        uint64_t m = rng() & ((1ull << mant) - 1);
        x[i++] = from_bits(dbl, ((uint64_t)sg << (mant + ebits)) | ((uint64_t)ex << mant) | m);
      }
  size_t rest = (n - i) / 2;
  for (size_t k = 0; k < rest; k++) x[i++] = from_bits(dbl, rng());
  while (i < n) {
    double v = (2 * rnd_unit() - 1) * dense;
    x[i++] = dbl ? v : (double)(float)v;
  }
}

/* ---------------------------------------------------------------- ulp error */

/* The unit in the last place of the type at r (r rounded to the type). */
static long double ulp_of(long double r, bool dbl) {
  int emin = dbl ? -1022 : -126, p = dbl ? 53 : 24;
  int ex = r == 0 ? emin : ilogbl(r);
  if (ex < emin) ex = emin;
  return ldexpl(1.0L, ex - (p - 1));
}

/* Error of got against ref, in units of the last place of the type at ref. */
static double ulp_error(long double ref, double got, bool dbl) {
  if (isnan(ref)) return isnan(got) ? 0 : INFINITY;
  if (isnan(got)) return INFINITY;
  long double r = dbl ? (long double)(double)ref : (long double)(float)ref;
  if (isinf(r) || isinf(got)) return (long double)got == r ? 0 : INFINITY;
  if (ref == 0) return got == 0 && !signbit(got) == !signbit(ref) ? 0 : INFINITY;
  return (double)(fabsl((long double)got - ref) / ulp_of(r, dbl));
}

/* The magnitude below which a reflected result is judged by absolute error: the larger of
 * the reflection's two terms (and 1 for digamma, whose 1 - x is rounded, as the
 * interpreter's); 0 where the kernel does not reflect (lgamma above -0.5). */
static long double reflection_scale(kiln_op_kind kind, long double x) {
  bool lg = kind == KILN_OP_CHLO_LGAMMA;
  if ((!lg && kind != KILN_OP_CHLO_DIGAMMA) || !(x < (lg ? -0.5L : 0.0L)) || isinf(x) || x == nearbyintl(x)) return 0;
  long double r = x - nearbyintl(x);
  if (lg) return fmaxl(fabsl(logl(PI_L / fabsl(sinl(PI_L * r)))), fabsl(ref_lgamma(1 - x)));
  return fmaxl(fmaxl(fabsl(PI_L * cosl(PI_L * r) / sinl(PI_L * r)), fabsl(ref_digamma(1 - x))), 1.0L);
}

/* ---------------------------------------------------------------- IR + JIT */

/* void name(const T *x, const T *y, T *out, i64 nvec) */
static bool build_loop(LLVMModuleRef m, const test_op *op, bool dbl, unsigned width, const char *features,
                       const char *name) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef et = dbl ? LLVMDoubleTypeInContext(ctx) : LLVMFloatTypeInContext(ctx);
  LLVMTypeRef vt = width > 1 ? LLVMVectorType(et, width) : et;
  LLVMTypeRef pt = LLVMPointerType(vt, 0);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef params[4] = {pt, pt, pt, i64};
  LLVMValueRef fn = LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 4, 0));
  if (features)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, "target-features", 15, features, (unsigned)strlen(features)));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, fn, "entry");
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(ctx, fn, "loop");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, fn, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, LLVMGetParam(fn, 3), zero, ""), done, loop);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef i = LLVMBuildPhi(b, i64, "i");
  unsigned align = dbl ? 8 : 4;
  LLVMValueRef px = LLVMBuildGEP2(b, vt, LLVMGetParam(fn, 0), &i, 1, "");
  LLVMValueRef x = LLVMBuildLoad2(b, vt, px, "");
  LLVMSetAlignment(x, align);
  LLVMValueRef r;
  if (op->ref2) {
    LLVMValueRef py = LLVMBuildGEP2(b, vt, LLVMGetParam(fn, 1), &i, 1, "");
    LLVMValueRef y = LLVMBuildLoad2(b, vt, py, "");
    LLVMSetAlignment(y, align);
    r = kiln_cpu_emit_binary_math(m, b, op->kind, x, y);
  } else {
    r = kiln_cpu_emit_unary_math(m, b, op->kind, x);
  }
  bool implemented = r != NULL;
  if (!implemented) r = x;
  LLVMValueRef po = LLVMBuildGEP2(b, vt, LLVMGetParam(fn, 2), &i, 1, "");
  LLVMSetAlignment(LLVMBuildStore(b, r, po), align);
  LLVMValueRef next = LLVMBuildAdd(b, i, LLVMConstInt(i64, 1, 0), "");
  LLVMBasicBlockRef from[2] = {entry, loop};
  LLVMValueRef inc[2] = {zero, next};
  LLVMAddIncoming(i, inc, from, 2);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, next, LLVMGetParam(fn, 3), ""), done, loop);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return implemented;
}

static int check_err(LLVMErrorRef err, const char *what) {
  if (!err) return 0;
  char *msg = LLVMGetErrorMessage(err);
  fprintf(stderr, "%s: %s\n", what, msg);
  LLVMDisposeErrorMessage(msg);
  return 1;
}

/* Variant v: its widths and features (none of the function's own, the host's, the host's
 * without AVX-512). */
enum { NUM_VARIANTS = 5 };
static const unsigned kWidths32[NUM_VARIANTS] = {1, 16, 1, 16, 8}, kWidths64[NUM_VARIANTS] = {1, 8, 1, 8, 4};
static const char *const kVariantName[NUM_VARIANTS] = {"", "", " host", " host", " avx2"};

static unsigned width_of(bool dbl, int v) { return dbl ? kWidths64[v] : kWidths32[v]; }

static void fn_name(char *buf, size_t n, const test_op *op, bool dbl, int v) {
  snprintf(buf, n, "t_%s_%s_w%u_v%d", op->name, dbl ? "f64" : "f32", width_of(dbl, v), v);
}

typedef void (*loop_fn)(const void *, const void *, void *, int64_t);

int main(int argc, char **argv) {
  size_t n_in = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : (size_t)2 << 20;
  n_in = (n_in + 15) & ~(size_t)15;
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();

  LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
  LLVMContextRef ctx = LLVMOrcThreadSafeContextGetContext(tsc);
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("test_llvm_math", ctx);
  char *features = LLVMGetHostCPUFeatures();
  char *no512 = strdup(features); /* "+avx512..." turned off */
  for (char *f = no512; no512 && (f = strstr(f, "+avx512")); f++) *f = '-';
  const char *variant_features[NUM_VARIANTS] = {NULL, NULL, features, features, no512};
  char name[96];
  static bool missing[kNumOps][2];
  for (int o = 0; o < kNumOps; o++)
    for (int t = 0; t < 2; t++)
      for (int v = 0; v < NUM_VARIANTS; v++) {
        fn_name(name, sizeof name, &kOps[o], t, v);
        if (!build_loop(m, &kOps[o], t, width_of(t, v), variant_features[v], name)) missing[o][t] = true;
      }
  char *verr = NULL;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &verr)) {
    fprintf(stderr, "invalid module: %s\n", verr);
    return 1;
  }
  LLVMDisposeMessage(verr);

  char *triple = LLVMGetDefaultTargetTriple();
  char *cpu = LLVMGetHostCPUName();
  LLVMTargetRef target;
  char *terr = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &terr)) {
    fprintf(stderr, "target: %s\n", terr);
    return 1;
  }
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, cpu, features,
                                                    LLVMCodeGenLevelAggressive, LLVMRelocDefault,
                                                    LLVMCodeModelJITDefault);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, td);
  LLVMSetTarget(m, triple);
  LLVMPassManagerRef pm = LLVMCreatePassManager();
  LLVMAddAnalysisPasses(tm, pm);
  LLVMAddAlwaysInlinerPass(pm);
  LLVMPassManagerBuilderRef pmb = LLVMPassManagerBuilderCreate();
  LLVMPassManagerBuilderSetOptLevel(pmb, 2);
  LLVMPassManagerBuilderPopulateModulePassManager(pmb, pm);
  LLVMRunPassManager(pm, m);
  LLVMPassManagerBuilderDispose(pmb);
  LLVMDisposePassManager(pm);
  if (getenv("KILN_MATH_DUMP")) LLVMPrintModuleToFile(m, getenv("KILN_MATH_DUMP"), NULL);

  LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
  LLVMOrcLLJITRef jit;
  if (check_err(LLVMOrcCreateLLJIT(&jit, jb), "LLJIT")) return 1;
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, tsc);
  LLVMOrcDisposeThreadSafeContext(tsc); /* the module holds the context now */
  LLVMDisposeTargetData(td);
  if (check_err(LLVMOrcLLJITAddLLVMIRModule(jit, LLVMOrcLLJITGetMainJITDylib(jit), tsm), "add"))
    return 1;
  printf("host cpu %s, %zu inputs per function\n", cpu, n_in);

  double *x = malloc(n_in * sizeof *x), *y = malloc(n_in * sizeof *y);
  long double *ref = malloc(n_in * sizeof *ref);
  void *bx = malloc(n_in * 8), *by = malloc(n_in * 8), *bo = malloc(n_in * 8);
  int passed = 0, failed = 0;
  /* every kernel has its measured cost for the pool's cost model; other ops have none */
  for (int o = 0; o < kNumOps; o++) {
    int32_t c = kiln_cpu_math_cost(kOps[o].kind);
    if (c >= 2) passed++;
    else failed++, printf("%s: cost %d adds (a kernel costs at least 2)\n", kOps[o].name, (int)c);
  }
  if (kiln_cpu_math_cost(KILN_OP_ADD) == 0) passed++;
  else failed++, printf("add: a cost, but it has no kernel\n");
  for (int o = 0; o < kNumOps; o++) {
    const test_op *op = &kOps[o];
    for (int t = 0; t < 2; t++) {
      bool dbl = t;
      if (missing[o][t]) {
        printf("%-8s %s not implemented (skipped)\n", op->name, dbl ? "f64" : "f32");
        continue;
      }
      gen_inputs(dbl, op->dense, x, n_in);
      if (op->ref2) {
        gen_inputs(dbl, op->dense, y, n_in);
        for (size_t i = 0; i < n_in; i++) { /* shuffle y so pairs mix categories */
          size_t j = rng() % n_in;
          double tmp = y[i];
          y[i] = y[j];
          y[j] = tmp;
        }
        /* every pair of specials */
        for (int a = 0; a < kNumSpecials && (size_t)(a + 1) * kNumSpecials * 4 < n_in; a++)
          for (int c = 0; c < kNumSpecials; c++) {
            size_t k = 4 * ((size_t)a * kNumSpecials + c);
            x[k] = kSpecials[a], y[k] = kSpecials[c];
            x[k + 1] = -kSpecials[a], y[k + 1] = kSpecials[c];
            x[k + 2] = kSpecials[a], y[k + 2] = -kSpecials[c];
            x[k + 3] = -kSpecials[a], y[k + 3] = -kSpecials[c];
          }
      }
      if (!dbl)
        for (size_t i = 0; i < n_in; i++) x[i] = (float)x[i], y[i] = (float)y[i];
      for (size_t i = 0; i < n_in; i++) {
        ref[i] = op->ref2 ? op->ref2(x[i], y[i]) : op->ref1(x[i]);
        if (dbl) {
          ((double *)bx)[i] = x[i], ((double *)by)[i] = y[i];
        } else {
          ((float *)bx)[i] = (float)x[i], ((float *)by)[i] = (float)y[i];
        }
      }
      for (int v = 0; v < NUM_VARIANTS; v++) {
        unsigned width = width_of(dbl, v);
        fn_name(name, sizeof name, op, dbl, v);
        LLVMOrcExecutorAddress addr = 0;
        if (check_err(LLVMOrcLLJITLookup(jit, &addr, name), name)) return 1;
        ((loop_fn)(uintptr_t)addr)(bx, by, bo, (int64_t)(n_in / width));
        double worst = 0;
        size_t at = 0;
        for (size_t i = 0; i < n_in; i++) {
          double got = dbl ? ((double *)bo)[i] : ((float *)bo)[i];
          long double scale = reflection_scale(op->kind, x[i]);
          double err = isfinite(got) && fabsl(ref[i]) < scale ? (double)(fabsl(got - ref[i]) / ulp_of(scale, dbl))
                                                              : ulp_error(ref[i], got, dbl);
          if (err > worst || (isnan(err) && !isnan(worst))) worst = err, at = i;
        }
        bool gamma = op->kind == KILN_OP_CHLO_LGAMMA || op->kind == KILN_OP_CHLO_DIGAMMA;
        double bound = gamma ? (dbl ? kBoundGamma64 : kBoundGamma32)
                       : op->kind == KILN_OP_CHLO_BESSEL_I1E ? (dbl ? kBoundBessel64 : kBoundBessel32)
                       : !dbl ? (op->kind == KILN_OP_CHLO_ERF_INV ? kBoundErfInv32 : kBound32)
                       : op->kind == KILN_OP_CHLO_ERFC    ? kBoundErfc64
                       : op->kind == KILN_OP_CHLO_ERF_INV ? kBoundErfInv64
                                                          : kBound64;
        /* exp's subnormal results are rounded once, as integers (kiln_mb_scale_small_lanes):
         * half an ULP and the polynomial's error, 0.74 ULP at most measured in f32, 0.50 in
         * f64 (a truncation instead: 1.0) */
        double sub_worst = 0;
        for (size_t i = 0; op->kind == KILN_OP_EXPONENTIAL && i < n_in; i++) {
          double got_i = dbl ? ((double *)bo)[i] : ((float *)bo)[i];
          if (fabsl(ref[i]) < (dbl ? 0x1p-1022L : 0x1p-126L) && ulp_error(ref[i], got_i, dbl) > sub_worst)
            sub_worst = ulp_error(ref[i], got_i, dbl);
        }
        bool ok = worst <= bound && sub_worst <= 0.9;
        const char *host = kVariantName[v];
        if (sub_worst > 0.9)
          printf("%-8s %s w%-2u%s subnormal results %.3f ulp off\n", op->name, dbl ? "f64" : "f32", width, host, sub_worst);
        double got = dbl ? ((double *)bo)[at] : ((float *)bo)[at];
        printf("%-8s %s w%-2u%s max %8.3f ulp  %s", op->name, dbl ? "f64" : "f32", width, host, worst,
               ok ? "ok" : "FAIL");
        if (worst > 0.5)
          printf("  (at x=%a y=%a: got %a want %La)", x[at], op->ref2 ? y[at] : 0.0, got,
                 ref[at]);
        printf("\n");
        if (ok) passed++;
        else failed++;
      }
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  free(x), free(y), free(ref), free(bx), free(by), free(bo);
  LLVMOrcDisposeLLJIT(jit);
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  free(no512);
  return failed ? 1 : 0;
}
