/* Attributes and types of the builtin and VHLO dialects (those of sdy: sdy.c), read on
 * first use from their slice of the AttrType section and kept (an artifact refers to each
 * many times). Codes and encodings: mlir/IR/BuiltinDialectBytecode.td and
 * stablehlo/dialect/VhloBytecode.cpp.
 * VHLO attributes become what the text parser makes of their StableHLO spelling; the
 * op-specific rewrites (dense arrays, dimension numbers, defaults) are vhlo.c's. */
#include <stdio.h>
#include <string.h>

#include "bytecode/reader.h"
#include "ir/print.h"

enum { /* builtin attribute codes */
  B_ARRAY = 0, B_DICT = 1, B_STRING = 2, B_STRING_TYPED = 3, B_FLAT_SYMBOL = 4, B_SYMBOL = 5, B_TYPE = 6,
  B_UNIT = 7, B_INTEGER = 8, B_FLOAT = 9, B_LOC_CALLSITE = 10, B_LOC_FILE = 11, B_LOC_FUSED = 12,
  B_LOC_FUSED_META = 13, B_LOC_NAME = 14, B_LOC_UNKNOWN = 15, B_DENSE_ARRAY = 17, B_DENSE = 18,
};
enum { /* builtin type codes */
  BT_INTEGER = 0, BT_INDEX = 1, BT_FUNCTION = 2, BT_BF16 = 3, BT_F16 = 4, BT_F32 = 5, BT_F64 = 6,
  BT_COMPLEX = 9, BT_NONE = 12, BT_TENSOR = 13, BT_TENSOR_ENC = 14, BT_TUPLE = 15,
};
enum { /* VHLO attribute codes */
  V_ARRAY = 1, V_BOOL = 2, V_CMP_DIR = 3, V_CMP_TYPE = 4, V_API_VERSION = 5, V_DICT = 6, V_FFT = 7,
  V_FLOAT = 8, V_INTEGER = 9, V_ALIAS = 10, V_PRECISION = 11, V_RNG_ALG = 12, V_RNG_DIST = 13,
  V_STRING = 14, V_TENSOR = 15, V_TRANSPOSE = 16, V_TYPE = 17, V_TYPE_EXT = 18, V_ACC_MODE = 19,
  V_ACCURACY = 20, V_SUB_AXIS = 21, V_AXIS_REF = 22, V_MESH_AXES = 23, V_MESH_AXIS = 24, V_MESH = 25,
};
enum { /* VHLO type codes */
  VT_COMPLEX = 1, VT_FUNCTION = 8, VT_TENSOR = 20, VT_TENSOR_ENC = 21, VT_TOKEN = 22, VT_TUPLE = 23,
  VT_QUANT = 24, VT_WITNESS = 26, VT_QUANT_AXIS = 30, VT_NONE = 33, VT_BUFFER = 41, VT_FUTURE = 42, VT_CODES = 43,
};

/* VHLO scalar type codes to elements (KILN_ELEM_COUNT: not a scalar). */
static kiln_elem vhlo_scalar(uint64_t code) {
  static const kiln_elem k[VT_CODES] = {
      [0] = KILN_ELEM_I1, [1] = KILN_ELEM_COUNT, [2] = KILN_ELEM_BF16, [3] = KILN_ELEM_F16, [4] = KILN_ELEM_F32,
      [5] = KILN_ELEM_F64, [6] = KILN_ELEM_F8E4M3FN, [7] = KILN_ELEM_F8E5M2, [8] = KILN_ELEM_COUNT,
      [9] = KILN_ELEM_INDEX, [10] = KILN_ELEM_SI4, [11] = KILN_ELEM_SI8, [12] = KILN_ELEM_SI16,
      [13] = KILN_ELEM_SI32, [14] = KILN_ELEM_SI64, [15] = KILN_ELEM_UI4, [16] = KILN_ELEM_UI8,
      [17] = KILN_ELEM_UI16, [18] = KILN_ELEM_UI32, [19] = KILN_ELEM_UI64, [20] = KILN_ELEM_COUNT,
      [21] = KILN_ELEM_COUNT, [22] = KILN_ELEM_COUNT, [23] = KILN_ELEM_COUNT, [24] = KILN_ELEM_COUNT,
      [25] = KILN_ELEM_COUNT, [26] = KILN_ELEM_COUNT, [27] = KILN_ELEM_F8E4M3FNUZ, [28] = KILN_ELEM_F8E5M2FNUZ,
      [29] = KILN_ELEM_F8E4M3B11FNUZ, [30] = KILN_ELEM_COUNT, [31] = KILN_ELEM_SI2, [32] = KILN_ELEM_UI2,
      [33] = KILN_ELEM_COUNT, [34] = KILN_ELEM_TF32, [35] = KILN_ELEM_F8E4M3, [36] = KILN_ELEM_F8E3M4,
      [37] = KILN_ELEM_F4E2M1FN, [38] = KILN_ELEM_F6E2M3FN, [39] = KILN_ELEM_F6E3M2FN,
      [40] = KILN_ELEM_F8E8M0FNU, [41] = KILN_ELEM_COUNT, [42] = KILN_ELEM_COUNT,
  };
  return code < VT_CODES ? k[code] : KILN_ELEM_COUNT;
}

/* StableHLO enums: VHLO attribute code, the name Kiln spells, the values by number. */
typedef struct enum_info {
  int code;
  const char *name;
  bool dotted;
  const char *values[6];
} enum_info;

