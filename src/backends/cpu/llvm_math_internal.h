/* Internal to the llvm_math*.c files: a small IR-building vocabulary for the math kernels.
 *
 * A kiln_mb names the builder, the float type being computed (scalar or vector) and the
 * integer type of the same shape and width (i32 for float, i64 for double). Every helper
 * emits straight-line IR at the builder's position and returns the new value; constants are
 * splatted to the vector shape. Values are owned by the LLVM context. Not thread-safe beyond
 * LLVM's own rules (one thread per context). */
#ifndef KILN_BACKENDS_CPU_LLVM_MATH_INTERNAL_H
#define KILN_BACKENDS_CPU_LLVM_MATH_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <llvm-c/Core.h>

typedef LLVMValueRef kiln_mv;

#define KILN_MB_MAX_LANES 256u

typedef struct kiln_mb {
  LLVMModuleRef m;
  LLVMBuilderRef b;
  LLVMContextRef ctx;
  LLVMTypeRef ft;  /* float, double or a vector of them */
  LLVMTypeRef it;  /* i32/i64 of the same shape */
  LLVMTypeRef bt;  /* i1 of the same shape */
  unsigned lanes;  /* 0 for a scalar */
  bool dbl;        /* element is double */
  bool narrow;     /* computing in double for float inputs (values are exact floats) */
  bool avx512;     /* the target has AVX-512 F and VL: kiln_mb_scale is one vscalef, a lookup
                      of 16 f32 or 8 f64 lanes one permute */
  bool avx2;       /* a lookup of 8 f32 lanes is one permute */
} kiln_mb;

/* Fills e for the float type ft (already validated), for a target without AVX2. */
void kiln_mb_init(kiln_mb *e, LLVMModuleRef m, LLVMBuilderRef b, LLVMTypeRef ft, bool dbl,
                  unsigned lanes);
/* The same shape with double elements (for f32 kernels that compute in f64). */
kiln_mb kiln_mb_widened(const kiln_mb *e);
kiln_mv kiln_mb_fpext(const kiln_mb *wide, kiln_mv x);
kiln_mv kiln_mb_fptrunc(const kiln_mb *narrow, kiln_mv x);

/* Constants. */
kiln_mv kiln_mb_c(const kiln_mb *e, double v);
kiln_mv kiln_mb_ci(const kiln_mb *e, int64_t v);
kiln_mv kiln_mb_inf(const kiln_mb *e);
kiln_mv kiln_mb_nan(const kiln_mb *e);

