/* The Elixir package's NIF over Kiln's C API (include/kiln/kiln.h): what its files share.
 *
 * Terms from Elixir are validated before use; a wrong term comes back as
 * {:error, message}, never as a crash of the VM. Clients and executables are NIF
 * resources that hold one Kiln reference each, released by their destructor when the
 * garbage collector frees the last term; since a Kiln executable keeps its client alive,
 * they may be freed in any order. Resources are immutable once made, and the Kiln calls
 * used on them are thread-safe, so any number of processes may use one at once. */
#ifndef KILN_NIF_H
#define KILN_NIF_H

#include <erl_nif.h>
#include <kiln/kiln.h>
#include <stdatomic.h>

typedef struct kiln_nif_client {
  kiln_client *client;
} kiln_nif_client;

typedef struct kiln_nif_executable {
  kiln_executable *executable;
  kiln_device *device; /* borrowed: the executable keeps its client, which owns it, alive */
  int32_t num_inputs, num_results;
  _Atomic int64_t last_run_ns; /* how long its last run took; INT64_MAX before the first */
} kiln_nif_executable;

extern ErlNifResourceType *kiln_nif_client_type;
extern ErlNifResourceType *kiln_nif_executable_type;

/* {:ok, term} */
ERL_NIF_TERM kiln_nif_ok(ErlNifEnv *env, ERL_NIF_TERM term);
/* {:error, "message"} */
ERL_NIF_TERM kiln_nif_error(ErlNifEnv *env, const char *message);
/* {:error, "prefix: Kiln's message"} (no prefix when NULL); frees status. */
ERL_NIF_TERM kiln_nif_status_error(ErlNifEnv *env, kiln_status status, const char *prefix);
/* A binary holding the text of s (UTF-8, no NUL). */
ERL_NIF_TERM kiln_nif_string(ErlNifEnv *env, const char *s);
/* A NUL-terminated copy of an Elixir binary, freed with enif_free; NULL when term is not
 * a binary, holds a NUL byte, or memory ran out. The atom nil gives NULL with *out_nil set. */
char *kiln_nif_cstring(ErlNifEnv *env, ERL_NIF_TERM term, int *out_nil);

/* The element type atoms (:f32, :s8, ...) <-> kiln_element_type. Made when the NIF loads. */
void kiln_nif_make_type_atoms(ErlNifEnv *env);
/* KILN_ELEMENT_TYPE_INVALID for an atom that names no type buffers can hold. */
kiln_element_type kiln_nif_type_of_atom(ERL_NIF_TERM atom);
ERL_NIF_TERM kiln_nif_atom_of_type(ErlNifEnv *env, kiln_element_type type);

/* The NIF functions: nif_client.c (client_open, plugins_scan, compile), nif_execute.c. */
ERL_NIF_TERM kiln_nif_client_open(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);
ERL_NIF_TERM kiln_nif_plugins_scan(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);
ERL_NIF_TERM kiln_nif_compile(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);
ERL_NIF_TERM kiln_nif_execute(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]);

#endif
