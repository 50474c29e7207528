/* Printer: modules in the pretty form (generic form for ops without one). Printing,
 * parsing that text and printing again gives identical text. */
#include "ir/print.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "ir/canonical.h"
#include "ir/format.h"
#include "ir/op.h"
#include "ir/sdy.h"

typedef struct value_slot {
  const kiln_value *key;
  int32_t id;
  bool arg;
} value_slot;

typedef struct printer {
  kiln_strbuf out;
  int indent;
  value_slot *slots;
  size_t num_slots, used;
  int32_t next_result, next_arg;
} printer;

/* ------------------------------------------------------------------ output */

static void put(printer *pr, const char *s, size_t n) { kiln_strbuf_put(&pr->out, s, n); }
static void puts_(printer *pr, const char *s) { kiln_strbuf_puts(&pr->out, s); }
#define putf(pr, ...) kiln_strbuf_printf(&(pr)->out, __VA_ARGS__)

static void newline(printer *pr) {
  puts_(pr, "\n");
  for (int i = 0; i < pr->indent; i++) puts_(pr, "  ");
}

/* ------------------------------------------------------------------ numbers */

static void put_float(printer *pr, double v, kiln_elem e) {
  char buf[64];
  if (kiln_format_float_shortest(v, e, buf, sizeof buf)) puts_(pr, buf);
  else putf(pr, "0x%0*llX", (int)(kiln_elem_storage_bytes(e) * 2), (unsigned long long)kiln_elem_float_to_bits(e, v));
}

static uint64_t load_bits(const uint8_t *p, size_t n) {
  uint64_t u = 0;
  memcpy(&u, p, n);
  return u;
}

/* ------------------------------------------------------------------ types */

static void print_type(printer *pr, const kiln_type *t);
static void print_attr(printer *pr, const kiln_attr *a, bool in_struct);

static void print_dim(printer *pr, int64_t d) {
  if (d == KILN_DIM_DYNAMIC) puts_(pr, "?");
  else putf(pr, "%lld", (long long)d);
}

static void print_type_list(printer *pr, const kiln_type *const *ts, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    if (i) puts_(pr, ", ");
    print_type(pr, ts[i]);
  }
}

static void print_results_types(printer *pr, const kiln_type *const *ts, int32_t n) {
  bool paren = n != 1 || ts[0]->kind == KILN_TYPE_FUNCTION;
  if (paren) puts_(pr, "(");
  print_type_list(pr, ts, n);
  if (paren) puts_(pr, ")");
}

static void print_quant(printer *pr, const kiln_type *t) {
  const char *s = kiln_elem_name(t->quant.storage);
  puts_(pr, "!quant.uniform<");
  if (s[0] == 'u') { /* quant spells unsigned storage uN */
    puts_(pr, "u");
    puts_(pr, s + 2);
  } else {
    puts_(pr, s);
  }
  if (t->quant.has_storage_range) putf(pr, "<%lld:%lld>", (long long)t->quant.storage_min, (long long)t->quant.storage_max);
  putf(pr, ":%s", kiln_elem_name(t->quant.expressed));
  if (t->quant.axis >= 0) putf(pr, ":%d", (int)t->quant.axis);
  puts_(pr, t->quant.axis >= 0 ? ", {" : ", ");
  for (int32_t i = 0; i < t->quant.count; i++) {
    if (i) puts_(pr, ",");
    put_float(pr, t->quant.scales[i], KILN_ELEM_F64);
    if (t->quant.zero_points[i]) putf(pr, ":%lld", (long long)t->quant.zero_points[i]);
  }
  puts_(pr, t->quant.axis >= 0 ? "}>" : ">");
}

static void print_type(printer *pr, const kiln_type *t) {
  switch (t->kind) {
    case KILN_TYPE_SCALAR: puts_(pr, kiln_elem_name(t->elem)); return;
    case KILN_TYPE_QUANT: print_quant(pr, t); return;
    case KILN_TYPE_TENSOR:
      puts_(pr, "tensor<");
      for (int32_t i = 0; i < t->tensor.rank; i++) {
        print_dim(pr, t->tensor.dims[i]);
        puts_(pr, "x");
      }
      print_type(pr, t->tensor.element);
      if (t->tensor.bounds) {
        puts_(pr, ", #stablehlo.type_extensions<bounds = [");
        for (int32_t i = 0; i < t->tensor.rank; i++) {
          if (i) puts_(pr, ", ");
          print_dim(pr, t->tensor.bounds[i]);
        }
        puts_(pr, "]>");
      } else if (t->tensor.encoding) {
        puts_(pr, ", ");
        print_attr(pr, t->tensor.encoding, false);
      }
      puts_(pr, ">");
      return;
    case KILN_TYPE_TUPLE:
    case KILN_TYPE_FUTURE:
      puts_(pr, t->kind == KILN_TYPE_TUPLE ? "tuple<" : "!stablehlo.future<");
      print_type_list(pr, t->tuple.types, t->tuple.count);
      puts_(pr, ">");
      return;
    case KILN_TYPE_TOKEN: puts_(pr, "!stablehlo.token"); return;
    case KILN_TYPE_NONE: puts_(pr, "none"); return;
    case KILN_TYPE_FUNCTION:
      puts_(pr, "(");
      print_type_list(pr, t->func.inputs, t->func.num_inputs);
      puts_(pr, ") -> ");
      print_results_types(pr, t->func.results, t->func.num_results);
      return;
    case KILN_TYPE_OPAQUE: puts_(pr, t->opaque); return;
  }
}

/* ------------------------------------------------------------------ attributes */

static void print_string(printer *pr, const char *s, size_t n) {
  puts_(pr, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') putf(pr, "\\%c", c);
    else if (c == '\n') puts_(pr, "\\n");
    else if (c == '\t') puts_(pr, "\\t");
    else if (c < 0x20 || c >= 0x7f) putf(pr, "\\%02X", c);
    else put(pr, (const char *)&c, 1);
  }
  puts_(pr, "\"");
}

static bool is_bare_span(const char *s, size_t n) {
  if (!n || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
          c == '.' || c == '-'))
      return false;
  }
  return true;
}

static bool is_bare_name(const char *s) { return is_bare_span(s, strlen(s)); }

static void print_name_n(printer *pr, const char *s, size_t n) {
  if (is_bare_span(s, n)) put(pr, s, n);
  else print_string(pr, s, n);
}

static void print_name(printer *pr, const char *s) { print_name_n(pr, s, strlen(s)); }

/* @name, quoted when it is not a bare identifier; a nested reference "a::@b" prints each
 * part so (a part may be empty: @""::@b). */
static void print_symbol(printer *pr, const char *s) {
  for (const char *part = s;;) {
    const char *sep = strstr(part, "::@");
    puts_(pr, "@");
    print_name_n(pr, part, sep ? (size_t)(sep - part) : strlen(part));
    if (!sep) return;
    puts_(pr, "::");
    part = sep + 3;
  }
}

/* The low kiln_elem_bits(e) bits (sub-byte types use the low bits of their byte). */
static uint64_t elem_bits_of(kiln_elem e, uint64_t u) {
  int bits = kiln_elem_bits(e);
  return bits < 64 ? u & (((uint64_t)1 << bits) - 1) : u;
}

/* A stored float: decimal when finite, else its own bits in hex (NaN payloads and signs
 * survive, which a round trip through double does not guarantee). */
static void put_float_bits(printer *pr, kiln_elem e, uint64_t u) {
  char buf[64];
  u = elem_bits_of(e, u);
  if (kiln_format_float_shortest(kiln_elem_float_from_bits(e, u), e, buf, sizeof buf)) puts_(pr, buf);
  else putf(pr, "0x%0*llX", (int)(kiln_elem_storage_bytes(e) * 2), (unsigned long long)u);
}

