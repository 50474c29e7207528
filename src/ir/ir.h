/* Kiln IR: element types, types, attributes, ops, regions, blocks, values, modules.
 *
 * Ownership: every object reachable from a kiln_module lives in that module's arena and
 * is released by kiln_module_destroy(); pointers into a module are borrowed and stay valid
 * until then. Types and attributes are immutable once built. A module may be read from
 * several threads at once; building or changing one is single-threaded.
 *
 * The op table (ir/ops.def) defines kiln_op_kind; the element table (ir/elem.def) defines
 * kiln_elem. Every stage indexes by these enums. */
#ifndef KILN_IR_IR_H
#define KILN_IR_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "kiln/status.h"

/* ---------------------------------------------------------------- element types */

typedef enum kiln_elem {
#define KILN_ELEM(id, spelling, bits, bytes, cls) KILN_ELEM_##id,
#include "ir/elem.def"
  KILN_ELEM_COUNT
} kiln_elem;

typedef enum kiln_elem_class {
  KILN_ELEM_CLASS_B, /* i1 */
  KILN_ELEM_CLASS_I, /* signed integer (spelled iN) */
  KILN_ELEM_CLASS_U, /* unsigned integer (uiN) */
  KILN_ELEM_CLASS_F, /* floating point */
  KILN_ELEM_CLASS_C, /* complex */
  KILN_ELEM_CLASS_X, /* index */
} kiln_elem_class;

const char *kiln_elem_name(kiln_elem e);
int kiln_elem_bits(kiln_elem e);          /* bit width (complex: both parts) */
size_t kiln_elem_storage_bytes(kiln_elem e); /* bytes per element in dense storage */
kiln_elem_class kiln_elem_class_of(kiln_elem e);
bool kiln_elem_is_int(kiln_elem e);       /* i1, signed and unsigned integers, index */
bool kiln_elem_is_float(kiln_elem e);
bool kiln_elem_is_complex(kiln_elem e);
kiln_elem kiln_elem_complex_part(kiln_elem e); /* C64 -> F32, C128 -> F64 */
/* Looks up a spelling ("f32", "ui8", "si8" as an alias of "i8", ...). false if none. */
bool kiln_elem_lookup(const char *s, size_t n, kiln_elem *out);
/* Floating-point format: exponent bits, mantissa bits (without the implicit one). */
void kiln_elem_float_format(kiln_elem e, int *out_exponent_bits, int *out_mantissa_bits);
/* Converts between a double and the storage bits of float type e, rounding to nearest
 * even (saturating/NaN as the format defines). */
uint64_t kiln_elem_float_to_bits(kiln_elem e, double v);
double kiln_elem_float_from_bits(kiln_elem e, uint64_t bits);

/* ---------------------------------------------------------------- types */

typedef enum kiln_type_kind {
  KILN_TYPE_SCALAR,   /* an element type on its own: f32, i64, index, complex<f32> */
  KILN_TYPE_QUANT,    /* !quant.uniform<...> */
  KILN_TYPE_TENSOR,   /* tensor<2x?x3xf32, #stablehlo.bounds<...>> */
  KILN_TYPE_TUPLE,    /* tuple<...> */
  KILN_TYPE_TOKEN,    /* !stablehlo.token */
  KILN_TYPE_FUTURE,   /* !stablehlo.future<...> (payload types in .tuple) */
  KILN_TYPE_FUNCTION, /* (T, ...) -> (R, ...) */
  KILN_TYPE_NONE,     /* none */
  KILN_TYPE_OPAQUE,   /* any other !dialect.type<...>, kept as text */
} kiln_type_kind;

#define KILN_DIM_DYNAMIC INT64_MIN /* a `?` dimension or bound */

typedef struct kiln_attr kiln_attr;
typedef struct kiln_type kiln_type;

