/* Front-end benchmark: parse + verify every .mlir file of a folder (default
 * ../shared/conformance), single-threaded, all files preloaded into memory. The reference
 * measured in the same run is the lexer alone over the same bytes, so the ratio shows what
 * building and checking the IR costs on top of reading the text.
 *   kiln_bench_parse [FOLDER] [REPEATS] */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/source.h"
#include "ir/ir.h"
#include "parse/lexer.h"
#include "parse/parse.h"

static kiln_source *g_files;
static size_t g_count, g_cap, g_bytes;

static int collect(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)ftw;
  size_t n = strlen(path);
  if (flag != FTW_F || n < 5 || strcmp(path + n - 5, ".mlir")) return 0;
  if (g_count == g_cap) {
    g_cap = g_cap ? g_cap * 2 : 1024;
    g_files = realloc(g_files, g_cap * sizeof *g_files);
    if (!g_files) exit(2);
  }
  kiln_source *s = &g_files[g_count];
  kiln_status st = kiln_source_read(path, s);
  if (st) {
    kiln_status_free(st);
    return 0;
  }
  s->name = strdup(path);
  g_bytes += s->len;
  g_count++;
  return 0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static size_t g_tokens, g_ok, g_failed;

static kiln_status lex_piece(const kiln_source *piece, void *user) {
  (void)user;
  kiln_lexer lx;
  kiln_lexer_init(&lx, piece);
  for (kiln_tok t = kiln_lex(&lx); t.kind != KILN_TOK_EOF && t.kind != KILN_TOK_ERROR; t = kiln_lex(&lx)) g_tokens++;
  return NULL;
}

static kiln_status parse_piece(const kiln_source *piece, void *user) {
  (void)user;
  kiln_module *m;
  kiln_status st = kiln_parse_module(piece, &m);
  if (!st) st = kiln_verify_module(m, piece);
  kiln_module_destroy(m);
  if (st) g_failed++, kiln_status_free(st);
  else g_ok++;
  return NULL;
}

static double run(kiln_source_piece_fn fn) {
  double t0 = now();
  for (size_t i = 0; i < g_count; i++) kiln_source_split(&g_files[i], fn, NULL);
  return now() - t0;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "../shared/conformance";
  int repeats = argc > 2 ? atoi(argv[2]) : 5;
  if (nftw(dir, collect, 16, FTW_PHYS) != 0 || !g_count) {
    fprintf(stderr, "no .mlir files under %s\n", dir);
    return 1;
  }
  double best_lex = 1e9, best_parse = 1e9;
  for (int r = 0; r < repeats; r++) {
    double a = run(lex_piece), b = run(parse_piece);
    if (a < best_lex) best_lex = a;
    if (b < best_parse) best_parse = b;
  }
  printf("files: %zu (%.1f MB), modules parsed and verified: %zu, rejected: %zu (per repeat)\n", g_count,
         (double)g_bytes / 1e6, g_ok / (size_t)repeats, g_failed / (size_t)repeats);
  printf("lex only (reference):  %.3f s  %.0f MB/s\n", best_lex, (double)g_bytes / 1e6 / best_lex);
  printf("parse + verify:        %.3f s  %.0f MB/s\n", best_parse, (double)g_bytes / 1e6 / best_parse);
  printf("ratio parse+verify / lex: %.2f (best of %d)\n", best_parse / best_lex, repeats);
  for (size_t i = 0; i < g_count; i++) {
    free((char *)g_files[i].name);
    kiln_source_free(&g_files[i]);
  }
  free(g_files);
  return 0;
}
