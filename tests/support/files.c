#include "support/files.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **test_files(const char *dir, const char *suffix, size_t *out_count) {
  *out_count = 0;
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **paths = NULL;
  size_t count = 0, cap = 0;
  bool ok = true;
  for (struct dirent *e; ok && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md")) continue;
    if (suffix && (len < strlen(suffix) || strcmp(e->d_name + len - strlen(suffix), suffix))) continue;
    size_t n = strlen(dir) + len + 2;
    char *path = malloc(n);
    struct stat sb;
    if (path) snprintf(path, n, "%s/%s", dir, e->d_name);
    if (path && (stat(path, &sb) || !S_ISREG(sb.st_mode))) {
      free(path);
      continue;
    }
    if (count == cap) {
      char **grown = realloc(paths, (cap = cap ? cap * 2 : 64) * sizeof *paths);
      if (grown) paths = grown;
      else ok = false;
    }
    if (!path || !ok) {
      free(path);
      ok = false;
      break;
    }
    paths[count++] = path;
  }
  closedir(d);
  if (!ok) {
    test_files_free(paths, count);
    return NULL;
  }
  if (count) qsort(paths, count, sizeof *paths, cmp_names);
  *out_count = count;
  return paths ? paths : calloc(1, sizeof *paths);
}

void test_files_free(char **paths, size_t count) {
  for (size_t i = 0; paths && i < count; i++) free(paths[i]);
  free(paths);
}

int test_split_files(char *const *paths, int count, kiln_source_piece_fn fn, void *user) {
  int failed = 0;
  for (int i = 0; i < count; i++) {
    kiln_source src;
    kiln_status st = kiln_source_read(paths[i], &src);
    if (!st) {
      st = kiln_source_split(&src, fn, user);
      kiln_source_free(&src);
    }
    if (st) {
      printf("FAIL %s: %s\n", paths[i], kiln_status_message(st));
      failed++;
      kiln_status_free(st);
    }
  }
  return failed;
}
