#!/usr/bin/env bash
# The cpu backend's persistent compile cache end to end (src/backends/cpu/code_cache.h),
# every compile in a fresh process: a cold compile stores, a warm one loads (kiln bench
# says which) and computes the same results as code compiled without the cache; damaged
# entries (a flipped byte, cut short) are ignored, compiled again and replaced; processes
# compiling at once leave valid entries; the default folders; an off cache writes nothing;
# an unwritable folder or a bad setting only warns, once; another ISA cap is another key.
# Nothing is written outside a temporary folder (HOME points into it too).
# usage: check_code_cache.sh KILN CASE.mlir CHECK_CASES.mlir
set -u
kiln=$1 program=$2 checks=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kiln-code-cache-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
unset XDG_CACHE_HOME KILN_CACHE_MAX_BYTES KILN_CPU_DUMP_IR KILN_CPU_ISA
passed=0 failed=0
expect() { # expect DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}
entries() { find "$1" -name '*.obj' -type f 2>/dev/null | wc -l; }
temporaries() { find "$1" -name '*.obj.tmp.*' 2>/dev/null | wc -l; }
# The compile line of `kiln bench` with the cache in $1 (stderr in $tmp/err).
compile_line() {
  KILN_CACHE_DIR=$1 "$kiln" bench "$program" --device cpu --iterations 1 --warmup 0 2>"$tmp/err" | grep '^compile:'
}
says() { [[ "$(compile_line "$1")" == *"($2);"* ]]; } # says DIR "code cache hit"
run_to() { KILN_CACHE_DIR=$1 "$kiln" run "$program" --device cpu --output-dir "$2" >/dev/null 2>"$tmp/err"; }
checks_pass() { KILN_CACHE_DIR=$1 "$kiln" check --device cpu "$checks" >"$tmp/check" 2>"$tmp/err" && grep -q ' 0 failed' "$tmp/check"; }
flip_middle() { # flips one byte in the middle of file $1
  local size
  size=$(stat -c %s "$1")
  local at=$((size / 2))
  local byte
  byte=$(od -An -tu1 -j "$at" -N1 "$1" | tr -d ' ')
  printf "$(printf '\\%03o' $(((byte + 1) % 256)))" | dd of="$1" bs=1 seek="$at" conv=notrunc status=none
}

# Without the cache: the reference results, and nothing written anywhere.
expect "a run with the cache off" run_to "" "$tmp/off"
expect "an off cache writes nothing (no $HOME)" test ! -e "$HOME"

# Cold, then warm.
c=$tmp/c
expect "a cold compile misses" says "$c" "code cache miss"
n=$(entries "$c")
expect "the cold compile stored $n entries: one per code module (main, the while's regions) expected" test "$n" -ge 2
expect "a warm compile hits" says "$c" "code cache hit"
expect "no entry added by the warm compile" test "$(entries "$c")" -eq "$n"
expect "a run with the warm cache" run_to "$c" "$tmp/warm"
expect "cached code computes what freshly compiled code does" diff -r "$tmp/off" "$tmp/warm"
expect "the check cases pass with a cold cache" checks_pass "$tmp/k"
expect "and with a warm one" checks_pass "$tmp/k"

# Damaged entries: ignored, compiled again, replaced.
for damage in flip cut; do
  for f in "$c"/cpu/*.obj; do
    if [ "$damage" = flip ]; then flip_middle "$f"; else truncate -s $(($(stat -c %s "$f") / 2)) "$f"; fi
  done
  expect "$damage: every damaged entry is ignored (compiled again)" says "$c" "code cache miss"
  rm -rf "$tmp/again"
  expect "$damage: a run over damaged entries" run_to "$c" "$tmp/again"
  expect "$damage: its results are right" diff -r "$tmp/off" "$tmp/again"
  expect "$damage: the entries were replaced" says "$c" "code cache hit"
done

# Processes compiling at once into an empty cache.
pids=()
for i in 1 2 3 4; do
  KILN_CACHE_DIR=$tmp/p "$kiln" bench "$program" --device cpu --iterations 1 --warmup 0 >/dev/null 2>&1 &
  pids+=($!)
done
ok=0
for p in "${pids[@]}"; do wait "$p" && ok=$((ok + 1)); done
expect "4 processes compiling at once: $ok succeeded" test "$ok" -eq 4
expect "they left $(entries "$tmp/p") entries, $n expected" test "$(entries "$tmp/p")" -eq "$n"
expect "and no temporary" test "$(temporaries "$tmp/p")" -eq 0
expect "their entries are valid" says "$tmp/p" "code cache hit"

# The default folders.
expect "XDG_CACHE_HOME's kiln/cpu" env -u KILN_CACHE_DIR XDG_CACHE_HOME="$tmp/xdg" \
  "$kiln" run "$program" --device cpu --output-dir "$tmp/xdg-out"
expect "has the entries" test "$(entries "$tmp/xdg/kiln/cpu")" -eq "$n"
expect "then HOME's .cache/kiln/cpu" env -u KILN_CACHE_DIR "$kiln" run "$program" --device cpu --output-dir "$tmp/home-out"
expect "has the entries" test "$(entries "$HOME/.cache/kiln/cpu")" -eq "$n"

# An unwritable folder (under a regular file) and bad settings: compiles, one warning per
# process (kiln check runs each case in a process of its own; bench compiles several modules).
touch "$tmp/file"
expect "an unwritable cache folder: the checks still pass" checks_pass "$tmp/file/cache"
expect "a compile of several modules" says "$tmp/file/cache" "code cache miss"
expect "warns once" test "$(grep -c '^kiln: warning: compile cache: cannot create' "$tmp/err")" -eq 1
export KILN_CACHE_MAX_BYTES=lots
expect "KILN_CACHE_MAX_BYTES=lots: the checks still pass" checks_pass "$tmp/bad"
expect "with one warning naming it" grep -q '^kiln: warning: compile cache: KILN_CACHE_MAX_BYTES=lots' "$tmp/err"
expect "and nothing stored" test ! -e "$tmp/bad"
export KILN_CACHE_MAX_BYTES=100
expect "KILN_CACHE_MAX_BYTES=100: entries too big to keep" says "$tmp/small" "code cache miss"
expect "none kept" test "$(entries "$tmp/small")" -eq 0
unset KILN_CACHE_MAX_BYTES

# KILN_CPU_ISA=avx2 on an AVX-512 host compiles other code: another key.
if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
  export KILN_CPU_ISA=avx2
  expect "the AVX2 cap misses the native entries" says "$c" "code cache miss"
  expect "then hits its own" says "$c" "code cache hit"
  unset KILN_CPU_ISA
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
