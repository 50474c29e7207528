/* The queries JAX makes beyond jit's call sequence: Buffer_UnsafePointer (jax.Array's
 * unsafe_buffer_pointer: the contents' host address on cpu and interp, one per buffer),
 * Executable_Name (the module's name, "jit_f") and Executable_Fingerprint (equal for equal
 * programs on the same device, different otherwise); and a program calling a custom-call
 * target Kiln does not implement refused by Client_Compile, not by Execute. */
#include <string.h>

#include "support.h"

static uintptr_t unsafe_pointer(PJRT_Buffer *b) {
  ARGS(PJRT_Buffer_UnsafePointer_Args, a);
  a.buffer = b;
  return OK(api->PJRT_Buffer_UnsafePointer(&a)) ? a.buffer_pointer : 0;
}

static void check_unsafe_pointer(PJRT_Client *c, PJRT_Device *d) {
  const float x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40};
  const int64_t dims[1] = {4};
  PJRT_Buffer *a = t_buffer(c, NULL, t_memory(d), PJRT_Buffer_Type_F32, x, dims, 1, NULL);
  PJRT_Buffer *b = t_buffer(c, NULL, t_memory(d), PJRT_Buffer_Type_F32, y, dims, 1, NULL);
  if (!a || !b) return;
  uintptr_t pa = unsafe_pointer(a), pb = unsafe_pointer(b);
  CHECK(pa && pb && pa != pb, "unsafe pointers %#zx and %#zx", (size_t)pa, (size_t)pb);
  CHECK(pa && !memcmp((const void *)pa, x, sizeof x), "the pointer does not address the buffer's contents");
  CHECK(unsafe_pointer(a) == pa, "the pointer changed between two queries");

  /* a run's output: its own memory, holding the result */
  PJRT_Error *err;
  PJRT_LoadedExecutable *exe = t_compile(c, t_add_program, strlen(t_add_program), t_jax_options, t_jax_options_size, &err);
  OK(err);
  PJRT_Buffer *args[2] = {a, b}, *out[1] = {NULL};
  if (exe && OK(t_execute(exe, args, 2, out, NULL, NULL))) {
    uintptr_t po = unsafe_pointer(out[0]);
    const float want[4] = {11, 22, 33, 44};
    CHECK(po && po != pa && po != pb && !memcmp((const void *)po, want, sizeof want), "output pointer %#zx",
          (size_t)po);
    t_buffer_destroy(out[0]);
  }
  if (exe) t_executable_destroy(exe);

  /* an argument returned twice: two new buffers, each with memory of its own */
  const char *twice = "func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {\n"
                      "  return %a, %a : tensor<4xf32>, tensor<4xf32>\n"
                      "}\n";
  exe = t_compile(c, twice, strlen(twice), t_jax_options, t_jax_options_size, &err);
  OK(err);
  PJRT_Buffer *outs[2] = {NULL, NULL};
  if (exe && OK(t_execute(exe, args, 1, outs, NULL, NULL))) {
    uintptr_t p0 = unsafe_pointer(outs[0]), p1 = unsafe_pointer(outs[1]);
    CHECK(p0 && p1 && p0 != pa && p1 != pa && p0 != p1 && !memcmp((const void *)p0, x, sizeof x) &&
              !memcmp((const void *)p1, x, sizeof x),
          "an argument returned twice: pointers %#zx, %#zx (argument %#zx)", (size_t)p0, (size_t)p1, (size_t)pa);
    t_buffer_destroy(outs[0]);
    t_buffer_destroy(outs[1]);
  }
  if (exe) t_executable_destroy(exe);

  /* a 0-element buffer answers too (any address) */
  const int64_t empty_dims[1] = {0};
  PJRT_Buffer *e = t_buffer(c, NULL, t_memory(d), PJRT_Buffer_Type_F32, x, empty_dims, 1, NULL);
  if (e) {
    ARGS(PJRT_Buffer_UnsafePointer_Args, q);
    q.buffer = e;
    OK(api->PJRT_Buffer_UnsafePointer(&q));
    t_buffer_destroy(e);
  }

  /* errors: deleted, NULL, too small */
  ARGS(PJRT_Buffer_Delete_Args, del);
  del.buffer = b;
  OK(api->PJRT_Buffer_Delete(&del));
  ARGS(PJRT_Buffer_UnsafePointer_Args, q);
  q.buffer = b;
  FAILS(api->PJRT_Buffer_UnsafePointer(&q), PJRT_Error_Code_FAILED_PRECONDITION, "deleted");
  q.buffer = NULL;
  FAILS(api->PJRT_Buffer_UnsafePointer(&q), PJRT_Error_Code_INVALID_ARGUMENT, "buffer is NULL");
  q.buffer = a;
  q.struct_size = offsetof(PJRT_Buffer_UnsafePointer_Args, buffer_pointer);
  FAILS(api->PJRT_Buffer_UnsafePointer(&q), PJRT_Error_Code_INVALID_ARGUMENT, "struct_size");
  FAILS(api->PJRT_Buffer_UnsafePointer(NULL), PJRT_Error_Code_INVALID_ARGUMENT, "args is NULL");
  t_buffer_destroy(a);
  t_buffer_destroy(b);
}