struct kiln_type {
  kiln_type_kind kind;
  union {
    kiln_elem elem; /* SCALAR */
    struct {
      kiln_elem storage, expressed;
      int64_t storage_min, storage_max;
      bool has_storage_range; /* written explicitly as i8<-127:127> */
      int32_t axis;           /* -1: per-tensor */
      int32_t count;          /* number of (scale, zero point) pairs */
      double *scales;
      int64_t *zero_points;
    } quant;
    struct {
      const kiln_type *element; /* SCALAR or QUANT */
      int32_t rank;
      int64_t *dims;     /* KILN_DIM_DYNAMIC for `?` */
      int64_t *bounds;   /* NULL, or rank entries (KILN_DIM_DYNAMIC: no bound) */
      const kiln_attr *encoding; /* another encoding attribute kept as is, or NULL */
      int64_t num_elements;      /* -1 when a dimension is dynamic */
    } tensor;
    struct {
      int32_t count;
      const kiln_type **types;
    } tuple; /* TUPLE and FUTURE */
    struct {
      int32_t num_inputs, num_results;
      const kiln_type **inputs, **results;
    } func;
    const char *opaque; /* OPAQUE: the full text, e.g. "!foo.bar<1>" */
  };
};

bool kiln_type_equal(const kiln_type *a, const kiln_type *b);
bool kiln_type_is_tensor(const kiln_type *t);
/* Element type of a tensor (its storage type for a quantized tensor); KILN_ELEM_COUNT
 * for a non-tensor. */
kiln_elem kiln_type_elem(const kiln_type *t);
/* The element kiln_type of a tensor (SCALAR or QUANT), NULL for a non-tensor. */
const kiln_type *kiln_type_element(const kiln_type *t);
bool kiln_type_is_quant_tensor(const kiln_type *t);
bool kiln_type_is_static(const kiln_type *t); /* tensor with no `?` dimension */

/* ---------------------------------------------------------------- attributes */

typedef enum kiln_attr_kind {
  KILN_ATTR_UNIT,        /* `unit` or a bare name in an attribute dictionary */
  KILN_ATTR_BOOL,        /* true / false */
  KILN_ATTR_INT,         /* 42 : i64 (type NULL when untyped) */
  KILN_ATTR_FLOAT,       /* 1.0 : f32 */
  KILN_ATTR_STRING,      /* "text" (bytes, may hold NULs); type when "x" : T */
  KILN_ATTR_TYPE,        /* a type used as an attribute */
  KILN_ATTR_ARRAY,       /* [a, b, ...] */
  KILN_ATTR_DENSE_ARRAY, /* array<i64: 1, 2> */
  KILN_ATTR_DENSE,       /* dense<...> : tensor<...> */
  KILN_ATTR_DICT,        /* {a = 1, b} */
  KILN_ATTR_SYMBOL,      /* @name or @a::@b */
  KILN_ATTR_ENUM,        /* #stablehlo<comparison_direction EQ>, or a bare keyword */
  KILN_ATTR_STRUCT,      /* #stablehlo.gather<offset_dims = [1], ...> */
  KILN_ATTR_OPAQUE,      /* anything else (#sparse_tensor.encoding<...>, affine_map<...>) */
} kiln_attr_kind;

typedef struct kiln_named_attr {
  const char *name; /* NULL for a positional field of a STRUCT */
  const kiln_attr *value;
} kiln_named_attr;

struct kiln_attr {
  kiln_attr_kind kind;
  const kiln_type *type; /* INT, FLOAT, STRING (optional); DENSE (tensor type);
                            DENSE_ARRAY (SCALAR element type); TYPE (the type) */
  union {
    bool b;
    struct {
      uint64_t magnitude;
      bool negative; /* value = negative ? -magnitude : magnitude */
    } i;
    double f;
    struct {
      const char *data;
      size_t len;
    } str;
    struct {
      int32_t count;
      const kiln_attr **items;
    } array;
    struct {
      int64_t count;
      int64_t *ints;  /* for integer and i1 element types */
      double *floats; /* for float element types */
    } dense_array;
    struct {
      bool splat;      /* data holds one element, repeated over the whole tensor */
      size_t nbytes;   /* count * storage bytes of the element type */
      uint8_t *data;   /* little-endian element storage (see ir/elem.def) */
    } dense;
    struct {
      int32_t count;
      kiln_named_attr *entries;
    } dict;
    const char *symbol; /* without the '@'; nested refs keep "a::@b" */
    struct {
      const char *dialect; /* "stablehlo", "chlo", ...; NULL for a bare keyword */
      const char *name;    /* "comparison_direction"; NULL for a bare keyword */
      const char *value;   /* "EQ" */
      bool dotted;         /* written #dialect.name<VALUE> rather than #dialect<name VALUE> */
    } enumv;
    struct {
      const char *dialect; /* "stablehlo" */
      const char *name;    /* "gather", "conv", "dot", "channel_handle", ... */
      int32_t count;
      kiln_named_attr *fields;
    } strct;
    const char *opaque; /* full text */
  };
};

