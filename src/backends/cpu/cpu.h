/* The cpu backend's executable: a schedule of steps over the values of the entry
 * function, each value stored in an input, a constant, the planned temporaries arena, a
 * result buffer, or (for values of steps the interpreter runs) an interpreter value.
 *
 * compile.c builds it (fusion, code generation, buffer planning); exec.c runs it. An
 * executable is immutable after compile: runs only read it, so any number may run at
 * once; each run takes a run state (its arena and value table) from the executable's
 * pool, so repeated runs allocate nothing but their result buffers. */
#ifndef KILN_BACKENDS_CPU_CPU_H
#define KILN_BACKENDS_CPU_CPU_H

#include <pthread.h>

#include "base/host_memory.h"
#include "backends/cpu/loop.h"
#include "backends/interp/interp.h"

typedef enum kiln_cpu_store {
  KILN_CPU_STORE_NONE,     /* not computed (dead, or recomputed inside loops) */
  KILN_CPU_STORE_INPUT,    /* the function's parameter `index` */
  KILN_CPU_STORE_CONST,    /* data owned by the executable */
  KILN_CPU_STORE_TEMP,     /* arena + offset */
  KILN_CPU_STORE_RESULT,   /* written straight into result buffer `index` */
  KILN_CPU_STORE_ALIAS,    /* the same bytes as value `index` (a reshape) */
  KILN_CPU_STORE_INTERP,   /* an interpreter value made by a step the interpreter runs */
  KILN_CPU_STORE_HELD,     /* a tensor of the run state, made by a control-flow step */
  KILN_CPU_STORE_LOCAL,    /* made and read only inside one row-block run (tiling.c), a block of
                            * rows at a time: in that run's per-thread scratch, thread 0's
                            * block at arena + offset; value `index` holds the scratch */
} kiln_cpu_store;

typedef struct kiln_cpu_slot {
  kiln_cpu_store store;
  int32_t index;
  uint64_t offset;
  const void *data;     /* CONST */
  const kiln_type *type;
  uint64_t bytes;       /* LOCAL holding its run's scratch: the scratch's bytes, every thread's */
  bool needs_rtv;       /* read by an interpreted step (or returned while INTERP) */
} kiln_cpu_slot;

typedef enum kiln_cpu_step_kind {
  KILN_CPU_STEP_LOOP,   /* a generated loop kernel */
  KILN_CPU_STEP_DNNL,   /* a oneDNN primitive */
  KILN_CPU_STEP_INTERP, /* one op run by the reference interpreter's kernel */
  KILN_CPU_STEP_CONTROL, /* while, if, case: regions compiled as executables of their own */
  KILN_CPU_STEP_SORT,    /* sort with a one-compare comparator (sort.c) */
  KILN_CPU_STEP_DYNSLICE, /* dynamic_slice, dynamic_update_slice (dynamic_slice.c) */
  KILN_CPU_STEP_GATHER,  /* stablehlo.gather (gather.c) */
  KILN_CPU_STEP_SCATTER, /* stablehlo.scatter with a one-op update computation (scatter.c) */
  KILN_CPU_STEP_WINDOW,  /* a scan, pad or select_and_scatter of window.c */
  KILN_CPU_STEP_FFT,     /* stablehlo.fft (fft.h) */
  KILN_CPU_STEP_LAPACK,  /* LAPACK (backends/lapack): jaxlib's lapack_*_ffi calls, cholesky, triangular_solve */
  KILN_CPU_STEP_CONCAT,  /* stablehlo.concatenate as copies (concat.c) */
  KILN_CPU_STEP_NATIVE,  /* a single op's native kernel (native.h: ids, rng_bit_generator, top_k, reduce_precision) */
} kiln_cpu_step_kind;

struct kiln_cpu_dnnl_op;
struct kiln_fft_plan;
struct kiln_lapack_plan;
#define KILN_CPU_MAX_LAPACK_VALUES 16 /* operands and results of a LAPACK step, at most */

/* An argument of a step of a row-block run that is a LOCAL value: entry `arg` of the step's
 * argument array (exec.c), whose rows are row_bytes apart. */
typedef struct kiln_cpu_block_arg {
  int32_t arg;
  int64_t row_bytes;
} kiln_cpu_block_arg;

