#include <math.h>
#include <string.h>

#include "ir/ir.h"

typedef struct elem_info {
  const char *name;
  int bits;
  size_t bytes;
  kiln_elem_class cls;
} elem_info;

static const elem_info k_elems[KILN_ELEM_COUNT] = {
#define KILN_ELEM(id, spelling, bits, bytes, cls) {spelling, bits, bytes, KILN_ELEM_CLASS_##cls},
#include "ir/elem.def"
};

const char *kiln_elem_name(kiln_elem e) { return e < KILN_ELEM_COUNT ? k_elems[e].name : "?"; }
int kiln_elem_bits(kiln_elem e) { return k_elems[e].bits; }
size_t kiln_elem_storage_bytes(kiln_elem e) { return k_elems[e].bytes; }
kiln_elem_class kiln_elem_class_of(kiln_elem e) { return k_elems[e].cls; }
bool kiln_elem_is_float(kiln_elem e) { return e < KILN_ELEM_COUNT && k_elems[e].cls == KILN_ELEM_CLASS_F; }
bool kiln_elem_is_complex(kiln_elem e) { return e < KILN_ELEM_COUNT && k_elems[e].cls == KILN_ELEM_CLASS_C; }
bool kiln_elem_is_int(kiln_elem e) {
  if (e >= KILN_ELEM_COUNT) return false;
  kiln_elem_class c = k_elems[e].cls;
  return c == KILN_ELEM_CLASS_B || c == KILN_ELEM_CLASS_I || c == KILN_ELEM_CLASS_U ||
         c == KILN_ELEM_CLASS_X;
}
kiln_elem kiln_elem_complex_part(kiln_elem e) {
  return e == KILN_ELEM_C64 ? KILN_ELEM_F32 : e == KILN_ELEM_C128 ? KILN_ELEM_F64 : KILN_ELEM_COUNT;
}

bool kiln_elem_lookup(const char *s, size_t n, kiln_elem *out) {
  for (int i = 0; i < KILN_ELEM_COUNT; i++) {
    const char *name = k_elems[i].name;
    if (strlen(name) == n && memcmp(name, s, n) == 0) {
      *out = (kiln_elem)i;
      return true;
    }
  }
  /* "siN" is MLIR's explicitly signed spelling of the same signed integer type. */
  if (n > 2 && s[0] == 's' && s[1] == 'i') {
    kiln_elem e;
    if (kiln_elem_lookup(s + 1, n - 1, &e) && k_elems[e].cls == KILN_ELEM_CLASS_I) {
      *out = e;
      return true;
    }
  }
  return false;
}

/* ---- minifloat formats ---- */

typedef enum { FMT_IEEE, FMT_FN, FMT_FNUZ, FMT_NO_NAN, FMT_E8M0 } nan_style;

typedef struct float_fmt {
  int ebits, mbits, bias;
  nan_style style;
} float_fmt;

static float_fmt fmt_of(kiln_elem e) {
  switch (e) {
    case KILN_ELEM_F4E2M1FN: return (float_fmt){2, 1, 1, FMT_NO_NAN};
    case KILN_ELEM_F6E2M3FN: return (float_fmt){2, 3, 1, FMT_NO_NAN};
    case KILN_ELEM_F6E3M2FN: return (float_fmt){3, 2, 3, FMT_NO_NAN};
    case KILN_ELEM_F8E3M4: return (float_fmt){3, 4, 3, FMT_IEEE};
    case KILN_ELEM_F8E4M3: return (float_fmt){4, 3, 7, FMT_IEEE};
    case KILN_ELEM_F8E4M3FN: return (float_fmt){4, 3, 7, FMT_FN};
    case KILN_ELEM_F8E4M3FNUZ: return (float_fmt){4, 3, 8, FMT_FNUZ};
    case KILN_ELEM_F8E4M3B11FNUZ: return (float_fmt){4, 3, 11, FMT_FNUZ};
    case KILN_ELEM_F8E5M2: return (float_fmt){5, 2, 15, FMT_IEEE};
    case KILN_ELEM_F8E5M2FNUZ: return (float_fmt){5, 2, 16, FMT_FNUZ};
    case KILN_ELEM_F8E8M0FNU: return (float_fmt){8, 0, 127, FMT_E8M0};
    case KILN_ELEM_BF16: return (float_fmt){8, 7, 127, FMT_IEEE};
    case KILN_ELEM_F16: return (float_fmt){5, 10, 15, FMT_IEEE};
    case KILN_ELEM_TF32: return (float_fmt){8, 10, 127, FMT_IEEE};
    case KILN_ELEM_F32: return (float_fmt){8, 23, 127, FMT_IEEE};
    default: return (float_fmt){11, 52, 1023, FMT_IEEE};
  }
}

void kiln_elem_float_format(kiln_elem e, int *out_e, int *out_m) {
  float_fmt f = fmt_of(e);
  *out_e = f.ebits;
  *out_m = f.mbits;
}

