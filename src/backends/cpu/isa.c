/* KILN_CPU_ISA: reading the cap once and applying it to oneDNN (see isa.h). */
#include "backends/cpu/isa.h"

#include <dnnl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  kiln_cpu_isa_cap cap;
  dnnl_cpu_isa_t dnnl;
} k_caps[] = {
    {"native", KILN_CPU_ISA_NATIVE, dnnl_cpu_isa_all},
    {"avx512", KILN_CPU_ISA_AVX512, dnnl_cpu_isa_avx512_core_bf16},
    {"avx2", KILN_CPU_ISA_AVX2, dnnl_cpu_isa_avx2},
};

static const struct {
  dnnl_cpu_isa_t isa;
  const char *name;
} k_names[] = {
    {dnnl_cpu_isa_avx512_core_amx, "avx512_core_amx"}, {dnnl_cpu_isa_avx512_core_bf16, "avx512_core_bf16"},
    {dnnl_cpu_isa_avx512_core_vnni, "avx512_core_vnni"}, {dnnl_cpu_isa_avx512_core, "avx512_core"},
    {dnnl_cpu_isa_avx2_vnni, "avx2_vnni"}, {dnnl_cpu_isa_avx2, "avx2"}, {dnnl_cpu_isa_avx, "avx"},
    {dnnl_cpu_isa_sse41, "sse41"},
};

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static kiln_cpu_isa_cap g_cap;
static kiln_status_code g_code;
static char g_error[192];
static char g_text[96] = "unknown";
static bool g_vnni;

static const char *isa_name(dnnl_cpu_isa_t isa) {
  for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; i++)
    if (k_names[i].isa == isa) return k_names[i].name;
  return "no vector extensions";
}

static void setup(void) {
  const char *v = getenv("KILN_CPU_ISA");
  size_t k = 0;
  if (v && *v) {
    while (k < sizeof k_caps / sizeof k_caps[0] && strcmp(v, k_caps[k].name)) k++;
    if (k == sizeof k_caps / sizeof k_caps[0]) {
      g_code = KILN_STATUS_INVALID_ARGUMENT;
      snprintf(g_error, sizeof g_error, "KILN_CPU_ISA=%.40s: expected avx2, avx512 or native", v);
      return;
    }
  }
  g_cap = k_caps[k].cap;
  /* oneDNN refuses a new cap once it has dispatched a kernel: the check below sees it. */
  if (g_cap != KILN_CPU_ISA_NATIVE) dnnl_set_max_cpu_isa(k_caps[k].dnnl);
  dnnl_cpu_isa_t used = dnnl_get_effective_cpu_isa();
  if (g_cap != KILN_CPU_ISA_NATIVE && (used & ~k_caps[k].dnnl)) {
    g_code = KILN_STATUS_FAILED_PRECONDITION;
    snprintf(g_error, sizeof g_error, "KILN_CPU_ISA=%s: oneDNN already runs %s kernels in this process", v,
             isa_name(used));
    return;
  }
  /* the ISA values are bit sets: VNNI is the bit avx512_core_vnni adds to avx512_core, or
   * avx2_vnni to avx2 */
  g_vnni = (used & (dnnl_cpu_isa_avx512_core_vnni & ~dnnl_cpu_isa_avx512_core)) ||
           (used & (dnnl_cpu_isa_avx2_vnni & ~dnnl_cpu_isa_avx2));
  snprintf(g_text, sizeof g_text, "%s%s%s%s", isa_name(used), g_cap ? " (capped by KILN_CPU_ISA=" : "",
           g_cap ? k_caps[k].name : "", g_cap ? ")" : "");
}

kiln_status kiln_cpu_isa_setup(kiln_cpu_isa_cap *out_cap) {
  pthread_once(&g_once, setup);
  if (out_cap) *out_cap = g_cap;
  return g_code ? KILN_STATUS(g_code, "cpu: %s", g_error) : NULL;
}

bool kiln_cpu_isa_has_vnni(void) {
  pthread_once(&g_once, setup);
  return g_vnni;
}

/* The runtime library's CPU model (this library's own copy) is filled by its constructor
 * when the library is loaded, so this only reads it (no __builtin_cpu_init, which would
 * write it from every compile thread). */
bool kiln_cpu_host_is_amd(void) { return __builtin_cpu_is("amd"); }

const char *kiln_cpu_isa_describe(void) {
  pthread_once(&g_once, setup);
  return g_text;
}
