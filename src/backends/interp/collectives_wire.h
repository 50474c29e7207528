/* Values on the wire between processes (kiln_backend_wire): a collective's rows of
 * tensors packed into one blob and read back, checked against the round the receiver is
 * in. Internal to collectives.c. */
#ifndef KILN_INTERP_COLLECTIVES_WIRE_H
#define KILN_INTERP_COLLECTIVES_WIRE_H

#include "backends/interp/value.h"
#include "kiln/status.h"

/* A round's identity on every process: a hash of what the round is (the op kind, the
 * channel, the processes taking part) and how many such rounds came before it. */
uint64_t kiln_wire_key(int32_t kind, int64_t channel, const int32_t *ids, int32_t n, uint64_t ordinal);

/* The tag a round's blobs travel under. */
int32_t kiln_wire_tag(uint64_t key);

/* Packs rows[k][0 .. nvals-1] (tensors), each row labelled ids[k], into *out (malloc'ed,
 * *out_bytes long). */
kiln_status kiln_wire_pack(uint64_t key, const int32_t *ids, kiln_rtv **const *rows, int32_t nrows, int32_t nvals,
                           uint8_t **out, size_t *out_bytes);

/* Reads a blob from process `from` (a process index, for errors): it must carry key and
 * rows of nvals tensors; the row labelled id goes to rows[k] where ids[k] == id (each row
 * once; every label must be one of ids[0 .. nids-1]). Each tensor takes the element type
 * of like[j] (the receiver's own value in the same place) and must have its storage type.
 * *filled counts the rows read. Errors name what differs. */
kiln_status kiln_wire_unpack(const uint8_t *blob, size_t bytes, int32_t from, uint64_t key, int32_t nvals,
                             kiln_rtv *const *like, const int32_t *ids, int32_t nids, kiln_rtv ***rows, int32_t *filled);

#endif