typedef struct kiln_cpu_step {
  kiln_cpu_step_kind kind;
  const kiln_op *op;
  int32_t num_values;
  int32_t *values;      /* LOOP: inputs then output; DNNL: lhs, rhs, (a fused bias,) result; INTERP: what it reads */
  kiln_cpu_loop_fn fn;  /* LOOP */
  kiln_cpu_loop *loop;
  int64_t points;       /* LOOP: output points (the range split over threads) */
  int64_t work;         /* LOOP: points * elements folded per point */
  /* LOOP steps run row block by row block (tiling.c): the first step of such a run has
   * run_length > 1 (the steps of the run), each step's points are rows * row_points, and
   * block_rows rows go through all of the run's steps while they are in cache. */
  int32_t run_length;
  int64_t rows, row_points, block_rows;
  /* The step's arguments that point into its run's per-thread scratch (LOCAL values): each
   * is moved to the running thread's block of rows before a block goes through the step.
   * The run's first step has the scratch's bytes per thread (0: no LOCAL value in the run)
   * and the threads it has room for (a pool of more runs the run on its caller). */
  int32_t num_block_args;
  kiln_cpu_block_arg *block_args;
  uint64_t block_stride;
  int32_t block_threads;
  struct kiln_cpu_dnnl_op *dnnl;
  struct kiln_cpu_control *control; /* CONTROL (control.c) */
  struct kiln_cpu_sort *sort;       /* SORT: values are the operands then the results */
  struct kiln_cpu_dynslice *dynslice; /* DYNSLICE: values are the operands then the result */
  struct kiln_cpu_gather *gather;     /* GATHER: operand, indices, result */
  struct kiln_cpu_scatter *scatter;   /* SCATTER: operand, indices, updates, result */
  struct kiln_cpu_window *window;     /* WINDOW: its inputs, then its one output */
  struct kiln_fft_plan *fft;          /* FFT: operand, result */
  struct kiln_lapack_plan *lapack;    /* LAPACK: the operands, then the results */
  struct kiln_cpu_concat *concat;     /* CONCAT: the operands, then the result */
  struct kiln_cpu_native *native;     /* NATIVE: the operands, then the results */
  /* Executed once, by the compile's warm-up or by a run (kiln_cpu_prepared_in_runs). */
  _Atomic bool ran;
} kiln_cpu_step;

typedef struct kiln_cpu_run_state kiln_cpu_run_state;

typedef struct kiln_cpu_specs kiln_cpu_specs;

/* How a result may take a donated input's tensor (donate.c): its memory is written in
 * place by the step that makes the result (IN_PLACE), it already holds the result's bytes
 * (MOVE: the result is the input, or a view of it), or the result is copied into it at the
 * end of the run instead of into new memory (COPY). */
typedef enum kiln_cpu_reuse {
  KILN_CPU_REUSE_NONE,
  KILN_CPU_REUSE_IN_PLACE,
  KILN_CPU_REUSE_MOVE,
  KILN_CPU_REUSE_COPY,
} kiln_cpu_reuse;

typedef struct kiln_cpu_donor {
  int32_t input; /* the parameter whose tensor the result may take when it is donated */
  kiln_cpu_reuse how;
} kiln_cpu_donor;

