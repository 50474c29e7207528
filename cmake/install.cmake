# cmake --install: Kiln's SDK, laid out as
#
#   bin/kiln                                  the CLI            RUNPATH $ORIGIN/../lib
#   lib/libkiln.so.0.1.0, .so.0, .so          the base library (soname libkiln.so.0)
#   lib/kiln-plugins/libkiln-NAME.so          backend plugins    RUNPATH $ORIGIN/..
#   lib/libkiln_pjrt.so                       the PJRT plugin    RUNPATH $ORIGIN (JAX, EXLA)
#   include/kiln/{kiln,status,backend}.h      the C API and the plugin ABI
#   include/kiln/plugin/{base,ir,runtime}/    the IR headers a plugin reads programs with
#   lib/pkgconfig/kiln.pc, kiln-plugin.pc     pkg-config (prefix found from the file's own place)
#   lib/cmake/kiln/                           find_package(kiln): kiln::kiln, kiln::plugin
#
# Every path inside the tree is relative, so it works wherever it is copied (a release's
# priv/, a wheel) with nothing set. Two components: `runtime` (what an application or a
# release carries: the library, the plugins, the CLI) and `dev` (headers, the libkiln.so
# link, pkg-config and CMake files):  cmake --install BUILD --component runtime --prefix DIR
include(CMakePackageConfigHelpers)

set(KILN_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/kiln-plugins)
set(KILN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
set(KILN_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# RPATHs relative to each binary's own folder; those of the plugins that use LAPACK (all but
# null) also name the pthread OpenBLAS's system folder (CMakeLists.txt: its soname is shared
# with the serial and OpenMP builds).
file(RELATIVE_PATH kiln_bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
set_target_properties(kiln PROPERTIES INSTALL_RPATH "$ORIGIN/${kiln_bin_to_lib}")
foreach(plugin ${KILN_INSTALLED_PLUGINS})
  if(plugin STREQUAL "null")
    set_target_properties(kiln-${plugin} PROPERTIES INSTALL_RPATH "$ORIGIN/..")
  else()
    set_target_properties(kiln-${plugin} PROPERTIES INSTALL_RPATH "$ORIGIN/..;${KILN_OPENBLAS_DIR}")
  endif()
endforeach()

install(TARGETS kiln_shared kiln_plugin_sdk EXPORT kilnTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
install(TARGETS kiln RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
foreach(plugin ${KILN_INSTALLED_PLUGINS})
  install(TARGETS kiln-${plugin} LIBRARY DESTINATION ${KILN_INSTALL_PLUGINDIR} COMPONENT runtime)
endforeach()
# The PJRT plugin beside libkiln.so (a wheel's jax_plugins/kiln/lib/, a release's priv/lib/).
if(TARGET kiln_pjrt)
  install(TARGETS kiln_pjrt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
endif()

install(FILES include/kiln/kiln.h include/kiln/status.h include/kiln/backend.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kiln COMPONENT dev)
# The IR a plugin reads (kiln_module, kiln_op, kiln_type, ...), with the same relative
# include paths as in src/, so plugins build in-tree and out-of-tree alike.
set(kiln_plugin_includedir ${CMAKE_INSTALL_INCLUDEDIR}/kiln/plugin)
install(FILES src/base/arena.h src/base/source.h src/base/strbuf.h
  DESTINATION ${kiln_plugin_includedir}/base COMPONENT dev)
install(FILES src/ir/ir.h src/ir/elem.def src/ir/ops.def src/ir/print.h src/ir/scalar.h
  DESTINATION ${kiln_plugin_includedir}/ir COMPONENT dev)
install(FILES src/runtime/element.h DESTINATION ${kiln_plugin_includedir}/runtime COMPONENT dev)

# pkg-config: the prefix is found from the .pc file's own folder (${pcfiledir}).
file(RELATIVE_PATH KILN_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
file(RELATIVE_PATH KILN_PC_LIBDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH KILN_PC_INCLUDEDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
string(REGEX REPLACE "/$" "" KILN_PC_TO_PREFIX "${KILN_PC_TO_PREFIX}")
foreach(pc kiln kiln-plugin)
  configure_file(cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc DESTINATION ${KILN_INSTALL_PKGCONFIGDIR} COMPONENT dev)
endforeach()

# CMake package: find_package(kiln 0.1 CONFIG) -> kiln::kiln, kiln::plugin, KILN_PLUGIN_DIR.
install(EXPORT kilnTargets NAMESPACE kiln:: DESTINATION ${KILN_INSTALL_CMAKEDIR} COMPONENT dev)
configure_package_config_file(cmake/kilnConfig.cmake.in ${PROJECT_BINARY_DIR}/cmake/kilnConfig.cmake
  INSTALL_DESTINATION ${KILN_INSTALL_CMAKEDIR}
  PATH_VARS KILN_INSTALL_PLUGINDIR CMAKE_INSTALL_BINDIR)
# Before 1.0 a minor release may break compatibility (docs/ABI.md); from 1.0 the major decides.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(kiln_compat SameMinorVersion)
else()
  set(kiln_compat SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/kilnConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${kiln_compat})
install(FILES ${PROJECT_BINARY_DIR}/cmake/kilnConfig.cmake ${PROJECT_BINARY_DIR}/cmake/kilnConfigVersion.cmake
  DESTINATION ${KILN_INSTALL_CMAKEDIR} COMPONENT dev)
