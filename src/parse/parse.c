/* MLIR text parser: tokens, types, values and scopes, generic ops, regions, modules. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parser.h"

/* ------------------------------------------------------------------ tokens and errors */

void kp_next(kiln_parser *p) {
  p->tok = kiln_lex(&p->lx);
  if (p->tok.kind == KILN_TOK_ERROR && !p->err)
    p->err = kiln_source_error(p->src, p->tok.offset, "%s", p->tok.msg);
}

bool kp_is(const kiln_parser *p, char c) {
  return p->tok.kind == KILN_TOK_PUNCT && p->tok.text[0] == c;
}

bool kp_accept(kiln_parser *p, char c) {
  if (!kp_is(p, c)) return false;
  kp_next(p);
  return true;
}

static const char *tok_desc(const kiln_tok *t, char *buf, size_t cap) {
  if (t->kind == KILN_TOK_EOF) return "end of input";
  size_t n = t->len > 40 ? 40 : t->len;
  snprintf(buf, cap, "'%.*s%s'", (int)n, t->text, t->len > 40 ? "..." : "");
  for (char *c = buf; *c; c++)
    if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) *c = '?';
  return buf;
}

bool kp_fail_at(kiln_parser *p, size_t offset, const char *fmt, ...) {
  if (p->err) return false;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  p->err = kiln_source_error(p->src, offset, "%s", msg);
  return false;
}

bool kp_fail(kiln_parser *p, const char *fmt, ...) {
  if (p->err) return false;
  char msg[448], buf[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return kp_fail_at(p, p->tok.offset, "%s, found %s", msg, tok_desc(&p->tok, buf, sizeof buf));
}

bool kp_oom(kiln_parser *p) {
  if (!p->err)
    p->err = kiln_source_error(p->src, p->tok.offset, "out of memory (input too large)");
  return false;
}

bool kp_expect(kiln_parser *p, char c, const char *context) {
  if (kp_accept(p, c)) return true;
  return kp_fail(p, "expected '%c' %s", c, context);
}

bool kp_is_ident(const kiln_parser *p, const char *w) {
  return p->tok.kind == KILN_TOK_IDENT && strlen(w) == p->tok.len && memcmp(p->tok.text, w, p->tok.len) == 0;
}

bool kp_accept_ident(kiln_parser *p, const char *w) {
  if (!kp_is_ident(p, w)) return false;
  kp_next(p);
  return true;
}

bool kp_expect_ident(kiln_parser *p, const char *w) {
  return kp_accept_ident(p, w) || kp_fail(p, "expected '%s'", w);
}

bool kp_enter(kiln_parser *p) {
  if (++p->depth > KILN_PARSE_MAX_DEPTH)
    return kp_fail_at(p, p->tok.offset, "nesting is deeper than %d levels", KILN_PARSE_MAX_DEPTH);
  if (p->depth > p->max_depth) p->max_depth = p->depth;
  return true;
}

void kp_leave(kiln_parser *p) { p->depth--; }

void *kp_alloc(kiln_parser *p, size_t n, size_t size) {
  void *r = kiln_arena_alloc_array(p->m->arena, n, size);
  if (!r) kp_oom(p);
  return r;
}

void *kp_push(kiln_parser *p, void **items, int32_t *count, int32_t *cap, size_t size) {
  if (*count == *cap) {
    if (*cap > (1 << 28)) {
      kp_oom(p);
      return NULL;
    }
    int32_t ncap = *cap ? *cap * 2 : 4;
    void *n = kp_alloc(p, (size_t)ncap, size);
    if (!n) return NULL;
    if (*count) memcpy(n, *items, (size_t)*count * size);
    *items = n;
    *cap = ncap;
  }
  return (char *)*items + (size_t)(*count)++ * size;
}

char *kp_strdup(kiln_parser *p, const char *s, size_t n) {
  char *r = kiln_arena_strndup(p->m->arena, s, n);
  if (!r) kp_oom(p);
  return r;
}

/* ------------------------------------------------------------------ numbers */

bool kp_parse_u64(kiln_parser *p, uint64_t *out) {
  if (p->tok.kind != KILN_TOK_INT) return kp_fail(p, "expected an integer");
  const char *t = p->tok.text;
  size_t n = p->tok.len, i = 0;
  uint64_t v = 0;
  int base = 10;
  if (n > 2 && t[0] == '0' && t[1] == 'x') base = 16, i = 2;
  for (; i < n; i++) {
    int c = t[i], d = c <= '9' ? c - '0' : (c | 32) - 'a' + 10;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
      return kp_fail(p, "integer literal does not fit in 64 bits");
    v = v * (uint64_t)base + (uint64_t)d;
  }
  *out = v;
  kp_next(p);
  return true;
}

bool kp_parse_i64(kiln_parser *p, int64_t *out) {
  bool neg = kp_accept(p, '-');
  uint64_t m;
  if (!kp_parse_u64(p, &m)) return false;
  if (m > (uint64_t)INT64_MAX + (neg ? 1 : 0)) return kp_fail_at(p, p->tok.offset, "integer out of range of i64");
  *out = neg ? (int64_t)(0 - m) : (int64_t)m;
  return true;
}

/* ------------------------------------------------------------------ types */

bool kp_at_type(const kiln_parser *p) {
  if (p->tok.kind == KILN_TOK_BANG) return true;
  if (kp_is(p, '(')) return true;
  if (p->tok.kind != KILN_TOK_IDENT) return false;
  kiln_elem e;
  return kp_is_ident(p, "tensor") || kp_is_ident(p, "tuple") || kp_is_ident(p, "complex") ||
         kp_is_ident(p, "memref") || kp_is_ident(p, "vector") ||
         kp_is_ident(p, "none") || kiln_elem_lookup(p->tok.text, p->tok.len, &e);
}

bool kp_scan_balanced(kiln_parser *p, size_t start, const char **out) {
  const char *t = p->src->text;
  size_t n = p->src->len, i = p->tok.offset;
  int depth = 0;
  char closers[KILN_PARSE_MAX_DEPTH + 1]; /* the closer each open bracket expects */
  for (; i < n; i++) {
    char c = t[i];
    if (c == '"') {
      for (i++; i < n && t[i] != '"'; i++)
        if (t[i] == '\\') i++;
      continue;
    }
    if (c == '-' && i + 1 < n && t[i + 1] == '>') {
      i++;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (depth >= KILN_PARSE_MAX_DEPTH) return kp_fail_at(p, i, "nesting is deeper than %d levels", KILN_PARSE_MAX_DEPTH);
      closers[depth++] = c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}';
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (c != closers[depth - 1]) return kp_fail_at(p, i, "unbalanced '%c' (expected '%c')", c, closers[depth - 1]);
      if (--depth == 0) break;
    }
  }
  if (i >= n) return kp_fail_at(p, p->tok.offset, "unbalanced '%c' (no matching '%c')", t[p->tok.offset], closers[0]);
  /* the text is kept as a C string: a NUL byte would cut it short */
  const char *nul = memchr(t + start, 0, i + 1 - start);
  if (nul) return kp_fail_at(p, (size_t)(nul - t), "unexpected NUL byte");
  if (!(*out = kp_strdup(p, t + start, i + 1 - start))) return false;
  p->lx.pos = i + 1;
  kp_next(p);
  return true;
}

