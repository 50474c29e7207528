/* Elementwise kernels without transcendental math: arithmetic, logic, shifts, compare,
 * select, clamp, conversions, bit casts, rounding, reduce_precision, quantization.
 *
 * Most ops run through kiln_ew_map (elementwise.h) with one small scalar function each;
 * a static table gives each op its function and the element classes it accepts.
 * Integers arrive sign- or zero-extended to 64 bits and are computed in uint64_t (the
 * store wraps them to the type's width); floats are computed in double and rounded once
 * on store; complex numbers use C's complex arithmetic in double (Annex G rules).
 *
 * Cases the spec leaves open follow XLA: integer division by zero gives -1 (all bits
 * set) and remainder by zero gives the dividend; INT_MIN / -1 gives INT_MIN and
 * INT_MIN % -1 gives 0; shift amounts are read as unsigned and shifts by the bit width
 * or more give 0 (sign fill for shift_right_arithmetic); float-to-integer conversion
 * truncates and saturates, NaN becoming 0 (APFloat's convertToInteger, as the reference
 * interpreter does). */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "backends/interp/elementwise.h"
#include "backends/interp/float_bits.h"

/* ------------------------------------------------------------------ the generic loop */

static uint64_t width_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static kiln_elem_class cls(kiln_elem t) { return kiln_elem_class_of(t); }

static bool is_signed_int(kiln_elem t) { return cls(t) == KILN_ELEM_CLASS_I || cls(t) == KILN_ELEM_CLASS_X; }

static kiln_scalar ew_load(const kiln_ew *e, kiln_elem t, const uint8_t *p) {
  if (e->raw && cls(t) == KILN_ELEM_CLASS_F) {
    kiln_scalar s = {{0}, 0};
    memcpy(&s.u, p, kiln_elem_storage_bytes(t));
    s.u &= width_mask(kiln_elem_bits(t));
    return s;
  }
  return kiln_scalar_load(t, p);
}

static void ew_store(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v) {
  if (e->raw && cls(t) == KILN_ELEM_CLASS_F) {
    uint64_t u = v.u & width_mask(kiln_elem_bits(t));
    memcpy(p, &u, kiln_elem_storage_bytes(t));
    return;
  }
  kiln_scalar_store(t, p, v);
}

/* Loaders and storers specialised for the common storage types (the loop's cost is mostly
 * theirs): each gives exactly what ew_load / ew_store give, and defers to them for what it
 * does not do fast (NaNs keep their payload bits only through the generic path). */
typedef kiln_scalar (*ew_loader)(const kiln_ew *e, kiln_elem t, const uint8_t *p);
typedef void (*ew_storer)(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v);

static kiln_scalar load_f32(const kiln_ew *e, kiln_elem t, const uint8_t *p) {
  float f;
  memcpy(&f, p, sizeof f);
  if (isnan(f)) return ew_load(e, t, p);
  kiln_scalar s = {{0}, 0};
  s.f = f;
  return s;
}

static kiln_scalar load_f64(const kiln_ew *e, kiln_elem t, const uint8_t *p) {
  kiln_scalar s = {{0}, 0};
  memcpy(&s.f, p, sizeof s.f);
  return s;
}

static kiln_scalar load_c64(const kiln_ew *e, kiln_elem t, const uint8_t *p) {
  float z[2];
  memcpy(z, p, sizeof z);
  if (isnan(z[0]) || isnan(z[1])) return ew_load(e, t, p);
  kiln_scalar s = {{0}, 0};
  s.f = z[0], s.im = z[1];
  return s;
}

static kiln_scalar load_c128(const kiln_ew *e, kiln_elem t, const uint8_t *p) {
  kiln_scalar s = {{0}, 0};
  memcpy(&s.f, p, sizeof s.f);
  memcpy(&s.im, p + sizeof s.f, sizeof s.im);
  return s;
}

static kiln_scalar load_i32(const kiln_ew *e, kiln_elem t, const uint8_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  kiln_scalar s = {{0}, 0};
  s.i = v;
  return s;
}

static kiln_scalar load_i64(const kiln_ew *e, kiln_elem t, const uint8_t *p) {
  kiln_scalar s = {{0}, 0};
  memcpy(&s.i, p, sizeof s.i);
  return s;
}

static kiln_scalar load_i1(const kiln_ew *e, kiln_elem t, const uint8_t *p) {
  kiln_scalar s = {{0}, 0};
  s.i = p[0] != 0;
  return s;
}

static void store_f32(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v) {
  if (isnan(v.f)) {
    ew_store(e, t, p, v);
    return;
  }
  float f = (float)v.f; /* round to nearest even, as kiln_scalar_store */
  memcpy(p, &f, sizeof f);
}

static void store_f64(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v) { memcpy(p, &v.f, sizeof v.f); }

static void store_c64(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v) {
  if (isnan(v.f) || isnan(v.im)) {
    ew_store(e, t, p, v);
    return;
  }
  float z[2] = {(float)v.f, (float)v.im}; /* each part rounded to nearest even */
  memcpy(p, z, sizeof z);
}

static void store_c128(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v) {
  memcpy(p, &v.f, sizeof v.f);
  memcpy(p + sizeof v.f, &v.im, sizeof v.im);
}

static void store_i32(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v) {
  uint32_t u = (uint32_t)v.u;
  memcpy(p, &u, sizeof u);
}

static void store_i64(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v) { memcpy(p, &v.u, sizeof v.u); }

static void store_i1(const kiln_ew *e, kiln_elem t, uint8_t *p, kiln_scalar v) { p[0] = v.u != 0; }

