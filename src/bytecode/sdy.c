/* Shardy (sdy) in portable artifacts: the sdy ops Kiln reads (sdy.mesh,
 * sdy.sharding_constraint, sdy.manual_computation, sdy.return) and the dialect's own
 * attribute encoding (shardy/dialect/sdy/ir/bytecode.td and bytecode.cc): a code, then
 * fields that are attribute references, string references, signed varints, lists
 * (a count, then items), raw bytes (Bool), optional attributes (0, or index << 1 | 1)
 * and optional varints (value << 1 | present). Every sdy attribute becomes a
 * KILN_ATTR_OPAQUE attribute whose text is MLIR's printing of it, e.g.
 * `#sdy.sharding<@mesh, [{"x", ?}p0, {}], replicated={"y"}>`; the text a nested
 * attribute contributes to its parent (its "body": `{"x", ?}p0` for a dimension sharding)
 * is kept in its kb_entry. All text counts against a budget proportional to the artifact,
 * so references repeated within references cannot blow the text up. */
#include <stdio.h>
#include <string.h>

#include "bytecode/reader.h"

enum { /* sdy attribute codes */
  S_MANUAL_AXES = 0, S_MESH_AXIS = 1, S_MESH = 2, S_SUB_AXIS = 3, S_AXIS_REF = 4, S_DIM = 5,
  S_SHARDING = 6, S_PER_VALUE = 7, S_DIM_MAPPING = 8, S_TENSOR_MAPPING = 9, S_RULE = 10,
  S_SHARDING_V2 = 15, S_PER_VALUE_V2 = 16, S_SHARDING_V3 = 17, S_CODES = 18,
};

#define BIT(code) (1u << (code))
#define SHARDINGS (BIT(S_SHARDING) | BIT(S_SHARDING_V2) | BIT(S_SHARDING_V3))
#define PER_VALUES (BIT(S_PER_VALUE) | BIT(S_PER_VALUE_V2))

/* Attribute mnemonics by code (NULL: a code Kiln does not read). */
static const char *const k_mnemonics[S_CODES] = {
    [S_MANUAL_AXES] = "manual_axes", [S_MESH_AXIS] = "mesh_axis", [S_MESH] = "mesh",
    [S_SUB_AXIS] = "sub_axis_info", [S_AXIS_REF] = "axis_ref", [S_DIM] = "dimension_sharding",
    [S_SHARDING] = "sharding", [S_PER_VALUE] = "sharding_per_value", [S_DIM_MAPPING] = "dim_mapping",
    [S_TENSOR_MAPPING] = "tensor_mapping", [S_RULE] = "op_sharding_rule", [S_SHARDING_V2] = "sharding",
    [S_PER_VALUE_V2] = "sharding_per_value", [S_SHARDING_V3] = "sharding",
};

/* Text of all sdy attributes of one artifact: at most this many bytes per artifact byte. */
enum { TEXT_PER_BYTE = 64, TEXT_BASE = 65536 };

/* ------------------------------------------------------------------ ops */

typedef struct sdy_op {
  const char *name;
  kiln_op_kind kind;
  int32_t num_attrs;
  const char *attrs[3]; /* in property order (sorted by name) */
  uint32_t codes[3];    /* the sdy attribute codes each may have; 0: a builtin string */
  const char *what[3];
} sdy_op;

static const sdy_op k_ops[] = {
    {"mesh", KILN_OP_SDY_MESH, 2, {"mesh", "sym_name"}, {BIT(S_MESH), 0}, {"a mesh", "a symbol name"}},
    {"sharding_constraint", KILN_OP_SDY_SHARDING_CONSTRAINT, 1, {"sharding"}, {SHARDINGS}, {"a tensor sharding"}},
    {"manual_computation", KILN_OP_SDY_MANUAL_COMPUTATION, 3, {"in_shardings", "manual_axes", "out_shardings"},
     {PER_VALUES, BIT(S_MANUAL_AXES), PER_VALUES}, {"shardings per value", "manual axes", "shardings per value"}},
    {"return", KILN_OP_SDY_RETURN, 0, {NULL}, {0}, {NULL}},
};

int kb_sdy_lookup(const char *name) {
  for (size_t i = 0; i < sizeof k_ops / sizeof k_ops[0]; i++)
    if (!strcmp(k_ops[i].name, name)) return (int)i;
  return -1;
}

kiln_op_kind kb_sdy_kind(int sdy) { return k_ops[sdy].kind; }

