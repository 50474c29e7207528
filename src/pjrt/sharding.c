/* Shardings of sharded executables: the serialized xla.OpSharding of every parameter and
 * output, and PJRT's Shardings extension that hands them to the framework (JAX compares
 * them with the shardings it asked for, and takes them for the ones it left open).
 *
 * The extension's types are declared here from XLA's
 * xla/pjrt/c/pjrt_c_api_shardings_extension.h (version 1: a base and two functions, each
 * taking {struct_size, extension_start, executable, count out, shardings out, sizes out}).
 *
 * OpSharding (xla/xla_data.proto): type = 1 (REPLICATED 0, OTHER 3),
 * tile_assignment_dimensions = 3 (packed), tile_assignment_devices = 4 (packed),
 * replicate_on_last_tile_dim = 6, last_tile_dims = 8 (packed OpSharding.Type: REPLICATED 0,
 * UNREDUCED 6, in that order, as JAX writes them). Devices are logical: partition
 * indices. */
#include <stdlib.h>
#include <string.h>

#include "pjrt/pjrt.h"

typedef struct shardings_args {
  size_t struct_size;
  PJRT_Extension_Base *extension_start;
  PJRT_Executable *executable;
  size_t count;                     /* out */
  const char *const *shardings;     /* out */
  const size_t *sharding_sizes;     /* out */
} shardings_args;

typedef PJRT_Error *shardings_fn(shardings_args *args);

struct kiln_pjrt_shardings_extension {
  PJRT_Extension_Base base;
  shardings_fn *parameter_shardings;
  shardings_fn *output_shardings;
};

/* ------------------------------------------------------------------ encoding */

typedef struct bytes {
  uint8_t *data;
  size_t len, cap;
  bool failed;
} bytes;

static void put(bytes *b, uint64_t v) { /* a varint */
  if (b->len + 10 > b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 64;
    uint8_t *d = realloc(b->data, cap);
    if (!d) {
      b->failed = true;
      return;
    }
    b->data = d;
    b->cap = cap;
  }
  do {
    b->data[b->len++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
}

static size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v > 0x7f) v >>= 7, n++;
  return n;
}

/* A packed repeated int64 field. */
static void put_packed(bytes *b, uint32_t field, const int64_t *v, int64_t n) {
  size_t len = 0;
  for (int64_t i = 0; i < n; i++) len += varint_size((uint64_t)v[i]);
  put(b, (uint64_t)field << 3 | 2);
  put(b, len);
  for (int64_t i = 0; i < n; i++) put(b, (uint64_t)v[i]);
}

/* The OpSharding of input or output `index` of x over its partitions. */
static kiln_status encode(kiln_executable *x, bool result, int32_t index, bytes *out) {
  int32_t n = kiln_executable_num_partitions(x);
  kiln_sharding_info *info = calloc((size_t)n, sizeof *info);
  int64_t *dims = calloc(KILN_MAX_RANK + 2, sizeof *dims), *devices = calloc((size_t)n, sizeof *devices);
  kiln_status st = info && dims && devices ? NULL : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t p = 0; !st && p < n; p++) {
    info[p].struct_size = sizeof info[p];
    st = kiln_executable_sharding(x, result, index, p, &info[p]);
  }
  int64_t tiles = 1;
  int32_t rank = st ? 0 : info[0].rank;
  for (int32_t d = 0; d < rank; d++) tiles *= (dims[d] = info[0].parts[d]);
  int64_t partials = st ? 1 : info[0].partials, copies = n / (tiles * partials);
  if (!st && tiles == 1 && partials == 1) {
    put(out, 1 << 3); /* type REPLICATED, written out */
    put(out, 0);
  } else if (!st) {
    /* the devices at (tile, copy, partial): tiles row-major over the blocks, then the
     * copies of a block in partition order, then the partial sums of a copy */
    int64_t *filled = calloc((size_t)(tiles * partials), sizeof *filled);
    if (!filled) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    for (int32_t p = 0; !st && p < n; p++) {
      int64_t t = 0;
      for (int32_t d = 0; d < rank; d++) t = t * dims[d] + info[p].block[d];
      int64_t slot = t * partials + info[p].partial_index;
      if (filled[slot] == copies) st = KILN_STATUS(KILN_STATUS_INTERNAL, "uneven copies of a block in a sharding");
      else devices[(t * copies + filled[slot]++) * partials + info[p].partial_index] = p;
    }
    free(filled);
    int64_t subgroups[2];
    int32_t num_subgroups = 0;
    if (copies > 1) dims[rank++] = copies, subgroups[num_subgroups++] = 0;        /* REPLICATED */
    if (partials > 1) dims[rank++] = partials, subgroups[num_subgroups++] = 6;    /* UNREDUCED */
    put(out, 1 << 3); /* type OTHER */
    put(out, 3);
    put_packed(out, 3, dims, rank);
    put_packed(out, 4, devices, n);
    if (partials > 1) {
      put_packed(out, 8, subgroups, num_subgroups);
    } else if (copies > 1) {
      put(out, 6 << 3); /* replicate_on_last_tile_dim */
      put(out, 1);
    }
  }
  if (!st && out->failed) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  free(info);
  free(dims);
  free(devices);
  return st;
}

