#!/usr/bin/env bash
# check.sh KILN NPY_CLOSE DIR NAME DEVICE: runs DIR/NAME.mlir.bc (an artifact jax.export wrote)
# on NAME_in_*.npy with `kiln run --device DEVICE` and compares every result with JAX's
# NAME_out_*.npy (XLA:CPU), to 1e-5. Prints "N passed, N failed"; exit 1 on any failure.
set -uo pipefail
kiln=$1 close=$2 dir=$3 name=$4 device=$5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
inputs=()
for f in "$dir/${name}"_in_*.npy; do inputs+=(--input "$f"); done
passed=0 failed=0
if ! "$kiln" run "$dir/$name.mlir.bc" --device "$device" "${inputs[@]}" --output-dir "$out" >/dev/null; then
  echo "kiln run failed on $name.mlir.bc"
  failed=1
else
  for want in "$dir/${name}"_out_*.npy; do
    i=${want##*_out_}
    if "$close" "$out/result_${i%.npy}.npy" "$want" 1e-5 >/dev/null; then
      passed=$((passed + 1))
    else
      echo "result ${i%.npy} of $name differs from JAX's:"
      "$close" "$out/result_${i%.npy}.npy" "$want" 1e-5
      failed=$((failed + 1))
    fi
  done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
