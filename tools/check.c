/* kiln check PATH...: runs every test case of .mlir files (each `// -----` piece, and a
 * portable artifact .mlir.bc named as a PATH as one case) on the device chosen with
 * --device (through the runtime API) and evaluates their checks: the check.* ops and
 * @check.* custom calls, and, where the file's RUN line pipes the output to FileCheck, the
 * printed results against its CHECK lines. Each case runs in its own child process,
 * several at once, with a time limit and a memory limit, so a crash, a runaway case or an
 * out-of-memory case fails that case and never the rest. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/source.h"
#include "base/strbuf.h"
#include "bytecode/bytecode.h"
#include "commands.h"
#include "dynamic.h"
#include "filecheck.h"
#include "inputs.h"
#include "ir/format.h"
#include "runtime/element.h"
#include "kiln/kiln.h"
#include "select.h"

#if defined(__SANITIZE_ADDRESS__)
#define KILN_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_UNDER_ASAN 1
#endif
#endif

typedef struct check_case {
  kiln_source src; /* a view into its file's text */
  const char *file_text; /* the whole file, for its RUN lines */
  size_t file_len;
  kiln_strbuf result; /* what the child reported: 'P', 'F' or 'S', then text */
  bool passed, skipped, done;
} check_case;

typedef struct check_run {
  check_case *cases;
  size_t num_cases, cap_cases;
  char **texts; /* file contents, owned */
  size_t num_texts;
  int jobs;
  double timeout_s;
  size_t memory_limit;
  kiln_device *device; /* where the cases run (the client is made before the children fork) */
  kiln_device *reference; /* interp, which dynamic cases are compared with; NULL when device is interp */
} check_run;

static const char k_usage[] = "kiln check [--jobs N] [--timeout SECONDS] " KILN_CLI_DEVICE_USAGE " PATH...";

/* ------------------------------------------------------------------ collecting cases */

static kiln_status push_case(check_run *run, const kiln_source *piece) {
  if (run->num_cases == run->cap_cases) {
    size_t cap = run->cap_cases ? run->cap_cases * 2 : 256;
    check_case *c = realloc(run->cases, cap * sizeof *c);
    if (!c) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    run->cases = c;
    run->cap_cases = cap;
  }
  check_case *c = &run->cases[run->num_cases++];
  memset(c, 0, sizeof *c);
  c->src = *piece;
  return NULL;
}

static kiln_status add_case(const kiln_source *piece, void *user) {
  check_run *run = user;
  /* a piece with nothing but comments and blank lines is no case */
  const char *p = piece->text, *end = piece->text + piece->len;
  bool content = false;
  while (p < end && !content) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    const char *q = p;
    while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
    content = q < eol && !(eol - q >= 2 && q[0] == '/' && q[1] == '/');
    p = eol + 1;
  }
  return content ? push_case(run, piece) : NULL;
}

