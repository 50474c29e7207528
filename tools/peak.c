/* The process's resident memory from /proc/self (see peak.h). */
#include "peak.h"

#include <stdio.h>
#include <string.h>

bool kiln_cli_peak_reset(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  bool ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok; /* the write happens at fclose */
}

/* The value of "key:  N kB" in /proc/self/status, in bytes. */
static bool status_bytes(const char *key, uint64_t *out) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return false;
  char line[256];
  size_t n = strlen(key);
  bool found = false;
  unsigned long long kb = 0;
  while (!found && fgets(line, sizeof line, f))
    found = !strncmp(line, key, n) && line[n] == ':' && sscanf(line + n + 1, "%llu", &kb) == 1;
  fclose(f);
  if (found) *out = (uint64_t)kb * 1024;
  return found;
}

bool kiln_cli_resident_bytes(uint64_t *out) { return status_bytes("VmRSS", out); }
bool kiln_cli_peak_bytes(uint64_t *out) { return status_bytes("VmHWM", out); }
