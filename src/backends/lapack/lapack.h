/* Dense linear algebra through LAPACK and BLAS (OpenBLAS, pthread build), shared by the interpreter and
 * the cpu backend: jaxlib's typed-FFI custom-call targets `lapack_<t><routine>_ffi` (t in
 * s, d, c, z: f32, f64, complex<f32>, complex<f64>; routines potrf, getrf, geqrf, geqp3,
 * orgqr/ungqr, ormqr/unmqr, trsm, syevd/heevd, gesdd, gesvd, geev, gees, gehrd,
 * sytrd/hetrd, gtsv) and jaxlib's own tridiagonal_solve_perturbed_ffi (perturbed_solve.h),
 * with jaxlib's operands, results (info outputs included), attributes
 * (read from `mhlo.backend_config`, or a dictionary `backend_config`) and operand/result
 * layouts; and stablehlo.cholesky / triangular_solve of those element types (potrf, trsm).
 * Leading dimensions are batch dimensions: one LAPACK call per matrix.
 *
 * A plan is made once per op and shape (kiln_lapack_prepare) and is immutable: any number
 * of threads may run one plan at once; each run allocates its own scratch and frees it. */
#ifndef KILN_BACKENDS_LAPACK_LAPACK_H
#define KILN_BACKENDS_LAPACK_LAPACK_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"
#include "kiln/status.h"

typedef struct kiln_lapack_plan kiln_lapack_plan;

/* True when op is a custom_call whose target is one of the LAPACK targets above (whatever
 * its operands), so no other kernel should take it. */
bool kiln_lapack_is_target(const kiln_op *op);

/* The shape of an operand as it is at run time (its type may have `?` dims). */
typedef struct kiln_lapack_shape {
  kiln_elem elem;
  int32_t rank;
  const int64_t *dims;
} kiln_lapack_shape;

/* Plans op for operands of the given shapes (NULL: the op's operand types, which must then
 * be static; either way one per operand of op) and results of the given shapes (NULL: the
 * op's result types). A result's `?` dims are the sizes the routine gives it for these
 * operands (kiln_lapack_result_shape). The operands a custom_call names in
 * `indices_of_shape_operands` (the result shapes StableHLO's dynamic custom calls carry:
 * JAX's shape-polymorphic exports; their values are what a caller passes as results) are
 * not the routine's; they are skipped, here and in kiln_lapack_run. *out is NULL with
 * no error when op is not for this library: another custom-call target, or a cholesky /
 * triangular_solve of another element type or of dynamic shape. A LAPACK target with the
 * wrong operands, results, layouts or attributes is an INVALID_ARGUMENT error (an
 * UNIMPLEMENTED one for modes jaxlib itself refuses), its message naming the target and
 * what is wrong, without location (callers add the op's). The plan borrows nothing from
 * op. Thread-safe. */
kiln_status kiln_lapack_prepare(const kiln_op *op, const kiln_lapack_shape *operands, const kiln_lapack_shape *results,
                                kiln_lapack_plan **out);

/* Threads to share a call's matrices out over (the cpu backend's pool). run(ctx, parts,
 * work, fn, arg) calls fn(arg, part, thread) once for every part in [0, parts) and returns
 * when all have finished; `thread` in [0, threads) names the thread running it, and no two
 * parts run at once with the same one. parts(ctx, work, max_parts) says into how many parts
 * (1 to max_parts) to cut a call of that much work (about its flops). */
typedef void (*kiln_lapack_part_fn)(void *arg, int32_t part, int32_t thread);
typedef struct kiln_lapack_threads {
  void *ctx;
  int32_t threads;
  int32_t (*parts)(void *ctx, int64_t work, int64_t max_parts);
  void (*run)(void *ctx, int32_t parts, int64_t work, kiln_lapack_part_fn fn, void *arg);
} kiln_lapack_threads;

/* The shape of result k of a plan (its `?` dims resolved). Borrowed from the plan. */
void kiln_lapack_result_shape(const kiln_lapack_plan *plan, int32_t k, int32_t *out_rank, const int64_t **out_dims);

/* Runs a plan: in[k] is operand k of the op (shape operands included, not read), out[k] result k, each dense row-major in the IR's element
 * storage with the planned shapes (results written whole, never read). The matrices of a
 * batch are shared out over `threads` when given and worth it, and a triangular solve of
 * fewer matrices than threads has its right-hand sides shared out (NULL: all on the calling
 * thread); OpenBLAS itself starts no thread. The plan keeps each run's buffers (copies,
 * workspaces) for the next run, one set per run in flight, until kiln_lapack_destroy.
 * Errors: out of memory, and a routine refusing an argument (a planning bug).
 * Thread-safe. */
kiln_status kiln_lapack_run(const kiln_lapack_plan *plan, const void *const *in, void *const *out,
                            const kiln_lapack_threads *threads);

void kiln_lapack_destroy(kiln_lapack_plan *plan);

#endif
