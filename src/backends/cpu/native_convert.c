/* convert between float types one of which the loop generator has no form for (f4, f6 and
 * f8 formats, tf32) as a native elementwise step (native.h): each element's value as the
 * interpreter converts it (read as a double, stored with the result type's rounding:
 * kiln_elem_float_to_bits), split over the pool. From a type of at most 16 storage bits
 * every result is looked up in a table of the results of all its bit patterns, made when
 * the op is prepared; from f32 to a format of at most 8 bits, in two tables over the
 * f32's high 16 bits (split_table); from other wide types each element is rounded on its
 * own. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/native.h"
#include "backends/cpu/pool.h"

/* Sources of at most this many storage bits convert through a table of all their values. */
enum { TABLE_MAX_BITS = 16 };

typedef struct convert_kernel {
  kiln_cpu_native base;
  kiln_elem from, to;
  size_t in_bytes, out_bytes;
  int64_t count;
  uint64_t *table; /* the result's bits for each source bit pattern, or NULL (in the same block) */
  const uint8_t *split; /* f32 sources: split_table(to), or NULL */
} convert_kernel;

/* An f32 rounded to a format of at most 8 storage bits and 6 mantissa bits depends on its
 * high 16 bits and on whether its low 16 are zero: every value the format holds, every
 * halfway point between two of them and every bound of its range has at most 8 significant
 * bits, so lies on an f32 whose low 16 bits are zero, and no rounding changes strictly
 * between two such f32s. Entry h of the table is the result for the f32 h << 16, entry
 * 65536 + h for (h << 16) | 1; NaNs (whose payload the format may keep) are rounded on
 * their own. Made once per format and process (2 x 65,536 roundings), kept until the
 * plugin is unloaded (kiln_cpu_convert_release). */
enum { SPLIT_ENTRIES = 1 << 16 };
static _Atomic(uint8_t *) g_split[KILN_ELEM_COUNT];

static const uint8_t *split_table(kiln_elem to) {
  int eb, mb;
  kiln_elem_float_format(to, &eb, &mb);
  if ((unsigned)to >= KILN_ELEM_COUNT || kiln_elem_storage_bytes(to) != 1 || mb > 6) return NULL;
  uint8_t *t = atomic_load_explicit(&g_split[to], memory_order_acquire);
  if (t) return t;
  if (!(t = malloc(2 * SPLIT_ENTRIES))) return NULL; /* the slow way */
  for (uint32_t h = 0; h < SPLIT_ENTRIES; h++)
    for (uint32_t low = 0; low < 2; low++) {
      uint32_t bits = h << 16 | low;
      float f;
      memcpy(&f, &bits, sizeof f);
      t[low * SPLIT_ENTRIES + h] = (uint8_t)kiln_elem_float_to_bits(to, (double)f);
    }
  uint8_t *none = NULL;
  if (atomic_compare_exchange_strong_explicit(&g_split[to], &none, t, memory_order_acq_rel, memory_order_acquire)) return t;
  free(t); /* another thread made it first */
  return none;
}

void kiln_cpu_convert_release(void) {
  for (int e = 0; e < KILN_ELEM_COUNT; e++) free(atomic_exchange(&g_split[e], NULL));
}

/* An f32's bits rounded through split (not for NaNs). */
static inline uint8_t split_round(const uint8_t *split, uint32_t bits) {
  return split[((bits & 0xffffu) != 0) * SPLIT_ENTRIES + (bits >> 16)];
}

typedef struct convert_job {
  const convert_kernel *k;
  const uint8_t *in;
  uint8_t *out;
  int32_t chunks;
} convert_job;

/* Elements [a, b) from storage of TI to storage of TO (fixed sizes: plain loads and stores). */
#define CONVERT_LOOP(TI, TO)                                                                              \
  for (int64_t i = a; i < b; i++) {                                                                       \
    TI in;                                                                                                \
    memcpy(&in, j->in + (size_t)i * sizeof in, sizeof in);                                                \
    TO out = (TO)(k->table ? k->table[in] : kiln_elem_float_to_bits(k->to, kiln_elem_float_from_bits(k->from, in))); \
    memcpy(j->out + (size_t)i * sizeof out, &out, sizeof out);                                            \
  }