static kiln_status add_file(check_run *run, const char *path) {
  kiln_source src;
  KILN_RETURN_IF_ERROR(kiln_source_read(path, &src));
  char **t = realloc(run->texts, (run->num_texts + 1) * sizeof *t);
  char *name = strdup(path);
  if (!t || !name) {
    free(name);
    kiln_source_free(&src);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  run->texts = t;
  run->texts[run->num_texts++] = src.owned;
  /* the name lives as long as the run: keep it with the texts */
  if (!(t = realloc(run->texts, (run->num_texts + 1) * sizeof *t))) {
    free(name);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  run->texts = t;
  run->texts[run->num_texts++] = name;
  src.name = name;
  size_t first = run->num_cases;
  /* a portable artifact (MLIR bytecode) is one case; text splits at `// -----` */
  if (kiln_bytecode_sniff(src.text, src.len)) KILN_RETURN_IF_ERROR(push_case(run, &src));
  else KILN_RETURN_IF_ERROR(kiln_source_split(&src, add_case, run));
  for (size_t i = first; i < run->num_cases; i++) {
    run->cases[i].file_text = src.text;
    run->cases[i].file_len = src.len;
  }
  return NULL;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static kiln_status add_path(check_run *run, const char *path) {
  struct stat sb;
  if (stat(path, &sb) != 0) return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: %s", path, strerror(errno));
  if (!S_ISDIR(sb.st_mode)) return add_file(run, path);
  DIR *d = opendir(path);
  if (!d) return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: %s", path, strerror(errno));
  char **names = NULL;
  size_t n = 0;
  kiln_status st = NULL;
  for (struct dirent *e; !st && (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    size_t len = strlen(e->d_name);
    char *full = malloc(strlen(path) + len + 2);
    char **grown = realloc(names, (n + 1) * sizeof *names);
    if (!full || !grown) {
      free(full);
      if (grown) names = grown;
      st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
    names = grown;
    sprintf(full, "%s/%s", path, e->d_name);
    names[n++] = full;
  }
  closedir(d);
  if (names) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    struct stat es;
    size_t len = strlen(names[i]);
    if (!st && stat(names[i], &es) == 0) {
      if (S_ISDIR(es.st_mode)) st = add_path(run, names[i]);
      else if (len > 5 && !strcmp(names[i] + len - 5, ".mlir")) st = add_file(run, names[i]);
    }
    free(names[i]);
  }
  free(names);
  return st;
}

/* ------------------------------------------------------------------ running one case */

/* What a file's RUN lines ask for: the output checked by FileCheck with the default
 * prefix, and the arguments of @main given as `--args="[dense<...> : tensor<...>, ...]"`. */
typedef struct run_line {
  bool filecheck;
  const char *args; /* inside the brackets; NULL if none */
  size_t args_len;
} run_line;

static run_line read_run_lines(const char *text, size_t len) {
  run_line r = {false, NULL, 0};
  for (const char *p = text, *end = text + len; p < end;) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    size_t n = (size_t)(eol - p);
    if (n > 8 && !memcmp(p, "// RUN:", 7)) {
      const char *cmd = p + 7;
      while (cmd < eol && *cmd == ' ') cmd++;
      bool negated = eol - cmd > 4 && !memcmp(cmd, "not ", 4);
      bool fc = memmem(cmd, (size_t)(eol - cmd), "FileCheck", 9) && !memmem(cmd, (size_t)(eol - cmd), "--check-prefix", 14);
      if (fc && !negated) {
        r.filecheck = true;
        const char *a = memmem(cmd, (size_t)(eol - cmd), "--args=\"[", 9);
        const char *close = a ? memmem(a, (size_t)(eol - a), "]\"", 2) : NULL;
        if (close) {
          r.args = a + 9;
          r.args_len = (size_t)(close - r.args);
        }
      }
    }
    p = eol + 1;
  }
  return r;
}

/* Splits "dense<1> : tensor<2xi32>, dense<2> : tensor<2xi32>" at top-level commas and
 * writes a program whose @main returns those values, so the device makes the buffers. */
static bool args_program(const char *a, size_t n, kiln_strbuf *prog, int32_t *count) {
  kiln_strbuf body = {0}, types = {0};
  int depth = 0;
  *count = 0;
  const char *item = a;
  for (size_t i = 0; i <= n; i++) {
    char c = i < n ? a[i] : ',';
    if (c == '<' || c == '[' || c == '(') depth++;
    else if (c == '>' || c == ']' || c == ')') depth--;
    if (c != ',' || depth) continue;
    const char *e = a + i, *colon = NULL;
    int d = 0;
    for (const char *q = item; q < e; q++) { /* the type follows the last top-level ':' */
      if (*q == '<' || *q == '[' || *q == '(') d++;
      else if (*q == '>' || *q == ']' || *q == ')') d--;
      else if (*q == ':' && !d) colon = q;
    }
    if (!colon) {
      free(body.data);
      free(types.data);
      return false;
    }
    kiln_strbuf_printf(&body, "  %%a%d = stablehlo.constant %.*s\n", (int)*count, (int)(e - item), item);
    kiln_strbuf_printf(&types, "%s%.*s", *count ? ", " : "", (int)(e - colon - 1), colon + 1);
    (*count)++;
    item = a + i + 1;
  }
  kiln_strbuf_printf(prog, "func.func @main() -> (%s) {\n%s  return", types.data ? types.data : "", body.data ? body.data : "");
  for (int32_t i = 0; i < *count; i++) kiln_strbuf_printf(prog, "%s %%a%d", i ? "," : "", (int)i);
  kiln_strbuf_printf(prog, " : %s\n}\n", types.data ? types.data : "");
  bool ok = !prog->failed && !body.failed && !types.failed;
  free(body.data);
  free(types.data);
  return ok;
}

/* Compiles and runs one function; results receive its outputs (new references). With a
 * log, the check.* results are collected: failures are appended to it and counted. */
static kiln_status execute(kiln_program *p, kiln_device *device, const kiln_function_info *f, kiln_buffer *const *args,
                           int32_t nargs, kiln_buffer **results, kiln_strbuf *log, int32_t *failed) {
  kiln_executable *x = NULL;
  kiln_event *done = NULL;
  kiln_compile_options co = {.struct_size = sizeof co, .function = f->name};
  kiln_status st = kiln_program_compile(p, device, &co, &x);
  kiln_execute_args ea = {sizeof ea, args, nargs, results, f->num_results, log ? KILN_EXECUTE_COLLECT_CHECKS : 0, NULL};
  if (!st) st = kiln_executable_execute(x, &ea, &done);
  if (!st) st = kiln_event_wait(done);
  kiln_check_results r = {.struct_size = sizeof r};
  if (!st && log) st = kiln_event_checks(done, &r);
  if (!st && log) { /* the failure text is borrowed from the event: copy it first */
    *failed += r.failed;
    kiln_strbuf_puts(log, r.failures);
  }
  kiln_event_release(done);
  kiln_executable_release(x);
  return st;
}

/* Makes @main's arguments from the RUN line's --args by running a program of constants. */
static kiln_status make_args(const run_line *rl, const kiln_source *src, kiln_device *device, kiln_buffer **args,
                             int32_t want) {
  kiln_strbuf text = {0};
  int32_t n = 0;
  kiln_program *p = NULL;
  kiln_status st = args_program(rl->args, rl->args_len, &text, &n)
                       ? NULL
                       : KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: cannot read the RUN line's --args", src->name);
  if (!st && n != want)
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: the RUN line gives %d arguments, @main takes %d", src->name,
                     (int)n, (int)want);
  kiln_program_options po = {sizeof po, "<--args>", 1};
  if (!st) st = kiln_program_create(text.data, text.len, &po, &p);
  kiln_function_info f = {.struct_size = sizeof f};
  if (!st) st = kiln_program_find_function(p, "main", &f);
  if (!st) st = execute(p, device, &f, NULL, 0, args, NULL, NULL);
  kiln_program_release(p);
  free(text.data);
  return st;
}

/* Appends the results the way the reference interpreter prints them. */
static kiln_status print_results(const kiln_function_info *f, kiln_buffer *const *results, kiln_strbuf *out) {
  kiln_strbuf_printf(out, "Evaluated results of function: %s\n", f->name);
  for (int32_t i = 0; i < f->num_results; i++) {
    kiln_elem e = kiln_element_type_to_elem(kiln_buffer_element_type(results[i]));
    if (e == KILN_ELEM_COUNT) continue; /* tokens and tuples print nothing here */
    size_t bytes = kiln_buffer_byte_size(results[i]);
    uint8_t *data = malloc(bytes ? bytes : 1);
    if (!data) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    kiln_status st = kiln_buffer_copy_to_host(results[i], data, bytes);
    kiln_type t = {.kind = KILN_TYPE_SCALAR, .elem = e};
    if (!st) kiln_format_tensor(out, &t, kiln_buffer_rank(results[i]), kiln_buffer_dims(results[i]), data);
    kiln_strbuf_puts(out, "\n");
    free(data);
    if (st) return st;
  }
  return NULL;
}

/* Runs one function with the check.* results collected, adding them to log. */
static kiln_status run_function(kiln_program *p, kiln_device *device, const kiln_function_info *f,
                                kiln_buffer *const *args, int32_t nargs, kiln_strbuf *log, kiln_strbuf *printed,
                                int32_t *failed) {
  kiln_buffer **results = calloc((size_t)f->num_results + 1, sizeof *results);
  if (!results) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_status st = execute(p, device, f, args, nargs, results, log, failed);
  if (!st && printed) st = print_results(f, results, printed);
  for (int32_t i = 0; i < f->num_results; i++) kiln_buffer_release(results[i]);
  free(results);
  return st;
}

/* Reads what the case printed to stdout (redirected to a temporary file). */
static void read_captured(FILE *cap, kiln_strbuf *out) {
  fflush(stdout);
  if (!cap || fseek(cap, 0, SEEK_SET) != 0) return;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, cap)) > 0) kiln_strbuf_put(out, buf, n);
}

