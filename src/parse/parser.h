/* Parser internals shared by parse.c (structure, types, values), parse_attr.c
 * (attributes), parse_ops.c (pretty op forms) and parse_sdy.c (the Shardy ops). Every
 * function returns false after recording the first error in p->err; callers stop at once. */
#ifndef KILN_PARSE_PARSER_H
#define KILN_PARSE_PARSER_H

#include "ir/op.h"
#include "parse/lexer.h"
#include "parse/parse.h"

typedef struct kiln_scope_entry {
  const char *name; /* points into the source */
  size_t len;
  kiln_value *values; /* a result group: %0:2 binds two values */
  int32_t count;
  int32_t shadowed; /* previous binding of the same name, or -1 */
} kiln_scope_entry;

typedef struct kiln_alias {
  const char *name; /* "#name" or "!name", pointing into the source */
  size_t len;
  const kiln_attr *attr;
  const kiln_type *type;
  int depth;       /* nesting depth of the definition, aliases it uses included */
  uint64_t weight; /* bytes of its definition's text once aliases it uses are expanded */
} kiln_alias;

typedef struct kiln_parser {
  kiln_lexer lx;
  kiln_tok tok; /* the current token */
  const kiln_source *src;
  kiln_module *m;
  kiln_status err;
  int depth;
  /* SSA names in scope: entries in definition order plus an open-addressing index from
   * name to the newest entry. */
  kiln_scope_entry *defs;
  int32_t num_defs, cap_defs;
  int32_t scope_start; /* first entry of the innermost region's scope */
  int32_t visible_start; /* first entry visible from here (functions and modules are
                            isolated from above) */
  struct kiln_scope_slot {
    const char *name; /* NULL: empty slot */
    size_t len;
    int32_t live; /* the newest live entry with this name, or -1 */
  } *slots;
  size_t num_slots, used_slots;
  kiln_alias *aliases; /* top-level #x = ... / !x = ... definitions */
  int32_t num_aliases, cap_aliases;
  int max_depth;       /* deepest nesting seen (aliases count with their depth) */
  uint64_t alias_cost; /* bytes that the alias uses so far add once expanded */
  /* line/column cursor: offsets of ops are asked in increasing order */
  size_t line_offset, line_start;
  uint32_t line;
} kiln_parser;

