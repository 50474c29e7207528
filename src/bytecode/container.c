/* The bytecode container: magic, version, producer, the sections and their tables
 * (strings, dialects and op names, the attribute/type offset table, properties), then the
 * IR section and the verifier. */
#include <stdlib.h>
#include <string.h>

#include "bytecode/reader.h"

enum {
  SEC_STRING = 0,
  SEC_DIALECT = 1,
  SEC_ATTR_TYPE = 2,
  SEC_ATTR_TYPE_OFFSET = 3,
  SEC_IR = 4,
  SEC_RESOURCE = 5,
  SEC_RESOURCE_OFFSET = 6,
  SEC_DIALECT_VERSIONS = 7,
  SEC_PROPERTIES = 8,
  SEC_COUNT = 9,
};

/* Bytecode versions read: 0 (StableHLO 0.9) to 6 (0.15 and later). */
enum { MAX_VERSION = 6 };

bool kiln_bytecode_sniff(const void *data, size_t len) {
  return data && len >= 4 && !memcmp(data, "ML\xEFR", 4);
}

static bool read_strings(kb_reader *r, kb_span s) {
  if (!kb_count(r, &s, "the number of strings", &r->num_strings) ||
      !(r->strings = kb_scratch(r, (size_t)r->num_strings, sizeof *r->strings)))
    return false;
  /* lengths are written last string first; each counts its NUL; the data is in order */
  for (uint64_t i = r->num_strings; i-- > 0;) {
    uint64_t n;
    size_t at = s.pos;
    if (!kb_varint(r, &s, "a string length", &n)) return false;
    if (n == 0 || n > s.end - s.pos) return kb_fail(r, at, "expected a string length of 1 to %zu, found %llu", s.end - s.pos, (unsigned long long)n);
    r->strings[i].end = (size_t)n;
  }
  size_t offset = s.pos;
  for (uint64_t i = 0; i < r->num_strings; i++) {
    size_t n = r->strings[i].end;
    if (n > s.end - offset) return kb_fail(r, offset, "expected %zu bytes of string %llu, found %zu", n, (unsigned long long)i, s.end - offset);
    r->strings[i] = (kb_span){offset, offset + n - 1};
    offset += n;
    if (r->data[r->strings[i].end] != 0) return kb_fail(r, r->strings[i].end, "expected the NUL that ends string %llu", (unsigned long long)i);
  }
  if (offset != s.end) return kb_fail(r, offset, "expected the end of the string section, found %zu more bytes", s.end - offset);
  return true;
}

static bool span_is(const kb_reader *r, kb_span s, const char *text) {
  size_t n = strlen(text);
  return s.end - s.pos == n && !memcmp(r->data + s.pos, text, n);
}

