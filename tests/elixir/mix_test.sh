#!/usr/bin/env bash
# elixir.mix_test: the package's ExUnit tests (bindings/elixir/test), against this build.
# The package is copied out of the source tree first, so nothing is written there.
# usage: mix_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
build=$1 src=$2 work=$3
elixir_copy "$src" "$work"
cd "$clone/bindings/elixir"
export KILN_BUILD_DIR=$build KILN_BUILD_JOBS=2 MIX_ENV=test
expect "mix format --check-formatted" 0 -- mix format --check-formatted
expect "mix compile --warnings-as-errors" 0 -- mix compile --warnings-as-errors
expect "mix test" 0 ", 0 failures" -- mix test
sdk_done
