#include "npy.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

typedef struct dtype_name {
  kiln_elem elem;
  const char *descr; /* NumPy descr without byte order, or the ml_dtypes name */
  const char *name;
} dtype_name;

static const dtype_name k_dtypes[] = {
    {KILN_ELEM_I1, "b1", "bool"},          {KILN_ELEM_SI8, "i1", "int8"},
    {KILN_ELEM_SI16, "i2", "int16"},       {KILN_ELEM_SI32, "i4", "int32"},
    {KILN_ELEM_SI64, "i8", "int64"},       {KILN_ELEM_UI8, "u1", "uint8"},
    {KILN_ELEM_UI16, "u2", "uint16"},      {KILN_ELEM_UI32, "u4", "uint32"},
    {KILN_ELEM_UI64, "u8", "uint64"},      {KILN_ELEM_F16, "f2", "float16"},
    {KILN_ELEM_F32, "f4", "float32"},      {KILN_ELEM_F64, "f8", "float64"},
    {KILN_ELEM_C64, "c8", "complex64"},    {KILN_ELEM_C128, "c16", "complex128"},
    {KILN_ELEM_BF16, "bfloat16", "bfloat16"},
    {KILN_ELEM_F8E4M3FN, "float8_e4m3fn", "float8_e4m3fn"},
    {KILN_ELEM_F8E5M2, "float8_e5m2", "float8_e5m2"},
    {KILN_ELEM_F8E4M3FNUZ, "float8_e4m3fnuz", "float8_e4m3fnuz"},
    {KILN_ELEM_F8E5M2FNUZ, "float8_e5m2fnuz", "float8_e5m2fnuz"},
    {KILN_ELEM_F8E4M3B11FNUZ, "float8_e4m3b11fnuz", "float8_e4m3b11fnuz"},
    {KILN_ELEM_F8E3M4, "float8_e3m4", "float8_e3m4"},
    {KILN_ELEM_F8E4M3, "float8_e4m3", "float8_e4m3"},
    {KILN_ELEM_F8E8M0FNU, "float8_e8m0fnu", "float8_e8m0fnu"},
    {KILN_ELEM_F6E2M3FN, "float6_e2m3fn", "float6_e2m3fn"},
    {KILN_ELEM_F6E3M2FN, "float6_e3m2fn", "float6_e3m2fn"},
    {KILN_ELEM_F4E2M1FN, "float4_e2m1fn", "float4_e2m1fn"},
    {KILN_ELEM_SI2, "int2", "int2"},       {KILN_ELEM_SI4, "int4", "int4"},
    {KILN_ELEM_UI2, "uint2", "uint2"},     {KILN_ELEM_UI4, "uint4", "uint4"},
};
enum { NUM_DTYPES = sizeof k_dtypes / sizeof k_dtypes[0] };

const char *kiln_npy_dtype_name(kiln_elem e) {
  for (int i = 0; i < NUM_DTYPES; i++)
    if (k_dtypes[i].elem == e) return k_dtypes[i].name;
  return NULL;
}

/* Finds `'key':` in the header dict and returns a pointer after the colon. */
static const char *dict_value(const char *h, const char *key) {
  char pat[32];
  snprintf(pat, sizeof pat, "'%s'", key);
  const char *p = strstr(h, pat);
  if (!p) return NULL;
  p = strchr(p + strlen(pat), ':');
  if (!p) return NULL;
  for (p++; *p == ' '; p++) {}
  return p;
}

static kiln_status fail(const char *path, const char *what) {
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: %s", path, what);
}

/* a's data, read in Fortran (column-major) order, put in row-major order (np.save of a
 * transposed array writes the former). */