/* The opaque form of a dialect type or attribute: #x.y<...> or !x.y<...>. */
bool kp_parse_opaque_text(kiln_parser *p, const char **out);
bool kp_parse_opaque_text(kiln_parser *p, const char **out) {
  size_t start = p->tok.offset, end = start + p->tok.len;
  kp_next(p);
  if (kp_is(p, '<') && p->tok.offset == end) return kp_scan_balanced(p, start, out);
  return (*out = kp_strdup(p, p->src->text + start, end - start)) != NULL;
}

static bool parse_quant(kiln_parser *p, kiln_type *t) {
  /* !quant.uniform<i8<-127:127>:f32:1, {0.1:-1, 0.2}> */
  if (!kp_expect(p, '<', "after !quant.uniform")) return false;
  if (p->tok.kind != KILN_TOK_IDENT) return kp_fail(p, "expected a storage type");
  kiln_elem st;
  char buf[16];
  size_t n = p->tok.len;
  if (n > 6) return kp_fail(p, "expected an integer storage type in !quant.uniform"); /* at most "ui64" */
  memcpy(buf, p->tok.text, n);
  buf[n] = 0;
  if (buf[0] == 'u' && buf[1] != 'i') { /* quant spells unsigned storage uN */
    memmove(buf + 2, buf + 1, n);
    buf[1] = 'i';
    n++;
  }
  if (!kiln_elem_lookup(buf, n, &st) || !kiln_elem_is_int(st) || st == KILN_ELEM_I1 || st == KILN_ELEM_INDEX)
    return kp_fail(p, "expected an integer storage type in !quant.uniform");
  t->quant.storage = st;
  kp_next(p);
  int bits = kiln_elem_bits(st);
  bool is_unsigned = kiln_elem_class_of(st) == KILN_ELEM_CLASS_U;
  t->quant.storage_min = is_unsigned ? 0 : bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
  t->quant.storage_max = is_unsigned ? (int64_t)(((uint64_t)1 << (bits == 64 ? 63 : bits)) - 1)
                                     : (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
  if (kp_accept(p, '<')) {
    t->quant.has_storage_range = true;
    if (!kp_parse_i64(p, &t->quant.storage_min) || !kp_expect(p, ':', "in the storage range") ||
        !kp_parse_i64(p, &t->quant.storage_max) || !kp_expect(p, '>', "after the storage range"))
      return false;
  }
  if (!kp_expect(p, ':', "after the storage type")) return false;
  const kiln_type *ex;
  size_t ex_at = p->tok.offset;
  if (!kp_parse_type(p, &ex)) return false;
  if (ex->kind != KILN_TYPE_SCALAR || !kiln_elem_is_float(ex->elem))
    return kp_fail_at(p, ex_at, "expressed type of !quant.uniform must be a float type");
  t->quant.expressed = ex->elem;
  t->quant.axis = -1;
  if (kp_accept(p, ':')) {
    int64_t axis;
    if (!kp_parse_i64(p, &axis)) return false;
    if (axis < 0 || axis > INT32_MAX) return kp_fail(p, "quantization axis out of range");
    t->quant.axis = (int32_t)axis;
  }
  if (!kp_expect(p, ',', "before the scales")) return false;
  bool braced = kp_accept(p, '{');
  int32_t cap = 0;
  do {
    double scale;
    int64_t zp = 0;
    bool neg = kp_accept(p, '-');
    if (p->tok.kind != KILN_TOK_FLOAT && p->tok.kind != KILN_TOK_INT) return kp_fail(p, "expected a scale");
    char num[64];
    size_t ln = p->tok.len < 63 ? p->tok.len : 63;
    memcpy(num, p->tok.text, ln);
    num[ln] = 0;
    scale = strtod(num, NULL);
    if (neg) scale = -scale;
    kp_next(p);
    if (kp_accept(p, ':') && !kp_parse_i64(p, &zp)) return false;
    if (t->quant.count == cap) {
      int32_t c2 = cap ? cap * 2 : 1, old = t->quant.count;
      double *s2 = kp_alloc(p, (size_t)c2, sizeof *s2);
      int64_t *z2 = kp_alloc(p, (size_t)c2, sizeof *z2);
      if (!s2 || !z2) return false;
      if (old) memcpy(s2, t->quant.scales, sizeof *s2 * (size_t)old), memcpy(z2, t->quant.zero_points, sizeof *z2 * (size_t)old);
      t->quant.scales = s2, t->quant.zero_points = z2, cap = c2;
    }
    t->quant.scales[t->quant.count] = scale;
    t->quant.zero_points[t->quant.count++] = zp;
  } while (braced && kp_accept(p, ','));
  if (braced && !kp_expect(p, '}', "after the per-axis scales")) return false;
  if (!braced && t->quant.axis >= 0) return kp_fail(p, "per-axis quantization needs {scale:zero_point, ...}");
  return kp_expect(p, '>', "to close !quant.uniform");
}

static bool parse_dims(kiln_parser *p, int64_t **dims, int32_t *rank) {
  /* Dimensions are scanned as characters: "2x?x3xf32" is not a token sequence. */
  const char *t = p->src->text;
  size_t n = p->src->len, i = p->tok.offset;
  int32_t cap = 0;
  *rank = 0;
  for (;;) {
    size_t j = i;
    while (j < n && (t[j] == ' ' || t[j] == '\t')) j++;
    int64_t d;
    if (j < n && t[j] == '?') {
      d = KILN_DIM_DYNAMIC;
      j++;
    } else if (j < n && t[j] >= '0' && t[j] <= '9') {
      d = 0;
      for (; j < n && t[j] >= '0' && t[j] <= '9'; j++)
        if (!kiln_mul_i64(d, 10, &d) || !kiln_add_i64(d, t[j] - '0', &d))
          return kp_fail_at(p, i, "dimension size does not fit in 64 bits");
    } else {
      break;
    }
    if (j >= n || t[j] != 'x') return kp_fail_at(p, j, "expected 'x' after a dimension");
    if (*rank >= 1024) return kp_fail_at(p, i, "tensor rank above 1024");
    int64_t *slot = kp_push(p, (void **)dims, rank, &cap, sizeof(int64_t));
    if (!slot) return false;
    *slot = d;
    i = j + 1;
  }
  p->lx.pos = i;
  kp_next(p);
  return true;
}

static bool parse_tensor(kiln_parser *p, const kiln_type **out) {
  size_t at = p->tok.offset;
  if (!kp_expect(p, '<', "after 'tensor'")) return false;
  if (kp_is(p, '*')) return kp_fail(p, "unranked tensors are not supported");
  int64_t *dims = NULL;
  int32_t rank;
  if (!parse_dims(p, &dims, &rank)) return false;
  const kiln_type *elem;
  size_t elem_at = p->tok.offset;
  if (!kp_parse_type(p, &elem)) return false;
  if (elem->kind != KILN_TYPE_SCALAR && elem->kind != KILN_TYPE_QUANT)
    return kp_fail_at(p, elem_at, "tensor element type must be an integer, float, complex or quantized type");
  const kiln_attr *enc = NULL;
  int64_t *bounds = NULL;
  if (kp_accept(p, ',')) {
    size_t enc_at = p->tok.offset;
    if (!kp_parse_attr(p, &enc)) return false;
    /* #stablehlo.type_extensions<bounds = [?, 5]> or #stablehlo.bounds<?, 5> */
    const kiln_attr *b = NULL;
    kiln_attr positional = {.kind = KILN_ATTR_ARRAY};
    if (enc->kind == KILN_ATTR_STRUCT && !strcmp(enc->strct.name, "type_extensions")) {
      b = kiln_attr_get(enc, "bounds");
    } else if (enc->kind == KILN_ATTR_STRUCT && !strcmp(enc->strct.name, "bounds")) {
      const kiln_attr **items = kp_alloc(p, (size_t)enc->strct.count + 1, sizeof *items);
      if (!items) return false;
      for (int32_t i = 0; i < enc->strct.count; i++) items[i] = enc->strct.fields[i].value;
      positional.array.items = items;
      positional.array.count = enc->strct.count;
      b = &positional;
    }
    if (b) {
      bool is_array = b->kind == KILN_ATTR_ARRAY;
      int64_t n = is_array ? b->array.count : kiln_attr_count(b);
      if (n != rank) return kp_fail_at(p, enc_at, "bounds must list one entry per dimension (%d)", (int)rank);
      if (!(bounds = kp_alloc(p, (size_t)rank + 1, sizeof *bounds))) return false;
      for (int32_t i = 0; i < rank; i++) {
        const kiln_attr *e = is_array ? b->array.items[i] : NULL;
        if (!is_array) kiln_attr_i64_at(b, i, &bounds[i]);
        else if (e->kind == KILN_ATTR_INT && !e->i.negative) bounds[i] = kiln_attr_int(e);
        else if (e->kind == KILN_ATTR_ENUM && !strcmp(e->enumv.value, "?")) bounds[i] = KILN_DIM_DYNAMIC;
        else return kp_fail_at(p, enc_at, "bounds entries must be non-negative integers or '?'");
        if (bounds[i] < 0 && bounds[i] != KILN_DIM_DYNAMIC)
          return kp_fail_at(p, enc_at, "bounds entries must be non-negative integers or '?'");
      }
      enc = NULL;
    }
  }
  if (!kp_expect(p, '>', "to close the tensor type")) return false;
  const kiln_type *t = kiln_type_tensor(p->m, elem, rank, dims, bounds);
  if (!t) return kp_fail_at(p, at, "tensor type has more than 2^63 elements");
  ((kiln_type *)t)->tensor.encoding = enc;
  *out = t;
  return true;
}

static bool parse_type_seq(kiln_parser *p, char close, const kiln_type ***out, int32_t *count) {
  int32_t cap = 0;
  *out = NULL;
  *count = 0;
  if (kp_accept(p, close)) return true;
  do {
    const kiln_type **slot = kp_push(p, (void **)out, count, &cap, sizeof **out);
    if (!slot || !kp_parse_type(p, slot)) return false;
  } while (kp_accept(p, ','));
  char what[24];
  snprintf(what, sizeof what, "to close the type list");
  return kp_expect(p, close, what);
}

bool kp_parse_result_types(kiln_parser *p, const kiln_type ***out, int32_t *count) {
  if (kp_accept(p, '(')) {
    if (!kp_enter(p)) return false;
    bool ok = parse_type_seq(p, ')', out, count);
    kp_leave(p);
    return ok;
  }
  if (!(*out = kp_alloc(p, 1, sizeof **out))) return false;
  *count = 1;
  return kp_parse_type(p, &(*out)[0]);
}

bool kp_parse_function_type(kiln_parser *p, const kiln_type **out) {
  if (!kp_expect(p, '(', "to start a function type")) return false;
  if (!kp_enter(p)) return false;
  kiln_type *t = kiln_type_new(p->m, KILN_TYPE_FUNCTION);
  if (!t) return kp_oom(p);
  bool ok = parse_type_seq(p, ')', &t->func.inputs, &t->func.num_inputs) &&
            (p->tok.kind == KILN_TOK_ARROW || kp_fail(p, "expected '->' in a function type"));
  if (ok) {
    kp_next(p);
    ok = kp_parse_result_types(p, &t->func.results, &t->func.num_results);
  }
  kp_leave(p);
  *out = t;
  return ok;
}

bool kp_parse_type_list(kiln_parser *p, const kiln_type ***out, int32_t *count) {
  int32_t cap = 0;
  *out = NULL;
  *count = 0;
  do {
    const kiln_type **slot = kp_push(p, (void **)out, count, &cap, sizeof **out);
    if (!slot || !kp_parse_type(p, slot)) return false;
  } while (kp_accept(p, ','));
  return true;
}

static bool parse_type_inner(kiln_parser *p, const kiln_type **out) {
  if (kp_is(p, '(')) return kp_parse_function_type(p, out);
  if (p->tok.kind == KILN_TOK_BANG) {
    const char *t = p->tok.text;
    size_t n = p->tok.len;
    if (n == 16 && !memcmp(t, "!stablehlo.token", 16)) {
      kp_next(p);
      return (*out = kiln_type_new(p->m, KILN_TYPE_TOKEN)) || kp_oom(p);
    }
    if (n == 14 && !memcmp(t, "!quant.uniform", 14)) {
      kiln_type *q = kiln_type_new(p->m, KILN_TYPE_QUANT);
      if (!q) return kp_oom(p);
      kp_next(p);
      *out = q;
      return parse_quant(p, q);
    }
    if (n == 17 && !memcmp(t, "!stablehlo.future", 17)) {
      kiln_type *f = kiln_type_new(p->m, KILN_TYPE_FUTURE);
      if (!f) return kp_oom(p);
      kp_next(p);
      *out = f;
      return kp_expect(p, '<', "after !stablehlo.future") && parse_type_seq(p, '>', &f->tuple.types, &f->tuple.count);
    }
    const kiln_alias *alias = kp_find_alias(p, &p->tok);
    if (alias && alias->type) {
      if (!kp_use_alias(p, alias)) return false;
      kp_next(p);
      *out = alias->type;
      return true;
    }
    kiln_type *o = kiln_type_new(p->m, KILN_TYPE_OPAQUE);
    if (!o) return kp_oom(p);
    *out = o;
    return kp_parse_opaque_text(p, &o->opaque);
  }
  if (p->tok.kind != KILN_TOK_IDENT) return kp_fail(p, "expected a type");
  if (kp_accept_ident(p, "tensor")) return parse_tensor(p, out);
  if (kp_is_ident(p, "memref") || kp_is_ident(p, "vector")) { /* foreign shaped types, kept as text */
    kiln_type *o = kiln_type_new(p->m, KILN_TYPE_OPAQUE);
    *out = o;
    return (o || kp_oom(p)) && kp_parse_opaque_text(p, &o->opaque);
  }
  if (kp_accept_ident(p, "tuple")) {
    kiln_type *t = kiln_type_new(p->m, KILN_TYPE_TUPLE);
    if (!t) return kp_oom(p);
    *out = t;
    return kp_expect(p, '<', "after 'tuple'") && parse_type_seq(p, '>', &t->tuple.types, &t->tuple.count);
  }
  if (kp_accept_ident(p, "none")) return (*out = kiln_type_new(p->m, KILN_TYPE_NONE)) || kp_oom(p);
  if (kp_accept_ident(p, "complex")) {
    size_t at = p->tok.offset;
    const kiln_type *part;
    if (!kp_expect(p, '<', "after 'complex'") || !kp_parse_type(p, &part) || !kp_expect(p, '>', "to close complex<>"))
      return false;
    if (part->kind != KILN_TYPE_SCALAR || (part->elem != KILN_ELEM_F32 && part->elem != KILN_ELEM_F64))
      return kp_fail_at(p, at, "complex element type must be f32 or f64");
    return (*out = kiln_type_scalar(p->m, part->elem == KILN_ELEM_F32 ? KILN_ELEM_C64 : KILN_ELEM_C128)) || kp_oom(p);
  }
  kiln_elem e;
  if (kiln_elem_lookup(p->tok.text, p->tok.len, &e) && e != KILN_ELEM_C64 && e != KILN_ELEM_C128) {
    kp_next(p);
    return (*out = kiln_type_scalar(p->m, e)) || kp_oom(p);
  }
  return kp_fail(p, "unknown type");
}

bool kp_parse_type(kiln_parser *p, const kiln_type **out) {
  if (!kp_enter(p)) return false;
  bool ok = parse_type_inner(p, out);
  kp_leave(p);
  return ok;
}

/* ------------------------------------------------------------------ SSA names and scopes */

static uint64_t hash_name(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static struct kiln_scope_slot *find_slot(kiln_parser *p, const char *name, size_t len) {
  size_t mask = p->num_slots - 1, i = hash_name(name, len) & mask;
  for (;; i = (i + 1) & mask) {
    struct kiln_scope_slot *s = &p->slots[i];
    if (!s->name || (s->len == len && !memcmp(s->name, name, len))) return s;
  }
}

static bool grow_slots(kiln_parser *p) {
  size_t old_n = p->num_slots, n = old_n ? old_n * 2 : 256;
  struct kiln_scope_slot *old = p->slots, *fresh = calloc(n, sizeof *fresh);
  if (!fresh) return kp_oom(p);
  p->slots = fresh;
  p->num_slots = n;
  for (size_t i = 0; i < old_n; i++)
    if (old[i].name) *find_slot(p, old[i].name, old[i].len) = old[i];
  free(old);
  return true;
}

bool kp_define(kiln_parser *p, const kiln_tok *name, kiln_value *values, int32_t count) {
  if ((p->used_slots + 1) * 2 > p->num_slots && !grow_slots(p)) return false;
  struct kiln_scope_slot *s = find_slot(p, name->text, name->len);
  if (!s->name) {
    s->name = name->text;
    s->len = name->len;
    s->live = -1;
    p->used_slots++;
  }
  if (s->live >= p->scope_start)
    return kp_fail_at(p, name->offset, "redefinition of SSA value '%.*s'", (int)name->len, name->text);
  if (p->num_defs == p->cap_defs) {
    int32_t cap = p->cap_defs ? p->cap_defs * 2 : 256;
    kiln_scope_entry *d = realloc(p->defs, sizeof *d * (size_t)cap);
    if (!d) return kp_oom(p);
    p->defs = d;
    p->cap_defs = cap;
  }
  p->defs[p->num_defs] = (kiln_scope_entry){name->text, name->len, values, count, s->live};
  s->live = p->num_defs++;
  return true;
}

int32_t kp_scope_mark(const kiln_parser *p) { return p->num_defs; }

void kp_scope_pop(kiln_parser *p, int32_t mark) {
  while (p->num_defs > mark) {
    kiln_scope_entry *e = &p->defs[--p->num_defs];
    find_slot(p, e->name, e->len)->live = e->shadowed;
  }
}

bool kp_parse_operand(kiln_parser *p, kiln_value **out) {
  if (p->tok.kind != KILN_TOK_PERCENT) return kp_fail(p, "expected an SSA value");
  kiln_tok name = p->tok;
  kp_next(p);
  int64_t index = -1;
  if (p->tok.kind == KILN_TOK_HASH && p->tok.offset == name.offset + name.len) {
    index = 0;
    for (size_t i = 1; i < p->tok.len; i++) {
      char c = p->tok.text[i];
      if (c < '0' || c > '9' || index > 1000000000) return kp_fail(p, "expected a result number after '#'");
      index = index * 10 + (c - '0');
    }
    kp_next(p);
  }
  struct kiln_scope_slot *s = p->num_slots ? find_slot(p, name.text, name.len) : NULL;
  if (!s || !s->name || s->live < 0)
    return kp_fail_at(p, name.offset, "use of undefined value '%.*s'", (int)name.len, name.text);
  if (s->live < p->visible_start)
    return kp_fail_at(p, name.offset,
                      "use of undefined value '%.*s' (functions, modules and sdy.manual_computation bodies do "
                      "not see values defined outside them)",
                      (int)name.len, name.text);
  kiln_scope_entry *e = &p->defs[s->live];
  if (index >= e->count || (index < 0 && e->count != 1))
    return kp_fail_at(p, name.offset, "'%.*s' has %d results; use '%.*s#N' with N below %d", (int)name.len,
                      name.text, (int)e->count, (int)name.len, name.text, (int)e->count);
  *out = &e->values[index < 0 ? 0 : index];
  return true;
}

bool kp_parse_operand_list(kiln_parser *p, kiln_value ***out, int32_t *count) {
  int32_t cap = 0;
  *out = NULL;
  *count = 0;
  while (p->tok.kind == KILN_TOK_PERCENT) {
    kiln_value **slot = kp_push(p, (void **)out, count, &cap, sizeof **out);
    if (!slot || !kp_parse_operand(p, slot)) return false;
    if (!kp_is(p, ',')) break;
    /* a comma followed by something else starts keyword attributes: leave it */
    kiln_lexer save = p->lx;
    kiln_tok comma = p->tok;
    kp_next(p);
    if (p->tok.kind != KILN_TOK_PERCENT) {
      p->lx = save;
      p->tok = comma;
      break;
    }
  }
  return true;
}

/* ------------------------------------------------------------------ op state */

bool kp_state_add_attr(kiln_parser *p, kiln_op_state *st, const char *name, const kiln_attr *value) {
  kiln_named_attr *slot = kp_push(p, (void **)&st->attrs, &st->num_attrs, &st->cap_attrs, sizeof *slot);
  if (!slot) return false;
  slot->name = name;
  slot->value = value;
  return true;
}

bool kp_state_add_region(kiln_parser *p, kiln_op_state *st, kiln_block *entry) {
  kiln_block **slot = kp_push(p, (void **)&st->regions, &st->num_regions, &st->cap_regions, sizeof *slot);
  if (!slot) return false;
  *slot = entry;
  return true;
}

bool kp_parse_state_attr_dict(kiln_parser *p, kiln_op_state *st) {
  kiln_named_attr *attrs;
  int32_t n;
  if (!kp_parse_attr_dict(p, &attrs, &n)) return false;
  for (int32_t i = 0; i < n; i++) {
    for (int32_t j = 0; j < st->num_attrs; j++)
      if (!strcmp(st->attrs[j].name, attrs[i].name))
        return kp_fail_at(p, st->offset, "attribute '%s' is given twice", attrs[i].name);
    if (!kp_state_add_attr(p, st, attrs[i].name, attrs[i].value)) return false;
  }
  return true;
}

/* ------------------------------------------------------------------ regions and ops */

static bool parse_op(kiln_parser *p, kiln_block *block);

static bool parse_block_args(kiln_parser *p, kiln_block **out) {
  /* ( %a: T {attrs}?, ... ) */
  kiln_tok *names = NULL;
  const kiln_type **types = NULL;
  int32_t n = 0, cap_n = 0, nt = 0, cap_t = 0;
  if (!kp_accept(p, ')')) {
    do {
      if (p->tok.kind != KILN_TOK_PERCENT) return kp_fail(p, "expected a block argument");
      kiln_tok *ns = kp_push(p, (void **)&names, &n, &cap_n, sizeof *ns);
      const kiln_type **ts = kp_push(p, (void **)&types, &nt, &cap_t, sizeof *ts);
      if (!ns || !ts) return false;
      *ns = p->tok;
      kp_next(p);
      if (!kp_expect(p, ':', "after a block argument name") || !kp_parse_type(p, ts) || !kp_skip_location(p))
        return false;
      if (kp_is(p, '{')) { /* argument attributes of a block: accepted, not kept */
        kiln_named_attr *ignored;
        int32_t ni;
        if (!kp_parse_attr_dict(p, &ignored, &ni)) return false;
      }
    } while (kp_accept(p, ','));
    if (!kp_expect(p, ')', "to close the block arguments")) return false;
  }
  kiln_block *b = kiln_block_new(p->m, n);
  if (!b) return kp_oom(p);
  for (int32_t i = 0; i < n; i++) {
    b->args[i].type = types[i];
    if (!kp_define(p, &names[i], &b->args[i], 1)) return false;
  }
  *out = b;
  return true;
}

bool kp_parse_region(kiln_parser *p, const kiln_region_args *args, kiln_block **out_entry) {
  if (!kp_expect(p, '{', "to open a region") || !kp_enter(p)) return false;
  int32_t mark = kp_scope_mark(p), saved_start = p->scope_start;
  p->scope_start = mark;
  kiln_block *entry = NULL, *block = NULL;
  bool ok = true;
  if (args) {
    if (!(entry = block = kiln_block_new(p->m, args->count))) ok = kp_oom(p);
    for (int32_t i = 0; ok && i < args->count; i++) {
      block->args[i].type = args->types[i];
      ok = kp_define(p, &args->names[i], &block->args[i], 1);
    }
  }
  while (ok && !kp_is(p, '}')) {
    if (p->tok.kind == KILN_TOK_CARET) {
      if (args && block == entry && !block->first)
        ok = kp_fail(p, "this region's arguments are named before it: no block label is allowed");
      kp_next(p);
      kiln_block *b = NULL;
      if (ok && kp_accept(p, '(')) ok = parse_block_args(p, &b);
      else if (ok && !(b = kiln_block_new(p->m, 0))) ok = kp_oom(p);
      ok = ok && kp_expect(p, ':', "after a block label");
      if (!ok) break;
      if (block) block->next = b;
      block = b;
      if (!entry) entry = b;
      continue;
    }
    if (p->tok.kind == KILN_TOK_EOF) {
      ok = kp_fail(p, "expected '}' to close the region");
      break;
    }
    if (!block && !(entry = block = kiln_block_new(p->m, 0))) ok = kp_oom(p);
    ok = ok && parse_op(p, block);
  }
  ok = ok && kp_expect(p, '}', "to close the region");
  kp_scope_pop(p, mark);
  p->scope_start = saved_start;
  kp_leave(p);
  *out_entry = entry;
  return ok;
}

static bool parse_generic(kiln_parser *p, kiln_op_state *st) {
  /* "op"(%a, ...) ({...})? <{props}>? ({regions})? {attrs}? : (T...) -> R */
  if (!kp_expect(p, '(', "after the op name")) return false;
  if (!kp_accept(p, ')')) {
    if (!kp_parse_operand_list(p, &st->operands, &st->num_operands) ||
        !kp_expect(p, ')', "to close the operand list"))
      return false;
  }
  st->cap_operands = st->num_operands;
  if (kp_is(p, '[')) return kp_fail(p, "block successors are not supported");
  if (kp_accept(p, '<')) {
    if (!kp_is(p, '{')) return kp_fail(p, "expected '{' to open the properties");
    if (!kp_parse_state_attr_dict(p, st) || !kp_expect(p, '>', "to close the properties")) return false;
  }
  if (kp_accept(p, '(')) {
    do {
      kiln_block *entry;
      if (!kp_parse_region(p, NULL, &entry) || !kp_state_add_region(p, st, entry)) return false;
    } while (kp_accept(p, ','));
    if (!kp_expect(p, ')', "to close the region list")) return false;
  }
  if (kp_is(p, '{') && !kp_parse_state_attr_dict(p, st)) return false;
  if (!kp_expect(p, ':', "before the op's function type")) return false;
  size_t at = p->tok.offset;
  const kiln_type *ft;
  if (!kp_parse_function_type(p, &ft)) return false;
  if (ft->func.num_inputs != st->num_operands)
    return kp_fail_at(p, at, "the type lists %d operands but the op has %d", (int)ft->func.num_inputs,
                      (int)st->num_operands);
  for (int32_t i = 0; i < st->num_operands; i++)
    if (!kiln_type_equal(st->operands[i]->type, ft->func.inputs[i]))
      return kp_fail_at(p, at, "operand #%d is used with a type other than its definition's", (int)i);
  st->result_types = ft->func.results;
  st->num_results = st->cap_results = ft->func.num_results;
  return true;
}

bool kp_skip_location(kiln_parser *p) {
  if (!kp_is_ident(p, "loc")) return true;
  kiln_lexer save = p->lx;
  kiln_tok loc = p->tok;
  kp_next(p);
  if (!kp_is(p, '(')) { /* an op or attribute named loc: not a location */
    p->lx = save;
    p->tok = loc;
    return true;
  }
  int depth = 0;
  do {
    if (kp_is(p, '(')) depth++;
    else if (kp_is(p, ')')) depth--;
    if (p->tok.kind == KILN_TOK_EOF) return kp_fail(p, "expected ')' to close the location");
    kp_next(p);
  } while (depth > 0 && !p->err);
  return !p->err;
}

/* Line and column of an op, advancing a cursor instead of rescanning the source. */
static void op_location(kiln_parser *p, size_t offset, kiln_loc *out) {
  if (offset < p->line_offset) {
    p->line_offset = p->line_start = 0;
    p->line = p->src->first_line;
  }
  const char *t = p->src->text;
  for (size_t i = p->line_offset; i < offset; i++)
    if (t[i] == '\n') p->line++, p->line_start = i + 1;
  p->line_offset = offset;
  out->line = p->line;
  out->col = (uint32_t)(offset - p->line_start + 1);
}

static kiln_op *build_op(kiln_parser *p, const kiln_op_state *st) {
  kiln_op *op = kiln_op_new(p->m, st->kind, st->num_operands, st->num_results, st->num_attrs, st->num_regions);
  if (!op) {
    kp_oom(p);
    return NULL;
  }
  op->loc = st->loc;
  if (st->num_operands) memcpy(op->operands, st->operands, sizeof *op->operands * (size_t)st->num_operands);
  if (st->num_attrs) memcpy(op->attrs, st->attrs, sizeof *op->attrs * (size_t)st->num_attrs);
  for (int32_t i = 0; i < st->num_results; i++) op->results[i].type = st->result_types[i];
  for (int32_t i = 0; i < st->num_regions; i++) {
    kiln_block *b = st->regions[i];
    while (b) {
      kiln_block *next = b->next;
      b->next = NULL;
      kiln_region_append(&op->regions[i], b);
      for (kiln_op *o = b->first; o; o = o->next) /* ops the pretty form implies (`applies`) */
        if (!o->loc.line) o->loc = op->loc;
      b = next;
    }
  }
  return op;
}

static bool resolve_name(kiln_parser *p, const char *s, size_t n, kiln_op_kind *kind) {
  if (kiln_op_lookup(s, n, kind)) return true;
  /* func's ops are the default dialect inside functions; builtin's at top level. */
  char buf[64];
  const char *prefix = (n == 6 && !memcmp(s, "module", 6)) ? "builtin." : "func.";
  if (n + 9 < sizeof buf) {
    snprintf(buf, sizeof buf, "%s%.*s", prefix, (int)n, s);
    if (kiln_op_lookup(buf, strlen(buf), kind) && (*kind == KILN_OP_FUNC_RETURN || *kind == KILN_OP_CALL || *kind == KILN_OP_MODULE))
      return true;
  }
  return false;
}

static bool parse_op(kiln_parser *p, kiln_block *block) {
  if (!kp_enter(p)) return false;
  kiln_op_state st = {0};
  st.offset = p->tok.offset;
  op_location(p, st.offset, &st.loc); /* ops start in increasing order: the cursor only moves on */
  /* results: %a, %b:2 = */
  kiln_tok *lhs = NULL;
  int32_t *lhs_counts = NULL, nl = 0, cap_l = 0, ncount = 0, cap_c = 0, total = 0;
  bool ok = true;
  if (p->tok.kind == KILN_TOK_PERCENT) {
    do {
      if (p->tok.kind != KILN_TOK_PERCENT) return kp_fail(p, "expected a result name");
      kiln_tok *slot = kp_push(p, (void **)&lhs, &nl, &cap_l, sizeof *slot);
      int32_t *cnt = kp_push(p, (void **)&lhs_counts, &ncount, &cap_c, sizeof *cnt);
      if (!slot || !cnt) return false;
      *slot = p->tok;
      *cnt = 1;
      kp_next(p);
      if (kp_accept(p, ':')) {
        uint64_t c;
        if (!kp_parse_u64(p, &c)) return false;
        if (c == 0 || c > 100000) return kp_fail_at(p, slot->offset, "result count must be between 1 and 100000");
        *cnt = (int32_t)c;
      }
      total += *cnt;
      if (total > 100000) return kp_fail_at(p, slot->offset, "too many results");
    } while (kp_accept(p, ','));
    if (!kp_expect(p, '=', "after the result names")) return false;
  }
  size_t name_at = p->tok.offset;
  if (p->tok.kind == KILN_TOK_STRING) {
    if (!kiln_op_lookup(p->tok.text + 1, p->tok.len - 2, &st.kind))
      return kp_fail_at(p, name_at, "unknown operation %.*s", (int)p->tok.len, p->tok.text);
    kp_next(p);
    ok = parse_generic(p, &st);
  } else if (p->tok.kind == KILN_TOK_IDENT) {
    if (!resolve_name(p, p->tok.text, p->tok.len, &st.kind))
      return kp_fail_at(p, name_at, "unknown operation '%.*s'", (int)p->tok.len, p->tok.text);
    if (kiln_op_format(st.kind) == KILN_FMT_GENERIC)
      return kp_fail_at(p, name_at, "'%s' has no pretty form: write it in the generic form \"%s\"(...)",
                        kiln_op_name(st.kind), kiln_op_name(st.kind));
    kp_next(p);
    if (st.kind == KILN_OP_FUNC) ok = kp_parse_func(p, &st);
    else if (st.kind == KILN_OP_MODULE) ok = kp_parse_module_op(p, &st);
    else ok = kp_parse_pretty(p, &st, nl ? total : -1);
  } else {
    return kp_fail(p, "expected an operation");
  }
  if (!ok) return false;
  if (!kp_skip_location(p)) return false;
  if (nl && total != st.num_results)
    return kp_fail_at(p, st.offset, "'%s' has %d results but %d are named", kiln_op_name(st.kind),
                      (int)st.num_results, (int)total);
  if (!nl && st.num_results && st.kind != KILN_OP_MODULE)
    return kp_fail_at(p, st.offset, "the %d results of '%s' are not named", (int)st.num_results, kiln_op_name(st.kind));
  kiln_op *op = build_op(p, &st);
  if (!op) return false;
  int32_t r = 0;
  for (int32_t i = 0; i < nl; i++) {
    if (!kp_define(p, &lhs[i], &op->results[r], lhs_counts[i])) return false;
    r += lhs_counts[i];
  }
  kiln_block_append(block, op);
  kp_leave(p);
  return true;
}

/* ------------------------------------------------------------------ module */

/* `#name = attr`, `#name = loc(...)` or `!name = type` at top level. */
static bool parse_alias(kiln_parser *p) {
  kiln_tok name = p->tok;
  bool is_type = name.kind == KILN_TOK_BANG;
  kp_next(p);
  if (!kp_expect(p, '=', "after an alias name")) return false;
  if (!is_type && kp_is_ident(p, "loc")) return kp_skip_location(p); /* locations are not kept */
  kiln_alias *slot = kp_push(p, (void **)&p->aliases, &p->num_aliases, &p->cap_aliases, sizeof *slot);
  if (!slot) return false;
  for (int32_t i = 0; i + 1 < p->num_aliases; i++)
    if (p->aliases[i].len == name.len && !memcmp(p->aliases[i].name, name.text, name.len))
      return kp_fail_at(p, name.offset, "redefinition of alias '%.*s'", (int)name.len, name.text);
  slot->name = name.text;
  slot->len = name.len;
  slot->attr = NULL;
  slot->type = NULL;
  /* measure the definition: its depth and its size with the aliases it uses expanded */
  int saved_max = p->max_depth;
  uint64_t saved_cost = p->alias_cost;
  size_t at = p->tok.offset;
  p->max_depth = p->depth;
  p->alias_cost = 0;
  /* parsed into locals: parsers may store a value before its parts are parsed, and a use
   * of the alias inside its own definition must not find it (it would make a cycle) */
  const kiln_type *type = NULL;
  const kiln_attr *attr = NULL;
  bool ok = is_type ? kp_parse_type(p, &type) : kp_parse_attr(p, &attr);
  slot = &p->aliases[p->num_aliases - 1];
  if (ok) slot->type = type, slot->attr = attr;
  slot->depth = p->max_depth - p->depth;
  slot->weight = (uint64_t)(p->tok.offset - at) + p->alias_cost;
  p->max_depth = saved_max;
  p->alias_cost = saved_cost;
  return ok;
}

/* Aliases are shared, not copied, but the printer writes them out in full, and the printed
 * text must parse back: a use counts with the definition's depth and expanded size, so a
 * chain of aliases can neither nest deeper than KILN_PARSE_MAX_DEPTH nor grow the module
 * exponentially. */
#define KILN_ALIAS_EXPANSION_LIMIT ((uint64_t)1 << 24)

bool kp_use_alias(kiln_parser *p, const kiln_alias *a) {
  /* the use sits at a level the type or attribute parser has entered already, which the
   * definition's depth counts too */
  int depth = p->depth - 1 + a->depth;
  if (depth > KILN_PARSE_MAX_DEPTH)
    return kp_fail(p, "nesting is deeper than %d levels once alias '%.*s' is expanded", KILN_PARSE_MAX_DEPTH,
                   (int)a->len, a->name);
  if (depth > p->max_depth) p->max_depth = depth;
  p->alias_cost += a->weight;
  if (p->alias_cost > KILN_ALIAS_EXPANSION_LIMIT)
    return kp_fail(p, "aliases expand to more than %llu bytes", (unsigned long long)KILN_ALIAS_EXPANSION_LIMIT);
  return true;
}

const kiln_alias *kp_find_alias(const kiln_parser *p, const kiln_tok *name) {
  for (int32_t i = 0; i < p->num_aliases; i++)
    if (p->aliases[i].len == name->len && !memcmp(p->aliases[i].name, name->text, name->len)) return &p->aliases[i];
  return NULL;
}

kiln_status kiln_parse_module(const kiln_source *src, kiln_module **out) {
  *out = NULL;
  kiln_parser p = {0};
  p.src = src;
  p.line = src->first_line;
  p.m = kiln_module_create(src->name);
  if (!p.m) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_lexer_init(&p.lx, src);
  kp_next(&p);
  kiln_block *top = kiln_op_block(p.m->op, 0);
  while (!p.err && p.tok.kind != KILN_TOK_EOF) {
    if (p.tok.kind == KILN_TOK_HASH || p.tok.kind == KILN_TOK_BANG) parse_alias(&p);
    else parse_op(&p, top);
  }
  if (!p.err && top->first && top->first == top->last && top->first->kind == KILN_OP_MODULE) {
    p.m->op = top->first; /* an explicit module is the module */
    p.m->op->parent = NULL;
  }
  free(p.defs);
  free(p.slots);
  if (p.err) {
    kiln_module_destroy(p.m);
    return p.err;
  }
  *out = p.m;
  return NULL;
}
