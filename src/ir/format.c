#include "ir/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/print.h"
#include "ir/scalar.h"

bool kiln_format_float_shortest(double v, kiln_elem e, char *out, size_t cap) {
  if (!isfinite(v)) return false;
  uint64_t want = kiln_elem_float_to_bits(e, v);
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(out, cap, "%.*g", prec, v);
    if (kiln_elem_float_to_bits(e, strtod(out, NULL)) == want) break;
  }
  if (!strchr(out, '.')) { /* MLIR floats need a '.': 1e+10 -> 1.0e+10, 3 -> 3.0 */
    char *ex = strchr(out, 'e');
    char tail[32] = "";
    if (ex) {
      snprintf(tail, sizeof tail, "%s", ex);
      *ex = 0;
    }
    size_t n = strlen(out);
    snprintf(out + n, cap - n, ".0%s", tail);
  }
  return true;
}

void kiln_format_float(char *out, size_t cap, kiln_elem e, uint64_t bits, kiln_float_style style) {
  double v = kiln_elem_float_from_bits(e, bits);
  if (!isfinite(v)) {
    if (style == KILN_FLOAT_MLIR) snprintf(out, cap, "0x%llX", (unsigned long long)bits);
    else snprintf(out, cap, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
    return;
  }
  if (style == KILN_FLOAT_MLIR) {
    snprintf(out, cap, "%.6e", v);
    if (kiln_elem_float_to_bits(e, strtod(out, NULL)) == kiln_elem_float_to_bits(e, v)) return;
    kiln_format_float_shortest(v, e, out, cap);
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(out, cap, "%.*g", prec, v);
    if (kiln_elem_float_to_bits(e, strtod(out, NULL)) == kiln_elem_float_to_bits(e, v)) break;
  }
}

/* The stored bits of a float element (the low kiln_elem_bits of its bytes). */
static uint64_t float_bits(kiln_elem e, const uint8_t *p) {
  uint64_t u = 0;
  memcpy(&u, p, kiln_elem_storage_bytes(e));
  int bits = kiln_elem_bits(e);
  return bits < 64 ? u & ((1ull << bits) - 1) : u;
}

void kiln_format_elem(kiln_strbuf *b, kiln_elem e, const uint8_t *p, kiln_float_style style) {
  char t[64];
  switch (kiln_elem_class_of(e)) {
    case KILN_ELEM_CLASS_B: kiln_strbuf_puts(b, p[0] ? "true" : "false"); return;
    case KILN_ELEM_CLASS_U: kiln_strbuf_printf(b, "%llu", (unsigned long long)kiln_scalar_load(e, p).u); return;
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: kiln_strbuf_printf(b, "%lld", (long long)kiln_scalar_load(e, p).i); return;
    case KILN_ELEM_CLASS_F:
      kiln_format_float(t, sizeof t, e, float_bits(e, p), style);
      kiln_strbuf_puts(b, t);
      return;
    case KILN_ELEM_CLASS_C: {
      kiln_elem part = kiln_elem_complex_part(e);
      size_t half = kiln_elem_storage_bytes(e) / 2;
      kiln_strbuf_puts(b, style == KILN_FLOAT_MLIR ? "[" : "(");
      kiln_format_float(t, sizeof t, part, float_bits(part, p), style);
      kiln_strbuf_puts(b, t);
      kiln_strbuf_puts(b, ", ");
      kiln_format_float(t, sizeof t, part, float_bits(part, p + half), style);
      kiln_strbuf_puts(b, t);
      kiln_strbuf_puts(b, style == KILN_FLOAT_MLIR ? "]" : ")");
      return;
    }
  }
}

void kiln_format_tensor_type(kiln_strbuf *b, const kiln_type *elem_type, int32_t rank, const int64_t *dims) {
  char t[256];
  kiln_type_to_string(elem_type, t, sizeof t);
  kiln_strbuf_puts(b, "tensor<");
  for (int32_t d = 0; d < rank; d++) kiln_strbuf_printf(b, "%lldx", (long long)dims[d]);
  kiln_strbuf_puts(b, t);
  kiln_strbuf_puts(b, ">");
}

static void newline_indent(kiln_strbuf *b, int n) {
  kiln_strbuf_puts(b, "\n");
  for (int i = 0; i < n; i++) kiln_strbuf_puts(b, "  ");
}

typedef struct tensor_view {
  kiln_elem elem;
  size_t elem_bytes;
  int32_t rank;
  const int64_t *dims;
  const uint8_t *data;
} tensor_view;

/* Nested brackets, one row per line. */
static void format_rows(kiln_strbuf *b, const tensor_view *v, int32_t dim, int64_t *flat, int indent, bool last) {
  if (dim == v->rank) {
    kiln_format_elem(b, v->elem, v->data + (size_t)(*flat)++ * v->elem_bytes, KILN_FLOAT_MLIR);
    if (!last) kiln_strbuf_puts(b, ", ");
    return;
  }
  newline_indent(b, indent);
  kiln_strbuf_puts(b, "[");
  for (int64_t i = 0; i < v->dims[dim]; i++) format_rows(b, v, dim + 1, flat, indent + 1, i == v->dims[dim] - 1);
  kiln_strbuf_puts(b, "]");
  if (!last) kiln_strbuf_puts(b, ",");
  else newline_indent(b, indent - 1);
}

void kiln_format_tensor(kiln_strbuf *b, const kiln_type *elem_type, int32_t rank, const int64_t *dims,
                        const uint8_t *data) {
  kiln_elem e = elem_type->kind == KILN_TYPE_QUANT ? elem_type->quant.storage : elem_type->elem;
  tensor_view v = {e, kiln_elem_storage_bytes(e), rank, dims, data};
  kiln_format_tensor_type(b, elem_type, rank, dims);
  kiln_strbuf_puts(b, " {");
  int64_t flat = 0;
  format_rows(b, &v, 0, &flat, 1, true);
  kiln_strbuf_puts(b, "}");
}
