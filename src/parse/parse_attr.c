/* Attribute parsing: scalars, strings, arrays, dictionaries, dense elements, dense
 * arrays, symbol references and the StableHLO/CHLO structured attributes. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/canonical.h"
#include "parse/parser.h"

bool kp_parse_opaque_text(kiln_parser *p, const char **out);

kiln_attr *kp_new_attr(kiln_parser *p, kiln_attr_kind kind) {
  kiln_attr *a = kiln_attr_new(p->m, kind);
  if (!a) kp_oom(p);
  return a;
}

const kiln_attr *kp_enum_attr(kiln_parser *p, const char *dialect, const char *name, const char *value, size_t len) {
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_ENUM);
  if (!a || !(a->enumv.value = kp_strdup(p, value, len))) return NULL;
  a->enumv.dialect = dialect;
  a->enumv.name = name;
  return a;
}

/* Decodes the n bytes at t (between the quotes of a string at source offset at - 1; MLIR
 * escapes: \n \t \" \\ \XX). */
static bool decode_escapes(kiln_parser *p, const char *t, size_t n, size_t at, const char **out, size_t *out_len) {
  size_t o = 0;
  char *buf = kp_alloc(p, n + 1, 1);
  if (!buf) return false;
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    if (c != '\\') {
      buf[o++] = c;
      continue;
    }
    char e = t[++i];
    if (e == 'n') buf[o++] = '\n';
    else if (e == 't') buf[o++] = '\t';
    else if (e == '"' || e == '\\') buf[o++] = e;
    else if (i + 1 < n && isxdigit((unsigned char)e) && isxdigit((unsigned char)t[i + 1])) {
      char hex[3] = {e, t[i + 1], 0};
      buf[o++] = (char)strtol(hex, NULL, 16);
      i++;
    } else {
      return kp_fail_at(p, at + i, "unknown escape sequence in string");
    }
  }
  buf[o] = 0;
  *out = buf;
  *out_len = o;
  return true;
}

/* Decodes the current STRING token and moves past it. */
static bool decode_string(kiln_parser *p, const char **out, size_t *out_len) {
  if (!decode_escapes(p, p->tok.text + 1, p->tok.len - 2, p->tok.offset + 1, out, out_len)) return false;
  kp_next(p);
  return true;
}

static bool append_chars(kiln_parser *p, char **buf, int32_t *n, int32_t *cap, const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) {
    char *c = kp_push(p, (void **)buf, n, cap, 1);
    if (!c) return false;
    *c = s[i];
  }
  return true;
}

/* The name of the symbol token at p (@name or @"quoted", escapes decoded), in the
 * parser's arena; len excludes the terminator, which decode_escapes adds. */
static bool decode_symbol(kiln_parser *p, const char **out, size_t *len) {
  const kiln_tok *t = &p->tok;
  if (t->len >= 3 && t->text[1] == '"') return decode_escapes(p, t->text + 2, t->len - 3, t->offset + 2, out, len);
  *len = t->len - 1;
  return (*out = kp_strdup(p, t->text + 1, t->len - 1)) != NULL;
}

static bool parse_optional_type(kiln_parser *p, const kiln_type **out) {
  *out = NULL;
  if (!kp_is(p, ':')) return true;
  kp_next(p);
  return kp_parse_type(p, out);
}

/* ------------------------------------------------------------------ numbers */

typedef struct lit {
  enum { LIT_INT, LIT_FLOAT, LIT_BOOL, LIT_COMPLEX } kind;
  bool neg, hex; /* COMPLEX: hex says the real part is the bits in mag */
  uint64_t mag;
  double f, im;
  bool im_hex; /* COMPLEX: the imaginary part is the bits in im_mag */
  uint64_t im_mag;
  size_t offset;
} lit;

static bool parse_number(kiln_parser *p, lit *out) {
  memset(out, 0, sizeof *out);
  out->offset = p->tok.offset;
  out->neg = kp_accept(p, '-');
  if (p->tok.kind == KILN_TOK_FLOAT) {
    char buf[128];
    size_t n = p->tok.len < sizeof buf - 1 ? p->tok.len : sizeof buf - 1;
    memcpy(buf, p->tok.text, n);
    buf[n] = 0;
    out->kind = LIT_FLOAT;
    out->f = strtod(buf, NULL);
    if (out->neg) out->f = -out->f;
    kp_next(p);
    return true;
  }
  if (p->tok.kind == KILN_TOK_INT) {
    out->kind = LIT_INT;
    out->hex = p->tok.len > 2 && p->tok.text[1] == 'x';
    return kp_parse_u64(p, &out->mag);
  }
  if (!out->neg && (kp_is_ident(p, "true") || kp_is_ident(p, "false"))) {
    out->kind = LIT_BOOL;
    out->mag = kp_is_ident(p, "true");
    kp_next(p);
    return true;
  }
  if (!out->neg && (kp_is_ident(p, "inf") || kp_is_ident(p, "nan"))) {
    out->kind = LIT_FLOAT;
    out->f = kp_is_ident(p, "inf") ? INFINITY : NAN;
    kp_next(p);
    return true;
  }
  return kp_fail(p, "expected a number");
}

