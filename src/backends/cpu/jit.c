/* Module building, optimisation for the host CPU and JIT compilation with LLVM's ORC
 * LLJIT (see loop.h: kiln_cpu_code_compile). */
#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/IPO.h>
#include <llvm-c/Transforms/InstCombine.h>
#include <llvm-c/Transforms/Scalar.h>
#include <llvm-c/Transforms/Utils.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <llvm/Config/llvm-config.h> /* LLVM_VERSION_STRING (a C header) */

#include "backends/cpu/code_cache.h"
#include "backends/cpu/const_table.h"
#include "backends/cpu/isa.h"
#include "backends/cpu/loopgen.h"
#include "backends/cpu/pool.h"
#include "kiln/kiln.h" /* KILN_VERSION_STRING */
#include "runtime/sha256.h"

bool kiln_cpu_emit_loop(kiln_cpu_gen *g, const kiln_cpu_loop *L, int32_t index, const char *cpu, const char *features,
                        int64_t *grain);

struct kiln_cpu_code {
  LLVMOrcLLJITRef jit;
  uint64_t object_bytes; /* the size of the object code the JIT linked */
  kiln_cpu_code_origin origin;
};

/* KILN_CPU_DUMP_OBJ=DIR: writes each object file the JIT links to DIR/kiln-<pid>-<n>.o,
 * for a disassembler (the test of KILN_CPU_ISA reads them). */
static void dump_object(LLVMMemoryBufferRef obj) {
  static _Atomic unsigned seq;
  const char *dir = getenv("KILN_CPU_DUMP_OBJ");
  if (!dir || !*dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/kiln-%ld-%u.o", dir, (long)getpid(), seq++);
  FILE *f = fopen(path, "wb");
  size_t n = LLVMGetBufferSize(obj);
  if (!f || fwrite(LLVMGetBufferStart(obj), 1, n, f) != n) fprintf(stderr, "kiln: KILN_CPU_DUMP_OBJ: cannot write %s\n", path);
  if (f) fclose(f);
}

/* Counts the object code on its way to the linker (an identity transform). */
static LLVMErrorRef count_object(void *ctx, LLVMMemoryBufferRef *obj) {
  ((kiln_cpu_code *)ctx)->object_bytes += LLVMGetBufferSize(*obj);
  dump_object(*obj);
  return NULL;
}

/* LLVM's host feature list ("+avx2,-amx-tile,+avx512f,...") with what the cap excludes
 * turned off (features beginning with one of its prefixes; LLVM turns off what depends on
 * them). The caller frees it with LLVMDisposeMessage. */
static char *host_features(kiln_cpu_isa_cap cap) {
  static const char *const avx2_off[] = {"avx512", "amx", "avxvnni", NULL};
  static const char *const avx512_off[] = {"amx", "avx512fp16", NULL};
  const char *const *off = cap == KILN_CPU_ISA_AVX2 ? avx2_off : cap == KILN_CPU_ISA_AVX512 ? avx512_off : NULL;
  char *features = LLVMGetHostCPUFeatures();
  for (char *f = features; off && f; f = strchr(f, ',')) {
    f += *f == ',';
    for (int k = 0; off[k] && *f == '+'; k++)
      if (!strncmp(f + 1, off[k], strlen(off[k]))) *f = '-';
  }
  return features;
}

/* Whether loops for these features use 512-bit vectors. */
static bool wide_features(const char *features) { return strstr(features, "+avx512f") != NULL; }

static pthread_once_t g_init_once = PTHREAD_ONCE_INIT;
static bool g_init_ok;

static void init_llvm(void) {
  g_init_ok = !LLVMInitializeNativeTarget() && !LLVMInitializeNativeAsmPrinter();
}

static kiln_status from_llvm_error(LLVMErrorRef e, const char *what) {
  char *msg = LLVMGetErrorMessage(e);
  kiln_status st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: %s: %s", what, msg);
  LLVMDisposeErrorMessage(msg);
  return st;
}

/* A target machine for the host's triple and the given CPU and features; quick: LLVM's
 * fast instruction selection and register allocation (CodeGenLevelNone). */
static kiln_status target_machine(const char *cpu, const char *features, bool quick, LLVMTargetMachineRef *out) {
  char *triple = LLVMGetDefaultTargetTriple();
  LLVMTargetRef target;
  char *err = NULL;
  kiln_status st = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &err))
    st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: no LLVM target for %s: %s", triple, err ? err : "");
  else
    *out = LLVMCreateTargetMachine(target, triple, cpu, features, quick ? LLVMCodeGenLevelNone : LLVMCodeGenLevelAggressive,
                                   LLVMRelocDefault, LLVMCodeModelJITDefault);
  LLVMDisposeMessage(err);
  LLVMDisposeMessage(triple);
  return st;
}