static uint64_t nan_bits(float_fmt f) {
  uint64_t all_e = ((uint64_t)1 << f.ebits) - 1;
  switch (f.style) {
    case FMT_IEEE: return (all_e << f.mbits) | ((uint64_t)1 << (f.mbits - 1));
    case FMT_FN: return (all_e << f.mbits) | (((uint64_t)1 << f.mbits) - 1);
    case FMT_FNUZ: return (uint64_t)1 << (f.ebits + f.mbits);
    case FMT_E8M0: return 0xff;
    default: return (all_e << f.mbits) | (((uint64_t)1 << f.mbits) - 1); /* saturate */
  }
}

/* Largest finite magnitude pattern (without sign). */
static uint64_t max_bits(float_fmt f) {
  uint64_t all_e = ((uint64_t)1 << f.ebits) - 1, all_m = ((uint64_t)1 << f.mbits) - 1;
  switch (f.style) {
    case FMT_IEEE: return ((all_e - 1) << f.mbits) | all_m;
    case FMT_FN: return (all_e << f.mbits) | (all_m - 1);
    case FMT_E8M0: return 0xfe;
    default: return (all_e << f.mbits) | all_m;
  }
}

/* What a value too large for the format becomes: infinity where the format has one, NaN
 * for the finite-only formats with a NaN, the largest value for those with neither. */
static uint64_t overflow_bits(float_fmt f, uint64_t sign) {
  if (f.style == FMT_IEEE) return sign | ((((uint64_t)1 << f.ebits) - 1) << f.mbits);
  if (f.style == FMT_NO_NAN) return sign | max_bits(f);
  return nan_bits(f) | (f.style == FMT_FN ? sign : 0);
}

uint64_t kiln_elem_float_to_bits(kiln_elem e, double v) {
  if (e == KILN_ELEM_F64) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
  }
  if (e == KILN_ELEM_F32) {
    float x = (float)v;
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
  }
  float_fmt f = fmt_of(e);
  if (f.style == FMT_E8M0) {
    if (!(v > 0) || isinf(v)) return 0xff;
    int k;
    double m = frexp(v, &k); /* v = m * 2^k, m in [0.5, 1) */
    int ex = m > 0.75 ? k : k - 1;
    if (ex + 127 < 0) return 0;
    if (ex + 127 > 0xfe) return 0xff;
    return (uint64_t)(ex + 127);
  }
  int sbit = f.ebits + f.mbits;
  uint64_t sign = signbit(v) ? (uint64_t)1 << sbit : 0;
  if (isnan(v)) return nan_bits(f) | (f.style == FMT_IEEE || f.style == FMT_FN ? sign : 0);
  double a = fabs(v);
  uint64_t mag;
  if (isinf(a)) return overflow_bits(f, sign);
  int emin = 1 - f.bias;
  int k;
  frexp(a, &k);
  int ex = k - 1; /* a = 1.x * 2^ex */
  if (a == 0) {
    mag = 0;
  } else if (ex < emin) {
    mag = (uint64_t)rint(ldexp(a, f.mbits - emin));
  } else {
    uint64_t q = (uint64_t)rint(ldexp(a, f.mbits - ex));
    if (q == (uint64_t)2 << f.mbits) q >>= 1, ex++;
    if (ex + f.bias > (1 << f.ebits)) mag = UINT64_MAX;
    else mag = ((uint64_t)(ex + f.bias) << f.mbits) | (q - ((uint64_t)1 << f.mbits));
  }
  if (mag > max_bits(f)) return overflow_bits(f, sign);
  if (mag == 0 && f.style == FMT_FNUZ) sign = 0;
  return sign | mag;
}

double kiln_elem_float_from_bits(kiln_elem e, uint64_t bits) {
  if (e == KILN_ELEM_F64) {
    double d;
    memcpy(&d, &bits, 8);
    return d;
  }
  if (e == KILN_ELEM_F32) {
    uint32_t u = (uint32_t)bits;
    float x;
    memcpy(&x, &u, 4);
    return x;
  }
  float_fmt f = fmt_of(e);
  if (f.style == FMT_E8M0) return (bits & 0xff) == 0xff ? NAN : ldexp(1.0, (int)(bits & 0xff) - 127);
  int sbit = f.ebits + f.mbits;
  bits &= ((uint64_t)2 << sbit) - 1;
  bool neg = (bits >> sbit) & 1;
  uint64_t mag = bits & (((uint64_t)1 << sbit) - 1);
  uint64_t ef = mag >> f.mbits, mf = mag & (((uint64_t)1 << f.mbits) - 1);
  uint64_t all_e = ((uint64_t)1 << f.ebits) - 1;
  if (f.style == FMT_FNUZ && neg && mag == 0) return NAN;
  if (f.style == FMT_IEEE && ef == all_e) return mf ? NAN : (neg ? -INFINITY : INFINITY);
  if (f.style == FMT_FN && mag == max_bits(f) + 1) return NAN;
  double v = ef == 0 ? ldexp((double)mf, 1 - f.bias - f.mbits)
                     : ldexp((double)(mf | ((uint64_t)1 << f.mbits)), (int)ef - f.bias - f.mbits);
  return neg ? -v : v;
}