static double lit_double(const lit *l) {
  if (l->kind == LIT_FLOAT) return l->f;
  double v = (double)l->mag;
  return l->neg ? -v : v;
}

/* Stores literal l as one element of type elem (a SCALAR or QUANT element) at dst. */
static bool store_elem(kiln_parser *p, const lit *l, const kiln_type *elem, uint8_t *dst) {
  kiln_elem e = elem->kind == KILN_TYPE_QUANT ? elem->quant.storage : elem->elem;
  size_t bytes = kiln_elem_storage_bytes(e);
  int bits = kiln_elem_bits(e);
  kiln_elem_class cls = kiln_elem_class_of(e);
  if (cls == KILN_ELEM_CLASS_C) {
    kiln_elem part = kiln_elem_complex_part(e);
    size_t pb = bytes / 2;
    if (l->kind != LIT_COMPLEX) return kp_fail_at(p, l->offset, "expected a complex value (re, im) for %s", kiln_elem_name(e));
    uint64_t re = kiln_elem_float_to_bits(part, l->f), im = kiln_elem_float_to_bits(part, l->im);
    int pbits = kiln_elem_bits(part);
    if ((l->hex && pbits < 64 && l->mag >> pbits) || (l->im_hex && pbits < 64 && l->im_mag >> pbits))
      return kp_fail_at(p, l->offset, "hexadecimal float literal does not fit in %s", kiln_elem_name(part));
    if (l->hex) re = l->mag;
    if (l->im_hex) im = l->im_mag;
    memcpy(dst, &re, pb);
    memcpy(dst + pb, &im, pb);
    return true;
  }
  if (l->kind == LIT_COMPLEX) return kp_fail_at(p, l->offset, "complex value for non-complex type %s", kiln_elem_name(e));
  uint64_t u;
  if (cls == KILN_ELEM_CLASS_F) {
    if (l->kind == LIT_BOOL) return kp_fail_at(p, l->offset, "boolean value for float type %s", kiln_elem_name(e));
    if (l->hex) {
      if (l->neg || (bits < 64 && l->mag >> (bytes * 8 > (size_t)bits ? (size_t)bits : bytes * 8)))
        return kp_fail_at(p, l->offset, "hexadecimal float literal does not fit in %s", kiln_elem_name(e));
      u = l->mag;
    } else {
      u = kiln_elem_float_to_bits(e, lit_double(l));
    }
  } else {
    if (l->kind == LIT_FLOAT) return kp_fail_at(p, l->offset, "floating-point value for integer type %s", kiln_elem_name(e));
    if (l->kind == LIT_BOOL && e != KILN_ELEM_I1) return kp_fail_at(p, l->offset, "boolean value for integer type %s", kiln_elem_name(e));
    uint64_t limit = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    if (cls == KILN_ELEM_CLASS_U && l->neg && l->mag)
      return kp_fail_at(p, l->offset, "negative value for unsigned type %s", kiln_elem_name(e));
    if (l->neg ? (bits < 64 && l->mag > ((uint64_t)1 << (bits - 1))) || (bits == 64 && l->mag > ((uint64_t)1 << 63))
               : l->mag > limit)
      return kp_fail_at(p, l->offset, "integer value does not fit in %s", kiln_elem_name(e));
    u = l->neg ? (uint64_t)0 - l->mag : l->mag;
    if (bits < 64) {
      u &= limit;
      if ((cls == KILN_ELEM_CLASS_I || cls == KILN_ELEM_CLASS_X) && (u >> (bits - 1)) & 1) u |= ~limit;
    }
    if (elem->kind == KILN_TYPE_QUANT) {
      int64_t v = (int64_t)u;
      if (cls == KILN_ELEM_CLASS_U) v = (int64_t)(u & limit);
      if (v < elem->quant.storage_min || v > elem->quant.storage_max)
        return kp_fail_at(p, l->offset, "value is outside the quantized storage range");
    }
  }
  memcpy(dst, &u, bytes);
  return true;
}

/* ------------------------------------------------------------------ dense elements */

typedef struct lit_tree {
  lit *items;
  int32_t count, cap;
  int64_t dims[KILN_PARSE_MAX_DEPTH];
  bool seen[KILN_PARSE_MAX_DEPTH];
  int scalar_depth; /* depth at which scalars appear, -1 until the first */
} lit_tree;

static bool parse_lit_scalar(kiln_parser *p, lit *l) {
  if (kp_is(p, '(')) {
    size_t at = p->tok.offset;
    kp_next(p);
    lit re, im;
    if (!parse_number(p, &re) || !kp_expect(p, ',', "between the parts of a complex value") || !parse_number(p, &im) ||
        !kp_expect(p, ')', "to close a complex value"))
      return false;
    if ((re.hex && re.neg) || (im.hex && im.neg))
      return kp_fail_at(p, re.hex && re.neg ? re.offset : im.offset, "a hexadecimal float literal cannot be negative");
    memset(l, 0, sizeof *l);
    l->kind = LIT_COMPLEX;
    l->f = lit_double(&re);
    l->im = lit_double(&im);
    l->hex = re.hex, l->mag = re.mag; /* hex parts are bit patterns, like hex floats */
    l->im_hex = im.hex, l->im_mag = im.mag;
    l->offset = at;
    return true;
  }
  return parse_number(p, l);
}