/* A driver (loopgen.h) calls its loops over constant ranges, often of one point: once they
 * are inlined, their loops over rows and vectors have constant trip counts, which these
 * fold away (a scalar loop's body then stays in registers across iterations where the
 * kernels' stores allow). */
static void run_driver_passes(LLVMModuleRef m) {
  LLVMPassManagerRef pm = LLVMCreatePassManager();
  LLVMAddSCCPPass(pm);
  LLVMAddInstructionCombiningPass(pm);
  LLVMAddCFGSimplificationPass(pm);
  LLVMAddLoopRotatePass(pm);
  LLVMAddIndVarSimplifyPass(pm);
  LLVMAddLoopDeletionPass(pm);
  LLVMAddLoopUnrollPass(pm);
  LLVMAddInstructionCombiningPass(pm);
  LLVMAddCFGSimplificationPass(pm);
  LLVMAddLICMPass(pm);
  LLVMAddGVNPass(pm);
  LLVMAddDeadStoreEliminationPass(pm);
  LLVMAddAggressiveDCEPass(pm);
  LLVMAddCFGSimplificationPass(pm);
  LLVMRunPassManager(pm, m);
  LLVMDisposePassManager(pm);
}

static kiln_status optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, bool quick) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  char *err = NULL;
  kiln_status st = NULL;
  LLVMSetTarget(m, triple);
  LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, layout);
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &err)) {
    st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: generated code does not verify: %.400s", err ? err : "");
  } else {
    /* The loops are vectorised already: a short pipeline (inline the math, registers for
     * the allocas, simplify, hoist invariants out of the loops) instead of -O3's loop
     * passes, which cost most of the compile time and find nothing more. Quick code gets
     * the first two only. */
    LLVMPassManagerRef pm = LLVMCreatePassManager();
    LLVMAddAnalysisPasses(tm, pm);
    LLVMAddAlwaysInlinerPass(pm);
    LLVMAddPromoteMemoryToRegisterPass(pm);
    if (!quick) {
      LLVMAddEarlyCSEPass(pm);
      LLVMAddInstructionCombiningPass(pm);
      LLVMAddCFGSimplificationPass(pm);
      LLVMAddLICMPass(pm);
      LLVMAddGVNPass(pm);
      LLVMAddInstructionCombiningPass(pm);
      LLVMAddAggressiveDCEPass(pm);
      LLVMAddCFGSimplificationPass(pm);
    }
    LLVMRunPassManager(pm, m);
    LLVMDisposePassManager(pm);
    if (!quick && LLVMGetNamedFunction(m, KILN_CPU_DRIVER_NAME)) run_driver_passes(m);
    if (!quick) kiln_cpu_constants_to_table(m); /* last: nothing may fold the loads back */
  }
  LLVMDisposeMessage(err);
  LLVMDisposeTargetData(layout);
  LLVMDisposeMessage(triple);
  return st;
}

static void hash_text(kiln_sha256 *h, const char *text) { kiln_sha256_update(h, text, strlen(text) + 1); }

/* The compile cache's key for module m (before optimisation) compiled by tm: a SHA-256 of
 * everything the object code depends on. The module's bitcode holds what the code
 * generator made of the program (and the math library); the triple, data layout, CPU and
 * features (after KILN_CPU_ISA's cap) what LLVM targets; the versions and the plugin's
 * build ID the code that optimises and compiles it (passes, options). */