static ew_loader loader_for(const kiln_ew *e, kiln_elem t) {
  if (e->raw && cls(t) == KILN_ELEM_CLASS_F) return ew_load;
  switch (t) {
    case KILN_ELEM_F32: return load_f32;
    case KILN_ELEM_F64: return load_f64;
    case KILN_ELEM_C64: return load_c64;
    case KILN_ELEM_C128: return load_c128;
    case KILN_ELEM_SI32: return load_i32;
    case KILN_ELEM_SI64: return load_i64;
    case KILN_ELEM_I1: return load_i1;
    default: return ew_load;
  }
}

static ew_storer storer_for(const kiln_ew *e, kiln_elem t) {
  if (e->raw && cls(t) == KILN_ELEM_CLASS_F) return ew_store;
  switch (t) {
    case KILN_ELEM_F32: return store_f32;
    case KILN_ELEM_F64: return store_f64;
    case KILN_ELEM_C64: return store_c64;
    case KILN_ELEM_C128: return store_c128;
    case KILN_ELEM_SI32:
    case KILN_ELEM_UI32: return store_i32;
    case KILN_ELEM_SI64:
    case KILN_ELEM_UI64: return store_i64;
    case KILN_ELEM_I1: return store_i1;
    default: return ew_store;
  }
}

static bool fast_f32_binary(kiln_ew_fn fn, const kiln_ew *e, const kiln_rtv *x, const kiln_rtv *y, kiln_rtv *r);

static void format_shape(const kiln_rtv *v, char *buf, size_t n) {
  size_t len = 0;
  buf[0] = 0;
  for (int32_t i = 0; i < v->rank && len + 24 < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s%lld", i ? "x" : "", (long long)v->dims[i]);
  if (!v->rank) snprintf(buf, n, "scalar");
}

static kiln_elem storage_of(const kiln_type *t) { return t->kind == KILN_TYPE_QUANT ? t->quant.storage : t->elem; }

kiln_status kiln_ew_map(kiln_interp_ctx *ctx, const kiln_kernel_args *a, kiln_ew_fn fn, kiln_ew *e) {
  if (a->num_in < 1 || a->num_in > KILN_EW_MAX_IN || a->num_out != 1)
    return kiln_interp_error(ctx, a->op, "takes %d operands and %d results, which no elementwise kernel handles",
                             (int)a->num_in, (int)a->num_out);
  if (!a->out_elem[0]) return kiln_interp_error(ctx, a->op, "result is not a tensor");
  const kiln_rtv *shape = NULL;
  for (int32_t i = 0; i < a->num_in; i++) {
    const kiln_rtv *v = a->in[i];
    if (!v || v->kind != KILN_RTV_TENSOR) return kiln_interp_error(ctx, a->op, "operand #%d is not a tensor", (int)i);
    e->in[i] = v->elem;
    if (v->rank && !shape) shape = v;
  }
  if (!shape) shape = a->in[0];
  for (int32_t i = 0; i < a->num_in; i++) {
    const kiln_rtv *v = a->in[i];
    if (v->rank && (v->rank != shape->rank || memcmp(v->dims, shape->dims, sizeof(int64_t) * (size_t)v->rank))) {
      char s1[128], s2[128];
      format_shape(v, s1, sizeof s1);
      format_shape(shape, s2, sizeof s2);
      return kiln_interp_error(ctx, a->op, "operand #%d has shape %s where %s is expected", (int)i, s1, s2);
    }
  }
  e->op = a->op;
  e->num_in = a->num_in;
  e->out = storage_of(a->out_elem[0]);
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, shape->rank, shape->dims));
  kiln_rtv *r = a->out[0];
  if (a->num_in == 2 && fast_f32_binary(fn, e, a->in[0], a->in[1], r)) return NULL;
  kiln_scalar x[KILN_EW_MAX_IN];
  ew_loader load[KILN_EW_MAX_IN];
  size_t step[KILN_EW_MAX_IN]; /* 0 for a rank-0 operand broadcast to every index */
  for (int32_t j = 0; j < a->num_in; j++) {
    load[j] = loader_for(e, a->in[j]->elem);
    step[j] = a->in[j]->rank ? a->in[j]->elem_bytes : 0;
  }
  ew_storer store = storer_for(e, r->elem);
  for (int64_t i = 0; i < r->count; i++) {
    for (int32_t j = 0; j < a->num_in; j++) {
      const kiln_rtv *v = a->in[j];
      x[j] = load[j](e, v->elem, v->data + (size_t)i * step[j]);
    }
    store(e, r->elem, r->data + (size_t)i * r->elem_bytes, fn(e, x));
  }
  return NULL;
}

/* ------------------------------------------------------------------ scalar helpers */

static kiln_scalar sc_u(uint64_t u) {
  kiln_scalar r = {{0}, 0};
  r.u = u;
  return r;
}

static kiln_scalar sc_f(double f) {
  kiln_scalar r = {{0}, 0};
  r.f = f;
  return r;
}

static kiln_scalar sc_c(double re, double im) {
  kiln_scalar r = {{0}, 0};
  r.f = re;
  r.im = im;
  return r;
}

/* C17 6.2.5: a complex number is laid out as an array of its real and imaginary parts
 * (CMPLX is missing from some compilers' headers). */
static double complex to_cx(kiln_scalar s) {
  double parts[2] = {s.f, s.im};
  double complex z;
  memcpy(&z, parts, sizeof z);
  return z;
}
static kiln_scalar from_cx(double complex z) { return sc_c(creal(z), cimag(z)); }