const char *const *kb_sdy_attr_names(int sdy, int32_t *out_count) {
  *out_count = k_ops[sdy].num_attrs;
  return k_ops[sdy].attrs;
}

/* Attribute `index` (read) is an sdy attribute of one of `codes`; *body its body. */
static bool is_kind(kb_reader *r, uint64_t index, uint32_t codes, const char *what, size_t at, const char **body) {
  const kb_entry *e = &r->attrs[index];
  if (!e->sdy_body || !(codes & BIT(e->sdy_code)))
    return kb_fail(r, at, "expected %s, found attribute %llu of another kind", what, (unsigned long long)index);
  if (body) *body = e->sdy_body;
  return true;
}

bool kb_sdy_check_property(kb_reader *r, int sdy, int32_t i, uint64_t index, size_t at) {
  const sdy_op *op = &k_ops[sdy];
  char what[128];
  snprintf(what, sizeof what, "%s as '%s' of 'sdy.%s'", op->what[i], op->attrs[i], op->name);
  if (op->codes[i]) return is_kind(r, index, op->codes[i], what, at, NULL);
  const kiln_attr *a = r->attrs[index].value;
  if (a->kind != KILN_ATTR_STRING) return kb_fail(r, at, "expected %s", what);
  return true;
}

/* ------------------------------------------------------------------ text */

/* A growing text in the scratch arena; every byte put counts against the read's budget. */
typedef struct text {
  kb_reader *r;
  size_t at; /* the attribute's offset, for the budget's error */
  char *p;
  size_t len, cap;
} text;

static bool put(text *t, const char *s, size_t n) {
  kb_reader *r = t->r;
  size_t limit = r->len > (SIZE_MAX - TEXT_BASE) / TEXT_PER_BYTE ? SIZE_MAX : r->len * TEXT_PER_BYTE + TEXT_BASE;
  if (r->err) return false;
  if (n > limit - r->sdy_text)
    return kb_fail(r, t->at, "expected sdy attributes of at most %zu bytes of text in all (%d per byte of the artifact)", limit, TEXT_PER_BYTE);
  r->sdy_text += n;
  if (n >= t->cap - t->len) {
    size_t cap = (t->len + n + 1) * 2 < 64 ? 64 : (t->len + n + 1) * 2;
    char *grown = kb_scratch(r, cap, 1);
    if (!grown) return false;
    if (t->len) memcpy(grown, t->p, t->len);
    t->p = grown;
    t->cap = cap;
  }
  memcpy(t->p + t->len, s, n);
  t->len += n;
  t->p[t->len] = 0;
  return true;
}

static bool put_s(text *t, const char *s) { return put(t, s, strlen(s)); }

static bool put_int(text *t, int64_t v) {
  char buf[24];
  return put(t, buf, (size_t)snprintf(buf, sizeof buf, "%lld", (long long)v));
}

/* "..." as llvm::printEscapedString writes it: `\\`, printable ASCII but `"`, else \XX. */
static bool put_quoted(text *t, const char *s, size_t n) {
  static const char hex[] = "0123456789ABCDEF";
  if (!put(t, "\"", 1)) return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char esc[3] = {'\\', hex[c >> 4], hex[c & 15]};
    bool ok = c == '\\' ? put(t, "\\\\", 2) : c >= 0x20 && c < 0x7F && c != '"' ? put(t, (const char *)&c, 1) : put(t, esc, 3);
    if (!ok) return false;
  }
  return put(t, "\"", 1);
}

