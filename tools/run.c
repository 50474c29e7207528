/* kiln run FILE.mlir [--function NAME] [--input X.npy]... [--dim N]... [--output-dir DIR]
 * [--device LIST]: runs one function on NumPy inputs through the runtime API (a client, the
 * program, an executable, buffers) and writes or summarizes its results. A
 * shape-polymorphic function takes inputs of any size its parameter types admit; its
 * dimension arguments (dynamic.h) are the --dim values, or, when none are given, the one
 * size all the inputs' symbolic dimensions share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/source.h"
#include "commands.h"
#include "dynamic.h"
#include "inputs.h"
#include "ir/scalar.h"
#include "kiln/kiln.h"
#include "npy.h"
#include "runtime/element.h"
#include "select.h"
#include "sharded.h"

static const char k_usage[] =
    "kiln run FILE.mlir [--function NAME] [--input X.npy]... [--dim N]... [--output-dir DIR] " KILN_CLI_DEVICE_USAGE;

typedef struct run_opts {
  const char *file, *function, *output_dir;
  const char **inputs, **dims;
  int num_inputs, num_dims;
  kiln_cli_devices devices;
} run_opts;

/* A host copy of a result: its elements, or nothing for a token or tuple. */
typedef struct host_result {
  kiln_npy_array array;
  bool has_data;
} host_result;

enum { SUMMARY_MAX = 64 }; /* elements shown per result */

static void print_elem(const kiln_npy_array *v, int64_t i) {
  kiln_scalar s = kiln_scalar_load(v->elem, v->data + (size_t)i * kiln_elem_storage_bytes(v->elem));
  switch (kiln_elem_class_of(v->elem)) {
    case KILN_ELEM_CLASS_B: fputs(s.i ? "true" : "false", stdout); break;
    case KILN_ELEM_CLASS_U: printf("%llu", (unsigned long long)s.u); break;
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: printf("%lld", (long long)s.i); break;
    case KILN_ELEM_CLASS_F: printf("%.6g", s.f); break;
    case KILN_ELEM_CLASS_C: printf("(%.6g, %.6g)", s.f, s.im); break;
  }
}

static void print_nested(const kiln_npy_array *v, int32_t dim, int64_t *flat, int64_t *shown) {
  if (dim == v->rank) {
    if (*shown < SUMMARY_MAX) print_elem(v, *flat);
    (*flat)++;
    (*shown)++;
    return;
  }
  putchar('[');
  for (int64_t i = 0; i < v->dims[dim]; i++) {
    if (*shown >= SUMMARY_MAX) {
      fputs("...", stdout);
      int64_t rest = 1;
      for (int32_t d = dim + 1; d < v->rank; d++) rest *= v->dims[d];
      *flat += (v->dims[dim] - i) * rest;
      break;
    }
    if (i) fputs(", ", stdout);
    print_nested(v, dim + 1, flat, shown);
  }
  putchar(']');
}

static void summarize(int index, const kiln_buffer *b, const host_result *r) {
  printf("result #%d: ", index);
  if (!r->has_data) {
    printf("%s\n", kiln_element_type_name(kiln_buffer_element_type(b)));
    return;
  }
  const kiln_npy_array *v = &r->array;
  printf("tensor<");
  for (int32_t i = 0; i < v->rank; i++) printf("%lldx", (long long)v->dims[i]);
  printf("%s>\n", kiln_elem_name(v->elem));
  int64_t flat = 0, shown = 0;
  print_nested(v, 0, &flat, &shown);
  putchar('\n');
  size_t eb = kiln_elem_storage_bytes(v->elem);
  if (v->rank == 2 && v->dims[0] == 1 && kiln_elem_is_float(v->elem) && v->dims[1] > 1) {
    int64_t best = 0; /* a row of scores: name the largest, as a classifier's answer */
    for (int64_t i = 1; i < v->dims[1]; i++)
      if (kiln_scalar_load(v->elem, v->data + (size_t)i * eb).f > kiln_scalar_load(v->elem, v->data + (size_t)best * eb).f)
        best = i;
    printf("argmax: %lld\n", (long long)best);
  }
}

/* Copies a result to the host (tokens and tuples have no host data). */
static kiln_status fetch(kiln_buffer *b, host_result *out) {
  memset(out, 0, sizeof *out);
  kiln_elem e = kiln_element_type_to_elem(kiln_buffer_element_type(b));
  if (e == KILN_ELEM_COUNT) return NULL;
  kiln_npy_array *a = &out->array;
  a->elem = e;
  a->rank = kiln_buffer_rank(b);
  memcpy(a->dims, kiln_buffer_dims(b), (size_t)a->rank * sizeof *a->dims);
  a->byte_size = kiln_buffer_byte_size(b);
  if (!(a->data = malloc(a->byte_size ? a->byte_size : 1))) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  out->has_data = true;
  return kiln_buffer_copy_to_host(b, a->data, a->byte_size);
}

