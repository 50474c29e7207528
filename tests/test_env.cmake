# Read by ctest (TEST_INCLUDE_FILES, tests/CMakeLists.txt) before it runs any test:
# - the compile cache is off (src/backends/cpu/code_cache.h), so no test reads or writes
#   the user's cache or shares one with another test; a test of the cache sets its own
#   folder and bound;
# - the cpu device compiles before the first run (KILN_CPU_TIER=optimized,
#   src/backends/cpu/tier.h), so every cpu test checks the optimised code; the tests of
#   the fast-start tier and of switching set their own mode.
set(ENV{KILN_CACHE_MAX_BYTES} 0)
set(ENV{KILN_CPU_TIER} optimized)
