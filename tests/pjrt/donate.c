/* Donation through PJRT (src/pjrt/execute.c): the arguments a program marks as donors
 * (JAX's donate_argnums lowers to `tf.aliasing_output` / `jax.buffer_donor`) are consumed
 * by Execute, so the buffer reads as deleted and later use is the error JAX raises; the
 * options' non_donatable_input_indices keep one; unmarked arguments are never consumed;
 * bad indices are errors that consume nothing. */
#include <string.h>

#include "support.h"

static const char k_marked[] =
    "func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32}, %b: tensor<4xf32> {jax.buffer_donor = true},\n"
    "                %c: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
    "  %1 = stablehlo.add %0, %c : tensor<4xf32>\n"
    "  return %1 : tensor<4xf32>\n"
    "}\n";

static bool deleted(PJRT_Buffer *b) {
  ARGS(PJRT_Buffer_IsDeleted_Args, a);
  a.buffer = b;
  return OK(api->PJRT_Buffer_IsDeleted(&a)) && a.is_deleted;
}

/* Runs x on args with the options' non-donatable indices (n of them). */
static PJRT_Error *execute(PJRT_LoadedExecutable *x, PJRT_Buffer *const *args, PJRT_Buffer **out, const int64_t *keep,
                           size_t n) {
  ARGS(PJRT_ExecuteOptions, o);
  o.non_donatable_input_indices = keep;
  o.num_non_donatable_input_indices = n;
  PJRT_Buffer *const *lists[1] = {args};
  PJRT_Buffer **outs[1] = {out};
  PJRT_Event *done[1] = {NULL};
  ARGS(PJRT_LoadedExecutable_Execute_Args, a);
  a.executable = x;
  a.options = &o;
  a.argument_lists = lists;
  a.num_devices = 1;
  a.num_args = 3;
  a.output_lists = outs;
  a.device_complete_events = done;
  PJRT_Error *err = api->PJRT_LoadedExecutable_Execute(&a);
  t_event_destroy(done[0]);
  return err;
}

void t_donate(void) {
  PJRT_Client *c = t_client(PJRT_Client_Create_Args_STRUCT_SIZE, NULL, 0);
  if (!c) return;
  PJRT_Device *d = t_device(c, 0);
  PJRT_Memory *m = t_memory(d);
  PJRT_Error *err = NULL;
  PJRT_LoadedExecutable *x = t_compile(c, k_marked, strlen(k_marked), t_jax_options, t_jax_options_size, &err);
  CHECK(x, "compile the marked program");
  OK(err);
  if (!x) {
    t_client_destroy(c);
    return;
  }
  const float v[4] = {1, 2, 3, 4};
  const int64_t dims[1] = {4};
  PJRT_Buffer *in[3], *out[1] = {NULL};
  for (int i = 0; i < 3; i++) in[i] = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, v, dims, 1, NULL);

  /* a and b are marked: both consumed; c is not */
  CHECK(OK(execute(x, in, out, NULL, 0)), "a run donating the marked arguments");
  float got[4] = {0};
  CHECK(out[0] && t_read(out[0], got, sizeof got) && got[0] == 3 && got[3] == 12, "the result (%g %g)", got[0], got[3]);
  CHECK(deleted(in[0]) && deleted(in[1]) && !deleted(in[2]), "the donated arguments are deleted, the other is not");
  PJRT_Buffer *again[1] = {NULL};
  FAILS(execute(x, in, again, NULL, 0), PJRT_Error_Code_FAILED_PRECONDITION, "argument 0 has been deleted");
  ARGS(PJRT_Buffer_ToHostBuffer_Args, th);
  th.src = in[1];
  th.dst = got;
  th.dst_size = sizeof got;
  FAILS(api->PJRT_Buffer_ToHostBuffer(&th), PJRT_Error_Code_FAILED_PRECONDITION, "deleted");
  t_buffer_destroy(out[0]);
  out[0] = NULL;

  /* non_donatable_input_indices keeps b (as JAX does for an array passed twice) */
  t_buffer_destroy(in[0]);
  t_buffer_destroy(in[1]);
  in[0] = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, v, dims, 1, NULL);
  in[1] = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, v, dims, 1, NULL);
  const int64_t keep_b[1] = {1};
  CHECK(OK(execute(x, in, out, keep_b, 1)), "a run keeping argument 1");
  CHECK(deleted(in[0]) && !deleted(in[1]) && t_read(in[1], got, sizeof got) && got[1] == 2,
        "only argument 0 consumed");
  t_buffer_destroy(out[0]);
  out[0] = NULL;

  /* an argument passed twice is refused (as XLA's clients do) unless every place of it
   * is named non-donatable */
  t_buffer_destroy(in[0]);
  in[0] = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, v, dims, 1, NULL);
  PJRT_Buffer *twice[3] = {in[0], in[0], in[2]};
  FAILS(execute(x, twice, out, NULL, 0), PJRT_Error_Code_INVALID_ARGUMENT, "inputs #0 and #1 are the same buffer, donated twice");
  FAILS(execute(x, twice, out, keep_b, 1), PJRT_Error_Code_INVALID_ARGUMENT, "input #0 is donated and also passed undonated");
  CHECK(!deleted(in[0]), "a refused run consumes nothing");
  const int64_t keep_both[2] = {0, 1};
  CHECK(OK(execute(x, twice, out, keep_both, 2)), "the same buffer twice, both places non-donatable");
  CHECK(!deleted(in[0]), "kept");
  t_buffer_destroy(out[0]);
  out[0] = NULL;

  /* bad indices: errors, nothing consumed */
  const int64_t bad[1] = {3}, negative[1] = {-1};
  FAILS(execute(x, in, out, bad, 1), PJRT_Error_Code_INVALID_ARGUMENT, "non_donatable_input_indices[0] is 3");
  FAILS(execute(x, in, out, negative, 1), PJRT_Error_Code_INVALID_ARGUMENT, "is -1");
  FAILS(execute(x, in, out, NULL, 2), PJRT_Error_Code_INVALID_ARGUMENT, "non_donatable_input_indices is NULL");
  CHECK(!deleted(in[0]) && !deleted(in[1]) && !deleted(in[2]), "nothing consumed by refused runs");

  /* a program without donation attributes never consumes its arguments */
  PJRT_LoadedExecutable *plain = t_compile(c, t_add_program, strlen(t_add_program), t_jax_options, t_jax_options_size, &err);
  OK(err);
  PJRT_Buffer *two[2] = {in[0], in[1]};
  if (plain && OK(t_execute(plain, two, 2, out, NULL, NULL)))
    CHECK(!deleted(in[0]) && !deleted(in[1]), "unmarked arguments stay");
  t_buffer_destroy(out[0]);
  t_executable_destroy(plain);
  for (int i = 0; i < 3; i++) t_buffer_destroy(in[i]);
  t_executable_destroy(x);
  t_client_destroy(c);
}