/* When the inputs given are fewer than the parameters: they must be all but the
 * function's dimension arguments (*dim_args of them, made from --dim or inferred). */
static kiln_status dimension_arguments(const run_opts *o, const kiln_source *src, const kiln_function_info *info,
                                       kiln_module **typed, const kiln_type **ft, int32_t *dim_args) {
  KILN_RETURN_IF_ERROR(kiln_cli_function_type(src, o->function, typed, ft));
  int32_t k = kiln_cli_dim_arg_count(*ft);
  if (info->num_inputs != o->num_inputs + k || (o->num_dims && o->num_dims != k))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       "@%s takes %d inputs, %d given (--input X.npy, once per input%s), %d --dim given (%d dimension "
                       "argument(s))",
                       o->function, (int)info->num_inputs, o->num_inputs,
                       k ? "; or once per input after the dimension arguments" : "", o->num_dims, (int)k);
  for (int i = 0; i < o->num_dims; i++) {
    char *end;
    long long v = strtoll(o->dims[i], &end, 10);
    if (!*o->dims[i] || *end || v < 0 || v > INT32_MAX)
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "--dim '%s': expected a size from 0 to %d", o->dims[i], INT32_MAX);
  }
  *dim_args = k;
  return NULL;
}

/* Writes result i to the output directory, or prints a summary of it. */
static kiln_status emit(const run_opts *o, int32_t i, const kiln_buffer *b, const host_result *r) {
  if (!o->output_dir) {
    summarize((int)i, b, r);
    return NULL;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/result_%d.npy", o->output_dir, (int)i);
  kiln_status st = r->has_data ? kiln_npy_write(path, &r->array)
                               : KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "result #%d is a %s: only tensors can be saved as .npy",
                                             (int)i, kiln_element_type_name(kiln_buffer_element_type(b)));
  if (!st) printf("wrote %s\n", path);
  return st;
}

/* A sharded program (sharded.h): compiled for its partitions, inputs and results global. */
static kiln_status run_sharded(const run_opts *o, kiln_client *c, kiln_program *p, const kiln_source *src,
                               int32_t partitions, const kiln_process_info *launch) {
  kiln_executable *x = NULL;
  kiln_compile_options co = {.struct_size = sizeof co, .function = o->function, .num_partitions = partitions};
  kiln_status st = kiln_program_compile(p, kiln_client_device(c, 0), &co, &x);
  kiln_function_info info = {.struct_size = sizeof info};
  if (!st) st = kiln_executable_function(x, &info);
  kiln_npy_array *arrays = st ? NULL : calloc((size_t)info.num_results + 1, sizeof *arrays);
  if (!st && !arrays) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) st = kiln_cli_run_sharded(x, c, src, o->function, o->inputs, o->num_inputs, arrays, info.num_results);
  bool speaks = launch->index == 0; /* in a launch of several processes, the first one */
  if (!st && speaks && o->output_dir) mkdir(o->output_dir, 0777);
  for (int32_t i = 0; !st && speaks && i < info.num_results; i++) st = emit(o, i, NULL, &(host_result){arrays[i], true});
  for (int32_t i = 0; arrays && i < info.num_results; i++) kiln_npy_free(&arrays[i]);
  free(arrays);
  kiln_executable_release(x);
  return st;
}

