# The PJRT C API plugin: libkiln_pjrt.so in the build root (beside libkiln.so), built on
# Kiln's public API and the vendored PJRT header (third_party/pjrt, PJRT 0.112). It exports
# only GetPjrtApi (hidden visibility + a version script) and finds libkiln.so through
# RPATH $ORIGIN, in the build tree and installed alike. The objects are also linked into
# the fuzz target (tests/fuzz/fuzz_pjrt.c).
add_library(kiln_pjrt_objects OBJECT
  src/pjrt/api.c
  src/pjrt/buffer.c
  src/pjrt/client.c
  src/pjrt/compile.c
  src/pjrt/compile_options.c
  src/pjrt/device.c
  src/pjrt/error.c
  src/pjrt/event.c
  src/pjrt/execute.c
  src/pjrt/layout.c
  src/pjrt/sharding.c
)
target_include_directories(kiln_pjrt_objects PUBLIC include third_party/pjrt PRIVATE src)
set_target_properties(kiln_pjrt_objects PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)

set(kiln_pjrt_map ${PROJECT_SOURCE_DIR}/src/pjrt/exports.map)
add_library(kiln_pjrt SHARED $<TARGET_OBJECTS:kiln_pjrt_objects>)
target_link_libraries(kiln_pjrt PRIVATE kiln_shared Threads::Threads)
set_target_properties(kiln_pjrt PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}
  BUILD_RPATH "$ORIGIN"
  INSTALL_RPATH "$ORIGIN"
  LINK_DEPENDS ${kiln_pjrt_map})
target_link_options(kiln_pjrt PRIVATE -Wl,--version-script=${kiln_pjrt_map})
if(NOT KILN_SANITIZE AND NOT KILN_FUZZ)
  target_link_options(kiln_pjrt PRIVATE -Wl,--no-undefined)
endif()
# The plugin runs programs through libkiln.so's backends: build them with it.
add_dependencies(kiln_pjrt kiln-interp kiln-null)
if(KILN_HAVE_CPU)
  add_dependencies(kiln_pjrt kiln-cpu)
endif()
