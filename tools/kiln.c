/* kiln: the command-line driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/source.h"
#include "bytecode/bytecode.h"
#include "commands.h"
#include "ir/ir.h"
#include "kiln/kiln.h"
#include "parse/parse.h"
#include "select.h"
#include "spmd/spmd.h"

typedef struct command {
  const char *name;
  const char *usage;
  const char *help;
  int (*run)(int argc, char **argv);
} command;

static int cmd_print(int argc, char **argv);

static const command k_commands[] = {
    {"print", "kiln print [--no-verify] [--partitioned] FILE...",
     "Parses each FILE (MLIR text: StableHLO's pretty forms or the generic form), verifies it\n"
     "and prints it back in the pretty form. A file with `// -----` lines is split there and\n"
     "each piece is printed as its own module, separated by the same marker.\n\n"
     "  --no-verify     print without running the verifier\n"
     "  --partitioned   a sharded program (mhlo.num_partitions > 1): print the per-device\n"
     "                  program the partitioner makes of @main, which every partition runs\n",
     cmd_print},
    {"run", "kiln run FILE.mlir [--function NAME] [--input X.npy]... [--dim N]... [--output-dir DIR] " KILN_CLI_DEVICE_USAGE,
     "Runs a function of a module (default @main) on NumPy .npy inputs, one --input per\n"
     "parameter in order (every NumPy dtype; bf16, f8 and the other ml_dtypes types under\n"
     "their ml_dtypes names). With --output-dir the results are written as result_N.npy;\n"
     "otherwise a summary of each result is printed. Devices passed over are named on\n"
     "stderr with the reason. A shape-polymorphic function (`?` dimensions) takes inputs of\n"
     "any size; its leading integer scalar parameters (dimension arguments) may be left out:\n"
     "they are the --dim values, in order, or else the one size of the inputs' `?` dims.\n\n"
     KILN_CLI_DEVICE_HELP,
     kiln_cmd_run},
    {"check", "kiln check [--jobs N] [--timeout SECONDS] " KILN_CLI_DEVICE_USAGE " PATH...",
     "Runs every test case of the .mlir files given or found under the folders given: each\n"
     "`// -----` piece is a case; it runs @main, or every function without arguments, and\n"
     "evaluates the check.* ops and @check.* custom calls. Cases run in parallel, each in its\n"
     "own process with a time limit (default 60 s) and a memory limit, so a crash or a runaway\n"
     "case fails only that case. Prints one line per failed case and `N passed, N failed`.\n"
     "A shape-polymorphic @main given no arguments runs on made-up inputs with every `?` dim\n"
     "and dimension argument at 1, then at 13, twice per size, compared with the interpreter.\n\n"
     "  --jobs N          cases run at once (default: the number of cores)\n"
     "  --timeout S       per-case time limit in seconds\n" KILN_CLI_DEVICE_HELP,
     kiln_cmd_check},
    {"devices", "kiln devices " KILN_CLI_DEVICE_USAGE,
     "Lists the backend plugins found (in kiln-plugins/ next to libkiln.so and the folders\n"
     "of the config file), whether each can run here and why not, and which device the\n"
     "device list chooses.\n\n" KILN_CLI_DEVICE_HELP,
     kiln_cmd_devices},
    {"bench",
     "kiln bench FILE.mlir [--function NAME] [--iterations N] [--warmup N] [--input X.npy]... [--size N]... "
     KILN_CLI_DEVICE_USAGE,
     "Compiles a function (default @main) once and times runs of it. Inputs come from the\n"
     "--input files, one per parameter in order, or else are made up for every parameter\n"
     "(seeded: floats in [-1, 1), integers in [-4, 4] or [0, 8] unsigned, bools; with\n"
     "--size N, a shape-polymorphic function's `?` dims and dimension arguments are N;\n"
     "--size given several times measures each size in turn with the one executable, each\n"
     "block of lines after a line \"size N\"). Warm-up runs come first; after the timed runs\n"
     "it prints four lines: the compile time (parse, verify, compile; for a shape-polymorphic\n"
     "function also the signatures compiled so far and the LLVM compiles their code took)\n"
     "and the first result's (the compile and the first run), the\n"
     "median, least, 99th percentile (nearest rank: the\n"
     "ceil(0.99 N)-th fastest of all N timed runs, so the slowest when N < 100) and\n"
     "greatest run time, and the first run's time (the first execution after compiling:\n"
     "the first warm-up run, or with --warmup 0 the first timed run), the executable's\n"
     "temporaries (scratch memory per run, as its plugin reports it, or \"not reported\")\n"
     "and the ops its plugin hands to its interpreter instead of compiling them,\n"
     "and the process's peak resident memory during the timed runs, with how far it rose\n"
     "above the resident size just before them. On a device with tiers (cpu: KILN_CPU_TIER)\n"
     "the timed runs wait for its final tier, and a fifth line says which tier they used,\n"
     "the runs each tier took and when the optimised code was ready.\n\n"
     "  --iterations N    timed runs (default: about a second's worth, at least 10, as the\n"
     "                    warm-up runs after the first, topped up with untimed runs to 0.1 s,\n"
     "                    estimate it)\n"
     "  --warmup N        untimed runs first (default 3)\n" KILN_CLI_DEVICE_HELP,
     kiln_cmd_bench},
};
enum { NUM_COMMANDS = sizeof k_commands / sizeof k_commands[0] };

static void usage(FILE *f) {
  fprintf(f,
          "kiln: a compiler and runtime for StableHLO\n\n"
          "usage: kiln COMMAND [ARGS]\n\ncommands:\n");
  for (int i = 0; i < NUM_COMMANDS; i++) fprintf(f, "  %s\n", k_commands[i].usage);
  fprintf(f, "\n`kiln COMMAND --help` describes one command.\n");
}

static bool wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return true;
  return false;
}

typedef struct print_ctx {
  bool verify, partitioned;
  int pieces;
  kiln_status first_error;
} print_ctx;

/* The per-device program of a sharded module's @main, in place. */
static kiln_status partition(kiln_module *m) {
  const kiln_attr *a = kiln_op_attr(m->op, "mhlo.num_partitions");
  int64_t n = a && a->kind == KILN_ATTR_INT ? kiln_attr_int(a) : 1;
  kiln_op *f = kiln_module_lookup_func(m, "main");
  if (!f) return KILN_STATUS(KILN_STATUS_NOT_FOUND, "%s: no function @main to partition", m->name);
  if (n < 1 || n > KILN_SPMD_MAX_DEVICES)
    return KILN_STATUS(KILN_STATUS_INVALID_ARGUMENT, "%s: mhlo.num_partitions = %lld (1 to %d are supported)", m->name,
                       (long long)n, KILN_SPMD_MAX_DEVICES);
  kiln_arena *arena = kiln_arena_create(0);
  kiln_spmd_plan plan;
  kiln_status st = arena ? kiln_spmd_partition(m, f, (int32_t)n, arena, &plan)
                         : KILN_STATUS(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  kiln_arena_destroy(arena);
  return st;
}

static kiln_status print_piece(const kiln_source *piece, void *user) {
  print_ctx *ctx = user;
  kiln_module *m;
  kiln_status st;
  if (kiln_bytecode_sniff(piece->text, piece->len)) /* read and verified at once */
    st = kiln_bytecode_read((const uint8_t *)piece->text, piece->len, piece->name, &m);
  else if (!(st = kiln_parse_module(piece, &m)) && ctx->verify)
    st = kiln_verify_module(m, piece);
  if (!st && ctx->partitioned) st = partition(m);
  char *text = NULL;
  if (!st) st = kiln_print_module(m, &text, NULL);
  kiln_module_destroy(m);
  if (st) return st;
  if (ctx->pieces++) fputs("// -----\n", stdout);
  fputs(text, stdout);
  free(text);
  return NULL;
}

static int cmd_print(int argc, char **argv) {
  print_ctx ctx = {true, false, 0, NULL};
  int files = 0, rc = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--no-verify")) {
      ctx.verify = false;
      continue;
    }
    if (!strcmp(argv[i], "--partitioned")) {
      ctx.partitioned = true;
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "kiln print: unknown option '%s'\nusage: %s\n", argv[i], k_commands[0].usage);
      return 1;
    }
    files++;
    kiln_source src;
    kiln_status st = kiln_source_read(argv[i], &src);
    /* bytecode is one module (and may hold "// -----" bytes): never split */
    if (!st) st = kiln_bytecode_sniff(src.text, src.len) ? print_piece(&src, &ctx) : kiln_source_split(&src, print_piece, &ctx);
    if (st) {
      fprintf(stderr, "%s\n", kiln_status_message(st));
      kiln_status_free(st);
      rc = 1;
    }
    kiln_source_free(&src);
  }
  if (!files) {
    fprintf(stderr, "kiln print: no input file\nusage: %s\n", k_commands[0].usage);
    return 1;
  }
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("kiln %s\n", kiln_version());
    return 0;
  }
  for (int i = 0; i < NUM_COMMANDS; i++) {
    if (strcmp(argv[1], k_commands[i].name)) continue;
    if (wants_help(argc - 1, argv + 1)) {
      printf("usage: %s\n\n%s", k_commands[i].usage, k_commands[i].help);
      return 0;
    }
    return k_commands[i].run(argc - 1, argv + 1);
  }
  fprintf(stderr, "kiln: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return 1;
}
