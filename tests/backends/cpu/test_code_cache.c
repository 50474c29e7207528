/* The persistent compile cache's files (src/backends/cpu/code_cache.h): settings from the
 * environment, store and load, every kind of damaged entry ignored (and replaced by the
 * next store), writers in several processes at once, eviction down to the bound (least
 * recently used first, nothing foreign removed), an off cache and an unwritable folder.
 * Everything happens in a fresh folder under $TMPDIR (or /tmp). */
#define _GNU_SOURCE /* mkdtemp */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/cpu/code_cache.h"
#include "expect.h"

enum { HEADER = 88, WRITERS = 8 };

static char g_root[512];

static void make_key(uint8_t key[KILN_CODE_CACHE_KEY_SIZE], int seed) {
  for (int i = 0; i < KILN_CODE_CACHE_KEY_SIZE; i++) key[i] = (uint8_t)(seed * 31 + i * 7);
}

static uint8_t *make_payload(size_t n, int seed) {
  uint8_t *p = malloc(n);
  for (size_t i = 0; p && i < n; i++) p[i] = (uint8_t)((i * 2654435761u) >> 13) ^ (uint8_t)seed;
  return p;
}

static char *entry_file(const kiln_code_cache *c, const uint8_t key[KILN_CODE_CACHE_KEY_SIZE]) {
  static char path[1024];
  int n = snprintf(path, sizeof path, "%s/", c->dir);
  for (int i = 0; i < KILN_CODE_CACHE_KEY_SIZE; i++) n += snprintf(path + n, sizeof path - (size_t)n, "%02x", key[i]);
  snprintf(path + n, sizeof path - (size_t)n, ".obj");
  return path;
}

static uint8_t *read_file(const char *path, size_t *out_size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *out_size = (size_t)n;
  return buf;
}

static void write_file(const char *path, const uint8_t *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (f) {
    if (n) fwrite(data, 1, n, f);
    fclose(f);
  }
}

/* Whether the cache returns exactly `want` (n bytes) for key. */
static bool loads(const kiln_code_cache *c, const uint8_t *key, const uint8_t *want, size_t n) {
  void *data = NULL;
  size_t size = 0;
  bool hit = kiln_code_cache_load(c, key, &data, &size);
  bool same = hit && size == n && (n == 0 || !memcmp(data, want, n));
  free(data);
  return same;
}

static bool misses(const kiln_code_cache *c, const uint8_t *key) {
  void *data = (void *)1;
  size_t size = 1;
  bool hit = kiln_code_cache_load(c, key, &data, &size);
  free(hit ? data : NULL);
  return !hit && data == NULL && size == 0;
}

/* Files in dir whose names contain `part`. */
static int count_files(const char *dir, const char *part) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, part) != NULL;
  if (d) closedir(d);
  return n;
}

static kiln_code_cache cache_in(const char *name, uint64_t max_bytes) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/%s", g_root, name);
  return (kiln_code_cache){strdup(dir), max_bytes};
}