static bool parse_lit_list(kiln_parser *p, lit_tree *t, int depth) {
  if (!kp_is(p, '[')) {
    if (t->scalar_depth >= 0 && t->scalar_depth != depth)
      return kp_fail(p, "dense literal mixes nesting levels");
    t->scalar_depth = depth;
    lit *l = kp_push(p, (void **)&t->items, &t->count, &t->cap, sizeof *l);
    return l && parse_lit_scalar(p, l);
  }
  if (!kp_enter(p)) return false;
  if (depth >= KILN_PARSE_MAX_DEPTH - 1) return kp_fail(p, "dense literal nested too deeply");
  size_t at = p->tok.offset;
  kp_next(p);
  int64_t n = 0;
  if (!kp_is(p, ']')) {
    do {
      if (!parse_lit_list(p, t, depth + 1)) return false;
      n++;
    } while (kp_accept(p, ','));
  } else if (t->scalar_depth >= 0 && t->scalar_depth <= depth) {
    return kp_fail(p, "dense literal mixes nesting levels");
  }
  if (!kp_expect(p, ']', "to close a dense literal list")) return false;
  if (t->seen[depth] && t->dims[depth] != n)
    return kp_fail_at(p, at, "dense literal lists at the same level have different lengths (%lld and %lld)",
                      (long long)t->dims[depth], (long long)n);
  t->seen[depth] = true;
  t->dims[depth] = n;
  kp_leave(p);
  return true;
}

static int hexval(int c) {
  return c <= '9' ? c - '0' : (c | 32) - 'a' + 10;
}

bool kp_parse_dense(kiln_parser *p, const kiln_type *type, const kiln_attr **out) {
  /* the current token is '<' after "dense" */
  if (!kp_expect(p, '<', "after 'dense'")) return false;
  size_t body_at = p->tok.offset;
  const char *hex = NULL;
  size_t hex_len = 0;
  lit_tree *tree = calloc(1, sizeof *tree);
  if (!tree) return kp_oom(p);
  tree->scalar_depth = -1;
  bool ok = true, empty = false;
  if (p->tok.kind == KILN_TOK_STRING) {
    hex = p->tok.text + 1;
    hex_len = p->tok.len - 2;
    if (hex_len < 2 || hex[0] != '0' || hex[1] != 'x' || hex_len % 2)
      ok = kp_fail(p, "dense string payloads must be hexadecimal \"0x...\" with whole bytes");
    for (size_t i = 2; ok && i < hex_len; i++)
      if (!isxdigit((unsigned char)hex[i])) ok = kp_fail_at(p, p->tok.offset + 1 + i, "invalid hexadecimal digit");
    kp_next(p);
  } else if (kp_is(p, '>')) {
    empty = true;
  } else {
    ok = parse_lit_list(p, tree, 0);
  }
  ok = ok && kp_expect(p, '>', "to close dense<...>");
  size_t type_at = p->tok.offset;
  if (ok && !type) ok = kp_expect(p, ':', "and a type after dense<...>") && kp_parse_type(p, &type);
  kiln_attr *a = NULL;
  if (ok && !kiln_type_is_tensor(type)) ok = kp_fail_at(p, type_at, "dense elements need a tensor type");
  if (ok && type->tensor.num_elements < 0) ok = kp_fail_at(p, type_at, "dense elements need a static shape");
  if (ok && !(a = kp_new_attr(p, KILN_ATTR_DENSE))) ok = false;
  if (ok) {
    a->type = type;
    const kiln_type *elem = type->tensor.element;
    size_t bytes = kiln_elem_storage_bytes(kiln_type_elem(type));
    int64_t count = type->tensor.num_elements;
    if (hex) {
      size_t nb = (hex_len - 2) / 2, want;
      if (!kiln_mul_size((size_t)count, bytes, &want)) want = SIZE_MAX;
      if (nb != want && !(nb == bytes && count > 0))
        ok = kp_fail_at(p, body_at, "hexadecimal payload has %zu bytes; %s needs %zu", nb, "the type", want);
      else if ((a->dense.data = kp_alloc(p, nb, 1))) {
        a->dense.splat = nb != want || count == 1;
        a->dense.nbytes = nb;
        for (size_t i = 0; i < nb; i++)
          a->dense.data[i] = (uint8_t)(hexval(hex[2 + 2 * i]) << 4 | hexval(hex[3 + 2 * i]));
        /* Sub-byte integers (i4, ui2, ...) use the low bits of their byte: store them the
         * way literals are stored (sign-extended or zero-extended). */
        kiln_elem e = kiln_type_elem(type);
        kiln_elem_class cls = kiln_elem_class_of(e);
        int bits = kiln_elem_bits(e);
        if ((cls == KILN_ELEM_CLASS_I || cls == KILN_ELEM_CLASS_U) && bits > 0 && (size_t)bits < bytes * 8 && bytes <= 8) {
          uint64_t limit = ((uint64_t)1 << bits) - 1;
          for (size_t i = 0; i + bytes <= nb; i += bytes) {
            uint64_t u = 0;
            memcpy(&u, a->dense.data + i, bytes);
            u &= limit;
            if (cls == KILN_ELEM_CLASS_I && (u >> (bits - 1)) & 1) u |= ~limit;
            memcpy(a->dense.data + i, &u, bytes);
          }
        }
      } else {
        ok = false;
      }
    } else if (empty || (tree->count == 0 && tree->scalar_depth < 0)) {
      if (count != 0) ok = kp_fail_at(p, body_at, "empty dense literal for a type with %lld elements", (long long)count);
      a->dense.data = NULL;
    } else if (tree->scalar_depth == 0) {
      a->dense.splat = true;
      a->dense.nbytes = bytes;
      ok = (a->dense.data = kp_alloc(p, 1, bytes)) && store_elem(p, &tree->items[0], elem, a->dense.data);
    } else {
      int rank = tree->scalar_depth;
      bool match = rank == type->tensor.rank;
      for (int d = 0; match && d < rank; d++) match = tree->dims[d] == type->tensor.dims[d];
      if (!match) {
        char shape[128] = "";
        for (int d = 0, o = 0; d < rank && o < 100; d++)
          o += snprintf(shape + o, sizeof shape - (size_t)o, "%s%lld", d ? "x" : "", (long long)tree->dims[d]);
        ok = kp_fail_at(p, body_at, "dense literal has shape [%s], which does not match its type", shape);
      } else {
        a->dense.nbytes = (size_t)count * bytes;
        ok = (a->dense.data = kp_alloc(p, (size_t)count, bytes)) != NULL;
        for (int64_t i = 0; ok && i < count; i++) ok = store_elem(p, &tree->items[i], elem, a->dense.data + (size_t)i * bytes);
      }
    }
  }
  free(tree);
  *out = a;
  return ok;
}

