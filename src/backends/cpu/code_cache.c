/* The persistent compile cache's files: settings, entries, eviction (see code_cache.h). */
#define _GNU_SOURCE /* dl_iterate_phdr, mkostemp, GNU strerror_r */
#include "backends/cpu/code_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/sha256.h"

enum {
  HEADER_BYTES = 8 + 4 + 4 + KILN_CODE_CACHE_KEY_SIZE + 8 + KILN_SHA256_SIZE,
  HEX_NAME = 2 * KILN_CODE_CACHE_KEY_SIZE, /* an entry's name: the key in hex, then ".obj" */
  STALE_TEMP_SECONDS = 3600,               /* a temporary this old belongs to a dead writer */
  EVICT_TO_PERCENT = 90,                   /* a store over the bound evicts down to this share of it */
  USAGE_BYTES = 16,
};
static const char k_magic[8] = {'K', 'I', 'L', 'N', 'O', 'B', 'J', '\n'};
static const char k_suffix[] = ".obj", k_temp_suffix[] = ".obj.tmp.", k_usage[] = "usage";
/* the usage file: this magic, then the entries' total in bytes (8 bytes, little-endian) */
static const char k_usage_magic[8] = {'K', 'I', 'L', 'N', 'U', 'S', 'E', '\n'};

static const char *error_text(int e, char *buf, size_t size) { return strerror_r(e, buf, size); }

static kiln_status errno_status(const char *what, const char *path) {
  char buf[128];
  int e = errno;
  return KILN_STATUS(e == ENOSPC || e == EDQUOT ? KILN_STATUS_RESOURCE_EXHAUSTED : KILN_STATUS_UNAVAILABLE, "%s %s: %s",
                     what, path, error_text(e, buf, sizeof buf));
}

/* ---------------------------------------------------------------- settings */

/* "123", "64K", "512M", "1G" (powers of 1024) into *out; false when malformed or too big. */
static bool parse_size(const char *text, uint64_t *out) {
  uint64_t v = 0;
  const char *p = text;
  if (*p < '0' || *p > '9') return false;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  int shift = 0;
  switch (*p) {
    case 'K': case 'k': shift = 10; p++; break;
    case 'M': case 'm': shift = 20; p++; break;
    case 'G': case 'g': shift = 30; p++; break;
    default: break;
  }
  if (*p || (shift && v > UINT64_MAX >> shift)) return false;
  *out = v << shift;
  return true;
}

static char *join(const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s%s%s", a, b, c);
  return s;
}

kiln_status kiln_code_cache_from_env(const char *backend, kiln_code_cache *out) {
  *out = (kiln_code_cache){NULL, KILN_CODE_CACHE_DEFAULT_MAX_BYTES};
  const char *max = getenv("KILN_CACHE_MAX_BYTES");
  if (max && !parse_size(max, &out->max_bytes))
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       "KILN_CACHE_MAX_BYTES=%.40s: expected a number of bytes, optionally with K, M or G", max);
  if (out->max_bytes == 0) return NULL;
  const char *dir = getenv("KILN_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char *root = NULL;
  if (dir) {
    if (!*dir) return NULL; /* set but empty: off */
    root = join(dir, "", "");
  } else if (xdg && xdg[0] == '/') { /* the XDG spec: a relative value is ignored */
    root = join(xdg, "/kiln", "");
  } else if (home && *home) {
    root = join(home, "/.cache/kiln", "");
  } else {
    return KILN_STATUS(KILN_STATUS_FAILED_PRECONDITION, "none of KILN_CACHE_DIR, XDG_CACHE_HOME and HOME is set");
  }
  out->dir = root ? join(root, "/", backend) : NULL;
  free(root);
  return out->dir ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
}

void kiln_code_cache_free(kiln_code_cache *cache) {
  free(cache->dir);
  cache->dir = NULL;
}

static atomic_bool g_warned;

void kiln_code_cache_warn(kiln_status st) {
  if (!st) return;
  if (!atomic_exchange(&g_warned, true)) {
    fprintf(stderr, "kiln: warning: compile cache: %s; compiling without it\n", kiln_status_message(st));
  }
  kiln_status_free(st);
}

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static kiln_code_cache g_default;

static void default_init(void) { kiln_code_cache_warn(kiln_code_cache_from_env("cpu", &g_default)); }