static kiln_status module_key(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *cpu, const char *features, bool quick,
                              uint8_t key[KILN_CODE_CACHE_KEY_SIZE]) {
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
  if (!bc) return KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: could not write the module's bitcode");
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
  char *layout_text = LLVMCopyStringRepOfTargetData(layout);
  size_t id_size;
  const uint8_t *id = kiln_code_cache_build_id(&id_size);
  uint8_t format[4] = {KILN_CODE_CACHE_FORMAT & 0xff, (KILN_CODE_CACHE_FORMAT >> 8) & 0xff,
                       (KILN_CODE_CACHE_FORMAT >> 16) & 0xff, KILN_CODE_CACHE_FORMAT >> 24};
  uint8_t id_len = (uint8_t)id_size;
  kiln_sha256 h;
  kiln_sha256_init(&h);
  hash_text(&h, "kiln cpu object code");
  kiln_sha256_update(&h, format, sizeof format);
  hash_text(&h, KILN_VERSION_STRING);
  hash_text(&h, LLVM_VERSION_STRING);
  kiln_sha256_update(&h, &id_len, 1);
  kiln_sha256_update(&h, id, id_size);
  hash_text(&h, triple);
  hash_text(&h, layout_text);
  hash_text(&h, cpu);
  hash_text(&h, features);
  hash_text(&h, quick ? "quick" : "optimised");
  kiln_sha256_update(&h, LLVMGetBufferStart(bc), LLVMGetBufferSize(bc));
  kiln_sha256_final(&h, key);
  LLVMDisposeMessage(layout_text);
  LLVMDisposeTargetData(layout);
  LLVMDisposeMessage(triple);
  LLVMDisposeMemoryBuffer(bc);
  return NULL;
}

/* The object code of module m for tm: the compile cache's entry for it when there is one,
 * otherwise m optimised and compiled here with tm's settings, then stored. Both ways the
 * JIT links an object file, so cached and fresh code run alike. KILN_CPU_DUMP_IR=2 (the
 * optimised module) always compiles. Errors of the cache are warned about (once) and
 * otherwise ignored. */
static kiln_status object_code(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *cpu, const char *features,
                               bool quick, LLVMMemoryBufferRef *out, kiln_cpu_code_origin *out_origin) {
  const kiln_code_cache *cache = kiln_code_cache_default();
  const char *dump = getenv("KILN_CPU_DUMP_IR");
  bool dump_optimised = dump && *dump == '2';
  uint8_t key[KILN_CODE_CACHE_KEY_SIZE];
  bool cached = cache->dir != NULL;
  if (cached) {
    kiln_status st = module_key(m, tm, cpu, features, quick, key);
    cached = !st;
    kiln_code_cache_warn(st);
  }
  void *data = NULL;
  size_t size = 0;
  if (cached && !dump_optimised && kiln_code_cache_load(cache, key, &data, &size)) {
    *out = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, size, "kiln-cached-code");
    free(data);
    *out_origin = KILN_CPU_CODE_CACHE_HIT;
    return NULL;
  }
  KILN_RETURN_IF_ERROR(optimise(m, tm, quick));
  if (dump_optimised) {
    char *text = LLVMPrintModuleToString(m);
    fprintf(stderr, "%s\n", text);
    LLVMDisposeMessage(text);
  }
  char *err = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, out)) {
    kiln_status st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: could not compile the generated code: %.400s", err ? err : "");
    LLVMDisposeMessage(err);
    return st;
  }
  LLVMDisposeMessage(err);
  *out_origin = cached ? KILN_CPU_CODE_CACHE_MISS : KILN_CPU_CODE_UNCACHED;
  if (cached) kiln_code_cache_warn(kiln_code_cache_store(cache, key, LLVMGetBufferStart(*out), LLVMGetBufferSize(*out)));
  return NULL;
}

