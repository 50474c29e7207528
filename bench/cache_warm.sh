#!/usr/bin/env bash
# The persistent compile cache (src/backends/cpu/code_cache.h) on the model zoo: for every
# model, a cold compile in a fresh process with an empty cache folder, then a second process
# compiling it with the cache that one left (warm), each `kiln bench`'s compile time (parse,
# verify, compile); the median of ROUNDS such pairs, and cold / warm.
#
#   bench/cache_warm.sh [--kiln PATH] [--rounds N] [--only NAME,...]
#
# Default kiln: build/kiln; models: bench/models/zoo/*/model.mlir (bench/run exports them).
# The cache folders are temporary; KILN_CPU_ISA and the like pass through. Exit status 1
# when a compile fails or the second process did not hit the cache.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kiln=$root/build/kiln rounds=3 only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --kiln) kiln=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/cache_warm.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kiln-cache-warm-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset KILN_CACHE_MAX_BYTES
# the optimising compile, whose code the cache holds (the fast-start tier has none to cache)
export KILN_CPU_TIER=optimized
# compile_ms DIR MODEL cold|warm: one process's compile time, checking the cache's answer:
# cold, not every module from the cache (a program whose nested functions compile to the
# same code hits its own entries: "2 of 7 modules hit"); warm, every module from it
compile_ms() {
  local line ok
  line=$(KILN_CACHE_DIR=$1 "$kiln" bench "$2" --device cpu --iterations 1 --warmup 0 | grep '^compile:') || return 1
  case $3 in
    cold) [[ "$line" == *"(code cache miss)"* || ( "$line" == *"modules hit)"* && "$line" != *"(code cache hit)"* ) ]] && ok=1 ;;
    warm) [[ "$line" == *"(code cache hit)"* ]] && ok=1 ;;
  esac
  [ -n "${ok:-}" ] || { echo "bench/cache_warm.sh: $2: '$line', a $3 cache expected" >&2; return 1; }
  echo "$line" | awk '{ print $2 }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "host: $("$kiln" devices 2>/dev/null | grep -o 'ISA [a-z0-9_]*' | head -1); $rounds rounds, medians"
printf '%-24s %10s %10s %8s\n' model "cold ms" "warm ms" ratio
status=0
for m in "$root"/bench/models/zoo/*/model.mlir; do
  name=$(basename "$(dirname "$m")")
  if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
  : >"$tmp/cold"
  : >"$tmp/warm"
  for r in $(seq "$rounds"); do
    dir=$tmp/$name-$r
    if ! compile_ms "$dir" "$m" cold >>"$tmp/cold" || ! compile_ms "$dir" "$m" warm >>"$tmp/warm"; then
      status=1
      continue 2
    fi
    rm -rf "$dir"
  done
  cold=$(median <"$tmp/cold") warm=$(median <"$tmp/warm")
  printf '%-24s %10.2f %10.2f %7.1fx\n' "$name" "$cold" "$warm" "$(awk -v a="$cold" -v b="$warm" 'BEGIN { print a / b }')"
done
exit $status