const kiln_code_cache *kiln_code_cache_default(void) {
  pthread_once(&g_once, default_init);
  return &g_default;
}

/* The default's folder name goes when the plugin is unloaded (its statics go with it). */
__attribute__((destructor)) static void default_release(void) { kiln_code_cache_free(&g_default); }

/* ---------------------------------------------------------------- entries */

/* DIR/<hex key><suffix>, malloc'ed (NULL when out of memory). */
static char *entry_path(const kiln_code_cache *cache, const uint8_t key[KILN_CODE_CACHE_KEY_SIZE], const char *suffix) {
  char hex[HEX_NAME + 1];
  for (int i = 0; i < KILN_CODE_CACHE_KEY_SIZE; i++) snprintf(hex + 2 * i, 3, "%02x", key[i]);
  char *name = join(hex, suffix, "");
  char *path = name ? join(cache->dir, "/", name) : NULL;
  free(name);
  return path;
}

static void put_le(uint8_t *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static void digest(const void *data, size_t size, uint8_t out[KILN_SHA256_SIZE]) {
  kiln_sha256 h;
  kiln_sha256_init(&h);
  kiln_sha256_update(&h, data, size);
  kiln_sha256_final(&h, out);
}

static bool read_all(int fd, uint8_t *p, size_t n) {
  while (n) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= (size_t)r;
  }
  return true;
}

static bool write_all(int fd, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t r = write(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r == 0) errno = EIO;
      return false;
    }
    p += r;
    n -= (size_t)r;
  }
  return true;
}

/* Whether buf (size bytes, the whole file) is a valid entry for key. */
static bool valid_entry(const uint8_t *buf, uint64_t size, const uint8_t key[KILN_CODE_CACHE_KEY_SIZE]) {
  const uint8_t *p = buf;
  if (size < HEADER_BYTES || memcmp(p, k_magic, sizeof k_magic)) return false;
  p += sizeof k_magic;
  if (get_le(p, 4) != KILN_CODE_CACHE_FORMAT || get_le(p + 4, 4) != 0) return false;
  p += 8;
  if (memcmp(p, key, KILN_CODE_CACHE_KEY_SIZE)) return false;
  p += KILN_CODE_CACHE_KEY_SIZE;
  if (get_le(p, 8) != size - HEADER_BYTES) return false;
  p += 8;
  uint8_t sum[KILN_SHA256_SIZE];
  digest(buf + HEADER_BYTES, (size_t)(size - HEADER_BYTES), sum);
  return !memcmp(p, sum, sizeof sum);
}

bool kiln_code_cache_load(const kiln_code_cache *cache, const uint8_t key[KILN_CODE_CACHE_KEY_SIZE], void **out_data,
                          size_t *out_size) {
  *out_data = NULL;
  *out_size = 0;
  if (!cache->dir) return false;
  char *path = entry_path(cache, key, k_suffix);
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  free(path);
  if (fd < 0) return false;
  struct stat sb;
  uint8_t *buf = NULL;
  bool ok = !fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_size >= HEADER_BYTES &&
            (uint64_t)sb.st_size <= cache->max_bytes && (uint64_t)sb.st_size <= SIZE_MAX;
  if (ok) ok = (buf = malloc((size_t)sb.st_size)) != NULL;
  if (ok) ok = read_all(fd, buf, (size_t)sb.st_size) && valid_entry(buf, (uint64_t)sb.st_size, key);
  if (ok) {
    *out_size = (size_t)sb.st_size - HEADER_BYTES;
    memmove(buf, buf + HEADER_BYTES, *out_size);
    *out_data = buf;
    (void)futimens(fd, NULL); /* used now (least recently used goes first); a read-only cache stays usable */
  } else {
    free(buf);
  }
  close(fd);
  return ok;
}

/* mkdir -p, the folders made private (0700, as XDG asks of the cache's root). */
static kiln_status make_dirs(const char *dir) {
  char *p = join(dir, "", "");
  if (!p) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_status st = NULL;
  for (char *s = p + 1; !st; s++) {
    if (*s != '/' && *s) continue;
    char c = *s;
    *s = 0;
    if (mkdir(p, 0700) && errno != EEXIST) st = errno_status("cannot create", p);
    *s = c;
    if (!c) break;
  }
  free(p);
  return st;
}

/* ---------------------------------------------------------------- eviction */