/* ------------------------------------------------------------------ arrays and dicts */

static bool parse_attr_inner(kiln_parser *p, const kiln_attr **out, bool keywords);

static bool parse_array(kiln_parser *p, const kiln_attr **out, bool keywords) {
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_ARRAY);
  if (!a) return false;
  kp_next(p); /* [ */
  int32_t cap = 0;
  if (!kp_is(p, ']')) {
    do {
      const kiln_attr **slot = kp_push(p, (void **)&a->array.items, &a->array.count, &cap, sizeof *slot);
      if (!slot || !parse_attr_inner(p, slot, keywords)) return false;
    } while (kp_accept(p, ','));
  }
  *out = a;
  return kp_expect(p, ']', "to close an array");
}

bool kp_parse_attr_dict(kiln_parser *p, kiln_named_attr **out, int32_t *count) {
  if (!kp_expect(p, '{', "to open an attribute dictionary") || !kp_enter(p)) return false;
  int32_t cap = 0;
  *out = NULL;
  *count = 0;
  if (!kp_is(p, '}')) {
    do {
      const char *name;
      size_t len;
      if (p->tok.kind == KILN_TOK_STRING) {
        size_t at = p->tok.offset;
        if (!decode_string(p, &name, &len)) return false;
        if (strlen(name) != len) return kp_fail_at(p, at, "an attribute name cannot hold a NUL byte");
      } else if (p->tok.kind == KILN_TOK_IDENT) {
        if (!(name = kp_strdup(p, p->tok.text, p->tok.len))) return false;
        kp_next(p);
      } else {
        return kp_fail(p, "expected an attribute name");
      }
      for (int32_t i = 0; i < *count; i++)
        if (!strcmp((*out)[i].name, name)) return kp_fail(p, "attribute '%s' is given twice", name);
      kiln_named_attr *slot = kp_push(p, (void **)out, count, &cap, sizeof *slot);
      if (!slot) return false;
      slot->name = name;
      if (kp_accept(p, '=')) {
        if (!kp_parse_attr(p, &slot->value)) return false;
      } else if (!(slot->value = kp_new_attr(p, KILN_ATTR_UNIT))) {
        return false;
      }
    } while (kp_accept(p, ','));
  }
  kp_leave(p);
  return kp_expect(p, '}', "to close an attribute dictionary");
}

static bool parse_dense_array(kiln_parser *p, const kiln_attr **out) {
  /* array<i64: 1, 2> | array<i64> */
  if (!kp_expect(p, '<', "after 'array'")) return false;
  const kiln_type *t;
  size_t at = p->tok.offset;
  if (!kp_parse_type(p, &t)) return false;
  if (t->kind != KILN_TYPE_SCALAR || kiln_elem_is_complex(t->elem))
    return kp_fail_at(p, at, "array<...> elements must be integers or floats");
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_DENSE_ARRAY);
  if (!a) return false;
  a->type = t;
  bool is_float = kiln_elem_is_float(t->elem);
  int32_t n = 0, cap = 0;
  void *vals = NULL;
  if (kp_accept(p, ':')) {
    do {
      lit l;
      if (!parse_number(p, &l)) return false;
      if (is_float) {
        double *d = kp_push(p, &vals, &n, &cap, sizeof *d);
        if (!d) return false;
        *d = l.hex ? kiln_elem_float_from_bits(t->elem, l.mag) : lit_double(&l);
      } else {
        if (l.kind == LIT_FLOAT) return kp_fail_at(p, l.offset, "floating-point value in an integer array");
        uint8_t tmp[8];
        if (!store_elem(p, &l, t, tmp)) return false;
        int64_t *v = kp_push(p, &vals, &n, &cap, sizeof *v);
        if (!v) return false;
        *v = l.neg ? (int64_t)(0 - l.mag) : (int64_t)l.mag;
      }
    } while (kp_accept(p, ','));
  }
  a->dense_array.count = n;
  if (is_float) a->dense_array.floats = vals ? vals : kp_alloc(p, 1, sizeof(double));
  else a->dense_array.ints = vals ? vals : kp_alloc(p, 1, sizeof(int64_t));
  *out = a;
  return kp_expect(p, '>', "to close array<...>");
}