static void test_settings(void) {
  static const struct {
    const char *dir, *xdg, *home, *max; /* NULL: unset */
    const char *want_dir;               /* NULL: off; "!": an error */
    uint64_t want_max;
  } cases[] = {
      {"/c", "/x", "/h", NULL, "/c/cpu", KILN_CODE_CACHE_DEFAULT_MAX_BYTES},
      {"", "/x", "/h", NULL, NULL, KILN_CODE_CACHE_DEFAULT_MAX_BYTES},
      {NULL, "/x", "/h", NULL, "/x/kiln/cpu", KILN_CODE_CACHE_DEFAULT_MAX_BYTES},
      {NULL, "rel", "/h", NULL, "/h/.cache/kiln/cpu", KILN_CODE_CACHE_DEFAULT_MAX_BYTES},
      {NULL, NULL, "/h", "64K", "/h/.cache/kiln/cpu", 65536},
      {NULL, NULL, NULL, NULL, "!", 0},
      {"/c", NULL, NULL, "123", "/c/cpu", 123},
      {"/c", NULL, NULL, "3m", "/c/cpu", 3u << 20},
      {"/c", NULL, NULL, "2G", "/c/cpu", 2ull << 30},
      {"/c", NULL, NULL, "0", NULL, 0},
      {"/c", NULL, NULL, "12x", "!", 0},
      {"/c", NULL, NULL, "", "!", 0},
      {"/c", NULL, NULL, "K", "!", 0},
      {"/c", NULL, NULL, "-1", "!", 0},
      {"/c", NULL, NULL, "99999999999999999999", "!", 0},
      {"/c", NULL, NULL, "17179869184G", "!", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *names[4] = {"KILN_CACHE_DIR", "XDG_CACHE_HOME", "HOME", "KILN_CACHE_MAX_BYTES"};
    const char *values[4] = {cases[i].dir, cases[i].xdg, cases[i].home, cases[i].max};
    for (int k = 0; k < 4; k++) {
      if (values[k]) setenv(names[k], values[k], 1);
      else unsetenv(names[k]);
    }
    kiln_code_cache c;
    kiln_status st = kiln_code_cache_from_env("cpu", &c);
    const char *want = cases[i].want_dir;
    if (want && !strcmp(want, "!")) {
      EXPECT(st && !c.dir, "case %zu: an error and the cache off expected", i);
    } else {
      EXPECT(!st, "case %zu: %s", i, st ? kiln_status_message(st) : "");
      EXPECT(want ? c.dir && !strcmp(c.dir, want) : !c.dir, "case %zu: dir %s, %s expected", i, c.dir ? c.dir : "(off)",
             want ? want : "(off)");
      if (want) EXPECT(c.max_bytes == cases[i].want_max, "case %zu: max %llu", i, (unsigned long long)c.max_bytes);
    }
    kiln_status_free(st);
    kiln_code_cache_free(&c);
  }
  unsetenv("KILN_CACHE_MAX_BYTES");
}

static void test_store_load(void) {
  kiln_code_cache c = cache_in("basic/nested", 1 << 20);
  uint8_t key[KILN_CODE_CACHE_KEY_SIZE], other[KILN_CODE_CACHE_KEY_SIZE];
  make_key(key, 1);
  make_key(other, 2);
  EXPECT(misses(&c, key), "an empty cache misses (its folder does not exist yet)");
  uint8_t *p = make_payload(5000, 1);
  kiln_status st = kiln_code_cache_store(&c, key, p, 5000);
  EXPECT(!st, "store: %s", st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  EXPECT(loads(&c, key, p, 5000), "the stored payload loads back");
  EXPECT(misses(&c, other), "another key misses");
  EXPECT(count_files(c.dir, ".obj") == 1 && count_files(c.dir, ".tmp") == 0, "one entry, no temporary left");
  size_t n = 0;
  uint8_t *file = read_file(entry_file(&c, key), &n);
  EXPECT(file && n == HEADER + 5000 && !memcmp(file, "KILNOBJ\n", 8), "the entry's layout: %zu bytes", n);
  free(file);
  st = kiln_code_cache_store(&c, key, p, 0); /* an empty payload is an entry too */
  EXPECT(!st && loads(&c, key, p, 0), "an empty payload");
  kiln_status_free(st);
  free(p);
  kiln_code_cache_free(&c);
}

/* Each damage of a valid entry is a miss; a store afterwards makes it valid again. */
static void test_damage(void) {
  kiln_code_cache c = cache_in("damage", 1 << 20);
  uint8_t key[KILN_CODE_CACHE_KEY_SIZE], other[KILN_CODE_CACHE_KEY_SIZE];
  make_key(key, 3);
  make_key(other, 4);
  enum { N = 300 };
  uint8_t *p = make_payload(N, 3);
  kiln_status_free(kiln_code_cache_store(&c, key, p, N));
  size_t n = 0;
  uint8_t *good = read_file(entry_file(&c, key), &n);
  EXPECT(good && n == HEADER + N, "entry written");
  if (!good) return;
  char path[1024];
  snprintf(path, sizeof path, "%s", entry_file(&c, key));
  uint8_t *bad = malloc(n + 1);
  int flips_missed = 0, cuts_missed = 0;
  for (size_t i = 0; i < n; i++) { /* every byte of header and payload flipped */
    memcpy(bad, good, n);
    bad[i] ^= 0x20;
    write_file(path, bad, n);
    flips_missed += !misses(&c, key);
  }
  EXPECT(!flips_missed, "%d of %zu one-byte flips were loaded", flips_missed, n);
  for (size_t len = 0; len < n; len++) { /* every truncation */
    write_file(path, good, len);
    cuts_missed += !misses(&c, key);
  }
  EXPECT(!cuts_missed, "%d of %zu truncations were loaded", cuts_missed, n);
  memcpy(bad, good, n);
  bad[n] = 0;
  write_file(path, bad, n + 1);
  EXPECT(misses(&c, key), "a byte appended");
  write_file(entry_file(&c, other), good, n); /* a valid entry under another key's name */
  EXPECT(misses(&c, other), "an entry whose key is not its name's");
  memcpy(bad, good, n);
  bad[8] = 2; /* format version 2, all else valid */
  write_file(path, bad, n);
  EXPECT(misses(&c, key), "another format version");
  unlink(path);
  EXPECT(mkdir(path, 0700) == 0 && misses(&c, key), "a folder in the entry's place");
  rmdir(path);
  write_file(path, bad, n);
  kiln_status st = kiln_code_cache_store(&c, key, p, N);
  EXPECT(!st && loads(&c, key, p, N), "a store replaces the damaged entry");
  kiln_status_free(st);
  free(bad);
  free(good);
  free(p);
  kiln_code_cache_free(&c);
}

/* WRITERS processes store one key at once (each its own payload, 1 MiB: writes take a
 * while) while as many read it; every hit is one writer's payload, whole, a reader that
 * found the entry once never misses it again (no moment without a whole entry), and one
 * valid entry is left, with no temporary. */
static void test_concurrent(void) {
  kiln_code_cache c = cache_in("concurrent", 64 << 20);
  uint8_t key[KILN_CODE_CACHE_KEY_SIZE];
  make_key(key, 5);
  enum { N = 1 << 20 };
  pid_t pids[2 * WRITERS];
  for (int w = 0; w < 2 * WRITERS; w++) {
    pids[w] = fork();
    if (pids[w] == 0) {
      int bad = 0;
      if (w < WRITERS) {
        uint8_t *p = make_payload(N, w);
        for (int round = 0; round < 4 && !bad; round++) {
          kiln_status st = kiln_code_cache_store(&c, key, p, N);
          bad = st != NULL;
          kiln_status_free(st);
        }
        free(p);
      } else {
        uint8_t *want[WRITERS];
        for (int k = 0; k < WRITERS; k++) want[k] = make_payload(N, k);
        bool seen = false; /* once an entry is there, a reader always finds one whole */
        for (int round = 0; round < 40 && !bad; round++) {
          void *data = NULL;
          size_t size = 0;
          if (!kiln_code_cache_load(&c, key, &data, &size)) {
            bad = seen;
            continue;
          }
          seen = true;
          bool one = false;
          for (int k = 0; k < WRITERS && !one; k++) one = size == N && !memcmp(data, want[k], N);
          bad = !one;
          free(data);
        }
        for (int k = 0; k < WRITERS; k++) free(want[k]);
      }
      _exit(bad);
    }
  }
  int failed = 0;
  for (int w = 0; w < 2 * WRITERS; w++) {
    int status = 0;
    failed += pids[w] < 0 || waitpid(pids[w], &status, 0) != pids[w] || !WIFEXITED(status) || WEXITSTATUS(status);
  }
  EXPECT(!failed, "%d of %d writers and readers failed (an error, a hit that was no writer's payload, a miss after a hit)", failed,
         2 * WRITERS);
  bool one = false;
  for (int k = 0; k < WRITERS && !one; k++) {
    uint8_t *p = make_payload(N, k);
    one = loads(&c, key, p, N);
    free(p);
  }
  EXPECT(one, "a valid entry is left: one writer's payload");
  EXPECT(count_files(c.dir, ".obj") == 1 && count_files(c.dir, ".tmp") == 0, "one entry and no temporary left");
  kiln_code_cache_free(&c);
}

static void set_age(const char *path, time_t seconds_ago) {
  struct timespec t[2] = {{time(NULL) - seconds_ago, 0}, {time(NULL) - seconds_ago, 0}};
  utimensat(AT_FDCWD, path, t, 0);
}

/* The total the folder's usage file holds, or -1 when it holds none. */
static long long usage_total(const kiln_code_cache *c) {
  char path[1024];
  snprintf(path, sizeof path, "%s/usage", c->dir);
  size_t n = 0;
  uint8_t *b = read_file(path, &n);
  long long total = -1;
  if (b && n == 16 && !memcmp(b, "KILNUSE\n", 8)) {
    total = 0;
    for (int i = 7; i >= 0; i--) total = total << 8 | b[8 + i];
  }
  free(b);
  return total;
}

static void test_eviction(void) {
  enum { N = 1000, E = HEADER + N };
  kiln_code_cache c = cache_in("evict", 3 * E); /* room for three entries */
  uint8_t keys[8][KILN_CODE_CACHE_KEY_SIZE];
  uint8_t *p = make_payload(N, 6);
  char foreign[1024], stale[1024], fresh[1024];
  for (int i = 0; i < 8; i++) make_key(keys[i], 10 + i);
  for (int i = 0; i < 3; i++) {
    kiln_status_free(kiln_code_cache_store(&c, keys[i], p, N));
    set_age(entry_file(&c, keys[i]), 100 - i); /* 0 oldest */
  }
  EXPECT(usage_total(&c) == 3 * E, "the usage file counts three entries: %lld", usage_total(&c));
  kiln_status_free(kiln_code_cache_store(&c, keys[2], p, N));
  set_age(entry_file(&c, keys[2]), 98);
  EXPECT(usage_total(&c) == 3 * E, "an entry stored again replaces its bytes in the count: %lld", usage_total(&c));
  snprintf(foreign, sizeof foreign, "%s/notes.txt", c.dir);
  write_file(foreign, p, N);
  set_age(foreign, 1000);
  snprintf(stale, sizeof stale, "%s.tmp.AAAAAA", entry_file(&c, keys[5]));
  snprintf(fresh, sizeof fresh, "%s.tmp.BBBBBB", entry_file(&c, keys[4]));
  write_file(stale, p, 10);
  set_age(stale, 7200);
  write_file(fresh, p, 10);
  EXPECT(loads(&c, keys[0], p, N), "entry 0 used: now the most recent");
  kiln_status st = kiln_code_cache_store(&c, keys[3], p, N);
  EXPECT(!st, "store: %s", st ? kiln_status_message(st) : "");
  kiln_status_free(st);
  EXPECT(loads(&c, keys[0], p, N) && misses(&c, keys[1]) && misses(&c, keys[2]) && loads(&c, keys[3], p, N),
         "over the bound, the least recently used entries (1, 2) went, down to 90%% of it");
  EXPECT(count_files(c.dir, ".obj") == 3, "two entries and the fresh temporary: %d", count_files(c.dir, ".obj"));
  EXPECT(usage_total(&c) == 2 * E, "the count is the folder's after eviction: %lld", usage_total(&c));
  EXPECT(access(foreign, F_OK) == 0, "a foreign file stays");
  EXPECT(access(stale, F_OK) != 0 && access(fresh, F_OK) == 0, "a dead writer's temporary goes, a fresh one stays");
  uint8_t *big = make_payload(3 * E, 7);
  st = kiln_code_cache_store(&c, keys[4], big, 3 * E);
  EXPECT(!st && misses(&c, keys[4]) && loads(&c, keys[3], p, N), "an entry over the bound is not stored");
  kiln_status_free(st);
  /* an entry the count does not know of (copied in by hand): a store under the bound by the
   * count does not read the folder; the next one over it does, and evicts by the truth */
  size_t n = 0;
  uint8_t *copy = read_file(entry_file(&c, keys[3]), &n);
  char *by_hand = entry_file(&c, keys[6]);
  write_file(by_hand, copy, n);
  set_age(by_hand, 70);
  set_age(entry_file(&c, keys[0]), 80);
  set_age(entry_file(&c, keys[3]), 60);
  st = kiln_code_cache_store(&c, keys[1], p, N);
  EXPECT(!st && count_files(c.dir, ".obj") == 5 && usage_total(&c) == 3 * E,
         "under the bound by the count: nothing read, nothing removed (%d files, count %lld)",
         count_files(c.dir, ".obj"), usage_total(&c));
  kiln_status_free(st);
  st = kiln_code_cache_store(&c, keys[2], p, N);
  EXPECT(!st && misses(&c, keys[0]) && misses(&c, keys[6]) && misses(&c, keys[3]) && loads(&c, keys[1], p, N) &&
             loads(&c, keys[2], p, N) && usage_total(&c) == 2 * E,
         "over it: the folder read, the three oldest of five gone (count %lld)", usage_total(&c));
  kiln_status_free(st);
  char usage[1024];
  snprintf(usage, sizeof usage, "%s/usage", c.dir);
  write_file(usage, (const uint8_t *)"garbage", 7);
  st = kiln_code_cache_store(&c, keys[0], p, N);
  EXPECT(!st && usage_total(&c) == 3 * E && loads(&c, keys[1], p, N) && loads(&c, keys[0], p, N),
         "a count not understood is recounted: %lld", usage_total(&c));
  kiln_status_free(st);
  set_age(entry_file(&c, keys[0]), 50);
  set_age(entry_file(&c, keys[1]), 40);
  set_age(entry_file(&c, keys[2]), 60);
  kiln_code_cache small = {c.dir, E};
  st = kiln_code_cache_evict(&small);
  EXPECT(!st && count_files(c.dir, ".obj") == 2 && loads(&c, keys[1], p, N) && usage_total(&c) == E,
         "a smaller bound keeps the newest: %d files", count_files(c.dir, ".obj"));
  kiln_status_free(st);
  free(copy);
  free(big);
  free(p);
  kiln_code_cache_free(&c);
}

static void test_off_and_unwritable(void) {
  uint8_t key[KILN_CODE_CACHE_KEY_SIZE];
  make_key(key, 20);
  uint8_t *p = make_payload(100, 20);
  kiln_code_cache off = {NULL, 1 << 20};
  kiln_status st = kiln_code_cache_store(&off, key, p, 100);
  EXPECT(!st && misses(&off, key), "an off cache stores nothing and misses");
  kiln_status_free(st);
  char file[1024];
  snprintf(file, sizeof file, "%s/a-file", g_root);
  write_file(file, p, 1);
  kiln_code_cache blocked = cache_in("a-file/cpu", 1 << 20); /* a folder under a regular file: even root fails */
  st = kiln_code_cache_store(&blocked, key, p, 100);
  EXPECT(st && strstr(kiln_status_message(st), "cannot create"), "an unwritable folder is an error: %s",
         st ? kiln_status_message(st) : "none");
  kiln_status_free(st);
  EXPECT(misses(&blocked, key), "and a miss");
  kiln_code_cache_free(&blocked);
  free(p);
  size_t n = 0;
  const uint8_t *id = kiln_code_cache_build_id(&n);
  EXPECT(id && n >= 8 && n <= 64, "this binary's GNU build ID: %zu bytes", n);
}

static void remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (!d) {
    unlink(path);
    return;
  }
  for (struct dirent *e; (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    remove_tree(sub);
  }
  closedir(d);
  rmdir(path);
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(g_root, sizeof g_root, "%s/kiln-code-cache-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(g_root)) {
    printf("cannot make a folder under %s\n0 passed, 1 failed\n", tmp && *tmp ? tmp : "/tmp");
    return 1;
  }
  test_settings();
  test_store_load();
  test_damage();
  test_concurrent();
  test_eviction();
  test_off_and_unwritable();
  remove_tree(g_root);
  return test_summary();
}
