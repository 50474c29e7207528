#!/usr/bin/env bash
# A float scatter's private copies (scatter.c: REGROUP_CHUNKS) group its sums by the shapes
# alone: PROGRAM's result on the cpu device has the same bits on pools of 1, 2 and 3
# threads, and (so that the check is seen to bite) other bits than the interpreter's
# serial sums on this input.
# usage: check_regroup.sh KILN PROGRAM.mlir
set -u
kiln=$1 program=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
for t in 1 2 3; do
  KILN_CPU_THREADS=$t KILN_CPU_TIER=optimized "$kiln" run "$program" --device cpu --output-dir "$dir/cpu$t" >/dev/null ||
    { echo "FAIL: kiln run on the cpu device with KILN_CPU_THREADS=$t" >&2; fail=1; }
done
"$kiln" run "$program" --device interp --output-dir "$dir/interp" >/dev/null || { echo "FAIL: kiln run on interp" >&2; fail=1; }
for t in 2 3; do
  if ! cmp -s "$dir/cpu1/result_0.npy" "$dir/cpu$t/result_0.npy"; then
    echo "FAIL: the cpu device's sums differ between 1 and $t threads"
    fail=1
  fi
done
if cmp -s "$dir/cpu1/result_0.npy" "$dir/interp/result_0.npy"; then
  echo "FAIL: the cpu device's sums are the serial ones bit for bit: no private copies?"
  fail=1
fi
[ $fail -eq 0 ] && echo "ok: the same bits on 1, 2 and 3 threads, grouped unlike the serial sums"
exit $fail
