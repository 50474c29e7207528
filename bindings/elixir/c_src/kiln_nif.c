/* The NIF library Elixir's Kiln.NIF loads: resource types, shared term helpers and the
 * function table. Compiles run on dirty CPU schedulers, and so do runs, except those of an
 * executable whose last run was short (nif_execute.c); client creation and plugin scans
 * (which dlopen plugins) run on dirty I/O schedulers. */
#include "kiln_nif.h"

#include <string.h>

ErlNifResourceType *kiln_nif_client_type;
ErlNifResourceType *kiln_nif_executable_type;

ERL_NIF_TERM kiln_nif_ok(ErlNifEnv *env, ERL_NIF_TERM term) {
  return enif_make_tuple2(env, enif_make_atom(env, "ok"), term);
}

ERL_NIF_TERM kiln_nif_string(ErlNifEnv *env, const char *s) {
  ERL_NIF_TERM term;
  size_t n = s ? strlen(s) : 0;
  unsigned char *data = enif_make_new_binary(env, n, &term);
  if (n) memcpy(data, s, n);
  return term;
}

ERL_NIF_TERM kiln_nif_error(ErlNifEnv *env, const char *message) {
  return enif_make_tuple2(env, enif_make_atom(env, "error"), kiln_nif_string(env, message));
}

ERL_NIF_TERM kiln_nif_status_error(ErlNifEnv *env, kiln_status status, const char *prefix) {
  const char *message = kiln_status_message(status);
  ERL_NIF_TERM term;
  if (prefix) {
    size_t np = strlen(prefix), nm = strlen(message);
    unsigned char *data = enif_make_new_binary(env, np + 2 + nm, &term);
    memcpy(data, prefix, np);
    memcpy(data + np, ": ", 2);
    memcpy(data + np + 2, message, nm);
  } else {
    term = kiln_nif_string(env, message);
  }
  kiln_status_free(status);
  return enif_make_tuple2(env, enif_make_atom(env, "error"), term);
}

char *kiln_nif_cstring(ErlNifEnv *env, ERL_NIF_TERM term, int *out_nil) {
  ErlNifBinary bin;
  *out_nil = 0;
  if (enif_is_identical(term, enif_make_atom(env, "nil"))) {
    *out_nil = 1;
    return NULL;
  }
  if (!enif_inspect_binary(env, term, &bin) || memchr(bin.data, '\0', bin.size)) return NULL;
  char *s = enif_alloc(bin.size + 1);
  if (!s) return NULL;
  memcpy(s, bin.data, bin.size);
  s[bin.size] = '\0';
  return s;
}

static void client_dtor(ErlNifEnv *env, void *obj) {
  kiln_client_release(((kiln_nif_client *)obj)->client);
}

static void executable_dtor(ErlNifEnv *env, void *obj) {
  kiln_executable_release(((kiln_nif_executable *)obj)->executable);
}

static int load(ErlNifEnv *env, void **priv_data, ERL_NIF_TERM load_info) {
  ErlNifResourceFlags flags = ERL_NIF_RT_CREATE | ERL_NIF_RT_TAKEOVER;
  kiln_nif_client_type = enif_open_resource_type(env, NULL, "kiln_client", client_dtor, flags, NULL);
  kiln_nif_executable_type = enif_open_resource_type(env, NULL, "kiln_executable", executable_dtor, flags, NULL);
  if (!kiln_nif_client_type || !kiln_nif_executable_type) return 1;
  kiln_nif_make_type_atoms(env);
  return 0;
}

/* A second load of the module (code upgrade) keeps the resource types. */
static int upgrade(ErlNifEnv *env, void **priv_data, void **old_priv_data, ERL_NIF_TERM load_info) {
  return load(env, priv_data, load_info);
}

static ERL_NIF_TERM version(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  return kiln_nif_string(env, kiln_version());
}

static ErlNifFunc nif_funcs[] = {
    {"version", 0, version, 0},
    {"client_open", 4, kiln_nif_client_open, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"plugins_scan", 2, kiln_nif_plugins_scan, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"compile", 5, kiln_nif_compile, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"execute", 2, kiln_nif_execute, 0}, /* moves itself to a dirty scheduler when needed */
};

ERL_NIF_INIT(Elixir.Kiln.NIF, nif_funcs, load, NULL, upgrade, NULL)