/* Tokens. */
void kp_next(kiln_parser *p);
bool kp_is(const kiln_parser *p, char punct);
bool kp_accept(kiln_parser *p, char punct);
bool kp_expect(kiln_parser *p, char punct, const char *context);
bool kp_is_ident(const kiln_parser *p, const char *word);
bool kp_accept_ident(kiln_parser *p, const char *word);
bool kp_expect_ident(kiln_parser *p, const char *word);
bool kp_fail(kiln_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool kp_fail_at(kiln_parser *p, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool kp_oom(kiln_parser *p);
bool kp_enter(kiln_parser *p); /* nesting guard; pair with kp_leave */
/* Copies the balanced bracket group that opens at the current token ('<', '(', '[' or
 * '{'; quoted strings skipped) verbatim: the source text from offset `start` to its closing
 * bracket becomes *out (in the arena). Leaves the token after it. */
bool kp_scan_balanced(kiln_parser *p, size_t start, const char **out);
/* Skips a trailing location `loc(...)` if there is one (locations are not kept). */
bool kp_skip_location(kiln_parser *p);
/* The alias a #name / !name token refers to, or NULL. */
const kiln_alias *kp_find_alias(const kiln_parser *p, const kiln_tok *name);
/* Accounts for a use of alias a at the current nesting (false: too deep or too large once
 * expanded; the printer writes aliases out in full). */
bool kp_use_alias(kiln_parser *p, const kiln_alias *a);
void kp_leave(kiln_parser *p);
void *kp_alloc(kiln_parser *p, size_t n, size_t size); /* arena array or error */
/* Grows an arena vector *items of *count elements with capacity *cap by one slot. */
void *kp_push(kiln_parser *p, void **items, int32_t *count, int32_t *cap, size_t size);
char *kp_strdup(kiln_parser *p, const char *s, size_t n);

/* Numbers: an INT token (decimal or hex) into a magnitude. */
bool kp_parse_u64(kiln_parser *p, uint64_t *out);
/* Optional '-' then an integer: into int64 (range-checked). */
bool kp_parse_i64(kiln_parser *p, int64_t *out);

/* Types. */
bool kp_parse_type(kiln_parser *p, const kiln_type **out);
bool kp_at_type(const kiln_parser *p);
/* (T, ...) -> R | (R, ...): a function type. */
bool kp_parse_function_type(kiln_parser *p, const kiln_type **out);
/* T, T, ... (stops before a token that cannot start a type). */
bool kp_parse_type_list(kiln_parser *p, const kiln_type ***out, int32_t *count);
/* `(T, ...)` or a single T: the result list after an arrow. */
bool kp_parse_result_types(kiln_parser *p, const kiln_type ***out, int32_t *count);

/* Attributes (parse_attr.c). */
bool kp_parse_attr(kiln_parser *p, const kiln_attr **out);
/* { name = attr, name, ... } into a list. */
bool kp_parse_attr_dict(kiln_parser *p, kiln_named_attr **out, int32_t *count);
/* The body of dense<...> then `: type` (or the given type when type is non-NULL). */
bool kp_parse_dense(kiln_parser *p, const kiln_type *type, const kiln_attr **out);
/* A bare integer list [1, 2] into array<i64: ...>. */
bool kp_parse_i64_list(kiln_parser *p, const kiln_attr **out);
/* #stablehlo.conv dimension numbers in the compact form [b, 0, f]x[o, i, 0]->[b, 0, f]. */
bool kp_parse_conv_dims(kiln_parser *p, const kiln_attr **out);
/* #dialect.name<key = value, ...> body starting at '<'. */
bool kp_parse_struct_body(kiln_parser *p, const char *dialect, const char *name, const kiln_attr **out);
/* Scalars with a fixed type (type may be NULL for untyped). */
bool kp_parse_int_attr(kiln_parser *p, const kiln_type *type, const kiln_attr **out);
bool kp_parse_float_attr(kiln_parser *p, const kiln_type *type, const kiln_attr **out);
bool kp_parse_string_attr(kiln_parser *p, const kiln_attr **out);
kiln_attr *kp_new_attr(kiln_parser *p, kiln_attr_kind kind);
const kiln_attr *kp_enum_attr(kiln_parser *p, const char *dialect, const char *name, const char *value, size_t len);

/* Values. */
bool kp_parse_operand(kiln_parser *p, kiln_value **out);
/* %a, %b, ... (possibly empty; stops at the first token that is not a value). */
bool kp_parse_operand_list(kiln_parser *p, kiln_value ***out, int32_t *count);
/* Binds a block argument or result group name in the current scope. */
bool kp_define(kiln_parser *p, const kiln_tok *name, kiln_value *values, int32_t count);
int32_t kp_scope_mark(const kiln_parser *p);
void kp_scope_pop(kiln_parser *p, int32_t mark);

/* Ops under construction. */
typedef struct kiln_op_state {
  kiln_op_kind kind;
  size_t offset;
  kiln_loc loc;
  kiln_value **operands;
  int32_t num_operands, cap_operands;
  const kiln_type **result_types;
  int32_t num_results, cap_results;
  kiln_named_attr *attrs;
  int32_t num_attrs, cap_attrs;
  kiln_block **regions; /* one entry block per region (NULL: empty region) */
  int32_t num_regions, cap_regions;
} kiln_op_state;

bool kp_state_add_attr(kiln_parser *p, kiln_op_state *st, const char *name, const kiln_attr *value);
bool kp_state_add_region(kiln_parser *p, kiln_op_state *st, kiln_block *entry);
/* Adds a STRING attribute holding a copy of the n bytes at s. */
bool kp_state_add_string_attr(kiln_parser *p, kiln_op_state *st, const char *name, const char *s, size_t n);
/* `: T` | `: T1, T2` | `: (Ts) -> Rs` after an op: checks the operands' types and sets the
 * result types (parse_ops.c). */
bool kp_parse_op_types(kiln_parser *p, kiln_op_state *st);
/* Appends a parsed attribute dictionary to the state's attributes. */
bool kp_parse_state_attr_dict(kiln_parser *p, kiln_op_state *st);

/* A region in braces. args (may be NULL) are the entry block's arguments when the pretty
 * form names them outside the braces; otherwise ^bb0(...) or no arguments. */
typedef struct kiln_region_args {
  const kiln_tok *names;
  const kiln_type **types;
  int32_t count;
} kiln_region_args;
bool kp_parse_region(kiln_parser *p, const kiln_region_args *args, kiln_block **out_entry);

/* The pretty form of st->kind (parse_ops.c). Called with the token after the op name;
 * fills operands, attributes, regions and result types. num_lhs is the number of results
 * the assignment named (-1 when unknown). */
bool kp_parse_pretty(kiln_parser *p, kiln_op_state *st, int32_t num_lhs);
/* The pretty forms of sdy.mesh, sdy.sharding_constraint and sdy.manual_computation
 * (parse_sdy.c), called as kp_parse_pretty is. */
bool kp_parse_sdy(kiln_parser *p, kiln_op_state *st);
/* The body of func.func / module after the op name. */
bool kp_parse_func(kiln_parser *p, kiln_op_state *st);
bool kp_parse_module_op(kiln_parser *p, kiln_op_state *st);

#endif
