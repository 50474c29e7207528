/* Random inputs per element type and the comparison of results. Float formats are read
 * and written through the IR's converters (kiln_elem_float_to_bits / _from_bits), so every
 * format of ir/elem.def is handled the same way. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "runtime/element.h"

/* ---------------------------------------------------------------- element types */

int kiln_diff_elem_count(void) { return KILN_ELEM_COUNT; }

kiln_elem kiln_diff_elem_at(int index) {
  kiln_elem e = (kiln_elem)index;
  return kiln_element_type_from_elem(e) == KILN_ELEMENT_TYPE_INVALID ? KILN_ELEM_COUNT : e;
}

/* ---------------------------------------------------------------- random numbers */

uint64_t kiln_diff_rng_next(kiln_diff_rng *rng) { /* splitmix64 */
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double kiln_diff_rng_unit(kiln_diff_rng *rng) { return (double)(kiln_diff_rng_next(rng) >> 11) * 0x1p-53; }

int64_t kiln_diff_rng_range(kiln_diff_rng *rng, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
  return span ? (int64_t)((uint64_t)lo + kiln_diff_rng_next(rng) % span) : (int64_t)kiln_diff_rng_next(rng);
}

uint64_t kiln_diff_hash(uint64_t h, const char *s) { /* FNV-1a */
  h ^= 0xCBF29CE484222325ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
  return h;
}

/* ---------------------------------------------------------------- storage */

static void store(void *data, int64_t i, size_t bytes, uint64_t v) {
  memcpy((char *)data + i * (int64_t)bytes, &v, bytes); /* little-endian host */
}

static uint64_t load(const void *data, int64_t i, size_t bytes) {
  uint64_t v = 0;
  memcpy(&v, (const char *)data + i * (int64_t)bytes, bytes);
  return v;
}

int64_t kiln_diff_elem_count_of(const kiln_diff_arg *arg) {
  int64_t n = 1;
  for (int d = 0; d < arg->rank; d++) n *= arg->dims[d];
  return n;
}

/* ---------------------------------------------------------------- integers */

static void int_range(kiln_elem e, int64_t *lo, int64_t *hi) {
  int bits = kiln_elem_bits(e);
  kiln_elem_class k = kiln_elem_class_of(e);
  if (k == KILN_ELEM_CLASS_B) {
    *lo = 0, *hi = 1;
  } else if (k == KILN_ELEM_CLASS_U) {
    *lo = 0, *hi = bits >= 64 ? -1 : (int64_t)((1ull << bits) - 1); /* -1: all ones */
  } else {
    *lo = bits >= 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
    *hi = bits >= 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1);
  }
}

/* A random integer of e: half from the whole range, the rest small values and extremes. */
static int64_t random_int(kiln_elem e, kiln_diff_rng *rng) {
  int64_t lo, hi;
  int_range(e, &lo, &hi);
  int bits = kiln_elem_bits(e);
  bool is_unsigned = kiln_elem_class_of(e) != KILN_ELEM_CLASS_I;
  double u = kiln_diff_rng_unit(rng);
  int64_t v;
  if (u < 0.5) {
    uint64_t r = kiln_diff_rng_next(rng);
    if (bits < 64) r &= (1ull << bits) - 1;
    if (!is_unsigned && bits < 64 && (r >> (bits - 1)) & 1) r |= ~0ull << bits; /* sign-extend */
    v = (int64_t)r;
  } else if (u < 0.85) {
    v = kiln_diff_rng_range(rng, is_unsigned ? 0 : -4, 4);
  } else {
    const int64_t extremes[4] = {lo, hi, 0, is_unsigned ? 1 : -1};
    v = extremes[kiln_diff_rng_next(rng) % 4];
  }
  if (!is_unsigned || bits < 64) { /* clamp the small values into narrow types */
    if (v < lo) v = lo;
    if (v > hi && !(is_unsigned && bits >= 64)) v = hi;
  }
  return v;
}

/* ---------------------------------------------------------------- floats */

static bool has_sign_bit(kiln_elem e) {
  int eb, mb;
  kiln_elem_float_format(e, &eb, &mb);
  return 1 + eb + mb == kiln_elem_bits(e);
}

/* A special value: zeros, infinities, NaN, a denormal, or any bit pattern. */
static uint64_t special_float(kiln_elem e, kiln_diff_rng *rng) {
  int eb, mb, bits = kiln_elem_bits(e);
  kiln_elem_float_format(e, &eb, &mb);
  uint64_t sign = has_sign_bit(e) ? (kiln_diff_rng_next(rng) & 1) << (bits - 1) : 0;
  switch (kiln_diff_rng_next(rng) % 7) {
    case 0: return kiln_elem_float_to_bits(e, 0.0);
    case 1: return kiln_elem_float_to_bits(e, -0.0);
    case 2: return kiln_elem_float_to_bits(e, INFINITY);
    case 3: return kiln_elem_float_to_bits(e, -INFINITY);
    case 4: return kiln_elem_float_to_bits(e, NAN);
    case 5: return sign | (kiln_diff_rng_next(rng) & ((1ull << mb) - 1)); /* denormal */
    default: return bits >= 64 ? kiln_diff_rng_next(rng) : kiln_diff_rng_next(rng) & ((1ull << bits) - 1);
  }
}