/* ------------------------------------------------------------------ structured attributes */

/* Turns an ARRAY of INT into array<i64: ...> so that integer lists have one form. */
static const kiln_attr *normalize_list(kiln_parser *p, const kiln_attr *a) {
  if (a->kind != KILN_ATTR_ARRAY) return a;
  for (int32_t i = 0; i < a->array.count; i++)
    if (a->array.items[i]->kind != KILN_ATTR_INT || a->array.items[i]->type) return a;
  int64_t *v = kp_alloc(p, (size_t)a->array.count + 1, sizeof *v);
  if (!v) return NULL;
  for (int32_t i = 0; i < a->array.count; i++) v[i] = kiln_attr_int(a->array.items[i]);
  const kiln_attr *r = kiln_attr_make_i64_array(p->m, v, a->array.count);
  if (!r) kp_oom(p);
  return r;
}

/* sub_axis_info = (PRE)SIZE, as #stablehlo.axis_ref writes it. */
static bool parse_sub_axis_info(kiln_parser *p, const kiln_attr **out) {
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_STRUCT);
  int64_t v[2];
  if (!a || !(a->strct.fields = kp_alloc(p, 2, sizeof *a->strct.fields))) return false;
  if (!kp_expect(p, '(', "to open a sub-axis") || !kp_parse_i64(p, &v[0]) || !kp_expect(p, ')', "after a sub-axis' pre-size") ||
      !kp_parse_i64(p, &v[1]))
    return false;
  static const char *const names[2] = {"pre_size", "size"};
  for (int i = 0; i < 2; i++) {
    a->strct.fields[i].name = names[i];
    if (!(a->strct.fields[i].value = kiln_attr_make_int(p->m, v[i], NULL))) return kp_oom(p);
  }
  a->strct.dialect = "stablehlo";
  a->strct.name = "sub_axis_info";
  a->strct.count = 2;
  *out = a;
  return true;
}

/* The fields of a structure up to `close`, then in the order MLIR keeps them. */
static bool struct_fields(kiln_parser *p, kiln_attr *a, char close) {
  int32_t cap = 0;
  if (kp_is(p, close)) return true;
  do {
    kiln_named_attr *f = kp_push(p, (void **)&a->strct.fields, &a->strct.count, &cap, sizeof *f);
    if (!f) return false;
    if (p->tok.kind == KILN_TOK_IDENT) {
      kiln_lexer save = p->lx;
      kiln_tok name = p->tok;
      kp_next(p);
      if (kp_accept(p, '=')) {
        if (!(f->name = kp_strdup(p, name.text, name.len))) return false;
      } else {
        p->lx = save;
        p->tok = name;
      }
    }
    if (f->name && !strcmp(f->name, "sub_axis_info") && kp_is(p, '(')) {
      if (!parse_sub_axis_info(p, &f->value)) return false;
    } else if (!parse_attr_inner(p, &f->value, true) || !(f->value = normalize_list(p, f->value))) {
      return false;
    }
  } while (kp_accept(p, ','));
  kiln_attr_struct_canonicalize(a);
  return true;
}

static bool conv_list(kiln_parser *p, const char *labels, int64_t *pos_of_label, int64_t *spatial, int64_t *ns) {
  /* [b, 0, 1, f]: record where each label and each spatial index sits */
  if (!kp_expect(p, '[', "to open conv dimension labels")) return false;
  int64_t n = 0;
  pos_of_label[0] = pos_of_label[1] = -1;
  *ns = 0;
  int64_t seen_spatial[64];
  for (int i = 0; i < 64; i++) seen_spatial[i] = -1;
  if (!kp_is(p, ']')) {
    do {
      if (n >= 64) return kp_fail(p, "too many convolution dimensions");
      if (p->tok.kind == KILN_TOK_INT) {
        uint64_t s;
        size_t at = p->tok.offset;
        if (!kp_parse_u64(p, &s)) return false;
        if (s >= 62 || seen_spatial[s] >= 0) return kp_fail_at(p, at, "spatial dimension %llu is repeated or out of range", (unsigned long long)s);
        seen_spatial[s] = n;
        (*ns)++;
      } else if (p->tok.kind == KILN_TOK_IDENT && p->tok.len == 1 && strchr(labels, p->tok.text[0])) {
        int which = p->tok.text[0] == labels[0] ? 0 : 1;
        if (pos_of_label[which] >= 0) return kp_fail(p, "dimension label '%c' is repeated", labels[which]);
        pos_of_label[which] = n;
        kp_next(p);
      } else {
        return kp_fail(p, "expected '%c', '%c' or a spatial dimension number", labels[0], labels[1]);
      }
      n++;
    } while (kp_accept(p, ','));
  }
  if (!kp_expect(p, ']', "to close conv dimension labels")) return false;
  if (pos_of_label[0] < 0 || pos_of_label[1] < 0) return kp_fail(p, "conv dimension labels need both '%c' and '%c'", labels[0], labels[1]);
  for (int64_t s = 0; s < *ns; s++) {
    if (seen_spatial[s] < 0) return kp_fail(p, "spatial dimensions must be numbered 0..%lld", (long long)*ns - 1);
    spatial[s] = seen_spatial[s];
  }
  return true;
}

