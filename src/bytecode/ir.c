/* The IR section: blocks, ops and regions into Kiln IR, with MLIR bytecode's value
 * numbering (one array per isolated scope; a region reserves slots for the values it
 * defines; operands are indices into the innermost isolated scope). Use-list orders are
 * skipped: Kiln keeps no use lists. */
#include <stdlib.h>
#include <string.h>

#include "bytecode/reader.h"

enum { OP_ATTRS = 0x01, OP_RESULTS = 0x02, OP_OPERANDS = 0x04, OP_SUCCESSORS = 0x08, OP_REGIONS = 0x10, OP_USE_LISTS = 0x20, OP_PROPS = 0x40 };
enum { MAX_OP_ATTRS = 64 };

/* The value slots of the region being read: [next, end) are still to be defined. */
typedef struct region_state {
  size_t next, end;
} region_state;

static bool read_region(kb_reader *r, kb_span *s, kiln_region *region, kiln_op *parent);
static bool read_op(kb_reader *r, kb_span *s, region_state *st, kiln_block *block, kiln_op *parent);

static bool define(kb_reader *r, region_state *st, kiln_value *v, size_t at) {
  if (st->next >= st->end) return kb_fail(r, at, "expected no more values than the region declares");
  r->values[st->next++] = v;
  return true;
}

static bool skip_use_lists(kb_reader *r, kb_span *s, uint64_t num_values) {
  uint64_t n = 1;
  if (num_values > 1 && !kb_count(r, s, "the number of use-list orders", &n)) return false;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t index, count, skip;
    if (num_values > 1 && !kb_varint(r, s, "a use-list value index", &index)) return false;
    if (!kb_count(r, s, "the size of a use-list order", &count)) return false;
    for (uint64_t k = 0; k < count >> 1; k++)
      if (!kb_varint(r, s, "a use-list index", &skip)) return false;
  }
  return true;
}

static bool read_block(kb_reader *r, kb_span *s, region_state *st, kiln_region *region, kiln_op *parent) {
  uint64_t header, num_ops, num_args = 0;
  size_t at = s->pos;
  if (!kb_varint(r, s, "a block header", &header)) return false;
  num_ops = header >> 1;
  if (num_ops > s->end - s->pos) return kb_fail(r, at, "expected a block of at most %zu ops, found %llu", s->end - s->pos, (unsigned long long)num_ops);
  if ((header & 1) && !kb_count(r, s, "the number of block arguments", &num_args)) return false;
  kiln_block *b = kiln_block_new(r->m, (int32_t)num_args);
  if (!b) return kb_oom(r);
  for (uint64_t i = 0; i < num_args; i++) {
    uint64_t v, loc;
    at = s->pos;
    if (!kb_varint(r, s, "a block argument", &v)) return false;
    bool has_loc = r->version < 4 || (v & 1);
    if (r->version >= 4) v >>= 1;
    if (!kb_type(r, v, at, &b->args[i].type) || (has_loc && !kb_varint(r, s, "a block argument's location", &loc)) ||
        !define(r, st, &b->args[i], at))
      return false;
  }
  if ((header & 1) && r->version >= 3) {
    uint8_t has_use_lists;
    if (!kb_byte(r, s, "a block's use-list flag", &has_use_lists) || (has_use_lists && !skip_use_lists(r, s, num_args))) return false;
  }
  kiln_region_append(region, b);
  for (uint64_t i = 0; i < num_ops; i++) {
    if (!read_op(r, s, st, b, parent)) return false;
  }
  return true;
}

static bool read_region(kb_reader *r, kb_span *s, kiln_region *region, kiln_op *parent) {
  uint64_t num_blocks, num_values;
  size_t at = s->pos;
  if (!kb_enter(r, at) || !kb_count(r, s, "the number of blocks", &num_blocks)) return false;
  if (num_blocks == 0) {
    kb_leave(r);
    return true;
  }
  if (!kb_count(r, s, "the number of values of a region", &num_values)) return false;
  size_t start = r->num_values, need = start + (size_t)num_values;
  if (need > r->cap_values) {
    size_t cap = need < 64 ? 64 : need * 2;
    kiln_value **grown = realloc(r->values, cap * sizeof *grown);
    if (!grown) return kb_oom(r);
    r->values = grown;
    r->cap_values = cap;
  }
  if (num_values) memset(r->values + start, 0, (size_t)num_values * sizeof *r->values);
  r->num_values = need;
  region_state st = {start, need};
  for (uint64_t i = 0; i < num_blocks; i++)
    if (!read_block(r, s, &st, region, parent)) return false;
  r->num_values = start;
  kb_leave(r);
  return true;
}

/* An op's regions; isolated ones open a value scope of their own, and from bytecode
 * version 2 on they sit in a nested IR section. */