typedef struct kiln_cpu_executable {
  const kiln_module *module;
  const kiln_source *source;
  const kiln_op *function;
  kiln_module *scratch;     /* holds `planned` */
  const kiln_op *planned;   /* the function with its calls inlined: what the steps run */
  kiln_interp *interp;      /* for interpreted steps (and whole functions it cannot plan) */
  bool owns_interp;         /* false in a region's executable: the parent's */
  int32_t nesting;          /* 0 for an entry function, parent's + 1 for a region */
  bool whole_interp;        /* the interpreter runs the whole function */
  bool baseline;            /* the fast-start tier (tier.h): no generated code, no warm-up */
  bool quick;               /* the quick tier (tier.h): code generated quickly, memory prepared, no warm-up run */
  kiln_cpu_specs *specs; /* a shape-polymorphic entry's compiles per shape (specialize.c), or NULL */
  struct kiln_cpu_family_pass *family; /* a signature's compile: how its loops get shared code (family.h), or NULL */
  int32_t num_values;       /* of `planned` */
  int32_t num_slots;        /* num_values, then temporaries the compiler adds (partial sums) */
  int32_t max_slots;
  kiln_cpu_slot *slots;     /* by value id of `planned`, then the added ones */
  int32_t num_steps;
  kiln_cpu_step *steps;
  /* By value id of a convolution's result: the oneDNN plan that also adds a bias to it
   * (conv_bias.c), taken by the schedule; NULL when no convolution has one. */
  struct kiln_cpu_conv_bias *conv_bias;
  int32_t num_results;
  int32_t *result_values;   /* value id per result */
  /* Results the caller does not take (left NULL by kiln_cpu_run): a while body's carried
   * values it returns unchanged (control.c). NULL: all of them. */
  bool *skip_result;
  /* Results made in an input's tensor, which the caller gives up (a while body's carried
   * value updated in place by a dynamic_update_slice: control.c): the input's index, or -1.
   * kiln_cpu_run then returns that input tensor as the result. NULL: none. */
  int32_t *result_from_input;
  /* Per result, the donated input it may take (donate.c); NULL: none. A run takes each
   * donated input (kiln_cpu_tensor.donated) for the first result that names it. */
  kiln_cpu_donor *donors;
  /* Whole-tensor copies its runs made and their bytes (kiln_cpu_count_copy); the
   * executables of its control-flow regions count their own. */
  _Atomic uint64_t copies, copy_bytes;
  /* One-time preparations its runs made themselves, which its warm-up had not: a step of
   * a kind the warm-up runs first executed by a run, a run state made for a run. */
  _Atomic uint64_t prepared_in_runs;
  uint64_t arena_bytes;     /* the buffer plan */
  uint64_t constant_bytes;
  kiln_arena *arena;        /* steps, loops and their nodes */
  struct kiln_cpu_code *code;
  pthread_mutex_t pool_lock;
  kiln_cpu_run_state *pool; /* idle run states */
  /* One idle run state taken and given back without the lock (a loop's region runs once
   * an iteration, one at a time): tried before the pool. */
  _Atomic(kiln_cpu_run_state *) idle;
  /* The slots a run sets (INPUT, RESULT) and those it releases at its end (INTERP, HELD,
   * and the values inside the regions of ops an interpreter step runs, which it leaves in
   * the frame); the others (CONST, TEMP) keep what a run state was made with
   * (kiln_cpu_index_slots). */
  int32_t num_run_slots, num_kept_slots;
  int32_t *run_slots, *kept_slots;
  int32_t num_function_results; /* of `function` */
  /* KILN_CPU_PROFILE=1: time per step, summed over runs (atomically), printed to stderr
   * when the executable is destroyed. NULL otherwise. */
  _Atomic uint64_t *step_ns;
} kiln_cpu_executable;

kiln_status kiln_cpu_compile(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                             kiln_cpu_executable **out);
/* The fast-start tier's compile (tier.h): the same schedule with no generated loops (what
 * they would compute runs on the interpreter's kernels) and no warm-up. */
kiln_status kiln_cpu_compile_baseline(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                      kiln_cpu_executable **out);
/* The quick tier's compile (tier.h): the optimising compile's schedule, its loops generated
 * with LLVM's quick settings (loop.h: kiln_cpu_code_compile), no warm-up. */
kiln_status kiln_cpu_compile_quick(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                   kiln_cpu_executable **out);
/* kiln_cpu_compile for a signature of a shape-polymorphic function (specialize.c): its
 * loops' code, and its regions', comes through the pass (family.h); a COLLECT pass's
 * executable has no code and no warm-up (it never runs). */
kiln_status kiln_cpu_compile_family(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                    struct kiln_cpu_family_pass *pass, kiln_cpu_executable **out);
/* The same for a region outlined from `parent` (control.c): it shares the parent's
 * interpreter (probes and calls see one module state) and counts its nesting. */
kiln_status kiln_cpu_compile_nested(const kiln_cpu_executable *parent, const kiln_op *function, kiln_cpu_executable **out);
void kiln_cpu_executable_destroy(kiln_cpu_executable *x);
/* Fills x's run_slots and kept_slots from its slots, once they are final (the end of a
 * compile). false when out of memory. */
bool kiln_cpu_index_slots(kiln_cpu_executable *x);

/* A tensor in host memory: what cpu buffers and results are. `hold` (when set) owns the
 * data (an interpreter value); otherwise data was malloc'ed and is freed with it. A token
 * or tuple (only functions the interpreter runs whole make or take them) is a `hold` of
 * that kind with no data. */
typedef struct kiln_cpu_tensor {
  kiln_elem elem;
  int32_t rank;
  int64_t dims[KILN_RTV_MAX_RANK];
  uint64_t bytes;
  void *data;
  kiln_rtv *hold;
  /* An input the caller donates to kiln_cpu_run: the run may return it (its memory, with
   * a result's shape) as a result; the caller then owns it only as that result. */
  bool donated;
} kiln_cpu_tensor;

/* Runs x on inputs (num_inputs = the function's parameters, checked by the runtime);
 * writes num_results new tensors (owned by the caller, kiln_cpu_tensor_free). checks and
 * print_out as for the interpreter (kiln_interp_ctx). */
kiln_status kiln_cpu_run(kiln_cpu_executable *x, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                         kiln_check_log *checks);
/* kiln_cpu_run, making result k in spares[k] (a tensor the caller owns and no input is,
 * nor shares memory with) when that has result k's type: then the result takes it and
 * spares[k] becomes NULL. spares may be NULL. */
