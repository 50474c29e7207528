/* Sharded programs in the commands (see sharded.h). */
#include "sharded.h"

#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "runtime/element.h"

/* Copies the block at `offset` (local dims) between a global row-major array and a dense
 * local one, one dimension at a time. to_local: global -> local, else local -> global. */
static void copy_block(size_t eb, int32_t rank, const int64_t *global, const int64_t *local, const int64_t *offset,
                       uint8_t *g, uint8_t *l, bool to_local) {
  if (rank == 0) {
    memcpy(to_local ? l : g, to_local ? g : l, eb);
    return;
  }
  size_t inner_g = eb, inner_l = eb;
  for (int32_t d = 1; d < rank; d++) {
    inner_g *= (size_t)global[d];
    inner_l *= (size_t)local[d];
  }
  for (int64_t i = 0; i < local[0]; i++)
    copy_block(eb, rank - 1, global + 1, local + 1, offset + 1, g + (size_t)(offset[0] + i) * inner_g,
               l + (size_t)i * inner_l, to_local);
}

/* Partition p's block of a global array under x's sharding of input or result index. */
static kiln_status block_of(kiln_executable *x, bool result, int32_t index, int32_t p, const kiln_npy_array *global,
                            int64_t *local_dims, int64_t *offset, size_t *bytes) {
  kiln_sharding_info s = {.struct_size = sizeof s};
  KILN_RETURN_IF_ERROR(kiln_executable_sharding(x, result, index, p, &s));
  if (s.partials > 1)
    return KILN_STATUS(KILN_STATUS_UNIMPLEMENTED,
                       "%s #%d is held as partial sums (unreduced axes): kiln run takes and gives whole arrays only",
                       result ? "result" : "input", (int)index);
  if (s.rank != global->rank)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s #%d: rank %d given, the program's is %d", result ? "result" : "input",
                       (int)index, (int)global->rank, (int)s.rank);
  *bytes = kiln_elem_storage_bytes(global->elem);
  for (int32_t d = 0; d < s.rank; d++) {
    if (global->dims[d] % s.parts[d])
      return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s #%d: dimension %d (%lld) does not split into %lld blocks",
                         result ? "result" : "input", (int)index, (int)d, (long long)global->dims[d], (long long)s.parts[d]);
    local_dims[d] = global->dims[d] / s.parts[d];
    offset[d] = s.block[d] * local_dims[d];
    *bytes *= (size_t)local_dims[d];
  }
  return NULL;
}

/* Deals global input i out to the rows of args of the partitions this process runs (on
 * the client's devices from 0). */
static kiln_status deal(kiln_executable *x, kiln_client *c, int32_t i, int32_t ni, const kiln_npy_array *a,
                        kiln_buffer **args) {
  kiln_status st = NULL;
  int32_t first, count;
  kiln_executable_local_partitions(x, &first, &count);
  for (int32_t p = first; !st && p < first + count; p++) {
    int64_t local[KILN_MAX_RANK], offset[KILN_MAX_RANK];
    size_t bytes;
    st = block_of(x, false, i, p, a, local, offset, &bytes);
    uint8_t *data = st ? NULL : malloc(bytes ? bytes : 1);
    if (!st && !data) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    if (!st) {
      copy_block(kiln_elem_storage_bytes(a->elem), a->rank, a->dims, local, offset, a->data, data, true);
      kiln_buffer_args ba = {sizeof ba, kiln_element_type_from_elem(a->elem), a->rank, local, data, bytes};
      st = kiln_buffer_create(kiln_client_device(c, p - first), &ba, &args[(size_t)p * ni + i]);
    }
    free(data);
  }
  return st;
}

/* Puts result j together from every partition's block: this process's partitions' blocks
 * and, in a launch of several processes, the others' (kiln_processes_allgather). */