bool kp_parse_conv_dims(kiln_parser *p, const kiln_attr **out) {
  static const char *const names[3][3] = {
      {"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions"},
      {"kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions"},
      {"output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions"}};
  static const char *const labels[3] = {"bf", "io", "bf"};
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_STRUCT);
  if (!a || !(a->strct.fields = kp_alloc(p, 9, sizeof *a->strct.fields))) return false;
  a->strct.dialect = "stablehlo";
  a->strct.name = "conv";
  a->strct.count = 9;
  int64_t ns_first = -1;
  for (int k = 0; k < 3; k++) {
    int64_t pos[2], spatial[64], ns;
    if (k == 1 && !(p->tok.kind == KILN_TOK_IDENT && kp_is_ident(p, "x") && (kp_next(p), 1))) return kp_fail(p, "expected 'x' between conv dimension lists");
    if (k == 2 && !(p->tok.kind == KILN_TOK_ARROW && (kp_next(p), 1))) return kp_fail(p, "expected '->' before the output dimensions");
    if (!conv_list(p, labels[k], pos, spatial, &ns)) return false;
    if (ns_first >= 0 && ns != ns_first) return kp_fail(p, "conv dimension lists have different numbers of spatial dimensions");
    ns_first = ns;
    for (int j = 0; j < 3; j++) {
      kiln_named_attr *f = &a->strct.fields[k * 3 + j];
      f->name = names[k][j];
      f->value = j < 2 ? kiln_attr_make_int(p->m, pos[j], NULL) : kiln_attr_make_i64_array(p->m, spatial, ns);
      if (!f->value) return kp_oom(p);
    }
  }
  *out = a;
  return true;
}

static bool parse_hash_attr(kiln_parser *p, const kiln_attr **out) {
  /* #stablehlo<name VALUE>, #stablehlo.name<...>, #chlo..., or anything else kept opaque */
  const char *t = p->tok.text + 1;
  size_t n = p->tok.len - 1;
  const char *dialect = NULL;
  if (n >= 9 && !memcmp(t, "stablehlo", 9) && (n == 9 || t[9] == '.')) dialect = "stablehlo";
  else if (n >= 4 && !memcmp(t, "chlo", 4) && (n == 4 || t[4] == '.')) dialect = "chlo";
  size_t end = p->tok.offset + p->tok.len;
  /* The structured attributes Kiln reads; other #stablehlo.* / #chlo.* ones are kept as
   * text like any other dialect's. */
  static const char *const known[] = {"gather", "scatter", "dot", "conv", "dot_algorithm", "channel_handle",
                                      "output_operand_alias", "type_extensions", "bounds", "result_accuracy",
                                      "result_accuracy_mode", "ragged_dot", "replica_group_mesh_axes", "axis_ref",
                                      "sub_axis_info", "mesh", "mesh_axis", NULL};
  if (dialect && n > strlen(dialect)) {
    bool is_known = false;
    for (const char *const *k = known; *k; k++)
      is_known |= strlen(*k) == n - strlen(dialect) - 1 && !memcmp(*k, t + strlen(dialect) + 1, strlen(*k));
    if (!is_known) dialect = NULL;
  }
  if (!dialect) {
    const kiln_alias *alias = kp_find_alias(p, &p->tok);
    if (alias && alias->attr) {
      if (!kp_use_alias(p, alias)) return false;
      kp_next(p);
      *out = alias->attr;
      return true;
    }
    kiln_attr *a = kp_new_attr(p, KILN_ATTR_OPAQUE);
    *out = a;
    return a && kp_parse_opaque_text(p, &a->opaque);
  }
  size_t dl = strlen(dialect);
  const char *sub = n > dl ? t + dl + 1 : NULL;
  size_t sub_len = n > dl ? n - dl - 1 : 0;
  kp_next(p);
  if (!kp_is(p, '<') || p->tok.offset != end) return kp_fail(p, "expected '<' after #%s", dialect);
  kp_next(p);
  if (!kp_enter(p)) return false;
  if (!sub) { /* #stablehlo<name VALUE> */
    if (p->tok.kind != KILN_TOK_IDENT) return kp_fail(p, "expected an enum name");
    const char *name = kp_strdup(p, p->tok.text, p->tok.len);
    kp_next(p);
    if (p->tok.kind != KILN_TOK_IDENT) return kp_fail(p, "expected an enum value");
    if (!name || !(*out = kp_enum_attr(p, dialect, name, p->tok.text, p->tok.len))) return false;
    kp_next(p);
  } else {
    const char *name = kp_strdup(p, sub, sub_len);
    if (!name) return false;
    kiln_lexer save = p->lx;
    kiln_tok first = p->tok;
    if (p->tok.kind == KILN_TOK_IDENT) kp_next(p);
    bool lone_ident = first.kind == KILN_TOK_IDENT && kp_is(p, '>') && strcmp(name, "conv") != 0;
    p->lx = save;
    p->tok = first;
    if (lone_ident) { /* #stablehlo.result_accuracy_mode<DEFAULT> */
      kiln_attr *e = (kiln_attr *)kp_enum_attr(p, dialect, name, p->tok.text, p->tok.len);
      if (!e) return false;
      e->enumv.dotted = true;
      *out = e;
      kp_next(p);
    } else if (!strcmp(name, "conv")) {
      if (kp_accept_ident(p, "raw")) {
        kiln_attr *a = kp_new_attr(p, KILN_ATTR_STRUCT);
        if (!a) return false;
        a->strct.dialect = dialect;
        a->strct.name = name;
        *out = a;
        if (!struct_fields(p, a, '>')) return false;
      } else if (!kp_parse_conv_dims(p, out)) {
        return false;
      }
    } else {
      kiln_attr *a = kp_new_attr(p, KILN_ATTR_STRUCT);
      if (!a) return false;
      a->strct.dialect = dialect;
      a->strct.name = name;
      *out = a;
      if (!struct_fields(p, a, '>')) return false;
    }
  }
  kp_leave(p);
  return kp_expect(p, '>', "to close the attribute");
}

