# The cpu backend plugin (libkiln-cpu.so): LLVM 14 (ORC LLJIT) code generation, oneDNN for
# contractions (built on OpenMP: linked for its thread-count calls; the threads are the
# backend's own pool, src/backends/cpu/pool.h). Debian:
# llvm-14-dev, libdnnl-dev; tools/dev.sh installs them. Without them the plugin is skipped.
find_package(LLVM 14 CONFIG QUIET PATHS /usr/lib/llvm-14/lib/cmake/llvm NO_DEFAULT_PATH)
find_package(dnnl CONFIG QUIET)
find_package(OpenMP QUIET COMPONENTS C)
if(NOT LLVM_FOUND OR NOT dnnl_FOUND OR NOT OpenMP_C_FOUND)
  message(WARNING "the cpu plugin is not built: it needs LLVM 14 (llvm-14-dev), oneDNN (libdnnl-dev) and OpenMP")
  set(KILN_HAVE_CPU OFF)
  return()
endif()
set(KILN_HAVE_CPU ON)

# Passes over the IR that the cpu compiler runs (src/passes/; the inliner is in the base,
# which the partitioner uses too).
add_library(kiln_passes_objects OBJECT src/passes/canonicalize.c src/passes/combine_collectives.c src/passes/cse.c src/passes/fusion.c
            src/passes/buffer_plan.c src/passes/refine_shapes.c src/passes/rewrite.c src/passes/loop_products.c
            src/passes/unroll_loops.c src/passes/select_branches.c)
target_include_directories(kiln_passes_objects PUBLIC include PRIVATE src)
set_target_properties(kiln_passes_objects PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)

set(KILN_CPU_SOURCES
  src/backends/cpu/code_cache.c
  src/backends/cpu/compile.c
  src/backends/cpu/collapse.c
  src/backends/cpu/concat.c
  src/backends/cpu/control.c
  src/backends/cpu/conv.c
  src/backends/cpu/conv_bias.c
  src/backends/cpu/conv_dims.c
  src/backends/cpu/const_table.c
  src/backends/cpu/device.c
  src/backends/cpu/donate.c
  src/backends/cpu/dynamic_slice.c
  src/backends/cpu/exec.c
  src/backends/cpu/family.c
  src/backends/cpu/fft.c
  src/backends/cpu/gather.c
  src/backends/cpu/isa.c
  src/backends/cpu/jit.c
  src/backends/cpu/loopgen.c
  src/backends/cpu/loopgen_complex.c
  src/backends/cpu/loopnest.c
  src/backends/cpu/native.c
  src/backends/cpu/native_convert.c
  src/backends/cpu/native_dgemm.c
  src/backends/cpu/native_ids.c
  src/backends/cpu/native_reduce_precision.c
  src/backends/cpu/native_rng.c
  src/backends/cpu/native_top_k.c
  src/backends/cpu/native_transpose.c
  src/backends/cpu/parallel.c
  src/backends/cpu/scatter.c
  src/backends/cpu/scatter_combine.c
  src/backends/cpu/sort.c
  src/backends/cpu/specialize.c
  src/backends/cpu/tier.c
  src/backends/cpu/tensor.c
  src/backends/cpu/tiling.c
  src/backends/cpu/while_code.c
  src/backends/cpu/while_driver.c
  src/backends/cpu/window.c
  src/backends/cpu/window_kernels.c
  src/backends/cpu/dnnl_ops.c
  src/backends/cpu/dnnl_gemm.c
  src/backends/cpu/dnnl_dot.c
  src/backends/cpu/dnnl_conv.c
  src/backends/cpu/dnnl_conv_run.c
  src/backends/cpu/dnnl_convert.c
  src/backends/cpu/dnnl_split.c
  src/runtime/sha256.c # the compile cache's keys and checksums (a copy of its own, hidden)
)
# The vectorised math library (llvm_math.h), one file per function family.
file(GLOB KILN_CPU_MATH_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/backends/cpu/llvm_math*.c)
add_library(kiln_cpu_objects OBJECT ${KILN_CPU_SOURCES} ${KILN_CPU_MATH_SOURCES})
target_include_directories(kiln_cpu_objects PUBLIC include PRIVATE src ${LLVM_INCLUDE_DIRS})
target_link_libraries(kiln_cpu_objects PUBLIC DNNL::dnnl OpenMP::OpenMP_C)
set_target_properties(kiln_cpu_objects PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)

# The thread pool and its view of the host's load (pool.h, load.h), which tests and
# bench/pool_bench.c build on too.
add_library(kiln_pool_objects OBJECT src/backends/cpu/pool.c src/backends/cpu/load.c)
target_include_directories(kiln_pool_objects PRIVATE include src)
set_target_properties(kiln_pool_objects PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)

# The FFT's passes built once per instruction set (fft_kernels.h); fft.c picks one at run
# time by the host and KILN_CPU_ISA.
add_library(kiln_fft_kernel_objects OBJECT src/backends/cpu/fft_kernels_sse2.c src/backends/cpu/fft_kernels_avx2.c
            src/backends/cpu/fft_kernels_avx512.c)
target_include_directories(kiln_fft_kernel_objects PRIVATE include src)
set_target_properties(kiln_fft_kernel_objects PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
set_source_files_properties(src/backends/cpu/fft_kernels_avx2.c PROPERTIES COMPILE_OPTIONS "-mavx2;-mfma;-ffp-contract=fast")
set_source_files_properties(src/backends/cpu/fft_kernels_avx512.c PROPERTIES COMPILE_OPTIONS
                            "-mavx2;-mfma;-mavx512f;-mavx512dq;-mavx512vl;-mprefer-vector-width=512;-ffp-contract=fast")

# The f32 product for AVX2 and FMA hosts (sgemm.h) and the i8 one for AVX2 hosts (igemm.h),
# used when the host has them.
add_library(kiln_gemm_objects OBJECT src/backends/cpu/sgemm_avx2.c src/backends/cpu/igemm_avx2.c
            src/backends/cpu/transpose_avx2.c)
target_include_directories(kiln_gemm_objects PRIVATE include src)
set_target_properties(kiln_gemm_objects PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
target_compile_options(kiln_gemm_objects PRIVATE -mavx2 -mfma)

kiln_plugin(cpu $<TARGET_OBJECTS:kiln_cpu_objects> $<TARGET_OBJECTS:kiln_pool_objects> $<TARGET_OBJECTS:kiln_fft_kernel_objects> $<TARGET_OBJECTS:kiln_gemm_objects> $<TARGET_OBJECTS:kiln_passes_objects>
            $<TARGET_OBJECTS:kiln_interp_objects> $<TARGET_OBJECTS:kiln_lapack_objects> src/backends/cpu/plugin.c)
target_include_directories(kiln-cpu PRIVATE ${LLVM_INCLUDE_DIRS})
target_link_directories(kiln-cpu PRIVATE ${LLVM_LIBRARY_DIRS})
target_link_libraries(kiln-cpu PRIVATE LLVM-14 DNNL::dnnl OpenMP::OpenMP_C kiln_openblas Threads::Threads m)
add_dependencies(kiln kiln-cpu)
