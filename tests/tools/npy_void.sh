#!/usr/bin/env bash
# `kiln run` reads a raw 2-byte void .npy ('<V2': np.save of a bfloat16 or float16 array
# that ml_dtypes does not name) as its parameter's type, bf16 or f16, and refuses it, saying
# why, for a parameter of another type.  usage: npy_void.sh KILN
set -u
kiln=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/npy_write.sh"
npy_write "$tmp/bf16.npy" '<V2' False '(3,)' '\x80\x3f\x00\x40\x00\xbf'   # 1, 2, -0.5 as bfloat16
npy_write "$tmp/f16.npy" '|V2' False '(3,)' '\x00\x3c\x00\x38\x00\xc0'    # 1, 0.5, -2 as float16
cat >"$tmp/p.mlir" <<'MLIR'
func.func @main(%a: tensor<3xbf16>, %b: tensor<3xf16>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = stablehlo.convert %a : (tensor<3xbf16>) -> tensor<3xf32>
  %1 = stablehlo.convert %b : (tensor<3xf16>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
MLIR
sed 's/tensor<3xbf16>) -> tensor<3xf32>/tensor<3xf32>) -> tensor<3xf32>/; s/%a: tensor<3xbf16>/%a: tensor<3xf32>/' \
  "$tmp/p.mlir" >"$tmp/f32.mlir"
fail=0
out=$("$kiln" run "$tmp/p.mlir" --input "$tmp/bf16.npy" --input "$tmp/f16.npy" --device interp 2>&1)
echo "$out"
for want in "1, 2, -0.5" "1, 0.5, -2"; do
  case "$out" in *"$want"*) ;; *) echo "FAIL: expected [$want] in the results"; fail=1 ;; esac
done
out=$("$kiln" run "$tmp/f32.mlir" --input "$tmp/bf16.npy" --input "$tmp/f16.npy" --device interp 2>&1) && {
  echo "FAIL: '<V2' for an f32 parameter was accepted"; fail=1; }
echo "$out"
case "$out" in *"input #0"*"raw 2-byte values ('V2') cannot be read as f32"*) ;;
  *) echo "FAIL: expected the reason for the f32 parameter"; fail=1 ;; esac
[ $fail = 0 ] && echo ok
exit $fail
