/* Running an executable on host binaries: {binary, type, shape} in, the same out. */
#include "kiln_nif.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Element types by their atom; the Elixir side maps Nx's {:f, 32} style onto these. */
static const struct {
  const char *name;
  kiln_element_type type;
} type_names[] = {
    {"pred", KILN_ELEMENT_TYPE_PRED},          {"s8", KILN_ELEMENT_TYPE_S8},
    {"s16", KILN_ELEMENT_TYPE_S16},            {"s32", KILN_ELEMENT_TYPE_S32},
    {"s64", KILN_ELEMENT_TYPE_S64},            {"u8", KILN_ELEMENT_TYPE_U8},
    {"u16", KILN_ELEMENT_TYPE_U16},            {"u32", KILN_ELEMENT_TYPE_U32},
    {"u64", KILN_ELEMENT_TYPE_U64},            {"f16", KILN_ELEMENT_TYPE_F16},
    {"f32", KILN_ELEMENT_TYPE_F32},            {"f64", KILN_ELEMENT_TYPE_F64},
    {"bf16", KILN_ELEMENT_TYPE_BF16},          {"c64", KILN_ELEMENT_TYPE_C64},
    {"c128", KILN_ELEMENT_TYPE_C128},          {"f8e5m2", KILN_ELEMENT_TYPE_F8E5M2},
    {"f8e4m3fn", KILN_ELEMENT_TYPE_F8E4M3FN},  {"f8e4m3b11fnuz", KILN_ELEMENT_TYPE_F8E4M3B11FNUZ},
    {"f8e5m2fnuz", KILN_ELEMENT_TYPE_F8E5M2FNUZ}, {"f8e4m3fnuz", KILN_ELEMENT_TYPE_F8E4M3FNUZ},
    {"s4", KILN_ELEMENT_TYPE_S4},              {"u4", KILN_ELEMENT_TYPE_U4},
    {"token", KILN_ELEMENT_TYPE_TOKEN},        {"s2", KILN_ELEMENT_TYPE_S2},
    {"u2", KILN_ELEMENT_TYPE_U2},              {"f8e4m3", KILN_ELEMENT_TYPE_F8E4M3},
    {"f8e3m4", KILN_ELEMENT_TYPE_F8E3M4},      {"f8e8m0fnu", KILN_ELEMENT_TYPE_F8E8M0FNU},
    {"f4e2m1fn", KILN_ELEMENT_TYPE_F4E2M1FN},  {"f6e2m3fn", KILN_ELEMENT_TYPE_F6E2M3FN},
    {"f6e3m2fn", KILN_ELEMENT_TYPE_F6E3M2FN},  {"tf32", KILN_ELEMENT_TYPE_TF32},
    {"tuple", KILN_ELEMENT_TYPE_TUPLE},
};
enum { NUM_TYPES = sizeof type_names / sizeof type_names[0], MAX_ARGS = 1024 };
/* Runs of an executable whose last run was shorter than this stay on the normal scheduler. */
#define INLINE_RUN_NS 100000
static ERL_NIF_TERM type_atoms[NUM_TYPES]; /* atoms are never collected: safe to keep */

void kiln_nif_make_type_atoms(ErlNifEnv *env) {
  for (int i = 0; i < NUM_TYPES; i++) type_atoms[i] = enif_make_atom(env, type_names[i].name);
}

kiln_element_type kiln_nif_type_of_atom(ERL_NIF_TERM atom) {
  for (int i = 0; i < NUM_TYPES; i++)
    if (enif_is_identical(atom, type_atoms[i])) return type_names[i].type;
  return KILN_ELEMENT_TYPE_INVALID;
}

ERL_NIF_TERM kiln_nif_atom_of_type(ErlNifEnv *env, kiln_element_type type) {
  for (int i = 0; i < NUM_TYPES; i++)
    if (type_names[i].type == type) return type_atoms[i];
  return enif_make_atom(env, "invalid");
}

