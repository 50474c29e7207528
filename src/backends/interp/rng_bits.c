/* rng_bit_generator's bit generators (see rng_bits.h). */
#include "backends/interp/rng_bits.h"

#include <string.h>

#include "ir/scalar.h"

static uint32_t rotl32(uint32_t v, int d) { return (v << d) | (v >> (32 - d)); }

/* Threefry-2x32 with 20 rounds, as XLA computes it. */
static void threefry2x32(uint32_t k0, uint32_t k1, uint32_t x0, uint32_t x1, uint32_t out[2]) {
  static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  uint32_t x[2] = {x0 + ks[0], x1 + ks[1]};
  for (int blk = 0; blk < 5; blk++) {
    for (int rr = 0; rr < 4; rr++) {
      x[0] += x[1];
      x[1] = rotl32(x[1], rot[(blk & 1) * 4 + rr]);
      x[1] ^= x[0];
    }
    x[0] += ks[(blk + 1) % 3];
    x[1] += ks[(blk + 2) % 3] + (uint32_t)(blk + 1);
  }
  out[0] = x[0];
  out[1] = x[1];
}

/* Philox-4x32 with 10 rounds. */
static void philox4x32(const uint32_t in[4], uint32_t k0, uint32_t k1, uint32_t out[4]) {
  uint32_t x[4] = {in[0], in[1], in[2], in[3]};
  for (int round = 0; round < 10; round++) {
    uint64_t p0 = (uint64_t)x[0] * 0xD2511F53u, p1 = (uint64_t)x[2] * 0xCD9E8D57u;
    uint32_t y[4] = {(uint32_t)(p1 >> 32) ^ x[1] ^ k0, (uint32_t)p1, (uint32_t)(p0 >> 32) ^ x[3] ^ k1, (uint32_t)p0};
    memcpy(x, y, sizeof x);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  memcpy(out, x, sizeof x);
}

bool kiln_rng_state_ok(bool philox, int64_t count) { return count == 2 || (philox && count == 3); }

bool kiln_rng_plan_init(kiln_rng_plan *p, bool philox, kiln_elem elem, int32_t rank, const int64_t *dims) {
  int bits = kiln_elem_bits(elem);
  bool width_ok = bits == 2 || bits == 4 || bits == 6 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
  if (elem == KILN_ELEM_I1 || kiln_elem_is_complex(elem) || !width_ok || rank < 0 || rank > KILN_RTV_MAX_RANK)
    return false;
  memset(p, 0, sizeof *p);
  p->philox = philox;
  p->elem = elem;
  p->bits = bits;
  p->elem_bytes = kiln_elem_storage_bytes(elem);
  p->rank = rank;
  p->split = -1;
  p->count = 1;
  for (int32_t d = 0; d < rank; d++) {
    p->dims[d] = dims[d];
    p->count *= dims[d];
  }
  kiln_strides(rank, p->dims, p->strides);
  if (philox) {
    int64_t per = bits == 64 ? 2 : 4; /* 64-bit values join word pairs */
    p->blocks = (p->count + per - 1) / per;
  } else if (bits == 64 || rank == 0) {
    p->blocks = p->count; /* one value per block (a 64-bit one joins both words) */
  } else {
    /* narrower values: a dim split in halves, each block giving two neighbours along it */
    for (int32_t d = 0; d < rank && p->split < 0; d++)
      if (dims[d] % 2 == 0) p->split = d;
    if (p->split < 0) {
      p->split = 0;
      for (int32_t d = 1; d < rank; d++)
        if (dims[d] > dims[p->split]) p->split = d;
    }
    p->blocks = 1;
    for (int32_t d = 0; d < rank; d++) {
      p->half[d] = d == p->split ? (dims[d] + 1) / 2 : dims[d];
      p->blocks *= p->half[d];
    }
  }
  return true;
}

/* Writes the low `bits` of v into element i. */
static void store_bits(const kiln_rng_plan *p, uint8_t *out, int64_t i, uint64_t v) {
  if (p->bits < 64) v &= (1ull << p->bits) - 1;
  uint8_t *at = out + (size_t)i * p->elem_bytes;
  if (kiln_elem_is_int(p->elem) && (size_t)p->bits != 8 * p->elem_bytes) {
    kiln_scalar s = {{0}, 0};
    s.u = v;
    kiln_scalar_store(p->elem, at, s);
  } else {
    memcpy(at, &v, p->elem_bytes); /* little-endian storage */
  }
}

static void threefry_fill(const kiln_rng_plan *p, uint64_t key, uint64_t ctr, uint8_t *out, int64_t first,
                          int64_t end) {
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32), w[2];
  if (p->split < 0) {
    for (int64_t i = first; i < end; i++) {
      uint64_t c = ctr + (uint64_t)i;
      threefry2x32(k0, k1, (uint32_t)c, (uint32_t)(c >> 32), w);
      store_bits(p, out, i, p->bits == 64 ? (uint64_t)w[0] | (uint64_t)w[1] << 32 : w[0]);
    }
    return;
  }
  if (first >= end) return;
  int64_t idx[KILN_RTV_MAX_RANK], rem = first; /* block `first`'s place in the grid */
  for (int32_t d = p->rank - 1; d >= 0; d--) {
    idx[d] = rem % p->half[d];
    rem /= p->half[d];
  }
  int32_t s = p->split;
  for (int64_t h = first; h < end; h++) {
    uint64_t c = ctr + (uint64_t)h;
    threefry2x32(k0, k1, (uint32_t)c, (uint32_t)(c >> 32), w);
    int64_t off = 0;
    for (int32_t d = 0; d < p->rank; d++) off += (d == s ? 2 * idx[d] : idx[d]) * p->strides[d];
    store_bits(p, out, off, w[0]);
    if (2 * idx[s] + 1 < p->dims[s]) store_bits(p, out, off + p->strides[s], w[1]);
    for (int32_t d = p->rank - 1; d >= 0 && ++idx[d] == p->half[d]; d--) idx[d] = 0;
  }
}

static void philox_fill(const kiln_rng_plan *p, uint64_t key, uint64_t lo, uint64_t hi, uint8_t *out, int64_t first,
                        int64_t end) {
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32), w[4];
  int64_t per = p->bits == 64 ? 2 : 4;
  for (int64_t b = first; b < end; b++) {
    uint64_t clo = lo + (uint64_t)b, chi = clo < lo ? hi + 1 : hi;
    uint32_t in[4] = {(uint32_t)clo, (uint32_t)(clo >> 32), (uint32_t)chi, (uint32_t)(chi >> 32)};
    philox4x32(in, k0, k1, w);
    for (int64_t t = 0; t < per && b * per + t < p->count; t++) {
      uint64_t v = p->bits == 64 ? (uint64_t)w[2 * t] | (uint64_t)w[2 * t + 1] << 32 : w[t];
      store_bits(p, out, b * per + t, v);
    }
  }
}

void kiln_rng_fill(const kiln_rng_plan *p, const uint64_t *state, int64_t state_count, void *out, int64_t first,
                   int64_t end) {
  if (p->philox) philox_fill(p, state[0], state[1], state_count == 3 ? state[2] : state[0], out, first, end);
  else threefry_fill(p, state[0], state[1], out, first, end);
}

void kiln_rng_advance(const kiln_rng_plan *p, uint64_t *state, int64_t state_count) {
  uint64_t lo = state[1], nlo = lo + (uint64_t)p->blocks;
  state[1] = nlo;
  if (p->philox && state_count == 3 && nlo < lo) state[2]++;
}
