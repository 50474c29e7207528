#!/usr/bin/env bash
# sdk.embed: examples/embed builds against a fresh install through pkg-config, with its own
# Makefile, and runs the digits classifier through the public API.
# usage: embed.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build=$1 src=$2 work=$3
for tool in "$MAKE" "$PKG_CONFIG"; do
  command -v "$tool" >/dev/null || { echo "skipped: no $tool"; exit $SKIP; }
done
rm -rf "$work"
mkdir -p "$work"
sdk_install "$build" "$work/prefix"
cp -r "$src/examples/embed" "$work/embed" # as a user would: the example outside the tree
rm -f "$work/embed/embed"

expect "make" 0 -- env PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" "$MAKE" -C "$work/embed" \
  CC="$SDK_CC" PKG_CONFIG="$PKG_CONFIG" CFLAGS="-O2 -g -Wall -Wextra -Werror $SDK_CFLAGS" LDFLAGS="$SDK_CFLAGS"
digits=$src/examples/digits
expect "embed runs the digits classifier" 0 "^kiln 0\.[0-9]+\.[0-9]+ \(built against" "device: ${KILN_TEST_DEFAULT_DEVICE:-interp}:0" \
  "result 0 argmax: 2" -- env -i "$work/embed/embed" "$digits/digits.mlir" "$digits/input.npy"
expect "embed: a missing input is an error" 1 "@main|input|argument" \
  -- env -i "$work/embed/embed" "$digits/digits.mlir"
printf 'func.func @main(%%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %%y : tensor<2xf32>\n}\n' >"$work/bad.mlir"
expect "embed: a bad model is a located error" 1 "embed: program: .*bad\.mlir:2:[0-9]+: error" \
  -- env -i "$work/embed/embed" "$work/bad.mlir" "$digits/input.npy"
sdk_done