/* A compile's loops go to LLVM in parts, each a module of its own (its own context,
 * target machine, cache entry and object file) compiled on a thread of its own (the first
 * on the caller's): as many parts as the pool has threads (the cores the process may
 * use), at most MAX_PARTS, each of at least PART_MIN_LOOPS consecutive loops. LLVM's time
 * is about 1.2 ms a loop with quick settings and 3 to 10 optimised (AMD Zen 3), and a
 * module has a cost of its own: cnn_large's 18 loops in four quick parts took 5-10 ms of
 * code generation each, on 2 cores longer than in two. The split, and so the cache's keys,
 * follows the thread count: a process with another KILN_CPU_THREADS compiles its own
 * entries. */
enum { PART_MIN_LOOPS = 4, MAX_PARTS = 8 };

typedef struct code_part {
  int32_t first, last;
  LLVMMemoryBufferRef obj;
  kiln_cpu_code_origin origin;
  kiln_status st;
} code_part;

typedef struct code_job {
  kiln_cpu_loop *const *loops;
  const char *cpu, *features;
  bool quick;
  const kiln_cpu_driver *driver; /* NULL: none (kiln_cpu_code_compile_driver) */
  code_part *parts;
  int32_t num_parts;
  _Atomic int32_t next; /* the next part a thread takes */
} code_job;

/* The job's driver added to g's module of its n loops, which become internal and always
 * inlined into it. */
static kiln_status add_driver(kiln_cpu_gen *g, const code_job *job, int32_t n) {
  LLVMValueRef *fns = calloc((size_t)n + 1, sizeof *fns);
  if (!fns) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  unsigned inline_kind = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  for (int32_t i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "kiln_loop_%d", (int)i);
    fns[i] = LLVMGetNamedFunction(g->m, name);
    LLVMSetLinkage(fns[i], LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->c, inline_kind, 0));
  }
  LLVMValueRef fn = job->driver->emit(g, fns, job->driver->ctx);
  free(fns);
  if (!fn) return KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: could not generate a driver");
  LLVMSetValueName2(fn, KILN_CPU_DRIVER_NAME, strlen(KILN_CPU_DRIVER_NAME));
  kiln_cpu_set_target_attrs(g, fn, job->cpu, job->features);
  return NULL;
}

/* Part pt's module: its loops emitted, optimised and compiled, or loaded from the cache. */
static void compile_part(const code_job *job, code_part *pt) {
  kiln_cpu_gen g = {.c = LLVMContextCreate()};
  g.m = LLVMModuleCreateWithNameInContext("kiln", g.c);
  g.b = LLVMCreateBuilderInContext(g.c);
  g.i1 = LLVMInt1TypeInContext(g.c);
  g.i8 = LLVMInt8TypeInContext(g.c);
  g.i16 = LLVMInt16TypeInContext(g.c);
  g.i32 = LLVMInt32TypeInContext(g.c);
  g.i64 = LLVMInt64TypeInContext(g.c);
  g.f16 = LLVMHalfTypeInContext(g.c);
  g.f32 = LLVMFloatTypeInContext(g.c);
  g.f64 = LLVMDoubleTypeInContext(g.c);
  g.ptr = LLVMPointerType(g.i8, 0);
  g.vector_bytes = wide_features(job->features) ? 64 : 32;
  g.f16_native = strstr(job->features, "+avx512fp16") != NULL;
  g.f16c = strstr(job->features, "+f16c") != NULL && !g.f16_native;
  g.quick = job->quick;
  g.threads = kiln_cpu_pool_threads(kiln_cpu_pool_shared());
  g.amd = kiln_cpu_host_is_amd();
  kiln_status st = NULL;
  for (int32_t i = pt->first; i < pt->last && !st; i++) {
    int64_t grain, *into = job->driver ? &grain : &job->loops[i]->grain; /* a driver's loops are compiled already */
    if (!kiln_cpu_emit_loop(&g, job->loops[i], i, job->cpu, job->features, into))
      st = KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: could not generate code for loop %d", (int)i);
  }
  if (!st && job->driver) st = add_driver(&g, job, pt->last);
  LLVMDisposeBuilder(g.b);
  const char *dump = getenv("KILN_CPU_DUMP_IR"); /* for debugging the code generator */
  if (!st && dump && *dump == '1') {
    char *text = LLVMPrintModuleToString(g.m);
    fprintf(stderr, "%s\n", text);
    LLVMDisposeMessage(text);
  }
  LLVMTargetMachineRef tm = NULL;
  if (!st) st = target_machine(job->cpu, job->features, job->quick, &tm);
  if (!st) st = object_code(g.m, tm, job->cpu, job->features, job->quick, &pt->obj, &pt->origin);
  if (tm) LLVMDisposeTargetMachine(tm);
  LLVMDisposeModule(g.m);
  LLVMContextDispose(g.c);
  pt->st = st;
}

