#!/usr/bin/env bash
# Bad input to `kiln bench` fails with a non-zero exit status, nothing on stdout, and a
# message on stderr that says what is wrong.
# usage: bench_errors.sh KILN EXAMPLES_DIR
set -u
kiln=$1 ex=$2
mlp=$ex/mlp.mlir digits=$ex/digits/digits.mlir input=$ex/digits/input.npy
failed=0 passed=0
# expect MESSAGE ARGS...: kiln bench ARGS... must fail saying MESSAGE (a fixed string)
expect() {
  local want=$1
  shift
  local out err rc
  err=$("$kiln" bench "$@" 2>&1 >/dev/null)
  rc=$?
  out=$("$kiln" bench "$@" 2>/dev/null)
  if [ "$rc" -ne 0 ] && [ -z "$out" ] && printf '%s' "$err" | grep -Fq -- "$want"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: kiln bench $*: exit $rc, stdout '$out', stderr '$err'; wanted '$want'"
  fi
}
expect "no program given"
expect "--iterations takes a whole number" "$mlp" --iterations 0
expect "--iterations takes a whole number" "$mlp" --iterations 12x
expect "--warmup takes a whole number" --warmup -1 "$mlp"
expect "--iterations needs a value" "$mlp" --iterations
expect "unknown option '--bogus'" --bogus "$mlp"
expect "one program at a time" "$mlp" "$digits"
expect "cannot open" "$ex/no-such-file.mlir"
expect "no function @nope" "$digits" --function nope
expect "@main takes 5 inputs, 1 given" "$mlp" --input "$input"
expect "cannot open" "$digits" --input "$ex/no-such-input.npy"
expect "not a .npy file" "$digits" --input "$digits"
expect "input #0: @main expects tensor<1x64xf32>, got tensor<1x10xf32>" "$digits" --input "$ex/digits/expected.npy"
expect "nosuchdevice: no plugin found" "$mlp" --device nosuchdevice
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
