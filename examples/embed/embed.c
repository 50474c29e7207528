/* embed: runs a StableHLO model through Kiln's public C API (<kiln/kiln.h> only) and prints
 * the answer. Built against an installed SDK through pkg-config:
 *
 *   PKG_CONFIG_PATH=PREFIX/lib/pkgconfig make
 *   ./embed ../digits/digits.mlir ../digits/input.npy          # result 0 argmax: 2
 *   ./embed --device cuda,interp --plugins DIR ../digits/digits.mlir ../digits/input.npy
 *
 * usage: embed [--device LIST] [--plugins DIR]... MODEL.mlir INPUT.npy...
 * Runs @main on little-endian f32 .npy inputs (one per argument of @main) and prints each
 * result and its argmax. --device is the ordered device list (default: KILN_DEVICE, else
 * the library's default); --plugins adds a plugin folder, searched before the one next to
 * libkiln.so. */
#include <kiln/kiln.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_INPUTS = 16, MAX_PLUGIN_DIRS = 8 };

/* The whole file, NUL-terminated; NULL if it cannot be read. */
static char *read_file(const char *path, size_t *out_len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *data = NULL;
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1))) {
    if (fread(data, 1, (size_t)n, f) == (size_t)n) {
      data[n] = '\0';
      *out_len = (size_t)n;
    } else {
      free(data);
      data = NULL;
    }
  }
  fclose(f);
  return data;
}

/* A .npy file of little-endian f32 in C order: its shape and data (pointing into file). */
typedef struct npy {
  char *file;
  int32_t rank;
  int64_t dims[KILN_MAX_RANK];
  const void *data;
  size_t byte_size;
} npy;

static int read_npy(const char *path, npy *out) {
  size_t len = 0;
  const char *f = out->file = read_file(path, &len);
  if (!f || len < 12 || memcmp(f, "\x93NUMPY", 6) != 0) return fprintf(stderr, "%s: not a .npy file\n", path), 1;
  const unsigned char *u = (const unsigned char *)f;
  size_t start = u[6] == 1 ? 10 : 12, size = u[8] | (size_t)u[9] << 8;
  if (u[6] > 1) size |= (size_t)u[10] << 16 | (size_t)u[11] << 24;
  char header[4096];
  if (size >= sizeof header || start + size > len) return fprintf(stderr, "%s: bad .npy header\n", path), 1;
  memcpy(header, f + start, size);
  header[size] = '\0';
  if (!strstr(header, "'descr': '<f4'") || !strstr(header, "'fortran_order': False"))
    return fprintf(stderr, "%s: only little-endian float32 in C order is read here\n", path), 1;
  const char *s = strstr(header, "'shape': (");
  size_t count = 1;
  for (s = s ? s + 10 : NULL; s && *s != ')' && out->rank < KILN_MAX_RANK; out->rank++) {
    char *end;
    out->dims[out->rank] = strtoll(s, &end, 10);
    if (end == s || out->dims[out->rank] < 0) return fprintf(stderr, "%s: bad shape\n", path), 1;
    count *= (size_t)out->dims[out->rank];
    for (s = end; *s == ',' || *s == ' ';) s++;
  }
  out->data = f + start + size;
  out->byte_size = count * sizeof(float);
  if (!s || start + size + out->byte_size != len) return fprintf(stderr, "%s: shape and size disagree\n", path), 1;
  return 0;
}

/* Prints the error (if any), frees it and says whether there was one. */
static int failed(kiln_status st, const char *what) {
  if (!st) return 0;
  fprintf(stderr, "embed: %s: %s\n", what, kiln_status_message(st));
  kiln_status_free(st);
  return 1;
}

static void print_result(int32_t index, kiln_buffer *b) {
  size_t n = kiln_buffer_byte_size(b) / sizeof(float);
  float *v = kiln_buffer_element_type(b) == KILN_ELEMENT_TYPE_F32 ? malloc(n ? n * sizeof *v : 1) : NULL;
  if (!v || failed(kiln_buffer_copy_to_host(b, v, n * sizeof *v), "reading a result")) {
    printf("result %d: not f32\n", (int)index);
    free(v);
    return;
  }
  size_t best = 0;
  printf("result %d:", (int)index);
  for (size_t i = 0; i < n; i++) {
    if (i < 16) printf(" %.4g", v[i]);
    if (v[i] > v[best]) best = i;
  }
  printf("%s\nresult %d argmax: %zu\n", n > 16 ? " ..." : "", (int)index, best);
  free(v);
}