static void print_elem_value(printer *pr, const uint8_t *p, const kiln_type *elem_type) {
  kiln_elem e = elem_type->kind == KILN_TYPE_QUANT ? elem_type->quant.storage : elem_type->elem;
  size_t n = kiln_elem_storage_bytes(e);
  switch (kiln_elem_class_of(e)) {
    case KILN_ELEM_CLASS_B: puts_(pr, p[0] ? "true" : "false"); return;
    case KILN_ELEM_CLASS_U: putf(pr, "%llu", (unsigned long long)elem_bits_of(e, load_bits(p, n))); return;
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: {
      int bits = kiln_elem_bits(e);
      uint64_t u = elem_bits_of(e, load_bits(p, n));
      if (bits < 64 && (u >> (bits - 1)) & 1) u |= ~(uint64_t)0 << bits;
      putf(pr, "%lld", (long long)u);
      return;
    }
    case KILN_ELEM_CLASS_F: put_float_bits(pr, e, load_bits(p, n)); return;
    case KILN_ELEM_CLASS_C: {
      kiln_elem part = kiln_elem_complex_part(e);
      puts_(pr, "(");
      put_float_bits(pr, part, load_bits(p, n / 2));
      puts_(pr, ", ");
      put_float_bits(pr, part, load_bits(p + n / 2, n / 2));
      puts_(pr, ")");
      return;
    }
  }
}

enum { HEX_THRESHOLD = 100 }; /* dense payloads with this many elements print as hex */

static void print_dense_list(printer *pr, const kiln_attr *a, int32_t dim, int64_t *index) {
  const kiln_type *t = a->type;
  if (dim == t->tensor.rank) {
    size_t n = kiln_elem_storage_bytes(kiln_type_elem(t));
    print_elem_value(pr, a->dense.data + (size_t)(*index)++ * n, t->tensor.element);
    return;
  }
  puts_(pr, "[");
  for (int64_t i = 0; i < t->tensor.dims[dim] && !pr->out.failed; i++) {
    if (i) puts_(pr, ", ");
    print_dense_list(pr, a, dim + 1, index);
  }
  puts_(pr, "]");
}

static void print_dense(printer *pr, const kiln_attr *a) {
  const kiln_type *t = a->type;
  puts_(pr, "dense<");
  if (a->dense.splat) {
    print_elem_value(pr, a->dense.data, t->tensor.element);
  } else if (t->tensor.num_elements >= HEX_THRESHOLD) {
    static const char hex[] = "0123456789ABCDEF";
    puts_(pr, "\"0x");
    for (size_t i = 0; i < a->dense.nbytes && !pr->out.failed; i++) {
      char two[2] = {hex[a->dense.data[i] >> 4], hex[a->dense.data[i] & 15]};
      put(pr, two, 2);
    }
    puts_(pr, "\"");
  } else if (t->tensor.num_elements > 0) {
    int64_t index = 0;
    print_dense_list(pr, a, 0, &index);
  }
  puts_(pr, "> : ");
  print_type(pr, t);
}

static void print_int_list(printer *pr, const kiln_attr *a) {
  int64_t n = kiln_attr_count(a), v;
  bool bools = a->type && a->type->kind == KILN_TYPE_SCALAR && a->type->elem == KILN_ELEM_I1;
  puts_(pr, "[");
  for (int64_t i = 0; i < n; i++) {
    kiln_attr_i64_at(a, i, &v);
    if (i) puts_(pr, ", ");
    if (bools) puts_(pr, v ? "true" : "false");
    else putf(pr, "%lld", (long long)v);
  }
  puts_(pr, "]");
}

static void print_dense_array(printer *pr, const kiln_attr *a, bool in_struct) {
  if (in_struct && a->dense_array.ints) {
    print_int_list(pr, a);
    return;
  }
  putf(pr, "array<%s", kiln_elem_name(a->type->elem));
  for (int64_t i = 0; i < a->dense_array.count; i++) {
    puts_(pr, i ? ", " : ": ");
    if (a->dense_array.floats) put_float(pr, a->dense_array.floats[i], a->type->elem);
    else if (a->type->elem == KILN_ELEM_I1) puts_(pr, a->dense_array.ints[i] ? "true" : "false");
    else putf(pr, "%lld", (long long)a->dense_array.ints[i]);
  }
  puts_(pr, ">");
}

static int entry_order(const void *a, const void *b) {
  const kiln_named_attr *x = *(const kiln_named_attr *const *)a, *y = *(const kiln_named_attr *const *)b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x > y) - (x < y);
}

/* How an op's attribute dictionary is written: in the generic form every attribute is
 * shown; pretty forms leave out the default-valued ones, as MLIR's ODS printers do
 * (`attributes {...}` is the keyword form of func.func and builtin.module). */
typedef enum dict_form { DICT_GENERIC, DICT_PRETTY, DICT_KEYWORD } dict_form;

/* Whether entry a (of op, or of a dictionary attribute when op is NULL) is printed. */
static bool shown_in(const kiln_op *op, const kiln_named_attr *a, const char *const *skip, dict_form form) {
  for (const char *const *s = skip; s && *s; s++)
    if (!strcmp(*s, a->name)) return false;
  return !op || form == DICT_GENERIC || !kiln_op_attr_is_default(op->kind, a->name, a->value);
}

/* A dictionary's entries in name order, as MLIR's DictionaryAttr keeps them (an op's
 * attributes too), without those shown_in leaves out. */
static void print_dict_entries(printer *pr, const kiln_named_attr *e, int32_t n, const kiln_op *op, const char *const *skip,
                               dict_form form) {
  if (n <= 0) return;
  const kiln_named_attr **order = malloc((size_t)n * sizeof *order);
  if (!order) {
    pr->out.failed = true;
    return;
  }
  for (int32_t i = 0; i < n; i++) order[i] = &e[i];
  qsort(order, (size_t)n, sizeof *order, entry_order);
  bool first = true;
  for (int32_t i = 0; i < n; i++) {
    if (!shown_in(op, order[i], skip, form)) continue;
    if (!first) puts_(pr, ", ");
    first = false;
    print_name(pr, order[i]->name);
    if (order[i]->value->kind != KILN_ATTR_UNIT) {
      puts_(pr, " = ");
      print_attr(pr, order[i]->value, false);
    }
  }
  free(order);
}

static void print_conv_dims(printer *pr, const kiln_attr *a) {
  static const char *const names[3][3] = {
      {"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions"},
      {"kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions"},
      {"output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions"}};
  static const char labels[3][2] = {{'b', 'f'}, {'i', 'o'}, {'b', 'f'}};
  for (int k = 0; k < 3; k++) {
    int64_t l0 = 0, l1 = 0, s;
    const kiln_attr *sp = kiln_attr_get(a, names[k][2]);
    kiln_attr_i64_at(kiln_attr_get(a, names[k][0]), 0, &l0);
    kiln_attr_i64_at(kiln_attr_get(a, names[k][1]), 0, &l1);
    int64_t ns = kiln_attr_count(sp), rank = ns + 2;
    puts_(pr, k == 0 ? "[" : k == 1 ? "x[" : "->[");
    for (int64_t pos = 0; pos < rank; pos++) {
      if (pos) puts_(pr, ", ");
      if (pos == l0) put(pr, &labels[k][0], 1);
      else if (pos == l1) put(pr, &labels[k][1], 1);
      else
        for (int64_t j = 0; j < ns; j++)
          if (kiln_attr_i64_at(sp, j, &s) && s == pos) putf(pr, "%lld", (long long)j);
    }
    puts_(pr, "]");
  }
}

/* The compact conv form can only be written when the fields form permutations. */
static bool conv_dims_printable(const kiln_attr *a) {
  if (!a || a->kind != KILN_ATTR_STRUCT || strcmp(a->strct.name, "conv") || a->strct.count != 9) return false;
  static const char *const groups[3][3] = {
      {"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions"},
      {"kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions"},
      {"output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions"}};
  for (int k = 0; k < 3; k++) {
    const kiln_attr *f0 = kiln_attr_get(a, groups[k][0]), *f1 = kiln_attr_get(a, groups[k][1]),
                    *sp = kiln_attr_get(a, groups[k][2]);
    int64_t ns = kiln_attr_count(sp), v;
    if (kiln_attr_count(f0) != 1 || kiln_attr_count(f1) != 1 || ns < 0 || ns > 60) return false;
    bool seen[64] = {false};
    int64_t vals[3] = {0, 0, 0};
    kiln_attr_i64_at(f0, 0, &vals[0]);
    kiln_attr_i64_at(f1, 0, &vals[1]);
    for (int j = 0; j < 2; j++) {
      if (vals[j] < 0 || vals[j] >= ns + 2 || seen[vals[j]]) return false;
      seen[vals[j]] = true;
    }
    for (int64_t j = 0; j < ns; j++) {
      if (!kiln_attr_i64_at(sp, j, &v) || v < 0 || v >= ns + 2 || seen[v]) return false;
      seen[v] = true;
    }
  }
  return true;
}

