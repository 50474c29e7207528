/* Host memory for tensors, shared by the runtime's plugins (the cpu backend's buffers and
 * plans, the interpreter's values): 64-byte aligned; blocks of 64 KiB and more are kept
 * when freed (up to 1 GiB, the oldest given back first) and handed out again for the same
 * size, so that a program run again, a loop's tensors and a collective's buffers do not
 * pay the kernel's page faults every time. Thread-safe. */
#ifndef KILN_BASE_HOST_MEMORY_H
#define KILN_BASE_HOST_MEMORY_H

#include <stdint.h>

/* A block of bytes (uninitialised; NULL when out of memory). kiln_host_free takes the
 * size given to kiln_host_alloc (NULL allowed). */
void *kiln_host_alloc(uint64_t bytes);
void kiln_host_free(void *p, uint64_t bytes);
/* Makes the pages of [p, p + bytes) resident and writable now, as the first writes to them
 * would (the kernel's page faults, paid here rather than by the code that writes them
 * first), in one call where the kernel has MADV_POPULATE_WRITE (Linux 5.14; a 32 MiB
 * block in 4.2 ms against 10.7 ms touched page by page, 2026-12-07), else page by page.
 * The contents stay as they were. p NULL or bytes 0: nothing. */
void kiln_host_populate(void *p, uint64_t bytes);
/* Gives the kept blocks back to the system. */
void kiln_host_cache_release(void);
/* Colour i's offset in bytes, a multiple of 64 from 64 to 4032: what large blocks start at
 * into their first page, and what the cpu backend's arena pads its large temporaries by, so
 * that neighbours do not start at equal addresses modulo 4096. */
uint64_t kiln_host_colour_bytes(uint64_t i);

#endif