kiln_status kiln_cpu_run_into(kiln_cpu_executable *x, kiln_cpu_tensor *const *inputs, kiln_cpu_tensor **results,
                              kiln_cpu_tensor **spares, kiln_check_log *checks);
/* A while body's lean iterations (control.c): its steps replayed on argument arrays filled
 * once per loop, one per set of tensors the iterations alternate between. Only for an
 * executable with no interpreted or control-flow step (no kept slots) and no signatures.
 * The run state (kiln_cpu_state_take: NULL when out of memory; given back with
 * kiln_cpu_state_give) holds the temporaries the arrays point into: one thread at a time. */
kiln_cpu_run_state *kiln_cpu_state_take(kiln_cpu_executable *x);
void kiln_cpu_state_give(kiln_cpu_executable *x, kiln_cpu_run_state *s);
/* The entries of an argument array of x. */
int32_t kiln_cpu_lean_size(const kiln_cpu_executable *x);
/* Fills args (kiln_cpu_lean_size entries) with the data pointers x's steps take on s when
 * x's inputs are inputs and its results are made in results (tensors of their types; a
 * result updated in place is its input's tensor), and alone (one per step) with whether a
 * step runs on the caller alone. */
void kiln_cpu_lean_fill(const kiln_cpu_executable *x, kiln_cpu_run_state *s, kiln_cpu_tensor *const *inputs,
                        kiln_cpu_tensor *const *results, void **args, bool *alone);
/* Runs step s of x (a kiln_cpu_executable) on its arrays in args (from a kiln_cpu_lean_fill
 * array), as a replay runs a step that is not alone: a lean loop's driver calls it
 * (while_driver.h). */
kiln_status kiln_cpu_step_hook(void *x, int32_t s, void **args);
/* Runs x's steps on args (kiln_cpu_lean_fill's) and alone. */
kiln_status kiln_cpu_replay(kiln_cpu_executable *x, void **args, const bool *alone);
/* Runs function (of interp's module, or a copy with no calls left at its top level) whole in
 * the interpreter, observe (may be NULL) told of every op; results as for kiln_cpu_run.
 * shapes_only (NULL for a real run): a shapes-only run (kiln_interp_ctx.shapes_only), whose
 * results are not made (results is not written; it may be NULL). */
kiln_status kiln_cpu_run_interpreted(const kiln_interp *interp, const kiln_op *function, kiln_cpu_tensor *const *inputs,
                                     kiln_cpu_tensor **results, kiln_check_log *checks, kiln_interp_observer observe,
                                     void *observe_arg, const bool *shapes_only);

/* Shape-polymorphic entry functions (specialize.c): a `?` dimension in a parameter. Each
 * signature (input shapes and the values of the dimension arguments: the leading integer
 * scalar parameters) has its shapes recorded by a shapes-only run of the inlined function in
 * the interpreter (or, where that cannot stand for a real run, a real one);
 * kiln_refine_shapes (src/passes) then makes it static, and it is planned like any function,
 * its loops taking code the signatures share (family.h), and kept for that signature (at
 * most KILN_CPU_MAX_SPECS of them: a new one then replaces the least recently used that no
 * run is using). A signature refinement refuses is interpreted, and remembered so.
 * Thread-safe: the table is under a mutex, never held while compiling or running; a
 * family's templates are made under a lock of their own. */
#define KILN_CPU_MAX_SPECS 64
bool kiln_cpu_is_polymorphic(const kiln_op *function);
kiln_status kiln_cpu_specs_create(const kiln_module *m, const kiln_source *src, const kiln_op *function,
                                  kiln_cpu_specs **out);
void kiln_cpu_specs_destroy(kiln_cpu_specs *specs);
/* Runs the signature's compiled function (*ran true), or records and compiles it on its
 * first run (*ran true: those results come from the interpreter); *ran false: the caller
 * runs the function whole in the interpreter. */
kiln_status kiln_cpu_specs_run(kiln_cpu_specs *specs, kiln_cpu_tensor *const *inputs,
                               kiln_cpu_tensor **results, kiln_check_log *checks, bool *ran);
/* The signatures compiled so far, and those whose compile generated code. */
void kiln_cpu_specs_counts(const kiln_cpu_specs *specs, uint64_t *signatures, uint64_t *code_compiles);


/* Pays in the compile what x's first run would pay once. A program whose run is estimated
 * short (exec.c: at most 2 ms) runs once on zero inputs, skipping its interpreter and
 * control-flow steps (the run state and its arena, result blocks, oneDNN's lazy set-up,
 * the worker threads, the code's pages); a longer one, and quick code, is prepared
 * without a run: oneDNN's process-wide gemm kernels, the run state with its arena's pages
 * resident, and resident blocks for the first run's results. Best effort: a failure here
 * is left for the first run to report. Called once, before x is shared. */