/* Integer value of an INT attribute (two's complement wrap for magnitudes >= 2^63). */
int64_t kiln_attr_int(const kiln_attr *a);
bool kiln_attr_equal(const kiln_attr *a, const kiln_attr *b);
/* Looks a name up in a DICT or STRUCT attribute; NULL if absent. */
const kiln_attr *kiln_attr_get(const kiln_attr *dict_or_struct, const char *name);
/* Integer lists, whatever their spelling: an ARRAY of INT, an integer DENSE_ARRAY, an
 * integer DENSE (splat-aware, row-major), or a lone INT (one element). Count is -1 for
 * anything else; kiln_attr_i64_at returns false when i is out of range or a is not such
 * a list. */
int64_t kiln_attr_count(const kiln_attr *a);
bool kiln_attr_i64_at(const kiln_attr *a, int64_t i, int64_t *out);

/* ---------------------------------------------------------------- ops */

typedef enum kiln_op_kind {
#define KILN_OP(id, name, fmt, kw) KILN_OP_##id,
#include "ir/ops.def"
  KILN_OP_COUNT
} kiln_op_kind;

typedef struct kiln_op kiln_op;
typedef struct kiln_block kiln_block;
typedef struct kiln_region kiln_region;

typedef struct kiln_loc {
  uint32_t line, col; /* 0 when unknown */
} kiln_loc;

typedef struct kiln_value {
  const kiln_type *type;
  kiln_op *def;       /* defining op, NULL for a block argument */
  kiln_block *block;  /* owning block for a block argument */
  int32_t index;      /* result number or argument number */
  int32_t id;         /* dense number within its function (kiln_func_number_values) */
} kiln_value;

struct kiln_op {
  kiln_op_kind kind;
  kiln_loc loc;
  int32_t num_operands, num_results, num_attrs, num_regions;
  kiln_value **operands;
  kiln_value *results;    /* num_results values, owned by the op */
  kiln_named_attr *attrs; /* properties and discardable attributes together */
  kiln_region *regions;   /* num_regions */
  kiln_block *parent;
  kiln_op *prev, *next;
};

struct kiln_block {
  int32_t num_args;
  kiln_value *args;
  kiln_op *first, *last;
  kiln_region *parent;
  kiln_block *next;
};

struct kiln_region {
  kiln_block *first, *last; /* StableHLO regions have one block; more are kept in order */
  kiln_op *parent;
};

typedef struct kiln_module {
  kiln_arena *arena;
  kiln_op *op;      /* the builtin.module op; its region holds the functions */
  const char *name; /* the source name, for diagnostics */
} kiln_module;

/* Op table queries. */
const char *kiln_op_name(kiln_op_kind kind);
bool kiln_op_lookup(const char *s, size_t n, kiln_op_kind *out);

/* Attribute of an op by name; NULL if absent. */
const kiln_attr *kiln_op_attr(const kiln_op *op, const char *name);
/* The keyword of an ENUM attribute, or a STRING's text; NULL for anything else (or NULL). */
const char *kiln_attr_enum_text(const kiln_attr *a);
/* A compare's comparison_direction, in the spec's order; -1 when absent or not one of them. */
typedef enum kiln_compare_dir {
  KILN_COMPARE_EQ,
  KILN_COMPARE_NE,
  KILN_COMPARE_GE,
  KILN_COMPARE_GT,
  KILN_COMPARE_LE,
  KILN_COMPARE_LT,
} kiln_compare_dir;
int kiln_op_compare_direction(const kiln_op *op);
/* The integer value of v when a stablehlo.constant of one integer element defines it. */
bool kiln_value_constant_int(const kiln_value *v, int64_t *out);
/* Whether op is a custom_call whose call_target_name is `target`. */
bool kiln_op_calls_target(const kiln_op *op, const char *target);
/* The single block of region i of op (NULL if the region is empty). */
kiln_block *kiln_op_block(const kiln_op *op, int32_t region);
/* The terminator (last op) of a block; NULL if empty. */
kiln_op *kiln_block_terminator(const kiln_block *b);
/* The op a computation region (region 0 of a reduce, all_reduce, scatter, ...) combines its
 * two arguments with, when the region is exactly `(a, b) -> OP(a, b)` (either order) and
 * returns OP's result; else NULL. */