static bool read_regions(kb_reader *r, kb_span *s, kiln_op *op, bool isolated) {
  kb_span sub, *from = s;
  size_t at = s->pos, base = r->scope_base;
  if (isolated && r->version >= 2) {
    uint8_t id;
    if (!kb_section(r, s, &id, &sub)) return false;
    if (id != 4) return kb_fail(r, at, "expected the nested IR section (id 4) of isolated regions, found id %u", id);
    from = &sub;
  }
  if (isolated) r->scope_base = r->num_values;
  for (int32_t i = 0; i < op->num_regions; i++)
    if (!read_region(r, from, &op->regions[i], op)) return false;
  r->scope_base = base;
  if (from != s && sub.pos != sub.end) return kb_fail(r, sub.pos, "expected the end of the isolated regions, found %zu more bytes", sub.end - sub.pos);
  return true;
}

/* The op's attributes: its properties (names from the VHLO or sdy op table, or
 * builtin.module's optional sym_name and sym_visibility) then its attribute dictionary. */
static bool gather_attrs(kb_reader *r, const kb_opname *name, bool has_props, uint64_t props, const kiln_attr *dict,
                         kiln_named_attr *out, int32_t *n, size_t at) {
  *n = 0;
  static const char *const module_names[] = {"sym_name", "sym_visibility"};
  const char *const *names = module_names;
  int32_t count = 2;
  bool optional = name->vhlo < 0 && name->sdy < 0;
  if (name->vhlo >= 0 && !(names = kb_vhlo_attr_names(r, name->vhlo, &count))) return false;
  if (name->sdy >= 0) names = kb_sdy_attr_names(name->sdy, &count);
  if (!has_props && name->sdy >= 0 && count) return kb_fail(r, at, "expected the properties of 'sdy.%s'", name->name);
  if (has_props) {
    if (props >= r->num_props) return kb_fail(r, at, "expected a properties index below %llu, found %llu", (unsigned long long)r->num_props, (unsigned long long)props);
    kb_span p = r->props[props];
    for (int32_t i = 0; i < count; i++) {
      uint64_t v;
      size_t vat = p.pos;
      if (!kb_varint(r, &p, "a property", &v)) return false;
      if (optional && !(v & 1)) continue;
      if (optional) v >>= 1;
      out[*n].name = names[i];
      if (!kb_attr(r, v, vat, &out[*n].value) || (name->sdy >= 0 && !kb_sdy_check_property(r, name->sdy, i, v, vat))) return false;
      (*n)++;
    }
    if (p.pos != p.end) return kb_fail(r, p.pos, "expected the end of the properties of '%s', found %zu more bytes", name->name, p.end - p.pos);
  }
  for (int32_t i = 0; dict && i < dict->dict.count; i++) {
    if (*n >= MAX_OP_ATTRS) return kb_fail(r, at, "expected at most %d attributes on an op", MAX_OP_ATTRS);
    out[(*n)++] = dict->dict.entries[i];
  }
  return true;
}

/* What an op becomes: a Kiln op of some kind, or (*identity) its operands passed through. */
static bool classify(kb_reader *r, const kb_opname *name, kiln_op *parent, size_t at, bool *identity, kiln_op_kind *kind) {
  const char *dialect = r->dialect_names[name->dialect];
  kb_dialect d = r->dialects[name->dialect];
  *identity = false;
  if (d == KB_DIALECT_VHLO) {
    if (name->vhlo < 0 || !kb_vhlo_kind(name->vhlo, parent ? parent->kind : KILN_OP_MODULE, kind))
      return kb_fail(r, at, "expected a VHLO op of StableHLO 0.9.0 to 1.20.0, found 'vhlo.%s'", name->name);
    return true;
  }
  if (d == KB_DIALECT_BUILTIN && !strcmp(name->name, "module")) {
    *kind = KILN_OP_MODULE;
    return true;
  }
  if (d == KB_DIALECT_BUILTIN && !strcmp(name->name, "unrealized_conversion_cast")) {
    *identity = true; /* vhlo tensor <-> builtin tensor around sdy.manual_computation */
    return true;
  }
  if (name->sdy >= 0) {
    *kind = kb_sdy_kind(name->sdy);
    return true;
  }
  if (!r->err) r->err = KILN_STATUS(KILN_STATUS_UNIMPLEMENTED, "%s: byte %zu: unsupported op '%s.%s'", r->name, at, dialect, name->name);
  return false;
}