static kiln_status gather(kiln_executable *x, int32_t j, int32_t nr, kiln_buffer **results, kiln_npy_array *out) {
  int32_t first, count, n = kiln_executable_num_partitions(x);
  kiln_executable_local_partitions(x, &first, &count);
  kiln_buffer *mine = results[(size_t)first * nr + j];
  kiln_elem e = kiln_element_type_to_elem(kiln_buffer_element_type(mine));
  if (e == KILN_ELEM_COUNT) return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "result #%d is not a tensor", (int)j);
  kiln_sharding_info s = {.struct_size = sizeof s};
  KILN_RETURN_IF_ERROR(kiln_executable_sharding(x, true, j, first, &s));
  memset(out, 0, sizeof *out);
  out->elem = e;
  out->rank = s.rank;
  size_t eb = kiln_elem_storage_bytes(e), block = kiln_buffer_byte_size(mine);
  out->byte_size = eb;
  for (int32_t d = 0; d < s.rank; d++) {
    out->dims[d] = kiln_buffer_dims(mine)[d] * s.parts[d];
    out->byte_size *= (size_t)out->dims[d];
  }
  uint8_t *blocks = malloc(block * (size_t)n + 1);
  if (!(out->data = malloc(out->byte_size ? out->byte_size : 1)) || !blocks) {
    free(blocks);
    return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  kiln_status st = NULL;
  for (int32_t p = first; !st && p < first + count; p++) {
    kiln_buffer *b = results[(size_t)p * nr + j];
    if (kiln_buffer_byte_size(b) != block)
      st = KILN_STATUS(KILN_STATUS_INTERNAL, "result #%d of partition %d has %zu bytes, not %zu", (int)j, (int)p,
                       kiln_buffer_byte_size(b), block);
    if (!st) st = kiln_buffer_copy_to_host(b, blocks + (size_t)p * block, block);
  }
  if (!st) st = kiln_processes_allgather(blocks + (size_t)first * block, block * (size_t)count, blocks);
  for (int32_t p = 0; !st && p < n; p++) {
    int64_t local[KILN_MAX_RANK], offset[KILN_MAX_RANK];
    size_t bytes;
    st = block_of(x, true, j, p, out, local, offset, &bytes);
    if (!st && bytes != block)
      st = KILN_STATUS(KILN_STATUS_INTERNAL, "result #%d of partition %d has %zu bytes, not %zu", (int)j, (int)p, block, bytes);
    if (!st) copy_block(eb, out->rank, out->dims, local, offset, out->data, blocks + (size_t)p * block, false);
  }
  free(blocks);
  return st;
}

kiln_status kiln_cli_run_sharded(kiln_executable *x, kiln_client *c, const kiln_source *src, const char *name,
                                 const char *const *paths, int n, kiln_npy_array *out, int32_t num_results) {
  int32_t np = kiln_executable_num_partitions(x);
  memset(out, 0, sizeof *out * (size_t)num_results);
  kiln_function_info info = {.struct_size = sizeof info};
  kiln_module *m = NULL;
  const kiln_type *ft = NULL;
  kiln_status st = kiln_executable_function(x, &info);
  if (!st) st = kiln_cli_function_type(src, name, &m, &ft);
  if (!st && info.num_inputs != n)
    st = KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "@%s takes %d inputs, %d given (--input X.npy, once per input)", name,
                     (int)info.num_inputs, n);
  size_t ni = (size_t)info.num_inputs, nr = (size_t)info.num_results;
  kiln_buffer **args = calloc((size_t)np * ni + 1, sizeof *args), **results = calloc((size_t)np * nr + 1, sizeof *results);
  if (!st && (!args || !results)) st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int32_t i = 0; !st && i < n; i++) {
    kiln_npy_array a;
    const kiln_type *param = ft->func.inputs[i];
    st = kiln_npy_read_as(paths[i], kiln_type_is_tensor(param) ? kiln_type_elem(param) : KILN_ELEM_COUNT, &a);
    if (!st) {
      st = deal(x, c, i, (int32_t)ni, &a, args);
      kiln_npy_free(&a);
    }
    if (st) {
      kiln_status wrapped = KILN_STATUS(kiln_status_code_of(st), "input #%d (%s): %s", (int)i, paths[i], kiln_status_message(st));
      kiln_status_free(st);
      st = wrapped;
    }
  }
  kiln_event *done = NULL;
  kiln_execute_args ea = {sizeof ea, args, info.num_inputs, results, info.num_results, 0, NULL};
  if (!st) st = kiln_executable_execute(x, &ea, &done);
  if (!st) st = kiln_event_wait(done);
  int32_t made = 0;
  for (; !st && made < num_results && made < info.num_results; made++) {
    st = gather(x, made, info.num_results, results, &out[made]);
    if (st) {
      kiln_status wrapped = KILN_STATUS(kiln_status_code_of(st), "result #%d: %s", (int)made, kiln_status_message(st));
      kiln_status_free(st);
      st = wrapped;
    }
  }
  for (size_t k = 0; args && k < (size_t)np * ni; k++) kiln_buffer_release(args[k]);
  for (size_t k = 0; results && k < (size_t)np * nr; k++) kiln_buffer_release(results[k]);
  free(args);
  free(results);
  kiln_event_release(done);
  kiln_module_destroy(m);
  return st;
}