typedef struct entry_file {
  char name[HEX_NAME + sizeof k_suffix];
  uint64_t bytes;
  struct timespec used;
} entry_file;

static bool hex_name(const char *name) {
  for (int i = 0; i < HEX_NAME; i++)
    if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f'))) return false;
  return true;
}

static int older_first(const void *a, const void *b) {
  const entry_file *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec) return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
  if (x->used.tv_nsec != y->used.tv_nsec) return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* Reads the folder (open as dfd): removes dead writers' temporaries and, when the entries
 * add up to more than `over`, the least recently used until they fit in `down_to`; their
 * total after it in *out_total. */
static kiln_status evict_in(const kiln_code_cache *cache, int dfd, uint64_t over, uint64_t down_to,
                            uint64_t *out_total) {
  int fd = dup(dfd);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0) close(fd);
    return errno_status("cannot read", cache->dir);
  }
  entry_file *files = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  kiln_status st = NULL;
  time_t now = time(NULL);
  for (struct dirent *e; !st && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    bool entry = len == HEX_NAME + strlen(k_suffix) && hex_name(e->d_name) && !strcmp(e->d_name + HEX_NAME, k_suffix);
    bool temp = len > HEX_NAME + strlen(k_temp_suffix) && hex_name(e->d_name) &&
                !strncmp(e->d_name + HEX_NAME, k_temp_suffix, strlen(k_temp_suffix));
    struct stat sb;
    if ((!entry && !temp) || fstatat(dfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) || !S_ISREG(sb.st_mode)) continue;
    if (temp) {
      if (now - sb.st_mtime > STALE_TEMP_SECONDS) (void)unlinkat(dfd, e->d_name, 0);
      continue;
    }
    if (n == cap) {
      size_t c = cap ? 2 * cap : 64;
      entry_file *f = c < SIZE_MAX / sizeof *f ? realloc(files, c * sizeof *f) : NULL;
      if (!f) {
        st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        break;
      }
      files = f;
      cap = c;
    }
    memcpy(files[n].name, e->d_name, len + 1);
    files[n].bytes = (uint64_t)sb.st_size;
    files[n].used = sb.st_mtim;
    total += files[n++].bytes;
  }
  if (!st && total > over) {
    qsort(files, n, sizeof *files, older_first);
    for (size_t i = 0; i < n && total > down_to; i++) {
      if (unlinkat(dfd, files[i].name, 0) && errno != ENOENT) { /* another process may have removed it */
        st = errno_status("cannot remove an entry of", cache->dir);
        break;
      }
      total -= files[i].bytes;
    }
  }
  free(files);
  closedir(d);
  *out_total = total;
  return st;
}