static void *part_thread(void *arg) {
  code_job *job = arg;
  for (int32_t k; (k = atomic_fetch_add(&job->next, 1)) < job->num_parts;) compile_part(job, &job->parts[k]);
  return NULL;
}

/* Loops [0, n) in at most max_parts parts of at least PART_MIN_LOOPS (one part when n is
 * smaller), into parts; returns how many. */
static int32_t split_parts(int32_t n, int64_t max_parts, code_part *parts) {
  int64_t np = n / PART_MIN_LOOPS;
  if (np > max_parts) np = max_parts;
  if (np > MAX_PARTS) np = MAX_PARTS;
  if (np < 1) np = 1;
  for (int64_t k = 0; k < np; k++) parts[k] = (code_part){.first = (int32_t)(n * k / np), .last = (int32_t)(n * (k + 1) / np)};
  return (int32_t)np;
}

static bool g_wide;
static void find_wide(void) {
  kiln_cpu_isa_cap cap;
  pthread_once(&g_init_once, init_llvm);
  kiln_status st = kiln_cpu_isa_setup(&cap);
  if (!g_init_ok || st) {
    kiln_status_free(st);
    return;
  }
  char *features = host_features(cap);
  g_wide = wide_features(features);
  LLVMDisposeMessage(features);
}

bool kiln_cpu_code_wide_vectors(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, find_wide);
  return g_wide;
}

/* kiln_cpu_code_compile, or with driver kiln_cpu_code_compile_driver (out_fns[0]: the
 * driver's entry). */