static kiln_elem_class cls0(const kiln_ew *e) { return cls(e->in[0]); }
static int bits0(const kiln_ew *e) { return kiln_elem_bits(e->in[0]); }

/* Sign-extends the low `bits` bits of u. */
static uint64_t sext(uint64_t u, int bits) {
  if (bits >= 64) return u;
  u &= width_mask(bits);
  return (u >> (bits - 1)) & 1 ? u | ~width_mask(bits) : u;
}

enum { UNORDERED = 2 };

/* -1, 0, 1 or UNORDERED: integers by their signedness, floats by IEEE-754 (NaN is
 * unordered, -0 = +0), complex numbers lexicographically on (real, imaginary). */
static int order_f(double a, double b) { return a < b ? -1 : a > b ? 1 : a == b ? 0 : UNORDERED; }

static int order(kiln_elem t, kiln_scalar a, kiln_scalar b) {
  switch (cls(t)) {
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: return a.i < b.i ? -1 : a.i > b.i;
    case KILN_ELEM_CLASS_B:
    case KILN_ELEM_CLASS_U: return a.u < b.u ? -1 : a.u > b.u;
    case KILN_ELEM_CLASS_F: return order_f(a.f, b.f);
    case KILN_ELEM_CLASS_C: {
      int o = order_f(a.f, b.f);
      return o ? o : order_f(a.im, b.im);
    }
  }
  return UNORDERED;
}

/* maximum/minimum: NaN propagates, -0 < +0 for floats; complex lexicographic. */
static kiln_scalar pick(kiln_elem t, kiln_scalar a, kiln_scalar b, bool max) {
  if (cls(t) == KILN_ELEM_CLASS_F) {
    if (isnan(a.f)) return a;
    if (isnan(b.f)) return b;
    if (a.f == b.f) return (signbit(a.f) != 0) == max ? b : a;
  }
  return order(t, a, b) == (max ? 1 : -1) ? a : b;
}

/* ------------------------------------------------------------------ arithmetic */

static kiln_scalar f_add(const kiln_ew *e, const kiln_scalar *x) {
  switch (cls0(e)) {
    case KILN_ELEM_CLASS_B: return sc_u(x[0].u | x[1].u);
    case KILN_ELEM_CLASS_F: return sc_f(x[0].f + x[1].f);
    case KILN_ELEM_CLASS_C: return sc_c(x[0].f + x[1].f, x[0].im + x[1].im);
    default: return sc_u(x[0].u + x[1].u);
  }
}

static kiln_scalar f_subtract(const kiln_ew *e, const kiln_scalar *x) {
  switch (cls0(e)) {
    case KILN_ELEM_CLASS_F: return sc_f(x[0].f - x[1].f);
    case KILN_ELEM_CLASS_C: return sc_c(x[0].f - x[1].f, x[0].im - x[1].im);
    default: return sc_u(x[0].u - x[1].u);
  }
}

static kiln_scalar f_multiply(const kiln_ew *e, const kiln_scalar *x) {
  switch (cls0(e)) {
    case KILN_ELEM_CLASS_B: return sc_u(x[0].u & x[1].u);
    case KILN_ELEM_CLASS_F: return sc_f(x[0].f * x[1].f);
    case KILN_ELEM_CLASS_C: return from_cx(to_cx(x[0]) * to_cx(x[1]));
    default: return sc_u(x[0].u * x[1].u);
  }
}

static uint64_t int_divide(const kiln_ew *e, kiln_scalar a, kiln_scalar b, bool rem) {
  if (b.u == 0) return rem ? a.u : ~0ull;
  if (is_signed_int(e->in[0])) {
    if (b.i == -1) return rem ? 0 : 0 - a.u; /* INT_MIN / -1 wraps to INT_MIN */
    return rem ? (uint64_t)(a.i % b.i) : (uint64_t)(a.i / b.i);
  }
  return rem ? a.u % b.u : a.u / b.u;
}

static kiln_scalar f_divide(const kiln_ew *e, const kiln_scalar *x) {
  switch (cls0(e)) {
    case KILN_ELEM_CLASS_F: return sc_f(x[0].f / x[1].f);
    case KILN_ELEM_CLASS_C: return from_cx(to_cx(x[0]) / to_cx(x[1]));
    default: return sc_u(int_divide(e, x[0], x[1], false));
  }
}

static kiln_scalar f_remainder(const kiln_ew *e, const kiln_scalar *x) {
  if (cls0(e) == KILN_ELEM_CLASS_F) return sc_f(fmod(x[0].f, x[1].f));
  return sc_u(int_divide(e, x[0], x[1], true));
}

static kiln_scalar f_negate(const kiln_ew *e, const kiln_scalar *x) {
  switch (cls0(e)) {
    case KILN_ELEM_CLASS_F: return sc_f(-x[0].f);
    case KILN_ELEM_CLASS_C: return sc_c(-x[0].f, -x[0].im);
    default: return sc_u(0 - x[0].u);
  }
}

static kiln_scalar f_abs(const kiln_ew *e, const kiln_scalar *x) {
  switch (cls0(e)) {
    case KILN_ELEM_CLASS_F: return sc_f(fabs(x[0].f));
    case KILN_ELEM_CLASS_C: return sc_f(hypot(x[0].f, x[0].im));
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: return sc_u(x[0].i < 0 ? 0 - x[0].u : x[0].u);
    default: return x[0];
  }
}

