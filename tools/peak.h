/* The process's resident memory, from Linux's /proc/self: the current resident size and
 * its high-water mark, which can be reset to measure the peak of one stretch of work.
 * Not thread-safe in the sense that a reset affects the whole process. */
#ifndef KILN_TOOLS_PEAK_H
#define KILN_TOOLS_PEAK_H

#include <stdbool.h>
#include <stdint.h>

/* Resets the high-water mark to the current resident size (writes "5" to
 * /proc/self/clear_refs). False when the kernel does not allow it. */
bool kiln_cli_peak_reset(void);

/* Bytes of VmRSS (resident now) or VmHWM (the high-water mark) of /proc/self/status.
 * False when it cannot be read. */
bool kiln_cli_resident_bytes(uint64_t *out);
bool kiln_cli_peak_bytes(uint64_t *out);

#endif