static kiln_status compile_code(kiln_cpu_loop *const *loops, int32_t n, bool quick, const kiln_cpu_driver *driver,
                                kiln_cpu_code **out_code, kiln_cpu_loop_fn *out_fns) {
  *out_code = NULL;
  pthread_once(&g_init_once, init_llvm);
  if (!g_init_ok) return KILN_STATUS(KILN_STATUS_INTERNAL, "cpu: LLVM's native target did not initialise");
  kiln_cpu_isa_cap cap;
  KILN_RETURN_IF_ERROR(kiln_cpu_isa_setup(&cap));
  kiln_cpu_code *code = calloc(1, sizeof *code);
  if (!code) return KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_status st = NULL;
  for (int32_t i = 0; i < n && !st; i++) { /* before the threads: nodes may be shared between loops */
    kiln_cpu_node **nodes = calloc((size_t)loops[i]->num_nodes + 1, sizeof *nodes);
    if (!nodes) {
      st = KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
      break;
    }
    kiln_cpu_loop_nodes(loops[i], nodes);
    if (!loops[i]->slots) kiln_cpu_collapse(loops[i], nodes); /* a template is collapsed by its family's plan */
    free(nodes);
  }
  char *cpu = LLVMGetHostCPUName(), *features = host_features(cap);
  code_part parts[MAX_PARTS];
  code_job job = {loops, cpu, features, quick, driver, parts,
                  split_parts(n, driver ? 1 : kiln_cpu_pool_threads(kiln_cpu_pool_shared()), parts), 0};
  if (!st) {
    pthread_t helper[MAX_PARTS];
    int32_t helpers = 0;
    while (helpers < job.num_parts - 1 &&
           pthread_create(&helper[helpers], NULL, part_thread, &job) == 0) /* none: the caller compiles them all */
      helpers++;
    part_thread(&job);
    for (int32_t h = 0; h < helpers; h++) pthread_join(helper[h], NULL);
    bool all_hit = true, cached = false;
    for (int32_t k = 0; k < job.num_parts; k++) {
      if (!st) st = job.parts[k].st;
      else kiln_status_free(job.parts[k].st);
      all_hit &= job.parts[k].origin == KILN_CPU_CODE_CACHE_HIT;
      cached |= job.parts[k].origin != KILN_CPU_CODE_UNCACHED;
    }
    code->origin = all_hit ? KILN_CPU_CODE_CACHE_HIT : cached ? KILN_CPU_CODE_CACHE_MISS : KILN_CPU_CODE_UNCACHED;
  }
  LLVMTargetMachineRef tm = NULL;
  LLVMErrorRef e = NULL;
  if (!st) st = target_machine(cpu, features, quick, &tm);
  if (!st) {
    /* The JIT is made for the same (capped) CPU and features; it takes tm. */
    LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
    tm = NULL;
    e = LLVMOrcCreateLLJIT(&code->jit, jb);
    if (e) st = from_llvm_error(e, "creating the JIT");
  }
  if (tm) LLVMDisposeTargetMachine(tm);
  if (!st) LLVMOrcObjectTransformLayerSetTransform(LLVMOrcLLJITGetObjTransformLayer(code->jit), count_object, code);
  if (!st) { /* the code may call memset/memcpy (the optimiser makes them from loops) */
    LLVMOrcDefinitionGeneratorRef gen;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(code->jit), NULL, NULL);
    if (e) st = from_llvm_error(e, "resolving the C library");
    else LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(code->jit), gen);
  }
  for (int32_t k = 0; k < job.num_parts; k++) { /* the JIT owns an object from here, also when adding fails */
    LLVMMemoryBufferRef obj = job.parts[k].obj;
    if (!obj) continue;
    if (st) {
      LLVMDisposeMemoryBuffer(obj);
      continue;
    }
    e = LLVMOrcLLJITAddObjectFile(code->jit, LLVMOrcLLJITGetMainJITDylib(code->jit), obj);
    if (e) st = from_llvm_error(e, "adding code");
  }
  for (int32_t i = 0; i < (driver ? 1 : n) && !st; i++) {
    char name[32];
    snprintf(name, sizeof name, "kiln_loop_%d", (int)i);
    LLVMOrcExecutorAddress addr = 0;
    e = LLVMOrcLLJITLookup(code->jit, &addr, driver ? KILN_CPU_DRIVER_NAME : name);
    if (e) st = from_llvm_error(e, "compiling");
    else out_fns[i] = (kiln_cpu_loop_fn)(uintptr_t)addr;
  }
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  if (st) {
    kiln_cpu_code_destroy(code);
    return st;
  }
  *out_code = code;
  return NULL;
}

kiln_status kiln_cpu_code_compile(kiln_cpu_loop *const *loops, int32_t n, bool quick, kiln_cpu_code **out_code,
                                  kiln_cpu_loop_fn *out_fns) {
  return compile_code(loops, n, quick, NULL, out_code, out_fns);
}

kiln_status kiln_cpu_code_compile_driver(kiln_cpu_loop *const *loops, int32_t n, const kiln_cpu_driver *driver,
                                         kiln_cpu_code **out_code, void (**out_driver)(void)) {
  kiln_cpu_loop_fn fn = NULL;
  kiln_status st = compile_code(loops, n, false, driver, out_code, &fn);
  *out_driver = st ? NULL : (void (*)(void))fn;
  return st;
}

void kiln_cpu_code_destroy(kiln_cpu_code *code) {
  if (!code) return;
  if (code->jit) {
    LLVMErrorRef e = LLVMOrcDisposeLLJIT(code->jit);
    if (e) LLVMConsumeError(e);
  }
  free(code);
}

uint64_t kiln_cpu_code_bytes(const kiln_cpu_code *code) { return code ? code->object_bytes : 0; }

kiln_cpu_code_origin kiln_cpu_code_origin_of(const kiln_cpu_code *code) {
  return code ? code->origin : KILN_CPU_CODE_UNCACHED;
}
