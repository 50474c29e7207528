/* The differential harness: every op of the op table (ir/ops.def) runs on the device under
 * test and on the reference interpreter with the same seeded random inputs, and the
 * results are compared (integers exactly, floats bitwise or within a per-case tolerance).
 *
 * Files:
 *   main.c              arguments, the loop over the op table, coverage, the summary line
 *   exclusions.c        the one table of ops that cannot run as a standalone random test
 *   values.c            random inputs per element type, comparison of results
 *   runner.c            program text, running on both devices, reporting
 *   cases_elementwise.c elementwise ops: same-type unary/binary/ternary forms found by the
 *                       verifier, and the mixed-type ones (compare, select, convert, ...)
 *   cases_structured.c  shape, reduction, linalg and control-flow ops: one table of
 *                       instances (argument types, attributes, regions), run per type
 *
 * A case is one program (one op kind, one element type or type pair, one shape). Cases
 * whose program the verifier rejects are not admitted by the op for that type and are
 * dropped silently where the family probes types (elementwise); everywhere else a rejected
 * program is a harness bug and is reported as a failure. */
#ifndef KILN_TESTS_DIFFERENTIAL_HARNESS_H
#define KILN_TESTS_DIFFERENTIAL_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"
#include "kiln/kiln.h"

#define KILN_DIFF_MAX_ARGS 8
#define KILN_DIFF_MAX_RANK 6
#define KILN_DIFF_TEXT_CAP 16384

/* How an argument's random values are drawn. */
typedef enum kiln_diff_gen {
  KILN_DIFF_GEN_RANDOM,  /* the type's whole range, special values mixed in for floats */
  KILN_DIFF_GEN_NOSPEC,  /* like RANDOM, without NaN/inf/denormals */
  KILN_DIFF_GEN_RANGE,   /* uniform in [lo, hi] (integers: whole numbers) */
  KILN_DIFF_GEN_SPD,     /* symmetric, diagonally dominant matrices in the last two dims */
} kiln_diff_gen;

typedef struct kiln_diff_arg {
  kiln_elem elem;
  int rank;
  int64_t dims[KILN_DIFF_MAX_RANK];
  kiln_diff_gen gen;
  double lo, hi;
} kiln_diff_arg;

typedef struct kiln_diff_case {
  kiln_op_kind op;
  const char *variant; /* "LT", "dims=[0,2]", ... ("" for none) */
  char type_label[64]; /* "f32", "f32->i8" */
  char shape_label[64];
  int num_args;
  kiln_diff_arg args[KILN_DIFF_MAX_ARGS];
  char text[KILN_DIFF_TEXT_CAP]; /* the whole program; the entry function is @main */
  int ulp;              /* allowed distance in units of the last place (0: bitwise) */
  int terms;            /* > 0: a sum of about this many terms; error relative to the
                           magnitude (the reference run on |inputs|) */
  bool mag_global;      /* the magnitude is the largest over the result, not per element */
  double special_rate;  /* share of special float values in RANDOM arguments */
} kiln_diff_case;

/* ---------------------------------------------------------------- values.c */

/* The element types the harness tries: every type of ir/elem.def a buffer can hold. */
int kiln_diff_elem_count(void);
kiln_elem kiln_diff_elem_at(int index);

typedef struct kiln_diff_rng {
  uint64_t state;
} kiln_diff_rng;

uint64_t kiln_diff_rng_next(kiln_diff_rng *rng);
double kiln_diff_rng_unit(kiln_diff_rng *rng); /* [0, 1) */
int64_t kiln_diff_rng_range(kiln_diff_rng *rng, int64_t lo, int64_t hi); /* [lo, hi] */
uint64_t kiln_diff_hash(uint64_t h, const char *s);

int64_t kiln_diff_elem_count_of(const kiln_diff_arg *arg);
/* Fills data (elements of the arg's storage size) with random values. */
void kiln_diff_fill(const kiln_diff_arg *arg, double special_rate, kiln_diff_rng *rng, void *data);
/* Replaces each float by its magnitude, each complex by (|re| + |im|, 0) (for the
 * magnitude run); integers are left alone. */
void kiln_diff_make_magnitude(kiln_elem elem, int64_t n, void *data);

/* The result of comparing one result buffer. */
typedef struct kiln_diff_mismatch {
  int64_t index;       /* first differing element (flat), -1 when none */
  int64_t count;       /* differing elements */
  double max_abs;      /* largest absolute difference */
  double max_ulp;      /* largest distance in ULP (floats) */
  char got[64], want[64];
} kiln_diff_mismatch;

