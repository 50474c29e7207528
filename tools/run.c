/* kiln run FILE.mlir [--function NAME] [--input X.npy]... [--output-dir DIR]: runs one
 * function on NumPy inputs and writes or summarizes its results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/interp/interp.h"
#include "commands.h"
#include "ir/print.h"
#include "npy.h"
#include "parse/parse.h"

static const char k_usage[] =
    "kiln run FILE.mlir [--function NAME] [--input X.npy]... [--output-dir DIR] [--device LIST]";

typedef struct run_opts {
  const char *file, *function, *output_dir;
  const char **inputs;
  int num_inputs;
} run_opts;

/* Whether a value fits a parameter type: same element type, same rank, equal static dims. */
static bool fits(const kiln_rtv *v, const kiln_type *t) {
  if (!kiln_type_is_tensor(t) || v->kind != KILN_RTV_TENSOR || v->rank != t->tensor.rank) return false;
  if (kiln_type_elem(t) != v->elem) return false;
  for (int32_t i = 0; i < v->rank; i++)
    if (t->tensor.dims[i] != KILN_DIM_DYNAMIC && t->tensor.dims[i] != v->dims[i]) return false;
  return true;
}

static void describe(const kiln_rtv *v, char *buf, size_t cap) {
  const char *dt = kiln_npy_dtype_name(v->elem);
  int n = snprintf(buf, cap, "%s array of shape (", dt ? dt : kiln_elem_name(v->elem));
  for (int32_t i = 0; i < v->rank && n < (int)cap; i++)
    n += snprintf(buf + n, cap - (size_t)n, "%lld%s", (long long)v->dims[i], v->rank == 1 ? "," : i + 1 < v->rank ? ", " : "");
  if (n < (int)cap) snprintf(buf + n, cap - (size_t)n, ")");
}

enum { SUMMARY_MAX = 64 }; /* elements shown per result */

static void print_elem(const kiln_rtv *v, int64_t i) {
  kiln_scalar s = kiln_scalar_load(v->elem, v->data + (size_t)i * v->elem_bytes);
  switch (kiln_elem_class_of(v->elem)) {
    case KILN_ELEM_CLASS_B: fputs(s.i ? "true" : "false", stdout); break;
    case KILN_ELEM_CLASS_U: printf("%llu", (unsigned long long)s.u); break;
    case KILN_ELEM_CLASS_I:
    case KILN_ELEM_CLASS_X: printf("%lld", (long long)s.i); break;
    case KILN_ELEM_CLASS_F: printf("%.6g", s.f); break;
    case KILN_ELEM_CLASS_C: printf("(%.6g, %.6g)", s.f, s.im); break;
  }
}

