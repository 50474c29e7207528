#!/usr/bin/env bash
# `kiln run` reads a Fortran-ordered .npy (np.save of a transposed array: 'fortran_order':
# True) in its logical order, and refuses a fortran_order that is neither True nor False,
# saying so.  usage: npy_fortran.sh KILN
set -u
kiln=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/npy_write.sh"
# int32 values below 256: npy FILE FORTRAN_ORDER SHAPE VALUES...
npy() {
  local file=$1 order=$2 shape=$3 bytes=""
  shift 3
  for v in "$@"; do bytes="$bytes\\x$(printf %02x "$v")\\x00\\x00\\x00"; done
  npy_write "$file" '<i4' "$order" "$shape" "$bytes"
}
# v[i][j][k] = 6i + 2j + k + 1 over (2, 3, 2), stored with i fastest, then j, then k
npy "$tmp/f.npy" True '(2, 3, 2)' 1 7 3 9 5 11 2 8 4 10 6 12
npy "$tmp/c.npy" False '(2, 3, 2)' 1 2 3 4 5 6 7 8 9 10 11 12
npy "$tmp/bad.npy" Maybe '(2, 3, 2)' 1 2 3 4 5 6 7 8 9 10 11 12
cat >"$tmp/p.mlir" <<'MLIR'
func.func @main(%a: tensor<2x3x2xi32>) -> tensor<12xi32> {
  %0 = stablehlo.reshape %a : (tensor<2x3x2xi32>) -> tensor<12xi32>
  return %0 : tensor<12xi32>
}
MLIR
fail=0
for f in f c; do
  out=$("$kiln" run "$tmp/p.mlir" --input "$tmp/$f.npy" --device interp 2>&1)
  echo "$out"
  case "$out" in *"1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12"*) ;; *) echo "FAIL: $f.npy not read in its logical order"; fail=1 ;; esac
done
out=$("$kiln" run "$tmp/p.mlir" --input "$tmp/bad.npy" --device interp 2>&1) && {
  echo "FAIL: fortran_order Maybe was accepted"; fail=1; }
echo "$out"
case "$out" in *"bad.npy: malformed fortran_order"*) ;; *) echo "FAIL: expected the reason"; fail=1 ;; esac
[ $fail = 0 ] && echo ok
exit $fail