static bool read_dialects(kb_reader *r, kb_span s) {
  if (!kb_count(r, &s, "the number of dialects", &r->num_dialects) ||
      !(r->dialects = kb_scratch(r, (size_t)r->num_dialects, sizeof *r->dialects)) ||
      !(r->dialect_names = kb_scratch(r, (size_t)r->num_dialects, sizeof *r->dialect_names)))
    return false;
  for (uint64_t i = 0; i < r->num_dialects; i++) {
    uint64_t v;
    size_t at = s.pos;
    if (!kb_varint(r, &s, "a dialect name", &v)) return false;
    /* from version 1 on, the low bit says a version blob follows; version 0 has none */
    uint64_t index = r->version >= 1 ? v >> 1 : v;
    if (index >= r->num_strings) return kb_fail(r, at, "expected a dialect name (a string index), found %llu", (unsigned long long)index);
    kb_span name = r->strings[index];
    if (r->version >= 1 && (v & 1)) { /* VHLO artifacts carry their version in the producer */
      uint8_t id;
      kb_span blob;
      at = s.pos;
      if (!kb_section(r, &s, &id, &blob)) return false;
      if (id != SEC_DIALECT_VERSIONS) return kb_fail(r, at, "expected a dialect version section (id 7), found id %u", id);
    }
    r->dialects[i] = span_is(r, name, "builtin") ? KB_DIALECT_BUILTIN
                     : span_is(r, name, "vhlo")  ? KB_DIALECT_VHLO
                     : span_is(r, name, "sdy")   ? KB_DIALECT_SDY
                                                 : KB_DIALECT_OTHER;
    if (!(r->dialect_names[i] = kb_strdup(r, name))) return false;
  }
  uint64_t total = 0;
  if (r->version >= 4 && !kb_count(r, &s, "the number of op names", &total)) return false;
  if (!(r->opnames = kb_scratch(r, r->version >= 4 ? (size_t)total : s.end - s.pos, sizeof *r->opnames))) return false;
  while (s.pos < s.end) {
    uint64_t d, n;
    size_t at = s.pos;
    if (!kb_varint(r, &s, "an op name's dialect", &d)) return false;
    if (d >= r->num_dialects) return kb_fail(r, at, "expected a dialect index below %llu, found %llu", (unsigned long long)r->num_dialects, (unsigned long long)d);
    if (!kb_count(r, &s, "the number of op names of a dialect", &n)) return false;
    for (uint64_t k = 0; k < n; k++) {
      uint64_t v;
      at = s.pos;
      if (!kb_varint(r, &s, "an op name", &v)) return false;
      if (r->version >= 5) v >>= 1; /* the low bit says whether the op was registered */
      if (v >= r->num_strings) return kb_fail(r, at, "expected an op name (a string index), found %llu", (unsigned long long)v);
      if (r->version >= 4 ? r->num_opnames >= total : r->num_opnames >= (uint64_t)(s.end)) return kb_fail(r, at, "expected at most %llu op names", (unsigned long long)total);
      kb_opname *o = &r->opnames[r->num_opnames++];
      o->dialect = (uint32_t)d;
      if (!(o->name = kb_strdup(r, r->strings[v]))) return false;
      o->vhlo = r->dialects[d] == KB_DIALECT_VHLO ? kb_vhlo_lookup(o->name) : -1;
      o->sdy = r->dialects[d] == KB_DIALECT_SDY ? kb_sdy_lookup(o->name) : -1;
    }
  }
  if (r->version >= 4 && r->num_opnames != total) return kb_fail(r, s.pos, "expected %llu op names, found %llu", (unsigned long long)total, (unsigned long long)r->num_opnames);
  return true;
}

static bool read_entries(kb_reader *r, kb_span *s, kb_entry *entries, uint64_t count, size_t *offset, size_t data_len) {
  uint64_t done = 0;
  while (done < count) {
    uint64_t d, n;
    size_t at = s->pos;
    if (!kb_varint(r, s, "an attribute/type group's dialect", &d)) return false;
    if (d >= r->num_dialects) return kb_fail(r, at, "expected a dialect index below %llu, found %llu", (unsigned long long)r->num_dialects, (unsigned long long)d);
    at = s->pos;
    if (!kb_varint(r, s, "the size of an attribute/type group", &n)) return false;
    if (n > count - done) return kb_fail(r, at, "expected at most %llu more entries, found %llu", (unsigned long long)(count - done), (unsigned long long)n);
    for (uint64_t k = 0; k < n; k++, done++) {
      uint64_t v;
      at = s->pos;
      if (!kb_varint(r, s, "an attribute/type size", &v)) return false;
      if ((v >> 1) > data_len - *offset) return kb_fail(r, at, "expected an entry within the attribute/type section, found %llu bytes past its end", (unsigned long long)((v >> 1) - (data_len - *offset)));
      entries[done] = (kb_entry){.off = *offset, .len = (size_t)(v >> 1), .dialect = (uint32_t)d, .custom = v & 1};
      *offset += (size_t)(v >> 1);
    }
  }
  return true;
}

static bool read_offsets(kb_reader *r, kb_span s, kb_span data) {
  if (!kb_count(r, &s, "the number of attributes", &r->num_attrs) || !kb_count(r, &s, "the number of types", &r->num_types) ||
      !(r->attrs = kb_scratch(r, (size_t)r->num_attrs, sizeof *r->attrs)) ||
      !(r->types = kb_scratch(r, (size_t)r->num_types, sizeof *r->types)))
    return false;
  size_t offset = 0, len = data.end - data.pos;
  if (!read_entries(r, &s, r->attrs, r->num_attrs, &offset, len) || !read_entries(r, &s, r->types, r->num_types, &offset, len)) return false;
  for (uint64_t i = 0; i < r->num_attrs; i++) r->attrs[i].off += data.pos;
  for (uint64_t i = 0; i < r->num_types; i++) r->types[i].off += data.pos;
  return true;
}

