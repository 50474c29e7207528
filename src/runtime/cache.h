/* The compile cache: compiling the same function of the same program text for the same
 * device again, anywhere in the process, gives the executable already made (a new
 * reference) instead of compiling twice.
 *
 * The key is a SHA-256 digest of the program text, its display name and first line (they
 * appear in the executable's diagnostics), and the function's name, together with the
 * device (by identity: an executable retains its client, so a live entry's device cannot
 * be reused for another). Entries are weak: the cache holds no reference, and an
 * executable leaves it when its last reference is released.
 *
 * Thread-safe: one process-wide table behind one mutex, held only for lookups, inserts
 * and removals, never while compiling. Two threads that miss at once both compile; the
 * second to insert gets the first one's executable and drops its own. */
#ifndef KILN_RUNTIME_CACHE_H
#define KILN_RUNTIME_CACHE_H

#include <stdbool.h>

#include "runtime/runtime.h"

/* The key of a compile of function (a name) of program p for device d, into x->key. */
void kiln_cache_key(kiln_executable *x, const kiln_program *p, const char *function, const kiln_device *d);

/* A new reference to a live executable with the same key and device as probe (whose key
 * fields alone are read), or NULL. */
kiln_executable *kiln_cache_find(const kiln_executable *probe);

/* Adds x (one reference, key set, not yet shared) and returns it; when a live executable
 * with the same key is there already, returns a new reference to that one instead and
 * leaves x out (the caller releases x). */
kiln_executable *kiln_cache_insert(kiln_executable *x);

/* Drops one reference of x. Returns true when it was the last: x has then left the cache
 * and the caller destroys it. */
bool kiln_cache_drop(kiln_executable *x);

#endif