void kiln_cpu_warm_up(kiln_cpu_executable *x);
/* The value whose memory v is (v itself, or what a view of v views). */
int32_t kiln_cpu_alias_base(const kiln_cpu_executable *x, int32_t v);
kiln_status kiln_cpu_tensor_new(kiln_elem elem, int32_t rank, const int64_t *dims, kiln_cpu_tensor **out);
void kiln_cpu_tensor_free(kiln_cpu_tensor *t);
/* t (its data and ownership aside) takes the static tensor type `type`: its element type,
 * shape and bytes; false (t unchanged) when the type is not a static tensor's or its bytes
 * overflow. */
bool kiln_cpu_tensor_set_type(kiln_cpu_tensor *t, const kiln_type *type);

/* Tensors a run state keeps from one run to the next for its control-flow steps to make
 * loop state and results in, so that a loop over small values allocates nothing once warm
 * (a tensor's header and memory cost about 400 cycles to allocate and free, as much as a
 * small loop body's steps): at most KILN_CPU_BIN_TENSORS plain tensors of at most
 * KILN_CPU_BIN_BYTES each, so an idle run state keeps at most 1 MiB. A bin belongs to one
 * run state (one run at a time): not thread-safe. */
#define KILN_CPU_BIN_TENSORS 16
#define KILN_CPU_BIN_BYTES ((uint64_t)64 << 10)
typedef struct kiln_cpu_bin {
  int32_t count;
  kiln_cpu_tensor *t[KILN_CPU_BIN_TENSORS];
} kiln_cpu_bin;
/* One of bin's tensors with the bytes of the type (elem, rank, dims), given that type and
 * owned by the caller now; NULL when bin (which may be NULL) has none. */
kiln_cpu_tensor *kiln_cpu_bin_take(kiln_cpu_bin *bin, kiln_elem elem, int32_t rank, const int64_t *dims);
/* Takes t (owned; NULL allowed): kept in bin when t is plain (neither held from the
 * interpreter nor donated), small and bin has room, freed otherwise. bin may be NULL. */
void kiln_cpu_bin_put(kiln_cpu_bin *bin, kiln_cpu_tensor *t);
/* Frees what bin keeps. */
void kiln_cpu_bin_clear(kiln_cpu_bin *bin);

/* Tensor memory: src/base/host_memory.h (kiln_host_alloc, shared with the interpreter). */

/* Control flow (control.c). kiln_cpu_control_prepare compiles the regions of a while, if
 * or case op of x's planned function when its values are static tensors (*out_done false
 * otherwise: the interpreter runs it); kiln_cpu_control_run runs the step, reading its
 * operands and captured values through in[k] (the step's values, in order) and putting
 * its results (new tensors the caller owns) in out; the tensors it makes come from bin
 * when it has them, and those it no longer needs go back to it. */
typedef struct kiln_cpu_control kiln_cpu_control;
kiln_status kiln_cpu_control_prepare(kiln_cpu_executable *x, const kiln_op *op, kiln_cpu_step *step, bool *out_done);
kiln_status kiln_cpu_control_run(const kiln_cpu_step *step, kiln_cpu_tensor *const *in, kiln_cpu_tensor **out,
                                 kiln_cpu_bin *bin, kiln_check_log *checks);
void kiln_cpu_control_destroy(kiln_cpu_control *c);
/* The executables of c's regions (*out, borrowed; an entry may be NULL) and their count. */
int32_t kiln_cpu_control_regions(const kiln_cpu_control *c, const kiln_cpu_executable *const **out);
/* Adds to *hits and *misses the code modules of x and of its control-flow regions that the
 * compile cache supplied and that were compiled and stored (kiln_cpu_code_origin). */
void kiln_cpu_code_cache_counts(const kiln_cpu_executable *x, uint64_t *hits, uint64_t *misses);
/* The ops x hands to the interpreter (kiln_executable_stats_info.interpreted_ops): one per
 * INTERP step (its regions run with it), every op of a function the interpreter runs whole
 * (a shape-polymorphic entry's too: each signature's first run is interpreted), and those
 * of its control-flow regions' executables. */
uint64_t kiln_cpu_interpreted_ops(const kiln_cpu_executable *x);

/* Sorting (sort.c). kiln_cpu_sort_prepare leaves *out NULL for a sort it does not do (the
 * interpreter runs it); kiln_cpu_sort_run sorts the operands in[] into out[] (dense, same
 * shapes). Thread-safe for concurrent runs. */