static bool read_props(kb_reader *r, kb_span s) {
  if (!kb_count(r, &s, "the number of properties", &r->num_props) || !(r->props = kb_scratch(r, (size_t)r->num_props, sizeof *r->props))) return false;
  for (uint64_t i = 0; i < r->num_props; i++) {
    uint64_t n;
    if (!kb_count(r, &s, "the size of a property blob", &n) || !kb_bytes(r, &s, (size_t)n, "a property blob", &r->props[i])) return false;
  }
  return true;
}

static bool read_artifact(kb_reader *r) {
  kb_span s = {0, r->len}, sec[SEC_COUNT];
  bool have[SEC_COUNT] = {false};
  kb_span magic, producer = {0, 0};
  if (!kb_bytes(r, &s, 4, "the magic \"ML\\xEFR\"", &magic)) return false;
  if (!kiln_bytecode_sniff(r->data, r->len)) return kb_fail(r, 0, "expected the magic \"ML\\xEFR\" of MLIR bytecode");
  size_t at = s.pos;
  if (!kb_varint(r, &s, "the bytecode version", &r->version)) return false;
  const uint8_t *nul = memchr(r->data + s.pos, 0, s.end - s.pos);
  if (!nul) return kb_fail(r, s.pos, "expected a NUL-terminated producer string");
  producer = (kb_span){s.pos, (size_t)(nul - r->data)};
  s.pos = producer.end + 1;
  if (r->version > MAX_VERSION)
    return kb_fail(r, at, "expected a bytecode version of at most %d (StableHLO 0.9.0 and later), found %llu", MAX_VERSION, (unsigned long long)r->version);
  if (producer.end - producer.pos < 11 || memcmp(r->data + producer.pos, "StableHLO_v", 11))
    return kb_fail(r, producer.pos, "expected the producer \"StableHLO_v<version>\" of a StableHLO portable artifact");
  while (s.pos < s.end) {
    uint8_t id;
    kb_span body;
    at = s.pos;
    if (!kb_section(r, &s, &id, &body)) return false;
    if (id >= SEC_COUNT || id == SEC_DIALECT_VERSIONS) return kb_fail(r, at, "expected a section id of 0 to 8 (7 only nested), found %u", id);
    if (have[id]) return kb_fail(r, at, "expected each section once, found section %u again", id);
    have[id] = true;
    sec[id] = body;
  }
  static const uint8_t required[] = {SEC_STRING, SEC_DIALECT, SEC_ATTR_TYPE, SEC_ATTR_TYPE_OFFSET, SEC_IR};
  for (size_t i = 0; i < sizeof required; i++)
    if (!have[required[i]]) return kb_fail(r, s.pos, "expected section %u, found the end of the artifact", required[i]);
  if (r->version >= 5 && !have[SEC_PROPERTIES]) return kb_fail(r, s.pos, "expected the properties section (8), found the end of the artifact");
  if (!read_strings(r, sec[SEC_STRING]) || (have[SEC_PROPERTIES] && !read_props(r, sec[SEC_PROPERTIES])) ||
      !read_dialects(r, sec[SEC_DIALECT]) || !read_offsets(r, sec[SEC_ATTR_TYPE_OFFSET], sec[SEC_ATTR_TYPE]))
    return false;
  r->ir = sec[SEC_IR];
  return kb_read_ir(r);
}

kiln_status kiln_bytecode_read(const uint8_t *data, size_t len, const char *name, kiln_module **out_module) {
  *out_module = NULL;
  kb_reader r = {.data = data, .len = len, .name = name ? name : "<bytecode>"};
  if (!data) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: no bytes", r.name);
  r.m = kiln_module_create(r.name);
  r.scratch = kiln_arena_create(0);
  if (!r.m || !r.scratch) {
    kiln_module_destroy(r.m);
    kiln_arena_destroy(r.scratch);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", r.name);
  }
  r.m->name = r.m->name ? r.m->name : r.name;
  read_artifact(&r);
  free(r.values);
  kiln_arena_destroy(r.scratch);
  if (!r.err) r.err = kiln_verify_module(r.m, NULL);
  if (r.err) {
    kiln_module_destroy(r.m);
    return r.err;
  }
  *out_module = r.m;
  return NULL;
}
