/* The processes of one launch and the wire between them.
 *
 * `mpirun -np P kiln ...` (Open MPI) starts P processes; each joins the launch here
 * (kiln_wire_join) and the runtime spreads a sharded program's partitions over them
 * (src/runtime/executable.c), handing the plugins the wire (kiln_backend_wire) their
 * collectives meet on. MPI is loaded at run time (libmpi.so.40, Open MPI's ABI: Debian's
 * libopenmpi3), so Kiln builds and runs without it; a process not started by a launcher is
 * the only process of its launch and never loads it.
 *
 * Thread-safety: join and leave are for the process's main thread (once each); the wire's
 * functions and kiln_wire_allgather may be called from any thread at once (MPI runs
 * serialized under one lock, MPI_THREAD_SERIALIZED). */
#ifndef KILN_WIRE_WIRE_H
#define KILN_WIRE_WIRE_H

#include "kiln/backend.h"

/* Joins the launch that started this process: *out is its wire, or NULL when the process
 * is the only one (no launcher; or a launch of one). Joining again returns the same wire.
 * Errors: a launcher's environment without a loadable Open MPI, or MPI failing to start. */
kiln_status kiln_wire_join(const kiln_backend_wire **out);

/* The wire joined, or NULL. */
const kiln_backend_wire *kiln_wire_joined(void);

/* Leaves the launch (MPI_Finalize); the wire must no longer be in use. Nothing when not
 * joined. */
void kiln_wire_leave(void);

/* Every process contributes `bytes` bytes; all[] receives every process's, in process
 * order (size * bytes). A process that is the only one copies its own. */
kiln_status kiln_wire_allgather(const void *mine, size_t bytes, void *all, int timeout_s);

/* The bound of every wait across processes, in seconds: KILN_COLLECTIVE_TIMEOUT_S when set
 * (1 to 86400), else 300. */
int kiln_wire_timeout_s(void);

#endif