/* The sizes every symbolic dimension of a dynamic case takes in turn, all on one
 * executable per device: 1; one that is not a multiple of any vector width; then two more
 * that code made for an earlier size may serve (the cpu's shared loop code: family.h). */
static const int64_t k_dynamic_sizes[] = {1, 13, 2, 37};

/* Runs x (@main's executable on device) `runs` times on inputs made at size n (dynamic.h);
 * results[r * num_results + i] get result i of run r. On error none are left. */
static kiln_status run_at_size(kiln_executable *x, kiln_device *device, const kiln_function_info *f,
                               const kiln_type *ft, int64_t n, bool zero_ints, int runs, kiln_buffer **results) {
  kiln_buffer **in = calloc((size_t)f->num_inputs + 1, sizeof *in);
  if (!in) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  uint64_t seed = 0x6b696c6e + (uint64_t)n;
  kiln_status st = kiln_cli_inputs_at_size(ft, n, zero_ints, &seed, device, in);
  for (int r = 0; !st && r < runs; r++) {
    kiln_event *done = NULL;
    kiln_execute_args ea = {sizeof ea, in, f->num_inputs, results + r * f->num_results, f->num_results, 0, NULL};
    st = kiln_executable_execute(x, &ea, &done);
    if (!st) st = kiln_event_wait(done);
    kiln_event_release(done);
  }
  for (int32_t i = 0; i < f->num_inputs; i++) kiln_buffer_release(in[i]);
  free(in);
  return st;
}

