#!/usr/bin/env bash
# run_close.sh KILN NPY_CLOSE PROGRAM DEVICE [PROCESSES]: runs PROGRAM (DIR/NAME.mlir or
# DIR/NAME.mlir.bc, written by JAX) on DIR/NAME_in_*.npy with `kiln run --device DEVICE` and
# compares every result with JAX's DIR/NAME_out_*.npy (XLA:CPU), to 1e-5 (npy_close: absolute,
# relative for large values). With PROCESSES, kiln runs as that many processes of one launch
# (Open MPI's mpirun, on this machine). Prints "N passed, N failed"; exit 1 on any failure.
set -uo pipefail
kiln=$1 close=$2 program=$3 device=$4 processes=${5:-}
launcher=()
if [ -n "$processes" ]; then
  # root in CI containers; more processes than cores
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launcher=(mpirun --oversubscribe -np "$processes")
fi
dir=$(dirname "$program") file=$(basename "$program")
name=${file%%.mlir*}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
inputs=()
for f in "$dir/${name}"_in_*.npy; do inputs+=(--input "$f"); done
passed=0 failed=0
if ! "${launcher[@]}" "$kiln" run "$program" --device "$device" "${inputs[@]}" --output-dir "$out" >/dev/null; then
  echo "kiln run failed on $file"
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