static kiln_scalar f_sign(const kiln_ew *e, const kiln_scalar *x) {
  double re = x[0].f, im = x[0].im;
  switch (cls0(e)) {
    case KILN_ELEM_CLASS_F: return isnan(re) || re == 0 ? x[0] : sc_f(copysign(1.0, re));
    case KILN_ELEM_CLASS_C:
      if (isnan(re) || isnan(im)) return sc_c(NAN, NAN);
      if (re == 0 && im == 0) return sc_c(0, 0);
      return from_cx(to_cx(x[0]) / hypot(re, im));
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: return sc_u(x[0].i < 0 ? ~0ull : x[0].i > 0);
    default: return sc_u(x[0].u != 0);
  }
}

static kiln_scalar f_maximum(const kiln_ew *e, const kiln_scalar *x) { return pick(e->in[0], x[0], x[1], true); }
static kiln_scalar f_minimum(const kiln_ew *e, const kiln_scalar *x) { return pick(e->in[0], x[0], x[1], false); }

/* The f32 arithmetic of add, subtract, multiply, divide, maximum and minimum over whole
 * arrays (the fast-start tier's common case): for these ops the float result equals the
 * double one rounded once (53 bits hold a product or quotient of 24-bit significands
 * exactly enough), and maximum/minimum pick as `pick` does; an element with a NaN operand
 * or result goes through the generic path, which owns NaN payloads. False when fn, the types or
 * `raw` do not fit (the caller runs the generic loop). */
static bool fast_f32_binary(kiln_ew_fn fn, const kiln_ew *e, const kiln_rtv *x, const kiln_rtv *y, kiln_rtv *r) {
  enum { ADD, SUB, MUL, DIV, MAX, MIN } kind;
  if (fn == f_add) kind = ADD;
  else if (fn == f_subtract) kind = SUB;
  else if (fn == f_multiply) kind = MUL;
  else if (fn == f_divide) kind = DIV;
  else if (fn == f_maximum) kind = MAX;
  else if (fn == f_minimum) kind = MIN;
  else return false;
  if (e->raw || x->elem != KILN_ELEM_F32 || y->elem != KILN_ELEM_F32 || r->elem != KILN_ELEM_F32) return false;
  const float *px = (const float *)x->data, *py = (const float *)y->data;
  float *pr = (float *)r->data;
  size_t sx = x->rank ? 1 : 0, sy = y->rank ? 1 : 0;
  for (int64_t i = 0; i < r->count; i++) {
    float a = px[(size_t)i * sx], b = py[(size_t)i * sy], v;
    switch (kind) {
      case ADD: v = a + b; break;
      case SUB: v = a - b; break;
      case MUL: v = a * b; break;
      case DIV: v = a / b; break;
      case MAX: v = a == b ? (signbit(a) ? b : a) : a > b ? a : b; break;
      default: v = a == b ? (signbit(a) ? a : b) : a < b ? a : b; break;
    }
    if (isnan(v) || isnan(a) || isnan(b)) {
      kiln_scalar in[2] = {ew_load(e, KILN_ELEM_F32, (const uint8_t *)&px[(size_t)i * sx]),
                           ew_load(e, KILN_ELEM_F32, (const uint8_t *)&py[(size_t)i * sy])};
      ew_store(e, KILN_ELEM_F32, (uint8_t *)&pr[i], fn(e, in));
    } else {
      pr[i] = v;
    }
  }
  return true;
}

/* clamp(min, operand, max) = minimum(maximum(operand, min), max) */
static kiln_scalar f_clamp(const kiln_ew *e, const kiln_scalar *x) {
  return pick(e->in[1], pick(e->in[1], x[1], x[0], true), x[2], false);
}

/* chlo.square: x * x; for complex numbers (x - y)(x + y) + 2xy i, with a real part of 0
 * when |x| = |y| (finite), as CHLO's decomposition. */
static kiln_scalar f_square(const kiln_ew *e, const kiln_scalar *x) {
  if (cls0(e) != KILN_ELEM_CLASS_C) return f_multiply(e, (kiln_scalar[]){x[0], x[0]});
  double re = x[0].f, im = x[0].im;
  double r = isfinite(re) && fabs(re) == fabs(im) ? 0.0 : (re - im) * (re + im);
  return sc_c(r, 2.0 * (re * im));
}

static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
  uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  *lo = (mid << 32) | (ll & 0xffffffffu);
  *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* chlo.mulhi: the high `bits` bits of the 2*bits-bit product. */
static kiln_scalar f_mulhi(const kiln_ew *e, const kiln_scalar *x) {
  uint64_t hi, lo;
  int w = bits0(e);
  mul_64x64(x[0].u, x[1].u, &hi, &lo);
  if (is_signed_int(e->in[0])) { /* the 128-bit product of the sign-extended operands */
    if (x[0].i < 0) hi -= x[1].u;
    if (x[1].i < 0) hi -= x[0].u;
  }
  return sc_u(w >= 64 ? hi : (hi << (64 - w)) | (lo >> w));
}

/* ------------------------------------------------------------------ bits and logic */

static kiln_scalar f_and(const kiln_ew *e, const kiln_scalar *x) { return sc_u(x[0].u & x[1].u); }
static kiln_scalar f_or(const kiln_ew *e, const kiln_scalar *x) { return sc_u(x[0].u | x[1].u); }
static kiln_scalar f_xor(const kiln_ew *e, const kiln_scalar *x) { return sc_u(x[0].u ^ x[1].u); }

static kiln_scalar f_not(const kiln_ew *e, const kiln_scalar *x) {
  return sc_u(cls0(e) == KILN_ELEM_CLASS_B ? !x[0].u : ~x[0].u);
}

/* The shift amount as an unsigned number of the type's width. */
static uint64_t shift_amount(const kiln_ew *e, kiln_scalar s) { return s.u & width_mask(bits0(e)); }