/* Runs on the device per dynamic size: the first run of a signature may record and
 * compile it (the cpu's specialisation), the second runs what was compiled. */
enum { DYNAMIC_RUNS = 2 };

/* A shape-polymorphic @main without given arguments (the dynamic testdata): compiled once
 * on device (and, unless device is the interpreter, on the reference), runs at each of
 * k_dynamic_sizes on device (DYNAMIC_RUNS times) and once on the reference, and compares
 * each run's results with the reference's. Appends differences to log. */
static kiln_status run_dynamic(const kiln_source *src, kiln_program *p, kiln_device *device, kiln_device *reference,
                               const kiln_function_info *f, const kiln_type *ft, kiln_strbuf *log, int32_t *failed) {
  int32_t nr = f->num_results;
  kiln_buffer **got = calloc((size_t)nr * DYNAMIC_RUNS + 1, sizeof *got);
  kiln_buffer **want = calloc((size_t)nr + 1, sizeof *want);
  kiln_status st = got && want ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_executable *x = NULL, *rx = NULL;
  kiln_compile_options co = {.struct_size = sizeof co, .function = f->name};
  if (!st) st = kiln_program_compile(p, device, &co, &x);
  if (!st && reference) st = kiln_program_compile(p, reference, &co, &rx);
  for (size_t k = 0; !st && k < sizeof k_dynamic_sizes / sizeof *k_dynamic_sizes; k++) {
    int64_t n = k_dynamic_sizes[k];
    /* the first device decides whether random integer inputs fit (dynamic.h) */
    kiln_device *first = reference ? reference : device;
    kiln_executable *first_x = reference ? rx : x;
    kiln_buffer **first_out = reference ? want : got;
    int first_runs = reference ? 1 : DYNAMIC_RUNS;
    bool zero_ints = false;
    st = run_at_size(first_x, first, f, ft, n, false, first_runs, first_out);
    if (st) {
      kiln_status_free(st);
      zero_ints = true;
      st = run_at_size(first_x, first, f, ft, n, true, first_runs, first_out);
    }
    if (!st && reference) st = run_at_size(x, device, f, ft, n, zero_ints, DYNAMIC_RUNS, got);
    kiln_strbuf why = {0};
    for (int r = 0; !st && reference && r < DYNAMIC_RUNS; r++)
      for (int32_t i = 0; i < nr; i++) kiln_cli_results_agree(got[r * nr + i], want[i], (int)i, &why);
    if (why.len) {
      kiln_strbuf_printf(log, "%s:%u: @%s at size %lld differs from interp: %s", src->name, f->line, f->name,
                         (long long)n, why.data);
      (*failed)++;
    }
    free(why.data);
    if (st) {
      kiln_status wrapped = KILN_STATUS(kiln_status_code_of(st), "at size %lld: %s", (long long)n, kiln_status_message(st));
      kiln_status_free(st);
      st = wrapped;
    }
    for (int32_t i = 0; i < nr * DYNAMIC_RUNS; i++) {
      kiln_buffer_release(got[i]);
      got[i] = NULL;
    }
    for (int32_t i = 0; i < nr; i++) {
      kiln_buffer_release(want[i]);
      want[i] = NULL;
    }
  }
  kiln_executable_release(x);
  kiln_executable_release(rx);
  free(got);
  free(want);
  return st;
}

