/* EXLA 0.13's call sequence (research brief §7): no Plugin_Initialize, a framework of
 * PJRT 0.90 whose structs are smaller than this header's (emulated: Client_Create_Args
 * without the kv_try_get fields, PJRT_ExecuteOptions ending at `context`), LookupDevice,
 * host data with explicit byte strides (column-major here) and kImmutableZeroCopy, a
 * portable executable compiled for a device_ordinal and run with execute_device set and no
 * completion events, UnpaddedDimensions, copies between memories and devices, and a
 * column-major host layout on the way back. */
#include <string.h>

#include "support.h"

#define SIZE_UPTO(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* compile_portable_executable, executable_build_options {device_ordinal 0, 1 replica,
 * 1 partition} */
static const unsigned char portable_options[] = {0x20, 0x01, 0x1a, 0x06, 0x08, 0x00, 0x20, 0x01, 0x28, 0x01};

static PJRT_Buffer *copy_to_memory(PJRT_Buffer *b, PJRT_Memory *m) {
  ARGS(PJRT_Buffer_CopyToMemory_Args, a);
  a.buffer = b;
  a.dst_memory = m;
  return OK(api->PJRT_Buffer_CopyToMemory(&a)) ? a.dst_buffer : NULL;
}

static PJRT_Buffer *copy_to_device(PJRT_Buffer *b, PJRT_Device *d) {
  ARGS(PJRT_Buffer_CopyToDevice_Args, a);
  a.buffer = b;
  a.dst_device = d;
  return OK(api->PJRT_Buffer_CopyToDevice(&a)) ? a.dst_buffer : NULL;
}

static void expect_floats(PJRT_Buffer *b, const float *want, size_t n, const char *what) {
  float got[8] = {0};
  if (b && t_read(b, got, n * sizeof(float)))
    CHECK(!memcmp(got, want, n * sizeof(float)), "%s: %g %g %g %g %g %g", what, got[0], got[1], got[2], got[3],
          got[4], got[5]);
}

