/* The persistent compile cache: machine code kept on disk between processes, so that a
 * process compiling a program another one compiled before loads the object code instead
 * of running LLVM (jit.c keys and uses it).
 *
 * An entry is one file, DIR/<64 hex digits of its key>.obj:
 *
 *   "KILNOBJ\n"            8 bytes, the magic
 *   format version         4 bytes, little-endian (KILN_CODE_CACHE_FORMAT)
 *   0                      4 bytes, reserved
 *   key                    32 bytes (the SHA-256 the caller made; also the file's name)
 *   payload length         8 bytes, little-endian
 *   payload SHA-256        32 bytes
 *   payload
 *
 * A load checks all of it (and that the file is exactly that long); an entry that fails
 * any check is a miss, and the store that follows the compile replaces it. A store
 * writes a temporary file in DIR (mkstemp) and renames it over the entry, so readers see
 * either the old file or the new one, whole, and concurrent writers of one key leave one
 * valid entry. DIR/usage keeps the entries' total ("KILNUSE\n", then 8 bytes,
 * little-endian), changed under an exclusive flock of the file: a store adds its entry's
 * bytes (less those of an entry it replaced), and only when the total passes max_bytes
 * (or the file holds none) is DIR read: then the least recently used entries (oldest
 * modification time: a hit touches its entry) are removed until the rest fit in 90% of
 * max_bytes, and the true total is written back. So a store costs a few system calls,
 * not a read of every entry (55 ms a store with 20,000 entries, before), and a full cache
 * is read once per tenth of its bound stored; entries the count misses (another writer
 * without the lock) make the bound approximate until the next read. Nothing but files
 * named like entries (and temporaries of dead writers, an hour old) is ever removed from
 * DIR.
 *
 * Settings (environment, read once per process by kiln_code_cache_default):
 *   KILN_CACHE_DIR=PATH       the cache's root (DIR is PATH/<backend>); set but empty: off
 *   otherwise $XDG_CACHE_HOME/kiln, or $HOME/.cache/kiln
 *   KILN_CACHE_MAX_BYTES=N    the bound (a number, optionally with K, M or G: 1024s);
 *                             default 1G; 0 turns the cache off
 *
 * Errors of the cache never fail a compile: the caller compiles and warns once
 * (kiln_code_cache_warn). All functions are thread-safe. */
#ifndef KILN_BACKENDS_CPU_CODE_CACHE_H
#define KILN_BACKENDS_CPU_CODE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/status.h"

#define KILN_CODE_CACHE_FORMAT 1u
#define KILN_CODE_CACHE_KEY_SIZE 32
#define KILN_CODE_CACHE_DEFAULT_MAX_BYTES (1ull << 30)

typedef struct kiln_code_cache {
  char *dir;          /* the folder of the entries (created on the first store); NULL: off */
  uint64_t max_bytes; /* the bound on the entries' total size */
} kiln_code_cache;

/* The settings above, for the backend named `backend` (DIR = root/backend). *out owns
 * dir (kiln_code_cache_free); dir is NULL when the cache is off. An error (a malformed
 * KILN_CACHE_MAX_BYTES, no HOME to find the default root in, out of memory) leaves the
 * cache off. */
kiln_status kiln_code_cache_from_env(const char *backend, kiln_code_cache *out);
void kiln_code_cache_free(kiln_code_cache *cache);

/* The process's cache for the cpu backend: kiln_code_cache_from_env("cpu") on the first
 * call (its error, if any, is warned about once), the same object afterwards. Never NULL;
 * its dir is NULL when off. */
const kiln_code_cache *kiln_code_cache_default(void);

/* Looks key up. On a hit returns true and sets *out_data (malloc'ed, the caller frees it)
 * and *out_size to the payload, and marks the entry used. A missing, unreadable,
 * truncated, corrupted or foreign entry is a miss (false, *out_data NULL). */
bool kiln_code_cache_load(const kiln_code_cache *cache, const uint8_t key[KILN_CODE_CACHE_KEY_SIZE], void **out_data,
                          size_t *out_size);

/* Stores size bytes as key's entry (replacing any), then counts it, evicting when the
 * count passes the bound (above). An
 * entry larger than the bound is not stored (NULL). Errors (the folder cannot be made, a
 * full disk) are returned; a cache that is off stores nothing and returns NULL. */
kiln_status kiln_code_cache_store(const kiln_code_cache *cache, const uint8_t key[KILN_CODE_CACHE_KEY_SIZE],
                                  const void *data, size_t size);

/* Reads the cache's folder and removes its least recently used entries until their sizes
 * add up to at most max_bytes; the usage file then holds that total. Errors reading the
 * folder are returned. */
kiln_status kiln_code_cache_evict(const kiln_code_cache *cache);

/* The GNU build ID of the binary holding this code (the plugin), for keys: a rebuilt
 * plugin, whose code generator may differ, never reads an older one's entries. Sets
 * *out_size to 0 when the binary has none. Static storage. */
const uint8_t *kiln_code_cache_build_id(size_t *out_size);

/* Prints "kiln: warning: compile cache: MESSAGE; compiling without it" on stderr, once
 * per load of the plugin (the first status only), and frees st (NULL: nothing). */
void kiln_code_cache_warn(kiln_status st);

#endif