static kiln_scalar f_shift_left(const kiln_ew *e, const kiln_scalar *x) {
  uint64_t n = shift_amount(e, x[1]);
  return sc_u(n >= (uint64_t)bits0(e) ? 0 : x[0].u << n);
}

static kiln_scalar f_shift_right_logical(const kiln_ew *e, const kiln_scalar *x) {
  uint64_t n = shift_amount(e, x[1]);
  return sc_u(n >= (uint64_t)bits0(e) ? 0 : (x[0].u & width_mask(bits0(e))) >> n);
}

static kiln_scalar f_shift_right_arithmetic(const kiln_ew *e, const kiln_scalar *x) {
  uint64_t n = shift_amount(e, x[1]), v = sext(x[0].u, bits0(e));
  bool neg = v >> 63;
  if (n >= (uint64_t)bits0(e)) return sc_u(neg ? ~0ull : 0);
  return sc_u(neg ? ~(~v >> n) : v >> n);
}

static int bit_length(uint64_t v) {
  int n = 0;
  for (; v; v >>= 1) n++;
  return n;
}

static kiln_scalar f_popcnt(const kiln_ew *e, const kiln_scalar *x) {
  uint64_t v = x[0].u & width_mask(bits0(e)), n = 0;
  for (; v; v &= v - 1) n++;
  return sc_u(n);
}

static kiln_scalar f_count_leading_zeros(const kiln_ew *e, const kiln_scalar *x) {
  return sc_u((uint64_t)(bits0(e) - bit_length(x[0].u & width_mask(bits0(e)))));
}

/* ------------------------------------------------------------------ compare and select */

enum { DIR_EQ, DIR_NE, DIR_GE, DIR_GT, DIR_LE, DIR_LT };
enum { CMP_BY_TYPE, CMP_TOTALORDER };

/* IEEE-754 totalOrder as an integer key of the raw bits: -NaN < -Inf < ... < -0 < +0 <
 * ... < +Inf < +NaN. */
static int64_t total_order_key(kiln_elem t, uint64_t bits) {
  if (t == KILN_ELEM_F8E8M0FNU) return (int64_t)bits; /* no sign bit */
  uint64_t sign = 1ull << (kiln_elem_bits(t) - 1), mag = bits & (sign - 1);
  return bits & sign ? -(int64_t)mag - 1 : (int64_t)mag;
}

static kiln_scalar f_compare(const kiln_ew *e, const kiln_scalar *x) {
  int o;
  if (e->p[1] == CMP_TOTALORDER && cls0(e) == KILN_ELEM_CLASS_F) {
    int64_t ka = total_order_key(e->in[0], x[0].u), kb = total_order_key(e->in[0], x[1].u);
    o = ka < kb ? -1 : ka > kb;
  } else {
    o = order(e->in[0], x[0], x[1]);
  }
  bool r = false;
  switch (e->p[0]) {
    case DIR_EQ: r = o == 0; break;
    case DIR_NE: r = o != 0; break;
    case DIR_GE: r = o == 0 || o == 1; break;
    case DIR_GT: r = o == 1; break;
    case DIR_LE: r = o == 0 || o == -1; break;
    case DIR_LT: r = o == -1; break;
  }
  return sc_u(r);
}

static int index_of(const char *v, const char *const *names) {
  for (int i = 0; v && names[i]; i++)
    if (!strcmp(v, names[i])) return i;
  return -1;
}

/* comparison_direction into p[0]; compare_type into p[1] (only TOTALORDER changes the
 * semantics: SIGNED/UNSIGNED/FLOAT follow the element type, as the reference
 * interpreter does). TOTALORDER compares raw bits. */
static kiln_status setup_compare(kiln_interp_ctx *ctx, const kiln_kernel_args *a, kiln_ew *e) {
  static const char *const types[] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL};
  int d = kiln_op_compare_direction(a->op); /* DIR_* are in kiln_compare_dir's order */
  if (d < 0) return kiln_interp_error(ctx, a->op, "has no valid comparison_direction");
  const kiln_attr *ta = kiln_op_attr(a->op, "compare_type");
  int t = ta ? index_of(kiln_attr_enum_text(ta), types) : 0;
  if (t < 0) return kiln_interp_error(ctx, a->op, "has an unknown compare_type");
  e->p[0] = d;
  e->p[1] = t == 2 ? CMP_TOTALORDER : CMP_BY_TYPE;
  e->raw = t == 2;
  return NULL;
}

/* select(pred, on_true, on_false); runs on raw bits, so NaN payloads pass unchanged. */
static kiln_scalar f_select(const kiln_ew *e, const kiln_scalar *x) { return x[0].u ? x[1] : x[2]; }

/* ------------------------------------------------------------------ rounding and classes */

static kiln_scalar f_floor(const kiln_ew *e, const kiln_scalar *x) { return sc_f(floor(x[0].f)); }
static kiln_scalar f_ceil(const kiln_ew *e, const kiln_scalar *x) { return sc_f(ceil(x[0].f)); }
static kiln_scalar f_round_afz(const kiln_ew *e, const kiln_scalar *x) { return sc_f(round(x[0].f)); }

static kiln_scalar f_round_even(const kiln_ew *e, const kiln_scalar *x) {
  double v = x[0].f, r = round(v);
  /* round() takes ties away from zero; move a tie back to the even neighbour. */
  if (fabs(v - trunc(v)) == 0.5 && fmod(r, 2.0) != 0) r -= copysign(1.0, v);
  return sc_f(r == 0 ? copysign(0.0, v) : r);
}

