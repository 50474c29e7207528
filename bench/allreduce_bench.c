/* kiln_bench_allreduce: an all_reduce across the processes of one mpirun launch, Kiln's
 * against raw MPI_Allreduce on the same processes in the same run.
 *
 *   mpirun -np P kiln_bench_allreduce [--device cpu] [--iterations N] [--sizes BYTES,...]
 *
 * Kiln's: a program of P partitions (one per process) whose one op is a stablehlo.all_reduce
 * (a sum of f32) over all of them, compiled once per size and run through the public API
 * (kiln_processes_join, sharded execute), as a framework would. The reference:
 * MPI_Allreduce(MPI_SUM, MPI_FLOAT) of the same bytes from the same Open MPI that Kiln
 * loaded. Every timed call starts after a barrier; the first process prints, per size, the
 * median and 90th percentile of its calls and Kiln's median over MPI's. Kiln's result is
 * checked against the exact sum first. Default sizes 4 KB to 64 MB. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kiln/kiln.h"

typedef void *mpi_handle;
static struct {
  int (*Allreduce)(const void *, void *, int, mpi_handle, mpi_handle, mpi_handle);
  int (*Barrier)(mpi_handle);
  mpi_handle comm, f32, sum;
} mpi;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double quantile(double *v, int n, double q) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  int i = (int)(q * (n - 1) + 0.5);
  return v[i];
}

/* The MPI that Kiln loaded (kiln_processes_join): its all-reduce and barrier. */
static bool find_mpi(void) {
  void *lib = dlopen("libmpi.so.40", RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return false;
  *(void **)&mpi.Allreduce = dlsym(lib, "MPI_Allreduce");
  *(void **)&mpi.Barrier = dlsym(lib, "MPI_Barrier");
  mpi.comm = dlsym(lib, "ompi_mpi_comm_world");
  mpi.f32 = dlsym(lib, "ompi_mpi_float");
  mpi.sum = dlsym(lib, "ompi_mpi_op_sum");
  return mpi.Allreduce && mpi.Barrier && mpi.comm && mpi.f32 && mpi.sum;
}

static char *program_text(int32_t processes, int64_t n) {
  size_t cap = 4096 + (size_t)processes * 8;
  char *t = malloc(cap), groups[8192] = "";
  size_t len = 0;
  for (int32_t p = 0; p < processes && len < sizeof groups - 16; p++)
    len += (size_t)snprintf(groups + len, sizeof groups - len, "%s%d", p ? ", " : "", (int)p);
  if (t)
    snprintf(t, cap,
             "module @allreduce attributes {mhlo.num_partitions = %d : i32, mhlo.num_replicas = 1 : i32} {\n"
             "  func.func public @main(%%x: tensor<%lldxf32>) -> tensor<%lldxf32> {\n"
             "    %%r = \"stablehlo.all_reduce\"(%%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
             "replica_groups = dense<[[%s]]> : tensor<1x%dxi64>, use_global_device_ids}> ({\n"
             "    ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):\n"
             "      %%c = stablehlo.add %%a, %%b : tensor<f32>\n"
             "      stablehlo.return %%c : tensor<f32>\n"
             "    }) : (tensor<%lldxf32>) -> tensor<%lldxf32>\n"
             "    return %%r : tensor<%lldxf32>\n"
             "  }\n"
             "}\n",
             (int)processes, (long long)n, (long long)n, groups, (int)processes, (long long)n, (long long)n,
             (long long)n);
  return t;
}

static bool ok(kiln_status st, const char *what) {
  if (!st) return true;
  fprintf(stderr, "kiln_bench_allreduce: %s: %s\n", what, kiln_status_message(st));
  kiln_status_free(st);
  return false;
}

/* One size: Kiln's calls, then MPI's; prints on the first process. */
static bool measure(kiln_client *c, const kiln_process_info *me, size_t bytes, int iterations) {
  int64_t n = (int64_t)(bytes / sizeof(float));
  float *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
  double *kt = malloc(sizeof *kt * (size_t)iterations), *mt = malloc(sizeof *mt * (size_t)iterations);
  char *text = program_text(me->count, n);
  kiln_buffer **ins = calloc((size_t)me->count, sizeof *ins), **outs = calloc((size_t)me->count, sizeof *outs);
  bool good = x && y && kt && mt && text && ins && outs;
  for (int64_t i = 0; good && i < n; i++) x[i] = (float)((i + me->index) % 7) * 0.5f;
  kiln_program *p = NULL;
  kiln_executable *e = NULL;
  kiln_program_options po = {sizeof po, "allreduce", 1};
  kiln_compile_options co = {.struct_size = sizeof co, .num_partitions = me->count};
  good = good && ok(kiln_program_create(text, strlen(text), &po, &p), "program") &&
         ok(kiln_program_compile(p, kiln_client_device(c, 0), &co, &e), "compile");
  kiln_buffer_args ba = {sizeof ba, KILN_ELEMENT_TYPE_F32, 1, &n, x, (size_t)n * sizeof *x};
  good = good && ok(kiln_buffer_create(kiln_client_device(c, 0), &ba, &ins[me->index]), "input");
  for (int it = -3; good && it < iterations; it++) { /* 3 untimed calls first */
    kiln_event *done = NULL;
    kiln_execute_args ea = {sizeof ea, ins, 1, outs, 1, 0, NULL};
    mpi.Barrier(mpi.comm);
    double t0 = now_us();
    good = ok(kiln_executable_execute(e, &ea, &done), "execute") && ok(kiln_event_wait(done), "run");
    double t1 = now_us();
    if (good && it < 0) { /* checked once: every element summed exactly (halves of small integers) */
      good = ok(kiln_buffer_copy_to_host(outs[me->index], y, (size_t)n * sizeof *y), "result");
      for (int64_t i = 0; good && i < n; i++) {
        float want = 0;
        for (int32_t q = 0; q < me->count; q++) want += (float)((i + q) % 7) * 0.5f;
        if (y[i] != want) {
          fprintf(stderr, "kiln_bench_allreduce: element %lld is %g, not %g\n", (long long)i, y[i], want);
          good = false;
        }
      }
    }
    if (it >= 0) kt[it] = t1 - t0;
    kiln_event_release(done);
    kiln_buffer_release(outs[me->index]);
    outs[me->index] = NULL;
  }
  for (int it = -3; good && it < iterations; it++) {
    mpi.Barrier(mpi.comm);
    double t0 = now_us();
    mpi.Allreduce(x, y, (int)n, mpi.f32, mpi.sum, mpi.comm);
    double t1 = now_us();
    if (it >= 0) mt[it] = t1 - t0;
  }
  if (good && me->index == 0) {
    double km = quantile(kt, iterations, 0.5), k90 = quantile(kt, iterations, 0.9);
    double mm = quantile(mt, iterations, 0.5), m90 = quantile(mt, iterations, 0.9);
    printf("| %zu | %d | %.1f | %.1f | %.1f | %.1f | %.2f |\n", bytes, iterations, km, k90, mm, m90, km / mm);
    fflush(stdout);
  }
  if (ins) kiln_buffer_release(ins[me->index]);
  kiln_executable_release(e);
  kiln_program_release(p);
  free(x), free(y), free(kt), free(mt), free(text), free(ins), free(outs);
  return good;
}

int main(int argc, char **argv) {
  const char *device = "cpu", *sizes = "4096,65536,1048576,4194304,16777216,67108864";
  int iterations = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--device")) device = argv[i + 1];
    else if (!strcmp(argv[i], "--iterations")) iterations = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--sizes")) sizes = argv[i + 1];
    else {
      fprintf(stderr, "usage: mpirun -np P kiln_bench_allreduce [--device cpu] [--iterations N] [--sizes BYTES,...]\n");
      return 2;
    }
  }
  kiln_process_info me = {.struct_size = sizeof me};
  if (!ok(kiln_processes_join(&me), "joining the launch")) return 1;
  if (me.count < 2 || !find_mpi()) {
    fprintf(stderr, "kiln_bench_allreduce: run it as 2 or more processes of one Open MPI launch (mpirun -np 2 ...)\n");
    kiln_processes_leave();
    return 2;
  }
  kiln_client_options o = {.struct_size = sizeof o, .devices = device, .flags = KILN_CLIENT_IGNORE_ENV, .num_devices = 1};
  kiln_client *c = NULL;
  bool good = ok(kiln_client_create(&o, &c), "client");
  if (good && me.index == 0) {
    printf("%d processes, device %s\n\n", (int)me.count, kiln_client_plugin_name(c));
    printf("| bytes | calls | Kiln median us | Kiln p90 us | MPI_Allreduce median us | MPI p90 us | Kiln / MPI |\n");
    printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  }
  for (const char *s = sizes; good && *s;) {
    char *end = NULL;
    long long bytes = strtoll(s, &end, 10);
    if (bytes < 4 || end == s) break;
    int calls = iterations > 0 ? iterations : bytes >= (1 << 24) ? 20 : bytes >= (1 << 20) ? 100 : 1000;
    good = measure(c, &me, (size_t)bytes, calls);
    s = *end == ',' ? end + 1 : end;
  }
  kiln_client_release(c);
  if (good) kiln_processes_leave(); /* a failed process leaves without waiting for the others */
  return good ? 0 : 1;
}