/* The name and fingerprint of program compiled with options (NULL: none). */
static bool describe(PJRT_Client *c, const char *program, const void *options, size_t options_size, char *name,
                     char *fingerprint, size_t size) {
  PJRT_Error *err;
  PJRT_LoadedExecutable *x = t_compile(c, program, strlen(program), options, options_size, &err);
  if (!OK(err) || !x) return false;
  ARGS(PJRT_LoadedExecutable_GetExecutable_Args, g);
  g.loaded_executable = x;
  OK(api->PJRT_LoadedExecutable_GetExecutable(&g));
  ARGS(PJRT_Executable_Name_Args, nm);
  nm.executable = g.executable;
  OK(api->PJRT_Executable_Name(&nm));
  ARGS(PJRT_Executable_Fingerprint_Args, fp);
  fp.executable = g.executable;
  OK(api->PJRT_Executable_Fingerprint(&fp));
  bool ok = nm.executable_name_size < size && fp.executable_fingerprint_size < size;
  CHECK(ok, "name or fingerprint too long");
  if (ok) {
    memcpy(name, nm.executable_name, nm.executable_name_size);
    name[nm.executable_name_size] = 0;
    memcpy(fingerprint, fp.executable_fingerprint, fp.executable_fingerprint_size);
    fingerprint[fp.executable_fingerprint_size] = 0;
  }
  ARGS(PJRT_Executable_Destroy_Args, xd);
  xd.executable = g.executable;
  OK(api->PJRT_Executable_Destroy(&xd));
  t_executable_destroy(x);
  return ok;
}

static const char named_program[] =
    "module @jit_f attributes {mhlo.num_partitions = 1 : i32} {\n"
    "  func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "    %0 = stablehlo.negate %a : tensor<4xf32>\n"
    "    return %0 : tensor<4xf32>\n"
    "  }\n"
    "}\n";