static kiln_scalar f_is_finite(const kiln_ew *e, const kiln_scalar *x) { return sc_u(isfinite(x[0].f) != 0); }
static kiln_scalar f_real(const kiln_ew *e, const kiln_scalar *x) { return sc_f(x[0].f); }
static kiln_scalar f_imag(const kiln_ew *e, const kiln_scalar *x) {
  return sc_f(cls0(e) == KILN_ELEM_CLASS_C ? x[0].im : 0.0);
}
static kiln_scalar f_complex(const kiln_ew *e, const kiln_scalar *x) { return sc_c(x[0].f, x[1].f); }

/* ------------------------------------------------------------------ conversions */

/* An integer magnitude as a double rounded to odd: exact below 2^53, otherwise the
 * sticky bit makes the later rounding to any format of at most 51 mantissa bits correct. */
static double round_to_odd(uint64_t m) {
  int shift = 0;
  while (shift < 11 && (m >> shift) >= (1ull << 53)) shift++;
  uint64_t hi = m >> shift;
  if (m & width_mask(shift)) hi |= 1;
  return ldexp((double)hi, shift);
}

/* An integer as a double whose rounding (on store) to `target` is correctly rounded. */
static double int_to_float(kiln_scalar v, bool is_signed, kiln_elem target) {
  if (target == KILN_ELEM_F64) return is_signed ? (double)v.i : (double)v.u;
  bool neg = is_signed && v.i < 0;
  double d = round_to_odd(neg ? 0 - v.u : v.u);
  return neg ? -d : d;
}

/* Float to integer: truncate toward zero, saturate at the type's range, NaN -> 0. */
static uint64_t float_to_int(double v, kiln_elem t) {
  int w = kiln_elem_bits(t);
  if (isnan(v)) return 0;
  v = trunc(v);
  if (is_signed_int(t)) {
    double lim = ldexp(1.0, w - 1);
    if (v >= lim) return width_mask(w - 1);
    if (v < -lim) return ~width_mask(w - 1);
    return (uint64_t)(int64_t)v;
  }
  if (v <= 0) return 0;
  if (v >= ldexp(1.0, w)) return width_mask(w);
  return (uint64_t)v;
}

static kiln_scalar f_convert(const kiln_ew *e, const kiln_scalar *x) {
  kiln_elem_class ci = cls0(e), co = cls(e->out);
  if (ci == KILN_ELEM_CLASS_F || ci == KILN_ELEM_CLASS_C) {
    double re = x[0].f; /* complex sources drop the imaginary part */
    switch (co) {
      case KILN_ELEM_CLASS_B: return sc_u(re != 0);
      case KILN_ELEM_CLASS_F: return sc_f(re);
      case KILN_ELEM_CLASS_C: return sc_c(re, ci == KILN_ELEM_CLASS_C ? x[0].im : 0.0);
      default: return sc_u(float_to_int(re, e->out));
    }
  }
  bool s = is_signed_int(e->in[0]);
  switch (co) {
    case KILN_ELEM_CLASS_B: return sc_u(x[0].u != 0);
    case KILN_ELEM_CLASS_F: return sc_f(int_to_float(x[0], s, e->out));
    case KILN_ELEM_CLASS_C: return sc_c(int_to_float(x[0], s, kiln_elem_complex_part(e->out)), 0.0);
    default: return x[0];
  }
}

/* ------------------------------------------------------------------ bit-level float ops */

/* reduce_precision on the raw bits of a float (float_bits.h: XLA's algorithm). */
static kiln_scalar f_reduce_precision(const kiln_ew *e, const kiln_scalar *x) {
  kiln_reduce_precision rp;
  kiln_reduce_precision_init(&rp, e->in[0], e->p[0], e->p[1]); /* checked by setup_reduce_precision */
  return sc_u(kiln_reduce_precision_bits(&rp, x[0].u));
}

static kiln_status setup_reduce_precision(kiln_interp_ctx *ctx, const kiln_kernel_args *a, kiln_ew *e) {
  int64_t eb, mb;
  if (!kiln_attr_i64_at(kiln_op_attr(a->op, "exponent_bits"), 0, &eb) ||
      !kiln_attr_i64_at(kiln_op_attr(a->op, "mantissa_bits"), 0, &mb) || eb < 1 || mb < 0)
    return kiln_interp_error(ctx, a->op, "needs exponent_bits >= 1 and mantissa_bits >= 0");
  e->p[0] = eb;
  e->p[1] = mb;
  return NULL;
}

/* chlo.next_after(x, y) on raw bits, as CHLO's decomposition: NaN if either is NaN, y if
 * x = y, the smallest subnormal signed like y from zero, else one step toward y. */
static kiln_scalar f_next_after(const kiln_ew *e, const kiln_scalar *x) {
  kiln_elem t = e->in[0];
  uint64_t xb = x[0].u, yb = x[1].u, sign = 1ull << (kiln_elem_bits(t) - 1);
  double xv = kiln_elem_float_from_bits(t, xb), yv = kiln_elem_float_from_bits(t, yb);
  if (isnan(xv) || isnan(yv)) return sc_u(kiln_elem_float_to_bits(t, NAN));
  if (xv == yv) return x[1];
  uint64_t xa = xb & ~sign, ya = yb & ~sign;
  if (xa == 0) return sc_u(ya == 0 ? yb : (yb & sign) | 1);
  bool toward_zero = xa > ya || (xb & sign) != (yb & sign);
  return sc_u(toward_zero ? xb - 1 : xb + 1);
}

/* ------------------------------------------------------------------ the op table */

