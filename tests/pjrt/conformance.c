/* Every VHLO portable artifact (`.mlir.bc`) of the conformance folder through
 * PJRT_Client_Compile, as JAX and EXLA send programs. A file passes when it compiles, or
 * when it reads but has no @main (the StableHLO test files hold many functions);
 * `invalid_*` files must fail to read. The others that fail are listed, and the count read
 * must reach min_read (the figure last measured: it may only go up). Runs only once
 * kiln_program_create reads bytecode: until then every artifact is refused as text, which
 * is reported and skipped. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

static char *message(PJRT_Error *err) {
  ARGS(PJRT_Error_Message_Args, m);
  m.error = err;
  api->PJRT_Error_Message(&m);
  char *s = malloc(m.message_size + 1);
  memcpy(s, m.message, m.message_size);
  s[m.message_size] = 0;
  ARGS(PJRT_Error_Destroy_Args, d);
  d.error = err;
  api->PJRT_Error_Destroy(&d);
  return s;
}

void t_conformance(const char *dir, int min_read) {
  DIR *d = dir ? opendir(dir) : NULL;
  if (!d) {
    printf("conformance: no folder %s (skipped)\n", dir ? dir : "(none)");
    return;
  }
  PJRT_Client *c = t_client(PJRT_Client_Create_Args_STRUCT_SIZE, NULL, 0);
  int files = 0, read = 0, not_bytecode = 0;
  for (struct dirent *e; c && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 8 || strcmp(e->d_name + len - 8, ".mlir.bc")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t size;
    char *code = slurp(path, &size);
    if (!code) continue;
    files++;
    PJRT_Error *err;
    PJRT_LoadedExecutable *x = t_compile(c, code, size, NULL, 0, &err);
    char *msg = err ? message(err) : NULL;
    bool ok = !msg || strstr(msg, "no function @main");
    /* the text parser's complaint about the bytecode magic: no bytecode reader yet */
    if (msg && strstr(msg, "<pjrt program>:1:1:")) not_bytecode++;
    else if (!strncmp(e->d_name, "invalid_", 8)) CHECK(!ok, "%s: an invalid artifact was accepted", e->d_name);
    else if (!ok) printf("conformance: not read: %s: %s\n", e->d_name, msg);
    read += ok;
    t_executable_destroy(x);
    free(msg);
    free(code);
  }
  closedir(d);
  if (c) t_client_destroy(c);
  if (not_bytecode == files)
    printf("conformance: %d artifacts; kiln_program_create does not read bytecode yet (skipped)\n", files);
  else
    CHECK(read >= min_read, "conformance: %d of %d artifacts read; at least %d were before", read, files, min_read);
  printf("conformance: %d of %d artifacts read (%d refused as text)\n", read, files, not_bytecode);
}
