/* The reference interpreter: evaluates StableHLO functions op by op on kiln_rtv values.
 *
 * kiln_interp_create prepares a module whose values are numbered (kiln_module_number_values,
 * done by the runtime when it creates a program): it sizes each function's frame and only
 * reads the module, so several interpreters of one module may be made and run at once, each
 * run with its own kiln_interp_ctx. The module must outlive the interpreter.
 *
 * Kernels: each family file (kernels_*.c) exports a lookup from op kind to kernel, like
 * the verifier's rule families. A kernel reads its operands and allocates its results;
 * ops on quantized tensors are run by dequantizing the operands, running the kernel on the
 * expressed type and quantizing the results (the spec's dequantize_op_quantize), except
 * for the few kernels that work on quantized storage themselves. */
#ifndef KILN_INTERP_INTERP_H
#define KILN_INTERP_INTERP_H

#include <stdio.h>

#include "backends/interp/value.h"
#include "base/source.h"
#include "base/strbuf.h"

typedef struct kiln_interp kiln_interp;
typedef struct kiln_interp_group kiln_interp_group; /* processes of one run_parallel */

/* Results of the check.* ops of a run. Not thread-safe by itself: run_parallel gives each
 * process its own log and merges them. */
typedef struct kiln_check_log {
  int32_t passed, failed;
  kiln_strbuf text; /* one line per failure */
} kiln_check_log;

void kiln_check_log_free(kiln_check_log *log);

/* Called after each op a run executes, with its results (borrowed). */
typedef void (*kiln_interp_observer)(void *arg, const kiln_op *op, kiln_rtv *const *results);

typedef struct kiln_interp_ctx {
  const kiln_interp *interp;
  kiln_rtv **frame;        /* the current function invocation's values, by kiln_value.id */
  kiln_check_log *checks;  /* where check.* results go (NULL: a failed check is an error) */
  FILE *print_out;         /* interpreter.print target (NULL: stdout) */
  kiln_interp_group *group; /* NULL outside run_parallel */
  int32_t process_id;      /* this process's index in the group */
  int depth;               /* call depth, bounded */
  kiln_interp_observer observe; /* NULL, or told of every op run (the cpu's shape recording) */
  void *observe_arg;
  /* NULL for a real run. Otherwise a shapes-only run (the cpu's shape recording for a
   * signature, specialize.c): indexed by value id of the function run, true for the
   * results of ops that only need their shapes. Such an op's kernel allocates its results
   * and stops (kiln_kernel_result); a while runs its condition and body once, an if or
   * case every branch once; their data is left unset. The other ops run fully, so the
   * caller must mark only ops whose results no fully run op reads. */
  const bool *shapes_only;
} kiln_interp_ctx;

kiln_status kiln_interp_create(const kiln_module *m, const kiln_source *src, kiln_interp **out);
void kiln_interp_destroy(kiln_interp *interp);
const kiln_module *kiln_interp_module(const kiln_interp *interp);

/* Runs a func.func with nargs arguments; results (one per function result) receive new
 * references. */
kiln_status kiln_interp_call(kiln_interp_ctx *ctx, const kiln_op *func, kiln_rtv *const *args, int32_t nargs,
                             kiln_rtv **results);
/* Runs a region of the current function on args (bound to its entry block's arguments);
 * its terminator's operands become results (new references; nres must match). */
kiln_status kiln_interp_region(kiln_interp_ctx *ctx, const kiln_region *r, kiln_rtv *const *args, int32_t nargs,
                               kiln_rtv **results, int32_t nres);

/* Runs one op of the current function: reads its operands from ctx->frame (and, for ops
 * with regions, the outer values the regions use) and puts its results there (new
 * references, replacing what was there). */
kiln_status kiln_interp_exec_op(kiln_interp_ctx *ctx, const kiln_op *op);