/* Runs @main if the module has one, else every function without arguments; when the
 * file's RUN line pipes the output to FileCheck, what the case printed and its results
 * are checked against the CHECK lines. Writes the outcome to out: first byte 'P'
 * (passed), 'F' or 'S' (skipped), then the text. */
static void run_case(const check_case *c, kiln_device *device, kiln_device *reference, FILE *out) {
  const kiln_source *src = &c->src;
  run_line rl = read_run_lines(c->file_text, c->file_len);
  bool filecheck = rl.filecheck && kiln_filecheck_has_directives(src->text, src->len);
  FILE *cap = NULL;
  if (filecheck && (cap = tmpfile())) { /* the case's stdout becomes the checked output */
    fflush(stdout);
    dup2(fileno(cap), STDOUT_FILENO);
  }
  kiln_program *p = NULL;
  kiln_program_options po = {sizeof po, src->name, src->first_line};
  kiln_status st = kiln_program_create(src->text, src->len, &po, &p);
  kiln_function_info main_fn = {.struct_size = sizeof main_fn};
  kiln_status no_main = st ? NULL : kiln_program_find_function(p, "main", &main_fn);
  bool has_main = !st && !no_main;
  kiln_status_free(no_main);
  kiln_buffer *args[16] = {NULL};
  int32_t nargs = has_main ? main_fn.num_inputs : 0;
  kiln_module *typed = NULL; /* for a dynamic @main's parameter types */
  const kiln_type *main_type = NULL;
  if (nargs > 0 && !rl.args) {
    kiln_status not_typed = kiln_cli_function_type(src, "main", &typed, &main_type);
    if (not_typed || !kiln_cli_is_dynamic(main_type)) main_type = NULL;
    kiln_status_free(not_typed);
  }
  if (nargs > 0 && !main_type && (!rl.args || nargs > 16)) {
    /* e.g. the dynamic-shape testdata: programs without inputs or expected values */
    fprintf(out, "S%s:%u: skipped: @main takes %d arguments and the case gives none\n", src->name, main_fn.line,
            (int)nargs);
    kiln_module_destroy(typed);
    kiln_program_release(p);
    if (cap) fclose(cap);
    return;
  }
  kiln_strbuf log = {0}, printed = {0};
  int32_t failed = 0;
  if (main_type) st = run_dynamic(src, p, device, reference, &main_fn, main_type, &log, &failed);
  else if (nargs > 0) st = make_args(&rl, src, device, args, nargs);
  for (int32_t i = 0; !st && !main_type && i < kiln_program_function_count(p); i++) {
    kiln_function_info f = {.struct_size = sizeof f};
    st = kiln_program_function(p, i, &f);
    if (!st && (has_main ? strcmp(f.name, "main") == 0 : f.num_inputs == 0))
      st = run_function(p, device, &f, args, nargs, &log, filecheck ? &printed : NULL, &failed);
  }
  if (filecheck && !st) {
    kiln_strbuf output = {0};
    read_captured(cap, &output);
    kiln_strbuf_put(&output, printed.data ? printed.data : "", printed.len);
    if (!kiln_filecheck(src->text, src->len, output.data ? output.data : "", src->name, src->first_line, &log))
      failed++;
    free(output.data);
  }
  fputc(!st && failed == 0 ? 'P' : 'F', out);
  if (st) { /* one line: the located message without the echoed source */
    const char *msg = kiln_status_message(st), *nl = strchr(msg, '\n');
    fprintf(out, "%.*s\n", (int)(nl ? nl - msg : (ptrdiff_t)strlen(msg)), msg);
  }
  if (log.data) fputs(log.data, out);
  kiln_status_free(st);
  free(log.data);
  free(printed.data);
  for (int32_t i = 0; i < nargs && i < 16; i++) kiln_buffer_release(args[i]);
  kiln_module_destroy(typed);
  kiln_program_release(p);
  if (cap) fclose(cap);
}

