#!/usr/bin/env bash
# kiln run of warm_up.mlir on the cpu device: the interpreter step's print appears once (the
# compile's warm-up skipped it), the result is the while loop's (192) times w times w.
set -euo pipefail
kiln=$1 program=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# x.npy: the f32 scalar 3 (a version 1.0 header padded to 128 bytes, then 0x40400000)
header="{'descr': '<f4', 'fortran_order': False, 'shape': (), }"
header=$(printf "%-*s" $((128 - 10 - 1)) "$header")
{ printf '\x93NUMPY\x01\x00\x76\x00'; printf '%s\n' "$header"; printf '\x00\x00\x40\x40'; } >"$dir/x.npy"
out=$(timeout 60 "$kiln" run "$program" --device cpu --input "$dir/x.npy")
echo "$out"
prints=$(grep -c '^%[0-9]* = tensor<f32> {' <<<"$out" || true)
[ "$prints" -eq 1 ] || { echo "FAIL: the print appeared $prints times, expected once"; exit 1; }
grep -q '{1.920000e+02}' <<<"$out" || { echo "FAIL: the print did not show the loop's result"; exit 1; }
grep -qF '[[192, 768, 0, 0], [0, 192, 0, 0], [0, 0, 192, 0], [0, 0, 0, 192]]' <<<"$out" ||
  { echo "FAIL: wrong result"; exit 1; }
echo "warm-up: 1 passed, 0 failed"