/* A located error for op: "file:line:col: error: 'op' op message". */
kiln_status kiln_interp_error(const kiln_interp_ctx *ctx, const kiln_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Check results: a pass, or a failure line located at op. */
void kiln_check_pass(kiln_interp_ctx *ctx);
kiln_status kiln_check_fail(kiln_interp_ctx *ctx, const kiln_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- for kernels ---- */

typedef struct kiln_kernel_args {
  const kiln_op *op;
  kiln_rtv *const *in;
  int32_t num_in;
  kiln_rtv **out;
  int32_t num_out;
  /* Element type of each result: the op's own, or the expressed float type while a
   * quantized op runs in floating point. */
  const kiln_type *const *out_elem;
  /* A shapes-only run of this op (kiln_interp_ctx.shapes_only): kiln_kernel_result stops
   * the kernel (with an error the runner discards) once its last result is allocated. */
  bool shapes_only;
} kiln_kernel_args;

typedef kiln_status (*kiln_interp_kernel)(kiln_interp_ctx *ctx, const kiln_kernel_args *a);

/* Allocates result i with the given shape and a->out_elem[i]. In a shapes-only run the
 * last result's allocation returns an error that ends the kernel (kiln_kernel_args). */
kiln_status kiln_kernel_result(const kiln_kernel_args *a, int32_t i, int32_t rank, const int64_t *dims);
/* The same, its bytes not set: for a kernel that writes every element of the result. */
kiln_status kiln_kernel_result_uninit(const kiln_kernel_args *a, int32_t i, int32_t rank, const int64_t *dims);
/* Allocates result i with the shape of the op's static result type. */
kiln_status kiln_kernel_result_static(const kiln_interp_ctx *ctx, const kiln_kernel_args *a, int32_t i);
/* The SCALAR kiln_type of an element type (static storage; never NULL). */
const kiln_type *kiln_interp_scalar_type(kiln_elem e);
/* The function a symbol names, or NULL. */
const kiln_op *kiln_interp_lookup_func(const kiln_interp *interp, const char *name);

/* Quantization (the spec's uniform quantize / dequantize), per-tensor or per-axis. */
kiln_status kiln_interp_dequantize(const kiln_rtv *q, kiln_rtv **out);
kiln_status kiln_interp_quantize(const kiln_rtv *x, const kiln_type *quant_elem, kiln_rtv **out);

/* The kernel of an op kind (asking each family), or NULL: terminators are run by the
 * region runner and have none. */
kiln_interp_kernel kiln_interp_kernel_for(kiln_op_kind kind);

kiln_interp_kernel kiln_interp_elementwise_lookup(kiln_op_kind kind);
kiln_interp_kernel kiln_interp_shape_lookup(kiln_op_kind kind);
kiln_interp_kernel kiln_interp_structured_lookup(kiln_op_kind kind);
kiln_interp_kernel kiln_interp_math_lookup(kiln_op_kind kind);
kiln_interp_kernel kiln_interp_linalg_lookup(kiln_op_kind kind);
kiln_interp_kernel kiln_interp_control_lookup(kiln_op_kind kind);
/* while, if and case in a shapes-only run (kiln_interp_ctx.shapes_only): a while's
 * condition and body run once on its operands, which are its results; every branch of an
 * if or case runs once, and the first branch's values are the results. */
kiln_status kiln_interp_shapes_only_control(kiln_interp_ctx *ctx, const kiln_kernel_args *a);
/* custom_call @shape_assertion (shape_assertion.c): nothing when operand 0 holds true, else
 * an error with the op's error_message, its {k} replaced by integer operand k + 1. */
kiln_status kiln_interp_shape_assertion(kiln_interp_ctx *ctx, const kiln_kernel_args *a);
/* custom_call @lapack_<t><routine>_ffi (lapack_call.c): jaxlib's LAPACK targets, through
 * src/backends/lapack. */
kiln_status kiln_interp_lapack(kiln_interp_ctx *ctx, const kiln_kernel_args *a);
/* StableHLO's experimental dynamic ops that JAX's shape-polymorphic exports emit as custom
 * calls: @stablehlo.dynamic_top_k(operand, k) is chlo.top_k with k an operand;
 * @stablehlo.dynamic_rng_bit_generator(state, shape) is rng_bit_generator with its output
 * shape an operand. */
kiln_status kiln_interp_dynamic_top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a);
kiln_status kiln_interp_dynamic_rng_bit_generator(kiln_interp_ctx *ctx, const kiln_kernel_args *a);
/* custom_call @ApproxTopK (jax.lax.approx_max_k): exact top-k along reduction_dim by the
 * comparator function it calls, as XLA computes it on CPU (kernels_structured.c). */
kiln_status kiln_interp_approx_top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a);
/* custom_call @stablehlo.dynamic_approx_top_k: ApproxTopK with k an operand after the init
 * values. */
kiln_status kiln_interp_dynamic_approx_top_k(kiln_interp_ctx *ctx, const kiln_kernel_args *a);
/* custom_call @stablehlo.dynamic_reduce_window: reduce_window with its window as operands
 * and its body a function it calls (kernels_structured.c). */
kiln_status kiln_interp_dynamic_reduce_window(kiln_interp_ctx *ctx, const kiln_kernel_args *a);
/* The kernel of a custom_call's target (check.*, shape_assertion, dce_sink, jaxlib's LAPACK
 * targets), or NULL when the interpreter runs no such target. */
kiln_interp_kernel kiln_interp_custom_call_kernel(const kiln_op *op);
/* Whether a shapes-only run (kiln_interp_ctx.shapes_only) may make op, a custom call: its
 * target has no effect but a shape check (shape_assertion, dce_sink, the dynamic ops,
 * ApproxTopK, LAPACK with results). check.* and unknown targets may not. */
bool kiln_interp_custom_call_shapes_only(const kiln_op *op);

/* Compile-time check (runnable.c) that every custom_call of function and of the functions
 * it calls (func.call, composite decompositions), in all their regions, has a target the
 * interpreter implements; otherwise a located UNIMPLEMENTED error for the first that has
 * none, so a program no device can run fails when it is compiled, not when it runs. A
 * LAPACK target of static shapes is planned too: wrong operands, results, layouts or
 * attributes are a located error (kiln_lapack_prepare's code and message).
 * Reads the module only; thread-safe. */
kiln_status kiln_interp_check_runnable(const kiln_module *m, const kiln_source *src, const kiln_op *function);
/* The message for a custom call of a target Kiln has no kernel for (printf: length, name). */
#define KILN_INTERP_NO_TARGET "calls target '%.*s', which Kiln does not implement"
/* Kernels that handle quantized storage themselves (no dequantize_op_quantize). */
bool kiln_interp_kernel_is_quant_native(kiln_op_kind kind);

#endif