/* @name, quoted unless a bare identifier (MLIR's printSymbolReference). */
static bool put_symbol(text *t, const char *name) {
  bool bare = (name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_';
  for (const char *p = name + 1; bare && *p; p++)
    bare = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '$' || *p == '.';
  return put(t, "@", 1) && (bare ? put_s(t, name) : put_quoted(t, name, strlen(name)));
}

/* Factor f of a sharding rule: i, j, ..., z, then z_1, z_2, ... (factorSymbolString). */
static bool put_factor(text *t, int64_t f) {
  char c = (char)('i' + f);
  return f <= 'z' - 'i' ? put(t, &c, 1) : put_s(t, "z_") && put_int(t, f - ('z' - 'i'));
}

/* ------------------------------------------------------------------ fields */

static bool string_field(kb_reader *r, kb_span *s, text *t, const char *what) {
  kb_span str;
  return kb_string(r, s, what, &str) && put_quoted(t, (const char *)r->data + str.pos, str.end - str.pos);
}

static bool svarint_field(kb_reader *r, kb_span *s, text *t, const char *what) {
  int64_t v;
  return kb_svarint(r, s, what, &v) && put_int(t, v);
}

/* A list of references to sdy attributes: what it holds, in the singular and plural. */
typedef struct list_kind {
  uint32_t codes;
  const char *one, *count;
} list_kind;

static const list_kind L_MESH_AXES = {BIT(S_MESH_AXIS), "a mesh axis", "the number of mesh axes"};
static const list_kind L_AXES = {BIT(S_AXIS_REF), "an axis reference", "the number of axis references"};
static const list_kind L_DIMS = {BIT(S_DIM), "a dimension sharding", "the number of dimension shardings"};
static const list_kind L_SHARDINGS = {SHARDINGS, "a tensor sharding", "the number of tensor shardings"};
static const list_kind L_DIM_MAPPINGS = {BIT(S_DIM_MAPPING), "a dimension mapping", "the number of dimension mappings"};
static const list_kind L_MAPPINGS = {BIT(S_TENSOR_MAPPING), "a tensor mapping", "the number of tensor mappings"};

/* The bodies of a list of references, between open and close and separated by ", ";
 * nothing at all for an empty list when omit_empty. *out_n: the count (may be NULL). */
static bool ref_list(kb_reader *r, kb_span *s, text *t, const list_kind *k, const char *open, const char *close,
                     bool omit_empty, uint64_t *out_n) {
  uint64_t n;
  if (!kb_count(r, s, k->count, &n)) return false;
  if (out_n) *out_n = n;
  if (omit_empty && !n) return true;
  if (!put_s(t, open)) return false;
  for (uint64_t i = 0; i < n; i++) {
    size_t at = s->pos;
    uint64_t index;
    const kiln_attr *a;
    const char *body = NULL;
    if (!kb_varint(r, s, k->one, &index) || !kb_attr(r, index, at, &a) || !is_kind(r, index, k->codes, k->one, at, &body) ||
        (i && !put(t, ", ", 2)) || !put_s(t, body))
      return false;
  }
  return put_s(t, close);
}

/* Array<SignedVarIntList>: a count, then signed varints (into the scratch arena); factor
 * indices (factors) must not be negative. */
static bool int_list(kb_reader *r, kb_span *s, const char *what, bool factors, int64_t *out_n, int64_t **out) {
  uint64_t n;
  if (!kb_count(r, s, what, &n) || !(*out = kb_scratch(r, (size_t)n, sizeof **out))) return false;
  for (uint64_t i = 0; i < n; i++) {
    size_t at = s->pos;
    if (!kb_svarint(r, s, what, &(*out)[i])) return false;
    if (factors && (*out)[i] < 0) return kb_fail(r, at, "expected a factor index of 0 or more in %s, found %lld", what, (long long)(*out)[i]);
  }
  *out_n = (int64_t)n;
  return true;
}

/* ------------------------------------------------------------------ attributes */

/* ManualAxesAttr [StringAttr]: {"x", "y"} */
static bool manual_axes(kb_reader *r, kb_span *s, text *t) {
  uint64_t n;
  if (!kb_count(r, s, "the number of manual axes", &n) || !put(t, "{", 1)) return false;
  for (uint64_t i = 0; i < n; i++) {
    size_t at = s->pos;
    const kiln_attr *a;
    if (!kb_attr_ref(r, s, "a manual axis", &a)) return false;
    if (a->kind != KILN_ATTR_STRING) return kb_fail(r, at, "expected a string as manual axis");
    if ((i && !put(t, ", ", 2)) || !put_quoted(t, a->str.data, a->str.len)) return false;
  }
  return put(t, "}", 1);
}

/* MeshAttr {axes [MeshAxisAttr], device_ids [svarint]}: <["x"=2], device_ids=[1, 0]> */
static bool mesh(kb_reader *r, kb_span *s, text *t) {
  int64_t n, *ids;
  if (!put(t, "<", 1) || !ref_list(r, s, t, &L_MESH_AXES, "[", "]", false, NULL) || !int_list(r, s, "device ids", false, &n, &ids)) return false;
  if (n && !put_s(t, ", device_ids=[")) return false;
  for (int64_t i = 0; i < n; i++)
    if ((i && !put(t, ", ", 2)) || !put_int(t, ids[i])) return false;
  return (!n || put(t, "]", 1)) && put(t, ">", 1);
}

/* AxisRefAttr {name: string, optional SubAxisInfoAttr}: "x" or "x":(1)2 */
static bool axis_ref(kb_reader *r, kb_span *s, text *t) {
  uint64_t flag;
  const kiln_attr *a;
  const char *sub = NULL;
  if (!string_field(r, s, t, "an axis name")) return false;
  size_t at = s->pos;
  if (!kb_varint(r, s, "an optional sub-axis", &flag)) return false;
  if (!(flag & 1)) return true;
  return kb_attr(r, flag >> 1, at, &a) && is_kind(r, flag >> 1, BIT(S_SUB_AXIS), "a sub-axis", at, &sub) && put(t, ":", 1) && put_s(t, sub);
}

/* DimensionShardingAttr {axes [AxisRefAttr], is_closed: byte, priority: optional
 * varint}: {"x"}, {"x", ?}, {?}, {}p1 */
static bool dim_sharding(kb_reader *r, kb_span *s, text *t) {
  uint64_t n, priority;
  uint8_t closed;
  if (!ref_list(r, s, t, &L_AXES, "{", "", false, &n) || !kb_byte(r, s, "a dimension's closed flag", &closed) ||
      !kb_varint(r, s, "an optional priority", &priority))
    return false;
  if ((!closed && !put_s(t, n ? ", ?" : "?")) || !put(t, "}", 1)) return false;
  return !(priority & 1) || (put(t, "p", 1) && put_int(t, (int64_t)(priority >> 1)));
}

/* The mesh of a tensor sharding: a FlatSymbolRefAttr (@mesh) or an inline MeshAttr. */
static bool mesh_or_ref(kb_reader *r, kb_span *s, text *t) {
  size_t at = s->pos;
  uint64_t index;
  const kiln_attr *a;
  if (!kb_varint(r, s, "a mesh or mesh name", &index) || !kb_attr(r, index, at, &a)) return false;
  if (a->kind == KILN_ATTR_SYMBOL && !strstr(a->symbol, "::@")) return put_symbol(t, a->symbol);
  const char *body = NULL;
  return is_kind(r, index, BIT(S_MESH), "a mesh or mesh name", at, &body) && put_s(t, "mesh") && put_s(t, body);
}

/* TensorShardingAttr {mesh_or_ref, dims [DimensionShardingAttr], replicated [AxisRefAttr],
 * v2: unreduced [AxisRefAttr], v3: reduction: svarint}:
 * <@mesh, [{"x"}, {}], replicated={"y"}, unreduced=max{"z"}> */
static bool sharding(kb_reader *r, kb_span *s, text *t, uint64_t code) {
  static const char *const reductions[] = {"", "max", "min"};
  if (!put(t, "<", 1) || !mesh_or_ref(r, s, t) || !ref_list(r, s, t, &L_DIMS, ", [", "]", false, NULL) ||
      !ref_list(r, s, t, &L_AXES, ", replicated={", "}", true, NULL))
    return false;
  if (code == S_SHARDING) return put(t, ">", 1);
  text unreduced = {.r = r, .at = t->at};
  uint64_t n;
  int64_t op = 0;
  size_t at;
  if (!ref_list(r, s, &unreduced, &L_AXES, "{", "}", true, &n)) return false;
  at = s->pos;
  if (code == S_SHARDING_V3 && !kb_svarint(r, s, "a reduction", &op)) return false;
  if (op < 0 || op > 2) return kb_fail(r, at, "expected a reduction of 0 to 2 (sum, max, min), found %lld", (long long)op);
  if (n && (!put_s(t, ", unreduced=") || !put_s(t, reductions[op]) || !put_s(t, unreduced.p))) return false;
  return put(t, ">", 1);
}

/* DimMappingAttr [svarint]: ij (the factors of one dimension) */
static bool dim_mapping(kb_reader *r, kb_span *s, text *t) {
  int64_t n, *f;
  if (!int_list(r, s, "factor indices", true, &n, &f)) return false;
  for (int64_t i = 0; i < n; i++)
    if (!put_factor(t, f[i])) return false;
  return true;
}

/* A list of factors of a sharding rule: ` name={i, j}`, nothing when empty. */
static bool factor_group(kb_reader *r, kb_span *s, text *t, const char *name) {
  int64_t n, *f;
  if (!int_list(r, s, name, true, &n, &f)) return false;
  if (!n) return true;
  if (!put(t, " ", 1) || !put_s(t, name) || !put_s(t, "={")) return false;
  for (int64_t i = 0; i < n; i++)
    if ((i && !put(t, ", ", 2)) || !put_factor(t, f[i])) return false;
  return put(t, "}", 1);
}

/* OpShardingRuleAttr {factor sizes, operand and result mappings [TensorMappingAttr],
 * reduction, need_replication, permutation, blocked_propagation factors, is_custom: byte}:
 * <([i, j], [j, k])->([i, k]) {i=8, j=4, k=2} reduction={j}, custom> */
static bool rule(kb_reader *r, kb_span *s, text *t) {
  static const char *const groups[] = {"reduction", "need_replication", "permutation", "blocked_propagation"};
  int64_t n, *sizes;
  uint8_t custom;
  if (!int_list(r, s, "factor sizes", false, &n, &sizes) || !put_s(t, "<(") || !ref_list(r, s, t, &L_MAPPINGS, "", "", false, NULL) ||
      !put_s(t, ")->(") || !ref_list(r, s, t, &L_MAPPINGS, "", ")", false, NULL) || (n && !put_s(t, " {")))
    return false;
  for (int64_t i = 0; i < n; i++)
    if ((i && !put(t, ", ", 2)) || !put_factor(t, i) || !put(t, "=", 1) || !put_int(t, sizes[i])) return false;
  if (n && !put(t, "}", 1)) return false;
  for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
    if (!factor_group(r, s, t, groups[g])) return false;
  if (!kb_byte(r, s, "a custom-rule flag", &custom)) return false;
  return (!custom || put_s(t, ", custom")) && put(t, ">", 1);
}

/* The body of an attribute of `code`, read from s into t. */
static bool body(kb_reader *r, kb_span *s, text *t, uint64_t code) {
  switch (code) {
    case S_MANUAL_AXES: return manual_axes(r, s, t);
    case S_MESH_AXIS: return string_field(r, s, t, "a mesh axis name") && put(t, "=", 1) && svarint_field(r, s, t, "a mesh axis size");
    case S_MESH: return mesh(r, s, t);
    case S_SUB_AXIS:
      return put(t, "(", 1) && svarint_field(r, s, t, "a sub-axis pre-size") && put(t, ")", 1) && svarint_field(r, s, t, "a sub-axis size");
    case S_AXIS_REF: return axis_ref(r, s, t);
    case S_DIM: return dim_sharding(r, s, t);
    case S_SHARDING:
    case S_SHARDING_V2:
    case S_SHARDING_V3: return sharding(r, s, t, code);
    case S_PER_VALUE:
    case S_PER_VALUE_V2: return ref_list(r, s, t, &L_SHARDINGS, "<[", "]>", false, NULL);
    case S_DIM_MAPPING: return dim_mapping(r, s, t);
    case S_TENSOR_MAPPING: return ref_list(r, s, t, &L_DIM_MAPPINGS, "[", "]", false, NULL);
    case S_RULE: return rule(r, s, t);
    default: return false;
  }
}

/* MLIR's printDialectSymbol: #sdy.mnemonic<...> when the mnemonic (an identifier) and
 * the body are an identifier, possibly followed by <...>; #sdy<mnemonic body> otherwise. */
static bool pretty(const char *body) {
  size_t n = strlen(body);
  while (*body && ((*body >= 'a' && *body <= 'z') || (*body >= 'A' && *body <= 'Z') || (*body >= '0' && *body <= '9') || *body == '_' ||
                   *body == '.'))
    body++, n--;
  return !n || (body[0] == '<' && body[n - 1] == '>');
}

const kiln_attr *kb_sdy_attr(kb_reader *r, kb_span *s, uint64_t code, uint64_t index, size_t at) {
  text t = {.r = r, .at = at}, full = {.r = r, .at = at};
  if (code >= S_CODES || !k_mnemonics[code]) {
    if (!r->err)
      r->err = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: byte %zu: sdy attribute code %llu is not read (Kiln reads codes 0 to 10 and 15 to 17)",
                           r->name, at, (unsigned long long)code);
    return NULL;
  }
  const char *mnemonic = k_mnemonics[code];
  if (!body(r, s, &t, code) || (!t.p && !put(&t, "", 0))) return NULL;
  bool dotted = pretty(t.p);
  if (!put_s(&full, dotted ? "#sdy." : "#sdy<") || !put_s(&full, mnemonic) || !put(&full, t.p, t.len) || (!dotted && !put(&full, ">", 1)))
    return NULL;
  kiln_attr *a = kiln_attr_new(r->m, KILN_ATTR_OPAQUE);
  if (!a || !(a->opaque = kiln_arena_strndup(r->m->arena, full.p, full.len))) return kb_oom(r), NULL;
  r->attrs[index].sdy_code = (uint8_t)code;
  r->attrs[index].sdy_body = t.p;
  return a;
}