/* ------------------------------------------------------------------ attributes */

static bool parse_number_attr(kiln_parser *p, const kiln_attr **out) {
  lit l;
  if (!parse_number(p, &l)) return false;
  size_t type_at = p->tok.offset;
  const kiln_type *t;
  if (!parse_optional_type(p, &t)) return false;
  if (l.kind == LIT_BOOL) {
    kiln_attr *a = kp_new_attr(p, KILN_ATTR_BOOL);
    if (a) a->b = l.mag != 0;
    return (*out = a) != NULL;
  }
  bool want_float = t ? (t->kind == KILN_TYPE_SCALAR && kiln_elem_is_float(t->elem)) : l.kind == LIT_FLOAT;
  if (t && t->kind != KILN_TYPE_SCALAR) return kp_fail_at(p, type_at, "a number's type must be a scalar type");
  if (t && kiln_elem_is_complex(t->elem)) return kp_fail_at(p, type_at, "complex scalars are not attributes");
  kiln_attr *a = kp_new_attr(p, want_float ? KILN_ATTR_FLOAT : KILN_ATTR_INT);
  if (!a) return false;
  a->type = t;
  if (want_float) {
    if (l.hex && t) {
      uint8_t bits[8] = {0};
      if (!store_elem(p, &l, t, bits)) return false;
      uint64_t u;
      memcpy(&u, bits, 8);
      a->f = kiln_elem_float_from_bits(t->elem, u);
    } else {
      a->f = lit_double(&l);
    }
  } else {
    if (l.kind == LIT_FLOAT) return kp_fail_at(p, l.offset, "floating-point value with an integer type");
    if (t) {
      uint8_t tmp[8];
      if (!store_elem(p, &l, t, tmp)) return false;
    }
    a->i.magnitude = l.mag;
    a->i.negative = l.neg && l.mag;
  }
  *out = a;
  return true;
}