/* Arithmetic (IEEE, no fast-math). */
kiln_mv kiln_mb_add(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_sub(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_mul(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_div(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_neg(const kiln_mb *e, kiln_mv a);
kiln_mv kiln_mb_fma(const kiln_mb *e, kiln_mv a, kiln_mv b, kiln_mv c);
/* TwoSum: returns s = a + b rounded and sets *err so that s + err = a + b exactly. */
kiln_mv kiln_mb_two_sum(const kiln_mb *e, kiln_mv a, kiln_mv b, kiln_mv *err);
kiln_mv kiln_mb_mulc(const kiln_mb *e, kiln_mv a, double c);
kiln_mv kiln_mb_addc(const kiln_mb *e, kiln_mv a, double c);
/* Intrinsics: fabs, floor, rint (round half even), sqrt; copysign(mag, sgn). */
kiln_mv kiln_mb_fabs(const kiln_mb *e, kiln_mv a);
kiln_mv kiln_mb_floor(const kiln_mb *e, kiln_mv a);
kiln_mv kiln_mb_rint(const kiln_mb *e, kiln_mv a);
kiln_mv kiln_mb_sqrt(const kiln_mb *e, kiln_mv a);
kiln_mv kiln_mb_copysign(const kiln_mb *e, kiln_mv mag, kiln_mv sgn);
/* c[0] + x*(c[1] + x*(... c[n-1])) with fma. */
kiln_mv kiln_mb_poly(const kiln_mb *e, kiln_mv x, const double *c, int n);
/* table[k] in each lane, k (of the integer type e->it) in [0, 8): one permute of a vector
 * of the table where the target has one for the shape, else a load per lane. */
kiln_mv kiln_mb_lookup8(const kiln_mb *e, kiln_mv k, const double table[8]);

/* Ordered comparisons (false on NaN) and isnan. */
kiln_mv kiln_mb_lt(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_gt(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_le(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_ge(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_eq(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_ltc(const kiln_mb *e, kiln_mv a, double c);
kiln_mv kiln_mb_gtc(const kiln_mb *e, kiln_mv a, double c);
kiln_mv kiln_mb_eqc(const kiln_mb *e, kiln_mv a, double c);
kiln_mv kiln_mb_isnan(const kiln_mb *e, kiln_mv a);
kiln_mv kiln_mb_isinf(const kiln_mb *e, kiln_mv a);
kiln_mv kiln_mb_and(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_or(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_not(const kiln_mb *e, kiln_mv a);
kiln_mv kiln_mb_sel(const kiln_mb *e, kiln_mv c, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_selc(const kiln_mb *e, kiln_mv c, double a, kiln_mv b);

/* values[i] = sel(mask, out[i], values[i]) for the n (at most 4) values fn computes into
 * out, fn's code run only when some lane of mask is set (a branch around it, for a region
 * most programs never reach); leaves the builder at the end of the join block. */
typedef void (*kiln_mb_lanes_fn)(const kiln_mb *e, const void *ctx, kiln_mv *out);
void kiln_mb_where_any(const kiln_mb *e, kiln_mv mask, int n, kiln_mv *values, kiln_mb_lanes_fn fn, const void *ctx);

/* Bit-level and integer helpers (integers are it-typed). */
kiln_mv kiln_mb_bits(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_mb_from_bits(const kiln_mb *e, kiln_mv i);
kiln_mv kiln_mb_iadd(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_isub(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_iand(const kiln_mb *e, kiln_mv a, kiln_mv b);
kiln_mv kiln_mb_ashr(const kiln_mb *e, kiln_mv a, int s);
kiln_mv kiln_mb_shl(const kiln_mb *e, kiln_mv a, int s);
kiln_mv kiln_mb_ftoi(const kiln_mb *e, kiln_mv x); /* x integral and in range */
kiln_mv kiln_mb_itof(const kiln_mb *e, kiln_mv i);
int kiln_mb_mant_bits(const kiln_mb *e); /* 23 or 52 */
/* 2^n for integer n within the normal exponent range. */
kiln_mv kiln_mb_pow2i(const kiln_mb *e, kiln_mv n);
/* x * 2^n for |n| up to about twice the exponent range (two exact scalings, or one
 * vscalef, which rounds once: the same bits wherever the first scaling is exact, as every
 * caller has it). */
kiln_mv kiln_mb_scale(const kiln_mb *e, kiln_mv x, kiln_mv n);
/* The same with n a float holding an integer (no conversion where vscalef takes it). */
kiln_mv kiln_mb_scale_f(const kiln_mb *e, kiln_mv x, kiln_mv nf);
/* The same, rounded once, for x zero or at least 2^x_exp_min and below 2 in magnitude,
 * where the result may be subnormal or underflow: such lanes, when a vector has one, are
 * rounded as integers instead (the result's bits are its significand there). A multiply
 * whose result is that small costs a microcode assist on Intel cores, about 150 cycles
 * (the exponential op, which computes such lanes apart the same way: f32[1024,1024] at -95
 * took 1.75 ms against 0.16 at -1; Intel host with AVX-512). */
kiln_mv kiln_mb_scale_small(const kiln_mb *e, kiln_mv x, kiln_mv n, int x_exp_min);
/* kiln_mb_scale_small's rounding on every lane, no branch (for a caller's own branch). */
kiln_mv kiln_mb_scale_small_lanes(const kiln_mb *e, kiln_mv x, kiln_mv n, int x_exp_min);

/* Shared kernels (bodies in llvm_math_*.c), computing in e's type. */
kiln_mv kiln_math_exp_scaled(const kiln_mb *e, kiln_mv x, int extra); /* exp(x)*2^extra */
/* The exponential op: as kiln_math_exp, its subnormal results computed apart (exp_impl). */
kiln_mv kiln_math_exp_op(const kiln_mb *e, kiln_mv x);
/* exp(hi + lo)*2^extra, |lo| tiny */
kiln_mv kiln_math_exp_dd(const kiln_mb *e, kiln_mv hi, kiln_mv lo, int extra);
/* exp(hi + lo) = 2^n (1 + q), 1 + q not rounded: returns q (|q| < 0.42) and n (a float),
 * in f32 (e not dbl), for hi not NaN with |hi| below 103 and |lo| at most ulp(hi) / 2. */
kiln_mv kiln_math_exp_parts(const kiln_mb *e, kiln_mv hi, kiln_mv lo, kiln_mv *out_n);

kiln_mv kiln_math_expm1(const kiln_mb *e, kiln_mv x);
/* log(x) for x > 0 finite, plus c (a small correction added before the final rounding). */
/* x = 2^k (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)), for x > 0 finite; returns f
 * (exact) and k (as a float). */
kiln_mv kiln_math_log_decompose(const kiln_mb *e, kiln_mv x, kiln_mv *out_k);
kiln_mv kiln_math_log_core(const kiln_mb *e, kiln_mv x, kiln_mv c);
kiln_mv kiln_math_log1p(const kiln_mb *e, kiln_mv x); /* with special values */
/* Double x (finite) = q*pi/2 + r, |r| <= pi/4 about: returns r and q (as a double; only q
 * mod 4 matters). Cody-Waite (exact enough below 2^26) or Payne-Hanek above
 * (llvm_math_reduce.c); the latter adds blocks to the function being built (a branch
 * taken when some lane needs it) and leaves the builder at the end of the join block. */
kiln_mv kiln_math_reduce_pio2(const kiln_mb *e, kiln_mv x, kiln_mv *out_q);
/* sin(pi r) and cos(pi r) for |r| <= 0.5 (r exact; sin signed like r). */
void kiln_math_sincos_pi(const kiln_mb *e, kiln_mv r, kiln_mv *out_s, kiln_mv *out_c);
/* atan2(a, b) for a, b >= 0 (not both zero, not NaN): in [0, pi/2]. */
kiln_mv kiln_math_atan2_pos(const kiln_mb *e, kiln_mv a, kiln_mv b);

/* Op bodies: y = f(x) (and g(x, y)) with all special values. */
typedef kiln_mv (*kiln_math_unary_fn)(const kiln_mb *e, kiln_mv x);
typedef kiln_mv (*kiln_math_binary_fn)(const kiln_mb *e, kiln_mv x, kiln_mv y);
kiln_mv kiln_math_exp(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_expm1_op(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_logistic(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_tanh(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_sinh(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_cosh(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_log(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_asinh(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_acosh(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_atanh(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_sin(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_cos(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_tan(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_erf(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_erfc(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_erf_inv(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_atan(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_asin(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_acos(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_atan2(const kiln_mb *e, kiln_mv y, kiln_mv x);
kiln_mv kiln_math_cbrt(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_pow(const kiln_mb *e, kiln_mv x, kiln_mv y);
kiln_mv kiln_math_lgamma(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_digamma(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_bessel_i1e(const kiln_mb *e, kiln_mv x);
kiln_mv kiln_math_next_after(const kiln_mb *e, kiln_mv x, kiln_mv y);
kiln_mv kiln_math_zeta(const kiln_mb *e, kiln_mv s, kiln_mv q);
kiln_mv kiln_math_polygamma(const kiln_mb *e, kiln_mv n, kiln_mv x);

#endif /* KILN_BACKENDS_CPU_LLVM_MATH_INTERNAL_H */