static int run(const run_opts *o) {
  kiln_source src;
  kiln_program *p = NULL;
  kiln_executable *x = NULL;
  kiln_event *done = NULL;
  kiln_buffer **args = NULL, **results = NULL;
  kiln_function_info info = {.struct_size = sizeof info};
  kiln_module *typed = NULL;
  const kiln_type *ft = NULL;
  kiln_client *c = NULL;
  kiln_process_info launch = {.struct_size = sizeof launch};
  kiln_status st = kiln_processes_join(&launch);
  if (!st) st = kiln_source_read(o->file, &src);
  if (st) goto done;
  kiln_program_options po = {sizeof po, o->file, 1};
  st = kiln_program_create(src.text, src.len, &po, &p);
  if (!st) st = kiln_program_find_function(p, o->function, &info);
  int32_t partitions = st ? 1 : kiln_program_num_partitions(p);
  kiln_cli_devices devices = o->devices; /* a sharded program: a device per partition (of this process) */
  int32_t here = partitions / launch.count;
  if (!st && partitions > 1 && partitions % launch.count)
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s runs on %d devices (mhlo.num_partitions): not a multiple of the %d processes",
                     o->file, (int)partitions, (int)launch.count);
  if (!st && partitions > 1 && devices.num_devices < here) {
    if (devices.num_devices) {
      st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s runs on %d devices (mhlo.num_partitions); --num-devices %d given",
                       o->file, (int)here, (int)devices.num_devices);
      goto done;
    }
    devices.num_devices = here;
  }
  if (st) goto done;
  if (!(c = kiln_cli_client("run", &devices))) {
    kiln_program_release(p);
    kiln_source_free(&src);
    if (launch.count == 1) kiln_processes_leave(); /* a failed process of several: see below */
    return 1;
  }
  if (partitions > 1) {
    st = run_sharded(o, c, p, &src, partitions, &launch);
    goto done;
  }
  int32_t dim_args = 0; /* made here rather than read */
  if (!st && (info.num_inputs != o->num_inputs || o->num_dims)) st = dimension_arguments(o, &src, &info, &typed, &ft, &dim_args);
  kiln_compile_options co = {.struct_size = sizeof co, .function = o->function};
  if (!st) st = kiln_program_compile(p, kiln_client_device(c, 0), &co, &x);
  if (st) goto done;
  args = calloc((size_t)info.num_inputs + 1, sizeof *args);
  results = calloc((size_t)info.num_results + 1, sizeof *results);
  if (!args || !results) {
    st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  kiln_device *device = kiln_client_device(c, 0);
  if (!st) st = kiln_cli_inputs_read(&src, o->function, o->inputs, o->num_inputs, dim_args, device, args + dim_args);
  int64_t inferred = 0;
  if (!st && dim_args && !o->num_dims) st = kiln_cli_infer_dim_size(ft, args + dim_args, &inferred);
  for (int32_t i = 0; !st && i < dim_args; i++)
    st = kiln_cli_dim_arg(ft->func.inputs[i], o->num_dims ? strtoll(o->dims[i], NULL, 10) : inferred, device, &args[i]);
  kiln_execute_args ea = {sizeof ea, args, info.num_inputs, results, info.num_results, 0, NULL};
  if (!st) st = kiln_executable_execute(x, &ea, &done);
  if (!st) st = kiln_event_wait(done);
  if (st) goto done;
  if (launch.index != 0) goto done; /* every process ran the whole program; the first one speaks */
  if (o->output_dir) mkdir(o->output_dir, 0777);
  for (int32_t i = 0; !st && i < info.num_results; i++) {
    host_result r;
    st = fetch(results[i], &r);
    if (!st) st = emit(o, i, results[i], &r);
    kiln_npy_free(&r.array);
  }
done:
  if (st) fprintf(stderr, "%s\n", kiln_status_message(st));
  int rc = st ? 1 : 0;
  kiln_status_free(st);
  for (int32_t i = 0; args && i < info.num_inputs; i++) kiln_buffer_release(args[i]);
  kiln_module_destroy(typed);
  for (int32_t i = 0; results && i < info.num_results; i++) kiln_buffer_release(results[i]);
  free(args);
  free(results);
  kiln_event_release(done);
  kiln_executable_release(x);
  kiln_program_release(p);
  kiln_client_release(c);
  kiln_source_free(&src);
  /* A failed process of a launch of several leaves without MPI_Finalize (which waits for
   * the others): mpirun then ends the others at once, naming this one. */
  if (!rc || launch.count == 1) kiln_processes_leave();
  return rc;
}

int kiln_cmd_run(int argc, char **argv) {
  run_opts o = {.function = "main"};
  o.inputs = calloc((size_t)argc + 1, sizeof *o.inputs);
  o.dims = calloc((size_t)argc + 1, sizeof *o.dims);
  if (!o.inputs || !o.dims) {
    free(o.inputs);
    free(o.dims);
    return 1;
  }
  bool bad = false;
  for (int i = 1; i < argc && !bad; i++) {
    const char *a = argv[i];
    bool takes_value = !strcmp(a, "--function") || !strcmp(a, "--input") || !strcmp(a, "--output-dir") || !strcmp(a, "--dim");
    if (kiln_cli_device_option("run", argc, argv, &i, &o.devices, &bad)) {
      continue;
    } else if (takes_value && i + 1 >= argc) {
      fprintf(stderr, "kiln run: %s needs a value\nusage: %s\n", a, k_usage);
      bad = true;
    } else if (!strcmp(a, "--function")) {
      o.function = argv[++i];
    } else if (!strcmp(a, "--input")) {
      o.inputs[o.num_inputs++] = argv[++i];
    } else if (!strcmp(a, "--dim")) {
      o.dims[o.num_dims++] = argv[++i];
    } else if (!strcmp(a, "--output-dir")) {
      o.output_dir = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "kiln run: unknown option '%s'\nusage: %s\n", a, k_usage);
      bad = true;
    } else if (o.file) {
      fprintf(stderr, "kiln run: one program at a time ('%s' and '%s')\n", o.file, a);
      bad = true;
    } else {
      o.file = a;
    }
  }
  if (!bad && !o.file) {
    fprintf(stderr, "kiln run: no program given\nusage: %s\n", k_usage);
    bad = true;
  }
  int rc = bad ? 1 : run(&o);
  free(o.inputs);
  free(o.dims);
  return rc;
}