/* Compares n elements of got against want (the reference); mag, when not NULL, is the
 * reference's result on magnitudes (same type). Returns true when they agree. */
bool kiln_diff_compare(const kiln_diff_case *c, kiln_elem elem, int64_t n, const void *got,
                       const void *want, const void *mag, kiln_diff_mismatch *out);

/* "[3,5]" (or "[]" for a scalar) into buf. */
const char *kiln_diff_dims_str(int rank, const int64_t *dims, char *buf, size_t cap);

/* ---------------------------------------------------------------- runner.c */

typedef enum kiln_diff_outcome {
  KILN_DIFF_REJECTED, /* the verifier does not admit the program */
  KILN_DIFF_PASSED,
  KILN_DIFF_FAILED,
} kiln_diff_outcome;

typedef struct kiln_diff_ctx {
  kiln_device *device, *reference;
  uint64_t seed;
  bool verbose;
  int passed, failed, skipped;
  int cases_of_op; /* cases that ran for the op being tested (coverage) */
} kiln_diff_ctx;

/* Runs a case whose text is complete. With report_rejected false, a verifier rejection
 * is returned quietly (a type the op does not admit); with true it is a failure. */
kiln_diff_outcome kiln_diff_run(kiln_diff_ctx *ctx, kiln_diff_case *c, bool report_rejected);

/* Whether the verifier accepts a program (no run). */
bool kiln_diff_verifies(const char *text);

/* Starts c: clears it and sets op, variant and the default tolerances. */
void kiln_diff_case_init(kiln_diff_case *c, kiln_op_kind op, const char *variant);
/* Appends printf-formatted text to c->text. */
void kiln_diff_emit(kiln_diff_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "tensor<3x5xf32>" for an argument into buf. */
const char *kiln_diff_tensor_type(const kiln_diff_arg *a, char *buf, size_t cap);
/* Writes the whole program: `func.func @main(args) -> (results) { BODY func.return }`
 * around body, which defines the values `returned` names ("%r#0, %r#1"; NULL: %r0 ..
 * %r{n-1}) of the given result types. */
void kiln_diff_wrap(kiln_diff_case *c, const char *const *result_types, int num_results, const char *body,
                    const char *returned);

/* ---------------------------------------------------------------- families */

/* The elementwise ops. */
void kiln_diff_elementwise(kiln_diff_ctx *ctx, kiln_op_kind op);
/* The instance table; runs the instances of op. */
void kiln_diff_structured(kiln_diff_ctx *ctx, kiln_op_kind op);

/* One instance of a structured op (instances.c). Type strings are ';'-separated tensor
 * types without `tensor<>` ("2x3x4x$T; 2xi32@0:3"; "$T" alone is a scalar; "token" is
 * !stablehlo.token). In every string, $T stands for the element type under test, $C for
 * the complex type of a float $T (f32, f64) and $R for the part type of a complex $T; an
 * instance runs for every type whose program the verifier accepts. An argument may end in
 * a generator hint: @LO:HI (uniform in range), @spd, @nospec. */
typedef struct kiln_diff_instance {
  kiln_op_kind op;
  const char *variant;
  const char *args, *results;
  /* Without KILN_DIFF_BODY: what follows the operands of the generic form (regions and
   * attributes); with it: the body lines, which define %r0, %r1, ... */
  const char *text;
  int terms;      /* kiln_diff_case.terms */
  int ulp;        /* kiln_diff_case.ulp */
  unsigned flags; /* KILN_DIFF_* */
  const char *extra; /* functions appended after @main ($T substituted) */
} kiln_diff_instance;

#define KILN_DIFF_BODY 1u       /* text is the body */
#define KILN_DIFF_GLOBAL 2u     /* kiln_diff_case.mag_global */
#define KILN_DIFF_MODULE 4u     /* the program is wrapped in `module { }` */
#define KILN_DIFF_FEW_SPECIALS 8u /* 2% special values instead of 20% (sums) */

extern const kiln_diff_instance kiln_diff_instances[];
extern const int kiln_diff_num_instances;

/* ---------------------------------------------------------------- exclusions.c */

/* Why op cannot be tested as a standalone random program, or NULL when it can. */
const char *kiln_diff_exclusion(kiln_op_kind op);
/* Why the device under test may leave case c's op to its interpreter (a plugin that
 * reports kiln_executable_stats_info.interpreted_ops: cpu), or NULL when c must run
 * compiled code only: a case whose executable reports interpreted ops and has no reason
 * here fails. */
const char *kiln_diff_interpreted_reason(const kiln_diff_case *c);

#endif