/* ------------------------------------------------------------------ the scheduler */

typedef struct worker {
  pid_t pid;
  int fd;
  size_t index;
  double start;
  bool killed;
} worker;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static bool start_case(check_run *run, size_t index, worker *w) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return false;
  }
  if (pid == 0) {
    close(fds[0]);
#ifndef KILN_UNDER_ASAN
    struct rlimit rl = {run->memory_limit, run->memory_limit};
    setrlimit(RLIMIT_AS, &rl);
#endif
    FILE *out = fdopen(fds[1], "w");
    if (!out) _exit(3);
    run_case(&run->cases[index], run->device, run->reference, out);
    fclose(out);
    exit(0); /* not _exit: sanitizer builds check the case for leaks at exit */
  }
  close(fds[1]);
  *w = (worker){pid, fds[0], index, now_s(), false};
  return true;
}

static void finish(check_run *run, worker *w) {
  int status = 0;
  waitpid(w->pid, &status, 0);
  close(w->fd);
  check_case *c = &run->cases[w->index];
  c->done = true;
  char reason[128] = "";
  const char *name = c->src.name;
  unsigned line = c->src.first_line;
  if (w->killed) snprintf(reason, sizeof reason, "%s:%u: the case timed out after %.0f s\n", name, line, run->timeout_s);
  else if (WIFSIGNALED(status))
    snprintf(reason, sizeof reason, "%s:%u: the case crashed (signal %d: %s)\n", name, line, WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !c->result.len)
    snprintf(reason, sizeof reason, "%s:%u: the case's process failed (out of memory?)\n", name, line);
  if (reason[0]) {
    free(c->result.data);
    c->result = (kiln_strbuf){0};
    kiln_strbuf_printf(&c->result, "F%s", reason);
  }
  c->passed = c->result.len && c->result.data[0] == 'P';
  c->skipped = c->result.len && c->result.data[0] == 'S';
  w->pid = 0;
}

static void run_all(check_run *run) {
  worker *ws = calloc((size_t)run->jobs, sizeof *ws);
  struct pollfd *pf = calloc((size_t)run->jobs, sizeof *pf);
  if (!ws || !pf) {
    free(ws);
    free(pf);
    return;
  }
  size_t next = 0, running = 0;
  while (next < run->num_cases || running) {
    for (int j = 0; j < run->jobs && next < run->num_cases; j++) {
      if (ws[j].pid) continue;
      if (!start_case(run, next, &ws[j])) {
        kiln_strbuf_puts(&run->cases[next].result, "Fcould not start a process for the case\n");
        run->cases[next].done = true;
      } else {
        running++;
      }
      next++;
    }
    int n = 0;
    for (int j = 0; j < run->jobs; j++)
      if (ws[j].pid) pf[n++] = (struct pollfd){ws[j].fd, POLLIN, 0};
    if (!n) continue;
    poll(pf, (nfds_t)n, 200);
    for (int j = 0, k = 0; j < run->jobs; j++) {
      if (!ws[j].pid) continue;
      struct pollfd *p = &pf[k++];
      if (p->revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        ssize_t got = read(ws[j].fd, buf, sizeof buf);
        if (got > 0) {
          kiln_strbuf_put(&run->cases[ws[j].index].result, buf, (size_t)got);
          continue;
        }
        finish(run, &ws[j]);
        running--;
      } else if (!ws[j].killed && now_s() - ws[j].start > run->timeout_s) {
        kill(ws[j].pid, SIGKILL);
        ws[j].killed = true;
      }
    }
  }
  free(ws);
  free(pf);
}

