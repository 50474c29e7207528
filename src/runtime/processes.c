/* Processes of one launch (kiln.h): the public face of src/wire. */
#include "kiln/kiln.h"
#include "wire/wire.h"

kiln_status kiln_processes_join(kiln_process_info *out_info) {
  const kiln_backend_wire *w = NULL;
  KILN_RETURN_IF_ERROR(kiln_wire_join(&w));
  if (out_info && out_info->struct_size >= sizeof *out_info) {
    out_info->index = w ? w->rank : 0;
    out_info->count = w ? w->size : 1;
  }
  return NULL;
}

void kiln_processes_leave(void) { kiln_wire_leave(); }

kiln_status kiln_processes_allgather(const void *mine, size_t bytes, void *all) {
  return kiln_wire_allgather(mine, bytes, all, kiln_wire_timeout_s());
}