static void run(PJRT_Client *c, PJRT_Device *d, PJRT_Memory *m, PJRT_LoadedExecutable *exe) {
  ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args, da);
  da.executable = exe;
  OK(api->PJRT_LoadedExecutable_GetDeviceAssignment(&da));
  CHECK(da.serialized_bytes_size == 0 && da.serialized_device_assignment_deleter, "portable: no assignment");
  if (da.serialized_device_assignment_deleter) da.serialized_device_assignment_deleter(da.serialized_device_assignment);

  /* x = [[1,2,3],[4,5,6]] stored column-major: byte strides {4, 8} */
  const float host[6] = {1, 4, 2, 5, 3, 6};
  const int64_t dims[2] = {2, 3}, strides[2] = {4, 8};
  ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
  a.client = c;
  a.data = host;
  a.type = PJRT_Buffer_Type_F32;
  a.dims = dims;
  a.num_dims = 2;
  a.byte_strides = strides;
  a.num_byte_strides = 2;
  a.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableZeroCopy;
  a.memory = m;
  if (!OK(api->PJRT_Client_BufferFromHostBuffer(&a))) return;
  t_event_destroy(a.done_with_host_buffer);
  const float x[6] = {1, 2, 3, 4, 5, 6};
  expect_floats(a.buffer, x, 6, "strided host data, read back row-major");
  /* NumPy views JAX hands over as they are: a broadcast row (stride 0) and reversed rows
   * (a negative stride from the last row) */
  const int64_t broadcast[2] = {0, 4}, reversed[2] = {-12, 4};
  const float rows[6] = {1, 2, 3, 4, 5, 6}, bcast[6] = {1, 2, 3, 1, 2, 3}, rev[6] = {4, 5, 6, 1, 2, 3};
  PJRT_Buffer *vb = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, rows, dims, 2, broadcast);
  if (vb) expect_floats(vb, bcast, 6, "a broadcast view (byte stride 0)");
  t_buffer_destroy(vb);
  vb = t_buffer(c, NULL, m, PJRT_Buffer_Type_F32, rows + 3, dims, 2, reversed);
  if (vb) expect_floats(vb, rev, 6, "a reversed view (negative byte stride)");
  t_buffer_destroy(vb);

  ARGS(PJRT_ExecuteOptions, o);
  o.struct_size = SIZE_UPTO(PJRT_ExecuteOptions, context); /* an older framework's options */
  PJRT_Buffer *args[1] = {a.buffer}, *out[2] = {NULL, NULL};
  PJRT_Buffer *const *lists[1] = {args};
  PJRT_Buffer **outs[1] = {out};
  ARGS(PJRT_LoadedExecutable_Execute_Args, e);
  e.executable = exe;
  e.options = &o;
  e.argument_lists = lists;
  e.num_devices = 1;
  e.num_args = 1;
  e.output_lists = outs;
  e.device_complete_events = NULL;
  e.execute_device = d;
  if (OK(api->PJRT_LoadedExecutable_Execute(&e))) {
    const float sq[6] = {1, 4, 9, 16, 25, 36}, tr[6] = {1, 4, 2, 5, 3, 6}, tr_cols[6] = {1, 2, 3, 4, 5, 6};
    ARGS(PJRT_Buffer_UnpaddedDimensions_Args, ud);
    ud.buffer = out[1];
    OK(api->PJRT_Buffer_UnpaddedDimensions(&ud));
    CHECK(ud.num_dims == 2 && ud.unpadded_dims[0] == 3 && ud.unpadded_dims[1] == 2, "transpose dims");
    expect_floats(out[0], sq, 6, "x*x");
    expect_floats(out[1], tr, 6, "transpose");
    PJRT_Buffer *moved = copy_to_memory(out[1], m), *copied = copy_to_device(out[0], d);
    expect_floats(moved, tr, 6, "CopyToMemory");
    expect_floats(copied, sq, 6, "CopyToDevice");
    /* column-major host layout: minor_to_major {0, 1} */
    int64_t m2m[2] = {0, 1};
    ARGS(PJRT_Buffer_MemoryLayout, layout);
    layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
    layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
    layout.tiled.minor_to_major = m2m;
    layout.tiled.minor_to_major_size = 2;
    float got[6] = {0};
    ARGS(PJRT_Buffer_ToHostBuffer_Args, th);
    th.src = out[1];
    th.host_layout = &layout;
    th.dst = got;
    th.dst_size = sizeof got;
    if (OK(api->PJRT_Buffer_ToHostBuffer(&th))) {
      ARGS(PJRT_Event_Await_Args, w);
      w.event = th.event;
      OK(api->PJRT_Event_Await(&w));
      t_event_destroy(th.event);
      CHECK(!memcmp(got, tr_cols, sizeof got), "column-major read: %g %g %g %g %g %g", got[0], got[1], got[2], got[3],
            got[4], got[5]);
    }
    for (int i = 0; i < 2; i++) {
      ARGS(PJRT_Buffer_IsDeleted_Args, isd);
      isd.buffer = out[i];
      OK(api->PJRT_Buffer_IsDeleted(&isd));
      CHECK(!isd.is_deleted, "output %d deleted", i);
      t_buffer_destroy(out[i]);
    }
    t_buffer_destroy(moved);
    t_buffer_destroy(copied);
  }
  t_buffer_destroy(a.buffer);
}

void t_exla(void) {
  PJRT_Client *c = t_client(SIZE_UPTO(PJRT_Client_Create_Args, client), NULL, 0);
  if (!c) return;
  PJRT_Device *d = t_device(c, 0);
  PJRT_Memory *m = t_memory(d);
  PJRT_Error *err;
  PJRT_LoadedExecutable *exe =
      t_compile(c, t_pair_program, strlen(t_pair_program), portable_options, sizeof portable_options, &err);
  if (OK(err)) run(c, d, m, exe);
  ARGS(PJRT_LoadedExecutable_Delete_Args, del);
  del.executable = exe;
  OK(api->PJRT_LoadedExecutable_Delete(&del));
  t_executable_destroy(exe);
  t_client_destroy(c);
}