#define CLS(c) (1u << KILN_ELEM_CLASS_##c)
enum {
  K_INT = CLS(I) | CLS(U) | CLS(X),
  K_BITS = K_INT | CLS(B),
  K_NUM = K_INT | CLS(F) | CLS(C),
  K_ANY = K_NUM | CLS(B),
  K_FLOAT = CLS(F),
};

typedef kiln_status (*ew_setup)(kiln_interp_ctx *ctx, const kiln_kernel_args *a, kiln_ew *e);

typedef struct ew_desc {
  kiln_ew_fn fn;
  unsigned classes; /* element classes the checked operand may have */
  int32_t checked;  /* the operand whose class is checked */
  bool raw;
  ew_setup setup;
} ew_desc;

static const ew_desc k_ops[KILN_OP_COUNT] = {
    [KILN_OP_ABS] = {f_abs, K_NUM, 0, false, NULL},
    [KILN_OP_ADD] = {f_add, K_ANY, 0, false, NULL},
    [KILN_OP_AND] = {f_and, K_BITS, 0, false, NULL},
    [KILN_OP_CEIL] = {f_ceil, K_FLOAT, 0, false, NULL},
    [KILN_OP_CLAMP] = {f_clamp, K_ANY, 1, false, NULL},
    [KILN_OP_COMPARE] = {f_compare, K_ANY, 0, false, setup_compare},
    [KILN_OP_COMPLEX] = {f_complex, K_FLOAT, 0, false, NULL},
    [KILN_OP_CONVERT] = {f_convert, K_ANY, 0, false, NULL},
    [KILN_OP_COUNT_LEADING_ZEROS] = {f_count_leading_zeros, K_INT, 0, false, NULL},
    [KILN_OP_DIVIDE] = {f_divide, K_NUM, 0, false, NULL},
    [KILN_OP_FLOOR] = {f_floor, K_FLOAT, 0, false, NULL},
    [KILN_OP_IMAG] = {f_imag, K_FLOAT | CLS(C), 0, false, NULL},
    [KILN_OP_IS_FINITE] = {f_is_finite, K_FLOAT, 0, false, NULL},
    [KILN_OP_MAXIMUM] = {f_maximum, K_ANY, 0, false, NULL},
    [KILN_OP_MINIMUM] = {f_minimum, K_ANY, 0, false, NULL},
    [KILN_OP_MULTIPLY] = {f_multiply, K_ANY, 0, false, NULL},
    [KILN_OP_NEGATE] = {f_negate, K_NUM, 0, false, NULL},
    [KILN_OP_NOT] = {f_not, K_BITS, 0, false, NULL},
    [KILN_OP_OR] = {f_or, K_BITS, 0, false, NULL},
    [KILN_OP_POPCNT] = {f_popcnt, K_INT, 0, false, NULL},
    [KILN_OP_REAL] = {f_real, K_FLOAT | CLS(C), 0, false, NULL},
    [KILN_OP_REDUCE_PRECISION] = {f_reduce_precision, K_FLOAT, 0, true, setup_reduce_precision},
    [KILN_OP_REMAINDER] = {f_remainder, K_INT | K_FLOAT, 0, false, NULL},
    [KILN_OP_ROUND_NEAREST_AFZ] = {f_round_afz, K_FLOAT, 0, false, NULL},
    [KILN_OP_ROUND_NEAREST_EVEN] = {f_round_even, K_FLOAT, 0, false, NULL},
    [KILN_OP_SELECT] = {f_select, CLS(B), 0, true, NULL},
    [KILN_OP_SHIFT_LEFT] = {f_shift_left, K_INT, 0, false, NULL},
    [KILN_OP_SHIFT_RIGHT_ARITHMETIC] = {f_shift_right_arithmetic, K_INT, 0, false, NULL},
    [KILN_OP_SHIFT_RIGHT_LOGICAL] = {f_shift_right_logical, K_INT, 0, false, NULL},
    [KILN_OP_SIGN] = {f_sign, K_NUM, 0, false, NULL},
    [KILN_OP_SUBTRACT] = {f_subtract, K_NUM, 0, false, NULL},
    [KILN_OP_XOR] = {f_xor, K_BITS, 0, false, NULL},
    [KILN_OP_CHLO_MULHI] = {f_mulhi, K_INT, 0, false, NULL},
    [KILN_OP_CHLO_NEXT_AFTER] = {f_next_after, K_FLOAT, 0, true, NULL},
    [KILN_OP_CHLO_SQUARE] = {f_square, K_NUM, 0, false, NULL},
    [KILN_OP_ARITH_ADDF] = {f_add, K_FLOAT | CLS(C), 0, false, NULL},
};

kiln_ew_fn kiln_ew_binary_fn(const kiln_op *op, kiln_elem elem, kiln_ew *e) {
  switch (op->kind) {
    case KILN_OP_ADD: case KILN_OP_SUBTRACT: case KILN_OP_MULTIPLY: case KILN_OP_DIVIDE: case KILN_OP_MAXIMUM:
    case KILN_OP_MINIMUM: case KILN_OP_AND: case KILN_OP_OR: case KILN_OP_XOR:
      break;
    default: return NULL;
  }
  const ew_desc *d = &k_ops[op->kind];
  if (!(d->classes & (1u << cls(elem)))) return NULL;
  memset(e, 0, sizeof *e);
  e->op = op;
  e->num_in = 2;
  e->in[0] = e->in[1] = e->out = elem;
  return d->fn;
}

