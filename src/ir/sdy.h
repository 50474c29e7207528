/* The Shardy (sdy) attributes as Kiln keeps them: OPAQUE attributes holding MLIR's generic
 * spelling (`#sdy.sharding<@mesh, [{"x"}, {}]>`). The sdy ops' pretty forms write each one
 * without its wrapper (`<@mesh, [{"x"}, {}]>`); this file is the one place that knows the
 * wrappers, so the parser, the printer and the verifier agree on them. The text helpers
 * read only what they are given (no NUL needed) and are thread-safe. */
#ifndef KILN_IR_SDY_H
#define KILN_IR_SDY_H

#include "ir/ir.h"

typedef enum kiln_sdy_form {
  KILN_SDY_MESH,        /* #sdy.mesh<["x"=2], device_ids=[...]>       pretty <["x"=2], ...> */
  KILN_SDY_SHARDING,    /* #sdy.sharding<@mesh, [{"x"}, {}]>          pretty <@mesh, [...]> */
  KILN_SDY_PER_VALUE,   /* #sdy.sharding_per_value<[<@m, [...]>, ...]> pretty [<@m, [...]>, ...] */
  KILN_SDY_MANUAL_AXES, /* #sdy<manual_axes{"x", "y"}>                pretty {"x", "y"} */
} kiln_sdy_form;

/* generic spelling = prefix + pretty text + suffix; the pretty text opens with `open`. */
typedef struct kiln_sdy_wrap {
  const char *prefix, *suffix;
  char open;
} kiln_sdy_wrap;

const kiln_sdy_wrap *kiln_sdy_wrapper(kiln_sdy_form form);

/* The pretty text of a (a view into a->opaque): true when a is an OPAQUE attribute of the
 * given form whose text between the wrapper is exactly one bracket group. */
bool kiln_sdy_pretty(const kiln_attr *a, kiln_sdy_form form, const char **out, size_t *out_len);

/* Length of the bracket group that opens at s[0] ('<', '(', '[' or '{'; quoted strings
 * skipped), or 0 when s[0] opens none or the group does not close within n bytes. */
size_t kiln_sdy_group_len(const char *s, size_t n);

/* The comma-separated entries directly inside the group s (n bytes, ending with its
 * closing bracket), one per call: start with *pos = 0; each call sets *entry / *entry_len
 * to the next entry without surrounding spaces and returns false after the last one (at
 * once for "[]" or when s is not one whole group). Linear over all calls. */
bool kiln_sdy_next_entry(const char *s, size_t n, size_t *pos, const char **entry, size_t *entry_len);

/* How many entries kiln_sdy_next_entry yields ("[<a>, <b>]": 2, "[]": 0), or -1 when s is
 * not one whole group. */
int64_t kiln_sdy_count_entries(const char *s, size_t n);

/* The number of dimension shardings of a sharding's pretty text `<MESH, [{...}, ...], ...>`,
 * or -1 when it is not of that shape. */
int64_t kiln_sdy_sharding_rank(const char *s, size_t n);

/* The mesh of a sharding's pretty text, as written: `@mesh` or an inline `mesh<[...]>`
 * (false when s is not a group). */
bool kiln_sdy_sharding_mesh(const char *s, size_t n, const char **mesh, size_t *mesh_len);

/* The number of axes of a mesh's pretty text `<["x"=2, ...], device_ids=[...]>`, or -1
 * when it is not of that shape. */
int64_t kiln_sdy_mesh_axes(const char *s, size_t n);

#endif