/* The folder's usage file, locked: its descriptor, or -1 (no lock to be had). */
static int lock_usage(int dfd) {
  int fd = openat(dfd, k_usage, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  while (flock(fd, LOCK_EX))
    if (errno != EINTR) {
      close(fd);
      return -1;
    }
  return fd;
}

/* The total the usage file holds; false when it holds none (new, short, another format). */
static bool read_usage(int fd, uint64_t *total) {
  uint8_t b[USAGE_BYTES];
  if (pread(fd, b, sizeof b, 0) != (ssize_t)sizeof b || memcmp(b, k_usage_magic, sizeof k_usage_magic)) return false;
  *total = get_le(b + sizeof k_usage_magic, 8);
  return true;
}

static void write_usage(int fd, uint64_t total) {
  uint8_t b[USAGE_BYTES];
  memcpy(b, k_usage_magic, sizeof k_usage_magic);
  put_le(b + sizeof k_usage_magic, total, 8);
  (void)!pwrite(fd, b, sizeof b, 0); /* a count not written is recounted by the next store */
}

/* The folder's total, kept in its usage file under the file's lock, moved by `added` and
 * `replaced` bytes (a store); the folder is read only when `read` is asked, the total is
 * not known or it passes the bound, and then the oldest entries go until the rest fit in
 * down_to. Without the lock (a file system without flock), the folder is read every time. */
static kiln_status count_entries(const kiln_code_cache *cache, uint64_t added, uint64_t replaced, bool read,
                                 uint64_t down_to) {
  int dfd = open(cache->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return errno_status("cannot read", cache->dir);
  int fd = lock_usage(dfd);
  uint64_t total = 0;
  bool known = fd >= 0 && read_usage(fd, &total);
  total = total + added > replaced ? total + added - replaced : 0;
  kiln_status st = NULL;
  if (read || !known || total > cache->max_bytes) st = evict_in(cache, dfd, cache->max_bytes, down_to, &total);
  if (fd >= 0) {
    if (!st) write_usage(fd, total);
    close(fd); /* and the lock with it */
  }
  close(dfd);
  return st;
}

kiln_status kiln_code_cache_store(const kiln_code_cache *cache, const uint8_t key[KILN_CODE_CACHE_KEY_SIZE],
                                  const void *data, size_t size) {
  if (!cache->dir || cache->max_bytes < HEADER_BYTES || size > cache->max_bytes - HEADER_BYTES) return NULL;
  KILN_RETURN_IF_ERROR(make_dirs(cache->dir));
  char *path = entry_path(cache, key, k_suffix), *temp = entry_path(cache, key, ".obj.tmp.XXXXXX");
  kiln_status st = path && temp ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int fd = st ? -1 : mkostemp(temp, O_CLOEXEC);
  if (!st && fd < 0) st = errno_status("cannot create", temp);
  if (!st) {
    uint8_t h[HEADER_BYTES], *p = h;
    memcpy(p, k_magic, sizeof k_magic);
    p += sizeof k_magic;
    put_le(p, KILN_CODE_CACHE_FORMAT, 4);
    put_le(p + 4, 0, 4);
    p += 8;
    memcpy(p, key, KILN_CODE_CACHE_KEY_SIZE);
    p += KILN_CODE_CACHE_KEY_SIZE;
    put_le(p, size, 8);
    digest(data, size, p + 8);
    if (!write_all(fd, h, sizeof h) || !write_all(fd, data, size)) st = errno_status("cannot write", temp);
  }
  if (fd >= 0 && close(fd) && !st) st = errno_status("cannot write", temp);
  struct stat old; /* an entry replaced: its bytes leave the total */
  uint64_t replaced = !st && !stat(path, &old) && S_ISREG(old.st_mode) ? (uint64_t)old.st_size : 0;
  if (!st && rename(temp, path)) st = errno_status("cannot rename to", path);
  if (st && fd >= 0) unlink(temp);
  free(path);
  free(temp);
  /* evicting to EVICT_TO_PERCENT of the bound: a full cache is not read at every store */
  return st ? st : count_entries(cache, HEADER_BYTES + (uint64_t)size, replaced, false,
                                 cache->max_bytes / 100 * EVICT_TO_PERCENT);
}

kiln_status kiln_code_cache_evict(const kiln_code_cache *cache) {
  return cache->dir ? count_entries(cache, 0, 0, true, cache->max_bytes) : NULL;
}

/* ---------------------------------------------------------------- the binary's identity */

typedef struct build_id_search {
  uintptr_t address; /* of code in the binary looked for */
  uint8_t id[64];
  size_t size;
} build_id_search;

enum { NOTE_GNU_BUILD_ID = 3 };

static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

static int find_build_id(struct dl_phdr_info *info, size_t info_size, void *ctx) {
  build_id_search *s = ctx;
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    mine = ph->p_type == PT_LOAD && s->address >= lo && s->address - lo < ph->p_memsz;
  }
  if (!mine) return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE) continue;
    const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
    while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
      const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
      size_t name = align4(nh->n_namesz), desc = align4(nh->n_descsz);
      const uint8_t *body = p + sizeof *nh;
      if ((size_t)(end - body) < name || (size_t)(end - body) - name < desc) break;
      if (nh->n_type == NOTE_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(body, "GNU", 4) &&
          nh->n_descsz <= sizeof s->id) {
        memcpy(s->id, body + name, nh->n_descsz);
        s->size = nh->n_descsz;
        return 1;
      }
      p = body + name + desc;
    }
  }
  return 1;
}

static pthread_once_t g_id_once = PTHREAD_ONCE_INIT;
static build_id_search g_id;

static void build_id_init(void) {
  g_id.address = (uintptr_t)&kiln_code_cache_build_id;
  dl_iterate_phdr(find_build_id, &g_id);
}

const uint8_t *kiln_code_cache_build_id(size_t *out_size) {
  pthread_once(&g_id_once, build_id_init);
  *out_size = g_id.size;
  return g_id.id;
}