/* A moderate value: (-1, 1) scaled by 2^k, k in [-4, 4]. */
static double moderate(kiln_diff_rng *rng) {
  double m = kiln_diff_rng_unit(rng) * 2 - 1;
  return ldexp(m, (int)kiln_diff_rng_range(rng, -4, 4));
}

static uint64_t random_float(const kiln_diff_arg *a, double special_rate, kiln_diff_rng *rng) {
  kiln_elem e = a->elem;
  if (a->gen == KILN_DIFF_GEN_RANGE) return kiln_elem_float_to_bits(e, a->lo + (a->hi - a->lo) * kiln_diff_rng_unit(rng));
  if (a->gen == KILN_DIFF_GEN_RANDOM && kiln_diff_rng_unit(rng) < special_rate) return special_float(e, rng);
  return kiln_elem_float_to_bits(e, moderate(rng));
}

/* ---------------------------------------------------------------- filling */

static uint64_t random_scalar(const kiln_diff_arg *a, kiln_elem e, double special_rate, kiln_diff_rng *rng) {
  kiln_diff_arg part = *a;
  part.elem = e;
  if (kiln_elem_is_float(e)) return random_float(&part, special_rate, rng);
  if (a->gen == KILN_DIFF_GEN_RANGE) {
    int64_t lo, hi;
    int_range(e, &lo, &hi);
    int64_t want_lo = (int64_t)a->lo, want_hi = (int64_t)a->hi;
    if (want_lo < lo) want_lo = lo;
    if (want_hi > hi && hi >= 0) want_hi = hi;
    return (uint64_t)kiln_diff_rng_range(rng, want_lo, want_hi);
  }
  return (uint64_t)random_int(e, rng);
}

/* Symmetric with a dominant positive diagonal, for each matrix of the last two dims. */
static void fill_spd(const kiln_diff_arg *a, kiln_diff_rng *rng, void *data) {
  size_t bytes = kiln_elem_storage_bytes(a->elem);
  int64_t n = a->rank >= 2 ? a->dims[a->rank - 1] : 1, total = kiln_diff_elem_count_of(a);
  for (int64_t base = 0; base < total; base += n * n)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j <= i; j++) {
        double v = i == j ? (double)n + 1 + kiln_diff_rng_unit(rng) : kiln_diff_rng_unit(rng) * 2 - 1;
        uint64_t b = kiln_elem_float_to_bits(a->elem, v);
        store(data, base + i * n + j, bytes, b);
        store(data, base + j * n + i, bytes, b);
      }
}

void kiln_diff_fill(const kiln_diff_arg *a, double special_rate, kiln_diff_rng *rng, void *data) {
  int64_t n = kiln_diff_elem_count_of(a);
  size_t bytes = kiln_elem_storage_bytes(a->elem);
  if (a->gen == KILN_DIFF_GEN_SPD && kiln_elem_is_float(a->elem)) {
    fill_spd(a, rng, data);
    return;
  }
  if (kiln_elem_is_complex(a->elem)) {
    kiln_elem part = kiln_elem_complex_part(a->elem);
    size_t pb = kiln_elem_storage_bytes(part);
    for (int64_t i = 0; i < 2 * n; i++) store(data, i, pb, random_scalar(a, part, special_rate, rng));
    return;
  }
  for (int64_t i = 0; i < n; i++) store(data, i, bytes, random_scalar(a, a->elem, special_rate, rng));
}

void kiln_diff_make_magnitude(kiln_elem elem, int64_t n, void *data) {
  if (kiln_elem_is_complex(elem)) {
    kiln_elem part = kiln_elem_complex_part(elem);
    size_t pb = kiln_elem_storage_bytes(part);
    for (int64_t i = 0; i < n; i++) {
      double re = kiln_elem_float_from_bits(part, load(data, 2 * i, pb));
      double im = kiln_elem_float_from_bits(part, load(data, 2 * i + 1, pb));
      store(data, 2 * i, pb, kiln_elem_float_to_bits(part, fabs(re) + fabs(im)));
      store(data, 2 * i + 1, pb, kiln_elem_float_to_bits(part, 0.0));
    }
  } else if (kiln_elem_is_float(elem)) {
    size_t b = kiln_elem_storage_bytes(elem);
    for (int64_t i = 0; i < n; i++)
      store(data, i, b, kiln_elem_float_to_bits(elem, fabs(kiln_elem_float_from_bits(elem, load(data, i, b)))));
  }
}

/* ---------------------------------------------------------------- comparison */