typedef struct kiln_cpu_sort kiln_cpu_sort;
kiln_status kiln_cpu_sort_prepare(const kiln_op *op, kiln_cpu_sort **out);
kiln_status kiln_cpu_sort_run(const kiln_cpu_sort *s, const void *const *in, void *const *out);
void kiln_cpu_sort_destroy(kiln_cpu_sort *s);

/* dynamic_slice / dynamic_update_slice (dynamic_slice.c): prepare leaves *out NULL for
 * what it does not do (the interpreter runs it); run reads the operands in[] (operand,
 * [update,] start indices) and writes the result. Thread-safe for concurrent runs. */
typedef struct kiln_cpu_dynslice kiln_cpu_dynslice;
kiln_status kiln_cpu_dynslice_prepare(const kiln_op *op, kiln_cpu_dynslice **out);
void kiln_cpu_dynslice_run(const kiln_cpu_dynslice *s, const void *const *in, void *out);
void kiln_cpu_dynslice_destroy(kiln_cpu_dynslice *s);
/* stablehlo.gather of any dimension numbers on static tensors (gather.c); prepare leaves
 * *out NULL for what it does not do (dynamic or quantized types: the interpreter runs it).
 * Thread-safe for concurrent runs. */
typedef struct kiln_cpu_gather kiln_cpu_gather;
kiln_status kiln_cpu_gather_prepare(const kiln_op *op, kiln_cpu_gather **out);
void kiln_cpu_gather_run(const kiln_cpu_gather *g, const void *operand, const void *indices, void *out);
void kiln_cpu_gather_destroy(kiln_cpu_gather *g);
/* stablehlo.scatter of any dimension numbers with one input and a one-op update
 * computation (scatter.c; gather_scatter.h says which run natively); *out NULL otherwise.
 * out receives a copy of operand, then the updates. Thread-safe for concurrent runs. */
typedef struct kiln_cpu_scatter kiln_cpu_scatter;
kiln_status kiln_cpu_scatter_prepare(const kiln_op *op, kiln_cpu_scatter **out);
/* Has s start its result as `value` (one element's bytes) in every element rather than a
 * copy of its operand, which runs then pass as NULL: the operand is a splat (a gradient's
 * zeros) never stored. false (s unchanged) for bytes other than the element's. */
bool kiln_cpu_scatter_fill(kiln_cpu_scatter *s, const void *value, size_t bytes);
void kiln_cpu_scatter_run(const kiln_cpu_scatter *s, const void *operand, const void *indices, const void *updates,
                          void *out);
void kiln_cpu_scatter_destroy(kiln_cpu_scatter *s);

/* stablehlo.concatenate of static, unquantized tensors of any element type (concat.c);
 * prepare leaves *out NULL for what it does not do. run copies the operands in[] into out
 * (over the pool when large). Thread-safe for concurrent runs. */
typedef struct kiln_cpu_concat kiln_cpu_concat;
kiln_status kiln_cpu_concat_prepare(const kiln_op *op, kiln_cpu_concat **out);
void kiln_cpu_concat_run(const kiln_cpu_concat *c, const void *const *in, void *out);
void kiln_cpu_concat_destroy(kiln_cpu_concat *c);
/* Whether operand k of concatenate op is a stablehlo.slice with unit strides that keeps
 * every dim of its operand but the concatenated one (a dim before it whole too), so that
 * its block of each result row is one run of the slice operand's bytes: *from, where the
 * first row's run starts, *stride, from one row's run to the next (bytes). */
bool kiln_cpu_concat_slice_run(const kiln_op *op, int32_t k, uint64_t *from, uint64_t *stride);
/* Makes c read operand k (its input then being the slice's operand) at those places. */
void kiln_cpu_concat_read_at(kiln_cpu_concat *c, int32_t k, uint64_t from, uint64_t stride);

/* reduce_window and select_and_scatter (window.c). kiln_cpu_window_prepare appends to x's
 * schedule the steps of op (scans, pads, loops over padded temporaries, a native
 * select_and_scatter) and sets *out_done, or leaves *out_done false for what it does not
 * do (the fusion or the interpreter runs it). kiln_cpu_window_extra: how many steps and
 * temporaries beyond one each it may add for op. kiln_cpu_window_run runs a WINDOW step:
 * in[] its inputs, out its output. Thread-safe for concurrent runs. */
typedef struct kiln_cpu_window kiln_cpu_window;
kiln_status kiln_cpu_window_prepare(kiln_cpu_executable *x, const kiln_op *op, bool *out_done);
int32_t kiln_cpu_window_extra(const kiln_op *op);
void kiln_cpu_window_run(const kiln_cpu_window *w, const void *const *in, void *out);
void kiln_cpu_window_destroy(kiln_cpu_window *w);