static bool is_sub_axis_info(const kiln_attr *a) {
  return !strcmp(a->strct.name, "sub_axis_info") && a->strct.count == 2 && a->strct.fields[0].value->kind == KILN_ATTR_INT &&
         a->strct.fields[1].value->kind == KILN_ATTR_INT;
}

static void print_attr(printer *pr, const kiln_attr *a, bool in_struct) {
  if (pr->out.failed) return;
  switch (a->kind) {
    case KILN_ATTR_UNIT: puts_(pr, "unit"); return;
    case KILN_ATTR_BOOL: puts_(pr, a->b ? "true" : "false"); return;
    case KILN_ATTR_INT:
      putf(pr, a->i.negative ? "-%llu" : "%llu", (unsigned long long)a->i.magnitude);
      break;
    case KILN_ATTR_FLOAT: {
      kiln_elem e = a->type && a->type->kind == KILN_TYPE_SCALAR ? a->type->elem : KILN_ELEM_F64;
      char buf[64];
      if (kiln_format_float_shortest(a->f, e, buf, sizeof buf)) {
        puts_(pr, buf);
      } else {
        put_float(pr, a->f, e);
        if (!a->type) puts_(pr, " : f64");
      }
      break;
    }
    case KILN_ATTR_STRING: print_string(pr, a->str.data, a->str.len); break;
    case KILN_ATTR_TYPE: print_type(pr, a->type); return;
    case KILN_ATTR_ARRAY:
      puts_(pr, "[");
      for (int32_t i = 0; i < a->array.count; i++) {
        if (i) puts_(pr, ", ");
        print_attr(pr, a->array.items[i], in_struct);
      }
      puts_(pr, "]");
      return;
    case KILN_ATTR_DENSE_ARRAY: print_dense_array(pr, a, in_struct); return;
    case KILN_ATTR_DENSE: print_dense(pr, a); return;
    case KILN_ATTR_DICT:
      puts_(pr, "{");
      print_dict_entries(pr, a->dict.entries, a->dict.count, NULL, NULL, DICT_PRETTY);
      puts_(pr, "}");
      return;
    case KILN_ATTR_SYMBOL:
      print_symbol(pr, a->symbol);
      return;
    case KILN_ATTR_ENUM:
      if (!a->enumv.dialect) puts_(pr, a->enumv.value);
      else if (a->enumv.dotted) putf(pr, "#%s.%s<%s>", a->enumv.dialect, a->enumv.name, a->enumv.value);
      else putf(pr, "#%s<%s %s>", a->enumv.dialect, a->enumv.name, a->enumv.value);
      return;
    case KILN_ATTR_STRUCT:
      if (in_struct && is_sub_axis_info(a)) { /* axis_ref's sub_axis_info = (1)2 */
        putf(pr, "(%lld)%lld", (long long)kiln_attr_int(a->strct.fields[0].value), (long long)kiln_attr_int(a->strct.fields[1].value));
        return;
      }
      putf(pr, "#%s.%s<", a->strct.dialect, a->strct.name);
      if (!strcmp(a->strct.name, "conv") && conv_dims_printable(a)) {
        print_conv_dims(pr, a);
      } else {
        if (!strcmp(a->strct.name, "conv")) puts_(pr, "raw ");
        for (int32_t i = 0; i < a->strct.count; i++) {
          if (i) puts_(pr, ", ");
          if (a->strct.fields[i].name) putf(pr, "%s = ", a->strct.fields[i].name);
          print_attr(pr, a->strct.fields[i].value, true);
        }
      }
      puts_(pr, ">");
      return;
    case KILN_ATTR_OPAQUE: puts_(pr, a->opaque); return;
  }
  if (a->type && !in_struct) {
    puts_(pr, " : ");
    print_type(pr, a->type);
  }
}

void kiln_type_to_string(const kiln_type *t, char *buf, size_t cap) {
  printer pr = {.out.limit = cap};
  print_type(&pr, t);
  snprintf(buf, cap, "%s", pr.out.data ? pr.out.data : "");
  free(pr.out.data);
}

void kiln_attr_to_string(const kiln_attr *a, char *buf, size_t cap) {
  printer pr = {.out.limit = cap};
  print_attr(&pr, a, false);
  snprintf(buf, cap, "%s", pr.out.data ? pr.out.data : "");
  free(pr.out.data);
}

/* ------------------------------------------------------------------ value names */