#define CONVERT_TO(TI)                             \
  switch (k->out_bytes) {                          \
    case 1: CONVERT_LOOP(TI, uint8_t) break;       \
    case 2: CONVERT_LOOP(TI, uint16_t) break;      \
    case 4: CONVERT_LOOP(TI, uint32_t) break;      \
    default: CONVERT_LOOP(TI, uint64_t) break;     \
  }

static void convert_chunk(void *ctx, int32_t c, int32_t thread) {
  (void)thread;
  const convert_job *j = ctx;
  const convert_kernel *k = j->k;
  int64_t a = k->count * c / j->chunks, b = k->count * (c + 1) / j->chunks;
  if (k->split) {
    for (int64_t i = a; i < b; i++) {
      uint32_t in;
      memcpy(&in, j->in + (size_t)i * sizeof in, sizeof in);
      j->out[i] = (in & 0x7f800000u) == 0x7f800000u && (in & 0x7fffffu)
                      ? (uint8_t)kiln_elem_float_to_bits(k->to, kiln_elem_float_from_bits(k->from, in))
                      : split_round(k->split, in);
    }
    return;
  }
  switch (k->in_bytes) {
    case 1: CONVERT_TO(uint8_t) break;
    case 2: CONVERT_TO(uint16_t) break;
    case 4: CONVERT_TO(uint32_t) break;
    default: CONVERT_TO(uint64_t) break;
  }
}

/* A float type the loop generator has no form for: f4, f6 and f8 formats, tf32. */
static bool narrow(kiln_elem e) {
  return e != KILN_ELEM_F16 && e != KILN_ELEM_BF16 && e != KILN_ELEM_F32 && e != KILN_ELEM_F64;
}

static kiln_status convert_run(const kiln_cpu_native *n, const void *const *in, void *const *out) {
  const convert_kernel *k = (const convert_kernel *)n;
  if (!k->count) return NULL;
  kiln_cpu_pool *pool = kiln_cpu_pool_shared();
  int64_t work = k->count * (k->table || k->split ? 2 : 16); /* a rounding costs a few adds' worth more */
  convert_job j = {k, in[0], out[0], kiln_cpu_pool_chunks(pool, work, k->count)};
  kiln_cpu_pool_run(pool, j.chunks, work, convert_chunk, &j);
  return NULL;
}

kiln_status kiln_cpu_convert_prepare(const kiln_op *op, kiln_cpu_native **out) {
  *out = NULL;
  if (op->num_operands != 1 || op->num_results != 1) return NULL;
  const kiln_type *t = op->operands[0]->type, *r = op->results[0].type;
  if (!kiln_cpu_native_static_dense(t) || !kiln_cpu_native_static_dense(r) ||
      t->tensor.num_elements != r->tensor.num_elements)
    return NULL;
  kiln_elem from = kiln_type_elem(t), to = kiln_type_elem(r);
  if (kiln_elem_class_of(from) != KILN_ELEM_CLASS_F || kiln_elem_class_of(to) != KILN_ELEM_CLASS_F ||
      (!narrow(from) && !narrow(to)))
    return NULL;
  size_t in_bytes = kiln_elem_storage_bytes(from), out_bytes = kiln_elem_storage_bytes(to);
  if ((in_bytes != 1 && in_bytes != 2 && in_bytes != 4 && in_bytes != 8) ||
      (out_bytes != 1 && out_bytes != 2 && out_bytes != 4 && out_bytes != 8))
    return NULL;
  size_t entries = in_bytes * 8 <= TABLE_MAX_BITS ? (size_t)1 << (in_bytes * 8) : 0;
  convert_kernel *k = calloc(1, sizeof *k + entries * sizeof *k->table);
  if (!k) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  *k = (convert_kernel){.base.run = convert_run, .from = from, .to = to, .in_bytes = in_bytes,
                        .out_bytes = out_bytes, .count = t->tensor.num_elements};
  if (entries) {
    k->table = (uint64_t *)(k + 1);
    for (size_t b = 0; b < entries; b++)
      k->table[b] = kiln_elem_float_to_bits(to, kiln_elem_float_from_bits(from, (uint64_t)b));
  }
  if (from == KILN_ELEM_F32) k->split = split_table(to);
  *out = &k->base;
  return NULL;
}