/* A reduce_window whose region window.c's kernels do not take (any region of elementwise
 * ops: logaddexp, argmax pairs), as a fold of the generated loops (compile.c builds it).
 * kiln_cpu_window_fold_prepare reads op's geometry into *f and, for a windowed fold of a
 * padded or base-dilated op, appends the pads of its operands (window.c); *out_ok false
 * (nothing appended) for what it does not do (the interpreter runs or reports it). */
#define KILN_CPU_WINDOW_MAX_OPERANDS 8 /* reduce_windows with more are interpreted */
typedef struct kiln_cpu_window_fold {
  int32_t scan_axis; /* >= 0: a running fold along this axis (loop.h: kiln_cpu_loop.scan) */
  bool reverse;      /* a suffix window's (padding after the axis) */
  /* otherwise a window per output point over src[k] (the operand, or its padded copy) */
  int32_t src[KILN_CPU_WINDOW_MAX_OPERANDS];
  const kiln_type *src_type[KILN_CPU_WINDOW_MAX_OPERANDS];
  int64_t size[KILN_CPU_MAX_RANK], stride[KILN_CPU_MAX_RANK], dilation[KILN_CPU_MAX_RANK];
} kiln_cpu_window_fold;
kiln_status kiln_cpu_window_fold_prepare(kiln_cpu_executable *x, const kiln_op *op, kiln_cpu_window_fold *f,
                                         bool *out_ok);

/* A dot_general's dimension numbers: dims[0..3] the lhs batching, rhs batching, lhs
 * contracting and rhs contracting dims, *nb batching pairs, *nc contracting pairs (an
 * absent list is empty); false when a list is malformed or longer than KILN_CPU_MAX_RANK,
 * or the lhs and rhs lists differ in length (compile.c). */
bool kiln_cpu_dot_dims(const kiln_op *op, int64_t dims[4][KILN_CPU_MAX_RANK], int32_t *nb, int32_t *nc);

/* stablehlo.fft (fft.h): the plan of op, or *out NULL for what it does not do (dynamic
 * or quantized types, an unknown fft_type: the interpreter runs it). The caller owns *out
 * (kiln_fft_plan_destroy); kiln_fft_run runs it. */
kiln_status kiln_cpu_fft_prepare(const kiln_op *op, struct kiln_fft_plan **out);

/* Adds to a window step of op the padding of value src (of type t) by lo / hi with base
 * dilation dil (init: the value in the padding and holes, a scalar), into a new temporary:
 * *out_value its slot, *out_type its type (window.c). */
kiln_status kiln_cpu_window_add_pad(kiln_cpu_executable *x, const kiln_op *op, int32_t src, int32_t init,
                                    const kiln_type *t, const int64_t *lo, const int64_t *hi, const int64_t *dil,
                                    int32_t *out_value, const kiln_type **out_type);

/* convolution (conv.c): appends the steps of op (a pad of its lhs, a oneDNN step or a
 * generated loop, a split reduction) and sets *out_done, or leaves it false for what it
 * does not do (the interpreter runs it). kiln_cpu_conv_extra: steps and temporaries beyond
 * one each it may add for op. */
kiln_status kiln_cpu_conv_prepare(kiln_cpu_executable *x, const kiln_op *op, bool *out_done);
int32_t kiln_cpu_conv_extra(const kiln_op *op);
/* oneDNN's plan for convolution op (conv.c), or *out NULL when it has none: it reads the
 * lhs in place, or (*via_pad) a padded and dilated copy that kiln_cpu_conv_prepare adds. */
struct kiln_cpu_dnnl_op;
kiln_status kiln_cpu_conv_prepare_dnnl(const kiln_op *op, struct kiln_cpu_dnnl_op **out, bool *via_pad);
/* A bias add fused into a convolution's oneDNN step as its epilogue (conv_bias.c): before
 * fusion, kiln_cpu_conv_fuse_bias finds each add(convolution, broadcast of a vector along
 * its output features) whose convolution has no other reader, the vector a parameter or
 * a constant, f32, that oneDNN plans with the bias; it fills x->conv_bias (the plan, the
 * bias vector's value and the add's result, by the convolution result's id). classify
 * makes those adds KILN_FUSE_EPILOGUE, and kiln_cpu_conv_prepare takes the plans;
 * kiln_cpu_conv_fuse_bias_release frees the plans it did not take. */