static size_t slot_of(const printer *pr, const kiln_value *v) {
  size_t mask = pr->num_slots - 1, i = ((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull & mask;
  while (pr->slots[i].key && pr->slots[i].key != v) i = (i + 1) & mask;
  return i;
}

static void name_value(printer *pr, const kiln_value *v, bool arg) {
  if ((pr->used + 1) * 2 > pr->num_slots) {
    size_t n = pr->num_slots ? pr->num_slots * 2 : 1024;
    value_slot *old = pr->slots;
    size_t old_n = pr->num_slots;
    pr->slots = calloc(n, sizeof *pr->slots);
    if (!pr->slots) {
      pr->slots = old;
      pr->out.failed = true;
      return;
    }
    pr->num_slots = n;
    for (size_t i = 0; i < old_n; i++)
      if (old[i].key) pr->slots[slot_of(pr, old[i].key)] = old[i];
    free(old);
  }
  value_slot *s = &pr->slots[slot_of(pr, v)];
  s->key = v;
  s->arg = arg;
  s->id = arg ? pr->next_arg++ : pr->next_result++;
  pr->used++;
}

/* The name of a value's group: %argN for a block argument, %N for an op's results. */
static void print_value_name(printer *pr, const kiln_value *v) {
  const kiln_value *key = v->def ? &v->def->results[0] : v;
  const value_slot *s = pr->num_slots ? &pr->slots[slot_of(pr, key)] : NULL;
  if (!s || !s->key) {
    puts_(pr, "%<unknown>");
    return;
  }
  putf(pr, s->arg ? "%%arg%d" : "%%%d", (int)s->id);
}

/* A use: the group name, and #i for a result of a multi-result op. */
static void print_value(printer *pr, const kiln_value *v) {
  print_value_name(pr, v);
  if (v->def && v->def->num_results > 1) putf(pr, "#%d", (int)v->index);
}

static void print_operands(printer *pr, kiln_value *const *vs, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    if (i) puts_(pr, ", ");
    print_value(pr, vs[i]);
  }
}

/* ------------------------------------------------------------------ ops */

static void print_op(printer *pr, const kiln_op *op);

static void print_block_body(printer *pr, const kiln_block *b) {
  pr->indent++;
  for (const kiln_op *op = b->first; op; op = op->next) {
    newline(pr);
    print_op(pr, op);
  }
  pr->indent--;
}

/* (%argN: T, ...): names the block's arguments as it prints them. */
static void print_block_args(printer *pr, const kiln_block *b) {
  puts_(pr, "(");
  for (int32_t i = 0; i < b->num_args; i++) {
    if (i) puts_(pr, ", ");
    name_value(pr, &b->args[i], true);
    print_value(pr, &b->args[i]);
    puts_(pr, ": ");
    print_type(pr, b->args[i].type);
  }
  puts_(pr, ")");
}

static void print_block_header(printer *pr, const kiln_block *b, int32_t index) {
  newline(pr);
  putf(pr, "^bb%d", (int)index);
  if (b->num_args) print_block_args(pr, b);
  puts_(pr, ":");
}

/* A region; `named_args` when the pretty form already named the entry block's args. */
static void print_region(printer *pr, const kiln_region *r, bool named_args) {
  puts_(pr, "{");
  int32_t index = 0;
  for (const kiln_block *b = r->first; b; b = b->next, index++) {
    if (index > 0 || (!named_args && b->num_args)) print_block_header(pr, b, index);
    print_block_body(pr, b);
  }
  newline(pr);
  puts_(pr, "}");
}

static void print_attr_dict(printer *pr, const kiln_op *op, const char *const *skip, dict_form form) {
  int32_t shown = 0;
  for (int32_t i = 0; i < op->num_attrs; i++) shown += shown_in(op, &op->attrs[i], skip, form);
  if (!shown) return;
  puts_(pr, form == DICT_KEYWORD ? " attributes {" : " {");
  print_dict_entries(pr, op->attrs, op->num_attrs, op, skip, form);
  puts_(pr, "}");
}

static bool all_types_equal(const kiln_op *op) {
  const kiln_type *t = op->num_results ? op->results[0].type : op->num_operands ? op->operands[0]->type : NULL;
  for (int32_t i = 0; i < op->num_operands; i++)
    if (!kiln_type_equal(op->operands[i]->type, t)) return false;
  for (int32_t i = 0; i < op->num_results; i++)
    if (!kiln_type_equal(op->results[i].type, t)) return false;
  return t != NULL;
}

static void print_function_type(printer *pr, const kiln_op *op) {
  puts_(pr, "(");
  for (int32_t i = 0; i < op->num_operands; i++) {
    if (i) puts_(pr, ", ");
    print_type(pr, op->operands[i]->type);
  }
  puts_(pr, ") -> ");
  puts_(pr, op->num_results == 1 && op->results[0].type->kind != KILN_TYPE_FUNCTION ? "" : "(");
  for (int32_t i = 0; i < op->num_results; i++) {
    if (i) puts_(pr, ", ");
    print_type(pr, op->results[i].type);
  }
  puts_(pr, op->num_results == 1 && op->results[0].type->kind != KILN_TYPE_FUNCTION ? "" : ")");
}

/* `: T` when every operand and the one result share T, else the function type. */
static void print_op_types(printer *pr, const kiln_op *op) {
  puts_(pr, " : ");
  bool special = op->kind == KILN_OP_TUPLE || op->kind == KILN_OP_COMPLEX || op->kind == KILN_OP_SELECT;
  if (op->num_results == 1 && !special && all_types_equal(op)) print_type(pr, op->results[0].type);
  else print_function_type(pr, op);
}

static void print_generic(printer *pr, const kiln_op *op) {
  putf(pr, "\"%s\"(", kiln_op_name(op->kind));
  print_operands(pr, op->operands, op->num_operands);
  puts_(pr, ")");
  if (op->num_regions) {
    puts_(pr, " (");
    for (int32_t i = 0; i < op->num_regions; i++) {
      if (i) puts_(pr, ", ");
      print_region(pr, &op->regions[i], false);
    }
    puts_(pr, ")");
  }
  print_attr_dict(pr, op, NULL, DICT_GENERIC);
  puts_(pr, " : ");
  print_function_type(pr, op);
}

/* ---- keyword attributes ---- */

static bool enum_is(const kiln_attr *a, const char *name) {
  return a && a->kind == KILN_ATTR_ENUM && a->enumv.dialect && !strcmp(a->enumv.dialect, "stablehlo") &&
         a->enumv.name && !strcmp(a->enumv.name, name) && !a->enumv.dotted && is_bare_name(a->enumv.value);
}

static bool int_list_ok(const kiln_attr *a) {
  return a && kiln_attr_count(a) >= 0 && !(a->kind == KILN_ATTR_INT) &&
         (a->kind != KILN_ATTR_DENSE || a->type->tensor.rank == 1);
}

static bool dot_dims_ok(const kiln_attr *a) {
  if (!a || a->kind != KILN_ATTR_STRUCT || strcmp(a->strct.name, "dot")) return false;
  static const char *const order[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                       "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
  /* written as batching pair then contracting pair, each pair complete */
  int32_t k = 0;
  for (int pair = 0; pair < 2; pair++) {
    if (k < a->strct.count && a->strct.fields[k].name && !strcmp(a->strct.fields[k].name, order[pair * 2])) {
      if (k + 1 >= a->strct.count || !a->strct.fields[k + 1].name ||
          strcmp(a->strct.fields[k + 1].name, order[pair * 2 + 1]) || !int_list_ok(a->strct.fields[k].value) ||
          !int_list_ok(a->strct.fields[k + 1].value))
        return false;
      k += 2;
    }
  }
  return k == a->strct.count;
}

static bool kw_ok(const kiln_op *op, const kiln_kw *kw) {
  const kiln_attr *a = kiln_op_attr(op, kw->attr);
  switch (kw->kind) {
    case KILN_KW_INT: return !a || (a->kind == KILN_ATTR_INT && a->type && a->type->kind == KILN_TYPE_SCALAR && a->type->elem == KILN_ELEM_SI64);
    case KILN_KW_I64S: return a ? int_list_ok(a) && !(a->type && a->type->kind == KILN_TYPE_SCALAR && a->type->elem == KILN_ELEM_I1) : true;
    case KILN_KW_ENUM: return !a || enum_is(a, kw->extra);
    case KILN_KW_PRECISION:
      if (!a) return true;
      if (a->kind != KILN_ATTR_ARRAY) return false;
      for (int32_t i = 0; i < a->array.count; i++)
        if (!enum_is(a->array.items[i], "precision")) return false;
      return true;
    case KILN_KW_FORMAT: {
      const kiln_attr *m = kiln_op_attr(op, "mantissa_bits");
      return a && m && a->kind == KILN_ATTR_INT && m->kind == KILN_ATTR_INT && !a->i.negative && !m->i.negative;
    }
    case KILN_KW_FLOAT: return !a || (a->kind == KILN_ATTR_FLOAT && a->type && a->type->elem == KILN_ELEM_F64);
    case KILN_KW_STRING: return !a || (a->kind == KILN_ATTR_STRING && !a->type);
    case KILN_KW_DOT_DIMS: return !a || dot_dims_ok(a);
    case KILN_KW_ALGORITHM: return !a || (a->kind == KILN_ATTR_STRUCT && !strcmp(a->strct.name, "dot_algorithm"));
  }
  return false;
}

static void print_keywords(printer *pr, const kiln_op *op, bool leading_comma) {
  bool first = true;
  for (const kiln_kw *kw = kiln_op_keywords(op->kind); kw->keyword; kw++) {
    const kiln_attr *a = kiln_op_attr(op, kw->attr);
    if (!a) continue;
    if (kw->kind == KILN_KW_DOT_DIMS) {
      const char *lhs = !strcmp(kw->extra, "batching") ? "lhs_batching_dimensions" : "lhs_contracting_dimensions";
      const char *rhs = !strcmp(kw->extra, "batching") ? "rhs_batching_dimensions" : "rhs_contracting_dimensions";
      if (!kiln_attr_get(a, lhs)) continue;
      puts_(pr, leading_comma || !first ? ", " : " ");
      putf(pr, "%s = ", kw->keyword);
      print_int_list(pr, kiln_attr_get(a, lhs));
      puts_(pr, " x ");
      print_int_list(pr, kiln_attr_get(a, rhs));
      first = false;
      continue;
    }
    puts_(pr, leading_comma || !first ? ", " : " ");
    putf(pr, "%s = ", kw->keyword);
    first = false;
    switch (kw->kind) {
      case KILN_KW_INT: putf(pr, a->i.negative ? "-%llu" : "%llu", (unsigned long long)a->i.magnitude); break;
      case KILN_KW_I64S: print_int_list(pr, a); break;
      case KILN_KW_ENUM: puts_(pr, a->enumv.value); break;
      case KILN_KW_PRECISION:
        puts_(pr, "[");
        for (int32_t i = 0; i < a->array.count; i++) {
          if (i) puts_(pr, ", ");
          puts_(pr, a->array.items[i]->enumv.value);
        }
        puts_(pr, "]");
        break;
      case KILN_KW_FORMAT:
        putf(pr, "e%llum%llu", (unsigned long long)a->i.magnitude,
             (unsigned long long)kiln_op_attr(op, "mantissa_bits")->i.magnitude);
        break;
      case KILN_KW_FLOAT: put_float(pr, a->f, KILN_ELEM_F64); break;
      case KILN_KW_STRING: print_string(pr, a->str.data, a->str.len); break;
      case KILN_KW_ALGORITHM:
        puts_(pr, "<");
        for (int32_t i = 0; i < a->strct.count; i++) {
          if (i) puts_(pr, ", ");
          if (a->strct.fields[i].name) putf(pr, "%s = ", a->strct.fields[i].name);
          print_attr(pr, a->strct.fields[i].value, true);
        }
        puts_(pr, ">");
        break;
      case KILN_KW_DOT_DIMS: break;
    }
  }
}

/* Attribute names a pretty form writes itself (so the trailing dictionary skips them). */
static int keyword_skips(const kiln_op *op, const char **skip, int n) {
  for (const kiln_kw *kw = kiln_op_keywords(op->kind); kw->keyword; kw++) {
    bool dup = false;
    for (int i = 0; i < n; i++) dup |= !strcmp(skip[i], kw->attr);
    if (!dup) skip[n++] = kw->attr;
    if (kw->kind == KILN_KW_FORMAT) skip[n++] = "mantissa_bits";
  }
  skip[n] = NULL;
  return n;
}

/* ---- families ---- */

static bool keywords_ok(const kiln_op *op) {
  for (const kiln_kw *kw = kiln_op_keywords(op->kind); kw->keyword; kw++)
    if (!kw_ok(op, kw)) return false;
  return true;
}

static bool types_form_ok(const kiln_op *op) {
  if (all_types_equal(op)) return true;
  if (!op->num_operands) return op->num_results == 0;
  if (op->num_results && op->num_results != op->num_operands) return false;
  for (int32_t i = 0; i < op->num_results; i++)
    if (!kiln_type_equal(op->results[i].type, op->operands[i]->type)) return false;
  return true;
}

static void print_types_form(printer *pr, const kiln_op *op) {
  const char *skip[16];
  keyword_skips(op, skip, 0);
  if (op->num_operands) puts_(pr, " ");
  print_operands(pr, op->operands, op->num_operands);
  print_keywords(pr, op, op->num_operands > 0);
  print_attr_dict(pr, op, skip, DICT_PRETTY);
  if (!op->num_operands && !op->num_results) return;
  puts_(pr, " : ");
  /* StableHLO writes one type for all when they agree; sdy.return, as MLIR's
   * `type($results)`, writes each */
  if (all_types_equal(op) && op->kind != KILN_OP_SDY_RETURN) {
    print_type(pr, op->num_operands ? op->operands[0]->type : op->results[0].type);
    return;
  }
  for (int32_t i = 0; i < op->num_operands; i++) {
    if (i) puts_(pr, ", ");
    print_type(pr, op->operands[i]->type);
  }
}

static bool reduce_applies(const kiln_op *op, kiln_op_kind *body_kind) {
  const kiln_block *b = kiln_op_block(op, 0);
  if (op->num_operands != 2 || !b || b->next || b->num_args != 2 || !b->first || !b->first->next ||
      b->first->next->next)
    return false;
  const kiln_op *bin = b->first, *ret = b->last;
  if (kiln_op_format(bin->kind) != KILN_FMT_OPS || bin->num_operands != 2 || bin->num_results != 1 ||
      bin->num_attrs || bin->num_regions || bin->operands[0] != &b->args[0] || bin->operands[1] != &b->args[1] ||
      ret->kind != KILN_OP_RETURN || ret->num_operands != 1 || ret->operands[0] != &bin->results[0] || ret->num_attrs)
    return false;
  const kiln_type *t = op->operands[1]->type;
  if (!kiln_type_is_tensor(t) || t->tensor.rank != 0 || t->tensor.bounds || t->tensor.encoding) return false;
  if (!kiln_type_equal(b->args[0].type, t) || !kiln_type_equal(b->args[1].type, t) ||
      !kiln_type_equal(bin->results[0].type, t))
    return false;
  *body_kind = bin->kind;
  return true;
}

/* A string attribute that can be written as a symbol @name: one without a NUL byte (the
 * parser refuses those in symbols, and C strings would cut them short). */
static bool symbol_name_ok(const kiln_attr *a) {
  return a && a->kind == KILN_ATTR_STRING && !a->type && strlen(a->str.data) == a->str.len;
}

/* ---- Shardy ops: each sdy attribute is written without its generic wrapper (ir/sdy.h) ---- */

static bool sdy_attr_ok(const kiln_op *op, const char *name, kiln_sdy_form form) {
  const char *text;
  size_t len;
  return kiln_sdy_pretty(kiln_op_attr(op, name), form, &text, &len);
}

static void print_sdy_attr(printer *pr, const kiln_op *op, const char *name, kiln_sdy_form form) {
  const char *text;
  size_t len;
  if (kiln_sdy_pretty(kiln_op_attr(op, name), form, &text, &len)) put(pr, text, len);
}

static bool sdy_pretty_ok(const kiln_op *op) {
  switch (op->kind) {
    case KILN_OP_SDY_MESH:
      return symbol_name_ok(kiln_op_attr(op, "sym_name")) && !op->num_operands && !op->num_results &&
             !op->num_regions && sdy_attr_ok(op, "mesh", KILN_SDY_MESH);
    case KILN_OP_SDY_SHARDING_CONSTRAINT:
      return op->num_operands == 1 && op->num_results == 1 && !op->num_regions &&
             kiln_type_equal(op->operands[0]->type, op->results[0].type) &&
             sdy_attr_ok(op, "sharding", KILN_SDY_SHARDING);
    case KILN_OP_SDY_MANUAL_COMPUTATION: {
      const kiln_block *b = kiln_op_block(op, 0);
      return op->num_regions == 1 && b && !b->next && sdy_attr_ok(op, "in_shardings", KILN_SDY_PER_VALUE) &&
             sdy_attr_ok(op, "out_shardings", KILN_SDY_PER_VALUE) &&
             sdy_attr_ok(op, "manual_axes", KILN_SDY_MANUAL_AXES);
    }
    default: return false;
  }
}

static void print_sdy_mesh(printer *pr, const kiln_op *op) {
  static const char *const skip[] = {"sym_name", "mesh", NULL};
  puts_(pr, " @");
  print_name(pr, kiln_op_attr(op, "sym_name")->str.data);
  puts_(pr, " = ");
  print_sdy_attr(pr, op, "mesh", KILN_SDY_MESH);
  print_attr_dict(pr, op, skip, DICT_PRETTY);
}

static void print_sdy_constraint(printer *pr, const kiln_op *op) {
  static const char *const skip[] = {"sharding", NULL};
  puts_(pr, " ");
  print_value(pr, op->operands[0]);
  puts_(pr, " ");
  print_sdy_attr(pr, op, "sharding", KILN_SDY_SHARDING);
  print_attr_dict(pr, op, skip, DICT_PRETTY);
  puts_(pr, " : ");
  print_type(pr, op->results[0].type);
}

static void print_sdy_manual(printer *pr, const kiln_op *op) {
  static const char *const skip[] = {"in_shardings", "out_shardings", "manual_axes", NULL};
  puts_(pr, "(");
  print_operands(pr, op->operands, op->num_operands);
  puts_(pr, ") in_shardings=");
  print_sdy_attr(pr, op, "in_shardings", KILN_SDY_PER_VALUE);
  puts_(pr, " out_shardings=");
  print_sdy_attr(pr, op, "out_shardings", KILN_SDY_PER_VALUE);
  puts_(pr, " manual_axes=");
  print_sdy_attr(pr, op, "manual_axes", KILN_SDY_MANUAL_AXES);
  puts_(pr, " ");
  print_block_args(pr, kiln_op_block(op, 0));
  puts_(pr, " ");
  print_region(pr, &op->regions[0], true);
  print_attr_dict(pr, op, skip, DICT_PRETTY);
  puts_(pr, " : ");
  print_function_type(pr, op);
}

static bool pretty_ok(const kiln_op *op) {
  switch (kiln_op_format(op->kind)) {
    case KILN_FMT_GENERIC:
    case KILN_FMT_MODULE:
    case KILN_FMT_FUNC: return false;
    case KILN_FMT_OPS:
      if (op->num_regions || !keywords_ok(op) || op->num_results < 1) return false;
      if (op->kind == KILN_OP_COMPLEX || op->kind == KILN_OP_TUPLE) return op->num_results == 1;
      return true;
    case KILN_FMT_TYPES:
      /* sdy.return writes its attributes before its operands, which this form does not */
      if (op->kind == KILN_OP_SDY_RETURN && op->num_attrs) return false;
      /* written as its bare name, the next op's result names would read as its operands */
      if (!op->num_operands && !op->num_results && op->next && op->next->num_results) return false;
      return !op->num_regions && keywords_ok(op) && types_form_ok(op);
    case KILN_FMT_CONST: {
      const kiln_attr *v = kiln_op_attr(op, "value");
      return v && v->type && !op->num_operands && op->num_results == 1 && !op->num_regions &&
             (v->kind == KILN_ATTR_DENSE || v->kind == KILN_ATTR_INT || v->kind == KILN_ATTR_FLOAT) &&
             kiln_type_equal(v->type, op->results[0].type);
    }
    case KILN_FMT_CHECK_CONST: {
      const kiln_attr *v = kiln_op_attr(op, "value");
      return v && v->type && op->num_operands == 1 && !op->num_results && !op->num_regions;
    }
    case KILN_FMT_COMPARE: {
      const kiln_attr *ct = kiln_op_attr(op, "compare_type");
      return op->num_operands == 2 && op->num_results == 1 && !op->num_regions &&
             enum_is(kiln_op_attr(op, "comparison_direction"), "comparison_direction") &&
             (!ct || enum_is(ct, "comparison_type"));
    }
    case KILN_FMT_SLICE: {
      const char *n[3] = {"start_indices", "limit_indices", "strides"};
      int64_t c = -2;
      for (int k = 0; k < 3; k++) {
        const kiln_attr *a = kiln_op_attr(op, n[k]);
        if (!a || !int_list_ok(a) || (c != -2 && kiln_attr_count(a) != c)) return false;
        c = kiln_attr_count(a);
      }
      return op->num_operands == 1 && op->num_results == 1 && !op->num_regions;
    }
    case KILN_FMT_GTE: {
      const kiln_attr *i = kiln_op_attr(op, "index");
      return i && i->kind == KILN_ATTR_INT && i->type && i->type->elem == KILN_ELEM_SI32 && op->num_operands == 1 &&
             op->num_results == 1 && !op->num_regions;
    }
    case KILN_FMT_CALL: {
      const kiln_attr *c = kiln_op_attr(op, op->kind == KILN_OP_CALL ? "callee" : "call_target_name");
      if (!c || op->num_regions) return false;
      if (op->kind == KILN_OP_CALL) return c->kind == KILN_ATTR_SYMBOL;
      return c->kind == KILN_ATTR_STRING && !c->type && is_bare_name(c->str.data) && strlen(c->str.data) == c->str.len;
    }
    case KILN_FMT_COMPOSITE: {
      const kiln_attr *n = kiln_op_attr(op, "name");
      return n && n->kind == KILN_ATTR_STRING && !n->type && !op->num_regions && op->num_results >= 1;
    }
    case KILN_FMT_REDUCE: {
      const kiln_attr *d = kiln_op_attr(op, "dimensions");
      const kiln_block *b = kiln_op_block(op, 0);
      int32_t n = op->num_operands / 2;
      if (!d || !int_list_ok(d) || op->num_regions != 1 || !b || b->next || op->num_operands % 2 || !n ||
          b->num_args != 2 * n || op->num_results < 1)
        return false;
      return true;
    }
    case KILN_FMT_WHILE: {
      const kiln_block *c = kiln_op_block(op, 0), *b = kiln_op_block(op, 1);
      if (op->num_regions != 2 || !c || !b || c->next || b->next || c->num_args != op->num_operands ||
          b->num_args != op->num_operands || op->num_results != op->num_operands)
        return false;
      for (int32_t i = 0; i < op->num_operands; i++)
        if (!kiln_type_equal(c->args[i].type, op->operands[i]->type) ||
            !kiln_type_equal(b->args[i].type, op->operands[i]->type) ||
            !kiln_type_equal(op->results[i].type, op->operands[i]->type))
          return false;
      return true;
    }
    case KILN_FMT_CONV: {
      static const char *const w[4] = {"window_strides", "lhs_dilation", "rhs_dilation", "window_reversal"};
      for (int k = 0; k < 4; k++) {
        const kiln_attr *a = kiln_op_attr(op, w[k]);
        if (a && (a->kind != KILN_ATTR_DENSE_ARRAY || !a->dense_array.ints)) return false;
      }
      const kiln_attr *r = kiln_op_attr(op, "window_reversal"), *pad = kiln_op_attr(op, "padding");
      if (r && r->type->elem != KILN_ELEM_I1) return false;
      if (pad && (pad->kind != KILN_ATTR_DENSE || pad->type->tensor.rank != 2 || pad->type->tensor.dims[1] != 2 ||
                  kiln_type_elem(pad->type) != KILN_ELEM_SI64 || kiln_attr_count(pad) < 0))
        return false;
      return op->num_operands == 2 && op->num_results == 1 && !op->num_regions &&
             conv_dims_printable(kiln_op_attr(op, "dimension_numbers"));
    }
    case KILN_FMT_CHLO: return !op->num_regions && op->num_results >= 1;
    case KILN_FMT_TOP_K: {
      const kiln_attr *k = kiln_op_attr(op, "k");
      return k && k->kind == KILN_ATTR_INT && op->num_operands == 1 && !op->num_regions;
    }
    case KILN_FMT_SCAN: {
      const kiln_attr *d = kiln_op_attr(op, "dimension"), *seg = kiln_op_attr(op, "operandSegmentSizes");
      int64_t a, b;
      return d && d->kind == KILN_ATTR_INT && seg && kiln_attr_count(seg) == 2 && kiln_attr_i64_at(seg, 0, &a) &&
             kiln_attr_i64_at(seg, 1, &b) && a + b == op->num_operands && op->num_regions == 1;
    }
    case KILN_FMT_SCF_FOR: {
      const kiln_block *b = kiln_op_block(op, 0);
      return op->num_operands >= 3 && op->num_regions == 1 && b && !b->next &&
             b->num_args == op->num_operands - 2 && op->num_results == op->num_operands - 3 && !op->num_attrs;
    }
    case KILN_FMT_TENSOR_INSERT:
      return op->num_operands >= 2 && op->num_results == 1 && !op->num_regions &&
             kiln_type_equal(op->results[0].type, op->operands[1]->type);
    case KILN_FMT_SDY_MESH:
    case KILN_FMT_SDY_CONSTRAINT:
    case KILN_FMT_SDY_MANUAL: return sdy_pretty_ok(op);
  }
  return false;
}

static void print_conv(printer *pr, const kiln_op *op) {
  static const char *const skip[] = {"dimension_numbers", "window_strides", "padding", "lhs_dilation",
                                     "rhs_dilation", "window_reversal", NULL};
  puts_(pr, "(");
  print_operands(pr, op->operands, 2);
  puts_(pr, ") dim_numbers = ");
  print_conv_dims(pr, kiln_op_attr(op, "dimension_numbers"));
  puts_(pr, ", window = {");
  bool first = true;
  static const char *const keys[5] = {"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"};
  static const char *const attrs[5] = {"window_strides", "padding", "lhs_dilation", "rhs_dilation", "window_reversal"};
  for (int k = 0; k < 5; k++) {
    const kiln_attr *a = kiln_op_attr(op, attrs[k]);
    if (!a) continue;
    putf(pr, "%s%s = ", first ? "" : ", ", keys[k]);
    first = false;
    if (k == 1) {
      puts_(pr, "[");
      int64_t lo, hi;
      for (int64_t i = 0; i < a->type->tensor.dims[0]; i++) {
        kiln_attr_i64_at(a, 2 * i, &lo);
        kiln_attr_i64_at(a, 2 * i + 1, &hi);
        putf(pr, "%s[%lld, %lld]", i ? ", " : "", (long long)lo, (long long)hi);
      }
      puts_(pr, "]");
    } else {
      print_int_list(pr, a);
    }
  }
  puts_(pr, "}");
  print_attr_dict(pr, op, skip, DICT_PRETTY);
  print_op_types(pr, op);
}

static void print_reduce(printer *pr, const kiln_op *op) {
  static const char *const skip[] = {"dimensions", NULL};
  int32_t n = op->num_operands / 2;
  for (int32_t i = 0; i < n; i++) {
    puts_(pr, i ? ", (" : "(");
    print_value(pr, op->operands[i]);
    puts_(pr, " init: ");
    print_value(pr, op->operands[n + i]);
    puts_(pr, ")");
  }
  kiln_op_kind body;
  bool applies = reduce_applies(op, &body);
  if (applies) putf(pr, " applies %s", kiln_op_name(body));
  puts_(pr, " across dimensions = ");
  print_int_list(pr, kiln_op_attr(op, "dimensions"));
  print_attr_dict(pr, op, skip, DICT_PRETTY);
  print_op_types(pr, op);
  if (applies) return;
  const kiln_block *b = kiln_op_block(op, 0);
  pr->indent++;
  newline(pr);
  puts_(pr, "reducer");
  for (int32_t i = 0; i < n; i++) {
    puts_(pr, "(");
    for (int k = 0; k < 2; k++) {
      const kiln_value *a = &b->args[k * n + i];
      if (k) puts_(pr, ", ");
      name_value(pr, a, true);
      print_value(pr, a);
      puts_(pr, ": ");
      print_type(pr, a->type);
    }
    puts_(pr, ") ");
  }
  print_region(pr, &op->regions[0], true);
  pr->indent--;
}

static void print_bindings(printer *pr, const kiln_block *b, kiln_value *const *init, int32_t first_arg, int32_t n) {
  puts_(pr, "(");
  for (int32_t i = 0; i < n; i++) {
    if (i) puts_(pr, ", ");
    name_value(pr, &b->args[first_arg + i], true);
    print_value(pr, &b->args[first_arg + i]);
    puts_(pr, " = ");
    print_value(pr, init[i]);
  }
  puts_(pr, ")");
}

static void print_while(printer *pr, const kiln_op *op) {
  const kiln_block *c = kiln_op_block(op, 0), *b = kiln_op_block(op, 1);
  print_bindings(pr, c, op->operands, 0, op->num_operands);
  /* the do-region shares the names: bind its arguments to the same numbers */
  for (int32_t i = 0; i < op->num_operands; i++) {
    value_slot *src = &pr->slots[slot_of(pr, &c->args[i])];
    int32_t id = src->id;
    name_value(pr, &b->args[i], true);
    pr->slots[slot_of(pr, &b->args[i])].id = id;
    pr->next_arg--;
  }
  if (op->num_operands) {
    puts_(pr, " : ");
    for (int32_t i = 0; i < op->num_operands; i++) {
      if (i) puts_(pr, ", ");
      print_type(pr, op->operands[i]->type);
    }
  }
  print_attr_dict(pr, op, NULL, DICT_KEYWORD);
  newline(pr);
  puts_(pr, "cond ");
  print_region(pr, &op->regions[0], true);
  puts_(pr, " do ");
  print_region(pr, &op->regions[1], true);
}

static void print_pretty(printer *pr, const kiln_op *op) {
  const char *skip[16] = {NULL};
  const kiln_fmt fmt = kiln_op_format(op->kind);
  const char *name = op->kind == KILN_OP_FUNC_RETURN ? "return" : op->kind == KILN_OP_CALL ? "call" : kiln_op_name(op->kind);
  puts_(pr, name);
  switch (fmt) {
    case KILN_FMT_OPS:
      keyword_skips(op, skip, 0);
      if (op->num_operands) puts_(pr, " ");
      print_operands(pr, op->operands, op->num_operands);
      print_keywords(pr, op, op->num_operands > 0);
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      print_op_types(pr, op);
      return;
    case KILN_FMT_TYPES: print_types_form(pr, op); return;
    case KILN_FMT_CONST:
      skip[0] = "value";
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      puts_(pr, " ");
      print_attr(pr, kiln_op_attr(op, "value"), false);
      return;
    case KILN_FMT_CHECK_CONST:
      skip[0] = "value";
      puts_(pr, " ");
      print_value(pr, op->operands[0]);
      puts_(pr, ", ");
      print_attr(pr, kiln_op_attr(op, "value"), false);
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      return;
    case KILN_FMT_COMPARE: {
      const kiln_attr *ct = kiln_op_attr(op, "compare_type");
      skip[0] = "comparison_direction", skip[1] = "compare_type";
      putf(pr, " %s, ", kiln_op_attr(op, "comparison_direction")->enumv.value);
      print_operands(pr, op->operands, 2);
      if (ct) putf(pr, ", %s", ct->enumv.value);
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      print_op_types(pr, op);
      return;
    }
    case KILN_FMT_SLICE: {
      const kiln_attr *s = kiln_op_attr(op, "start_indices"), *l = kiln_op_attr(op, "limit_indices"),
                      *t = kiln_op_attr(op, "strides");
      skip[0] = "start_indices", skip[1] = "limit_indices", skip[2] = "strides";
      puts_(pr, " ");
      print_value(pr, op->operands[0]);
      puts_(pr, " [");
      for (int64_t i = 0; i < kiln_attr_count(s); i++) {
        int64_t a, b, c;
        kiln_attr_i64_at(s, i, &a);
        kiln_attr_i64_at(l, i, &b);
        kiln_attr_i64_at(t, i, &c);
        putf(pr, "%s%lld:%lld", i ? ", " : "", (long long)a, (long long)b);
        if (c != 1) putf(pr, ":%lld", (long long)c);
      }
      puts_(pr, "]");
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      print_op_types(pr, op);
      return;
    }
    case KILN_FMT_GTE:
      skip[0] = "index";
      puts_(pr, " ");
      print_value(pr, op->operands[0]);
      putf(pr, "[%lld]", (long long)kiln_attr_int(kiln_op_attr(op, "index")));
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      print_op_types(pr, op);
      return;
    case KILN_FMT_CALL: {
      const kiln_attr *c = kiln_op_attr(op, op->kind == KILN_OP_CALL ? "callee" : "call_target_name");
      skip[0] = op->kind == KILN_OP_CALL ? "callee" : "call_target_name";
      puts_(pr, " ");
      if (op->kind == KILN_OP_CALL) print_attr(pr, c, false);
      else putf(pr, "@%s", c->str.data);
      puts_(pr, "(");
      print_operands(pr, op->operands, op->num_operands);
      puts_(pr, ")");
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      puts_(pr, " : ");
      print_function_type(pr, op);
      return;
    }
    case KILN_FMT_COMPOSITE: {
      const kiln_attr *n = kiln_op_attr(op, "name");
      skip[0] = "name";
      puts_(pr, " ");
      print_string(pr, n->str.data, n->str.len);
      if (op->num_operands) puts_(pr, " ");
      print_operands(pr, op->operands, op->num_operands);
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      print_op_types(pr, op);
      return;
    }
    case KILN_FMT_REDUCE: print_reduce(pr, op); return;
    case KILN_FMT_WHILE: print_while(pr, op); return;
    case KILN_FMT_CONV: print_conv(pr, op); return;
    case KILN_FMT_TOP_K:
    case KILN_FMT_CHLO:
      if (fmt == KILN_FMT_TOP_K) {
        skip[0] = "k";
        puts_(pr, "(");
        print_value(pr, op->operands[0]);
        putf(pr, ", k = %lld)", (long long)kiln_attr_int(kiln_op_attr(op, "k")));
      } else {
        if (op->num_operands) puts_(pr, " ");
        print_operands(pr, op->operands, op->num_operands);
      }
      print_attr_dict(pr, op, skip, DICT_PRETTY);
      puts_(pr, " : ");
      for (int32_t i = 0; i < op->num_operands; i++) {
        if (i) puts_(pr, ", ");
        print_type(pr, op->operands[i]->type);
      }
      puts_(pr, " -> ");
      {
        const kiln_type *rs[2];
        bool paren = op->num_results != 1;
        if (paren) puts_(pr, "(");
        for (int32_t i = 0; i < op->num_results; i++) {
          if (i) puts_(pr, ", ");
          print_type(pr, op->results[i].type);
        }
        if (paren) puts_(pr, ")");
        (void)rs;
      }
      return;
    case KILN_FMT_SCAN: {
      int64_t ni;
      kiln_attr_i64_at(kiln_op_attr(op, "operandSegmentSizes"), 0, &ni);
      skip[0] = "dimension", skip[1] = "operandSegmentSizes";
      puts_(pr, "(");
      print_operands(pr, op->operands, (int32_t)ni);
      puts_(pr, ") inits(");
      print_operands(pr, op->operands + ni, op->num_operands - (int32_t)ni);
      putf(pr, ") dimension=%lld", (long long)kiln_attr_int(kiln_op_attr(op, "dimension")));
      print_attr_dict(pr, op, skip, DICT_KEYWORD);
      puts_(pr, " ");
      print_region(pr, &op->regions[0], false);
      print_op_types(pr, op);
      return;
    }
    case KILN_FMT_SCF_FOR: {
      const kiln_block *b = kiln_op_block(op, 0);
      name_value(pr, &b->args[0], true);
      puts_(pr, " ");
      print_value(pr, &b->args[0]);
      puts_(pr, " = ");
      print_value(pr, op->operands[0]);
      puts_(pr, " to ");
      print_value(pr, op->operands[1]);
      puts_(pr, " step ");
      print_value(pr, op->operands[2]);
      if (op->num_operands > 3) {
        puts_(pr, " iter_args");
        print_bindings(pr, b, op->operands + 3, 1, op->num_operands - 3);
        puts_(pr, " -> (");
        for (int32_t i = 0; i < op->num_results; i++) {
          if (i) puts_(pr, ", ");
          print_type(pr, op->results[i].type);
        }
        puts_(pr, ")");
      }
      puts_(pr, " ");
      print_region(pr, &op->regions[0], true);
      return;
    }
    case KILN_FMT_TENSOR_INSERT:
      puts_(pr, " ");
      print_value(pr, op->operands[0]);
      puts_(pr, " into ");
      print_value(pr, op->operands[1]);
      puts_(pr, "[");
      print_operands(pr, op->operands + 2, op->num_operands - 2);
      puts_(pr, "]");
      print_attr_dict(pr, op, NULL, DICT_PRETTY);
      puts_(pr, " : ");
      print_type(pr, op->results[0].type);
      return;
    case KILN_FMT_SDY_MESH: print_sdy_mesh(pr, op); return;
    case KILN_FMT_SDY_CONSTRAINT: print_sdy_constraint(pr, op); return;
    case KILN_FMT_SDY_MANUAL: print_sdy_manual(pr, op); return;
    case KILN_FMT_GENERIC:
    case KILN_FMT_MODULE:
    case KILN_FMT_FUNC: return;
  }
}

static void print_func(printer *pr, const kiln_op *op) {
  static const char *const skip[] = {"sym_name", "sym_visibility", "function_type", "arg_attrs", "res_attrs", NULL};
  const kiln_attr *vis = kiln_op_attr(op, "sym_visibility"), *aa = kiln_op_attr(op, "arg_attrs"),
                  *ra = kiln_op_attr(op, "res_attrs");
  const kiln_type *ft = kiln_func_type(op);
  const kiln_block *body = kiln_op_block(op, 0);
  pr->next_arg = pr->next_result = 0;
  puts_(pr, "func.func ");
  if (vis) putf(pr, "%s ", vis->str.data);
  const char *name = kiln_func_name(op);
  puts_(pr, "@");
  if (is_bare_name(name)) puts_(pr, name);
  else print_string(pr, name, strlen(name));
  puts_(pr, "(");
  for (int32_t i = 0; i < ft->func.num_inputs; i++) {
    if (i) puts_(pr, ", ");
    if (body) {
      name_value(pr, &body->args[i], true);
      print_value(pr, &body->args[i]);
      puts_(pr, ": ");
    }
    print_type(pr, ft->func.inputs[i]);
    if (aa && i < aa->array.count && aa->array.items[i]->dict.count) {
      puts_(pr, " ");
      print_attr(pr, aa->array.items[i], false);
    }
  }
  puts_(pr, ")");
  if (ft->func.num_results) {
    bool any = false;
    for (int32_t i = 0; ra && i < ra->array.count; i++) any |= ra->array.items[i]->dict.count > 0;
    bool paren = any || ft->func.num_results != 1 || ft->func.results[0]->kind == KILN_TYPE_FUNCTION;
    puts_(pr, paren ? " -> (" : " -> ");
    for (int32_t i = 0; i < ft->func.num_results; i++) {
      if (i) puts_(pr, ", ");
      print_type(pr, ft->func.results[i]);
      if (ra && i < ra->array.count && ra->array.items[i]->dict.count) {
        puts_(pr, " ");
        print_attr(pr, ra->array.items[i], false);
      }
    }
    if (paren) puts_(pr, ")");
  }
  print_attr_dict(pr, op, skip, DICT_KEYWORD);
  if (body) {
    puts_(pr, " ");
    print_region(pr, &op->regions[0], true);
  }
}

static bool func_printable(const kiln_op *op) {
  const kiln_type *ft = kiln_func_type(op);
  const kiln_attr *n = kiln_op_attr(op, "sym_name"), *v = kiln_op_attr(op, "sym_visibility");
  const kiln_attr *aa = kiln_op_attr(op, "arg_attrs"), *ra = kiln_op_attr(op, "res_attrs");
  const kiln_block *body = kiln_op_block(op, 0);
  if (!ft || ft->kind != KILN_TYPE_FUNCTION || !symbol_name_ok(n) || op->num_regions != 1 ||
      op->num_operands || op->num_results)
    return false;
  /* the parser takes only these three words before the name */
  if (v && (!symbol_name_ok(v) ||
            (strcmp(v->str.data, "private") && strcmp(v->str.data, "public") && strcmp(v->str.data, "nested"))))
    return false;
  if (body && (body->num_args != ft->func.num_inputs || body->next)) return false;
  for (int32_t i = 0; body && i < body->num_args; i++)
    if (!kiln_type_equal(body->args[i].type, ft->func.inputs[i])) return false;
  const kiln_attr *lists[2] = {aa, ra};
  int32_t counts[2] = {ft->func.num_inputs, ft->func.num_results};
  for (int k = 0; k < 2; k++) {
    const kiln_attr *l = lists[k];
    if (!l) continue;
    if (l->kind != KILN_ATTR_ARRAY || l->array.count != counts[k]) return false;
    bool any = false;
    for (int32_t i = 0; i < l->array.count; i++) {
      if (l->array.items[i]->kind != KILN_ATTR_DICT) return false;
      any |= l->array.items[i]->dict.count > 0;
    }
    if (!any) return false;
  }
  return true;
}

static void print_module(printer *pr, const kiln_op *op) {
  static const char *const skip[] = {"sym_name", NULL};
  const kiln_attr *n = kiln_op_attr(op, "sym_name");
  puts_(pr, "module");
  if (n && n->kind == KILN_ATTR_STRING) {
    puts_(pr, " @");
    if (is_bare_name(n->str.data)) puts_(pr, n->str.data);
    else print_string(pr, n->str.data, n->str.len);
  }
  print_attr_dict(pr, op, skip, DICT_KEYWORD);
  puts_(pr, " ");
  print_region(pr, &op->regions[0], false);
}

static void print_op(printer *pr, const kiln_op *op) {
  if (pr->out.failed) return;
  if (op->num_results) {
    name_value(pr, &op->results[0], false);
    print_value_name(pr, &op->results[0]);
    if (op->num_results > 1) putf(pr, ":%d", (int)op->num_results);
    puts_(pr, " = ");
  }
  kiln_fmt fmt = kiln_op_format(op->kind);
  const kiln_attr *sym = kiln_op_attr(op, "sym_name");
  bool named_module = op->kind == KILN_OP_MODULE && op->num_regions == 1 && kiln_op_block(op, 0) && !op->num_operands &&
                      !op->num_results && (!sym || symbol_name_ok(sym));
  if (fmt == KILN_FMT_MODULE && named_module) print_module(pr, op);
  else if (fmt == KILN_FMT_FUNC && func_printable(op)) print_func(pr, op);
  else if (pretty_ok(op)) print_pretty(pr, op);
  else print_generic(pr, op);
}

kiln_status kiln_print_module(const kiln_module *m, char **out_text, size_t *out_len) {
  printer pr = {0};
  print_op(&pr, m->op);
  puts_(&pr, "\n");
  free(pr.slots);
  if (pr.out.failed) {
    free(pr.out.data);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory while printing");
  }
  *out_text = pr.out.data;
  if (out_len) *out_len = pr.out.len;
  return NULL;
}