static const enum_info k_enums[] = {
    {V_CMP_DIR, "comparison_direction", false, {"EQ", "NE", "GE", "GT", "LE", "LT"}},
    {V_CMP_TYPE, "comparison_type", false, {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
    {V_FFT, "fft_type", false, {"FFT", "IFFT", "RFFT", "IRFFT"}},
    {V_PRECISION, "precision", false, {"DEFAULT", "HIGH", "HIGHEST"}},
    {V_RNG_ALG, "rng_algorithm", false, {"DEFAULT", "THREE_FRY", "PHILOX"}},
    {V_RNG_DIST, "rng_distribution", false, {NULL, "UNIFORM", "NORMAL"}},
    {V_TRANSPOSE, "transpose", false, {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
    {V_ACC_MODE, "result_accuracy_mode", true, {"DEFAULT", "HIGHEST", "TOLERANCE"}},
};

/* ------------------------------------------------------------------ helpers */

bool kb_attr_ref(kb_reader *r, kb_span *s, const char *what, const kiln_attr **out) {
  size_t at = s->pos;
  uint64_t i;
  return kb_varint(r, s, what, &i) && kb_attr(r, i, at, out);
}

bool kb_type_ref(kb_reader *r, kb_span *s, const char *what, const kiln_type **out) {
  size_t at = s->pos;
  uint64_t i;
  return kb_varint(r, s, what, &i) && kb_type(r, i, at, out);
}

static bool type_list(kb_reader *r, kb_span *s, int32_t *out_n, const kiln_type ***out) {
  uint64_t n;
  if (!kb_count(r, s, "the number of types in a list", &n) || !(*out = kb_alloc(r, (size_t)n, sizeof **out))) return false;
  for (uint64_t i = 0; i < n; i++)
    if (!kb_type_ref(r, s, "a type", &(*out)[i])) return false;
  *out_n = (int32_t)n;
  return true;
}

static bool svarint_list(kb_reader *r, kb_span *s, const char *what, int64_t *out_n, int64_t **out) {
  uint64_t n;
  if (!kb_count(r, s, what, &n) || !(*out = kb_alloc(r, (size_t)n, sizeof **out))) return false;
  for (uint64_t i = 0; i < n; i++)
    if (!kb_svarint(r, s, what, &(*out)[i])) return false;
  *out_n = (int64_t)n;
  return true;
}

/* readAPIntWithKnownWidth: up to 8 bits a raw byte, up to 64 a signed varint, wider ones a
 * word count and signed-varint words (only values that fit in 64 bits are kept). */
static bool read_apint(kb_reader *r, kb_span *s, int width, uint64_t *out) {
  if (width <= 8) {
    uint8_t b;
    if (!kb_byte(r, s, "an integer byte", &b)) return false;
    *out = b;
    return true;
  }
  int64_t v;
  if (width <= 64) {
    if (!kb_svarint(r, s, "an integer", &v)) return false;
    *out = (uint64_t)v;
    return true;
  }
  uint64_t words;
  size_t at = s->pos;
  if (!kb_count(r, s, "the number of words of a wide integer", &words)) return false;
  if (words != 1 && words != 2) return kb_fail(r, at, "expected an integer of at most 128 bits, found %llu words", (unsigned long long)words);
  for (uint64_t i = 0; i < words; i++) {
    if (!kb_svarint(r, s, "an integer word", &v)) return false;
    if (i == 0) *out = (uint64_t)v;
  }
  return true;
}

static bool scalar_type(kb_reader *r, kiln_elem e, const kiln_type **out) {
  if (!(*out = kiln_type_scalar(r->m, e))) return kb_oom(r);
  return true;
}

static const kiln_attr *make_int(kb_reader *r, uint64_t bits, const kiln_type *type, size_t at) {
  kiln_elem e = type->kind == KILN_TYPE_SCALAR ? type->elem : KILN_ELEM_COUNT;
  if (e == KILN_ELEM_COUNT || !kiln_elem_is_int(e)) {
    kb_fail(r, at, "expected an integer type for an integer attribute");
    return NULL;
  }
  int w = kiln_elem_bits(e);
  kiln_attr *a = kiln_attr_new(r->m, e == KILN_ELEM_I1 ? KILN_ATTR_BOOL : KILN_ATTR_INT);
  if (!a) {
    kb_oom(r);
    return NULL;
  }
  if (w < 64) bits &= ((uint64_t)1 << w) - 1;
  if (e == KILN_ELEM_I1) {
    a->b = bits != 0;
    return a;
  }
  a->type = type;
  bool neg = kiln_elem_class_of(e) != KILN_ELEM_CLASS_U && (bits >> (w - 1)) & 1;
  if (neg && w < 64) bits |= ~(uint64_t)0 << w;
  a->i.negative = neg;
  a->i.magnitude = neg ? (uint64_t)0 - bits : bits;
  return a;
}

static const kiln_attr *make_float(kb_reader *r, kb_span *s, const kiln_type *type, size_t at) {
  if (type->kind != KILN_TYPE_SCALAR || !kiln_elem_is_float(type->elem)) {
    kb_fail(r, at, "expected a float type for a float attribute");
    return NULL;
  }
  uint64_t bits;
  if (!read_apint(r, s, kiln_elem_bits(type->elem), &bits)) return NULL;
  kiln_attr *a = kiln_attr_new(r->m, KILN_ATTR_FLOAT);
  if (!a) {
    kb_oom(r);
    return NULL;
  }
  a->type = type;
  a->f = kiln_elem_float_from_bits(type->elem, bits);
  return a;
}

/* Dense element storage from MLIR's raw buffer: little endian, one element of ceil(bits/8)
 * bytes each (i1: packed bits, or one byte each; a splat: exactly one element). */
static const kiln_attr *make_dense(kb_reader *r, const kiln_type *type, kb_span blob, size_t at) {
  if (!kiln_type_is_tensor(type) || type->tensor.num_elements < 0) {
    kb_fail(r, at, "expected a statically shaped tensor type for dense elements");
    return NULL;
  }
  kiln_elem e = kiln_type_elem(type);
  size_t n = (size_t)type->tensor.num_elements, len = blob.end - blob.pos;
  size_t kb = kiln_elem_storage_bytes(e);
  bool cplx = kiln_elem_is_complex(e);
  kiln_elem part = cplx ? kiln_elem_complex_part(e) : e;
  size_t mb = e == KILN_ELEM_I1 ? 1 : ((size_t)kiln_elem_bits(part) + 7) / 8 * (cplx ? 2 : 1);
  kiln_attr *a = kiln_attr_new(r->m, KILN_ATTR_DENSE);
  if (!a) {
    kb_oom(r);
    return NULL;
  }
  a->type = type;
  const uint8_t *src = r->data + blob.pos;
  size_t count;
  bool packed = false;
  if (e == KILN_ELEM_I1 && len == 1 && (src[0] == 0xFF || (n > 1 && src[0] == 0x00 && n > 8))) {
    count = 1; /* a splat */
  } else if (e == KILN_ELEM_I1 && len == (n + 7) / 8 && len != n) {
    count = n;
    packed = true;
  } else if (len == mb && n != 1) {
    count = n ? 1 : 0; /* a splat (also of an empty tensor, as JAX writes zero-size constants) */
  } else if (n <= len / mb && len == n * mb) {
    count = n;
  } else {
    kb_fail(r, at, "expected %zu bytes of dense data for %zu elements, found %zu", n * mb, n, len);
    return NULL;
  }
  a->dense.splat = count == 1; /* one element is a splat, as the text parser makes it */
  a->dense.nbytes = count * kb;
  if (n == 0) return a;
  if (!(a->dense.data = kb_alloc(r, count, kb))) return NULL;
  int bits = kiln_elem_bits(part);
  bool sign = kiln_elem_class_of(e) == KILN_ELEM_CLASS_I;
  size_t pb = cplx ? mb / 2 : mb, kpb = cplx ? kb / 2 : kb;
  for (size_t i = 0; i < count; i++) {
    uint8_t *dst = a->dense.data + i * kb;
    if (e == KILN_ELEM_I1) {
      dst[0] = packed ? (src[i / 8] >> (i % 8)) & 1 : src[i] != 0;
      continue;
    }
    for (int k = 0; k < (cplx ? 2 : 1); k++) {
      uint64_t u = 0;
      memcpy(&u, src + i * mb + (size_t)k * pb, pb);
      if (bits < 64) {
        u &= ((uint64_t)1 << bits) - 1;
        if (sign && (u >> (bits - 1)) & 1) u |= ~(uint64_t)0 << bits;
      }
      memcpy(dst + (size_t)k * kpb, &u, kpb);
    }
  }
  return a;
}

static kiln_attr *new_attr(kb_reader *r, kiln_attr_kind kind) {
  kiln_attr *a = kiln_attr_new(r->m, kind);
  if (!a) kb_oom(r);
  return a;
}

static const kiln_attr *make_string(kb_reader *r, kb_span str) {
  kiln_attr *a = new_attr(r, KILN_ATTR_STRING);
  if (a && !(a->str.data = kb_strdup(r, str))) return NULL;
  if (a) a->str.len = str.end - str.pos;
  return a;
}

static const kiln_attr *attr_list(kb_reader *r, kb_span *s) {
  uint64_t n;
  kiln_attr *a = new_attr(r, KILN_ATTR_ARRAY);
  if (!a || !kb_count(r, s, "the number of array elements", &n) || !(a->array.items = kb_alloc(r, (size_t)n, sizeof *a->array.items))) return NULL;
  for (uint64_t i = 0; i < n; i++)
    if (!kb_attr_ref(r, s, "an array element", &a->array.items[i])) return NULL;
  a->array.count = (int32_t)n;
  return a;
}

static const kiln_attr *dict(kb_reader *r, kb_span *s) {
  uint64_t n;
  kiln_attr *a = new_attr(r, KILN_ATTR_DICT);
  if (!a || !kb_count(r, s, "the number of dictionary entries", &n) || !(a->dict.entries = kb_alloc(r, (size_t)n, sizeof *a->dict.entries))) return NULL;
  for (uint64_t i = 0; i < n; i++) {
    const kiln_attr *key;
    size_t at = s->pos;
    if (!kb_attr_ref(r, s, "a dictionary key", &key)) return NULL;
    if (key->kind != KILN_ATTR_STRING) {
      kb_fail(r, at, "expected a string as dictionary key");
      return NULL;
    }
    a->dict.entries[i].name = key->str.data;
    if (!kb_attr_ref(r, s, "a dictionary value", &a->dict.entries[i].value)) return NULL;
  }
  a->dict.count = (int32_t)n;
  return a;
}

static kiln_attr *new_struct(kb_reader *r, const char *name, int32_t count) {
  kiln_attr *a = new_attr(r, KILN_ATTR_STRUCT);
  if (!a || !(a->strct.fields = kb_alloc(r, (size_t)count, sizeof *a->strct.fields))) return NULL;
  a->strct.dialect = "stablehlo";
  a->strct.name = name;
  a->strct.count = count;
  return a;
}

static const kiln_attr *i64_list(kb_reader *r, kb_span *s, const char *what) {
  int64_t n, *v;
  if (!svarint_list(r, s, what, &n, &v)) return NULL;
  const kiln_attr *a = kiln_attr_make_i64_array(r->m, v, n);
  if (!a) kb_oom(r);
  return a;
}

/* ------------------------------------------------------------------ builtin */

static const kiln_attr *builtin_attr(kb_reader *r, kb_span *s, uint64_t code, size_t at) {
  const kiln_type *t;
  kb_span str;
  kiln_attr *a;
  switch (code) {
    case B_ARRAY: return attr_list(r, s);
    case B_DICT: return dict(r, s);
    case B_STRING: return kb_string(r, s, "a string", &str) ? make_string(r, str) : NULL;
    case B_STRING_TYPED: {
      const kiln_attr *plain;
      if (!kb_string(r, s, "a string", &str) || !(plain = make_string(r, str)) || !kb_type_ref(r, s, "a string's type", &t)) return NULL;
      if (!(a = new_attr(r, KILN_ATTR_STRING))) return NULL;
      *a = *plain;
      a->type = t;
      return a;
    }
    case B_FLAT_SYMBOL:
    case B_SYMBOL: {
      const kiln_attr *root;
      if (!kb_attr_ref(r, s, "a symbol name", &root)) return NULL;
      if (root->kind != KILN_ATTR_STRING) {
        kb_fail(r, at, "expected a string as symbol name");
        return NULL;
      }
      if (!(a = new_attr(r, KILN_ATTR_SYMBOL))) return NULL;
      a->symbol = root->str.data;
      if (code == B_SYMBOL) {
        uint64_t n;
        if (!kb_count(r, s, "the number of nested symbols", &n)) return NULL;
        for (uint64_t i = 0; i < n; i++) {
          const kiln_attr *nested;
          if (!kb_attr_ref(r, s, "a nested symbol", &nested)) return NULL;
          if (nested->kind != KILN_ATTR_SYMBOL) {
            kb_fail(r, at, "expected nested symbol references");
            return NULL;
          }
          size_t la = strlen(a->symbol), lb = strlen(nested->symbol);
          char *joined = kb_alloc(r, la + lb + 4, 1);
          if (!joined) return NULL;
          memcpy(joined, a->symbol, la);
          memcpy(joined + la, "::@", 3);
          memcpy(joined + la + 3, nested->symbol, lb + 1);
          a->symbol = joined;
        }
      }
      return a;
    }
    case B_TYPE:
      if (!kb_type_ref(r, s, "a type", &t) || !(a = new_attr(r, KILN_ATTR_TYPE))) return NULL;
      a->type = t;
      return a;
    case B_UNIT: return new_attr(r, KILN_ATTR_UNIT);
    case B_INTEGER: {
      uint64_t bits;
      if (!kb_type_ref(r, s, "an integer's type", &t)) return NULL;
      int w = t->kind == KILN_TYPE_SCALAR && kiln_elem_is_int(t->elem) ? kiln_elem_bits(t->elem) : 64;
      return read_apint(r, s, w, &bits) ? make_int(r, bits, t, at) : NULL;
    }
    case B_FLOAT: return kb_type_ref(r, s, "a float's type", &t) ? make_float(r, s, t, at) : NULL;
    case B_DENSE_ARRAY: {
      uint64_t n;
      kb_span blob;
      if (!kb_type_ref(r, s, "a dense array's element type", &t) || !kb_varint(r, s, "a dense array's size", &n)) return NULL;
      if (!kb_count(r, s, "a dense array's byte count", &blob.end) || !kb_bytes(r, s, (size_t)blob.end, "a dense array's data", &blob)) return NULL;
      if (t->kind != KILN_TYPE_SCALAR || (!kiln_elem_is_int(t->elem) && t->elem != KILN_ELEM_F32 && t->elem != KILN_ELEM_F64)) {
        kb_fail(r, at, "expected an integer, f32 or f64 element type for a dense array");
        return NULL;
      }
      size_t w = t->elem == KILN_ELEM_I1 ? 1 : (size_t)kiln_elem_bits(t->elem) / 8;
      if (n > blob.end - blob.pos || n * w != blob.end - blob.pos) {
        kb_fail(r, at, "expected %llu elements of %zu bytes in a dense array", (unsigned long long)n, w);
        return NULL;
      }
      if (!(a = new_attr(r, KILN_ATTR_DENSE_ARRAY))) return NULL;
      a->type = t;
      a->dense_array.count = (int64_t)n;
      bool fl = kiln_elem_is_float(t->elem);
      if (fl ? !(a->dense_array.floats = kb_alloc(r, (size_t)n, sizeof(double))) : !(a->dense_array.ints = kb_alloc(r, (size_t)n, sizeof(int64_t)))) return NULL;
      for (uint64_t i = 0; i < n; i++) {
        uint64_t u = 0;
        memcpy(&u, r->data + blob.pos + i * w, w);
        if (fl) a->dense_array.floats[i] = kiln_elem_float_from_bits(t->elem, u);
        else if (t->elem == KILN_ELEM_I1) a->dense_array.ints[i] = u != 0;
        else a->dense_array.ints[i] = w < 8 && kiln_elem_class_of(t->elem) == KILN_ELEM_CLASS_I && (u >> (w * 8 - 1)) ? (int64_t)(u | ~(uint64_t)0 << (w * 8)) : (int64_t)u;
      }
      return a;
    }
    case B_DENSE: {
      uint64_t n;
      kb_span blob;
      if (!kb_type_ref(r, s, "dense elements' type", &t) || !kb_count(r, s, "dense elements' byte count", &n) ||
          !kb_bytes(r, s, (size_t)n, "dense elements' data", &blob))
        return NULL;
      return make_dense(r, t, blob, at);
    }
    case B_LOC_CALLSITE: case B_LOC_FILE: case B_LOC_FUSED: case B_LOC_FUSED_META: case B_LOC_NAME: case B_LOC_UNKNOWN:
      kb_fail(r, at, "expected an attribute, found a location");
      return NULL;
    default:
      if (!r->err) r->err = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: byte %zu: builtin attribute code %llu is not read", r->name, at, (unsigned long long)code);
      return NULL;
  }
}

static const kiln_type *tensor_type(kb_reader *r, kb_span *s, const kiln_attr *enc, size_t at) {
  int64_t rank, *dims;
  const kiln_type *elem;
  if (!svarint_list(r, s, "a tensor's dimensions", &rank, &dims) || !kb_type_ref(r, s, "a tensor's element type", &elem)) return NULL;
  if (rank > 64) {
    kb_fail(r, at, "expected a tensor of rank at most 64, found %lld", (long long)rank);
    return NULL;
  }
  for (int64_t i = 0; i < rank; i++)
    if (dims[i] < 0 && dims[i] != KILN_DIM_DYNAMIC) {
      kb_fail(r, at, "expected a tensor dimension >= 0 or dynamic, found %lld", (long long)dims[i]);
      return NULL;
    }
  if (elem->kind != KILN_TYPE_SCALAR && elem->kind != KILN_TYPE_QUANT) {
    kb_fail(r, at, "expected a scalar or quantized element type for a tensor");
    return NULL;
  }
  int64_t *bounds = NULL;
  const kiln_attr *b = enc && enc->kind == KILN_ATTR_STRUCT && !strcmp(enc->strct.name, "bounds") ? enc->strct.fields[0].value : NULL;
  if (b) {
    if (b->dense_array.count != rank) {
      kb_fail(r, at, "expected %lld bounds, one per dimension, found %lld", (long long)rank, (long long)b->dense_array.count);
      return NULL;
    }
    bounds = b->dense_array.ints;
  }
  const kiln_type *t = kiln_type_tensor(r->m, elem, (int32_t)rank, dims, bounds);
  if (!t) {
    kb_fail(r, at, "expected a tensor whose element count fits in 64 bits");
    return NULL;
  }
  if (enc && !b) ((kiln_type *)t)->tensor.encoding = enc;
  return t;
}

static const kiln_type *builtin_type(kb_reader *r, kb_span *s, uint64_t code, size_t at) {
  const kiln_type *t = NULL;
  kiln_type *nt;
  switch (code) {
    case BT_INTEGER: {
      uint64_t v;
      if (!kb_varint(r, s, "an integer type", &v)) return NULL;
      static const struct { int bits; kiln_elem sl, u; } w[] = {
          {1, KILN_ELEM_I1, KILN_ELEM_COUNT}, {2, KILN_ELEM_SI2, KILN_ELEM_UI2}, {4, KILN_ELEM_SI4, KILN_ELEM_UI4},
          {8, KILN_ELEM_SI8, KILN_ELEM_UI8}, {16, KILN_ELEM_SI16, KILN_ELEM_UI16}, {32, KILN_ELEM_SI32, KILN_ELEM_UI32},
          {64, KILN_ELEM_SI64, KILN_ELEM_UI64}};
      for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if ((uint64_t)w[i].bits == v >> 2) {
          kiln_elem e = (v & 3) == 2 ? w[i].u : w[i].sl;
          if (e != KILN_ELEM_COUNT) return scalar_type(r, e, &t) ? t : NULL;
        }
      kb_fail(r, at, "expected an integer type of 1, 2, 4, 8, 16, 32 or 64 bits, found %llu bits", (unsigned long long)(v >> 2));
      return NULL;
    }
    case BT_INDEX: return scalar_type(r, KILN_ELEM_INDEX, &t) ? t : NULL;
    case BT_BF16: return scalar_type(r, KILN_ELEM_BF16, &t) ? t : NULL;
    case BT_F16: return scalar_type(r, KILN_ELEM_F16, &t) ? t : NULL;
    case BT_F32: return scalar_type(r, KILN_ELEM_F32, &t) ? t : NULL;
    case BT_F64: return scalar_type(r, KILN_ELEM_F64, &t) ? t : NULL;
    case BT_NONE: return (nt = kiln_type_new(r->m, KILN_TYPE_NONE)) ? nt : (kb_oom(r), NULL);
    default:
      if (!r->err) r->err = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: byte %zu: builtin type code %llu is not read", r->name, at, (unsigned long long)code);
      return NULL;
  }
}

/* Types whose encoding is the same in both dialects, by their code in each. */
static const kiln_type *shared_type(kb_reader *r, kb_span *s, int kind, size_t at) {
  const kiln_type *t;
  kiln_type *nt;
  const kiln_attr *enc = NULL;
  switch (kind) {
    case VT_COMPLEX:
      if (!kb_type_ref(r, s, "a complex part type", &t)) return NULL;
      if (t->kind != KILN_TYPE_SCALAR || (t->elem != KILN_ELEM_F32 && t->elem != KILN_ELEM_F64)) {
        kb_fail(r, at, "expected complex<f32> or complex<f64>");
        return NULL;
      }
      return scalar_type(r, t->elem == KILN_ELEM_F32 ? KILN_ELEM_C64 : KILN_ELEM_C128, &t) ? t : NULL;
    case VT_FUNCTION:
      if (!(nt = kiln_type_new(r->m, KILN_TYPE_FUNCTION))) return kb_oom(r), NULL;
      if (!type_list(r, s, &nt->func.num_inputs, &nt->func.inputs) || !type_list(r, s, &nt->func.num_results, &nt->func.results)) return NULL;
      return nt;
    case VT_TUPLE:
    case VT_FUTURE:
      if (!(nt = kiln_type_new(r->m, kind == VT_TUPLE ? KILN_TYPE_TUPLE : KILN_TYPE_FUTURE))) return kb_oom(r), NULL;
      return type_list(r, s, &nt->tuple.count, &nt->tuple.types) ? nt : NULL;
    case VT_TENSOR_ENC:
      if (!kb_attr_ref(r, s, "a tensor's encoding", &enc)) return NULL;
      /* fall through */
    case VT_TENSOR: return tensor_type(r, s, enc, at);
  }
  return NULL;
}

/* ------------------------------------------------------------------ VHLO */

static const kiln_type *quant_type(kb_reader *r, kb_span *s, bool per_axis, size_t at) {
  uint64_t flags, axis = 0;
  const kiln_type *st, *ex;
  int64_t lo, hi;
  if (!kb_varint(r, s, "quantization flags", &flags) || !kb_type_ref(r, s, "a storage type", &st) ||
      !kb_type_ref(r, s, "an expressed type", &ex))
    return NULL;
  if (st->kind != KILN_TYPE_SCALAR || !kiln_elem_is_int(st->elem) || st->elem == KILN_ELEM_I1 || st->elem == KILN_ELEM_INDEX ||
      ex->kind != KILN_TYPE_SCALAR || !kiln_elem_is_float(ex->elem)) {
    kb_fail(r, at, "expected an integer storage type and a float expressed type");
    return NULL;
  }
  kiln_type *t = kiln_type_new(r->m, KILN_TYPE_QUANT);
  if (!t) return kb_oom(r), NULL;
  t->quant.storage = st->elem;
  t->quant.expressed = ex->elem;
  t->quant.axis = -1;
  if (per_axis && !kb_varint(r, s, "a quantized dimension", &axis)) return NULL;
  if (!per_axis) {
    uint64_t bits;
    if (!read_apint(r, s, 64, &bits) || !(t->quant.scales = kb_alloc(r, 1, sizeof(double))) ||
        !(t->quant.zero_points = kb_alloc(r, 1, sizeof(int64_t))))
      return NULL;
    t->quant.scales[0] = kiln_elem_float_from_bits(KILN_ELEM_F64, bits);
    t->quant.count = 1;
    if (!kb_svarint(r, s, "a zero point", &t->quant.zero_points[0])) return NULL;
  }
  if (!kb_svarint(r, s, "a storage minimum", &lo) || !kb_svarint(r, s, "a storage maximum", &hi)) return NULL;
  if (per_axis) {
    uint64_t n, nz;
    if (axis > INT32_MAX) return kb_fail(r, at, "expected a quantized dimension below 2^31"), NULL;
    t->quant.axis = (int32_t)axis;
    if (!kb_count(r, s, "the number of scales", &n) || !(t->quant.scales = kb_alloc(r, (size_t)n, sizeof(double)))) return NULL;
    for (uint64_t i = 0; i < n; i++) {
      uint64_t bits;
      if (!read_apint(r, s, 64, &bits)) return NULL;
      t->quant.scales[i] = kiln_elem_float_from_bits(KILN_ELEM_F64, bits);
    }
    if (!kb_count(r, s, "the number of zero points", &nz) || !(t->quant.zero_points = kb_alloc(r, (size_t)nz, sizeof(int64_t)))) return NULL;
    if (nz != n) return kb_fail(r, at, "expected as many zero points as scales (%llu), found %llu", (unsigned long long)n, (unsigned long long)nz), NULL;
    for (uint64_t i = 0; i < nz; i++)
      if (!kb_svarint(r, s, "a zero point", &t->quant.zero_points[i])) return NULL;
    t->quant.count = (int32_t)n;
  }
  int bits = kiln_elem_bits(st->elem);
  bool is_unsigned = kiln_elem_class_of(st->elem) == KILN_ELEM_CLASS_U;
  int64_t dmin = is_unsigned ? 0 : bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
  int64_t dmax = is_unsigned ? (int64_t)(((uint64_t)1 << (bits == 64 ? 63 : bits)) - 1) : (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
  t->quant.storage_min = lo;
  t->quant.storage_max = hi;
  t->quant.has_storage_range = lo != dmin || hi != dmax;
  (void)flags;
  return t;
}

static const kiln_type *vhlo_type(kb_reader *r, kb_span *s, uint64_t code, size_t at) {
  const kiln_type *t;
  kiln_type *nt;
  kiln_elem e = vhlo_scalar(code);
  if (e != KILN_ELEM_COUNT) return scalar_type(r, e, &t) ? t : NULL;
  switch (code) {
    case VT_COMPLEX: case VT_FUNCTION: case VT_TUPLE: case VT_FUTURE: case VT_TENSOR: case VT_TENSOR_ENC:
      return shared_type(r, s, (int)code, at);
    case VT_TOKEN: return (nt = kiln_type_new(r->m, KILN_TYPE_TOKEN)) ? nt : (kb_oom(r), NULL);
    case VT_NONE: return (nt = kiln_type_new(r->m, KILN_TYPE_NONE)) ? nt : (kb_oom(r), NULL);
    case VT_WITNESS:
      if (!(nt = kiln_type_new(r->m, KILN_TYPE_OPAQUE))) return kb_oom(r), NULL;
      nt->opaque = "!shape.witness";
      return nt;
    case VT_QUANT: case VT_QUANT_AXIS: return quant_type(r, s, code == VT_QUANT_AXIS, at);
    case VT_BUFFER: { /* memref<2x?xf32>: a foreign type Kiln keeps as text */
      int64_t rank, *dims;
      if (!svarint_list(r, s, "a buffer's dimensions", &rank, &dims) || !kb_type_ref(r, s, "a buffer's element type", &t)) return NULL;
      char *text = kb_alloc(r, (size_t)rank * 21 + 96, 1);
      if (!text || !(nt = kiln_type_new(r->m, KILN_TYPE_OPAQUE))) return r->err ? NULL : (kb_oom(r), NULL);
      size_t o = (size_t)sprintf(text, "memref<");
      for (int64_t i = 0; i < rank; i++)
        o += dims[i] == KILN_DIM_DYNAMIC ? (size_t)sprintf(text + o, "?x") : (size_t)sprintf(text + o, "%lldx", (long long)dims[i]);
      kiln_type_to_string(t, text + o, 80);
      strcat(text + o, ">");
      nt->opaque = text;
      return nt;
    }
    default:
      if (!r->err)
        r->err = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: byte %zu: VHLO type code %llu is not read (unranked tensors have no Kiln type)", r->name, at,
                             (unsigned long long)code);
      return NULL;
  }
}

/* SubAxisInfoV1 {pre_size, size: svarint} -> #stablehlo.sub_axis_info, or
 * MeshAxisV1 {name: attribute, size: svarint} -> #stablehlo.mesh_axis. */
static const kiln_attr *sized_struct(kb_reader *r, kb_span *s, bool sub_axis) {
  int64_t first = 0, size;
  const kiln_attr *name = NULL, *a0, *a1;
  kiln_attr *a = new_struct(r, sub_axis ? "sub_axis_info" : "mesh_axis", 2);
  if (!a || (sub_axis ? !kb_svarint(r, s, "a sub-axis' pre-size", &first) : !kb_attr_ref(r, s, "a mesh axis' name", &name)) ||
      !kb_svarint(r, s, "an axis size", &size))
    return NULL;
  if (!(a0 = name ? name : kiln_attr_make_int(r->m, first, NULL)) || !(a1 = kiln_attr_make_int(r->m, size, NULL))) return kb_oom(r), NULL;
  a->strct.fields[0] = (kiln_named_attr){sub_axis ? "pre_size" : "name", a0};
  a->strct.fields[1] = (kiln_named_attr){"size", a1};
  return a;
}

/* AxisRefV1 {name, has sub_axis_info: varint, [sub_axis_info]} -> #stablehlo.axis_ref, or
 * MeshV1 {axes, optional device_ids (index << 1 | present)} -> #stablehlo.mesh: the
 * second field is left out when absent. */
static const kiln_attr *optional_struct(kb_reader *r, kb_span *s, bool axis_ref) {
  uint64_t flag;
  const kiln_attr *first, *second = NULL;
  size_t at;
  kiln_attr *a = new_struct(r, axis_ref ? "axis_ref" : "mesh", 2);
  if (!a || !kb_attr_ref(r, s, axis_ref ? "an axis name" : "mesh axes", &first)) return NULL;
  at = s->pos;
  if (!kb_varint(r, s, axis_ref ? "a sub-axis flag" : "optional device ids", &flag)) return NULL;
  if (axis_ref && flag && !kb_attr_ref(r, s, "a sub-axis", &second)) return NULL;
  if (!axis_ref && (flag & 1) && !kb_attr(r, flag >> 1, at, &second)) return NULL;
  a->strct.fields[0] = (kiln_named_attr){axis_ref ? "name" : "axes", first};
  a->strct.fields[1] = (kiln_named_attr){axis_ref ? "sub_axis_info" : "device_ids", second};
  a->strct.count = second ? 2 : 1;
  return a;
}

static const kiln_attr *vhlo_attr(kb_reader *r, kb_span *s, uint64_t code, size_t at) {
  const kiln_type *t;
  kiln_attr *a;
  kb_span str;
  uint64_t v;
  for (size_t i = 0; i < sizeof k_enums / sizeof k_enums[0]; i++) {
    const enum_info *en = &k_enums[i];
    if ((uint64_t)en->code != code) continue;
    if (!kb_varint(r, s, "an enum value", &v)) return NULL;
    if (v >= 6 || !en->values[v]) return kb_fail(r, at, "expected a %s value, found %llu", en->name, (unsigned long long)v), NULL;
    if (!(a = new_attr(r, KILN_ATTR_ENUM))) return NULL;
    a->enumv.dialect = "stablehlo";
    a->enumv.name = en->name;
    a->enumv.value = en->values[v];
    a->enumv.dotted = en->dotted;
    return a;
  }
  switch (code) {
    case V_ARRAY: return attr_list(r, s);
    case V_BOOL:
      if (!kb_varint(r, s, "a boolean", &v) || !(a = new_attr(r, KILN_ATTR_BOOL))) return NULL;
      a->b = v != 0;
      return a;
    case V_API_VERSION: { /* an I32EnumAttr: StableHLO spells it as its number */
      const kiln_type *i32;
      if (!kb_varint(r, s, "a custom call API version", &v) || !scalar_type(r, KILN_ELEM_SI32, &i32)) return NULL;
      if (v > 4) return kb_fail(r, at, "expected a custom call API version of 0 to 4, found %llu", (unsigned long long)v), NULL;
      return make_int(r, v, i32, at);
    }
    case V_DICT: return dict(r, s);
    case V_FLOAT: return kb_type_ref(r, s, "a float's type", &t) ? make_float(r, s, t, at) : NULL;
    case V_INTEGER: {
      uint64_t bits;
      if (!kb_type_ref(r, s, "an integer's type", &t)) return NULL;
      int w = t->kind == KILN_TYPE_SCALAR && kiln_elem_is_int(t->elem) ? kiln_elem_bits(t->elem) : 64;
      return read_apint(r, s, w, &bits) ? make_int(r, bits, t, at) : NULL;
    }
    case V_ALIAS: {
      int64_t operand;
      if (!(a = new_struct(r, "output_operand_alias", 3))) return NULL;
      a->strct.fields[0].name = "output_tuple_indices";
      a->strct.fields[1].name = "operand_index";
      a->strct.fields[2].name = "operand_tuple_indices";
      if (!(a->strct.fields[0].value = i64_list(r, s, "output tuple indices")) || !kb_svarint(r, s, "an operand index", &operand) ||
          !(a->strct.fields[1].value = kiln_attr_make_int(r->m, operand, NULL)) ||
          !(a->strct.fields[2].value = i64_list(r, s, "operand tuple indices")))
        return r->err ? NULL : (kb_oom(r), NULL);
      return a;
    }
    case V_STRING: return kb_string(r, s, "a string", &str) ? make_string(r, str) : NULL;
    case V_TENSOR: {
      uint64_t n;
      kb_span blob;
      if (!kb_type_ref(r, s, "a tensor attribute's type", &t) || !kb_count(r, s, "a tensor's byte count", &n) ||
          !kb_bytes(r, s, (size_t)n, "a tensor's data", &blob))
        return NULL;
      return make_dense(r, t, blob, at);
    }
    case V_TYPE:
      if (!kb_type_ref(r, s, "a type", &t) || !(a = new_attr(r, KILN_ATTR_TYPE))) return NULL;
      a->type = t;
      return a;
    case V_TYPE_EXT: /* only a tensor's encoding: #stablehlo.bounds<...> */
      if (!(a = new_struct(r, "bounds", 1)) || !(a->strct.fields[0].value = i64_list(r, s, "bounds"))) return NULL;
      return a;
    case V_ACCURACY: {
      uint64_t atol, rtol;
      int64_t ulps;
      const kiln_attr *mode;
      const kiln_type *f64;
      if (!scalar_type(r, KILN_ELEM_F64, &f64) || !read_apint(r, s, 64, &atol) || !read_apint(r, s, 64, &rtol) ||
          !kb_svarint(r, s, "ulps", &ulps) || !kb_attr_ref(r, s, "a result accuracy mode", &mode) || !(a = new_struct(r, "result_accuracy", 4)))
        return NULL;
      kiln_attr *fa = new_attr(r, KILN_ATTR_FLOAT), *fr = new_attr(r, KILN_ATTR_FLOAT);
      const kiln_attr *u = kiln_attr_make_int(r->m, ulps, NULL);
      if (!fa || !fr || !u) return kb_oom(r), NULL;
      fa->f = kiln_elem_float_from_bits(KILN_ELEM_F64, atol);
      fr->f = kiln_elem_float_from_bits(KILN_ELEM_F64, rtol);
      a->strct.fields[0] = (kiln_named_attr){"atol", fa};
      a->strct.fields[1] = (kiln_named_attr){"rtol", fr};
      a->strct.fields[2] = (kiln_named_attr){"ulps", u};
      a->strct.fields[3] = (kiln_named_attr){"mode", mode};
      return a;
    }
    case V_SUB_AXIS:
    case V_MESH_AXIS: return sized_struct(r, s, code == V_SUB_AXIS);
    case V_AXIS_REF:
    case V_MESH: return optional_struct(r, s, code == V_AXIS_REF);
    case V_MESH_AXES: {
      const kiln_attr *mesh, *axes;
      if (!kb_attr_ref(r, s, "a mesh", &mesh) || !kb_attr_ref(r, s, "mesh axes", &axes) || !(a = new_struct(r, "replica_group_mesh_axes", 2)))
        return NULL;
      if (mesh->kind == KILN_ATTR_STRING) { /* a mesh's name: StableHLO makes it a symbol */
        kiln_attr *sym = new_attr(r, KILN_ATTR_SYMBOL);
        if (!sym) return NULL;
        sym->symbol = mesh->str.data;
        mesh = sym;
      }
      a->strct.fields[0] = (kiln_named_attr){"mesh", mesh};
      a->strct.fields[1] = (kiln_named_attr){"axes", axes};
      return a;
    }
    default:
      if (!r->err)
        r->err = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: byte %zu: VHLO attribute code %llu is not read (StableHLO 1.20.0 has codes 1 to 25)", r->name, at,
                             (unsigned long long)code);
      return NULL;
  }
}

/* ------------------------------------------------------------------ entries */

static bool entry_span(kb_reader *r, kb_entry *e, const char *what, size_t at, kb_span *out, uint64_t *code) {
  if (e->state == 1) return kb_fail(r, at, "expected a %s that does not contain itself", what);
  if (!e->custom) {
    if (!r->err)
      r->err = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: byte %zu: a %s of dialect '%s' written as text is not read", r->name, e->off, what,
                           r->dialect_names[e->dialect]);
    return false;
  }
  *out = (kb_span){e->off, e->off + e->len};
  return kb_varint(r, out, "a dialect code", code);
}

bool kb_attr(kb_reader *r, uint64_t index, size_t at, const kiln_attr **out) {
  if (index >= r->num_attrs) return kb_fail(r, at, "expected an attribute index below %llu, found %llu", (unsigned long long)r->num_attrs, (unsigned long long)index);
  kb_entry *e = &r->attrs[index];
  if (e->state == 2) {
    *out = e->value;
    return true;
  }
  kb_span s;
  uint64_t code;
  if (!kb_enter(r, at) || !entry_span(r, e, "attribute", at, &s, &code)) return false;
  e->state = 1;
  const kiln_attr *a = NULL;
  kb_dialect d = r->dialects[e->dialect];
  if (d == KB_DIALECT_BUILTIN) a = builtin_attr(r, &s, code, e->off);
  else if (d == KB_DIALECT_VHLO) a = vhlo_attr(r, &s, code, e->off);
  else if (d == KB_DIALECT_SDY) a = kb_sdy_attr(r, &s, code, index, e->off);
  else {
    kiln_attr *o = new_attr(r, KILN_ATTR_OPAQUE);
    size_t n = strlen(r->dialect_names[e->dialect]);
    char *text = kb_alloc(r, n + 16, 1);
    if (o && text) {
      memcpy(text, "#", 1);
      memcpy(text + 1, r->dialect_names[e->dialect], n);
      memcpy(text + 1 + n, ".bytecode", 10);
      o->opaque = text;
      a = o;
      s.pos = s.end;
    }
  }
  kb_leave(r);
  if (!a) return false;
  if (s.pos != s.end) return kb_fail(r, s.pos, "expected the end of attribute %llu, found %zu more bytes", (unsigned long long)index, s.end - s.pos);
  e->state = 2;
  e->value = a;
  *out = a;
  return true;
}

bool kb_type(kb_reader *r, uint64_t index, size_t at, const kiln_type **out) {
  if (index >= r->num_types) return kb_fail(r, at, "expected a type index below %llu, found %llu", (unsigned long long)r->num_types, (unsigned long long)index);
  kb_entry *e = &r->types[index];
  if (e->state == 2) {
    *out = e->value;
    return true;
  }
  kb_span s;
  uint64_t code;
  if (!kb_enter(r, at) || !entry_span(r, e, "type", at, &s, &code)) return false;
  e->state = 1;
  const kiln_type *t = NULL;
  kb_dialect d = r->dialects[e->dialect];
  if (d == KB_DIALECT_BUILTIN) {
    static const int shared[] = {[BT_COMPLEX] = VT_COMPLEX, [BT_FUNCTION] = VT_FUNCTION, [BT_TUPLE] = VT_TUPLE,
                                 [BT_TENSOR] = VT_TENSOR, [BT_TENSOR_ENC] = VT_TENSOR_ENC};
    t = code < sizeof shared / sizeof shared[0] && shared[code] ? shared_type(r, &s, shared[code], e->off) : builtin_type(r, &s, code, e->off);
  } else if (d == KB_DIALECT_VHLO) {
    t = vhlo_type(r, &s, code, e->off);
  } else if (!r->err) {
    r->err = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: byte %zu: types of dialect '%s' are not read", r->name, e->off, r->dialect_names[e->dialect]);
  }
  kb_leave(r);
  if (!t) return false;
  if (s.pos != s.end) return kb_fail(r, s.pos, "expected the end of type %llu, found %zu more bytes", (unsigned long long)index, s.end - s.pos);
  e->state = 2;
  e->value = t;
  *out = t;
  return true;
}

/* ------------------------------------------------------------------ locations */

static kiln_loc loc_at(kb_reader *r, uint64_t index, int depth) {
  kiln_loc none = {0, 0};
  if (index >= r->num_attrs || depth > 16) return none;
  kb_entry *e = &r->attrs[index];
  if (!e->custom || r->dialects[e->dialect] != KB_DIALECT_BUILTIN) return none;
  kb_span s = {e->off, e->off + e->len};
  uint64_t code, a, b;
  if (!kb_varint(r, &s, "a location", &code)) return none;
  switch (code) {
    case B_LOC_FILE:
      if (kb_varint(r, &s, "a file name", &a) && kb_varint(r, &s, "a line", &a) && kb_varint(r, &s, "a column", &b) && a <= UINT32_MAX && b <= UINT32_MAX)
        return (kiln_loc){(uint32_t)a, (uint32_t)b};
      return none;
    case B_LOC_NAME: /* name, child */
    case B_LOC_CALLSITE: /* callee, caller: the callee's position is the op's */
      if (!kb_varint(r, &s, "a location part", &a) || !kb_varint(r, &s, "a location part", &b)) return none;
      return loc_at(r, code == B_LOC_NAME ? b : a, depth + 1);
    case B_LOC_FUSED:
    case B_LOC_FUSED_META: {
      uint64_t n;
      if (!kb_varint(r, &s, "a location count", &n)) return none;
      for (uint64_t i = 0; i < n && i < 64; i++) {
        if (!kb_varint(r, &s, "a location", &a)) return none;
        kiln_loc l = loc_at(r, a, depth + 1);
        if (l.line) return l;
      }
      return none;
    }
    default: return none;
  }
}

kiln_loc kb_location(kb_reader *r, uint64_t index) {
  kiln_loc l = loc_at(r, index, 0);
  if (r->err) { /* a malformed location is only a missing one */
    kiln_status_free(r->err);
    r->err = NULL;
    l = (kiln_loc){0, 0};
  }
  return l;
}
