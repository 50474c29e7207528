/* Bytecode primitives: located errors, bytes, prefix varints, sections, strings. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bytecode/reader.h"

bool kb_fail(kb_reader *r, size_t offset, const char *fmt, ...) {
  if (r->err) return false;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->err = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: byte %zu: %s", r->name, offset, msg);
  return false;
}

bool kb_oom(kb_reader *r) {
  if (!r->err) r->err = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "%s: out of memory", r->name);
  return false;
}

bool kb_byte(kb_reader *r, kb_span *s, const char *what, uint8_t *out) {
  if (s->pos >= s->end) return kb_fail(r, s->pos, "expected %s, found the end of its section", what);
  *out = r->data[s->pos++];
  return true;
}

/* PrefixVarInt: the number of trailing zero bits of the first byte is the number of bytes
 * that follow; a first byte of zero is followed by 8 raw bytes. */
bool kb_varint(kb_reader *r, kb_span *s, const char *what, uint64_t *out) {
  size_t at = s->pos;
  uint8_t first;
  if (!kb_byte(r, s, what, &first)) return false;
  if (first & 1) {
    *out = first >> 1;
    return true;
  }
  int extra = first ? __builtin_ctz(first) : 8;
  if (s->end - s->pos < (size_t)extra) return kb_fail(r, at, "expected %s, found a truncated varint", what);
  uint64_t v = 0;
  for (int i = 0; i < extra; i++) v |= (uint64_t)r->data[s->pos + (size_t)i] << (8 * i);
  s->pos += (size_t)extra;
  if (first) v = (v << 8 | first) >> (extra + 1);
  *out = v;
  return true;
}

bool kb_svarint(kb_reader *r, kb_span *s, const char *what, int64_t *out) {
  uint64_t u;
  if (!kb_varint(r, s, what, &u)) return false;
  *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
  return true;
}

bool kb_count(kb_reader *r, kb_span *s, const char *what, uint64_t *out) {
  size_t at = s->pos;
  if (!kb_varint(r, s, what, out)) return false;
  if (*out > s->end - s->pos) return kb_fail(r, at, "expected %s, found %llu (more than the %zu bytes left)", what, (unsigned long long)*out, s->end - s->pos);
  return true;
}

bool kb_bytes(kb_reader *r, kb_span *s, size_t n, const char *what, kb_span *out) {
  if (n > s->end - s->pos) return kb_fail(r, s->pos, "expected %s of %zu bytes, found %zu", what, n, s->end - s->pos);
  out->pos = s->pos;
  out->end = s->pos + n;
  s->pos += n;
  return true;
}

bool kb_section(kb_reader *r, kb_span *s, uint8_t *out_id, kb_span *out) {
  uint8_t id;
  uint64_t len;
  if (!kb_byte(r, s, "a section id", &id) || !kb_varint(r, s, "a section length", &len)) return false;
  if (id & 0x80) {
    uint64_t align;
    size_t at = s->pos;
    if (!kb_varint(r, s, "a section alignment", &align)) return false;
    if (align == 0 || align > 4096 || (align & (align - 1))) return kb_fail(r, at, "expected a power-of-two alignment, found %llu", (unsigned long long)align);
    /* padding is computed against the start of the artifact */
    while (s->pos % align) {
      uint8_t pad;
      if (!kb_byte(r, s, "alignment padding", &pad)) return false;
      if (pad != 0xCB) return kb_fail(r, s->pos - 1, "expected alignment padding 0xCB, found 0x%02X", pad);
    }
  }
  *out_id = id & 0x7F;
  if (len > s->end - s->pos) return kb_fail(r, s->pos, "expected a section of %llu bytes, found %zu", (unsigned long long)len, s->end - s->pos);
  return kb_bytes(r, s, (size_t)len, "a section", out);
}

bool kb_string(kb_reader *r, kb_span *s, const char *what, kb_span *out) {
  size_t at = s->pos;
  uint64_t i;
  if (!kb_varint(r, s, what, &i)) return false;
  if (i >= r->num_strings) return kb_fail(r, at, "expected %s (a string index below %llu), found %llu", what, (unsigned long long)r->num_strings, (unsigned long long)i);
  *out = r->strings[i];
  return true;
}

char *kb_strdup(kb_reader *r, kb_span str) {
  char *p = kiln_arena_strndup(r->m->arena, (const char *)r->data + str.pos, str.end - str.pos);
  if (!p) kb_oom(r);
  return p;
}

void *kb_scratch(kb_reader *r, size_t n, size_t size) {
  void *p = kiln_arena_alloc_array(r->scratch, n ? n : 1, size);
  if (!p) kb_oom(r);
  return p;
}

void *kb_alloc(kb_reader *r, size_t n, size_t size) {
  void *p = kiln_arena_alloc_array(r->m->arena, n ? n : 1, size);
  if (!p) kb_oom(r);
  return p;
}

bool kb_enter(kb_reader *r, size_t offset) {
  if (++r->depth > KILN_BYTECODE_MAX_DEPTH) return kb_fail(r, offset, "nesting is deeper than %d levels", KILN_BYTECODE_MAX_DEPTH);
  return true;
}

void kb_leave(kb_reader *r) { r->depth--; }