/* ------------------------------------------------------------------ the command */

int kiln_cmd_check(int argc, char **argv) {
  check_run run = {0};
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  run.jobs = cpus > 0 ? (int)cpus : 1;
  run.timeout_s = 60;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  size_t phys = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : ((size_t)8 << 30);
  int paths = 0, rc = 0;
  kiln_cli_devices devices = {0};
  for (int i = 1; i < argc; i++) {
    bool bad = false;
    if (kiln_cli_device_option("check", argc, argv, &i, &devices, &bad)) {
      if (bad) return 1;
      continue;
    }
    if ((!strcmp(argv[i], "--jobs") || !strcmp(argv[i], "--timeout")) && i + 1 >= argc) {
      fprintf(stderr, "kiln check: %s needs a value\nusage: %s\n", argv[i], k_usage);
      return 1;
    }
    if (!strcmp(argv[i], "--jobs")) {
      run.jobs = atoi(argv[++i]);
      if (run.jobs < 1 || run.jobs > 256) {
        fprintf(stderr, "kiln check: --jobs must be between 1 and 256\n");
        return 1;
      }
    } else if (!strcmp(argv[i], "--timeout")) {
      run.timeout_s = atof(argv[++i]);
      if (!(run.timeout_s > 0)) {
        fprintf(stderr, "kiln check: --timeout must be a positive number of seconds\n");
        return 1;
      }
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "kiln check: unknown option '%s'\nusage: %s\n", argv[i], k_usage);
      return 1;
    } else {
      paths++;
      kiln_status st = add_path(&run, argv[i]);
      if (st) {
        fprintf(stderr, "kiln check: %s\n", kiln_status_message(st));
        kiln_status_free(st);
        rc = 1;
      }
    }
  }
  if (!paths) {
    fprintf(stderr, "kiln check: no input path\nusage: %s\n", k_usage);
    return 1;
  }
  run.memory_limit = phys / (size_t)run.jobs;
  kiln_client *client = kiln_cli_client("check", &devices);
  if (!client) rc = 1;
  run.device = kiln_client_device(client, 0);
  kiln_client *reference = NULL; /* interp, for the dynamic cases */
  if (client && strcmp(kiln_device_name(run.device), "interp")) {
    kiln_client_options ro = kiln_cli_options(&devices);
    ro.devices = "interp";
    ro.flags |= KILN_CLIENT_IGNORE_ENV;
    kiln_status st = kiln_client_create(&ro, &reference);
    if (st) { /* dynamic cases then run on the device alone */
      fprintf(stderr, "kiln check: no interp device to compare dynamic cases with: %s\n", kiln_status_message(st));
      kiln_status_free(st);
    }
    run.reference = reference ? kiln_client_device(reference, 0) : NULL;
  }
  if (client) run_all(&run);
  kiln_client_release(reference);
  kiln_client_release(client);
  size_t passed = 0, failed = 0, skipped = 0;
  for (size_t i = 0; i < run.num_cases; i++) {
    check_case *c = &run.cases[i];
    if (c->passed) {
      passed++;
    } else if (c->skipped) {
      skipped++;
    } else {
      failed++;
      if (c->result.len > 1) {
        fputs(c->result.data + 1, stdout);
        if (c->result.data[c->result.len - 1] != '\n') putchar('\n');
      } else {
        printf("%s:%u: the case failed without a reason\n", c->src.name, c->src.first_line);
      }
    }
  }
  for (size_t i = 0; i < run.num_cases; i++) /* each skip with its reason, after the failures */
    if (run.cases[i].skipped) fputs(run.cases[i].result.data + 1, stdout);
  if (skipped) printf("%zu passed, %zu failed, %zu skipped\n", passed, failed, skipped);
  else printf("%zu passed, %zu failed\n", passed, failed);
  for (size_t i = 0; i < run.num_cases; i++) free(run.cases[i].result.data);
  for (size_t i = 0; i < run.num_texts; i++) free(run.texts[i]);
  free(run.texts);
  free(run.cases);
  return rc || failed ? 1 : 0;
}
