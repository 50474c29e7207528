/* The host's load as the cpu backend's pool sees it (src/backends/cpu/load.h): the running
 * count read from /proc/loadavg text (and refused from text that is not it), one sample
 * claimed per period, the mean of the last samples (none counted before the window is
 * full; an old sample leaves it), and the threads a pool may use beside other work. */
#include <math.h>
#include <stdio.h>

#include "backends/cpu/load.h"
#include "expect.h"

static void test_running(void) {
  EXPECT(kiln_cpu_load_running("0.52 0.58 0.59 3/467 12345\n") == 3, "3 running");
  EXPECT(kiln_cpu_load_running("12.00 9.10 8.00 17/2048 1") == 17, "17 running");
  EXPECT(kiln_cpu_load_running("") == -1, "empty text");
  EXPECT(kiln_cpu_load_running("0.52 0.58 0.59") == -1, "no running field");
  EXPECT(kiln_cpu_load_running("0.52 0.58 0.59 x/467 1") == -1, "a running field that is no number");
  EXPECT(kiln_cpu_load_running("0.52 0.58 0.59 -2/467 1") == -1, "a negative count");
  FILE *f = fopen("/proc/loadavg", "r");
  char text[128] = {0};
  if (f) {
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    EXPECT(kiln_cpu_load_running(text) >= 1, "this host's /proc/loadavg counts at least this thread ('%s')", text);
  }
}

static void test_due(void) {
  kiln_cpu_load l = {0};
  EXPECT(kiln_cpu_load_due(&l, 1000), "the first sample is due at once");
  EXPECT(!kiln_cpu_load_due(&l, 1000), "claimed once");
  EXPECT(!kiln_cpu_load_due(&l, 1000 + KILN_CPU_LOAD_PERIOD_NS - 1), "not again within the period");
  EXPECT(kiln_cpu_load_due(&l, 1000 + KILN_CPU_LOAD_PERIOD_NS), "due again after the period");
}

static void test_mean(void) {
  kiln_cpu_load l = {0};
  for (int i = 0; i < KILN_CPU_LOAD_SAMPLES - 1; i++) kiln_cpu_load_note(&l, 5);
  EXPECT(kiln_cpu_load_others(&l) == 0, "no load before the window is full (%g)", kiln_cpu_load_others(&l));
  kiln_cpu_load_note(&l, 5);
  EXPECT(kiln_cpu_load_others(&l) == 5, "a full window of 5s: 5 (%g)", kiln_cpu_load_others(&l));
  kiln_cpu_load_note(&l, -3); /* counted as 0 */
  double want = 5.0 * (KILN_CPU_LOAD_SAMPLES - 1) / KILN_CPU_LOAD_SAMPLES;
  EXPECT(fabs(kiln_cpu_load_others(&l) - want) < 1e-9, "the oldest 5 gave way to a 0: %g (%g)", want,
         kiln_cpu_load_others(&l));
  for (int i = 0; i < KILN_CPU_LOAD_SAMPLES; i++) kiln_cpu_load_note(&l, i == 0 ? 1 : 0);
  EXPECT(fabs(kiln_cpu_load_others(&l) - 1.0 / KILN_CPU_LOAD_SAMPLES) < 1e-9, "one passing thread weighs 1/%d (%g)",
         KILN_CPU_LOAD_SAMPLES, kiln_cpu_load_others(&l));
}

static void test_threads(void) {
  EXPECT(kiln_cpu_load_threads(2, 0, 2) == 2, "an idle 2-CPU host: both threads");
  EXPECT(kiln_cpu_load_threads(2, 0.125, 2) == 2, "a passing thread takes none");
  EXPECT(kiln_cpu_load_threads(2, 1, 2) == 1, "one busy process on 2 CPUs: the caller alone");
  EXPECT(kiln_cpu_load_threads(2, 3, 2) == 1, "more busy than CPUs: still the caller");
  EXPECT(kiln_cpu_load_threads(16, 1, 16) == 15, "one busy process on 16 CPUs: 15 threads");
  EXPECT(kiln_cpu_load_threads(16, 2.6, 8) == 8, "a pool smaller than the CPUs left: all of it");
  EXPECT(kiln_cpu_load_threads(4, 2.6, 4) == 1, "1.4 CPUs left: 1 thread");
  EXPECT(kiln_cpu_load_threads(4, 2.4, 4) == 2, "1.6 CPUs left: 2 threads");
  EXPECT(kiln_cpu_load_threads(1, 0, 1) == 1, "a pool of the caller alone");
}

int main(void) {
  test_running();
  test_due();
  test_mean();
  test_threads();
  return test_summary();
}
