# Read by ctest (TEST_INCLUDE_FILES, tests/CMakeLists.txt) before it runs any test: every
# test runs with the compile cache off (src/backends/cpu/code_cache.h), so none reads or
# writes the user's cache or shares one with another test. A test of the cache sets its
# own folder and bound.
set(ENV{KILN_CACHE_MAX_BYTES} 0)
