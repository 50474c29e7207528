/* Clients (device choice), plugin scans and compiling programs. */
#include "kiln_nif.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum { MAX_PLUGIN_PATHS = 64 };

/* Client options from Elixir terms; the strings are enif_alloc'd copies. */
typedef struct options {
  kiln_client_options o;
  char *devices, *config_file;
  char *paths[MAX_PLUGIN_PATHS];
} options;

static void options_free(options *opts) {
  enif_free(opts->devices);
  enif_free(opts->config_file);
  for (int32_t i = 0; i < opts->o.num_plugin_paths; i++) enif_free(opts->paths[i]);
}

/* Reads devices (binary or nil), plugin_paths (list of binaries), config_file (binary or
 * nil). On failure returns the message and leaves nothing to free but opts. */
static const char *options_read(ErlNifEnv *env, ERL_NIF_TERM devices, ERL_NIF_TERM paths,
                                ERL_NIF_TERM config_file, options *opts) {
  int nil;
  *opts = (options){.o = {.struct_size = sizeof opts->o, .plugin_paths = (const char *const *)opts->paths}};
  opts->devices = kiln_nif_cstring(env, devices, &nil);
  if (!opts->devices && !nil) return "devices must be a string or nil";
  opts->o.devices = opts->devices;
  opts->config_file = kiln_nif_cstring(env, config_file, &nil);
  if (!opts->config_file && !nil) return "config_file must be a string or nil";
  opts->o.config_file = opts->config_file;
  ERL_NIF_TERM head, tail = paths;
  while (enif_get_list_cell(env, tail, &head, &tail)) {
    if (opts->o.num_plugin_paths == MAX_PLUGIN_PATHS) return "too many plugin paths";
    char *path = kiln_nif_cstring(env, head, &nil);
    if (!path) return "plugin_paths must be a list of strings";
    opts->paths[opts->o.num_plugin_paths++] = path;
  }
  if (!enif_is_empty_list(env, tail)) return "plugin_paths must be a list of strings";
  return NULL;
}

static ERL_NIF_TERM status_atom(ErlNifEnv *env, kiln_status_code code) {
  char name[64];
  snprintf(name, sizeof name, "%s", kiln_status_code_name(code));
  for (char *c = name; *c; c++)
    if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
  return enif_make_atom(env, name);
}

/* [%{name:, path:, status:, reason:, description:}] in list order. */
static ERL_NIF_TERM reports(ErlNifEnv *env, const kiln_plugin_list *list) {
  ERL_NIF_TERM result = enif_make_list(env, 0);
  for (int32_t i = kiln_plugin_list_count(list) - 1; i >= 0; i--) {
    kiln_plugin_report r = {.struct_size = sizeof r};
    kiln_status st = kiln_plugin_list_get(list, i, &r);
    if (st) {
      kiln_status_free(st);
      continue;
    }
    ERL_NIF_TERM keys[] = {enif_make_atom(env, "name"), enif_make_atom(env, "path"), enif_make_atom(env, "status"),
                           enif_make_atom(env, "reason"), enif_make_atom(env, "description")};
    ERL_NIF_TERM values[] = {kiln_nif_string(env, r.name), kiln_nif_string(env, r.path), status_atom(env, r.code),
                             kiln_nif_string(env, r.reason), kiln_nif_string(env, r.description)};
    ERL_NIF_TERM map;
    enif_make_map_from_arrays(env, keys, values, 5, &map);
    result = enif_make_list_cell(env, map, result);
  }
  return result;
}

/* client_open(devices, plugin_paths, config_file, ignore_env) ->
 *   {:ok, {client, plugin_name, [device_name], [report]}} | {:error, message} */