static bool read_op(kb_reader *r, kb_span *s, region_state *st, kiln_block *block, kiln_op *parent) {
  size_t at = s->pos;
  uint64_t name_index, loc, props = 0, num_results = 0, num_operands = 0, regions = 0;
  uint8_t mask;
  const kiln_attr *dict = NULL;
  if (!kb_varint(r, s, "an op name", &name_index)) return false;
  if (name_index >= r->num_opnames) return kb_fail(r, at, "expected an op name index below %llu, found %llu", (unsigned long long)r->num_opnames, (unsigned long long)name_index);
  const kb_opname *name = &r->opnames[name_index];
  size_t loc_at = s->pos + 1;
  if (!kb_byte(r, s, "an op's encoding mask", &mask) || !kb_varint(r, s, "an op's location", &loc)) return false;
  if (loc >= r->num_attrs) return kb_fail(r, loc_at, "expected a location (an attribute index below %llu), found %llu", (unsigned long long)r->num_attrs, (unsigned long long)loc);
  size_t dict_at = s->pos;
  if ((mask & OP_ATTRS) && !kb_attr_ref(r, s, "an op's attribute dictionary", &dict)) return false;
  if (dict && dict->kind != KILN_ATTR_DICT) return kb_fail(r, dict_at, "expected a dictionary of attributes");
  if ((mask & OP_PROPS) && !kb_varint(r, s, "an op's properties", &props)) return false;
  const kiln_type **types = NULL;
  kiln_value **operands = NULL;
  if ((mask & OP_RESULTS) && (!kb_count(r, s, "the number of results", &num_results) || !(types = kb_scratch(r, (size_t)num_results, sizeof *types))))
    return false;
  for (uint64_t i = 0; i < num_results; i++)
    if (!kb_type_ref(r, s, "a result type", &types[i])) return false;
  if ((mask & OP_OPERANDS) && (!kb_count(r, s, "the number of operands", &num_operands) || !(operands = kb_scratch(r, (size_t)num_operands, sizeof *operands))))
    return false;
  for (uint64_t i = 0; i < num_operands; i++) {
    uint64_t id;
    size_t vat = s->pos;
    if (!kb_varint(r, s, "an operand", &id)) return false;
    if (id >= r->num_values - r->scope_base || !r->values[r->scope_base + id])
      return kb_fail(r, vat, "expected an operand defined before its use, found value %llu", (unsigned long long)id);
    operands[i] = r->values[r->scope_base + id];
  }
  if (mask & OP_SUCCESSORS) return kb_fail(r, s->pos, "expected an op without successors (StableHLO has no branches), found '%s'", name->name);
  if ((mask & OP_USE_LISTS) && !skip_use_lists(r, s, num_results)) return false;
  size_t regions_at = s->pos;
  if ((mask & OP_REGIONS) && !kb_varint(r, s, "an op's region count", &regions)) return false;
  if ((regions >> 1) > s->end - s->pos) return kb_fail(r, regions_at, "expected at most %zu regions, found %llu", s->end - s->pos, (unsigned long long)(regions >> 1));

  bool identity;
  kiln_op_kind kind = KILN_OP_MODULE;
  if (!classify(r, name, parent, at, &identity, &kind)) return false;
  if (identity) {
    if (num_results != num_operands) return kb_fail(r, at, "expected as many results as operands for '%s'", name->name);
    for (uint64_t i = 0; i < num_results; i++) {
      if (!kiln_type_equal(types[i], operands[i]->type)) return kb_fail(r, at, "expected '%s' between equal types", name->name);
      if (!define(r, st, operands[i], at)) return false;
    }
    if (regions >> 1) return kb_fail(r, at, "expected no regions on '%s'", name->name);
    return true;
  }
  kiln_named_attr raw[MAX_OP_ATTRS], conv[MAX_OP_ATTRS + 2];
  int32_t num_raw, num_attrs;
  if (!gather_attrs(r, name, (mask & OP_PROPS) != 0, props, dict, raw, &num_raw, at)) return false;
  if (name->vhlo >= 0) {
    if (!kb_vhlo_attrs(r, name->vhlo, at, raw, num_raw, conv, &num_attrs)) return false;
  } else {
    memcpy(conv, raw, (size_t)num_raw * sizeof *raw);
    num_attrs = num_raw;
  }
  kiln_op *op = kiln_op_new(r->m, kind, (int32_t)num_operands, (int32_t)num_results, num_attrs, (int32_t)(regions >> 1));
  if (!op) return kb_oom(r);
  if (num_operands) memcpy(op->operands, operands, (size_t)num_operands * sizeof *operands);
  if (num_attrs) memcpy(op->attrs, conv, (size_t)num_attrs * sizeof *conv);
  op->loc = kb_location(r, loc);
  for (uint64_t i = 0; i < num_results; i++) {
    op->results[i].type = types[i];
    if (!define(r, st, &op->results[i], at)) return false;
  }
  kiln_block_append(block, op);
  return read_regions(r, s, op, regions & 1);
}

bool kb_read_ir(kb_reader *r) {
  kb_span s = r->ir;
  region_state st = {0, 0};
  kiln_region top = {0};
  if (!read_block(r, &s, &st, &top, NULL)) return false;
  if (s.pos != s.end) return kb_fail(r, s.pos, "expected the end of the IR section, found %zu more bytes", s.end - s.pos);
  kiln_op *module = top.first ? top.first->first : NULL;
  if (!module || module->next || module->kind != KILN_OP_MODULE || module->num_regions != 1 || !kiln_op_block(module, 0))
    return kb_fail(r, r->ir.pos, "expected one builtin.module with a body at the top level");
  module->parent = NULL;
  r->m->op = module;
  return true;
}