/* Position on the number line in ULP steps: sign-magnitude bits to a signed integer. */
static int64_t ordered(kiln_elem e, uint64_t b) {
  int bits = kiln_elem_bits(e);
  if (!has_sign_bit(e)) return (int64_t)b;
  uint64_t mag = b & (bits >= 64 ? 0x7FFFFFFFFFFFFFFFull : (1ull << (bits - 1)) - 1);
  return (b >> (bits - 1)) & 1 ? -(int64_t)mag : (int64_t)mag;
}

static void note(kiln_diff_mismatch *m, int64_t i, double abs_err, double ulp_err, const char *got, const char *want) {
  if (m->index < 0) {
    m->index = i;
    snprintf(m->got, sizeof m->got, "%s", got);
    snprintf(m->want, sizeof m->want, "%s", want);
  }
  m->count++;
  if (abs_err > m->max_abs || isnan(abs_err)) m->max_abs = abs_err;
  if (ulp_err > m->max_ulp) m->max_ulp = ulp_err;
}

/* One float of type e; tol_abs is the allowed absolute error beyond the ULP allowance. */
static void compare_float(const kiln_diff_case *c, kiln_elem e, int64_t i, uint64_t g, uint64_t w, double tol_abs,
                          kiln_diff_mismatch *m) {
  if (g == w) return;
  double gv = kiln_elem_float_from_bits(e, g), wv = kiln_elem_float_from_bits(e, w);
  char gs[32], ws[32];
  snprintf(gs, sizeof gs, "%.9g", gv);
  snprintf(ws, sizeof ws, "%.9g", wv);
  if (isnan(gv) || isnan(wv)) {
    if (!(isnan(gv) && isnan(wv))) note(m, i, INFINITY, INFINITY, gs, ws);
    return; /* NaN positions agree; payloads may differ */
  }
  double ulp = fabs((double)(ordered(e, g) - ordered(e, w)));
  bool ok = c->ulp > 0 || c->terms > 0 ? ulp <= c->ulp || fabs(gv - wv) <= tol_abs : false;
  if (!ok) note(m, i, fabs(gv - wv), ulp, gs, ws);
}

static double eps_of(kiln_elem e) {
  int eb, mb;
  kiln_elem_float_format(e, &eb, &mb);
  return ldexp(1.0, -mb);
}

static double value_at(kiln_elem e, const void *data, int64_t i) {
  return kiln_elem_float_from_bits(e, load(data, i, kiln_elem_storage_bytes(e)));
}

bool kiln_diff_compare(const kiln_diff_case *c, kiln_elem elem, int64_t n, const void *got, const void *want,
                       const void *mag, kiln_diff_mismatch *out) {
  memset(out, 0, sizeof *out);
  out->index = -1;
  bool complex = kiln_elem_is_complex(elem);
  kiln_elem e = complex ? kiln_elem_complex_part(elem) : elem;
  size_t bytes = kiln_elem_storage_bytes(e);
  int64_t parts = complex ? 2 : 1;
  if (!kiln_elem_is_float(e)) {
    for (int64_t i = 0; i < n; i++) {
      uint64_t g = load(got, i, bytes), w = load(want, i, bytes);
      if (g == w) continue;
      char gs[32], ws[32];
      if (kiln_elem_class_of(e) == KILN_ELEM_CLASS_I) { /* sign-extend from the storage width */
        int shift = 64 - 8 * (int)bytes;
        int64_t gi = (int64_t)(g << shift) >> shift, wi = (int64_t)(w << shift) >> shift;
        snprintf(gs, sizeof gs, "%lld", (long long)gi);
        snprintf(ws, sizeof ws, "%lld", (long long)wi);
        note(out, i, fabs((double)gi - (double)wi), 0, gs, ws);
      } else {
        snprintf(gs, sizeof gs, "%llu", (unsigned long long)g);
        snprintf(ws, sizeof ws, "%llu", (unsigned long long)w);
        note(out, i, fabs((double)g - (double)w), 0, gs, ws);
      }
    }
    return out->count == 0;
  }
  double eps = eps_of(e), global = 0;
  if (mag && c->mag_global)
    for (int64_t i = 0; i < n * parts; i++) global = fmax(global, fabs(value_at(e, mag, i)));
  for (int64_t i = 0; i < n; i++) {
    double scale = 0; /* the magnitude the error is measured against */
    if (mag) scale = c->mag_global ? global : fabs(value_at(e, mag, i * parts));
    double tol = c->terms * eps * scale;
    if (complex && c->ulp > 0) /* parts near zero: relative to the whole number */
      tol = fmax(tol, c->ulp * eps * (fabs(value_at(e, want, 2 * i)) + fabs(value_at(e, want, 2 * i + 1))));
    for (int64_t p = 0; p < parts; p++)
      compare_float(c, e, i, load(got, i * parts + p, bytes), load(want, i * parts + p, bytes), tol, out);
  }
  return out->count == 0;
}

const char *kiln_diff_dims_str(int rank, const int64_t *dims, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < rank && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", d ? "," : "", (long long)dims[d]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}
