/* rng_bit_generator's bit generators, XLA's bit for bit (xla/hlo/builder/lib/prng.cc and
 * rng_bit_generator_expander.cc): THREE_FRY is Threefry-2x32 with 20 rounds, PHILOX is
 * Philox-4x32 with 10 rounds (DEFAULT means PHILOX, as on XLA's CPU and GPU backends).
 * Shared by the interpreter's kernel and the cpu backend's native step, so both give the
 * same bits.
 *
 * A plan says how an output of one type and shape is cut into generator blocks (one call
 * of the generator each); any range of blocks can be filled on its own, each block writing
 * elements no other block writes, so threads may fill disjoint ranges of one output at
 * once. The state after the op follows from the plan alone (kiln_rng_advance).
 *
 * State words: state[0] is the key; THREE_FRY's counter is state[1]; PHILOX's 128-bit
 * counter is (state[1], state[2]) with three words, (state[1], state[0]) with two (the key
 * doubles as the high word). Pure functions of their arguments: thread-safe. */
#ifndef KILN_BACKENDS_INTERP_RNG_BITS_H
#define KILN_BACKENDS_INTERP_RNG_BITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/interp/value.h"

typedef struct kiln_rng_plan {
  bool philox;
  kiln_elem elem;
  int bits;           /* random bits per element */
  size_t elem_bytes;  /* storage */
  int32_t rank;
  int32_t split;      /* THREE_FRY below 64 bits: the dim whose neighbours share a block; -1 for rank 0 */
  int64_t count;      /* elements */
  int64_t blocks;     /* generator calls that fill the output */
  int64_t half[KILN_RTV_MAX_RANK];    /* THREE_FRY below 64 bits: the block grid */
  int64_t strides[KILN_RTV_MAX_RANK]; /* of the output, in elements */
  int64_t dims[KILN_RTV_MAX_RANK];
} kiln_rng_plan;

/* Whether a state of `count` words suits the algorithm (THREE_FRY: 2; PHILOX: 2 or 3). */
bool kiln_rng_state_ok(bool philox, int64_t count);
/* Fills *p for an output of elem and shape (rank, dims); false when elem cannot take
 * generated bits (i1, complex, widths other than 2, 4, 6, 8, 16, 32 and 64 bits) or the
 * rank exceeds KILN_RTV_MAX_RANK. */
bool kiln_rng_plan_init(kiln_rng_plan *p, bool philox, kiln_elem elem, int32_t rank, const int64_t *dims);
/* Writes blocks [first, end) of the output (dense row-major storage of the plan's type)
 * from the state words (state_count of them, checked by kiln_rng_state_ok). */
void kiln_rng_fill(const kiln_rng_plan *p, const uint64_t *state, int64_t state_count, void *out, int64_t first,
                   int64_t end);
/* The state after the op: its counter advanced past the plan's blocks. */
void kiln_rng_advance(const kiln_rng_plan *p, uint64_t *state, int64_t state_count);

#endif