static kiln_status k_elementwise(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const ew_desc *d = &k_ops[a->op->kind];
  if (d->checked < a->num_in && a->in[d->checked] && a->in[d->checked]->kind == KILN_RTV_TENSOR) {
    kiln_elem t = a->in[d->checked]->elem;
    if (!(d->classes & (1u << cls(t))))
      return kiln_interp_error(ctx, a->op, "is not defined on elements of type %s", kiln_elem_name(t));
  }
  kiln_ew e;
  memset(&e, 0, sizeof e);
  e.raw = d->raw;
  if (d->setup) KILN_RETURN_IF_ERROR(d->setup(ctx, a, &e));
  return kiln_ew_map(ctx, a, d->fn, &e);
}

/* ------------------------------------------------------------------ bitcast_convert */

static const kiln_rtv *tensor_operand(const kiln_kernel_args *a, int32_t i) {
  const kiln_rtv *v = i < a->num_in ? a->in[i] : NULL;
  return v && v->kind == KILN_RTV_TENSOR ? v : NULL;
}

/* Bit i (little-endian within each element's `bits` bits) of element k of v. */
static unsigned get_bit(const kiln_rtv *v, int64_t k, int i) {
  return (v->data[(size_t)k * v->elem_bytes + (size_t)(i / 8)] >> (i % 8)) & 1u;
}

/* The operand's bits, concatenated element after element in row-major order, read back
 * as elements of the result type: one element becomes the last dimension's elements, or
 * the last dimension's elements become one. */
static kiln_status k_bitcast_convert(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_rtv *in = tensor_operand(a, 0);
  if (!in || !a->out_elem[0]) return kiln_interp_error(ctx, a->op, "operand and result must be tensors");
  kiln_elem ei = in->elem, eo = storage_of(a->out_elem[0]);
  int bi = kiln_elem_bits(ei), bo = kiln_elem_bits(eo);
  int64_t dims[KILN_RTV_MAX_RANK];
  int32_t rank = in->rank;
  if (rank) memcpy(dims, in->dims, sizeof(int64_t) * (size_t)rank);
  if (bo < bi) {
    if (bi % bo || rank == KILN_RTV_MAX_RANK)
      return kiln_interp_error(ctx, a->op, "cannot split %s into %s", kiln_elem_name(ei), kiln_elem_name(eo));
    dims[rank++] = bi / bo;
  } else if (bo > bi) {
    if (bo % bi || rank == 0 || dims[rank - 1] != bo / bi)
      return kiln_interp_error(ctx, a->op, "cannot join %s into %s: the last dimension must hold %d elements",
                               kiln_elem_name(ei), kiln_elem_name(eo), bo / bi);
    rank--;
  }
  KILN_RETURN_IF_ERROR(kiln_kernel_result(a, 0, rank, dims));
  kiln_rtv *r = a->out[0];
  if ((size_t)bi == 8 * in->elem_bytes && (size_t)bo == 8 * r->elem_bytes) {
    memcpy(r->data, in->data, (size_t)in->count * in->elem_bytes);
    return NULL;
  }
  for (int64_t j = 0; j < r->count; j++) {
    uint8_t buf[16] = {0};
    for (int b = 0; b < bo; b++) {
      int64_t g = j * bo + b;
      buf[b / 8] |= (uint8_t)(get_bit(in, g / bi, (int)(g % bi)) << (b % 8));
    }
    uint8_t *p = r->data + (size_t)j * r->elem_bytes;
    kiln_elem_class c = cls(eo);
    if (c == KILN_ELEM_CLASS_F || c == KILN_ELEM_CLASS_C) {
      memcpy(p, buf, r->elem_bytes);
    } else { /* integers: the store sign-extends sub-byte types into their byte */
      uint64_t u;
      memcpy(&u, buf, 8);
      kiln_scalar_store(eo, p, sc_u(u));
    }
  }
  return NULL;
}

/* ------------------------------------------------------------------ quantization */

/* uniform_quantize: float -> quantized, or quantized -> quantized (requantization). */
static kiln_status k_uniform_quantize(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_rtv *x = tensor_operand(a, 0);
  const kiln_type *qt = a->out_elem[0];
  if (!x || !qt || qt->kind != KILN_TYPE_QUANT)
    return kiln_interp_error(ctx, a->op, "needs a tensor operand and a quantized result");
  kiln_rtv *deq = NULL;
  if (x->elem_type->kind == KILN_TYPE_QUANT) {
    KILN_RETURN_IF_ERROR(kiln_interp_dequantize(x, &deq));
    x = deq;
  } else if (cls(x->elem) != KILN_ELEM_CLASS_F) {
    return kiln_interp_error(ctx, a->op, "cannot quantize elements of type %s", kiln_elem_name(x->elem));
  }
  kiln_status st = kiln_interp_quantize(x, qt, &a->out[0]);
  kiln_rtv_release(deq);
  return st;
}

static kiln_status k_uniform_dequantize(kiln_interp_ctx *ctx, const kiln_kernel_args *a) {
  const kiln_rtv *x = tensor_operand(a, 0);
  if (!x || x->elem_type->kind != KILN_TYPE_QUANT)
    return kiln_interp_error(ctx, a->op, "needs a quantized tensor operand");
  return kiln_interp_dequantize(x, &a->out[0]);
}

kiln_interp_kernel kiln_interp_elementwise_lookup(kiln_op_kind kind) {
  switch (kind) {
    case KILN_OP_BITCAST_CONVERT: return k_bitcast_convert;
    case KILN_OP_UNIFORM_QUANTIZE: return k_uniform_quantize;
    case KILN_OP_UNIFORM_DEQUANTIZE: return k_uniform_dequantize;
    default: return kind < KILN_OP_COUNT && k_ops[kind].fn ? k_elementwise : NULL;
  }
}