static int usage(void) {
  fprintf(stderr, "usage: embed [--device LIST] [--plugins DIR]... MODEL.mlir INPUT.npy...\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *devices = NULL, *plugin_dirs[MAX_PLUGIN_DIRS], *files[MAX_INPUTS + 1];
  int32_t num_dirs = 0, num_files = 0;
  for (int i = 1; i < argc; i++) {
    bool value = i + 1 < argc;
    if (!strcmp(argv[i], "--device") && value) devices = argv[++i];
    else if (!strcmp(argv[i], "--plugins") && value && num_dirs < MAX_PLUGIN_DIRS) plugin_dirs[num_dirs++] = argv[++i];
    else if (argv[i][0] != '-' && num_files <= MAX_INPUTS) files[num_files++] = argv[i];
    else return usage();
  }
  if (num_files < 1) return usage();
  printf("kiln %s (built against %s)\n", kiln_version(), KILN_VERSION_STRING);

  int rc = 1;
  int32_t num_inputs = num_files - 1, num_results = 0;
  npy inputs[MAX_INPUTS] = {0};
  kiln_client *client = NULL;
  kiln_program *program = NULL;
  kiln_executable *exe = NULL;
  kiln_buffer *in[MAX_INPUTS] = {0}, **out = NULL;
  kiln_event *done = NULL;
  size_t text_len = 0;
  char *text = read_file(files[0], &text_len);
  if (!text) {
    fprintf(stderr, "embed: cannot read %s\n", files[0]);
    goto cleanup;
  }

  /* The device list is tried in order; every plugin passed over is reported with why. */
  kiln_client_options options = {.struct_size = sizeof options, .devices = devices,
                                  .plugin_paths = plugin_dirs, .num_plugin_paths = num_dirs};
  if (failed(kiln_client_create(&options, &client), "no device")) goto cleanup;
  const kiln_plugin_list *tried = kiln_client_selection(client);
  for (int32_t i = 0; i < kiln_plugin_list_count(tried); i++) {
    kiln_plugin_report r = {.struct_size = sizeof r};
    if (!failed(kiln_plugin_list_get(tried, i, &r), "selection") && r.code != KILN_STATUS_OK)
      printf("%s passed over: %s\n", r.name, r.reason);
  }
  kiln_device *device = kiln_client_device(client, 0);
  printf("device: %s (%s)\n", kiln_device_name(device), kiln_device_description(device));

  kiln_program_options popts = {.struct_size = sizeof popts, .name = files[0]};
  if (failed(kiln_program_create(text, text_len, &popts, &program), "program")) goto cleanup;
  if (failed(kiln_program_compile(program, device, NULL, &exe), "compile")) goto cleanup;
  kiln_function_info main_fn = {.struct_size = sizeof main_fn};
  if (failed(kiln_executable_function(exe, &main_fn), "@main")) goto cleanup;
  num_results = main_fn.num_results;

  for (int32_t i = 0; i < num_inputs; i++) {
    if (read_npy(files[i + 1], &inputs[i])) goto cleanup;
    kiln_buffer_args args = {.struct_size = sizeof args, .element_type = KILN_ELEMENT_TYPE_F32,
                             .rank = inputs[i].rank, .dims = inputs[i].dims, .data = inputs[i].data,
                             .byte_size = inputs[i].byte_size};
    if (failed(kiln_buffer_create(device, &args, &in[i]), files[i + 1])) goto cleanup;
  }
  if (!(out = calloc((size_t)num_results + 1, sizeof *out))) goto cleanup;
  kiln_execute_args run = {.struct_size = sizeof run, .inputs = in, .num_inputs = num_inputs,
                           .out_results = out, .num_results = num_results};
  if (failed(kiln_executable_execute(exe, &run, &done), "run") || failed(kiln_event_wait(done), "run")) goto cleanup;
  for (int32_t i = 0; i < num_results; i++) print_result(i, out[i]);
  rc = 0;

cleanup: /* every release takes NULL; the order does not matter */
  for (int32_t i = 0; out && i < num_results; i++) kiln_buffer_release(out[i]);
  free(out);
  kiln_event_release(done);
  for (int32_t i = 0; i < num_inputs; i++) {
    kiln_buffer_release(in[i]);
    free(inputs[i].file);
  }
  kiln_executable_release(exe);
  kiln_program_release(program);
  kiln_client_release(client);
  free(text);
  return rc;
}