const kiln_op *kiln_region_combiner(const kiln_op *op);

/* func.func helpers: symbol name (without '@') and function type. */
const char *kiln_func_name(const kiln_op *func);
const kiln_type *kiln_func_type(const kiln_op *func);
/* Finds a func.func in a module by name; NULL if absent. */
kiln_op *kiln_module_lookup_func(const kiln_module *m, const char *name);
/* What a func.func's argument attributes say of donating its input i (JAX's
 * donate_argnums): the result `tf.aliasing_output` names (>= 0), KILN_DONOR_ANY for
 * `jax.buffer_donor = true` (any result), KILN_DONOR_NONE for neither. */
#define KILN_DONOR_ANY (-1)
#define KILN_DONOR_NONE (-2)
int64_t kiln_func_arg_donor(const kiln_op *func, int32_t i);

/* Value numbering: gives every value of a function (the entry block's arguments, each op's
 * results and the arguments of nested blocks, in program order) a dense kiln_value.id from
 * 0, and returns how many there are (a frame's size). The runtime numbers every function
 * of a program once, when the program is created, so backends only read the ids. Writes
 * the module: not thread-safe with anything else that reads it. */
int32_t kiln_func_number_values(kiln_op *func);
/* Numbers every func.func of the module (kiln_func_number_values). */
void kiln_module_number_values(kiln_module *m);
/* How many values kiln_func_number_values numbers in func, without writing anything.
 * Thread-safe. */
int32_t kiln_func_num_values(const kiln_op *func);

/* Module lifetime. kiln_module_create makes an empty module (an arena with a
 * builtin.module op); NULL when memory is exhausted. */
kiln_module *kiln_module_create(const char *name);
void kiln_module_destroy(kiln_module *m);

/* Builders: allocate in the module's arena; NULL when memory is exhausted. */
kiln_type *kiln_type_new(kiln_module *m, kiln_type_kind kind);
const kiln_type *kiln_type_scalar(kiln_module *m, kiln_elem e);
/* A ranked tensor type; computes num_elements with overflow checks (returns NULL on
 * overflow: the caller reports it). */
const kiln_type *kiln_type_tensor(kiln_module *m, const kiln_type *element, int32_t rank,
                                  const int64_t *dims, const int64_t *bounds_or_null);
kiln_attr *kiln_attr_new(kiln_module *m, kiln_attr_kind kind);
const kiln_attr *kiln_attr_make_int(kiln_module *m, int64_t v, const kiln_type *type);
const kiln_attr *kiln_attr_make_i64_array(kiln_module *m, const int64_t *v, int64_t n);
kiln_op *kiln_op_new(kiln_module *m, kiln_op_kind kind, int32_t num_operands,
                     int32_t num_results, int32_t num_attrs, int32_t num_regions);
kiln_block *kiln_block_new(kiln_module *m, int32_t num_args);
void kiln_block_append(kiln_block *b, kiln_op *op);
/* Puts op, in no block, into `before`'s block just before it. */
void kiln_block_insert_before(kiln_op *before, kiln_op *op);
/* Takes op out of its block b (its memory stays in the arena). */
void kiln_block_remove(kiln_block *b, kiln_op *op);
void kiln_region_append(kiln_region *r, kiln_block *b);

/* ---------------------------------------------------------------- verify and print */

typedef struct kiln_source kiln_source;

/* A located error about an op: "name:line:col: error: 'dialect.op' op <message>", with the
 * source line and a caret when src is given (src may be NULL). */
kiln_status kiln_op_errorv(const kiln_source *src, const char *name, const kiln_op *op, const char *fmt,
                           va_list ap);

/* Checks every op of the module against the spec's type and shape constraints. The first
 * violation is returned as "name:line:col: error: 'op' op <rule>" (with the source line
 * and a caret when src is given; src may be NULL). Thread-safe for distinct modules and
 * for concurrent reads of one module. */
kiln_status kiln_verify_module(const kiln_module *m, const kiln_source *src);

/* Prints the module in the pretty form to a growable buffer. On success *out_text is a
 * malloc'ed NUL-terminated string that the caller frees. */
kiln_status kiln_print_module(const kiln_module *m, char **out_text, size_t *out_len);

#endif