static void check_name_and_fingerprint(PJRT_Client *c) {
  char name[256], fp[256], name2[256], fp2[256];
  if (describe(c, named_program, t_jax_options, t_jax_options_size, name, fp, sizeof name))
    CHECK(!strcmp(name, "jit_f"), "executable name '%s', expected the module's 'jit_f'", name);
  if (describe(c, named_program, t_jax_options, t_jax_options_size, name2, fp2, sizeof name))
    CHECK(!strcmp(fp, fp2) && strlen(fp) >= 64, "the same program compiled twice: fingerprints '%s' and '%s'", fp,
          fp2);
  if (describe(c, t_add_program, t_jax_options, t_jax_options_size, name2, fp2, sizeof name))
    CHECK(!strcmp(name2, "main") && strcmp(fp, fp2), "an unnamed module: name '%s' (expected 'main'), fingerprint '%s'",
          name2, fp2);
  const unsigned char portable[] = {0x20, 0x01}; /* compile_portable_executable */
  if (describe(c, named_program, portable, sizeof portable, name2, fp2, sizeof name))
    CHECK(strcmp(fp, fp2), "a portable executable has the fingerprint of a device's: '%s'", fp2);
  ARGS(PJRT_Executable_Fingerprint_Args, q);
  FAILS(api->PJRT_Executable_Fingerprint(&q), PJRT_Error_Code_INVALID_ARGUMENT, "executable is NULL");
  q.struct_size = offsetof(PJRT_Executable_Fingerprint_Args, executable_fingerprint_size);
  FAILS(api->PJRT_Executable_Fingerprint(&q), PJRT_Error_Code_INVALID_ARGUMENT, "struct_size");
}

/* A target no device implements, called directly, from a function @main calls, and inside
 * a while body: each refused by Compile, naming the target and its line. */
static const char *const unknown_target_programs[] = {
    "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.custom_call @kiln_no_such_target(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n",

    "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = func.call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n"
    "func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.custom_call @kiln_no_such_target(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n",

    "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %0:2 = stablehlo.while(%i = %c, %x = %a) : tensor<i32>, tensor<4xf32>\n"
    "    cond {\n"
    "      %k = stablehlo.constant dense<0> : tensor<i32>\n"
    "      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "      stablehlo.return %p : tensor<i1>\n"
    "    } do {\n"
    "      %y = stablehlo.custom_call @kiln_no_such_target(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "      stablehlo.return %i, %y : tensor<i32>, tensor<4xf32>\n"
    "    }\n"
    "  return %0#1 : tensor<4xf32>\n"
    "}\n",
};
static const char *const unknown_target_lines[] = {"<pjrt program>:2:", "<pjrt program>:6:", "<pjrt program>:9:"};

static void check_unknown_targets(PJRT_Client *c) {
  for (size_t i = 0; i < sizeof unknown_target_programs / sizeof unknown_target_programs[0]; i++) {
    PJRT_Error *err;
    const char *p = unknown_target_programs[i];
    PJRT_LoadedExecutable *x = t_compile(c, p, strlen(p), t_jax_options, t_jax_options_size, &err);
    CHECK(!x, "program %zu calling an unknown target compiled", i);
    if (x) t_executable_destroy(x);
    ARGS(PJRT_Error_Message_Args, m);
    m.error = err;
    if (err) api->PJRT_Error_Message(&m);
    CHECK(err && m.message_size && strstr(m.message, unknown_target_lines[i]), "program %zu: '%.*s' not at %s", i,
          (int)m.message_size, m.message ? m.message : "", unknown_target_lines[i]);
    FAILS(err, PJRT_Error_Code_UNIMPLEMENTED, "calls target 'kiln_no_such_target', which Kiln does not implement");
  }
  /* a target Kiln runs (check.*), and an unknown one in a function nothing calls: compile */
  const char *fine =
      "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.custom_call @check.expect_eq(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<i1>\n"
      "  return %a : tensor<4xf32>\n"
      "}\n"
      "func.func private @unused(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.custom_call @kiln_no_such_target(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n";
  PJRT_Error *err;
  PJRT_LoadedExecutable *x = t_compile(c, fine, strlen(fine), t_jax_options, t_jax_options_size, &err);
  OK(err);
  if (x) t_executable_destroy(x);
}

void t_queries(void) {
  PJRT_Client *c = t_client(PJRT_Client_Create_Args_STRUCT_SIZE, NULL, 0);
  if (!c) return;
  PJRT_Device *d = t_device(c, 0);
  if (d) {
    check_unsafe_pointer(c, d);
    check_name_and_fingerprint(c);
    check_unknown_targets(c);
  }
  t_client_destroy(c);
}