static void print_nested(const kiln_rtv *v, int32_t dim, int64_t *flat, int64_t *shown) {
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

static void summarize(int index, const kiln_type *t, const kiln_rtv *v) {
  char ts[256];
  kiln_type_to_string(t, ts, sizeof ts);
  printf("result #%d: %s\n", index, ts);
  if (v->kind != KILN_RTV_TENSOR) return;
  int64_t flat = 0, shown = 0;
  print_nested(v, 0, &flat, &shown);
  putchar('\n');
  if (v->rank == 2 && v->dims[0] == 1 && kiln_elem_is_float(v->elem) && v->dims[1] > 1) {
    int64_t best = 0; /* a row of scores: name the largest, as a classifier's answer */
    for (int64_t i = 1; i < v->dims[1]; i++)
      if (kiln_scalar_load(v->elem, v->data + (size_t)i * v->elem_bytes).f >
          kiln_scalar_load(v->elem, v->data + (size_t)best * v->elem_bytes).f)
        best = i;
    printf("argmax: %lld\n", (long long)best);
  }
}

static int run(const run_opts *o) {
  kiln_source src;
  kiln_module *m = NULL;
  kiln_interp *in = NULL;
  kiln_rtv **args = NULL, **results = NULL;
  int32_t nres = 0;
  kiln_status st = kiln_source_read(o->file, &src);
  if (st) goto done;
  st = kiln_parse_module(&src, &m);
  if (!st) st = kiln_verify_module(m, &src);
  if (!st) st = kiln_interp_create(m, &src, &in);
  if (st) goto done;
  const kiln_op *f = kiln_interp_lookup_func(in, o->function);
  if (!f) {
    st = KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: no function @%s", o->file, o->function);
    goto done;
  }
  const kiln_type *ft = kiln_func_type(f);
  if (ft->func.num_inputs != o->num_inputs) {
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "@%s takes %d inputs, %d given (--input X.npy, once per input)",
                     o->function, (int)ft->func.num_inputs, o->num_inputs);
    goto done;
  }
  args = calloc((size_t)o->num_inputs + 1, sizeof *args);
  nres = ft->func.num_results;
  results = calloc((size_t)nres + 1, sizeof *results);
  if (!args || !results) {
    st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  for (int i = 0; !st && i < o->num_inputs; i++) {
    st = kiln_npy_read(o->inputs[i], &args[i]);
    if (!st && !fits(args[i], ft->func.inputs[i])) {
      char want[256], got[256];
      kiln_type_to_string(ft->func.inputs[i], want, sizeof want);
      describe(args[i], got, sizeof got);
      st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "input #%d (%s): @%s expects %s, got a %s", i, o->inputs[i],
                       o->function, want, got);
    }
    /* the parameter's element type (e.g. quantized) describes the storage read */
    if (!st) args[i]->elem_type = ft->func.inputs[i]->tensor.element;
  }
  if (st) goto done;
  kiln_interp_ctx ctx = {.interp = in, .print_out = stdout};
  st = kiln_interp_call(&ctx, f, args, o->num_inputs, results);
  if (st) goto done;
  if (o->output_dir) mkdir(o->output_dir, 0777);
  for (int32_t i = 0; !st && i < nres; i++) {
    if (o->output_dir) {
      char path[4096];
      snprintf(path, sizeof path, "%s/result_%d.npy", o->output_dir, (int)i);
      st = kiln_npy_write(path, results[i]);
      if (!st) printf("wrote %s\n", path);
    } else {
      summarize((int)i, ft->func.results[i], results[i]);
    }
  }
done:
  if (st) fprintf(stderr, "%s\n", kiln_status_message(st));
  int rc = st ? 1 : 0;
  kiln_status_free(st);
  for (int i = 0; args && i < o->num_inputs; i++) kiln_rtv_release(args[i]);
  for (int32_t i = 0; results && i < nres; i++) kiln_rtv_release(results[i]);
  free(args);
  free(results);
  kiln_interp_destroy(in);
  kiln_module_destroy(m);
  kiln_source_free(&src);
  return rc;
}

int kiln_cmd_run(int argc, char **argv) {
  run_opts o = {.function = "main"};
  o.inputs = calloc((size_t)argc + 1, sizeof *o.inputs);
  if (!o.inputs) return 1;
  int rc = 0;
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    bool takes_value = !strcmp(a, "--function") || !strcmp(a, "--input") || !strcmp(a, "--output-dir") || !strcmp(a, "--device");
    if (takes_value && i + 1 >= argc) {
      fprintf(stderr, "kiln run: %s needs a value\nusage: %s\n", a, k_usage);
      rc = 1;
    } else if (!strcmp(a, "--function")) {
      o.function = argv[++i];
    } else if (!strcmp(a, "--input")) {
      o.inputs[o.num_inputs++] = argv[++i];
    } else if (!strcmp(a, "--output-dir")) {
      o.output_dir = argv[++i];
    } else if (!strcmp(a, "--device")) {
      if (strcmp(argv[++i], "interp") != 0) {
        fprintf(stderr, "kiln run: device '%s' is not available (this build has: interp)\n", argv[i]);
        rc = 1;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "kiln run: unknown option '%s'\nusage: %s\n", a, k_usage);
      rc = 1;
    } else if (o.file) {
      fprintf(stderr, "kiln run: one program at a time ('%s' and '%s')\n", o.file, a);
      rc = 1;
    } else {
      o.file = a;
    }
  }
  if (!rc && !o.file) {
    fprintf(stderr, "kiln run: no program given\nusage: %s\n", k_usage);
    rc = 1;
  }
  if (!rc) rc = run(&o);
  free(o.inputs);
  return rc;
}
