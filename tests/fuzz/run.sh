#!/usr/bin/env bash
# Builds a libFuzzer target with clang (ASan + UBSan) into build-fuzz/ and fuzzes it for
# SECONDS: the MLIR text front end (fuzz_parse), or the bytecode reader (fuzz_bytecode)
# with TARGET=bytecode (its corpus is build-fuzz/corpus-bytecode, seeded with the .mlir.bc
# files and tests/bytecode's artifacts (Shardy ones among them), its findings go to
# tests/fuzz/regressions/bytecode/, replayed by
# bytecode.regressions), or the PJRT plugin's compile options and PJRT_Client_Compile
# (fuzz_pjrt) with TARGET=pjrt (corpus-pjrt, seeded with the .mlir.bc files behind an empty
# options prefix; findings go to tests/fuzz/regressions/pjrt/), or shape-polymorphic
# programs at random sizes on the interpreter and the cpu device (fuzz_sizes) with
# TARGET=sizes (corpus-sizes, seeded with the files of SEED_DIR/testdata/dynamic behind
# four size bytes; findings go to tests/fuzz/regressions/sizes/).
#
#   tests/fuzz/run.sh SECONDS [SEED_DIR]
#
# The corpus (build-fuzz/corpus, kept between runs) is seeded with every .mlir file under
# SEED_DIR (default: ../shared/conformance beside the project), tests/parse/malformed,
# tests/parse/sdy and tests/fuzz/regressions. Prints the number of executions; exits
# non-zero on a finding.
# Every crashing input is copied to tests/fuzz/regressions/ (to be minimised with
# `build-fuzz/tests/fuzz/fuzz_parse -minimize_crash=1 -runs=20000 FILE` and replayed by
# test_fuzz_replay). Environment: JOBS (parallel fuzzing processes, default 1),
# FUZZ_BUILD (build folder, default build-fuzz). tests/fuzz/mlir.dict is the token dictionary.
# The corpus grows with every run; to shrink it, run
# `fuzz_parse -merge=1 -max_len=65536 NEW_DIR build-fuzz/corpus` and put NEW_DIR in its place.
set -euo pipefail
# All of it is one function, read before it runs, so that editing this file while a run is
# going does not change that run.
main() {
secs=${1:?usage: tests/fuzz/run.sh SECONDS [SEED_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seeds=${2:-$root/../shared/conformance}
build=${FUZZ_BUILD:-$root/build-fuzz}
jobs=${JOBS:-1}
target=${TARGET:-parse}
case $target in
  parse) pattern='*.mlir' corpus_name=corpus regressions=$here/regressions dict=(-dict="$here/mlir.dict") ;;
  bytecode) pattern='*.mlir.bc' corpus_name=corpus-bytecode regressions=$here/regressions/bytecode dict=() ;;
  pjrt) pattern='*.mlir.bc' corpus_name=corpus-pjrt regressions=$here/regressions/pjrt dict=() ;;
  sizes) pattern='*.mlir' corpus_name=corpus-sizes regressions=$here/regressions/sizes dict=() seeds=$seeds/testdata/dynamic ;;
  *) echo "run.sh: TARGET must be parse, bytecode, pjrt or sizes" >&2; exit 2 ;;
esac

CC=${CC:-clang} cmake -S "$root" -B "$build" -DKILN_FUZZ=ON -DKILN_SANITIZE=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" --target "fuzz_$target" -j "$(nproc)" >/dev/null
fuzzer=$build/tests/fuzz/fuzz_$target

corpus=$build/$corpus_name
mkdir -p "$corpus" "$build/artifacts" "$regressions"
n=0
copy_seeds() { # copies every .mlir (or any file, for regressions) under $1, named by content
  local dir=$1 pattern=$2
  [ -d "$dir" ] || { echo "run.sh: no seed folder $dir (skipped)"; return 0; }
  while IFS= read -r -d '' f; do
    [ "$(stat -c %s "$f")" -le 65536 ] || continue
    if [ "$target" = pjrt ] && [ "$dir" != "$regressions" ]; then # fuzz_pjrt's input: n, n option bytes, program
      { printf '\0'; cat "$f"; } >"$corpus/seed-$(sha1sum "$f" | cut -c1-16)"
    elif [ "$target" = sizes ] && [ "$dir" != "$regressions" ]; then # fuzz_sizes' input: 4 size bytes, program
      { printf '\003\015\001\000'; cat "$f"; } >"$corpus/seed-$(sha1sum "$f" | cut -c1-16)"
    else
      cp "$f" "$corpus/seed-$(sha1sum "$f" | cut -c1-16)"
    fi
    n=$((n + 1))
  done < <(find "$dir" -type f -name "$pattern" -print0)
}
copy_seeds "$seeds" "$pattern"
[ "$target" = parse ] && copy_seeds "$root/tests/parse/malformed" '*.mlir'
[ "$target" = parse ] && copy_seeds "$root/tests/parse/sdy" '*.mlir'
[ "$target" = parse ] && copy_seeds "$root/tests/spmd" '*.mlir'
[ "$target" = bytecode ] || [ "$target" = pjrt ] && copy_seeds "$root/tests/bytecode" '*.mlir.bc'
copy_seeds "$regressions" '*'
echo "run.sh: corpus $corpus: $(ls "$corpus" | wc -l) files ($n seeds copied)"

log=$build/fuzz.log
rm -f "$build"/artifacts/*
rc=0
t0=$(date +%s)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ "$jobs" -gt 1 ]; then
  (cd "$build" && "$fuzzer" "$corpus" -max_len=65536 -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
     -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
     -jobs="$jobs" -workers="$jobs" >"$log" 2>&1) || rc=$?
  cat "$build"/fuzz-*.log >>"$log" 2>/dev/null || true
else
  "$fuzzer" "$corpus" -max_len=65536 -timeout=10 -rss_limit_mb=2048 "${dict[@]}" -max_total_time="$secs" \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/" >"$log" 2>&1 || rc=$?
fi
elapsed=$(( $(date +%s) - t0 ))
execs=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
echo "run.sh: $execs executions in ${elapsed}s (log: $log)"
found=0
for a in "$build"/artifacts/*; do
  [ -e "$a" ] || continue
  found=1
  dest=$regressions/$(basename "$a")
  cp "$a" "$dest"
  echo "run.sh: finding: $dest"
done
if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
  grep -h -A40 -m1 'ERROR: \|runtime error\|fuzz_[a-z]*: ' "$log" | head -60 || true
  echo "run.sh: FAILED (fuzzer exit $rc)"
  exit 1
fi
echo "run.sh: no findings"
}
main "$@"
exit $?
