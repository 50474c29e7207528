/* SHA-256 (FIPS 180-4), for keys that must not collide (the compile cache). Incremental:
 * init, update any number of times, final. A context is owned by its caller and used by
 * one thread at a time; the functions keep no other state. */
#ifndef KILN_RUNTIME_SHA256_H
#define KILN_RUNTIME_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define KILN_SHA256_SIZE 32

typedef struct kiln_sha256 {
  uint32_t state[8];
  uint64_t length; /* bytes hashed so far */
  uint8_t block[64];
  size_t used;     /* bytes waiting in block */
} kiln_sha256;

void kiln_sha256_init(kiln_sha256 *ctx);
void kiln_sha256_update(kiln_sha256 *ctx, const void *data, size_t size);
/* Writes the digest; the context must be initialized again before further use. */
void kiln_sha256_final(kiln_sha256 *ctx, uint8_t out_digest[KILN_SHA256_SIZE]);

#endif
