/* Bytecode reader internals shared by stream.c (primitives), container.c (header and
 * sections), attrs.c (attributes and types), ir.c (the IR section), vhlo.c (VHLO ops
 * to Kiln ops) and sdy.c (Shardy ops and attributes). Every function returns false after recording the first error in r->err;
 * callers stop at once. Offsets are absolute byte offsets into the artifact. */
#ifndef KILN_BYTECODE_READER_H
#define KILN_BYTECODE_READER_H

#include "bytecode/bytecode.h"

/* A byte range of the artifact being read: pos advances up to end. */
typedef struct kb_span {
  size_t pos, end;
} kb_span;

/* One entry of the attribute or type table: a slice of the AttrType section. */
typedef struct kb_entry {
  size_t off, len;
  uint32_t dialect;
  bool custom;        /* dialect encoding (else MLIR assembly text) */
  uint8_t state;      /* 0 not read, 1 being read (a cycle if met again), 2 read */
  const void *value;  /* kiln_attr or kiln_type once read */
  uint8_t sdy_code;   /* an sdy attribute once read: its code (sdy.c) */
  const char *sdy_body; /* ... and its text without "#sdy." and the mnemonic, else NULL */
} kb_entry;

typedef enum kb_dialect { KB_DIALECT_OTHER, KB_DIALECT_BUILTIN, KB_DIALECT_VHLO, KB_DIALECT_SDY } kb_dialect;

/* An op name of the dialect section. */
typedef struct kb_opname {
  uint32_t dialect;
  const char *name;   /* "add_v1", "module", ... (NUL-terminated, scratch arena) */
  int vhlo;           /* index in the VHLO op table, -1 if none */
  int sdy;            /* index in the sdy op table, -1 if none */
} kb_opname;

typedef struct kb_reader {
  const uint8_t *data;
  size_t len;
  const char *name;
  kiln_module *m;
  kiln_arena *scratch; /* tables of this read, freed at the end */
  kiln_status err;
  int depth;
  uint64_t version;
  uint64_t num_strings;
  kb_span *strings;    /* each without its NUL */
  uint64_t num_dialects;
  kb_dialect *dialects;
  const char **dialect_names;
  uint64_t num_opnames;
  kb_opname *opnames;
  uint64_t num_attrs, num_types;
  kb_entry *attrs, *types;
  kb_span props_section;
  uint64_t num_props;
  kb_span *props;
  kb_span ir;
  /* value scopes (ir.c): values of the open regions, base of the innermost isolated one */
  kiln_value **values;
  size_t num_values, cap_values, scope_base;
  const char ***vhlo_names; /* attribute names per VHLO op, split on first use (vhlo.c) */
  size_t sdy_text;          /* bytes of sdy attribute text made so far (sdy.c) */
} kb_reader;

/* stream.c: errors and primitives. */
bool kb_fail(kb_reader *r, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool kb_oom(kb_reader *r);
bool kb_byte(kb_reader *r, kb_span *s, const char *what, uint8_t *out);
bool kb_varint(kb_reader *r, kb_span *s, const char *what, uint64_t *out);
bool kb_svarint(kb_reader *r, kb_span *s, const char *what, int64_t *out);
/* A count of items that take at least one byte each: no more than the bytes left. */
bool kb_count(kb_reader *r, kb_span *s, const char *what, uint64_t *out);
bool kb_bytes(kb_reader *r, kb_span *s, size_t n, const char *what, kb_span *out);
/* A section header: id (without the alignment bit) and its contents. */
bool kb_section(kb_reader *r, kb_span *s, uint8_t *out_id, kb_span *out);
/* A string reference (index into the string section). */
bool kb_string(kb_reader *r, kb_span *s, const char *what, kb_span *out);
char *kb_strdup(kb_reader *r, kb_span str);
/* n * size bytes of the scratch or module arena, or an error. */
void *kb_scratch(kb_reader *r, size_t n, size_t size);
void *kb_alloc(kb_reader *r, size_t n, size_t size);
bool kb_enter(kb_reader *r, size_t offset);
void kb_leave(kb_reader *r);

/* attrs.c: attributes and types by index, read on first use and kept. */
bool kb_attr(kb_reader *r, uint64_t index, size_t at, const kiln_attr **out);
bool kb_type(kb_reader *r, uint64_t index, size_t at, const kiln_type **out);
bool kb_attr_ref(kb_reader *r, kb_span *s, const char *what, const kiln_attr **out);
bool kb_type_ref(kb_reader *r, kb_span *s, const char *what, const kiln_type **out);
/* FileLineColLoc (possibly inside a NameLoc, CallSiteLoc or FusedLoc): line and column,
 * zero when the location has none. Never fails on a location of another shape. */
kiln_loc kb_location(kb_reader *r, uint64_t index);

/* ir.c: the IR section into r->m. */
bool kb_read_ir(kb_reader *r);

/* vhlo.c: the VHLO op table and the conversion of an op's attributes. */
int kb_vhlo_lookup(const char *name);
/* Attribute names of VHLO op `vhlo` in property order; *out_count of them (NULL after an
 * error). */
const char *const *kb_vhlo_attr_names(kb_reader *r, int vhlo, int32_t *out_count);
/* The Kiln op of a VHLO op (parent_kind decides return_v1); false if it has none. */
bool kb_vhlo_kind(int vhlo, kiln_op_kind parent_kind, kiln_op_kind *out);
/* Turns the op's VHLO attributes (in, n of them; values as read) into the attributes
 * the text parser gives the same StableHLO op (out, *out_n of them, at most n + 2). */
bool kb_vhlo_attrs(kb_reader *r, int vhlo, size_t at, const kiln_named_attr *in, int32_t n,
                   kiln_named_attr *out, int32_t *out_n);

/* sdy.c: the sdy ops Kiln reads and the dialect's own attribute encoding
 * (shardy/dialect/sdy/ir/bytecode.td). */
int kb_sdy_lookup(const char *name);
kiln_op_kind kb_sdy_kind(int sdy);
/* Inherent attribute names of sdy op `sdy` in property order (sorted by name). */
const char *const *kb_sdy_attr_names(int sdy, int32_t *out_count);
/* Checks property i of sdy op `sdy`, attribute `index` (read), is of the kind the op needs. */
bool kb_sdy_check_property(kb_reader *r, int sdy, int32_t i, uint64_t index, size_t at);
/* Attribute `index` of the sdy dialect, s after its code: a KILN_ATTR_OPAQUE attribute
 * whose text is MLIR's printing of it (`#sdy.sharding<@mesh, [{"x"}, {}]>`). */
const kiln_attr *kb_sdy_attr(kb_reader *r, kb_span *s, uint64_t code, uint64_t index, size_t at);

#endif