/* One input term {binary, type_atom, shape_tuple} made into a buffer on device; on
 * failure returns {:error, "input N: ..."}, else 0 with *out set. */
static ERL_NIF_TERM make_input(ErlNifEnv *env, ERL_NIF_TERM term, int index, kiln_device *device, kiln_buffer **out) {
  const ERL_NIF_TERM *parts, *dims_terms;
  int arity, rank;
  ErlNifBinary data;
  char why[96];
  const char *bad = NULL;
  kiln_element_type type = KILN_ELEMENT_TYPE_INVALID;
  int64_t dims[KILN_MAX_RANK];
  if (!enif_get_tuple(env, term, &arity, &parts) || arity != 3) bad = "not a {binary, type, shape} tuple";
  else if (!enif_inspect_binary(env, parts[0], &data)) bad = "its data is not a binary";
  else if ((type = kiln_nif_type_of_atom(parts[1])) == KILN_ELEMENT_TYPE_INVALID ||
           kiln_element_type_size(type) == 0)
    bad = "unknown element type (:f32, :s64, :bf16, ...)";
  else if (!enif_get_tuple(env, parts[2], &rank, &dims_terms) || rank > KILN_MAX_RANK)
    bad = "its shape is not a tuple of at most 64 sizes";
  for (int d = 0; !bad && d < rank; d++) {
    ErlNifSInt64 v;
    if (!enif_get_int64(env, dims_terms[d], &v) || v < 0) bad = "its shape holds a size that is not a non-negative integer";
    else dims[d] = v;
  }
  if (bad) {
    snprintf(why, sizeof why, "input %d: %s", index, bad);
    return kiln_nif_error(env, why);
  }
  kiln_buffer_args args = {sizeof args, type, rank, dims, data.data, data.size};
  kiln_status st = kiln_buffer_create(device, &args, out);
  if (!st) return 0;
  snprintf(why, sizeof why, "input %d", index);
  return kiln_nif_status_error(env, st, why);
}

/* One result as {binary, type_atom, shape_tuple}, or 0 with *out_error set. Token and
 * tuple results, which have no host data, come back as {<<>>, :token | :tuple, {}}. */
static ERL_NIF_TERM make_output(ErlNifEnv *env, kiln_buffer *b, ERL_NIF_TERM *out_error) {
  kiln_element_type type = kiln_buffer_element_type(b);
  bool opaque = type == KILN_ELEMENT_TYPE_TOKEN || type == KILN_ELEMENT_TYPE_TUPLE;
  size_t size = kiln_buffer_byte_size(b);
  int32_t rank = opaque ? 0 : kiln_buffer_rank(b);
  const int64_t *dims = kiln_buffer_dims(b);
  ERL_NIF_TERM dims_terms[KILN_MAX_RANK], data;
  for (int32_t d = 0; d < rank; d++) dims_terms[d] = enif_make_int64(env, dims[d]);
  unsigned char *dst = enif_make_new_binary(env, opaque ? 0 : size, &data);
  kiln_status st = dst && !opaque ? kiln_buffer_copy_to_host(b, dst, size) : NULL;
  if (!dst || st) {
    *out_error = st ? kiln_nif_status_error(env, st, "reading a result") : kiln_nif_error(env, "out of memory");
    return 0;
  }
  return enif_make_tuple3(env, data, kiln_nif_atom_of_type(env, type),
                          enif_make_tuple_from_array(env, dims_terms, (unsigned)rank));
}