static kiln_status to_row_major(const char *path, kiln_npy_array *a) {
  size_t eb = kiln_elem_storage_bytes(a->elem), n = eb ? a->byte_size / eb : 0;
  if (a->rank < 2 || n < 2) return NULL; /* the same bytes either way */
  uint8_t *rm = malloc(a->byte_size);
  if (!rm) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", path);
  int64_t idx[KILN_MAX_RANK] = {0}, stride[KILN_MAX_RANK], off = 0; /* off: idx's element in Fortran order */
  for (int32_t d = 0; d < a->rank; d++) stride[d] = d ? stride[d - 1] * a->dims[d - 1] : 1;
  for (size_t i = 0; i < n; i++) { /* row-major order: the last index fastest */
    memcpy(rm + i * eb, a->data + (size_t)off * eb, eb);
    for (int32_t d = a->rank - 1; d >= 0; d--) {
      off += stride[d];
      if (++idx[d] < a->dims[d]) break;
      off -= stride[d] * a->dims[d];
      idx[d] = 0;
    }
  }
  free(a->data);
  a->data = rm;
  return NULL;
}

/* A raw void descr ("V2": n is its size) read as void_as, when that fits (kiln_npy_read_as). */
static kiln_status void_dtype(const char *path, const char *d, size_t n, kiln_elem void_as, kiln_elem *out) {
  char digits[8] = "";
  if (n < 2 || n > 3 || d[0] != 'V') return fail(path, "unsupported dtype");
  memcpy(digits, d + 1, n - 1);
  long bytes = strtol(digits, NULL, 10);
  if (void_as != KILN_ELEM_COUNT && kiln_elem_is_float(void_as) && !kiln_elem_is_complex(void_as) &&
      (long)kiln_elem_storage_bytes(void_as) == bytes) {
    *out = void_as;
    return NULL;
  }
  if (void_as == KILN_ELEM_COUNT)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       "%s: unsupported dtype: raw %ld-byte values ('V%ld': np.save of an ml_dtypes array "
                       "such as bfloat16) need a parameter type to be read as", path, bytes, bytes);
  return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     "%s: raw %ld-byte values ('V%ld') cannot be read as %s (a float type of %ld bytes: bf16 or "
                     "f16 for 'V2')", path, bytes, bytes, kiln_elem_name(void_as), bytes);
}

kiln_status kiln_npy_read(const char *path, kiln_npy_array *out) { return kiln_npy_read_as(path, KILN_ELEM_COUNT, out); }