static void free_list(char **list, size_t *sizes, int32_t n) {
  for (int32_t i = 0; list && i < n; i++) free(list[i]);
  free(list);
  free(sizes);
}

static kiln_status encode_all(kiln_executable *kx, bool result, int32_t n, char ***list, size_t **sizes) {
  *list = calloc((size_t)n + 1, sizeof **list);
  *sizes = calloc((size_t)n + 1, sizeof **sizes);
  if (!*list || !*sizes) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = 0; i < n; i++) {
    bytes b = {0};
    kiln_status st = encode(kx, result, i, &b);
    if (st) {
      free(b.data);
      return st;
    }
    (*list)[i] = (char *)b.data;
    (*sizes)[i] = b.len;
  }
  return NULL;
}

kiln_status kiln_pjrt_shardings_make(PJRT_Executable *x, kiln_executable *kx) {
  kiln_status st = encode_all(kx, false, x->num_inputs, &x->param_shardings, &x->param_sharding_sizes);
  if (!st) st = encode_all(kx, true, x->num_outputs, &x->output_shardings, &x->output_sharding_sizes);
  return st;
}

void kiln_pjrt_shardings_free(PJRT_Executable *x) {
  free_list(x->param_shardings, x->param_sharding_sizes, x->num_inputs);
  free_list(x->output_shardings, x->output_sharding_sizes, x->num_outputs);
}

/* ------------------------------------------------------------------ the extension */

/* A plain executable leaves both NULL: the framework then takes every value as replicated
 * on its one device; so does an empty list (the framework wants a program without outputs
 * to say nothing rather than 0 shardings). */
static PJRT_Error *answer(shardings_args *args, bool outputs) {
  KILN_PJRT_CHECK_ARGS(args, sharding_sizes);
  KILN_PJRT_REQUIRE(args->executable, "executable is NULL");
  PJRT_Executable *x = args->executable;
  args->count = (size_t)(outputs ? x->num_outputs : x->num_inputs);
  args->shardings = args->count ? (const char *const *)(outputs ? x->output_shardings : x->param_shardings) : NULL;
  args->sharding_sizes = args->count ? (outputs ? x->output_sharding_sizes : x->param_sharding_sizes) : NULL;
  return NULL;
}

static PJRT_Error *parameter_shardings(shardings_args *args) { return answer(args, false); }
static PJRT_Error *output_shardings(shardings_args *args) { return answer(args, true); }

const struct kiln_pjrt_shardings_extension kiln_pjrt_shardings_extension = {
    .base = {.struct_size = sizeof(struct kiln_pjrt_shardings_extension), .type = PJRT_Extension_Type_Shardings,
             .next = NULL},
    .parameter_shardings = parameter_shardings,
    .output_shardings = output_shardings,
};