/* Runs x on the inputs: what execute answers. Records how long the run took. */
static ERL_NIF_TERM run(ErlNifEnv *env, kiln_nif_executable *x, ERL_NIF_TERM input_list) {
  unsigned n;
  char why[96];
  if (!enif_get_list_length(env, input_list, &n)) return kiln_nif_error(env, "the inputs must be a list");
  if (n != (unsigned)x->num_inputs) {
    snprintf(why, sizeof why, "the function takes %d inputs, got %u", (int)x->num_inputs, n);
    return kiln_nif_error(env, why);
  }
  if (x->num_inputs > MAX_ARGS || x->num_results > MAX_ARGS) return kiln_nif_error(env, "too many inputs or results");
  kiln_buffer *small[16] = {0}, **buffers = small;
  size_t slots = (size_t)x->num_inputs + (size_t)x->num_results;
  if (slots > 16 && !(buffers = enif_alloc(slots * sizeof *buffers))) return kiln_nif_error(env, "out of memory");
  memset(buffers, 0, slots * sizeof *buffers);
  kiln_buffer **inputs = buffers, **results = buffers + x->num_inputs;

  ERL_NIF_TERM head, tail = input_list, result = 0;
  for (int i = 0; !result && enif_get_list_cell(env, tail, &head, &tail); i++)
    result = make_input(env, head, i, x->device, &inputs[i]);
  if (!result) {
    kiln_event *done = NULL;
    kiln_execute_args args = {sizeof args, inputs, x->num_inputs, results, x->num_results, 0, NULL};
    ErlNifTime t0 = enif_monotonic_time(ERL_NIF_NSEC);
    kiln_status st = kiln_executable_execute(x->executable, &args, &done);
    if (!st) st = kiln_event_wait(done);
    atomic_store_explicit(&x->last_run_ns, enif_monotonic_time(ERL_NIF_NSEC) - t0, memory_order_relaxed);
    kiln_event_release(done);
    if (st) result = kiln_nif_status_error(env, st, NULL);
  }
  if (!result) {
    ERL_NIF_TERM error = 0, list = enif_make_list(env, 0);
    for (int32_t i = x->num_results - 1; i >= 0 && !error; i--) {
      ERL_NIF_TERM out = make_output(env, results[i], &error);
      if (out) list = enif_make_list_cell(env, out, list);
    }
    result = error ? error : kiln_nif_ok(env, list);
  }
  for (size_t i = 0; i < slots; i++) kiln_buffer_release(buffers[i]);
  if (buffers != small) enif_free(buffers);
  return result;
}

static ERL_NIF_TERM dirty_execute(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  kiln_nif_executable *x;
  if (!enif_get_resource(env, argv[0], kiln_nif_executable_type, (void **)&x))
    return kiln_nif_error(env, "not a Kiln executable");
  return run(env, x, argv[1]);
}

/* execute(executable, [{binary, type, shape}]) -> {:ok, [{binary, type, shape}]} | {:error, message}
 *
 * Called on a normal scheduler. A run goes to a dirty CPU scheduler unless the
 * executable's last run took under INLINE_RUN_NS: then it runs here at once, sparing the
 * few microseconds a hop to a dirty scheduler and back costs, well within the millisecond
 * a NIF may hold a normal scheduler (and reported to it as the timeslice used). */
ERL_NIF_TERM kiln_nif_execute(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  kiln_nif_executable *x;
  if (!enif_get_resource(env, argv[0], kiln_nif_executable_type, (void **)&x))
    return kiln_nif_error(env, "not a Kiln executable");
  if (atomic_load_explicit(&x->last_run_ns, memory_order_relaxed) >= INLINE_RUN_NS)
    return enif_schedule_nif(env, "execute", ERL_NIF_DIRTY_JOB_CPU_BOUND, dirty_execute, argc, argv);
  ErlNifTime t0 = enif_monotonic_time(ERL_NIF_NSEC);
  ERL_NIF_TERM result = run(env, x, argv[1]);
  int percent = (int)((enif_monotonic_time(ERL_NIF_NSEC) - t0) / 10000); /* of a 1 ms timeslice */
  enif_consume_timeslice(env, percent < 1 ? 1 : percent > 100 ? 100 : percent);
  return result;
}
