#!/usr/bin/env bash
# KILN_CPU_ISA (src/backends/cpu/isa.h): runs PROGRAM on the cpu device with the object
# code the JIT links dumped (KILN_CPU_DUMP_OBJ), natively and capped to AVX2, and counts
# the instructions that begin with an EVEX prefix (0x62, which no other instruction begins
# with in 64-bit mode): none when capped; some natively on an AVX-512 host (so the count
# is seen to work). `kiln devices` must name the ISA; an unknown value passes cpu over.
# usage: check_isa_cap.sh KILN LLVM_OBJDUMP PROGRAM.mlir
set -u
kiln=$1 objdump=$2 program=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

evex_instructions() { # ISA: runs the program with KILN_CPU_ISA=ISA, prints the count
  mkdir -p "$dir/$1"
  KILN_CPU_ISA=$1 KILN_CPU_DUMP_OBJ="$dir/$1" "$kiln" check --device cpu "$program" >"$dir/$1.log" 2>&1 ||
    { cat "$dir/$1.log"; echo "kiln check failed with KILN_CPU_ISA=$1" >&2; fail=1; }
  local objects=("$dir/$1"/*.o)
  if [ ! -e "${objects[0]}" ]; then
    echo "no object code dumped with KILN_CPU_ISA=$1" >&2
    fail=1
  fi
  "$objdump" -d "${objects[@]}" | awk -F'\t' '/^ *[0-9a-f]+: / { split($1, a, ": "); if (a[2] ~ /^62 /) n++ } END { print n + 0 }'
}

capped=$(evex_instructions avx2)
native=$(evex_instructions native)
echo "EVEX instructions: $capped with KILN_CPU_ISA=avx2, $native natively"
if [ "$capped" -ne 0 ]; then
  echo "FAIL: AVX-512 instructions in the code generated for KILN_CPU_ISA=avx2"
  fail=1
fi
if grep -q avx512f /proc/cpuinfo && [ "$native" -eq 0 ]; then
  echo "FAIL: no AVX-512 instruction in the native code of an AVX-512 host (is the count broken?)"
  fail=1
fi

devices=$(KILN_CPU_ISA=avx2 "$kiln" devices 2>&1)
if ! printf '%s\n' "$devices" | grep -q 'uses cpu:0: host CPU, ISA avx2 (capped by KILN_CPU_ISA=avx2)'; then
  printf '%s\n' "$devices"
  echo "FAIL: kiln devices does not report the capped ISA"
  fail=1
fi
devices=$(KILN_CPU_ISA=avx3 "$kiln" devices 2>&1)
if ! printf '%s\n' "$devices" | grep -q 'cpu passed over: cpu: KILN_CPU_ISA=avx3: expected avx2, avx512 or native'; then
  printf '%s\n' "$devices"
  echo "FAIL: an unknown KILN_CPU_ISA is not reported"
  fail=1
fi
[ "$fail" -eq 0 ] && echo "ok"
exit "$fail"
