#!/usr/bin/env bash
# sdk.cmake_package: a project outside the tree finds a fresh install with
# find_package(kiln), builds an application (kiln::kiln) and a backend plugin (kiln::plugin,
# reading programs through the installed IR headers), and runs the program on both.
# usage: cmake_package.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
sdk_install "$build" "$work/prefix"
expect "configure with find_package(kiln)" 0 -- "$CMAKE" -S "$src/tests/sdk/consumer" -B "$work/build" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_C_COMPILER="$SDK_CC" -DCMAKE_C_FLAGS="-Wall -Wextra -Wno-unused-parameter -Werror $SDK_CFLAGS"
expect "build the application and the plugin" 0 -- "$CMAKE" --build "$work/build"
# Before 1.0 a minor release may break compatibility (docs/ABI.md): 0.0 does not take 0.1.
for want in 99.0 0.0; do
  expect "find_package(kiln $want) is refused" 1 "requested version \"$want\"" \
    -- "$CMAKE" -S "$src/tests/sdk/consumer" -B "$work/build-$want" -DCMAKE_PREFIX_PATH="$work/prefix" -DKILN_WANT=$want
done
expect "the out-of-tree plugin reads the program" 0 "^kiln [0-9.]+, headers [0-9.]+" \
  "opcount: opcount:0" "opcount: @main\(tensor<1x64xf32>, tensor<64x32xf32>, .*\): [0-9]+ ops, [0-9]+ values" \
  "interp: interp:0" "interp: compiled" -- env -i "$work/build/app" "$src/examples/mlp.mlir"
sdk_done