kiln_status kiln_npy_read_as(const char *path, kiln_elem void_as, kiln_npy_array *out) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: cannot open: %s", path, strerror(errno));
  unsigned char pre[12];
  kiln_status st = NULL;
  char *header = NULL;
  size_t hlen = 0, pre_len = 10;
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) st = fail(path, "not a .npy file (bad magic)");
  else if (pre[6] == 1) hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
  else if ((pre[6] == 2 || pre[6] == 3) && fread(pre + 10, 1, 2, f) == 2)
    hlen = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24, pre_len = 12;
  else st = fail(path, "unsupported .npy version");
  if (!st && (hlen == 0 || hlen > (1 << 20))) st = fail(path, "bad header length");
  if (!st && !(header = calloc(hlen + 1, 1))) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st && fread(header, 1, hlen, f) != hlen) st = fail(path, "truncated header");
  (void)pre_len;
  const char *descr = st ? NULL : dict_value(header, "descr");
  const char *fortran = st ? NULL : dict_value(header, "fortran_order");
  const char *shape = st ? NULL : dict_value(header, "shape");
  if (!st && (!descr || !fortran || !shape)) st = fail(path, "header lacks descr, fortran_order or shape");
  bool fortran_order = !st && strncmp(fortran, "True", 4) == 0;
  if (!st && !fortran_order && strncmp(fortran, "False", 5) != 0) st = fail(path, "malformed fortran_order");
  kiln_elem elem = KILN_ELEM_COUNT;
  bool swap = false;
  if (!st) {
    if (*descr != '\'') st = fail(path, "structured dtypes are not supported");
    else {
      const char *d = descr + 1, *end = strchr(d, '\'');
      if (!end) st = fail(path, "malformed descr");
      else {
        char order = *d;
        if (order == '<' || order == '>' || order == '|' || order == '=') d++;
        swap = order == '>';
        size_t n = (size_t)(end - d);
        for (int i = 0; i < NUM_DTYPES; i++)
          if (strlen(k_dtypes[i].descr) == n && !memcmp(k_dtypes[i].descr, d, n)) elem = k_dtypes[i].elem;
        if (elem == KILN_ELEM_COUNT) st = void_dtype(path, d, n, void_as, &elem);
      }
    }
  }
  int32_t rank = 0;
  if (!st) {
    const char *p = shape;
    if (*p != '(') st = fail(path, "malformed shape");
    for (p++; !st && *p && *p != ')';) {
      while (*p == ' ' || *p == ',') p++;
      if (*p == ')') break;
      if (!isdigit((unsigned char)*p) || rank >= KILN_MAX_RANK) {
        st = fail(path, "malformed shape");
        break;
      }
      char *e;
      long long v = strtoll(p, &e, 10);
      out->dims[rank++] = v;
      p = e;
    }
  }
  size_t bytes = kiln_elem_storage_bytes(elem == KILN_ELEM_COUNT ? KILN_ELEM_I1 : elem);
  for (int32_t i = 0; !st && i < rank; i++)
    if (out->dims[i] < 0 || !kiln_mul_size(bytes, (size_t)out->dims[i], &bytes)) st = fail(path, "the shape is too large");
  if (!st && !(out->data = malloc(bytes ? bytes : 1))) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", path);
  if (!st) {
    out->elem = elem;
    out->rank = rank;
    out->byte_size = bytes;
    if (fread(out->data, 1, bytes, f) != bytes) st = fail(path, "the data is shorter than the shape says");
    size_t elem_bytes = kiln_elem_storage_bytes(elem);
    size_t part = elem == KILN_ELEM_C64 || elem == KILN_ELEM_C128 ? elem_bytes / 2 : elem_bytes;
    for (size_t i = 0; !st && swap && part > 1 && i < bytes; i += part)
      for (size_t a = 0, b = part - 1; a < b; a++, b--) {
        uint8_t t = out->data[i + a];
        out->data[i + a] = out->data[i + b];
        out->data[i + b] = t;
      }
  }
  if (!st && fortran_order) st = to_row_major(path, out);
  if (st) kiln_npy_free(out);
  free(header);
  fclose(f);
  return st;
}

void kiln_npy_free(kiln_npy_array *a) {
  free(a->data);
  memset(a, 0, sizeof *a);
}

kiln_status kiln_npy_write(const char *path, const kiln_npy_array *v) {
  kiln_elem e = v->elem;
  const char *descr = NULL;
  for (int i = 0; i < NUM_DTYPES; i++)
    if (k_dtypes[i].elem == e) descr = k_dtypes[i].descr;
  if (!descr) return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: %s has no NumPy dtype", path, kiln_elem_name(e));
  char dict[4096];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s%s', 'fortran_order': False, 'shape': (", strlen(descr) <= 3 ? (e == KILN_ELEM_I1 || e == KILN_ELEM_SI8 || e == KILN_ELEM_UI8 ? "|" : "<") : "", descr);
  for (int32_t i = 0; i < v->rank && n < 3900; i++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld%s", (long long)v->dims[i], v->rank == 1 ? "," : (i + 1 < v->rank ? ", " : ""));
  n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
  size_t total = 10 + (size_t)n + 1, pad = (64 - total % 64) % 64;
  FILE *f = fopen(path, "wb");
  if (!f) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: cannot create: %s", path, strerror(errno));
  size_t hlen = (size_t)n + pad + 1;
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
  bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
  for (size_t i = 0; ok && i < pad; i++) ok = fputc(' ', f) != EOF;
  ok = ok && fputc('\n', f) != EOF;
  ok = ok && fwrite(v->data, 1, v->byte_size, f) == v->byte_size;
  ok = (fclose(f) == 0) && ok;
  return ok ? NULL : KILN_STATUS(KILN_STATUS_DATA_LOSS, "%s: write failed", path);
}