typedef struct kiln_cpu_conv_bias {
  struct kiln_cpu_dnnl_op *dnnl;
  bool via_pad;
  int32_t bias, out; /* value ids */
  bool fused_add;    /* by the add's result id: this add is such an epilogue */
} kiln_cpu_conv_bias;
kiln_status kiln_cpu_conv_fuse_bias(kiln_cpu_executable *x, const kiln_block *body);
void kiln_cpu_conv_fuse_bias_release(kiln_cpu_executable *x);
/* Shared by the planners (compile.c): makes step (x->steps[x->num_steps], counted even
 * when this fails, so p is freed with it) the DNNL step of op with prepared p, reading its
 * lhs from value lhs; and splits a reduction LOOP step with few points into partial
 * reductions and a second loop appended after it (nothing when it does not pay). */
kiln_status kiln_cpu_dnnl_step(kiln_cpu_executable *x, const kiln_op *op, struct kiln_cpu_dnnl_op *p, int32_t lhs,
                               kiln_cpu_step *step);
kiln_status kiln_cpu_split_reduction(kiln_cpu_executable *x, kiln_cpu_step *step);

/* Temporaries written over (donate.c): the output of a step that may write over an
 * operand as it reads it (a loop reading it only at the points it writes; a scatter or
 * dynamic_update_slice of it, which then updates it instead of copying it) becomes an
 * alias of that operand when the operand is an arena temporary of the same size that no
 * later step and no result reads, and the steps of the writer's row-block run that read it
 * do so at the same points: one buffer in the plan, and the update's copy gone. XLA:CPU
 * shares buffers the same way. After the row runs are found, before the buffer plan. */
void kiln_cpu_plan_in_place(kiln_cpu_executable *x);

/* Donation and copies (donate.c). kiln_cpu_plan_reuse, once x's steps are planned: which
 * result may take which donated input's tensor (x->donors), and what control-flow steps
 * need not copy (kiln_cpu_control_mark_dead). kiln_cpu_count_copy adds one copy of bytes
 * to x's figures (atomically: runs may overlap). */
kiln_status kiln_cpu_plan_reuse(kiln_cpu_executable *x);
void kiln_cpu_count_copy(kiln_cpu_executable *x, uint64_t bytes);
/* Whether step s or a later one of x reads value v (or a view of it), or a result of x is
 * (a view of) it. */
bool kiln_cpu_value_needed(const kiln_cpu_executable *x, int32_t s, int32_t v);
/* Marks the results of control-flow step s (of x) that nothing needs afterwards, so the
 * step does not copy a loop's carried value out for them (control.c). */
void kiln_cpu_control_mark_dead(const kiln_cpu_executable *x, int32_t s);
/* Calls fn on x and on the executables of its control-flow regions, nested ones too. */
void kiln_cpu_visit(const kiln_cpu_executable *x, void (*fn)(const kiln_cpu_executable *, void *), void *ctx);
/* The copies of x and its regions (kiln_executable_stats_info.copies) and their bytes. */
void kiln_cpu_copy_counts(const kiln_cpu_executable *x, uint64_t *copies, uint64_t *bytes);
/* The preparations runs of x and its regions made themselves
 * (kiln_executable_stats_info.prepared_in_runs; exec.c). */
uint64_t kiln_cpu_prepared_in_runs(const kiln_cpu_executable *x);

/* Runs fn over [0, points) split over the threads when work is large enough, at
 * multiples of grain (points that one call should make together; 0 or 1: any point). */
void kiln_cpu_parallel_for(kiln_cpu_loop_fn fn, void *const *bufs, int64_t points, int64_t grain, int64_t work);
/* Whether kiln_cpu_parallel_for runs such a call on the caller alone (fn(bufs, 0, points)). */
bool kiln_cpu_parallel_alone(int64_t points, int64_t grain, int64_t work);
/* Runs the n LOOP steps of a run (step->run_length) block of rows by block of rows;
 * bufs[k]: the argument array of step k. The rows are split over the threads, in
 * multiples of every step's grain. */
void kiln_cpu_parallel_rows(const kiln_cpu_step *steps, int32_t n, void *const *const *bufs);

/* Finds runs of LOOP steps that can go row block by row block (each reads what earlier
 * steps of the run made only from the same rows) and marks them (before code generation:
 * it reads the loops' spaces as built). */
void kiln_cpu_find_row_runs(kiln_cpu_executable *x);
/* Makes the temporaries that a row-block run makes and only its own steps read LOCAL:
 * a block of rows at a time in a small per-thread scratch that stays in cache, instead of
 * whole in the arena, written to memory and read back (after kiln_cpu_plan_in_place, before
 * the buffer plan). Nothing changes when the run's arrays cannot be made. */
void kiln_cpu_plan_block_locals(kiln_cpu_executable *x);

#endif