ERL_NIF_TERM kiln_nif_client_open(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  options opts;
  const char *bad = options_read(env, argv[0], argv[1], argv[2], &opts);
  if (bad) {
    options_free(&opts);
    return kiln_nif_error(env, bad);
  }
  if (enif_is_identical(argv[3], enif_make_atom(env, "true"))) opts.o.flags |= KILN_CLIENT_IGNORE_ENV;
  kiln_client *client = NULL;
  kiln_status st = kiln_client_create(&opts.o, &client);
  options_free(&opts);
  if (st) return kiln_nif_status_error(env, st, NULL);

  kiln_nif_client *res = enif_alloc_resource(kiln_nif_client_type, sizeof *res);
  if (!res) {
    kiln_client_release(client);
    return kiln_nif_error(env, "out of memory");
  }
  res->client = client;
  ERL_NIF_TERM handle = enif_make_resource(env, res);
  enif_release_resource(res); /* the term now owns it */

  ERL_NIF_TERM devices = enif_make_list(env, 0);
  for (int32_t i = kiln_client_device_count(client) - 1; i >= 0; i--)
    devices = enif_make_list_cell(env, kiln_nif_string(env, kiln_device_name(kiln_client_device(client, i))), devices);
  return kiln_nif_ok(env, enif_make_tuple4(env, handle, kiln_nif_string(env, kiln_client_plugin_name(client)), devices,
                                           reports(env, kiln_client_selection(client))));
}

/* plugins_scan(plugin_paths, config_file) -> {:ok, [report]} | {:error, message} */
ERL_NIF_TERM kiln_nif_plugins_scan(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  options opts;
  const char *bad = options_read(env, enif_make_atom(env, "nil"), argv[0], argv[1], &opts);
  if (bad) {
    options_free(&opts);
    return kiln_nif_error(env, bad);
  }
  kiln_plugin_list *list = NULL;
  kiln_status st = kiln_plugins_scan(&opts.o, &list);
  options_free(&opts);
  if (st) return kiln_nif_status_error(env, st, NULL);
  ERL_NIF_TERM result = reports(env, list);
  kiln_plugin_list_free(list);
  return kiln_nif_ok(env, result);
}

/* compile(client, program, name, function, device_index) ->
 *   {:ok, {executable, device_name, function, num_inputs, num_results}} | {:error, message}
 * program is MLIR text or bytecode, passed to kiln_program_create unchanged. */
ERL_NIF_TERM kiln_nif_compile(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[]) {
  kiln_nif_client *c;
  ErlNifBinary program;
  int index, nil;
  if (!enif_get_resource(env, argv[0], kiln_nif_client_type, (void **)&c)) return kiln_nif_error(env, "not a Kiln client");
  if (!enif_inspect_binary(env, argv[1], &program)) return kiln_nif_error(env, "the program must be a binary");
  if (!enif_get_int(env, argv[4], &index)) return kiln_nif_error(env, "the device index must be an integer");
  kiln_device *device = kiln_client_device(c->client, index);
  if (!device) return kiln_nif_error(env, "no device with that index");
  char *name = kiln_nif_cstring(env, argv[2], &nil);
  if (!name && !nil) return kiln_nif_error(env, "the program name must be a string or nil");
  char *function = kiln_nif_cstring(env, argv[3], &nil);
  if (!function && !nil) {
    enif_free(name);
    return kiln_nif_error(env, "the function name must be a string or nil");
  }

  kiln_program_options popts = {.struct_size = sizeof popts, .name = name};
  kiln_compile_options copts = {.struct_size = sizeof copts, .function = function};
  kiln_program *p = NULL;
  kiln_executable *x = NULL;
  kiln_function_info info = {.struct_size = sizeof info};
  kiln_status st = kiln_program_create((const char *)program.data, program.size, &popts, &p);
  if (!st) st = kiln_program_compile(p, device, &copts, &x);
  if (!st) st = kiln_executable_function(x, &info);
  kiln_program_release(p); /* the executable keeps it */
  enif_free(name);
  enif_free(function);
  kiln_nif_executable *res = st ? NULL : enif_alloc_resource(kiln_nif_executable_type, sizeof *res);
  if (!res) {
    kiln_executable_release(x);
    return st ? kiln_nif_status_error(env, st, NULL) : kiln_nif_error(env, "out of memory");
  }
  res->executable = x;
  res->device = device;
  res->num_inputs = info.num_inputs;
  res->num_results = info.num_results;
  atomic_init(&res->last_run_ns, INT64_MAX);
  ERL_NIF_TERM handle = enif_make_resource(env, res);
  enif_release_resource(res);
  return kiln_nif_ok(env, enif_make_tuple5(env, handle, kiln_nif_string(env, kiln_device_name(device)),
                                           kiln_nif_string(env, info.name), enif_make_int(env, info.num_inputs),
                                           enif_make_int(env, info.num_results)));
}