static bool parse_attr_inner(kiln_parser *p, const kiln_attr **out, bool keywords) {
  if (!kp_enter(p)) return false;
  bool ok;
  kiln_attr *a;
  switch (p->tok.kind) {
    case KILN_TOK_INT:
    case KILN_TOK_FLOAT: ok = parse_number_attr(p, out); break;
    case KILN_TOK_STRING: {
      ok = (a = kp_new_attr(p, KILN_ATTR_STRING)) && decode_string(p, &a->str.data, &a->str.len) &&
           parse_optional_type(p, &a->type);
      *out = a;
      break;
    }
    case KILN_TOK_AT: {
      /* @name, @"quoted name" (escapes decoded), or a nested reference @a::@b kept as the
       * text "a::@b" of the decoded parts (the printer splits it again) */
      size_t at = p->tok.offset;
      char *joined = NULL;
      int32_t nn = 0, cap = 0;
      ok = (a = kp_new_attr(p, KILN_ATTR_SYMBOL)) != NULL;
      for (bool more = true, first = true; ok && more; first = false) {
        const char *part;
        size_t len;
        ok = decode_symbol(p, &part, &len) && (first || append_chars(p, &joined, &nn, &cap, "::@", 3)) &&
             append_chars(p, &joined, &nn, &cap, part, len);
        kp_next(p);
        more = ok && kp_is(p, ':') && p->tok.offset + 1 < p->src->len && p->src->text[p->tok.offset + 1] == ':';
        if (more) {
          kp_next(p); /* the second ':' */
          kp_next(p);
          if (p->tok.kind != KILN_TOK_AT) ok = kp_fail(p, "expected a nested symbol after '::'");
        }
      }
      ok = ok && append_chars(p, &joined, &nn, &cap, "", 1);
      if (ok && strlen(joined) != (size_t)nn - 1) ok = kp_fail_at(p, at, "a symbol name cannot hold a NUL byte");
      if (ok) a->symbol = joined;
      *out = a;
      break;
    }
    case KILN_TOK_HASH: ok = parse_hash_attr(p, out); break;
    case KILN_TOK_BANG:
      ok = (a = kp_new_attr(p, KILN_ATTR_TYPE)) && kp_parse_type(p, &a->type);
      *out = a;
      break;
    case KILN_TOK_PUNCT:
      if (kp_is(p, '[')) {
        ok = parse_array(p, out, keywords);
      } else if (kp_is(p, '{')) {
        ok = (a = kp_new_attr(p, KILN_ATTR_DICT)) && kp_parse_attr_dict(p, &a->dict.entries, &a->dict.count);
        *out = a;
      } else if (kp_is(p, '-')) {
        ok = parse_number_attr(p, out);
      } else if (kp_is(p, '(')) {
        ok = (a = kp_new_attr(p, KILN_ATTR_TYPE)) && kp_parse_type(p, &a->type);
        *out = a;
      } else if (kp_is(p, '?') && keywords) {
        ok = (*out = kp_enum_attr(p, NULL, NULL, "?", 1)) != NULL;
        kp_next(p);
      } else {
        ok = kp_fail(p, "expected an attribute");
      }
      break;
    case KILN_TOK_IDENT:
      if (kp_is_ident(p, "true") || kp_is_ident(p, "false")) {
        ok = parse_number_attr(p, out);
      } else if (kp_accept_ident(p, "unit")) {
        ok = (*out = kp_new_attr(p, KILN_ATTR_UNIT)) != NULL;
      } else if (kp_accept_ident(p, "dense")) {
        ok = kp_parse_dense(p, NULL, out);
      } else if (kp_accept_ident(p, "array")) {
        ok = parse_dense_array(p, out);
      } else if (kp_at_type(p)) {
        ok = (a = kp_new_attr(p, KILN_ATTR_TYPE)) && kp_parse_type(p, &a->type);
        *out = a;
      } else if (p->tok.offset + p->tok.len < p->src->len && p->src->text[p->tok.offset + p->tok.len] == '<') {
        ok = (a = kp_new_attr(p, KILN_ATTR_OPAQUE)) && kp_parse_opaque_text(p, &a->opaque); /* affine_map<...> */
        *out = a;
      } else if (keywords) {
        ok = (*out = kp_enum_attr(p, NULL, NULL, p->tok.text, p->tok.len)) != NULL;
        kp_next(p);
      } else {
        ok = kp_fail(p, "expected an attribute");
      }
      break;
    default: ok = kp_fail(p, "expected an attribute"); break;
  }
  kp_leave(p);
  return ok;
}

bool kp_parse_attr(kiln_parser *p, const kiln_attr **out) { return parse_attr_inner(p, out, false); }

bool kp_parse_i64_list(kiln_parser *p, const kiln_attr **out) {
  if (!kp_expect(p, '[', "to open an integer list")) return false;
  int64_t *v = NULL;
  int32_t n = 0, cap = 0;
  if (!kp_is(p, ']')) {
    do {
      int64_t *slot = kp_push(p, (void **)&v, &n, &cap, sizeof *slot);
      if (!slot || !kp_parse_i64(p, slot)) return false;
    } while (kp_accept(p, ','));
  }
  if (!kp_expect(p, ']', "to close an integer list")) return false;
  return (*out = kiln_attr_make_i64_array(p->m, v, n)) != NULL || kp_oom(p);
}

bool kp_parse_struct_body(kiln_parser *p, const char *dialect, const char *name, const kiln_attr **out) {
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_STRUCT);
  if (!a || !kp_expect(p, '<', "to open the attribute") || !kp_enter(p)) return false;
  a->strct.dialect = dialect;
  a->strct.name = name;
  *out = a;
  if (!struct_fields(p, a, '>')) return false;
  kp_leave(p);
  return kp_expect(p, '>', "to close the attribute");
}

bool kp_parse_int_attr(kiln_parser *p, const kiln_type *type, const kiln_attr **out) {
  lit l;
  if (!parse_number(p, &l)) return false;
  if (l.kind != LIT_INT) return kp_fail_at(p, l.offset, "expected an integer");
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_INT);
  if (!a) return false;
  a->type = type;
  a->i.magnitude = l.mag;
  a->i.negative = l.neg && l.mag;
  *out = a;
  return true;
}

bool kp_parse_float_attr(kiln_parser *p, const kiln_type *type, const kiln_attr **out) {
  lit l;
  if (!parse_number(p, &l)) return false;
  if (l.kind != LIT_INT && l.kind != LIT_FLOAT) return kp_fail_at(p, l.offset, "expected a number");
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_FLOAT);
  if (!a) return false;
  a->type = type;
  a->f = lit_double(&l);
  *out = a;
  return true;
}

bool kp_parse_string_attr(kiln_parser *p, const kiln_attr **out) {
  if (p->tok.kind != KILN_TOK_STRING) return kp_fail(p, "expected a string");
  kiln_attr *a = kp_new_attr(p, KILN_ATTR_STRING);
  *out = a;
  return a && decode_string(p, &a->str.data, &a->str.len);
}
